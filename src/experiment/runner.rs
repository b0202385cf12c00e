//! Running a [`Plan`]: warmups, timed runs in the chosen order, and hooks.
//!
//! The runner only sequences; measuring is the [`Executor`]'s job and storing
//! is the [`RunSink`]'s; the order of steps is the [`Schedule`]'s (produced
//! as the experiment goes) and when to stop is the [`failure`]
//! policy's. It takes the schedule in batches (so the launcher goes from one
//! run straight to the next) and handles each outcome as it arrives. Every
//! timed run — successful or not, and every one that completed before an
//! interrupt took effect — is given to the sink before the runner decides
//! whether to go on, so a failure or an interrupt never loses what was
//! measured. If the experiment stops because something failed, the cleanups
//! of commands whose setup ran are still attempted.

use std::time::Duration;

use crate::data::{RunRecord, Values};
use crate::measure::{sys, Batch, ExecError, Executor, Measurement, Outcome, Termination};

use super::clock::Clock;
use super::failure::{self, Failure, Step};
use super::schedule::{Kind, Programs, Schedule, ScheduledStep};
use super::{CommandPlan, HookKind, Plan};

/// The most steps sent to the executor at once (the launcher buffers at most
/// this many results).
const BATCH_STEPS: usize = 1024;

/// How long a batch should take. The launcher reports a batch's results when
/// it ends, so this bounds how long a completed run waits before its row is
/// written; a run longer than this is written as soon as it completes.
const BATCH_TARGET: Duration = Duration::from_millis(100);

/// The next batch's size from the last one's: as many steps as fit in
/// [`BATCH_TARGET`] at the pace just seen, growing at most fourfold.
fn next_batch_size(last_size: usize, last_took: Duration) -> usize {
    let per_step = last_took.as_secs_f64() / last_size.max(1) as f64;
    let fits = if per_step > 0.0 {
        (BATCH_TARGET.as_secs_f64() / per_step) as usize
    } else {
        BATCH_STEPS
    };
    fits.clamp(1, (last_size * 4).min(BATCH_STEPS))
}

/// Receives every timed run as it completes.
pub trait RunSink {
    fn record(&mut self, run: RunRecord) -> std::io::Result<()>;

    /// Something about a run the user should know that does not stop the
    /// experiment (a malformed line in the command's metrics file), with
    /// the run named.
    fn warn(&mut self, _message: &str) {}

    /// Timed run of command `cmd` is starting (for a display of what is
    /// running; called between runs, never during one).
    fn starting(&mut self, _cmd: usize) {}

    /// An adaptive experiment after `rounds` complete rounds: the round to
    /// go on to, or `None` to stop (then the cleanups run). Never called
    /// while a timed run is going.
    fn checkpoint(&mut self, _rounds: u64) -> Option<u64> {
        None
    }
}

impl RunSink for Vec<RunRecord> {
    fn record(&mut self, run: RunRecord) -> std::io::Result<()> {
        self.push(run);
        Ok(())
    }
}

/// Why an experiment ended before every run was done.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    #[error("{0}")]
    Failed(Box<Failure>),
    #[error("interrupted by {}", sys::signal_name(*.0))]
    Interrupted(i32),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error("cannot write the raw data: {0}; the rows already written are complete")]
    Sink(std::io::Error),
}

/// Run the whole plan. `interrupted` is polled before every batch and after
/// every step, and returns the signal that asked the tool to stop, if any;
/// batches are sized by the time on `clock` (the executor's).
pub fn run(
    plan: &Plan,
    exec: &mut dyn Executor,
    sink: &mut dyn RunSink,
    interrupted: &dyn Fn() -> Option<i32>,
    clock: &Clock,
) -> Result<(), Stop> {
    let programs = Programs::of(plan);
    exec.define(&programs.list)?;
    let mut steps = Schedule::new(plan, &programs);
    let mut state = State {
        plan,
        sink,
        interrupted,
        sequence: 0,
        done: vec![0; plan.commands.len()],
        set_up: vec![false; plan.commands.len()],
        warned: Default::default(),
        hooks_failed: Default::default(),
    };
    let result = run_steps(&mut state, exec, &mut steps, clock);
    if let Err(Stop::Failed(_)) = &result {
        let cleanups: Vec<u32> = (0..plan.commands.len())
            .filter(|&cmd| state.set_up[cmd])
            .filter_map(|cmd| programs.hook(cmd, HookKind::Cleanup))
            .collect();
        if !cleanups.is_empty() {
            // Best effort: the original failure is what gets reported.
            let batch = Batch {
                steps: &cleanups,
                timeout: plan.timeout,
                stop_on_failure: false,
            };
            let _ = exec.run_batch(&batch, &mut |_, _| true);
        }
    }
    result
}

fn run_steps(
    state: &mut State<'_>,
    exec: &mut dyn Executor,
    steps: &mut Schedule<'_>,
    clock: &Clock,
) -> Result<(), Stop> {
    let mut size = 1;
    // Reused for every batch: memory stays at one batch whatever the runs.
    let mut chunk: Vec<ScheduledStep> = Vec::with_capacity(BATCH_STEPS);
    let mut programs: Vec<u32> = Vec::with_capacity(BATCH_STEPS);
    loop {
        chunk.clear();
        chunk.extend(steps.by_ref().take(size));
        if chunk.is_empty() {
            match steps.paused() {
                Some(rounds) => {
                    match state.sink.checkpoint(rounds) {
                        Some(until) if until > rounds => steps.resume(until),
                        _ => steps.finish(),
                    }
                    continue;
                }
                None => return Ok(()),
            }
        }
        if let Some(sig) = (state.interrupted)() {
            return Err(Stop::Interrupted(sig));
        }
        let started = clock.now();
        programs.clear();
        programs.extend(chunk.iter().map(|s| s.program));
        let batch = Batch {
            steps: &programs,
            timeout: state.plan.timeout,
            stop_on_failure: !state.plan.ignore_failure,
        };
        let mut stop: Option<Stop> = None;
        let timed = |step: &ScheduledStep| step.kind == Kind::Run;
        if let Some(first) = chunk.iter().find(|s| timed(s)) {
            state.sink.starting(first.cmd);
        }
        exec.run_batch(&batch, &mut |k, outcome| {
            if stop.is_some() {
                // Already stopping: a run that completed before the executor
                // saw the cancel is still a measurement, and is kept.
                state.keep(chunk[k], outcome);
                return false;
            }
            match state.handle(chunk[k], outcome) {
                Ok(()) => {
                    // The next unit's run is at most three steps on (its
                    // conclude, the next prepare): never a scan of the batch.
                    if let Some(next) = chunk[k + 1..].iter().take(3).find(|s| timed(s)) {
                        state.sink.starting(next.cmd);
                    }
                    true
                }
                Err(s) => {
                    // After a failure the executor ends the batch by itself (and
                    // cleanups must still be able to run); anything else cancels.
                    let cancel = !matches!(s, Stop::Failed(_));
                    stop = Some(s);
                    !cancel
                }
            }
        })?;
        if let Some(s) = stop {
            return Err(s);
        }
        // A batch an adaptive experiment's pause cut short grows from the
        // size asked for, at the pace seen (as if it had been whole).
        let (asked, took) = (size, clock.since(started));
        size = if chunk.len() < asked {
            let whole = took.mul_f64(asked as f64 / chunk.len() as f64);
            next_batch_size(asked, whole)
        } else {
            next_batch_size(chunk.len(), took)
        };
    }
}

/// Distinct warnings shown per command about what its runs reported (its
/// metrics file), before one that says more are not shown.
const NOTES_SHOWN: usize = 5;

struct State<'a> {
    plan: &'a Plan,
    sink: &'a mut dyn RunSink,
    interrupted: &'a dyn Fn() -> Option<i32>,
    sequence: u64,
    /// Timed runs done per command.
    done: Vec<u64>,
    /// Setup has run and cleanup has not.
    set_up: Vec<bool>,
    /// Warnings given, per command, so that each is given once.
    warned: std::collections::HashSet<(usize, String)>,
    /// Hooks (command, option) whose failure under `-i` was told.
    hooks_failed: std::collections::HashSet<(usize, &'static str)>,
}

impl State<'_> {
    fn command(&self, i: usize) -> &CommandPlan {
        &self.plan.commands[i]
    }

    /// Record an outcome that arrives after the experiment was told to stop:
    /// a timed run that finished is kept (a write error is already being
    /// reported, so a second one is dropped).
    fn keep(&mut self, step: ScheduledStep, outcome: Outcome) {
        if let (Kind::Run, Outcome::Finished(mut m)) = (step.kind, outcome) {
            self.sequence += 1;
            self.done[step.cmd] += 1;
            let metrics = std::mem::take(&mut m.metrics);
            let record = self.record(step.cmd, &m, metrics);
            let _ = self.sink.record(record);
        }
    }

    /// Take one outcome: record a timed run, then decide whether to go on.
    fn handle(&mut self, step: ScheduledStep, outcome: Outcome) -> Result<(), Stop> {
        let mut m = match outcome {
            Outcome::Finished(m) => m,
            Outcome::Cancelled => {
                return Err(Stop::Interrupted(
                    (self.interrupted)().unwrap_or(libc::SIGINT),
                ))
            }
        };
        let i = step.cmd;
        if let Some(notes) = m.extras.as_ref().map(|x| &x.notes) {
            let run = match step.kind {
                Kind::Run => format!("run {}", self.done[i] + 1),
                _ => "a warmup run".to_string(),
            };
            for note in notes {
                // Once per command and problem: a command that writes a
                // bad line writes it every run. At most NOTES_SHOWN per
                // command: one that writes thousands of bad lines gets a
                // few and a word that there are more, not thousands.
                let shown = self.warned.iter().filter(|(c, _)| *c == i).count();
                if shown > NOTES_SHOWN || self.warned.contains(&(i, note.clone())) {
                    continue;
                }
                let text = &self.command(i).command.text;
                let message = if shown == NOTES_SHOWN {
                    format!(
                        "{run} of command {} ('{text}'): more problems like those above; \
                         no more are shown for this command",
                        i + 1
                    )
                } else {
                    format!(
                        "{run} of command {} ('{text}'): {note} (shown once per command)",
                        i + 1
                    )
                };
                self.warned.insert((i, note.clone()));
                self.sink.warn(&message);
            }
        }
        let (what, hook) = match step.kind {
            Kind::Run => {
                self.sequence += 1;
                self.done[i] += 1;
                let metrics = std::mem::take(&mut m.metrics);
                let record = self.record(i, &m, metrics);
                self.sink.record(record).map_err(Stop::Sink)?;
                (
                    Step::Run {
                        number: self.done[i],
                    },
                    None,
                )
            }
            Kind::Warmup => (Step::Warmup, None),
            Kind::Hook(kind) => {
                let hooks = &self.command(i).hooks;
                let text = match kind {
                    HookKind::Prepare => &hooks.prepare,
                    HookKind::Setup => &hooks.setup,
                    HookKind::Conclude => &hooks.conclude,
                    HookKind::Cleanup => &hooks.cleanup,
                };
                (Step::Hook(kind), text.as_ref().map(|h| h.text.clone()))
            }
        };
        self.check(i, what, hook, &m)?;
        match step.kind {
            Kind::Hook(HookKind::Setup) => self.set_up[i] = true,
            Kind::Hook(HookKind::Cleanup) => self.set_up[i] = false,
            _ => {}
        }
        match (self.interrupted)() {
            Some(sig) => Err(Stop::Interrupted(sig)),
            None => Ok(()),
        }
    }

    fn check(
        &mut self,
        i: usize,
        step: Step,
        hook: Option<String>,
        m: &Measurement,
    ) -> Result<(), Stop> {
        let Some(f) = failure::check(self.plan, i, step, hook, m) else {
            return Ok(());
        };
        if !self.plan.ignore_failure {
            return Err(Stop::Failed(Box::new(f)));
        }
        // Ignored (-i), but a hook that fails is said once: its runs
        // carry no trace of it.
        if let Step::Hook(kind) = f.step {
            if self.hooks_failed.insert((i, kind.option())) {
                self.sink.warn(&format!(
                    "{} (ignored: -i; not told again for this hook)",
                    f.what_happened()
                ));
            }
        }
        Ok(())
    }

    /// The record of a timed run; the measured `metrics` move into it.
    fn record(&self, i: usize, m: &Measurement, metrics: Values) -> RunRecord {
        let c = self.command(i);
        RunRecord {
            command: c.command.text.clone(),
            shell: self.plan.shell.clone(),
            name: c.name.clone().unwrap_or_default(),
            batch: i as u64 + 1,
            parameters: c.parameters.clone(),
            exit_code: m.exit_code(),
            no_exit_code: false,
            sequence: Some(self.sequence),
            start_unix_us: Some(m.start_unix_us),
            signal: match m.termination {
                Termination::Signaled(s) => Some(s),
                Termination::Exited(_) => None,
            },
            signal_unknown: false,
            timed_out: m.timed_out,
            metrics,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Metric;
    use crate::experiment::{Hooks, Order};
    use crate::measure::Program;
    use std::cell::Cell;

    /// Answers a job from its text and its position in the call log.
    type Rule = Box<dyn FnMut(&str, usize) -> Outcome>;

    /// A scripted executor: logs every argv it is asked to run and answers
    /// from a rule, so runner logic is tested without any real process.
    struct Fake {
        programs: Vec<String>,
        log: Vec<String>,
        rule: Rule,
        cancelled: bool,
        batches: usize,
        /// Steps that complete after a cancel was asked for, before the
        /// launcher sees it (their results are already in the pipe).
        in_flight: usize,
    }

    impl Fake {
        fn ok() -> Self {
            Fake::with(|_, _| Outcome::Finished(measurement(Termination::Exited(0))))
        }

        fn with(rule: impl FnMut(&str, usize) -> Outcome + 'static) -> Self {
            Fake {
                programs: Vec::new(),
                log: Vec::new(),
                rule: Box::new(rule),
                cancelled: false,
                batches: 0,
                in_flight: 0,
            }
        }
    }

    impl Executor for Fake {
        fn define(&mut self, programs: &[Program]) -> Result<(), ExecError> {
            self.programs = programs.iter().map(|p| p.argv.join(" ")).collect();
            Ok(())
        }

        /// Follows the batch contract of [`Executor`] exactly as the
        /// launcher does.
        fn run_batch(
            &mut self,
            batch: &Batch<'_>,
            each: &mut dyn FnMut(usize, Outcome) -> bool,
        ) -> Result<(), ExecError> {
            assert!(batch.steps.len() <= BATCH_STEPS);
            self.batches += 1;
            for (i, &p) in batch.steps.iter().enumerate() {
                if self.cancelled {
                    if self.in_flight == 0 {
                        return Ok(());
                    }
                    self.in_flight -= 1;
                }
                let text = self.programs[p as usize].clone();
                self.log.push(text.clone());
                let n = self.log.len();
                let outcome = (self.rule)(&text, n);
                let ends = outcome.ends_batch(batch.stop_on_failure);
                if !each(i, outcome) {
                    self.cancelled = true;
                }
                if ends {
                    break;
                }
            }
            Ok(())
        }
    }

    fn measurement(t: Termination) -> Measurement {
        Measurement {
            start_unix_us: 1,
            termination: t,
            timed_out: false,
            metrics: Values::new()
                .with(Metric::WALL, 10)
                .with(Metric::USER, 3)
                .with(Metric::SYSTEM, 4)
                .with(Metric::MAXRSS, 4096)
                .with(Metric::MINOR_FAULTS, 1)
                .with(Metric::MAJOR_FAULTS, 0)
                .with(Metric::VOLUNTARY_CSW, 1)
                .with(Metric::INVOLUNTARY_CSW, 2),
            extras: None,
        }
    }

    use crate::experiment::plan::{test_hook as hook, test_plan};

    fn plan(commands: &[&str], warmup: u64, runs: u64, order: Order) -> Plan {
        test_plan(commands, warmup, runs, order, 42)
    }

    fn never() -> Option<i32> {
        None
    }

    #[test]
    fn sequential_runs_warmups_then_mirrored_blocks() {
        let p = plan(&["A", "B"], 1, 2, Order::Sequential);
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        assert_eq!(fake.log, ["A", "A", "B", "B", "B", "A", "A"]);
        let batches: Vec<u64> = rows.iter().map(|r| r.batch).collect();
        assert_eq!(batches, [1, 2, 2, 1]);
        let seq: Vec<u64> = rows.iter().map(|r| r.sequence.unwrap()).collect();
        assert_eq!(seq, [1, 2, 3, 4]);
    }

    #[test]
    fn interleave_does_all_warmups_first_then_rounds() {
        let p = plan(&["A", "B", "C"], 1, 2, Order::Interleave);
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        assert_eq!(fake.log, ["A", "B", "C", "A", "B", "C", "A", "B", "C"]);
        assert_eq!(rows.len(), 6);
    }

    /// Stops an adaptive experiment after `stop` rounds, asking again
    /// every `step` rounds, and logs where it was asked.
    struct Stopping {
        rows: Vec<RunRecord>,
        asked: Vec<u64>,
        step: u64,
        stop: u64,
    }

    impl RunSink for Stopping {
        fn record(&mut self, run: RunRecord) -> std::io::Result<()> {
            self.rows.push(run);
            Ok(())
        }

        fn checkpoint(&mut self, rounds: u64) -> Option<u64> {
            self.asked.push(rounds);
            (rounds < self.stop).then_some(rounds + self.step)
        }
    }

    #[test]
    fn an_adaptive_plan_pauses_at_round_boundaries_and_stops_when_told() {
        let mut p = plan(&["A", "B"], 1, 1000, Order::Random);
        p.adaptive = true;
        p.commands[0].hooks.cleanup = Some(hook("cleanA"));
        let mut fake = Fake::ok();
        let mut sink = Stopping {
            rows: Vec::new(),
            asked: Vec::new(),
            step: 3,
            stop: 7,
        };
        run(&p, &mut fake, &mut sink, &never, &Clock::real()).unwrap();
        // Asked after the first round, then where it asked to be asked;
        // the last answer ran over the stop and was cut at the next ask.
        assert_eq!(sink.asked, [1, 4, 7]);
        assert_eq!(sink.rows.len(), 14);
        // Complete rounds only, then the cleanup.
        assert_eq!(fake.log.len(), 2 + 14 + 1);
        assert_eq!(fake.log.last().map(String::as_str), Some("cleanA"));
        // Never beyond the plan's rounds.
        p.runs = 5;
        let mut sink = Stopping {
            rows: Vec::new(),
            asked: Vec::new(),
            step: 3,
            stop: 100,
        };
        run(&p, &mut Fake::ok(), &mut sink, &never, &Clock::real()).unwrap();
        assert_eq!(sink.asked, [1, 4]);
        assert_eq!(sink.rows.len(), 10);
    }

    #[test]
    fn random_order_gives_every_command_exactly_r_runs_reproducibly() {
        let p = plan(&["A", "B", "C", "D"], 0, 25, Order::Random);
        let mut first = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut first, &mut rows, &never, &Clock::real()).unwrap();
        for batch in 1..=4 {
            assert_eq!(rows.iter().filter(|r| r.batch == batch).count(), 25);
        }
        // Each round is a permutation of all commands.
        for round in first.log.chunks(4) {
            let mut r = round.to_vec();
            r.sort();
            assert_eq!(r, ["A", "B", "C", "D"]);
        }
        assert_ne!(
            first.log,
            plan(&["A", "B", "C", "D"], 0, 25, Order::Interleave)
                .commands
                .iter()
                .cycle()
                .take(100)
                .map(|c| c.command.text.clone())
                .collect::<Vec<_>>(),
            "random order should not be the interleaved order"
        );
        let mut again = Fake::ok();
        run(&p, &mut again, &mut Vec::new(), &never, &Clock::real()).unwrap();
        assert_eq!(first.log, again.log, "the same seed gives the same order");
        let mut other = p.clone();
        other.seed = 43;
        let mut third = Fake::ok();
        run(&other, &mut third, &mut Vec::new(), &never, &Clock::real()).unwrap();
        assert_ne!(first.log, third.log);
    }

    #[test]
    fn hooks_run_in_hyperfine_order() {
        let mut p = plan(&["A"], 1, 2, Order::Sequential);
        p.commands[0].hooks = Hooks {
            prepare: Some(hook("prep")),
            setup: Some(hook("setup")),
            conclude: Some(hook("concl")),
            cleanup: Some(hook("clean")),
        };
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        assert_eq!(
            fake.log,
            ["setup", "prep", "A", "concl", "prep", "A", "concl", "prep", "A", "concl", "clean"]
        );
        assert_eq!(rows.len(), 2);
    }

    #[test]
    fn a_failing_run_is_recorded_then_stops_the_experiment() {
        let p = plan(&["A", "B"], 0, 3, Order::Sequential);
        let mut fake = Fake::with(|_, n| {
            let code = if n == 2 { 3 } else { 0 };
            Outcome::Finished(measurement(Termination::Exited(code)))
        });
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap_err();
        assert_eq!(rows.len(), 2, "the failed run is kept");
        assert_eq!(rows[1].exit_code, 3);
        let Stop::Failed(f) = err else {
            panic!("expected a failure")
        };
        assert_eq!(f.step, Step::Run { number: 2 });
        let msg = f.to_string();
        assert!(
            msg.contains("run 2 of command 1 ('A') exited with code 3"),
            "{msg}"
        );
        assert!(msg.contains("-i/--ignore-failure"), "{msg}");
        assert_eq!(fake.log, ["A", "A"]);
    }

    #[test]
    fn ignore_failure_keeps_going_and_records_codes_and_signals() {
        let mut p = plan(&["A"], 0, 3, Order::Sequential);
        p.ignore_failure = true;
        let mut fake = Fake::with(|_, n| {
            Outcome::Finished(measurement(match n {
                1 => Termination::Exited(1),
                2 => Termination::Signaled(9),
                _ => Termination::Exited(0),
            }))
        });
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        let codes: Vec<(i32, Option<i32>)> = rows.iter().map(|r| (r.exit_code, r.signal)).collect();
        assert_eq!(codes, [(1, None), (137, Some(9)), (0, None)]);
    }

    #[test]
    fn a_signal_stops_without_ignore_failure() {
        let p = plan(&["A"], 0, 3, Order::Sequential);
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Signaled(11))));
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap_err();
        assert!(err.to_string().contains("killed by SIGSEGV"), "{err}");
        assert_eq!(rows.len(), 1);
    }

    #[test]
    fn timeouts_are_recorded_and_named() {
        let mut p = plan(&["A"], 0, 2, Order::Sequential);
        p.timeout = Some(Duration::from_millis(1500));
        let mut fake = Fake::with(|_, _| {
            let mut m = measurement(Termination::Signaled(9));
            m.timed_out = true;
            Outcome::Finished(m)
        });
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap_err();
        assert!(err.to_string().contains("timed out after 1.5 s"), "{err}");
        assert!(rows[0].timed_out);
    }

    #[test]
    fn failing_warmups_and_hooks_stop_and_cleanup_still_runs() {
        let mut p = plan(&["A"], 1, 2, Order::Sequential);
        p.commands[0].hooks.setup = Some(hook("setup"));
        p.commands[0].hooks.cleanup = Some(hook("clean"));
        p.commands[0].hooks.prepare = Some(hook("prep"));
        let mut fake = Fake::with(|text, _| {
            let code = if text == "prep" { 5 } else { 0 };
            Outcome::Finished(measurement(Termination::Exited(code)))
        });
        let err = run(&p, &mut fake, &mut Vec::new(), &never, &Clock::real()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("the --prepare command 'prep' of command 1 exited with code 5"),
            "{msg}"
        );
        assert_eq!(fake.log, ["setup", "prep", "clean"]);

        let p = plan(&["A"], 2, 2, Order::Sequential);
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Exited(1))));
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap_err();
        assert!(
            err.to_string().contains("a warmup run of command 1"),
            "{err}"
        );
        assert!(rows.is_empty(), "warmups are never recorded");
    }

    #[test]
    fn an_interrupt_during_a_run_keeps_it_and_starts_nothing_more() {
        let p = plan(&["A"], 0, 50, Order::Sequential);
        // SIGTERM arrives while run 3 is running; the run still completes.
        let signalled = std::rc::Rc::new(Cell::new(false));
        let during = signalled.clone();
        let mut fake = Fake::with(move |_, n| {
            if n == 3 {
                during.set(true);
            }
            Outcome::Finished(measurement(Termination::Exited(0)))
        });
        let interrupted = || signalled.get().then_some(libc::SIGTERM);
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &interrupted, &Clock::real()).unwrap_err();
        assert!(matches!(err, Stop::Interrupted(libc::SIGTERM)));
        assert_eq!(rows.len(), 3);
        assert_eq!(fake.log.len(), 3, "nothing starts after the interrupt");
    }

    #[test]
    fn runs_completed_before_the_cancel_took_effect_are_all_kept() {
        let p = plan(&["A"], 0, 5000, Order::Sequential);
        // SIGTERM arrives after run 30; the launcher had already finished
        // 40 more runs of the batch (results in the pipe) when it saw it.
        let signalled = std::rc::Rc::new(Cell::new(false));
        let during = signalled.clone();
        let mut fake = Fake::with(move |_, n| {
            if n == 30 {
                during.set(true);
            }
            Outcome::Finished(measurement(Termination::Exited(0)))
        });
        fake.in_flight = 40;
        let interrupted = || signalled.get().then_some(libc::SIGTERM);
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &interrupted, &Clock::real()).unwrap_err();
        assert!(matches!(err, Stop::Interrupted(libc::SIGTERM)));
        assert_eq!(fake.log.len(), 70, "30 runs, then 40 in flight");
        assert_eq!(rows.len(), 70, "every completed run is recorded");
        let seq: Vec<u64> = rows.iter().map(|r| r.sequence.unwrap()).collect();
        assert_eq!(seq, (1..=70).collect::<Vec<_>>());
    }

    #[test]
    fn a_cancelled_run_is_not_recorded() {
        let p = plan(&["A"], 0, 5, Order::Sequential);
        let mut fake = Fake::with(|_, n| {
            if n == 2 {
                Outcome::Cancelled
            } else {
                Outcome::Finished(measurement(Termination::Exited(0)))
            }
        });
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap_err();
        assert!(matches!(err, Stop::Interrupted(libc::SIGINT)));
        assert_eq!(rows.len(), 1);
    }

    #[test]
    fn shell_127_suggests_dash_c() {
        let mut p = plan(&["ls -l"], 0, 1, Order::Sequential);
        p.shell = "/bin/bash".into();
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Exited(127))));
        let err = run(&p, &mut fake, &mut Vec::new(), &never, &Clock::real()).unwrap_err();
        assert!(err.to_string().contains("'-c'"), "{err}");
    }

    #[test]
    fn batches_grow_to_the_time_target_and_shrink_for_slow_runs() {
        let ms = Duration::from_millis;
        assert_eq!(next_batch_size(1, ms(1)), 4, "grows at most fourfold");
        assert_eq!(next_batch_size(256, ms(10)), 1024, "capped at BATCH_STEPS");
        assert_eq!(
            next_batch_size(100, ms(200)),
            50,
            "two runs per 0.1 s at 2 ms a run"
        );
        assert_eq!(
            next_batch_size(8, ms(8000)),
            1,
            "a slow command is reported run by run"
        );
        assert_eq!(next_batch_size(3, Duration::ZERO), 12);
    }

    /// Records the size of every batch it passes on.
    struct Sizes<E>(E, Vec<usize>);

    impl<E: Executor> Executor for Sizes<E> {
        fn define(&mut self, programs: &[Program]) -> Result<(), ExecError> {
            self.0.define(programs)
        }

        fn run_batch(
            &mut self,
            batch: &Batch<'_>,
            each: &mut dyn FnMut(usize, Outcome) -> bool,
        ) -> Result<(), ExecError> {
            self.1.push(batch.steps.len());
            self.0.run_batch(batch, each)
        }
    }

    #[test]
    fn batches_are_sized_by_the_executors_clock() {
        use crate::experiment::scripted::{Script, Scripted};
        // Runs of 40 ms on a scripted clock: a batch of 1 took 40 ms, so
        // the next holds 2 (80 ms), and 2 stay 2 (100 ms would need 2.5).
        let p = plan(&["A"], 0, 9, Order::Sequential);
        let scripted = Scripted::new(Script::parse("A => wall=40ms").unwrap());
        let clock = scripted.clock();
        let mut exec = Sizes(scripted, Vec::new());
        let mut rows = Vec::new();
        run(&p, &mut exec, &mut rows, &never, &clock).unwrap();
        assert_eq!(exec.1, [1, 2, 2, 2, 2]);
        assert_eq!(rows.len(), 9);
    }

    #[test]
    fn long_experiments_are_cut_into_batches_without_losing_steps() {
        let p = plan(&["A", "B"], 3, 2000, Order::Interleave);
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        assert_eq!(rows.len(), 4000);
        assert_eq!(fake.log.len(), 4006);
        assert!(fake.batches > 4, "more than one batch: {}", fake.batches);
        let seq: Vec<u64> = rows.iter().map(|r| r.sequence.unwrap()).collect();
        assert_eq!(seq, (1..=4000).collect::<Vec<_>>());
    }

    #[test]
    fn records_carry_the_measurement_and_identity() {
        let mut p = plan(&["A"], 0, 1, Order::Sequential);
        p.commands[0].name = Some("alpha".into());
        p.shell = "/bin/sh -c".into();
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never, &Clock::real()).unwrap();
        let r = &rows[0];
        assert_eq!(
            (r.command.as_str(), r.name.as_str(), r.shell.as_str()),
            ("A", "alpha", "/bin/sh -c")
        );
        let int = |m| r.metrics.int(m).unwrap();
        assert_eq!(
            [Metric::USER, Metric::SYSTEM, Metric::WALL, Metric::MAXRSS].map(int),
            [3, 4, 10, 4096]
        );
        assert_eq!([Metric::TOTAL, Metric::TOTAL_CSW].map(int), [7, 3]);
    }
}

//! Running a [`Plan`]: warmups, timed runs in the chosen order, and hooks.
//!
//! The runner only sequences; measuring is the [`Executor`]'s job and storing
//! is the [`RunSink`]'s. Every timed run — successful or not — is handed to
//! the sink as soon as it completes, before the runner decides whether to go
//! on, so a failure or an interrupt never loses what was measured.
//!
//! Event order for one command (sequential order):
//! `setup`, then per warmup `prepare, warmup, conclude`, then per timed run
//! `prepare, run, conclude`, then `cleanup`. With `interleave`/`random`,
//! every command's setup and warmups come first (in input order), then the
//! rounds, then every cleanup. If the experiment stops because something
//! failed, the cleanups of commands whose setup ran are still attempted.

use std::fmt;
use std::time::Duration;

use crate::data::RunRecord;
use crate::measure::{sys, ExecError, Executor, Job, Measurement, Outcome, Termination};

use super::{CommandPlan, Hook, HookKind, Order, Plan, SplitMix64};

/// Receives every timed run as it completes.
pub trait RunSink {
    fn record(&mut self, run: &RunRecord) -> std::io::Result<()>;
}

impl RunSink for Vec<RunRecord> {
    fn record(&mut self, run: &RunRecord) -> std::io::Result<()> {
        self.push(run.clone());
        Ok(())
    }
}

/// What was running when something failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Warmup,
    Run { number: u64 },
    Hook(HookKind),
}

/// A failure that stopped the experiment (without `-i`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 0-based index of the command concerned.
    pub index: usize,
    pub command: String,
    pub step: Step,
    /// The text of the hook, for hook failures.
    pub hook: Option<String>,
    pub termination: Termination,
    pub timed_out: Option<Duration>,
    /// A shell was used (for the `-c` hint).
    pub shell: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.step {
            Step::Warmup => format!(
                "a warmup run of command {} ('{}')",
                self.index + 1,
                self.command
            ),
            Step::Run { number } => format!(
                "run {number} of command {} ('{}')",
                self.index + 1,
                self.command
            ),
            Step::Hook(kind) => format!(
                "the {} command '{}' of command {}",
                kind.option(),
                self.hook.as_deref().unwrap_or(""),
                self.index + 1
            ),
        };
        let how = match (self.timed_out, self.termination) {
            (Some(t), _) => format!("timed out after {}", fmt_duration(t)),
            (None, Termination::Exited(code)) => format!("exited with code {code}"),
            (None, Termination::Signaled(sig)) => {
                format!("was killed by {}", sys::signal_name(sig))
            }
        };
        let recorded = if matches!(self.step, Step::Run { .. }) {
            " (that run is recorded)"
        } else {
            ""
        };
        let hint = if !self.shell.is_empty()
            && self.termination == Termination::Exited(127)
            && !self.shell.trim_end().ends_with(" -c")
        {
            "; shells usually need '-c' before the command, e.g. -s \"/bin/sh -c\""
        } else {
            "; use -i/--ignore-failure to keep going"
        };
        write!(f, "{what} {how}{recorded}{hint}")
    }
}

fn fmt_duration(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
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

/// Run the whole plan. `interrupted` is polled before every step and returns
/// the signal that asked the tool to stop, if any.
pub fn run(
    plan: &Plan,
    exec: &mut dyn Executor,
    sink: &mut dyn RunSink,
    interrupted: &dyn Fn() -> Option<i32>,
) -> Result<(), Stop> {
    let mut state = State {
        plan,
        exec,
        sink,
        interrupted,
        sequence: 0,
        done: vec![0; plan.commands.len()],
        set_up: vec![false; plan.commands.len()],
    };
    let result = state.run_all();
    if let Err(Stop::Failed(_)) = &result {
        state.cleanup_after_failure();
    }
    result
}

struct State<'a> {
    plan: &'a Plan,
    exec: &'a mut dyn Executor,
    sink: &'a mut dyn RunSink,
    interrupted: &'a dyn Fn() -> Option<i32>,
    sequence: u64,
    /// Timed runs done per command.
    done: Vec<u64>,
    /// Setup has run and cleanup has not.
    set_up: Vec<bool>,
}

impl State<'_> {
    fn run_all(&mut self) -> Result<(), Stop> {
        let n = self.plan.commands.len();
        match self.plan.order {
            Order::Sequential => {
                for i in 0..n {
                    self.start_command(i)?;
                    for _ in 0..self.plan.runs {
                        self.timed_run(i)?;
                    }
                    self.finish_command(i)?;
                }
            }
            Order::Interleave | Order::Random => {
                for i in 0..n {
                    self.start_command(i)?;
                }
                let mut rng = SplitMix64::new(self.plan.seed);
                let mut round: Vec<usize> = (0..n).collect();
                for _ in 0..self.plan.runs {
                    if self.plan.order == Order::Random {
                        rng.shuffle(&mut round);
                    }
                    for &i in &round {
                        self.timed_run(i)?;
                    }
                }
                for i in 0..n {
                    self.finish_command(i)?;
                }
            }
        }
        Ok(())
    }

    fn command(&self, i: usize) -> &CommandPlan {
        &self.plan.commands[i]
    }

    fn start_command(&mut self, i: usize) -> Result<(), Stop> {
        if let Some(setup) = self.command(i).hooks.setup.clone() {
            self.hook(i, HookKind::Setup, &setup)?;
        }
        self.set_up[i] = true;
        for _ in 0..self.plan.warmup {
            self.around(i, HookKind::Prepare)?;
            let argv = self.command(i).command.argv.clone();
            let m = self.execute(&argv, self.plan.show_output)?;
            self.check(i, Step::Warmup, None, &m)?;
            self.around(i, HookKind::Conclude)?;
        }
        Ok(())
    }

    fn finish_command(&mut self, i: usize) -> Result<(), Stop> {
        self.set_up[i] = false;
        if let Some(cleanup) = self.command(i).hooks.cleanup.clone() {
            self.hook(i, HookKind::Cleanup, &cleanup)?;
        }
        Ok(())
    }

    fn timed_run(&mut self, i: usize) -> Result<(), Stop> {
        self.around(i, HookKind::Prepare)?;
        let argv = self.command(i).command.argv.clone();
        let m = self.execute(&argv, self.plan.show_output)?;
        self.sequence += 1;
        self.done[i] += 1;
        let record = self.record(i, &m);
        self.sink.record(&record).map_err(Stop::Sink)?;
        self.check(
            i,
            Step::Run {
                number: self.done[i],
            },
            None,
            &m,
        )?;
        self.around(i, HookKind::Conclude)
    }

    /// Run the prepare or conclude hook of command `i`, if it has one.
    fn around(&mut self, i: usize, kind: HookKind) -> Result<(), Stop> {
        let hooks = &self.command(i).hooks;
        let hook = match kind {
            HookKind::Prepare => hooks.prepare.clone(),
            HookKind::Conclude => hooks.conclude.clone(),
            _ => None,
        };
        match hook {
            Some(h) => self.hook(i, kind, &h),
            None => Ok(()),
        }
    }

    fn hook(&mut self, i: usize, kind: HookKind, hook: &Hook) -> Result<(), Stop> {
        // Hooks are never timed and their output is always discarded.
        let m = self.execute(&hook.argv, false)?;
        self.check(i, Step::Hook(kind), Some(hook.text.clone()), &m)
    }

    fn execute(&mut self, argv: &[String], show_output: bool) -> Result<Measurement, Stop> {
        if let Some(sig) = (self.interrupted)() {
            return Err(Stop::Interrupted(sig));
        }
        let job = Job {
            argv,
            show_output,
            timeout: self.plan.timeout,
        };
        match self.exec.execute(&job)? {
            Outcome::Finished(m) => Ok(m),
            Outcome::Cancelled => Err(Stop::Interrupted(
                (self.interrupted)().unwrap_or(libc::SIGINT),
            )),
        }
    }

    fn check(
        &self,
        i: usize,
        step: Step,
        hook: Option<String>,
        m: &Measurement,
    ) -> Result<(), Stop> {
        if m.succeeded() || self.plan.ignore_failure {
            return Ok(());
        }
        Err(Stop::Failed(Box::new(Failure {
            index: i,
            command: self.command(i).command.text.clone(),
            step,
            hook,
            termination: m.termination,
            timed_out: m.timed_out.then(|| self.plan.timeout.unwrap_or_default()),
            shell: self.plan.shell.clone(),
        })))
    }

    fn record(&self, i: usize, m: &Measurement) -> RunRecord {
        let c = self.command(i);
        RunRecord {
            command: c.command.text.clone(),
            shell: self.plan.shell.clone(),
            name: c.name.clone().unwrap_or_default(),
            batch: i as u64 + 1,
            exit_code: m.exit_code(),
            user_us: m.user_us,
            system_us: m.system_us,
            maxrss_bytes: m.maxrss_bytes,
            minor_faults: m.minor_faults,
            major_faults: m.major_faults,
            voluntary_csw: m.voluntary_csw,
            involuntary_csw: m.involuntary_csw,
            wall_us: m.wall_us,
            sequence: Some(self.sequence),
            start_unix_us: Some(m.start_unix_us),
            signal: match m.termination {
                Termination::Signaled(s) => Some(s),
                Termination::Exited(_) => None,
            },
            timed_out: m.timed_out,
        }
    }

    /// After a failure: attempt the cleanup of every command still set up.
    /// Their own failures are ignored; the original failure is what matters.
    fn cleanup_after_failure(&mut self) {
        for i in 0..self.plan.commands.len() {
            if self.set_up[i] {
                self.set_up[i] = false;
                if let Some(cleanup) = self.command(i).hooks.cleanup.clone() {
                    let _ = self.execute(&cleanup.argv, false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Hooks;
    use std::cell::Cell;

    /// Answers a job from its text and its position in the call log.
    type Rule = Box<dyn FnMut(&str, usize) -> Outcome>;

    /// A scripted executor: logs every argv it is asked to run and answers
    /// from a rule, so runner logic is tested without any real process.
    struct Fake {
        log: Vec<String>,
        rule: Rule,
    }

    impl Fake {
        fn ok() -> Self {
            Fake {
                log: Vec::new(),
                rule: Box::new(|_, _| Outcome::Finished(measurement(Termination::Exited(0)))),
            }
        }

        fn with(rule: impl FnMut(&str, usize) -> Outcome + 'static) -> Self {
            Fake {
                log: Vec::new(),
                rule: Box::new(rule),
            }
        }
    }

    impl Executor for Fake {
        fn execute(&mut self, job: &Job<'_>) -> Result<Outcome, ExecError> {
            let text = job.argv.join(" ");
            self.log.push(text.clone());
            let n = self.log.len();
            Ok((self.rule)(&text, n))
        }
    }

    fn measurement(t: Termination) -> Measurement {
        Measurement {
            start_unix_us: 1,
            wall_us: 10,
            user_us: 3,
            system_us: 4,
            maxrss_bytes: 4096,
            minor_faults: 1,
            major_faults: 0,
            voluntary_csw: 1,
            involuntary_csw: 2,
            termination: t,
            timed_out: false,
        }
    }

    fn hook(text: &str) -> Hook {
        Hook {
            text: text.into(),
            argv: vec![text.into()],
        }
    }

    fn plan(commands: &[&str], warmup: u64, runs: u64, order: Order) -> Plan {
        Plan {
            commands: commands
                .iter()
                .map(|c| CommandPlan {
                    command: hook(c),
                    name: None,
                    hooks: Hooks::default(),
                })
                .collect(),
            shell: String::new(),
            warmup,
            runs,
            order,
            seed: 42,
            timeout: None,
            ignore_failure: false,
            show_output: false,
        }
    }

    fn never() -> Option<i32> {
        None
    }

    #[test]
    fn sequential_runs_warmups_then_runs_per_command() {
        let p = plan(&["A", "B"], 1, 2, Order::Sequential);
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never).unwrap();
        assert_eq!(fake.log, ["A", "A", "A", "B", "B", "B"]);
        let batches: Vec<u64> = rows.iter().map(|r| r.batch).collect();
        assert_eq!(batches, [1, 1, 2, 2]);
        let seq: Vec<u64> = rows.iter().map(|r| r.sequence.unwrap()).collect();
        assert_eq!(seq, [1, 2, 3, 4]);
    }

    #[test]
    fn interleave_does_all_warmups_first_then_rounds() {
        let p = plan(&["A", "B", "C"], 1, 2, Order::Interleave);
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never).unwrap();
        assert_eq!(fake.log, ["A", "B", "C", "A", "B", "C", "A", "B", "C"]);
        assert_eq!(rows.len(), 6);
    }

    #[test]
    fn random_order_gives_every_command_exactly_r_runs_reproducibly() {
        let p = plan(&["A", "B", "C", "D"], 0, 25, Order::Random);
        let mut first = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut first, &mut rows, &never).unwrap();
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
        run(&p, &mut again, &mut Vec::new(), &never).unwrap();
        assert_eq!(first.log, again.log, "the same seed gives the same order");
        let mut other = p.clone();
        other.seed = 43;
        let mut third = Fake::ok();
        run(&other, &mut third, &mut Vec::new(), &never).unwrap();
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
        run(&p, &mut fake, &mut rows, &never).unwrap();
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
        let err = run(&p, &mut fake, &mut rows, &never).unwrap_err();
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
        run(&p, &mut fake, &mut rows, &never).unwrap();
        let codes: Vec<(i32, Option<i32>)> = rows.iter().map(|r| (r.exit_code, r.signal)).collect();
        assert_eq!(codes, [(1, None), (137, Some(9)), (0, None)]);
    }

    #[test]
    fn a_signal_stops_without_ignore_failure() {
        let p = plan(&["A"], 0, 3, Order::Sequential);
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Signaled(11))));
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never).unwrap_err();
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
        let err = run(&p, &mut fake, &mut rows, &never).unwrap_err();
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
        let err = run(&p, &mut fake, &mut Vec::new(), &never).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("the --prepare command 'prep' of command 1 exited with code 5"),
            "{msg}"
        );
        assert_eq!(fake.log, ["setup", "prep", "clean"]);

        let p = plan(&["A"], 2, 2, Order::Sequential);
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Exited(1))));
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &never).unwrap_err();
        assert!(
            err.to_string().contains("a warmup run of command 1"),
            "{err}"
        );
        assert!(rows.is_empty(), "warmups are never recorded");
    }

    #[test]
    fn an_interrupt_stops_before_the_next_step_keeping_rows() {
        let p = plan(&["A"], 0, 5, Order::Sequential);
        let calls = Cell::new(0);
        let interrupted = || {
            calls.set(calls.get() + 1);
            (calls.get() > 3).then_some(libc::SIGTERM)
        };
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        let err = run(&p, &mut fake, &mut rows, &interrupted).unwrap_err();
        assert!(matches!(err, Stop::Interrupted(libc::SIGTERM)));
        assert_eq!(rows.len(), 3);
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
        let err = run(&p, &mut fake, &mut rows, &never).unwrap_err();
        assert!(matches!(err, Stop::Interrupted(libc::SIGINT)));
        assert_eq!(rows.len(), 1);
    }

    #[test]
    fn shell_127_suggests_dash_c() {
        let mut p = plan(&["ls -l"], 0, 1, Order::Sequential);
        p.shell = "/bin/bash".into();
        let mut fake = Fake::with(|_, _| Outcome::Finished(measurement(Termination::Exited(127))));
        let err = run(&p, &mut fake, &mut Vec::new(), &never).unwrap_err();
        assert!(err.to_string().contains("'-c'"), "{err}");
    }

    #[test]
    fn records_carry_the_measurement_and_identity() {
        let mut p = plan(&["A"], 0, 1, Order::Sequential);
        p.commands[0].name = Some("alpha".into());
        p.shell = "/bin/sh -c".into();
        let mut fake = Fake::ok();
        let mut rows = Vec::new();
        run(&p, &mut fake, &mut rows, &never).unwrap();
        let r = &rows[0];
        assert_eq!(
            (r.command.as_str(), r.name.as_str(), r.shell.as_str()),
            ("A", "alpha", "/bin/sh -c")
        );
        assert_eq!(
            (r.user_us, r.system_us, r.wall_us, r.maxrss_bytes),
            (3, 4, 10, 4096)
        );
        assert_eq!((r.total_us(), r.total_csw()), (7, 3));
    }
}

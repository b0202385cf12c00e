//! `bestguess` running an experiment: launcher, outputs, preflight checks,
//! signal handling, the runner, then the reports.

use std::time::{Duration, Instant};

use super::baseline::Baseline;
use super::engine::Engine;
use super::live::Live;
use super::output::{self, RawOutput, ReportStream};
use super::provenance;
use super::report::{self, OpenExports};
use super::terminal::{self, Progress};
use super::{exit, AppError};
use crate::analysis::{
    choose_from, Checkpoint, MetricFrom, RunTimes, Spending, StopReason, Stopper,
};
use crate::cli::RunConfig;
use crate::data::{Catalogue, DatasetBuilder, Metric, RunRecord};
use crate::experiment::{self, Clock, Order, RunSink, Stop};
use crate::measure::{resolve, sys};
use crate::report::progress::Rounds;

/// Stores every run in memory (in the dataset's columns) and, with `-o`,
/// writes it to the raw CSV (flushed per row); shows progress if asked to.
struct Sink {
    raw: Option<RawOutput>,
    runs: DatasetBuilder,
    progress: Option<Progress>,
    /// `--runs auto`: decides when to stop.
    adaptive: Option<Adaptive>,
}

/// An adaptive experiment's stopper, its clock and why it stopped.
struct Adaptive {
    stopper: Stopper,
    /// The metric the stopper ranks.
    metric: Metric,
    /// Without `--metric`: every run's times, per command, to choose the
    /// metric from at each look as the final analysis will.
    choosing: Option<Vec<Vec<RunTimes>>>,
    clock: Clock,
    started: Instant,
    /// When the first timed run was recorded: rounds are timed from there.
    first: Option<Instant>,
    stopped: Option<StopReason>,
    /// Runs in a round.
    commands: u64,
    /// When the stopping rule said stop (since `started`).
    stopped_at: Option<Duration>,
}

impl Sink {
    /// Where the runs of `rc`'s experiment go: the raw file, the dataset,
    /// `--runs auto`'s stopping rule (against the `reference` command) and,
    /// if `show_progress`, the display, started at once.
    fn new(
        rc: &RunConfig,
        raw: Option<RawOutput>,
        catalogue: Catalogue,
        reference: Option<usize>,
        show_progress: bool,
        clock: &Clock,
    ) -> Sink {
        let adaptive =
            (rc.output.ranking.adaptive).map(|rule| Adaptive::new(rule, rc, reference, clock));
        let progress = show_progress.then(|| {
            let live = (rc.live).then(|| Live::new(&rc.plan, &rc.output.ranking, clock));
            let mut p = Progress::new(&rc.plan, live, clock);
            if let Some(a) = &adaptive {
                p.rounds(a.rounds());
            }
            p.start(&rc.plan);
            p
        });
        Sink {
            raw,
            runs: DatasetBuilder::new(catalogue),
            progress,
            adaptive,
        }
    }
}

impl RunSink for Sink {
    fn record(&mut self, run: RunRecord) -> std::io::Result<()> {
        if let Some(a) = &mut self.adaptive {
            a.first.get_or_insert_with(|| a.clock.now());
            let cmd = usize::try_from(run.batch).unwrap_or(0).wrapping_sub(1);
            a.stopper
                .record(cmd, run.value(a.metric).map(|v| v.as_f64()));
            if let Some(runs) = a.choosing.as_mut().and_then(|c| c.get_mut(cmd)) {
                runs.push(RunTimes::of(&run.metrics));
            }
        }
        if let Some(p) = &mut self.progress {
            if let Some(a) = &self.adaptive {
                p.rounds(a.rounds());
            }
            p.update(&run);
        }
        let written = match &mut self.raw {
            Some(w) => w.write_run(&run),
            None => Ok(()),
        };
        self.runs.push(&run);
        written
    }

    fn warn(&mut self, message: &str) {
        if let Some(p) = &mut self.progress {
            p.clear();
        }
        output::note(&format!("bestguess: warning: {message}\n"));
    }

    fn starting(&mut self, cmd: usize) {
        if let Some(p) = &mut self.progress {
            p.starting(cmd);
        }
    }

    fn checkpoint(&mut self, rounds: u64) -> Option<u64> {
        let a = self.adaptive.as_mut()?;
        a.choose_metric();
        let since = a.first.map_or(Duration::ZERO, |t| a.clock.since(t));
        let round_time = since / u32::try_from(rounds.max(1)).unwrap_or(u32::MAX);
        let asked = a.stopper.checkpoint(a.clock.since(a.started), round_time);
        // The last look, shown at once (also the one that decides), and
        // the next look in the bar.
        if let Some(p) = &mut self.progress {
            p.rounds(a.rounds());
            if let Some((n, found)) = a.stopper.last.as_ref().filter(|(n, _)| *n == rounds) {
                p.look(*n, found);
            }
        }
        match asked {
            Checkpoint::Until(until) => Some(until),
            Checkpoint::Stop(reason) => {
                a.stopped = Some(reason);
                a.stopped_at = Some(a.clock.since(a.started));
                None
            }
        }
    }
}

/// The files the commands and hooks name: the program each runs (by a
/// path, `./run.sh`, or found on `PATH`, `mybench`; also as the first word
/// under a shell) and every other word that names a file (`sh bench.sh`,
/// `-p "sh bench.sh"`): inputs no output may overwrite (`-o run.sh
/// ./run.sh` would replace the script by a CSV header, and so would `-o
/// bin/mybench mybench` and `-o bench.sh "sh bench.sh"`).
fn program_files(plan: &crate::experiment::Plan) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut keep = |path: String| {
        if !out.contains(&path) && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            out.push(path);
        }
    };
    for c in &plan.commands {
        let hooks = [
            &c.hooks.prepare,
            &c.hooks.setup,
            &c.hooks.conclude,
            &c.hooks.cleanup,
        ];
        for hook in std::iter::once(&c.command).chain(hooks.into_iter().flatten()) {
            let words = crate::measure::split::split(&hook.text).unwrap_or_default();
            for (k, word) in hook.argv.iter().chain(&words).enumerate() {
                if k == 0 || k == hook.argv.len() {
                    // A program: where it is found.
                    if let Ok(found) = crate::measure::resolve::resolve(word) {
                        keep(found.to_string_lossy().into_owned());
                    }
                }
                keep(word.clone());
            }
        }
    }
    out
}

pub fn run(mut rc: RunConfig, command_line: &[String]) -> Result<i32, AppError> {
    check_outputs(&rc)?;
    // The launcher (or the script) comes first, before this process holds
    // any data.
    let mut engine = Engine::start()?;
    let clock = engine.clock();
    // The metrics every run records: the raw CSV's columns and the dataset's.
    let mut catalogue = Catalogue::new();
    let baseline = Baseline::load(rc.output.gate.as_ref())?;
    // Nothing is created or truncated before the commands are known to be
    // startable: a refused command must not cost the user an old raw file.
    preflight(&rc)?;
    let seeded = rc.plan.order == Order::Random || rc.measure.randomize_env;
    if seeded && !rc.seed_given {
        rc.plan.seed = sys::realtime_us() as u64 ^ (u64::from(std::process::id()) << 32);
    }
    // Counters, pinning, padding, a metrics file: their metrics are
    // registered before the raw file's header is written.
    let notes = engine.set_up_metrics(&rc.measure, rc.plan.seed, &mut catalogue)?;
    for note in notes {
        output::note(&format!("bestguess: note: {note}\n"));
    }
    // For the JSON metadata: what was recorded besides rusage, and the
    // controls in force.
    let extras_recorded: Vec<String> = catalogue
        .appended()
        .map(|(_, d)| d.name.to_string())
        .collect();
    let controls = controls(&rc);
    // --metric may name a counter just registered; a wrong name fails
    // before anything is measured.
    report::choose_metric(&mut rc.output, &catalogue, &rc.measure.counters)?;
    if let Some(b) = &baseline {
        b.check_metric(&rc.output.ranking)?;
    }
    // So does a --reference that names no command of the plan.
    let reference = plan_reference(&rc)?;
    let exports = OpenExports::open(&rc.output)?;
    let (parameters, adaptive) = (rc.plan.parameter_names(), rc.output.ranking.recorded_rule());
    let raw = (rc.raw_output.as_deref())
        .map(|path| RawOutput::create(path, &catalogue, &parameters, adaptive))
        .transpose()?;
    engine.cancel_on_termination_signals()?;

    // Standard output carries the report, unless the raw data or an export
    // goes there; notes about the run itself go to standard error, so that
    // the report is byte-identical to what bestreport prints.
    let mut out = ReportStream::new(rc.raw_output.as_deref() == Some("-") || exports.uses_stdout());
    // No reminder to use -o: like Hyperfine, a plain run starts silently
    // (docs/reports.md, "What a plain run prints").
    let show_progress = announce(&rc);
    let mut metadata = provenance::for_run(&rc, command_line);
    metadata.start_unix_us = Some(clock.unix_us());
    metadata.counters = extras_recorded;
    metadata.controls = controls;
    let mut sink = Sink::new(&rc, raw, catalogue, reference, show_progress, &clock);
    let result = experiment::run(
        &rc.plan,
        engine.executor(),
        &mut sink,
        &sys::termination_signal,
        &clock,
    );
    // From here a termination signal ends the process (the exports'
    // temporary files removed, the raw file complete): the reports and
    // exports can take long, and a signal then must not be swallowed
    // (status 0).
    // One that came after the last run was checked is an interrupt too.
    let _ = sys::end_on_termination_signals();
    let result = match (result, sys::termination_signal()) {
        (Ok(()), Some(sig)) => Err(Stop::Interrupted(sig)),
        (result, _) => result,
    };
    metadata.end_unix_us = Some(clock.unix_us());
    // Every result the launcher sent has been taken; closing it now ends
    // whatever it still runs.
    drop(engine);
    if let Some(p) = &mut sink.progress {
        p.clear();
    }
    if let Some(a) = &mut sink.adaptive {
        a.finish(&mut metadata);
    }
    let rows_in_file = sink.raw.as_ref().map(|r| r.rows);
    let dataset = sink.runs.finish();
    run_delay_note(&rc, &dataset);
    let baseline = baseline.as_ref();
    // How it ended is said first; the reports (and exports) of what was
    // measured follow, however it ended; an error comes last.
    let ended = ending(&result, rows_in_file, dataset.run_count());
    let mut output = rc.output.clone();
    if result.is_err() {
        unmeasured(&rc, &dataset, &mut output);
    }
    let rescue = |e: AppError| rescue(e, &dataset, &rc);
    let finish = |out: &mut ReportStream, exports| {
        report::finish(&dataset, &output, out, exports, baseline, &metadata).map_err(rescue)
    };
    let reported = finish(&mut out, exports)?;
    match result {
        // A whole experiment's status is its reports' (the gate's), and its history's.
        Ok(()) => Ok(super::history::after_run(
            &rc, &dataset, &metadata, &mut out, reported,
        )),
        Err(_) => ended,
    }
}

/// One note, when the metric is chosen from the runs and none has its
/// run-queue delay on Linux: why (a kernel without it), and what that
/// means for the choice. The portable build never measures it: `--limits`
/// says so, not every run.
fn run_delay_note(rc: &RunConfig, dataset: &crate::data::Dataset) {
    let measured = (dataset.commands.iter()).any(|c| c.has(Metric::RUN_DELAY));
    let chosen = rc.output.ranking.metric_from == MetricFrom::Auto;
    if dataset.is_empty() || measured || !chosen || cfg!(not(bestguess_linux)) {
        return;
    }
    let why = crate::measure::platform::run_delay_unavailable()
        .unwrap_or("the launcher could not read it");
    output::note(&format!(
        "Note: the run-queue delay (time waiting for a CPU) was not measured: {why}; \
         without it, waiting for a CPU counts as waiting when the metric is chosen.\n"
    ));
}

/// An experiment that ended early (a failure, an interrupt) before some
/// commands ran: a note names them before the reports, and with a single
/// command measured the ranking is left out ("only one command
/// benchmarked" would be false: more were given).
fn unmeasured(rc: &RunConfig, dataset: &crate::data::Dataset, output: &mut crate::cli::Output) {
    let missing: Vec<String> = (rc.plan.commands.iter().enumerate())
        .filter(|(i, _)| !dataset.commands.iter().any(|c| c.batch == *i as u64 + 1))
        .map(|(i, c)| {
            format!(
                "{} ('{}')",
                i + 1,
                c.name.as_deref().unwrap_or(&c.command.text)
            )
        })
        .collect();
    let (last, first) = match missing.split_last() {
        Some(split) => split,
        None => return,
    };
    let named = match first {
        [] => format!("Command {last} never ran"),
        _ => format!("Commands {} and {last} never ran", first.join(", ")),
    };
    let ranked = if dataset.commands.len() == 1 && output.selection.ranking {
        output.selection.ranking = false;
        output.selection.explain = false;
        "; with one command measured there is nothing to rank"
    } else {
        ""
    };
    output::note(&format!(
        "{named}: the experiment stopped before {}{ranked}.\n",
        if missing.len() == 1 {
            "its first run"
        } else {
            "their first runs"
        }
    ));
}

/// What is said before the first run: the seed that reproduces the order,
/// and why `--live` is off when it is; whether the progress display is
/// shown.
fn announce(rc: &RunConfig) -> bool {
    let selection = rc.output.selection;
    // Printed (held for the JSON with -Q): the seed is what reproduces the order (with
    // one command there is no order to reproduce).
    let ordered = rc.plan.order == Order::Random && rc.plan.commands.len() > 1;
    let what = match (ordered, rc.measure.randomize_env) {
        (true, true) => "Random order and environment padding",
        (true, false) => "Random order",
        (false, true) => "Environment padding",
        (false, false) => "",
    };
    if !what.is_empty() {
        output::note(&format!(
            "{what}, seed {} (repeat with --seed {}).\n",
            rc.plan.seed, rc.plan.seed
        ));
    }

    // Not with --show-output: the commands' output would be appended to
    // the line the bar redraws in place.
    let show_progress = !selection.quiet && terminal::wanted() && !rc.plan.show_output;
    if rc.live && !show_progress {
        // The one reason that applies, first found.
        let why = if selection.quiet {
            "-Q asks for no display"
        } else if rc.plan.show_output {
            "--show-output gives the terminal to the commands"
        } else if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            "TERM is dumb or empty"
        } else {
            "standard error is not a terminal"
        };
        output::note(&format!(
            "Note: --live shows results on a terminal only, and is off: {why}; the experiment runs without it.\n"
        ));
    }
    show_progress
}

impl Adaptive {
    /// Without `--metric`: the metric chosen from the runs so far, as the
    /// final analysis chooses it from all of them; when it changes, the
    /// stopper ranks the new one's values of every run so far.
    fn choose_metric(&mut self) {
        let Some(runs) = &self.choosing else { return };
        let metric = choose_from(&Spending::of_runs(runs), None).metric;
        if metric != self.metric {
            self.metric = metric;
            let value = |t: &RunTimes| {
                if metric == Metric::WALL {
                    t.wall
                } else {
                    t.cpu
                }
            };
            self.stopper
                .restart(runs.iter().map(|c| c.iter().map(value).collect()).collect());
        }
    }

    /// The experiment starts now, under `rule`, ranking against the
    /// `reference` command if one is given.
    fn new(
        rule: crate::analysis::StoppingRule,
        rc: &RunConfig,
        reference: Option<usize>,
        clock: &Clock,
    ) -> Adaptive {
        let commands = rc.plan.commands.len();
        Adaptive {
            stopper: Stopper::new(rule, rc.output.ranking.clone(), reference, commands),
            metric: rc.output.ranking.metric,
            choosing: (rc.output.ranking.metric_from == MetricFrom::Auto)
                .then(|| vec![Vec::new(); commands]),
            clock: clock.clone(),
            started: clock.now(),
            first: None,
            stopped: None,
            commands: commands as u64,
            stopped_at: None,
        }
    }

    /// Where the experiment is against its next look and its budget, for
    /// the progress display.
    fn rounds(&self) -> Rounds {
        let rule = self.stopper.rule();
        let looks = self.stopper.looks();
        let done = self.stopper.rounds();
        // The default budget waits for the first look (it is never
        // checked before); a given one holds from the start.
        let looked = self.stopper.last.is_some();
        Rounds {
            done,
            commands: self.commands,
            next_look: looks.round(looks.slot(done + 1)),
            max_rounds: rule.max_rounds,
            max_time: (rule.max_time_given || looked)
                .then(|| (rule.max_time, self.clock.since(self.started))),
        }
    }

    /// After the runs: why the experiment stopped, in the metadata and,
    /// for a budget, in a note. (The raw file's header records the rule,
    /// so `bestreport` reports its runs as this did.)
    fn finish(&mut self, metadata: &mut crate::export::metadata::Metadata) {
        let rounds = self.stopper.rounds();
        // The schedule ends by itself at --max-runs, without asking.
        if self.stopped.is_none() && rounds >= self.stopper.rule().max_rounds {
            self.stopped = Some(StopReason::MaxRuns);
        }
        if let Some(experiment) = &mut metadata.experiment {
            experiment.runs = rounds;
            experiment.stopped = self.stopped.map(StopReason::key);
        }
        if let Some(note) = stop_note(self, rounds) {
            output::note(&note);
        }
    }
}

/// No output may overwrite an input or another output (usage error,
/// before anything starts).
fn check_outputs(rc: &RunConfig) -> Result<(), AppError> {
    let mut inputs: Vec<(&str, &str)> = rc
        .command_files
        .iter()
        .map(|f| ("-f", f.as_str()))
        .collect();
    if let Some(gate) = &rc.output.gate {
        inputs.push(("--baseline", gate.baseline.as_str()));
    }
    let programs = program_files(&rc.plan);
    inputs.extend(programs.iter().map(|p| ("program", p.as_str())));
    let mut outputs: Vec<(String, String)> = rc
        .raw_output
        .iter()
        .map(|p| ("-o".to_string(), p.clone()))
        .collect();
    outputs.extend(report::output_paths(&rc.output));
    let outputs: Vec<(&str, &str)> = outputs
        .iter()
        .map(|(o, p)| (o.as_str(), p.as_str()))
        .collect();
    output::check_paths(&inputs, &outputs)
}

/// The controls in force, for the JSON metadata.
fn controls(rc: &RunConfig) -> Vec<(String, String)> {
    let mut controls = Vec::new();
    if !rc.measure.cpus.is_empty() {
        controls.push((
            "cpus".to_string(),
            crate::measure::extras::format_cpus(&rc.measure.cpus),
        ));
    }
    if rc.measure.randomize_env {
        controls.push(("randomize_env_seed".to_string(), rc.plan.seed.to_string()));
    }
    controls
}

/// The `--reference` command's index in the plan: a name that is no
/// command's fails before anything is measured.
fn plan_reference(rc: &RunConfig) -> Result<Option<usize>, AppError> {
    let Some(reference) = &rc.output.ranking.reference else {
        return Ok(None);
    };
    let commands: Vec<(&str, &str)> = (rc.plan.commands.iter())
        .map(|c| (c.name.as_deref().unwrap_or(""), c.command.text.as_str()))
        .collect();
    crate::analysis::resolve_reference_among(&commands, reference)
        .map(Some)
        .map_err(|e| AppError::usage(e.to_string()))
}

/// What ended an adaptive experiment, when a budget did, and how long it
/// took against `--max-time` ([`super::budget::note`]).
fn stop_note(a: &Adaptive, rounds: u64) -> Option<String> {
    let rule = a.stopper.rule();
    let took = a.clock.since(a.started);
    super::budget::note(&super::budget::Spent {
        stopped: a.stopped?,
        rounds,
        commands: a.commands,
        first_look: a.stopper.looks().first,
        max_rounds: rule.max_rounds,
        max_time: rule.max_time,
        max_time_given: rule.max_time_given,
        took,
        before: a.first.map_or(took, |f| f.duration_since(a.started)),
        stopped_at: a.stopped_at.unwrap_or(took),
    })
}

/// How the experiment ended, said on standard error, and the exit
/// status of one that ended early (the reports of what was measured
/// follow).
fn ending(
    result: &Result<(), Stop>,
    rows_in_file: Option<u64>,
    runs: usize,
) -> Result<i32, AppError> {
    match result {
        Ok(()) => Ok(exit::OK),
        Err(Stop::Interrupted(sig)) => {
            let kept = rows_in_file.unwrap_or(runs as u64);
            // Without -o nothing outlives the process but the report and
            // the exports: "kept" would promise more. An abnormal end, said
            // even with -Q.
            output::error(&format!(
                "Interrupted by {}: {kept} completed {} {}.\n",
                sys::signal_name(*sig),
                if kept == 1 { "run is" } else { "runs are" },
                if rows_in_file.is_some() {
                    "kept in the raw data file"
                } else {
                    "reported (give -o FILE to keep every run)"
                }
            ));
            Ok(128 + *sig)
        }
        Err(Stop::Sink(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            // The raw data went to a pipe whose reader is gone: stop, as a
            // pipeline expects (status 0), but say so: the report and the
            // exports hold fewer runs than asked for.
            output::note(&format!(
                "Note: the reader of the raw data (-o -) went away after {runs} run{}; \
                 the experiment stopped there and reports only those.\n",
                if runs == 1 { "" } else { "s" }
            ));
            Ok(exit::OK)
        }
        // What was measured before the failure is still reported (and
        // exported), as after an interrupt; the error comes last.
        Err(e) => Err(AppError::failure(e.to_string())),
    }
}

/// An analysis that fails after the runs (e.g. --metric naming a
/// command's own metric that one command never wrote) must not take the
/// measurements with it when they went to no file: the error says where
/// they are, or saves them.
fn rescue(e: AppError, dataset: &crate::data::Dataset, rc: &RunConfig) -> AppError {
    if dataset.is_empty() {
        return e;
    }
    if let Some(path) = rc.raw_output.as_deref().filter(|p| *p != "-") {
        // They are in the raw file already: say where.
        return AppError {
            message: format!(
                "{}; the {} runs measured are in {path} (bestreport {path} reads them)",
                e.message,
                dataset.run_count()
            ),
            ..e
        };
    }
    if rc.raw_output.is_some() {
        return e;
    }
    let adaptive = rc.output.ranking.recorded_rule();
    match rescue_runs(dataset, &rc.plan.parameter_names(), adaptive) {
        Ok(path) => AppError {
            message: format!(
                "{}; the {} runs measured are saved in {path} (bestreport {path} reads them)",
                e.message,
                dataset.run_count()
            ),
            ..e
        },
        Err(save) => AppError {
            message: format!(
                "{}; the {} runs measured could not be saved either ({}): give -o FILE",
                e.message,
                dataset.run_count(),
                save.message
            ),
            ..e
        },
    }
}

/// Writes every run of `dataset` as raw CSV to a new file in the current
/// directory (else the temporary directory): `bestguess-runs-PID.csv`.
fn rescue_runs(
    dataset: &crate::data::Dataset,
    parameters: &[String],
    adaptive: Option<crate::data::columns::AdaptiveRule>,
) -> Result<String, AppError> {
    let name = format!("bestguess-runs-{}.csv", std::process::id());
    let dirs = [std::path::PathBuf::from("."), std::env::temp_dir()];
    let mut last = None;
    for dir in dirs {
        let path = dir.join(&name);
        let path = path.to_string_lossy().into_owned();
        if std::path::Path::new(&path).exists() {
            continue;
        }
        let written = RawOutput::create(&path, &dataset.catalogue, parameters, adaptive).and_then(
            |mut raw| {
                for c in &dataset.commands {
                    for i in 0..c.len() {
                        raw.write_run(&c.record(i, &dataset.catalogue))
                            .map_err(|e| AppError::failure(e.to_string()))?;
                    }
                }
                Ok(())
            },
        );
        match written {
            Ok(()) => return Ok(path),
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                last = Some(e);
            }
        }
    }
    Err(last.unwrap_or_else(|| AppError::failure("no place to save the runs")))
}

/// Every program the experiment will start must exist and be executable,
/// checked before any timing starts (also with `-i`).
fn preflight(rc: &RunConfig) -> Result<(), AppError> {
    for (i, c) in rc.plan.commands.iter().enumerate() {
        let hooks = [
            &c.hooks.prepare,
            &c.hooks.setup,
            &c.hooks.conclude,
            &c.hooks.cleanup,
        ];
        for (what, hook) in std::iter::once((None, Some(&c.command))).chain(
            ["--prepare", "--setup", "--conclude", "--cleanup"]
                .into_iter()
                .zip(hooks)
                .map(|(o, h)| (Some(o), h.as_ref())),
        ) {
            let Some(hook) = hook else { continue };
            if let Err(e) = resolve::check_startable(&hook.argv) {
                // A command too long for the kernel is too long to quote.
                let text = |t: &str| match t.char_indices().nth(60) {
                    Some((at, _)) => format!("{}…", &t[..at]),
                    None => t.to_owned(),
                };
                let subject = match what {
                    None => format!("command {} ('{}')", i + 1, text(&c.command.text)),
                    Some(option) => {
                        format!(
                            "the {option} command '{}' of command {}",
                            text(&hook.text),
                            i + 1
                        )
                    }
                };
                let not_found = matches!(e, resolve::ResolveError::NotFound(_));
                let hint = if rc.plan.shell.is_empty() && not_found {
                    "; for shell built-ins, pipes or redirections use -s \"/bin/sh -c\""
                } else {
                    ""
                };
                return Err(AppError::failure(format!(
                    "{subject} cannot be started: {e}{hint}"
                )));
            }
        }
    }
    Ok(())
}

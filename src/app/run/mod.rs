//! `bestguess` running an experiment, in order: the checks before anything
//! starts (`checks.rs`), the launcher and the outputs, signal handling, the
//! runner handing each run to the `Sink` (`sink.rs`, with `--runs auto`'s
//! stopping state in `adaptive.rs`), how the experiment ended
//! (`ending.rs`), then the reports, whose failure does not lose the runs
//! (`rescue.rs`).

mod adaptive;
mod checks;
mod ending;
mod rescue;
mod sink;

use self::checks::{check_outputs, plan_reference, preflight};
use self::ending::{ending, run_delay_note, unmeasured};
use self::rescue::rescue;
use self::sink::Sink;
use super::baseline::Baseline;
use super::engine::Engine;
use super::output::{self, RawOutput, ReportStream};
use super::provenance;
use super::report::{self, OpenExports};
use super::terminal;
use super::AppError;
use crate::cli::RunConfig;
use crate::data::Catalogue;
use crate::experiment::{self, Order, Stop};
use crate::measure::sys;

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
        Ok(()) => Ok(crate::app::history::after_run(
            &rc, &dataset, &metadata, &mut out, reported,
        )),
        Err(_) => ended,
    }
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

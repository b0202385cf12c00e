//! `bestguess` running an experiment: launcher, outputs, preflight checks,
//! signal handling, the runner, then the reports.

mod adaptive;
mod sink;

use self::sink::Sink;
use super::baseline::Baseline;
use super::engine::Engine;
use super::output::{self, RawOutput, ReportStream};
use super::provenance;
use super::report::{self, OpenExports};
use super::terminal;
use super::{exit, AppError};
use crate::analysis::MetricFrom;
use crate::cli::RunConfig;
use crate::data::{Catalogue, Metric};
use crate::experiment::{self, Order, Stop};
use crate::measure::{resolve, sys};

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
        Ok(()) => Ok(crate::app::history::after_run(
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

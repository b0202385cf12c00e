//! How the experiment ended, said on standard error after the runs and
//! before the reports: an interrupt, a reader gone from `-o -`, a failure,
//! the commands that never ran, and a run-queue delay that was not
//! measured. Also the exit status of an experiment that ended early.

use crate::analysis::MetricFrom;
use crate::app::{exit, output, AppError};
use crate::cli::RunConfig;
use crate::data::Metric;
use crate::experiment::Stop;
use crate::measure::sys;

/// How the experiment ended, said on standard error, and the exit
/// status of one that ended early (the reports of what was measured
/// follow).
pub(super) fn ending(
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

/// One note, when the metric is chosen from the runs and none has its
/// run-queue delay on Linux: why (a kernel without it), and what that
/// means for the choice. The portable build never measures it: `--limits`
/// says so, not every run.
pub(super) fn run_delay_note(rc: &RunConfig, dataset: &crate::data::Dataset) {
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
pub(super) fn unmeasured(
    rc: &RunConfig,
    dataset: &crate::data::Dataset,
    output: &mut crate::cli::Output,
) {
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

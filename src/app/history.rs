//! The two programs' calls into the history ([`crate::history`]): after
//! `bestguess --history`'s experiment, the gate and the append; for
//! `bestreport --history` and `--history-import`, the report and the load.

use std::io::Write;

use super::output::{self, Export, ReportStream};
use super::{exit, AppError};
use crate::cli::{ReportConfig, RunConfig};
use crate::data::Dataset;
use crate::export::metadata::Metadata;
use crate::export::Format;
use crate::history::{self, render, HistoryOptions};

/// After the reports of a complete experiment run with `--history`: the history gate (with
/// `--fail-if-slower`) and the append. A store that cannot be used costs
/// nothing already written: one line says what was not recorded, and the
/// status is [`exit::NOT_RECORDED`] (unless the gate failed: 3).
pub fn after_run(
    rc: &RunConfig,
    dataset: &Dataset,
    metadata: &Metadata,
    out: &mut ReportStream,
    status: i32,
) -> i32 {
    let Some(options) = rc.history.as_ref().filter(|_| !dataset.is_empty()) else {
        return status;
    };
    let settings = serde_json::json!({
        "command_line": metadata.command_line,
        "runs": rc.plan.runs,
        "warmup": rc.plan.warmup,
        "order": rc.plan.order.to_string(),
        "shell": rc.plan.shell,
        "metric": crate::history::record::metric_name(rc.output.ranking.metric),
        "alpha": rc.output.ranking.alpha,
    });
    let start = metadata
        .start_unix_us
        .unwrap_or_else(crate::measure::sys::realtime_us);
    let outcome = history::after_experiment(
        options,
        dataset,
        start,
        settings.to_string(),
        rc.output.ranking.metric,
        rc.output.ranking.alpha,
        out,
    );
    let _ = out.flush();
    let mut status = status;
    if outcome.regression {
        status = exit::REGRESSION;
    }
    if let Some(problem) = outcome.problem {
        // Said even with -Q: the history lacks this experiment.
        output::error(&format!("bestguess: warning: {problem}\n"));
        if status == exit::OK {
            status = exit::NOT_RECORDED;
        }
    }
    status
}

/// `bestreport --history` and `bestreport --history-import`.
pub fn report(
    rc: &ReportConfig,
    options: &HistoryOptions,
    command_line: &[String],
) -> Result<i32, AppError> {
    if !options.import.is_empty() {
        let lines =
            history::import(options, command_line).map_err(|e| AppError::failure(e.to_string()))?;
        for line in lines {
            output::note(&format!("{line}\n"));
        }
        return Ok(exit::OK);
    }
    let mut exports = Vec::new();
    for (format, path) in &rc.output.exports.0 {
        exports.push((
            *format,
            Export::create(&format!("--{}", format.option()), path)?,
        ));
    }
    // The metric of interest (the ranking's, cpu by default), or every
    // metric with `--metric all`.
    let metric = match rc.output.metric.as_deref() {
        Some(m) if m.trim().eq_ignore_ascii_case("all") => None,
        Some(m) => Some(m.to_owned()),
        None => Some(history::record::metric_name(rc.output.ranking.metric)),
    };
    let (loaded, store) = history::load(options, metric.as_deref(), rc.output.ranking.alpha)
        .map_err(|e| AppError::failure(e.to_string()))?;
    let mut out = ReportStream::new(exports.iter().any(|(_, e)| e.is_stdout()));
    if !rc.output.selection.quiet {
        render::terminal(&loaded, &store, &mut out)
            .and_then(|()| out.flush())
            .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
    }
    for (format, mut export) in exports {
        let what = export.what.clone();
        let written = match format {
            Format::Json => render::json(&loaded, command_line, export.writer()),
            Format::Markdown => render::markdown(&loaded, export.writer()),
            _ => history::html::write(&loaded, &store, export.writer()),
        };
        match written.and_then(|()| export.commit()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(AppError::failure(format!("{what}: cannot write: {e}")));
            }
            _ => {}
        }
    }
    Ok(exit::OK)
}

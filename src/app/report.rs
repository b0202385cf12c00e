//! Reports and exports, shared by both programs: one [`Analysis`] of one
//! [`Dataset`], rendered by the same code. That is what makes the report
//! `bestguess -o FILE` prints identical to `bestreport FILE`.

use std::io::Write;
use std::path::Path;

use super::baseline::Baseline;
use super::output::Destination;
use super::provenance;
use super::{exit, AppError};
use crate::analysis::Analysis;
use crate::cli::config::Exports;
use crate::cli::{Output, ReportConfig};
use crate::data::Dataset;
use crate::export::metadata::Metadata;
use crate::export::Format;
use crate::figure::{Figure, Input};
use crate::report;

/// Export files, created before anything runs or is read so that a bad path
/// fails fast: one per export format, and one per figure for
/// `--export-svg DIR` (the directory is created if needed).
pub struct OpenExports {
    files: Vec<(Format, String, Destination)>,
    figures: Vec<(Figure, String, Destination)>,
}

impl OpenExports {
    pub fn open(output: &Output) -> Result<OpenExports, AppError> {
        let mut files = Vec::new();
        for (format, path) in &output.exports.0 {
            let option = format!("--{}", format.option());
            files.push((
                *format,
                format!("{option} {path}"),
                Destination::create(path, &option)?,
            ));
        }
        let mut figures = Vec::new();
        if let Some(dir) = &output.svg_dir {
            std::fs::create_dir_all(dir).map_err(|e| {
                AppError::failure(format!(
                    "--export-svg {dir}: cannot create the directory: {e}"
                ))
            })?;
            for figure in Figure::ALL {
                let path = Path::new(dir).join(format!("{}.svg", figure.name()));
                let path = path.to_string_lossy().into_owned();
                let dest = Destination::create(&path, "--export-svg")?;
                figures.push((figure, format!("--export-svg {path}"), dest));
            }
        }
        Ok(OpenExports { files, figures })
    }

    /// Whether an export writes to standard output (reports then go to
    /// standard error).
    pub fn uses_stdout(exports: &Exports) -> bool {
        exports.all().iter().any(|(_, p)| *p == "-")
    }
}

/// Analyse `dataset`, print the selected reports to `out`, write every
/// export and, with a baseline, print the comparison with it. Returns the
/// exit status: [`exit::OK`], or [`exit::REGRESSION`] when the baseline's
/// gate fails.
pub fn finish(
    dataset: &Dataset,
    output: &Output,
    out: &mut dyn Write,
    exports: OpenExports,
    baseline: Option<&Baseline>,
    metadata: &Metadata,
) -> Result<i32, AppError> {
    if dataset.is_empty() {
        return Ok(exit::OK);
    }
    let analysis = Analysis::new(dataset, output.ranking.clone())
        .map_err(|e| AppError::failure(e.to_string()))?;
    report::render(&analysis, &output.selection, out)
        .and_then(|()| out.flush())
        .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
    for (format, what, mut dest) in exports.files {
        format
            .write_with(&analysis, metadata, &mut dest)
            .and_then(|()| dest.flush())
            .map_err(|e| AppError::failure(format!("{what}: cannot write: {e}")))?;
    }
    let input = (!exports.figures.is_empty()).then(|| Input::new(&analysis));
    for (f, what, mut dest) in exports.figures {
        let Some(input) = &input else { break };
        f.write(input, &mut dest)
            .and_then(|()| dest.flush())
            .map_err(|e| AppError::failure(format!("{what}: cannot write: {e}")))?;
    }
    let status = match baseline {
        Some(b) => {
            writeln!(out)
                .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
            b.check(dataset, &output.ranking, out)?
        }
        None => exit::OK,
    };
    // Warnings last, on standard error: seen after the reports, never
    // inside an export written to standard output.
    let _ = report::warnings::write(&mut std::io::stderr().lock(), &analysis);
    Ok(status)
}

/// `bestreport FILE…` (and `bestguess -A report FILE…`).
pub fn report_files(rc: &ReportConfig, command_line: &[String]) -> Result<i32, AppError> {
    let exports = OpenExports::open(&rc.output)?;
    let baseline = Baseline::load(rc.output.gate.as_ref())?;
    let dataset = Dataset::read_files(&rc.files).map_err(|e| AppError::failure(e.to_string()))?;
    let metadata = provenance::for_report(command_line);
    if OpenExports::uses_stdout(&rc.output.exports) {
        let out = &mut std::io::stderr().lock();
        finish(
            &dataset,
            &rc.output,
            out,
            exports,
            baseline.as_ref(),
            &metadata,
        )
    } else {
        let out = &mut std::io::stdout().lock();
        finish(
            &dataset,
            &rc.output,
            out,
            exports,
            baseline.as_ref(),
            &metadata,
        )
    }
}

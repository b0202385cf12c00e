//! Reports and exports, shared by both programs: one [`Analysis`] of one
//! [`Dataset`], rendered by the same code. That is what makes the report
//! `bestguess -o FILE` prints identical to `bestreport FILE`.

use std::io::Write;

use super::output::Destination;
use super::provenance;
use super::{exit, AppError};
use crate::analysis::Analysis;
use crate::cli::config::Exports;
use crate::cli::{Output, ReportConfig};
use crate::data::Dataset;
use crate::export::metadata::Metadata;
use crate::export::Format;
use crate::report;

/// Export files, created before anything runs or is read so that a bad path
/// fails fast.
pub struct OpenExports(Vec<(Format, String, Destination)>);

impl OpenExports {
    pub fn open(exports: &Exports) -> Result<OpenExports, AppError> {
        let mut open = Vec::new();
        for (format, path) in &exports.0 {
            let option = format!("--{}", format.option());
            open.push((
                *format,
                format!("{option} {path}"),
                Destination::create(path, &option)?,
            ));
        }
        Ok(OpenExports(open))
    }

    /// Whether an export writes to standard output (reports then go to
    /// standard error).
    pub fn uses_stdout(exports: &Exports) -> bool {
        exports.all().iter().any(|(_, p)| *p == "-")
    }
}

/// Analyse `dataset`, print the selected reports to `out` and write every
/// export.
pub fn finish(
    dataset: &Dataset,
    output: &Output,
    out: &mut dyn Write,
    exports: OpenExports,
    metadata: &Metadata,
) -> Result<(), AppError> {
    if dataset.is_empty() {
        return Ok(());
    }
    let analysis = Analysis::new(dataset, output.ranking.clone())
        .map_err(|e| AppError::failure(e.to_string()))?;
    report::render(&analysis, &output.selection, out)
        .and_then(|()| out.flush())
        .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
    for (format, what, mut dest) in exports.0 {
        format
            .write_with(&analysis, metadata, &mut dest)
            .and_then(|()| dest.flush())
            .map_err(|e| AppError::failure(format!("{what}: cannot write: {e}")))?;
    }
    // Warnings last, on standard error: seen after the reports, never
    // inside an export written to standard output.
    let _ = report::warnings::write(&mut std::io::stderr().lock(), &analysis);
    Ok(())
}

/// `bestreport FILE…` (and `bestguess -A report FILE…`).
pub fn report_files(rc: &ReportConfig, command_line: &[String]) -> Result<i32, AppError> {
    let exports = OpenExports::open(&rc.output.exports)?;
    let dataset = Dataset::read_files(&rc.files).map_err(|e| AppError::failure(e.to_string()))?;
    let metadata = provenance::for_report(command_line);
    if OpenExports::uses_stdout(&rc.output.exports) {
        let out = &mut std::io::stderr().lock();
        finish(&dataset, &rc.output, out, exports, &metadata)?;
    } else {
        let out = &mut std::io::stdout().lock();
        finish(&dataset, &rc.output, out, exports, &metadata)?;
    }
    Ok(exit::OK)
}

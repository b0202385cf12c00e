//! Reports and exports, shared by both programs: one [`Analysis`] of one
//! [`Dataset`], rendered by the same code. That is what makes the report
//! `bestguess -o FILE` prints identical to `bestreport FILE`.

use super::output::{self, Export, ReportStream};
use super::{exit, AppError};
use crate::analysis::Analysis;
use crate::cli::config::Exports;
use crate::cli::{Output, ReportConfig};
use crate::data::Dataset;
use crate::export::Format;
use crate::report;

/// Export files, prepared before anything runs or is read so that a bad
/// path fails fast; each is put in place only when complete.
pub struct OpenExports(Vec<(Format, Export)>);

impl OpenExports {
    pub fn open(exports: &Exports) -> Result<OpenExports, AppError> {
        let wanted = [
            (Format::SummaryCsv, "--export-csv", &exports.csv),
            (
                Format::HyperfineCsv,
                "--hyperfine-csv",
                &exports.hyperfine_csv,
            ),
            (Format::Json, "--export-json", &exports.json),
            (Format::Markdown, "--export-markdown", &exports.markdown),
        ];
        let mut open = Vec::new();
        for (format, option, path) in wanted {
            if let Some(path) = path {
                open.push((format, Export::create(option, path)?));
            }
        }
        Ok(OpenExports(open))
    }

    /// Whether an export writes to standard output (reports then go to
    /// standard error).
    pub fn uses_stdout(&self) -> bool {
        self.0.iter().any(|(_, e)| e.is_stdout())
    }
}

/// Analyse `dataset`, print the selected reports and write every export.
/// Exports are written even if the report's reader went away.
pub fn finish(
    dataset: &Dataset,
    output: &Output,
    out: &mut ReportStream,
    exports: OpenExports,
) -> Result<(), AppError> {
    if dataset.is_empty() {
        return Ok(());
    }
    let analysis =
        Analysis::new(dataset, output.settings).map_err(|e| AppError::failure(e.to_string()))?;
    out.write_with(|w| report::render(&analysis, &output.selection, w))?;
    for (format, mut export) in exports.0 {
        let written = format.write(&analysis, export.writer());
        let what = export.what.clone();
        let kept = if export.is_stdout() {
            ""
        } else {
            "; the previous file, if any, is unchanged"
        };
        match written.and_then(|()| export.commit()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => {
                return Err(AppError::failure(format!(
                    "{what}: cannot write: {e}{kept}"
                )))
            }
        }
    }
    Ok(())
}

/// `bestreport FILE…` (and `bestguess -A report FILE…`).
pub fn report_files(rc: &ReportConfig) -> Result<i32, AppError> {
    let inputs: Vec<(&str, &str)> = rc.files.iter().map(|f| ("", f.as_str())).collect();
    output::check_paths(&inputs, &rc.output.exports.all())?;
    let exports = OpenExports::open(&rc.output.exports)?;
    let dataset = Dataset::read_files(&rc.files).map_err(|e| AppError::failure(e.to_string()))?;
    let mut out = ReportStream::new(exports.uses_stdout());
    finish(&dataset, &rc.output, &mut out, exports)?;
    Ok(exit::OK)
}

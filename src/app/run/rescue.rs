//! Measurements outlive a failed analysis: when the reports fail after the
//! runs, the error says which raw file holds the runs or, without `-o`,
//! saves them to a new one that `bestreport` reads.

use crate::app::output::RawOutput;
use crate::app::AppError;
use crate::cli::RunConfig;

/// An analysis that fails after the runs (e.g. --metric naming a
/// command's own metric that one command never wrote) must not take the
/// measurements with it when they went to no file: the error says where
/// they are, or saves them.
pub(super) fn rescue(e: AppError, dataset: &crate::data::Dataset, rc: &RunConfig) -> AppError {
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

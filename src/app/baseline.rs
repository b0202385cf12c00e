//! `--baseline`: the baseline's raw data, read before anything runs (so a
//! bad path fails before a long experiment), and the comparison printed
//! after the reports, with the exit status of `--fail-if-slower`.

use std::io::Write;

use super::{exit, AppError};
use crate::analysis::RankingSettings;
use crate::data::Dataset;
use crate::gate::{compare_with_baseline, GateError, GateOptions, GateReport};
use crate::report;
use crate::stats::SampleError;

/// The baseline, read.
pub struct Baseline {
    options: GateOptions,
    dataset: Dataset,
}

impl Baseline {
    /// Reads the baseline file, if one was given.
    pub fn load(options: Option<&GateOptions>) -> Result<Option<Baseline>, AppError> {
        let Some(options) = options else {
            return Ok(None);
        };
        let dataset = Dataset::read_files(std::slice::from_ref(&options.baseline))
            .map_err(|e| AppError::failure(format!("--baseline: {e}")))?;
        if dataset.is_empty() {
            return Err(AppError::failure(format!(
                "--baseline {}: the file holds no runs; give the raw data (-o) of an earlier experiment",
                options.baseline
            )));
        }
        Ok(Some(Baseline {
            options: options.clone(),
            dataset,
        }))
    }

    /// Refuses (usage error) a metric of which the baseline holds no value
    /// at all, before anything runs, not after the whole experiment, when
    /// the comparison would fail.
    pub fn check_metric(&self, settings: &RankingSettings) -> Result<(), AppError> {
        let name = settings.metric.name();
        let known = self.dataset.catalogue.find(name);
        if known.is_some_and(|m| self.dataset.commands.iter().any(|c| c.has(m))) {
            return Ok(());
        }
        let has_wall = (self.dataset.commands.iter()).any(|c| c.has(crate::data::Metric::WALL));
        Err(AppError::usage(format!(
            "--baseline {}: the baseline holds no {} values to compare with; choose another \
             --metric{}, or a baseline measured with it",
            self.options.baseline,
            settings.metric.label(),
            if has_wall { " (it has wall)" } else { "" }
        )))
    }

    /// Compares `dataset` with the baseline: before any report or export is
    /// written, so that a comparison that cannot be made (a side without
    /// the metric's values) fails with nothing half done.
    pub fn compare(
        &self,
        dataset: &Dataset,
        settings: &RankingSettings,
    ) -> Result<GateReport, AppError> {
        compare_with_baseline(&self.dataset, dataset, settings, self.options.fail_if_slower)
            .map_err(|e| {
                let file = &self.options.baseline;
                match e {
                    GateError::Sample {
                        side,
                        command,
                        source: SampleError::Empty,
                    } => {
                        let data = if side == "baseline" {
                            &self.dataset
                        } else {
                            dataset
                        };
                        let label = data.commands.get(command - 1).map_or_else(String::new, |c| {
                            format!(" ({})", c.label())
                        });
                        AppError::failure(format!(
                            "--baseline {file}: the {side}'s command {command}{label} has no {} values to compare; choose another --metric, or data that has them",
                            settings.metric.name()
                        ))
                    }
                    e => AppError::failure(format!("--baseline {file}: {e}")),
                }
            })
    }

    /// Prints the comparison's table to `out` and returns the exit status:
    /// [`exit::REGRESSION`] when the gate fails.
    pub fn write(
        &self,
        gate: &GateReport,
        dataset: &Dataset,
        settings: &RankingSettings,
        out: &mut dyn Write,
        width: usize,
    ) -> Result<i32, AppError> {
        let metric = settings.metric;
        report::gate::write(
            out,
            gate,
            &self.dataset,
            dataset,
            &self.options.baseline,
            metric.label(),
            metric.unit(),
            width,
        )
        .and_then(|()| out.flush())
        .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
        Ok(if gate.failed() {
            exit::REGRESSION
        } else {
            exit::OK
        })
    }
}

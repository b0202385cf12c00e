//! Each command's summary of every metric it has ([`CommandStats`]), and
//! the sample of the ranked metric that the ranking takes.

use super::rounds::metric_values;
use super::AnalysisError;
use crate::data::{Catalogue, CommandRuns, Metric};
use crate::stats::{Sample, SampleError, Summary};

/// Statistics of one command.
#[derive(Clone, Debug)]
pub struct CommandStats {
    /// Number of timed runs.
    pub runs: usize,
    /// Runs that did not exit 0 (they are included in every statistic).
    pub failed: usize,
    /// Indexed by [`Metric::index`]: the summary of the runs that have the
    /// metric, `None` if none has.
    summaries: Vec<Option<Summary>>,
}

impl CommandStats {
    /// The summary of `metric`, if any run of the command has it.
    pub fn metric(&self, metric: Metric) -> Option<&Summary> {
        self.summaries.get(metric.index()).and_then(Option::as_ref)
    }
}

/// Summarises every metric of `catalogue` that command `index` has; also
/// returns the sample of `ranked`, if the command has it.
///
/// The ranked metric is summarised last, so that its sample is not held
/// while the others are summarised (the peak memory at a million runs);
/// the error reported is still the first metric's in catalogue order.
pub(super) fn summarise(
    index: usize,
    c: &CommandRuns,
    catalogue: &Catalogue,
    ranked: Metric,
) -> Result<(CommandStats, Option<Sample>), AnalysisError> {
    let error = |source| AnalysisError::Sample {
        command: index + 1,
        source,
    };
    let mut summaries = vec![None; catalogue.index_bound()];
    let mut ranked_seen = false;
    for metric in catalogue.metrics() {
        if metric == ranked {
            ranked_seen = true;
            continue;
        }
        let values = metric_values(c, metric);
        if values.is_empty() {
            continue;
        }
        match Sample::new(values) {
            Ok(sample) => summaries[metric.index()] = Some(Summary::of(&sample)),
            Err(e) => {
                // The ranked metric comes first in order: its error wins.
                if ranked_seen {
                    ranked_sample(c, ranked).map_err(error)?;
                }
                return Err(error(e));
            }
        }
    }
    let of_interest = if ranked_seen {
        ranked_sample(c, ranked).map_err(error)?
    } else {
        None
    };
    if let Some(sample) = &of_interest {
        summaries[ranked.index()] = Some(Summary::of(sample));
    }
    Ok((
        CommandStats {
            runs: c.len(),
            failed: c.failed(),
            summaries,
        },
        of_interest,
    ))
}

/// The sample of the ranked metric; `None` when no run has it.
fn ranked_sample(c: &CommandRuns, ranked: Metric) -> Result<Option<Sample>, SampleError> {
    let values = metric_values(c, ranked);
    if values.is_empty() {
        return Ok(None);
    }
    Ok(Some(Sample::new(values)?))
}

//! From a [`Dataset`] to everything reports and exports need, computed once.
//!
//! Every renderer takes an [`Analysis`]: per command, the full [`Summary`] of
//! each metric; across commands, the [`Ranking`] of the metric of interest
//! (total CPU time unless [`RankingSettings::metric`] says otherwise). Both
//! executables build it the same way from the same dataset, which is what
//! makes a report printed by `bestguess` byte-identical to `bestreport` on
//! the saved raw data.

mod diagnostics;
mod settings;

pub use diagnostics::{in_time_order, time_order, Diagnostics, HalvesShift, Warning};
pub use settings::{threshold, RankingSettings, Reference};

use crate::data::{CommandRuns, Dataset, Metric};
use crate::stats::{
    rank, BestCaseSettingsError, Ranking, Sample, SampleError, SettingsError, Summary,
};

/// Statistics of one command.
#[derive(Clone, Debug)]
pub struct CommandStats {
    /// Number of timed runs.
    pub runs: usize,
    /// Runs that did not exit 0 (they are included in every statistic).
    pub failed: usize,
    /// One summary per metric, in [`Metric::ALL`] order.
    summaries: Vec<Summary>,
}

impl CommandStats {
    /// The summary of `metric`.
    pub fn metric(&self, metric: Metric) -> &Summary {
        let i = Metric::ALL.iter().position(|m| *m == metric).unwrap_or(0);
        &self.summaries[i]
    }
}

/// Why a dataset cannot be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("command {command}: {source}")]
    Sample { command: usize, source: SampleError },
    #[error("invalid setting: {0}")]
    Settings(#[from] SettingsError),
    #[error("invalid setting: {0}")]
    BestCase(#[from] BestCaseSettingsError),
}

/// Everything the reports show, for one dataset.
#[derive(Debug)]
pub struct Analysis<'a> {
    pub dataset: &'a Dataset,
    /// Per command, in dataset order.
    pub commands: Vec<CommandStats>,
    /// The ranking by the metric of interest.
    pub ranking: Ranking,
    /// The ranking's settings in force.
    pub settings: RankingSettings,
    /// Per command, in dataset order: did the machine change while it ran?
    pub diagnostics: Vec<Diagnostics>,
}

/// The summaries of command `index` and the sample of the ranked metric.
fn summarise(
    index: usize,
    c: &CommandRuns,
    ranked: Metric,
) -> Result<(CommandStats, Sample), AnalysisError> {
    let sample = |m: Metric| {
        Sample::new(c.metric(m)).map_err(|source| AnalysisError::Sample {
            command: index + 1,
            source,
        })
    };
    let mut summaries = Vec::with_capacity(Metric::ALL.len());
    let mut of_interest = None;
    for m in Metric::ALL {
        let s = sample(m)?;
        summaries.push(Summary::of(&s));
        if m == ranked {
            of_interest = Some(s);
        }
    }
    let of_interest = match of_interest {
        Some(s) => s,
        None => sample(ranked)?,
    };
    Ok((
        CommandStats {
            runs: c.len(),
            failed: c.failed(),
            summaries,
        },
        of_interest,
    ))
}

impl<'a> Analysis<'a> {
    /// Analyse every command of `dataset` and rank them.
    pub fn new(
        dataset: &'a Dataset,
        settings: RankingSettings,
    ) -> Result<Analysis<'a>, AnalysisError> {
        settings.validate()?;
        let mut commands = Vec::with_capacity(dataset.commands.len());
        let mut ranked = Vec::with_capacity(dataset.commands.len());
        for (i, c) in dataset.commands.iter().enumerate() {
            let (stats, sample) = summarise(i, c, settings.metric)?;
            commands.push(stats);
            ranked.push(sample);
        }
        let ranking = rank(&ranked, &settings.rule())?;
        let best_case = settings.best_case.validated()?;
        let series: Vec<Vec<f64>> = dataset
            .commands
            .iter()
            .map(|c| in_time_order(&c.runs, &c.metric(settings.metric)))
            .collect();
        let diagnostics =
            diagnostics::diagnose(&series, &best_case, settings.alpha, settings.effect).map_err(
                |(i, source)| AnalysisError::Sample {
                    command: i + 1,
                    source,
                },
            )?;
        Ok(Analysis {
            dataset,
            commands,
            ranking,
            settings,
            diagnostics,
        })
    }

    /// The runs of command `index` (dataset order).
    pub fn runs(&self, index: usize) -> &CommandRuns {
        &self.dataset.commands[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RunRecord;
    use crate::stats::Verdict;

    fn runs(command: &str, batch: u64, totals: &[i64]) -> Vec<RunRecord> {
        totals
            .iter()
            .map(|&t| RunRecord {
                command: command.into(),
                batch,
                user_us: t,
                wall_us: t + 10,
                maxrss_bytes: 1 << 20,
                ..RunRecord::default()
            })
            .collect()
    }

    #[test]
    fn summaries_and_ranking_come_from_the_dataset() {
        let mut records = runs("slow", 1, &[5000, 5100, 5200, 5300, 5400, 5500]);
        records.extend(runs("fast", 2, &[1000, 1100, 1200, 1300, 1400, 1500]));
        let dataset = Dataset::from_records(records);
        let a = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(a.commands.len(), 2);
        assert_eq!(a.commands[0].metric(Metric::Total).quantiles.median, 5250.0);
        assert_eq!(a.commands[1].metric(Metric::Wall).quantiles.median, 1260.0);
        assert_eq!(
            a.commands[1].metric(Metric::MaxRss).quantiles.max,
            1048576.0
        );
        assert_eq!(a.ranking.order(), [1, 0]);
        assert!(matches!(a.ranking.entries[1].verdict, Verdict::Slower));
    }

    #[test]
    fn the_metric_of_interest_is_ranked() {
        // Fast in CPU time, slow in wall time.
        let mut records = runs("a", 1, &[1000, 1100, 1200, 1300, 1400, 1500]);
        for r in &mut records {
            r.wall_us = 900_000;
        }
        records.extend(runs("b", 2, &[5000, 5100, 5200, 5300, 5400, 5500]));
        let dataset = Dataset::from_records(records);
        let cpu = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(cpu.ranking.order(), [0, 1]);
        let wall = RankingSettings {
            metric: Metric::Wall,
            ..RankingSettings::default()
        };
        let wall = Analysis::new(&dataset, wall).unwrap();
        assert_eq!(wall.ranking.order(), [1, 0]);
    }

    #[test]
    fn invalid_settings_are_refused() {
        let dataset = Dataset::from_records(runs("a", 1, &[1, 2, 3]));
        let s = RankingSettings {
            alpha: 2.0,
            ..RankingSettings::default()
        };
        assert!(matches!(
            Analysis::new(&dataset, s),
            Err(AnalysisError::Settings(_))
        ));
    }
}

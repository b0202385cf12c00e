//! From a [`Dataset`] to everything reports and exports need, computed once.
//!
//! Every renderer takes an [`Analysis`]: per command, the full [`Summary`] of
//! each metric; across commands, the [`Ranking`] of total CPU time. Both
//! executables build it the same way from the same dataset, which is what
//! makes a report printed by `bestguess` byte-identical to `bestreport` on
//! the saved raw data.

use crate::cli::settings::{Amount, Settings};
use crate::data::{CommandRuns, Dataset, Metric};
use crate::stats::{
    rank, RankSettings, Ranking, Sample, SampleError, SettingsError, Summary, Threshold,
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
}

/// Everything the reports show, for one dataset.
#[derive(Debug)]
pub struct Analysis<'a> {
    pub dataset: &'a Dataset,
    /// Per command, in dataset order.
    pub commands: Vec<CommandStats>,
    /// The ranking by total CPU time.
    pub ranking: Ranking,
    /// The settings in force (width, alpha, epsilon, effect, super).
    pub settings: Settings,
}

/// The ranking settings from the command-line settings.
pub fn rank_settings(s: &Settings) -> RankSettings {
    let threshold = |a: Amount| match a {
        Amount::Micros(us) => Threshold::Absolute(us),
        Amount::Percent(p) => Threshold::Relative(p / 100.0),
    };
    RankSettings {
        alpha: s.alpha,
        epsilon: threshold(s.epsilon),
        effect: threshold(s.effect),
        superiority: s.superiority,
    }
}

fn summarise(index: usize, c: &CommandRuns) -> Result<(CommandStats, Sample), AnalysisError> {
    let sample = |m: Metric| {
        Sample::new(c.metric(m)).map_err(|source| AnalysisError::Sample {
            command: index + 1,
            source,
        })
    };
    let total = sample(Metric::Total)?;
    let mut summaries = Vec::with_capacity(Metric::ALL.len());
    for m in Metric::ALL {
        summaries.push(match m {
            Metric::Total => Summary::of(&total),
            other => Summary::of(&sample(other)?),
        });
    }
    Ok((
        CommandStats {
            runs: c.len(),
            failed: c.failed(),
            summaries,
        },
        total,
    ))
}

impl<'a> Analysis<'a> {
    /// Analyse every command of `dataset` and rank them.
    pub fn new(dataset: &'a Dataset, settings: Settings) -> Result<Analysis<'a>, AnalysisError> {
        let mut commands = Vec::with_capacity(dataset.commands.len());
        let mut totals = Vec::with_capacity(dataset.commands.len());
        for (i, c) in dataset.commands.iter().enumerate() {
            let (stats, total) = summarise(i, c)?;
            commands.push(stats);
            totals.push(total);
        }
        let ranking = rank(&totals, &rank_settings(&settings))?;
        Ok(Analysis {
            dataset,
            commands,
            ranking,
            settings,
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
        let a = Analysis::new(&dataset, Settings::default()).unwrap();
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
    fn percentage_thresholds_become_relative() {
        let s = Settings {
            effect: Amount::Percent(2.0),
            ..Settings::default()
        };
        let r = rank_settings(&s);
        assert_eq!(r.effect, Threshold::Relative(0.02));
        assert_eq!(r.epsilon, Threshold::Absolute(250.0));
    }
}

//! From a [`Dataset`] to everything reports and exports need, computed once.
//!
//! Every renderer takes an [`Analysis`]: per command, the full
//! [`Summary`](crate::stats::Summary) of each metric of the dataset's
//! catalogue that the command has (a metric no run of it measured has no
//! summary, never a summary of zeros); across commands, the [`Ranking`] of
//! the metric of interest (total CPU time unless
//! [`RankingSettings::metric`] says otherwise). Both executables build it
//! the same way from the same dataset, which is what makes a report printed
//! by `bestguess` byte-identical to `bestreport` on the saved raw data.
//!
//! This file builds the [`Analysis`] and holds what it answers (the look,
//! the drift check, the warnings); each command's summaries are made in
//! `summaries.rs`, a metric's values per command and per round read in
//! `rounds.rs`, and the reference command found in `reference.rs`.

mod diagnostics;
mod metric_choice;
mod reference;
mod rounds;
mod settings;
mod spending;
mod stopping;
mod summaries;

pub use diagnostics::{
    first_run_excess, in_time_order, time_order, Diagnostics, DriftCheck, Explained, HalvesShift,
    RelativeChange, Warning, DRIFT_CONFIDENCE, FIRST_RUN_EXCESS,
};
pub use metric_choice::{
    choose, choose_from, known_names, resolve_metric, settle, Choice, MetricFrom, UnknownMetric,
    Why, SHORT_NAMES,
};
pub(crate) use reference::resolve_reference;
pub use reference::resolve_reference_among;
pub use rounds::complete_rounds;
pub use settings::{meaning, threshold, RankingSettings, Reference};
pub use spending::{CommandSpending, RunTimes, Spending, BUSY, MOSTLY_WAITS};
pub use stopping::{
    all_decided, look_at, median_known, Checkpoint, LookResult, StopReason, Stopper, StoppingRule,
};
pub use summaries::CommandStats;

use crate::data::{CommandRuns, Dataset, Metric};
use crate::stats::{
    rank_with, BestCaseSettingsError, Looks, MedianBounds, RankOptions, Ranking, Sample,
    SampleError, SettingsError,
};
use summaries::summarise;

/// Why a dataset cannot be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("command {command}: {source}")]
    Sample { command: usize, source: SampleError },
    #[error("command {command} ({label}) has no {metric} values to rank by; {}", match instead {
        Some(name) => format!("rank by a metric every command has (--metric {name}), or leave that command's data out"),
        None => "choose another metric (--metric) or leave that command's data out".to_owned(),
    })]
    Missing {
        command: usize,
        label: String,
        metric: String,
        /// A `--metric` name every command has values of, if any.
        instead: Option<&'static str>,
    },
    #[error("invalid setting: {0}")]
    Settings(#[from] SettingsError),
    #[error("--reference {0}")]
    Reference(String),
    #[error("invalid setting: {0}")]
    BestCase(#[from] BestCaseSettingsError),
}

/// `f(index, item)` of every item, in order, on as many threads as the
/// machine has (at most one per item): each command's statistics are
/// independent of the others', so this gives what one thread would.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.iter().enumerate().map(|(i, x)| f(i, x)).collect();
    }
    let per = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let part = move |part: usize, chunk: &[T]| -> Vec<R> {
            chunk
                .iter()
                .enumerate()
                .map(|(k, x)| f(part * per + k, x))
                .collect()
        };
        // A part whose thread cannot be had (a thread limit, a tight
        // `ulimit -v`) is made on this one: `scope.spawn` would panic
        // there, and the runs just measured would be lost with the process.
        let parts: Vec<Result<_, Vec<R>>> = items
            .chunks(per)
            .enumerate()
            .map(|(i, chunk)| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || part(i, chunk))
                    .map_err(|_| part(i, chunk))
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| match p {
                Ok(thread) => thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(made) => made,
            })
            .collect()
    })
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
    /// The check across commands ([`Analysis::drift_check`]), made once.
    drift: std::sync::OnceLock<DriftCheck>,
    /// An adaptive experiment's last look, whose level the ranking used.
    pub look: Option<Look>,
    /// What each command spends its wall time on, and whether the
    /// machine was busy.
    pub spending: Spending,
    /// One command alone: its median's interval, each bound missing at
    /// most α/2 (at the look's α with `--runs auto`, as the stopping rule
    /// bounds it); `None` with other commands, or too few runs for it.
    pub median_alone: Option<MedianBounds>,
}

/// The look of an adaptive experiment the verdicts come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// Complete rounds in the data.
    pub rounds: u64,
    /// The look's index (0 for the first) and its round: equal to `rounds`
    /// when the experiment stopped at a look, above it when a budget
    /// stopped it first.
    pub index: usize,
    pub round: u64,
    /// The family-wise level the look spends.
    pub alpha: f64,
    /// Every comparison was decided (slower, faster or equivalent; one
    /// command: its median known within the precision), whether the
    /// experiment stopped there or a budget stopped it.
    pub decided: bool,
}

impl<'a> Analysis<'a> {
    /// Analyse every command of `dataset` and rank them.
    pub fn new(
        dataset: &'a Dataset,
        settings: RankingSettings,
    ) -> Result<Analysis<'a>, AnalysisError> {
        settings.validate()?;
        let spending = Spending::of(dataset);
        let settings = settle(settings, dataset, &spending);
        let mut commands = Vec::with_capacity(dataset.commands.len());
        let mut ranked = Vec::with_capacity(dataset.commands.len());
        let summaries = in_parallel(&dataset.commands, |i, c| {
            summarise(i, c, &dataset.catalogue, settings.metric)
        });
        let summaries = summaries.into_iter().collect::<Result<Vec<_>, _>>()?;
        if let Some(i) = summaries.iter().position(|(_, sample)| sample.is_none()) {
            // Name the command, and a metric that would do.
            let everywhere = |m| summaries.iter().all(|(stats, _)| stats.metric(m).is_some());
            // A time or memory metric (not context switches), by the
            // name `--metric` lists it under.
            let instead = (metric_choice::SHORT_NAMES.into_iter())
                .filter(|&(_, m)| m != Metric::TOTAL_CSW)
                .find(|&(_, m)| m != settings.metric && everywhere(m))
                .map(|(name, _)| name);
            return Err(AnalysisError::Missing {
                command: i + 1,
                label: dataset.commands[i].label().into_owned(),
                metric: settings.metric.label().to_owned(),
                instead,
            });
        }
        for (stats, sample) in summaries {
            commands.push(stats);
            ranked.extend(sample);
        }
        let reference = match &settings.reference {
            Some(r) => Some(resolve_reference(dataset, r)?),
            None => None,
        };
        // Complete rounds change no bound; they say what the medians are
        // of (the same mixture of the machine's states for every command).
        let rounds = complete_rounds(dataset, settings.metric).map(|r| r[0].len());
        let mut rule = settings.rule();
        let look = settings.adaptive.and_then(|adaptive| {
            // Complete rounds; after an interrupt mid-round, the fewest
            // runs of any command (still at the look's level: the
            // experiment had looked).
            let n = match rounds {
                Some(r) => r,
                None => ranked.iter().map(Sample::len).min()?,
            } as u64;
            let looks = Looks::new(settings.alpha, ranked.len(), adaptive.min_rounds);
            let index = looks.slot(n);
            Some(Look {
                rounds: n,
                index,
                round: looks.round(index),
                alpha: looks.alpha_at(index),
                decided: false,
            })
        });
        if let Some(look) = &look {
            rule.alpha = look.alpha;
        }
        let options = RankOptions {
            rounds,
            reference,
            classic: true,
        };
        let ranking = rank_with(&ranked, options, &rule)?;
        let look = look.map(|look| {
            // Every question answered, at the look or at a budget's stop.
            let decided = match (ranked.as_slice(), settings.adaptive) {
                ([one], Some(adaptive)) => {
                    median_known(one, look.alpha, adaptive.precision).is_some()
                }
                _ => all_decided(&ranking),
            };
            Look { decided, ..look }
        });
        let median_alone = match ranked.as_slice() {
            [one] => MedianBounds::of(one.sorted(), rule.alpha / 2.0),
            _ => None,
        };
        let best_case = settings.best_case.validated()?;
        // Per command on its own thread, after the ranking (whose peak
        // memory is then not raised by theirs): the time-order
        // diagnostics, reusing the sort of the ranked metric's sample.
        let diagnosed = in_parallel(&dataset.commands, |i, c| {
            let series = in_time_order(c, settings.metric);
            diagnostics::diagnose_one(series, ranked.get(i), &best_case)
        });
        drop(ranked);
        let mut diagnostics = Vec::with_capacity(diagnosed.len());
        for (i, d) in diagnosed.into_iter().enumerate() {
            diagnostics.push(d.map_err(|source| AnalysisError::Sample {
                command: i + 1,
                source,
            })?);
        }
        diagnostics::adjust(&mut diagnostics, settings.alpha, settings.effect);
        Ok(Analysis {
            dataset,
            commands,
            ranking,
            settings,
            diagnostics,
            drift: std::sync::OnceLock::new(),
            look,
            spending,
            median_alone,
        })
    }

    /// The runs of command `index` (dataset order).
    pub fn runs(&self, index: usize) -> &CommandRuns {
        &self.dataset.commands[index]
    }
}

impl Analysis<'_> {
    /// The check across commands for a change of the machine's speed:
    /// what [`DriftCheck`] holds, computed once.
    ///
    /// With complete rounds (random or interleaved order), each command's
    /// runs are divided by the median of the commands in the same round
    /// (with two commands, one by the other); a
    /// Mann–Kendall trend in that ratio (Holm over the commands, below
    /// [`WARNING_LEVEL`](diagnostics::WARNING_LEVEL) or the ranking's α if smaller) of at least the
    /// `effect` threshold, located by
    /// Pettitt's change point, is a change of that command, not of the
    /// machine.
    ///
    /// Without them (sequential order, separate files), a verdict between
    /// commands measured at different times assumes the machine did not
    /// change. The runs of each command, divided by its median, give one
    /// slope common to all ([`pooled_slope`](crate::stats::pooled_slope)), whose interval is carried
    /// from one command's mean position in time to the other's: when some
    /// drift in that interval would bring a "slower" or "faster" within
    /// the `effect` threshold of no difference, the verdict may be the
    /// drift's, and the check says so. A command whose own runs changed
    /// speed (its Mann–Kendall test, [`Diagnostics::drifted`]) is also
    /// reported: a step inside one command moves a least-squares slope
    /// only by its share of the runs. `bestguess --order sequential` runs
    /// mirrored blocks, so every change of speed changes some command's
    /// own runs; in files of plain blocks, a step exactly between two
    /// commands leaves no trace in either, and no check can see it: the
    /// ranking says its verdicts assume a steady machine.
    pub fn drift_check(&self) -> &DriftCheck {
        self.drift
            .get_or_init(|| diagnostics::drift_check(self.dataset, &self.settings, self))
    }

    /// The warnings: the note about waiting commands first, then the
    /// check across commands, cold first runs, and command by command in
    /// dataset order the best case and the trend (those last two are
    /// details: [`Warning::printed`]).
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if self.settings.metric == Metric::TOTAL {
            let waiting = self.spending.waiting();
            if !waiting.is_empty() {
                out.push(Warning::WallDominates { commands: waiting });
            }
        }
        let check = self.drift_check();
        if !check.paired && (check.explained.is_some() || !check.changed.is_empty()) {
            out.push(Warning::OrderDrift {
                drift: check.total_drift(),
                explained: check.explained.clone(),
                changed: check.changed.clone(),
            });
        }
        out.extend(check.relative.iter().cloned().map(Warning::RelativeChange));
        // In complete rounds, a first round slow for every command (the
        // machine or the tool starting up) cancels in every comparison and
        // is no command's cold start: the first run must also stand out
        // against the other commands of its round.
        let rounds = complete_rounds(self.dataset, self.settings.metric);
        let cold: Vec<(usize, f64)> = (0..self.dataset.commands.len())
            .filter_map(|i| {
                let own = in_time_order(&self.dataset.commands[i], self.settings.metric);
                let excess = first_run_excess(&own)?;
                match &rounds {
                    Some(r) => {
                        first_run_excess(&diagnostics::against_the_round(r, i)).map(|_| (i, excess))
                    }
                    None => Some((i, excess)),
                }
            })
            .collect();
        if !cold.is_empty() {
            out.push(Warning::FirstRunSlow { commands: cold });
        }
        for (command, d) in self.diagnostics.iter().enumerate() {
            if let Ok(b) = &d.best_case {
                if !b.stable {
                    out.push(Warning::BestCaseChanged {
                        command,
                        distance: b.distance,
                        max_distance: self.settings.best_case.max_distance,
                    });
                }
            }
            if let (true, Ok(t), Some(p), Some(h)) =
                (d.drifted, &d.trend, d.trend_p_adjusted, d.halves)
            {
                out.push(Warning::SpeedChanged {
                    command,
                    slower: t.increasing(),
                    tau: t.tau,
                    p_adjusted: p,
                    halves: h,
                });
            }
        }
        out
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
            .map(|&t| {
                RunRecord {
                    command: command.into(),
                    batch,
                    ..RunRecord::default()
                }
                .with(Metric::USER, t)
                .with(Metric::SYSTEM, 0)
                .with(Metric::WALL, t + 10)
                .with(Metric::MAXRSS, 1 << 20)
            })
            .collect()
    }

    #[test]
    fn summaries_and_ranking_come_from_the_dataset() {
        let mut records = runs("slow", 1, &[5000, 5100, 5200, 5300, 5400, 5500, 5600]);
        records.extend(runs("fast", 2, &[1000, 1100, 1200, 1300, 1400, 1500, 1600]));
        let dataset = Dataset::from_records(records);
        let a = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(a.commands.len(), 2);
        let median = |c: usize, m| a.commands[c].metric(m).unwrap().quantiles.median;
        assert_eq!(median(0, Metric::TOTAL), 5300.0);
        assert_eq!(median(1, Metric::WALL), 1310.0);
        assert_eq!(median(1, Metric::MAXRSS), 1048576.0);
        // Never measured: no summary, not a summary of zeros.
        assert!(a.commands[1].metric(Metric::VOLUNTARY_CSW).is_none());
        assert!(a.commands[1].metric(Metric::TOTAL_CSW).is_none());
        assert_eq!(a.ranking.order(), [1, 0]);
        assert!(matches!(a.ranking.entries[1].verdict, Verdict::Slower));
    }

    #[test]
    fn a_budget_stop_with_every_question_answered_is_decided() {
        // Ten rounds: between the first look (8) and the second (12), as
        // a budget leaves them; two identical commands are equivalent.
        let mut records = runs("a", 1, &[1000; 10]);
        records.extend(runs("b", 2, &[1000; 10]));
        let dataset = Dataset::from_records(records);
        let settings = RankingSettings {
            adaptive: Some(StoppingRule::default()),
            ..RankingSettings::default()
        };
        let a = Analysis::new(&dataset, settings).unwrap();
        let look = a.look.unwrap();
        assert_eq!((look.rounds, look.index, look.round), (10, 1, 12));
        assert_eq!(a.ranking.entries[1].verdict, Verdict::Equivalent);
        assert!(look.decided);
    }

    #[test]
    fn too_few_runs_claim_no_confidence() {
        let mut records = runs("a", 1, &[1000, 1001, 1002]);
        records.extend(runs("b", 2, &[2000, 2001, 2002]));
        let dataset = Dataset::from_records(records);
        let a = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert!(!a.ranking.inference);
        assert_eq!(a.ranking.bound_confidence, None);
        assert_eq!(a.ranking.simultaneous_confidence, None);
        assert_eq!(a.ranking.runs_needed, Some(7));
    }

    #[test]
    fn the_metric_of_interest_is_ranked() {
        // Fast in CPU time, slow in wall time.
        let mut records = runs("a", 1, &[1000, 1100, 1200, 1300, 1400, 1500]);
        for r in &mut records {
            *r = r.clone().with(Metric::WALL, 900_000);
        }
        records.extend(runs("b", 2, &[5000, 5100, 5200, 5300, 5400, 5500]));
        let dataset = Dataset::from_records(records);
        let cpu = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(cpu.ranking.order(), [0, 1]);
        let wall = RankingSettings {
            metric: Metric::WALL,
            ..RankingSettings::default()
        };
        let wall = Analysis::new(&dataset, wall).unwrap();
        assert_eq!(wall.ranking.order(), [1, 0]);
    }

    #[test]
    fn a_command_without_the_ranked_metric_is_an_error_not_a_zero() {
        let mut records = runs("a", 1, &[1, 2, 3]);
        records.push(
            RunRecord {
                command: "b".into(),
                batch: 2,
                ..RunRecord::default()
            }
            .with(Metric::WALL, 5),
        );
        let dataset = Dataset::from_records(records);
        let e = Analysis::new(&dataset, RankingSettings::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "command 2 (b) has no Total CPU time values to rank by; rank by a metric every \
             command has (--metric wall), or leave that command's data out"
        );
    }

    #[test]
    fn references_resolve_by_number_name_or_command() {
        let mut records = runs("slow", 1, &[5000, 5100, 5200, 5300, 5400, 5500]);
        records.extend(runs("fast", 2, &[1000, 1100, 1200, 1300, 1400, 1500]));
        let dataset = Dataset::from_records(records);
        for (reference, index) in [
            (Reference::Number(1), 0),
            (Reference::Name("slow".into()), 0),
            (Reference::Number(2), 1),
        ] {
            let s = RankingSettings {
                reference: Some(reference),
                ..RankingSettings::default()
            };
            let a = Analysis::new(&dataset, s).unwrap();
            assert_eq!(a.ranking.entries[0].index, index);
            assert!(a.ranking.fixed_reference);
        }
        for bad in [Reference::Number(3), Reference::Name("nope".into())] {
            let s = RankingSettings {
                reference: Some(bad),
                ..RankingSettings::default()
            };
            assert!(matches!(
                Analysis::new(&dataset, s),
                Err(AnalysisError::Reference(_))
            ));
        }
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

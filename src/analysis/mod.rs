//! From a [`Dataset`] to everything reports and exports need, computed once.
//!
//! Every renderer takes an [`Analysis`]: per command, the full [`Summary`] of
//! each metric of the dataset's catalogue that the command has (a metric no
//! run of it measured has no summary, never a summary of zeros); across
//! commands, the [`Ranking`] of the metric of interest
//! (total CPU time unless [`RankingSettings::metric`] says otherwise). Both
//! executables build it the same way from the same dataset, which is what
//! makes a report printed by `bestguess` byte-identical to `bestreport` on
//! the saved raw data.

mod diagnostics;
mod metric_choice;
mod settings;
mod spending;
mod stopping;

pub use diagnostics::{
    first_run_excess, in_time_order, time_order, Diagnostics, DriftCheck, Explained, HalvesShift,
    RelativeChange, Warning, DRIFT_CONFIDENCE, FIRST_RUN_EXCESS,
};
pub use metric_choice::{
    choose, choose_from, known_names, resolve_metric, settle, Choice, MetricFrom, UnknownMetric,
    Why, SHORT_NAMES,
};
pub use settings::{meaning, threshold, RankingSettings, Reference};
pub use spending::{CommandSpending, RunTimes, Spending, BUSY, MOSTLY_WAITS};
pub use stopping::{
    all_decided, look_at, median_known, Checkpoint, LookResult, StopReason, Stopper, StoppingRule,
};

use crate::data::metric::Source;
use crate::data::{Attribute, Catalogue, CommandRuns, Dataset, Metric};
use crate::stats::{
    rank_with, BestCaseSettingsError, Looks, MedianBounds, RankOptions, Ranking, Sample,
    SampleError, SettingsError, Summary,
};

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

/// The input position of the reference command, checked against the data.
pub(crate) fn resolve_reference(
    dataset: &Dataset,
    reference: &Reference,
) -> Result<usize, AnalysisError> {
    let commands: Vec<(&str, &str)> = (dataset.commands.iter())
        .map(|c: &CommandRuns| (c.name.as_str(), c.command.as_str()))
        .collect();
    resolve_reference_among(&commands, reference)
}

/// The index of the command `reference` names among `commands`, each
/// (its `-n` name, empty if none; its command text): so that `bestguess`
/// can check `--reference` against its plan before anything runs.
pub fn resolve_reference_among(
    commands: &[(&str, &str)],
    reference: &Reference,
) -> Result<usize, AnalysisError> {
    let k = commands.len();
    match reference {
        Reference::Number(n) if (1..=k).contains(n) => Ok(n - 1),
        Reference::Number(n) => Err(AnalysisError::Reference(format!(
            "{n}: there {}; give a number from 1 to {k} or a command's name",
            if k == 1 {
                "is only 1 command".to_owned()
            } else {
                format!("are only {k} commands")
            }
        ))),
        Reference::Name(name) => {
            let by = |f: &dyn Fn(&(&str, &str)) -> bool| -> Vec<usize> {
                (0..k).filter(|&i| f(&commands[i])).collect()
            };
            let mut found = by(&|c| c.0 == name.as_str());
            if found.is_empty() {
                found = by(&|c| c.1 == name.as_str());
            }
            match found.as_slice() {
                [i] => Ok(*i),
                [] => Err(AnalysisError::Reference(format!(
                    "'{name}' names no command: give a command's number (from 1), its name (-n) or its exact command text"
                ))),
                _ => Err(AnalysisError::Reference(format!(
                    "'{name}' names {} commands: give the command's number instead",
                    found.len()
                ))),
            }
        }
    }
}

/// Per command, the values of `metric` in round order, when the rounds
/// are complete: every command comes from one experiment (one source, one
/// group of it), has the same number of runs, every run has its sequence
/// number, and the runs in execution order fall into blocks of one run of
/// each command (interleaved or random order; never sequential order, nor
/// files or groups measured separately, whose sequence numbers each start
/// at 1 and would make rounds of runs made apart). `None` otherwise.
pub fn complete_rounds(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<f64>>> {
    let k = dataset.commands.len();
    let first = dataset.commands.first()?;
    let r = first.len();
    if k < 2 || r == 0 || dataset.commands.iter().any(|c| c.len() != r) {
        return None;
    }
    let experiment = |c: &CommandRuns| (c.source, c.group);
    if (dataset.commands.iter()).any(|c| experiment(c) != experiment(first)) {
        return None;
    }
    match rounds_in_sequence(dataset, metric) {
        Some(rounds) => rounds,
        None => rounds_by_sorting(dataset, metric),
    }
}

/// [`complete_rounds`] by its definition: every run sorted by (sequence,
/// command), then cut into blocks of one run per command.
fn rounds_by_sorting(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<f64>>> {
    let (k, r) = (dataset.commands.len(), dataset.commands[0].len());
    let mut runs: Vec<(u64, usize, f64)> = Vec::with_capacity(k * r);
    for (i, c) in dataset.commands.iter().enumerate() {
        for run in 0..c.len() {
            let value = c.value(run, metric)?.as_f64();
            runs.push((c.sequence(run)?, i, value));
        }
    }
    runs.sort_by_key(|&(sequence, i, _)| (sequence, i));
    let mut rounds = vec![Vec::with_capacity(r); k];
    let mut seen = vec![usize::MAX; k];
    for (block, chunk) in runs.chunks(k).enumerate() {
        for &(_, i, value) in chunk {
            if seen[i] == block {
                return None;
            }
            seen[i] = block;
            rounds[i].push(value);
        }
    }
    Some(rounds)
}

/// [`complete_rounds`] without sorting every run, for the usual case:
/// each command's sequence numbers strictly increase in file order. The
/// runs of all commands sorted by (sequence, command) then fall into
/// blocks of one run each exactly when every command's run `b` precedes
/// every command's run `b + 1` (all pairs differ, so the order is total),
/// and block `b` holds the runs `b`. `None` when the case does not apply
/// (the general path decides), `Some(result)` otherwise.
///
/// The sequence numbers are read as integers a range of runs at a time,
/// every command in step, never all at once. A run without an integer
/// sequence number means no rounds, as the general path would find.
fn rounds_in_sequence(dataset: &Dataset, metric: Metric) -> Option<Option<Vec<Vec<f64>>>> {
    let commands = &dataset.commands;
    let r = commands[0].len();
    let mut rows: Vec<Vec<i64>> = vec![Vec::with_capacity(STEP.min(r)); commands.len()];
    // Each command's previous sequence number, and the largest (number,
    // command) of the previous round.
    let mut previous = vec![0u64; commands.len()];
    let mut last_of_round = (0u64, 0usize);
    let mut interleaved = true;
    for start in (0..r).step_by(STEP) {
        let range = start..(start + STEP).min(r);
        for (row, c) in rows.iter_mut().zip(commands) {
            row.clear();
            if !c.attribute_ints(Attribute::Sequence, range.clone(), row) {
                return Some(None);
            }
        }
        for b in range {
            let at = |i: usize| rows[i][b - start] as u64;
            if b > 0 && (0..commands.len()).any(|i| previous[i] >= at(i)) {
                return None; // not strictly increasing: the general path decides
            }
            if interleaved {
                let first = (0..commands.len()).map(|i| (at(i), i)).min();
                interleaved = b == 0 || first > Some(last_of_round);
                last_of_round = (0..commands.len()).map(|i| (at(i), i)).max()?;
            }
            for (i, p) in previous.iter_mut().enumerate() {
                *p = at(i);
            }
        }
    }
    if !interleaved {
        return Some(None);
    }
    let mut rounds = Vec::with_capacity(commands.len());
    for c in commands {
        let values = metric_values(c, metric);
        if values.len() != c.len() {
            // A run without the metric: no rounds (as the general path).
            return Some(None);
        }
        rounds.push(values);
    }
    Some(Some(rounds))
}

/// Runs read at a time from the columns.
const STEP: usize = 1 << 14;

/// [`CommandRuns::metric`]: the values of `metric` that are present, in
/// execution order. A derived sum (total CPU time, context switches)
/// whose every run is present as integers is read as integers a range of
/// runs at a time (`ints_range`, the same checked sums) and converted as
/// [`crate::data::Value::as_f64`] does, the same values without an
/// `Option<Value>` per run; anything else is `CommandRuns::metric`'s.
fn metric_values(c: &CommandRuns, metric: Metric) -> Vec<f64> {
    if !matches!(metric.builtin().map(|d| d.source), Some(Source::Sum(..))) {
        return c.metric(metric);
    }
    let n = c.len();
    let mut out = Vec::with_capacity(n);
    let mut ints = Vec::with_capacity(STEP.min(n));
    for start in (0..n).step_by(STEP) {
        ints.clear();
        if !c.ints_range(metric, start..(start + STEP).min(n), &mut ints) {
            return c.metric(metric);
        }
        out.extend(ints.iter().map(|&v| v as f64));
    }
    out
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

/// Summarises every metric of `catalogue` that command `index` has; also
/// returns the sample of `ranked`, if the command has it.
///
/// The ranked metric is summarised last, so that its sample is not held
/// while the others are summarised (the peak memory at a million runs);
/// the error reported is still the first metric's in catalogue order.
fn summarise(
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
    /// [`WARNING_LEVEL`] or the ranking's α if smaller) of at least the
    /// `effect` threshold, located by
    /// Pettitt's change point, is a change of that command, not of the
    /// machine.
    ///
    /// Without them (sequential order, separate files), a verdict between
    /// commands measured at different times assumes the machine did not
    /// change. The runs of each command, divided by its median, give one
    /// slope common to all ([`pooled_slope`]), whose interval is carried
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
    fn rounds_are_complete_only_when_every_block_holds_each_command_once() {
        let mk = |order: &[(usize, i64)]| {
            let records = order.iter().enumerate().map(|(s, &(c, t))| {
                RunRecord {
                    command: format!("c{c}"),
                    batch: c as u64 + 1,
                    sequence: Some(s as u64 + 1),
                    ..RunRecord::default()
                }
                .with(Metric::USER, t)
                .with(Metric::SYSTEM, 0)
            });
            Dataset::from_records(records.collect::<Vec<_>>())
        };
        // Random order: rounds (0,1), (1,0), (0,1).
        let d = mk(&[(0, 10), (1, 20), (1, 21), (0, 11), (0, 12), (1, 22)]);
        assert_eq!(
            complete_rounds(&d, Metric::TOTAL),
            Some(vec![vec![10.0, 11.0, 12.0], vec![20.0, 21.0, 22.0]])
        );
        // Sequential order: no rounds.
        let d = mk(&[(0, 10), (0, 11), (0, 12), (1, 20), (1, 21), (1, 22)]);
        assert_eq!(complete_rounds(&d, Metric::TOTAL), None);
    }

    /// Runs of `commands` commands in `order` (command of each run, in
    /// execution order), run r of command c taking `10_000·c + r % 97`
    /// µs of user time; `holes` lists (command, run) without a sequence
    /// number, `missing` those without system time.
    fn ordered(order: &[usize], holes: &[(usize, usize)], missing: &[(usize, usize)]) -> Dataset {
        let mut seen = vec![0; 1 + order.iter().max().copied().unwrap_or(0)];
        let records: Vec<RunRecord> = order
            .iter()
            .enumerate()
            .map(|(s, &c)| {
                let r = seen[c];
                seen[c] += 1;
                let mut record = RunRecord {
                    command: format!("c{c}"),
                    batch: c as u64 + 1,
                    sequence: (!holes.contains(&(c, r))).then_some(s as u64 + 1),
                    ..RunRecord::default()
                }
                .with(Metric::USER, 10_000 * c as i64 + (r % 97) as i64);
                if !missing.contains(&(c, r)) {
                    record = record.with(Metric::SYSTEM, (r % 13) as i64);
                }
                record
            })
            .collect();
        Dataset::from_records(records)
    }

    #[test]
    fn rounds_read_in_steps_are_the_rounds_by_definition() {
        // Past a few steps of runs, with the order broken at and around
        // a step's edge, runs without sequence numbers or without the
        // ranked metric, and the sequential order.
        let r = 2 * STEP + 5;
        let interleaved: Vec<usize> = (0..2 * r).map(|s| s % 2).collect();
        let mut random = interleaved.clone();
        let mut rng = crate::stats::SplitMix64::new(3);
        for pair in random.chunks_mut(2) {
            if rng.below(2) == 1 {
                pair.swap(0, 1);
            }
        }
        let mut broken = interleaved.clone();
        broken.swap(2 * STEP - 1, 2 * STEP); // rounds STEP − 1 and STEP mix
        let mut three: Vec<usize> = (0..3 * r).map(|s| s % 3).collect();
        three.swap(3 * STEP + 2, 3 * STEP + 3);
        let sequential: Vec<usize> = (0..2 * r).map(|s| s / r).collect();
        let cases = [
            (interleaved.clone(), vec![], vec![]),
            (random.clone(), vec![], vec![]),
            (broken, vec![], vec![]),
            (three, vec![], vec![]),
            (sequential, vec![], vec![]),
            (random.clone(), vec![(1, STEP + 3)], vec![]),
            (interleaved, vec![], vec![(0, 2 * STEP)]),
        ];
        for (i, (order, holes, missing)) in cases.into_iter().enumerate() {
            let d = ordered(&order, &holes, &missing);
            for metric in [Metric::USER, Metric::TOTAL] {
                let expected = rounds_by_sorting(&d, metric);
                assert_eq!(complete_rounds(&d, metric), expected, "case {i}");
                // The last case lacks system time, not user time.
                let complete = i < 2 || (i == 6 && metric == Metric::USER);
                assert_eq!(expected.is_some(), complete, "case {i}");
            }
        }
        // Files listing runs against the sequence (here: backwards): the
        // sorting path finds the rounds.
        let d = ordered(&random, &[], &[]);
        let backwards: Vec<RunRecord> = (0..2)
            .flat_map(|c| {
                let runs = &d.commands[c];
                let catalogue = &d.catalogue;
                (0..runs.len())
                    .rev()
                    .map(move |i| runs.record(i, catalogue))
            })
            .collect();
        let d = Dataset::from_records(backwards);
        assert_eq!(rounds_in_sequence(&d, Metric::TOTAL), None);
        let rounds = complete_rounds(&d, Metric::TOTAL).expect("rounds");
        assert_eq!(Some(&rounds), rounds_by_sorting(&d, Metric::TOTAL).as_ref());
        assert_eq!(rounds[0].len(), r);
    }

    #[test]
    fn derived_metrics_read_in_steps_are_the_columns_values() {
        let order: Vec<usize> = (0..2 * STEP + 9).map(|_| 0).collect();
        for missing in [vec![], vec![(0, 3)], vec![(0, STEP + 1)]] {
            let d = ordered(&order, &[], &missing);
            let c = &d.commands[0];
            for metric in [Metric::TOTAL, Metric::USER, Metric::SYSTEM] {
                let got = metric_values(c, metric);
                assert_eq!(got, c.metric(metric), "{metric:?} {missing:?}");
                assert_eq!(
                    got.len(),
                    c.len() - missing.len() * usize::from(metric != Metric::USER)
                );
            }
        }
        // Real values: the general path, the same sums.
        let records: Vec<RunRecord> = (0..5)
            .map(|i| {
                let mut r = RunRecord::default().with(Metric::USER, i);
                r.metrics
                    .set(Metric::SYSTEM, Some(crate::data::Value::Real(0.5)));
                r
            })
            .collect();
        let d = Dataset::from_records(records);
        let c = &d.commands[0];
        assert_eq!(metric_values(c, Metric::TOTAL), [0.5, 1.5, 2.5, 3.5, 4.5]);
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

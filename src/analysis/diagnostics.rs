//! Did the machine change during the experiment? Per command, on the
//! metric of interest, in time order.
//!
//! Two diagnostics, both computed by the statistics engine on the runs in
//! the order they ran (the Sequence column; file order for files without
//! it, such as C BestGuess's):
//!
//! * the best-case estimate and its stability between the two halves of
//!   the experiment ([`best_case`], after `tim`): unstable when the fastest
//!   runs themselves moved;
//! * the Mann–Kendall test for a monotone trend ([`mann_kendall`]), with
//!   Holm's adjustment over the commands (each command is one question,
//!   and a warning for any of them is the family's error) at the ranking's
//!   α. A trend is reported as a change of speed only when it also
//!   matters: the Hodges–Lehmann shift from the earlier to the later half
//!   is at least the ranking's `effect` (resolved against the command's
//!   own earlier-half median when relative). On real data almost every
//!   command drifts a little (the first runs warm the caches), and a
//!   warning for a drift too small to change any verdict would teach
//!   users to ignore warnings.
//!
//! Neither changes a statistic or the ranking; they are reported (`-T`,
//! `-E`, the JSON) and turned into warnings ([`Analysis::warnings`]).
//!
//! [`Analysis::warnings`]: super::Analysis::warnings

use crate::data::{Attribute, CommandRuns, Dataset, Metric};
use crate::stats::{
    best_case, change_point, hodges_lehmann, holm_adjust, mann_kendall, mann_kendall_with,
    pooled_slope, BestCase, BestCaseSettings, MannKendall, NotApplicable, PooledSlope, Sample,
    SampleError, Series, Threshold, Verdict,
};

/// The time-order diagnostics of one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostics {
    /// The best-case estimate of the metric of interest.
    pub best_case: Result<BestCase, NotApplicable>,
    /// The trend test of the metric of interest against run order.
    pub trend: Result<MannKendall, NotApplicable>,
    /// The trend's p-value after Holm's adjustment over all commands that
    /// could be tested.
    pub trend_p_adjusted: Option<f64>,
    /// How much the later half differs from the earlier one.
    pub halves: Option<HalvesShift>,
    /// The adjusted p-value is below α and the halves differ by at least
    /// the `effect` threshold: the speed changed.
    pub drifted: bool,
}

/// The later half of a command's runs against the earlier half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalvesShift {
    /// Hodges–Lehmann shift, later − earlier (positive: slower later).
    pub shift: f64,
    /// Median of the earlier half.
    pub early_median: f64,
}

/// Something about the experiment the user should know before trusting
/// its figures. Commands are indices in dataset order.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// The halves' best-case estimates are further apart than the
    /// threshold (`distance` is `None` when both are constant and differ).
    BestCaseChanged {
        command: usize,
        distance: Option<f64>,
        max_distance: f64,
    },
    /// The ranked metric is CPU time, but these commands spend most of
    /// their wall time waiting for something other than a CPU (sleep,
    /// I/O; [`super::Spending`]): CPU time may not be what the user means.
    /// Waiting for a CPU is not waiting: a busy machine never sets it off.
    WallDominates { commands: Vec<usize> },
    /// The first run of these commands (in time order) was their slowest,
    /// by at least [`FIRST_RUN_EXCESS`] over their median: a cold start.
    /// (command, first run / median − 1).
    FirstRunSlow { commands: Vec<(usize, f64)> },
    /// In complete rounds, a command's speed changed against the other
    /// commands' in the same rounds (the machine's own changes cancel).
    RelativeChange(RelativeChange),
    /// Without complete rounds, the machine's speed changed, so that a
    /// verdict between commands measured at different times may be the
    /// change, not the commands ([`DriftCheck`]).
    OrderDrift {
        /// The pooled drift over the experiment, relative (0.1: 10 %
        /// slower from the first run to the last), with its interval.
        drift: Option<(f64, f64, f64)>,
        /// A verdict the drift could account for.
        explained: Option<Explained>,
        /// Commands whose own runs changed speed (`Diagnostics::drifted`).
        changed: Vec<usize>,
    },
    /// The trend test found a monotone change in speed.
    SpeedChanged {
        command: usize,
        /// Later runs took more (of the metric), not less.
        slower: bool,
        tau: f64,
        p_adjusted: f64,
        halves: HalvesShift,
    },
}

/// A first run at least this much slower than the command's median, and
/// slower than every other run by at least [`FIRST_RUN_GAP`] of the
/// median, is a cold start worth a warning: it stands out from the runs'
/// own spikes. In `bench/aa.sh` (two identical commands, 30 runs, default
/// warm-up, a busy 2-core machine) 0.5–4 % of experiments show one; a
/// looser rule (the first run merely the slowest and 20 % over the
/// median) shows one in up to 9 %.
pub const FIRST_RUN_EXCESS: f64 = 0.3;

/// See [`FIRST_RUN_EXCESS`].
pub const FIRST_RUN_GAP: f64 = 0.15;

/// The level below which a command's change against the others (complete
/// rounds, Holm-adjusted) is printed as a warning: stricter than the
/// ranking's α, because a warning nobody asked for that is wrong in one
/// experiment of twenty (α = 5 %, `bench/aa.sh`) teaches users to ignore
/// warnings.
pub const WARNING_LEVEL: f64 = 0.01;

/// The confidence of the pooled drift's interval: the check asks whether
/// a drift the runs cannot rule out would account for a verdict, so a
/// wide interval errs towards warning.
pub const DRIFT_CONFIDENCE: f64 = 0.99;

/// A command whose speed changed against the others' (complete rounds).
#[derive(Clone, Debug, PartialEq)]
pub struct RelativeChange {
    pub command: usize,
    /// With two commands, the other one (the change cannot be told apart
    /// from the opposite change of the other); `None`: against the
    /// median of the commands in each round.
    pub against: Option<usize>,
    /// Mann–Kendall test of the per-round ratio against round order,
    /// Holm-adjusted over the commands tested.
    pub p_adjusted: f64,
    /// The first round after the change (from 1; Pettitt's change point).
    pub from_round: usize,
    pub rounds: usize,
    /// Median ratio after / before − 1 (positive: slower after).
    pub change: f64,
}

/// A verdict between two commands that a drift of the machine, within
/// what the runs allow, would account for.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The command found slower…
    pub slower: usize,
    /// …than this one.
    pub than: usize,
    /// Its median over the other's, − 1.
    pub difference: f64,
    /// The drift between the two commands' mean times: estimate and the
    /// interval, relative.
    pub drift: (f64, f64, f64),
}

/// The check across commands: does the order of the experiment protect
/// its verdicts from a change of the machine's speed, and if not, did
/// the speed change enough to matter? [`super::Analysis::drift_check`].
#[derive(Clone, Debug, PartialEq)]
pub struct DriftCheck {
    /// Complete rounds: every command's median is of the same mixture of
    /// the machine's states, and a change of its speed affects all alike.
    pub paired: bool,
    /// Without complete rounds, in one experiment: the slope common to
    /// every command's runs (each against its own median) per position
    /// in the run order, at [`DRIFT_CONFIDENCE`], and the span of
    /// positions it is extrapolated over (first run to last).
    pub slope: Option<(PooledSlope, f64)>,
    /// Without complete rounds: a verdict the drift would account for.
    pub explained: Option<Explained>,
    /// Without complete rounds: commands whose own runs changed speed.
    pub changed: Vec<usize>,
    /// With complete rounds: commands whose speed changed against the
    /// others'.
    pub relative: Vec<RelativeChange>,
}

impl DriftCheck {
    /// Whether the experiment warns about a change of speed.
    pub fn warns(&self) -> bool {
        !self.relative.is_empty()
            || (!self.paired && (self.explained.is_some() || !self.changed.is_empty()))
    }

    /// The pooled drift over the whole experiment: estimate, low, high.
    pub fn total_drift(&self) -> Option<(f64, f64, f64)> {
        self.slope
            .map(|(s, span)| (s.slope * span, s.low * span, s.high * span))
    }
}

impl super::Analysis<'_> {
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
            .get_or_init(|| drift_check(self.dataset, &self.settings, self))
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
        let rounds = super::complete_rounds(self.dataset, self.settings.metric);
        let cold: Vec<(usize, f64)> = (0..self.dataset.commands.len())
            .filter_map(|i| {
                let own = in_time_order(&self.dataset.commands[i], self.settings.metric);
                let excess = first_run_excess(&own)?;
                match &rounds {
                    Some(r) => first_run_excess(&against_the_round(r, i)).map(|_| (i, excess)),
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

impl Warning {
    /// Whether the warning is printed after the reports; the others are
    /// details, in `-E` and the JSON. A changed best case or a trend of
    /// one command's own runs is the machine's doing as often as the
    /// command's; in complete rounds it cannot bias a verdict, and without
    /// them [`Warning::OrderDrift`] says what it does to the verdicts.
    pub fn printed(&self) -> bool {
        !matches!(
            self,
            Warning::BestCaseChanged { .. } | Warning::SpeedChanged { .. }
        )
    }
}

/// How much slower the first value is than the median of all, as a
/// fraction, when there are at least 5 and it is a cold start
/// ([`FIRST_RUN_EXCESS`], [`FIRST_RUN_GAP`]).
pub fn first_run_excess(values: &[f64]) -> Option<f64> {
    first_run_excess_with(values, median_of(values)?)
}

/// [`first_run_excess`] given the values' median (the summaries have it).
fn first_run_excess_with(values: &[f64], median: f64) -> Option<f64> {
    let (&first, rest) = values.split_first()?;
    if values.len() < 5 {
        return None;
    }
    let slowest_other = rest.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let stands_out = first >= slowest_other + FIRST_RUN_GAP * median;
    (median > 0.0 && stands_out && first >= (1.0 + FIRST_RUN_EXCESS) * median)
        .then(|| first / median - 1.0)
}

/// Command `i`'s runs in complete `rounds` (`rounds[c][r]`), each divided
/// by the median of the other commands' runs in the same round (rounds
/// where that median is not positive left out).
fn against_the_round(rounds: &[Vec<f64>], i: usize) -> Vec<f64> {
    let n = rounds.first().map_or(0, Vec::len);
    let mut others = Vec::with_capacity(rounds.len());
    (0..n)
        .filter_map(|r| {
            others.clear();
            others.extend(
                (rounds.iter().enumerate())
                    .filter(|(j, _)| *j != i)
                    .map(|(_, c)| c[r]),
            );
            let m = median_of(&others)?;
            (m > 0.0).then(|| rounds[i][r] / m)
        })
        .collect()
}

/// `effect` as a fraction of `location` (0 when the location is 0).
fn relative_effect(effect: Threshold, location: f64) -> f64 {
    if location == 0.0 {
        return 0.0;
    }
    effect.resolve(location) / location.abs()
}

fn median_of(values: &[f64]) -> Option<f64> {
    let sample = Sample::from_slice(values).ok()?;
    Some(crate::stats::Quantiles::of(&sample).median)
}

/// [`super::Analysis::drift_check`].
fn drift_check(
    dataset: &Dataset,
    settings: &super::RankingSettings,
    analysis: &super::Analysis<'_>,
) -> DriftCheck {
    let metric = settings.metric;
    if let Some(rounds) = super::complete_rounds(dataset, metric) {
        return DriftCheck {
            paired: true,
            slope: None,
            explained: None,
            changed: Vec::new(),
            relative: relative_changes(&rounds, settings),
        };
    }
    let changed: Vec<usize> = (analysis.diagnostics.iter().enumerate())
        .filter(|(_, d)| d.drifted)
        .map(|(i, _)| i)
        .collect();
    let mut check = DriftCheck {
        paired: false,
        slope: None,
        explained: None,
        changed,
        relative: Vec::new(),
    };
    let Some(groups) = timed_groups(dataset, metric) else {
        return check;
    };
    let Some(slope) = pooled_slope(&groups, DRIFT_CONFIDENCE) else {
        return check;
    };
    let first = groups
        .iter()
        .flatten()
        .map(|p| p.0)
        .fold(f64::INFINITY, f64::min);
    let last = groups
        .iter()
        .flatten()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max);
    check.slope = Some((slope, last - first));
    let mean_time = |i: usize| -> Option<f64> {
        let g = &groups[i];
        (!g.is_empty()).then(|| g.iter().map(|p| p.0).sum::<f64>() / g.len() as f64)
    };
    let median = |i: usize| {
        analysis.commands[i]
            .metric(metric)
            .map(|s| s.quantiles.median)
    };
    let ranking = &analysis.ranking;
    let Some(reference) = ranking.best().map(|e| e.index) else {
        return check;
    };
    for e in &ranking.entries {
        if !matches!(e.verdict, Verdict::Slower | Verdict::Faster) {
            continue;
        }
        let (slower, than) = if e.verdict == Verdict::Slower {
            (e.index, reference)
        } else {
            (reference, e.index)
        };
        let (Some(ms), Some(mt), Some(ts), Some(tt)) = (
            median(slower),
            median(than),
            mean_time(slower),
            mean_time(than),
        ) else {
            continue;
        };
        if mt <= 0.0 {
            continue;
        }
        let difference = ms / mt - 1.0;
        let gap = ts - tt;
        let (a, b) = (slope.low * gap, slope.high * gap);
        let (low, high) = (a.min(b), a.max(b));
        let e = relative_effect(settings.effect, mt);
        // Some drift in [low, high] leaves a difference within the effect.
        if low <= difference + e && difference - e <= high {
            let better = check
                .explained
                .as_ref()
                .map_or(true, |x| difference.abs() > x.difference.abs());
            if better {
                check.explained = Some(Explained {
                    slower,
                    than,
                    difference,
                    drift: (slope.slope * gap, low, high),
                });
            }
        }
    }
    check
}

/// The most runs, over all commands, [`timed_groups`] keeps.
const SLOPE_LIMIT: usize = 200_000;

/// Per command, its runs as (position in time, value / its median), when
/// every command comes from one experiment and its median is positive;
/// positions are sequence numbers, or, when some run has none (files
/// from tools that run one command after another), places in dataset
/// order. `None` when the commands cannot be placed on one time line.
fn timed_groups(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<(f64, f64)>>> {
    let first = dataset.commands.first()?;
    let same = |c: &CommandRuns| (c.source, c.group) == (first.source, first.group);
    if !dataset.commands.iter().all(same) {
        return None;
    }
    let numbered = dataset
        .commands
        .iter()
        .all(|c| c.sequences().iter().all(Option::is_some));
    // Past SLOPE_LIMIT runs in all, every `stride`-th run of each command:
    // the slope's estimate stays unbiased, and its interval is still far
    // narrower than any drift that matters.
    let total: usize = dataset.commands.iter().map(|c| c.len()).sum();
    let stride = total.div_ceil(SLOPE_LIMIT).max(1);
    let mut offset = 0usize;
    let mut groups = Vec::with_capacity(dataset.commands.len());
    for c in &dataset.commands {
        let sequences = c.sequences();
        let mut pairs: Vec<(f64, f64)> = c
            .values(metric)
            .enumerate()
            .step_by(stride)
            .filter_map(|(i, v)| {
                let t = if numbered {
                    sequences[i]? as f64
                } else {
                    (offset + i) as f64
                };
                v.map(|v| (t, v.as_f64()))
            })
            .collect();
        offset += c.len();
        let values: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        match median_of(&values) {
            Some(m) if m > 0.0 => pairs.iter_mut().for_each(|p| p.1 /= m),
            _ => pairs.clear(),
        }
        groups.push(pairs);
    }
    Some(groups)
}

/// One ratio series tested: command, against, ratios, their ranks, p.
type Tested = (usize, Option<usize>, Vec<f64>, Vec<f64>, f64);

/// The most rounds [`relative_changes`] tests; longer experiments are
/// thinned evenly to about this many.
const RELATIVE_LIMIT: usize = 10_000;

/// [`DriftCheck::relative`] from the complete rounds.
fn relative_changes(rounds: &[Vec<f64>], settings: &super::RankingSettings) -> Vec<RelativeChange> {
    let k = rounds.len();
    let n = rounds.first().map_or(0, Vec::len);
    // (command, against, the ratio series in round order)
    let mut series: Vec<(usize, Option<usize>, Vec<f64>)> = Vec::new();
    if k == 2 {
        let q = (0..n)
            .filter(|&r| rounds[0][r] > 0.0)
            .map(|r| rounds[1][r] / rounds[0][r])
            .collect();
        series.push((1, Some(0), q));
    } else {
        // Against the median of every command in the round, itself
        // included: one command's change then moves the median little,
        // where the mean (or, with three commands, the median of the two
        // others) would pass it on to every other command.
        let mut round = Vec::with_capacity(k);
        let medians: Vec<Option<f64>> = (0..n)
            .map(|r| {
                round.clear();
                round.extend(rounds.iter().map(|c| c[r]));
                round.sort_by(f64::total_cmp);
                // Type 7 (the summaries'): the middle value, or the mean
                // of the two middle ones.
                let m = if k % 2 == 1 {
                    round[k / 2]
                } else {
                    0.5 * (round[k / 2 - 1] + round[k / 2])
                };
                (m > 0.0 && m.is_finite()).then_some(m)
            })
            .collect();
        for (i, runs) in rounds.iter().enumerate() {
            let q = (0..n)
                .filter_map(|r| medians[r].map(|m| runs[r] / m))
                .collect();
            series.push((i, None, q));
        }
    }
    // Past RELATIVE_LIMIT rounds, every `stride`-th round: a trend that
    // matters shows in 10,000 of them, and a million cost a second.
    let stride = n.div_ceil(RELATIVE_LIMIT).max(1);
    if stride > 1 {
        for (_, _, q) in &mut series {
            *q = q.iter().copied().step_by(stride).collect();
        }
    }
    // The tests depend on the order of the ratios only: on their dense
    // ranks (small integers), the trend test counts with a table instead
    // of searching among a million distinct ratios.
    let tested: Vec<Tested> = series
        .into_iter()
        .filter_map(|(i, against, q)| {
            let ranks = dense_ranks(&q);
            let t = mann_kendall(&Series::new(ranks.clone()).ok()?).ok()?;
            Some((i, against, q, ranks, t.p_value))
        })
        .collect();
    let p: Vec<f64> = tested.iter().map(|t| t.4).collect();
    let mut out = Vec::new();
    for ((command, against, q, ranks, _), adjusted) in tested.into_iter().zip(holm_adjust(&p)) {
        if adjusted >= WARNING_LEVEL.min(settings.alpha) {
            continue;
        }
        let Some(at) = change_point(&ranks) else {
            continue;
        };
        let (Some(before), Some(after)) = (median_of(&q[..at]), median_of(&q[at..])) else {
            continue;
        };
        if before <= 0.0 {
            continue;
        }
        let change = after / before - 1.0;
        if change.abs() >= relative_effect(settings.effect, before).max(f64::MIN_POSITIVE) {
            out.push(RelativeChange {
                command,
                against,
                p_adjusted: adjusted,
                from_round: at * stride + 1,
                rounds: n,
                change,
            });
        }
    }
    out
}

/// The dense ranks of `values` (0 for the smallest, equal values equal),
/// as numbers.
fn dense_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut rank = 0.0;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && values[i] != values[order[k - 1]] {
            rank += 1.0;
        }
        ranks[i] = rank;
    }
    ranks
}

/// The positions of `runs` in the order they ran: by Sequence when every
/// run has one (stable, so equal numbers keep file order), else file order.
pub fn time_order(runs: &CommandRuns) -> Vec<usize> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    if !in_file_order(runs) {
        let sequence = runs.sequences();
        order.sort_by_key(|&i| sequence[i]);
    }
    order
}

/// Whether [`time_order`] is file order: some run lacks a sequence number,
/// or the numbers never decrease (as `bestguess` writes them; the stable
/// sort then leaves every run where it is).
///
/// Read as integers a range of runs at a time (a range that cannot be
/// read so holds a run without an integer sequence number).
fn in_file_order(runs: &CommandRuns) -> bool {
    const STEP: usize = 1 << 14;
    let mut chunk = Vec::with_capacity(STEP.min(runs.len()));
    let (mut last, mut ordered) = (0u64, true);
    for start in (0..runs.len()).step_by(STEP) {
        chunk.clear();
        let range = start..(start + STEP).min(runs.len());
        if !runs.attribute_ints(Attribute::Sequence, range, &mut chunk) {
            return true;
        }
        for (k, &s) in chunk.iter().enumerate() {
            let s = s as u64; // as `CommandRuns::sequence` gives it
            ordered &= start + k == 0 || last <= s;
            last = s;
        }
    }
    ordered
}

/// The values of `metric` in time order, runs that lack it left out.
pub fn in_time_order(runs: &CommandRuns, metric: Metric) -> Vec<f64> {
    time_series(runs, metric).0
}

/// [`in_time_order`], and whether that is file order (the values are then
/// `runs.metric(metric)` exactly).
pub(super) fn time_series(runs: &CommandRuns, metric: Metric) -> (Vec<f64>, bool) {
    if in_file_order(runs) {
        return (super::metric_values(runs, metric), true);
    }
    let values: Vec<_> = runs.values(metric).collect();
    let series = time_order(runs)
        .into_iter()
        .filter_map(|i| values[i])
        .map(|v| v.as_f64())
        .collect();
    (series, false)
}

/// The later half against the earlier (halves as for the best case); `None`
/// with fewer than two values.
fn halves_shift(values: &[f64]) -> Option<HalvesShift> {
    let (early, late) = values.split_at(values.len() / 2);
    let early = Sample::from_slice(early).ok()?;
    let late = Sample::from_slice(late).ok()?;
    Some(HalvesShift {
        shift: hodges_lehmann(&early, &late),
        early_median: crate::stats::Quantiles::of(&early).median,
    })
}

/// The diagnostics of one command, from its values of the metric of
/// interest in time order, before Holm's adjustment ([`adjust`]).
/// `sample`, when given, is the [`Sample`] of the same values (the
/// summaries' of the ranked metric): the trend test then uses its sort
/// instead of sorting again.
pub fn diagnose_one(
    values: Vec<f64>,
    sample: Option<&Sample>,
    settings: &BestCaseSettings,
) -> Result<Diagnostics, SampleError> {
    let s = Series::new(values)?;
    let trend = match sample {
        Some(sample) => mann_kendall_with(&s, sample),
        None => mann_kendall(&s),
    };
    Ok(Diagnostics {
        best_case: best_case(&s, settings),
        trend,
        trend_p_adjusted: None,
        halves: halves_shift(s.values()),
        drifted: false,
    })
}

/// Holm's adjustment of the trend p-values over every command that could
/// be tested, and the drift flags that follow from it; `alpha` and
/// `effect` are the ranking's.
pub fn adjust(out: &mut [Diagnostics], alpha: f64, effect: Threshold) {
    let tested: Vec<usize> = (0..out.len()).filter(|&i| out[i].trend.is_ok()).collect();
    let p: Vec<f64> = tested
        .iter()
        .filter_map(|&i| out[i].trend.as_ref().ok().map(|t| t.p_value))
        .collect();
    for (&i, adjusted) in tested.iter().zip(holm_adjust(&p)) {
        let d = &mut out[i];
        d.trend_p_adjusted = Some(adjusted);
        let matters = d
            .halves
            .is_some_and(|h| h.shift.abs() >= effect.resolve(h.early_median));
        d.drifted = adjusted < alpha && matters;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagnostics of every command, as the analysis makes them.
    fn diagnose(
        series: &[Vec<f64>],
        settings: &BestCaseSettings,
        alpha: f64,
        effect: Threshold,
    ) -> Result<Vec<Diagnostics>, (usize, SampleError)> {
        let each = series
            .iter()
            .enumerate()
            .map(|(i, values)| diagnose_one(values.clone(), None, settings).map_err(|e| (i, e)));
        let mut out = each.collect::<Result<Vec<_>, _>>()?;
        adjust(&mut out, alpha, effect);
        Ok(out)
    }

    fn runs(runs: &[(Option<u64>, Option<i64>)]) -> crate::data::Dataset {
        crate::data::Dataset::from_records(runs.iter().map(|&(sequence, wall)| {
            let mut r = crate::data::RunRecord {
                sequence,
                ..crate::data::RunRecord::default()
            };
            if let Some(w) = wall {
                r = r.with(Metric::WALL, w);
            }
            r
        }))
    }

    #[test]
    fn sequence_decides_the_order_when_every_run_has_one() {
        let d = runs(&[
            (Some(5), Some(50)),
            (Some(1), Some(10)),
            (Some(3), Some(30)),
        ]);
        assert_eq!(
            in_time_order(&d.commands[0], Metric::WALL),
            [10.0, 30.0, 50.0]
        );
        let partial = runs(&[(Some(5), Some(50)), (None, None), (Some(3), Some(30))]);
        assert_eq!(time_order(&partial.commands[0]), [0, 1, 2]);
        assert_eq!(
            in_time_order(&partial.commands[0], Metric::WALL),
            [50.0, 30.0]
        );
    }

    #[test]
    fn file_order_read_in_steps_is_file_order_by_definition() {
        let n = 2 * (1 << 14) + 7;
        let definition = |d: &crate::data::Dataset| {
            let s = d.commands[0].sequences();
            s.iter().any(Option::is_none) || s.windows(2).all(|w| w[0] <= w[1])
        };
        let mut cases: Vec<Vec<(Option<u64>, Option<i64>)>> = Vec::new();
        let rising: Vec<_> = (0..n).map(|i| (Some(i as u64 / 2), Some(1))).collect();
        cases.push(rising.clone());
        for at in [1, 1 << 14, (1 << 14) + 1, n - 1] {
            let mut v = rising.clone();
            v[at].0 = Some(0); // a step back
            cases.push(v.clone());
            v[n - 2].0 = None; // and a run without a number after it
            cases.push(v);
        }
        for (i, case) in cases.iter().enumerate() {
            let d = runs(case);
            assert_eq!(in_file_order(&d.commands[0]), definition(&d), "case {i}");
        }
    }

    #[test]
    fn waiting_commands_are_noted_only_when_cpu_time_is_ranked() {
        use crate::analysis::{Analysis, RankingSettings};
        use crate::data::Dataset;
        let record = |batch: u64, cpu: i64, wall: i64| {
            crate::data::RunRecord {
                command: format!("c{batch}"),
                batch,
                ..crate::data::RunRecord::default()
            }
            .with(Metric::USER, cpu)
            .with(Metric::SYSTEM, 0)
            .with(Metric::WALL, wall)
        };
        let mut records = Vec::new();
        for i in 0..6 {
            records.push(record(1, 1000 + i, 2000 + i)); // exactly 2×: no note
            records.push(record(2, 1000 + i, 100_000 + i));
            records.push(record(3, 0, 5 + i)); // no CPU time at all
        }
        let dataset = Dataset::from_records(records);
        let a = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(
            a.warnings(),
            [Warning::WallDominates {
                commands: vec![1, 2]
            }]
        );
        let wall = RankingSettings {
            metric: Metric::WALL,
            ..RankingSettings::default()
        };
        let a = Analysis::new(&dataset, wall).unwrap();
        assert!(a.warnings().is_empty());
    }

    #[test]
    fn a_trend_is_flagged_after_holm_and_a_flat_command_is_not() {
        let flat: Vec<f64> = (0..30).map(|i| f64::from((i * 7) % 11)).collect();
        let rising: Vec<f64> = (0..30).map(|i| f64::from(i + (i * 7) % 3)).collect();
        let d = diagnose(
            &[flat, rising.clone(), vec![1.0; 3]],
            &BestCaseSettings::default(),
            0.05,
            Threshold::Absolute(10.0),
        )
        .unwrap();
        assert!(!d[0].drifted && d[1].drifted);
        // The halves differ by 15: a larger effect makes it not matter.
        assert_eq!(d[1].halves.unwrap().shift, 15.0);
        let big = diagnose(
            &[rising],
            &BestCaseSettings::default(),
            0.05,
            Threshold::Percent(200.0),
        )
        .unwrap();
        assert!(big[0].trend_p_adjusted.unwrap() < 0.05 && !big[0].drifted);
        // Two commands tested: the smaller p doubled by Holm.
        let p = d[1].trend.as_ref().unwrap().p_value;
        assert_eq!(d[1].trend_p_adjusted, Some((2.0 * p).min(1.0)));
        assert_eq!(d[2].trend_p_adjusted, None);
        assert!(d[2].best_case.is_err());
    }

    /// Identical commands, one after another (or in shuffled rounds), on
    /// a machine that slows by `drift` over the experiment; a fixed
    /// pseudo-random noise of ±1 %.
    fn identical(k: usize, runs: usize, drift: f64, rounds: bool) -> crate::data::Dataset {
        let mut records = Vec::new();
        let mut state = 12345u64;
        for i in 0..k {
            for r in 0..runs {
                let position = if rounds {
                    r * k + (i + r) % k
                } else {
                    i * runs + r
                };
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let noise = ((state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 0.02;
                let slow = 1.0 + drift * position as f64 / (k * runs) as f64;
                let v = (10_000.0 * (1.0 + noise) * slow) as i64;
                records.push(
                    crate::data::RunRecord {
                        command: format!("c{i}"),
                        batch: i as u64 + 1,
                        sequence: Some(position as u64 + 1),
                        ..crate::data::RunRecord::default()
                    }
                    .with(Metric::USER, v)
                    .with(Metric::SYSTEM, 0)
                    .with(Metric::WALL, v),
                );
            }
        }
        crate::data::Dataset::from_records(records)
    }

    #[test]
    fn a_sequential_drift_that_makes_a_verdict_is_explained() {
        use crate::analysis::{Analysis, RankingSettings};
        let d = identical(2, 30, 0.10, false);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let slower = a
            .ranking
            .entries
            .iter()
            .any(|e| e.verdict == Verdict::Slower);
        assert!(slower, "the drift alone makes command 2 slower");
        let check = a.drift_check();
        assert!(!check.paired && check.warns(), "{check:?}");
        let x = check.explained.as_ref().expect("explained");
        assert_eq!((x.slower, x.than), (1, 0));
        // The drift between the commands' mean times: 30 positions of 60
        // at 10 % per 60, about +5 %; the difference is about that too.
        assert!(
            (x.drift.0 - 0.05).abs() < 0.01 && (x.difference - 0.05).abs() < 0.01,
            "{x:?}"
        );
        let (total, low, high) = check.total_drift().unwrap();
        assert!(
            low < 0.10 && 0.10 < high && (total - 0.10).abs() < 0.02,
            "{total} [{low}, {high}]"
        );
        assert!(matches!(a.warnings()[0], Warning::OrderDrift { .. }));
    }

    #[test]
    fn rounds_cancel_the_machines_drift() {
        use crate::analysis::{Analysis, RankingSettings};
        let d = identical(3, 30, 0.10, true);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let check = a.drift_check();
        assert!(check.paired && !check.warns(), "{check:?}");
        assert!(
            a.warnings().iter().all(|w| !w.printed()),
            "{:?}",
            a.warnings()
        );
        // Without drift in sequence, nothing to explain either.
        let d = identical(2, 30, 0.0, false);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        assert!(!a.drift_check().warns(), "{:?}", a.drift_check());
    }

    #[test]
    fn a_command_that_changes_against_the_others_is_named_with_when() {
        use crate::analysis::{Analysis, RankingSettings};
        let mut records = Vec::new();
        for r in 0..30u64 {
            for i in 0..3u64 {
                // Command 3 is 20 % slower from round 21 on.
                let jitter = ((r * 7 + i * 3) % 5) as i64 * 10;
                let v = 10_000 + jitter + if i == 2 && r >= 20 { 2_000 } else { 0 };
                records.push(
                    crate::data::RunRecord {
                        command: format!("c{i}"),
                        batch: i + 1,
                        sequence: Some(r * 3 + i + 1),
                        ..crate::data::RunRecord::default()
                    }
                    .with(Metric::USER, v)
                    .with(Metric::SYSTEM, 0),
                );
            }
        }
        let d = crate::data::Dataset::from_records(records);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let check = a.drift_check();
        assert_eq!(check.relative.len(), 1, "{check:?}");
        let c = &check.relative[0];
        assert_eq!(
            (c.command, c.against, c.from_round, c.rounds),
            (2, None, 21, 30)
        );
        assert!((c.change - 0.2).abs() < 0.01, "{c:?}");
    }

    #[test]
    fn a_cold_first_run_is_found_only_when_it_stands_out() {
        let mut v = vec![100.0; 10];
        v[0] = 140.0;
        assert!((first_run_excess(&v).unwrap() - 0.4).abs() < 1e-12);
        v[0] = 125.0;
        assert_eq!(first_run_excess(&v), None, "below the threshold");
        v[0] = 140.0;
        v[5] = 150.0;
        assert_eq!(first_run_excess(&v), None, "not the slowest");
        v[5] = 130.0;
        assert_eq!(first_run_excess(&v), None, "not 15 % above every other");
        v[5] = 124.0;
        assert!(first_run_excess(&v).is_some());
        assert_eq!(first_run_excess(&[200.0, 1.0, 1.0]), None, "too few runs");
    }

    /// In complete rounds, a first round slow for both commands (both 40 %
    /// over their medians) is no command's cold start; one command's slow
    /// first run, against the other's usual one in the same round, is.
    #[test]
    fn a_slow_first_round_of_every_command_is_no_cold_start() {
        use crate::analysis::{Analysis, RankingSettings};
        let cold = |d: &crate::data::Dataset| {
            let a = Analysis::new(d, RankingSettings::default()).unwrap();
            let found = a.warnings().into_iter().find_map(|w| match w {
                Warning::FirstRunSlow { commands } => Some(commands),
                _ => None,
            });
            found.unwrap_or_default()
        };
        let slow_first = |d: crate::data::Dataset, which: &[usize]| {
            let records: Vec<crate::data::RunRecord> = (d.commands.iter().enumerate())
                .flat_map(|(i, c)| {
                    let first = *time_order(c).first().unwrap();
                    (0..c.len())
                        .map(|run| {
                            let mut r = c.record(run, &d.catalogue);
                            if which.contains(&i) && run == first {
                                let v = r.value(Metric::USER).unwrap().as_f64() * 1.4;
                                r = r.with(Metric::USER, v as i64);
                            }
                            r
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            crate::data::Dataset::from_records(records)
        };
        let both = slow_first(identical(2, 30, 0.0, true), &[0, 1]);
        assert_eq!(cold(&both), [], "the round, not a command");
        let one = slow_first(identical(2, 30, 0.0, true), &[1]);
        assert_eq!(cold(&one).iter().map(|c| c.0).collect::<Vec<_>>(), [1]);
        // Without complete rounds, each command's own runs decide.
        let apart = slow_first(identical(2, 30, 0.0, false), &[0, 1]);
        assert_eq!(cold(&apart).len(), 2);
    }
}

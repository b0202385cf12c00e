//! Ranking commands: which is fastest, by how much the others are slower,
//! and how sure that is — decided on intervals, not on point estimates.
//!
//! # The rule
//!
//! 1. **Reference.** Either the command given with `--reference` (fixed in
//!    advance), or the best, chosen from the data: starting from the
//!    lowest median, the command against which no other command has a
//!    negative estimate (the ratio, or Δ when a ratio does not exist); if
//!    another command is estimated faster, it becomes the candidate. So
//!    the "slower by" of every command under the best is ≥ 0 and the
//!    order agrees with the estimates shown.
//! 2. **Design.** With complete rounds (every round one run of each
//!    command; interleaved or random order) the comparisons are paired
//!    within rounds (Wilcoxon signed-rank, one-sample Hodges–Lehmann on the
//!    differences), which cancels drift; otherwise independent samples
//!    (Mann–Whitney, two-sample Hodges–Lehmann). See [`super::compare()`].
//! 3. **Multiplicity.** The intervals are computed at the per-comparison
//!    level 1 − α/m (Bonferroni), and the p-values are adjusted to
//!    min(1, m·p). When the best is chosen from the data, the question
//!    "is any command slower than the best" involves every pair, so
//!    m = K(K − 1)/2 over the K commands compared; then all pairwise
//!    intervals, and so the selected ones, cover together with probability
//!    ≥ 1 − α whichever command the data make the best. With a fixed
//!    reference m = K − 1 (Dunnett's family). The simultaneous level
//!    actually achieved (Bonferroni's bound from each interval's achieved
//!    confidence) is reported in [`Ranking::simultaneous_confidence`].
//! 4. **Verdict**, on the interval of the ratio when it exists and the
//!    threshold is relative, else on Δ's:
//!    * *slower*: the whole interval lies above +effect (and, when
//!      super < 0.5, Â's interval lies at or below super);
//!    * *faster* (only possible with a fixed reference): the whole
//!      interval lies below −effect;
//!    * *equivalent*: the whole interval lies within ±epsilon (two
//!      one-sided tests, Schuirmann 1987, each at level α/(2m));
//!    * *inconclusive*: otherwise — more runs could tell.
//!
//!    Each unmet condition of "slower" is recorded as a [`Reason`]. An
//!    interval that cannot reach the per-comparison level (too few runs
//!    for the size of the family) decides nothing: "inconclusive".
//!
//! Commands with fewer than five values are left uncompared.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use thiserror::Error;

use super::compare::{compare_paired_with, compare_with_logs, Comparison, Design, Known, Rounds};
use super::quantile::sorted_quantile;
use super::sample::Sample;
use super::select::{Differences, SortedLogs};
use super::shift::{hodges_lehmann, hodges_lehmann_with, Alpha, InvalidAlpha};
use super::signed_rank::{median_from_middle, PairedDifferences};

/// Fewest values a command (and the reference) needs to be compared.
pub const MIN_VALUES_FOR_INFERENCE: usize = 5;

/// A threshold in the metric's unit, or relative to the best median.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    /// In the metric's unit (µs for CPU time).
    Absolute(f64),
    /// A percentage of the best command's median (`2%` is `Percent(2.0)`).
    Percent(f64),
}

impl Threshold {
    /// The threshold in the metric's unit: `Percent(p)` is p/100·|best median|.
    pub fn resolve(self, best_median: f64) -> f64 {
        match self {
            Threshold::Absolute(v) => v,
            Threshold::Percent(p) => p / 100.0 * best_median.abs(),
        }
    }

    /// Whether the threshold is usable: finite and not negative.
    pub fn is_valid(self) -> bool {
        let (Threshold::Absolute(v) | Threshold::Percent(v)) = self;
        v.is_finite() && v >= 0.0
    }
}

/// The parameters of the ranking rule. Their defaults and their names on
/// the command line belong to the analysis stage
/// (`analysis::RankingSettings`); [`RankSettings::validate`] is the one
/// check of their ranges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankSettings {
    /// The family-wise error rate: 1 − the simultaneous confidence of the
    /// intervals that decide the verdicts.
    pub alpha: f64,
    /// The equivalence margin: "equivalent" when the whole interval lies
    /// within ±epsilon (on the ratio, `Percent`; or on Δ, `Absolute`).
    pub epsilon: Threshold,
    /// The practical margin: "slower" when the whole interval lies above
    /// +effect (on the ratio, `Percent`; or on Δ, `Absolute`).
    pub effect: Threshold,
    /// Largest probability of superiority Â (chance that the reference is
    /// the slower of a random pair) compatible with "slower": the upper
    /// end of Â's interval must not exceed it. At 0.5 or more the
    /// condition is implied by the shift's interval and not applied.
    pub superiority: f64,
}

impl RankSettings {
    /// Checks every range: alpha in (0, 1), thresholds finite and ≥ 0,
    /// superiority in [0, 1].
    pub fn validate(&self) -> Result<(), SettingsError> {
        Alpha::new(self.alpha)?;
        if !self.epsilon.is_valid() {
            return Err(SettingsError::Epsilon(self.epsilon));
        }
        if !self.effect.is_valid() {
            return Err(SettingsError::Effect(self.effect));
        }
        if !(0.0..=1.0).contains(&self.superiority) {
            return Err(SettingsError::Superiority(self.superiority));
        }
        Ok(())
    }
}

/// A [`RankSettings`] value that cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum SettingsError {
    /// `alpha` is not strictly between 0 and 1.
    #[error(transparent)]
    Alpha(#[from] InvalidAlpha),
    /// `epsilon` is negative or not finite.
    #[error(
        "epsilon must be a finite number of at least 0 (absolute, or a percentage), but is {0:?}"
    )]
    Epsilon(Threshold),
    /// `effect` is negative or not finite.
    #[error(
        "effect must be a finite number of at least 0 (absolute, or a percentage), but is {0:?}"
    )]
    Effect(Threshold),
    /// `superiority` is not within [0, 1].
    #[error("super must be a probability between 0 and 1, such as 0.333, but is {0}")]
    Superiority(f64),
}

/// A condition of "slower" that a comparison did not meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The deciding interval reaches down to +effect or below.
    WithinEffect,
    /// The upper end of Â's interval exceeds `super` (applied only when
    /// super < 0.5).
    Superiority,
    /// The interval could not reach its confidence level: with so few
    /// runs even the widest order-statistic interval is less sure than
    /// the family requires (the verdict is then "inconclusive").
    TooFewRuns,
    /// The adjusted p-value is not below α: the comparison's test does
    /// not show a difference. With ties an interval can lie wholly above
    /// +effect while the test rejects nothing (a point interval at the
    /// middle of two ticks); "slower" and "faster" need both.
    NotSignificant,
    /// The test shows a difference, but the other way: its statistic
    /// leans towards this command being faster while the interval lies
    /// above +effect (a pseudo-median of log-ratios at the midpoint of two
    /// ticks, +1.4 %, for a constant 60 ms command against one at 50 or
    /// 70 ms that is slower in 60 % of the rounds).
    TestOpposes,
    /// The deciding interval lies within ±epsilon, but the data are no
    /// shift of each other: the comparison's test rejects "no difference"
    /// while the interval holds it, or the interval's own test rejects
    /// its estimate (tied values that differ in how often they take each
    /// tick, not by a shift). The interval cannot show them equivalent
    /// (the verdict is then "inconclusive"). A condition of "equivalent",
    /// not of "slower".
    NoShift,
}

/// What the ranking concludes about one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The reference: the best, or the command given as the reference.
    Best,
    /// Shown to be slower than the reference by more than `effect`.
    Slower,
    /// Shown to be faster than the (fixed) reference by more than `effect`.
    Faster,
    /// Shown to be within ±epsilon of the reference.
    Equivalent,
    /// Neither: the interval is too wide to tell.
    Inconclusive,
    /// Not compared: this command has `n` values and fewer than
    /// [`MIN_VALUES_FOR_INFERENCE`], or the reference has too few
    /// (then [`Ranking::inference`] is false).
    NotCompared {
        /// Number of values of this command.
        n: usize,
    },
}

impl Verdict {
    /// The word used in reports and exports.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
            Verdict::Equivalent => "equivalent",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotCompared { .. } => "not_compared",
        }
    }
}

/// One command's place in the ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedEntry {
    /// Position of the command in the input.
    pub index: usize,
    /// Number of values.
    pub n: usize,
    /// Median of the ranked metric.
    pub median: f64,
    /// Comparison with the reference (`None` for the reference and for
    /// commands not compared); its `p_adjusted` is Bonferroni-adjusted
    /// over the family (module docs).
    pub comparison: Option<Comparison>,
    /// The conclusion.
    pub verdict: Verdict,
    /// The conditions of "slower" not met (empty unless compared and not
    /// slower).
    pub reasons: Vec<Reason>,
}

/// The outcome of [`rank`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Whether comparisons were possible at all: false when there are no
    /// commands or the reference has fewer than [`MIN_VALUES_FOR_INFERENCE`]
    /// values (the order is then by median only).
    pub inference: bool,
    /// The reference first, then the compared commands by their estimate
    /// (ratio, or Δ when some ratio does not exist), then the commands not
    /// compared, by median (stable: ties keep input order).
    pub entries: Vec<RankedEntry>,
    /// The settings used.
    pub settings: RankSettings,
    /// Whether the reference was fixed in advance (`--reference`).
    pub fixed_reference: bool,
    /// No command had a non-negative estimate against every other one
    /// (the pairwise estimates were intransitive, which happens only when
    /// they are tiny beside their intervals); the reference is then the
    /// command whose most negative estimate is closest to zero, and some
    /// "slower by" can be slightly negative.
    pub ambiguous_best: bool,
    /// The analysis used for every comparison (paired only when the
    /// rounds were complete).
    pub design: Design,
    /// Size of the multiplicity family m (module docs; 0 without
    /// comparisons).
    pub family: usize,
    /// The per-comparison nominal confidence, 1 − α/m.
    pub confidence_each: f64,
    /// Bonferroni's lower bound on the simultaneous confidence actually
    /// achieved: 1 − m·(1 − the lowest achieved per-interval confidence),
    /// at least 0 (equals 1 − α or more unless an interval could not reach
    /// its level, as with very few runs).
    pub simultaneous_confidence: f64,
    /// ε in the metric's unit (resolved against the reference's median; 0
    /// when there are no commands).
    pub epsilon: f64,
    /// The effect threshold in the metric's unit (resolved likewise).
    pub effect: f64,
}

impl Ranking {
    /// Input indices in rank order.
    pub fn order(&self) -> Vec<usize> {
        self.entries.iter().map(|e| e.index).collect()
    }

    /// The reference (best) command, unless there were none.
    pub fn best(&self) -> Option<&RankedEntry> {
        self.entries.first()
    }

    /// The entry of the command at input position `index`.
    pub fn entry(&self, index: usize) -> Option<&RankedEntry> {
        self.entries.iter().find(|e| e.index == index)
    }

    /// Size of the winner group: the reference plus every command shown
    /// equivalent to it (0 with no commands; 1 without inference).
    pub fn winners(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e.verdict, Verdict::Best | Verdict::Equivalent))
            .count()
    }

    /// Number of entries with this verdict.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.entries.iter().filter(|e| e.verdict == verdict).count()
    }
}

/// How to compare: the rounds (if complete) and a fixed reference.
#[derive(Debug, Clone, Copy, Default)]
pub struct RankOptions<'a> {
    /// Per command, its values in round order, when every round holds
    /// exactly one run of every command (all of the same length as the
    /// samples, and the same values: a paired comparison's rank test and
    /// Â read the samples, already sorted). `None`: compare independent
    /// samples.
    pub rounds: Option<&'a [Vec<f64>]>,
    /// The command to compare with (input position), instead of the best.
    pub reference: Option<usize>,
}

/// Ranks commands against the best, one sample of the ranked metric each,
/// as independent samples. See [`rank_with`].
pub fn rank<S: Borrow<Sample> + Sync>(
    samples: &[S],
    settings: &RankSettings,
) -> Result<Ranking, SettingsError> {
    rank_with(samples, RankOptions::default(), settings)
}

/// Ranks commands, one sample of the ranked metric each, in input order,
/// by the rule in the module docs. Errors only for invalid settings; a
/// `reference` out of range is ignored (the best is used).
pub fn rank_with<S: Borrow<Sample> + Sync>(
    samples: &[S],
    options: RankOptions<'_>,
    settings: &RankSettings,
) -> Result<Ranking, SettingsError> {
    rank_in(samples, options, settings, PARALLEL_UP_TO)
}

/// [`rank_with`], comparing two at a time when every sample has at most
/// `parallel_up_to` values (tests vary it: the results are the same).
fn rank_in<S: Borrow<Sample> + Sync>(
    samples: &[S],
    options: RankOptions<'_>,
    settings: &RankSettings,
    parallel_up_to: usize,
) -> Result<Ranking, SettingsError> {
    settings.validate()?;
    let k = samples.len();
    let medians: Vec<f64> = samples
        .iter()
        .map(|s| sorted_quantile(s.borrow().sorted(), 0.5))
        .collect();
    let mut by_median: Vec<usize> = (0..k).collect();
    by_median.sort_by(|&a, &b| medians[a].total_cmp(&medians[b]));
    let rounds = options
        .rounds
        .filter(|r| r.len() == k && (0..k).all(|i| r[i].len() == samples[i].borrow().len()));
    let eligible: Vec<usize> = (0..k)
        .filter(|&i| samples[i].borrow().len() >= MIN_VALUES_FOR_INFERENCE)
        .collect();
    let fixed = options.reference.filter(|&r| r < k);
    let reference = match fixed {
        Some(r) => Some(r),
        None => by_median.first().copied(),
    };
    let inference = reference.is_some_and(|r| eligible.contains(&r));
    // A ratio is used for ordering when every compared value is positive.
    let all_positive = eligible.iter().all(|&i| samples[i].borrow().min() > 0.0);
    // Each command's logarithms, made once when first needed and shared
    // by the point estimates and the comparisons.
    let logs: Vec<OnceLock<Option<SortedLogs>>> = (0..k).map(|_| OnceLock::new()).collect();
    let log_of = |i: usize| -> Option<&SortedLogs> {
        logs[i]
            .get_or_init(|| SortedLogs::of(samples[i].borrow().sorted()))
            .as_ref()
    };
    // What the point estimate of each pair found, reused by the
    // comparison of the same pair: the middle Walsh sums of its paired
    // differences (and of their logarithms) for every pair, and the
    // prepared logarithms (16 MB at a million rounds) for the last pair
    // only, so that memory does not grow with the number of commands.
    type Pair = (usize, usize);
    let middles: Mutex<HashMap<Pair, Middles>> = Default::default();
    let last_logs: Mutex<Option<(Pair, PairedDifferences)>> = Default::default();
    // Many small samples are compared on two threads (each comparison on
    // one); large ones one at a time, each using threads of its own.
    let parallel = eligible
        .iter()
        .all(|&i| samples[i].borrow().len() <= parallel_up_to);
    // The scale the verdicts are decided on gives the direction: Δ's
    // against an absolute effect, else the ratio's.
    let by_shift = matches!(settings.effect, Threshold::Absolute(_));
    let estimate = |r: usize, i: usize| -> f64 {
        if !parallel {
            lock(&last_logs).take();
        }
        let (e, known) = point_estimate(samples, rounds, all_positive, by_shift, &log_of, r, i);
        // The first estimate of a pair is kept (a later one is the same).
        lock(&middles).entry((r, i)).or_insert(known.middles);
        if !parallel {
            *lock(&last_logs) = known.logs.map(|l| ((r, i), l));
        }
        e
    };
    let mut ambiguous_best = false;
    let reference = match (reference, fixed, inference) {
        (Some(r), None, true) => {
            let (best, clear) = choose_best(r, &eligible, &estimate, parallel);
            ambiguous_best = !clear;
            Some(best)
        }
        (r, _, _) => r,
    };
    // Prepared logarithms of a pair the comparisons will not make go now.
    let middles = middles.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut last_logs = last_logs
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if last_logs
        .as_ref()
        .is_some_and(|((from, _), _)| Some(*from) != reference)
    {
        last_logs = None;
    }
    let best_median = reference.map_or(0.0, |r| medians[r]);
    let epsilon = settings.epsilon.resolve(best_median);
    let effect = settings.effect.resolve(best_median);

    let mut entries: Vec<RankedEntry> = Vec::with_capacity(k);
    let mut family = 0;
    let mut confidence_each = 1.0;
    let mut simultaneous = 1.0;
    let design = match rounds {
        Some(r) if inference => Design::Paired {
            rounds: r.first().map_or(0, Vec::len),
        },
        _ => Design::Independent,
    };
    if let (Some(r), true) = (reference, inference) {
        let kk = eligible.len();
        family = if fixed.is_some() {
            kk - 1
        } else {
            kk * (kk - 1) / 2
        };
        let m = family.max(1) as f64;
        let alpha_each = Alpha::new(settings.alpha / m)?;
        confidence_each = 1.0 - alpha_each.get();
        let last_logs = Mutex::new(last_logs);
        let others: Vec<usize> = eligible.iter().copied().filter(|&i| i != r).collect();
        let mut compared: Vec<RankedEntry> = in_order(&others, parallel, |i| {
            let mut c = match rounds {
                Some(rs) => {
                    let known = Known {
                        middles: middles.get(&(r, i)).copied().unwrap_or([None, None]),
                        logs: lock(&last_logs)
                            .take_if(|(pair, _)| *pair == (r, i))
                            .map(|(_, l)| l),
                    };
                    let (best, other) = (samples[r].borrow(), samples[i].borrow());
                    let rounds = Rounds {
                        best: &rs[r],
                        other: &rs[i],
                    };
                    compare_paired_with(best, other, rounds, alpha_each, known)
                }
                None => None,
            }
            .unwrap_or_else(|| {
                let (best, other) = (samples[r].borrow(), samples[i].borrow());
                let logs = log_of(r).zip(log_of(i));
                compare_with_logs(best, other, logs, alpha_each)
            });
            c.p_adjusted = (c.p_value() * m).min(1.0);
            let (verdict, reasons) = decide(&c, settings, epsilon, effect, confidence_each);
            RankedEntry {
                index: i,
                n: samples[i].borrow().len(),
                median: medians[i],
                comparison: Some(c),
                verdict,
                reasons,
            }
        });
        // Over the intervals that decide verdicts (those short of their
        // level are inconclusive), or over all if none does.
        let deciding = |e: &&RankedEntry| !e.reasons.contains(&Reason::TooFewRuns);
        let any_deciding = compared.iter().any(|e| deciding(&e));
        let lowest = compared
            .iter()
            .filter(|e| !any_deciding || deciding(e))
            .filter_map(|e| e.comparison.as_ref())
            .map(|c| c.interval.achieved_confidence)
            .fold(1.0, f64::min);
        simultaneous = (1.0 - m * (1.0 - lowest)).max(0.0);
        let use_ratio = compared
            .iter()
            .all(|e| e.comparison.is_some_and(|c| c.ratio.is_some()));
        let key = |e: &RankedEntry| {
            e.comparison.map_or(0.0, |c| match c.ratio {
                Some(q) if use_ratio => q.estimate,
                _ => c.shift,
            })
        };
        compared.sort_by(|a, b| key(a).total_cmp(&key(b)));
        entries.push(RankedEntry {
            index: r,
            n: samples[r].borrow().len(),
            median: medians[r],
            comparison: None,
            verdict: Verdict::Best,
            reasons: Vec::new(),
        });
        entries.extend(compared);
    }
    // Everything not placed yet, by median: the reference first when
    // there is no inference.
    let placed: Vec<usize> = entries.iter().map(|e| e.index).collect();
    let mut rest: Vec<usize> = by_median
        .iter()
        .copied()
        .filter(|i| !placed.contains(i))
        .collect();
    if let (Some(r), false) = (reference, inference) {
        rest.retain(|&i| i != r);
        rest.insert(0, r);
    }
    for (position, i) in rest.into_iter().enumerate() {
        let n = samples[i].borrow().len();
        let first = entries.is_empty() && position == 0;
        entries.push(RankedEntry {
            index: i,
            n,
            median: medians[i],
            comparison: None,
            verdict: if first {
                Verdict::Best
            } else {
                Verdict::NotCompared { n }
            },
            reasons: Vec::new(),
        });
    }
    Ok(Ranking {
        inference,
        entries,
        settings: *settings,
        fixed_reference: fixed.is_some(),
        ambiguous_best,
        design,
        family,
        confidence_each,
        simultaneous_confidence: simultaneous,
        epsilon,
        effect,
    })
}

/// The point estimate of command `i` against `r`, by the estimators the
/// comparison will show, paired when the rounds are complete: the
/// log-ratio when every value is positive, else Δ. Negative when `i` is
/// faster on the deciding scale (Δ's when `by_shift`, else the ratio's; the
/// other where that one is 0).
#[allow(clippy::too_many_arguments)]
fn point_estimate<'a, S: Borrow<Sample>>(
    samples: &[S],
    rounds: Option<&[Vec<f64>]>,
    logs: bool,
    by_shift: bool,
    log_of: &dyn Fn(usize) -> Option<&'a SortedLogs>,
    r: usize,
    i: usize,
) -> (f64, Known) {
    let mut known = Known::default();
    let paired = |f: fn(f64) -> f64| -> Option<PairedDifferences> {
        let rs = rounds?;
        let pair = Rounds {
            best: &rs[r],
            other: &rs[i],
        };
        PairedDifferences::with_middle(pair.differences(f), None)
    };
    let median = |p: &PairedDifferences| median_from_middle(p.len(), p.middle());
    let (best, other) = (samples[r].borrow(), samples[i].borrow());
    let shift = match paired(|x| x) {
        Some(p) => {
            known.middles[0] = Some(p.middle());
            median(&p)
        }
        None => hodges_lehmann(best, other),
    };
    if !logs {
        return (shift, known);
    }
    let paired_logs = paired(f64::ln);
    let log_ratio = paired_logs.as_ref().map(median);
    if let Some(l) = paired_logs {
        known.middles[1] = Some(l.middle());
        known.logs = Some(l);
    }
    let log_ratio = log_ratio.unwrap_or_else(|| match (log_of(r), log_of(i)) {
        (Some(a), Some(b)) => hodges_lehmann_with(&Differences::of_logs(a, b)),
        // Logarithms out of order (never with a monotone `ln`): as sorted.
        _ => {
            let t = |s: &Sample| Sample::new(s.sorted().iter().map(|x| x.ln()).collect());
            match (t(best), t(other)) {
                (Ok(a), Ok(b)) => hodges_lehmann(&a, &b),
                _ => 0.0,
            }
        }
    });
    // The deciding scale gives the direction (the other only where it is
    // 0), the log-ratio the size (to choose among several faster
    // commands). The two disagree in sign in skewed data (paired
    // differences -46, 91, -186, 179, -68 μs: Δ = -4 μs, ratio +2.1 %):
    // "either one negative" had made each of two commands faster than the
    // other, a "cycle" reported as intransitive estimates. By the deciding
    // scale, no command under the best can be "faster" on it.
    let (first, second) = if by_shift {
        (shift, log_ratio)
    } else {
        (log_ratio, shift)
    };
    let faster = first < 0.0 || (first == 0.0 && second < 0.0);
    let estimate = if faster {
        log_ratio.min(-f64::MIN_POSITIVE)
    } else {
        log_ratio.max(0.0)
    };
    (estimate, known)
}

/// The middle Walsh sums of a pair's paired differences and of their
/// logarithms, where found.
type Middles = [Option<(f64, f64)>; 2];

/// Samples of at most this many values are compared two at a time.
const PARALLEL_UP_TO: usize = 1 << 16;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `f` of each item, in the items' order: on this thread and a second one
/// if `parallel` (each taking the next item not taken), else here only.
fn in_order<T: Send>(items: &[usize], parallel: bool, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if !parallel || items.len() < 2 {
        return items.iter().map(|&i| f(i)).collect();
    }
    let next = AtomicUsize::new(0);
    let take = || {
        let mut made = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = items.get(k) else {
                return made;
            };
            made.push((k, f(i)));
        }
    };
    let mut made = std::thread::scope(|scope| {
        // Without a second thread, this one takes every item.
        let helper = std::thread::Builder::new().spawn_scoped(scope, take);
        let mut mine = take();
        if let Ok(helper) = helper {
            // A helper that panicked is re-raised here.
            mine.extend(
                helper
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            );
        }
        mine
    });
    made.sort_unstable_by_key(|&(k, _)| k);
    made.into_iter().map(|(_, t)| t).collect()
}

/// Moves from `start` to any command estimated faster, until none is
/// (or a candidate repeats, which only intransitive estimates can cause;
/// then the candidate whose most negative estimate is closest to zero).
/// Returns the best and whether it is clear (no command estimated faster).
fn choose_best(
    start: usize,
    eligible: &[usize],
    estimate: &(dyn Fn(usize, usize) -> f64 + Sync),
    parallel: bool,
) -> (usize, bool) {
    let mut candidate = start;
    let mut visited: Vec<(usize, f64)> = Vec::new();
    loop {
        let others: Vec<usize> = eligible
            .iter()
            .copied()
            .filter(|&i| i != candidate)
            .collect();
        let (fastest, lowest) = in_order(&others, parallel, |i| (i, estimate(candidate, i)))
            .into_iter()
            .fold(
                (candidate, 0.0),
                |acc, (i, e)| if e < acc.1 { (i, e) } else { acc },
            );
        if lowest >= 0.0 {
            return (candidate, true);
        }
        visited.push((candidate, lowest));
        if visited.iter().any(|&(v, _)| v == fastest) || visited.len() > eligible.len() {
            let best = visited
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(candidate, |v| v.0);
            return (best, false);
        }
        candidate = fastest;
    }
}

/// The verdict on one comparison and the unmet conditions of "slower".
fn decide(
    c: &Comparison,
    settings: &RankSettings,
    epsilon: f64,
    effect: f64,
    confidence_each: f64,
) -> (Verdict, Vec<Reason>) {
    // An interval short of its level decides nothing. The tolerance is
    // relative to the level's miss (α each): one absolute (1e-12) could
    // not see a miss of 1e-23 fall short of a requested 1e-300, so a
    // level that no sample can reach got a verdict; now the rounding of a
    // level near 1 can at worst call a reached one short (inconclusive),
    // never the other way.
    let miss_each = 1.0 - confidence_each;
    if c.interval.achieved_confidence < confidence_each - 1e-9 * miss_each {
        return (Verdict::Inconclusive, vec![Reason::TooFewRuns]);
    }
    // The interval on the scale of each threshold: the ratio's, minus 1,
    // against a relative threshold; Δ's against an absolute one (or when
    // there is no ratio, a relative threshold resolved to the unit).
    // With it, whether that scale's test accepts its own estimate.
    let on = |t: Threshold, resolved: f64| match (t, c.ratio) {
        (Threshold::Percent(p), Some(r)) => (r.low - 1.0, r.high - 1.0, p / 100.0, r.fits),
        _ => (c.interval.low, c.interval.high, resolved, c.interval.fits),
    };
    let (low, high, margin, _) = on(settings.effect, effect);
    let check_super = settings.superiority < 0.5;
    let s = c.superiority_interval;
    // A difference is claimed only when the test shows it too (adjusted
    // p below α), its statistic leaning the way the interval lies.
    // Without ties an interval beyond 0 implies both; with ties it need
    // not (the interval estimates the median of the differences, which on
    // a lattice can sit at a midpoint the data do not favour).
    let significant = c.p_adjusted < settings.alpha;
    let leaning = c.test_leaning();
    let mut reasons = Vec::new();
    if low <= margin {
        reasons.push(Reason::WithinEffect);
    }
    if check_super && s.high > settings.superiority {
        reasons.push(Reason::Superiority);
    }
    if !significant {
        reasons.push(Reason::NotSignificant);
    } else if leaning <= 0.0 && low > margin {
        reasons.push(Reason::TestOpposes);
    }
    if reasons.is_empty() {
        return (Verdict::Slower, reasons);
    }
    if high < -margin
        && significant
        && leaning < 0.0
        && (!check_super || s.low >= 1.0 - settings.superiority)
    {
        return (Verdict::Faster, Vec::new());
    }
    let (low, high, margin, fits) = on(settings.epsilon, epsilon);
    if !(-margin <= low && high <= margin) {
        return (Verdict::Inconclusive, reasons);
    }
    // Equivalence is a claim about a shift: the deciding scale's test
    // must not reject its estimate, and an interval that holds "no
    // difference" must not stand beside a test that rejects it.
    if fits && !(significant && low <= 0.0 && 0.0 <= high) {
        (Verdict::Equivalent, reasons)
    } else {
        reasons.push(Reason::NoShift);
        (Verdict::Inconclusive, reasons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C reference's rule as fixed test parameters.
    fn c_rule() -> RankSettings {
        RankSettings {
            alpha: 0.05,
            epsilon: Threshold::Absolute(250.0),
            effect: Threshold::Absolute(500.0),
            superiority: 0.333,
        }
    }

    /// Relative thresholds, no superiority condition.
    fn relative(effect: f64, epsilon: f64) -> RankSettings {
        RankSettings {
            alpha: 0.05,
            epsilon: Threshold::Percent(epsilon),
            effect: Threshold::Percent(effect),
            superiority: 0.5,
        }
    }

    fn sample(v: &[f64]) -> Sample {
        Sample::from_slice(v).unwrap()
    }

    /// 20 values around `centre` with spread ±95.
    fn around(centre: f64) -> Sample {
        let v: Vec<f64> = (0..20)
            .map(|i| centre + f64::from(i * 37 % 20) * 10.0 - 95.0)
            .collect();
        sample(&v)
    }

    #[test]
    fn clearly_slower_command_is_slower_and_a_close_one_is_not() {
        let samples = [around(20_000.0), around(10_000.0), around(10_100.0)];
        let r = rank(&samples, &c_rule()).unwrap();
        assert!(r.inference);
        assert_eq!(r.order(), vec![1, 2, 0]);
        assert_eq!(r.entries[0].verdict, Verdict::Best);
        // 100 µs apart: the interval lies below the 500 µs effect and
        // within ±250 µs.
        assert_eq!(r.entries[1].reasons, vec![Reason::WithinEffect]);
        assert_eq!(r.entries[1].verdict, Verdict::Equivalent);
        assert_eq!(r.entries[2].verdict, Verdict::Slower);
        let ratio = r.entries[2].comparison.unwrap().ratio.unwrap();
        assert!(ratio.low > 1.9 && ratio.high < 2.1, "{ratio:?}");
        assert_eq!(r.winners(), 2);
        assert_eq!(r.entry(0).unwrap().median, 20_000.0);
    }

    #[test]
    fn an_interval_short_of_a_tiny_level_decides_nothing() {
        // Clearly slower: decided at a level the sample reaches.
        let c = super::super::compare::compare(
            &around(10_000.0),
            &around(20_000.0),
            Alpha::new(0.05).unwrap(),
        );
        let level = |miss: f64| decide(&c, &c_rule(), 250.0, 500.0, 1.0 - miss).0;
        let mut short = c;
        assert_eq!(level(0.05), Verdict::Slower);
        // The level asked for misses 1e-13 of the time; the interval's
        // 2e-13. An absolute tolerance of 1e-12 let that decide.
        short.interval.achieved_confidence = 1.0 - 2e-13;
        let d = decide(&short, &c_rule(), 250.0, 500.0, 1.0 - 1e-13);
        assert_eq!(d, (Verdict::Inconclusive, vec![Reason::TooFewRuns]));
        // Reached, to the last bit: decided.
        short.interval.achieved_confidence = 1.0 - 1e-13;
        let d = decide(&short, &c_rule(), 250.0, 500.0, 1.0 - 1e-13);
        assert_eq!(d.0, Verdict::Slower);
    }

    /// `low` runs of one 10 ms tick and `high` of two, in an order that
    /// mixes them.
    fn on_ticks(low: usize, high: usize) -> Vec<f64> {
        let mut v = vec![10_000.0; low];
        v.extend(std::iter::repeat_n(20_000.0, high));
        v
    }

    #[test]
    fn tied_samples_that_differ_but_not_by_a_shift_are_not_equivalent() {
        let alpha = Alpha::new(0.05).unwrap();
        // cmd_b takes the second tick in 37 runs of 96, cmd_a in 23:
        // p = 0.03 and Â's interval excludes ½, yet 53 % of the pairwise
        // differences are 0, so Δ and its interval are 0 on both scales.
        let c = super::super::compare::compare(
            &sample(&on_ticks(73, 23)),
            &sample(&on_ticks(59, 37)),
            alpha,
        );
        assert!(c.p_value() < 0.05 && c.superiority_interval.high < 0.5);
        assert_eq!((c.interval.low, c.interval.high), (0.0, 0.0));
        let ratio = c.ratio.unwrap();
        assert_eq!((ratio.low, ratio.high), (1.0, 1.0));
        // The test at Δ = 0 is the test itself, which rejects: no shift.
        assert!(!c.interval.fits && !ratio.fits);
        for settings in [relative(1.0, 1.0), c_rule()] {
            let (verdict, reasons) = decide(&c, &settings, 250.0, 500.0, 0.95);
            assert_eq!(verdict, Verdict::Inconclusive);
            assert_eq!(reasons.last(), Some(&Reason::NoShift));
        }
        // Were the estimate accepted by the interval's own test, the
        // comparison's test would still reject the "no difference" the
        // interval holds: not equivalent either.
        let mut fitting = c;
        fitting.interval.fits = true;
        fitting.ratio = Some(super::super::compare::Ratio {
            fits: true,
            ..ratio
        });
        let (verdict, reasons) = decide(&fitting, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(
            (verdict, reasons.last()),
            (Verdict::Inconclusive, Some(&Reason::NoShift))
        );
        // With a test that shows no difference too: equivalent.
        fitting.p_adjusted = 0.5;
        let (verdict, _) = decide(&fitting, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Equivalent);
        // Equal tick frequencies are a shift of 0: equivalent.
        let same = super::super::compare::compare(
            &sample(&on_ticks(73, 23)),
            &sample(&on_ticks(72, 24)),
            alpha,
        );
        assert!(same.interval.fits && same.ratio.unwrap().fits);
        let (verdict, _) = decide(&same, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Equivalent);
    }

    #[test]
    fn an_interval_beyond_effect_is_not_slower_while_the_test_shows_nothing() {
        let alpha = Alpha::new(0.05).unwrap();
        // B 2 ms faster in 16 rounds of 23 and 8 ms slower in 7: the
        // middle Walsh average is 3 ms, alone in its interval ([3, 3] ms
        // at 96.5 %), while the signed-rank test at 0 gives p = 0.96 and
        // B's median (20 ms) is below A's (22 ms).
        let best = vec![22_000.0; 23];
        let mut other = vec![20_000.0; 16];
        other.extend([30_000.0; 7]);
        let c = super::super::compare::compare_paired(&best, &other, alpha).unwrap();
        assert_eq!((c.interval.low, c.interval.high), (3000.0, 3000.0));
        assert!(c.p_value() > 0.9, "{}", c.p_value());
        let absolute = RankSettings {
            superiority: 0.5,
            ..c_rule()
        };
        for settings in [relative(1.0, 1.0), absolute] {
            let (verdict, reasons) = decide(&c, &settings, 250.0, 500.0, 0.95);
            assert_eq!(verdict, Verdict::Inconclusive);
            assert_eq!(reasons, vec![Reason::NotSignificant]);
        }
        // The same interval beside a test that rejects: slower.
        let mut shown = c;
        shown.p_adjusted = 0.01;
        let (verdict, _) = decide(&shown, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Slower);
        // Faster only when the test shows it too (a fixed reference).
        let mut below = c;
        below.interval.low = -5000.0;
        below.interval.high = -4000.0;
        below.ratio = None;
        let (verdict, _) = decide(&below, &c_rule(), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Inconclusive);
        below.p_adjusted = 0.01;
        below.superiority_interval = super::super::compare::Bounds {
            low: 0.9,
            high: 1.0,
        };
        // … and leans that way (T⁺ below its null mean 138).
        let (verdict, _) = decide(&below, &c_rule(), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Inconclusive);
        if let Some(sr) = below.signed_rank.as_mut() {
            sr.t_plus = 100.0;
        }
        let (verdict, _) = decide(&below, &c_rule(), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Faster);
    }

    #[test]
    fn an_interval_beyond_effect_is_not_slower_when_the_test_leans_the_other_way() {
        let alpha = Alpha::new(0.05).unwrap();
        // A constant 60 ms against 50 ms in 80 rounds of 200 and 70 ms in
        // 120: the log-ratios' pseudo-median is the midpoint of ln 6/5 and
        // ln 6/7, +1.4 % alone in its interval, while the constant command
        // is the faster in 60 % of the rounds (p = 0.005 that way).
        let mut best = vec![50_000.0; 80];
        best.extend([70_000.0; 120]);
        let other = vec![60_000.0; 200];
        let c = super::super::compare::compare_paired(&best, &other, alpha).unwrap();
        let ratio = c.ratio.unwrap();
        assert!(ratio.low > 1.01 && ratio.low == ratio.high, "{ratio:?}");
        assert!(c.p_value() < 0.01 && c.test_leaning() < 0.0);
        let (verdict, reasons) = decide(&c, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Inconclusive);
        assert_eq!(reasons, vec![Reason::TestOpposes]);
        // Leaning the interval's way: slower.
        let swapped = super::super::compare::compare_paired(&other, &best, alpha).unwrap();
        assert!(swapped.test_leaning() > 0.0);
        let mut agreeing = c;
        agreeing.signed_rank = swapped.signed_rank;
        let (verdict, _) = decide(&agreeing, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Slower);
    }

    #[test]
    fn paired_rounds_one_tick_apart_in_a_few_are_not_equivalent() {
        let alpha = Alpha::new(0.05).unwrap();
        // B one tick slower in 15 rounds of 96 and never faster: the
        // pseudo-median is 0 ([0, 0]), the signed-rank test rejects it.
        let best = vec![10_000.0; 96];
        let mut other = best.clone();
        for x in other.iter_mut().step_by(6).take(15) {
            *x = 20_000.0;
        }
        let c = super::super::compare::compare_paired(&best, &other, alpha).unwrap();
        assert!(c.p_value() < 0.001);
        assert_eq!((c.interval.low, c.interval.high), (0.0, 0.0));
        assert!(!c.interval.fits && !c.ratio.unwrap().fits);
        let (verdict, reasons) = decide(&c, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(
            (verdict, reasons.last()),
            (Verdict::Inconclusive, Some(&Reason::NoShift))
        );
        // One round in 96: the test accepts 0, a shift of 0 fits.
        let mut once = best.clone();
        once[40] = 20_000.0;
        let c = super::super::compare::compare_paired(&best, &once, alpha).unwrap();
        assert!(c.interval.fits);
        let (verdict, _) = decide(&c, &relative(1.0, 1.0), 250.0, 500.0, 0.95);
        assert_eq!(verdict, Verdict::Equivalent);
    }

    #[test]
    fn the_family_covers_every_pair_unless_the_reference_is_fixed() {
        let samples = [
            around(10_000.0),
            around(10_050.0),
            around(10_020.0),
            around(9_990.0),
        ];
        let r = rank(&samples, &c_rule()).unwrap();
        assert_eq!(r.family, 6);
        assert!((r.confidence_each - (1.0 - 0.05 / 6.0)).abs() < 1e-15);
        for e in &r.entries[1..] {
            let c = e.comparison.unwrap();
            assert_eq!(c.p_adjusted, (c.p_value() * 6.0).min(1.0));
            assert!(c.interval.achieved_confidence >= r.confidence_each - 1e-9);
        }
        assert!(r.simultaneous_confidence >= 0.95 - 1e-9);
        let fixed = rank_with(
            &samples,
            RankOptions {
                reference: Some(1),
                ..RankOptions::default()
            },
            &c_rule(),
        )
        .unwrap();
        assert_eq!((fixed.family, fixed.entries[0].index), (3, 1));
        assert!(fixed.fixed_reference);
    }

    #[test]
    fn a_fixed_reference_can_be_slower_than_others() {
        let samples = [around(10_000.0), around(20_000.0)];
        let options = RankOptions {
            reference: Some(1),
            ..RankOptions::default()
        };
        let r = rank_with(&samples, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.order(), vec![1, 0]);
        assert_eq!(r.entries[1].verdict, Verdict::Faster);
        assert!(r.entries[1].comparison.unwrap().ratio.unwrap().high < 0.55);
    }

    #[test]
    fn the_best_has_no_command_estimated_faster() {
        // Medians favour 0, but most of 1's runs are faster than 0's.
        let a = sample(&[10.0, 10.0, 10.0, 50.0, 50.0, 50.0, 50.0]);
        let b = sample(&[5.0, 5.0, 5.0, 5.0, 60.0, 60.0, 60.0]);
        let r = rank(&[a, b], &relative(0.0, 0.0)).unwrap();
        for e in &r.entries[1..] {
            let c = e.comparison.unwrap();
            assert!(c.shift >= 0.0 && c.ratio.unwrap().estimate >= 1.0, "{c:?}");
        }
    }

    #[test]
    fn equivalence_needs_the_whole_interval_within_epsilon() {
        let samples = [around(10_000.0), around(10_000.0)];
        let r = rank(&samples, &relative(1.0, 5.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Equivalent);
        assert_eq!(r.winners(), 2);
        let r = rank(&samples, &relative(1.0, 0.1)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Inconclusive);
        assert_eq!(
            r.entries[1].reasons,
            vec![Reason::WithinEffect, Reason::NotSignificant]
        );
    }

    #[test]
    fn superiority_is_checked_on_its_interval_below_one_half() {
        // Clearly shifted but overlapping: Â around 0.2.
        let samples = [around(10_000.0), around(10_120.0)];
        let mut s = relative(0.0, 0.0);
        let r = rank(&samples, &s).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        s.superiority = 0.05;
        let r = rank(&samples, &s).unwrap();
        assert_eq!(r.entries[1].reasons, vec![Reason::Superiority]);
    }

    /// Δ and the ratio disagree in sign in skewed paired data (differences
    /// b − a: -46, 91, -186, 179, -68 μs; Δ = -4 μs, ratio +2.1 %). Each of
    /// the two commands had been "faster" than the other by one of them: a
    /// cycle, "the estimates are intransitive". The deciding scale gives
    /// the direction: the ratio against a relative effect (a is the best,
    /// b's ratio above 1, its Δ below 0), Δ against an absolute one.
    #[test]
    fn two_commands_whose_scales_disagree_have_one_best() {
        let a = [874.0, 722.0, 994.0, 600.0, 916.0];
        let b = [828.0, 813.0, 808.0, 779.0, 848.0];
        let absolute = RankSettings {
            effect: Threshold::Absolute(10.0),
            epsilon: Threshold::Absolute(10.0),
            ..relative(1.0, 1.0)
        };
        for (settings, best_is_a) in [(relative(1.0, 1.0), true), (absolute, false)] {
            for (first, second) in [(&a, &b), (&b, &a)] {
                let rounds = vec![first.to_vec(), second.to_vec()];
                let samples = [sample(first), sample(second)];
                let options = RankOptions {
                    rounds: Some(&rounds),
                    ..RankOptions::default()
                };
                let r = rank_with(&samples, options, &settings).unwrap();
                assert!(!r.ambiguous_best, "no cycle between two commands");
                let best = r.best().unwrap().index;
                let expected = if best_is_a { &a } else { &b };
                assert_eq!(samples[best].sorted(), sample(expected).sorted());
                let other = r.entry(1 - best).unwrap().comparison.unwrap();
                let ratio = other.ratio.unwrap().estimate;
                if best_is_a {
                    assert!(ratio > 1.0 && other.shift < 0.0, "{other:?}");
                } else {
                    assert!(other.shift > 0.0 && ratio < 1.0, "{other:?}");
                }
            }
        }
    }

    #[test]
    fn complete_rounds_are_paired() {
        let best: Vec<f64> = (0..20).map(|r| 1000.0 + 50.0 * f64::from(r)).collect();
        let other: Vec<f64> = best.iter().map(|b| b * 1.02).collect();
        let rounds = vec![best.clone(), other.clone()];
        let samples = [sample(&best), sample(&other)];
        let options = RankOptions {
            rounds: Some(&rounds),
            ..RankOptions::default()
        };
        let r = rank_with(&samples, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.design, Design::Paired { rounds: 20 });
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        let unpaired = rank(&samples, &relative(1.0, 1.0)).unwrap();
        assert_eq!(unpaired.design, Design::Independent);
        assert_eq!(unpaired.entries[1].verdict, Verdict::Inconclusive);
    }

    /// What the point estimates prepare and the comparisons reuse (the
    /// middle sums of every pair, the logarithms of the last) changes no
    /// comparison: each equals the paired comparison made from scratch,
    /// with three and four commands, the best not the first estimated
    /// (its median is not the lowest), and both paths of the reuse.
    #[test]
    fn paired_comparisons_reusing_the_estimates_equal_those_made_afresh() {
        use crate::stats::compare::compare_paired;
        let mut rng = crate::stats::SplitMix64::new(12);
        for commands in [3, 4] {
            // Command 0 has the lowest median but a heavy upper tail.
            let rounds: Vec<Vec<f64>> = (0..commands)
                .map(|c| {
                    (0..60)
                        .map(|r| {
                            let noise = rng.below(40) as f64;
                            match c {
                                0 if r % 2 == 0 => 900.0 + noise,
                                0 => 1500.0 + noise,
                                _ => 1000.0 + 15.0 * c as f64 + noise,
                            }
                        })
                        .collect()
                })
                .collect();
            let samples: Vec<Sample> = rounds.iter().map(|r| sample(r)).collect();
            let options = RankOptions {
                rounds: Some(&rounds),
                ..RankOptions::default()
            };
            let ranking = rank_with(&samples, options, &relative(1.0, 1.0)).unwrap();
            // One at a time (reusing the last pair's logarithms too), the
            // same ranking.
            let serial = rank_in(&samples, options, &relative(1.0, 1.0), 0).unwrap();
            assert_eq!(serial, ranking, "{commands} commands");
            let best = ranking.entries[0].index;
            assert_ne!(
                best, 0,
                "the best is found by moving from the lowest median"
            );
            let alpha = Alpha::new(0.05 / ranking.family as f64).unwrap();
            for entry in &ranking.entries[1..] {
                let mut fresh = compare_paired(&rounds[best], &rounds[entry.index], alpha).unwrap();
                fresh.p_adjusted = entry.comparison.as_ref().unwrap().p_adjusted;
                assert_eq!(
                    entry.comparison.as_ref(),
                    Some(&fresh),
                    "{commands} commands"
                );
            }
        }
    }

    /// Many commands compared two at a time rank exactly as one at a
    /// time: independent and paired, with commands of equal samples (whose
    /// order only the input's can decide) and a best that is not the
    /// lowest median.
    #[test]
    fn many_commands_compared_on_two_threads_rank_as_one_at_a_time() {
        let mut rng = crate::stats::SplitMix64::new(7);
        for commands in [3, 12] {
            let mut rounds: Vec<Vec<f64>> = (0..commands)
                .map(|c| {
                    (0..16)
                        .map(|r| match c {
                            0 if r % 2 == 0 => 900.0 + rng.below(40) as f64,
                            0 => 1500.0 + rng.below(40) as f64,
                            _ => 1000.0 + 5.0 * (c % 4) as f64 + rng.below(60) as f64,
                        })
                        .collect()
                })
                .collect();
            // Equal samples, not next to each other.
            rounds[commands - 1] = rounds[1].clone();
            let samples: Vec<Sample> = rounds.iter().map(|r| sample(r)).collect();
            for paired in [false, true] {
                let options = RankOptions {
                    rounds: paired.then_some(rounds.as_slice()),
                    ..RankOptions::default()
                };
                let settings = relative(1.0, 1.0);
                let two = rank_in(&samples, options, &settings, usize::MAX).unwrap();
                let one = rank_in(&samples, options, &settings, 0).unwrap();
                assert_eq!(two, one, "{commands} commands, paired {paired}");
                assert!(two.inference);
            }
        }
    }

    #[test]
    fn commands_with_too_few_values_are_not_compared_instead_of_crashing() {
        // The C reference dereferenced NULL here (8 runs vs 3 runs).
        let samples = [around(1000.0), sample(&[5000.0, 5100.0, 5200.0])];
        let r = rank(&samples, &c_rule()).unwrap();
        assert!(r.inference);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 3 });
        assert_eq!(r.entries[1].comparison, None);
        assert_eq!(r.winners(), 1);
    }

    #[test]
    fn a_best_with_too_few_values_means_no_inference() {
        let samples = [sample(&[300.0]), sample(&[100.0, 101.0]), around(200.0)];
        let r = rank(&samples, &c_rule()).unwrap();
        assert!(!r.inference);
        assert_eq!(r.order(), vec![1, 2, 0]);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 20 });
        assert_eq!(r.winners(), 1);
    }

    #[test]
    fn equal_medians_keep_input_order() {
        let samples = [sample(&[3.0]), sample(&[3.0]), sample(&[2.0])];
        let r = rank(&samples, &c_rule()).unwrap();
        assert_eq!(r.order(), vec![2, 0, 1]);
    }

    #[test]
    fn relative_thresholds_scale_with_the_reference() {
        let r = rank(&[around(10_000.0), around(10_300.0)], &relative(2.0, 1.0)).unwrap();
        assert_eq!((r.effect, r.epsilon), (200.0, 100.0));
        // 3 % ≥ 2 % with the whole interval above: slower, where the C
        // tool's 500 µs says identical.
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        let c = rank(&[around(10_000.0), around(10_300.0)], &c_rule()).unwrap();
        assert_ne!(c.entries[1].verdict, Verdict::Slower);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        let bad = |s: RankSettings| rank::<Sample>(&[], &s).unwrap_err();
        let d = c_rule();
        assert!(matches!(
            bad(RankSettings { alpha: 1.0, ..d }),
            SettingsError::Alpha(_)
        ));
        let e = Threshold::Absolute(-1.0);
        assert_eq!(
            bad(RankSettings { epsilon: e, ..d }),
            SettingsError::Epsilon(e)
        );
        let e = Threshold::Percent(f64::INFINITY);
        assert_eq!(
            bad(RankSettings { effect: e, ..d }),
            SettingsError::Effect(e)
        );
        assert_eq!(
            bad(RankSettings {
                superiority: 1.5,
                ..d
            }),
            SettingsError::Superiority(1.5)
        );
    }

    #[test]
    fn no_commands_rank_to_an_empty_result() {
        let r = rank::<Sample>(&[], &c_rule()).unwrap();
        assert!(!r.inference && r.entries.is_empty());
        assert_eq!((r.winners(), r.best()), (0, None));
    }
}

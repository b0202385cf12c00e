//! Ranking commands: which is fastest, by how much the others are slower,
//! and how sure that is — decided on one estimate, the ratio of medians.
//!
//! # The rule
//!
//! 1. **Who is compared** ([`comparable`]), decided by the counts of runs
//!    alone: the largest set of the commands with the most runs in which
//!    every command's median can be bounded at α/(2K) on each side, K the
//!    size of the set (2⁻ⁿ ≤ α/(2K) for n runs). The others are "not
//!    compared" and take no part; each is told how many runs would let
//!    every command be compared.
//! 2. **Each median's interval** ([`MedianBounds`]): the k-th smallest and
//!    k-th largest run, each missing the command's median with chance at
//!    most P(Bin(n, ½) ≤ k − 1) ≤ α/(2K) (Thompson 1936). By Bonferroni's
//!    inequality over the 2K one-sided bounds, all K intervals hold
//!    together with chance at least 1 − α, whatever the dependence between
//!    the commands' runs (random rounds share a machine state; sequential
//!    runs do not), so whichever command the data make the reference,
//!    every statement below holds at once.
//! 3. **Reference.** The command given with `--reference`, or else the
//!    compared command with the lowest median (the first in input order
//!    among equal medians). A given reference that cannot be compared
//!    means no comparison.
//! 4. **Estimate** ([`Contrast`]): each other compared command against the
//!    reference, the ratio of medians m_o/m_r (the difference of medians
//!    when some value is not positive or a threshold is absolute), bounded
//!    by [L_o/U_r, U_o/L_r]: each bound misses with chance at most the sum
//!    of the two medians' miss chances.
//! 5. **Verdict**, on the bounds (log-symmetric on the ratio scale):
//!    * *slower*: the lower bound above 1 + effect (or above +effect);
//!    * *faster* (a fixed reference only): the upper bound below
//!      1/(1 + effect) (or −effect);
//!    * *equivalent*: both bounds within [1/(1 + ε), 1 + ε] (two one-sided
//!      tests, Schuirmann 1987);
//!    * *inconclusive*: otherwise.
//!
//!    No verdict depends on another command's: a command slower than the
//!    data's best by more than the effect is slower than the true best
//!    too, whose median is no higher.
//!
//! The order shown is the reference, then the compared commands by median,
//! then those not compared, by median: a command listed "slower" never has
//! a median below the best's.

use std::borrow::Borrow;

use thiserror::Error;

use super::compare::{compare, CompareOptions, Comparison, Design};
use super::medians::{values_needed, Contrast, MedianBounds, Scale};
use super::quantile::sorted_quantile;
use super::sample::Sample;
use super::shift::{Alpha, InvalidAlpha};

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
    /// The family-wise error rate: each bound of each of the K medians
    /// compared misses with chance at most α/(2K).
    pub alpha: f64,
    /// The equivalence margin: "equivalent" when both bounds lie within
    /// ±epsilon.
    pub epsilon: Threshold,
    /// The practical margin: "slower" when the lower bound lies above
    /// +effect.
    pub effect: Threshold,
}

impl RankSettings {
    /// Checks every range: alpha in (0, 1), thresholds finite and ≥ 0.
    pub fn validate(&self) -> Result<(), SettingsError> {
        Alpha::new(self.alpha)?;
        if !self.epsilon.is_valid() {
            return Err(SettingsError::Epsilon(self.epsilon));
        }
        if !self.effect.is_valid() {
            return Err(SettingsError::Effect(self.effect));
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
}

/// Why a compared command is neither slower nor faster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The lower bound reaches down to +effect or below.
    WithinEffect,
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
    /// Not compared: this command's `n` values are too few for its
    /// median's bounds to reach their level ([`comparable`]), or no
    /// comparison is made at all ([`Ranking::inference`] false).
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
    /// The bounds of the median, for a compared command.
    pub bounds: Option<MedianBounds>,
    /// Comparison with the reference (`None` for the reference and for
    /// commands not compared).
    pub comparison: Option<Comparison>,
    /// The conclusion.
    pub verdict: Verdict,
    /// Why a compared command is neither slower nor faster.
    pub reasons: Vec<Reason>,
    /// For a command that could not be compared: the runs of each command
    /// with which every command would be ([`runs_to_compare`] over all
    /// commands).
    pub runs_needed: Option<usize>,
}

/// The outcome of [`rank`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Whether comparisons were made: false when fewer than two commands
    /// can be compared, or a fixed reference cannot be (the order is then
    /// by median only).
    pub inference: bool,
    /// The reference first, then the compared commands by median, then
    /// the commands not compared, by median (ties keep input order).
    pub entries: Vec<RankedEntry>,
    /// The settings used.
    pub settings: RankSettings,
    /// Whether the reference was fixed in advance (`--reference`).
    pub fixed_reference: bool,
    /// How the runs were made (complete rounds or not).
    pub design: Design,
    /// Ratio or difference of medians.
    pub scale: Scale,
    /// Number of comparisons, K − 1 (0 without inference).
    pub family: usize,
    /// The lowest confidence of any one bound of a comparison (`None`
    /// without comparisons).
    pub bound_confidence: Option<f64>,
    /// The confidence with which every compared median's interval, and
    /// so every comparison's, holds together: 1 − the sum of all their
    /// bounds' miss chances (Bonferroni), at least 1 − α (`None` without
    /// comparisons).
    pub simultaneous_confidence: Option<f64>,
    /// Without comparisons, when more runs would allow them: the runs of
    /// each command with which every command would be compared.
    pub runs_needed: Option<usize>,
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

/// How to compare: how the runs were made and a fixed reference.
#[derive(Debug, Clone, Copy, Default)]
pub struct RankOptions {
    /// The number of complete rounds, when every round holds exactly one
    /// run of every command; `None` otherwise. It changes no bound: it
    /// says what the medians are of (see [`Design`]).
    pub rounds: Option<usize>,
    /// The command to compare with (input position), instead of the best.
    pub reference: Option<usize>,
    /// Whether each comparison carries the C tool's statistics.
    pub classic: bool,
}

/// The runs each of `k` commands needs for its median's bounds to reach
/// α/(2k) on each side: the fewest n with 2⁻ⁿ ≤ α/(2k).
pub fn runs_to_compare(alpha: f64, k: usize) -> usize {
    values_needed(alpha / (2 * k.max(1)) as f64)
}

/// Which commands can be compared, from their counts of runs alone: the
/// largest set of the commands with the most runs (a command is in with
/// every command that has at least as many) in which every command has
/// [`runs_to_compare`]`(alpha, K)` runs, K the size of the set. Never
/// from the values, so the choice cannot favour a verdict.
pub fn comparable(counts: &[usize], alpha: f64) -> Vec<bool> {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let least = (1..=sorted.len())
        .rev()
        .find(|&m| {
            let n = sorted[m - 1];
            // Closed under ties, and every member reaches its level.
            sorted.get(m).map_or(true, |&next| next < n) && n >= runs_to_compare(alpha, m)
        })
        .map(|m| sorted[m - 1]);
    counts
        .iter()
        .map(|&n| least.is_some_and(|least| n >= least))
        .collect()
}

/// Ranks commands against the best, one sample of the ranked metric each,
/// as independent samples. See [`rank_with`].
pub fn rank<S: Borrow<Sample>>(
    samples: &[S],
    settings: &RankSettings,
) -> Result<Ranking, SettingsError> {
    rank_with(samples, RankOptions::default(), settings)
}

/// Ranks commands, one sample of the ranked metric each, in input order,
/// by the rule in the module docs. Errors only for invalid settings; a
/// `reference` out of range is ignored (the best is used).
pub fn rank_with<S: Borrow<Sample>>(
    samples: &[S],
    options: RankOptions,
    settings: &RankSettings,
) -> Result<Ranking, SettingsError> {
    settings.validate()?;
    let k = samples.len();
    let sample = |i: usize| samples[i].borrow();
    let medians: Vec<f64> = (0..k)
        .map(|i| sorted_quantile(sample(i).sorted(), 0.5))
        .collect();
    let mut by_median: Vec<usize> = (0..k).collect();
    by_median.sort_by(|&a, &b| medians[a].total_cmp(&medians[b]));
    let counts: Vec<usize> = (0..k).map(|i| sample(i).len()).collect();
    let can = comparable(&counts, settings.alpha);
    let compared: Vec<usize> = by_median.iter().copied().filter(|&i| can[i]).collect();
    let fixed = options.reference.filter(|&r| r < k);
    let reference = fixed
        .or_else(|| compared.first().copied())
        .or_else(|| by_median.first().copied());
    let inference = compared.len() >= 2 && reference.is_some_and(|r| can[r]);
    let family = if inference { compared.len() - 1 } else { 0 };
    let gamma = settings.alpha / (2 * compared.len().max(1)) as f64;
    let scale = scale_of(settings, compared.iter().map(|&i| sample(i)));
    let best_median = reference.map_or(0.0, |r| medians[r]);
    let epsilon = settings.epsilon.resolve(best_median);
    let effect = settings.effect.resolve(best_median);
    let design = design_of(options.rounds, &counts);
    let needed = (k >= 2).then(|| runs_to_compare(settings.alpha, k));
    let mut ranking = Ranking {
        inference,
        entries: Vec::with_capacity(k),
        settings: *settings,
        fixed_reference: fixed.is_some(),
        design,
        scale,
        family,
        bound_confidence: None,
        simultaneous_confidence: None,
        runs_needed: if inference { None } else { needed },
        epsilon,
        effect,
    };
    let entry = |i: usize, verdict: Verdict| RankedEntry {
        index: i,
        n: counts[i],
        median: medians[i],
        bounds: if inference && can[i] {
            MedianBounds::of(sample(i).sorted(), gamma)
        } else {
            None
        },
        comparison: None,
        verdict,
        reasons: Vec::new(),
        runs_needed: if can[i] && (inference || k < 2) {
            None
        } else {
            needed
        },
    };
    let Some(r) = reference else {
        return Ok(ranking);
    };
    ranking.entries.push(entry(r, Verdict::Best));
    if inference {
        let thresholds = Thresholds::new(scale, settings, epsilon, effect);
        let options = CompareOptions {
            design,
            scale,
            gamma,
            alpha: Alpha::new(settings.alpha)?,
            family,
            classic: options.classic,
        };
        for &i in compared.iter().filter(|&&i| i != r) {
            let mut e = entry(i, Verdict::Inconclusive);
            e.comparison = compare(sample(r), sample(i), options);
            if let Some(c) = &e.comparison {
                (e.verdict, e.reasons) = thresholds.decide(&c.contrast, fixed.is_some());
            }
            ranking.entries.push(e);
        }
        ranking.bound_confidence = bound_confidence(&ranking.entries);
        ranking.simultaneous_confidence = Some(simultaneous_confidence(&ranking.entries));
    }
    for &i in by_median.iter().filter(|&&i| i != r) {
        if !(inference && can[i]) {
            ranking
                .entries
                .push(entry(i, Verdict::NotCompared { n: counts[i] }));
        }
    }
    Ok(ranking)
}

/// The ratio of medians when both thresholds are relative and every
/// compared command's values are positive; else their difference.
fn scale_of<'a>(settings: &RankSettings, mut compared: impl Iterator<Item = &'a Sample>) -> Scale {
    let relative = matches!(
        (settings.effect, settings.epsilon),
        (Threshold::Percent(_), Threshold::Percent(_))
    );
    if relative && compared.all(|s| s.min() > 0.0) {
        Scale::Ratio
    } else {
        Scale::Difference
    }
}

/// Complete rounds when every command has one run per round made; else
/// independent samples.
fn design_of(rounds: Option<usize>, counts: &[usize]) -> Design {
    match rounds {
        Some(rounds) if rounds > 0 && counts.iter().all(|&n| n == rounds) => {
            Design::Rounds { rounds }
        }
        _ => Design::Independent,
    }
}

/// The lowest confidence of any bound of a comparison.
fn bound_confidence(entries: &[RankedEntry]) -> Option<f64> {
    (entries.iter())
        .filter_map(|e| e.comparison.as_ref().map(|c| &c.contrast))
        .map(|c| 1.0 - c.low_miss.max(c.high_miss))
        .reduce(f64::min)
}

/// The confidence with which every median's interval holds together:
/// 1 − the sum of all the bounds' miss chances (the union bound).
fn simultaneous_confidence(entries: &[RankedEntry]) -> f64 {
    let missed: f64 = (entries.iter())
        .filter_map(|e| e.bounds.map(|b| 2.0 * b.miss))
        .sum();
    1.0 - missed
}

/// The verdicts' thresholds on the comparison's scale.
struct Thresholds {
    /// "slower" above this.
    up: f64,
    /// "faster" below this.
    down: f64,
    /// "equivalent" within these.
    within: (f64, f64),
}

impl Thresholds {
    fn new(scale: Scale, settings: &RankSettings, epsilon: f64, effect: f64) -> Self {
        match (scale, settings.effect, settings.epsilon) {
            (Scale::Ratio, Threshold::Percent(e), Threshold::Percent(q)) => Thresholds {
                up: 1.0 + e / 100.0,
                down: 1.0 / (1.0 + e / 100.0),
                within: (1.0 / (1.0 + q / 100.0), 1.0 + q / 100.0),
            },
            _ => Thresholds {
                up: effect,
                down: -effect,
                within: (-epsilon, epsilon),
            },
        }
    }

    /// The verdict of a comparison and why it is not slower. "Faster" is
    /// said only of a fixed reference (against the data's best, whose
    /// median is the lowest, no upper bound falls below 1).
    fn decide(&self, b: &Contrast, fixed: bool) -> (Verdict, Vec<Reason>) {
        if b.low > self.up {
            return (Verdict::Slower, Vec::new());
        }
        if fixed && b.high < self.down {
            return (Verdict::Faster, Vec::new());
        }
        if b.low >= self.within.0 && b.high <= self.within.1 {
            return (Verdict::Equivalent, vec![Reason::WithinEffect]);
        }
        (Verdict::Inconclusive, vec![Reason::WithinEffect])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relative(effect: f64, epsilon: f64) -> RankSettings {
        RankSettings {
            alpha: 0.05,
            effect: Threshold::Percent(effect),
            epsilon: Threshold::Percent(epsilon),
        }
    }

    fn sample(v: &[f64]) -> Sample {
        Sample::from_slice(v).unwrap()
    }

    fn scaled(base: &[f64], by: f64) -> Vec<f64> {
        base.iter().map(|x| x * by).collect()
    }

    fn fixed(reference: usize) -> RankOptions {
        RankOptions {
            reference: Some(reference),
            ..RankOptions::default()
        }
    }

    const BASE: [f64; 10] = [
        100.0, 103.0, 98.0, 101.0, 99.0, 102.0, 97.0, 104.0, 100.5, 99.5,
    ];

    #[test]
    fn a_doubled_command_is_slower_and_a_copy_is_not() {
        let s = [sample(&BASE), sample(&scaled(&BASE, 2.0)), sample(&BASE)];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.order(), vec![0, 2, 1]);
        assert_eq!(r.entry(1).unwrap().verdict, Verdict::Slower);
        assert_eq!(r.entry(2).unwrap().verdict, Verdict::Inconclusive);
        assert_eq!(r.family, 2);
        assert_eq!(r.scale, Scale::Ratio);
        // Three medians, each bound at α/6 = 0.0083: 10 values reach
        // rank 1 (1/1024), not rank 2 (11/1024).
        let b = r.entries[0].bounds.unwrap();
        assert_eq!((b.rank, b.miss), (1, 1.0 / 1024.0));
        assert_eq!(r.simultaneous_confidence, Some(1.0 - 6.0 / 1024.0));
        assert_eq!(r.bound_confidence, Some(1.0 - 2.0 / 1024.0));
        // The ratio of the medians shown, inside its interval.
        let c = r.entry(1).unwrap().comparison.unwrap().contrast;
        assert_eq!(c.estimate, 2.0);
        assert_eq!((c.low, c.high), (2.0 * 97.0 / 104.0, 2.0 * 104.0 / 97.0));
    }

    #[test]
    fn counts_alone_decide_who_is_compared() {
        let alpha = 0.05;
        assert_eq!(runs_to_compare(alpha, 2), 7);
        assert_eq!(runs_to_compare(alpha, 4), 8);
        // Four commands need 8 runs each; without the 5-run one, three
        // need 7.
        assert_eq!(
            comparable(&[49, 5, 400, 150], alpha),
            [true, false, true, true]
        );
        assert_eq!(comparable(&[49, 8, 400, 150], alpha), [true; 4]);
        // Seven runs each: two could be compared, but which two? None.
        assert_eq!(comparable(&[7; 5], alpha), [false; 5]);
        assert_eq!(
            comparable(&[7, 7, 7, 5, 5], alpha),
            [true, true, true, false, false]
        );
        assert_eq!(comparable(&[6, 6], alpha), [false; 2]);
        assert_eq!(comparable(&[], alpha), Vec::<bool>::new());
    }

    #[test]
    fn a_short_command_is_not_compared_and_silences_nothing() {
        let s = [
            sample(&[1.0, 1.0, 1.0, 1.0, 1.0]),
            sample(&BASE),
            sample(&scaled(&BASE, 2.0)),
            sample(&scaled(&BASE, 2.0)),
        ];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert!(r.inference);
        assert_eq!(r.order(), vec![1, 2, 3, 0]);
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        assert_eq!(r.entries[2].verdict, Verdict::Slower);
        assert_eq!(r.entries[3].verdict, Verdict::NotCompared { n: 5 });
        // Four commands: 8 runs of each would compare them all.
        assert_eq!(r.entries[3].runs_needed, Some(8));
        assert!(r.entries[3].bounds.is_none());
        assert_eq!(r.family, 2);
        assert_eq!(r.runs_needed, None);
    }

    #[test]
    fn equally_slow_commands_do_not_block_one_another() {
        let mut s = vec![sample(&BASE)];
        s.extend((0..4).map(|_| sample(&scaled(&BASE, 2.0))));
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.count(Verdict::Slower), 4);
    }

    #[test]
    fn with_too_few_runs_nothing_is_compared_and_the_runs_needed_are_said() {
        let s = [sample(&BASE[..6]), sample(&scaled(&BASE[..6], 2.0))];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert!(!r.inference);
        assert_eq!(r.runs_needed, Some(7));
        assert_eq!(r.entries[0].verdict, Verdict::Best);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 6 });
        assert_eq!(r.entries[1].runs_needed, Some(7));
        assert_eq!(
            (r.bound_confidence, r.simultaneous_confidence),
            (None, None)
        );
        let s = [sample(&BASE[..7]), sample(&scaled(&BASE[..7], 2.0))];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        // Each median at rank 1: 2⁻⁷ per side.
        assert_eq!(r.simultaneous_confidence, Some(1.0 - 4.0 / 128.0));
    }

    #[test]
    fn rounds_change_no_bound() {
        let s = [sample(&BASE), sample(&scaled(&BASE, 1.5))];
        let plain = rank(&s, &relative(1.0, 1.0)).unwrap();
        let options = RankOptions {
            rounds: Some(10),
            ..RankOptions::default()
        };
        let rounds = rank_with(&s, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(rounds.design, Design::Rounds { rounds: 10 });
        let contrast = |r: &Ranking| r.entries[1].comparison.unwrap().contrast;
        assert_eq!(contrast(&plain), contrast(&rounds));
        assert_eq!(plain.entries[1].verdict, rounds.entries[1].verdict);
    }

    #[test]
    fn the_same_reference_gives_the_same_verdicts_fixed_or_chosen() {
        let s: Vec<Sample> = (0..5)
            .map(|i| sample(&scaled(&BASE, 1.0 + 0.5 * i as f64)))
            .collect();
        let chosen = rank(&s, &relative(1.0, 1.0)).unwrap();
        let given = rank_with(&s, fixed(0), &relative(1.0, 1.0)).unwrap();
        assert_eq!(chosen.entries, given.entries);
        assert!(given.fixed_reference && !chosen.fixed_reference);
    }

    #[test]
    fn a_fixed_reference_can_be_slower_than_others() {
        let s = [sample(&scaled(&BASE, 3.0)), sample(&BASE)];
        let r = rank_with(&s, fixed(0), &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[0].index, 0);
        assert_eq!(r.entries[1].verdict, Verdict::Faster);
    }

    #[test]
    fn a_fixed_reference_with_too_few_values_means_no_inference() {
        let s = [
            sample(&[1.0, 2.0, 3.0, 4.0, 5.0]),
            sample(&BASE),
            sample(&BASE),
        ];
        let r = rank_with(&s, fixed(0), &relative(1.0, 1.0)).unwrap();
        assert!(!r.inference);
        assert_eq!(r.entries[0].verdict, Verdict::Best);
        // Three commands: 7 runs each (2⁻⁷ ≤ α/6).
        assert_eq!(r.entries[0].runs_needed, Some(7));
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 10 });
        assert_eq!(r.runs_needed, Some(7));
    }

    #[test]
    fn equivalence_needs_both_bounds_within_epsilon() {
        let many: Vec<f64> = (0..200).map(|i| 100.0 + (i % 7) as f64 * 0.01).collect();
        let s = [sample(&many), sample(&many)];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Equivalent);
        let r = rank(&s, &relative(1.0, 0.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Inconclusive);
    }

    #[test]
    fn values_at_or_below_zero_compare_differences_in_the_unit() {
        let a: Vec<f64> = BASE.iter().map(|x| x - 100.0).collect();
        let b: Vec<f64> = a.iter().map(|x| x + 50.0).collect();
        let s = [sample(&a), sample(&b)];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.scale, Scale::Difference);
        let c = r.entries[1].comparison.unwrap().contrast;
        assert!(c.low > 40.0 && c.high < 60.0);
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        // Absolute thresholds use the difference too.
        let absolute = RankSettings {
            alpha: 0.05,
            effect: Threshold::Absolute(60.0),
            epsilon: Threshold::Absolute(1.0),
        };
        let s = [sample(&BASE), sample(&scaled(&BASE, 1.5))];
        let r = rank(&s, &absolute).unwrap();
        assert_eq!(r.scale, Scale::Difference);
        assert_eq!(r.entries[1].verdict, Verdict::Inconclusive);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        let s = [sample(&BASE)];
        let mut bad = relative(1.0, 1.0);
        bad.alpha = 1.0;
        assert!(rank(&s, &bad).is_err());
        bad = relative(-1.0, 1.0);
        assert!(rank(&s, &bad).is_err());
        bad = relative(1.0, f64::NAN);
        assert!(rank(&s, &bad).is_err());
    }

    #[test]
    fn no_commands_rank_to_an_empty_result() {
        let s: [Sample; 0] = [];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert!(r.entries.is_empty() && !r.inference);
        let one = rank(&[sample(&BASE)], &relative(1.0, 1.0)).unwrap();
        assert_eq!(one.entries.len(), 1);
        assert_eq!((one.runs_needed, one.entries[0].runs_needed), (None, None));
    }
}

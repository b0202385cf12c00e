//! Ranking commands: which is fastest, by how much the others are slower,
//! and how sure that is — decided on one estimate, the ratio of medians.
//!
//! # The rule
//!
//! 1. **Reference.** The command given with `--reference`, or else the
//!    command with the lowest median (the first in input order among
//!    equal medians), among the commands with at least
//!    [`MIN_VALUES_FOR_INFERENCE`] values. Commands with fewer are listed
//!    "not compared" and take no part.
//! 2. **Estimate** ([`super::compare()`], [`super::medians`]). Each other
//!    command against the reference: the ratio of medians other /
//!    reference when every compared value is positive and both thresholds
//!    are relative, else the difference of medians in the metric's unit.
//!    With complete rounds (one run of each command per round), the
//!    median of the within-round ratios with the sign test's bounds;
//!    otherwise the ratio of the two medians with combined order-statistic
//!    bounds. Each interval is two-sided at 1 − α/(K − 1) over the K
//!    commands compared: each bound misses with chance at most
//!    γ = α/(2(K − 1)). Runs too few for γ whose extreme values reach
//!    2γ (Hsu's one-sided level) decide at that level, stated as reached
//!    (chosen from the counts alone; not with `exact_level`).
//! 3. **Multiplicity: comparisons with the best** (Hsu 1984, "Constrained
//!    simultaneous confidence intervals for multiple comparisons with the
//!    best", Ann. Statist. 12, 1136–1144; Hsu 1996, "Multiple
//!    Comparisons", ch. 4). With the best chosen from the data, the
//!    question is "which commands are not the best", and K − 1 statements
//!    against the true best decide it: by Bonferroni, all of them hold
//!    together with chance at least 1 − α, whichever command the data make
//!    the best. The statements are strict ("slower by more than the
//!    effect") and the data choose their direction, so both sides of each
//!    interval are bounded. With a fixed reference the same K − 1
//!    comparisons, bounds and verdicts: the same data and the same
//!    reference give the same verdicts either way.
//!    A verdict must also hold against every other *candidate for the
//!    best* (each command not shown slower than the reference): the true
//!    best is among them, so the data's choice of best cannot turn its
//!    luck into verdicts.
//! 4. **Verdict**, on the bounds (log-symmetric on the ratio scale):
//!    * *slower*: the lower bound above 1 + effect (or above +effect);
//!    * *faster* (a fixed reference only): the upper bound below
//!      1/(1 + effect) (or −effect);
//!    * *equivalent*: both bounds within [1/(1 + ε), 1 + ε] (two one-sided
//!      tests, Schuirmann 1987, each at γ);
//!    * *inconclusive*: otherwise. Bounds that cannot reach their level
//!      (too few runs) decide nothing; the entry says how many runs would.
//!
//! The order shown is the reference, then the compared commands by median,
//! then those not compared, by median: a command listed "slower" never has
//! a median below the best's.

use std::borrow::Borrow;

use thiserror::Error;

use super::compare::{compare, CompareOptions, Comparison, Design};
use super::medians::{bounds, independent_runs_needed, reachable, values_needed, Contrast, Scale};
use super::quantile::sorted_quantile;
use super::sample::Sample;
use super::shift::{Alpha, InvalidAlpha};

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
    /// The family-wise error rate: each bound misses with chance at most
    /// α/(2(K − 1)).
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
    /// The bounds could not reach their level with so few runs; see
    /// [`RankedEntry::runs_needed`].
    TooFewRuns,
    /// The rounds show this command faster than the best, whose median is
    /// lower: the two summaries disagree, and neither verdict is given.
    OrderDisagrees,
    /// Slower than the best, but not shown slower than every other
    /// candidate for the best (a command not shown slower than the best):
    /// the data may have chosen the wrong best.
    NotSlowerThanAll,
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
    /// commands not compared).
    pub comparison: Option<Comparison>,
    /// The conclusion.
    pub verdict: Verdict,
    /// Why a compared command is neither slower nor faster.
    pub reasons: Vec<Reason>,
    /// When the bounds could not reach their level: the fewest runs (of
    /// each command, or rounds) with which they could.
    pub runs_needed: Option<usize>,
}

/// The outcome of [`rank`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Whether comparisons were possible at all: false when no command has
    /// [`MIN_VALUES_FOR_INFERENCE`] values, or a fixed reference has too
    /// few (the order is then by median only).
    pub inference: bool,
    /// The reference first, then the compared commands by median, then
    /// the commands not compared, by median (ties keep input order).
    pub entries: Vec<RankedEntry>,
    /// The settings used.
    pub settings: RankSettings,
    /// Whether the reference was fixed in advance (`--reference`).
    pub fixed_reference: bool,
    /// The analysis used for every comparison (paired only when the
    /// rounds were complete).
    pub design: Design,
    /// Ratio or difference of medians.
    pub scale: Scale,
    /// Number of comparisons, K − 1 (0 without inference).
    pub family: usize,
    /// The lowest confidence of any bound that reached its level (of the
    /// ranges shown when none did; 1 without comparisons).
    pub bound_confidence: f64,
    /// The confidence with which every interval that reached its level
    /// holds together (the ranges shown when none did): 1 − the sum of
    /// their bounds' miss chances, at least 0 (Bonferroni).
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
    /// exactly one run of every command (each of the same length as its
    /// sample). `None`: compare independent samples.
    pub rounds: Option<&'a [Vec<f64>]>,
    /// The command to compare with (input position), instead of the best.
    pub reference: Option<usize>,
    /// Whether each comparison carries the C tool's statistics.
    pub classic: bool,
    /// Hold every bound to γ however few the runs: a level stated in
    /// advance (an adaptive look's share of α, a gate's). Otherwise runs
    /// too few for γ decide at the one-sided level 2γ when their extreme
    /// values reach it, with the level they achieve.
    pub exact_level: bool,
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
    options: RankOptions<'_>,
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
    let eligible: Vec<usize> = by_median
        .iter()
        .copied()
        .filter(|&i| sample(i).len() >= MIN_VALUES_FOR_INFERENCE)
        .collect();
    let fixed = options.reference.filter(|&r| r < k);
    let reference = fixed.or_else(|| eligible.first().copied());
    let inference = reference.is_some_and(|r| eligible.contains(&r));
    let rounds = options
        .rounds
        .filter(|r| r.len() == k && (0..k).all(|i| r[i].len() == sample(i).len()) && inference);
    let relative = matches!(
        (settings.effect, settings.epsilon),
        (Threshold::Percent(_), Threshold::Percent(_))
    );
    let scale = if relative && eligible.iter().all(|&i| sample(i).min() > 0.0) {
        Scale::Ratio
    } else {
        Scale::Difference
    };
    let best_median = reference.map_or(0.0, |r| medians[r]);
    let epsilon = settings.epsilon.resolve(best_median);
    let effect = settings.effect.resolve(best_median);
    let design = match rounds {
        Some(r) => Design::Paired {
            rounds: r.first().map_or(0, Vec::len),
        },
        None => Design::Independent,
    };
    let mut ranking = Ranking {
        inference,
        entries: Vec::with_capacity(k),
        settings: *settings,
        fixed_reference: fixed.is_some(),
        design,
        scale,
        family: 0,
        bound_confidence: 1.0,
        simultaneous_confidence: 1.0,
        epsilon,
        effect,
    };
    let family = eligible.len().saturating_sub(1);
    let all = Family {
        samples,
        medians: &medians,
        rounds,
        scale,
        // Each comparison's interval is two-sided at 1 − α/(K − 1): a
        // strict "slower" can point either way when the data choose the
        // best, so each side gets half (see docs/statistics.md).
        gamma: settings.alpha / (2 * family.max(1)) as f64,
        widen: !options.exact_level,
    };
    let placed: Vec<usize> = match (reference, inference) {
        (Some(r), true) if family > 0 => {
            let thresholds = Thresholds::new(scale, settings, epsilon, effect);
            let compare = CompareOptions {
                rounds: None,
                scale,
                gamma: all.gamma,
                alpha: Alpha::new(settings.alpha)?,
                family,
                classic: options.classic,
            };
            ranking.entries.push(all.entry(r, Verdict::Best));
            let entries = all.compare_all(r, &eligible, &thresholds, compare, fixed.is_some());
            ranking.entries.extend(entries);
            ranking.family = family;
            // The levels of the bounds that decide; when none can, those
            // of the widest bounds shown (never a level of no interval).
            let contrasts: Vec<&Contrast> = ranking
                .entries
                .iter()
                .filter_map(|e| e.comparison.as_ref().map(|c| &c.contrast))
                .collect();
            let any_reached = contrasts.iter().any(|c| c.reached);
            let shown = contrasts.iter().filter(|c| c.reached || !any_reached);
            ranking.bound_confidence = shown
                .clone()
                .map(|c| 1.0 - c.low_miss.max(c.high_miss))
                .fold(1.0, f64::min);
            let missed: f64 = shown.map(|c| c.low_miss + c.high_miss).sum();
            ranking.simultaneous_confidence = (1.0 - missed).max(0.0);
            ranking.entries.iter().map(|e| e.index).collect()
        }
        (Some(r), _) => {
            ranking.entries.push(all.entry(r, Verdict::Best));
            vec![r]
        }
        (None, _) => Vec::new(),
    };
    for &i in by_median.iter().filter(|i| !placed.contains(i)) {
        let verdict = if ranking.entries.is_empty() {
            Verdict::Best
        } else {
            Verdict::NotCompared { n: sample(i).len() }
        };
        ranking.entries.push(all.entry(i, verdict));
    }
    Ok(ranking)
}

/// What every comparison of one ranking shares.
struct Family<'a, S> {
    samples: &'a [S],
    medians: &'a [f64],
    /// Complete rounds, when the comparisons are paired.
    rounds: Option<&'a [Vec<f64>]>,
    scale: Scale,
    /// Each bound's miss chance.
    gamma: f64,
    /// Whether runs too few for `gamma` may decide at 2γ.
    widen: bool,
}

impl<S: Borrow<Sample>> Family<'_, S> {
    fn sample(&self, i: usize) -> &Sample {
        self.samples[i].borrow()
    }

    fn entry(&self, i: usize, verdict: Verdict) -> RankedEntry {
        RankedEntry {
            index: i,
            n: self.sample(i).len(),
            median: self.medians[i],
            comparison: None,
            verdict,
            reasons: Vec::new(),
            runs_needed: None,
        }
    }

    /// Each bound's miss chance in the comparison of command i with j:
    /// γ, or, when the runs are too few for γ, the one-sided level
    /// 2γ = α/(K − 1) of the comparisons with the best (Hsu's level),
    /// which only the extreme values reach. Chosen from the counts alone,
    /// so the bounds stay valid; the interval then states the two-sided
    /// level it achieves.
    fn gamma_for(&self, i: usize, j: usize) -> f64 {
        let (ni, nj) = (self.sample(i).len(), self.sample(j).len());
        if reachable(nj, ni, self.gamma, self.rounds.is_some()) {
            self.gamma
        } else {
            self.loosest_gamma()
        }
    }

    /// The largest miss chance a bound may have: 2γ with few runs, or γ
    /// when the level is exact.
    fn loosest_gamma(&self) -> f64 {
        if self.widen {
            2.0 * self.gamma
        } else {
            self.gamma
        }
    }

    /// The bounds of command i against candidate j (selection only).
    fn bound(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let gamma = self.gamma_for(i, j);
        match self.rounds {
            Some(rs) => bounds(&rs[j], &rs[i], self.scale, gamma, true),
            None => bounds(
                self.sample(j).sorted(),
                self.sample(i).sorted(),
                self.scale,
                gamma,
                false,
            ),
        }
    }

    /// Every eligible command but `r` against the reference `r`, each
    /// verdict also held against every other candidate for the best.
    fn compare_all(
        &self,
        r: usize,
        eligible: &[usize],
        thresholds: &Thresholds,
        options: CompareOptions<'_>,
        fixed: bool,
    ) -> Vec<RankedEntry> {
        let needed = match self.rounds {
            Some(_) => values_needed(self.loosest_gamma()),
            None => independent_runs_needed(self.loosest_gamma()),
        };
        let mut compared: Vec<(RankedEntry, Option<Contrast>)> = Vec::new();
        for &i in eligible.iter().filter(|&&i| i != r) {
            let options = CompareOptions {
                rounds: self.rounds.map(|rs| (&rs[r][..], &rs[i][..])),
                gamma: self.gamma_for(i, r),
                ..options
            };
            let mut e = self.entry(i, Verdict::Inconclusive);
            let c = compare(self.sample(r), self.sample(i), options);
            if let Some(c) = &c {
                if !c.contrast.reached {
                    e.runs_needed = Some(needed);
                }
                e.comparison = Some(*c);
            }
            compared.push((e, c.map(|c| c.contrast)));
        }
        // The candidates for the best: the reference, and every command
        // not shown slower than it (Hsu's set; a superset of the commands
        // shown slower than none).
        let null = self.scale.null();
        let candidates: Vec<usize> = compared
            .iter()
            .filter(|(_, c)| c.map_or(true, |c| !c.reached || c.low <= null))
            .map(|(e, _)| e.index)
            .collect();
        let entries = compared
            .into_iter()
            .map(|(mut e, c)| {
                if let Some(c) = c {
                    // Against every other candidate too: the best is one
                    // of them, whichever the data chose.
                    let i = e.index;
                    let against = || {
                        candidates
                            .iter()
                            .filter(move |&&j| j != i)
                            .map(move |&j| self.bound(i, j))
                    };
                    (e.verdict, e.reasons) = thresholds.decide(&c, &against, fixed);
                }
                e
            })
            .collect();
        entries
    }
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

    /// The verdict of a comparison and why it is not slower. `against`:
    /// the bounds of the same command against the other candidates for
    /// the best (`None` where they could not reach their level), which a
    /// "slower" or "equivalent" must also meet.
    fn decide<I: Iterator<Item = Option<(f64, f64)>>>(
        &self,
        b: &Contrast,
        against: &dyn Fn() -> I,
        fixed: bool,
    ) -> (Verdict, Vec<Reason>) {
        if !b.reached {
            return (Verdict::Inconclusive, vec![Reason::TooFewRuns]);
        }
        // Computed only where a verdict depends on them.
        let all = |f: &dyn Fn(f64, f64) -> bool| against().all(|a| a.is_some_and(|(l, h)| f(l, h)));
        if b.low > self.up {
            if all(&|low, _| low > self.up) {
                return (Verdict::Slower, Vec::new());
            }
            return (Verdict::Inconclusive, vec![Reason::NotSlowerThanAll]);
        }
        if b.high < self.down {
            return if fixed {
                (Verdict::Faster, Vec::new())
            } else {
                (Verdict::Inconclusive, vec![Reason::OrderDisagrees])
            };
        }
        let within = |low: f64, high: f64| low >= self.within.0 && high <= self.within.1;
        if within(b.low, b.high) && all(&|_, high| high <= self.within.1) {
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
        assert!(r.bound_confidence >= 1.0 - 0.025);
        assert_eq!(r.scale, Scale::Ratio);
    }

    #[test]
    fn five_rounds_decide_two_commands_at_the_level_they_reach() {
        let a: Vec<f64> = BASE[..5].to_vec();
        let b = scaled(&a, 2.0);
        let rounds = vec![a.clone(), b.clone()];
        let options = RankOptions {
            rounds: Some(&rounds),
            reference: None,
            classic: false,
            exact_level: false,
        };
        let s = [sample(&a), sample(&b)];
        let r = rank_with(&s, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.design, Design::Paired { rounds: 5 });
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        let c = r.entries[1].comparison.unwrap().contrast;
        assert_eq!((c.low, c.estimate, c.high), (2.0, 2.0, 2.0));
        // 2⁻⁵ > α/2 on each side, but within Hsu's one-sided α: the
        // interval states the 1 − 2·2⁻⁵ it achieves.
        assert_eq!(c.confidence(), 1.0 - 2.0 / 32.0);
        assert_eq!(r.simultaneous_confidence, 1.0 - 2.0 / 32.0);
        // Held to γ (a stated level), five rounds cannot decide: six can.
        let exact = RankOptions {
            exact_level: true,
            ..options
        };
        let r = rank_with(&s, exact, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Inconclusive);
        assert_eq!(r.entries[1].runs_needed, Some(6));
        // As independent samples, 5 runs each cannot reach α: 6 can.
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Inconclusive);
        assert_eq!(r.entries[1].runs_needed, Some(6));
        let a6: Vec<f64> = BASE[..6].to_vec();
        let r = rank(
            &[sample(&a6), sample(&scaled(&a6, 2.0))],
            &relative(1.0, 1.0),
        )
        .unwrap();
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        let miss = 1.0 - (1.0 - 1.0 / 64.0) * (1.0 - 1.0 / 64.0);
        assert_eq!(
            r.entries[1].comparison.unwrap().contrast.confidence(),
            1.0 - 2.0 * miss
        );
    }

    #[test]
    fn the_same_reference_gives_the_same_verdicts_fixed_or_chosen() {
        let s: Vec<Sample> = (0..5)
            .map(|i| sample(&scaled(&BASE, 1.0 + 0.5 * i as f64)))
            .collect();
        let chosen = rank(&s, &relative(1.0, 1.0)).unwrap();
        let options = RankOptions {
            rounds: None,
            reference: Some(0),
            classic: false,
            exact_level: false,
        };
        let fixed = rank_with(&s, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(chosen.entries, fixed.entries);
        assert!(fixed.fixed_reference && !chosen.fixed_reference);
    }

    #[test]
    fn a_fixed_reference_can_be_slower_than_others() {
        let s = [sample(&scaled(&BASE, 3.0)), sample(&BASE)];
        let options = RankOptions {
            rounds: None,
            reference: Some(0),
            classic: false,
            exact_level: false,
        };
        let r = rank_with(&s, options, &relative(1.0, 1.0)).unwrap();
        assert_eq!(r.entries[0].index, 0);
        assert_eq!(r.entries[1].verdict, Verdict::Faster);
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
    fn a_short_command_is_not_compared_and_silences_nothing() {
        let s = [
            sample(&[1.0, 1.0, 1.0]),
            sample(&BASE),
            sample(&scaled(&BASE, 2.0)),
        ];
        let r = rank(&s, &relative(1.0, 1.0)).unwrap();
        assert!(r.inference);
        assert_eq!(r.order(), vec![1, 2, 0]);
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
        assert_eq!(r.entries[2].verdict, Verdict::NotCompared { n: 3 });
        assert_eq!(r.family, 1);
    }

    #[test]
    fn a_fixed_reference_with_too_few_values_means_no_inference() {
        let s = [sample(&[1.0, 2.0]), sample(&BASE)];
        let options = RankOptions {
            rounds: None,
            reference: Some(0),
            classic: false,
            exact_level: false,
        };
        let r = rank_with(&s, options, &relative(1.0, 1.0)).unwrap();
        assert!(!r.inference);
        assert_eq!(r.entries[0].verdict, Verdict::Best);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 10 });
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
    }
}

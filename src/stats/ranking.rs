//! Ranking commands: BestGuess's rule, made statistically sound.
//!
//! Commands are ordered by the median of the ranked metric (total CPU time
//! by default) and each is compared with the fastest, "the best". A command
//! is reported as having performed *identically* to the best unless the
//! difference is at once statistically significant (Mann–Whitney, with
//! Holm's adjustment across the comparisons), clearly away from zero (the
//! confidence interval of the shift excludes zero by more than ε), large
//! enough to matter (|Δ| ≥ effect) and consistent (the best is rarely the
//! slower of a random pair: Â ≤ superiority). Differences from the C
//! reference: Holm's adjustment instead of a non-standard "adjusted p",
//! textbook tie correction, exact small-sample methods, a confidence
//! interval from the exact distribution where it applies, and commands
//! with fewer than five runs are left uncompared instead of crashing.

use std::borrow::Borrow;

use thiserror::Error;

use super::compare::{compare, Comparison};
use super::holm::holm_adjust;
use super::quantile::sorted_quantile;
use super::sample::Sample;
use super::shift::{Alpha, InvalidAlpha};

/// Fewest values a command (and the best) needs to be compared.
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
    /// Significance level of each comparison and 1 − the confidence of the
    /// shift interval.
    pub alpha: f64,
    /// A confidence-interval end this close to zero counts as touching
    /// zero.
    pub epsilon: Threshold,
    /// Smallest shift |Δ| that matters.
    pub effect: Threshold,
    /// Largest probability of superiority Â (chance that the best is the
    /// slower of a random pair) still compatible with a real difference.
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

/// One reason a command counts as having performed identically to the best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdenticalReason {
    /// The Holm-adjusted p-value is at least alpha.
    NotSignificant,
    /// The shift's confidence interval contains 0, or an end lies within
    /// epsilon of 0.
    CiContainsZero,
    /// |Δ| is smaller than the effect threshold.
    EffectTooSmall,
    /// Â exceeds the superiority threshold: the best is too often the
    /// slower of a random pair.
    HighSuperiority,
}

/// What the ranking concludes about one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The command with the lowest median (first in input order on a tie).
    Best,
    /// Not shown to differ from the best; every reason that applied, in
    /// the order NotSignificant, CiContainsZero, EffectTooSmall,
    /// HighSuperiority.
    Identical {
        /// Never empty.
        reasons: Vec<IdenticalReason>,
    },
    /// Significantly, clearly and relevantly slower than the best.
    Slower,
    /// Not compared: this command has `n` values and fewer than
    /// [`MIN_VALUES_FOR_INFERENCE`], or the best has too few
    /// (then [`Ranking::inference`] is false).
    NotCompared {
        /// Number of values of this command.
        n: usize,
    },
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
    /// Comparison with the best (`None` for the best and for commands not
    /// compared); its `p_adjusted` is Holm-adjusted across the ranking.
    pub comparison: Option<Comparison>,
    /// The conclusion.
    pub verdict: Verdict,
}

/// The outcome of [`rank`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Whether comparisons were possible at all: false when there are no
    /// commands or the best has fewer than [`MIN_VALUES_FOR_INFERENCE`]
    /// values (the order is then by median only).
    pub inference: bool,
    /// One entry per command, by ascending median (stable: equal medians
    /// keep input order). The first is the best.
    pub entries: Vec<RankedEntry>,
    /// The settings used.
    pub settings: RankSettings,
    /// ε in the metric's unit (resolved against the best median; 0 when
    /// there are no commands).
    pub epsilon: f64,
    /// The effect threshold in the metric's unit (resolved likewise).
    pub effect: f64,
}

impl Ranking {
    /// Input indices in rank order.
    pub fn order(&self) -> Vec<usize> {
        self.entries.iter().map(|e| e.index).collect()
    }

    /// The best command, unless there were none.
    pub fn best(&self) -> Option<&RankedEntry> {
        self.entries.first()
    }

    /// The entry of the command at input position `index`.
    pub fn entry(&self, index: usize) -> Option<&RankedEntry> {
        self.entries.iter().find(|e| e.index == index)
    }

    /// Size of the winner group: the best plus every command that performed
    /// identically to it (0 with no commands; 1 without inference).
    pub fn winners(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e.verdict, Verdict::Best | Verdict::Identical { .. }))
            .count()
    }
}

/// Ranks commands, one sample of the ranked metric each, in input order.
///
/// Sorts by median, compares every command having at least
/// [`MIN_VALUES_FOR_INFERENCE`] values with the best (when the best has
/// that many too), Holm-adjusts the p-values over the comparisons made and
/// applies the rule in the module docs. Errors only for invalid settings.
pub fn rank<S: Borrow<Sample>>(
    samples: &[S],
    settings: &RankSettings,
) -> Result<Ranking, SettingsError> {
    settings.validate()?;
    let alpha = Alpha::new(settings.alpha)?;

    let medians: Vec<f64> = samples
        .iter()
        .map(|s| sorted_quantile(s.borrow().sorted(), 0.5))
        .collect();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    order.sort_by(|&a, &b| medians[a].total_cmp(&medians[b]));

    let best_median = order.first().map_or(0.0, |&i| medians[i]);
    let epsilon = settings.epsilon.resolve(best_median);
    let effect = settings.effect.resolve(best_median);
    let inference = order
        .first()
        .is_some_and(|&i| samples[i].borrow().len() >= MIN_VALUES_FOR_INFERENCE);

    let mut comparisons: Vec<Option<Comparison>> = vec![None; order.len()];
    if inference {
        let best = samples[order[0]].borrow();
        for (slot, &i) in comparisons.iter_mut().zip(&order).skip(1) {
            let other = samples[i].borrow();
            if other.len() >= MIN_VALUES_FOR_INFERENCE {
                *slot = Some(compare(best, other, alpha));
            }
        }
        let raw: Vec<f64> = comparisons
            .iter()
            .flatten()
            .map(|c| c.mann_whitney.p_value)
            .collect();
        let adjusted = holm_adjust(&raw);
        for (c, p) in comparisons.iter_mut().flatten().zip(adjusted) {
            c.p_adjusted = p;
        }
    }

    let entries = order
        .iter()
        .zip(comparisons)
        .enumerate()
        .map(|(position, (&index, comparison))| {
            let n = samples[index].borrow().len();
            let verdict = match &comparison {
                _ if position == 0 => Verdict::Best,
                None => Verdict::NotCompared { n },
                Some(c) => {
                    let reasons = identical_reasons(c, settings, epsilon, effect);
                    if reasons.is_empty() {
                        Verdict::Slower
                    } else {
                        Verdict::Identical { reasons }
                    }
                }
            };
            RankedEntry {
                index,
                n,
                median: medians[index],
                comparison,
                verdict,
            }
        })
        .collect();
    Ok(Ranking {
        inference,
        entries,
        settings: *settings,
        epsilon,
        effect,
    })
}

/// Every reason the comparison fails to show a difference.
fn identical_reasons(
    c: &Comparison,
    settings: &RankSettings,
    epsilon: f64,
    effect: f64,
) -> Vec<IdenticalReason> {
    let ci = &c.interval;
    let checks = [
        (
            c.p_adjusted >= settings.alpha,
            IdenticalReason::NotSignificant,
        ),
        (
            (ci.low <= 0.0 && 0.0 <= ci.high)
                || ci.low.abs() <= epsilon
                || ci.high.abs() <= epsilon,
            IdenticalReason::CiContainsZero,
        ),
        (c.shift.abs() < effect, IdenticalReason::EffectTooSmall),
        (
            c.superiority > settings.superiority,
            IdenticalReason::HighSuperiority,
        ),
    ];
    checks
        .iter()
        .filter(|(applies, _)| *applies)
        .map(|&(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Default for RankSettings {
        /// The C reference's rule, as fixed test parameters.
        fn default() -> Self {
            RankSettings {
                alpha: 0.05,
                epsilon: Threshold::Absolute(250.0),
                effect: Threshold::Absolute(500.0),
                superiority: 0.333,
            }
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
    fn clearly_slower_command_is_slower_and_close_one_is_identical() {
        let samples = [around(20_000.0), around(10_000.0), around(10_100.0)];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        assert!(r.inference);
        assert_eq!(r.order(), vec![1, 2, 0]);
        assert_eq!(r.entries[0].verdict, Verdict::Best);
        // 100 µs apart: significant, but the interval (around 100 µs) ends
        // within ε = 250 µs of zero and the shift is below the 500 µs effect.
        let c = r.entries[1].comparison.unwrap();
        assert!(c.p_adjusted < 0.05 && c.superiority < 0.333, "{c:?}");
        assert_eq!(
            r.entries[1].verdict,
            Verdict::Identical {
                reasons: vec![
                    IdenticalReason::CiContainsZero,
                    IdenticalReason::EffectTooSmall
                ]
            }
        );
        assert_eq!(r.entries[2].verdict, Verdict::Slower);
        assert_eq!(r.winners(), 2);
        assert_eq!(r.entry(0).unwrap().median, 20_000.0);
    }

    #[test]
    fn p_values_are_holm_adjusted_over_the_comparisons() {
        let samples = [
            around(10_000.0),
            around(10_050.0),
            around(10_020.0),
            sample(&[1e9]),
        ];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        let compared: Vec<&Comparison> = r
            .entries
            .iter()
            .filter_map(|e| e.comparison.as_ref())
            .collect();
        assert_eq!(compared.len(), 2);
        let raw: Vec<f64> = compared.iter().map(|c| c.mann_whitney.p_value).collect();
        let adjusted: Vec<f64> = compared.iter().map(|c| c.p_adjusted).collect();
        assert_eq!(adjusted, holm_adjust(&raw));
        // The smaller p-value is doubled (two comparisons).
        let smaller = if raw[0] < raw[1] { 0 } else { 1 };
        assert_eq!(adjusted[smaller], (2.0 * raw[smaller]).min(1.0));
        assert_eq!(r.entries[3].verdict, Verdict::NotCompared { n: 1 });
    }

    #[test]
    fn commands_with_too_few_values_are_not_compared_instead_of_crashing() {
        // The C reference dereferenced NULL here (8 runs vs 3 runs).
        let samples = [around(1000.0), sample(&[5000.0, 5100.0, 5200.0])];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        assert!(r.inference);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 3 });
        assert_eq!(r.entries[1].comparison, None);
        assert_eq!(r.winners(), 1);
    }

    #[test]
    fn a_best_with_too_few_values_means_no_inference() {
        let samples = [sample(&[300.0]), sample(&[100.0, 101.0]), around(200.0)];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        assert!(!r.inference);
        assert_eq!(r.order(), vec![1, 2, 0]);
        assert_eq!(r.entries[1].verdict, Verdict::NotCompared { n: 20 });
        assert_eq!(r.winners(), 1);
    }

    #[test]
    fn equal_medians_keep_input_order() {
        let samples = [around(500.0), around(500.0), around(400.0)];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        assert_eq!(r.order(), vec![2, 0, 1]);
    }

    #[test]
    fn every_applicable_reason_is_listed() {
        // Identical samples: p = 1, CI around 0, Δ = 0, Â = ½.
        let samples = [around(1000.0), around(1000.0)];
        let r = rank(&samples, &RankSettings::default()).unwrap();
        assert_eq!(
            r.entries[1].verdict,
            Verdict::Identical {
                reasons: vec![
                    IdenticalReason::NotSignificant,
                    IdenticalReason::CiContainsZero,
                    IdenticalReason::EffectTooSmall,
                    IdenticalReason::HighSuperiority,
                ]
            }
        );
    }

    #[test]
    fn relative_thresholds_scale_with_the_best_median() {
        let settings = RankSettings {
            effect: Threshold::Percent(2.0),
            epsilon: Threshold::Percent(1.0),
            ..RankSettings::default()
        };
        let r = rank(&[around(10_000.0), around(10_300.0)], &settings).unwrap();
        assert_eq!((r.effect, r.epsilon), (200.0, 100.0));
        // 300 µs ≥ 2% of 10 ms: slower, where the default 500 µs says identical.
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        let bad = |s: RankSettings| rank::<Sample>(&[], &s).unwrap_err();
        let d = RankSettings::default();
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
        let r = rank::<Sample>(&[], &RankSettings::default()).unwrap();
        assert!(!r.inference && r.entries.is_empty());
        assert_eq!((r.winners(), r.best()), (0, None));
    }
}

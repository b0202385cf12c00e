//! One comparison of two commands: the estimate that decides, and the C
//! BestGuess tool's statistics beside it.
//!
//! * **The deciding estimate** ([`Contrast`], `super::medians`): the ratio
//!   of medians other / reference, or their difference when some value is
//!   not positive, bounded by the two medians' own order-statistic
//!   bounds. They hold for any distribution, with ties, tick lattices,
//!   unequal spreads and unequal run counts, and whatever the dependence
//!   between the two commands' runs, so the same values give the same
//!   interval in random rounds and in sequential order.
//! * **The C tool's statistics** ([`Classic`]), shown by `-E` and
//!   exported to JSON, named as the C tool names them; they decide
//!   nothing: the Mann–Whitney test, the Hodges–Lehmann shift Δ with the
//!   C tool's interval, and the probability of superiority Â.

use super::mann_whitney::{mann_whitney, MannWhitney};
use super::medians::{Contrast, MedianBounds, Scale};
use super::normal::{normal_cdf, normal_quantile};
use super::sample::Sample;
use super::shift::{hodges_lehmann, kth_pairwise_difference, pairwise_difference_count, Alpha};

/// How the runs compared were made. The intervals are computed alike
/// either way; what they cover differs when the machine's speed changes
/// (docs/statistics.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Design {
    /// Runs made apart (sequential order, separate files, unequal
    /// counts): each median is that of its own runs' conditions.
    Independent,
    /// This many complete rounds, each with one run of every command:
    /// every command's median is that of the same mixture of the
    /// machine's states.
    Rounds {
        /// Number of rounds.
        rounds: usize,
    },
}

/// The C BestGuess tool's statistics of a comparison (its `-E` report).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Classic {
    /// Two-sided Mann–Whitney test (U and W of the reference).
    pub mann_whitney: MannWhitney,
    /// Its p-value times the number of comparisons (Bonferroni), at most 1.
    pub p_adjusted: f64,
    /// Hodges–Lehmann shift Δ, other − reference (median of the n₁·n₂
    /// differences; Hodges & Lehmann 1963, Ann. Math. Statist. 34,
    /// 598–611).
    pub shift: f64,
    /// The C tool's interval for Δ: the order statistics e₍C+1₎ and
    /// e₍M−C₎ of the M = n₁·n₂ differences, C = ⌊M/2 − z·√(M(n₁+n₂+1)/12)⌋,
    /// z = Φ⁻¹(1 − α/2), without tie correction.
    pub shift_low: f64,
    /// Upper end of that interval.
    pub shift_high: f64,
    /// The C tool's achieved confidence of it: 2Φ((M − 2C − 1)/(2σ)) − 1.
    pub shift_confidence: f64,
    /// Probability of superiority Â = U/(n₁·n₂): the chance that a random
    /// run of the reference takes longer than a random run of the other,
    /// ties counting ½ (Vargha & Delaney 2000, J. Educ. Behav. Statist.
    /// 25, 101–132).
    pub superiority: f64,
}

impl Classic {
    /// The C tool's statistics of `other` against `reference` at `alpha`,
    /// with the p-value adjusted over `family` comparisons.
    pub fn of(reference: &Sample, other: &Sample, alpha: Alpha, family: usize) -> Self {
        let mw = mann_whitney(reference, other);
        let (n1, n2) = (reference.len() as f64, other.len() as f64);
        let m = pairwise_difference_count(reference, other);
        let sigma = (m as f64 * (n1 + n2 + 1.0) / 12.0).sqrt();
        let z = normal_quantile(1.0 - alpha.get() / 2.0).unwrap_or(0.0);
        let c = (m as f64 / 2.0 - z * sigma).floor().max(0.0) as u128;
        let c = c.min((m - 1) / 2);
        let kth = |k: u128| kth_pairwise_difference(reference, other, k).unwrap_or(0.0);
        let width = (m - 2 * c - 1) as f64;
        let shift_confidence = if sigma > 0.0 {
            2.0 * normal_cdf(width / (2.0 * sigma)) - 1.0
        } else {
            0.0
        };
        Classic {
            mann_whitney: mw,
            p_adjusted: (mw.p_value * family.max(1) as f64).min(1.0),
            shift: hodges_lehmann(reference, other),
            shift_low: kth(c + 1),
            shift_high: kth(m - c),
            shift_confidence,
            superiority: mw.u / (n1 * n2),
        }
    }
}

/// The statistics of `other` compared with the reference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// How the runs were made.
    pub design: Design,
    /// The deciding estimate and its bounds.
    pub contrast: Contrast,
    /// The C tool's statistics, when asked for ([`CompareOptions::classic`]).
    pub classic: Option<Classic>,
}

/// How to compare two commands.
#[derive(Debug, Clone, Copy)]
pub struct CompareOptions {
    /// How the runs were made.
    pub design: Design,
    /// Ratio or difference.
    pub scale: Scale,
    /// The miss chance allowed for each bound of each median.
    pub gamma: f64,
    /// The C tool's α (its interval's level) and the family size for its
    /// adjusted p-value.
    pub alpha: Alpha,
    /// Number of comparisons in the family.
    pub family: usize,
    /// Whether to compute the C tool's statistics too (reports and
    /// exports show them; a decision alone does not need them).
    pub classic: bool,
}

/// Compares `other` with `reference`: the ratio (or difference) of their
/// medians, bounded by each median's bounds at `gamma` per side. `None`
/// when a median cannot be bounded at `gamma` (too few values) or no
/// estimate exists on the scale (a ratio of values that overflow).
pub fn compare(reference: &Sample, other: &Sample, options: CompareOptions) -> Option<Comparison> {
    let r = MedianBounds::of(reference.sorted(), options.gamma)?;
    let o = MedianBounds::of(other.sorted(), options.gamma)?;
    Some(Comparison {
        design: options.design,
        contrast: Contrast::between(&r, &o, options.scale)?,
        classic: options
            .classic
            .then(|| Classic::of(reference, other, options.alpha, options.family)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[f64]) -> Sample {
        Sample::from_slice(v).unwrap()
    }

    #[test]
    fn classic_interval_is_the_c_tools() {
        // M = 25, σ = √(25·11/12) ≈ 4.787, z = 1.96: C = ⌊12.5 − 9.38⌋ = 3,
        // so [e₍4₎, e₍22₎], achieved 2Φ(18/(2σ)) − 1.
        let a = s(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        let b = s(&[11.0, 12.0, 13.0, 14.0, 15.0]);
        let c = Classic::of(&a, &b, Alpha::new(0.05).unwrap(), 1);
        // Differences 6..=14 with multiplicities 1,2,3,4,5,4,3,2,1.
        assert_eq!((c.shift_low, c.shift, c.shift_high), (8.0, 10.0, 12.0));
        let sigma = (25.0f64 * 11.0 / 12.0).sqrt();
        let want = 2.0 * normal_cdf(18.0 / (2.0 * sigma)) - 1.0;
        assert!((c.shift_confidence - want).abs() < 1e-15);
        assert_eq!(c.superiority, 0.0);
    }

    #[test]
    fn the_medians_bounds_make_the_interval_whatever_the_design() {
        let a = s(&[10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]);
        let b = s(&[20.0, 22.0, 24.0, 26.0, 28.0, 30.0, 32.0]);
        let options = CompareOptions {
            design: Design::Rounds { rounds: 7 },
            scale: Scale::Ratio,
            gamma: 0.01,
            alpha: Alpha::new(0.05).unwrap(),
            family: 1,
            classic: false,
        };
        let c = compare(&a, &b, options).unwrap();
        assert!(c.classic.is_none());
        assert_eq!(c.design, Design::Rounds { rounds: 7 });
        // 2⁻⁷ ≤ 0.01: the extremes of each.
        assert_eq!(
            (c.contrast.low, c.contrast.estimate, c.contrast.high),
            (20.0 / 16.0, 2.0, 32.0 / 10.0)
        );
        let independent = CompareOptions {
            design: Design::Independent,
            ..options
        };
        assert_eq!(compare(&a, &b, independent).unwrap().contrast, c.contrast);
        // Six values cannot reach 0.01 on a side.
        let six = s(&[10.0, 11.0, 12.0, 13.0, 14.0, 15.0]);
        assert!(compare(&six, &b, options).is_none());
    }
}

//! One comparison of two commands: the estimate that decides, and the C
//! BestGuess tool's statistics beside it.
//!
//! * **The deciding estimate** ([`Contrast`], `super::medians`): the ratio
//!   of medians other / reference, or their difference when some value is
//!   not positive. Over complete rounds, the median of the within-round
//!   ratios with the sign test's bounds; otherwise the ratio of the two
//!   medians with the combined order-statistic bounds. Both hold for any
//!   distribution, with ties, tick lattices, unequal spreads and unequal
//!   run counts.
//! * **The C tool's statistics** ([`Classic`]), shown by `-E` and
//!   exported to JSON, named as the C tool names them; they decide
//!   nothing: the Mann–Whitney test, the Hodges–Lehmann shift Δ with the
//!   C tool's interval, and the probability of superiority Â.

use super::mann_whitney::{mann_whitney, MannWhitney};
use super::medians::{independent, paired, Contrast, Scale};
use super::normal::{normal_cdf, normal_quantile};
use super::sample::Sample;
use super::shift::{hodges_lehmann, kth_pairwise_difference, pairwise_difference_count, Alpha};

/// Which analysis a comparison used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Design {
    /// Two independent samples: the ratio of their medians.
    Independent,
    /// Over this many complete rounds: the median of within-round ratios.
    Paired {
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
    /// The analysis that made the deciding estimate.
    pub design: Design,
    /// The deciding estimate and its bounds.
    pub contrast: Contrast,
    /// The C tool's statistics, when asked for ([`CompareOptions::classic`]).
    pub classic: Option<Classic>,
}

/// How to compare two commands.
#[derive(Debug, Clone, Copy)]
pub struct CompareOptions<'a> {
    /// The values of the reference and of the other in round order, when
    /// every round holds one run of each (paired design).
    pub rounds: Option<(&'a [f64], &'a [f64])>,
    /// Ratio or difference.
    pub scale: Scale,
    /// The miss chance allowed for each bound.
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

/// Compares `other` with `reference`: paired when the options carry the
/// rounds, else as independent samples. `None` only when no estimate
/// exists on the scale (a ratio of values that overflow).
pub fn compare(
    reference: &Sample,
    other: &Sample,
    options: CompareOptions<'_>,
) -> Option<Comparison> {
    let (design, contrast) = match options.rounds {
        Some((r, o)) => (
            Design::Paired { rounds: r.len() },
            paired(r, o, options.scale, options.gamma)?,
        ),
        None => (
            Design::Independent,
            independent(
                reference.sorted(),
                other.sorted(),
                options.scale,
                options.gamma,
            )?,
        ),
    };
    Some(Comparison {
        design,
        contrast,
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
    fn paired_when_rounds_are_given() {
        let a = [10.0, 11.0, 12.0, 13.0, 14.0];
        let b = [20.0, 22.0, 24.0, 26.0, 28.0];
        let options = CompareOptions {
            rounds: Some((&a, &b)),
            scale: Scale::Ratio,
            gamma: 0.05,
            alpha: Alpha::new(0.05).unwrap(),
            family: 1,
            classic: false,
        };
        let c = compare(&s(&a), &s(&b), options).unwrap();
        assert!(c.classic.is_none());
        assert_eq!(c.design, Design::Paired { rounds: 5 });
        assert_eq!((c.contrast.low, c.contrast.high), (2.0, 2.0));
        let c = compare(
            &s(&a),
            &s(&b),
            CompareOptions {
                rounds: None,
                ..options
            },
        )
        .unwrap();
        assert_eq!(c.design, Design::Independent);
        assert!(!c.contrast.reached);
    }
}

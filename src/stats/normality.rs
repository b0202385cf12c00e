//! Anderson–Darling test of normality, mean and variance estimated.
//!
//! Tells the user whether mean ± sd summaries could be trusted at all
//! (for timing data they usually cannot). The statistic is
//!
//! A² = −n − (1/n) Σᵢ (2i − 1) [ln Φ(z₍ᵢ₎) + ln(1 − Φ(z₍ₙ₊₁₋ᵢ₎))],
//! z = (x − mean)/sd with the sample sd (n − 1),
//!
//! as statsmodels `normal_ad` computes it (Anderson & Darling 1954, "A test
//! of goodness of fit", JASA 49, 765–769). Both log tails come from
//! [`super::normal`], so outliers many sd away give a large, finite A²
//! instead of −∞ logs. The modified statistic A*² = A²(1 + 0.75/n + 2.25/n²)
//! and its p-value follow D'Agostino & Stephens (1986), "Goodness-of-fit
//! techniques", Marcel Dekker, table 4.9, with the same four pieces and
//! thresholds as statsmodels.

use super::moments::{CompensatedSum, Moments, Spread};
use super::normal::normal_log_tails;
use super::not_applicable::NotApplicable;
use super::sample::Sample;

/// Smallest n for which the test is reported.
pub const NORMALITY_MIN_N: usize = 8;

/// Result of the Anderson–Darling normality test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AndersonDarling {
    /// The plain statistic A² (what statsmodels `normal_ad` returns first).
    pub a2: f64,
    /// The small-sample modified statistic A*² = A²(1 + 0.75/n + 2.25/n²),
    /// the one the p-value refers to.
    pub a2_star: f64,
    /// p-value of A*² under normality (D'Agostino & Stephens 1986):
    ///
    /// | A*²          | p                                         |
    /// |--------------|-------------------------------------------|
    /// | < 0.2        | 1 − exp(−13.436 + 101.14 A − 223.73 A²)   |
    /// | < 0.34       | 1 − exp(−8.318 + 42.796 A − 59.938 A²)    |
    /// | < 0.6        | exp(0.9177 − 4.279 A − 1.38 A²)           |
    /// | ≤ 13         | exp(1.2937 − 5.709 A + 0.0186 A²)         |
    /// | > 13         | 0 (the true value is below 5·10⁻³¹)        |
    ///
    /// Small p means "not normal".
    pub p_value: f64,
}

/// The D'Agostino–Stephens p-value of a modified statistic A*².
pub fn anderson_darling_p_value(a2_star: f64) -> f64 {
    let a = a2_star;
    let p = if a < 0.2 {
        1.0 - (-13.436 + 101.14 * a - 223.73 * a * a).exp()
    } else if a < 0.34 {
        1.0 - (-8.318 + 42.796 * a - 59.938 * a * a).exp()
    } else if a < 0.6 {
        (0.9177 - 4.279 * a - 1.38 * a * a).exp()
    } else if a <= 13.0 {
        (1.2937 - 5.709 * a + 0.0186 * a * a).exp()
    } else {
        0.0
    };
    p.clamp(0.0, 1.0)
}

/// Anderson–Darling normality test of `sample` (see the module docs).
///
/// Not applicable for n < 8, for a constant sample, or (defensively) if the
/// statistic cannot be represented.
pub fn anderson_darling(sample: &Sample) -> Result<AndersonDarling, NotApplicable> {
    let (moments, spread) = Moments::with_spread(sample);
    anderson_darling_with(sample, &moments, spread)
}

/// The test given the moments already computed by [`Moments::with_spread`].
pub(crate) fn anderson_darling_with(
    sample: &Sample,
    moments: &Moments,
    spread: Option<Spread>,
) -> Result<AndersonDarling, NotApplicable> {
    let x = sample.sorted();
    let n = x.len();
    if n < NORMALITY_MIN_N {
        return Err(NotApplicable::TooFewValues {
            n,
            min: NORMALITY_MIN_N,
        });
    }
    let Some(spread) = spread else {
        return Err(NotApplicable::ZeroVariance);
    };
    // z = (x − mean)/sd = u/√(Σu²/(n−1)) with u = (x − mean)/scale.
    let unit_sd = (spread.scaled_sum_sq / (n - 1) as f64).sqrt();
    let z = |v: f64| (v - moments.mean) / spread.scale / unit_sd;
    // Σ over sorted z₍ᵢ₎ of (2i−1)·ln Φ(z₍ᵢ₎) + (2(n−i)+1)·ln(1 − Φ(z₍ᵢ₎)),
    // which regroups the terms of the textbook formula by value.
    // Measurements are integers, so large samples repeat values heavily;
    // the tails are evaluated once per distinct value.
    let nf = n as f64;
    let mut sum = CompensatedSum::default();
    let mut previous = (f64::NAN, 0.0, 0.0);
    for (i, &v) in x.iter().enumerate() {
        if v != previous.0 {
            let (log_lower, log_upper) = normal_log_tails(z(v));
            previous = (v, log_lower, log_upper);
        }
        let (_, log_lower, log_upper) = previous;
        let i = i as f64 + 1.0;
        sum.add((2.0 * i - 1.0) * log_lower + (2.0 * (nf - i) + 1.0) * log_upper);
    }
    let a2 = -nf - sum.value() / nf;
    if !a2.is_finite() {
        let max_abs_z = z(x[0]).abs().max(z(x[n - 1]).abs());
        return Err(NotApplicable::ExtremeValues { max_abs_z });
    }
    // A² > 0 mathematically; rounding could make a perfect fit slightly negative.
    let a2 = a2.max(0.0);
    let a2_star = a2 * (1.0 + 0.75 / nf + 2.25 / (nf * nf));
    Ok(AndersonDarling {
        a2,
        a2_star,
        p_value: anderson_darling_p_value(a2_star),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ad(v: &[f64]) -> Result<AndersonDarling, NotApplicable> {
        anderson_darling(&Sample::from_slice(v).unwrap())
    }

    #[test]
    fn matches_statsmodels_on_a_small_sample() {
        // statsmodels.stats.diagnostic.normal_ad(
        //     [1, 2, 3, 4, 5, 6, 7, 8, 9, 30]) = (1.32676..., 0.000930...)
        let r = ad(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 30.0]).unwrap();
        assert!((r.a2 - 1.326_763_067_373_766_7).abs() < 1e-12, "{r:?}");
        assert!(
            (r.p_value - 0.000_930_428_134_690_299_6).abs() < 1e-15,
            "{r:?}"
        );
        let factor = 1.0 + 0.075 + 0.0225;
        assert_eq!(r.a2_star, r.a2 * factor);
    }

    #[test]
    fn not_applicable_below_eight_values_or_without_spread() {
        assert_eq!(
            ad(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]),
            Err(NotApplicable::TooFewValues { n: 7, min: 8 })
        );
        assert_eq!(ad(&[5.0; 8]), Err(NotApplicable::ZeroVariance));
    }

    #[test]
    fn an_extreme_outlier_gives_a_finite_statistic_and_p_zero() {
        // z of the outlier ≈ 31.6: Φ(z) rounds to 1, so ln(1 − Φ(z)) is −∞
        // unless the upper tail is computed directly.
        let mut v = vec![0.0; 999];
        v.iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = (i % 7) as f64);
        v.push(1e6);
        let r = ad(&v).unwrap();
        assert!(r.a2.is_finite() && r.a2 > 13.0);
        assert_eq!(r.p_value, 0.0);
    }

    #[test]
    fn p_value_pieces_meet_at_their_thresholds() {
        for t in [0.2, 0.34, 0.6] {
            let below = anderson_darling_p_value(t - 1e-12);
            let above = anderson_darling_p_value(t);
            assert!(
                (below - above).abs() < 0.01,
                "jump at {t}: {below} vs {above}"
            );
        }
        assert_eq!(anderson_darling_p_value(13.5), 0.0);
        assert!(anderson_darling_p_value(0.0) <= 1.0);
    }
}

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
    let a2 = a2_by_runs(n, sample.runs(), z);
    if !a2.is_finite() {
        let max_abs_z = z(x[0]).abs().max(z(x[n - 1]).abs());
        return Err(NotApplicable::ExtremeValues { max_abs_z });
    }
    // A² > 0 mathematically; rounding could make a perfect fit slightly negative.
    let a2 = a2.max(0.0);
    let nf = n as f64;
    let a2_star = a2 * (1.0 + 0.75 / nf + 2.25 / (nf * nf));
    Ok(AndersonDarling {
        a2,
        a2_star,
        p_value: anderson_darling_p_value(a2_star),
    })
}

/// A² = −n − (1/n) Σᵢ (2i − 1) [ln Φ(z₍ᵢ₎) + ln(1 − Φ(z₍ₙ₊₁₋ᵢ₎))] of
/// the n ascending values given by their `runs` of equal values (value,
/// positions), `z` standardising a value.
///
/// Regrouped by value, the sum is Σ over runs of equal values of
/// P·ln Φ(z) + Q·ln(1 − Φ(z)), where for the run at 1-based positions
/// s + 1 … e the weights are exact integers: P = Σ(2i − 1) = e² − s² and
/// Q = Σ(2(n − i) + 1) = (n − s)² − (n − e)². So the tails are evaluated
/// once per distinct value (measurements repeat values heavily) and the
/// sum takes four terms per distinct value instead of one per value.
///
/// n·A² = −n² − Σ is formed in one compensated sum of exact pieces: n²
/// and the weights split into doubles exactly, each weight × log an exact
/// two-product (Dekker 1971). The cancellation between n² and Σ (they
/// agree to within A²/n) thus happens inside the compensated sum, which
/// is accurate to about one rounding of n·A², instead of after rounding
/// Σ/n, which loses log₂(n/A²) bits; and no product is rounded. Tested
/// against an exact evaluation of the same sum.
fn a2_by_runs(
    n: usize,
    runs: impl Iterator<Item = (f64, std::ops::Range<usize>)>,
    z: impl Fn(f64) -> f64,
) -> f64 {
    let n = n as u128;
    let mut sum = CompensatedSum::default();
    let (n2_hi, n2_lo) = exact_parts(n * n);
    sum.add(-n2_hi);
    sum.add(-n2_lo);
    let mut add_product = |weight: u128, log: f64| {
        let (w_hi, w_lo) = exact_parts(weight);
        for w in [w_hi, w_lo] {
            if w != 0.0 {
                let (p, e) = two_product(w, log);
                sum.add(-p);
                sum.add(-e);
            }
        }
    };
    for (v, run) in runs {
        let (log_lower, log_upper) = normal_log_tails(z(v));
        let (s, e) = (run.start as u128, run.end as u128);
        add_product(e * e - s * s, log_lower);
        add_product((n - s) * (n - s) - (n - e) * (n - e), log_upper);
    }
    sum.value() / n as f64
}

/// `x` as hi + lo, both doubles, exactly (x < 2^106).
fn exact_parts(x: u128) -> (f64, f64) {
    let hi = x as f64;
    let lo = (x as i128 - hi as i128) as f64;
    (hi, lo)
}

/// a·b = p + e exactly, p the rounded product (Dekker 1971, "A
/// floating-point technique for extending the available precision",
/// Numer. Math. 18, 224–242, with Veltkamp's splitting), barring overflow
/// and underflow; no fused multiply-add needed.
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (a_hi, a_lo) = split(a);
    let (b_hi, b_lo) = split(b);
    let e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
    (p, e)
}

/// `a` as hi + lo with at most 26 significant bits each (Veltkamp).
fn split(a: f64) -> (f64, f64) {
    const FACTOR: f64 = 134_217_729.0; // 2^27 + 1
    let c = FACTOR * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ad(v: &[f64]) -> Result<AndersonDarling, NotApplicable> {
        anderson_darling(&Sample::from_slice(v).unwrap())
    }

    /// An exact sum of doubles (Shewchuk 1997, "Adaptive precision
    /// floating-point arithmetic and fast robust geometric predicates",
    /// Discrete Comput. Geom. 18, 305–363): non-overlapping components
    /// whose sum is exactly the sum of everything added.
    #[derive(Default)]
    struct Expansion(Vec<f64>);

    impl Expansion {
        fn add(&mut self, mut x: f64) {
            let mut kept = Vec::with_capacity(self.0.len() + 1);
            for &c in &self.0 {
                // TwoSum: s + err = x + c exactly.
                let s = x + c;
                let bv = s - x;
                let err = (x - (s - bv)) + (c - bv);
                if err != 0.0 {
                    kept.push(err);
                }
                x = s;
            }
            kept.push(x);
            self.0 = kept;
        }

        /// The exact sum, rounded: components from the smallest, so
        /// every rounding but the last is exact or below half an ulp of
        /// the result (faithful).
        fn value(&self) -> f64 {
            self.0.iter().fold(0.0, |a, &c| a + c)
        }
    }

    /// The textbook sum, one term per value (the previous method): each
    /// term's products and sum rounded, then −n − Σ/n.
    fn a2_one_term_per_value(sorted: &[f64], z: impl Fn(f64) -> f64) -> f64 {
        let nf = sorted.len() as f64;
        let mut sum = CompensatedSum::default();
        for (i, &v) in sorted.iter().enumerate() {
            let (log_lower, log_upper) = normal_log_tails(z(v));
            let i = i as f64 + 1.0;
            sum.add((2.0 * i - 1.0) * log_lower + (2.0 * (nf - i) + 1.0) * log_upper);
        }
        -nf - sum.value() / nf
    }

    /// n·A² = −n² − Σ (2i−1)·ln Φ(zᵢ) + (2(n−i)+1)·ln(1 − Φ(zᵢ)) summed
    /// exactly from the same logarithms, rounded once, over n.
    fn a2_exact(sorted: &[f64], z: impl Fn(f64) -> f64) -> f64 {
        let n = sorted.len();
        let mut sum = Expansion::default();
        let (hi, lo) = exact_parts((n * n) as u128);
        sum.add(-hi);
        sum.add(-lo);
        for (i, &v) in sorted.iter().enumerate() {
            let (log_lower, log_upper) = normal_log_tails(z(v));
            let i = i as u128 + 1;
            for (weight, log) in [(2 * i - 1, log_lower), (2 * (n as u128 - i) + 1, log_upper)] {
                // Small weights: one exact two-product each.
                let (p, e) = two_product(weight as f64, log);
                sum.add(-p);
                sum.add(-e);
            }
        }
        sum.value() / n as f64
    }

    #[test]
    fn two_products_and_splits_are_exact() {
        let mut rng = super::super::rng::SplitMix64::new(5);
        for _ in 0..10_000 {
            let a = (rng.below(1 << 40) as f64) * if rng.below(2) == 0 { 1.0 } else { 3.0 };
            let b = -(rng.uniform() * 700.0);
            let (p, e) = two_product(a, b);
            // Exact: (a·b − p) computed with i128 on scaled integers.
            let scale = 2f64.powi(60);
            let b_int = (b * scale) as i128; // b has ≤ 53 bits above 2^-60 here
            if b_int as f64 / scale == b {
                let exact = a as i128 * b_int;
                let got = ((p * scale) as i128) + ((e * scale) as i128);
                assert_eq!(got, exact, "{a} × {b}");
            }
            let (hi, lo) = split(b);
            assert_eq!(hi + lo, b);
        }
        let x = (1u128 << 100) + 12345;
        let (hi, lo) = exact_parts(x);
        assert_eq!(hi as u128 as i128 + lo as i128, x as i128);
    }

    #[test]
    fn the_regrouped_sum_is_at_least_as_accurate_as_one_term_per_value() {
        // Against the exact sum of the same logarithms: runs of equal
        // values (integers, many ties), all distinct values, a skewed
        // sample whose A² is small (strong cancellation), and a
        // normal-looking one.
        let mut rng = super::super::rng::SplitMix64::new(13);
        let mut cases: Vec<Vec<f64>> = vec![
            (0..20_000)
                .map(|_| (rng.below(300) + rng.below(300)) as f64)
                .collect(),
            (0..3000).map(|_| rng.uniform()).collect(),
            (0..5000)
                .map(|_| (-rng.uniform().ln() * 100.0).floor())
                .collect(),
            (0..10).map(f64::from).collect(),
        ];
        // Near normal: sums of twelve uniforms, rounded to 0.01.
        cases.push(
            (0..50_000)
                .map(|_| ((0..12).map(|_| rng.uniform()).sum::<f64>() * 100.0).round())
                .collect(),
        );
        for v in cases {
            let sample = Sample::from_slice(&v).unwrap();
            let (moments, spread) = Moments::with_spread(&sample);
            let spread = spread.unwrap();
            let n = v.len();
            let unit_sd = (spread.scaled_sum_sq / (n - 1) as f64).sqrt();
            let z = |x: f64| (x - moments.mean) / spread.scale / unit_sd;
            let x = sample.sorted();
            let exact = a2_exact(x, z);
            let new = a2_by_runs(n, sample.runs(), z);
            assert_eq!(new, a2_by_runs(n, super::super::sample::runs(x), z));
            let old = a2_one_term_per_value(x, z);
            let ulp = |a: f64| f64::from_bits(a.abs().to_bits() + 1) - a.abs();
            assert!(
                (new - exact).abs() <= (old - exact).abs(),
                "n {n}: new {new} old {old} exact {exact}"
            );
            // Within a couple of roundings of the exact value.
            assert!(
                (new - exact).abs() <= 2.0 * ulp(exact),
                "n {n}: {new} vs {exact}"
            );
            assert_eq!(anderson_darling(&sample).unwrap().a2, new.max(0.0));
        }
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

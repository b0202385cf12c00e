//! Sample quantiles, Hyndman–Fan type 7.
//!
//! There are at least nine textbook definitions of a sample quantile
//! (Hyndman & Fan 1996, "Sample quantiles in statistical packages", The
//! American Statistician 50, 361–365). Type 7 — linear interpolation between
//! the order statistics at positions (n − 1)·p — is the default of R and of
//! numpy (`np.quantile(method="linear")`), so users can check our figures
//! with the tools they have. C BestGuess uses uninterpolated order
//! statistics instead, which makes p95 equal the maximum for n < 40.

use super::sample::Sample;

/// Smallest n for which [`Quantiles::p95`] is reported.
pub const P95_MIN_N: usize = 20;
/// Smallest n for which [`Quantiles::p99`] is reported.
pub const P99_MIN_N: usize = 100;

/// The type-7 quantile of a sorted slice; `p` must be within [0, 1].
///
/// The interpolated value is clamped to the two order statistics it lies
/// between, so rounding can never make quantiles non-monotone in p or
/// leave [min, max].
pub(crate) fn sorted_quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let j = h.floor();
    let g = h - j;
    // h ≤ n − 1, so j is a valid index; the `min` guards only against
    // rounding of h.
    let j = (j as usize).min(sorted.len() - 1);
    if g == 0.0 || j + 1 == sorted.len() {
        return sorted[j];
    }
    let (a, b) = (sorted[j], sorted[j + 1]);
    (a + (b - a) * g).clamp(a, b)
}

/// The quantile of `sample` at probability `p` (Hyndman–Fan type 7,
/// = `numpy.quantile(x, p)` = R `quantile(x, p, type = 7)`).
///
/// `None` unless 0 ≤ p ≤ 1.
pub fn quantile(sample: &Sample, p: f64) -> Option<f64> {
    (0.0..=1.0)
        .contains(&p)
        .then(|| sorted_quantile(sample.sorted(), p))
}

/// The order statistics BestGuess reports, all Hyndman–Fan type 7.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantiles {
    /// The smallest value.
    pub min: f64,
    /// First quartile (p = 0.25).
    pub q1: f64,
    /// Median (p = 0.5).
    pub median: f64,
    /// Third quartile (p = 0.75).
    pub q3: f64,
    /// 95th percentile; `None` when n < 20, where it would be an
    /// interpolation between the two largest values rather than a tail
    /// estimate.
    pub p95: Option<f64>,
    /// 99th percentile; `None` when n < 100.
    pub p99: Option<f64>,
    /// The largest value.
    pub max: f64,
}

impl Quantiles {
    /// Computes all of them from the cached sorted values in O(1).
    pub fn of(sample: &Sample) -> Self {
        let s = sample.sorted();
        let n = s.len();
        Quantiles {
            min: sample.min(),
            q1: sorted_quantile(s, 0.25),
            median: sorted_quantile(s, 0.5),
            q3: sorted_quantile(s, 0.75),
            p95: (n >= P95_MIN_N).then(|| sorted_quantile(s, 0.95)),
            p99: (n >= P99_MIN_N).then(|| sorted_quantile(s, 0.99)),
            max: sample.max(),
        }
    }

    /// Interquartile range, Q3 − Q1 (never negative).
    pub fn iqr(&self) -> f64 {
        self.q3 - self.q1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(v: &[f64]) -> Sample {
        Sample::from_slice(v).unwrap()
    }

    #[test]
    fn single_value_is_every_quantile() {
        let q = Quantiles::of(&sample(&[42.0]));
        assert_eq!(
            (q.min, q.q1, q.median, q.q3, q.max),
            (42.0, 42.0, 42.0, 42.0, 42.0)
        );
        assert_eq!((q.p95, q.p99), (None, None));
        assert_eq!(q.iqr(), 0.0);
    }

    #[test]
    fn interpolates_linearly_between_order_statistics() {
        // numpy.quantile([1, 2, 4, 8], [.25, .5, .75]) = [1.75, 3.0, 5.0]
        let q = Quantiles::of(&sample(&[8.0, 1.0, 4.0, 2.0]));
        assert_eq!((q.q1, q.median, q.q3), (1.75, 3.0, 5.0));
        assert_eq!(q.iqr(), 3.25);
    }

    #[test]
    fn tail_percentiles_appear_at_20_and_100_values() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        let q = Quantiles::of(&sample(&v));
        // numpy.quantile(range(1, 21), .95) = 19.05
        assert!((q.p95.unwrap() - 19.05).abs() < 1e-12);
        assert_eq!(q.p99, None);
        assert_eq!(Quantiles::of(&sample(&v[..19])).p95, None);
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert!((Quantiles::of(&sample(&v)).p99.unwrap() - 99.01).abs() < 1e-12);
    }

    #[test]
    fn probability_outside_unit_interval_has_no_quantile() {
        let s = sample(&[1.0, 2.0]);
        assert_eq!(quantile(&s, 1.5), None);
        assert_eq!(quantile(&s, f64::NAN), None);
        assert_eq!(quantile(&s, 1.0), Some(2.0));
        assert_eq!(quantile(&s, 0.0), Some(1.0));
    }
}

//! Every per-sample statistic, computed once.
//!
//! Reports, exports and the ranking all need overlapping statistics of
//! the same samples; [`Summary::of`] computes them together (the sort is
//! already cached in the [`Sample`], the moments feed the normality test)
//! so no caller recomputes or recombines them.

use super::mode::half_sample_mode;
use super::moments::Moments;
use super::normality::{anderson_darling_with, AndersonDarling};
use super::not_applicable::NotApplicable;
use super::quantile::Quantiles;
use super::sample::Sample;

/// Descriptive statistics of one sample; see each field's definition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// min, Q1, median, Q3, p95, p99, max (Hyndman–Fan type 7).
    pub quantiles: Quantiles,
    /// Half-sample mode (Bickel & Frühwirth 2006).
    pub mode: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1); `None` when n = 1.
    pub sd: Option<f64>,
    /// Skewness G1; needs n ≥ 8 and spread.
    pub skewness: Result<f64, NotApplicable>,
    /// Excess kurtosis G2; needs n ≥ 8 and spread.
    pub excess_kurtosis: Result<f64, NotApplicable>,
    /// Anderson–Darling normality test; needs n ≥ 8 and spread.
    pub normality: Result<AndersonDarling, NotApplicable>,
}

impl Summary {
    /// Computes all statistics of `sample` in O(n) after its sort.
    pub fn of(sample: &Sample) -> Self {
        let (moments, spread) = Moments::with_spread(sample);
        Summary {
            n: sample.len(),
            quantiles: Quantiles::of(sample),
            mode: half_sample_mode(sample),
            mean: moments.mean,
            sd: moments.sd,
            skewness: moments.skewness,
            excess_kurtosis: moments.excess_kurtosis,
            normality: anderson_darling_with(sample, &moments, spread),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_the_individual_statistics() {
        let v: Vec<f64> = (0..30).map(|i| f64::from(i * i % 17)).collect();
        let s = Sample::from_slice(&v).unwrap();
        let summary = Summary::of(&s);
        let moments = Moments::of(&s);
        assert_eq!(summary.n, 30);
        assert_eq!(summary.quantiles, Quantiles::of(&s));
        assert_eq!(summary.mode, half_sample_mode(&s));
        assert_eq!((summary.mean, summary.sd), (moments.mean, moments.sd));
        assert_eq!(summary.skewness, moments.skewness);
        assert_eq!(summary.excess_kurtosis, moments.excess_kurtosis);
        assert_eq!(
            summary.normality,
            super::super::normality::anderson_darling(&s)
        );
    }
}

//! Mean, standard deviation, skewness and kurtosis.
//!
//! Timing distributions are rarely normal, so BestGuess leads with median
//! and quartiles; the moments exist because export formats (Hyperfine's)
//! need mean and standard deviation, and because skewness and kurtosis say
//! *how* a distribution departs from normal. Sums are compensated
//! (Neumaier 1974) and the central moments are computed from deviations
//! scaled by their largest magnitude, so neither huge nor tiny values lose
//! precision or overflow.

use super::not_applicable::NotApplicable;
use super::sample::{Sample, EXACT_INTEGER};

/// Smallest n for which skewness and kurtosis are reported (as in the C
/// reference: below that the estimators are too variable to mean much).
pub const SHAPE_MIN_N: usize = 8;

/// A compensated running sum (Neumaier 1974, "Rundungsfehleranalyse einiger
/// Verfahren zur Summation endlicher Summen", ZAMM 54, 39–51).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CompensatedSum {
    sum: f64,
    compensation: f64,
}

impl CompensatedSum {
    pub(crate) fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    pub(crate) fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// The arithmetic mean, with compensated summation.
pub(crate) fn mean_of(sorted: &[f64]) -> f64 {
    let mut s = CompensatedSum::default();
    for &x in sorted {
        s.add(x);
    }
    s.value() / sorted.len() as f64
}

/// The mean of `sample`, exactly [`mean_of`] of its sorted values.
///
/// When every value is an integer and n·max|x| ≤ 2^53, every partial sum
/// is an integer within 2^53, so each compensated addition is exact (its
/// error term is 0) and the compensated sum equals the integer sum: that
/// is summed in integers instead, several times faster, same bits.
fn mean_of_sample(sample: &Sample) -> f64 {
    let x = sample.sorted();
    if sample.is_integral() {
        // Integers of magnitude ≤ 2^53: the casts and the product are exact.
        let largest = sample.min().abs().max(sample.max().abs()) as u128;
        if largest * x.len() as u128 > EXACT_INTEGER as u128 {
            return mean_of(x);
        }
        let sum: i64 = x.iter().map(|&v| v as i64).sum();
        return sum as f64 / x.len() as f64;
    }
    mean_of(x)
}

/// Mean, standard deviation and the two shape statistics of one sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// Arithmetic mean Σx/n.
    pub mean: f64,
    /// Sample standard deviation √(Σ(x − mean)²/(n − 1)) (Bessel's
    /// correction; numpy `std(ddof=1)`). `None` for n = 1, where it is
    /// undefined (as Hyperfine reports no standard deviation for one run);
    /// `Some(0.0)` for a constant sample of two or more values.
    pub sd: Option<f64>,
    /// Adjusted Fisher–Pearson skewness G1 = √(n(n−1))/(n−2) · m3/m2^{3/2}
    /// (Joanes & Gill 1998, "Comparing measures of sample skewness and
    /// kurtosis", The Statistician 47, 183–189; = `scipy.stats.skew(x,
    /// bias=False)`). Needs n ≥ 8 and non-constant values.
    pub skewness: Result<f64, NotApplicable>,
    /// Excess kurtosis G2 = (n−1)/((n−2)(n−3)) · ((n+1)(m4/m2² − 3) + 6)
    /// (Joanes & Gill 1998; = `scipy.stats.kurtosis(x, bias=False)`, 0 for a
    /// normal distribution). Needs n ≥ 8 and non-constant values.
    pub excess_kurtosis: Result<f64, NotApplicable>,
}

/// Standardization data shared with the normality test.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spread {
    /// max |x − mean|, strictly positive.
    pub(crate) scale: f64,
    /// Σ((x − mean)/scale)²: the sum of squares in units of `scale`.
    pub(crate) scaled_sum_sq: f64,
}

impl Moments {
    /// Computes all four in two passes over the sample.
    pub fn of(sample: &Sample) -> Self {
        Self::with_spread(sample).0
    }

    pub(crate) fn with_spread(sample: &Sample) -> (Self, Option<Spread>) {
        let x = sample.sorted();
        let n = x.len();
        let mean = mean_of_sample(sample);
        if sample.is_constant() {
            let shape = if n < SHAPE_MIN_N {
                Err(too_few(n))
            } else {
                Err(NotApplicable::ZeroVariance)
            };
            let moments = Moments {
                mean: x[0],
                sd: (n > 1).then_some(0.0),
                skewness: shape,
                excess_kurtosis: shape,
            };
            return (moments, None);
        }
        // Deviations in units of the largest one lie in [−1, 1]: their
        // powers neither overflow nor underflow to zero.
        let scale = (x[n - 1] - mean).max(mean - x[0]);
        let (mut s2, mut s3, mut s4) = (
            CompensatedSum::default(),
            CompensatedSum::default(),
            CompensatedSum::default(),
        );
        // The powers are computed once per distinct value (measurements
        // repeat values heavily) and added once per value, in order.
        let mut i = 0;
        while i < n {
            let v = x[i];
            let mut end = i + 1;
            while end < n && x[end] == v {
                end += 1;
            }
            let u = (v - mean) / scale;
            let u2 = u * u;
            let (a, b, c) = (u2, u2 * u, u2 * u2);
            for _ in i..end {
                s2.add(a);
                s3.add(b);
                s4.add(c);
            }
            i = end;
        }
        let spread = Spread {
            scale,
            scaled_sum_sq: s2.value(),
        };
        let sd = (n > 1).then(|| scale * (spread.scaled_sum_sq / (n - 1) as f64).sqrt());
        let (skewness, excess_kurtosis) = if n < SHAPE_MIN_N {
            (Err(too_few(n)), Err(too_few(n)))
        } else {
            let nf = n as f64;
            let m2 = spread.scaled_sum_sq / nf;
            let m3 = s3.value() / nf;
            let m4 = s4.value() / nf;
            let g1 = m3 / (m2 * m2.sqrt());
            let g2 = m4 / (m2 * m2) - 3.0;
            let skew = (nf * (nf - 1.0)).sqrt() / (nf - 2.0) * g1;
            let kurt = (nf - 1.0) / ((nf - 2.0) * (nf - 3.0)) * ((nf + 1.0) * g2 + 6.0);
            (Ok(skew), Ok(kurt))
        };
        let moments = Moments {
            mean,
            sd,
            skewness,
            excess_kurtosis,
        };
        (moments, Some(spread))
    }
}

fn too_few(n: usize) -> NotApplicable {
    NotApplicable::TooFewValues {
        n,
        min: SHAPE_MIN_N,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moments(v: &[f64]) -> Moments {
        Moments::of(&Sample::from_slice(v).unwrap())
    }

    #[test]
    fn single_value_has_no_standard_deviation() {
        let m = moments(&[3.5]);
        assert_eq!((m.mean, m.sd), (3.5, None));
        assert_eq!(
            m.skewness,
            Err(NotApplicable::TooFewValues { n: 1, min: 8 })
        );
    }

    #[test]
    fn mean_and_sd_of_a_small_sample() {
        // numpy: mean 5.0, std(ddof=1) = sqrt(32/7)
        let m = moments(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m.mean, 5.0);
        assert!((m.sd.unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-15);
        // scipy.stats.skew(..., bias=False) = 0.8184875533567997
        // scipy.stats.kurtosis(..., bias=False) = 0.940625
        assert!((m.skewness.unwrap() - 0.818_487_553_356_799_7).abs() < 1e-14);
        assert!((m.excess_kurtosis.unwrap() - 0.940_625).abs() < 1e-13);
    }

    #[test]
    fn constant_sample_has_zero_sd_and_no_shape() {
        let m = moments(&[0.1; 10]);
        assert_eq!((m.mean, m.sd), (0.1, Some(0.0)));
        assert_eq!(m.skewness, Err(NotApplicable::ZeroVariance));
        assert_eq!(m.excess_kurtosis, Err(NotApplicable::ZeroVariance));
        let m = moments(&[0.1; 3]);
        assert_eq!(
            m.skewness,
            Err(NotApplicable::TooFewValues { n: 3, min: 8 })
        );
    }

    #[test]
    fn tiny_spread_around_huge_values_keeps_its_shape() {
        // Deviations of 1 around 1e15: naive sums of squares of raw values
        // would lose every digit.
        let v: Vec<f64> = [0.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 9.0]
            .iter()
            .map(|d| 1e15 + d)
            .collect();
        let shifted = moments(&[0.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 9.0]);
        let m = moments(&v);
        assert!((m.sd.unwrap() - shifted.sd.unwrap()).abs() < 1e-12);
        assert!((m.skewness.unwrap() - shifted.skewness.unwrap()).abs() < 1e-12);
    }

    #[test]
    fn integer_means_are_the_compensated_means_bit_for_bit() {
        let mut rng = super::super::rng::SplitMix64::new(3);
        let huge = 9_007_199_254_740_992.0 / 4.0; // 4 of them reach 2^53
        let cases: Vec<Vec<f64>> = vec![
            (0..5000).map(|_| (rng.below(3000) + 900) as f64).collect(),
            (0..777).map(|_| rng.below(100) as f64 - 70.0).collect(),
            vec![huge, huge, huge, huge],
            // Past 2^53 in total: the compensated path decides.
            vec![huge, huge, huge, huge, 1.0, huge, 3.0],
            vec![0.5, 1.0, 2.0],
        ];
        for v in cases {
            let sample = Sample::from_slice(&v).unwrap();
            let mean = mean_of_sample(&sample);
            assert_eq!(mean.to_bits(), mean_of(sample.sorted()).to_bits(), "{v:?}");
            // And the correctly rounded mean, from the exact sum.
            let exact: f64 = v.iter().map(|&x| x as i128).sum::<i128>() as f64;
            if sample.is_integral() && exact.abs() < huge {
                assert_eq!(mean, exact / v.len() as f64);
            }
        }
    }

    #[test]
    fn compensated_sum_recovers_lost_low_order_terms() {
        let mut s = CompensatedSum::default();
        for x in [1e16, 1.0, -1e16, 1.0] {
            s.add(x);
        }
        assert_eq!(s.value(), 2.0);
    }
}

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

    /// Adds `x` `k` times: bit for bit what `k` calls of [`add`] give,
    /// in a few steps per binade the sum and the compensation pass
    /// through instead of `k` (measurements repeat values heavily, and
    /// each value is added once per run).
    ///
    /// While the sum `s` stays within one binade, each `add(x)` adds the
    /// same rounded increment `d` (x rounded to the binade's ulp; a tie
    /// goes to the even result, which is the same increment again once
    /// the sum is even) and the same exact error `x − d` to the
    /// compensation, which in turn, within its own binade, grows by one
    /// constant rounded increment. So as long as both stay in their
    /// binades, m additions are one exact addition of m times the
    /// increment each. Anything else (a zero or subnormal sum, a value
    /// as large as the sum, a tie from an odd sum, a binade's edge) takes
    /// single steps of [`add`].
    ///
    /// [`add`]: CompensatedSum::add
    pub(crate) fn add_repeated(&mut self, x: f64, mut k: u64) {
        if k <= FEW {
            // The definition itself, cheaper than the steps for a few.
            for _ in 0..k {
                self.add(x);
            }
            return;
        }
        while k > 0 {
            let Some((d, m_sum)) = steady_increment(self.sum, x) else {
                self.add(x);
                k -= 1;
                continue;
            };
            // The exact error of each of those additions (both branches
            // of `add` compute it exactly: Fast2Sum).
            let e = x - d;
            let Some((dc, m_comp)) = steady_increment(self.compensation, e) else {
                self.add(x);
                k -= 1;
                continue;
            };
            let m = k.min(m_sum).min(m_comp);
            self.sum = advance(self.sum, d, m);
            self.compensation = advance(self.compensation, dc, m);
            k -= m;
        }
    }

    pub(crate) fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// Repetitions [`CompensatedSum::add_repeated`] adds one at a time (a
/// step costs about as much as eight additions; most values of a short
/// sample occur once).
const FEW: u64 = 8;

/// `s + m·d`, where [`steady_increment`] gave `d` and at least `m` steps
/// for `s`: every partial result is a multiple of the ulp of `s`'s binade
/// inside that binade, so this is exact (the integer count of ulps is
/// formed exactly, then scaled by a power of two).
fn advance(s: f64, d: f64, m: u64) -> f64 {
    if d == 0.0 {
        return s;
    }
    let ulp = binade_ulp(s);
    // |s|/ulp and |d|/ulp are integers below 2^53; so is the result's.
    let units = (s / ulp) as i64 + m as i64 * (d / ulp) as i64;
    units as f64 * ulp
}

/// The ulp of the binade of the normal, non-zero `s` whose ulp is itself
/// normal; `None` otherwise.
fn ulp_of(s: f64) -> Option<f64> {
    let biased = (s.to_bits() >> 52) & 0x7ff;
    (biased > 52 && biased < 0x7ff).then(|| f64::from_bits((biased - 52) << 52))
}

fn binade_ulp(s: f64) -> f64 {
    ulp_of(s).unwrap_or(f64::MIN_POSITIVE)
}

/// For repeated `s ← fl(s + a)` (round to nearest, ties to even) from
/// `s`: the increment `d` each of the next `m` steps adds exactly, and
/// `m ≥ 1` (`u64::MAX` when `d` is 0 for good); `None` when the next step
/// must be taken on its own.
fn steady_increment(s: f64, a: f64) -> Option<(f64, u64)> {
    if a == 0.0 {
        // s + ±0 is s, except −0 + +0 = +0.
        let changes = s == 0.0 && s.is_sign_negative() && a.is_sign_positive();
        return (!changes).then_some((0.0, u64::MAX));
    }
    if s == 0.0 {
        return None;
    }
    let ulp = ulp_of(s)?;
    // Mirror a negative sum: rounding to nearest is symmetric.
    let sign = if s < 0.0 { -1.0 } else { 1.0 };
    // Exact: scaling by a power of two (a quotient too small to be exact
    // only rounds to an increment of 0, which it is).
    let q = sign * a / ulp;
    const LOW: i64 = 1 << 52;
    const HIGH: i64 = 1 << 53;
    if q.abs() >= LOW as f64 {
        return None;
    }
    // In units of the ulp the sum is an integer in [2^52, 2^53).
    let units = (sign * s / ulp) as i64;
    let floor = q.floor();
    let fraction = q - floor; // exact
    let floor = floor as i64;
    let steps_of = if fraction < 0.5 {
        floor
    } else if fraction > 0.5 {
        floor + 1
    } else if units % 2 == 0 {
        // A tie from an even sum: the even result, the same step again.
        if floor % 2 == 0 {
            floor
        } else {
            floor + 1
        }
    } else {
        return None;
    };
    // Each step's exact sum is within half an ulp of its result; results
    // in [2^52 + 1, 2^53 − 1] ulps keep every exact sum in the binade,
    // where the grid is the ulp.
    let m = match steps_of {
        // The sum stays; a power of two would round in the finer binade below.
        0 if units > LOW => u64::MAX,
        0 => 0,
        step if step > 0 => ((HIGH - 1 - units) / step) as u64,
        step => ((units - LOW - 1) / -step) as u64,
    };
    (m > 0).then_some((sign * steps_of as f64 * ulp, m))
}

/// The arithmetic mean, with compensated summation: one addition per
/// value, the definition [`mean_of_sample`] is checked against.
#[cfg(test)]
fn mean_of(sorted: &[f64]) -> f64 {
    let mut s = CompensatedSum::default();
    for &x in sorted {
        s.add(x);
    }
    s.value() / sorted.len() as f64
}

/// The mean of `sample`, exactly `mean_of` (the test's definition) of its sorted values.
///
/// When every value is an integer and n·max|x| ≤ 2^53, every partial sum
/// is an integer within 2^53, so each compensated addition is exact (its
/// error term is 0) and the compensated sum equals the integer sum: that
/// is summed in integers instead, several times faster, same bits.
///
/// Otherwise each run of equal values is added at once
/// ([`CompensatedSum::add_repeated`], the same bits as adding it once per
/// value).
fn mean_of_sample(sample: &Sample) -> f64 {
    let x = sample.sorted();
    if sample.is_integral() {
        // Integers of magnitude ≤ 2^53: the casts and the product are exact.
        let largest = sample.min().abs().max(sample.max().abs()) as u128;
        if largest * x.len() as u128 <= EXACT_INTEGER as u128 {
            // |v|·count ≤ |v|·n ≤ 2^53: exact in i64, as is every partial sum.
            let sum: i64 = sample
                .runs()
                .map(|(v, run)| v as i64 * run.len() as i64)
                .sum();
            return sum as f64 / x.len() as f64;
        }
    }
    let mut s = CompensatedSum::default();
    for (v, run) in sample.runs() {
        s.add_repeated(v, run.len() as u64);
    }
    s.value() / x.len() as f64
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
        // repeat values heavily) and added once per value, in order, a
        // run of equal values at once (the same bits).
        for (v, run) in sample.runs() {
            let u = (v - mean) / scale;
            let u2 = u * u;
            let count = run.len() as u64;
            s2.add_repeated(u2, count);
            s3.add_repeated(u2 * u, count);
            s4.add_repeated(u2 * u2, count);
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

    /// `add` `k` times, the definition `add_repeated` must match.
    fn one_by_one(mut s: CompensatedSum, x: f64, k: u64) -> CompensatedSum {
        for _ in 0..k {
            s.add(x);
        }
        s
    }

    fn same_bits(a: CompensatedSum, b: CompensatedSum) -> bool {
        a.sum.to_bits() == b.sum.to_bits() && a.compensation.to_bits() == b.compensation.to_bits()
    }

    #[test]
    fn repeated_additions_are_single_additions_bit_for_bit() {
        let mut rng = super::super::rng::SplitMix64::new(23);
        // Values as the moments add them (powers of deviations in
        // [−1, 1]), ties (halves of an ulp), zeros, signs that cancel,
        // magnitudes that cross binades up and down.
        let pick = |rng: &mut super::super::rng::SplitMix64| -> f64 {
            let u = rng.uniform() * 2.0 - 1.0;
            match rng.below(9) {
                0 => u,
                1 => u * u,
                2 => u * u * u,
                3 => 0.0,
                4 => (rng.below(2000) as f64 - 1000.0) * 0.5,
                5 => f64::from_bits(rng.next_u64() >> 12) - 0.5, // fine mantissas
                6 => 2f64.powi(rng.below(40) as i32 - 20) * if u < 0.0 { -1.0 } else { 1.0 },
                7 => (rng.below(7) as f64) * 2f64.powi(-53),
                _ => u * 1e-300,
            }
        };
        for case in 0..3000 {
            let mut a = CompensatedSum::default();
            let mut b = CompensatedSum::default();
            let groups = 1 + rng.below(8);
            for _ in 0..groups {
                let x = pick(&mut rng);
                let k = match rng.below(4) {
                    0 => rng.below(3) as u64,
                    1 => rng.below(100) as u64,
                    2 => rng.below(5000) as u64,
                    _ => rng.below(20_000) as u64,
                };
                a = one_by_one(a, x, k);
                b.add_repeated(x, k);
                assert!(same_bits(a, b), "case {case}: {x:e} × {k}: {a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn repeated_additions_handle_the_edges_of_rounding() {
        let two52 = 4_503_599_627_370_496.0;
        let mut starts = vec![];
        for s in [
            1.0,
            two52,
            two52 + 1.0,
            2.0 * two52 - 8.0,
            -two52 - 3.0,
            0.0,
            -0.0,
            1e-310,
        ] {
            for c in [0.0, -0.0, 0.25, -0.5, 1e-17, 3.0 * 2f64.powi(-60)] {
                starts.push((s, c));
            }
        }
        // Ties at several ulps (an odd and an even sum), values of the
        // sum's size, values that cross the binade downwards and past zero.
        let xs = [
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            0.25,
            0.75,
            3.0,
            -3.0,
            1e-300,
            two52,
            -two52,
            1.0,
            0.1,
            -0.1,
            1.0 / 3.0,
        ];
        for &(s, c) in &starts {
            for &x in &xs {
                for k in [1, 2, 3, 10, 1000, 70_000] {
                    let start = CompensatedSum {
                        sum: s,
                        compensation: c,
                    };
                    let mut fast = start;
                    fast.add_repeated(x, k);
                    let slow = one_by_one(start, x, k);
                    assert!(
                        same_bits(fast, slow),
                        "{s} {c} {x} {k}: {fast:?} vs {slow:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn moments_are_those_of_one_addition_per_value() {
        // The definition: every value's powers added one at a time.
        let mut rng = super::super::rng::SplitMix64::new(41);
        for (n, spread, fraction) in [(5000, 300, 1.0), (20_000, 40, 0.5), (3000, 3000, 0.1)] {
            let v: Vec<f64> = (0..n)
                .map(|_| 1000.0 + rng.below(spread) as f64 * fraction)
                .collect();
            let sample = Sample::from_slice(&v).unwrap();
            let (m, spread) = Moments::with_spread(&sample);
            let x = sample.sorted();
            let mut mean = CompensatedSum::default();
            x.iter().for_each(|&v| mean.add(v));
            assert_eq!(m.mean.to_bits(), (mean.value() / n as f64).to_bits());
            let scale = (x[n - 1] - m.mean).max(m.mean - x[0]);
            let (mut s2, mut s3, mut s4) = Default::default();
            for &v in x {
                let u = (v - m.mean) / scale;
                let u2 = u * u;
                CompensatedSum::add(&mut s2, u2);
                CompensatedSum::add(&mut s3, u2 * u);
                CompensatedSum::add(&mut s4, u2 * u2);
            }
            let spread = spread.unwrap();
            assert_eq!(spread.scaled_sum_sq.to_bits(), s2.value().to_bits());
            let nf = n as f64;
            let m2 = s2.value() / nf;
            let g1 = s3.value() / nf / (m2 * m2.sqrt());
            let skew = (nf * (nf - 1.0)).sqrt() / (nf - 2.0) * g1;
            assert_eq!(m.skewness.unwrap().to_bits(), skew.to_bits());
            let g2 = s4.value() / nf / (m2 * m2) - 3.0;
            let kurt = (nf - 1.0) / ((nf - 2.0) * (nf - 3.0)) * ((nf + 1.0) * g2 + 6.0);
            assert_eq!(m.excess_kurtosis.unwrap().to_bits(), kurt.to_bits());
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

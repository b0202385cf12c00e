//! The Mann–Kendall test for a trend against time.
//!
//! Random order protects a comparison from drift, but does not say whether
//! the machine changed during the experiment. The Mann–Kendall test (Mann
//! 1945, "Nonparametric tests against trend", Econometrica 13, 245–259;
//! Kendall 1975, "Rank Correlation Methods", 4th ed.) answers that for one
//! command: it is Kendall's rank correlation τ between the run order and
//! the values, so it needs no model of the noise and is not moved by a few
//! extreme runs. A monotone drift (a machine warming up, throttling, a
//! cache filling) shows as τ away from 0.
//!
//! Definitions, for values y₁ … yₙ in time order:
//!
//! * S = Σᵢ<ⱼ sign(yⱼ − yᵢ): positive when later runs take longer.
//! * Ties in y (tick-quantised times) get Kendall's correction of the null
//!   variance: Var(S) = [n(n−1)(2n+5) − Σ t(t−1)(2t+5)]/18, over the
//!   groups of t equal values; the time order has no ties.
//! * z = S/√Var(S) without continuity correction, and the two-sided
//!   p-value 2·(1 − Φ(|z|)): the normal approximation, used from n = 10
//!   on (Kendall 1975 finds it adequate there), below which the test is
//!   not applied. This is `scipy.stats.kendalltau(order, y,
//!   method="asymptotic")`, against which `tools/golden_diagnostics.py`
//!   checks it.
//! * τ_b = S/√(n₀(n₀ − n₂)) with n₀ = n(n−1)/2 and n₂ = Σ t(t−1)/2.
//!
//! S is computed in O(n log n) by counting inversions with a merge sort
//! (Knight 1966), never by visiting all n(n−1)/2 pairs.

use super::normal::normal_cdf;
use super::not_applicable::NotApplicable;
use super::series::Series;

/// Smallest n for which the test is applied.
pub const TREND_MIN_N: usize = 10;

/// The outcome of the Mann–Kendall test on one series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannKendall {
    /// Values in the series.
    pub n: usize,
    /// Kendall's S: concordant minus discordant pairs (time, value).
    pub s: i64,
    /// Kendall's τ_b between time and value, in [−1, 1].
    pub tau: f64,
    /// The standardized statistic S/√Var(S).
    pub z: f64,
    /// Two-sided p-value of "no monotone trend" (normal approximation).
    pub p_value: f64,
}

impl MannKendall {
    /// Later values tend to be larger (for times: the command slowed down).
    pub fn increasing(&self) -> bool {
        self.s > 0
    }
}

/// Counts the pairs i < j with v[i] > v[j], sorting `v` (merge sort).
fn inversions(v: &mut [f64]) -> u64 {
    let mut buffer = v.to_vec();
    sort_counting(v, &mut buffer)
}

/// Sorts `v` ascending, returning its strict inversions; `buffer` has v's
/// length.
fn sort_counting(v: &mut [f64], buffer: &mut [f64]) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut count = {
        let (left, right) = v.split_at_mut(mid);
        let (bl, br) = buffer.split_at_mut(mid);
        sort_counting(left, bl) + sort_counting(right, br)
    };
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < mid && j < n {
        // Taking the left value on equality keeps ties out of the count.
        if v[i] <= v[j] {
            buffer[k] = v[i];
            i += 1;
        } else {
            // Every value still waiting on the left is larger than v[j].
            count += (mid - i) as u64;
            buffer[k] = v[j];
            j += 1;
        }
        k += 1;
    }
    buffer[k..k + (mid - i)].copy_from_slice(&v[i..mid]);
    k += mid - i;
    buffer[k..n].copy_from_slice(&v[j..n]);
    v.copy_from_slice(&buffer[..n]);
    count
}

/// The Mann–Kendall test of `series` (values in time order).
///
/// Errors: [`NotApplicable::TooFewValues`] below [`TREND_MIN_N`] values,
/// [`NotApplicable::ZeroVariance`] when all values are equal (no ranks to
/// correlate).
pub fn mann_kendall(series: &Series) -> Result<MannKendall, NotApplicable> {
    let n = series.len();
    if n < TREND_MIN_N {
        return Err(NotApplicable::TooFewValues {
            n,
            min: TREND_MIN_N,
        });
    }
    let mut sorted = series.values().to_vec();
    let discordant = inversions(&mut sorted);
    // Tie groups of the sorted values: pairs tied (n₂) and the variance
    // correction Σ t(t−1)(2t+5), both in exact integers.
    let (mut tied_pairs, mut correction) = (0u64, 0u128);
    let mut start = 0;
    for i in 1..=n {
        if i == n || sorted[i] != sorted[start] {
            let t = (i - start) as u64;
            tied_pairs += t * (t - 1) / 2;
            correction += u128::from(t * (t - 1)) * u128::from(2 * t + 5);
            start = i;
        }
    }
    let n64 = n as u64;
    let pairs = n64 * (n64 - 1) / 2;
    if tied_pairs == pairs {
        return Err(NotApplicable::ZeroVariance);
    }
    // concordant = pairs − tied − discordant; S = concordant − discordant.
    let s = (pairs - tied_pairs) as i64 - 2 * discordant as i64;
    let total = u128::from(n64 * (n64 - 1)) * u128::from(2 * n64 + 5);
    let variance = (total - correction) as f64 / 18.0;
    let z = s as f64 / variance.sqrt();
    let p_value = (2.0 * normal_cdf(-z.abs())).min(1.0);
    let tau = s as f64 / ((pairs as f64) * ((pairs - tied_pairs) as f64)).sqrt();
    Ok(MannKendall {
        n,
        s,
        tau,
        z,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(v: &[f64]) -> Series {
        Series::new(v.to_vec()).unwrap()
    }

    /// S by its definition, over all pairs.
    fn s_by_pairs(v: &[f64]) -> i64 {
        let mut s = 0;
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                s += (v[j] - v[i]).signum() as i64 * i64::from(v[j] != v[i]);
            }
        }
        s
    }

    #[test]
    fn s_matches_the_pairwise_definition() {
        let mut state = 7u64;
        for n in [10, 11, 17, 64, 101] {
            let v: Vec<f64> = (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Few distinct values: many ties.
                    ((state >> 33) % 7) as f64
                })
                .collect();
            let mk = mann_kendall(&series(&v)).unwrap();
            assert_eq!(mk.s, s_by_pairs(&v), "n = {n}");
        }
    }

    #[test]
    fn monotone_series_have_extreme_tau() {
        let up: Vec<f64> = (0..20).map(f64::from).collect();
        let mk = mann_kendall(&series(&up)).unwrap();
        assert_eq!((mk.s, mk.tau), (190, 1.0));
        assert!(mk.increasing() && mk.p_value < 1e-6);
        let down: Vec<f64> = up.iter().rev().copied().collect();
        let mk = mann_kendall(&series(&down)).unwrap();
        assert_eq!((mk.s, mk.tau), (-190, -1.0));
        assert!(!mk.increasing());
    }

    #[test]
    fn small_or_constant_series_are_not_tested() {
        assert_eq!(
            mann_kendall(&series(&[1.0; 9])),
            Err(NotApplicable::TooFewValues { n: 9, min: 10 })
        );
        assert_eq!(
            mann_kendall(&series(&[3.0; 12])),
            Err(NotApplicable::ZeroVariance)
        );
    }

    #[test]
    fn p_value_is_one_without_any_trend() {
        // Symmetric: S = 0 exactly.
        let v = [1.0, 5.0, 2.0, 4.0, 3.0, 3.0, 4.0, 2.0, 5.0, 1.0];
        let mk = mann_kendall(&series(&v)).unwrap();
        assert_eq!((mk.s, mk.z, mk.p_value), (0, 0.0, 1.0));
    }
}

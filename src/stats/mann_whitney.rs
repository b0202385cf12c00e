//! The Mann–Whitney U test (Wilcoxon rank-sum test), two-sided.
//!
//! Asks whether one command's runs tend to be slower than another's
//! without assuming any distribution (Mann & Whitney 1947, "On a test of
//! whether one of two random variables is stochastically larger than the
//! other", Ann. Math. Statist. 18, 50–60). Both samples arrive sorted, so
//! U, the mid-rank sum and the tie sizes come from one merge in
//! O(n1 + n2) — C BestGuess formed all n1·n2 differences instead.
//!
//! p-value: exact null distribution when both samples have fewer than 50
//! values and the pooled sample has no ties (= scipy
//! `mannwhitneyu(method="exact")`, = R `wilcox.test(exact = TRUE)`);
//! otherwise the normal approximation with tie correction and continuity
//! correction (= scipy `method="asymptotic", use_continuity=True`, = R's
//! default with `correct = TRUE`).

use super::normal::normal_sf;
use super::sample::Sample;
use super::u_distribution::UDistribution;

/// How a p-value or confidence interval was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// From the exact permutation distribution of U (small samples, no ties).
    Exact,
    /// From the normal approximation to the distribution of U.
    Asymptotic,
}

/// Result of the two-sided Mann–Whitney test of `best` against `other`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U of the best sample: the number of pairs (b, o) with b > o, plus ½
    /// per tie (= scipy `mannwhitneyu(best, other).statistic`).
    /// U(other) = n1·n2 − U.
    pub u: f64,
    /// W, the rank sum of the best sample in the pooled sample, ties given
    /// their mid-rank: W = U + n1(n1 + 1)/2.
    pub w: f64,
    /// Two-sided p-value, within [0, 1].
    pub p_value: f64,
    /// Whether `p_value` is exact or asymptotic.
    pub method: Method,
}

/// What one merge of the two sorted samples yields.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PooledRanks {
    /// 2·U of the first sample (an integer; U may be a half-integer).
    pub(crate) twice_u: u128,
    /// Σ(t³ − t) over groups of t tied values in the pooled sample.
    pub(crate) tie_term: f64,
    /// Whether any value occurs more than once in the pooled sample.
    pub(crate) has_ties: bool,
}

/// Merges sorted `x` and `y`, counting pairs x > y (ties ½) and tie groups.
pub(crate) fn pooled_ranks(x: &[f64], y: &[f64]) -> PooledRanks {
    let (mut i, mut j) = (0, 0);
    let mut twice_u = 0u128;
    let mut tie_term = 0u128;
    while i < x.len() || j < y.len() {
        let v = match (x.get(i), y.get(j)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&a), None) => a,
            (None, Some(&b)) => b,
            (None, None) => break,
        };
        let below_in_y = j as u128;
        let start_i = i;
        while i < x.len() && x[i] == v {
            i += 1;
        }
        let start_j = j;
        while j < y.len() && y[j] == v {
            j += 1;
        }
        let (a, b) = ((i - start_i) as u128, (j - start_j) as u128);
        // Each of the a values beats every smaller y and ties with b of them.
        twice_u += a * (2 * below_in_y + b);
        let t = a + b;
        tie_term += t * t * t - t;
    }
    PooledRanks {
        twice_u,
        tie_term: tie_term as f64,
        has_ties: tie_term > 0,
    }
}

/// The exact null distribution when it applies (both samples smaller than
/// [`super::u_distribution::EXACT_LIMIT`], no ties), else `None`.
pub(crate) fn exact_distribution(
    n1: usize,
    n2: usize,
    ranks: &PooledRanks,
) -> Option<UDistribution> {
    if ranks.has_ties {
        None
    } else {
        UDistribution::new(n1, n2)
    }
}

/// Two-sided Mann–Whitney U test of `best` against `other` (module docs).
pub fn mann_whitney(best: &Sample, other: &Sample) -> MannWhitney {
    let ranks = pooled_ranks(best.sorted(), other.sorted());
    let exact = exact_distribution(best.len(), other.len(), &ranks);
    mann_whitney_with(best.len(), other.len(), &ranks, exact.as_ref())
}

pub(crate) fn mann_whitney_with(
    n1: usize,
    n2: usize,
    ranks: &PooledRanks,
    exact: Option<&UDistribution>,
) -> MannWhitney {
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let u = ranks.twice_u as f64 / 2.0;
    let w = u + n1f * (n1f + 1.0) / 2.0;
    let (p_value, method) = match exact {
        Some(distribution) => {
            // Without ties 2U is even; the smaller of U and n1·n2 − U.
            let u = (ranks.twice_u / 2) as usize;
            let u_min = u.min(n1 * n2 - u);
            (2.0 * distribution.cdf(u_min), Method::Exact)
        }
        None => (
            asymptotic_p(n1f, n2f, u, ranks.tie_term),
            Method::Asymptotic,
        ),
    };
    MannWhitney {
        u,
        w,
        p_value: p_value.clamp(0.0, 1.0),
        method,
    }
}

/// Normal approximation: z = (max(U, n1n2 − U) − n1n2/2 − ½)/σ with the
/// tie-corrected σ² = n1n2/12 · ((n + 1) − Σ(t³ − t)/(n(n − 1))),
/// p = 2(1 − Φ(z)). When every value is tied σ = 0 and U = n1n2/2 exactly:
/// there is no evidence of a difference, p = 1.
fn asymptotic_p(n1: f64, n2: f64, u: f64, tie_term: f64) -> f64 {
    let n = n1 + n2;
    let mean = n1 * n2 / 2.0;
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if variance <= 0.0 {
        return 1.0;
    }
    let z = (u.max(n1 * n2 - u) - mean - 0.5) / variance.sqrt();
    2.0 * normal_sf(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mw(x: &[f64], y: &[f64]) -> MannWhitney {
        mann_whitney(
            &Sample::from_slice(x).unwrap(),
            &Sample::from_slice(y).unwrap(),
        )
    }

    #[test]
    fn scipy_documentation_example() {
        // scipy.stats.mannwhitneyu docs: males vs females, U = 17,
        // exact p = 0.1111111111111111, asymptotic p = 0.11134688653314041.
        let males = [19.0, 22.0, 16.0, 29.0, 24.0];
        let females = [20.0, 11.0, 17.0, 12.0];
        let r = mw(&males, &females);
        assert_eq!((r.u, r.w, r.method), (17.0, 32.0, Method::Exact));
        assert!((r.p_value - 1.0 / 9.0).abs() < 1e-16);
        assert!((asymptotic_p(5.0, 4.0, 17.0, 0.0) - 0.111_346_886_533_140_41).abs() < 1e-15);
    }

    #[test]
    fn ties_count_half_and_force_the_asymptotic_method() {
        let r = mw(&[1.0, 2.0, 2.0], &[2.0, 3.0]);
        // Pairs best > other: none; ties: (2, 2) twice → U = 1.
        assert_eq!(r.u, 1.0);
        assert_eq!(r.method, Method::Asymptotic);
        let ranks = pooled_ranks(&[1.0, 2.0, 2.0], &[2.0, 3.0]);
        assert_eq!(ranks.tie_term, 24.0); // one group of 3: 27 − 3
    }

    #[test]
    fn identical_constant_samples_give_p_one() {
        let r = mw(&[5.0; 60], &[5.0; 60]);
        assert_eq!(
            (r.u, r.p_value, r.method),
            (1800.0, 1.0, Method::Asymptotic)
        );
    }

    #[test]
    fn fifty_values_switch_to_the_asymptotic_method() {
        let x: Vec<f64> = (0..50).map(f64::from).collect();
        let y: Vec<f64> = (0..49).map(|i| f64::from(i) + 0.5).collect();
        assert_eq!(mw(&x, &y).method, Method::Asymptotic);
        assert_eq!(mw(&x[..49], &y).method, Method::Exact);
    }
}

//! Hodges–Lehmann shift and its distribution-free confidence interval.
//!
//! "How much slower" is answered by the Hodges–Lehmann estimator Δ, the
//! median of all pairwise differences other − best (Hodges & Lehmann 1963,
//! "Estimates of location based on rank tests", Ann. Math. Statist. 34,
//! 598–611). Its confidence interval is the one that inverts the
//! Mann–Whitney test: a pair of order statistics of the same differences
//! (Lehmann 1975, "Nonparametrics: statistical methods based on ranks",
//! §2.6; Hollander & Wolfe 1999, §4.3). Because the order statistics are
//! integers apart, the interval's confidence is not exactly the nominal
//! one, so the level actually achieved is reported with it; with tied
//! values (tick-quantised times) that level comes from the conditional
//! distribution given the tie pattern ([`super::conditional`]). All order
//! statistics come from [`super::select`]; the n1·n2 differences are never
//! formed.

use thiserror::Error;

use super::conditional::{
    accepts_estimate, choose_ranks, gap_ceiling, invert, level_of, normal_level, normal_rank,
    two_sample_law, two_sample_laws, Candidates, Laws, ScaleRanks, TailLaw, TwoSampleTies,
};
use super::mann_whitney::{exact_distribution, pooled_ranks, Method, PooledRanks};
use super::sample::Sample;
use super::select::{Around, Differences};
use super::u_distribution::{UDistribution, EXACT_LIMIT};

/// `alpha` is not a usable significance level.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("alpha must be a number strictly between 0 and 1, such as 0.05, but is {0}")]
pub struct InvalidAlpha(pub f64);

/// A significance level α, validated to lie strictly between 0 and 1.
///
/// A confidence interval at level 1 − α can then always be formed, so the
/// interval functions need no error path.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Alpha(f64);

impl Alpha {
    /// Validates 0 < alpha < 1.
    pub fn new(alpha: f64) -> Result<Self, InvalidAlpha> {
        if alpha > 0.0 && alpha < 1.0 {
            Ok(Alpha(alpha))
        } else {
            Err(InvalidAlpha(alpha))
        }
    }

    /// The level as a number.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A confidence interval for the shift Δ (other − best).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShiftInterval {
    /// Lower end: the order statistic d(`low_rank`) of the differences.
    pub low: f64,
    /// Upper end: the order statistic d(`high_rank`).
    pub high: f64,
    /// 1-based rank of `low` among the n1·n2 sorted differences.
    pub low_rank: u128,
    /// 1-based rank of `high` (= n1·n2 + 1 − `low_rank`).
    pub high_rank: u128,
    /// The confidence asked for, 1 − α.
    pub nominal_confidence: f64,
    /// The confidence this pair of order statistics actually has (≥ the
    /// nominal one unless the samples are too small to reach it); see
    /// [`shift_interval`] for the exact formula of each method.
    pub achieved_confidence: f64,
    /// Exact (small samples without ties) or asymptotic.
    pub method: Method,
    /// Whether the test, with the tie pattern at the estimate, accepts
    /// the estimate itself (always without ties). When it does not, no
    /// shift makes the samples alike under their ties (one on two ticks,
    /// the other between them): they differ, though not by a shift, and
    /// this interval does not show that they are equivalent.
    pub fits: bool,
}

/// Number of pairwise differences, n1·n2.
pub fn pairwise_difference_count(best: &Sample, other: &Sample) -> u128 {
    best.len() as u128 * other.len() as u128
}

/// The k-th smallest (1-based) of the n1·n2 differences `o − b` (o in
/// other, b in best), by selection in O((n1 + n2) log) time and
/// O(n1 + n2) memory. `None` unless 1 ≤ k ≤ n1·n2.
pub fn kth_pairwise_difference(best: &Sample, other: &Sample, k: u128) -> Option<f64> {
    let m = pairwise_difference_count(best, other);
    (1..=m)
        .contains(&k)
        .then(|| Differences::new(best.sorted(), other.sorted()).kth(k))
}

/// Hodges–Lehmann shift Δ: the median of all differences other − best
/// (the mean of the two middle ones when n1·n2 is even; = `numpy.median(
/// numpy.subtract.outer(other, best))`). Positive when `other` is slower.
pub fn hodges_lehmann(best: &Sample, other: &Sample) -> f64 {
    hodges_lehmann_with(&Differences::new(best.sorted(), other.sorted()))
}

pub(crate) fn hodges_lehmann_with(differences: &Differences) -> f64 {
    let (a, b) = differences.middle();
    (a + b) / 2.0
}

/// Confidence interval for Δ at level 1 − α from the order statistics
/// d(1) ≤ … ≤ d(M) of the M = n1·n2 differences other − best.
///
/// * Exact (both samples below 50 values, no ties in the pooled sample),
///   as R's `wilcox.test(other, best, conf.int = TRUE)`: k = the α/2
///   quantile of the exact null distribution of U (R's `qwilcox`), at least
///   1; interval [d(k), d(M − k + 1)]; achieved confidence
///   1 − 2·P(U ≤ k − 1).
/// * Asymptotic without ties: σ² = M(N + 1)/12, N = n1 + n2,
///   k = max(0, ⌊M/2 − z·σ⌋) with z = Φ⁻¹(1 − α/2); interval
///   [d(k + 1), d(M − k)]; achieved confidence 1 − 2·Φ((k − M/2)/σ), the
///   normal approximation evaluated at the integer k actually used.
/// * With ties in the pooled sample (tick-quantised times): each end's
///   rank from the conditional distribution given the tie pattern of
///   {best} ∪ {other − δ̂} at the middle difference(s) δ̂
///   (`src/stats/conditional.rs`): the lower end d(k) misses when
///   #{d ≤ δ} ≤ k − 1, the upper d(M + 1 − k′) when #{d < δ} ≥ M − k′ + 1;
///   each k the largest whose miss probability is below α/2, exact by
///   dynamic programming when both samples are below 50 values, else
///   normal with the exact conditional mean and variance. Those ranks
///   start a walk that inverts the test: each end becomes the outermost
///   distinct difference v near them at which the test, with the tie
///   pattern of {best} ∪ {other − v} itself, does not reject at α/2
///   (`conditional::invert`). The achieved confidence is 1 minus
///   both miss probabilities of the test at δ̂: the confidence the interval
///   has when the truth ties as the estimate does, not the untied
///   formula's, which with lattice data understates it (the interval
///   covered 98–100 % while reporting 95 %); with exact laws (few runs)
///   no higher than the test's in a gap beside the estimate
///   (`conditional::gap_ceiling`). A scale whose test rejects its own
///   estimate, a sample of one value, or an inversion spanning less than
///   half the ranks of the interval without a shift model (`too_narrow`)
///   takes the fallback instead: the wider of the tie-corrected normal
///   interval and that one (`wider`, `free_sigma`).
pub fn shift_interval(best: &Sample, other: &Sample, alpha: Alpha) -> ShiftInterval {
    let ranks = pooled_ranks(best.sorted(), other.sorted());
    let exact = exact_distribution(best.len(), other.len(), &ranks);
    let differences = Differences::new(best.sorted(), other.sorted());
    let middle = differences.middle();
    shift_interval_with(
        &[(&differences, middle)],
        best.len(),
        other.len(),
        alpha,
        exact.as_ref(),
        &ranks,
        one_value(best, other),
    )
    .0
}

/// The interval for every scale in `scales` (the
/// differences and, for the ratio, the differences of the logarithms,
/// each with its middle pair; see [`shift_interval`]): without ties the
/// same ranks for all; with ties each scale's inverted ranks, starting
/// from the ranks every scale's pattern at the estimate allows, and the
/// lowest confidence. Returns the first scale's interval and every
/// scale's ranks.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shift_interval_with(
    scales: &[(&Differences, (f64, f64))],
    n1: usize,
    n2: usize,
    alpha: Alpha,
    exact: Option<&UDistribution>,
    ranks: &PooledRanks,
    one_value: bool,
) -> (ShiftInterval, Vec<ScaleRanks>) {
    let differences = scales[0].0;
    let m = differences.count();
    let alpha = alpha.get();
    let (per_scale, achieved_confidence, method) = if ranks.has_ties {
        let small = n1 < EXACT_LIMIT && n2 < EXACT_LIMIT;
        let tested = |d| TwoSample {
            differences: d,
            n1: n1 as u64,
            n2: n2 as u64,
            exact: small,
            tail: alpha / 2.0,
        };
        let tests: Vec<(usize, &Differences, f64)> = (scales.iter().enumerate())
            .flat_map(|(s, &(d, (a, b)))| {
                let deltas = if a == b { vec![a] } else { vec![a, b] };
                deltas.into_iter().map(move |delta| (s, d, delta))
            })
            .collect();
        let laws: Vec<Laws> = (tests.iter())
            .map(|&(_, d, delta)| tested(d).laws(delta))
            .collect();
        // A scale whose test, with the tie pattern at its own estimate,
        // rejects the estimate: the samples are no shift of each other
        // under their ties (one on two ticks, the other between them), so
        // the inversion finds no interval around it and would shrink to
        // the estimate with the confidence of its middle ranks. Then the
        // fallback ([`wider`]).
        // A sample of one value (system time 0, a constant RSS) sits in one
        // tie group at every δ, and the conditional law there is all but
        // a point: the inversion gave `[14, 14] μs at 100 %` for runs
        // spread over 27 μs. It is no shift model either.
        let accepted: Vec<bool> = (0..scales.len())
            .map(|s| {
                (tests.iter().zip(&laws))
                    .filter(|((t, _, _), _)| *t == s)
                    .any(|(&(_, d, delta), l)| accepts_estimate(&tested(d), delta, l, alpha))
            })
            .collect();
        // A scale keeps its inversion when it fits and neither sample is
        // of one value, and when its interval is not far narrower than the
        // data allow without a shift model ([`too_narrow`]).
        let (low, high, _) = choose_ranks(m, &laws, alpha);
        let free: Vec<Option<f64>> = (scales.iter())
            .map(|&(d, middle)| free_sigma(d, middle))
            .collect();
        let inverted: Vec<Option<(u128, u128)>> = (scales.iter().zip(&accepted))
            .map(|(&(d, _), &fits)| {
                (fits && !one_value).then(|| invert(&tested(d), (low, high), alpha))
            })
            .collect();
        // The others: the wider of the tie-corrected normal approximation
        // (R's `wilcox.test`) and the interval without a shift model, at
        // the lower of their levels there (`Some` level: a fallback).
        let tie_sigma = tie_corrected_sigma(m, n1, n2, ranks.tie_term);
        let chosen: Vec<((u128, u128), Option<f64>)> = (inverted.iter().zip(&free))
            .map(|(&inverted, &sigma)| {
                match inverted.filter(|&r| !too_narrow(m, r, sigma, alpha)) {
                    Some(ranks) => (ranks, None),
                    None => {
                        let (k, level) = wider(m, tie_sigma, sigma, alpha);
                        ((k, m + 1 - k), Some(level))
                    }
                }
            })
            .collect();
        let inverts: Vec<bool> = chosen.iter().map(|(_, f)| f.is_none()).collect();
        // The tests' confidence at the middle difference(s), each with
        // its own pattern: from the laws just found (of the scales that
        // keep their inversion; the others have their fallback's).
        // With exact laws, no higher than a gap beside the estimate allows
        // ([`gap_ceiling`]).
        let ceiling = (scales.iter().zip(&inverts))
            .filter(|(_, &inverts)| small && inverts)
            .map(|(&(d, middle), _)| gap_ceiling(&tested(d), middle, alpha))
            .fold(1.0, f64::min);
        let achieved = (tests.iter().zip(&laws))
            .filter(|((s, _, _), _)| inverts[*s])
            .map(|(_, l)| level_of(m, l, alpha))
            .chain(chosen.iter().filter_map(|&(_, level)| level))
            .fold(1.0, f64::min)
            .min(ceiling);
        let per_scale = (chosen.iter().zip(&accepted))
            .map(|(&(ranks, _), &fits)| ScaleRanks { ranks, fits })
            .collect();
        let method = if small && inverts[0] {
            Method::Exact
        } else {
            Method::Asymptotic
        };
        (per_scale, achieved, method)
    } else {
        let (low, achieved, method) = untied_rank(m, n1, n2, alpha, exact);
        let low = low.min(m.div_ceil(2));
        let untied = ScaleRanks {
            ranks: (low, m + 1 - low),
            fits: true,
        };
        (vec![untied; scales.len()], achieved, method)
    };
    finish(differences, per_scale, alpha, achieved_confidence, method)
}

/// The first scale's interval at its ranks, and every scale's ranks.
fn finish(
    differences: &Differences,
    per_scale: Vec<ScaleRanks>,
    alpha: f64,
    achieved_confidence: f64,
    method: Method,
) -> (ShiftInterval, Vec<ScaleRanks>) {
    let (low_rank, high_rank) = per_scale[0].ranks;
    (
        ShiftInterval {
            low: differences.kth(low_rank),
            high: differences.kth(high_rank),
            low_rank,
            high_rank,
            nominal_confidence: 1.0 - alpha,
            achieved_confidence,
            method,
            fits: per_scale[0].fits,
        },
        per_scale,
    )
}

/// Whether one sample (of two with ties) holds a single value and the
/// other more (both of one value: every method gives the one difference).
pub(crate) fn one_value(best: &Sample, other: &Sample) -> bool {
    (best.min() == best.max()) != (other.min() == other.max())
}

/// The asymptotic rank of the lower end with the tie-corrected variance
/// ([`tie_corrected_sigma`]), and its achieved confidence (with no ties,
/// [`untied_rank`]'s asymptotic case).
fn tie_corrected_rank(m: u128, n1: usize, n2: usize, alpha: f64, tie_term: f64) -> (u128, f64) {
    normal_rank(m, tie_corrected_sigma(m, n1, n2, tie_term), alpha)
}

/// The sd of the count of differences below the shift under the shift
/// model, tie-corrected: σ² = M/12·[(N + 1) − Σ(t³ − t)/(N(N − 1))] of
/// the pooled sample (untied when that is not positive).
fn tie_corrected_sigma(m: u128, n1: usize, n2: usize, tie_term: f64) -> f64 {
    let (mf, n) = (m as f64, (n1 + n2) as f64);
    let corrected = mf / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if corrected > 0.0 {
        corrected.sqrt()
    } else {
        (mf / 12.0 * (n + 1.0)).sqrt()
    }
}

/// The sd of the count of differences below the estimate (the mean of
/// the middle pair) without a shift model: M·√(var p/n1 + var q/n2) from
/// the two samples' placements there (`Differences::placement_variances`;
/// the variance of a two-sample U-statistic, as DeLong et al. 1988 and
/// Brunner & Munzel 2000 estimate it). The interval from it,
/// [D(k), D(M + 1 − k)] with k − 1 = ⌊M/2 − z·σ⌋, estimates the median
/// of the differences of the two distributions whatever their shapes
/// (for a sample of one value c: the median of the other minus c, with
/// the sign test's width). `None` without spread to measure.
fn free_sigma(d: &Differences, middle: (f64, f64)) -> Option<f64> {
    let (a, b) = middle;
    let estimate = a + (b - a) / 2.0;
    let (var_p, var_q) = d.placement_variances(estimate)?;
    let (n1, n2) = d.sample_sizes();
    let sigma = d.count() as f64 * (var_p / n1 as f64 + var_q / n2 as f64).sqrt();
    (sigma.is_finite() && sigma > 0.0).then_some(sigma)
}

/// Whether an inverted interval's ranks span less than half the ranks of
/// the interval without a shift model (`free`, [`free_sigma`]): the
/// conditional test's ties then claim a precision the data do not show
/// (decision, DESIGN.md, "Ties": 29 runs at 100 μs and one at 101 against
/// runs spread over 180 μs gave `[19, 24] μs` at 95.07 %, where the
/// median of the other's runs alone is known to ±27 μs). Where the
/// inversion is about as wide as the classic interval the rule does not
/// fire: a placement variance is at most about ¼ where the shift model's
/// is 1/12, so the two widths are within a factor of about √3 (below 2
/// from 3 runs each on).
fn too_narrow(m: u128, ranks: (u128, u128), free: Option<f64>, alpha: f64) -> bool {
    let Some(sigma) = free else {
        return false;
    };
    let k = normal_rank(m, sigma, alpha).0.min(m.div_ceil(2));
    let free_span = (m + 1).saturating_sub(2 * k);
    2 * ranks.1.saturating_sub(ranks.0) < free_span
}

/// The fallback interval's lower rank and level: the wider of the
/// tie-corrected normal approximation's (`tie_sigma`) and the one without
/// a shift model (`free`), at the lower of the two levels at that rank.
fn wider(m: u128, tie_sigma: f64, free: Option<f64>, alpha: f64) -> (u128, f64) {
    let sigmas = [Some(tie_sigma), free];
    let k = (sigmas.iter().flatten())
        .map(|&sigma| normal_rank(m, sigma, alpha).0)
        .min()
        .unwrap_or(1)
        .clamp(1, m.div_ceil(2).max(1));
    let level = (sigmas.iter().flatten())
        .map(|&sigma| normal_level(m, sigma, k))
        .fold(1.0, f64::min);
    (k, level)
}

/// The pairwise differences as candidates for the inverted interval: the
/// tie pattern at v is that of {x} ∪ {y − v}.
struct TwoSample<'a> {
    differences: &'a Differences,
    n1: u64,
    n2: u64,
    exact: bool,
    tail: f64,
}

impl Candidates for TwoSample<'_> {
    fn count(&self) -> u128 {
        self.differences.count()
    }
    fn sweep(&self) -> usize {
        self.differences.sweep()
    }
    fn kth(&self, k: u128) -> f64 {
        self.differences.kth(k)
    }
    fn around(&self, v: f64) -> Around {
        self.differences.around(v)
    }
    fn laws(&self, v: f64) -> Laws {
        two_sample_laws(&self.ties(&self.differences.pooled_groups(v)))
    }
    fn law(&self, v: f64, low_side: bool) -> TailLaw {
        two_sample_law(&self.ties(&self.differences.pooled_groups(v)), low_side)
    }
}

impl TwoSample<'_> {
    /// The question a law answers, for the pooled groups at a value.
    fn ties<'a>(&self, sizes: &'a [u64]) -> TwoSampleTies<'a> {
        TwoSampleTies {
            sizes,
            m: self.n1,
            n: self.n2,
            exact: self.exact,
            tail: self.tail,
        }
    }
}

/// The lower rank, achieved confidence and method without ties.
fn untied_rank(
    m: u128,
    n1: usize,
    n2: usize,
    alpha: f64,
    exact: Option<&UDistribution>,
) -> (u128, f64, Method) {
    match exact {
        Some(distribution) => {
            // qwilcox(α/2) ≤ ⌊M/2⌋ because P(U ≤ ⌊M/2⌋) ≥ ½ > α/2, so
            // k ≤ M − k + 1 always.
            let k = distribution.quantile(alpha / 2.0).max(1);
            let achieved = 1.0 - 2.0 * distribution.cdf(k - 1);
            (k as u128, achieved, Method::Exact)
        }
        None => {
            // The tie-corrected rank without ties: σ² = M(N + 1)/12.
            let (k, achieved) = tie_corrected_rank(m, n1, n2, alpha, 0.0);
            (k, achieved, Method::Asymptotic)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::normal::normal_cdf;
    use super::*;

    fn sample(v: &[f64]) -> Sample {
        Sample::from_slice(v).unwrap()
    }

    #[test]
    fn alpha_must_be_strictly_between_zero_and_one() {
        assert!(Alpha::new(0.05).is_ok());
        for a in [0.0, 1.0, -0.1, f64::NAN] {
            assert!(Alpha::new(a).is_err(), "{a}");
        }
    }

    #[test]
    fn hodges_lehmann_is_the_median_difference() {
        // Differences of [0, 10] − [1, 2]: 8, 9, −2, −1 → median (−1 + 8)/2.
        assert_eq!(
            hodges_lehmann(&sample(&[1.0, 2.0]), &sample(&[0.0, 10.0])),
            3.5
        );
        // Odd count: [5] − [1, 2, 9]: 4, 3, −4 → 3.
        assert_eq!(
            hodges_lehmann(&sample(&[1.0, 2.0, 9.0]), &sample(&[5.0])),
            3.0
        );
    }

    #[test]
    fn exact_interval_matches_r_wilcox_test() {
        // Nine values each, no ties. P(U ≤ 17) = 0.01999… < 0.025 ≤
        // P(U ≤ 18) = 0.02515…, so R's qwilcox(0.025, 9, 9) = 18 and the
        // interval is [d(18), d(64)] (81 differences).
        let best = sample(&[0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.061, 3.13, 1.291]);
        let other = sample(&[1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]);
        let ci = shift_interval(&best, &other, Alpha::new(0.05).unwrap());
        assert_eq!(ci.method, Method::Exact);
        assert_eq!((ci.low_rank, ci.high_rank), (18, 64));
        let d = UDistribution::new(9, 9).unwrap();
        assert_eq!(ci.achieved_confidence, 1.0 - 2.0 * d.cdf(17));
        assert!(ci.achieved_confidence >= 0.95);
        assert_eq!(ci.low, kth_pairwise_difference(&best, &other, 18).unwrap());
    }

    #[test]
    fn asymptotic_interval_uses_the_documented_ranks() {
        // 60 distinct values each: σ² = M(N + 1)/12.
        let best: Vec<f64> = (0..60).map(f64::from).collect();
        let other: Vec<f64> = (0..60).map(|i| f64::from(i) + 20.5).collect();
        let ci = shift_interval(&sample(&best), &sample(&other), Alpha::new(0.05).unwrap());
        assert_eq!(ci.method, Method::Asymptotic);
        let m = 3600.0f64;
        let sigma = (m / 12.0 * 121.0).sqrt();
        let k = (m / 2.0 - 1.959_963_984_540_054 * sigma).floor();
        assert_eq!(ci.low_rank, k as u128 + 1);
        assert_eq!(ci.high_rank, 3600 - k as u128);
        let achieved = 1.0 - 2.0 * normal_cdf((k - m / 2.0) / sigma);
        assert_eq!(ci.achieved_confidence, achieved);
    }

    #[test]
    fn tied_interval_inverts_the_conditional_test() {
        // Ten values six times each, the other three higher: the
        // differences are the integers −6..=12, and at δ̂ = 3 the pooled
        // sample {best} ∪ {other − 3} is ten groups of 12.
        let best: Vec<f64> = (0..60).map(|i| f64::from(i % 10)).collect();
        let other: Vec<f64> = (0..60).map(|i| f64::from(i % 10) + 3.0).collect();
        let alpha = Alpha::new(0.05).unwrap();
        let ci = shift_interval(&sample(&best), &sample(&other), alpha);
        assert_eq!(ci.method, Method::Asymptotic);
        // The confidence is the test's at the estimate, with its pattern.
        let laws = two_sample_laws(&TwoSampleTies {
            sizes: &[12; 10],
            m: 60,
            n: 60,
            exact: false,
            tail: 0.025,
        });
        let (_, _, achieved) = choose_ranks(3600, &[laws], 0.05);
        assert_eq!(ci.achieved_confidence, achieved);
        assert!(achieved >= 0.95);
        // Each end is a value at which the test with that value's own
        // pattern accepts, the next value outwards one where it rejects;
        // the ranks are the ends' outer block boundaries.
        let s = (sample(&best), sample(&other));
        let d = Differences::new(s.0.sorted(), s.1.sorted());
        let scale = TwoSample {
            differences: &d,
            n1: 60,
            n2: 60,
            exact: false,
            tail: 0.025,
        };
        let ranks = |v: f64| {
            let (l, h) = scale.laws(v);
            (l.rank(0.025).clamp(1, 1800), h.rank(0.025).clamp(1, 1800))
        };
        let accepts_low = |v: f64| d.counts(v).1 >= ranks(v).0;
        let accepts_high = |v: f64| 3600 - d.counts(v).0 >= ranks(v).1;
        assert!(accepts_low(ci.low) && !accepts_low(ci.low - 1.0));
        assert!(accepts_high(ci.high) && !accepts_high(ci.high + 1.0));
        assert_eq!(ci.low_rank, d.counts(ci.low).0 + 1);
        assert_eq!(ci.high_rank, d.counts(ci.high).1);
        assert!(ci.low <= 3.0 && 3.0 <= ci.high);
        // Below 50 values each the law is exact.
        let ci = shift_interval(&sample(&best[..40]), &sample(&other[..40]), alpha);
        assert_eq!(ci.method, Method::Exact);
        assert!(ci.achieved_confidence >= 0.95);
    }

    #[test]
    fn single_pair_interval_is_the_one_difference() {
        let ci = shift_interval(&sample(&[1.0]), &sample(&[4.0]), Alpha::new(0.05).unwrap());
        assert_eq!(
            (ci.low, ci.high, ci.low_rank, ci.high_rank),
            (3.0, 3.0, 1, 1)
        );
        assert_eq!(ci.achieved_confidence, 0.0);
    }

    #[test]
    fn samples_that_are_no_shift_of_each_other_get_the_wider_fallback() {
        // 96 runs on two 10 ms ticks (79 × 0, 17 × 10,000 µs) against 10
        // spread between them: the conditional test rejects every
        // difference, the estimate (1,360) included, and its inversion had
        // shrunk to [1360, 1360] "at 99.80 %".
        let mut ticks = vec![0.0; 79];
        ticks.extend([10_000.0; 17]);
        let spread = [
            1223.0, 1304.0, 1345.0, 1360.0, 1369.0, 1400.0, 1420.0, 1437.0, 1463.0, 1497.0,
        ];
        let ci = shift_interval(&sample(&ticks), &sample(&spread), Alpha::new(0.05).unwrap());
        // By hand, M = 960. Tie-corrected: Σ(t³ − t) = 79³ − 79 + 17³ − 17
        // = 497,856; σ² = 960/12·(107 − 497,856/(106·105)) = 4,981.6,
        // σ = 70.58, k = ⌊480 − 1.95996·70.58⌋ = 341. Without a shift
        // model, at the estimate 1,360: p = 3.5/10 for the 79 zeros and 1
        // for the 17 ticks (mean 0.46510, variance 0.062216); q = 1 for
        // the 3 runs below 1,360, (17 + 79/2)/96 = 0.58854 for 1,360 and
        // 17/96 for the 6 above (variance 0.152368); σ = 960·√(0.062216/96
        // + 0.152368/10) = 120.99, k = ⌊480 − 1.95996·120.99⌋ = 242, the
        // wider: ranks 243 and 718. Sorted, the differences are 170 below
        // 0, then 79 each of the spread's values: rank 243 is 1,223
        // (171–249), 718 is 1,420 (645–723). Level: 1 − 2Φ((242 −
        // 480)/120.99) = 0.9508 (the tie-corrected law's there is higher).
        assert_eq!((ci.low_rank, ci.high_rank), (243, 718));
        assert_eq!((ci.low, ci.high), (1223.0, 1420.0));
        assert!((ci.achieved_confidence - 0.9508).abs() < 1e-4, "{ci:?}");
        assert_eq!(ci.method, Method::Asymptotic);
    }

    #[test]
    fn a_sample_of_one_value_gets_the_median_of_the_other() {
        // 30 runs of 100 µs against 5 spread over 101–128 µs: the
        // conditional law at any shift is all but a point, and the
        // inversion had given [14, 14] "at 100 %"; the tie-corrected
        // approximation then gave [7, 21] at 95.6 %, which covered the
        // median difference 60 % of the time.
        let spread = [101.0, 107.0, 114.0, 121.0, 128.0];
        let ci = shift_interval(
            &sample(&[100.0; 30]),
            &sample(&spread),
            Alpha::new(0.05).unwrap(),
        );
        // By hand: M = 150, the differences 1, 7, 14, 21, 28 (30 each),
        // the estimate 14. Every x has p = (2 + ½)/5 = ½ (variance 0); q
        // is 1, 1, ½, 0, 0 (variance 0.25): σ = 150·√(0.25/5) = 33.541,
        // k = ⌊75 − 1.95996·33.541⌋ = 9, ranks 10 and 141: 1 and 28, the
        // other sample's range less 100 (the tie-corrected k, 49, is
        // narrower). Level 1 − 2Φ((9 − 75)/33.541) = 0.9509; the sign
        // test's exact level for a range of 5 runs is 93.75 %.
        assert_eq!((ci.low_rank, ci.high_rank), (10, 141));
        assert_eq!((ci.low, ci.high), (1.0, 28.0));
        assert!((ci.achieved_confidence - 0.9509).abs() < 1e-4, "{ci:?}");
    }

    #[test]
    fn an_interval_far_narrower_than_the_data_allow_gets_the_fallback() {
        // 29 runs of 100 µs and one of 101 against 30 spread over 84–268
        // µs: the inversion gave [19, 24] μs "at 95.07 %" (the x sample's
        // ties put the conditional law's centre 103 ranks above the
        // middle), 59 ranks where the interval without a shift model
        // spans 327; that interval, [3, 58] μs, is the median of the
        // spread sample's runs 10 and 21 less 100 — the sign test's.
        let spread = [
            84.0, 85.0, 87.0, 89.0, 94.0, 97.0, 99.0, 100.0, 102.0, 103.0, 108.0, 113.0, 115.0,
            115.0, 119.0, 124.0, 125.0, 130.0, 144.0, 157.0, 158.0, 164.0, 173.0, 174.0, 181.0,
            185.0, 189.0, 213.0, 214.0, 268.0,
        ];
        let mut near = vec![100.0; 29];
        near.push(101.0);
        let ci = shift_interval(&sample(&near), &sample(&spread), Alpha::new(0.05).unwrap());
        assert_eq!((ci.low, ci.high), (3.0, 58.0), "{ci:?}");
        assert_eq!(ci.method, Method::Asymptotic);
        assert!((ci.achieved_confidence - 0.95).abs() < 0.01, "{ci:?}");
        // The same spread against itself plus 50: a shift, kept.
        let shifted: Vec<f64> = spread.iter().map(|v| v + 50.0).collect();
        let ci = shift_interval(
            &sample(&spread),
            &sample(&shifted),
            Alpha::new(0.05).unwrap(),
        );
        assert!(ci.low < 50.0 && 50.0 < ci.high, "{ci:?}");
        assert_eq!(ci.method, Method::Exact);
    }

    #[test]
    fn kth_pairwise_difference_rejects_ranks_out_of_range() {
        let (a, b) = (sample(&[1.0, 2.0]), sample(&[3.0]));
        assert_eq!(kth_pairwise_difference(&a, &b, 0), None);
        assert_eq!(kth_pairwise_difference(&a, &b, 3), None);
        assert_eq!(kth_pairwise_difference(&a, &b, 2), Some(2.0));
    }
}

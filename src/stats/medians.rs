//! Distribution-free bounds for a median, and for the ratio (or the
//! difference) of two medians, from order statistics.
//!
//! # One median
//!
//! For any distribution, the number of values at or below a median ξ in n
//! independent draws is binomial with a success chance of at least ½, so
//! the k-th smallest value X₍ₖ₎ exceeds ξ with probability at most
//! P(Bin(n, ½) ≤ k − 1), and X₍ₙ₊₁₋ₖ₎ falls short of it with the same
//! bound (Thompson 1936, "On confidence ranges for the median and other
//! expectation distributions for populations of unknown distribution
//! form", Ann. Math. Statist. 7, 122–128; Conover 1999, "Practical
//! Nonparametric Statistics", §3.2). Nothing is assumed about the shape:
//! skew, heavy tails, ties and tick lattices only make the bound more
//! conservative (an atom at ξ raises the chance above ½).
//!
//! # Complete rounds: the median of within-round ratios
//!
//! When every round holds one run of each command in random order, the
//! within-round ratios other/reference are one sample, and the bounds of
//! their median are the order statistics above: the sign test's interval.
//! A round's ratio is compared with its own round's reference run, so a
//! machine that slows down affects both alike. Its median is the ratio of
//! the medians when one command is a scaled copy of the other.
//!
//! # Independent samples: the ratio of the medians
//!
//! A lower bound for m_o/m_r is L_o/U_r, the lower bound of the other
//! command's median over the upper bound of the reference's; it fails only
//! when one of the two fails, so with independent samples its miss chance
//! is at most 1 − (1 − e_o)(1 − e_r). The split of the error between the
//! two samples depends only on their sizes (never on the values, which
//! would void the guarantee): the pair of ranks whose bounds lie nearest
//! the middle in quantile terms (`allocate`). This is the Bonferroni-type
//! combination of exact median intervals discussed by Price & Bonett
//! (2002, "Distribution-free confidence intervals for difference and
//! ratio of medians", J. Statist. Comput. Simul. 72, 119–124), without
//! their normal approximation, whose level is approximate and whose
//! interval has no width when tied runs make its standard error 0
//! (`tools/price_bonett.py` measures it; docs/statistics.md).
//!
//! The same bounds on the difference scale (L_o − U_r) serve metrics with
//! values at or below zero, where no ratio exists.

/// P(Bin(n, ½) ≤ j) for j = 0, 1, … while it stays at most `limit`,
/// computed in logarithms (2⁻ⁿ underflows beyond n = 1074); the last
/// entry is the first that exceeds `limit` (if any j ≤ n does).
fn lower_tail(n: usize, limit: f64) -> Vec<f64> {
    let mut tail = Vec::new();
    if n <= 1000 {
        // Counts C(n, j) and their sum, scaled by 2⁻ⁿ (a power of two:
        // exact while the counts are, up to n = 56).
        let scale = 0.5f64.powi(n as i32);
        let (mut count, mut sum) = (1.0f64, 0.0f64);
        for j in 0..=n {
            if j > 0 {
                count = count * (n - j + 1) as f64 / j as f64;
            }
            sum += count;
            let p = (sum * scale).min(1.0);
            tail.push(p);
            if p > limit {
                break;
            }
        }
        return tail;
    }
    let ln_half = -std::f64::consts::LN_2;
    let mut ln_pmf = n as f64 * ln_half;
    let mut ln_cdf = ln_pmf;
    for j in 0..=n {
        if j > 0 {
            ln_pmf += ((n - j + 1) as f64 / j as f64).ln();
            // log(e^a + e^b), stable.
            let (hi, lo) = if ln_pmf > ln_cdf {
                (ln_pmf, ln_cdf)
            } else {
                (ln_cdf, ln_pmf)
            };
            ln_cdf = hi + (lo - hi).exp().ln_1p();
        }
        let p = ln_cdf.exp().min(1.0);
        tail.push(p);
        if p > limit {
            break;
        }
    }
    tail
}

/// The miss chance of the bound X₍ₖ₎ (or X₍ₙ₊₁₋ₖ₎) of a median from n
/// values: P(Bin(n, ½) ≤ k − 1). `k` is 1-based and at most n.
pub fn order_bound_miss(n: usize, k: usize) -> f64 {
    lower_tail(n, f64::INFINITY)[k.saturating_sub(1).min(n)]
}

/// The rank k (1-based) of the bound of a median from n values whose miss
/// chance is at most `gamma`, the largest such (nearest the middle), with
/// its miss chance; `None` when even the extreme value misses more often
/// (2⁻ⁿ > gamma: too few values).
pub fn order_bound_rank(n: usize, gamma: f64) -> Option<(usize, f64)> {
    let tail = lower_tail(n, gamma);
    let k = tail.iter().take_while(|&&p| p <= gamma).count();
    // Never past the middle: the lower bound stays at or below the upper.
    let k = k.min(n.div_ceil(2));
    (k > 0).then(|| (k, tail[k - 1]))
}

/// The fewest values whose extreme bound misses at most `gamma` (a median
/// from fewer cannot be bounded at that level).
pub fn values_needed(gamma: f64) -> usize {
    (1..=2000)
        .find(|&n| 0.5f64.powi(n as i32) <= gamma)
        .unwrap_or(2000)
}

/// The scale a comparison is made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// other / reference: every value of both is positive.
    Ratio,
    /// other − reference, in the metric's unit.
    Difference,
}

impl Scale {
    fn of(self, other: f64, reference: f64) -> f64 {
        match self {
            Scale::Ratio => other / reference,
            Scale::Difference => other - reference,
        }
    }

    /// No difference on this scale: 1 for a ratio, 0 for a difference.
    pub fn null(self) -> f64 {
        match self {
            Scale::Ratio => 1.0,
            Scale::Difference => 0.0,
        }
    }
}

/// An estimate of other against the reference with one-sided bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contrast {
    /// Ratio or difference.
    pub scale: Scale,
    /// The estimate: the median of within-round ratios (paired), or the
    /// ratio of the medians (independent); differences likewise.
    pub estimate: f64,
    /// The lower bound.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
    /// The chance that the lower bound lies above the truth, at most
    /// (exact for continuous data, conservative with ties).
    pub low_miss: f64,
    /// The chance that the upper bound lies below the truth, at most.
    pub high_miss: f64,
    /// Whether each bound reached the miss chance asked for. When not,
    /// the bounds are the widest the data allow, with their own miss
    /// chances, and decide nothing.
    pub reached: bool,
}

impl Contrast {
    /// The confidence of the interval [low, high]: 1 − both miss chances.
    pub fn confidence(&self) -> f64 {
        1.0 - self.low_miss - self.high_miss
    }
}

/// The median of `sorted` (the mean of the two middle values when n is
/// even). `sorted` must not be empty.
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0
}

/// The median of the within-round values `scale(other_k, reference_k)`
/// with the sign test's bounds, each missing at most `gamma`. The rounds
/// must be of equal, non-zero length (`None` otherwise).
pub fn paired(reference: &[f64], other: &[f64], scale: Scale, gamma: f64) -> Option<Contrast> {
    if reference.len() != other.len() || reference.is_empty() {
        return None;
    }
    let mut v: Vec<f64> = reference
        .iter()
        .zip(other)
        .map(|(&r, &o)| scale.of(o, r))
        .collect();
    if v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    super::sample::sort_total(&mut v);
    let n = v.len();
    let (k, miss, reached) = match order_bound_rank(n, gamma) {
        Some((k, miss)) => (k, miss, true),
        None => (1, order_bound_miss(n, 1), false),
    };
    Some(Contrast {
        scale,
        estimate: median(&v),
        low: v[k - 1],
        high: v[n - k],
        low_miss: miss,
        high_miss: miss,
        reached,
    })
}

/// The ratio (or difference) of the medians of two independent sorted
/// samples, with bounds each missing at most `gamma`. Both must be
/// non-empty (`None` otherwise).
pub fn independent(reference: &[f64], other: &[f64], scale: Scale, gamma: f64) -> Option<Contrast> {
    let (nr, no) = (reference.len(), other.len());
    if nr == 0 || no == 0 {
        return None;
    }
    let ((kr, er), (ko, eo), reached) = match allocate(nr, no, gamma) {
        Some((r, o)) => (r, o, true),
        None => (
            (1, order_bound_miss(nr, 1)),
            (1, order_bound_miss(no, 1)),
            false,
        ),
    };
    let miss = 1.0 - (1.0 - er) * (1.0 - eo);
    let (lr, ur) = (reference[kr - 1], reference[nr - kr]);
    let (lo, uo) = (other[ko - 1], other[no - ko]);
    let estimate = scale.of(median(other), median(reference));
    let (low, high) = (scale.of(lo, ur), scale.of(uo, lr));
    [estimate, low, high]
        .iter()
        .all(|x| x.is_finite())
        .then_some(Contrast {
            scale,
            estimate,
            low,
            high,
            low_miss: miss,
            high_miss: miss,
            reached,
        })
}

/// The ranks (with their miss chances) of the two medians' bounds whose
/// combined miss 1 − (1 − e_r)(1 − e_o) is at most `gamma`, chosen from
/// the sizes alone: the pair nearest the middle, by the sum of each
/// bound's distance from it in quantile terms, 1 − (2k − 1)/n. `None`
/// when no pair reaches `gamma`.
/// A bound's rank (1-based) with its miss chance.
type Rank = (usize, f64);

fn allocate(nr: usize, no: usize, gamma: f64) -> Option<(Rank, Rank)> {
    let tail_r = lower_tail(nr, gamma);
    let tail_o = lower_tail(no, gamma);
    let distance = |k: usize, n: usize| 1.0 - (2 * k - 1) as f64 / n as f64;
    let mut best: Option<(f64, Rank, Rank)> = None;
    for (i, &eo) in tail_o.iter().enumerate() {
        if eo > gamma {
            break;
        }
        let ko = (i + 1).min(no.div_ceil(2));
        let allowed = 1.0 - (1.0 - gamma) / (1.0 - eo);
        let kr = tail_r.partition_point(|&p| p <= allowed);
        let kr = kr.min(nr.div_ceil(2));
        if kr == 0 {
            continue;
        }
        let score = distance(ko, no) + distance(kr, nr);
        if best.map_or(true, |(s, _, _)| score < s) {
            best = Some((score, (kr, tail_r[kr - 1]), (ko, tail_o[ko - 1])));
        }
    }
    best.map(|(_, r, o)| (r, o))
}

/// The bounds alone (`None` when they cannot reach `gamma`): the same
/// values as [`paired`] or [`independent`] give, found by selection
/// rather than sorting, for the comparisons among the candidates for the
/// best (`super::ranking`). `rounds`: the values are in round order.
pub fn bounds(
    reference: &[f64],
    other: &[f64],
    scale: Scale,
    gamma: f64,
    rounds: bool,
) -> Option<(f64, f64)> {
    if rounds {
        let mut v: Vec<f64> = reference
            .iter()
            .zip(other)
            .map(|(&r, &o)| scale.of(o, r))
            .collect();
        let (k, _) = order_bound_rank(v.len(), gamma)?;
        let n = v.len();
        let low = *v.select_nth_unstable_by(k - 1, f64::total_cmp).1;
        let high = *v.select_nth_unstable_by(n - k, f64::total_cmp).1;
        return Some((low, high));
    }
    let (nr, no) = (reference.len(), other.len());
    let ((kr, _), (ko, _)) = allocate(nr, no, gamma)?;
    Some((
        scale.of(other[ko - 1], reference[nr - kr]),
        scale.of(other[no - ko], reference[kr - 1]),
    ))
}

/// Whether bounds each missing at most `gamma` exist for a comparison of
/// `nr` reference values with `no` others: within-round values when
/// `rounds` (nr = no), else independent samples.
pub fn reachable(nr: usize, no: usize, gamma: f64, rounds: bool) -> bool {
    if rounds {
        order_bound_rank(no, gamma).is_some()
    } else {
        allocate(nr, no, gamma).is_some()
    }
}

/// The fewest runs of each command with which independent samples can
/// bound the medians' ratio at `gamma`.
pub fn independent_runs_needed(gamma: f64) -> usize {
    (1..=2000)
        .find(|&n| allocate(n, n, gamma).is_some())
        .unwrap_or(2000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_matches_by_hand_values() {
        // P(Bin(5, ½) ≤ j) = 1/32, 6/32, 16/32, …
        let t = lower_tail(5, f64::INFINITY);
        let want = [1.0, 6.0, 16.0, 26.0, 31.0, 32.0].map(|x| x / 32.0);
        for (a, b) in t.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{a} {b}");
        }
    }

    #[test]
    fn both_ways_of_summing_agree_where_they_meet() {
        // Linear counts up to n = 1000, logarithms beyond: the same law.
        let linear = lower_tail(1000, 0.01);
        let logs = {
            let ln_half = -std::f64::consts::LN_2;
            let mut ln_pmf = 1000.0 * ln_half;
            let mut sum = ln_pmf.exp();
            let mut out = vec![sum];
            for j in 1..linear.len() {
                ln_pmf += ((1000 - j + 1) as f64 / j as f64).ln();
                sum += ln_pmf.exp();
                out.push(sum);
            }
            out
        };
        for (a, b) in linear.iter().zip(&logs) {
            assert!((a - b).abs() <= 1e-9 * b, "{a} {b}");
        }
        // And the large-n branch is continuous with it: P(Bin(1001) ≤ 469).
        let big = lower_tail(1001, 0.05);
        assert!(big.len() > 400 && big[big.len() - 2] <= 0.05);
    }

    #[test]
    fn ranks_are_the_largest_within_gamma() {
        // n = 10: P(≤ 1) = 11/1024 ≈ 0.0107, P(≤ 2) = 56/1024 ≈ 0.0547.
        assert_eq!(order_bound_rank(10, 0.05), Some((2, 11.0 / 1024.0)));
        assert_eq!(order_bound_rank(10, 0.06), Some((3, 56.0 / 1024.0)));
        assert_eq!(order_bound_rank(4, 0.05), None);
        assert_eq!(order_bound_rank(5, 0.05), Some((1, 1.0 / 32.0)));
        // Never past the middle, even when gamma allows it.
        assert_eq!(order_bound_rank(3, 0.99).map(|r| r.0), Some(2));
    }

    #[test]
    fn values_needed_is_the_first_reaching_n() {
        assert_eq!(values_needed(0.05), 5);
        assert_eq!(values_needed(0.05 / 4.0), 7);
        assert_eq!(values_needed(0.05 / 9.0), 8);
        assert_eq!(independent_runs_needed(0.05), 6);
        assert_eq!(independent_runs_needed(0.05 / 4.0), 8);
        assert_eq!(independent_runs_needed(0.05 / 9.0), 9);
    }

    #[test]
    fn paired_bounds_are_order_statistics_of_the_ratios() {
        let r = [10.0, 10.0, 10.0, 10.0, 10.0];
        let o = [20.0, 21.0, 19.0, 22.0, 18.0];
        let c = paired(&r, &o, Scale::Ratio, 0.05).unwrap();
        assert_eq!((c.low, c.estimate, c.high), (1.8, 2.0, 2.2));
        assert!(c.reached);
        assert_eq!(c.low_miss, 1.0 / 32.0);
        let c = paired(&r[..4], &o[..4], Scale::Ratio, 0.05).unwrap();
        assert!(!c.reached);
        assert_eq!((c.low, c.high), (1.9, 2.2));
    }

    #[test]
    fn bounds_alone_equal_the_contrasts() {
        let r = [10.0, 12.0, 9.0, 11.0, 10.5, 13.0, 8.0, 10.0];
        let o = [21.0, 19.0, 25.0, 20.0, 22.0, 18.0, 30.0, 20.5];
        for scale in [Scale::Ratio, Scale::Difference] {
            let c = paired(&r, &o, scale, 0.05).unwrap();
            assert_eq!(bounds(&r, &o, scale, 0.05, true), Some((c.low, c.high)));
            let (mut rs, mut os) = (r.to_vec(), o.to_vec());
            rs.sort_by(f64::total_cmp);
            os.sort_by(f64::total_cmp);
            let c = independent(&rs, &os, scale, 0.05).unwrap();
            assert_eq!(bounds(&rs, &os, scale, 0.05, false), Some((c.low, c.high)));
        }
        assert_eq!(bounds(&r[..4], &o[..4], Scale::Ratio, 0.05, true), None);
    }

    #[test]
    fn independent_bounds_combine_both_medians() {
        let r = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let o = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0];
        let c = independent(&r, &o, Scale::Difference, 0.05).unwrap();
        // Both at k = 1 (2⁻⁶ each: 1 − (63/64)² ≈ 0.031 ≤ 0.05).
        assert_eq!((c.low, c.high), (10.0 - 6.0, 60.0 - 1.0));
        assert_eq!(c.estimate, 35.0 - 3.5);
        assert!((c.low_miss - (1.0 - (63.0f64 / 64.0).powi(2))).abs() < 1e-15);
    }
}

//! Distribution-free bounds for a median, and for the ratio (or the
//! difference) of two medians built from them.
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
//! conservative (an atom at ξ raises the chance above ½). When the draws
//! are independent but not identically distributed (a machine whose speed
//! changes while random rounds give every command the same mixture of its
//! states), the count below the median ξ of the time-averaged mixture is
//! Poisson-binomial with mean at least n/2, whose tails are no heavier
//! than the binomial's (Hoeffding 1956, "On the distribution of the number
//! of successes in independent trials", Ann. Math. Statist. 27, 713–721):
//! the bounds then hold for ξ.
//!
//! # Two medians
//!
//! A lower bound for m_o/m_r is L_o/U_r, the lower bound of the other
//! command's median over the upper bound of the reference's; it fails
//! only when one of the two fails, so its miss chance is at most
//! e_o + e_r whatever the dependence between the two commands' runs
//! (Bonferroni). The upper bound U_o/L_r likewise. The estimate, the ratio
//! of the two sample medians, always lies between them. The same bounds
//! on the difference scale (L_o − U_r) serve metrics with values at or
//! below zero, where no ratio exists, and absolute thresholds.

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

/// The rank k (1-based) of the bound of a median from n values whose miss
/// chance is at most `gamma`, the largest such (nearest the middle), with
/// its miss chance; `None` when even the extreme value misses more often
/// (2⁻ⁿ > gamma: too few values).
fn order_bound_rank(n: usize, gamma: f64) -> Option<(usize, f64)> {
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

/// One command's median with its distribution-free bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianBounds {
    /// The sample median (the mean of the two middle values when n is
    /// even).
    pub median: f64,
    /// The lower bound, the k-th smallest value.
    pub low: f64,
    /// The upper bound, the k-th largest value.
    pub high: f64,
    /// The rank k (1-based).
    pub rank: usize,
    /// The chance that each bound misses, at most: P(Bin(n, ½) ≤ k − 1)
    /// (exact for continuous data, conservative with ties).
    pub miss: f64,
}

impl MedianBounds {
    /// The bounds of the median of `sorted` (ascending), each missing
    /// with chance at most `gamma`, at the rank nearest the middle; `None`
    /// when even the extreme values miss more often (2⁻ⁿ > gamma).
    pub fn of(sorted: &[f64], gamma: f64) -> Option<MedianBounds> {
        let n = sorted.len();
        let (k, miss) = order_bound_rank(n, gamma)?;
        Some(MedianBounds {
            median: median(sorted),
            low: sorted[k - 1],
            high: sorted[n - k],
            rank: k,
            miss,
        })
    }

    /// The confidence of the interval [low, high]: 1 − 2·miss.
    pub fn confidence(&self) -> f64 {
        1.0 - 2.0 * self.miss
    }
}

/// An estimate of other against the reference with one-sided bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contrast {
    /// Ratio or difference.
    pub scale: Scale,
    /// The ratio (or difference) of the two sample medians.
    pub estimate: f64,
    /// The lower bound: the other's lower bound over (minus) the
    /// reference's upper bound.
    pub low: f64,
    /// The upper bound: the other's upper bound over (minus) the
    /// reference's lower bound.
    pub high: f64,
    /// The chance that the lower bound lies above the truth, at most: the
    /// sum of the two medians' bounds' miss chances.
    pub low_miss: f64,
    /// The chance that the upper bound lies below the truth, at most.
    pub high_miss: f64,
}

impl Contrast {
    /// Other against the reference from the bounds of their medians;
    /// `None` when the scale gives no finite value (a ratio that
    /// overflows).
    pub fn between(reference: &MedianBounds, other: &MedianBounds, scale: Scale) -> Option<Self> {
        let estimate = scale.of(other.median, reference.median);
        let low = scale.of(other.low, reference.high);
        let high = scale.of(other.high, reference.low);
        let miss = other.miss + reference.miss;
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
            })
    }

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
        // Two commands at α = 0.05: α/4 per side.
        assert_eq!(values_needed(0.05 / 4.0), 7);
        // Five: α/10; ten: α/20.
        assert_eq!(values_needed(0.05 / 10.0), 8);
        assert_eq!(values_needed(0.05 / 20.0), 9);
    }

    #[test]
    fn median_bounds_are_order_statistics() {
        let v: Vec<f64> = (1..=7).map(f64::from).collect();
        // 2⁻⁷ ≤ 0.01: the extremes; 8 · 2⁻⁷ = 0.0625 ≤ 0.1: the 2nd.
        let b = MedianBounds::of(&v, 0.01).unwrap();
        assert_eq!((b.low, b.median, b.high, b.rank), (1.0, 4.0, 7.0, 1));
        assert_eq!(b.miss, 1.0 / 128.0);
        assert_eq!(b.confidence(), 1.0 - 2.0 / 128.0);
        let b = MedianBounds::of(&v, 0.1).unwrap();
        assert_eq!((b.low, b.high), (2.0, 6.0));
        assert_eq!(MedianBounds::of(&v[..5], 0.01), None);
    }

    #[test]
    fn a_contrast_divides_the_opposite_bounds_and_adds_their_misses() {
        let r = MedianBounds::of(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 0.01).unwrap();
        let o = MedianBounds::of(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0], 0.02).unwrap();
        let c = Contrast::between(&r, &o, Scale::Ratio).unwrap();
        assert_eq!((c.low, c.estimate, c.high), (10.0 / 7.0, 35.0 / 4.0, 60.0));
        assert_eq!(c.low_miss, 1.0 / 128.0 + 1.0 / 64.0);
        assert_eq!(c.confidence(), 1.0 - 2.0 * (1.0 / 128.0 + 1.0 / 64.0));
        let c = Contrast::between(&r, &o, Scale::Difference).unwrap();
        assert_eq!((c.low, c.estimate, c.high), (3.0, 31.0, 59.0));
        // An overflowing ratio is no contrast.
        let tiny = MedianBounds::of(&[1e-300; 7], 0.01).unwrap();
        let huge = MedianBounds::of(&[1e100; 7], 0.01).unwrap();
        assert_eq!(Contrast::between(&tiny, &huge, Scale::Ratio), None);
    }
}

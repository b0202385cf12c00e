//! The confidence of a rank interval when values tie: the conditional
//! (permutation) distribution given the tie pattern.
//!
//! The Hodges–Lehmann interval is a pair of order statistics
//! [D(k), D(M + 1 − k′)] of the M pairwise differences (or Walsh
//! averages). For a true shift δ let U≤ = #{D ≤ δ} and U< = #{D < δ}: the
//! interval misses δ exactly when U≤ ≤ k − 1 (it lies wholly above δ) or
//! U< ≥ M − k′ + 1 (wholly below). Without ties U≤ = U< and both follow
//! the Mann–Whitney (or signed-rank) null distribution, so the
//! confidence is 1 − 2·P(U ≤ k − 1). With tick-quantised times many
//! differences *equal* δ, U≤ exceeds U< by their number, and the closed
//! interval covers δ more often than that formula says (Noether 1967,
//! "Wilcoxon confidence intervals for location parameters in the discrete
//! case", JASA 62, 184–188, shows it is then conservative).
//!
//! Here both miss probabilities are computed from the conditional null
//! distribution given the pooled sample's tie pattern at δ — the
//! distribution under which, given the values, every assignment of the
//! group labels (two samples) or of the signs (paired differences) is
//! equally likely (Lehmann 1975, *Nonparametrics*, §1.4 and §3.3; the
//! permutation argument needs only exchangeability, not continuity):
//!
//! * Two samples, x (m values) and y (n values), groups of t_g equal
//!   values in the pooled sample {x} ∪ {y − δ}, a_g of them from x
//!   (multivariate hypergeometric): U≤ = Σ_g a_g·(y's in groups ≤ g),
//!   and the upper end's count M − U< = #{x ≤ y − δ} is the same
//!   statistic with the samples' roles swapped.
//! * Paired differences e = d − δ: z zeros, groups of t_g equal |e| > 0
//!   above c_g smaller ones, p_g of them positive (independent
//!   Binomial(t_g, ½)): T> = #{Walsh averages > δ} = Σ_g p_g·c_g +
//!   p_g(p_g + 1)/2, and U≤ = M − T>; by the symmetry p ↔ t − p the upper
//!   end's count has the same law, so the interval stays symmetric.
//!
//! Small samples get the exact law by dynamic programming over the
//! groups; large ones a normal law with the exact conditional mean and
//! variance (for two samples U≤ = U + U₌/2 with U the mid-rank
//! Mann–Whitney count and U₌ = Σ a_g(t_g − a_g) the cross ties:
//! E U₌ = mn·Σt_g(t_g − 1)/(N(N − 1)), and Var U₌ and Cov(U, U₌) from the
//! factorial moments of the multivariate hypergeometric,
//! E Π a_g^(r_g) = m^(R)·Π t_g^(r_g)/N^(R), R = Σ r_g).
//!
//! The true δ is unknown, so the interval inverts the test ([`invert`]):
//! its ends are the outermost values near the ranks the pattern at the
//! Hodges–Lehmann estimate gives at which the test with the value's own
//! tie pattern accepts. The confidence reported is the test's at the
//! estimate, or at both middle differences when there are two (the lower
//! is kept), which are themselves differences, so lattice data keep their
//! cross ties there (`docs/DESIGN.md`, "Ties"); with exact laws (few
//! runs) it is no higher than the test's in a gap beside the estimate
//! ([`gap_ceiling`]).

use std::cell::RefCell;
use std::collections::HashMap;

use super::normal::{normal_cdf, normal_quantile};
use super::select::Around;

/// The law of the count S whose small values make one end of an interval
/// miss: the miss probability of rank k is P(S ≤ k − 1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TailLaw {
    /// `cdf[u]` = P(S ≤ u), exact, for u up to the largest needed (the
    /// ranks used never pass the middle, ⌈M/2⌉; a paired law has every
    /// u, for [`accepts_estimate`]).
    Exact(Vec<f64>),
    /// A normal law (sd 0: S equals the mean surely).
    Normal { mean: f64, sd: f64 },
}

impl TailLaw {
    /// P(S ≤ k − 1), the probability that rank k misses.
    pub(crate) fn miss(&self, k: u128) -> f64 {
        if k == 0 {
            return 0.0;
        }
        let below = k - 1;
        match self {
            TailLaw::Exact(cdf) => cdf
                .get(usize::try_from(below).unwrap_or(usize::MAX))
                .or(cdf.last())
                .copied()
                .unwrap_or(0.0),
            TailLaw::Normal { mean, sd } => {
                let below = below as f64;
                if *sd > 0.0 {
                    normal_cdf((below - mean) / sd)
                } else if below >= *mean {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// The largest rank whose miss probability stays below `p` (one
    /// tail's share of α), at least 1. Exact: R's `qwilcox` convention,
    /// the smallest q with P(S ≤ q) ≥ p − 10ε, so that the untied case is
    /// the classic one; normal: ⌊mean − z·sd⌋ + 1 with z = Φ⁻¹(1 − p).
    pub(crate) fn rank(&self, p: f64) -> u128 {
        match self {
            TailLaw::Exact(cdf) => {
                let target = p - 10.0 * f64::EPSILON;
                let q = cdf.iter().position(|&c| c >= target).unwrap_or(cdf.len());
                (q as u128).max(1)
            }
            TailLaw::Normal { mean, sd } => {
                if *sd > 0.0 {
                    let z = normal_quantile(p).map_or(0.0, |q| -q);
                    let k = (mean - z * sd).floor().max(0.0);
                    k as u128 + 1
                } else {
                    // P(S ≤ k − 1) = 0 while k − 1 < mean.
                    (mean.ceil().max(1.0)) as u128
                }
            }
        }
    }
}

/// The laws of the lower end's and the upper end's miss counts under one
/// plausible tie pattern.
pub(crate) type Laws = (TailLaw, TailLaw);

/// Ranks (low, high) of the interval among `count` ordered values and its
/// achieved confidence: per end, the largest rank whose miss probability
/// is below α/2 under every pattern in `laws`, kept at or outside the
/// middle; the confidence is the lowest over the patterns of
/// 1 − P(low end misses) − P(high end misses) at the ranks used.
pub(crate) fn choose_ranks(count: u128, laws: &[Laws], alpha: f64) -> (u128, u128, f64) {
    let middle = count.div_ceil(2).max(1);
    let low = laws
        .iter()
        .map(|l| l.0.rank(alpha / 2.0))
        .min()
        .unwrap_or(1)
        .clamp(1, middle);
    let high = laws
        .iter()
        .map(|l| l.1.rank(alpha / 2.0))
        .min()
        .unwrap_or(1)
        .clamp(1, middle);
    let achieved = laws
        .iter()
        .map(|l| 1.0 - l.0.miss(low) - l.1.miss(high))
        .fold(1.0, f64::min)
        .clamp(0.0, 1.0);
    (low, count + 1 - high, achieved)
}

/// Largest number of distinct candidate values the inversion tests per
/// end before it gives up and keeps the start rank (lattice data need a
/// handful; the bound keeps a million runs O(n log n)).
pub(crate) const WALK_LIMIT: usize = 32;

/// One scale of ordered values (pairwise differences or Walsh sums) whose
/// interval is found by inverting the conditional test.
pub(crate) trait Candidates: Sync {
    /// Number of values, M.
    fn count(&self) -> u128;
    /// The work of one count over the values: the rows and columns of
    /// their matrix (see `select.rs`).
    fn sweep(&self) -> usize;
    /// The k-th smallest value (1-based).
    fn kth(&self, k: u128) -> f64;
    /// #{values < v}, #{values ≤ v} and the values next to v, in one
    /// count.
    fn around(&self, v: f64) -> Around;
    /// The laws of the lower and upper end's miss counts under the tie
    /// pattern the data have when the truth is v.
    fn laws(&self, v: f64) -> Laws;
    /// One of [`Candidates::laws`]: the lower end's (`low_side`) or the
    /// upper end's, for a scale that can find one alone for less.
    fn law(&self, v: f64, low_side: bool) -> TailLaw {
        let (low, high) = self.laws(v);
        if low_side {
            low
        } else {
            high
        }
    }
}

/// One scale's interval (the differences, or the differences of their
/// logarithms): the ranks of its ends, and whether its test accepts its
/// own estimate ([`accepts_estimate`]; always, without ties). A scale
/// whose test rejects its estimate is no shift model of the data: the
/// samples differ, though not by a shift, and its interval cannot show
/// that they are equivalent (the ranking's [`super::Reason::NoShift`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScaleRanks {
    pub ranks: (u128, u128),
    pub fits: bool,
}

/// Whether the conditional test at `v` (an estimate), with the tie
/// pattern there (`laws`), accepts it on both sides, its ends' ranks not
/// clamped to the middle (as [`invert`]'s are). When it does not, the data
/// are no shift model under their ties at the estimate (one sample on two
/// ticks, the other between them; paired differences all on one side of
/// the estimate's tie group), and inverting from the middle would shrink
/// the interval to the estimate with the confidence of the middle ranks.
pub(crate) fn accepts_estimate(scale: &impl Candidates, v: f64, laws: &Laws, alpha: f64) -> bool {
    accepts_around(scale.count(), &scale.around(v), laws, alpha)
}

/// [`accepts_estimate`] from the counts at the estimate, already found
/// (`around`), among `count` values.
pub(crate) fn accepts_around(count: u128, around: &Around, laws: &Laws, alpha: f64) -> bool {
    let k = laws.0.rank(alpha / 2.0).max(1);
    let k_high = laws.1.rank(alpha / 2.0).max(1);
    around.at_most >= k && count - around.below >= k_high
}

/// The rank k + 1 of the lower end of `count` ordered values whose count
/// below the truth is normal with mean count/2 and sd `sigma`, k = ⌊count/2
/// − z·σ⌋ with z = Φ⁻¹(1 − α/2), and the confidence 1 − 2Φ((k −
/// count/2)/σ) it achieves (the classic asymptotic rank; with a
/// tie-corrected σ, R's `wilcox.test` for tied data).
pub(crate) fn normal_rank(count: u128, sigma: f64, alpha: f64) -> (u128, f64) {
    let half = count as f64 / 2.0;
    // Φ⁻¹(1 − α/2) as −Φ⁻¹(α/2), exact for tiny α. α/2 is within (0, ½),
    // so the quantile exists; 0 would only widen it.
    let z = normal_quantile(alpha / 2.0).map_or(0.0, |q| -q);
    // z > 0 makes k < count/2, so k + 1 ≤ count − k.
    let rank = (half - z * sigma).floor().max(0.0) as u128 + 1;
    (rank, normal_level(count, sigma, rank))
}

/// The confidence 1 − 2Φ((r − 1 − count/2)/σ) of the lower rank r (and
/// its mirror) among `count` ordered values whose count below the truth is
/// normal with mean count/2 and sd `sigma` (what [`normal_rank`] reports
/// for its rank, at any rank); 1 when σ is 0.
pub(crate) fn normal_level(count: u128, sigma: f64, rank: u128) -> f64 {
    if sigma > 0.0 {
        let below = rank.saturating_sub(1) as f64;
        (1.0 - 2.0 * normal_cdf((below - count as f64 / 2.0) / sigma)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// One tested candidate: whether the test at δ = v accepts on the side
/// asked for, the rank block of v and the values next to it.
#[derive(Clone, Copy)]
struct Tested {
    accepts: bool,
    around: Around,
}

/// The ranks (k, k′) of the two ends at which each misses with
/// probability at most α/2 under `laws` (kept at or outside the middle of
/// `count` values).
fn end_ranks(count: u128, laws: &Laws, alpha: f64) -> (u128, u128) {
    (
        end_rank(count, &laws.0, alpha),
        end_rank(count, &laws.1, alpha),
    )
}

/// One end's rank of [`end_ranks`], from that end's law alone.
fn end_rank(count: u128, law: &TailLaw, alpha: f64) -> u128 {
    law.rank(alpha / 2.0).clamp(1, count.div_ceil(2).max(1))
}

/// The conditional coverage 1 − P(low misses) − P(high misses) of the
/// test at a value whose tie pattern gives `laws`, over `count` values.
pub(crate) fn level_of(count: u128, laws: &Laws, alpha: f64) -> f64 {
    let (k, k_high) = end_ranks(count, laws, alpha);
    (1.0 - laws.0.miss(k) - laws.1.miss(k_high)).clamp(0.0, 1.0)
}

/// The ceiling on a tied interval's reported level when its laws are
/// exact (decision, DESIGN.md, "Ties"): the lowest level of the test at a
/// point strictly inside a gap next to the estimate — between its middle
/// value(s) `middle` and the distinct values next to them, and between
/// the two middle values when they differ; past the smallest or largest
/// value, a point beyond it (all such points share a gap's pattern).
///
/// The level reported is the test's at the estimate's own tie pattern,
/// which with many runs on a lattice is the better proxy for the truth's.
/// With few runs that pattern claims what the data cannot show: when the
/// estimate is itself one of the values (a paired difference: a zero in
/// the pattern; two samples: cross ties), its law allows ranks that a
/// truth a little beside it, with a gap's pattern, does not. Five rounds
/// with one tied difference reported 100 % where no sign-flip test of
/// five rounds reaches 95 % (93.75 %), and such intervals covered the
/// truth 88–92 % of the time (`tools/small_n_ties.py`); 5 against 5 runs
/// on a 10 µs lattice reported 100 % and covered 92 %.
pub(crate) fn gap_ceiling(scale: &impl Candidates, middle: (f64, f64), alpha: f64) -> f64 {
    let m = scale.count();
    let (a, b) = middle;
    let inside = |low: f64, high: f64| {
        let g = low + (high - low) / 2.0;
        (low < g && g < high).then_some(g)
    };
    let at_low = scale.around(a);
    let at_high = if a == b { at_low } else { scale.around(b) };
    // Past the smallest or the largest value, any point has the pattern
    // of a gap (no value ties it): one a step away stands for them all.
    let step = |v: f64| v.abs().max(1.0);
    let before = if at_low.below >= 1 {
        inside(
            at_low.next_below.unwrap_or_else(|| scale.kth(at_low.below)),
            a,
        )
    } else {
        inside(a - step(a), a)
    };
    let between = if a < b { inside(a, b) } else { None };
    let after = if at_high.at_most < m {
        inside(
            b,
            at_high
                .next_above
                .unwrap_or_else(|| scale.kth(at_high.at_most + 1)),
        )
    } else {
        inside(b, b + step(b))
    };
    [before, between, after]
        .into_iter()
        .flatten()
        .map(|g| level_of(m, &scale.laws(g), alpha))
        .fold(1.0, f64::min)
}

fn test_at(scale: &impl Candidates, v: f64, low_side: bool, alpha: f64) -> Tested {
    let around = scale.around(v);
    let k = end_rank(scale.count(), &scale.law(v, low_side), alpha);
    // The lower end misses v when #{≤ v} ≤ k − 1, the upper end when
    // #{< v} ≥ M − k′ + 1: the test at v rejects on that side.
    let accepts = if low_side {
        around.at_most >= k
    } else {
        scale.count() - around.below >= k
    };
    Tested { accepts, around }
}

/// How many candidates in a row the test must reject before the walk
/// outwards stops: on a lattice the test can reject at a value between
/// lattice points (few ties there) and accept again at the next lattice
/// point (its ties count for it), and the interval is the hull of the
/// accepted values, not the run next to the start.
pub(crate) const REJECTIONS_TO_STOP: usize = 3;

/// The interval's ranks (low, high) by inverting the conditional test:
/// each end is the outermost distinct value v near the start rank at which
/// the test with v's own tie pattern does not reject on that side at α/2
/// — walking outwards from the start value until [`REJECTIONS_TO_STOP`]
/// candidates in a row reject, and only when none (the start included)
/// accepts, inwards until one does, never past the middle. The low rank is
/// the first of its value's block, the high rank the last. An end whose
/// walk passes [`WALK_LIMIT`] candidates keeps its start rank.
///
/// The two walks are independent: for a large scale (a count over it
/// takes longer than starting a thread, [`PARALLEL_SWEEP`]) the upper end
/// is found on another thread meanwhile. The ends are the same either way
/// (the rank blocks the scale remembers are facts, whoever found them).
pub(crate) fn invert(scale: &impl Candidates, start: (u128, u128), alpha: f64) -> (u128, u128) {
    invert_with(scale, start, alpha, PARALLEL_SWEEP)
}

/// [`invert`], the two ends at once from `parallel_from` rows plus columns
/// (the tests compare both ways on the same scales).
pub(crate) fn invert_with(
    scale: &impl Candidates,
    start: (u128, u128),
    alpha: f64,
    parallel_from: usize,
) -> (u128, u128) {
    let m = scale.count();
    let middle = m.div_ceil(2).max(1);
    let low = || walk(scale, start.0, true, alpha, middle).unwrap_or(start.0);
    let high = || walk(scale, start.1, false, alpha, m + 1 - middle).unwrap_or(start.1);
    if scale.sweep() < parallel_from {
        return (low(), high());
    }
    std::thread::scope(|scope| {
        // Where no thread can be started, this one finds both ends.
        match std::thread::Builder::new().spawn_scoped(scope, high) {
            Ok(upper) => {
                let low = low();
                let high = upper
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                (low, high)
            }
            Err(_) => (low(), high()),
        }
    })
}

/// Rows plus columns from which [`invert`] finds the two ends at once: a
/// count then takes about 0.1 ms, a walk dozens of counts, a thread about
/// 30 μs to start.
pub(crate) const PARALLEL_SWEEP: usize = 1 << 16;

/// One end's walk (see [`invert`]); `None` past the bound.
fn walk(
    scale: &impl Candidates,
    start: u128,
    low_side: bool,
    alpha: f64,
    limit: u128,
) -> Option<u128> {
    let m = scale.count();
    let end_rank = |t: &Tested| {
        if low_side {
            t.around.below + 1
        } else {
            t.around.at_most
        }
    };
    // The next distinct value outwards (`out`) or inwards, if any, and
    // not past the middle rank `limit` inwards: the one next to the
    // tested value, found by its count (else selected at its rank).
    let next = |t: &Tested, out: bool| -> Option<f64> {
        let a = &t.around;
        let (rank, found) = if out == low_side {
            ((a.below >= 1).then_some(a.below)?, a.next_below)
        } else {
            ((a.at_most < m).then_some(a.at_most + 1)?, a.next_above)
        };
        let inward_past = if low_side { rank > limit } else { rank < limit };
        (out || !inward_past).then(|| found.unwrap_or_else(|| scale.kth(rank)))
    };
    let first = test_at(scale, scale.kth(start), low_side, alpha);
    let mut accepted = first.accepts.then(|| end_rank(&first));
    let mut rejections = usize::from(!first.accepts);
    let mut current = first;
    let mut steps = 0;
    while rejections < REJECTIONS_TO_STOP {
        let Some(v) = next(&current, true) else {
            break;
        };
        steps += 1;
        if steps > WALK_LIMIT {
            return None;
        }
        current = test_at(scale, v, low_side, alpha);
        if current.accepts {
            accepted = Some(end_rank(&current));
            rejections = 0;
        } else {
            rejections += 1;
        }
    }
    if accepted.is_some() {
        return accepted;
    }
    let mut current = first;
    for _ in 0..WALK_LIMIT {
        let v = next(&current, false)?;
        current = test_at(scale, v, low_side, alpha);
        if current.accepts {
            return Some(end_rank(&current));
        }
    }
    None
}

/// C(t, a) for a = 0..=t as floating-point numbers.
fn binomial_row(t: u64) -> Vec<f64> {
    let mut row = Vec::with_capacity(t as usize + 1);
    binomial_row_into(t, &mut row);
    row
}

/// [`binomial_row`] into `row` (emptied first).
fn binomial_row_into(t: u64, row: &mut Vec<f64>) {
    row.clear();
    let mut c = 1.0;
    row.push(c);
    for a in 1..=t {
        c = c * (t - a + 1) as f64 / a as f64;
        row.push(c.round());
    }
}

/// The arguments of one [`two_sample_exact`]: groups, m, n, limit.
type ExactKey = (Vec<u64>, u64, u64, usize);

/// Exact two-sample laws this thread has found, by their arguments, and
/// how many values they hold in all.
#[derive(Default)]
struct ExactMemo {
    laws: HashMap<ExactKey, Vec<f64>>,
    values: usize,
}

/// The most values [`ExactMemo`] holds (2 MiB); past it, it starts again.
const MEMO_VALUES: usize = 1 << 18;

thread_local! {
    static EXACT_LAWS: RefCell<ExactMemo> = RefCell::new(ExactMemo::default());
}

/// [`two_sample_exact`], remembered per thread: the law depends only on
/// its arguments, and they repeat — the inversion tests neighbouring
/// values with one tie pattern, and many small commands measured alike
/// (tick-quantised times, the same sizes) share their patterns (5,000
/// commands × 20 runs: 26,210 laws asked for, 1,282 different). The
/// answer is the same vector either way; the memory is bounded.
fn remembered_exact(sizes: &[u64], m: u64, n: u64, limit: usize) -> Vec<f64> {
    let key = (sizes.to_vec(), m, n, limit);
    EXACT_LAWS.with(|memo| {
        if let Some(cdf) = memo.borrow().laws.get(&key) {
            return cdf.clone();
        }
        let cdf = two_sample_exact(sizes, m, n, limit);
        let mut memo = memo.borrow_mut();
        if memo.values + cdf.len() > MEMO_VALUES {
            memo.laws.clear();
            memo.values = 0;
        }
        memo.values += cdf.len();
        memo.laws.insert(key, cdf.clone());
        cdf
    })
}

/// Two samples: the exact law of U≤ = #{(x, y): y − δ ≤ x} for the pooled
/// groups `sizes` (ascending), x of size `m`, y of size `n`, as far as
/// u ≤ `limit`. Dynamic programming over the groups with state (x's so
/// far, partial count), each group's split weighted by C(t_g, a_g); the
/// partial count only grows, so truncating at `limit` is exact below it.
/// O(Σ_g (m + 1)·limit·(t_g + 1)) time.
fn two_sample_exact(sizes: &[u64], m: u64, n: u64, limit: usize) -> Vec<f64> {
    let width = limit + 1;
    let rows = m as usize + 1;
    let mut dp = vec![0.0f64; rows * width];
    let mut next = vec![0.0f64; rows * width];
    // Per row, how far its counts may be non-zero (`dp[..reach]`): the
    // sums below touch only that much, and clearing a row for reuse
    // clears only that much (adding a zero changes no sum, so the counts
    // are those of adding over whole rows).
    let mut reach = vec![0usize; rows];
    let mut next_reach = vec![0usize; rows];
    dp[0] = 1.0;
    reach[0] = 1;
    let mut weights = Vec::new();
    let mut seen = 0u64;
    for &t in sizes {
        for (r, dirty) in next_reach.iter_mut().enumerate() {
            next[r * width..r * width + *dirty].fill(0.0);
            *dirty = 0;
        }
        binomial_row_into(t, &mut weights);
        let from = seen.saturating_sub(n);
        for xs in from..=seen.min(m) {
            let ys_below = seen - xs;
            let top = reach[xs as usize];
            if top == 0 {
                continue;
            }
            let row = &dp[xs as usize * width..xs as usize * width + top];
            for a in 0..=t.min(m - xs) {
                let b = t - a;
                if ys_below + b > n {
                    continue;
                }
                let step = (a * (ys_below + b)) as usize;
                if step > limit {
                    continue;
                }
                let w = weights[a as usize];
                let target = (xs + a) as usize;
                let end = top.min(width - step);
                let out = &mut next[target * width + step..target * width + step + end];
                for (o, &v) in out.iter_mut().zip(&row[..end]) {
                    *o += w * v;
                }
                next_reach[target] = next_reach[target].max(step + end);
            }
        }
        std::mem::swap(&mut dp, &mut next);
        std::mem::swap(&mut reach, &mut next_reach);
        seen += t;
    }
    let total: f64 = {
        // C(m + n, m).
        let (small, big) = (m.min(n), m.max(n));
        (1..=small).fold(1.0, |c, i| c * (big + i) as f64 / i as f64)
    };
    let mut cumulative = 0.0;
    dp[m as usize * width..]
        .iter()
        .map(|&c| {
            cumulative += c;
            (cumulative / total).min(1.0)
        })
        .collect()
}

/// The exact conditional mean and variance of U≤ (x of size m against y
/// of size n; module docs), and the covariance term that flips sign for
/// the other end: returns (mean, variance of U≤, variance of the upper
/// end's count M − U<).
fn two_sample_moments(sizes: &[u64], m: u64, n: u64) -> (f64, f64, f64) {
    let (mf, nf) = (m as f64, n as f64);
    let big_n = mf + nf;
    let pairs = mf * nf;
    let falling = |t: f64, r: u32| -> f64 { (0..r).map(|i| t - i as f64).product() };
    let tie_term: f64 = sizes
        .iter()
        .map(|&t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum();
    let s2: f64 = sizes.iter().map(|&t| falling(t as f64, 2)).sum();
    let cross = pairs / (big_n * (big_n - 1.0));
    let mean_ties = cross * s2;
    // Var of the mid-rank count U (tie-corrected, as the test's).
    let var_u = pairs / 12.0 * ((big_n + 1.0) - tie_term / (big_n * (big_n - 1.0)));
    // Cov(f_g, f_h) = λ·t_g^(2)·t_h^(2) for g ≠ h, with the numerator in
    // exact integers: mn·[mn(4N − 6) − N(N − 1)²].
    let (mi, ni) = (i128::from(m), i128::from(n));
    let ni_total = mi + ni;
    let numerator = mi * ni * (4 * ni_total - 6) - ni_total * (ni_total - 1) * (ni_total - 1);
    let lambda = pairs * numerator as f64
        / (big_n * big_n * (big_n - 1.0) * (big_n - 1.0) * (big_n - 2.0) * (big_n - 3.0));
    // Cov(a_g, f_h) = κ·t_g·t_h^(2) for g ≠ h.
    let kappa = pairs * (mf - nf) / (big_n * big_n * (big_n - 1.0) * (big_n - 2.0));
    // Per group, in the falling-factorial basis T_r = t^(r), where the
    // order-t⁴ terms cancel exactly into λ (no E f² − (E f)² at t⁴):
    // Var f_g = T4·λ + T3·c(1 − 4c) + T2·c(1 − 2c), c = mn/(N(N − 1)),
    // Cov(a_g, f_g) = T3·κ + T2·c(1 − 2m/N); across groups
    // Cov(f_g, f_h) = λ·T2_g·T2_h and Cov(a_g, f_h) = κ·t_g·T2_h.
    let c = cross;
    let mut var_ties = 0.0;
    let mut cov = 0.0;
    let mut below = 0.0;
    let centre = (big_n + 1.0) / 2.0;
    let own_share = (nf - mf) / big_n;
    for &t in sizes {
        let t = t as f64;
        let (t2, t3, t4) = (falling(t, 2), falling(t, 3), falling(t, 4));
        var_ties += t4 * lambda
            + t3 * c * (1.0 - 4.0 * c)
            + t2 * c * (1.0 - 2.0 * c)
            + lambda * t2 * (s2 - t2);
        let cov_a = kappa * (t3 + t * (s2 - t2)) + t2 * c * own_share;
        let mid_rank = below + (t + 1.0) / 2.0;
        cov += (mid_rank - centre) * cov_a;
        below += t;
    }
    let var_ties = var_ties.max(0.0);
    let mean = pairs / 2.0 + mean_ties / 2.0;
    let low = (var_u + var_ties / 4.0 + cov).max(0.0);
    let high = (var_u + var_ties / 4.0 - cov).max(0.0);
    (mean, low, high)
}

/// Two samples: the laws of the lower end's count U≤ and of the upper
/// end's count M − U< for the pooled tie groups `sizes` (ascending) of x
/// (the reference, `m` values) and y − δ (`n` values); exact when
/// `exact`, else normal with the exact conditional moments. `tail` is the
/// miss probability each end may have (α/2): the exact law is computed
/// only as far as its quantile needs (a bound from the normal law, or the
/// middle when the bound falls short), which keeps tiny per-comparison
/// levels of large families cheap.
pub(crate) fn two_sample_laws(ties: &TwoSampleTies) -> Laws {
    let normal = ties.moments();
    if ties.m == ties.n {
        // Equal sizes: the upper end's count is the same statistic with
        // the samples' roles swapped (module docs), so it has the same law;
        // its arguments here are the same too (the covariance term of the
        // moments is then 0 exactly), and so is what it computes.
        let low = two_sample_law_with(ties, true, normal);
        return (low.clone(), low);
    }
    (
        two_sample_law_with(ties, true, normal),
        two_sample_law_with(ties, false, normal),
    )
}

/// What a two-sample law depends on: the pooled tie groups `sizes`
/// (ascending) of x (`m` values) and y − δ (`n` values), whether the law
/// is to be exact, and the miss probability `tail` each end may have.
pub(crate) struct TwoSampleTies<'a> {
    pub sizes: &'a [u64],
    pub m: u64,
    pub n: u64,
    pub exact: bool,
    pub tail: f64,
}

impl TwoSampleTies<'_> {
    /// [`two_sample_moments`], where they exist (more than one group, at
    /// least 4 values).
    fn moments(&self) -> Option<(f64, f64, f64)> {
        (self.sizes.len() > 1 && self.m + self.n >= 4)
            .then(|| two_sample_moments(self.sizes, self.m, self.n))
    }
}

/// One of [`two_sample_laws`]: the lower end's (`low_side`) or the upper
/// end's, alone.
pub(crate) fn two_sample_law(ties: &TwoSampleTies, low_side: bool) -> TailLaw {
    two_sample_law_with(ties, low_side, ties.moments())
}

/// [`two_sample_law`] given the moments (`TwoSampleTies::moments`).
fn two_sample_law_with(
    ties: &TwoSampleTies,
    low_side: bool,
    normal: Option<(f64, f64, f64)>,
) -> TailLaw {
    let &TwoSampleTies {
        sizes,
        m,
        n,
        exact,
        tail,
    } = ties;
    let pairs = u128::from(m) * u128::from(n);
    if sizes.len() <= 1 {
        // Everything tied: every difference equals δ, U≤ = M surely.
        return TailLaw::Normal {
            mean: pairs as f64,
            sd: 0.0,
        };
    }
    // The upper end's count is U≤ with the samples' roles swapped.
    let (first, second) = if low_side { (m, n) } else { (n, m) };
    let variance = normal.map(|(_, low, high)| if low_side { low } else { high });
    match (normal, variance) {
        (Some((mean, _, _)), Some(v)) if !exact => TailLaw::Normal { mean, sd: v.sqrt() },
        _ => {
            let middle = usize::try_from(pairs.div_ceil(2)).unwrap_or(usize::MAX);
            let z = normal_quantile(tail).map_or(0.0, |q| -q);
            let target = tail - 10.0 * f64::EPSILON;
            if let (Some((mean, _, _)), Some(v)) = (normal, variance) {
                let sd = v.sqrt();
                let bound = (mean - z * sd + 3.0 * sd + 2.0).max(0.0);
                if bound < middle as f64 {
                    let cdf = remembered_exact(sizes, first, second, bound as usize);
                    if cdf.last().is_some_and(|&c| c >= target) {
                        return TailLaw::Exact(cdf);
                    }
                }
            }
            TailLaw::Exact(remembered_exact(sizes, first, second, middle))
        }
    }
}

/// Paired: the law of the lower end's count U≤ = M − T> for `zeros`
/// differences equal to δ and groups `sizes` of equal |d − δ| > 0
/// (ascending); both ends share it. Exact by dynamic programming over the
/// groups (each group's positives Binomial(t_g, ½)), else normal with
/// the exact mean and variance of the independent group terms.
pub(crate) fn paired_law(zeros: u64, sizes: impl IntoIterator<Item = u64>, exact: bool) -> TailLaw {
    let count = |r: u64| u128::from(r) * u128::from(r + 1) / 2;
    if exact {
        let sizes: Vec<u64> = sizes.into_iter().collect();
        let count = count(zeros + sizes.iter().sum::<u64>());
        let total = count as usize;
        // dp[u] = P(T> = u) over the groups so far.
        let mut dp = vec![0.0f64; total + 1];
        dp[0] = 1.0;
        let mut top = 0usize;
        let mut below = zeros;
        for &t in &sizes {
            let weights = binomial_row(t);
            let scale = 0.5f64.powi(t as i32);
            let mut next = vec![0.0f64; total + 1];
            for p in 0..=t {
                let step = (p * below + p * (p + 1) / 2) as usize;
                let w = weights[p as usize] * scale;
                for u in 0..=top {
                    next[u + step] += w * dp[u];
                }
            }
            top += (t * below + t * (t + 1) / 2) as usize;
            dp = next;
            below += t;
        }
        // P(U≤ ≤ q) = P(T> ≥ M − q), for every q: the ranks used never
        // pass the middle, but whether the test accepts the estimate
        // ([`accepts_estimate`]) needs the rank unclamped.
        let mut upper = 0.0;
        let mut cdf = Vec::with_capacity(total + 1);
        for q in 0..=total {
            upper += dp[total - q];
            cdf.push(upper.min(1.0));
        }
        TailLaw::Exact(cdf)
    } else {
        let mut mean_above = 0.0;
        let mut variance = 0.0;
        let mut below = zeros as f64;
        let mut r = zeros;
        for t in sizes {
            r += t;
            let t = t as f64;
            mean_above += below * t / 2.0 + (t * t + 3.0 * t) / 8.0;
            let a = below + 0.5;
            variance += a * a * t / 4.0 + a * t * t / 4.0 + t * (2.0 * t - 1.0) * (t + 1.0) / 32.0;
            below += t;
        }
        TailLaw::Normal {
            mean: count(r) as f64 - mean_above,
            sd: variance.max(0.0).sqrt(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every labelling of the pooled groups, by brute force: the counts
    /// U≤ for x of size m.
    /// Mean and population variance of every labelling's count.
    fn population_moments(counts: impl Iterator<Item = f64>) -> (f64, f64) {
        let counts: Vec<f64> = counts.collect();
        let k = counts.len() as f64;
        let mean = counts.iter().sum::<f64>() / k;
        let var = counts.iter().map(|&x| (x - mean).powi(2)).sum::<f64>() / k;
        (mean, var)
    }

    fn brute_two_sample(sizes: &[u64], m: u64) -> Vec<u64> {
        let group: Vec<usize> = sizes
            .iter()
            .enumerate()
            .flat_map(|(g, &t)| std::iter::repeat(g).take(t as usize))
            .collect();
        let big_n = group.len();
        let mut out = Vec::new();
        for mask in 0u32..(1 << big_n) {
            if u64::from(mask.count_ones()) != m {
                continue;
            }
            let mut count = 0;
            for i in 0..big_n {
                for j in 0..big_n {
                    if mask >> i & 1 == 1 && mask >> j & 1 == 0 && group[j] <= group[i] {
                        count += 1;
                    }
                }
            }
            out.push(count);
        }
        out
    }

    #[test]
    fn remembered_laws_are_the_laws_asked_for() {
        // Same groups with the sizes swapped or another limit are other
        // laws: a memo keyed on less would answer with the wrong one.
        let asks = [
            (vec![1u64, 3, 2, 1, 4], 5u64, 6u64, 30usize),
            (vec![1, 3, 2, 1, 4], 6, 5, 30),
            (vec![1, 3, 2, 1, 4], 5, 6, 12),
            (vec![2, 2, 2, 2, 2], 4, 6, 24),
        ];
        for _ in 0..2 {
            for (sizes, m, n, limit) in &asks {
                let direct = two_sample_exact(sizes, *m, *n, *limit);
                assert_eq!(remembered_exact(sizes, *m, *n, *limit), direct);
            }
        }
        assert_ne!(
            remembered_exact(&asks[0].0, 5, 6, 30),
            remembered_exact(&asks[1].0, 6, 5, 30)
        );
        // The memory is bounded: laws of over 40,000 values each (a limit
        // past M = 24 still gives that many), asked for until they pass
        // the bound several times over.
        for limit in 40_000..40_040 {
            let cdf = remembered_exact(&asks[3].0, 4, 6, limit);
            assert_eq!(cdf, two_sample_exact(&asks[3].0, 4, 6, limit));
            EXACT_LAWS.with(|memo| assert!(memo.borrow().values <= MEMO_VALUES));
        }
    }

    #[test]
    fn exact_two_sample_law_equals_enumeration() {
        for (sizes, m) in [
            (vec![1u64, 3, 2, 1, 4], 5u64),
            (vec![2, 2, 2, 2, 2], 4),
            (vec![1; 9], 4),
            (vec![6, 1, 5], 3),
        ] {
            let total: u64 = sizes.iter().sum();
            let n = total - m;
            let counts = brute_two_sample(&sizes, m);
            let cdf = two_sample_exact(&sizes, m, n, (m * n) as usize);
            for (u, &c) in cdf.iter().enumerate() {
                let expected = counts.iter().filter(|&&x| x as usize <= u).count() as f64
                    / counts.len() as f64;
                assert!((c - expected).abs() < 1e-12, "{sizes:?} u = {u}");
            }
            // The moments behind the normal law are the exact ones.
            let (mean, var) = population_moments(counts.iter().map(|&x| x as f64));
            let (m_hat, v_low, _) = two_sample_moments(&sizes, m, n);
            assert!((m_hat - mean).abs() < 1e-9, "{sizes:?}: {m_hat} vs {mean}");
            assert!(
                (v_low - var).abs() < 1e-9 * var.max(1.0),
                "{sizes:?}: {v_low} vs {var}"
            );
            // The upper end's count is the same statistic, roles swapped.
            let (_, var_swapped) =
                population_moments(brute_two_sample(&sizes, n).into_iter().map(|x| x as f64));
            let (_, _, v_high) = two_sample_moments(&sizes, m, n);
            assert!((v_high - var_swapped).abs() < 1e-9 * var_swapped.max(1.0));
        }
    }

    #[test]
    fn exact_paired_law_equals_enumeration() {
        // |e| groups: 2 zeros, then sizes 1, 3, 2.
        let (zeros, sizes) = (2u64, [1u64, 3, 2]);
        let mut abs = vec![0.0; zeros as usize];
        for (g, &t) in sizes.iter().enumerate() {
            abs.extend(std::iter::repeat((g + 1) as f64).take(t as usize));
        }
        let r = abs.len();
        let signed: Vec<usize> = (0..r).filter(|&i| abs[i] > 0.0).collect();
        let mut counts = Vec::new();
        for mask in 0u32..(1 << signed.len()) {
            let mut e = abs.clone();
            for (bit, &i) in signed.iter().enumerate() {
                if mask >> bit & 1 == 1 {
                    e[i] = -e[i];
                }
            }
            let mut at_most = 0;
            for i in 0..r {
                for j in i..r {
                    if e[i] + e[j] <= 0.0 {
                        at_most += 1;
                    }
                }
            }
            counts.push(at_most);
        }
        let law = paired_law(zeros, sizes.iter().copied(), true);
        let TailLaw::Exact(cdf) = &law else {
            panic!("exact law expected")
        };
        for (q, &c) in cdf.iter().enumerate() {
            let expected = counts.iter().filter(|&&x| x <= q).count() as f64 / counts.len() as f64;
            assert!((c - expected).abs() < 1e-12, "q = {q}");
        }
        let (mean, var) = population_moments(counts.iter().map(|&x| x as f64));
        let TailLaw::Normal { mean: m_hat, sd } = paired_law(zeros, sizes.iter().copied(), false)
        else {
            panic!("normal law expected")
        };
        assert!((m_hat - mean).abs() < 1e-9 && (sd * sd - var).abs() < 1e-9);
    }

    /// Million-run tie patterns (a few distinct values, as tick-quantised
    /// times give), against exact moments that `tools/golden.py` computed
    /// with Python integers from the general finite-population U-statistic
    /// formula: the closed forms hold their accuracy where E f² and (E f)²
    /// agree to many digits.
    #[test]
    fn moments_at_a_million_runs_match_exact_integers() {
        let golden: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/golden/tie_moments.json")).unwrap();
        let cases = golden["cases"].as_array().unwrap();
        assert!(cases.len() >= 5);
        for case in cases {
            let sizes: Vec<u64> = case["sizes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            let (m, n) = (case["m"].as_u64().unwrap(), case["n"].as_u64().unwrap());
            let (mean, low, high) = two_sample_moments(&sizes, m, n);
            for (ours, key) in [(mean, "mean"), (low, "var_low"), (high, "var_high")] {
                let expected = case[key].as_f64().unwrap();
                assert!(
                    (ours - expected).abs() <= 1e-9 * expected.abs(),
                    "{sizes:?} {m} {n} {key}: {ours} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn untied_ranks_are_the_classic_ones() {
        // No ties: one group per value, both ends share the U law.
        let laws = two_sample_laws(&TwoSampleTies {
            sizes: &[1; 18],
            m: 9,
            n: 9,
            exact: true,
            tail: 0.025,
        });
        let (low, high, achieved) = choose_ranks(81, &[laws], 0.05);
        // qwilcox(0.025, 9, 9) = 18 (see shift.rs).
        assert_eq!((low, high), (18, 64));
        let classic = super::super::u_distribution::UDistribution::new(9, 9).unwrap();
        assert!((achieved - (1.0 - 2.0 * classic.cdf(17))).abs() < 1e-12);
    }

    #[test]
    fn everything_tied_is_a_point_with_certainty() {
        let laws = two_sample_laws(&TwoSampleTies {
            sizes: &[20],
            m: 10,
            n: 10,
            exact: false,
            tail: 0.025,
        });
        assert_eq!(choose_ranks(100, &[laws], 0.05), (50, 51, 1.0));
    }
}

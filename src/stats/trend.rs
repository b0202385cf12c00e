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
//! S is computed from the discordant pairs (inversions), counted in
//! O(n log d) for d distinct values with a Fenwick tree over the ranks
//! of the values (d is small for tick-quantised times), never by visiting
//! all n(n−1)/2 pairs. The sort it needs is the one the summaries made
//! ([`mann_kendall_with`]).

use super::normal::normal_cdf;
use super::not_applicable::NotApplicable;
use super::sample::{runs, Sample};
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

/// Counts the pairs i < j with `values[i] > values[j]`, given the same
/// values' distinct values ascending (`distinct`), in O(n log d) for d
/// distinct values:
/// a Fenwick tree (binary indexed tree; Fenwick 1994, "A new data
/// structure for cumulative frequency tables", Software: Practice and
/// Experience 24, 327–336) counts, at each j, the earlier values at most
/// `values[j]`; the others are the inversions j closes. Values are
/// located among the distinct sorted values by a table when they are
/// integers of a narrow range (measurements), else by binary search.
fn inversions(values: &[f64], distinct: &[f64]) -> u64 {
    let d = distinct.len();
    if d < 2 {
        return 0;
    }
    let (lo, hi) = (distinct[0], distinct[d - 1]);
    let narrow = d < u32::MAX as usize
        && hi - lo <= (4 * values.len()).max(65_536) as f64
        && distinct
            .iter()
            .all(|&v| v.abs() <= 9_007_199_254_740_992.0 && (v as i64) as f64 == v);
    // Ranks of the offsets v − lo, when a table of them is small.
    let table: Vec<u32> = if narrow {
        let mut t = vec![u32::MAX; (hi - lo) as usize + 1];
        for (rank, &v) in distinct.iter().enumerate() {
            t[(v - lo) as usize] = rank as u32;
        }
        t
    } else {
        Vec::new()
    };
    let rank = |v: f64| -> usize {
        // A negative offset casts to 0; every hit is checked.
        match table.get((v - lo) as usize) {
            Some(&r) if r != u32::MAX && distinct[r as usize] == v => r as usize,
            _ => distinct.partition_point(|&w| w < v).min(d - 1),
        }
    };
    // Counts in 32 bits when they fit (half the cache of 64).
    if values.len() < u32::MAX as usize {
        fenwick_count::<u32>(values, d, rank)
    } else {
        fenwick_count::<u64>(values, d, rank)
    }
}

/// Σⱼ #{i < j : rank(vᵢ) > rank(vⱼ)} with Fenwick trees over `d` ranks;
/// `T` holds counts up to n.
///
/// The values are split into an earlier and a later half, each counted
/// in its own tree in one loop (two independent chains of increments for
/// the processor to overlap); the pairs across the halves are counted
/// from the two trees' final counts per rank: Σ over ranks r of (later
/// values of rank r) × (earlier values of rank > r).
///
/// Both walks take a fixed number of steps (the tree's height), without a
/// branch on the rank's bits: the prefix walk adds node 0 (always 0) once
/// it has cleared every bit, and the update walk, once past the last node,
/// adds to a spare slot nobody reads. Loops whose length follows the
/// bits of each rank mispredict about twice per value. Each step has its
/// own spare slot, so that the steps past the last node do not wait for
/// each other's increments of one slot.
fn fenwick_count<T>(values: &[f64], d: usize, rank: impl Fn(f64) -> usize) -> u64
where
    T: Copy + Default + std::ops::AddAssign + Into<u64> + From<u8>,
{
    // Nodes 1..=size (a power of two ≥ d), node 0 = 0, then one spare
    // slot per step.
    let size = d.next_power_of_two();
    let height = size.trailing_zeros() as usize + 1;
    // tree[i] (1-based) counts the values seen with rank in
    // (i − lowbit(i), i]; the ranks ≤ r are the nodes of r's set bits.
    let at_most = |tree: &[T], r: usize| -> u64 {
        let (mut sum, mut i) = (0u64, r);
        for _ in 0..height {
            sum += tree[i].into();
            i &= i.wrapping_sub(1);
        }
        sum
    };
    let insert = |tree: &mut [T], r: usize| {
        let mut i = r;
        for step in 0..height {
            let node = if i <= size { i } else { size + 1 + step };
            tree[node] += T::from(1);
            i += i & i.wrapping_neg();
        }
    };
    let (earlier, later) = values.split_at(values.len() / 2);
    let mut trees = [
        vec![T::default(); size + 1 + height],
        vec![T::default(); size + 1 + height],
    ];
    let [early, late] = &mut trees;
    let mut count = 0u64;
    for (j, &v) in later.iter().enumerate() {
        if let Some(&u) = earlier.get(j) {
            let r = rank(u) + 1;
            count += j as u64 - at_most(early, r);
            insert(early, r);
        }
        let r = rank(v) + 1;
        count += j as u64 - at_most(late, r);
        insert(late, r);
    }
    // Across the halves: per rank, later values × earlier values above.
    let mut late_below = 0u64;
    for r in 1..=d {
        let late_at_most = at_most(late, r);
        count += (late_at_most - late_below) * (earlier.len() as u64 - at_most(early, r));
        late_below = late_at_most;
    }
    count
}

/// The Mann–Kendall test of `series` (values in time order).
///
/// Errors: [`NotApplicable::TooFewValues`] below [`TREND_MIN_N`] values,
/// [`NotApplicable::ZeroVariance`] when all values are equal (no ranks to
/// correlate).
pub fn mann_kendall(series: &Series) -> Result<MannKendall, NotApplicable> {
    let mut sorted = series.values().to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    mann_kendall_runs(series, runs(&sorted))
}

/// [`mann_kendall`] given the series' values already sorted (the
/// [`Sample`] of the same values, which the summaries have made): no sort
/// of its own. `sorted` must hold exactly the series' values, ascending;
/// if its length differs, the series is sorted here instead.
pub fn mann_kendall_with(series: &Series, sample: &Sample) -> Result<MannKendall, NotApplicable> {
    if sample.len() != series.len() {
        return mann_kendall(series);
    }
    mann_kendall_runs(series, sample.runs())
}

/// The test given the runs of equal values of the series' values sorted
/// (value, positions).
fn mann_kendall_runs(
    series: &Series,
    runs: impl Iterator<Item = (f64, std::ops::Range<usize>)>,
) -> Result<MannKendall, NotApplicable> {
    let n = series.len();
    if n < TREND_MIN_N {
        return Err(NotApplicable::TooFewValues {
            n,
            min: TREND_MIN_N,
        });
    }
    // Tie groups of the sorted values: pairs tied (n₂) and the variance
    // correction Σ t(t−1)(2t+5), both in exact integers.
    let (mut tied_pairs, mut correction) = (0u64, 0u128);
    let mut distinct = Vec::new();
    for (v, run) in runs {
        let t = run.len() as u64;
        tied_pairs += t * (t - 1) / 2;
        correction += u128::from(t * (t - 1)) * u128::from(2 * t + 5);
        distinct.push(v);
    }
    let n64 = n as u64;
    let pairs = n64 * (n64 - 1) / 2;
    if tied_pairs == pairs {
        return Err(NotApplicable::ZeroVariance);
    }
    let discordant = inversions(series.values(), &distinct);
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

/// Pettitt's change point (Pettitt 1979, "A non-parametric approach to
/// the change-point problem", Applied Statistics 28(2), 126–135): the
/// split of `values` (time order) into the first `k` and the rest that
/// maximises |U_k| = |2·R_k − k(n + 1)|, R_k the sum of the first k
/// values' mid-ranks. It says *when* a series changed, not whether (the
/// Mann–Kendall test says that). `None` with fewer than two values or no
/// change at all (every U_k is 0).
pub fn change_point(values: &[f64]) -> Option<usize> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    // Mid-ranks (ties share the mean of their ranks), doubled to stay integers.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut rank2 = vec![0u64; n];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Ranks start + 1 ..= end: twice their mean is start + 1 + end.
        for &i in &order[start..end] {
            rank2[i] = (start + 1 + end) as u64;
        }
        start = end;
    }
    let (mut best, mut at) = (0i128, None);
    let mut sum2 = 0i128;
    for k in 1..n {
        sum2 += i128::from(rank2[k - 1]);
        // 2·U_k = 2·(2R_k) − 2k(n + 1), in doubled ranks: 2·sum2 − 2k(n+1).
        let u = (2 * sum2 - 2 * (k as i128) * (n as i128 + 1)).abs();
        if u > best {
            (best, at) = (u, Some(k));
        }
    }
    at
}

/// A slope common to several groups of (time, value) pairs, each group
/// with its own level: the pooled within-group least-squares slope
/// (analysis of covariance with a common slope), and its confidence
/// interval from Student's t with N − G − 1 degrees of freedom (N pairs,
/// G groups).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PooledSlope {
    /// Change of value per unit of time.
    pub slope: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// Pairs used.
    pub n: usize,
}

/// The pooled within-group slope of `groups` (each a list of (time,
/// value) pairs), at two-sided `confidence`. Groups with fewer than two
/// pairs add nothing. `None` when fewer than one degree of freedom is left
/// for the residual variance, or no group has two distinct times.
///
/// Least squares, not a rank method: a step inside one group moves its
/// slope (and so the pooled one), where a median of slopes would ignore it.
/// Heavy tails widen the interval, never narrow it.
pub fn pooled_slope(groups: &[Vec<(f64, f64)>], confidence: f64) -> Option<PooledSlope> {
    let (mut sxx, mut sxy, mut n, mut g) = (0.0, 0.0, 0usize, 0usize);
    let mut centred: Vec<(f64, f64)> = Vec::new();
    for group in groups.iter().filter(|p| p.len() >= 2) {
        let m = group.len() as f64;
        let tx = group.iter().map(|p| p.0).sum::<f64>() / m;
        let ty = group.iter().map(|p| p.1).sum::<f64>() / m;
        for &(t, y) in group {
            let (dx, dy) = (t - tx, y - ty);
            sxx += dx * dx;
            sxy += dx * dy;
            centred.push((dx, dy));
        }
        n += group.len();
        g += 1;
    }
    let df = n.checked_sub(g + 1).filter(|&d| d >= 1)?;
    if sxx.is_nan() || sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let rss: f64 = centred
        .iter()
        .map(|&(dx, dy)| (dy - slope * dx).powi(2))
        .sum();
    let se = (rss / df as f64 / sxx).sqrt();
    let t = student_t_quantile(0.5 + confidence / 2.0, df as f64)?;
    Some(PooledSlope {
        slope,
        low: slope - t * se,
        high: slope + t * se,
        n,
    })
}

/// Student's t quantile at `p` (above ½) for `nu` degrees of freedom:
/// up to 100 degrees of freedom by bisection on the exact distribution
/// function for integer ν (Abramowitz & Stegun 1964, 26.7.3–4, ν rounded
/// down, which widens an interval); beyond, the Cornish–Fisher expansion
/// about the normal quantile (26.7.5, four terms, within 10⁻⁴ there).
/// `None` for p outside (½, 1) or ν < 1.
pub fn student_t_quantile(p: f64, nu: f64) -> Option<f64> {
    let valid = p > 0.5 && p < 1.0 && nu >= 1.0;
    if !valid {
        return None;
    }
    if nu <= 100.0 {
        let nu = nu.floor() as u32;
        let target = 2.0 * p - 1.0; // P(|T| ≤ t)
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        while t_central(hi, nu) < target {
            hi *= 2.0;
            if hi > 1e12 {
                return Some(hi);
            }
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if t_central(mid, nu) < target {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= 1e-12 * hi {
                break;
            }
        }
        return Some(hi);
    }
    let z = super::normal::normal_quantile(p)?;
    let (z2, z3) = (z * z, z * z * z);
    let (z5, z7) = (z3 * z2, z3 * z2 * z2);
    Some(
        z + (z3 + z) / (4.0 * nu)
            + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * nu * nu)
            + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * nu * nu * nu),
    )
}

/// P(|T| ≤ t) for Student's t with integer ν ≥ 1 (A&S 26.7.3–4), t ≥ 0.
fn t_central(t: f64, nu: u32) -> f64 {
    let theta = (t / f64::from(nu).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    if nu % 2 == 1 {
        // (2/π)(θ + sin θ (cos θ + 2/3 cos³θ + … )), the sum to cos^(ν−2).
        let (mut term, mut sum) = (c, 0.0);
        let mut k = 1;
        while k + 2 <= nu {
            sum += term;
            term *= c2 * f64::from(k + 1) / f64::from(k + 2);
            k += 2;
        }
        (2.0 / std::f64::consts::PI) * (theta + s * sum)
    } else {
        // sin θ (1 + ½cos²θ + (1·3)/(2·4)cos⁴θ + …), to cos^(ν−2).
        let (mut term, mut sum) = (1.0, 0.0);
        let mut k = 0;
        while k + 2 <= nu {
            sum += term;
            term *= c2 * f64::from(k + 1) / f64::from(k + 2);
            k += 2;
        }
        s * sum
    }
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

    /// Discordant pairs by their definition.
    fn inversions_by_pairs(v: &[f64]) -> u64 {
        let mut count = 0;
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                count += u64::from(v[i] > v[j]);
            }
        }
        count
    }

    #[test]
    fn inversions_match_the_definition_on_every_path() {
        // Narrow integers (the rank table), wide integers and fractions
        // (binary search), negative values, all tied, few values.
        let mut rng = super::super::rng::SplitMix64::new(11);
        let kinds: [&dyn Fn(&mut super::super::rng::SplitMix64) -> f64; 5] = [
            &|r| (r.below(9) as f64) + 1000.0,
            &|r| (r.below(50) as f64) * 1e7 - 3e8,
            &|r| r.uniform() * 10.0 - 5.0,
            &|r| ((r.below(4) as f64) - 2.0) * 0.25,
            &|_| 4.0,
        ];
        for kind in kinds {
            for n in [1, 2, 3, 10, 57, 300] {
                let v: Vec<f64> = (0..n).map(|_| kind(&mut rng)).collect();
                let mut sorted = v.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                let distinct: Vec<f64> = runs(&sorted).map(|(v, _)| v).collect();
                assert_eq!(inversions(&v, &distinct), inversions_by_pairs(&v), "{v:?}");
            }
        }
    }

    #[test]
    fn the_shared_sort_gives_the_same_test() {
        let mut rng = super::super::rng::SplitMix64::new(5);
        for n in [10, 40, 5000] {
            let v: Vec<f64> = (0..n).map(|i| (rng.below(30) + i / 100) as f64).collect();
            let s = series(&v);
            let sample = Sample::from_slice(&v).unwrap();
            let shared = mann_kendall_with(&s, &sample).unwrap();
            assert_eq!(shared, mann_kendall(&s).unwrap());
            if n <= 40 {
                assert_eq!(shared.s, s_by_pairs(&v));
            }
            // A sample of other values is not trusted blindly.
            let other = Sample::from_slice(&v[1..]).unwrap();
            assert_eq!(mann_kendall_with(&s, &other), mann_kendall(&s));
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

    #[test]
    fn student_t_quantiles_match_published_tables() {
        // Student t table values (e.g. scipy.stats.t.ppf), 4-5 digits.
        for (p, nu, exact) in [
            (0.975, 1.0, 12.7062),
            (0.995, 2.0, 9.9248),
            (0.995, 3.0, 5.8409),
            (0.975, 3.0, 3.1824),
            (0.995, 7.0, 3.4995),
            (0.975, 10.0, 2.2281),
            (0.995, 30.0, 2.7500),
            (0.975, 120.0, 1.9799),
            (0.995, 1000.0, 2.5808),
        ] {
            let q = student_t_quantile(p, nu).unwrap();
            assert!(
                (q - exact).abs() < 6e-5 * exact,
                "t({p}, {nu}) = {q}, not {exact}"
            );
        }
        assert_eq!(student_t_quantile(0.4, 5.0), None);
        assert_eq!(student_t_quantile(0.975, 0.5), None);
    }

    #[test]
    fn the_change_point_is_where_the_level_moves() {
        let mut v = vec![1.0; 12];
        v.extend([2.0; 8]);
        assert_eq!(change_point(&v), Some(12));
        let mut w: Vec<f64> = (0..7).map(|i| f64::from(10 + i % 3)).collect();
        w.extend((0..13).map(|i| f64::from(i % 4)));
        assert_eq!(change_point(&w), Some(7));
        assert_eq!(change_point(&[3.0; 5]), None);
        assert_eq!(change_point(&[1.0]), None);
    }

    #[test]
    fn the_pooled_slope_removes_each_groups_level() {
        // Two groups on one line of slope 0.5, shifted by 100: the common
        // slope is 0.5 exactly, with no residual.
        let a: Vec<(f64, f64)> = (0..5).map(|t| (f64::from(t), 0.5 * f64::from(t))).collect();
        let b: Vec<(f64, f64)> = (5..10)
            .map(|t| (f64::from(t), 100.0 + 0.5 * f64::from(t)))
            .collect();
        let s = pooled_slope(&[a.clone(), b], 0.95).unwrap();
        assert!((s.slope - 0.5).abs() < 1e-12 && (s.high - s.low).abs() < 1e-9);
        // With noise: y = t + e, e = (+1, −1, +1, −1) in each of two groups
        // of t = 0..3. Sxx = 2·5 = 10, Sxy = 2·(5 + (−1.5 + 0.5·(−1) ...)).
        let noisy = |base: f64| -> Vec<(f64, f64)> {
            (0..4)
                .map(|t| {
                    let e = if t % 2 == 0 { 1.0 } else { -1.0 };
                    (f64::from(t), base + f64::from(t) + e)
                })
                .collect()
        };
        let s = pooled_slope(&[noisy(0.0), noisy(50.0)], 0.95).unwrap();
        // By hand: per group Σdx·e = (−1.5)(1) + (−0.5)(−1) + (0.5)(1) +
        // (1.5)(−1) = −2, so slope = 1 + 2·(−2)/10 = 0.6; residuals of
        // each group's line give RSS = 2·(4 − 0.4·... ) computed below.
        assert!((s.slope - 0.6).abs() < 1e-12, "{s:?}");
        let rss: f64 = [noisy(0.0), noisy(50.0)]
            .iter()
            .flat_map(|g| {
                let my = g.iter().map(|p| p.1).sum::<f64>() / 4.0;
                g.iter()
                    .map(move |&(t, y)| (y - my - 0.6 * (t - 1.5)).powi(2))
            })
            .sum();
        let half = 2.570_581_835_636_314 * (rss / 5.0 / 10.0).sqrt(); // t(0.975, 5)
        assert!((s.high - s.slope - half).abs() < 1e-6, "{s:?}");
        assert_eq!(pooled_slope(&[a[..2].to_vec()], 0.95), None);
    }
}

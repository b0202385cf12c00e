//! Change points of a benchmark's history: where a series of experiments,
//! in commit order, moved to another level.
//!
//! # The method
//!
//! The unit is the experiment: each contributes its median, so the
//! variation between experiments — a machine's state from one day to the
//! next, which no single experiment can see — is the noise a change must
//! stand out from. Experiments of the same build (one commit measured
//! several times) are never separated: a split falls only where a new
//! build starts.
//!
//! The series is segmented by binary segmentation, as in E-divisive
//! (Matteson & James 2014, "A nonparametric approach for multiple change
//! point analysis of multivariate data", JASA 109(505), 334–345): the
//! best split of a segment is found, tested, and if significant both
//! halves are searched in turn. The statistic of a split after k of n
//! experiments is the standardised Wilcoxon–Mann–Whitney rank sum of the
//! first k (Pettitt 1979, "A non-parametric approach to the change-point
//! problem", Applied Statistics 28(2), 126–135, for the rank form):
//!
//!   Z_k = |R_k − k(n + 1)/2| / √(k(n − k)(n + 1)/12),
//!
//! R_k the sum of the first k experiments' mid-ranks within the segment,
//! and the segment's statistic is the largest Z_k over its allowed
//! splits. Its significance is a permutation test of that maximum: under
//! no change the experiments of a segment are exchangeable, so the
//! statistic of the data is compared with those of random orders of the
//! same ranks, which also accounts for the choice of the best split among
//! many (the p-value is (1 + #{permuted ≥ observed}) / (1 + permutations),
//! exact at its resolution; the permutations stop early once the count
//! shows p > level, Besag & Clifford 1991, Biometrika 78(2), 301–304).
//! Nothing about the distribution of the medians is assumed.
//!
//! Multiplicity: the segments tested at one depth of the recursion are
//! disjoint, and a segment of m of the series' N experiments is tested at
//! level α·m/N (a weighted Bonferroni split of α by length), so a series
//! without change gets a false change point with chance at most α, and
//! each depth of the recursion spends at most α.
//!
//! Where a significant segment splits is the allowed split whose two
//! parts lie closest to their own means of the logarithms (least
//! squares): the ranks say *that* a segment changed, the values say best
//! *where*, since a clear step is a wide gap in the values but one rank
//! wide. The test never sees this choice, so an outlying experiment can
//! move where a change is placed, never whether there is one; least
//! squares placed simulated steps within ±2 experiments more often than
//! least absolute deviations (BENCHMARKS.md, "Change points against Apache Otava").
//!
//! The size of a change is the ratio of the medians of the experiment
//! medians after and before it (the neighbouring segments), with the
//! order-statistic bounds of [`Contrast::between`] over experiments.

use super::medians::{Contrast, MedianBounds, Scale};
use super::rng::SplitMix64;

/// The default level of the change points: a false change point in at
/// most 1 % of the series without a change. A change point is a claim
/// that a commit changed performance, read by people who act on it;
/// measured against 2 % in BENCHMARKS.md ("Change points against
/// Apache Otava"), 1 % keeps the false change points under half of Apache
/// Otava's on the same series while finding as many steps, at the cost of
/// a longer delay.
pub const DEFAULT_ALPHA: f64 = 0.01;

/// How change points are searched for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The chance of a false change point in a series without one, at
    /// most.
    pub alpha: f64,
    /// 1 − the confidence of the ratio intervals.
    pub interval_alpha: f64,
    /// Random orders per permutation test.
    pub permutations: usize,
    /// Seeds the permutations (the same series gives the same answer).
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            alpha: DEFAULT_ALPHA,
            interval_alpha: 0.05,
            permutations: 999,
            seed: 0x6265_7374_6775_6573,
        }
    }
}

/// A change point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChangePoint {
    /// The index of the first experiment after the change.
    pub at: usize,
    /// The permutation test's p-value when the split was accepted.
    pub p_value: f64,
    /// The level it was tested at.
    pub level: f64,
    /// after / before of the neighbouring segments' medians of
    /// experiment medians, with bounds each missing at most
    /// `interval_alpha`/2 (the
    /// difference when some median is not positive); `None` when a side
    /// is empty.
    pub ratio: Option<Contrast>,
}

/// Mid-ranks (1-based, ties averaged) of `values`.
fn mid_ranks(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && values[order[j]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j + 1) as f64 / 2.0;
        for &k in &order[i..j] {
            ranks[k] = rank;
        }
        i = j;
    }
    ranks
}

/// The splits of a segment its statistic is the largest over (counts of
/// experiments before the split, each in 1..n), each with the centre and
/// scale of its rank sum under no change, k(n + 1)/2 and
/// √(k(n − k)(n + 1)/12): the same for every order of the ranks, so
/// computed once per segment, not once per permutation.
struct Splits {
    at: Vec<usize>,
    centre: Vec<f64>,
    scale: Vec<f64>,
}

impl Splits {
    fn new(n: usize, allowed: &[usize]) -> Splits {
        let n = n as f64;
        let kf = |k: usize| k as f64;
        Splits {
            at: allowed.to_vec(),
            centre: allowed.iter().map(|&k| kf(k) * (n + 1.0) / 2.0).collect(),
            scale: allowed
                .iter()
                .map(|&k| (kf(k) * (n - kf(k)) * (n + 1.0) / 12.0).sqrt())
                .collect(),
        }
    }

    /// The largest standardised rank sum Z_k over the splits, with its
    /// split.
    fn max_statistic(&self, ranks: &[f64]) -> (f64, usize) {
        let mut best = (f64::NEG_INFINITY, 0);
        self.scan(ranks, |z, k| {
            if z > best.0 {
                best = (z, k);
            }
            false
        });
        best
    }

    /// Whether some split's Z_k reaches `observed` (the scan stops at the
    /// first that does).
    fn reaches(&self, ranks: &[f64], observed: f64) -> bool {
        let mut reached = false;
        self.scan(ranks, |z, _| {
            reached = z >= observed;
            reached
        });
        reached
    }

    /// Calls `each(Z_k, k)` for the splits in order until it returns true.
    fn scan(&self, ranks: &[f64], mut each: impl FnMut(f64, usize) -> bool) {
        let mut sum = 0.0;
        let mut at = 0;
        for (i, &k) in self.at.iter().enumerate() {
            while at < k {
                sum += ranks[at];
                at += 1;
            }
            if each((sum - self.centre[i]).abs() / self.scale[i], k) {
                return;
            }
        }
    }
}

/// Where a segment splits: the allowed split whose two parts lie closest
/// to their own means, on the logarithms (least squares; on the values
/// when some is not positive). Ranks show *that* a segment changed; its
/// values show *where* best, since a clear step is a gap in the values
/// but only one rank wide.
fn split_at(values: &[f64], allowed: &[usize]) -> usize {
    let logs = values.iter().all(|&v| v > 0.0);
    let x: Vec<f64> = values
        .iter()
        .map(|&v| if logs { v.ln() } else { v })
        .collect();
    let n = x.len();
    let (mut s, mut q) = (vec![0.0; n + 1], vec![0.0; n + 1]);
    for i in 0..n {
        s[i + 1] = s[i] + x[i];
        q[i + 1] = q[i] + x[i] * x[i];
    }
    let ss = |a: usize, b: usize| {
        let m = (b - a) as f64;
        (q[b] - q[a]) - (s[b] - s[a]).powi(2) / m
    };
    let mut best = (f64::INFINITY, allowed[0]);
    for &k in allowed {
        let cost = ss(0, k) + ss(k, n);
        if cost < best.0 {
            best = (cost, k);
        }
    }
    best.1
}

/// The test of one segment: the permutation p-value (a lower estimate
/// when the permutations stopped early) and whether it is at most the
/// level.
struct Tested {
    p_value: f64,
    significant: bool,
}

/// Tests one segment at `level`, or `None` when it has no split to test.
/// At least 20/level permutations are drawn, so that a level as small
/// as a short segment's can be reached; they stop once p > level is
/// certain.
fn test_segment(
    values: &[f64],
    allowed: &[usize],
    level: f64,
    settings: &Settings,
) -> Option<Tested> {
    if allowed.is_empty() || level <= 0.0 {
        return None;
    }
    let mut ranks = mid_ranks(values);
    let splits = Splits::new(values.len(), allowed);
    let (observed, _) = splits.max_statistic(&ranks);
    // Ties and rounding: a permuted statistic equal to the observed one
    // counts as at least as large.
    let observed = observed - 1e-9 * observed.abs().max(1.0);
    let mut rng = SplitMix64::new(settings.seed ^ (values.len() as u64).rotate_left(32));
    let permutations = settings.permutations.max((20.0 / level).ceil() as usize);
    // p ≤ level exactly when fewer than `most` permuted statistics reach
    // the observed one.
    let most = (level * (permutations + 1) as f64).floor() as usize;
    let mut count = 0;
    for done in 1..=permutations {
        rng.shuffle(&mut ranks);
        if splits.reaches(&ranks, observed) {
            count += 1;
            if count >= most {
                return Some(Tested {
                    p_value: (1 + count) as f64 / (1 + done) as f64,
                    significant: false,
                });
            }
        }
    }
    Some(Tested {
        p_value: (1 + count) as f64 / (1 + permutations) as f64,
        significant: true,
    })
}

/// The change points of `values` (experiment medians in commit order).
/// `new_build[i]` says experiment i starts a new build: a split is allowed
/// only before such an experiment (experiment 0's value is ignored).
pub fn change_points(values: &[f64], new_build: &[bool], settings: &Settings) -> Vec<ChangePoint> {
    let n = values.len();
    let mut found: Vec<(usize, f64, f64)> = Vec::new();
    if n < 2 || new_build.len() != n || values.iter().any(|v| !v.is_finite()) {
        return Vec::new();
    }
    let mut stack = vec![(0usize, n)];
    while let Some((lo, hi)) = stack.pop() {
        let allowed: Vec<usize> = (lo + 1..hi)
            .filter(|&i| new_build[i])
            .map(|i| i - lo)
            .collect();
        let level = settings.alpha * (hi - lo) as f64 / n as f64;
        let Some(t) = test_segment(&values[lo..hi], &allowed, level, settings) else {
            continue;
        };
        if t.significant {
            let k = split_at(&values[lo..hi], &allowed);
            found.push((lo + k, t.p_value, level));
            stack.push((lo, lo + k));
            stack.push((lo + k, hi));
        }
    }
    found.sort_by_key(|f| f.0);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(found.iter().map(|f| f.0))
        .chain(std::iter::once(n))
        .collect();
    found
        .iter()
        .enumerate()
        .map(|(j, &(at, p_value, level))| ChangePoint {
            at,
            p_value,
            level,
            ratio: size(
                &values[bounds[j]..at],
                &values[at..bounds[j + 2]],
                settings.interval_alpha,
            ),
        })
        .collect()
}

/// after / before of the medians, with bounds each missing at most α/2
/// (the two medians' bounds each missing α/4: docs/statistics.md).
pub fn size(before: &[f64], after: &[f64], alpha: f64) -> Option<Contrast> {
    let sorted = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v
    };
    let (b, a) = (sorted(before), sorted(after));
    let scale = if b.iter().chain(&a).all(|&x| x > 0.0) {
        Scale::Ratio
    } else {
        Scale::Difference
    };
    // Each median's bounds miss at most α/4, so each bound of the ratio
    // misses at most α/2; with too few experiments for that, the
    // extremes, with the miss chance they have.
    let bounds = |v: &[f64]| {
        if v.is_empty() {
            return None;
        }
        let extreme = 0.5f64.powi(i32::try_from(v.len()).unwrap_or(i32::MAX));
        MedianBounds::of(v, (alpha / 4.0).max(extreme))
    };
    Contrast::between(&bounds(&b)?, &bounds(&a)?, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(n: usize, seed: u64, level: impl Fn(usize) -> f64) -> Vec<f64> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|i| level(i) * (1.0 + 0.02 * (rng.uniform() - 0.5)))
            .collect()
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(mid_ranks(&[3.0, 1.0, 3.0, 2.0]), [3.5, 1.0, 3.5, 2.0]);
    }

    #[test]
    fn a_step_is_found_where_it_is_with_its_size() {
        let v = noisy(40, 7, |i| if i < 25 { 100.0 } else { 110.0 });
        let cps = change_points(&v, &[true; 40], &Settings::default());
        assert_eq!(cps.len(), 1, "{cps:?}");
        assert_eq!(cps[0].at, 25);
        let r = cps[0].ratio.unwrap();
        assert!(r.low < 1.10 && 1.10 < r.high, "{r:?}");
        assert!(r.low > 1.0);
    }

    #[test]
    fn no_step_no_change_point() {
        let mut false_points = 0;
        for seed in 0..40 {
            let v = noisy(60, seed, |_| 100.0);
            false_points += change_points(&v, &[true; 60], &Settings::default()).len();
        }
        // At most α = 5 % of series, in expectation: 2 of 40; 6 would be
        // far outside what a calibrated test gives (binomial tail < 1 %).
        assert!(false_points <= 6, "{false_points}");
    }

    #[test]
    fn experiments_of_one_build_stay_together() {
        let v = noisy(40, 3, |i| if i < 21 { 100.0 } else { 110.0 });
        // Builds of two experiments each: 21 falls inside the 11th build.
        let builds: Vec<bool> = (0..40).map(|i| i % 2 == 0).collect();
        let cps = change_points(&v, &builds, &Settings::default());
        assert!(cps.iter().all(|c| c.at % 2 == 0), "{cps:?}");
        assert_eq!(cps.len(), 1);
    }

    #[test]
    fn two_steps_are_both_found() {
        let v = noisy(60, 11, |i| match i {
            0..=19 => 100.0,
            20..=39 => 90.0,
            _ => 105.0,
        });
        let cps = change_points(&v, &[true; 60], &Settings::default());
        let at: Vec<usize> = cps.iter().map(|c| c.at).collect();
        assert_eq!(at, [20, 40]);
    }

    #[test]
    fn too_short_or_bad_series_give_nothing() {
        assert!(change_points(&[1.0], &[true], &Settings::default()).is_empty());
        assert!(change_points(&[1.0, f64::NAN], &[true, true], &Settings::default()).is_empty());
    }
}

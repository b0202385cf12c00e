//! Everything one comparison of two commands needs, computed together.
//!
//! The ranking compares each command with the reference: a rank test (is
//! there a difference?), the Hodges–Lehmann shift Δ and its confidence
//! interval (how large, how sure, in the metric's unit), the ratio of
//! locations with its interval (how large relative to the reference) and
//! the probability of superiority Â with its interval (how often does the
//! "slower" one win anyway?).
//!
//! Two designs:
//!
//! * Independent samples ([`compare`]): Mann–Whitney, the two-sample
//!   Hodges–Lehmann shift (median of the n1·n2 differences) and its
//!   distribution-free interval.
//! * Complete rounds ([`compare_paired`]): the within-round differences,
//!   Wilcoxon's signed-rank test and the one-sample Hodges–Lehmann
//!   estimate (median Walsh average) with its interval
//!   (see [`super::signed_rank`]).
//!
//! The ratio is the same estimator on the logarithms, exponentiated: the
//! Hodges–Lehmann shift of ln(values), bounded by the order statistics of
//! the *same ranks* as Δ's interval (with ties, each scale inverts its
//! own conditional test, [`super::conditional::invert`], and the
//! confidence is the lower of the two), so the ratio and Δ come from one
//! rule and have the same confidence (log is increasing, so the rank
//! statistics, their exact distributions and the chosen ranks are those
//! of Δ). It exists only when every value of both commands is positive:
//! a zero or negative time has no logarithm, and no value is altered to
//! make one; the ratio is then `None` and decisions use Δ with relative
//! thresholds resolved against the reference's median.

use super::mann_whitney::{exact_distribution, mann_whitney_with, pooled_ranks, MannWhitney};
use super::normal::normal_quantile;
use super::sample::Sample;
use super::select::{Differences, SortedLogs};
use super::shift::{shift_interval_with, Alpha, ShiftInterval};
use super::signed_rank::{paired_shift_and_logs, PairedDifferences, SignedRank};

/// Which analysis a comparison used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Design {
    /// Two independent samples: Mann–Whitney, two-sample Hodges–Lehmann.
    Independent,
    /// Within-round differences over this many complete rounds: Wilcoxon
    /// signed-rank, one-sample Hodges–Lehmann.
    Paired {
        /// Number of rounds (= differences).
        rounds: usize,
    },
}

/// A ratio of locations, other / reference, with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// exp(Hodges–Lehmann shift of the logarithms).
    pub estimate: f64,
    /// Lower end, at the same ranks and confidence as Δ's interval (with
    /// ties, at its own scale's inverted rank).
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Whether the test on the logarithms accepts their estimate (as
    /// [`ShiftInterval::fits`] for the differences).
    pub fits: bool,
}

/// An interval for the probability of superiority.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub low: f64,
    pub high: f64,
}

/// The statistics of `other` compared with the reference (`best`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// The analysis used for the test, Δ and the ratio.
    pub design: Design,
    /// Two-sided Mann–Whitney test (U and W of the reference); computed in
    /// both designs (Â is its U), deciding in the independent one.
    pub mann_whitney: MannWhitney,
    /// The signed-rank test on the within-round differences (paired
    /// design only).
    pub signed_rank: Option<SignedRank>,
    /// The p-value after adjustment for multiple comparisons. A standalone
    /// comparison has nothing to adjust for, so it equals [`Self::p_value`];
    /// a [`super::ranking::Ranking`] replaces it (Bonferroni, see there).
    pub p_adjusted: f64,
    /// Hodges–Lehmann shift Δ, other − reference (positive: other slower).
    pub shift: f64,
    /// Confidence interval for Δ with the confidence actually achieved.
    pub interval: ShiftInterval,
    /// other / reference, when every value of both is positive.
    pub ratio: Option<Ratio>,
    /// Probability of superiority Â = U/(n1·n2): the chance that a random
    /// run of the reference takes longer than a random run of `other`,
    /// ties counting ½ (Vargha & Delaney 2000, "A critique and improvement
    /// of the CL common language effect size statistics", J. Educ. Behav.
    /// Statist. 25, 101–132). ½ means no tendency either way.
    pub superiority: f64,
    /// Interval for Â at the level of Δ's (nominal): Â ± z·σ with DeLong's
    /// placement variance σ² = s²(V)/n1 + s²(W)/n2 (DeLong, DeLong &
    /// Clarke-Pearson 1988, Biometrics 44, 837–845), clamped to [0, 1].
    pub superiority_interval: Bounds,
}

impl Comparison {
    /// The p-value of the deciding test (signed-rank when paired).
    pub fn p_value(&self) -> f64 {
        self.signed_rank
            .map_or(self.mann_whitney.p_value, |s| s.p_value)
    }

    /// Which way the deciding test's statistic leans: positive when
    /// `other` tends to take longer than the reference (signed-rank: T⁺
    /// of other − reference above its null mean n(n + 1)/4; Mann–Whitney:
    /// Â below ½), negative when it tends to take less, 0 when balanced.
    /// Its sign is what a one-sided reading of the p-value would need.
    pub fn test_leaning(&self) -> f64 {
        match self.signed_rank {
            Some(s) => {
                let n = s.n as f64;
                s.t_plus - n * (n + 1.0) / 4.0
            }
            None => 0.5 - self.superiority,
        }
    }

    /// Whether the deciding test's p-value is exact.
    pub fn test_method(&self) -> super::Method {
        self.signed_rank
            .map_or(self.mann_whitney.method, |s| s.method)
    }
}

/// Whether every value is positive (the logarithm exists).
fn positive(s: &Sample) -> bool {
    s.min() > 0.0
}

/// The logarithm of each value of `s`, in its order; computed once per
/// distinct value (measurements repeat values heavily), the same bits.
pub(crate) fn ln_sorted(s: &Sample) -> Vec<f64> {
    let mut out = Vec::with_capacity(s.len());
    let mut last = (f64::NAN, f64::NAN);
    for &x in s.sorted() {
        if x != last.0 {
            last = (x, x.ln());
        }
        out.push(last.1);
    }
    out
}

/// For each value v of `sorted` (ascending), in order, `f(#{w < v},
/// #{w = v})` over the values w of `of` (ascending): a merge of the two,
/// O(n1 + n2), the counts identical to two binary searches per value.
fn placements(sorted: &[f64], of: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(sorted.len());
    let (mut below, mut at_most) = (0, 0);
    let mut last = (f64::NAN, 0.0);
    for &v in sorted {
        if v != last.0 {
            while below < of.len() && of[below] < v {
                below += 1;
            }
            at_most = at_most.max(below);
            while at_most < of.len() && of[at_most] <= v {
                at_most += 1;
            }
            last = (v, f(below as f64, (at_most - below) as f64));
        }
        out.push(last.1);
    }
    out
}

/// Â with its DeLong interval at level 1 − α.
fn superiority(best: &Sample, other: &Sample, u: f64, alpha: Alpha) -> (f64, Bounds) {
    let (x, y) = (best.sorted(), other.sorted());
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let a = u / (n1 * n2);
    // Placements: for each reference value, the share of `other` below it,
    // and for each other value, the share of the reference above it; ties
    // count ½.
    let var = |v: Vec<f64>, n: f64| {
        let mean = v.iter().sum::<f64>() / n;
        v.iter().map(|p| (p - mean) * (p - mean)).sum::<f64>() / (n - 1.0)
    };
    if n1 < 2.0 || n2 < 2.0 {
        return (
            a,
            Bounds {
                low: 0.0,
                high: 1.0,
            },
        );
    }
    let sv = var(
        placements(x, y, |below, tied| (below + tied / 2.0) / n2),
        n1,
    );
    let sw = var(
        placements(y, x, |below, tied| {
            let above = n1 - below - tied;
            (above + tied / 2.0) / n1
        }),
        n2,
    );
    let sigma = (sv / n1 + sw / n2).max(0.0).sqrt();
    let z = normal_quantile(alpha.get() / 2.0).map_or(0.0, |q| -q);
    (
        a,
        Bounds {
            low: (a - z * sigma).clamp(0.0, 1.0),
            high: (a + z * sigma).clamp(0.0, 1.0),
        },
    )
}

/// Compares `other` with `best` as independent samples: Mann–Whitney, Δ,
/// its confidence interval at level 1 − α, the ratio and Â.
/// O((n1 + n2) log(n1·n2)) time, O(n1 + n2) memory.
pub fn compare(best: &Sample, other: &Sample, alpha: Alpha) -> Comparison {
    compare_with_logs(best, other, None, alpha)
}

/// [`compare`], given the logarithms of both samples when the caller has
/// them ([`SortedLogs::of`] each): not computed again.
pub(crate) fn compare_with_logs(
    best: &Sample,
    other: &Sample,
    logs: Option<(&SortedLogs, &SortedLogs)>,
    alpha: Alpha,
) -> Comparison {
    let (n1, n2) = (best.len(), other.len());
    let ranks = pooled_ranks(best.sorted(), other.sorted());
    let exact = exact_distribution(n1, n2, &ranks);
    let mann_whitney = mann_whitney_with(n1, n2, &ranks, exact.as_ref());
    let differences = Differences::new(best.sorted(), other.sorted());
    let middle = differences.middle();
    let logs = (positive(best) && positive(other)).then(|| match logs {
        Some((b, o)) => Differences::of_logs(b, o),
        None => Differences::new(&ln_sorted(best), &ln_sorted(other)),
    });
    let log_middle = logs.as_ref().map(Differences::middle);
    let mut scales = vec![(&differences, middle)];
    if let (Some(l), Some(lm)) = (logs.as_ref(), log_middle) {
        scales.push((l, lm));
    }
    let one = super::shift::one_value(best, other);
    let (interval, per_scale) =
        shift_interval_with(&scales, n1, n2, alpha, exact.as_ref(), &ranks, one);
    let ratio = logs.as_ref().zip(log_middle).map(|(logs, (a, b))| {
        let (low, high) = per_scale[1].ranks;
        Ratio {
            estimate: ((a + b) / 2.0).exp(),
            low: logs.kth(low).exp(),
            high: logs.kth(high).exp(),
            fits: per_scale[1].fits,
        }
    });
    let (superiority, superiority_interval) = superiority(best, other, mann_whitney.u, alpha);
    Comparison {
        design: Design::Independent,
        mann_whitney,
        signed_rank: None,
        p_adjusted: mann_whitney.p_value,
        shift: (middle.0 + middle.1) / 2.0,
        interval,
        ratio,
        superiority,
        superiority_interval,
    }
}

/// Compares `other` with `best` over complete rounds: `best_rounds[r]` and
/// `other_rounds[r]` were measured in the same round r. Test, Δ and ratio
/// come from the within-round differences; Â from the two samples.
/// `None` when the rounds are empty or of different lengths.
pub fn compare_paired(
    best_rounds: &[f64],
    other_rounds: &[f64],
    alpha: Alpha,
) -> Option<Comparison> {
    let best = Sample::from_slice(best_rounds).ok()?;
    let other = Sample::from_slice(other_rounds).ok()?;
    let rounds = Rounds {
        best: best_rounds,
        other: other_rounds,
    };
    compare_paired_with(&best, &other, rounds, alpha, Known::default())
}

/// From this many rounds [`Rounds::differences`] computes its two halves
/// on two threads.
const SPLIT_ROUNDS_FROM: usize = 1 << 16;

/// Two commands' values in round order: `best[r]` and `other[r]` were
/// measured in the same round r.
#[derive(Clone, Copy)]
pub(crate) struct Rounds<'a> {
    pub best: &'a [f64],
    pub other: &'a [f64],
}

impl Rounds<'_> {
    /// Per round, `f(other) − f(best)`: the paired differences (`f` the
    /// identity) or the differences of their logarithms (`f64::ln`). From
    /// [`SPLIT_ROUNDS_FROM`] rounds, the second half is computed on another
    /// thread meanwhile (two million logarithms take about 20 ms): the
    /// same values.
    pub(crate) fn differences(&self, f: fn(f64) -> f64) -> Vec<f64> {
        let n = self.other.len().min(self.best.len());
        let fill = |out: &mut [f64], rounds: std::ops::Range<usize>| {
            let pairs = self.other[rounds.clone()].iter().zip(&self.best[rounds]);
            for (d, (&o, &b)) in out.iter_mut().zip(pairs) {
                *d = f(o) - f(b);
            }
        };
        let mut out = vec![0.0; n];
        let split = (n >= SPLIT_ROUNDS_FROM).then(|| {
            let half = n / 2;
            let (first, second) = out.split_at_mut(half);
            std::thread::scope(|scope| {
                let theirs = std::thread::Builder::new()
                    .spawn_scoped(scope, || fill(second, half..n))
                    // Where no thread can be started, all below.
                    .ok()?;
                fill(first, 0..half);
                theirs
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                Some(())
            })
        });
        if split.flatten().is_none() {
            fill(&mut out, 0..n);
        }
        out
    }
}

/// What the point estimate of a pair found, for its paired comparison to
/// reuse instead of finding it again.
#[derive(Default)]
pub(crate) struct Known {
    /// The middle Walsh sums of the differences and of the differences of
    /// the logarithms ([`PairedDifferences::middle`]).
    pub middles: [Option<(f64, f64)>; 2],
    /// The differences of the logarithms, prepared for the interval.
    pub logs: Option<PairedDifferences>,
}

/// [`compare_paired`], given the two samples (the rounds' values, sorted)
/// and what the point estimate found ([`Known`]).
pub(crate) fn compare_paired_with(
    best: &Sample,
    other: &Sample,
    rounds: Rounds<'_>,
    alpha: Alpha,
    known: Known,
) -> Option<Comparison> {
    let (best_rounds, other_rounds) = (rounds.best, rounds.other);
    if best_rounds.len() != other_rounds.len() || best_rounds.is_empty() {
        return None;
    }
    // Of the two samples as such, only the rank test and Â are shown:
    // from the commands' sorted samples (the rounds hold the same values,
    // so nothing is sorted again), computed first, so that their working
    // memory is gone before the differences' Walsh sums are prepared
    // (the peak memory).
    let (n1, n2) = (best.len(), other.len());
    let ranks = pooled_ranks(best.sorted(), other.sorted());
    let exact = exact_distribution(n1, n2, &ranks);
    let mann_whitney = mann_whitney_with(n1, n2, &ranks, exact.as_ref());
    let (superiority, superiority_interval) = superiority(best, other, mann_whitney.u, alpha);
    let both_positive = positive(best) && positive(other);
    drop(exact);
    let p = PairedDifferences::with_middle(rounds.differences(|x| x), known.middles[0])?;
    let signed = p.signed_rank();
    let logs = both_positive.then(|| {
        known.logs.or_else(|| {
            PairedDifferences::with_middle(rounds.differences(f64::ln), known.middles[1])
        })
    });
    let (shift, interval, log_ends) = paired_shift_and_logs(&p, logs.flatten(), alpha);
    let ratio = log_ends.map(|(estimate, low, high, fits)| Ratio {
        estimate: estimate.exp(),
        low: low.exp(),
        high: high.exp(),
        fits,
    });
    Some(Comparison {
        design: Design::Paired {
            rounds: best_rounds.len(),
        },
        mann_whitney,
        signed_rank: Some(signed),
        p_adjusted: signed.p_value,
        shift,
        interval,
        ratio,
        superiority,
        superiority_interval,
    })
}

#[cfg(test)]
mod tests {
    use super::super::mann_whitney::mann_whitney;
    use super::super::shift::{hodges_lehmann, shift_interval};
    use super::*;

    /// Â's interval by the definitions, every pair visited: placements
    /// V of the reference's values, W of the other's, ties ½.
    fn brute_superiority(x: &[f64], y: &[f64], alpha: Alpha) -> (f64, Bounds) {
        let (n1, n2) = (x.len() as f64, y.len() as f64);
        let score = |a: f64, b: f64| {
            if a > b {
                1.0
            } else if a == b {
                0.5
            } else {
                0.0
            }
        };
        let v: Vec<f64> = x
            .iter()
            .map(|&a| y.iter().map(|&b| score(a, b)).sum::<f64>() / n2)
            .collect();
        let w: Vec<f64> = y
            .iter()
            .map(|&b| x.iter().map(|&a| score(a, b)).sum::<f64>() / n1)
            .collect();
        let a = v.iter().sum::<f64>() / n1;
        let var = |p: &[f64]| {
            let m = p.iter().sum::<f64>() / p.len() as f64;
            p.iter().map(|q| (q - m) * (q - m)).sum::<f64>() / (p.len() as f64 - 1.0)
        };
        let sigma = (var(&v) / n1 + var(&w) / n2).sqrt();
        let z = -normal_quantile(alpha.get() / 2.0).unwrap();
        let bounds = Bounds {
            low: (a - z * sigma).clamp(0.0, 1.0),
            high: (a + z * sigma).clamp(0.0, 1.0),
        };
        (a, bounds)
    }

    /// The differences per round, made in two halves on two threads from
    /// SPLIT_ROUNDS_FROM rounds, are each round's f(other) − f(best), in
    /// round order, below and above that size, an odd count too.
    #[test]
    fn differences_per_round_in_halves_are_each_rounds() {
        let mut rng = crate::stats::SplitMix64::new(3);
        for n in [
            10,
            SPLIT_ROUNDS_FROM - 1,
            SPLIT_ROUNDS_FROM,
            SPLIT_ROUNDS_FROM + 1001,
        ] {
            let mut values =
                || -> Vec<f64> { (0..n).map(|_| 1.0 + rng.below(5000) as f64).collect() };
            let (best, other) = (values(), values());
            let rounds = Rounds {
                best: &best,
                other: &other,
            };
            for f in [(|x| x) as fn(f64) -> f64, f64::ln] {
                let each: Vec<f64> = (0..n).map(|r| f(other[r]) - f(best[r])).collect();
                assert_eq!(rounds.differences(f), each, "{n} rounds");
            }
        }
    }

    #[test]
    fn superiority_matches_its_definition_with_ties() {
        let mut rng = super::super::rng::SplitMix64::new(13);
        let alpha = Alpha::new(0.05).unwrap();
        for round in 0..30 {
            let x: Vec<f64> = (0..2 + rng.below(30))
                .map(|_| rng.below(9) as f64)
                .collect();
            // Every other round as long as x: also a paired design.
            let n2 = if round % 2 == 0 {
                x.len()
            } else {
                2 + rng.below(30)
            };
            let y: Vec<f64> = (0..n2).map(|_| rng.below(9) as f64).collect();
            let (best, other) = (
                Sample::from_slice(&x).unwrap(),
                Sample::from_slice(&y).unwrap(),
            );
            let c = compare(&best, &other, alpha);
            let (a, bounds) = brute_superiority(&x, &y, alpha);
            let close = |p: f64, q: f64| (p - q).abs() < 1e-12;
            assert!(close(c.superiority, a), "{x:?} {y:?}");
            assert!(close(c.superiority_interval.low, bounds.low), "{x:?} {y:?}");
            assert!(
                close(c.superiority_interval.high, bounds.high),
                "{x:?} {y:?}"
            );
            // Paired rounds show the same Â and rank test of the samples.
            if x.len() == y.len() {
                let p = compare_paired(&x, &y, alpha).unwrap();
                assert_eq!(
                    (p.mann_whitney, p.superiority, p.superiority_interval),
                    (c.mann_whitney, c.superiority, c.superiority_interval)
                );
            }
        }
    }

    #[test]
    fn parts_equal_the_standalone_functions() {
        let best = Sample::from_slice(&[10.0, 12.0, 11.0, 13.0, 12.5, 10.5]).unwrap();
        let other = Sample::from_slice(&[14.0, 15.0, 12.0, 16.0, 15.5]).unwrap();
        let alpha = Alpha::new(0.1).unwrap();
        let c = compare(&best, &other, alpha);
        assert_eq!(c.mann_whitney, mann_whitney(&best, &other));
        assert_eq!(c.p_adjusted, c.mann_whitney.p_value);
        assert_eq!(c.shift, hodges_lehmann(&best, &other));
        // 12 ties 12: the ranks are common to Δ and the ratio, so at
        // least as wide as Δ's own.
        let own = shift_interval(&best, &other, alpha);
        assert!(c.interval.low_rank <= own.low_rank && c.interval.high_rank >= own.high_rank);
        assert!(c.interval.achieved_confidence >= 0.9);
        // U: best > other only for 13 > 12 and 12.5 > 12; 12 ties 12.
        assert_eq!(c.superiority, 2.5 / 30.0);
        assert!(c.superiority_interval.low <= c.superiority);
        assert!(c.superiority <= c.superiority_interval.high);
        // Without ties the interval is the standalone one.
        let other = Sample::from_slice(&[14.0, 15.0, 12.25, 16.0, 15.5]).unwrap();
        let c = compare(&best, &other, alpha);
        assert_eq!(c.interval, shift_interval(&best, &other, alpha));
    }

    #[test]
    fn the_ratio_is_scale_free_and_consistent_with_the_shift() {
        let best = Sample::from_slice(&[10.0, 12.0, 11.0, 13.0, 12.5, 10.5]).unwrap();
        let other = Sample::from_slice(&[14.0, 15.0, 12.0, 16.0, 15.5]).unwrap();
        let alpha = Alpha::new(0.05).unwrap();
        let c = compare(&best, &other, alpha);
        let r = c.ratio.unwrap();
        assert!(r.low <= r.estimate && r.estimate <= r.high);
        assert!(r.estimate > 1.0 && c.shift > 0.0);
        // Scaling both samples leaves the ratio unchanged.
        let scale =
            |s: &Sample| Sample::new(s.sorted().iter().map(|x| x * 1000.0).collect()).unwrap();
        let c2 = compare(&scale(&best), &scale(&other), alpha);
        let r2 = c2.ratio.unwrap();
        for (a, b) in [
            (r.estimate, r2.estimate),
            (r.low, r2.low),
            (r.high, r2.high),
        ] {
            assert!((a - b).abs() < 1e-12 * a, "{a} vs {b}");
        }
    }

    #[test]
    fn zero_values_have_no_ratio_but_a_shift() {
        let best = Sample::from_slice(&[0.0, 1.0, 2.0, 1.0, 0.0]).unwrap();
        let other = Sample::from_slice(&[3.0, 4.0, 2.0, 5.0, 3.0]).unwrap();
        let c = compare(&best, &other, Alpha::new(0.05).unwrap());
        assert_eq!(c.ratio, None);
        assert!(c.shift.is_finite() && c.interval.low.is_finite());
    }

    #[test]
    fn paired_comparison_cancels_a_shared_drift() {
        // Both commands drift by the same amount per round; the other is
        // always 5 slower. The paired shift is exactly 5, with a point
        // interval, though the two samples overlap heavily.
        let best: Vec<f64> = (0..20).map(|r| 100.0 + 10.0 * f64::from(r)).collect();
        let other: Vec<f64> = best.iter().map(|b| b + 5.0).collect();
        let alpha = Alpha::new(0.05).unwrap();
        let c = compare_paired(&best, &other, alpha).unwrap();
        assert_eq!(c.design, Design::Paired { rounds: 20 });
        assert_eq!((c.shift, c.interval.low, c.interval.high), (5.0, 5.0, 5.0));
        assert!(c.p_value() < 1e-4, "{}", c.p_value());
        let independent = compare(
            &Sample::new(best.clone()).unwrap(),
            &Sample::new(other.clone()).unwrap(),
            alpha,
        );
        assert!(independent.interval.low < 0.0);
        assert!(compare_paired(&best, &other[1..], alpha).is_none());
    }
}

//! The best-case estimate and its stability, after `tim` (c-blake/bu).
//!
//! A run can only be slowed down by the rest of the machine, never sped
//! up, so the fastest runs say most about what a command costs without
//! interference. `tim` estimates that cost as the mean of the fastest k
//! runs, takes their standard deviation as a (deliberately vague) error,
//! and checks the estimate by making it twice, from two back-to-back
//! halves of the experiment: when the two disagree by many of their own
//! standard deviations, the fastest runs themselves moved, and no figure
//! of the experiment should be trusted as it stands.
//!
//! Definitions (for the values of one command in time order):
//!
//! * Halves: the first ⌊n/2⌋ values and the remaining ⌈n/2⌉ (with an odd
//!   n the later half has the extra run).
//! * In each half i, mᵢ and sᵢ are the mean and the sample standard
//!   deviation (n − 1 denominator) of its k smallest values.
//! * Estimate (m₁ + m₂)/2, with the error propagated from both halves as
//!   independent: √(s₁² + s₂²)/2.
//! * Distance |m₁ − m₂| / √(s₁² + s₂²); the estimate is stable when the
//!   distance is at most the threshold (default 9, `tim`'s).
//!
//! Edge cases, chosen so that nothing is ever NaN or ∞: fewer than 2k
//! values is [`NotApplicable::TooFewValues`]; when both halves' fastest
//! runs are constant (s₁ = s₂ = 0, common with tick-quantised times) the
//! distance is 0 if m₁ = m₂ (stable) and has no finite value otherwise
//! (`None`, unstable: the fastest runs changed and nothing varied).

use thiserror::Error;

use super::moments::Moments;
use super::not_applicable::NotApplicable;
use super::sample::Sample;
use super::series::Series;

/// `tim`'s default number of fastest runs averaged in each half.
pub const DEFAULT_BEST_K: usize = 3;
/// `tim`'s default largest distance (in combined standard deviations)
/// between the halves for a stable estimate.
pub const DEFAULT_MAX_DISTANCE: f64 = 9.0;

/// How the best case is estimated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BestCaseSettings {
    /// Fastest runs averaged in each half, at least 2 (one value has no
    /// standard deviation).
    pub k: usize,
    /// Largest distance between the halves' estimates that counts as
    /// stable; finite and positive.
    pub max_distance: f64,
}

impl Default for BestCaseSettings {
    fn default() -> Self {
        BestCaseSettings {
            k: DEFAULT_BEST_K,
            max_distance: DEFAULT_MAX_DISTANCE,
        }
    }
}

/// Why [`BestCaseSettings`] are invalid.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum BestCaseSettingsError {
    #[error("the number of fastest runs must be at least 2 (one run has no spread), not {0}")]
    K(usize),
    #[error("the stability threshold must be a positive number of standard deviations, not {0}")]
    MaxDistance(f64),
}

impl BestCaseSettings {
    /// The settings, checked.
    pub fn validated(self) -> Result<Self, BestCaseSettingsError> {
        if self.k < 2 {
            return Err(BestCaseSettingsError::K(self.k));
        }
        if !(self.max_distance.is_finite() && self.max_distance > 0.0) {
            return Err(BestCaseSettingsError::MaxDistance(self.max_distance));
        }
        Ok(self)
    }
}

/// The fastest k runs of one half.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfBest {
    /// Runs in the half.
    pub n: usize,
    /// Mean of its k fastest runs.
    pub mean: f64,
    /// Their sample standard deviation.
    pub sd: f64,
}

/// The best-case estimate of one series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BestCase {
    /// Fastest runs averaged in each half.
    pub k: usize,
    /// The earlier and the later half.
    pub halves: [HalfBest; 2],
    /// (m₁ + m₂)/2.
    pub estimate: f64,
    /// √(s₁² + s₂²)/2.
    pub error: f64,
    /// |m₁ − m₂| / √(s₁² + s₂²); `None` when both halves are constant and
    /// differ, so that no finite distance exists.
    pub distance: Option<f64>,
    /// The distance is at most the threshold.
    pub stable: bool,
}

/// Mean and sd of the k smallest values of `half` (which has ≥ k ≥ 2).
fn fastest(half: &[f64], k: usize) -> HalfBest {
    // The k smallest, ascending: a selection, then a sort of those alone
    // (the same values, in the same order, as sorting the whole half).
    let mut values = half.to_vec();
    if k < values.len() {
        values.select_nth_unstable_by(k - 1, f64::total_cmp);
        values.truncate(k);
    }
    values.sort_unstable_by(f64::total_cmp);
    // Values come from a Series, so they are valid for a Sample.
    let moments = Sample::new(values).map(|s| Moments::of(&s));
    let (mean, sd) = match moments {
        Ok(m) => (m.mean, m.sd.unwrap_or(0.0)),
        Err(_) => (0.0, 0.0),
    };
    HalfBest {
        n: half.len(),
        mean,
        sd,
    }
}

/// The best-case estimate of `series` (values in time order).
///
/// Errors: [`NotApplicable::TooFewValues`] with fewer than 2k values.
pub fn best_case(series: &Series, settings: &BestCaseSettings) -> Result<BestCase, NotApplicable> {
    let values = series.values();
    let n = values.len();
    let k = settings.k.max(2);
    if n < 2 * k {
        return Err(NotApplicable::TooFewValues { n, min: 2 * k });
    }
    let (early, late) = values.split_at(n / 2);
    let halves = [fastest(early, k), fastest(late, k)];
    let [a, b] = halves;
    // hypot: no overflow or underflow in the squares.
    let combined = a.sd.hypot(b.sd);
    let gap = (a.mean - b.mean).abs();
    let distance = if combined > 0.0 {
        Some(gap / combined).filter(|d| d.is_finite())
    } else if gap == 0.0 {
        Some(0.0)
    } else {
        None
    };
    Ok(BestCase {
        k,
        halves,
        // Halved before adding: no overflow near the magnitude limit.
        estimate: a.mean / 2.0 + b.mean / 2.0,
        error: combined / 2.0,
        distance,
        stable: distance.is_some_and(|d| d <= settings.max_distance),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_runs_are_those_a_full_sort_puts_first() {
        let mut rng = super::super::rng::SplitMix64::new(9);
        for (n, k) in [(2, 2), (7, 3), (100, 3), (100, 99), (1000, 17)] {
            let half: Vec<f64> = (0..n).map(|_| rng.below(40) as f64 * 0.5).collect();
            let mut sorted = half.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let first = &sorted[..k];
            let mean = first.iter().sum::<f64>() / k as f64;
            let var = first.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
            let got = fastest(&half, k);
            assert_eq!(got.n, n);
            assert!(
                (got.mean - mean).abs() <= 1e-12 * mean.abs().max(1.0),
                "{got:?}"
            );
            assert!(
                (got.sd - var.sqrt()).abs() <= 1e-12 * mean.abs().max(1.0),
                "{got:?}"
            );
        }
    }

    fn series(v: &[f64]) -> Series {
        Series::new(v.to_vec()).unwrap()
    }

    #[test]
    fn estimate_error_and_distance_by_hand() {
        // Halves [5, 1, 2, 3, 9] and [4, 6, 2, 7, 3, 8]: fastest three are
        // {1, 2, 3} (mean 2, sd 1) and {2, 3, 4} (mean 3, sd 1).
        let b = best_case(
            &series(&[5.0, 1.0, 2.0, 3.0, 9.0, 4.0, 6.0, 2.0, 7.0, 3.0, 8.0]),
            &BestCaseSettings::default(),
        )
        .unwrap();
        assert_eq!(
            b.halves[0],
            HalfBest {
                n: 5,
                mean: 2.0,
                sd: 1.0
            }
        );
        assert_eq!(
            b.halves[1],
            HalfBest {
                n: 6,
                mean: 3.0,
                sd: 1.0
            }
        );
        assert_eq!(b.estimate, 2.5);
        assert_eq!(b.error, 2f64.sqrt() / 2.0);
        assert_eq!(b.distance, Some(1.0 / 2f64.sqrt()));
        assert!(b.stable);
    }

    #[test]
    fn too_few_values_for_two_halves() {
        let s = BestCaseSettings::default();
        assert_eq!(
            best_case(&series(&[1.0; 5]), &s),
            Err(NotApplicable::TooFewValues { n: 5, min: 6 })
        );
        assert!(best_case(&series(&[1.0; 6]), &s).is_ok());
    }

    #[test]
    fn constant_halves_have_zero_or_no_distance() {
        let s = BestCaseSettings::default();
        let same = best_case(&series(&[4.0; 8]), &s).unwrap();
        assert_eq!(
            (same.distance, same.stable, same.error),
            (Some(0.0), true, 0.0)
        );
        let moved = best_case(&series(&[4.0, 4.0, 4.0, 8.0, 8.0, 8.0]), &s).unwrap();
        assert_eq!((moved.distance, moved.stable), (None, false));
        assert_eq!(moved.estimate, 6.0);
    }

    #[test]
    fn a_jump_of_the_fastest_runs_is_unstable() {
        // The same small noise pattern, then everything 20 % slower.
        let noise = [0.3, 0.1, 0.5, 0.0, 0.2, 0.4, 0.6, 0.1, 0.3, 0.2];
        let mut v: Vec<f64> = noise.iter().map(|e| 100.0 + e).collect();
        v.extend(noise.iter().map(|e| 120.0 + e));
        let s = BestCaseSettings::default();
        let b = best_case(&series(&v), &s).unwrap();
        assert!(!b.stable && b.distance.unwrap() > 9.0, "{b:?}");
        // Interleaving the two levels in time makes the halves agree.
        let mixed: Vec<f64> = (0..20).map(|i| v[(i % 2) * 10 + i / 2]).collect();
        assert!(best_case(&series(&mixed), &s).unwrap().stable);
    }

    #[test]
    fn settings_are_validated() {
        let ok = BestCaseSettings::default();
        assert_eq!(ok.validated(), Ok(ok));
        let k1 = BestCaseSettings { k: 1, ..ok };
        assert_eq!(k1.validated(), Err(BestCaseSettingsError::K(1)));
        for d in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let bad = BestCaseSettings {
                max_distance: d,
                ..ok
            };
            assert!(bad.validated().is_err());
        }
    }

    #[test]
    fn extreme_magnitudes_stay_finite() {
        let v = [1e100, -1e100, 1e100, -1e100, 1e100, -1e100, 1e100, 1e100];
        let b = best_case(&series(&v), &BestCaseSettings::default()).unwrap();
        assert!(b.estimate.is_finite() && b.error.is_finite());
        assert!(b.distance.map_or(true, f64::is_finite));
    }
}

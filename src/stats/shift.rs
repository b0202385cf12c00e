//! The Hodges–Lehmann shift: the median of all pairwise differences
//! other − best (Hodges & Lehmann 1963, "Estimates of location based on
//! rank tests", Ann. Math. Statist. 34, 598–611), and any order statistic
//! of those differences, from [`super::select`] without forming the
//! n1·n2 differences; and the validated significance level [`Alpha`].

use thiserror::Error;

use super::sample::Sample;
use super::select::Differences;

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

#[cfg(test)]
mod tests {
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
    fn kth_pairwise_difference_rejects_ranks_out_of_range() {
        let (a, b) = (sample(&[1.0, 2.0]), sample(&[3.0]));
        assert_eq!(kth_pairwise_difference(&a, &b, 0), None);
        assert_eq!(kth_pairwise_difference(&a, &b, 3), None);
        assert_eq!(kth_pairwise_difference(&a, &b, 2), Some(2.0));
    }
}

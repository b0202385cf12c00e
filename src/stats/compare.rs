//! Everything one comparison of two commands needs, computed together.
//!
//! The ranking compares each command with the best: the Mann–Whitney test
//! (is there a difference?), the Hodges–Lehmann shift and its confidence
//! interval (how large, how sure?) and the probability of superiority (how
//! often does the "slower" one win anyway?). They share one merge of the
//! sorted samples and one exact null distribution, built here once.

use super::mann_whitney::{exact_distribution, mann_whitney_with, pooled_ranks, MannWhitney};
use super::sample::Sample;
use super::select::Differences;
use super::shift::{hodges_lehmann_with, shift_interval_with, Alpha, ShiftInterval};

/// The statistics of `other` compared with `best`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// Two-sided Mann–Whitney test (U and W of `best`).
    pub mann_whitney: MannWhitney,
    /// The p-value after adjustment for multiple comparisons. A standalone
    /// comparison has nothing to adjust for, so it equals
    /// `mann_whitney.p_value`; a [`super::ranking::Ranking`] replaces it by
    /// the Holm-adjusted value over all its comparisons.
    pub p_adjusted: f64,
    /// Hodges–Lehmann shift Δ, other − best (positive: other is slower).
    pub shift: f64,
    /// Confidence interval for Δ with the confidence actually achieved.
    pub interval: ShiftInterval,
    /// Probability of superiority Â = U/(n1·n2): the chance that a random
    /// run of `best` takes longer than a random run of `other`, ties
    /// counting ½ (Vargha & Delaney 2000, "A critique and improvement of
    /// the CL common language effect size statistics", J. Educ. Behav.
    /// Statist. 25, 101–132). ½ means no tendency either way.
    pub superiority: f64,
}

/// Compares `other` with `best`: Mann–Whitney, Δ, its confidence interval
/// at level 1 − α, and Â. O((n1 + n2) log(n1·n2)) time, O(n1 + n2) memory.
pub fn compare(best: &Sample, other: &Sample, alpha: Alpha) -> Comparison {
    let (n1, n2) = (best.len(), other.len());
    let ranks = pooled_ranks(best.sorted(), other.sorted());
    let exact = exact_distribution(n1, n2, &ranks);
    let mann_whitney = mann_whitney_with(n1, n2, &ranks, exact.as_ref());
    let differences = Differences::new(best.sorted(), other.sorted());
    Comparison {
        mann_whitney,
        p_adjusted: mann_whitney.p_value,
        shift: hodges_lehmann_with(&differences),
        interval: shift_interval_with(&differences, n1, n2, alpha, exact.as_ref()),
        superiority: mann_whitney.u / (n1 as f64 * n2 as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::super::mann_whitney::mann_whitney;
    use super::super::shift::{hodges_lehmann, shift_interval};
    use super::*;

    #[test]
    fn parts_equal_the_standalone_functions() {
        let best = Sample::from_slice(&[10.0, 12.0, 11.0, 13.0, 12.5, 10.5]).unwrap();
        let other = Sample::from_slice(&[14.0, 15.0, 12.0, 16.0, 15.5]).unwrap();
        let alpha = Alpha::new(0.1).unwrap();
        let c = compare(&best, &other, alpha);
        assert_eq!(c.mann_whitney, mann_whitney(&best, &other));
        assert_eq!(c.p_adjusted, c.mann_whitney.p_value);
        assert_eq!(c.shift, hodges_lehmann(&best, &other));
        assert_eq!(c.interval, shift_interval(&best, &other, alpha));
        // U: best > other only for 13 > 12 and 12.5 > 12; 12 ties 12.
        assert_eq!(c.superiority, 2.5 / 30.0);
    }
}

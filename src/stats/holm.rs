//! Holm's step-down adjustment for multiple comparisons.
//!
//! Ranking k commands makes k − 1 comparisons with the best; at α = 0.05
//! each, the chance of at least one false "slower" grows with k. Holm's
//! method (Holm 1979, "A simple sequentially rejective multiple test
//! procedure", Scand. J. Statist. 6, 65–70) controls that family-wise
//! error rate without assumptions about dependence and is uniformly more
//! powerful than Bonferroni (= statsmodels `multipletests(method="holm")`).

/// Holm-adjusted p-values, in the order given.
///
/// With p₍₁₎ ≤ … ≤ p₍ₘ₎ sorted, the adjusted value of p₍ᵢ₎ is
/// maxⱼ≤ᵢ min(1, (m − j + 1)·p₍ⱼ₎): monotone in the sorted order and at
/// most 1. Inputs should be p-values; anything outside [0, 1] is clamped
/// into it and NaN counts as 1 (no evidence), so the function is total.
pub fn holm_adjust(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let clean: Vec<f64> = p_values
        .iter()
        .map(|&p| if p.is_nan() { 1.0 } else { p.clamp(0.0, 1.0) })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    // Stable, so equal p-values keep their input order.
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]));
    let mut adjusted = vec![0.0; m];
    let mut running_max = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        let factor = (m - rank) as f64;
        running_max = running_max.max((factor * clean[i]).min(1.0));
        adjusted[i] = running_max;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_example() {
        // Sorted 0.01, 0.02, 0.03, 0.04 with m = 4: 0.04, 0.06, 0.06, 0.06.
        let adjusted = holm_adjust(&[0.03, 0.01, 0.04, 0.02]);
        let expected = [0.06, 0.04, 0.06, 0.06];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-15, "{adjusted:?}");
        }
    }

    #[test]
    fn single_p_value_is_unchanged_and_large_ones_cap_at_one() {
        assert_eq!(holm_adjust(&[0.2]), vec![0.2]);
        assert_eq!(holm_adjust(&[0.6, 0.5]), vec![1.0, 1.0]);
        assert!(holm_adjust(&[]).is_empty());
    }

    #[test]
    fn invalid_inputs_are_clamped() {
        assert_eq!(holm_adjust(&[f64::NAN, -0.5, 2.0]), vec![1.0, 0.0, 1.0]);
    }
}

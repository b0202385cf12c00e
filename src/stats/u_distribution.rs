//! The exact null distribution of the Mann–Whitney U statistic.
//!
//! Without ties, under the null hypothesis every assignment of the pooled
//! ranks to the two samples is equally likely, so P(U = u) is the number of
//! assignments giving u divided by C(n1 + n2, n1). The counts are the
//! coefficients of the Gaussian binomial coefficient
//! [n1 + n2 choose n1]_q = Πᵢ₌₁..ₘ (1 − q^{n+i})/(1 − q^i) with m = min(n1, n2),
//! n = max(n1, n2) (Andrews 1976, "The Theory of Partitions", ch. 3), which
//! is built one factor at a time in exact integer arithmetic. For samples
//! below [`EXACT_LIMIT`] the total is below 2.6·10²⁸, well inside `u128`,
//! so every probability is a ratio of exact integers: exact p-values agree
//! with a big-integer computation to the last bit of the final division.

/// Exact methods are used only when both samples have fewer values than
/// this (the convention of R's `wilcox.test`); beyond it the normal
/// approximation is accurate and the exact counts would overflow `u128`.
pub const EXACT_LIMIT: usize = 50;

/// Counts of each value of U for sample sizes (n1, n2).
#[derive(Debug, Clone)]
pub(crate) struct UDistribution {
    /// `counts[u]` = number of rank assignments with U = u, u = 0..=n1·n2.
    counts: Vec<u128>,
    /// C(n1 + n2, n1), the sum of `counts`.
    total: u128,
}

impl UDistribution {
    /// The distribution for sizes (n1, n2), or `None` unless both are
    /// within 1..EXACT_LIMIT.
    pub(crate) fn new(n1: usize, n2: usize) -> Option<Self> {
        if !(1..EXACT_LIMIT).contains(&n1) || !(1..EXACT_LIMIT).contains(&n2) {
            return None;
        }
        let (m, n) = (n1.min(n2), n1.max(n2));
        let max_u = m * n;
        // Intermediate products may have negative coefficients; their
        // magnitude stays below twice the final total (< 2^96).
        let mut poly = vec![0i128; max_u + m + n + 1];
        poly[0] = 1;
        for i in 1..=m {
            // Multiply by (1 − q^{n+i}); degrees are currently ≤ (i−1)·n.
            let shift = n + i;
            for d in (shift..=(i - 1) * n + shift).rev() {
                poly[d] -= poly[d - shift];
            }
            // Divide by (1 − q^i): the quotient r satisfies r[d] = p[d] + r[d − i].
            for d in i..=i * n + i {
                poly[d] += poly[d - i];
            }
        }
        poly.truncate(max_u + 1);
        // After the last division the coefficients are the (non-negative)
        // counts of the Gaussian binomial.
        let counts: Vec<u128> = poly.into_iter().map(|c| c.unsigned_abs()).collect();
        let total = counts.iter().sum();
        Some(UDistribution { counts, total })
    }

    /// Number of assignments with U ≤ u.
    fn count_at_most(&self, u: usize) -> u128 {
        let end = (u + 1).min(self.counts.len());
        self.counts[..end].iter().sum()
    }

    /// P(U ≤ u) under the null hypothesis.
    pub(crate) fn cdf(&self, u: usize) -> f64 {
        self.count_at_most(u) as f64 / self.total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_a_hand_enumeration() {
        // n1 = 2, n2 = 3: C(5, 2) = 10 assignments, U = 0..6 with counts
        // 1, 1, 2, 2, 2, 1, 1.
        let d = UDistribution::new(2, 3).unwrap();
        assert_eq!(d.counts, vec![1, 1, 2, 2, 2, 1, 1]);
        assert_eq!(d.total, 10);
        assert_eq!(d.cdf(1), 0.2);
        assert_eq!(UDistribution::new(3, 2).unwrap().counts, d.counts);
    }

    #[test]
    fn total_is_the_binomial_coefficient_at_the_size_limit() {
        // C(98, 49) = 25477612258980856902730428600.
        let d = UDistribution::new(49, 49).unwrap();
        assert_eq!(d.total, 25_477_612_258_980_856_902_730_428_600);
        assert!(d.counts.iter().all(|&c| c > 0));
        // Symmetric about n1·n2/2.
        let n = d.counts.len();
        assert!((0..n).all(|u| d.counts[u] == d.counts[n - 1 - u]));
    }

    #[test]
    fn sizes_outside_the_exact_range_have_no_distribution() {
        assert!(UDistribution::new(50, 3).is_none());
        assert!(UDistribution::new(3, 0).is_none());
    }
}

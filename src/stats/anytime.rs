//! Anytime-valid verdicts: the looks of an adaptive experiment and the
//! error each look may spend.
//!
//! An experiment that stops as soon as its intervals look decisive peeks:
//! a fixed-count interval checked after every round excludes the truth far
//! more often than it states. Here the experiment looks only at the rounds
//! n₀ < n₁ < … (each about 1.5 times the previous), and look j spends the
//! share wⱼ = 1/((j + 1)(j + 2)) of α (w₀ = ½, w₁ = ⅙, …; Σ wⱼ = 1). At
//! look j every interval is the fixed-count, distribution-free interval of
//! [`super::rank_with`] at the family level α·wⱼ, so by Bonferroni's
//! inequality over the looks the chance that any look's verdicts are
//! wrong is at most α, whenever the experiment stops (alpha spending over
//! a fixed set of looks; Lan & DeMets 1983, "Discrete sequential boundaries
//! for clinical trials", Biometrika 70, 659–663, with Bonferroni's bound
//! in place of the normal model). A budget that ends the experiment between
//! two looks depends on time or counts, not on the verdicts: its last
//! round takes the place of the next look and spends that look's share.
//!
//! The first look is the first round at which a verdict is possible at
//! all: where the extreme bounds of every command's median reach their
//! share, 2⁻ⁿ ≤ α·w₀ / (2K) for K commands (one command: α·w₀ / 2).

use super::medians::values_needed;

/// Growth of the rounds between looks.
const GROWTH: f64 = 1.5;

/// The looks of an adaptive experiment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Looks {
    /// The family-wise error rate spent over all looks.
    pub alpha: f64,
    /// The first look's round.
    pub first: u64,
}

impl Looks {
    /// The looks for `commands` commands at level `alpha`, none before
    /// round `min_rounds`.
    pub fn new(alpha: f64, commands: usize, min_rounds: u64) -> Looks {
        // Both bounds of every command's median share the look's α.
        let sides = 2.0 * commands.max(1) as f64;
        let possible = values_needed(alpha * share(0) / sides) as u64;
        Looks {
            alpha,
            first: possible.max(min_rounds).max(1),
        }
    }

    /// The round of look `j`.
    pub fn round(&self, j: usize) -> u64 {
        let mut n = self.first;
        for _ in 0..j {
            n = ((n as f64 * GROWTH).ceil() as u64).max(n + 1);
        }
        n
    }

    /// The look whose slot holds round `n`: the first look at or after it.
    pub fn slot(&self, n: u64) -> usize {
        let mut j = 0;
        let mut r = self.first;
        while r < n {
            r = ((r as f64 * GROWTH).ceil() as u64).max(r + 1);
            j += 1;
        }
        j
    }

    /// Whether round `n` is a look.
    pub fn is_look(&self, n: u64) -> bool {
        self.round(self.slot(n)) == n
    }

    /// The family-wise level of the intervals at look `j`, α·wⱼ.
    pub fn alpha_at(&self, j: usize) -> f64 {
        self.alpha * share(j)
    }
}

/// The share of α look `j` spends: 1/((j + 1)(j + 2)).
fn share(j: usize) -> f64 {
    let j = j as f64;
    1.0 / ((j + 1.0) * (j + 2.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shares_sum_to_one_and_never_grow() {
        let total: f64 = (0..100_000).map(share).sum();
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        assert!((1..100).all(|j| share(j) < share(j - 1)));
        assert_eq!(share(0), 0.5);
        assert_eq!(share(1), 1.0 / 6.0);
    }

    #[test]
    fn the_first_look_is_the_first_round_a_verdict_is_possible() {
        // Two commands: 2⁻⁸ ≤ 0.05 · ½ / 4 = 0.00625 < 2⁻⁷.
        assert_eq!(Looks::new(0.05, 2, 0).first, 8);
        // Five: 0.025 / 10 = 0.0025, 2⁻⁹ = 0.00195.
        assert_eq!(Looks::new(0.05, 5, 0).first, 9);
        // Ten: 0.025 / 20 = 0.00125, 2⁻¹⁰ = 0.00098.
        assert_eq!(Looks::new(0.05, 10, 0).first, 10);
        // One command: 0.025 / 2 = 0.0125, 2⁻⁷ = 0.0078.
        assert_eq!(Looks::new(0.05, 1, 0).first, 7);
        assert_eq!(Looks::new(0.05, 2, 20).first, 20);
    }

    #[test]
    fn looks_grow_by_half_and_every_round_has_a_slot() {
        let l = Looks::new(0.05, 2, 0);
        let rounds: Vec<u64> = (0..6).map(|j| l.round(j)).collect();
        assert_eq!(rounds, [8, 12, 18, 27, 41, 62]);
        assert_eq!(l.slot(1), 0);
        assert_eq!(l.slot(8), 0);
        assert_eq!(l.slot(9), 1);
        assert_eq!(l.slot(12), 1);
        assert_eq!(l.slot(13), 2);
        assert!(l.is_look(18) && !l.is_look(19));
        for n in 1..2000 {
            let j = l.slot(n);
            assert!(l.round(j) >= n && (j == 0 || l.round(j - 1) < n));
        }
        assert_eq!(l.alpha_at(0), 0.025);
    }
}

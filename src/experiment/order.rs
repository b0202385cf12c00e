//! The order in which timed runs are executed.
//!
//! Running all of one command's runs before the next (sequential, the C
//! reference's only order) exposes the comparison to drift: thermal state,
//! caches, other load. Interleaving rounds (1,2,3,1,2,3,…) spreads drift
//! evenly; a fresh random permutation per round (as cbdr does) also breaks
//! any periodic interaction between neighbours.

use std::fmt;
use std::str::FromStr;

/// Run order (`--order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// All runs of command 1, then all of command 2, …
    #[default]
    Sequential,
    /// Rounds: one run of every command, in input order, `runs` times.
    Interleave,
    /// Rounds, each in a fresh random permutation (see `--seed`).
    Random,
}

impl FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "sequential" => Ok(Order::Sequential),
            "interleave" => Ok(Order::Interleave),
            "random" => Ok(Order::Random),
            _ => Err(format!(
                "unknown order '{s}': use sequential, interleave or random"
            )),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Sequential => "sequential",
            Order::Interleave => "interleave",
            Order::Random => "random",
        })
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, well-distributed generator.
///
/// Written here rather than taken from a crate so that `--seed N` reproduces
/// the same run order in every future version of BestGuess.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; the bias is at
    /// most n / 2^64, irrelevant for shuffling commands).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_displays_every_order() {
        for o in [Order::Sequential, Order::Interleave, Order::Random] {
            assert_eq!(o.to_string().parse::<Order>().unwrap(), o);
        }
        assert!("shuffled"
            .parse::<Order>()
            .unwrap_err()
            .contains("sequential"));
    }

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // First outputs for seed 1234567 from the reference implementation
        // (Vigna's splitmix64.c).
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }

    #[test]
    fn shuffle_is_a_reproducible_permutation() {
        let mut a: Vec<usize> = (0..10).collect();
        let mut b = a.clone();
        SplitMix64::new(7).shuffle(&mut a);
        SplitMix64::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        let mut c: Vec<usize> = (0..10).collect();
        SplitMix64::new(8).shuffle(&mut c);
        assert_ne!(a, c, "different seeds should give different orders");
    }
}

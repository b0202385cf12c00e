//! The order in which timed runs are executed.
//!
//! Running all of one command's runs before the next (sequential, C
//! BestGuess's only order) exposes the comparison to drift: thermal state,
//! caches, other load. Interleaving rounds (1,2,3,1,2,3,…) spreads drift
//! evenly; a fresh random permutation per round (as cbdr does) also breaks
//! any periodic interaction between neighbours.

use std::fmt;
use std::str::FromStr;

/// The generator that shuffles rounds (see its docs: its sequence never
/// changes, so a seed reproduces an order in every version).
pub use crate::stats::SplitMix64;

/// Run order (`--order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// All runs of command 1, then all of command 2, …
    Sequential,
    /// Rounds: one run of every command, in input order, `runs` times.
    Interleave,
    /// Rounds, each in a fresh random permutation (see `--seed`): the
    /// default, because drift cannot then fake a difference.
    #[default]
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
}

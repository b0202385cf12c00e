//! A cold first run: the first run of a command well over its median and
//! over every other run, in complete rounds also against its round.

use super::*;

/// A first run at least this much slower than the command's median, and
/// slower than every other run by at least [`FIRST_RUN_GAP`] of the
/// median, is a cold start worth a warning: it stands out from the runs'
/// own spikes. In `bench/aa.sh` (two identical commands, 30 runs, default
/// warm-up, a busy 2-core machine) 0.5–4 % of experiments show one; a
/// looser rule (the first run merely the slowest and 20 % over the
/// median) shows one in up to 9 %.
pub const FIRST_RUN_EXCESS: f64 = 0.3;

/// See [`FIRST_RUN_EXCESS`].
pub const FIRST_RUN_GAP: f64 = 0.15;

/// How much slower the first value is than the median of all, as a
/// fraction, when there are at least 5 and it is a cold start
/// ([`FIRST_RUN_EXCESS`], [`FIRST_RUN_GAP`]).
pub fn first_run_excess(values: &[f64]) -> Option<f64> {
    first_run_excess_with(values, median_of(values)?)
}

/// [`first_run_excess`] given the values' median (the summaries have it).
pub(crate) fn first_run_excess_with(values: &[f64], median: f64) -> Option<f64> {
    let (&first, rest) = values.split_first()?;
    if values.len() < 5 {
        return None;
    }
    let slowest_other = rest.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let stands_out = first >= slowest_other + FIRST_RUN_GAP * median;
    (median > 0.0 && stands_out && first >= (1.0 + FIRST_RUN_EXCESS) * median)
        .then(|| first / median - 1.0)
}

/// Command `i`'s runs in complete `rounds` (`rounds[c][r]`), each divided
/// by the median of the other commands' runs in the same round (rounds
/// where that median is not positive left out).
pub(crate) fn against_the_round(rounds: &[Vec<f64>], i: usize) -> Vec<f64> {
    let n = rounds.first().map_or(0, Vec::len);
    let mut others = Vec::with_capacity(rounds.len());
    (0..n)
        .filter_map(|r| {
            others.clear();
            others.extend(
                (rounds.iter().enumerate())
                    .filter(|(j, _)| *j != i)
                    .map(|(_, c)| c[r]),
            );
            let m = median_of(&others)?;
            (m > 0.0).then(|| rounds[i][r] / m)
        })
        .collect()
}

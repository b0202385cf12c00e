//! A command whose speed changed against the others in complete rounds:
//! a trend in its ratio to the round's median (or to the other command),
//! located by its change point.

use super::*;
use crate::stats::{change_point, holm_adjust, mann_kendall, Series};

/// A command whose speed changed against the others' (complete rounds).
#[derive(Clone, Debug, PartialEq)]
pub struct RelativeChange {
    pub command: usize,
    /// With two commands, the other one (the change cannot be told apart
    /// from the opposite change of the other); `None`: against the
    /// median of the commands in each round.
    pub against: Option<usize>,
    /// Mann–Kendall test of the per-round ratio against round order,
    /// Holm-adjusted over the commands tested.
    pub p_adjusted: f64,
    /// The first round after the change (from 1; Pettitt's change point).
    pub from_round: usize,
    pub rounds: usize,
    /// Median ratio after / before − 1 (positive: slower after).
    pub change: f64,
}

/// One ratio series tested for a trend.
pub(crate) struct Tested {
    /// The command whose runs are the numerators.
    command: usize,
    /// The command they are divided by (two commands), or `None`: the
    /// median of the round.
    against: Option<usize>,
    /// The ratios in round order.
    ratios: Vec<f64>,
    /// Their dense ranks, which the tests read.
    ranks: Vec<f64>,
    /// The trend test's p-value, before Holm's adjustment.
    p: f64,
}

/// The most rounds [`relative_changes`] tests; longer experiments are
/// thinned evenly to about this many.
pub(crate) const RELATIVE_LIMIT: usize = 10_000;

/// [`DriftCheck::relative`] from the complete rounds.
pub(crate) fn relative_changes(
    rounds: &[Vec<f64>],
    settings: &crate::analysis::RankingSettings,
) -> Vec<RelativeChange> {
    let k = rounds.len();
    let n = rounds.first().map_or(0, Vec::len);
    // (command, against, the ratio series in round order)
    let mut series: Vec<(usize, Option<usize>, Vec<f64>)> = Vec::new();
    if k == 2 {
        let q = (0..n)
            .filter(|&r| rounds[0][r] > 0.0)
            .map(|r| rounds[1][r] / rounds[0][r])
            .collect();
        series.push((1, Some(0), q));
    } else {
        // Against the median of every command in the round, itself
        // included: one command's change then moves the median little,
        // where the mean (or, with three commands, the median of the two
        // others) would pass it on to every other command.
        let mut round = Vec::with_capacity(k);
        let medians: Vec<Option<f64>> = (0..n)
            .map(|r| {
                round.clear();
                round.extend(rounds.iter().map(|c| c[r]));
                round.sort_by(f64::total_cmp);
                // Type 7 (the summaries'): the middle value, or the mean
                // of the two middle ones.
                let m = if k % 2 == 1 {
                    round[k / 2]
                } else {
                    0.5 * (round[k / 2 - 1] + round[k / 2])
                };
                (m > 0.0 && m.is_finite()).then_some(m)
            })
            .collect();
        for (i, runs) in rounds.iter().enumerate() {
            let q = (0..n)
                .filter_map(|r| medians[r].map(|m| runs[r] / m))
                .collect();
            series.push((i, None, q));
        }
    }
    // Past RELATIVE_LIMIT rounds, every `stride`-th round: a trend that
    // matters shows in 10,000 of them, and a million cost a second.
    let stride = n.div_ceil(RELATIVE_LIMIT).max(1);
    if stride > 1 {
        for (_, _, q) in &mut series {
            *q = q.iter().copied().step_by(stride).collect();
        }
    }
    // The tests depend on the order of the ratios only: on their dense
    // ranks (small integers), the trend test counts with a table instead
    // of searching among a million distinct ratios.
    let tested: Vec<Tested> = series
        .into_iter()
        .filter_map(|(command, against, ratios)| {
            let ranks = dense_ranks(&ratios);
            let t = mann_kendall(&Series::new(ranks.clone()).ok()?).ok()?;
            Some(Tested {
                command,
                against,
                ratios,
                ranks,
                p: t.p_value,
            })
        })
        .collect();
    let p: Vec<f64> = tested.iter().map(|t| t.p).collect();
    let mut out = Vec::new();
    for (t, adjusted) in tested.into_iter().zip(holm_adjust(&p)) {
        let Tested {
            command,
            against,
            ratios: q,
            ranks,
            ..
        } = t;
        if adjusted >= WARNING_LEVEL.min(settings.alpha) {
            continue;
        }
        let Some(at) = change_point(&ranks) else {
            continue;
        };
        let (Some(before), Some(after)) = (median_of(&q[..at]), median_of(&q[at..])) else {
            continue;
        };
        if before <= 0.0 {
            continue;
        }
        let change = after / before - 1.0;
        if change.abs() >= relative_effect(settings.effect, before).max(f64::MIN_POSITIVE) {
            out.push(RelativeChange {
                command,
                against,
                p_adjusted: adjusted,
                from_round: at * stride + 1,
                rounds: n,
                change,
            });
        }
    }
    out
}

/// The dense ranks of `values` (0 for the smallest, equal values equal),
/// as numbers.
pub(crate) fn dense_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut rank = 0.0;
    for (k, &i) in order.iter().enumerate() {
        if k > 0 && values[i] != values[order[k - 1]] {
            rank += 1.0;
        }
        ranks[i] = rank;
    }
    ranks
}

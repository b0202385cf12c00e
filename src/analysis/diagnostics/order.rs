//! The runs of a command in the order they ran: by sequence number, else
//! in file order.

use crate::data::{Attribute, CommandRuns, Metric};

/// The positions of `runs` in the order they ran: by Sequence when every
/// run has one (stable, so equal numbers keep file order), else file order.
pub fn time_order(runs: &CommandRuns) -> Vec<usize> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    if !in_file_order(runs) {
        let sequence = runs.sequences();
        order.sort_by_key(|&i| sequence[i]);
    }
    order
}

/// Whether [`time_order`] is file order: some run lacks a sequence number,
/// or the numbers never decrease (as `bestguess` writes them; the stable
/// sort then leaves every run where it is).
///
/// Read as integers a range of runs at a time (a range that cannot be
/// read so holds a run without an integer sequence number).
pub(crate) fn in_file_order(runs: &CommandRuns) -> bool {
    const STEP: usize = 1 << 14;
    let mut chunk = Vec::with_capacity(STEP.min(runs.len()));
    let (mut last, mut ordered) = (0u64, true);
    for start in (0..runs.len()).step_by(STEP) {
        chunk.clear();
        let range = start..(start + STEP).min(runs.len());
        if !runs.attribute_ints(Attribute::Sequence, range, &mut chunk) {
            return true;
        }
        for (k, &s) in chunk.iter().enumerate() {
            let s = s as u64; // as `CommandRuns::sequence` gives it
            ordered &= start + k == 0 || last <= s;
            last = s;
        }
    }
    ordered
}

/// The values of `metric` in time order, runs that lack it left out.
pub fn in_time_order(runs: &CommandRuns, metric: Metric) -> Vec<f64> {
    time_series(runs, metric).0
}

/// [`in_time_order`], and whether that is file order (the values are then
/// `runs.metric(metric)` exactly).
pub(crate) fn time_series(runs: &CommandRuns, metric: Metric) -> (Vec<f64>, bool) {
    if in_file_order(runs) {
        return (crate::analysis::rounds::metric_values(runs, metric), true);
    }
    let values: Vec<_> = runs.values(metric).collect();
    let series = time_order(runs)
        .into_iter()
        .filter_map(|i| values[i])
        .map(|v| v.as_f64())
        .collect();
    (series, false)
}

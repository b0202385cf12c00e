//! The `-G` graph: one bar per timed run, in the order the runs happened.
//!
//! A quick look at drift, warm-up effects and oscillation that no summary
//! statistic shows. Each bar is proportional to the run's value of the
//! ranked metric (`--metric`; total CPU time by default) divided by the
//! largest of all commands' runs (`-c graph=common`, the default, so bars
//! compare across commands) or of this command's runs (`-c graph=each`, the
//! C tool's graph). Runs are in time order (the Sequence column; file
//! order for files without it), so a drift shows as a slope even when
//! the file was sorted or shuffled. The graph honours the `width` setting
//! (the whole line, `│` included, fits in it; C BestGuess always drew 80
//! bars) and its header names the metric and gives the value of a full
//! bar. When every run's value is 0 or less (C BestGuess divided by zero
//! and died with SIGFPE) the bars are simply empty; a run without the
//! metric has no bar.

use std::io::{self, Write};

use super::{text, units};
use crate::analysis::time_order;
use crate::data::{CommandRuns, Metric};

/// Each run's value of `metric` in time order; `None` where a run lacks it.
fn values(runs: &CommandRuns, metric: Metric) -> Vec<Option<f64>> {
    time_order(runs)
        .into_iter()
        .map(|i| runs.value(i, metric).map(|v| v.as_f64()))
        .collect()
}

/// The largest value the graph of `runs` shows (0 if none is positive).
pub fn largest(runs: &CommandRuns, metric: Metric) -> f64 {
    values(runs, metric)
        .into_iter()
        .flatten()
        .fold(0.0, f64::max)
}

/// Writes the graph of `metric` for `runs` in `width` columns, scaled to
/// `scale_max` (this command's own largest run when `None`, or when a run
/// exceeds it).
pub fn write(
    out: &mut dyn Write,
    runs: &CommandRuns,
    metric: Metric,
    scale_max: Option<f64>,
    width: usize,
) -> io::Result<()> {
    let values = values(runs, metric);
    let own = largest(runs, metric);
    let max = scale_max.map_or(own, |m| m.max(own));
    let room = width.saturating_sub(1);
    let left = format!("0  {}", metric.label());
    let right = format!("full bar = {}", units::amount(max, metric.unit()));
    let gap = width
        .saturating_sub(text::width(&left) + text::width(&right))
        .max(1);
    writeln!(out, "{left}{}{right}", " ".repeat(gap))?;
    for v in values {
        let bars = match v {
            // The ratio is at most 1, so the product cannot overflow.
            Some(v) if max > 0.0 && v > 0.0 => ((v / max) * room as f64).floor() as usize,
            _ => 0,
        };
        writeln!(out, "│{}", "▭".repeat(bars.min(room)))?;
    }
    Ok(())
}

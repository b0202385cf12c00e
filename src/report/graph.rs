//! The `-G` graph: one bar per timed run, in run order.
//!
//! A quick look at drift, warm-up effects and oscillation that no summary
//! statistic shows. Each bar is proportional to the run's total CPU time
//! divided by the largest of all commands' runs (`-c graph=common`, the
//! default, so bars compare across commands) or of this command's runs
//! (`-c graph=each`, the C tool's graph). The graph honours the `width`
//! setting (the whole line, `│` included, fits in it; the reference always
//! drew 80 bars) and its header gives the time of a full bar. When every
//! run took 0 µs (the reference divided by zero and died with SIGFPE) the
//! bars are simply empty.

use std::io::{self, Write};

use super::{text, units};
use crate::data::{CommandRuns, Metric};

/// Each run's total CPU time; a run without it gets an empty bar.
fn totals(runs: &CommandRuns) -> Vec<i64> {
    runs.values(Metric::TOTAL)
        .map(|v| v.and_then(|v| v.as_int()).unwrap_or(0))
        .collect()
}

/// The largest value the graph of `runs` shows.
pub fn largest(runs: &CommandRuns) -> i64 {
    totals(runs).into_iter().max().unwrap_or(0)
}

/// Writes the graph of `runs` in `width` columns, scaled to `scale_max`
/// (this command's own largest run when `None`, or when a run exceeds it).
pub fn write(
    out: &mut dyn Write,
    runs: &CommandRuns,
    scale_max: Option<i64>,
    width: usize,
) -> io::Result<()> {
    let totals = totals(runs);
    let own = totals.iter().copied().max().unwrap_or(0);
    let max = scale_max.map_or(own, |m| m.max(own));
    let room = width.saturating_sub(1);
    let right = format!("full bar = {}", units::time(max as f64));
    let gap = width.saturating_sub(1 + text::width(&right)).max(1);
    writeln!(out, "0{}{right}", " ".repeat(gap))?;
    for total in totals {
        let bars = if max > 0 && total > 0 {
            // In f64: total · room cannot overflow, and the ratio is ≤ 1.
            ((total as f64 / max as f64) * room as f64).floor() as usize
        } else {
            0
        };
        writeln!(out, "│{}", "▭".repeat(bars.min(room)))?;
    }
    Ok(())
}

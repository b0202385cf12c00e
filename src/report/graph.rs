//! The `-G` graph: one bar per timed run, in run order.
//!
//! A quick look at drift, warm-up effects and oscillation that no summary
//! statistic shows. Each bar is proportional to the run's total CPU time
//! divided by the command's largest one. The graph honours the `width`
//! setting (the whole line, `│` included, fits in it; the reference always
//! drew 80 bars) and its header names the maximum with its unit. When every
//! run took 0 µs (the reference divided by zero and died with SIGFPE) the
//! bars are simply empty.

use std::io::{self, Write};

use super::{text, units};
use crate::data::{CommandRuns, Metric};

/// Writes the graph of `runs` in `width` columns.
pub fn write(out: &mut dyn Write, runs: &CommandRuns, width: usize) -> io::Result<()> {
    // A run without the metric gets an empty bar.
    let totals: Vec<i64> = runs
        .values(Metric::TOTAL)
        .map(|v| v.and_then(|v| v.as_int()).unwrap_or(0))
        .collect();
    let max = totals.iter().copied().max().unwrap_or(0);
    let room = width.saturating_sub(1);
    let right = format!("max = {}", units::time(max as f64));
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

//! A short per-command summary: runs, median total CPU time, median wall
//! time. (The full BestGuess reports live in `report`.)

use std::io::{self, Write};

use super::{exit, AppError};
use crate::cli::{Output, ReportConfig};
use crate::data::{CommandRuns, Dataset, Metric};

/// Print the summary of every command, unless the selection is quiet.
pub fn print(out: &mut dyn Write, dataset: &Dataset, output: &Output) -> io::Result<()> {
    if !(output.selection.summary || output.selection.mini) {
        return Ok(());
    }
    for (i, c) in dataset.commands.iter().enumerate() {
        writeln!(out, "Command {}: {}", i + 1, c.label())?;
        writeln!(
            out,
            "  {} runs{}, median total CPU time {}, median wall clock {}\n",
            c.len(),
            match c.failed() {
                0 => String::new(),
                f => format!(" ({f} failed)"),
            },
            median_text(c, Metric::Total),
            median_text(c, Metric::Wall)
        )?;
    }
    out.flush()
}

fn median_text(c: &CommandRuns, metric: Metric) -> String {
    let mut v = c.metric(metric);
    v.sort_by(f64::total_cmp);
    let median = match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    };
    match median {
        Some(us) if us >= 1e6 => format!("{:.2} s", us / 1e6),
        Some(us) if us >= 1e3 => format!("{:.2} ms", us / 1e3),
        Some(us) => format!("{us:.0} μs"),
        None => "-".to_string(),
    }
}

/// `bestreport FILE…`
pub fn report_files(rc: &ReportConfig) -> Result<i32, AppError> {
    let dataset = Dataset::read_files(&rc.files).map_err(|e| AppError::failure(e.to_string()))?;
    let mut out = io::stdout().lock();
    print(&mut out, &dataset, &rc.output)
        .map_err(|e| AppError::failure(format!("cannot write the report: {e}")))?;
    Ok(exit::OK)
}

//! The per-command summary table (default) and its mini version (`-M`).
//!
//! The layout is the C reference's (78 columns, the same labels, the same
//! rounded bars), with one deliberate difference: the time unit of the four
//! time rows is chosen from the largest value among *all* of them, not from
//! total CPU time alone, so a long wall-clock time can no longer overflow
//! its column. Memory and context switches each get their own unit, and
//! every number is fitted to its 7-column field (see [`super::units`]).

use std::io::{self, Write};

use super::text::{pad, Align};
use super::units::Scale;
use crate::analysis::CommandStats;
use crate::data::{Metric, Unit};
use crate::stats::Summary;

/// Width of each number column.
const CELL: usize = 7;

/// One table row: label, metric, and the bars that frame its values.
struct Row {
    label: &'static str,
    metric: Metric,
}

const FULL: [Row; 6] = [
    Row {
        label: "Total CPU time",
        metric: Metric::Total,
    },
    Row {
        label: "User time",
        metric: Metric::User,
    },
    Row {
        label: "System time",
        metric: Metric::System,
    },
    Row {
        label: "Wall clock",
        metric: Metric::Wall,
    },
    Row {
        label: "Max RSS",
        metric: Metric::MaxRss,
    },
    Row {
        label: "Context sw",
        metric: Metric::TotalCsw,
    },
];

const MINI: [Row; 2] = [
    Row {
        label: "Total CPU time",
        metric: Metric::Total,
    },
    Row {
        label: "Wall clock",
        metric: Metric::Wall,
    },
];

/// The values shown for a summary, mode first.
fn values(s: &Summary, mini: bool) -> Vec<f64> {
    let q = &s.quantiles;
    if mini {
        vec![s.mode, q.min, q.median, q.max]
    } else {
        vec![s.mode, q.min, q.q1, q.median, q.q3, q.max]
    }
}

/// One scale per unit, fitted to every value of that unit in the table,
/// with enough decimals to tell apart the quartiles of the narrowest row.
fn scale_for(stats: &CommandStats, rows: &[Row], unit: Unit, mini: bool) -> Scale {
    let rows: Vec<&Summary> = rows
        .iter()
        .filter(|r| r.metric.unit() == unit)
        .map(|r| stats.metric(r.metric))
        .collect();
    let all: Vec<f64> = rows.iter().flat_map(|s| values(s, mini)).collect();
    let max_abs = all.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let spread = rows
        .iter()
        .map(|s| spread(s))
        .filter(|&x| x > 0.0)
        .fold(f64::INFINITY, f64::min);
    Scale::choose(unit, max_abs)
        .resolving(spread, 1)
        .fitted(&all, CELL)
}

/// The IQR, or the range when the IQR is 0.
pub fn spread(s: &Summary) -> f64 {
    let q = &s.quantiles;
    if q.iqr() > 0.0 {
        q.iqr()
    } else {
        q.max - q.min
    }
}

/// Writes the full table (`mini` false) or the mini table.
pub fn write(out: &mut dyn Write, stats: &CommandStats, mini: bool) -> io::Result<()> {
    let rows: &[Row] = if mini { &MINI } else { &FULL };
    let header = if mini {
        "     Min   Median      Max   "
    } else {
        "     Min      Q₁    Median      Q₃       Max   "
    };
    writeln!(out, "{}    Mode    ╭{header}╮", " ".repeat(18))?;
    let scales = [Unit::Microseconds, Unit::Bytes, Unit::Count]
        .map(|unit| (unit, scale_for(stats, rows, unit, mini)));
    for (i, row) in rows.iter().enumerate() {
        let last = i + 1 == rows.len();
        let (left, right) = if last { ("╰", "╯") } else { ("│", "│") };
        let scale = scales
            .iter()
            .find(|(u, _)| *u == row.metric.unit())
            .map_or_else(|| Scale::time(0.0), |(_, s)| *s);
        let v = values(stats.metric(row.metric), mini);
        let cells: Vec<String> = v[1..].iter().map(|&x| scale.number_in(x, CELL)).collect();
        writeln!(
            out,
            "  {} {}  {left} {}   {right}",
            pad(row.label, 15, Align::Right),
            scale.with_unit(v[0], CELL),
            cells.join("  ")
        )?;
    }
    Ok(())
}

//! The per-command summary table (default) and its mini version (`-M`).
//!
//! The layout is C BestGuess's (78 columns, the same labels, the same
//! rounded bars), with one deliberate difference: the time unit of the four
//! time rows is chosen from the largest value among *all* of them, not from
//! total CPU time alone, so a long wall-clock time never overflows its
//! column. Memory and context switches each get their own unit, and
//! every number is fitted to its 7-column field (see [`super::units`]).
//!
//! The rows are the metric catalogue's summary rows (total, user, system,
//! wall, max RSS, context switches, then any counter or custom metric that
//! was recorded), each only if the command has it.

use std::io::{self, Write};

use super::text::{fit, Align};
use super::units::Scale;
use crate::analysis::CommandStats;
use crate::data::{Catalogue, Metric, Unit};
use crate::stats::Summary;

/// Width of each number column.
const CELL: usize = 7;

/// The rows of the mini table (`-M`).
const MINI: [Metric; 2] = [Metric::TOTAL, Metric::WALL];

/// One table row: its label, the unit that decides its scale, its summary.
struct Row<'a> {
    label: &'a str,
    unit: Unit,
    /// Rows of the same group share a scale: one per known unit among the
    /// built-in metrics; any other metric is a group of its own.
    group: usize,
    summary: &'a Summary,
}

/// Which rows a table shows besides the catalogue's summary rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The mini table (`-M`): total CPU time and wall clock only.
    pub mini: bool,
    /// The run-queue delay too (the machine was busy).
    pub run_delay: bool,
}

/// The rows shown for `stats`: every metric of the catalogue marked as a
/// summary row (or the mini table's two), and the run-queue delay when
/// asked, that the command has, in catalogue order. A metric no run
/// measured has no row.
fn rows<'a>(stats: &'a CommandStats, catalogue: &'a Catalogue, shown: Shown) -> Vec<Row<'a>> {
    catalogue
        .iter()
        .filter(|(m, def)| {
            if shown.mini {
                MINI.contains(m)
            } else {
                def.summary_row || (shown.run_delay && *m == Metric::RUN_DELAY)
            }
        })
        .filter_map(|(m, def)| {
            let summary = stats.metric(m)?;
            // Built-in metrics share a scale per unit; any other (a
            // counter, a custom metric) is scaled to itself, so an `ev (ct)`
            // in millions does not show the context switches (3) as `0.00 M`.
            let group = match (def.unit, m.builtin()) {
                (Unit::Number, _) | (_, None) => usize::MAX - m.index(),
                (unit, Some(_)) => unit as usize,
            };
            Some(Row {
                label: &def.row_label,
                unit: def.unit,
                group,
                summary,
            })
        })
        .collect()
}

/// The values shown for a summary, mode first.
fn values(s: &Summary, mini: bool) -> Vec<f64> {
    let q = &s.quantiles;
    if mini {
        vec![s.mode, q.min, q.median, q.max]
    } else {
        vec![s.mode, q.min, q.q1, q.median, q.q3, q.max]
    }
}

/// One scale per group, fitted to every value of the group's rows, with
/// enough decimals to tell apart the quartiles of the narrowest row.
fn scale_for(rows: &[Row<'_>], group: usize, mini: bool) -> Scale {
    let rows: Vec<&Row<'_>> = rows.iter().filter(|r| r.group == group).collect();
    let unit = rows.first().map_or(Unit::Microseconds, |r| r.unit);
    let all: Vec<f64> = rows.iter().flat_map(|r| values(r.summary, mini)).collect();
    let max_abs = all.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let spread = rows
        .iter()
        .map(|r| spread(r.summary))
        .filter(|&x| x > 0.0)
        .fold(f64::INFINITY, f64::min);
    Scale::choose(unit, max_abs)
        .resolving(spread, 1)
        .fitted(&all, CELL)
}

/// The table for terminals narrower than 80 columns (58 columns wide): no
/// mode column, the unit after a shorter label, cells one space apart.
fn write_narrow(out: &mut dyn Write, rows: &[Row<'_>], mini: bool) -> io::Result<()> {
    const LABEL: usize = 11;
    let header = if mini {
        "    Min  Median     Max"
    } else {
        "    Min      Q₁  Median      Q₃     Max"
    };
    writeln!(out, "{}╭{header}╮", " ".repeat(2 + LABEL + 4))?;
    for (row, scale, (left, right)) in scaled(rows, mini) {
        let v = values(row.summary, mini);
        let cells: Vec<String> = v[1..].iter().map(|&x| scale.number_in(x, CELL)).collect();
        writeln!(
            out,
            "  {} {} {left}{}{right}",
            fit(&short_label(row.label), LABEL, Align::Right),
            fit(scale.symbol(), 2, Align::Left),
            cells.join(" ")
        )?;
    }
    Ok(())
}

/// Each row with its group's scale (one per group, fitted to all its
/// rows) and the bars that frame it: `│ │`, or `╰ ╯` on the last row.
fn scaled<'r, 'a>(
    rows: &'r [Row<'a>],
    mini: bool,
) -> impl Iterator<Item = (&'r Row<'a>, Scale, (&'static str, &'static str))> {
    let mut scales: Vec<(usize, Scale)> = Vec::new();
    for row in rows {
        if !scales.iter().any(|(g, _)| *g == row.group) {
            scales.push((row.group, scale_for(rows, row.group, mini)));
        }
    }
    rows.iter().enumerate().map(move |(i, row)| {
        let bars = if i + 1 == rows.len() {
            ("╰", "╯")
        } else {
            ("│", "│")
        };
        let scale = scales
            .iter()
            .find(|(g, _)| *g == row.group)
            .map_or_else(|| Scale::time(0.0), |(_, s)| *s);
        (row, scale, bars)
    })
}

/// A row label for the narrow table: "Total CPU time" is "Total CPU" there
/// (its unit follows it), "Run-queue delay" "Runq delay"; other labels are
/// cut by display width.
fn short_label(label: &str) -> std::borrow::Cow<'_, str> {
    if label == "Run-queue delay" {
        return std::borrow::Cow::Borrowed("Runq delay");
    }
    match label.strip_suffix(" time") {
        Some(short) if super::text::width(label) > 11 => std::borrow::Cow::Borrowed(short),
        _ => std::borrow::Cow::Borrowed(label),
    }
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

/// Writes the full table (`mini` false) or the mini table, one row per
/// metric of `catalogue` that is shown and that the command has.
pub fn write(
    out: &mut dyn Write,
    stats: &CommandStats,
    catalogue: &Catalogue,
    shown: Shown,
    width: usize,
) -> io::Result<()> {
    let mini = shown.mini;
    let rows = rows(stats, catalogue, shown);
    if rows.is_empty() {
        return Ok(());
    }
    if width < 80 {
        return write_narrow(out, &rows, mini);
    }
    let header = if mini {
        "     Min   Median      Max   "
    } else {
        "     Min      Q₁    Median      Q₃       Max   "
    };
    writeln!(out, "{}    Mode    ╭{header}╮", " ".repeat(18))?;
    for (row, scale, (left, right)) in scaled(&rows, mini) {
        let v = values(row.summary, mini);
        let cells: Vec<String> = v[1..].iter().map(|&x| scale.number_in(x, CELL)).collect();
        writeln!(
            out,
            "  {} {}  {left} {}   {right}",
            fit(row.label, 15, Align::Right),
            scale.with_unit(v[0], CELL),
            cells.join("  ")
        )?;
    }
    Ok(())
}

//! The baseline comparison table (`--baseline`): one line per command, the
//! baseline's and the new median of the metric of interest, the change in
//! per cent with its interval, and the verdict.
//!
//! ```text
//! Against the baseline old.csv (Total CPU time, medians; change = new/baseline; intervals 95% simultaneous):
//!
//!   Command              Baseline        New   Change [interval]           Verdict
//!   ls -l                 4.93 ms    5.42 ms   +10.0% [+8.1%, +12.0%]      slower ✗
//!   render               20.65 ms   20.71 ms   +0.3% [-5.0%, +4.5%]        inconclusive
//!     no more than 4.5 % slower, no more than 5.0 % faster
//!   fresh                       —    3.20 ms                               only in new
//! ```
//!
//! The heading states the one level of every interval, as every report
//! does (docs/statistics.md, "The level"), and an inconclusive row what
//! its interval leaves possible (under the change column where it fits). A command on one side only shows `—` on
//! the other; a pair without enough runs says so. Rows failing `--fail-if-slower` carry `✗`, and a
//! last line says whether the gate held. The label column is as wide as
//! the widest label that fits beside the figures (at least 8 columns); a
//! longer label is never cut but takes a line of its own above its row.
//! The heading wraps, and a verdict that would pass the report width goes
//! on a line of its own under the change column.

use std::io::{self, Write};

use super::text::{continued, pad, trim_end, width as text_width, Align};
use super::units::{self, Scale};
use crate::data::{Dataset, Unit};
use crate::gate::{Estimate, Failures, GateReport, GateRow, GateVerdict};

/// The label column's narrowest.
const LABEL_MIN: usize = 8;
/// A value with its unit (`Scale::with_unit` at 7 columns).
const VALUE: usize = 10;
/// `+10.0% [+8.1%, +12.0%]` and a little room.
const CHANGE: usize = 23;
/// What a row takes besides its label and verdict.
const FIXED: usize = 2 + 1 + VALUE + 1 + VALUE + 3 + CHANGE + 1;
/// The verdict room kept when narrowing the label: `inconclusive`.
const VERDICT: usize = 12;

/// `+10.0%`; past a million per cent in scientific notation (a margin of
/// 1e308 % would be 309 digits over four lines).
fn signed_percent(fraction: f64) -> String {
    let pct = fraction * 100.0;
    let text = if pct.abs() < 1e6 {
        units::fixed(pct, 1)
    } else {
        units::scientific(pct, 8)
    };
    if text.starts_with('-') {
        format!("{text}%")
    } else {
        format!("+{text}%")
    }
}

fn change_text(e: Estimate) -> String {
    format!(
        "{} [{}, {}]",
        signed_percent(e.value),
        signed_percent(e.low),
        signed_percent(e.high)
    )
}

fn value(v: Option<f64>, unit: Unit) -> String {
    match v {
        Some(v) => trim_end(Scale::choose(unit, v.abs()).with_unit(v, 7).trim_start()).to_owned(),
        None => "—".to_owned(),
    }
}

/// Each row's label: the command's name or command string, and where
/// several rows would show one name, the command string after it (one name
/// can stand for several commands: `-n work -P n 1 3 './work {n}'`).
fn row_labels(report: &GateReport, baseline: &Dataset, new: &Dataset) -> Vec<String> {
    let runs: Vec<_> = (report.rows.iter())
        .map(|row| match (row.new, row.baseline) {
            (Some(n), _) => new.commands.get(n.index),
            (None, Some(b)) => baseline.commands.get(b.index),
            (None, None) => None,
        })
        .collect();
    let labels: Vec<String> = (runs.iter())
        .map(|r| r.map_or_else(String::new, super::label))
        .collect();
    let mut times = std::collections::HashMap::new();
    for label in &labels {
        *times.entry(label.as_str()).or_insert(0) += 1;
    }
    (labels.iter().zip(&runs))
        .map(|(label, runs)| match runs {
            Some(c) if times[label.as_str()] > 1 => {
                let command = super::one_line(&c.command);
                if command == *label {
                    label.clone()
                } else {
                    format!("{label} ({command})")
                }
            }
            _ => label.clone(),
        })
        .collect()
}

/// A row and its last cell (the verdict), on one line if it fits in
/// `width`, else the cell on a line of its own under the change column.
fn write_row(
    out: &mut dyn Write,
    row: &str,
    last: &str,
    label_width: usize,
    width: usize,
) -> io::Result<()> {
    let line = format!("{row} {last}");
    if text_width(trim_end(&line)) <= width {
        return writeln!(out, "{}", trim_end(&line));
    }
    let at = 2 + label_width + 1 + VALUE + 1 + VALUE + 3;
    writeln!(out, "{}", trim_end(row))?;
    writeln!(out, "{}{last}", " ".repeat(at))
}

/// One command's row: its medians, the change with its interval, and the
/// verdict (✗ when it fails the gate).
fn write_gate_row(
    out: &mut dyn Write,
    row: &GateRow,
    label: &str,
    label_width: usize,
    unit: Unit,
    width: usize,
) -> io::Result<()> {
    let (row_verdict, row_change) = (row.verdict, row.change);
    let label = if text_width(label) <= label_width {
        pad(label, label_width, Align::Left)
    } else {
        for line in continued(label, width.saturating_sub(2)) {
            writeln!(out, "  {line}")?;
        }
        " ".repeat(label_width)
    };
    let b = value(row.baseline.map(|s| s.median), unit);
    let n = value(row.new.map(|s| s.median), unit);
    let change = match (row.change, row.baseline) {
        (Some(c), Some(b)) => match c.relative(b.median) {
            Some(r) => change_text(r),
            None => format!(
                "Δ {}",
                Scale::choose(unit, c.contrast.estimate.abs()).compact(c.contrast.estimate)
            ),
        },
        _ => String::new(),
    };
    let verdict = match (row.verdict, row.baseline, row.new) {
        (Some(v), _, _) => v.word().to_owned(),
        (None, Some(_), None) => "only in baseline".to_owned(),
        (None, _, _) => "only in new".to_owned(),
    };
    let mark = if row.fails { " ✗" } else { "" };
    let values = format!(
        "  {label} {} {}   ",
        pad(&b, VALUE, Align::Right),
        pad(&n, VALUE, Align::Right),
    );
    if change.is_empty() {
        // One side only: the verdict in the empty change column.
        writeln!(out, "{}", trim_end(&format!("{values}{verdict}{mark}")))?;
        return Ok(());
    }
    let row = format!("{values}{}", pad(&change, CHANGE, Align::Left));
    write_row(out, &row, &format!("{verdict}{mark}"), label_width, width)?;
    // An open comparison still says what its interval leaves possible,
    // in the ranking's words, under the change column when it fits.
    if let (Some(GateVerdict::Inconclusive), Some(c)) = (row_verdict, row_change) {
        let words = units::in_words(&c.contrast, unit);
        let at = 2 + label_width + 1 + VALUE + 1 + VALUE + 3;
        let at = if at + text_width(&words) <= width {
            at
        } else {
            4
        };
        writeln!(out, "{}{words}", " ".repeat(at))?;
    }
    Ok(())
}

/// The gate's one-sentence verdict at the `pct` margin, naming the
/// `failed` commands whose new runs failed (`names`: each with how).
fn gate_verdict(report: &GateReport, pct: f64, failed: usize, names: &str) -> String {
    let margin = signed_percent(pct / 100.0);
    let (failing, unchecked) = (report.slower(), report.unchecked());
    let needed = report.runs_needed;
    let not_compared = format!(
        "{unchecked} command{} could not be compared (fewer than \
         {needed} runs on a side), so the gate cannot tell whether {} \
         slower: give each at least {needed} runs",
        if unchecked == 1 { "" } else { "s" },
        if unchecked == 1 { "it is" } else { "they are" }
    );
    let failed_runs = format!(
        "{} command{} failed runs in the new data, whatever {} times (✗): {}",
        failed,
        if failed == 1 { " has" } else { "s have" },
        if failed == 1 { "its" } else { "their" },
        names
    );
    match (failing, unchecked) {
        _ if failed > 0 => {
            let mut reasons = vec![failed_runs];
            if report.paired() == 0 {
                reasons.push("no command has a counterpart in the baseline".to_owned());
            }
            if failing > 0 {
                reasons.push(format!(
                    "{failing} command{} slower with the whole interval above {margin} (✗)",
                    if failing == 1 { " is" } else { "s are" }
                ));
            }
            if unchecked > 0 {
                reasons.push(not_compared.clone());
            }
            format!("Gate failed: {}.", reasons.join("; "))
        }
        _ if report.paired() == 0 => "Gate failed: no command has a counterpart in the \
             baseline (the same name, or else the same command and parameters), so \
             nothing was compared: check the baseline file, or name the commands as \
             they were named there."
            .to_owned(),
        (0, 0) => format!("Gate passed: no command is slower with its lower bound above {margin}."),
        (0, _) => format!("Gate failed: {not_compared}."),
        (_, u) => {
            format!(
            "Gate failed: {failing} command{} slower with the lower bound above {margin} (✗){}.",
            if failing == 1 { " is" } else { "s are" },
            if u > 0 { format!("; {not_compared}") } else { String::new() }
        )
        }
    }
}

/// Writes the comparison of `new` with `baseline` (read from `source`),
/// whose values are in `unit` and named `metric`, in `width` columns.
#[allow(clippy::too_many_arguments)]
pub fn write(
    out: &mut dyn Write,
    report: &GateReport,
    baseline: &Dataset,
    new: &Dataset,
    source: &str,
    metric: &str,
    unit: Unit,
    width: usize,
) -> io::Result<()> {
    let labels = row_labels(report, baseline, new);
    // The label column: as wide as the widest label that fits beside the
    // figures; a longer label takes a line of its own above its row,
    // whole, never cut.
    let room = width.saturating_sub(FIXED + VERDICT).max(LABEL_MIN);
    let label_width = (labels.iter().map(|l| text_width(l)))
        .filter(|&w| w <= room)
        .max()
        .unwrap_or(0)
        .clamp(LABEL_MIN, room);
    // Each interval is two-sided at 1 − α/m, so all m hold together at
    // 1 − α: the one level every report states (docs/statistics.md).
    let level = units::level(report.alpha_each * report.compared.max(1) as f64);
    let heading = format!(
        "Against the baseline {source} ({metric}, medians; change = new/baseline; intervals {level}):"
    );
    for line in continued(&heading, width) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let header = format!(
        "  {} {} {}   {}",
        pad("Command", label_width, Align::Left),
        pad("Baseline", VALUE, Align::Right),
        pad("New", VALUE, Align::Right),
        pad("Change [interval]", CHANGE, Align::Left),
    );
    write_row(out, &header, "Verdict", label_width, width)?;
    for (row, label) in report.rows.iter().zip(&labels) {
        write_gate_row(out, row, label, label_width, unit, width)?;
    }
    // Failed runs, named with how they ended, on both sides: a gate names
    // the new side's in its verdict.
    let named = |rows: Vec<(usize, &Failures)>| {
        (rows.iter())
            .map(|(i, f)| format!("{} ({})", labels[*i], f.describe()))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let index = |r: &GateRow| {
        report
            .rows
            .iter()
            .position(|x| std::ptr::eq(x, r))
            .unwrap_or(0)
    };
    let new_failed: Vec<_> = report.new_failed().map(|(r, f)| (index(r), f)).collect();
    let base_failed: Vec<_> = (report.baseline_failed())
        .map(|(r, f)| (index(r), f))
        .collect();
    let mut notes = Vec::new();
    if !new_failed.is_empty() && report.fail_if_slower.is_none() {
        notes.push(format!(
            "Failed runs in the new data (their times are not the commands' work): {}.",
            named(new_failed.clone())
        ));
    }
    if !base_failed.is_empty() {
        notes.push(format!(
            "Failed runs in the baseline (compared as they are, times of failed runs included): {}.",
            named(base_failed)
        ));
    }
    if !notes.is_empty() {
        writeln!(out)?;
    }
    for note in notes {
        for line in continued(&note, width) {
            writeln!(out, "{line}")?;
        }
    }
    if let Some(pct) = report.fail_if_slower {
        writeln!(out)?;
        let verdict = gate_verdict(report, pct, new_failed.len(), &named(new_failed.clone()));
        for line in continued(&verdict, width) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

//! The baseline comparison table (`--baseline`): one line per command, the
//! baseline's and the new median of the metric of interest, the change in
//! per cent with its interval, and the verdict.
//!
//! ```text
//! Against the baseline old.csv (Total CPU time, medians; change = new/baseline, 97.5% intervals):
//!
//!   Command              Baseline        New   Change [interval]           Verdict
//!   ls -l                 4.93 ms    5.42 ms   +10.0% [+8.1%, +12.0%]      slower ✗
//!   fresh                       —    3.20 ms                               only in new
//! ```
//!
//! A command on one side only shows `—` on the other; a pair without
//! enough runs says so. Rows failing `--fail-if-slower` carry `✗`, and a
//! last line says whether the gate held. Labels are cut by display width.

use std::io::{self, Write};

use super::text::{fit, pad, trim_end, Align};
use super::units::{self, Scale};
use crate::data::{Dataset, Unit};
use crate::gate::{Estimate, GateReport, GateRow};

const LABEL: usize = 18;
const VALUE: usize = 10;
const CHANGE: usize = 26;

/// `+10.0%`.
fn signed_percent(fraction: f64) -> String {
    let text = units::fixed(fraction * 100.0, 1);
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
        Some(v) => Scale::choose(unit, v.abs()).compact(v),
        None => "—".to_owned(),
    }
}

fn row_label(row: &GateRow, baseline: &Dataset, new: &Dataset) -> String {
    let runs = match (row.new, row.baseline) {
        (Some(n), _) => new.commands.get(n.index),
        (None, Some(b)) => baseline.commands.get(b.index),
        (None, None) => None,
    };
    runs.map_or_else(String::new, super::label)
}

/// Writes the comparison of `new` with `baseline` (read from `source`),
/// whose values are in `unit` and named `metric`.
pub fn write(
    out: &mut dyn Write,
    report: &GateReport,
    baseline: &Dataset,
    new: &Dataset,
    source: &str,
    metric: &str,
    unit: Unit,
) -> io::Result<()> {
    let confidence = units::percent(1.0 - report.alpha_each);
    let family = if report.compared > 1 {
        format!(", simultaneous over {} commands", report.compared)
    } else {
        String::new()
    };
    writeln!(
        out,
        "Against the baseline {source} ({metric}, medians; change = new/baseline with {confidence} intervals{family}):"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "  {} {} {}   {} Verdict",
        pad("Command", LABEL, Align::Left),
        pad("Baseline", VALUE, Align::Right),
        pad("New", VALUE, Align::Right),
        pad("Change [interval]", CHANGE, Align::Left),
    )?;
    for row in &report.rows {
        let label = fit(&row_label(row, baseline, new), LABEL, Align::Left);
        let b = value(row.baseline.map(|s| s.median), unit);
        let n = value(row.new.map(|s| s.median), unit);
        let change = match (row.change, row.baseline) {
            (Some(c), Some(b)) => match c.relative(b.median) {
                Some(r) => change_text(r),
                None => format!(
                    "Δ {}",
                    Scale::choose(unit, c.shift.value.abs()).compact(c.shift.value)
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
        let line = format!(
            "  {label} {} {}   {} {verdict}{mark}",
            pad(&b, VALUE, Align::Right),
            pad(&n, VALUE, Align::Right),
            pad(&change, CHANGE, Align::Left),
        );
        writeln!(out, "{}", trim_end(&line))?;
    }
    if let Some(pct) = report.fail_if_slower {
        writeln!(out)?;
        let margin = signed_percent(pct / 100.0);
        let failing = report.rows.iter().filter(|r| r.fails).count();
        if failing > 0 {
            writeln!(
                out,
                "Gate failed: {failing} command{} slower with the whole interval above {margin} (✗).",
                if failing == 1 { " is" } else { "s are" }
            )?;
        } else {
            writeln!(
                out,
                "Gate passed: no command is slower with the whole interval above {margin}."
            )?;
        }
    }
    Ok(())
}

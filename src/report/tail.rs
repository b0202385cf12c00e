//! The `-T` tail table: where the slow runs are.
//!
//! The quartiles say little about the worst runs, which are often what a
//! user feels; this row of order statistics from the minimum (Q₀) to the
//! maximum (Q₄), with the 95th and 99th percentiles in between, shows how
//! long the tail is. Layout as in the reference (a 78-column frame, columns
//! of 10 and 7×7). p95 needs 20 runs and p99 100 ([`crate::stats::Quantiles`]);
//! below that they print as `--`. The unit is chosen for the whole row and
//! numbers are fitted to their 7 columns.

use std::io::{self, Write};

use super::frame::Frame;
use super::text::{pad, Align};
use super::units::Scale;
use crate::stats::Summary;

const INNER: usize = 76;
const CELL: usize = 7;
const HEADINGS: [&str; 7] = ["Q₀ ", "Q₁ ", "Q₂ ", "Q₃ ", "95 ", "99 ", "Q₄ "];

/// Writes the tail table of a command's total CPU time `s`.
pub fn write(out: &mut dyn Write, s: &Summary) -> io::Result<()> {
    let q = &s.quantiles;
    let cells = [
        Some(q.min),
        Some(q.q1),
        Some(q.median),
        Some(q.q3),
        q.p95,
        q.p99,
        Some(q.max),
    ];
    let present: Vec<f64> = cells.iter().flatten().copied().collect();
    let max_abs = present.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = Scale::time(max_abs)
        .resolving(super::summary::spread(s), 2)
        .fitted(&present, CELL);

    let line = |first: &str, rest: Vec<String>| {
        let mut l = format!("  {}", pad(first, 10, Align::Right));
        for cell in rest {
            l.push(' ');
            l.push_str(&pad(&cell, CELL, Align::Right));
        }
        l
    };
    let mut f = Frame::new(INNER);
    f.title("Total CPU Time Distribution Tail");
    f.blank();
    f.line(line(
        "Tail shape",
        HEADINGS.iter().map(|h| (*h).to_owned()).collect(),
    ));
    f.line(line(
        &format!("({})", scale.symbol()),
        cells
            .iter()
            .map(|c| c.map_or_else(|| "--".to_owned(), |v| scale.number_in(v, CELL)))
            .collect(),
    ));
    f.write(out, 2)
}

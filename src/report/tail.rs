//! The `-T` tail table: where the slow runs are.
//!
//! The quartiles say little about the worst runs, which are often what a
//! user feels; this row of order statistics from the minimum (Q₀) to the
//! maximum (Q₄), with the 95th and 99th percentiles in between, shows how
//! long the tail is. Layout as in C BestGuess (a 78-column frame, columns
//! of 10 and 7×7). p95 needs 20 runs and p99 100 ([`crate::stats::Quantiles`]);
//! below that they print as `--`. The unit is chosen for the whole row and
//! numbers are fitted to their 7 columns.
//!
//! Below the row, the best-case estimate (after `tim`: the mean of the
//! fastest runs of each half of the experiment, with its error) and
//! whether the two halves agree ([`crate::stats::best_case`]): the figure to
//! quote for what a command costs when nothing interferes, and a check
//! that the fastest runs did not move while the experiment ran.

use std::io::{self, Write};

use super::frame::Frame;
use super::text::{pad, Align};
use super::units::Scale;
use crate::data::{Metric, Unit};
use crate::stats::{BestCase, NotApplicable, Summary};

const CELL: usize = 7;
const HEADINGS: [&str; 7] = ["Q₀ ", "Q₁ ", "Q₂ ", "Q₃ ", "95 ", "99 ", "Q₄ "];

/// Writes the tail table of the summary `s` of a command's `metric` (the
/// ranked one), with its best-case estimate.
pub fn write(
    out: &mut dyn Write,
    s: &Summary,
    metric: Metric,
    best: &Result<BestCase, NotApplicable>,
    width: usize,
) -> io::Result<()> {
    let inner = super::frame::inner_for(width, 2);
    // Narrower than C BestGuess's table: a 6-column first column and
    // 6-column cells, without the indent (7 × 7 + 6 = 55 columns).
    let narrow = inner < 2 + 10 + 7 * (1 + CELL);
    let (first_w, cell_w, indent) = if narrow { (6, 6, "") } else { (10, CELL, "  ") };
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
    let scale = Scale::choose(metric.unit(), max_abs)
        .resolving(super::summary::spread(s), 2)
        .fitted(&present, cell_w);

    let line = |first: &str, rest: Vec<String>| {
        let mut l = format!("{indent}{}", pad(first, first_w, Align::Right));
        for cell in rest {
            l.push(' ');
            l.push_str(&pad(&cell, cell_w, Align::Right));
        }
        l
    };
    let mut f = Frame::new(inner);
    f.title(&format!("{} distribution tail", metric.label()));
    f.blank();
    f.line(line(
        if narrow { "Tail" } else { "Tail shape" },
        HEADINGS.iter().map(|h| (*h).to_owned()).collect(),
    ));
    f.line(line(
        &if scale.symbol().is_empty() {
            String::new()
        } else {
            format!("({})", scale.symbol())
        },
        cells
            .iter()
            .map(|c| c.map_or_else(|| "--".to_owned(), |v| scale.number_in(v, cell_w)))
            .collect(),
    ));
    f.blank();
    let (estimate, stability) = best_case_text(best, metric.unit());
    match best {
        Ok(b) => {
            let which = if metric.unit().is_time() {
                format!("fastest {}", b.k)
            } else {
                format!("{} lowest", b.k)
            };
            f.line(format!(
                "  {}  {estimate}, mean of the {which} of each half",
                pad("Best case", 10, Align::Right),
            ));
            f.line(format!("  {}  {stability}", " ".repeat(10)));
        }
        Err(_) => f.line(format!(
            "  {}  {estimate}",
            pad("Best case", 10, Align::Right)
        )),
    }
    f.write(out, 2)
}

/// The best-case estimate as two texts: `4.123 ± 0.048 ms` and
/// `halves 4.101 and 4.145 ms, 0.6 sd apart: stable`; or `n/a (…)` and
/// nothing when it does not apply. Every number is in the unit chosen for
/// the estimate, with decimals enough to show two digits of the error.
pub(crate) fn best_case_text(
    best: &Result<BestCase, NotApplicable>,
    unit: Unit,
) -> (String, String) {
    let b = match best {
        Ok(b) => b,
        Err(NotApplicable::TooFewValues { n, min }) => {
            return (format!("n/a (needs {min} runs, has {n})"), String::new())
        }
        Err(e) => return (format!("n/a ({e})"), String::new()),
    };
    let [early, late] = b.halves;
    // Two digits of the error where the recording unit allows, else one.
    let scale = Scale::choose(unit, early.mean.abs().max(late.mean.abs()))
        .resolving(b.error, 1)
        .resolving(b.error, 2)
        .resolving((early.mean - late.mean).abs(), 1);
    let estimate = format!("{} ± {}", scale.number(b.estimate), scale.compact(b.error));
    let verdict = if b.stable { "stable" } else { "unstable" };
    let apart = match b.distance {
        Some(d) => format!("{} sd apart", super::units::fixed(d, 1)),
        None => "each without spread".to_owned(),
    };
    let stability = format!(
        "halves {} and {}, {apart}: {verdict}",
        scale.number(early.mean),
        scale.compact(late.mean)
    );
    (estimate, stability)
}

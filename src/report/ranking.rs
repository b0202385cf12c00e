//! The ranking: which commands were fastest, and which performed
//! identically to the fastest.
//!
//! Everything shown comes from the [`Ranking`] computed by `stats`: order,
//! verdicts, shifts. Layout as in the reference (a 78-column table indented
//! 2, the `══════ Command ═══…` header, `✻` on the winner group, a `═` line
//! after it and after the rest), with these differences:
//!
//! * Labels are cut and padded by display width (the reference cut at 40
//!   bytes, which misaligned or crashed on UTF-8 names).
//! * "Slower by" is the Hodges–Lehmann shift Δ in its own unit, followed by
//!   the ratio of medians (`1.23x`, or `—` when the best median is 0) where
//!   the reference printed Δ/best median as a percentage that could be
//!   `inf%` or overflow its field.
//! * A command with fewer than 5 runs, when the best has enough, is listed
//!   after the others in median order with `(not compared: n = 3)` instead
//!   of crashing the program.
//! * With `-E`, the settings legend comes first and each command gets its
//!   header line and the details of [`super::explain`].

use std::io::{self, Write};

use super::explain;
use super::text::{fit, trim_end, Align};
use super::units::{self, Scale};
use crate::analysis::Analysis;
use crate::stats::{RankedEntry, Ranking, Verdict, MIN_VALUES_FOR_INFERENCE};

/// The table's header line (78 columns).
const HEADER: &str =
    "══════ Command ═══════════════════════════ Total time ═════ Slower by ════════";
/// Width of the table.
const WIDTH: usize = 78;
/// Width of the `   N: label` column.
const LABEL: usize = 40;

/// Writes the ranking (with the explanation when `explain`).
pub fn write(out: &mut dyn Write, analysis: &Analysis<'_>, explain: bool) -> io::Result<()> {
    let ranking = &analysis.ranking;
    match ranking.entries.len() {
        0 => return writeln!(out, "No commands benchmarked.  No ranking to show."),
        1 => return writeln!(out, "Only one command benchmarked.  No ranking to show."),
        _ => {}
    }
    if explain {
        writeln!(out, "Best guess inferential statistics:")?;
        writeln!(out)?;
        explain::legend(analysis).write(out, 2)?;
        writeln!(out)?;
    }
    let winners = ranking.winners();
    if !ranking.inference {
        writeln!(
            out,
            "Best guess ranking: (Lacking the {MIN_VALUES_FOR_INFERENCE} timed runs to statistically rank)"
        )?;
    } else if winners > 1 {
        writeln!(
            out,
            "Best guess ranking: The top {winners} commands performed identically"
        )?;
    } else {
        writeln!(out, "Best guess ranking:")?;
    }
    writeln!(out)?;

    let best_median = ranking.best().map_or(0.0, |b| b.median);
    let label = |e: &RankedEntry| {
        analysis
            .dataset
            .commands
            .get(e.index)
            .map_or_else(String::new, super::label)
    };
    let rule = "═".repeat(WIDTH);
    let (top, rest): (Vec<&RankedEntry>, Vec<&RankedEntry>) = if ranking.inference {
        ranking
            .entries
            .iter()
            .partition(|e| matches!(e.verdict, Verdict::Best | Verdict::Identical { .. }))
    } else {
        (ranking.entries.iter().collect(), Vec::new())
    };
    let mark = if ranking.inference { "✻" } else { " " };

    if explain {
        for (i, e) in top.iter().chain(rest.iter()).enumerate() {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "  {HEADER}")?;
            let m = if i < top.len() { mark } else { " " };
            writeln!(out, "  {}", row(m, e, &label(e), best_median, ranking))?;
            let mut details = explain::details(e, ranking);
            details.extend(explain::diagnostics(analysis, e.index));
            if !details.is_empty() {
                writeln!(out)?;
                for d in details {
                    writeln!(out, "  {d}")?;
                }
            }
        }
        if !rest.is_empty() || !ranking.inference {
            writeln!(out)?;
            writeln!(out, "  {rule}")?;
        }
        return Ok(());
    }

    writeln!(out, "  {HEADER}")?;
    for e in &top {
        writeln!(out, "  {}", row(mark, e, &label(e), best_median, ranking))?;
    }
    writeln!(out, "  {rule}")?;
    if !rest.is_empty() {
        for e in &rest {
            writeln!(out, "  {}", row(" ", e, &label(e), best_median, ranking))?;
        }
        writeln!(out, "  {rule}")?;
    }
    Ok(())
}

/// One command's line: mark, number and label, median, and "slower by".
fn row(mark: &str, e: &RankedEntry, label: &str, best_median: f64, ranking: &Ranking) -> String {
    let name = fit(&format!("{:>4}: {label}", e.index + 1), LABEL, Align::Left);
    let median = Scale::time(e.median.abs()).with_unit(e.median, 7);
    let mut line = format!("{mark}{name}  {median}");
    match (&e.comparison, &e.verdict) {
        (Some(c), _) => {
            let shift = Scale::time(c.shift.abs()).with_unit(c.shift, 7);
            let ratio = units::ratio(e.median, best_median);
            line.push_str(&format!(" {shift}  {ratio:>8}"));
        }
        (None, Verdict::NotCompared { n }) if ranking.inference => {
            line.push_str(&format!(" (not compared: n = {n})"));
        }
        _ => {}
    }
    trim_end(&line).to_owned()
}

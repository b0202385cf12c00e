//! The ranking: which command is the reference (the best, or the one
//! given with `--reference`), and for every other command by how much it is
//! slower, with its interval and a verdict.
//!
//! Everything shown comes from the [`Ranking`] computed by `stats`: order,
//! verdicts, shifts, ratios and intervals. Layout after the reference (a
//! 78-column table indented 2, the `══════ Command ═══…` header, a `═`
//! line at the end), with these differences:
//!
//! * Labels are cut and padded by display width (the reference cut at 40
//!   bytes, which misaligned or crashed on UTF-8 names).
//! * "Slower by" is the Hodges–Lehmann shift Δ in its own unit, then the
//!   verdict (slower, equivalent, inconclusive, or faster than a fixed
//!   reference); below it the ratio of locations with its interval, as a
//!   change in percent (`+45.2 % [+40.1 %, +50.3 %]`), or Δ's interval when
//!   the ratio does not exist (a zero time).
//! * The order is the reference, then the compared commands by their
//!   estimate (so "slower by" never goes negative under the best); `✻`
//!   marks the reference and the commands equivalent to it.
//! * A line under the headline says at which simultaneous confidence the
//!   intervals hold and which analysis made them.
//! * A command with fewer than 5 runs, when the reference has enough, is
//!   listed after the others in median order with `(not compared: n = 3)`
//!   instead of crashing the program.
//! * With `-E`, the settings legend comes first and each command gets its
//!   header line and the details of [`super::explain`]; the table is
//!   closed by a rule and a legend of the `✗` marks.

use std::io::{self, Write};

use super::explain;
use super::text::{self, fit, trim_end, Align};
use super::units::{self, Scale};
use crate::analysis::Analysis;
use crate::data::Unit;
use crate::stats::{Design, RankedEntry, Ranking, Verdict, MIN_VALUES_FOR_INFERENCE};

/// The table's header line (`table` columns), naming the ranked metric
/// above its column (cut by display width if a custom metric's name is
/// long).
fn header(metric: &str, table: usize) -> String {
    const LEFT: &str = "══════ Command ";
    const RIGHT: &str = " ═════ Slower by ════════";
    let room = table.saturating_sub(text::width(LEFT) + text::width(RIGHT) + 2);
    let metric = text::truncate(metric, room);
    let fill = room.saturating_sub(text::width(&metric)) + 1;
    format!("{LEFT}{} {metric}{RIGHT}", "═".repeat(fill))
}
/// The table's width in a report `width` columns wide: the reference's 78
/// at 80 columns, narrower down to 58 (at 60), and wider on a wider
/// terminal, where the label column takes the extra room (up to 120).
fn table_width(width: usize) -> usize {
    width.saturating_sub(2).clamp(58, 158)
}

/// Width of the `   N: label` column in a table `table` columns wide (40
/// in the reference's 78).
fn label_width(table: usize) -> usize {
    table.saturating_sub(38)
}

/// Writes the ranking (with the explanation when `explain`) for a report
/// `width` columns wide.
pub fn write(
    out: &mut dyn Write,
    analysis: &Analysis<'_>,
    explain: bool,
    width: usize,
) -> io::Result<()> {
    let table = table_width(width);
    let ranking = &analysis.ranking;
    match ranking.entries.len() {
        0 => return writeln!(out, "No commands benchmarked.  No ranking to show."),
        1 => return writeln!(out, "Only one command benchmarked.  No ranking to show."),
        _ => {}
    }
    if explain {
        writeln!(out, "Best guess inferential statistics:")?;
        writeln!(out)?;
        explain::legend(analysis, width).write(out, 2)?;
        writeln!(out)?;
    }
    if !ranking.inference {
        writeln!(
            out,
            "Best guess ranking: (Lacking the {MIN_VALUES_FOR_INFERENCE} timed runs to statistically rank)"
        )?;
    } else {
        writeln!(out, "Best guess ranking: {}", headline(ranking))?;
        writeln!(out, "  {}", method_line(ranking))?;
        if ranking.ambiguous_best {
            writeln!(
                out,
                "  No command is estimated faster than every other (the estimates are intransitive): the first is the closest to it."
            )?;
        }
    }
    writeln!(out)?;

    let label = |e: &RankedEntry| {
        analysis
            .dataset
            .commands
            .get(e.index)
            .map_or_else(String::new, super::label)
    };
    let rule = "═".repeat(table);
    let metric = analysis.settings.metric;
    let heading = header(metric.label(), table);
    let mark = |e: &RankedEntry| {
        if ranking.inference && matches!(e.verdict, Verdict::Best | Verdict::Equivalent) {
            "✻"
        } else {
            " "
        }
    };
    for (i, e) in ranking.entries.iter().enumerate() {
        if explain || i == 0 {
            if explain && i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "  {heading}")?;
        }
        for line in rows(mark(e), e, &label(e), ranking, metric.unit(), table) {
            writeln!(out, "  {line}")?;
        }
        if explain {
            let mut details = explain::details(e, ranking, metric.unit());
            details.extend(explain::diagnostics(analysis, e.index));
            if !details.is_empty() {
                writeln!(out)?;
                for d in details {
                    writeln!(out, "  {d}")?;
                }
            }
        }
    }
    if explain {
        writeln!(out)?;
    }
    writeln!(out, "  {rule}")?;
    if explain && ranking.inference {
        writeln!(out, "  {}", explain::MARK_LEGEND)?;
    }
    // Failed runs are ranked with the rest (as every statistic includes
    // them): say so here too, for a ranking shown alone (`-R`, `-E`),
    // where a command whose every run crashed had been crowned the best
    // without a word of it.
    for e in &ranking.entries {
        let Some(stats) = analysis.commands.get(e.index) else {
            continue;
        };
        if stats.failed > 0 {
            let note = format!(
                "Note: {}: {} of {} runs failed; they are ranked with the others.",
                label(e),
                stats.failed,
                stats.runs
            );
            for line in text::continued(&note, table) {
                writeln!(out, "  {line}")?;
            }
        }
    }
    Ok(())
}

/// The verdicts counted: `1 slower, 2 equivalent, 1 inconclusive`.
fn headline(ranking: &Ranking) -> String {
    let against = if ranking.fixed_reference {
        "the reference"
    } else {
        "the best"
    };
    let parts: Vec<String> = [
        (Verdict::Slower, "slower"),
        (Verdict::Faster, "faster"),
        (Verdict::Equivalent, "equivalent"),
        (Verdict::Inconclusive, "inconclusive"),
    ]
    .iter()
    .filter_map(|&(v, word)| {
        let n = ranking.count(v);
        (n > 0).then(|| format!("{n} {word}"))
    })
    .collect();
    if parts.is_empty() {
        format!("compared with {against}")
    } else {
        format!("compared with {against}, {}", parts.join(", "))
    }
}

/// The confidence and the analysis behind the intervals.
fn method_line(ranking: &Ranking) -> String {
    let analysis = match ranking.design {
        Design::Paired { rounds } => format!("paired by round ({rounds} complete rounds)"),
        Design::Independent => super::warnings::UNPAIRED.to_owned(),
    };
    let family = if ranking.family > 1 {
        format!(
            " (Bonferroni over {} {}, {} each)",
            ranking.family,
            if ranking.fixed_reference {
                "comparisons"
            } else {
                "pairs"
            },
            units::confidence(ranking.confidence_each)
        )
    } else {
        String::new()
    };
    format!(
        "Intervals: {} simultaneous{family}; {analysis}",
        units::confidence(ranking.simultaneous_confidence),
    )
}

/// One command's lines: mark, number and label, median, Δ and verdict;
/// then the ratio's interval (or Δ's).
fn rows(
    mark: &str,
    e: &RankedEntry,
    label: &str,
    ranking: &Ranking,
    unit: Unit,
    table: usize,
) -> Vec<String> {
    let label_w = label_width(table);
    let name = fit(
        &format!("{:>4}: {label}", e.index + 1),
        label_w,
        Align::Left,
    );
    let median = Scale::choose(unit, e.median.abs()).with_unit(e.median, 7);
    let mut line = format!("{mark}{name}  {median}");
    let mut second = None;
    match (&e.comparison, &e.verdict) {
        (Some(c), v) => {
            let shift = Scale::choose(unit, c.shift.abs()).with_unit(c.shift, 7);
            line.push_str(&format!(" {shift}  {}", v.word()));
            let interval = match c.ratio {
                Some(r) => units::change_interval(r.estimate, r.low, r.high),
                None => {
                    let s = Scale::choose(unit, c.interval.low.abs().max(c.interval.high.abs()));
                    format!(
                        "Δ [{}, {}] {}",
                        s.number(c.interval.low),
                        s.number(c.interval.high),
                        s.symbol()
                    )
                }
            };
            second = Some(format!("{}{interval}", " ".repeat(1 + label_w + 2)));
        }
        (None, Verdict::NotCompared { n }) if ranking.inference => {
            line.push_str(&format!(" (not compared: n = {n})"));
        }
        _ => {}
    }
    let mut lines = vec![trim_end(&line).to_owned()];
    lines.extend(second);
    lines
}

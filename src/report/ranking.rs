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
//! * "Slower by" is the difference of the medians shown, then the verdict
//!   (slower, equivalent, inconclusive, or faster than a fixed reference);
//!   below it the estimate the verdict used with its bounds and their
//!   confidence, as a change in percent (`+45.2 % [+40.1 %, +50.3 %]`),
//!   or in the unit when no ratio exists (a zero time), and the runs that
//!   would decide when there were too few.
//! * The order is the reference, then the compared commands by median (so
//!   "slower by" never goes negative under the best); `✻` marks the
//!   reference and the commands equivalent to it.
//! * A line under the headline names the estimate and the confidence of
//!   its bounds, each and together.
//! * A command whose runs are too few for its median's bounds to reach
//!   their level is listed after the others in median order with
//!   `(not compared: n = 3, needs 8)`.
//! * With `-E`, the settings legend comes first and each command gets its
//!   header line and the details of [`super::explain`]; the table is
//!   closed by a rule and a legend of the `✗` marks.

use std::io::{self, Write};

use super::explain;
use super::text::{self, fit, trim_end, Align};
use super::units::{self, Scale as Amounts};
use crate::analysis::{Analysis, Look};
use crate::data::Unit;
use crate::stats::{Design, RankedEntry, Ranking, Scale, Verdict};

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
/// Which metric is ranked and why (when chosen from the data), and a busy
/// machine, each wrapped into lines of the table's width, indented 2.
fn spending_lines(out: &mut dyn Write, analysis: &Analysis<'_>, table: usize) -> io::Result<()> {
    let lines = [
        super::spending::metric_line(analysis),
        super::spending::busy_line(analysis),
    ];
    for line in lines.iter().flatten() {
        for part in text::continued(line, table) {
            writeln!(out, "  {part}")?;
        }
    }
    Ok(())
}

/// The table's width in a report `width` columns wide: the reference's 78
/// at 80 columns, narrower down to 58 (at 60), and wider on a wider
/// terminal, where the label column takes the extra room (up to 120).
fn table_width(width: usize) -> usize {
    width.saturating_sub(2).clamp(58, 158)
}

/// The table's width for `analysis`'s labels in a report `width` columns
/// wide: [`table_width`], but on a wide terminal no wider than the longest
/// `   N: label` needs (at least the reference's 78), so that a name stays
/// near its numbers.
fn fitted_table(width: usize, analysis: &Analysis<'_>) -> usize {
    let longest = (analysis.dataset.commands.iter())
        .map(|c| text::width(&super::label(c)))
        .max()
        .unwrap_or(0);
    // 38 columns beside the label column (`label_width`), 6 for `   N: `.
    table_width(width).min((38 + 6 + longest).max(78))
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
    let table = fitted_table(width, analysis);
    let ranking = &analysis.ranking;
    match ranking.entries.len() {
        0 => return writeln!(out, "No commands benchmarked.  No ranking to show."),
        1 => {
            writeln!(out, "Only one command benchmarked.  No ranking to show.")?;
            spending_lines(out, analysis, table)?;
            if let Some(look) = &analysis.look {
                for line in text::continued(&look_line(look, analysis), table) {
                    writeln!(out, "  {line}")?;
                }
            }
            return Ok(());
        }
        _ => {}
    }
    if explain {
        writeln!(out, "Best guess inferential statistics:")?;
        writeln!(out)?;
        explain::legend(analysis, width).write(out, 2)?;
        writeln!(out)?;
    }
    if !ranking.inference || ranking.family == 0 {
        let line = format!("Best guess ranking: {}", not_ranked(ranking, analysis));
        for line in text::continued(&line, table) {
            writeln!(out, "{line}")?;
        }
        spending_lines(out, analysis, table)?;
    } else {
        writeln!(out, "Best guess ranking: {}", headline(ranking))?;
        spending_lines(out, analysis, table)?;
        for line in text::continued(&method_line(ranking), table) {
            writeln!(out, "  {line}")?;
        }
        if let Some(look) = &analysis.look {
            for line in text::continued(&look_line(look, analysis), table) {
                writeln!(out, "  {line}")?;
            }
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

/// Why no command was compared, and how many runs would compare them.
fn not_ranked(ranking: &Ranking, analysis: &Analysis<'_>) -> String {
    let needed = ranking
        .runs_needed
        .map_or_else(String::new, |n| format!(": needs {n} of each"));
    match ranking.best() {
        Some(b) if ranking.fixed_reference && b.runs_needed.is_some() => {
            let label = analysis
                .dataset
                .commands
                .get(b.index)
                .map_or_else(String::new, super::label);
            format!("(The reference, {label}, has too few timed runs to compare{needed})")
        }
        _ => format!("(Too few timed runs to rank{needed})"),
    }
}

/// The estimate, how the runs were made and the confidence behind the
/// verdicts (the exports say the same).
pub fn method_line(ranking: &Ranking) -> String {
    let estimate = match (ranking.design, ranking.scale) {
        (Design::Rounds { rounds }, Scale::Ratio) => {
            format!("Ratio of medians, {rounds} rounds")
        }
        (Design::Rounds { rounds }, Scale::Difference) => {
            format!("Difference of medians, {rounds} rounds")
        }
        (Design::Independent, Scale::Ratio) => {
            format!("Ratio of medians, {}", super::warnings::UNPAIRED)
        }
        (Design::Independent, Scale::Difference) => {
            format!("Difference of medians, {}", super::warnings::UNPAIRED)
        }
    };
    let (Some(each), Some(together)) = (ranking.bound_confidence, ranking.simultaneous_confidence)
    else {
        return format!("{estimate}.");
    };
    format!(
        "{estimate}: bounds {} each, {} together.",
        units::confidence(each),
        units::confidence(together),
    )
}

/// How an adaptive experiment (`--runs auto`) ended, and what its
/// intervals may claim: anytime-valid, at the level its last look spent.
pub fn look_line(look: &Look, analysis: &Analysis<'_>) -> String {
    let spent = format!(
        "intervals anytime-valid (look {} spends {} of α = {})",
        look.index + 1,
        units::plain(look.alpha),
        units::plain(analysis.settings.alpha)
    );
    let one = analysis.ranking.entries.len() == 1;
    let rounds = |n: u64| {
        let word = if one { "run" } else { "round" };
        format!("{n} {word}{}", if n == 1 { "" } else { "s" })
    };
    if look.decided {
        return format!(
            "--runs auto: decided after {}; {spent}.",
            rounds(look.rounds)
        );
    }
    let open = match rounds_to_decide(analysis, look.rounds) {
        Some(n) if n > look.rounds => format!("; about {} would decide what is open", rounds(n)),
        _ => String::new(),
    };
    format!(
        "--runs auto: budget reached after {}, not every question decided{open}; {spent}.",
        rounds(look.rounds)
    )
}

/// A rough count of rounds that would decide every open comparison: the
/// interval narrows as 1/√n, so n·(half-width / distance to a decision)².
/// `None` when some comparison sits between the thresholds (more rounds
/// cannot decide it soon) or nothing is open.
fn rounds_to_decide(analysis: &Analysis<'_>, n: u64) -> Option<u64> {
    let ranking = &analysis.ranking;
    let mut most: Option<f64> = None;
    for e in ranking.entries.iter().skip(1) {
        if e.verdict != Verdict::Inconclusive {
            continue;
        }
        let c = e.comparison?.contrast;
        if ranking.scale != Scale::Ratio || c.low <= 0.0 || c.estimate <= 0.0 {
            return None;
        }
        let (low, estimate, high) = (c.low.ln(), c.estimate.ln(), c.high.ln());
        let half = (high - low) / 2.0;
        let best = ranking.best().map_or(0.0, |b| b.median);
        if best <= 0.0 {
            return None;
        }
        let effect = (1.0 + ranking.effect / best).ln();
        let epsilon = (1.0 + ranking.epsilon / best).ln();
        let distance = if estimate.abs() > effect {
            estimate.abs() - effect
        } else if estimate.abs() < epsilon {
            epsilon - estimate.abs()
        } else {
            return None;
        };
        let needed = n as f64 * (half / distance).powi(2);
        most = Some(most.map_or(needed, |m| m.max(needed)));
    }
    most.filter(|m| m.is_finite() && *m < 1e12)
        .map(|m| m.ceil() as u64)
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
    let best_median = ranking.best().map_or(0.0, |b| b.median);
    let label_w = label_width(table);
    let name = fit(
        &format!("{:>4}: {label}", e.index + 1),
        label_w,
        Align::Left,
    );
    let median = Amounts::choose(unit, e.median.abs()).with_unit(e.median, 7);
    let mut line = format!("{mark}{name}  {median}");
    let mut second = None;
    match (&e.comparison, &e.verdict) {
        (Some(c), v) => {
            // The difference of the medians shown, then the verdict; below,
            // the estimate the verdict used, with its bounds.
            let by = e.median - best_median;
            let by = Amounts::choose(unit, by.abs()).with_unit(by, 7);
            line.push_str(&format!(" {by}  {}", v.word()));
            let estimate = units::contrast(&c.contrast, unit);
            second = Some(format!("{}{estimate}", " ".repeat(1 + label_w + 2)));
        }
        (None, Verdict::NotCompared { n }) if ranking.inference => {
            line.push_str(&format!(" (not compared: n = {n})"));
            // How many runs would compare every command, where the
            // interval of a compared one goes.
            second = e
                .runs_needed
                .map(|r| format!("{}needs {r} runs of each", " ".repeat(1 + label_w + 2)));
        }
        _ => {}
    }
    let mut lines = vec![trim_end(&line).to_owned()];
    lines.extend(second);
    lines
}

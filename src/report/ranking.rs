//! The ranking: which command is the reference (the best, or the one
//! given with `--reference`), and for every other command by how much it is
//! slower or faster, with its interval and a verdict.
//!
//! Everything shown comes from the [`Ranking`] computed by `stats`: order,
//! verdicts, medians, ratios and intervals. Layout after the reference (a
//! 78-column table indented 2, the `══════ Command ═══…` header, a `═`
//! line at the end), with these differences:
//!
//! * Labels are cut and padded by display width (C BestGuess cut at 40
//!   bytes, which misaligned or crashed on UTF-8 names).
//! * One estimate per row, in two units: the difference of the row's
//!   median from the reference's, without its sign, under a header that
//!   says which way it goes ("Slower by" or "Faster by"), then the
//!   verdict (slower, equivalent, inconclusive, or faster than a fixed
//!   reference); below it the ratio of the same two medians, the estimate
//!   the verdict used, with its interval, as a signed change in percent
//!   (`+45.2 % [+40.1 %, +50.3 %]`), or the difference in the unit when
//!   no ratio exists (a zero time). An inconclusive row adds what its
//!   interval leaves possible (`no more than 1.6 % slower, no more than
//!   1.2 % faster`).
//! * The order is the reference, then the compared commands by median, so
//!   the amounts and the changes both follow the order; against a fixed
//!   reference, the faster commands come first and the first slower one
//!   starts under a "Slower by" header of its own. `✻` marks the
//!   reference and the commands equivalent to it.
//! * A line under the headline names the estimate and the one level of
//!   every interval (`intervals 95% simultaneous`, the words of every
//!   output: docs/statistics.md, "The level"); with `--runs auto`, a line
//!   says what was decided or which budget left what open.
//! * One command alone gets its median with its interval at that level
//!   and how close the interval comes to it.
//! * A command whose runs are too few for its median's bounds to reach
//!   their level is listed after the others in median order with
//!   `(not compared: n = 3, needs 8)`.
//! * With `-E`, the settings legend comes first and each command gets its
//!   header line and the details of [`super::explain`]; the table is
//!   closed by a rule and, when a `✗` is shown, its legend.

use std::io::{self, Write};

use super::explain;
use super::text::{self, fit, trim_end, Align};
use super::units::{self, Scale as Amounts};
use crate::analysis::{Analysis, Look};
use crate::data::Unit;
use crate::stats::{values_needed, Design, MedianBounds, RankedEntry, Ranking, Scale, Verdict};

/// The table's header line (`table` columns), naming the ranked metric
/// above its column (cut by display width if a custom metric's name is
/// long) and the direction of the amounts below it.
fn header(metric: &str, direction: Direction, table: usize) -> String {
    const LEFT: &str = "══════ Command ";
    let right = format!(" ═════ {} ════════", direction.heading());
    let room = table.saturating_sub(text::width(LEFT) + text::width(&right) + 2);
    let metric = text::truncate(metric, room);
    let fill = room.saturating_sub(text::width(&metric)) + 1;
    format!("{LEFT}{} {metric}{right}", "═".repeat(fill))
}

/// Which way a row's amount goes from the reference: its column is
/// headed "Slower by" or "Faster by", and the amount under it is the
/// difference of the medians without its sign, the same estimate as the
/// row's signed change in percent (the ratio of the same medians).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Slower,
    Faster,
}

impl Direction {
    fn heading(self) -> &'static str {
        match self {
            Direction::Slower => "Slower by",
            Direction::Faster => "Faster by",
        }
    }

    /// The direction of a compared row (`None` for the reference and the
    /// commands not compared, which show no amount).
    fn of(e: &RankedEntry, ranking: &Ranking) -> Option<Direction> {
        let best = ranking.best()?.median;
        e.comparison.as_ref().map(|_| {
            if e.median < best {
                Direction::Faster
            } else {
                Direction::Slower
            }
        })
    }
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

/// The table's width in a report `width` columns wide: C BestGuess's 78
/// at 80 columns, narrower down to 58 (at 60), and wider on a wider
/// terminal, where the label column takes the extra room (up to 120).
fn table_width(width: usize) -> usize {
    width.saturating_sub(2).clamp(58, 158)
}

/// The table's width for `analysis`'s labels in a report `width` columns
/// wide: [`table_width`], but on a wide terminal no wider than the longest
/// `   N: label` needs (at least C BestGuess's 78), so that a name stays
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
/// in C BestGuess's 78).
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
            for line in text::continued(&one_command(analysis), table) {
                writeln!(out, "{line}")?;
            }
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
    heading(out, analysis, table)?;
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
    let mark = |e: &RankedEntry| {
        if ranking.inference && matches!(e.verdict, Verdict::Best | Verdict::Equivalent) {
            "✻"
        } else {
            " "
        }
    };
    // The first compared row's direction heads the table; a row going
    // the other way (only against a fixed reference: the best has no
    // command below it) starts under a header of its own.
    let mut direction = (ranking.entries.iter())
        .find_map(|e| Direction::of(e, ranking))
        .unwrap_or(Direction::Slower);
    for (i, e) in ranking.entries.iter().enumerate() {
        let turn = Direction::of(e, ranking).filter(|&d| d != direction);
        direction = turn.unwrap_or(direction);
        if explain || i == 0 || turn.is_some() {
            if explain && i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "  {}", header(metric.label(), direction, table))?;
        }
        for line in rows(mark(e), e, &label(e), ranking, metric.unit(), table) {
            writeln!(out, "  {line}")?;
        }
        if explain {
            let mut details = explain::details(e, analysis);
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
    // The legend of `✗`, where one is shown.
    if explain && ranking.entries.iter().any(explain::marked) {
        writeln!(out, "  {}", explain::MARK_LEGEND)?;
    }
    // Failed runs are ranked with the rest (as every statistic includes
    // them): say so here too, for a ranking shown alone (`-R`, `-E`),
    // so that a command whose every run crashed is never crowned the best
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

/// The lines above the table: the verdicts counted, the estimate and the
/// level, how an adaptive experiment ended; or why nothing was compared.
fn heading(out: &mut dyn Write, analysis: &Analysis<'_>, table: usize) -> io::Result<()> {
    let ranking = &analysis.ranking;
    let decided = ranking.inference && ranking.family > 0;
    let headline = if decided {
        headline(ranking)
    } else {
        not_ranked(ranking, analysis)
    };
    for line in text::continued(&format!("Best guess ranking: {headline}"), table) {
        writeln!(out, "{line}")?;
    }
    spending_lines(out, analysis, table)?;
    if decided {
        let mut more = vec![method_line(analysis)];
        more.extend(analysis.look.map(|look| look_line(&look, analysis)));
        for line in more {
            for part in text::continued(&line, table) {
                writeln!(out, "  {part}")?;
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
    // In the table's order: faster commands (against a fixed reference)
    // come before slower ones.
    let parts: Vec<String> = [
        (Verdict::Faster, "faster"),
        (Verdict::Slower, "slower"),
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

/// The estimate, how the runs were made and the level of its intervals
/// (the exports say the same, in the same words).
pub fn method_line(analysis: &Analysis<'_>) -> String {
    let ranking = &analysis.ranking;
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
    if ranking.simultaneous_confidence.is_none() {
        return format!("{estimate}.");
    }
    format!(
        "{estimate}; intervals {}.",
        units::level(analysis.settings.alpha)
    )
}

/// One command alone: its median with its interval at the level every
/// report states, and how close the interval is to the median (the
/// exports say the same).
pub fn one_command(analysis: &Analysis<'_>) -> String {
    let Some(e) = analysis.ranking.best() else {
        return "No commands.".to_owned();
    };
    let unit = analysis.settings.metric.unit();
    let Some(b) = &analysis.median_alone else {
        let needed = values_needed(analysis.settings.alpha / 2.0);
        return format!(
            "One command: median {}; its interval needs {needed} runs, it has {}.",
            units::amount(e.median, unit),
            e.n
        );
    };
    let scale = Amounts::choose(unit, b.high.abs().max(b.low.abs()));
    let within = match precision(b) {
        Some(p) => format!(" (within {})", within(p)),
        None => String::new(),
    };
    format!(
        "One command: median {} [{}, {}] {}, {}{within}.",
        scale.number(b.median),
        scale.number(b.low),
        scale.number(b.high),
        scale.symbol(),
        units::level(analysis.settings.alpha),
    )
}

/// How close a median's interval comes to it: the farther bound's
/// distance, as a fraction of the median (`None` for a median of 0 or
/// less).
fn precision(b: &MedianBounds) -> Option<f64> {
    (b.median > 0.0).then(|| (b.median - b.low).max(b.high - b.median) / b.median)
}

/// How an adaptive experiment (`--runs auto`) ended: what it decided, or
/// that a budget ended it with questions open and about how many rounds
/// would answer them. Its intervals are anytime-valid: the level stated
/// holds at whichever look the experiment stopped.
pub fn look_line(look: &Look, analysis: &Analysis<'_>) -> String {
    let what = if analysis.ranking.entries.len() == 1 {
        one_look(look, analysis)
    } else {
        many_look(look, analysis)
    };
    format!("--runs auto: {what} anytime-valid.")
}

/// `N rounds`, or `N runs` of one command.
fn count(n: u64, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `±2 %`: a precision (a fraction) as the reports write it.
fn within(p: f64) -> String {
    let text = units::fixed(100.0 * p, 1);
    format!("±{} %", text.strip_suffix(".0").unwrap_or(&text))
}

/// [`look_line`] for one command: the precision its median's interval
/// reached, against the one `--precision` asks.
fn one_look(look: &Look, analysis: &Analysis<'_>) -> String {
    let runs = |n| count(n, "run");
    let asked = (analysis.settings.adaptive).map_or(0.0, |rule| rule.precision);
    let reached = analysis.median_alone.as_ref().and_then(precision);
    let Some(reached) = reached else {
        return format!("budget reached after {}; interval", runs(look.rounds));
    };
    if look.decided {
        return format!(
            "median within {} after {} (--precision {}); interval",
            within(reached),
            runs(look.rounds),
            within(asked)
        );
    }
    // The interval narrows as 1/√n.
    let n = look.rounds as f64 * (reached / asked).powi(2);
    let more = if asked > 0.0 && n.is_finite() && n < 1e12 && n > look.rounds as f64 {
        format!(
            "; about {} would reach {}",
            runs(n.ceil() as u64),
            within(asked)
        )
    } else {
        String::new()
    };
    format!(
        "budget reached after {}, median within {}{more}; interval",
        runs(look.rounds),
        within(reached)
    )
}

/// Past this many times the rounds done, a count of rounds that would
/// decide is not worth printing.
const FAR: u64 = 100;

/// [`look_line`] for a ranking: decided, or how many comparisons a
/// budget left open.
fn many_look(look: &Look, analysis: &Analysis<'_>) -> String {
    let rounds = |n| count(n, "round");
    if look.decided {
        return format!("decided after {}; intervals", rounds(look.rounds));
    }
    let open = (analysis.ranking.entries.iter())
        .filter(|e| e.verdict == Verdict::Inconclusive)
        .count();
    if open == 0 {
        return format!(
            "budget reached after {}, before any comparison; intervals",
            rounds(look.rounds)
        );
    }
    let them = if open == 1 { "it" } else { "them" };
    // A rough count, from estimates as noisy as the intervals are wide:
    // given where it says something.
    let more = match rounds_to_decide(analysis, look.rounds) {
        Some(n) if n > look.rounds.saturating_mul(FAR) => {
            format!(" (deciding {them} would take over {FAR} times as many rounds)")
        }
        Some(n) if n > look.rounds => format!(" (about {} would decide {them})", rounds(n)),
        _ => String::new(),
    };
    format!(
        "budget reached after {}, {} open{more}; intervals",
        rounds(look.rounds),
        count(open as u64, "comparison")
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
    let mut words_lines = Vec::new();
    match (&e.comparison, &e.verdict) {
        (Some(c), v) => {
            // The difference of the medians shown, its direction in the
            // column's header, then the verdict; below, the same medians'
            // ratio (the estimate the verdict used) with its bounds.
            let by = (e.median - best_median).abs();
            let by = Amounts::choose(unit, by).with_unit(by, 7);
            line.push_str(&format!(" {by}  {}", v.word()));
            let estimate = units::contrast(&c.contrast, unit);
            second = Some(format!("{}{estimate}", " ".repeat(1 + label_w + 2)));
            // An open question still has an answer: what the interval
            // leaves possible, under the label.
            if *v == Verdict::Inconclusive {
                let words = units::in_words(&c.contrast, unit);
                // Under the label, or nearer the edge on a narrow table
                // rather than break the sentence.
                let indent = if text::width(&words) + WORDS <= table {
                    WORDS
                } else {
                    3
                };
                words_lines = text::wrap(&words, table.saturating_sub(indent))
                    .into_iter()
                    .map(|l| format!("{}{l}", " ".repeat(indent)))
                    .collect();
            }
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
    lines.extend(words_lines);
    lines
}

/// Where a row's label starts (after the mark and `NNNN: `), and the line
/// in words under an open comparison with it.
const WORDS: usize = 7;

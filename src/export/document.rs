//! The format-neutral document behind every markup export: the results
//! table and the ranking's verdict sentences, built once.
//!
//! Markdown, AsciiDoc and Org-mode ([`super::markup`]) only decide how a
//! table, a paragraph, a list and a code span are spelled; what the
//! document says (which columns, which numbers in which unit, which
//! sentences) is decided here, so the three can never disagree, and a new
//! markup language is one small file.
//!
//! The table follows Hyperfine's Markdown export (one row per command in
//! input order, the label as code, numbers right-aligned, one time unit for
//! the whole table (μs, ms or s: the one that fits every median, ms when
//! they span units), a Relative column) but shows what BestGuess measures:
//! total CPU time, as median, quartiles and range. Relative is the ratio of
//! medians to the best median, without a ± because no standard deviation is
//! involved. A ratio says nothing about whether a difference is real, so the
//! ranking's verdicts follow the table, grouped (slower, faster than a fixed
//! reference, equivalent, inconclusive), after the estimate and the one
//! level of every interval in the terminal's words (`Ratio of medians, 30
//! rounds; intervals 95% simultaneous.`) and, with `--runs auto`, how the
//! experiment ended; each command with its ratio and interval as a change
//! in percent (`+45.2 % [+40.1 %, +50.3 %]`), for an open comparison what
//! the interval leaves possible, and, when not slower, the unmet
//! conditions in the words `-E` uses ([`crate::report::explain::reason`]);
//! then why commands were not compared when they were not. One command
//! alone gets its median with its interval, as the terminal says it.

use crate::analysis::Analysis;
use crate::data::Unit;
use crate::report::explain;
use crate::report::units::{self, Scale};
use crate::stats::{Comparison, RankedEntry, Ranking, Verdict};

/// A piece of running text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    /// Plain text, written as it is (markups escape what they must).
    Text(String),
    /// A command or name, shown verbatim as code.
    Code(String),
    /// Emphasised text (a paragraph's lead-in).
    Strong(String),
}

/// A line of running text: a paragraph, a list item or a table cell.
pub type Line = Vec<Inline>;

/// How a table column is aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table: a header row and one row per command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Header text and alignment of each column.
    pub columns: Vec<(String, Align)>,
    /// Each row has one cell per column.
    pub rows: Vec<Vec<Line>>,
}

/// A top-level block; markups separate blocks with a blank line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Table(Table),
    Paragraph(Line),
    /// A bulleted list, one line per item.
    List(Vec<Line>),
}

/// The whole document, in reading order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub blocks: Vec<Block>,
}

fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

fn strong(s: impl Into<String>) -> Inline {
    Inline::Strong(s.into())
}

impl Document {
    /// The table, the verdicts and the failed runs of `analysis`.
    pub fn build(analysis: &Analysis<'_>) -> Document {
        let ranking = &analysis.ranking;
        let metric = analysis.settings.metric;
        let medians = ranking.entries.iter().map(|e| e.median);
        let unit = if metric.unit() == Unit::Microseconds {
            TimeUnit::for_medians(medians)
        } else {
            // Memory, counts, custom figures: the report's unit ladder.
            let largest = medians.fold(0.0f64, |m, v| m.max(v.abs()));
            TimeUnit::Scaled(Scale::choose(metric.unit(), largest))
        };
        let labels = Labels::of(analysis);
        let mut doc = Document {
            blocks: vec![Block::Table(table(analysis, &labels, unit))],
        };
        verdicts(analysis, &labels, &mut doc.blocks);
        failures(analysis, &labels, &mut doc.blocks);
        doc
    }
}

/// Every command's label, as code, with its number where another command
/// has the same label (`-n same` twice; one command under two shells): the
/// terminal numbers every command, and two rows `same` would otherwise be
/// told apart by nothing. Made once per document (by command, in dataset order).
struct Labels(Vec<Vec<Inline>>);

impl Labels {
    fn of(analysis: &Analysis<'_>) -> Labels {
        let own: Vec<_> = (0..analysis.dataset.commands.len())
            .map(|i| analysis.runs(i).label())
            .collect();
        // Labels that look alike are alike: blanks differ invisibly (`ls
        // -l` and `ls -l ` would be two rows `ls -l`, unnumbered; HTML shows
        // runs of blanks as one), as do the characters shown as spaces.
        let look = |label: &str| -> String {
            let shown = crate::report::text::clean(label);
            shown.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let looks: Vec<String> = own.iter().map(|l| look(l)).collect();
        let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for label in &looks {
            *counts.entry(label.as_str()).or_default() += 1;
        }
        let labels = own
            .iter()
            .zip(&looks)
            .enumerate()
            .map(|(i, (label, looks))| {
                let mut out = vec![Inline::Code(label.clone().into_owned())];
                if counts[looks.as_str()] > 1 {
                    out.push(text(format!(" (command {})", i + 1)));
                }
                out
            })
            .collect();
        Labels(labels)
    }

    /// The label of command `index`.
    fn get(&self, index: usize) -> Vec<Inline> {
        self.0[index].clone()
    }
}

fn table(analysis: &Analysis<'_>, labels: &Labels, unit: TimeUnit) -> Table {
    let best_median = analysis.ranking.best().map_or(0.0, |b| b.median);
    // A plain number's unit is nothing: no empty brackets.
    let u = match unit.symbol() {
        "" => String::new(),
        symbol => format!(" [{symbol}]"),
    };
    let columns = vec![
        ("Command".to_owned(), Align::Left),
        (
            format!("{}, median{u}", analysis.settings.metric.label()),
            Align::Right,
        ),
        (format!("Q₁ … Q₃{u}"), Align::Right),
        (format!("Min … Max{u}"), Align::Right),
        ("Relative".to_owned(), Align::Right),
    ];
    let rows = analysis
        .commands
        .iter()
        .enumerate()
        .map(|(i, stats)| {
            let Some(total) = stats.metric(analysis.settings.metric) else {
                // Not measured (a file without the metric): shown as such.
                let none = || vec![text("—".to_owned())];
                return vec![labels.get(i), none(), none(), none(), none()];
            };
            let q = &total.quantiles;
            let range =
                |a: f64, b: f64| vec![text(format!("{} … {}", unit.format(a), unit.format(b)))];
            vec![
                labels.get(i),
                vec![text(unit.format(q.median))],
                range(q.q1, q.q3),
                range(q.min, q.max),
                vec![text(relative(q.median, best_median))],
            ]
        })
        .collect();
    Table { columns, rows }
}

/// Median ÷ best median; undefined when the best median is 0 and this one
/// is not.
fn relative(median: f64, best_median: f64) -> String {
    if best_median > 0.0 {
        format!("{:.2}", median / best_median)
    } else if median == best_median {
        "1.00".to_owned()
    } else {
        "n/a".to_owned()
    }
}

/// The paragraphs below the table: best, identical, slower, not compared.
fn verdicts(analysis: &Analysis<'_>, labels: &Labels, blocks: &mut Vec<Block>) {
    let ranking = &analysis.ranking;
    let Some(best) = ranking.best() else {
        blocks.push(Block::Paragraph(vec![text("No commands.")]));
        return;
    };
    if ranking.entries.len() == 1 {
        blocks.push(Block::Paragraph(vec![text(
            crate::report::ranking::one_command(analysis),
        )]));
        look(analysis, blocks);
        return;
    }
    if !ranking.inference {
        blocks.push(not_ranked(ranking, best, labels));
        return;
    }
    let fixed = ranking.fixed_reference;
    let against = if fixed { "the reference" } else { "the best" };
    blocks.push(Block::Paragraph(
        [
            vec![
                strong(if fixed { "Reference:" } else { "Best:" }),
                text(" "),
            ],
            labels.get(best.index),
        ]
        .concat(),
    ));
    blocks.push(Block::Paragraph(vec![text(
        crate::report::ranking::method_line(analysis),
    )]));
    look(analysis, blocks);

    verdict_groups(analysis, labels, against, blocks);
    blocks.extend(not_compared(ranking, labels));
}

/// Not ranked: too few runs for any comparison, and how many it needs.
fn not_ranked(ranking: &Ranking, best: &RankedEntry, labels: &Labels) -> Block {
    let runs = if best.n == 1 { "run" } else { "runs" };
    let needed = ranking.runs_needed.unwrap_or(0);
    let (who, of) = if ranking.fixed_reference {
        ("reference", "")
    } else {
        ("fastest command", " of each")
    };
    Block::Paragraph(
        [
            vec![
                strong("Not ranked statistically:"),
                text(format!(" the {who}, ")),
            ],
            labels.get(best.index),
            vec![text(format!(
                ", has {} {runs}, and comparing these commands needs \
                 {needed} runs{of}. Relative compares medians only.",
                best.n
            ))],
        ]
        .concat(),
    )
}

/// A heading and a list per verdict (slower, faster, equivalent,
/// inconclusive), each command with the evidence for its verdict.
fn verdict_groups(
    analysis: &Analysis<'_>,
    labels: &Labels,
    against: &str,
    blocks: &mut Vec<Block>,
) {
    let ranking = &analysis.ranking;
    let groups = [
        (Verdict::Slower, format!("Slower than {against}:")),
        (Verdict::Faster, format!("Faster than {against}:")),
        (
            Verdict::Equivalent,
            format!("Equivalent to {against} (within ±epsilon):"),
        ),
        (
            Verdict::Inconclusive,
            "Inconclusive (more runs could tell):".to_owned(),
        ),
    ];
    for (wanted, heading) in groups {
        let lines: Vec<Line> = ranking
            .entries
            .iter()
            .filter(|e| e.verdict == wanted)
            .filter_map(|e| {
                let c = e.comparison.as_ref()?;
                Some(
                    [
                        labels.get(e.index),
                        vec![text(format!(": {}", evidence(c, e, analysis)))],
                    ]
                    .concat(),
                )
            })
            .collect();
        if !lines.is_empty() {
            blocks.push(Block::Paragraph(vec![strong(&heading)]));
            blocks.push(Block::List(lines));
        }
    }
}

/// One line naming the commands not compared, each with its runs.
fn not_compared(ranking: &Ranking, labels: &Labels) -> Option<Block> {
    let uncompared: Vec<&RankedEntry> = (ranking.entries.iter())
        .filter(|e| matches!(e.verdict, Verdict::NotCompared { .. }))
        .collect();
    let needed = uncompared.first().and_then(|e| e.runs_needed)?;
    let mut line = vec![
        strong("Not compared"),
        text(format!(" (fewer than {needed} runs): ")),
    ];
    for (k, e) in uncompared.into_iter().enumerate() {
        if k > 0 {
            line.push(text(", "));
        }
        line.extend(labels.get(e.index));
        let runs = if e.n == 1 { "run" } else { "runs" };
        line.push(text(format!(" ({} {runs})", e.n)));
    }
    Some(Block::Paragraph(line))
}

/// How an adaptive experiment ended, as the terminal says it.
fn look(analysis: &Analysis<'_>, blocks: &mut Vec<Block>) {
    if let Some(look) = &analysis.look {
        blocks.push(Block::Paragraph(vec![text(
            crate::report::ranking::look_line(look, analysis),
        )]));
    }
}

/// The estimate the verdict used with its bounds (at the level the
/// paragraph above states), for an open comparison what they leave
/// possible, and for a command not shown slower the unmet conditions in
/// `-E`'s words.
fn evidence(c: &Comparison, e: &RankedEntry, analysis: &Analysis<'_>) -> String {
    let unit = analysis.settings.metric.unit();
    let b = &c.contrast;
    let mut text = format!(
        "{}: {}",
        explain::estimate_name(&analysis.ranking).to_lowercase(),
        units::contrast(b, unit),
    );
    if e.verdict == Verdict::Inconclusive {
        text.push_str(": ");
        text.push_str(&units::in_words(b, unit));
    }
    for r in &e.reasons {
        text.push_str("; ");
        text.push_str(&explain::reason(*r, e, &analysis.ranking, unit));
    }
    text
}

/// A note on failed runs, which are part of every statistic above.
fn failures(analysis: &Analysis<'_>, labels: &Labels, blocks: &mut Vec<Block>) {
    let mut line = vec![
        strong("Failed runs"),
        text(" (non-zero exit or signal; included above): "),
    ];
    let mut any = false;
    for (i, s) in analysis.commands.iter().enumerate() {
        if s.failed == 0 {
            continue;
        }
        if any {
            line.push(text(", "));
        }
        any = true;
        line.extend(labels.get(i));
        line.push(text(format!(" {} of {}", s.failed, s.runs)));
    }
    if any {
        blocks.push(Block::Paragraph(line));
    }
}

/// The one unit of a table: a time unit for times in µs, else the
/// reports' scale for the ranked metric's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeUnit {
    Micros,
    Millis,
    Seconds,
    Scaled(Scale),
}

impl TimeUnit {
    /// μs when every median is below 1 ms, s when every median is at
    /// least 1 s, otherwise ms: two decimals of ms keep 10 µs and still
    /// read well next to seconds.
    fn for_medians(medians: impl Iterator<Item = f64> + Clone) -> TimeUnit {
        if medians.clone().all(|m| m < 1e3) {
            TimeUnit::Micros
        } else if medians.into_iter().all(|m| m >= 1e6) {
            TimeUnit::Seconds
        } else {
            TimeUnit::Millis
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Micros => "μs",
            TimeUnit::Millis => "ms",
            TimeUnit::Seconds => "s",
            TimeUnit::Scaled(s) => s.symbol(),
        }
    }

    /// `us` in this unit: whole µs, ms to 10 µs, s to 1 ms.
    fn format(self, us: f64) -> String {
        let (value, decimals) = match self {
            TimeUnit::Micros => (us, 0),
            TimeUnit::Millis => (us / 1e3, 2),
            TimeUnit::Seconds => (us / 1e6, 3),
            TimeUnit::Scaled(s) => (us / s.divisor(), s.decimals()),
        };
        let s = format!("{value:.decimals$}");
        // "-0.00" says nothing a plain 0 does not.
        match s.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
            _ => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_relative() {
        let unit = |m: &[f64]| TimeUnit::for_medians(m.iter().copied());
        assert_eq!(unit(&[999.0, 10.0]), TimeUnit::Micros);
        assert_eq!(unit(&[999.0, 1000.0]), TimeUnit::Millis);
        assert_eq!(unit(&[400.0, 2.5e6]), TimeUnit::Millis);
        assert_eq!(unit(&[1e6, 2.5e6]), TimeUnit::Seconds);
        assert_eq!(unit(&[]), TimeUnit::Micros);
        assert_eq!(TimeUnit::Millis.format(4932.0), "4.93");
        assert_eq!(TimeUnit::Millis.format(-1.0), "0.00");
        assert_eq!(TimeUnit::Micros.format(-12.0), "-12");
        assert_eq!(TimeUnit::Seconds.format(2_351_234.0), "2.351");
        assert_eq!(relative(10.0, 4.0), "2.50");
        assert_eq!(relative(0.0, 0.0), "1.00");
        assert_eq!(relative(3.0, 0.0), "n/a");
    }
}

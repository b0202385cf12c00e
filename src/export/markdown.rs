//! The Markdown export (`--export-markdown`): a table for a README or a
//! pull request, and what the ranking concluded.
//!
//! The table follows Hyperfine's Markdown export (one row per command in
//! input order, the label in backticks, numbers right-aligned, one time unit
//! for the whole table (μs, ms or s: the one that fits every median, ms
//! when they span units), a Relative column) but shows what BestGuess
//! measures: total CPU time, as median, quartiles and range. Relative is
//! the ratio of medians to the best median, without a ± because no standard
//! deviation is involved. A ratio says nothing about whether a difference
//! is real, so the ranking's verdicts follow the table: which commands
//! performed identically to the best and why, which are slower (by the
//! Hodges–Lehmann shift Δ, with its confidence interval and p-value), and
//! why commands were not compared when they were not.
//!
//! Labels are the command's name if it has one, else the command (as in
//! the terminal reports; a name of only spaces counts as none). They are written as code spans that survive any
//! text: the fence is longer than any run of backticks inside, `|` is
//! escaped so it cannot end the table cell (GitHub renders `\|` in a code
//! span as `|`), and line breaks become spaces, which is how Markdown
//! renders a line break inside a code span anyway.

use std::io::{self, Write};

use crate::analysis::Analysis;
use crate::data::Metric;
use crate::stats::{Comparison, IdenticalReason, RankedEntry, Verdict, MIN_VALUES_FOR_INFERENCE};

/// Writes the table and the ranking's verdicts.
pub fn write(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let ranking = &analysis.ranking;
    let best_median = ranking.best().map_or(0.0, |b| b.median);
    let unit = TimeUnit::for_medians(ranking.entries.iter().map(|e| e.median));
    let u = unit.symbol();

    writeln!(
        out,
        "| Command | Median total CPU [{u}] | Q₁ … Q₃ [{u}] | Min … Max [{u}] | Relative |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|")?;
    for (i, stats) in analysis.commands.iter().enumerate() {
        let Some(total) = stats.metric(Metric::TOTAL) else {
            continue; // Never ranked without it (see Analysis::new).
        };
        let q = &total.quantiles;
        writeln!(
            out,
            "| {} | {} | {} … {} | {} … {} | {} |",
            code(&analysis.runs(i).label()),
            unit.format(q.median),
            unit.format(q.q1),
            unit.format(q.q3),
            unit.format(q.min),
            unit.format(q.max),
            relative(q.median, best_median),
        )?;
    }
    verdicts(analysis, unit, &mut out)?;
    failures(analysis, &mut out)?;
    out.flush()
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
fn verdicts(analysis: &Analysis<'_>, unit: TimeUnit, out: &mut impl Write) -> io::Result<()> {
    let ranking = &analysis.ranking;
    let Some(best) = ranking.best() else {
        return writeln!(out, "\nNo commands.");
    };
    if ranking.entries.len() == 1 {
        return Ok(());
    }
    let shown = |e: &RankedEntry| code(&analysis.runs(e.index).label());
    if !ranking.inference {
        let runs = if best.n == 1 { "run" } else { "runs" };
        return writeln!(
            out,
            "\n**Not ranked statistically:** the fastest command, {}, has {} {runs}, and \
             comparing commands needs at least {MIN_VALUES_FOR_INFERENCE}. Relative compares \
             medians only.",
            shown(best),
            best.n,
        );
    }
    writeln!(out, "\n**Best:** {}", shown(best))?;

    let group = |wanted: fn(&Verdict) -> bool| -> Vec<&RankedEntry> {
        ranking
            .entries
            .iter()
            .filter(|e| wanted(&e.verdict))
            .collect()
    };
    let identical = group(|v| matches!(v, Verdict::Identical { .. }));
    if !identical.is_empty() {
        writeln!(out, "\n**Performed identically to the best:**\n")?;
        for e in identical {
            if let (Some(c), Verdict::Identical { reasons }) = (&e.comparison, &e.verdict) {
                let why: Vec<String> = reasons
                    .iter()
                    .map(|r| reason(*r, c, analysis, unit))
                    .collect();
                writeln!(out, "- {}: {}", shown(e), why.join("; "))?;
            }
        }
    }
    let slower = group(|v| matches!(v, Verdict::Slower));
    if !slower.is_empty() {
        writeln!(out, "\n**Slower than the best:**\n")?;
        for e in slower {
            if let Some(c) = &e.comparison {
                let percent = if best.median > 0.0 {
                    format!(" ({:+.1}%)", 100.0 * c.shift / best.median)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "- {}: by {} {}{percent}, {} CI {} … {} {}, {}",
                    shown(e),
                    unit.format(c.shift),
                    unit.symbol(),
                    confidence(c),
                    unit.format(c.interval.low),
                    unit.format(c.interval.high),
                    unit.symbol(),
                    p_value(c.p_adjusted, analysis),
                )?;
            }
        }
    }
    let uncompared: Vec<String> = group(|v| matches!(v, Verdict::NotCompared { .. }))
        .into_iter()
        .map(|e| {
            format!(
                "{} ({} {})",
                shown(e),
                e.n,
                if e.n == 1 { "run" } else { "runs" }
            )
        })
        .collect();
    if !uncompared.is_empty() {
        writeln!(
            out,
            "\n**Not compared** (fewer than {MIN_VALUES_FOR_INFERENCE} runs): {}",
            uncompared.join(", ")
        )?;
    }
    Ok(())
}

/// One reason, short, with the numbers that triggered it.
fn reason(r: IdenticalReason, c: &Comparison, analysis: &Analysis<'_>, unit: TimeUnit) -> String {
    let ranking = &analysis.ranking;
    let u = unit.symbol();
    match r {
        IdenticalReason::NotSignificant => format!(
            "not significant ({} ≥ α = {})",
            p_value(c.p_adjusted, analysis),
            ranking.settings.alpha
        ),
        IdenticalReason::CiContainsZero => {
            let (low, high) = (c.interval.low, c.interval.high);
            let ci = format!(
                "{} CI {} … {} {u}",
                confidence(c),
                unit.format(low),
                unit.format(high)
            );
            if low <= 0.0 && 0.0 <= high {
                format!("{ci} includes 0")
            } else {
                format!(
                    "{ci} ends within ε = {} {u} of 0",
                    unit.format(ranking.epsilon)
                )
            }
        }
        IdenticalReason::EffectTooSmall => format!(
            "|Δ| = {} {u} < effect {} {u}",
            unit.format(c.shift.abs()),
            unit.format(ranking.effect),
        ),
        IdenticalReason::HighSuperiority => format!(
            "Â = {:.2} > {}",
            c.superiority, ranking.settings.superiority
        ),
    }
}

/// The confidence actually achieved, e.g. `95.2%`.
fn confidence(c: &Comparison) -> String {
    format!("{:.1}%", 100.0 * c.interval.achieved_confidence)
}

/// A comparison's p-value, said to be adjusted when Holm's adjustment
/// changed anything (more than one comparison).
fn p_value(p: f64, analysis: &Analysis<'_>) -> String {
    let compared = analysis
        .ranking
        .entries
        .iter()
        .filter(|e| e.comparison.is_some())
        .count();
    let name = if compared > 1 { "Holm-adjusted p" } else { "p" };
    if p < 0.001 {
        format!("{name} < 0.001")
    } else {
        format!("{name} = {p:.3}")
    }
}

/// A note on failed runs, which are part of every statistic above.
fn failures(analysis: &Analysis<'_>, out: &mut impl Write) -> io::Result<()> {
    let failed: Vec<String> = analysis
        .commands
        .iter()
        .enumerate()
        .filter(|(_, s)| s.failed > 0)
        .map(|(i, s)| {
            format!(
                "{} {} of {}",
                code(&analysis.runs(i).label()),
                s.failed,
                s.runs
            )
        })
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n**Failed runs** (non-zero exit or signal; included above): {}",
        failed.join(", ")
    )
}

/// The one time unit of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeUnit {
    Micros,
    Millis,
    Seconds,
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
        }
    }

    /// `us` in this unit: whole µs, ms to 10 µs, s to 1 ms.
    fn format(self, us: f64) -> String {
        let (value, decimals) = match self {
            TimeUnit::Micros => (us, 0),
            TimeUnit::Millis => (us / 1e3, 2),
            TimeUnit::Seconds => (us / 1e6, 3),
        };
        let s = format!("{value:.decimals$}");
        // "-0.00" says nothing a plain 0 does not.
        match s.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
            _ => s,
        }
    }
}

/// `text` as a Markdown code span that is safe inside a table cell.
fn code(text: &str) -> String {
    let text = text.replace(['\r', '\n'], " ").replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A code span strips one space from each end when both are spaces (and
    // the text is not all spaces), and a backtick at either end would join
    // the fence: pad with a space in those cases.
    let spaced = text.starts_with(' ') && text.ends_with(' ') && text.trim() != "";
    let pad = if text.starts_with('`') || text.ends_with('`') || spaced {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks_pipes_and_line_breaks() {
        assert_eq!(code("ls -l"), "`ls -l`");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("echo `date`"), "`` echo `date` ``");
        assert_eq!(code("a``b"), "```a``b```");
        assert_eq!(code("x\ny\r\nz"), "`x y  z`");
        assert_eq!(code(" a "), "`  a  `");
        assert_eq!(code(" "), "` `");
    }

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

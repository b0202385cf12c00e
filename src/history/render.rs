//! A history rendered: the terminal table, the Markdown of a
//! pull-request comment, and the JSON's `history` object. Pure writers
//! from a finished [`History`] into a stream.

use std::io::{self, Write};

use super::series::{Benchmark, Change, History, Point};
use crate::report::units::Scale;
use crate::stats::{Contrast, Scale as ContrastScale};

/// The points the terminal shows per benchmark at most: the latest ones
/// (all of them are in the JSON and the HTML).
pub const TERMINAL_POINTS: usize = 30;

/// Microseconds since the Unix epoch as `YYYY-MM-DD HH:MM` (UTC).
pub fn date(us: i64) -> String {
    let (y, m, d, rem) = crate::report::units::utc_fields(us);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// An RFC 3339 time, UTC, to the second.
pub fn rfc3339(us: i64) -> String {
    let d = date(us);
    let secs = us.div_euclid(1_000_000).rem_euclid(60);
    format!("{}T{}:{secs:02}Z", &d[..10], &d[11..])
}

/// A commit as shown: its first 10 characters, `-` when unknown.
pub fn short(commit: Option<&str>) -> String {
    match commit {
        Some(c) => c.chars().take(10).collect(),
        None => "-".to_owned(),
    }
}

fn commit_of(p: &Point) -> Option<&str> {
    p.experiment.commit.as_deref()
}

/// A change's size in words: `×1.100 [1.081, 1.119]`, or a difference.
pub fn size_text(size: Option<&Contrast>, scale: &Scale) -> String {
    match size {
        Some(c) if c.scale == ContrastScale::Ratio => {
            format!("×{:.3} [{:.3}, {:.3}]", c.estimate, c.low, c.high)
        }
        Some(c) => format!(
            "{:+} [{}, {}] {}",
            scale.number(c.estimate),
            scale.number(c.low),
            scale.number(c.high),
            scale.symbol()
        ),
        None => "(no size)".to_owned(),
    }
}

/// The confidence of the intervals, in percent: `95 %`.
fn confidence(alpha: f64) -> String {
    let c = (1.0 - alpha) * 100.0;
    if (c - c.round()).abs() < 1e-9 {
        format!("{c:.0} %")
    } else {
        format!("{c} %")
    }
}

fn scale_of(b: &Benchmark) -> Scale {
    let max = b.points.iter().map(|p| p.ci_high.abs()).fold(0.0, f64::max);
    Scale::choose(b.unit(), max)
}

fn heading(b: &Benchmark) -> String {
    format!(
        "{} · {} · machine {}{}",
        b.command,
        b.metric_name(),
        b.machine,
        if b.machine_description.is_empty() {
            String::new()
        } else {
            format!(" ({})", b.machine_description)
        }
    )
}

/// The terminal report: per benchmark, its latest points and every
/// change point.
pub fn terminal(history: &History, store: &str, out: &mut dyn Write) -> io::Result<()> {
    let level = confidence(history.alpha);
    writeln!(
        out,
        "History in {store}: {} experiment{}, {} benchmark{} (command × metric × machine).",
        history.experiments,
        if history.experiments == 1 { "" } else { "s" },
        history.benchmarks.len(),
        if history.benchmarks.len() == 1 {
            ""
        } else {
            "s"
        },
    )?;
    for b in &history.benchmarks {
        let scale = scale_of(b);
        writeln!(out, "\n{}", heading(b))?;
        let hidden = b.points.len().saturating_sub(TERMINAL_POINTS);
        if hidden > 0 {
            writeln!(
                out,
                "  … {hidden} earlier experiments not shown (--since DATE selects; --export-json and --export-html hold all)"
            )?;
        }
        writeln!(
            out,
            "  {:<10}  {:<16}  {:>10}  {:<25}  {:>6}",
            "commit",
            "date",
            format!("median {}", scale.symbol()),
            format!("{level} interval"),
            "runs"
        )?;
        for (i, p) in b.points.iter().enumerate().skip(hidden) {
            let mark = if b.changes.iter().any(|c| c.after == i) {
                "▲"
            } else {
                " "
            };
            let failed = if p.failed > 0 {
                format!(" ({} failed)", p.failed)
            } else {
                String::new()
            };
            writeln!(
                out,
                "{mark} {:<10}  {:<16}  {:>10}  {:<25}  {:>6}{failed}",
                short(commit_of(p)),
                date(p.experiment.time_us),
                scale.number(p.median),
                format!(
                    "[{}, {}]{}",
                    scale.number(p.ci_low),
                    scale.number(p.ci_high),
                    if p.reached { "" } else { " (all runs)" }
                ),
                p.runs
            )?;
        }
        changes_text(b, &scale, &level, out)?;
    }
    if history.benchmarks.is_empty() {
        writeln!(
            out,
            "No experiment matches; run bestguess --history to record one, or loosen the filters."
        )?;
    }
    Ok(())
}

fn changes_text(b: &Benchmark, scale: &Scale, level: &str, out: &mut dyn Write) -> io::Result<()> {
    if b.changes.is_empty() {
        return writeln!(
            out,
            "  No change point in {} experiment{}.",
            b.points.len(),
            if b.points.len() == 1 { "" } else { "s" }
        );
    }
    writeln!(
        out,
        "  Change points (▲; after / before, {level} interval):"
    )?;
    for c in &b.changes {
        writeln!(out, "    {}", change_line(b, c, scale))?;
    }
    Ok(())
}

fn change_line(b: &Benchmark, c: &Change, scale: &Scale) -> String {
    format!(
        "{} → {}  {}  (p = {:.4})",
        short(commit_of(&b.points[c.before])),
        short(commit_of(&b.points[c.after])),
        size_text(c.size.as_ref(), scale),
        c.p_value
    )
}

/// Markdown for a pull-request comment: one row per benchmark, with its
/// latest experiment and its change points.
pub fn markdown(history: &History, out: &mut dyn Write) -> io::Result<()> {
    let level = confidence(history.alpha);
    writeln!(out, "### BestGuess history\n")?;
    writeln!(
        out,
        "{} experiments; medians with {level} intervals; change points with after / before of the medians.\n",
        history.experiments
    )?;
    writeln!(
        out,
        "| Command | Metric | Machine | Experiments | Latest median | Change points |"
    )?;
    writeln!(out, "|---|---|---|---:|---|---|")?;
    for b in &history.benchmarks {
        let scale = scale_of(b);
        let latest = b.points.last().map_or_else(String::new, |p| {
            format!(
                "{} {} [{}, {}] at `{}`",
                scale.number(p.median),
                scale.symbol(),
                scale.number(p.ci_low),
                scale.number(p.ci_high),
                short(commit_of(p))
            )
        });
        let changes: Vec<String> = b
            .changes
            .iter()
            .map(|c| {
                format!(
                    "`{}` → `{}`: {}",
                    short(commit_of(&b.points[c.before])),
                    short(commit_of(&b.points[c.after])),
                    size_text(c.size.as_ref(), &scale)
                )
            })
            .collect();
        writeln!(
            out,
            "| {} | {} | `{}` | {} | {latest} | {} |",
            cell(&b.command),
            b.metric_name(),
            b.machine,
            b.points.len(),
            if changes.is_empty() {
                "none".to_owned()
            } else {
                changes.join("<br>")
            }
        )?;
    }
    Ok(())
}

/// Text for a Markdown table cell: pipes escaped, on one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The JSON document: `{"program", "history": {"series": [...]}}` with
/// the keys docs/JSON.md lists.
pub fn json(history: &History, command_line: &[String], out: &mut dyn Write) -> io::Result<()> {
    use serde_json::{json, Value};
    let number = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
    let series: Vec<Value> = history
        .benchmarks
        .iter()
        .map(|b| {
            let points: Vec<Value> = b
                .points
                .iter()
                .map(|p| {
                    json!({
                        "commit": commit_of(p),
                        "time": rfc3339(p.experiment.time_us),
                        "median": number(p.median),
                        "ci_low": number(p.ci_low),
                        "ci_high": number(p.ci_high),
                        "runs": p.runs,
                    })
                })
                .collect();
            let changes: Vec<Value> = b
                .changes
                .iter()
                .map(|c| {
                    let ratio = c.size.filter(|s| s.scale == ContrastScale::Ratio);
                    json!({
                        "commit_before": commit_of(&b.points[c.before]),
                        "commit_after": commit_of(&b.points[c.after]),
                        "ratio": ratio.map(|s| number(s.estimate)),
                        "ratio_ci_low": ratio.map(|s| number(s.low)),
                        "ratio_ci_high": ratio.map(|s| number(s.high)),
                    })
                })
                .collect();
            json!({
                "command": b.command,
                "metric": b.metric_name(),
                "machine": b.machine,
                "points": points,
                "change_points": changes,
            })
        })
        .collect();
    let doc = json!({
        "program": "bestreport",
        "command_line": command_line,
        "ci_confidence": 1.0 - history.alpha,
        "history": { "series": series },
    });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(date(0), "1970-01-01 00:00");
        assert_eq!(rfc3339(1_795_432_315_835_742), "2026-11-23T11:11:55Z");
        assert_eq!(short(Some("0123456789abcdef")), "0123456789");
        assert_eq!(short(None), "-");
    }
}

//! `--export-html`: one self-contained page with the results table and
//! verdict sentences of the format-neutral [`Document`] (the words of the
//! other markup exports), every figure of [`crate::figure`] inline as SVG,
//! the ranking with its evidence as `-E` prints it, the settings and the
//! metadata.
//!
//! Self-contained means the file works offline, forever, anywhere: no
//! scripts at all, no external styles, fonts or images; one inline
//! `<style>` block. The page's size is bounded by the figures' (which do
//! not grow with the number of runs) plus a few lines per command.

use std::io::{self, Write};

use crate::analysis::{meaning, threshold, Analysis};
use crate::stats::Verdict;

use super::document::{Align, Block, Document, Inline, Line};
use crate::figure::svg::escape;
use crate::figure::{Figure, Input};
use crate::report::{self, Selection};

/// The page takes the window's width (up to 1600 px): the figures side by
/// side where two fit at 640 px or more each, else one under the other,
/// each as wide as its column; running text keeps to 60 em.
const STYLE: &str = "\
body{font-family:sans-serif;margin:2em auto;max-width:1600px;color:#111;background:#fff;padding:0 2em}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
p,ul,.warnings{max-width:60em}\
table{border-collapse:collapse;font-size:.9em}td,th{padding:.2em .6em;border-bottom:1px solid #e4e4e4;text-align:right}\
td.text,th.text{text-align:left}\
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,640px),1fr));gap:1.5em 2em}\
figure{margin:1.5em 0}svg.figure{width:100%;max-width:1000px;height:auto;display:block}\
pre{font-size:.8em;overflow-x:auto;background:#f7f7f7;padding:1em;line-height:1.25}\
code{overflow-wrap:anywhere}.undecided{color:#777;font-style:italic}\
.warnings{border-left:4px solid #d08000;background:#fff8e6;padding:.3em 1em;margin:1em 0}\
.warnings li{margin:.3em 0}";

/// Writes the page.
pub fn write(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let input = Input::new(analysis);
    let n = input.series.len();
    let runs = input.runs();
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
    )?;
    writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    let heading = format!("BestGuess: {}, {runs} runs", crate::figure::commands(n));
    writeln!(out, "<title>{heading}</title>")?;
    writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>")?;
    writeln!(out, "<h1>{heading}</h1>")?;

    writeln!(out, "<h2 id=\"results\">Results and verdicts</h2>")?;
    warnings(analysis, &mut out)?;
    spending(analysis, &mut out)?;
    document(analysis, &mut out)?;

    writeln!(
        out,
        "<h2 id=\"figures\">Figures</h2>\n<div class=\"figures\">"
    )?;
    for f in Figure::ALL {
        writeln!(out, "<figure id=\"figure-{}\">", f.name())?;
        out.write_all(f.render(&input).as_bytes())?;
        writeln!(out, "</figure>")?;
    }
    writeln!(out, "</div>")?;

    writeln!(
        out,
        "<h2 id=\"ranking\">Ranking and its evidence (as <code>-E</code> prints it)</h2>"
    )?;
    let mut text = Vec::new();
    let selection = Selection {
        ranking: true,
        explain: true,
        ..Selection::default()
    };
    report::render_overall(analysis, &selection, &mut text)?;
    writeln!(
        out,
        "<pre>{}</pre>",
        escape(&String::from_utf8_lossy(&text))
    )?;

    writeln!(out, "<h2 id=\"settings\">Settings</h2>")?;
    settings_table(analysis, &mut out)?;
    writeln!(out, "<h2 id=\"metadata\">Metadata</h2>")?;
    metadata(&input, &mut out)?;
    writeln!(out, "</body>\n</html>")?;
    out.flush()
}

/// Which metric is ranked and why, and a busy machine: the lines under
/// the terminal ranking's headline, one paragraph each.
fn spending(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    let lines = [
        ("metric-choice", report::spending::metric_line(analysis)),
        ("busy", report::spending::busy_line(analysis)),
    ];
    for (id, line) in lines {
        if let Some(line) = line {
            writeln!(out, "<p id=\"{id}\">{}</p>", escape(&line))?;
        }
    }
    Ok(())
}

/// What the terminal prints after the reports (notes and warnings), first
/// on the page; the details behind them (`-E`) folded below.
fn warnings(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    let all = analysis.warnings();
    if all.is_empty() {
        return Ok(());
    }
    let text = |w| escape(&report::warnings::text(analysis, w));
    let (printed, details): (Vec<_>, Vec<_>) = all.iter().partition(|w| w.printed());
    writeln!(out, "<div class=\"warnings\" id=\"warnings\">")?;
    if !printed.is_empty() {
        writeln!(out, "<ul>")?;
        for w in &printed {
            writeln!(out, "<li>{}</li>", text(w))?;
        }
        writeln!(out, "</ul>")?;
    }
    if !details.is_empty() {
        writeln!(
            out,
            "<details><summary>Details of the time-order diagnostics ({})</summary>\n<ul>",
            details.len()
        )?;
        for w in &details {
            writeln!(out, "<li>{}</li>", text(w))?;
        }
        writeln!(out, "</ul>\n</details>")?;
    }
    writeln!(out, "</div>")
}

/// The format-neutral document (results table and verdict sentences, the
/// same words as the Markdown, AsciiDoc and Org-mode exports) as HTML.
/// Its table gains the verdict of each command, and a relative figure
/// whose verdict does not decide it (inconclusive, not compared) is shown
/// as undecided: "50.10" beside "inconclusive" would read as a finding.
fn document(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    fn line(l: &Line) -> String {
        l.iter()
            .map(|inline| match inline {
                Inline::Text(t) => escape(t),
                Inline::Code(t) => format!("<code>{}</code>", escape(t)),
                Inline::Strong(t) => format!("<strong>{}</strong>", escape(t)),
            })
            .collect()
    }
    for block in Document::build(analysis).blocks {
        match block {
            Block::Table(t) => {
                let class = |a: &Align| match a {
                    Align::Left => " class=\"text\"",
                    Align::Right => "",
                };
                let relative = t.columns.iter().position(|(n, _)| n == "Relative");
                // Rows are in dataset order (one per command).
                let verdicts = t.rows.len() == analysis.commands.len();
                write!(out, "<table>\n<tr>")?;
                for (name, a) in &t.columns {
                    write!(out, "<th{}>{}</th>", class(a), escape(name))?;
                }
                if verdicts {
                    write!(out, "<th class=\"text\">Verdict</th>")?;
                }
                writeln!(out, "</tr>")?;
                for (i, row) in t.rows.iter().enumerate() {
                    let verdict = analysis.ranking.entry(i).map(|e| e.verdict);
                    let undecided = matches!(
                        verdict,
                        Some(Verdict::Inconclusive | Verdict::NotCompared { .. }) | None
                    );
                    write!(out, "<tr>")?;
                    for (k, (cell, (_, a))) in row.iter().zip(&t.columns).enumerate() {
                        if Some(k) == relative && undecided && verdicts {
                            write!(
                                out,
                                "<td{}><span class=\"undecided\" title=\"ratio of medians; the verdict does not decide it\">{}?</span></td>",
                                class(a),
                                line(cell)
                            )?;
                        } else {
                            write!(out, "<td{}>{}</td>", class(a), line(cell))?;
                        }
                    }
                    if verdicts {
                        let word = match verdict {
                            Some(Verdict::NotCompared { .. }) => "not compared",
                            Some(v) => v.word(),
                            None => "—",
                        };
                        write!(out, "<td class=\"text\">{word}</td>")?;
                    }
                    writeln!(out, "</tr>")?;
                }
                writeln!(out, "</table>")?;
                if verdicts && relative.is_some() {
                    writeln!(
                        out,
                        "<p><small>Relative: the command's median over the best's. A figure with a question mark is not a finding: its verdict does not decide it.</small></p>"
                    )?;
                }
            }
            Block::Paragraph(l) => writeln!(out, "<p>{}</p>", line(&l))?,
            Block::List(items) => {
                writeln!(out, "<ul>")?;
                for item in &items {
                    writeln!(out, "<li>{}</li>", line(item))?;
                }
                writeln!(out, "</ul>")?;
            }
        }
    }
    Ok(())
}

fn settings_table(analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    let s = &analysis.settings;
    let r = &analysis.ranking;
    let reference = s
        .reference
        .as_ref()
        .map_or_else(|| "the best".to_owned(), |r| r.to_string());
    let rows = [
        (
            "metric",
            "The metric ranked and drawn",
            s.metric.label().to_owned(),
        ),
        ("ref", "The command the others are compared with", reference),
        ("alpha", meaning::ALPHA, s.alpha.to_string()),
        (
            "epsilon",
            meaning::EPSILON,
            format!(
                "{} (= {})",
                threshold(s.epsilon),
                report::units::amount(r.epsilon, s.metric.unit())
            ),
        ),
        (
            "effect",
            meaning::EFFECT,
            format!(
                "{} (= {})",
                threshold(s.effect),
                report::units::amount(r.effect, s.metric.unit())
            ),
        ),
    ];
    writeln!(out, "<table>\n<tr><th class=\"text\">Setting</th><th class=\"text\">Meaning</th><th class=\"text\">Value</th></tr>")?;
    for (name, meaning, value) in rows {
        writeln!(
            out,
            "<tr><td class=\"text\"><code>{name}</code></td><td class=\"text\">{}</td><td class=\"text\">{}</td></tr>",
            escape(meaning),
            escape(&value)
        )?;
    }
    writeln!(out, "</table>")
}

fn metadata(input: &Input<'_>, out: &mut dyn Write) -> io::Result<()> {
    let dataset = input.analysis.dataset;
    let starts = dataset
        .commands
        .iter()
        .flat_map(|c| (0..c.len()).filter_map(|i| c.start_unix_us(i)));
    let (first, last) = starts.fold((None, None), |(lo, hi): (Option<i64>, Option<i64>), t| {
        (
            Some(lo.map_or(t, |l| l.min(t))),
            Some(hi.map_or(t, |h| h.max(t))),
        )
    });
    writeln!(out, "<table>")?;
    let row = |out: &mut dyn Write, k: &str, v: &str| {
        writeln!(
            out,
            "<tr><th class=\"text\">{}</th><td class=\"text\">{}</td></tr>",
            escape(k),
            escape(v)
        )
    };
    row(out, "BestGuess version", env!("CARGO_PKG_VERSION"))?;
    row(out, "Metric shown", input.metric.label())?;
    row(
        out,
        "Run order",
        if input.global_order {
            "sequence numbers recorded for every run"
        } else {
            "no global sequence numbers in the data (runs numbered per command)"
        },
    )?;
    if let (Some(a), Some(b)) = (first, last) {
        row(out, "First run started", &utc(a))?;
        row(out, "Last run started", &utc(b))?;
    }
    writeln!(out, "</table>")?;
    writeln!(
        out,
        "<table>\n<tr><th>#</th><th class=\"text\">Name</th><th class=\"text\">Command</th><th class=\"text\">Shell</th><th>Batch</th></tr>"
    )?;
    for (i, c) in dataset.commands.iter().enumerate() {
        writeln!(
            out,
            "<tr><td>{}</td><td class=\"text\">{}</td><td class=\"text\"><code>{}</code></td><td class=\"text\"><code>{}</code></td><td>{}</td></tr>",
            i + 1,
            escape(&c.name),
            escape(&c.command),
            escape(&c.shell),
            c.batch
        )?;
    }
    writeln!(out, "</table>")
}

/// Microseconds since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC`.
fn utc(us: i64) -> String {
    let (y, m, d, rem) = report::units::utc_fields(us);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_are_civil() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        // 2026-11-23 10:34:56 UTC
        assert_eq!(utc(1_795_430_096_000_000), "2026-11-23 10:34:56 UTC");
        assert_eq!(utc(951_782_400_000_000), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc(-1_000_000), "1969-12-31 23:59:59 UTC");
    }
}

//! The history as one self-contained HTML page: per benchmark, a figure
//! of its series (each experiment's median with its interval, the
//! commits along the axis, the change points marked with their size)
//! and the tables behind it.

use std::io::{self, Write};

use super::render::{date, short, size_text};
use super::series::{Benchmark, History};
use crate::figure::svg::{escape, num, Anchor, PathData, Svg};
use crate::report::units::Scale;

const STYLE: &str = "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}\
td:first-child,th:first-child{text-align:left}code{font-size:90%}figure{margin:1em 0;overflow-x:auto}\
.change{color:#b00020}";

/// Writes the page.
pub fn write(history: &History, store: &str, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>BestGuess history</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    )?;
    writeln!(out, "<h1>BestGuess history</h1>")?;
    writeln!(
        out,
        "<p>{} experiments in <code>{}</code>; {} benchmarks (command × metric × machine). \
         Each point is an experiment's median with its {:.0} % interval from its own runs; \
         a red line marks a change point, labelled with after / before of the medians.</p>",
        history.experiments,
        escape(store),
        history.benchmarks.len(),
        (1.0 - history.alpha) * 100.0
    )?;
    for (i, b) in history.benchmarks.iter().enumerate() {
        section(b, i, &mut out)?;
    }
    writeln!(out, "</body>\n</html>")?;
    out.flush()
}

fn section(b: &Benchmark, index: usize, out: &mut dyn Write) -> io::Result<()> {
    let max = b.points.iter().map(|p| p.ci_high.abs()).fold(0.0, f64::max);
    let scale = Scale::choose(b.unit(), max);
    writeln!(
        out,
        "<h2 id=\"series-{index}\">{} · {} · machine <code>{}</code></h2>",
        escape(&b.command),
        escape(&b.metric_name()),
        escape(&b.machine)
    )?;
    writeln!(out, "<p>{}</p>", escape(&b.machine_description))?;
    writeln!(out, "<figure>")?;
    out.write_all(figure(b, index, &scale).as_bytes())?;
    writeln!(out, "</figure>")?;
    if b.changes.is_empty() {
        writeln!(
            out,
            "<p>No change point in {} experiments.</p>",
            b.points.len()
        )?;
    } else {
        writeln!(
            out,
            "<table><tr><th>last commit before</th><th>first commit after</th><th>after / before</th><th>p</th></tr>"
        )?;
        for c in &b.changes {
            writeln!(
                out,
                "<tr class=\"change\"><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{:.4}</td></tr>",
                escape(b.points[c.before].experiment.commit.as_deref().unwrap_or("-")),
                escape(b.points[c.after].experiment.commit.as_deref().unwrap_or("-")),
                escape(&size_text(c.size.as_ref(), &scale)),
                c.p_value
            )?;
        }
        writeln!(out, "</table>")?;
    }
    writeln!(
        out,
        "<details><summary>Every experiment ({})</summary>\n<table><tr><th>commit</th><th>date (UTC)</th><th>branch</th><th>median ({})</th><th>interval</th><th>runs</th><th>failed</th></tr>",
        b.points.len(),
        escape(scale.symbol())
    )?;
    for p in &b.points {
        writeln!(
            out,
            "<tr><td><code>{}</code>{}</td><td>{}</td><td>{}</td><td>{}</td><td>[{}, {}]</td><td>{}</td><td>{}</td></tr>",
            escape(p.experiment.commit.as_deref().unwrap_or("-")),
            if p.experiment.dirty == Some(true) { " (dirty)" } else { "" },
            date(p.experiment.time_us),
            escape(p.experiment.branch.as_deref().unwrap_or("")),
            scale.number(p.median),
            scale.number(p.ci_low),
            scale.number(p.ci_high),
            p.runs,
            p.failed
        )?;
    }
    writeln!(out, "</table></details>")
}

/// The value axis' ends: every interval's, padded by 5 % (a series of one
/// value gets ±1 around it).
fn value_range(b: &Benchmark) -> (f64, f64) {
    let lo = b
        .points
        .iter()
        .map(|p| p.ci_low)
        .fold(f64::INFINITY, f64::min);
    let hi = b
        .points
        .iter()
        .map(|p| p.ci_high)
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 1.0, hi + 1.0)
    };
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    (lo, hi)
}

/// The change points: a red dashed line between the two experiments each
/// falls between, from `top` to `bottom`, labelled with its size.
fn changes(
    svg: &mut Svg,
    b: &Benchmark,
    x: &dyn Fn(usize) -> f64,
    (top, bottom): (f64, f64),
    scale: &Scale,
) {
    svg.group("changes", "");
    for c in &b.changes {
        let cx = (x(c.before) + x(c.after)) / 2.0;
        svg.line(
            cx,
            top,
            cx,
            bottom,
            " stroke=\"#b00020\" stroke-dasharray=\"4 3\"",
        );
        svg.text(
            cx + 3.0,
            top - 8.0,
            Anchor::Start,
            " fill=\"#b00020\"",
            &size_text(c.size.as_ref(), scale),
        );
    }
    svg.end();
}

/// The series as an SVG figure: x the experiments in commit order, y the
/// metric; intervals as vertical bars, medians as dots, change points as
/// red vertical lines labelled with their size, commits under the axis.
fn figure(b: &Benchmark, index: usize, scale: &Scale) -> String {
    let n = b.points.len();
    let (left, right, top, bottom) = (70.0, 20.0, 30.0, 90.0);
    let width = (left + right + 14.0 * n as f64).clamp(480.0, 4000.0);
    let height = 320.0;
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let (lo, hi) = value_range(b);
    let x = |i: usize| left + plot_w * (i as f64 + 0.5) / n.max(1) as f64;
    let y = |v: f64| top + plot_h * (1.0 - (v - lo) / (hi - lo));
    let title = format!("{} · {} over {} experiments", b.command, b.metric_name(), n);
    let mut svg = Svg::new(
        &format!("history-{index}"),
        width,
        height,
        &title,
        "Each experiment's median with its interval, in commit order; red lines mark change points.",
    );
    svg.group("axes", "");
    svg.line(left, top, left, top + plot_h, " stroke=\"#444\"");
    svg.line(
        left,
        top + plot_h,
        left + plot_w,
        top + plot_h,
        " stroke=\"#444\"",
    );
    for t in 0..=4 {
        let v = lo + (hi - lo) * f64::from(t) / 4.0;
        svg.line(left - 4.0, y(v), left, y(v), " stroke=\"#444\"");
        svg.text(left - 6.0, y(v) + 4.0, Anchor::End, "", &scale.number(v));
    }
    svg.vertical_text(
        16.0,
        top + plot_h / 2.0,
        "",
        &format!("{} ({})", b.metric_name(), scale.symbol()),
    );
    // At most about 60 commit labels, evenly spaced.
    let every = n.div_ceil(60).max(1);
    for i in (0..n).step_by(every) {
        let label = short(b.points[i].experiment.commit.as_deref());
        let (tx, ty) = (x(i), top + plot_h + 8.0);
        svg.text(
            tx,
            ty,
            Anchor::End,
            &format!(
                " transform=\"rotate(-60 {} {})\" font-size=\"10\" font-family=\"monospace\"",
                num(tx),
                num(ty)
            ),
            &label,
        );
    }
    svg.end();
    changes(&mut svg, b, &x, (top, top + plot_h), scale);
    svg.group("points", "");
    let mut bars = PathData::new();
    for (i, p) in b.points.iter().enumerate() {
        bars.move_to(x(i), y(p.ci_low)).line_to(x(i), y(p.ci_high));
    }
    svg.path(
        &bars,
        " stroke=\"#3366aa\" stroke-width=\"2\" fill=\"none\"",
    );
    for (i, p) in b.points.iter().enumerate() {
        svg.circle(x(i), y(p.median), 3.0, " fill=\"#223355\"");
    }
    svg.end();
    svg.finish()
}

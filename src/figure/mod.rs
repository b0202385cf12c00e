//! Figures: standalone SVG pictures of an experiment, for `--export-html`
//! and `--export-svg`.
//!
//! Four figures show the metric of interest (the one the ranking compares,
//! total CPU time by default) of every command:
//!
//! * [`distribution`]: every command's distribution on one value axis, as
//!   a violin (a binned density) with its box (quartiles), whiskers (min to
//!   max) and median;
//! * [`ecdf`]: the empirical CDFs overlaid on the same value axis;
//! * [`progression`]: every run against its position in the execution
//!   order, coloured by command, failed and timed-out runs marked, so that
//!   warm-up, drift and interference can be seen;
//! * [`ranking`]: each command's difference from the reference with its
//!   confidence interval, the practical-effect band shaded.
//!
//! Like the renderers of `report` and `export`, this module is pure: it
//! takes a finished [`Analysis`] and produces text, computing nothing but
//! what drawing needs (bins, pixel envelopes, the sorted values of the
//! ECDF). It uses a small SVG writer of its own ([`svg`]) rather than a
//! plotting crate; `docs/reports.md` ("Figures") says why.
//!
//! Common to every figure: a `<title>` and `<desc>`, a visible title, axis
//! labels with units, a legend, the Okabe–Ito palette (distinguishable
//! with the common colour-vision deficiencies; past eight commands colours
//! repeat and lines change dash pattern), and no `NaN`/`inf` anywhere,
//! whatever the data (all-zero times, a single run, zeros on a log axis).
//! Size does not grow with the number of runs beyond what a pixel can
//! show: a million runs draw as per-pixel envelopes and binned densities.

pub mod axis;
pub mod distribution;
pub mod ecdf;
mod input;
pub mod progression;
pub mod ranking;
pub mod svg;

use std::io::{self, Write};

use crate::analysis::Analysis;
pub use input::{Input, Series, Status};
use svg::{Anchor, PathData, Svg};

/// One figure of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    Distribution,
    Ecdf,
    Progression,
    Ranking,
}

impl Figure {
    /// Every figure, in the order the HTML page shows them.
    pub const ALL: [Figure; 4] = [
        Figure::Distribution,
        Figure::Ecdf,
        Figure::Progression,
        Figure::Ranking,
    ];

    /// The file stem used by `--export-svg` and the element id in the page.
    pub fn name(self) -> &'static str {
        match self {
            Figure::Distribution => "distribution",
            Figure::Ecdf => "ecdf",
            Figure::Progression => "progression",
            Figure::Ranking => "ranking",
        }
    }

    /// Draws this figure from prepared input.
    pub fn render(self, input: &Input<'_>) -> String {
        match self {
            Figure::Distribution => distribution::render(input),
            Figure::Ecdf => ecdf::render(input),
            Figure::Progression => progression::render(input),
            Figure::Ranking => ranking::render(input),
        }
    }
}

/// Writes one figure of `analysis` as a standalone SVG document.
pub fn write(figure: Figure, analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    figure.write(&Input::new(analysis), out)
}

impl Figure {
    /// Writes this figure as a standalone SVG document (an XML declaration,
    /// then the `<svg>` element), from input prepared once for several
    /// figures.
    pub fn write(self, input: &Input<'_>, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
        out.write_all(self.render(input).as_bytes())?;
        out.flush()
    }
}

/// Okabe & Ito's colour-blind-safe palette, yellow last (weak on white).
pub const PALETTE: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442",
];

/// The colour of command `i` (input order).
pub fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// A dash pattern that tells apart commands sharing a colour (past eight).
pub fn dash(i: usize) -> &'static str {
    match (i / PALETTE.len()) % 3 {
        0 => "",
        1 => " stroke-dasharray=\"6 3\"",
        _ => " stroke-dasharray=\"2 2\"",
    }
}

/// The marker shape of command `i`: a circle for the first eight, then a
/// square, then a triangle (and again), so that commands sharing a colour
/// past eight are still told apart where their points mix (the runs
/// figure) and in every legend.
pub fn shape(i: usize) -> Shape {
    match (i / PALETTE.len()) % 3 {
        0 => Shape::Circle,
        1 => Shape::Square,
        _ => Shape::Triangle,
    }
}

/// A point marker's shape ([`shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Square,
    Triangle,
}

/// Draws a marker of `shape` centred on (x, y), `r` its half-size.
pub fn marker(svg: &mut Svg, shape: Shape, x: f64, y: f64, r: f64, extra: &str) {
    match shape {
        Shape::Circle => svg.circle(x, y, r, extra),
        Shape::Square => svg.rect(x - r, y - r, 2.0 * r, 2.0 * r, extra),
        Shape::Triangle => {
            let mut d = PathData::new();
            d.move_to(x, y - 1.2 * r)
                .line_to(x + 1.1 * r, y + 0.8 * r)
                .line_to(x - 1.1 * r, y + 0.8 * r)
                .close();
            svg.path(&d, extra);
        }
    }
}

/// Figure width in px.
pub const WIDTH: f64 = 760.0;
/// Left edge of the plot area (room for tick labels and the y label).
pub const LEFT: f64 = 72.0;
/// Right margin.
pub const RIGHT: f64 = 24.0;
/// Top of the plot area (below the title).
pub const TOP: f64 = 44.0;

/// Rough width of a text in px at 12 px sans-serif (for layout only).
pub fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * 6.6
}

/// A label cut to at most `max` characters, with `…` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// `1 command`, `2 commands`.
pub(crate) fn commands(n: usize) -> String {
    if n == 1 {
        "1 command".to_owned()
    } else {
        format!("{n} commands")
    }
}

/// The figure's visible title.
fn title(svg: &mut Svg, text: &str) {
    svg.text(
        WIDTH / 2.0,
        24.0,
        Anchor::Middle,
        " class=\"title\" font-size=\"15\" font-weight=\"bold\"",
        text,
    );
}

/// A horizontal value axis along `y` (the bottom of the plot area), with
/// ticks, tick labels in `divisor` units, grid lines up to `grid_top`, and
/// the axis label below.
fn x_axis(svg: &mut Svg, a: &axis::Axis, y: f64, grid_top: f64, divisor: f64, label: &str) {
    svg.group("axis x", "");
    for t in a.ticks() {
        let x = a.px(t);
        svg.line(x, grid_top, x, y, " stroke=\"#e4e4e4\"");
        svg.line(x, y, x, y + 5.0, " stroke=\"#333\"");
        svg.text(
            x,
            y + 18.0,
            Anchor::Middle,
            " class=\"tick\"",
            &axis::tick_label(t / divisor),
        );
    }
    svg.line(a.px_lo, y, a.px_hi, y, " stroke=\"#333\"");
    svg.text(
        (a.px_lo + a.px_hi) / 2.0,
        y + 38.0,
        Anchor::Middle,
        " class=\"label\"",
        label,
    );
    svg.end();
}

/// A vertical value axis along `x` (the left of the plot area).
fn y_axis(svg: &mut Svg, a: &axis::Axis, x: f64, grid_right: f64, divisor: f64, label: &str) {
    svg.group("axis y", "");
    for t in a.ticks() {
        let y = a.px(t);
        svg.line(x, y, grid_right, y, " stroke=\"#e4e4e4\"");
        svg.line(x - 5.0, y, x, y, " stroke=\"#333\"");
        svg.text(
            x - 8.0,
            y + 4.0,
            Anchor::End,
            " class=\"tick\"",
            &axis::tick_label(t / divisor),
        );
    }
    svg.line(x, a.px_lo, x, a.px_hi, " stroke=\"#333\"");
    svg.vertical_text(16.0, (a.px_lo + a.px_hi) / 2.0, " class=\"label\"", label);
    svg.end();
}

/// What a legend entry's swatch looks like.
#[derive(Clone, Copy, Debug)]
pub enum Swatch {
    /// A filled square in a colour.
    Fill(&'static str),
    /// A point marker in a colour and shape.
    Marker(&'static str, Shape),
    /// A line in a colour with a dash pattern attribute.
    Line(&'static str, &'static str),
    /// The failed-run marker.
    Failed,
    /// The timed-out-run marker.
    TimedOut,
    /// A shaded band.
    Band,
    /// A darker shaded band.
    DarkBand,
}

/// One legend entry.
pub struct LegendEntry {
    pub swatch: Swatch,
    pub text: String,
}

/// Height the legend will take for `entries` (to size the figure first).
fn legend_height(entries: &[LegendEntry]) -> f64 {
    legend_rows(entries).len() as f64 * 18.0 + 8.0
}

fn legend_rows(entries: &[LegendEntry]) -> Vec<Vec<(usize, f64)>> {
    let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new()];
    let mut x = LEFT;
    for (i, e) in entries.iter().enumerate() {
        let w = 22.0 + text_width(&e.text) + 18.0;
        if x + w > WIDTH - RIGHT && x > LEFT {
            rows.push(Vec::new());
            x = LEFT;
        }
        if let Some(row) = rows.last_mut() {
            row.push((i, x));
        }
        x += w;
    }
    rows
}

/// Draws a legend whose first row is centred on `y`.
fn legend(svg: &mut Svg, entries: &[LegendEntry], y: f64) {
    svg.group("legend", "");
    for (r, row) in legend_rows(entries).iter().enumerate() {
        let y = y + r as f64 * 18.0;
        for &(i, x) in row {
            let e = &entries[i];
            svg.group("entry", "");
            match e.swatch {
                Swatch::Fill(c) => svg.rect(
                    x,
                    y - 6.0,
                    14.0,
                    12.0,
                    &format!(" fill=\"{c}\" fill-opacity=\"0.6\" stroke=\"{c}\""),
                ),
                Swatch::Marker(c, shape) => marker(
                    svg,
                    shape,
                    x + 7.0,
                    y,
                    4.5,
                    &format!(" fill=\"{c}\" stroke=\"#000000\""),
                ),
                Swatch::Line(c, dash) => svg.line(
                    x,
                    y,
                    x + 16.0,
                    y,
                    &format!(" stroke=\"{c}\" stroke-width=\"2\"{dash}"),
                ),
                Swatch::Failed => failed_marker(svg, x + 7.0, y, "#000000"),
                Swatch::TimedOut => timed_out_marker(svg, x + 7.0, y, "#000000"),
                Swatch::Band => svg.rect(x, y - 6.0, 14.0, 12.0, " fill=\"#dddddd\""),
                Swatch::DarkBand => svg.rect(x, y - 6.0, 14.0, 12.0, " fill=\"#bbbbbb\""),
            }
            svg.text(x + 22.0, y + 4.0, Anchor::Start, "", &e.text);
            svg.end();
        }
    }
    svg.end();
}

/// Legend entries naming every command in its colour.
fn command_entries(input: &Input<'_>, line: bool) -> Vec<LegendEntry> {
    input
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry {
            swatch: if line {
                Swatch::Line(colour(i), dash(i))
            } else if input.series.len() > PALETTE.len() {
                Swatch::Marker(colour(i), shape(i))
            } else {
                Swatch::Fill(colour(i))
            },
            text: format!("{}: {}", i + 1, shorten(&s.label, 48)),
        })
        .collect()
}

/// An × marking a failed run.
fn failed_marker(svg: &mut Svg, x: f64, y: f64, colour: &str) {
    let mut d = svg::PathData::new();
    d.move_to(x - 4.0, y - 4.0)
        .line_to(x + 4.0, y + 4.0)
        .move_to(x - 4.0, y + 4.0)
        .line_to(x + 4.0, y - 4.0);
    svg.path(
        &d,
        &format!(" class=\"failed\" stroke=\"{colour}\" stroke-width=\"2\" fill=\"none\""),
    );
}

/// A hollow triangle marking a timed-out run.
fn timed_out_marker(svg: &mut Svg, x: f64, y: f64, colour: &str) {
    let mut d = svg::PathData::new();
    d.move_to(x, y - 5.0)
        .line_to(x + 5.0, y + 4.0)
        .line_to(x - 5.0, y + 4.0)
        .close();
    svg.path(
        &d,
        &format!(" class=\"timed-out\" stroke=\"{colour}\" stroke-width=\"1.5\" fill=\"none\""),
    );
}

/// A note line under a figure (e.g. zeros drawn at a log axis's floor).
fn note(svg: &mut Svg, y: f64, text: &str) {
    svg.text(
        LEFT,
        y,
        Anchor::Start,
        " class=\"note\" fill=\"#555555\" font-size=\"11\"",
        text,
    );
}

#[cfg(test)]
pub(crate) mod tests;

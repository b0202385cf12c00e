//! Every run against its position in the execution order, coloured by
//! command, failed and timed-out runs marked: warm-up, drift and
//! interference show as trends, steps and bursts.
//!
//! Up to [`POINTS_LIMIT`] runs, each run is a dot (or its marker). Beyond,
//! each command is drawn as a per-pixel envelope: in each pixel column, one
//! vertical stroke from the smallest to the largest value of the runs that
//! fall in it, so a million runs cost no more than the plot's width; failed
//! and timed-out runs are still marked, one marker per 6-px cell they
//! occupy. The value axis is logarithmic when the values span more than a
//! decade.

use std::collections::HashSet;

use super::axis::{Axis, Extent};
use super::svg::{PathData, Svg};
use super::{
    colour, command_entries, failed_marker, legend, legend_height, note, timed_out_marker,
};
use super::{title, x_axis, y_axis, Input, LegendEntry, Status, Swatch, LEFT, RIGHT, TOP, WIDTH};

/// Most runs drawn one by one.
pub const POINTS_LIMIT: usize = 3000;
/// Height of the plot area.
const PLOT: f64 = 300.0;
/// Side of the cells in which failed runs are marked once, in envelope mode.
const CELL: f64 = 6.0;

/// Draws the figure.
pub fn render(input: &Input<'_>) -> String {
    let mut entries = command_entries(input, false);
    let count = |st: Status| {
        input
            .series
            .iter()
            .map(|s| s.status.iter().filter(|&&x| x == st).count())
            .sum::<usize>()
    };
    let (failed, timed_out) = (count(Status::Failed), count(Status::TimedOut));
    entries.push(LegendEntry {
        swatch: Swatch::Failed,
        text: format!("failed run ({failed})"),
    });
    entries.push(LegendEntry {
        swatch: Swatch::TimedOut,
        text: format!("timed out ({timed_out})"),
    });
    let bottom = TOP + PLOT;
    let height = bottom + 92.0 + legend_height(&entries);

    let (x, y) = axes(input, bottom);

    let heading = format!("{} of every run in execution order", input.metric.label());
    let runs = input.runs();
    let envelope = runs > POINTS_LIMIT;
    let mut svg = Svg::new(
        "progression",
        WIDTH,
        height,
        &heading,
        &format!(
            "{} of each of {runs} runs against its position in the execution order, \
             coloured by command; {failed} failed and {timed_out} timed-out runs marked.",
            input.metric.label()
        ),
    );
    title(&mut svg, &heading);
    let x_label = if input.global_order {
        "Run number in the experiment (execution order)"
    } else {
        "Run number of the command (the data has no global sequence numbers)"
    };
    x_axis(&mut svg, &x, bottom, TOP, 1.0, x_label);
    y_axis(
        &mut svg,
        &y,
        LEFT,
        WIDTH - RIGHT,
        input.scale.divisor(),
        &input.value_label(),
    );

    // Dots as wide as the runs are apart (2.5 px at most, 1.25 at least)
    // and see-through, so that where the runs of several commands lie at
    // the same level and close in time, each still shows.
    let spacing = (x.px_hi - x.px_lo).abs() / runs.max(1) as f64;
    let radius = (spacing * 0.5).clamp(1.25, 2.5);
    for (i, s) in input.series.iter().enumerate() {
        let c = colour(i);
        svg.group("command", &format!(" data-command=\"{}\"", i + 1));
        if envelope {
            draw_envelope(&mut svg, s, &x, &y, c);
        } else {
            draw_points(&mut svg, s, (&x, &y), super::shape(i), radius, c);
        }
        svg.end();
    }

    let mut at = bottom + 56.0;
    if envelope {
        note(
            &mut svg,
            at,
            &format!(
                "{runs} runs: each pixel column shows the range (min to max) of the runs that fall in it."
            ),
        );
        at += 14.0;
    }
    if y.clamped() {
        note(
            &mut svg,
            at,
            "Logarithmic axis: values below its lower end (such as zeros) are drawn at the lower end.",
        );
        at += 14.0;
    }
    legend(&mut svg, &entries, at + 8.0);
    svg.finish()
}

/// The run-number axis from 0, and the value axis over every value (and
/// the lowest positive one, which a logarithmic axis starts at).
fn axes(input: &Input<'_>, bottom: f64) -> (Axis, Axis) {
    let mut xe = Extent::default();
    let mut ye = Extent::default();
    for s in &input.series {
        if let (Some(&lo), Some(&hi)) = (s.sorted.first(), s.sorted.last()) {
            ye.add(lo);
            ye.add(hi);
            let first_positive = s.sorted.partition_point(|&v| v <= 0.0);
            if let Some(&p) = s.sorted.get(first_positive) {
                ye.add(p);
            }
        }
        xe.extend(s.positions.iter().map(|&p| p as f64));
    }
    xe.add(0.0);
    let x = Axis::fit(&xe, false, LEFT, WIDTH - RIGHT);
    let y = Axis::fit(&ye, true, bottom, TOP);
    (x, y)
}

/// One command's runs one by one: a dot in the command's shape, failed and
/// timed-out runs as their markers.
fn draw_points(
    svg: &mut Svg,
    s: &super::Series,
    (x, y): (&Axis, &Axis),
    shape: super::Shape,
    radius: f64,
    c: &str,
) {
    for ((&v, &p), &st) in s.values.iter().zip(&s.positions).zip(&s.status) {
        let (px, py) = (x.px(p as f64), y.px(v));
        match st {
            Status::Ok => super::marker(
                svg,
                shape,
                px,
                py,
                radius,
                &format!(" class=\"run\" fill=\"{c}\" fill-opacity=\"0.6\""),
            ),
            Status::Failed => failed_marker(svg, px, py, c),
            Status::TimedOut => timed_out_marker(svg, px, py, c),
        }
    }
}

/// One command as per-pixel-column envelopes, failed runs as markers.
fn draw_envelope(svg: &mut Svg, s: &super::Series, x: &Axis, y: &Axis, c: &str) {
    let columns = ((x.px_hi - x.px_lo).abs().ceil() as usize) + 1;
    let mut lo = vec![f64::INFINITY; columns];
    let mut hi = vec![f64::NEG_INFINITY; columns];
    let mut marked: HashSet<(Status, i64, i64)> = HashSet::new();
    let mut marks = Vec::new();
    for ((&v, &p), &st) in s.values.iter().zip(&s.positions).zip(&s.status) {
        let (px, py) = (x.px(p as f64), y.px(v));
        if st == Status::Ok {
            let col = ((px - x.px_lo).max(0.0) as usize).min(columns - 1);
            lo[col] = lo[col].min(py);
            hi[col] = hi[col].max(py);
        } else {
            let cell = ((px / CELL).floor() as i64, (py / CELL).floor() as i64);
            if marked.insert((st, cell.0, cell.1)) {
                marks.push((st, px, py));
            }
        }
    }
    let mut d = PathData::new();
    for col in 0..columns {
        if lo[col] <= hi[col] {
            let px = x.px_lo + col as f64 + 0.5;
            // A single value still gets a visible 1-px stroke.
            let bottom = if hi[col] - lo[col] < 1.0 {
                lo[col] + 1.0
            } else {
                hi[col]
            };
            d.move_to(px, lo[col]).vertical_to(bottom);
        }
    }
    svg.path(
        &d,
        &format!(" class=\"envelope\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1\""),
    );
    for (st, px, py) in marks {
        match st {
            Status::TimedOut => timed_out_marker(svg, px, py, c),
            _ => failed_marker(svg, px, py, c),
        }
    }
}

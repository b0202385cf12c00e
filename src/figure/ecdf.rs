//! The empirical CDFs of every command, overlaid on one value axis (the
//! same axis as the distribution figure: logarithmic when the data spans
//! more than a decade).
//!
//! Each curve is a step function through the sorted values. Steps that
//! fall in the same half pixel are merged into one vertical segment, so a
//! curve has at most about twice as many points as the plot is wide,
//! whatever the number of runs; the height reached at every merged step is
//! exact.

use super::axis::Axis;
use super::distribution::value_extent;
use super::svg::{PathData, Svg};
use super::{colour, command_entries, dash, legend, legend_height, note, title, x_axis, y_axis};
use super::{Input, LEFT, RIGHT, TOP, WIDTH};

/// Height of the plot area.
const PLOT: f64 = 300.0;

/// The step path of one ECDF.
fn curve(sorted: &[f64], x: &Axis, y: &Axis) -> PathData {
    let mut p = PathData::new();
    let n = sorted.len();
    if n == 0 {
        return p;
    }
    let half_px = |v: f64| (x.px(v) * 2.0).round() / 2.0;
    p.move_to(x.px_lo, y.px(0.0));
    let mut i = 0;
    while i < n {
        let at = half_px(sorted[i]);
        let mut j = i + 1;
        while j < n && half_px(sorted[j]) == at {
            j += 1;
        }
        p.horizontal_to(at).vertical_to(y.px(j as f64 / n as f64));
        i = j;
    }
    p.horizontal_to(x.px_hi);
    p
}

/// Draws the figure.
pub fn render(input: &Input<'_>) -> String {
    let entries = command_entries(input, true);
    let bottom = TOP + PLOT;
    let height = bottom + 92.0 + legend_height(&entries);
    let x = Axis::fit(&value_extent(input), true, LEFT, WIDTH - RIGHT);
    let y = Axis::exact(0.0, 1.0, bottom, TOP);
    let metric = input.metric_name();
    let heading = format!("Cumulative distribution of {metric}");
    let mut svg = Svg::new(
        "ecdf",
        WIDTH,
        height,
        &heading,
        &format!(
            "Empirical cumulative distribution functions of {metric} of {}, overlaid.",
            super::commands(input.series.len())
        ),
    );
    title(&mut svg, &heading);
    x_axis(
        &mut svg,
        &x,
        bottom,
        TOP,
        input.scale.divisor(),
        &input.value_label(),
    );
    y_axis(
        &mut svg,
        &y,
        LEFT,
        WIDTH - RIGHT,
        1.0,
        "Fraction of runs ≤ value",
    );
    for (i, s) in input.series.iter().enumerate() {
        svg.group("command", &format!(" data-command=\"{}\"", i + 1));
        svg.path(
            &curve(&s.sorted, &x, &y),
            &format!(
                " class=\"ecdf\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}",
                colour(i),
                dash(i)
            ),
        );
        svg.end();
    }
    let mut at = bottom + 56.0;
    if x.clamped() {
        note(
            &mut svg,
            at,
            "Logarithmic axis: values below its left end (such as zeros) are drawn at the left end.",
        );
        at += 14.0;
    } else if x.log {
        note(
            &mut svg,
            at,
            "Logarithmic axis: the values span more than a decade.",
        );
        at += 14.0;
    }
    legend(&mut svg, &entries, at + 8.0);
    svg.finish()
}

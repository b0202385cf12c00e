//! Every command's distribution on one value axis: a violin drawn from a
//! binned, Gaussian-smoothed density, the box (quartiles), whiskers (min to
//! max) and the median.
//!
//! The density is computed in pixel space (bins of 2 px along the axis, so
//! on a log axis the bins are logarithmic), which costs O(n) per command
//! and keeps the figure's size independent of the number of runs. The
//! bandwidth is Silverman's rule on the pixel positions, at least 1.5 px.
//! Each violin is scaled to its own peak: shapes are comparable, areas are
//! not. The quartiles and median are the analysis's own (the same numbers
//! as the terminal report), not recomputed from the bins.

use super::axis::{Axis, Extent};
use super::svg::{Anchor, PathData, Svg};
use super::{colour, command_entries, legend, legend_height, note, title, x_axis, Input};
use super::{LEFT, RIGHT, TOP, WIDTH};

/// Height of one command's band.
const BAND: f64 = 62.0;
/// Largest half-height of a violin.
const HALF: f64 = 18.0;
/// Bin width in px.
const BIN: f64 = 2.0;

/// The extent of all values of every command.
pub(crate) fn value_extent(input: &Input<'_>) -> Extent {
    let mut e = Extent::default();
    for s in &input.series {
        if let (Some(&lo), Some(&hi)) = (s.sorted.first(), s.sorted.last()) {
            e.add(lo);
            e.add(hi);
            let first_positive = s.sorted.partition_point(|&v| v <= 0.0);
            if let Some(&p) = s.sorted.get(first_positive) {
                e.add(p);
            }
        }
    }
    e
}

/// The density of `values` along `axis`: one value per bin of [`BIN`] px,
/// scaled so that the largest is 1 (all zeros for no values).
pub(crate) fn density(values: &[f64], axis: &Axis) -> Vec<f64> {
    let span = (axis.px_hi - axis.px_lo).abs();
    let bins = ((span / BIN).ceil() as usize).max(1);
    let mut counts = vec![0.0f64; bins];
    let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
    for &v in values {
        let p = (axis.px(v) - axis.px_lo).abs();
        sum += p;
        sum_sq += p * p;
        let b = ((p / BIN) as usize).min(bins - 1);
        counts[b] += 1.0;
    }
    let n = values.len() as f64;
    if values.is_empty() {
        return counts;
    }
    let mean = sum / n;
    let sd = (sum_sq / n - mean * mean).max(0.0).sqrt();
    let h_px = (1.06 * sd * n.powf(-0.2)).max(1.5);
    let h = h_px / BIN;
    let reach = (3.0 * h).ceil() as isize;
    let kernel: Vec<f64> = (-reach..=reach)
        .map(|k| (-0.5 * (k as f64 / h).powi(2)).exp())
        .collect();
    let mut smooth = vec![0.0f64; bins];
    for (b, &c) in counts.iter().enumerate() {
        if c == 0.0 {
            continue;
        }
        for (j, w) in kernel.iter().enumerate() {
            let t = b as isize + j as isize - reach;
            if t >= 0 && (t as usize) < bins {
                smooth[t as usize] += c * w;
            }
        }
    }
    let peak = smooth.iter().cloned().fold(0.0, f64::max);
    if peak > 0.0 && peak.is_finite() {
        for d in &mut smooth {
            *d /= peak;
        }
    }
    smooth
}

/// The violin: the smoothed density of `values` above and below `mid`.
fn violin(svg: &mut Svg, axis: &Axis, values: &[f64], mid: f64, c: &str) {
    let d = density(values, axis);
    let first = d.iter().position(|&v| v > 1e-3);
    let last = d.iter().rposition(|&v| v > 1e-3);
    if let (Some(first), Some(last)) = (first, last) {
        let x = |b: usize| axis.px_lo + (b as f64 + 0.5) * BIN;
        let mut p = PathData::new();
        p.move_to(x(first), mid);
        for (b, v) in d.iter().enumerate().take(last + 1).skip(first) {
            p.line_to(x(b), mid - v * HALF);
        }
        p.line_to(x(last), mid);
        for b in (first..=last).rev() {
            p.line_to(x(b), mid + d[b] * HALF);
        }
        p.close();
        svg.path(
            &p,
            &format!(" class=\"violin\" fill=\"{c}\" fill-opacity=\"0.35\" stroke=\"{c}\""),
        );
    }
}

/// The whiskers (min to max), the box (quartiles) and the median bar.
fn box_and_median(svg: &mut Svg, axis: &Axis, q: &crate::stats::Quantiles, mid: f64, c: &str) {
    svg.line(
        axis.px(q.min),
        mid,
        axis.px(q.max),
        mid,
        &format!(" class=\"whisker\" stroke=\"{c}\" stroke-width=\"1.5\""),
    );
    let (x1, x3) = (axis.px(q.q1), axis.px(q.q3));
    svg.rect(
        x1,
        mid - 6.0,
        (x3 - x1).max(1.0),
        12.0,
        &format!(" class=\"box\" fill=\"#ffffff\" fill-opacity=\"0.8\" stroke=\"{c}\" stroke-width=\"1.5\""),
    );
    let xm = axis.px(q.median);
    svg.line(
        xm,
        mid - 10.0,
        xm,
        mid + 10.0,
        " class=\"median\" stroke=\"#000000\" stroke-width=\"3\"",
    );
}

/// Draws the figure.
pub fn render(input: &Input<'_>) -> String {
    let n = input.series.len();
    let entries = command_entries(input, false);
    let plot_bottom = TOP + BAND * n.max(1) as f64;
    let axis_y = plot_bottom + 4.0;
    let height = axis_y + 92.0 + legend_height(&entries);
    let extent = value_extent(input);
    let axis = Axis::fit(&extent, true, LEFT, WIDTH - RIGHT);
    let mut svg = Svg::new(
        "distribution",
        WIDTH,
        height,
        &format!("Distribution of {} by command", input.metric_name()),
        &format!(
            "Violin, box and median of {} for each of {} on one {} axis.",
            input.metric_name(),
            super::commands(n),
            if axis.log { "logarithmic" } else { "linear" }
        ),
    );
    title(
        &mut svg,
        &format!("Distribution of {} by command", input.metric_name()),
    );
    x_axis(
        &mut svg,
        &axis,
        axis_y,
        TOP,
        input.scale.divisor(),
        &input.value_label(),
    );
    if n == 0 {
        svg.text(
            WIDTH / 2.0,
            TOP + BAND / 2.0,
            Anchor::Middle,
            " class=\"empty\"",
            "No runs to show",
        );
    }
    let unit = input.scale;
    for (i, s) in input.series.iter().enumerate() {
        let c = colour(i);
        let top = TOP + BAND * i as f64;
        let mid = top + 38.0;
        let Some(summary) = input.analysis.commands[i].metric(input.metric) else {
            continue; // Never ranked without it (see Analysis::new).
        };
        let q = &summary.quantiles;
        let failed = s
            .status
            .iter()
            .filter(|&&st| st != super::Status::Ok)
            .count();
        svg.group("command", &format!(" data-command=\"{}\"", i + 1));
        let mut label = format!(
            "{}: {} — median {}, n = {}",
            i + 1,
            super::shorten(&s.label, 60),
            unit.compact(q.median),
            s.values.len()
        );
        if failed > 0 {
            label.push_str(&format!(", {failed} failed"));
        }
        svg.text(
            LEFT + 4.0,
            top + 14.0,
            Anchor::Start,
            " class=\"row-label\"",
            &label,
        );

        violin(&mut svg, &axis, &s.values, mid, c);
        box_and_median(&mut svg, &axis, q, mid, c);
        svg.end();
    }
    let mut y = axis_y + 56.0;
    note(
        &mut svg,
        y,
        "Violin: smoothed density, each scaled to its own peak. Box: quartiles. Black bar: median. Whiskers: min to max.",
    );
    if axis.clamped() {
        y += 14.0;
        note(
            &mut svg,
            y,
            "Logarithmic axis: values below its left end (such as zeros) are drawn at the left end.",
        );
    } else if axis.log {
        y += 14.0;
        note(
            &mut svg,
            y,
            "Logarithmic axis: the values span more than a decade.",
        );
    }
    legend(&mut svg, &entries, y + 22.0);
    svg.finish()
}

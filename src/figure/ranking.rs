//! The ranking as intervals: each command's difference from the best (the
//! reference) with its confidence interval, on one axis, the
//! practical-effect band (± the `effect` setting) shaded around zero.
//!
//! The difference is the Hodges–Lehmann shift Δ that the ranking tests,
//! shown relative to the best's median (in %) when that median is
//! positive, else in the metric's unit; its interval is the ranking's
//! confidence interval for Δ at the confidence actually achieved. Each row
//! names the ranking's verdict. Nothing is recomputed: every number comes
//! from the [`Ranking`](crate::stats::Ranking).

use super::axis::{self, Axis, Extent};
use super::svg::{Anchor, PathData, Svg};
use super::{colour, legend, legend_height, note, shorten, title, x_axis, Input, LegendEntry};
use super::{Swatch, LEFT, RIGHT, TOP, WIDTH};
use crate::stats::Verdict;

/// Height of one command's row.
const ROW: f64 = 44.0;

/// One row of the figure, in display units.
struct Row {
    /// Input index of the command.
    index: usize,
    /// The difference from the best (0 for the best); None if not compared.
    point: Option<f64>,
    interval: Option<(f64, f64)>,
    verdict: String,
}

/// The verdict as a short phrase.
fn verdict(v: &Verdict) -> String {
    match v {
        Verdict::Best => "best: the reference".to_owned(),
        Verdict::NotCompared { n } => format!("not compared (n = {n})"),
        other => other.word().to_owned(),
    }
}

/// Draws the figure.
pub fn render(input: &Input<'_>) -> String {
    let ranking = &input.analysis.ranking;
    let best_median = ranking.best().map_or(0.0, |b| b.median);
    let relative = best_median > 0.0 && best_median.is_finite();
    // Display value of a difference in µs.
    let show = |d: f64| {
        if relative {
            d / best_median * 100.0
        } else {
            d / input.scale.divisor()
        }
    };
    let rows: Vec<Row> = ranking
        .entries
        .iter()
        .map(|e| {
            let (point, interval) = match (&e.verdict, &e.comparison) {
                (Verdict::Best, _) => (Some(0.0), None),
                (_, Some(c)) => (
                    Some(show(c.shift)),
                    Some((show(c.interval.low), show(c.interval.high))),
                ),
                _ => (None, None),
            };
            Row {
                index: e.index,
                point,
                interval,
                verdict: verdict(&e.verdict),
            }
        })
        .collect();
    let effect = show(ranking.effect);
    let confidence = 100.0 * (1.0 - ranking.settings.alpha);

    let unit = if relative {
        "%".to_owned()
    } else {
        input.scale.symbol().to_owned()
    };
    let mut entries = vec![LegendEntry {
        swatch: Swatch::Band,
        text: format!(
            "practical-effect band (± effect = {})",
            input.scale.compact(ranking.effect)
        ),
    }];
    for r in &rows {
        entries.push(LegendEntry {
            swatch: Swatch::Fill(colour(r.index)),
            text: format!(
                "{}: {}",
                r.index + 1,
                shorten(&input.series[r.index].label, 48)
            ),
        });
    }

    let bottom = TOP + ROW * rows.len().max(1) as f64;
    let height = bottom + 106.0 + legend_height(&entries);
    let mut e = Extent::default();
    e.add(0.0);
    e.add(-effect);
    e.add(effect);
    for r in &rows {
        e.extend(r.point);
        if let Some((lo, hi)) = r.interval {
            e.add(lo);
            e.add(hi);
        }
    }
    let axis = Axis::fit(&e, false, LEFT, WIDTH - RIGHT);
    let metric = input.metric_name();
    let heading = format!("Ranking: difference in {metric} from the best");
    let mut svg = Svg::new(
        "ranking",
        WIDTH,
        height,
        &heading,
        &format!(
            "For each command, the Hodges–Lehmann shift of {metric} from the best command, \
             with its {}% confidence interval, and the ranking's verdict.",
            axis::tick_label_pct(confidence)
        ),
    );
    title(&mut svg, &heading);
    let label = if relative {
        format!("Difference from the best's median {metric} (%)")
    } else {
        format!("Difference from the best in {metric} ({unit})")
    };
    // The band first, under everything.
    let (b0, b1) = (axis.px(-effect), axis.px(effect));
    svg.rect(
        b0,
        TOP,
        (b1 - b0).max(1.0),
        bottom - TOP,
        " class=\"effect-band\" fill=\"#dddddd\" fill-opacity=\"0.7\"",
    );
    x_axis(&mut svg, &axis, bottom, TOP, 1.0, &label);
    let zero = axis.px(0.0);
    svg.line(
        zero,
        TOP,
        zero,
        bottom,
        " class=\"reference\" stroke=\"#000000\" stroke-width=\"1.5\"",
    );
    for (k, r) in rows.iter().enumerate() {
        let c = colour(r.index);
        let top = TOP + ROW * k as f64;
        let mid = top + 30.0;
        svg.group("command", &format!(" data-command=\"{}\"", r.index + 1));
        svg.text(
            LEFT + 4.0,
            top + 13.0,
            Anchor::Start,
            " class=\"row-label\"",
            &format!(
                "{}: {} — {}",
                r.index + 1,
                shorten(&input.series[r.index].label, 50),
                r.verdict
            ),
        );
        if let Some((lo, hi)) = r.interval {
            let (x0, x1) = (axis.px(lo), axis.px(hi));
            let mut d = PathData::new();
            d.move_to(x0, mid - 5.0)
                .vertical_to(mid + 5.0)
                .move_to(x0, mid)
                .horizontal_to(x1)
                .move_to(x1, mid - 5.0)
                .vertical_to(mid + 5.0);
            svg.path(
                &d,
                &format!(" class=\"interval\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\""),
            );
        }
        match r.point {
            Some(p) if r.interval.is_none() => {
                // The reference: a diamond on zero.
                let x = axis.px(p);
                let mut d = PathData::new();
                d.move_to(x, mid - 6.0)
                    .line_to(x + 6.0, mid)
                    .line_to(x, mid + 6.0)
                    .line_to(x - 6.0, mid)
                    .close();
                svg.path(
                    &d,
                    &format!(" class=\"best\" fill=\"{c}\" stroke=\"#000000\""),
                );
            }
            Some(p) => svg.circle(
                axis.px(p),
                mid,
                4.5,
                &format!(" class=\"shift\" fill=\"{c}\" stroke=\"#000000\""),
            ),
            None => {}
        }
        svg.end();
    }
    let mut at = bottom + 56.0;
    note(
        &mut svg,
        at,
        &format!(
            "Dot: Hodges–Lehmann shift from the best; bar: its {}% confidence interval; diamond: the best.",
            axis::tick_label_pct(confidence)
        ),
    );
    at += 14.0;
    if rows.len() < 2 {
        note(&mut svg, at, "Only one command: nothing to compare.");
    } else if !ranking.inference {
        note(
            &mut svg,
            at,
            "Too few runs for inference: commands are ordered by median only.",
        );
    } else if !relative {
        note(
            &mut svg,
            at,
            "The best's median is 0, so differences are shown in the metric's unit, not in %.",
        );
    }
    legend(&mut svg, &entries, at + 22.0);
    svg.finish()
}

//! The ranking as intervals: each command's difference from the reference
//! (the best, or the `--reference` command) with its confidence interval,
//! on one axis, the practical-effect band (± `effect`) shaded around zero
//! and the equivalence margin (± `epsilon`) shaded darker inside it.
//!
//! The axis is the difference in % of the reference's median, on the same
//! scale as the ranking decides: with a relative `effect` (`-c effect=2%`)
//! the ratio of locations and its interval, as (ratio − 1) × 100; with an
//! absolute one (the default, in µs) the Hodges–Lehmann shift Δ and its
//! interval divided by the reference's median — a constant factor, so an
//! interval is inside or outside a band in the picture exactly when it is
//! for the verdict. When the reference's median is 0 there is no relative
//! scale and Δ is drawn in the metric's unit. Each interval is at the
//! per-comparison confidence the ranking used (Bonferroni), which the
//! figure states. Each row names the ranking's verdict. Nothing is
//! recomputed: every number comes from the [`Ranking`](crate::stats::Ranking).

use super::axis::{self, Axis, Extent};
use super::svg::{Anchor, PathData, Svg};
use super::{colour, legend, legend_height, note, shorten, title, x_axis, Input, LegendEntry};
use super::{Swatch, LEFT, RIGHT, TOP, WIDTH};
use crate::stats::{Scale, Threshold, Verdict};

/// Height of one command's row.
const ROW: f64 = 44.0;
/// The strip at the top of a row that holds its label, kept clear of the
/// bands and the zero line.
const LABEL: f64 = 18.0;

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
fn verdict(v: &Verdict, fixed_reference: bool) -> String {
    match v {
        Verdict::Best if fixed_reference => "the reference".to_owned(),
        Verdict::Best => "best: the reference".to_owned(),
        Verdict::NotCompared { n } => format!("not compared (n = {n})"),
        other => other.word().to_owned(),
    }
}

/// One row per command: its point and interval on the axis, and its
/// verdict.
fn rows_of(
    ranking: &crate::stats::Ranking,
    by_ratio: bool,
    show: &dyn Fn(f64) -> f64,
    ref_median: f64,
) -> Vec<Row> {
    ranking
        .entries
        .iter()
        .map(|e| {
            let (point, interval) = match (&e.verdict, &e.comparison) {
                (Verdict::Best, _) => (Some(0.0), None),
                (_, Some(c)) => {
                    let b = &c.contrast;
                    match b.scale {
                        Scale::Ratio if by_ratio => (
                            Some((b.estimate - 1.0) * 100.0),
                            Some(((b.low - 1.0) * 100.0, (b.high - 1.0) * 100.0)),
                        ),
                        Scale::Ratio => {
                            let d = |r: f64| show((r - 1.0) * ref_median);
                            (Some(d(b.estimate)), Some((d(b.low), d(b.high))))
                        }
                        Scale::Difference => {
                            (Some(show(b.estimate)), Some((show(b.low), show(b.high))))
                        }
                    }
                }
                _ => (None, None),
            };
            Row {
                index: e.index,
                point,
                interval,
                verdict: verdict(&e.verdict, ranking.fixed_reference),
            }
        })
        .collect()
}

/// The effect and equivalence bands, under everything, and the zero
/// line: in each row below its label only, so that no line runs through
/// the text.
fn bands(svg: &mut Svg, axis: &Axis, rows: usize, effect: f64, epsilon: f64) {
    let (b0, b1) = (axis.px(-effect), axis.px(effect));
    let (e0, e1) = (axis.px(-epsilon), axis.px(epsilon));
    let zero = axis.px(0.0);
    for k in 0..rows.max(1) {
        let (y0, y1) = (TOP + ROW * k as f64 + LABEL, TOP + ROW * (k + 1) as f64);
        svg.rect(
            b0,
            y0,
            (b1 - b0).max(1.0),
            y1 - y0,
            " class=\"effect-band\" fill=\"#dddddd\" fill-opacity=\"0.7\"",
        );
        svg.rect(
            e0,
            y0,
            (e1 - e0).max(1.0),
            y1 - y0,
            " class=\"epsilon-band\" fill=\"#bbbbbb\" fill-opacity=\"0.7\"",
        );
        svg.line(
            zero,
            y0,
            zero,
            y1,
            " class=\"reference\" stroke=\"#000000\" stroke-width=\"1.5\"",
        );
    }
}

/// One command's row: its label and verdict, its interval and its point
/// (a diamond for the reference).
fn draw_row(svg: &mut Svg, axis: &Axis, k: usize, r: &Row, label: &str) {
    let c = colour(r.index);
    let top = TOP + ROW * k as f64;
    let mid = top + 30.0;
    svg.group("command", &format!(" data-command=\"{}\"", r.index + 1));
    svg.text(
        LEFT + 4.0,
        top + 13.0,
        Anchor::Start,
        " class=\"row-label\"",
        &format!("{}: {} — {}", r.index + 1, shorten(label, 50), r.verdict),
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
        Some(p) => super::marker(
            svg,
            super::shape(r.index),
            axis.px(p),
            mid,
            4.5,
            &format!(" class=\"shift\" fill=\"{c}\" stroke=\"#000000\""),
        ),
        None => {}
    }
    svg.end();
}

/// The legend: the bands with their thresholds, then one marker per
/// command.
fn legend_entries(input: &Input<'_>, rows: &[Row]) -> Vec<LegendEntry> {
    let ranking = &input.analysis.ranking;
    let settings = &input.analysis.settings;
    let threshold = |t: Threshold, resolved: f64| match t {
        Threshold::Percent(p) => format!("{}%", axis::tick_label(p)),
        Threshold::Absolute(_) => input.scale.compact(resolved),
    };
    let mut entries = vec![
        LegendEntry {
            swatch: Swatch::Band,
            text: format!(
                "practical-effect band (± effect = {})",
                threshold(settings.effect, ranking.effect)
            ),
        },
        LegendEntry {
            swatch: Swatch::DarkBand,
            text: format!(
                "equivalence margin (± epsilon = {})",
                threshold(settings.epsilon, ranking.epsilon)
            ),
        },
    ];
    for r in rows {
        entries.push(LegendEntry {
            swatch: Swatch::Marker(colour(r.index), super::shape(r.index)),
            text: format!(
                "{}: {}",
                r.index + 1,
                shorten(&input.series[r.index].label, 48)
            ),
        });
    }
    entries
}

/// The notes under the axis, from `at`; returns where the legend goes.
#[allow(clippy::too_many_arguments)]
fn notes(
    svg: &mut Svg,
    mut at: f64,
    compared: bool,
    rows: &[Row],
    ranking: &crate::stats::Ranking,
    relative: bool,
    by_ratio: bool,
    level: &str,
    reference_word: &str,
) -> f64 {
    if compared {
        note(
            svg,
            at,
            &format!(
                "Dot: {}; bar: its interval, {level}; diamond: {reference_word}.",
                if by_ratio {
                    "ratio of medians − 1"
                } else {
                    "difference of medians"
                },
            ),
        );
        at += 14.0;
    }
    if rows.len() < 2 {
        note(svg, at, "Only one command: nothing to compare.");
    } else if !ranking.inference {
        note(
            svg,
            at,
            "Too few runs for inference: commands are ordered by median only.",
        );
    } else if !relative {
        note(
            svg,
            at,
            "The reference's median is 0, so differences are shown in the metric's unit, not in %.",
        );
    }
    at
}

/// Draws the figure.
pub fn render(input: &Input<'_>) -> String {
    let ranking = &input.analysis.ranking;
    let settings = &input.analysis.settings;
    let ref_median = ranking.best().map_or(0.0, |b| b.median);
    let relative = ref_median > 0.0 && ref_median.is_finite();
    let by_ratio = relative && matches!(settings.effect, Threshold::Percent(_));
    // A difference in the metric's unit, or a threshold, on the axis.
    let show = |d: f64| {
        if relative {
            d / ref_median * 100.0
        } else {
            d / input.scale.divisor()
        }
    };
    let band = |t: Threshold, resolved: f64| match t {
        Threshold::Percent(p) if relative => p,
        _ => show(resolved),
    };
    let rows = rows_of(ranking, by_ratio, &show, ref_median);
    let effect = band(settings.effect, ranking.effect);
    let epsilon = band(settings.epsilon, ranking.epsilon);
    // The level every report states for these intervals.
    let level = crate::report::units::level(settings.alpha);
    let reference_word = if ranking.fixed_reference {
        "the reference"
    } else {
        "the best"
    };

    let unit = if relative {
        "%".to_owned()
    } else {
        input.scale.symbol().to_owned()
    };
    let entries = legend_entries(input, &rows);

    let bottom = TOP + ROW * rows.len().max(1) as f64;
    let height = bottom + 106.0 + legend_height(&entries);
    let mut e = Extent::default();
    e.add(0.0);
    for b in [effect, epsilon] {
        e.add(-b);
        e.add(b);
    }
    for r in &rows {
        e.extend(r.point);
        if let Some((lo, hi)) = r.interval {
            e.add(lo);
            e.add(hi);
        }
    }
    let axis = Axis::fit(&e, false, LEFT, WIDTH - RIGHT);
    let metric = input.metric_name();
    // Without comparisons there are no bars, and no confidence to name
    // (the level of no interval would read "100%").
    let compared = rows.len() >= 2 && ranking.inference;
    let heading = format!("Ranking: difference in {metric} from {reference_word}");
    let mut svg = Svg::new(
        "ranking",
        WIDTH,
        height,
        &heading,
        &if compared {
            format!(
                "For each command, its difference in {metric} from {reference_word}, \
                 with its interval ({level}), and the ranking's verdict."
            )
        } else {
            format!("The commands in order of their median {metric}; none compared.")
        },
    );
    title(&mut svg, &heading);
    let label = if relative {
        format!("Difference from {reference_word} (% of its median {metric})")
    } else {
        format!("Difference from {reference_word} in {metric} ({unit})")
    };
    bands(&mut svg, &axis, rows.len(), effect, epsilon);
    x_axis(&mut svg, &axis, bottom, TOP, 1.0, &label);
    for (k, r) in rows.iter().enumerate() {
        draw_row(&mut svg, &axis, k, r, &input.series[r.index].label);
    }
    let at = notes(
        &mut svg,
        bottom + 56.0,
        compared,
        &rows,
        ranking,
        relative,
        by_ratio,
        &level,
        reference_word,
    );
    legend(&mut svg, &entries, at + 22.0);
    svg.finish()
}

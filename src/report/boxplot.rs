//! The `-B` box plot: every command's ranked metric (`--metric`; total CPU
//! time by default) on one axis, named in the legend's title.
//!
//! Seeing the boxes side by side shows at a glance which commands overlap,
//! which the ranking then confirms or not. The drawing is C BestGuess's
//! (whiskers `├┄┄┤`, boxes `┤ │ ├` with `┌─┬─┐` above and `└─┴─┘` below,
//! `╢`/`╟` when the median sits on a box edge, a lone `┼` when all runs are
//! equal, an axis with round ticks above and below, a legend),
//! with accurate axis labels:
//!
//! * The axis runs from a round number at or below the fastest run to the
//!   first round number at or above the slowest run, with "nice" ticks (1,
//!   2, 2.5 or 5 × 10ᵏ µs apart, at least 8 columns apart), so every label
//!   is exactly the time at its tick and the data fills the plot. C BestGuess
//!   rounds its labels to whole milliseconds, which makes them wrong for
//!   sub-millisecond data.
//! * The labels' unit (μs, ms or s, from the axis range) is printed after
//!   the last label, and each label has the decimals its tick step needs.
//!   Labels are centred on their ticks.
//! * The plot fills exactly the `width` setting. The command numbers in
//!   front of each box take as many digits as needed, so any number of
//!   commands can be drawn (C BestGuess's `%2d:` assumed fewer than 100).
//! * An axis of zero length (all runs equal, e.g. all 0 µs) is still drawn,
//!   as 0.1 µs per column.
//!
//! Legend labels are shown in full (control characters made spaces): the
//! legend is the only place that names the boxes when the per-command
//! blocks are turned off.

use std::io::{self, Write};

use super::text::{trim_end, width as text_width};
use super::units::Scale;
use crate::analysis::Analysis;
use crate::data::Unit;

/// Fewest columns between two ticks: room for a label and a space.
const MIN_TICK_GAP: usize = 8;

/// Columns kept right of the axis so that the last tick's label and the
/// unit after it fit in the width.
const UNIT_ROOM: usize = 5;

/// The horizontal axis: `columns` columns from `low` to `high` µs, cut
/// into `ticks` intervals of `step` µs.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    low: f64,
    high: f64,
    step: f64,
    /// Number of intervals between ticks (ticks: `ticks + 1`).
    ticks: usize,
    columns: usize,
}

impl Axis {
    /// The axis that spans the data with round ticks: the smallest nice
    /// step (1, 2, 2.5 or 5 × 10ᵏ recording units, k ≥ `finest`) for which the ticks
    /// from the multiple of the step at or below `min` to the first one at
    /// or above `max` are at least [`MIN_TICK_GAP`] columns apart. The
    /// axis ends at that last tick, so at most one step of it lies beyond
    /// the data at either end (C BestGuess, and this function once, kept
    /// a tick every 10 columns and could leave a third of the plot empty).
    fn new(min: f64, max: f64, columns: usize, finest: i32) -> Axis {
        let columns = columns.max(1);
        let most = (columns / MIN_TICK_GAP).max(1);
        for exponent in finest..=120 {
            for mantissa in [1.0, 2.0, 2.5, 5.0] {
                let step = mantissa * 10f64.powi(exponent);
                let low = (min / step).floor() * step;
                let ticks = ((max - low) / step).ceil().max(1.0);
                if ticks <= most as f64 {
                    let ticks = ticks as usize;
                    return Axis {
                        low,
                        high: low + step * ticks as f64,
                        step,
                        ticks,
                        columns,
                    };
                }
            }
        }
        // Only for values beyond 1e120 µs, which no sample holds.
        let span = (max - min).max(1.0);
        Axis {
            low: min,
            high: min + span,
            step: span,
            ticks: 1,
            columns,
        }
    }

    /// Column (0..=columns) of the value `v`.
    fn position(&self, v: f64) -> usize {
        let x = (v - self.low) / (self.high - self.low) * self.columns as f64;
        if x.is_finite() {
            x.round().clamp(0.0, self.columns as f64) as usize
        } else {
            0
        }
    }

    /// Column of tick `i` (0..=ticks).
    fn tick_column(&self, i: usize) -> usize {
        (i * self.columns + self.ticks / 2) / self.ticks.max(1)
    }

    /// The tick labels' scale: unit from the axis range, decimals from the
    /// step (enough to write every tick exactly).
    fn label_scale(&self, unit: Unit) -> Scale {
        let scale = Scale::choose(unit, self.low.abs().max(self.high.abs()));
        let step = self.step / scale.divisor();
        let low = self.low / scale.divisor();
        let exact = |x: f64, d: i32| {
            let scaled = x * 10f64.powi(d);
            (scaled - scaled.round()).abs() <= 1e-6 * scaled.abs().max(1.0)
        };
        let decimals = (0..=6)
            .find(|&d| exact(step, d) && exact(low, d))
            .unwrap_or(6);
        scale.with_decimals(decimals as usize)
    }
}

/// The exponent of the finest step an axis over plain numbers from `min`
/// to `max` may take: three decades below the larger magnitude (never
/// above 1, never below 10⁻⁴⁰).
fn finest_exponent(min: f64, max: f64) -> i32 {
    let largest = min.abs().max(max.abs());
    if largest.is_finite() && largest > 0.0 {
        (largest.log10().floor() as i32 - 3).clamp(-40, 0)
    } else {
        0
    }
}

/// Writes the box plot of every command and its legend in `width` columns.
pub fn write(out: &mut dyn Write, analysis: &Analysis<'_>, width: usize) -> io::Result<()> {
    let count = analysis.commands.len();
    if count == 0 {
        return Ok(());
    }
    // "NN:" in front of each box: at least C BestGuess's three columns.
    let indent = (count.to_string().len() + 1).max(3);
    let columns = width
        .saturating_sub(indent + 1 + UNIT_ROOM)
        .max(MIN_TICK_GAP);
    let metric = analysis.settings.metric;
    let totals: Vec<_> = analysis
        .commands
        .iter()
        .map(|c| c.metric(metric).map(|s| s.quantiles))
        .collect();
    let min = totals
        .iter()
        .flatten()
        .map(|q| q.min)
        .fold(f64::INFINITY, f64::min);
    let max = totals
        .iter()
        .flatten()
        .map(|q| q.max)
        .fold(f64::NEG_INFINITY, f64::max);
    // Integer units (µs, bytes, counts) step by at least 1; a plain
    // number as finely as its size needs (0.001 … 0.002 gets 0.0002).
    let finest = match metric.unit() {
        Unit::Number => finest_exponent(min, max),
        _ => 0,
    };
    let axis = Axis::new(min, max, columns, finest);

    let labels = labels(&axis, indent, metric.unit());
    let rule = rule(&axis, indent);
    writeln!(out, "{labels}")?;
    writeln!(out, "{rule}")?;
    for (i, q) in totals.iter().enumerate() {
        // A command without the metric has no box (its number is kept).
        let Some(q) = q else { continue };
        let pos = |v: f64| indent + axis.position(v);
        let boxes = Marks {
            min: pos(q.min),
            q1: pos(q.q1),
            median: pos(q.median),
            q3: pos(q.q3),
            max: pos(q.max),
        };
        let size = indent + axis.columns + 1;
        let (top, middle, bottom) = boxes.draw(size);
        let mut middle = middle;
        let number: Vec<char> = format!("{:>w$}:", i + 1, w = indent - 1).chars().collect();
        middle[..indent].copy_from_slice(&number[..indent]);
        for line in [top, middle, bottom] {
            let line: String = line.into_iter().collect();
            writeln!(out, "{}", trim_end(&line))?;
        }
    }
    writeln!(out, "{rule}")?;
    writeln!(out, "{labels}")?;
    writeln!(out)?;
    writeln!(out, "Box plot legend ({}):", metric.label())?;
    let digits = count.to_string().len();
    for (i, c) in analysis.dataset.commands.iter().enumerate() {
        writeln!(out, "  {:>digits$}: {}", i + 1, super::label(c))?;
    }
    writeln!(out)
}

/// One box's columns (absolute, indent included).
#[derive(Debug, Clone, Copy)]
struct Marks {
    min: usize,
    q1: usize,
    median: usize,
    q3: usize,
    max: usize,
}

impl Marks {
    /// The three lines of one box, `size` cells each.
    fn draw(&self, size: usize) -> (Vec<char>, Vec<char>, Vec<char>) {
        let mut top = vec![' '; size];
        let mut mid = vec![' '; size];
        let mut bottom = vec![' '; size];
        let Marks {
            min,
            q1,
            median,
            q3,
            max,
        } = *self;
        let set = |line: &mut Vec<char>, at: usize, c: char| {
            if let Some(cell) = line.get_mut(at) {
                *cell = c;
            }
        };
        if q3 > q1 {
            let median_inside = median > q1 && median < q3;
            for at in q1 + 1..q3 {
                set(&mut top, at, '─');
                set(&mut bottom, at, '─');
            }
            if median_inside {
                set(&mut top, median, '┬');
                set(&mut bottom, median, '┴');
                set(&mut mid, median, '│');
            }
            let on_left = median == q1;
            let on_right = median == q3;
            set(&mut top, q1, if on_left { '╓' } else { '┌' });
            set(&mut top, q3, if on_right { '╖' } else { '┐' });
            set(&mut bottom, q1, if on_left { '╙' } else { '└' });
            set(&mut bottom, q3, if on_right { '╜' } else { '┘' });
            set(&mut mid, q1, if on_left { '╢' } else { '┤' });
            set(&mut mid, q3, if on_right { '╟' } else { '├' });
        }
        if min == max {
            set(&mut mid, min, '┼');
            return (top, mid, bottom);
        }
        if q1 > min {
            set(&mut mid, min, '├');
            for at in min + 1..q1 {
                set(&mut mid, at, '┄');
            }
        }
        if q3 == q1 {
            set(&mut mid, q1, '┼');
        }
        if max > q3 {
            for at in q3 + 1..max {
                set(&mut mid, at, '┄');
            }
            set(&mut mid, max, '┤');
        }
        (top, mid, bottom)
    }
}

/// The axis line: `├`, a `┼` at every tick, `┤` at the last.
fn rule(axis: &Axis, indent: usize) -> String {
    let mut cells = vec!['─'; axis.columns + 1];
    for i in 1..axis.ticks {
        cells[axis.tick_column(i)] = '┼';
    }
    cells[0] = '├';
    cells[axis.columns] = '┤';
    let mut line = " ".repeat(indent);
    line.extend(cells);
    line
}

/// The tick labels, each centred on its tick, then the unit. A label that
/// would touch its neighbour is left out, and labels are dropped from the
/// right until the unit fits in the plot's width.
fn labels(axis: &Axis, indent: usize, unit: Unit) -> String {
    let size = indent + axis.columns + 1 + UNIT_ROOM;
    let scale = axis.label_scale(unit);
    let mut placed: Vec<(usize, String)> = Vec::new();
    let mut next_free = 0;
    for i in 0..=axis.ticks {
        let text = scale.number(axis.low + i as f64 * axis.step);
        let len = text_width(&text);
        let tick = indent + axis.tick_column(i);
        let start = tick.saturating_sub((len.saturating_sub(1)) / 2);
        let start = start.min(size.saturating_sub(len));
        if start < next_free || start + len > size {
            continue;
        }
        next_free = start + len + 1;
        placed.push((start, text));
    }
    let unit = scale.symbol();
    loop {
        let end = placed
            .last()
            .map_or(0, |(start, text)| start + text_width(text) + 1);
        if end + text_width(unit) <= size || placed.is_empty() {
            let mut line = String::new();
            let mut column = 0;
            for (start, text) in &placed {
                line.push_str(&" ".repeat(start - column));
                line.push_str(text);
                column = start + text_width(text);
            }
            line.push_str(&" ".repeat(end.saturating_sub(column)));
            line.push_str(unit);
            return line;
        }
        placed.pop();
    }
}

/// The time of the tick `i`, for tests.
#[cfg(test)]
fn tick(axis: &Axis, i: usize) -> String {
    super::units::time(axis.low + i as f64 * axis.step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_starts_at_a_round_number_and_reaches_the_maximum() {
        let a = Axis::new(1234.0, 1300.0, 76, 0);
        assert_eq!((a.low, a.step, a.high, a.ticks), (1230.0, 10.0, 1300.0, 7));
        let a = Axis::new(3000.0, 9500.0, 76, 0);
        assert_eq!((a.low, a.step, a.high), (3000.0, 1000.0, 10000.0));
        assert_eq!(tick(&a, 2), "5.00 ms");
        // Zero-length axis: one tick of 1 µs.
        let a = Axis::new(0.0, 0.0, 76, 0);
        assert_eq!((a.low, a.step, a.high), (0.0, 1.0, 1.0));
    }

    #[test]
    fn the_data_fills_the_axis() {
        // Data ending at 2.65 ms get an axis to 2.8 ms, not 4.0 ms.
        let a = Axis::new(1040.0, 2650.0, 76, 0);
        assert_eq!((a.low, a.high, a.step), (1000.0, 2800.0, 200.0));
        // At most one step beyond the data at either end, at any width.
        for columns in [8, 20, 40, 57, 76, 200, 1000] {
            for (min, max) in [
                (1.0, 7.0),
                (412.0, 1490.0),
                (99_999.0, 100_001.0),
                (0.0, 3e9),
            ] {
                let a = Axis::new(min, max, columns, 0);
                assert!(a.low <= min && a.high >= max, "{a:?}");
                assert!(min - a.low < a.step && a.high - max < a.step, "{a:?}");
                assert!(a.columns / a.ticks >= MIN_TICK_GAP || a.ticks == 1, "{a:?}");
            }
        }
    }

    #[test]
    fn sub_millisecond_labels_are_exact() {
        let a = Axis::new(412.0, 1490.0, 76, 0);
        assert_eq!((a.step, a.ticks), (200.0, 6));
        let s = a.label_scale(Unit::Microseconds);
        assert_eq!(s.symbol(), "ms");
        assert_eq!(s.number(a.low), "0.4");
        assert_eq!(
            labels(&a, 3, Unit::Microseconds),
            "  0.4          0.6         0.8          1.0          1.2         1.4          1.6 ms"
        );
        assert_eq!(
            rule(&a, 3),
            "   ├────────────┼───────────┼────────────┼────────────┼───────────┼────────────┤"
        );
    }

    #[test]
    fn small_plain_numbers_get_a_fine_axis() {
        let finest = finest_exponent(0.001, 0.002);
        assert_eq!(finest, -6);
        let a = Axis::new(0.001, 0.002, 76, finest);
        assert!(a.low <= 0.001 && a.high >= 0.002 && a.ticks > 1, "{a:?}");
        assert!((a.step - 2e-4).abs() < 1e-12, "{a:?}");
        let s = a.label_scale(Unit::Number);
        assert_eq!(
            (s.symbol(), s.number(a.low), s.number(a.high)),
            ("m", "1.0".into(), "2.0".into())
        );
        assert_eq!(finest_exponent(0.0, 0.0), 0);
        assert_eq!(finest_exponent(-5.0, 250.0), -1);
        assert_eq!(finest_exponent(1e3, 5e6), 0);
    }

    #[test]
    fn positions_cover_the_whole_axis() {
        let a = Axis::new(0.0, 76.0, 76, 0);
        assert_eq!((a.step, a.high), (10.0, 80.0));
        assert_eq!(a.position(0.0), 0);
        assert_eq!(a.position(80.0), 76);
        assert_eq!(a.position(40.0), 38);
        assert_eq!(a.position(1e9), 76);
        assert_eq!(a.position(-5.0), 0);
    }

    #[test]
    fn boxes() {
        let draw = |b: Marks| {
            let (t, m, bo) = b.draw(16);
            [t, m, bo].map(|l| l.into_iter().collect::<String>().trim_end().to_owned())
        };
        let b = Marks {
            min: 0,
            q1: 3,
            median: 5,
            q3: 8,
            max: 12,
        };
        assert_eq!(draw(b), ["   ┌─┬──┐", "├┄┄┤ │  ├┄┄┄┤", "   └─┴──┘"]);
        let equal = Marks {
            min: 4,
            q1: 4,
            median: 4,
            q3: 4,
            max: 4,
        };
        assert_eq!(draw(equal), ["", "    ┼", ""]);
        let edge = Marks {
            min: 1,
            q1: 2,
            median: 2,
            q3: 4,
            max: 4,
        };
        assert_eq!(draw(edge), ["  ╓─┐", " ├╢ ├", "  ╙─┘"]);
        let flat = Marks {
            min: 1,
            q1: 3,
            median: 3,
            q3: 3,
            max: 5,
        };
        assert_eq!(draw(flat), ["", " ├┄┼┄┤", ""]);
    }
}

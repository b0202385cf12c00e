//! The `-B` box plot: every command's total CPU time on one axis.
//!
//! Seeing the boxes side by side shows at a glance which commands overlap,
//! which the ranking then confirms or not. The drawing is the reference's
//! (whiskers `├┄┄┤`, boxes `┤ │ ├` with `┌─┬─┐` above and `└─┴─┘` below,
//! `╢`/`╟` when the median sits on a box edge, a lone `┼` when all runs are
//! equal, an axis with a tick every 10 columns above and below, a legend),
//! with accurate axis labels:
//!
//! * The axis runs from a round number at or below the fastest run to at
//!   least the slowest run, with "nice" ticks (1, 2, 2.5 or 5 × 10ᵏ µs
//!   apart), so every label is exactly the time at its tick. The reference
//!   rounded its labels to whole milliseconds, which made them wrong for
//!   sub-millisecond data.
//! * The labels' unit (μs, ms or s, from the axis range) is printed after
//!   the last label, and each label has the decimals its tick step needs.
//!   Labels are centred on their ticks.
//! * The plot fills exactly the `width` setting. The command numbers in
//!   front of each box take as many digits as needed, so any number of
//!   commands can be drawn (the reference's `%2d:` assumed fewer than 100).
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
use crate::data::Metric;

/// Columns between ticks.
const TICK: usize = 10;

/// The horizontal axis: `columns` columns from `low` to `high` µs, with a
/// tick every [`TICK`] columns, `step` µs apart.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    low: f64,
    high: f64,
    step: f64,
    columns: usize,
}

impl Axis {
    /// The smallest nice step (at least 1 µs) whose axis, starting at a
    /// multiple of the step at or below `min`, reaches `max`.
    fn new(min: f64, max: f64, columns: usize) -> Axis {
        let columns = columns.max(1);
        let intervals = columns as f64 / TICK as f64;
        for exponent in 0..=120 {
            for mantissa in [1.0, 2.0, 2.5, 5.0] {
                let step = mantissa * 10f64.powi(exponent);
                let low = (min / step).floor() * step;
                let high = low + step * intervals;
                if high >= max && high > low {
                    return Axis {
                        low,
                        high,
                        step,
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
            step: span / intervals,
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

    /// The tick labels' scale: unit from the axis range, decimals from the
    /// step (enough to write every tick exactly).
    fn label_scale(&self) -> Scale {
        let scale = Scale::time(self.low.abs().max(self.high.abs()));
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

/// Writes the box plot of every command and its legend in `width` columns.
pub fn write(out: &mut dyn Write, analysis: &Analysis<'_>, width: usize) -> io::Result<()> {
    let count = analysis.commands.len();
    if count == 0 {
        return Ok(());
    }
    // "NN:" in front of each box: at least the reference's three columns.
    let indent = (count.to_string().len() + 1).max(3);
    let columns = width.saturating_sub(indent + 1).max(TICK);
    let totals: Vec<_> = analysis
        .commands
        .iter()
        .map(|c| c.metric(Metric::TOTAL).map(|s| s.quantiles))
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
    let axis = Axis::new(min, max, columns);

    let labels = labels(&axis, indent);
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
    writeln!(out, "Box plot legend:")?;
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

/// The axis line: `├`, a `┼` every [`TICK`] columns, `┤` when the last
/// column is a tick.
fn rule(axis: &Axis, indent: usize) -> String {
    let mut line = " ".repeat(indent);
    for j in 0..=axis.columns {
        line.push(if j == 0 {
            '├'
        } else if j % TICK == 0 {
            if j == axis.columns {
                '┤'
            } else {
                '┼'
            }
        } else {
            '─'
        });
    }
    line
}

/// The tick labels, each centred on its tick, then the unit. A label that
/// would touch its neighbour is left out, and labels are dropped from the
/// right until the unit fits in the plot's width.
fn labels(axis: &Axis, indent: usize) -> String {
    let size = indent + axis.columns + 1;
    let scale = axis.label_scale();
    let mut placed: Vec<(usize, String)> = Vec::new();
    let mut next_free = 0;
    for i in 0..=axis.columns / TICK {
        let text = scale.number(axis.low + i as f64 * axis.step);
        let len = text_width(&text);
        let tick = indent + i * TICK;
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
        let a = Axis::new(1234.0, 1300.0, 76);
        assert_eq!((a.low, a.step), (1230.0, 10.0));
        assert!(a.high >= 1300.0);
        let a = Axis::new(3000.0, 9500.0, 76);
        assert_eq!((a.low, a.step), (3000.0, 1000.0));
        assert_eq!(tick(&a, 2), "5.00 ms");
        // Zero-length axis: 1 µs per tick.
        let a = Axis::new(0.0, 0.0, 76);
        assert_eq!((a.low, a.step, a.high), (0.0, 1.0, 7.6));
    }

    #[test]
    fn sub_millisecond_labels_are_exact() {
        let a = Axis::new(412.0, 1490.0, 76);
        assert_eq!(a.step, 200.0);
        let s = a.label_scale();
        assert_eq!(s.symbol(), "ms");
        assert_eq!(s.number(a.low), "0.4");
        assert_eq!(
            labels(&a, 3),
            "  0.4       0.6       0.8       1.0       1.2       1.4       1.6       1.8 ms"
        );
    }

    #[test]
    fn positions_cover_the_whole_axis() {
        let a = Axis::new(0.0, 76.0, 76);
        assert_eq!(a.step, 10.0);
        assert_eq!(a.position(0.0), 0);
        assert_eq!(a.position(76.0), 76);
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

//! The simulated commands: distributions, drift, ticks and order, and
//! one experiment's runs made from them.

use bestguess::data::{Metric, RunRecord};
use bestguess::stats::SplitMix64;

pub(crate) struct Rng(pub(crate) SplitMix64);

impl Rng {
    pub(crate) fn uniform(&mut self) -> f64 {
        // (0, 1]: never 0, so logarithms exist.
        1.0 - self.0.uniform()
    }

    pub(crate) fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// One command's distribution before drift and ticks.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dist {
    /// Lognormal with this median (µs) and σ of the logarithm.
    LogNormal(f64, f64),
    /// Lognormal, with 5 % of the runs 2–10× longer (a heavy right tail).
    Heavy(f64, f64),
    /// 1000, 1100, 1200 or 1300 µs with chances 0.2, 0.35, 0.3, 0.15
    /// (median 1100), times the factor.
    FourValues(f64),
    /// Always this value.
    Constant(f64),
    /// This shift plus an exponential of this mean.
    ShiftedExp(f64, f64),
    /// Lognormal with this median and σ, a quarter of the runs 1.5×
    /// slower (a command that is sometimes slow).
    SometimesSlow(f64, f64),
    /// A median m (an atom of chance 0.505) with nothing just above it:
    /// the rest 3–10 × m.
    GapAbove(f64),
    /// A median m (an atom of chance 0.505) with nothing just below it:
    /// the rest at 0.9–1 × the depth × m.
    GapBelow(f64, f64),
}

impl Dist {
    pub(crate) fn scaled(self, f: f64) -> Dist {
        match self {
            Dist::LogNormal(m, s) => Dist::LogNormal(m * f, s),
            Dist::Heavy(m, s) => Dist::Heavy(m * f, s),
            Dist::FourValues(g) => Dist::FourValues(g * f),
            Dist::Constant(v) => Dist::Constant(v * f),
            Dist::ShiftedExp(a, b) => Dist::ShiftedExp(a * f, b * f),
            Dist::SometimesSlow(m, s) => Dist::SometimesSlow(m * f, s),
            Dist::GapAbove(m) => Dist::GapAbove(m * f),
            Dist::GapBelow(m, d) => Dist::GapBelow(m * f, d),
        }
    }

    pub(crate) fn draw(self, rng: &mut Rng) -> f64 {
        match self {
            Dist::LogNormal(m, s) => m * (s * rng.normal()).exp(),
            Dist::Heavy(m, s) => {
                let v = m * (s * rng.normal()).exp();
                if rng.uniform() < 0.05 {
                    v * (2.0 + 8.0 * rng.uniform())
                } else {
                    v
                }
            }
            Dist::FourValues(g) => {
                let u = rng.uniform();
                let v = if u <= 0.2 {
                    1000.0
                } else if u <= 0.55 {
                    1100.0
                } else if u <= 0.85 {
                    1200.0
                } else {
                    1300.0
                };
                v * g
            }
            Dist::Constant(v) => v,
            Dist::ShiftedExp(a, b) => a - b * rng.uniform().ln(),
            Dist::SometimesSlow(m, s) => {
                let v = m * (s * rng.normal()).exp();
                if rng.uniform() < 0.25 {
                    1.5 * v
                } else {
                    v
                }
            }
            Dist::GapAbove(m) => match rng.uniform() {
                u if u <= 0.505 => m,
                _ => m * (3.0 + 7.0 * rng.uniform()),
            },
            Dist::GapBelow(m, depth) => match rng.uniform() {
                u if u <= 0.505 => m,
                _ => m * depth * (0.9 + 0.1 * rng.uniform()),
            },
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Order {
    Sequential,
    Random,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Drift {
    None,
    /// 10 % slower from the first run to the last.
    Linear,
    /// 10 % slower from a run chosen uniformly at random on.
    Step,
}

/// One cell: how each experiment is made, before the truth is chosen.
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    pub(crate) shape: &'static str,
    /// The first command's distribution.
    pub(crate) first: Dist,
    /// The others' distribution at a factor of 1.
    pub(crate) others: Dist,
    /// Runs of the first command and of each other.
    pub(crate) runs: (usize, usize),
    pub(crate) commands: usize,
    pub(crate) order: Order,
    pub(crate) drift: Drift,
    /// Times are rounded to multiples of this many µs (1: plain µs).
    pub(crate) tick: f64,
    /// Each command's own distribution, instead of `first` and `others`
    /// (the others' scaled by the factor).
    pub(crate) each: Option<fn(usize) -> Dist>,
    /// Scale the others so that the ratio of population medians is
    /// exactly the factor (different shapes at equal medians).
    pub(crate) matched: bool,
}

impl Cell {
    /// Two commands without drift.
    pub(crate) fn two(
        shape: &'static str,
        first: Dist,
        others: Dist,
        runs: (usize, usize),
        order: Order,
        tick: f64,
    ) -> Cell {
        Cell {
            shape,
            first,
            others,
            runs,
            commands: 2,
            order,
            drift: Drift::None,
            tick,
            each: None,
            matched: false,
        }
    }

    /// Command i's distribution with the others at `factor`.
    pub(crate) fn dist(&self, i: usize, factor: f64) -> Dist {
        match (self.each, i) {
            (Some(each), 0) => each(0),
            (Some(each), _) => each(i).scaled(factor),
            (None, 0) => self.first,
            (None, _) => self.others.scaled(factor),
        }
    }

    /// The factor to draw the others with so that the ratio of their
    /// population median to the first's is `factor`.
    pub(crate) fn drawn(&self, factor: f64) -> f64 {
        if !self.matched {
            return factor;
        }
        let medians = medians(self, 1.0, 0.0);
        factor * medians[0] / medians[1]
    }
}

pub(crate) fn round(v: f64, tick: f64) -> f64 {
    ((v / tick).round() * tick).max(1.0)
}

/// One experiment: per command its values in run order (round order when
/// random), and the raw records in the order they were made.
pub(crate) struct Experiment {
    pub(crate) values: Vec<Vec<f64>>,
    pub(crate) records: Vec<RunRecord>,
}

/// The experiment's runs, command i (the others scaled by `factor`, or
/// moved by `ticks` whole ticks) in the cell's order.
pub(crate) fn experiment(rng: &mut Rng, cell: &Cell, factor: f64, ticks: f64) -> Experiment {
    let k = cell.commands;
    let runs = |i: usize| if i == 0 { cell.runs.0 } else { cell.runs.1 };
    // The global position of every run of every command.
    let mut slots: Vec<(usize, usize)> = Vec::new();
    match cell.order {
        Order::Sequential => {
            // Mirrored blocks, as `bestguess --order sequential` runs them:
            // the first half of every command's runs, the last command's
            // whole, then the other halves in reverse order.
            let first = |i: usize| {
                if i + 1 == k {
                    runs(i)
                } else {
                    runs(i).div_ceil(2)
                }
            };
            for i in 0..k {
                slots.extend((0..first(i)).map(|r| (i, r)));
            }
            for i in (0..k).rev() {
                slots.extend((first(i)..runs(i)).map(|r| (i, r)));
            }
        }
        Order::Random => {
            let mut round_order: Vec<usize> = (0..k).collect();
            for r in 0..cell.runs.0.max(cell.runs.1) {
                rng.0.shuffle(&mut round_order);
                slots.extend(
                    round_order
                        .iter()
                        .filter(|&&i| r < runs(i))
                        .map(|&i| (i, r)),
                );
            }
        }
    }
    let total = slots.len() as f64;
    // A step happens at a moment the experiment does not know: uniformly
    // anywhere among its runs.
    let step_at = match cell.drift {
        Drift::Step => rng.uniform() * total,
        _ => total,
    };
    let mut records = Vec::with_capacity(slots.len());
    let mut values = vec![Vec::new(); k];
    for (position, &(i, _)) in slots.iter().enumerate() {
        let dist = cell.dist(i, factor);
        let slow = match cell.drift {
            Drift::None => 1.0,
            Drift::Linear => 1.0 + 0.1 * position as f64 / total,
            Drift::Step if position as f64 >= step_at => 1.1,
            Drift::Step => 1.0,
        };
        let extra = if i == 0 { 0.0 } else { ticks * cell.tick };
        let value = round(dist.draw(rng) * slow + extra, cell.tick) as i64;
        values[i].push(value as f64);
        if cell.drift == Drift::None {
            continue;
        }
        records.push(
            RunRecord {
                command: format!("command {}", i + 1),
                batch: i as u64 + 1,
                sequence: Some(position as u64 + 1),
                ..RunRecord::default()
            }
            .with(Metric::USER, value)
            .with(Metric::SYSTEM, 0)
            .with(Metric::WALL, value),
        );
    }
    Experiment { values, records }
}

/// Every command's population median (before drift), by Monte Carlo,
/// with the others at `factor` (or moved by `ticks` whole ticks).
pub(crate) fn medians(cell: &Cell, factor: f64, ticks: f64) -> Vec<f64> {
    const DRAWS: usize = 400_000;
    (0..cell.commands)
        .map(|i| {
            let mut rng = Rng(SplitMix64::new(99 + i as u64));
            let dist = cell.dist(i, factor);
            let extra = if i == 0 { 0.0 } else { ticks * cell.tick };
            let mut v: Vec<f64> = (0..DRAWS)
                .map(|_| round(dist.draw(&mut rng) + extra, cell.tick))
                .collect();
            v.sort_by(f64::total_cmp);
            (v[(DRAWS - 1) / 2] + v[DRAWS / 2]) / 2.0
        })
        .collect()
}

//! Simulation grid of the ranking's method: is the confidence it reports
//! the confidence it achieves, does it keep its error rates, how much can
//! it detect, and does it warn when the order cannot tell?
//!
//! Run with `cargo bench --bench method` (`BESTGUESS_REPS=N` changes the
//! 1,000 replications of the cells whose rates are judged against α; power
//! uses a third of them;
//! `BESTGUESS_GRID=shapes,different,awkward,commands,slow,gaps,ticks`
//! picks groups, `drift` the sequential drift cells of `commands` alone).
//! Every replication builds a raw [`Dataset`] of synthetic runs —
//! integer microseconds, a `Sequence` column in the order the runs would
//! have been made (sequential, or random rounds as `bestguess` makes them
//! by default) — and runs the real [`Analysis`] on it, as `bestreport`
//! would. Figures are printed as Markdown tables for `BENCHMARKS.md`.
//!
//! Per cell (shape, runs, commands, order, drift):
//! * **stated / cover**: the mean confidence the comparisons report for
//!   their interval, and how often the interval held the true value, the
//!   ratio of the population medians (found by Monte Carlo with 400,000
//!   draws), in every order. Judged: cover ≥ stated − 1.5 points.
//! * **slower A/A**: experiments of identical commands with any command
//!   called "slower" (≤ α judged; in drift cells "unwarned": slower with
//!   no drift warning, ≤ 5 % judged).
//! * **slower @1%**: the others exactly 1.01× the first (the effect
//!   threshold): share of those others called "slower" than the first
//!   (≤ α/2 judged).
//! * **wrong @1%**: in the same experiments, the share with a command
//!   called "slower" that is not slower at all (the first against one of
//!   the others, or two of the others: ≤ α judged).
//! * **equiv A/A**: share of comparisons of identical commands called
//!   "equivalent".
//! * **false equiv**: share of comparisons called "equivalent" while the
//!   truth lies beyond ±1 % (the ×1.02 … ×2 experiments); **equiv ×1.02**
//!   the share at ×1.02 alone.
//! * **×1.02 … ×2**: power, share of the other commands called "slower"
//!   when each is that factor times the first.
//! * **max**: the highest confidence reported (never 1).
//!
//! The groups: `shapes` (one shape for both commands), `different`
//! (different shapes at equal medians, the others scaled so that the
//! ratio of population medians is exactly the factor), `awkward`,
//! `commands` (several commands, drift), `slow` (five commands, four of
//! them equally slow), `gaps` (the adversarial distributions of
//! docs/statistics.md, and which rules of the form "x₍ₖ₎ > 1.01 · r₍ₙ₊₁₋ⱼ₎"
//! stay within α on them), `ticks`.

use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Mutex;
use std::time::Instant;

use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::{Dataset, Metric, RunRecord};
use bestguess::stats::{rank_with, RankOptions, Ranking, Sample, SplitMix64, Verdict};

struct Rng(SplitMix64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        // (0, 1]: never 0, so logarithms exist.
        1.0 - self.0.uniform()
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// One command's distribution before drift and ticks.
#[derive(Clone, Copy, Debug)]
enum Dist {
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
    fn scaled(self, f: f64) -> Dist {
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

    fn draw(self, rng: &mut Rng) -> f64 {
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
enum Order {
    Sequential,
    Random,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Drift {
    None,
    /// 10 % slower from the first run to the last.
    Linear,
    /// 10 % slower from a run chosen uniformly at random on.
    Step,
}

/// One cell: how each experiment is made, before the truth is chosen.
#[derive(Clone, Debug)]
struct Cell {
    shape: &'static str,
    /// The first command's distribution.
    first: Dist,
    /// The others' distribution at a factor of 1.
    others: Dist,
    /// Runs of the first command and of each other.
    runs: (usize, usize),
    commands: usize,
    order: Order,
    drift: Drift,
    /// Times are rounded to multiples of this many µs (1: plain µs).
    tick: f64,
    /// Each command's own distribution, instead of `first` and `others`
    /// (the others' scaled by the factor).
    each: Option<fn(usize) -> Dist>,
    /// Scale the others so that the ratio of population medians is
    /// exactly the factor (different shapes at equal medians).
    matched: bool,
}

impl Cell {
    /// Two commands without drift.
    fn two(
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
    fn dist(&self, i: usize, factor: f64) -> Dist {
        match (self.each, i) {
            (Some(each), 0) => each(0),
            (Some(each), _) => each(i).scaled(factor),
            (None, 0) => self.first,
            (None, _) => self.others.scaled(factor),
        }
    }

    /// The factor to draw the others with so that the ratio of their
    /// population median to the first's is `factor`.
    fn drawn(&self, factor: f64) -> f64 {
        if !self.matched {
            return factor;
        }
        let medians = medians(self, 1.0, 0.0);
        factor * medians[0] / medians[1]
    }
}

fn round(v: f64, tick: f64) -> f64 {
    ((v / tick).round() * tick).max(1.0)
}

/// One experiment: per command its values in run order (round order when
/// random), and the raw records in the order they were made.
struct Experiment {
    values: Vec<Vec<f64>>,
    records: Vec<RunRecord>,
}

/// The experiment's runs, command i (the others scaled by `factor`, or
/// moved by `ticks` whole ticks) in the cell's order.
fn experiment(rng: &mut Rng, cell: &Cell, factor: f64, ticks: f64) -> Experiment {
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
fn medians(cell: &Cell, factor: f64, ticks: f64) -> Vec<f64> {
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

/// What one configuration of a cell gave over its replications.
#[derive(Default, Clone)]
struct Tally {
    experiments: usize,
    /// Experiments with any command called slower.
    any_slower: usize,
    /// ... of which no drift warning was given.
    unwarned_slower: usize,
    /// Experiments with a command called slower that is not truly slower
    /// than the one it was compared with.
    wrong_slower: usize,
    /// Commands truly slower than the first, and the comparisons that
    /// call one of them "slower" than the first.
    up: usize,
    up_slower: usize,
    comparisons: usize,
    slower: usize,
    faster: usize,
    equivalent: usize,
    covered: usize,
    stated: f64,
    max_stated: f64,
}

/// The ranking of one experiment, and whether a drift warning was given.
/// With drift, the whole [`Analysis`] of the raw records, as `bestreport`
/// makes it (its warnings are part of the result); without, the ranking
/// the analysis makes, [`rank_with`] (the same call, without the
/// per-metric summaries).
fn analyse(cell: &Cell, made: Experiment) -> (Ranking, bool) {
    if cell.drift != Drift::None {
        let data = Dataset::from_records(made.records);
        let a = Analysis::new(&data, RankingSettings::default()).expect("valid synthetic data");
        let warned = a.drift_check().warns();
        return (a.ranking, warned);
    }
    let samples: Vec<Sample> = made
        .values
        .iter()
        .map(|v| Sample::from_slice(v).expect("finite values"))
        .collect();
    let complete = made.values.windows(2).all(|w| w[0].len() == w[1].len());
    let options = RankOptions {
        rounds: (cell.order == Order::Random && complete).then(|| made.values[0].len()),
        reference: None,
        classic: false,
    };
    let ranking =
        rank_with(&samples, options, &RankingSettings::default().rule()).expect("valid settings");
    (ranking, false)
}

fn run_config(cell: &Cell, factor: f64, ticks: f64, reps: usize, seed: u64) -> Tally {
    // The others are drawn at `drawn`; the truth is of what is drawn.
    let drawn = cell.drawn(factor);
    let truths = medians(cell, drawn, ticks);
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut mine = Tally::default();
                loop {
                    let r = next.fetch_add(1, AtomicOrdering::Relaxed);
                    if r >= reps {
                        break;
                    }
                    let mut rng = Rng(SplitMix64::new(seed.wrapping_mul(1_000_003) + r as u64));
                    let made = experiment(&mut rng, cell, drawn, ticks);
                    let (ranking, warned) = analyse(cell, made);
                    tally(&mut mine, &ranking, warned, &truths, cell.commands);
                }
                total.lock().unwrap().add(&mine);
            });
        }
    });
    total.into_inner().unwrap()
}

/// One experiment's verdicts and intervals against the true medians.
fn tally(mine: &mut Tally, ranking: &Ranking, warned: bool, truths: &[f64], k: usize) {
    mine.experiments += 1;
    let reference = ranking.entries[0].index;
    // Every other command is truly slower than the first (or none is).
    if truths[1] > truths[0] {
        mine.up += k - 1;
    }
    let mut slower = false;
    let mut wrong = false;
    for e in &ranking.entries[1..] {
        let Some(c) = e.comparison else { continue };
        let b = c.contrast;
        mine.comparisons += 1;
        // The named quantity: the ratio of the two population medians.
        let truth = truths[e.index] / truths[reference];
        mine.covered += usize::from(b.low <= truth && truth <= b.high);
        mine.stated += b.confidence();
        mine.max_stated = mine.max_stated.max(b.confidence());
        let up = truth > 1.0;
        match e.verdict {
            Verdict::Slower => {
                mine.slower += 1;
                mine.up_slower += usize::from(up);
                wrong |= !up;
                slower = true;
            }
            Verdict::Faster => mine.faster += 1,
            Verdict::Equivalent => mine.equivalent += 1,
            _ => {}
        }
    }
    mine.any_slower += usize::from(slower);
    mine.unwarned_slower += usize::from(slower && !warned);
    mine.wrong_slower += usize::from(wrong);
}

impl Tally {
    fn add(&mut self, mine: &Tally) {
        self.experiments += mine.experiments;
        self.any_slower += mine.any_slower;
        self.unwarned_slower += mine.unwarned_slower;
        self.wrong_slower += mine.wrong_slower;
        self.up += mine.up;
        self.up_slower += mine.up_slower;
        self.comparisons += mine.comparisons;
        self.slower += mine.slower;
        self.faster += mine.faster;
        self.equivalent += mine.equivalent;
        self.covered += mine.covered;
        self.stated += mine.stated;
        self.max_stated = self.max_stated.max(mine.max_stated);
    }
}

fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}", 100.0 * part as f64 / whole as f64)
    }
}

/// One table row: every configuration of the cell, and whether it meets
/// the judged criteria.
fn row(cell: &Cell, reps: usize, seed: u64, failures: &mut Vec<String>) -> String {
    let power_reps = (reps / 3).max(50);
    let aa = run_config(cell, 1.0, 0.0, reps, seed);
    let margin = run_config(cell, 1.01, 0.0, reps, seed + 1);
    let powers: Vec<Tally> = [1.02, 1.05, 1.10, 2.0]
        .iter()
        .enumerate()
        .map(|(j, &f)| run_config(cell, f, 0.0, power_reps, seed + 2 + j as u64))
        .collect();
    // Coverage over every configuration.
    let all: Vec<&Tally> = std::iter::once(&aa)
        .chain(std::iter::once(&margin))
        .chain(powers.iter())
        .collect();
    let comparisons: usize = all.iter().map(|t| t.comparisons).sum();
    let covered: usize = all.iter().map(|t| t.covered).sum();
    let stated: f64 = all.iter().map(|t| t.stated).sum::<f64>() / comparisons.max(1) as f64;
    let max_stated = all.iter().map(|t| t.max_stated).fold(0.0, f64::max);
    let cover = covered as f64 / comparisons.max(1) as f64;
    let false_equivalent: usize = powers.iter().map(|t| t.equivalent).sum();
    let power_comparisons: usize = powers.iter().map(|t| t.comparisons).sum();
    let drifting = cell.drift != Drift::None;
    let label = format!(
        "{} | {}{} | {} | {} | {}",
        cell.shape,
        cell.runs.0,
        if cell.runs.0 == cell.runs.1 {
            String::new()
        } else {
            format!(":{}", cell.runs.1)
        },
        cell.commands,
        match cell.order {
            Order::Sequential => "seq",
            Order::Random => "random",
        },
        match cell.drift {
            Drift::None => "–",
            Drift::Linear => "10 % linear",
            Drift::Step => "10 % step",
        },
    );
    let aa_slower = if drifting {
        aa.unwarned_slower
    } else {
        aa.any_slower
    };
    // The judged criteria.
    let mut bad = Vec::new();
    let sequential_drift = drifting && cell.order == Order::Sequential;
    // Under drift in sequential order nothing is true to cover: judged by
    // its warnings instead.
    if comparisons > 0 && !sequential_drift && cover < stated - 0.015 {
        bad.push(format!(
            "cover {:.1} < stated {:.1} − 1.5",
            100.0 * cover,
            100.0 * stated
        ));
    }
    let limit = if drifting { 0.05 } else { 0.05 + 0.015 };
    if aa.experiments > 0 && aa_slower as f64 / aa.experiments as f64 > limit {
        bad.push(format!("slower A/A {}", pct(aa_slower, aa.experiments)));
    }
    // At the margin, calling the command that is exactly the effect
    // slower is a false claim of one side: at most α/2 per comparison
    // (a lower bound misses at most the sum of two medians' bounds, each
    // α/(2K)). Calling a command slower that is not slower at all is a
    // false claim like those of A/A: at most α per experiment.
    if !sequential_drift
        && margin.up > 0
        && margin.up_slower as f64 / margin.up as f64 > 0.025 + 0.015
    {
        bad.push(format!("slower @1% {}", pct(margin.up_slower, margin.up)));
    }
    if !sequential_drift
        && margin.experiments > 0
        && margin.wrong_slower as f64 / margin.experiments as f64 > 0.05 + 0.015
    {
        bad.push(format!(
            "wrong @1% {}",
            pct(margin.wrong_slower, margin.experiments)
        ));
    }
    if max_stated >= 1.0 {
        bad.push("a confidence of 1".to_owned());
    }
    let mark = if bad.is_empty() {
        String::new()
    } else {
        failures.push(format!("{label}: {}", bad.join("; ")));
        " ✗".to_owned()
    };
    format!(
        "| {label} | {} | {}{mark} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
        if comparisons > 0 {
            format!("{:.1}", 100.0 * stated)
        } else {
            "–".into()
        },
        if comparisons > 0 {
            format!("{:.1}", 100.0 * cover)
        } else {
            "–".into()
        },
        pct(aa_slower, aa.experiments),
        pct(margin.up_slower, margin.up),
        pct(margin.wrong_slower, margin.experiments),
        pct(aa.equivalent, aa.comparisons),
        pct(false_equivalent, power_comparisons),
        pct(powers[0].equivalent, powers[0].comparisons),
        // Power: of every command truly slower, compared or not.
        pct(powers[0].up_slower, powers[0].up),
        pct(powers[1].up_slower, powers[1].up),
        pct(powers[2].up_slower, powers[2].up),
        pct(powers[3].up_slower, powers[3].up),
        100.0 * max_stated,
    )
}

const HEADER: &str = "| shape | runs | K | order | drift | stated | cover | slower A/A | slower @1% | wrong @1% | equiv A/A | false equiv | equiv ×1.02 | ×1.02 | ×1.05 | ×1.10 | ×2 | max |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

fn shapes() -> Vec<Cell> {
    let mut cells = Vec::new();
    let shapes: [(&str, Dist, f64); 7] = [
        ("lognormal σ 0.02", Dist::LogNormal(10_000.0, 0.02), 1.0),
        ("lognormal σ 0.05", Dist::LogNormal(10_000.0, 0.05), 1.0),
        ("lognormal σ 0.3", Dist::LogNormal(10_000.0, 0.3), 1.0),
        ("heavy right tail", Dist::Heavy(10_000.0, 0.05), 1.0),
        (
            "10 ms ticks, 20 ms",
            Dist::LogNormal(20_000.0, 0.25),
            10_000.0,
        ),
        ("100 µs ticks, 1 ms", Dist::LogNormal(1_000.0, 0.1), 100.0),
        (
            "100 µs ticks, 10 ms",
            Dist::LogNormal(10_000.0, 0.02),
            100.0,
        ),
    ];
    for (shape, dist, tick) in shapes {
        for n in [7, 10, 30, 100, 1000] {
            for order in [Order::Random, Order::Sequential] {
                cells.push(Cell::two(shape, dist, dist, (n, n), order, tick));
            }
        }
    }
    cells
}

/// Different shapes at equal medians (the others scaled so that the
/// ratio of population medians is exactly the factor): where the median
/// of within-round ratios and the ratio of medians part.
fn different() -> Vec<Cell> {
    let mut cells = Vec::new();
    let pairs: [(&str, Dist, Dist); 3] = [
        (
            "lognormal σ 0.1 v. shifted exp.",
            Dist::LogNormal(10_000.0, 0.1),
            Dist::ShiftedExp(9_000.0, 1_000.0 / std::f64::consts::LN_2),
        ),
        (
            "σ 0.05 v. sometimes slow",
            Dist::LogNormal(10_000.0, 0.05),
            Dist::SometimesSlow(10_000.0, 0.05),
        ),
        (
            "σ 0.02 v. σ 0.3",
            Dist::LogNormal(10_000.0, 0.02),
            Dist::LogNormal(10_000.0, 0.3),
        ),
    ];
    for (shape, first, others) in pairs {
        for n in [10, 30, 100, 1000] {
            for order in [Order::Random, Order::Sequential] {
                cells.push(Cell {
                    matched: true,
                    ..Cell::two(shape, first, others, (n, n), order, 1.0)
                });
            }
        }
    }
    cells
}

/// Five commands, the four others equally slow (lognormal σ 0.3): no
/// command's luck may block another's verdict.
fn slow() -> Vec<Cell> {
    let mut cells = Vec::new();
    let dist = Dist::LogNormal(10_000.0, 0.3);
    for n in [8, 10, 12, 15, 20, 30] {
        for order in [Order::Random, Order::Sequential] {
            cells.push(Cell {
                commands: 5,
                ..Cell::two("lognormal σ 0.3", dist, dist, (n, n), order, 1.0)
            });
        }
    }
    cells
}

/// The first command's median with nothing just below it, the four
/// others' with nothing just above: equal medians, the union bound tight.
fn gap_cross(i: usize) -> Dist {
    if i == 0 {
        Dist::GapBelow(10_000.0, 0.2)
    } else {
        Dist::GapAbove(10_000.0)
    }
}

/// Five commands with nothing just below their equal medians, each the
/// rest deeper (1/3, 1/9, …): the command whose upper bound fails is the
/// data's best.
fn gap_stairs(i: usize) -> Dist {
    Dist::GapBelow(10_000.0, 3f64.powi(-(i as i32 + 1)))
}

fn gaps() -> Vec<Cell> {
    let mut cells = Vec::new();
    for (shape, each) in [
        ("gaps across", gap_cross as fn(usize) -> Dist),
        ("gaps in stairs", gap_stairs),
    ] {
        for n in [8, 12, 30] {
            cells.push(Cell {
                commands: 5,
                each: Some(each),
                ..Cell::two(shape, each(0), each(1), (n, n), Order::Random, 1.0)
            });
        }
    }
    cells
}

/// Which rules "x₍ₖ₎ > 1.01 · r₍ₙ₊₁₋ⱼ₎" (other's k-th smallest run
/// against the reference's j-th largest; the ranking's is k = j, the
/// rank of α/(2K) per side) keep false "slower" within α at 12 rounds
/// and K = 5: their power (each of four commands 2× the first,
/// lognormal σ 0.3, the first the reference) beside their false
/// "slower" in the two gap cells (reference: the lowest sample median).
fn rules(reps: usize) {
    const N: usize = 12;
    println!("\n### Rules of the form x₍ₖ₎ > 1.01 · r₍ₙ₊₁₋ⱼ₎ at 12 rounds, K = 5\n");
    println!("| k | j | power, 4 × 2 | false slower, gaps across | false slower, gaps in stairs | within α |\n|---|---|---|---|---|---|");
    let lognormal = |i: usize| {
        let d = Dist::LogNormal(10_000.0, 0.3);
        if i == 0 {
            d
        } else {
            d.scaled(2.0)
        }
    };
    let draw = |each: &dyn Fn(usize) -> Dist, rng: &mut Rng| -> Vec<Vec<f64>> {
        (0..5)
            .map(|i| {
                let mut v: Vec<f64> = (0..N).map(|_| each(i).draw(rng).round()).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect()
    };
    let median = |v: &[f64]| (v[(N - 1) / 2] + v[N / 2]) / 2.0;
    for k in 1..=4 {
        for j in 1..=4 {
            let (mut power, mut cross, mut stairs) = (0, 0, 0);
            let mut rng = Rng(SplitMix64::new(31));
            for _ in 0..reps {
                // Each of the four against the first.
                let v = draw(&lognormal, &mut rng);
                power += (1..5).filter(|&i| v[i][k - 1] > 1.01 * v[0][N - j]).count();
                for (each, count) in [
                    (&gap_cross as &dyn Fn(usize) -> Dist, &mut cross),
                    (&gap_stairs, &mut stairs),
                ] {
                    let v = draw(each, &mut rng);
                    // The data's best: the lowest median, the first on a tie.
                    let r = (0..5)
                        .min_by(|&a, &b| median(&v[a]).total_cmp(&median(&v[b])))
                        .unwrap_or(0);
                    let wrong = (0..5).any(|i| i != r && v[i][k - 1] > 1.01 * v[r][N - j]);
                    *count += usize::from(wrong);
                }
            }
            let power = power as f64 / (4 * reps) as f64;
            if power < 0.5 {
                continue;
            }
            let within = cross as f64 / reps as f64 <= 0.05 && stairs as f64 / reps as f64 <= 0.05;
            println!(
                "| {k} | {j} | {:.1} | {} | {} | {} |",
                100.0 * power,
                pct(cross, reps),
                pct(stairs, reps),
                if within { "yes" } else { "no" }
            );
        }
    }
}

fn awkward() -> Vec<Cell> {
    let mut cells = Vec::new();
    let seq = |shape, first, others, runs, tick| {
        Cell::two(shape, first, others, runs, Order::Sequential, tick)
    };
    for n in [7, 10, 30, 100] {
        let (a, b) = (
            Dist::LogNormal(10_000.0, 0.05),
            Dist::LogNormal(10_000.0, 0.15),
        );
        cells.push(seq("spread 1:3", a, b, (n, n), 1.0));
        cells.push(seq("spread 1:3", a, b, (4 * n, n), 1.0));
        let (a, b) = (
            Dist::LogNormal(10_000.0, 0.01),
            Dist::LogNormal(10_000.0, 0.4),
        );
        cells.push(seq("spread 1:40", a, b, (n, n), 1.0));
        cells.push(seq("spread 1:40", a, b, (4 * n, n), 1.0));
    }
    for many in [50, 200, 1000] {
        for few in [7, 8] {
            cells.push(seq(
                "4 values v. spread",
                Dist::FourValues(1.0),
                Dist::LogNormal(1_100.0, 0.05),
                (many, few),
                1.0,
            ));
        }
    }
    for (first, others) in [(7, 50), (50, 7), (30, 30)] {
        cells.push(seq(
            "constant",
            Dist::Constant(1_000.0),
            Dist::Constant(1_000.0),
            (first, others),
            1.0,
        ));
        cells.push(seq(
            "constant v. spread",
            Dist::Constant(1_000.0),
            Dist::LogNormal(1_000.0, 0.05),
            (first, others),
            1.0,
        ));
    }
    // Whole-tick shifts are the ×f rows of the tick shapes in `shapes`;
    // here the other command one tick slower at 1 ms on 100 µs ticks is
    // the margin's neighbour (+10 %), see `tick_shifts`.
    cells
}

fn commands() -> Vec<Cell> {
    let mut cells = Vec::new();
    let dist = Dist::LogNormal(10_000.0, 0.05);
    for k in [2, 5, 10] {
        for n in [8, 10, 30, 100] {
            for order in [Order::Random, Order::Sequential] {
                for drift in [Drift::None, Drift::Linear, Drift::Step] {
                    if k == 2 && drift == Drift::None {
                        continue; // in `shapes`
                    }
                    cells.push(Cell {
                        commands: k,
                        drift,
                        ..Cell::two("lognormal σ 0.05", dist, dist, (n, n), order, 1.0)
                    });
                }
            }
        }
    }
    cells
}

/// Whole-tick shifts: the other command one or two 100 µs ticks slower
/// at 1 ms and at 10 ms (+10 % and +1 %/+2 %): coverage and power.
fn tick_shifts(reps: usize, failures: &mut Vec<String>) {
    println!("\n### Whole-tick shifts\n");
    println!("| shape | runs | order | ticks | truth | stated | cover | slower |\n|---|---|---|---|---|---|---|---|");
    for (shape, dist) in [
        ("100 µs ticks, 1 ms", Dist::LogNormal(1_000.0, 0.1)),
        ("100 µs ticks, 10 ms", Dist::LogNormal(10_000.0, 0.02)),
    ] {
        for n in [10, 30, 100] {
            for order in [Order::Random, Order::Sequential] {
                for ticks in [1.0, 2.0] {
                    let cell = Cell::two(shape, dist, dist, (n, n), order, 100.0);
                    let t = run_config(&cell, 1.0, ticks, reps, 7_000 + n as u64);
                    let m = medians(&cell, 1.0, ticks);
                    let truth = m[1] / m[0];
                    let reached = t.comparisons;
                    let stated = t.stated / reached.max(1) as f64;
                    let cover = t.covered as f64 / reached.max(1) as f64;
                    let mark = if cover < stated - 0.015 {
                        failures.push(format!("{shape} {n} {order:?} +{ticks} ticks: cover"));
                        " ✗"
                    } else {
                        ""
                    };
                    let level = |x: f64| {
                        if reached == 0 {
                            "–".to_owned()
                        } else {
                            format!("{:.1}", 100.0 * x)
                        }
                    };
                    println!(
                        "| {shape} | {n} | {} | +{ticks} | {truth:.4} | {} | {}{mark} | {} |",
                        if order == Order::Random {
                            "random"
                        } else {
                            "seq"
                        },
                        level(stated),
                        level(cover),
                        pct(t.slower, t.experiments),
                    );
                }
            }
        }
    }
}

fn main() {
    let reps: usize = std::env::var("BESTGUESS_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let groups = std::env::var("BESTGUESS_GRID")
        .unwrap_or_else(|_| "shapes,different,awkward,commands,slow,gaps,ticks".into());
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut seed = 1;
    for (group, title, cells) in [
        ("shapes", "Shapes, two commands", shapes()),
        (
            "different",
            "Different shapes at equal medians (the factor is the ratio of medians)",
            different(),
        ),
        (
            "awkward",
            "Unequal spreads, unequal counts, few values, constants (sequential order)",
            awkward(),
        ),
        ("commands", "Several commands, drift", commands()),
        (
            "slow",
            "Five commands, four equally slow (lognormal σ 0.3)",
            slow(),
        ),
        (
            "gaps",
            "Five commands, equal medians, gaps beside them (random rounds)",
            gaps(),
        ),
        (
            "drift",
            "Sequential order with drift",
            commands()
                .into_iter()
                .filter(|c| c.order == Order::Sequential && c.drift != Drift::None)
                .collect(),
        ),
    ] {
        if !groups.split(',').any(|g| g == group) {
            continue;
        }
        println!("\n### {title}\n\n{HEADER}");
        for cell in &cells {
            seed += 100;
            println!("{}", row(cell, reps, seed, &mut failures));
        }
    }
    if groups.split(',').any(|g| g == "gaps") {
        rules(reps * 10);
    }
    if groups.split(',').any(|g| g == "ticks") {
        tick_shifts(reps, &mut failures);
    }
    println!(
        "\n{} replications per judged configuration; {:.0} s.",
        reps,
        start.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        println!("Every cell meets its criteria.");
    } else {
        println!("Cells short of their criteria ({}):", failures.len());
        for f in &failures {
            println!("- {f}");
        }
    }
}

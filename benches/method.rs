//! Simulation benchmark of the ranking's method: is the confidence it
//! reports the confidence it achieves, does it keep its error rate, and
//! how much can it detect?
//!
//! Run with `cargo bench --bench method` (about a minute on 2 cores;
//! `BESTGUESS_REPS=N` changes the 1,000 replications per cell). Every
//! replication builds a raw [`Dataset`] of synthetic runs — integer
//! microseconds, a `Sequence` column in the order the runs would have been
//! made (sequential, or random rounds as `bestguess` makes them by
//! default) — and runs the real [`Analysis`] on it, exactly as `bestreport`
//! would. Figures are printed as Markdown tables for `BENCHMARKS.md`.
//!
//! Cells:
//! 1. Coverage of the ratio's interval: two commands, the second 1.05×
//!    the first (a scale family, so the true ratio of any location is
//!    1.05), lognormal (σ = 0.1) and heavy-tailed (log-Student t with 2
//!    degrees of freedom, scale 0.05) noise; and tick-quantised times
//!    (1 ms median rounded to 100 µs ticks: heavy ties) of two identical
//!    commands (true ratio 1); n = 10, 30, 100, both orders.
//! 2. A/A: 2, 5 and 10 identical commands, n = 30, random order: how often
//!    some command is declared slower (or faster), with the defaults and
//!    on the p-value alone (`-c effect=0,epsilon=0,super=0.5`); and how
//!    often every interval covers the true ratio 1 at once.
//! 3. Drift: two identical commands, a 10 % linear slowdown over the
//!    experiment, sequential against random order, n = 30 and 100.
//! 4. Power: the second command 2 %, 5 % or 10 % slower, n = 10, 30, 100,
//!    random order, defaults; and, for the choice of the default effect,
//!    the power at 2 % with `effect=2%`.

use std::time::Instant;

use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::{Dataset, Metric, RunRecord};
use bestguess::stats::{SplitMix64, Threshold, Verdict};

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

    /// Student t with 2 degrees of freedom: Z / √(χ²₂ / 2), χ²₂/2 = −ln U.
    fn student2(&mut self) -> f64 {
        self.normal() / (-self.uniform().ln()).sqrt()
    }
}

#[derive(Clone, Copy)]
enum Shape {
    LogNormal(f64),
    LogT2(f64),
}

#[derive(Clone, Copy, PartialEq)]
enum Order {
    Sequential,
    Random,
}

/// How one experiment's data are made.
#[derive(Clone, Copy)]
struct Design {
    /// Median of the first command, µs.
    median: f64,
    shape: Shape,
    /// Times are rounded to multiples of this many µs (1: plain µs).
    tick: f64,
    runs: usize,
    order: Order,
    /// Relative slowdown of the machine from the first run to the last.
    drift: f64,
}

/// One experiment: command i's location is `median · factors[i]`.
fn experiment(rng: &mut Rng, d: &Design, factors: &[f64]) -> Dataset {
    let k = factors.len();
    let total = k * d.runs;
    // positions[i][r]: the global position of command i's run r.
    let mut positions = vec![vec![0usize; d.runs]; k];
    match d.order {
        Order::Sequential => {
            for (i, p) in positions.iter_mut().enumerate() {
                for (r, slot) in p.iter_mut().enumerate() {
                    *slot = i * d.runs + r;
                }
            }
        }
        Order::Random => {
            // Round r: a fresh permutation of the commands.
            let mut round: Vec<usize> = (0..k).collect();
            #[allow(clippy::needless_range_loop)]
            for r in 0..d.runs {
                rng.0.shuffle(&mut round);
                for (slot, &i) in round.iter().enumerate() {
                    positions[i][r] = r * k + slot;
                }
            }
        }
    }
    let mut records = Vec::with_capacity(total);
    for (i, &factor) in factors.iter().enumerate() {
        for &position in &positions[i] {
            let noise = match d.shape {
                Shape::LogNormal(s) => (s * rng.normal()).exp(),
                Shape::LogT2(s) => (s * rng.student2()).exp(),
            };
            let slow = 1.0 + d.drift * position as f64 / total as f64;
            let value = d.median * factor * noise * slow;
            let value = ((value / d.tick).round() * d.tick).max(1.0) as i64;
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
    }
    Dataset::from_records(records)
}

fn defaults() -> RankingSettings {
    RankingSettings::default()
}

/// `-c effect=0,epsilon=0,super=0.5`: the p-value alone.
fn p_value_alone() -> RankingSettings {
    RankingSettings {
        effect: Threshold::Absolute(0.0),
        epsilon: Threshold::Absolute(0.0),
        ..RankingSettings::default()
    }
}

fn effect(percent: f64) -> RankingSettings {
    RankingSettings {
        effect: Threshold::Percent(percent),
        ..RankingSettings::default()
    }
}

struct Outcome {
    /// Some command declared slower or faster.
    different: bool,
    /// Command 2 (index 1) declared slower than command 1.
    second_slower: bool,
    /// Every compared interval of the ratio covers its true ratio.
    all_cover: bool,
    /// Whether the analysis was paired.
    paired: bool,
    /// The lowest confidence reported for a compared interval.
    reported: f64,
}

fn run(rng: &mut Rng, d: &Design, factors: &[f64], settings: &RankingSettings) -> Outcome {
    let data = experiment(rng, d, factors);
    let a = Analysis::new(&data, settings.clone()).expect("valid synthetic data");
    let r = &a.ranking;
    let reference = r.entries[0].index;
    let mut out = Outcome {
        different: false,
        second_slower: false,
        all_cover: true,
        paired: matches!(r.design, bestguess::stats::Design::Paired { .. }),
        reported: 1.0,
    };
    for e in &r.entries[1..] {
        if matches!(e.verdict, Verdict::Slower | Verdict::Faster) {
            out.different = true;
        }
        if e.index == 1 && reference == 0 && e.verdict == Verdict::Slower {
            out.second_slower = true;
        }
        if let Some(c) = e.comparison {
            out.reported = out.reported.min(c.contrast.confidence());
        }
        if let Some(q) = e.comparison.map(|c| c.contrast) {
            let truth = factors[e.index] / factors[reference];
            if !(q.low <= truth && truth <= q.high) {
                out.all_cover = false;
            }
        }
    }
    out
}

/// The share of `reps` experiments for which `f` holds, in percent.
fn rate(reps: usize, mut f: impl FnMut() -> bool) -> f64 {
    let hits = (0..reps).filter(|_| f()).count();
    100.0 * hits as f64 / reps as f64
}

fn main() {
    let only_coverage = std::env::var_os("BESTGUESS_COVERAGE_ONLY").is_some();
    let reps: usize = std::env::var("BESTGUESS_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let mut rng = Rng(SplitMix64::new(20261123));
    let start = Instant::now();
    println!("Replications per cell: {reps}\n");

    let base = Design {
        median: 10_000.0,
        shape: Shape::LogNormal(0.1),
        tick: 1.0,
        runs: 30,
        order: Order::Random,
        drift: 0.0,
    };

    println!("### 1. Coverage of the ratio's 95 % interval (true ratio 1.05 unless said)\n");
    println!("Each cell: the share of experiments whose interval covered the true ratio, and in parentheses the mean confidence the analysis reported for it.\n");
    println!("| data | order (analysis) | n = 10 | n = 30 | n = 100 |");
    println!("|---|---|---|---|---|");
    // Rounding to ticks breaks the scale family (1.05 × 1000 µs rounds to
    // 1000 or 1100), so the tied case compares identical commands, whose
    // true ratio stays exactly 1.
    let shapes = [
        (
            "lognormal σ = 0.1",
            Shape::LogNormal(0.1),
            10_000.0,
            1.0,
            1.05,
        ),
        (
            "log-t₂, scale 0.05 (heavy tails)",
            Shape::LogT2(0.05),
            10_000.0,
            1.0,
            1.05,
        ),
        (
            "lognormal σ = 0.1, 1 ms in 100 µs ticks (heavy ties; true ratio 1)",
            Shape::LogNormal(0.1),
            1_000.0,
            100.0,
            1.0,
        ),
    ];
    for (name, shape, median, tick, factor) in shapes {
        for order in [Order::Random, Order::Sequential] {
            let mut cells = Vec::new();
            let mut reported = Vec::new();
            let mut paired = false;
            for runs in [10, 30, 100] {
                let d = Design {
                    median,
                    shape,
                    tick,
                    runs,
                    order,
                    ..base
                };
                let mut sum = 0.0;
                cells.push(rate(reps, || {
                    let o = run(&mut rng, &d, &[1.0, factor], &defaults());
                    paired = o.paired;
                    sum += o.reported;
                    o.all_cover
                }));
                reported.push(100.0 * sum / reps as f64);
            }
            let analysis = if paired {
                "random (paired)"
            } else {
                "sequential (independent)"
            };
            println!(
                "| {name} | {analysis} | {:.1} % ({:.1} %) | {:.1} % ({:.1} %) | {:.1} % ({:.1} %) |",
                cells[0], reported[0], cells[1], reported[1], cells[2], reported[2]
            );
        }
    }

    if only_coverage {
        println!("\nElapsed: {:.1} s", start.elapsed().as_secs_f64());
        return;
    }

    println!("\n### 2. A/A: identical commands, n = 30, random order, α = 5 %\n");
    println!("| commands | \"different\", defaults | \"different\", p-value alone | all intervals cover 1 |");
    println!("|---|---|---|---|");
    for k in [2usize, 5, 10] {
        let factors = vec![1.0; k];
        let d = base;
        let defaults_rate = rate(reps, || run(&mut rng, &d, &factors, &defaults()).different);
        let mut cover = 0usize;
        let p_rate = rate(reps, || {
            let o = run(&mut rng, &d, &factors, &p_value_alone());
            cover += usize::from(o.all_cover);
            o.different
        });
        println!(
            "| {k} | {defaults_rate:.1} % | {p_rate:.1} % | {:.1} % |",
            100.0 * cover as f64 / reps as f64
        );
    }

    println!("\n### 3. Drift: two identical commands, 10 % linear slowdown\n");
    println!("| order (analysis) | n | \"different\", defaults | \"different\", p-value alone |");
    println!("|---|---|---|---|");
    for order in [Order::Sequential, Order::Random] {
        for runs in [30, 100] {
            let d = Design {
                runs,
                order,
                drift: 0.10,
                ..base
            };
            let a = rate(reps, || {
                run(&mut rng, &d, &[1.0, 1.0], &defaults()).different
            });
            let b = rate(reps, || {
                run(&mut rng, &d, &[1.0, 1.0], &p_value_alone()).different
            });
            let name = match order {
                Order::Sequential => "sequential (independent)",
                Order::Random => "random (paired)",
            };
            println!("| {name} | {runs} | {a:.1} % | {b:.1} % |");
        }
    }

    println!(
        "\n### 4. Power: the second command slower by a factor, lognormal σ = 0.1, random order\n"
    );
    println!("| shift | settings | n = 10 | n = 30 | n = 100 |");
    println!("|---|---|---|---|---|");
    let rows: [(f64, &str, RankingSettings); 5] = [
        (1.02, "defaults (effect 1 %)", defaults()),
        (1.05, "defaults (effect 1 %)", defaults()),
        (1.10, "defaults (effect 1 %)", defaults()),
        (1.02, "p-value alone", p_value_alone()),
        (1.02, "effect 2 % (not chosen)", effect(2.0)),
    ];
    for (factor, name, settings) in rows {
        let mut cells = Vec::new();
        for runs in [10, 30, 100] {
            let d = Design { runs, ..base };
            cells.push(rate(reps, || {
                run(&mut rng, &d, &[1.0, factor], &settings).second_slower
            }));
        }
        println!(
            "| {:+.0} % | {name} | {:.1} % | {:.1} % | {:.1} % |",
            (factor - 1.0) * 100.0,
            cells[0],
            cells[1],
            cells[2]
        );
    }
    println!("\nElapsed: {:.1} s", start.elapsed().as_secs_f64());
}

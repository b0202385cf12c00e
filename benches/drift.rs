//! Simulation benchmark of the check across commands
//! ([`Analysis::drift_check`]) on files of plain blocks, one command after
//! another as the C tool and Hyperfine run them (`bestguess --order
//! sequential` mirrors its blocks; `cargo bench --bench method` measures
//! that): identical commands on a machine whose speed changes — a 10 % linear slowdown over the
//! experiment, or a 10 % step halfway through it — and, for the false
//! alarms, the same without a change. Per cell: how often some command is
//! called "slower" (or "faster"), how often that happens with no warning
//! (the target: at most 5 %), and how often the check warns.
//!
//! Run with `cargo bench --bench drift` (`BESTGUESS_REPS=N` changes the
//! 1,000 replications per cell). Figures are Markdown rows for
//! `BENCHMARKS.md`.

use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::{Dataset, Metric, RunRecord};
use bestguess::stats::{SplitMix64, Verdict};

struct Rng(SplitMix64);

impl Rng {
    fn normal(&mut self) -> f64 {
        let (u, v) = (1.0 - self.0.uniform(), 1.0 - self.0.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

#[derive(Clone, Copy)]
enum Change {
    None,
    Linear,
    Step,
}

/// k identical commands, `runs` each, in plain blocks; lognormal noise
/// of `sigma` about 10 ms; the machine slows by 10 % as `change` says.
fn experiment(rng: &mut Rng, k: usize, runs: usize, sigma: f64, change: Change) -> Dataset {
    let total = (k * runs) as f64;
    let mut records = Vec::with_capacity(k * runs);
    for i in 0..k {
        for r in 0..runs {
            let position = i * runs + r;
            let at = position as f64 / total;
            let slow = match change {
                Change::None => 1.0,
                Change::Linear => 1.0 + 0.10 * at,
                Change::Step => {
                    if at >= 0.5 {
                        1.10
                    } else {
                        1.0
                    }
                }
            };
            let value = (10_000.0 * (sigma * rng.normal()).exp() * slow).round() as i64;
            records.push(
                RunRecord {
                    command: format!("command {}", i + 1),
                    batch: i as u64 + 1,
                    sequence: Some(position as u64 + 1),
                    ..RunRecord::default()
                }
                .with(Metric::USER, value.max(1))
                .with(Metric::SYSTEM, 0)
                .with(Metric::WALL, value.max(1)),
            );
        }
    }
    Dataset::from_records(records)
}

fn main() {
    let reps: usize = std::env::var("BESTGUESS_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut rng = Rng(SplitMix64::new(20261128));
    println!("| change | K | n | σ | \"slower\" | \"slower\", no warning | warns |");
    println!("|---|---|---|---|---|---|---|");
    for (change, name) in [
        (Change::Linear, "10 % linear"),
        (Change::Step, "10 % step"),
        (Change::None, "none"),
    ] {
        for k in [2, 5, 10] {
            for runs in [5, 10, 30, 100] {
                for sigma in [0.02, 0.05, 0.3] {
                    let (mut slower, mut silent, mut warns) = (0, 0, 0);
                    for _ in 0..reps {
                        let data = experiment(&mut rng, k, runs, sigma, change);
                        let a = Analysis::new(&data, RankingSettings::default())
                            .expect("valid synthetic data");
                        let decided = a
                            .ranking
                            .entries
                            .iter()
                            .any(|e| matches!(e.verdict, Verdict::Slower | Verdict::Faster));
                        let warned = a.drift_check().warns();
                        slower += usize::from(decided);
                        silent += usize::from(decided && !warned);
                        warns += usize::from(warned);
                    }
                    let pct = |x: usize| 100.0 * x as f64 / reps as f64;
                    println!(
                        "| {name} | {k} | {runs} | {sigma} | {:.1} % | {:.1} % | {:.1} % |",
                        pct(slower),
                        pct(silent),
                        pct(warns)
                    );
                }
            }
        }
    }
}

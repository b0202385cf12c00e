//! Simulation benchmark of the history's change points
//! (`bestguess::stats::changepoint`), beside Apache Otava's E-divisive on
//! the same series (`tools/otava_compare.py`).
//!
//! Each series is N experiments (30, 100 or 300) of 20 runs each. An
//! experiment's machine state scales all its runs by a lognormal factor
//! (the between-experiment noise, σ = 1 %, 3 % or 5 %); each run varies
//! by a further lognormal 5 % and one run in 20 is an outlier 1.2–2×
//! slower. Half the cells have a step of 2, 5, 10 or 20 % (slower or
//! faster, at random) at a random place between 20 % and 80 % of the
//! series; the others none. BestGuess sees every run (it takes each
//! experiment's median); Otava sees the experiment medians.
//!
//! For each series: the change points of the whole series, and the
//! delay — the fewest experiments after the step with which a change
//! point within ±2 of it is reported (the method run on each prefix).
//!
//! Run `cargo bench --bench changepoints` (`BESTGUESS_REPS=N` series per
//! cell, default 40); it writes `target/changepoints/series.csv` (the
//! medians) and `bestguess.csv` (what BestGuess found), which
//! `tools/otava_compare.py` reads to run Otava and print the table for
//! `BENCHMARKS.md`.

use std::fmt::Write as _;

use bestguess::stats::changepoint::{change_points, Settings};
use bestguess::stats::SplitMix64;

struct Rng(SplitMix64);

impl Rng {
    fn normal(&mut self) -> f64 {
        let (u, v) = (1.0 - self.0.uniform(), 1.0 - self.0.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

const RUNS: usize = 20;
const TOLERANCE: usize = 2;

/// The experiment medians of one series, and where its step is.
fn series(rng: &mut Rng, n: usize, noise: f64, step: f64) -> (Vec<f64>, Option<usize>) {
    let tau = (step > 0.0).then(|| n / 5 + rng.0.below(n * 3 / 5));
    let factor = if rng.0.uniform() < 0.5 {
        1.0 + step
    } else {
        1.0 / (1.0 + step)
    };
    let medians = (0..n)
        .map(|i| {
            let level = if tau.is_some_and(|t| i >= t) {
                1000.0 * factor
            } else {
                1000.0
            };
            let state = (noise * rng.normal()).exp();
            let mut runs: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let outlier = if rng.0.uniform() < 0.05 {
                        1.2 + 0.8 * rng.0.uniform()
                    } else {
                        1.0
                    };
                    level * state * (0.05 * rng.normal()).exp() * outlier
                })
                .collect();
            runs.sort_by(f64::total_cmp);
            (runs[RUNS / 2 - 1] + runs[RUNS / 2]) / 2.0
        })
        .collect();
    (medians, tau)
}

/// The level: α of `bestreport --history`'s default, or
/// `BESTGUESS_CP_ALPHA` to explore others.
fn settings() -> Settings {
    let alpha = std::env::var("BESTGUESS_CP_ALPHA")
        .ok()
        .and_then(|a| a.parse().ok())
        .unwrap_or(Settings::default().alpha);
    Settings {
        alpha,
        ..Settings::default()
    }
}

fn found(medians: &[f64]) -> Vec<usize> {
    let builds = vec![true; medians.len()];
    change_points(medians, &builds, &settings())
        .iter()
        .map(|c| c.at)
        .collect()
}

/// The fewest experiments after `tau` with which a change point near it
/// is reported, if any prefix gives one.
fn delay(medians: &[f64], tau: usize) -> Option<usize> {
    (tau + 1..=medians.len()).find_map(|end| {
        found(&medians[..end])
            .iter()
            .any(|&c| c.abs_diff(tau) <= TOLERANCE)
            .then_some(end - tau)
    })
}

fn main() {
    let reps: usize = std::env::var("BESTGUESS_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(40);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/changepoints");
    std::fs::create_dir_all(&dir).expect("target/changepoints");
    let mut series_csv = String::from("id,n,noise,step,tau,medians\n");
    let mut found_csv = String::from("id,change_points,delay\n");
    let mut rng = Rng(SplitMix64::new(2026));
    let mut id = 0;
    let started = std::time::Instant::now();
    for n in [30, 100, 300] {
        for noise in [0.01, 0.03, 0.05] {
            for step in [0.0, 0.02, 0.05, 0.10, 0.20] {
                for _ in 0..reps {
                    let (medians, tau) = series(&mut rng, n, noise, step);
                    let cps = found(&medians);
                    let d = tau.and_then(|t| delay(&medians, t));
                    let list = |v: &[f64]| {
                        v.iter()
                            .map(|x| format!("{x:.3}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let _ = writeln!(
                        series_csv,
                        "{id},{n},{noise},{step},{},{}",
                        tau.map_or(-1, |t| t as i64),
                        list(&medians)
                    );
                    let _ = writeln!(
                        found_csv,
                        "{id},{},{}",
                        cps.iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" "),
                        d.map_or(String::new(), |d| d.to_string())
                    );
                    id += 1;
                }
            }
        }
    }
    std::fs::write(dir.join("series.csv"), series_csv).expect("series.csv");
    std::fs::write(dir.join("bestguess.csv"), found_csv).expect("bestguess.csv");
    println!(
        "{id} series in {:.1} s; now run tools/otava_compare.py {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
}

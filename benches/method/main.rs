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

use std::time::Instant;

use bestguess::stats::SplitMix64;

mod grid;
mod model;
mod table;
mod tally;

use grid::{awkward, commands, different, gap_cross, gap_stairs, gaps, shapes, slow};
use model::{medians, Cell, Dist, Drift, Order, Rng};
use table::{row, HEADER};
use tally::{pct, run_config};

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

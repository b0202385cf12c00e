//! Benchmark of the figures: `--export-html` and `--export-svg` on a
//! million runs.
//!
//! Run with `cargo bench --bench figures`. Targets: with
//! 1,000,000 runs the HTML page is under 5 MB and the export takes under
//! 2 s. Two scenarios:
//!
//! * 4 commands × 250,000 runs, interleaved (round-robin sequence numbers),
//!   lognormal times with a warm-up and a slow drift, 0.1 % failed runs and
//!   a few timed-out runs;
//! * 1 command × 1,000,000 runs, times spanning three decades (log axes),
//!   with zeros.
//!
//! For each: the time to write the HTML page from a finished analysis
//! (what `--export-html` adds), the time of the four standalone SVG files
//! (`--export-svg`), the sizes, and for reference the time of the analysis
//! itself (every metric's summary and the ranking), which the reports need
//! anyway (timed once). Export times are the median of 3 repetitions;
//! data generation is not timed. A plain `main` (harness = false), figures printed as text.

use std::time::{Duration, Instant};

use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::{Catalogue, Dataset, Metric, RunRecord};
use bestguess::export::Format;
use bestguess::figure::{Figure, Input};
use bestguess::stats::SplitMix64;

fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (rng.uniform(), rng.uniform());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// `commands` × `runs` records, interleaved; `time(rng, command, round)`
/// gives each run's total CPU time in µs.
fn dataset(
    commands: usize,
    runs: usize,
    mut time: impl FnMut(&mut SplitMix64, usize, usize) -> i64,
) -> Dataset {
    let mut rng = SplitMix64::new(42);
    let mut records = Vec::with_capacity(commands * runs);
    let mut seq = 0u64;
    let zeros = Catalogue::new()
        .metrics()
        .fold(RunRecord::default(), |r, m| r.with(m, 0));
    for round in 0..runs {
        for c in 0..commands {
            seq += 1;
            let total = time(&mut rng, c, round).max(0);
            let failed = rng.uniform() < 0.001;
            let timed_out = failed && rng.uniform() < 0.05;
            records.push(
                RunRecord {
                    command: format!("command {c}"),
                    shell: "/bin/sh".into(),
                    batch: c as u64 + 1,
                    exit_code: if timed_out { 137 } else { i32::from(failed) },
                    signal: timed_out.then_some(9),
                    timed_out,
                    sequence: Some(seq),
                    start_unix_us: Some(1_795_430_096_000_000 + seq as i64 * 3000),
                    ..zeros.clone()
                }
                .with(Metric::USER, total * 3 / 4)
                .with(Metric::SYSTEM, total - total * 3 / 4)
                .with(Metric::WALL, total + 150)
                .with(
                    Metric::MAXRSS,
                    2_000_000 + (rng.uniform() * 100_000.0) as i64,
                )
                .with(Metric::VOLUNTARY_CSW, 2)
                .with(Metric::INVOLUNTARY_CSW, (rng.uniform() * 10.0) as i64),
            );
        }
    }
    Dataset::from_records(records)
}

fn median_of_3(mut f: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    t.sort();
    t[1]
}

fn scenario(name: &str, dataset: &Dataset) {
    let runs = dataset.run_count();
    // Timed once: with complete rounds it is far slower than the export.
    let start = Instant::now();
    let analysis = Analysis::new(dataset, RankingSettings::default()).unwrap();
    let analysis_time = start.elapsed();
    let mut page = Vec::new();
    let html_time = median_of_3(|| {
        page.clear();
        Format::Html.write(&analysis, &mut page).unwrap();
    });
    let mut sizes = Vec::new();
    let svg_time = median_of_3(|| {
        sizes.clear();
        let input = Input::new(&analysis);
        for f in Figure::ALL {
            let mut out = Vec::new();
            f.write(&input, &mut out).unwrap();
            sizes.push((f.name(), out.len()));
        }
    });
    println!("{name}: {runs} runs");
    println!(
        "  analysis (every summary + ranking): {:>8.3} s   (not part of the export)",
        analysis_time.as_secs_f64()
    );
    println!(
        "  --export-html:                      {:>8.3} s   page {:.1} kB  (targets: < 2 s, < 5 MB)",
        html_time.as_secs_f64(),
        page.len() as f64 / 1000.0
    );
    println!(
        "  --export-svg (4 files):             {:>8.3} s   {}",
        svg_time.as_secs_f64(),
        sizes
            .iter()
            .map(|(n, s)| format!("{n} {:.1} kB", *s as f64 / 1000.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(page.len() < 5_000_000, "the page is too large");
}

fn main() {
    let four = dataset(4, 250_000, |rng, c, round| {
        let median = [2000.0, 2100.0, 2600.0, 4000.0][c];
        let warmup = if round < 50 { 1.5 } else { 1.0 };
        let drift = 1.0 + 0.1 * round as f64 / 250_000.0;
        (median * warmup * drift * (0.15 * normal(rng)).exp()).round() as i64
    });
    scenario("4 commands × 250,000 runs, interleaved", &four);
    drop(four);
    let wide = dataset(1, 1_000_000, |rng, _, _| {
        if rng.uniform() < 0.01 {
            0
        } else {
            (10f64.powf(1.0 + 3.0 * rng.uniform())).round() as i64
        }
    });
    scenario(
        "1 command × 1,000,000 runs over three decades, with zeros",
        &wide,
    );
}

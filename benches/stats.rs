//! Benchmark of the full statistical analysis of an experiment.
//!
//! Run with `cargo bench --bench stats`. For every command it builds a
//! [`Sample`] and a [`Summary`] of each of six metrics (total CPU, user,
//! system, wall, max RSS, context switches; synthetic integer data shaped
//! like real measurements, with ties and outliers), then ranks the commands
//! by total CPU time (Mann–Whitney, Hodges–Lehmann shift, its confidence
//! interval, Holm). Two scenarios, with their targets:
//!
//! * 2 commands × 1,000,000 runs: under 2 s and under 500 MB peak RSS;
//! * 10 commands × 100,000 runs: under 2 s.
//!
//! A third figure, without a target, shows the worst case of the shift
//! selection: two commands of 1,000,000 runs whose values are all distinct
//! (fractional, unlike real measurements), ranking only.
//!
//! Data generation is not timed. Peak RSS is the process's high-water mark
//! (VmHWM in /proc/self/status) after each scenario; the first scenario
//! runs first so its figure is its own. A plain `main` (harness = false):
//! no benchmarking crate, figures printed as text.

use std::time::{Duration, Instant};

use bestguess::analysis::RankingSettings;
use bestguess::stats::{rank, Sample, SplitMix64, Summary, Verdict};

/// SplitMix64 plus Box–Muller: enough randomness for synthetic data.
struct Rng(SplitMix64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0.uniform()
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// Lognormal with the given median and log-sd, rounded to an integer.
    fn lognormal(&mut self, median: f64, sigma: f64) -> i64 {
        (median * (sigma * self.normal()).exp()).round() as i64
    }
}

/// One command's raw columns, integers as the raw CSV stores them.
struct Runs {
    user: Vec<i64>,
    system: Vec<i64>,
    wall: Vec<i64>,
    max_rss: Vec<i64>,
    context_switches: Vec<i64>,
}

fn generate(rng: &mut Rng, runs: usize, slowdown: f64) -> Runs {
    let mut r = Runs {
        user: Vec::with_capacity(runs),
        system: Vec::with_capacity(runs),
        wall: Vec::with_capacity(runs),
        max_rss: Vec::with_capacity(runs),
        context_switches: Vec::with_capacity(runs),
    };
    for _ in 0..runs {
        // About 1% of runs are disturbed: 2–10 times slower.
        let disturbed = if rng.uniform() < 0.01 {
            2.0 + 8.0 * rng.uniform()
        } else {
            1.0
        };
        let user = (rng.lognormal(8_000.0 * slowdown, 0.08) as f64 * disturbed) as i64;
        let system = rng.lognormal(1_500.0, 0.25);
        r.user.push(user);
        r.system.push(system);
        r.wall.push(user + system + rng.lognormal(400.0, 0.5));
        // Pages of 4 KiB: few distinct values, heavy ties.
        r.max_rss
            .push(4096 * (2_000 + (rng.uniform() * 12.0) as i64));
        r.context_switches
            .push((rng.uniform() * rng.uniform() * 30.0) as i64);
    }
    r
}

fn sample_of(values: impl Iterator<Item = i64>) -> Sample {
    Sample::new(values.map(|v| v as f64).collect()).expect("synthetic data are finite")
}

/// What the analysis stage does: summaries of every metric of every
/// command, then the ranking of total CPU time. Returns the ranking's
/// winner count and a checksum so nothing is optimised away.
fn analyse(commands: &[Runs]) -> (usize, f64) {
    let mut checksum = 0.0;
    let mut totals = Vec::with_capacity(commands.len());
    for c in commands {
        let total = sample_of(c.user.iter().zip(&c.system).map(|(u, s)| u + s));
        checksum += Summary::of(&total).quantiles.median;
        for column in [&c.user, &c.system, &c.wall, &c.max_rss, &c.context_switches] {
            let summary = Summary::of(&sample_of(column.iter().copied()));
            checksum += summary.mode;
        }
        totals.push(total);
    }
    let ranking =
        rank(&totals, &RankingSettings::default().rule()).expect("default settings are valid");
    for e in &ranking.entries {
        if let Some(c) = &e.comparison {
            checksum += c.contrast.estimate
                + c.contrast.low
                + c.classic.map_or(0.0, |k| k.mann_whitney.p_value);
        }
        if matches!(e.verdict, Verdict::Slower) {
            checksum += 1.0;
        }
    }
    (ranking.winners(), checksum)
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn scenario(commands: usize, runs: usize, repeats: usize) -> Duration {
    let mut rng = Rng(SplitMix64::new(0xBE57_6E55 + commands as u64));
    let data: Vec<Runs> = (0..commands)
        .map(|i| generate(&mut rng, runs, 1.0 + 0.01 * i as f64))
        .collect();
    let mut best = Duration::MAX;
    for _ in 0..repeats {
        let start = Instant::now();
        let (winners, checksum) = analyse(&data);
        let elapsed = start.elapsed();
        best = best.min(elapsed);
        println!(
            "  {commands} commands x {runs} runs: {:.3} s (winner group {winners}, checksum {checksum:.1})",
            elapsed.as_secs_f64()
        );
    }
    best
}

/// Ranking two commands whose values are all distinct: every run is its
/// own row and column of the difference matrix.
fn worst_case_ranking(runs: usize) -> Duration {
    let mut rng = Rng(SplitMix64::new(0xD15_7111C7));
    let mut distinct = |median: f64| {
        let values = (0..runs).map(|_| rng.lognormal(median, 0.1) as f64 + rng.uniform());
        Sample::new(values.collect()).expect("finite")
    };
    let samples = [distinct(8_000.0), distinct(8_100.0)];
    let start = Instant::now();
    let ranking =
        rank(&samples, &RankingSettings::default().rule()).expect("default settings are valid");
    let elapsed = start.elapsed();
    let shift = ranking.entries[1]
        .comparison
        .map_or(0.0, |c| c.contrast.estimate);
    println!(
        "  worst case: estimate {shift:.4} in {:.3} s",
        elapsed.as_secs_f64()
    );
    elapsed
}

fn main() {
    println!("stats benchmark: 6 metrics summarised per command + ranking of total CPU time");
    let a = scenario(2, 1_000_000, 3);
    let rss_a = peak_rss_mib();
    println!(
        "2 x 1,000,000: best {:.3} s (target < 2 s); peak RSS {} (target < 500 MB)",
        a.as_secs_f64(),
        rss_a.map_or("unknown".into(), |m| format!("{m:.0} MiB")),
    );
    let b = scenario(10, 100_000, 3);
    println!("10 x 100,000: best {:.3} s (target < 2 s)", b.as_secs_f64());
    let w = worst_case_ranking(1_000_000);
    println!(
        "worst case, 2 x 1,000,000 distinct values, ranking only: {:.3} s",
        w.as_secs_f64()
    );
    println!(
        "peak RSS of the whole benchmark: {}",
        peak_rss_mib().map_or("unknown".into(), |m| format!("{m:.0} MiB"))
    );
}

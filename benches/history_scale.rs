//! The history at scale, inside one process (`bench/history.sh` drives
//! it; BENCHMARKS.md, "History at scale").
//!
//! * `fill STORE N` appends N experiments of 5 commands × 100 runs to the
//!   SQLite store through the library's own append, ten experiments per
//!   commit, and writes each experiment's raw CSV file (as `bestguess -o`
//!   writes it) to standard output as a frame: its length as 8 bytes
//!   little-endian, then the bytes (`bench/gzip_frames.py` sums their
//!   gzipped sizes).
//! * `append STORE REPS` times the opening of the store and `REPS`
//!   appends of one more experiment (the store's own work: one
//!   transaction, no process start, no git).
//! * `report STORE REPS [COMMAND]` times what `bestreport --history`
//!   does for one benchmark (`COMMAND`) or all, on the default metric:
//!   the store's query and read, the series (unpacking, each point's
//!   median and interval, the change points), and the change points
//!   alone.
//! * `raw K` writes experiment K's raw CSV file to standard output (for
//!   timing `bestreport --history-import`, the whole program).
//!
//! The values are a small command's times (lognormal), memory and
//! counts, in complete rounds in random order, with a 5 % step in user
//! time at experiment 5,000; ten experiments per commit.

use std::io::Write;
use std::time::Instant;

use bestguess::data::{Dataset, Metric, RawCsvWriter, RunRecord};
use bestguess::history::series::History;
use bestguess::history::sqlite::SqliteStore;
use bestguess::history::{Experiment, Filter, GitState, Machine, Store};
use bestguess::stats::changepoint::{self, Settings};
use bestguess::stats::SplitMix64;

const COMMANDS: usize = 5;
const RUNS: usize = 100;
/// The store's size the step is placed by: the fill's N.
const STEP_AT: usize = 5_000;

struct Rng(SplitMix64);

impl Rng {
    fn normal(&mut self) -> f64 {
        let (u, v) = (1.0 - self.0.uniform(), 1.0 - self.0.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
    fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        (mu + sigma * self.normal()).exp()
    }
    fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.0.uniform()).ln()
    }
}

/// Experiment `k`: its runs, and its raw CSV file.
fn experiment(k: usize) -> (Dataset, Vec<u8>) {
    let mut rng = Rng(SplitMix64::new(
        20_261_207 ^ (k as u64).wrapping_mul(0x9e37),
    ));
    let mut start = 1_795_000_000_000_000i64 + k as i64 * 600_000_000;
    let level = if k >= STEP_AT { 1.05 } else { 1.0 };
    let mut records = Vec::with_capacity(COMMANDS * RUNS);
    let mut sequence = 0;
    for _ in 0..RUNS {
        let mut order: Vec<usize> = (0..COMMANDS).collect();
        rng.0.shuffle(&mut order);
        for c in order {
            sequence += 1;
            let user = (rng.lognormal(6.8, 0.35) * level) as i64 + 200 * c as i64;
            let system = rng.lognormal(7.2, 0.3) as i64;
            let wall = user + system + rng.exponential(150.0) as i64;
            let (vcsw, icsw) = (rng.exponential(1.0) as i64, rng.exponential(3.0) as i64);
            start += wall + 40;
            records.push(
                RunRecord {
                    command: format!("cmd{} --flag {c}", c + 1),
                    batch: c as u64 + 1,
                    sequence: Some(sequence),
                    start_unix_us: Some(start),
                    ..RunRecord::default()
                }
                .with(Metric::USER, user)
                .with(Metric::SYSTEM, system)
                .with(Metric::TOTAL, user + system)
                .with(Metric::WALL, wall)
                .with(Metric::MAXRSS, 4096 * (700 + rng.exponential(6.0) as i64))
                .with(Metric::MINOR_FAULTS, 120 + rng.exponential(4.0) as i64)
                .with(Metric::MAJOR_FAULTS, 0)
                .with(Metric::VOLUNTARY_CSW, vcsw)
                .with(Metric::INVOLUNTARY_CSW, icsw)
                .with(Metric::TOTAL_CSW, vcsw + icsw),
            );
        }
    }
    records.sort_by_key(|r| (r.batch, r.sequence));
    let dataset = Dataset::from_records(records.iter().cloned());
    let mut raw = RawCsvWriter::new(Vec::new(), &dataset.catalogue).expect("header");
    for r in &records {
        raw.write_run(r).expect("row");
    }
    (dataset, raw.into_inner())
}

fn record(k: usize, machine: &Machine) -> (Experiment, Vec<u8>) {
    let (dataset, raw) = experiment(k);
    let git = GitState {
        // Ten experiments per commit; a hash-like name, so that reports
        // show commits apart.
        commit: Some(format!(
            "{:016x}{:024x}",
            SplitMix64::new(k as u64 / 10).next_u64(),
            k / 10
        )),
        ..GitState::default()
    };
    let start = 1_795_000_000_000_000i64 + k as i64 * 600_000_000;
    let e = Experiment::of(
        &dataset,
        start,
        git,
        machine.clone(),
        "{}".into(),
        "history_scale".into(),
    );
    (e, raw)
}

fn open(path: &str) -> SqliteStore {
    SqliteStore::open(path).unwrap_or_else(|e| panic!("{e}"))
}

fn fill(path: &str, n: usize) {
    let mut store = open(path);
    let machine = Machine::current();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let started = Instant::now();
    for k in 0..n {
        let (e, raw) = record(k, &machine);
        store.append(&e).unwrap_or_else(|e| panic!("{e}"));
        out.write_all(&(raw.len() as u64).to_le_bytes())
            .and_then(|()| out.write_all(&raw))
            .expect("standard output");
        if (k + 1) % 1000 == 0 {
            eprintln!(
                "{} experiments, {:.0} s",
                k + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// The median, least and largest of `ms`.
fn summary(what: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{what}: median {:.1} ms, min {:.1}, max {:.1} ({} times)",
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1],
        ms.len()
    );
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn append(path: &str, reps: usize) {
    let machine = Machine::current();
    let (mut opens, mut appends) = (Vec::new(), Vec::new());
    for i in 0..reps {
        let (e, _) = record(1_000_000 + i, &machine);
        let t = Instant::now();
        let mut store = open(path);
        opens.push(ms(t));
        let t = Instant::now();
        store.append(&e).unwrap_or_else(|e| panic!("{e}"));
        appends.push(ms(t));
    }
    summary("open the store", opens);
    summary("append one experiment", appends);
}

fn report(path: &str, reps: usize, command: Option<String>) {
    let settings = Settings::default();
    let filter = Filter {
        command,
        ..Filter::default()
    };
    let (mut loads, mut builds, mut cps, mut totals) = (vec![], vec![], vec![], vec![]);
    for _ in 0..reps {
        let start = Instant::now();
        let mut store = open(path);
        let rows = store.load(&filter).unwrap_or_else(|e| panic!("{e}"));
        loads.push(ms(start));
        let t = Instant::now();
        let history = History::build(&rows, Some("cpu"), &settings).expect("history");
        builds.push(ms(t));
        totals.push(ms(start));
        let t = Instant::now();
        for b in &history.benchmarks {
            let medians: Vec<f64> = b.points.iter().map(|p| p.median).collect();
            let builds = bestguess::history::series::new_builds(&b.points);
            std::hint::black_box(changepoint::change_points(&medians, &builds, &settings));
        }
        cps.push(ms(t));
        if totals.len() == 1 {
            for b in &history.benchmarks {
                println!(
                    "{}: {} points, {} change points",
                    b.command,
                    b.points.len(),
                    b.changes.len()
                );
            }
        }
    }
    summary("query and read", loads);
    summary("series (unpack, intervals, change points)", builds);
    summary("  of which change points", cps);
    summary("total", totals);
}

fn main() {
    // `cargo bench` adds `--bench`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let number = |i: usize| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("argument {i}: a number"))
    };
    match args.first().map(String::as_str) {
        Some("fill") => fill(&args[1], number(2)),
        Some("append") => append(&args[1], number(2)),
        Some("report") => report(&args[1], number(2), args.get(3).cloned()),
        Some("raw") => std::io::stdout()
            .write_all(&experiment(number(1)).1)
            .expect("standard output"),
        _ => eprintln!("usage: history_scale fill STORE N | append STORE REPS | report STORE REPS [COMMAND] | raw K"),
    }
}

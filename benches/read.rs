//! Benchmark of reading raw files into a dataset (what `bestreport` does
//! before any statistics): `Dataset::read_files` on the files given.
//!
//! Run with `cargo bench --bench read -- FILE...` (e.g. the inputs
//! `bench/scale.sh` generates, kept with `SCALE_DIR`). Prints the best and
//! the median elapsed time of `READ_REPEAT` (default 5) reads and the runs
//! read; CPU time and peak memory: run the built benchmark under
//! `/usr/bin/time -v`. A plain `main` (harness = false).

use std::time::Instant;

use bestguess::data::Dataset;

fn main() {
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if files.is_empty() {
        eprintln!("usage: cargo bench --bench read -- FILE...");
        return;
    }
    let repeat: usize = std::env::var("READ_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let mut times = Vec::new();
    let mut runs = 0;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let dataset = match Dataset::read_files(&files) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        times.push(start.elapsed().as_secs_f64());
        runs = dataset.run_count();
        drop(dataset);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "read {} file(s), {runs} runs: best {:.3} s, median {:.3} s ({} reads)",
        files.len(),
        times[0],
        times[times.len() / 2],
        times.len()
    );
}

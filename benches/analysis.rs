//! The statistics alone at scale: `Analysis::new` (every summary, the
//! ranking, the diagnostics) on a raw file read once, timed in-process
//! (elapsed, and CPU time of all threads from /proc/self/stat), so that
//! reading and exporting do not blur the figure. bench/scale.sh measures
//! end to end.
//!
//!     cargo bench --bench analysis -- FILE.csv [REPEAT]
//!
//! e.g. on the inputs bench/scale.sh generates (2x1M.csv, 2x1M-rounds.csv).
use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::Dataset;
use std::time::Instant;

/// User + system CPU seconds of this process so far (all threads).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(path) = args.first() else {
        eprintln!("usage: cargo bench --bench analysis -- FILE.csv [REPEAT]");
        return;
    };
    let repeat: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let dataset = match Dataset::read_files(std::slice::from_ref(path)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    for _ in 0..repeat {
        let (start, cpu) = (Instant::now(), cpu_seconds());
        match Analysis::new(&dataset, RankingSettings::default()) {
            Ok(a) => println!(
                "analysis of {} commands: {:.3} s elapsed, {:.2} s CPU",
                a.commands.len(),
                start.elapsed().as_secs_f64(),
                cpu_seconds() - cpu
            ),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
}

//! How an experiment was made: what the JSON export's `metadata` object
//! records, so that a result can be understood (and an order reproduced)
//! long after the run.
//!
//! The application gathers it (command line, clocks, platform, the plan);
//! exports only write it, so writers stay pure. Every field is optional in
//! the sense that a report on saved files does not know the machine the
//! runs were made on, and says so with `null` rather than guessing.

/// Everything known about how the data was made and reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metadata {
    /// The program that wrote the export: `bestguess` or `bestreport`.
    pub program: String,
    /// Its command line, program name first, as given.
    pub command_line: Vec<String>,
    /// When the experiment started and ended, µs since the Unix epoch
    /// (for `bestreport`: when the report was made).
    pub start_unix_us: Option<i64>,
    pub end_unix_us: Option<i64>,
    /// The machine the runs were made on (unknown for saved files).
    pub platform: Option<Platform>,
    /// The experiment's plan (unknown for saved files).
    pub experiment: Option<Experiment>,
    /// The files a report read, in order.
    pub sources: Vec<Source>,
    /// Hardware counters and custom metrics measured, by name.
    pub counters: Vec<String>,
    /// Controls of the environment in force (name, value), e.g. CPU
    /// pinning.
    pub controls: Vec<(String, String)>,
    /// The notes and warnings `-Q` kept off standard error, in order, each
    /// on one line.
    pub messages: Vec<String>,
}

/// The machine: operating system, architecture, kernel release, CPU.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Platform {
    /// As `uname -s` says it (`Linux`).
    pub os: String,
    /// As `uname -m` says it (`x86_64`).
    pub architecture: String,
    /// Kernel release (`uname -r`), if known.
    pub kernel: Option<String>,
    /// CPU model name, if known.
    pub cpu_model: Option<String>,
    /// Logical CPUs available, if known.
    pub cpus: Option<usize>,
}

/// The plan of an experiment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Experiment {
    pub runs: u64,
    pub warmup: u64,
    /// `sequential`, `interleave` or `random`.
    pub order: String,
    /// The seed of a random order, given with `--seed` or drawn; with it
    /// and the number of commands and runs the order can be rebuilt
    /// (`docs/JSON.md`).
    pub seed: Option<u64>,
    /// Whether the seed was given with `--seed` (otherwise drawn).
    pub seed_given: bool,
    /// The `-s` string, empty for none.
    pub shell: String,
    /// `--timeout`, in seconds.
    pub timeout_s: Option<f64>,
    /// `-i`: failed runs do not stop the experiment.
    pub ignore_failure: bool,
    /// The commands, in input order.
    pub commands: usize,
    /// `--runs auto`: why it stopped (`decided`, `max_runs`, `max_time`),
    /// and its budget (`--max-runs`, `--max-time` in seconds).
    pub stopped: Option<&'static str>,
    pub budget: Option<(u64, f64)>,
}

/// One input file of a report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The path as given (`<stdin>` for `-`).
    pub path: String,
    /// The short tag shown next to commands that occur in several files.
    pub tag: String,
    /// The format it was read as.
    pub format: String,
}

/// `unix_us` as an RFC 3339 UTC timestamp with microseconds,
/// e.g. `2026-11-23T10:50:00.123456Z`.
pub fn rfc3339(unix_us: i64) -> String {
    let micros = unix_us.rem_euclid(1_000_000);
    let (y, m, d, rest) = crate::report::units::utc_fields(unix_us);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{micros:06}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000000Z");
        // `date -u -d @1795431000` = Mon Nov 23 10:50:00 UTC 2026.
        assert_eq!(
            rfc3339(1_795_431_000_123_456),
            "2026-11-23T10:50:00.123456Z"
        );
        assert_eq!(rfc3339(951_782_400_000_000), "2000-02-29T00:00:00.000000Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999999Z");
    }
}

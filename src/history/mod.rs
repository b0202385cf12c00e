//! Performance history: every experiment kept in a store, benchmarks
//! followed across commits, change points found, and the regression gate
//! held against history.
//!
//! `bestguess --history` appends each experiment (every run of every
//! command, its settings and provenance) to a store ([`store`]): an
//! SQLite file by default ([`sqlite`]), a PostgreSQL server for a shared
//! history ([`postgres`]), with one schema ([`schema`]). `bestreport
//! --history` reads it back as benchmarks — a command × metric × machine —
//! each a series of experiments in commit order ([`series`]), segmented
//! at its change points (`crate::stats::changepoint`), rendered for the
//! terminal, Markdown, JSON and HTML ([`render`], [`html`]).
//! `--fail-if-slower` with `--history` compares each command with its own
//! history since its last change point ([`gate`]).
//!
//! A store that cannot be used never costs an experiment: the caller
//! writes the raw file and the reports first, and a failed append is one
//! line and an exit status ([`crate::app`]).

pub mod gate;
pub mod html;
pub mod pack;
pub mod postgres;
pub mod provenance;
pub mod record;
pub mod render;
pub mod schema;
pub mod series;
pub mod sqlite;
pub mod store;

pub use provenance::{GitState, Machine};
pub use record::{CommandRecord, Experiment, Runs};
pub use series::{Benchmark, History, Point};
pub use store::{Filter, Location, Store, StoreError};

/// Inserts an experiment, returning its id (`$n` placeholders; SQLite's
/// are made from them by [`schema::Dialect::sql`]).
const INSERT_EXPERIMENT: &str = "INSERT INTO bestguess_experiments
    (time_us, git_commit, branch, dirty, commit_time_us, tool_version, machine_id, settings, source)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";

/// Inserts one command's runs.
const INSERT_COMMAND: &str = "INSERT INTO bestguess_commands
    (experiment_id, position, name, command, shell, parameters, runs, failed, metrics, data)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// For the tests of appends cut short or overlapping: with
/// `BESTGUESS_TEST_PAUSE_IN_APPEND` set to a path, an append creates that
/// file once everything is written and before it commits, then waits
/// `BESTGUESS_TEST_PAUSE_SECONDS` (default 120) for the test to kill it
/// or to start another append.
fn pause_for_tests() {
    if let Some(path) = std::env::var_os("BESTGUESS_TEST_PAUSE_IN_APPEND") {
        let seconds = std::env::var("BESTGUESS_TEST_PAUSE_SECONDS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or(120.0);
        let _ = std::fs::write(path, b"appending\n");
        std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
    }
}

/// What `--history` asks of a program, as the command line gave it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryOptions {
    /// The store named on the command line (else `BESTGUESS_HISTORY`,
    /// else the default file).
    pub store: Option<String>,
    /// `--commit REV` and `--branch NAME` (for recording and importing;
    /// `--branch` also filters a report).
    pub commit: Option<String>,
    pub branch: Option<String>,
    /// `bestreport --history-import`: the files to load.
    pub import: Vec<String>,
    /// The report's filters (`--command`, `--machine`, `--since`).
    pub command: Option<String>,
    pub machine: Option<String>,
    pub since_us: Option<i64>,
    /// `--fail-if-slower PCT` with `bestguess --history`.
    pub fail_if_slower: Option<f64>,
}

/// What became of an experiment's history: whether the gate failed, and
/// the line that says what was not recorded (or not gated) and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub regression: bool,
    pub problem: Option<String>,
    pub recorded: Option<i64>,
}

/// After `bestguess --history`'s experiment: with `--fail-if-slower`, the
/// gate against the history as it was (written to `out`), then the
/// append. Never fails: a store that cannot be read or written becomes
/// the [`Outcome`]'s problem.
#[allow(clippy::too_many_arguments)]
pub fn after_experiment(
    options: &HistoryOptions,
    dataset: &crate::data::Dataset,
    start_us: i64,
    settings: String,
    metric: crate::data::Metric,
    alpha: f64,
    out: &mut dyn std::io::Write,
) -> Outcome {
    let location = Location::resolve(options.store.as_deref());
    let shown = location.shown();
    let mut outcome = Outcome::default();
    let mut store = match location.open() {
        Ok(s) => s,
        Err(e) => {
            outcome.problem = Some(format!("not recorded in the history: {e}"));
            return outcome;
        }
    };
    let machine = Machine::current();
    if let Some(margin) = options.fail_if_slower {
        let filter = Filter {
            machine: Some(machine.fingerprint()),
            ..Filter::default()
        };
        let gated = store
            .load(&filter)
            .and_then(|rows| gate::compare(&rows, dataset, metric, alpha, margin));
        match gated {
            Ok(report) => {
                let _ = writeln!(out).and_then(|()| gate::write(&report, out));
                outcome.regression = report.failed();
            }
            Err(e) => {
                outcome.problem = Some(format!("not gated against the history: {e}"));
            }
        }
    }
    let git = GitState::current(options.commit.as_deref(), options.branch.as_deref());
    let experiment = Experiment::of(
        dataset,
        start_us,
        git,
        machine,
        settings,
        "bestguess".into(),
    );
    match store.append(&experiment) {
        Ok(id) => outcome.recorded = Some(id),
        Err(e) => {
            let line = format!("not recorded in the history {shown}: {e}");
            outcome.problem = Some(match outcome.problem.take() {
                Some(p) => format!("{p}; {line}"),
                None => line,
            });
        }
    }
    outcome
}

/// `bestreport --history-import`: each file is one experiment of
/// `--commit`, measured on this machine. Returns one line per file.
pub fn import(
    options: &HistoryOptions,
    command_line: &[String],
) -> Result<Vec<String>, StoreError> {
    let location = Location::resolve(options.store.as_deref());
    let mut store = location.open()?;
    let machine = Machine::current();
    let git = GitState::current(options.commit.as_deref(), options.branch.as_deref());
    let mut lines = Vec::new();
    for file in &options.import {
        let dataset = crate::data::Dataset::read_files(std::slice::from_ref(file))
            .map_err(|e| StoreError(e.to_string()))?;
        if dataset.is_empty() {
            return Err(StoreError(format!("{file}: no runs to import")));
        }
        // The first run's start, where the file recorded it; else now.
        let start = dataset
            .commands
            .iter()
            .flat_map(|c| (0..c.len()).filter_map(move |i| c.start_unix_us(i)))
            .min()
            .unwrap_or_else(crate::measure::sys::realtime_us);
        let settings = serde_json::json!({ "command_line": command_line, "imported": file });
        let experiment = Experiment::of(
            &dataset,
            start,
            git.clone(),
            machine.clone(),
            settings.to_string(),
            file.clone(),
        );
        let id = store.append(&experiment)?;
        lines.push(format!(
            "{file}: {} run{} of {} command{} recorded as experiment {id} of commit {} in {}",
            dataset.run_count(),
            if dataset.run_count() == 1 { "" } else { "s" },
            dataset.commands.len(),
            if dataset.commands.len() == 1 { "" } else { "s" },
            render::short(git.commit.as_deref()),
            location.shown()
        ));
    }
    Ok(lines)
}

/// `bestreport --history`: the history the filters select, with its
/// change points.
pub fn load(
    options: &HistoryOptions,
    metric: Option<&str>,
    alpha: f64,
) -> Result<(History, String), StoreError> {
    let location = Location::resolve(options.store.as_deref());
    let mut store = location.open()?;
    let filter = Filter {
        command: options.command.clone(),
        machine: options.machine.clone(),
        since_us: options.since_us,
        branch: options.branch.clone(),
    };
    let rows = store.load(&filter)?;
    let settings = crate::stats::changepoint::Settings {
        interval_alpha: alpha,
        ..crate::stats::changepoint::Settings::default()
    };
    Ok((History::build(&rows, metric, &settings)?, location.shown()))
}

/// `--since DATE`: `YYYY-MM-DD`, optionally followed by ` HH:MM[:SS]` or
/// `THH:MM[:SS]` (UTC), as µs since the Unix epoch.
pub fn parse_date(text: &str) -> Option<i64> {
    let t = text.trim().trim_end_matches('Z');
    let (day, time) = match t.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (t, None),
    };
    let mut d = day.split('-');
    let y: i64 = d.next()?.parse().ok()?;
    let m: i64 = d.next()?.parse().ok()?;
    let dd: i64 = d.next()?.parse().ok()?;
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&dd) {
        return None;
    }
    let mut secs = 0i64;
    if let Some(time) = time {
        let parts: Vec<&str> = time.split(':').collect();
        if !(2..=3).contains(&parts.len()) {
            return None;
        }
        let h: i64 = parts[0].parse().ok().filter(|h| (0..24).contains(h))?;
        let mi: i64 = parts[1].parse().ok().filter(|m| (0..60).contains(m))?;
        let s: i64 = match parts.get(2) {
            Some(s) => s.parse().ok().filter(|s| (0..61).contains(s))?,
            None => 0,
        };
        secs = h * 3600 + mi * 60 + s;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + dd - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + secs) * 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_and_read_back() {
        let t = parse_date("2026-11-23 11:11:55").unwrap();
        assert_eq!(t, 1_795_432_315_000_000);
        assert_eq!(render::rfc3339(t), "2026-11-23T11:11:55Z");
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2026-11-23T11:11Z"), Some(1_795_432_260_000_000));
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-01-01 25:00",
            "yesterday",
            "2026-01-01-02",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }
}

//! Hyperfine's JSON exports: 1.x's `times` arrays and 2.0's
//! `measurements` objects, in seconds (kept as read) and bytes.

use serde_json::Value as Json;

use super::exit_code;
use crate::data::csv_read::RowSink;
use crate::data::formats::{micros, SecondsBy};
use crate::data::metric::{Metric, MetricDef, Unit, Value};
use crate::data::RunRecord;

/// Hyperfine 2.0's per-run metric keys for BestGuess's metrics.
const HYPERFINE_KEYS: [(&str, Metric); 4] = [
    ("time_wall_clock", Metric::WALL),
    ("time_user", Metric::USER),
    ("time_system", Metric::SYSTEM),
    ("memory_peak_resident", Metric::MAXRSS),
];

/// Hyperfine 2.0's hardware counters (counts).
const HYPERFINE_COUNTERS: [&str; 5] = [
    "cpu_cycles",
    "instructions",
    "cache_references",
    "cache_misses",
    "branch_misses",
];

/// What a measurement of a Hyperfine layout is in.
#[derive(Clone, Copy)]
enum In {
    /// Seconds, written by this tool.
    Seconds(SecondsBy),
    /// Bytes or counts.
    Units,
}

/// A measurement at `what`, as µs ([`micros`]) or bytes or counts
/// ([`bytes`]); an error if it is too large to be one.
fn converted(
    v: &Json,
    at: &dyn Fn(&str) -> String,
    what: &str,
    unit: In,
) -> Result<Option<Value>, String> {
    let x = measured(v, at, what)?;
    let value = match unit {
        In::Units => bytes(x),
        In::Seconds(by) => micros(x, by),
    };
    match value {
        Some(value) => Ok(Some(value)),
        None => Err(format!(
            "{} is {v}, too large for a measurement of a run",
            at(what)
        )),
    }
}

/// Hyperfine 1.x's runs: `times` (seconds), with `memory_usage_byte`
/// and `exit_codes` where the file has them.
pub(super) fn hyperfine1_runs(
    result: &Json,
    base: &RunRecord,
    by: SecondsBy,
    at: &dyn Fn(&str) -> String,
) -> Result<Vec<RunRecord>, String> {
    let times = array(result, "times", at)?;
    let memory = result.get("memory_usage_byte").and_then(Json::as_array);
    let codes = result.get("exit_codes").and_then(Json::as_array);
    // One value per run in each array: a longer or shorter one cannot be
    // matched to the runs (a failed run's code could be dropped).
    for (key, values) in [("memory_usage_byte", memory), ("exit_codes", codes)] {
        if let Some(values) = values.filter(|v| v.len() != times.len()) {
            return Err(format!(
                "{} has {} values for the {} runs of .times: give one per run",
                at(&format!(".{key}")),
                values.len(),
                times.len()
            ));
        }
    }
    let mut runs = Vec::with_capacity(times.len());
    for (i, t) in times.iter().enumerate() {
        let mut run = base.clone();
        let wall = converted(t, at, &format!(".times[{i}]"), In::Seconds(by))?;
        run.metrics.set(Metric::WALL, wall);
        if let Some(m) = memory.and_then(|m| m.get(i)) {
            let rss = converted(m, at, &format!(".memory_usage_byte[{i}]"), In::Units)?;
            run.metrics.set(Metric::MAXRSS, rss);
        }
        // Without `exit_codes` (before 1.13) every run counts as a success,
        // its exit code absent (a re-export writes none).
        match codes {
            Some(c) => set_exit(
                &mut run,
                exit_code(c.get(i), at, &format!(".exit_codes[{i}]"))?,
            ),
            None => run.no_exit_code = true,
        }
        runs.push(run);
    }
    Ok(runs)
}

/// Hyperfine 2.0's runs: each of `measurements` an object of the
/// metrics' `{"value": …, "unit": …}`, its counters and its exit code.
pub(super) fn hyperfine2_runs(
    result: &Json,
    base: &RunRecord,
    sink: &mut impl RowSink,
    by: SecondsBy,
    at: &dyn Fn(&str) -> String,
) -> Result<Vec<RunRecord>, String> {
    let measurements = array(result, "measurements", at)?;
    let mut runs = Vec::with_capacity(measurements.len());
    for (i, m) in measurements.iter().enumerate() {
        let mut run = base.clone();
        for (key, metric) in HYPERFINE_KEYS {
            let Some(entry) = m.get(key) else {
                continue;
            };
            // `{"value": …, "unit": …}` (or null: not measured); a bare
            // number is refused, not dropped without a word.
            let Some(v) = entry.get("value") else {
                if entry.is_null() {
                    continue;
                }
                return Err(format!(
                    "{} is {entry}, not an object {{\"value\": …, \"unit\": …}} as Hyperfine 2.0 writes it",
                    at(&format!(".measurements[{i}].{key}"))
                ));
            };
            // Hyperfine 2.0 writes times in seconds and memory in bytes;
            // a value in any other unit would be read wrong by a factor.
            let expected = if metric == Metric::MAXRSS {
                "byte"
            } else {
                "second"
            };
            match m[key].get("unit") {
                None => {}
                Some(u) if u.as_str() == Some(expected) => {}
                Some(u) => {
                    return Err(format!(
                        "{} is {u}, not \"{expected}\" as Hyperfine 2.0 writes it; \
                         give values in {expected}s",
                        at(&format!(".measurements[{i}].{key}.unit"))
                    ))
                }
            }
            let what = format!(".measurements[{i}].{key}.value");
            let unit = if metric == Metric::MAXRSS {
                In::Units
            } else {
                In::Seconds(by)
            };
            let value = converted(v, at, &what, unit)?;
            run.metrics.set(metric, value);
        }
        for key in HYPERFINE_COUNTERS {
            let Some(v) = m.get(key).and_then(|v| v.get("value")) else {
                continue;
            };
            let value = converted(v, at, &format!(".measurements[{i}].{key}.value"), In::Units)?;
            let metric = sink
                .catalogue()
                .register(MetricDef::appended(key, Unit::Count))
                .map_err(|e| format!("{}: {e}", at("")))?;
            run.metrics.set(metric, value);
        }
        match m.get("exit_code") {
            // A measurement without the key: as Hyperfine before exit codes.
            None => run.no_exit_code = true,
            v => set_exit(
                &mut run,
                exit_code(v, at, &format!(".measurements[{i}].exit_code"))?,
            ),
        }
        runs.push(run);
    }
    Ok(runs)
}

fn bytes(value: f64) -> Option<Value> {
    (value.is_finite() && value.abs() < 9e18).then(|| Value::Int(value.round() as i64))
}

/// A Hyperfine run's exit code into `run`: the code, or for `None` (a
/// signal ended the run) none, and a signal whose number is not known.
fn set_exit(run: &mut RunRecord, code: Option<i32>) {
    match code {
        Some(code) => run.exit_code = code,
        None => {
            run.no_exit_code = true;
            run.signal_unknown = true;
        }
    }
}

fn array<'a>(
    result: &'a Json,
    key: &str,
    at: &dyn Fn(&str) -> String,
) -> Result<&'a Vec<Json>, String> {
    result
        .get(key)
        .and_then(Json::as_array)
        .ok_or_else(|| format!("{} has no \"{key}\" array", at("")))
}

/// A measurement at `what`: a number, not negative.
fn measured(v: &Json, at: &dyn Fn(&str) -> String, what: &str) -> Result<f64, String> {
    let x = v
        .as_f64()
        .ok_or_else(|| format!("{} is {v}, not a number", at(what)))?;
    if x < 0.0 {
        return Err(format!(
            "{} is {v}, below 0; no measurement of a run is negative",
            at(what)
        ));
    }
    Ok(x)
}

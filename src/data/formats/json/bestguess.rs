//! BestGuess's own JSON export: every run's integers in
//! `bestguess.per_run`, read exactly, by the catalogue's JSON keys.

use serde_json::Value as Json;

use super::{exit_code, text};
use crate::data::csv_read::RowSink;
use crate::data::metric::{Metric, MetricDef, Source, Unit, Value};
use crate::data::RunRecord;

/// A run field of BestGuess's own (exit code, signal, sequence, start
/// time, timeout) into `runs`; `false` for a metric's key.
fn run_field(
    runs: &mut [RunRecord],
    key: &str,
    values: &[Json],
    at: &dyn Fn(&str) -> String,
) -> Result<bool, String> {
    let int = |v: &Json| v.as_i64();
    match key {
        "exit_code" => {
            for (i, (run, v)) in runs.iter_mut().zip(values).enumerate() {
                let what = format!(".bestguess.per_run.exit_code[{i}]");
                // `null`: none was recorded (BestGuess writes a
                // signal's run as 128 + the signal).
                match v {
                    Json::Null => run.no_exit_code = true,
                    v => run.exit_code = exit_code(Some(v), at, &what)?.unwrap_or_default(),
                }
            }
        }
        "signal" => {
            for (i, (run, v)) in runs.iter_mut().zip(values).enumerate() {
                run.signal = match v {
                    Json::Null => None,
                    v => Some(
                        int(v)
                            .and_then(|s| i32::try_from(s).ok())
                            .filter(|&s| s > 0)
                            .ok_or_else(|| {
                                format!(
                                    "{} is {v}, not a signal number (or null)",
                                    at(&format!(".bestguess.per_run.signal[{i}]"))
                                )
                            })?,
                    ),
                };
            }
        }
        "signal_unknown" => {
            for (i, (run, v)) in runs.iter_mut().zip(values).enumerate() {
                run.signal_unknown = v.as_bool().ok_or_else(|| {
                    format!(
                        "{} is {v}, not true or false",
                        at(&format!(".bestguess.per_run.signal_unknown[{i}]"))
                    )
                })?;
            }
        }
        "sequence" => {
            for (run, v) in runs.iter_mut().zip(values) {
                run.sequence = v.as_u64();
            }
        }
        "start_unix_us" => {
            for (run, v) in runs.iter_mut().zip(values) {
                run.start_unix_us = int(v);
            }
        }
        "timed_out" => {
            for (i, (run, v)) in runs.iter_mut().zip(values).enumerate() {
                run.timed_out = v.as_bool().ok_or_else(|| {
                    format!(
                        "{} is {v}, not true or false",
                        at(&format!(".bestguess.per_run.timed_out[{i}]"))
                    )
                })?;
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The values of `metric` (key `key`, one per run) into `runs`, checked
/// as a raw CSV would hold them.
fn metric_values(
    runs: &mut [RunRecord],
    values: &[Json],
    key: &str,
    metric: Metric,
    def: &MetricDef,
    at: &dyn Fn(&str) -> String,
) -> Result<(), String> {
    // As a raw CSV would hold them: a measurement of a run (a
    // time, bytes, a count) is not negative, a metric of
    // integers has no fraction; whole µs are integers, finer
    // ones (cbdr's, Hyperfine's ns) reals.
    let measured = def.unit != Unit::Number;
    let integer = def.integer && !measured;
    // A measurement beyond what a raw CSV's integer holds
    // (2^63) is refused: read as a real, the summary CSVs,
    // whose columns are integers, would print i64::MAX instead.
    let expected = match (measured, integer) {
        (true, _) => "a number from 0 to below 2^63 (what a raw CSV holds)",
        (false, true) => "an integer",
        (false, false) => "a number within ±1e100",
    };
    for (i, (run, v)) in runs.iter_mut().zip(values).enumerate() {
        let value = match v {
            Json::Null => None,
            v => {
                let value = match (v.as_i64(), v.as_f64()) {
                    (Some(x), _) => Some(Value::Int(x)),
                    (None, Some(x)) if !integer => Value::real(x),
                    _ => None,
                }
                .filter(|value| {
                    !measured
                        || match value {
                            Value::Int(x) => *x >= 0,
                            real => (0.0..i64::MAX as f64).contains(&real.as_f64()),
                        }
                });
                Some(value.ok_or_else(|| {
                    format!(
                        "{} is {v}, not {expected}",
                        at(&format!(".bestguess.per_run.{key}[{i}]"))
                    )
                })?)
            }
        };
        run.metrics.set(metric, value);
    }
    Ok(())
}

/// The totals against their parts: a total too large to represent is
/// refused (as a raw CSV's row), and one the file gives must be the sum.
fn check_totals(
    runs: &[RunRecord],
    totals: &[(&String, Metric, [Metric; 2], &Vec<Json>)],
    catalogue: &crate::data::Catalogue,
    at: &dyn Fn(&str) -> String,
) -> Result<(), String> {
    // A total that does not fit, whether the file gives it or not: as a
    // raw CSV's row, refused, not read as a run without CPU time.
    let sums: Vec<(Metric, Metric, Metric)> = (catalogue.metrics())
        .filter_map(|m| match catalogue.def(m).source {
            Source::Sum(a, b) => Some((m, a, b)),
            _ => None,
        })
        .collect();
    for (metric, a, b) in sums {
        let overflows = |run: &RunRecord| {
            let has = |m| run.metrics.get(m).is_some();
            has(a) && has(b) && !has(metric)
        };
        if let Some(i) = runs.iter().position(overflows) {
            let (a, b) = (&catalogue.def(a).key, &catalogue.def(b).key);
            return Err(format!(
                "{} + {b}[{i}] is too large to represent; fix or remove that run",
                at(&format!(".bestguess.per_run.{a}[{i}]"))
            ));
        }
    }
    for &(key, metric, parts, values) in totals {
        let [a, b] = parts.map(|m| catalogue.def(m).key.clone());
        for (i, (run, v)) in runs.iter().zip(values).enumerate() {
            if v.is_null() {
                continue;
            }
            let what = || at(&format!(".bestguess.per_run.{key}[{i}]"));
            if parts.iter().any(|&m| run.metrics.get(m).is_none()) {
                return Err(format!(
                    "{} is {v}, but {a}[{i}] or {b}[{i}] is absent: {key} is their sum, \
                     not read on its own; give both or remove {key}",
                    what()
                ));
            }
            // (A sum too large was refused above.)
            let Some(sum) = run.metrics.get(metric) else {
                continue;
            };
            let agrees = match (sum, v.as_i64()) {
                (Value::Int(s), Some(x)) => s == x,
                (sum, _) => v
                    .as_f64()
                    .is_some_and(|x| (x - sum.as_f64()).abs() <= 1e-9 * x.abs().max(1.0)),
            };
            if !agrees {
                return Err(format!(
                    "{} is {v}, but {a} + {b} is {}; correct the value or remove {key}",
                    what(),
                    sum.as_f64()
                ));
            }
        }
    }
    Ok(())
}

/// BestGuess's own export: the integers of `bestguess.per_run`, by the
/// catalogue's JSON keys (a key it does not know is registered as a
/// metric of the command's own).
pub(super) fn bestguess_runs(
    result: &Json,
    base: &mut RunRecord,
    sink: &mut impl RowSink,
    units: &[(&str, Unit)],
    at: &dyn Fn(&str) -> String,
) -> Result<Vec<RunRecord>, String> {
    let own = result
        .get("bestguess")
        .ok_or_else(|| format!("{} has no \"bestguess\" object", at("")))?;
    base.name = text(own.get("name"));
    base.shell = text(own.get("shell"));
    if let Some(b) = own.get("batch").and_then(Json::as_u64) {
        base.batch = b;
    }
    let per_run = own
        .get("per_run")
        .and_then(Json::as_object)
        .ok_or_else(|| format!("{} has no \"bestguess.per_run\" object", at("")))?;
    let n = own
        .get("runs")
        .and_then(Json::as_u64)
        .map(|n| n as usize)
        .or_else(|| {
            per_run
                .values()
                .filter_map(Json::as_array)
                .map(Vec::len)
                .max()
        })
        .unwrap_or(0);
    let mut runs = vec![base.clone(); n];
    // Derived totals, checked against their parts once every key is read.
    let mut totals = Vec::new();
    for (key, values) in per_run {
        let values = values.as_array().ok_or_else(|| {
            format!(
                "{} is not an array",
                at(&format!(".bestguess.per_run.{key}"))
            )
        })?;
        if values.len() != n {
            return Err(format!(
                "{} has {} values for {n} runs",
                at(&format!(".bestguess.per_run.{key}")),
                values.len()
            ));
        }
        if run_field(&mut runs, key, values, at)? {
            continue;
        }
        let catalogue = sink.catalogue();
        let metric = match catalogue.find(key) {
            Some(m) => m,
            None => {
                let unit = units
                    .iter()
                    .find(|(k, _)| k == key)
                    .map_or(Unit::Number, |u| u.1);
                catalogue
                    .register(MetricDef::appended(key, unit))
                    .map_err(|e| format!("{}: {e}", at("")))?
            }
        };
        // Derived metrics (totals) are recomputed, not stored;
        // what the file says of them is checked below.
        if let Source::Sum(a, b) = catalogue.def(metric).source {
            totals.push((key, metric, [a, b], values));
            continue;
        }
        let def = catalogue.def(metric);
        metric_values(&mut runs, values, key, metric, def, at)?;
    }
    check_totals(&runs, &totals, sink.catalogue(), at)?;
    Ok(runs)
}

//! JSON exports: BestGuess's own, Hyperfine 2.0's and Hyperfine 1.x's.
//!
//! Told apart by content: a result with `bestguess.per_run` is BestGuess's
//! (every run's integers, read exactly); otherwise `measurements` is
//! Hyperfine 2.0's, `times` Hyperfine 1.x's, and a document with neither
//! is Hyperfine 2.0's if it says `schema_version` 2. A BestGuess export
//! written with `--json-runs` without `bestguess` is read by the Hyperfine
//! layout it has, as Hyperfine's own file would be; one with no per-run
//! layout at all (`--json-runs none`) holds summaries only, and is refused
//! with what to export instead.
//! Each result becomes one command (batch = its position), its runs in
//! file order. Hyperfine ran each command's runs one after another, in
//! result order, so that is the runs' sequence. Hyperfine's times in
//! seconds are kept as read (µs could not hold every one; see
//! [`super::SecondsBy`]), BestGuess's own whole µs as integers. A run
//! Hyperfine records without an exit code (`null`: a signal ended it) is a
//! failed run ended by a signal whose number is not known: it has neither
//! an exit code nor a signal number, and none is made up for it.

use serde_json::Value as Json;

use super::{micros, InputFormat, SecondsBy};
use crate::data::csv_read::RowSink;
use crate::data::error::DataError;
use crate::data::metric::{Metric, MetricDef, Source, Unit, Value};
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

/// The per-run layouts a document may carry, each result's key(s).
const HYPERFINE1_LAYOUT: [&str; 3] = ["times", "memory_usage_byte", "exit_codes"];
const HYPERFINE2_LAYOUT: &str = "measurements";

/// The document without the per-run layouts it will not be read by: with
/// `bestguess.per_run` in some result, neither Hyperfine layout; else, with
/// `measurements`, not 1.x's arrays. Each result is first split into its
/// keys' raw text (borrowed, no copy), and only the keys kept are parsed:
/// the whole document as values had taken 2.2 GB and 7 s for a 163 MB
/// export of 2 × 200,000 runs (every Hyperfine 2.0 measurement an object
/// of objects). `None` when the document is not an object whose
/// `results` is an array of objects (or not JSON): then it is read whole.
fn without_unused_layouts(bytes: &[u8]) -> Option<Json> {
    use serde_json::value::RawValue;
    use std::collections::BTreeMap;
    type Raw<'a> = BTreeMap<String, &'a RawValue>;
    let top: Raw<'_> = serde_json::from_slice(bytes).ok()?;
    let results: Vec<&RawValue> = serde_json::from_str(top.get("results")?.get()).ok()?;
    let results: Vec<Raw<'_>> = results
        .iter()
        .map(|r| serde_json::from_str(r.get()).ok())
        .collect::<Option<_>>()?;
    let parse = |raw: &RawValue| serde_json::from_str::<Json>(raw.get()).ok();
    // Each result's `bestguess` (always kept, `per_run` inside it), parsed
    // once: where it is, is what decides the layouts read.
    let own: Vec<Option<Json>> = results
        .iter()
        .map(|r| match r.get("bestguess") {
            Some(b) => parse(b).map(Some),
            None => Some(None),
        })
        .collect::<Option<_>>()?;
    let per_run = own
        .iter()
        .any(|b| b.as_ref().is_some_and(|b| b.get("per_run").is_some()));
    let measurements = results.iter().any(|r| r.contains_key(HYPERFINE2_LAYOUT));
    let unused = |key: &str| {
        (per_run && (key == HYPERFINE2_LAYOUT || HYPERFINE1_LAYOUT.contains(&key)))
            || (!per_run && measurements && HYPERFINE1_LAYOUT.contains(&key))
    };
    let mut doc = serde_json::Map::new();
    for (key, raw) in &top {
        if key != "results" {
            doc.insert(key.clone(), parse(raw)?);
        }
    }
    let mut kept = Vec::with_capacity(results.len());
    for (result, own) in results.iter().zip(own) {
        let mut object = serde_json::Map::new();
        for (key, raw) in result {
            if key != "bestguess" && !unused(key) {
                object.insert(key.clone(), parse(raw)?);
            }
        }
        if let Some(own) = own {
            object.insert("bestguess".to_owned(), own);
        }
        kept.push(Json::Object(object));
    }
    doc.insert("results".to_owned(), Json::Array(kept));
    Some(Json::Object(doc))
}

/// Reads a whole JSON document into `sink`.
pub fn read_into(
    bytes: &[u8],
    file: &str,
    sink: &mut impl RowSink,
) -> Result<InputFormat, DataError> {
    let fail = |message: String| DataError::Format {
        file: file.to_owned(),
        message,
    };
    // A UTF-8 byte-order mark is no part of the JSON (as in a raw CSV).
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let doc: Json = match without_unused_layouts(bytes) {
        Some(doc) => doc,
        // Not the shape of an export (or not JSON): the whole document,
        // for the messages below.
        None => serde_json::from_slice(bytes)
            .map_err(|e| fail(format!("not valid JSON ({e}); {}", super::ACCEPTED)))?,
    };
    let Some(results) = doc.get("results").and_then(Json::as_array) else {
        return Err(fail(format!(
            "JSON without a \"results\" array, so not a BestGuess or Hyperfine export; {}",
            super::ACCEPTED
        )));
    };
    let format = format_of(&doc, results).map_err(fail)?;
    let by = seconds_by(&doc);
    let units = units_of(&doc);
    let mut sequence = 0u64;
    let mut experiment = None;
    let mut batches = std::collections::HashSet::new();
    for (k, result) in results.iter().enumerate() {
        let at = |what: &str| format!("results[{k}]{what}");
        // Results BestGuess read from different files, or from different
        // experiments of one file (`bestguess.source`), are kept apart
        // as the files were: a new group, never paired by round with the
        // ones before.
        // So are the results of two exports put in one document: in one
        // experiment each batch number appears once, so a number seen
        // again starts a new group. (Any order is one experiment's: results
        // sorted by their medians had been split into one group each, and
        // their rounds compared as independent samples.)
        let source = result.pointer("/bestguess/source");
        let batch = result.pointer("/bestguess/batch").and_then(Json::as_u64);
        if k > 0 && (source != experiment || batch.is_some_and(|b| batches.contains(&b))) {
            sink.new_group();
            batches.clear();
        }
        batches.extend(batch);
        origin(source, sink);
        experiment = source;
        let command = result
            .get("command")
            .and_then(Json::as_str)
            .ok_or_else(|| fail(format!("{} has no \"command\" string", at(""))))?;
        let mut base = RunRecord {
            command: command.to_owned(),
            batch: k as u64 + 1,
            ..RunRecord::default()
        };
        base.parameters = parameters(result, &at).map_err(fail)?;
        let runs = match format {
            InputFormat::BestGuessJson => {
                bestguess_runs(result, &mut base, sink, &units, &at).map_err(fail)?
            }
            InputFormat::HyperfineJson2 => {
                base.name = text(result.get("name"));
                hyperfine2_runs(result, &base, sink, by, &at).map_err(fail)?
            }
            _ => {
                base.name = text(result.get("name"));
                hyperfine1_runs(result, &base, by, &at).map_err(fail)?
            }
        };
        // A command without runs would vanish from every report.
        if runs.is_empty() {
            return Err(fail(format!(
                "{} ('{command}') holds no runs; remove that result or give its runs",
                at("")
            )));
        }
        // The means of user and system time where no run has a value of
        // its own (Hyperfine 1.x keeps only them): kept for a re-export.
        let mean = |key: &str, metric: Metric| -> Result<Option<f64>, DataError> {
            if runs.iter().any(|r| r.metrics.get(metric).is_some()) {
                return Ok(None);
            }
            match result.get(key) {
                None | Some(Json::Null) => Ok(None),
                Some(v) => match v.as_f64().filter(|x| (0.0..9e9).contains(x)) {
                    Some(seconds) => Ok(Some(seconds * 1e6)),
                    None => Err(fail(format!(
                        "{} is {v}, not a mean time in seconds (a number from 0)",
                        at(&format!(".{key}"))
                    ))),
                },
            }
        };
        let means = (mean("user", Metric::USER)?, mean("system", Metric::SYSTEM)?);
        for mut run in runs {
            if run.sequence.is_none() && format != InputFormat::BestGuessJson {
                sequence += 1;
                run.sequence = Some(sequence);
            }
            sink.row(&run, false);
        }
        if means != (None, None) {
            sink.means(means.0, means.1);
        }
    }
    Ok(format)
}

/// Where a result's runs were first read (`bestguess.source`), to tell
/// groups apart by it.
fn origin(source: Option<&Json>, sink: &mut impl RowSink) {
    if let Some(tag) = source
        .and_then(|s| s.get("tag"))
        .and_then(Json::as_str)
        .filter(|t| !t.is_empty())
    {
        match source.and_then(|s| s.get("group")).and_then(Json::as_u64) {
            Some(group) => sink.origin(&format!("{tag}, group {group}")),
            None => sink.origin(tag),
        }
    }
}

/// Whose times in seconds `doc` holds: BestGuess's document (read by a
/// Hyperfine layout) has a top-level `bestguess` object.
fn seconds_by(doc: &Json) -> SecondsBy {
    if doc.get("bestguess").is_some_and(Json::is_object) {
        SecondsBy::BestGuess
    } else {
        SecondsBy::OtherTool
    }
}

/// Which JSON this is, from its keys.
fn format_of(doc: &Json, results: &[Json]) -> Result<InputFormat, String> {
    let has = |key: &str| results.iter().any(|r| r.get(key).is_some());
    // Ours, whatever layouts it carries: it has a top-level `bestguess`.
    let ours = doc.get("bestguess").is_some_and(Json::is_object);
    Ok(
        if results
            .iter()
            .any(|r| r.pointer("/bestguess/per_run").is_some())
        {
            InputFormat::BestGuessJson
        } else if has("measurements") {
            InputFormat::HyperfineJson2
        } else if has("times") {
            InputFormat::HyperfineJson1
        } else if ours && !results.is_empty() {
            return Err(
                "this BestGuess JSON has summaries only, no per-run data; export with \
             --json-runs bestguess (or all) to re-analyse it"
                    .to_owned(),
            );
        } else if doc.get("schema_version").and_then(Json::as_u64) == Some(2) {
            InputFormat::HyperfineJson2
        } else {
            return Err(format!(
                "JSON whose results have neither \"measurements\" nor \"times\", so no per-run \
             data; {}",
                super::ACCEPTED
            ));
        },
    )
}

/// The units of the metrics of BestGuess's own that are not built in
/// (`metadata.units`, written since the units were found lost: a
/// `lat (us)` column came back a plain number, and the report changed).
fn units_of(doc: &Json) -> Vec<(&str, Unit)> {
    doc.pointer("/metadata/units")
        .and_then(Json::as_object)
        .map(|units| {
            units
                .iter()
                .filter_map(|(key, u)| Some((key.as_str(), Unit::from_suffix(u.as_str()?)?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Hyperfine's parameters of a result, as (name, value).
fn parameters(result: &Json, at: &dyn Fn(&str) -> String) -> Result<Vec<(String, String)>, String> {
    // Hyperfine's parameters: `{"n": {"value": "1"}}` (2.0) or
    // `{"n": "1"}` (1.x); a number is taken as written. Anything else
    // (null, an object, a list) is no value to show (`null` had been
    // shown and exported as the string "null").
    // `parameters` itself of another type (a string, a list, null) is
    // refused as its values are (it had been dropped silently).
    let params = match result.get("parameters") {
        None => None,
        Some(Json::Object(params)) => Some(params),
        Some(other) => {
            return Err(format!(
                "{}.parameters is {}; Hyperfine's parameters are an object of name: value",
                at(""),
                match other {
                    Json::Null => "null",
                    Json::Bool(_) => "true or false",
                    Json::String(_) => "a string",
                    Json::Number(_) => "a number",
                    _ => "a list",
                }
            ))
        }
    };
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    params
        .iter()
        .map(|(name, v)| {
            let value = v.get("value").unwrap_or(v);
            match value {
                Json::String(s) => Ok((name.clone(), s.clone())),
                Json::Number(n) => Ok((name.clone(), n.to_string())),
                other => Err(format!(
                    "{}: parameter {name:?} is {}; a parameter's value is a string \
                         (or a number)",
                    at(""),
                    match other {
                        Json::Null => "null",
                        Json::Bool(_) => "true or false",
                        _ => "not a single value",
                    }
                )),
            }
        })
        .collect()
}

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
    // (2^63) had been read as a real, and the summary CSVs,
    // whose columns are integers, printed i64::MAX instead.
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

fn text(v: Option<&Json>) -> String {
    v.and_then(Json::as_str).unwrap_or("").to_owned()
}

fn bytes(value: f64) -> Option<Value> {
    (value.is_finite() && value.abs() < 9e18).then(|| Value::Int(value.round() as i64))
}

/// An exit code at `what`: an integer, or `None` for `null`, a run a
/// signal ended (Hyperfine's spelling). Anything else (`"0"`, `1.5`,
/// `true`, out of range) is refused, not read as a failure.
fn exit_code(
    v: Option<&Json>,
    at: &dyn Fn(&str) -> String,
    what: &str,
) -> Result<Option<i32>, String> {
    match v {
        Some(Json::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .and_then(|c| i32::try_from(c).ok())
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "{} is {v}, not an exit code (an integer, or null for a run a signal ended)",
                    at(what)
                )
            }),
        None => Err(format!("{} is missing", at(what))),
    }
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

fn hyperfine1_runs(
    result: &Json,
    base: &RunRecord,
    by: SecondsBy,
    at: &dyn Fn(&str) -> String,
) -> Result<Vec<RunRecord>, String> {
    let times = array(result, "times", at)?;
    let memory = result.get("memory_usage_byte").and_then(Json::as_array);
    let codes = result.get("exit_codes").and_then(Json::as_array);
    // One value per run in each array: a longer or shorter one cannot be
    // matched to the runs (a failed run's code had been dropped).
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

fn hyperfine2_runs(
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
            // number had been dropped without a word.
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

/// BestGuess's own export: the integers of `bestguess.per_run`, by the
/// catalogue's JSON keys (a key it does not know is registered as a
/// metric of the command's own).
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

fn bestguess_runs(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(doc: &Json, k: usize) -> Vec<String> {
        doc["results"][k]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    #[test]
    fn only_the_layout_that_will_be_read_is_parsed() {
        // Ours with every layout: per_run is read, Hyperfine's are skipped
        // (unparsed: even text that is no layout at all).
        let ours = br#"{"schema_version": 2, "results": [
            {"command": "a", "times": [1], "memory_usage_byte": [2], "exit_codes": [0],
             "measurements": "not looked at", "summary": {}, "bestguess": {"per_run": {}}},
            {"command": "b", "times": [1]}]}"#;
        let doc = without_unused_layouts(ours).unwrap();
        assert_eq!(keys(&doc, 0), ["bestguess", "command", "summary"]);
        assert_eq!(keys(&doc, 1), ["command"]);
        assert_eq!(doc["schema_version"], 2);
        // Hyperfine 2.0 layouts without per_run: 1.x's arrays skipped.
        let two = br#"{"results": [{"command": "a", "times": [1], "measurements": []}]}"#;
        let doc = without_unused_layouts(two).unwrap();
        assert_eq!(keys(&doc, 0), ["command", "measurements"]);
        // Hyperfine 1.x: everything kept.
        let one = br#"{"results": [{"command": "a", "times": [1], "exit_codes": [0]}]}"#;
        let doc = without_unused_layouts(one).unwrap();
        assert_eq!(keys(&doc, 0), ["command", "exit_codes", "times"]);
        // Other shapes are read whole, for their messages.
        for other in [
            &b"[1, 2]"[..],
            b"{\"results\": 3}",
            b"{\"results\": [1]}",
            b"{",
            b"{}",
        ] {
            assert!(without_unused_layouts(other).is_none(), "{other:?}");
        }
    }
}

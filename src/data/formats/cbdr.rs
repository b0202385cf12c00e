//! cbdr's CSV (`cbdr sample`): a `benchmark` column naming the command,
//! then one column per metric, every value in seconds; one row per run, in
//! the order the runs were made (cbdr picks the benchmark of each run at
//! random).
//!
//! `wall_time`, `user_time` and `sys_time` (what `cbdr sample` measures)
//! become BestGuess's wall-clock, user and system time, and so do older
//! cbdr's `wall_clock_millis`, `user_cpu_millis` and `kernel_cpu_millis`,
//! in milliseconds; any other column
//! is a metric of its own, a number in a unit the file does not say (so
//! not labelled seconds), named as in the file (`--metric NAME`).
//! Benchmark names are kept as written; numbers may be padded with blanks. cbdr records no exit codes (it stops at a failing run), so
//! every run counts as a success. Commands are numbered in order of their
//! first run.

use std::collections::HashMap;
use std::io::Read;

use super::{micros, SecondsBy};
use crate::data::csv_read::RowSink;
use crate::data::error::DataError;
use crate::data::metric::{Metric, MetricDef, Unit, Value};
use crate::data::RunRecord;

/// Each column after the benchmark's name: its metric and the seconds in
/// its unit (a benchmark's own figure: a number, registered by its name).
fn columns(
    headers: &csv::StringRecord,
    sink: &mut impl RowSink,
    fail: &dyn Fn(u64, String) -> DataError,
) -> Result<Vec<(Metric, f64)>, DataError> {
    let mut columns = Vec::new();
    for (k, name) in headers.iter().enumerate().skip(1) {
        // Which of two columns of one name the file means cannot be known
        // (the last must not count, without a word).
        if let Some(first) = headers.iter().take(k).position(|h| h == name) {
            return Err(fail(
                1,
                format!(
                    "columns {} and {} are both {name:?}; name each column once",
                    first + 1,
                    k + 1
                ),
            ));
        }
        // Each built-in time with the seconds in one of its unit.
        let metric = match name {
            "wall_time" => (Metric::WALL, 1.0),
            "user_time" => (Metric::USER, 1.0),
            "sys_time" => (Metric::SYSTEM, 1.0),
            "wall_clock_millis" => (Metric::WALL, 1e-3),
            "user_cpu_millis" => (Metric::USER, 1e-3),
            "kernel_cpu_millis" => (Metric::SYSTEM, 1e-3),
            other => {
                // A benchmark's own figure, in a unit cbdr does not record
                // (not seconds): a number named as in the file, as
                // `--custom-metrics` names theirs, so `--metric NAME` finds it.
                let def = MetricDef::appended(other, Unit::Number);
                let metric = sink
                    .catalogue()
                    .register(def)
                    .map_err(|e| fail(1, format!("column {other}: {e}")))?;
                (metric, 1.0)
            }
        };
        // One time under two names (`wall_time` and `wall_clock_millis`):
        // which one counts cannot be known.
        if let Some(first) = columns.iter().position(|&(m, _)| m == metric.0) {
            return Err(fail(
                1,
                format!(
                    "columns {} and {} are both {}; give one of them",
                    first + 2,
                    k + 1,
                    metric.0.label()
                ),
            ));
        }
        columns.push(metric);
    }
    Ok(columns)
}

/// Reads a cbdr CSV into `sink`.
pub fn read_into(input: impl Read, file: &str, sink: &mut impl RowSink) -> Result<(), DataError> {
    let fail = |line: u64, message: String| DataError::Format {
        file: file.to_owned(),
        message: format!("line {line}: {message}"),
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        // Names are kept as written (` a ` and `a` are two benchmarks, as
        // cbdr keeps them); numbers may be padded.
        .trim(csv::Trim::Headers)
        .from_reader(input);
    let headers = reader
        .headers()
        .map_err(|e| fail(1, format!("not a readable CSV header ({e})")))?
        .clone();
    let columns = columns(&headers, sink, &fail)?;
    let mut batches: HashMap<String, u64> = HashMap::new();
    let mut sequence = 0u64;
    for record in reader.records() {
        let record = record.map_err(|e| {
            super::csv_record_error(file, e, "; a cbdr file has the same columns on every line")
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let benchmark = record.get(0).unwrap_or("");
        let next = batches.len() as u64 + 1;
        let batch = *batches.entry(benchmark.to_owned()).or_insert(next);
        sequence += 1;
        let mut run = RunRecord {
            command: benchmark.to_owned(),
            batch,
            sequence: Some(sequence),
            ..RunRecord::default()
        };
        for (k, &(metric, unit)) in columns.iter().enumerate() {
            let field = record.get(k + 1).unwrap_or("").trim();
            if field.is_empty() {
                continue;
            }
            let seconds: f64 = field
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .map(|x: f64| x * unit)
                .ok_or_else(|| {
                    fail(
                        line,
                        format!(
                            "{:?} in column {} is not a number of {}",
                            field,
                            headers.get(k + 1).unwrap_or(""),
                            if unit == 1.0 {
                                "seconds"
                            } else {
                                "milliseconds"
                            }
                        ),
                    )
                })?;
            let value = if metric.builtin().is_some() {
                // A time of a run, as a raw CSV's: 0 or more, under 9e15 µs.
                micros(seconds, SecondsBy::OtherTool)
                    .filter(|_| seconds >= 0.0)
                    .ok_or_else(|| {
                        fail(
                            line,
                            format!(
                                "{:?} in column {} is not a time a run can take (0 or more \
                                 seconds, under 9e9)",
                                field,
                                headers.get(k + 1).unwrap_or("")
                            ),
                        )
                    })?
            } else {
                Value::real(seconds).ok_or_else(|| {
                    fail(
                        line,
                        format!(
                            "{:?} in column {} is beyond ±1e100, the largest magnitude the \
                             statistics take",
                            field,
                            headers.get(k + 1).unwrap_or("")
                        ),
                    )
                })?
            };
            run.metrics.set(metric, Some(value));
        }
        sink.row(&run, false);
    }
    if sequence == 0 {
        return Err(DataError::NoDataRows {
            file: file.to_owned(),
        });
    }
    Ok(())
}

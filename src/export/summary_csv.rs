//! The summary CSV (`--export-csv`): one row of order statistics per command.
//!
//! The layout is C BestGuess's, kept as a compatibility contract: the
//! same 70 columns in the same order under the same header, byte for byte,
//! including its unit typos (the voluntary context switch mode, p95 and p99
//! are labelled "(μs)" although they are counts). Scripts and spreadsheets
//! that read C BestGuess's file read this one.
//!
//! Three things are deliberately not copied from C BestGuess:
//!
//! * Text fields are quoted (RFC 4180) when they contain a comma, a quote or
//!   a line break; C BestGuess only doubled quotes, so a comma in a
//!   command shifted every later column.
//! * The Shell column is each command's own shell from the data; C
//!   BestGuess wrote the current `-s` value, so `bestreport` always left it
//!   empty.
//! * Values are Hyndman–Fan type 7 quantiles and the half-sample mode (see
//!   `stats`), rounded to the nearest integer of the metric's unit (µs,
//!   bytes or counts, halves away from zero), where C BestGuess picked
//!   order statistics without interpolation. p95 and p99 are empty below 20
//!   and 100 runs, as in C BestGuess; a metric the data lacks leaves its
//!   eight cells empty.

use std::io;

use crate::analysis::Analysis;
use crate::data::Metric;

/// The header, exactly as C BestGuess writes it (typos included).
pub const HEADER: [&str; 70] = [
    "Command",
    "Shell",
    "Runs (ct)",
    "Failed (ct)",
    "Total mode (μs)",
    "Total min (μs)",
    "Total Q1 (μs)",
    "Total median (μs)",
    "Total Q3 (μs)",
    "Total p95 (μs)",
    "Total p99 (μs)",
    "Total max (μs)",
    "User mode (μs)",
    "User min (μs)",
    "User Q1 (μs)",
    "User median (μs)",
    "User Q3 (μs)",
    "User p95 (μs)",
    "User p99 (μs)",
    "User max (μs)",
    "System mode (μs)",
    "System min (μs)",
    "System Q1 (μs)",
    "System median (μs)",
    "System Q3 (μs)",
    "System p95 (μs)",
    "System p99 (μs)",
    "System max (μs)",
    "Max RSS mode (bytes)",
    "Max RSS min (bytes)",
    "Max RSS Q1 (bytes)",
    "Max RSS median (bytes)",
    "Max RSS Q3 (bytes)",
    "Max RSS p95 (bytes)",
    "Max RSS p99 (bytes)",
    "Max RSS max (bytes)",
    "Vol Ctx Sw mode (μs)",
    "Vol Ctx Sw min (ct)",
    "Vol Ctx Sw Q1 (ct)",
    "Vol Ctx Sw median (ct)",
    "Vol Ctx Sw Q3 (ct)",
    "Vol Ctx Sw p95 (μs)",
    "Vol Ctx Sw p99 (μs)",
    "Vol Ctx Sw max (ct)",
    "Invol Ctx Sw mode (ct)",
    "Invol Ctx Sw min (ct)",
    "Invol Ctx Sw Q1 (ct)",
    "Invol Ctx Sw median (ct)",
    "Invol Ctx Sw Q3 (ct)",
    "Invol Ctx Sw p95 (ct)",
    "Invol Ctx Sw p99 (ct)",
    "Invol Ctx Sw max (ct)",
    "Total Ctx Sw mode (ct)",
    "Total Ctx Sw min (ct)",
    "Total Ctx Sw Q1 (ct)",
    "Total Ctx Sw median (ct)",
    "Total Ctx Sw Q3 (ct)",
    "Total Ctx Sw p95 (ct)",
    "Total Ctx Sw p99 (ct)",
    "Total Ctx Sw max (ct)",
    "Wall mode (μs)",
    "Wall min (μs)",
    "Wall Q1 (μs)",
    "Wall median (μs)",
    "Wall Q3 (μs)",
    "Wall p95 (μs)",
    "Wall p99 (μs)",
    "Wall max (μs)",
    "Name",
    "Batch",
];

/// The metrics of the frozen columns, in C BestGuess's order (eight
/// columns each). Metrics added to the catalogue do not change this file.
const METRICS: [Metric; 8] = [
    Metric::TOTAL,
    Metric::USER,
    Metric::SYSTEM,
    Metric::MAXRSS,
    Metric::VOLUNTARY_CSW,
    Metric::INVOLUNTARY_CSW,
    Metric::TOTAL_CSW,
    Metric::WALL,
];

/// Writes the header and one row per command, in dataset order.
pub fn write(analysis: &Analysis<'_>, out: &mut dyn io::Write) -> io::Result<()> {
    let mut csv = super::csv_writer(out);
    csv.write_record(HEADER)?;
    for (i, stats) in analysis.commands.iter().enumerate() {
        let runs = analysis.runs(i);
        let mut row: Vec<String> = Vec::with_capacity(HEADER.len());
        // Tagged with its source where the data come from several, as
        // every report and export tells the same command apart.
        row.push(
            runs.tagged(runs.with_parameters(runs.command.as_str().into()))
                .into_owned(),
        );
        row.push(runs.shell.clone());
        row.push(stats.runs.to_string());
        row.push(stats.failed.to_string());
        for metric in METRICS {
            match stats.metric(metric) {
                Some(s) => {
                    let q = &s.quantiles;
                    row.extend([s.mode, q.min, q.q1, q.median, q.q3].map(integer));
                    row.extend([q.p95, q.p99].map(|p| p.map(integer).unwrap_or_default()));
                    row.push(integer(q.max));
                }
                // Not measured (e.g. read from a file that lacks it).
                None => row.extend(std::iter::repeat(String::new()).take(8)),
            }
        }
        row.push(runs.name.clone());
        row.push(runs.batch.to_string());
        csv.write_record(&row)?;
    }
    csv.flush()
}

/// `x` rounded to the nearest integer (halves away from zero).
fn integer(x: f64) -> String {
    // Statistics of a valid sample are finite and within ±1e100; the cast
    // saturates rather than wrapping should that ever change.
    format!("{}", x.round() as i64)
}

//! Reading what other tools write: `bestreport` takes a file in any format
//! it knows and tells them apart by their content, not their name.
//!
//! Accepted, each to per-run records (a metric a format does not have is
//! absent, never 0):
//!
//! * BestGuess's raw CSV (`bestguess -o`) and the C tool's 13-column files:
//!   header `Command,Shell,Name,Batch,…` ([`super::csv_read`]); the C
//!   tool's older files (10 or 11 columns in other orders), by their
//!   columns' names ([`c_tool`]).
//! * BestGuess's JSON export (`--export-json`): every run's integers from
//!   `bestguess.per_run` ([`json`]).
//! * Hyperfine 2.0's JSON (`schema_version` 2): per run wall, user and
//!   system time, peak memory, hardware counters and the exit code from
//!   `measurements` ([`json`]).
//! * Hyperfine 1.x's JSON: per run wall time (`times`), memory
//!   (`memory_usage_byte`, 1.19 on) and exit code (`exit_codes`); 1.x
//!   keeps only the mean of user and system time, so those are absent.
//! * cbdr's CSV (`cbdr sample`): `benchmark,` then one column per metric,
//!   in seconds ([`cbdr`]).
//!
//! Summary files (Hyperfine's `--export-csv`, 1.x's and 2.0's, BestGuess's `--export-csv`
//! and `--hyperfine-csv`) hold no runs: they are refused with a message
//! that says which file to give instead. Anything else is refused with one
//! line naming the accepted formats.

use std::io::{self, Read};

use super::chunks::BoundedLines;
use super::csv_read::{read_raw_csv_into, RowSink};
use super::error::{self, DataError, RowProblem};
use super::metric::Value;

pub mod c_tool;
pub mod cbdr;
pub mod json;

/// A CSV record that could not be read, as the readers of other tools'
/// CSV files say it: the file's I/O error as such, anything else at its
/// line, followed by what that format expects (`expects`).
fn csv_record_error(file: &str, e: csv::Error, expects: &str) -> DataError {
    let line = e.position().map_or(0, |p| p.line());
    let said = e.to_string();
    match e.into_kind() {
        // Reading failed (or a line had no end): not the format's.
        csv::ErrorKind::Io(cause) => DataError::Read {
            file: file.to_owned(),
            cause,
        },
        _ => DataError::Format {
            file: file.to_owned(),
            message: format!("line {line}: {said}{expects}"),
        },
    }
}

/// Who wrote a file's times in seconds, which says how they are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SecondsBy {
    /// BestGuess (its JSON read by a Hyperfine layout), which writes `n`
    /// whole µs as `n / 10⁶`: such a time reads back as the integer.
    BestGuess,
    /// Another tool (Hyperfine, cbdr): every time is kept as written
    /// ([`Value::Seconds`]), so that what is computed from it as that tool
    /// computes it (Hyperfine's `time_cpu`, user + system) and every
    /// export are that tool's numbers, digit for digit. (Its times are
    /// not whole µs as BestGuess writes them: Hyperfine's wall clock has
    /// ns, its shell correction subtracts a mean, and its CPU times are
    /// µs × 10⁻⁶, which is not always µs / 10⁶.)
    OtherTool,
}

/// A time in seconds as a value in µs, losing nothing (see [`SecondsBy`]):
/// `None` from 9·10¹⁵ µs (285 years) on, as for an integer in a raw CSV.
fn micros(seconds: f64, by: SecondsBy) -> Option<Value> {
    let us = seconds * 1e6;
    if !us.is_finite() || us.abs() >= 9e15 {
        return None;
    }
    let whole = us.round();
    if by == SecondsBy::BestGuess && whole / 1e6 == seconds {
        Some(Value::Int(whole as i64))
    } else {
        Value::seconds(seconds)
    }
}

/// What a file was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// BestGuess's raw CSV, or the C tool's.
    RawCsv,
    BestGuessJson,
    HyperfineJson2,
    HyperfineJson1,
    CbdrCsv,
}

impl InputFormat {
    /// A short name, as recorded in the JSON export's `metadata.sources`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::RawCsv => "bestguess-raw-csv",
            InputFormat::BestGuessJson => "bestguess-json",
            InputFormat::HyperfineJson2 => "hyperfine-2-json",
            InputFormat::HyperfineJson1 => "hyperfine-1-json",
            InputFormat::CbdrCsv => "cbdr-csv",
        }
    }
}

/// The formats `bestreport` reads, for messages.
pub const ACCEPTED: &str = "bestreport reads BestGuess raw CSV (bestguess -o) or the C \
    tool's raw files, BestGuess or Hyperfine (1.x, 2.0) JSON (--export-json), and cbdr \
    CSV (cbdr sample)";

/// How much of the start of a file is looked at to tell its format.
const SNIFF: usize = 64 * 1024;

/// Whether `header` has the C tool's names in the places of its
/// first thirteen columns, from `Shell` to `Wall clock (us)` (the first
/// name is free): the raw CSV read by position.
fn positional_header(header: &str) -> bool {
    let fields: Vec<&str> = header
        .split(',')
        .map(|f| f.trim().trim_matches('"').trim())
        .collect();
    let n = super::columns::C_TOOL_ROW_FIELDS;
    fields.len() >= n
        && (1..n).all(|i| fields[i].eq_ignore_ascii_case(super::columns::C_TOOL_COLUMNS[i]))
}

/// The fields of the first data row of `text` (a file's start: its first
/// line is the header), if there is one.
fn first_row_fields(text: &str) -> Option<usize> {
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let row = rows
        .records()
        .skip(1)
        .map_while(Result::ok)
        .find(|r| r.iter().any(|f| !f.trim().is_empty()))?;
    Some(row.len())
}

/// The refusal of a file whose header's first cell is a web address: the
/// C tool's statistics test files (a textbook example's numbers, to check
/// its Mann–Whitney test against), whose rows are not runs it measured.
/// When the rest of the line names raw data columns, the file reads as
/// runs with `Command` in the address's place, and the message says so.
fn statistics_file(first_line: &str) -> String {
    let (address, rest) = first_line.split_once(',').unwrap_or((first_line, ""));
    let address = error::excerpt(address.trim().trim_matches('"').as_bytes());
    let as_raw = format!("Command,{rest}");
    let readable = positional_header(&as_raw)
        || matches!(c_tool::header(&as_raw, None), c_tool::Header::Columns(_));
    let what_to_do = if readable {
        "to read its rows as runs anyway, replace the web address with Command"
    } else {
        "bestreport reads raw data, as bestguess -o writes it (header \
         Command,Shell,Name,Batch,…, one row per run)"
    };
    format!(
        "line 1 starts with a web address ({address}): this is a statistics test file of the C \
         BestGuess (the numbers of the textbook example at that address), not raw data of runs; \
         {what_to_do}"
    )
}

/// A first line that says the file holds no runs (a spreadsheet's
/// separator hint, a summary CSV of Hyperfine or of BestGuess): the message
/// that names the file to give instead.
fn not_runs(first_line: &str) -> Option<String> {
    let lower = first_line.to_ascii_lowercase();
    let first_field = lower.split(',').next().unwrap_or("").trim_matches('"');
    // A spreadsheet's separator hint (Excel writes `sep=,` above the
    // header): said so, since the general advice, to add a header, would
    // name one the file has.
    if lower.starts_with("sep=") {
        return Some(format!(
            "line 1 ({first_line}) is a spreadsheet's separator hint, not the header; \
             delete that line, so that the file starts with the header line \
             Command,Shell,Name,Batch,… (and keep commas as separators)"
        ));
    }
    if lower.starts_with("command,mean,stddev,median,user,system,min,max") {
        return Some(
            "this is Hyperfine's summary CSV (--export-csv), which has no per-run times; \
             give bestreport the file Hyperfine writes with --export-json instead"
                .to_owned(),
        );
    }
    // Hyperfine 2.0's: `command,time_wall_clock_unit,time_wall_clock_mean,…`.
    if first_field == "command"
        && (lower.split(',').nth(1)).is_some_and(|f| f.trim().trim_matches('"').ends_with("_unit"))
        && lower.contains("_mean,")
    {
        return Some(
            "this is Hyperfine 2.0's summary CSV (--export-csv), which has no per-run values; \
             give bestreport the file Hyperfine writes with --export-json instead"
                .to_owned(),
        );
    }
    if lower.starts_with("command,mode,iqr") {
        return Some(
            "this is BestGuess's Hyperfine-style summary (--hyperfine-csv), which has no \
             per-run times; give bestreport the raw data file (bestguess -o) instead"
                .to_owned(),
        );
    }
    if lower.starts_with("command,shell,runs (ct)") {
        return Some(
            "this is BestGuess's summary CSV (--export-csv), which has no per-run times; \
             give bestreport the raw data file (bestguess -o) instead"
                .to_owned(),
        );
    }
    None
}

/// Reads one source of any accepted format into `sink`; `file` names it in
/// messages.
pub fn read_into<R: Read>(
    mut input: R,
    file: &str,
    sink: &mut impl RowSink,
) -> Result<InputFormat, DataError> {
    let read_err = |cause| DataError::Read {
        file: file.to_owned(),
        cause,
    };
    let mut head = Vec::with_capacity(SNIFF);
    (&mut input)
        .take(SNIFF as u64)
        .read_to_end(&mut head)
        .map_err(read_err)?;
    let text = String::from_utf8_lossy(&head);
    let start = text.trim_start_matches('\u{feff}').trim_start();
    let rest = io::Cursor::new(head.clone()).chain(input);
    if start.starts_with('{') || start.starts_with('[') {
        let mut all = Vec::new();
        { rest }.read_to_end(&mut all).map_err(read_err)?;
        return json::read_into(&all, file, sink);
    }
    let first_line = start.lines().next().unwrap_or("").trim_end();
    let lower = first_line.to_ascii_lowercase();
    let first_field = lower.split(',').next().unwrap_or("").trim_matches('"');
    let refuse = |message: String| {
        Err(DataError::Format {
            file: file.to_owned(),
            message,
        })
    };
    if let Some(message) = not_runs(first_line) {
        return refuse(message);
    }
    // A raw CSV's first header field is free: `benchmark` there, before
    // `Shell`, is still a raw file, not cbdr's.
    let second_field = lower
        .split(',')
        .nth(1)
        .unwrap_or("")
        .trim()
        .trim_matches('"');
    if first_field == "benchmark" && second_field != "shell" {
        cbdr::read_into(BoundedLines::new(rest), file, sink)?;
        return Ok(InputFormat::CbdrCsv);
    }
    if !positional_header(first_line) {
        // The C tool's statistics test files: their first cell is the web
        // address of the textbook example they reproduce.
        if first_field.starts_with("http://") || first_field.starts_with("https://") {
            return refuse(statistics_file(first_line));
        }
        // The C tool's older files (10 or 11 columns, other orders): read
        // by their columns' names, or refused naming the column at fault.
        match c_tool::header(first_line, first_row_fields(start)) {
            c_tool::Header::Columns(columns) => {
                c_tool::read_into(rest, file, &columns, sink)?;
                return Ok(InputFormat::RawCsv);
            }
            c_tool::Header::Refused(message) => return refuse(message),
            c_tool::Header::Other => {}
        }
    }
    // Anything else is read as a raw CSV: a raw file that lost its header
    // gets that reader's advice, and a file that is not CSV at all fails at
    // its first line, where the message also names every accepted format.
    read_raw_csv_into(rest, file, sink).map_err(|e| match e {
        DataError::NotAHeader { .. } | DataError::Row { line: 1, .. }
            if !e.problem().is_some_and(RowProblem::is_a_header_column) =>
        {
            let said = e.to_string();
            let said = said.strip_prefix(&format!("{file}: ")).unwrap_or(&said);
            DataError::Format {
                file: file.to_owned(),
                message: format!("{said}; {ACCEPTED}"),
            }
        }
        other => other,
    })?;
    Ok(InputFormat::RawCsv)
}

//! The C tool's older raw files, read by their column names.
//!
//! Before its columns settled (`Command,Shell,Name,Batch,Exit code,…`,
//! read by position in [`crate::data::csv_read`]), the C BestGuess wrote
//! raw files with fewer columns in other orders: 11 columns
//! `Command,Shell,Exit code,User time (us),…,Wall clock (us)` and 10
//! `Command,Exit code,Shell,User time (us),…,Involuntary Context Switches`
//! (no wall-clock time). Their header names the columns, so they are read
//! by name: any order, any subset of the C tool's fifteen names that has
//! `Command` and at least one metric ([`header`]); a header of those names
//! with one twice, without `Command` or without a metric is refused,
//! naming the column at fault. A metric whose
//! column is missing is absent, never 0; the totals (`Total time (us)`,
//! `Total Context Switches`) are computed from their parts as always.
//! Without `Batch`, each command string (with its shell and name) is one
//! command, numbered in order of its first row. Text fields are un-escaped
//! as the C tool's (`\\` and `\"`), and Max RSS is read as the C tool wrote
//! it ([`crate::data::c_tool_rows::c_tool_rss`]).

use std::collections::HashMap;
use std::io::Read;

use crate::data::c_tool_rows::{c_tool_rss, unescape_c_tool};
use crate::data::columns::{C_TOOL_COLUMNS, C_TOOL_ROW_FIELDS};
use crate::data::csv_read::RowSink;
use crate::data::error::{excerpt, DataError, Quoted};
use crate::data::metric::{Metric, RawColumn, Source, Value};
use crate::data::RunRecord;

/// Positions in [`C_TOOL_COLUMNS`].
const COMMAND: usize = 0;
const SHELL: usize = 1;
const NAME: usize = 2;
const BATCH: usize = 3;
const EXIT_CODE: usize = 4;
/// The first and last metric that is stored (not a total).
const METRICS: std::ops::RangeInclusive<usize> = 5..=12;

/// What a first line that is not the raw CSV's own header (read by
/// position) is, as a header of the C tool's column names.
#[derive(Debug, PartialEq, Eq)]
pub enum Header {
    /// Every field one of [`C_TOOL_COLUMNS`], none twice, `Command` and
    /// at least one metric among them: each field's position there.
    Columns(Vec<usize>),
    /// Names of the C tool's columns, but not a header that can be read:
    /// what is wrong with it, naming the column at fault, and what to do.
    Refused(String),
    /// Not a header of the C tool's column names.
    Other,
}

/// Reads `header` (the file's first line) by the C tool's column names,
/// compared without regard to ASCII case, blanks or quotes. `fields`: how
/// many fields the first data row has, if known, to tell a header that
/// lost its first name.
pub fn header(header: &str, fields: Option<usize>) -> Header {
    let names: Vec<&str> = (header.trim_end_matches(['\r', '\n']).split(','))
        .map(|f| f.trim().trim_matches('"').trim())
        .collect();
    let at: Vec<Option<usize>> = (names.iter())
        .map(|n| (C_TOOL_COLUMNS.iter()).position(|c| c.eq_ignore_ascii_case(n)))
        .collect();
    let known = at.iter().flatten().count();
    if known == 0 {
        return Header::Other;
    }
    // Other names among the C tool's: a header of fewer columns than the
    // raw CSV's (whose own reader names a name out of place).
    if known < names.len() {
        if names.len() >= C_TOOL_ROW_FIELDS {
            return Header::Other;
        }
        let k = at.iter().position(Option::is_none).unwrap_or(0);
        return Header::Refused(format!(
            "line 1, column {} ({}) is not one of the raw data columns ({}, … {}); name it as \
             the column it holds, or remove that column from the header and from every row",
            k + 1,
            Quoted(&excerpt(names[k].as_bytes())),
            C_TOOL_COLUMNS[..4].join(", "),
            C_TOOL_COLUMNS[C_TOOL_ROW_FIELDS - 1],
        ));
    }
    let at: Vec<usize> = at.into_iter().flatten().collect();
    if let Some(k) = (1..at.len()).find(|&k| at[..k].contains(&at[k])) {
        let j = at[..k].iter().position(|&i| i == at[k]).unwrap_or(0);
        return Header::Refused(format!(
            "line 1, column {} ({}): column {} has this name too, so which one the data mean \
             cannot be told; a header names each column once: rename the one that is wrong, \
             or remove it from the header and from every row",
            k + 1,
            C_TOOL_COLUMNS[at[k]],
            j + 1
        ));
    }
    let listed = || {
        let shown: Vec<&str> = at.iter().take(4).map(|&i| C_TOOL_COLUMNS[i]).collect();
        format!(
            "{}{}",
            shown.join(", "),
            if at.len() > 4 { ", …" } else { "" }
        )
    };
    if !at.contains(&COMMAND) {
        // The rows have one field more than the header: it lost its first
        // name, which in the C tool's files is always the command.
        if fields == Some(at.len() + 1) {
            return Header::Refused(format!(
                "line 1 names no Command column, and the rows have {} fields to its {} names: \
                 the header lost its first name; add Command, at the start of line 1",
                at.len() + 1,
                at.len()
            ));
        }
        return Header::Refused(format!(
            "line 1 names no Command column (it names {}), and each run's command is needed: \
             name the column that holds the commands Command, or add a Command column to the \
             header and to every row",
            listed()
        ));
    }
    if !at.iter().any(|i| METRICS.contains(i)) {
        return Header::Refused(format!(
            "line 1 names no measurement (only {}), so there is nothing to analyse; give \
             bestreport the raw data bestguess -o writes, whose columns include User time (us) \
             and Wall clock (us)",
            listed()
        ));
    }
    Header::Columns(at)
}

/// Reads an older C tool file whose header is `columns` (from
/// [`header`]) into `sink`.
pub fn read_into(
    input: impl Read,
    file: &str,
    columns: &[usize],
    sink: &mut impl RowSink,
) -> Result<(), DataError> {
    let fail = |line: u64, message: String| DataError::Format {
        file: file.to_owned(),
        message: format!("line {line}: {message}"),
    };
    // The metric each column holds (its catalogue entry, by position).
    let metrics: Vec<Option<Metric>> = (columns.iter())
        .map(|&i| sink_metric(i).filter(|_| METRICS.contains(&i)))
        .collect();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(input);
    let mut batches: HashMap<(String, String, String), u64> = HashMap::new();
    let mut sequence = 0u64;
    for record in reader.byte_records() {
        let record = record.map_err(|e| super::csv_record_error(file, e, ""))?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(|f| f.iter().all(u8::is_ascii_whitespace)) {
            continue;
        }
        if record.len() != columns.len() {
            return Err(fail(
                line,
                format!(
                    "{} fields where the header names {}; a row has one field per column",
                    record.len(),
                    columns.len()
                ),
            ));
        }
        // Without an Exit code column no run has one (none is made 0).
        let mut run = RunRecord {
            no_exit_code: !columns.contains(&EXIT_CODE),
            ..RunRecord::default()
        };
        let mut batch = None;
        for (k, &i) in columns.iter().enumerate() {
            let raw = record.get(k).unwrap_or_default();
            let name = C_TOOL_COLUMNS[i];
            let text = || {
                String::from_utf8(unescape_c_tool(raw).into_owned())
                    .map_err(|_| fail(line, format!("column {name} is not UTF-8 text")))
            };
            let number = |min: i64| -> Result<Option<i64>, DataError> {
                let t = std::str::from_utf8(raw).unwrap_or("").trim();
                if t.is_empty() {
                    return Ok(None);
                }
                t.parse::<i64>()
                    .ok()
                    .filter(|&v| v >= min)
                    .map(Some)
                    .ok_or_else(|| {
                        fail(
                            line,
                            format!("{t:?} in column {name} is not a whole number of 0 or more"),
                        )
                    })
            };
            match i {
                COMMAND => run.command = text()?,
                SHELL => run.shell = text()?,
                NAME => run.name = text()?,
                BATCH => batch = number(0)?.map(|b| b as u64),
                EXIT_CODE => match number(i64::from(i32::MIN))? {
                    Some(c) => {
                        run.exit_code = i32::try_from(c).map_err(|_| {
                            fail(line, format!("{c} in column {name} is not an exit code"))
                        })?
                    }
                    // An empty cell: none recorded, never made 0.
                    None => run.no_exit_code = true,
                },
                _ => {
                    let Some(metric) = metrics[k] else { continue };
                    let value = match number(0)? {
                        Some(v) if metric == Metric::MAXRSS => {
                            Some(c_tool_rss(v).ok_or_else(|| {
                                fail(line, format!("{v} in column {name} is too large"))
                            })?)
                        }
                        v => v,
                    };
                    run.metrics.set(metric, value.map(Value::Int));
                }
            }
        }
        let key = (run.command.clone(), run.shell.clone(), run.name.clone());
        let next = batches.len() as u64 + 1;
        run.batch = batch.unwrap_or_else(|| *batches.entry(key).or_insert(next));
        sequence += 1;
        run.sequence = Some(sequence);
        sink.row(&run, false);
    }
    if sequence == 0 {
        return Err(DataError::NoDataRows {
            file: file.to_owned(),
        });
    }
    Ok(())
}

/// The built-in, stored metric at position `i` of the C tool's columns.
fn sink_metric(i: usize) -> Option<Metric> {
    [
        Metric::USER,
        Metric::SYSTEM,
        Metric::WALL,
        Metric::MAXRSS,
        Metric::MINOR_FAULTS,
        Metric::MAJOR_FAULTS,
        Metric::VOLUNTARY_CSW,
        Metric::INVOLUNTARY_CSW,
    ]
    .into_iter()
    .find(|m| {
        let def = m.def();
        def.raw == RawColumn::CTool(i) && def.source == Source::Stored
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: &str, fields: Option<usize>) -> String {
        match header(line, fields) {
            Header::Refused(message) => message,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn headers_named_by_the_c_tools_columns_in_any_order() {
        let eleven = "Command,Shell,Exit code,User time (us),System time (us),Max RSS (Bytes),\
                      Page Reclaims,Page Faults,Voluntary Context Switches,\
                      Involuntary Context Switches,Wall clock (us)";
        assert_eq!(
            header(eleven, None),
            Header::Columns(vec![0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        );
        let three = header("command, exit code ,\"Wall clock (us)\"", None);
        assert!(matches!(three, Header::Columns(_)));
        // None of the C tool's names: another format.
        assert_eq!(header("benchmark,wall_time", None), Header::Other);
        assert_eq!(header("ls,,,1,0,12", None), Header::Other);
    }

    #[test]
    fn a_header_that_cannot_be_read_names_the_column_at_fault() {
        let twice = refused("Command,User time (us),user time (us)", None);
        assert!(
            twice.starts_with("line 1, column 3 (User time (us)): column 2 has this name too"),
            "{twice}"
        );
        assert!(twice.contains("rename the one that is wrong"), "{twice}");
        let no_command = refused("Shell,Exit code,User time (us)", Some(7));
        assert!(
            no_command.starts_with(
                "line 1 names no Command column (it names Shell, Exit code, User time (us))"
            ),
            "{no_command}"
        );
        assert!(!no_command.contains("add that line"), "{no_command}");
        // Rows one field longer: the header lost its first name.
        let lost = refused("Shell,Exit code,User time (us)", Some(4));
        assert!(
            lost.contains("add Command, at the start of line 1"),
            "{lost}"
        );
        let only = refused("Command", None);
        assert!(
            only.starts_with("line 1 names no measurement (only Command)"),
            "{only}"
        );
        let texts = refused("Command,Shell,Exit code", None);
        assert!(
            texts.contains("(only Command, Shell, Exit code)"),
            "{texts}"
        );
        let other = refused("Command,User time (us),wall_time", None);
        assert!(
            other
                .starts_with("line 1, column 3 (\"wall_time\") is not one of the raw data columns"),
            "{other}"
        );
    }

    #[test]
    fn every_stored_c_tool_metric_is_found() {
        for i in METRICS {
            assert!(sink_metric(i).is_some(), "{}", C_TOOL_COLUMNS[i]);
        }
        assert_eq!(sink_metric(13), None, "a total is computed");
    }
}

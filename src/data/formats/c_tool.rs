//! The C tool's older raw files, read by their column names.
//!
//! Before its columns settled (`Command,Shell,Name,Batch,Exit code,…`,
//! read by position in [`crate::data::csv_read`]), the C BestGuess wrote
//! raw files with fewer columns in other orders: 11 columns
//! `Command,Shell,Exit code,User time (us),…,Wall clock (us)` and 10
//! `Command,Exit code,Shell,User time (us),…,Involuntary Context Switches`
//! (no wall-clock time). Their header names the columns, so they are read
//! by name: any order, any subset of the C tool's fifteen names that has
//! `Command` and at least one metric ([`names_columns`]). A metric whose
//! column is missing is absent, never 0; the totals (`Total time (us)`,
//! `Total Context Switches`) are computed from their parts as always.
//! Without `Batch`, each command string (with its shell and name) is one
//! command, numbered in order of its first row. Text fields are un-escaped
//! as the C tool's (`\\` and `\"`), and Max RSS is read as the C tool wrote
//! it ([`crate::data::csv_read::reference_rss`]).

use std::collections::HashMap;
use std::io::Read;

use crate::data::columns::REFERENCE_COLUMNS;
use crate::data::csv_read::RowSink;
use crate::data::error::DataError;
use crate::data::metric::{Metric, RawColumn, Source, Value};
use crate::data::reference::{reference_rss, unescape_reference};
use crate::data::RunRecord;

/// Positions in [`REFERENCE_COLUMNS`].
const COMMAND: usize = 0;
const SHELL: usize = 1;
const NAME: usize = 2;
const BATCH: usize = 3;
const EXIT_CODE: usize = 4;
/// The first and last metric that is stored (not a total).
const METRICS: std::ops::RangeInclusive<usize> = 5..=12;

/// The position in [`REFERENCE_COLUMNS`] of each of `header`'s fields
/// (compared without regard to ASCII case, blanks or quotes), when every
/// field is one of them, none twice, with `Command` and at least one
/// metric among them; `None` otherwise.
pub fn names_columns(header: &str) -> Option<Vec<usize>> {
    let mut at = Vec::new();
    for field in header.trim_end_matches(['\r', '\n']).split(',') {
        let field = field.trim().trim_matches('"').trim();
        let i = REFERENCE_COLUMNS
            .iter()
            .position(|c| c.eq_ignore_ascii_case(field))?;
        if at.contains(&i) {
            return None;
        }
        at.push(i);
    }
    (at.contains(&COMMAND) && at.iter().any(|i| METRICS.contains(i))).then_some(at)
}

/// Reads an older C tool file whose header is `columns` (from
/// [`names_columns`]) into `sink`.
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
        let mut run = RunRecord::default();
        let mut batch = None;
        for (k, &i) in columns.iter().enumerate() {
            let raw = record.get(k).unwrap_or_default();
            let name = REFERENCE_COLUMNS[i];
            let text = || {
                String::from_utf8(unescape_reference(raw).into_owned())
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
                EXIT_CODE => {
                    run.exit_code = match number(i64::from(i32::MIN))? {
                        Some(c) => i32::try_from(c).map_err(|_| {
                            fail(line, format!("{c} in column {name} is not an exit code"))
                        })?,
                        None => 0,
                    }
                }
                _ => {
                    let Some(metric) = metrics[k] else { continue };
                    let value = match number(0)? {
                        Some(v) if metric == Metric::MAXRSS => {
                            Some(reference_rss(v).ok_or_else(|| {
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
        def.raw == RawColumn::Reference(i) && def.source == Source::Stored
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_named_by_the_c_tools_columns_in_any_order() {
        let eleven = "Command,Shell,Exit code,User time (us),System time (us),Max RSS (Bytes),\
                      Page Reclaims,Page Faults,Voluntary Context Switches,\
                      Involuntary Context Switches,Wall clock (us)";
        assert_eq!(
            names_columns(eleven),
            Some(vec![0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        );
        assert!(names_columns("command, exit code ,\"Wall clock (us)\"").is_some());
        // No metric, no command, a name twice, or a name of another tool.
        assert_eq!(names_columns("Command,Shell,Exit code"), None);
        assert_eq!(names_columns("Shell,User time (us)"), None);
        assert_eq!(names_columns("Command,User time (us),user time (us)"), None);
        assert_eq!(names_columns("Command,User time (us),wall_time"), None);
    }

    #[test]
    fn every_stored_reference_metric_is_found() {
        for i in METRICS {
            assert!(sink_metric(i).is_some(), "{}", REFERENCE_COLUMNS[i]);
        }
        assert_eq!(sink_metric(13), None, "a total is computed");
    }
}

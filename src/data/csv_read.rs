//! Reading raw data CSV files, ours and the C reference's.
//!
//! `bestreport` regenerates every report from these files, and users keep,
//! edit and concatenate them, so the reader accepts everything that is
//! unambiguous and rejects everything else with a one-line [`DataError`]
//! naming the file, line and column.
//!
//! Accepted:
//!
//! - CRLF line ends, a missing final newline, blank (or all-blank) lines
//!   anywhere, including before the header.
//! - The first non-blank row is the header and is skipped whatever it says
//!   (the reference's brandAB/farmboys/minitab files start with a URL), but
//!   it must be well-formed CSV.
//! - Rows of 13 fields, as the C reference writes them. Their three text
//!   fields use the reference's backslash escapes, which are undone: `\\`
//!   is `\`, `\n` `\r` `\t` are LF, CR, TAB, `\x` for any other `x` is `x`,
//!   and a trailing lone `\` is kept.
//! - Rows of 15 or more fields, as BestGuess writes them: pure RFC 4180,
//!   backslashes are literal. Columns 14 and 15 (Total time, Total Context
//!   Switches) may be empty; if not, they must equal the sum they stand for,
//!   since the record keeps only the parts (no silent correction).
//! - BestGuess's appended columns (Sequence, Start time, Signal, Timed out)
//!   are found by their exact header names anywhere after column 15, so
//!   columns appended by other tools are ignored rather than misread. Empty
//!   means absent (Timed out: empty means 0).
//! - Numbers with surrounding spaces or tabs, a leading `+`, and quoted
//!   numbers. Exit codes may be any 32-bit integer; measurements must be
//!   non-negative 64-bit integers; signals 1 to 2^31 - 1.
//!
//! Rejected: rows of fewer than 13 or exactly 14 fields, malformed numbers,
//! negative measurements, totals that overflow or disagree, broken quoting
//! (a `"` inside an unquoted field, text after a closing quote, a quote
//! left open at the end of the file), text that is not UTF-8, an empty file
//! and a file with a header but no rows. Error lines are physical lines of the file; a
//! problem with one field is reported at the line where that field starts,
//! a wrong number of fields at the line where the row starts.

use std::borrow::Cow;
use std::io::{BufReader, Read};
use std::num::IntErrorKind;

use super::columns::{idx, APPENDED_COLUMNS, REFERENCE_COLUMNS, REFERENCE_ROW_FIELDS};
use super::error::{excerpt, DataError, RowProblem};
use super::tokenize::{Row, TokenError, Tokenizer};
use super::RunRecord;

/// Reads one raw data source into its records, in file order.
///
/// `file` is the name used in error messages (a path, or `<stdin>`). The
/// input is read through an internal buffer, so pass it unbuffered.
pub fn read_raw_csv<R: Read>(input: R, file: &str) -> Result<Vec<RunRecord>, DataError> {
    let mut tokens = Tokenizer::new(BufReader::with_capacity(64 * 1024, input));
    let mut row = Row::default();
    let fail = |e: TokenError, layout: Option<&Layout>| match e {
        TokenError::Io(cause) => DataError::Read {
            file: file.to_owned(),
            cause,
        },
        TokenError::Syntax {
            line,
            column,
            problem,
        } => DataError::Row {
            file: file.to_owned(),
            line,
            column,
            column_name: layout.and_then(|l| l.column_name(column - 1)),
            problem,
        },
    };

    // The header: the first row that is not blank.
    loop {
        match tokens.next_row(&mut row) {
            Ok(true) if row.is_blank() => continue,
            Ok(true) => break,
            Ok(false) => {
                return Err(DataError::Empty {
                    file: file.to_owned(),
                })
            }
            Err(e) => return Err(fail(e, None)),
        }
    }
    let layout = Layout::from_header(&row);

    let mut records = Vec::new();
    loop {
        match tokens.next_row(&mut row) {
            Ok(true) if row.is_blank() => continue,
            Ok(true) => {
                let record = layout.record(&row).map_err(|(field, problem)| {
                    // A field's own problem is reported where that field
                    // starts; a missing field where the row starts.
                    let line = row.field(field).map_or(row.line, |f| f.line);
                    DataError::Row {
                        file: file.to_owned(),
                        line,
                        column: field + 1,
                        column_name: layout.column_name(field),
                        problem,
                    }
                })?;
                records.push(record);
            }
            Ok(false) => break,
            Err(e) => return Err(fail(e, Some(&layout))),
        }
    }
    if records.is_empty() {
        return Err(DataError::NoDataRows {
            file: file.to_owned(),
        });
    }
    Ok(records)
}

/// Where BestGuess's appended columns are, learned from the header.
#[derive(Debug, Default)]
struct Layout {
    /// 0-based position of each of [`APPENDED_COLUMNS`], if in the header.
    appended: [Option<usize>; APPENDED_COLUMNS.len()],
}

/// A problem with the 0-based field `.0` of a row.
type FieldError = (usize, RowProblem);

impl Layout {
    fn from_header(header: &Row) -> Self {
        let mut layout = Layout::default();
        for i in REFERENCE_COLUMNS.len()..header.len() {
            let Some(name) = header.get(i).and_then(|b| std::str::from_utf8(b).ok()) else {
                continue;
            };
            let name = name.trim();
            if let Some(k) = APPENDED_COLUMNS.iter().position(|&c| c == name) {
                layout.appended[k].get_or_insert(i);
            }
        }
        layout
    }

    /// The header name of 0-based column `i`, if it is one of ours.
    fn column_name(&self, i: usize) -> Option<&'static str> {
        REFERENCE_COLUMNS.get(i).copied().or_else(|| {
            self.appended
                .iter()
                .position(|&p| p == Some(i))
                .map(|k| APPENDED_COLUMNS[k])
        })
    }

    fn record(&self, row: &Row) -> Result<RunRecord, FieldError> {
        let n = row.len();
        if n < REFERENCE_ROW_FIELDS || n == REFERENCE_ROW_FIELDS + 1 {
            return Err((n, RowProblem::FieldCount { found: n }));
        }
        // Exactly 13 fields: written by the C reference, backslash-escaped.
        let reference = n == REFERENCE_ROW_FIELDS;
        let text = |i| text(row, i, reference);
        let measurement = |i| int(row, i, 0, i64::MAX as u64).map(|v| v as i64);

        // Fields in column order, so the leftmost problem is the one reported.
        let command = text(idx::COMMAND)?;
        let shell = text(idx::SHELL)?;
        let name = text(idx::NAME)?;
        let batch = int(row, idx::BATCH, 0, u64::MAX)? as u64;
        let exit_code = int(row, idx::EXIT_CODE, i32::MIN.into(), i32::MAX as u64)? as i32;
        let user_us = measurement(idx::USER)?;
        let system_us = measurement(idx::SYSTEM)?;
        let maxrss_bytes = measurement(idx::MAXRSS)?;
        let minor_faults = measurement(idx::MINFLT)?;
        let major_faults = measurement(idx::MAJFLT)?;
        let voluntary_csw = measurement(idx::VCSW)?;
        let involuntary_csw = measurement(idx::ICSW)?;
        let wall_us = measurement(idx::WALL)?;
        let total_us = user_us.checked_add(system_us).ok_or((
            idx::SYSTEM,
            RowProblem::SumOverflow {
                what: "User time + System time",
            },
        ))?;
        let total_csw = voluntary_csw.checked_add(involuntary_csw).ok_or((
            idx::ICSW,
            RowProblem::SumOverflow {
                what: "Voluntary + Involuntary Context Switches",
            },
        ))?;
        if !reference {
            check_total(row, idx::TOTAL, total_us, "User time + System time")?;
            check_total(
                row,
                idx::TOTAL_CSW,
                total_csw,
                "Voluntary + Involuntary Context Switches",
            )?;
        }

        let appended = |k: usize| self.appended[k].filter(|&i| i < n);
        let sequence = match appended(0) {
            Some(i) => opt_int(row, i, 0, u64::MAX)?.map(|v| v as u64),
            None => None,
        };
        let start_unix_us = match appended(1) {
            Some(i) => opt_int(row, i, i64::MIN, i64::MAX as u64)?.map(|v| v as i64),
            None => None,
        };
        let signal = match appended(2) {
            Some(i) => opt_int(row, i, 1, i32::MAX as u64)?.map(|v| v as i32),
            None => None,
        };
        let timed_out = match appended(3) {
            Some(i) => flag(row, i)?,
            None => false,
        };

        Ok(RunRecord {
            command,
            shell,
            name,
            batch,
            exit_code,
            user_us,
            system_us,
            maxrss_bytes,
            minor_faults,
            major_faults,
            voluntary_csw,
            involuntary_csw,
            wall_us,
            sequence,
            start_unix_us,
            signal,
            timed_out,
        })
    }
}

/// Field `i` as text, un-escaping the reference's backslashes if asked.
fn text(row: &Row, i: usize, reference: bool) -> Result<String, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    let decoded = if reference {
        unescape_reference(bytes)
    } else {
        Cow::Borrowed(bytes)
    };
    let text = match decoded {
        Cow::Borrowed(b) => std::str::from_utf8(b).map(str::to_owned).ok(),
        Cow::Owned(v) => String::from_utf8(v).ok(),
    };
    text.ok_or((i, RowProblem::InvalidUtf8))
}

/// Undoes the C reference's escaping of text fields (see the module docs).
pub(crate) fn unescape_reference(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\\') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes.iter();
    while let Some(&b) = rest.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        out.push(match rest.next() {
            None => b'\\',
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(&other) => other,
        });
    }
    Cow::Owned(out)
}

/// Field `i` as an integer within `min..=max`.
fn int(row: &Row, i: usize, min: i64, max: u64) -> Result<i128, FieldError> {
    opt_int(row, i, min, max)?.ok_or_else(|| {
        (
            i,
            RowProblem::NotAnInteger {
                found: excerpt(row.get(i).unwrap_or_default()),
            },
        )
    })
}

/// Field `i` as an integer within `min..=max`, or `None` if it is blank.
fn opt_int(row: &Row, i: usize, min: i64, max: u64) -> Result<Option<i128>, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    let found = || excerpt(bytes);
    let not_an_integer = || (i, RowProblem::NotAnInteger { found: found() });
    let digits = std::str::from_utf8(bytes)
        .map_err(|_| not_an_integer())?
        .trim_matches([' ', '\t']);
    if digits.is_empty() {
        return Ok(None);
    }
    let value = digits.parse::<i128>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => (
            i,
            RowProblem::OutOfRange {
                found: found(),
                min,
                max,
            },
        ),
        _ => not_an_integer(),
    })?;
    if value < 0 && min == 0 {
        Err((i, RowProblem::Negative { found: found() }))
    } else if value < min.into() || value > max.into() {
        Err((
            i,
            RowProblem::OutOfRange {
                found: found(),
                min,
                max,
            },
        ))
    } else {
        Ok(Some(value))
    }
}

/// A derived total column: blank, or equal to `sum`.
fn check_total(row: &Row, i: usize, sum: i64, what: &'static str) -> Result<(), FieldError> {
    match opt_int(row, i, 0, i64::MAX as u64)? {
        Some(found) if found != sum as i128 => Err((
            i,
            RowProblem::SumMismatch {
                found: found as i64,
                sum,
                what,
            },
        )),
        _ => Ok(()),
    }
}

/// The "Timed out" column: 1 is true; 0 or blank is false.
fn flag(row: &Row, i: usize) -> Result<bool, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    match std::str::from_utf8(bytes).map(|s| s.trim_matches([' ', '\t'])) {
        Ok("" | "0") => Ok(false),
        Ok("1") => Ok(true),
        _ => Err((
            i,
            RowProblem::NotAFlag {
                found: excerpt(bytes),
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER15: &str = "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),\
        Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
        Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches\n";

    fn read(text: &str) -> Result<Vec<RunRecord>, DataError> {
        read_raw_csv(text.as_bytes(), "t.csv")
    }

    fn err_at(text: &str) -> (u64, usize, RowProblem) {
        match read(text) {
            Err(DataError::Row {
                line,
                column,
                problem,
                ..
            }) => (line, column, problem),
            other => panic!("expected a row error, got {other:?}"),
        }
    }

    #[test]
    fn reference_row() {
        let recs = read(&format!(
            "{HEADER15}\"ls -l\",\"\",\"\",1,0,1483,7,2200,146,3,1,2,1577\n"
        ))
        .unwrap();
        assert_eq!(
            recs,
            vec![RunRecord {
                command: "ls -l".into(),
                batch: 1,
                user_us: 1483,
                system_us: 7,
                maxrss_bytes: 2200,
                minor_faults: 146,
                major_faults: 3,
                voluntary_csw: 1,
                involuntary_csw: 2,
                wall_us: 1577,
                ..RunRecord::default()
            }]
        );
    }

    #[test]
    fn unescape_rules() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"plain", b"plain"),
            (br"a\\.b", br"a\.b"),
            (br"\n\r\t", b"\n\r\t"),
            (br"\x\q\\\\", br"xq\\"),
            (br"end\", br"end\"),
            (br"\", br"\"),
            ("é\\é".as_bytes(), "éé".as_bytes()),
        ];
        for (input, expected) in cases {
            assert_eq!(&*unescape_reference(input), *expected, "{input:?}");
        }
    }

    #[test]
    fn backslashes_are_unescaped_only_in_13_field_rows() {
        let text = format!(
            "{HEADER15}\"a\\\\b\\n\",\"\",\"\",1,0,1,1,1,1,1,1,1,1\n\
             \"a\\\\b\\n\",\"\",\"\",2,0,1,1,1,1,1,1,1,1,2,2\n"
        );
        let recs = read(&text).unwrap();
        assert_eq!(recs[0].command, "a\\b\n");
        assert_eq!(recs[1].command, "a\\\\b\\n");
    }

    #[test]
    fn numbers_with_spaces_sign_and_quotes() {
        let recs = read(&format!("{HEADER15}c,,, 1 ,\t-2,+3,\"4\",5,6,7,8,9,10 \n")).unwrap();
        let r = &recs[0];
        assert_eq!(
            (r.batch, r.exit_code, r.user_us, r.system_us),
            (1, -2, 3, 4)
        );
        assert_eq!(r.wall_us, 10);
    }

    #[test]
    fn totals_may_be_blank_but_must_agree() {
        let ok = read(&format!("{HEADER15}c,,,1,0,3,4,0,0,0,1,2,9,,\n")).unwrap();
        assert_eq!(ok[0].total_us(), 7);
        assert_eq!(
            err_at(&format!("{HEADER15}c,,,1,0,3,4,0,0,0,1,2,9,8,3\n")),
            (
                2,
                14,
                RowProblem::SumMismatch {
                    found: 8,
                    sum: 7,
                    what: "User time + System time"
                }
            )
        );
        assert_eq!(
            err_at(&format!("{HEADER15}c,,,1,0,3,4,0,0,0,1,2,9,7,4\n")).1,
            15
        );
    }

    #[test]
    fn sums_that_overflow_are_rejected() {
        let big = i64::MAX;
        assert_eq!(
            err_at(&format!("{HEADER15}c,,,1,0,{big},1,0,0,0,1,2,9\n")),
            (
                2,
                7,
                RowProblem::SumOverflow {
                    what: "User time + System time"
                }
            )
        );
        assert_eq!(
            err_at(&format!("{HEADER15}c,,,1,0,1,1,0,0,0,1,{big},9\n")).1,
            12
        );
    }

    #[test]
    fn appended_columns_found_by_name() {
        let header = format!(
            "{},Sequence,Other,Start time (us since epoch),Signal,Timed out\n",
            HEADER15.trim_end()
        );
        let recs = read(&format!(
            "{header}c,,,1,0,1,1,0,0,0,0,0,5,2,0,7,whatever,-12,9,1\n\
             c,,,1,0,1,1,0,0,0,0,0,5,2,0,,x,,, \n\
             c,,,1,0,1,1,0,0,0,0,0,5,2,0\n"
        ))
        .unwrap();
        assert_eq!(recs[0].sequence, Some(7));
        assert_eq!(recs[0].start_unix_us, Some(-12));
        assert_eq!(recs[0].signal, Some(9));
        assert!(recs[0].timed_out);
        for r in &recs[1..] {
            assert_eq!((r.sequence, r.start_unix_us, r.signal), (None, None, None));
            assert!(!r.timed_out);
        }
        let e = read(&format!("{header}c,,,1,0,1,1,0,0,0,0,0,5,2,0,7,x,8,0,1\n")).unwrap_err();
        assert_eq!(e.position(), Some((2, 19)));
        assert!(e.to_string().contains("column 19 (Signal)"), "{e}");
        let e = read(&format!(
            "{header}c,,,1,0,1,1,0,0,0,0,0,5,2,0,7,x,8,1,yes\n"
        ))
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("column 20 (Timed out): expected 0 or 1"),
            "{e}"
        );
    }

    #[test]
    fn unknown_extra_columns_are_ignored() {
        let recs = read(&format!(
            "{HEADER15}c,,,1,0,1,1,0,0,0,0,0,5,2,0,junk,\"x,y\"\n"
        ))
        .unwrap();
        assert_eq!(recs[0].sequence, None);
    }

    #[test]
    fn field_errors_point_at_the_fields_own_line() {
        // The command spans lines 2-3; the bad number is on line 3.
        let (line, column, _) = err_at(&format!("{HEADER15}\"a\nb\",,,1,0,x,1,1,1,1,1,1,1\n"));
        assert_eq!((line, column), (3, 6));
        // A short row is reported where it starts.
        let (line, column, _) = err_at(&format!("{HEADER15}\"a\nb\",,,1\n"));
        assert_eq!((line, column), (2, 5));
    }

    #[test]
    fn invalid_utf8_in_header_is_tolerated_but_not_in_data() {
        let mut bytes = b"\xffheader\n".to_vec();
        bytes.extend_from_slice(b"c,,,1,0,1,1,1,1,1,1,1,1\n");
        assert_eq!(read_raw_csv(&bytes[..], "t").unwrap().len(), 1);
        let mut bytes = HEADER15.as_bytes().to_vec();
        bytes.extend_from_slice(b"c,\"\xc3\",,1,0,1,1,1,1,1,1,1,1\n");
        let e = read_raw_csv(&bytes[..], "t").unwrap_err();
        assert_eq!(e.position(), Some((2, 2)));
        assert_eq!(e.problem(), Some(&RowProblem::InvalidUtf8));
    }

    #[test]
    fn header_must_be_well_formed() {
        let e = read("a,\"b\"c\nx,,,1,0,1,1,1,1,1,1,1,1\n").unwrap_err();
        assert_eq!(e.position(), Some((1, 2)));
        assert_eq!(
            e.problem(),
            Some(&RowProblem::TextAfterQuote { opened_on: None })
        );
    }

    #[test]
    fn blank_lines_before_the_header_are_skipped() {
        let recs = read(&format!("\n  \n{HEADER15}\nc,,,1,0,1,1,1,1,1,1,1,1\n\n")).unwrap();
        assert_eq!(recs.len(), 1);
    }

    #[test]
    fn empty_and_blank_files() {
        assert!(matches!(read(""), Err(DataError::Empty { .. })));
        assert!(matches!(read("\n\r\n  \n"), Err(DataError::Empty { .. })));
        assert!(matches!(read(HEADER15), Err(DataError::NoDataRows { .. })));
        assert!(matches!(read("x\n\n\n"), Err(DataError::NoDataRows { .. })));
    }
}

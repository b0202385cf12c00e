//! Reading raw data CSV files, ours and C BestGuess's.
//!
//! `bestreport` regenerates every report from these files, and users keep,
//! edit and concatenate them, so the reader accepts everything that is
//! unambiguous and rejects everything else with a one-line [`DataError`]
//! naming the file, line and column.
//!
//! Accepted:
//!
//! - CRLF line ends, a missing final newline, blank (or all-blank) lines
//!   anywhere, including before the header, and a leading UTF-8 byte-order
//!   mark.
//! - The first non-blank row must be a header: fields 2 to 13 are C
//!   BestGuess's column names (ASCII case and surrounding blanks aside);
//!   the first may say anything (C BestGuess's brandAB/farmboys/minitab
//!   files hold a URL there). Anything else is an error naming that line, so
//!   a file without a header does not lose its first run to it.
//! - A header row later in the file (files concatenated) starts a new group
//!   of commands, as a new file would: the commands after it stay apart
//!   from those before, even where batch numbers agree. Its columns are
//!   learned afresh.
//! - Rows of 13 fields, as C BestGuess writes them. Their three text
//!   fields use C BestGuess's backslash escapes, which are undone: `\\`
//!   is `\`, `\n` `\r` `\t` are LF, CR, TAB, `\x` for any other `x` is `x`,
//!   and a trailing lone `\` is kept. Their Max RSS is `ru_maxrss` as C
//!   BestGuess wrote it: bytes on macOS, KiB on Linux (see [`c_tool_rss`](crate::data::c_tool_rows::c_tool_rss)).
//! - Rows of 15 or more fields, as BestGuess writes them: pure RFC 4180,
//!   backslashes are literal. Columns 14 and 15 (Total time, Total Context
//!   Switches) may be empty; if not, they must equal the sum they stand for,
//!   since the record keeps only the parts (no silent correction).
//! - Appended columns found by exact header name after column 15:
//!   BestGuess's run columns (Sequence, Start time, Signal, Timed out), and
//!   metric columns — any the catalogue knows, and any named
//!   `NAME (UNIT)` with a unit the catalogue recognises
//!   ([`super::metric::recognise`]), which are registered; and the rule of
//!   an adaptive experiment ([`AdaptiveRule`]), whose fields are empty.
//!   Other columns are ignored rather than misread. Empty means absent (Timed out: empty
//!   means 0). A column read under the name of one read before it (two
//!   `Sequence`, an appended `Wall clock (us)`) is an error naming both.
//! - Numbers with surrounding spaces or tabs, a leading `+`, and quoted
//!   numbers. Exit codes may be any 32-bit integer; measurements must be
//!   non-negative 64-bit integers; signals 1 to 2^31 - 1; a metric of no
//!   known unit any finite number.
//!
//! Rejected: rows of fewer than 13 or exactly 14 fields, rows cut off (13
//! fields under a header with appended columns, or fewer fields than the
//! header at the end of the input without a line end), malformed numbers,
//! negative measurements, totals that overflow or disagree, broken quoting
//! (a `"` inside an unquoted field, text after a closing quote, a quote
//! left open at the end of the file), text that is not UTF-8, an empty file
//! and a file with a header but no rows. Error lines are physical lines of
//! the file; a problem with one field is reported at the line where that
//! field starts, a wrong number of fields at the line where the row starts.
//!
//! Rows stream into a [`RowSink`] (a [`DatasetBuilder`](super::DatasetBuilder)
//! in `bestreport`): memory holds a few chunks of the file, never the whole
//! file. Most rows take a fast path (`fast_read/`), on another
//! thread for large files (`chunks.rs`); the rows it does not take,
//! and every error, take the general path here, so both give the same.

use std::io::{BufRead, Read};
use std::sync::Arc;

use super::chunks::{Options, Stream};
use super::fast_read::{self, slot, Block, Plan};

use super::columns::AdaptiveRule;
use super::error::{excerpt, DataError};
use super::metric::{Catalogue, Metric, Value};
use super::tokenize::{Row, TokenError, Tokenizer};
use super::RunRecord;

mod header;
mod layout;

use header::{header_problem, is_header, names_some_column};
use layout::{FieldError, Layout};

/// Where the rows of a raw file go.
pub trait RowSink {
    /// The catalogue columns are matched against (and registered in).
    fn catalogue(&mut self) -> &mut Catalogue;
    /// A header row after data rows: what follows is a new group of commands.
    fn new_group(&mut self);
    /// The tag of the file the current group's runs were first read from,
    /// where an export says so (a BestGuess JSON's `bestguess.source.tag`).
    fn origin(&mut self, _tag: &str) {}
    /// The means of user and system time (µs) the source gives for the
    /// command of the last row, where it has no per-run values of them
    /// (Hyperfine 1.x's `user` and `system`).
    fn means(&mut self, _user: Option<f64>, _system: Option<f64>) {}
    /// The current group's runs came from an adaptive experiment with
    /// this rule (its header records it, [`AdaptiveRule`]).
    fn adaptive(&mut self, _rule: AdaptiveRule) {}
    /// One data row. `same_text` says that its command, shell and name are
    /// those of the previous row of the same group (so a sink may skip
    /// comparing them).
    fn row(&mut self, run: &RunRecord, same_text: bool);
    /// Consecutive data rows of one group, read by the fast path. By
    /// default each goes to [`RowSink::row`] as a record.
    fn rows(&mut self, rows: &Rows<'_>) {
        let mut record = RunRecord::default();
        for i in 0..rows.len() {
            rows.record(i, &mut record);
            self.row(&record, i > 0 && rows.same_text(i - 1, i));
        }
    }
}

/// Data rows read together (see [`RowSink::rows`]): what
/// [`RowSink::row`] would be given for each, kept by column.
pub struct Rows<'a> {
    plan: &'a Plan,
    block: &'a Block,
}

impl Rows<'_> {
    pub fn len(&self) -> usize {
        self.block.rows
    }

    pub fn is_empty(&self) -> bool {
        self.block.rows == 0
    }

    /// Row `i` as the record [`RowSink::row`] would get (`out`'s strings
    /// are reused).
    pub fn record(&self, i: usize, out: &mut RunRecord) {
        let [command, shell, name] = self.block.texts(i);
        for (to, from) in [
            (&mut out.command, command),
            (&mut out.shell, shell),
            (&mut out.name, name),
        ] {
            if to != from {
                to.clear();
                to.push_str(from);
            }
        }
        out.batch = self.batch(i);
        out.exit_code = self.exit_code(i);
        out.metrics.clear();
        for &(metric, s) in &self.plan.metrics {
            out.metrics
                .set_stored(metric, self.block.value(i, s).map(Value::Int));
        }
        out.sequence = self.sequence(i);
        out.start_unix_us = self.start_unix_us(i);
        out.signal = self.signal(i);
        out.timed_out = self.timed_out(i);
        out.parameters.clear();
    }

    /// Whether rows `i` and `j` have the same command, shell and name (as
    /// far as is known without comparing them: false may be wrong).
    pub(crate) fn same_text(&self, i: usize, j: usize) -> bool {
        self.text_id(i) == self.text_id(j)
    }

    /// Rows of the same id have the same command, shell and name (rows
    /// of different ids may too).
    pub(crate) fn text_id(&self, i: usize) -> u32 {
        self.block.text_id(i)
    }

    /// Command, shell and name of row `i`.
    pub(crate) fn texts(&self, i: usize) -> [&str; 3] {
        self.block.texts(i)
    }

    pub(crate) fn batch(&self, i: usize) -> u64 {
        self.block.value(i, slot::BATCH).unwrap_or_default() as u64
    }

    pub(crate) fn exit_code(&self, i: usize) -> i32 {
        self.block.value(i, slot::EXIT_CODE).unwrap_or_default() as i32
    }

    pub(crate) fn sequence(&self, i: usize) -> Option<u64> {
        self.block.value(i, slot::SEQUENCE).map(|v| v as u64)
    }

    pub(crate) fn start_unix_us(&self, i: usize) -> Option<i64> {
        self.block.value(i, slot::START)
    }

    pub(crate) fn signal(&self, i: usize) -> Option<i32> {
        self.block.value(i, slot::SIGNAL).map(|v| v as i32)
    }

    pub(crate) fn timed_out(&self, i: usize) -> bool {
        self.block.value(i, slot::TIMED_OUT) == Some(1)
    }

    /// The slot of `metric` for [`Rows::column`], if the rows have it.
    pub(crate) fn slot(&self, metric: Metric) -> Option<usize> {
        self.plan
            .metrics
            .iter()
            .find(|m| m.0 == metric)
            .map(|m| m.1)
    }

    /// Slot `s` of every row (see [`fast_read::slot`]; a metric's slot
    /// from [`Rows::slot`]): non-negative integers, -1 for none.
    #[inline]
    pub(crate) fn column(&self, s: usize) -> &[i64] {
        self.block.column(s)
    }
}

/// Collects records (for [`read_raw_csv`]).
#[derive(Default)]
struct Collect {
    catalogue: Catalogue,
    records: Vec<RunRecord>,
}

impl RowSink for Collect {
    fn catalogue(&mut self) -> &mut Catalogue {
        &mut self.catalogue
    }
    fn new_group(&mut self) {}
    fn row(&mut self, run: &RunRecord, _same_text: bool) {
        self.records.push(run.clone());
    }
}

/// Reads one raw data source into its records, in file order (a repeated
/// header is skipped). Metrics of appended columns are numbered as in a
/// catalogue that starts with the fixed metrics.
///
/// `file` is the name used in error messages (a path, or `<stdin>`). The
/// input is read through an internal buffer, so pass it unbuffered.
pub fn read_raw_csv<R: Read>(input: R, file: &str) -> Result<Vec<RunRecord>, DataError> {
    let mut sink = Collect::default();
    read_raw_csv_into(input, file, &mut sink)?;
    Ok(sink.records)
}

/// Reads one raw data source, row by row, into `sink`.
pub fn read_raw_csv_into<R: Read>(
    input: R,
    file: &str,
    sink: &mut impl RowSink,
) -> Result<(), DataError> {
    read_raw_csv_with(input, file, sink, Options::default())
}

/// [`read_raw_csv_into`] with the chunk size, the number of threads parsing
/// ahead, and whether the fast path is used at all, as given (the results
/// are the same whatever they are).
pub(crate) fn read_raw_csv_with<R: Read>(
    input: R,
    file: &str,
    sink: &mut impl RowSink,
    options: Options,
) -> Result<(), DataError> {
    let mut input = Stream::new(input, options);
    skip_bom(&mut input).map_err(|cause| DataError::Read {
        file: file.to_owned(),
        cause,
    })?;
    let mut tokens = Tokenizer::new(input);
    let mut row = Row::default();
    let fail = |e: TokenError, layout: Option<&Layout>| token_error(file, e, layout);
    first_header(&mut tokens, &mut row, file)?;
    let header_error = |row: &Row, (field, problem): FieldError| DataError::Row {
        file: file.to_owned(),
        line: row.field(field).map_or(row.line, |f| f.line),
        column: field + 1,
        column_name: row.get(field).map(|name| excerpt(name).trim().to_owned()),
        problem,
    };
    let mut layout =
        Layout::from_header(&row, sink.catalogue()).map_err(|e| header_error(&row, e))?;
    if let Some(rule) = layout.adaptive {
        sink.adaptive(rule);
    }
    // The fast path's plan for the layout, and its generation.
    let mut plan = layout.plan(tokens.input().fast());
    let mut generation = 0;
    tokens.input().set_plan(plan.clone(), generation);

    let mut record = RunRecord::default();
    let mut rows = 0usize;
    // Whether the previous row went to the sink (in this group).
    let mut previous = false;
    let mut block = Block::default();
    loop {
        if let Some(plan) = &plan {
            let (given, moved) = fast_rows(&mut tokens, plan, generation, &mut block, sink)
                .map_err(|cause| DataError::Read {
                    file: file.to_owned(),
                    cause,
                })?;
            if given > 0 {
                rows += given;
                previous = false;
            }
            if moved {
                continue;
            }
        }
        match tokens.next_row(&mut row) {
            Ok(true) if row.is_blank() => continue,
            Ok(true) if is_header(&row) => {
                sink.new_group();
                layout = Layout::from_header(&row, sink.catalogue())
                    .map_err(|e| header_error(&row, e))?;
                if let Some(rule) = layout.adaptive {
                    sink.adaptive(rule);
                }
                plan = layout.plan(tokens.input().fast());
                generation += 1;
                tokens.input().set_plan(plan.clone(), generation);
                previous = false;
            }
            Ok(true) => {
                let changed = layout
                    .record(&row, &mut record)
                    .map_err(|(field, problem)| {
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
                sink.row(&record, previous && !changed);
                previous = true;
                rows += 1;
            }
            Ok(false) => break,
            Err(e) => return Err(fail(e, Some(&layout))),
        }
    }
    if rows == 0 {
        return Err(DataError::NoDataRows {
            file: file.to_owned(),
        });
    }
    Ok(())
}

/// The fast path at the tokenizer's place, on a block parsed ahead for
/// this very place or on what is buffered here: its rows go to `sink`.
/// Returns the rows given and whether the tokenizer moved past them (if
/// not, the general path takes the next row).
fn fast_rows<R: Read>(
    tokens: &mut Tokenizer<Stream<R>>,
    plan: &Arc<Plan>,
    generation: u64,
    block: &mut Block,
    sink: &mut impl RowSink,
) -> std::io::Result<(usize, bool)> {
    let input = tokens.input();
    let here = match input.block_here(generation) {
        Some(ahead) => Some(std::mem::replace(block, ahead)),
        None => {
            fast_read::parse(input.fill_buf()?, plan, block);
            None
        }
    };
    let (used, lines, given) = (block.used, block.lines, block.rows);
    if given > 0 {
        sink.rows(&Rows { plan, block });
    }
    if let Some(mine) = here {
        let ahead = std::mem::replace(block, mine);
        tokens.input().recycle(ahead);
    }
    if used > 0 {
        tokens.skip(used, lines);
    }
    Ok((given, used > 0))
}

/// A tokenizer's error as the reader reports it, naming the column from
/// `layout` when there is one.
fn token_error(file: &str, e: TokenError, layout: Option<&Layout>) -> DataError {
    match e {
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
    }
}

/// The header into `row`: the first row that is not blank, which must be
/// a header.
fn first_header<R: BufRead>(
    tokens: &mut Tokenizer<R>,
    row: &mut Row,
    file: &str,
) -> Result<(), DataError> {
    loop {
        match tokens.next_row(row) {
            Ok(true) if row.is_blank() => continue,
            Ok(true) => break,
            Ok(false) => {
                return Err(DataError::Empty {
                    file: file.to_owned(),
                })
            }
            Err(e) => return Err(token_error(file, e, None)),
        }
    }
    if !is_header(row) {
        return Err(DataError::NotAHeader {
            file: file.to_owned(),
            line: row.line,
            problem: header_problem(row),
            header_like: names_some_column(row),
        });
    }
    Ok(())
}

/// Consumes a leading UTF-8 byte-order mark, if there is one.
fn skip_bom(input: &mut impl BufRead) -> std::io::Result<()> {
    const BOM: &[u8] = b"\xef\xbb\xbf";
    let mut seen = Vec::new();
    // The buffer may (in theory) deliver the mark in pieces.
    while seen.len() < BOM.len() {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let take = (BOM.len() - seen.len()).min(buf.len());
        if buf[..take] != BOM[seen.len()..seen.len() + take] {
            if seen.is_empty() {
                return Ok(());
            }
            // A partial mark followed by something else cannot be put back
            // into a BufRead; it is not a mark, and the bytes consumed were
            // not valid UTF-8 text on their own either.
            break;
        }
        seen.extend_from_slice(&buf[..take]);
        input.consume(take);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::c_tool_rows::{c_tool_rss, unescape_c_tool};
    use crate::data::error::RowProblem;

    const HEADER15: &str = "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),\
        Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
        Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches\n";

    #[test]
    fn a_line_without_an_end_is_refused_once_past_the_bound() {
        use crate::data::chunks::MAX_LINE;
        let row = "\"a\",\"\",\"\",1,0,100,20,1000,1,0,1,1,150,120,2\n";
        let mut text = format!("{HEADER15}{row}{row}");
        text.push_str(&"x".repeat(MAX_LINE + (1 << 20)));
        text.push_str(&format!("\n{row}"));
        let e = read_raw_csv(text.as_bytes(), "t.csv").unwrap_err();
        match &e {
            DataError::Read { cause, .. } => {
                assert_eq!(cause.kind(), std::io::ErrorKind::InvalidData);
                assert!(e.to_string().contains("without a line end"), "{e}");
            }
            other => panic!("not the line's error: {other}"),
        }
        // Just within the bound, the same line is read (and refused as
        // the row it is not).
        let mut text = format!("{HEADER15}{row}");
        text.push_str(&"x".repeat(MAX_LINE - (1 << 20)));
        text.push_str(&format!("\n{row}"));
        let e = read_raw_csv(text.as_bytes(), "t.csv").unwrap_err();
        assert!(matches!(e, DataError::Row { line: 3, .. }), "{e}");
        // Lines are counted one at a time: rows past the bound in all.
        let rows = MAX_LINE / row.len() + 1000;
        let text = format!("{HEADER15}{}", row.repeat(rows));
        assert_eq!(read_raw_csv(text.as_bytes(), "t.csv").unwrap().len(), rows);
    }

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
    fn c_tool_row() {
        let recs = read(&format!(
            "{HEADER15}\"ls -l\",\"\",\"\",1,0,1483,7,2200,146,3,1,2,1577\n"
        ))
        .unwrap();
        assert_eq!(
            recs,
            vec![RunRecord {
                command: "ls -l".into(),
                batch: 1,
                ..RunRecord::default()
            }
            .with(Metric::USER, 1483)
            .with(Metric::SYSTEM, 7)
            // 2200 is no macOS byte count: Linux KiB.
            .with(Metric::MAXRSS, 2200 * 1024)
            .with(Metric::MINOR_FAULTS, 146)
            .with(Metric::MAJOR_FAULTS, 3)
            .with(Metric::VOLUNTARY_CSW, 1)
            .with(Metric::INVOLUNTARY_CSW, 2)
            .with(Metric::WALL, 1577)]
        );
    }

    #[test]
    fn c_tool_rss_is_bytes_only_when_it_looks_like_macos_bytes() {
        // macOS: whole pages, at least 1 MiB.
        assert_eq!(c_tool_rss(1_818_624), Some(1_818_624));
        assert_eq!(c_tool_rss(1 << 20), Some(1 << 20));
        // Linux KiB: small, or not a multiple of 4096.
        assert_eq!(c_tool_rss(2884), Some(2884 * 1024));
        assert_eq!(c_tool_rss(1_048_580), Some(1_048_580 * 1024));
        assert_eq!(c_tool_rss(4096), Some(4096 * 1024));
        assert_eq!(c_tool_rss(0), Some(0));
        assert_eq!(c_tool_rss(i64::MAX / 1000), None);
        // Our own 15-field rows are always bytes.
        let recs = read(&format!("{HEADER15}c,,,1,0,1,1,2884,0,0,0,0,1,2,0\n")).unwrap();
        assert_eq!(recs[0].value(Metric::MAXRSS), Some(Value::Int(2884)));
    }

    #[test]
    fn a_file_must_start_with_a_header() {
        let e = read("\n\"ls\",\"\",\"\",1,0,1,1,1,1,1,1,1,1\n").unwrap_err();
        assert!(matches!(e, DataError::NotAHeader { line: 2, .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with("t.csv: line 2 is not a raw data header (it starts with \"ls\")"),
            "{e}"
        );
        assert!(matches!(
            read("x\n\n"),
            Err(DataError::NotAHeader { line: 1, .. })
        ));
        // The first field is free, the others are C BestGuess's names in
        // any case (C BestGuess's textbook files).
        let url = "https://x.org/,Shell,name,batch,Exit code,User time (us),System time (us),\
            Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
            Involuntary Context Switches,Wall clock (us)\n";
        assert_eq!(
            read(&format!("{url}c,,,1,0,1,1,1,1,1,1,1,1\n"))
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let text = format!("\u{feff}{HEADER15}c,,,1,0,1,1,1,1,1,1,1,1\n");
        assert_eq!(read(&text).unwrap().len(), 1);
        let quoted = format!("\u{feff}\"Command\"{}", &HEADER15[7..]);
        assert_eq!(
            read(&format!("{quoted}c,,,1,0,1,1,1,1,1,1,1,1\n"))
                .unwrap()
                .len(),
            1
        );
        // Not a mark but data elsewhere: in a number it is an error.
        let e = read(&format!("{HEADER15}c,,,\u{feff}1,0,1,1,1,1,1,1,1,1\n")).unwrap_err();
        assert_eq!(e.position(), Some((2, 4)));
    }

    /// Counts the groups a sink is told about.
    #[derive(Default)]
    struct Groups {
        catalogue: Catalogue,
        groups: Vec<Vec<String>>,
    }

    impl RowSink for Groups {
        fn catalogue(&mut self) -> &mut Catalogue {
            &mut self.catalogue
        }
        fn new_group(&mut self) {
            self.groups.push(Vec::new());
        }
        fn row(&mut self, run: &RunRecord, _same_text: bool) {
            if self.groups.is_empty() {
                self.groups.push(Vec::new());
            }
            self.groups.last_mut().unwrap().push(run.command.clone());
        }
    }

    #[test]
    fn a_header_in_the_middle_starts_a_new_group_with_its_own_columns() {
        let two = format!(
            "{HEADER15}a,,,1,0,1,1,1,1,1,1,1,1\n\
             {},score (number)\n\
             b,,,1,0,1,1,1,1,1,1,1,1,2,2,2.5\n",
            HEADER15.trim_end()
        );
        let mut sink = Groups::default();
        read_raw_csv_into(two.as_bytes(), "t.csv", &mut sink).unwrap();
        assert_eq!(sink.groups, [vec!["a".to_string()], vec!["b".to_string()]]);
        let score = sink.catalogue.find("score").unwrap();
        let recs = read(&two).unwrap();
        assert_eq!(recs.len(), 2, "the second header is no run");
        assert_eq!(recs[1].value(score), Some(Value::Real(2.5)));
        assert_eq!(recs[0].value(score), None);
    }

    #[test]
    fn a_column_read_twice_under_one_name_is_an_error() {
        let head = HEADER15.trim_end();
        let row = "c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,3,4\n";
        // Which Sequence, or which score, did the data mean? The message
        // names both columns, at the header's line.
        for (extra, column, name, first) in [
            ("Sequence,Sequence", 17, "Sequence", 16),
            ("score (number), score (number) ", 17, "score (number)", 16),
            // An appended column named as one of C BestGuess's.
            ("Sequence,wall clock (us)", 17, "wall clock (us)", 13),
            ("Parameter n,Parameter n", 17, "Parameter n", 16),
            // One metric, its unit spelled two ways.
            ("score (number),score (NUMBER)", 17, "score (NUMBER)", 16),
        ] {
            let e = read(&format!("\n{head},{extra}\n{row}")).unwrap_err();
            assert_eq!(e.position(), Some((2, column)), "{extra}: {e}");
            assert_eq!(
                e.problem(),
                Some(&RowProblem::DuplicateColumn { first }),
                "{extra}: {e}"
            );
            assert!(e.to_string().contains(&format!("({name})")), "{e}");
        }
        // A header later in the file is held to the same rule.
        let later = format!("{HEADER15}{row}{head},Sequence,Sequence\n{row}");
        assert_eq!(read(&later).unwrap_err().position(), Some((3, 17)));
        // Columns that are not read may share a name: nothing is mistaken.
        let notes = read(&format!("{head},Sequence,note,note\n{row}")).unwrap();
        assert_eq!(notes[0].sequence, Some(1));
    }

    #[test]
    fn a_row_cut_off_is_an_error_not_a_c_tool_row() {
        let head = format!("{},Sequence,Signal\n", HEADER15.trim_end());
        let full = "x,,,1,0,900,0,1101824,52,0,1,0,950,900,1,1,\n";
        // Cut inside Wall clock: 13 fields, which under BestGuess's header
        // are refused, not read as the C tool's row with wall clock 95.
        let cut = "x,,,1,0,900,0,1101824,52,0,1,0,95";
        for text in [
            format!("{head}{full}{cut}"),
            format!("{head}{full}{cut}\n{full}"),
        ] {
            let e = read(&text).unwrap_err();
            assert_eq!(
                e.problem(),
                Some(&RowProblem::CutOff {
                    found: 13,
                    header: 17
                }),
                "{e}"
            );
            assert_eq!(e.position(), Some((3, 14)));
        }
        // Cut among the appended columns, at the end of the file.
        let e = read(&format!(
            "{head}{full}x,,,1,0,900,0,1101824,52,0,1,0,950,900,1,1"
        ))
        .unwrap_err();
        assert!(
            matches!(e.problem(), Some(RowProblem::CutOff { found: 16, .. })),
            "{e}"
        );
        // With its line end, a row may leave appended columns out.
        let fewer = read(&format!(
            "{head}{full}x,,,1,0,900,0,1101824,52,0,1,0,950,900,1,2\n"
        ))
        .unwrap();
        assert_eq!(fewer[1].sequence, Some(2));
        // The C tool's files: a 15-name header over 13-field rows, the last
        // without a line end.
        let c_tool = format!(
            "{}x,,,1,0,900,0,1840,52,0,1,0,950\nx,,,1,0,910,0,1840,52,0,1,0,960",
            HEADER15
        );
        assert_eq!(read(&c_tool).unwrap().len(), 2);
        // A full last row without a line end is fine.
        assert_eq!(
            read(&format!("{head}{full}{}", full.trim_end()))
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_metric_read_in_two_units_is_an_error() {
        let head = HEADER15.trim_end();
        let row = "c,,,1,0,1,1,1,1,1,1,1,1,2,2,3\n";
        // A later group (or file: one catalogue) in another unit is
        // refused: the column is never dropped without a word.
        let text = format!("{head},score (number)\n{row}{head},score (us)\n{row}");
        let e = read(&text).unwrap_err();
        assert_eq!(e.position(), Some((3, 16)), "{e}");
        assert_eq!(
            e.problem(),
            Some(&RowProblem::MetricClash {
                metric: "score".into(),
                before: Some("score (number)".into())
            })
        );
        assert!(e.to_string().contains("rename this column"), "{e}");
        // A built-in metric's name in another column.
        let e = read(&format!("{head},wall (us)\n{row}")).unwrap_err();
        assert!(
            matches!(e.problem(), Some(RowProblem::MetricClash { metric, .. }) if metric == "wall"),
            "{e}"
        );
        // The same unit spelled otherwise is the same metric.
        let same = format!("{head},score (number)\n{row}{head},score (NUMBER)\n{row}");
        assert_eq!(read(&same).unwrap().len(), 2);
    }

    #[test]
    fn metric_columns_are_read_by_their_unit() {
        let header = format!(
            "{},Sequence,task-clock (ns),Comment,tokens (number),Other (furlongs)\n",
            HEADER15.trim_end()
        );
        let mut sink = Collect::default();
        let text = format!(
            "{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,123456,hello,-1.5e3,x\n\
             c,,,1,0,1,1,1,1,1,1,1,1,2,2,2,,,,\n\
             c,,,1,0,1,1,1,1,1,1,1,1,2,2,3\n"
        );
        read_raw_csv_into(text.as_bytes(), "t.csv", &mut sink).unwrap();
        let c = &sink.catalogue;
        let clock = c.find("task-clock").unwrap();
        let tokens = c.find("tokens").unwrap();
        assert_eq!(
            c.len(),
            super::super::metric::BUILTINS.len() + 2,
            "furlongs and comments are not metrics"
        );
        let r = &sink.records;
        assert_eq!(r[0].value(clock), Some(Value::Int(123_456)));
        assert_eq!(r[0].value(tokens), Some(Value::Real(-1500.0)));
        for later in &r[1..] {
            assert_eq!((later.value(clock), later.value(tokens)), (None, None));
        }
        let bad = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,-5\n");
        let e = read(&bad).unwrap_err();
        assert!(
            e.to_string()
                .contains("column 17 (task-clock (ns)): expected a non-negative"),
            "{e}"
        );
        let bad = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,5,,nan\n");
        let e = read(&bad).unwrap_err();
        assert!(
            e.to_string()
                .contains("column 19 (tokens (number)): expected a number"),
            "{e}"
        );
        let bad = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,5,,-1e101\n");
        let e = read(&bad).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column 19 (tokens (number)): \"-1e101\" is beyond ±1e100"),
            "{e}"
        );
        let edge = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,5,,-1e100\nc,,,1,0,1,1,1,1,1,1,1,1,2,2,2,5,,-0.0\n");
        let r = read(&edge).unwrap();
        assert_eq!(r[0].value(tokens), Some(Value::Real(-1e100)));
        let zero = r[1].value(tokens).unwrap().as_f64();
        assert!(zero == 0.0 && zero.is_sign_positive(), "-0 is read as 0");
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
            assert_eq!(&*unescape_c_tool(input), *expected, "{input:?}");
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
        assert_eq!((r.batch, r.exit_code), (1, -2));
        let int = |m| r.metrics.int(m).unwrap();
        assert_eq!(
            [Metric::USER, Metric::SYSTEM, Metric::WALL].map(int),
            [3, 4, 10]
        );
    }

    #[test]
    fn totals_may_be_blank_but_must_agree() {
        let ok = read(&format!("{HEADER15}c,,,1,0,3,4,0,0,0,1,2,9,,\n")).unwrap();
        assert_eq!(ok[0].metrics.int(Metric::TOTAL), Some(7));
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
        // The free first field of the header may be any bytes.
        let mut bytes = b"\xffCommand".to_vec();
        bytes.extend_from_slice(&HEADER15.as_bytes()[7..]);
        bytes.extend_from_slice(b"c,,,1,0,1,1,1,1,1,1,1,1\n");
        assert_eq!(read_raw_csv(&bytes[..], "t").unwrap().len(), 1);
        let mut bytes = HEADER15.as_bytes().to_vec();
        bytes.extend_from_slice(b"c,\"\xc3\",,1,0,1,1,1,1,1,1,1,1\n");
        let e = read_raw_csv(&bytes[..], "t").unwrap_err();
        assert_eq!(e.position(), Some((2, 2)));
        assert_eq!(e.problem(), Some(&RowProblem::InvalidUtf8));
    }

    #[test]
    fn a_line_that_is_almost_a_header_says_what_is_amiss() {
        let problem = |first_line: &str| match read(&format!("{first_line}\n\"a\",\"\",\"\",1\n")) {
            Err(DataError::NotAHeader { problem, .. }) => problem,
            other => panic!("{other:?}"),
        };
        let full = HEADER15.trim_end();
        assert_eq!(
            problem(&full.replace("Shell", "Command")),
            "column 2 is \"Command\" where \"Shell\" belongs"
        );
        assert_eq!(
            problem(&full.replace("Wall clock (us)", "Wall")),
            "column 13 is \"Wall\" where \"Wall clock (us)\" belongs"
        );
        // The first name is free: another there is not the problem.
        assert_eq!(
            problem(&full.replace("Command", "url").replace("Batch", "Batches")),
            "column 4 is \"Batches\" where \"Batch\" belongs"
        );
        assert_eq!(
            problem("Command,Shell,Name"),
            "it has 3 columns where a raw data header has at least 13"
        );
        assert_eq!(
            problem("command"),
            "it has 1 column where a raw data header has at least 13"
        );
        // Not a header at all: how it starts.
        assert_eq!(problem("\"ls\",\"\",\"\",1,0"), "it starts with \"ls\"");
        assert_eq!(problem("\0\0"), "it starts with \"\\0\\0\"");
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
        assert!(matches!(
            read(&format!("\n{HEADER15}\n\n")),
            Err(DataError::NoDataRows { .. })
        ));
    }

    /// The fast path, in chunks of any size, with or without threads
    /// parsing ahead, gives what the general path alone gives, for
    /// well-formed files and broken ones alike: the same records, the same
    /// dataset (grouping, sources, column representations) and the same
    /// first error.
    mod equivalence {
        use super::*;
        use crate::data::{Dataset, DatasetBuilder};

        /// xorshift64*: reproducible inputs.
        struct Rng(u64);

        impl Rng {
            fn below(&mut self, n: usize) -> usize {
                self.0 ^= self.0 >> 12;
                self.0 ^= self.0 << 25;
                self.0 ^= self.0 >> 27;
                (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
            }
            fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
                from[self.below(from.len())]
            }
        }

        const EXTRA: &[&str] = &[
            "",
            ",Sequence,Start time (us since epoch),Signal,Timed out",
            ",Sequence,Comment,task-clock (ns),tokens (number),Timed out",
            ",Signal,Sequence,Sequence,Other (furlongs)",
            ",Parameter n,Sequence",
            ",Timed out,score (number),Start time (us since epoch)",
        ];

        fn header(rng: &mut Rng) -> String {
            let base = HEADER15.trim_end();
            let first = rng.pick(&["Command", "\"Command\"", "https://x.org/", "command "]);
            let line = if rng.below(8) == 0 { "\r\n" } else { "\n" };
            let columns = &base["Command".len()..];
            if rng.below(10) == 0 {
                // C BestGuess's 13 names only.
                let thirteen: Vec<&str> = columns.split(',').take(13).collect();
                return format!("{first}{}{line}", thirteen.join(","));
            }
            format!("{first}{columns}{}{line}", rng.pick(EXTRA))
        }

        fn number(rng: &mut Rng) -> String {
            let n = rng.pick(&[
                "0",
                "1",
                "7",
                "42",
                "1003",
                "2875392",
                "1795000000002928",
                "",
                "2147483647",
                "2147483648",
                "999999999999999999",
                "1000000000000000000",
                "9223372036854775807",
                "18446744073709551615",
                "18446744073709551616",
                "-1",
                "+5",
                " 3",
                "4 ",
                "\"12\"",
                "1.5",
                "x",
                "00",
                "4096",
                "1048576",
            ]);
            match rng.below(6) {
                0 | 1 => rng.below(5000).to_string(),
                2 => digits(rng),
                _ => n.to_string(),
            }
        }

        /// 1 to 19 random digits, leading zeros too (every width the fast
        /// path reads 8 at a time, across its words, and the one too many).
        fn digits(rng: &mut Rng) -> String {
            let width = 1 + rng.below(19);
            (0..width)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect()
        }

        /// A metric's value: mostly small, else of 1 to 18 digits.
        fn value(rng: &mut Rng) -> u64 {
            if rng.below(3) > 0 {
                return rng.below(3000) as u64;
            }
            let width = 1 + rng.below(18) as u32;
            let v = (rng.below(1 << 30) as u64) << 30 | rng.below(1 << 30) as u64;
            v % 10u64.pow(width)
        }

        fn text(rng: &mut Rng) -> String {
            rng.pick(&[
                "ls",
                "ls",
                "ls",
                "\"ls\"",
                "cmd1 --flag 0",
                "\"cmd1 --flag 0\"",
                "\"a,b\"",
                "\"say \"\"hi\"\"\"",
                "\"multi\nline\"",
                "\"back\\\\slash\\n\"",
                "é",
                "",
                "\"\"",
                "sleep 0.1",
                "\"x\r\ny\"",
                "a\rb",
                "back\\slash",
            ])
            .to_string()
        }

        /// A row of `fields` fields, mostly consistent (totals right);
        /// `clean`: nothing wrong in it, in numbers of every spelling.
        fn row(rng: &mut Rng, fields: usize, clean: bool) -> String {
            if clean {
                let mut f: Vec<String> = (0..3).map(|_| text(rng)).collect();
                f.push(
                    rng.pick(&["1", "2", "+3", "1", "0", " 2 ", "18446744073709551615"])
                        .into(),
                );
                f.push(
                    rng.pick(&["0", "0", "0", "1", "255", "-1", "2147483647"])
                        .into(),
                );
                let values: Vec<u64> = (5..13).map(|_| value(rng)).collect();
                let spell = |rng: &mut Rng, v: u64| match rng.below(12) {
                    0 => format!("\"{v}\""),
                    1 => format!(" {v}"),
                    2 => format!("+{v}"),
                    3 => format!("{v:0width$}", width = 1 + rng.below(18)),
                    _ => v.to_string(),
                };
                for &v in &values {
                    f.push(spell(rng, v));
                }
                if fields > 13 {
                    let total = values[0] + values[1];
                    f.push(if rng.below(5) == 0 {
                        String::new()
                    } else {
                        spell(rng, total)
                    });
                    let total = values[5] + values[6];
                    f.push(if rng.below(5) == 0 {
                        String::new()
                    } else {
                        total.to_string()
                    });
                }
                while f.len() < fields {
                    // Valid in every appended column (Signal cannot be 0).
                    f.push(rng.pick(&["", "1", "1", "\"1\"", " 1", "1\t"]).into());
                }
                f.truncate(fields.max(13));
                return f.join(",");
            }
            let mut f: Vec<String> = (0..3).map(|_| text(rng)).collect();
            f.push(rng.pick(&["1", "2", "3", "1", "0", "7"]).to_string());
            f.push(
                rng.pick(&["0", "0", "0", "1", "255", "-1", "2147483647"])
                    .to_string(),
            );
            let mut parts: Vec<u64> = Vec::new();
            for _ in 5..13 {
                if rng.below(6) == 0 {
                    f.push(number(rng));
                } else {
                    let v = rng.below(3000) as u64;
                    parts.push(v);
                    f.push(v.to_string());
                }
            }
            // The totals of the first parts (right or not, blank).
            for (a, b) in [(5, 6), (10, 11)] {
                if f.len() >= fields {
                    break;
                }
                let sum = f[a].parse::<u64>().ok().zip(f[b].parse::<u64>().ok());
                f.push(match (rng.below(8), sum) {
                    (0, _) => String::new(),
                    (1, _) => number(rng),
                    (_, Some((x, y))) => (u128::from(x) + u128::from(y)).to_string(),
                    _ => number(rng),
                });
            }
            while f.len() < fields {
                f.push(match rng.below(4) {
                    0 => String::new(),
                    1 => rng.pick(&["0", "1", "9", "1"]).to_string(),
                    2 => text(rng),
                    _ => number(rng),
                });
            }
            f.truncate(fields);
            f.join(",")
        }

        /// A raw file, sometimes broken somewhere.
        fn file(rng: &mut Rng) -> Vec<u8> {
            let clean = rng.below(2) == 0;
            let mut out = String::new();
            if rng.below(10) == 0 {
                out.push('\u{feff}');
            }
            if rng.below(6) == 0 {
                out.push_str(" \n\n");
            }
            // The current header's number of fields: a clean file's rows
            // have at least as many (a shorter last row, without its line
            // end, is a row cut off), and 13 (C BestGuess's) only
            // under a header of at most 15.
            let fields_of = |h: &str| h.trim_end().split(',').count();
            let first = header(rng);
            let mut header_fields = fields_of(&first);
            out.push_str(&first);
            let width = 15 + rng.below(7);
            for _ in 0..rng.below(60) {
                match rng.below(40) {
                    0 => {
                        let next = header(rng);
                        header_fields = fields_of(&next);
                        out.push_str(&next);
                    }
                    1 => out.push_str(rng.pick(&["\n", " \t\n", "\r\n", "\"\"\n"])),
                    2 if !clean => {
                        let fields = rng.below(23);
                        out.push_str(&row(rng, fields, clean));
                    }
                    2..=6 if !clean || header_fields <= 15 => out.push_str(&row(rng, 13, clean)),
                    _ if clean => out.push_str(&row(rng, width.max(header_fields), clean)),
                    _ => out.push_str(&row(rng, width, clean)),
                }
                if !out.ends_with('\n') {
                    out.push_str(if rng.below(10) == 0 { "\r\n" } else { "\n" });
                }
            }
            if rng.below(8) == 0 && !out.ends_with("\"\n") {
                out.pop();
            }
            let mut bytes = out.into_bytes();
            let damage = if clean {
                0
            } else {
                rng.below(4).saturating_sub(2)
            };
            for _ in 0..damage {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.below(bytes.len());
                let junk = [
                    b'"', b',', b'\n', b'x', b'-', b'\r', 0xff, b' ', b'\\', b'9',
                ];
                match rng.below(3) {
                    0 => bytes[at] = junk[rng.below(junk.len())],
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, junk[rng.below(junk.len())]),
                }
            }
            bytes
        }

        /// Every outcome of reading `bytes` that should agree, as text.
        fn outcome(bytes: &[u8], options: Options) -> (String, String) {
            let mut sink = Collect::default();
            let records = match read_raw_csv_with(bytes, "t.csv", &mut sink, options) {
                Ok(()) => format!("{:?}", sink.records),
                Err(e) => format!("error: {e} at {:?}", e.position()),
            };
            let mut builder = DatasetBuilder::new(Catalogue::new());
            let dataset = match read_raw_csv_with(bytes, "t.csv", &mut builder, options) {
                Ok(()) => {
                    let d: Dataset = builder.finish();
                    format!("{d:?}")
                }
                Err(e) => format!("error: {e}"),
            };
            (records, dataset)
        }

        fn check(bytes: &[u8]) {
            let general = Options {
                chunk: 1 << 20,
                workers: 0,
                fast: false,
            };
            let expected = outcome(bytes, general);
            for chunk in [1, 3, 8, 13, 64, 1 << 20] {
                for workers in [0, 1, 2] {
                    let options = Options {
                        chunk,
                        workers,
                        fast: true,
                    };
                    assert_eq!(
                        outcome(bytes, options),
                        expected,
                        "{options:?} on {:?}",
                        String::from_utf8_lossy(bytes)
                    );
                }
            }
            // The general path alone in small chunks (rows across them).
            let small = Options {
                chunk: 7,
                ..general
            };
            assert_eq!(outcome(bytes, small), expected);
        }

        #[test]
        fn random_files_well_formed_and_broken() {
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let (mut ok, mut failed) = (0, 0);
            for _ in 0..150 {
                let bytes = file(&mut rng);
                check(&bytes);
                match read_raw_csv(&bytes[..], "t.csv") {
                    Ok(_) => ok += 1,
                    Err(_) => failed += 1,
                }
            }
            // Both kinds were tried, many times.
            assert!(ok >= 20 && failed >= 20, "{ok} read, {failed} refused");
        }

        #[test]
        fn known_cases() {
            let h = HEADER15;
            let run = format!(
                "{}\n",
                h.trim_end().to_string() + ",Sequence,Start time (us since epoch),Signal,Timed out"
            );
            for text in [
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1,2,2\nc,,,1,0,1,1,1,1,1,1,1,1,2,2"),
                format!("{run}\"cmd1 --flag 0\",\"\",\"\",1,0,1003,1598,2875392,120,0,1,0,2888,2601,1,1,1795000000002928,,0\n"),
                format!("{run}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,2,0,0\n"),
                format!("{run}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,2,,00\n"),
                format!("{run}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,2,,2\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1,3,2\n"),
                format!("{h}c,,,1,2147483648,1,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,2875392,1,1,1,1,1\nc,,,1,0,1,1,1048576,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,9007199254740993,1,1,1,1,1\n"),
                // Every width, across eight-byte words; at a chunk's start.
                format!("{run},,,123456789,0,12345678,87654321,123456789012345678,00000007,0,1,2,99999999,99999999,3,1,1795000000002928,,0\n,,,1,0,1,1,1,1,1,1,1,1,2,2,1,123456789012345,,1\n"),
                format!("{run}c,,,0001,00,0000000000000000001,1,1,1,1,1,1,1,2,2,01,0002,,0\n"),
                format!("{run}c,,,1,0,1,1,999999999999999999,1,1,1,1,1,2,2,9223372036854775807,1,,0\n"),
                format!("{run}c,,,1,0,1,1,1,1,1,1,1,1,2,2,1,1,2147483647,0\nc,,,1,0,1,1,1,1,1,1,1,1,2,2,1,1,2147483648,0\n"),
                // Blank where a number is required, or not.
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\nc,,,,0,1,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\nc,,,1,,1,1,1,1,1,1,1,1\n"),
                format!("{run}c,,,1,0,,1,,1,1,1,1,1,,2,,,,\n"),
                // Numbers that are not (all the general path's to judge).
                format!("{h}c,,,1,0,1e5,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,0x10,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,\u{661},1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,12\r,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,12345678\r\n"),
                format!("{h}\"a\\\\b\",,,1,0,1,1,1,1,1,1,1,1\n\"a\\\\b\",,,1,0,1,1,1,1,1,1,1,1,2,2\n"),
                format!("{h}\"a\\\\b\",,,1,0,1,1,1,1,1,1,1,1,2,2\n\"a\\\\b\",,,1,0,1,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\n\n \n{h}c,,,1,0,1,1,1,1,1,1,1,1\n"),
                format!("{h}\"a\nb\",,,1,0,x,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\r\nc,,,1,0,1,1,1,1,1,1,1,1\r\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\rc\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,\"1\nc,,,1,0,1,1,1,1,1,1,1,1\n"),
                format!("{h}c,,,1,0,1,1,1,1,1,1,1,1\nc,,\"\"x,1,0,1,1,1,1,1,1,1,1\n"),
            ] {
                check(text.as_bytes());
                let mut bytes = b"\xef\xbb\xbf".to_vec();
                bytes.extend_from_slice(text.as_bytes());
                check(&bytes);
            }
            // Rounds: commands interleaved row by row (and a batch that
            // changes), every row the fast path's, so that a block holds
            // many stretches of each command.
            let mut rounds = run.clone();
            let mut rng = Rng(7);
            for r in 0..700 {
                for c in ["a", "b", "\"a,b\""] {
                    let batch = 1 + usize::from(r >= 600);
                    let user = rng.below(5000);
                    let wall = rng.below(90_000);
                    rounds += &format!(
                        "{c},,,{batch},0,{user},{},1,2,3,4,5,{wall},,,{},{},,0\n",
                        rng.below(300),
                        3 * r,
                        1_795_000_000_000_000u64 + 2 * r as u64
                    );
                }
            }
            check(rounds.as_bytes());
            // Not UTF-8: in the texts, across the texts, in a skipped column.
            for row in [
                &b"c,\"\xc3\",,1,0,1,1,1,1,1,1,1,1\n"[..],
                b"c\xc3,\xa9,,1,0,1,1,1,1,1,1,1,1,2,2\n",
                b"c,,,1,0,1,1,1,1,1,1,1,1,2,2,\xff\n",
            ] {
                let mut bytes = h.as_bytes().to_vec();
                bytes.extend_from_slice(b"c,,,1,0,1,1,1,1,1,1,1,1\n");
                bytes.extend_from_slice(row);
                check(&bytes);
            }
        }
    }
}

//! Errors from reading raw data, each a single line a user can act on.
//!
//! A raw data file is often hand-edited, concatenated, or produced by C
//! BestGuess, so problems are expected and must be easy to locate: every
//! message names the file, and a problem inside the file names the physical
//! line (1-based, counting every `\n` in the file, including those inside
//! quoted fields) and the column (1-based field number, with its header
//! name when known), says what is wrong, and says what to do. Messages never
//! span lines: offending text is shown escaped and shortened.
//!
//! The I/O cause of an open or read failure is part of the message rather
//! than a `source()`, so that printing the whole cause chain (as the
//! binaries do) does not repeat it.

use std::io;

/// Longest excerpt of offending text shown in a message, in characters.
const EXCERPT_CHARS: usize = 40;

/// Why raw data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened.
    #[error("{file}: cannot open: {cause}")]
    Open { file: String, cause: io::Error },

    /// Reading failed part-way (an I/O error, not a format problem).
    #[error("{file}: cannot read: {cause}")]
    Read { file: String, cause: io::Error },

    /// The file holds nothing but blank lines (typically 0 bytes).
    #[error(
        "{file}: the file is empty; a raw data file has a header line and then one row per \
         timed run (as written by bestguess -o)"
    )]
    Empty { file: String },

    /// A header line and nothing else: no run was recorded.
    #[error(
        "{file}: no data rows after the header line; the file records no runs, so there is \
         nothing to analyse"
    )]
    NoDataRows { file: String },

    /// The first line is not a raw data header.
    #[error(
        "{file}: line {line} is not a raw data header ({problem}); {}",
        if *.header_like {
            "correct that line: a raw data header names the columns Command,Shell,Name,Batch,… \
             in the order bestguess -o writes them"
        } else {
            "a raw data file starts with the line Command,Shell,Name,Batch,… as written by \
             bestguess -o (add that line if the file lost it)"
        }
    )]
    NotAHeader {
        file: String,
        line: u64,
        /// What is wrong with it, e.g. `it starts with "x"`.
        problem: String,
        /// It names some raw data column, so it is a header gone wrong, not
        /// a data row: adding a header line above it would not help.
        header_like: bool,
    },

    /// The file is not in a format that can be read, or holds no runs (a
    /// summary); the message says what to give instead.
    #[error("{file}: {message}")]
    Format { file: String, message: String },

    /// `-` (standard input) was given more than once.
    #[error("{file}: standard input can be read only once; give - at most once")]
    StdinTwice { file: String },

    /// Something wrong at one place in the file.
    #[error(
        "{file}: line {line}, column {column}{}: {problem}",
        .column_name.as_ref().map(|n| format!(" ({n})")).unwrap_or_default()
    )]
    Row {
        file: String,
        /// Physical line, 1-based.
        line: u64,
        /// Field number, 1-based.
        column: usize,
        /// The column's header name, when it is one BestGuess knows.
        column_name: Option<String>,
        problem: RowProblem,
    },
}

impl DataError {
    /// The display name of the file the error is about.
    pub fn file(&self) -> &str {
        match self {
            DataError::Open { file, .. }
            | DataError::Read { file, .. }
            | DataError::Empty { file }
            | DataError::NoDataRows { file }
            | DataError::StdinTwice { file }
            | DataError::NotAHeader { file, .. }
            | DataError::Format { file, .. }
            | DataError::Row { file, .. } => file,
        }
    }

    /// `(line, column)` for a problem inside the file, both 1-based.
    pub fn position(&self) -> Option<(u64, usize)> {
        match self {
            DataError::Row { line, column, .. } => Some((*line, *column)),
            DataError::NotAHeader { line, .. } => Some((*line, 1)),
            _ => None,
        }
    }

    /// The problem inside the file, if that is what this error is.
    pub fn problem(&self) -> Option<&RowProblem> {
        match self {
            DataError::Row { problem, .. } => Some(problem),
            _ => None,
        }
    }
}

/// What is wrong at one place in a raw data file.
///
/// Text in `found` fields is the offending field as written (shortened to
/// 40 characters), and is displayed quoted and escaped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowProblem {
    /// Fewer than 13 fields, or exactly 14.
    #[error(
        "the row has {found} field{}, expected 13 (C BestGuess's format) or at least 15 \
         (BestGuess's); fix or remove that row",
        if *.found == 1 { "" } else { "s" }
    )]
    FieldCount { found: usize },

    /// A number column holds something that is not a decimal integer.
    #[error("expected an integer, found {}; fix or remove that row", Quoted(.found))]
    NotAnInteger { found: String },

    /// A metric column holds something that is not a finite number.
    #[error("expected a number, found {}; fix or remove that row", Quoted(.found))]
    NotANumber { found: String },

    /// A real number beyond what the statistics take.
    #[error(
        "{} is beyond ±1e100, the largest magnitude the statistics take; fix or remove that \
         row",
        Quoted(.found)
    )]
    BeyondMagnitude { found: String },

    /// A measurement is negative.
    #[error(
        "expected a non-negative integer, found {}; a measurement cannot be negative, fix or \
         remove that row",
        Quoted(.found)
    )]
    Negative { found: String },

    /// An integer outside the range the column allows.
    #[error(
        "{} is out of range (allowed: {min} to {max}); fix or remove that row",
        Quoted(.found)
    )]
    OutOfRange { found: String, min: i64, max: u64 },

    /// A derived total (e.g. user + system time) does not fit in 64 bits.
    #[error("{what} is too large to represent; fix or remove that row")]
    SumOverflow { what: &'static str },

    /// A total column disagrees with the columns it is the sum of.
    #[error("expected {sum} ({what}), found {found}; correct the value or remove that row")]
    SumMismatch {
        found: i64,
        sum: i64,
        what: &'static str,
    },

    /// The "Timed out" column holds something other than 0, 1 or nothing.
    #[error("expected 0 or 1, found {}; fix or remove that row", Quoted(.found))]
    NotAFlag { found: String },

    /// A quoted field runs to the end of the file.
    #[error(
        "a quoted field starts here but its closing quote (\") is missing; close the quote or \
         remove that row"
    )]
    UnterminatedQuote,

    /// A `"` inside a field that does not start with one.
    #[error(
        "a quote (\") inside an unquoted field; enclose the whole field in quotes and double \
         the quote inside it (\"\"), or remove that row"
    )]
    StrayQuote,

    /// Text between a closing quote and the next `,` or line end.
    ///
    /// `opened_on` is the line where the quoted field began, when that is
    /// an earlier line: then the likely cause is a closing quote missing
    /// there, which made the field swallow the following lines.
    #[error(
        "unexpected text after a closing quote{}; a quote inside a quoted field must be \
         doubled (\"\"), fix or remove that row",
        .opened_on.map(|l| format!(
            " (the quoted field began on line {l}: is its closing quote missing?)"
        )).unwrap_or_default()
    )]
    TextAfterQuote { opened_on: Option<u64> },

    /// A row with fewer fields than its header where none may be missing:
    /// at the end of the input without a line end, or 13 under a header of
    /// BestGuess's appended columns.
    #[error(
        "the row has {found} fields where its header has {header}: it looks cut off (was the \
         file truncated?); fix or remove that row"
    )]
    CutOff { found: usize, header: usize },

    /// A header names a column that an earlier column of it already names.
    #[error(
        "column {first} has this name too, so which one the data mean cannot be told; a raw \
         data header names each column once, rename or remove one of the two"
    )]
    DuplicateColumn { first: usize },

    /// A metric column whose name is that of a metric read before (in an
    /// earlier file or group, or built in) with another meaning, such as
    /// another unit.
    #[error(
        "the metric {} was read {} before; one metric has one unit and meaning, so \
         rename this column (or convert it to the same unit)",
        Quoted(.metric),
        .before.as_ref().map(|c| format!("from a column {}", Quoted(c))).unwrap_or_else(|| "with another meaning".into())
    )]
    MetricClash {
        metric: String,
        /// The header of the column it was read from, if any.
        before: Option<String>,
    },

    /// The catalogue of metrics cannot take this column.
    #[error("{0}; remove some metric columns")]
    TooManyMetrics(String),

    /// A text field is not valid UTF-8.
    #[error("the text is not valid UTF-8; convert the file to UTF-8")]
    InvalidUtf8,
}

impl RowProblem {
    /// A problem with a column a header names (so the file is a raw CSV,
    /// whatever else is wrong).
    pub fn is_a_header_column(&self) -> bool {
        matches!(
            self,
            RowProblem::DuplicateColumn { .. }
                | RowProblem::MetricClash { .. }
                | RowProblem::TooManyMetrics(_)
        )
    }
}

/// Offending text for a [`RowProblem`]: lossy UTF-8, at most 40 characters.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

/// Displays text quoted and escaped, so a message stays on one line.
pub(crate) struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_error_is_one_line_and_names_everything() {
        let e = DataError::Row {
            file: "data.csv".into(),
            line: 7,
            column: 6,
            column_name: Some("User time (us)".into()),
            problem: RowProblem::NotAnInteger {
                found: "12x".into(),
            },
        };
        assert_eq!(
            e.to_string(),
            "data.csv: line 7, column 6 (User time (us)): expected an integer, \
             found \"12x\"; fix or remove that row"
        );
        assert_eq!(e.position(), Some((7, 6)));
        assert_eq!(e.file(), "data.csv");
    }

    #[test]
    fn offending_text_with_newlines_stays_on_one_line() {
        let p = RowProblem::NotAnInteger {
            found: "1\n2\r\t\"".into(),
        };
        let s = p.to_string();
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert!(s.contains(r#""1\n2\r\t\"""#), "{s}");
    }

    #[test]
    fn excerpt_cuts_on_character_boundaries() {
        let long = "é".repeat(100);
        let e = excerpt(long.as_bytes());
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
        assert_eq!(excerpt(b"short"), "short");
        assert_eq!(excerpt(b"\xff1"), "\u{fffd}1");
    }

    #[test]
    fn column_without_a_known_name() {
        let e = DataError::Row {
            file: "f".into(),
            line: 2,
            column: 30,
            column_name: None,
            problem: RowProblem::StrayQuote,
        };
        assert!(e.to_string().starts_with("f: line 2, column 30: a quote"));
    }

    #[test]
    fn open_error_is_one_line() {
        let e = DataError::Open {
            file: "missing.csv".into(),
            cause: io::Error::from(io::ErrorKind::NotFound),
        };
        let s = e.to_string();
        assert!(s.starts_with("missing.csv: cannot open: "), "{s}");
        assert!(!s.contains('\n'));
        // The cause is in the message, not repeated as a source.
        assert!(std::error::Error::source(&e).is_none());
    }
}

//! Splitting CSV bytes into rows of fields, strictly but forgivingly.
//!
//! A small hand-written state machine rather than the `csv` crate, because
//! the raw-data reader must *reject* malformed quoting that `csv` silently
//! accepts (a stray `"` inside an unquoted field, text after a closing
//! quote, a quote left open at the end of the file) and must report the
//! physical line and field number of each problem. It reads one byte at a
//! time from a `BufRead`, so memory stays at one row regardless of file
//! size, and every byte either advances the input or ends the call: it
//! cannot loop forever on any input (C BestGuess hangs on a stray quote)
//! and it never panics.
//!
//! Accepted: RFC 4180 quoting (`""` inside a quoted field is one `"`), line
//! ends `\n` and `\r\n` (a lone `\r` is ordinary data), and a last line
//! without a line end. A line end inside a quoted field is data. Rows may
//! have any number of fields; counting them is the caller's job, as is
//! skipping blank rows ([`Row::is_blank`]).

use std::io::{self, BufRead};

use super::error::RowProblem;

/// One field of a [`Row`]: a byte range of the row's buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    start: usize,
    end: usize,
    /// The field began with a quote.
    pub quoted: bool,
    /// Physical line (1-based) on which the field starts.
    pub line: u64,
}

/// One row: its fields' bytes (quotes removed, `""` undoubled) in one
/// buffer that is reused from row to row.
#[derive(Debug, Default)]
pub(crate) struct Row {
    bytes: Vec<u8>,
    fields: Vec<Field>,
    /// Physical line (1-based) on which the row starts.
    pub line: u64,
    /// The row ended with the input, without a line end (the last line of
    /// a file without a final newline, or a file cut off).
    pub unterminated: bool,
}

impl Row {
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// The bytes of field `i` (0-based), or `None` past the end of the row.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.fields.get(i).map(|f| &self.bytes[f.start..f.end])
    }

    pub fn field(&self, i: usize) -> Option<&Field> {
        self.fields.get(i)
    }

    /// A line holding nothing but spaces and tabs, or only empty unquoted
    /// fields (`,,,,`: a row a spreadsheet left empty, which is skipped
    /// rather than refused at its Batch column).
    pub fn is_blank(&self) -> bool {
        !self.fields.is_empty()
            && self.fields.iter().all(|f| {
                !f.quoted
                    && self.bytes[f.start..f.end]
                        .iter()
                        .all(|&b| b == b' ' || b == b'\t')
            })
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.fields.clear();
        self.unterminated = false;
    }
}

/// Why a row could not be split.
#[derive(Debug)]
pub(crate) enum TokenError {
    Io(io::Error),
    /// A quoting problem at a physical line and 1-based field number.
    Syntax {
        line: u64,
        column: usize,
        problem: RowProblem,
    },
}

impl From<io::Error> for TokenError {
    fn from(e: io::Error) -> Self {
        TokenError::Io(e)
    }
}

/// [`SPECIAL`] bit: the byte ends a plain quoted field's text.
const IN_QUOTES: u8 = 1;
/// [`SPECIAL`] bit: the byte ends a plain unquoted field.
const UNQUOTED: u8 = 2;

/// Per byte, which plain fields it ends (one load per byte in the fast
/// path's scans instead of several comparisons).
const SPECIAL: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = IN_QUOTES | UNQUOTED;
    t[b'\n' as usize] = IN_QUOTES | UNQUOTED;
    t[b'\r' as usize] = IN_QUOTES | UNQUOTED;
    t[b',' as usize] = UNQUOTED;
    t
};

/// Reads rows from a `BufRead`.
pub(crate) struct Tokenizer<R> {
    input: R,
    /// Current physical line, 1-based.
    line: u64,
    /// The last field read ended with the input, not a line end.
    unterminated: bool,
}

impl<R: BufRead> Tokenizer<R> {
    pub fn new(input: R) -> Self {
        Tokenizer {
            input,
            line: 1,
            unterminated: false,
        }
    }

    /// The input, to read from it directly (then [`Tokenizer::skip`]).
    pub fn input(&mut self) -> &mut R {
        &mut self.input
    }

    /// Consumes `bytes` bytes of the input, which hold `lines` line ends.
    pub fn skip(&mut self, bytes: usize, lines: u64) {
        self.input.consume(bytes);
        self.line += lines;
    }

    /// Reads the next row into `row`; `Ok(false)` at the end of the input.
    pub fn next_row(&mut self, row: &mut Row) -> Result<bool, TokenError> {
        row.clear();
        row.line = self.line;
        if self.plain_row(row)? {
            return Ok(true);
        }
        if self.peek()?.is_none() {
            return Ok(false);
        }
        loop {
            let start = row.bytes.len();
            let line = self.line;
            let column = row.fields.len() + 1;
            let quoted = self.peek()? == Some(b'"');
            let row_ended = if quoted {
                self.bump();
                self.quoted_field(&mut row.bytes, line, column)?
            } else {
                self.unquoted_field(&mut row.bytes, column)?
            };
            row.fields.push(Field {
                start,
                end: row.bytes.len(),
                quoted,
                line,
            });
            if row_ended {
                row.unterminated = std::mem::take(&mut self.unterminated);
                return Ok(true);
            }
        }
    }

    /// The fast path: a row that is wholly in the input's buffer, ends
    /// with `\n`, and whose fields are plain — unquoted without `"` or
    /// `\r`, or quoted without `"`, `\n` or `\r` inside and followed by a
    /// separator — as nearly every row of a raw file is. It is split in one
    /// pass over the buffer and copied at once, and gives exactly what the
    /// general path gives for it. Anything else (or no such row) returns
    /// `false` with nothing consumed, for the general path.
    fn plain_row(&mut self, row: &mut Row) -> Result<bool, TokenError> {
        let buf = loop {
            match self.input.fill_buf() {
                Ok(buf) => break buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            }
        };
        let mut i = 0;
        loop {
            let quoted = buf.get(i) == Some(&b'"');
            let start = i + usize::from(quoted);
            let mut j = start;
            let end = if quoted {
                while j < buf.len() && SPECIAL[usize::from(buf[j])] & IN_QUOTES == 0 {
                    j += 1;
                }
                if buf.get(j) != Some(&b'"') {
                    break;
                }
                j += 1;
                j - 1
            } else {
                while j < buf.len() && SPECIAL[usize::from(buf[j])] & UNQUOTED == 0 {
                    j += 1;
                }
                j
            };
            match buf.get(j) {
                Some(b',') | Some(b'\n') => {}
                _ => break,
            }
            row.fields.push(Field {
                start,
                end,
                quoted,
                line: self.line,
            });
            if buf[j] == b'\n' {
                row.bytes.extend_from_slice(&buf[..j]);
                self.input.consume(j + 1);
                self.line += 1;
                return Ok(true);
            }
            i = j + 1;
        }
        row.fields.clear();
        Ok(false)
    }

    /// The rest of a quoted field, after its opening quote, and the
    /// separator after it. Returns whether the row ended.
    fn quoted_field(
        &mut self,
        out: &mut Vec<u8>,
        line: u64,
        column: usize,
    ) -> Result<bool, TokenError> {
        loop {
            self.copy_until(out, |b| b == b'"' || b == b'\n')?;
            match self.peek()? {
                None => {
                    return Err(TokenError::Syntax {
                        line,
                        column,
                        problem: RowProblem::UnterminatedQuote,
                    })
                }
                Some(b'"') => {
                    self.bump();
                    if self.peek()? == Some(b'"') {
                        self.bump();
                        out.push(b'"');
                    } else {
                        break;
                    }
                }
                Some(b) => {
                    self.bump();
                    if b == b'\n' {
                        self.line += 1;
                    }
                    out.push(b);
                }
            }
        }
        // After the closing quote only a separator may follow.
        match self.peek()? {
            None => {
                self.unterminated = true;
                Ok(true)
            }
            Some(b',') => {
                self.bump();
                Ok(false)
            }
            Some(b'\n') => {
                self.bump();
                self.line += 1;
                Ok(true)
            }
            Some(b'\r') => {
                self.bump();
                if self.peek()? == Some(b'\n') {
                    self.bump();
                    self.line += 1;
                    Ok(true)
                } else {
                    Err(self.after_quote(line, column))
                }
            }
            Some(_) => Err(self.after_quote(line, column)),
        }
    }

    /// Text after the closing quote of a field that opened on `opened`.
    fn after_quote(&self, opened: u64, column: usize) -> TokenError {
        TokenError::Syntax {
            line: self.line,
            column,
            problem: RowProblem::TextAfterQuote {
                opened_on: (opened != self.line).then_some(opened),
            },
        }
    }

    /// An unquoted field and the separator after it. Returns whether the
    /// row ended.
    fn unquoted_field(&mut self, out: &mut Vec<u8>, column: usize) -> Result<bool, TokenError> {
        loop {
            self.copy_until(out, |b| matches!(b, b',' | b'\n' | b'\r' | b'"'))?;
            match self.peek()? {
                None => {
                    self.unterminated = true;
                    return Ok(true);
                }
                Some(b',') => {
                    self.bump();
                    return Ok(false);
                }
                Some(b'\n') => {
                    self.bump();
                    self.line += 1;
                    return Ok(true);
                }
                Some(b'\r') => {
                    self.bump();
                    if self.peek()? == Some(b'\n') {
                        self.bump();
                        self.line += 1;
                        return Ok(true);
                    }
                    out.push(b'\r');
                }
                Some(b'"') => {
                    return Err(TokenError::Syntax {
                        line: self.line,
                        column,
                        problem: RowProblem::StrayQuote,
                    })
                }
                Some(b) => {
                    self.bump();
                    out.push(b);
                }
            }
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.input.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Copies bytes to `out` up to (not including) the first for which
    /// `stop` holds, or to the end of the input: a whole buffer at a time,
    /// where the byte-by-byte path would cost a call per byte.
    fn copy_until(&mut self, out: &mut Vec<u8>, stop: impl Fn(u8) -> bool) -> io::Result<()> {
        loop {
            let buf = loop {
                match self.input.fill_buf() {
                    Ok(buf) => break buf,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if buf.is_empty() {
                return Ok(());
            }
            let (n, found) = match buf.iter().position(|&b| stop(b)) {
                Some(k) => (k, true),
                None => (buf.len(), false),
            };
            out.extend_from_slice(&buf[..n]);
            self.input.consume(n);
            if found {
                return Ok(());
            }
        }
    }

    /// Consumes the byte [`Self::peek`] returned.
    fn bump(&mut self) {
        self.input.consume(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (start line, fields) of each row.
    type Rows = Vec<(u64, Vec<String>)>;

    /// All rows, or the first error as (line, column, problem).
    fn split(input: &[u8]) -> Result<Rows, (u64, usize, RowProblem)> {
        let mut t = Tokenizer::new(input);
        let mut row = Row::default();
        let mut rows = Vec::new();
        loop {
            match t.next_row(&mut row) {
                Ok(false) => return Ok(rows),
                Ok(true) => rows.push((
                    row.line,
                    (0..row.len())
                        .map(|i| String::from_utf8_lossy(row.get(i).unwrap()).into_owned())
                        .collect(),
                )),
                Err(TokenError::Syntax {
                    line,
                    column,
                    problem,
                }) => return Err((line, column, problem)),
                Err(TokenError::Io(e)) => panic!("{e}"),
            }
        }
    }

    fn fields(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn plain_and_quoted_fields() {
        let rows = split(b"a,\"b,c\",\"d\"\"e\",\n\"\",x\n").unwrap();
        assert_eq!(
            rows,
            vec![
                (1, fields(&["a", "b,c", "d\"e", ""])),
                (2, fields(&["", "x"]))
            ]
        );
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        let rows = split(b"a,\"b\"\r\nc,d\r\ne,f").unwrap();
        assert_eq!(
            rows,
            vec![
                (1, fields(&["a", "b"])),
                (2, fields(&["c", "d"])),
                (3, fields(&["e", "f"]))
            ]
        );
    }

    #[test]
    fn lone_cr_is_data() {
        let rows = split(b"a\rb,c\n").unwrap();
        assert_eq!(rows, vec![(1, fields(&["a\rb", "c"]))]);
    }

    #[test]
    fn newlines_inside_quotes_count_as_lines() {
        let rows = split(b"\"a\nb\r\nc\",d\ne\n").unwrap();
        assert_eq!(
            rows,
            vec![(1, fields(&["a\nb\r\nc", "d"])), (4, fields(&["e"]))]
        );
    }

    #[test]
    fn trailing_comma_makes_an_empty_field() {
        assert_eq!(split(b"a,").unwrap(), vec![(1, fields(&["a", ""]))]);
        assert_eq!(split(b"a,\n").unwrap(), vec![(1, fields(&["a", ""]))]);
    }

    #[test]
    fn blank_rows() {
        let mut t = Tokenizer::new(&b"\n \t\r\n\"\"\n"[..]);
        let mut row = Row::default();
        assert!(t.next_row(&mut row).unwrap() && row.is_blank());
        assert!(t.next_row(&mut row).unwrap() && row.is_blank());
        // A quoted empty field is not a blank line.
        assert!(t.next_row(&mut row).unwrap() && !row.is_blank());
        assert!(!t.next_row(&mut row).unwrap());
        // Empty fields alone are (a spreadsheet's empty row), unless quoted
        // or holding anything.
        let mut t = Tokenizer::new(&b",,,\n , ,\t\n,\"\",\n,0,\n"[..]);
        for blank in [true, true, false, false] {
            assert!(t.next_row(&mut row).unwrap());
            assert_eq!(row.is_blank(), blank, "{:?}", row.bytes);
        }
    }

    #[test]
    fn empty_input_has_no_rows() {
        assert_eq!(split(b"").unwrap(), vec![]);
    }

    #[test]
    fn unterminated_quote_points_at_its_start() {
        assert_eq!(
            split(b"h\na,\"b\nc\nd"),
            Err((2, 2, RowProblem::UnterminatedQuote))
        );
    }

    #[test]
    fn stray_quote_is_an_error_not_a_hang() {
        assert_eq!(
            split(b"h\n\"x\",ls -l\",1\n"),
            Err((2, 2, RowProblem::StrayQuote))
        );
    }

    #[test]
    fn text_after_a_closing_quote() {
        assert_eq!(
            split(b"\"a\"b,c\n"),
            Err((1, 1, RowProblem::TextAfterQuote { opened_on: None }))
        );
        assert_eq!(
            split(b"x,\"a\"\rb\n"),
            Err((1, 2, RowProblem::TextAfterQuote { opened_on: None }))
        );
        // The line reported is where the quote closed.
        assert_eq!(
            split(b"\"a\nb\" c\n"),
            Err((2, 1, RowProblem::TextAfterQuote { opened_on: Some(1) }))
        );
    }
}

//! Writing the raw data CSV: the record of truth, one row per timed run.
//!
//! The raw file is what every report is regenerated from, so it is written
//! as the experiment goes: [`RawCsvWriter::write_run`] formats one row into a
//! reused buffer, hands it to the underlying writer in one `write_all`, and
//! flushes. If the process is killed afterwards, the file is well-formed up
//! to and including that row. (Flushing hands the bytes to the operating
//! system, which is what survives a killed process; it is not an `fsync`.)
//! Pass a `File` directly: wrapping it in a `BufWriter` adds nothing, since
//! the row is already buffered here.
//!
//! The format is the C reference's (see `docs/DESIGN.md`, "Raw data CSV"):
//! its fifteen header names, then BestGuess's appended columns. Unlike the
//! reference, every row has all fifteen reference fields, and text is plain
//! RFC 4180: always quoted, `"` doubled, commas, newlines and backslashes
//! kept literally. The reader tells the two apart by field count (13 fields:
//! reference, backslash-escaped; 15 or more: ours, RFC 4180).
//!
//! A hand-written formatter is used rather than the `csv` crate because the
//! exact output (always-quoted text, bare numbers, empty optional fields) is
//! simple and fixed, and so that writing a row allocates nothing once the
//! buffer has grown.

use std::io::{self, Write};

use super::columns::{APPENDED_COLUMNS, REFERENCE_COLUMNS};
use super::RunRecord;

/// Writes raw data rows, flushing each as it is written.
#[derive(Debug)]
pub struct RawCsvWriter<W: Write> {
    out: W,
    row: Vec<u8>,
}

impl<W: Write> RawCsvWriter<W> {
    /// Writes the header line and flushes it.
    pub fn new(mut out: W) -> io::Result<Self> {
        let mut row = Vec::with_capacity(512);
        write_header(&mut row);
        out.write_all(&row)?;
        out.flush()?;
        Ok(RawCsvWriter { out, row })
    }

    /// Writes one row for `run` and flushes it.
    ///
    /// A record the reader would reject (a negative measurement, a signal
    /// number below 1, or totals too large for 64 bits) is refused with an
    /// [`io::ErrorKind::InvalidInput`] error and nothing is written, so that
    /// every file this writer produces can be read back.
    pub fn write_run(&mut self, run: &RunRecord) -> io::Result<()> {
        check_writable(run).map_err(|why| io::Error::new(io::ErrorKind::InvalidInput, why))?;
        self.row.clear();
        format_row(run, &mut self.row);
        self.out.write_all(&self.row)?;
        self.out.flush()
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// Gives back the underlying writer (already flushed).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The header line, newline included.
pub fn header_line() -> String {
    let mut v = Vec::new();
    write_header(&mut v);
    String::from_utf8(v).expect("column names are ASCII")
}

fn write_header(buf: &mut Vec<u8>) {
    let names = REFERENCE_COLUMNS.iter().chain(APPENDED_COLUMNS.iter());
    for (i, name) in names.enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(name.as_bytes());
    }
    buf.push(b'\n');
}

/// Why `run` cannot be written, if it cannot: the reader's range checks.
fn check_writable(run: &RunRecord) -> Result<(), String> {
    let measurements = [
        ("User time", run.user_us),
        ("System time", run.system_us),
        ("Max RSS", run.maxrss_bytes),
        ("Page Reclaims", run.minor_faults),
        ("Page Faults", run.major_faults),
        ("Voluntary Context Switches", run.voluntary_csw),
        ("Involuntary Context Switches", run.involuntary_csw),
        ("Wall clock", run.wall_us),
    ];
    for (what, value) in measurements {
        if value < 0 {
            return Err(format!("cannot record a negative {what} ({value})"));
        }
    }
    if run.user_us.checked_add(run.system_us).is_none() {
        return Err("user + system time is too large to record".into());
    }
    if run.voluntary_csw.checked_add(run.involuntary_csw).is_none() {
        return Err("the total of context switches is too large to record".into());
    }
    if let Some(signal) = run.signal {
        if signal < 1 {
            return Err(format!("cannot record signal number {signal}"));
        }
    }
    Ok(())
}

/// Appends one row, newline included. `run` must pass [`check_writable`].
fn format_row(run: &RunRecord, buf: &mut Vec<u8>) {
    quoted(buf, &run.command);
    buf.push(b',');
    quoted(buf, &run.shell);
    buf.push(b',');
    quoted(buf, &run.name);
    // Writing into a Vec cannot fail.
    let _ = write!(
        buf,
        ",{},{},{},{},{},{},{},{},{},{},{},{},",
        run.batch,
        run.exit_code,
        run.user_us,
        run.system_us,
        run.maxrss_bytes,
        run.minor_faults,
        run.major_faults,
        run.voluntary_csw,
        run.involuntary_csw,
        run.wall_us,
        run.total_us(),
        run.total_csw(),
    );
    if let Some(seq) = run.sequence {
        let _ = write!(buf, "{seq}");
    }
    buf.push(b',');
    if let Some(start) = run.start_unix_us {
        let _ = write!(buf, "{start}");
    }
    buf.push(b',');
    if let Some(signal) = run.signal {
        let _ = write!(buf, "{signal}");
    }
    buf.push(b',');
    buf.push(if run.timed_out { b'1' } else { b'0' });
    buf.push(b'\n');
}

/// RFC 4180 text: always quoted, `"` doubled, everything else literal.
fn quoted(buf: &mut Vec<u8>, text: &str) {
    buf.push(b'"');
    for &b in text.as_bytes() {
        if b == b'"' {
            buf.push(b'"');
        }
        buf.push(b);
    }
    buf.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RunRecord {
        RunRecord {
            command: "ls -l".into(),
            shell: String::new(),
            name: String::new(),
            batch: 1,
            exit_code: 0,
            user_us: 1483,
            system_us: 7,
            maxrss_bytes: 2200,
            minor_faults: 146,
            major_faults: 0,
            voluntary_csw: 1,
            involuntary_csw: 2,
            wall_us: 1577,
            sequence: None,
            start_unix_us: None,
            signal: None,
            timed_out: false,
        }
    }

    fn written(runs: &[RunRecord]) -> String {
        let mut w = RawCsvWriter::new(Vec::new()).unwrap();
        for r in runs {
            w.write_run(r).unwrap();
        }
        String::from_utf8(w.into_inner()).unwrap()
    }

    #[test]
    fn header_is_the_reference_names_then_ours() {
        assert_eq!(
            header_line(),
            "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),\
             Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
             Involuntary Context Switches,Wall clock (us),Total time (us),\
             Total Context Switches,Sequence,Start time (us since epoch),Signal,Timed out\n"
        );
        assert_eq!(written(&[]), header_line());
    }

    #[test]
    fn row_has_all_fields_and_empty_optionals() {
        let out = written(&[sample()]);
        let row = out.lines().nth(1).unwrap();
        assert_eq!(
            row,
            r#""ls -l","","",1,0,1483,7,2200,146,0,1,2,1577,1490,3,,,,0"#
        );
    }

    #[test]
    fn row_with_optionals_set() {
        let r = RunRecord {
            sequence: Some(42),
            start_unix_us: Some(1_700_000_000_000_000),
            signal: Some(9),
            timed_out: true,
            exit_code: 137,
            ..sample()
        };
        let out = written(&[r]);
        let row = out.lines().nth(1).unwrap();
        assert!(
            row.ends_with(",137,1483,7,2200,146,0,1,2,1577,1490,3,42,1700000000000000,9,1"),
            "{row}"
        );
    }

    #[test]
    fn text_is_rfc4180_without_backslash_escapes() {
        let r = RunRecord {
            command: "awk '/a\\.b/' \"x\"".into(),
            shell: "/bin/sh -c".into(),
            name: "a,b\nc\r\td é".into(),
            ..sample()
        };
        let out = written(&[r]);
        assert!(out.contains("\n\"awk '/a\\.b/' \"\"x\"\"\",\"/bin/sh -c\",\"a,b\nc\r\td é\",1,"));
    }

    #[test]
    fn each_row_is_flushed_as_written() {
        /// Records how many bytes had been flushed at each flush.
        #[derive(Default)]
        struct Flushes {
            pending: Vec<u8>,
            flushed: Vec<u8>,
            writes: usize,
        }
        impl Write for Flushes {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.writes += 1;
                self.pending.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                self.flushed.append(&mut self.pending);
                Ok(())
            }
        }
        let mut w = RawCsvWriter::new(Flushes::default()).unwrap();
        assert_eq!(w.get_ref().flushed, header_line().as_bytes());
        w.write_run(&sample()).unwrap();
        let inner = w.get_ref();
        assert!(inner.pending.is_empty());
        assert_eq!(inner.flushed.iter().filter(|&&b| b == b'\n').count(), 2);
        // One write call per row: a row is never split across writes.
        assert_eq!(inner.writes, 2);
    }

    #[test]
    fn unreadable_records_are_refused_and_not_written() {
        let mut w = RawCsvWriter::new(Vec::new()).unwrap();
        for bad in [
            RunRecord {
                wall_us: -1,
                ..sample()
            },
            RunRecord {
                user_us: i64::MAX,
                system_us: 1,
                ..sample()
            },
            RunRecord {
                voluntary_csw: i64::MAX,
                involuntary_csw: 1,
                ..sample()
            },
            RunRecord {
                signal: Some(0),
                ..sample()
            },
        ] {
            let e = w.write_run(&bad).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        }
        assert_eq!(w.into_inner(), header_line().into_bytes());
    }

    #[test]
    fn negative_exit_code_and_zero_times_are_fine() {
        let r = RunRecord {
            exit_code: -3,
            user_us: 0,
            system_us: 0,
            ..sample()
        };
        let out = written(&[r]);
        assert!(out.lines().nth(1).unwrap().contains(",1,-3,0,0,"));
    }
}

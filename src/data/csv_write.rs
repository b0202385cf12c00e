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
//! The format is C BestGuess's (see `docs/formats.md`, "The raw CSV"):
//! its fifteen header names, then BestGuess's appended columns. Unlike C
//! BestGuess, every row has all fifteen of its fields, and text is plain
//! RFC 4180: always quoted, `"` doubled, commas, newlines and backslashes
//! kept literally. The reader tells the two apart by field count (13 fields:
//! C BestGuess's, backslash-escaped; 15 or more: ours, RFC 4180).
//!
//! A hand-written formatter is used rather than the `csv` crate because the
//! exact output (always-quoted text, bare numbers, empty optional fields) is
//! simple and fixed, and so that writing a row allocates nothing once the
//! buffer has grown.

use std::io::{self, Write};

use super::columns::{AdaptiveRule, APPENDED_COLUMNS, C_TOOL_COLUMNS, PARAMETER_PREFIX};
use super::metric::{Catalogue, Metric, MetricDef, RawColumn, Source, Unit, Value};
use super::RunRecord;

/// Writes raw data rows, flushing each as it is written.
#[derive(Debug)]
pub struct RawCsvWriter<W: Write> {
    out: W,
    row: Vec<u8>,
    /// The metric columns after the first five, in column order: the
    /// C BestGuess's ten, then (after BestGuess's run columns) the appended.
    c_tool: Vec<(Metric, MetricDef)>,
    appended: Vec<(Metric, MetricDef)>,
    /// The rule of an adaptive experiment, one column of empty fields
    /// before the parameters' (its header name records it).
    adaptive: Option<AdaptiveRule>,
    /// Parameter names, one `Parameter NAME` column each, last.
    parameters: Vec<String>,
}

impl<W: Write> RawCsvWriter<W> {
    /// Writes the header line for the metrics of `catalogue` and flushes it.
    pub fn new(out: W, catalogue: &Catalogue) -> io::Result<Self> {
        RawCsvWriter::with_parameters(out, catalogue, &[])
    }

    /// As [`RawCsvWriter::new`], with one `Parameter NAME` column per
    /// parameter after every other column; each run's value is looked up by
    /// name in [`RunRecord::parameters`].
    pub fn with_parameters(
        out: W,
        catalogue: &Catalogue,
        parameters: &[String],
    ) -> io::Result<Self> {
        RawCsvWriter::for_experiment(out, catalogue, parameters, None)
    }

    /// As [`RawCsvWriter::with_parameters`], for an experiment whose
    /// stopping rule is `adaptive` (`--runs auto`): the header records it
    /// ([`AdaptiveRule::header`]).
    pub fn for_experiment(
        out: W,
        catalogue: &Catalogue,
        parameters: &[String],
        adaptive: Option<AdaptiveRule>,
    ) -> io::Result<Self> {
        let mut c_tool: Vec<(Metric, MetricDef)> = Vec::new();
        let mut appended = Vec::new();
        for (m, def) in catalogue.iter() {
            match def.raw {
                RawColumn::CTool(_) => c_tool.push((m, def.clone())),
                RawColumn::Appended => appended.push((m, def.clone())),
            }
        }
        c_tool.sort_by_key(|(_, d)| match d.raw {
            RawColumn::CTool(p) => p,
            RawColumn::Appended => usize::MAX,
        });
        let mut w = RawCsvWriter {
            out,
            row: Vec::with_capacity(512),
            c_tool,
            appended,
            adaptive,
            parameters: parameters.to_vec(),
        };
        w.write_header();
        w.out.write_all(&w.row)?;
        w.out.flush()?;
        Ok(w)
    }

    /// Writes one row for `run` and flushes it.
    ///
    /// A record the reader would reject (a required metric missing or
    /// negative, a total too large for 64 bits, a signal number below 1, a
    /// fraction in an integer metric) is refused with an
    /// [`io::ErrorKind::InvalidInput`] error and nothing is written, so
    /// that every file this writer produces can be read back.
    pub fn write_run(&mut self, run: &RunRecord) -> io::Result<()> {
        self.check_writable(run)
            .map_err(|why| io::Error::new(io::ErrorKind::InvalidInput, why))?;
        self.row.clear();
        self.format_row(run);
        self.out.write_all(&self.row)?;
        self.out.flush()
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The underlying writer, to change how it writes (not what).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Gives back the underlying writer (already flushed).
    pub fn into_inner(self) -> W {
        self.out
    }

    fn write_header(&mut self) {
        let buf = &mut self.row;
        buf.clear();
        let fixed = C_TOOL_COLUMNS[..5].iter().copied();
        let c_tool = self.c_tool.iter().map(|(_, d)| d.column.as_ref());
        let appended = self.appended.iter().map(|(_, d)| d.column.as_ref());
        let parameters: Vec<String> = self
            .parameters
            .iter()
            .map(|p| format!("{PARAMETER_PREFIX}{p}"))
            .collect();
        let adaptive = self.adaptive.map(|a| a.header());
        let names = fixed
            .chain(c_tool)
            .chain(APPENDED_COLUMNS.iter().copied())
            .chain(appended)
            .chain(adaptive.as_deref())
            .chain(parameters.iter().map(String::as_str));
        for (i, name) in names.enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            field(buf, name);
        }
        buf.push(b'\n');
    }

    /// Why `run` cannot be written, if it cannot: the reader's checks.
    fn check_writable(&self, run: &RunRecord) -> Result<(), String> {
        for (m, def) in self.c_tool.iter().chain(&self.appended) {
            match (run.value(*m), def.source) {
                (None, Source::Sum(..)) if !def.optional && has_parts(run, def) => {
                    return Err(format!("the {} is too large to record", def.label))
                }
                (None, _) if !def.optional && def.source == Source::Stored => {
                    return Err(format!("the {} was not measured", def.label))
                }
                (Some(Value::Int(v)), _) if v < 0 && def.unit != Unit::Number => {
                    return Err(format!("cannot record a negative {} ({v})", def.label))
                }
                (Some(v @ (Value::Real(_) | Value::Seconds(_))), _)
                    if def.integer || !v.as_f64().is_finite() =>
                {
                    return Err(format!("cannot record {} as the {}", v.as_f64(), def.label))
                }
                _ => {}
            }
        }
        if let Some(signal) = run.signal {
            if signal < 1 {
                return Err(format!("cannot record signal number {signal}"));
            }
        }
        Ok(())
    }

    /// Appends one row, newline included. `run` must be writable.
    fn format_row(&mut self, run: &RunRecord) {
        let buf = &mut self.row;
        quoted(buf, &run.command);
        buf.push(b',');
        quoted(buf, &run.shell);
        buf.push(b',');
        quoted(buf, &run.name);
        // Writing into a Vec cannot fail.
        let _ = write!(buf, ",{},{}", run.batch, run.exit_code);
        for (m, _) in &self.c_tool {
            buf.push(b',');
            if let Some(v) = run.value(*m) {
                let _ = write!(buf, "{v}");
            }
        }
        buf.push(b',');
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
        for (m, _) in &self.appended {
            buf.push(b',');
            if let Some(v) = run.value(*m) {
                let _ = write!(buf, "{v}");
            }
        }
        if self.adaptive.is_some() {
            buf.push(b',');
        }
        for name in &self.parameters {
            buf.push(b',');
            let value = run.parameters.iter().find(|(n, _)| n == name);
            quoted(buf, value.map_or("", |(_, v)| v.as_str()));
        }
        buf.push(b'\n');
    }
}

/// Whether the parts of a sum are both there (so its absence is overflow).
fn has_parts(run: &RunRecord, def: &MetricDef) -> bool {
    match def.source {
        Source::Sum(a, b) => run.value(a).is_some() && run.value(b).is_some(),
        Source::Stored => false,
    }
}

/// The header line for the fixed metrics, newline included.
pub fn header_line() -> String {
    let w = RawCsvWriter::new(Vec::new(), &Catalogue::new()).expect("a Vec takes any write");
    String::from_utf8(w.into_inner()).expect("column names are UTF-8")
}

/// A header name: bare unless it needs quoting (a registered metric's name
/// may hold a comma or a quote).
fn field(buf: &mut Vec<u8>, name: &str) {
    if name.contains([',', '"', '\n', '\r']) {
        quoted(buf, name);
    } else {
        buf.extend_from_slice(name.as_bytes());
    }
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
            batch: 1,
            ..RunRecord::default()
        }
        .with(Metric::USER, 1483)
        .with(Metric::SYSTEM, 7)
        .with(Metric::MAXRSS, 2200)
        .with(Metric::MINOR_FAULTS, 146)
        .with(Metric::MAJOR_FAULTS, 0)
        .with(Metric::VOLUNTARY_CSW, 1)
        .with(Metric::INVOLUNTARY_CSW, 2)
        .with(Metric::WALL, 1577)
    }

    fn written(runs: &[RunRecord]) -> String {
        let mut w = RawCsvWriter::new(Vec::new(), &Catalogue::new()).unwrap();
        for r in runs {
            w.write_run(r).unwrap();
        }
        String::from_utf8(w.into_inner()).unwrap()
    }

    #[test]
    fn header_is_c_bestguess_names_then_ours() {
        assert_eq!(
            header_line(),
            "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),\
             Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
             Involuntary Context Switches,Wall clock (us),Total time (us),\
             Total Context Switches,Sequence,Start time (us since epoch),Signal,Timed out,\
             Run-queue delay (us)\n"
        );
        assert_eq!(written(&[]), header_line());
    }

    #[test]
    fn row_has_all_fields_and_empty_optionals() {
        let out = written(&[sample()]);
        let row = out.lines().nth(1).unwrap();
        assert_eq!(
            row,
            r#""ls -l","","",1,0,1483,7,2200,146,0,1,2,1577,1490,3,,,,0,"#
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
        }
        .with(Metric::RUN_DELAY, 35);
        let out = written(&[r]);
        let row = out.lines().nth(1).unwrap();
        assert!(
            row.ends_with(",137,1483,7,2200,146,0,1,2,1577,1490,3,42,1700000000000000,9,1,35"),
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
        let mut w = RawCsvWriter::new(Flushes::default(), &Catalogue::new()).unwrap();
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
        let mut w = RawCsvWriter::new(Vec::new(), &Catalogue::new()).unwrap();
        let mut missing = sample();
        missing.metrics.set(Metric::MAJOR_FAULTS, None);
        let mut fraction = sample();
        fraction.metrics.set(Metric::WALL, Some(Value::Real(2.5)));
        for bad in [
            sample().with(Metric::WALL, -1),
            sample()
                .with(Metric::USER, i64::MAX)
                .with(Metric::SYSTEM, 1),
            sample()
                .with(Metric::VOLUNTARY_CSW, i64::MAX)
                .with(Metric::INVOLUNTARY_CSW, 1),
            RunRecord {
                signal: Some(0),
                ..sample()
            },
            missing,
            fraction,
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
            ..sample()
        }
        .with(Metric::USER, 0)
        .with(Metric::SYSTEM, 0);
        let out = written(&[r]);
        assert!(out.lines().nth(1).unwrap().contains(",1,-3,0,0,"));
    }

    #[test]
    fn registered_metrics_are_appended_columns() {
        let mut c = Catalogue::new();
        let clock = c
            .register(MetricDef::appended("task-clock", Unit::Nanoseconds))
            .unwrap();
        let score = c
            .register(MetricDef::appended("score, final", Unit::Number))
            .unwrap();
        let mut w = RawCsvWriter::new(Vec::new(), &c).unwrap();
        let mut r = sample().with(clock, 1_234_567);
        r.metrics.set(score, Some(Value::Real(-2.5)));
        w.write_run(&r).unwrap();
        w.write_run(&sample()).unwrap();
        let mut bad = sample();
        bad.metrics.set(clock, Some(Value::Real(0.5)));
        assert!(w.write_run(&bad).is_err(), "a count is whole");
        let out = String::from_utf8(w.into_inner()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].ends_with(
                ",Timed out,Run-queue delay (us),task-clock (ns),\"score, final (number)\""
            ),
            "{}",
            lines[0]
        );
        assert!(lines[1].ends_with(",0,,1234567,-2.5"), "{}", lines[1]);
        assert!(lines[2].ends_with(",0,,,"), "{}", lines[2]);
    }
}

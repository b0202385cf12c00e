//! The per-run parts of the JSON export (Hyperfine 1.x's `times`,
//! `memory_usage_byte` and `exit_codes`, Hyperfine 2.0's `measurements`,
//! BestGuess's `per_run` arrays): with a million runs per command they are
//! nearly all of the document's bytes, so they are formatted here, a range
//! of runs at a time, straight from the dataset's columns into a byte
//! buffer, with no tree, no per-value formatter call and no copy of the
//! runs.
//!
//! The text is exactly what [`super::json`]'s printer writes for the same
//! values (serde_json's shortest round-trip form for reals; the unit tests
//! compare): whole µs shown as seconds are spelled by integer arithmetic,
//! which gives the same digits as the shortest form for any value of 15
//! digits or fewer (no two decimals of up to 15 significant digits round
//! to the same `f64`); everything else goes through serde_json.

use std::io::{self, Write};
use std::ops::Range;

use crate::data::{Attribute, CommandRuns, Metric, Value};

/// Where the text goes: a writer that may take a whole buffer at once.
pub(super) trait Out: Write {
    /// Writes all of `buf` and leaves it empty (its capacity to reuse, or
    /// a new buffer of that capacity).
    fn put(&mut self, buf: &mut Vec<u8>) -> io::Result<()> {
        self.write_all(buf)?;
        buf.clear();
        Ok(())
    }
}

impl Out for Vec<u8> {}

/// Runs formatted per step.
const STEP: usize = 4096;
/// Bytes gathered before they are handed to the writer.
const FLUSH_AT: usize = 256 * 1024;

/// What a per-run array holds for each run.
#[derive(Clone, Copy, Debug)]
pub(super) enum PerRun {
    /// The metric's value in its unit; `null` where the run lacks it.
    Metric(Metric),
    /// A time metric in µs, as seconds (Hyperfine's `times`).
    Seconds(Metric),
    ExitCode,
    /// The exit code, `null` for a run ended by a signal (as Hyperfine).
    HyperfineExitCode,
    Signal,
    /// The run's position in execution order, `null` if not recorded.
    Sequence,
    /// When the run started (µs since the epoch), `null` if not recorded.
    Start,
}

/// Hyperfine 2.0's metrics in the order it writes a measurement's keys:
/// key, BestGuess metric, unit word, whether stored in µs (shown in s).
pub(super) const MEASUREMENT_METRICS: [(&str, Metric, &str, bool); 5] = [
    ("time_wall_clock", Metric::WALL, "second", true),
    ("time_cpu", Metric::TOTAL, "second", true),
    ("time_user", Metric::USER, "second", true),
    ("time_system", Metric::SYSTEM, "second", true),
    ("memory_peak_resident", Metric::MAXRSS, "byte", false),
];

/// Writes every run's value as one array on one line: `[1, 2, 3]`.
pub(super) fn array(out: &mut impl Out, runs: &CommandRuns, what: PerRun) -> io::Result<()> {
    let mut buf = Vec::with_capacity(capacity(runs, 24));
    let mut values = Vec::with_capacity(STEP.min(runs.len()));
    let mut signals = Vec::new();
    buf.push(b'[');
    for range in steps(runs.len()) {
        values.clear();
        let first = range.start == 0;
        match what {
            PerRun::Metric(m) | PerRun::Seconds(m) => {
                runs.values_range(m, range.clone(), &mut values)
            }
            PerRun::ExitCode | PerRun::HyperfineExitCode => {
                runs.attribute_range(Attribute::ExitCode, range.clone(), &mut values)
            }
            PerRun::Signal => runs.attribute_range(Attribute::Signal, range.clone(), &mut values),
            PerRun::Sequence => {
                runs.attribute_range(Attribute::Sequence, range.clone(), &mut values)
            }
            PerRun::Start => runs.attribute_range(Attribute::Start, range.clone(), &mut values),
        }
        if let PerRun::HyperfineExitCode = what {
            signals.clear();
            runs.attribute_range(Attribute::Signal, range.clone(), &mut signals);
        }
        for (k, v) in values.iter().enumerate() {
            if !(first && k == 0) {
                buf.extend_from_slice(b", ");
            }
            match (what, *v) {
                (_, None) => buf.extend_from_slice(b"null"),
                (PerRun::Seconds(_), Some(v)) => seconds(&mut buf, v),
                (PerRun::HyperfineExitCode, Some(_)) if signals[k].is_some() => {
                    buf.extend_from_slice(b"null")
                }
                // Stored as the u64's bits; one beyond i64 is written as
                // the largest i64.
                (PerRun::Sequence, Some(Value::Int(s))) => {
                    int(&mut buf, if s < 0 { i64::MAX } else { s })
                }
                (_, Some(v)) => value(&mut buf, v),
            }
        }
        if buf.len() >= FLUSH_AT {
            out.put(&mut buf)?;
        }
    }
    buf.push(b']');
    out.put(&mut buf)
}

/// Writes Hyperfine 2.0's `measurements` array, one element per line at
/// nesting `depth` (the array's own), as [`super::json`]'s `list_n` lays
/// out a list: the metrics the run has (an absent one is left out, never
/// 0) and its exit code (`null` when a signal ended it, as in Hyperfine).
pub(super) fn measurements(out: &mut impl Out, runs: &CommandRuns, depth: usize) -> io::Result<()> {
    let n = runs.len();
    let mut buf = Vec::with_capacity(capacity(runs, 300));
    let mut columns: [Vec<Option<Value>>; 5] = Default::default();
    let (mut codes, mut signals) = (Vec::new(), Vec::new());
    let item_indent = "  ".repeat(depth + 1);
    buf.push(b'[');
    for range in steps(n) {
        for (column, (_, metric, ..)) in columns.iter_mut().zip(MEASUREMENT_METRICS) {
            column.clear();
            runs.values_range(metric, range.clone(), column);
        }
        codes.clear();
        signals.clear();
        runs.attribute_range(Attribute::ExitCode, range.clone(), &mut codes);
        runs.attribute_range(Attribute::Signal, range.clone(), &mut signals);
        for k in 0..range.len() {
            buf.extend_from_slice(if range.start + k == 0 { b"\n" } else { b",\n" });
            buf.extend_from_slice(item_indent.as_bytes());
            buf.push(b'{');
            for (column, (key, _, unit, in_us)) in columns.iter().zip(MEASUREMENT_METRICS) {
                let Some(v) = column[k] else { continue };
                buf.push(b'"');
                buf.extend_from_slice(key.as_bytes());
                buf.extend_from_slice(b"\": {\"value\": ");
                if in_us {
                    seconds(&mut buf, v);
                } else {
                    value(&mut buf, v);
                }
                buf.extend_from_slice(b", \"unit\": \"");
                buf.extend_from_slice(unit.as_bytes());
                buf.extend_from_slice(b"\"}, ");
            }
            buf.extend_from_slice(b"\"exit_code\": ");
            match (signals[k], codes[k]) {
                (None, Some(Value::Int(code))) => int(&mut buf, code),
                _ => buf.extend_from_slice(b"null"),
            }
            buf.push(b'}');
        }
        if buf.len() >= FLUSH_AT {
            out.put(&mut buf)?;
        }
    }
    if n > 0 {
        buf.push(b'\n');
        buf.extend_from_slice("  ".repeat(depth).as_bytes());
    }
    buf.push(b']');
    out.put(&mut buf)
}

/// A buffer size for `runs` at about `per_run` bytes each: what they need
/// up to [`FLUSH_AT`] and a step's worth more (10,000 commands of 5 runs
/// must not each take a quarter of a MiB).
fn capacity(runs: &CommandRuns, per_run: usize) -> usize {
    (runs.len() * per_run + 64).min(FLUSH_AT + STEP * per_run)
}

/// The runs in steps of [`STEP`].
fn steps(n: usize) -> impl Iterator<Item = Range<usize>> {
    (0..n).step_by(STEP).map(move |s| s..(s + STEP).min(n))
}

/// A value in its unit: an integer as is, a real in shortest form.
fn value(buf: &mut Vec<u8>, v: Value) {
    match v {
        Value::Int(x) => int(buf, x),
        Value::Real(x) => real(buf, x),
    }
}

/// A value in µs as seconds, as `real(v / 1e6)` writes it.
fn seconds(buf: &mut Vec<u8>, v: Value) {
    // From 10 µs (below, the shortest form is 1e-6…9e-6) to 15 digits.
    const FAST: Range<i64> = 10..1_000_000_000_000_000;
    match v {
        Value::Int(us) if FAST.contains(&us) => {
            let (whole, fraction) = (us / 1_000_000, us % 1_000_000);
            int(buf, whole);
            // The six decimals, trailing zeros left out ("2.0" keeps one).
            let mut digits = [b'0'; 7];
            digits[0] = b'.';
            let mut rest = fraction;
            for d in digits[1..].iter_mut().rev() {
                *d = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            let keep = digits
                .iter()
                .rposition(|&d| d != b'0')
                .map_or(2, |p| p.max(1) + 1);
            buf.extend_from_slice(&digits[..keep]);
        }
        v => real(buf, v.as_f64() / 1e6),
    }
}

/// An `f64` as serde_json writes it; `null` unless finite.
fn real(buf: &mut Vec<u8>, x: f64) {
    match serde_json::Number::from_f64(x) {
        // Writing to a Vec cannot fail.
        Some(n) => {
            let _ = write!(buf, "{n}");
        }
        None => buf.extend_from_slice(b"null"),
    }
}

/// An integer in decimal.
fn int(buf: &mut Vec<u8>, x: i64) {
    buf.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: impl Fn(&mut Vec<u8>)) -> String {
        let mut buf = Vec::new();
        f(&mut buf);
        String::from_utf8(buf).unwrap()
    }

    fn serde(x: f64) -> String {
        serde_json::Number::from_f64(x).map_or("null".into(), |n| n.to_string())
    }

    #[test]
    fn seconds_are_spelled_as_serde_json_spells_them() {
        let mut rng = crate::stats::SplitMix64::new(13);
        let mut cases: Vec<i64> = vec![
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999_999,
            1_000_000,
            1_000_001,
            2_000_000,
            123_456_789,
            999_999_999_999_999,
            1_000_000_000_000_000,
            i64::MAX,
            -1,
            -10,
            -1_234_567,
            i64::MIN,
        ];
        for digits in 1..19 {
            let top = 10u64.pow(digits);
            cases.extend((0..200).map(|_| (rng.next_u64() % top) as i64));
        }
        for us in cases {
            let ours = text(|b| seconds(b, Value::Int(us)));
            assert_eq!(ours, serde(us as f64 / 1e6), "{us} µs");
        }
        for x in [0.5, 1e-9, 2.5e300, -3.25] {
            assert_eq!(text(|b| seconds(b, Value::Real(x))), serde(x / 1e6));
        }
    }

    #[test]
    fn integers_and_reals() {
        for x in [0, 7, -7, 10, 1234567890, i64::MAX, i64::MIN] {
            assert_eq!(text(|b| int(b, x)), x.to_string());
        }
        assert_eq!(text(|b| value(b, Value::Real(2.0))), "2.0");
        assert_eq!(text(|b| real(b, f64::NAN)), "null");
    }
}

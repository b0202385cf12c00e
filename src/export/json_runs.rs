//! The per-run parts of the JSON export (Hyperfine 1.x's `times`,
//! `memory_usage_byte` and `exit_codes`, Hyperfine 2.0's `measurements`,
//! BestGuess's `per_run` arrays): with a million runs per command they are
//! nearly all of the document's bytes, so they are formatted here, a range
//! of runs at a time, straight from the dataset's columns into a byte
//! buffer, with no tree, no per-value formatter call and no copy of the
//! runs. A long array is cut into blocks of about 256 KiB of text, made by
//! this thread and a helper, each taking the next block free (two cores,
//! [`super::in_order`]), and each block is handed whole, in order, to the
//! writing thread (no copy).
//!
//! The text is exactly what [`super::json`]'s printer writes for the same
//! values: the numbers are spelled by [`super::json_numbers`].

use std::io::{self, Write};
use std::ops::Range;

use super::in_order::make_in_order;
use super::json_numbers::{int, seconds, separated_ints, value, Piece};
use crate::data::{Attribute, CommandRuns, Metric, Value};

/// Where the text goes: a writer that may take whole buffers.
pub(super) trait Out: Write {
    /// Writes all of `buf`, taking it: a writer that can keep it (the
    /// export's writing thread) does, with no copy.
    fn put(&mut self, buf: Vec<u8>) -> io::Result<()> {
        self.write_all(&buf)
    }
}

impl Out for Vec<u8> {}

/// Runs read from the columns per step.
const STEP: usize = 4096;
/// About this many bytes of text per block of runs: a block is what one
/// thread formats and hands on at a time.
const BLOCK_BYTES: usize = 256 * 1024;

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
    /// Whether `--timeout` ended the run: `true` or `false`.
    TimedOut,
    /// Whether a signal whose number was not recorded ended the run:
    /// `true` or `false`.
    SignalUnknown,
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
    out.write_all(b"[")?;
    // ", " and an integer of up to 20 characters, or seconds of up to
    // 17 (a real in shortest form, rarely longer, grows the buffer).
    in_blocks(out, runs.len(), 22, |range, buf| {
        array_block(buf, runs, what, range)
    })?;
    out.write_all(b"]")
}

/// [`array`](fn@array) of the runs `kept` only, in that order (a Hyperfine layout
/// where some runs lack wall-clock time): each element as [`array`](fn@array)
/// writes it.
pub(super) fn array_of(
    out: &mut impl Out,
    runs: &CommandRuns,
    what: PerRun,
    kept: &[usize],
) -> io::Result<()> {
    let mut buf = b"[".to_vec();
    let mut one = Vec::new();
    for (k, &i) in kept.iter().enumerate() {
        one.clear();
        array_block(&mut one, runs, what, i..i + 1);
        if k > 0 {
            buf.extend_from_slice(b", ");
        }
        buf.extend_from_slice(one.strip_prefix(b", ").unwrap_or(&one));
    }
    buf.push(b']');
    out.put(buf)
}

/// [`measurements`] of the runs `kept` only, in that order.
pub(super) fn measurements_of(
    out: &mut impl Out,
    runs: &CommandRuns,
    depth: usize,
    kept: &[usize],
) -> io::Result<()> {
    let item_indent = "  ".repeat(depth + 1);
    let mut buf = b"[".to_vec();
    let mut one = Vec::new();
    for (k, &i) in kept.iter().enumerate() {
        one.clear();
        measurements_block(&mut one, runs, &item_indent, i..i + 1);
        if k > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(one.strip_prefix(b",").unwrap_or(&one));
    }
    if !kept.is_empty() {
        buf.push(b'\n');
        buf.extend_from_slice("  ".repeat(depth).as_bytes());
    }
    buf.push(b']');
    out.put(buf)
}

/// The runs Hyperfine's layouts hold: those with wall-clock time, which
/// every Hyperfine run has and its `times` promise (a number per run,
/// never `null`); `None` when that is every run.
pub(super) fn hyperfine_runs(runs: &CommandRuns) -> Option<Vec<usize>> {
    let without = runs.runs_without(Metric::WALL);
    if without.is_empty() {
        return None;
    }
    let mut left_out = without.into_iter().peekable();
    let kept = (0..runs.len())
        .filter(|&i| left_out.next_if_eq(&i).is_none())
        .collect();
    Some(kept)
}

/// The text of [`array`](fn@array)'s runs `range` (a separator before each but
/// the array's first), appended to `buf`.
fn array_block(buf: &mut Vec<u8>, runs: &CommandRuns, what: PerRun, range: Range<usize>) {
    if let PerRun::TimedOut | PerRun::SignalUnknown = what {
        for i in range {
            if i > 0 {
                buf.extend_from_slice(b", ");
            }
            let set = match what {
                PerRun::TimedOut => runs.timed_out(i),
                _ => runs.signal_unknown(i),
            };
            buf.extend_from_slice(if set { b"true" } else { b"false" });
        }
        return;
    }
    let mut values = Vec::with_capacity(STEP.min(range.len()));
    let mut ints = Vec::with_capacity(STEP.min(range.len()));
    let mut signals = Vec::new();
    for step in steps(range) {
        let first = step.start == 0;
        // Nearly always every run has an integer: straight from the column.
        ints.clear();
        if int_values(runs, what, step.clone(), &mut ints) {
            let seconds_from_us = matches!(what, PerRun::Seconds(_));
            int_elements(buf, &ints, first, seconds_from_us);
            continue;
        }
        values.clear();
        match what {
            PerRun::Metric(m) | PerRun::Seconds(m) => {
                runs.values_range(m, step.clone(), &mut values)
            }
            PerRun::ExitCode | PerRun::HyperfineExitCode => {
                runs.attribute_range(Attribute::ExitCode, step.clone(), &mut values)
            }
            PerRun::Signal => runs.attribute_range(Attribute::Signal, step.clone(), &mut values),
            PerRun::Sequence => {
                runs.attribute_range(Attribute::Sequence, step.clone(), &mut values)
            }
            PerRun::Start => runs.attribute_range(Attribute::Start, step.clone(), &mut values),
            // Written above, never here.
            PerRun::TimedOut | PerRun::SignalUnknown => {}
        }
        if let PerRun::HyperfineExitCode = what {
            signals.clear();
            runs.attribute_range(Attribute::Signal, step.clone(), &mut signals);
        }
        let element = |buf: &mut Vec<u8>, k: usize| match (what, values[k]) {
            (_, None) => buf.extend_from_slice(b"null"),
            (PerRun::Seconds(_), Some(v)) => seconds(buf, v),
            (PerRun::HyperfineExitCode, Some(_)) if signals[k].is_some() => {
                buf.extend_from_slice(b"null")
            }
            (PerRun::Sequence, Some(Value::Int(s))) => int(buf, sequence(s)),
            (_, Some(v)) => value(buf, v),
        };
        // Often every run has the same value (exit code 0, no signal, no
        // major fault): its text is made once and copied.
        let same = |v: &[Option<Value>]| v.iter().all(|x| *x == v[0]);
        if values.len() > 1 && same(&values) && (signals.is_empty() || same(&signals)) {
            repeated(buf, first, values.len(), |buf| element(buf, 0));
            continue;
        }
        for k in 0..values.len() {
            if !(first && k == 0) {
                buf.extend_from_slice(b", ");
            }
            element(buf, k);
        }
    }
}

/// A run's sequence number as written: stored as the u64's bits, one
/// beyond i64 is written as the largest i64.
fn sequence(stored: i64) -> i64 {
    if stored < 0 {
        i64::MAX
    } else {
        stored
    }
}

/// Runs `step`'s values for a per-run array as integers, when every run
/// has an integer (true); otherwise false and nothing, for the general
/// path. What a run's `Hyperfine` exit code is depends on its signal too,
/// so that one always takes the general path.
fn int_values(runs: &CommandRuns, what: PerRun, step: Range<usize>, out: &mut Vec<i64>) -> bool {
    match what {
        PerRun::Metric(m) | PerRun::Seconds(m) => runs.ints_range(m, step, out),
        PerRun::ExitCode => runs.attribute_ints(Attribute::ExitCode, step, out),
        PerRun::Signal => runs.attribute_ints(Attribute::Signal, step, out),
        PerRun::Start => runs.attribute_ints(Attribute::Start, step, out),
        PerRun::Sequence => {
            let start = out.len();
            let read = runs.attribute_ints(Attribute::Sequence, step, out);
            out[start..].iter_mut().for_each(|s| *s = sequence(*s));
            read
        }
        PerRun::HyperfineExitCode | PerRun::TimedOut | PerRun::SignalUnknown => false,
    }
}

/// The text of integer values (µs written as seconds with
/// `seconds_from_us`), each but the array's first after a separator.
fn int_elements(buf: &mut Vec<u8>, values: &[i64], first: bool, seconds_from_us: bool) {
    let element = |buf: &mut Vec<u8>, x: i64| {
        if seconds_from_us {
            seconds(buf, Value::Int(x));
        } else {
            int(buf, x);
        }
    };
    let Some(&head) = values.first() else { return };
    if values.len() > 1 && values.iter().all(|&x| x == head) {
        repeated(buf, first, values.len(), |buf| element(buf, head));
        return;
    }
    // At most 20 characters and a separator each.
    buf.reserve(values.len() * 22);
    if !first {
        buf.extend_from_slice(b", ");
    }
    element(buf, head);
    if seconds_from_us {
        for &x in &values[1..] {
            buf.extend_from_slice(b", ");
            seconds(buf, Value::Int(x));
        }
    } else {
        separated_ints(buf, &values[1..]);
    }
}

/// `count` elements that all have the text `element` writes, each but
/// the array's first after a separator: the text is made once and then
/// copied, doubling what is copied each time.
fn repeated(buf: &mut Vec<u8>, first: bool, count: usize, element: impl Fn(&mut Vec<u8>)) {
    if !first {
        buf.extend_from_slice(b", ");
    }
    element(buf);
    if count < 2 {
        return;
    }
    let unit_start = buf.len();
    buf.extend_from_slice(b", ");
    element(buf);
    let unit = buf.len() - unit_start;
    let (mut have, want) = (1, count - 1);
    while have < want {
        let more = have.min(want - have);
        buf.extend_from_within(unit_start..unit_start + more * unit);
        have += more;
    }
}

/// Writes Hyperfine 2.0's `measurements` array, one element per line at
/// nesting `depth` (the array's own), as [`super::json`]'s `list_n` lays
/// out a list: the metrics the run has (an absent one is left out, never
/// 0) and its exit code (`null` when a signal ended it, named or not, as
/// in Hyperfine).
pub(super) fn measurements(out: &mut impl Out, runs: &CommandRuns, depth: usize) -> io::Result<()> {
    let n = runs.len();
    let item_indent = "  ".repeat(depth + 1);
    out.write_all(b"[")?;
    // The text around the values, and the values at their longest:
    // seconds of up to 17 characters, an integer of up to 20, an exit
    // code of up to 11; so a block's buffer never grows (a copy).
    let around: usize = MEASUREMENT_METRICS
        .iter()
        .map(|(key, _, unit, _)| key.len() + unit.len() + 32)
        .sum();
    let per_run = 2 + item_indent.len() + 1 + around + 4 * 17 + 20 + 13 + 11 + 1;
    in_blocks(out, n, per_run, |range, buf| {
        measurements_block(buf, runs, &item_indent, range)
    })?;
    if n > 0 {
        out.write_all(b"\n")?;
        out.write_all("  ".repeat(depth).as_bytes())?;
    }
    out.write_all(b"]")
}

/// The text of [`measurements`]' runs `range`, appended to `buf`.
fn measurements_block(
    buf: &mut Vec<u8>,
    runs: &CommandRuns,
    item_indent: &str,
    range: Range<usize>,
) {
    let mut columns: [Step; 5] = Default::default();
    let (mut codes, mut signals) = (Vec::new(), Vec::new());
    // The text around each value, spelled once: `"key": {"value": ` and
    // `, "unit": "unit"}, `.
    let around = MEASUREMENT_METRICS.map(|(key, _, unit, _)| {
        (
            Piece::new(format!("\"{key}\": {{\"value\": ")),
            Piece::new(format!(", \"unit\": \"{unit}\"}}, ")),
        )
    });
    let start = Piece::new(format!(",\n{item_indent}{{"));
    for step in steps(range) {
        for (column, (_, metric, ..)) in columns.iter_mut().zip(MEASUREMENT_METRICS) {
            column.read(runs, metric, step.clone());
        }
        codes.clear();
        signals.clear();
        runs.attribute_range(Attribute::ExitCode, step.clone(), &mut codes);
        runs.attribute_range(Attribute::Signal, step.clone(), &mut signals);
        for k in 0..step.len() {
            if step.start + k == 0 {
                // The first element has no comma before it.
                buf.extend_from_slice(&start.text.as_bytes()[1..]);
            } else {
                start.put(buf);
            }
            for ((column, (before, after)), (.., in_us)) in
                columns.iter().zip(&around).zip(MEASUREMENT_METRICS)
            {
                let Some(v) = column.get(k) else { continue };
                before.put(buf);
                if in_us {
                    seconds(buf, v);
                } else {
                    value(buf, v);
                }
                after.put(buf);
            }
            match (signals[k], codes[k]) {
                // No exit code recorded (Hyperfine before 1.13): none
                // written, as the source had none (not 0).
                (None, None) if !runs.signal_unknown(step.start + k) => {
                    if buf.ends_with(b", ") {
                        buf.truncate(buf.len() - 2);
                    }
                }
                (None, Some(Value::Int(code))) => {
                    buf.extend_from_slice(b"\"exit_code\": ");
                    int(buf, code);
                }
                _ => buf.extend_from_slice(b"\"exit_code\": null"),
            }
            buf.push(b'}');
        }
    }
}

/// One metric's values for a step of runs: as integers when every run
/// has one (nearly always), else as they are.
#[derive(Default)]
struct Step {
    ints: Vec<i64>,
    values: Vec<Option<Value>>,
    all_ints: bool,
}

impl Step {
    fn read(&mut self, runs: &CommandRuns, metric: Metric, step: Range<usize>) {
        self.ints.clear();
        self.values.clear();
        self.all_ints = runs.ints_range(metric, step.clone(), &mut self.ints);
        if !self.all_ints {
            runs.values_range(metric, step, &mut self.values);
        }
    }

    fn get(&self, k: usize) -> Option<Value> {
        if self.all_ints {
            Some(Value::Int(self.ints[k]))
        } else {
            self.values[k]
        }
    }
}

/// Formats runs `0..n` (about `per_run` bytes each) with `format`, a
/// block of runs at a time, and puts the blocks to `out` in order. With
/// more than one block, this thread and a helper make them
/// ([`super::in_order`]): the text is the same, made on two cores. A
/// block is about [`BLOCK_BYTES`], so a few of them are in memory at
/// once, whatever `n`.
fn in_blocks(
    out: &mut impl Out,
    n: usize,
    per_run: usize,
    format: impl Fn(Range<usize>, &mut Vec<u8>) + Sync,
) -> io::Result<()> {
    let size = (BLOCK_BYTES / per_run).div_ceil(STEP) * STEP;
    let block = |k: usize| k * size..((k + 1) * size).min(n);
    let made = |k: usize| {
        let range = block(k);
        let mut buf = Vec::with_capacity(range.len() * per_run + 64);
        format(range, &mut buf);
        buf
    };
    match n.div_ceil(size) {
        0 => Ok(()),
        1 => out.put(made(0)),
        blocks => make_in_order(blocks, made, |buf| out.put(buf)),
    }
}

/// `range` in steps of [`STEP`] runs.
fn steps(range: Range<usize>) -> impl Iterator<Item = Range<usize>> {
    let end = range.end;
    range.step_by(STEP).map(move |s| s..(s + STEP).min(end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::json_numbers::tests::text;

    /// Runs enough for several blocks of every kind: varied values with
    /// absent ones, failures and signals among them, and stretches where
    /// every run has the same value or none (made once and copied).
    fn many_runs(n: usize) -> Vec<crate::data::RunRecord> {
        let mut rng = crate::stats::SplitMix64::new(8);
        let quiet = |i: usize| i < n / 2;
        (0..n)
            .map(|i| {
                let signal = (!quiet(i) && i % 97 == 0).then_some(9);
                // Hyperfine's `null` exit code: no code, no signal number.
                let unknown = !quiet(i) && signal.is_none() && i % 101 == 0;
                let mut r = crate::data::RunRecord {
                    command: "x".into(),
                    batch: 1,
                    exit_code: match signal {
                        Some(s) => 128 + s,
                        None => (!quiet(i) && i % 5 == 0 && !unknown) as i32,
                    },
                    no_exit_code: unknown,
                    signal_unknown: unknown,
                    signal,
                    sequence: (i % 11 != 0 || quiet(i)).then_some(i as u64 + 1),
                    start_unix_us: Some(1_795_000_000_000_000 + 1000 * i as i64),
                    timed_out: !quiet(i) && i % 89 == 0,
                    ..Default::default()
                }
                .with(Metric::USER, (rng.next_u64() % 5_000_000) as i64);
                let wall = if i / STEP == 4 {
                    1500
                } else {
                    rng.next_u64() % 9_000_000
                };
                r = r.with(Metric::WALL, wall as i64);
                if i % 13 != 0 && i / STEP != 2 {
                    r = r.with(Metric::SYSTEM, (rng.next_u64() % 100_000) as i64);
                }
                if quiet(i) {
                    r = r.with(Metric::MAXRSS, 1 << 20);
                } else if i % 7 != 0 {
                    r = r.with(Metric::MAXRSS, (rng.next_u64() % (1 << 30)) as i64);
                }
                r
            })
            .collect()
    }

    /// What each per-run array holds for `r`, as serde_json would write it.
    fn expected(r: &crate::data::RunRecord, what: PerRun) -> serde_json::Value {
        use serde_json::Value as J;
        let int = |v: Option<i64>| v.map_or(J::Null, J::from);
        let metric = |m| int(r.metrics.get(m).and_then(Value::as_int));
        match what {
            PerRun::Seconds(m) => r
                .metrics
                .get(m)
                .map_or(J::Null, |v| J::from(v.as_f64() / 1e6)),
            PerRun::Metric(m) => metric(m),
            PerRun::HyperfineExitCode if r.signal.is_some() || r.signal_unknown => J::Null,
            PerRun::HyperfineExitCode | PerRun::ExitCode if r.no_exit_code => J::Null,
            PerRun::HyperfineExitCode | PerRun::ExitCode => J::from(r.exit_code),
            PerRun::Signal => int(r.signal.map(i64::from)),
            PerRun::Sequence => int(r.sequence.map(|s| s as i64)),
            PerRun::Start => int(r.start_unix_us),
            PerRun::TimedOut => J::from(r.timed_out),
            PerRun::SignalUnknown => J::from(r.signal_unknown),
        }
    }

    #[test]
    fn blocks_made_on_two_threads_give_serde_json_s_text_in_run_order() {
        // More than two blocks of an array (made on both threads), and a
        // last block shorter than the rest.
        let n = 2 * (BLOCK_BYTES / 8).div_ceil(STEP) * STEP + 1234;
        let records = many_runs(n);
        let dataset = crate::data::Dataset::from_records(records.iter().cloned());
        let runs = &dataset.commands[0];
        assert_eq!(runs.len(), n);
        let whats = [
            PerRun::Seconds(Metric::WALL),
            PerRun::Metric(Metric::MAXRSS),
            PerRun::Metric(Metric::SYSTEM),
            PerRun::Metric(Metric::TOTAL),
            PerRun::HyperfineExitCode,
            PerRun::ExitCode,
            PerRun::Signal,
            PerRun::Sequence,
            PerRun::Start,
            PerRun::TimedOut,
            PerRun::SignalUnknown,
        ];
        for what in whats {
            let ours = text(|b| array(b, runs, what).unwrap());
            let theirs: Vec<String> = records
                .iter()
                .map(|r| expected(r, what).to_string())
                .collect();
            let theirs = format!("[{}]", theirs.join(", "));
            assert!(ours == theirs, "{what:?}");
        }
        let blocks = text(|b| measurements(b, runs, 3).unwrap());
        let whole = text(|b| {
            b.push(b'[');
            measurements_block(b, runs, &"  ".repeat(4), 0..n);
            b.extend_from_slice(b"\n      ]");
        });
        assert!(blocks == whole);
        let parsed: Vec<serde_json::Value> = serde_json::from_str(&blocks).unwrap();
        let theirs: Vec<serde_json::Value> = records
            .iter()
            .map(|r| {
                let mut m = serde_json::Map::new();
                for (key, metric, unit, in_us) in MEASUREMENT_METRICS {
                    let v = if in_us {
                        expected(r, PerRun::Seconds(metric))
                    } else {
                        expected(r, PerRun::Metric(metric))
                    };
                    if !v.is_null() {
                        m.insert(key.into(), serde_json::json!({"value": v, "unit": unit}));
                    }
                }
                m.insert("exit_code".into(), expected(r, PerRun::HyperfineExitCode));
                serde_json::Value::Object(m)
            })
            .collect();
        assert!(parsed == theirs);
    }
}

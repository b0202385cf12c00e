//! The JSON export (`--export-json`): one document that both Hyperfine
//! generations' readers understand, plus everything BestGuess knows.
//!
//! Many people keep scripts around Hyperfine's JSON (its own
//! `scripts/advanced_statistics.py`, `plot_whisker.py`, `plot_histogram.py`
//! …), and Hyperfine 1.x and 2.0 write different shapes, so the document
//! holds both, side by side in each result:
//!
//! * Hyperfine 2.0's: top-level `schema_version` 2, `metadata` and
//!   `primary_metric`; per result the `measurements` array (one object per
//!   run, each metric as `{"value", "unit"}`, and `exit_code`) and a
//!   `summary` per metric (`unit`, `count`, `mean`, `stddev`, `median`,
//!   `min`, `max`). The primary metric is `time_cpu`, total CPU time, which
//!   is what BestGuess ranks by, so 2.0's scripts show it by default.
//! * Hyperfine 1.x's: the command, wall-clock mean, stddev, median, min and
//!   max in seconds, mean user and system time in seconds, and the per-run
//!   `times`, `memory_usage_byte` and `exit_codes`.
//!
//! Those values are what Hyperfine would report for the same runs, mean and
//! standard deviation included, because that is what those scripts expect.
//!
//! BestGuess's own results go under a `bestguess` key, which Hyperfine's
//! readers ignore: per result, every run's raw measurements (integers, in
//! µs, bytes and counts), order-statistic summaries, the shape of the
//! total CPU time distribution and the comparison with the best; at the
//! top level, the version, the settings and the ranking. `docs/JSON.md`
//! documents every field.
//!
//! The document is written by a small pretty-printer over an ordered tree
//! ([`Node`]) rather than through `serde_json::Value`: without serde_json's
//! `preserve_order` feature, `Value` objects are sorted maps, which would put
//! `bestguess` before `command`; and the per-run arrays are streamed from the
//! dataset instead of being copied into a tree (a million runs is routine).
//! serde_json still formats every scalar, so strings are escaped and numbers
//! printed (shortest round-trip form) exactly as serde_json and Hyperfine do.
//! The layout is serde_json's pretty one except for what repeats per run:
//! the per-run arrays are written on one line (`[1, 2, 3]`) and each
//! element of `measurements` on one line of its own; with a million runs
//! one value per indented line would take several times the bytes. Results
//! are built and written one at a time, or, when there are many and each is
//! small, 64 at a time on two threads (the same text).
//! A statistic that does not exist, or any non-finite number, is `null`.
//!
//! `--json-runs` ([`JsonRuns`]) may leave per-run layouts out (Hyperfine
//! 2.0's `measurements`, 1.x's three arrays, `bestguess.per_run`); the
//! summaries stay, and the top-level `bestguess.json_runs` then lists the
//! layouts the document carries. With every layout (the default) that key
//! is not written: the default document does not depend on the option.

use std::borrow::Cow;
use std::io::{self, Write};
use std::rc::Rc;

use super::in_order::make_in_order;
use super::json_layouts::{JsonRuns, Layout};
use super::json_runs::{self, Out, PerRun};
use super::metadata::{rfc3339, Metadata};
use crate::analysis::{threshold, Analysis, CommandStats, Diagnostics};
use crate::data::{CommandRuns, Metric};
use crate::stats::{
    runs_to_compare, Comparison, Design, Method, RankedEntry, Reason, Scale, Summary, Verdict,
};

/// The version of this document's schema (`bestguess.schema_version`),
/// documented in `docs/JSON.md`. It changes when a key is removed or its
/// meaning changes; added keys do not change it.
pub const SCHEMA_VERSION: u32 = 4;

/// Hyperfine's schema generation this document also follows
/// (`schema_version`).
const HYPERFINE_SCHEMA_VERSION: u32 = 2;

/// Writes the whole document, pretty-printed with two-space indentation
/// (as `serde_json::to_writer_pretty` and Hyperfine do; per-run data
/// compact, see the module docs), ending in a newline.
///
/// The text is made on this thread (its per-run blocks with a helper, see
/// [`json_runs`]) and written by another, a chunk at a time (a million runs
/// per command make hundreds of MB, and writing them costs system time).
pub fn write(
    analysis: &Analysis<'_>,
    metadata: &Metadata,
    layouts: JsonRuns,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    let threaded = std::thread::scope(|scope| {
        let (chunks, received) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
        let writer = std::thread::Builder::new().spawn_scoped(scope, || -> io::Result<()> {
            for chunk in received {
                out.write_all(&chunk)?;
            }
            out.flush()
        });
        // No thread to be had (a thread limit, a tight `ulimit -v`): made
        // and written on this one, below (`scope.spawn` would panic).
        let writer = writer.ok()?;
        let mut sender = ChunkSender {
            buf: Vec::with_capacity(CHUNK),
            chunks: Some(chunks),
        };
        let made =
            write_document(analysis, metadata, layouts, &mut sender).and_then(|()| sender.finish());
        drop(sender);
        let written = writer
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        // The writer's error says why (a full disk); the maker's then is
        // only that the writer stopped.
        Some(written.and(made))
    });
    match threaded {
        Some(result) => result,
        None => {
            write_document(analysis, metadata, layouts, &mut Direct(&mut *out))?;
            out.flush()
        }
    }
}

/// The document written straight to its destination, on this thread.
struct Direct<'a>(&'a mut (dyn Write + Send));

impl Out for Direct<'_> {}

impl Write for Direct<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.0.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Bytes per chunk handed to the writing thread.
const CHUNK: usize = 256 * 1024;

/// Gathers text into chunks and sends each, full, to the writing thread.
struct ChunkSender {
    buf: Vec<u8>,
    /// `None` once finished.
    chunks: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
}

impl ChunkSender {
    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let full = std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK));
        match &self.chunks {
            Some(chunks) => chunks
                .send(full)
                .map_err(|_| io::Error::other("the export's writer stopped")),
            None => Ok(()),
        }
    }

    /// Sends what is left and closes the channel.
    fn finish(&mut self) -> io::Result<()> {
        self.send()?;
        self.chunks = None;
        Ok(())
    }
}

impl Out for ChunkSender {
    /// Sends what was gathered, then `buf` itself (no copy).
    fn put(&mut self, buf: Vec<u8>) -> io::Result<()> {
        if buf.len() < CHUNK / 4 {
            // Small (few runs): copied, as sending it alone would cost more.
            return self.write_all(&buf);
        }
        self.send()?;
        self.buf = buf;
        self.send()
    }
}

impl Write for ChunkSender {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// [`write`]'s document, to a buffered `out`.
fn write_document(
    analysis: &Analysis<'_>,
    metadata: &Metadata,
    layouts: JsonRuns,
    out: &mut impl Out,
) -> io::Result<()> {
    let mut fields = vec![
        ("schema_version", count(HYPERFINE_SCHEMA_VERSION as usize)),
        ("metadata", meta(metadata, analysis)),
        ("results", Node::Results(analysis, layouts)),
        ("bestguess", top_level(analysis, layouts)),
    ];
    // Hyperfine 2.0's scripts show the primary metric unless told
    // otherwise; a ranked metric Hyperfine does not know (context
    // switches) leaves the key out, and they fall back to wall-clock time.
    if let Some(key) = primary_metric(analysis.settings.metric) {
        fields.insert(2, ("primary_metric", text(key)));
    }
    let root = object(fields);
    emit(out, &root, 0)?;
    out.write_all(b"\n")
}

/// A JSON value whose objects keep their keys in the order given.
enum Node<'a> {
    Null,
    Bool(bool),
    Int(i64),
    /// Written as `null` unless finite.
    Num(f64),
    Str(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
    /// An array with one value per run, computed from the dataset's columns
    /// while writing (no copy of the runs is made).
    PerRun(&'a CommandRuns, PerRun),
    /// [`Node::PerRun`] of some runs only (those listed, in order).
    PerRunOf(&'a CommandRuns, PerRun, Rc<[usize]>),
    /// Hyperfine 2.0's `measurements`: one object per run, written
    /// directly from the columns (no tree per run).
    Measurements(&'a CommandRuns),
    /// [`Node::Measurements`] of some runs only (those listed, in order).
    MeasurementsOf(&'a CommandRuns, Rc<[usize]>),
    /// A number written exactly as these digits (a `u64` seed).
    Raw(String),
    /// The `results` array, each result built just before it is written
    /// (the tree of one command at a time is in memory, not ten thousand),
    /// with the per-run layouts asked for.
    Results(&'a Analysis<'a>, JsonRuns),
}

/// An object with fixed keys.
fn object<'a>(fields: Vec<(&'static str, Node<'a>)>) -> Node<'a> {
    Node::Object(
        fields
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect(),
    )
}

fn text(s: &str) -> Node<'_> {
    Node::Str(Cow::Borrowed(s))
}

fn count(n: usize) -> Node<'static> {
    Node::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn optional(x: Option<f64>) -> Node<'static> {
    x.map_or(Node::Null, Node::Num)
}

fn seconds(us: f64) -> Node<'static> {
    Node::Num(us / 1e6)
}

/// One element of `results`: Hyperfine's keys, then `bestguess`; of the
/// per-run data, the `layouts` asked for.
fn result<'a>(analysis: &'a Analysis<'_>, i: usize, layouts: JsonRuns) -> Node<'a> {
    let runs = analysis.runs(i);
    let stats = &analysis.commands[i];
    // A metric the data lacks is null, never 0.
    let wall = stats.metric(Metric::WALL);
    let q = wall.map(|w| w.quantiles);
    let mean = |m| stats.metric(m).map_or(Node::Null, |s| seconds(s.mean));
    let mean_or = |m, given: Option<f64>| match (stats.metric(m), given) {
        (None, Some(us)) => seconds(us),
        _ => mean(m),
    };
    let wall_seconds =
        |f: fn(&crate::stats::Quantiles) -> f64| q.as_ref().map_or(Node::Null, |q| seconds(f(q)));
    let mut fields = vec![
        ("command", text(&runs.command)),
        ("mean", mean(Metric::WALL)),
        (
            "stddev",
            wall.and_then(|w| w.sd).map_or(Node::Null, seconds),
        ),
        ("median", wall_seconds(|q| q.median)),
        // Or the means the source gave without per-run values.
        ("user", mean_or(Metric::USER, runs.source_means.user)),
        ("system", mean_or(Metric::SYSTEM, runs.source_means.system)),
        ("min", wall_seconds(|q| q.min)),
        ("max", wall_seconds(|q| q.max)),
    ];
    // Hyperfine's layouts hold the runs with wall-clock time: its `times`
    // promise a number per run, never `null` (a run without one, read from
    // another tool's file, is in `bestguess.per_run` alone).
    let kept: Option<Rc<[usize]>> = json_runs::hyperfine_runs(runs).map(Rc::from);
    let per_run = |what| match &kept {
        None => Node::PerRun(runs, what),
        Some(kept) => Node::PerRunOf(runs, what, kept.clone()),
    };
    if layouts.has(Layout::Hyperfine1) {
        fields.push(("times", per_run(PerRun::Seconds(Metric::WALL))));
        // Only when every one of those runs has its memory (Hyperfine
        // before 1.19, and 1.x files, have none: the key is absent).
        let without_memory = runs.runs_without(Metric::MAXRSS);
        let memory = match &kept {
            None => without_memory.is_empty(),
            Some(kept) => without_memory
                .iter()
                .all(|i| kept.binary_search(i).is_err()),
        };
        if memory {
            fields.push(("memory_usage_byte", per_run(PerRun::Metric(Metric::MAXRSS))));
        }
        // As in Hyperfine, a run ended by a signal has no exit code; a
        // source that recorded none (Hyperfine before 1.13) gets none.
        if runs.has_exit_codes() || runs.any_signal_unknown() {
            fields.push(("exit_codes", per_run(PerRun::HyperfineExitCode)));
        }
    }
    if layouts.has(Layout::Hyperfine2) {
        let measurements = match &kept {
            None => Node::Measurements(runs),
            Some(kept) => Node::MeasurementsOf(runs, kept.clone()),
        };
        fields.push(("measurements", measurements));
    }
    fields.push(("summary", hyperfine_summary(stats)));
    // Present only for a command built from -P/-L. As Hyperfine 2.0, each
    // value as {"value": "…"}, except in a document for Hyperfine 1.x's
    // readers alone (`--json-runs hyperfine1`), where it is 1.x's bare
    // string (which `bestguess.parameters` always holds): one value cannot
    // be read by both generations' `plot_parametrized.py`.
    if !runs.parameters.is_empty() {
        let bare = layouts.has(Layout::Hyperfine1) && !layouts.has(Layout::Hyperfine2);
        let values = runs
            .parameters
            .iter()
            .map(|(name, value)| {
                let v = if bare {
                    text(value)
                } else {
                    Node::Object(vec![(Cow::Borrowed("value"), text(value))])
                };
                (Cow::Borrowed(name.as_str()), v)
            })
            .collect();
        fields.push(("parameters", Node::Object(values)));
    }
    fields.push((
        "bestguess",
        own_result(analysis, i, runs, stats, layouts.has(Layout::BestGuess)),
    ));
    // Hyperfine 2.0 writes `name` only for a named command, right after
    // `command`; its scripts label a result by `name`, else `command`. A
    // command read from several files is named with its file's tag, so
    // that their plots tell them apart too.
    // Likewise a command told apart by its parameters (Hyperfine names it
    // `cat data.txt (level = 2)`).
    if !runs.name.trim().is_empty() || !runs.tag.is_empty() || !runs.shown_parameters.is_empty() {
        let name = if runs.tag.is_empty() && runs.shown_parameters.is_empty() {
            text(&runs.name)
        } else {
            Node::Str(runs.label())
        };
        fields.insert(1, ("name", name));
    }
    object(fields)
}

/// Hyperfine 2.0's metrics: key, BestGuess metric, unit word, divisor from
/// the stored unit (µs → s). In Hyperfine's `summary` order (sorted keys).
const HYPERFINE_METRICS: [(&str, Metric, &str, f64); 5] = [
    ("memory_peak_resident", Metric::MAXRSS, "byte", 1.0),
    ("time_cpu", Metric::TOTAL, "second", 1e6),
    ("time_system", Metric::SYSTEM, "second", 1e6),
    ("time_user", Metric::USER, "second", 1e6),
    ("time_wall_clock", Metric::WALL, "second", 1e6),
];

/// Hyperfine 2.0's name for the metric BestGuess ranks by, if it has one.
fn primary_metric(metric: Metric) -> Option<&'static str> {
    HYPERFINE_METRICS
        .iter()
        .find(|(_, m, _, _)| *m == metric)
        .map(|(key, ..)| *key)
}

/// Hyperfine 2.0's `summary`: per metric the command has, mean and sample
/// standard deviation as Hyperfine computes them, median, min and max. A
/// metric the data lacks is left out, as Hyperfine leaves out memory where
/// it cannot measure it.
fn hyperfine_summary(stats: &CommandStats) -> Node<'static> {
    let fields = HYPERFINE_METRICS
        .iter()
        .filter_map(|&(key, metric, unit, divisor)| {
            let s = stats.metric(metric)?;
            let scaled = |x: f64| Node::Num(x / divisor);
            Some((
                key,
                object(vec![
                    ("unit", text(unit)),
                    ("count", count(s.n)),
                    ("mean", scaled(s.mean)),
                    ("stddev", s.sd.map_or(Node::Null, scaled)),
                    ("median", scaled(s.quantiles.median)),
                    ("min", scaled(s.quantiles.min)),
                    ("max", scaled(s.quantiles.max)),
                ]),
            ))
        })
        .collect();
    object(fields)
}

/// The `bestguess` object of one result, with `per_run` if `with_runs`.
fn own_result<'a>(
    analysis: &'a Analysis<'_>,
    i: usize,
    runs: &'a CommandRuns,
    stats: &'a CommandStats,
    with_runs: bool,
) -> Node<'a> {
    let total = stats.metric(Metric::TOTAL);
    let normality = total.and_then(|t| t.normality.ok());
    let entry = analysis.ranking.entry(i);
    let mut fields = vec![
        ("name", text(&runs.name)),
        ("shell", text(&runs.shell)),
        (
            "batch",
            Node::Int(i64::try_from(runs.batch).unwrap_or(i64::MAX)),
        ),
        ("runs", count(stats.runs)),
        ("failed", count(stats.failed)),
        (
            "verdict",
            text(entry.map_or("not_compared", |e| e.verdict.word())),
        ),
        // The median's own interval, one of the family that holds
        // together (compared commands, or one command alone).
        (
            "median_interval",
            (entry.and_then(|e| e.bounds).or(analysis.median_alone)).map_or(Node::Null, |b| {
                object(vec![
                    ("low", Node::Num(b.low)),
                    ("high", Node::Num(b.high)),
                    ("confidence", Node::Num(b.confidence())),
                ])
            }),
        ),
        (
            "runs_needed",
            entry.and_then(|e| e.runs_needed).map_or(Node::Null, count),
        ),
    ];
    if with_runs {
        fields.push(("per_run", per_run(analysis, runs)));
    }
    if let Some(src) = analysis.dataset.sources.get(runs.source) {
        let mut source = vec![("path", text(&src.path)), ("tag", text(&src.tag))];
        // Which experiment of its file, from the second on (a header row
        // in the middle of a raw file starts the next): so that reading
        // this file back keeps them apart, never in rounds together.
        if runs.group > 0 {
            source.push(("group", Node::Int(runs.group as i64 + 1)));
        }
        fields.insert(3, ("source", object(source)));
    }
    let mut fields: Vec<(Cow<'a, str>, Node<'a>)> = fields
        .into_iter()
        .map(|(k, v)| (Cow::Borrowed(k), v))
        .collect();
    // Hyperfine 1.x's shape of the parameters: name -> value.
    if !runs.parameters.is_empty() {
        let values = runs
            .parameters
            .iter()
            .map(|(name, value)| (Cow::Borrowed(name.as_str()), text(value)))
            .collect();
        fields.insert(3, (Cow::Borrowed("parameters"), Node::Object(values)));
    }
    // A summary for every metric of the catalogue the command has.
    for (metric, def) in analysis.dataset.catalogue.iter() {
        if let Some(s) = stats.metric(metric) {
            fields.push((Cow::Borrowed(def.key.as_ref()), summary(s)));
        }
    }
    let total_stat = |f: fn(&Summary) -> Option<f64>| optional(total.and_then(f));
    fields.extend([
        (
            "ad_statistic".into(),
            optional(normality.map(|ad| ad.a2_star)),
        ),
        (
            "ad_p_value".into(),
            optional(normality.map(|ad| ad.p_value)),
        ),
        ("skew".into(), total_stat(|t| t.skewness.ok())),
        (
            "excess_kurtosis".into(),
            total_stat(|t| t.excess_kurtosis.ok()),
        ),
    ]);
    if let Some(d) = analysis.diagnostics.get(i) {
        fields.push(("best_case".into(), best_case(d)));
        fields.push(("trend".into(), trend(d)));
    }
    if let (Some(entry), Some(best)) = (entry, analysis.ranking.best()) {
        if let Some(c) = &entry.comparison {
            fields.push(("comparison".into(), comparison(c, entry, best.index)));
        }
    }
    Node::Object(fields)
}

/// The best-case estimate (after `tim`), in the metric's recording unit;
/// `null` when there are too few runs.
fn best_case(d: &Diagnostics) -> Node<'static> {
    match &d.best_case {
        Ok(b) => object(vec![
            ("estimate", Node::Num(b.estimate)),
            ("error", Node::Num(b.error)),
            ("distance", optional(b.distance)),
            ("stable", Node::Bool(b.stable)),
            ("k", count(b.k)),
        ]),
        Err(_) => Node::Null,
    }
}

/// The Mann–Kendall trend test against run order; `null` when not applied.
fn trend(d: &Diagnostics) -> Node<'static> {
    match (&d.trend, d.trend_p_adjusted) {
        (Ok(t), Some(p)) => object(vec![
            ("tau", Node::Num(t.tau)),
            ("p_value", Node::Num(t.p_value)),
            ("p_value_adjusted", Node::Num(p)),
            ("halves_shift", optional(d.halves.map(|h| h.shift))),
            ("speed_changed", Node::Bool(d.drifted)),
        ]),
        _ => Node::Null,
    }
}

/// Every run's raw measurements, in run order: each metric of the catalogue
/// the command has, then the exit code, the signal, the sequence number,
/// the start time and, if any run timed out, which did.
fn per_run<'a>(analysis: &'a Analysis<'_>, runs: &'a CommandRuns) -> Node<'a> {
    let mut fields: Vec<(Cow<'a, str>, Node<'a>)> = Vec::new();
    for (metric, def) in analysis.dataset.catalogue.iter() {
        if runs.has(metric) {
            fields.push((
                Cow::Borrowed(def.key.as_ref()),
                Node::PerRun(runs, PerRun::Metric(metric)),
            ));
        }
    }
    fields.push(("exit_code".into(), Node::PerRun(runs, PerRun::ExitCode)));
    fields.push(("signal".into(), Node::PerRun(runs, PerRun::Signal)));
    // When each run was made, so that a report on this file can still see
    // drift over time.
    fields.push(("sequence".into(), Node::PerRun(runs, PerRun::Sequence)));
    fields.push(("start_unix_us".into(), Node::PerRun(runs, PerRun::Start)));
    // Only when `--timeout` ended some run (absent: none did), so that the
    // usual file is not longer by a `false` per run.
    if runs.any_timed_out() {
        fields.push(("timed_out".into(), Node::PerRun(runs, PerRun::TimedOut)));
    }
    // Only when a signal whose number was not recorded ended some run
    // (Hyperfine's `null` exit code): without it such a run would read
    // back as one without an exit code, a success.
    if runs.any_signal_unknown() {
        fields.push((
            "signal_unknown".into(),
            Node::PerRun(runs, PerRun::SignalUnknown),
        ));
    }
    Node::Object(fields)
}

fn summary(s: &Summary) -> Node<'static> {
    let q = &s.quantiles;
    object(vec![
        ("mode", Node::Num(s.mode)),
        ("min", Node::Num(q.min)),
        ("q1", Node::Num(q.q1)),
        ("median", Node::Num(q.median)),
        ("q3", Node::Num(q.q3)),
        ("p95", optional(q.p95)),
        ("p99", optional(q.p99)),
        ("max", Node::Num(q.max)),
    ])
}

fn comparison(c: &Comparison, entry: &RankedEntry, best: usize) -> Node<'static> {
    let b = &c.contrast;
    let (analysis, rounds) = match c.design {
        Design::Rounds { rounds } => ("rounds", Node::Int(rounds as i64)),
        Design::Independent => ("independent", Node::Null),
    };
    let ratio = |v: f64| match b.scale {
        Scale::Ratio => Node::Num(v),
        Scale::Difference => Node::Null,
    };
    let difference = |v: f64| match b.scale {
        Scale::Ratio => Node::Null,
        Scale::Difference => Node::Num(v),
    };
    let mut fields = vec![
        ("against", count(best)),
        ("analysis", text(analysis)),
        ("rounds", rounds),
        ("ratio", ratio(b.estimate)),
        ("ratio_ci_low", ratio(b.low)),
        ("ratio_ci_high", ratio(b.high)),
        ("difference", difference(b.estimate)),
        ("difference_ci_low", difference(b.low)),
        ("difference_ci_high", difference(b.high)),
        ("ci_confidence", Node::Num(b.confidence())),
        ("ci_low_confidence", Node::Num(1.0 - b.low_miss)),
        ("ci_high_confidence", Node::Num(1.0 - b.high_miss)),
        // Every comparison made reaches its level: who is compared is
        // decided by the counts of runs.
        ("ci_reached", Node::Bool(true)),
        ("runs_needed", entry.runs_needed.map_or(Node::Null, count)),
        ("verdict", text(entry.verdict.word())),
        // Kept for readers of earlier versions: "not shown to be slower".
        (
            "identical",
            Node::Bool(!matches!(entry.verdict, Verdict::Slower)),
        ),
        (
            "reasons",
            Node::Array(entry.reasons.iter().map(|r| text(reason(*r))).collect()),
        ),
    ];
    // The C tool's statistics, deciding nothing.
    if let Some(k) = &c.classic {
        let mw = &k.mann_whitney;
        fields.extend([
            ("u", Node::Num(mw.u)),
            ("w", Node::Num(mw.w)),
            ("p_value", Node::Num(mw.p_value)),
            ("p_value_adjusted", Node::Num(k.p_adjusted)),
            ("method", text(method(mw.method))),
            ("hl_shift_us", Node::Num(k.shift)),
            ("ci_low_us", Node::Num(k.shift_low)),
            ("ci_high_us", Node::Num(k.shift_high)),
            ("hl_ci_confidence", Node::Num(k.shift_confidence)),
            ("prob_superiority", Node::Num(k.superiority)),
        ]);
    }
    object(fields)
}

fn method(m: Method) -> &'static str {
    match m {
        Method::Exact => "exact",
        Method::Asymptotic => "asymptotic",
    }
}

fn reason(r: Reason) -> &'static str {
    match r {
        Reason::WithinEffect => "within_effect",
    }
}

/// The top-level `bestguess` object: version, settings, ranking; and,
/// when `--json-runs` left a per-run layout out, the layouts written.
fn top_level<'a>(analysis: &'a Analysis<'_>, layouts: JsonRuns) -> Node<'a> {
    let r = &analysis.ranking;
    let mut fields = vec![
        ("version", text(env!("CARGO_PKG_VERSION"))),
        ("schema_version", count(SCHEMA_VERSION as usize)),
        ("settings", settings(analysis)),
        ("epsilon_us", Node::Num(r.epsilon)),
        ("effect_us", Node::Num(r.effect)),
        ("reference_fixed", Node::Bool(r.fixed_reference)),
        (
            "analysis",
            text(match r.design {
                Design::Rounds { .. } => "rounds",
                Design::Independent => "independent",
            }),
        ),
        (
            "estimand",
            text(match r.scale {
                Scale::Ratio => "ratio_of_medians",
                Scale::Difference => "difference_of_medians",
            }),
        ),
        ("comparisons_family", count(r.family)),
        ("confidence_each", optional(r.bound_confidence)),
        (
            "simultaneous_confidence",
            optional(r.simultaneous_confidence),
        ),
        // The level every report states ("95% simultaneous"), wherever
        // an interval is shown.
        (
            "confidence",
            optional(
                (r.simultaneous_confidence.is_some() || analysis.median_alone.is_some())
                    .then_some(1.0 - analysis.settings.alpha),
            ),
        ),
        (
            "ranked_metric",
            text(analysis.settings.metric.def().key.as_ref()),
        ),
        ("metric_choice", metric_choice(analysis)),
        ("cpu_wait", cpu_wait(analysis)),
        // The runs of each command with which every command is compared.
        (
            "min_runs_for_inference",
            count(runs_to_compare(r.settings.alpha, r.entries.len())),
        ),
        ("inference", Node::Bool(r.inference)),
        (
            "ranking",
            Node::Array(r.order().into_iter().map(count).collect()),
        ),
        ("paired_by_round", Node::Bool(analysis.drift_check().paired)),
        ("warnings", warnings(analysis)),
    ];
    // Only when something was left out: the default document is unchanged.
    if !layouts.is_all() {
        let words = layouts.layouts().map(|l| text(l.word())).collect();
        fields.insert(2, ("json_runs", Node::Array(words)));
    }
    object(fields)
}

/// How the ranked metric was chosen from the data (`null` when
/// `--metric` named it): the reason, the commands it names, whether the
/// run-queue delay told waiting for a CPU apart, and the sentence the
/// ranking's header prints.
fn metric_choice(analysis: &Analysis<'_>) -> Node<'static> {
    use crate::analysis::{MetricFrom, Why};
    let MetricFrom::Chosen(choice) = &analysis.settings.metric_from else {
        return Node::Null;
    };
    let (reason, commands): (&str, Vec<usize>) = match &choice.why {
        Why::OnCpu { .. } => ("on_cpu", Vec::new()),
        Why::Waits { commands, .. } => ("waits", commands.clone()),
        Why::CoarseCpu { command, .. } => ("coarse_cpu", vec![*command]),
        Why::NoCpu { commands, .. } => ("no_cpu", commands.clone()),
        Why::NoWall => ("no_wall", Vec::new()),
    };
    let line = crate::report::spending::metric_line(analysis).unwrap_or_default();
    object(vec![
        ("reason", text(reason)),
        (
            "commands",
            Node::Array(commands.into_iter().map(count).collect()),
        ),
        ("delay_known", Node::Bool(choice.delay_known)),
        ("text", Node::Str(line.into())),
    ])
}

/// The share of the runs' wall time spent waiting for a CPU (`null` when
/// no run has a run-queue delay), whether that makes the machine busy, and
/// the sentence that then says so.
fn cpu_wait(analysis: &Analysis<'_>) -> Node<'static> {
    let Some(share) = analysis.spending.cpu_wait_share else {
        return Node::Null;
    };
    object(vec![
        ("share", Node::Num(share)),
        ("busy", Node::Bool(analysis.spending.busy().is_some())),
        (
            "text",
            crate::report::spending::busy_line(analysis)
                .map_or(Node::Null, |t| Node::Str(t.into())),
        ),
    ])
}

/// Every warning, in full (what the terminal prints after the reports,
/// and the details behind `-E`): `kind`, `printed` (whether a plain run
/// prints it), the commands it names (indices in `results`) and `text`.
fn warnings(analysis: &Analysis<'_>) -> Node<'static> {
    use crate::analysis::Warning;
    let items = analysis.warnings().into_iter().map(|w| {
        let (kind, commands): (&str, Vec<usize>) = match &w {
            Warning::BestCaseChanged { command, .. } => ("best_case_changed", vec![*command]),
            Warning::WallDominates { commands } => ("wall_dominates", commands.clone()),
            Warning::FirstRunSlow { commands } => {
                ("first_run_slow", commands.iter().map(|c| c.0).collect())
            }
            Warning::RelativeChange(c) => ("relative_change", vec![c.command]),
            Warning::OrderDrift {
                explained, changed, ..
            } => (
                "order_drift",
                match explained {
                    Some(x) => vec![x.slower, x.than],
                    None => changed.clone(),
                },
            ),
            Warning::SpeedChanged { command, .. } => ("speed_changed", vec![*command]),
        };
        object(vec![
            ("kind", Node::Str(kind.into())),
            ("printed", Node::Bool(w.printed())),
            (
                "commands",
                Node::Array(commands.into_iter().map(count).collect()),
            ),
            (
                "text",
                Node::Str(crate::report::warnings::text(analysis, &w).into()),
            ),
        ])
    });
    Node::Array(items.collect())
}

/// The ranking settings as given with `-c`.
fn settings(analysis: &Analysis<'_>) -> Node<'static> {
    let s = &analysis.settings;
    object(vec![
        ("alpha", Node::Num(s.alpha)),
        ("epsilon", Node::Str(threshold(s.epsilon).into())),
        ("effect", Node::Str(threshold(s.effect).into())),
        // The best-case estimate's (`best_case.stable` means nothing
        // without them).
        (
            "best",
            Node::Int(i64::try_from(s.best_case.k).unwrap_or(i64::MAX)),
        ),
        ("sigma", Node::Num(s.best_case.max_distance)),
        (
            "runs",
            text(if s.adaptive.is_some() {
                "auto"
            } else {
                "fixed"
            }),
        ),
        ("look", look(analysis)),
    ])
}

/// `--runs auto`: the rule's settings and the look the verdicts come from.
fn look(analysis: &Analysis<'_>) -> Node<'static> {
    let (Some(rule), Some(l)) = (analysis.settings.adaptive, analysis.look) else {
        return Node::Null;
    };
    let int = |n: u64| Node::Int(i64::try_from(n).unwrap_or(i64::MAX));
    object(vec![
        ("min_runs", int(rule.min_rounds)),
        ("precision", Node::Num(rule.precision)),
        ("rounds", int(l.rounds)),
        ("index", count(l.index)),
        ("round", int(l.round)),
        ("alpha", Node::Num(l.alpha)),
        ("decided", Node::Bool(l.decided)),
    ])
}

/// Where the experiment ran: `null` for data read from files without it.
fn platform<'a>(m: &'a Metadata) -> Node<'a> {
    let opt_text = |t: &'a Option<String>| t.as_deref().map_or(Node::Null, text);
    m.platform.as_ref().map_or(Node::Null, |p| {
        object(vec![
            ("os", text(&p.os)),
            ("architecture", text(&p.architecture)),
            ("kernel", opt_text(&p.kernel)),
            ("cpu_model", opt_text(&p.cpu_model)),
            ("cpus", p.cpus.map_or(Node::Null, count)),
        ])
    })
}

/// How the experiment ran: counts, order, seed, shell, limits and why it
/// stopped; `null` for data read from files.
fn experiment(m: &Metadata) -> Node<'_> {
    m.experiment.as_ref().map_or(Node::Null, |e| {
        object(vec![
            ("commands", count(e.commands)),
            ("runs", Node::Int(i64::try_from(e.runs).unwrap_or(i64::MAX))),
            (
                "warmup",
                Node::Int(i64::try_from(e.warmup).unwrap_or(i64::MAX)),
            ),
            ("order", text(&e.order)),
            // A u64 may not fit an i64: written as its exact digits.
            (
                "seed",
                e.seed.map_or(Node::Null, |s| Node::Raw(s.to_string())),
            ),
            ("seed_given", Node::Bool(e.seed_given)),
            ("shell", text(&e.shell)),
            ("timeout_s", optional(e.timeout_s)),
            ("ignore_failure", Node::Bool(e.ignore_failure)),
            ("stopped", e.stopped.map_or(Node::Null, text)),
            (
                "max_runs",
                e.budget.map_or(Node::Null, |(runs, _)| {
                    Node::Int(i64::try_from(runs).unwrap_or(i64::MAX))
                }),
            ),
            (
                "max_time_s",
                e.budget.map_or(Node::Null, |(_, s)| Node::Num(s)),
            ),
        ])
    })
}

/// The top-level `metadata` object: Hyperfine 2.0's (`start_time`,
/// `platform`) extended with how the experiment was made.
fn meta<'a>(m: &'a Metadata, analysis: &Analysis<'_>) -> Node<'a> {
    let time = |t: Option<i64>| t.map_or(Node::Null, |us| Node::Str(rfc3339(us).into()));
    let mut fields = vec![
        ("tool", text("bestguess")),
        ("bestguess_version", text(env!("CARGO_PKG_VERSION"))),
        ("program", text(&m.program)),
        (
            "command_line",
            Node::Array(m.command_line.iter().map(|a| text(a)).collect()),
        ),
        ("start_time", time(m.start_unix_us)),
        ("end_time", time(m.end_unix_us)),
        ("platform", platform(m)),
        ("experiment", experiment(m)),
        ("settings", settings(analysis)),
        (
            "counters",
            Node::Array(m.counters.iter().map(|c| text(c)).collect()),
        ),
        // The unit of each metric not built in, by its key, so that a
        // reader (`bestreport`) knows a `lat` in µs from a plain number.
        (
            "units",
            Node::Object(
                analysis
                    .dataset
                    .catalogue
                    .appended()
                    .map(|(_, d)| (Cow::Owned(d.key.to_string()), text(d.unit.column_suffix())))
                    .collect(),
            ),
        ),
        (
            "controls",
            Node::Object(
                m.controls
                    .iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), text(v)))
                    .collect(),
            ),
        ),
        (
            "sources",
            Node::Array(
                m.sources
                    .iter()
                    .map(|src| {
                        object(vec![
                            ("path", text(&src.path)),
                            ("tag", text(&src.tag)),
                            ("format", text(&src.format)),
                        ])
                    })
                    .collect(),
            ),
        ),
    ];
    // What -Q kept off standard error, only when it kept something.
    if !m.messages.is_empty() {
        fields.push((
            "messages",
            Node::Array(m.messages.iter().map(|t| text(t)).collect()),
        ));
    }
    object(fields)
}

/// Writes `node` pretty-printed; `depth` is the nesting level of `node`.
fn emit(out: &mut impl Out, node: &Node<'_>, depth: usize) -> io::Result<()> {
    match node {
        Node::Null => out.write_all(b"null"),
        Node::Bool(b) => write!(out, "{b}"),
        Node::Int(i) => write!(out, "{i}"),
        Node::Num(x) => match serde_json::Number::from_f64(*x) {
            Some(n) => write!(out, "{n}"),
            None => out.write_all(b"null"),
        },
        Node::Str(s) => serde_json::to_writer(&mut *out, s.as_ref()).map_err(io::Error::from),
        Node::Array(items) => list(out, depth, b"[]", items, |out, item| {
            emit(out, item, depth + 1)
        }),
        Node::Object(fields) => list(out, depth, b"{}", fields, |out, (key, value)| {
            serde_json::to_writer(&mut *out, key).map_err(io::Error::from)?;
            out.write_all(b": ")?;
            emit(out, value, depth + 1)
        }),
        // One value per run, on one line.
        Node::PerRun(runs, what) => json_runs::array(out, runs, *what),
        Node::PerRunOf(runs, what, kept) => json_runs::array_of(out, runs, *what, kept),
        Node::Results(analysis, layouts) => results(out, analysis, *layouts, depth),
        Node::Measurements(runs) => json_runs::measurements(out, runs, depth),
        Node::MeasurementsOf(runs, kept) => json_runs::measurements_of(out, runs, depth, kept),
        Node::Raw(digits) => out.write_all(digits.as_bytes()),
    }
}

/// Results made together on one thread, when every command is small.
const RESULTS_TOGETHER: usize = 64;

/// A command with at most this many runs is small: its per-run arrays are
/// made in one block (see `json_runs`), without a thread of their own.
const SMALL_COMMAND: usize = 4096;

/// The `results` array: as [`list_n`] would write it, each result built
/// just before it is written. Many small commands' results are made
/// [`RESULTS_TOGETHER`] at a time, on this thread and a helper, and
/// written in order (ten thousand results took 0.3 s on one core).
fn results(
    out: &mut impl Out,
    analysis: &Analysis<'_>,
    layouts: JsonRuns,
    depth: usize,
) -> io::Result<()> {
    let n = analysis.commands.len();
    let small = (0..n).all(|i| analysis.runs(i).len() <= SMALL_COMMAND);
    if n < 2 * RESULTS_TOGETHER || !small {
        return list_n(out, depth, b"[]", n, |out, i| {
            emit(out, &result(analysis, i, layouts), depth + 1)
        });
    }
    let made = |k: usize| -> io::Result<Vec<u8>> {
        let mut buf = Vec::new();
        for i in k * RESULTS_TOGETHER..((k + 1) * RESULTS_TOGETHER).min(n) {
            buf.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
            indent(&mut buf, depth + 1)?;
            emit(&mut buf, &result(analysis, i, layouts), depth + 1)?;
        }
        Ok(buf)
    };
    out.write_all(b"[")?;
    make_in_order(n.div_ceil(RESULTS_TOGETHER), made, |buf| out.put(buf?))?;
    out.write_all(b"\n")?;
    indent(out, depth)?;
    out.write_all(b"]")
}

/// Writes a bracketed, comma-separated list, one item per line; an empty
/// list stays on one line (`[]`, `{}`), as serde_json writes it.
fn list<W: Out, T>(
    out: &mut W,
    depth: usize,
    brackets: &[u8; 2],
    items: &[T],
    mut each: impl FnMut(&mut W, &T) -> io::Result<()>,
) -> io::Result<()> {
    list_n(out, depth, brackets, items.len(), |out, i| {
        each(out, &items[i])
    })
}

/// [`list`] of `n` items produced by `each(out, index)`.
fn list_n<W: Out>(
    out: &mut W,
    depth: usize,
    brackets: &[u8; 2],
    n: usize,
    mut each: impl FnMut(&mut W, usize) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(&brackets[..1])?;
    for k in 0..n {
        out.write_all(if k == 0 { b"\n" } else { b",\n" })?;
        indent(out, depth + 1)?;
        each(out, k)?;
    }
    if n > 0 {
        out.write_all(b"\n")?;
        indent(out, depth)?;
    }
    out.write_all(&brackets[1..])
}

fn indent(out: &mut impl Write, depth: usize) -> io::Result<()> {
    for _ in 0..depth {
        out.write_all(b"  ")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(node: &Node<'_>) -> String {
        let mut v = Vec::new();
        emit(&mut v, node, 0).unwrap();
        String::from_utf8(v).unwrap()
    }

    /// Many small commands' results, made in pieces on two threads, are
    /// the text of the results one after another (piece boundaries, the
    /// commas between results, indentation and order included).
    #[test]
    fn results_made_in_pieces_are_the_results_in_turn() {
        use crate::analysis::RankingSettings;
        use crate::data::{Dataset, RunRecord};
        // Just short of two pieces (written in turn), and enough for three
        // with a short last one.
        for commands in [2 * RESULTS_TOGETHER - 1, 3 * RESULTS_TOGETHER - 5] {
            let records = (0..commands).flat_map(|c| {
                (0..6).map(move |r| {
                    let t = 1000 + 7 * c as i64 + 13 * r;
                    RunRecord {
                        command: format!("cmd {c}"),
                        batch: c as u64 + 1,
                        ..RunRecord::default()
                    }
                    .with(Metric::USER, t)
                    .with(Metric::SYSTEM, 5)
                    .with(Metric::WALL, t + 30)
                })
            });
            let dataset = Dataset::from_records(records.collect::<Vec<_>>());
            let analysis = Analysis::new(&dataset, RankingSettings::default()).unwrap();
            for depth in [0, 2] {
                let mut made = Vec::new();
                results(&mut made, &analysis, JsonRuns::default(), depth).unwrap();
                let mut in_turn = Vec::new();
                list_n(&mut in_turn, depth, b"[]", commands, |out, i| {
                    emit(out, &result(&analysis, i, JsonRuns::default()), depth + 1)
                })
                .unwrap();
                assert!(made == in_turn, "{commands} commands at depth {depth}");
            }
            let mut made = Vec::new();
            results(&mut made, &analysis, JsonRuns::default(), 0).unwrap();
            let parsed: serde_json::Value = serde_json::from_slice(&made).unwrap();
            let names: Vec<&str> = parsed
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["command"].as_str().unwrap())
                .collect();
            let expected: Vec<String> = (0..commands).map(|c| format!("cmd {c}")).collect();
            assert_eq!(names, expected);
        }
    }

    #[test]
    fn printer_matches_serde_json_pretty() {
        let dataset = crate::data::Dataset::from_records(
            [1133, 2_000_000].map(|w| crate::data::RunRecord::default().with(Metric::WALL, w)),
        );
        let runs = &dataset.commands[0];
        let node = object(vec![
            ("a \"q\"", text("x\ny\u{1}")),
            ("b", Node::Array(vec![])),
            ("c", object(vec![])),
            ("d", Node::Num(f64::NAN)),
            ("e", Node::Num(f64::INFINITY)),
            ("f", Node::Num(0.0)),
            ("g", Node::Num(1e-7)),
            ("h", Node::Int(-3)),
            ("i", Node::Bool(false)),
            ("j", Node::Null),
            ("k", Node::PerRun(runs, PerRun::Seconds(Metric::WALL))),
            ("l", Node::Array(vec![object(vec![("m", Node::Num(2.5))])])),
        ]);
        let expected = serde_json::json!({
            "a \"q\"": "x\ny\u{1}", "b": [], "c": {}, "d": null, "e": null, "f": 0.0,
            "g": 1e-7, "h": -3, "i": false, "j": null, "k": [0.001133, 2.0],
            "l": [{"m": 2.5}],
        });
        let ours = render(&node);
        // Same text as serde_json's pretty printer (whose keys happen to be
        // in sorted order here), but for the per-run array on one line, and
        // the same value when parsed back.
        let pretty = serde_json::to_string_pretty(&expected).unwrap().replace(
            "\"k\": [\n    0.001133,\n    2.0\n  ]",
            "\"k\": [0.001133, 2.0]",
        );
        assert_eq!(ours, pretty);
        let parsed: serde_json::Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(parsed, expected);
    }
}

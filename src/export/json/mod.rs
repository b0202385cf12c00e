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
//!
//! Here: the entry point and the document's value type; [`top`] and
//! [`result`] make the document's fields, [`pretty`] prints them, and
//! [`writer`] sends the bytes (on a thread of their own for large
//! documents).

use std::borrow::Cow;
use std::io::{self, Write};
use std::rc::Rc;

use super::json_layouts::JsonRuns;
use super::json_runs::{Out, PerRun};
use super::metadata::Metadata;
use crate::analysis::Analysis;
use crate::data::CommandRuns;

mod pretty;
mod result;
mod top;
mod writer;

use pretty::emit;
use result::primary_metric;
use top::{meta, top_level};
use writer::{ChunkSender, Direct, CHUNK};

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
/// [`json_runs`](super::json_runs)) and written by another, a chunk at a time (a million runs
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

/// [`write`](fn@write)'s document, to a buffered `out`.
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

#[cfg(test)]
mod tests {
    use super::pretty::{list_n, results, RESULTS_TOGETHER};
    use super::result::result;
    use super::*;
    use crate::data::Metric;

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

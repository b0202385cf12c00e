//! The document as text: a hand-written pretty printer (two-space
//! indents, short arrays on one line), results written as they are made.

use super::*;
use std::io::{self, Write};

use crate::analysis::Analysis;
use crate::export::in_order::make_in_order;
use crate::export::json_layouts::JsonRuns;
use crate::export::json_runs::{self, Out};

/// Writes `node` pretty-printed; `depth` is the nesting level of `node`.
pub(super) fn emit(out: &mut impl Out, node: &Node<'_>, depth: usize) -> io::Result<()> {
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
pub(super) const RESULTS_TOGETHER: usize = 64;

/// A command with at most this many runs is small: its per-run arrays are
/// made in one block (see `json_runs`), without a thread of their own.
pub(super) const SMALL_COMMAND: usize = 4096;

/// The `results` array: as [`list_n`] would write it, each result built
/// just before it is written. Many small commands' results are made
/// [`RESULTS_TOGETHER`] at a time, on this thread and a helper, and
/// written in order (ten thousand results took 0.3 s on one core).
pub(super) fn results(
    out: &mut impl Out,
    analysis: &Analysis<'_>,
    layouts: JsonRuns,
    depth: usize,
) -> io::Result<()> {
    let n = analysis.commands.len();
    let small = (0..n).all(|i| analysis.runs(i).len() <= SMALL_COMMAND);
    if n < 2 * RESULTS_TOGETHER || !small {
        return list_n(out, depth, b"[]", n, |out, i| {
            emit(out, &super::result::result(analysis, i, layouts), depth + 1)
        });
    }
    let made = |k: usize| -> io::Result<Vec<u8>> {
        let mut buf = Vec::new();
        for i in k * RESULTS_TOGETHER..((k + 1) * RESULTS_TOGETHER).min(n) {
            buf.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
            indent(&mut buf, depth + 1)?;
            emit(
                &mut buf,
                &super::result::result(analysis, i, layouts),
                depth + 1,
            )?;
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
pub(super) fn list<W: Out, T>(
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
pub(super) fn list_n<W: Out>(
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

pub(super) fn indent(out: &mut impl Write, depth: usize) -> io::Result<()> {
    for _ in 0..depth {
        out.write_all(b"  ")?;
    }
    Ok(())
}

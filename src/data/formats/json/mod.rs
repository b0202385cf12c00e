//! JSON exports: BestGuess's own, Hyperfine 2.0's and Hyperfine 1.x's.
//!
//! Told apart by content: a result with `bestguess.per_run` is BestGuess's
//! (every run's integers, read exactly); otherwise `measurements` is
//! Hyperfine 2.0's, `times` Hyperfine 1.x's, and a document with neither
//! is Hyperfine 2.0's if it says `schema_version` 2. A BestGuess export
//! written with `--json-runs` without `bestguess` is read by the Hyperfine
//! layout it has, as Hyperfine's own file would be; one with no per-run
//! layout at all (`--json-runs none`) holds summaries only, and is refused
//! with what to export instead.
//! Each result becomes one command (batch = its position), its runs in
//! file order. Hyperfine ran each command's runs one after another, in
//! result order, so that is the runs' sequence. Hyperfine's times in
//! seconds are kept as read (µs could not hold every one; see
//! [`super::SecondsBy`]), BestGuess's own whole µs as integers. A run
//! Hyperfine records without an exit code (`null`: a signal ended it) is a
//! failed run ended by a signal whose number is not known: it has neither
//! an exit code nor a signal number, and none is made up for it.
//!
//! Here: telling the layouts apart and what every result has (command,
//! parameters, groups, means); [`hyperfine`] reads Hyperfine's runs,
//! [`bestguess`] BestGuess's own.

use serde_json::Value as Json;

use super::{InputFormat, SecondsBy};
use crate::data::csv_read::RowSink;
use crate::data::error::DataError;
use crate::data::metric::{Metric, Unit};
use crate::data::RunRecord;

/// The per-run layouts a document may carry, each result's key(s).
const HYPERFINE1_LAYOUT: [&str; 3] = ["times", "memory_usage_byte", "exit_codes"];
const HYPERFINE2_LAYOUT: &str = "measurements";

mod bestguess;
mod hyperfine;

use bestguess::bestguess_runs;
use hyperfine::{hyperfine1_runs, hyperfine2_runs};

/// The document without the per-run layouts it will not be read by: with
/// `bestguess.per_run` in some result, neither Hyperfine layout; else, with
/// `measurements`, not 1.x's arrays. Each result is first split into its
/// keys' raw text (borrowed, no copy), and only the keys kept are parsed:
/// the whole document as values takes 2.2 GB and 7 s for a 163 MB
/// export of 2 × 200,000 runs (every Hyperfine 2.0 measurement an object
/// of objects). `None` when the document is not an object whose
/// `results` is an array of objects (or not JSON): then it is read whole.
fn without_unused_layouts(bytes: &[u8]) -> Option<Json> {
    use serde_json::value::RawValue;
    use std::collections::BTreeMap;
    type Raw<'a> = BTreeMap<String, &'a RawValue>;
    let top: Raw<'_> = serde_json::from_slice(bytes).ok()?;
    let results: Vec<&RawValue> = serde_json::from_str(top.get("results")?.get()).ok()?;
    let results: Vec<Raw<'_>> = results
        .iter()
        .map(|r| serde_json::from_str(r.get()).ok())
        .collect::<Option<_>>()?;
    let parse = |raw: &RawValue| serde_json::from_str::<Json>(raw.get()).ok();
    // Each result's `bestguess` (always kept, `per_run` inside it), parsed
    // once: where it is, is what decides the layouts read.
    let own: Vec<Option<Json>> = results
        .iter()
        .map(|r| match r.get("bestguess") {
            Some(b) => parse(b).map(Some),
            None => Some(None),
        })
        .collect::<Option<_>>()?;
    let per_run = own
        .iter()
        .any(|b| b.as_ref().is_some_and(|b| b.get("per_run").is_some()));
    let measurements = results.iter().any(|r| r.contains_key(HYPERFINE2_LAYOUT));
    let unused = |key: &str| {
        (per_run && (key == HYPERFINE2_LAYOUT || HYPERFINE1_LAYOUT.contains(&key)))
            || (!per_run && measurements && HYPERFINE1_LAYOUT.contains(&key))
    };
    let mut doc = serde_json::Map::new();
    for (key, raw) in &top {
        if key != "results" {
            doc.insert(key.clone(), parse(raw)?);
        }
    }
    let mut kept = Vec::with_capacity(results.len());
    for (result, own) in results.iter().zip(own) {
        let mut object = serde_json::Map::new();
        for (key, raw) in result {
            if key != "bestguess" && !unused(key) {
                object.insert(key.clone(), parse(raw)?);
            }
        }
        if let Some(own) = own {
            object.insert("bestguess".to_owned(), own);
        }
        kept.push(Json::Object(object));
    }
    doc.insert("results".to_owned(), Json::Array(kept));
    Some(Json::Object(doc))
}

/// Reads a whole JSON document into `sink`.
pub fn read_into(
    bytes: &[u8],
    file: &str,
    sink: &mut impl RowSink,
) -> Result<InputFormat, DataError> {
    let fail = |message: String| DataError::Format {
        file: file.to_owned(),
        message,
    };
    // A UTF-8 byte-order mark is no part of the JSON (as in a raw CSV).
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let doc: Json = match without_unused_layouts(bytes) {
        Some(doc) => doc,
        // Not the shape of an export (or not JSON): the whole document,
        // for the messages below.
        None => serde_json::from_slice(bytes)
            .map_err(|e| fail(format!("not valid JSON ({e}); {}", super::ACCEPTED)))?,
    };
    let Some(results) = doc.get("results").and_then(Json::as_array) else {
        return Err(fail(format!(
            "JSON without a \"results\" array, so not a BestGuess or Hyperfine export; {}",
            super::ACCEPTED
        )));
    };
    let format = format_of(&doc, results).map_err(fail)?;
    let by = seconds_by(&doc);
    let units = units_of(&doc);
    let mut sequence = 0u64;
    let mut experiment = None;
    let mut batches = std::collections::HashSet::new();
    for (k, result) in results.iter().enumerate() {
        let at = |what: &str| format!("results[{k}]{what}");
        // Results BestGuess read from different files, or from different
        // experiments of one file (`bestguess.source`), are kept apart
        // as the files were: a new group, never paired by round with the
        // ones before.
        // So are the results of two exports put in one document: in one
        // experiment each batch number appears once, so a number seen
        // again starts a new group. (Any order is one experiment's: results
        // sorted by their medians stay one group, not one group each whose
        // rounds would be compared as independent samples.)
        let source = result.pointer("/bestguess/source");
        let batch = result.pointer("/bestguess/batch").and_then(Json::as_u64);
        if k > 0 && (source != experiment || batch.is_some_and(|b| batches.contains(&b))) {
            sink.new_group();
            batches.clear();
        }
        batches.extend(batch);
        origin(source, sink);
        experiment = source;
        let command = result
            .get("command")
            .and_then(Json::as_str)
            .ok_or_else(|| fail(format!("{} has no \"command\" string", at(""))))?;
        let mut base = RunRecord {
            command: command.to_owned(),
            batch: k as u64 + 1,
            ..RunRecord::default()
        };
        base.parameters = parameters(result, &at).map_err(fail)?;
        let runs = match format {
            InputFormat::BestGuessJson => {
                bestguess_runs(result, &mut base, sink, &units, &at).map_err(fail)?
            }
            InputFormat::HyperfineJson2 => {
                base.name = text(result.get("name"));
                hyperfine2_runs(result, &base, sink, by, &at).map_err(fail)?
            }
            _ => {
                base.name = text(result.get("name"));
                hyperfine1_runs(result, &base, by, &at).map_err(fail)?
            }
        };
        // A command without runs would vanish from every report.
        if runs.is_empty() {
            return Err(fail(format!(
                "{} ('{command}') holds no runs; remove that result or give its runs",
                at("")
            )));
        }
        // The means of user and system time where no run has a value of
        // its own (Hyperfine 1.x keeps only them): kept for a re-export.
        let mean = |key: &str, metric: Metric| -> Result<Option<f64>, DataError> {
            if runs.iter().any(|r| r.metrics.get(metric).is_some()) {
                return Ok(None);
            }
            match result.get(key) {
                None | Some(Json::Null) => Ok(None),
                Some(v) => match v.as_f64().filter(|x| (0.0..9e9).contains(x)) {
                    Some(seconds) => Ok(Some(seconds * 1e6)),
                    None => Err(fail(format!(
                        "{} is {v}, not a mean time in seconds (a number from 0)",
                        at(&format!(".{key}"))
                    ))),
                },
            }
        };
        let means = (mean("user", Metric::USER)?, mean("system", Metric::SYSTEM)?);
        for mut run in runs {
            if run.sequence.is_none() && format != InputFormat::BestGuessJson {
                sequence += 1;
                run.sequence = Some(sequence);
            }
            sink.row(&run, false);
        }
        if means != (None, None) {
            sink.means(means.0, means.1);
        }
    }
    Ok(format)
}

/// Where a result's runs were first read (`bestguess.source`), to tell
/// groups apart by it.
fn origin(source: Option<&Json>, sink: &mut impl RowSink) {
    if let Some(tag) = source
        .and_then(|s| s.get("tag"))
        .and_then(Json::as_str)
        .filter(|t| !t.is_empty())
    {
        match source.and_then(|s| s.get("group")).and_then(Json::as_u64) {
            Some(group) => sink.origin(&format!("{tag}, group {group}")),
            None => sink.origin(tag),
        }
    }
}

/// Whose times in seconds `doc` holds: BestGuess's document (read by a
/// Hyperfine layout) has a top-level `bestguess` object.
fn seconds_by(doc: &Json) -> SecondsBy {
    if doc.get("bestguess").is_some_and(Json::is_object) {
        SecondsBy::BestGuess
    } else {
        SecondsBy::OtherTool
    }
}

/// Which JSON this is, from its keys.
fn format_of(doc: &Json, results: &[Json]) -> Result<InputFormat, String> {
    let has = |key: &str| results.iter().any(|r| r.get(key).is_some());
    // Ours, whatever layouts it carries: it has a top-level `bestguess`.
    let ours = doc.get("bestguess").is_some_and(Json::is_object);
    Ok(
        if results
            .iter()
            .any(|r| r.pointer("/bestguess/per_run").is_some())
        {
            InputFormat::BestGuessJson
        } else if has("measurements") {
            InputFormat::HyperfineJson2
        } else if has("times") {
            InputFormat::HyperfineJson1
        } else if ours && !results.is_empty() {
            return Err(
                "this BestGuess JSON has summaries only, no per-run data; export with \
             --json-runs bestguess (or all) to re-analyse it"
                    .to_owned(),
            );
        } else if doc.get("schema_version").and_then(Json::as_u64) == Some(2) {
            InputFormat::HyperfineJson2
        } else {
            return Err(format!(
                "JSON whose results have neither \"measurements\" nor \"times\", so no per-run \
             data; {}",
                super::ACCEPTED
            ));
        },
    )
}

/// The units of the metrics of BestGuess's own that are not built in
/// (`metadata.units`: without them a `lat (us)` column would come back a
/// plain number, and the report would change).
fn units_of(doc: &Json) -> Vec<(&str, Unit)> {
    doc.pointer("/metadata/units")
        .and_then(Json::as_object)
        .map(|units| {
            units
                .iter()
                .filter_map(|(key, u)| Some((key.as_str(), Unit::from_suffix(u.as_str()?)?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Hyperfine's parameters of a result, as (name, value).
fn parameters(result: &Json, at: &dyn Fn(&str) -> String) -> Result<Vec<(String, String)>, String> {
    // Hyperfine's parameters: `{"n": {"value": "1"}}` (2.0) or
    // `{"n": "1"}` (1.x); a number is taken as written. Anything else
    // (null, an object, a list) is no value to show (`null` is never
    // shown and exported as the string "null").
    // `parameters` itself of another type (a string, a list, null) is
    // refused as its values are, not dropped silently.
    let params = match result.get("parameters") {
        None => None,
        Some(Json::Object(params)) => Some(params),
        Some(other) => {
            return Err(format!(
                "{}.parameters is {}; Hyperfine's parameters are an object of name: value",
                at(""),
                match other {
                    Json::Null => "null",
                    Json::Bool(_) => "true or false",
                    Json::String(_) => "a string",
                    Json::Number(_) => "a number",
                    _ => "a list",
                }
            ))
        }
    };
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    params
        .iter()
        .map(|(name, v)| {
            let value = v.get("value").unwrap_or(v);
            match value {
                Json::String(s) => Ok((name.clone(), s.clone())),
                Json::Number(n) => Ok((name.clone(), n.to_string())),
                other => Err(format!(
                    "{}: parameter {name:?} is {}; a parameter's value is a string \
                         (or a number)",
                    at(""),
                    match other {
                        Json::Null => "null",
                        Json::Bool(_) => "true or false",
                        _ => "not a single value",
                    }
                )),
            }
        })
        .collect()
}

fn text(v: Option<&Json>) -> String {
    v.and_then(Json::as_str).unwrap_or("").to_owned()
}

/// An exit code at `what`: an integer, or `None` for `null`, a run a
/// signal ended (Hyperfine's spelling). Anything else (`"0"`, `1.5`,
/// `true`, out of range) is refused, not read as a failure.
fn exit_code(
    v: Option<&Json>,
    at: &dyn Fn(&str) -> String,
    what: &str,
) -> Result<Option<i32>, String> {
    match v {
        Some(Json::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .and_then(|c| i32::try_from(c).ok())
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "{} is {v}, not an exit code (an integer, or null for a run a signal ended)",
                    at(what)
                )
            }),
        None => Err(format!("{} is missing", at(what))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(doc: &Json, k: usize) -> Vec<String> {
        doc["results"][k]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    #[test]
    fn only_the_layout_that_will_be_read_is_parsed() {
        // Ours with every layout: per_run is read, Hyperfine's are skipped
        // (unparsed: even text that is no layout at all).
        let ours = br#"{"schema_version": 2, "results": [
            {"command": "a", "times": [1], "memory_usage_byte": [2], "exit_codes": [0],
             "measurements": "not looked at", "summary": {}, "bestguess": {"per_run": {}}},
            {"command": "b", "times": [1]}]}"#;
        let doc = without_unused_layouts(ours).unwrap();
        assert_eq!(keys(&doc, 0), ["bestguess", "command", "summary"]);
        assert_eq!(keys(&doc, 1), ["command"]);
        assert_eq!(doc["schema_version"], 2);
        // Hyperfine 2.0 layouts without per_run: 1.x's arrays skipped.
        let two = br#"{"results": [{"command": "a", "times": [1], "measurements": []}]}"#;
        let doc = without_unused_layouts(two).unwrap();
        assert_eq!(keys(&doc, 0), ["command", "measurements"]);
        // Hyperfine 1.x: everything kept.
        let one = br#"{"results": [{"command": "a", "times": [1], "exit_codes": [0]}]}"#;
        let doc = without_unused_layouts(one).unwrap();
        assert_eq!(keys(&doc, 0), ["command", "exit_codes", "times"]);
        // Other shapes are read whole, for their messages.
        for other in [
            &b"[1, 2]"[..],
            b"{\"results\": 3}",
            b"{\"results\": [1]}",
            b"{",
            b"{}",
        ] {
            assert!(without_unused_layouts(other).is_none(), "{other:?}");
        }
    }
}

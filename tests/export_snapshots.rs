//! Every export format on fixed data, pinned by insta snapshots, plus the
//! contracts the snapshots alone would not make obvious: the summary CSV's
//! header is C BestGuess's byte for byte and every row has 70 fields
//! whatever the text in it; the JSON parses, holds no NaN, and has every key
//! and type of Hyperfine 1.20's own export.
//!
//! Review a changed snapshot by reading the `.snap` file
//! (`INSTA_UPDATE=always cargo test --test export_snapshots` rewrites them).

use bestguess::analysis::Analysis;
use bestguess::analysis::RankingSettings;
use bestguess::data::{Catalogue, Dataset, Metric, RunRecord};
use bestguess::export::Format;
use serde_json::Value;

const FORMATS: [(Format, &str); 6] = [
    (Format::SummaryCsv, "summary_csv"),
    (Format::HyperfineCsv, "hyperfine_csv"),
    (Format::Json, "json"),
    (Format::Markdown, "markdown"),
    (Format::AsciiDoc, "asciidoc"),
    (Format::OrgMode, "orgmode"),
];

/// Every data file the exports are tested on: (snapshot name, path).
const FILES: [(&str, &str); 12] = [
    ("raw1", "tests/data/c_tool/raw1.csv"),
    ("rawps1", "tests/data/c_tool/rawps1.csv"),
    ("pi1", "tests/data/c_tool/pi1.csv"),
    ("brandAB", "tests/data/c_tool/brandAB.csv"),
    ("utf8", "tests/data/fixtures/utf8.csv"),
    ("one_run", "tests/data/fixtures/one_run.csv"),
    ("zeros", "tests/data/fixtures/zeros.csv"),
    ("identical", "tests/data/fixtures/identical.csv"),
    ("failures", "tests/data/fixtures/failures.csv"),
    ("seconds_mixed", "tests/data/fixtures/seconds_mixed.csv"),
    ("many", "tests/data/fixtures/many.csv"),
    // A parameter scan whose second command has no {level}: the values
    // tell its two instances apart in every export.
    ("scan", "tests/data/fixtures/scan.csv"),
];

mod support;

use support::dataset as load;

fn render(dataset: &Dataset, format: Format) -> String {
    let analysis = Analysis::new(dataset, RankingSettings::default()).expect("analysis");
    let mut out = Vec::new();
    format.write(&analysis, &mut out).expect("writing to a Vec");
    String::from_utf8(out).expect("exports are UTF-8")
}

fn render_file(path: &str, format: Format) -> String {
    render(&load(path), format)
}

fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.expect("valid CSV"))
        .collect()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("valid JSON")
}

macro_rules! snapshot_tests {
    ($($test:ident => $name:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            let (_, path) = FILES.iter().find(|(n, _)| *n == $name).unwrap();
            let dataset = load(path);
            for (format, suffix) in FORMATS {
                insta::assert_snapshot!(
                    format!("{}_{}", $name, suffix),
                    render(&dataset, format)
                );
            }
        }
    )*};
}

snapshot_tests! {
    snapshot_raw1 => "raw1",
    snapshot_rawps1 => "rawps1",
    snapshot_pi1 => "pi1",
    snapshot_brand_ab => "brandAB",
    snapshot_utf8 => "utf8",
    snapshot_one_run => "one_run",
    snapshot_zeros => "zeros",
    snapshot_identical => "identical",
    snapshot_failures => "failures",
    snapshot_seconds_mixed => "seconds_mixed",
    snapshot_many => "many",
    snapshot_scan => "scan",
}

#[test]
fn every_fixture_has_a_snapshot_test() {
    let source = include_str!("export_snapshots.rs");
    for (name, _) in FILES {
        assert!(source.contains(&format!("=> \"{name}\",")), "{name}");
    }
}

#[test]
fn summary_csv_header_is_the_references_byte_for_byte() {
    let expected = std::fs::read_to_string("tests/data/c_tool/expected/summary1.csv").unwrap();
    let ours = render_file("tests/data/c_tool/raw1.csv", Format::SummaryCsv);
    let header = |s: &str| s.split_inclusive('\n').next().unwrap().to_owned();
    assert_eq!(header(&ours), header(&expected));
    assert_eq!(csv_rows(&expected)[0].len(), 70);

    // Values differ (type 7 quantiles); identity columns do not.
    let (ours, expected) = (csv_rows(&ours), csv_rows(&expected));
    assert_eq!(ours.len(), expected.len());
    for (a, b) in ours.iter().zip(&expected).skip(1) {
        for column in [0, 1, 2, 3, 68, 69] {
            assert_eq!(a[column], b[column], "column {column}");
        }
    }
}

#[test]
fn hyperfine_csv_header_and_commands_are_the_references() {
    let expected = std::fs::read_to_string("tests/data/c_tool/expected/hf1.csv").unwrap();
    let ours = render_file("tests/data/c_tool/raw1.csv", Format::HyperfineCsv);
    let (ours, expected) = (csv_rows(&ours), csv_rows(&expected));
    assert_eq!(ours.len(), expected.len());
    assert_eq!(ours[0], expected[0]);
    for (a, b) in ours.iter().zip(&expected) {
        assert_eq!(a.len(), 8);
        assert_eq!(a[0], b[0]);
    }
}

#[test]
fn every_summary_row_has_70_fields_for_every_fixture() {
    for (name, path) in FILES {
        let dataset = load(path);
        let rows = csv_rows(&render(&dataset, Format::SummaryCsv));
        assert_eq!(rows.len(), dataset.commands.len() + 1, "{name}");
        for row in &rows {
            assert_eq!(row.len(), 70, "{name}: {row:?}");
        }
        for row in csv_rows(&render(&dataset, Format::HyperfineCsv)) {
            assert_eq!(row.len(), 8, "{name}: {row:?}");
        }
    }
}

/// A run with every fixed metric measured as 0 (synthetic data sets what
/// it needs on top).
fn zeros() -> RunRecord {
    Catalogue::new()
        .metrics()
        .fold(RunRecord::default(), |r, m| r.with(m, 0))
}

/// Commands, shells and names with every character CSV and Markdown care
/// about.
fn awkward_dataset() -> Dataset {
    let texts = [
        ("echo a,b", "/bin/sh -c", "comma, in name"),
        ("echo \"quoted\"", "", "\"quoted\" name"),
        ("printf 'x\\ny'\necho two\r\nlines", "/bin/bash -c", ""),
        ("grep 'a|b' `ls`", "", "pipe | and `tick`"),
        ("", "/bin/sh -c", ""),
    ];
    let mut records = Vec::new();
    for (k, (command, shell, name)) in texts.iter().enumerate() {
        for run in 0..6 {
            records.push(
                RunRecord {
                    command: command.to_string(),
                    shell: shell.to_string(),
                    name: name.to_string(),
                    batch: k as u64 + 1,
                    ..zeros()
                }
                .with(Metric::USER, 1000 * (k as i64 + 1) + 37 * run)
                .with(Metric::SYSTEM, 10 * run)
                .with(Metric::WALL, 1500 * (k as i64 + 1) + 41 * run)
                .with(Metric::MAXRSS, 2_000_000 + run),
            );
        }
    }
    Dataset::from_records(records)
}

#[test]
fn text_with_commas_quotes_and_newlines_keeps_the_columns() {
    let dataset = awkward_dataset();

    let rows = csv_rows(&render(&dataset, Format::SummaryCsv));
    assert_eq!(rows.len(), dataset.commands.len() + 1);
    for (row, c) in rows.iter().skip(1).zip(&dataset.commands) {
        assert_eq!(row.len(), 70, "{row:?}");
        assert_eq!(
            (&row[0], &row[1], &row[68], &row[69]),
            (
                c.command.as_str(),
                c.shell.as_str(),
                c.name.as_str(),
                c.batch.to_string().as_str()
            )
        );
    }

    let rows = csv_rows(&render(&dataset, Format::HyperfineCsv));
    for (row, c) in rows.iter().skip(1).zip(&dataset.commands) {
        assert_eq!(row.len(), 8, "{row:?}");
        let expected = if c.command.is_empty() {
            &c.shell
        } else {
            &c.command
        };
        assert_eq!(&row[0], expected);
    }

    let doc = json(&render(&dataset, Format::Json));
    for (result, c) in doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&dataset.commands)
    {
        assert_eq!(result["command"], c.command.as_str());
        assert_eq!(result["bestguess"]["name"], c.name.as_str());
        assert_eq!(result["bestguess"]["shell"], c.shell.as_str());
    }

    // One table row per command, each with exactly six unescaped pipes.
    let markdown = render(&dataset, Format::Markdown);
    let table: Vec<&str> = markdown
        .lines()
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(table.len(), dataset.commands.len() + 2, "{markdown}");
    for line in table {
        assert_eq!(cell_separators(line), 6, "{line}");
    }
    insta::assert_snapshot!("awkward_markdown", markdown);

    let org = render(&dataset, Format::OrgMode);
    let table: Vec<&str> = org.lines().take_while(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), dataset.commands.len() + 2, "{org}");
    for line in table.iter().filter(|l| !l.starts_with("|---")) {
        assert_eq!(line.matches('|').count(), 6, "{line}");
    }
    insta::assert_snapshot!("awkward_orgmode", org);

    let adoc = render(&dataset, Format::AsciiDoc);
    assert_eq!(asciidoc_cells(&adoc), (dataset.commands.len() + 1) * 5);
    insta::assert_snapshot!("awkward_asciidoc", adoc);
}

#[test]
fn json_parses_without_nan_and_has_a_time_per_run() {
    for (name, path) in FILES {
        let text = render_file(path, Format::Json);
        // serde_json rejects NaN and Infinity tokens, so parsing proves
        // their absence; the text check names the culprit if it fails.
        for bad in ["NaN", "Infinity"] {
            assert!(!text.contains(bad), "{name}: {bad}");
        }
        let doc = json(&text);
        let results = doc["results"].as_array().unwrap();
        for r in results {
            let runs = r["bestguess"]["runs"].as_u64().unwrap() as usize;
            assert!(runs > 0);
            for key in ["times", "memory_usage_byte", "exit_codes"] {
                assert_eq!(r[key].as_array().unwrap().len(), runs, "{name} {key}");
            }
            for (key, array) in r["bestguess"]["per_run"].as_object().unwrap() {
                assert_eq!(array.as_array().unwrap().len(), runs, "{name} {key}");
            }
        }
        let order = doc["bestguess"]["ranking"].as_array().unwrap();
        assert_eq!(order.len(), results.len(), "{name}");
    }
}

#[test]
fn json_of_a_single_run_has_null_stddev() {
    let doc = json(&render_file(
        "tests/data/fixtures/one_run.csv",
        Format::Json,
    ));
    for r in doc["results"].as_array().unwrap() {
        assert_eq!(r["times"].as_array().unwrap().len(), 1);
        assert!(r["stddev"].is_null(), "{r}");
        assert!(r["bestguess"]["ad_statistic"].is_null());
        assert!(r["bestguess"].get("comparison").is_none());
    }
    assert_eq!(doc["bestguess"]["inference"], false);
}

#[test]
fn json_comparisons_are_against_the_best() {
    let doc = json(&render_file("tests/data/c_tool/rawps1.csv", Format::Json));
    let order: Vec<u64> = doc["bestguess"]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let results = doc["results"].as_array().unwrap();
    for (i, r) in results.iter().enumerate() {
        let c = &r["bestguess"]["comparison"];
        if i as u64 == order[0] {
            assert!(c.is_null());
            assert_eq!(r["bestguess"]["verdict"], "best");
            continue;
        }
        assert_eq!(c["against"], order[0]);
        assert!(["exact", "asymptotic"].contains(&c["method"].as_str().unwrap()));
        assert!(c["ci_low_us"].as_f64() <= c["ci_high_us"].as_f64());
        let identical = c["identical"].as_bool().unwrap();
        assert_eq!(!identical, c["reasons"].as_array().unwrap().is_empty());
    }
}

/// The JSON type of a value, with integers told apart from other numbers.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `ours` can stand where Hyperfine wrote `theirs`: the same JSON
/// type (a float where Hyperfine happened to write an integer-looking
/// float counts as a number), and for arrays the same for every element.
/// `null` is allowed where Hyperfine's field is optional: `stddev` (one
/// run) and the elements of `exit_codes` (a run killed by a signal).
fn compatible(key: &str, theirs: &Value, ours: &Value) -> bool {
    let number = |v: &Value| v.is_number();
    match theirs {
        Value::Array(t) => match (ours.as_array(), t.first()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(o), Some(t0)) => o.iter().all(|x| {
                (key == "exit_codes" && x.is_null())
                    || kind(x) == kind(t0)
                    || (kind(t0) == "float" && number(x))
            }),
        },
        _ if key == "stddev" && ours.is_null() => true,
        Value::Number(_) if kind(theirs) == "float" => number(ours),
        _ => kind(theirs) == kind(ours),
    }
}

#[test]
fn json_has_every_key_and_type_of_hyperfine_1s_export() {
    let reference = json(include_str!("hyperfine_compat/hyperfine-1.20-export.json"));
    let theirs = reference["results"].as_array().unwrap();
    assert!(!theirs.is_empty());
    for (name, path) in FILES {
        let doc = json(&render_file(path, Format::Json));
        let ours = doc["results"].as_array().unwrap();
        for t in theirs {
            for (key, value) in t.as_object().unwrap() {
                for o in ours {
                    let mine = o.get(key).unwrap_or_else(|| panic!("{name}: no {key}"));
                    assert!(
                        compatible(key, value, mine),
                        "{name}: {key} is {mine}, Hyperfine has {value}"
                    );
                }
            }
        }
    }
}

/// Every key Hyperfine 2.0 wrote in `theirs` is in `ours`, recursively,
/// with a compatible type; `path` names the place for messages. Arrays are
/// compared element by element against Hyperfine's first element. Allowed
/// differences: `null` where Hyperfine's value is optional (`stddev`, a
/// run's `exit_code`, `start_time`, `platform` for saved files), an integer
/// where Hyperfine wrote a float, and `metadata.hyperfine_version` (the
/// file was not written by Hyperfine: `metadata.tool` says what wrote it).
fn conforms(path: &str, theirs: &Value, ours: &Value) -> Result<(), String> {
    let optional = ["stddev", "exit_code", "start_time", "platform"];
    let last = path.rsplit('.').next().unwrap_or("");
    match (theirs, ours) {
        (_, Value::Null) if optional.contains(&last) => Ok(()),
        (Value::Object(t), Value::Object(o)) => {
            for (key, value) in t {
                if path == "metadata" && key == "hyperfine_version" {
                    continue;
                }
                let mine = o.get(key).ok_or(format!("{path}: no key {key}"))?;
                conforms(&format!("{path}.{key}"), value, mine)?;
            }
            Ok(())
        }
        (Value::Array(t), Value::Array(o)) => match t.first() {
            None => Ok(()),
            Some(t0) => o
                .iter()
                .try_for_each(|x| conforms(&format!("{path}[]"), t0, x)),
        },
        (Value::Number(_), Value::Number(_)) => Ok(()),
        _ if kind(theirs) == kind(ours) => Ok(()),
        _ => Err(format!("{path}: {ours} where Hyperfine wrote {theirs}")),
    }
}

#[test]
fn json_has_every_key_and_type_of_hyperfine_2s_export() {
    let reference = json(include_str!("hyperfine_compat/hyperfine-2.0-export.json"));
    assert_eq!(reference["schema_version"], 2);
    let theirs = reference["results"].as_array().unwrap();
    for (name, path) in FILES {
        let doc = json(&render_file(path, Format::Json));
        assert_eq!(doc["schema_version"], 2, "{name}");
        for key in ["metadata", "primary_metric"] {
            conforms(key, &reference[key], &doc[key]).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        // Every result against every one of Hyperfine's.
        for o in doc["results"].as_array().unwrap() {
            for t in theirs {
                conforms("results[]", t, o).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            let runs = o["bestguess"]["runs"].as_u64().unwrap() as usize;
            assert_eq!(o["measurements"].as_array().unwrap().len(), runs);
            for metric in o["summary"].as_object().unwrap().values() {
                assert_eq!(metric["count"].as_u64(), Some(runs as u64), "{name}");
            }
        }
    }
    // And the checker is not vacuous: it notices a missing key.
    let mut broken = json(&render_file(FILES[0].1, Format::Json));
    broken["results"][0]["summary"]
        .as_object_mut()
        .unwrap()
        .remove("time_user");
    assert!(conforms("results[]", &theirs[0], &broken["results"][0]).is_err());
}

#[test]
fn json_2_values_agree_with_the_1x_values_and_the_runs() {
    let doc = json(&render_file("tests/data/c_tool/raw1.csv", Format::Json));
    let ls = &doc["results"][0];
    let m = ls["measurements"].as_array().unwrap();
    for (k, run) in m.iter().enumerate() {
        assert_eq!(run["time_wall_clock"]["value"], ls["times"][k]);
        assert_eq!(run["time_wall_clock"]["unit"], "second");
        assert_eq!(
            run["memory_peak_resident"]["value"],
            ls["memory_usage_byte"][k]
        );
        assert_eq!(run["memory_peak_resident"]["unit"], "byte");
        assert_eq!(run["exit_code"], ls["exit_codes"][k]);
        let per_run = &ls["bestguess"]["per_run"];
        let us = |key: &str| per_run[key][k].as_i64().unwrap() as f64 / 1e6;
        assert_eq!(run["time_user"]["value"].as_f64().unwrap(), us("user_us"));
        assert_eq!(
            run["time_system"]["value"].as_f64().unwrap(),
            us("system_us")
        );
        assert_eq!(run["time_cpu"]["value"].as_f64().unwrap(), us("total_us"));
    }
    let wall = &ls["summary"]["time_wall_clock"];
    for key in ["mean", "stddev", "median", "min", "max"] {
        assert_eq!(wall[key], ls[key], "{key}");
    }
    // User time: 840 889 916 837 827 µs; median 840, mean 861.8.
    let user = &ls["summary"]["time_user"];
    assert_eq!(user["median"].as_f64(), Some(0.00084));
    assert!((user["mean"].as_f64().unwrap() - 0.0008618).abs() < 1e-15);
    assert_eq!(doc["primary_metric"], "time_cpu");
}

#[test]
fn json_hyperfine_values_are_wall_time_in_seconds() {
    let doc = json(&render_file("tests/data/c_tool/raw1.csv", Format::Json));
    let ls = &doc["results"][0];
    assert_eq!(ls["command"], "ls -l");
    let times: Vec<f64> = ls["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert_eq!(times, [0.031831, 0.025618, 0.02629, 0.024949, 0.025345]);
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 1e-12;
    assert!(close(&ls["min"], 0.024949));
    assert!(close(&ls["max"], 0.031831));
    assert!(close(&ls["median"], 0.025618));
    assert!(close(&ls["mean"], times.iter().sum::<f64>() / 5.0));
    // Hyperfine's user and system are means.
    assert!(close(
        &ls["user"],
        (840 + 889 + 916 + 837 + 827) as f64 / 5e6
    ));
    assert!(close(
        &ls["system"],
        (2386 + 4244 + 4434 + 4095 + 3840) as f64 / 5e6
    ));
    assert_eq!(ls["memory_usage_byte"][0], 1_884_160);
    assert_eq!(ls["exit_codes"], serde_json::json!([0, 0, 0, 0, 0]));
}

#[test]
fn a_run_ended_by_a_signal_has_a_null_hyperfine_exit_code() {
    let records = (0..3).map(|i| {
        RunRecord {
            command: "sleep 9".into(),
            batch: 1,
            exit_code: if i == 1 { 137 } else { 0 },
            signal: (i == 1).then_some(9),
            ..zeros()
        }
        .with(Metric::USER, 100 + i)
    });
    let doc = json(&render(&Dataset::from_records(records), Format::Json));
    let r = &doc["results"][0];
    assert_eq!(r["exit_codes"], serde_json::json!([0, null, 0]));
    assert_eq!(
        r["bestguess"]["per_run"]["exit_code"],
        serde_json::json!([0, 137, 0])
    );
    assert_eq!(
        r["bestguess"]["per_run"]["signal"],
        serde_json::json!([null, 9, null])
    );
    assert_eq!(r["bestguess"]["failed"], 1);
}

#[test]
fn an_empty_dataset_exports_headers_only() {
    let dataset = Dataset::default();
    assert_eq!(csv_rows(&render(&dataset, Format::SummaryCsv)).len(), 1);
    assert_eq!(csv_rows(&render(&dataset, Format::HyperfineCsv)).len(), 1);
    let doc = json(&render(&dataset, Format::Json));
    assert_eq!(doc["results"], serde_json::json!([]));
    assert!(render(&dataset, Format::Markdown).contains("No commands."));
}

/// Text that exercises every character CSV, JSON and Markdown treat
/// specially, or anything at all.
fn awkward_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        "[a-z ,\"\n\r|`\\\\\té🚀]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

/// Unescaped pipes: GitHub's table scanner takes a `|` right after a
/// backslash into the cell, whatever precedes the backslash.
fn cell_separators(line: &str) -> usize {
    line.match_indices('|')
        .filter(|(i, _)| *i == 0 || line.as_bytes()[i - 1] != b'\\')
        .count()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_keeps_every_format_well_formed(
        texts in proptest::collection::vec((awkward_text(), awkward_text(), awkward_text()), 1..4),
        runs in 1i64..7,
    ) {
        let mut records = Vec::new();
        for (k, (command, shell, name)) in texts.iter().enumerate() {
            for run in 0..runs {
                records.push(
                    RunRecord {
                        command: command.clone(),
                        shell: shell.clone(),
                        name: name.clone(),
                        batch: k as u64 + 1,
                        ..zeros()
                    }
                    .with(Metric::USER, 1000 * (k as i64 + 1) + 13 * run)
                    .with(Metric::WALL, 2000 + run),
                );
            }
        }
        let dataset = Dataset::from_records(records);
        let n = dataset.commands.len();

        let rows = csv_rows(&render(&dataset, Format::SummaryCsv));
        proptest::prop_assert_eq!(rows.len(), n + 1);
        for (row, c) in rows.iter().skip(1).zip(&dataset.commands) {
            proptest::prop_assert_eq!(row.len(), 70);
            proptest::prop_assert_eq!((&row[0], &row[1], &row[68]), (&*c.command, &*c.shell, &*c.name));
        }

        let rows = csv_rows(&render(&dataset, Format::HyperfineCsv));
        proptest::prop_assert_eq!(rows.len(), n + 1);
        for row in &rows {
            proptest::prop_assert_eq!(row.len(), 8);
        }

        let doc = json(&render(&dataset, Format::Json));
        for (r, c) in doc["results"].as_array().unwrap().iter().zip(&dataset.commands) {
            proptest::prop_assert_eq!(&r["command"], &Value::from(c.command.as_str()));
            proptest::prop_assert_eq!(&r["bestguess"]["name"], &Value::from(c.name.as_str()));
        }

        let markdown = render(&dataset, Format::Markdown);
        let table: Vec<&str> = markdown.split('\n').take_while(|l| l.starts_with('|')).collect();
        proptest::prop_assert_eq!(table.len(), n + 2, "{}", markdown);
        for line in table {
            proptest::prop_assert_eq!(cell_separators(line), 6, "{}", line);
        }

        let org = render(&dataset, Format::OrgMode);
        let table: Vec<&str> = org.split('\n').take_while(|l| l.starts_with('|')).collect();
        proptest::prop_assert_eq!(table.len(), n + 2, "{}", org);
        for line in table.iter().filter(|l| !l.starts_with("|---")) {
            proptest::prop_assert_eq!(line.matches('|').count(), 6, "{}", line);
        }

        let adoc = render(&dataset, Format::AsciiDoc);
        let cells = asciidoc_cells(&adoc);
        proptest::prop_assert_eq!(cells, (n + 1) * 5, "{}", adoc);
    }
}

/// The number of cells in the first AsciiDoc table, each on its own line
/// starting with `| ` and holding no other unescaped `|`.
fn asciidoc_cells(adoc: &str) -> usize {
    let body: Vec<&str> = adoc
        .split('\n')
        .skip_while(|l| *l != "|===")
        .skip(1)
        .take_while(|l| *l != "|===")
        .filter(|l| !l.is_empty())
        .collect();
    for line in &body {
        assert!(line.starts_with("| "), "{line}");
        assert_eq!(cell_separators(line), 1, "{line}");
    }
    body.len()
}

//! `--json-runs LIST`: which per-run layouts `--export-json` writes, what a
//! document without some of them holds, reading it back, and the refusals.

use std::fs;
use std::path::Path;

use serde_json::Value;

mod support;

use support::{bestguess, bestreport, report, scripted, stderr_of};

/// Three commands, 100 runs each, from C BestGuess's test data.
const RAW: &str = "tests/data/c_tool/rawps1.csv";

/// Per-result keys of each layout.
const HYPERFINE1: [&str; 3] = ["times", "memory_usage_byte", "exit_codes"];
const HYPERFINE2: [&str; 1] = ["measurements"];

/// `bestreport -Q --export-json OUT [--json-runs LIST] input`, parsed.
fn export(dir: &Path, input: &str, list: Option<&str>) -> (Value, String) {
    let out = dir.join(format!("{}.json", list.unwrap_or("default")));
    let mut cmd = bestreport();
    cmd.arg("-Q").arg("--export-json").arg(&out);
    if let Some(list) = list {
        cmd.args(["--json-runs", list]);
    }
    cmd.arg(input).assert().success();
    let text = fs::read_to_string(&out).unwrap();
    (serde_json::from_str(&text).expect("valid JSON"), text)
}

/// The standard error of a finished command, as text.
fn has(v: &Value, key: &str) -> bool {
    v.get(key).is_some()
}

#[test]
fn each_layout_writes_its_keys_and_only_those() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, bool, bool, bool); 7] = [
        ("all", true, true, true),
        ("none", false, false, false),
        ("hyperfine2", true, false, false),
        ("hyperfine1", false, true, false),
        ("bestguess", false, false, true),
        ("bestguess,hyperfine1", false, true, true),
        ("hyperfine1, hyperfine2", true, true, false),
    ];
    for (list, hf2, hf1, own) in cases {
        let (doc, _) = export(dir.path(), RAW, Some(list));
        let results = doc["results"].as_array().unwrap();
        assert_eq!(results.len(), 3, "{list}");
        for r in results {
            for key in HYPERFINE2 {
                assert_eq!(has(r, key), hf2, "{list}: {key}");
            }
            for key in HYPERFINE1 {
                assert_eq!(has(r, key), hf1, "{list}: {key}");
            }
            assert_eq!(has(&r["bestguess"], "per_run"), own, "{list}: per_run");
            // The summaries are there whatever the list says.
            for key in [
                "command", "mean", "stddev", "median", "min", "max", "summary",
            ] {
                assert!(has(r, key), "{list}: {key}");
            }
            assert!(r["summary"]["time_cpu"]["count"].as_u64() == Some(100));
            for key in [
                "runs",
                "failed",
                "verdict",
                "total_us",
                "skew",
                "ad_p_value",
            ] {
                assert!(has(&r["bestguess"], key), "{list}: bestguess.{key}");
            }
        }
        for key in ["schema_version", "metadata", "primary_metric", "bestguess"] {
            assert!(has(&doc, key), "{list}: {key}");
        }
        assert!(doc["bestguess"]["ranking"].is_array());
        // What the document carries is recorded when something is left out.
        let recorded = &doc["bestguess"]["json_runs"];
        if list == "all" {
            assert!(recorded.is_null(), "{recorded}");
        } else {
            let expected: Vec<&str> =
                [(hf2, "hyperfine2"), (hf1, "hyperfine1"), (own, "bestguess")]
                    .into_iter()
                    .filter_map(|(on, w)| on.then_some(w))
                    .collect();
            assert_eq!(recorded, &serde_json::json!(expected), "{list}");
        }
    }
}

/// The document's text without its `metadata.command_line` (which says
/// how each was asked for).
fn without_command_line(text: &str) -> String {
    let start = text.find("\"command_line\": [").unwrap();
    let end = start + text[start..].find(']').unwrap();
    format!("{}{}", &text[..start], &text[end..])
}

#[test]
fn all_is_the_document_without_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let (_, default) = export(dir.path(), RAW, None);
    let (_, all) = export(dir.path(), RAW, Some("all"));
    let (_, three) = export(dir.path(), RAW, Some("bestguess,hyperfine1,hyperfine2"));
    assert_eq!(without_command_line(&default), without_command_line(&all));
    assert_eq!(without_command_line(&default), without_command_line(&three));
    assert!(!default.contains("json_runs"));
}

#[test]
fn summaries_do_not_depend_on_the_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let (full, _) = export(dir.path(), RAW, None);
    let (none, _) = export(dir.path(), RAW, Some("none"));
    let strip = |mut doc: Value| {
        doc["metadata"]["command_line"] = Value::Null;
        if let Some(top) = doc["bestguess"].as_object_mut() {
            top.remove("json_runs");
        }
        for r in doc["results"].as_array_mut().unwrap() {
            let r = r.as_object_mut().unwrap();
            for key in HYPERFINE1.iter().chain(&HYPERFINE2) {
                r.remove(*key);
            }
            r["bestguess"].as_object_mut().unwrap().remove("per_run");
        }
        doc
    };
    assert_eq!(strip(full), strip(none));
}

/// A fresh experiment with what per_run carries beyond Hyperfine's
/// layouts: interleaved rounds (paired analysis), start times, a failed
/// run, a run ended by a signal, runs that timed out.
fn experiment(dir: &Path) -> String {
    let raw = dir.join("raw.csv");
    bestguess()
        .args(["-Q", "-i", "-r", "6", "--order", "interleave", "-o"])
        .arg(&raw)
        .args(["--timeout", "0.1", "true", "false", "sleep 5"])
        .args(["-s", "/bin/sh -c", "kill -KILL $$"])
        .assert()
        .success();
    raw.to_str().unwrap().to_string()
}

/// `bestreport ARGS`: standard output and error.
#[test]
fn bestguess_layout_reads_back_the_same_runs() {
    let dir = tempfile::tempdir().unwrap();
    for raw in [RAW.to_string(), experiment(dir.path())] {
        let json = dir.path().join("runs.json");
        let json = json.to_str().unwrap();
        bestreport()
            .args([
                "-Q",
                "--json-runs",
                "bestguess",
                "--export-json",
                json,
                &raw,
            ])
            .assert()
            .success();
        // The same report, the explanation of the ranking included.
        assert_eq!(report(&["-E", &raw]), report(&["-E", json]), "{raw}");
        // And the same runs, exported again from each.
        let (from_csv, _) = export(dir.path(), &raw, Some("bestguess"));
        let (from_json, _) = export(dir.path(), json, Some("bestguess"));
        for (a, b) in from_csv["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(from_json["results"].as_array().unwrap())
        {
            assert_eq!(
                a["bestguess"]["per_run"], b["bestguess"]["per_run"],
                "{raw}"
            );
        }
        assert_eq!(
            from_csv["bestguess"]["analysis"],
            from_json["bestguess"]["analysis"]
        );
        // Which runs timed out: only where some did, and kept.
        let timed_out: Vec<&Value> = (from_json["results"].as_array().unwrap())
            .iter()
            .map(|r| &r["bestguess"]["per_run"]["timed_out"])
            .collect();
        if raw != RAW {
            let all = Value::from(vec![true; 6]);
            assert_eq!(timed_out, [&Value::Null, &Value::Null, &all, &Value::Null]);
        } else {
            assert!(timed_out.iter().all(|t| t.is_null()));
        }
    }
}

#[test]
fn a_document_without_per_run_reads_as_its_hyperfine_layout() {
    let dir = tempfile::tempdir().unwrap();
    let raw = experiment(dir.path());
    let (csv_doc, _) = export(dir.path(), &raw, Some("bestguess"));
    for (list, format) in [
        ("hyperfine2", "hyperfine-2-json"),
        ("hyperfine1", "hyperfine-1-json"),
        ("hyperfine1,hyperfine2", "hyperfine-2-json"),
    ] {
        let json = dir.path().join(format!("{list}.json"));
        let json = json.to_str().unwrap();
        bestreport()
            .args(["-Q", "--json-runs", list, "--export-json", json, &raw])
            .assert()
            .success();
        let (back, _) = export(dir.path(), json, Some("bestguess"));
        assert_eq!(back["metadata"]["sources"][0]["format"], format, "{list}");
        for (a, b) in csv_doc["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(back["results"].as_array().unwrap())
        {
            let (a, b) = (&a["bestguess"]["per_run"], &b["bestguess"]["per_run"]);
            // Every run, with its wall-clock time and memory to the µs and
            // byte; a signal is known only as a failure by a signal not
            // named: no exit code (none made up), `signal_unknown`.
            assert_eq!(a["wall_us"], b["wall_us"], "{list}");
            assert_eq!(a["maxrss_bytes"], b["maxrss_bytes"], "{list}");
            let code = |v: &Value, s: &Value| if s.is_null() { v.clone() } else { Value::Null };
            let codes: Vec<Value> = (0..6)
                .map(|k| code(&a["exit_code"][k], &a["signal"][k]))
                .collect();
            assert_eq!(b["exit_code"], Value::from(codes), "{list}");
            let signalled: Vec<Value> =
                (0..6).map(|k| (!a["signal"][k].is_null()).into()).collect();
            if signalled.contains(&Value::Bool(true)) {
                assert_eq!(b["signal_unknown"], Value::from(signalled), "{list}");
            } else {
                assert!(b.get("signal_unknown").is_none(), "{list}");
            }
        }
    }
}

#[test]
fn summaries_only_is_refused_on_reading_with_what_to_export() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("none.json");
    bestreport()
        .args(["-Q", "--json-runs", "none", "--export-json"])
        .arg(&json)
        .arg(RAW)
        .assert()
        .success();
    let err = stderr_of(&bestreport().arg(&json).assert().code(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("none.json"), "{err}");
    assert!(err.contains("summaries only"), "{err}");
    assert!(err.contains("--json-runs bestguess (or all)"), "{err}");
    // Hyperfine's own file without per-run data keeps its message.
    let hf = dir.path().join("hf.json");
    fs::write(&hf, r#"{"results": [{"command": "x", "mean": 1.0}]}"#).unwrap();
    let err = stderr_of(&bestreport().arg(&hf).assert().code(2));
    assert!(
        err.contains("neither \"measurements\" nor \"times\""),
        "{err}"
    );
}

#[test]
fn mistakes_in_the_list_are_usage_errors_naming_what_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let out = out.to_str().unwrap();
    let accepted =
        "give all, none, or a comma-separated list of hyperfine2, hyperfine1 and bestguess";
    let cases: [(&str, &str); 6] = [
        ("hyperfine3", "--json-runs: unknown layout 'hyperfine3'; "),
        ("", "--json-runs '': empty name; "),
        ("bestguess,", "--json-runs 'bestguess,': empty name; "),
        ("all,bestguess", "'all' stands alone, not in a list; "),
        ("hyperfine1,none", "'none' stands alone, not in a list; "),
        (
            "bestguess,hyperfine1,bestguess",
            "--json-runs: 'bestguess' is given twice",
        ),
    ];
    for (list, message) in cases {
        for (program, input) in [(bestreport(), RAW), (bestguess(), "true")] {
            let mut program = program;
            let err = stderr_of(
                &program
                    .args(["--json-runs", list, "--export-json", out, input])
                    .assert()
                    .code(1),
            );
            assert!(err.contains(message), "{list}: {err}");
            if !message.contains("twice") {
                assert!(err.contains(accepted), "{list}: {err}");
            }
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
    assert!(
        !Path::new(out).exists(),
        "nothing is written on a usage error"
    );
}

#[test]
fn the_option_without_a_json_export_is_refused() {
    for (program, input) in [(bestreport(), RAW), (bestguess(), "true")] {
        let mut program = program;
        let err = stderr_of(
            &program
                .args(["--json-runs", "bestguess", "--export-csv", "-", input])
                .assert()
                .code(1),
        );
        assert!(
            err.contains("--json-runs says which per-run data --export-json writes; give --export-json FILE too"),
            "{err}"
        );
    }
}

#[test]
fn bestguess_writes_the_layouts_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("run.json");
    bestguess()
        .args([
            "-Q",
            "-r",
            "3",
            "--json-runs",
            "hyperfine1",
            "--export-json",
        ])
        .arg(&json)
        .arg("true")
        .assert()
        .success();
    let doc: Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    let r = &doc["results"][0];
    assert_eq!(r["times"].as_array().unwrap().len(), 3);
    assert!(!has(r, "measurements") && !has(&r["bestguess"], "per_run"));
    assert_eq!(
        doc["bestguess"]["json_runs"],
        serde_json::json!(["hyperfine1"])
    );
}

/// A parameter scan's `parameters`: Hyperfine 2.0's shape (`{"n":
/// {"value": "1"}}`, which 2.0's `plot_parametrized.py` reads) unless the
/// document is for Hyperfine 1.x's readers alone (`--json-runs
/// hyperfine1`: `{"n": "1"}`, which 1.20's reads); `bestguess.parameters`
/// always 1.x's. Re-exported from Hyperfine 1.20's own scan (made by
/// tools/make_format_fixtures.py) and measured by bestguess.
#[test]
fn a_parameter_scan_serves_the_generation_it_is_exported_for() {
    let dir = tempfile::tempdir().unwrap();
    let scan = "tests/data/formats/hyperfine-1.20-scan.json";
    let measured = dir.path().join("scan.csv");
    scripted("* => wall=2ms")
        .args(["-Q", "-r", "3", "-P", "n", "1", "3", "-o"])
        .arg(&measured)
        .arg("sleep 0.00{n}")
        .assert()
        .success();
    for input in [scan, measured.to_str().unwrap()] {
        for (list, bare) in [
            (None, false),
            (Some("hyperfine2"), false),
            (Some("hyperfine1,hyperfine2"), false),
            (Some("hyperfine1"), true),
            (Some("hyperfine1,bestguess"), true),
        ] {
            let (doc, _) = export(dir.path(), input, list);
            for (k, r) in doc["results"].as_array().unwrap().iter().enumerate() {
                let n = (k + 1).to_string();
                let want = if bare {
                    serde_json::json!({ "n": n })
                } else {
                    serde_json::json!({ "n": { "value": n } })
                };
                assert_eq!(r["parameters"], want, "{input} {list:?}");
                assert_eq!(r["bestguess"]["parameters"], serde_json::json!({ "n": n }));
            }
        }
    }
}

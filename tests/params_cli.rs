//! Parameter scans and lists (`-P`, `--parameter-step-size`, `-L`) through
//! the real programs: what runs (each run appends to a log, independently
//! of the tool), in which order, under which name, with which hooks, and
//! what is recorded in the raw CSV, read back by `bestreport` and exported.

use std::fs;
use std::path::Path;

mod support;

use support::{bestguess, rows};

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A command that appends `words` to `log` (no shell syntax outside quotes).
fn logs(log: &Path, words: &str) -> String {
    format!("sh -c 'echo {words} >> {}'", log.display())
}

#[test]
fn a_scan_runs_each_value_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let (log, raw) = (dir.path().join("log"), dir.path().join("raw.csv"));
    bestguess()
        .args([
            "-w",
            "0",
            "-Q",
            "-r",
            "2",
            "--order",
            "sequential",
            "-P",
            "n",
            "1",
            "3",
        ])
        .arg(logs(&log, "run {n}"))
        .arg("-o")
        .arg(&raw)
        .assert()
        .success();
    assert_eq!(
        lines(&log),
        // Mirrored blocks: each value's first run, then back.
        ["run 1", "run 2", "run 3", "run 3", "run 2", "run 1"]
    );
    let header = lines(&raw)[0].clone();
    assert!(
        header.ends_with(",Timed out,Run-queue delay (us),Parameter n"),
        "{header}"
    );
    let recorded: Vec<(u64, Vec<(String, String)>)> = rows(&raw)
        .into_iter()
        .map(|r| (r.batch, r.parameters))
        .collect();
    let p = |v: &str| vec![("n".to_string(), v.to_string())];
    assert_eq!(
        recorded,
        [
            (1, p("1")),
            (2, p("2")),
            (3, p("3")),
            (3, p("3")),
            (2, p("2")),
            (1, p("1"))
        ]
    );
}

#[test]
fn a_step_size_gives_exact_decimal_values() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    bestguess()
        .args([
            "-w",
            "0",
            "-Q",
            "-r",
            "1",
            "--order",
            "sequential",
            "-P",
            "d",
            "0.3",
            "0.7",
        ])
        .args(["-w", "0", "--parameter-step-size", "0.2"])
        .arg(logs(&log, "{d}"))
        .assert()
        .success();
    assert_eq!(lines(&log), ["0.3", "0.5", "0.7"]);
}

#[test]
fn lists_give_the_cross_product_in_hyperfines_order() {
    let dir = tempfile::tempdir().unwrap();
    let (log, raw) = (dir.path().join("log"), dir.path().join("raw.csv"));
    bestguess()
        .args([
            "-w",
            "0",
            "-Q",
            "-r",
            "1",
            "--order",
            "sequential",
            "-L",
            "cc",
            "gcc,clang",
        ])
        .args(["-w", "0", "-L", "opt", "-O0,-O2"])
        .arg(logs(&log, "{cc} {opt}"))
        .arg("-o")
        .arg(&raw)
        .assert()
        .success();
    assert_eq!(
        lines(&log),
        ["gcc -O0", "clang -O0", "gcc -O2", "clang -O2"]
    );
    let header = lines(&raw)[0].clone();
    assert!(header.ends_with(",Parameter cc,Parameter opt"), "{header}");
    let last = &rows(&raw)[3];
    assert_eq!(
        last.parameters,
        [
            ("cc".to_string(), "clang".to_string()),
            ("opt".to_string(), "-O2".to_string())
        ]
    );
}

#[test]
fn names_and_every_hook_are_substituted() {
    let dir = tempfile::tempdir().unwrap();
    let (log, raw) = (dir.path().join("log"), dir.path().join("raw.csv"));
    bestguess()
        .args([
            "-w",
            "0",
            "-Q",
            "-r",
            "1",
            "--order",
            "sequential",
            "-L",
            "v",
            "a,b",
        ])
        .arg("--setup")
        .arg(logs(&log, "setup {v}"))
        .arg("--prepare")
        .arg(logs(&log, "prepare {v}"))
        .arg("--conclude")
        .arg(logs(&log, "conclude {v}"))
        .arg("--cleanup")
        .arg(logs(&log, "cleanup {v}"))
        .arg(logs(&log, "run {v}"))
        .args(["-w", "0", "-n", "job {v}", "-o"])
        .arg(&raw)
        .assert()
        .success();
    assert_eq!(
        lines(&log),
        [
            "setup a",
            "prepare a",
            "run a",
            "conclude a",
            "cleanup a",
            "setup b",
            "prepare b",
            "run b",
            "conclude b",
            "cleanup b"
        ]
    );
    let names: Vec<String> = rows(&raw).into_iter().map(|r| r.name).collect();
    assert_eq!(names, ["job a", "job b"]);
}

#[test]
fn bestreport_reads_the_values_back_shows_and_exports_them() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    // The parameter appears only in the name: the commands are the same
    // text, told apart by their values (and their batch).
    bestguess()
        .args([
            "-Q",
            "-r",
            "1",
            "--order",
            "sequential",
            "-L",
            "mode",
            "x,\"y\"",
        ])
        .args(["true", "-n", "mode {mode}", "-o"])
        .arg(&raw)
        .assert()
        .success();
    let out = assert_cmd::Command::cargo_bin("bestreport")
        .unwrap()
        .args(["-M", "--export-json", "-"])
        .arg(&raw)
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = json["results"].as_array().unwrap();
    // Hyperfine 2.0's shape, and 1.x's under `bestguess`.
    let params: Vec<&serde_json::Value> = results.iter().map(|r| &r["parameters"]).collect();
    assert_eq!(
        params,
        [
            &serde_json::json!({"mode": {"value": "x"}}),
            &serde_json::json!({"mode": {"value": "\"y\""}})
        ]
    );
    let plain: Vec<&serde_json::Value> = results
        .iter()
        .map(|r| &r["bestguess"]["parameters"])
        .collect();
    assert_eq!(
        plain,
        [
            &serde_json::json!({"mode": "x"}),
            &serde_json::json!({"mode": "\"y\""})
        ]
    );
    // With -o-style export on stdout, the reports go to stderr.
    let report = String::from_utf8(out.stderr).unwrap();
    assert!(
        report.contains("Command 1: mode x\n  Parameters: mode = x\n"),
        "{report}"
    );
    assert!(
        report.contains("Command 2: mode \"y\"\n  Parameters: mode = \"y\"\n"),
        "{report}"
    );
}

#[test]
fn without_parameters_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args(["-Q", "-r", "1", "true", "-o"])
        .arg(&raw)
        .assert()
        .success();
    assert!(lines(&raw)[0].ends_with(",Timed out,Run-queue delay (us)"));
    assert!(rows(&raw)[0].parameters.is_empty());
    let out = assert_cmd::Command::cargo_bin("bestreport")
        .unwrap()
        .args(["-Q", "--export-json", "-"])
        .arg(&raw)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(json["results"][0].get("parameters").is_none());
    assert!(json["results"][0]["bestguess"].get("parameters").is_none());
}

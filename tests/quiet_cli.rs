//! `-Q`: nothing but errors on standard error; the notes and warnings it
//! kept off are in the JSON export's `metadata.messages`.

use std::fs;

mod support;

use support::{run, run_scripted};

fn messages(path: &std::path::Path) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    // Present only when -Q held something.
    let Some(held) = doc["metadata"]["messages"].as_array() else {
        return Vec::new();
    };
    held.iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_clean_quiet_run_prints_nothing_on_standard_error() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let (status, _, stderr) = run(
        "bestguess",
        &["-Q", "-r", "5", "-o", raw.to_str().unwrap(), "true", "echo"],
    );
    assert_eq!(status, 0);
    assert_eq!(stderr, "");
    // Without -o either (the reminder to give one is not an error).
    let (status, _, stderr) = run("bestguess", &["-Q", "-r", "5", "true", "echo"]);
    assert_eq!((status, stderr.as_str()), (0, ""));
}

#[test]
fn what_quiet_kept_off_standard_error_is_in_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    // Two commands in random order (the seed line), one of them waiting
    // while CPU time is ranked (a note: most of its wall time off the CPU),
    // scripted.
    let script = "true => wall=1ms user=0.4ms system=0.5ms\n\
                  sleep 0.01 => wall=10ms user=0.4ms system=0.5ms";
    let args = [
        "-r",
        "5",
        "--metric",
        "cpu",
        "--export-json",
        json.to_str().unwrap(),
        "true",
        "sleep 0.01",
    ];
    let (status, _, loud) = run_scripted(script, &args);
    assert_eq!(status, 0);
    assert!(loud.contains("seed"), "{loud}");
    assert!(messages(&json).is_empty(), "nothing was held");
    let quiet_args: Vec<&str> = std::iter::once("-Q").chain(args).collect();
    let (status, _, stderr) = run_scripted(script, &quiet_args);
    assert_eq!((status, stderr.as_str()), (0, ""));
    let held = messages(&json);
    assert!(
        held.iter()
            .any(|m| m.starts_with("Random order, seed ") && m.contains("--seed")),
        "{held:?}"
    );
    assert!(
        held.iter()
            .any(|m| m.starts_with("Note: command 2 (sleep 0.01) mostly waits")),
        "{held:?}"
    );
    // One message a line, its wrapped lines joined.
    assert!(held.iter().all(|m| !m.contains('\n')), "{held:?}");
}

#[test]
fn quiet_still_prints_errors() {
    let (status, _, stderr) = run("bestreport", &["-Q", "no-such-file.csv"]);
    assert_eq!(status, 2);
    assert!(stderr.starts_with("bestreport: error: "), "{stderr}");
    let (status, _, stderr) = run(
        "bestguess",
        &["-Q", "-r", "2", "--metric", "nonesuch", "true"],
    );
    assert_eq!(status, 1);
    assert!(stderr.contains("error: --metric nonesuch"), "{stderr}");
}

/// The metric a file forces (no CPU time per run) is said in the report
/// and recorded in the JSON, with or without -Q.
#[test]
fn quiet_bestreport_records_why_the_metric_was_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let (status, _, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--export-json",
            json.to_str().unwrap(),
            "tests/data/formats/hyperfine-1.20-export.json",
        ],
    );
    assert_eq!((status, stderr.as_str()), (0, ""));
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    let choice = &doc["bestguess"]["metric_choice"];
    assert_eq!(choice["reason"], "no_cpu", "{choice}");
    assert!(
        choice["text"]
            .as_str()
            .unwrap()
            .contains("(Hyperfine 1.x's JSON keeps only its mean)"),
        "{choice}"
    );
}

//! The test switch `BESTGUESS_SCRIPTED` (ARCHITECTURE.md, "Testing"): the
//! real `bestguess` on the scripted executor runs nothing and records
//! exactly what the script says, on a clock that the script alone moves;
//! the switch is hidden from the help, the man page and the completions,
//! says so when it is on, and refuses a script it cannot read.

mod support;

use bestguess::data::Metric;
use serde_json::Value;
use support::{bestguess, rows, run_scripted, scripted, tmp};

#[test]
fn runs_record_the_scripted_values_in_order() {
    let dir = tmp();
    let raw = dir.path().join("raw.csv");
    let script = "sleep 0.1 => wall=100ms,150ms user=1ms system=2ms maxrss=3MiB vcsw=4 icsw=5 \
                  exit=0,0,0,2";
    let out = scripted(script)
        .args(["-Q", "-i", "-w", "1", "-r", "3", "-o"])
        .arg(&raw)
        .arg("sleep 0.1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs = rows(&raw);
    let int = |i: usize, m: Metric| runs[i].metrics.int(m).unwrap();
    // The warmup took the first values: the runs go on from the second.
    let walls: Vec<i64> = (0..3).map(|i| int(i, Metric::WALL)).collect();
    assert_eq!(walls, [150_000, 100_000, 150_000]);
    let codes: Vec<i32> = runs.iter().map(|r| r.exit_code).collect();
    assert_eq!(codes, [0, 0, 2]);
    assert_eq!(
        [Metric::USER, Metric::SYSTEM, Metric::TOTAL].map(|m| int(0, m)),
        [1000, 2000, 3000]
    );
    assert_eq!(int(0, Metric::MAXRSS), 3 * 1024 * 1024);
    assert_eq!(int(0, Metric::TOTAL_CSW), 9);
    assert_eq!(int(0, Metric::MINOR_FAULTS), 0, "not given: 0");
    // Each run starts when the one before it ended, on the scripted clock.
    let starts: Vec<i64> = runs.iter().map(|r| r.start_unix_us.unwrap()).collect();
    let gaps: Vec<i64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, [150_000, 100_000]);
}

#[test]
fn the_experiment_takes_the_scripted_time_and_runs_nothing() {
    // 3 warmups and 10 runs of 2 s each: 26 s on the scripted clock; the
    // command, had it run, would have left a file.
    let dir = tmp();
    let trace = dir.path().join("ran");
    let command = format!("touch {}", trace.display());
    let (status, stdout, stderr) = run_scripted(
        "* => wall=2s",
        &["-Q", "-w", "3", "-r", "10", "--export-json", "-", &command],
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(!trace.exists(), "the command ran");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let time = |key: &str| doc["metadata"][key].as_str().unwrap().to_owned();
    let (start, end) = (time("start_time"), time("end_time"));
    // RFC 3339 with microseconds: the seconds differ by 26.
    let secs = |t: &str| {
        let hms = &t[11..19];
        let p: Vec<i64> = hms.split(':').map(|x| x.parse().unwrap()).collect();
        p[0] * 3600 + p[1] * 60 + p[2]
    };
    assert_eq!(
        (secs(&end) - secs(&start)).rem_euclid(86_400),
        26,
        "{start} {end}"
    );
}

#[test]
fn the_switch_says_it_is_on_and_refuses_what_it_cannot_script() {
    let (status, _, stderr) = run_scripted("* => wall=1ms", &["-r", "2", "true"]);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.contains("BESTGUESS_SCRIPTED is set: no command runs"),
        "{stderr}"
    );
    for (args, message) in [
        (
            vec!["-r", "2", "--counters", "task-clock", "true"],
            "BESTGUESS_SCRIPTED runs nothing: --counters",
        ),
        (
            vec!["-r", "2", "ls"],
            "cannot start 'ls': no line of BESTGUESS_SCRIPTED names it",
        ),
    ] {
        let (status, _, stderr) = run_scripted("true => wall=1ms", &args);
        assert_ne!(status, 0, "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let (status, _, stderr) = run_scripted("true => wall=1", &["-r", "2", "true"]);
    assert_eq!(status, 1, "a script that does not read is a usage error");
    assert_eq!(
        stderr.trim_end(),
        "bestguess: error: BESTGUESS_SCRIPTED: line 1: wall=1: a time takes a unit: s, ms or us"
    );
}

#[test]
fn the_switch_is_hidden_from_help_man_page_and_completions() {
    let mut texts = Vec::new();
    for args in [
        vec!["--help"],
        vec!["-h"],
        vec!["--generate", "man"],
        vec!["--generate", "complete-bash"],
        vec!["--generate", "complete-zsh"],
        vec!["--generate", "complete-fish"],
    ] {
        let out = bestguess().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        texts.push(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    for text in texts {
        assert!(!text.to_lowercase().contains("scripted"), "{text}");
    }
}

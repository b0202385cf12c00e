//! The metric of interest through the real `bestguess`: commands that sleep
//! use almost no CPU time, so ranking them by CPU time (when asked for)
//! says little; the note says so and points to `--metric wall`.

mod support;

use support::run_scripted;

/// Two commands that sleep 0.1 and 0.2 s, with the little CPU time a
/// sleep takes, scripted (`BESTGUESS_SCRIPTED`): what is ranked and noted
/// does not depend on how busy the machine is.
const SLEEPS: &str = "\
    sleep 0.1 => wall=100ms,103ms,99ms user=0.3ms,0.32ms system=0.4ms,0.41ms,0.38ms\n\
    sleep 0.2 => wall=200ms,204ms,198ms,201ms user=0.31ms system=0.4ms,0.45ms";

#[test]
fn sleeping_commands_ranked_by_cpu_time_get_one_note() {
    let (status, stdout, stderr) = run_scripted(
        SLEEPS,
        &["-R", "--metric", "cpu", "-r", "5", "sleep 0.1", "sleep 0.2"],
    );
    assert_eq!(status, 0, "{stderr}");
    // Notes wrap at the report's width, continuing indented.
    let joined = stderr.replace("\n  ", " ");
    let notes: Vec<&str> = joined.lines().filter(|l| l.starts_with("Note:")).collect();
    assert_eq!(
        notes,
        [
            "Note: commands 1 and 2 mostly wait (over half their wall time waiting, not for a \
             CPU); ranked by Total CPU time: --metric wall ranks by elapsed time."
        ],
        "{stderr}"
    );
    assert!(!stdout.contains("Note:"), "notes go to stderr: {stdout}");
}

#[test]
fn sleeping_commands_ranked_by_wall_time_are_told_apart() {
    let (status, stdout, stderr) = run_scripted(
        SLEEPS,
        &[
            "-Q",
            "-R",
            "-r",
            "8",
            "--metric",
            "wall",
            "sleep 0.2",
            "sleep 0.1",
        ],
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(
        !stderr.contains("Note:"),
        "no note when wall time is ranked: {stderr}"
    );
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(": sleep 0."))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows[0].contains("2: sleep 0.1"),
        "the faster first: {stdout}"
    );
    assert!(rows[1].contains("1: sleep 0.2"), "{stdout}");
    assert!(rows[1].contains("slower"), "{stdout}");
    // The heading names the metric.
    assert!(stdout.contains(" Wall clock ═"), "{stdout}");
    assert!(!stdout.contains("Total time"), "{stdout}");
}

#[test]
fn every_report_follows_the_metric() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fixtures/steady.csv"
    );
    let out = assert_cmd::Command::cargo_bin("bestreport")
        .unwrap()
        .args(["-QDTGB", "--metric", "rss", file])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    for heading in [
        "Max RSS distribution",
        "Max RSS distribution tail",
        "0  Max RSS",
        "Box plot legend (Max RSS):",
    ] {
        assert!(stdout.contains(heading), "{heading} missing:\n{stdout}");
    }
    assert!(stdout.contains("MB"), "memory in its unit: {stdout}");
    assert!(!stdout.contains(" ms"), "no time unit for memory: {stdout}");
}

#[test]
fn an_unknown_metric_lists_the_known_ones() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fixtures/steady.csv"
    );
    let out = assert_cmd::Command::cargo_bin("bestreport")
        .unwrap()
        .args(["--metric", "cycles", file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--metric cycles: no such metric in the data; choose one of cpu, wall"),
        "{stderr}"
    );
}

#[test]
fn the_exports_headline_the_metric() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fixtures/steady.csv"
    );
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("bestreport")
            .unwrap()
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value =
        serde_json::from_str(&run(&["-Q", "--metric", "wall", "--export-json", "-"])).unwrap();
    assert_eq!(json["bestguess"]["ranked_metric"], "wall_us");
    let markdown = run(&["-Q", "--metric", "wall", "--export-markdown", "-"]);
    assert!(
        markdown.contains("| Wall clock, median [ms] |"),
        "{markdown}"
    );
    let default = run(&["-Q", "--export-markdown", "-"]);
    assert!(
        default.contains("| Total CPU time, median [ms] |"),
        "{default}"
    );
}

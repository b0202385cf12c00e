//! The regression gate through the real binaries: `bestreport --baseline`
//! against a synthetic file 10 % slower (the gate's exit status and the
//! table), against a file drawn from the same distribution (status 0), a
//! command present on one side only (listed), `bestguess --baseline` right
//! after measuring, and the usage errors.
//!
//! Fixtures: `tools/make_gate_fixtures.py`; `gate_ticks_baseline.csv` and
//! `gate_ticks_new.csv` (5 runs each on 10 ms ticks, written by hand).

mod support;

use support::{arg, fixture, run, run_scripted};

/// The table line of `label`.
fn row<'a>(stdout: &'a str, label: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{label} ")))
        .unwrap_or_else(|| panic!("no row for {label} in:\n{stdout}"))
}

#[test]
fn ten_percent_slower_fails_the_gate_with_status_3() {
    let base = arg(fixture("gate_baseline.csv"));
    let slower = arg(fixture("gate_slower.csv"));
    let (status, stdout, stderr) = run(
        "bestreport",
        &["-Q", "--baseline", &base, "--fail-if-slower", "5", &slower],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    assert!(stdout.contains("Against the baseline"), "{stdout}");
    // The heading wraps at the report's width, continuing indented.
    assert!(
        stdout.replace("\n  ", " ").contains("Total CPU time"),
        "the metric is named: {stdout}"
    );
    let parse = row(&stdout, "parse");
    assert!(parse.contains("slower ✗"), "{parse}");
    // The change is about +10 %, and its interval excludes +5 %.
    let change: Vec<f64> = parse
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .filter(|t| t.starts_with('+') || t.starts_with('-'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(change.len(), 3, "{parse}");
    assert!((8.0..12.5).contains(&change[0]), "{parse}");
    assert!(change[1] > 5.0 && change[2] > change[0], "{parse}");
    let render = row(&stdout, "render");
    assert!(
        render.ends_with("inconclusive") || render.ends_with("no change"),
        "{render}"
    );
    assert!(
        stdout.contains("Gate failed: 1 command is slower"),
        "{stdout}"
    );
    // Without a margin there is no gate, and the status is 0.
    let (status, stdout, _) = run("bestreport", &["-Q", "--baseline", &base, &slower]);
    assert_eq!(status, 0);
    assert!(row(&stdout, "parse").ends_with("slower"));
    // A margin beyond the interval holds.
    let (status, _, _) = run(
        "bestreport",
        &["-Q", "--baseline", &base, "--fail-if-slower", "20", &slower],
    );
    assert_eq!(status, 0);
}

#[test]
fn the_same_distribution_passes() {
    let (status, stdout, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline.csv")),
            "--fail-if-slower",
            "5",
            &arg(fixture("gate_same.csv")),
        ],
    );
    assert_eq!(status, 0, "{stdout}{stderr}");
    // At the default 1 % margin the intervals (±2–3 %) cannot show "no
    // change", and nothing is called slower.
    for label in ["parse", "render", "retired"] {
        assert!(row(&stdout, label).ends_with("inconclusive"), "{stdout}");
    }
    assert!(stdout.contains("Gate passed"), "{stdout}");
    // With a 10 % equivalence margin they are shown to be the same.
    let (status, stdout, _) = run(
        "bestreport",
        &[
            "-Q",
            "-c",
            "epsilon=10%",
            "--baseline",
            &arg(fixture("gate_baseline.csv")),
            &arg(fixture("gate_same.csv")),
        ],
    );
    assert_eq!(status, 0);
    for label in ["parse", "render", "retired"] {
        assert!(row(&stdout, label).ends_with("no change"), "{stdout}");
    }
}

#[test]
fn a_command_on_one_side_only_is_listed() {
    let (_, stdout, _) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline.csv")),
            &arg(fixture("gate_slower.csv")),
        ],
    );
    let fresh = row(&stdout, "fresh");
    assert!(
        fresh.contains('—') && fresh.ends_with("only in new"),
        "{fresh}"
    );
    let retired = row(&stdout, "retired");
    assert!(
        retired.contains('—') && retired.ends_with("only in baseline"),
        "{retired}"
    );
}

#[test]
fn bestguess_compares_right_after_measuring() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.csv");
    let base = base.to_str().unwrap();
    let (status, _, stderr) = run("bestguess", &["-Q", "-r", "7", "-o", base, "true"]);
    assert_eq!(status, 0, "{stderr}");
    let (status, stdout, stderr) = run(
        "bestguess",
        &[
            "-Q",
            "-r",
            "7",
            "--baseline",
            base,
            "--fail-if-slower",
            "10000",
            "true",
            "echo",
        ],
    );
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(row(&stdout, "true").contains('%'), "{stdout}");
    assert!(row(&stdout, "echo").ends_with("only in new"), "{stdout}");
}

#[test]
fn usage_errors_say_what_to_do() {
    let same = arg(fixture("gate_same.csv"));
    let (status, _, stderr) = run("bestreport", &["--fail-if-slower", "5", &same]);
    assert_eq!(status, 1);
    assert!(
        stderr.contains("--fail-if-slower needs --baseline"),
        "{stderr}"
    );
    let (status, _, stderr) = run(
        "bestreport",
        &["--baseline", &same, "--fail-if-slower", "-3", &same],
    );
    assert_eq!(status, 1);
    assert!(stderr.contains("percentage of 0 or more"), "{stderr}");
    let (status, _, stderr) = run("bestreport", &["--baseline", "/no/such.csv", &same]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--baseline"), "{stderr}");
}

#[test]
fn the_comparison_fits_the_report_width() {
    for width in ["60", "80", "100"] {
        let (_, stdout, _) = run(
            "bestreport",
            &[
                "-Q",
                "-c",
                &format!("width={width}"),
                "--baseline",
                &arg(fixture("gate_baseline.csv")),
                "--fail-if-slower",
                "5",
                &arg(fixture("gate_slower.csv")),
            ],
        );
        let w: usize = width.parse().unwrap();
        for line in stdout.lines() {
            assert!(
                line.chars().count() <= w,
                "wider than {w}: {line:?}\n{stdout}"
            );
        }
        assert!(stdout.contains("slower ✗"), "{stdout}");
        assert!(stdout.contains("only in baseline"), "{stdout}");
    }
}

#[test]
fn a_gate_decides_only_where_its_runs_reach_the_level() {
    // 5 runs of 10–20 ms against 5 of 30–40 ms: every new run is slower
    // than every old one, yet a median from 5 runs cannot be bounded at
    // α/4 a side below α = 0.128 (2⁻⁵ = 3.1 %): the pair is not compared,
    // which a gate does not pass; at alpha 0.2 it is, the change's lower
    // bound is +50 %, and the gate fails on it.
    let base = arg(fixture("gate_ticks_baseline.csv"));
    let new = arg(fixture("gate_ticks_new.csv"));
    let gate = |alpha: &str| {
        run(
            "bestreport",
            &[
                "-Q",
                "-c",
                alpha,
                "--baseline",
                &base,
                "--fail-if-slower",
                "5",
                &new,
            ],
        )
    };
    for (alpha, needed) in [("alpha=0.001", 12), ("alpha=0.05", 7), ("alpha=0.1", 6)] {
        let (status, stdout, stderr) = gate(alpha);
        assert_eq!(status, 3, "{stdout}{stderr}");
        assert!(row(&stdout, "job").ends_with("not compared"), "{stdout}");
        let text = stdout.replace("\n  ", " ");
        assert!(
            text.contains(&format!("(fewer than {needed} runs on a side)")),
            "{stdout}"
        );
    }
    let (status, stdout, stderr) = gate("alpha=0.2");
    assert_eq!(status, 3, "{stdout}{stderr}");
    assert!(stdout.contains("intervals 80% simultaneous"), "{stdout}");
    assert!(row(&stdout, "job").contains("slower ✗"), "{stdout}");
}

/// A raw file of command `a` with these total CPU times (μs).
fn raw_file(dir: &std::path::Path, name: &str, totals: &[u64]) -> String {
    let mut text = String::from(
        "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),\
         Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,\
         Wall clock (us),Total time (us),Total Context Switches\n",
    );
    for t in totals {
        text.push_str(&format!("a,,,1,0,{t},0,0,0,0,0,0,{},{t},0\n", t + 100));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_baseline_median_of_zero_still_fails_a_slower_command() {
    // No percentage of 0 can be formed; any increase is beyond every one.
    let dir = tempfile::tempdir().unwrap();
    let base = raw_file(dir.path(), "base.csv", &[0; 9]);
    let new = raw_file(
        dir.path(),
        "new.csv",
        &[5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009],
    );
    let args = ["-Q", "--baseline", &base, "--fail-if-slower", "5", &new];
    let (status, stdout, stderr) = run("bestreport", &args);
    assert_eq!(status, 3, "{stdout}{stderr}");
    assert!(row(&stdout, "a").ends_with("slower ✗"), "{stdout}");
    assert!(
        stdout.contains("Gate failed: 1 command is slower"),
        "{stdout}"
    );
    // The same data the other way round: faster, the gate passes.
    let (status, stdout, _) = run(
        "bestreport",
        &["-Q", "--baseline", &new, "--fail-if-slower", "5", &base],
    );
    assert_eq!(status, 0, "{stdout}");
    assert!(row(&stdout, "a").ends_with("faster"), "{stdout}");
}

#[test]
fn a_command_too_few_runs_to_compare_does_not_pass_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let base = raw_file(dir.path(), "base.csv", &[1000; 9]);
    let new = raw_file(dir.path(), "new.csv", &[5001, 5002, 5003]);
    let (status, stdout, stderr) = run(
        "bestreport",
        &["-Q", "--baseline", &base, "--fail-if-slower", "5", &new],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    assert!(row(&stdout, "a").ends_with("not compared"), "{stdout}");
    let text = stdout.replace("\n  ", " ");
    assert!(
        text.contains("Gate failed: 1 command could not be compared (fewer than 7 runs on a side)"),
        "{stdout}"
    );
    // Without a gate, the comparison is only listed.
    let (status, stdout, _) = run("bestreport", &["-Q", "--baseline", &base, &new]);
    assert_eq!(status, 0, "{stdout}");
    assert!(!stdout.contains("Gate"), "{stdout}");
}

#[test]
fn a_gate_that_compared_nothing_does_not_pass() {
    // Another baseline, or renamed commands: every command on one side
    // only. The gate must not pass ("no command is slower"), status 0.
    let dir = tempfile::tempdir().unwrap();
    let base = raw_file(dir.path(), "base.csv", &[1000; 9]);
    let new = raw_file(dir.path(), "new.csv", &[1000; 9]).replace("new.csv", "renamed.csv");
    let text = std::fs::read_to_string(dir.path().join("new.csv"))
        .unwrap()
        .replace("\na,", "\nb,");
    std::fs::write(&new, text).unwrap();
    let (status, stdout, stderr) = run(
        "bestreport",
        &["-Q", "--baseline", &base, "--fail-if-slower", "5", &new],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    assert!(row(&stdout, "a").ends_with("only in baseline"), "{stdout}");
    assert!(row(&stdout, "b").ends_with("only in new"), "{stdout}");
    let text = stdout.replace("\n  ", " ");
    assert!(
        text.contains("Gate failed: no command has a counterpart in the baseline"),
        "{stdout}"
    );
    assert!(!text.contains("Gate passed"), "{stdout}");
    // With one pair, the commands on one side only do not fail it.
    let both = std::fs::read_to_string(&new).unwrap()
        + &std::fs::read_to_string(&base)
            .unwrap()
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n");
    std::fs::write(&new, both + "\n").unwrap();
    let (status, stdout, _) = run(
        "bestreport",
        &["-Q", "--baseline", &base, "--fail-if-slower", "5", &new],
    );
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout.contains("Gate passed"), "{stdout}");
}

/// A raw CSV of commands `./work P` all named `work`, 20 rounds in the
/// order given, each P's CPU time about P ms.
fn work_file(path: &std::path::Path, order: &[u32], seed: u64) {
    let mut text = String::from(
        "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),\
         Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,\
         Wall clock (us),Total time (us),Total Context Switches\n",
    );
    let mut noise = seed;
    for _ in 0..20 {
        for (batch, p) in order.iter().enumerate() {
            noise = (noise * 1_103_515_245 + 12_345) % 2_147_483_648;
            let v = p * 1000 + (noise % 100) as u32;
            text.push_str(&format!(
                "\"./work {p}\",\"\",\"work\",{},0,{v},0,2000000,100,0,1,2,{},{v},3\n",
                batch + 1,
                v + 50
            ));
        }
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn commands_sharing_a_name_are_compared_with_their_own_baseline() {
    // Three commands under one name, measured in another order: paired by
    // name alone, `./work 1` would be compared with `./work 3` (+191 %,
    // status 3).
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.csv"), dir.path().join("new.csv"));
    work_file(&old, &[1, 2, 3], 1);
    work_file(&new, &[3, 1, 2], 2);
    let (status, stdout, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            old.to_str().unwrap(),
            "--fail-if-slower",
            "5",
            new.to_str().unwrap(),
        ],
    );
    assert_eq!(status, 0, "{stdout}{stderr}");
    for p in 1..=3 {
        // Each row names its command, and both medians are about P ms.
        let line = row(&stdout, &format!("work (./work {p})"));
        assert_eq!(line.matches(&format!(" {p}.0")).count(), 2, "{line}");
        assert!(!line.contains("slower"), "{line}");
    }
}

/// The gate's last paragraph (from "Gate "), joined across its wrapped lines.
fn gate_line(stdout: &str) -> String {
    let at = stdout
        .find("Gate ")
        .unwrap_or_else(|| panic!("no gate line in:\n{stdout}"));
    stdout[at..].replace("\n  ", " ")
}

#[test]
fn a_new_build_whose_runs_all_failed_fails_the_gate_whatever_its_times() {
    // Every new run exited with status 1 after 0.3 ms: 97 % "faster" by its
    // times, and broken.
    let (status, stdout, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline.csv")),
            "--fail-if-slower",
            "5",
            &arg(fixture("gate_all_failed.csv")),
        ],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    for label in ["parse", "render"] {
        let at = stdout.find(&format!("  {label} ")).unwrap();
        let rest = &stdout[at..];
        let row = &rest[..rest.find("\n  ").unwrap_or(rest.len())];
        assert!(row.contains("failed ✗"), "{stdout}");
        assert!(!row.contains("faster"), "{stdout}");
    }
    let gate = gate_line(&stdout);
    assert!(
        gate.starts_with("Gate failed: 2 commands have failed runs"),
        "{gate}"
    );
    assert!(
        gate.contains("parse (30 of 30 runs failed: exit 1 ×30)"),
        "{gate}"
    );
    assert!(
        gate.contains("render (30 of 30 runs failed: exit 1 ×30)"),
        "{gate}"
    );
    assert!(!stdout.contains("Gate passed"), "{stdout}");
}

#[test]
fn a_few_failed_runs_fail_the_gate_and_baseline_failures_are_reported() {
    let (status, stdout, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline_failed.csv")),
            "--fail-if-slower",
            "5",
            &arg(fixture("gate_part_failed.csv")),
        ],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    // "parse" is compared as usual; its baseline's failures are named.
    assert!(!row(&stdout, "parse").contains('✗'), "{stdout}");
    let joined = stdout.replace("\n  ", " ");
    assert!(
        joined.contains("Failed runs in the baseline")
            && joined.contains("parse (2 of 30 runs failed: exit 1 ×2)"),
        "{stdout}"
    );
    let gate = gate_line(&stdout);
    assert!(
        gate.starts_with("Gate failed: 1 command has failed runs in the new data"),
        "{gate}"
    );
    assert!(
        gate.contains("render (4 of 30 runs failed: exit 2 ×3, signal 9)"),
        "{gate}"
    );
    // Without a margin nothing fails, and the failures are still named.
    let (status, stdout, _) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline_failed.csv")),
            &arg(fixture("gate_part_failed.csv")),
        ],
    );
    assert_eq!(status, 0, "{stdout}");
    let joined = stdout.replace("\n  ", " ");
    assert!(
        joined.contains("Failed runs in the new data") && joined.contains("render (4 of 30"),
        "{stdout}"
    );
}

#[test]
fn bestguess_fails_the_gate_on_commands_that_exit_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.csv");
    let base = base.to_str().unwrap();
    // Scripted: a command of 2 ms, then one that fails at once.
    let script = "sleep 0.002 => wall=2ms user=1ms\nfalse => wall=1ms exit=1";
    let (status, _, stderr) = run_scripted(
        script,
        &["-Q", "-r", "5", "-o", base, "sleep 0.002", "-n", "work"],
    );
    assert_eq!(status, 0, "{stderr}");
    let (status, stdout, stderr) = run_scripted(
        script,
        &[
            "-Q",
            "-i",
            "-r",
            "5",
            "--baseline",
            base,
            "--fail-if-slower",
            "5",
            "false",
            "-n",
            "work",
        ],
    );
    assert_eq!(status, 3, "{stdout}{stderr}");
    let gate = gate_line(&stdout);
    assert!(
        gate.contains("work (5 of 5 runs failed: exit 1 ×5)"),
        "{gate}"
    );
}

#[test]
fn a_huge_margin_is_written_in_scientific_notation() {
    let (status, stdout, stderr) = run(
        "bestreport",
        &[
            "-Q",
            "--baseline",
            &arg(fixture("gate_baseline.csv")),
            "--fail-if-slower",
            "1e308",
            &arg(fixture("gate_slower.csv")),
        ],
    );
    assert_eq!(status, 0, "{stdout}{stderr}");
    let gate = gate_line(&stdout);
    // Not 309 digits over four lines.
    assert_eq!(
        gate.trim_end(),
        "Gate passed: no command is slower with its lower bound above +1.00e308%.",
        "{stdout}"
    );
}

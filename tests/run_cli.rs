//! The `bestguess` executable, driven as a user would: every option and every
//! fault named in the runner's specification.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use bestguess::data::{Metric, RunRecord};
use predicates::prelude::*;

mod support;

use support::{bestguess, rows, tmp};

// ---------------------------------------------------------------- options

#[test]
fn runs_and_warmups_are_counted_and_only_timed_runs_recorded() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    let log = dir.path().join("log");
    let cmd = format!("sh -c 'echo x >> {}'", log.display());
    bestguess()
        .args(["-w", "2", "-r", "3", "-o"])
        .arg(&out)
        .arg(&cmd)
        .assert()
        .success();
    assert_eq!(rows(&out).len(), 3);
    assert_eq!(
        fs::read_to_string(&log).unwrap().lines().count(),
        5,
        "2 warmups + 3 runs executed"
    );
}

#[test]
fn all_value_spellings_work() {
    let dir = tmp();
    for (i, args) in [["-r", "2"], ["-r=2", ""], ["--runs", "2"], ["--runs=2", ""]]
        .iter()
        .enumerate()
    {
        let out = dir.path().join(format!("{i}.csv"));
        let mut cmd = bestguess();
        cmd.args(args.iter().filter(|a| !a.is_empty()));
        cmd.arg("-o").arg(&out).arg("true").assert().success();
        assert_eq!(rows(&out).len(), 2, "{args:?}");
    }
}

#[test]
fn raw_csv_has_all_columns_with_real_values() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-r", "4", "-n", "listing", "-o"])
        .arg(&out)
        .args(["ls -l /", "-n", "listing"])
        .assert()
        .failure();
    // (-n twice for one command is refused; now the real run)
    bestguess()
        .args(["-r", "4", "--order", "sequential", "-o"])
        .arg(&out)
        .args(["ls -l /", "-n", "listing", "true"])
        .assert()
        .success();
    let text = fs::read_to_string(&out).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.starts_with(
        "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches,"
    ));
    let first = text.lines().nth(1).unwrap();
    assert!(
        first.starts_with("\"ls -l /\",\"\",\"listing\",1,0,"),
        "{first}"
    );
    let runs = rows(&out);
    assert_eq!(runs.len(), 8);
    for r in &runs {
        let int = |m| r.metrics.int(m).unwrap();
        let rss = int(Metric::MAXRSS);
        assert!(rss > 100 * 1024 && rss % 1024 == 0, "RSS in bytes: {rss}");
        assert!(int(Metric::WALL) > 0 && int(Metric::MINOR_FAULTS) > 0);
        assert!(r.start_unix_us.unwrap() > 1_600_000_000_000_000);
    }
    let fields: Vec<&str> = first.split(',').collect();
    let n = |i: usize| fields[i].parse::<i64>().unwrap();
    assert_eq!(n(13), n(5) + n(6), "Total time = user + system");
    assert_eq!(n(14), n(10) + n(11), "Total context switches");
    let seq: Vec<u64> = runs.iter().map(|r| r.sequence.unwrap()).collect();
    assert_eq!(seq, (1..=8).collect::<Vec<_>>());
}

#[test]
fn output_dash_writes_csv_to_stdout_and_reports_to_stderr() {
    let assert = bestguess()
        .args(["-r", "2", "-o", "-", "true"])
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.starts_with("Command,Shell,Name,Batch"));
    assert_eq!(out.lines().count(), 3);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.contains("Command 1: true"), "{err}");
}

#[test]
fn a_plain_run_starts_without_a_reminder() {
    // Like Hyperfine: no "Use -o" line before the results (one command:
    // no seed line either).
    bestguess()
        .args(["-r", "2", "true"])
        .assert()
        .success()
        .stderr(predicate::str::contains("Use -o").not())
        .stdout(predicate::str::contains("Use -o").not());
    bestguess()
        .args(["-Q", "true"])
        .assert()
        .success()
        .stdout("");
}

#[test]
fn prepare_runs_before_every_run_with_output_discarded() {
    let dir = tmp();
    let log = dir.path().join("log");
    let prep = format!("sh -c 'echo PREP; echo p >> {}'", log.display());
    bestguess()
        .args(["-w", "1", "-r", "2", "-p", &prep, "true", "echo RUN"])
        .assert()
        .success()
        .stdout(predicate::str::contains("PREP").not())
        .stdout(predicate::str::contains("\nRUN\n").not());
    assert_eq!(fs::read_to_string(&log).unwrap().lines().count(), 6);
}

#[test]
fn hyperfine_hooks_run_in_order_and_per_command() {
    let dir = tmp();
    let log = dir.path().join("log");
    let hook = |word: &str| format!("sh -c 'echo {word} >> {}'", log.display());
    let cmd = |word: &str| format!("sh -c 'echo {word} >> {}'", log.display());
    bestguess()
        .args(["-w", "1", "-r", "2", "--order", "sequential"])
        .args(["--setup", &hook("setupA"), "--setup", &hook("setupB")])
        .args(["--conclude", &hook("concl")])
        .args(["--cleanup", &hook("clean")])
        .arg(cmd("A"))
        .arg(cmd("B"))
        .assert()
        .success();
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // Every block is Hyperfine's (setup, warmup, runs, cleanup); the
    // blocks are mirrored: A's first run, B's two, A's second.
    assert_eq!(
        lines,
        [
            "setupA", "A", "concl", "A", "concl", "clean", "setupB", "B", "concl", "B", "concl",
            "B", "concl", "clean", "setupA", "A", "concl", "A", "concl", "clean"
        ]
    );
}

#[test]
fn ignore_failure_records_exit_codes() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-i", "-r", "3", "-o"])
        .arg(&out)
        .args(["sh -c 'exit 3'"])
        .assert()
        .success();
    assert!(rows(&out).iter().all(|r| r.exit_code == 3));
}

#[test]
fn show_output_lets_commands_print() {
    bestguess()
        .args(["-w", "0", "-r", "1", "-Q", "--show-output", "echo visible"])
        .assert()
        .success()
        .stdout("visible\n");
    bestguess()
        .args(["-w", "0", "-Q", "echo hidden"])
        .assert()
        .success()
        .stdout("");
    bestguess()
        .args(["-w", "0", "-Q", "--show-output", "cat"])
        .write_stdin("piped\n")
        .assert()
        .success()
        .stdout("piped\n");
}

#[test]
fn shell_gets_the_command_as_one_argument() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args([
            "-w",
            "0",
            "-r",
            "1",
            "-s",
            "/bin/sh -c",
            "-Q",
            "--show-output",
            "-o",
        ])
        .arg(&out)
        .arg("echo $((6*7)) | tr 4 X")
        .assert()
        .success()
        .stdout("X2\n");
    let r = &rows(&out)[0];
    assert_eq!(r.shell, "/bin/sh -c");
    assert_eq!(r.command, "echo $((6*7)) | tr 4 X");
}

#[test]
fn empty_command_under_a_shell_measures_startup() {
    bestguess()
        .args(["-s", "/bin/sh -c", "-r", "2", ""])
        .assert()
        .success();
}

#[test]
fn quoting_is_removed_without_a_shell() {
    bestguess()
        .args([
            "-w",
            "0",
            "-r",
            "1",
            "-Q",
            "--show-output",
            r#"printf '%s|' "a b" c\ d 'e'"f""#,
        ])
        .assert()
        .success()
        .stdout("a b|c d|ef|");
}

#[test]
fn command_files_add_named_commands_after_the_command_line() {
    let dir = tmp();
    let file = dir.path().join("cmds.txt");
    fs::write(
        &file,
        "true\r\n-n \"pi to 2000 digits\"\r\n\r\nfalse -x\n--name=nope\necho last",
    )
    .unwrap();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-i", "-r", "1", "--order", "sequential", "-o"])
        .arg(&out)
        .args(["echo first", "-f"])
        .arg(&file)
        .assert()
        .success();
    let runs = rows(&out);
    let got: Vec<(&str, &str)> = runs
        .iter()
        .map(|r| (r.command.as_str(), r.name.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("echo first", ""),
            ("true", "pi to 2000 digits"),
            ("false -x", "nope"),
            ("echo last", "")
        ]
    );
}

#[test]
fn interleave_and_random_orders_are_recorded_and_reproducible() {
    let dir = tmp();
    let batches = |args: &[&str], name: &str| -> Vec<u64> {
        let out = dir.path().join(name);
        bestguess()
            .args(args)
            .arg("-o")
            .arg(&out)
            .args(["true", "echo", "pwd"])
            .assert()
            .success();
        let runs = rows(&out);
        for b in 1..=3 {
            assert_eq!(
                runs.iter().filter(|r| r.batch == b).count(),
                6,
                "every command gets -r runs"
            );
        }
        runs.iter().map(|r| r.batch).collect()
    };
    assert_eq!(
        batches(&["-r", "6", "--order", "interleave"], "i.csv"),
        [1, 2, 3].repeat(6)
    );
    let a = batches(&["-r", "6", "--order", "random", "--seed", "99"], "a.csv");
    let b = batches(&["-r", "6", "--order=random", "--seed=99"], "b.csv");
    assert_eq!(a, b, "the same seed reproduces the order");
    assert_ne!(a, [1, 2, 3].repeat(6));
    for round in a.chunks(3) {
        let mut r = round.to_vec();
        r.sort();
        assert_eq!(r, [1, 2, 3]);
    }
    // Sequential: mirrored blocks, the last command's whole.
    let s = batches(&["-r", "6", "--order", "sequential"], "s.csv");
    assert_eq!(
        s,
        [&[1; 3][..], &[2; 3], &[3; 6], &[2; 3], &[1; 3]].concat()
    );
    // The default is random order, in complete rounds.
    let d = batches(&["-r", "6"], "d.csv");
    assert_ne!(d, s);
    for round in d.chunks(3) {
        let mut r = round.to_vec();
        r.sort();
        assert_eq!(r, [1, 2, 3]);
    }
}

#[test]
fn random_order_without_a_seed_prints_the_seed() {
    bestguess()
        .args(["--order", "random", "-r", "2", "true", "pwd"])
        .assert()
        .success()
        .stderr(
            predicate::str::is_match("Random order, seed [0-9]+ \\(repeat with --seed [0-9]+\\)")
                .unwrap(),
        );
}

#[test]
fn the_default_order_is_random_and_its_seed_is_printed_unless_quiet() {
    bestguess()
        .args(["-r", "2", "true", "pwd"])
        .assert()
        .success()
        .stderr(
            predicate::str::is_match("Random order, seed [0-9]+ \\(repeat with --seed [0-9]+\\)")
                .unwrap(),
        );
    // -Q prints nothing but errors (the seed is then in the JSON export's
    // metadata: tests/quiet_cli.rs).
    bestguess()
        .args(["-Q", "-r", "2", "true", "pwd"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn timeouts_kill_the_command_and_are_recorded() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    let start = Instant::now();
    bestguess()
        .args(["-w", "0", "--timeout", "0.2", "-r", "3", "-o"])
        .arg(&out)
        .arg("sleep 10")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("timed out after 0.2 s"));
    assert!(start.elapsed() < Duration::from_secs(5));
    let runs = rows(&out);
    assert_eq!(runs.len(), 1);
    assert!(runs[0].timed_out && runs[0].signal == Some(9));
    // With -i every run is attempted and recorded; children of a shell die too.
    let start = Instant::now();
    bestguess()
        .args([
            "-w",
            "0",
            "-i",
            "--timeout",
            "0.2",
            "-r",
            "2",
            "-s",
            "/bin/sh -c",
            "-o",
        ])
        .arg(&out)
        .arg("sleep 10; sleep 10")
        .assert()
        .success();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(rows(&out).iter().filter(|r| r.timed_out).count(), 2);
}

/// Runs that end about when their limit does: each one either exited by
/// itself (not timed out) or was killed by the limit (SIGKILL, timed out),
/// never both. A run that exits by itself just before the timer fires is
/// not recorded "timed out" beside exit code 0 and no signal. The limit is
/// kept to the microsecond (whole milliseconds would make 0.0009 s 1 ms).
#[test]
fn a_run_is_timed_out_only_when_the_limit_ended_it() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-Q", "-i", "--timeout", "0.0009", "-r", "60", "-o"])
        .arg(&out)
        .arg("sleep 0.0009")
        .assert()
        .success();
    let runs = rows(&out);
    assert_eq!(runs.len(), 60);
    for r in &runs {
        assert_eq!(r.timed_out, r.signal == Some(9), "{r:?}");
        assert!(!(r.timed_out && r.exit_code == 0), "{r:?}");
    }
}

#[test]
fn version_and_help() {
    bestguess()
        .arg("-v")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("bestguess 0."));
    bestguess().arg("--help").assert().success().stdout(
        predicate::str::contains("--runs N").and(predicate::str::contains("--timeout SECONDS")),
    );
}

#[test]
fn action_report_reads_raw_files() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-r", "2", "-o"])
        .arg(&out)
        .arg("true")
        .assert()
        .success();
    bestguess()
        .args(["-A", "report"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("Command 1: true"));
}

#[test]
fn no_compiled_in_limits_on_commands_or_words() {
    let mut args: Vec<String> = vec!["-Q".into(), "-r".into(), "1".into()];
    args.extend((0..250).map(|i| format!("true {i}")));
    bestguess().args(&args).assert().success();
    let long: String = std::iter::repeat_n("word", 2000)
        .collect::<Vec<_>>()
        .join(" ");
    bestguess()
        .args([
            "-w",
            "0",
            "-r",
            "1",
            "-Q",
            "--show-output",
            &format!("echo {long}"),
        ])
        .assert()
        .success()
        .stdout(format!("{long}\n"));
}

#[test]
fn limits_show_the_launcher_floor() {
    bestguess()
        .arg("--limits")
        .assert()
        .success()
        .stdout(predicate::str::is_match("Max RSS floor: [0-9]+ bytes").unwrap())
        .stdout(predicate::str::contains("no compiled-in limits"));
}

#[test]
fn the_launcher_also_starts_from_a_temporary_file() {
    // BESTGUESS_TEST_NO_MEMFD is honoured only to test this fallback path.
    let dir = tmp();
    bestguess()
        .env("BESTGUESS_TEST_NO_MEMFD", "1")
        .env("TMPDIR", dir.path())
        .args(["-r", "2", "-o", "-", "true"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"true\",\"\",\"\",1,0,"));
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "the temporary launcher file is removed"
    );
}

// ---------------------------------------------------------------- faults

#[test]
fn unstartable_commands_are_refused_before_any_timing() {
    let dir = tmp();
    let marker = dir.path().join("ran");
    let first = format!("touch {}", marker.display());
    let plain = dir.path().join("plain");
    fs::write(&plain, "not a program").unwrap();
    for (bad, says) in [
        ("no-such-command-xyz", "command not found"),
        (plain.to_str().unwrap(), "not executable"),
        ("/tmp", "is a directory"),
        ("/no/such/path", "no such file"),
    ] {
        for extra in [&[][..], &["-i"]] {
            bestguess()
                .args(extra)
                .args(["-r", "2", &first, bad])
                .assert()
                .code(2)
                .stderr(predicate::str::contains("command 2").and(predicate::str::contains(says)));
            assert!(!marker.exists(), "nothing may run before the check");
        }
    }
    bestguess()
        .args(["-p", "no-such-prep", "true"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--prepare command 'no-such-prep'"));
}

#[test]
fn a_failing_command_stops_keeping_rows_and_suggesting_i() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    let counter = dir.path().join("n");
    // Succeeds twice, then fails with code 7.
    let cmd = format!(
        "sh -c 'echo >> {c}; test $(wc -l < {c}) -lt 3 || exit 7'",
        c = counter.display()
    );
    bestguess()
        .args(["-w", "0", "-r", "5", "-o"])
        .arg(&out)
        .arg(&cmd)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("run 3 of command 1")
                .and(predicate::str::contains("exited with code 7")),
        )
        .stderr(predicate::str::contains("-i/--ignore-failure"));
    let codes: Vec<i32> = rows(&out).iter().map(|r| r.exit_code).collect();
    assert_eq!(codes, [0, 0, 7]);
}

#[test]
fn after_a_failure_what_was_measured_is_still_reported_and_exported() {
    let dir = tmp();
    let json = dir.path().join("r.json");
    let assert = bestguess()
        .args([
            "-w",
            "0",
            "-r",
            "5",
            "--order",
            "sequential",
            "--export-json",
        ])
        .arg(&json)
        .args(["-w", "0", "true", "false"])
        .assert()
        .code(2);
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("Command 1: true") && stdout.contains("Command 2: false"),
        "{stdout}"
    );
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    // The first command's first block, ⌈5/2⌉ runs, before the failure.
    assert_eq!(v["results"][0]["times"].as_array().unwrap().len(), 3);
    assert_eq!(
        v["results"][1]["exit_codes"][0], 1,
        "the failed run is in the export"
    );
}

#[test]
fn a_command_killed_by_a_signal_is_recorded_and_stops_unless_i() {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    bestguess()
        .args(["-w", "0", "-r", "3", "-s", "/bin/sh -c", "-o"])
        .arg(&out)
        .arg("kill -9 $$")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("killed by SIGKILL"));
    let runs = rows(&out);
    assert_eq!(runs.len(), 1);
    assert_eq!((runs[0].signal, runs[0].exit_code), (Some(9), 137));
    bestguess()
        .args(["-w", "0", "-i", "-r", "3", "-s", "/bin/sh -c", "-o"])
        .arg(&out)
        .arg("kill -SEGV $$")
        .assert()
        .success();
    assert!(rows(&out).iter().all(|r| r.signal == Some(11)));
}

#[test]
fn usage_errors_exit_1_with_advice() {
    let cases: &[(&[&str], &str)] = &[
        (&[""], "-s \"/bin/sh -c\""),
        (&["echo \"unterminated"], "unbalanced double quote"),
        (&["-n", "x"], "names no command"),
        (&["-n", "x", "-n", "y", "ls"], "2 names (-n) for 1 command"),
        (&["ls", "-n", "a", "-n", "b"], "already has the name"),
        (&["-r", "0", "ls"], "nothing to do"),
        (&["-r", "-3", "ls"], "whole number"),
        (&["-r", "many", "ls"], "'many'"),
        (&["-w", "-1", "ls"], "-w/--warmup"),
        (&["--bogus", "ls"], "unknown option '--bogus'"),
        (&["-r"], "needs a value"),
        (&[], "no commands to run"),
        (&["-c", "alpha=2", "ls"], "alpha"),
        (&["--order", "sideways", "ls"], "sequential"),
    ];
    for (args, says) in cases {
        let assert = bestguess().args(*args).assert().code(1);
        let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("bestguess: error: "), "{err}");
    }
}

#[test]
fn an_uncreatable_output_file_fails_before_any_run() {
    let dir = tmp();
    let marker = dir.path().join("ran");
    bestguess()
        .args(["-o", "/no/such/dir/raw.csv"])
        .arg(format!("touch {}", marker.display()))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/dir/raw.csv"));
    assert!(!marker.exists());
}

/// Start bestguess on a long experiment, wait until `rows_wanted` runs are in
/// the raw file, send `signal`, and return (exit status, stdout, rows).
/// Returns (exit status, stdout + stderr, rows, time from signal to exit).
fn interrupt_after(
    signal: i32,
    rows_wanted: usize,
    sleep: u32,
) -> (Option<i32>, String, Vec<RunRecord>, Duration) {
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    let counter = dir.path().join("counter");
    let child = Command::cargo_bin("bestguess")
        .unwrap()
        .args(["-w", "0", "-r", "1000", "-s", "/bin/sh -c", "-o"])
        .arg(&out)
        // The first `rows_wanted` runs are quick, the next one sleeps: the
        // signal lands while a command (and its child sleep) is running.
        .arg(format!(
            "echo >> {c}; test $(wc -l < {c}) -le {rows_wanted} || sleep {sleep}",
            c = counter.display()
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !out.exists() || fs::read_to_string(&out).unwrap().lines().count() < rows_wanted + 1 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "runs did not complete"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let signalled = Instant::now();
    // kill(1) rather than libc::kill: tests hold no unsafe code.
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let took = signalled.elapsed();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap() + &String::from_utf8(output.stderr).unwrap(),
        rows(&out),
        took,
    )
}

#[test]
fn ctrl_c_keeps_every_completed_run_and_exits_130() {
    let (code, stdout, runs, took) = interrupt_after(2, 3, 30);
    assert_eq!(code, Some(130));
    assert_eq!(
        runs.len(),
        3,
        "the interrupted run is not recorded; the completed ones are"
    );
    assert!(
        stdout.contains("Interrupted by SIGINT: 3 completed runs are kept"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Command 1:"),
        "a summary of what was measured: {stdout}"
    );
    assert!(
        took < Duration::from_secs(5),
        "the running command was killed at once"
    );
}

#[test]
fn sigterm_keeps_every_completed_run_and_exits_143() {
    let (code, _, runs, took) = interrupt_after(15, 3, 31);
    assert_eq!(code, Some(143));
    assert_eq!(runs.len(), 3);
    assert!(took < Duration::from_secs(5));
}

#[test]
fn the_sleeping_grandchild_is_killed_on_interrupt() {
    // After an interrupt nothing the command started may survive.
    let (_, _, _, _) = interrupt_after(2, 3, 32);
    let ps = Command::new("ps")
        .args(["-w", "0", "-eo", "args"])
        .output()
        .unwrap();
    let survivors = String::from_utf8_lossy(&ps.stdout)
        .lines()
        .filter(|l| l.trim() == "sleep 32")
        .count();
    assert_eq!(survivors, 0, "a 'sleep 32' survived");
}

#[test]
fn a_launcher_that_dies_is_an_error_not_a_hang() {
    // Under -s the command's parent is the launcher itself.
    let dir = tmp();
    let out = dir.path().join("raw.csv");
    let start = Instant::now();
    bestguess()
        .args(["-r", "3", "--order", "sequential", "-s", "/bin/sh -c", "-o"])
        .arg(&out)
        .args(["true", "kill -9 $PPID"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the launcher process was killed by SIGKILL during the experiment",
        ));
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(
        rows(&out).len(),
        2,
        "the first command's first block is kept"
    );
}

#[test]
fn progress_is_shown_only_on_a_terminal() {
    // Piped stderr: nothing but errors.
    bestguess()
        .args(["-N", "-r", "20", "-o", "/dev/null", "true"])
        .assert()
        .success()
        .stderr(predicate::str::contains("\r").not())
        .stderr(predicate::str::contains("\x1b").not());
    // On a terminal (script(1) provides one): a progress line, then cleared.
    if !support::pty::have_script() {
        eprintln!("script(1) is not installed; skipping the terminal half of this test");
        return;
    }
    let out = support::pty::scripted_under_pty(
        80,
        "xterm",
        "sleep 0.002 => wall=2ms\ntrue => wall=1ms",
        "-N -r 300 --order sequential 'sleep 0.002' true",
    );
    let text = String::from_utf8_lossy(&out);
    let bin = assert_cmd::cargo::cargo_bin("bestguess");
    assert!(text.contains("/600 runs"), "{text}");
    assert!(text.contains("\r\x1b[J"), "the line is redrawn and cleared");
    let quiet = Command::new("script")
        .args([
            "-q",
            "-c",
            &format!("{} -Q -r 50 true", bin.display()),
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&quiet.stdout).contains("runs ·"),
        "-Q shows no progress"
    );
}

#[test]
fn hooks_that_fail_under_ignore_failure_are_told_once_each() {
    let out = bestguess()
        .args(["-r", "3", "-i", "--setup", "false", "-p", "false"])
        .args(["-s", "/bin/sh -c", "--conclude", "exit 4", "true"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let told = |text: &str| stderr.lines().filter(|l| l.contains(text)).count();
    assert_eq!(
        told("warning: the --setup command 'false' of command 1 exited with code 1 (ignored: -i"),
        1,
        "{stderr}"
    );
    assert_eq!(
        told("the --prepare command 'false' of command 1 exited with code 1"),
        1,
        "{stderr}"
    );
    assert_eq!(
        told("the --conclude command 'exit 4' of command 1 exited with code 4"),
        1,
        "{stderr}"
    );
}

#[test]
fn runs_without_a_file_survive_an_analysis_that_fails() {
    // The second command never writes the metric ranked by: the analysis
    // fails after every run; without -o the runs go to no file.
    let dir = tempfile::tempdir().unwrap();
    let out = bestguess()
        .current_dir(dir.path())
        .args([
            "-Q",
            "-r",
            "3",
            "--custom-metrics",
            "foo",
            "--metric",
            "foo",
        ])
        .args(["-P", "n", "1", "2", "-s", "/bin/sh -c"])
        .arg("echo 'foo {n}' > \"$BESTGUESS_METRICS\"")
        .arg("true")
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("has no foo values to rank by"), "{stderr}");
    let at = stderr.find("./bestguess-runs-").expect(&stderr);
    let path = stderr[at..].split_whitespace().next().unwrap().to_string();
    assert!(
        stderr.contains("the 12 runs measured are saved in"),
        "{stderr}"
    );
    let records = rows(&dir.path().join(&path));
    assert_eq!(records.len(), 12);
    let with_n2 = records
        .iter()
        .filter(|r| r.parameters == [("n".to_string(), "2".to_string())])
        .count();
    assert_eq!(with_n2, 6, "parameters kept");
    // With -o there is nothing to save: the file has them.
    let raw = dir.path().join("raw.csv");
    let out = bestguess()
        .current_dir(dir.path())
        .args([
            "-Q",
            "-r",
            "2",
            "--custom-metrics",
            "foo",
            "--metric",
            "foo",
            "-o",
        ])
        .arg(&raw)
        .args(["-i", "true", "false"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!stderr.contains("saved in"), "{stderr}");
    // It says where they are, which command lacks the metric, and what would
    // do instead.
    assert!(
        stderr.contains(&format!(
            "the 4 runs measured are in {} (bestreport",
            raw.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("command 1 (true) has no foo values") && stderr.contains("(--metric cpu)"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
}

//! Hyperfine habits handled loudly, and command-line input that must never
//! be mistaken: each habit or hostile input drives the real `bestguess`.

use std::fs;

use bestguess::data::read_raw_csv;
use predicates::prelude::*;

mod support;

use support::{bestguess, stderr_of};

// ---------------------------------------------------------------- habits

#[test]
fn shell_syntax_without_a_shell_warns_once_and_still_runs_as_given() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let a = bestguess()
        .args(["-r", "2", "-o"])
        .arg(&raw)
        .args(["echo $HOME | cat", "--prepare", "true > /dev/null"])
        .assert()
        .success();
    let err = stderr_of(&a);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].starts_with(
            "bestguess: warning: command 1 ('echo $HOME | cat') contains $ (a variable or substitution) but no shell interprets it"
        ),
        "{err}"
    );
    assert!(warnings[0].contains("add -s \"/bin/sh -c\""), "{err}");
    assert!(
        warnings[0].contains("as do 1 more"),
        "the hook counts: {err}"
    );
    // It ran as given: echo with the literal words, twice, recorded.
    let rows = read_raw_csv(fs::File::open(&raw).unwrap(), "raw").unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|r| r.command == "echo $HOME | cat" && r.exit_code == 0));
}

#[test]
fn shell_syntax_under_a_shell_or_quoted_is_not_warned_about() {
    for args in [
        &["-s", "/bin/sh -c", "echo $HOME | cat"][..],
        &["grep -c 'a|b' /dev/null"],
        &["echo \\$HOME"],
    ] {
        let a = bestguess().args(args).assert();
        let err = stderr_of(&a);
        assert!(!err.contains("warning"), "{args:?}: {err}");
    }
}

/// Hyperfine's `--shell bash`: each command runs as `bash -c COMMAND`
/// (not given to bash as a script file name, which fails), with a
/// note saying so; the raw data records the shell that ran.
#[test]
fn a_bare_shell_name_runs_as_hyperfine_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let a = bestguess()
        .args(["-r", "2", "--shell", "bash", "-o"])
        .arg(&raw)
        .arg("echo hi | cat > /dev/null")
        .assert()
        .success();
    let err = stderr_of(&a);
    assert!(
        err.contains(
            "-s \"bash\" runs each command as bash -c COMMAND, as Hyperfine's --shell does"
        ),
        "{err}"
    );
    assert!(!err.contains("error"), "{err}");
    let rows = read_raw_csv(fs::File::open(&raw).unwrap(), "raw").unwrap();
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter()
            .all(|r| r.exit_code == 0 && r.shell == "bash -c"),
        "{rows:?}"
    );
    let a = bestguess()
        .args(["-r", "1", "-s", "bash -c", "echo hi"])
        .assert()
        .success();
    assert!(!stderr_of(&a).contains("warning"));
}

/// Hyperfine's `-n a -n b CMD1 CMD2`: the names pair with the commands
/// in order (rather than refused).
#[test]
fn names_before_the_commands_pair_with_them_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args(["-r", "2", "-o"])
        .arg(&raw)
        .args(["-n", "a", "-n", "b", "ls", "ls -l"])
        .assert()
        .success();
    let rows = read_raw_csv(fs::File::open(&raw).unwrap(), "raw").unwrap();
    for r in &rows {
        let want = if r.command == "ls" { "a" } else { "b" };
        assert_eq!(r.name, want, "{rows:?}");
    }
    let a = bestguess()
        .args(["-n", "a", "-n", "b", "-n", "c", "ls", "ls -l"])
        .assert()
        .code(1);
    assert!(stderr_of(&a).contains("3 names (-n) for 2 commands"));
}

/// A first command that fails (no -i) stops the experiment before the
/// second ran: the output says so, never "only one command benchmarked".
#[test]
fn a_failing_first_command_is_said_to_have_stopped_the_others() {
    let a = bestguess()
        .args([
            "-w",
            "0",
            "-r",
            "5",
            "--order",
            "interleave",
            "false",
            "true",
        ])
        .assert()
        .code(2);
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let err = stderr_of(&a);
    assert!(!out.contains("Only one command"), "{out}");
    assert!(
        err.contains("Command 2 ('true') never ran: the experiment stopped before its first run; with one command measured there is nothing to rank."),
        "{err}"
    );
    assert!(
        err.contains("run 1 of command 1 ('false') exited with code 1"),
        "{err}"
    );
    // The order a random seed gives does not matter: whichever ran first
    // failed, and the other is named.
    let a = bestguess()
        .args(["-w", "0", "-r", "5", "false", "true"])
        .assert()
        .code(2);
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(!out.contains("Only one command"), "{out}");
}

#[test]
fn hyperfines_s_for_setup_gets_a_hint() {
    let a = bestguess().args(["-i", "-s", "true", "x"]).assert();
    let err = stderr_of(&a);
    assert!(err.contains("-s \"true\" is not a shell"), "{err}");
    assert!(err.contains("write --setup"), "{err}");
}

#[test]
fn capital_v_prints_the_version() {
    bestguess()
        .arg("-V")
        .assert()
        .success()
        .stdout(format!("bestguess {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn command_name_is_an_alias_of_name() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args(["-Q", "-r", "1", "--order", "sequential", "-o"])
        .arg(&raw)
        .args(["true", "--command-name", "nothing", "false", "-i"])
        .args(["--command-name=fails"])
        .assert()
        .success();
    let mut rows = read_raw_csv(fs::File::open(&raw).unwrap(), "raw").unwrap();
    rows.sort_by_key(|r| r.batch);
    let names: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.command.as_str(), r.name.as_str()))
        .collect();
    assert_eq!(names, [("true", "nothing"), ("false", "fails")]);
}

#[test]
fn hyperfines_output_words_are_refused_and_create_no_file() {
    let dir = tempfile::tempdir().unwrap();
    for (word, hint) in [
        ("null", "leave the option out"),
        ("inherit", "--show-output"),
        ("pipe", "not supported"),
    ] {
        for spelling in [vec!["--output", word], vec!["-o", word]] {
            bestguess()
                .current_dir(dir.path())
                .args(&spelling)
                .arg("true")
                .assert()
                .code(1)
                .stderr(
                    predicate::str::contains(hint).and(predicate::str::contains(format!(
                        "for a file really named {word} write -o ./{word}"
                    ))),
                );
            assert!(!dir.path().join(word).exists(), "{spelling:?} made a file");
        }
    }
    // ./null is a file name.
    bestguess()
        .current_dir(dir.path())
        .args(["-Q", "-o", "./null", "true"])
        .assert()
        .success();
    assert!(dir.path().join("null").exists());
}

// ---------------------------------------------------------------- hostile input

#[test]
fn control_bytes_in_a_command_file_name_the_byte_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cmds.txt");
    for (bytes, message) in [
        (
            &b"true\n-n t\necho a\0b\n"[..],
            "cmds.txt, line 3: control character U+0000 (NUL) at column 7",
        ),
        (
            b"true\n\x1b[31mtrue\n",
            "cmds.txt, line 2: control character U+001B (ESC) at column 1",
        ),
        (
            b"true\xff\n",
            "cmds.txt, line 1: byte 0xFF at column 5 is not UTF-8 text",
        ),
    ] {
        fs::write(&file, bytes).unwrap();
        bestguess()
            .arg("-f")
            .arg(&file)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_command_file_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cmds.txt");
    let raw = dir.path().join("raw.csv");
    fs::write(&file, b"\xEF\xBB\xBFtrue\r\n-n yes\r\n").unwrap();
    bestguess()
        .args(["-Q", "-r", "1", "-o"])
        .arg(&raw)
        .arg("-f")
        .arg(&file)
        .assert()
        .success();
    let rows = read_raw_csv(fs::File::open(&raw).unwrap(), "raw").unwrap();
    assert_eq!(
        (rows[0].command.as_str(), rows[0].name.as_str()),
        ("true", "yes")
    );
}

#[test]
fn control_characters_in_command_line_commands_are_refused() {
    bestguess()
        .arg("echo \u{7}bell")
        .assert()
        .code(1)
        .stderr(
            "bestguess: error: command 1 ('echo \\u{7}bell') contains the control character U+0007 (BEL) at column 6; remove it\n",
        );
    bestguess()
        .args(["true", "--setup", "x\ry"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "--setup contains the control character U+000D (CR)",
        ));
    // A multi-line script under a shell is fine.
    bestguess()
        .args(["-Q", "-s", "/bin/sh -c", "true\ntrue"])
        .assert()
        .success();
}

#[test]
fn numeric_errors_state_the_accepted_range() {
    for (args, message) in [
        (
            &["-r", "18446744073709551615", "true"][..],
            "-r/--runs expects a whole number from 1 to 1000000000, got '18446744073709551615'",
        ),
        (
            &["-r", "0", "true"],
            "-r/--runs is 0, nothing to do: it must be a whole number from 1 to 1000000000",
        ),
        (
            &["-w", "99999999999999999999", "true"],
            "-w/--warmup expects a whole number from 0 to 1000000000",
        ),
        (
            &["--timeout", "1e30", "true"],
            "--timeout expects a number of seconds from 0.000001 to 1000000000, got '1e30'",
        ),
        (
            &["--timeout", "0", "true"],
            "--timeout expects a number of seconds from 0.000001 to 1000000000",
        ),
        (
            &["--seed", "-1", "true"],
            "--seed expects a whole number from 0 to 18446744073709551615",
        ),
        (
            &["-c", "effect=1e400", "true"],
            "setting effect=1e400 is invalid: 1e400 is beyond the largest number",
        ),
        (&["-c", "width=1e400", "true"], "from 40 to 1024"),
        (
            &["-c", "alpha=2", "true"],
            "from 0.000001 up to 1 (exclusive)",
        ),
        (
            &["-c", "alpha=1e-9", "true"],
            "from 0.000001 up to 1 (exclusive)",
        ),
    ] {
        let a = bestguess().args(args).assert().code(1);
        let err = stderr_of(&a);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(
            !err.contains("not negative") && !err.contains("greater than 0"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Every Hyperfine option of the README's table, typed as a Hyperfine
/// user would: a usage error that says what to type (nothing runs), or
/// for -N a one-line note and the run as asked.
#[test]
fn hyperfine_options_say_what_they_mean_here() {
    let marker = tempfile::tempdir().unwrap();
    let ran = marker.path().join("ran");
    let touch = format!("touch {}", ran.display());
    for (args, says) in [
        (vec!["-S", "bash"], "write -s \"bash -c\""),
        (vec!["-S", "none"], "leave -S none out"),
        (vec!["-M", "10"], "write --max-runs 10"),
        (vec!["-C", "sync"], "--conclude CMD"),
        (vec!["-c", "rm -f x"], "write --cleanup 'rm -f x'"),
        (vec!["--style", "basic"], "one plain style"),
        (vec!["--input", "data.txt"], "CMD < FILE"),
    ] {
        let mut all = args.clone();
        all.push(&touch);
        let a = bestguess().args(&all).assert().code(1);
        let stderr = stderr_of(&a);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(!ran.exists(), "{args:?} ran the command");
    }
    // -N: the note, and the run goes ahead without the summary.
    let a = bestguess()
        .args(["-N", "-r", "2", &touch])
        .assert()
        .success();
    let stderr = stderr_of(&a);
    assert!(stderr.contains("-N turns off the summary here"), "{stderr}");
    assert!(ran.exists());
    // The long forms mean what they say.
    bestguess()
        .args(["-Q", "--summary", "-r", "1", "true"])
        .assert()
        .success();
}

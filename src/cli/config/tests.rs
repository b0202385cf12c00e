use super::*;
use std::ffi::OsString;

fn config(args: &[&str]) -> Result<Config, ConfigError> {
    let a = super::super::args::parse(args.iter().map(OsString::from), true).unwrap();
    build(a, true)
}

fn run(args: &[&str]) -> RunConfig {
    match config(args).unwrap() {
        Config::Run(r) => *r,
        other => panic!("expected a run config, got {other:?}"),
    }
}

fn usage(args: &[&str]) -> String {
    match config(args) {
        Err(ConfigError::Usage(e)) => e.0,
        other => panic!("expected a usage error for {args:?}, got {other:?}"),
    }
}

#[test]
fn commands_are_split_or_given_to_the_shell_whole() {
    let r = run(&["-r", "3", "echo 'a b'", "-s", "/bin/sh -c", "x"]);
    assert_eq!(r.plan.runs, 3);
    assert_eq!(
        r.plan.commands[0].command.argv,
        ["/bin/sh", "-c", "echo 'a b'"]
    );
    let r = run(&["echo 'a b'"]);
    assert_eq!(r.plan.commands[0].command.argv, ["echo", "a b"]);
}

fn texts(r: &RunConfig) -> Vec<(&str, Option<&str>)> {
    r.plan
        .commands
        .iter()
        .map(|c| (c.command.text.as_str(), c.name.as_deref()))
        .collect()
}

#[test]
fn the_history_store_and_names_around_it() {
    let store = |r: &RunConfig| r.history.as_ref().and_then(|h| h.store.clone());
    // The store right after --history, then a name before its command
    // (Hyperfine's order) or after it (BestGuess's).
    for args in [
        &["--history", "h.db", "-n", "N", "true"][..],
        &["--history", "h.db", "true", "-n", "N"],
        &["--history=h.db", "-n", "N", "true"],
        &["-n", "N", "--history", "h.db", "true"],
    ] {
        let r = run(args);
        assert_eq!(store(&r).as_deref(), Some("h.db"), "{args:?}");
        assert_eq!(texts(&r), [("true", Some("N"))], "{args:?}");
    }
    // The default store: the word after --history is a command.
    let r = run(&["--history", "-n", "N", "true", "false", "-n", "M"]);
    assert_eq!(store(&r), None);
    assert_eq!(texts(&r), [("true", Some("N")), ("false", Some("M"))]);
    let r = run(&["--history", "ls", "-n", "N"]);
    assert_eq!(store(&r), None);
    assert_eq!(texts(&r), [("ls", Some("N"))]);
    // A store-like word elsewhere is a command.
    let r = run(&["--history", "true", "x.db"]);
    assert_eq!(store(&r), None);
    assert_eq!(texts(&r), [("true", None), ("x.db", None)]);
    let named_alone = ["--history", "h.db", "-n", "N"].map(OsString::from);
    let e = super::super::args::parse(named_alone, true).unwrap_err();
    assert!(e.0.contains("names no command"), "{e:?}");
}

#[test]
fn a_scan_expands_commands_names_and_hooks_in_hyperfines_order() {
    let r = run(&[
        "-P",
        "t",
        "1",
        "3",
        "make -j {t}",
        "-n",
        "make {t}",
        "true {t}",
        "--prepare",
        "echo prep {t}",
    ]);
    assert_eq!(
        texts(&r),
        [
            ("make -j 1", Some("make 1")),
            ("true 1", None),
            ("make -j 2", Some("make 2")),
            ("true 2", None),
            ("make -j 3", Some("make 3")),
            ("true 3", None),
        ]
    );
    let prep: Vec<&str> = r
        .plan
        .commands
        .iter()
        .map(|c| c.hooks.prepare.as_ref().unwrap().text.as_str())
        .collect();
    assert_eq!(prep[..3], ["echo prep 1", "echo prep 1", "echo prep 2"]);
    assert_eq!(
        r.plan.commands[2].hooks.prepare.as_ref().unwrap().argv,
        ["echo", "prep", "2"]
    );
    assert_eq!(r.plan.commands[5].parameters, [("t".into(), "3".into())]);
}

#[test]
fn steps_lists_and_the_cross_product() {
    let r = run(&[
        "-P",
        "d",
        "0.3",
        "0.7",
        "--parameter-step-size",
        "0.2",
        "sleep {d}",
    ]);
    let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
    assert_eq!(t, ["sleep 0.3", "sleep 0.5", "sleep 0.7"]);
    let r = run(&[
        "-L",
        "cc",
        "gcc,clang",
        "-L",
        "o",
        "-O0,-O2",
        "{cc} {o} x.c",
    ]);
    let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        t,
        [
            "gcc -O0 x.c",
            "clang -O0 x.c",
            "gcc -O2 x.c",
            "clang -O2 x.c"
        ]
    );
    assert_eq!(
        r.plan.commands[1].parameters,
        [("cc".into(), "clang".into()), ("o".into(), "-O0".into())]
    );
    // A scan and a list combine too.
    let r = run(&["-P", "n", "1", "2", "-L", "w", "a,b", "echo {n}{w}"]);
    let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
    assert_eq!(t, ["echo 1a", "echo 2a", "echo 1b", "echo 2b"]);
}

#[test]
fn hooks_per_command_or_per_combination() {
    let r = run(&[
        "-L", "x", "a,b", "--setup", "s1 {x}", "--setup", "s2 {x}", "c1 {x}", "c2",
    ]);
    let setups: Vec<&str> = r
        .plan
        .commands
        .iter()
        .map(|c| c.hooks.setup.as_ref().unwrap().text.as_str())
        .collect();
    assert_eq!(setups, ["s1 a", "s2 a", "s1 b", "s2 b"]);
    let r = run(&[
        "-L",
        "x",
        "a,b",
        "--cleanup",
        "k1",
        "--cleanup",
        "k2",
        "c {x}",
    ]);
    assert_eq!(
        r.plan.commands[1].hooks.cleanup.as_ref().unwrap().text,
        "k2"
    );
    let e = usage(&[
        "-L",
        "x",
        "a,b",
        "--cleanup",
        "k1",
        "--cleanup",
        "k2",
        "--cleanup",
        "k3",
        "c {x}",
    ]);
    assert!(e.contains("once per command and combination (2)"), "{e}");
}

#[test]
fn parameter_mistakes_are_usage_errors() {
    assert!(usage(&["-P", "n", "1", "3", "true"]).contains("parameter 'n' is not used"));
    assert!(usage(&["--parameter-step-size", "2", "echo"]).contains("needs a scan"));
    assert!(usage(&["-P", "n", "3", "1", "e {n}"]).contains("MIN 3 is greater than MAX 1"));
    assert!(
        usage(&["-P", "n", "1", "3", "--parameter-step-size", "0", "e {n}"])
            .contains("the step 0 must be greater than 0")
    );
    assert!(usage(&["-P", "n", "1", "x", "e {n}"]).contains("'x' is not a decimal number"));
    assert!(usage(&["-L", "a", "x", "-P", "a", "1", "2", "e {a}"]).contains("given twice"));
    assert!(usage(&["-L", "a b", "x", "e {a b}"]).contains("without braces or blanks"));
    assert!(usage(&["-L", "", "x", "e {}"]).contains("without braces or blanks"));
    let e = usage(&["-P", "a", "1", "1000", "-P", "b", "1", "1000", "e {a}{b}"]);
    assert!(e.contains("more than 100000 combinations"), "{e}");
    // Names and hooks count as uses.
    run(&["-L", "v", "1,2", "true", "-n", "t{v}"]);
    run(&["-L", "v", "1,2", "--prepare", "echo {v}", "true"]);
}

#[test]
fn hyperfines_none_and_default_shells() {
    let r = run(&["--shell", "default", "echo $HOME"]);
    assert_eq!(r.plan.shell, "/bin/sh -c");
    assert_eq!(
        r.plan.commands[0].command.argv,
        ["/bin/sh", "-c", "echo $HOME"]
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let r = run(&["--shell=none", "echo hi"]);
    assert_eq!(r.plan.shell, "");
    assert_eq!(r.plan.commands[0].command.argv, ["echo", "hi"]);
}

#[test]
fn empty_commands_need_a_shell() {
    assert!(usage(&[""]).contains("-s \"/bin/sh -c\""));
    let r = run(&["-s", "/bin/sh -c", ""]);
    assert_eq!(r.plan.commands[0].command.argv, ["/bin/sh", "-c", ""]);
}

#[test]
fn counts_are_validated() {
    assert!(usage(&["-r", "0", "ls"]).contains("nothing to do"));
    assert!(usage(&["-r", "-1", "ls"]).contains("whole number"));
    assert!(usage(&["-r", "abc", "ls"]).contains("'abc'"));
    assert!(usage(&["-w", "x", "ls"]).contains("-w/--warmup"));
    assert!(usage(&["--timeout", "0", "ls"]).contains("--timeout"));
    assert!(usage(&["--order", "zigzag", "ls"]).contains("sequential"));
    assert!(usage(&["--seed", "-3", "ls"]).contains("--seed"));
    assert!(usage(&["-r", "5"]).contains("no commands"));
}

#[test]
fn unbalanced_quotes_name_the_command() {
    let e = usage(&["ls", "echo \"oops"]);
    assert!(e.contains("command 2"), "{e}");
    assert!(e.contains("unbalanced double quote"), "{e}");
}

#[test]
fn hooks_once_for_all_or_once_per_command() {
    let r = run(&["-p", "sync", "a", "b"]);
    assert!(r
        .plan
        .commands
        .iter()
        .all(|c| c.hooks.prepare.as_ref().unwrap().text == "sync"));
    let r = run(&["--setup", "s1", "--setup", "s2", "a", "b"]);
    assert_eq!(r.plan.commands[1].hooks.setup.as_ref().unwrap().text, "s2");
    assert!(usage(&["--cleanup", "x", "--cleanup", "y", "a", "b", "c"])
        .contains("given 2 times for 3 commands"));
}

#[test]
fn standard_output_has_one_writer() {
    assert!(usage(&["-o", "-", "--export-json", "-", "ls"]).contains("standard output"));
    assert!(usage(&["-o", "-", "--show-output", "ls"]).contains("--show-output"));
}

#[test]
fn report_switches_apply_in_order() {
    let s = Selection::from_switches(&[ReportSwitch::Quiet, ReportSwitch::Ranking]);
    assert!(s.ranking && !s.summary && s.quiet);
    let s = Selection::from_switches(&[ReportSwitch::Explain, ReportSwitch::Quiet]);
    assert!(!s.explain && !s.ranking);
    let s = Selection::from_switches(&[ReportSwitch::Mini]);
    assert!(s.mini && !s.summary && s.ranking);
}

#[test]
fn help_version_config_and_actions() {
    assert_eq!(
        config(&["-v", "-h"]).unwrap(),
        Config::Help { running: true }
    );
    assert_eq!(
        config(&["-h", "-A", "report"]).unwrap(),
        Config::Help { running: false }
    );
    assert_eq!(
        config(&["-h", "-A", "dance"]).unwrap(),
        Config::Help { running: true }
    );
    assert_eq!(config(&["-v"]).unwrap(), Config::Version);
    assert!(
        matches!(config(&["--config", "-c", "width=90"]).unwrap(), Config::ShowConfig(s) if s.width == Some(90))
    );
    assert!(
        matches!(config(&["-A", "report", "f.csv"]).unwrap(), Config::Report(r) if r.files == ["f.csv"])
    );
    assert!(usage(&["-A", "dance"]).contains("-A run"));
}

#[test]
fn command_files_follow_command_line_commands() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cmds.txt");
    std::fs::write(&path, "b\n-n bee\nc").unwrap();
    let p = path.to_str().unwrap();
    let r = run(&["a", "-f", p]);
    let texts: Vec<_> = r
        .plan
        .commands
        .iter()
        .map(|c| c.command.text.as_str())
        .collect();
    assert_eq!(texts, ["a", "b", "c"]);
    assert_eq!(r.plan.commands[1].name.as_deref(), Some("bee"));
    assert!(matches!(
        config(&["-f", "/no/such/file"]),
        Err(ConfigError::CommandFile { .. })
    ));
}

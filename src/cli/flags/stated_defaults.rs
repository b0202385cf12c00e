//! Every default a help line states is the code's. Each mention of
//! "default" in a flag's help has an entry below: the text around it
//! delimits the value stated, and a check holds that value against what
//! the code does without the flag — given explicitly, the value changes
//! nothing, or, where the default is a behaviour rather than a value, the
//! behaviour is there. A help line that states a new default fails
//! [`every_stated_default_is_checked`] until it has an entry.

use std::ffi::OsString;
use std::process::Command;

use super::all;
use crate::analysis::{choose_from, resolve_metric, MetricFrom, RunTimes, Spending, StoppingRule};
use crate::cli::config::{build, Config, ReportConfig, RunConfig};
use crate::cli::stopping::{self, RunsAnalysis};
use crate::data::Catalogue;
use crate::history::provenance::GitState;
use crate::history::store::{Location, DEFAULT_STORE};

/// One default stated in a help line: the value lies between `before`
/// and `after` (an empty `before`: from the start of the line).
struct Stated {
    flag: &'static str,
    before: &'static str,
    after: &'static str,
    /// Panics unless the code's default is the value stated.
    check: fn(&str),
}

const STATED: &[Stated] = &[
    Stated {
        flag: "warmup",
        before: "(default ",
        after: ";",
        check: |v| assert_eq!(run(&["true"]), run(&["-w", v, "true"])),
    },
    Stated {
        flag: "runs",
        before: "or ",
        after: " (the default)",
        check: |v| assert_eq!(run(&["true"]), run(&["-r", v, "true"])),
    },
    Stated {
        flag: "runs",
        before: "; default: ",
        after: ")",
        check: |_| {
            // bestreport without -r: the file's header decides.
            let r = report(&["data.csv"]);
            assert_eq!(r.output.runs, RunsAnalysis::AsRecorded);
            assert_eq!(r.output.ranking.adaptive, None);
        },
    },
    Stated {
        flag: "min-runs",
        before: "(default: ",
        after: ")",
        // No minimum: every round is past it (-m itself starts at 1).
        check: |_| assert_eq!(rule(&["true"]).min_rounds, 0),
    },
    Stated {
        flag: "max-runs",
        before: "(default ",
        after: ")",
        check: |v| assert_eq!(run(&["true"]), run(&["--max-runs", v, "true"])),
    },
    Stated {
        flag: "max-time",
        before: "(default ",
        after: ", but not before the first look)",
        check: |v| {
            let r = rule(&["true"]);
            assert_eq!(Ok(r.max_time), stopping::duration(v).map_err(|e| e.0));
            // Not given: the first look comes however long it takes.
            assert!(!r.max_time_given);
        },
    },
    Stated {
        flag: "precision",
        before: "(default ",
        after: ")",
        check: |v| assert_eq!(run(&["true"]), run(&["--precision", v, "true"])),
    },
    Stated {
        flag: "show-output",
        before: "(default: ",
        after: ")",
        // The launcher gives a command that does not show its output
        // /dev/null (tests/run_cli.rs: show_output_lets_commands_print).
        check: |v| {
            assert_eq!(v, "/dev/null");
            assert!(!run(&["true"]).plan.show_output);
        },
    },
    Stated {
        flag: "shell",
        before: "(default: ",
        after: ";",
        check: |v| assert_eq!(run(&["a 'b c'"]), run(&["--shell", v, "a 'b c'"])),
    },
    Stated {
        flag: "order",
        before: "",
        after: " (shuffled rounds, the default)",
        check: |v| assert_eq!(run(&["true"]), run(&["--order", v, "true"])),
    },
    Stated {
        flag: "summary",
        before: "Print the per-command ",
        after: " (default;",
        check: |v| assert_eq!(run(&["true"]), run(&[&format!("--{v}"), "true"])),
    },
    Stated {
        flag: "no-stats",
        before: "Hyperfine's -N, ",
        after: ", is the default here)",
        check: |v| {
            assert_eq!(v, "no shell");
            let r = run(&["a 'b c'"]);
            assert_eq!(r.plan.commands[0].command.argv, ["a", "b c"]);
        },
    },
    Stated {
        flag: "ranking",
        before: "Print the ",
        after: " (default)",
        check: |v| assert_eq!(run(&["true"]), run(&[&format!("--{v}"), "true"])),
    },
    Stated {
        flag: "metric",
        before: "(default: ",
        after: ")",
        // Chosen from the data: the first name when a command mostly waits
        // for something other than a CPU, else the second.
        check: |v| {
            let (waits, busy) = (v.split_once(" if a command mostly waits, else "))
                .expect("NAME if a command mostly waits, else NAME");
            for output in [run(&["true"]).output, report(&["a.csv"]).output] {
                assert_eq!(output.ranking.metric_from, MetricFrom::Auto);
            }
            let metric = |name: &str| resolve_metric(name, &Catalogue::new()).unwrap();
            // Ten runs a microsecond apart: whole µs, no coarser tick.
            let spending = |wall: f64, cpu: f64| {
                let runs = (0..10).map(|i| RunTimes {
                    wall: Some(wall + f64::from(i)),
                    cpu: Some(cpu + f64::from(i)),
                    delay: Some(0.0),
                });
                Spending::of_runs(&[runs.collect()])
            };
            // A sleep: 100 ms of wall time, 1 ms on a CPU.
            assert_eq!(
                choose_from(&spending(100_321.0, 1_234.0), None).metric,
                metric(waits)
            );
            // A loop: its wall time on a CPU.
            assert_eq!(
                choose_from(&spending(100_321.0, 98_765.0), None).metric,
                metric(busy)
            );
        },
    },
    Stated {
        flag: "history",
        before: "default $",
        after: ")",
        // Setting a variable would race with other tests: the store a
        // variable names is checked in tests/history_cli.rs; here, the
        // variable the help names is the one read, and the file without it.
        check: |v| {
            let (variable, file) = v.split_once(", else ").expect("a variable, else a file");
            assert_eq!(file, DEFAULT_STORE);
            match std::env::var(variable).ok().filter(|s| !s.is_empty()) {
                Some(named) => assert_eq!(Location::resolve(None), Location::parse(&named)),
                None => {
                    let Location::Sqlite(path) = Location::resolve(None) else {
                        panic!("the default store is not a file");
                    };
                    assert!(path.ends_with(file), "{path}");
                }
            }
        },
    },
    Stated {
        flag: "commit",
        before: "(default: git's ",
        after: ")",
        check: |v| {
            let given = GitState::current(Some(v), None);
            assert_eq!(GitState::current(None, None).commit, given.commit);
        },
    },
    Stated {
        flag: "branch",
        before: "(default: ",
        after: ")",
        check: |v| {
            assert_eq!(v, "git's");
            // The branch as another git command names it.
            let head = Command::new("git")
                .args(["symbolic-ref", "--short", "-q", "HEAD"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
            assert_eq!(GitState::current(None, None).branch, head);
        },
    },
    Stated {
        flag: "json-runs",
        before: "Runs in --export-json: ",
        after: " (default)",
        check: |v| {
            let export = ["--export-json", "out.json"];
            assert_eq!(
                run(&[export[0], export[1], "true"]),
                run(&[export[0], export[1], "--json-runs", v, "true"])
            );
        },
    },
    Stated {
        flag: "action",
        before: "",
        after: " (default for bestguess)",
        check: |v| assert_eq!(config(&["true"], true), config(&["-A", v, "true"], true)),
    },
    Stated {
        flag: "action",
        before: " or ",
        after: " (default for bestreport)",
        check: |v| {
            assert_eq!(
                config(&["a.csv"], false),
                config(&["-A", v, "a.csv"], false)
            );
        },
    },
];

fn config(args: &[&str], running: bool) -> Config {
    let parsed = super::super::args::parse(args.iter().map(OsString::from), running);
    build(parsed.unwrap(), running).unwrap()
}

fn run(args: &[&str]) -> RunConfig {
    match config(args, true) {
        Config::Run(r) => *r,
        other => panic!("{args:?} is not a run: {other:?}"),
    }
}

fn report(args: &[&str]) -> ReportConfig {
    match config(args, false) {
        Config::Report(r) => r,
        other => panic!("{args:?} is not a report: {other:?}"),
    }
}

fn rule(args: &[&str]) -> StoppingRule {
    run(args)
        .output
        .ranking
        .adaptive
        .expect("auto is the default")
}

/// The value between `before` and `after` in `help`, where the two
/// together mention the default.
fn value<'a>(help: &'a str, s: &Stated) -> &'a str {
    let start = help
        .find(s.before)
        .unwrap_or_else(|| panic!("--{}: no {:?} in {help:?}", s.flag, s.before))
        + s.before.len();
    let rest = &help[start..];
    let end = rest
        .find(s.after)
        .unwrap_or_else(|| panic!("--{}: no {:?} in {rest:?}", s.flag, s.after));
    let stated = &rest[..end];
    let around = format!("{}{stated}{}", s.before, s.after);
    assert!(around.contains("default"), "--{}: {around:?}", s.flag);
    stated
}

fn help(flag: &str) -> &'static str {
    let f = all().iter().find(|f| f.long == flag);
    f.unwrap_or_else(|| panic!("no --{flag}")).help.as_ref()
}

#[test]
fn every_stated_default_is_checked() {
    for f in all() {
        let mentions = f.help.to_lowercase().matches("default").count();
        let entries = STATED.iter().filter(|s| s.flag == f.long).count();
        assert_eq!(
            mentions, entries,
            "--{} states {mentions} default(s) and {entries} are checked: {:?}",
            f.long, f.help
        );
    }
}

#[test]
fn every_stated_default_is_the_codes() {
    for s in STATED {
        let v = value(help(s.flag), s);
        assert!(!v.is_empty(), "--{}: no value", s.flag);
        // Names the flag above a failed check's message.
        eprintln!("--{}: default {v:?}", s.flag);
        (s.check)(v);
    }
}

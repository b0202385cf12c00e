//! The time-order diagnostics through the real `bestreport`: the drift
//! warning on a fixture with a trend, on one without, and on a step
//! between sequential order's mirrored blocks, the best-case
//! stability warning on a fixture whose fastest runs jump halfway, and the
//! best case in `-T` and the JSON export.
//!
//! The fixtures (`tools/make_drift_fixtures.py`) store their rows shuffled,
//! so only the Sequence column says when each run happened.

use serde_json::Value;

mod support;

use support::fixture;

/// `bestreport ARGS… FIXTURE`: (stdout, stderr), status 0 expected.
fn report(args: &[&str], name: &str) -> (String, String) {
    let out = support::bestreport()
        .args(args)
        .arg(fixture(name))
        .assert()
        .success()
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Each warning whole: its continuation lines (wrapped at the report's
/// width, indented two spaces) joined to it.
fn warnings(stderr: &str) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    let mut inside = false;
    for line in stderr.lines() {
        if line.starts_with("Warning:") {
            all.push(line.to_owned());
            inside = true;
        } else if let (true, Some(more), Some(last)) =
            (inside, line.strip_prefix("  "), all.last_mut())
        {
            last.push(' ');
            last.push_str(more);
        } else {
            inside = false;
        }
    }
    all
}

#[test]
fn steady_data_give_no_warning() {
    let (_, stderr) = report(&[], "steady.csv");
    assert_eq!(warnings(&stderr), Vec::<String>::new(), "{stderr}");
}

#[test]
fn a_trend_is_reported_for_each_command_that_slowed_down() {
    // Printed: one warning for the experiment, naming both commands, how
    // much and what to do (the fixture has no complete rounds).
    let (_, stderr) = report(&[], "drift.csv");
    let w = warnings(&stderr);
    assert_eq!(w.len(), 1, "{stderr}");
    assert!(
        w[0].starts_with(
            "Warning: commands 1 and 2 changed speed by +14.4 % and +13.7 % from the first half"
        ) && w[0].contains("--order random"),
        "{}",
        w[0]
    );
    assert!(stderr.lines().count() <= 2, "{stderr}");
    // In -E, each command's own trend in full.
    let (_, stderr) = report(&["-E"], "drift.csv");
    let w = warnings(&stderr);
    let speed: Vec<&String> = w.iter().filter(|l| l.contains("got slower")).collect();
    assert_eq!(speed.len(), 2, "{stderr}");
    assert!(speed[0].starts_with("Warning: command 1 (work --size 10) got slower"));
    assert!(speed[1].starts_with("Warning: command 2 (work --size 12) got slower"));
    assert!(
        speed[0].contains("Mann-Kendall"),
        "the test is named: {}",
        speed[0]
    );
}

#[test]
fn a_jump_of_the_fastest_runs_is_one_plain_warning() {
    // A detail: -E says it; the plain run only that the speed changed.
    let (_, plain) = report(&[], "step.csv");
    assert!(!plain.contains("best-case performance"), "{plain}");
    let (_, stderr) = report(&["-E"], "step.csv");
    let best: Vec<String> = warnings(&stderr)
        .into_iter()
        .filter(|l| l.contains("best-case performance"))
        .collect();
    assert_eq!(
        best.len(),
        1,
        "only the command that jumped is named: {stderr}"
    );
    assert!(best[0].starts_with(
        "Warning: the best-case performance of command 1 (work --size 10) changed during the experiment"
    ));
    // A threshold beyond the observed distance makes it stable.
    let (_, lenient) = report(&["-E", "-c", "sigma=100"], "step.csv");
    assert!(!lenient.contains("best-case performance"), "{lenient}");
}

#[test]
fn a_step_between_mirrored_sequential_blocks_shows_in_the_first_commands_runs() {
    // Identical commands, A B A, the machine 10 % slower from B's first
    // run: in plain blocks B would just look slower; mirrored, A's own runs
    // changed, and the check says so.
    let (_, stderr) = report(&[], "mirrored_step.csv");
    let w = warnings(&stderr);
    assert!(
        w.iter()
            .any(|l| l.starts_with("Warning: command 1 (work 1) changed speed by +1")),
        "{stderr}"
    );
    assert!(
        !w.iter().any(|l| l.contains("command 2 (work 2) changed")),
        "{stderr}"
    );
}

#[test]
fn the_tail_table_shows_the_best_case() {
    let (stdout, _) = report(&["-QT", "-c", "best=4"], "step.csv");
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains("Best case")).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].contains("mean of the fastest 4 of each half"),
        "{}",
        lines[0]
    );
    assert!(stdout.contains("sd apart: unstable"), "{stdout}");
    assert!(stdout.contains("sd apart: stable"), "{stdout}");
}

#[test]
fn the_json_export_carries_best_case_and_trend() {
    let (stdout, _) = report(&["-Q", "--export-json", "-"], "step.csv");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let results = json["results"].as_array().unwrap();
    let b0 = &results[0]["bestguess"]["best_case"];
    let b1 = &results[1]["bestguess"]["best_case"];
    assert_eq!(b0["stable"], Value::Bool(false));
    assert_eq!(b1["stable"], Value::Bool(true));
    assert!(b0["distance"].as_f64().unwrap() > 9.0);
    for key in ["estimate", "error"] {
        assert!(b0[key].as_f64().unwrap() > 0.0, "{key}");
    }
    // Every warning in full, printed or a detail.
    let warnings = json["bestguess"]["warnings"].as_array().unwrap();
    let kinds: Vec<(&str, bool)> = warnings
        .iter()
        .map(|w| (w["kind"].as_str().unwrap(), w["printed"].as_bool().unwrap()))
        .collect();
    assert!(kinds.contains(&("best_case_changed", false)), "{kinds:?}");
    assert!(kinds.contains(&("order_drift", true)), "{kinds:?}");
    assert_eq!(json["bestguess"]["paired_by_round"], Value::Bool(false));
    let t0 = &results[0]["bestguess"]["trend"];
    assert_eq!(t0["speed_changed"], Value::Bool(true));
    assert!(t0["tau"].as_f64().unwrap() > 0.0);
}

#[test]
fn warnings_are_wrapped_at_the_report_width() {
    for width in ["60", "80"] {
        let (_, stderr) = report(&["-c", &format!("width={width}")], "drift.csv");
        let w: usize = width.parse().unwrap();
        assert!(!warnings(&stderr).is_empty(), "{stderr}");
        for line in stderr.lines() {
            assert!(line.chars().count() <= w, "wider than {w}: {line:?}");
        }
    }
}

/// Commands that mostly wait while CPU time ranks are named up to three,
/// then counted: 3,000 such commands listed would make one sentence of 80
/// lines.
#[test]
fn many_waiting_commands_are_counted_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    for (commands, said) in [
        (
            3,
            "Note: commands 1, 2 and 3 mostly wait (over half their wall time waiting, not for a CPU)",
        ),
        (40, "Note: 40 of the 40 commands mostly wait"),
    ] {
        let mut text = String::from(
            "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),\
             Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,\
             Wall clock (us),Total time (us),Total Context Switches\n",
        );
        for c in 0..commands {
            for r in 0..5 {
                let cpu = 1000 + 10 * c + r;
                text.push_str(&format!(
                    "c{c},,,{},0,{cpu},0,0,0,0,0,0,{},{cpu},0\n",
                    c + 1,
                    10 * cpu
                ));
            }
        }
        let path = dir.path().join(format!("{commands}.csv"));
        std::fs::write(&path, text).unwrap();
        let out = assert_cmd::Command::cargo_bin("bestreport")
            .unwrap()
            .args(["-c", "width=1024", "--metric", "cpu"])
            .arg(&path)
            .assert()
            .success()
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(said), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// One command whose speed changed halfway: the warning says what that
/// does to its median, and gives no order advice (one command has no
/// order to change, and `--order random` is the default).
#[test]
fn one_command_that_changed_speed_gets_no_order_advice() {
    let values: Vec<String> = (0..40)
        .map(|i| format!("{}us", if i < 20 { 1000 } else { 1500 } + i % 7))
        .collect();
    let script = format!("ls => user={}", values.join(","));
    let (status, _, err) = support::run_scripted(&script, &["-N", "-r", "40", "-w", "0", "ls"]);
    assert_eq!(status, 0, "{err}");
    let all = warnings(&err);
    assert!(
        all.iter().any(|w| w
            == "Warning: command 1 (ls) changed speed by +49.9 % from the first half of its runs to the second; its median mixes both speeds."),
        "{all:#?}"
    );
    assert!(!err.contains("--order"), "{err}");
}

//! The ranking's method through the binaries: verdicts on fixtures, the
//! order of the ranking, the reference, the default run order and what
//! `-E` says.
//!
//! Fixtures (tests/data/fixtures, written by tools/make_fixtures.py except
//! `ls_measured.csv`, measured with `bestguess -r 40 -o … ls "ls -la
//! /usr/lib"`):
//! * `fast_145.csv`: about 1.07 ms and 1.55 ms of CPU time (1.45×), 30
//!   random-order rounds. The C tool's absolute 500 µs threshold called
//!   it identical.
//! * `aa.csv`: one command measured twice (an A/A experiment), 30 rounds.
//! * `ticks.csv`, `ticks_sequential.csv`: an A/A experiment on a clock with
//!   100 µs ticks (about 1 ms of CPU time, six distinct values): 40
//!   random-order rounds, and 100 runs of each one after the other.
//! * `two_x_5_rounds.csv`, `two_x_6_rounds.csv`: 12 ms against 24 ms, five
//!   and six random-order rounds (too few to compare two medians at α).
//! * `ten_commands_10.csv`: ten commands in ten random-order rounds, nine
//!   of them 14× to 50× the fastest.
//! * `crash_best.csv`: 10 rounds of a command whose every run ended by
//!   signal 11 after about 55 μs against one that succeeds in about
//!   505 μs.
//!
//! And in tests/data/method (tools/make_method_fixtures.py, by independent
//! simulation): equal medians with different shapes, a 2 % difference
//! with different shapes, the same values in random rounds and in
//! sequential order, four commands one of which has 5 runs, four equally
//! slow commands, and an adaptive experiment with the verdicts its
//! simulated stopping rule reached.

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;

mod support;

use support::{bestguess, bestreport, c_tool, fixture, method};

fn stdout(args: &[&str], file: &PathBuf) -> String {
    let out = bestreport().args(args).arg(file).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn json(args: &[&str], file: &PathBuf) -> Value {
    let mut all = vec!["-Q", "--export-json", "-"];
    all.extend_from_slice(args);
    serde_json::from_str(&stdout(&all, file)).unwrap()
}

/// (command index, verdict, comparison) per result.
fn verdicts(doc: &Value) -> Vec<(usize, String, Value)> {
    doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let b = &r["bestguess"];
            (
                i,
                b["verdict"].as_str().unwrap().to_owned(),
                b["comparison"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_command_145_times_slower_is_slower_whatever_its_length() {
    let doc = json(&[], &fixture("fast_145.csv"));
    let v = verdicts(&doc);
    assert_eq!(v[0].1, "best");
    assert_eq!(v[1].1, "slower");
    let c = &v[1].2;
    let (ratio, low, high) = (
        c["ratio"].as_f64().unwrap(),
        c["ratio_ci_low"].as_f64().unwrap(),
        c["ratio_ci_high"].as_f64().unwrap(),
    );
    assert!(
        low > 1.2 && low < ratio && ratio < high && high < 1.7,
        "{c}"
    );
    assert_eq!(c["identical"], false);
    assert_eq!(c["analysis"], "rounds", "made in random-order rounds");
    // The C tool's absolute thresholds called it identical (Δ < 500 µs).
    let old = json(&["-c", "effect=500,epsilon=250"], &fixture("fast_145.csv"));
    assert_ne!(verdicts(&old)[1].1, "slower");
    // The same conclusion on real measurements of the two commands.
    assert_eq!(
        verdicts(&json(&[], &fixture("ls_measured.csv")))[1].1,
        "slower"
    );
    // The ranking shows the ratio with its interval.
    let text = stdout(&["-Q", "-R"], &fixture("fast_145.csv"));
    assert!(
        predicate::str::is_match(r"\+4\d\.\d % \[\+2\d\.\d %, \+5\d\.\d %\]")
            .unwrap()
            .eval(&text),
        "{text}"
    );
}

#[test]
fn an_aa_experiment_is_never_slower() {
    for args in [&[][..], &["-c", "effect=0,epsilon=0"][..]] {
        let v = verdicts(&json(args, &fixture("aa.csv")));
        assert!(
            v[1].1 == "equivalent" || v[1].1 == "inconclusive",
            "{args:?}: {}",
            v[1].1
        );
        assert_eq!(v[1].2["identical"], true);
    }
    // With a margin wider than the interval, the two are equivalent; so
    // are two experiments on 100 µs ticks, in rounds or not.
    for (args, file) in [
        (&["-c", "epsilon=20%"][..], "aa.csv"),
        (&["-c", "epsilon=10%"][..], "ticks.csv"),
        (&["-c", "epsilon=10%"][..], "ticks_sequential.csv"),
    ] {
        let v = verdicts(&json(args, &fixture(file)));
        assert_eq!(v[1].1, "equivalent", "{file}: {}", v[1].2);
    }
}

#[test]
fn a_ranking_shown_alone_says_which_commands_failed() {
    // Failed runs are ranked with the rest; `-R` and `-E` say so, never
    // crowning a command whose every run crashed without a word of it.
    let file = fixture("crash_best.csv");
    for args in [&["-Q", "-R"][..], &["-Q", "-E"], &[]] {
        let out = stdout(args, &file);
        let notes: Vec<&str> = out
            .lines()
            .filter(|l| {
                l.trim_start()
                    .starts_with("Note: ./crash: 10 of 10 runs failed")
            })
            .collect();
        assert_eq!(notes.len(), 1, "{args:?}: {out}");
        assert!(!out.contains("Note: ./ok"), "{args:?}: {out}");
    }
}

#[test]
fn slower_by_is_never_negative_under_the_best_and_follows_the_order() {
    for file in [
        fixture("fast_145.csv"),
        fixture("aa.csv"),
        fixture("many.csv"),
        fixture("identical.csv"),
        fixture("utf8.csv"),
        c_tool("rawps1.csv"),
        c_tool("rosie-grep-awk.csv"),
        c_tool("pi1.csv"),
        c_tool("farmboys.csv"),
    ] {
        let doc = json(&[], &file);
        let order: Vec<usize> = doc["bestguess"]["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        let v = verdicts(&doc);
        let median = |i: usize| {
            doc["results"][i]["bestguess"]["total_us"]["median"]
                .as_f64()
                .unwrap()
        };
        let best = median(order[0]);
        let mut last = best;
        for &i in &order[1..] {
            let c = &v[i].2;
            if c.is_null() {
                continue;
            }
            // The table's order is the medians' order.
            assert!(median(i) >= last, "{}: order", file.display());
            last = median(i);
            assert_ne!(v[i].1, "faster");
            if v[i].1 == "slower" {
                assert!(median(i) > best, "{}: {c}", file.display());
                assert!(c["ratio_ci_low"].as_f64().unwrap() > 1.01);
            }
        }
    }
}

#[test]
fn a_reference_is_chosen_by_number_or_by_name() {
    for reference in ["2", "ls -la /usr/lib"] {
        let doc = json(&["--reference", reference], &fixture("fast_145.csv"));
        assert_eq!(doc["bestguess"]["ranking"][0], 1, "{reference}");
        assert_eq!(doc["bestguess"]["reference_fixed"], true);
        assert_eq!(doc["bestguess"]["comparisons_family"], 1);
        let v = verdicts(&doc);
        assert_eq!((v[1].1.as_str(), v[0].1.as_str()), ("best", "faster"));
        assert!(v[0].2["ratio_ci_high"].as_f64().unwrap() < 0.8);
    }
    let text = stdout(
        &["-Q", "-R", "--reference", "ls -la /usr/lib"],
        &fixture("fast_145.csv"),
    );
    assert!(
        text.contains("compared with the reference, 1 faster"),
        "{text}"
    );
    // A usage error (status 1), as in bestguess and as --metric.
    bestreport()
        .args(["--reference", "9"])
        .arg(fixture("fast_145.csv"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "--reference 9: there are only 2 commands",
        ));
    bestreport()
        .args(["--reference", "nonesuch"])
        .arg(fixture("fast_145.csv"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("names no command"));
}

#[test]
fn explain_labels_its_p_values_and_marks_and_closes_the_table() {
    for file in [
        fixture("aa.csv"),
        fixture("identical.csv"),
        fixture("zeros.csv"),
        c_tool("rawps1.csv"),
    ] {
        let text = stdout(&["-Q", "-E"], &file);
        assert!(text.contains("p-value, raw"), "{text}");
        assert!(text.contains("p-value, adjusted"), "{text}");
        // The legend of ✗ where one is shown, and only there.
        let legend = "✗ marks a condition of a verdict";
        let marks = (text.lines())
            .filter(|l| l.contains('✗') && !l.contains(legend))
            .count();
        assert_eq!(text.contains(legend), marks > 0, "the legend of ✗: {text}");
        let rule = format!("  {}", "═".repeat(78));
        assert!(
            text.lines().any(|l| l == rule),
            "the table is closed: {text}"
        );
        // The raw p-value comes first, labelled; no unlabelled pair.
        assert!(!text.contains("p-value (adjusted)"));
        // Each ✗ on the ratio line is true of the interval beside it.
        for line in text
            .lines()
            .filter(|l| l.contains("round ratio") && l.contains('✗'))
        {
            let low = line.split('[').nth(1).unwrap().split(" %").next().unwrap();
            let low: f64 = low.trim_start_matches('+').parse().unwrap();
            assert!(low <= 1.0, "{line}");
        }
    }
    // The C tool's example, every command slower: no ✗, no legend; an
    // A/A: both.
    let marked = |file: &PathBuf| stdout(&["-Q", "-E"], file).contains('✗');
    assert!(!marked(&c_tool("rawps1.csv")));
    assert!(marked(&fixture("aa.csv")));
    // The defaults are shown.
    let text = stdout(&["-Q", "-E"], &fixture("aa.csv"));
    assert!(text.contains("effect   1% of reference"), "{text}");
    assert!(text.contains("epsilon  1% of reference"), "{text}");
}

#[test]
fn config_shows_the_defaults() {
    bestreport().arg("--config").assert().success().stdout(
        predicate::str::contains("effect = 1%")
            .and(predicate::str::contains("epsilon = 1%"))
            .and(predicate::str::contains("super").not())
            .and(predicate::str::contains("ref = the best")),
    );
    bestreport()
        .args(["--config", "--reference", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ref = 2"));
}

#[test]
fn by_default_commands_run_in_random_rounds() {
    let out = bestguess()
        .args(["-r", "8", "true", "pwd"])
        .assert()
        .success()
        .stderr(predicate::str::is_match("Random order, seed [0-9]+").unwrap());
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("Ratio of medians, 8 rounds"), "{text}");
    let out = bestguess()
        .args(["-r", "8", "--order", "sequential", "true", "pwd"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("independent samples"), "{text}");
}

/// Rounds are made only of runs of one experiment. Two experiments, in
/// two files or one after the other in one file, each number their runs
/// from 1: those numbers do not make rounds of runs made apart (the same
/// file read twice is not "paired by round").
#[test]
fn runs_of_separate_experiments_are_never_paired() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args(["-Q", "-r", "8", "-o"])
        .arg(&raw)
        .args(["true", "pwd"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&raw).unwrap();
    let twice = dir.path().join("twice.csv");
    std::fs::write(&twice, format!("{text}{text}")).unwrap();
    let analysis = |files: &[&std::path::Path]| {
        let out = bestreport().args(files).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let one = analysis(&[raw.as_path()]);
    assert!(one.contains("Ratio of medians, 8 rounds"), "{one}");
    let (raw, twice) = (raw.as_path(), twice.as_path());
    for files in [&[raw, raw][..], &[twice][..]] {
        let text = analysis(files);
        assert!(text.contains("independent samples"), "{files:?}: {text}");
        assert!(!text.contains("8 rounds"), "{files:?}: {text}");
    }
    // And the report tells the two experiments' commands apart, numbering
    // only groups that hold runs (a header right after a header, as from
    // a file whose experiment stopped before its first run, is none).
    let text = std::fs::read_to_string(raw).unwrap();
    let header = text.lines().next().unwrap();
    let padded = dir.path().join("padded.csv");
    std::fs::write(&padded, format!("{header}\n{text}{header}\n{text}")).unwrap();
    for file in [twice, padded.as_path()] {
        let report = analysis(&[file]);
        for label in [
            "true [group 1]",
            "pwd [group 1]",
            "true [group 2]",
            "pwd [group 2]",
        ] {
            assert!(report.contains(label), "{label}: {report}");
        }
        assert!(!report.contains("group 3"), "{report}");
    }
    // Through a JSON export and back, in every layout that reads back:
    // the experiments stay apart (`bestguess.source.group`, the file).
    for files in [&[twice][..], &[raw, raw][..]] {
        for layouts in ["bestguess", "all", "hyperfine2"] {
            let json = dir.path().join("back.json");
            bestreport()
                .args(["-Q", "--json-runs", layouts, "--export-json"])
                .arg(&json)
                .args(files)
                .assert()
                .success();
            let report = analysis(&[json.as_path()]);
            assert!(
                report.contains("independent samples"),
                "{files:?} {layouts}: {report}"
            );
            assert!(
                !report.contains("8 rounds"),
                "{files:?} {layouts}: {report}"
            );
        }
    }
}

#[test]
fn too_few_runs_are_not_compared_and_say_how_many_would() {
    // Two medians, each bounded at α/4 a side, need 2⁻ⁿ ≤ 0.0125: seven
    // runs of each. Five or six rounds of a doubling decide nothing and
    // claim no confidence (never 100 %).
    for file in ["two_x_5_rounds.csv", "two_x_6_rounds.csv"] {
        let doc = json(&[], &fixture(file));
        let v = verdicts(&doc);
        assert_eq!(v[1].1, "not_compared", "{file}");
        assert!(v[1].2.is_null(), "{file}");
        let top = &doc["bestguess"];
        assert_eq!(top["inference"], false, "{file}");
        assert_eq!(top["confidence_each"], Value::Null, "{file}");
        assert_eq!(top["simultaneous_confidence"], Value::Null, "{file}");
        assert_eq!(top["min_runs_for_inference"], 7, "{file}");
        assert_eq!(doc["results"][1]["bestguess"]["runs_needed"], 7, "{file}");
        let text = stdout(&["-Q", "-R"], &fixture(file));
        assert!(
            text.contains("Too few timed runs to rank: needs 7 of each"),
            "{text}"
        );
    }
    // At α = 0.2 (0.05 a side), five rounds are enough.
    let doc = json(&["-c", "alpha=0.2"], &fixture("two_x_5_rounds.csv"));
    let (_, verdict, c) = &verdicts(&doc)[1];
    assert_eq!(verdict, "slower", "{c}");
    // Both medians at their extremes: 1 − 4 · 2⁻⁵ together.
    assert_eq!(c["ci_confidence"].as_f64(), Some(1.0 - 4.0 / 32.0));
}

/// (verdict, ratio, low, high) of command `i`'s comparison.
fn ratio_of(doc: &Value, i: usize) -> (String, f64, f64, f64) {
    let b = &doc["results"][i]["bestguess"];
    let c = &b["comparison"];
    let num = |k: &str| c[k].as_f64().unwrap_or(f64::NAN);
    (
        b["verdict"].as_str().unwrap().to_owned(),
        num("ratio"),
        num("ratio_ci_low"),
        num("ratio_ci_high"),
    )
}

#[test]
fn equal_medians_with_different_shapes_are_not_slower() {
    // A lognormal and a shifted exponential of equal medians, 300 random
    // rounds: their within-round ratios have a median of 1.013 here
    // (1.017 in the population), which the sign test's interval would
    // bound and call "slower"; the ratio of
    // medians is 1, inside the interval, and nothing is slower.
    let doc = json(&[], &method("equal_medians.csv"));
    let v = verdicts(&doc);
    assert!(v.iter().all(|(_, verdict, _)| verdict != "slower"), "{v:?}");
    let other = v
        .iter()
        .position(|(_, verdict, _)| verdict != "best")
        .unwrap();
    let (_, ratio, low, high) = ratio_of(&doc, other);
    assert!(low <= 1.0 && 1.0 <= high, "{low} {high}");
    assert!(low <= ratio && ratio <= high);
    assert_eq!(doc["bestguess"]["estimand"], "ratio_of_medians");
}

#[test]
fn a_two_percent_difference_with_different_shapes_is_not_equivalent() {
    // A steady command and one sometimes slow, exactly 2 % apart at the
    // median, 1,500 random rounds: the interval excludes ±1 %.
    let doc = json(&[], &method("two_percent.csv"));
    let (verdict, ratio, low, high) = ratio_of(&doc, 1);
    assert_ne!(verdict, "equivalent");
    assert!(
        low > 1.0 / 1.01 && low <= 1.02 && 1.02 <= high,
        "{low} {high}"
    );
    assert!(low <= ratio && ratio <= high);
}

#[test]
fn the_same_values_give_the_same_verdict_in_both_orders() {
    let rounds = json(&[], &method("same_values_rounds.csv"));
    let sequential = json(&[], &method("same_values_sequential.csv"));
    assert_eq!(rounds["bestguess"]["analysis"], "rounds");
    assert_eq!(sequential["bestguess"]["analysis"], "independent");
    for i in 0..2 {
        assert_eq!(ratio_of(&rounds, i).0, ratio_of(&sequential, i).0);
        let strip = |doc: &Value| {
            let mut c = doc["results"][i]["bestguess"]["comparison"].clone();
            if let Some(c) = c.as_object_mut() {
                c.remove("analysis");
                c.remove("rounds");
            }
            c
        };
        assert_eq!(strip(&rounds), strip(&sequential), "command {i}");
    }
}

#[test]
fn a_command_with_five_runs_is_not_compared_and_the_others_are_decided() {
    // 49, 5, 400 and 150 runs: four medians need 8 runs each, three need
    // 7. The 5-run command is left out; the others, 42× and 48× the best,
    // are slower.
    let doc = json(&[], &method("five_run_one.csv"));
    let v = verdicts(&doc);
    let word = |i: usize| v[i].1.as_str();
    assert_eq!(
        [word(0), word(1), word(2), word(3)],
        ["best", "not_compared", "slower", "slower"]
    );
    assert_eq!(doc["results"][1]["bestguess"]["runs_needed"], 8);
    assert_eq!(doc["bestguess"]["comparisons_family"], 2);
    let text = stdout(&["-Q", "-R"], &method("five_run_one.csv"));
    assert!(text.contains("(not compared: n = 5)"), "{text}");
    assert!(text.contains("needs 8 runs of each"), "{text}");
}

#[test]
fn four_equally_slow_commands_are_each_slower() {
    let doc = json(&[], &method("four_equally_slow.csv"));
    let v = verdicts(&doc);
    assert_eq!(v[0].1, "best");
    for (i, verdict, c) in &v[1..] {
        assert_eq!(verdict, "slower", "command {}: {c}", i + 1);
    }
}

#[test]
fn an_adaptive_raw_file_is_reported_as_its_experiment_decided() {
    let file = method("adaptive.csv");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(method("adaptive.json")).unwrap()).unwrap();
    let doc = json(&[], &file);
    let got: Vec<String> = verdicts(&doc).into_iter().map(|(_, v, _)| v).collect();
    let want: Vec<String> = (expected["verdicts"].as_array().unwrap().iter())
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, want);
    let look = &doc["bestguess"]["settings"]["look"];
    assert_eq!(look["rounds"], expected["rounds"]);
    assert_eq!(look["index"], expected["look"]);
    assert_eq!(look["decided"], true);
    let alpha = look["alpha"].as_f64().unwrap();
    assert!((alpha - expected["alpha"].as_f64().unwrap()).abs() < 1e-15);
    // As a fixed count on request, with a note.
    let out = bestreport()
        .args(["-R", "--runs", "fixed"])
        .arg(&file)
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("--runs fixed analyses them as a fixed count"),
        "{stderr}"
    );
}

#[test]
fn ten_commands_in_ten_rounds_far_apart_are_all_slower() {
    let file = fixture("ten_commands_10.csv");
    let doc = json(&[], &file);
    let v = verdicts(&doc);
    assert_eq!(v[0].1, "best");
    for (i, verdict, c) in &v[1..] {
        assert_eq!(verdict, "slower", "command {}: {c}", i + 1);
        // Ten medians, each bound at α/20 or better: each interval of a
        // ratio at 1 − 0.05/5 or better.
        assert!(c["ci_confidence"].as_f64().unwrap() >= 1.0 - 0.05 / 5.0);
    }
    assert_eq!(doc["bestguess"]["comparisons_family"], 9);
    let family = doc["bestguess"]["simultaneous_confidence"]
        .as_f64()
        .unwrap();
    assert!((0.95..1.0).contains(&family), "{family}");
}

#[test]
fn the_same_data_with_and_without_the_reference_agree() {
    for file in [
        fixture("ten_commands_10.csv"),
        fixture("fast_145.csv"),
        fixture("aa.csv"),
        fixture("many.csv"),
        c_tool("rawps1.csv"),
        c_tool("pi1.csv"),
    ] {
        let chosen = json(&[], &file);
        let best = chosen["bestguess"]["ranking"][0].as_u64().unwrap() + 1;
        let fixed = json(&["--reference", &best.to_string()], &file);
        assert_eq!(fixed["bestguess"]["reference_fixed"], true);
        let strip = |doc: &Value| -> Vec<(String, Value)> {
            verdicts(doc).into_iter().map(|(_, v, c)| (v, c)).collect()
        };
        assert_eq!(strip(&chosen), strip(&fixed), "{}", file.display());
    }
}

#[test]
fn no_confidence_is_ever_one() {
    for file in [
        fixture("two_x_6_rounds.csv"),
        fixture("ten_commands_10.csv"),
        fixture("zeros.csv"),
        fixture("identical.csv"),
        fixture("ticks.csv"),
        c_tool("rawps1.csv"),
    ] {
        let doc = json(&[], &file);
        for (_, _, c) in verdicts(&doc) {
            if c.is_null() {
                continue;
            }
            for key in ["ci_confidence", "ci_low_confidence", "ci_high_confidence"] {
                let Some(level) = c[key].as_f64() else {
                    continue;
                };
                assert!(level < 1.0, "{}: {key} {c}", file.display());
            }
        }
        let text = stdout(&["-Q", "-E"], &file);
        assert!(!text.contains("100.0"), "{}: {text}", file.display());
    }
}

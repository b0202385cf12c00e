//! One level for the same verdicts, stated in the same words by every
//! output of one experiment: the terminal's ranking, `-E`, the Markdown,
//! AsciiDoc, Org-mode and HTML exports say "95% simultaneous" and no
//! other level of the verdicts' intervals; the JSON's `confidence` is
//! 0.95 (docs/statistics.md, "The level"). Checked on three commands in
//! a fixed count, whose comparisons' own levels differ from the family's,
//! and on an adaptive experiment, whose last look has a level of its own.

use std::path::Path;

mod support;

/// Every output of `bestreport` on `file` (with `extra` options): name
/// and text.
fn outputs(file: &Path, extra: &[&str]) -> Vec<(&'static str, String)> {
    let dir = support::tmp();
    let run = |args: &[&str]| -> String {
        let out = support::bestreport()
            .args(args)
            .args(extra)
            .arg(file)
            .current_dir(dir.path())
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let mut all = vec![("terminal", run(&[])), ("-E", run(&["-Q", "-E"]))];
    let exports = [
        ("markdown", "--export-markdown", "out.md"),
        ("asciidoc", "--export-asciidoc", "out.adoc"),
        ("orgmode", "--export-orgmode", "out.org"),
        ("html", "--export-html", "out.html"),
        ("json", "--export-json", "out.json"),
    ];
    let mut args = vec!["-Q"];
    for (_, option, name) in exports {
        args.extend([option, name]);
    }
    run(&args);
    for (format, _, name) in exports {
        all.push((
            format,
            std::fs::read_to_string(dir.path().join(name)).unwrap(),
        ));
    }
    all
}

/// Every `N%` or `N.N%` immediately before ` simultaneous`.
fn levels(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("% simultaneous") {
        let number: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        found.push(format!("{number}%"));
    }
    found
}

fn check(file: &Path, extra: &[&str]) {
    for (name, text) in outputs(file, extra) {
        if name == "json" {
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            let b = &doc["bestguess"];
            assert_eq!(b["confidence"], 0.95, "{}", b);
            // The comparisons' own levels are another figure, documented
            // as such: the test has teeth only where they differ.
            let own = b["simultaneous_confidence"].as_f64().unwrap();
            assert!(own > 0.95 && own < 1.0, "{own}");
            continue;
        }
        let found = levels(&text);
        assert!(!found.is_empty(), "{name}: no level stated:\n{text}");
        assert!(
            found.iter().all(|l| l == "95%"),
            "{name}: {found:?}\n{text}"
        );
        // No second level of the same verdicts, in any earlier wording.
        for other in [" together", "% confidence", "(bounds ", "each at "] {
            assert!(!text.contains(other), "{name}: {other:?} in\n{text}");
        }
    }
}

#[test]
fn every_output_states_the_same_level_in_the_same_words() {
    check(
        &support::data("reading", "reference_faster.csv"),
        &["--reference", "1"],
    );
    check(&support::method("adaptive.csv"), &[]);
}

/// The reports' sentences follow from the JSON as docs/JSON.md ("The
/// reports' sentences, from the document") says: each change and its
/// interval from `ratio` and its bounds, an open comparison's words from
/// the bounds, one command's interval and precision from
/// `median_interval`.
#[test]
fn the_reports_sentences_follow_from_the_json() {
    let pct = |r: f64| format!("{:+.1} %", (r - 1.0) * 100.0);
    let abs = |r: f64| format!("{:.1} %", ((r - 1.0) * 100.0).abs());
    for (file, extra) in [
        (
            support::data("reading", "reference_faster.csv"),
            &["--reference", "1"][..],
        ),
        (
            support::data("reading", "near_reference.csv"),
            &["--reference", "1"],
        ),
        (support::fixture("aa.csv"), &[]),
        (support::data("reading", "one_command.csv"), &[]),
    ] {
        let all = outputs(&file, extra);
        let text = |name: &str| {
            let t = &all.iter().find(|(n, _)| *n == name).unwrap().1;
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let doc: serde_json::Value = serde_json::from_str(&text("json")).unwrap();
        let terminal = text("terminal");
        let metric = doc["bestguess"]["ranked_metric"]
            .as_str()
            .unwrap()
            .to_owned();
        let results = doc["results"].as_array().unwrap();
        if results.len() == 1 {
            let b = &results[0]["bestguess"];
            let i = &b["median_interval"];
            let median = b[&metric]["median"].as_f64().unwrap();
            let (low, high) = (i["low"].as_f64().unwrap(), i["high"].as_f64().unwrap());
            let within = (median - low).max(high - median) / median * 100.0;
            let said = format!(
                "median {:.2} [{:.2}, {:.2}] ms, 95% simultaneous (within ±{within:.1} %)",
                median / 1000.0,
                low / 1000.0,
                high / 1000.0
            );
            assert!(terminal.contains(&said), "{said}\n{terminal}");
            continue;
        }
        let mut compared = 0;
        for r in results {
            let c = &r["bestguess"]["comparison"];
            let Some(ratio) = c["ratio"].as_f64() else {
                continue;
            };
            compared += 1;
            let (low, high) = (
                c["ratio_ci_low"].as_f64().unwrap(),
                c["ratio_ci_high"].as_f64().unwrap(),
            );
            let said = format!("{} [{}, {}]", pct(ratio), pct(low), pct(high));
            for name in ["terminal", "markdown"] {
                assert!(text(name).contains(&said), "{name}: {said}\n{}", text(name));
            }
            if c["verdict"] == "inconclusive" && low < 1.0 && high > 1.0 {
                let words = format!(
                    "no more than {} slower, no more than {} faster",
                    abs(high),
                    abs(low)
                );
                for name in ["terminal", "markdown"] {
                    assert!(text(name).contains(&words), "{name}: {words}");
                }
            }
        }
        assert!(compared > 0, "{}", file.display());
    }
}

/// The `--baseline` table states its intervals' level in the same words:
/// each pair at α/m, all m holding together at 1 − α.
#[test]
fn the_baseline_table_states_the_same_level() {
    let out = support::bestreport()
        .args(["-Q", "--baseline"])
        .arg(support::fixture("gate_baseline.csv"))
        .arg(support::fixture("gate_slower.csv"))
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(levels(&text), ["95%"], "{text}");
    for other in [" each", "% confidence", " together"] {
        assert!(!text.contains(other), "{other:?} in\n{text}");
    }
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("+0.3% [-5.0%, +4.5%] inconclusive no more than 4.5 % slower, no more than 5.0 % faster"),
        "{text}"
    );
}

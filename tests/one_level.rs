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

//! Layouts that depend on the width, pinned by snapshots at 60, 80 and 120
//! columns: the `--baseline` table with a name longer than its column
//! (never cut: on a line of its own above its row).

use std::path::Path;

mod support;

use support::fixture;

/// `bestreport` run in `dir` at `columns` columns: its standard output.
fn report_at(dir: &Path, columns: usize, args: &[&str]) -> String {
    let out = support::bestreport()
        .args(args)
        .current_dir(dir)
        .env("COLUMNS", columns.to_string())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_baseline_table_keeps_long_names_whole() {
    let dir = tempfile::tempdir().unwrap();
    let long = "\"./parse --input big-document.json --validate\"";
    for (from, to) in [
        ("gate_baseline.csv", "base.csv"),
        ("gate_slower.csv", "new.csv"),
    ] {
        let text = std::fs::read_to_string(fixture(from))
            .unwrap()
            .replace("\"parse\"", long);
        std::fs::write(dir.path().join(to), text).unwrap();
    }
    for columns in [60, 80, 120] {
        let text = report_at(
            dir.path(),
            columns,
            &["-Q", "--baseline", "base.csv", "new.csv"],
        );
        for line in text.lines() {
            assert!(line.chars().count() <= columns, "{columns}: {line}");
        }
        assert!(
            text.contains("./parse --input big-document.json --validate"),
            "{columns}: cut:\n{text}"
        );
        insta::assert_snapshot!(format!("baseline_long_names_{columns}"), text);
    }
}

/// Every compared row's signed change (the line under it) goes the way
/// the header above it says: `+` under "Slower by", `-` under "Faster
/// by" (`±` under either), and the rows are in the order of their
/// changes, from the most faster to the most slower. Returns the headers
/// seen, in order.
fn directions_agree(text: &str) -> Vec<&'static str> {
    let mut headers = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for line in text.lines() {
        if line.contains("═ Slower by ═") {
            headers.push("Slower by");
        } else if line.contains("═ Faster by ═") {
            headers.push("Faster by");
        }
        let change = line.trim_start();
        let sign = change.chars().next();
        let is_change = line.starts_with("     ")
            && change.contains(" % [")
            && matches!(sign, Some('+' | '-' | '±'));
        if is_change {
            let estimate: f64 = change
                .split(" %")
                .next()
                .unwrap()
                .trim_start_matches('±')
                .parse()
                .unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(estimate >= last, "rows out of order at {line}\n{text}");
            last = estimate;
            let under = headers.last().copied();
            match sign {
                Some('+') => assert_eq!(under, Some("Slower by"), "{line}\n{text}"),
                Some('-') => assert_eq!(under, Some("Faster by"), "{line}\n{text}"),
                _ => {}
            }
        }
    }
    headers
}

/// What a ranking says at 60, 80 and 120 columns when a row is negative,
/// a command is faster than the given reference, an A/A test is open,
/// one command is alone, and a budget ends an adaptive experiment.
#[test]
fn what_a_ranking_says_reads_the_same_at_every_width() {
    let cases: [(&str, &str, &str, &[&str]); 5] = [
        (
            "negative_row",
            "reading",
            "near_reference.csv",
            &["--reference", "1"],
        ),
        (
            "reference_faster",
            "reading",
            "reference_faster.csv",
            &["--reference", "1"],
        ),
        ("aa_open", "fixtures", "aa.csv", &[]),
        ("one_command", "reading", "one_command.csv", &[]),
        ("budget_stop", "reading", "budget_stop.csv", &[]),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, folder, file, extra) in cases {
        let path = support::data(folder, file);
        let path = path.to_str().unwrap();
        for columns in [60, 80, 120] {
            let mut args = vec!["-Q", "-R"];
            args.extend_from_slice(extra);
            args.push(path);
            let text = report_at(dir.path(), columns, &args);
            for line in text.lines() {
                assert!(line.chars().count() <= columns, "{name} {columns}: {line}");
            }
            let headers = directions_agree(&text);
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match name {
                "negative_row" => {
                    assert_eq!(headers, ["Faster by"], "{text}");
                    assert!(words.contains("-0.2 % [-2.7 %, +2.3 %]"), "{text}");
                    assert!(
                        words.contains("no more than 2.3 % slower, no more than 2.7 % faster"),
                        "{text}"
                    );
                }
                "reference_faster" => {
                    assert_eq!(headers, ["Faster by", "Slower by"], "{text}");
                    assert!(words.contains("1 faster, 1 slower"), "{text}");
                }
                "aa_open" => assert!(
                    words.contains("no more than 15.4 % slower, no more than 7.8 % faster"),
                    "{text}"
                ),
                "one_command" => {
                    assert!(headers.is_empty(), "{text}");
                    assert!(
                        words.contains("One command: median 4.90 [4.82, 5.05] ms, 95% simultaneous (within ±3.1 %)."),
                        "{text}"
                    );
                }
                _ => {
                    assert!(
                        words.contains(
                            "--runs auto: budget reached after 50 rounds, 1 comparison open"
                        ),
                        "{text}"
                    );
                    assert!(!words.contains("decided"), "{text}");
                }
            }
            insta::assert_snapshot!(format!("reading_{name}_{columns}"), text);
        }
    }
}

/// Against every command as the reference, in files of 2 to 10 commands:
/// every row's change goes the way its header says, and the headers
/// turn at most once (faster rows first, then slower ones).
#[test]
fn every_row_goes_the_way_its_header_says_against_any_reference() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, file, commands) in [
        ("reading", "reference_faster.csv", 3),
        ("reading", "near_reference.csv", 2),
        ("fixtures", "fast_145.csv", 2),
        ("fixtures", "ten_commands_10.csv", 10),
        ("method", "adaptive.csv", 3),
        ("method", "four_equally_slow.csv", 5),
    ] {
        let path = support::data(folder, file);
        for reference in 1..=commands {
            let reference = reference.to_string();
            let args = [
                "-Q",
                "-R",
                "--reference",
                &reference,
                path.to_str().unwrap(),
            ];
            let text = report_at(dir.path(), 80, &args);
            let headers = directions_agree(&text);
            assert!(
                matches!(
                    headers.as_slice(),
                    ["Slower by"] | ["Faster by"] | ["Faster by", "Slower by"]
                ),
                "{file} --reference {reference}: {headers:?}\n{text}"
            );
        }
    }
}

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

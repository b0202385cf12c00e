//! Raw data CSV: C BestGuess's own files, round trips, leniency, and
//! every error case, through the public API of `bestguess::data`.
//!
//! Expected counts for the C BestGuess files are those of section 10 of the
//! behaviour document (`test/*.csv` of C BestGuess); the files are
//! copied verbatim into `tests/data/c_tool/`.

use std::io::Write;

use bestguess::data::{
    read_raw_csv, Catalogue, DataError, Dataset, Metric, RawCsvWriter, RowProblem, RunRecord,
};
use proptest::prelude::*;

mod support;

use support::{arg, c_tool};

fn read_c_tool(file: &str) -> Vec<RunRecord> {
    let bytes = std::fs::read(c_tool(file)).unwrap();
    read_raw_csv(&bytes[..], file).unwrap_or_else(|e| panic!("{e}"))
}

fn read_text(text: &str) -> Result<Vec<RunRecord>, DataError> {
    read_raw_csv(text.as_bytes(), "data.csv")
}

fn write_all(records: &[RunRecord]) -> Vec<u8> {
    let mut w = RawCsvWriter::new(Vec::new(), &Catalogue::new()).unwrap();
    for r in records {
        w.write_run(r).unwrap();
    }
    w.into_inner()
}

/// (label, runs) of each command, in order.
fn commands(d: &Dataset) -> Vec<(String, usize)> {
    d.commands
        .iter()
        .map(|c| (c.base_label().into_owned(), c.len()))
        .collect()
}

// ---------------------------------------------------------------------------
// C BestGuess's data files (behaviour document, section 10).

/// File, then (label, runs) for each command as section 10 describes them.
fn c_tool_files() -> Vec<(&'static str, Vec<(String, usize)>)> {
    let each = |labels: &[&str], n: usize| -> Vec<(String, usize)> {
        labels.iter().map(|l| (l.to_string(), n)).collect()
    };
    let pi = |scales: &[u32], n: usize| -> Vec<(String, usize)> {
        scales
            .iter()
            .map(|s| (format!("\"pi to {s} digits\""), n))
            .collect()
    };
    let ls_ps = ["ls -l", "ps Aux"];
    let mut files = vec![
        (
            "brandAB.csv",
            vec![("cmd1".into(), 11), ("cmd2".into(), 10)],
        ),
        (
            "farmboys.csv",
            vec![("farm".into(), 12), ("town".into(), 36)],
        ),
        ("minitab.csv", vec![("cmd1".into(), 5), ("cmd2".into(), 4)]),
        ("raw01.csv", each(&ls_ps, 1)),
        ("raw1.csv", each(&ls_ps, 5)),
        ("raw15.csv", each(&ls_ps, 15)),
        ("raw45.csv", each(&ls_ps, 45)),
        ("raw90.csv", each(&ls_ps, 90)),
        ("raw100.csv", each(&ls_ps, 100)),
        ("pi1.csv", pi(&[2000, 2500, 3000, 3500, 4000], 20)),
        ("pi2.csv", pi(&[2000, 2500, 3000, 3500, 4000], 20)),
        ("pi3.csv", pi(&[1500, 1750, 2000, 2250], 20)),
        ("pi4.csv", pi(&[1500, 1750, 2000, 2250], 50)),
        (
            "seconds.csv",
            each(
                &[
                    "find /usr/local -name rosie",
                    "find . -name bestguess",
                    "find /usr/local/lib -name rosie",
                ],
                10,
            ),
        ),
    ];
    for f in [
        "rawls1.csv",
        "rawls2.csv",
        "rawls3.csv",
        "rawls4.csv",
        "rawls5.csv",
    ] {
        files.push((f, each(&["ls", "ls -lar"], 200)));
    }
    for f in [
        "rawps1.csv",
        "rawps2.csv",
        "rawps3.csv",
        "rawps4.csv",
        "rawps5.csv",
    ] {
        files.push((f, each(&["ps Aux", "ps", "ps A"], 100)));
    }
    files
}

#[test]
fn every_c_tool_file_reads_with_the_documented_counts() {
    for (file, expected) in c_tool_files() {
        let d = Dataset::read_files(&[arg(c_tool(file))]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(commands(&d), expected, "{file}");
        let rows: usize = expected.iter().map(|(_, n)| n).sum();
        assert_eq!(d.run_count(), rows, "{file}");
    }
}

#[test]
fn rosie_grep_awk_unescapes_the_c_tool_backslashes() {
    let d = Dataset::read_files(&[arg(c_tool("rosie-grep-awk.csv"))]).unwrap();
    assert_eq!(d.run_count(), 300);
    assert_eq!(d.commands.len(), 3);
    assert!(d.commands.iter().all(|c| c.len() == 100));
    assert!(d.commands.iter().all(|c| c.shell == "/bin/bash -c"));
    let awk = &d.commands[0].command;
    // Written by C BestGuess as `\\.`: one backslash in the command.
    assert!(
        awk.starts_with(r"awk -F ',' '/208\.43\.117\.11/ {print $0}'"),
        "{awk}"
    );
    assert!(!awk.contains(r"\\"), "{awk}");
    assert!(d.commands[1].command.starts_with("grep '208.43.117.11'"));
    assert!(d.commands[2].command.starts_with("rosie match"));
}

#[test]
fn pi_rows_keep_shell_and_literal_quotes() {
    let runs = read_c_tool("pi1.csv");
    assert_eq!(runs.len(), 100);
    let first = &runs[0];
    assert_eq!(first.command, r#"bc -le "scale=2000;4*a(1)" >/dev/null"#);
    assert_eq!(first.shell, "/bin/bash -c");
    assert_eq!(first.name, r#""pi to 2000 digits""#);
    let int = |m| first.metrics.int(m).unwrap();
    assert_eq!(first.batch, 1);
    assert_eq!([Metric::USER, Metric::SYSTEM].map(int), [74006, 2059]);
    assert_eq!(
        [Metric::MAXRSS, Metric::MINOR_FAULTS, Metric::MAJOR_FAULTS].map(int),
        [1949696, 713, 4]
    );
    assert_eq!(
        [Metric::VOLUNTARY_CSW, Metric::INVOLUNTARY_CSW, Metric::WALL].map(int),
        [1, 8, 98916]
    );
    assert_eq!(first.sequence, None);
}

#[test]
fn hand_made_c_tool_files_keep_their_batch_numbers() {
    let d = Dataset::read_files(&[arg(c_tool("brandAB.csv"))]).unwrap();
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [12, 34]);
    // The textbook data: user time only.
    let cmd1 = d.commands[0].metric(Metric::TOTAL);
    assert_eq!(cmd1.len(), 11);
    assert!(cmd1.iter().all(|&t| (34_900.0..=38_800.0).contains(&t)));
    assert_eq!(d.commands[1].metric(Metric::SYSTEM), vec![0.0; 10]);
}

#[test]
fn c_tool_file_rewritten_by_us_reads_back_identically() {
    for file in ["raw1.csv", "pi1.csv", "rosie-grep-awk.csv", "brandAB.csv"] {
        let original = read_c_tool(file);
        let ours = write_all(&original);
        let again = read_raw_csv(&ours[..], "ours.csv").unwrap();
        assert_eq!(again, original, "{file}");
    }
}

#[test]
fn c_tool_row_rewritten_in_our_format() {
    let runs = read_c_tool("raw01.csv");
    let out = String::from_utf8(write_all(&runs)).unwrap();
    insta::assert_snapshot!(out, @r#"
    Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches,Sequence,Start time (us since epoch),Signal,Timed out,Run-queue delay (us)
    "ls -l","","",1,0,1582,4160,1851392,235,0,0,14,8818,5742,14,,,,0,
    "ps Aux","","",2,0,12454,43247,3342336,949,1,1,20,59539,55701,21,,,,0,
    "#);
}

// ---------------------------------------------------------------------------
// Grouping and several files.

#[test]
fn the_same_file_twice_is_four_commands() {
    let raw1 = arg(c_tool("raw1.csv"));
    let d = Dataset::read_files(&[raw1.clone(), raw1]).unwrap();
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [1, 2, 3, 4]);
    assert_eq!(
        commands(&d),
        [("ls -l", 5), ("ps Aux", 5), ("ls -l", 5), ("ps Aux", 5)].map(|(l, n)| (l.to_string(), n))
    );
    // Shown apart by their file's tag.
    let tags: Vec<&str> = d.commands.iter().map(|c| c.tag.as_str()).collect();
    assert_eq!(tags, ["raw1.csv", "raw1.csv", "raw1.csv#2", "raw1.csv#2"]);
    // Each run carries its command's offset batch.
    for c in &d.commands {
        assert!((0..c.len()).all(|i| c.record(i, &d.catalogue).batch == c.batch));
    }
}

#[test]
fn files_with_unrelated_batch_numbers_stay_apart() {
    let d = Dataset::read_files(&[
        arg(c_tool("brandAB.csv")),
        arg(c_tool("raw1.csv")),
        arg(c_tool("minitab.csv")),
    ])
    .unwrap();
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    // brandAB: 12, 34; raw1: 1, 2 offset by 34; minitab: 14, 55 offset by 36.
    assert_eq!(batches, [12, 34, 35, 36, 50, 91]);
    assert_eq!(d.run_count(), 21 + 10 + 9);
}

fn run(command: &str, batch: u64, sequence: u64) -> RunRecord {
    let mut r = RunRecord {
        command: command.into(),
        batch,
        sequence: Some(sequence),
        ..RunRecord::default()
    };
    for m in Catalogue::new().metrics() {
        r = r.with(m, 0);
    }
    r.with(Metric::USER, 100 * sequence as i64)
        .with(Metric::WALL, 150 * sequence as i64)
}

#[test]
fn an_interleaved_file_groups_by_batch() {
    let order = [("A", 1), ("B", 2), ("A", 1), ("B", 2), ("B", 2), ("A", 1)];
    let records: Vec<RunRecord> = order
        .iter()
        .enumerate()
        .map(|(i, &(c, b))| run(c, b, i as u64 + 1))
        .collect();
    let bytes = write_all(&records);
    let d = Dataset::from_records(read_raw_csv(&bytes[..], "x.csv").unwrap());
    assert_eq!(commands(&d), [("A".to_string(), 3), ("B".to_string(), 3)]);
    let seq = |i: usize| -> Vec<u64> {
        let c = &d.commands[i];
        (0..c.len()).map(|k| c.sequence(k).unwrap()).collect()
    };
    assert_eq!(seq(0), [1, 3, 6]);
    assert_eq!(seq(1), [2, 4, 5]);
    assert_eq!(d.commands[0].metric(Metric::USER), [100.0, 300.0, 600.0]);
}

#[test]
fn commands_appear_in_batch_order_whatever_ran_first() {
    // With --order random, command 2 may run first; it is still command 2.
    let records = vec![run("second", 2, 1), run("first", 1, 2), run("second", 2, 3)];
    let d = Dataset::from_records(records);
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [1, 2]);
}

// ---------------------------------------------------------------------------
// Leniency.

const RAW1_FIRST_ROWS: usize = 10;

#[test]
fn crlf_line_ends_are_accepted() {
    let text = std::fs::read_to_string(c_tool("raw1.csv")).unwrap();
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(read_text(&crlf).unwrap(), read_c_tool("raw1.csv"));
}

#[test]
fn missing_final_newline_is_accepted() {
    let text = std::fs::read_to_string(c_tool("raw1.csv")).unwrap();
    let cut = text.trim_end_matches('\n');
    let runs = read_text(cut).unwrap();
    assert_eq!(runs.len(), RAW1_FIRST_ROWS);
    assert_eq!(runs, read_c_tool("raw1.csv"));
    // Also for our own format, whose last field is Timed out.
    let ours = write_all(&[run("a", 1, 1), run("a", 1, 2)]);
    let cut = String::from_utf8(ours).unwrap().trim_end().to_owned();
    assert_eq!(read_text(&cut).unwrap().len(), 2);
}

#[test]
fn blank_lines_are_accepted_anywhere() {
    let text = std::fs::read_to_string(c_tool("raw1.csv")).unwrap();
    let mut spaced = String::from("\n");
    for line in text.lines() {
        spaced.push_str(line);
        spaced.push_str("\n\n  \t\n\r\n");
    }
    assert_eq!(read_text(&spaced).unwrap(), read_c_tool("raw1.csv"));
}

#[test]
fn extra_columns_are_ignored() {
    // After C BestGuess's 15 fields of a 13-field file...
    let text = std::fs::read_to_string(c_tool("raw01.csv")).unwrap();
    let mut wide = String::new();
    for (i, line) in text.lines().enumerate() {
        wide.push_str(line);
        wide.push_str(if i == 0 {
            ",Extra,More\n"
        } else {
            ",,,x,\"y,z\"\n"
        });
    }
    // (13 fields + 4 = 17: Total columns left empty, then two of ours)
    assert_eq!(read_text(&wide).unwrap(), read_c_tool("raw01.csv"));

    // ...and after ours.
    let records = vec![RunRecord {
        signal: Some(15),
        timed_out: true,
        exit_code: 143,
        ..run("a", 1, 1)
    }];
    let ours = String::from_utf8(write_all(&records)).unwrap();
    let mut wide = String::new();
    for (i, line) in ours.lines().enumerate() {
        wide.push_str(line);
        wide.push_str(if i == 0 {
            ",Host,Note\n"
        } else {
            ",\"box 1\",\"a, \"\"b\"\"\"\n"
        });
    }
    assert_eq!(read_text(&wide).unwrap(), records);
}

#[test]
fn fifteen_field_rows_are_plain_rfc4180() {
    let header = std::fs::read_to_string(c_tool("raw01.csv")).unwrap();
    let header = header.lines().next().unwrap();
    let text = format!("{header}\n\"a \\\\n \"\"q\"\"\",\"\",\"x\\ty\",1,0,1,2,3,4,5,6,7,8,3,13\n");
    let runs = read_text(&text).unwrap();
    assert_eq!(runs[0].command, r#"a \\n "q""#);
    assert_eq!(runs[0].name, r"x\ty");
}

#[test]
fn a_partial_file_is_readable_up_to_its_last_row() {
    // What a killed experiment leaves behind: every flushed row is whole.
    let file = tempfile::NamedTempFile::new().unwrap();
    let path = file.path().to_str().unwrap().to_owned();
    let mut w = RawCsvWriter::new(file.reopen().unwrap(), &Catalogue::new()).unwrap();
    w.write_run(&run("a", 1, 1)).unwrap();
    w.write_run(&run("b", 2, 2)).unwrap();
    // Read while the writer is still alive: nothing is held back.
    let d = Dataset::read_files(&[path]).unwrap();
    assert_eq!(d.run_count(), 2);
    drop(w);
}

// ---------------------------------------------------------------------------
// Errors: each names the file, line and column, in one line.

const HEADER: &str = "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches";
const GOOD: &str = r#""ls -l","","",1,0,1483,0,2200,146,0,1,1,1577"#;

/// A file with good rows on lines 2-3, `bad` on line 4, a good row after.
fn with_bad_row(bad: &str) -> String {
    format!("{HEADER}\n{GOOD}\n{GOOD}\n{bad}\n{GOOD}\n")
}

/// The error for `text`, checked to be a one-line row error.
fn row_error(text: &str) -> (u64, usize, RowProblem, String) {
    let e = read_text(text).expect_err("must be rejected");
    let message = e.to_string();
    assert!(
        !message.contains('\n') && !message.contains('\r'),
        "{message}"
    );
    assert!(message.starts_with("data.csv: line "), "{message}");
    let (line, column) = e.position().expect("a row error");
    assert!(
        message.contains(&format!("line {line}, column {column}")),
        "{message}"
    );
    (line, column, e.problem().unwrap().clone(), message)
}

#[test]
fn a_short_row_names_the_first_missing_column() {
    let (line, column, problem, message) = row_error(&with_bad_row(r#""ls","","",1,0,5"#));
    assert_eq!((line, column), (4, 7));
    assert_eq!(problem, RowProblem::FieldCount { found: 6 });
    assert!(
        message.contains("column 7 (System time (us)): the row has 6 fields"),
        "{message}"
    );
}

#[test]
fn a_fourteen_field_row_is_rejected() {
    let (line, column, problem, message) = row_error(&with_bad_row(&format!("{GOOD},1483")));
    assert_eq!((line, column), (4, 15));
    assert_eq!(problem, RowProblem::FieldCount { found: 14 });
    assert!(message.contains("(Total Context Switches)"), "{message}");
}

#[test]
fn a_non_integer_is_rejected_with_its_text() {
    let bad = GOOD.replace(",1483,", ",12x,");
    let (line, column, problem, message) = row_error(&with_bad_row(&bad));
    assert_eq!((line, column), (4, 6));
    assert_eq!(
        problem,
        RowProblem::NotAnInteger {
            found: "12x".into()
        }
    );
    assert_eq!(
        message,
        "data.csv: line 4, column 6 (User time (us)): expected an integer, found \"12x\"; \
         fix or remove that row"
    );
    // Decimals, empty fields and spaces inside the digits are not integers.
    for bad in ["1.5", "", "1 2", "0x10", "--1"] {
        let row = GOOD.replace(",1577", &format!(",{bad}"));
        let (line, column, problem, _) = row_error(&with_bad_row(&row));
        assert_eq!((line, column), (4, 13), "{bad:?}");
        assert!(
            matches!(problem, RowProblem::NotAnInteger { .. }),
            "{bad:?}"
        );
    }
}

#[test]
fn out_of_range_numbers_are_rejected() {
    let cases = [
        (GOOD.replace(",1483,", ",99999999999999999999,"), 6),
        (GOOD.replace("\"\",1,0,", "\"\",1,2147483648,"), 5),
        (GOOD.replace("\"\",1,0,", "\"\",-1,0,"), 4),
        (GOOD.replace("\"\",1,0,", "\"\",18446744073709551616,0,"), 4),
        (
            GOOD.replace(",1483,", ",999999999999999999999999999999999999999999999,"),
            6,
        ),
    ];
    for (bad, column) in cases {
        let (line, col, problem, _) = row_error(&with_bad_row(&bad));
        assert_eq!((line, col), (4, column), "{bad}");
        assert!(
            matches!(
                problem,
                RowProblem::OutOfRange { .. } | RowProblem::Negative { .. }
            ),
            "{bad}: {problem:?}"
        );
    }
}

#[test]
fn negative_times_are_rejected() {
    let bad = GOOD.replace(",1577", ",-1577");
    let (line, column, problem, message) = row_error(&with_bad_row(&bad));
    assert_eq!((line, column), (4, 13));
    assert_eq!(
        problem,
        RowProblem::Negative {
            found: "-1577".into()
        }
    );
    assert!(message.contains("(Wall clock (us))"), "{message}");
    // A negative exit code is a value like any other.
    let ok = GOOD.replace("\"\",1,0,", "\"\",1,-1,");
    assert_eq!(read_text(&with_bad_row(&ok)).unwrap()[2].exit_code, -1);
}

#[test]
fn an_unterminated_quote_is_reported_where_it_opens() {
    let text = format!("{HEADER}\n{GOOD}\n\"ls -l,,,1,0,1,1,1,1,1,1,1,1\n3,4\n");
    let (line, column, problem, message) = row_error(&text);
    assert_eq!((line, column), (3, 1));
    assert_eq!(problem, RowProblem::UnterminatedQuote);
    assert!(
        message.contains("closing quote (\") is missing"),
        "{message}"
    );
}

#[test]
fn an_unclosed_quote_followed_by_more_rows_points_back_to_it() {
    // The open quote on line 3 pairs with the first quote of line 4, and
    // the text after that is where CSV parsing fails.
    let text = format!("{HEADER}\n{GOOD}\n\"ls -l,,,1,0,1,1,1,1,1,1,1,1\n{GOOD}\n");
    let (line, column, problem, message) = row_error(&text);
    assert_eq!((line, column), (4, 1));
    assert_eq!(problem, RowProblem::TextAfterQuote { opened_on: Some(3) });
    assert!(
        message.contains("began on line 3: is its closing quote missing?"),
        "{message}"
    );
}

#[test]
fn a_stray_quote_is_an_error_not_a_hang() {
    // C BestGuess loops forever on this row.
    let (line, column, problem, _) = row_error(&with_bad_row(
        r#""ls",ls -l","",1,0,1483,0,2200,146,0,1,1,1577"#,
    ));
    assert_eq!((line, column), (4, 2));
    assert_eq!(problem, RowProblem::StrayQuote);

    let (line, column, problem, _) = row_error(&with_bad_row(
        r#""ls" -l,"","",1,0,1483,0,2200,146,0,1,1,1577"#,
    ));
    assert_eq!((line, column), (4, 1));
    assert_eq!(problem, RowProblem::TextAfterQuote { opened_on: None });
}

#[test]
fn invalid_utf8_is_reported_at_its_field() {
    let mut bytes = format!("{HEADER}\n{GOOD}\n").into_bytes();
    bytes.extend_from_slice(b"\"ls\",\"\",\"caf\xe9\",1,0,1,1,1,1,1,1,1,1\n");
    let e = read_raw_csv(&bytes[..], "latin1.csv").unwrap_err();
    assert_eq!(e.position(), Some((3, 3)));
    assert_eq!(e.problem(), Some(&RowProblem::InvalidUtf8));
    assert!(e
        .to_string()
        .starts_with("latin1.csv: line 3, column 3 (Name): the text is not valid UTF-8"));
}

#[test]
fn an_empty_file_is_a_clear_error() {
    // C BestGuess crashes (SIGSEGV) on this.
    let e = read_text("").unwrap_err();
    assert!(matches!(e, DataError::Empty { .. }), "{e:?}");
    let message = e.to_string();
    assert!(
        message.starts_with("data.csv: the file is empty"),
        "{message}"
    );
    assert!(!message.contains('\n'));
}

#[test]
fn a_header_only_file_has_no_data_rows() {
    for text in [
        format!("{HEADER}\n"),
        HEADER.to_owned(),
        format!("{HEADER}\r\n\r\n"),
    ] {
        let e = read_text(&text).unwrap_err();
        assert!(matches!(e, DataError::NoDataRows { .. }), "{e:?}");
        assert!(e.to_string().starts_with("data.csv: no data rows"));
    }
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.csv").to_str().unwrap().to_owned();
    let e = Dataset::read_files(&[arg(c_tool("raw1.csv")), missing.clone()]).unwrap_err();
    assert!(matches!(e, DataError::Open { .. }));
    assert_eq!(
        e.to_string(),
        format!("{missing}: cannot open: No such file or directory (os error 2)")
    );
}

#[test]
fn errors_in_a_second_file_name_that_file() {
    let mut bad = tempfile::NamedTempFile::new().unwrap();
    write!(bad, "{}", with_bad_row(&GOOD.replace(",146,", ",14.6,"))).unwrap();
    let path = bad.path().to_str().unwrap().to_owned();
    let e = Dataset::read_files(&[arg(c_tool("raw1.csv")), path.clone()]).unwrap_err();
    assert_eq!(e.file(), path);
    assert!(
        e.to_string()
            .starts_with(&format!("{path}: line 4, column 9 (Page Reclaims)")),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Many rows. Speed is measured by benchmarks, never here: reading by
// `cargo bench --bench read` and `bench/scale.sh`, writing by
// `bench/overhead.sh` (the writer is on the measurement path).

#[test]
fn many_rows_round_trip() {
    let n = 50_000;
    let records: Vec<RunRecord> = (0..n).map(|i| run("sleep 0.001", 1 + i % 3, i)).collect();
    let bytes = write_all(&records);
    let back = read_raw_csv(&bytes[..], "big.csv").unwrap();
    assert_eq!(back, records);
}

// ---------------------------------------------------------------------------
// Properties.

/// Characters that matter to CSV and to C BestGuess's escapes.
const SPECIAL_CHARS: [char; 8] = ['"', ',', '\n', '\r', '\t', '\\', ' ', 'n'];

/// Text rich in [`SPECIAL_CHARS`], plus arbitrary Unicode. (Mapped from
/// plain integers rather than built with `prop_oneof!`, which is an order
/// of magnitude slower to generate in a debug build.)
fn tricky_text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u32>(), 0..24).prop_map(|v| {
        v.into_iter()
            .map(|n| match n % 2 {
                0 => SPECIAL_CHARS[(n / 2) as usize % SPECIAL_CHARS.len()],
                _ => char::from_u32((n / 2) % 0x11_0000).unwrap_or('\u{fffd}'),
            })
            .collect()
    })
}

fn measurement() -> impl Strategy<Value = i64> {
    // Sums of two must fit in an i64, as the reader requires.
    prop_oneof![0..=10_000i64, 0..=i64::MAX / 2]
}

fn record() -> impl Strategy<Value = RunRecord> {
    (
        (
            tricky_text(),
            tricky_text(),
            tricky_text(),
            any::<u64>(),
            any::<i32>(),
        ),
        prop::array::uniform8(measurement()),
        (
            any::<Option<u64>>(),
            any::<Option<i64>>(),
            prop::option::of(1..=i32::MAX),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (command, shell, name, batch, exit_code),
                m,
                (sequence, start, signal, timed_out),
            )| {
                let stored = [
                    Metric::USER,
                    Metric::SYSTEM,
                    Metric::MAXRSS,
                    Metric::MINOR_FAULTS,
                    Metric::MAJOR_FAULTS,
                    Metric::VOLUNTARY_CSW,
                    Metric::INVOLUNTARY_CSW,
                    Metric::WALL,
                ];
                let mut r = RunRecord {
                    command,
                    shell,
                    name,
                    batch,
                    exit_code,
                    sequence,
                    start_unix_us: start,
                    signal,
                    timed_out,
                    ..RunRecord::default()
                };
                for (metric, value) in stored.into_iter().zip(m) {
                    r = r.with(metric, value);
                }
                r
            },
        )
}

proptest! {
    #[test]
    fn what_is_written_reads_back_unchanged(records in prop::collection::vec(record(), 1..8)) {
        let bytes = write_all(&records);
        let back = read_raw_csv(&bytes[..], "rt.csv").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, records);
    }

    #[test]
    fn any_bytes_give_ok_or_err_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = read_raw_csv(&bytes[..], "fuzz.csv");
    }

    #[test]
    fn csv_like_bytes_give_ok_or_err_without_panic(
        bytes in prop::collection::vec(any::<u16>(), 0..512).prop_map(|v| {
            // Mostly CSV syntax and digits, sometimes any byte.
            const CSV: &[u8] = b"\",\n\r\\ -0123456789";
            v.into_iter()
                .map(|n| match n % 4 {
                    0 => (n >> 8) as u8,
                    _ => CSV[(n >> 2) as usize % CSV.len()],
                })
                .collect::<Vec<u8>>()
        })
    ) {
        if let Err(e) = read_raw_csv(&bytes[..], "fuzz.csv") {
            let message = e.to_string();
            prop_assert!(!message.contains('\n'), "{}", message);
            prop_assert!(message.starts_with("fuzz.csv: "), "{}", message);
        }
    }

    #[test]
    fn mutated_valid_files_give_ok_or_err_without_panic(
        edits in prop::collection::vec((any::<usize>(), 0u8..3, any::<u8>()), 1..6)
    ) {
        // Small edits of a real file reach the row parser, which random
        // bytes rarely do.
        let mut bytes = std::fs::read(c_tool("raw01.csv")).unwrap();
        bytes.extend(write_all(&[run("a\\b", 7, 1)]).split(|&b| b == b'\n').nth(1).unwrap());
        prop_assert_eq!(read_raw_csv(&bytes[..], "m.csv").unwrap().len(), 3);
        const CSV: &[u8] = b"\",\n\r\\ -09x";
        for (at, kind, b) in edits {
            let at = at % (bytes.len() + 1);
            let b = if b % 2 == 0 { CSV[b as usize / 2 % CSV.len()] } else { b };
            match kind {
                0 => bytes.insert(at, b),
                1 if at < bytes.len() => { bytes.remove(at); }
                _ if at < bytes.len() => bytes[at] = b,
                _ => bytes.push(b),
            }
        }
        match read_raw_csv(&bytes[..], "m.csv") {
            Ok(runs) => prop_assert!(runs.len() <= 4),
            Err(e) => prop_assert!(!e.to_string().contains('\n')),
        }
    }

    #[test]
    fn errors_point_inside_the_input(
        prefix_rows in 0usize..4,
        bad_column in 3usize..13,
        junk in "[a-z.]{1,5}",
    ) {
        // A valid file with one corrupted number: the error must name the
        // exact line and column corrupted.
        let mut text = format!("{HEADER}\n");
        for _ in 0..prefix_rows {
            text.push_str(GOOD);
            text.push('\n');
        }
        let mut fields: Vec<String> = GOOD.split(',').map(str::to_owned).collect();
        fields[bad_column] = junk;
        text.push_str(&fields.join(","));
        text.push('\n');
        let e = read_text(&text).unwrap_err();
        prop_assert_eq!(e.position(), Some((prefix_rows as u64 + 2, bad_column + 1)));
    }
}

// ---------------------------------------------------------------------------
// Input that could be mistaken.

#[test]
fn concatenated_files_stay_apart_as_if_given_separately() {
    let raw1 = std::fs::read(c_tool("raw1.csv")).unwrap();
    let mut both = raw1.clone();
    both.extend_from_slice(&raw1);
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &both).unwrap();
    let d = Dataset::read_files(&[file.path().to_str().unwrap().to_owned()]).unwrap();
    let separately =
        Dataset::read_files(&[arg(c_tool("raw1.csv")), arg(c_tool("raw1.csv"))]).unwrap();
    assert_eq!(commands(&d), commands(&separately));
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [1, 2, 3, 4]);
}

#[test]
fn a_file_without_its_header_is_refused_not_misread() {
    let text = std::fs::read_to_string(c_tool("raw1.csv")).unwrap();
    let headless: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let e = read_text(&headless).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("data.csv: line 1 is not a raw data header (it starts with \"ls -l\")"),
        "{e}"
    );
}

#[test]
fn a_byte_order_mark_before_the_header_is_ignored() {
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend_from_slice(&std::fs::read(c_tool("raw1.csv")).unwrap());
    assert_eq!(
        read_raw_csv(&bytes[..], "bom.csv").unwrap(),
        read_c_tool("raw1.csv")
    );
}

//! The dataset: grouping by batch and command across sources, labels,
//! values and attributes, reading files, and its size.

use super::*;
use crate::data::error::DataError;
use crate::data::metric::{Metric, Source, Value};
use crate::data::RunRecord;

fn run(command: &str, batch: u64, user_us: i64) -> RunRecord {
    RunRecord {
        command: command.into(),
        batch,
        ..RunRecord::default()
    }
    .with(Metric::USER, user_us)
}

fn shape(d: &Dataset) -> Vec<(String, u64, Vec<i64>)> {
    d.commands
        .iter()
        .map(|c| {
            let users = c
                .values(Metric::USER)
                .map(|v| v.and_then(Value::as_int).unwrap())
                .collect();
            (c.command.clone(), c.batch, users)
        })
        .collect()
}

fn from_sources(sources: Vec<Vec<RunRecord>>) -> Dataset {
    let mut b = DatasetBuilder::new(Catalogue::new());
    for records in sources {
        b.next_source();
        records.iter().for_each(|r| b.push(r));
    }
    b.finish()
}

#[test]
fn interleaved_batches_group_by_batch_in_batch_order() {
    let d = Dataset::from_records(vec![
        run("b", 2, 1),
        run("a", 1, 2),
        run("b", 2, 3),
        run("a", 1, 4),
    ]);
    assert_eq!(
        shape(&d),
        vec![("a".into(), 1, vec![2, 4]), ("b".into(), 2, vec![1, 3])],
        "a random run order does not renumber the commands"
    );
}

#[test]
fn a_different_command_under_the_same_batch_is_another_command() {
    let mut named = run("first", 1, 3);
    named.name = "other".into();
    let d = Dataset::from_records(vec![
        run("first", 1, 1),
        run("changed", 1, 2),
        named,
        run("first", 1, 4),
    ]);
    assert_eq!(
        shape(&d),
        vec![
            ("first".into(), 1, vec![1, 4]),
            ("changed".into(), 1, vec![2]),
            ("first".into(), 1, vec![3]),
        ]
    );
    assert_eq!(d.commands[2].name, "other");
}

#[test]
fn sources_are_offset_by_the_largest_batch_so_far() {
    let file = || vec![run("a", 1, 1), run("b", 2, 2)];
    let d = from_sources(vec![file(), file()]);
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [1, 2, 3, 4]);
    assert_eq!(d.commands[2].record(0, &d.catalogue).batch, 3);

    // Interleaved first file ending with batch 1: offset by 2, not 1.
    let d = from_sources(vec![
        vec![run("a", 2, 1), run("b", 1, 2)],
        vec![run("c", 1, 3)],
    ]);
    assert_eq!(shape(&d)[2], ("c".into(), 3, vec![3]));
}

#[test]
fn batch_zero_in_a_later_source_does_not_collide() {
    let d = from_sources(vec![
        vec![run("a", 0, 1), run("b", 3, 1)],
        vec![run("c", 0, 1), run("d", 1, 1)],
    ]);
    let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
    assert_eq!(batches, [0, 3, 4, 5]);
}

#[test]
fn huge_batches_saturate_but_still_group_apart() {
    let d = from_sources(vec![
        vec![run("a", u64::MAX, 1)],
        vec![run("b", 5, 2), run("c", 6, 3)],
    ]);
    assert_eq!(d.commands.len(), 3);
    assert_eq!(d.commands[2].len(), 1);
}

#[test]
fn labels() {
    let mut c = CommandRuns {
        command: "ls -l".into(),
        ..CommandRuns::default()
    };
    assert_eq!(c.label(), "ls -l");
    c.name = "listing".into();
    assert_eq!(c.label(), "listing");
    c.name = "  \t".into();
    assert_eq!(c.label(), "ls -l", "a blank name names nothing");
    c.name.clear();
    c.command.clear();
    assert_eq!(c.label(), "(empty)");
    c.shell = "/bin/sh -c".into();
    assert_eq!(c.label(), "/bin/sh -c \"\"");
}

#[test]
fn parameters_tell_look_alike_commands_apart() {
    let run = |command: &str, batch: u64, level: &str, size: &str| RunRecord {
        command: command.into(),
        batch,
        parameters: vec![("level".into(), level.into()), ("size".into(), size.into())],
        ..RunRecord::default()
    };
    let d = Dataset::from_records([
        run("gzip -1", 1, "1", "9"),
        run("cat data", 2, "1", "9"),
        run("gzip -2", 3, "2", "9"),
        run("cat data", 4, "2", "9"),
    ]);
    let labels: Vec<String> = d.commands.iter().map(|c| c.label().into_owned()).collect();
    assert_eq!(
        labels,
        [
            "gzip -1",
            "cat data (level = 1)",
            "gzip -2",
            "cat data (level = 2)"
        ]
    );
}

fn full(user: i64) -> RunRecord {
    run("a", 1, user)
        .with(Metric::SYSTEM, 5)
        .with(Metric::WALL, 20)
        .with(Metric::MAXRSS, 4096)
        .with(Metric::MINOR_FAULTS, 7)
        .with(Metric::MAJOR_FAULTS, 0)
        .with(Metric::VOLUNTARY_CSW, 2)
        .with(Metric::INVOLUNTARY_CSW, 3)
}

#[test]
fn metrics_and_failures() {
    let ok = full(10);
    let failed = RunRecord {
        exit_code: 1,
        ..full(10)
    };
    let killed = RunRecord {
        signal: Some(9),
        ..full(1)
    };
    let d = Dataset::from_records(vec![ok, failed, killed]);
    let c = &d.commands[0];
    assert_eq!(c.metric(Metric::TOTAL), [15.0, 15.0, 6.0]);
    assert_eq!(c.metric(Metric::USER), [10.0, 10.0, 1.0]);
    assert_eq!(c.metric(Metric::SYSTEM), [5.0; 3]);
    assert_eq!(c.metric(Metric::WALL), [20.0; 3]);
    assert_eq!(c.metric(Metric::MAXRSS), [4096.0; 3]);
    assert_eq!(c.metric(Metric::VOLUNTARY_CSW), [2.0; 3]);
    assert_eq!(c.metric(Metric::INVOLUNTARY_CSW), [3.0; 3]);
    assert_eq!(c.metric(Metric::TOTAL_CSW), [5.0; 3]);
    assert_eq!(c.failed(), 2);
    assert_eq!(d.run_count(), 3);
    assert_eq!((c.exit_code(1), c.signal(2)), (1, Some(9)));
}

#[test]
fn records_read_back_whole() {
    let runs = vec![
        RunRecord {
            sequence: Some(u64::MAX),
            start_unix_us: Some(-5),
            signal: Some(15),
            timed_out: true,
            exit_code: 143,
            ..full(1)
        },
        RunRecord {
            sequence: Some(2),
            ..full(i64::MAX - 5)
        },
    ];
    let d = Dataset::from_records(runs.clone());
    let back: Vec<RunRecord> = (0..2)
        .map(|i| d.commands[0].record(i, &d.catalogue))
        .collect();
    assert_eq!(back, runs);
}

#[test]
fn absent_values_are_absent_never_zero() {
    let mut catalogue = Catalogue::new();
    let custom = catalogue
        .register(super::super::metric::MetricDef {
            name: "score".into(),
            column: "score (num)".into(),
            raw: super::super::metric::RawColumn::Appended,
            key: "score".into(),
            label: "score".into(),
            row_label: "score".into(),
            unit: super::super::metric::Unit::Number,
            integer: false,
            optional: true,
            summary_row: true,
            source: Source::Stored,
            wire: None,
        })
        .unwrap();
    let mut with = run("a", 1, 1);
    with.metrics.set(custom, Some(Value::Real(2.5)));
    let d = Dataset::from_records_with(catalogue, vec![run("a", 1, 1), with, run("b", 2, 1)]);
    assert_eq!(d.commands[0].metric(custom), [2.5]);
    assert_eq!(d.commands[0].value(0, custom), None);
    assert!(d.commands[0].has(custom) && !d.commands[1].has(custom));
    assert!(d.commands[1].metric(custom).is_empty());
    // Parts missing: the total is absent too.
    assert!(!d.commands[0].has(Metric::TOTAL));
    assert_eq!(d.commands[0].value(0, Metric::WALL), None);
}

#[test]
fn a_million_runs_of_a_typical_command_are_small() {
    let mut b = DatasetBuilder::new(Catalogue::new());
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for i in 0..100_000u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let jitter = (state % 2000) as i64;
        let r = RunRecord {
            command: "ls -l".into(),
            batch: 1,
            sequence: Some(i + 1),
            start_unix_us: Some(1_700_000_000_000_000 + 3000 * i as i64),
            ..full(1000 + jitter)
        }
        .with(Metric::WALL, 2000 + jitter)
        .with(Metric::MAXRSS, 2_000_000 + 4096 * (jitter % 16));
        b.push(&r);
    }
    let d = b.finish();
    let per_run = d.heap_bytes() as f64 / 100_000.0;
    assert!(per_run < 20.0, "{per_run} bytes per run");
}

#[test]
fn read_files_names_the_missing_file() {
    let e = Dataset::read_files(&["/nonexistent/missing.csv".to_string()]).unwrap_err();
    let s = e.to_string();
    assert!(
        s.starts_with("/nonexistent/missing.csv: cannot open: No such file or directory"),
        "{s}"
    );
    assert!(!s.contains('\n'));
}

#[test]
fn stdin_is_read_once_and_named() {
    let header = crate::data::csv_write::header_line();
    let data = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2\n");
    let data = data.as_str();
    let d = Dataset::read_paths(&["-".to_string()], data.as_bytes()).unwrap();
    assert_eq!(d.run_count(), 1);
    let e = Dataset::read_paths(&["-".to_string(), "-".to_string()], data.as_bytes());
    assert!(matches!(e, Err(DataError::StdinTwice { .. })), "{e:?}");
    let e =
        Dataset::read_paths(&["-".to_string()], format!("{header}bad\n").as_bytes()).unwrap_err();
    assert!(
        e.to_string().starts_with("<stdin>: line 2, column 2"),
        "{e}"
    );
}
#[test]
fn sequences_are_each_run_s_sequence_across_ranges() {
    // Whole ranges with every number, and ranges with an absent one or
    // one beyond i64 (stored as the u64's bits).
    let n = 3 * RANGE + 17;
    let records = (0..n).map(|i| RunRecord {
        sequence: match i {
            _ if i == RANGE + 5 => None,
            _ if i == 2 * RANGE + 1 => Some(u64::MAX),
            _ => Some(i as u64 * 3),
        },
        ..run("a", 1, 10)
    });
    let d = Dataset::from_records(records);
    let runs = &d.commands[0];
    let each: Vec<Option<u64>> = (0..n).map(|i| runs.sequence(i)).collect();
    assert_eq!(runs.sequences(), each);
    assert_eq!(each[RANGE + 5], None);
    assert_eq!(each[2 * RANGE + 1], Some(u64::MAX));
    assert_eq!(each[7], Some(21));
}

//! `bestreport` reads what other tools write, telling formats apart by
//! their content: real files written by Hyperfine 1.20 and 2.0 and by cbdr
//! 0.2.4 (tests/data/formats, copied from /work/shared/reference where they
//! were made with the real tools), BestGuess's own JSON, and refusals that
//! say what to give instead.

use std::fs;

use bestguess::data::{Dataset, InputFormat, Metric, Value};

mod support;

use support::{bestguess, bestreport, dataset as read, report};

const HF1: &str = "tests/data/formats/hyperfine-1.20-export.json";
const HF2: &str = "tests/data/formats/hyperfine-2.0-export.json";
const HF1_CSV: &str = "tests/data/formats/hyperfine-1.20-export.csv";
const CBDR: &str = "tests/data/formats/cbdr-0.2.4-sample.csv";

/// Writes `bytes` as `name` in `dir`; its path, as an argument.
fn write_in(dir: &tempfile::TempDir, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.path().join(name);
    fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// The error reading the file at `path` is refused with.
fn refusal(path: &str) -> String {
    Dataset::read_files(&[path.to_owned()])
        .unwrap_err()
        .to_string()
}

fn int(v: Option<Value>) -> Option<i64> {
    v.and_then(Value::as_int)
}

/// A time another tool wrote in seconds: kept as those seconds, and as µs
/// (`as_f64`) a whole number when it is one.
fn whole_us(v: Option<Value>) -> Option<i64> {
    match v? {
        v @ Value::Seconds(_) => Some(v.as_f64())
            .filter(|x| x.fract() == 0.0)
            .map(|x| x as i64),
        _ => None,
    }
}

#[test]
fn hyperfine_2_json_gives_every_run_and_leaves_absent_metrics_absent() {
    let d = read(HF2);
    assert_eq!(d.sources[0].format, InputFormat::HyperfineJson2);
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(HF2).unwrap()).unwrap();
    assert_eq!(d.commands.len(), 2);
    for (c, r) in d.commands.iter().zip(doc["results"].as_array().unwrap()) {
        assert_eq!(c.command, r["command"].as_str().unwrap());
        let m = r["measurements"].as_array().unwrap();
        assert_eq!(c.len(), m.len());
        for (i, run) in m.iter().enumerate() {
            let us = |k: &str| run[k]["value"].as_f64().unwrap() * 1e6;
            let close = |v: Option<Value>, x: f64| (v.unwrap().as_f64() - x).abs() < 1e-6;
            assert!(close(c.value(i, Metric::WALL), us("time_wall_clock")));
            assert!(close(c.value(i, Metric::USER), us("time_user")));
            assert!(close(c.value(i, Metric::SYSTEM), us("time_system")));
            assert!(close(c.value(i, Metric::TOTAL), us("time_cpu")));
            assert_eq!(
                int(c.value(i, Metric::MAXRSS)),
                Some(run["memory_peak_resident"]["value"].as_f64().unwrap() as i64)
            );
            assert_eq!(c.exit_code(i), 0);
            // Hyperfine measures no context switches or page faults.
            assert_eq!(c.value(i, Metric::VOLUNTARY_CSW), None);
            assert_eq!(c.value(i, Metric::MINOR_FAULTS), None);
        }
        // CPU times are whole µs from the kernel: kept as the seconds
        // Hyperfine wrote, a whole number of µs in every statistic.
        assert!(whole_us(c.value(0, Metric::USER)).is_some());
    }
    // Hyperfine ran the commands one after the other.
    let first = &d.commands[1];
    assert_eq!(first.sequence(0), Some(d.commands[0].len() as u64 + 1));
}

#[test]
fn hyperfine_1_json_has_wall_memory_and_exit_codes_but_no_cpu_times() {
    let d = read(HF1);
    assert_eq!(d.sources[0].format, InputFormat::HyperfineJson1);
    let ls = &d.commands[0];
    assert_eq!(ls.command, "ls");
    assert_eq!(ls.len(), 3);
    assert!((ls.value(0, Metric::WALL).unwrap().as_f64() - 1180.4579599999998).abs() < 1e-6);
    assert_eq!(int(ls.value(2, Metric::MAXRSS)), Some(3_080_192));
    assert_eq!(ls.value(0, Metric::USER), None, "1.x keeps only the mean");
    assert_eq!(ls.value(0, Metric::TOTAL), None);
    assert!(!ls.has(Metric::TOTAL));
}

#[test]
fn cbdr_csv_gives_seconds_as_microseconds_in_run_order() {
    let d = read(CBDR);
    assert_eq!(d.sources[0].format, InputFormat::CbdrCsv);
    let names: Vec<&str> = d.commands.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(names, ["ls", "lsl"]);
    // 96 and 104 samples, as cbdr analyze says.
    assert_eq!((d.commands[0].len(), d.commands[1].len()), (96, 104));
    // First rows: ls,0,0,0.002114982 / lsl,0,0,0.002732449 / … lsl,0,0.01,0.003185076
    let (ls, lsl) = (&d.commands[0], &d.commands[1]);
    assert_eq!(ls.sequence(0), Some(1));
    assert_eq!(lsl.sequence(0), Some(2));
    assert!((ls.value(0, Metric::WALL).unwrap().as_f64() - 2114.982).abs() < 1e-6);
    assert_eq!(whole_us(lsl.value(1, Metric::USER)), Some(10_000));
    assert_eq!(whole_us(ls.value(0, Metric::SYSTEM)), Some(0));
    assert_eq!(
        ls.value(0, Metric::MAXRSS),
        None,
        "cbdr does not measure memory"
    );
}

#[test]
fn reports_on_real_files() {
    for (name, path) in [("hyperfine_2", HF2), ("hyperfine_1", HF1), ("cbdr", CBDR)] {
        let (out, _) = report(&[path]);
        insta::assert_snapshot!(format!("report_{name}"), out);
        // Why the metric is what it is: in the ranking's header.
        if path == HF1 {
            assert!(out.contains("Ranked by wall-clock time"), "{out}");
        }
    }
}

#[test]
fn summaries_are_refused_with_what_to_give_instead() {
    let err = bestreport().arg(HF1_CSV).assert().failure();
    let err = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(err.contains("Hyperfine's summary CSV"), "{err}");
    assert!(err.contains("--export-json"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.csv");
    bestreport()
        .args(["--export-csv"])
        .arg(&summary)
        .arg("tests/data/c_tool/raw1.csv")
        .assert()
        .success();
    let err = bestreport().arg(&summary).assert().failure();
    let err = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(err.contains("raw data file (bestguess -o)"), "{err}");
}

#[test]
fn unreadable_files_name_every_accepted_format() {
    let dir = tempfile::tempdir().unwrap();
    // A case that gets more than "a quote inside an unquoted field".
    let cases = [
        ("quote.txt", "say \"hello\", world\nmore\n"),
        ("json.json", "{\"benchmarks\": []}\n"),
        ("broken.json", "{\"results\": [\n"),
        ("text.txt", "just some notes\n"),
    ];
    for (name, content) in cases {
        let path = dir.path().join(name);
        fs::write(&path, content).unwrap();
        let err = bestreport().arg(&path).assert().failure().code(2);
        let err = String::from_utf8(err.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        for format in [
            "BestGuess raw CSV",
            "C tool",
            "Hyperfine (1.x, 2.0) JSON",
            "cbdr",
        ] {
            assert!(err.contains(format), "{name}: {err}");
        }
    }
}

#[test]
fn our_own_json_reads_back_to_the_same_report() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let raw = "tests/data/c_tool/raw1.csv";
    bestreport()
        .args(["-Q", "--export-json"])
        .arg(&json)
        .arg(raw)
        .assert()
        .success();
    let d = read(json.to_str().unwrap());
    assert_eq!(d.sources[0].format, InputFormat::BestGuessJson);
    let (from_csv, _) = report(&[raw]);
    let (from_json, _) = report(&[json.to_str().unwrap()]);
    assert_eq!(from_csv, from_json);
}

/// A metric of the data's own keeps its unit through the JSON
/// (`metadata.units`): without them `lat (us)` would come back a plain
/// number, and the report would change (`20.00 K` for `20.000 ms`).
#[test]
fn a_custom_metric_keeps_its_unit_through_our_json() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("lat.csv");
    let mut text = fs::read_to_string("tests/data/c_tool/raw1.csv").unwrap();
    text = text
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            0 => format!("{l},lat (us)\n"),
            // Tens of milliseconds, so that the unit shows.
            _ => format!("{l},,,{}\n", 10_000 * (i % 6 + 1)),
        })
        .collect();
    fs::write(&raw, text).unwrap();
    let json = dir.path().join("lat.json");
    bestreport()
        .args(["-Q", "--export-json"])
        .arg(&json)
        .arg(&raw)
        .assert()
        .success();
    let d = read(json.to_str().unwrap());
    let lat = d.catalogue.find("lat").expect("lat is read back");
    assert_eq!(
        d.catalogue.def(lat).unit,
        bestguess::data::Unit::Microseconds
    );
    let (from_csv, _) = report(&["-S", raw.to_str().unwrap()]);
    let (from_json, _) = report(&["-S", json.to_str().unwrap()]);
    assert!(from_csv.contains(" ms "), "{from_csv}");
    assert_eq!(from_csv, from_json);
}

/// Two exports of `bestguess` put into one document (`jq -s`) are two
/// experiments: a batch number comes again, so a new group starts (they
/// are not merged into one command `true` of both experiments' runs).
#[test]
fn two_exports_in_one_document_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let one = |runs: &str, name: &str| {
        let path = dir.path().join(name);
        bestguess()
            .args(["-Q", "-r", runs, "--export-json"])
            .arg(&path)
            .arg("true")
            .assert()
            .success();
        serde_json::from_slice::<serde_json::Value>(&fs::read(path).unwrap()).unwrap()
    };
    let mut both = one("5", "e1.json");
    let second = one("7", "e2.json");
    both["results"]
        .as_array_mut()
        .unwrap()
        .extend(second["results"].as_array().unwrap().iter().cloned());
    let path = dir.path().join("both.json");
    fs::write(&path, serde_json::to_vec(&both).unwrap()).unwrap();
    let d = read(path.to_str().unwrap());
    let runs: Vec<usize> = d.commands.iter().map(|c| c.len()).collect();
    assert_eq!(runs, [5, 7]);
}

/// Results of one export in another order (`jq '.results |=
/// sort_by(.median)'`) are still one experiment: its rounds stay complete.
/// A falling batch number does not start a new group per result.
#[test]
fn an_export_with_its_results_reordered_stays_one_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.json");
    bestguess()
        .args(["-Q", "-r", "9", "--seed", "5", "--export-json"])
        .arg(&path)
        .args(["true", "echo x", "echo y"])
        .assert()
        .success();
    let mut doc: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    doc["results"].as_array_mut().unwrap().reverse();
    let reordered = dir.path().join("reversed.json");
    fs::write(&reordered, serde_json::to_vec(&doc).unwrap()).unwrap();
    for file in [&path, &reordered] {
        let (out, _) = report(&["-Q", "-R", file.to_str().unwrap()]);
        let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("Ratio of medians, 9 rounds"), "{out}");
    }
    let d = read(reordered.to_str().unwrap());
    assert_eq!(d.commands.len(), 3);
}

#[test]
fn the_same_command_from_two_files_is_tagged_with_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    for path in [&a, &b] {
        bestguess()
            .args(["-Q", "-r", "6", "--seed", "3", "-o"])
            .arg(path)
            .args(["true", "echo x"])
            .assert()
            .success();
    }
    let json = dir.path().join("r.json");
    let out = bestreport()
        .current_dir(dir.path())
        .args(["a.csv", "b.csv", "--export-json", "r.json"])
        .assert()
        .success();
    let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for label in [
        "true [a.csv]",
        "true [b.csv]",
        "echo x [a.csv]",
        "echo x [b.csv]",
    ] {
        assert!(out.contains(label), "{label}: {out}");
    }
    // Measured times differ run to run: the snapshot is of the labels.
    let labels: Vec<&str> = out.lines().filter(|l| l.starts_with("Command ")).collect();
    insta::assert_snapshot!("two_files_same_commands_labels", labels.join("\n"));

    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    let results = doc["results"].as_array().unwrap();
    let sources: Vec<(&str, &str)> = results
        .iter()
        .map(|r| {
            (
                r["bestguess"]["source"]["path"].as_str().unwrap(),
                r["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [
            ("a.csv", "true [a.csv]"),
            ("a.csv", "echo x [a.csv]"),
            ("b.csv", "true [b.csv]"),
            ("b.csv", "echo x [b.csv]")
        ]
    );
    assert_eq!(doc["metadata"]["sources"][1]["tag"], "b.csv");
    assert_eq!(doc["metadata"]["sources"][1]["format"], "bestguess-raw-csv");
    // The two summary CSVs tell them apart too (else their rows would be
    // identical but for the numbers).
    for option in ["--export-csv", "--hyperfine-csv"] {
        let out = bestreport()
            .current_dir(dir.path())
            .args(["-Q", option, "-", "a.csv", "b.csv"])
            .assert()
            .success();
        let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let first: Vec<&str> = (out.lines().skip(1))
            .map(|l| l.split(',').next().unwrap())
            .collect();
        assert_eq!(
            first,
            [
                "true [a.csv]",
                "echo x [a.csv]",
                "true [b.csv]",
                "echo x [b.csv]"
            ],
            "{option}"
        );
    }
}

#[test]
fn the_two_files_same_command_report() {
    // Fixed data, so the whole report can be pinned.
    let dir = tempfile::tempdir().unwrap();
    for sub in ["before", "after"] {
        fs::create_dir(dir.path().join(sub)).unwrap();
        fs::copy(
            "tests/data/c_tool/raw1.csv",
            dir.path().join(sub).join("raw1.csv"),
        )
        .unwrap();
    }
    let out = bestreport()
        .current_dir(dir.path())
        .args(["before/raw1.csv", "after/raw1.csv"])
        .assert()
        .success();
    let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    insta::assert_snapshot!("two_files_same_command_report", out);
}

#[test]
fn tags_tell_paths_apart() {
    use bestguess::data::dataset::source_tags;
    assert_eq!(source_tags(&["a.csv", "b.csv"]), ["a.csv", "b.csv"]);
    assert_eq!(
        source_tags(&["x/run.csv", "y/run.csv", "z.csv"]),
        ["x/run.csv", "y/run.csv", "z.csv"]
    );
    assert_eq!(source_tags(&["r.csv", "r.csv"]), ["r.csv", "r.csv#2"]);
    assert_eq!(
        source_tags(&["/a/b/c.csv", "/d/b/c.csv"]),
        ["a/b/c.csv", "d/b/c.csv"]
    );
    assert_eq!(source_tags(&["<stdin>"]), ["<stdin>"]);
}

/// Written by the real Hyperfine 2.0.0 (`cargo install hyperfine --version
/// 2.0.0`): `hyperfine -N -i -w 1 -r 8 -n listing 'ls /usr' -n fails false
/// -n killed "sh -c 'kill -KILL \$\$'" --export-json …`.
const HF2_NAMED: &str = "tests/data/formats/hyperfine-2.0-named-failing.json";
/// Also Hyperfine 2.0.0: `hyperfine -N -r 6 -P n 1 3 'sleep 0.00{n}'
/// --export-json …`.
const HF2_PARAMS: &str = "tests/data/formats/hyperfine-2.0-parameters.json";

#[test]
fn hyperfine_2_names_failures_and_parameters() {
    let d = read(HF2_NAMED);
    let shape: Vec<(&str, &str, usize, usize)> = d
        .commands
        .iter()
        .map(|c| (c.name.as_str(), c.command.as_str(), c.len(), c.failed()))
        .collect();
    assert_eq!(
        shape,
        [
            ("listing", "ls /usr", 8, 0),
            ("fails", "false", 8, 8),
            ("killed", "sh -c 'kill -KILL $$'", 8, 8)
        ]
    );
    assert_eq!(d.commands[1].exit_code(0), 1);
    assert_eq!(d.commands[2].exit_code(0), 137);
    let (out, _) = report(&[HF2_NAMED]);
    for label in [
        "Command 1: listing",
        "Command 2: fails",
        "Command 3: killed",
    ] {
        assert!(out.contains(label), "{out}");
    }

    let d = read(HF2_PARAMS);
    let params: Vec<&[(String, String)]> =
        d.commands.iter().map(|c| c.parameters.as_slice()).collect();
    assert_eq!(params[2], [("n".to_string(), "3".to_string())]);
    assert_eq!(d.commands[0].command, "sleep 0.001");
}

/// A Hyperfine measurement that no run can have — negative, or beyond
/// 9·10¹⁵ µs (285 years) or bytes — is refused with its place, as a raw
/// CSV's would be, not read as a negative time or dropped as absent.
#[test]
fn impossible_hyperfine_measurements_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let one = |times: &str, memory: &str| {
        format!(
            "{{\"results\": [{{\"command\": \"a\", \"times\": [{times}], \
             \"memory_usage_byte\": [{memory}], \"exit_codes\": [0, 0, 0]}}]}}"
        )
    };
    let two = |value: &str| {
        let m = |v: &str| {
            format!(
                "{{\"time_wall_clock\": {{\"value\": {v}, \"unit\": \"second\"}}, \
                 \"exit_code\": 0}}"
            )
        };
        format!(
            "{{\"schema_version\": 2, \"results\": [{{\"command\": \"a\", \"measurements\": \
             [{}, {}, {}]}}]}}",
            m("0.1"),
            m(value),
            m("0.3")
        )
    };
    let cases = [
        (
            one("0.1, -0.2, 0.3", "1, 2, 3"),
            "results[0].times[1] is -0.2, below 0",
        ),
        (
            one("0.1, 0.2, 1e308", "1, 2, 3"),
            "results[0].times[2] is 1e+308, too large",
        ),
        (
            one("0.1, 0.2, 9e9", "1, 2, 3"),
            "results[0].times[2] is 9000000000.0, too large",
        ),
        (
            one("0.1, 0.2, 0.3", "1, -2, 3"),
            "results[0].memory_usage_byte[1] is -2, below 0",
        ),
        (
            one("0.1, 0.2, 0.3", "1, 2, 1e19"),
            "memory_usage_byte[2] is 1e+19, too large",
        ),
        (
            two("-1"),
            "results[0].measurements[1].time_wall_clock.value is -1, below 0",
        ),
        (
            two("1e300"),
            "measurements[1].time_wall_clock.value is 1e+300, too large",
        ),
        // A time in another unit would be read wrong by a factor.
        (
            two("0.2").replacen("\"unit\": \"second\"", "\"unit\": \"millisecond\"", 2),
            "results[0].measurements[0].time_wall_clock.unit is \"millisecond\", not \"second\" \
             as Hyperfine 2.0 writes it; give values in seconds",
        ),
        (
            two("0.2").replace(
                "\"exit_code\": 0}",
                "\"memory_peak_resident\": {\"value\": 3, \"unit\": \"KiB\"}, \"exit_code\": 0}",
            ),
            "results[0].measurements[0].memory_peak_resident.unit is \"KiB\", not \"byte\"",
        ),
        // A bare number where an object belongs is refused, not dropped.
        (
            two("0.2").replacen(
                "{\"value\": 0.1, \"unit\": \"second\"}",
                "0.1",
                1,
            ),
            "results[0].measurements[0].time_wall_clock is 0.1, not an object {\"value\": …, \"unit\": …}",
        ),
    ];
    for (k, (json, said)) in cases.iter().enumerate() {
        let e = refusal(&write_in(&dir, &format!("{k}.json"), json));
        assert!(e.contains(said), "{k}: {e}");
    }
    // Just within: 8.9·10⁹ s and 0 are measurements.
    let path = dir.path().join("within.json");
    fs::write(&path, one("0, 0.2, 8.9e9", "0, 2, 3")).unwrap();
    let d = read(path.to_str().unwrap());
    let wall: Vec<_> = (0..3)
        .map(|i| whole_us(d.commands[0].value(i, Metric::WALL)))
        .collect();
    assert_eq!(wall, [Some(0), Some(200_000), Some(8_900_000_000_000_000)]);
}

/// cbdr's times are held to what a raw CSV accepts: a time is not
/// negative nor past what µs hold, a custom column stays within ±1e100.
#[test]
fn impossible_cbdr_values_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_in(&dir, name, text);
    let cbdr = |value: &str| format!("benchmark,wall_time,custom\nx,0.1,-3\nx,{value},2\n");
    let cbdr_custom =
        |value: &str| format!("benchmark,wall_time,custom\nx,0.1,-3\nx,0.2,{value}\n");
    for bad in ["-0.1", "1e300", "9e9"] {
        let e = refusal(&write("c.csv", &cbdr(bad)));
        assert!(
            e.contains(&format!(
                "line 3: \"{bad}\" in column wall_time is not a time"
            )),
            "{e}"
        );
    }
    // A custom column may be negative, and just under the bound is a time.
    let d = read(&write("c.csv", &cbdr("8.9e9")));
    assert_eq!(
        whole_us(d.commands[0].value(1, Metric::WALL)),
        Some(8_900_000_000_000_000)
    );

    let e = refusal(&write("big.csv", &cbdr_custom("1e101")));
    assert!(
        e.contains("line 3: \"1e101\" in column custom is beyond ±1e100"),
        "{e}"
    );
}

/// BestGuess's own per-run integers are held to what a raw CSV accepts
/// too, each refused with its place.
#[test]
fn impossible_bestguess_values_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_in(&dir, name, text);
    let out = dir.path().join("own.json");
    bestreport()
        .args(["-Q", "--json-runs", "bestguess", "--export-json"])
        .arg(&out)
        .arg("tests/data/formats/cbdr-0.2.4-sample.csv")
        .assert()
        .success();
    let own: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    // (cbdr's µs are reals: the export keeps them so.)
    assert!(own["results"][0]["bestguess"]["per_run"]["wall_us"][0].is_f64());
    for (key, bad, said) in [
        (
            "wall_us",
            serde_json::json!(-5),
            "wall_us[1] is -5, not a number from 0 to below 2^63",
        ),
        (
            "wall_us",
            serde_json::json!(-0.5),
            "wall_us[1] is -0.5, not a number from 0 to below 2^63",
        ),
        (
            "wall_us",
            serde_json::json!("abc"),
            "wall_us[1] is \"abc\", not a number from 0 to below 2^63",
        ),
        (
            "wall_us",
            serde_json::json!(true),
            "wall_us[1] is true, not a number from 0 to below 2^63",
        ),
        (
            "wall_us",
            serde_json::json!(1e300),
            "wall_us[1] is 1e+300, not a number from 0 to below 2^63",
        ),
        // Past what a raw CSV holds: refused, or the summary CSVs would
        // print i64::MAX where every other output says 1e19.
        (
            "user_us",
            serde_json::json!(1e19),
            "user_us[1] is 1e+19, not a number from 0 to below 2^63",
        ),
        (
            "exit_code",
            serde_json::json!("0"),
            "exit_code[1] is \"0\", not an exit code",
        ),
        (
            "signal",
            serde_json::json!("x"),
            "signal[1] is \"x\", not a signal number",
        ),
    ] {
        let mut doc = own.clone();
        doc["results"][0]["bestguess"]["per_run"][key][1] = bad;
        let e = refusal(&write("bad.json", &doc.to_string()));
        assert!(
            e.contains(&format!("results[0].bestguess.per_run.{said}")),
            "{e}"
        );
    }

    // A real value beyond what the statistics take is refused where it is
    // read, with its place: never an analysis that fails on it later.
    let mut doc = own.clone();
    doc["results"][0]["bestguess"]["per_run"]["wall_us"][1] = serde_json::json!(5);
    let custom = &mut doc["results"][0]["bestguess"]["per_run"];
    let runs = custom["wall_us"].as_array().unwrap().len();
    let mut values = vec![serde_json::json!(1.5); runs];
    values[2] = serde_json::json!(1e101);
    custom["score"] = serde_json::Value::Array(values);
    let e = refusal(&write("big.json", &doc.to_string()));
    assert!(
        e.contains("per_run.score[2] is 1e+101, not a number within ±1e100"),
        "{e}"
    );
}

/// Ranked by wall-clock time for want of CPU times: the ranking's header
/// blames Hyperfine 1.x's JSON only when such a file was read.
#[test]
fn the_reason_for_wall_clock_time_names_hyperfine_only_for_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let wall_only = dir.path().join("w.csv");
    fs::write(
        &wall_only,
        "benchmark,wall_time\nx,0.1\nx,0.2\ny,0.2\ny,0.3\n",
    )
    .unwrap();
    let wall_only = wall_only.to_string_lossy().into_owned();
    // A cbdr file without CPU times lacks them without Hyperfine's excuse;
    // the ranking's header says why wall-clock time is ranked.
    let flat = |t: String| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let (line, _) = report(&[&wall_only]);
    let line = flat(line);
    assert!(
        line.contains("Ranked by wall-clock time: the data hold no CPU time per run."),
        "{line}"
    );
    assert!(!line.contains("Hyperfine"), "{line}");
    let (line, _) = report(&[HF1]);
    assert!(
        flat(line.clone()).contains("(Hyperfine 1.x's JSON keeps only its mean)"),
        "{line}"
    );
}

/// A total in `bestguess.per_run` (`total_us`, `context_switches`) is the
/// sum of its parts, recomputed when read: one that disagrees with them,
/// or stands without them, is refused with its place, never silently
/// dropped (a file with `total_us` alone is not read as having no CPU
/// time, and ranked by wall-clock time).
#[test]
fn bestguess_totals_must_agree_with_their_parts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("own.json");
    bestreport()
        .args(["-Q", "--json-runs", "bestguess", "--export-json"])
        .arg(&out)
        .arg("tests/data/c_tool/raw1.csv")
        .assert()
        .success();
    let own: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    type PerRun = serde_json::Map<String, serde_json::Value>;
    // The document with the first result's per_run edited by `edit`.
    let edited = |edit: &dyn Fn(&mut PerRun)| {
        let mut doc = own.clone();
        edit(
            doc["results"][0]["bestguess"]["per_run"]
                .as_object_mut()
                .unwrap(),
        );
        let path = dir.path().join("edited.json");
        fs::write(&path, doc.to_string()).unwrap();
        path
    };
    let error = |edit: &dyn Fn(&mut PerRun)| {
        let out = bestreport().arg(edited(edit)).assert().code(2);
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };

    // As written, it reads back.
    bestreport().arg(edited(&|_| {})).assert().success();

    let total = own["results"][0]["bestguess"]["per_run"]["total_us"][3]
        .as_i64()
        .unwrap();
    let e = error(&|map| map["total_us"][3] = serde_json::json!(total + 1));
    assert!(
        e.contains(&format!(
            "results[0].bestguess.per_run.total_us[3] is {}, but user_us + system_us is {total}; \
             correct the value or remove total_us",
            total + 1
        )),
        "{e}"
    );

    let e = error(&|map| {
        map.remove("user_us");
        map.remove("system_us");
    });
    assert!(
        e.contains("per_run.total_us[0] is ")
            && e.contains("but user_us[0] or system_us[0] is absent: total_us is their sum"),
        "{e}"
    );

    let e = error(&|map| {
        let count = |key: &str| map[key][2].as_i64().unwrap();
        let wrong = count("voluntary_csw") + count("involuntary_csw") + 7;
        map["context_switches"][2] = serde_json::json!(wrong);
    });
    assert!(
        e.contains("per_run.context_switches[2] is ")
            && e.contains("but voluntary_csw + involuntary_csw is "),
        "{e}"
    );

    // Parts whose sum does not fit: refused with or without the total
    // (without it, the run is not read as having no CPU time).
    for drop_total in [false, true] {
        let e = error(&|map| {
            map["user_us"][1] = serde_json::json!(i64::MAX);
            map["system_us"][1] = serde_json::json!(1);
            if drop_total {
                map.remove("total_us");
            } else {
                map["total_us"][1] = serde_json::Value::Null;
            }
        });
        assert!(
            e.contains("per_run.user_us[1] + system_us[1] is too large to represent"),
            "{e}"
        );
    }
    // Which runs timed out is true or false, not 0 or 1.
    let e = error(&|map| {
        let runs = map["exit_code"].as_array().unwrap().len();
        map.insert("timed_out".into(), serde_json::json!(vec![1; runs]));
    });
    assert!(
        e.contains("per_run.timed_out[0] is 1, not true or false"),
        "{e}"
    );

    // Without the totals, the parts give them: the same report.
    let parts = edited(&|map| {
        map.remove("total_us");
        map.remove("context_switches");
    });
    let (a, _) = report(&["-E", out.to_str().unwrap()]);
    let (b, _) = report(&["-E", parts.to_str().unwrap()]);
    assert_eq!(a, b);
}

#[test]
fn json_with_a_bom_reads_and_json_without_runs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| write_in(&dir, name, bytes);
    let bom = write(
        "bom.json",
        b"\xef\xbb\xbf{\"results\":[{\"command\":\"a\",\"times\":[0.001,0.002]}]}",
    );
    let d = read(&bom);
    assert_eq!(d.commands[0].len(), 2);
    // A command without runs would vanish from the report.
    let none = write(
        "none.json",
        br#"{"results":[{"command":"a","times":[]},{"command":"b","times":[0.001]}]}"#,
    );
    let e = Dataset::read_files(&[none]).unwrap_err().to_string();
    assert!(e.contains("results[0] ('a') holds no runs"), "{e}");
    // No results at all: no report, no exports, and an error (not exit 0).
    let empty = write("empty.json", br#"{"schema_version":2,"results":[]}"#);
    let out = dir.path().join("out.json");
    bestreport()
        .args(["-S", "--export-json"])
        .arg(&out)
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no runs to report or export"));
    assert!(!out.exists());

    // Exit codes and signals are checked like the metrics: "0" is no
    // exit code, and an array shorter or longer than `times` cannot be
    // matched to the runs (a longer one's failed run could be dropped).
    for (codes, memory, said) in [
        (
            "[0,0]",
            "[1,1,1]",
            "results[0].exit_codes has 2 values for the 3 runs of .times",
        ),
        (
            "[0,0,0,1]",
            "[1,1,1]",
            "results[0].exit_codes has 4 values for the 3 runs",
        ),
        (
            "[0,0,0]",
            "[1,1]",
            "results[0].memory_usage_byte has 2 values for the 3 runs",
        ),
    ] {
        let h1 = write(
            "h1.json",
            format!(
                r#"{{"results":[{{"command":"a","times":[0.001,0.002,0.003],"exit_codes":{codes},"memory_usage_byte":{memory}}}]}}"#
            )
            .as_bytes(),
        );
        let e = Dataset::read_files(&[h1]).unwrap_err().to_string();
        assert!(e.contains(said), "{e}");
    }
    let h2 = write(
        "h2.json",
        br#"{"results":[{"command":"a","measurements":[{"time_wall_clock":{"value":0.001,"unit":"second"},"exit_code":"0"}]}]}"#,
    );
    let e = Dataset::read_files(&[h2]).unwrap_err().to_string();
    assert!(
        e.contains("results[0].measurements[0].exit_code is \"0\", not an exit code"),
        "{e}"
    );
    // null is Hyperfine's exit code of a run a signal ended: a failed run.
    let h3 = write(
        "h3.json",
        br#"{"results":[{"command":"a","measurements":[{"time_wall_clock":{"value":0.001,"unit":"second"},"exit_code":null},{"time_wall_clock":{"value":0.002,"unit":"second"},"exit_code":0}]}]}"#,
    );
    assert_eq!(read(&h3).commands[0].failed(), 1);
}

/// cbdr's benchmark names are kept as written (` a ` and `a` are not
/// trimmed into one bimodal command), numbers may be padded, and a column
/// of the benchmark's own is a number `--metric NAME` finds (not
/// `score (s)`, seconds, which `--metric score` would not find).
#[test]
fn cbdr_names_are_kept_and_own_columns_are_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.csv");
    let mut text = String::from("benchmark,wall_time,score\n");
    for i in 0..6 {
        text.push_str(&format!("a,0.01{i},{}\n a , 0.02{i} ,{}\n", 5 + i, 9 + i));
    }
    fs::write(&path, text).unwrap();
    let d = read(path.to_str().unwrap());
    let names: Vec<&str> = d.commands.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(names, ["a", " a "]);
    assert!((d.commands[1].value(0, Metric::WALL).unwrap().as_f64() - 20_000.0).abs() < 1e-6);
    let out = bestreport()
        .args(["-Q", "-R", "--metric", "score"])
        .arg(&path)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("score"), "{stdout}");
}

/// Two files' commands, exported together and read back, keep their
/// files' names as tags (not `group 1` and `group 2`).
#[test]
fn a_json_round_trip_keeps_the_files_tags() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    fs::copy("tests/data/fixtures/steady.csv", &a).unwrap();
    fs::copy("tests/data/fixtures/steady.csv", &b).unwrap();
    let json = dir.path().join("two.json");
    bestreport()
        .args(["-Q", "--export-json"])
        .arg(&json)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let d = read(json.to_str().unwrap());
    let tags: Vec<&str> = d.commands.iter().map(|c| c.tag.as_str()).collect();
    assert!(
        tags.contains(&"a.csv") && tags.contains(&"b.csv"),
        "{tags:?}"
    );
    assert!(!tags.iter().any(|t| t.contains("group")), "{tags:?}");
}

/// The C tool's older files (tools/make_format_fixtures.py: raw1.csv's
/// rows under the 11- and 10-column headers of its history) read by their
/// columns' names, to the same runs as the file they came from.
#[test]
fn the_c_tools_older_files_are_read_by_their_column_names() {
    let original = read("tests/data/c_tool/raw1.csv");
    for (path, has_wall) in [
        ("tests/data/formats/c-tool-11-columns.csv", true),
        ("tests/data/formats/c-tool-10-columns.csv", false),
    ] {
        let d = read(path);
        assert_eq!(d.sources[0].format, InputFormat::RawCsv);
        assert_eq!(d.commands.len(), original.commands.len(), "{path}");
        for (c, o) in d.commands.iter().zip(&original.commands) {
            assert_eq!((&c.command, &c.shell), (&o.command, &o.shell));
            assert_eq!(c.len(), o.len());
            for i in 0..c.len() {
                for m in [
                    Metric::USER,
                    Metric::SYSTEM,
                    Metric::TOTAL,
                    Metric::MAXRSS,
                    Metric::MINOR_FAULTS,
                    Metric::MAJOR_FAULTS,
                    Metric::VOLUNTARY_CSW,
                    Metric::INVOLUNTARY_CSW,
                ] {
                    assert_eq!(c.value(i, m), o.value(i, m), "{path} run {i} {m}");
                }
                let wall = c.value(i, Metric::WALL);
                if has_wall {
                    assert_eq!(wall, o.value(i, Metric::WALL));
                } else {
                    assert_eq!(wall, None, "a column the file lacks is absent");
                }
                assert_eq!(c.exit_code(i), o.exit_code(i));
            }
        }
        // The report ranks them as the original's (by CPU time: a file
        // without wall-clock times has nothing else to choose from).
        let (out, _) = report(&["--metric", "cpu", path]);
        let (theirs, _) = report(&["--metric", "cpu", "tests/data/c_tool/raw1.csv"]);
        let ranking = |t: &str| t[t.find("Best guess ranking").expect("a ranking")..].to_owned();
        assert_eq!(ranking(&out), ranking(&theirs), "{out}");
    }
}

#[test]
fn older_cbdr_columns_are_read_in_milliseconds_as_their_times() {
    let d = read("tests/data/formats/cbdr-millis.csv");
    let seconds = read(CBDR);
    assert_eq!(d.sources[0].format, InputFormat::CbdrCsv);
    for (c, s) in d.commands.iter().zip(&seconds.commands) {
        for i in 0..c.len() {
            for m in [Metric::WALL, Metric::USER, Metric::SYSTEM] {
                let (a, b) = (c.value(i, m).unwrap(), s.value(i, m).unwrap());
                assert!((a.as_f64() - b.as_f64()).abs() < 1e-3, "{m} {a:?} {b:?}");
            }
        }
    }
    // `--metric wall` finds them, shown as a time.
    let (out, _) = report(&["--metric", "wall", "tests/data/formats/cbdr-millis.csv"]);
    assert!(out.contains("═ Wall clock ═"), "{out}");
    assert!(out.contains(" ms") && !out.contains(" m "), "{out}");
    // One time under two names is refused.
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.csv");
    fs::write(&both, "benchmark,wall_time,wall_clock_millis\na,0.001,1\n").unwrap();
    let err = bestreport().arg(&both).assert().failure().code(2);
    let err = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(err.contains("columns 2 and 3"), "{err}");
}

#[test]
fn hyperfine_2_summary_csv_is_refused_with_the_right_advice() {
    let err = bestreport()
        .arg("tests/data/formats/hyperfine-2.0-export.csv")
        .assert()
        .failure()
        .code(2);
    let err = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("Hyperfine 2.0's summary CSV (--export-csv)"),
        "{err}"
    );
    assert!(err.contains("--export-json instead"), "{err}");
    assert!(!err.contains("add that line"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Hyperfine 1.x keeps only the means of user and system time, and before
/// 1.13 wrote no exit codes: a re-export keeps the means (not `null`) and
/// writes no exit code (not 0), through two
/// generations of re-export.
#[test]
fn hyperfine_1_json_re_exported_keeps_its_means_and_invents_no_exit_codes() {
    let source = "tests/data/formats/hyperfine-1-no-exit-codes.json";
    let original: serde_json::Value = serde_json::from_slice(&fs::read(source).unwrap()).unwrap();
    let d = read(source);
    for c in &d.commands {
        assert!(!c.has_exit_codes(), "{}", c.command);
        assert_eq!(c.failed(), 0);
        assert_eq!(
            c.value(0, Metric::USER),
            None,
            "no per-run user time is made up"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut input = source.to_owned();
    for generation in 1..=2 {
        let out = dir.path().join(format!("re{generation}.json"));
        let out = out.to_str().unwrap().to_owned();
        report(&["-Q", "--export-json", &out, &input]);
        let doc: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
        for (r, o) in doc["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(original["results"].as_array().unwrap())
        {
            for key in ["user", "system"] {
                let (got, want) = (r[key].as_f64(), o[key].as_f64().unwrap());
                assert!(
                    got.is_some_and(|g| (g - want).abs() < 1e-12),
                    "generation {generation}: {key} {got:?}, the source had {want}"
                );
            }
            assert!(
                r.get("exit_codes").is_none(),
                "generation {generation}: {r}"
            );
            for m in r["measurements"].as_array().unwrap() {
                assert!(m.get("exit_code").is_none(), "generation {generation}: {m}");
            }
            let per_run = &r["bestguess"]["per_run"]["exit_code"];
            assert!(
                per_run.as_array().unwrap().iter().all(|c| c.is_null()),
                "{per_run}"
            );
        }
        let back = read(&out);
        assert!(back.commands.iter().all(|c| !c.has_exit_codes()));
        input = out;
    }
    // A file with exit codes keeps them, and its means too.
    let out = dir.path().join("hf1.json");
    report(&["-Q", "--export-json", out.to_str().unwrap(), HF1]);
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let hf1: serde_json::Value = serde_json::from_slice(&fs::read(HF1).unwrap()).unwrap();
    let (r, o) = (&doc["results"][0], &hf1["results"][0]);
    assert_eq!(r["exit_codes"], o["exit_codes"]);
    assert!((r["user"].as_f64().unwrap() - o["user"].as_f64().unwrap()).abs() < 1e-12);
}

/// Hyperfine 1.x's JSON alone ranks by wall-clock time with a note; mixed
/// with a raw CSV it does the same, naming the file that lacks CPU times
/// (rather than stopping to ask for --metric wall).
#[test]
fn formats_mixed_in_one_call_agree_on_the_metric_with_a_note() {
    let out = bestreport()
        .args([HF1, "tests/data/c_tool/raw1.csv"])
        .assert()
        .success()
        .get_output()
        .clone();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    let line = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        line.contains(
            "Ranked by wall-clock time: hyperfine-1.20-export.json holds no CPU time per run \
             (Hyperfine 1.x's JSON keeps only its mean)."
        ),
        "{stdout}\n{stderr}"
    );
    assert!(stdout.contains("═ Wall clock ═"), "{stdout}");
    for command in ["ls", "sleep 0.01", "ls -l", "ps Aux"] {
        assert!(
            stdout.contains(&format!(": {command} ")),
            "{command}: {stdout}"
        );
    }
    // Asked for, the metric is the user's: no note, and the commands
    // without it are an error that says so.
    let out = bestreport()
        .args(["--metric", "cpu", HF1, "tests/data/c_tool/raw1.csv"])
        .assert()
        .get_output()
        .clone();
    assert!(!String::from_utf8(out.stderr)
        .unwrap()
        .contains("Note: hyperfine"));
}

/// A long command read from two files: cut to fit the ranking, each keeps
/// its file's tag (cut from the end, the two would look identical).
#[test]
fn a_cut_label_keeps_its_files_tag() {
    let dir = tempfile::tempdir().unwrap();
    let raw = fs::read_to_string("tests/data/c_tool/raw1.csv").unwrap();
    let long = "ls -l --color=never --time-style=long-iso /usr/share/doc";
    let raw = raw.replace("\"ls -l\"", &format!("\"{long}\""));
    for name in ["first.csv", "second.csv"] {
        fs::write(dir.path().join(name), &raw).unwrap();
    }
    let out = bestreport()
        .current_dir(dir.path())
        .args(["-Q", "-R", "-c", "width=80", "first.csv", "second.csv"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains("ls -l")).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows.iter().all(|r| r.contains('…')),
        "the label is cut: {stdout}"
    );
    assert!(rows.iter().any(|r| r.contains("[first.csv]")), "{stdout}");
    assert!(rows.iter().any(|r| r.contains("[second.csv]")), "{stdout}");
}

/// Fifty raw files, one command each, 10 runs, except the fastest, of 3
/// runs: the files written for [`fifty_files_read_together_with_one_short_command`].
fn fifty_files(dir: &std::path::Path) -> Vec<String> {
    const HEADER: &str = "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),\
        Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,\
        Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches\n";
    (0..50)
        .map(|k| {
            let runs = if k == 17 { 3 } else { 12 };
            let mut text = HEADER.to_owned();
            for i in 0..runs {
                // The short command is the fastest: the case that must not
                // silence the ranking.
                let base = if k == 17 { 500 } else { 1000 + 100 * k };
                let user = base + (i * 7) % 10;
                text.push_str(&format!(
                    "\"work {k}\",\"\",\"\",1,0,{user},100,2000000,10,0,1,1,{},{},2\n",
                    user + 150,
                    user + 100
                ));
            }
            let name = format!("f{k:02}.csv");
            fs::write(dir.join(&name), text).unwrap();
            name
        })
        .collect()
}

/// Real collections are read together (64 Hyperfine files of 8 projects):
/// fifty files, one with a command of 3 runs, are all read, reported and
/// exported.
#[test]
fn fifty_files_read_together_with_one_short_command() {
    let dir = tempfile::tempdir().unwrap();
    let files = fifty_files(dir.path());
    let out = bestreport()
        .current_dir(dir.path())
        .args(["--export-json", "all.json"])
        .args(&files)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    for k in 0..50 {
        assert!(
            stdout.contains(&format!(": work {k}\n")),
            "work {k}: {stdout}"
        );
    }
    let doc: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("all.json")).unwrap()).unwrap();
    assert_eq!(doc["results"].as_array().unwrap().len(), 50);
    assert_eq!(doc["metadata"]["sources"].as_array().unwrap().len(), 50);
    let short = &doc["results"][17];
    assert_eq!(short["command"], "work 17");
    assert_eq!(short["times"].as_array().unwrap().len(), 3);
}

/// The same fifty files ranked: the 3-run command is listed "not
/// compared" and the other 49 are ranked among themselves (one short
/// command must not silence the whole ranking: "Lacking the 5 timed runs").
#[test]
fn one_short_command_among_fifty_files_does_not_silence_the_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let files = fifty_files(dir.path());
    let out = bestreport()
        .current_dir(dir.path())
        .args(["-Q", "-R"])
        .args(&files)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("Lacking the 5 timed runs"), "{stdout}");
    let row = |k: usize| {
        stdout
            .lines()
            .find(|l| l.contains(&format!(": work {k} ")))
            .unwrap_or_else(|| panic!("no row for work {k}: {stdout}"))
            .to_owned()
    };
    // 49 medians bounded at α/98 a side need 11 runs each: work 17's 3
    // are too few, and 11 runs of each would compare all fifty.
    assert!(row(17).contains("not compared: n = 3"), "{stdout}");
    assert!(stdout.contains("needs 11 runs of each"), "{stdout}");
    // work 0 is the fastest of those compared: the reference (work 17,
    // faster, has too few runs to be one).
    assert!(row(0).contains('✻'), "{stdout}");
    // The others are compared, each 10 % or more slower than the next.
    assert!(!row(49).contains("not compared"), "{stdout}");
    assert!(stdout.contains("48 slower"), "{stdout}");
}

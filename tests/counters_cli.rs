//! Counters, a command's own metrics, pinning and environment padding,
//! driven through `bestguess` and `bestreport` as a user would.
//! Software counters work on the VMs these tests run on; hardware counters
//! are checked to fail cleanly where there is no PMU, and to be recorded
//! where there is one.
// Some cases need the Linux measurement path (each says why); in the
// portable build their helpers go unused.
#![cfg_attr(not(bestguess_linux), allow(dead_code, unused_imports))]

mod support;

use std::path::Path;

use support::{bestguess, bestreport};

/// The raw CSV as a header and rows of strings.
fn table(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Column `name` of every row, as numbers (`None` for an empty cell).
fn column(path: &Path, name: &str) -> Vec<Option<f64>> {
    let (header, rows) = table(path);
    let i = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column '{name}' in {header:?}"));
    rows.iter()
        .map(|r| {
            r.get(i)
                .filter(|v| !v.is_empty())
                .map(|v| v.parse().unwrap())
        })
        .collect()
}

fn numbers(path: &Path, name: &str) -> Vec<f64> {
    column(path, name)
        .into_iter()
        .map(|v| v.expect("a value in every row"))
        .collect()
}

#[cfg(bestguess_linux)]
const SOFTWARE: &str = "task-clock,page-faults,context-switches,cpu-migrations";
#[cfg(bestguess_linux)]
const BUSY: &str = "sh -c 'i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done'";

/// Our lines on standard error (notes of other kinds, such as the one
/// about wall time on a loaded machine, left out).
fn ours(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| l.starts_with("bestguess: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// task-clock over CPU time, per run.
#[cfg(bestguess_linux)]
fn ratios(raw: &Path) -> Vec<f64> {
    let cpu = numbers(raw, "Total time (us)");
    let tc = numbers(raw, "task-clock (ns)");
    tc.iter().zip(&cpu).map(|(t, c)| t / 1000.0 / c).collect()
}

fn has_pmu() -> bool {
    ["cpu", "cpu_core", "armv8_pmuv3_0"]
        .iter()
        .any(|d| Path::new("/sys/bus/event_source/devices").join(d).exists())
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn software_counters_are_appended_columns_that_agree_with_cpu_time() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args(["-Q", "--counters", SOFTWARE, "-r", "5", "-o"])
        .arg(&raw)
        .arg(BUSY)
        .assert()
        .success();
    let (header, _) = table(&raw);
    assert_eq!(
        &header[header.len() - 4..],
        [
            "task-clock (ns)",
            "page-faults (ct)",
            "context-switches (ct)",
            "cpu-migrations (ct)"
        ],
        "appended after every other column"
    );
    assert_eq!(header[..15].join(","), "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches");
    let cpu = numbers(&raw, "Total time (us)");
    assert!(cpu.iter().all(|&c| c >= 20_000.0), "{cpu:?}");
    support::assert_task_clock_agrees(&ratios(&raw));
    assert!(numbers(&raw, "page-faults (ct)").iter().all(|&p| p > 0.0));
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn counters_count_what_the_command_starts() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    // The loop runs in a child of the measured shell (a subshell).
    bestguess()
        .args(["-Q", "--counters", "task-clock", "-r", "5", "-o"])
        .arg(&raw)
        .arg("sh -c '( i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done ); :'")
        .assert()
        .success();
    support::assert_task_clock_agrees(&ratios(&raw));
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn a_hardware_counter_without_a_pmu_is_one_note_and_the_rest_is_measured() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let out = bestguess()
        .args(["--counters", "task-clock,cycles", "-r", "3", "-o"])
        .arg(&raw)
        .arg("true")
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = ours(&out.stderr);
    let (header, rows) = table(&raw);
    assert_eq!(rows.len(), 3);
    assert!(numbers(&raw, "task-clock (ns)").iter().all(|&v| v > 0.0));
    assert!(numbers(&raw, "Wall clock (us)").iter().all(|&v| v > 0.0));
    if has_pmu() {
        assert!(header.iter().any(|h| h == "cycles (ct)"));
    } else {
        assert_eq!(
            stderr,
            "bestguess: note: cycles not measured: no hardware performance counters here \
             (no PMU, usual in virtual machines); run on bare metal or give the VM a virtual \
             PMU (e.g. QEMU/KVM -cpu host)\n"
        );
        assert!(
            !header.iter().any(|h| h.starts_with("cycles")),
            "no column of zeros for what was not measured: {header:?}"
        );
    }
}

#[test]
fn unknown_counters_are_usage_errors() {
    bestguess()
        .args(["--counters", "task-clock,bogus", "true"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("unknown counter 'bogus'"));
}

#[test]
fn commands_report_their_own_metrics_and_a_malformed_line_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let cmd =
        "sh -c 'printf \"tokens 12.5\\nbogus line here\\nrate 3\\n\" > \"$BESTGUESS_METRICS\"'";
    let out = bestguess()
        .args([
            "-w",
            "0",
            "--custom-metrics",
            "tokens,rate",
            "-r",
            "3",
            "-o",
        ])
        .arg(&raw)
        .arg(cmd)
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(numbers(&raw, "tokens (number)"), [12.5; 3]);
    assert_eq!(numbers(&raw, "rate (number)"), [3.0; 3]);
    let stderr = ours(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "once per command: {stderr}");
    assert!(
        stderr.starts_with("bestguess: warning: run 1 of command 1 (")
            && stderr
                .contains("$BESTGUESS_METRICS line 2 'bogus line here': expected 'name value'"),
        "{stderr}"
    );
}

#[test]
fn a_metric_a_run_does_not_report_is_absent_not_zero() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let flag = dir.path().join("flag");
    // Every other run reports.
    let cmd = format!(
        "sh -c 'if [ -e {f} ]; then rm {f}; else touch {f}; echo \"n 1\" > \"$BESTGUESS_METRICS\"; fi'",
        f = flag.display()
    );
    bestguess()
        .args([
            "-w",
            "0",
            "-Q",
            "--order",
            "sequential",
            "--custom-metrics",
            "n",
            "-r",
            "4",
            "-o",
        ])
        .arg(&raw)
        .arg(&cmd)
        .assert()
        .success();
    assert_eq!(
        column(&raw, "n (number)"),
        [Some(1.0), None, Some(1.0), None]
    );
}

// Linux measurement path only: pinning is sched_setaffinity.
#[cfg(bestguess_linux)]
#[test]
fn pinned_commands_see_only_the_chosen_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let last = cpus - 1;
    let cmd = "sh -c 'awk \"/^Cpus_allowed_list/ {print \\\"pinned\\\", \\$2}\" /proc/self/status > \"$BESTGUESS_METRICS\"'";
    bestguess()
        .args(["-Q", "--custom-metrics", "pinned", "-r", "3", "--cpus"])
        .arg(last.to_string())
        .arg("-o")
        .arg(&raw)
        .arg(cmd)
        .assert()
        .success();
    assert_eq!(numbers(&raw, "pinned (number)"), [last as f64; 3]);
    bestguess()
        .args(["--cpus", "1000", "true"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--cpus 1000: cannot pin to these CPUs",
        ));
    // A set the kernel takes in part (it pins to CPU 0 alone, silently).
    bestguess()
        .args(["--cpus", "0,1000", "true"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--cpus 0,1000: CPU 1000 is not available; this process may use CPUs",
        ));
}

#[test]
fn a_flood_of_bad_metric_lines_gives_a_few_warnings() {
    let out = bestguess()
        .args(["-r", "3", "--custom-metrics", "foo", "-s", "/bin/sh -c"])
        .arg("i=0; while [ $i -lt 500 ]; do echo \"bad line $i\"; i=$((i+1)); done > \"$BESTGUESS_METRICS\"")
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warnings.len(), 6, "{stderr}");
    assert!(warnings[0].contains("line 1 'bad line 0'"), "{stderr}");
    assert!(
        warnings[5].contains("no more are shown for this command"),
        "{stderr}"
    );
}

#[test]
fn custom_metrics_cannot_take_a_name_the_tool_measures() {
    // `--metric rss` would rank by Max RSS, never by the command's `rss`.
    for name in ["rss", "cpu", "wall", "Memory", "minflt", "task-clock"] {
        bestguess()
            .args([
                "-Q",
                "--custom-metrics",
                name,
                "-s",
                "/bin/sh -c",
                "touch ran",
            ])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(format!(
                "--custom-metrics: '{name}' is already the name of a metric bestguess measures"
            )));
    }
}

#[test]
fn environment_padding_is_recorded_seeded_and_seen_by_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let run = |seed: &str, name: &str| {
        let raw = dir.path().join(name);
        bestguess()
            .args([
                "-Q",
                "--randomize-env",
                "--seed",
                seed,
                "--custom-metrics",
                "seen",
            ])
            .args(["-r", "10", "-o"])
            .arg(&raw)
            .arg("sh -c 'echo \"seen ${#BESTGUESS_ENV_PAD}\" > \"$BESTGUESS_METRICS\"'")
            .assert()
            .success();
        let pad = numbers(&raw, "env-padding (bytes)");
        assert_eq!(
            pad,
            numbers(&raw, "seen (number)"),
            "what the command saw is recorded"
        );
        assert!(pad.iter().all(|&p| (0.0..=4096.0).contains(&p)));
        pad
    };
    let a = run("11", "a.csv");
    assert_eq!(
        a,
        run("11", "b.csv"),
        "the same seed gives the same padding"
    );
    assert_ne!(a, run("12", "c.csv"));
    let mut distinct = a.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    assert!(distinct.len() > 5, "{a:?}");
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn counters_and_custom_metrics_round_trip_through_bestreport() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let json = dir.path().join("run.json");
    let run = bestguess()
        .args([
            "--counters",
            "task-clock,page-faults",
            "--custom-metrics",
            "tokens",
        ])
        .args(["-r", "6", "--export-json"])
        .arg(&json)
        .arg("-o")
        .arg(&raw)
        .arg("sh -c 'echo tokens 7 > \"$BESTGUESS_METRICS\"'")
        .arg("true")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report = String::from_utf8(run).unwrap();
    for row in ["task-clock", "page-faults", "tokens"] {
        assert!(
            report.contains(&format!(" {row} ")),
            "a summary row for {row}:\n{report}"
        );
    }
    bestreport().arg(&raw).assert().success().stdout(report);
    // JSON: per run and summarised, for both commands.
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for result in j["results"].as_array().unwrap() {
        let bg = &result["bestguess"];
        assert!(bg["task-clock"]["median"].as_f64().unwrap() > 0.0, "{bg}");
        assert!(bg["page-faults"]["median"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(
        j["metadata"]["counters"],
        serde_json::json!(["task-clock", "page-faults", "tokens"])
    );
    let tokens = &j["results"][0]["bestguess"]["tokens"]["median"];
    assert_eq!(tokens.as_f64(), Some(7.0));
    assert!(j["results"][1]["bestguess"]["tokens"]["median"].is_null());
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn ranking_by_task_clock_reads_back_identically() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let run = bestguess()
        .args(["--metric", "task-clock", "--counters", "task-clock"])
        .args(["--custom-metrics", "tokens", "-r", "6", "-o"])
        .arg(&raw)
        .arg("sh -c 'echo tokens 7 > \"$BESTGUESS_METRICS\"'")
        .arg("true")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report = String::from_utf8(run).unwrap();
    assert!(report.contains("task-clock"), "{report}");
    bestreport()
        .args(["--metric", "task-clock"])
        .arg(&raw)
        .assert()
        .success()
        .stdout(report);
}

/// C BestGuess's reader as `bestguess-behaviour.md` §4.1 describes it
/// (there is no C binary here to run): the first line is skipped; per row,
/// fields quoted (ending at a `"` not followed by `"`) or bare (up to `,`
/// or newline), each followed by `,` or newline; columns 1–3 text, 4–13
/// integers; anything after column 13 ignored. Returns columns 4–13.
fn c_tool_reader(text: &str) -> Result<Vec<[i64; 10]>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.split_inclusive('\n').enumerate().skip(1) {
        let b = line.as_bytes();
        let mut pos = 0;
        let mut fields = Vec::new();
        while fields.len() < 13 {
            let start = pos;
            if b.get(pos) == Some(&b'"') {
                pos += 1;
                loop {
                    match (b.get(pos), b.get(pos + 1)) {
                        (Some(b'"'), Some(b'"')) | (Some(b'\\'), Some(b'"')) => pos += 2,
                        (Some(b'"'), _) => break,
                        (Some(_), _) => pos += 1,
                        (None, _) => return Err(format!("line {n}: open quote")),
                    }
                }
                pos += 1;
            } else {
                while !matches!(b.get(pos), Some(b',') | Some(b'\n') | None) {
                    pos += 1;
                }
            }
            fields.push(&line[start..pos]);
            match b.get(pos) {
                Some(b',') | Some(b'\n') => pos += 1,
                _ => return Err(format!("line {n}: no data in col {}", fields.len() + 1)),
            }
        }
        let mut ints = [0i64; 10];
        for (k, f) in fields[3..].iter().enumerate() {
            ints[k] = f
                .trim_start()
                .parse()
                .map_err(|_| format!("line {n}: no integer in col {}", k + 4))?;
        }
        rows.push(ints);
    }
    Ok(rows)
}

#[test]
fn the_c_tool_reader_still_reads_a_file_with_every_extra() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    bestguess()
        .args([
            "-Q",
            "--counters",
            "all",
            "--custom-metrics",
            "score,absent",
        ])
        .args(["--randomize-env", "--seed", "3", "-r", "4", "-o"])
        .arg(&raw)
        .arg("sh -c 'echo score 0.25 > \"$BESTGUESS_METRICS\"'")
        .arg("true")
        .assert()
        .success();
    let text = std::fs::read_to_string(&raw).unwrap();
    let rows = c_tool_reader(&text).unwrap();
    assert_eq!(rows.len(), 8);
    // The same batches and measurements as a strict CSV reader sees.
    let (_, table_rows) = table(&raw);
    for (r, t) in rows.iter().zip(&table_rows) {
        let ours: Vec<i64> = t[3..13].iter().map(|v| v.parse().unwrap()).collect();
        assert_eq!(r.to_vec(), ours);
        assert!(t.len() > 19, "the extras are appended after column 19");
    }
}

#[test]
fn ranking_by_a_counter_that_cannot_be_read_says_so_not_to_ask_for_it() {
    if has_pmu() {
        return; // cycles is measured here: nothing to refuse
    }
    let out = bestguess()
        .args([
            "--counters",
            "cycles",
            "--metric",
            "cycles",
            "-r",
            "3",
            "true",
        ])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = ours(&out.stderr);
    assert!(
        stderr
            .contains("error: --metric cycles: the cycles counter cannot be read on this machine"),
        "{stderr}"
    );
    // No advice to do what the user did.
    assert!(!stderr.contains("measure it with --counters"), "{stderr}");
}

/// The portable build has no counters and cannot pin: `--counters` is one
/// note and the runs are measured without them; `--cpus` is refused before
/// any run, saying why.
#[cfg(not(bestguess_linux))]
#[test]
fn the_portable_build_notes_counters_and_refuses_pinning() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let out = bestguess()
        .args(["-r", "3", "--counters", "task-clock,cycles", "-o"])
        .arg(&raw)
        .arg("true")
        .assert()
        .success();
    let stderr = ours(&out.get_output().stderr);
    assert_eq!(
        stderr.trim_end(),
        "bestguess: note: task-clock, cycles not measured: the portable build has no \
         performance counters (they need Linux's perf events)"
    );
    let (header, rows) = table(&raw);
    assert_eq!(rows.len(), 3);
    assert!(
        !header.iter().any(|h| h.starts_with("task-clock")),
        "{header:?}"
    );
    let refused = bestguess()
        .args(["-r", "3", "--cpus", "0", "-o"])
        .arg(dir.path().join("pinned.csv"))
        .arg("true")
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        stderr.contains("--cpus 0: the portable build cannot pin commands to CPUs"),
        "{stderr}"
    );
    assert!(!dir.path().join("pinned.csv").exists());
}

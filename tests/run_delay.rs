//! The run-queue delay (time a command waited for a CPU), measured per run
//! by the launcher, and the metric chosen from it: through the binaries,
//! with real processes, on a shared machine. A CPU hog pinned to the same
//! CPU as the command (started by the test, killed when it ends) makes the
//! wait certain; the assertions ask for "clearly more than 0" or "a small
//! share", never exact values.
// Some cases need the Linux measurement path (each says why); in the
// portable build their helpers go unused.
#![cfg_attr(not(bestguess_linux), allow(dead_code, unused_imports))]

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

use support::run;

/// The tests take turns: one's hogs would load another's commands.
static HOGS: Mutex<()> = Mutex::new(());

/// CPU hogs (`sh` busy loops) pinned to one CPU, killed when dropped.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start(n: usize, cpu: u32) -> Hogs {
        let hogs = (0..n)
            .map(|_| {
                Command::new("taskset")
                    .args(["-c", &cpu.to_string(), "sh", "-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .spawn()
                    .expect("taskset (util-linux) starts a pinned hog")
            })
            .collect();
        Hogs(hogs)
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for h in &mut self.0 {
            let _ = h.kill();
            let _ = h.wait();
        }
    }
}

/// The first CPU this process may use (the hogs and the command share it).
fn a_cpu() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_owned();
    let first = list.split([',', '-']).next().unwrap();
    first.parse().unwrap()
}

/// A busy loop in the shell's own process, about 30–60 ms of CPU time.
const LOOP: &str = "sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'";

/// Per run of `command` in the raw file: (wall, CPU, delay) in µs.
fn times(raw: &Path, command: &str) -> Vec<(f64, f64, Option<f64>)> {
    let mut r = csv::Reader::from_path(raw).unwrap();
    let header = r.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (c, wall, cpu, delay) = (
        at("Command"),
        at("Wall clock (us)"),
        at("Total time (us)"),
        at("Run-queue delay (us)"),
    );
    r.records()
        .map(|row| row.unwrap())
        .filter(|row| &row[c] == command)
        .map(|row| {
            let num = |i: usize| row[i].parse::<f64>().unwrap();
            let delay = (!row[delay].is_empty()).then(|| num(delay));
            (num(wall), num(cpu), delay)
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `text` with every run of blanks and line ends one space: a sentence
/// the report wrapped reads whole.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// bestguess with `args`, then bestreport on its raw file: both reports
/// (stdout) and standard errors, and the JSON each exported.
struct Both {
    run_out: String,
    run_err: String,
    report_out: String,
    run_json: serde_json::Value,
    report_json: serde_json::Value,
}

fn measure_and_report(dir: &Path, args: &[&str]) -> Both {
    let raw = dir.join("raw.csv");
    let (j1, j2) = (dir.join("run.json"), dir.join("report.json"));
    let mut all = vec!["-o", raw.to_str().unwrap(), "--export-json"];
    all.push(j1.to_str().unwrap());
    all.extend_from_slice(args);
    let (status, run_out, run_err) = run("bestguess", &all);
    assert_eq!(status, 0, "{run_err}");
    let (status, report_out, report_err) = run(
        "bestreport",
        &[raw.to_str().unwrap(), "--export-json", j2.to_str().unwrap()],
    );
    assert_eq!(status, 0, "{report_err}");
    Both {
        run_out: flat(&run_out),
        run_err: flat(&run_err),
        report_out: flat(&report_out),
        run_json: json(&j1),
        report_json: json(&j2),
    }
}

fn choice(j: &serde_json::Value) -> (&str, &str) {
    let b = &j["bestguess"];
    (
        b["ranked_metric"].as_str().unwrap(),
        b["metric_choice"]["reason"].as_str().unwrap(),
    )
}

// Linux measurement path only: the run-queue delay is read from /proc/PID/schedstat.
#[cfg(bestguess_linux)]
#[test]
fn a_sleeping_command_waits_for_no_cpu_and_ranks_by_wall_clock_time() {
    // Not beside the hogs of the other tests.
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let both = measure_and_report(dir.path(), &["-r", "5", "sleep 0.2", "sleep 0.1"]);
    let runs = times(&dir.path().join("raw.csv"), "sleep 0.2");
    let delays: Vec<f64> = (runs.iter())
        .map(|r| r.2.expect("the delay is recorded on Linux"))
        .collect();
    // A wake-up's wait: under 10 % of the 0.2 s even on a loaded machine.
    let delay = median(delays);
    let wall = median(runs.iter().map(|r| r.0).collect());
    assert!(delay < 0.1 * wall, "{delay} of {wall}");
    for j in [&both.run_json, &both.report_json] {
        assert_eq!(choice(j), ("wall_us", "waits"));
        assert_eq!(
            j["bestguess"]["metric_choice"]["commands"],
            serde_json::json!([0, 1])
        );
    }
    // The header says which metric and why; bestreport chooses the same.
    let line = "Ranked by wall-clock time: commands 1 and 2 spend up to";
    assert!(both.run_out.contains(line), "{}", both.run_out);
    assert!(both.report_out.contains(line), "{}", both.report_out);
    assert!(!both.run_err.contains("mostly wait"), "{}", both.run_err);
}

// Linux measurement path only: the run-queue delay is read from /proc/PID/schedstat.
#[cfg(bestguess_linux)]
#[test]
fn a_cpu_bound_command_beside_a_hog_on_its_cpu_waits_and_the_busy_machine_is_named() {
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let cpu = a_cpu();
    let dir = tempfile::tempdir().unwrap();
    let both = {
        let _hog = Hogs::start(1, cpu);
        let pin = cpu.to_string();
        measure_and_report(dir.path(), &["--cpus", &pin, "-r", "5", LOOP, "sleep 0.05"])
    };
    let runs = times(&dir.path().join("raw.csv"), LOOP);
    assert_eq!(runs.len(), 5);
    let delay = median(runs.iter().map(|r| r.2.unwrap()).collect());
    let cpu_time = median(runs.iter().map(|r| r.1).collect());
    // Sharing its CPU with a hog, the loop waits about as long as it runs.
    assert!(
        delay > 0.2 * cpu_time,
        "delay {delay} µs, CPU {cpu_time} µs"
    );
    // The sleep's waits are its own: wall-clock time is ranked, and the
    // busy machine is named; the loop is not said to wait.
    for j in [&both.run_json, &both.report_json] {
        let cpu_wait = &j["bestguess"]["cpu_wait"];
        assert!(cpu_wait["share"].as_f64().unwrap() > 0.1, "{cpu_wait}");
        assert_eq!(cpu_wait["busy"], true);
        assert_eq!(
            j["bestguess"]["metric_choice"]["commands"],
            serde_json::json!([1])
        );
    }
    for out in [&both.run_out, &both.report_out] {
        assert!(out.contains("Runs waited "), "{out}");
        assert!(out.contains("for a CPU: the machine was busy"), "{out}");
        assert!(
            out.contains("Run-queue delay"),
            "the summary shows it: {out}"
        );
    }
}

// Linux measurement path only: on a machine shared with other work, the
// run-queue delay is what tells waiting for a CPU from waiting.
#[cfg(bestguess_linux)]
#[test]
fn cpu_bound_commands_rank_cpu_time_and_bestreport_chooses_the_same() {
    // No hogs of the test's own: whatever else the machine runs.
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let longer = LOOP.replace("30000", "60000");
    let both = measure_and_report(dir.path(), &["-r", "5", LOOP, &longer]);
    for j in [&both.run_json, &both.report_json] {
        assert_eq!(choice(j), ("total_us", "on_cpu"), "{}", j["bestguess"]);
    }
    for out in [&both.run_out, &both.report_out] {
        assert!(
            out.contains("Ranked by CPU time: the commands spend"),
            "{out}"
        );
    }
    assert!(!both.run_err.contains("mostly wait"), "{}", both.run_err);
}

// Linux measurement path only: the run-queue delay is read from /proc/PID/schedstat.
#[cfg(bestguess_linux)]
#[test]
fn cpu_bound_commands_under_load_rank_cpu_time_in_order_without_the_waiting_note() {
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let cpu = a_cpu();
    let dir = tempfile::tempdir().unwrap();
    let text: String = (0..40_000)
        .map(|i| format!("line {i} of some text {}\n", i * 7919 % 1000))
        .collect();
    let file = dir.path().join("t.txt");
    std::fs::write(&file, text).unwrap();
    let (fast, slow) = (
        format!("gzip -1 -c {}", file.display()),
        format!("gzip -9 -c {}", file.display()),
    );
    let both = {
        let _hogs = Hogs::start(2, cpu);
        let pin = cpu.to_string();
        measure_and_report(dir.path(), &["--cpus", &pin, "-r", "7", &slow, &fast])
    };
    for j in [&both.run_json, &both.report_json] {
        assert_eq!(choice(j), ("total_us", "on_cpu"));
        assert_eq!(j["bestguess"]["cpu_wait"]["busy"], true);
        // gzip -9 (command 1) is slower than gzip -1 (command 2).
        assert_eq!(j["bestguess"]["ranking"][0], 1, "{}", j["bestguess"]);
        assert_eq!(j["results"][0]["bestguess"]["verdict"], "slower");
        let kinds = j["bestguess"]["warnings"].as_array().unwrap();
        assert!(
            kinds.iter().all(|w| w["kind"] != "wall_dominates"),
            "{kinds:?}"
        );
    }
    for out in [&both.run_out, &both.report_out] {
        assert!(
            out.contains("Ranked by CPU time: the commands spend"),
            "{out}"
        );
        assert!(
            out.contains("the machine was busy; CPU time is ranked"),
            "{out}"
        );
    }
    assert!(!both.run_err.contains("mostly wait"), "{}", both.run_err);
}

// Linux measurement path only: the run-queue delay is read from /proc/PID/schedstat.
#[cfg(bestguess_linux)]
#[test]
fn a_process_tree_records_its_top_process_wait_only() {
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let cpu = a_cpu();
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    // The loop runs in a child shell: its wait for the CPU is the
    // child's.
    let script = dir.path().join("loop.sh");
    std::fs::write(
        &script,
        "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done\n",
    )
    .unwrap();
    let tree = format!("sh -c 'sh {}; true'", script.display());
    let (status, _, err) = {
        let _hog = Hogs::start(1, cpu);
        let pin = cpu.to_string();
        run(
            "bestguess",
            &[
                "-Q",
                "--cpus",
                &pin,
                "-r",
                "5",
                "-o",
                raw.to_str().unwrap(),
                &tree,
            ],
        )
    };
    assert_eq!(status, 0, "{err}");
    let mut r = csv::Reader::from_path(&raw).unwrap();
    let header = r.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (wall, cpu_at, delay) = (
        at("Wall clock (us)"),
        at("Total time (us)"),
        at("Run-queue delay (us)"),
    );
    let mut rows = 0;
    for row in r.records() {
        let row = row.unwrap();
        let num = |i: usize| row[i].parse::<f64>().unwrap();
        rows += 1;
        // Recorded (the top process's own), and well below the tree's
        // time off the CPU, most of which its child spent waiting for
        // the CPU the hog holds.
        let off_cpu = num(wall) - num(cpu_at);
        assert!(num(delay) < 0.5 * off_cpu, "{} of {off_cpu}", num(delay));
    }
    assert_eq!(rows, 5);
}

#[test]
fn files_without_the_delay_or_with_coarse_cpu_times_say_so() {
    // An older raw file: waiting for a CPU counts as waiting, and the line
    // says it.
    let (status, out, err) = run("bestreport", &["tests/data/fixtures/sleeping.csv"]);
    assert_eq!(status, 0, "{err}");
    let out = flat(&out);
    assert!(
        out.contains("the data hold no run-queue delay, so waiting for a CPU counts as waiting"),
        "{out}"
    );
    // cbdr's 10 ms ticks: wall-clock time, with the tick named.
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("c.json");
    let (status, out, err) = run(
        "bestreport",
        &[
            "tests/data/formats/cbdr-0.2.4-sample.csv",
            "--export-json",
            j.to_str().unwrap(),
        ],
    );
    assert_eq!(status, 0, "{err}");
    assert!(
        flat(&out).contains(
            "Ranked by wall-clock time: for command 1 (ls) CPU times are whole 10.00 ms ticks"
        ),
        "{out}"
    );
    assert!(out.contains("═ Wall clock ═"), "{out}");
    assert_eq!(choice(&json(&j)), ("wall_us", "coarse_cpu"));
    assert_eq!(json(&j)["bestguess"]["cpu_wait"], serde_json::Value::Null);
}

#[test]
fn two_sleeps_are_decided_slower_by_about_two_without_a_flag() {
    // Not beside the hogs of the other tests (their wake-ups stretch a
    // sleep).
    let _turn = HOGS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("s.json");
    let (status, out, err) = run(
        "bestguess",
        &[
            "--export-json",
            j.to_str().unwrap(),
            "sleep 0.1",
            "sleep 0.2",
        ],
    );
    assert_eq!(status, 0, "{err}");
    let j = json(&j);
    let slower = &j["results"][1]["bestguess"];
    assert_eq!(slower["verdict"], "slower", "{out}");
    let ratio = slower["comparison"]["ratio"].as_f64().unwrap();
    // About 2: a loaded machine's wake-ups add to both sleeps.
    assert!((1.6..2.4).contains(&ratio), "{ratio}");
    // Decided by the adaptive rule, at its first look on a quiet machine
    // (8 rounds, about 2.5 s); a later look where a loaded machine
    // stretches some sleeps.
    assert_eq!(j["metadata"]["experiment"]["stopped"], "decided");
}

//! The launcher's measurement extras, driven through the library: software
//! counters, pinning, environment padding and the command's metrics file.
//! (Hardware counters are only checked to fail cleanly where there is no
//! PMU, as on the VMs these tests run on.)
// Some cases need the Linux measurement path (each says why); in the
// portable build their helpers go unused.
#![cfg_attr(not(bestguess_linux), allow(dead_code, unused_imports))]

mod support;

use bestguess::data::Metric;
use bestguess::measure::counters::{self, Reading};
use bestguess::measure::extras::{ExtrasConfig, MetricsRead, RunExtras};
use bestguess::measure::launcher::Launcher;
use bestguess::measure::{Batch, Executor, Measurement, Outcome, Program};

fn sh(script: &str) -> Program {
    Program {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        show_output: false,
        measured: true,
    }
}

/// Run `program` `runs` times with `config`; every measurement.
fn measure(config: &ExtrasConfig, program: Program, runs: usize) -> Vec<Measurement> {
    let mut launcher = Launcher::start().unwrap();
    let reply = launcher.set_up(config).unwrap();
    assert_eq!(reply.affinity_error, 0);
    assert_eq!(reply.metrics_error, 0);
    launcher.define(&[program]).unwrap();
    let got = finished(&mut launcher, &vec![0u32; runs]);
    assert_eq!(got.len(), runs);
    got
}

/// Run the defined programs' `steps` in one batch; every measurement (a
/// cancelled run fails the test).
fn finished(launcher: &mut Launcher, steps: &[u32]) -> Vec<Measurement> {
    let mut got = Vec::new();
    launcher
        .run_batch(
            &Batch {
                steps,
                timeout: None,
                stop_on_failure: true,
            },
            &mut |_, outcome| {
                match outcome {
                    Outcome::Finished(m) => got.push(m),
                    Outcome::Cancelled => panic!("cancelled"),
                }
                true
            },
        )
        .unwrap();
    got
}

fn extras(m: &Measurement) -> &RunExtras {
    m.extras.as_deref().expect("a measured run has extras")
}

fn software() -> ExtrasConfig {
    ExtrasConfig {
        counters: [
            "task-clock",
            "page-faults",
            "context-switches",
            "cpu-migrations",
        ]
        .iter()
        .map(|n| counters::by_name(n).unwrap())
        .collect(),
        ..ExtrasConfig::default()
    }
}

fn task_clock_us(m: &Measurement) -> f64 {
    let r: Reading = extras(m).counters[0].reading().expect("task-clock ran");
    assert!(!r.scaled, "software counters are never multiplexed");
    r.value as f64 / 1000.0
}

const BUSY: &str = "i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done";

fn assert_agree(runs: &[Measurement]) {
    let ratios: Vec<f64> = runs
        .iter()
        .map(|m| {
            let cpu = m.metrics.int(Metric::TOTAL).unwrap() as f64;
            assert!(
                cpu >= 20_000.0,
                "the command must run at least 20 ms ({cpu} us)"
            );
            task_clock_us(m) / cpu
        })
        .collect();
    support::assert_task_clock_agrees(&ratios);
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn task_clock_agrees_with_total_cpu_time_for_a_cpu_bound_command() {
    let runs = measure(&software(), sh(BUSY), 7);
    assert_agree(&runs);
    for m in &runs {
        let pf = extras(m).counters[1].reading().unwrap().value as i64;
        // rusage counts the faults of the spawn before exec, the counter
        // only those from exec on.
        let rusage_pf = m.metrics.int(Metric::MINOR_FAULTS).unwrap()
            + m.metrics.int(Metric::MAJOR_FAULTS).unwrap();
        assert!(
            pf > 0 && pf <= rusage_pf && pf + 20 >= rusage_pf,
            "{pf} vs {rusage_pf}"
        );
    }
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn counters_include_the_processes_a_command_starts() {
    // The subshell forks: the loop runs in a child of the measured shell.
    // Without the child's share, task-clock would be a small fraction of
    // the CPU time (which includes the child, reaped by the shell).
    let script = format!("( {BUSY} ); :");
    assert_agree(&measure(&software(), sh(&script), 7));
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn counting_starts_at_exec_and_never_reads_a_lost_zero() {
    // A trivial command still shows its own work, every time (a launcher
    // whose counter context is swapped onto a child reads 0 here).
    for m in measure(&software(), sh(":"), 40) {
        let tc = task_clock_us(&m);
        assert!(tc > 0.0, "task-clock read 0");
        assert!(
            tc <= (m.metrics.int(Metric::WALL).unwrap() as f64) * 1.05 + 50.0,
            "{tc} us > wall {}",
            m.metrics.int(Metric::WALL).unwrap()
        );
    }
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn processes_a_hook_leaves_running_do_not_count_in_later_runs() {
    // A hook (kept processes are its purpose: a server for the commands)
    // leaves a busy child behind and exits at once; the measured command
    // then sleeps while that child works and ends. The child inherited the
    // counters like every process the launcher starts.
    let mut launcher = Launcher::start().unwrap();
    launcher.set_up(&software()).unwrap();
    let mut hook = sh(&format!("( {BUSY} ) & exit 0"));
    hook.measured = false;
    launcher.define(&[hook, sh("sleep 0.4")]).unwrap();
    let got = finished(&mut launcher, &[0, 1]);
    let sleeper = task_clock_us(&got[1]);
    assert!(
        sleeper < 10_000.0,
        "the sleeping command was charged {sleeper} us of the hook's child"
    );
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn what_a_command_leaves_running_counts_in_its_own_run_only() {
    let mut launcher = Launcher::start().unwrap();
    launcher.set_up(&software()).unwrap();
    let leaver = sh(&format!("( {BUSY} ) & exit 0"));
    launcher.define(&[leaver, sh("sleep 0.4")]).unwrap();
    let got = finished(&mut launcher, &[0, 1]);
    let sleeper = task_clock_us(&got[1]);
    assert!(
        sleeper < 10_000.0,
        "charged {sleeper} us of another's child"
    );
}

// Linux measurement path only: counters are perf events.
#[cfg(bestguess_linux)]
#[test]
fn a_hardware_counter_without_a_pmu_fails_alone() {
    let mut config = software();
    config.counters.push(counters::by_name("cycles").unwrap());
    let mut launcher = Launcher::start().unwrap();
    let reply = launcher.set_up(&config).unwrap();
    assert_eq!(&reply.counter_errors[..4], &[0, 0, 0, 0]);
    let has_pmu = std::path::Path::new("/sys/bus/event_source/devices/cpu").exists()
        || std::path::Path::new("/sys/bus/event_source/devices/cpu_core").exists();
    if !has_pmu {
        assert_ne!(reply.counter_errors[4], 0, "cycles opened without a PMU?");
        let note = counters::OpenFailure {
            counter: config.counters[4],
            errno: reply.counter_errors[4],
            paranoid: bestguess::measure::platform::perf_paranoid(),
        }
        .to_string();
        assert!(note.starts_with("cycles not measured: "), "{note}");
    }
}

fn with_metrics(dir: &tempfile::TempDir, mut config: ExtrasConfig) -> ExtrasConfig {
    config.metrics_file = Some(dir.path().join("metrics"));
    config
}

#[test]
fn the_command_writes_its_own_metrics_fresh_for_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let config = with_metrics(&dir, ExtrasConfig::default());
    // Appends: a file that was not emptied between runs would grow.
    let runs = measure(
        &config,
        sh("echo \"pid $$\" >> \"$BESTGUESS_METRICS\"; echo 'ops 12.5' >> \"$BESTGUESS_METRICS\""),
        3,
    );
    let mut pids = Vec::new();
    for m in &runs {
        let text = String::from_utf8(extras(m).metrics.clone().unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text:?}");
        assert_eq!(lines[1], "ops 12.5");
        pids.push(lines[0].to_string());
        assert_eq!(extras(m).metrics_read, MetricsRead::Whole);
    }
    pids.dedup();
    assert_eq!(pids.len(), 3, "each run wrote its own file: {pids:?}");
}

#[test]
fn a_metrics_file_replaced_by_a_fifo_or_a_device_is_not_read_and_stalls_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let config = with_metrics(&dir, ExtrasConfig::default());
    // A FIFO left behind blocked the launcher for ever: opening it to read
    // after the run waits for a writer, and emptying it before the next
    // run waits for a reader (SIGTERM could not end that either).
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let fifo = measure(
            &config,
            sh("rm -f \"$BESTGUESS_METRICS\"; mkfifo \"$BESTGUESS_METRICS\""),
            3,
        );
        let device = measure(
            &config,
            sh("ln -sf /dev/zero \"$BESTGUESS_METRICS.z\"; mv -f \"$BESTGUESS_METRICS.z\" \"$BESTGUESS_METRICS\""),
            2,
        );
        let _ = tx.send((fifo, device));
    });
    let (fifo, device) = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the launcher stalled on the metrics file");
    for m in fifo.iter().chain(&device) {
        let e = extras(m);
        assert_eq!(e.metrics_read, MetricsRead::NotAFile);
        assert_eq!(e.metrics.as_deref(), Some(&[][..]));
    }
    // A regular file again after them: read as usual.
    let config = with_metrics(&dir, ExtrasConfig::default());
    let runs = measure(&config, sh("echo 'ops 1' > \"$BESTGUESS_METRICS\""), 1);
    assert_eq!(extras(&runs[0]).metrics_read, MetricsRead::Whole);
    assert_eq!(extras(&runs[0]).metrics.as_deref(), Some(&b"ops 1\n"[..]));
}

#[test]
fn a_directory_left_at_the_metrics_path_gives_the_next_run_a_fresh_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = with_metrics(&dir, ExtrasConfig::default());
    // Each run finds an empty regular file (else exits 9), then leaves a
    // directory with a file in it there, which can be neither unlinked
    // nor opened: every later run still gets a fresh file.
    let runs = measure(
        &config,
        sh(
            "M=\"$BESTGUESS_METRICS\"; [ -f \"$M\" ] && [ ! -s \"$M\" ] || exit 9; \
            rm -f \"$M\"; mkdir \"$M\" && echo 'ops 1' > \"$M/inside\"",
        ),
        4,
    );
    for m in &runs {
        assert!(m.succeeded(), "{:?}", m.termination);
        assert_eq!(extras(m).metrics_read, MetricsRead::NotAFile);
    }
    // A regular file again after them: read as usual.
    let runs = measure(&config, sh("echo 'ops 2' > \"$BESTGUESS_METRICS\""), 1);
    assert_eq!(extras(&runs[0]).metrics.as_deref(), Some(&b"ops 2\n"[..]));
}

#[test]
fn a_deleted_metrics_file_is_said_and_one_replaced_by_rename_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let config = with_metrics(&dir, ExtrasConfig::default());
    // Each run finds an empty regular file (else exits 9): a deleted one
    // is made again for the next run.
    let fresh = "M=\"$BESTGUESS_METRICS\"; [ -f \"$M\" ] && [ ! -s \"$M\" ] || exit 9;";
    let deleted = measure(&config, sh(&format!("{fresh} rm -f \"$M\"")), 3);
    for m in &deleted {
        assert!(m.succeeded(), "{:?}", m.termination);
        assert_eq!(extras(m).metrics_read, MetricsRead::Removed);
        assert_eq!(extras(m).metrics.as_deref(), Some(&[][..]));
    }
    // Written beside it, then renamed over it (how editors and atomic
    // writers replace a file): the new file is the one read.
    let script = format!("{fresh} echo \"ops $$\" > \"$M.new\"; mv -f \"$M.new\" \"$M\"");
    let renamed = measure(&config, sh(&script), 3);
    let mut seen = Vec::new();
    for m in &renamed {
        assert!(m.succeeded(), "{:?}", m.termination);
        assert_eq!(extras(m).metrics_read, MetricsRead::Whole);
        let text = String::from_utf8(extras(m).metrics.clone().unwrap()).unwrap();
        assert!(text.starts_with("ops ") && text.ends_with('\n'), "{text:?}");
        seen.push(text);
    }
    seen.dedup();
    assert_eq!(seen.len(), 3, "each run's own file: {seen:?}");
}

// Linux measurement path only: pinning is sched_setaffinity.
#[cfg(bestguess_linux)]
#[test]
fn pinned_commands_see_only_the_chosen_cpu() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    let last = cpus - 1;
    let dir = tempfile::tempdir().unwrap();
    let config = with_metrics(
        &dir,
        ExtrasConfig {
            cpus: vec![last],
            ..ExtrasConfig::default()
        },
    );
    let script =
        "awk '/^Cpus_allowed_list/ {print \"cpu\", $2}' /proc/self/status > \"$BESTGUESS_METRICS\"";
    for m in measure(&config, sh(script), 2) {
        let text = String::from_utf8(extras(&m).metrics.clone().unwrap()).unwrap();
        assert_eq!(text.trim(), format!("cpu {last}"));
    }
}

#[test]
fn environment_padding_is_seeded_recorded_and_seen_by_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let padded = |seed| {
        let config = with_metrics(
            &dir,
            ExtrasConfig {
                env_padding_seed: Some(seed),
                ..ExtrasConfig::default()
            },
        );
        measure(
            &config,
            sh("echo \"pad ${#BESTGUESS_ENV_PAD}\" > \"$BESTGUESS_METRICS\""),
            12,
        )
        .iter()
        .map(|m| {
            let pad = extras(m).env_padding.unwrap();
            let seen = String::from_utf8(extras(m).metrics.clone().unwrap()).unwrap();
            assert_eq!(
                seen.trim(),
                format!("pad {pad}"),
                "the command saw what was recorded"
            );
            assert!(pad <= 4096);
            pad
        })
        .collect::<Vec<u32>>()
    };
    let a = padded(1);
    assert_eq!(a, padded(1), "same seed, same padding");
    assert_ne!(a, padded(2), "another seed, other padding");
    let mut distinct = a.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 6, "lengths vary: {a:?}");
}

#[test]
fn hooks_get_no_extras_and_runs_without_setup_are_unchanged() {
    let mut launcher = Launcher::start().unwrap();
    launcher.set_up(&software()).unwrap();
    let mut hook = sh(":");
    hook.measured = false;
    launcher.define(&[hook, sh(":")]).unwrap();
    let got: Vec<bool> = finished(&mut launcher, &[0, 1, 0])
        .iter()
        .map(|m| m.extras.is_some())
        .collect();
    assert_eq!(got, [false, true, false]);

    let mut plain = Launcher::start().unwrap();
    plain.define(&[sh(":")]).unwrap();
    for m in finished(&mut plain, &[0, 0]) {
        assert!(m.extras.is_none());
    }
}

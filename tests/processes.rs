//! Every process a run started is ended with it, even one that left the
//! command's process group and session (`setsid`): the launcher is a child
//! subreaper and kills what is left after each run. What a hook leaves
//! running (a server started by `--setup`) is kept for the runs, and ended
//! with the experiment.
// Some cases need the Linux measurement path (each says why); in the
// portable build their helpers go unused.
#![cfg_attr(not(bestguess_linux), allow(dead_code, unused_imports))]

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

mod support;

use support::bestguess;

/// The pid written to `file` (waiting up to 10 s for it to appear).
fn pid_in(file: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(t) = fs::read_to_string(file) {
            if t.ends_with('\n') {
                return t.trim().to_string();
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no pid in {}",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` is still alive (and not a zombie).
fn alive(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

fn gone_soon(pid: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A command whose background grandchild leaves the session, writes its pid
/// and sleeps; the command itself then waits (or exits at once).
fn escaping(pidfile: &Path, then: &str) -> String {
    format!(
        "setsid sh -c 'echo $$ > {}; exec sleep 300' & {then}",
        pidfile.display()
    )
}

// Linux measurement path only: a process that left its group (setsid) is reached by the subreaper alone.
#[cfg(bestguess_linux)]
#[test]
fn a_setsid_grandchild_dies_with_a_timed_out_run() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    bestguess()
        .args([
            "-Q",
            "-r",
            "1",
            "-i",
            "--timeout",
            "0.5",
            "-s",
            "/bin/sh -c",
        ])
        .arg(escaping(&pidfile, "sleep 300"))
        .timeout(Duration::from_secs(30))
        .assert()
        .success();
    let pid = pid_in(&pidfile);
    assert!(gone_soon(&pid), "process {pid} survived the timeout");
}

// Linux measurement path only: a process that left its group (setsid) is reached by the subreaper alone.
#[cfg(bestguess_linux)]
#[test]
fn a_setsid_daemon_left_by_a_finished_run_is_ended() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    // The command waits until its grandchild is running, then exits 0.
    let wait = format!("while [ ! -s {} ]; do sleep 0.01; done", pidfile.display());
    bestguess()
        .args(["-Q", "-r", "1", "-s", "/bin/sh -c"])
        .arg(escaping(&pidfile, &wait))
        .timeout(Duration::from_secs(30))
        .assert()
        .success();
    let pid = pid_in(&pidfile);
    assert!(gone_soon(&pid), "process {pid} outlived its run");
}

// Linux measurement path only: a process that left its group (setsid) is reached by the subreaper alone.
#[cfg(bestguess_linux)]
#[test]
fn a_setsid_grandchild_dies_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let mut cmd = Command::cargo_bin("bestguess").unwrap();
    cmd.args(["-Q", "-r", "3", "-s", "/bin/sh -c"])
        .arg(escaping(&pidfile, "sleep 300"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let child = cmd.spawn().unwrap();
    let pid = pid_in(&pidfile);
    assert!(alive(&pid));
    // Ctrl-C: SIGINT to the tool's whole process group.
    let status = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(gone_soon(&pid), "process {pid} survived Ctrl-C");
}

/// A setup hook that starts a server in a session of its own, writes its
/// pid to `pidfile` and waits for it.
fn server(pidfile: &Path) -> String {
    format!(
        "setsid sh -c 'echo $$ > {}; exec sleep 300' & while [ ! -s {} ]; do sleep 0.01; done",
        pidfile.display(),
        pidfile.display()
    )
}

#[test]
fn what_a_setup_hook_starts_is_kept_for_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("server");
    let setup = server(&pidfile);
    // Every run fails (and stops the experiment) if the server is gone.
    let run = format!("kill -0 $(cat {})", pidfile.display());
    let cleanup = format!("kill $(cat {})", pidfile.display());
    bestguess()
        .args(["-Q", "-r", "5", "-s", "/bin/sh -c", "--setup"])
        .arg(&setup)
        .arg("--cleanup")
        .arg(&cleanup)
        .arg(&run)
        .timeout(Duration::from_secs(30))
        .assert()
        .success();
    let pid = pid_in(&pidfile);
    assert!(gone_soon(&pid), "--cleanup stopped the server");
}

/// What a setup hook kept for the runs ends with the experiment: when it
/// is interrupted before its `--cleanup` (the server does not live on
/// under PID 1), and when no `--cleanup` stops it.
// Linux measurement path only: a process that left its group (setsid) is reached by the subreaper alone.
#[cfg(bestguess_linux)]
#[test]
fn what_a_setup_hook_kept_ends_with_the_experiment() {
    for interrupted in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("server");
        let setup = server(&pidfile);
        let runs = if interrupted { "50" } else { "2" };
        let mut child = Command::cargo_bin("bestguess")
            .unwrap()
            .args(["-Q", "-r", runs, "-s", "/bin/sh -c", "--setup"])
            .arg(&setup)
            .args(["--cleanup", "true", "sleep 0.1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = pid_in(&pidfile);
        if interrupted {
            std::thread::sleep(Duration::from_millis(300));
            Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap();
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(if interrupted { 143 } else { 0 }));
        assert!(
            gone_soon(&pid),
            "interrupted: {interrupted}: the server lives on"
        );
    }
}

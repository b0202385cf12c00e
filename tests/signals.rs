//! Nothing completed is lost to a signal, at full speed.
//!
//! Each test runs a tiny C program (about 1 ms a run) that appends a line to
//! a log as its last act, so the log counts completed runs independently of
//! the tool. After a few seconds the tool gets SIGINT, SIGTERM, SIGHUP or
//! SIGQUIT (alone, or as Ctrl-C / Ctrl-\ to its whole process group). Then:
//! the raw CSV has one row per logged run (the one run that may have been
//! killed after appending, before it exited, is not a completed run), the
//! count printed equals the rows in the file, and the exit status is
//! 128 + the signal.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use bestguess::data::read_raw_csv;

/// Compile the logging program once for all tests.
fn logger() -> PathBuf {
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        compile(&dir)
    })
    .clone()
}

fn compile(dir: &Path) -> PathBuf {
    let src = dir.join("logrun.c");
    fs::write(
        &src,
        r#"#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0 || write(fd, "x\n", 2) != 2) return 3;
    return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.join("logrun");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg("-O2")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .expect("a C compiler (cc) is needed to build the launcher anyway");
    assert!(status.success());
    exe
}

fn csv_rows(path: &Path) -> usize {
    match fs::File::open(path) {
        Ok(f) => read_raw_csv(f, "raw")
            .expect("the raw file reads back")
            .len(),
        Err(_) => 0,
    }
}

fn lines(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// How the signal is delivered.
enum Target {
    Process,
    /// To the whole process group, as the terminal does for Ctrl-C.
    Group,
}

/// Whether this test process inherited `number` as ignored (as under
/// `nohup`, or SIGINT and SIGQUIT in a background job of a script): the
/// tool it starts inherits that too, and keeps SIGHUP and SIGQUIT ignored.
fn inherited_ignore(number: i32) -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (number - 1)) != 0)
}

fn interrupt(signal: &str, number: i32, target: Target) {
    let ignored = (signal == "HUP" || signal == "QUIT") && inherited_ignore(number);
    if ignored && matches!(target, Target::Group) {
        // The commands get every signal at its default, so the group's
        // signal ends a run, not the tool: another test's subject.
        eprintln!(
            "SKIPPED: SIG{signal} is ignored in this environment; run the tests without nohup"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = logger();
    let log = dir.path().join("log");
    let raw = dir.path().join("raw.csv");
    let mut cmd = Command::cargo_bin("bestguess").unwrap();
    // No warm-up: its run would log a line that is no timed run.
    cmd.args(["-Q", "-w", "0", "-r", "100000000", "-o"])
        .arg(&raw)
        .arg(format!("{} {}", exe.display(), log.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // Its own process group, so that a signal to "the group" reaches only
    // the tool and its launcher (as Ctrl-C in a terminal does).
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().unwrap();
    let pid = child.id();
    // Run at full speed long enough for batches to be at their largest
    // (0.1 s of runs each), which is when a signal could lose most.
    let start = Instant::now();
    while lines(&log) < 100 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    let whom = match target {
        Target::Process => pid.to_string(),
        Target::Group => format!("-{pid}"),
    };
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", &whom])
        .status()
        .unwrap();
    assert!(status.success());
    let (signal, number) = if ignored {
        // Ignored when the tool started: it keeps running, and SIGTERM
        // (which it always handles) ends it instead.
        std::thread::sleep(Duration::from_secs(1));
        let before = lines(&log);
        std::thread::sleep(Duration::from_millis(500));
        assert!(child.try_wait().unwrap().is_none(), "SIG{signal} ignored");
        assert!(
            lines(&log) > before,
            "runs go on after an ignored SIG{signal}"
        );
        let status = Command::new("kill")
            .args(["-TERM", "--", &whom])
            .status()
            .unwrap();
        assert!(status.success());
        ("TERM", 15)
    } else {
        (signal, number)
    };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(128 + number), "{stderr}");
    let logged = lines(&log);
    let rows = csv_rows(&raw);
    assert!(logged >= 100, "the experiment ran: {logged} runs");
    // A run killed by the interrupt after it wrote its line (before it
    // exited) is not complete: at most one such run.
    assert!(
        rows == logged || rows + 1 == logged,
        "SIG{signal}: {logged} runs completed, {rows} rows in the raw file"
    );
    let expected =
        format!("Interrupted by SIG{signal}: {rows} completed runs are kept in the raw data file.");
    assert!(stderr.contains(&expected), "{stderr}\nexpected: {expected}");
}

#[test]
fn sigint_keeps_every_completed_run() {
    interrupt("INT", 2, Target::Process);
}

#[test]
fn sigterm_keeps_every_completed_run() {
    interrupt("TERM", 15, Target::Process);
}

#[test]
fn sighup_keeps_every_completed_run() {
    interrupt("HUP", 1, Target::Process);
}

#[test]
fn ctrl_c_to_the_process_group_keeps_every_completed_run() {
    interrupt("INT", 2, Target::Group);
}

#[test]
fn sigquit_to_the_process_group_keeps_every_completed_run() {
    interrupt("QUIT", 3, Target::Group);
}

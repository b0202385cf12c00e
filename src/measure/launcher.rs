//! The launcher: a small process that spawns every command and measures it.
//!
//! Why a separate process: on Linux a child's reported max RSS can never be
//! lower than the peak RSS of the process that spawned it, because `execve`
//! copies the old address space's high-water mark into the child's record
//! (and `posix_spawn` runs the child on the parent's address space until
//! exec). If `bestguess` spawned commands itself, the max RSS reported for
//! `/bin/true` would grow with the data `bestguess` holds. So `bestguess`
//! starts this launcher first — a fresh `execve` of its own binary in a
//! special mode, whose peak RSS is small and constant — and asks it, over
//! pipes, to run each command. `--limits` shows that floor.
//!
//! The launcher normally is the tiny static C program `launcher.c` (built by
//! `build.rs`, embedded in this library and executed from a memfd): measured
//! on Linux x86-64, its peak RSS is about 0.7 MB, below `/bin/true`'s own
//! 1.1 MB, while any Rust binary is 1.2–1.9 MB. If it cannot be started, the
//! tool falls back to re-executing its own binary in launcher mode
//! ([`serve`], the same protocol in Rust) with a higher floor; `--limits`
//! says which one runs. `BESTGUESS_LAUNCHER=builtin` forces the fallback.
//!
//! Descriptors in the launcher: 0/1/2 are the tool's own (so `--show-output`
//! can hand the terminal to a command), 3 carries requests, 4 responses, 5
//! cancel bytes (written by the tool's SIGINT/SIGTERM handler).

use std::ffi::c_char;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Duration;

use super::protocol::{self, Op, Request, Response, RunFlags};
use super::sys::{self, Stdio, WaitEnd, WaitStatus};
use super::{ExecError, Executor, Job, Measurement, Outcome, Termination};

/// The argument that makes the binary act as the launcher. It is checked
/// before anything else in `main`, so the launcher does as little as possible.
pub const LAUNCHER_ARG: &str = "--bestguess-internal-launcher";

const REQUEST_FD: i32 = 3;
const RESPONSE_FD: i32 = 4;
const CANCEL_FD: i32 = 5;

/// Run the launcher loop in this process until the tool closes the request
/// pipe. Never returns.
pub fn serve() -> ! {
    let code = match serve_loop() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bestguess launcher: {e}");
            2
        }
    };
    std::process::exit(code)
}

fn serve_loop() -> io::Result<()> {
    sys::ignore_termination_signals();
    let requests = sys::adopt_fd(REQUEST_FD)?;
    let responses = sys::adopt_fd(RESPONSE_FD)?;
    let cancel = sys::adopt_fd(CANCEL_FD)?;
    for fd in [&requests, &responses, &cancel] {
        sys::set_cloexec(fd.as_raw_fd())?;
    }
    let devnull: OwnedFd = File::options()
        .read(true)
        .write(true)
        .open("/dev/null")?
        .into();
    let mut requests = File::from(requests);
    let mut responses = File::from(responses);
    let mut buf = Vec::with_capacity(4096);
    let mut scratch: Vec<*const c_char> = Vec::with_capacity(64);
    while protocol::read_request_frame(&mut requests, &mut buf)?.is_some() {
        let response = match protocol::parse_request(&buf) {
            Err(_) => Response {
                kind: protocol::PROTOCOL_ERROR,
                ..Response::default()
            },
            Ok(req) if req.op == Op::Floor => Response {
                kind: protocol::FLOOR,
                value: own_peak_rss_kib().unwrap_or(-1),
                ..Response::default()
            },
            Ok(req) => {
                let stdio = if req.flags.null_stdio {
                    Stdio::Null(&devnull)
                } else {
                    Stdio::Inherit
                };
                let timeout = (req.timeout_ms > 0).then_some(req.timeout_ms);
                measure_one(
                    &req.words,
                    stdio,
                    req.flags.new_group,
                    timeout,
                    cancel.as_raw_fd(),
                    &mut scratch,
                )?
            }
        };
        response.write_to(&mut responses)?;
    }
    Ok(())
}

/// Spawn, wait, measure: the timed interval is exactly from just before
/// `posix_spawnp` to just after `wait4` returns.
fn measure_one(
    words: &[&std::ffi::CStr],
    stdio: Stdio<'_>,
    new_group: bool,
    timeout_ms: Option<u64>,
    cancel: i32,
    scratch: &mut Vec<*const c_char>,
) -> io::Result<Response> {
    let start_unix_us = sys::realtime_us();
    let t0 = sys::monotonic_ns();
    let pid = match sys::spawn(words, stdio, &[], new_group, scratch) {
        Ok(pid) => pid,
        Err(e) => {
            return Ok(Response {
                kind: protocol::SPAWN_ERROR,
                value: i64::from(e.raw_os_error().unwrap_or(0)),
                ..Response::default()
            })
        }
    };
    let (status, usage, end) = sys::wait_child(pid, new_group, timeout_ms, Some(cancel))?;
    let t1 = sys::monotonic_ns();
    let (signaled, code) = match status {
        WaitStatus::Exited(c) => (0, c),
        WaitStatus::Signaled(s) => (1, s),
    };
    Ok(Response {
        kind: if end == WaitEnd::Cancelled {
            protocol::CANCELLED
        } else {
            protocol::FINISHED
        },
        value: 0,
        start_unix_us,
        wall_ns: t1 - t0,
        user_us: usage.user_us,
        system_us: usage.system_us,
        maxrss_kib: usage.maxrss_kib,
        minor_faults: usage.minor_faults,
        major_faults: usage.major_faults,
        voluntary_csw: usage.voluntary_csw,
        involuntary_csw: usage.involuntary_csw,
        signaled,
        code,
        timed_out: u8::from(end == WaitEnd::TimedOut),
    })
}

/// The launcher's own high-water RSS (`VmHWM` of its address space), which is
/// the floor under every max RSS it reports.
fn own_peak_rss_kib() -> Option<i64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The launcher program compiled from `launcher.c`.
static EMBEDDED_LAUNCHER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bestguess-launcher"));

/// Which launcher program runs the commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LauncherKind {
    /// The small static C program (the normal case).
    Embedded,
    /// This binary re-executed in launcher mode (fallback).
    Builtin,
}

/// The tool's handle on its launcher process.
pub struct Launcher {
    kind: LauncherKind,
    pid: libc::pid_t,
    requests: Option<File>,
    responses: BufReader<File>,
    cancel_write: OwnedFd,
}

impl Launcher {
    /// Start the launcher: the embedded C program, or, if that cannot be
    /// executed here (or `BESTGUESS_LAUNCHER=builtin`), this binary in
    /// launcher mode.
    pub fn start() -> io::Result<Launcher> {
        let forced_builtin = std::env::var_os("BESTGUESS_LAUNCHER").is_some_and(|v| v == "builtin");
        if !forced_builtin {
            // The memfd must not sit on 3..=5, which the spawn maps over.
            let memfd = sys::memfd_with(c"bestguess-launcher", EMBEDDED_LAUNCHER)
                .and_then(|fd| sys::dup_above(fd.as_raw_fd(), 10));
            if let Ok(memfd) = memfd {
                let path = format!("/proc/self/fd/{}", memfd.as_raw_fd());
                if let Ok(path) = std::ffi::CString::new(path) {
                    if let Ok(launcher) = Self::start_program(LauncherKind::Embedded, &[&path]) {
                        return Ok(launcher);
                    }
                }
            }
        }
        Self::start_program(
            LauncherKind::Builtin,
            &[c"/proc/self/exe", c"--bestguess-internal-launcher"],
        )
    }

    /// Which launcher program is running.
    pub fn kind(&self) -> LauncherKind {
        self.kind
    }

    fn start_program(kind: LauncherKind, argv: &[&std::ffi::CStr]) -> io::Result<Launcher> {
        let (req_read, req_write) = sys::pipe()?;
        let (resp_read, resp_write) = sys::pipe()?;
        let (cancel_read, cancel_write) = sys::pipe()?;
        // Move the child's ends above 10 so the dup2 mappings cannot collide.
        let req_read = sys::dup_above(req_read.as_raw_fd(), 10)?;
        let resp_write = sys::dup_above(resp_write.as_raw_fd(), 10)?;
        let cancel_read = sys::dup_above(cancel_read.as_raw_fd(), 10)?;
        let mut scratch = Vec::new();
        let pid = sys::spawn(
            argv,
            Stdio::Inherit,
            &[
                (req_read.as_raw_fd(), REQUEST_FD),
                (resp_write.as_raw_fd(), RESPONSE_FD),
                (cancel_read.as_raw_fd(), CANCEL_FD),
            ],
            false,
            &mut scratch,
        )
        .map_err(|e| io::Error::new(e.kind(), format!("cannot start the launcher process: {e}")))?;
        let mut launcher = Launcher {
            kind,
            pid,
            requests: Some(File::from(req_write)),
            responses: BufReader::new(File::from(resp_read)),
            cancel_write,
        };
        // A round trip proves the program really runs and speaks the protocol.
        launcher
            .floor_bytes()
            .map_err(|e| io::Error::other(format!("the launcher did not answer: {e}")))?;
        Ok(launcher)
    }

    /// The descriptor a signal handler writes to, to cancel the running
    /// command.
    pub fn cancel_fd(&self) -> i32 {
        self.cancel_write.as_raw_fd()
    }

    fn call(&mut self, req: &Request) -> Result<Response, ExecError> {
        let requests = self
            .requests
            .as_mut()
            .ok_or_else(|| ExecError::Launcher(io::Error::other("launcher closed")))?;
        req.write_to(requests).map_err(ExecError::Launcher)?;
        Response::read_from(&mut self.responses).map_err(ExecError::Launcher)
    }

    /// The launcher's own peak RSS in bytes: no command's max RSS can be
    /// reported below this.
    pub fn floor_bytes(&mut self) -> Result<i64, ExecError> {
        let resp = self.call(&Request {
            op: Op::Floor,
            flags: RunFlags::default(),
            timeout_ms: 0,
            argv: Vec::new(),
        })?;
        if resp.kind != protocol::FLOOR || resp.value < 0 {
            return Err(ExecError::Launcher(io::Error::other(
                "the launcher could not read its own peak RSS",
            )));
        }
        Ok(resp.value * 1024)
    }
}

impl Executor for Launcher {
    fn execute(&mut self, job: &Job<'_>) -> Result<Outcome, ExecError> {
        let req = Request {
            op: Op::Run,
            flags: RunFlags {
                null_stdio: !job.show_output,
                // With --show-output the command keeps the terminal's
                // foreground group (a background group reading the terminal
                // would be stopped by SIGTTIN).
                new_group: !job.show_output,
            },
            timeout_ms: job
                .timeout
                .map_or(0, |t: Duration| (t.as_millis() as u64).max(1)),
            argv: job.argv.to_vec(),
        };
        let resp = self.call(&req)?;
        match resp.kind {
            protocol::SPAWN_ERROR => Err(ExecError::Spawn {
                program: job.argv.first().cloned().unwrap_or_default(),
                source: io::Error::from_raw_os_error(resp.value as i32),
            }),
            protocol::FINISHED | protocol::CANCELLED => {
                let termination = if resp.signaled == 1 {
                    Termination::Signaled(resp.code)
                } else {
                    Termination::Exited(resp.code)
                };
                let m = Measurement {
                    start_unix_us: resp.start_unix_us,
                    wall_us: ((resp.wall_ns + 500) / 1000) as i64,
                    user_us: resp.user_us,
                    system_us: resp.system_us,
                    maxrss_bytes: resp.maxrss_kib * 1024,
                    minor_faults: resp.minor_faults,
                    major_faults: resp.major_faults,
                    voluntary_csw: resp.voluntary_csw,
                    involuntary_csw: resp.involuntary_csw,
                    termination,
                    timed_out: resp.timed_out != 0,
                };
                Ok(if resp.kind == protocol::CANCELLED {
                    Outcome::Cancelled
                } else {
                    Outcome::Finished(m)
                })
            }
            _ => Err(ExecError::Launcher(io::Error::other(
                "the launcher sent an unexpected response",
            ))),
        }
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Closing the request pipe tells the launcher to exit.
        self.requests = None;
        let mut rest = Vec::new();
        let _ = self.responses.read_to_end(&mut rest);
        let _ = sys::wait_pid(self.pid);
    }
}

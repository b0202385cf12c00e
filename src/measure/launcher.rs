//! The launcher: a small process that spawns every command and measures it.
//!
//! Why a separate process: on Linux a child's reported max RSS can never be
//! lower than the peak RSS of the process that spawned it, because `execve`
//! copies the old address space's high-water mark into the child's record
//! (and the spawn, `clone3` or `posix_spawn`, runs the child on the
//! parent's address space until exec). If `bestguess` spawned commands
//! itself, the max RSS reported for `/bin/true` would grow with the data
//! `bestguess` holds.
//!
//! Why C: the launcher must peak below the commands it measures. Measured on
//! Linux x86-64: a Rust binary peaks at 1.9 MB (1.2 MB statically linked),
//! above `/bin/true`'s own 1.1 MB; the static C program `launcher.c` peaks at
//! about 0.7 MB. `build.rs` compiles it, this module embeds it and executes
//! it from a memfd (or, where that is not allowed, from a private temporary
//! file). `--limits` reports its peak.
//!
//! Descriptors in the launcher: 0/1/2 are the tool's own (so `--show-output`
//! can hand the terminal to a command), 3 carries requests, 4 responses. The
//! launcher waits for each command with a plain `wait4`, as the reference
//! loop does; a timeout (SIGALRM, its own timer) or a cancel (SIGUSR1, sent
//! by the tool's SIGINT/SIGTERM handler) kills the command's process group.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::time::{Duration, Instant};

use super::extra_metrics::{self, ExtraMetrics, MetricsDir};
use super::extras::{self, ExtrasConfig, MeasureOptions, RunExtras, SetupReply};
use super::platform;
use super::protocol::{self, Response};
use super::sys;
use super::{Batch, ExecError, Executor, Measurement, Outcome, Program, Termination};

/// The launcher program compiled from `launcher.c`.
static EMBEDDED_LAUNCHER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bestguess-launcher"));

const REQUEST_FD: i32 = 3;
const RESPONSE_FD: i32 = 4;

/// Response pipe size: more than a largest batch of responses (1024 × 95
/// bytes).
const RESPONSE_PIPE_BYTES: usize = 256 * 1024;

/// Sleeping shorter than this is not worth a missed wake-up.
const MIN_SLEEP: Duration = Duration::from_micros(200);

/// Never sleep longer than this: for runs longer than this, a wake-up per run
/// costs nothing measurable, and a run that ends early is not waited for.
const MAX_SLEEP: Duration = Duration::from_millis(100);

/// How the launcher spawns commands (`--limits` says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpawnPath {
    /// clone3 with `CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND`: the
    /// child only joins its process group and sets its stdio before exec.
    Clone3,
    /// posix_spawn, because `BESTGUESS_SPAWN=posix_spawn` asked for it.
    Forced,
    /// posix_spawn, because the kernel refused clone3 with this errno
    /// (older kernels, seccomp filters).
    Refused(i32),
    /// posix_spawn: the launcher has no clone3 path on this architecture.
    NoClone3,
    /// posix_spawn: the portable build (POSIX alone, `measure::platform`).
    Portable,
}

impl SpawnPath {
    fn from_floor(resp: &Response) -> SpawnPath {
        // The portable build has one path (BESTGUESS_SPAWN changes nothing).
        if cfg!(not(bestguess_linux)) {
            return SpawnPath::Portable;
        }
        match resp.ints[protocol::SLOT_SPAWN_PATH] {
            0 => SpawnPath::Clone3,
            1 => SpawnPath::Forced,
            2 => SpawnPath::Refused(resp.ints[protocol::SLOT_SPAWN_ERRNO] as i32),
            4 => SpawnPath::Portable,
            _ => SpawnPath::NoClone3,
        }
    }

    /// The `--limits` lines.
    pub fn limits_text(&self) -> String {
        let fallback = "glibc's posix_spawn, whose child resets every signal handler \
                        itself before exec: that work is billed to each run's CPU time";
        let text = match self {
            SpawnPath::Clone3 => "clone3 (CLONE_VM, CLONE_VFORK, CLONE_CLEAR_SIGHAND): before \
                                  its exec a command's process only joins its process group \
                                  and sets its stdio, so next to nothing of the spawn is \
                                  billed to it"
                .to_string(),
            SpawnPath::Forced => format!(
                "{fallback}, because BESTGUESS_SPAWN=posix_spawn is set (meant for \
                 tests; unset it to spawn with clone3)"
            ),
            SpawnPath::Refused(errno) => format!(
                "{fallback}, because the kernel refused clone3 with CLONE_CLEAR_SIGHAND \
                 ({}; that needs Linux 5.5 and no seccomp filter against clone3)",
                io::Error::from_raw_os_error(*errno)
            ),
            SpawnPath::NoClone3 => format!("{fallback} (the clone3 path is built for x86-64 only)"),
            SpawnPath::Portable => "posix_spawn, in the portable build (POSIX alone: no \
                                    counters, no pinning, no run-queue delay; what a command \
                                    leaves running is ended with its process group), whose \
                                    child resets every handled signal itself before exec: \
                                    that work is billed to each run's CPU time"
                .to_string(),
        };
        let mut text = format!("Spawn: {text}.");
        if let Some(v) = std::env::var_os("BESTGUESS_SPAWN") {
            if *self == SpawnPath::Portable && !v.is_empty() {
                text.push_str(" BESTGUESS_SPAWN is ignored: this build has no other path.");
            } else if *self != SpawnPath::Forced && !v.is_empty() {
                text.push_str(&format!(
                    " BESTGUESS_SPAWN={} is ignored: posix_spawn is its only value.",
                    v.to_string_lossy()
                ));
            }
        }
        wrap(&text, 78, "  ")
    }
}

/// Why the launcher could not be started, from the error of its memory
/// image (none in the portable build) and of its temporary file, with what
/// to do where a limit explains it.
fn start_error(memory: Option<io::Error>, file: io::Error) -> io::Error {
    if file.raw_os_error() == Some(libc::EFBIG) {
        return io::Error::new(file.kind(), file_size_limit_message());
    }
    let errnos = [
        memory.as_ref().and_then(io::Error::raw_os_error),
        file.raw_os_error(),
    ];
    // EINVAL: no descriptor 10 or above may exist (the launcher's pipes
    // and memory image are moved there).
    let hint = if errnos.contains(&Some(libc::EMFILE))
        || errnos[0] == Some(libc::EINVAL)
        || (memory.is_none() && errnos[1] == Some(libc::EINVAL))
    {
        "; the open-file limit (ulimit -n) is too low: give it at least 16"
    } else {
        ""
    };
    let tried = match &memory {
        Some(m) => format!("memfd: {m}; temporary file: {file}"),
        None => format!("temporary file: {file}"),
    };
    io::Error::new(
        file.kind(),
        format!("cannot start the launcher process ({tried}){hint}"),
    )
}

/// `write` (of the launcher's bytes) under a file-size limit raised, for
/// the time of the write, as far as the hard limit allows: the launcher
/// is written to a memory file before it runs, and RLIMIT_FSIZE counts
/// those bytes as a file's (under `ulimit -S -f 512` no experiment could
/// start otherwise). The soft limit is put back before anything is spawned, so
/// the launcher and the commands run under the limit they were given.
fn with_room_to_write<T>(write: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let (soft, hard) = sys::file_size_limit();
    let needed = EMBEDDED_LAUNCHER.len() as u64;
    let raise = soft.is_some_and(|s| s < needed) && hard.map_or(true, |h| h > soft.unwrap_or(0));
    if raise {
        let _ = sys::set_file_size_soft_limit(hard);
    }
    let written = write();
    if raise {
        let _ = sys::set_file_size_soft_limit(soft);
    }
    written
}

/// Why the launcher cannot be written: the file-size limit, its value and
/// what to do.
fn file_size_limit_message() -> String {
    let (soft, hard) = sys::file_size_limit();
    let kib = |b: u64| b / 1024;
    let size = (EMBEDDED_LAUNCHER.len() as u64).div_ceil(1024);
    let limit = match (soft, hard) {
        (Some(s), Some(h)) if s == h => format!("{} KiB, its hard limit too", kib(s)),
        (Some(s), Some(h)) => format!("{} KiB, with a hard limit of {} KiB", kib(s), kib(h)),
        (Some(s), None) => format!("{} KiB", kib(s)),
        (None, _) => "unknown".to_owned(),
    };
    format!(
        "cannot start the launcher process: the file-size limit (ulimit -f) is {limit}, below \
         the {size} KiB of the launcher, which is written to a memory file before it runs; \
         raise it to at least {size} KiB (in bash: ulimit -f {size}, or ulimit -f unlimited) \
         in the shell that starts bestguess"
    )
}

/// `text` in lines of at most `width` characters, each with `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(indent);
    out.push_str(&line);
    out.push('\n');
    out
}

/// The tool's handle on its launcher process.
pub struct Launcher {
    pid: libc::pid_t,
    /// How it spawns commands (its first FLOOR response says).
    spawn_path: SpawnPath,
    requests: Option<File>,
    responses: BufReader<File>,
    /// argv[0] of each defined program, for error messages.
    names: Vec<String>,
    /// Which defined programs are measured commands (they get extras).
    measured: Vec<bool>,
    /// The extras set up, if any: every finished run of a measured program
    /// is then followed by an extra frame.
    extras: Option<ExtrasConfig>,
    /// Which metrics the extras fill, once registered.
    extra_metrics: Option<ExtraMetrics>,
    /// The private directory of the commands' metrics file (removed after
    /// the launcher exits).
    metrics_dir: Option<MetricsDir>,
    cancelled: bool,
    /// Time per step in the last batch: how long to sleep through the next.
    pace: Duration,
    /// The launcher was reaped already (it ended mid-experiment): not
    /// to be waited for again.
    reaped: bool,
}

impl Launcher {
    /// Start the launcher: from a memfd, or else from a private temporary
    /// file (some systems forbid executing memfds).
    pub fn start() -> io::Result<Launcher> {
        let from_memfd = if std::env::var_os("BESTGUESS_TEST_NO_MEMFD").is_some() {
            Err(io::Error::other(
                "memfd disabled by BESTGUESS_TEST_NO_MEMFD",
            ))
        } else {
            with_room_to_write(|| platform::memory_image(EMBEDDED_LAUNCHER))
        };
        // (The image's descriptor stays open until the launcher runs.)
        let from_memfd = from_memfd.and_then(|(_image, path)| Self::start_program(&path));
        let memory_error = match from_memfd {
            Ok(launcher) => return Ok(launcher),
            // The portable build has no memory image: the temporary file's
            // error alone says what went wrong.
            Err(e) if e.kind() == io::ErrorKind::Unsupported => None,
            Err(e) => Some(e),
        };
        Self::start_from_temp_file().map_err(|e| start_error(memory_error, e))
    }

    /// From a private temporary file in the temporary directory, or in
    /// /tmp if that one cannot take it (TMPDIR naming a directory that does
    /// not exist or is not writable).
    fn start_from_temp_file() -> io::Result<Launcher> {
        let mut dirs = vec![std::env::temp_dir()];
        if dirs[0] != std::path::Path::new("/tmp") {
            dirs.push("/tmp".into());
        }
        let mut first = None;
        for dir in dirs {
            match Self::start_from_file_in(&dir) {
                Ok(launcher) => return Ok(launcher),
                // Only where the file could not be made is another tried.
                Err((true, e)) => return Err(e),
                Err((false, e)) => {
                    first.get_or_insert(e);
                }
            }
        }
        Err(first.unwrap_or_else(|| io::Error::other("no temporary directory")))
    }

    /// The launcher from a private file in `dir`; an error says whether the
    /// file was written (true: starting it failed).
    fn start_from_file_in(dir: &std::path::Path) -> Result<Launcher, (bool, io::Error)> {
        // Unique in the process too: a library may start several launchers
        // at once (the tests do).
        static STARTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!("bestguess-launcher-{}-{n}", std::process::id()));
        let written = (|| {
            let mut f = File::options()
                .write(true)
                .create_new(true)
                .mode(0o700)
                .open(&path)?;
            with_room_to_write(|| io::Write::write_all(&mut f, EMBEDDED_LAUNCHER))
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&path);
            return Err((false, e));
        }
        let started = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(io::Error::other)
            .and_then(|c| Self::start_program(&c));
        // Once it runs (or failed to), the file is no longer needed.
        let _ = std::fs::remove_file(&path);
        started.map_err(|e| (true, e))
    }

    fn start_program(path: &std::ffi::CStr) -> io::Result<Launcher> {
        let (req_read, req_write) = sys::pipe()?;
        let (resp_read, resp_write) = sys::pipe()?;
        // Room for a whole batch of responses, so the launcher never waits
        // for this process to read. Best effort: a smaller pipe only means
        // the launcher may pause between runs while this process catches up.
        let _ = sys::set_pipe_size(resp_read.as_raw_fd(), RESPONSE_PIPE_BYTES);
        let pid = {
            // Move the child's ends above 10 so the dup2 mappings cannot
            // collide, and close every copy of them here once it is spawned:
            // if this process kept a write end of the response pipe, a
            // launcher that died would leave the reads below waiting forever.
            let child_req: OwnedFd = sys::dup_above(req_read.as_raw_fd(), 10)?;
            let child_resp: OwnedFd = sys::dup_above(resp_write.as_raw_fd(), 10)?;
            drop((req_read, resp_write));
            let mut scratch = Vec::new();
            sys::spawn(
                &[path],
                &[
                    (child_req.as_raw_fd(), REQUEST_FD),
                    (child_resp.as_raw_fd(), RESPONSE_FD),
                ],
                &mut scratch,
            )?
        };
        let mut launcher = Launcher {
            pid,
            spawn_path: SpawnPath::NoClone3,
            requests: Some(File::from(req_write)),
            responses: BufReader::with_capacity(RESPONSE_PIPE_BYTES, File::from(resp_read)),
            names: Vec::new(),
            measured: Vec::new(),
            extras: None,
            extra_metrics: None,
            metrics_dir: None,
            cancelled: false,
            pace: Duration::ZERO,
            reaped: false,
        };
        // A round trip proves the program really runs and speaks the protocol.
        let floor = launcher
            .floor_response()
            .map_err(|e| io::Error::other(format!("the launcher did not answer: {e}")))?;
        launcher.spawn_path = SpawnPath::from_floor(&floor);
        Ok(launcher)
    }

    /// How this launcher spawns commands.
    pub fn spawn_path(&self) -> SpawnPath {
        self.spawn_path
    }

    /// Make SIGINT and SIGTERM cancel the running command through this
    /// launcher (see [`sys::catch_termination_signals`]).
    pub fn cancel_on_termination_signals(&self) -> io::Result<()> {
        sys::catch_termination_signals(self.pid)
    }

    fn send(&mut self, request: &[u8]) -> Result<(), ExecError> {
        let requests = self
            .requests
            .as_mut()
            .ok_or_else(|| ExecError::Launcher(io::Error::other("launcher closed")))?;
        let sent = protocol::send(requests, request);
        sent.map_err(|e| self.lost(e))
    }

    fn receive(&mut self) -> Result<Response, ExecError> {
        let received = Response::read_from(&mut self.responses);
        received.map_err(|e| self.lost(e))
    }

    /// A request or response that failed: where the pipe broke or ended,
    /// the launcher is gone, and how it ended is the error (for a command
    /// that sends its parent SIGUSR2, that signal, not "failed to fill
    /// whole buffer").
    fn lost(&mut self, e: io::Error) -> ExecError {
        if !matches!(
            e.kind(),
            io::ErrorKind::UnexpectedEof | io::ErrorKind::BrokenPipe
        ) || self.reaped
        {
            return ExecError::Launcher(e);
        }
        self.requests = None;
        match sys::wait_pid(self.pid) {
            Ok(status) => {
                self.reaped = true;
                let how = if libc::WIFSIGNALED(status) {
                    format!("killed by {}", sys::signal_name(libc::WTERMSIG(status)))
                } else {
                    format!("ended with exit status {}", libc::WEXITSTATUS(status))
                };
                ExecError::LauncherEnded(how)
            }
            Err(_) => ExecError::Launcher(e),
        }
    }

    /// The launcher's own peak RSS in bytes: no command's max RSS can be
    /// reported below this.
    pub fn floor_bytes(&mut self) -> Result<i64, ExecError> {
        // VmHWM (Linux, KiB) or the launcher's own ru_maxrss (portable):
        // the unit of ru_maxrss on this platform either way.
        Ok(platform::maxrss_bytes(self.floor_response()?.value()))
    }

    fn floor_response(&mut self) -> Result<Response, ExecError> {
        self.send(&protocol::floor_request())?;
        let resp = self.receive()?;
        if resp.kind != protocol::FLOOR || resp.value() < 0 {
            return Err(ExecError::Launcher(io::Error::other(
                "the launcher could not read its own peak RSS",
            )));
        }
        Ok(resp)
    }

    /// Ask the launcher for counters, pinning, environment padding or a
    /// metrics file (once, before the first batch). What could not be set
    /// up is in the reply; the launcher goes on without it.
    pub fn set_up(&mut self, config: &ExtrasConfig) -> Result<SetupReply, ExecError> {
        self.send(&config.request())?;
        let resp = self.receive()?;
        if resp.kind != extras::SET_UP {
            return Err(ExecError::Launcher(io::Error::other(
                "the launcher rejected the measurement extras",
            )));
        }
        let reply = SetupReply::read_from(&mut self.responses, config.counters.len());
        let reply = reply.map_err(|e| self.lost(e))?;
        self.extras = Some(config.clone());
        Ok(reply)
    }

    /// Set up what `options` ask for (counters, pinning, environment
    /// padding drawn from `seed`, a metrics file) and register their
    /// metrics in `catalogue`: from then on each run's values include them.
    /// Returns one line per counter that could not be opened; pinning or a
    /// metrics file that cannot be had is an error. Nothing at all is sent
    /// when nothing is asked for.
    pub fn set_up_metrics(
        &mut self,
        options: &MeasureOptions,
        seed: u64,
        catalogue: &mut crate::data::Catalogue,
    ) -> Result<Vec<String>, String> {
        if options.is_empty() {
            return Ok(Vec::new());
        }
        let plan = extra_metrics::plan(options, seed)?;
        let reply = self.set_up(&plan.config).map_err(|e| e.to_string())?;
        let (map, notes) = extra_metrics::register(options, &plan.config, &reply, catalogue)?;
        self.extra_metrics = Some(map);
        self.metrics_dir = plan.dir;
        Ok(notes)
    }

    fn cancel(&mut self) {
        if !self.cancelled {
            self.cancelled = true;
            sys::send_signal(self.pid, libc::SIGUSR1);
        }
    }
}

fn measurement(resp: &Response, extras: Option<RunExtras>) -> Measurement {
    Measurement {
        start_unix_us: resp.start_unix_us(),
        termination: if resp.signaled == 1 {
            Termination::Signaled(resp.code)
        } else {
            Termination::Exited(resp.code)
        },
        timed_out: resp.timed_out != 0,
        metrics: resp.metrics(),
        extras: extras.map(Box::new),
    }
}

impl Executor for Launcher {
    fn define(&mut self, programs: &[Program]) -> Result<(), ExecError> {
        let request = protocol::programs_request(programs.iter().map(|p| {
            let flags = if p.show_output {
                // With --show-output the command keeps the terminal's
                // foreground group (a background group reading the terminal
                // would be stopped by SIGTTIN).
                0
            } else {
                protocol::NULL_STDIO | protocol::NEW_GROUP
            };
            let measured = if p.measured { extras::MEASURED } else { 0 };
            (flags | measured, p.argv.as_slice())
        }));
        self.send(&request)?;
        if self.receive()?.kind != protocol::DEFINED {
            return Err(ExecError::Launcher(io::Error::other(
                "the launcher rejected the program table",
            )));
        }
        self.names = programs
            .iter()
            .map(|p| p.argv.first().cloned().unwrap_or_default())
            .collect();
        self.measured = programs.iter().map(|p| p.measured).collect();
        Ok(())
    }

    fn run_batch(
        &mut self,
        batch: &Batch<'_>,
        each: &mut dyn FnMut(usize, Outcome) -> bool,
    ) -> Result<(), ExecError> {
        // In microseconds, as `--timeout` takes it (milliseconds would make
        // 0.0002 s a limit of 1 ms).
        let timeout_us = batch.timeout.map_or(0, |t| {
            u64::try_from(t.as_micros()).unwrap_or(u64::MAX).max(1)
        });
        self.send(&protocol::batch_request(
            batch.steps,
            timeout_us,
            batch.stop_on_failure,
        ))?;
        let started = Instant::now();
        // Rather than block on the pipe (and be woken by every run, which
        // would have this process working on the other core while the next
        // command is measured), sleep while runs are under way and take
        // what has arrived in one read. Each sleep is half of what is
        // expected to remain, at the pace seen so far (the last batch's
        // before any result): one sleep through 90 % of the batch at the
        // last batch's pace overslept whenever the machine slowed, leaving
        // the launcher idle for up to 40 ms before the next batch. Halving
        // costs about log2(batch) wake-ups, and the last run is waited for
        // on the pipe, so the next batch goes out as soon as this one ends.
        let steps = batch.steps.len();
        let mut received = 0;
        for (i, &step) in batch.steps.iter().enumerate() {
            if self.responses.buffer().is_empty() && !self.cancelled {
                let pace = if received == 0 {
                    self.pace
                } else {
                    started.elapsed() / received
                };
                let remaining = (pace * (steps - i) as u32 / 2).min(MAX_SLEEP);
                if remaining >= MIN_SLEEP {
                    std::thread::sleep(remaining);
                }
            }
            let resp = self.receive()?;
            received += 1;
            let outcome = match resp.kind {
                protocol::FINISHED => {
                    let extras = match &self.extras {
                        Some(config) if self.measured.get(step as usize) == Some(&true) => Some(
                            RunExtras::read_from(
                                &mut self.responses,
                                config.counters.len(),
                                config.metrics_file.is_some(),
                            )
                            .map_err(|e| self.lost(e))?,
                        ),
                        _ => None,
                    };
                    let mut m = measurement(&resp, extras);
                    if let (Some(map), Some(x)) = (&self.extra_metrics, m.extras.as_deref_mut()) {
                        x.notes = map.fill(x, &mut m.metrics);
                    }
                    Outcome::Finished(m)
                }
                protocol::CANCELLED => Outcome::Cancelled,
                protocol::METRICS_ERROR => {
                    return Err(ExecError::MetricsFile {
                        program: self.names.get(step as usize).cloned().unwrap_or_default(),
                        source: io::Error::from_raw_os_error(resp.value() as i32),
                    })
                }
                protocol::SPAWN_ERROR => {
                    return Err(ExecError::Spawn {
                        program: self.names.get(step as usize).cloned().unwrap_or_default(),
                        source: io::Error::from_raw_os_error(resp.value() as i32),
                    })
                }
                _ => {
                    return Err(ExecError::Launcher(io::Error::other(
                        "the launcher sent an unexpected response",
                    )))
                }
            };
            // Every outcome is delivered, also after a cancel: runs that
            // completed before the launcher saw it are measurements.
            if !each(i, outcome) {
                self.cancel();
            }
            if resp.ends_batch(batch.stop_on_failure) {
                break;
            }
        }
        self.pace = started.elapsed() / received.max(1);
        Ok(())
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Closing the request pipe tells the launcher to exit.
        self.requests = None;
        let mut rest = Vec::new();
        let _ = self.responses.read_to_end(&mut rest);
        if !self.reaped {
            let _ = sys::wait_pid(self.pid);
        }
    }
}

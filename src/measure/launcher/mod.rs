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
//! file: `start.rs`). `--limits` reports its peak and how it spawns
//! (`spawn_path.rs`).
//!
//! Descriptors in the launcher: 0/1/2 are the tool's own (so `--show-output`
//! can hand the terminal to a command), 3 carries requests, 4 responses. The
//! launcher waits for each command with a plain `wait4`, as the minimal
//! timing loop of `bench/ref_loop.c` does; a timeout (SIGALRM, its own timer) or a cancel (SIGUSR1, sent
//! by the tool's SIGINT/SIGTERM handler) kills the command's process group.

mod spawn_path;
mod start;

pub use spawn_path::SpawnPath;

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::time::{Duration, Instant};

use super::extra_metrics::{self, ExtraMetrics, MetricsDir};
use super::extras::{ExtrasConfig, MeasureOptions, RunExtras, SetupReply};
use super::platform;
use super::protocol::{self, Response};
use super::sys;
use super::{Batch, ExecError, Executor, Measurement, Outcome, Program, Termination};

/// Sleeping shorter than this is not worth a missed wake-up.
const MIN_SLEEP: Duration = Duration::from_micros(200);

/// Never sleep longer than this: for runs longer than this, a wake-up per run
/// costs nothing measurable, and a run that ends early is not waited for.
const MAX_SLEEP: Duration = Duration::from_millis(100);

/// The tool's handle on its launcher process.
pub struct Launcher {
    pid: libc::pid_t,
    /// How it spawns commands (its first FLOOR response says).
    spawn_path: SpawnPath,
    requests: Option<File>,
    responses: BufReader<File>,
    /// `argv[0]` of each defined program, for error messages.
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
        self.read_floor()
    }

    /// The answer to a FLOOR request.
    fn read_floor(&mut self) -> Result<Response, ExecError> {
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
        if resp.kind != protocol::SET_UP {
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
                protocol::FLAG_NULL_STDIO | protocol::FLAG_NEW_GROUP
            };
            let measured = if p.measured {
                protocol::FLAG_MEASURED
            } else {
                0
            };
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

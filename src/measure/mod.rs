//! Measuring one run of one program.
//!
//! [`Executor`] is the seam between the experiment runner and the operating
//! system: the real implementation is the [`launcher::Launcher`], tests use a
//! scripted fake. It runs batches of steps so that the launcher can go from
//! one run straight to the next. [`split`] turns a command string into words with POSIX shell
//! quoting, and [`resolve`] checks that a program can be started before any
//! timing begins.

pub mod counters;
pub mod custom;
pub mod extra_metrics;
pub mod extras;
pub mod launcher;
pub mod platform;
pub mod protocol;
pub mod resolve;
pub mod split;
#[allow(unsafe_code)]
pub mod sys;

use std::io;
use std::time::Duration;

use crate::data::Values;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The program exited with this code.
    Exited(i32),
    /// The program was killed by this signal.
    Signaled(i32),
}

/// What the kernel reported about one run (from `wait4` and CLOCK_MONOTONIC).
///
/// The measured values travel as one [`Values`] (indexed by the metric
/// catalogue, `crate::data::metric`) from the launcher's response to the
/// run's record; only how the run ended is interpreted on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// When the run started, microseconds since the Unix epoch (CLOCK_REALTIME).
    pub start_unix_us: i64,
    pub termination: Termination,
    /// Killed by the launcher because it exceeded the timeout.
    pub timed_out: bool,
    /// Wall clock, CPU times, max RSS (bytes), faults, context switches, and
    /// whatever else was measured.
    pub metrics: Values,
    /// Counters, environment padding and the command's own metrics, when
    /// the launcher was set up for them ([`extras`]).
    pub extras: Option<Box<extras::RunExtras>>,
}

impl Measurement {
    /// The run ended normally with exit code 0.
    pub fn succeeded(&self) -> bool {
        self.termination == Termination::Exited(0) && !self.timed_out
    }

    /// The exit code to record: the code itself, or 128 + signal number (the
    /// shell's convention) when a signal ended the run.
    pub fn exit_code(&self) -> i32 {
        match self.termination {
            Termination::Exited(c) => c,
            Termination::Signaled(s) => 128 + s,
        }
    }
}

/// A program the experiment runs (a command or a hook), defined once and then
/// referred to by its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The words to execute; the first is looked up in PATH.
    pub argv: Vec<String>,
    /// Let the program use the tool's stdin, stdout and stderr (otherwise
    /// they are /dev/null and it runs in a process group of its own).
    pub show_output: bool,
    /// A command (warmups and timed runs), not a hook: gets the measurement
    /// extras (counters, padding, metrics file) when they are set up.
    pub measured: bool,
}

/// A sequence of steps (program indices) to run back to back.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    pub steps: &'a [u32],
    /// Kill a run (and everything it started) after this long.
    pub timeout: Option<Duration>,
    /// End the batch after the first run that does not exit 0.
    pub stop_on_failure: bool,
}

/// The result of running one step.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It ran to the end (or was killed by a timeout or a signal).
    Finished(Measurement),
    /// The tool was interrupted (SIGINT/SIGTERM) and the program was killed
    /// or not started; a partial run is not a measurement.
    Cancelled,
}

impl Outcome {
    /// Whether a batch ends after this outcome.
    pub fn ends_batch(&self, stop_on_failure: bool) -> bool {
        match self {
            Outcome::Cancelled => true,
            Outcome::Finished(m) => stop_on_failure && !m.succeeded(),
        }
    }
}

/// Why a step could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("cannot start '{program}': {source}{}", spawn_hint(source))]
    Spawn { program: String, source: io::Error },
    /// The metrics file of the next run could not be made afresh (a
    /// command removed its directory and it cannot be made again).
    #[error(
        "cannot make a fresh $BESTGUESS_METRICS file for the next run of '{program}': {source}; \
         a command removed or replaced the directory it is in, which must stay in place (a \
         command may replace the file itself); the runs measured before are kept"
    )]
    MetricsFile { program: String, source: io::Error },
    #[error("lost contact with the launcher process: {0}")]
    Launcher(io::Error),
    /// The launcher is gone: how it ended (`killed by SIGUSR2`).
    #[error("the launcher process was {0} during the experiment (a command that signals its parent process, $PPID, reaches it)")]
    LauncherEnded(String),
}

/// What to do about a program the kernel would not start, where the
/// error alone does not say (the program was found before any run, so
/// "No such file" means what it needs is missing).
fn spawn_hint(e: &io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(libc::ENOEXEC) => {
            "; it is not a program the kernel can run (no #! line, or a binary for another \
             machine): add a #! line, or run it through a shell with -s \"/bin/sh -c\""
        }
        Some(libc::ENOENT) => "; the file exists, so its #! interpreter or ELF loader is missing",
        Some(libc::EAGAIN) => {
            "; the limit on processes is reached (ulimit -u): raise it, or end other processes"
        }
        Some(libc::ETXTBSY) => "; the file is open for writing",
        _ => "",
    }
}

/// Runs programs and measures them.
///
/// A batch ends after its last step, after a [`Outcome::Cancelled`], after a
/// step that cannot be started (reported as [`ExecError::Spawn`], once the
/// earlier outcomes have been delivered), and — with `stop_on_failure` —
/// after the first run that did not exit 0.
pub trait Executor {
    /// Define the programs that batches refer to.
    fn define(&mut self, programs: &[Program]) -> Result<(), ExecError>;

    /// Run `batch`, calling `each(step, outcome)` for every step as it
    /// completes. If `each` returns false, the rest of the batch is
    /// cancelled and the executor refuses to start anything afterwards; the
    /// outcomes of steps that completed before the cancel took effect are
    /// still delivered (they are measurements), up to the end of the batch.
    fn run_batch(
        &mut self,
        batch: &Batch<'_>,
        each: &mut dyn FnMut(usize, Outcome) -> bool,
    ) -> Result<(), ExecError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_the_kernel_refuses_is_explained() {
        let said = |errno: i32| {
            ExecError::Spawn {
                program: "./x".into(),
                source: io::Error::from_raw_os_error(errno),
            }
            .to_string()
        };
        assert!(said(libc::ENOEXEC).contains("add a #! line"));
        assert!(said(libc::ENOENT).contains("interpreter or ELF loader is missing"));
        assert!(said(libc::EAGAIN).contains("ulimit -u"));
        // Others as the kernel says them, nothing added.
        assert!(said(libc::EACCES).ends_with("(os error 13)"));
    }
}

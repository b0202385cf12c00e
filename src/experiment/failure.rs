//! The failure policy: when a step stops the experiment, and how the
//! failure is told. Without `-i`, a timed run, a warmup or a hook that does
//! not exit 0 (a signal and a timeout included) stops the experiment; the
//! timed run is recorded first. With `-i` nothing stops it.

use std::fmt;
use std::time::Duration;

use crate::measure::{sys, Measurement, Termination};

use super::HookKind;

/// What was running when something failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Warmup,
    Run { number: u64 },
    Hook(HookKind),
}

/// A failure that stopped the experiment (without `-i`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 0-based index of the command concerned.
    pub index: usize,
    pub command: String,
    pub step: Step,
    /// The text of the hook, for hook failures.
    pub hook: Option<String>,
    pub termination: Termination,
    pub timed_out: Option<Duration>,
    /// A shell was used (for the `-c` hint).
    pub shell: String,
}

impl Failure {
    /// What failed and how, e.g. "the --setup command 'false' of command 1
    /// exited with code 1".
    pub fn what_happened(&self) -> String {
        let what = match &self.step {
            Step::Warmup => format!(
                "a warmup run of command {} ('{}')",
                self.index + 1,
                self.command
            ),
            Step::Run { number } => format!(
                "run {number} of command {} ('{}')",
                self.index + 1,
                self.command
            ),
            Step::Hook(kind) => format!(
                "the {} command '{}' of command {}",
                kind.option(),
                self.hook.as_deref().unwrap_or(""),
                self.index + 1
            ),
        };
        let how = match (self.timed_out, self.termination) {
            (Some(t), _) => format!("timed out after {}", fmt_duration(t)),
            (None, Termination::Exited(code)) => format!("exited with code {code}"),
            (None, Termination::Signaled(sig)) => {
                format!("was killed by {}", sys::signal_name(sig))
            }
        };
        format!("{what} {how}")
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let recorded = if matches!(self.step, Step::Run { .. }) {
            " (that run is recorded)"
        } else {
            ""
        };
        let hint = if !self.shell.is_empty()
            && self.termination == Termination::Exited(127)
            && !self.shell.trim_end().ends_with(" -c")
        {
            "; shells usually need '-c' before the command, e.g. -s \"/bin/sh -c\""
        } else {
            "; use -i/--ignore-failure to keep going"
        };
        write!(f, "{}{recorded}{hint}", self.what_happened())
    }
}

pub(crate) fn fmt_duration(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// The failure `m` is: `None` when it succeeded. Without `-i` it stops
/// the experiment; with `-i` a failed hook is still told, once per hook
/// (a failed timed run is in the data and in the report's failure count).
pub fn check(
    plan: &super::Plan,
    index: usize,
    step: Step,
    hook: Option<String>,
    m: &Measurement,
) -> Option<Failure> {
    if m.succeeded() {
        return None;
    }
    Some(Failure {
        index,
        command: plan.commands[index].command.text.clone(),
        step,
        hook,
        termination: m.termination,
        timed_out: m.timed_out.then(|| plan.timeout.unwrap_or_default()),
        shell: plan.shell.clone(),
    })
}

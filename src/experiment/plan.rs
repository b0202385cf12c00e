//! The validated description of an experiment.

use std::time::Duration;

use super::Order;

/// A command (or hook) to execute: the text the user wrote and the words that
/// will be executed (shell words + the text, or the text split without a
/// shell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hook {
    pub text: String,
    pub argv: Vec<String>,
}

/// Which hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookKind {
    /// `-p/--prepare`: before every run, warmups included.
    Prepare,
    /// `--setup`: once before the command's first run.
    Setup,
    /// `--conclude`: after every run, warmups included.
    Conclude,
    /// `--cleanup`: once after the command's last run.
    Cleanup,
}

impl HookKind {
    pub fn option(self) -> &'static str {
        match self {
            HookKind::Prepare => "--prepare",
            HookKind::Setup => "--setup",
            HookKind::Conclude => "--conclude",
            HookKind::Cleanup => "--cleanup",
        }
    }
}

/// The hooks of one command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    pub prepare: Option<Hook>,
    pub setup: Option<Hook>,
    pub conclude: Option<Hook>,
    pub cleanup: Option<Hook>,
}

/// One command of the experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandPlan {
    /// The command as the user gave it, recorded verbatim in the raw data.
    pub command: Hook,
    /// Its `-n` name, if any.
    pub name: Option<String>,
    pub hooks: Hooks,
}

/// Everything the runner needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub commands: Vec<CommandPlan>,
    /// The `-s` string, recorded in the raw data (empty: no shell).
    pub shell: String,
    pub warmup: u64,
    pub runs: u64,
    pub order: Order,
    /// Seed of the random order (used only with [`Order::Random`]).
    pub seed: u64,
    pub timeout: Option<Duration>,
    pub ignore_failure: bool,
    pub show_output: bool,
}

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
    /// `--setup`: before the command's first run (in sequential order,
    /// before each of its blocks).
    Setup,
    /// `--conclude`: after every run, warmups included.
    Conclude,
    /// `--cleanup`: after the command's last run (in sequential order,
    /// after each of its blocks).
    Cleanup,
}

impl HookKind {
    /// Every kind, in the order `--help` lists their options. Each one
    /// becomes a command-line option built from [`HookKind::long`],
    /// [`HookKind::short`] and [`HookKind::help`].
    pub const ALL: [HookKind; 4] = [
        HookKind::Prepare,
        HookKind::Setup,
        HookKind::Conclude,
        HookKind::Cleanup,
    ];

    /// The option, as messages spell it (`--prepare`).
    pub fn option(self) -> &'static str {
        match self {
            HookKind::Prepare => "--prepare",
            HookKind::Setup => "--setup",
            HookKind::Conclude => "--conclude",
            HookKind::Cleanup => "--cleanup",
        }
    }

    /// The long option without its dashes.
    pub fn long(self) -> &'static str {
        &self.option()[2..]
    }

    /// The short option, if it has one.
    pub fn short(self) -> Option<char> {
        match self {
            HookKind::Prepare => Some('p'),
            _ => None,
        }
    }

    /// One line for `--help` and the man page.
    pub fn help(self) -> &'static str {
        match self {
            HookKind::Prepare => {
                "Run CMD before every run, warmups included (untimed, output discarded)"
            }
            HookKind::Setup => {
                "Run CMD before a command's first run (sequential: before each of its blocks)"
            }
            HookKind::Conclude => "Run CMD after every run, warmups included",
            HookKind::Cleanup => {
                "Run CMD after a command's last run (sequential: after each of its blocks)"
            }
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
    /// The parameter values (`-P`, `-L`) this command was built with, in
    /// parameter order; empty without parameters.
    pub parameters: Vec<(String, String)>,
}

impl Plan {
    /// The names of the parameters (`-P`, `-L`), in order; empty without.
    pub fn parameter_names(&self) -> Vec<String> {
        self.commands.first().map_or_else(Vec::new, |c| {
            c.parameters.iter().map(|(name, _)| name.clone()).collect()
        })
    }
}

/// The largest `-r` and `-w`: a billion runs of the fastest command take
/// weeks; a larger number is a typo, not an experiment.
pub const MAX_RUNS: u64 = 1_000_000_000;

/// Everything the runner needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub commands: Vec<CommandPlan>,
    /// The `-s` string, recorded in the raw data (empty: no shell).
    pub shell: String,
    pub warmup: u64,
    /// Timed runs per command; with `adaptive`, the most rounds.
    pub runs: u64,
    /// Rounds until the experiment's sink says stop (`--runs auto`): the
    /// schedule pauses where [`super::RunSink::checkpoint`] asks it to.
    pub adaptive: bool,
    pub order: Order,
    /// Seed of the random order (used only with [`Order::Random`]).
    pub seed: u64,
    pub timeout: Option<Duration>,
    pub ignore_failure: bool,
    pub show_output: bool,
}

/// A plan of plain commands (no hooks, no shell) for the experiment's tests.
#[cfg(test)]
pub(crate) fn test_plan(
    commands: &[&str],
    warmup: u64,
    runs: u64,
    order: Order,
    seed: u64,
) -> Plan {
    Plan {
        commands: commands
            .iter()
            .map(|c| CommandPlan {
                command: test_hook(c),
                name: None,
                hooks: Hooks::default(),
                parameters: Vec::new(),
            })
            .collect(),
        shell: String::new(),
        warmup,
        runs,
        adaptive: false,
        order,
        seed,
        timeout: None,
        ignore_failure: false,
        show_output: false,
    }
}

/// A hook (or command) whose only word is its text, for tests.
#[cfg(test)]
pub(crate) fn test_hook(text: &str) -> Hook {
    Hook {
        text: text.into(),
        argv: vec![text.into()],
    }
}

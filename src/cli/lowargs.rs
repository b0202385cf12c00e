//! The low-level arguments: what the option table ([`super::flags`]) fills
//! as it reads the command line, in the user's terms, and the words some
//! options take. They sit apart from the parser ([`super::args`]) and the
//! generators ([`super::generate`]), which read the option table, so that
//! the table can name the fields it fills without importing its readers.
//! Turning these strings into typed values happens in [`super::config`].

use super::UsageError;
use crate::experiment::HookKind;
use crate::export::Format;
use crate::history::Location;

/// A command from the command line or a `-f` file, with its optional name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandArg {
    pub text: String,
    pub name: Option<String>,
}

/// A parameter as given: `-P NAME MIN MAX` or `-L NAME VALUES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamArg {
    Scan {
        name: String,
        min: String,
        max: String,
    },
    List {
        name: String,
        values: String,
    },
}

/// Report switches, in the order given (later ones override earlier ones, as
/// in BestGuess 0.7.5: `-Q -R` prints only the ranking).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportSwitch {
    Quiet,
    Summary,
    Mini,
    NoStats,
    Ranking,
    Explain,
    Dist,
    Tail,
    Graph,
    Boxplot,
}

/// Everything given on the command line, in the user's terms. Each field
/// is filled by the `update` of its entry in [`super::flags::all`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    /// Notes for standard error about what a Hyperfine habit does here
    /// (`-N`).
    pub notes: Vec<String>,
    /// Commands (bestguess) or data files (bestreport), in order.
    pub positional: Vec<CommandArg>,
    /// `-n` names given before the first command (Hyperfine's order): they
    /// name the commands in order once every argument is read.
    pub leading_names: Vec<String>,
    pub warmup: Option<String>,
    pub runs: Option<String>,
    /// `--runs auto`'s budget and precision (validated in `stopping`).
    pub min_runs: Option<String>,
    pub max_runs: Option<String>,
    pub max_time: Option<String>,
    pub precision: Option<String>,
    /// `-p`, `--setup`, `--conclude`, `--cleanup`, in the order given.
    pub hooks: Vec<(HookKind, String)>,
    pub ignore_failure: bool,
    pub show_output: bool,
    /// `--live`: results so far under the progress bar.
    pub live: bool,
    pub shell: Option<String>,
    pub files: Vec<String>,
    pub output: Option<String>,
    pub order: Option<String>,
    pub seed: Option<String>,
    pub timeout: Option<String>,
    /// `-P` and `-L`, in the order given.
    pub parameters: Vec<ParamArg>,
    /// `--parameter-step-size`.
    pub step_size: Option<String>,
    pub counters: Option<String>,
    pub custom_metrics: Option<String>,
    pub cpus: Option<String>,
    pub randomize_env: bool,
    pub switches: Vec<ReportSwitch>,
    pub settings: Vec<String>,
    /// `--metric NAME` (the last one given).
    pub metric: Option<String>,
    /// `--reference N|NAME` (the last one given).
    pub reference: Option<String>,
    pub show_config: bool,
    pub show_limits: bool,
    /// Export options, in the order given.
    pub exports: Vec<(Format, String)>,
    /// `--json-runs LIST` (the last one given).
    pub json_runs: Option<String>,
    /// `--export-svg DIR` (the last one given).
    pub svg_dir: Option<String>,
    pub action: Option<String>,
    /// `--baseline FILE` and `--fail-if-slower PCT`.
    pub baseline: Option<String>,
    pub fail_if_slower: Option<String>,
    /// `--history [STORE]` and `--history-import [STORE]`.
    pub history: Option<HistoryArg>,
    pub history_import: Option<HistoryArg>,
    /// `--commit`, `--branch`, `--command`, `--machine`, `--since`.
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub command: Option<String>,
    pub machine: Option<String>,
    pub since: Option<String>,
    /// `--generate`: man page or completions.
    pub generate: Option<String>,
    pub version: bool,
    pub help: bool,
    /// The options given that only apply when running commands (`-r`,
    /// `-o`, hooks …), as `--long`: refused when `-A report` reads saved
    /// data instead (rather than ignored without a word).
    pub run_only: Vec<String>,
}

/// `--history` or `--history-import` as given: the store after `=`, and
/// how many positional words came before the option (the word right
/// after it may name the store).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryArg {
    pub store: Option<String>,
    pub at: usize,
}

/// `-n NAME` names the command just before it, once.
pub fn name_last(commands: &mut [CommandArg], name: String) -> Result<(), UsageError> {
    match commands.last_mut() {
        None => Err(UsageError(format!(
            "name '{name}' must follow a command: put -n NAME after the command it names"
        ))),
        Some(c) if c.name.is_some() => Err(UsageError(format!(
            "command '{}' already has the name '{}'; give -n once per command",
            c.text,
            c.name.as_deref().unwrap_or("")
        ))),
        Some(c) => {
            c.name = Some(name);
            Ok(())
        }
    }
}

impl Args {
    /// Takes `word` as the store when it comes right after `--history` or
    /// `--history-import` (without `=`) and has a store's form
    /// ([`Location::looks_like_store`]): it is then no command, and a
    /// `-n NAME` after it names the command that follows, as a name given
    /// before any command does.
    pub fn take_store(&mut self, word: &str) -> bool {
        let at = self.positional.len();
        let pending = [self.history.as_mut(), self.history_import.as_mut()]
            .into_iter()
            .flatten()
            .find(|h| h.store.is_none() && h.at == at);
        match pending {
            Some(h) if Location::looks_like_store(word) => {
                h.store = Some(word.to_owned());
                true
            }
            _ => false,
        }
    }

    /// `-n NAME`: names the command just before it; once a name comes
    /// before the first command, every name is held and the names pair
    /// with the commands in order, as Hyperfine's `-n a -n b CMD1 CMD2`
    /// (see [`Args::pair_names`]).
    pub fn name(&mut self, name: String) -> Result<(), UsageError> {
        if self.positional.is_empty() || !self.leading_names.is_empty() {
            self.leading_names.push(name);
            return Ok(());
        }
        name_last(&mut self.positional, name)
    }

    /// After the last argument: the names held by [`Args::name`] name the
    /// commands in order (fewer names leave the last commands unnamed).
    pub fn pair_names(&mut self) -> Result<(), UsageError> {
        let (names, commands) = (self.leading_names.len(), self.positional.len());
        if names == 0 {
            return Ok(());
        }
        if commands == 0 {
            return Err(UsageError(format!(
                "name '{}' names no command: give the commands too, each named by the -n after it (or, as in Hyperfine, by the -n in the same place before them)",
                self.leading_names[0]
            )));
        }
        if names > commands {
            return Err(UsageError(format!(
                "{names} names (-n) for {commands} command{}: names given before the commands pair with them in order (the first names the first); give at most one per command",
                if commands == 1 { "" } else { "s" }
            )));
        }
        for (c, name) in self.positional.iter_mut().zip(self.leading_names.drain(..)) {
            c.name = Some(name);
        }
        Ok(())
    }
}

/// What `--generate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generate {
    Man,
    Bash,
    Zsh,
    Fish,
}

impl Generate {
    /// The words `--generate` accepts, in the order of [`Generate::ALL`].
    pub const WORDS: &'static [&'static str] =
        &["man", "complete-bash", "complete-zsh", "complete-fish"];
    pub const ALL: [Generate; 4] = [Generate::Man, Generate::Bash, Generate::Zsh, Generate::Fish];

    pub fn parse(word: &str) -> Result<Generate, UsageError> {
        Generate::WORDS
            .iter()
            .position(|w| *w == word)
            .map(|i| Generate::ALL[i])
            .ok_or_else(|| {
                UsageError(format!(
                    "--generate {word}: unknown; use one of {}",
                    Generate::WORDS.join(", ")
                ))
            })
    }
}

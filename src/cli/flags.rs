//! The option table: one entry per option, and nothing else knows the
//! options' names.
//!
//! Each [`Flag`] carries its names (short, long and aliases), the names of
//! the values it takes, its help line, which program accepts it, a hint for
//! shell completions, and how it applies itself to the low-level [`Args`]
//! (its `update`). Parsing ([`super::args`]), `--help`
//! ([`super::help`]), the man page and the shell completions
//! ([`super::generate`]) are all generated from [`all`]; there is no second
//! `match` on option names anywhere (ripgrep's `Flag` trait, as data).
//!
//! Export options come from [`Format::ALL`] and hook options from
//! [`HookKind::ALL`], so a new export format or hook kind is a new option
//! without touching this file.
//!
//! How to add an option: add one entry to [`all`] (names, value names, scope,
//! help, and the closure that stores the value in a new field of [`Args`]),
//! then turn that field into its typed value in [`super::config`]. The tests
//! check that every entry parses, and appears in `--help` and the man page.

use std::sync::OnceLock;

use super::lowargs::{Args, Generate, HistoryArg, ParamArg, ReportSwitch};
use super::UsageError;
use crate::experiment::HookKind;
use crate::export::{Format, JsonRuns};

/// Which executable accepts a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only `bestguess` (running an experiment).
    Run,
    /// Both executables (reports, exports, settings).
    Both,
}

/// What shell completions offer for an option's value.
#[derive(Clone, Copy, Debug)]
pub enum Hint {
    /// Free text: nothing to offer.
    Text,
    /// A file name.
    File,
    /// A command line (completed as a command name).
    Command,
    /// One of these words.
    Choices(&'static [&'static str]),
    /// These words, though others are accepted too (`--metric`'s names;
    /// `-c`'s `NAME=`, after which the value is typed).
    Suggest(fn() -> Vec<String>),
}

type Update = Box<dyn Fn(&mut Args, Vec<String>) -> Result<(), UsageError> + Send + Sync>;

/// One option.
pub struct Flag {
    pub short: Option<char>,
    pub long: &'static str,
    /// Other short letters accepted for this option (`-x` for `-c`).
    pub short_aliases: Vec<char>,
    /// Other long names accepted for this option (`--command-name`).
    pub long_aliases: Vec<&'static str>,
    /// The names of the values it takes, in order (empty for a switch).
    pub values: Vec<&'static str>,
    pub hint: Hint,
    pub scope: Scope,
    pub help: &'static str,
    /// The value may be left out (`--history` or `--history=STORE`).
    pub optional: bool,
    update: Update,
}

impl std::fmt::Debug for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Flag").field("long", &self.long).finish()
    }
}

impl Flag {
    /// An option without a value.
    fn switch(
        long: &'static str,
        scope: Scope,
        help: &'static str,
        set: impl Fn(&mut Args) + Send + Sync + 'static,
    ) -> Flag {
        Flag::with_values(long, &[], scope, help, move |a, _| {
            set(a);
            Ok(())
        })
    }

    /// An option with one value, stored as given (checked later, in
    /// [`super::config`]).
    fn value(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: &'static str,
        set: impl Fn(&mut Args, String) + Send + Sync + 'static,
    ) -> Flag {
        Flag::checked(long, name, scope, help, move |a, v| {
            set(a, v);
            Ok(())
        })
    }

    /// An option with one value whose form is checked as it is read
    /// (`-n` needs a command before it).
    fn checked(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: &'static str,
        set: impl Fn(&mut Args, String) -> Result<(), UsageError> + Send + Sync + 'static,
    ) -> Flag {
        Flag::with_values(long, &[name], scope, help, move |a, mut v| {
            set(a, v.pop().unwrap_or_default())
        })
    }

    /// An option with a fixed number of values (`-P VAR MIN MAX`).
    fn with_values(
        long: &'static str,
        names: &[&'static str],
        scope: Scope,
        help: &'static str,
        update: impl Fn(&mut Args, Vec<String>) -> Result<(), UsageError> + Send + Sync + 'static,
    ) -> Flag {
        Flag {
            short: None,
            long,
            short_aliases: Vec::new(),
            long_aliases: Vec::new(),
            values: names.to_vec(),
            hint: Hint::Text,
            scope,
            help,
            optional: false,
            update: Box::new(update),
        }
    }

    /// An option whose one value may be left out: given only as
    /// `--long=VALUE`, or with a space where the value's form says it is
    /// one (see [`super::config`]). `name` is shown in brackets.
    fn optional(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: &'static str,
        set: impl Fn(&mut Args, Option<String>) + Send + Sync + 'static,
    ) -> Flag {
        let mut f = Flag::with_values(long, &[name], scope, help, move |a, mut v| {
            set(a, v.pop());
            Ok(())
        });
        f.optional = true;
        f
    }

    fn short(mut self, c: char) -> Flag {
        self.short = Some(c);
        self
    }

    fn alias(mut self, c: char) -> Flag {
        self.short_aliases.push(c);
        self
    }

    fn long_alias(mut self, name: &'static str) -> Flag {
        self.long_aliases.push(name);
        self
    }

    fn hint(mut self, hint: Hint) -> Flag {
        self.hint = hint;
        self
    }

    /// Apply the option with its values (exactly `self.values.len()` of
    /// them) to `args`.
    pub fn update(&self, args: &mut Args, values: Vec<String>) -> Result<(), UsageError> {
        debug_assert!(values.len() == self.values.len() || self.optional && values.is_empty());
        (self.update)(args, values)
    }

    /// Whether `program` (running or not) accepts this option.
    pub fn applies(&self, running: bool) -> bool {
        running || self.scope == Scope::Both
    }

    /// Every short letter that selects this option.
    pub fn shorts(&self) -> impl Iterator<Item = char> + '_ {
        self.short
            .into_iter()
            .chain(self.short_aliases.iter().copied())
    }

    /// Every long name that selects this option.
    pub fn longs(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.long).chain(self.long_aliases.iter().copied())
    }

    /// How help shows it: `-r, --runs N`.
    pub fn usage(&self) -> String {
        let mut s = match self.short {
            Some(c) => format!("-{c}, --{}", self.long),
            None => format!("    --{}", self.long),
        };
        for v in &self.values {
            s.push(' ');
            s.push_str(v);
        }
        s
    }

    /// The help line with its aliases: `… (also -x)`.
    pub fn full_help(&self) -> String {
        let aliases: Vec<String> = self
            .short_aliases
            .iter()
            .map(|c| format!("-{c}"))
            .chain(self.long_aliases.iter().map(|l| format!("--{l}")))
            .collect();
        if aliases.is_empty() {
            self.help.to_string()
        } else {
            format!("{} (also {})", self.help, aliases.join(", "))
        }
    }
}

use Scope::{Both, Run};

/// Every option, in help order.
pub fn all() -> &'static [Flag] {
    static FLAGS: OnceLock<Vec<Flag>> = OnceLock::new();
    FLAGS.get_or_init(build)
}

fn report(long: &'static str, short: char, switch: ReportSwitch, help: &'static str) -> Flag {
    Flag::switch(long, Both, help, move |a| a.switches.push(switch)).short(short)
}

/// The option table, group by group in help order.
fn build() -> Vec<Flag> {
    [
        repetitions(),
        command_flags(),
        schedule_flags(),
        measurement_flags(),
        report_flags(),
        analysis_flags(),
        history_flags(),
        export_flags(),
        program_flags(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// How many runs, and the hooks around them.
fn repetitions() -> Vec<Flag> {
    let mut flags = vec![
        Flag::value(
            "warmup",
            "N",
            Run,
            "Untimed runs of each command before timing starts (default 1; -w 0 for none)",
            |a, v| a.warmup = Some(v),
        )
        .short('w'),
        Flag::value(
            "runs",
            "N|auto",
            Both,
            "Timed runs of each command, or auto (the default): rounds until decided (bestreport: auto or fixed; default: as the file records)",
            |a, v| a.runs = Some(v),
        )
        .short('r'),
        Flag::value(
            "min-runs",
            "N",
            Both,
            "With auto: no decision before N rounds (default: the first round one is possible)",
            |a, v| a.min_runs = Some(v),
        )
        .short('m'),
        Flag::value(
            "max-runs",
            "N",
            Run,
            "With auto: stop after N rounds, decided or not (default 1000)",
            |a, v| a.max_runs = Some(v),
        ),
        Flag::value(
            "max-time",
            "DURATION",
            Run,
            "With auto: stop after this long, such as 30s or 2m (default 10s, but not before the first look)",
            |a, v| a.max_time = Some(v),
        ),
        Flag::value(
            "precision",
            "PCT",
            Both,
            "With auto and one command: stop when its median is known within ±PCT (default 2%)",
            |a, v| a.precision = Some(v),
        ),
    ];
    for kind in HookKind::ALL {
        let mut f = Flag::value(kind.long(), "CMD", Run, kind.help(), move |a, v| {
            a.hooks.push((kind, v))
        })
        .hint(Hint::Command);
        f.short = kind.short();
        flags.push(f);
    }
    flags
}

/// How commands run and where their results go.
fn command_flags() -> Vec<Flag> {
    vec![
        Flag::switch(
            "ignore-failure",
            Run,
            "Record non-zero exits, signals and timeouts and keep going",
            |a| a.ignore_failure = true,
        )
        .short('i'),
        Flag::switch(
            "show-output",
            Run,
            "Let commands use this terminal (default: /dev/null)",
            |a| a.show_output = true,
        ),
        Flag::switch(
            "live",
            Run,
            "Show the results so far under the progress bar (terminal only; analyses while commands run)",
            |a| a.live = true,
        ),
        Flag::value(
            "shell",
            "SHELL",
            Run,
            "Run each command as one argument after SHELL, e.g. \"/bin/sh -c\" (default: none; bash: bash -c)",
            |a, v| a.shell = Some(v),
        )
        .short('s')
        .hint(Hint::Command),
        Flag::checked(
            "name",
            "NAME",
            Run,
            "Name the command before it (given before the commands: name them in order)",
            |a, v| a.name(v),
        )
        .short('n')
        .long_alias("command-name"),
        Flag::value(
            "file",
            "FILE",
            Run,
            "Read commands from FILE, one per line (- for standard input; -n NAME lines name them; # comments)",
            |a, v| a.files.push(v),
        )
        .short('f')
        .hint(Hint::File),
        Flag::checked(
            "output",
            "FILE",
            Run,
            "Write every run's raw data as CSV to FILE (- for standard output)",
            |a, v| match a.output.replace(v) {
                // The first file would get nothing (the last -o had won,
                // silently).
                Some(first) if Some(&first) != a.output.as_ref() => Err(UsageError(format!(
                    "-o is given twice ({first} and {}): the raw data goes to one file; give -o once",
                    a.output.as_deref().unwrap_or("")
                ))),
                _ => Ok(()),
            },
        )
        .short('o')
        .hint(Hint::File),
    ]
}

/// In which order and with which parameters commands run.
fn schedule_flags() -> Vec<Flag> {
    vec![
        Flag::value(
            "order",
            "ORDER",
            Run,
            "random (shuffled rounds, the default), interleave (rounds) or sequential (mirrored blocks)",
            |a, v| a.order = Some(v),
        )
        .hint(Hint::Choices(&["sequential", "interleave", "random"])),
        Flag::value(
            "seed",
            "N",
            Run,
            "Seed for --order random and --randomize-env, to reproduce them",
            |a, v| a.seed = Some(v),
        ),
        Flag::value(
            "timeout",
            "SECONDS",
            Run,
            "Kill a run or hook (and what it started) after SECONDS; it counts as failed",
            |a, v| a.timeout = Some(v),
        ),
        Flag::with_values(
            "parameter-scan",
            &["NAME", "MIN", "MAX"],
            Run,
            "Run each command for NAME = MIN, MIN+1 … MAX, replacing {NAME} in commands, names and hooks",
            |a, v| {
                let [name, min, max] = <[String; 3]>::try_from(v).unwrap_or_default();
                a.parameters.push(ParamArg::Scan { name, min, max });
                Ok(())
            },
        )
        .short('P'),
        Flag::value(
            "parameter-step-size",
            "STEP",
            Run,
            "Step of every -P scan instead of 1 (decimals allowed)",
            |a, v| a.step_size = Some(v),
        ),
        Flag::with_values(
            "parameter-list",
            &["NAME", "VALUES"],
            Run,
            "Run each command for each of the comma-separated VALUES of NAME; several -P/-L: every combination",
            |a, v| {
                let [name, values] = <[String; 2]>::try_from(v).unwrap_or_default();
                a.parameters.push(ParamArg::List { name, values });
                Ok(())
            },
        )
        .short('L'),
    ]
}

/// What else is measured, and how the runs are placed.
fn measurement_flags() -> Vec<Flag> {
    vec![
        Flag::value(
            "counters",
            "LIST",
            Run,
            "Also measure perf counters: comma list (names in --limits) or all",
            |a, v| a.counters = Some(v),
        ),
        Flag::value(
            "custom-metrics",
            "NAMES",
            Run,
            "Record NAMES that commands write as 'name value' lines to $BESTGUESS_METRICS",
            |a, v| a.custom_metrics = Some(v),
        ),
        Flag::value(
            "cpus",
            "LIST",
            Run,
            "Pin the commands to these CPUs, e.g. 0,2-3",
            |a, v| a.cpus = Some(v),
        ),
        Flag::switch(
            "randomize-env",
            Run,
            "Pad each run's environment with 0-4096 bytes (seeded by --seed; recorded)",
            |a| a.randomize_env = true,
        ),
    ]
}

/// Which reports are printed.
fn report_flags() -> Vec<Flag> {
    vec![
        report(
            "quiet",
            'Q',
            ReportSwitch::Quiet,
            "Print nothing but errors and what other report options ask for",
        ),
        report(
            "summary",
            'S',
            ReportSwitch::Summary,
            "Print the per-command summary (default; Hyperfine's -S SHELL is -s here)",
        ),
        report(
            "mini-stats",
            'M',
            ReportSwitch::Mini,
            "Print a short summary: total CPU and wall time (Hyperfine's -M N: use -r N)",
        ),
        report(
            "no-stats",
            'N',
            ReportSwitch::NoStats,
            "Do not print the per-command summary (Hyperfine's -N, no shell, is the default here)",
        ),
        report(
            "ranking",
            'R',
            ReportSwitch::Ranking,
            "Print the ranking (default)",
        ),
        report(
            "explain",
            'E',
            ReportSwitch::Explain,
            "Explain the ranking's statistics",
        ),
        report(
            "dist-stats",
            'D',
            ReportSwitch::Dist,
            "Print the distribution of total CPU time",
        ),
        report(
            "tail-stats",
            'T',
            ReportSwitch::Tail,
            "Print the tail of the distribution of total CPU time",
        ),
        report(
            "graph",
            'G',
            ReportSwitch::Graph,
            "Graph every run of each command",
        ),
        report(
            "boxplot",
            'B',
            ReportSwitch::Boxplot,
            "Box plots of all commands on one axis",
        ),
    ]
}

/// Settings of the analysis, comparisons and what to show instead of running.
fn analysis_flags() -> Vec<Flag> {
    vec![
        Flag::value(
            "set",
            "NAME=VALUE",
            Both,
            "Settings: width, graph, alpha, epsilon, effect, best, sigma (not Hyperfine's cleanup)",
            |a, v| a.settings.push(v),
        )
        .short('c')
        .alias('x')
        .hint(Hint::Suggest(super::settings::completions)),
        Flag::value(
            "metric",
            "NAME",
            Both,
            "Metric to rank: cpu, wall, user, system, rss, ctxsw, runq, or any other the data hold (default: wall if a command mostly waits, else cpu)",
            |a, v| a.metric = Some(v),
        )
        .hint(Hint::Suggest(metric_names)),
        Flag::value(
            "reference",
            "N|NAME",
            Both,
            "Compare every command with this one (number from 1, or name) instead of the best",
            |a, v| a.reference = Some(v),
        ),
        Flag::value(
            "baseline",
            "FILE",
            Both,
            "Compare each command with the same one in raw data FILE: change in % and verdict",
            |a, v| a.baseline = Some(v),
        )
        .hint(Hint::File),
        Flag::value(
            "fail-if-slower",
            "PCT",
            Both,
            "With --baseline or bestguess --history: exit with status 3 if a command is slower with its lower bound above +PCT %",
            |a, v| a.fail_if_slower = Some(v),
        ),
        Flag::switch("config", Both, "Show the settings and exit", |a| {
            a.show_config = true
        }),
        Flag::switch("limits", Both, "Show the limits that exist and exit", |a| {
            a.show_limits = true
        }),
    ]
}

/// The performance history: recording, reporting, importing, filters.
fn history_flags() -> Vec<Flag> {
    let at = |a: &Args, store: Option<String>| HistoryArg {
        store,
        at: a.positional.len(),
    };
    vec![
        Flag::optional(
            "history",
            "[STORE]",
            Both,
            "bestguess: also append the experiment to the history STORE; bestreport: report the history, its change points (STORE: a .db/.sqlite file or postgresql:// URL; default $BESTGUESS_HISTORY, else .bestguess/history.db)",
            move |a, v| a.history = Some(at(a, v)),
        )
        .hint(Hint::File),
        Flag::optional(
            "history-import",
            "[STORE]",
            Both,
            "bestreport: load the raw CSV or Hyperfine JSON files given into the history STORE, each as one experiment of --commit",
            move |a, v| a.history_import = Some(at(a, v)),
        )
        .hint(Hint::File),
        Flag::value(
            "commit",
            "REV",
            Both,
            "With --history or --history-import: record the experiment as of this commit (default: git's HEAD)",
            |a, v| a.commit = Some(v),
        ),
        Flag::value(
            "branch",
            "NAME",
            Both,
            "With --history: record this branch (default: git's); with bestreport --history: only experiments of this branch",
            |a, v| a.branch = Some(v),
        ),
        Flag::value(
            "command",
            "NAME",
            Both,
            "With bestreport --history: only the benchmarks of this command (its name, else its text)",
            |a, v| a.command = Some(v),
        ),
        Flag::value(
            "machine",
            "ID",
            Both,
            "With bestreport --history: only the benchmarks of the machine whose fingerprint starts with ID",
            |a, v| a.machine = Some(v),
        ),
        Flag::value(
            "since",
            "DATE",
            Both,
            "With bestreport --history: only experiments made on or after DATE (YYYY-MM-DD[ HH:MM[:SS]], UTC)",
            |a, v| a.since = Some(v),
        ),
    ]
}

/// One option per export format, and the export options.
fn export_flags() -> Vec<Flag> {
    let mut flags = Vec::new();
    for &format in Format::ALL {
        flags.push(
            Flag::value(format.option(), "FILE", Both, format.help(), move |a, v| {
                a.exports.push((format, v))
            })
            .hint(Hint::File),
        );
        if format == Format::Json {
            flags.push(
                Flag::value(
                    "json-runs",
                    "LIST",
                    Both,
                    "Runs in --export-json: all (default), none, or some of hyperfine2, hyperfine1, bestguess",
                    |a, v| a.json_runs = Some(v),
                )
                .hint(Hint::Choices(JsonRuns::WORDS)),
            );
        }
    }
    flags.push(
        Flag::value(
            "export-svg",
            "DIR",
            Both,
            "Write each figure of the HTML page as an SVG file in DIR (created if needed)",
            |a, v| a.svg_dir = Some(v),
        )
        .hint(Hint::File),
    );
    flags
}

/// What the program does: its action, generated texts, version and help.
fn program_flags() -> Vec<Flag> {
    vec![
        Flag::value(
            "action",
            "ACTION",
            Both,
            "run (default for bestguess) or report (default for bestreport)",
            |a, v| a.action = Some(v),
        )
        .short('A')
        .hint(Hint::Choices(&["run", "report"])),
        Flag::value(
            "generate",
            "KIND",
            Both,
            "Print the man page (man) or completions (complete-bash, complete-zsh, complete-fish) and exit",
            |a, v| a.generate = Some(v),
        )
        .hint(Hint::Choices(Generate::WORDS)),
        Flag::switch("version", Both, "Print the version", |a| a.version = true)
            .short('v')
            .alias('V'),
        Flag::switch("help", Both, "Print this help", |a| a.help = true).short('h'),
    ]
}

/// The metric names `--metric` accepts in any data: the short ones and
/// the catalogue's (a counter or a command's own metric exists only in
/// the data that hold it).
fn metric_names() -> Vec<String> {
    crate::analysis::known_names(&crate::data::Catalogue::new())
}

/// Find a flag by one of its short letters.
pub fn by_short(c: char) -> Option<&'static Flag> {
    all().iter().find(|f| f.shorts().any(|s| s == c))
}

/// Find a flag by one of its long names (exact match; no abbreviations).
pub fn by_long(name: &str) -> Option<&'static Flag> {
    all().iter().find(|f| f.longs().any(|l| l == name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique() {
        let mut shorts = HashSet::new();
        let mut longs = HashSet::new();
        for f in all() {
            for c in f.shorts() {
                assert!(shorts.insert(c), "-{c} is used twice");
            }
            for l in f.longs() {
                assert!(longs.insert(l), "--{l} is used twice");
                assert!(
                    l.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                    "--{l}"
                );
            }
        }
    }

    #[test]
    fn every_format_and_hook_kind_is_an_option() {
        for f in Format::ALL {
            assert!(by_long(f.option()).is_some(), "{f:?}");
        }
        for k in HookKind::ALL {
            assert!(by_long(k.long()).is_some(), "{k:?}");
        }
    }

    #[test]
    fn aliases_find_their_flag() {
        assert_eq!(by_short('x').unwrap().long, "set");
        assert_eq!(by_short('V').unwrap().long, "version");
        assert_eq!(by_long("command-name").unwrap().long, "name");
        assert!(by_short('z').is_none());
        assert!(by_long("run").is_none(), "no prefix matching");
    }
}

//! Validating [`Args`] into a [`Config`]: every range and combination is
//! checked here, before anything runs, with a message that says what to do.

use std::time::Duration;

use super::lowargs::{Args, CommandArg, Generate, ParamArg, ReportSwitch};
use super::settings::Settings;
use super::{cmdfile, habits, UsageError};
use crate::analysis::{resolve_metric, RankingSettings};
use crate::data::Catalogue;
use crate::experiment::params::{self, mentions, Parameter};
use crate::experiment::{CommandPlan, Hook, HookKind, Hooks, Order, Plan};
use crate::export::{self, Format, JsonRuns};
use crate::gate::GateOptions;
use crate::history::HistoryOptions;
use crate::measure::extras::{self, MeasureOptions};
use crate::measure::split::split;
use crate::measure::{counters, custom};

pub use crate::report::Selection;

impl Selection {
    /// Apply switches in the order given (BestGuess 0.7.5 semantics: `-Q`
    /// turns off summary, mini, ranking, explain, dist and tail; a later
    /// switch turns its report back on; `-E` implies `-R`).
    pub fn from_switches(switches: &[ReportSwitch]) -> Selection {
        let mut s = Selection::default();
        for sw in switches {
            match sw {
                ReportSwitch::Quiet => {
                    s.quiet = true;
                    s.summary = false;
                    s.mini = false;
                    s.ranking = false;
                    s.explain = false;
                    s.dist = false;
                    s.tail = false;
                }
                ReportSwitch::Summary => {
                    s.summary = true;
                    s.mini = false;
                }
                ReportSwitch::Mini => {
                    s.mini = true;
                    s.summary = false;
                }
                ReportSwitch::NoStats => {
                    s.summary = false;
                    s.mini = false;
                }
                ReportSwitch::Ranking => s.ranking = true,
                ReportSwitch::Explain => {
                    s.explain = true;
                    s.ranking = true;
                }
                ReportSwitch::Dist => s.dist = true,
                ReportSwitch::Tail => s.tail = true,
                ReportSwitch::Graph => s.graph = true,
                ReportSwitch::Boxplot => s.boxplot = true,
            }
        }
        s
    }
}

/// Export files requested (`-` = standard output), one per format: a
/// format given twice keeps its last path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exports(pub Vec<(Format, String)>);

impl Exports {
    /// Every export asked for, each format as often as it is given to
    /// different paths (`--export-json a.json --export-json b.json` writes
    /// both: the last had won, silently); the same one twice is one.
    fn from_args(given: &[(Format, String)]) -> Exports {
        let mut out: Vec<(Format, String)> = Vec::new();
        for (format, path) in given {
            if !out.iter().any(|(f, p)| f == format && p == path) {
                out.push((*format, path.clone()));
            }
        }
        Exports(out)
    }

    /// All requested exports as (option, path) pairs.
    pub fn all(&self) -> Vec<(String, &str)> {
        self.0
            .iter()
            .map(|(f, p)| (format!("--{}", f.option()), p.as_str()))
            .collect()
    }
}

/// What to report and export, common to both executables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// The reports, and `-c width=`.
    pub selection: Selection,
    /// No `-c width=`: the reports take the terminal's width when they are
    /// printed (`selection.width` is then the default, 80).
    pub width_auto: bool,
    /// The ranking's settings (`-c` and the ranking's options).
    pub ranking: RankingSettings,
    pub exports: Exports,
    /// How the exports are written (`--json-runs`).
    pub export: export::Options,
    /// `--export-svg`: the directory to write every figure into.
    pub svg_dir: Option<String>,
    /// `--baseline` and `--fail-if-slower`.
    pub gate: Option<GateOptions>,
    /// `--metric NAME` as given: resolved against the catalogue of the
    /// data (`analysis::resolve_metric`) once they exist, into
    /// `ranking.metric`.
    pub metric: Option<String>,
    /// How `bestreport` analyses the runs' count (`--runs`).
    pub runs: super::stopping::RunsAnalysis,
    /// `-c alpha=` was given.
    pub alpha_given: bool,
}

/// A validated command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Config {
    /// Help for running (`bestguess`) or for reporting (`bestreport`).
    Help {
        running: bool,
    },
    Version,
    /// `--generate`: the man page or a completion script for this program.
    Generate(Generate),
    ShowConfig(Settings),
    ShowLimits,
    Run(Box<RunConfig>),
    Report(ReportConfig),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub plan: Plan,
    /// `-o`: raw CSV path (`-` = standard output).
    pub raw_output: Option<String>,
    /// `--seed` was given (otherwise the seed is chosen and printed).
    pub seed_given: bool,
    /// `--live`: the progress display shows the results so far.
    pub live: bool,
    /// The `-f` command files read (no output may overwrite them).
    pub command_files: Vec<String>,
    /// Counters, custom metrics, pinning, environment padding.
    pub measure: MeasureOptions,
    pub output: Output,
    /// One-line warnings for standard error (habits that may not do what
    /// the user meant); the experiment runs as given.
    pub warnings: Vec<String>,
    /// `--history`: append the experiment to a store (and gate on it).
    pub history: Option<HistoryOptions>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReportConfig {
    pub files: Vec<String>,
    pub output: Output,
    /// `--history` (report the store) or `--history-import` (load the
    /// files into it) instead of reporting the files.
    pub history: Option<Box<HistoryOptions>>,
    /// `--precision` was given: it takes files of one command only
    /// ([`ReportConfig::check_commands`]).
    pub precision_given: bool,
}

impl ReportConfig {
    /// What the command line asks of the data, checked once the files are
    /// read and their `commands` counted.
    pub fn check_commands(&self, commands: usize) -> Result<(), UsageError> {
        if self.precision_given {
            super::stopping::precision_for(commands)?;
        }
        Ok(())
    }
}

/// Either kind of problem a command line can have.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error("cannot read command file {path}: {source}")]
    CommandFile {
        path: String,
        source: std::io::Error,
    },
}

/// Validate. `running` is true for `bestguess` unless `-A report` says
/// otherwise.
pub fn build(mut args: Args, default_running: bool) -> Result<Config, ConfigError> {
    let action = running(args.action.as_deref(), default_running);
    if args.help {
        // Help wins even over a bad -A; it then describes this program.
        return Ok(Config::Help {
            running: action.clone().unwrap_or(default_running),
        });
    }
    if args.version {
        return Ok(Config::Version);
    }
    if let Some(word) = &args.generate {
        return Ok(Config::Generate(Generate::parse(word)?));
    }
    let mut settings = Settings::default();
    for s in &args.settings {
        settings.apply(s)?;
    }
    if let Some(r) = &args.reference {
        settings.set_reference(r)?;
    }
    if let Some(name) = &args.metric {
        if name.trim().is_empty() {
            return Err(UsageError(
                "--metric is empty: give a metric's name, such as cpu or wall".into(),
            )
            .into());
        }
        // A fixed metric is known now (and --config shows it); any other
        // is looked up in the data's catalogue once it exists.
        if let Ok(m) = resolve_metric(name, &Catalogue::new()) {
            settings.ranking.metric = m;
        }
    } else {
        // Chosen from what the commands spend, once there are runs.
        settings.ranking.metric_from = crate::analysis::MetricFrom::Auto;
    }
    if args.show_config {
        return Ok(Config::ShowConfig(settings));
    }
    if args.show_limits {
        return Ok(Config::ShowLimits);
    }
    let running = action?;
    if let (false, Some(option)) = (running, args.run_only.first()) {
        return Err(UsageError(format!(
            "{option} only applies when running commands, and -A report reads saved data: leave it out, or run with -A run"
        ))
        .into());
    }
    settings.ranking.adaptive = super::stopping::rule(&args, running)?;
    let output = Output {
        selection: Selection {
            width: settings.width.unwrap_or(Selection::default().width),
            graph_scale: settings.graph_scale,
            ..Selection::from_switches(&args.switches)
        },
        width_auto: settings.width.is_none(),
        ranking: settings.ranking,
        exports: Exports::from_args(&args.exports),
        export: export_options(&args)?,
        svg_dir: args.svg_dir.clone(),
        gate: gate_options(&args)?,
        metric: args.metric.clone(),
        runs: super::stopping::analysis(&args, running),
        alpha_given: settings.alpha_given,
    };
    if output.svg_dir.as_deref() == Some("-") {
        return Err(UsageError(
            "--export-svg needs a directory (it writes one file per figure), not -".into(),
        )
        .into());
    }
    check_stdout_once(&args, &output.exports)?;
    check_no_empty_path(&args, &output.exports, running)?;
    let margin = output
        .gate
        .as_ref()
        .and_then(|g| g.fail_if_slower)
        .or(margin(&args)?);
    let history = super::history::options(&mut args, running, margin)?;
    if !running {
        if history.is_some() {
            return Ok(Config::Report(ReportConfig {
                precision_given: args.precision.is_some(),
                files: args.positional.into_iter().map(|c| c.text).collect(),
                output,
                history: history.map(Box::new),
            }));
        }
        if args.positional.is_empty() {
            return Err(UsageError(
                "no data files to read: give one or more raw CSV files (- for standard input)"
                    .into(),
            )
            .into());
        }
        if args.positional.iter().filter(|c| c.text == "-").count() > 1 {
            return Err(UsageError(
                "standard input can be read only once: give - at most once".into(),
            )
            .into());
        }
        return Ok(Config::Report(ReportConfig {
            precision_given: args.precision.is_some(),
            files: args.positional.into_iter().map(|c| c.text).collect(),
            output,
            history: None,
        }));
    }
    run_config(args, output).map(|c| Config::Run(Box::new(RunConfig { history, ..c })))
}

/// `--fail-if-slower PCT`, if given.
fn margin(args: &Args) -> Result<Option<f64>, UsageError> {
    Ok(match args.fail_if_slower.as_deref() {
        None => None,
        Some(v) => Some(
            v.trim()
                .trim_end_matches('%')
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| {
                    UsageError(format!(
                        "--fail-if-slower expects a percentage of 0 or more, such as 5, got '{v}'"
                    ))
                })?,
        ),
    })
}

/// `--baseline FILE` and `--fail-if-slower PCT` (only with a baseline, or
/// with `--history`, whose gate takes it).
fn gate_options(args: &Args) -> Result<Option<GateOptions>, UsageError> {
    let margin = margin(args)?;
    match &args.baseline {
        None if margin.is_some() && args.history.is_some() => Ok(None),
        None if margin.is_some() => Err(UsageError(
            "--fail-if-slower needs --baseline FILE or --history: the raw data or the history to compare with".into(),
        )),
        None => Ok(None),
        Some(path) if path.is_empty() => Err(UsageError(
            "--baseline is empty: give the raw data file of the baseline".into(),
        )),
        Some(path) => {
            if path == "-" && args.positional.iter().any(|p| p.text == "-") {
                return Err(UsageError(
                    "--baseline - and a data file - both read standard input; give the baseline a file name".into(),
                ));
            }
            Ok(Some(GateOptions {
                baseline: path.clone(),
                fail_if_slower: margin,
            }))
        }
    }
}

/// `--json-runs LIST`, which only says what `--export-json` writes: without
/// that export it would do nothing, so it is refused rather than ignored.
fn export_options(args: &Args) -> Result<export::Options, UsageError> {
    let Some(list) = args.json_runs.as_deref() else {
        return Ok(export::Options::default());
    };
    let json_runs = JsonRuns::parse(list).map_err(UsageError)?;
    if !args.exports.iter().any(|(f, _)| *f == Format::Json) {
        return Err(UsageError(
            "--json-runs says which per-run data --export-json writes; give --export-json FILE too, or leave --json-runs out".into(),
        ));
    }
    Ok(export::Options { json_runs })
}

/// Whether `-A` (or, without it, the program's name) asks to run commands.
fn running(action: Option<&str>, default_running: bool) -> Result<bool, UsageError> {
    match action {
        None => Ok(default_running),
        Some("run") => Ok(true),
        Some("report") => Ok(false),
        Some(other) => Err(UsageError(format!(
            "unknown action '{other}': use -A run (run an experiment) or -A report (read raw data)"
        ))),
    }
}

/// `--custom-metrics`: the names, each also free of every name the tool
/// gives a metric of its own — built-in ones, `--metric`'s short names
/// (`rss` would otherwise rank by Max RSS, not the command's `rss`) and
/// counters — a usage error before anything runs.
fn custom_metric_names(list: &str) -> Result<Vec<String>, UsageError> {
    let names = custom::parse_names(list).map_err(UsageError)?;
    let builtin = Catalogue::new();
    for name in &names {
        let taken = resolve_metric(name, &builtin).is_ok()
            || counters::by_name(&name.to_ascii_lowercase()).is_some();
        if taken {
            return Err(UsageError(format!(
                "--custom-metrics: '{name}' is already the name of a metric bestguess measures \
                 (see --metric and --counters); choose another name"
            )));
        }
    }
    Ok(names)
}

/// At most one thing may write to standard output as a file.
fn check_stdout_once(args: &Args, exports: &Exports) -> Result<(), UsageError> {
    let mut users: Vec<String> = exports
        .all()
        .into_iter()
        .filter(|(_, p)| *p == "-")
        .map(|(o, _)| o)
        .collect();
    if args.output.as_deref() == Some("-") {
        users.push("-o".into());
        if args.show_output {
            return Err(UsageError(
                "--show-output and -o - would mix the commands' output into the raw data; write the raw data to a file".into(),
            ));
        }
    }
    if users.len() > 1 {
        let (all, but_one) = if users.len() == 2 {
            ("both", "one of them")
        } else {
            ("all", "all but one of them")
        };
        return Err(UsageError(format!(
            "{} {all} write to standard output (-); give {but_one} a file name",
            users.join(" and ")
        )));
    }
    if let (Some(export), true) = (users.first(), args.show_output) {
        return Err(UsageError(format!(
            "--show-output and {export} - would mix the commands' output into the export; write the export to a file"
        )));
    }
    Ok(())
}

/// Every path given is a path: an empty one is a usage error naming its
/// option (`--export-svg ''` had written its figures into the current
/// directory, `-o ''` and `-f ''` failed as files not found).
fn check_no_empty_path(args: &Args, exports: &Exports, running: bool) -> Result<(), UsageError> {
    let mut given: Vec<(String, &str)> = exports.all();
    given.extend(args.output.as_deref().map(|p| ("-o".to_owned(), p)));
    given.extend(
        args.svg_dir
            .as_deref()
            .map(|p| ("--export-svg".to_owned(), p)),
    );
    given.extend(args.files.iter().map(|p| ("-f".to_owned(), p.as_str())));
    if let Some((option, _)) = given.iter().find(|(_, p)| p.is_empty()) {
        let what = match option.as_str() {
            "--export-svg" => "a directory for the figures (. for the current one)",
            "-f" => "a file of commands, one per line",
            _ => "a file name (or - for standard output)",
        };
        return Err(UsageError(format!("{option} is empty: give {what}")));
    }
    if !running && args.positional.iter().any(|p| p.text.is_empty()) {
        return Err(UsageError(
            "a data file's name is empty: give raw data files (- for standard input)".into(),
        ));
    }
    Ok(())
}

/// The largest `-r` and `-w`: a billion runs of the fastest command take
/// weeks; a larger number is a typo, not an experiment.
pub const MAX_RUNS: u64 = 1_000_000_000;

/// The largest `--timeout`, in seconds (about 31 years).
pub const MAX_TIMEOUT: f64 = 1e9;

/// Untimed runs of each command before its timed ones when `-w` is not
/// given: one, because a command's first run is a cold start (on average
/// 10 % slower in `bench/aa.sh`, and the slowest of 30 runs in one
/// command out of seven); `docs/DESIGN.md`, "Warm-up".
pub const DEFAULT_WARMUP: u64 = 1;

fn run_config(args: Args, output: Output) -> Result<RunConfig, ConfigError> {
    // `--runs auto` (`output.ranking.adaptive`): at most its rounds, each
    // round asking whether to go on.
    let adaptive = output.ranking.adaptive;
    let runs = match adaptive {
        Some(rule) => rule.max_rounds,
        None => count(args.runs.as_deref(), "-r/--runs", 1, MAX_RUNS)?.unwrap_or(1),
    };
    let warmup =
        count(args.warmup.as_deref(), "-w/--warmup", 0, MAX_RUNS)?.unwrap_or(DEFAULT_WARMUP);
    let order = match args.order.as_deref() {
        None => Order::Random,
        Some(o) => o.parse().map_err(UsageError)?,
    };
    if adaptive.is_some() && order == Order::Sequential {
        return Err(UsageError(
            "--order sequential runs each command's runs in fixed blocks, and --runs auto decides between complete rounds: give -r N, or leave --order out".into(),
        )
        .into());
    }
    let seed = seed(&args)?;
    let timeout = timeout(&args)?;
    let measure = measure_options(&args)?;
    if let Some(problem) = args.output.as_deref().and_then(habits::output_word) {
        return Err(UsageError(problem).into());
    }
    let mut warnings = args.notes.clone();
    let (shell, shell_words) = shell(&args, &mut warnings)?;
    let mut commands: Vec<CommandArg> = args.positional.clone();
    for path in &args.files {
        commands.extend(read_command_file(path)?);
    }
    if commands.is_empty() {
        return Err(UsageError(
            "no commands to run: give at least one, e.g. bestguess -r 20 \"ls -l\"; see --help"
                .into(),
        )
        .into());
    }
    if shell_words.is_none() {
        warnings.extend(shell_syntax(&commands, &args));
    }
    let to_hook = |text: &str, what: &str| to_hook(shell_words.as_deref(), text, what);
    let parameters = parameters(&args)?;
    check_used(&parameters, &commands, &args)?;
    let combos = params::combinations(&parameters);
    let n = commands.len();
    let total = n * combos.len();
    if args.precision.is_some() {
        super::stopping::precision_for(total)?;
    }
    let hooks: Vec<Vec<Option<&str>>> = HookKind::ALL
        .iter()
        .map(|&kind| hook_texts(&args, kind, n, &combos))
        .collect::<Result<_, _>>()?;
    let mut plans = Vec::with_capacity(total);
    for (j, (i, binding)) in params::expansion(n, &combos).enumerate() {
        let c = &commands[i];
        let text = params::substitute(&c.text, binding);
        let hook = |k: usize| -> Result<Option<Hook>, UsageError> {
            hooks[k][j]
                .map(|h| to_hook(&params::substitute(h, binding), HookKind::ALL[k].option()))
                .transpose()
        };
        plans.push(CommandPlan {
            command: to_hook(&text, &format!("command {} ({})", j + 1, quoted(&text)))?,
            name: c.name.as_ref().map(|n| params::substitute(n, binding)),
            hooks: Hooks {
                prepare: hook(0)?,
                setup: hook(1)?,
                conclude: hook(2)?,
                cleanup: hook(3)?,
            },
            parameters: binding.clone(),
        });
    }
    Ok(RunConfig {
        plan: Plan {
            commands: plans,
            shell,
            warmup,
            runs,
            adaptive: adaptive.is_some(),
            order,
            seed: seed.unwrap_or(0),
            timeout,
            ignore_failure: args.ignore_failure,
            show_output: args.show_output,
        },
        raw_output: args.output,
        seed_given: seed.is_some(),
        live: args.live,
        command_files: args.files.clone(),
        measure,
        output,
        warnings,
        history: None,
    })
}

/// `-s`/`--shell`: the shell as recorded and its words (`None`: no
/// shell). Hyperfine 2.0's two shell words: "none" (its default, and ours)
/// and "default" (the platform shell); a shell without `-c` gets it, as
/// Hyperfine runs `--shell bash`.
fn shell(
    args: &Args,
    warnings: &mut Vec<String>,
) -> Result<(String, Option<Vec<String>>), UsageError> {
    let mut shell = match args.shell.as_deref() {
        None | Some("none") => String::new(),
        Some("default") => "/bin/sh -c".to_string(),
        Some(s) => s.to_string(),
    };
    check_text(&shell, "-s/--shell")?;
    if shell.is_empty() {
        return Ok((shell, None));
    }
    let mut words = split(&shell).map_err(|e| UsageError(format!("-s/--shell: {e}")))?;
    if words.is_empty() {
        return Err(UsageError(
            "-s/--shell is blank: give a shell such as \"/bin/sh -c\"".into(),
        ));
    }
    // The shell recorded is the one that runs.
    if let Some((with_c, note)) = habits::add_c(&shell, &words) {
        warnings.push(note);
        shell.push_str(" -c");
        words = with_c;
    }
    warnings.extend(habits::shell_hint(&shell, &words));
    Ok((shell, Some(words)))
}

/// The extras to measure: counters, custom metrics, pinning, padding.
fn measure_options(args: &Args) -> Result<MeasureOptions, ConfigError> {
    Ok(MeasureOptions {
        counters: match args.counters.as_deref() {
            Some(list) => counters::parse_list(list).map_err(UsageError)?,
            None => Vec::new(),
        },
        custom_metrics: match args.custom_metrics.as_deref() {
            Some(names) => custom_metric_names(names)?,
            None => Vec::new(),
        },
        cpus: match args.cpus.as_deref() {
            Some(list) => extras::parse_cpus(list).map_err(UsageError)?,
            None => Vec::new(),
        },
        randomize_env: args.randomize_env,
    })
}

/// Without a shell: one warning for the commands and hooks that look
/// like shell syntax (the first named, the others counted).
fn shell_syntax(commands: &[CommandArg], args: &Args) -> Option<String> {
    let texts = commands
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("command {} ({})", i + 1, quoted(&c.text)), &c.text))
        .chain(
            args.hooks
                .iter()
                .map(|(kind, text)| (format!("{} {}", kind.option(), quoted(text)), text)),
        );
    let mut found = texts.filter_map(|(what, text)| habits::shell_syntax_warning(&what, text));
    let first = found.next()?;
    Some(match found.count() {
        0 => first,
        n => format!("{first} (as do {n} more commands or hooks)"),
    })
}

/// A command or hook as its text and the words it runs: the shell's words
/// and the text, or the text split with POSIX quoting.
fn to_hook(shell_words: Option<&[String]>, text: &str, what: &str) -> Result<Hook, UsageError> {
    check_text(text, what)?;
    let argv = match shell_words {
        Some(words) => {
            let mut argv = words.to_vec();
            argv.push(text.to_string());
            argv
        }
        None => {
            let argv = split(text).map_err(|e| UsageError(format!("{what}: {e}")))?;
            if argv.is_empty() {
                // Hooks are not measured: shell start-up is no reason
                // to give one.
                let advice = if what.starts_with("--") {
                    "give it a command to run, or leave the option out"
                } else {
                    "use -s \"/bin/sh -c\" to measure shell start-up"
                };
                return Err(UsageError(format!(
                    "{what} is empty: without a shell there is nothing to run; {advice}"
                )));
            }
            // `''`: a program named by nothing (it had failed later, as
            // a command that cannot be started, status 2).
            if argv[0].is_empty() {
                return Err(UsageError(format!(
                    "{what} names its program by an empty word: give the program to run first"
                )));
            }
            argv
        }
    };
    Ok(Hook {
        text: text.to_string(),
        argv,
    })
}

/// `--seed`, if given.
fn seed(args: &Args) -> Result<Option<u64>, UsageError> {
    Ok(match args.seed.as_deref() {
        None => None,
        Some(s) => Some(s.trim().parse::<u64>().map_err(|_| {
            UsageError(format!(
                "--seed expects a whole number from 0 to {}, got '{s}'",
                u64::MAX
            ))
        })?),
    })
}

/// `--timeout`, if given.
fn timeout(args: &Args) -> Result<Option<Duration>, UsageError> {
    Ok(match args.timeout.as_deref() {
        None => None,
        Some(t) => Some(
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| (1e-6..=MAX_TIMEOUT).contains(s))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    UsageError(format!(
                        "--timeout expects a number of seconds from 0.000001 to {MAX_TIMEOUT:.0}, got '{t}'"
                    ))
                })?,
        ),
    })
}

/// Every parameter must be used by a command, a name or a hook.
fn check_used(
    parameters: &[Parameter],
    commands: &[CommandArg],
    args: &Args,
) -> Result<(), UsageError> {
    for p in parameters {
        let used = commands.iter().any(|c| {
            mentions(&c.text, &p.name) || c.name.as_ref().is_some_and(|n| mentions(n, &p.name))
        }) || args.hooks.iter().any(|(_, h)| mentions(h, &p.name));
        if !used {
            return Err(UsageError(format!(
                "parameter '{0}' is not used: no command, name or hook contains {{{0}}}",
                p.name
            )));
        }
    }
    Ok(())
}

/// The texts of hook `kind` per command and combination: a hook given
/// once is every command's; given once per command, each command's (for
/// all its parameter values); or once per command and combination, in
/// the experiment's order.
fn hook_texts<'a>(
    args: &'a Args,
    kind: HookKind,
    n: usize,
    combos: &[Vec<(String, String)>],
) -> Result<Vec<Option<&'a str>>, UsageError> {
    let total = n * combos.len();
    let given: Vec<&str> = args
        .hooks
        .iter()
        .filter(|(k, _)| *k == kind)
        .map(|(_, text)| text.as_str())
        .collect();
    let k = given.len();
    params::expansion(n, combos)
        .enumerate()
        .map(|(j, (i, _))| match k {
            0 => Ok(None),
            1 => Ok(Some(given[0])),
            _ if k == n => Ok(Some(given[i])),
            _ if k == total => Ok(Some(given[j])),
            _ => Err(UsageError(if total == n {
                format!(
                    "{} given {k} times for {n} commands: give it once (for every command) or once per command",
                    kind.option()
                )
            } else {
                format!(
                    "{} given {k} times for {n} commands and {} parameter combinations: give it once (for every command), once per command ({n}) or once per command and combination ({total})",
                    kind.option(),
                    combos.len()
                )
            })),
        })
        .collect()
}

/// The parameters of `-P` and `-L`, in the order given, checked.
fn parameters(args: &Args) -> Result<Vec<Parameter>, UsageError> {
    let scans = args
        .parameters
        .iter()
        .filter(|p| matches!(p, ParamArg::Scan { .. }))
        .count();
    if args.step_size.is_some() && scans == 0 {
        return Err(UsageError(
            "--parameter-step-size needs a scan: give -P/--parameter-scan NAME MIN MAX".into(),
        ));
    }
    let mut out: Vec<Parameter> = Vec::new();
    for p in &args.parameters {
        let (option, name) = match p {
            ParamArg::Scan { name, .. } => ("-P/--parameter-scan", name),
            ParamArg::List { name, .. } => ("-L/--parameter-list", name),
        };
        if name.is_empty() || name.contains(['{', '}']) || name.contains(char::is_whitespace) {
            return Err(UsageError(format!(
                "{option}: parameter name '{name}' must be a word without braces or blanks (it is written {{NAME}} in commands)"
            )));
        }
        if out.iter().any(|q| q.name == *name) {
            return Err(UsageError(format!(
                "parameter '{name}' is given twice: give each parameter once"
            )));
        }
        out.push(match p {
            ParamArg::Scan { name, min, max } => {
                Parameter::scan(name, min, max, args.step_size.as_deref()).map_err(|e| {
                    let step = match &args.step_size {
                        Some(s) => format!(" --parameter-step-size {s}"),
                        None => String::new(),
                    };
                    UsageError(format!("-P {name} {min} {max}{step}: {e}"))
                })?
            }
            ParamArg::List { name, values } => {
                let list = Parameter::list(name, values);
                // As an unused parameter is refused: one command measured
                // twice under two labels is a typo, not an experiment.
                let mut seen = std::collections::HashSet::new();
                let twice = list.values.iter().position(|v| !seen.insert(v));
                if let Some(i) = twice {
                    return Err(UsageError(format!(
                        "-L {name}: the value {} is given twice, which would measure the same commands twice; give each value once",
                        quoted(&list.values[i])
                    )));
                }
                list
            }
        });
    }
    match params::count(&out) {
        Some(c) if c <= params::MAX_VALUES => Ok(out),
        _ => Err(UsageError(format!(
            "the parameters give more than {} combinations: use fewer values",
            params::MAX_VALUES
        ))),
    }
}

/// A command's text in a message: quoted, control characters escaped so
/// the message stays one line.
fn quoted(text: &str) -> String {
    let mut s = String::from("'");
    for c in text.chars() {
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s.push('\'');
    s
}

/// A command, hook or shell may hold tabs and line breaks (a multi-line
/// script under -s), but no other control character: a NUL cannot be
/// passed to a program at all, and an escape or a carriage return is a
/// paste accident that would make every report lie about the command.
fn check_text(text: &str, what: &str) -> Result<(), UsageError> {
    match cmdfile::control_char(text, &['\t', '\n']) {
        None => Ok(()),
        Some((column, c)) => Err(UsageError(format!(
            "{what} contains the control character {} at column {column}; remove it",
            cmdfile::describe_control(c)
        ))),
    }
}

/// A whole number from `min` to `max`.
fn count(value: Option<&str>, option: &str, min: u64, max: u64) -> Result<Option<u64>, UsageError> {
    let Some(v) = value else { return Ok(None) };
    match v.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        Ok(0) => Err(UsageError(format!(
            "{option} is 0, nothing to do: it must be a whole number from {min} to {max}"
        ))),
        _ => Err(UsageError(format!(
            "{option} expects a whole number from {min} to {max}, got '{v}'"
        ))),
    }
}

/// The largest command file read: ten thousand commands take well under
/// 1 MiB, and without a bound `-f /dev/zero` would be read forever.
const COMMAND_FILE_LIMIT: usize = 16 << 20;

/// The commands of command file `path`, read up to [`COMMAND_FILE_LIMIT`].
fn read_command_file(path: &str) -> Result<Vec<CommandArg>, ConfigError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    // `-` is standard input, as for every other file the tools read.
    let open = || -> std::io::Result<Box<dyn Read>> {
        Ok(if path == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path)?)
        })
    };
    open()
        .and_then(|f| {
            f.take(COMMAND_FILE_LIMIT as u64 + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(|source| ConfigError::CommandFile {
            path: path.to_owned(),
            source,
        })?;
    if bytes.len() <= COMMAND_FILE_LIMIT {
        return Ok(cmdfile::parse_bytes(path, &bytes)?);
    }
    // Too long; but a fault in what was read (a NUL, say) says more. Its
    // whole lines, or, with none, as many whole characters as were read.
    let read = &bytes[..COMMAND_FILE_LIMIT];
    let end = match read.iter().rposition(|&b| b == b'\n') {
        Some(end) => end + 1,
        None => match std::str::from_utf8(read) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => read.len(),
        },
    };
    cmdfile::parse_bytes(path, &read[..end])?;
    Err(UsageError(format!(
        "{path}: the command file runs past {} MiB; a command file holds one command per \
         line (is it the file you meant?)",
        COMMAND_FILE_LIMIT >> 20
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn config(args: &[&str]) -> Result<Config, ConfigError> {
        let a = super::super::args::parse(args.iter().map(OsString::from), true).unwrap();
        build(a, true)
    }

    fn run(args: &[&str]) -> RunConfig {
        match config(args).unwrap() {
            Config::Run(r) => *r,
            other => panic!("expected a run config, got {other:?}"),
        }
    }

    fn usage(args: &[&str]) -> String {
        match config(args) {
            Err(ConfigError::Usage(e)) => e.0,
            other => panic!("expected a usage error for {args:?}, got {other:?}"),
        }
    }

    #[test]
    fn commands_are_split_or_given_to_the_shell_whole() {
        let r = run(&["-r", "3", "echo 'a b'", "-s", "/bin/sh -c", "x"]);
        assert_eq!(r.plan.runs, 3);
        assert_eq!(
            r.plan.commands[0].command.argv,
            ["/bin/sh", "-c", "echo 'a b'"]
        );
        let r = run(&["echo 'a b'"]);
        assert_eq!(r.plan.commands[0].command.argv, ["echo", "a b"]);
    }

    fn texts(r: &RunConfig) -> Vec<(&str, Option<&str>)> {
        r.plan
            .commands
            .iter()
            .map(|c| (c.command.text.as_str(), c.name.as_deref()))
            .collect()
    }

    #[test]
    fn the_history_store_and_names_around_it() {
        let store = |r: &RunConfig| r.history.as_ref().and_then(|h| h.store.clone());
        // The store right after --history, then a name before its command
        // (Hyperfine's order) or after it (BestGuess's).
        for args in [
            &["--history", "h.db", "-n", "N", "true"][..],
            &["--history", "h.db", "true", "-n", "N"],
            &["--history=h.db", "-n", "N", "true"],
            &["-n", "N", "--history", "h.db", "true"],
        ] {
            let r = run(args);
            assert_eq!(store(&r).as_deref(), Some("h.db"), "{args:?}");
            assert_eq!(texts(&r), [("true", Some("N"))], "{args:?}");
        }
        // The default store: the word after --history is a command.
        let r = run(&["--history", "-n", "N", "true", "false", "-n", "M"]);
        assert_eq!(store(&r), None);
        assert_eq!(texts(&r), [("true", Some("N")), ("false", Some("M"))]);
        let r = run(&["--history", "ls", "-n", "N"]);
        assert_eq!(store(&r), None);
        assert_eq!(texts(&r), [("ls", Some("N"))]);
        // A store-like word elsewhere is a command.
        let r = run(&["--history", "true", "x.db"]);
        assert_eq!(store(&r), None);
        assert_eq!(texts(&r), [("true", None), ("x.db", None)]);
        let named_alone = ["--history", "h.db", "-n", "N"].map(OsString::from);
        let e = super::super::args::parse(named_alone, true).unwrap_err();
        assert!(e.0.contains("names no command"), "{e:?}");
    }

    #[test]
    fn a_scan_expands_commands_names_and_hooks_in_hyperfines_order() {
        let r = run(&[
            "-P",
            "t",
            "1",
            "3",
            "make -j {t}",
            "-n",
            "make {t}",
            "true {t}",
            "--prepare",
            "echo prep {t}",
        ]);
        assert_eq!(
            texts(&r),
            [
                ("make -j 1", Some("make 1")),
                ("true 1", None),
                ("make -j 2", Some("make 2")),
                ("true 2", None),
                ("make -j 3", Some("make 3")),
                ("true 3", None),
            ]
        );
        let prep: Vec<&str> = r
            .plan
            .commands
            .iter()
            .map(|c| c.hooks.prepare.as_ref().unwrap().text.as_str())
            .collect();
        assert_eq!(prep[..3], ["echo prep 1", "echo prep 1", "echo prep 2"]);
        assert_eq!(
            r.plan.commands[2].hooks.prepare.as_ref().unwrap().argv,
            ["echo", "prep", "2"]
        );
        assert_eq!(r.plan.commands[5].parameters, [("t".into(), "3".into())]);
    }

    #[test]
    fn steps_lists_and_the_cross_product() {
        let r = run(&[
            "-P",
            "d",
            "0.3",
            "0.7",
            "--parameter-step-size",
            "0.2",
            "sleep {d}",
        ]);
        let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
        assert_eq!(t, ["sleep 0.3", "sleep 0.5", "sleep 0.7"]);
        let r = run(&[
            "-L",
            "cc",
            "gcc,clang",
            "-L",
            "o",
            "-O0,-O2",
            "{cc} {o} x.c",
        ]);
        let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            t,
            [
                "gcc -O0 x.c",
                "clang -O0 x.c",
                "gcc -O2 x.c",
                "clang -O2 x.c"
            ]
        );
        assert_eq!(
            r.plan.commands[1].parameters,
            [("cc".into(), "clang".into()), ("o".into(), "-O0".into())]
        );
        // A scan and a list combine too.
        let r = run(&["-P", "n", "1", "2", "-L", "w", "a,b", "echo {n}{w}"]);
        let t: Vec<_> = texts(&r).into_iter().map(|(t, _)| t).collect();
        assert_eq!(t, ["echo 1a", "echo 2a", "echo 1b", "echo 2b"]);
    }

    #[test]
    fn hooks_per_command_or_per_combination() {
        let r = run(&[
            "-L", "x", "a,b", "--setup", "s1 {x}", "--setup", "s2 {x}", "c1 {x}", "c2",
        ]);
        let setups: Vec<&str> = r
            .plan
            .commands
            .iter()
            .map(|c| c.hooks.setup.as_ref().unwrap().text.as_str())
            .collect();
        assert_eq!(setups, ["s1 a", "s2 a", "s1 b", "s2 b"]);
        let r = run(&[
            "-L",
            "x",
            "a,b",
            "--cleanup",
            "k1",
            "--cleanup",
            "k2",
            "c {x}",
        ]);
        assert_eq!(
            r.plan.commands[1].hooks.cleanup.as_ref().unwrap().text,
            "k2"
        );
        let e = usage(&[
            "-L",
            "x",
            "a,b",
            "--cleanup",
            "k1",
            "--cleanup",
            "k2",
            "--cleanup",
            "k3",
            "c {x}",
        ]);
        assert!(e.contains("once per command and combination (2)"), "{e}");
    }

    #[test]
    fn parameter_mistakes_are_usage_errors() {
        assert!(usage(&["-P", "n", "1", "3", "true"]).contains("parameter 'n' is not used"));
        assert!(usage(&["--parameter-step-size", "2", "echo"]).contains("needs a scan"));
        assert!(usage(&["-P", "n", "3", "1", "e {n}"]).contains("MIN 3 is greater than MAX 1"));
        assert!(
            usage(&["-P", "n", "1", "3", "--parameter-step-size", "0", "e {n}"])
                .contains("the step 0 must be greater than 0")
        );
        assert!(usage(&["-P", "n", "1", "x", "e {n}"]).contains("'x' is not a decimal number"));
        assert!(usage(&["-L", "a", "x", "-P", "a", "1", "2", "e {a}"]).contains("given twice"));
        assert!(usage(&["-L", "a b", "x", "e {a b}"]).contains("without braces or blanks"));
        assert!(usage(&["-L", "", "x", "e {}"]).contains("without braces or blanks"));
        let e = usage(&["-P", "a", "1", "1000", "-P", "b", "1", "1000", "e {a}{b}"]);
        assert!(e.contains("more than 100000 combinations"), "{e}");
        // Names and hooks count as uses.
        run(&["-L", "v", "1,2", "true", "-n", "t{v}"]);
        run(&["-L", "v", "1,2", "--prepare", "echo {v}", "true"]);
    }

    #[test]
    fn hyperfines_none_and_default_shells() {
        let r = run(&["--shell", "default", "echo $HOME"]);
        assert_eq!(r.plan.shell, "/bin/sh -c");
        assert_eq!(
            r.plan.commands[0].command.argv,
            ["/bin/sh", "-c", "echo $HOME"]
        );
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let r = run(&["--shell=none", "echo hi"]);
        assert_eq!(r.plan.shell, "");
        assert_eq!(r.plan.commands[0].command.argv, ["echo", "hi"]);
    }

    #[test]
    fn empty_commands_need_a_shell() {
        assert!(usage(&[""]).contains("-s \"/bin/sh -c\""));
        let r = run(&["-s", "/bin/sh -c", ""]);
        assert_eq!(r.plan.commands[0].command.argv, ["/bin/sh", "-c", ""]);
    }

    #[test]
    fn counts_are_validated() {
        assert!(usage(&["-r", "0", "ls"]).contains("nothing to do"));
        assert!(usage(&["-r", "-1", "ls"]).contains("whole number"));
        assert!(usage(&["-r", "abc", "ls"]).contains("'abc'"));
        assert!(usage(&["-w", "x", "ls"]).contains("-w/--warmup"));
        assert!(usage(&["--timeout", "0", "ls"]).contains("--timeout"));
        assert!(usage(&["--order", "zigzag", "ls"]).contains("sequential"));
        assert!(usage(&["--seed", "-3", "ls"]).contains("--seed"));
        assert!(usage(&["-r", "5"]).contains("no commands"));
    }

    #[test]
    fn unbalanced_quotes_name_the_command() {
        let e = usage(&["ls", "echo \"oops"]);
        assert!(e.contains("command 2"), "{e}");
        assert!(e.contains("unbalanced double quote"), "{e}");
    }

    #[test]
    fn hooks_once_for_all_or_once_per_command() {
        let r = run(&["-p", "sync", "a", "b"]);
        assert!(r
            .plan
            .commands
            .iter()
            .all(|c| c.hooks.prepare.as_ref().unwrap().text == "sync"));
        let r = run(&["--setup", "s1", "--setup", "s2", "a", "b"]);
        assert_eq!(r.plan.commands[1].hooks.setup.as_ref().unwrap().text, "s2");
        assert!(usage(&["--cleanup", "x", "--cleanup", "y", "a", "b", "c"])
            .contains("given 2 times for 3 commands"));
    }

    #[test]
    fn standard_output_has_one_writer() {
        assert!(usage(&["-o", "-", "--export-json", "-", "ls"]).contains("standard output"));
        assert!(usage(&["-o", "-", "--show-output", "ls"]).contains("--show-output"));
    }

    #[test]
    fn report_switches_apply_in_order() {
        let s = Selection::from_switches(&[ReportSwitch::Quiet, ReportSwitch::Ranking]);
        assert!(s.ranking && !s.summary && s.quiet);
        let s = Selection::from_switches(&[ReportSwitch::Explain, ReportSwitch::Quiet]);
        assert!(!s.explain && !s.ranking);
        let s = Selection::from_switches(&[ReportSwitch::Mini]);
        assert!(s.mini && !s.summary && s.ranking);
    }

    #[test]
    fn help_version_config_and_actions() {
        assert_eq!(
            config(&["-v", "-h"]).unwrap(),
            Config::Help { running: true }
        );
        assert_eq!(
            config(&["-h", "-A", "report"]).unwrap(),
            Config::Help { running: false }
        );
        assert_eq!(
            config(&["-h", "-A", "dance"]).unwrap(),
            Config::Help { running: true }
        );
        assert_eq!(config(&["-v"]).unwrap(), Config::Version);
        assert!(
            matches!(config(&["--config", "-c", "width=90"]).unwrap(), Config::ShowConfig(s) if s.width == Some(90))
        );
        assert!(
            matches!(config(&["-A", "report", "f.csv"]).unwrap(), Config::Report(r) if r.files == ["f.csv"])
        );
        assert!(usage(&["-A", "dance"]).contains("-A run"));
    }

    #[test]
    fn a_command_file_is_read_up_to_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path.to_string_lossy().into_owned()
        };
        let message = |path: &str| match read_command_file(path) {
            Err(ConfigError::Usage(UsageError(m))) => m,
            other => panic!("{other:?}"),
        };
        // Commands of 1 KiB, line end included.
        const LINE: usize = 1024;
        let lines = |n: usize| format!("{}\n", "t".repeat(LINE - 1)).repeat(n).into_bytes();
        // Within the bound: every command.
        let within = file("within", &lines(COMMAND_FILE_LIMIT / LINE));
        assert_eq!(
            read_command_file(&within).unwrap().len(),
            COMMAND_FILE_LIMIT / LINE
        );
        // Past it: refused, however the file goes on.
        let past = file("past", &lines(COMMAND_FILE_LIMIT / LINE + 1));
        assert!(
            message(&past).contains("runs past 16 MiB"),
            "{}",
            message(&past)
        );
        // A fault in what was read is the message, in whole lines …
        let mut nul = lines(3);
        nul.push(0);
        nul.extend(lines(COMMAND_FILE_LIMIT / LINE));
        let nul = file("nul", &nul);
        assert!(message(&nul).contains("line 4: control character U+0000"));
        // … or, on one long line, in whole characters (no false fault
        // from a character cut at the bound).
        let mut long = vec![b'x'; COMMAND_FILE_LIMIT - 1];
        long.extend("é".repeat(10).bytes());
        let long = file("long", &long);
        assert!(
            message(&long).contains("runs past 16 MiB"),
            "{}",
            message(&long)
        );
    }

    #[test]
    fn command_files_follow_command_line_commands() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cmds.txt");
        std::fs::write(&path, "b\n-n bee\nc").unwrap();
        let p = path.to_str().unwrap();
        let r = run(&["a", "-f", p]);
        let texts: Vec<_> = r
            .plan
            .commands
            .iter()
            .map(|c| c.command.text.as_str())
            .collect();
        assert_eq!(texts, ["a", "b", "c"]);
        assert_eq!(r.plan.commands[1].name.as_deref(), Some("bee"));
        assert!(matches!(
            config(&["-f", "/no/such/file"]),
            Err(ConfigError::CommandFile { .. })
        ));
    }
}

//! Validating [`Args`] into a [`Config`]: every range and combination is
//! checked here, before anything runs, with a message that says what to do.
//!
//! Here: the configuration's types and [`build`], which checks what every
//! command line has; [`options`] checks single options' values,
//! [`outputs`] that no two outputs clash, [`plan`] turns a run's commands
//! into its [`Plan`] with their [`hooks`] and
//! [`params`] (parameter scans and lists), reading the command [`files`].

use super::lowargs::{Args, Generate, ReportSwitch};
use super::settings::Settings;
use super::UsageError;
use crate::analysis::{resolve_metric, RankingSettings};
use crate::data::Catalogue;
use crate::experiment::Plan;
use crate::export::{self, Format};
use crate::gate::GateOptions;
use crate::history::HistoryOptions;
use crate::measure::extras::MeasureOptions;

mod files;
mod hooks;
mod options;
mod outputs;
mod params;
mod plan;

use options::{export_options, gate_options, margin, running};
pub use options::{DEFAULT_WARMUP, MAX_TIMEOUT};
use outputs::{check_no_empty_path, check_stdout_once};
use plan::run_config;

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
    /// both, rather than the last winning silently); the same one twice is
    /// one.
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
        return report_config(args, output, history);
    }
    run_config(args, output).map(|c| Config::Run(Box::new(RunConfig { history, ..c })))
}

/// A report's configuration: the history asked for, or the data files to
/// read (at least one, standard input at most once).
fn report_config(
    args: Args,
    output: Output,
    history: Option<HistoryOptions>,
) -> Result<Config, ConfigError> {
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
            "no data files to read: give one or more raw CSV files (- for standard input)".into(),
        )
        .into());
    }
    if args.positional.iter().filter(|c| c.text == "-").count() > 1 {
        return Err(
            UsageError("standard input can be read only once: give - at most once".into()).into(),
        );
    }
    Ok(Config::Report(ReportConfig {
        precision_given: args.precision.is_some(),
        files: args.positional.into_iter().map(|c| c.text).collect(),
        output,
        history: None,
    }))
}

#[cfg(test)]
mod tests;

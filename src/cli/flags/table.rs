//! The option table: every flag's entry, group by group in help order,
//! and the help texts built from the owning stages' defaults.

use super::super::lowargs::{Args, Generate, HistoryArg, ParamArg, ReportSwitch};
use super::super::UsageError;
use super::{Flag, Hint, Scope};
use crate::analysis::StoppingRule;
use crate::experiment::{HookKind, Order};
use crate::export::json_layouts::Layout;
use crate::export::{Format, JsonRuns};

use Scope::{Both, Run};

fn report(long: &'static str, short: char, switch: ReportSwitch, help: &'static str) -> Flag {
    Flag::switch(long, Both, help, move |a| a.switches.push(switch)).short(short)
}

/// The option table, group by group in help order.
pub(super) fn build() -> Vec<Flag> {
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
    let auto = StoppingRule::default();
    let mut flags = vec![
        Flag::value(
            "warmup",
            "N",
            Run,
            format!(
                "Untimed runs of each command before timing starts (default {}; -w 0 for none)",
                crate::cli::config::DEFAULT_WARMUP
            ),
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
            format!(
                "With auto: stop after N rounds, decided or not (default {})",
                auto.max_rounds
            ),
            |a, v| a.max_runs = Some(v),
        ),
        Flag::value(
            "max-time",
            "DURATION",
            Run,
            format!(
                "With auto: stop after this long, such as 30s or 2m (default {}, but not before the first look)",
                duration_word(auto.max_time)
            ),
            |a, v| a.max_time = Some(v),
        ),
        Flag::value(
            "precision",
            "PCT",
            Both,
            format!(
                "With auto and one command: stop when its median is known within ±PCT (default {})",
                percent_word(auto.precision)
            ),
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
                // The first file would get nothing (the last -o would win,
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
            order_help(),
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
            format!(
                "Step of every -P scan instead of {} (decimals allowed)",
                crate::experiment::params::DEFAULT_STEP
            ),
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
            format!(
                "Settings: {} (not Hyperfine's cleanup)",
                crate::cli::settings::NAMES
            ),
            |a, v| a.settings.push(v),
        )
        .short('c')
        .alias('x')
        .hint(Hint::Suggest(crate::cli::settings::completions)),
        Flag::value(
            "metric",
            "NAME",
            Both,
            metric_help(),
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
            format!(
                "bestguess: also append the experiment to the history STORE; bestreport: report the history, its change points (STORE: a .db/.sqlite file or postgresql:// URL; default ${}, else {})",
                crate::history::store::STORE_VARIABLE,
                crate::history::store::DEFAULT_STORE
            ),
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
            format!(
                "With --history or --history-import: record the experiment as of this commit (default: git's {})",
                crate::history::provenance::DEFAULT_REV
            ),
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
                    format!(
                        "Runs in --export-json: all (default), none, or some of {}",
                        Layout::ALL.map(Layout::word).join(", ")
                    ),
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

/// A duration as `--max-time` takes it: `10s`, or `500ms` where seconds
/// are not whole.
fn duration_word(d: std::time::Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// A fraction as `--precision` takes it: `0.02` is `2%`.
fn percent_word(fraction: f64) -> String {
    // Rounded to nine decimals, so 0.07 is `7%`, not `7.000000000000001%`.
    format!("{}%", (fraction * 100.0 * 1e9).round() / 1e9)
}

/// `--order`'s help: each order, the default marked.
fn order_help() -> String {
    let described = |order: Order, what: &str| {
        if order == Order::default() {
            format!("{order} ({what}, the default)")
        } else {
            format!("{order} ({what})")
        }
    };
    format!(
        "{}, {} or {}",
        described(Order::Random, "shuffled rounds"),
        described(Order::Interleave, "rounds"),
        described(Order::Sequential, "mirrored blocks")
    )
}

/// `--metric`'s help: the short names and the run-queue delay's, and the
/// default the data choose ([`crate::analysis::choose`]).
fn metric_help() -> String {
    use crate::analysis::SHORT_NAMES;
    use crate::data::{Catalogue, Metric};
    let short = |metric: Metric| {
        let named = SHORT_NAMES.iter().find(|&&(_, m)| m == metric);
        named.map_or("?", |&(name, _)| name)
    };
    let names: Vec<&str> = SHORT_NAMES.iter().map(|&(name, _)| name).collect();
    format!(
        "Metric to rank: {}, {}, or any other the data hold (default: {} if a command mostly waits, else {})",
        names.join(", "),
        Catalogue::new().def(Metric::RUN_DELAY).name,
        short(Metric::WALL),
        short(Metric::TOTAL)
    )
}

/// The metric names `--metric` accepts in any data: the short ones and
/// the catalogue's (a counter or a command's own metric exists only in
/// the data that hold it).
fn metric_names() -> Vec<String> {
    crate::analysis::known_names(&crate::data::Catalogue::new())
}

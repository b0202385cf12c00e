//! The option table: one list drives parsing and `--help`.

/// Which executable accepts a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only `bestguess` (running an experiment).
    Run,
    /// Both executables (reports, exports, settings).
    Both,
}

/// One option.
#[derive(Debug)]
pub struct Flag {
    pub short: Option<char>,
    pub long: &'static str,
    /// The value's name in help, if the option takes a value.
    pub value: Option<&'static str>,
    pub scope: Scope,
    pub help: &'static str,
}

const fn flag(
    short: Option<char>,
    long: &'static str,
    value: Option<&'static str>,
    scope: Scope,
    help: &'static str,
) -> Flag {
    Flag {
        short,
        long,
        value,
        scope,
        help,
    }
}

use Scope::{Both, Run};

/// Every option, in help order.
pub static FLAGS: &[Flag] = &[
    flag(
        Some('w'),
        "warmup",
        Some("N"),
        Run,
        "Untimed runs of each command before timing starts (default 0)",
    ),
    flag(
        Some('r'),
        "runs",
        Some("N"),
        Run,
        "Timed runs of each command (default 1)",
    ),
    flag(
        Some('p'),
        "prepare",
        Some("CMD"),
        Run,
        "Run CMD before every run, warmups included (untimed, output discarded)",
    ),
    flag(
        None,
        "setup",
        Some("CMD"),
        Run,
        "Run CMD once before a command's first run",
    ),
    flag(
        None,
        "conclude",
        Some("CMD"),
        Run,
        "Run CMD after every run, warmups included",
    ),
    flag(
        None,
        "cleanup",
        Some("CMD"),
        Run,
        "Run CMD once after a command's last run",
    ),
    flag(
        Some('i'),
        "ignore-failure",
        None,
        Run,
        "Record non-zero exits, signals and timeouts and keep going",
    ),
    flag(
        None,
        "show-output",
        None,
        Run,
        "Let commands use this terminal (default: /dev/null)",
    ),
    flag(
        Some('s'),
        "shell",
        Some("SHELL"),
        Run,
        "Run commands as SHELL words + the command as one argument, e.g. \"/bin/sh -c\"",
    ),
    flag(
        Some('n'),
        "name",
        Some("NAME"),
        Run,
        "Name the command just before this option",
    ),
    flag(
        Some('f'),
        "file",
        Some("FILE"),
        Run,
        "Read more commands from FILE, one per line (-n NAME lines name them)",
    ),
    flag(
        Some('o'),
        "output",
        Some("FILE"),
        Run,
        "Write every run's raw data as CSV to FILE (- for standard output)",
    ),
    flag(
        None,
        "order",
        Some("ORDER"),
        Run,
        "sequential (default), interleave (rounds) or random (shuffled rounds)",
    ),
    flag(
        None,
        "seed",
        Some("N"),
        Run,
        "Seed for --order random, to reproduce an order",
    ),
    flag(
        None,
        "timeout",
        Some("SECONDS"),
        Run,
        "Kill a run (and what it started) after SECONDS; it counts as failed",
    ),
    flag(
        Some('Q'),
        "quiet",
        None,
        Both,
        "Print nothing but errors and what other report options ask for",
    ),
    flag(
        Some('S'),
        "summary",
        None,
        Both,
        "Print the per-command summary (default)",
    ),
    flag(
        Some('M'),
        "mini-stats",
        None,
        Both,
        "Print a short summary: total CPU and wall time",
    ),
    flag(
        Some('N'),
        "no-stats",
        None,
        Both,
        "Do not print the per-command summary",
    ),
    flag(
        Some('R'),
        "ranking",
        None,
        Both,
        "Print the ranking (default)",
    ),
    flag(
        Some('E'),
        "explain",
        None,
        Both,
        "Explain the ranking's statistics",
    ),
    flag(
        Some('D'),
        "dist-stats",
        None,
        Both,
        "Print the distribution of total CPU time",
    ),
    flag(
        Some('T'),
        "tail-stats",
        None,
        Both,
        "Print the tail of the distribution of total CPU time",
    ),
    flag(
        Some('G'),
        "graph",
        None,
        Both,
        "Graph every run of each command",
    ),
    flag(
        Some('B'),
        "boxplot",
        None,
        Both,
        "Box plots of all commands on one axis",
    ),
    flag(
        Some('c'),
        "set",
        Some("NAME=VALUE"),
        Both,
        "Settings: width, alpha, epsilon, effect, super (-x is an alias)",
    ),
    flag(None, "config", None, Both, "Show the settings and exit"),
    flag(
        None,
        "limits",
        None,
        Both,
        "Show the limits that exist and exit",
    ),
    flag(
        None,
        "export-csv",
        Some("FILE"),
        Both,
        "Write the summary statistics as CSV",
    ),
    flag(
        None,
        "hyperfine-csv",
        Some("FILE"),
        Both,
        "Write a Hyperfine-style summary CSV",
    ),
    flag(
        None,
        "export-json",
        Some("FILE"),
        Both,
        "Write results as JSON (Hyperfine-compatible, plus everything BestGuess knows)",
    ),
    flag(
        None,
        "export-markdown",
        Some("FILE"),
        Both,
        "Write a Markdown table of the results",
    ),
    flag(
        Some('A'),
        "action",
        Some("ACTION"),
        Both,
        "run (default for bestguess) or report (default for bestreport)",
    ),
    flag(Some('v'), "version", None, Both, "Print the version"),
    flag(Some('h'), "help", None, Both, "Print this help"),
];

/// Find a flag by its short letter.
/// `-x` is the C reference's spelling of `-c`.
pub fn by_short(c: char) -> Option<&'static Flag> {
    let c = if c == 'x' { 'c' } else { c };
    FLAGS.iter().find(|f| f.short == Some(c))
}

/// Find a flag by its long name (exact match; no abbreviations).
pub fn by_long(name: &str) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.long == name)
}

/// The help text for one executable.
pub fn help(program: &str, running: bool) -> String {
    let mut out = String::new();
    if running {
        out.push_str(&format!(
            "{program}: run commands many times, record every run, rank them with robust statistics\n\n\
             Usage: {program} [options] COMMAND...\n\n"
        ));
    } else {
        out.push_str(&format!(
            "{program}: report on raw data saved by bestguess -o\n\n\
             Usage: {program} [options] FILE...   (- reads standard input)\n\n"
        ));
    }
    out.push_str("Options:\n");
    for f in FLAGS {
        if !running && f.scope == Scope::Run {
            continue;
        }
        let short = f.short.map_or("    ".to_string(), |c| format!("-{c}, "));
        let long = match (f.long, f.value) {
            ("set", v) => format!("-c, -x {}", v.unwrap_or("")),
            (l, Some(v)) => format!("{short}--{l} {v}"),
            (l, None) => format!("{short}--{l}"),
        };
        out.push_str(&format!("  {long:<30} {}\n", f.help));
    }
    out.push_str(
        "\nValues may be given as -r 20, -r=20, --runs 20 or --runs=20; flags bundle (-QR).\n",
    );
    out.push_str("Exit status: 0 success, 1 usage error, 2 failure, 130/143 interrupted.\n");
    out
}

//! The two programs' top level: parse, validate, dispatch, and turn every
//! error into one line on stderr and a documented exit status.
//!
//! Exit status: 0 success; 1 usage error; 2 a failure while running or
//! reading (a command failed, a file could not be read or written); 3 when
//! `--fail-if-slower` finds a command slower than its baseline; 4 when an
//! experiment was measured and reported but not recorded in the history
//! (`--history`; 3 takes precedence); 130 or 143 when interrupted by
//! SIGINT or SIGTERM.

mod baseline;
mod budget;
mod engine;
mod history;
mod limits;
mod live;
mod output;
mod provenance;
mod report;
mod run;
mod terminal;
mod writeback;

use std::ffi::OsString;
use std::io::Write;

use crate::cli::config::{self, ConfigError};
use crate::cli::{args, help, Config};

/// Exit statuses.
pub mod exit {
    pub const OK: i32 = 0;
    pub const USAGE: i32 = 1;
    pub const FAILURE: i32 = 2;
    /// `--fail-if-slower`: some command is slower than its baseline with
    /// the whole interval of its change above the margin.
    pub const REGRESSION: i32 = 3;
    /// `--history`: the experiment was measured and reported, and not
    /// recorded in the history store (or not gated against it).
    pub const NOT_RECORDED: i32 = 4;
}

/// An error at the top level, with the exit status it maps to.
#[derive(Debug)]
pub struct AppError {
    pub status: i32,
    pub message: String,
}

impl AppError {
    pub fn usage(message: impl Into<String>) -> Self {
        AppError {
            status: exit::USAGE,
            message: message.into(),
        }
    }

    pub fn failure(message: impl Into<String>) -> Self {
        AppError {
            status: exit::FAILURE,
            message: message.into(),
        }
    }
}

impl From<ConfigError> for AppError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::Usage(u) => AppError::usage(u.0),
            other => AppError::failure(other.to_string()),
        }
    }
}

/// The program name to show in messages: `argv[0]`'s file name.
fn program_name(argv0: Option<&OsString>, default: &str) -> String {
    argv0
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| default.to_string())
}

/// `bestguess`: run an experiment (or, with `-A report`, report on files).
pub fn bestguess(argv: Vec<OsString>) -> i32 {
    main_with(argv, "bestguess", true)
}

/// `bestreport`: report on raw data files.
pub fn bestreport(argv: Vec<OsString>) -> i32 {
    main_with(argv, "bestreport", false)
}

fn main_with(argv: Vec<OsString>, default_name: &str, running: bool) -> i32 {
    let program = program_name(argv.first(), default_name);
    // Writing past `ulimit -f` must be an error to report (EFBIG), not a
    // silent death.
    crate::measure::sys::ignore_file_size_signal();
    // A signal that ends the process (bestreport, or bestguess before its
    // experiment catches signals) removes unfinished exports' temporary
    // files first. Without it, nothing is lost, but a hidden file is left.
    let _ = crate::measure::sys::remove_doomed_on_termination_signals();
    let command_line: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let result = (|| {
        let mut parsed =
            args::parse(argv.into_iter().skip(1), running).map_err(|e| AppError::usage(e.0))?;
        output::standard_output_as_dash(&mut parsed.output, &mut parsed.exports);
        output::refuse_standard_error(&parsed.output, &parsed.exports)?;
        dispatch(
            config::build(parsed, running)?,
            &program,
            running,
            &command_line,
        )
    })();
    match result {
        Ok(status) => status,
        Err(e) => {
            let _ = std::io::stdout().flush();
            // Not `eprintln!`, which panics when standard error is a pipe
            // whose reader has gone (exit 101 for a usage error).
            output::error(&format!("{program}: error: {}\n", e.message));
            e.status
        }
    }
}

/// `running`: this is `bestguess` (whatever `-A` says), for `--generate`.
/// `command_line`: the arguments as given, recorded in the JSON metadata.
fn dispatch(
    config: Config,
    program: &str,
    running: bool,
    command_line: &[String],
) -> Result<i32, AppError> {
    let mut stdout = std::io::stdout().lock();
    let print = |out: &mut dyn Write, text: &str| -> Result<i32, AppError> {
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            // A reader that has read enough (`--help | head`): quietly,
            // status 0, as the reports end.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(AppError::failure(
                format!("cannot write to standard output: {e}"),
            )),
            _ => Ok(exit::OK),
        }
    };
    match config {
        Config::Help { running } => print(
            &mut stdout,
            &help::help(program, running, terminal::help_width()),
        ),
        Config::Version => print(
            &mut stdout,
            &format!("{program} {}\n", env!("CARGO_PKG_VERSION")),
        ),
        Config::Generate(what) => print(&mut stdout, &what.render(program, running)),
        Config::ShowConfig(settings) => print(&mut stdout, &settings.describe()),
        Config::ShowLimits => print(&mut stdout, &limits::limits()?),
        Config::Run(rc) => {
            drop(stdout);
            output::set_quiet(rc.output.selection.quiet);
            for warning in &rc.warnings {
                output::note(&format!("{program}: warning: {warning}\n"));
            }
            run::run(*rc, command_line)
        }
        Config::Report(rc) => {
            drop(stdout);
            output::set_quiet(rc.output.selection.quiet);
            report::report_files(&rc, command_line)
        }
    }
}

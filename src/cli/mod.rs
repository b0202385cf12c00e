//! The command line: an option table ([`flags`]) from which parsing
//! ([`args`], form only), `--help` ([`help`]), the man page and shell
//! completions ([`generate`]) are generated; command files ([`cmdfile`]);
//! `-c` settings ([`settings`]); `--runs auto` ([`stopping`]); and validation into a [`config::Config`].
//! Nothing outside this module sees raw arguments.

pub mod args;
pub mod cmdfile;
pub mod config;
pub mod flags;
pub mod generate;
pub mod habits;
pub mod help;
pub mod history;
pub mod lowargs;
pub mod settings;
pub mod stopping;

pub use config::{Config, Output, ReportConfig, RunConfig, Selection};
pub use settings::Settings;

/// A problem with the command line itself (exit status 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

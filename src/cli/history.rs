//! `--history`, `--history-import` and their companions, validated into
//! the history stage's own [`HistoryOptions`].
//!
//! The store is an optional value: `--history=STORE` always names it;
//! `--history STORE` does when the word after the option has a store's
//! form (a `postgres://` or `postgresql://` URL, or a path ending in
//! `.db`, `.sqlite` or `.sqlite3`), so that `bestguess --history ls` runs
//! `ls`. `bestreport --history` reads no data files, so there its one
//! word is the store whatever its form.

use super::lowargs::{Args, HistoryArg};
use super::UsageError;
use crate::export::Format;
use crate::history::{parse_date, HistoryOptions, Location};

/// Takes the store out of the positional words where the word right
/// after the option names one.
fn store(arg: &HistoryArg, args: &mut Args, any_word: bool) -> Option<String> {
    if arg.store.is_some() {
        return arg.store.clone();
    }
    let word = args.positional.get(arg.at)?;
    if word.name.is_none() && (any_word || Location::looks_like_store(&word.text)) {
        return Some(args.positional.remove(arg.at).text);
    }
    None
}

/// The history options of a command line, if it asks for the history.
/// `margin`: `--fail-if-slower`, already checked.
pub fn options(
    args: &mut Args,
    running: bool,
    margin: Option<f64>,
) -> Result<Option<HistoryOptions>, UsageError> {
    let companions = [
        ("--commit", args.commit.is_some()),
        ("--branch", args.branch.is_some()),
        ("--command", args.command.is_some()),
        ("--machine", args.machine.is_some()),
        ("--since", args.since.is_some()),
    ];
    let (history, import) = (args.history.clone(), args.history_import.clone());
    if history.is_none() && import.is_none() {
        if let Some((option, _)) = companions.iter().find(|(_, given)| *given) {
            return Err(UsageError(format!(
                "{option} only applies to the history: give --history (or bestreport --history-import) too, or leave it out"
            )));
        }
        return Ok(None);
    }
    if history.is_some() && import.is_some() {
        return Err(UsageError(
            "--history and --history-import both name what to do with the store: give one".into(),
        ));
    }
    if running && import.is_some() {
        return Err(UsageError(
            "--history-import loads saved files: use bestreport --history-import STORE FILES --commit REV".into(),
        ));
    }
    let filters = [
        ("--command", args.command.is_some()),
        ("--machine", args.machine.is_some()),
        ("--since", args.since.is_some()),
    ];
    if running || import.is_some() {
        if let Some((option, _)) = filters.iter().find(|(_, given)| *given) {
            return Err(UsageError(format!(
                "{option} selects what bestreport --history reports; leave it out here"
            )));
        }
    }
    let since_us = match &args.since {
        Some(d) => Some(parse_date(d).ok_or_else(|| {
            UsageError(format!(
                "--since expects a date YYYY-MM-DD (optionally with HH:MM or HH:MM:SS, UTC), got '{d}'"
            ))
        })?),
        None => None,
    };
    let mut options = HistoryOptions {
        commit: args.commit.clone(),
        branch: args.branch.clone(),
        command: args.command.clone(),
        machine: args.machine.clone(),
        since_us,
        ..HistoryOptions::default()
    };
    if let Some(arg) = &import {
        options.store = store(arg, args, false);
        options.import = args.positional.drain(..).map(|c| c.text).collect();
        if options.import.is_empty() {
            return Err(UsageError(
                "--history-import needs files to load: give raw CSV or Hyperfine JSON files".into(),
            ));
        }
        if options.commit.is_none() {
            return Err(UsageError(
                "--history-import needs --commit REV: the commit the files measured".into(),
            ));
        }
    } else if let Some(arg) = &history {
        options.store = store(arg, args, !running);
        if running {
            options.fail_if_slower = margin;
        } else if let Some(extra) = args.positional.first() {
            return Err(UsageError(format!(
                "bestreport --history reads the store, not data files ('{}'): report the files without --history, or load them with --history-import",
                extra.text
            )));
        } else if margin.is_some() {
            return Err(UsageError(
                "--fail-if-slower with --history gates a new experiment: use it with bestguess --history".into(),
            ));
        }
    }
    if options.store.as_deref() == Some("") {
        return Err(UsageError(
            "the history store is empty: give a file path or a postgresql:// URL".into(),
        ));
    }
    if !running {
        let allowed = [Format::Json, Format::Markdown, Format::Html];
        if let Some((format, _)) = args.exports.iter().find(|(f, _)| !allowed.contains(f)) {
            return Err(UsageError(format!(
                "--{} is not written for the history; use --export-json, --export-markdown or --export-html",
                format.option()
            )));
        }
    }
    Ok(Some(options))
}

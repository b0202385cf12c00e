//! Commands and hooks as the words they run, and which hook goes with
//! which command and parameter combination.

use super::super::lowargs::Args;
use super::super::{cmdfile, UsageError};
use crate::experiment::params;
use crate::experiment::{Hook, HookKind};
use crate::measure::split::split;

/// A command or hook as its text and the words it runs: the shell's words
/// and the text, or the text split with POSIX quoting.
pub(super) fn to_hook(
    shell_words: Option<&[String]>,
    text: &str,
    what: &str,
) -> Result<Hook, UsageError> {
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
            // `''`: a program named by nothing, refused here rather than
            // failing later as a command that cannot be started (status 2).
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

/// The texts of hook `kind` per command and combination: a hook given
/// once is every command's; given once per command, each command's (for
/// all its parameter values); or once per command and combination, in
/// the experiment's order.
pub(super) fn hook_texts<'a>(
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

/// A command's text in a message: quoted, control characters escaped so
/// the message stays one line.
pub(super) fn quoted(text: &str) -> String {
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
pub(super) fn check_text(text: &str, what: &str) -> Result<(), UsageError> {
    match cmdfile::control_char(text, &['\t', '\n']) {
        None => Ok(()),
        Some((column, c)) => Err(UsageError(format!(
            "{what} contains the control character {} at column {column}; remove it",
            cmdfile::describe_control(c)
        ))),
    }
}

//! Outputs that would clash: two writers on standard output, or the
//! commands' own output mixed into data; empty paths.

use super::super::lowargs::Args;
use super::super::UsageError;
use super::Exports;

/// At most one thing may write to standard output as a file.
pub(super) fn check_stdout_once(args: &Args, exports: &Exports) -> Result<(), UsageError> {
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
/// option (`--export-svg ''` would write its figures into the current
/// directory, `-o ''` and `-f ''` would fail as files not found).
pub(super) fn check_no_empty_path(
    args: &Args,
    exports: &Exports,
    running: bool,
) -> Result<(), UsageError> {
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

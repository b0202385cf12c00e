//! Turning argv into [`Args`]: what the user wrote, checked for form only.
//!
//! Order matters on a BestGuess command line — `-n` names the command just
//! before it, and hooks given once per command apply in order — so options
//! are read one by one with `lexopt` instead of a declarative parser.
//! Validation of meaning (ranges, combinations) happens in
//! [`super::config`].

use std::ffi::OsString;

/// What [`parse`] returns, defined with the option table's other inputs.
pub use super::lowargs::{Args, CommandArg, ParamArg, ReportSwitch};
use super::{flags, UsageError};

/// Parse `args` (without `argv[0]`). `running` selects which options exist.
pub fn parse(args: impl IntoIterator<Item = OsString>, running: bool) -> Result<Args, UsageError> {
    use lexopt::Arg::{Long, Short, Value};
    let mut parser = lexopt::Parser::from_args(args);
    let mut out = Args::default();
    // The short switch just given, for Hyperfine's habits (`-S bash`).
    let mut switch: Option<char> = None;
    while let Some(arg) = parser.next().map_err(parse_error)? {
        let short = match arg {
            Short(c) => Some(c),
            _ => None,
        };
        let flag = match arg {
            Short(c) => flags::by_short(c).ok_or_else(|| unknown(&format!("-{c}")))?,
            Long(name) => flags::by_long(name).ok_or_else(|| unknown(&format!("--{name}")))?,
            Value(v) => {
                let text = string(v, "an argument")?;
                if let Some(e) = switch
                    .take()
                    .and_then(|c| super::habits::switch_value(c, &text))
                {
                    return Err(UsageError(e));
                }
                out.positional.push(CommandArg { text, name: None });
                continue;
            }
        };
        switch = short.filter(|_| flag.values.is_empty());
        if running
            && short == Some('N')
            && !out.notes.iter().any(|n| n == super::habits::NO_STATS_NOTE)
        {
            out.notes.push(super::habits::NO_STATS_NOTE.to_owned());
        }
        if !flag.applies(false) && !out.run_only.iter().any(|l| l[2..] == *flag.long) {
            out.run_only.push(format!("--{}", flag.long));
        }
        if !flag.applies(running) {
            return Err(UsageError(format!(
                "--{} only applies when running commands (bestguess); bestreport reads saved data",
                flag.long
            )));
        }
        if flag.optional {
            let value = parser
                .optional_value()
                .map(|v| string(v, flag.long))
                .transpose()?;
            flag.update(&mut out, value.into_iter().collect())?;
            continue;
        }
        let mut values = Vec::with_capacity(flag.values.len());
        for _ in &flag.values {
            let v = parser.value().map_err(|_| {
                let what = match flag.values.len() {
                    1 => "a value".to_string(),
                    n => format!("{n} values"),
                };
                UsageError(format!(
                    "--{} needs {what} ({})",
                    flag.long,
                    flag.values.join(" ")
                ))
            })?;
            values.push(string(v, flag.long)?);
        }
        flag.update(&mut out, values)?;
    }
    out.pair_names()?;
    Ok(out)
}

/// lexopt's own errors, said as this tool says its others: a switch given
/// a value (`--ignore-failure=1,2`, a Hyperfine habit) names what the
/// switch does instead.
fn parse_error(e: lexopt::Error) -> UsageError {
    match e {
        lexopt::Error::UnexpectedValue { option, value } => {
            let does = flags::by_long(option.trim_start_matches('-'))
                .map_or_else(String::new, |f| format!(" ({})", f.help));
            UsageError(format!(
                "{option} takes no value, and '{}' was given: write {option} alone{does}",
                value.to_string_lossy()
            ))
        }
        e => UsageError(e.to_string()),
    }
}

fn unknown(option: &str) -> UsageError {
    match super::habits::unknown_option(option) {
        Some(instead) => UsageError(format!("unknown option '{option}': {instead}")),
        None => UsageError(format!(
            "unknown option '{option}'; see --help for the options"
        )),
    }
}

fn string(v: OsString, what: &str) -> Result<String, UsageError> {
    v.into_string().map_err(|v| {
        UsageError(format!(
            "{what} is not valid UTF-8: {}",
            v.to_string_lossy()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_run(args: &[&str]) -> Result<Args, UsageError> {
        parse(args.iter().map(OsString::from), true)
    }

    #[test]
    fn values_in_all_four_spellings() {
        for args in [
            &["-r", "20", "ls"][..],
            &["-r=20", "ls"],
            &["--runs", "20", "ls"],
            &["--runs=20", "ls"],
        ] {
            assert_eq!(
                parse_run(args).unwrap().runs.as_deref(),
                Some("20"),
                "{args:?}"
            );
        }
    }

    #[test]
    fn flags_bundle_and_keep_their_order() {
        let a = parse_run(&["-QR", "-iw", "3", "ls"]).unwrap();
        assert_eq!(a.switches, [ReportSwitch::Quiet, ReportSwitch::Ranking]);
        assert!(a.ignore_failure);
        assert_eq!(a.warmup.as_deref(), Some("3"));
    }

    #[test]
    fn names_attach_to_the_command_before_them() {
        let a = parse_run(&["ls", "-n", "list", "ps", "--name=procs", "true"]).unwrap();
        let named: Vec<_> = a
            .positional
            .iter()
            .map(|c| (c.text.as_str(), c.name.as_deref()))
            .collect();
        assert_eq!(
            named,
            [("ls", Some("list")), ("ps", Some("procs")), ("true", None)]
        );
    }

    #[test]
    fn misplaced_names_are_usage_errors() {
        assert!(parse_run(&["-n", "x"])
            .unwrap_err()
            .0
            .contains("names no command"));
        assert!(parse_run(&["ls", "-n", "a", "-n", "b"])
            .unwrap_err()
            .0
            .contains("already has the name"));
        let e = parse_run(&["-n", "a", "-n", "b", "-n", "c", "ls", "ps"]).unwrap_err();
        assert!(e.0.contains("3 names (-n) for 2 commands"), "{}", e.0);
    }

    /// Hyperfine's order: names given before the commands name them in
    /// order; a name before the first command puts every name in that
    /// order.
    #[test]
    fn names_before_the_commands_pair_with_them_in_order() {
        let named = |args: &[&str]| {
            let a = parse_run(args).unwrap();
            a.positional
                .into_iter()
                .map(|c| (c.text, c.name))
                .collect::<Vec<_>>()
        };
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            named(&["-n", "a", "-n", "b", "ls", "ls -l"]),
            [("ls".into(), some("a")), ("ls -l".into(), some("b"))]
        );
        assert_eq!(
            named(&["-n", "a", "ls", "-n", "b", "ls -l", "ps"]),
            [
                ("ls".into(), some("a")),
                ("ls -l".into(), some("b")),
                ("ps".into(), None)
            ]
        );
    }

    #[test]
    fn values_are_taken_whatever_they_look_like() {
        let a = parse_run(&["-r", "-1", "ls"]).unwrap();
        assert_eq!(a.runs.as_deref(), Some("-1"));
        let a = parse_run(&["-o", "-", "ls"]).unwrap();
        assert_eq!(a.output.as_deref(), Some("-"));
    }

    #[test]
    fn unknown_and_valueless_options_are_reported() {
        assert!(parse_run(&["--bogus"])
            .unwrap_err()
            .0
            .contains("unknown option '--bogus'"));
        assert!(parse_run(&["-z"]).unwrap_err().0.contains("'-z'"));
        assert!(parse_run(&["ls", "-r"])
            .unwrap_err()
            .0
            .contains("--runs needs a value"));
        assert!(parse_run(&["--runs-x", "3"]).is_err(), "no prefix matching");
    }

    #[test]
    fn x_is_an_alias_of_c_and_run_options_are_refused_by_bestreport() {
        let a = parse_run(&["-x", "width=100", "-c", "alpha=0.01", "ls"]).unwrap();
        assert_eq!(a.settings, ["width=100", "alpha=0.01"]);
        let e = parse(["-w", "5", "f.csv"].map(OsString::from), false).unwrap_err();
        assert!(
            e.0.contains("--warmup only applies when running"),
            "{}",
            e.0
        );
        let a = parse(["f.csv", "-M", "g.csv"].map(OsString::from), false).unwrap();
        assert_eq!(a.positional.len(), 2, "options may follow file names");
    }

    /// Every spelling of every option in the table parses, changes what was
    /// parsed, and is listed by `--help` of each program that accepts it.
    #[test]
    fn every_flag_parses_changes_something_and_is_in_help() {
        let baseline = parse_run(&["ls"]).unwrap();
        for running in [true, false] {
            let help = super::super::help::help("p", running, 80);
            for f in flags::all() {
                let values: Vec<String> = f
                    .values
                    .iter()
                    .map(|_| match f.hint {
                        flags::Hint::Choices(c) => c[0].to_string(),
                        _ => "7".to_string(),
                    })
                    .collect();
                let spellings = f
                    .longs()
                    .map(|l| format!("--{l}"))
                    .chain(f.shorts().map(|c| format!("-{c}")));
                for spelling in spellings {
                    let mut argv = vec!["ls".to_string(), spelling.clone()];
                    argv.extend(values.iter().cloned());
                    let parsed = parse(argv.iter().map(OsString::from), running);
                    if !f.applies(running) {
                        assert!(parsed.is_err(), "bestreport accepted {spelling}");
                        continue;
                    }
                    let parsed = parsed.unwrap_or_else(|e| panic!("{spelling}: {}", e.0));
                    assert_ne!(parsed, baseline, "{spelling} changed nothing");
                    assert!(help.contains(&spelling), "{spelling} is not in --help");
                }
                assert_eq!(
                    help.contains(&f.usage()),
                    f.applies(running),
                    "--help and the scope of --{} disagree",
                    f.long
                );
            }
        }
    }

    #[test]
    fn multi_valued_options_take_every_value_whatever_it_looks_like() {
        let a = parse_run(&["-P", "n", "-2", "-1", "echo {n}"]).unwrap();
        assert_eq!(
            a.parameters,
            [ParamArg::Scan {
                name: "n".into(),
                min: "-2".into(),
                max: "-1".into()
            }]
        );
        let a = parse_run(&["--parameter-list=cc", "gcc,clang", "x"]).unwrap();
        assert_eq!(a.positional.len(), 1);
        let e = parse_run(&["ls", "-P", "n", "1"]).unwrap_err();
        assert_eq!(e.0, "--parameter-scan needs 3 values (NAME MIN MAX)");
        let e = parse_run(&["ls", "-L", "n"]).unwrap_err();
        assert_eq!(e.0, "--parameter-list needs 2 values (NAME VALUES)");
    }

    #[test]
    fn double_dash_ends_options() {
        let a = parse_run(&["--", "-weird-command"]).unwrap();
        assert_eq!(a.positional[0].text, "-weird-command");
    }
}

//! Hyperfine habits that would silently measure something else, caught
//! loudly.
//!
//! BestGuess runs a command without a shell unless `-s` gives one, and `-s`
//! is a prefix of words to which the command is appended as one argument.
//! Hyperfine 1.x ran everything through `sh -c`, Hyperfine 2.0 adds `-c` to
//! `--shell bash` itself, and Hyperfine's `-s` is `--setup`. A shell given
//! without `-c` runs as Hyperfine runs it (`bash -c COMMAND`: a shell given
//! a command as a script file name would only fail), with a note; the other
//! habits are one-line warnings on standard error and the experiment runs
//! as given, since a literal `|` or `$` may be exactly what the user meant.

/// What a command's text contains that only a shell would interpret, if
/// anything: the first such construct outside quotes (or `$` and backquotes
/// inside double quotes, which a shell also expands).
pub fn shell_syntax(text: &str) -> Option<&'static str> {
    let mut single = false;
    let mut double = false;
    let mut escaped = false;
    let mut word_start = true;
    for c in text.chars() {
        let at_word_start = word_start;
        word_start = false;
        if escaped {
            escaped = false;
            continue;
        }
        if single {
            single = c != '\'';
            continue;
        }
        let found = match c {
            '\\' => {
                escaped = true;
                None
            }
            '"' => {
                double = !double;
                None
            }
            '$' => Some("$ (a variable or substitution)"),
            '`' => Some("` (command substitution)"),
            _ if double => None,
            '\'' => {
                single = true;
                None
            }
            '|' => Some("| (a pipe)"),
            '>' | '<' => Some("> or < (a redirection)"),
            ';' => Some("; (a command separator)"),
            '&' => Some(if text.contains("&&") {
                "&& (a command list)"
            } else {
                "& (a background job)"
            }),
            '*' | '?' | '[' => Some("*, ? or [ (a file name pattern)"),
            '~' if at_word_start => Some("~ (the home directory)"),
            '(' | ')' => Some("( or ) (a subshell)"),
            c if c.is_whitespace() => {
                word_start = true;
                None
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The warning for a command (or hook) with shell syntax and no `-s`.
pub fn shell_syntax_warning(what: &str, text: &str) -> Option<String> {
    shell_syntax(text).map(|syntax| {
        format!(
            "{what} contains {syntax} but no shell interprets it (it runs as given, word by word); for a shell add -s \"/bin/sh -c\""
        )
    })
}

/// Shells (and interpreters) whose last word before the command should be
/// `-c`.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "oksh", "yash", "ash", "busybox", "fish",
    "csh", "tcsh", "pwsh", "nu", "elvish", "xonsh",
];

/// Whether `word` is `-c`, or a cluster of short options with c (`-ec`):
/// the shell then runs its first operand as a command line.
fn is_c(word: &str) -> bool {
    word.starts_with('-') && !word.starts_with("--") && word[1..].contains('c')
}

/// The program a `-s` value runs, without its directory.
fn program(words: &[String]) -> Option<&str> {
    let first = words.first()?;
    Some(first.rsplit('/').next().unwrap_or(first))
}

/// A shell given without `-c` (`--shell bash`, `-s "zsh -f"`): the words
/// with `-c` added, as Hyperfine 2.0 runs `--shell bash`, and the note
/// that says so. `None` when `-c` is there, or the program is not a shell
/// (`busybox` alone needs the applet's name first).
pub fn add_c(shell: &str, words: &[String]) -> Option<(Vec<String>, String)> {
    let name = program(words)?;
    if !SHELLS.contains(&name) || name == "busybox" || words.iter().skip(1).any(|w| is_c(w)) {
        return None;
    }
    let mut with_c = words.to_vec();
    with_c.push("-c".to_owned());
    let note = format!(
        "-s \"{shell}\" runs each command as {} COMMAND, as Hyperfine's --shell does (for {name} given a script file, write the file as the command: \"{name} script.sh\", without -s)",
        with_c.join(" ")
    );
    Some((with_c, note))
}

/// A hint for a `-s` value (already split into words, `-c` added by
/// [`add_c`]) that will not do what a Hyperfine user expects: a shell
/// whose command line is given after `-c`, or a lone word that is not a
/// shell (Hyperfine's `-s` is `--setup`).
pub fn shell_hint(shell: &str, words: &[String]) -> Option<String> {
    let name = program(words)?;
    // Options may follow `-c` (`sh -c -e`); an operand may not, or it is
    // the command line itself (`sh -c 'exit 0'` would run `exit 0` every
    // time, the command only its `$0`).
    let last_c = words.iter().skip(1).rposition(|w| is_c(w)).map(|i| i + 1);
    if let (true, Some(c)) = (SHELLS.contains(&name), last_c) {
        let text: Vec<&str> = words[c + 1..]
            .iter()
            .filter(|w| !w.starts_with('-'))
            .map(String::as_str)
            .collect();
        if !text.is_empty() {
            return Some(format!(
                "-s \"{shell}\" gives {name} its command line itself ({}): each command would be only its $0 and never run; write the shell and its options alone, such as -s \"{}\"",
                text.join(" "),
                words[..=c].join(" ")
            ));
        }
        return None;
    }
    if words.len() == 1 && !SHELLS.contains(&name) {
        return Some(format!(
            "-s \"{shell}\" is not a shell: -s is the shell each command runs in (e.g. -s \"/bin/sh -c\"); for Hyperfine's -s (run once before the runs) write --setup"
        ));
    }
    None
}

/// Hyperfine's `--output WHERE` words, which mean something else for
/// BestGuess's `-o/--output FILE` (the raw data): refused, with what to
/// type instead, rather than creating a file named `null`.
pub fn output_word(path: &str) -> Option<String> {
    let instead = match path {
        "null" => "the commands' output already goes to /dev/null (Hyperfine's --output=null); leave the option out",
        "inherit" => "to let commands write to this terminal (Hyperfine's --output=inherit) use --show-output",
        "pipe" => "feeding the commands' output through a pipe (Hyperfine's --output=pipe) is not supported; their output goes to /dev/null",
        _ => return None,
    };
    Some(format!(
        "-o/--output {path}: -o names the file for BestGuess's raw data (CSV); {instead}; for a file really named {path} write -o ./{path}"
    ))
}

/// Hyperfine options that BestGuess does not have (or has under another
/// letter): what to type instead, for the "unknown option" error.
pub fn unknown_option(option: &str) -> Option<&'static str> {
    Some(match option {
        "-C" | "--conclude" => "Hyperfine's -C/--conclude CMD is --conclude CMD here",
        "--style" => {
            "Hyperfine's --style: BestGuess has one plain style (no colours); -Q prints nothing but errors, and the progress display shows only on a terminal"
        }
        "--input" => {
            "Hyperfine's --input FILE: commands read /dev/null here; to feed a file, use a shell: -s \"/bin/sh -c\" \"CMD < FILE\""
        }
        "-u" | "--time-unit" => {
            "Hyperfine's -u/--time-unit: BestGuess chooses the unit for each figure; the exports keep microseconds or seconds as documented"
        }
        "--sort" => "Hyperfine's --sort: the ranking (-R) orders commands by speed; the summary keeps the input order",
        "--export-csv-runs" | "--export-raw" => "every run's raw data is written by -o/--output FILE",
        _ => return None,
    })
}

/// A value typed after one of BestGuess's switches that Hyperfine takes
/// with a value (`-S SHELL`, `-M N`): a usage error naming what to type,
/// instead of benchmarking `bash` or failing on a command named `10`.
/// `switch` is the letter, `next` the argument that follows it. Only the
/// short forms: `--summary bash` benchmarks bash, as written.
pub fn switch_value(switch: char, next: &str) -> Option<String> {
    match switch {
        'S' => {
            let first = next.split_whitespace().next().unwrap_or("");
            let name = first.rsplit('/').next().unwrap_or(first);
            let shell = SHELLS.contains(&name) || matches!(next, "none" | "default");
            shell.then(|| {
                let instead = match next {
                    "none" => "commands already run without a shell here: leave -S none out".to_owned(),
                    "default" => "for the platform shell write -s \"/bin/sh -c\"".to_owned(),
                    _ => format!("to run the commands in {name} write -s \"{next} -c\""),
                };
                format!(
                    "-S {next}: -S is --summary here, not Hyperfine's -S/--shell; {instead} (to benchmark {next} itself, write --summary)"
                )
            })
        }
        'M' => next.parse::<u64>().is_ok().then(|| {
            format!(
                "-M {next}: -M is --mini-stats here, not Hyperfine's -M/--max-runs; write --max-runs {next} (or -r {next} for exactly {next} runs of each command)"
            )
        }),
        _ => None,
    }
}

/// What `-N` means here, said when it is typed: Hyperfine's `-N` runs
/// without a shell, which BestGuess always does unless `-s` gives one.
pub const NO_STATS_NOTE: &str = "-N turns off the summary here (--no-stats); Hyperfine's -N (no shell) is already how BestGuess runs commands.";

/// The `-c` error for a value without `=` that looks like a command
/// (Hyperfine's `-c/--cleanup CMD`), or `None` when it looks like a
/// setting written wrong.
pub fn cleanup_habit(value: &str) -> Option<String> {
    let looks_like_command = value.contains(' ')
        || value.contains('/')
        || shell_syntax(value).is_some()
        || matches!(value, "true" | "false" | "make" | "rm" | "sync");
    (!value.contains('=') && looks_like_command).then(|| {
        format!(
            "-c '{value}': -c is --set NAME=VALUE here, not Hyperfine's -c/--cleanup; to run it after each command's last run write --cleanup '{value}'"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_syntax_outside_quotes_is_found() {
        for (text, what) in [
            ("echo $HOME | cat", "$"),
            ("ls | wc -l", "|"),
            ("ls > out", ">"),
            ("sort < in", "<"),
            ("true; false", ";"),
            ("make && make test", "&&"),
            ("sleep 1 &", "&"),
            ("echo `date`", "`"),
            ("ls *.rs", "*"),
            ("ls file?.txt", "?"),
            ("ls [ab].txt", "["),
            ("ls ~/src", "~"),
            ("(cd /tmp)", "("),
            ("echo \"$HOME\"", "$"),
        ] {
            let found = shell_syntax(text).unwrap_or_else(|| panic!("nothing in {text}"));
            assert!(found.contains(what), "{text}: {found}");
        }
    }

    #[test]
    fn quoted_and_escaped_characters_are_not_shell_syntax() {
        for text in [
            "grep 'a|b' file",
            "grep \"a|b;c>d\" file",
            "echo \\$HOME \\| x",
            "echo '$HOME'",
            "ls -l /usr/bin",
            "sleep 0.1",
            "echo a~b",
            "make -j {threads}",
            "",
        ] {
            assert_eq!(shell_syntax(text), None, "{text}");
        }
    }

    #[test]
    fn shells_without_c_get_it_and_lone_non_shells_get_hints() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        for (s, want) in [
            ("bash", "bash -c"),
            ("/bin/bash", "/bin/bash -c"),
            ("zsh -f", "zsh -f -c"),
            ("bash --norc", "bash --norc -c"),
        ] {
            let (with_c, note) = add_c(s, &words(s)).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(with_c.join(" "), want);
            assert!(note.contains(&format!("{want} COMMAND")), "{note}");
            assert_eq!(shell_hint(s, &with_c), None, "{s}");
        }
        for s in [
            "/bin/sh -c",
            "bash -c",
            "bash -ec",
            "bash --norc -c",
            "taskset -c 0",
            "busybox",
            "make",
            // Options after -c are options.
            "sh -c -e",
            "bash -o pipefail -c",
        ] {
            assert_eq!(add_c(s, &words(s)), None, "{s}");
        }
        for s in ["/bin/sh -c", "bash -ec", "sh -c -e", "taskset -c 0"] {
            assert_eq!(shell_hint(s, &words(s)), None, "{s}");
        }
        // An operand after -c is the command line itself: every run would
        // run it, the command being only $0.
        let hint = shell_hint("/bin/sh -c true", &words("/bin/sh -c true")).unwrap();
        assert!(
            hint.contains("its command line itself (true)") && hint.contains("-s \"/bin/sh -c\""),
            "{hint}"
        );
        let hint = shell_hint("make", &words("make")).unwrap();
        assert!(hint.contains("--setup"), "{hint}");
    }

    #[test]
    fn hyperfine_output_words_are_refused_with_what_to_type() {
        assert!(output_word("null")
            .unwrap()
            .contains("leave the option out"));
        assert!(output_word("inherit").unwrap().contains("--show-output"));
        assert!(output_word("pipe").unwrap().contains("not supported"));
        assert!(output_word("null").unwrap().contains("-o ./null"));
        assert_eq!(output_word("./null"), None);
        assert_eq!(output_word("raw.csv"), None);
    }

    #[test]
    fn hyperfine_options_get_a_pointer() {
        for (o, says) in [
            ("-C", "--conclude CMD"),
            ("--style", "one plain style"),
            ("--input", "CMD < FILE"),
            ("-u", "chooses the unit"),
        ] {
            assert!(unknown_option(o).unwrap().contains(says), "{o}");
        }
        assert_eq!(unknown_option("--bogus"), None);
    }

    #[test]
    fn hyperfine_values_after_switches_are_refused_with_what_to_type() {
        let e = switch_value('S', "bash").unwrap();
        assert!(
            e.contains("-s \"bash -c\"") && e.contains("--summary"),
            "{e}"
        );
        assert!(switch_value('S', "/bin/zsh")
            .unwrap()
            .contains("-s \"/bin/zsh -c\""));
        assert!(switch_value('S', "none")
            .unwrap()
            .contains("leave -S none out"));
        assert_eq!(switch_value('S', "ls -l"), None);
        let e = switch_value('M', "10").unwrap();
        assert!(e.contains("-r 10"), "{e}");
        assert_eq!(switch_value('M', "sleep 1"), None);
        assert_eq!(switch_value('N', "bash"), None);
    }

    #[test]
    fn a_cleanup_command_after_c_is_recognised() {
        assert!(cleanup_habit("rm -f out.txt")
            .unwrap()
            .contains("--cleanup 'rm -f out.txt'"));
        assert!(cleanup_habit("make").is_some());
        assert_eq!(cleanup_habit("alpha"), None);
        assert_eq!(cleanup_habit("width=80"), None);
    }
}

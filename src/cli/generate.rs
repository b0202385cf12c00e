//! `--generate KIND`: the man page and shell completions, generated from the
//! option table ([`super::flags`]) so they can never disagree with what the
//! parser accepts.
//!
//! Each generator writes plain text for one program: `bestguess` documents
//! and completes every option, `bestreport` only those it accepts. Values are
//! completed from each option's [`Hint`]: file names, command names, a fixed
//! list of words, or nothing for free text (numbers, names).

use std::fmt::Write as _;

use super::flags::{self, Flag, Hint};
use super::help::about;
use super::lowargs::Generate;

impl Generate {
    /// The text for `program` (`running`: it is `bestguess`).
    pub fn render(self, program: &str, running: bool) -> String {
        let flags: Vec<&Flag> = flags::all().iter().filter(|f| f.applies(running)).collect();
        match self {
            Generate::Man => man(program, running, &flags),
            Generate::Bash => bash(program, running, &flags),
            Generate::Zsh => zsh(program, running, &flags),
            Generate::Fish => fish(program, running, &flags),
        }
    }
}

/// Every spelling of a flag, as typed: `-c`, `-x`, `--set`.
fn spellings(f: &Flag) -> Vec<String> {
    f.shorts()
        .map(|c| format!("-{c}"))
        .chain(f.longs().map(|l| format!("--{l}")))
        .collect()
}

/// A shell function name made of the program name.
fn ident(program: &str) -> String {
    program
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

// ---------------------------------------------------------------- man page

/// roff text: backslashes and dashes escaped, anything beyond ASCII as a
/// `\[uXXXX]` escape (troff reads bytes), no line starting with a control
/// character.
fn roff(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => escaped.push_str("\\e"),
            '-' => escaped.push_str("\\-"),
            c if c.is_ascii() => escaped.push(c),
            c => escaped.push_str(&format!("\\[u{:04X}]", c as u32)),
        }
    }
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

/// `text` as a sentence: ending with a full stop, so that what roff
/// joins after it starts a new one.
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// Examples for the man page: a command line and what it does.
fn examples(running: bool) -> &'static [(&'static str, &'static str)] {
    if running {
        &[
            (
                "bestguess \"ls /usr/bin\" \"ls -l /usr/bin\"",
                "Compare two commands: complete rounds in random order until the difference is decided (or 10 s), then the summary and the ranking.",
            ),
            (
                "bestguess -w 2 -r 50 -o raw.csv \"sort data.txt\" \"sort -S 1G data.txt\"",
                "Exactly 50 timed runs of each after 2 warm-up runs, every run saved in raw.csv for bestreport.",
            ),
            (
                "bestguess -s \"/bin/sh -c\" \"grep x big | wc -l\" \"rg x big | wc -l\"",
                "Commands with pipes or redirections need a shell; without -s they run directly.",
            ),
            (
                "bestguess -P threads 1 4 \"make -j {threads}\" -n \"make, {threads} jobs\"",
                "One command for each value of a parameter, named after it.",
            ),
            (
                "bestguess -r 30 --baseline old.csv --fail-if-slower 5 \"./parse big.json\" -n parse",
                "A regression gate: exit with status 3 if parse is slower than in old.csv with the lower bound above +5 %.",
            ),
        ]
    } else {
        &[
            (
                "bestreport raw.csv",
                "The summary and the ranking of saved runs, as bestguess printed them.",
            ),
            (
                "bestreport -B -E --metric wall raw.csv",
                "Box plots and the ranking's statistics, of wall-clock time.",
            ),
            (
                "bestreport --export-html report.html raw.csv",
                "A self-contained page with the results and figures.",
            ),
            (
                "bestreport --baseline old.csv --fail-if-slower 5 new.csv",
                "Compare new runs with a baseline; exit with status 3 on a regression.",
            ),
        ]
    }
}

fn man(program: &str, running: bool, flags: &[&Flag]) -> String {
    let (about, usage) = about(program, running);
    let summary = about.split_once(": ").map_or(about.as_str(), |(_, s)| s);
    let version = env!("CARGO_PKG_VERSION");
    let mut m = String::new();
    let _ = writeln!(
        m,
        ".TH {} 1 \"\" \"{program} {version}\" \"User Commands\"",
        program.to_uppercase()
    );
    let _ = writeln!(m, ".SH NAME\n{} \\- {}", roff(program), roff(summary));
    let args = usage.split_once(' ').map_or("", |(_, a)| a);
    let _ = writeln!(m, ".SH SYNOPSIS\n.B {}\n{}", roff(program), roff(args));
    m.push_str(".SH DESCRIPTION\n");
    m.push_str(&roff(if running {
        "Runs each command many times, records what the kernel measured about every run (CPU time, wall time, peak memory, page faults, context switches, exit status), optionally saves that raw data as CSV, reports on each distribution and ranks the commands with non-parametric statistics. Commands are split into words with POSIX quoting rules and run directly; use -s \"/bin/sh -c\" for shell syntax."
    } else {
        "Reads raw data saved by bestguess -o (or the C BestGuess) and prints the same reports and exports bestguess prints after an experiment."
    }));
    m.push_str("\n.SH OPTIONS\n");
    for f in flags {
        let names: Vec<String> = spellings(f)
            .iter()
            .map(|s| format!("\\fB{}\\fR", roff(s)))
            .collect();
        let values: Vec<String> = f
            .values
            .iter()
            .map(|v| format!(" \\fI{}\\fR", roff(v)))
            .collect();
        let _ = writeln!(
            m,
            ".TP\n{}{}\n{}",
            names.join(", "),
            values.concat(),
            roff(&sentence(&f.help))
        );
        // The values, unless the help already names every one.
        if let Hint::Choices(words) = f.hint {
            if !words.iter().all(|w| f.help.contains(w)) {
                let _ = writeln!(m, "One of: {}.", roff(&words.join(", ")));
            }
        }
    }
    m.push_str(".SH EXIT STATUS\n");
    for (code, meaning) in super::help::EXIT_STATUS {
        let _ = writeln!(m, ".TP\n{}\n{}", roff(code), roff(&sentence(meaning)));
    }
    m.push_str(".SH ENVIRONMENT\n");
    let _ = writeln!(
        m,
        ".TP\nCOLUMNS\n{}",
        roff("The width of the reports and of --help (else the terminal's, else 80 columns).")
    );
    if running {
        let _ = writeln!(
            m,
            ".TP\nTERM\n{}",
            roff("No progress display when it is dumb or empty (nor when standard error is not a terminal).")
        );
    }
    m.push_str(".SH EXAMPLES\n");
    for (command, what) in examples(running) {
        let _ = writeln!(
            m,
            ".PP\n.RS 4\n.nf\n{}\n.fi\n.RE\n{}",
            roff(command),
            roff(what)
        );
    }
    let other = if running { "bestreport" } else { "bestguess" };
    let _ = write!(m, ".SH SEE ALSO\n.BR {other} (1)\n");
    m
}

// ---------------------------------------------------------------- bash

fn bash(program: &str, running: bool, flags: &[&Flag]) -> String {
    let func = format!("_{}", ident(program));
    let mut cases = String::new();
    for f in flags.iter().filter(|f| !f.values.is_empty()) {
        let action = match f.hint {
            // An empty reply falls back to file names (complete -o default).
            Hint::File => "return 0".to_string(),
            Hint::Command => "COMPREPLY=($(compgen -c -- \"$cur\")); return 0".to_string(),
            Hint::Choices(words) => format!(
                "COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return 0",
                words.join(" ")
            ),
            Hint::Text => "COMPREPLY=(); compopt +o default 2>/dev/null; return 0".to_string(),
            // `NAME=`: the value follows without a space.
            Hint::Suggest(words) => format!(
                "COMPREPLY=($(compgen -W '{}' -- \"$cur\")); [[ ${{COMPREPLY[0]}} == *= ]] && compopt -o nospace 2>/dev/null; return 0",
                words().join(" ")
            ),
        };
        let _ = writeln!(
            cases,
            "        {})\n            {action};;",
            spellings(f).join("|")
        );
    }
    let words: Vec<String> = flags.iter().flat_map(|f| spellings(f)).collect();
    let positional = if running {
        "COMPREPLY=($(compgen -c -- \"$cur\"))"
    } else {
        "COMPREPLY=()"
    };
    format!(
        "# bash completion for {program} (generated by {program} --generate complete-bash)\n\
         {func}() {{\n    \
             local cur prev\n    \
             COMPREPLY=()\n    \
             cur=\"${{COMP_WORDS[COMP_CWORD]}}\"\n    \
             prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"\n    \
             case \"$prev\" in\n\
         {cases}    esac\n    \
             if [[ \"$cur\" == -* ]]; then\n        \
                 COMPREPLY=($(compgen -W '{}' -- \"$cur\"))\n        \
                 return 0\n    \
             fi\n    \
             {positional}\n\
         }}\n\
         complete -o default -F {func} {program}\n",
        words.join(" ")
    )
}

// ---------------------------------------------------------------- zsh

/// Text inside a zsh `_arguments` description `[...]`, itself inside single
/// quotes.
fn zsh_text(text: &str) -> String {
    text.replace('\'', "'\\''")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace(':', "\\:")
}

fn zsh(program: &str, running: bool, flags: &[&Flag]) -> String {
    let func = format!("_{}", ident(program));
    let mut specs = String::new();
    for f in flags {
        let takes = !f.values.is_empty();
        let names: Vec<String> = f
            .shorts()
            .map(|c| format!("-{c}{}", if takes { "+" } else { "" }))
            .chain(
                f.longs()
                    .map(|l| format!("--{l}{}", if takes { "=" } else { "" })),
            )
            .collect();
        let names = if names.len() == 1 {
            names[0].clone()
        } else {
            format!("'{{{}}}'", names.join(","))
        };
        let action = match f.hint {
            Hint::File => "_files".to_string(),
            Hint::Command => "_command_names -e".to_string(),
            Hint::Choices(words) => format!("({})", words.join(" ")),
            // `NAME=` is followed by its value, not by a space.
            Hint::Suggest(words) => {
                let words = words();
                let suffix = if words.iter().all(|w| w.ends_with('=')) {
                    "-S \"\" "
                } else {
                    ""
                };
                format!("{{compadd {suffix}-- {}}}", words.join(" "))
            }
            Hint::Text => " ".to_string(),
        };
        let values: String = f
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let a = if i == 0 { action.as_str() } else { " " };
                format!(":{}:{a}", zsh_text(v))
            })
            .collect();
        let _ = writeln!(
            specs,
            "    '*'{names}'[{}]{values}' \\",
            zsh_text(&f.full_help())
        );
    }
    let positional = if running {
        "'*:command:_command_names -e'"
    } else {
        "'*:raw CSV file:_files'"
    };
    format!(
        "#compdef {program}\n\
         # zsh completion for {program} (generated by {program} --generate complete-zsh)\n\
         {func}() {{\n  \
             _arguments -s -S \\\n\
         {specs}    {positional}\n\
         }}\n\
         {func} \"$@\"\n"
    )
}

// ---------------------------------------------------------------- fish

fn fish_text(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

fn fish(program: &str, running: bool, flags: &[&Flag]) -> String {
    let mut out = format!(
        "# fish completion for {program} (generated by {program} --generate complete-fish)\n"
    );
    if running {
        let _ = writeln!(
            out,
            "complete -c {program} -n 'not string match -q -- \"-*\" (commandline -ct)' -a '(__fish_complete_command)'"
        );
    }
    for f in flags {
        let value = match f.hint {
            _ if f.values.is_empty() => String::new(),
            Hint::File => " -r -F".to_string(),
            Hint::Command => " -x -a '(__fish_complete_command)'".to_string(),
            Hint::Choices(words) => format!(" -x -a {}", fish_text(&words.join(" "))),
            Hint::Suggest(words) => format!(" -x -a {}", fish_text(&words().join(" "))),
            Hint::Text => " -x".to_string(),
        };
        let names: String = f
            .shorts()
            .map(|c| format!(" -s {c}"))
            .chain(f.longs().map(|l| format!(" -l {l}")))
            .collect();
        let _ = writeln!(
            out,
            "complete -c {program}{names}{value} -d {}",
            fish_text(&f.help)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_parses_to_its_kind() {
        for (w, g) in Generate::WORDS.iter().zip(Generate::ALL) {
            assert_eq!(Generate::parse(w).unwrap(), g);
        }
        assert!(Generate::parse("complete-tcsh")
            .unwrap_err()
            .0
            .contains("complete-bash"));
    }

    #[test]
    fn roff_escapes_control_characters() {
        assert_eq!(roff("-r N"), "\\-r N");
        assert_eq!(roff(".hidden"), "\\&.hidden");
        assert_eq!(roff("a\\b"), "a\\eb");
        assert_eq!(roff("1 … 3 μs"), "1 \\[u2026] 3 \\[u03BC]s");
    }

    #[test]
    fn man_page_lists_every_flag_of_its_program() {
        for running in [true, false] {
            let page = Generate::Man.render("bestguess", running);
            for f in flags::all() {
                assert_eq!(
                    page.contains(&format!("\\fB\\-\\-{}\\fR", roff(f.long))),
                    f.applies(running),
                    "--{}",
                    f.long
                );
                for a in &f.long_aliases {
                    assert_eq!(page.contains(&roff(a)), f.applies(running), "--{a}");
                }
            }
        }
    }

    #[test]
    fn completions_offer_every_spelling() {
        for g in [Generate::Bash, Generate::Zsh, Generate::Fish] {
            let text = g.render("bestreport", false);
            for f in flags::all().iter().filter(|f| f.applies(false)) {
                let found = match g {
                    Generate::Fish => text.contains(&format!(" -l {} ", f.long)),
                    _ => text.contains(&format!("--{}", f.long)),
                };
                assert!(found, "{g:?}: --{}", f.long);
            }
            assert!(!text.contains("--warmup"), "{g:?} offers a run option");
        }
    }
}

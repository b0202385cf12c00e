//! Command files (`-f FILE`): one command per line.
//!
//! A line `-n NAME`, `--name NAME` or `--name=NAME` (also `-n=NAME`) names
//! the command on the line before it; quotes around NAME are removed. Blank
//! lines are skipped; CRLF line ends and a missing final newline are fine.
//! Lines are command strings exactly like command-line arguments: they are
//! split into words (or given to `-s`), never passed to a shell implicitly.

use super::args::{name_last, CommandArg};
use super::UsageError;

/// Parse the text of a command file named `path` (for messages).
pub fn parse(path: &str, text: &str) -> Result<Vec<CommandArg>, UsageError> {
    let mut commands = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        if let Some(name) = name_line(line) {
            name_last(&mut commands, name.to_string())
                .map_err(|e| UsageError(format!("{path}, line {}: {}", i + 1, e.0)))?;
        } else {
            commands.push(CommandArg {
                text: line.to_string(),
                name: None,
            });
        }
    }
    Ok(commands)
}

/// The name, if `line` is a name line.
fn name_line(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let rest = ["--name", "-n"].iter().find_map(|opt| {
        let rest = trimmed.strip_prefix(opt)?;
        match rest.chars().next() {
            Some(' ' | '\t' | '=') => Some(&rest[1..]),
            _ => None,
        }
    })?;
    let name = rest.trim();
    for q in ['"', '\''] {
        if name.len() >= 2 && name.starts_with(q) && name.ends_with(q) {
            return Some(&name[1..name.len() - 1]);
        }
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, Option<String>)> {
        parse("f", text)
            .unwrap()
            .into_iter()
            .map(|c| (c.text, c.name))
            .collect()
    }

    #[test]
    fn every_name_spelling_and_quotes() {
        let text =
            "ls\n-n list\nps\n--name \"pi to 2000 digits\"\ntrue\n--name=done\nfalse\n-n='x y'\n";
        assert_eq!(
            pairs(text),
            [
                ("ls".into(), Some("list".into())),
                ("ps".into(), Some("pi to 2000 digits".into())),
                ("true".into(), Some("done".into())),
                ("false".into(), Some("x y".into())),
            ]
        );
    }

    #[test]
    fn crlf_blank_lines_and_no_final_newline() {
        assert_eq!(
            pairs("a\r\n\r\n   \r\nb\r\n-n B\r\nc"),
            [
                ("a".into(), None),
                ("b".into(), Some("B".into())),
                ("c".into(), None)
            ]
        );
    }

    #[test]
    fn a_name_needs_a_command_before_it() {
        let e = parse("cmds.txt", "\n-n orphan\nls\n").unwrap_err();
        assert!(
            e.0.starts_with("cmds.txt, line 2: name 'orphan' must follow a command"),
            "{}",
            e.0
        );
        let e = parse("cmds.txt", "ls\n-n a\n-n b\n").unwrap_err();
        assert!(e.0.contains("line 3"), "{}", e.0);
    }

    #[test]
    fn commands_that_merely_start_with_n_are_commands() {
        assert_eq!(
            pairs("-nope\nnice ls\n"),
            [("-nope".into(), None), ("nice ls".into(), None)]
        );
    }
}

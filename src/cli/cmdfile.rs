//! Command files (`-f FILE`): one command per line.
//!
//! A line `-n NAME`, `--name NAME` or `--name=NAME` (also `-n=NAME`) names
//! the command on the line before it; quotes around NAME are removed (a
//! bare `-n` is an error naming the line). Blank lines and comments (lines
//! whose first non-blank character is `#`: no command starts so, and under
//! `-s` one would be measured as a command) are skipped; CRLF line ends
//! and a missing final newline are fine. `-f -` reads standard input.
//! Lines are command strings exactly like command-line arguments: they are
//! split into words (or given to `-s`), never passed to a shell implicitly.
//!
//! The file must be UTF-8 text: a leading byte-order mark is ignored, and an
//! invalid byte or a control character (NUL, escape, a lone carriage
//! return…; tabs are fine) is an error naming the line and the byte, rather
//! than a command that later "is not found".

use super::lowargs::{name_last, CommandArg};
use super::UsageError;

/// Parse the bytes of a command file named `path` (for messages).
pub fn parse_bytes(path: &str, bytes: &[u8]) -> Result<Vec<CommandArg>, UsageError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(path, text),
        Err(e) => {
            let (before, after) = bytes.split_at(e.valid_up_to());
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
            Err(UsageError(format!(
                "{path}, line {line}: byte 0x{:02X} at column {column} is not UTF-8 text; save the command file as UTF-8",
                after[0]
            )))
        }
    }
}

/// Where `text` holds a control character other than those `allowed`:
/// its column (in characters, from 1) and the character.
pub fn control_char(text: &str, allowed: &[char]) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !allowed.contains(c))
        .map(|(i, c)| (i + 1, c))
}

/// How a message names a control character: `U+0000 (NUL)`.
pub fn describe_control(c: char) -> String {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    let code = c as u32;
    match C0.get(code as usize) {
        Some(name) => format!("U+{code:04X} ({name})"),
        None if code == 0x7F => "U+007F (DEL)".to_string(),
        None => format!("U+{code:04X}"),
    }
}

/// Parse the text of a command file named `path` (for messages).
pub fn parse(path: &str, text: &str) -> Result<Vec<CommandArg>, UsageError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut commands = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((column, c)) = control_char(line, &['\t']) {
            return Err(UsageError(format!(
                "{path}, line {}: control character {} at column {column}; a command file holds one command per line as plain text",
                i + 1,
                describe_control(c)
            )));
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if matches!(line.trim(), "-n" | "--name") {
            return Err(UsageError(format!(
                "{path}, line {}: '{}' names nothing: give the name after it (-n NAME)",
                i + 1,
                line.trim()
            )));
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
    fn comments_are_skipped_and_a_bare_name_option_is_an_error() {
        assert_eq!(
            pairs("# sort benchmarks\nsort a\n  # disabled: sort -r a\n-n s\n"),
            [("sort a".into(), Some("s".into()))]
        );
        let e = parse("cmds.txt", "ls\n-n\n").unwrap_err();
        assert_eq!(
            e.0,
            "cmds.txt, line 2: '-n' names nothing: give the name after it (-n NAME)"
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
    fn a_byte_order_mark_is_ignored() {
        assert_eq!(
            parse_bytes("f", b"\xEF\xBB\xBFls\n-n list\n").unwrap(),
            [CommandArg {
                text: "ls".into(),
                name: Some("list".into())
            }]
        );
    }

    #[test]
    fn control_characters_and_bad_bytes_name_the_line() {
        let e = parse_bytes("cmds.txt", b"ls\n\necho a\0b\n").unwrap_err();
        assert_eq!(
            e.0,
            "cmds.txt, line 3: control character U+0000 (NUL) at column 7; a command file holds one command per line as plain text"
        );
        let e = parse("cmds.txt", "ls\r\nx\x1b[1m\r\n").unwrap_err();
        assert!(
            e.0.starts_with("cmds.txt, line 2: control character U+001B (ESC) at column 2"),
            "{}",
            e.0
        );
        let e = parse("f", "a\rb\n").unwrap_err();
        assert!(
            e.0.contains("U+000D (CR)"),
            "a lone CR is not a line end: {}",
            e.0
        );
        let e = parse_bytes("f", b"ls\nab\xFFc\n").unwrap_err();
        assert_eq!(
            e.0,
            "f, line 2: byte 0xFF at column 3 is not UTF-8 text; save the command file as UTF-8"
        );
        assert_eq!(pairs("a\tb\n"), [("a\tb".into(), None)], "tabs are fine");
    }

    #[test]
    fn commands_that_merely_start_with_n_are_commands() {
        assert_eq!(
            pairs("-nope\nnice ls\n"),
            [("-nope".into(), None), ("nice ls".into(), None)]
        );
    }
}

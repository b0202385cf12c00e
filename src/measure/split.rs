//! Splitting a command string into words, with POSIX shell quoting rules.
//!
//! Without `-s`, BestGuess runs a command directly (no shell), so it must do
//! the one part of a shell's job that users rely on: word splitting and quote
//! removal (POSIX.1-2017, XCU 2.2 "Quoting"). Nothing is expanded: no
//! variables, globs, redirections or pipes — use `-s "/bin/sh -c"` for those.
//!
//! - Words are separated by unquoted blanks (space, tab, newline).
//! - `'…'` preserves everything literally up to the next `'`.
//! - `"…"` preserves everything except `\` before `"`, `\`, `$`, `` ` `` or a
//!   newline, which escapes it (backslash-newline is removed).
//! - An unquoted `\` escapes the next character; backslash-newline is removed;
//!   a final lone `\` is kept literally.
//! - `""` and `''` make an empty word.
//!
//! The splitter is a single forward pass over the characters, so it always
//! terminates (C BestGuess loops forever on a backslash).

/// The command has a quote that is never closed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unbalanced {quote} quote in command: {command}")]
pub struct SplitError {
    pub quote: &'static str,
    pub command: String,
}

/// Split `command` into words (see the module docs for the rules).
pub fn split(command: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once any character or quote has been seen, so that `""`
    // yields an empty word.
    let mut in_word = false;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(unbalanced("single", command)),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&next @ ('"' | '\\' | '$' | '`')) => {
                                word.push(next);
                                chars.next();
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(unbalanced("double", command)),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(next) => {
                    in_word = true;
                    word.push(next);
                }
                None => {
                    in_word = true;
                    word.push('\\');
                }
            },
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn unbalanced(quote: &'static str, command: &str) -> SplitError {
    SplitError {
        quote,
        command: command.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split(s).unwrap()
    }

    #[test]
    fn blanks_separate_words_and_runs_of_blanks_count_once() {
        assert_eq!(words("  ls \t -l\n/tmp  "), ["ls", "-l", "/tmp"]);
        assert!(words("").is_empty());
        assert!(words("   ").is_empty());
    }

    #[test]
    fn quotes_are_removed_and_join_adjacent_text() {
        assert_eq!(words(r#"echo "foo bar" baz"#), ["echo", "foo bar", "baz"]);
        assert_eq!(words("'a b'c d"), ["a bc", "d"]);
        assert_eq!(words(r#""a""b" c"#), ["ab", "c"]);
        assert_eq!(words(r#"a"b c"d"#), ["ab cd"]);
        assert_eq!(words(r#"x "" '' y"#), ["x", "", "", "y"]);
    }

    #[test]
    fn backslash_escapes_follow_posix() {
        assert_eq!(words(r"ls a\b"), ["ls", "ab"]);
        assert_eq!(words(r"a\ b"), ["a b"]);
        assert_eq!(words(r"a\\b"), [r"a\b"]);
        assert_eq!(words("a\\\nb"), ["ab"]);
        assert_eq!(words(r#""x\"y\\z\n""#), [r#"x"y\z\n"#]);
        assert_eq!(words(r"'a\b'"), [r"a\b"]);
        assert_eq!(words(r"trailing\"), [r"trailing\"]);
    }

    #[test]
    fn nothing_is_expanded() {
        assert_eq!(words("echo $HOME *.rs"), ["echo", "$HOME", "*.rs"]);
    }

    #[test]
    fn unbalanced_quotes_are_errors() {
        let e = split(r#"echo "unterminated"#).unwrap_err();
        assert_eq!(e.quote, "double");
        assert!(e.to_string().contains("echo \"unterminated"));
        assert_eq!(split("it's").unwrap_err().quote, "single");
    }

    #[test]
    fn unicode_is_kept_intact() {
        assert_eq!(words("écho 'naïve ⛄'"), ["écho", "naïve ⛄"]);
    }
}

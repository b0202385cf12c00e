//! The Org-mode export (`--export-orgmode`): the
//! [document](super::document) as an Org table and paragraphs.
//!
//! Labels are verbatim (`=…=`, or `~…~` when the label holds a `=`). Org
//! has no escape inside verbatim text and splits table rows at every `|`,
//! so a label that cannot be verbatim as it is gets the documented Org
//! remedy: a zero-width space where a marker would otherwise end it early,
//! and in a table cell a `|` is written `\vert{}` (the label is then plain
//! text, as Org cannot show `|` inside a verbatim cell).

use super::document::Align;
use super::markup::Markup;

/// Emacs Org mode.
pub struct OrgMode;

const ZWSP: char = '\u{200B}';

impl Markup for OrgMode {
    fn code(&self, text: &str, in_table: bool) -> String {
        if in_table && text.contains('|') {
            return text.replace('|', "\\vert{}");
        }
        let clean = !text.is_empty() && text.trim() == text;
        if clean && !text.contains('=') {
            format!("={text}=")
        } else if clean && !text.contains('~') {
            format!("~{text}~")
        } else {
            // A zero-width space after every `=` inside and around blank
            // ends keeps each `=` from closing the span.
            let mut inner = String::new();
            if text.starts_with(char::is_whitespace) || text.is_empty() {
                inner.push(ZWSP);
            }
            for c in text.chars() {
                inner.push(c);
                if c == '=' {
                    inner.push(ZWSP);
                }
            }
            if text.ends_with(char::is_whitespace) {
                inner.push(ZWSP);
            }
            format!("={inner}=")
        }
    }

    fn strong(&self, text: &str) -> String {
        format!("*{text}*")
    }

    fn text(&self, text: &str, in_table: bool) -> String {
        if in_table {
            text.replace('|', "\\vert{}")
        } else {
            text.to_owned()
        }
    }

    fn table(&self, columns: &[(String, Align)], rows: &[Vec<String>]) -> String {
        let row = |cells: &mut dyn Iterator<Item = String>| {
            let cells: Vec<String> = cells.collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut t = row(&mut columns.iter().map(|(h, _)| self.text(h, true)));
        t.push_str(&format!("|{}|\n", vec!["---"; columns.len()].join("+")));
        for r in rows {
            t.push_str(&row(&mut r.iter().cloned()));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_stay_verbatim_and_inside_their_cell() {
        assert_eq!(OrgMode.code("ls -l", true), "=ls -l=");
        assert_eq!(OrgMode.code("a=1 b", true), "~a=1 b~");
        assert_eq!(OrgMode.code("a=b ~c", false), "=a=\u{200B}b ~c=");
        assert_eq!(OrgMode.code(" x", false), "=\u{200B} x=");
        assert_eq!(OrgMode.code("a|b", true), "a\\vert{}b");
        assert_eq!(OrgMode.code("a|b", false), "=a|b=");
    }
}

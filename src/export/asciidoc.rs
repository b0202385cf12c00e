//! The AsciiDoc export (`--export-asciidoc`): the
//! [document](super::document) as an AsciiDoc table and paragraphs, as
//! Asciidoctor renders them.
//!
//! Labels are literal monospace (`` `+…+` ``, or a `pass:c[…]` passthrough
//! when the label holds a `+` or begins or ends with a blank, which `+…+`
//! does not take literally), so no character in a command is taken as
//! markup; a `|` in a table cell is escaped as `\|` so it cannot end the
//! cell.

use super::document::Align;
use super::markup::Markup;

/// AsciiDoc (Asciidoctor).
pub struct AsciiDoc;

impl Markup for AsciiDoc {
    fn code(&self, text: &str, in_table: bool) -> String {
        let blank_end = text.is_empty()
            || text.starts_with(char::is_whitespace)
            || text.ends_with(char::is_whitespace);
        let inner = if text.contains('+') || blank_end {
            format!("pass:c[{}]", text.replace(']', "\\]"))
        } else {
            format!("+{text}+")
        };
        cell_safe(&format!("`{inner}`"), in_table)
    }

    fn strong(&self, text: &str) -> String {
        format!("*{text}*")
    }

    fn text(&self, text: &str, in_table: bool) -> String {
        cell_safe(text, in_table)
    }

    fn list_item(&self, item: &str) -> String {
        format!("* {item}")
    }

    fn table(&self, columns: &[(String, Align)], rows: &[Vec<String>]) -> String {
        let cols: Vec<&str> = columns
            .iter()
            .map(|(_, a)| match a {
                Align::Left => "<",
                Align::Right => ">",
            })
            .collect();
        let mut t = format!("[cols=\"{}\",options=\"header\"]\n|===\n", cols.join(","));
        let header: Vec<String> = columns.iter().map(|(h, _)| cell_safe(h, true)).collect();
        t.push_str(&row(&header));
        for r in rows {
            t.push('\n');
            t.push_str(&row(r));
        }
        t.push_str("|===\n");
        t
    }
}

/// One table row: every cell on its own line.
fn row(cells: &[String]) -> String {
    cells.iter().map(|c| format!("| {c}\n")).collect()
}

fn cell_safe(text: &str, in_table: bool) -> String {
    if in_table {
        text.replace('|', "\\|")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_literal_and_cannot_end_a_cell() {
        assert_eq!(AsciiDoc.code("ls -l", true), "`+ls -l+`");
        assert_eq!(AsciiDoc.code("a|b", true), "`+a\\|b+`");
        assert_eq!(AsciiDoc.code("a|b", false), "`+a|b+`");
        assert_eq!(AsciiDoc.code("c++ [x]", false), "`pass:c[c++ [x\\]]`");
        assert_eq!(AsciiDoc.code(" lead", false), "`pass:c[ lead]`");
        assert_eq!(AsciiDoc.code("~t~ =v= ", true), "`pass:c[~t~ =v= ]`");
    }
}

//! The Org-mode export (`--export-orgmode`): the
//! [document](super::document) as an Org table and paragraphs.
//!
//! Labels are verbatim (`=…=`, or `~…~` when the label holds a `=`). Org
//! has no escape inside verbatim text, which must not begin or end with a
//! blank, and splits table rows at every `|`; a label that cannot be
//! verbatim as it is becomes, outside a table, an inline source block
//! (`src_text[:exports code]{…}`, shown as code, its text untouched) when
//! its braces are balanced, and otherwise (and in a table cell, where Org
//! takes no source block) plain text in which every character Org could
//! read as markup is its Org entity (`\vert{}` for `|`, `\under{}` for `_`,
//! …) or, for `*` and `\`, which have none, is followed by a zero-width
//! space (the Org manual's escape): the same characters, though not in a
//! code font, and blanks at the ends of a table cell are trimmed by Org.

use super::document::Align;
use super::markup::Markup;

/// Emacs Org mode.
pub struct OrgMode;

impl Markup for OrgMode {
    fn code(&self, text: &str, in_table: bool) -> String {
        let clean = !text.is_empty() && text.trim() == text;
        if clean && !(in_table && text.contains('|')) {
            if !text.contains('=') {
                return format!("={text}=");
            }
            if !text.contains('~') {
                return format!("~{text}~");
            }
        }
        if !in_table && !text.is_empty() && balanced_braces(text) {
            return format!("src_text[:exports code]{{{text}}}");
        }
        entities(text)
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

/// Whether every `}` closes an earlier `{` and every `{` is closed (an
/// inline source block's text ends at the `}` that balances its `{`).
fn balanced_braces(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// `text` as plain Org text that shows each of its characters: those Org
/// reads as markup (emphasis, sub- and superscripts, entities, LaTeX,
/// table cells) as their entities, or followed by a zero-width space.
fn entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let entity = match c {
            '|' => "vert",
            '_' => "under",
            '^' => "asciicirc",
            '=' => "equal",
            '~' => "tilde",
            '/' => "slash",
            '+' => "plus",
            '$' => "dollar",
            // No entity shows these as themselves (`\ast{}` is ∗): the
            // Org manual's escape, a zero-width space after them, keeps
            // them from starting bold text, an entity or a LaTeX command.
            '*' | '\\' => {
                out.push(c);
                out.push('\u{200B}');
                continue;
            }
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push('\\');
        out.push_str(entity);
        out.push_str("{}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_stay_verbatim_and_inside_their_cell() {
        assert_eq!(OrgMode.code("ls -l", true), "=ls -l=");
        assert_eq!(OrgMode.code("a=1 b", true), "~a=1 b~");
        assert_eq!(OrgMode.code("a|b", false), "=a|b=");
        // Not verbatim: an inline source block outside a table.
        let src = |t: &str| format!("src_text[:exports code]{{{t}}}");
        assert_eq!(OrgMode.code("a=b ~c", false), src("a=b ~c"));
        assert_eq!(OrgMode.code(" lead", false), src(" lead"));
        assert_eq!(OrgMode.code("~t~ =v= ", false), src("~t~ =v= "));
        assert_eq!(OrgMode.code("f {x}", false), "=f {x}=");
        // Entities in a table cell, or where braces would end the block.
        assert_eq!(OrgMode.code("x_y|z", true), "x\\under{}y\\vert{}z");
        assert_eq!(OrgMode.code("a=b ~c", true), "a\\equal{}b \\tilde{}c");
        assert_eq!(OrgMode.code(" a}=~", false), " a}\\equal{}\\tilde{}");
        assert_eq!(
            OrgMode.code("*^/+$\\|", true),
            "*\u{200B}\\asciicirc{}\\slash{}\\plus{}\\dollar{}\\\u{200B}\\vert{}"
        );
        assert_eq!(OrgMode.code("", false), "");
    }
}

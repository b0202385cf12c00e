//! The Markdown export (`--export-markdown`): the [document](super::document)
//! as a GitHub-flavoured Markdown table and paragraphs, for a README or a
//! pull request.
//!
//! Labels are code spans that survive any text: the fence is longer than
//! any run of backticks inside, and in a table cell `|` is escaped so it
//! cannot end the cell (GitHub renders `\|` in a code span in a table as
//! `|`; outside a table a backslash in a code span is literal, so there
//! `|` stays as it is).

use super::document::Align;
use super::markup::Markup;

/// GitHub-flavoured Markdown.
pub struct Markdown;

impl Markup for Markdown {
    fn code(&self, text: &str, in_table: bool) -> String {
        if in_table {
            code(&text.replace('|', "\\|"))
        } else {
            code(text)
        }
    }

    fn strong(&self, text: &str) -> String {
        format!("**{text}**")
    }

    fn table(&self, columns: &[(String, Align)], rows: &[Vec<String>]) -> String {
        let row = |cells: &mut dyn Iterator<Item = &str>| {
            let cells: Vec<&str> = cells.collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut t = row(&mut columns.iter().map(|(h, _)| h.as_str()));
        let rule: Vec<&str> = columns
            .iter()
            .map(|(_, a)| match a {
                Align::Left => ":---",
                Align::Right => "---:",
            })
            .collect();
        t.push_str(&format!("|{}|\n", rule.join("|")));
        for r in rows {
            t.push_str(&row(&mut r.iter().map(String::as_str)));
        }
        t
    }
}

/// `text` as a Markdown code span.
fn code(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A code span strips one space from each end when both are spaces (and
    // the text is not all spaces), and a backtick at either end would join
    // the fence: pad with a space in those cases.
    let spaced = text.starts_with(' ') && text.ends_with(' ') && text.trim() != "";
    let pad = if text.starts_with('`') || text.ends_with('`') || spaced {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks_and_pipes() {
        assert_eq!(Markdown.code("ls -l", true), "`ls -l`");
        assert_eq!(Markdown.code("a|b", true), "`a\\|b`");
        assert_eq!(Markdown.code("a|b", false), "`a|b`");
        assert_eq!(code("echo `date`"), "`` echo `date` ``");
        assert_eq!(code("a``b"), "```a``b```");
        assert_eq!(code(" a "), "`  a  `");
        assert_eq!(code(" "), "` `");
    }
}

//! Markup languages as thin layers over the [`Document`].
//!
//! A [`Markup`] says how a code span, strong text, a list item and a table
//! are spelled; [`write`](fn@write) walks the document and separates blocks with a
//! blank line. Everything else (what the document says) is decided once in
//! [`super::document`], as in Hyperfine's `MarkupExporter`. Every markup
//! writes any text so that it cannot break its structure: a label never
//! ends a table cell, a code span or a line early.

use std::io::{self, Write};

use super::document::{Align, Block, Document, Inline, Line, Table};
use crate::analysis::Analysis;

/// How one markup language spells the document's parts.
pub trait Markup {
    /// Text shown verbatim as code; `in_table` when it is a table cell.
    fn code(&self, text: &str, in_table: bool) -> String;

    /// Emphasised text.
    fn strong(&self, text: &str) -> String;

    /// Plain text (ours: numbers and fixed words); `in_table` as for
    /// [`Markup::code`].
    fn text(&self, text: &str, in_table: bool) -> String {
        let _ = in_table;
        text.to_owned()
    }

    /// One item of a bulleted list.
    fn list_item(&self, item: &str) -> String {
        format!("- {item}")
    }

    /// The whole table, each line ending in `\n`; `cells` are already
    /// marked up.
    fn table(&self, columns: &[(String, Align)], rows: &[Vec<String>]) -> String;
}

/// Renders a line of inline elements.
fn line(markup: &dyn Markup, line: &Line, in_table: bool) -> String {
    line.iter()
        .map(|inline| match inline {
            Inline::Text(t) => markup.text(t, in_table),
            Inline::Code(t) => markup.code(&one_line(t), in_table),
            Inline::Strong(t) => markup.strong(t),
        })
        .collect()
}

/// Control characters (and line separators, bidirectional formatting:
/// [`crate::report::text::shown_as_space`]) inside a label become spaces,
/// as in the terminal's reports: line breaks (how every markup renders them inside a code span
/// anyway), tabs, and ESC, which would reach the file as is (`cat
/// report.md` would then run the label's terminal escapes).
fn one_line(text: &str) -> String {
    crate::report::text::clean(text).into_owned()
}

/// Writes `document` in `markup`, blocks separated by blank lines.
pub fn write_document(
    markup: &dyn Markup,
    document: &Document,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for (k, block) in document.blocks.iter().enumerate() {
        if k > 0 {
            out.write_all(b"\n")?;
        }
        match block {
            Block::Table(Table { columns, rows }) => {
                let cells: Vec<Vec<String>> = rows
                    .iter()
                    .map(|row| row.iter().map(|c| line(markup, c, true)).collect())
                    .collect();
                out.write_all(markup.table(columns, &cells).as_bytes())?;
            }
            Block::Paragraph(l) => writeln!(out, "{}", line(markup, l, false))?,
            Block::List(items) => {
                for item in items {
                    writeln!(out, "{}", markup.list_item(&line(markup, item, false)))?;
                }
            }
        }
    }
    out.flush()
}

/// Builds the document of `analysis` and writes it in `markup`.
pub fn write(markup: &dyn Markup, analysis: &Analysis<'_>, out: &mut dyn Write) -> io::Result<()> {
    write_document(markup, &Document::build(analysis), out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::asciidoc::AsciiDoc;
    use crate::export::markdown::Markdown;
    use crate::export::orgmode::OrgMode;

    #[test]
    fn control_characters_in_labels_become_spaces_in_every_markup() {
        let label = vec![Inline::Code("red\u{1b}[31m\ttab\r\nnext\u{7f}".into())];
        for markup in [&Markdown as &dyn Markup, &AsciiDoc, &OrgMode] {
            for in_table in [false, true] {
                let text = line(markup, &label, in_table);
                assert!(!text.chars().any(char::is_control), "{text:?}");
                assert!(text.contains("red [31m tab  next "), "{text:?}");
            }
        }
        // A right-to-left override and a line separator: shown as spaces.
        let label = vec![Inline::Code("a\u{202E}b\u{2028}c".into())];
        for markup in [&Markdown as &dyn Markup, &AsciiDoc, &OrgMode] {
            assert!(line(markup, &label, false).contains("a b c"));
        }
    }
}

//! A box with rounded corners around lines of text (the `-D`, `-T` and `-E`
//! legend tables).
//!
//! Callers compose each line from padded cells; the frame only pads lines to
//! a common display width and draws the border, so its right edge is
//! straight whatever the text. A line wider than the requested inner width
//! is broken onto further lines inside the frame, its continuation indented
//! to its second cell ([`super::text::wrap_hanging`]), so a frame never
//! grows past the width it was given and no text is cut.

use std::io::{self, Write};

use super::text::{pad, wrap_hanging, Align};

/// The inner width of a frame indented `indent` columns in a report
/// `width` columns wide: C BestGuess's 76 at 80 columns, narrower below
/// (never under 20), and no wider above.
pub fn inner_for(width: usize, indent: usize) -> usize {
    width.saturating_sub(indent + 2).clamp(20, 76)
}

/// Lines of text to print inside a frame.
#[derive(Debug, Clone)]
pub struct Frame {
    inner: usize,
    lines: Vec<(String, Align)>,
}

impl Frame {
    /// An empty frame whose lines are `inner` columns wide (78 − 2 for C
    /// BestGuess's 78-column tables). See [`inner_for`].
    pub fn new(inner: usize) -> Frame {
        Frame {
            inner,
            lines: Vec::new(),
        }
    }

    /// A line centred in the frame.
    pub fn title(&mut self, text: &str) {
        self.lines.push((text.to_owned(), Align::Center));
    }

    /// A line as given (padded on the right).
    pub fn line(&mut self, text: impl Into<String>) {
        self.lines.push((text.into(), Align::Left));
    }

    /// An empty line.
    pub fn blank(&mut self) {
        self.lines.push((String::new(), Align::Left));
    }

    /// Writes the frame, each line preceded by `indent` spaces.
    pub fn write(&self, out: &mut dyn Write, indent: usize) -> io::Result<()> {
        let inner = self.inner.max(1);
        let margin = " ".repeat(indent);
        let rule = "─".repeat(inner);
        writeln!(out, "{margin}╭{rule}╮")?;
        for (line, align) in &self.lines {
            for part in wrap_hanging(line, inner) {
                writeln!(out, "{margin}│{}│", pad(&part, inner, *align))?;
            }
        }
        writeln!(out, "{margin}╰{rule}╯")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn border_stays_straight_with_wide_text() {
        let mut f = Frame::new(10);
        f.title("日本");
        f.line("ab");
        f.blank();
        f.line("twelve chars");
        let mut out = Vec::new();
        f.write(&mut out, 2).unwrap();
        let text = String::from_utf8(out).unwrap();
        let widths: Vec<usize> = text.lines().map(crate::report::text::width).collect();
        assert_eq!(widths, [14; 7], "{text}");
        assert!(text.starts_with("  ╭──────────╮\n  │   日本   │\n"));
        assert!(text.contains("│twelve    │\n  │chars     │"), "{text}");
    }
}

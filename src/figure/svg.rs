//! A small SVG writer: just the elements the figures use, into a `String`.
//!
//! Every coordinate goes through [`num`], which rounds to 0.1 px (so a
//! million points stay small) and turns anything non-finite into 0, so no
//! figure can ever contain `NaN` or `inf`, whatever the data. Every text goes
//! through [`escape`].

use std::fmt::Write as _;

/// A coordinate or length as SVG text: one decimal at most, never NaN/inf.
pub fn num(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text escaped for SVG/HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Horizontal anchor of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn attr(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An SVG document being written.
pub struct Svg {
    buf: String,
    open: Vec<&'static str>,
}

impl Svg {
    /// A new figure of `width` × `height` px with a title (the first child,
    /// so screen readers and browsers' tooltips name it) and a description.
    pub fn new(id: &str, width: f64, height: f64, title: &str, desc: &str) -> Svg {
        let mut buf = String::with_capacity(16 * 1024);
        let _ = write!(
            buf,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{id}\" class=\"figure\" \
             width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
             aria-labelledby=\"{id}-title\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <title id=\"{id}-title\">{t}</title>\n<desc>{d}</desc>\n",
            id = escape(id),
            w = num(width),
            h = num(height),
            t = escape(title),
            d = escape(desc),
        );
        buf.push_str(&format!(
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
            num(width),
            num(height)
        ));
        Svg {
            buf,
            open: vec!["svg"],
        }
    }

    /// Opens a group with a class (and optional extra attributes, already
    /// formatted).
    pub fn group(&mut self, class: &str, extra: &str) {
        let _ = writeln!(self.buf, "<g class=\"{}\"{extra}>", escape(class));
        self.open.push("g");
    }

    /// Closes the innermost group.
    pub fn end(&mut self) {
        if self.open.len() > 1 {
            let tag = self.open.pop().unwrap_or("g");
            let _ = writeln!(self.buf, "</{tag}>");
        }
    }

    /// A text element.
    pub fn text(&mut self, x: f64, y: f64, anchor: Anchor, extra: &str, content: &str) {
        let _ = writeln!(
            self.buf,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{extra}>{}</text>",
            num(x),
            num(y),
            anchor.attr(),
            escape(content)
        );
    }

    /// A text rotated by -90° about its position (for a vertical axis label).
    pub fn vertical_text(&mut self, x: f64, y: f64, extra: &str, content: &str) {
        let (x, y) = (num(x), num(y));
        let _ = writeln!(
            self.buf,
            "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" transform=\"rotate(-90 {x} {y})\"{extra}>{}</text>",
            escape(content)
        );
    }

    /// A line segment.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, extra: &str) {
        let _ = writeln!(
            self.buf,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{extra}/>",
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }

    /// A rectangle (negative sizes are normalised).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, extra: &str) {
        let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let _ = writeln!(
            self.buf,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{extra}/>",
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A circle.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, extra: &str) {
        let _ = writeln!(
            self.buf,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{extra}/>",
            num(cx),
            num(cy),
            num(r)
        );
    }

    /// A path with data built by [`PathData`].
    pub fn path(&mut self, d: &PathData, extra: &str) {
        if d.0.is_empty() {
            return;
        }
        let _ = writeln!(self.buf, "<path d=\"{}\"{extra}/>", d.0.trim_end());
    }

    /// Finishes the document (closing anything left open).
    pub fn finish(mut self) -> String {
        while let Some(tag) = self.open.pop() {
            let _ = writeln!(self.buf, "</{tag}>");
        }
        self.buf
    }
}

/// Path data (`d` attribute), built command by command.
#[derive(Default)]
pub struct PathData(String);

impl PathData {
    pub fn new() -> PathData {
        PathData::default()
    }

    pub fn move_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.0, "M{} {}", num(x), num(y));
        self
    }

    pub fn line_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.0, "L{} {}", num(x), num(y));
        self
    }

    pub fn horizontal_to(&mut self, x: f64) -> &mut Self {
        let _ = write!(self.0, "H{}", num(x));
        self
    }

    pub fn vertical_to(&mut self, y: f64) -> &mut Self {
        let _ = write!(self.0, "V{}", num(y));
        self
    }

    pub fn close(&mut self) -> &mut Self {
        self.0.push('Z');
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_non_finite() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.26), "1.3");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
        assert_eq!(num(-2.5), "-2.5");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }

    #[test]
    fn groups_are_closed_at_the_end() {
        let mut s = Svg::new("f", 10.0, 10.0, "T", "D");
        s.group("a", "");
        s.group("b", "");
        s.end();
        let out = s.finish();
        assert!(out.ends_with("</g>\n</g>\n</svg>\n"));
        assert!(out.contains("<title id=\"f-title\">T</title>"));
    }
}

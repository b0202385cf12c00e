//! Text measured in terminal columns, not bytes or code points.
//!
//! Command names and labels come from users and raw files: CJK names are two
//! columns per character, emoji sequences are two columns for several code
//! points, combining marks take no column at all, and a quoted CSV field can
//! hold a newline. C BestGuess cut and padded such text by bytes, which
//! misaligned every non-ASCII table and could split a UTF-8 sequence (a
//! crash). Here every label goes through [`clean`] (control characters
//! become spaces, so a label is always one line) and is cut or padded by its
//! display width as computed by `unicode-width`, never inside a
//! [`Cluster`]: a character together with the zero-width marks that follow
//! it and anything joined to it by a zero-width joiner.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The ellipsis that marks a truncated label (one column).
pub const ELLIPSIS: char = '…';

/// Whether `c` is shown as a space in a label: a control character
/// (newline, tab, escape…), a line or paragraph separator (U+2028, U+2029:
/// line breaks too), or a bidirectional formatting character (U+202A–E,
/// U+2066–9, U+200E, U+200F, U+061C), which reorders the rest of the line
/// as displayed (a command named with U+202E printed the ranking's row
/// backwards).
pub fn shown_as_space(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
        )
}

/// `s` with every character [`shown_as_space`] replaced by a space, so
/// that it prints on one line, in order, and its width can be measured.
pub fn clean(s: &str) -> Cow<'_, str> {
    if s.chars().any(shown_as_space) {
        Cow::Owned(
            s.chars()
                .map(|c| if shown_as_space(c) { ' ' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// Display width of `s` in terminal columns (control characters count as
/// one column, as [`clean`] would print them).
pub fn width(s: &str) -> usize {
    clean(s).width()
}

/// A user-perceived character, approximately: a character, the zero-width
/// characters after it (combining marks, variation selectors) and, after a
/// zero-width joiner, the next character and its marks. Cutting text only
/// between clusters keeps accents on their letters and emoji sequences whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cluster<'a> {
    text: &'a str,
    width: usize,
}

const ZWJ: char = '\u{200D}';

/// Splits clean text into clusters.
fn clusters(s: &str) -> Vec<Cluster<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut joined = false;
    for (i, c) in s.char_indices() {
        let zero_width = c.width().unwrap_or(0) == 0;
        if i > start && !zero_width && !joined {
            out.push(Cluster {
                text: &s[start..i],
                width: s[start..i].width(),
            });
            start = i;
        }
        joined = c == ZWJ;
    }
    if start < s.len() {
        out.push(Cluster {
            text: &s[start..],
            width: s[start..].width(),
        });
    }
    out
}

/// `s` cut to at most `max` columns, ending in [`ELLIPSIS`] when anything
/// was cut. Never splits a cluster; a wide character that would straddle
/// the limit is dropped whole (the result may then be one column short).
/// A label's source tag (`ls -l [a.csv]`) is kept whole when it fits with
/// a few columns of the label before it: cut from its end, two commands
/// of two files would look identical.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    let s = clean(s);
    if s.width() <= max {
        return s;
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    if let Some(at) = s.rfind(" [").filter(|_| s.ends_with(']')) {
        let (head, tag) = s.split_at(at);
        if head.width() > 0 && tag.width() + 4 <= max {
            return Cow::Owned(format!("{}{tag}", cut(head, max - tag.width())));
        }
    }
    Cow::Owned(cut(&s, max))
}

/// `s`, wider than `max` (at least 1) columns, cut to end in [`ELLIPSIS`].
fn cut(s: &str, max: usize) -> String {
    if s.width() <= max {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for cluster in clusters(s) {
        if used + cluster.width > max - 1 {
            break;
        }
        used += cluster.width;
        out.push_str(cluster.text);
    }
    out.push(ELLIPSIS);
    out
}

/// Where padding goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
    Center,
}

/// `s` (cleaned) padded with spaces to `columns` columns. Text wider than
/// `columns` is returned whole: callers that must not overflow use [`fit`].
pub fn pad(s: &str, columns: usize, align: Align) -> String {
    let s = clean(s);
    let gap = columns.saturating_sub(s.width());
    let (left, right) = match align {
        Align::Left => (0, gap),
        Align::Right => (gap, 0),
        Align::Center => (gap / 2, gap - gap / 2),
    };
    format!("{}{s}{}", " ".repeat(left), " ".repeat(right))
}

/// `s` truncated to `columns` and padded to exactly `columns` columns.
pub fn fit(s: &str, columns: usize, align: Align) -> String {
    pad(&truncate(s, columns), columns, align)
}

/// Splits `s` into lines of at most `columns` columns, at spaces where
/// possible; a word longer than a line is cut by [`truncate`]'s rules into
/// as many lines as it needs. Always at least one line.
pub fn wrap(s: &str, columns: usize) -> Vec<String> {
    let s = clean(s);
    let columns = columns.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_width = 0;
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let w = word.width();
        if line_width > 0 && line_width + 1 + w <= columns {
            line.push(' ');
            line.push_str(word);
            line_width += 1 + w;
            continue;
        }
        if line_width > 0 {
            lines.push(std::mem::take(&mut line));
            line_width = 0;
        }
        if w <= columns {
            line.push_str(word);
            line_width = w;
            continue;
        }
        // A word wider than a line: break it between clusters.
        for cluster in clusters(word) {
            if line_width + cluster.width > columns && line_width > 0 {
                lines.push(std::mem::take(&mut line));
                line_width = 0;
            }
            line.push_str(cluster.text);
            line_width += cluster.width;
        }
    }
    if line_width > 0 || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `s` as a paragraph in `columns` columns: broken at spaces ([`wrap`]),
/// each continuation line indented two spaces (a heading, a note, a
/// warning), at least 20 columns of text per line.
pub fn continued(s: &str, columns: usize) -> Vec<String> {
    wrap(s, columns.saturating_sub(2).max(20))
        .into_iter()
        .enumerate()
        .map(|(i, line)| if i == 0 { line } else { format!("  {line}") })
        .collect()
}

/// `line` fitted into `columns` columns without losing text: a line that
/// fits is returned as it is; a longer one is broken at spaces, and its
/// continuation lines are indented to where its second cell starts (the
/// first text after two spaces), so a `label  value` row stays a
/// two-column row. Used for framed tables and long report lines at narrow
/// widths.
pub fn wrap_hanging(line: &str, columns: usize) -> Vec<String> {
    let line = clean(line);
    if line.width() <= columns {
        return vec![line.into_owned()];
    }
    let indent = line.len() - line.trim_start_matches(' ').len();
    // The second cell: after the first run of two spaces past the indent.
    let second = line[indent..].find("  ").map(|i| indent + i).and_then(|i| {
        let j = i + line[i..].len() - line[i..].trim_start_matches(' ').len();
        (j < line.len()).then_some(j)
    });
    let hang = second
        .map(|j| line[..j].width())
        .filter(|&h| h + 12 <= columns)
        .unwrap_or(indent.min(columns / 2));
    let (head, rest) = match second {
        Some(j) if line[..j].width() == hang => (&line[..j], &line[j..]),
        _ => (&line[..indent.min(hang)], &line[indent.min(hang)..]),
    };
    let pieces = wrap(rest, columns.saturating_sub(hang).max(1));
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let lead = if i == 0 {
                pad(head, hang, Align::Left)
            } else {
                " ".repeat(hang)
            };
            format!("{lead}{piece}")
        })
        .collect()
}

/// `s` without trailing spaces (every report line is written through this,
/// so snapshots and terminals see no invisible padding).
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_wrap_keeps_the_second_column() {
        let row = "    Ratio (other/ref)      +799.6 % [+717.9 %, +1264.1 %] ✗ beyond the bound";
        let lines = wrap_hanging(row, 50);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| width(l) <= 50), "{lines:?}");
        assert!(lines[0].starts_with("    Ratio (other/ref)      +799.6 %"));
        assert!(lines[1].starts_with(&" ".repeat(27)), "{lines:?}");
        let words = |ls: &[String]| {
            ls.join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(words(&lines), words(&[row.to_string()]), "no text lost");
        // A line that fits is untouched; one without cells hangs at its indent.
        assert_eq!(wrap_hanging("  short", 50), ["  short"]);
        let plain = wrap_hanging(&format!("  {}", "word ".repeat(30)), 40);
        assert!(
            plain.iter().all(|l| width(l) <= 40 && l.starts_with("  ")),
            "{plain:?}"
        );
    }

    #[test]
    fn widths_count_columns_not_bytes() {
        assert_eq!(width("ls -l"), 5);
        assert_eq!(width("日本語"), 6);
        assert_eq!(width("naïve"), 5);
        // e + COMBINING ACUTE ACCENT is one column.
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(width("🚀"), 2);
        assert_eq!(width("μs …"), 4);
        assert_eq!(width("a\nb\tc"), 5);
    }

    #[test]
    fn clean_replaces_control_characters() {
        assert_eq!(clean("a\nb\r\tc\u{1b}"), "a b  c ");
        assert!(matches!(clean("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn truncation_of_ascii() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        // A source tag stays whole, the label before it is cut.
        assert_eq!(
            truncate("./bench --long-option [old/a.csv]", 20),
            "./bench… [old/a.csv]"
        );
        // Too narrow for the tag and a little of the label: cut as any text.
        assert_eq!(truncate("./bench --long-option [a.csv]", 10), "./bench -…");
        assert_eq!(truncate("abcdefg", 6), "abcde…");
        assert_eq!(truncate("abc", 1), "…");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn truncation_of_wide_characters_never_exceeds_the_limit() {
        // Each character is two columns: 4 columns hold one character + "…"
        // (3 columns); a second would straddle the limit.
        assert_eq!(truncate("日本語の名前", 4), "日…");
        assert_eq!(truncate("日本語の名前", 5), "日本…");
        for max in 0..14 {
            let t = truncate("日本語の名前です", max);
            assert!(width(&t) <= max, "{max}: {t}");
        }
    }

    #[test]
    fn truncation_keeps_combining_marks_and_emoji_sequences_whole() {
        // "e" + acute: never separated.
        assert_eq!(truncate("ée\u{301}e\u{301}x", 3), "ée\u{301}…");
        // Family emoji: man ZWJ woman ZWJ girl is one two-column cluster.
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(width(family), 2);
        let s = format!("{family}{family}{family}");
        assert_eq!(truncate(&s, 5), format!("{family}{family}…"));
        assert_eq!(truncate(&s, 4), format!("{family}…"));
        // Snowman with emoji presentation selector.
        let snow = "⛄\u{FE0F}";
        assert_eq!(truncate(&format!("{snow}{snow}ab"), 4), format!("{snow}…"));
    }

    #[test]
    fn padding_by_display_width() {
        assert_eq!(pad("日本", 6, Align::Left), "日本  ");
        assert_eq!(pad("日本", 6, Align::Right), "  日本");
        assert_eq!(pad("ab", 5, Align::Center), " ab  ");
        assert_eq!(pad("e\u{301}", 3, Align::Right), "  e\u{301}");
        assert_eq!(pad("toolong", 3, Align::Left), "toolong");
        for s in ["日本語の名前", "naïve ⛄ snowman", "🚀🚀🚀 rocket", "plain"] {
            for w in 0..20 {
                assert_eq!(width(&fit(s, w, Align::Left)), w, "{s} {w}");
                assert_eq!(width(&fit(s, w, Align::Right)), w, "{s} {w}");
            }
        }
    }

    #[test]
    fn wrapping_at_spaces_and_inside_long_words() {
        assert_eq!(
            wrap(
                "p = 0.511 (non-signif., α = 0.05) Cannot rule out normal",
                40
            ),
            [
                "p = 0.511 (non-signif., α = 0.05) Cannot",
                "rule out normal"
            ]
        );
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("日本語の", 3), ["日", "本", "語", "の"]);
        for line in wrap("a bb ccc dddd eeeee 日本語の名前", 5) {
            assert!(width(&line) <= 5, "{line}");
        }
    }
}

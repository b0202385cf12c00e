//! `--help`, generated from the option table ([`super::flags`]) and
//! wrapped to the terminal's width: no line wider than it, and lines
//! broken only at spaces.

use super::flags;
use crate::report::text::{width as text_width, wrap};

/// What each program is for, and how it is called.
pub fn about(program: &str, running: bool) -> (String, String) {
    if running {
        (
            format!(
                "{program}: run commands many times, record every run, rank them with robust statistics"
            ),
            format!("{program} [options] COMMAND..."),
        )
    } else {
        (
            format!("{program}: report on raw data saved by bestguess -o"),
            format!("{program} [options] FILE...   (- reads standard input)"),
        )
    }
}

/// Every exit status, with what it means: `--help`, the man page and the
/// documents say the same.
pub const EXIT_STATUS: [(&str, &str); 6] = [
    ("0", "success"),
    ("1", "a usage error (nothing ran)"),
    (
        "2",
        "a failure: a command failed, or a file could not be read or written",
    ),
    (
        "3",
        "--fail-if-slower found a command slower than its baseline, or could not compare one",
    ),
    (
        "4",
        "--history: the experiment was measured and reported but not recorded in the history store (3 takes precedence)",
    ),
    (
        "129, 130, 131, 143",
        "interrupted by SIGHUP, SIGINT, SIGQUIT or SIGTERM (128 + the signal); the runs completed before it are reported, and kept in the raw data file with -o",
    ),
];

/// The narrowest and widest help: below 40 columns the option column
/// leaves no room for text, and lines past 100 columns are hard to read.
pub const WIDTH_RANGE: (usize, usize) = (40, 100);

/// The width of the options column, and the least room its help text
/// needs beside it (narrower, the help goes under the option).
const USAGE_WIDTH: usize = 28;
const TEXT_MIN: usize = 36;
/// Where the help text starts under an option when it does not fit
/// beside it.
const UNDER: usize = 8;

/// The help text for one executable, `width` columns wide (within
/// [`WIDTH_RANGE`]).
pub fn help(program: &str, running: bool, width: usize) -> String {
    let width = width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1);
    let (about, usage) = about(program, running);
    let mut out = paragraph(&about, width, 0);
    out.push('\n');
    out.push_str(&paragraph(&format!("Usage: {usage}"), width, 7));
    out.push_str("\nOptions:\n");
    // The text column: beside the options when it leaves room enough,
    // else under each option.
    let beside = width >= 2 + USAGE_WIDTH + 1 + TEXT_MIN;
    let column = if beside { 2 + USAGE_WIDTH + 1 } else { UNDER };
    for f in flags::all().iter().filter(|f| f.applies(running)) {
        let usage = f.usage();
        let lines = wrap(&f.full_help(), width - column);
        let mut lines = lines.iter();
        if beside && text_width(&usage) <= USAGE_WIDTH {
            let first = lines.next().map_or("", String::as_str);
            out.push_str(&format!("  {usage:<USAGE_WIDTH$} {first}\n"));
        } else {
            // An option too long for the column (or a narrow terminal):
            // its help starts on the next line.
            out.push_str(&format!("  {usage}\n"));
        }
        for line in lines {
            out.push_str(&format!("{:column$}{line}\n", ""));
        }
    }
    out.push('\n');
    out.push_str(&paragraph(
        if running {
            "Values may be given as -r 20, -r=20, --runs 20 or --runs=20; flags bundle (-QR)."
        } else {
            "Values may be given as -c width=100, -c=width=100 or --set=width=100; flags bundle (-QR)."
        },
        width,
        0,
    ));
    let statuses: Vec<String> = EXIT_STATUS
        .iter()
        .map(|(code, meaning)| format!("{code} {meaning}"))
        .collect();
    out.push_str(&paragraph(
        &format!("Exit status: {}.", statuses.join("; ")),
        width,
        2,
    ));
    out
}

/// `text` broken at spaces into lines of at most `width` columns, the
/// lines after the first indented by `hang`. A word is never broken (none
/// in these texts is near the narrowest width).
fn paragraph(text: &str, width: usize, hang: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let indent = if out.is_empty() { 0 } else { hang };
        if !line.is_empty() && indent + text_width(&line) + 1 + text_width(word) > width {
            out.push_str(&format!("{:indent$}{line}\n", ""));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let indent = if out.is_empty() { 0 } else { hang };
    out.push_str(&format!("{:indent$}{line}\n", ""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestreport_help_leaves_out_run_options() {
        let h = help("bestreport", false, 80);
        assert!(h.contains("--export-json FILE"));
        assert!(!h.contains("--warmup") && !h.contains("--max-runs"), "{h}");
        // --runs auto reads an adaptive experiment's runs.
        assert!(h.contains("-r, --runs N|auto"), "{h}");
        assert!(help("bestguess", true, 80).contains("-r, --runs N|auto"));
    }

    /// At every width, no line is wider, and the words are those of the
    /// option table, in order, none broken: joining the lines gives back
    /// each option's help.
    #[test]
    fn every_width_keeps_its_lines_and_words_whole() {
        for width in [40, 50, 60, 72, 80, 100, 120, 200] {
            for running in [true, false] {
                let h = help("bestguess", running, width);
                let limit = width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1);
                for line in h.lines() {
                    assert!(
                        text_width(line) <= limit,
                        "{width}: {} columns: {line}",
                        text_width(line)
                    );
                    assert_eq!(line, line.trim_end(), "trailing blanks at {width}");
                }
                let words: Vec<&str> = h.split_whitespace().collect();
                for f in flags::all().iter().filter(|f| f.applies(running)) {
                    let text = f.full_help();
                    let want: Vec<&str> = text.split_whitespace().collect();
                    let found = words.windows(want.len()).any(|w| w == want.as_slice());
                    assert!(found, "{width}: --{} is not whole", f.long);
                }
                let joined = words.join(" ");
                for (code, _) in EXIT_STATUS {
                    assert!(joined.contains(code), "{width}: {code}");
                }
            }
        }
    }

    #[test]
    fn the_text_column_is_beside_the_options_from_71_columns() {
        let wide = help("bestguess", true, 80);
        assert!(
            wide.lines()
                .any(|l| l.starts_with("  -w, --warmup N") && l.len() > 40),
            "{wide}"
        );
        let narrow = help("bestguess", true, 60);
        let at = narrow
            .find("  -w, --warmup N\n")
            .expect("alone on its line");
        assert!(narrow[at..]
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("        Untimed"));
    }
}

//! Every pointer from the code or the documents to a section of a Markdown
//! page names a heading the page has, and every `docs/` page named exists.
//!
//! A pointer is a page's name followed by a section: `page.md ("Heading")`,
//! `page.md, "Heading"` (in a comment of a code file, or anywhere in a
//! Markdown page) or a Markdown link `page.md#anchor`. A quoted heading
//! matches a heading of the page that is the same text, or begins with it
//! followed by `:` or ` (` (`"Adaptive runs"` names `## Adaptive runs:
//! \`--runs auto\``); an anchor matches a heading's GitHub anchor.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files that may point at a page: code, scripts and documents,
/// not test data, snapshots, fuzz corpora or build output.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    let skip = ["target", "tests/data", "tests/snapshots", "fuzz/corpus"].map(|d| root().join(d));
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if (!name.starts_with('.') || name == ".ci") && !skip.contains(&path) {
                sources(&path, out);
            }
        } else if [".rs", ".md", ".sh", ".py", ".c", ".h"]
            .iter()
            .any(|e| name.ends_with(e))
            || name == "run"
        {
            out.push(path);
        }
    }
}

/// The text a file's pointers are read from: a Markdown page whole, a code
/// file's comment lines (`//`, `#`, `*` after their markers); lines joined
/// by spaces, since a pointer may wrap.
fn prose(path: &Path, text: &str) -> String {
    if path.extension().is_some_and(|e| e == "md") {
        return text.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    let comments = text.lines().map(str::trim_start).filter_map(|l| {
        let rest = l.strip_prefix("//").or_else(|| l.strip_prefix('#'))?;
        Some(rest.trim_start_matches(['/', '!', ' ']))
    });
    let block = text.lines().map(str::trim_start).filter_map(|l| {
        let rest = l.strip_prefix("* ")?;
        Some(rest)
    });
    let lines: Vec<&str> = comments.chain(block).collect();
    lines
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a pointer names after the page.
#[derive(Debug)]
enum Section {
    Heading(String),
    Anchor(String),
}

/// Each `(page, section)` the text points at; the page as written.
fn pointers(text: &str) -> Vec<(String, Section)> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut found = Vec::new();
    for (at, _) in text.match_indices(".md") {
        let end = at + 3;
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_name(c))
            .last()
            .map_or(at, |(i, _)| i);
        let page = &text[start..end];
        if text[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
            continue;
        }
        let rest = text[end..].trim_start_matches(['`', ')']);
        if let Some(anchor) = rest.strip_prefix('#') {
            let anchor: String = anchor
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "_-".contains(*c))
                .collect();
            found.push((page.to_owned(), Section::Anchor(anchor)));
            continue;
        }
        let quoted = [", \"", " (\"", ", “", " (“"]
            .iter()
            .find_map(|open| rest.strip_prefix(open));
        if let Some(q) = quoted {
            if let Some(close) = q.find(['"', '”']) {
                found.push((page.to_owned(), Section::Heading(q[..close].to_owned())));
            }
        }
    }
    found
}

/// A page's headings (outside fenced code).
fn headings(page: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(line.trim_start_matches('#').trim().to_owned());
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces made hyphens.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || "-_ ".contains(*c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn names(heading: &str, name: &str) -> bool {
    heading == name
        || heading
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(" ("))
}

/// The Markdown page a pointer names: by its path from the repository's
/// top or the pointing page's folder, else by file name among the
/// repository's pages (`DESIGN.md` in a comment is `docs/DESIGN.md`).
fn page_named(written: &str, from: &Path, pages: &[PathBuf]) -> Option<PathBuf> {
    let top = root();
    let trimmed = written.trim_start_matches("./");
    let candidates = [
        top.join(trimmed),
        from.parent().unwrap_or(&top).join(trimmed),
    ];
    if let Some(p) = candidates.into_iter().find(|p| p.is_file()) {
        return Some(p);
    }
    let file = Path::new(trimmed).file_name()?;
    pages.iter().find(|p| p.file_name() == Some(file)).cloned()
}

#[test]
fn every_pointer_names_a_heading_that_exists() {
    let mut files = Vec::new();
    sources(&root(), &mut files);
    let pages: Vec<PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .cloned()
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_default();
        let shown = file.strip_prefix(root()).unwrap_or(file).display();
        for (written, section) in pointers(&prose(file, &text)) {
            let Some(page) = page_named(&written, file, &pages) else {
                if written.contains("docs/") {
                    broken.push(format!("{shown}: {written} does not exist"));
                }
                continue;
            };
            let heads = headings(&fs::read_to_string(&page).unwrap());
            let ok = match &section {
                Section::Heading(h) => heads.iter().any(|x| names(x, h)),
                Section::Anchor(a) => heads.iter().any(|x| anchor(x) == *a),
            };
            checked += 1;
            if !ok {
                broken.push(format!("{shown}: {written} has no heading {section:?}"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The scan sees the pointers there are (a scanner that finds none
    // would pass every time).
    assert!(checked >= 10, "only {checked} pointers found");
}

#[test]
fn the_scanner_reads_each_form() {
    let text = "see `docs/a.md` (\"One\"), docs/b.md, \"Two words\", [x](c.md#an-anchor) and x.md.";
    let got: Vec<String> = pointers(text)
        .into_iter()
        .map(|(p, s)| format!("{p} {s:?}"))
        .collect();
    assert_eq!(
        got,
        [
            "docs/a.md Heading(\"One\")",
            "docs/b.md Heading(\"Two words\")",
            "c.md Anchor(\"an-anchor\")"
        ]
    );
    assert_eq!(
        anchor("Adaptive runs: `--runs auto`"),
        "adaptive-runs---runs-auto"
    );
    assert!(names("Adaptive runs: `--runs auto`", "Adaptive runs"));
    assert!(!names("Adaptive runs", "Adaptive"));
    let code = "let x = 1; // see\n    // docs/a.md, \"One\"\nfoo(\"docs/b.md, \\\"Two\\\"\");";
    let in_comments = pointers(&prose(Path::new("x.rs"), code));
    assert_eq!(in_comments.len(), 1, "{in_comments:?}");
}

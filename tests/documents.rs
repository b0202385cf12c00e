//! The documents stay reference, and stay short enough to be read: the
//! Markdown files of the repository have a line budget, and none of them
//! speaks of how the work was organised (the words in [`PROCESS_WORDS`]).
//! The tool's own "rounds" of runs are a term of the program and allowed;
//! "this round" is not.

use std::fs;
use std::path::{Path, PathBuf};

/// Lines of Markdown in the whole repository.
const TOTAL_BUDGET: usize = 2_950;
/// Per-file budgets, by path from the repository's root.
const FILE_BUDGETS: &[(&str, usize)] = &[("README.md", 450), ("ARCHITECTURE.md", 250)];

/// Words about the work rather than the program, matched as whole words
/// (ASCII letters and digits delimit them), ignoring case. A phrase of
/// several words matches with single spaces between them; `#` stands for a
/// number.
const PROCESS_WORDS: &[&str] = &[
    "issue",
    "issues",
    "session",
    "sessions",
    "probe",
    "probes",
    "probed",
    "probing",
    "helper",
    "helpers",
    "this round",
    "stop #",
];

/// The process words in `line`, in the order of [`PROCESS_WORDS`].
fn process_words(line: &str) -> Vec<&'static str> {
    let words: Vec<String> = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    PROCESS_WORDS
        .iter()
        .copied()
        .filter(|phrase| {
            let parts: Vec<&str> = phrase.split(' ').collect();
            words.windows(parts.len()).any(|window| {
                window.iter().zip(&parts).all(|(word, part)| {
                    if *part == "#" {
                        word.bytes().all(|b| b.is_ascii_digit())
                    } else {
                        word == part
                    }
                })
            })
        })
        .collect()
}

/// Every Markdown file under `dir`, skipping build output (`target*`),
/// hidden directories (`.git`, `.ci` …) and the snapshot tests' files.
fn markdown_files(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let skipped = name.starts_with('.')
                || name.starts_with("target")
                || path.strip_prefix(root).unwrap() == Path::new("tests/snapshots");
            if !skipped {
                markdown_files(root, &path, found);
            }
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (path from the root, its text) for every Markdown file.
fn documents() -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &root, &mut files);
    files
        .into_iter()
        .map(|path| {
            let text =
                fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let shown = path.strip_prefix(&root).unwrap().display().to_string();
            (shown, text)
        })
        .collect()
}

#[test]
fn the_documents_keep_to_their_line_budgets() {
    let documents = documents();
    assert!(
        documents.iter().any(|(path, _)| path == "README.md"),
        "the walk found no README.md: {:?}",
        documents.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    let lines = |text: &str| text.lines().count();
    let total: usize = documents.iter().map(|(_, text)| lines(text)).sum();
    let listing: Vec<String> = documents
        .iter()
        .map(|(path, text)| format!("  {path}: {}", lines(text)))
        .collect();
    assert!(
        total <= TOTAL_BUDGET,
        "the Markdown files hold {total} lines, over the budget of {TOTAL_BUDGET}:\n{}",
        listing.join("\n")
    );
    for (file, budget) in FILE_BUDGETS {
        let (_, text) = documents
            .iter()
            .find(|(path, _)| path == file)
            .unwrap_or_else(|| panic!("{file} is missing"));
        let n = lines(text);
        assert!(
            n <= *budget,
            "{file} has {n} lines, over its budget of {budget}"
        );
    }
}

#[test]
fn no_document_speaks_of_the_work_instead_of_the_program() {
    let mut found = Vec::new();
    for (path, text) in documents() {
        for (i, line) in text.lines().enumerate() {
            for word in process_words(line) {
                found.push(format!("{path}:{}: \"{word}\": {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Markdown describes the program, not how the work went; reword:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_word_matcher_finds_whole_words_in_any_case() {
    assert_eq!(process_words("See the Issue tracker."), ["issue"]);
    assert_eq!(process_words("issues, sessions."), ["issues", "sessions"]);
    assert_eq!(process_words("a PROBE (probed)"), ["probe", "probed"]);
    assert_eq!(process_words("the helper thread"), ["helper"]);
    assert_eq!(process_words("done in this  round"), ["this round"]);
    assert_eq!(process_words("from stop 28 on"), ["stop #"]);
    assert_eq!(process_words("(stop-12)"), ["stop #"]);
    // The program's own terms, and words that merely contain one.
    assert!(process_words("Random rounds: each round runs every command once.").is_empty());
    assert!(process_words("tissue, issued, reprobe, stop the run, stop 1st").is_empty());
    assert!(process_words("").is_empty());
}

#[test]
fn the_walk_skips_build_output_and_hidden_directories() {
    let root = std::env::temp_dir().join(format!("bestguess-documents-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for dir in ["docs", "target-x", ".git", "tests/snapshots", "tests/data"] {
        fs::create_dir_all(root.join(dir)).unwrap();
    }
    for file in [
        "README.md",
        "docs/a.md",
        "docs/notes.txt",
        "target-x/b.md",
        ".git/c.md",
        "tests/snapshots/d.md",
        "tests/data/e.md",
    ] {
        fs::write(root.join(file), "x\n").unwrap();
    }
    let mut found = Vec::new();
    markdown_files(&root, &root, &mut found);
    let found: Vec<String> = found
        .iter()
        .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    fs::remove_dir_all(&root).unwrap();
    assert_eq!(found, ["README.md", "docs/a.md", "tests/data/e.md"]);
}

//! The code base as ARCHITECTURE.md describes it: no function longer than
//! 120 lines.
//!
//! The function scanner reads Rust text as tokens that matter for braces:
//! it skips comments (line, block, nested block), string, byte-string and
//! raw-string literals and character literals, and counts a function from
//! its `fn` line to the brace that closes its body. A function that is a
//! table of data may exceed the limit when the line before its `fn` (or
//! its attributes) says `// data table: …`.

use std::fs;
use std::path::{Path, PathBuf};

/// The longest a function may be, in lines from `fn` to its closing brace.
const LIMIT: usize = 120;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` whose name ends with one of `ends`.
fn files(dir: &Path, ends: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && !name.starts_with("target") && name != "snapshots" {
                files(&path, ends, out);
            }
        } else if ends.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

/// The text with comments and literals blanked (newlines kept), so that
/// only code's braces and words remain.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    blank(&mut out, b[i]);
                    blank(&mut out, b[i + 1]);
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    blank(&mut out, b[i]);
                    blank(&mut out, b[i + 1]);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(next, Some(b'"') | Some(b'#')) && is_raw_start(b, i) {
            // r"…", r#"…"#: ends at a quote followed by as many hashes.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            while j < b.len() {
                if b[j] == b'"' && (1..=hashes).all(|k| b.get(j + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &x in &b[i..j.min(b.len())] {
                blank(&mut out, x);
            }
            i = j;
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            for &x in &b[i..(j + 1).min(b.len())] {
                blank(&mut out, x);
            }
            i = j + 1;
        } else if c == b'\'' && char_literal_end(b, i).is_some() {
            let j = char_literal_end(b, i).unwrap_or(i);
            for &x in &b[i..=j] {
                blank(&mut out, x);
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `r` at `i` begins a raw string (not the end of an identifier such as
/// `for"`, which Rust does not allow anyway, or `br"…"`, handled alike).
fn is_raw_start(b: &[u8], i: usize) -> bool {
    let before = i.checked_sub(1).map(|k| b[k]);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let starts = before.map_or(true, |c| !ident(c) || c == b'b');
    let mut j = i + 1;
    while b.get(j) == Some(&b'#') {
        j += 1;
    }
    starts && b.get(j) == Some(&b'"')
}

/// The closing quote of a character literal starting at `i` ('a', '\n',
/// '\'', '\u{1F600}', 'é'); `None` for a lifetime (`'a`).
fn char_literal_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i + 1) == Some(&b'\\') {
        let mut j = i + 2;
        while j < b.len() && j < i + 12 {
            if b[j] == b'\'' && j > i + 2 {
                return Some(j);
            }
            j += 1;
        }
        return None;
    }
    // One character of up to four UTF-8 bytes, then the quote.
    (2..=5).map(|k| i + k).find(|&j| {
        b.get(j) == Some(&b'\'')
            && std::str::from_utf8(&b[i + 1..j]).is_ok_and(|s| s.chars().count() == 1)
    })
}

/// Every function of `text` as (name, first line, length in lines), in
/// order, nested ones too.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(at) = find_fn(line) else { continue };
        let name: String = line[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // From the `fn`: the first `{` opens the body unless a `;` comes
        // first (a declaration without a body).
        let mut depth = 0usize;
        let mut opened = false;
        'scan: for (k, l) in lines.iter().enumerate().skip(start) {
            let from = if k == start { at } else { 0 };
            for ch in l[from..].chars() {
                match ch {
                    ';' if !opened => break 'scan,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' if opened => {
                        depth -= 1;
                        if depth == 0 {
                            out.push((name.clone(), start + 1, k - start + 1));
                            break 'scan;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Where `fn` starts as a keyword in `line`.
fn find_fn(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(k) = line[from..].find("fn ") {
        let at = from + k;
        let before_ok = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        if before_ok {
            return Some(at);
        }
        from = at + 3;
    }
    None
}

/// Whether the function starting at `line` (1-based) is marked as a
/// table of data on the lines just above it (its attributes skipped).
fn is_data_table(text: &str, line: usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let mut k = line - 1;
    while k > 0 {
        let above = lines[k - 1].trim();
        if above.starts_with("#[") {
            k -= 1;
            continue;
        }
        return above.starts_with("// data table:");
    }
    false
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let mut sources = Vec::new();
    files(&root().join("src"), &[".rs"], &mut sources);
    assert!(sources.len() > 50, "the sources were found");
    let mut long = Vec::new();
    for path in &sources {
        let text = fs::read_to_string(path).unwrap();
        for (name, line, length) in functions(&text) {
            if length > LIMIT && !is_data_table(&text, line) {
                let rel = path.strip_prefix(root()).unwrap_or(path);
                long.push(format!(
                    "{}:{line} fn {name}: {length} lines",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines (split them, or mark a table of data with `// data table: why`):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_scanner_sees_what_rust_sees() {
    let text = r####"
fn short() {
    let s = "a } brace in a string { {";
    let r = r#"raw "}" string"#;
    let c = '}';
    let l: &'static str = "x";
    // a } in a comment
    /* and { in /* a nested */ block } */
    let inner = |x: u8| { x };
    fn nested() {
        if true { }
    }
}

fn declared();

fn after() -> u8 {
    b'{' as u8
}
"####;
    let f = functions(text);
    let names: Vec<(&str, usize)> = f.iter().map(|(n, _, l)| (n.as_str(), *l)).collect();
    assert_eq!(names, [("short", 12), ("nested", 3), ("after", 3)]);
    let data = "// data table: every code point's width\n#[rustfmt::skip]\nfn table() {\n}\n";
    assert!(is_data_table(data, 3));
    assert!(!is_data_table("fn plain() {\n}\n", 1));
}

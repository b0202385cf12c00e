//! A command's own metrics: what it wrote to the file named by
//! `BESTGUESS_METRICS` during one run.
//!
//! Two forms are accepted: lines `name value` (blank lines and lines
//! starting with `#` are skipped), or one JSON object whose values are
//! numbers. Values are decimal numbers within ±1e100 (what the statistics
//! take; −0 is 0). A line that is not of that
//! form is a [`Problem`] naming it; the rest of the file still counts, and
//! the run itself is never lost.

use crate::data::Value;

/// One thing wrong with a metrics file, for a warning that names the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number in the file (for JSON: 1).
    pub line: usize,
    /// The offending text, shortened and with control characters escaped.
    pub text: String,
    pub why: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} '{}': {}", self.line, self.text, self.why)
    }
}

/// What one run reported: `(name, value)` in the order written, and what
/// was wrong. A name given twice keeps its last value (and is a problem).
pub fn parse(bytes: &[u8]) -> (Vec<(String, f64)>, Vec<Problem>) {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut add = |line: usize, raw: &str, name: &str, value: f64, problems: &mut Vec<Problem>| {
        if let Some(slot) = out.iter_mut().find(|(n, _): &&mut (String, f64)| n == name) {
            slot.1 = value;
            problems.push(problem(
                line,
                raw,
                "the name was given before; the last value is kept",
            ));
        } else {
            out.push((name.to_string(), value));
        }
    };
    if text.trim_start().starts_with('{') {
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(serde_json::Value::Object(map)) => {
                // The map keeps one value per name: say where there were
                // more, as for lines (the last must not win without a word).
                for name in repeated_keys(&text) {
                    problems.push(problem(
                        1,
                        &name,
                        "the name was given before; the last value is kept",
                    ));
                }
                for (name, v) in map {
                    match v.as_f64().and_then(Value::real).map(Value::as_f64) {
                        Some(x) if valid_name(&name) => add(1, &name, &name, x, &mut problems),
                        Some(_) => problems.push(problem(1, &name, NAME_RULE)),
                        None => problems.push(problem(1, &format!("{name}: {v}"), NUMBER_RULE)),
                    }
                }
            }
            Ok(_) | Err(_) => problems.push(problem(
                1,
                text.trim(),
                "not a JSON object of numbers (or lines 'name value'); ignored",
            )),
        }
        return (out, problems);
    }
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut words = trimmed.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            problems.push(problem(i + 1, line, "expected 'name value'; ignored"));
            continue;
        };
        if !valid_name(name) {
            problems.push(problem(i + 1, line, NAME_RULE));
            continue;
        }
        match value.parse().ok().and_then(Value::real) {
            Some(x) => add(i + 1, line, name, x.as_f64(), &mut problems),
            None => problems.push(problem(i + 1, line, NUMBER_RULE)),
        }
    }
    (out, problems)
}

/// The names a JSON object (valid: parsed already) gives more than once
/// at its top level, as written, each once.
fn repeated_keys(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    let mut keys: Vec<&str> = Vec::new();
    let mut repeated: Vec<String> = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                i += 1;
                // Valid JSON: a backslash escapes one ASCII character.
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(bytes.len());
                let is_key = depth == 1
                    && (text.get(end..).and_then(|r| r.get(1..)))
                        .is_some_and(|rest| rest.trim_start().starts_with(':'));
                if is_key {
                    let key = text.get(start..end).unwrap_or_default();
                    if keys.contains(&key) && !repeated.iter().any(|r| r == key) {
                        repeated.push(key.to_owned());
                    }
                    keys.push(key);
                }
            }
            _ => {}
        }
        i += 1;
    }
    repeated
}

const NUMBER_RULE: &str =
    "the value is not a decimal number within ±1e100 (the largest the statistics take); ignored";

const NAME_RULE: &str =
    "a name is 1-64 letters, digits or '_', '-', '.', '/', '%' starting with a letter; ignored";

/// Parse `--custom-metrics`: comma-separated names, each valid and given
/// once.
pub fn parse_names(text: &str) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim) {
        if !valid_name(name) {
            return Err(format!(
                "--custom-metrics: '{name}' is not a metric name: {}",
                NAME_RULE.trim_end_matches("; ignored")
            ));
        }
        if names.iter().any(|n| n == name) {
            return Err(format!("--custom-metrics: '{name}' is given twice"));
        }
        names.push(name.to_string());
    }
    Ok(names)
}

/// Names that can be a CSV column, a JSON key and a `--metric` value
/// without quoting surprises.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || "_-./%".contains(c))
}

fn problem(line: usize, text: &str, why: &str) -> Problem {
    let mut shown: String = text
        .chars()
        .take(60)
        .collect::<String>()
        .escape_debug()
        .to_string();
    if text.chars().count() > 60 {
        shown.push('…');
    }
    Problem {
        line,
        text: shown,
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_give_named_values_and_bad_lines_are_problems() {
        let (m, p) =
            parse(b"# header\ntokens 1200\n\nrate/s  3.5e2\nbroken\nx y z\nlat nan\n9ab 1\n");
        assert_eq!(
            m,
            [
                ("tokens".to_string(), 1200.0),
                ("rate/s".to_string(), 350.0)
            ]
        );
        let lines: Vec<usize> = p.iter().map(|p| p.line).collect();
        assert_eq!(lines, [5, 6, 7, 8]);
        assert_eq!(
            p[0].to_string(),
            "line 5 'broken': expected 'name value'; ignored"
        );
    }

    #[test]
    fn values_beyond_what_the_statistics_take_are_problems() {
        let (m, p) = parse(b"big 1e101\nsmall -1e101\nedge 1e100\nnz -0\n");
        assert_eq!(m, [("edge".to_string(), 1e100), ("nz".to_string(), 0.0)]);
        assert!(m[1].1.is_sign_positive(), "-0 is 0");
        assert_eq!(p.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 2]);
        assert!(p[0].why.contains("within ±1e100"), "{}", p[0]);
        let (m, p) = parse(br#"{"big": 1e300, "ok": 2}"#);
        assert_eq!(m, [("ok".to_string(), 2.0)]);
        assert!(p[0].to_string().contains("big: 1e+300"), "{}", p[0]);
    }

    #[test]
    fn json_objects_of_numbers_are_accepted() {
        let (m, p) = parse(br#" {"ops": 12, "ratio": 0.25, "label": "x"} "#);
        assert_eq!(m, [("ops".to_string(), 12.0), ("ratio".to_string(), 0.25)]);
        assert_eq!(p.len(), 1);
        assert!(p[0].why.contains("not a decimal number"));
        let (m, p) = parse(b"{not json");
        assert!(m.is_empty() && p.len() == 1);
    }

    #[test]
    fn a_json_name_given_twice_is_a_problem_and_the_last_value_kept() {
        let (m, p) = parse(br#"{"tok": 5, "x": {"tok": 1}, "tok": 6, "s": "a\"tok\": 1"}"#);
        assert!(m.contains(&("tok".to_string(), 6.0)), "{m:?}");
        let twice: Vec<_> = p
            .iter()
            .filter(|p| p.why.contains("given before"))
            .collect();
        assert_eq!(twice.len(), 1, "{p:?}");
        assert_eq!(twice[0].text, "tok");
        // Nested and quoted look-alikes are not top-level names.
        assert!(parse(br#"{"a": {"b": 1, "b": 2}, "c": "\"a\": 1"}"#)
            .1
            .iter()
            .all(|p| !p.why.contains("given before")));
    }

    #[test]
    fn declared_names_are_checked() {
        assert_eq!(parse_names("tokens, ops/s").unwrap(), ["tokens", "ops/s"]);
        assert!(parse_names("a,a").unwrap_err().contains("twice"));
        assert!(parse_names("a,,b").unwrap_err().contains("''"));
        assert!(parse_names("a b").is_err());
    }

    #[test]
    fn repeated_names_keep_the_last_value_and_empty_files_are_empty() {
        let (m, p) = parse(b"a 1\na 2\n");
        assert_eq!(m, [("a".to_string(), 2.0)]);
        assert_eq!(p.len(), 1);
        assert_eq!(parse(b""), (vec![], vec![]));
        let (_, p) = parse(b"\x01\xff 1\n");
        assert!(p[0].text.contains("\\u{1}"), "{:?}", p[0]);
    }
}

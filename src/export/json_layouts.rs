//! `--json-runs LIST`: which per-run layouts the JSON export writes.
//!
//! The JSON document carries every run three times, once per reader:
//! Hyperfine 2.0's `measurements` (about 300 bytes a run), Hyperfine 1.x's
//! `times`, `memory_usage_byte` and `exit_codes` (about 22) and
//! BestGuess's `bestguess.per_run` (about 85, and the only one that
//! `bestreport` reads back exactly). At a million runs per command that is
//! most of a gigabyte, so the user may keep only the layouts their readers
//! need. The summaries are written whatever the choice; a document that
//! leaves a layout out says which it carries (`bestguess.json_runs`).
//!
//! `all` (the default) is the whole document, byte for byte as without the
//! option; `none` keeps the summaries only; otherwise a comma-separated
//! list of layout names, in any order (the document's key order is fixed).
//! A name given twice, or `all`/`none` beside names, is refused: the user
//! meant something the list does not say.

use std::fmt;

/// One per-run layout of the JSON export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Hyperfine 2.0's per-result `measurements`.
    Hyperfine2,
    /// Hyperfine 1.x's per-result `times`, `memory_usage_byte`, `exit_codes`.
    Hyperfine1,
    /// BestGuess's `bestguess.per_run`.
    BestGuess,
}

impl Layout {
    /// Every layout, in the order the words are listed and recorded.
    pub const ALL: [Layout; 3] = [Layout::Hyperfine2, Layout::Hyperfine1, Layout::BestGuess];

    /// The name `--json-runs` takes and `bestguess.json_runs` records.
    pub fn word(self) -> &'static str {
        match self {
            Layout::Hyperfine2 => "hyperfine2",
            Layout::Hyperfine1 => "hyperfine1",
            Layout::BestGuess => "bestguess",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The layouts a JSON export writes: a set of [`Layout`]s.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct JsonRuns(u8);

impl Default for JsonRuns {
    /// Every layout: the document as it is without `--json-runs`.
    fn default() -> JsonRuns {
        JsonRuns::ALL
    }
}

impl JsonRuns {
    /// Every layout (`all`).
    pub const ALL: JsonRuns = JsonRuns(0b111);
    /// Summaries only (`none`).
    pub const NONE: JsonRuns = JsonRuns(0);

    /// Every word `--json-runs` accepts on its own, for help and completions.
    pub const WORDS: &'static [&'static str] =
        &["all", "none", "hyperfine2", "hyperfine1", "bestguess"];

    /// Reads `--json-runs`'s value: `all`, `none`, or a comma-separated
    /// list of layout names. The error is the whole message for the user.
    pub fn parse(text: &str) -> Result<JsonRuns, String> {
        let accepted = "give all, none, or a comma-separated list of hyperfine2, hyperfine1 \
                        and bestguess";
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        let mut chosen = JsonRuns::NONE;
        for (k, &word) in words.iter().enumerate() {
            let layout = match word {
                "all" | "none" if words.len() > 1 => {
                    return Err(format!(
                        "--json-runs '{text}': '{word}' stands alone, not in a list; {accepted}"
                    ))
                }
                "all" => return Ok(JsonRuns::ALL),
                "none" => return Ok(JsonRuns::NONE),
                "" => return Err(format!("--json-runs '{text}': empty name; {accepted}")),
                _ => Layout::ALL
                    .into_iter()
                    .find(|l| l.word() == word)
                    .ok_or_else(|| format!("--json-runs: unknown layout '{word}'; {accepted}"))?,
            };
            if words[..k].contains(&word) {
                return Err(format!("--json-runs: '{word}' is given twice"));
            }
            chosen.0 |= layout.bit();
        }
        Ok(chosen)
    }

    /// Whether the export writes `layout`.
    pub fn has(self, layout: Layout) -> bool {
        self.0 & layout.bit() != 0
    }

    /// Whether every layout is written (the default document).
    pub fn is_all(self) -> bool {
        self == JsonRuns::ALL
    }

    /// The layouts written, in [`Layout::ALL`]'s order.
    pub fn layouts(self) -> impl Iterator<Item = Layout> {
        Layout::ALL.into_iter().filter(move |&l| self.has(l))
    }
}

impl fmt::Debug for JsonRuns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.layouts().map(Layout::word))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(j: JsonRuns) -> Vec<&'static str> {
        j.layouts().map(Layout::word).collect()
    }

    #[test]
    fn all_none_and_lists() {
        assert_eq!(JsonRuns::parse("all"), Ok(JsonRuns::ALL));
        assert_eq!(JsonRuns::default(), JsonRuns::ALL);
        assert!(JsonRuns::parse("all").unwrap().is_all());
        assert_eq!(JsonRuns::parse(" none "), Ok(JsonRuns::NONE));
        assert_eq!(words(JsonRuns::NONE), Vec::<&str>::new());
        assert_eq!(words(JsonRuns::parse("bestguess").unwrap()), ["bestguess"]);
        // Any order; recorded in the fixed order.
        assert_eq!(
            words(JsonRuns::parse("bestguess, hyperfine2").unwrap()),
            ["hyperfine2", "bestguess"]
        );
        let three = JsonRuns::parse("hyperfine1,bestguess,hyperfine2").unwrap();
        assert!(three.is_all());
        for l in Layout::ALL {
            assert!(three.has(l));
            assert!(!JsonRuns::NONE.has(l));
        }
    }

    #[test]
    fn mistakes_are_refused_with_what_is_accepted() {
        let err = |s: &str| JsonRuns::parse(s).unwrap_err();
        let unknown = err("hyperfine3");
        assert!(unknown.contains("unknown layout 'hyperfine3'"), "{unknown}");
        assert!(unknown.contains("hyperfine2, hyperfine1 and bestguess"));
        assert!(err("").contains("empty name"));
        assert!(err("bestguess,").contains("empty name"));
        assert!(err("bestguess,bestguess").contains("'bestguess' is given twice"));
        assert!(err("all,bestguess").contains("'all' stands alone"));
        assert!(err("hyperfine1,none").contains("'none' stands alone"));
        assert!(err("Bestguess").contains("unknown layout"));
    }
}

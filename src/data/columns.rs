//! The raw CSV's column names, in one place.
//!
//! The writer emits them, the reader uses them to name columns in error
//! messages and to find BestGuess's appended columns, and tests compare
//! against them. The first fifteen are C BestGuess's header, verbatim,
//! so that files stay readable by C BestGuess and by scripts written for
//! it; BestGuess's own columns are only ever appended after them.

/// C BestGuess's header: fifteen names, exactly as it writes them.
///
/// C BestGuess itself writes only the first [`C_TOOL_ROW_FIELDS`] fields
/// of every data row; BestGuess writes all fifteen.
pub const C_TOOL_COLUMNS: [&str; 15] = [
    "Command",
    "Shell",
    "Name",
    "Batch",
    "Exit code",
    "User time (us)",
    "System time (us)",
    "Max RSS (Bytes)",
    "Page Reclaims",
    "Page Faults",
    "Voluntary Context Switches",
    "Involuntary Context Switches",
    "Wall clock (us)",
    "Total time (us)",
    "Total Context Switches",
];

/// BestGuess's columns, appended after C BestGuess's fifteen.
///
/// The reader finds them by these exact header names (see
/// [`crate::data::csv_read`]), so other tools may append columns of their own
/// without being mistaken for ours.
pub const APPENDED_COLUMNS: [&str; 4] = [
    "Sequence",
    "Start time (us since epoch)",
    "Signal",
    "Timed out",
];

/// Prefix of the columns that hold a parameter's value (`-P`, `-L`), one
/// per parameter, after every other column: `Parameter threads`.
pub const PARAMETER_PREFIX: &str = "Parameter ";

/// The rule of an adaptive experiment (`--runs auto`), recorded in the
/// raw file's header as one appended column whose rows are empty:
/// `Runs auto (alpha 0.05; min-runs 0; precision 0.02)`. Readers that do
/// not know it ignore it as any unknown appended column (C BestGuess
/// ignores extra columns), and `bestreport` re-analyses the runs at the
/// experiment's own look and level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptiveRule {
    /// The family-wise error rate spent over the looks.
    pub alpha: f64,
    /// No look before the round of this number (`--min-runs`; 0: none
    /// given).
    pub min_rounds: u64,
    /// One command: the precision its median was wanted within (a
    /// fraction).
    pub precision: f64,
}

/// How the column of an [`AdaptiveRule`] begins.
pub const ADAPTIVE_PREFIX: &str = "Runs auto (";

impl AdaptiveRule {
    /// The column's header name.
    pub fn header(&self) -> String {
        format!(
            "{ADAPTIVE_PREFIX}alpha {}; min-runs {}; precision {})",
            self.alpha, self.min_rounds, self.precision
        )
    }

    /// The rule a header name records, if it is one.
    pub fn parse(name: &str) -> Option<AdaptiveRule> {
        let inner = name
            .trim()
            .strip_prefix(ADAPTIVE_PREFIX)?
            .strip_suffix(')')?;
        let mut rule = AdaptiveRule {
            alpha: f64::NAN,
            min_rounds: 0,
            precision: f64::NAN,
        };
        let mut seen = 0;
        for part in inner.split(';') {
            let (key, value) = part.trim().split_once(' ')?;
            let value = value.trim();
            match key {
                "alpha" => rule.alpha = value.parse().ok()?,
                "min-runs" => rule.min_rounds = value.parse().ok()?,
                "precision" => rule.precision = value.parse().ok()?,
                _ => return None,
            }
            seen += 1;
        }
        let valid = seen == 3
            && rule.alpha > 0.0
            && rule.alpha < 1.0
            && rule.precision > 0.0
            && rule.precision < 1.0;
        valid.then_some(rule)
    }
}

/// Number of fields in a data row written by C BestGuess.
pub const C_TOOL_ROW_FIELDS: usize = 13;

/// 0-based positions of C BestGuess's non-metric columns. The metric
/// columns' positions are in the catalogue ([`super::metric::BUILTINS`]).
pub(crate) mod idx {
    pub const COMMAND: usize = 0;
    pub const SHELL: usize = 1;
    pub const NAME: usize = 2;
    pub const BATCH: usize = 3;
    pub const EXIT_CODE: usize = 4;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adaptive_rule_reads_back_from_its_header() {
        let rule = AdaptiveRule {
            alpha: 0.05,
            min_rounds: 20,
            precision: 0.02,
        };
        assert_eq!(
            rule.header(),
            "Runs auto (alpha 0.05; min-runs 20; precision 0.02)"
        );
        assert_eq!(AdaptiveRule::parse(&rule.header()), Some(rule));
        let odd = AdaptiveRule {
            alpha: 0.003125,
            ..rule
        };
        assert_eq!(AdaptiveRule::parse(&odd.header()), Some(odd));
        for bad in [
            "Runs auto",
            "Runs auto (alpha 0.05)",
            "Runs auto (alpha 1; min-runs 0; precision 0.02)",
            "Runs auto (alpha 0.05; min-runs -1; precision 0.02)",
            "Runs auto (alpha 0.05; min-runs 0; precision 0.02; extra 1)",
            "Runs auto (alpha x; min-runs 0; precision 0.02)",
        ] {
            assert_eq!(AdaptiveRule::parse(bad), None, "{bad}");
        }
    }
}

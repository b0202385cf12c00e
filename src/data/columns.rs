//! The raw CSV's column names, in one place.
//!
//! The writer emits them, the reader uses them to name columns in error
//! messages and to find BestGuess's appended columns, and tests compare
//! against them. The first fifteen are the C reference's header, verbatim,
//! so that files stay readable by the reference and by scripts written for
//! it; BestGuess's own columns are only ever appended after them.

/// The C reference's header: fifteen names, exactly as it writes them.
///
/// The reference itself writes only the first [`REFERENCE_ROW_FIELDS`] fields
/// of every data row; BestGuess writes all fifteen.
pub const REFERENCE_COLUMNS: [&str; 15] = [
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

/// BestGuess's columns, appended after the reference's fifteen.
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

/// Number of fields in a data row written by the C reference.
pub const REFERENCE_ROW_FIELDS: usize = 13;

/// 0-based positions of the reference's non-metric columns. The metric
/// columns' positions are in the catalogue ([`super::metric::BUILTINS`]).
pub(crate) mod idx {
    pub const COMMAND: usize = 0;
    pub const SHELL: usize = 1;
    pub const NAME: usize = 2;
    pub const BATCH: usize = 3;
    pub const EXIT_CODE: usize = 4;
}

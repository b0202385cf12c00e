//! Whether a row is a raw data header (C BestGuess's column names in their
//! places), and what is wrong with one that nearly is.

use crate::data::columns::{C_TOOL_COLUMNS, C_TOOL_ROW_FIELDS};
use crate::data::error::{excerpt, Quoted};
use crate::data::tokenize::Row;

/// Whether `row` is a raw data header: fields 2 to 13 are C BestGuess's
/// column names, compared without regard to ASCII case or surrounding
/// blanks. The first field is free.
pub(super) fn is_header(row: &Row) -> bool {
    row.len() >= C_TOOL_ROW_FIELDS && (1..C_TOOL_ROW_FIELDS).all(|i| names_column(row, i))
}

/// Whether field `i` of `row` is C BestGuess's name for column `i`, as
/// [`is_header`] compares them.
pub(super) fn names_column(row: &Row, i: usize) -> bool {
    let field = row.get(i).unwrap_or_default();
    std::str::from_utf8(field)
        .unwrap_or("")
        .trim_matches([' ', '\t'])
        .eq_ignore_ascii_case(C_TOOL_COLUMNS[i])
}

/// Whether `row` has one of C BestGuess's column names in its place:
/// a header gone wrong rather than a data row.
pub(super) fn names_some_column(row: &Row) -> bool {
    (0..C_TOOL_ROW_FIELDS.min(row.len())).any(|i| names_column(row, i))
}

/// What keeps `row` from being a header ([`is_header`] is false): for a row
/// that looks like one (it starts with `Command`, or has a header's name
/// in its place), how few columns it has or the first that differs;
/// otherwise how it starts.
pub(super) fn header_problem(row: &Row) -> String {
    let field = |i: usize| excerpt(row.get(i).unwrap_or_default());
    if !names_some_column(row) {
        return format!("it starts with {}", Quoted(&field(0)));
    }
    if row.len() < C_TOOL_ROW_FIELDS {
        return format!(
            "it has {} column{} where a raw data header has at least {C_TOOL_ROW_FIELDS}",
            row.len(),
            if row.len() == 1 { "" } else { "s" }
        );
    }
    // The first column's name is free (C BestGuess's textbook files).
    (1..C_TOOL_ROW_FIELDS)
        .find(|&i| !names_column(row, i))
        .map_or_else(String::new, |i| {
            format!(
                "column {} is {} where {} belongs",
                i + 1,
                Quoted(&field(i)),
                Quoted(C_TOOL_COLUMNS[i])
            )
        })
}

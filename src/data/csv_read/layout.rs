//! A header's layout: which column holds which metric or run attribute,
//! and one row read by it into a run record, each field checked as the
//! column says.

use std::borrow::Cow;
use std::num::IntErrorKind;
use std::sync::Arc;

use crate::data::c_tool_rows::{c_tool_rss, unescape_c_tool};
use crate::data::columns::{
    idx, AdaptiveRule, APPENDED_COLUMNS, C_TOOL_COLUMNS, C_TOOL_ROW_FIELDS, PARAMETER_PREFIX,
};
use crate::data::error::{excerpt, RowProblem};
use crate::data::fast_read::Plan;
use crate::data::metric::{
    recognise, Catalogue, CatalogueError, Metric, MetricDef, RawColumn, Source, Unit, Value,
};
use crate::data::tokenize::Row;
use crate::data::RunRecord;

/// Where everything is, learned from the header.
#[derive(Debug, Default)]
pub(super) struct Layout {
    /// The 0-based position and header name of each column read.
    names: Vec<(usize, Cow<'static, str>)>,
    /// Stored metrics, their column and description (copied, so the
    /// catalogue may grow while the file is read).
    metrics: Vec<(Metric, usize, MetricDef)>,
    /// Sum columns: position, metric, its parts.
    sums: Vec<(usize, Metric, Metric, Metric, Cow<'static, str>)>,
    /// 0-based position of each of [`APPENDED_COLUMNS`], if in the header.
    run_columns: [Option<usize>; APPENDED_COLUMNS.len()],
    /// `Parameter NAME` columns: position and parameter name.
    parameters: Vec<(usize, String)>,
    /// The rule of an adaptive experiment, if the header records one.
    pub(super) adaptive: Option<AdaptiveRule>,
    /// The header's number of fields.
    header_fields: usize,
}

/// A problem with the 0-based field `.0` of a row.
pub(super) type FieldError = (usize, RowProblem);

impl Layout {
    /// The layout of `header`, or the 0-based column that names a column
    /// read before it (which one the data meant cannot be known).
    pub(super) fn from_header(header: &Row, catalogue: &mut Catalogue) -> Result<Self, FieldError> {
        let mut layout = Layout {
            header_fields: header.len(),
            ..Layout::default()
        };
        // C BestGuess's columns, by position.
        for (metric, def) in catalogue.iter() {
            if let RawColumn::CTool(i) = def.raw {
                layout.place(i, metric, def);
            }
        }
        for i in C_TOOL_COLUMNS.len()..header.len() {
            let Some(name) = header.get(i).and_then(|b| std::str::from_utf8(b).ok()) else {
                continue;
            };
            let name = name.trim();
            if let Some(first) = layout.read_as(name) {
                return Err((i, RowProblem::DuplicateColumn { first: first + 1 }));
            }
            if let Some(p) = name.strip_prefix(PARAMETER_PREFIX) {
                layout.parameters.push((i, p.to_owned()));
                layout.names.push((i, name.to_owned().into()));
                continue;
            }
            if let Some(rule) = AdaptiveRule::parse(name) {
                // Its fields are empty: nothing to read from the rows.
                layout.adaptive = Some(rule);
                continue;
            }
            if let Some(k) = APPENDED_COLUMNS.iter().position(|&c| c == name) {
                layout.run_columns[k] = Some(i);
                layout.names.push((i, APPENDED_COLUMNS[k].into()));
                continue;
            }
            let known = catalogue.by_column(name).filter(|&m| {
                let def = catalogue.def(m);
                def.raw == RawColumn::Appended && def.source == Source::Stored
            });
            let metric = match (known, recognise(name)) {
                (Some(m), _) => Some(m),
                (None, Some(def)) => Some(catalogue.register(def).map_err(|e| {
                    let problem = match &e {
                        CatalogueError::Clash(metric) => RowProblem::MetricClash {
                            metric: metric.clone(),
                            before: catalogue
                                .find(metric)
                                .map(|m| catalogue.def(m).column.to_string()),
                        },
                        CatalogueError::Full(_) | CatalogueError::NotAppended(_) => {
                            RowProblem::TooManyMetrics(e.to_string())
                        }
                    };
                    (i, problem)
                })?),
                (None, None) => None,
            };
            if let Some(metric) = metric {
                // One metric under two spellings (`score (NUMBER)`).
                if let Some(&(_, first, _)) = layout.metrics.iter().find(|m| m.0 == metric) {
                    return Err((i, RowProblem::DuplicateColumn { first: first + 1 }));
                }
                layout.place(i, metric, catalogue.def(metric));
            }
        }
        Ok(layout)
    }

    /// The 0-based column read under `name` so far, if any: one of C
    /// BestGuess's (named as [`is_header`](super::header::is_header) compares them) or an appended
    /// one read (named exactly; an appended column not read, such as a
    /// note, may share its name with another).
    pub(super) fn read_as(&self, name: &str) -> Option<usize> {
        C_TOOL_COLUMNS
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .or_else(|| {
                self.names
                    .iter()
                    .find(|(i, n)| *i >= C_TOOL_COLUMNS.len() && n == name)
                    .map(|(i, _)| *i)
            })
    }

    pub(super) fn place(&mut self, i: usize, metric: Metric, def: &MetricDef) {
        self.names.push((i, def.column.clone()));
        match def.source {
            Source::Stored => self.metrics.push((metric, i, def.clone())),
            Source::Sum(a, b) => self.sums.push((i, metric, a, b, def.label.clone())),
        }
        self.metrics.sort_by_key(|m| m.1);
        self.sums.sort_by_key(|s| s.0);
    }

    /// The fast path's plan for this layout, if `fast` and it has one
    /// (not for parameter columns, nor a metric in two columns).
    pub(super) fn plan(&self, fast: bool) -> Option<Arc<Plan>> {
        if !fast || !self.parameters.is_empty() {
            return None;
        }
        let mut plan = Plan::new();
        plan.short_rows_are_c_tool = self.short_rows_are_c_tool();
        for (metric, i, def) in &self.metrics {
            if !plan.metric(*metric, *i, !def.optional) {
                return None;
            }
        }
        for (i, _, a, b, _) in &self.sums {
            if !plan.total(*i, [*a, *b]) {
                return None;
            }
        }
        for (k, i) in self.run_columns.iter().enumerate() {
            if let Some(i) = i {
                if !plan.run_column(k, *i) {
                    return None;
                }
            }
        }
        Some(Arc::new(plan))
    }

    /// The header name of 0-based column `i`, if BestGuess knows it.
    pub(super) fn column_name(&self, i: usize) -> Option<String> {
        if let Some(name) = C_TOOL_COLUMNS.get(i) {
            return Some((*name).to_owned());
        }
        self.names
            .iter()
            .find(|s| s.0 == i)
            .map(|s| s.1.clone().into_owned())
    }

    /// Whether rows of 13 fields are C BestGuess's: not under a header
    /// with BestGuess's appended columns (the C tool writes 13 or 15
    /// names), where such a row is one cut off.
    pub(super) fn short_rows_are_c_tool(&self) -> bool {
        self.header_fields <= C_TOOL_COLUMNS.len()
    }

    /// Parses `row` into `out` (whose strings and values are reused);
    /// returns whether the command, shell or name changed.
    pub(super) fn record(&self, row: &Row, out: &mut RunRecord) -> Result<bool, FieldError> {
        let n = row.len();
        if n < C_TOOL_ROW_FIELDS || n == C_TOOL_ROW_FIELDS + 1 {
            return Err((n, RowProblem::FieldCount { found: n }));
        }
        // A row shorter than its header that ends the input without a line
        // end, or a 13-field row under BestGuess's header: cut off, its
        // last field likely cut too (`95` for `950`).
        let short =
            n < self.header_fields && !(n == C_TOOL_ROW_FIELDS && self.short_rows_are_c_tool());
        if short && (row.unterminated || n == C_TOOL_ROW_FIELDS) {
            return Err((
                n,
                RowProblem::CutOff {
                    found: n,
                    header: self.header_fields,
                },
            ));
        }
        // Exactly 13 fields: written by C BestGuess, backslash-escaped.
        let c_tool = n == C_TOOL_ROW_FIELDS;

        // Fields in column order, so the leftmost problem is the one reported.
        let changed = text_into(row, idx::COMMAND, c_tool, &mut out.command)?
            | text_into(row, idx::SHELL, c_tool, &mut out.shell)?
            | text_into(row, idx::NAME, c_tool, &mut out.name)?;
        out.batch = int(row, idx::BATCH, 0, u64::MAX)? as u64;
        out.exit_code = int(row, idx::EXIT_CODE, i32::MIN.into(), i32::MAX as u64)? as i32;
        out.metrics.clear();
        for (metric, i, def) in &self.metrics {
            let value = if *i >= n {
                None
            } else if def.optional {
                metric_value(row, *i, def)?
            } else {
                Some(Value::Int(int(row, *i, 0, i64::MAX as u64)? as i64))
            };
            let value = match value {
                Some(Value::Int(v)) if c_tool && *metric == Metric::MAXRSS => {
                    let too_large = RowProblem::SumOverflow {
                        what: "Max RSS in bytes",
                    };
                    Some(Value::Int(c_tool_rss(v).ok_or((*i, too_large))?))
                }
                v => v,
            };
            // A stored metric (sums are `self.sums`).
            out.metrics.set_stored(*metric, value);
        }
        for (i, metric, a, b, label) in &self.sums {
            let parts = [a, b].map(|&m| out.metrics.get(m));
            if parts.iter().any(Option::is_none) {
                continue;
            }
            // Report an overflow at the later of the two part columns.
            let at = || {
                self.metrics
                    .iter()
                    .filter(|m| m.0 == *a || m.0 == *b)
                    .map(|m| m.1)
                    .max()
                    .unwrap_or(*i)
            };
            // The sum as `Values::get` computes it, from the parts at hand.
            let sum = match parts {
                [Some(x), Some(y)] => x.sum(y),
                _ => None,
            };
            debug_assert_eq!(sum, out.metrics.get(*metric));
            let sum = sum.ok_or_else(|| {
                (
                    at(),
                    RowProblem::SumOverflow {
                        what: sum_name(label),
                    },
                )
            })?;
            if !c_tool && *i < n {
                check_total(row, *i, sum, sum_name(label))?;
            }
        }

        let run_column = |k: usize| self.run_columns[k].filter(|&i| i < n);
        out.sequence = match run_column(0) {
            Some(i) => opt_int(row, i, 0, u64::MAX)?.map(|v| v as u64),
            None => None,
        };
        out.start_unix_us = match run_column(1) {
            Some(i) => opt_int(row, i, i64::MIN, i64::MAX as u64)?.map(|v| v as i64),
            None => None,
        };
        out.signal = match run_column(2) {
            Some(i) => opt_int(row, i, 1, i32::MAX as u64)?.map(|v| v as i32),
            None => None,
        };
        out.timed_out = match run_column(3) {
            Some(i) => flag(row, i)?,
            None => false,
        };
        out.parameters.clear();
        for (i, name) in self.parameters.iter().filter(|(i, _)| *i < n) {
            let mut value = String::new();
            text_into(row, *i, c_tool, &mut value)?;
            out.parameters.push((name.clone(), value));
        }
        Ok(changed)
    }
}

/// The wording of a total's parts in messages.
pub(super) fn sum_name(label: &str) -> &'static str {
    match label {
        "Total CPU time" => "User time + System time",
        "Context switches" => "Voluntary + Involuntary Context Switches",
        _ => "the sum of its parts",
    }
}

/// Field `i` as text into `out`, un-escaping C BestGuess's backslashes if
/// asked; returns whether `out` changed.
pub(super) fn text_into(
    row: &Row,
    i: usize,
    c_tool: bool,
    out: &mut String,
) -> Result<bool, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    // Consecutive rows mostly repeat the command: nothing to check or copy.
    if !c_tool && bytes == out.as_bytes() {
        return Ok(false);
    }
    let decoded = if c_tool {
        unescape_c_tool(bytes)
    } else {
        Cow::Borrowed(bytes)
    };
    let text = std::str::from_utf8(&decoded).map_err(|_| (i, RowProblem::InvalidUtf8))?;
    if out == text {
        return Ok(false);
    }
    out.clear();
    out.push_str(text);
    Ok(true)
}

/// An optional metric's field: blank is absent; an integer for integer
/// metrics (non-negative unless the unit is [`Unit::Number`]), else any
/// number within ±[`Value::MAX_REAL`].
pub(super) fn metric_value(
    row: &Row,
    i: usize,
    def: &MetricDef,
) -> Result<Option<Value>, FieldError> {
    if def.integer || def.unit != Unit::Number {
        let min = if def.unit == Unit::Number {
            i64::MIN
        } else {
            0
        };
        return Ok(opt_int(row, i, min, i64::MAX as u64)?.map(|v| Value::Int(v as i64)));
    }
    let bytes = row.get(i).unwrap_or_default();
    let text = std::str::from_utf8(bytes)
        .unwrap_or("\u{fffd}")
        .trim_matches([' ', '\t']);
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(v) = text.trim_start_matches('+').parse::<i64>() {
        return Ok(Some(Value::Int(v)));
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Value::real(x).map(Some).ok_or_else(|| {
            (
                i,
                RowProblem::BeyondMagnitude {
                    found: excerpt(bytes),
                },
            )
        }),
        _ => Err((
            i,
            RowProblem::NotANumber {
                found: excerpt(bytes),
            },
        )),
    }
}

/// Field `i` as an integer within `min..=max`.
pub(super) fn int(row: &Row, i: usize, min: i64, max: u64) -> Result<i128, FieldError> {
    opt_int(row, i, min, max)?.ok_or_else(|| {
        (
            i,
            RowProblem::NotAnInteger {
                found: excerpt(row.get(i).unwrap_or_default()),
            },
        )
    })
}

/// Field `i` as an integer within `min..=max`, or `None` if it is blank.
pub(super) fn opt_int(row: &Row, i: usize, min: i64, max: u64) -> Result<Option<i128>, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    // Fast path for what writers write: 1 to 18 plain digits (no sign, no
    // blanks), which always fit; anything else takes the general path.
    if (1..=18).contains(&bytes.len()) {
        let digits = bytes.iter().try_fold(0u64, |v, &b| {
            let d = b.wrapping_sub(b'0');
            (d <= 9).then(|| v * 10 + u64::from(d))
        });
        if let Some(value) = digits.map(i128::from) {
            if value >= i128::from(min) && value <= i128::from(max) {
                return Ok(Some(value));
            }
        }
    }
    let found = || excerpt(bytes);
    let not_an_integer = || (i, RowProblem::NotAnInteger { found: found() });
    let digits = std::str::from_utf8(bytes)
        .map_err(|_| not_an_integer())?
        .trim_matches([' ', '\t']);
    if digits.is_empty() {
        return Ok(None);
    }
    let value = digits.parse::<i128>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => (
            i,
            RowProblem::OutOfRange {
                found: found(),
                min,
                max,
            },
        ),
        _ => not_an_integer(),
    })?;
    if value < 0 && min == 0 {
        Err((i, RowProblem::Negative { found: found() }))
    } else if value < min.into() || value > max.into() {
        Err((
            i,
            RowProblem::OutOfRange {
                found: found(),
                min,
                max,
            },
        ))
    } else {
        Ok(Some(value))
    }
}

/// A derived total column: blank, or equal to `sum`.
pub(super) fn check_total(
    row: &Row,
    i: usize,
    sum: Value,
    what: &'static str,
) -> Result<(), FieldError> {
    let Value::Int(sum) = sum else {
        return Ok(());
    };
    match opt_int(row, i, 0, i64::MAX as u64)? {
        Some(found) if found != sum as i128 => Err((
            i,
            RowProblem::SumMismatch {
                found: found as i64,
                sum,
                what,
            },
        )),
        _ => Ok(()),
    }
}

/// The "Timed out" column: 1 is true; 0 or blank is false.
pub(super) fn flag(row: &Row, i: usize) -> Result<bool, FieldError> {
    let bytes = row.get(i).unwrap_or_default();
    match std::str::from_utf8(bytes).map(|s| s.trim_matches([' ', '\t'])) {
        Ok("" | "0") => Ok(false),
        Ok("1") => Ok(true),
        _ => Err((
            i,
            RowProblem::NotAFlag {
                found: excerpt(bytes),
            },
        )),
    }
}

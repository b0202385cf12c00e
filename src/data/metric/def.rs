//! What describes one metric: its [`MetricDef`] and the parts of it (the
//! unit, where its value comes from, where the launcher and the raw CSV
//! carry it), and the description of an appended raw CSV column.

use std::borrow::Cow;
use std::fmt;

use super::Metric;

/// The unit a metric is recorded in. Values stay in this unit until they are
/// rendered; the unit decides the display ladder (μs/ms/s, B/KB/MB/GB, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Microseconds,
    Nanoseconds,
    Bytes,
    /// Events counted (context switches, page faults, instructions).
    Count,
    /// A figure without a unit the tool knows (a command's own metric).
    Number,
}

impl Unit {
    /// The unit's symbol as used in summary column names and JSON.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Microseconds => "μs",
            Unit::Nanoseconds => "ns",
            Unit::Bytes => "bytes",
            Unit::Count => "ct",
            Unit::Number => "",
        }
    }

    /// The unit as written in a raw CSV column name: `NAME (us)`.
    pub fn column_suffix(self) -> &'static str {
        match self {
            Unit::Microseconds => "us",
            Unit::Nanoseconds => "ns",
            Unit::Bytes => "bytes",
            Unit::Count => "ct",
            Unit::Number => "number",
        }
    }

    /// The unit a column suffix names (`us`, `ns`, `bytes`, `ct`, `number`;
    /// ASCII case aside): the inverse of [`Unit::column_suffix`].
    pub fn from_suffix(suffix: &str) -> Option<Unit> {
        Unit::ALL
            .into_iter()
            .find(|u| u.column_suffix().eq_ignore_ascii_case(suffix))
    }

    const ALL: [Unit; 5] = [
        Unit::Microseconds,
        Unit::Nanoseconds,
        Unit::Bytes,
        Unit::Count,
        Unit::Number,
    ];

    /// Whether the unit measures time (such metrics share a display scale
    /// in the summary table).
    pub fn is_time(self) -> bool {
        matches!(self, Unit::Microseconds | Unit::Nanoseconds)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// Where a metric's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Measured and stored per run.
    Stored,
    /// The sum of two stored metrics (absent if either is); never stored,
    /// so it cannot disagree with its parts.
    Sum(Metric, Metric),
}

/// How the launcher's integer in a response slot becomes the metric's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireScale {
    /// Already in the metric's unit.
    Same,
    /// `ru_maxrss`, whose unit is the platform's (KiB on Linux, bytes on
    /// macOS): converted by the function the launcher's client gives
    /// ([`Wire::convert`]).
    RuMaxrss,
    /// Nanoseconds to microseconds, rounded half up.
    NsToMicros,
}

/// Where the launcher's response carries a metric (see the `SLOT_`
/// constants of `measure/protocol/consts.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire {
    /// Index of the little-endian i64 in the response's integer block.
    pub slot: usize,
    pub scale: WireScale,
}

impl Wire {
    /// The metric's value for the launcher's integer `raw`; `None` for a
    /// negative one, which is how the launcher says "not measured" (every
    /// quantity it reports is a time, a size or a count). `ru_maxrss_bytes`
    /// converts `ru_maxrss` on this platform (`measure::platform`, the one
    /// place that knows the units).
    pub fn convert(self, raw: i64, ru_maxrss_bytes: fn(i64) -> i64) -> Option<i64> {
        if raw < 0 {
            return None;
        }
        Some(match self.scale {
            WireScale::Same => raw,
            WireScale::RuMaxrss => ru_maxrss_bytes(raw),
            WireScale::NsToMicros => ((raw as u64).saturating_add(500) / 1000) as i64,
        })
    }
}

/// Where a metric sits in the raw CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawColumn {
    /// One of C BestGuess's fifteen columns, at this 0-based position.
    CTool(usize),
    /// Appended after BestGuess's own columns, found by its header name.
    Appended,
}

/// Everything the tool needs to know about one per-run metric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricDef {
    /// The short name users give (`--metric wall`), also used in messages.
    pub name: Cow<'static, str>,
    /// The raw CSV column header.
    pub column: Cow<'static, str>,
    pub raw: RawColumn,
    /// The JSON key (per run and per summary).
    pub key: Cow<'static, str>,
    /// The label in reports ("Total CPU time").
    pub label: Cow<'static, str>,
    /// A label of at most 15 columns, for the summary table's rows.
    pub row_label: Cow<'static, str>,
    pub unit: Unit,
    /// Values are integers (false: a command's own metric may be 2.5).
    pub integer: bool,
    /// A run may lack it (false: every row of a raw file must have it).
    pub optional: bool,
    /// Shown as a row of the default summary table.
    pub summary_row: bool,
    pub source: Source,
    /// Where the launcher reports it, for metrics measured by the launcher.
    pub wire: Option<Wire>,
}

impl MetricDef {
    /// A metric known only at run time (a counter, a command's own figure):
    /// stored, optional, shown in the summary, appended to the raw CSV as
    /// the column `NAME (UNIT)` (see [`recognise`]); integer unless its unit
    /// is [`Unit::Number`]. `name` is also its JSON key and label.
    pub fn appended(name: &str, unit: Unit) -> MetricDef {
        let name = name.trim();
        MetricDef {
            name: name.to_owned().into(),
            column: format!("{name} ({})", unit.column_suffix()).into(),
            raw: RawColumn::Appended,
            key: name.to_owned().into(),
            label: name.to_owned().into(),
            row_label: name.to_owned().into(),
            unit,
            integer: unit != Unit::Number,
            optional: true,
            summary_row: true,
            source: Source::Stored,
            wire: None,
        }
    }
}

/// The metric an appended raw CSV column holds, recognised from its header
/// `NAME (UNIT)`, UNIT one of `us`, `ns`, `bytes`, `ct` and `number` (ASCII
/// case aside): the inverse of [`MetricDef::appended`]. Other headers are
/// not metrics (another tool's columns are ignored, not misread).
pub fn recognise(column: &str) -> Option<MetricDef> {
    let rest = column.trim().strip_suffix(')')?;
    let open = rest.rfind(" (")?;
    let (name, suffix) = (rest[..open].trim(), &rest[open + 2..]);
    let unit = Unit::from_suffix(suffix)?;
    if name.is_empty() {
        return None;
    }
    // With its header spelled one way (`score (NUMBER)` is `score
    // (number)`), so that one metric is one description in every file.
    Some(MetricDef::appended(name, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appended_columns_are_recognised_by_their_unit() {
        let d = recognise("task-clock (ns)").unwrap();
        assert_eq!(
            (d.name.as_ref(), d.unit, d.integer),
            ("task-clock", Unit::Nanoseconds, true)
        );
        assert_eq!(d, MetricDef::appended("task-clock", Unit::Nanoseconds));
        let d = recognise(" tokens/s (a) (Number) ").unwrap();
        assert_eq!(
            (d.name.as_ref(), d.unit, d.integer),
            ("tokens/s (a)", Unit::Number, false)
        );
        // One spelling of the unit, whatever the file's.
        assert_eq!(d.column, "tokens/s (a) (number)");
        assert_eq!(recognise("tokens/s (a)  (NUMBER)"), Some(d));
        for other in ["Comment", "x (furlongs)", " (ct)", "Sequence", "ct)"] {
            assert_eq!(recognise(other), None, "{other}");
        }
    }

    #[test]
    fn wire_conversions() {
        let w = |scale| Wire { slot: 0, scale };
        let kib = |raw: i64| raw * 1024;
        assert_eq!(w(WireScale::Same).convert(7, kib), Some(7));
        assert_eq!(w(WireScale::RuMaxrss).convert(3, kib), Some(3072));
        assert_eq!(w(WireScale::NsToMicros).convert(1499, kib), Some(1));
        assert_eq!(w(WireScale::NsToMicros).convert(1500, kib), Some(2));
        // The launcher's "not measured".
        assert_eq!(w(WireScale::NsToMicros).convert(-1, kib), None);
    }
}

//! The metric catalogue: every per-run metric described once.
//!
//! A metric is identified by a [`Metric`] value, an index into a
//! [`Catalogue`]. The catalogue starts with the fixed metrics every run has
//! ([`BUILTINS`]: what `wait4` and the clock report, and the two totals) and
//! admits further metrics known only at run time — performance counters, a
//! command's own figures — with [`Catalogue::register`]. Each entry, a
//! [`MetricDef`], says everything the rest of the tool needs: the raw CSV
//! column, the JSON key, the labels, the unit (which decides the display
//! scaling), whether a run may lack it, where the launcher puts it on the
//! wire, and whether it is derived from other metrics.
//!
//! Every stage loops over the catalogue instead of naming fields: the
//! launcher codec ([`crate::measure::protocol`]) fills a [`Values`] from the
//! wire slots, the runner moves that one value into the
//! [`RunRecord`](super::RunRecord), the raw CSV writer and reader map
//! columns to entries, the [`Dataset`](super::Dataset) keeps one column per
//! entry, the analysis summarises each, and the reports and the JSON export
//! show each present one. Adding a metric is adding an entry (and, for a
//! fixed one, its wire slot in `launcher.c`): see "How to add a metric" in
//! `docs/DESIGN.md`.
//!
//! A value that was not measured is absent (`None`), never zero: a run from
//! a file that lacks a column, a counter that could not be read, a custom
//! metric a command did not report.

use std::borrow::Cow;
use std::fmt;
use std::sync::Mutex;

/// Identifies a metric. The fixed metrics are the associated constants;
/// metrics registered at run time ([`Catalogue::register`]) get the next
/// numbers, process-wide: each distinct description is interned once (and
/// lives as long as the process), so a `Metric` alone knows its description
/// ([`Metric::def`]) wherever it goes. A [`Catalogue`] says which metrics a
/// dataset or an experiment has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Metric(u16);

impl Metric {
    /// User + system CPU time: the primary metric, used for ranking.
    pub const TOTAL: Metric = Metric(0);
    pub const USER: Metric = Metric(1);
    pub const SYSTEM: Metric = Metric(2);
    pub const WALL: Metric = Metric(3);
    pub const MAXRSS: Metric = Metric(4);
    /// Minor page faults ("Page Reclaims" in the raw CSV).
    pub const MINOR_FAULTS: Metric = Metric(5);
    /// Major page faults ("Page Faults" in the raw CSV).
    pub const MAJOR_FAULTS: Metric = Metric(6);
    pub const VOLUNTARY_CSW: Metric = Metric(7);
    pub const INVOLUNTARY_CSW: Metric = Metric(8);
    /// Voluntary + involuntary context switches.
    pub const TOTAL_CSW: Metric = Metric(9);
    /// Time the command's process spent runnable but waiting for a CPU
    /// (the scheduler's run-queue delay); absent where the kernel does
    /// not keep it, and in files written without it.
    pub const RUN_DELAY: Metric = Metric(10);

    /// Its number (its position in a [`Values`]).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The fixed metric's description, if this is one.
    pub fn builtin(self) -> Option<&'static MetricDef> {
        BUILTINS.get(self.index())
    }

    /// Its description.
    pub fn def(self) -> &'static MetricDef {
        match self.builtin() {
            Some(d) => d,
            None => {
                let registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
                // Only `intern` makes registered metrics, so the index exists.
                registry[self.index() - BUILTINS.len()]
            }
        }
    }

    /// The label in reports ("Total CPU time").
    pub fn label(self) -> &'static str {
        self.def().label.as_ref()
    }

    /// The unit its values are recorded in.
    pub fn unit(self) -> Unit {
        self.def().unit
    }

    /// The short name users give (`--metric wall`).
    pub fn name(self) -> &'static str {
        self.def().name.as_ref()
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Every registered description, interned (see [`Metric`]).
static REGISTRY: Mutex<Vec<&'static MetricDef>> = Mutex::new(Vec::new());

/// The metric of `def`: the one already interned with this very
/// description, or a new one. `None` when the numbers are exhausted.
fn intern(def: MetricDef) -> Option<Metric> {
    let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    let index = match registry.iter().position(|d| **d == def) {
        Some(i) => i,
        None => {
            if BUILTINS.len() + registry.len() > usize::from(u16::MAX) {
                return None;
            }
            registry.push(Box::leak(Box::new(def)));
            registry.len() - 1
        }
    };
    Some(Metric((BUILTINS.len() + index) as u16))
}

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

/// Where the launcher's response carries a metric (see `protocol.rs`).
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

// One line per field keeps the table below readable as a table.
#[allow(clippy::too_many_arguments)]
const fn fixed(
    name: &'static str,
    column: &'static str,
    position: usize,
    key: &'static str,
    label: &'static str,
    row_label: &'static str,
    unit: Unit,
    summary_row: bool,
    source: Source,
    wire: Option<Wire>,
) -> MetricDef {
    MetricDef {
        name: Cow::Borrowed(name),
        column: Cow::Borrowed(column),
        raw: RawColumn::CTool(position),
        key: Cow::Borrowed(key),
        label: Cow::Borrowed(label),
        row_label: Cow::Borrowed(row_label),
        unit,
        integer: true,
        optional: false,
        summary_row,
        source,
        wire,
    }
}

const fn wire(slot: usize, scale: WireScale) -> Option<Wire> {
    Some(Wire { slot, scale })
}

/// The fixed metrics, in report order; [`Metric`]'s constants index this.
/// The first ten have C BestGuess's raw CSV positions; the run-queue
/// delay, which C BestGuess does not measure, is appended after
/// BestGuess's run columns (files without it read as runs without it).
pub static BUILTINS: [MetricDef; 11] = [
    fixed(
        "total",
        "Total time (us)",
        13,
        "total_us",
        "Total CPU time",
        "Total CPU time",
        Unit::Microseconds,
        true,
        Source::Sum(Metric::USER, Metric::SYSTEM),
        None,
    ),
    fixed(
        "user",
        "User time (us)",
        5,
        "user_us",
        "User time",
        "User time",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(3, WireScale::Same),
    ),
    fixed(
        "system",
        "System time (us)",
        6,
        "system_us",
        "System time",
        "System time",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(4, WireScale::Same),
    ),
    fixed(
        "wall",
        "Wall clock (us)",
        12,
        "wall_us",
        "Wall clock",
        "Wall clock",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(2, WireScale::NsToMicros),
    ),
    fixed(
        "maxrss",
        "Max RSS (Bytes)",
        7,
        "maxrss_bytes",
        "Max RSS",
        "Max RSS",
        Unit::Bytes,
        true,
        Source::Stored,
        wire(5, WireScale::RuMaxrss),
    ),
    fixed(
        "minflt",
        "Page Reclaims",
        8,
        "minor_faults",
        "Minor page faults",
        "Minor faults",
        Unit::Count,
        false,
        Source::Stored,
        wire(6, WireScale::Same),
    ),
    fixed(
        "majflt",
        "Page Faults",
        9,
        "major_faults",
        "Major page faults",
        "Major faults",
        Unit::Count,
        false,
        Source::Stored,
        wire(7, WireScale::Same),
    ),
    fixed(
        "vcsw",
        "Voluntary Context Switches",
        10,
        "voluntary_csw",
        "Voluntary context switches",
        "Voluntary csw",
        Unit::Count,
        false,
        Source::Stored,
        wire(8, WireScale::Same),
    ),
    fixed(
        "icsw",
        "Involuntary Context Switches",
        11,
        "involuntary_csw",
        "Involuntary context switches",
        "Involuntary csw",
        Unit::Count,
        false,
        Source::Stored,
        wire(9, WireScale::Same),
    ),
    fixed(
        "csw",
        "Total Context Switches",
        14,
        "context_switches",
        "Context switches",
        "Context sw",
        Unit::Count,
        true,
        Source::Sum(Metric::VOLUNTARY_CSW, Metric::INVOLUNTARY_CSW),
        None,
    ),
    // Shown in the summary table only when the runs waited noticeably
    // (the report decides, from the analysis): on a quiet machine it is a
    // row of near-zeros.
    MetricDef {
        name: Cow::Borrowed("runq"),
        column: Cow::Borrowed("Run-queue delay (us)"),
        raw: RawColumn::Appended,
        key: Cow::Borrowed("runq_delay_us"),
        label: Cow::Borrowed("Run-queue delay"),
        row_label: Cow::Borrowed("Run-queue delay"),
        unit: Unit::Microseconds,
        integer: true,
        optional: true,
        summary_row: false,
        source: Source::Stored,
        wire: wire(10, WireScale::NsToMicros),
    },
];

/// The metrics of one experiment or dataset: the fixed ones, then those
/// registered at run time, in that order (report order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    metrics: Vec<Metric>,
}

impl Default for Catalogue {
    fn default() -> Self {
        Catalogue {
            metrics: (0..BUILTINS.len()).map(|i| Metric(i as u16)).collect(),
        }
    }
}

/// Why a metric could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("a metric named '{0}' (or with that column or key) already exists with another meaning; choose another name")]
    Clash(String),
    #[error("too many different metrics (at most {0}); measure fewer counters or custom metrics")]
    Full(usize),
    #[error("a registered metric must be stored, appended and optional ('{0}')")]
    NotAppended(String),
}

impl Catalogue {
    /// A catalogue of the fixed metrics only.
    pub fn new() -> Catalogue {
        Catalogue::default()
    }

    /// Number of metrics (fixed and registered).
    pub fn len(&self) -> usize {
        self.metrics.len()
    }

    /// Never empty: the fixed metrics are always there.
    pub fn is_empty(&self) -> bool {
        self.metrics.is_empty()
    }

    /// Every metric, fixed ones first, in report order.
    pub fn metrics(&self) -> impl ExactSizeIterator<Item = Metric> + Clone + '_ {
        self.metrics.iter().copied()
    }

    /// Every metric with its description.
    pub fn iter(&self) -> impl Iterator<Item = (Metric, &'static MetricDef)> + Clone + '_ {
        self.metrics().map(|m| (m, m.def()))
    }

    /// The description of `metric` (the same as [`Metric::def`]).
    pub fn def(&self, metric: Metric) -> &'static MetricDef {
        metric.def()
    }

    /// Whether this catalogue has `metric`.
    pub fn contains(&self, metric: Metric) -> bool {
        self.metrics.contains(&metric)
    }

    /// One past the largest metric number here (the length a per-metric
    /// table indexed by [`Metric::index`] needs).
    pub fn index_bound(&self) -> usize {
        self.metrics
            .iter()
            .map(|m| m.index() + 1)
            .max()
            .unwrap_or(0)
    }

    /// The metric with this raw CSV column header, if any.
    pub fn by_column(&self, column: &str) -> Option<Metric> {
        self.iter()
            .find(|(_, d)| d.column == column)
            .map(|(m, _)| m)
    }

    /// The metric a user means by `name`: its name, JSON key or column
    /// header, compared without regard to ASCII case.
    pub fn find(&self, name: &str) -> Option<Metric> {
        let name = name.trim();
        self.iter()
            .find(|(_, d)| {
                [&d.name, &d.key, &d.column]
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(name))
            })
            .map(|(m, _)| m)
    }

    /// Adds a metric known only at run time (a counter, a custom metric) and
    /// returns its id; registering the same description again returns the
    /// same id. It must be stored, appended to the raw CSV and optional, and
    /// its name, column and key must be new to this catalogue.
    pub fn register(&mut self, def: MetricDef) -> Result<Metric, CatalogueError> {
        if def.raw != RawColumn::Appended || def.source != Source::Stored || !def.optional {
            return Err(CatalogueError::NotAppended(def.name.into_owned()));
        }
        for (m, existing) in self.iter() {
            let same_name = existing.name == def.name
                || existing.column == def.column
                || existing.key == def.key;
            if same_name {
                return if *existing == def {
                    Ok(m)
                } else {
                    Err(CatalogueError::Clash(def.name.into_owned()))
                };
            }
        }
        let metric = intern(def).ok_or(CatalogueError::Full(usize::from(u16::MAX)))?;
        self.metrics.push(metric);
        Ok(metric)
    }

    /// The registered (appended) metrics, in registration order.
    pub fn appended(&self) -> impl Iterator<Item = (Metric, &'static MetricDef)> + '_ {
        self.iter().skip(BUILTINS.len())
    }
}

/// One measured value: an integer in the metric's unit, or a real number
/// for metrics that allow it, or a time in seconds as another tool wrote
/// it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    /// Always finite.
    Real(f64),
    /// A time in seconds as another tool's file holds it (Hyperfine's,
    /// cbdr's), not whole µs: kept as read, so that an export writes back
    /// the very number read. Everything else takes it in µs, the metric's
    /// unit ([`Value::as_f64`]). Not every `f64` of seconds has an `f64` of
    /// µs that gives it back (× 10⁶ maps some ranges of doubles onto fewer
    /// doubles), so µs could not keep it. Always finite, and within
    /// ±[`Value::MAX_REAL`] as µs.
    Seconds(f64),
}

impl Value {
    /// The largest magnitude of a real value: what the statistics take
    /// ([`crate::stats::Sample::MAX_MAGNITUDE`]), so that a value every
    /// reader accepted never fails the analysis.
    pub const MAX_REAL: f64 = crate::stats::Sample::MAX_MAGNITUDE;

    /// `x` as a real value: `None` unless finite and within
    /// ±[`Value::MAX_REAL`]; −0 is 0 (the same value, and never shown as
    /// `-0`).
    pub fn real(x: f64) -> Option<Value> {
        (x.is_finite() && x.abs() <= Value::MAX_REAL).then_some(Value::Real(x + 0.0))
    }

    /// `s` seconds as a value ([`Value::Seconds`]): `None` unless finite
    /// and within ±[`Value::MAX_REAL`] as µs; −0 is 0.
    pub fn seconds(s: f64) -> Option<Value> {
        Value::real(s * 1e6).map(|_| Value::Seconds(s + 0.0))
    }

    /// The value in the metric's unit. A time in seconds is its µs,
    /// s × 10⁶, and a whole number of µs when within a part in 10¹⁴ of one
    /// (the product's own error is a few parts in 10¹⁶): a time of whole
    /// µs written in seconds (Hyperfine's CPU times are µs × 10⁻⁶, which
    /// is not always µs / 10⁶) is that many µs in every statistic.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Real(x) => x,
            Value::Seconds(s) => {
                let us = s * 1e6;
                let whole = us.round();
                if (us - whole).abs() <= us.abs() * 1e-14 {
                    whole
                } else {
                    us
                }
            }
        }
    }

    /// The integer, if this is one.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Real(_) | Value::Seconds(_) => None,
        }
    }

    /// `self + other`, as a derived total is computed: integers exactly
    /// (`None` if the sum overflows); with a time in seconds, in seconds
    /// (an integer as the `n / 10⁶` seconds it was read from), as Hyperfine
    /// sums `time_cpu`, so that the total is written back as the source's;
    /// else as reals in the metric's unit.
    pub fn sum(self, other: Value) -> Option<Value> {
        let seconds = |v: Value| match v {
            Value::Seconds(s) => Some(s),
            Value::Int(n) => Some(n as f64 / 1e6),
            Value::Real(_) => None,
        };
        match (self, other) {
            (Value::Int(x), Value::Int(y)) => x.checked_add(y).map(Value::Int),
            (x @ Value::Seconds(_), y) | (x, y @ Value::Seconds(_)) => {
                match (seconds(x), seconds(y)) {
                    (Some(a), Some(b)) => Value::seconds(a + b),
                    _ => Some(Value::Real(x.as_f64() + y.as_f64())),
                }
            }
            (x, y) => Some(Value::Real(x.as_f64() + y.as_f64())),
        }
    }
}

impl fmt::Display for Value {
    /// Integers as integers; reals in Rust's shortest round-trip form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(x) => write!(f, "{x}"),
            Value::Seconds(_) => write!(f, "{}", self.as_f64()),
        }
    }
}

/// The metric values of one run, indexed by [`Metric`]: the one value that
/// carries a measurement from the launcher to the record. Derived metrics
/// are computed on request, never stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Values(Vec<Option<Value>>);

impl Values {
    /// No value for any metric.
    pub fn new() -> Values {
        Values::default()
    }

    /// The value of `metric`, if the run has it (derived ones computed; a
    /// sum that would overflow is absent).
    pub fn get(&self, metric: Metric) -> Option<Value> {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(a, b)) => self.get(a)?.sum(self.get(b)?),
            _ => self.0.get(metric.index()).copied().flatten(),
        }
    }

    /// The stored value of `metric` (`None` for a derived one).
    pub fn stored(&self, metric: Metric) -> Option<Value> {
        self.0.get(metric.index()).copied().flatten()
    }

    /// [`Values::get`] as an integer (absent if absent or not an integer).
    pub fn int(&self, metric: Metric) -> Option<i64> {
        self.get(metric).and_then(Value::as_int)
    }

    /// Sets (or with `None` clears) the stored value of `metric`. A derived
    /// metric is not stored: setting it does nothing.
    pub fn set(&mut self, metric: Metric, value: Option<Value>) {
        if matches!(metric.builtin().map(|d| d.source), Some(Source::Sum(..))) {
            return;
        }
        self.set_stored(metric, value);
    }

    /// [`Values::set`] for a metric known to be stored (not derived).
    pub fn set_stored(&mut self, metric: Metric, value: Option<Value>) {
        let i = metric.index();
        if self.0.len() <= i {
            if value.is_none() {
                return;
            }
            self.0.resize(i + 1, None);
        }
        self.0[i] = value;
    }

    /// Removes every value (keeping the allocation).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// `self` with `metric` set to the integer `value` (for building records).
    pub fn with(mut self, metric: Metric, value: i64) -> Values {
        self.set(metric, Some(Value::Int(value)));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn custom(name: &str) -> MetricDef {
        MetricDef::appended(name, Unit::Number)
    }

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
    fn the_constants_index_their_descriptions() {
        let c = Catalogue::new();
        let names: Vec<&str> = c.iter().map(|(_, d)| d.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "total", "user", "system", "wall", "maxrss", "minflt", "majflt", "vcsw", "icsw",
                "csw", "runq"
            ]
        );
        assert_eq!(c.def(Metric::WALL).label, "Wall clock");
        assert_eq!(Metric::TOTAL.to_string(), "Total CPU time");
        assert_eq!(Metric::MAXRSS.unit(), Unit::Bytes);
        assert_eq!(c.def(Metric::MAXRSS).column, "Max RSS (Bytes)");
        assert_eq!(c.def(Metric::TOTAL_CSW).row_label, "Context sw");
        // Every raw position of C BestGuess's metric columns, once; the
        // run-queue delay appended, optional, found by its column name.
        let mut positions: Vec<usize> = c
            .iter()
            .filter_map(|(_, d)| match d.raw {
                RawColumn::CTool(p) => Some(p),
                RawColumn::Appended => None,
            })
            .collect();
        positions.sort_unstable();
        assert_eq!(positions, (5..15).collect::<Vec<_>>());
        let delay = c.def(Metric::RUN_DELAY);
        assert_eq!(
            (delay.raw, delay.optional, delay.column.as_ref()),
            (RawColumn::Appended, true, "Run-queue delay (us)")
        );
        assert_eq!(c.by_column("Run-queue delay (us)"), Some(Metric::RUN_DELAY));
        assert!(c.iter().all(|(_, d)| d.row_label.chars().count() <= 15));
    }

    #[test]
    fn find_by_name_key_or_column() {
        let c = Catalogue::new();
        assert_eq!(c.find("wall"), Some(Metric::WALL));
        assert_eq!(c.find("USER_US"), Some(Metric::USER));
        assert_eq!(c.find("Page Reclaims"), Some(Metric::MINOR_FAULTS));
        assert_eq!(c.find("nonsense"), None);
        assert_eq!(c.by_column("Wall clock (us)"), Some(Metric::WALL));
    }

    #[test]
    fn registered_metrics_follow_the_fixed_ones() {
        let mut c = Catalogue::new();
        let a = c.register(custom("tokens")).unwrap();
        let b = c.register(custom("score")).unwrap();
        assert!(a.index() >= BUILTINS.len() && b.index() >= BUILTINS.len() && a != b);
        assert_eq!((a.label(), b.unit()), ("tokens", Unit::Number));
        // The same description elsewhere is the same metric.
        assert_eq!(Catalogue::new().register(custom("score")), Ok(b));
        assert_eq!(
            c.register(custom("tokens")),
            Ok(a),
            "same description, same id"
        );
        let mut clash = custom("tokens");
        clash.unit = Unit::Bytes;
        assert!(matches!(c.register(clash), Err(CatalogueError::Clash(_))));
        let mut builtin_name = custom("x");
        builtin_name.name = "wall".into();
        assert!(c.register(builtin_name).is_err());
        assert!(c.register(BUILTINS[1].clone()).is_err());
        assert_eq!(c.find("score"), Some(b));
        assert_eq!(c.appended().map(|(m, _)| m).collect::<Vec<_>>(), [a, b]);
        assert_eq!(c.len(), BUILTINS.len() + 2);
    }

    #[test]
    fn values_derive_totals_and_keep_absence() {
        let v = Values::new()
            .with(Metric::USER, 3)
            .with(Metric::SYSTEM, 4)
            .with(Metric::VOLUNTARY_CSW, 1);
        assert_eq!(v.get(Metric::TOTAL), Some(Value::Int(7)));
        assert_eq!(v.get(Metric::TOTAL_CSW), None, "a part is absent");
        assert_eq!(v.get(Metric::WALL), None);
        assert_eq!(v.get(Metric(500)), None);
        let big = Values::new()
            .with(Metric::USER, i64::MAX)
            .with(Metric::SYSTEM, 1);
        assert_eq!(big.get(Metric::TOTAL), None, "an overflowing sum is absent");
        let mut r = Values::new();
        r.set(Metric(12), Some(Value::Real(2.5)));
        assert_eq!(r.get(Metric(12)).map(Value::as_f64), Some(2.5));
        assert_eq!(r.int(Metric(12)), None);
        assert_eq!(Value::Real(2.5).to_string(), "2.5");
        assert_eq!(Value::Int(-3).to_string(), "-3");
    }

    #[test]
    fn times_in_seconds_are_kept_and_summed_in_seconds() {
        // Hyperfine's 1507 µs of CPU time: 1507 × 10⁻⁶, not 1507 / 10⁶.
        let user = Value::Seconds(0.0015069999999999999);
        assert_ne!(0.0015069999999999999, 1507.0 / 1e6);
        assert_eq!(user.as_f64(), 1507.0, "whole µs in every statistic");
        assert_eq!(user.as_int(), None);
        assert!((Value::Seconds(0.001627031).as_f64() - 1627.031).abs() < 1e-9);
        assert_eq!(Value::Seconds(2.5e-7).as_f64(), 0.25);
        // As Hyperfine sums time_cpu: user + system, in seconds.
        let system = Value::Seconds(0.1);
        assert_eq!(
            user.sum(system),
            Some(Value::Seconds(0.0015069999999999999 + 0.1))
        );
        // An integer is the n / 10⁶ seconds it was read from.
        assert_eq!(user.sum(Value::Int(0)), Some(user));
        assert_eq!(
            Value::Int(2).sum(user),
            Some(Value::Seconds(2e-6 + 0.0015069999999999999))
        );
        assert_eq!(Value::Int(2).sum(Value::Int(3)), Some(Value::Int(5)));
        assert_eq!(Value::Real(0.5).sum(user), Some(Value::Real(1507.5)));
        // Finite and within the statistics' range as µs; −0 is 0.
        assert_eq!(Value::seconds(f64::NAN), None);
        assert_eq!(Value::seconds(1e300), None);
        assert_eq!(Value::seconds(-0.0), Some(Value::Seconds(0.0)));
        assert_eq!(user.to_string(), "1507");
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

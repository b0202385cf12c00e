//! Measured values: one [`Value`] in a metric's unit, and the [`Values`]
//! of one run, indexed by metric, with the derived totals computed.

use std::fmt;

use super::{Metric, Source};

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
}

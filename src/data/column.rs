//! One column of per-run values, stored compactly.
//!
//! A dataset may hold millions of runs, so each column keeps its values as
//! offsets from its first value ("frame of reference") in the narrowest
//! integer type that holds them all: 0 bytes per run while every value is
//! the same (exit codes, signals, a command's text), 1, 2 or 4 bytes for
//! the small spreads of real measurements, 8 only when needed. A column
//! widens (copying once per width, so O(n) in total) when a value does not
//! fit, and becomes `f64` if a non-integer arrives (a command's own metric).
//! Times another tool wrote in seconds ([`Value::Seconds`]) make a column
//! of seconds, as read; an integer in it (whole µs) is kept as its seconds,
//! `n / 10⁶`, which is what every export writes for it and which reads as
//! `n` µs again.
//! Absent values are a bit in a bitmap that exists only once one is absent.
//! Every value reads back exactly as pushed, but for those integers (read
//! back as their seconds) and a time in seconds in a column of other
//! reals (read back as its µs).

use super::metric::Value;

/// Runs decoded at a time by [`Column::iter`].
const CHUNK: usize = 4096;

/// The stored offsets (or reals), one per run.
#[derive(Clone, Debug, Default, PartialEq)]
enum Data {
    /// Every present value equals the base.
    #[default]
    Same,
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    /// Absolute values (the base is 0).
    I64(Vec<i64>),
    Real(Vec<f64>),
    /// Every present value a time in seconds, as read.
    Seconds(Vec<f64>),
}

/// Per-run values of one quantity; see the module docs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Column {
    len: usize,
    /// How many values are present.
    present: usize,
    /// The first present integer (offsets are from it); 0 before that.
    base: i64,
    data: Data,
    /// Bit i set: run i has no value. Shorter than needed means present.
    absent: Vec<u64>,
}

impl Column {
    /// A column of `len` absent values.
    pub fn absent(len: usize) -> Column {
        let mut c = Column::default();
        for _ in 0..len {
            c.push(None);
        }
        c
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether any value is present.
    pub fn any_present(&self) -> bool {
        self.present > 0
    }

    fn is_absent(&self, i: usize) -> bool {
        self.absent
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    #[inline]
    pub fn push(&mut self, value: Option<Value>) {
        // The common case first: an integer that fits the present width.
        if let Some(Value::Int(v)) = value {
            if self.present > 0 && self.push_fitting(v) {
                self.present += 1;
                self.len += 1;
                return;
            }
        }
        self.push_general(value);
    }

    /// Appends `values`, in which -1 stands for an absent value and every
    /// other value is present: as [`Column::push`] of each, a stretch at a
    /// time (the raw CSV reader's fast path; its values are never
    /// negative).
    pub fn push_ints(&mut self, values: &[i64]) {
        let mut i = 0;
        while i < values.len() {
            if self.present > 0 {
                i += self.extend_fitting(&values[i..]);
            }
            let absent = values[i..].iter().take_while(|&&v| v == -1).count();
            if absent > 0 {
                self.push_absent(absent);
                i += absent;
            } else if let Some(&v) = values.get(i) {
                self.push(Some(Value::Int(v)));
                i += 1;
            }
        }
    }

    /// Appends `n` absent values: as `n` times `push(None)`.
    fn push_absent(&mut self, n: usize) {
        let (start, end) = (self.len, self.len + n);
        let words = end.div_ceil(64);
        if self.absent.len() < words {
            self.absent.resize(words, 0);
        }
        for i in start..end {
            self.absent[i / 64] |= 1 << (i % 64);
        }
        // The filler `push(None)` stores: the base.
        let base = self.base;
        match &mut self.data {
            Data::Same => {}
            Data::I8(v) => v.resize(end, 0),
            Data::I16(v) => v.resize(end, 0),
            Data::I32(v) => v.resize(end, 0),
            Data::I64(v) => v.resize(end, base),
            Data::Real(v) => v.resize(end, base as f64),
            Data::Seconds(v) => v.resize(end, 0.0),
        }
        self.len = end;
    }

    /// Appends the leading values of `values` that are present (not -1)
    /// and fit the current integer width; returns how many.
    fn extend_fitting(&mut self, values: &[i64]) -> usize {
        let base = self.base;
        // The offsets from the base while they fit `T`: how many.
        macro_rules! fit {
            ($out:expr, $t:ty) => {{
                let out = $out;
                out.reserve(values.len());
                let mut n = 0;
                // Whole pieces that fit, known from their least and greatest
                // value (loops the compiler makes vector code), stored in
                // one go; the first piece that may not fit goes value by
                // value below, up to its first value that does not.
                for piece in values.chunks(64) {
                    let (lo, hi) = piece
                        .iter()
                        .fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                    let no_absent = lo > -1 || hi < -1;
                    let fits = |v: i64| <$t>::try_from(i128::from(v) - i128::from(base)).is_ok();
                    if !(no_absent && fits(lo) && fits(hi)) {
                        break;
                    }
                    out.extend(piece.iter().map(|&v| v.wrapping_sub(base) as $t));
                    n += piece.len();
                }
                for &v in &values[n..] {
                    let Some(offset) = v.checked_sub(base) else {
                        break;
                    };
                    let Ok(x) = <$t>::try_from(offset) else { break };
                    if v == -1 {
                        break;
                    }
                    out.push(x);
                    n += 1;
                }
                n
            }};
        }
        let n = match &mut self.data {
            Data::Same => values.iter().take_while(|&&v| v == base && v != -1).count(),
            Data::I8(out) => fit!(out, i8),
            Data::I16(out) => fit!(out, i16),
            Data::I32(out) => fit!(out, i32),
            Data::I64(out) => {
                // Absolute values (the base is 0).
                let n = values.iter().take_while(|&&v| v != -1).count();
                out.extend_from_slice(&values[..n]);
                n
            }
            Data::Real(_) | Data::Seconds(_) => 0,
        };
        self.present += n;
        self.len += n;
        n
    }

    /// Appends `v`'s offset if it fits the current integer width.
    #[inline]
    fn push_fitting(&mut self, v: i64) -> bool {
        let offset = v.wrapping_sub(self.base);
        // An offset computed without overflow (same signs, or the
        // difference stays in range), as `push_int`'s i128 arithmetic.
        if (v < 0) != (self.base < 0) && (offset < 0) != (v < 0) {
            return false;
        }
        match &mut self.data {
            Data::Same => offset == 0,
            Data::I8(values) => i8::try_from(offset).map(|x| values.push(x)).is_ok(),
            Data::I16(values) => i16::try_from(offset).map(|x| values.push(x)).is_ok(),
            Data::I32(values) => i32::try_from(offset).map(|x| values.push(x)).is_ok(),
            _ => false,
        }
    }

    fn push_general(&mut self, value: Option<Value>) {
        let i = self.len;
        match value {
            None => {
                let word = i / 64;
                if self.absent.len() <= word {
                    self.absent.resize(word + 1, 0);
                }
                self.absent[word] |= 1 << (i % 64);
                self.push_int(self.base);
            }
            Some(Value::Int(v)) => {
                if let Data::Seconds(s) = &mut self.data {
                    s.push(v as f64 / 1e6);
                } else if let Data::Real(r) = &mut self.data {
                    r.push(v as f64);
                } else {
                    if self.present == 0 {
                        // Every stored offset so far is a filler (and the
                        // data still `Same`), so the base can move to `v`.
                        self.base = v;
                    }
                    self.push_int(v);
                }
            }
            Some(Value::Real(x)) => {
                self.make_real();
                if let Data::Real(r) = &mut self.data {
                    r.push(x);
                }
            }
            Some(Value::Seconds(s)) => {
                if let Data::Real(r) = &mut self.data {
                    r.push(Value::Seconds(s).as_f64());
                } else {
                    self.make_seconds();
                    if let Data::Seconds(v) = &mut self.data {
                        v.push(s);
                    }
                }
            }
        }
        if value.is_some() {
            self.present += 1;
        }
        self.len += 1;
    }

    /// Appends the integer `v`, widening if its offset does not fit.
    fn push_int(&mut self, v: i64) {
        loop {
            let n = self.len;
            let offset = i128::from(v) - i128::from(self.base);
            let fits = match &mut self.data {
                Data::Same => offset == 0,
                Data::I8(values) => i8::try_from(offset).map(|x| values.push(x)).is_ok(),
                Data::I16(values) => i16::try_from(offset).map(|x| values.push(x)).is_ok(),
                Data::I32(values) => i32::try_from(offset).map(|x| values.push(x)).is_ok(),
                Data::I64(values) => {
                    values.push(v); // Absolute values.
                    true
                }
                Data::Real(values) => {
                    values.push(v as f64);
                    true
                }
                // Only the filler of an absent value comes here.
                Data::Seconds(values) => {
                    values.push(0.0);
                    true
                }
            };
            if fits {
                return;
            }
            self.widen(offset, n);
        }
    }

    /// Moves to the narrowest representation that holds `offset` too.
    fn widen(&mut self, offset: i128, n: usize) {
        // Only a narrower form widens, so every stored offset fits the new
        // one: copied straight across, with no list of them in between.
        let old = |i| self.offset(i);
        let data = if i8::try_from(offset).is_ok() {
            Data::I8((0..n).map(|i| old(i) as i8).collect())
        } else if i16::try_from(offset).is_ok() {
            Data::I16((0..n).map(|i| old(i) as i16).collect())
        } else if i32::try_from(offset).is_ok() {
            Data::I32((0..n).map(|i| old(i) as i32).collect())
        } else {
            let base = i128::from(self.base);
            let values = (0..n).map(|i| (old(i) + base) as i64).collect();
            self.base = 0;
            Data::I64(values)
        };
        self.data = data;
        self.data.reserve(n);
    }

    /// An integer column as seconds (`n / 10⁶` for `n` µs).
    fn make_seconds(&mut self) {
        if !matches!(self.data, Data::Real(_) | Data::Seconds(_)) {
            let values = (0..self.len)
                .map(|i| (self.offset(i) + i128::from(self.base)) as f64 / 1e6)
                .collect();
            self.data = Data::Seconds(values);
        }
    }

    fn make_real(&mut self) {
        match &mut self.data {
            Data::Real(_) => {}
            Data::Seconds(v) => {
                let values = v.iter().map(|&s| Value::Seconds(s).as_f64()).collect();
                self.data = Data::Real(values);
            }
            _ => {
                let values = (0..self.len)
                    .map(|i| (self.offset(i) + i128::from(self.base)) as f64)
                    .collect();
                self.data = Data::Real(values);
            }
        }
    }

    /// The stored offset of run `i` (integer representations only).
    fn offset(&self, i: usize) -> i128 {
        match &self.data {
            Data::Same => 0,
            Data::I8(v) => v[i].into(),
            Data::I16(v) => v[i].into(),
            Data::I32(v) => v[i].into(),
            Data::I64(v) => i128::from(v[i]) - i128::from(self.base),
            Data::Real(v) => v[i] as i128,
            Data::Seconds(v) => Value::Seconds(v[i]).as_f64() as i128,
        }
    }

    /// The value of run `i`, if present.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn get(&self, i: usize) -> Option<Value> {
        assert!(i < self.len, "run {i} of {}", self.len);
        if self.is_absent(i) {
            return None;
        }
        let base = self.base;
        Some(match &self.data {
            Data::Same => Value::Int(base),
            Data::I8(v) => Value::Int(base + i64::from(v[i])),
            Data::I16(v) => Value::Int(base + i64::from(v[i])),
            Data::I32(v) => Value::Int(base + i64::from(v[i])),
            Data::I64(v) => Value::Int(v[i]),
            Data::Real(v) => Value::Real(v[i]),
            Data::Seconds(v) => Value::Seconds(v[i]),
        })
    }

    /// Every value, in run order.
    pub fn iter(&self) -> impl Iterator<Item = Option<Value>> + '_ {
        let mut chunk = Vec::new();
        (0..self.len).step_by(CHUNK).flat_map(move |start| {
            chunk.clear();
            self.read_range(start..(start + CHUNK).min(self.len), &mut chunk);
            std::mem::take(&mut chunk)
        })
    }

    /// Appends the values of runs `range` to `out`, in run order: what
    /// [`Column::get`] gives for each, decoded with one dispatch on the
    /// representation for the whole range (the per-run exports' and the
    /// statistics' hot loop).
    ///
    /// # Panics
    /// If the range goes past [`Column::len`].
    pub fn read_range(&self, range: std::ops::Range<usize>, out: &mut Vec<Option<Value>>) {
        assert!(range.end <= self.len, "runs {range:?} of {}", self.len);
        let start = out.len();
        let base = self.base;
        match &self.data {
            Data::Same => out.extend(range.clone().map(|_| Some(Value::Int(base)))),
            Data::I8(v) => out.extend(
                v[range.clone()]
                    .iter()
                    .map(|&x| Some(Value::Int(base + i64::from(x)))),
            ),
            Data::I16(v) => out.extend(
                v[range.clone()]
                    .iter()
                    .map(|&x| Some(Value::Int(base + i64::from(x)))),
            ),
            Data::I32(v) => out.extend(
                v[range.clone()]
                    .iter()
                    .map(|&x| Some(Value::Int(base + i64::from(x)))),
            ),
            Data::I64(v) => out.extend(v[range.clone()].iter().map(|&x| Some(Value::Int(x)))),
            Data::Real(v) => out.extend(v[range.clone()].iter().map(|&x| Some(Value::Real(x)))),
            Data::Seconds(v) => {
                out.extend(v[range.clone()].iter().map(|&s| Some(Value::Seconds(s))))
            }
        }
        if !self.absent.is_empty() {
            for (k, i) in range.enumerate() {
                if self.is_absent(i) {
                    out[start + k] = None;
                }
            }
        }
    }

    /// Appends the values of runs `range` to `out` as integers and returns
    /// true, when every one of them is a present integer; otherwise
    /// returns false and leaves `out` as it was. The per-run exports' fast
    /// path: the same values as [`Column::read_range`], with no `Option`
    /// or `Value` per run.
    ///
    /// # Panics
    /// If the range goes past [`Column::len`].
    pub fn read_ints(&self, range: std::ops::Range<usize>, out: &mut Vec<i64>) -> bool {
        assert!(range.end <= self.len, "runs {range:?} of {}", self.len);
        if range.is_empty() {
            return true;
        }
        if self.any_absent(range.clone()) {
            return false;
        }
        let base = self.base;
        match &self.data {
            Data::Same => out.extend(range.map(|_| base)),
            Data::I8(v) => out.extend(v[range].iter().map(|&x| base + i64::from(x))),
            Data::I16(v) => out.extend(v[range].iter().map(|&x| base + i64::from(x))),
            Data::I32(v) => out.extend(v[range].iter().map(|&x| base + i64::from(x))),
            Data::I64(v) => out.extend_from_slice(&v[range]),
            Data::Real(_) | Data::Seconds(_) => return false,
        }
        true
    }

    /// The runs with no value, in order.
    pub fn absent_runs(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len.min(64 * self.absent.len())).filter(|&i| self.is_absent(i))
    }

    /// Whether any run in `range` has no value.
    fn any_absent(&self, range: std::ops::Range<usize>) -> bool {
        if self.absent.is_empty() || range.is_empty() {
            return false;
        }
        let (first, last) = (range.start / 64, (range.end - 1) / 64);
        (first..=last.min(self.absent.len().saturating_sub(1))).any(|w| {
            let mut word = self.absent[w];
            if w == first {
                word &= u64::MAX << (range.start % 64);
            }
            if w == last {
                word &= u64::MAX >> (63 - (range.end - 1) % 64);
            }
            word != 0
        })
    }

    /// The present values as `f64`, in run order (exact for integers up to
    /// 2^53).
    pub fn present_f64(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.len);
        let base = self.base as f64;
        let keep = |i: usize| !self.is_absent(i);
        match &self.data {
            Data::Same => out.extend((0..self.len).filter(|&i| keep(i)).map(|_| base)),
            Data::I8(v) => out.extend(widen_present(v, &keep, self.base)),
            Data::I16(v) => out.extend(widen_present(v, &keep, self.base)),
            Data::I32(v) => out.extend(widen_present(v, &keep, self.base)),
            Data::I64(v) => out.extend(
                v.iter()
                    .enumerate()
                    .filter(|(i, _)| keep(*i))
                    .map(|(_, &x)| x as f64),
            ),
            Data::Real(v) => out.extend(
                v.iter()
                    .enumerate()
                    .filter(|(i, _)| keep(*i))
                    .map(|(_, &x)| x),
            ),
            Data::Seconds(v) => out.extend(
                v.iter()
                    .enumerate()
                    .filter(|(i, _)| keep(*i))
                    .map(|(_, &s)| Value::Seconds(s).as_f64()),
            ),
        }
        out
    }

    /// Heap bytes held (for the scale benchmark's accounting).
    pub fn heap_bytes(&self) -> usize {
        let data = match &self.data {
            Data::Same => 0,
            Data::I8(v) => v.capacity(),
            Data::I16(v) => 2 * v.capacity(),
            Data::I32(v) => 4 * v.capacity(),
            Data::I64(v) => 8 * v.capacity(),
            Data::Real(v) | Data::Seconds(v) => 8 * v.capacity(),
        };
        data + 8 * self.absent.capacity()
    }

    /// Gives back spare capacity.
    pub fn shrink_to_fit(&mut self) {
        match &mut self.data {
            Data::Same => {}
            Data::I8(v) => v.shrink_to_fit(),
            Data::I16(v) => v.shrink_to_fit(),
            Data::I32(v) => v.shrink_to_fit(),
            Data::I64(v) => v.shrink_to_fit(),
            Data::Real(v) | Data::Seconds(v) => v.shrink_to_fit(),
        }
        self.absent.shrink_to_fit();
    }
}

fn widen_present<'a, T: Copy + Into<i64>>(
    v: &'a [T],
    keep: &'a impl Fn(usize) -> bool,
    base: i64,
) -> impl Iterator<Item = f64> + 'a {
    v.iter()
        .enumerate()
        .filter(move |(i, _)| keep(*i))
        .map(move |(_, &x)| (base + x.into()) as f64)
}

impl Data {
    fn reserve(&mut self, n: usize) {
        match self {
            Data::Same => {}
            Data::I8(v) => v.reserve(n),
            Data::I16(v) => v.reserve(n),
            Data::I32(v) => v.reserve(n),
            Data::I64(v) => v.reserve(n),
            Data::Real(v) | Data::Seconds(v) => v.reserve(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn column(values: &[Option<Value>]) -> Column {
        let mut c = Column::default();
        values.iter().for_each(|&v| c.push(v));
        c
    }

    #[test]
    fn constant_columns_take_no_space() {
        let c = column(&[Some(Value::Int(0)); 1000]);
        assert_eq!(c.heap_bytes(), 0);
        assert_eq!(c.get(999), Some(Value::Int(0)));
    }

    #[test]
    fn columns_widen_only_as_far_as_needed() {
        let mut c = column(&[Some(Value::Int(1_000_000)), Some(Value::Int(1_000_100))]);
        assert!(matches!(c.data, Data::I8(_)));
        c.push(Some(Value::Int(1_040_000)));
        assert!(matches!(c.data, Data::I32(_)));
        c.push(Some(Value::Int(i64::MIN)));
        c.push(Some(Value::Int(i64::MAX)));
        assert!(matches!(c.data, Data::I64(_)));
        let all: Vec<_> = c.iter().map(|v| v.unwrap().as_int().unwrap()).collect();
        assert_eq!(all, [1_000_000, 1_000_100, 1_040_000, i64::MIN, i64::MAX]);
    }

    #[test]
    fn absent_values_stay_absent_and_do_not_fix_the_base() {
        let c = column(&[
            None,
            None,
            Some(Value::Int(i64::MAX)),
            None,
            Some(Value::Int(5)),
        ]);
        assert_eq!(
            c.iter().collect::<Vec<_>>(),
            [
                None,
                None,
                Some(Value::Int(i64::MAX)),
                None,
                Some(Value::Int(5))
            ]
        );
        assert_eq!(c.present_f64(), [i64::MAX as f64, 5.0]);
        assert!(!Column::absent(3).any_present());
        assert_eq!(Column::absent(70).len(), 70);
    }

    #[test]
    fn a_real_value_turns_the_column_real() {
        let c = column(&[Some(Value::Int(3)), None, Some(Value::Real(2.5))]);
        assert_eq!(
            c.iter().collect::<Vec<_>>(),
            [Some(Value::Real(3.0)), None, Some(Value::Real(2.5))]
        );
    }

    #[test]
    fn times_in_seconds_stay_as_read_and_integers_join_them_as_seconds() {
        // Hyperfine's user times beside a system time of 0 (read as 0 µs).
        let read = [0.0015069999999999999, 0.001627031, 2.5e-7];
        let mut c = column(&[None, Some(Value::Int(0))]);
        for s in read {
            c.push(Some(Value::Seconds(s)));
        }
        c.push(Some(Value::Int(1507)));
        assert!(matches!(c.data, Data::Seconds(_)));
        let all: Vec<_> = c.iter().collect();
        assert_eq!(all[0], None);
        // An integer is the seconds an export writes for it, n / 10⁶.
        assert_eq!(all[1], Some(Value::Seconds(0.0)));
        assert_eq!(all[5], Some(Value::Seconds(0.001507)));
        for (k, s) in read.into_iter().enumerate() {
            assert_eq!(all[k + 2], Some(Value::Seconds(s)), "bit for bit");
        }
        // In µs, whole µs are whole (1507, not 1506.9999999999998).
        assert_eq!(c.present_f64(), [0.0, 1507.0, 1627.031, 0.25, 1507.0]);
        assert!(!c.read_ints(0..c.len(), &mut Vec::new()));
        // Among other reals, a time in seconds is its µs.
        let mixed = column(&[Some(Value::Real(2.5)), Some(Value::Seconds(0.001))]);
        assert_eq!(mixed.get(1), Some(Value::Real(1000.0)));
    }

    fn value() -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            Just(None),
            any::<i64>().prop_map(|v| Some(Value::Int(v))),
            (-300i64..300).prop_map(|v| Some(Value::Int(v))),
            (0i64..70_000).prop_map(|v| Some(Value::Int(1 << 40 | v))),
        ]
    }

    proptest! {
        #[test]
        fn every_value_reads_back_as_pushed(values in prop::collection::vec(value(), 0..300)) {
            let c = column(&values);
            prop_assert_eq!(c.len(), values.len());
            prop_assert_eq!(c.iter().collect::<Vec<_>>(), values.clone());
            let present: Vec<f64> = values.iter().flatten().map(|v| v.as_f64()).collect();
            prop_assert_eq!(c.present_f64(), present);
        }

        /// `read_ints` gives `read_range`'s values exactly when they are all
        /// present integers, and nothing otherwise, over any range (the
        /// bitmap's words cut anywhere).
        #[test]
        fn read_ints_is_read_range_when_every_value_is_an_integer(
            values in prop::collection::vec(
                prop_oneof![
                    40 => prop_oneof![
                        any::<i64>(),
                        -300i64..300,
                        (0i64..70_000).prop_map(|v| 1 << 40 | v),
                    ]
                    .prop_map(|v| Some(Value::Int(v))),
                    1 => Just(None),
                    1 => Just(Some(Value::Real(0.5))),
                ],
                0..300,
            ),
            cuts in prop::collection::vec((0usize..300, 0usize..300), 1..20),
        ) {
            let c = column(&values);
            for (a, b) in cuts {
                let (a, b) = (a.min(b).min(values.len()), a.max(b).min(values.len()));
                let mut general = Vec::new();
                c.read_range(a..b, &mut general);
                let ints: Option<Vec<i64>> = general
                    .iter()
                    .map(|v| match v {
                        Some(Value::Int(x)) => Some(*x),
                        _ => None,
                    })
                    .collect();
                let mut fast = vec![7];
                let read = c.read_ints(a..b, &mut fast);
                prop_assert_eq!(read, ints.is_some(), "runs {}..{}", a, b);
                let mut expected = vec![7];
                expected.extend(ints.unwrap_or_default());
                prop_assert_eq!(fast, expected);
            }
        }

        /// As above, with long stretches of values that mostly fit: one
        /// value that does not (too large, too small, or absent) at any
        /// place, so whole pieces are stored at once and the piece with
        /// the odd one out is not.
        #[test]
        fn push_ints_is_push_of_each_in_long_stretches(
            start in prop::collection::vec(value(), 1..10),
            stretches in prop::collection::vec(
                (
                    prop_oneof![0i64..300, 0i64..1 << 40],
                    prop_oneof![Just(100i64), Just(30_000), Just(1 << 20), Just(1 << 33)],
                    0usize..400,
                    any::<prop::sample::Index>(),
                    prop_oneof![Just(None), Just(Some(-1i64)), Just(Some(0)), (0i64..=i64::MAX).prop_map(Some)],
                ),
                1..5,
            ),
            seed in any::<u64>(),
        ) {
            let mut rng = crate::stats::SplitMix64::new(seed);
            let mut each = column(&start);
            let mut bulk = each.clone();
            for &(low, spread, len, at, odd) in &stretches {
                let mut stretch: Vec<i64> =
                    (0..len).map(|_| low + (rng.next_u64() % spread as u64) as i64).collect();
                if let (Some(odd), false) = (odd, stretch.is_empty()) {
                    let k = at.index(stretch.len());
                    stretch[k] = odd;
                }
                for &v in &stretch {
                    each.push((v != -1).then_some(Value::Int(v)));
                }
                bulk.push_ints(&stretch);
                prop_assert_eq!(&bulk, &each);
            }
        }

        /// `push_ints` builds the very column (representation, base,
        /// bitmap) that `push` of each value builds, after any start.
        #[test]
        fn push_ints_is_push_of_each(
            start in prop::collection::vec(value(), 0..40),
            stretches in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![
                        Just(-1i64),
                        0i64..300,
                        0i64..70_000,
                        (0i64..70_000).prop_map(|v| 1 << 40 | v),
                        0i64..=i64::MAX,
                    ],
                    0..200,
                ),
                0..4,
            ),
        ) {
            let mut each = column(&start);
            let mut bulk = each.clone();
            for stretch in &stretches {
                for &v in stretch {
                    each.push((v != -1).then_some(Value::Int(v)));
                }
                bulk.push_ints(stretch);
                prop_assert_eq!(&bulk, &each);
            }
        }
    }
}

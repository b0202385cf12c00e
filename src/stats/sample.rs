//! A validated sample: the one input type of every statistic.
//!
//! Validation happens once, here, so no statistic has to handle NaN,
//! infinities or empty input, and the sort every order statistic needs is
//! done once and cached (floats sorted with `total_cmp`, a total order, so
//! sorting cannot panic or misplace values).

use thiserror::Error;

/// Why a list of values cannot be a [`Sample`].
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum SampleError {
    /// No values at all.
    #[error("a sample needs at least one value, but none were given")]
    Empty,
    /// NaN or ±∞ at `index` (0-based, input order).
    #[error("value number {} is {value}, but every value must be a finite number", index + 1)]
    NonFinite {
        /// Position in the input, 0-based.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// A finite value whose magnitude exceeds [`Sample::MAX_MAGNITUDE`].
    #[error(
        "value number {} is {value:e}, beyond the supported magnitude {:e}",
        index + 1,
        Sample::MAX_MAGNITUDE
    )]
    TooLarge {
        /// Position in the input, 0-based.
        index: usize,
        /// The offending value.
        value: f64,
    },
}

/// A non-empty collection of finite values, stored sorted ascending.
///
/// Order statistics, ranks and pairwise differences all need the sorted
/// values, so the sort happens once at construction. The input order is
/// not kept: every statistic in this module is permutation invariant.
#[derive(Debug, Clone)]
pub struct Sample {
    sorted: Vec<f64>,
    /// Every value is an integer of magnitude at most 2^53 (exact in f64),
    /// as measurements are; lets sums be computed exactly in integers.
    integral: bool,
    /// When the values repeat heavily (at most one distinct value in
    /// eight) and were sorted by counting: each distinct value, ascending,
    /// with the end (exclusive) of its run in `sorted`. Statistics that
    /// need only the runs read these instead of probing the sorted values
    /// (a probe per run into megabytes of values misses the cache).
    run_ends: Option<Vec<(f64, usize)>>,
}

/// Samples are equal when their values are (the run table is derived).
impl PartialEq for Sample {
    fn eq(&self, other: &Self) -> bool {
        self.sorted == other.sorted
    }
}

impl Sample {
    /// Largest accepted |value|: 1e100.
    ///
    /// No time, memory size or count comes anywhere near it, and the bound
    /// guarantees that every intermediate quantity (pairwise differences,
    /// sums of squares of any realistic number of values) stays finite, so
    /// no statistic can overflow to ∞ or NaN.
    pub const MAX_MAGNITUDE: f64 = 1e100;

    /// Validates and sorts `values` (taken by value, sorted in place).
    ///
    /// Errors: [`SampleError::Empty`], [`SampleError::NonFinite`] or
    /// [`SampleError::TooLarge`] naming the first offending value.
    /// Negative zero is stored as zero.
    pub fn new(mut values: Vec<f64>) -> Result<Self, SampleError> {
        let scan = validate(&mut values)?;
        let run_ends = match counting_sort(&mut values, &scan) {
            Some(run_ends) => run_ends,
            None => {
                values.sort_unstable_by(f64::total_cmp);
                None
            }
        };
        Ok(Sample {
            sorted: values,
            integral: scan.integral,
            run_ends,
        })
    }

    /// Like [`Sample::new`], copying from a slice.
    pub fn from_slice(values: &[f64]) -> Result<Self, SampleError> {
        Self::new(values.to_vec())
    }

    /// Number of values (always at least 1).
    #[allow(clippy::len_without_is_empty)] // a Sample is never empty
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// The values, sorted ascending.
    pub fn sorted(&self) -> &[f64] {
        &self.sorted
    }

    /// The smallest value.
    pub fn min(&self) -> f64 {
        self.sorted[0]
    }

    /// The largest value.
    pub fn max(&self) -> f64 {
        self.sorted[self.sorted.len() - 1]
    }

    /// Whether every value is an integer of magnitude at most 2^53.
    pub(crate) fn is_integral(&self) -> bool {
        self.integral
    }

    /// True when all values are equal (zero spread).
    pub fn is_constant(&self) -> bool {
        self.min() == self.max()
    }

    /// The runs of equal values, in order: each value with the range of
    /// its positions in [`Sample::sorted`] (from the run table when there
    /// is one, else by galloping, [`runs`]).
    pub(crate) fn runs(&self) -> Runs<'_> {
        Runs {
            sorted: &self.sorted,
            table: self.run_ends.as_deref(),
            start: 0,
            next: 0,
        }
    }

    /// The run table, when there is one (see the field).
    pub(crate) fn run_table(&self) -> Option<&[(f64, usize)]> {
        self.run_ends.as_deref()
    }
}

/// [`Sample::runs`].
pub(crate) struct Runs<'a> {
    sorted: &'a [f64],
    table: Option<&'a [(f64, usize)]>,
    /// Position of the next run.
    start: usize,
    /// Its index in the table.
    next: usize,
}

impl Iterator for Runs<'_> {
    type Item = (f64, std::ops::Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.start >= self.sorted.len() {
            return None;
        }
        let (value, end) = match self.table {
            Some(table) => {
                let run = table[self.next];
                self.next += 1;
                run
            }
            None => (self.sorted[self.start], run_end(self.sorted, self.start)),
        };
        let run = (value, self.start..end);
        self.start = end;
        Some(run)
    }
}

/// The end of the run of values equal to `sorted[start]` in the ascending
/// `sorted`: the first index past `start` holding a larger value (or the
/// length). Galloping (doubling steps, then a binary search in the last
/// step), so a run of r values costs O(log r) comparisons instead of r:
/// measurements repeat values heavily, and statistics that need only the
/// distinct values and their counts skip each run at once.
pub(crate) fn run_end(sorted: &[f64], start: usize) -> usize {
    let v = sorted[start];
    let n = sorted.len();
    // sorted[lo] == v; sorted[hi] > v or hi == n.
    let (mut lo, mut step) = (start, 1);
    let mut hi = loop {
        let probe = start + step;
        if probe >= n {
            break n;
        }
        if sorted[probe] != v {
            break probe;
        }
        lo = probe;
        step *= 2;
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if sorted[mid] == v {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The runs of equal values of the ascending `sorted`, in order: each
/// value with the range of its positions ([`run_end`] per run).
pub(crate) fn runs(sorted: &[f64]) -> impl Iterator<Item = (f64, std::ops::Range<usize>)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= sorted.len() {
            return None;
        }
        let end = run_end(sorted, start);
        let run = (sorted[start], start..end);
        start = end;
        Some(run)
    })
}

/// 2^53: integers up to this magnitude are exact in f64, and so are sums
/// of them that stay within it.
pub(crate) const EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// What one pass over valid values learns: the smallest and largest value
/// and whether every value is an integer of magnitude at most 2^53.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scan {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) integral: bool,
}

/// Sorts `values` by counting, when that is both exact and cheap: at least
/// 4096 values, every one an integer of magnitude at most 2^53 (so
/// `lo + k` is exact), and a range no wider than the count (or 2^16).
/// Measurements are integers with a narrow spread, so a million of them
/// sort in a few milliseconds instead of tens. Returns whether it sorted;
/// the result is exactly what sorting by `total_cmp` gives (no −0.0 or NaN
/// reaches here). `scan` is [`validate`]'s of these values.
///
/// `None` when it did not sort; else the run table when there are at most
/// n/8 distinct values (see [`Sample`]).
#[allow(clippy::option_option)] // not sorted / sorted without a table
fn counting_sort(values: &mut [f64], scan: &Scan) -> Option<Option<Vec<(f64, usize)>>> {
    let n = values.len();
    if n < 4096 || !scan.integral {
        return None;
    }
    let (lo, hi) = (scan.lo, scan.hi);
    let range = hi - lo;
    if range > (n as f64).max(65_536.0) {
        return None;
    }
    let cells = range as usize + 1;
    // v − lo is an integer in [0, 2^52): adding 2^52 puts it in the low
    // bits of the mantissa, exactly, without a saturating conversion.
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    const LOW_52: u64 = (1 << 52) - 1;
    let offset = |v: f64| (((v - lo) + TWO_52).to_bits() & LOW_52) as usize;
    let mut counts = vec![0u32; cells];
    if cells <= 1 << 12 {
        // Few cells: runs of equal values would increment one counter
        // back to back, each waiting for the last; four tables, one per
        // lane, let four increments proceed at once.
        let mut lanes = vec![0u32; 4 * cells];
        let (lanes_0, rest) = lanes.split_at_mut(cells);
        let (lanes_1, rest) = rest.split_at_mut(cells);
        let (lanes_2, lanes_3) = rest.split_at_mut(cells);
        let mut quads = values.chunks_exact(4);
        for q in &mut quads {
            lanes_0[offset(q[0])] += 1;
            lanes_1[offset(q[1])] += 1;
            lanes_2[offset(q[2])] += 1;
            lanes_3[offset(q[3])] += 1;
        }
        for &v in quads.remainder() {
            lanes_0[offset(v)] += 1;
        }
        for (c, cell) in counts.iter_mut().enumerate() {
            *cell = lanes_0[c] + lanes_1[c] + lanes_2[c] + lanes_3[c];
        }
    } else {
        for &v in values.iter() {
            counts[offset(v)] += 1;
        }
    }
    let distinct = counts.iter().filter(|&&c| c != 0).count();
    let mut run_ends = (distinct <= n / 8).then(|| Vec::with_capacity(distinct));
    let mut k = 0;
    for (offset, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let x = lo + offset as f64;
        values[k..k + count as usize].fill(x);
        k += count as usize;
        if let Some(table) = &mut run_ends {
            table.push((x, k));
        }
    }
    Some(run_ends)
}

/// Whether `v` (finite) is an integer of magnitude at most 2^53, without
/// a call into libm (`trunc`) or a conversion: below 2^52, adding and
/// subtracting 2^52 rounds |v| to an integer, which is |v| exactly when
/// it is one; from 2^52 on every f64 is an integer.
#[inline]
fn is_exact_integer(v: f64) -> bool {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    let a = v.abs();
    (a <= EXACT_INTEGER) & ((a >= TWO_52) | ((a + TWO_52) - TWO_52 == a))
}

/// The checks every sample and series passes: non-empty, finite, at most
/// [`Sample::MAX_MAGNITUDE`] in magnitude; negative zero becomes zero
/// (−0.0 == 0.0, but `total_cmp` orders them; keep one zero). In the same
/// pass, the range and integrality of the values.
pub(super) fn validate(values: &mut [f64]) -> Result<Scan, SampleError> {
    if values.is_empty() {
        return Err(SampleError::Empty);
    }
    // One pass without branches; the first offending value is looked for
    // only when there is one. Four independent lanes of plain arithmetic (the compiler keeps them
    // in vector registers, no lane waits for another): x − x is 0 for a
    // finite x and NaN otherwise, so a lane's sum of them is 0 exactly
    // when all its values are finite; below 2^52, ((|x| + 2^52) − 2^52)
    // rounds |x| to an integer, so the sum of |that − |x|| is 0 exactly
    // when all are integers (NaN never passes `<`, so it does not reach
    // the minimum or maximum).
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    let mut lo = [f64::INFINITY; 4];
    let mut hi = [f64::NEG_INFINITY; 4];
    let mut non_finite = [0.0f64; 4];
    let mut fractions = [0.0f64; 4];
    let mut lane = |l: usize, v: &mut f64| {
        let x = *v + 0.0; // −0.0 + 0.0 = +0.0; every other value unchanged
        *v = x;
        lo[l] = if x < lo[l] { x } else { lo[l] };
        hi[l] = if x > hi[l] { x } else { hi[l] };
        #[allow(clippy::eq_op)] // NaN exactly when x is not finite
        let zero_if_finite = x - x;
        non_finite[l] += zero_if_finite;
        let a = x.abs();
        fractions[l] += (((a + TWO_52) - TWO_52) - a).abs();
    };
    let mut quads = values.chunks_exact_mut(4);
    for q in &mut quads {
        for (l, v) in q.iter_mut().enumerate() {
            lane(l, v);
        }
    }
    for v in quads.into_remainder() {
        lane(0, v);
    }
    let lo = lo
        .iter()
        .fold(f64::INFINITY, |a, &b| if b < a { b } else { a });
    let hi = hi
        .iter()
        .fold(f64::NEG_INFINITY, |a, &b| if b > a { b } else { a });
    let largest = lo.abs().max(hi.abs());
    let valid = non_finite.iter().all(|&s| s == 0.0) && largest <= Sample::MAX_MAGNITUDE;
    let integral = if largest < TWO_52 {
        fractions.iter().all(|&s| s == 0.0)
    } else {
        valid && values.iter().all(|&x| is_exact_integer(x))
    };
    if !valid {
        for (index, &value) in values.iter().enumerate() {
            if !value.is_finite() {
                return Err(SampleError::NonFinite { index, value });
            }
            if value.abs() > Sample::MAX_MAGNITUDE {
                return Err(SampleError::TooLarge { index, value });
            }
        }
    }
    Ok(Scan { lo, hi, integral })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_every_value() {
        let s = Sample::new(vec![3.0, -1.0, 2.0, -1.0]).unwrap();
        assert_eq!(s.sorted(), &[-1.0, -1.0, 2.0, 3.0]);
        assert_eq!((s.len(), s.min(), s.max()), (4, -1.0, 3.0));
        assert!(!s.is_constant());
        assert!(Sample::from_slice(&[7.0, 7.0]).unwrap().is_constant());
    }

    #[test]
    fn rejects_empty_non_finite_and_huge_values() {
        assert_eq!(Sample::new(vec![]), Err(SampleError::Empty));
        assert_eq!(
            Sample::new(vec![1.0, f64::INFINITY]),
            Err(SampleError::NonFinite {
                index: 1,
                value: f64::INFINITY
            })
        );
        let nan = Sample::new(vec![f64::NAN]).unwrap_err();
        assert!(matches!(nan, SampleError::NonFinite { index: 0, .. }));
        assert_eq!(
            Sample::new(vec![0.0, 0.0, -2e100]),
            Err(SampleError::TooLarge {
                index: 2,
                value: -2e100
            })
        );
        assert!(Sample::new(vec![1e100, -1e100]).is_ok());
    }

    #[test]
    fn negative_zero_becomes_zero() {
        let s = Sample::new(vec![0.0, -0.0, -0.0]).unwrap();
        assert!(s.sorted().iter().all(|v| v.is_sign_positive()));
    }

    #[test]
    fn errors_say_which_value_is_wrong() {
        let e = Sample::new(vec![1.0, f64::NAN]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "value number 2 is NaN, but every value must be a finite number"
        );
    }

    #[test]
    fn exact_integers_are_recognised_without_libm() {
        let two53 = 9_007_199_254_740_992.0;
        for (v, expected) in [
            (0.0, true),
            (-7.0, true),
            (3.5, false),
            (-0.25, false),
            (two53, true),
            (-two53, true),
            (two53 * 2.0, false),
            (1e100, false),
            (4503599627370495.5, false),
        ] {
            assert_eq!(is_exact_integer(v), expected, "{v}");
            assert_eq!(
                is_exact_integer(v),
                v.fract() == 0.0 && v.abs() <= two53,
                "{v}"
            );
        }
    }

    #[test]
    fn the_scan_agrees_with_its_definition_in_every_lane() {
        let two52 = 4_503_599_627_370_496.0;
        let two53 = 2.0 * two52;
        let odd = [
            0.5,
            -0.5,
            1e-310,
            -1e-300,
            two52 - 0.5,
            two52,
            two52 + 1.0,
            two53,
            -two53,
            two53 * 2.0,
            1e100,
            -1e100,
            2e100,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
        ];
        for len in [1, 3, 4, 5, 8, 11] {
            for &x in &odd {
                for at in 0..len {
                    let mut v: Vec<f64> = (0..len).map(|i| (i as f64) * 3.0 - 7.0).collect();
                    v[at] = x;
                    let expected_valid = v.iter().all(|x| x.abs() <= Sample::MAX_MAGNITUDE);
                    let mut w = v.clone();
                    match validate(&mut w) {
                        Ok(scan) => {
                            assert!(expected_valid, "{v:?}");
                            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                            assert_eq!((scan.lo, scan.hi), (lo, hi), "{v:?}");
                            let integral = v.iter().all(|&x| x.fract() == 0.0 && x.abs() <= two53);
                            assert_eq!(scan.integral, integral, "{v:?}");
                            assert!(w
                                .iter()
                                .zip(&v)
                                .all(|(a, b)| a == b && !(*a == 0.0 && a.is_sign_negative())));
                        }
                        Err(e) => {
                            assert!(!expected_valid, "{v:?}: {e}");
                            let index = v
                                .iter()
                                .position(|x| x.abs() > Sample::MAX_MAGNITUDE || x.is_nan());
                            let got = match e {
                                SampleError::NonFinite { index, .. }
                                | SampleError::TooLarge { index, .. } => index,
                                SampleError::Empty => usize::MAX,
                            };
                            assert_eq!(Some(got), index, "{v:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn runs_are_the_groups_of_equal_values() {
        let mut rng = super::super::rng::SplitMix64::new(17);
        for (n, distinct) in [
            (1, 1),
            (2, 1),
            (2, 2),
            (7, 3),
            (100, 1),
            (1000, 7),
            (999, 999),
        ] {
            let mut v: Vec<f64> = (0..n).map(|_| rng.below(distinct) as f64 * 0.5).collect();
            v.sort_unstable_by(f64::total_cmp);
            // By definition: a new run wherever the value changes.
            let mut expected = Vec::new();
            for (i, &x) in v.iter().enumerate() {
                if i == 0 || x != v[i - 1] {
                    expected.push((x, i..i + 1));
                } else if let Some(last) = expected.last_mut() {
                    last.1.end = i + 1;
                }
            }
            assert_eq!(runs(&v).collect::<Vec<_>>(), expected, "{n} {distinct}");
        }
    }

    #[test]
    fn the_run_table_holds_the_runs() {
        let mut rng = super::super::rng::SplitMix64::new(19);
        for (n, spread, table) in [
            (5000, 10, true),
            (5000, 625, true),
            (5000, 2000, false),
            (100, 3, false),
        ] {
            let v: Vec<f64> = (0..n)
                .map(|_| (rng.below(spread) * 3) as f64 - 7.0)
                .collect();
            let s = Sample::from_slice(&v).unwrap();
            let galloped: Vec<_> = runs(s.sorted()).collect();
            assert_eq!(s.runs().collect::<Vec<_>>(), galloped);
            assert_eq!(s.run_table().is_some(), table, "{n} {spread}");
            if let Some(t) = s.run_table() {
                let expected: Vec<_> = galloped.iter().map(|(v, r)| (*v, r.end)).collect();
                assert_eq!(t, &expected[..]);
            }
        }
    }

    #[test]
    fn counting_sort_agrees_with_the_comparison_sort() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let cases: Vec<Vec<f64>> = vec![
            (0..5000).map(|_| (next() % 3000) as f64 + 1000.0).collect(),
            (0..5000).map(|_| (next() % 300) as f64 - 150.0).collect(),
            // Four lanes and a remainder; one value in almost every run.
            (0..4099).map(|_| (next() % 5) as f64).collect(),
            (0..4103).map(|i| if i == 77 { 3.0 } else { 0.0 }).collect(),
            (0..6000)
                .map(|_| (next() % 60_000) as f64 - 30_000.0)
                .collect(),
            (0..5000).map(|_| 4096.0 * (next() % 40) as f64).collect(),
            (0..5000).map(|_| (next() % 1000) as f64 + 0.5).collect(),
            (0..5000).map(|_| next() as f64 * 1e6).collect(),
        ];
        for values in cases {
            let mut expected = values.clone();
            expected.sort_unstable_by(f64::total_cmp);
            assert_eq!(Sample::new(values).unwrap().sorted(), &expected[..]);
        }
        let counted = |mut v: Vec<f64>| {
            let scan = validate(&mut v).unwrap();
            counting_sort(&mut v, &scan).is_some()
        };
        let wide: Vec<f64> = (0..5000).map(|i| (i * 1000) as f64).collect();
        assert!(!counted(wide), "too wide to count");
        assert!(!counted(vec![3.0, 1.0, 2.0]), "too few to bother");
        let fractional: Vec<f64> = (0..5000).map(|i| f64::from(i) + 0.5).collect();
        assert!(!counted(fractional), "not integers");
    }
}

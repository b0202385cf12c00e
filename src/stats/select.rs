//! Order statistics of all pairwise differences, without forming them.
//!
//! The Hodges–Lehmann shift and its confidence interval are order
//! statistics of the M = n1·n2 differences yⱼ − xᵢ. With a million runs per
//! command M is 10¹², so the differences are never materialised. Instead,
//! with x and y sorted, the differences form a matrix whose rows (fixed i)
//! increase in j and whose columns decrease in i, so the number of
//! differences ≤ t is counted with two pointers in O(n1 + n2). Selection
//! then narrows an interval (lo, hi) of values known to bracket the wanted
//! order statistic, with pivots drawn at random from the differences still
//! inside it (Johnson & Mizoguchi 1978, "Selecting the Kth element in X + Y
//! and X1 + X2 + … + Xm", SIAM J. Comput. 7, 147–153; Monahan 1984,
//! "Algorithm 616: fast computation of the Hodges–Lehmann location
//! estimator", ACM TOMS 10, 265–270), two pivots per round around the
//! expected position as in Floyd & Rivest (1975). Once no more candidates
//! remain than rows plus columns they are gathered and selected directly.
//!
//! Measurements are integers, so a large sample holds few distinct values
//! (a million runs of a 10 ms command: a few thousand). Each sample is
//! therefore reduced to its distinct values with multiplicities, the
//! matrix has one row per distinct x and one column per distinct y, and
//! every cell counts as many differences as the product of the
//! multiplicities. Rows and columns, not runs, then set the cost.
//!
//! The same machinery selects among the Walsh sums dᵢ + dⱼ, i ≤ j, of one
//! sorted sample d (the one-sample Hodges–Lehmann estimate of paired
//! differences): with x = −d (reversed) and y = d the matrix holds the
//! R² ordered sums dⱼ − (−dᵢ) = dᵢ + dⱼ, each off-diagonal sum twice and
//! each diagonal one once, so the number of Walsh sums ≤ t is
//! (#ordered sums ≤ t + #{i: 2dᵢ ≤ t}) / 2, the diagonal term found by
//! binary search. Selection then looks for the smallest matrix value
//! whose Walsh count reaches k, with the same bracket and pivots. That
//! matrix is symmetric, so a count at t needs only the rows of the
//! values d with 2d ≤ t, and a selection with an upper end hi only
//! those with 2d < hi, about half ([`Half`]). A selection starts from
//! the narrowest bracket that earlier counts on the same matrix give its
//! rank ([`Differences::known_bracket`]).
//!
//! Expected cost O((n1 + n2) log M) time, O(n1 + n2) memory. The result is
//! exact: an actual difference `y[j] - x[i]` as computed in floating point
//! (rounding is monotone, so the matrix order holds for computed values
//! too), equal to what sorting all of them would give, ties included.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::rng::SplitMix64;

/// A sorted sample reduced to its distinct values.
#[derive(Debug, Clone)]
struct Distinct {
    /// Distinct values, ascending.
    values: Vec<f64>,
    /// `cumulative[j]` = number of original values among the first j
    /// distinct ones; `cumulative[0] = 0`, last = sample size.
    cumulative: Vec<usize>,
}

impl Distinct {
    fn new(sorted: &[f64]) -> Self {
        Self::from_sorted(sorted.iter().copied())
    }

    /// From values in ascending order, without listing them first.
    fn from_sorted(sorted: impl Iterator<Item = f64>) -> Self {
        let mut values: Vec<f64> = Vec::new();
        let mut cumulative = vec![0];
        let mut n = 0;
        for (i, v) in sorted.enumerate() {
            if values.last() != Some(&v) {
                if i > 0 {
                    cumulative.push(i);
                }
                values.push(v);
            }
            n = i + 1;
        }
        cumulative.push(n);
        Distinct { values, cumulative }
    }

    fn len(&self) -> usize {
        self.values.len()
    }

    fn weight(&self, j: usize) -> usize {
        self.cumulative[j + 1] - self.cumulative[j]
    }
}

/// A sorted sample reduced to its distinct values, ascending, and their
/// cumulative counts (`cumulative[j]` = values among the first j distinct
/// ones, the last the sample's size).
pub(crate) fn distinct_counts(sorted: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let Distinct { values, cumulative } = Distinct::new(sorted);
    (values, cumulative)
}

/// The natural logarithms of a sorted sample's values, reduced to their
/// distinct values as [`Differences`] needs them, without listing a
/// logarithm per value: the same as the reduction of the list.
#[derive(Debug, Clone)]
pub(crate) struct SortedLogs(Distinct);

impl SortedLogs {
    /// `None` unless every value is positive and the logarithms come out
    /// ascending (they do, `ln` being monotone; if not, the caller sorts).
    pub(crate) fn of(sorted: &[f64]) -> Option<Self> {
        if !sorted.first().is_some_and(|&v| v > 0.0) {
            return None;
        }
        let mut last = (f64::NAN, f64::NEG_INFINITY);
        let mut ascending = true;
        let logs = sorted.iter().map(|&x| {
            if x != last.0 {
                let l = x.ln();
                ascending &= l >= last.1;
                last = (x, l);
            }
            last.1
        });
        let distinct = Distinct::from_sorted(logs);
        ascending.then_some(SortedLogs(distinct))
    }
}

/// The matrix's rows: x's distinct values, or for Walsh sums the columns
/// mirrored (x = −y reversed), which are not stored (at a million
/// distinct differences, 16 MB less).
#[derive(Debug, Clone)]
enum Rows {
    Own(Distinct),
    /// Row i is −y[L − 1 − i], with the copies of y[L − 1 − i].
    MirroredColumns,
}

/// The n1·n2 differences `y[j] - x[i]` of two sorted samples, ready for
/// repeated selection (the reduction to distinct values is done once).
/// Shared by threads (the two ends of an interval are found at once).
#[derive(Debug)]
pub(crate) struct Differences {
    x: Rows,
    y: Distinct,
    /// n1·n2 (the ordered pairs, also for Walsh sums).
    ordered: u128,
    /// Number of elements to select among: n1·n2, or R(R+1)/2 Walsh sums.
    count: u128,
    /// Materialise the remaining candidates once at most this many
    /// distinct cells are left.
    gather_at: usize,
    /// Select by listing every element when there are at most this many
    /// ([`LIST_AT_MOST`]; the tests lower it to exercise the narrowing).
    list_at_most: u128,
    /// Rank blocks already known, (first, last, value): every rank from
    /// first to last is that element. Filled by [`Differences::counts`] at
    /// an element and by [`Differences::kth`]; the interval inversion
    /// tests candidates and then asks for the values at their ranks,
    /// which are then not selected again.
    known: std::sync::Mutex<Vec<(u128, u128, f64)>>,
    /// Elements whose ranks a count found, (t, rank of the elements < t,
    /// rank of those ≤ t): the pivots of every selection round and the
    /// elements counted about (elements only: the selection takes the
    /// upper end of its bracket for an element). A later selection starts
    /// from the narrowest bracket they give its rank ([`Selection::run`]):
    /// the ends of an interval lie near the middle that the estimate
    /// selected first.
    counted: std::sync::Mutex<Vec<(f64, u128, u128)>>,
    /// Sweeps over the rows in progress on this matrix, each on its own
    /// thread (selections, counts): a selection running alone sweeps in
    /// two halves at once ([`HALVES_FROM`]), not beside another sweep.
    sweeping: AtomicUsize,
}

/// One sweep in progress on a matrix ([`Differences::sweeping`]), until
/// dropped.
struct Sweeping<'a>(&'a AtomicUsize);

impl Drop for Sweeping<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// From this many rows a selection's count sweeps in two halves on two
/// threads when nothing else sweeps the matrix and the machine has two
/// cores: a sweep then takes about 1 ms, a thread about 30 μs to start.
/// The counts are the same either way.
const HALVES_FROM: usize = 1 << 16;

impl Clone for Differences {
    fn clone(&self) -> Self {
        Differences {
            x: self.x.clone(),
            y: self.y.clone(),
            known: std::sync::Mutex::new(self.known_blocks().clone()),
            counted: std::sync::Mutex::new(self.counted_values().clone()),
            sweeping: AtomicUsize::new(0),
            ..*self
        }
    }
}

/// At most this many rank blocks are remembered (a few dozen are used),
/// and as many counted values.
const KNOWN_LIMIT: usize = 256;

/// A selection starts from a bracket the known counts give its rank
/// ([`Differences::known_bracket`]) when at most this fraction of the
/// ranks lies inside: setting both sides costs two counts, about what a
/// round costs, and a round narrows by about sqrt(draws)/4 (64 at a
/// million rows).
const START_NARROWER: u128 = 16;

/// Up to this many elements (counted with multiplicity) are listed and
/// selected directly, in O(M) expected time, instead of narrowed to: a
/// listing costs about 8 bytes and a few ns per element, a round of
/// narrowing a sort of its pivots, so small samples (a few dozen runs,
/// thousands of commands) are cheaper listed.
const LIST_AT_MOST: u128 = 4096;

/// Per distinct row i, a column boundary (a count of distinct y values),
/// and the number of original differences left of the boundaries.
#[derive(Debug, Clone)]
struct Boundary<C> {
    per_row: Vec<C>,
    total: u128,
}

/// What one sweep finds about a value t ([`Differences::around`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Around {
    /// #{elements < t} (Walsh sums: as ranks, see [`Differences::rank`]).
    pub below: u128,
    /// #{elements ≤ t}.
    pub at_most: u128,
    /// The largest element < t, of rank `below` (`None`: there is none):
    /// what [`Differences::kth`] selects there (Walsh sums take the same
    /// values as the matrix's ordered sums).
    pub next_below: Option<f64>,
    /// The smallest element > t, of rank `at_most + 1`.
    pub next_above: Option<f64>,
}

/// The rows a count over the matrix sweeps and the columns it counts
/// twice there. Differences: every row, no column. Walsh sums (module
/// docs: a symmetric matrix, x = −y reversed): a count of the sums < t
/// needs only the rows of the values d with 2d < t (≤ t: 2d ≤ t), about
/// half, the last rows. A sum < t has its smaller value in such a row
/// (rounding is monotone: dₐ + d_b ≥ 2dₐ when d_b ≥ dₐ, in floating point
/// too, and dₐ + d_b = d_b + dₐ); an ordered sum < t in a row not swept
/// pairs its value with a column value d_b, 2d_b < t, and is the mirror
/// of the sum in row b at a column not swept, so each swept row's count
/// of the columns from the first not swept (`mirrored`, the number of
/// swept values) on is counted twice. The ordered count, and so the
/// rank, are the same as over every row.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Half {
    /// The first row swept.
    from: usize,
    /// The first column counted twice (a distinct value's index).
    mirrored: usize,
}

/// A column boundary as a selection stores it, one per row: `u32` when
/// every column fits (half the memory of `usize`: two boundaries per
/// selection, two selections at once when an interval's ends are walked,
/// at a million rows 16 MB less), else `usize`.
trait Column: Copy + Send + Sync {
    fn of(column: usize) -> Self;
    fn get(self) -> usize;
}

impl Column for u32 {
    fn of(column: usize) -> Self {
        // Chosen only when every column fits (`Differences::kth`).
        column as u32
    }
    fn get(self) -> usize {
        self as usize
    }
}

impl Column for usize {
    fn of(column: usize) -> Self {
        column
    }
    fn get(self) -> usize {
        self
    }
}

impl Differences {
    /// Prepares selection among `y[j] - x[i]` for sorted, non-empty x, y.
    pub(crate) fn new(x: &[f64], y: &[f64]) -> Self {
        Self::of_distinct(Distinct::new(x), Distinct::new(y))
    }

    /// [`Differences::new`] of the logarithms of two samples.
    pub(crate) fn of_logs(x: &SortedLogs, y: &SortedLogs) -> Self {
        Self::of_distinct(x.0.clone(), y.0.clone())
    }

    fn of_distinct(x: Distinct, y: Distinct) -> Self {
        let count = x.cumulative[x.len()] as u128 * y.cumulative[y.len()] as u128;
        Self::of_rows(Rows::Own(x), y, count)
    }

    /// `count` elements of the matrix with these rows and columns.
    fn of_rows(x: Rows, y: Distinct, count: u128) -> Self {
        let n = y.cumulative[y.len()] as u128;
        let (rows, ordered) = match &x {
            Rows::Own(x) => (x.len(), x.cumulative[x.len()] as u128 * n),
            Rows::MirroredColumns => (y.len(), n * n),
        };
        // Gathering costs 32 bytes per cell: at most 2^16 cells (2 MiB)
        // however large the samples, since a round of narrowing is cheaper
        // than tens of MiB (the result is the same either way).
        let gather_at = (rows + y.len()).min(1 << 16);
        Differences {
            x,
            y,
            ordered,
            count,
            gather_at,
            list_at_most: LIST_AT_MOST,
            known: Default::default(),
            counted: Default::default(),
            sweeping: AtomicUsize::new(0),
        }
    }

    /// Prepares selection among the R(R+1)/2 Walsh sums dᵢ + dⱼ, i ≤ j,
    /// of a sorted, non-empty d (module docs). `kth` returns a sum, not
    /// an average: halve it.
    pub(crate) fn walsh_sums(d: &[f64]) -> Self {
        let r = d.len() as u128;
        Self::of_rows(Rows::MirroredColumns, Distinct::new(d), r * (r + 1) / 2)
    }

    /// Whether the elements are the Walsh sums of `y` (x = −y reversed).
    fn walsh(&self) -> bool {
        matches!(self.x, Rows::MirroredColumns)
    }

    /// The distinct values the rows are read from, and whether mirrored:
    /// row i is then the source's value L − 1 − i, negated.
    fn row_source(&self) -> (&Distinct, bool) {
        match &self.x {
            Rows::Own(x) => (x, false),
            Rows::MirroredColumns => (&self.y, true),
        }
    }

    /// The number of rows (distinct x values).
    fn rows(&self) -> usize {
        self.row_source().0.len()
    }

    /// Row i's value, x[i].
    fn row(&self, i: usize) -> f64 {
        match self.row_source() {
            (source, true) => -source.values[source.len() - 1 - i],
            (source, false) => source.values[i],
        }
    }

    /// Row i's copies: how many original x values equal x[i].
    fn row_weight(&self, i: usize) -> usize {
        match self.row_source() {
            (source, true) => source.weight(source.len() - 1 - i),
            (source, false) => source.weight(i),
        }
    }

    /// Calls `row(i, x[i], w)` for every row i of `rows` in order, w its
    /// copies. One loop for both kinds of rows (a mirrored row is read
    /// from the other end and negated, without a branch), so that `row`
    /// is inlined into it: the sweeps are the selection's inner loop.
    #[inline(always)]
    fn each_row(&self, rows: Range<usize>, mut row: impl FnMut(usize, f64, usize)) {
        let (source, mirrored) = self.row_source();
        let (values, cumulative) = (&source.values, &source.cumulative);
        let last = values.len().wrapping_sub(1);
        let sign = if mirrored { -1.0 } else { 1.0 };
        for i in rows {
            let at = if mirrored { last - i } else { i };
            row(i, sign * values[at], cumulative[at + 1] - cumulative[at]);
        }
    }

    /// Walsh sums only: the sample d itself, as its distinct values
    /// ascending and their cumulative counts (`cumulative[j]` = values
    /// among the first j distinct ones, the last the sample's size).
    pub(crate) fn sample(&self) -> (&[f64], &[usize]) {
        (&self.y.values, &self.y.cumulative)
    }

    /// The rank to compare with k of a value t with `ordered` matrix
    /// elements ≤ t (`inclusive`) or < t: `ordered` itself, or for Walsh
    /// sums (`ordered` + diagonal sums ≤ t or < t) / 2.
    fn rank(&self, ordered: u128, t: f64, inclusive: bool) -> u128 {
        if self.walsh() {
            (ordered + self.diagonal(t, inclusive)) / 2
        } else {
            ordered
        }
    }

    /// Walsh sums only: the number of diagonal sums dᵢ + dᵢ ≤ t
    /// (`inclusive`) or < t, by binary search over the distinct values.
    fn diagonal(&self, t: f64, inclusive: bool) -> u128 {
        let v = &self.y.values;
        let distinct = if inclusive {
            v.partition_point(|&a| a + a <= t)
        } else {
            v.partition_point(|&a| a + a < t)
        };
        self.y.cumulative[distinct] as u128
    }

    /// Rows plus columns: what one count over the elements visits.
    pub(crate) fn sweep(&self) -> usize {
        self.rows() + self.y.len()
    }

    /// The sizes of the two samples (n1, n2). Not for Walsh sums.
    pub(crate) fn sample_sizes(&self) -> (usize, usize) {
        let n1 = (0..self.rows()).map(|i| self.row_weight(i)).sum();
        (n1, self.y.cumulative[self.y.len()])
    }

    /// Number of elements, n1·n2 (or R(R+1)/2 Walsh sums).
    pub(crate) fn count(&self) -> u128 {
        self.count
    }

    /// (d(⌈M/2⌉), d(⌊M/2⌋ + 1)): the middle difference twice when M is
    /// odd, else the two middle ones; their mean is the Hodges–Lehmann
    /// estimate. Not for Walsh sums.
    pub(crate) fn middle(&self) -> (f64, f64) {
        let m = self.count;
        if m % 2 == 1 {
            let v = self.kth(m / 2 + 1);
            (v, v)
        } else {
            self.kth_and_next(m / 2)
        }
    }

    /// Sizes of the tie groups, in ascending order, of the pooled sample
    /// {x} ∪ {y − δ}: x values tie with each other when equal, so do y
    /// values, and y_j − δ ties x_i when the computed difference
    /// `y[j] - x[i]` equals δ — the comparison the selection makes, so the
    /// groups agree with the counts of differences < δ and ≤ δ. One merge
    /// over the distinct values, O(rows + columns). Not for Walsh sums.
    pub(crate) fn pooled_groups(&self, delta: f64) -> Vec<u64> {
        let (rows, y) = (self.rows(), &self.y);
        let mut groups = Vec::with_capacity(rows + y.len());
        let (mut i, mut j) = (0, 0);
        while i < rows || j < y.len() {
            let take_x = j == y.len() || (i < rows && y.values[j] - self.row(i) > delta);
            let take_y = i == rows || (j < y.len() && y.values[j] - self.row(i) < delta);
            if take_x {
                groups.push(self.row_weight(i) as u64);
                i += 1;
            } else if take_y {
                groups.push(y.weight(j) as u64);
                j += 1;
            } else {
                groups.push((self.row_weight(i) + y.weight(j)) as u64);
                i += 1;
                j += 1;
            }
        }
        groups
    }

    /// The placements of both samples at δ, for the variance of the
    /// fraction F(δ) of differences below δ (ties counting half) without a
    /// shift model: per x value, p = (#{y − x < δ} + ½#{y − x = δ})/n2;
    /// per y value, q = (#{y − x < δ} + ½#{y − x = δ})/n1. Returns their
    /// sample variances (weighted by the copies, divisors n1 − 1 and
    /// n2 − 1), `None` when a sample has fewer than two values. Compared
    /// as [`Differences::pooled_groups`] compares, so ties agree with the
    /// counts. Two merges over the distinct values. Not for Walsh sums.
    pub(crate) fn placement_variances(&self, delta: f64) -> Option<(f64, f64)> {
        let (rows, y) = (self.rows(), &self.y);
        let (n1, n2) = self.sample_sizes();
        if n1 < 2 || n2 < 2 {
            return None;
        }
        // y − x rises with y and falls with x: for each row the columns
        // below (at or below) δ are a prefix that grows with the row, and
        // for each column the rows below δ are a suffix that shrinks.
        let half_count = |lt: usize, le: usize| lt as f64 + (le - lt) as f64 / 2.0;
        let (mut lt, mut le) = (0, 0);
        let mut p = Vec::with_capacity(rows);
        for i in 0..rows {
            let x = self.row(i);
            while lt < y.len() && y.values[lt] - x < delta {
                lt += 1;
            }
            le = le.max(lt);
            while le < y.len() && y.values[le] - x <= delta {
                le += 1;
            }
            let value = half_count(y.cumulative[lt], y.cumulative[le]) / n2 as f64;
            p.push((value, self.row_weight(i)));
        }
        let mut row_cumulative = Vec::with_capacity(rows + 1);
        row_cumulative.push(0);
        for i in 0..rows {
            row_cumulative.push(row_cumulative[i] + self.row_weight(i));
        }
        // Rows from `gt` on have y − x < δ, from `ge` on y − x ≤ δ.
        let (mut gt, mut ge) = (0, 0);
        let mut q = Vec::with_capacity(y.len());
        for j in 0..y.len() {
            let v = y.values[j];
            while ge < rows && v - self.row(ge) > delta {
                ge += 1;
            }
            gt = gt.max(ge);
            while gt < rows && v - self.row(gt) >= delta {
                gt += 1;
            }
            let below = n1 - row_cumulative[gt];
            let at_most = n1 - row_cumulative[ge];
            q.push((half_count(below, at_most) / n1 as f64, y.weight(j)));
        }
        let variance = |values: &[(f64, usize)], n: usize| {
            let mean = values.iter().map(|&(v, w)| v * w as f64).sum::<f64>() / n as f64;
            let squares: f64 = values
                .iter()
                .map(|&(v, w)| (v - mean).powi(2) * w as f64)
                .sum();
            squares / (n - 1) as f64
        };
        Some((variance(&p, n1), variance(&q, n2)))
    }

    /// (#{elements < t}, #{elements ≤ t}), counted as the selection
    /// compares (Walsh sums: as ranks, see [`Differences::rank`]).
    #[cfg(test)]
    pub(crate) fn counts(&self, t: f64) -> (u128, u128) {
        let a = self.around(t);
        (a.below, a.at_most)
    }

    /// (the largest element < t, the smallest element > t), each `None`
    /// when there is none ([`Around`]).
    #[cfg(test)]
    pub(crate) fn neighbours(&self, t: f64) -> (Option<f64>, Option<f64>) {
        let a = self.around(t);
        (a.next_below, a.next_above)
    }

    /// The rows a count of the elements < t (≤ t with `inclusive`) needs,
    /// and the columns whose counts in them it doubles ([`Half`]).
    fn half(&self, t: f64, inclusive: bool) -> Half {
        if !self.walsh() {
            return self.every_row();
        }
        let y = &self.y.values;
        let kept = if inclusive {
            y.partition_point(|&d| d + d <= t)
        } else {
            y.partition_point(|&d| d + d < t)
        };
        Half {
            from: self.rows() - kept,
            mirrored: kept,
        }
    }

    /// Every row, no column counted twice: a count or bracket without an
    /// upper end ([`Half`]).
    fn every_row(&self) -> Half {
        Half {
            from: 0,
            mirrored: self.y.len(),
        }
    }

    /// The ordered elements a row with `w` copies adds to a count whose
    /// boundary in it is column `c` ([`Half`]): w·(#≤ c, and again those
    /// from `half.mirrored` on).
    fn in_row(&self, w: usize, c: usize, half: Half) -> u128 {
        let cumulative = &self.y.cumulative;
        let (c, mirrored) = (cumulative[c] as u128, cumulative[half.mirrored] as u128);
        w as u128 * (c + c.saturating_sub(mirrored))
    }

    /// The counts of the elements < t and ≤ t and the elements next to t,
    /// in one sweep, O(rows + columns), allocating nothing. When t is an
    /// element, the ranks of its block are remembered. Walsh sums sweep
    /// only the rows of the values d with 2d ≤ t, about half ([`Half`]);
    /// the smallest sum > t is then a swept row's or the first unswept
    /// value doubled (every sum of two unswept values is at least that).
    pub(crate) fn around(&self, t: f64) -> Around {
        let y = &self.y.values;
        let _sweep = self.sweep_started();
        let (mut below, mut at_most) = (0u128, 0u128);
        let (strict, inclusive) = (self.half(t, false), self.half(t, true));
        // (None for differences: their rows are all swept.)
        let doubled = y.get(inclusive.mirrored).map(|&d| d - -d);
        let (mut next_below, mut next_above): (Option<f64>, Option<f64>) = (None, doubled);
        let mut neighbours = |xi: f64, lt: usize, le: usize| {
            if lt > 0 {
                let v = y[lt - 1] - xi;
                next_below = Some(next_below.map_or(v, |b: f64| b.max(v)));
            }
            if le < y.len() {
                let v = y[le] - xi;
                next_above = Some(next_above.map_or(v, |a: f64| a.min(v)));
            }
        };
        self.row_boundaries_in(inclusive.from..self.rows(), t, |i, w, xi, lt, le| {
            at_most += self.in_row(w, le, inclusive);
            if i >= strict.from {
                below += self.in_row(w, lt, strict);
            }
            neighbours(xi, lt, le);
        });
        let (below, at_most) = (self.rank(below, t, false), self.rank(at_most, t, true));
        if at_most > below {
            // t is an element: the ranks of its block are known.
            self.remember(below + 1, at_most, t);
            self.note_counts(t, below, at_most);
        }
        Around {
            below,
            at_most,
            next_below,
            next_above,
        }
    }

    /// The rank blocks found so far. Every block is a fact about the
    /// elements, so one left by a thread that panicked is still true.
    fn known_blocks(&self) -> std::sync::MutexGuard<'_, Vec<(u128, u128, f64)>> {
        self.known
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn remember(&self, first: u128, last: u128, value: f64) {
        let mut known = self.known_blocks();
        if known.len() < KNOWN_LIMIT {
            known.push((first, last, value));
        }
    }

    fn recall(&self, k: u128) -> Option<f64> {
        self.known_blocks()
            .iter()
            .find(|&&(first, last, _)| (first..=last).contains(&k))
            .map(|&(_, _, v)| v)
    }

    /// The values whose ranks are known ([`Differences::counted`]), as
    /// facts: one left by a thread that panicked is still true.
    fn counted_values(&self) -> std::sync::MutexGuard<'_, Vec<(f64, u128, u128)>> {
        self.counted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes that `below` elements are < t and `at_most` ≤ t (as ranks).
    fn note_counts(&self, t: f64, below: u128, at_most: u128) {
        let mut counted = self.counted_values();
        if counted.len() < KNOWN_LIMIT {
            counted.push((t, below, at_most));
        }
    }

    /// The narrowest bracket the known counts give rank k: the largest
    /// value with fewer than k elements ≤ it and the smallest with at least
    /// k elements < it (`None`: none known), and how many ranks lie
    /// between them.
    fn known_bracket(&self, k: u128) -> (Option<f64>, Option<f64>, u128) {
        let counted = self.counted_values();
        let lo = (counted.iter())
            .filter(|c| c.2 < k)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let hi = (counted.iter())
            .filter(|c| c.1 >= k)
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let width = hi.map_or(self.count, |h| h.1) - lo.map_or(0, |l| l.2);
        (lo.map(|l| l.0), hi.map(|h| h.0), width)
    }

    /// Calls `row(i, w, x[i], lt, le)` for every row i of `rows` in order
    /// (w its copies), with the number of distinct columns whose
    /// difference is < t (`lt`) and ≤ t (`le`).
    /// Within a row the differences grow with the column; down the rows
    /// they fall, so both pointers only move right: one sweep, O(rows +
    /// columns) ([`Differences::count_two`] within bounds), after a binary
    /// search in the first row.
    fn row_boundaries_in(
        &self,
        rows: Range<usize>,
        t: f64,
        mut row: impl FnMut(usize, usize, f64, usize, usize),
    ) {
        let y = &self.y.values;
        let (mut lt, mut le) = if rows.is_empty() {
            (0, 0)
        } else {
            let x0 = self.row(rows.start);
            (
                y.partition_point(|&v| v - x0 < t),
                y.partition_point(|&v| v - x0 <= t),
            )
        };
        self.each_row(rows, |i, xi, w| {
            lt = first_not_below(y, lt, y.len(), |v| v - xi < t);
            le = le.max(lt);
            while le < y.len() && y[le] - xi <= t {
                le += 1;
            }
            row(i, w, xi, lt, le);
        });
    }

    /// The k-th smallest difference (1-based; k is clamped into 1..=n1·n2).
    pub(crate) fn kth(&self, k: u128) -> f64 {
        self.select(k).0
    }

    /// [`Differences::kth`], and the (k+1)-th when the selection found it
    /// on the way (the gathered cells hold it, or the answer's copies
    /// reach k + 1).
    fn select(&self, k: u128) -> (f64, Option<f64>) {
        let k = k.clamp(1, self.count);
        if let Some(v) = self.recall(k) {
            return (v, None);
        }
        if self.count <= self.list_at_most {
            let mut all = self.listed();
            let v = *all.select_nth_unstable_by(k as usize - 1, f64::total_cmp).1;
            self.remember(k, k, v);
            return (v, None);
        }
        let (v, next) = if u32::try_from(self.y.len()).is_ok() {
            Selection::<u32>::new(self).run(self, k)
        } else {
            Selection::<usize>::new(self).run(self, k)
        };
        self.remember(k, k, v);
        (v, next)
    }

    /// (d(k), d(k+1)); both are d(M) for k = M. One selection, and a count
    /// about d(k) ([`Differences::around`]) unless the selection found
    /// d(k+1).
    pub(crate) fn kth_and_next(&self, k: u128) -> (f64, f64) {
        if self.count <= self.list_at_most {
            let k = k.clamp(1, self.count) as usize;
            let mut all = self.listed();
            let (_, &mut kth, above) = all.select_nth_unstable_by(k - 1, f64::total_cmp);
            let next = above.iter().copied().min_by(f64::total_cmp).unwrap_or(kth);
            return (kth, next);
        }
        if k >= self.count {
            let kth = self.kth(k);
            return (kth, kth);
        }
        let (kth, found) = self.select(k);
        if let Some(next) = found {
            return (kth, next);
        }
        // One sweep: d(k) again if its copies reach k + 1, else the
        // smallest element above it.
        let around = self.around(kth);
        if around.at_most > k {
            return (kth, kth);
        }
        (kth, around.next_above.unwrap_or(kth))
    }

    /// Every element, with its multiplicity, in no particular order: the
    /// cells' values as the selection computes them, `y[j] - x[i]`. For
    /// Walsh sums (x = −y reversed) the cells whose two values are the
    /// sum's dₐ + d_b with a ≤ b: a value with w copies gives w·(w + 1)/2
    /// sums with itself, two distinct values wₐ·w_b.
    fn listed(&self) -> Vec<f64> {
        let y = &self.y;
        let walsh = self.walsh();
        let mut all = Vec::with_capacity(self.count as usize);
        self.each_row(0..self.rows(), |i, xi, wx| {
            // Walsh sums: x[i] is −y[a], a = L − 1 − i; columns from a on.
            let first = if walsh { y.len() - 1 - i } else { 0 };
            for (j, &yj) in y.values.iter().enumerate().skip(first) {
                let copies = if walsh && j == first {
                    wx * (wx + 1) / 2
                } else {
                    wx * y.weight(j)
                };
                all.extend(std::iter::repeat(yj - xi).take(copies));
            }
        });
        all
    }

    /// Registers a sweep in progress until the guard is dropped.
    fn sweep_started(&self) -> Sweeping<'_> {
        self.sweeping.fetch_add(1, Ordering::Relaxed);
        Sweeping(&self.sweeping)
    }

    /// Whether a selection (itself a sweep in progress) sweeps alone.
    fn sweeps_alone(&self) -> bool {
        self.sweeping.load(Ordering::Relaxed) == 1
    }

    /// Both pivots p1 ≤ p2 of a selection round counted in one sweep,
    /// in place: per row, within `[low[i], high[i]]` (the bracket), the
    /// columns whose difference is ≤ p1 replace `low[i]` and those < p2
    /// replace `high[i]`, the bracket of the usual outcome (the answer
    /// between the pivots); the sums (#< p1, #≤ p1, #< p2, #≤ p2) of
    /// original differences are returned. As i grows the counts cannot
    /// shrink (x grows, differences fall), so four pointers only move
    /// right: O(rows + columns) for both pivots, where a sweep per pivot
    /// read every row twice.
    ///
    /// Only the rows from `from` on are swept (Walsh sums: those of the
    /// bracket, [`Half`], which include every row the four counts need);
    /// the others' bounds are left as they are.
    ///
    /// With `halves`, the second half of the rows is swept on another
    /// thread meanwhile (its pointers start at its first row's bounds,
    /// where one sweep would have them at least): the same boundaries and
    /// sums.
    fn count_two<C: Column>(
        &self,
        pivots: (f64, f64),
        low: &mut [C],
        high: &mut [C],
        from: usize,
        halves: bool,
    ) -> [u128; 4] {
        let rows = self.rows();
        let counts = [
            self.half(pivots.0, false),
            self.half(pivots.0, true),
            self.half(pivots.1, false),
            self.half(pivots.1, true),
        ];
        let add = |a: [u128; 4], b: [u128; 4]| std::array::from_fn(|j| a[j] + b[j]);
        let split = (halves && rows - from >= 2).then(|| {
            let half = from + (rows - from) / 2;
            let (low_first, low_second) = low[from..].split_at_mut(half - from);
            let (high_first, high_second) = high[from..].split_at_mut(half - from);
            std::thread::scope(|scope| {
                let theirs = std::thread::Builder::new().spawn_scoped(scope, || {
                    self.count_two_in(pivots, counts, half..rows, low_second, high_second)
                });
                // Where no thread can be started, one sweep below.
                let theirs = theirs.ok()?;
                let mine = self.count_two_in(pivots, counts, from..half, low_first, high_first);
                let theirs = theirs
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                Some(add(mine, theirs))
            })
        });
        match split.flatten() {
            Some(sums) => sums,
            None => self.count_two_in(
                pivots,
                counts,
                from..rows,
                &mut low[from..],
                &mut high[from..],
            ),
        }
    }

    /// [`Differences::count_two`] over `rows`, `low` and `high` indexed
    /// from `rows.start`, each count over the rows of its [`Half`].
    fn count_two_in<C: Column>(
        &self,
        (p1, p2): (f64, f64),
        counts: [Half; 4],
        rows: Range<usize>,
        low: &mut [C],
        high: &mut [C],
    ) -> [u128; 4] {
        let y = &self.y.values;
        let start = rows.start;
        // Columns < p1, ≤ p1, < p2, ≤ p2 in the current row.
        let (mut lt1, mut le1, mut lt2, mut le2) = (0, 0, 0, 0);
        let mut sums = [0u128; 4];
        self.each_row(rows, |i, xi, w| {
            let (from, end) = (low[i - start].get(), high[i - start].get());
            lt1 = first_not_below(y, lt1.max(from), end, |v| v - xi < p1);
            le1 = le1.max(lt1);
            while le1 < end && y[le1] - xi <= p1 {
                le1 += 1;
            }
            lt2 = first_not_below(y, lt2.max(lt1), end, |v| v - xi < p2);
            le2 = le2.max(lt2);
            while le2 < end && y[le2] - xi <= p2 {
                le2 += 1;
            }
            low[i - start] = C::of(le1);
            high[i - start] = C::of(lt2);
            for ((sum, c), half) in sums.iter_mut().zip([lt1, le1, lt2, le2]).zip(counts) {
                if i >= half.from {
                    *sum += self.in_row(w, c, half);
                }
            }
        });
        sums
    }

    /// Per row from `from` on, the columns whose difference is < t (≤ t
    /// with `inclusive`), over every column, into `per_row`; returns the
    /// number of ordered elements < t (≤ t), counted over the rows of its
    /// [`Half`] (which must start at `from` or later). Rebuilds a side of
    /// a selection's bracket in the rounds whose answer is not between
    /// the pivots.
    fn boundaries_at<C: Column>(
        &self,
        t: f64,
        inclusive: bool,
        per_row: &mut [C],
        from: usize,
    ) -> u128 {
        let half = self.half(t, inclusive);
        let mut total = 0u128;
        self.row_boundaries_in(from..self.rows(), t, |i, w, _, lt, le| {
            let c = if inclusive { le } else { lt };
            per_row[i] = C::of(c);
            if i >= half.from {
                total += self.in_row(w, c, half);
            }
        });
        total
    }
}

/// The first column c from `from` on (at most `end` ≤ `y.len()`) where
/// `below(y[c])` fails, for a `below` that holds for a prefix of the
/// columns (a row's differences grow with the column). Four columns are
/// tested at once, each test independent of the others and without a
/// branch, and their passes counted (a prefix: as many as pass): a row's
/// boundary moves about one column on average, and a loop exit per column
/// would be mispredicted about every other row, the sweeps' main cost.
#[inline(always)]
fn first_not_below(y: &[f64], from: usize, end: usize, below: impl Fn(f64) -> bool) -> usize {
    let Some(last) = y.len().checked_sub(1) else {
        return from;
    };
    let passes = |c: usize| usize::from((c < end) & below(y[c.min(last)]));
    let mut c = from;
    loop {
        let step = passes(c) + passes(c + 1) + passes(c + 2) + passes(c + 3);
        c += step;
        if step < 4 {
            return c;
        }
    }
}

/// The state of one selection: the bracket (lo, hi) around the answer.
struct Selection<C> {
    /// Per row, the columns with difference ≤ lo (none at the start).
    low: Boundary<C>,
    /// Per row, the columns with difference < hi (all at the start).
    high: Boundary<C>,
    /// lo and hi themselves (`None`: below, above every element).
    bracket: (Option<f64>, Option<f64>),
    /// Walsh sums only: the diagonal sums ≤ lo (none at the start).
    low_diagonal: u128,
    /// The rows the bracket keeps and the columns counted twice in them:
    /// for Walsh sums those of the count < hi ([`Half`]: every active
    /// ordered sum is in them or the mirror of one counted twice), else
    /// every row, no column.
    kept: Half,
    rng: SplitMix64,
    /// Where y's original values lie among its distinct ones.
    blocks: Blocks<C>,
}

/// `count` equal strata of the positions `0..total`, in order, as
/// (start, width): stratum j is `⌊j·total/count⌋..⌊(j+1)·total/count⌋`
/// (widths differ by at most one), stepped without a division each.
struct Strata {
    start: u128,
    per: u128,
    extra: u128,
    count: u128,
    /// j·extra mod count, for the next stratum j.
    remainder: u128,
    left: u128,
}

impl Strata {
    /// `count` ≤ `total`, so no stratum is empty.
    fn new(total: u128, count: u128) -> Self {
        Strata {
            start: 0,
            per: total / count,
            extra: total % count,
            count,
            remainder: 0,
            left: count,
        }
    }
}

impl Iterator for Strata {
    type Item = (u128, u128);

    fn next(&mut self) -> Option<(u128, u128)> {
        self.left = self.left.checked_sub(1)?;
        // ⌊(j+1)·extra/count⌋ − ⌊j·extra/count⌋ is 1 exactly when the
        // remainder wraps.
        self.remainder += self.extra;
        let carry = self.remainder >= self.count;
        if carry {
            self.remainder -= self.count;
        }
        let width = self.per + u128::from(carry);
        let start = self.start;
        self.start += width;
        Some((start, width))
    }
}

/// Original values per block of [`Blocks`].
const BLOCK: usize = 16;

/// The distinct column of an original y value (its index counting
/// multiplicity), found without a search over every column: per block of
/// [`BLOCK`] original values, the column of its first (and after them
/// the last column), so a lookup searches one block's few columns. A
/// sweep over a million columns per round to place the draws, or a
/// binary search over all of them per draw (a cache miss per step), cost
/// more than the round's count.
struct Blocks<C>(Vec<C>);

impl<C: Column> Blocks<C> {
    fn of(y: &Distinct) -> Self {
        let originals = y.cumulative[y.len()];
        let mut first = Vec::with_capacity(originals / BLOCK + 2);
        let mut column = 0;
        for original in (0..originals).step_by(BLOCK) {
            while y.cumulative[column + 1] <= original {
                column += 1;
            }
            first.push(C::of(column));
        }
        first.push(C::of(y.len().saturating_sub(1)));
        Blocks(first)
    }

    /// The column c with `cumulative[c] ≤ original < cumulative[c + 1]`.
    fn column_of(&self, y: &Distinct, original: usize) -> usize {
        let block = original / BLOCK;
        let (from, to) = (self.0[block].get(), self.0[block + 1].get());
        from + y.cumulative[from + 1..=to].partition_point(|&c| c <= original)
    }
}

impl<C: Column> Selection<C> {
    fn new(d: &Differences) -> Self {
        let rows = d.rows();
        Selection {
            low: Boundary {
                per_row: vec![C::of(0); rows],
                total: 0,
            },
            high: Boundary {
                per_row: vec![C::of(d.y.len()); rows],
                total: d.ordered,
            },
            bracket: (None, None),
            low_diagonal: 0,
            kept: d.every_row(),
            rng: SplitMix64::new(0x5EED_B357_6E55_0001),
            blocks: Blocks::of(&d.y),
        }
    }

    /// Narrows the bracket until the k-th difference is found.
    ///
    /// Invariant: the answer is among the "active" differences, those with
    /// lo < d < hi; in row i of the rows kept they are the columns
    /// `low.per_row[i]..high.per_row[i]` (the others' are mirrors of
    /// those, [`Half`]), and rank(≤ lo) < k ≤ rank(< hi)
    /// ([`Differences::rank`]: for differences, `low.total < k ≤
    /// high.total`). The answer is the smallest element of rank ≥ k.
    /// Also returns the (k+1)-th element when it is found on the way.
    fn run(&mut self, d: &Differences, k: u128) -> (f64, Option<f64>) {
        let _sweep = d.sweep_started();
        // Asked once: it reads the cgroup's files.
        static TWO_CORES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let two_cores = *TWO_CORES
            .get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2));
        let sample_size = ((d.rows() + d.y.len()) / 4).clamp(64, 1 << 16);
        let mut pivots: Vec<f64> = Vec::with_capacity(sample_size);
        let mut wanted: Vec<(usize, f64)> = Vec::with_capacity(sample_size);
        // A bracket known from earlier counts, if much narrower than all
        // the elements: two counts instead of the widest rounds.
        let (lo, hi, width) = d.known_bracket(k);
        if width <= d.count / START_NARROWER {
            self.set_high(d, hi);
            self.set_low(d, lo);
        }
        loop {
            let cells: usize = (self.kept.from..d.rows())
                .map(|i| self.high.per_row[i].get() - self.low.per_row[i].get())
                .sum();
            if cells <= d.gather_at {
                return self.gather(d, k, cells);
            }

            // Draw pivots from the active differences, weighted by
            // multiplicity (so their ranks track the answer's): the active
            // original differences are numbered row by row, cut into
            // `draws` equal strata, and one position drawn in each. The
            // positions come out in order, so one sweep over the rows
            // finds each one's row and original column, without sorting
            // them; and the share of draws below any value varies no more
            // than with independent draws (stratified sampling), so the
            // spread below still holds.
            let active = self.high.total - self.low.total;
            let draws = (sample_size as u128).min(active);
            let mut strata = Strata::new(active, draws);
            let (low, high, rng) = (&self.low.per_row, &self.high.per_row, &mut self.rng);
            let mut draw = || {
                strata
                    .next()
                    .map(|(start, width)| start + rng.below_u128(width))
            };
            let mut position = draw();
            let mut row_start = 0u128;
            let kept = self.kept;
            wanted.clear();
            d.each_row(kept.from..d.rows(), |i, xi, copies| {
                let (lo, hi) = (low[i].get(), high[i].get());
                let first = d.y.cumulative[lo];
                let span = (d.y.cumulative[hi] - first) as u128;
                // The span's columns counted twice ([`Half`]) are drawn a
                // second time, as if they followed it.
                let twice = d.y.cumulative[lo.max(kept.mirrored)];
                let again = d.y.cumulative[hi].saturating_sub(twice) as u128;
                let row_span = span + again;
                let row_end = row_start + copies as u128 * row_span;
                while let Some(at) = position.filter(|&p| p < row_end) {
                    // The row repeats its span of y (and the part counted
                    // twice) once per copy of x[i] (a remainder only past
                    // the first: a division of 128-bit numbers is a call).
                    let within = at - row_start;
                    let offset = if within < row_span {
                        within
                    } else {
                        within % row_span
                    };
                    let original = match offset.checked_sub(span) {
                        None => first + offset as usize,
                        Some(past) => twice + past as usize,
                    };
                    wanted.push((original, xi));
                    position = draw();
                }
                row_start = row_end;
            });
            // The rows kept hold every active element once ([`Half`]).
            debug_assert_eq!(
                row_start, active,
                "the draws' positions are the active elements"
            );
            // Each draw's value, its distinct column looked up apart from
            // the sweep: the lookups do not depend on each other, so their
            // cache misses overlap (in the first round every row's draw
            // may be anywhere in y).
            pivots.clear();
            pivots.extend(
                wanted
                    .iter()
                    .map(|&(original, xi)| d.y.values[self.blocks.column_of(&d.y, original)] - xi),
            );

            // Two pivots around where the answer should be among the draws:
            // the matrix position of rank k (for Walsh sums about 2k minus
            // the diagonal sums below it, at least those ≤ lo).
            let target = if d.walsh() {
                (2 * k)
                    .saturating_sub(self.low_diagonal)
                    .clamp(self.low.total + 1, self.high.total)
            } else {
                k
            };
            let s = pivots.len() as f64;
            let expected = (target - self.low.total) as f64 / active as f64 * s;
            let spread = 2.0 * s.sqrt() + 1.0;
            let last = pivots.len() - 1;
            let below = ((expected - spread).floor().max(0.0) as usize).min(last);
            let above = ((expected + spread).ceil().max(0.0) as usize).min(last);
            // The two order statistics, each found in linear time.
            let (_, &mut p1, above_p1) = pivots.select_nth_unstable_by(below, f64::total_cmp);
            let p2 = match above.checked_sub(below + 1) {
                Some(nth) => *above_p1.select_nth_unstable_by(nth, f64::total_cmp).1,
                None => p1,
            };
            // Both pivots in one sweep, the bracket narrowed to (p1, p2)
            // in place: where the answer nearly always is.
            let halves = two_cores && d.rows() >= HALVES_FROM && d.sweeps_alone();
            let [lt1, le1, lt2, le2] = d.count_two(
                (p1, p2),
                &mut self.low.per_row,
                &mut self.high.per_row,
                self.kept.from,
                halves,
            );
            for (p, lt, le) in [(p1, lt1, le1), (p2, lt2, le2)] {
                d.note_counts(p, d.rank(lt, p, false), d.rank(le, p, true));
            }
            // A pivot that is the answer is the (k+1)-th too if its copies
            // reach that far.
            let hit = |p: f64, lt: u128, le: u128| {
                let at_most = d.rank(le, p, true);
                (at_most >= k && d.rank(lt, p, false) < k).then(|| (p, (at_most > k).then_some(p)))
            };
            if let Some(found) = hit(p1, lt1, le1).or_else(|| hit(p2, lt2, le2)) {
                return found;
            }
            if d.rank(lt1, p1, false) >= k {
                // Below p1: (lo, p1), both sides counted again (the
                // upper first: it sets the rows kept).
                self.set_high(d, Some(p1));
                self.set_low(d, self.bracket.0);
            } else if d.rank(lt2, p2, false) >= k {
                // Between the pivots: the sweep left (p1, p2).
                self.low.total = le1;
                self.high.total = lt2;
                self.bracket = (Some(p1), Some(p2));
                self.kept = d.half(p2, false);
                if d.walsh() {
                    self.low_diagonal = d.diagonal(p1, true);
                }
            } else {
                // Above p2: (p2, hi), both sides counted again.
                self.set_high(d, self.bracket.1);
                self.set_low(d, Some(p2));
            }
        }
    }

    /// The bracket's lower side at `lo`: per row the columns ≤ lo (none
    /// for `None`), with the diagonal sums ≤ lo for Walsh sums.
    fn set_low(&mut self, d: &Differences, lo: Option<f64>) {
        self.low.total = match lo {
            Some(t) => d.boundaries_at(t, true, &mut self.low.per_row, self.kept.from),
            None => {
                self.low.per_row.fill(C::of(0));
                0
            }
        };
        self.low_diagonal = match lo {
            Some(t) if d.walsh() => d.diagonal(t, true),
            _ => 0,
        };
        self.bracket.0 = lo;
    }

    /// The bracket's upper side at `hi`: per row the columns < hi (all
    /// for `None`), and the rows kept for it.
    fn set_high(&mut self, d: &Differences, hi: Option<f64>) {
        self.kept = match hi {
            Some(t) => d.half(t, false),
            None => d.every_row(),
        };
        self.high.total = match hi {
            Some(t) => d.boundaries_at(t, false, &mut self.high.per_row, self.kept.from),
            None => {
                self.high.per_row.fill(C::of(d.y.len()));
                d.ordered
            }
        };
        self.bracket.1 = hi;
    }

    /// Selects directly among the few active cells of the rows kept, each
    /// weighted by its number of original differences (twice in a column
    /// counted twice, [`Half`]); and the (k+1)-th element: the
    /// answer again if its copies reach k + 1, else the next value
    /// gathered, else the bracket's upper end (an element, and the
    /// smallest above every active cell), unknown without one.
    fn gather(&self, d: &Differences, k: u128, cells: usize) -> (f64, Option<f64>) {
        let mut values: Vec<(f64, u128)> = Vec::with_capacity(cells);
        let kept = self.kept;
        d.each_row(kept.from..d.rows(), |i, xi, wx| {
            let wx = wx as u128;
            for j in self.low.per_row[i].get()..self.high.per_row[i].get() {
                let twice = 1 + u128::from(j >= kept.mirrored);
                values.push((d.y.values[j] - xi, twice * wx * d.y.weight(j) as u128));
            }
        });
        values.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        // The first value whose rank, counting every cell of that value,
        // reaches k.
        let mut ordered = self.low.total;
        for (c, &(v, w)) in values.iter().enumerate() {
            ordered += w;
            let last_of_value = values.get(c + 1).map_or(true, |next| next.0 != v);
            let at_most = d.rank(ordered, v, true);
            if last_of_value && at_most >= k {
                let next = if at_most > k {
                    Some(v)
                } else {
                    values.get(c + 1).map(|n| n.0).or(self.bracket.1)
                };
                return (v, next);
            }
        }
        // Unreachable while the invariant holds (rank(< hi) ≥ k).
        (values.last().map_or(0.0, |&(v, _)| v), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(x: &[f64], y: &[f64]) -> Vec<f64> {
        let mut d: Vec<f64> = x
            .iter()
            .flat_map(|&a| y.iter().map(move |&b| b - a))
            .collect();
        d.sort_unstable_by(f64::total_cmp);
        d
    }

    /// The largest element < t and the smallest > t, of a sorted list.
    fn brute_neighbours(sorted: &[f64], t: f64) -> (Option<f64>, Option<f64>) {
        (
            sorted.iter().rev().find(|&&v| v < t).copied(),
            sorted.iter().find(|&&v| v > t).copied(),
        )
    }

    /// Two sorted samples of 1 to 12 values: integers below `tied` (few
    /// distinct values, ties) or, without it, fractions (no ties).
    fn two_small_samples(rng: &mut SplitMix64, tied: Option<usize>) -> (Vec<f64>, Vec<f64>) {
        let n1 = 1 + rng.below(12);
        let n2 = 1 + rng.below(12);
        let draw = |rng: &mut SplitMix64| match tied {
            Some(values) => rng.below(values) as f64,
            None => rng.uniform() * 8.0 - 4.0,
        };
        let mut x: Vec<f64> = (0..n1).map(|_| draw(rng)).collect();
        let mut y: Vec<f64> = (0..n2).map(|_| draw(rng)).collect();
        x.sort_unstable_by(f64::total_cmp);
        y.sort_unstable_by(f64::total_cmp);
        (x, y)
    }

    #[test]
    fn placement_variances_agree_with_counting_every_pair() {
        let mut rng = SplitMix64::new(37);
        for round in 0..60 {
            let (x, y) = two_small_samples(&mut rng, (round % 2 == 0).then_some(5));
            let (n1, n2) = (x.len(), y.len());
            let differences = Differences::new(&x, &y);
            assert_eq!(differences.sample_sizes(), (n1, n2));
            let half = |pairs: &mut dyn Iterator<Item = f64>, t: f64, n: usize| {
                let (mut below, mut at) = (0.0, 0.0);
                for d in pairs {
                    below += f64::from(u8::from(d < t));
                    at += f64::from(u8::from(d == t));
                }
                (below + at / 2.0) / n as f64
            };
            let variance = |v: &[f64]| {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / (v.len() - 1) as f64
            };
            for t in brute(&x, &y).into_iter().flat_map(|v| [v, v + 0.5]) {
                let got = differences.placement_variances(t);
                if n1 < 2 || n2 < 2 {
                    assert_eq!(got, None);
                    continue;
                }
                let p: Vec<f64> = (x.iter())
                    .map(|&a| half(&mut y.iter().map(|&b| b - a), t, n2))
                    .collect();
                let q: Vec<f64> = (y.iter())
                    .map(|&b| half(&mut x.iter().map(|&a| b - a), t, n1))
                    .collect();
                let (vp, vq) = got.unwrap();
                assert!((vp - variance(&p)).abs() < 1e-12, "{x:?} {y:?} {t}");
                assert!((vq - variance(&q)).abs() < 1e-12, "{x:?} {y:?} {t}");
            }
        }
    }

    #[test]
    fn neighbours_are_the_elements_next_to_a_value() {
        let mut rng = SplitMix64::new(21);
        for round in 0..40 {
            let (x, y) = two_small_samples(&mut rng, (round % 2 == 0).then_some(6));
            let all = brute(&x, &y);
            let differences = Differences::new(&x, &y);
            let walsh = brute_walsh_sums(&y);
            let sums = Differences::walsh_sums(&y);
            let probes: Vec<f64> = all
                .iter()
                .chain(&walsh)
                .flat_map(|&v| [v, v - 0.5, v + 0.25])
                .collect();
            for t in probes {
                assert_eq!(
                    differences.neighbours(t),
                    brute_neighbours(&all, t),
                    "{x:?} {y:?} {t}"
                );
                assert_eq!(sums.neighbours(t), brute_neighbours(&walsh, t), "{y:?} {t}");
                // At an element, what the selection gives at the ranks.
                let (below, at_most) = differences.counts(t);
                let (before, after) = differences.neighbours(t);
                if below >= 1 {
                    assert_eq!(before, Some(differences.kth(below)));
                }
                if at_most < differences.count() && all.contains(&t) {
                    assert_eq!(after, Some(differences.kth(at_most + 1)));
                }
                let count = |pass: fn(f64, f64) -> bool| {
                    walsh.iter().filter(|&&v| pass(v, t)).count() as u128
                };
                assert_eq!(sums.counts(t), (count(|v, t| v < t), count(|v, t| v <= t)));
            }
            // Every rank block the counts remembered gives what a
            // selection (and the listing) gives; so do a narrowing and a
            // listing with nothing remembered.
            let fresh = |d: &Differences, list_at_most| Differences {
                list_at_most,
                known: Default::default(),
                ..d.clone()
            };
            for (k, &v) in all.iter().enumerate() {
                let k1 = k as u128 + 1;
                assert_eq!(differences.kth(k1), v, "{x:?} {y:?} k = {k}");
                for list_at_most in [0, u128::MAX] {
                    assert_eq!(
                        fresh(&differences, list_at_most).kth(k1),
                        v,
                        "{x:?} {y:?} k = {k}"
                    );
                }
            }
            for (k, &v) in walsh.iter().enumerate() {
                let k1 = k as u128 + 1;
                assert_eq!(sums.kth(k1), v, "{y:?} k = {k}");
                for list_at_most in [0, u128::MAX] {
                    assert_eq!(fresh(&sums, list_at_most).kth(k1), v, "{y:?} k = {k}");
                    let next = walsh.get(k + 1).copied().unwrap_or(v);
                    assert_eq!(
                        fresh(&sums, list_at_most).kth_and_next(k1),
                        (v, next),
                        "{y:?} k = {k}"
                    );
                }
            }
        }
    }

    /// The half sweep of the Walsh sums (the rows of the values d with
    /// 2d ≤ t, and their mirrors) counts and finds the neighbours as the
    /// listed sums do, in samples large enough that the first swept row
    /// is far from either end: negative, positive, tied and untied
    /// values, at sums, halfway between, and at twice a value.
    #[test]
    fn walsh_counts_from_half_the_rows_are_the_counts_of_the_sums() {
        let mut rng = SplitMix64::new(29);
        for round in 0..12 {
            let n = 50 + rng.below(250);
            let mut d: Vec<f64> = (0..n)
                .map(|_| match round % 3 {
                    0 => rng.below(40) as f64 - 15.0,
                    1 => rng.uniform() * 6.0 - 2.0,
                    _ => (rng.uniform() * 3.0).exp(),
                })
                .collect();
            d.sort_unstable_by(f64::total_cmp);
            let walsh = brute_walsh_sums(&d);
            let sums = Differences::walsh_sums(&d);
            let mut probes: Vec<f64> = (0..60).map(|_| walsh[rng.below(walsh.len())]).collect();
            probes.extend(probes.clone().windows(2).map(|w| (w[0] + w[1]) / 2.0));
            probes.extend(d.iter().map(|&v| v + v));
            probes.extend([walsh[0] - 1.0, walsh[walsh.len() - 1] + 1.0]);
            for t in probes {
                let below = walsh.partition_point(|&v| v < t) as u128;
                let at_most = walsh.partition_point(|&v| v <= t) as u128;
                let a = sums.around(t);
                assert_eq!(
                    (a.below, a.at_most),
                    (below, at_most),
                    "round {round}, t = {t}"
                );
                assert_eq!(
                    (a.next_below, a.next_above),
                    brute_neighbours(&walsh, t),
                    "round {round}, t = {t}"
                );
            }
        }
    }

    /// Selections among the Walsh sums of a few hundred values, through
    /// several rounds whose brackets keep fewer and fewer rows ([`Half`]),
    /// give the listed sums' order statistics and the next ones, tied or
    /// not, the values on both sides of zero or all positive.
    #[test]
    fn walsh_selection_over_half_the_rows_is_exact() {
        let mut rng = SplitMix64::new(31);
        for round in 0..6 {
            let n = 300 + rng.below(400);
            let mut d: Vec<f64> = (0..n)
                .map(|_| match round % 3 {
                    0 => rng.below(90) as f64 - 30.0,
                    1 => rng.uniform() * 4.0 - 1.0,
                    _ => (rng.uniform() * 2.0).exp(),
                })
                .collect();
            d.sort_unstable_by(f64::total_cmp);
            let walsh = brute_walsh_sums(&d);
            let m = walsh.len();
            let sums = Differences::walsh_sums(&d);
            let mut ks: Vec<usize> = (0..25).map(|_| rng.below(m)).collect();
            ks.extend([0, 1, m / 2 - 1, m / 2, m - 2, m - 1]);
            for k in ks {
                let fresh = Differences {
                    list_at_most: 0,
                    known: Default::default(),
                    ..sums.clone()
                };
                let next = walsh.get(k + 1).copied().unwrap_or(walsh[k]);
                assert_eq!(
                    fresh.kth_and_next(k as u128 + 1),
                    (walsh[k], next),
                    "round {round}, k = {k}"
                );
            }
        }
    }

    /// After the middle is selected, its rounds' pivots bracket nearby
    /// ranks far more narrowly than all the sums: the bracket's ends are
    /// elements with the ranks noted (counted by listing), and selections
    /// started from it give the listed order statistics, for Walsh sums
    /// and differences.
    #[test]
    fn selections_near_a_selected_rank_start_from_its_counts() {
        let mut rng = SplitMix64::new(37);
        for case in 0..8 {
            let n = 400 + rng.below(200);
            let mut draw = |n: usize| {
                let mut v: Vec<f64> = (0..n)
                    .map(|_| match case % 2 {
                        0 => rng.below(300) as f64,
                        _ => rng.uniform() * 5.0 - 1.0,
                    })
                    .collect();
                v.sort_unstable_by(f64::total_cmp);
                v
            };
            let (x, y) = (draw(n), draw(n + 7));
            let (all, d) = if case < 4 {
                (brute_walsh_sums(&y), Differences::walsh_sums(&y))
            } else {
                (brute(&x, &y), Differences::new(&x, &y))
            };
            let d = Differences {
                list_at_most: 0,
                ..d
            };
            let m = all.len();
            assert_eq!(d.kth(m as u128 / 2), all[m / 2 - 1]);
            for k in [m / 2 - m / 50, m / 2 + m / 40, m / 2 - 3] {
                let k1 = k as u128 + 1;
                let (lo, hi, width) = d.known_bracket(k1);
                let (lo, hi) = (lo.expect("a value below"), hi.expect("a value above"));
                assert!(width <= d.count() / START_NARROWER, "case {case}, k = {k}");
                let at_most_lo = all.partition_point(|&v| v <= lo) as u128;
                let below_hi = all.partition_point(|&v| v < hi) as u128;
                assert!(at_most_lo < k1 && k1 <= below_hi, "case {case}, k = {k}");
                assert_eq!(width, below_hi - at_most_lo);
                assert!(all.binary_search_by(|v| v.total_cmp(&lo)).is_ok());
                assert!(all.binary_search_by(|v| v.total_cmp(&hi)).is_ok());
                let next = all.get(k + 1).copied().unwrap_or(all[k]);
                assert_eq!(d.kth_and_next(k1), (all[k], next), "case {case}, k = {k}");
            }
        }
    }

    #[test]
    fn logs_reduced_without_a_list_select_the_log_differences() {
        let mut rng = SplitMix64::new(8);
        for _ in 0..20 {
            let mut x: Vec<f64> = (0..1 + rng.below(15))
                .map(|_| (1 + rng.below(7)) as f64)
                .collect();
            let mut y: Vec<f64> = (0..1 + rng.below(15))
                .map(|_| rng.uniform() * 9.0 + 0.1)
                .collect();
            x.sort_unstable_by(f64::total_cmp);
            y.sort_unstable_by(f64::total_cmp);
            let mut all: Vec<f64> = x
                .iter()
                .flat_map(|&a| y.iter().map(move |&b| b.ln() - a.ln()))
                .collect();
            all.sort_unstable_by(f64::total_cmp);
            let (lx, ly) = (SortedLogs::of(&x).unwrap(), SortedLogs::of(&y).unwrap());
            let logs = Differences::of_logs(&lx, &ly);
            assert_eq!(logs.count(), all.len() as u128);
            for (k, &v) in all.iter().enumerate() {
                assert_eq!(logs.kth(k as u128 + 1), v, "{x:?} {y:?} k = {k}");
            }
        }
        assert!(SortedLogs::of(&[0.0, 1.0]).is_none());
        assert!(SortedLogs::of(&[-2.0, 1.0]).is_none());
        assert!(SortedLogs::of(&[]).is_none());
    }

    fn check_all_ranks(x: &[f64], y: &[f64]) {
        let d = brute(x, y);
        for k in 1..=d.len() {
            // Narrowed all the way, narrowed then gathered, listed.
            for (gather_at, list_at_most) in [(0, 0), (x.len() + y.len(), 0), (0, u128::MAX)] {
                let differences = Differences {
                    gather_at,
                    list_at_most,
                    ..Differences::new(x, y)
                };
                let next = d[k.min(d.len() - 1)];
                let case = format!("k = {k}, gather at {gather_at}, list at most {list_at_most}, x = {x:?}, y = {y:?}");
                assert_eq!(differences.kth(k as u128), d[k - 1], "{case}");
                assert_eq!(
                    differences.kth_and_next(k as u128),
                    (d[k - 1], next),
                    "{case}"
                );
                // kth narrows with u32 boundaries; usize ones (columns
                // past u32) select the same; the (k+1)-th, when a
                // selection finds it, is the right one.
                if list_at_most == 0 {
                    let narrow = Selection::<u32>::new(&differences).run(&differences, k as u128);
                    let wide = Selection::<usize>::new(&differences).run(&differences, k as u128);
                    assert_eq!(wide, narrow, "usize boundaries, {case}");
                    assert_eq!(narrow.0, d[k - 1], "{case}");
                    if k < d.len() && narrow.1.is_some() {
                        assert_eq!(narrow.1, Some(next), "{case}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_rank_of_small_samples_equals_brute_force() {
        check_all_ranks(&[1.0, 3.0, 7.0], &[2.0, 2.5, 10.0, 11.0]);
        check_all_ranks(&[5.0], &[5.0]);
        check_all_ranks(&[-4.0, 0.0, 0.5], &[-10.0]);
    }

    #[test]
    fn heavy_ties_terminate_and_stay_exact() {
        check_all_ranks(&[1.0; 7], &[1.0; 5]);
        check_all_ranks(&[1.0, 1.0, 2.0, 2.0, 2.0, 3.0], &[1.0, 2.0, 2.0, 3.0, 3.0]);
        let mut x: Vec<f64> = (0..40).map(|i| f64::from(i % 3)).collect();
        let mut y: Vec<f64> = (0..30).map(|i| f64::from(i % 4)).collect();
        x.sort_unstable_by(f64::total_cmp);
        y.sort_unstable_by(f64::total_cmp);
        check_all_ranks(&x, &y);
    }

    /// Walsh sums dᵢ + dⱼ (i ≤ j), sorted, by their definition.
    fn brute_walsh_sums(d: &[f64]) -> Vec<f64> {
        let mut sums: Vec<f64> = (0..d.len())
            .flat_map(|i| (i..d.len()).map(move |j| d[i] + d[j]))
            .collect();
        sums.sort_by(f64::total_cmp);
        sums
    }

    #[test]
    fn the_next_element_a_selection_finds_is_the_next_one() {
        // Ties heavy and light, two samples and Walsh sums, narrowed to
        // the end or gathered: every rank's (k, k+1) pair.
        let mut rng = SplitMix64::new(46);
        for case in 0..40 {
            let values = [3, 12, 1000][case % 3];
            let mut sample = |n: usize| {
                let mut v: Vec<f64> = (0..n).map(|_| rng.below(values) as f64).collect();
                v.sort_by(f64::total_cmp);
                v
            };
            let (x, y) = (sample(5 + case % 9), sample(4 + case % 11));
            let (matrix, sorted) = if case % 2 == 0 {
                (Differences::new(&x, &y), brute(&x, &y))
            } else {
                (Differences::walsh_sums(&y), brute_walsh_sums(&y))
            };
            for gather_at in [0, 3, 40] {
                let differences = Differences {
                    gather_at,
                    list_at_most: 0,
                    ..matrix.clone()
                };
                for k in 1..sorted.len() {
                    let expected = (sorted[k - 1], sorted[k]);
                    let fresh = Differences {
                        known: Default::default(),
                        ..differences.clone()
                    };
                    assert_eq!(
                        fresh.kth_and_next(k as u128),
                        expected,
                        "case {case}, k = {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn kth_and_next_agree_with_brute_force() {
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let y = [2.0, 7.0, 1.0, 8.0, 2.0, 8.0];
        let (mut xs, mut ys) = (x.to_vec(), y.to_vec());
        xs.sort_unstable_by(f64::total_cmp);
        ys.sort_unstable_by(f64::total_cmp);
        let d = brute(&xs, &ys);
        for k in 1..=d.len() {
            let expected = (d[k - 1], d[k.min(d.len() - 1)]);
            for list_at_most in [0, LIST_AT_MOST] {
                let differences = Differences {
                    list_at_most,
                    ..Differences::new(&xs, &ys)
                };
                assert_eq!(
                    differences.kth_and_next(k as u128),
                    expected,
                    "k = {k}, list at most {list_at_most}"
                );
            }
        }
    }

    #[test]
    fn pooled_groups_merge_ties_within_and_across_the_samples() {
        // x = 1 1 2 4, y − 1 = 0 1 3 3 4: groups 0 | 1 1 1 | 2 | 3 3 | 4 4.
        let d = Differences::new(&[1.0, 1.0, 2.0, 4.0], &[1.0, 2.0, 4.0, 4.0, 5.0]);
        assert_eq!(d.pooled_groups(1.0), vec![1, 3, 1, 2, 2]);
        // Off the lattice nothing ties across: x groups and y groups.
        assert_eq!(d.pooled_groups(0.5), vec![1, 2, 1, 1, 2, 1, 1]);
        assert_eq!(d.middle(), (1.0, 1.0));
    }

    /// Both pivots counted in one sweep give, per row, the columns ≤ p1
    /// and < p2 and the four sums that a count of each pivot over every
    /// column gives; swept in two halves on two threads, the same. From
    /// the first bracket and from a narrowed one, for differences and
    /// Walsh sums, tied and untied, with p1 < p2 and p1 = p2.
    #[test]
    fn two_pivots_in_one_sweep_and_in_two_halves_equal_one_count_each() {
        let mut rng = SplitMix64::new(44);
        for case in 0..60 {
            let values = if case % 2 == 0 { 6 } else { 5000 };
            let mut sample = |n: usize| {
                let mut v: Vec<f64> = (0..n).map(|_| rng.below(values) as f64).collect();
                v.sort_by(f64::total_cmp);
                v
            };
            let (x, y) = (sample(2 + case * 7), sample(3 + case * 5));
            let d = if case % 3 == 0 {
                Differences::walsh_sums(&y)
            } else {
                Differences::new(&x, &y)
            };
            let rows = d.rows();
            // Per row and in all, the columns < t (≤ t with `inclusive`):
            // every row's count, the ordered elements (which the counts
            // over half the rows of Walsh sums must equal).
            let at = |t: f64, inclusive: bool| {
                let mut per_row = vec![0u32; rows];
                let total = d.boundaries_at(t, inclusive, &mut per_row, 0);
                let every_row: u128 = (0..rows)
                    .map(|i| d.row_weight(i) as u128 * d.y.cumulative[per_row[i] as usize] as u128)
                    .sum();
                assert_eq!(total, every_row, "case {case}, t = {t}");
                (per_row, total)
            };
            let span = 2.0 * values as f64;
            for _ in 0..10 {
                let mut ts: Vec<f64> = (0..2)
                    .map(|_| (rng.below(4 * values) as f64 - span) / 2.0)
                    .collect();
                ts.sort_by(f64::total_cmp);
                if rng.below(4) == 0 {
                    ts[1] = ts[0];
                }
                let (p1, p2) = (ts[0], ts[1]);
                let expected = (
                    at(p1, true).0,
                    at(p2, false).0,
                    [
                        at(p1, false).1,
                        at(p1, true).1,
                        at(p2, false).1,
                        at(p2, true).1,
                    ],
                );
                // From the first bracket, and from a narrowed one (≤ lo,
                // < hi): the pivots are strictly inside, as drawn from it.
                // The rows swept are those the bracket keeps (Walsh sums:
                // about half); the others' bounds are not looked at.
                let lo = p1 - 0.25 - rng.below(3) as f64;
                let hi = p2 + 0.25 + rng.below(3) as f64;
                let brackets = [
                    (vec![0u32; rows], vec![d.y.len() as u32; rows], 0),
                    (at(lo, true).0, at(hi, false).0, d.half(hi, false).from),
                ];
                for (lower, upper, from) in brackets {
                    assert!(from <= d.half(p2, false).from);
                    for halves in [false, true] {
                        let (mut low, mut high) = (lower.clone(), upper.clone());
                        let sums = d.count_two((p1, p2), &mut low, &mut high, from, halves);
                        let (want_low, want_high, want_sums) = &expected;
                        assert_eq!(
                            (&low[from..], &high[from..], &sums),
                            (&want_low[from..], &want_high[from..], want_sums),
                            "case {case}, halves {halves}"
                        );
                    }
                }
            }
        }
    }

    /// The four-at-once boundary search stops where a column-by-column
    /// loop does, for every start and end, steps long and short.
    #[test]
    fn strata_are_the_divisions_of_their_definition() {
        for (total, count) in [
            (1, 1),
            (7, 7),
            (10, 3),
            (65_536, 65_536),
            (1_000_003, 4096),
            (u128::MAX / 3, 65_536),
        ] {
            let strata: Vec<(u128, u128)> = Strata::new(total, count).collect();
            assert_eq!(strata.len() as u128, count);
            for (j, &(start, width)) in strata.iter().enumerate() {
                // ⌊j·total/count⌋ without overflow: total = q·count + r.
                let at = |j: u128| total / count * j + total % count * j / count;
                let j = j as u128;
                assert_eq!(
                    (start, width),
                    (at(j), at(j + 1) - at(j)),
                    "{total} in {count}, stratum {j}"
                );
            }
            assert_eq!(strata.last().map(|&(s, w)| s + w), Some(total));
        }
    }

    #[test]
    fn an_original_value_is_found_in_its_distinct_column() {
        // Samples with no ties, short ties, and runs of ties longer than
        // a block (so a block's first and last columns coincide).
        let mut rng = SplitMix64::new(45);
        for values in [1, 3, 40, 1000, 100_000] {
            for n in [1, BLOCK - 1, BLOCK, BLOCK + 1, 5 * BLOCK + 3, 3000] {
                let mut v: Vec<f64> = (0..n).map(|_| rng.below(values) as f64).collect();
                v.sort_by(f64::total_cmp);
                let y = Distinct::new(&v);
                let (narrow, wide) = (Blocks::<u32>::of(&y), Blocks::<usize>::of(&y));
                for (original, value) in v.iter().enumerate() {
                    let column = narrow.column_of(&y, original);
                    assert_eq!(y.values[column], *value, "{values} values, n = {n}");
                    assert!(
                        y.cumulative[column] <= original && original < y.cumulative[column + 1]
                    );
                    assert_eq!(wide.column_of(&y, original), column);
                }
            }
        }
    }

    #[test]
    fn the_first_column_not_below_is_the_one_a_loop_finds() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..300 {
            let n = rng.below(40);
            let mut y: Vec<f64> = (0..n).map(|_| rng.below(12) as f64).collect();
            y.sort_by(f64::total_cmp);
            let t = rng.below(14) as f64 - 0.5 * rng.below(2) as f64;
            for end in 0..=n {
                for from in 0..=end {
                    let mut c = from;
                    while c < end && y[c] < t {
                        c += 1;
                    }
                    assert_eq!(first_not_below(&y, from, end, |v| v < t), c, "{y:?} < {t}");
                }
            }
        }
    }

    #[test]
    fn rank_outside_the_range_is_clamped() {
        assert_eq!(Differences::new(&[0.0, 1.0], &[5.0]).kth(0), 4.0);
        assert_eq!(Differences::new(&[0.0, 1.0], &[5.0]).kth(99), 5.0);
    }
}

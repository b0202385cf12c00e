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
//! expected position as in Floyd & Rivest (1975). Once at most n1 + n2
//! candidates remain they are gathered and selected directly.
//!
//! Expected cost O((n1 + n2) log M) time, O(n1 + n2) memory. The result is
//! exact: an actual difference `y[j] - x[i]` as computed in floating point
//! (rounding is monotone, so the matrix order holds for computed values
//! too), equal to what sorting all of them would give, ties included.

/// A small deterministic generator for pivot sampling (SplitMix64,
/// Steele, Lea & Flood 2014). Randomness only affects speed, never the
/// result, and a fixed seed makes runs reproducible.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough integer in 0..bound (bound > 0; the modulo bias is
    /// below 2⁻⁶⁴ relative and only affects pivot quality).
    fn below(&mut self, bound: u128) -> u128 {
        let r = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
        r % bound
    }
}

/// Counts, per row i, of differences y[j] − x[i] on one side of a value.
#[derive(Debug, Clone)]
struct RowCounts {
    per_row: Vec<usize>,
    total: u128,
}

/// The k-th smallest (1-based) of { y[j] − x[i] } for sorted, non-empty
/// `x` and `y`; k is clamped into 1..=n1·n2.
pub(crate) fn kth_difference(x: &[f64], y: &[f64], k: u128) -> f64 {
    kth_difference_gathering_below(x, y, k, x.len() + y.len())
}

/// The k-th smallest and the next larger order statistic, (d(k), d(k+1));
/// for k = M both are d(M). One selection plus one O(n1 + n2) pass.
pub(crate) fn kth_and_next_difference(x: &[f64], y: &[f64], k: u128) -> (f64, f64) {
    let m = x.len() as u128 * y.len() as u128;
    let kth = kth_difference(x, y, k);
    if k >= m {
        return (kth, kth);
    }
    let at_most = count_at_most(x, y, kth);
    if at_most.total > k {
        return (kth, kth);
    }
    // d(k+1) is the smallest difference above d(k): in each row the first
    // element past the ones ≤ d(k).
    let next = x
        .iter()
        .zip(&at_most.per_row)
        .filter(|(_, &c)| c < y.len())
        .map(|(&xi, &c)| y[c] - xi)
        .min_by(f64::total_cmp)
        .unwrap_or(kth);
    (kth, next)
}

/// Per-row counts of differences ≤ t.
fn count_at_most(x: &[f64], y: &[f64], t: f64) -> RowCounts {
    let mut counts = RowCounts {
        per_row: vec![0; x.len()],
        total: 0,
    };
    let lower = vec![0; x.len()];
    let upper = vec![y.len(); x.len()];
    count_rows(x, y, t, &lower, &upper, true, &mut counts);
    counts
}

/// Fills `out` with, per row, the number of differences ≤ t (`inclusive`)
/// or < t, given that it lies within [lower[i], upper[i]].
///
/// As i grows the count cannot shrink (x[i] grows, differences fall), so
/// one pointer sweeps y once: O(n1 + n2).
fn count_rows(
    x: &[f64],
    y: &[f64],
    t: f64,
    lower: &[usize],
    upper: &[usize],
    inclusive: bool,
    out: &mut RowCounts,
) {
    let mut j = 0;
    let mut total = 0u128;
    for (i, &xi) in x.iter().enumerate() {
        j = j.max(lower[i]);
        let end = upper[i];
        if inclusive {
            while j < end && y[j] - xi <= t {
                j += 1;
            }
        } else {
            while j < end && y[j] - xi < t {
                j += 1;
            }
        }
        out.per_row[i] = j;
        total += j as u128;
    }
    out.total = total;
}

/// Selection with an explicit gathering threshold (0 in unit tests, so the
/// pivoting loop alone must find the answer).
fn kth_difference_gathering_below(x: &[f64], y: &[f64], k: u128, gather_at: usize) -> f64 {
    let (n1, n2) = (x.len(), y.len());
    let m = n1 as u128 * n2 as u128;
    let k = k.clamp(1, m);
    let mut rng = SplitMix64(0x5EED_B357_6E55_0001);
    // Invariant: the answer is among the "active" differences d with
    // lo < d < hi; row i's active ones are y[low.per_row[i]..high.per_row[i]] − x[i],
    // and low.total < k ≤ high.total.
    let mut low = RowCounts {
        per_row: vec![0; n1],
        total: 0,
    };
    let mut high = RowCounts {
        per_row: vec![n2; n1],
        total: m,
    };
    let mut scratch = low.clone();
    let sample_size = ((n1 + n2) / 4).clamp(64, 1 << 16);
    let mut positions: Vec<u128> = Vec::with_capacity(sample_size);
    let mut pivots: Vec<f64> = Vec::with_capacity(sample_size);
    loop {
        let active = high.total - low.total;
        if active <= gather_at as u128 {
            let mut values = Vec::with_capacity(gather_at);
            for (i, &xi) in x.iter().enumerate() {
                let row = &y[low.per_row[i]..high.per_row[i]];
                values.extend(row.iter().map(|&yj| yj - xi));
            }
            let index = (k - low.total - 1) as usize;
            let (_, &mut v, _) = values.select_nth_unstable_by(index, f64::total_cmp);
            return v;
        }

        // Draw candidate pivots uniformly from the active differences.
        let draws = (sample_size as u128).min(active) as usize;
        positions.clear();
        positions.extend((0..draws).map(|_| rng.below(active)));
        positions.sort_unstable();
        pivots.clear();
        let mut row_start = 0u128;
        let mut p = positions.iter().peekable();
        for (i, &xi) in x.iter().enumerate() {
            let width = (high.per_row[i] - low.per_row[i]) as u128;
            while let Some(&&pos) = p.peek() {
                if pos >= row_start + width {
                    break;
                }
                pivots.push(y[low.per_row[i] + (pos - row_start) as usize] - xi);
                p.next();
            }
            row_start += width;
        }
        pivots.sort_unstable_by(f64::total_cmp);

        // Two pivots around where the answer should be among the draws.
        let s = pivots.len() as f64;
        let expected = (k - low.total) as f64 / active as f64 * s;
        let spread = 2.0 * s.sqrt() + 1.0;
        let last = pivots.len() - 1;
        let below = ((expected - spread).floor().max(0.0) as usize).min(last);
        let above = ((expected + spread).ceil().max(0.0) as usize).min(last);
        let (p1, p2) = (pivots[below], pivots[above]);

        let candidates = [p1, p2];
        let candidates = if p1 == p2 {
            &candidates[..1]
        } else {
            &candidates[..]
        };
        for &pivot in candidates {
            // Differences < pivot.
            count_rows(
                x,
                y,
                pivot,
                &low.per_row,
                &high.per_row,
                false,
                &mut scratch,
            );
            if scratch.total >= k {
                std::mem::swap(&mut high, &mut scratch);
                break;
            }
            // Differences ≤ pivot.
            count_rows(x, y, pivot, &low.per_row, &high.per_row, true, &mut scratch);
            if scratch.total >= k {
                return pivot;
            }
            std::mem::swap(&mut low, &mut scratch);
        }
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

    fn check_all_ranks(x: &[f64], y: &[f64]) {
        let d = brute(x, y);
        for k in 1..=d.len() {
            for gather in [0, x.len() + y.len()] {
                let got = kth_difference_gathering_below(x, y, k as u128, gather);
                assert_eq!(
                    got,
                    d[k - 1],
                    "k = {k}, gather = {gather}, x = {x:?}, y = {y:?}"
                );
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
            assert_eq!(
                kth_and_next_difference(&xs, &ys, k as u128),
                expected,
                "k = {k}"
            );
        }
    }

    #[test]
    fn rank_outside_the_range_is_clamped() {
        assert_eq!(kth_difference(&[0.0, 1.0], &[5.0], 0), 4.0);
        assert_eq!(kth_difference(&[0.0, 1.0], &[5.0], 99), 5.0);
    }
}

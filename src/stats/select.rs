//! Order statistics of all pairwise differences, without forming them.
//!
//! The Hodges–Lehmann shift and the C tool's interval for it are order
//! statistics of the M = n1·n2 differences yⱼ − xᵢ. With a million runs
//! per command M is 10¹², so the differences are never materialised. With
//! x and y sorted, the differences form a matrix whose rows (fixed i)
//! increase in j and whose columns decrease in i, so the number of
//! differences ≤ t is counted with two pointers in O(n1 + n2) (Johnson &
//! Mizoguchi 1978, "Selecting the Kth element in X + Y and X1 + X2 + … +
//! Xm", SIAM J. Comput. 7, 147–153). The k-th smallest is the smallest t
//! whose count reaches k; t is found by bisection over the doubles in
//! their total order (at most 64 counts), so the result is an actual
//! difference `y[j] - x[i]` as computed in floating point (rounding is
//! monotone, so the matrix order holds for computed values too), equal to
//! what sorting all of them would give, ties included.
//!
//! Measurements are integers, so a large sample holds few distinct values;
//! each sample is reduced to its distinct values with multiplicities, and
//! distinct values, not runs, set the cost of a count.

/// A sorted sample reduced to its distinct values.
#[derive(Debug, Clone)]
struct Distinct {
    /// Distinct values, ascending.
    values: Vec<f64>,
    /// Copies of each.
    weights: Vec<u64>,
}

impl Distinct {
    fn new(sorted: &[f64]) -> Self {
        let mut values: Vec<f64> = Vec::new();
        let mut weights: Vec<u64> = Vec::new();
        for &v in sorted {
            match (values.last(), weights.last_mut()) {
                (Some(&last), Some(w)) if last == v => *w += 1,
                _ => {
                    values.push(v);
                    weights.push(1);
                }
            }
        }
        Distinct { values, weights }
    }
}

/// The n1·n2 differences `y[j] - x[i]` of two sorted samples, ready for
/// repeated selection.
#[derive(Debug, Clone)]
pub(crate) struct Differences {
    x: Distinct,
    y: Distinct,
    count: u128,
}

/// A double's place in the total order of doubles, as an integer (the
/// usual bit trick: negative numbers reversed below the positive ones).
fn order_key(v: f64) -> i64 {
    let bits = v.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

fn from_order_key(k: i64) -> f64 {
    f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
}

impl Differences {
    /// From two samples sorted ascending (both non-empty).
    pub(crate) fn new(x: &[f64], y: &[f64]) -> Self {
        let count = x.len() as u128 * y.len() as u128;
        Differences {
            x: Distinct::new(x),
            y: Distinct::new(y),
            count,
        }
    }

    /// Number of differences ≤ t.
    fn count_at_most(&self, t: f64) -> u128 {
        let (x, y) = (&self.x, &self.y);
        let mut j = 0;
        // As x rises, y − x falls: the y values counted only grow.
        let mut below: u128 = 0;
        let mut total: u128 = 0;
        for (&xi, &wx) in x.values.iter().zip(&x.weights) {
            while j < y.values.len() && y.values[j] - xi <= t {
                below += y.weights[j] as u128;
                j += 1;
            }
            total += below * wx as u128;
        }
        total
    }

    /// The k-th smallest difference (1-based; clamped into 1..=n1·n2).
    pub(crate) fn kth(&self, k: u128) -> f64 {
        let k = k.clamp(1, self.count);
        let (x, y) = (&self.x.values, &self.y.values);
        let lo = y[0] - x[x.len() - 1];
        let hi = y[y.len() - 1] - x[0];
        // Invariant: count(≤ from_order_key(a)) < k ≤ count(≤ from_order_key(b)).
        let (mut a, mut b) = (order_key(lo) - 1, order_key(hi));
        if self.count_at_most(lo) >= k {
            return lo;
        }
        a += 1;
        while (b as i128) - (a as i128) > 1 {
            let mid = ((a as i128 + b as i128) / 2) as i64;
            if self.count_at_most(from_order_key(mid)) >= k {
                b = mid;
            } else {
                a = mid;
            }
        }
        from_order_key(b)
    }

    /// The two middle differences (the same one twice when n1·n2 is odd).
    pub(crate) fn middle(&self) -> (f64, f64) {
        let m = self.count;
        if m % 2 == 1 {
            let v = self.kth(m / 2 + 1);
            (v, v)
        } else {
            (self.kth(m / 2), self.kth(m / 2 + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::rng::SplitMix64;

    fn brute(x: &[f64], y: &[f64]) -> Vec<f64> {
        let mut d: Vec<f64> = y
            .iter()
            .flat_map(|b| x.iter().map(move |a| b - a))
            .collect();
        d.sort_by(f64::total_cmp);
        d
    }

    #[test]
    fn order_keys_follow_the_total_order() {
        let v = [-1e300, -2.5, -0.0, 0.0, 1e-310, 3.0, 1e300];
        for w in v.windows(2) {
            assert!(order_key(w[0]) < order_key(w[1]), "{w:?}");
            assert_eq!(from_order_key(order_key(w[0])), w[0]);
        }
    }

    #[test]
    fn every_rank_equals_sorting_all_differences() {
        let mut rng = SplitMix64::new(5);
        for case in 0..40 {
            let n1 = 1 + (rng.next_u64() % 9) as usize;
            let n2 = 1 + (rng.next_u64() % 9) as usize;
            // Some cases on a lattice (ties), some fractional.
            let draw = |rng: &mut SplitMix64| {
                let u = (rng.next_u64() % 1000) as f64;
                if case % 2 == 0 {
                    (u / 100.0).floor()
                } else {
                    u / 7.0 - 50.0
                }
            };
            let mut x: Vec<f64> = (0..n1).map(|_| draw(&mut rng)).collect();
            let mut y: Vec<f64> = (0..n2).map(|_| draw(&mut rng)).collect();
            x.sort_by(f64::total_cmp);
            y.sort_by(f64::total_cmp);
            let d = Differences::new(&x, &y);
            let all = brute(&x, &y);
            for (k, want) in all.iter().enumerate() {
                assert_eq!(d.kth(k as u128 + 1), *want, "{x:?} {y:?} k={}", k + 1);
            }
        }
    }

    #[test]
    fn middle_is_the_two_central_differences() {
        let d = Differences::new(&[1.0, 2.0], &[0.0, 10.0]);
        assert_eq!(d.middle(), (-1.0, 8.0));
        let d = Differences::new(&[1.0, 2.0, 9.0], &[5.0]);
        assert_eq!(d.middle(), (3.0, 3.0));
    }
}

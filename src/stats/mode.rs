//! The mode of continuous data: the half-sample mode.
//!
//! Timing data are continuous in principle and take many distinct values, so
//! "the most frequent value" is meaningless; the half-sample mode estimates
//! the peak of the density without choosing a bin width (Bickel &
//! Frühwirth 2006, "On a fast, robust estimator of the mode", Computational
//! Statistics & Data Analysis 50, 3500–3530). It repeatedly keeps the
//! densest half of the sorted values, so it costs O(n) after sorting
//! (n + n/2 + n/4 + … windows). Unlike C BestGuess, every window is
//! examined, including the last one when the subsample size is odd.

use super::sample::{run_end, Sample};

/// Half-sample mode (Bickel & Frühwirth 2006) of `sample`.
///
/// While more than 3 values remain, keep the ⌈m/2⌉ consecutive sorted
/// values whose range is smallest (on a tie, the lowest such window). Then:
/// of 3 values, the mean of the closer pair, or the middle value when both
/// gaps are equal; of 2, their mean; of 1, the value.
///
/// Only windows that start a run of equal values are examined: a window
/// starting at a repeat of its predecessor's first value is never
/// narrower than the predecessor's (same start, an end no lower), so it
/// is never the lowest narrowest one. Measurements repeat values heavily,
/// so this visits a few thousand windows per halving instead of n.
pub fn half_sample_mode(sample: &Sample) -> f64 {
    let sorted = sample.sorted();
    let mut x = match sample.run_table() {
        Some(table) => {
            let (start, len) = halve_by_runs(table, sorted.len());
            &sorted[start..start + len]
        }
        None => sorted,
    };
    while x.len() > 3 {
        let h = x.len().div_ceil(2);
        let mut best = 0;
        let mut best_width = x[h - 1] - x[0];
        let mut j = run_end(x, 0);
        while j <= x.len() - h {
            let width = x[j + h - 1] - x[j];
            if width < best_width {
                best = j;
                best_width = width;
            }
            j = run_end(x, j);
        }
        x = &x[best..best + h];
    }
    match *x {
        [a, b, c] => {
            let (left, right) = (b - a, c - b);
            if left < right {
                (a + b) / 2.0
            } else if right < left {
                (b + c) / 2.0
            } else {
                b
            }
        }
        [a, b] => (a + b) / 2.0,
        [a] => a,
        // A Sample is never empty and the loop stops at 3 values.
        _ => x[0],
    }
}

/// The halvings of [`half_sample_mode`] on the values' run table (each
/// distinct value with the end of its run, see [`Sample`]) instead of
/// the values: the same windows examined, the same widths compared, each
/// window's first and last value read from the table (two pointers), so
/// the values themselves are not touched. Returns the final window (start,
/// length ≤ 3) of the `n` values.
fn halve_by_runs(table: &[(f64, usize)], n: usize) -> (usize, usize) {
    // The run holding position p.
    let run_of = |p: usize| table.partition_point(|&(_, end)| end <= p);
    let (mut start, mut len) = (0, n);
    while len > 3 {
        let h = len.div_ceil(2);
        let last = start + len - h;
        let (mut first_run, mut last_run) = (run_of(start), run_of(start + h - 1));
        let mut best = start;
        let mut best_width = table[last_run].0 - table[first_run].0;
        // The other windows that start a run, up to the last window.
        loop {
            let j = table[first_run].1;
            if j > last {
                break;
            }
            first_run += 1;
            while table[last_run].1 < j + h {
                last_run += 1;
            }
            let width = table[last_run].0 - table[first_run].0;
            if width < best_width {
                best = j;
                best_width = width;
            }
        }
        (start, len) = (best, h);
    }
    (start, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hsm(v: &[f64]) -> f64 {
        half_sample_mode(&Sample::from_slice(v).unwrap())
    }

    #[test]
    fn one_two_and_three_values() {
        assert_eq!(hsm(&[5.0]), 5.0);
        assert_eq!(hsm(&[4.0, 1.0]), 2.5);
        assert_eq!(hsm(&[1.0, 2.0, 10.0]), 1.5);
        assert_eq!(hsm(&[1.0, 9.0, 10.0]), 9.5);
        // Equal gaps: the middle value, not a mean.
        assert_eq!(hsm(&[1.0, 4.0, 7.0]), 4.0);
    }

    #[test]
    fn keeps_the_lowest_window_on_a_tie() {
        // Windows of 2 with ranges 1, 4, 1: the first wins.
        assert_eq!(hsm(&[0.0, 1.0, 5.0, 6.0]), 0.5);
    }

    #[test]
    fn examines_the_last_window_when_the_size_is_odd() {
        // m = 5, h = 3: windows [0,10,20], [10,20,21], [20,21,22]; the last
        // (range 2) is densest. C BestGuess never looked at it.
        assert_eq!(hsm(&[0.0, 10.0, 20.0, 21.0, 22.0]), 21.0);
    }

    /// The definition: every window of every halving.
    fn hsm_every_window(sorted: &[f64]) -> f64 {
        let mut x = sorted;
        while x.len() > 3 {
            let h = x.len().div_ceil(2);
            let mut best = 0;
            for j in 1..=x.len() - h {
                if x[j + h - 1] - x[j] < x[best + h - 1] - x[best] {
                    best = j;
                }
            }
            x = &x[best..best + h];
        }
        match *x {
            [a, b, c] if b - a < c - b => (a + b) / 2.0,
            [a, b, c] if c - b < b - a => (b + c) / 2.0,
            [_, b, _] => b,
            [a, b] => (a + b) / 2.0,
            _ => x[0],
        }
    }

    #[test]
    fn run_starts_choose_the_window_every_window_would() {
        let mut rng = super::super::rng::SplitMix64::new(29);
        let mut tables = 0;
        for case in 0..400 {
            // Small samples (galloping over the values) and large integer
            // ones (the run table).
            let n = if case % 2 == 0 {
                1 + rng.below(3000)
            } else {
                4096 + rng.below(20_000)
            };
            let distinct = 1 + rng.below(60);
            let scale = [1.0, 0.5, 1e-3, 7.0][case % 4];
            let mut v: Vec<f64> = (0..n)
                .map(|_| {
                    // Skewed, with plateaus and gaps.
                    let k = rng.below(distinct) * rng.below(distinct) / distinct;
                    k as f64 * scale
                })
                .collect();
            v.sort_unstable_by(f64::total_cmp);
            let s = Sample::from_slice(&v).unwrap();
            tables += usize::from(s.run_table().is_some());
            assert_eq!(
                half_sample_mode(&s).to_bits(),
                hsm_every_window(&v).to_bits(),
                "{v:?}"
            );
        }
        // Integer values (scale 7) of large samples have a run table.
        assert!(tables >= 80, "{tables}");
    }

    #[test]
    fn finds_the_peak_of_a_skewed_sample() {
        let v = [
            100.0, 101.0, 101.0, 102.0, 102.0, 102.0, 103.0, 150.0, 300.0, 900.0,
        ];
        // 10 → [101,101,102,102,102] (range 1) → [102,102,102] → 102.
        assert_eq!(hsm(&v), 102.0);
    }
}

//! Value axes: the map from data to pixels, linear or logarithmic, and
//! their ticks.
//!
//! A value axis is logarithmic when the data it shows spans more than a
//! decade (largest / smallest positive value > 10); otherwise linear with
//! 1-2-5 ticks. Zeros (and anything below the log axis's floor) cannot be
//! placed on a log axis: they are drawn at the floor, at the axis's edge,
//! and [`Axis::clamped`] says whether that happened so the figure can say
//! so in a note. Nothing here can produce a non-finite pixel position.

/// The lowest and highest decades (powers of ten) a log axis reaches: below
/// 10⁻³⁰⁰ powers of ten lose precision and soon are 0 (a value of 5e-324
/// would make the axis's floor 0 and its ticks two billion decades), and
/// 10³⁰⁹ is infinite. Values beyond are drawn at the axis's ends.
const LOWEST_DECADE: i32 = -300;
const HIGHEST_DECADE: i32 = 308;

/// The most decades a log axis labels; more are labelled every few.
const MOST_DECADE_TICKS: i32 = 10;

/// A map from values to pixel positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Domain, in data units (for a log axis, both > 0).
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    /// Pixel positions of `lo` and `hi` (may be decreasing, for y).
    pub px_lo: f64,
    pub px_hi: f64,
    /// Some value was below `lo` and is drawn at `lo` (log axis only).
    clamped: bool,
}

/// The extent of some data, gathered in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extent {
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// The smallest value > 0.
    pub min_positive: Option<f64>,
}

impl Extent {
    /// Adds one value (non-finite values are ignored).
    pub fn add(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        self.min = Some(self.min.map_or(v, |m| m.min(v)));
        self.max = Some(self.max.map_or(v, |m| m.max(v)));
        if v > 0.0 {
            self.min_positive = Some(self.min_positive.map_or(v, |m| m.min(v)));
        }
    }

    /// Adds many values.
    pub fn extend(&mut self, values: impl IntoIterator<Item = f64>) {
        for v in values {
            self.add(v);
        }
    }

    /// Whether the data spans more than a decade (and is positive enough to
    /// be put on a log axis).
    pub fn spans_decade(&self) -> bool {
        match (self.min_positive, self.max) {
            (Some(lo), Some(hi)) => hi / lo > 10.0,
            _ => false,
        }
    }
}

impl Axis {
    /// An axis for `extent` between two pixel positions: logarithmic when
    /// `allow_log` and the data spans more than a decade, else linear with
    /// nice bounds. An empty or single-valued extent still gives a usable
    /// axis.
    pub fn fit(extent: &Extent, allow_log: bool, px_lo: f64, px_hi: f64) -> Axis {
        if allow_log && extent.spans_decade() {
            let (lo, hi) = (
                extent.min_positive.unwrap_or(1.0),
                extent.max.unwrap_or(10.0),
            );
            // Decades as integers (`as` saturates, so a log of 0 is the
            // floor), kept where powers of ten are normal and finite.
            let lo_e = (lo.log10().floor() as i32).clamp(LOWEST_DECADE, HIGHEST_DECADE - 1);
            let hi_e = (hi.log10().ceil() as i32).clamp(lo_e + 1, HIGHEST_DECADE);
            let (lo, hi) = (10f64.powf(f64::from(lo_e)), 10f64.powf(f64::from(hi_e)));
            let clamped = extent.min.is_some_and(|m| m < lo);
            return Axis {
                lo,
                hi,
                log: true,
                px_lo,
                px_hi,
                clamped,
            };
        }
        let (min, max) = (extent.min.unwrap_or(0.0), extent.max.unwrap_or(0.0));
        let (min, max) = if max > min {
            let pad = (max - min) * 0.04;
            (min - pad, max + pad)
        } else {
            let pad = (min.abs() * 0.05).max(1.0);
            (min - pad, max + pad)
        };
        // Times and counts are never negative: do not invent a negative
        // region for non-negative data.
        let min = if extent.min.is_some_and(|m| m >= 0.0) {
            min.max(0.0)
        } else {
            min
        };
        Axis::linear(min, max, px_lo, px_hi)
    }

    /// A linear axis over [min, max] widened to nice tick bounds.
    pub fn linear(min: f64, max: f64, px_lo: f64, px_hi: f64) -> Axis {
        let (min, max) = if min.is_finite() && max.is_finite() && max > min {
            (min, max)
        } else {
            (0.0, 1.0)
        };
        let step = nice_step((max - min) / 5.0);
        Axis {
            lo: (min / step).floor() * step,
            hi: (max / step).ceil() * step,
            log: false,
            px_lo,
            px_hi,
            clamped: false,
        }
    }

    /// A linear axis over exactly [lo, hi] (for probabilities).
    pub fn exact(lo: f64, hi: f64, px_lo: f64, px_hi: f64) -> Axis {
        Axis {
            lo,
            hi,
            log: false,
            px_lo,
            px_hi,
            clamped: false,
        }
    }

    /// Whether some value is drawn at the floor of a log axis.
    pub fn clamped(&self) -> bool {
        self.clamped
    }

    /// The pixel position of `v` (clamped to the axis's range).
    pub fn px(&self, v: f64) -> f64 {
        let t = if self.log {
            let v = v.max(self.lo);
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.px_lo + t * (self.px_hi - self.px_lo)
    }

    /// The value at pixel position `px` (inverse of [`Axis::px`]).
    pub fn value(&self, px: f64) -> f64 {
        let span = self.px_hi - self.px_lo;
        let t = if span == 0.0 {
            0.0
        } else {
            (px - self.px_lo) / span
        };
        if self.log {
            10f64.powf(self.lo.log10() + t * (self.hi.log10() - self.lo.log10()))
        } else {
            self.lo + t * (self.hi - self.lo)
        }
    }

    /// Tick values: 1-2-5 steps on a linear axis; decades (and 2, 5 within
    /// them when there are few decades) on a log axis.
    pub fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            let few = b - a <= 2;
            let every = ((b - a + MOST_DECADE_TICKS - 1) / MOST_DECADE_TICKS).max(1);
            let mut ticks = Vec::new();
            // Counted down from the top decade, so that it is labelled.
            let decades: Vec<i32> = (a..=b).rev().step_by(every as usize).collect();
            for &e in decades.iter().rev() {
                let d = 10f64.powi(e);
                ticks.push(d);
                if few && e < b {
                    ticks.push(2.0 * d);
                    ticks.push(5.0 * d);
                }
            }
            ticks
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let first = (self.lo / step).ceil() as i64;
            let last = (self.hi / step).floor() as i64;
            (first..=last.min(first + 50))
                .map(|k| k as f64 * step)
                .collect()
        }
    }
}

/// The 1-2-5 step nearest to `raw` (1 for nonsense).
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let f = raw / magnitude;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.0 {
        2.0
    } else if f < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// A tick label: the value with as few decimals as it needs (at most 6),
/// never `-0`; in scientific notation where 6 decimals show no digit.
pub fn tick_label(v: f64) -> String {
    let zero = |text: &str| {
        text.trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
    };
    if !v.is_finite() {
        return "0".to_owned();
    }
    // No label past 12 characters, as no number in the reports: a tick of
    // 9.2e18 μs would be 20 digits.
    if v.abs() >= 1e12 {
        return format!("{v:.3e}");
    }
    for decimals in 0..=6 {
        let text = format!("{v:.decimals$}");
        let back: f64 = text.parse().unwrap_or(0.0);
        if (back - v).abs() <= v.abs() * 1e-9 {
            return if zero(&text) { "0".to_owned() } else { text };
        }
    }
    let text = format!("{v:.6}");
    if zero(&text) {
        format!("{v:.2e}")
    } else {
        text
    }
}

/// A percentage such as a confidence level, to one decimal at most, as
/// `-E` shows it (`95`, `98.3`).
pub fn tick_label_pct(p: f64) -> String {
    tick_label((p * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(values: &[f64]) -> Extent {
        let mut e = Extent::default();
        e.extend(values.iter().copied());
        e
    }

    #[test]
    fn linear_axis_has_nice_bounds_and_ticks() {
        let a = Axis::fit(&extent(&[1030.0, 1970.0]), true, 0.0, 100.0);
        assert!(!a.log);
        assert_eq!((a.lo, a.hi), (800.0, 2200.0));
        assert_eq!(
            a.ticks(),
            [800.0, 1000.0, 1200.0, 1400.0, 1600.0, 1800.0, 2000.0, 2200.0]
        );
        assert_eq!(a.px(800.0), 0.0);
        assert_eq!(a.px(2200.0), 100.0);
    }

    #[test]
    fn more_than_a_decade_is_logarithmic_and_zeros_sit_at_the_floor() {
        let a = Axis::fit(&extent(&[0.0, 30.0, 5000.0]), true, 0.0, 300.0);
        assert!(a.log);
        assert_eq!((a.lo, a.hi), (10.0, 10000.0));
        assert!(a.clamped());
        assert_eq!(a.px(0.0), 0.0);
        assert_eq!(a.px(100.0), 100.0);
        assert_eq!(a.ticks(), [10.0, 100.0, 1000.0, 10000.0]);
        let exactly_a_decade = Axis::fit(&extent(&[10.0, 100.0]), true, 0.0, 1.0);
        assert!(!exactly_a_decade.log);
    }

    #[test]
    fn degenerate_data_still_gives_a_finite_axis() {
        for values in [&[][..], &[0.0, 0.0], &[7.0], &[f64::NAN]] {
            let a = Axis::fit(&extent(values), true, 0.0, 100.0);
            assert!(a.hi > a.lo, "{values:?}: {a:?}");
            assert!(a.px(0.0).is_finite() && a.px(1e300).is_finite());
            assert!(!a.ticks().is_empty());
        }
        let zeros = Axis::fit(&extent(&[0.0, 0.0]), true, 0.0, 100.0);
        assert_eq!(zeros.lo, 0.0, "no negative region for non-negative data");
    }

    #[test]
    fn extreme_magnitudes_give_a_bounded_log_axis() {
        // 5e-324 (the least subnormal) must not make the floor 0 and ask
        // for ticks at two billion decades.
        for values in [
            &[5e-324, 1.0, 6.0][..],
            &[1e-323, 2.0],
            &[1e-310, 1e300],
            &[1e-5, f64::MAX],
        ] {
            let a = Axis::fit(&extent(values), true, 0.0, 100.0);
            assert!(a.log, "{values:?}");
            assert!(a.lo > 0.0 && a.lo.is_normal() && a.hi.is_finite(), "{a:?}");
            let ticks = a.ticks();
            assert!((2..=12).contains(&ticks.len()), "{values:?}: {ticks:?}");
            assert!(ticks.iter().all(|t| t.is_finite() && *t > 0.0));
            for v in values {
                assert!((0.0..=100.0).contains(&a.px(*v)), "{v}");
            }
        }
        let floor = Axis::fit(&extent(&[5e-324, 6.0]), true, 0.0, 1.0);
        assert_eq!(floor.lo, 1e-300);
        assert!(
            floor.clamped(),
            "the subnormal is drawn at the floor, and said"
        );
        let wide = Axis::fit(&extent(&[1e-300, 1e300]), true, 0.0, 1.0);
        assert_eq!(
            wide.ticks().len(),
            11,
            "every 60th decade: {:?}",
            wide.ticks()
        );
    }

    #[test]
    fn tick_labels_use_the_decimals_they_need() {
        assert_eq!(tick_label(1000.0), "1000");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
        assert_eq!(tick_label(-1.5e-7), "-1.50e-7");
        assert_eq!(tick_label(1.0 / 3.0), "0.333333");
        // Past 12 characters, scientific.
        assert_eq!(tick_label(9.2e18), "9.200e18");
        assert_eq!(tick_label(999_999_999_999.0), "999999999999");
        assert_eq!(tick_label_pct(100.0 * (1.0 - 0.05 / 3.0)), "98.3");
        assert_eq!(tick_label_pct(95.0), "95");
    }
}

//! Display units and number formatting for every report.
//!
//! Statistics are kept in recording units (µs, bytes, counts) until they are
//! printed; here one [`Scale`] is chosen per block of numbers (a table, a
//! row, an axis) so that the largest value reads naturally: μs / ms / s for
//! times, B / kB / MB / GB (SI, 1000-based: the labels say what they are) for memory, ct / K / M / G for
//! counts. The unit is chosen from the value *as it will be printed*, so
//! 999.6 μs becomes "1.00 ms" rather than "1000 μs". A number never overflows
//! its column: a block whose largest value does not fit gets fewer decimals,
//! and a single value that still does not fit is written in scientific
//! notation (only absurd values, such as 10¹⁰ s, get there). No function
//! here ever prints NaN or infinity; a non-finite input (which the
//! statistics never produce) prints as `--`.

use crate::data::Unit;

/// One rung of a unit ladder.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rung {
    symbol: &'static str,
    divisor: f64,
    decimals: usize,
}

const fn rung(symbol: &'static str, divisor: f64, decimals: usize) -> Rung {
    Rung {
        symbol,
        divisor,
        decimals,
    }
}

const TIME: [Rung; 3] = [rung("μs", 1.0, 0), rung("ms", 1e3, 2), rung("s", 1e6, 2)];
const TIME_NS: [Rung; 4] = [
    rung("ns", 1.0, 0),
    rung("μs", 1e3, 2),
    rung("ms", 1e6, 2),
    rung("s", 1e9, 2),
];
/// Memory in SI units: "MB" is 10⁶ bytes, never MiB (1024²). (Binary labels,
/// `MiB`, would widen every memory column by one.)
const SPACE: [Rung; 4] = [
    rung("B", 1.0, 0),
    rung("kB", 1e3, 2),
    rung("MB", 1e6, 2),
    rung("GB", 1e9, 2),
];
const COUNT: [Rung; 4] = [
    rung("ct", 1.0, 0),
    rung("K", 1e3, 2),
    rung("M", 1e6, 2),
    rung("G", 1e9, 2),
];
/// A figure of a unit the tool does not know: a plain number, with 2
/// decimals (it may have fractions), then K, M, G.
const NUMBER: [Rung; 4] = [
    rung("", 1.0, 2),
    rung("K", 1e3, 2),
    rung("M", 1e6, 2),
    rung("G", 1e9, 2),
];

/// Plain numbers below 0.1, by SI prefix ([`Scale::small_number`]).
const SMALL: [Rung; 8] = [
    rung("m", 1e-3, 2),
    rung("μ", 1e-6, 2),
    rung("n", 1e-9, 2),
    rung("p", 1e-12, 2),
    rung("f", 1e-15, 2),
    rung("a", 1e-18, 2),
    rung("z", 1e-21, 2),
    rung("y", 1e-24, 2),
];

fn ladder(unit: Unit) -> (&'static [Rung], f64) {
    match unit {
        Unit::Microseconds => (&TIME, 1000.0),
        Unit::Nanoseconds => (&TIME_NS, 1000.0),
        Unit::Bytes => (&SPACE, 1000.0),
        Unit::Count => (&COUNT, 1000.0),
        Unit::Number => (&NUMBER, 1000.0),
    }
}

/// How a block of values of one unit is printed: divide by `divisor`, show
/// `decimals` decimals, label with `symbol`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    symbol: &'static str,
    divisor: f64,
    decimals: usize,
    /// Every number in scientific notation: plain numbers too small for
    /// the smallest prefix to show (1e-320 would read `0.00 y`).
    scientific: bool,
}

impl Scale {
    /// The smallest unit in which `max_abs` (in recording units) prints
    /// below the next unit's threshold (1000); the
    /// largest unit if none.
    pub fn choose(unit: Unit, max_abs: f64) -> Scale {
        let (rungs, base) = ladder(unit);
        let max_abs = if max_abs.is_finite() {
            max_abs.abs()
        } else {
            0.0
        };
        if unit == Unit::Number && max_abs > 0.0 && max_abs < 0.1 {
            return Scale::small_number(max_abs);
        }
        let fits = rungs
            .iter()
            .find(|r| round_to(max_abs / r.divisor, r.decimals) < base);
        // Plain numbers and counts beyond their largest prefix (G): in
        // scientific notation without one (1e99 would read `1.00e90 G`).
        if fits.is_none() && matches!(unit, Unit::Number | Unit::Count) {
            return Scale {
                symbol: rungs[0].symbol,
                divisor: rungs[0].divisor,
                decimals: 2,
                scientific: true,
            };
        }
        let chosen = fits.unwrap_or(&rungs[rungs.len() - 1]);
        Scale {
            symbol: chosen.symbol,
            divisor: chosen.divisor,
            decimals: chosen.decimals,
            scientific: false,
        }
    }

    /// A plain number below 0.1 (two decimals would show at most one
    /// digit, 0.001 none): the first of the SI prefixes below 1 (m, μ, n …,
    /// as K, M, G above it) in which it is at least 1, so that it shows
    /// three digits (0.0012 → 1.20 m); the last prefix (y, 10⁻²⁴) for
    /// anything smaller.
    fn small_number(max_abs: f64) -> Scale {
        let chosen = SMALL
            .iter()
            .find(|r| max_abs / r.divisor >= 1.0)
            .unwrap_or(&SMALL[SMALL.len() - 1]);
        // Below what the last prefix shows with its decimals: the numbers
        // themselves, in scientific notation.
        if round_to(max_abs / chosen.divisor, chosen.decimals) == 0.0 {
            return Scale {
                symbol: "",
                divisor: 1.0,
                decimals: chosen.decimals,
                scientific: true,
            };
        }
        Scale {
            symbol: chosen.symbol,
            divisor: chosen.divisor,
            decimals: chosen.decimals,
            scientific: false,
        }
    }

    /// [`Scale::choose`] for a time in µs.
    pub fn time(max_abs_us: f64) -> Scale {
        Scale::choose(Unit::Microseconds, max_abs_us)
    }

    /// This scale with as many of its decimals as let every value of
    /// `values` fit in `width` columns (at least 0 decimals).
    pub fn fitted(mut self, values: &[f64], width: usize) -> Scale {
        while self.decimals > 0 && values.iter().any(|&v| self.number(v).len() > width) {
            self.decimals -= 1;
        }
        self
    }

    /// This scale with more decimals if needed for `spread` (a difference
    /// such as an IQR, in recording units) to show `digits` significant
    /// digits: seconds data 2.3512…2.3587 s would otherwise print as
    /// 2.35…2.36. Unchanged when that would take more decimals than the
    /// integer recording units have (3 per step of 1000) or more than 4:
    /// then the spread is too small to show in this unit anyway.
    pub fn resolving(mut self, spread: f64, digits: usize) -> Scale {
        if !(spread.is_finite() && spread > 0.0) {
            return self;
        }
        let x = spread / self.divisor;
        let needed = (digits as f64 - 1.0 - x.log10().floor()).max(0.0) as usize;
        let limit = (self.divisor.log10().round() as usize).min(4);
        if needed <= limit {
            self.decimals = self.decimals.max(needed);
        }
        self
    }

    /// This scale with exactly `decimals` decimals.
    pub fn with_decimals(mut self, decimals: usize) -> Scale {
        self.decimals = decimals;
        self
    }

    /// The unit symbol, e.g. `ms`.
    pub fn symbol(&self) -> &'static str {
        self.symbol
    }

    /// The divisor from recording units to this unit.
    pub fn divisor(&self) -> f64 {
        self.divisor
    }

    /// Number of decimals shown.
    pub fn decimals(&self) -> usize {
        self.decimals
    }

    /// The symbol padded to two columns (`s ` lines up with `ms`).
    pub fn unit(&self) -> String {
        format!("{:<2}", self.symbol)
    }

    /// `v` (recording units) in this unit, without padding or symbol; in
    /// scientific notation past [`LONGEST_NUMBER`] characters (a plain
    /// number of 10²¹ G would run to 25 digits and across lines).
    pub fn number(&self, v: f64) -> String {
        if self.scientific && v != 0.0 {
            return scientific(v / self.divisor, LONGEST_NUMBER);
        }
        let text = not_zero(v / self.divisor, self.decimals, usize::MAX);
        if text.len() > LONGEST_NUMBER {
            scientific(v / self.divisor, LONGEST_NUMBER)
        } else {
            text
        }
    }

    /// `v` right-aligned in exactly `width` columns if at all possible:
    /// with fewer decimals, then in scientific notation, when too wide.
    pub fn number_in(&self, v: f64, width: usize) -> String {
        let x = v / self.divisor;
        if self.scientific && v != 0.0 {
            let text = scientific(x, width);
            return format!("{text:>width$}");
        }
        let mut text = not_zero(x, self.decimals, width);
        let mut decimals = self.decimals;
        while text.len() > width && decimals > 0 {
            decimals -= 1;
            text = fixed(x, decimals);
        }
        if text.len() > width {
            text = scientific(x, width);
        }
        format!("{text:>width$}")
    }

    /// `v` in `width` columns followed by a space and the padded symbol,
    /// e.g. `   1.24 ms` for width 7.
    pub fn with_unit(&self, v: f64, width: usize) -> String {
        format!("{} {}", self.number_in(v, width), self.unit())
    }

    /// `v` with its symbol and no padding, e.g. `1.24 ms` (a plain number,
    /// a metric without a unit, alone: `7.00`).
    pub fn compact(&self, v: f64) -> String {
        format!("{}{}", self.number(v), self.after_number())
    }

    /// What follows a number: a space and the symbol, or nothing for a
    /// unit without a symbol (no space before nothing).
    pub fn after_number(&self) -> String {
        if self.symbol.is_empty() {
            String::new()
        } else {
            format!(" {}", self.symbol)
        }
    }
}

/// The most characters a number takes in a report before it is written
/// in scientific notation ([`Scale::number`]): 999,999,999 of a unit with
/// two decimals still fits.
const LONGEST_NUMBER: usize = 12;

/// Microseconds since the Unix epoch as UTC calendar fields: year, month,
/// day and the second of that day (proleptic Gregorian, by Howard
/// Hinnant's `civil_from_days`).
pub fn utc_fields(us: i64) -> (i64, u32, u32, i64) {
    let secs = us.div_euclid(1_000_000);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, secs.rem_euclid(86_400))
}

/// A value recorded in `unit` with the display unit chosen for it alone,
/// e.g. `250 μs`, `1.50 ms`, `2.00 MB`.
pub fn amount(v: f64, unit: Unit) -> String {
    Scale::choose(unit, v).compact(v)
}

/// A time in µs with the unit chosen for it alone, e.g. `250 μs`, `1.50 ms`.
pub fn time(us: f64) -> String {
    Scale::time(us).compact(us)
}

/// `x` rounded to `decimals` decimals (for comparisons, not printing).
fn round_to(x: f64, decimals: usize) -> f64 {
    let f = 10f64.powi(decimals as i32);
    (x * f).round() / f
}

/// `x` with `decimals` decimals; never `-0.00`, never NaN or inf. A whole
/// number's half (600.5) rounds away from zero, as the CSV exports round
/// (`format!` rounds it to even: the text said 600 μs where the CSV said
/// 601).
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "--".to_owned();
    }
    // (Below 1 the tie stays 0, so that 0.5 is shown with a decimal
    // instead: see [`not_zero`].)
    let x = if decimals == 0 && x.abs() > 1.0 && x.fract().abs() == 0.5 {
        x.round()
    } else {
        x
    };
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => text,
    }
}

/// `x` with `decimals` decimals ([`fixed`]), or with up to three more
/// when those would show a value that is not 0 as `0` (a shift of 0.5 μs
/// beside "slower" would read `0 μs`), as long as the text stays within
/// `width` characters.
fn not_zero(x: f64, decimals: usize, width: usize) -> String {
    let shows_a_digit = |t: &str| t.bytes().any(|b| (b'1'..=b'9').contains(&b));
    let text = fixed(x, decimals);
    if x == 0.0 || !x.is_finite() || shows_a_digit(&text) {
        return text;
    }
    (decimals + 1..=decimals + 3)
        .map(|d| fixed(x, d))
        .find(|t| t.len() <= width && shows_a_digit(t))
        .unwrap_or(text)
}

/// `x` in scientific notation in at most `width` columns where possible
/// (`1.23e12`), for values no unit can hold.
pub fn scientific(x: f64, width: usize) -> String {
    if !x.is_finite() {
        return "--".to_owned();
    }
    for precision in (0..=3).rev() {
        let text = format!("{x:.precision$e}");
        if text.len() <= width {
            return text;
        }
    }
    format!("{x:.0e}")
}

/// A p-value: three decimals, or `< 0.001`.
pub fn p_value(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_owned()
    } else {
        fixed(p, 3)
    }
}

/// A setting such as alpha or super as the user would write it (`0.05`,
/// `0.333`), with at most four decimals, unless four would not tell it
/// from a round number (`1e-7`, `0.9999999`, never `0` or `1`).
pub fn plain(x: f64) -> String {
    if !x.is_finite() {
        return "--".to_owned();
    }
    let text = format!("{x}");
    if text.len() <= 6 {
        return text;
    }
    let short = format!("{x:.4}");
    let short = short.trim_end_matches('0').trim_end_matches('.');
    if short.parse::<f64>().is_ok_and(|s| s == x.round()) && x != x.round() {
        return if x.abs() < 1e-3 {
            format!("{x:e}")
        } else {
            text
        };
    }
    short.to_owned()
}

/// A fraction as a percentage with at most one decimal: `0.333` → `33.3%`,
/// `0.5` → `50%`.
pub fn percent(fraction: f64) -> String {
    let text = fixed(fraction * 100.0, 1);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}%")
}

/// A ratio such as `1.23x` in at most 8 columns (fewer decimals for large
/// ratios); `—` when it is undefined (a zero denominator).
pub fn ratio(numerator: f64, denominator: f64) -> String {
    let r = numerator / denominator;
    if denominator == 0.0 || !r.is_finite() {
        return "—".to_owned();
    }
    let text = [2, 1, 0]
        .iter()
        .map(|&d| fixed(r, d))
        .find(|t| t.len() <= 7)
        .unwrap_or_else(|| scientific(r, 7));
    format!("{text}x")
}

/// A probability as a percentage with as many decimals (1 to 6) as it
/// takes not to round a value below 1 up to `100%`: `0.95` → `95.0%`,
/// `0.99999` → `99.999%`.
pub fn confidence(p: f64) -> String {
    confidence_with(p, 1)
}

/// A confidence in percent with at least `least` decimals, more only where
/// rounding would claim 100 % (see [`confidence`]).
pub fn confidence_with(p: f64, least: usize) -> String {
    let text = (least..=6)
        .map(|d| fixed(p * 100.0, d))
        .find(|t| p >= 1.0 || !t.starts_with("100"))
        // Still 100 at six decimals: below 1 all the same.
        .unwrap_or_else(|| ">99.999999".to_owned());
    format!("{text}%")
}

/// A ratio as a signed change in percent with one decimal: 1.452 →
/// `+45.2 %`, 0.9 → `-10.0 %`.
pub fn change(ratio: f64) -> String {
    let p = (ratio - 1.0) * 100.0;
    let mut text = fixed(p.abs(), 1);
    if text.len() > LONGEST_NUMBER {
        // No number past 12 characters, percentages included (a user time
        // of 9.2e18 μs against 20 μs is a change of 20 digits).
        text = scientific(p.abs(), LONGEST_NUMBER);
    }
    let sign = if text.trim_start_matches(['0', '.']).is_empty() {
        "±"
    } else if p < 0.0 {
        "-"
    } else {
        "+"
    };
    format!("{sign}{text} %")
}

/// A ratio with its interval as changes: `+45.2 % [+40.1 %, +50.3 %]`.
pub fn change_interval(estimate: f64, low: f64, high: f64) -> String {
    format!("{} [{}, {}]", change(estimate), change(low), change(high))
}

/// A comparison's estimate with its bounds: as changes on the ratio
/// scale (`+45.2 % [+40.1 %, +50.3 %]`), in the metric's unit on the
/// difference scale (`Δ 5 [1, 9] ms`).
pub fn contrast(c: &crate::stats::Contrast, unit: Unit) -> String {
    match c.scale {
        crate::stats::Scale::Ratio => change_interval(c.estimate, c.low, c.high),
        crate::stats::Scale::Difference => {
            let s = Scale::choose(unit, c.low.abs().max(c.high.abs()).max(c.estimate.abs()));
            format!(
                "Δ {} [{}, {}] {}",
                s.number(c.estimate),
                s.number(c.low),
                s.number(c.high),
                s.symbol()
            )
        }
    }
}

/// The one level every report states for its intervals: `95%
/// simultaneous` for α = 0.05. Every interval of a report (each compared
/// median's, each comparison's, one command's median's) holds together
/// with at least this chance, and with `--runs auto` whichever look the
/// experiment stopped at (docs/statistics.md, "The level").
pub fn level(alpha: f64) -> String {
    let p = 100.0 * (1.0 - alpha);
    let text = (0..=6)
        .map(|d| fixed(p, d))
        .find(|t| t.parse::<f64>().is_ok_and(|v| (v - p).abs() < 1e-9) && !t.starts_with("100"))
        .map_or_else(|| confidence(1.0 - alpha), |t| format!("{t}%"));
    format!("{text} simultaneous")
}

/// An interval in words, as what it leaves possible: `no more than 1.6 %
/// slower, no more than 1.2 % faster` when it holds no difference, else
/// `between 0.5 % and 3.0 % slower` (or faster). Changes on the ratio
/// scale, amounts in the metric's unit on the difference scale.
pub fn in_words(c: &crate::stats::Contrast, unit: Unit) -> String {
    let null = c.scale.null();
    let amount = |bound: f64| -> String {
        match c.scale {
            crate::stats::Scale::Ratio => {
                change(bound).trim_start_matches(['+', '-', '±']).to_owned()
            }
            crate::stats::Scale::Difference => {
                let s = Scale::choose(unit, c.low.abs().max(c.high.abs()));
                format!("{} {}", s.number((bound - null).abs()), s.symbol())
            }
        }
    };
    match (c.low < null, c.high > null) {
        (true, true) => format!(
            "no more than {} slower, no more than {} faster",
            amount(c.high),
            amount(c.low)
        ),
        (false, true) if c.low == null => {
            format!("no more than {} slower, not faster", amount(c.high))
        }
        (false, _) => format!("between {} and {} slower", amount(c.low), amount(c.high)),
        (true, false) if c.high == null => {
            format!("no more than {} faster, not slower", amount(c.low))
        }
        (true, false) => format!("between {} and {} faster", amount(c.high), amount(c.low)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidences_never_round_up_to_certainty() {
        assert_eq!(confidence(0.95), "95.0%");
        assert_eq!(confidence(0.99989), "99.99%");
        assert_eq!(confidence(0.99999), "99.999%");
        assert_eq!(confidence(1.0), "100.0%");
        assert_eq!(confidence(1.0 - 1e-12), ">99.999999%");
        assert_eq!(confidence_with(0.95026, 2), "95.03%");
        assert_eq!(confidence_with(0.99996, 2), "99.996%");
    }

    #[test]
    fn huge_changes_are_scientific() {
        assert_eq!(change(4.611_686_018_427_376e17), "+4.612e19 %");
        assert_eq!(change(1.0 + 9_999_999_999.9 / 100.0), "+9999999999.9 %");
    }

    #[test]
    fn the_level_is_one_minus_alpha_never_rounded_to_certainty() {
        assert_eq!(level(0.05), "95% simultaneous");
        assert_eq!(level(0.01), "99% simultaneous");
        assert_eq!(level(0.001), "99.9% simultaneous");
        assert_eq!(level(0.125), "87.5% simultaneous");
        assert_eq!(level(1e-9), ">99.999999% simultaneous");
    }

    #[test]
    fn intervals_in_words_say_what_they_leave_possible() {
        use crate::stats::{Contrast, Scale as On};
        let c = |scale, estimate, low, high| Contrast {
            scale,
            estimate,
            low,
            high,
            low_miss: 0.01,
            high_miss: 0.01,
        };
        let words = |x: Contrast| in_words(&x, Unit::Microseconds);
        assert_eq!(
            words(c(On::Ratio, 1.001, 0.988, 1.016)),
            "no more than 1.6 % slower, no more than 1.2 % faster"
        );
        assert_eq!(
            words(c(On::Ratio, 1.02, 1.005, 1.03)),
            "between 0.5 % and 3.0 % slower"
        );
        assert_eq!(
            words(c(On::Ratio, 0.98, 0.97, 0.995)),
            "between 0.5 % and 3.0 % faster"
        );
        assert_eq!(
            words(c(On::Ratio, 1.01, 1.0, 1.03)),
            "no more than 3.0 % slower, not faster"
        );
        assert_eq!(
            words(c(On::Difference, 10.0, -80.0, 120.0)),
            "no more than 120 μs slower, no more than 80 μs faster"
        );
    }

    #[test]
    fn changes_are_signed_percentages() {
        assert_eq!(
            change_interval(1.452, 1.401, 1.503),
            "+45.2 % [+40.1 %, +50.3 %]"
        );
        assert_eq!(change(0.9), "-10.0 %");
        assert_eq!(change(1.0), "±0.0 %");
        assert_eq!(change(0.99999), "±0.0 %");
    }

    fn t(us: f64) -> String {
        time(us)
    }

    #[test]
    fn time_unit_boundaries() {
        assert_eq!(t(0.0), "0 μs");
        assert_eq!(t(999.0), "999 μs");
        assert_eq!(t(999.4), "999 μs");
        // Would print as "1000 μs": the next unit reads better.
        assert_eq!(t(999.6), "1.00 ms");
        assert_eq!(t(1000.0), "1.00 ms");
        assert_eq!(t(999_990.0), "999.99 ms");
        assert_eq!(t(999_994.0), "999.99 ms");
        assert_eq!(t(999_995.0), "1.00 s");
        assert_eq!(t(1_000_000.0), "1.00 s");
        assert_eq!(t(4_418_639.0), "4.42 s");
        assert_eq!(t(-1500.0), "-1.50 ms");
    }

    #[test]
    fn memory_units_are_si_as_labelled() {
        let s = |b: f64| Scale::choose(Unit::Bytes, b).compact(b);
        assert_eq!(s(0.0), "0 B");
        assert_eq!(s(999.0), "999 B");
        assert_eq!(s(1000.0), "1.00 kB");
        assert_eq!(s(1024.0), "1.02 kB");
        // 1.80 MiB is 1.88 MB in SI units.
        assert_eq!(s(1_884_160.0), "1.88 MB");
        assert_eq!(s(999_999.0), "1.00 MB");
        assert_eq!(s(1e9), "1.00 GB");
        assert_eq!(s(5.5 * 1024.0 * 1024.0 * 1024.0), "5.91 GB");
    }

    #[test]
    fn numbers_below_the_smallest_prefix_are_scientific() {
        // Two decimals of y (1e-24) show nothing below 5e-27.
        for (v, text) in [
            (1e-320, "1.000e-320"),
            (3e-30, "3.000e-30"),
            (-2.5e-28, "-2.500e-28"),
        ] {
            let s = Scale::choose(Unit::Number, v);
            assert_eq!((s.compact(v).trim(), s.symbol()), (text, ""), "{v}");
            let narrow = s.number_in(v, 7);
            assert_eq!(narrow.len(), 7, "{narrow:?}");
            let back: f64 = narrow.trim().parse().unwrap();
            assert!(
                (back / v - 1.0).abs() <= 0.2,
                "one digit at least: {v}: {narrow}"
            );
            assert_eq!(s.number(0.0), "0.00", "a zero stays a zero");
        }
        // Within the ladder: prefixes as usual.
        assert_eq!(Scale::choose(Unit::Number, 1e-26).compact(1e-26), "0.01 y");
        assert_eq!(
            Scale::choose(Unit::Number, 1.5e-9).compact(1.5e-9),
            "1.50 n"
        );
    }

    #[test]
    fn count_units_are_1000_based() {
        let s = |c: f64| Scale::choose(Unit::Count, c).compact(c);
        assert_eq!(s(0.0), "0 ct");
        assert_eq!(s(999.0), "999 ct");
        assert_eq!(s(1000.0), "1.00 K");
        assert_eq!(s(41_036.0), "41.04 K");
        assert_eq!(s(2_500_000.0), "2.50 M");
        assert_eq!(s(3e9), "3.00 G");
    }

    #[test]
    fn small_plain_numbers_take_an_si_prefix() {
        let s = |x: f64| Scale::choose(Unit::Number, x).compact(x);
        // No symbol: nothing after the number, not a space.
        assert_eq!(s(0.0), "0.00");
        assert_eq!(s(0.5), "0.50");
        assert_eq!(s(0.1), "0.10");
        assert_eq!(s(0.099), "99.00 m");
        assert_eq!(s(0.001), "1.00 m");
        assert_eq!(s(0.0012), "1.20 m");
        assert_eq!(s(-0.002), "-2.00 m");
        assert_eq!(s(9.99e-4), "999.00 μ");
        assert_eq!(s(1e-7), "100.00 n");
        assert_eq!(s(3e-24), "3.00 y");
        // Past what the last prefix can show, scientific notation.
        assert_eq!(Scale::choose(Unit::Number, 1e-30).symbol(), "");
        assert_eq!(
            Scale::choose(Unit::Number, 1e-30).compact(1e-30),
            "1.000e-30"
        );
        // Past G, scientific notation without a prefix, rather than 22
        // digits or `1.00e90 G` (a custom metric of 1e99).
        assert_eq!(Scale::choose(Unit::Number, 1e30).compact(1e30), "1.000e30");
        assert_eq!(Scale::choose(Unit::Number, 9e17).compact(9e17), "9.000e17");
        assert_eq!(Scale::choose(Unit::Number, 1e99).compact(1e99), "1.000e99");
        assert_eq!(
            Scale::choose(Unit::Count, 1e99).compact(1e99),
            "1.000e99 ct"
        );
        // Up to 999 G a prefix still reads best.
        assert_eq!(Scale::choose(Unit::Number, 5e11).compact(5e11), "500.00 G");
        // A block of 1 and 0.001 keeps the plain scale, and 0.001 is not
        // shown as 0.00.
        let plain = Scale::choose(Unit::Number, 1.0);
        assert_eq!((plain.symbol(), plain.number(0.001)), ("", "0.001".into()));
    }

    #[test]
    fn whole_numbers_round_their_halves_away_from_zero_as_the_csvs_do() {
        // `format!` rounds these to even (2.5 → 2, 600.5 → 600).
        for (x, shown) in [(2.5, "3"), (600.5, "601"), (-600.5, "-601"), (601.5, "602")] {
            assert_eq!(fixed(x, 0), shown, "{x}");
        }
        assert_eq!(fixed(600.49, 0), "600");
        assert_eq!(fixed(0.5, 0), "0", "below 1, `not_zero` shows the decimal");
        assert_eq!(fixed(2.25, 1), "2.2", "only whole numbers' halves");
    }

    #[test]
    fn a_value_that_is_not_zero_never_shows_as_zero() {
        let us = Scale::time(465.0);
        assert_eq!(us.number(0.5), "0.5");
        assert_eq!(us.number(-0.25), "-0.2");
        assert_eq!(us.number(0.0), "0");
        assert_eq!(us.number(0.004), "0.004");
        // Past three more decimals: a plain 0.
        assert_eq!(us.number(0.0004), "0");
        assert_eq!(us.number_in(0.5, 6), "   0.5");
        // Only within the width.
        assert_eq!(us.number_in(0.5, 1), "0");
    }

    #[test]
    fn numbers_never_overflow_their_column() {
        let s = Scale::time(1e12); // 10^6 s
        assert_eq!(s.symbol(), "s");
        assert_eq!(s.number_in(1e12, 7), "1000000");
        assert_eq!(s.number_in(1e13, 7), "1.000e7");
        assert_eq!(s.number_in(1.5e9, 7), "1500.00");
        assert_eq!(s.number_in(1.5e10, 7), "15000.0");
        for v in [
            0.0, 1.0, 999.0, 1e6, 1e9, 1e12, 1e15, 9.2e18, -9.2e18, 1e100,
        ] {
            for unit in [Unit::Microseconds, Unit::Bytes, Unit::Count] {
                let scale = Scale::choose(unit, v);
                assert!(scale.number_in(v, 7).len() <= 7, "{v} {unit:?}");
            }
        }
        // A fitted block drops decimals for all its values alike.
        let s = Scale::time(2.5e10).fitted(&[2.5e10, 1e6], 7);
        assert_eq!(
            (s.number(2.5e10), s.number(1e6)),
            ("25000.0".into(), "1.0".into())
        );
    }

    #[test]
    fn narrow_spreads_get_more_decimals() {
        let s = Scale::time(2.36e6);
        assert_eq!(s.resolving(9_800.0, 2).number(2_351_234.0), "2.3512");
        assert_eq!(s.resolving(9_800.0, 1).number(2_351_234.0), "2.351");
        // Already enough: unchanged.
        assert_eq!(Scale::time(5e3).resolving(2_120.0, 2).decimals(), 2);
        assert_eq!(Scale::time(5e3).resolving(50.0, 1).decimals(), 2);
        // Never beyond the recording precision (1 µs = 0.001 ms).
        assert_eq!(Scale::time(5e3).resolving(10.0, 2).decimals(), 3);
        assert_eq!(Scale::time(5e3).resolving(1.0, 2).decimals(), 2);
        assert_eq!(Scale::time(500.0).resolving(1.0, 2).decimals(), 0);
        // A spread of a few KB in GB would need 6 decimals: not shown.
        let gb = Scale::choose(Unit::Bytes, 3e9);
        assert_eq!(gb.resolving(4096.0, 1).decimals(), 2);
        // Nothing to resolve.
        assert_eq!(Scale::time(5e3).resolving(0.0, 2).decimals(), 2);
        assert_eq!(Scale::time(5e3).resolving(f64::NAN, 2).decimals(), 2);
    }

    #[test]
    fn padded_units_line_up() {
        assert_eq!(Scale::time(1e6).with_unit(2.36e6, 7), "   2.36 s ");
        assert_eq!(Scale::time(1.0).with_unit(12.0, 7), "     12 μs");
    }

    #[test]
    fn no_negative_zero_and_no_nan() {
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-0.0, 0), "0");
        assert_eq!(fixed(f64::NAN, 2), "--");
        assert_eq!(fixed(f64::INFINITY, 2), "--");
        assert_eq!(ratio(5.0, 0.0), "—");
        assert_eq!(ratio(0.0, 0.0), "—");
    }

    #[test]
    fn small_formats() {
        assert_eq!(p_value(0.0123), "0.012");
        assert_eq!(p_value(0.0009), "< 0.001");
        assert_eq!(p_value(1.0), "1.000");
        assert_eq!(plain(0.05), "0.05");
        assert_eq!(plain(0.333), "0.333");
        assert_eq!(plain(1.0 / 3.0), "0.3333");
        assert_eq!(plain(1e-300), "1e-300");
        assert_eq!(plain(0.9999999), "0.9999999");
        assert_eq!(plain(2.5e-5), "2.5e-5");
        assert_eq!(plain(12345.67891), "12345.6789");
        assert_eq!(percent(0.333), "33.3%");
        assert_eq!(percent(0.5), "50%");
        assert_eq!(ratio(1.23, 1.0), "1.23x");
        assert_eq!(ratio(53725.3, 1.0), "53725.3x");
        assert_eq!(ratio(1e9, 1.0), "1.000e9x");
    }
}

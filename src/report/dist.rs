//! The `-D` distribution table: the shape of one command's ranked metric
//! (`--metric`; total CPU time by default).
//!
//! Whether a median is a fair summary, and whether mean ± sd would have
//! been one, depends on the shape of the distribution; this table says how
//! spread out and how far from normal it is. The layout is C BestGuess's
//! (a 78-column frame; columns of 16, 15 and 40; the same row labels and
//! verdict words), without its defects:
//!
//! * One time unit for the whole table, chosen like every other table's
//!   (μs too, for sub-millisecond commands), and values printed with the
//!   decimals that unit really has: no "2.40 s" for a value rounded to
//!   0.1 s. The range and IQR ends line up on their `…`.
//! * The IQR's share of the range is left out when the range is 0, instead
//!   of printing `-nan%`.
//! * Descriptions longer than their column wrap onto the next line instead
//!   of being cut ("Cannot rule out normal" stays whole, not "Cannot").
//! * When a statistic does not exist (fewer than 8 values, all values equal,
//!   extreme values) the table says which, in words, for each statistic.
//! * Skewness and excess kurtosis each get their own verdict, by the rule
//!   [`substantial`] states (C BestGuess printed the skew's for both).
//!
//! The Anderson–Darling verdict uses the test's own p-value against the
//! `alpha` setting ("Not normal" when p ≤ α, as in C BestGuess).

use std::io::{self, Write};

use super::frame::Frame;
use super::text::{pad, wrap, Align};
use super::units::{self, Scale};
use crate::data::Metric;
use crate::stats::{substantial, Moment, NotApplicable, Summary};

/// Column widths: label, value, description.
const LABEL: usize = 16;
const VALUE: usize = 15;
const TEXT: usize = 40;
/// Width of one number inside a value cell (`min … max` fits in 15).
const NUMBER: usize = 6;

/// Writes the table for the summary `s` of a command's `metric` (the
/// ranked one; `failed` of its runs failed) at significance level `alpha`.
pub fn write(
    out: &mut dyn Write,
    s: &Summary,
    metric: Metric,
    failed: usize,
    alpha: f64,
    width: usize,
) -> io::Result<()> {
    let q = &s.quantiles;
    let range = q.max - q.min;
    let iqr = q.iqr();
    let shown = [q.min, q.q1, q.median, q.q3, q.max, range, iqr];
    let max_abs = shown.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = Scale::choose(metric.unit(), max_abs)
        .resolving(super::summary::spread(s), 2)
        .fitted(&shown, NUMBER);
    let unit = scale.symbol();
    let num = |v: f64| scale.number_in(v, NUMBER);
    let span = |a: f64, b: f64| format!("{} … {}", num(a), num(b));

    let mut f = Frame::new(super::frame::inner_for(width, 2));
    f.title(&format!("{} distribution", metric.label()));
    f.blank();
    let runs = if s.n == 1 { "run" } else { "runs" };
    let n_note = match failed {
        0 => runs.to_owned(),
        k => format!("{runs} ({k} failed)"),
    };
    row(&mut f, "N (observations)", &s.n.to_string(), &n_note);
    row(&mut f, "Median", &num(q.median), unit);
    row(&mut f, "Range", &span(q.min, q.max), unit);
    row(&mut f, "", &num(range), unit);
    row(&mut f, "IQR", &span(q.q1, q.q3), unit);
    let share = if range > 0.0 {
        format!("{unit} ({} of range)", units::percent(iqr / range))
    } else {
        unit.to_owned()
    };
    row(&mut f, "", &num(iqr), &share);
    f.blank();

    let (value, text) = match &s.normality {
        Ok(ad) => (
            units::fixed(ad.a2_star, 2),
            normality_verdict(ad.p_value, alpha),
        ),
        Err(na) => ("n/a".to_owned(), not_applicable(na, true)),
    };
    row(&mut f, "AD normality", &value, &text);
    let (value, text) = shape(&s.skewness, s.n, Moment::Skew);
    row(&mut f, "Skew", &value, &text);
    let (value, text) = shape(&s.excess_kurtosis, s.n, Moment::Kurtosis);
    row(&mut f, "Excess kurtosis", &value, &text);
    f.write(out, 2)
}

/// A row of three cells; a long description continues on further lines,
/// and so does each further part of it (`text` is split at `\n`).
fn row(f: &mut Frame, label: &str, value: &str, text: &str) {
    let parts = text.split('\n').flat_map(|part| wrap(part, TEXT));
    for (i, part) in parts.enumerate() {
        let (label, value) = if i == 0 { (label, value) } else { ("", "") };
        f.line(format!(
            "  {} {} {part}",
            pad(label, LABEL, Align::Right),
            pad(value, VALUE, Align::Right)
        ));
    }
}

/// The Anderson–Darling verdict, in C BestGuess's words.
fn normality_verdict(p: f64, alpha: f64) -> String {
    let a = units::plain(alpha);
    if p <= alpha {
        let p = if p < 0.001 {
            "p < 0.001".to_owned()
        } else {
            format!("p = {}", units::fixed(p, 3))
        };
        format!("{p} (signif., α = {a}) Not normal")
    } else {
        format!(
            "p = {} (non-signif., α = {a})\nCannot rule out normal",
            units::fixed(p, 3)
        )
    }
}

/// Why a shape statistic is missing, in words.
fn not_applicable(na: &NotApplicable, normality: bool) -> String {
    match na {
        NotApplicable::TooFewValues { min, .. } => {
            format!("Too few data points (needs at least {min})")
        }
        NotApplicable::ZeroVariance => "All values are equal (zero variance)".to_owned(),
        NotApplicable::ExtremeValues { max_abs_z } => {
            let z = if *max_abs_z < 1e4 {
                units::fixed(*max_abs_z, 1)
            } else {
                format!("{max_abs_z:.1e}")
            };
            let verdict = if normality { ": not normal" } else { "" };
            format!("Extreme values (|z| up to {z}){verdict}")
        }
    }
}

/// Value and verdict of a skewness or excess kurtosis.
fn shape(g: &Result<f64, NotApplicable>, n: usize, moment: Moment) -> (String, String) {
    match g {
        Ok(g) => (
            units::fixed(*g, 2),
            if substantial(*g, n, moment) {
                "Substantial deviation from normal".to_owned()
            } else {
                "Non-significant".to_owned()
            },
        ),
        Err(na) => ("n/a".to_owned(), not_applicable(na, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_in_words() {
        assert_eq!(
            normality_verdict(0.0001, 0.05),
            "p < 0.001 (signif., α = 0.05) Not normal"
        );
        assert_eq!(
            normality_verdict(0.511, 0.05),
            "p = 0.511 (non-signif., α = 0.05)\nCannot rule out normal"
        );
        let na = NotApplicable::TooFewValues { n: 3, min: 8 };
        assert_eq!(
            not_applicable(&na, true),
            "Too few data points (needs at least 8)"
        );
        let na = NotApplicable::ExtremeValues {
            max_abs_z: 123456.0,
        };
        assert_eq!(
            not_applicable(&na, true),
            "Extreme values (|z| up to 1.2e5): not normal"
        );
    }
}

//! The `-E` explanation: the ranking's settings and, for each command
//! compared with the reference, the statistics behind its verdict.
//!
//! A ranking is only as credible as the evidence behind it, so `-E` shows
//! it: the settings in force (relative thresholds with their value in the
//! metric's unit) and the reference; then per command how its runs were
//! made (in complete rounds or not), the deciding estimate with its
//! interval (for an open comparison, what it leaves possible), the level
//! every output states, and the verdict. A condition of a
//! verdict that a comparison did not meet is marked `✗` on the line of
//! the numbers that show it; the conditions come from the ranking
//! (nothing is recomputed here), and the legend under the table says what
//! the mark means. Below, the C BestGuess tool's statistics, which decide
//! nothing: Mann–Whitney with its raw and adjusted p-values, the
//! Hodges–Lehmann shift Δ with the C tool's interval, and Â.
//!
//! Layout as in C BestGuess: a 78-column legend frame, then rows of a
//! 22-column label, a 26-column value, `✗` and the reason.

use super::frame::Frame;
use super::text::{pad, trim_end, Align};
use super::units::{self, Scale as Amounts};
use crate::analysis::{meaning, Analysis};
use crate::data::Unit;
use crate::stats::{
    Classic, Design, Method, RankedEntry, Ranking, Reason, Scale, Threshold, Verdict,
};

const LABEL: usize = 22;
const VALUE: usize = 26;

/// What `✗` means, printed under the `-E` table.
pub const MARK_LEGEND: &str =
    "✗ marks a condition of a verdict that the numbers on its line do not meet.";

/// The settings legend, as a frame.
pub fn legend(analysis: &Analysis<'_>, width: usize) -> Frame {
    let s = &analysis.settings;
    let r = &analysis.ranking;
    let unit = s.metric.unit();
    // A relative threshold takes a second line for its value in the unit.
    let amount = |a: Threshold, resolved: f64| match a {
        Threshold::Absolute(v) => (units::amount(v, unit), None),
        Threshold::Percent(p) => (
            format!("{}% of reference", units::plain(p)),
            Some(format!("(= {})", units::amount(resolved, unit))),
        ),
    };
    let reference = match (r.fixed_reference, r.best()) {
        (true, Some(b)) => format!("command {}", b.index + 1),
        _ => "the best".to_owned(),
    };
    let rows = [
        (meaning::EFFECT, "effect", amount(s.effect, r.effect)),
        (meaning::EPSILON, "epsilon", amount(s.epsilon, r.epsilon)),
        (meaning::ALPHA, "alpha", (units::plain(s.alpha), None)),
        ("Compared with", "ref", (reference, None)),
    ];
    let inner = super::frame::inner_for(width, 2);
    let mut f = Frame::new(inner);
    if inner >= 76 {
        f.line(format!(
            " {}  {}",
            pad("Parameter:", 39, Align::Left),
            "Settings: (modify with -c)"
        ));
        for (label, name, (value, more)) in rows {
            f.line(format!(
                " {}  {}{value}",
                pad(label, 39, Align::Left),
                pad(name, 9, Align::Left)
            ));
            if let Some(more) = more {
                f.line(format!(" {}{more}", " ".repeat(39 + 2 + 9)));
            }
        }
    } else {
        // Narrow: each parameter on its own line, its setting below.
        f.line(" Parameter, and its setting (modify with -c):");
        for (label, name, (value, more)) in rows {
            f.line(format!(" {label}"));
            f.line(format!("   {}{value}", pad(name, 9, Align::Left)));
            if let Some(more) = more {
                f.line(format!("   {}{more}", " ".repeat(9)));
            }
        }
    }
    f
}

/// One detail line: label, value, and the ✗ reason when it applies.
fn line(label: &str, value: &str, reason: Option<String>) -> String {
    let mut l = format!(
        "    {} {}",
        pad(label, LABEL, Align::Left),
        pad(value, VALUE, Align::Left)
    );
    if let Some(reason) = reason {
        l.push_str(" ✗ ");
        l.push_str(&reason);
    }
    trim_end(&l).to_owned()
}

/// `p = 0.012` or `p < 0.001`.
fn p_is(p: f64) -> String {
    let text = units::p_value(p);
    if text.starts_with('<') {
        format!("p {text}")
    } else {
        format!("p = {text}")
    }
}

/// A rank statistic (an integer or a half-integer with ties).
fn statistic(x: f64) -> String {
    if x.fract() == 0.0 {
        units::fixed(x, 0)
    } else {
        units::fixed(x, 1)
    }
}

fn method(m: Method) -> &'static str {
    match m {
        Method::Exact => "exact",
        Method::Asymptotic => "asymptotic",
    }
}

/// Why a compared command is neither slower nor faster, in a few words
/// with the bound it was compared with. `-E` prints it beside the numbers
/// that show it, and the markup exports ([`crate::export::document`]) use
/// the same words.
pub fn reason(r: Reason, _entry: &RankedEntry, ranking: &Ranking, unit: Unit) -> String {
    match (r, ranking.scale, ranking.settings.effect) {
        (Reason::WithinEffect, Scale::Ratio, Threshold::Percent(p)) => {
            format!("low end ≤ effect +{}%", units::plain(p))
        }
        (Reason::WithinEffect, _, _) => {
            format!("low end ≤ effect {}", units::amount(ranking.effect, unit))
        }
    }
}

/// The name of a comparison's estimate.
pub fn estimate_name(ranking: &Ranking) -> &'static str {
    match ranking.scale {
        Scale::Ratio => "Ratio of medians",
        Scale::Difference => "Diff. of medians",
    }
}

/// Whether `-E` marks a condition of `entry`'s verdict with `✗`.
pub fn marked(entry: &RankedEntry) -> bool {
    entry.comparison.is_some() && !entry.reasons.is_empty()
}

/// The detail lines of one ranked command (none for the reference), with
/// amounts in the ranked metric's unit.
pub fn details(entry: &RankedEntry, analysis: &Analysis<'_>) -> Vec<String> {
    let ranking = &analysis.ranking;
    let unit = analysis.settings.metric.unit();
    let mut lines = Vec::new();
    let Some(c) = &entry.comparison else {
        if let Verdict::NotCompared { n } = entry.verdict {
            if ranking.inference {
                lines.push(line("Timed observations", &format!("N = {n}"), None));
                let needed = entry
                    .runs_needed
                    .map_or_else(|| "too few runs".to_owned(), |r| format!("needs {r} runs"));
                lines.push(line("Not compared", &needed, None));
            }
        }
        return lines;
    };
    let flag = |r: Reason| {
        entry
            .reasons
            .contains(&r)
            .then(|| reason(r, entry, ranking, unit))
    };
    lines.push(line(
        "Timed observations",
        &format!("N = {}", entry.n),
        None,
    ));
    let design = match c.design {
        Design::Rounds { rounds } => format!("medians, {rounds} rounds"),
        Design::Independent => "medians, independent samples".to_owned(),
    };
    lines.push(line("Analysis", &design, None));
    let b = &c.contrast;
    lines.push(line(
        estimate_name(ranking),
        &units::contrast(b, unit),
        flag(Reason::WithinEffect),
    ));
    if entry.verdict == Verdict::Inconclusive {
        lines.push(line("In words", &units::in_words(b, unit), None));
    }
    // The level every report states; each bound's own is in the JSON.
    lines.push(line(
        "Confidence",
        &units::level(analysis.settings.alpha),
        None,
    ));
    lines.push(line("Verdict", entry.verdict.word(), None));
    // The C tool's statistics: shown, deciding nothing.
    let Some(k) = &c.classic else {
        return lines;
    };

    let mw = &k.mann_whitney;
    lines.push(line(
        "Mann-Whitney",
        &format!(
            "W = {}  U = {}  ({})",
            statistic(mw.w),
            statistic(mw.u),
            method(mw.method)
        ),
        None,
    ));
    lines.push(line("p-value, raw", &p_is(mw.p_value), None));
    lines.push(line(
        "p-value, adjusted",
        &format!("{}  (× {})", p_is(k.p_adjusted), ranking.family.max(1)),
        None,
    ));
    lines.push(line(
        "Hodges-Lehmann shift",
        &format!("Δ = {}", units::amount(k.shift, unit)),
        None,
    ));
    lines.push(line("Δ interval", &interval(k, unit), None));
    lines.push(line(
        "Prob. of superiority",
        &format!("Â = {}", units::fixed(k.superiority, 3)),
        None,
    ));
    lines
}

/// The time-order lines of command `index`: its best-case estimate with
/// the halves' agreement, and the trend test against run order.
pub fn diagnostics(analysis: &Analysis<'_>, index: usize) -> Vec<String> {
    let Some(d) = analysis.diagnostics.get(index) else {
        return Vec::new();
    };
    let (estimate, _) = super::tail::best_case_text(&d.best_case, analysis.settings.metric.unit());
    let best = match &d.best_case {
        Ok(b) => {
            let apart = b.distance.map_or_else(
                || "halves without spread".to_owned(),
                |x| format!("halves {} sd apart", units::fixed(x, 1)),
            );
            let verdict = if b.stable { "stable" } else { "unstable" };
            format!("{estimate}  ({apart}: {verdict})")
        }
        Err(_) => estimate,
    };
    let trend = match (&d.trend, d.trend_p_adjusted) {
        (Ok(t), Some(p)) => format!(
            "τ = {}  (adjusted {}){}",
            units::fixed(t.tau, 2),
            p_is(p),
            if d.drifted { ": speed changed" } else { "" }
        ),
        (Err(crate::stats::NotApplicable::TooFewValues { n, min }), _) => {
            format!("n/a (needs {min} runs, has {n})")
        }
        (Err(e), _) => format!("n/a ({e})"),
        (Ok(_), None) => "n/a".to_owned(),
    };
    vec![
        line("Best case", &best, None),
        line("Trend with run order", &trend, None),
    ]
}

/// `95.47% [388, 510] μs`: the C tool's confidence and both ends in one
/// unit, with fewer decimals if needed to fit the value column.
fn interval(c: &Classic, unit: Unit) -> String {
    let (low, high) = (c.shift_low, c.shift_high);
    let scale = Amounts::choose(unit, low.abs().max(high.abs()));
    let confidence = units::confidence_with(c.shift_confidence, 2);
    let text = |s: Amounts| {
        format!(
            "{confidence} [{}, {}] {}",
            s.number(low),
            s.number(high),
            s.symbol()
        )
    };
    (0..=scale.decimals())
        .rev()
        .map(|d| text(scale.with_decimals(d)))
        .find(|t| super::text::width(t) <= VALUE)
        .unwrap_or_else(|| text(scale.with_decimals(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detail_lines_align_their_marks() {
        let l = line(
            "Δ interval",
            "95.00% [1.00, 2.00] ms",
            Some("low end ≤ effect 500 μs".into()),
        );
        assert_eq!(
            l,
            "    Δ interval             95.00% [1.00, 2.00] ms     ✗ low end ≤ effect 500 μs"
        );
        assert_eq!(
            line("Analysis", "independent samples", None),
            "    Analysis               independent samples"
        );
    }
}

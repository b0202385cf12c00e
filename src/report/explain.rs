//! The `-E` explanation: the ranking's settings and, for each command
//! compared with the reference, the statistics behind its verdict.
//!
//! A ranking is only as credible as the evidence behind it, so `-E` shows
//! it: the settings in force (relative thresholds with their value in the
//! metric's unit), the reference, the simultaneous confidence of the
//! intervals; then per command the analysis used (independent samples or
//! paired by round), the test statistic, the raw and the adjusted p-value,
//! each labelled as such, the Hodges–Lehmann shift Δ with its interval and
//! the confidence actually achieved, the ratio with its interval, Â with
//! its interval, and the verdict. A condition of a verdict that a
//! comparison did not meet is marked `✗` on the line of the numbers that
//! show it, with the bound they were compared with; the conditions come
//! from the ranking (nothing is recomputed here), and the legend under the
//! table says what the mark means.
//!
//! Layout as in the reference: a 78-column legend frame, then rows of a
//! 22-column label, a 26-column value, `✗` and the reason.

use super::frame::Frame;
use super::text::{pad, trim_end, Align};
use super::units::{self, Scale};
use crate::analysis::{meaning, Analysis};
use crate::data::Unit;
use crate::stats::{
    Comparison, Design, Method, RankedEntry, Ranking, Reason, Threshold, Verdict,
    MIN_VALUES_FOR_INFERENCE,
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
    let superiority = if s.superiority < 0.5 {
        units::plain(s.superiority)
    } else {
        format!("{} (off)", units::plain(s.superiority))
    };
    let reference = match (r.fixed_reference, r.best()) {
        (true, Some(b)) => format!("command {}", b.index + 1),
        _ => "the best".to_owned(),
    };
    let rows = [
        (meaning::EFFECT, "effect", amount(s.effect, r.effect)),
        (meaning::EPSILON, "epsilon", amount(s.epsilon, r.epsilon)),
        (meaning::ALPHA, "alpha", (units::plain(s.alpha), None)),
        (meaning::SUPER, "super", (superiority, None)),
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

/// A condition of a verdict that a comparison did not meet, in a few
/// words with the bound it was compared with. `-E` prints it beside the
/// numbers that show it, and the markup exports
/// ([`crate::export::document`]) use the same words. `has_ratio`: the
/// comparison has a ratio, against which a relative effect is held;
/// without one (a value ≤ 0) the effect is its amount in the unit, as the
/// verdict used it (the documents had said `+1%` where `-E` said `0 μs`).
pub fn reason(r: Reason, ranking: &Ranking, unit: Unit, has_ratio: bool) -> String {
    match (r, ranking.settings.effect) {
        (Reason::WithinEffect, Threshold::Percent(p)) if has_ratio => {
            format!("low end ≤ effect +{}%", units::plain(p))
        }
        (Reason::WithinEffect, _) => {
            format!("low end ≤ effect {}", units::amount(ranking.effect, unit))
        }
        (Reason::Superiority, _) => format!(
            "high end > super {}",
            units::plain(ranking.settings.superiority)
        ),
        (Reason::TooFewRuns, _) => format!(
            "interval short of {} (more runs)",
            units::confidence(ranking.confidence_each)
        ),
        (Reason::NotSignificant, _) => {
            format!("not below alpha {}", units::plain(ranking.settings.alpha))
        }
        (Reason::TestOpposes, _) => "the test leans the other way".to_owned(),
        (Reason::NoShift, _) => "differ, but not by a shift".to_owned(),
    }
}

/// The detail lines of one ranked command (none for the reference), with
/// amounts in the ranked metric's `unit`.
pub fn details(entry: &RankedEntry, ranking: &Ranking, unit: Unit) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(c) = &entry.comparison else {
        if let Verdict::NotCompared { n } = entry.verdict {
            if ranking.inference {
                lines.push(line("Timed observations", &format!("N = {n}"), None));
                lines.push(line(
                    "Not compared",
                    &format!("needs at least {MIN_VALUES_FOR_INFERENCE} runs"),
                    None,
                ));
            }
        }
        return lines;
    };
    let flag = |r: Reason| {
        (entry.reasons.contains(&r)).then(|| reason(r, ranking, unit, c.ratio.is_some()))
    };
    lines.push(line(
        "Timed observations",
        &format!("N = {}", entry.n),
        None,
    ));
    match (c.design, c.signed_rank) {
        (Design::Paired { rounds }, Some(sr)) => {
            lines.push(line("Analysis", &format!("paired, {rounds} rounds"), None));
            lines.push(line(
                "Wilcoxon signed-rank",
                &format!("T+ = {}  ({})", statistic(sr.t_plus), method(sr.method)),
                None,
            ));
        }
        _ => {
            let mw = &c.mann_whitney;
            lines.push(line("Analysis", "independent samples", None));
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
        }
    }
    lines.push(line("p-value, raw", &p_is(c.p_value()), None));
    lines.push(line(
        "p-value, adjusted",
        &format!("{}  (× {})", p_is(c.p_adjusted), ranking.family.max(1)),
        flag(Reason::NotSignificant).or_else(|| flag(Reason::TestOpposes)),
    ));
    let relative = |t: Threshold| matches!(t, Threshold::Percent(_)) && c.ratio.is_some();
    let effect = ranking.settings.effect;
    lines.push(line(
        "Hodges-Lehmann shift",
        &format!("Δ = {}", units::amount(c.shift, unit)),
        None,
    ));
    lines.push(line(
        "Δ interval",
        &interval(c, unit),
        // Against the threshold's amount in the unit (a relative one
        // resolved, when there is no ratio to hold it against).
        (!relative(effect) && entry.reasons.contains(&Reason::WithinEffect))
            .then(|| format!("low end ≤ effect {}", units::amount(ranking.effect, unit))),
    ));
    if let Some(r) = c.ratio {
        lines.push(line(
            "Ratio (other/ref)",
            &units::change_interval(r.estimate, r.low, r.high),
            relative(effect)
                .then(|| flag(Reason::WithinEffect))
                .flatten(),
        ));
    } else {
        lines.push(line("Ratio (other/ref)", "none: a value ≤ 0", None));
    }
    let s = c.superiority_interval;
    lines.push(line(
        "Prob. of superiority",
        &format!(
            "Â = {} [{}, {}]",
            units::fixed(c.superiority, 3),
            units::fixed(s.low, 3),
            units::fixed(s.high, 3)
        ),
        flag(Reason::Superiority),
    ));
    lines.push(line(
        "Verdict",
        entry.verdict.word(),
        flag(Reason::TooFewRuns).or_else(|| flag(Reason::NoShift)),
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

/// `95.47% [388, 510] μs`: the achieved confidence and both ends in one
/// unit, with fewer decimals if needed to fit the value column.
fn interval(c: &Comparison, unit: Unit) -> String {
    let (low, high) = (c.interval.low, c.interval.high);
    let scale = Scale::choose(unit, low.abs().max(high.abs()));
    let confidence = units::confidence_with(c.interval.achieved_confidence, 2);
    let text = |s: Scale| {
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

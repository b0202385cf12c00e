//! The `-E` explanation: the ranking's settings and, for each command
//! compared with the best, the statistics behind its verdict.
//!
//! A ranking is only as credible as the evidence behind it, so `-E` shows
//! it: the settings in force (with relative thresholds resolved to µs),
//! then per command the Mann–Whitney W and U, the raw and Holm-adjusted
//! p-values and whether they are exact, the Hodges–Lehmann shift Δ, its
//! confidence interval with the confidence actually achieved, and the
//! probability of superiority Â. Each reason that made a command count as
//! identical to the best is marked `✗` on the line of the statistic that
//! caused it; the reasons come from the ranking's verdict and nothing is
//! recomputed here.
//!
//! Layout as in the reference: a 78-column legend frame, then rows of a
//! 22-column label, a value, `✗` and the reason. The value column is 26
//! columns (the reference's 24 could not hold a confidence interval around
//! zero); p-values show `< 0.001` when small, Â three decimals so that it
//! can be compared with `super` = 0.333 at a glance.

use super::frame::Frame;
use super::text::{pad, trim_end, Align};
use super::units::{self, Scale};
use crate::analysis::Analysis;
use crate::stats::{
    IdenticalReason, Method, RankedEntry, Ranking, Threshold, Verdict, MIN_VALUES_FOR_INFERENCE,
};

const LABEL: usize = 22;
const VALUE: usize = 26;

/// The settings legend, as a frame.
pub fn legend(analysis: &Analysis<'_>) -> Frame {
    let s = &analysis.settings;
    let r = &analysis.ranking;
    // A relative threshold takes a second line for its value in µs.
    let amount = |a: Threshold, resolved: f64| match a {
        Threshold::Absolute(us) => (units::time(us), None),
        Threshold::Percent(p) => (
            format!("{}% of best median", units::plain(p)),
            Some(format!("(= {})", units::time(resolved))),
        ),
    };
    let rows = [
        (
            "Minimum effect size (H.L. median shift)",
            "effect",
            amount(s.effect, r.effect),
        ),
        (
            "Significance level, α",
            "alpha",
            (units::plain(s.alpha), None),
        ),
        (
            "C.I. ± ε contains zero",
            "epsilon",
            amount(s.epsilon, r.epsilon),
        ),
        (
            "Probability of superiority",
            "super",
            (units::plain(s.superiority), None),
        ),
    ];
    let mut f = Frame::new(76);
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

/// Why a command counts as identical to the best, in a few words: the
/// threshold it met. `-E` prints this beside the statistic that caused it,
/// and the markup exports ([`crate::export::document`]) use the same words,
/// followed by the observed value.
pub fn reason(r: IdenticalReason, ranking: &Ranking) -> String {
    match r {
        IdenticalReason::NotSignificant => {
            format!("Non-signif. (α = {})", units::plain(ranking.settings.alpha))
        }
        IdenticalReason::EffectTooSmall => {
            format!("Effect size < {}", units::time(ranking.effect))
        }
        IdenticalReason::CiContainsZero => {
            format!("CI ± {} contains 0", units::time(ranking.epsilon))
        }
        IdenticalReason::HighSuperiority => format!(
            "Pr. faster obv. > {}",
            units::percent(ranking.settings.superiority)
        ),
    }
}

/// The detail lines of one ranked command (none for the best).
pub fn details(entry: &RankedEntry, ranking: &Ranking) -> Vec<String> {
    let reasons: &[IdenticalReason] = match &entry.verdict {
        Verdict::Identical { reasons } => reasons,
        _ => &[],
    };
    let flag = |r: IdenticalReason| reasons.contains(&r).then(|| reason(r, ranking));
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
    let mw = &c.mann_whitney;
    lines.push(line(
        "Timed observations",
        &format!("N = {}", entry.n),
        None,
    ));
    lines.push(line(
        "Mann-Whitney",
        &format!("W = {}  U = {}", statistic(mw.w), statistic(mw.u)),
        None,
    ));
    lines.push(line(
        "p-value (adjusted)",
        &format!("{}  ({})", p_is(mw.p_value), units::p_value(c.p_adjusted)),
        flag(IdenticalReason::NotSignificant),
    ));
    let methods = if mw.method == c.interval.method {
        method(mw.method).to_owned()
    } else {
        format!("{} p, {} CI", method(mw.method), method(c.interval.method))
    };
    lines.push(line("Method", &methods, None));
    lines.push(line(
        "Hodges-Lehmann",
        &format!("Δ = {}", units::time(c.shift)),
        flag(IdenticalReason::EffectTooSmall),
    ));
    lines.push(line(
        "Confidence interval",
        &interval(
            c.interval.low,
            c.interval.high,
            c.interval.achieved_confidence,
        ),
        flag(IdenticalReason::CiContainsZero),
    ));
    lines.push(line(
        "Prob. of superiority",
        &format!("Â = {}", units::fixed(c.superiority, 3)),
        flag(IdenticalReason::HighSuperiority),
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

/// `95.47% (388, 510) μs`: the achieved confidence and both ends in one
/// unit, with fewer decimals if needed to fit the value column.
fn interval(low: f64, high: f64, confidence: f64) -> String {
    let scale = Scale::time(low.abs().max(high.abs()));
    let confidence = format!("{}%", units::fixed(confidence * 100.0, 2));
    let text = |s: Scale| {
        format!(
            "{confidence} ({}, {}) {}",
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
    fn interval_fits_its_column() {
        assert_eq!(interval(388.0, 510.0, 0.9547), "95.47% (388, 510) μs");
        assert_eq!(interval(-1200.0, 3400.0, 0.95), "95.00% (-1.20, 3.40) ms");
        assert_eq!(
            interval(-999_000.0, 998_000.0, 0.95),
            "95.00% (-999.0, 998.0) ms"
        );
    }

    #[test]
    fn detail_lines_align_their_marks() {
        let l = line(
            "Hodges-Lehmann",
            "Δ = 1.00 ms",
            Some("Effect size < 500 μs".into()),
        );
        assert_eq!(
            l,
            "    Hodges-Lehmann         Δ = 1.00 ms                ✗ Effect size < 500 μs"
        );
        assert_eq!(
            line("Method", "exact", None),
            "    Method                 exact"
        );
    }
}

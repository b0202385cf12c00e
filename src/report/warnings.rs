//! Warnings: what the user should know before trusting the figures.
//!
//! From [`Analysis::warnings`], at most two lines per experiment after the
//! reports, on standard error (seen, and never mixed into an export on
//! standard output): each finding says what happened and what to do, in
//! order of weight — a change of speed that may have made a verdict
//! (without random rounds), a command that changed against the others, a
//! cold first run, commands that mostly wait while CPU time is ranked.
//! What does not fit in two lines is counted and left to `-E` and the
//! JSON, which list every finding in full, details included (a changed
//! best case, one command's own trend: [`Warning::printed`]).

use std::io::{self, Write};

use super::units::{self, Scale};
use crate::analysis::{Analysis, Explained, Warning};

/// What the ranking's header says of an analysis without complete
/// rounds: its verdicts compare runs made at different times.
pub const UNPAIRED: &str =
    "independent samples (verdicts assume the machine's speed did not change)";

/// The most lines the warnings take after the reports.
pub const MAX_LINES: usize = 2;

/// Writes the printed warnings of `analysis` in at most [`MAX_LINES`]
/// lines of `width` columns; with `all` (`-E`), every warning in full,
/// details included.
pub fn write(
    out: &mut dyn Write,
    analysis: &Analysis<'_>,
    width: usize,
    all: bool,
) -> io::Result<()> {
    let lines = if all {
        (analysis.warnings().iter())
            .flat_map(|w| super::text::continued(&text(analysis, w), width))
            .collect()
    } else {
        lines(analysis, width)
    };
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The lines [`write`](fn@write) prints.
pub fn lines(analysis: &Analysis<'_>, width: usize) -> Vec<String> {
    let printed: Vec<Warning> = (analysis.warnings().into_iter())
        .filter(Warning::printed)
        .collect();
    let wrap = |s: &str| super::text::continued(s, width);
    let full: Vec<Vec<String>> = printed.iter().map(|w| wrap(&text(analysis, w))).collect();
    if full.iter().map(Vec::len).sum::<usize>() <= MAX_LINES {
        return full.into_iter().flatten().collect();
    }
    let short: Vec<Vec<String>> = printed.iter().map(|w| wrap(&short(analysis, w))).collect();
    let rest = printed.len() - 1;
    let also = |n: usize| {
        format!(
            "Also {n} more {}: see -E or the JSON export.",
            if n == 1 { "warning" } else { "warnings" }
        )
    };
    let mut out = if full[0].len() <= MAX_LINES && (rest == 0 || full[0].len() < MAX_LINES) {
        full[0].clone()
    } else {
        short[0].clone()
    };
    if out.len() < MAX_LINES && rest > 0 {
        if rest == 1 && short[1].len() == 1 {
            out.extend(short[1].iter().cloned());
        } else {
            out.extend(wrap(&also(rest)).into_iter().take(1));
        }
    }
    out.truncate(MAX_LINES.max(1));
    out
}

/// Several commands in a sentence: one by its number and label, up to
/// three by number, more counted (3,000 commands would make one sentence of
/// 80 lines).
pub(crate) fn commands(analysis: &Analysis<'_>, list: &[usize]) -> String {
    let numbers: Vec<String> = list.iter().map(|&i| (i + 1).to_string()).collect();
    match numbers.as_slice() {
        [_] => command(analysis, list[0]),
        [init @ .., last] if numbers.len() <= 3 => {
            format!("commands {} and {last}", init.join(", "))
        }
        _ => format!(
            "{} of the {} commands",
            numbers.len(),
            analysis.dataset.commands.len()
        ),
    }
}

/// `+4.1 %`: a relative change (0.041) as a signed percentage.
fn signed(fraction: f64) -> String {
    units::change(1.0 + fraction)
}

/// `command 2 (ls -l)`.
pub(crate) fn command(analysis: &Analysis<'_>, index: usize) -> String {
    match analysis.dataset.commands.get(index) {
        Some(c) => format!("command {} ({})", index + 1, super::label(c)),
        None => format!("command {}", index + 1),
    }
}

/// The warning of a drift that random rounds would have cancelled: what
/// it could have made look slower, or which commands changed speed.
fn order_drift(
    analysis: &Analysis<'_>,
    drift: Option<(f64, f64, f64)>,
    explained: Option<&Explained>,
    changed: &[usize],
) -> String {
    if let Some(x) = explained {
        let over = match drift {
            Some((d, lo, hi)) => format!(
                "by {} [{}, {}] over the experiment",
                signed(d),
                signed(lo),
                signed(hi)
            ),
            None => "during the experiment".to_owned(),
        };
        format!(
            "Warning: without random rounds, the machine's speed may have drifted {over}: enough to make {} look {} slower than command {}; use --order random.",
            command(analysis, x.slower),
            units::percent(x.difference),
            x.than + 1
        )
    } else {
        let by: Vec<String> = (changed.iter())
            .filter_map(|&i| analysis.diagnostics.get(i)?.halves)
            .filter(|h| h.early_median != 0.0)
            .map(|h| units::change(1.0 + h.shift / h.early_median.abs()))
            .collect();
        let got = match by.as_slice() {
            _ if by.len() != changed.len() || by.len() > 3 => String::new(),
            [one] => format!(" by {one}"),
            [init @ .., last] => format!(" by {} and {last}", init.join(", ")),
            [] => String::new(),
        };
        // Alone, a command has no order to change and no verdict to
        // sway: what the change does is make its median a mixture.
        let consequence = if analysis.dataset.commands.len() == 1 {
            "its median mixes both speeds."
        } else {
            "verdicts may show it: use --order random."
        };
        format!(
            "Warning: {} changed speed{got} from the first half of {} runs to the second; {consequence}",
            commands(analysis, changed),
            if changed.len() == 1 { "its" } else { "their" }
        )
    }
}

/// The line for one warning.
pub fn text(analysis: &Analysis<'_>, w: &Warning) -> String {
    let metric = analysis.settings.metric.label();
    match w {
        Warning::BestCaseChanged {
            command: i,
            distance,
            max_distance,
        } => {
            let why = match distance {
                Some(d) => format!(
                    "the means of the fastest runs of its two halves are {} standard deviations apart, more than {}",
                    units::fixed(*d, 1),
                    units::plain(*max_distance)
                ),
                None => "the fastest runs of each half are all equal, and differ between the halves"
                    .to_owned(),
            };
            format!(
                "Warning: the best-case performance of {} changed during the experiment ({metric}: {why}).",
                command(analysis, *i)
            )
        }
        Warning::WallDominates { commands: list } => {
            let (who, verb, their) = if list.len() == 1 {
                (command(analysis, list[0]), "mostly waits", "its")
            } else {
                (commands(analysis, list), "mostly wait", "their")
            };
            format!(
                "Note: {who} {verb} (over half {their} wall time waiting, not for a CPU); ranked by {metric}: --metric wall ranks by elapsed time."
            )
        }
        Warning::FirstRunSlow { commands: list } => first_run_slow(analysis, list),
        Warning::RelativeChange(c) => {
            let against = match c.against {
                Some(j) => format!("command {}", j + 1),
                None => "the others".to_owned(),
            };
            format!(
                "Warning: {} ran {} {} against {against} from round {} of {} on (so it changed, not the machine); --prepare can reset its state.",
                command(analysis, c.command),
                units::percent(c.change.abs()),
                if c.change > 0.0 { "slower" } else { "faster" },
                c.from_round,
                c.rounds,
            )
        }
        Warning::OrderDrift {
            drift,
            explained,
            changed,
        } => order_drift(analysis, *drift, explained.as_ref(), changed),
        Warning::SpeedChanged {
            command: i,
            slower,
            tau,
            p_adjusted,
            halves,
        } => {
            let p = units::p_value(*p_adjusted);
            let p = if p.starts_with('<') {
                format!("p {p}")
            } else {
                format!("p = {p}")
            };
            let scale = Scale::choose(analysis.settings.metric.unit(), halves.shift.abs());
            let relative = if halves.early_median != 0.0 {
                format!(
                    " ({})",
                    units::percent(halves.shift.abs() / halves.early_median.abs())
                )
            } else {
                String::new()
            };
            format!(
                "Warning: {} got {} during the experiment: its later half took {}{relative} {} than its earlier half ({metric}, Hodges-Lehmann shift; trend with run order: Mann-Kendall τ = {}, Holm-adjusted {p}). The machine's speed may have changed.",
                command(analysis, *i),
                if *slower { "slower" } else { "faster" },
                scale.compact(halves.shift.abs()),
                if *slower { "more" } else { "less" },
                units::fixed(*tau, 2),
            )
        }
    }
}

/// The cold first runs: each command's excess over its median, listed up
/// to three, else the largest.
fn first_run_slow(analysis: &Analysis<'_>, list: &[(usize, f64)]) -> String {
    let indices: Vec<usize> = list.iter().map(|c| c.0).collect();
    let by: Vec<String> = list.iter().map(|c| units::percent(c.1)).collect();
    let (runs, took, medians) = if list.len() == 1 {
        ("run", by[0].clone(), "its median")
    } else if list.len() <= 3 {
        let (init, last) = by.split_at(by.len() - 1);
        (
            "runs",
            format!("{} and {}", init.join(", "), last[0]),
            "their medians",
        )
    } else {
        let most = list.iter().map(|c| c.1).fold(0.0, f64::max);
        (
            "runs",
            format!("up to {}", units::percent(most)),
            "their medians",
        )
    };
    format!(
        "Warning: the first {runs} of {} took {took} longer than {medians}: a cold start; more --warmup runs leave such runs out.",
        commands(analysis, &indices)
    )
}

/// The one-line form of a warning, when its full text does not fit.
pub fn short(analysis: &Analysis<'_>, w: &Warning) -> String {
    match w {
        Warning::WallDominates { commands } if commands.len() == 1 => {
            "Note: a command mostly waits; to rank by elapsed time use --metric wall.".to_owned()
        }
        Warning::WallDominates { .. } => {
            "Note: some commands mostly wait; to rank by elapsed time use --metric wall.".to_owned()
        }
        Warning::FirstRunSlow { .. } => {
            "Warning: slow first runs (cold starts); more --warmup runs leave them out.".to_owned()
        }
        Warning::RelativeChange(c) => format!(
            "Warning: command {} ran {} {} from round {} on; see -E.",
            c.command + 1,
            units::percent(c.change.abs()),
            if c.change > 0.0 { "slower" } else { "faster" },
            c.from_round
        ),
        Warning::OrderDrift { .. } if analysis.dataset.commands.len() == 1 => {
            "Warning: the speed changed during the runs; the median mixes both (see -E).".to_owned()
        }
        Warning::OrderDrift { .. } => {
            "Warning: the speed changed during the runs; use --order random (see -E).".to_owned()
        }
        other => text(analysis, other),
    }
}

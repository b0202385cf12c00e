//! The two lines about what the commands spend, shared by the terminal's
//! ranking, the HTML page and the JSON: which metric is ranked and why
//! (when it was chosen from the data), and a busy machine named with what
//! it means for the wall clock.

use super::units;
use super::warnings::{command, commands};
use crate::analysis::{Analysis, Choice, MetricFrom, Why};
use crate::data::InputFormat;

/// Which metric is ranked and why, in one sentence, when it was chosen
/// from the data (`--metric` not given); `None` when it was given.
pub fn metric_line(analysis: &Analysis<'_>) -> Option<String> {
    let MetricFrom::Chosen(choice) = &analysis.settings.metric_from else {
        return None;
    };
    Some(choice_text(analysis, choice))
}

fn choice_text(analysis: &Analysis<'_>, choice: &Choice) -> String {
    // Waiting for a CPU counts as waiting where the data lack the delay.
    let undivided = |open: &str, close: &str| {
        if choice.delay_known {
            String::new()
        } else {
            format!("{open}the data hold no run-queue delay, so waiting for a CPU counts as waiting{close}")
        }
    };
    match &choice.why {
        Why::OnCpu { waits, tick } => {
            let ticks = match tick {
                Some(t) => format!(
                    "; CPU times are whole {} ticks, fine enough for these runs",
                    units::time(*t as f64)
                ),
                None => String::new(),
            };
            format!(
                "Ranked by CPU time: the commands spend their time on a CPU or waiting for one \
                 (at most {} of a run's wall time waiting for anything else){}{ticks}; \
                 --metric wall ranks elapsed time.",
                units::percent(waits.max(0.0)),
                undivided("; ", "")
            )
        }
        Why::Waits {
            commands: list,
            share,
        } => {
            let (who, verb, their) = if list.len() == 1 {
                (command(analysis, list[0]), "spends", "its")
            } else {
                (commands(analysis, list), "spend up to", "their")
            };
            format!(
                "Ranked by wall-clock time: {who} {verb} {} of {their} wall time waiting for \
                 something other than a CPU, such as a timer, I/O or a child{}; \
                 --metric cpu ranks CPU time.",
                units::percent(*share),
                undivided(" (", ")")
            )
        }
        Why::CoarseCpu {
            command: i,
            tick,
            median,
        } => {
            let coarse = if *tick == 0 {
                "every CPU time is 0".to_owned()
            } else {
                format!(
                    "CPU times are whole {} ticks, too coarse for a median CPU time of {}",
                    units::time(*tick as f64),
                    units::time(*median)
                )
            };
            format!(
                "Ranked by wall-clock time: for {} {coarse}; --metric cpu ranks CPU time anyway.",
                command(analysis, *i)
            )
        }
        Why::NoCpu {
            commands: list,
            source,
        } => {
            let why = match source {
                Some(InputFormat::HyperfineJson1) => " (Hyperfine 1.x's JSON keeps only its mean)",
                Some(InputFormat::HyperfineJson2) => {
                    " (it is read from Hyperfine 2.0's time_user and time_system, which they lack)"
                }
                _ => "",
            };
            let files = files_of(analysis, list);
            let (who, has) = if list.len() == analysis.dataset.commands.len() {
                ("the data".to_owned(), "hold")
            } else if files.is_empty() {
                (commands(analysis, list), "have")
            } else {
                let has = if files.len() == 1 { "holds" } else { "hold" };
                (files.join(", "), has)
            };
            format!("Ranked by wall-clock time: {who} {has} no CPU time per run{why}.")
        }
        Why::NoWall => "Ranked by CPU time: the data hold no wall-clock times.".to_owned(),
    }
}

/// The tags of the files `commands` came from, each once, when the data
/// came from files.
fn files_of(analysis: &Analysis<'_>, list: &[usize]) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for &i in list {
        let Some(c) = analysis.dataset.commands.get(i) else {
            continue;
        };
        if let Some(s) = analysis.dataset.sources.get(c.source) {
            if !tags.contains(&s.tag) {
                tags.push(s.tag.clone());
            }
        }
    }
    tags
}

/// The busy machine named, with what it means for the metric ranked, when
/// the runs spent at least [`crate::analysis::BUSY`] of their wall time
/// waiting for a CPU.
pub fn busy_line(analysis: &Analysis<'_>) -> Option<String> {
    let share = analysis.spending.busy()?;
    let consequence = if analysis.settings.metric == crate::data::Metric::WALL {
        "wall-clock time is ranked and holds that wait (--metric runq shows it per run)"
    } else {
        "CPU time is ranked, wall clock would mislead"
    };
    Some(format!(
        "Runs waited {} of their wall time for a CPU: the machine was busy; {consequence}.",
        units::percent(share)
    ))
}

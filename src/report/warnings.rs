//! Warnings: what the user should know before trusting the figures.
//!
//! One plain line per finding, naming the command, from
//! [`Analysis::warnings`]: commands that mostly wait while CPU time is
//! ranked (one line for all of them), the best-case performance changed
//! between the halves of the experiment, or the command's speed trended
//! with run order. Both programs print them on standard error after the reports,
//! so they are seen, and never mixed into an export on standard output.

use std::io::{self, Write};

use super::units::{self, Scale};
use crate::analysis::{Analysis, Warning};

/// Writes every warning of `analysis`, one line each.
pub fn write(out: &mut dyn Write, analysis: &Analysis<'_>, width: usize) -> io::Result<()> {
    for w in analysis.warnings() {
        // Broken at spaces by the report, never by the terminal.
        for line in super::text::continued(&text(analysis, &w), width) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// `command 2 (ls -l)`.
fn command(analysis: &Analysis<'_>, index: usize) -> String {
    match analysis.dataset.commands.get(index) {
        Some(c) => format!("command {} ({})", index + 1, super::label(c)),
        None => format!("command {}", index + 1),
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
        Warning::WallDominates { commands } => {
            let names: Vec<String> = commands.iter().map(|&i| command(analysis, i)).collect();
            let subject = match names.as_slice() {
                [one] => format!("time of {one} is"),
                // Named up to three; more are counted (3,000 commands had
                // made one sentence of 80 lines).
                [init @ .., last] if names.len() <= 3 => {
                    format!("times of {} and {last} are", init.join(", "))
                }
                _ => format!(
                    "times of {} of the {} commands are",
                    names.len(),
                    analysis.dataset.commands.len()
                ),
            };
            format!(
                "Note: the median wall-clock {subject} more than twice the CPU time (waiting: sleep or I/O); the ranking uses {metric}: use --metric wall to rank by elapsed time."
            )
        }
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

//! What the figures draw, taken once from an [`Analysis`]: per command, the
//! values of the ranked metric in execution order, their sorted copy, each
//! run's position in the experiment and whether it failed.
//!
//! This is the only place that reads the dataset, so a change in how runs
//! are stored touches nothing else in `figure`.

use crate::analysis::Analysis;
use crate::data::{Metric, Unit};
use crate::report::units::Scale;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ok,
    /// Non-zero exit or a signal.
    Failed,
    /// Killed by `--timeout`.
    TimedOut,
}

/// The runs of one command.
#[derive(Clone, Debug)]
pub struct Series {
    /// The command's label as reports show it.
    pub label: String,
    /// The metric's values in execution order.
    pub values: Vec<f64>,
    /// The same values, ascending.
    pub sorted: Vec<f64>,
    /// Each run's position (1-based) in the execution order of the whole
    /// experiment, or within the command when the data has no sequence
    /// numbers (files from C BestGuess).
    pub positions: Vec<u64>,
    pub status: Vec<Status>,
}

/// Everything the figures need.
pub struct Input<'a> {
    pub analysis: &'a Analysis<'a>,
    /// The metric drawn: the one the ranking compares.
    pub metric: Metric,
    pub series: Vec<Series>,
    /// Positions are the global execution order (else per command).
    pub global_order: bool,
    /// Display unit for the metric (chosen from the largest value).
    pub scale: Scale,
}

impl<'a> Input<'a> {
    pub fn new(analysis: &'a Analysis<'a>) -> Input<'a> {
        let metric = analysis.settings.metric;
        let global_order = analysis
            .dataset
            .commands
            .iter()
            .all(|c| (0..c.len()).all(|i| c.sequence(i).is_some()));
        let mut largest: f64 = 0.0;
        let series = analysis
            .dataset
            .commands
            .iter()
            .map(|c| {
                // The runs that have the metric (all of them, as a rule).
                let measured: Vec<(usize, f64)> = (0..c.len())
                    .filter_map(|i| c.value(i, metric).map(|v| (i, v.as_f64())))
                    .collect();
                let values: Vec<f64> = measured.iter().map(|&(_, v)| v).collect();
                let mut sorted = values.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                if let Some(&m) = sorted.last() {
                    if m.is_finite() {
                        largest = largest.max(m.abs());
                    }
                }
                let positions = measured
                    .iter()
                    .map(|&(i, _)| match c.sequence(i) {
                        Some(s) if global_order => s,
                        _ => i as u64 + 1,
                    })
                    .collect();
                let status = measured
                    .iter()
                    .map(|&(i, _)| {
                        if c.timed_out(i) {
                            Status::TimedOut
                        } else if c.run_failed(i) {
                            Status::Failed
                        } else {
                            Status::Ok
                        }
                    })
                    .collect();
                Series {
                    label: crate::report::text::clean(&c.label()).trim_end().to_owned(),
                    values,
                    sorted,
                    positions,
                    status,
                }
            })
            .collect();
        Input {
            analysis,
            metric,
            series,
            global_order,
            scale: Scale::choose(metric.unit(), largest),
        }
    }

    /// The metric's name and display unit, e.g. `Total CPU time (ms)`,
    /// `Context switches (thousands)`: what the axis's numbers are in.
    pub fn value_label(&self) -> String {
        let unit = match self.scale.symbol() {
            "" | "ct" => match self.metric.unit() {
                Unit::Count => "count",
                _ => "",
            },
            "K" => "thousands",
            "M" => "millions",
            "G" => "billions",
            symbol => symbol,
        };
        if unit.is_empty() {
            self.metric.label().to_owned()
        } else {
            format!("{} ({unit})", self.metric.label())
        }
    }

    /// The metric's name inside a sentence: `total CPU time` (the first
    /// letter lowered unless the word is an acronym).
    pub fn metric_name(&self) -> String {
        let label = self.metric.label();
        let mut chars = label.chars();
        match (chars.next(), chars.next()) {
            (Some(a), Some(b)) if !b.is_uppercase() => a
                .to_lowercase()
                .chain(label[a.len_utf8()..].chars())
                .collect(),
            _ => label.to_owned(),
        }
    }

    /// Total number of runs.
    pub fn runs(&self) -> usize {
        self.series.iter().map(|s| s.values.len()).sum()
    }
}

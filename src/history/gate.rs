//! The regression gate held against history: each command of a new
//! experiment is compared with its own benchmark (same command name,
//! metric and machine) since the benchmark's last change point.
//!
//! With m experiments at the current level, the new experiment's median
//! is one more draw from the same spread of experiment medians if the
//! build did not change, so under that hypothesis its rank among the
//! m + 1 is uniform (the experiments are exchangeable). The lower bound
//! of new / history is the new median over the (j + 1)-th largest
//! historical median, j = ⌊γ(m + 1)⌋ − 1: it lies above the truth with
//! chance at most γ, a distribution-free prediction bound that counts
//! what varies between experiments (a machine's state from day to day),
//! not only what varies within one. γ is α split over the commands
//! compared (Bonferroni), as in the baseline gate (`crate::gate`), so
//! m ≥ ⌈k/α⌉ − 1 experiments are needed for k commands.
//!
//! With fewer (but some) experiments since the change point, the gate
//! says so and falls back to what it has: the runs of those experiments
//! pooled, compared with the new runs by the ratio of medians and its
//! order-statistic bounds ([`crate::stats::changepoint::size`]), which counts
//! the variation within experiments only. With none, the command is not
//! gated, and the report says that too.

use std::io::{self, Write};

use super::record::metric_name;
use super::series::{median_interval, Benchmark, History};
use super::store::StoredCommand;
use crate::data::{Dataset, Metric};
use crate::report::units::Scale;
use crate::stats::changepoint::size;
use crate::stats::changepoint::Settings;
use crate::stats::Scale as ContrastScale;

/// How a command was compared.
#[derive(Clone, Debug, PartialEq)]
pub enum Basis {
    /// Against the medians of `experiments` experiments since the last
    /// change point (`since`: its first commit after, if there is one).
    Experiments {
        experiments: usize,
        since: Option<String>,
    },
    /// Too few experiments for that: against their runs pooled.
    Runs { experiments: usize, needed: usize },
    /// No history of this command on this machine.
    Nothing,
}

/// The verdict on one command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Slower by more than the margin: the lower bound is above it.
    Slower,
    /// Not shown to be slower by more than the margin.
    Passed,
    /// Some new run failed: the times vouch for nothing.
    FailedRuns,
    /// Not compared (no history, or no values).
    NotGated,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Slower => "slower",
            Verdict::Passed => "passed",
            Verdict::FailedRuns => "failed runs",
            Verdict::NotGated => "not gated",
        }
    }
}

/// One command's comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub command: String,
    pub basis: Basis,
    pub median_now: Option<f64>,
    pub history_median: Option<f64>,
    /// new / history, with its one-sided lower bound.
    pub ratio: Option<(f64, f64)>,
    pub verdict: Verdict,
}

/// The whole gate.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub metric: Metric,
    pub margin: f64,
    pub alpha: f64,
    pub rows: Vec<Row>,
}

impl Report {
    pub fn failed(&self) -> bool {
        self.rows
            .iter()
            .any(|r| matches!(r.verdict, Verdict::Slower | Verdict::FailedRuns))
    }
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0
}

/// Compares each command of `dataset` on `metric` with its history in
/// `rows` (already limited to this machine). `margin` is the percentage
/// of `--fail-if-slower`.
pub fn compare(
    rows: &[StoredCommand],
    dataset: &Dataset,
    metric: Metric,
    alpha: f64,
    margin: f64,
) -> Result<Report, super::StoreError> {
    let settings = Settings {
        interval_alpha: alpha,
        ..Settings::default()
    };
    let history = History::build(rows, Some(&metric_name(metric)), &settings).or_else(|e| {
        // A store without this metric at all has no history of it.
        if rows.is_empty() || e.0.starts_with("--metric") {
            Ok(History::default())
        } else {
            Err(e)
        }
    })?;
    let k = dataset.commands.len().max(1);
    let gamma = alpha / k as f64;
    let needed = ((k as f64 / alpha).ceil() as usize)
        .saturating_sub(1)
        .max(1);
    let limit = 1.0 + margin / 100.0;
    let mut out = Vec::new();
    for c in &dataset.commands {
        let name = c.base_label().into_owned();
        let mut now = c.metric(metric);
        now.sort_by(f64::total_cmp);
        let bench: Option<&Benchmark> = history
            .benchmarks
            .iter()
            .find(|b| b.command == name && b.metric == metric);
        let level = bench.map_or(&[][..], |b| b.current_level());
        let mut row = Row {
            command: name,
            basis: Basis::Nothing,
            median_now: (!now.is_empty()).then(|| median(&now)),
            history_median: None,
            ratio: None,
            verdict: Verdict::NotGated,
        };
        if now.is_empty() || level.is_empty() {
            out.push(row);
            continue;
        }
        let m = level.len();
        let mut medians: Vec<f64> = level.iter().map(|p| p.median).collect();
        medians.sort_by(f64::total_cmp);
        let new = median(&now);
        if m >= needed {
            let j = ((gamma * (m + 1) as f64).floor() as usize).max(1) - 1;
            let upper = medians[m - 1 - j];
            let centre = median(&medians);
            row.history_median = Some(centre);
            if upper > 0.0 && centre > 0.0 {
                row.ratio = Some((new / centre, new / upper));
            }
            row.basis = Basis::Experiments {
                experiments: m,
                since: bench
                    .and_then(|b| b.changes.last())
                    .and_then(|_| level[0].experiment.commit.clone()),
            };
        } else {
            let mut pooled: Vec<f64> = Vec::new();
            for p in level {
                pooled.extend(pooled_runs(rows, p, metric));
            }
            pooled.sort_by(f64::total_cmp);
            if !pooled.is_empty() {
                row.history_median = Some(median_interval(&pooled, gamma).0);
                if let Some(r) =
                    size(&pooled, &now, 2.0 * gamma).filter(|r| r.scale == ContrastScale::Ratio)
                {
                    row.ratio = Some((r.estimate, r.low));
                }
            }
            row.basis = Basis::Runs {
                experiments: m,
                needed,
            };
        }
        row.verdict = if c.failed() > 0 {
            Verdict::FailedRuns
        } else if row.ratio.is_some_and(|(_, low)| low > limit) {
            Verdict::Slower
        } else if row.ratio.is_some() {
            Verdict::Passed
        } else {
            Verdict::NotGated
        };
        out.push(row);
    }
    Ok(Report {
        metric,
        margin,
        alpha,
        rows: out,
    })
}

/// The runs of `metric` of the stored command behind point `p`.
fn pooled_runs(rows: &[StoredCommand], p: &super::series::Point, metric: Metric) -> Vec<f64> {
    let mut catalogue = crate::data::Catalogue::new();
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| r.experiment.id == p.experiment.id) {
        if let Ok(runs) = super::Runs::unpack(&r.metrics, &r.data, &mut catalogue) {
            // The catalogue is new: a registered metric has a new number,
            // so it is found by its name.
            let m = catalogue.find(metric.name()).unwrap_or(metric);
            out.extend(runs.values(m));
        }
    }
    out
}

/// The gate's table, and a line per command that was not compared as
/// asked.
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let max = report
        .rows
        .iter()
        .filter_map(|r| r.median_now)
        .fold(0.0, |a: f64, b| a.max(b.abs()));
    let scale = Scale::choose(report.metric.unit(), max);
    writeln!(
        out,
        "History gate: {} against each command's history since its last change point; fails above +{}% (one-sided {:.0} % bounds).",
        metric_name(report.metric),
        report.margin,
        (1.0 - report.alpha) * 100.0
    )?;
    for r in &report.rows {
        let ratio = match r.ratio {
            Some((est, low)) => format!("×{est:.3} (lower bound ×{low:.3})"),
            None => "-".to_owned(),
        };
        let now = r.median_now.map_or("-".to_owned(), |m| {
            format!("{} {}", scale.number(m), scale.symbol())
        });
        let basis = match &r.basis {
            Basis::Experiments { experiments, .. } => {
                format!("against {experiments} experiments")
            }
            Basis::Runs {
                experiments,
                needed,
            } => format!(
                "too little history ({experiments} experiment{} since the last change point, {needed} needed to count the variation between experiments): against their runs",
                if *experiments == 1 { "" } else { "s" }
            ),
            Basis::Nothing => {
                "no history of this command on this machine: not gated".to_owned()
            }
        };
        writeln!(
            out,
            "  {}: median {now}, {ratio}: {}; {basis}",
            r.command,
            r.verdict.word()
        )?;
    }
    Ok(())
}

//! From stored experiments to benchmarks: a benchmark is one command (by
//! name) × one metric × one machine, and its series holds one point per
//! experiment, in commit order — the experiment's median of that metric
//! with the median's distribution-free interval from its own runs — and
//! the change points found between them ([`crate::stats::changepoint`]).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::record::{metric_name, Runs};
use super::store::{StoreError, StoredCommand, StoredExperiment};
use crate::data::{Catalogue, Metric, Unit};
use crate::stats::changepoint::{self, ChangePoint, Settings};
use crate::stats::{Contrast, MedianBounds};

/// One experiment's point of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub experiment: Rc<StoredExperiment>,
    pub median: f64,
    /// The median's bounds from the experiment's runs (order statistics),
    /// each missing at most α/2 when `reached`.
    pub ci_low: f64,
    pub ci_high: f64,
    pub reached: bool,
    /// Runs with a value of the metric.
    pub runs: usize,
    /// Runs that failed (all metrics).
    pub failed: usize,
}

/// A change between two experiments.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Indices into the points: the last experiment before the change,
    /// and the first after it.
    pub before: usize,
    pub after: usize,
    pub p_value: f64,
    pub level: f64,
    /// after / before (or the difference), with bounds.
    pub size: Option<Contrast>,
}

/// One benchmark's history.
#[derive(Clone, Debug, PartialEq)]
pub struct Benchmark {
    pub command: String,
    pub metric: Metric,
    pub machine: String,
    pub machine_description: String,
    pub points: Vec<Point>,
    pub changes: Vec<Change>,
}

impl Benchmark {
    /// The metric's name (`cpu`, `wall`, a custom metric's).
    pub fn metric_name(&self) -> String {
        metric_name(self.metric)
    }

    pub fn unit(&self) -> Unit {
        self.metric.unit()
    }

    /// The points since the last change point (all of them without one).
    pub fn current_level(&self) -> &[Point] {
        let from = self.changes.last().map_or(0, |c| c.after);
        &self.points[from..]
    }
}

/// Every benchmark a load of the store gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    pub benchmarks: Vec<Benchmark>,
    /// 1 − the confidence of every interval.
    pub alpha: f64,
    /// The chance of a false change point in a series without one, at
    /// most.
    pub change_alpha: f64,
    /// Experiments read.
    pub experiments: usize,
}

/// The median of `sorted` with its order-statistic bounds, each missing
/// at most `gamma` (`reached`), else the extremes.
pub fn median_interval(sorted: &[f64], gamma: f64) -> (f64, f64, f64, bool) {
    let n = sorted.len();
    match MedianBounds::of(sorted, gamma) {
        Some(b) => (b.median, b.low, b.high, true),
        None => (
            (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0,
            sorted[0],
            sorted[n - 1],
            false,
        ),
    }
}

/// The metric `name` names among those stored, as `--metric` resolves it.
pub fn resolve(name: &str, catalogue: &Catalogue) -> Result<Metric, StoreError> {
    crate::analysis::resolve_metric(name, catalogue)
        .map_err(|e| StoreError(format!("--metric: {e}")))
}

type Key = (String, String, Metric);

/// A benchmark's experiment being read: the experiment, the metric's
/// values, the failed runs.
type Pending = (Rc<StoredExperiment>, Vec<f64>, usize);

impl History {
    /// The benchmarks of `rows` (as the store returns them, in commit
    /// order), for `metric` alone when given (a name as `--metric` takes
    /// it), with their change points.
    pub fn build(
        rows: &[StoredCommand],
        metric: Option<&str>,
        settings: &Settings,
    ) -> Result<History, StoreError> {
        let mut catalogue = Catalogue::new();
        // The metrics every row names, registered first, so that a
        // metric asked for by name is known before the runs are unpacked.
        let mut seen = std::collections::HashSet::new();
        for row in rows.iter().filter(|r| seen.insert(r.metrics.as_str())) {
            for name in row.metrics.lines() {
                if catalogue.by_column(name).is_none() {
                    if let Some(def) = crate::data::metric::recognise(name) {
                        let _ = catalogue.register(def);
                    }
                }
            }
        }
        let wanted = metric.map(|m| resolve(m, &catalogue)).transpose()?;
        let gamma = settings.interval_alpha / 2.0;
        let point = |(experiment, mut values, failed): (Rc<StoredExperiment>, Vec<f64>, usize)| {
            values.sort_by(f64::total_cmp);
            let (median, ci_low, ci_high, reached) = median_interval(&values, gamma);
            Point {
                experiment,
                median,
                ci_low,
                ci_high,
                reached,
                runs: values.len(),
                failed,
            }
        };
        // Per benchmark: its finished points, and the experiment being
        // read (whose runs a second command of the same name joins). Each
        // row is unpacked, summarised and dropped: memory holds points,
        // not runs.
        let mut by_key: BTreeMap<Key, (Vec<Point>, Option<Pending>)> = BTreeMap::new();
        let mut experiments = std::collections::HashSet::new();
        for row in rows {
            let runs = Runs::unpack_only(&row.metrics, &row.data, &mut catalogue, wanted).map_err(
                |e| {
                    StoreError(format!(
                        "experiment {} ({}): {e}",
                        row.experiment.id, row.name
                    ))
                },
            )?;
            experiments.insert(row.experiment.id);
            let failed = runs.failed();
            for m in runs.metrics(&catalogue) {
                if wanted.is_some_and(|w| w != m) {
                    continue;
                }
                let values = runs.values(m);
                if values.is_empty() {
                    continue;
                }
                let key = (row.name.clone(), row.experiment.fingerprint.clone(), m);
                let (points, pending) = by_key.entry(key).or_default();
                match pending {
                    Some((e, v, f)) if e.id == row.experiment.id => {
                        v.extend(values);
                        *f += failed;
                    }
                    _ => {
                        if let Some(done) = pending.take() {
                            points.push(point(done));
                        }
                        *pending = Some((row.experiment.clone(), values, failed));
                    }
                }
            }
        }
        let mut benchmarks: Vec<Benchmark> = by_key
            .into_iter()
            .map(|((command, machine, metric), (mut points, pending))| {
                points.extend(pending.map(point));
                let machine_description = points
                    .first()
                    .map(|p| p.experiment.machine.describe())
                    .unwrap_or_default();
                let changes = changes(&points, settings);
                Benchmark {
                    command,
                    metric,
                    machine,
                    machine_description,
                    points,
                    changes,
                }
            })
            .collect();
        benchmarks.sort_by(|a, b| {
            (a.command.as_str(), a.metric.index(), a.machine.as_str()).cmp(&(
                b.command.as_str(),
                b.metric.index(),
                b.machine.as_str(),
            ))
        });
        Ok(History {
            benchmarks,
            alpha: settings.interval_alpha,
            change_alpha: settings.alpha,
            experiments: experiments.len(),
        })
    }
}

/// Whether point `i` starts a new build: its commit differs from the
/// point before (an experiment without a commit is a build of its own).
pub fn new_builds(points: &[Point]) -> Vec<bool> {
    (0..points.len())
        .map(|i| {
            i == 0
                || points[i].experiment.commit.is_none()
                || points[i].experiment.commit != points[i - 1].experiment.commit
        })
        .collect()
}

fn changes(points: &[Point], settings: &Settings) -> Vec<Change> {
    let medians: Vec<f64> = points.iter().map(|p| p.median).collect();
    changepoint::change_points(&medians, &new_builds(points), settings)
        .into_iter()
        .map(|c: ChangePoint| Change {
            before: c.at - 1,
            after: c.at,
            p_value: c.p_value,
            level: c.level,
            size: c.ratio,
        })
        .collect()
}

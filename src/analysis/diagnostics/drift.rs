//! The check across commands for a change of the machine's speed
//! ([`DriftCheck`]): relative changes in complete rounds, a pooled drift
//! that could account for a verdict between commands run apart.

use super::relative::relative_changes;
use super::*;
use crate::data::{CommandRuns, Dataset, Metric};
use crate::stats::{pooled_slope, PooledSlope, Verdict};

/// The confidence of the pooled drift's interval: the check asks whether
/// a drift the runs cannot rule out would account for a verdict, so a
/// wide interval errs towards warning.
pub const DRIFT_CONFIDENCE: f64 = 0.99;

/// A verdict between two commands that a drift of the machine, within
/// what the runs allow, would account for.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The command found slower…
    pub slower: usize,
    /// …than this one.
    pub than: usize,
    /// Its median over the other's, − 1.
    pub difference: f64,
    /// The drift between the two commands' mean times: estimate and the
    /// interval, relative.
    pub drift: (f64, f64, f64),
}

/// The check across commands: does the order of the experiment protect
/// its verdicts from a change of the machine's speed, and if not, did
/// the speed change enough to matter? [`Analysis::drift_check`](crate::analysis::Analysis::drift_check).
#[derive(Clone, Debug, PartialEq)]
pub struct DriftCheck {
    /// Complete rounds: every command's median is of the same mixture of
    /// the machine's states, and a change of its speed affects all alike.
    pub paired: bool,
    /// Without complete rounds, in one experiment: the slope common to
    /// every command's runs (each against its own median) per position
    /// in the run order, at [`DRIFT_CONFIDENCE`], and the span of
    /// positions it is extrapolated over (first run to last).
    pub slope: Option<(PooledSlope, f64)>,
    /// Without complete rounds: a verdict the drift would account for.
    pub explained: Option<Explained>,
    /// Without complete rounds: commands whose own runs changed speed.
    pub changed: Vec<usize>,
    /// With complete rounds: commands whose speed changed against the
    /// others'.
    pub relative: Vec<RelativeChange>,
}

impl DriftCheck {
    /// Whether the experiment warns about a change of speed.
    pub fn warns(&self) -> bool {
        !self.relative.is_empty()
            || (!self.paired && (self.explained.is_some() || !self.changed.is_empty()))
    }

    /// The pooled drift over the whole experiment: estimate, low, high.
    pub fn total_drift(&self) -> Option<(f64, f64, f64)> {
        self.slope
            .map(|(s, span)| (s.slope * span, s.low * span, s.high * span))
    }
}

/// [`Analysis::drift_check`](crate::analysis::Analysis::drift_check).
pub(crate) fn drift_check(
    dataset: &Dataset,
    settings: &crate::analysis::RankingSettings,
    analysis: &crate::analysis::Analysis<'_>,
) -> DriftCheck {
    let metric = settings.metric;
    if let Some(rounds) = crate::analysis::complete_rounds(dataset, metric) {
        return DriftCheck {
            paired: true,
            slope: None,
            explained: None,
            changed: Vec::new(),
            relative: relative_changes(&rounds, settings),
        };
    }
    let changed: Vec<usize> = (analysis.diagnostics.iter().enumerate())
        .filter(|(_, d)| d.drifted)
        .map(|(i, _)| i)
        .collect();
    let mut check = DriftCheck {
        paired: false,
        slope: None,
        explained: None,
        changed,
        relative: Vec::new(),
    };
    let Some(groups) = timed_groups(dataset, metric) else {
        return check;
    };
    let Some(slope) = pooled_slope(&groups, DRIFT_CONFIDENCE) else {
        return check;
    };
    let first = groups
        .iter()
        .flatten()
        .map(|p| p.0)
        .fold(f64::INFINITY, f64::min);
    let last = groups
        .iter()
        .flatten()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max);
    check.slope = Some((slope, last - first));
    let mean_time = |i: usize| -> Option<f64> {
        let g = &groups[i];
        (!g.is_empty()).then(|| g.iter().map(|p| p.0).sum::<f64>() / g.len() as f64)
    };
    let median = |i: usize| {
        analysis.commands[i]
            .metric(metric)
            .map(|s| s.quantiles.median)
    };
    let ranking = &analysis.ranking;
    let Some(reference) = ranking.best().map(|e| e.index) else {
        return check;
    };
    for e in &ranking.entries {
        if !matches!(e.verdict, Verdict::Slower | Verdict::Faster) {
            continue;
        }
        let (slower, than) = if e.verdict == Verdict::Slower {
            (e.index, reference)
        } else {
            (reference, e.index)
        };
        let (Some(ms), Some(mt), Some(ts), Some(tt)) = (
            median(slower),
            median(than),
            mean_time(slower),
            mean_time(than),
        ) else {
            continue;
        };
        if mt <= 0.0 {
            continue;
        }
        let difference = ms / mt - 1.0;
        let gap = ts - tt;
        let (a, b) = (slope.low * gap, slope.high * gap);
        let (low, high) = (a.min(b), a.max(b));
        let e = relative_effect(settings.effect, mt);
        // Some drift in [low, high] leaves a difference within the effect.
        if low <= difference + e && difference - e <= high {
            let better = check
                .explained
                .as_ref()
                .map_or(true, |x| difference.abs() > x.difference.abs());
            if better {
                check.explained = Some(Explained {
                    slower,
                    than,
                    difference,
                    drift: (slope.slope * gap, low, high),
                });
            }
        }
    }
    check
}

/// The most runs, over all commands, [`timed_groups`] keeps.
pub(crate) const SLOPE_LIMIT: usize = 200_000;

/// Per command, its runs as (position in time, value / its median), when
/// every command comes from one experiment and its median is positive;
/// positions are sequence numbers, or, when some run has none (files
/// from tools that run one command after another), places in dataset
/// order. `None` when the commands cannot be placed on one time line.
pub(crate) fn timed_groups(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<(f64, f64)>>> {
    let first = dataset.commands.first()?;
    let same = |c: &CommandRuns| (c.source, c.group) == (first.source, first.group);
    if !dataset.commands.iter().all(same) {
        return None;
    }
    let numbered = dataset
        .commands
        .iter()
        .all(|c| c.sequences().iter().all(Option::is_some));
    // Past SLOPE_LIMIT runs in all, every `stride`-th run of each command:
    // the slope's estimate stays unbiased, and its interval is still far
    // narrower than any drift that matters.
    let total: usize = dataset.commands.iter().map(|c| c.len()).sum();
    let stride = total.div_ceil(SLOPE_LIMIT).max(1);
    let mut offset = 0usize;
    let mut groups = Vec::with_capacity(dataset.commands.len());
    for c in &dataset.commands {
        let sequences = c.sequences();
        let mut pairs: Vec<(f64, f64)> = c
            .values(metric)
            .enumerate()
            .step_by(stride)
            .filter_map(|(i, v)| {
                let t = if numbered {
                    sequences[i]? as f64
                } else {
                    (offset + i) as f64
                };
                v.map(|v| (t, v.as_f64()))
            })
            .collect();
        offset += c.len();
        let values: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        match median_of(&values) {
            Some(m) if m > 0.0 => pairs.iter_mut().for_each(|p| p.1 /= m),
            _ => pairs.clear(),
        }
        groups.push(pairs);
    }
    Some(groups)
}

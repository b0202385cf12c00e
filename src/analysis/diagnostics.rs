//! Did the machine change during the experiment? Per command, on the
//! metric of interest, in time order.
//!
//! Two diagnostics, both computed by the statistics engine on the runs in
//! the order they ran (the Sequence column; file order for files without
//! it, such as the C reference's):
//!
//! * the best-case estimate and its stability between the two halves of
//!   the experiment ([`best_case`], after `tim`): unstable when the fastest
//!   runs themselves moved;
//! * the Mann–Kendall test for a monotone trend ([`mann_kendall`]), with
//!   Holm's adjustment over the commands (each command is one question,
//!   and a warning for any of them is the family's error) at the ranking's
//!   α. A trend is reported as a change of speed only when it also
//!   matters: the Hodges–Lehmann shift from the earlier to the later half
//!   is at least the ranking's `effect` (resolved against the command's
//!   own earlier-half median when relative). On real data almost every
//!   command drifts a little (the first runs warm the caches), and a
//!   warning for a drift too small to change any verdict would teach
//!   users to ignore warnings.
//!
//! Neither changes a statistic or the ranking; they are reported (`-T`,
//! `-E`, the JSON) and turned into warnings ([`Analysis::warnings`]).
//!
//! [`Analysis::warnings`]: super::Analysis::warnings

use crate::data::{Attribute, CommandRuns, Metric};
use crate::stats::{
    best_case, hodges_lehmann, holm_adjust, mann_kendall, mann_kendall_with, BestCase,
    BestCaseSettings, MannKendall, NotApplicable, Sample, SampleError, Series, Threshold,
};

/// The time-order diagnostics of one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostics {
    /// The best-case estimate of the metric of interest.
    pub best_case: Result<BestCase, NotApplicable>,
    /// The trend test of the metric of interest against run order.
    pub trend: Result<MannKendall, NotApplicable>,
    /// The trend's p-value after Holm's adjustment over all commands that
    /// could be tested.
    pub trend_p_adjusted: Option<f64>,
    /// How much the later half differs from the earlier one.
    pub halves: Option<HalvesShift>,
    /// The adjusted p-value is below α and the halves differ by at least
    /// the `effect` threshold: the speed changed.
    pub drifted: bool,
}

/// The later half of a command's runs against the earlier half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalvesShift {
    /// Hodges–Lehmann shift, later − earlier (positive: slower later).
    pub shift: f64,
    /// Median of the earlier half.
    pub early_median: f64,
}

/// Something about the experiment the user should know before trusting
/// its figures. Commands are indices in dataset order.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// The halves' best-case estimates are further apart than the
    /// threshold (`distance` is `None` when both are constant and differ).
    BestCaseChanged {
        command: usize,
        distance: Option<f64>,
        max_distance: f64,
    },
    /// The ranked metric is CPU time, but these commands' median wall
    /// time is more than twice their median CPU time: they mostly wait
    /// (sleep, I/O), and CPU time may not be what the user means.
    WallDominates { commands: Vec<usize> },
    /// The trend test found a monotone change in speed.
    SpeedChanged {
        command: usize,
        /// Later runs took more (of the metric), not less.
        slower: bool,
        tau: f64,
        p_adjusted: f64,
        halves: HalvesShift,
    },
}

impl super::Analysis<'_> {
    /// The warnings: the note about waiting commands first, then command
    /// by command in dataset order the best case and the trend.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if self.settings.metric == Metric::TOTAL {
            let waiting: Vec<usize> = (0..self.commands.len())
                .filter(|&i| {
                    let c = &self.commands[i];
                    let median = |m| c.metric(m).map(|s| s.quantiles.median);
                    match (median(Metric::WALL), median(Metric::TOTAL)) {
                        (Some(wall), Some(cpu)) => wall > 2.0 * cpu,
                        _ => false,
                    }
                })
                .collect();
            if !waiting.is_empty() {
                out.push(Warning::WallDominates { commands: waiting });
            }
        }
        for (command, d) in self.diagnostics.iter().enumerate() {
            if let Ok(b) = &d.best_case {
                if !b.stable {
                    out.push(Warning::BestCaseChanged {
                        command,
                        distance: b.distance,
                        max_distance: self.settings.best_case.max_distance,
                    });
                }
            }
            if let (true, Ok(t), Some(p), Some(h)) =
                (d.drifted, &d.trend, d.trend_p_adjusted, d.halves)
            {
                out.push(Warning::SpeedChanged {
                    command,
                    slower: t.increasing(),
                    tau: t.tau,
                    p_adjusted: p,
                    halves: h,
                });
            }
        }
        out
    }
}

/// The positions of `runs` in the order they ran: by Sequence when every
/// run has one (stable, so equal numbers keep file order), else file order.
pub fn time_order(runs: &CommandRuns) -> Vec<usize> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    if !in_file_order(runs) {
        let sequence = runs.sequences();
        order.sort_by_key(|&i| sequence[i]);
    }
    order
}

/// Whether [`time_order`] is file order: some run lacks a sequence number,
/// or the numbers never decrease (as `bestguess` writes them; the stable
/// sort then leaves every run where it is).
///
/// Read as integers a range of runs at a time (a range that cannot be
/// read so holds a run without an integer sequence number).
fn in_file_order(runs: &CommandRuns) -> bool {
    const STEP: usize = 1 << 14;
    let mut chunk = Vec::with_capacity(STEP.min(runs.len()));
    let (mut last, mut ordered) = (0u64, true);
    for start in (0..runs.len()).step_by(STEP) {
        chunk.clear();
        let range = start..(start + STEP).min(runs.len());
        if !runs.attribute_ints(Attribute::Sequence, range, &mut chunk) {
            return true;
        }
        for (k, &s) in chunk.iter().enumerate() {
            let s = s as u64; // as `CommandRuns::sequence` gives it
            ordered &= start + k == 0 || last <= s;
            last = s;
        }
    }
    ordered
}

/// The values of `metric` in time order, runs that lack it left out.
pub fn in_time_order(runs: &CommandRuns, metric: Metric) -> Vec<f64> {
    time_series(runs, metric).0
}

/// [`in_time_order`], and whether that is file order (the values are then
/// `runs.metric(metric)` exactly).
pub(super) fn time_series(runs: &CommandRuns, metric: Metric) -> (Vec<f64>, bool) {
    if in_file_order(runs) {
        return (super::metric_values(runs, metric), true);
    }
    let values: Vec<_> = runs.values(metric).collect();
    let series = time_order(runs)
        .into_iter()
        .filter_map(|i| values[i])
        .map(|v| v.as_f64())
        .collect();
    (series, false)
}

/// The later half against the earlier (halves as for the best case); `None`
/// with fewer than two values.
fn halves_shift(values: &[f64]) -> Option<HalvesShift> {
    let (early, late) = values.split_at(values.len() / 2);
    let early = Sample::from_slice(early).ok()?;
    let late = Sample::from_slice(late).ok()?;
    Some(HalvesShift {
        shift: hodges_lehmann(&early, &late),
        early_median: crate::stats::Quantiles::of(&early).median,
    })
}

/// The diagnostics of one command, from its values of the metric of
/// interest in time order, before Holm's adjustment ([`adjust`]).
/// `sample`, when given, is the [`Sample`] of the same values (the
/// summaries' of the ranked metric): the trend test then uses its sort
/// instead of sorting again.
pub fn diagnose_one(
    values: Vec<f64>,
    sample: Option<&Sample>,
    settings: &BestCaseSettings,
) -> Result<Diagnostics, SampleError> {
    let s = Series::new(values)?;
    let trend = match sample {
        Some(sample) => mann_kendall_with(&s, sample),
        None => mann_kendall(&s),
    };
    Ok(Diagnostics {
        best_case: best_case(&s, settings),
        trend,
        trend_p_adjusted: None,
        halves: halves_shift(s.values()),
        drifted: false,
    })
}

/// Holm's adjustment of the trend p-values over every command that could
/// be tested, and the drift flags that follow from it; `alpha` and
/// `effect` are the ranking's.
pub fn adjust(out: &mut [Diagnostics], alpha: f64, effect: Threshold) {
    let tested: Vec<usize> = (0..out.len()).filter(|&i| out[i].trend.is_ok()).collect();
    let p: Vec<f64> = tested
        .iter()
        .filter_map(|&i| out[i].trend.as_ref().ok().map(|t| t.p_value))
        .collect();
    for (&i, adjusted) in tested.iter().zip(holm_adjust(&p)) {
        let d = &mut out[i];
        d.trend_p_adjusted = Some(adjusted);
        let matters = d
            .halves
            .is_some_and(|h| h.shift.abs() >= effect.resolve(h.early_median));
        d.drifted = adjusted < alpha && matters;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagnostics of every command, as the analysis makes them.
    fn diagnose(
        series: &[Vec<f64>],
        settings: &BestCaseSettings,
        alpha: f64,
        effect: Threshold,
    ) -> Result<Vec<Diagnostics>, (usize, SampleError)> {
        let each = series
            .iter()
            .enumerate()
            .map(|(i, values)| diagnose_one(values.clone(), None, settings).map_err(|e| (i, e)));
        let mut out = each.collect::<Result<Vec<_>, _>>()?;
        adjust(&mut out, alpha, effect);
        Ok(out)
    }

    fn runs(runs: &[(Option<u64>, Option<i64>)]) -> crate::data::Dataset {
        crate::data::Dataset::from_records(runs.iter().map(|&(sequence, wall)| {
            let mut r = crate::data::RunRecord {
                sequence,
                ..crate::data::RunRecord::default()
            };
            if let Some(w) = wall {
                r = r.with(Metric::WALL, w);
            }
            r
        }))
    }

    #[test]
    fn sequence_decides_the_order_when_every_run_has_one() {
        let d = runs(&[
            (Some(5), Some(50)),
            (Some(1), Some(10)),
            (Some(3), Some(30)),
        ]);
        assert_eq!(
            in_time_order(&d.commands[0], Metric::WALL),
            [10.0, 30.0, 50.0]
        );
        let partial = runs(&[(Some(5), Some(50)), (None, None), (Some(3), Some(30))]);
        assert_eq!(time_order(&partial.commands[0]), [0, 1, 2]);
        assert_eq!(
            in_time_order(&partial.commands[0], Metric::WALL),
            [50.0, 30.0]
        );
    }

    #[test]
    fn file_order_read_in_steps_is_file_order_by_definition() {
        let n = 2 * (1 << 14) + 7;
        let definition = |d: &crate::data::Dataset| {
            let s = d.commands[0].sequences();
            s.iter().any(Option::is_none) || s.windows(2).all(|w| w[0] <= w[1])
        };
        let mut cases: Vec<Vec<(Option<u64>, Option<i64>)>> = Vec::new();
        let rising: Vec<_> = (0..n).map(|i| (Some(i as u64 / 2), Some(1))).collect();
        cases.push(rising.clone());
        for at in [1, 1 << 14, (1 << 14) + 1, n - 1] {
            let mut v = rising.clone();
            v[at].0 = Some(0); // a step back
            cases.push(v.clone());
            v[n - 2].0 = None; // and a run without a number after it
            cases.push(v);
        }
        for (i, case) in cases.iter().enumerate() {
            let d = runs(case);
            assert_eq!(in_file_order(&d.commands[0]), definition(&d), "case {i}");
        }
    }

    #[test]
    fn waiting_commands_are_noted_only_when_cpu_time_is_ranked() {
        use crate::analysis::{Analysis, RankingSettings};
        use crate::data::Dataset;
        let record = |batch: u64, cpu: i64, wall: i64| {
            crate::data::RunRecord {
                command: format!("c{batch}"),
                batch,
                ..crate::data::RunRecord::default()
            }
            .with(Metric::USER, cpu)
            .with(Metric::SYSTEM, 0)
            .with(Metric::WALL, wall)
        };
        let mut records = Vec::new();
        for i in 0..6 {
            records.push(record(1, 1000 + i, 2000 + i)); // exactly 2×: no note
            records.push(record(2, 1000 + i, 100_000 + i));
            records.push(record(3, 0, 5 + i)); // no CPU time at all
        }
        let dataset = Dataset::from_records(records);
        let a = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        assert_eq!(
            a.warnings(),
            [Warning::WallDominates {
                commands: vec![1, 2]
            }]
        );
        let wall = RankingSettings {
            metric: Metric::WALL,
            ..RankingSettings::default()
        };
        let a = Analysis::new(&dataset, wall).unwrap();
        assert!(a.warnings().is_empty());
    }

    #[test]
    fn a_trend_is_flagged_after_holm_and_a_flat_command_is_not() {
        let flat: Vec<f64> = (0..30).map(|i| f64::from((i * 7) % 11)).collect();
        let rising: Vec<f64> = (0..30).map(|i| f64::from(i + (i * 7) % 3)).collect();
        let d = diagnose(
            &[flat, rising.clone(), vec![1.0; 3]],
            &BestCaseSettings::default(),
            0.05,
            Threshold::Absolute(10.0),
        )
        .unwrap();
        assert!(!d[0].drifted && d[1].drifted);
        // The halves differ by 15: a larger effect makes it not matter.
        assert_eq!(d[1].halves.unwrap().shift, 15.0);
        let big = diagnose(
            &[rising],
            &BestCaseSettings::default(),
            0.05,
            Threshold::Percent(200.0),
        )
        .unwrap();
        assert!(big[0].trend_p_adjusted.unwrap() < 0.05 && !big[0].drifted);
        // Two commands tested: the smaller p doubled by Holm.
        let p = d[1].trend.as_ref().unwrap().p_value;
        assert_eq!(d[1].trend_p_adjusted, Some((2.0 * p).min(1.0)));
        assert_eq!(d[2].trend_p_adjusted, None);
        assert!(d[2].best_case.is_err());
    }
}

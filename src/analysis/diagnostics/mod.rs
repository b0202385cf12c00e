//! Did the machine change during the experiment? Per command, on the
//! metric of interest, in time order.
//!
//! Two diagnostics, both computed by the statistics engine on the runs in
//! the order they ran (the Sequence column; file order for files without
//! it, such as C BestGuess's):
//!
//! * the best-case estimate and its stability between the two halves of
//!   the experiment ([`best_case`](fn@crate::stats::best_case), after `tim`): unstable when the fastest
//!   runs themselves moved;
//! * the Mann–Kendall test for a monotone trend ([`mann_kendall`](crate::stats::mann_kendall)), with
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
//! One file per diagnostic: [`trend`] (per command), [`first_run`]
//! (cold starts), [`relative`] (a command against the others in complete
//! rounds), [`drift`] (the check across commands); [`order`] puts a
//! command's runs in the order they ran. Here: the warnings they become.
//!
//! [`Analysis::warnings`]: super::Analysis::warnings

mod drift;
mod first_run;
mod order;
mod relative;
mod trend;

pub(super) use drift::drift_check;
pub use drift::{DriftCheck, Explained, DRIFT_CONFIDENCE};
pub(super) use first_run::against_the_round;
pub use first_run::{first_run_excess, FIRST_RUN_EXCESS};
pub use order::{in_time_order, time_order};
pub use relative::RelativeChange;
pub use trend::{adjust, diagnose_one, Diagnostics, HalvesShift};

use crate::stats::{Sample, Threshold};

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
    /// The ranked metric is CPU time, but these commands spend most of
    /// their wall time waiting for something other than a CPU (sleep,
    /// I/O; [`super::Spending`]): CPU time may not be what the user means.
    /// Waiting for a CPU is not waiting: a busy machine never sets it off.
    WallDominates { commands: Vec<usize> },
    /// The first run of these commands (in time order) was their slowest,
    /// by at least [`FIRST_RUN_EXCESS`] over their median: a cold start.
    /// (command, first run / median − 1).
    FirstRunSlow { commands: Vec<(usize, f64)> },
    /// In complete rounds, a command's speed changed against the other
    /// commands' in the same rounds (the machine's own changes cancel).
    RelativeChange(RelativeChange),
    /// Without complete rounds, the machine's speed changed, so that a
    /// verdict between commands measured at different times may be the
    /// change, not the commands ([`DriftCheck`]).
    OrderDrift {
        /// The pooled drift over the experiment, relative (0.1: 10 %
        /// slower from the first run to the last), with its interval.
        drift: Option<(f64, f64, f64)>,
        /// A verdict the drift could account for.
        explained: Option<Explained>,
        /// Commands whose own runs changed speed (`Diagnostics::drifted`).
        changed: Vec<usize>,
    },
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

/// The level below which a command's change against the others (complete
/// rounds, Holm-adjusted) is printed as a warning: stricter than the
/// ranking's α, because a warning nobody asked for that is wrong in one
/// experiment of twenty (α = 5 %, `bench/aa.sh`) teaches users to ignore
/// warnings.
pub const WARNING_LEVEL: f64 = 0.01;

impl Warning {
    /// Whether the warning is printed after the reports; the others are
    /// details, in `-E` and the JSON. A changed best case or a trend of
    /// one command's own runs is the machine's doing as often as the
    /// command's; in complete rounds it cannot bias a verdict, and without
    /// them [`Warning::OrderDrift`] says what it does to the verdicts.
    pub fn printed(&self) -> bool {
        !matches!(
            self,
            Warning::BestCaseChanged { .. } | Warning::SpeedChanged { .. }
        )
    }
}

/// `effect` as a fraction of `location` (0 when the location is 0).
fn relative_effect(effect: Threshold, location: f64) -> f64 {
    if location == 0.0 {
        return 0.0;
    }
    effect.resolve(location) / location.abs()
}

fn median_of(values: &[f64]) -> Option<f64> {
    let sample = Sample::from_slice(values).ok()?;
    Some(crate::stats::Quantiles::of(&sample).median)
}

#[cfg(test)]
mod tests {
    use super::order::in_file_order;
    use super::*;
    use crate::data::Metric;
    use crate::stats::{BestCaseSettings, SampleError, Verdict};

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

    /// Identical commands, one after another (or in shuffled rounds), on
    /// a machine that slows by `drift` over the experiment; a fixed
    /// pseudo-random noise of ±1 %.
    fn identical(k: usize, runs: usize, drift: f64, rounds: bool) -> crate::data::Dataset {
        let mut records = Vec::new();
        let mut state = 12345u64;
        for i in 0..k {
            for r in 0..runs {
                let position = if rounds {
                    r * k + (i + r) % k
                } else {
                    i * runs + r
                };
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let noise = ((state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 0.02;
                let slow = 1.0 + drift * position as f64 / (k * runs) as f64;
                let v = (10_000.0 * (1.0 + noise) * slow) as i64;
                records.push(
                    crate::data::RunRecord {
                        command: format!("c{i}"),
                        batch: i as u64 + 1,
                        sequence: Some(position as u64 + 1),
                        ..crate::data::RunRecord::default()
                    }
                    .with(Metric::USER, v)
                    .with(Metric::SYSTEM, 0)
                    .with(Metric::WALL, v),
                );
            }
        }
        crate::data::Dataset::from_records(records)
    }

    #[test]
    fn a_sequential_drift_that_makes_a_verdict_is_explained() {
        use crate::analysis::{Analysis, RankingSettings};
        let d = identical(2, 30, 0.10, false);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let slower = a
            .ranking
            .entries
            .iter()
            .any(|e| e.verdict == Verdict::Slower);
        assert!(slower, "the drift alone makes command 2 slower");
        let check = a.drift_check();
        assert!(!check.paired && check.warns(), "{check:?}");
        let x = check.explained.as_ref().expect("explained");
        assert_eq!((x.slower, x.than), (1, 0));
        // The drift between the commands' mean times: 30 positions of 60
        // at 10 % per 60, about +5 %; the difference is about that too.
        assert!(
            (x.drift.0 - 0.05).abs() < 0.01 && (x.difference - 0.05).abs() < 0.01,
            "{x:?}"
        );
        let (total, low, high) = check.total_drift().unwrap();
        assert!(
            low < 0.10 && 0.10 < high && (total - 0.10).abs() < 0.02,
            "{total} [{low}, {high}]"
        );
        assert!(matches!(a.warnings()[0], Warning::OrderDrift { .. }));
    }

    #[test]
    fn rounds_cancel_the_machines_drift() {
        use crate::analysis::{Analysis, RankingSettings};
        let d = identical(3, 30, 0.10, true);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let check = a.drift_check();
        assert!(check.paired && !check.warns(), "{check:?}");
        assert!(
            a.warnings().iter().all(|w| !w.printed()),
            "{:?}",
            a.warnings()
        );
        // Without drift in sequence, nothing to explain either.
        let d = identical(2, 30, 0.0, false);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        assert!(!a.drift_check().warns(), "{:?}", a.drift_check());
    }

    #[test]
    fn a_command_that_changes_against_the_others_is_named_with_when() {
        use crate::analysis::{Analysis, RankingSettings};
        let mut records = Vec::new();
        for r in 0..30u64 {
            for i in 0..3u64 {
                // Command 3 is 20 % slower from round 21 on.
                let jitter = ((r * 7 + i * 3) % 5) as i64 * 10;
                let v = 10_000 + jitter + if i == 2 && r >= 20 { 2_000 } else { 0 };
                records.push(
                    crate::data::RunRecord {
                        command: format!("c{i}"),
                        batch: i + 1,
                        sequence: Some(r * 3 + i + 1),
                        ..crate::data::RunRecord::default()
                    }
                    .with(Metric::USER, v)
                    .with(Metric::SYSTEM, 0),
                );
            }
        }
        let d = crate::data::Dataset::from_records(records);
        let a = Analysis::new(&d, RankingSettings::default()).unwrap();
        let check = a.drift_check();
        assert_eq!(check.relative.len(), 1, "{check:?}");
        let c = &check.relative[0];
        assert_eq!(
            (c.command, c.against, c.from_round, c.rounds),
            (2, None, 21, 30)
        );
        assert!((c.change - 0.2).abs() < 0.01, "{c:?}");
    }

    #[test]
    fn a_cold_first_run_is_found_only_when_it_stands_out() {
        let mut v = vec![100.0; 10];
        v[0] = 140.0;
        assert!((first_run_excess(&v).unwrap() - 0.4).abs() < 1e-12);
        v[0] = 125.0;
        assert_eq!(first_run_excess(&v), None, "below the threshold");
        v[0] = 140.0;
        v[5] = 150.0;
        assert_eq!(first_run_excess(&v), None, "not the slowest");
        v[5] = 130.0;
        assert_eq!(first_run_excess(&v), None, "not 15 % above every other");
        v[5] = 124.0;
        assert!(first_run_excess(&v).is_some());
        assert_eq!(first_run_excess(&[200.0, 1.0, 1.0]), None, "too few runs");
    }

    /// In complete rounds, a first round slow for both commands (both 40 %
    /// over their medians) is no command's cold start; one command's slow
    /// first run, against the other's usual one in the same round, is.
    #[test]
    fn a_slow_first_round_of_every_command_is_no_cold_start() {
        use crate::analysis::{Analysis, RankingSettings};
        let cold = |d: &crate::data::Dataset| {
            let a = Analysis::new(d, RankingSettings::default()).unwrap();
            let found = a.warnings().into_iter().find_map(|w| match w {
                Warning::FirstRunSlow { commands } => Some(commands),
                _ => None,
            });
            found.unwrap_or_default()
        };
        let slow_first = |d: crate::data::Dataset, which: &[usize]| {
            let records: Vec<crate::data::RunRecord> = (d.commands.iter().enumerate())
                .flat_map(|(i, c)| {
                    let first = *time_order(c).first().unwrap();
                    (0..c.len())
                        .map(|run| {
                            let mut r = c.record(run, &d.catalogue);
                            if which.contains(&i) && run == first {
                                let v = r.value(Metric::USER).unwrap().as_f64() * 1.4;
                                r = r.with(Metric::USER, v as i64);
                            }
                            r
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            crate::data::Dataset::from_records(records)
        };
        let both = slow_first(identical(2, 30, 0.0, true), &[0, 1]);
        assert_eq!(cold(&both), [], "the round, not a command");
        let one = slow_first(identical(2, 30, 0.0, true), &[1]);
        assert_eq!(cold(&one).iter().map(|c| c.0).collect::<Vec<_>>(), [1]);
        // Without complete rounds, each command's own runs decide.
        let apart = slow_first(identical(2, 30, 0.0, false), &[0, 1]);
        assert_eq!(cold(&apart).len(), 2);
    }
}

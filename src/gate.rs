//! The regression gate: a new experiment against a saved baseline.
//!
//! `bestreport --baseline OLD NEW…` (and `bestguess --baseline OLD …`,
//! right after measuring) answers the question a CI job asks: did any
//! command get slower than it was? Each new command is paired with the
//! baseline command of the same name, or else of the same command string
//! ([`pair`]); each pair is compared on the metric of interest by the
//! ranking itself, as a ranking of two with the baseline as the fixed
//! reference ([`compare_with_baseline`]), so the estimators, intervals and
//! verdict rule are the ranking's: the ratio new / baseline of medians
//! with its distribution-free bounds (the difference of medians relative
//! to the baseline's median when some value is not positive), and the
//! verdict *slower* (the lower bound above +effect), *faster* (the upper
//! bound below −effect),
//! *no change* (within ±epsilon: the ranking's "equivalent") or
//! *inconclusive* (neither: more runs could tell). A command present on
//! one side only is listed, not an error.
//!
//! The pairs are a family fixed in advance (nothing is selected from the
//! data), so each bound misses with chance at most α/m over the m pairs
//! compared (Bonferroni): all lower bounds hold together with probability
//! at least 1 − α, and a CI job that fails when *any* command is slower
//! keeps its false-alarm rate at most α. The two sides come from different
//! experiments, so they are compared as independent samples.
//!
//! `--fail-if-slower PCT` turns the comparison into a gate:
//! [`GateReport::failed`] when some command is slower with the lower
//! bound of its change above +PCT % (the user's margin for this gate; the verdict column keeps the
//! ranking's `effect`). The program then
//! exits with status 3 (`crate::app::exit::REGRESSION`).
//!
//! Failed runs (a non-zero exit, a signal, a time-out) say nothing about
//! speed: a build whose commands fail is not vouched for by its times. A
//! new command with any failed run is "failed runs" in the verdict column
//! and fails the gate whatever its times ([`Failures`]); failures in the
//! baseline are reported beside the comparison, which is made as it is.

use crate::analysis::RankingSettings;
use crate::data::{CommandRuns, Dataset};
use crate::stats::{
    comparable, rank_with, runs_to_compare, Contrast, Quantiles, RankOptions, RankSettings, Sample,
    SampleError, Scale, Verdict,
};

/// The gate's options: the baseline's raw data file and the margin of
/// `--fail-if-slower` (a percentage), if given.
#[derive(Clone, Debug, PartialEq)]
pub struct GateOptions {
    pub baseline: String,
    pub fail_if_slower: Option<f64>,
}

/// Which commands of the two sets belong together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Indices into the baseline's and the new dataset's commands.
    Both { baseline: usize, new: usize },
    /// A baseline command with no new counterpart.
    OnlyBaseline(usize),
    /// A new command with no baseline counterpart.
    OnlyNew(usize),
}

/// A name that counts: not blank.
fn name(c: &CommandRuns) -> Option<&str> {
    let n = c.name.trim();
    (!n.is_empty()).then_some(n)
}

/// Pairs the new commands with the baseline's: first an unused baseline
/// command with the same name, command string and parameters (several
/// commands can share a name: `-n work -P n 1 3 './work {n}'`, and the
/// plan's order can change between the two experiments), then by name
/// when the new command has one and an unused baseline command has the
/// same, else by the same command string (and shell is not compared: a
/// baseline taken with another shell is still the same command). Each
/// baseline command is used once, first come first served. New commands
/// keep their order; unpaired baseline commands follow in theirs.
pub fn pair(baseline: &Dataset, new: &Dataset) -> Vec<Pairing> {
    let mut used = vec![false; baseline.commands.len()];
    let mut out = Vec::with_capacity(new.commands.len() + baseline.commands.len());
    for (j, c) in new.commands.iter().enumerate() {
        // The first unused baseline command that `fits`.
        let first = |fits: &dyn Fn(&CommandRuns) -> bool| {
            (0..baseline.commands.len()).find(|&i| !used[i] && fits(&baseline.commands[i]))
        };
        let found = first(&|b| {
            name(b) == name(c) && b.command == c.command && b.parameters == c.parameters
        })
        .or_else(|| name(c).and_then(|n| first(&|b| name(b) == Some(n))))
        .or_else(|| first(&|b| b.command == c.command));
        match found {
            Some(i) => {
                used[i] = true;
                out.push(Pairing::Both {
                    baseline: i,
                    new: j,
                });
            }
            None => out.push(Pairing::OnlyNew(j)),
        }
    }
    out.extend(
        (0..used.len())
            .filter(|&i| !used[i])
            .map(Pairing::OnlyBaseline),
    );
    out
}

/// What the comparison concludes about one pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateVerdict {
    /// The whole interval lies above +effect.
    Slower,
    /// The whole interval lies below −effect.
    Faster,
    /// The whole interval lies within ±epsilon: shown to be the same.
    NoChange,
    /// Neither: the interval is too wide to tell (more runs could).
    Inconclusive,
    /// One side has too few runs for its median's bounds to reach their
    /// level ([`GateReport::runs_needed`]).
    NotCompared,
    /// Some run of the new command failed: its times vouch for nothing.
    FailedRuns,
}

impl GateVerdict {
    /// The word used in reports.
    pub fn word(self) -> &'static str {
        match self {
            GateVerdict::Slower => "slower",
            GateVerdict::Faster => "faster",
            GateVerdict::NoChange => "no change",
            GateVerdict::Inconclusive => "inconclusive",
            GateVerdict::NotCompared => "not compared",
            GateVerdict::FailedRuns => "failed",
        }
    }
}

/// An estimate with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The change from baseline to new of one pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The ranking's estimate with its bounds: new / baseline (the ratio
    /// of medians) when every value on both sides is positive, else the
    /// difference of medians in the metric's unit.
    pub contrast: Contrast,
}

impl Change {
    /// The change relative to the baseline, as a fraction (0.1 is +10 %):
    /// ratio − 1, or the difference over the baseline's median when there
    /// is no ratio; `None` when neither exists (a zero median).
    pub fn relative(&self, baseline_median: f64) -> Option<Estimate> {
        let c = &self.contrast;
        let m = match c.scale {
            Scale::Ratio => {
                return Some(Estimate {
                    value: c.estimate - 1.0,
                    low: c.low - 1.0,
                    high: c.high - 1.0,
                })
            }
            Scale::Difference => baseline_median.abs(),
        };
        (m > 0.0).then(|| Estimate {
            value: c.estimate / m,
            low: c.low / m,
            high: c.high / m,
        })
    }
}

/// One side of a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    /// Index of the command in its dataset.
    pub index: usize,
    pub runs: usize,
    pub median: f64,
    /// Runs that failed (non-zero exit, signal, time-out).
    pub failed: usize,
}

/// How the failed runs of one command ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Failures {
    /// All runs of the command.
    pub runs: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Exit statuses other than 0 of runs not ended by a signal or a
    /// time-out, with their counts, in ascending order of status.
    pub exit_codes: Vec<(i32, usize)>,
    /// Signals that ended runs (not time-outs), with their counts.
    pub signals: Vec<(i32, usize)>,
    /// Runs a signal ended whose number the source did not record.
    pub signals_unknown: usize,
    /// Runs killed by `--timeout`.
    pub timed_out: usize,
}

impl Failures {
    /// The failures among `c`'s runs.
    pub fn of(c: &CommandRuns) -> Failures {
        fn count(list: &mut Vec<(i32, usize)>, v: i32) {
            match list.iter_mut().find(|(k, _)| *k == v) {
                Some((_, n)) => *n += 1,
                None => list.push((v, 1)),
            }
        }
        let mut f = Failures {
            runs: c.len(),
            ..Failures::default()
        };
        for i in 0..c.len() {
            if !c.run_failed(i) {
                continue;
            }
            f.failed += 1;
            if c.timed_out(i) {
                f.timed_out += 1;
            } else if let Some(s) = c.signal(i) {
                count(&mut f.signals, s);
            } else if c.signal_unknown(i) {
                f.signals_unknown += 1;
            } else {
                count(&mut f.exit_codes, c.exit_code(i));
            }
        }
        f.exit_codes.sort_unstable();
        f.signals.sort_unstable();
        f
    }

    /// `3 of 10 runs failed: exit 1 ×2, signal 9` (a count of 1 is not
    /// written).
    pub fn describe(&self) -> String {
        let times = |n: usize| {
            if n == 1 {
                String::new()
            } else {
                format!(" ×{n}")
            }
        };
        let mut how: Vec<String> = Vec::new();
        how.extend((self.exit_codes.iter()).map(|&(c, n)| format!("exit {c}{}", times(n))));
        how.extend((self.signals.iter()).map(|&(s, n)| format!("signal {s}{}", times(n))));
        if self.signals_unknown > 0 {
            how.push(format!(
                "a signal not recorded{}",
                times(self.signals_unknown)
            ));
        }
        if self.timed_out > 0 {
            how.push(format!("timed out{}", times(self.timed_out)));
        }
        format!(
            "{} of {} run{} failed: {}",
            self.failed,
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            how.join(", ")
        )
    }
}

/// One line of the gate's table.
#[derive(Clone, Debug, PartialEq)]
pub struct GateRow {
    pub baseline: Option<Side>,
    pub new: Option<Side>,
    /// For pairs with enough runs on both sides.
    pub change: Option<Change>,
    /// `None` for a command on one side only.
    pub verdict: Option<GateVerdict>,
    /// The whole interval of the change lies above +`fail_if_slower` %
    /// (whatever the verdict, which uses the ranking's `effect`), or some
    /// run of the new command failed.
    pub fails: bool,
    /// The baseline command's failed runs, if any failed.
    pub baseline_failures: Option<Failures>,
    /// The new command's failed runs, if any failed.
    pub new_failures: Option<Failures>,
}

/// The comparison of a new dataset with a baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct GateReport {
    /// New commands in order, then baseline commands without a partner.
    pub rows: Vec<GateRow>,
    /// Pairs compared (the Bonferroni family).
    pub compared: usize,
    /// The miss chance of each two-sided interval, α/m (α/(2m) per bound,
    /// α/(4m) per bound of each median).
    pub alpha_each: f64,
    /// The runs on each side of every pair with which every pair would be
    /// compared.
    pub runs_needed: usize,
    /// The `--fail-if-slower` percentage, if given.
    pub fail_if_slower: Option<f64>,
}

impl GateReport {
    /// With `--fail-if-slower`: some command is slower beyond the margin,
    /// or some new command has failed runs (whatever its times),
    /// or some command on both sides could not be compared (too few runs),
    /// or no command has a counterpart at all (another baseline, renamed
    /// commands), so that the gate cannot tell whether one is: a gate that
    /// could not look does not pass.
    pub fn failed(&self) -> bool {
        self.fail_if_slower.is_some()
            && (self.slower() > 0
                || self.unchecked() > 0
                || self.paired() == 0
                || self.new_failed().next().is_some())
    }

    /// The rows whose new command has failed runs.
    pub fn new_failed(&self) -> impl Iterator<Item = (&GateRow, &Failures)> {
        (self.rows.iter()).filter_map(|r| r.new_failures.as_ref().map(|f| (r, f)))
    }

    /// The rows whose baseline command has failed runs.
    pub fn baseline_failed(&self) -> impl Iterator<Item = (&GateRow, &Failures)> {
        (self.rows.iter()).filter_map(|r| r.baseline_failures.as_ref().map(|f| (r, f)))
    }

    /// Commands on both sides (compared or not).
    pub fn paired(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.baseline.is_some() && r.new.is_some())
            .count()
    }

    /// Commands slower beyond the margin (marked ✗), failed runs aside.
    pub fn slower(&self) -> usize {
        (self.rows.iter())
            .filter(|r| r.fails && r.new_failures.is_none())
            .count()
    }

    /// Commands on both sides that were not compared: too few runs on a
    /// side ([`GateReport::runs_needed`]).
    pub fn unchecked(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict == Some(GateVerdict::NotCompared))
            .count()
    }
}

/// Why a gate cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GateError {
    #[error("{side} command {command}: {source}")]
    Sample {
        side: &'static str,
        command: usize,
        source: SampleError,
    },
    #[error("--fail-if-slower {0}: give a percentage of 0 or more, such as 5")]
    Margin(f64),
    #[error("invalid setting: {0}")]
    Settings(String),
}

fn sample(side: &'static str, index: usize, values: Vec<f64>) -> Result<Sample, GateError> {
    Sample::new(values).map_err(|source| GateError::Sample {
        side,
        command: index + 1,
        source,
    })
}

/// The ranking's comparison of `new` with `base` as a fixed reference, at
/// the family's level: the same estimators, intervals and verdict rule.
fn compare_pair(
    base: &Sample,
    new: &Sample,
    settings: &RankSettings,
) -> Result<(Change, GateVerdict), GateError> {
    let options = RankOptions {
        rounds: None,
        reference: Some(0),
        classic: false,
    };
    let ranking = rank_with(&[base, new], options, settings)
        .map_err(|e| GateError::Settings(e.to_string()))?;
    let entry = ranking.entry(1);
    let verdict = match entry.map(|e| e.verdict) {
        Some(Verdict::Slower) => GateVerdict::Slower,
        Some(Verdict::Faster) => GateVerdict::Faster,
        Some(Verdict::Equivalent) => GateVerdict::NoChange,
        Some(Verdict::Inconclusive) => GateVerdict::Inconclusive,
        _ => GateVerdict::NotCompared,
    };
    let change = entry.and_then(|e| e.comparison).map(|c| Change {
        contrast: c.contrast,
    });
    match change {
        Some(c) => Ok((c, verdict)),
        None => Err(GateError::Settings("the comparison was not made".into())),
    }
}

/// The failed runs of the command of `side`, if any failed.
fn failures(d: &Dataset, side: &Side) -> Option<Failures> {
    (side.failed > 0).then(|| Failures::of(&d.commands[side.index]))
}

/// Compares every pair of `pair(baseline, new)` on the metric of interest
/// of `settings`, with its α and effect.
pub fn compare_with_baseline(
    baseline: &Dataset,
    new: &Dataset,
    settings: &RankingSettings,
    fail_if_slower: Option<f64>,
) -> Result<GateReport, GateError> {
    if let Some(p) = fail_if_slower {
        if !(p.is_finite() && p >= 0.0) {
            return Err(GateError::Margin(p));
        }
    }
    let metric = settings.metric;
    let side = |label: &'static str, d: &Dataset, i: usize| -> Result<(Side, Sample), GateError> {
        let s = sample(label, i, d.commands[i].metric(metric))?;
        let median = Quantiles::of(&s).median;
        Ok((
            Side {
                index: i,
                runs: s.len(),
                median,
                failed: d.commands[i].failed(),
            },
            s,
        ))
    };
    let pairs = pair(baseline, new);
    let mut sides = Vec::with_capacity(pairs.len());
    for p in &pairs {
        sides.push(match *p {
            Pairing::Both {
                baseline: b,
                new: n,
            } => (
                Some(side("baseline", baseline, b)?),
                Some(side("new", new, n)?),
            ),
            Pairing::OnlyBaseline(b) => (Some(side("baseline", baseline, b)?), None),
            Pairing::OnlyNew(n) => (None, Some(side("new", new, n)?)),
        });
    }
    // Which pairs are compared, from their counts alone (as the ranking
    // decides which commands are): each pair's two medians are bounded at
    // α/(4m) per side over the m pairs compared.
    let fewest: Vec<usize> = (sides.iter())
        .map(|(b, n)| match (b, n) {
            (Some((b, _)), Some((n, _))) => b.runs.min(n.runs),
            _ => 0,
        })
        .collect();
    let can = comparable(&fewest, settings.alpha / 2.0);
    let compared = can.iter().filter(|&&c| c).count();
    let both = (sides.iter())
        .filter(|(b, n)| b.is_some() && n.is_some())
        .count();
    let runs_needed = runs_to_compare(settings.alpha / 2.0, both);
    let alpha_each = settings.alpha / compared.max(1) as f64;
    // Each pair is a ranking of two with the baseline as the reference, at
    // the family's per-comparison level.
    let rule = RankSettings {
        alpha: alpha_each,
        ..settings.rule()
    };
    let mut rows = Vec::with_capacity(sides.len());
    for ((b, n), can) in sides.into_iter().zip(can) {
        let mut row = GateRow {
            baseline: b.as_ref().map(|(s, _)| *s),
            new: n.as_ref().map(|(s, _)| *s),
            change: None,
            verdict: None,
            fails: false,
            baseline_failures: b.as_ref().and_then(|(s, _)| failures(baseline, s)),
            new_failures: n.as_ref().and_then(|(s, _)| failures(new, s)),
        };
        if let (Some((bs, bsample)), Some((_, nsample))) = (&b, &n) {
            if can {
                let (c, v) = compare_pair(bsample, nsample, &rule)?;
                // The gate's margin is the user's, independent of effect.
                row.fails = fail_if_slower.is_some_and(|pct| match c.relative(bs.median) {
                    Some(r) => r.low > pct / 100.0,
                    // A baseline median of 0: any increase is beyond
                    // every percentage.
                    None => c.contrast.low > 0.0,
                });
                row.change = Some(c);
                row.verdict = Some(v);
            } else {
                row.verdict = Some(GateVerdict::NotCompared);
            }
        }
        if row.new_failures.is_some() {
            // Whatever the times: a run that failed measured something
            // else than the command's work.
            if row.baseline.is_some() {
                row.verdict = Some(GateVerdict::FailedRuns);
            }
            row.fails = fail_if_slower.is_some();
        }
        rows.push(row);
    }
    Ok(GateReport {
        rows,
        compared,
        alpha_each,
        runs_needed,
        fail_if_slower,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RunRecord;
    use crate::stats::Threshold;

    fn runs(command: &str, name: &str, batch: u64, totals: &[i64]) -> Vec<RunRecord> {
        totals
            .iter()
            .map(|&t| {
                RunRecord {
                    command: command.into(),
                    name: name.into(),
                    batch,
                    ..RunRecord::default()
                }
                .with(crate::data::Metric::USER, t)
                .with(crate::data::Metric::SYSTEM, 0)
            })
            .collect()
    }

    fn dataset(commands: &[(&str, &str, &[i64])]) -> Dataset {
        let mut records = Vec::new();
        for (i, (c, n, t)) in commands.iter().enumerate() {
            records.extend(runs(c, n, i as u64 + 1, t));
        }
        Dataset::from_records(records)
    }

    const T: &[i64] = &[1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070];

    #[test]
    fn pairs_by_name_then_by_command() {
        let old = dataset(&[("a --v1", "A", T), ("b", "", T), ("gone", "", T)]);
        let new = dataset(&[("b", "", T), ("a --v2", "A", T), ("fresh", "", T)]);
        assert_eq!(
            pair(&old, &new),
            [
                Pairing::Both {
                    baseline: 1,
                    new: 0
                },
                Pairing::Both {
                    baseline: 0,
                    new: 1
                },
                Pairing::OnlyNew(2),
                Pairing::OnlyBaseline(2),
            ]
        );
    }

    #[test]
    fn commands_sharing_a_name_pair_with_their_own_command() {
        // One name for three commands, measured in another order: by name
        // alone `./work 1` would be compared with `./work 3`.
        let old = dataset(&[
            ("./work 1", "work", T),
            ("./work 2", "work", T),
            ("./work 3", "work", T),
        ]);
        let new = dataset(&[
            ("./work 3", "work", T),
            ("./work 1", "work", T),
            ("./work 4", "work", T),
        ]);
        assert_eq!(
            pair(&old, &new),
            [
                Pairing::Both {
                    baseline: 2,
                    new: 0
                },
                Pairing::Both {
                    baseline: 0,
                    new: 1
                },
                // No command of its own left: the name still pairs it.
                Pairing::Both {
                    baseline: 1,
                    new: 2
                },
            ]
        );
    }

    #[test]
    fn each_baseline_command_is_used_once() {
        let old = dataset(&[("x", "", T)]);
        let new = dataset(&[("x", "", T), ("x", "", T)]);
        assert_eq!(
            pair(&old, &new),
            [
                Pairing::Both {
                    baseline: 0,
                    new: 0
                },
                Pairing::OnlyNew(1)
            ]
        );
    }

    fn scaled(f: f64) -> Vec<i64> {
        (0..30)
            .map(|i| ((10_000 + 37 * (i * 7 % 30)) as f64 * f) as i64)
            .collect()
    }

    #[test]
    fn ten_percent_slower_is_slower_and_fails_a_five_percent_gate() {
        let old = dataset(&[("w", "", &scaled(1.0))]);
        let new = dataset(&[("w", "", &scaled(1.1))]);
        let s = RankingSettings {
            effect: Threshold::Percent(2.0),
            ..RankingSettings::default()
        };
        let g = compare_with_baseline(&old, &new, &s, Some(5.0)).unwrap();
        let row = &g.rows[0];
        assert_eq!(row.verdict, Some(GateVerdict::Slower));
        let r = row.change.unwrap().contrast;
        assert_eq!(r.scale, Scale::Ratio);
        assert!((r.estimate - 1.1).abs() < 0.005 && r.low > 1.05, "{r:?}");
        assert!(g.failed());
        // A 15 % margin is beyond the interval: slower, but the gate holds.
        let g = compare_with_baseline(&old, &new, &s, Some(15.0)).unwrap();
        assert!(!g.failed() && g.rows[0].verdict == Some(GateVerdict::Slower));
        // Without --fail-if-slower nothing fails.
        assert!(!compare_with_baseline(&old, &new, &s, None)
            .unwrap()
            .failed());
    }

    #[test]
    fn the_same_data_is_no_change_and_faster_data_is_faster() {
        let s = RankingSettings {
            effect: Threshold::Percent(2.0),
            epsilon: Threshold::Percent(5.0),
            ..RankingSettings::default()
        };
        let old = dataset(&[("w", "", &scaled(1.0))]);
        let g = compare_with_baseline(&old, &old, &s, Some(0.0)).unwrap();
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::NoChange));
        assert!(!g.failed());
        // The interval (about ±4 %) is wider than a 1 % margin: no verdict.
        let narrow = RankingSettings {
            epsilon: Threshold::Percent(1.0),
            ..s.clone()
        };
        let g = compare_with_baseline(&old, &old, &narrow, None).unwrap();
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::Inconclusive));
        let new = dataset(&[("w", "", &scaled(0.8))]);
        let g = compare_with_baseline(&old, &new, &s, Some(0.0)).unwrap();
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::Faster));
    }

    #[test]
    fn intervals_are_bonferroni_over_the_pairs_compared() {
        let old = dataset(&[("a", "", T), ("b", "", T), ("c", "", &T[..3])]);
        let new = dataset(&[("a", "", T), ("b", "", T), ("c", "", T)]);
        let g = compare_with_baseline(&old, &new, &RankingSettings::default(), None).unwrap();
        assert_eq!(g.compared, 2);
        assert_eq!(g.alpha_each, 0.025);
        assert_eq!(g.rows[2].verdict, Some(GateVerdict::NotCompared));
    }

    #[test]
    fn zero_times_have_no_ratio_but_a_shift() {
        let zeros = [0i64; 8];
        let old = dataset(&[("z", "", &zeros)]);
        let g = compare_with_baseline(&old, &old, &RankingSettings::default(), Some(1.0)).unwrap();
        let c = g.rows[0].change.unwrap();
        assert_eq!(c.contrast.scale, Scale::Difference);
        assert_eq!(c.relative(0.0), None);
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::NoChange));
    }

    #[test]
    fn failed_new_runs_fail_the_gate_whatever_their_times() {
        let fail = |code: i32, signal: Option<i32>, timed_out: bool| {
            move |r: RunRecord| RunRecord {
                exit_code: code,
                signal,
                timed_out,
                ..r
            }
        };
        let old = dataset(&[("w", "", &scaled(1.0)), ("v", "", &scaled(1.0))]);
        let mut records: Vec<RunRecord> = runs("w", "", 1, &scaled(0.5));
        records[3] = fail(1, None, false)(records[3].clone());
        records[4] = fail(137, Some(9), false)(records[4].clone());
        records[5] = fail(1, None, false)(records[5].clone());
        records[6] = fail(0, None, true)(records[6].clone());
        records.extend(runs("v", "", 2, &scaled(1.0)));
        let new = Dataset::from_records(records);
        let s = RankingSettings::default();
        let g = compare_with_baseline(&old, &new, &s, Some(5.0)).unwrap();
        let f = g.rows[0].new_failures.as_ref().unwrap();
        assert_eq!(
            f.describe(),
            "4 of 30 runs failed: exit 1 ×2, signal 9, timed out"
        );
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::FailedRuns));
        assert!(g.rows[0].fails && !g.rows[1].fails);
        assert_eq!(g.rows[1].new_failures, None);
        assert!(g.failed());
        assert_eq!(g.slower(), 0);
        // Without a margin the verdict still says so; nothing fails.
        let g = compare_with_baseline(&old, &new, &s, None).unwrap();
        assert_eq!(g.rows[0].verdict, Some(GateVerdict::FailedRuns));
        assert!(!g.failed());
        // Failures in the baseline are kept and the comparison is made.
        let g = compare_with_baseline(&new, &old, &s, Some(5.0)).unwrap();
        assert!(g.rows[0].baseline_failures.is_some());
        assert_ne!(g.rows[0].verdict, Some(GateVerdict::FailedRuns));
    }

    #[test]
    fn a_negative_margin_is_refused() {
        let old = dataset(&[("w", "", T)]);
        assert!(matches!(
            compare_with_baseline(&old, &old, &RankingSettings::default(), Some(-1.0)),
            Err(GateError::Margin(_))
        ));
    }
}

//! When an adaptive experiment (`--runs auto`) stops, and what its
//! verdicts may then claim.
//!
//! The experiment runs complete random rounds and looks at its data only
//! at the rounds of [`Looks`]; at look j it ranks the commands exactly as
//! a fixed-count analysis would, at the family level α·wⱼ that the look
//! spends (see `crate::stats::Looks`). It stops at the first look where
//! every comparison is decided (slower, faster or equivalent; one command:
//! the median's interval within ±precision), or when a budget ends it
//! (`--max-runs`, `--max-time`). Because every look is valid at its own
//! level and the levels sum to α, the verdicts hold with the family-wise
//! error α at whatever round the experiment stops. `bestreport` given the
//! same rule re-analyses the raw runs at the same look and reproduces the
//! verdicts: the look is a function of the number of rounds alone.

use std::time::Duration;

use crate::stats::{rank_with, Looks, MedianBounds, RankOptions, Ranking, Sample, Verdict};

use super::RankingSettings;

/// The settings of the stopping rule: what is decided, and the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoppingRule {
    /// No look before round `min_rounds`.
    pub min_rounds: u64,
    /// Stop after this many rounds, decided or not.
    pub max_rounds: u64,
    /// Stop after this much time (the experiment's, warmups included),
    /// decided or not; checked between rounds.
    pub max_time: Duration,
    /// `--max-time` was given: it holds even before the first look (by
    /// default the experiment reaches the first round a verdict is
    /// possible, however long its commands take).
    pub max_time_given: bool,
    /// One command alone: stop when its median's interval is within
    /// ±precision (a fraction) of the median.
    pub precision: f64,
}

impl Default for StoppingRule {
    /// No minimum beyond the first possible verdict; 1,000 rounds or 10 s
    /// (but at least the first look); ±2 % for one command. Why:
    /// `docs/statistics.md` ("Adaptive runs").
    fn default() -> Self {
        StoppingRule {
            min_rounds: 0,
            max_rounds: 1000,
            max_time: Duration::from_secs(10),
            max_time_given: false,
            precision: 0.02,
        }
    }
}

/// Why an adaptive experiment stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every comparison was decided at a look.
    Decided,
    /// `--max-runs` rounds were made.
    MaxRuns,
    /// `--max-time` had passed.
    MaxTime,
}

impl StopReason {
    /// The name in the JSON metadata.
    pub fn key(self) -> &'static str {
        match self {
            StopReason::Decided => "decided",
            StopReason::MaxRuns => "max_runs",
            StopReason::MaxTime => "max_time",
        }
    }
}

/// What one look found: the ranking at the look's level (two or more
/// commands) or the median's bounds (one command).
#[derive(Clone, Debug)]
pub enum LookResult {
    Ranking(Ranking),
    Median {
        median: f64,
        low: f64,
        high: f64,
    },
    /// Too few values, or a value the ranking cannot take.
    Nothing,
}

impl LookResult {
    /// Whether every question is answered.
    pub fn decided(&self) -> bool {
        match self {
            LookResult::Ranking(r) => all_decided(r),
            LookResult::Median { .. } => true,
            LookResult::Nothing => false,
        }
    }
}

/// Every comparison of `r` is slower, faster or equivalent.
pub fn all_decided(r: &Ranking) -> bool {
    r.inference
        && r.entries.iter().skip(1).all(|e| {
            matches!(
                e.verdict,
                Verdict::Slower | Verdict::Faster | Verdict::Equivalent
            )
        })
}

/// One command's median with its bounds at the family level `alpha`,
/// when both are within ±`precision` of it.
pub fn median_known(one: &Sample, alpha: f64, precision: f64) -> Option<LookResult> {
    let MedianBounds {
        median, low, high, ..
    } = MedianBounds::of(one.sorted(), alpha / 2.0)?;
    (median > 0.0 && low >= median * (1.0 - precision) && high <= median * (1.0 + precision))
        .then_some(LookResult::Median { median, low, high })
}

/// The analysis at `look` of `looks` of complete rounds (`rounds[c][r]`:
/// command c's value in round r): the ranking at the look's level, or
/// for one command whether its median is known within ±`precision`.
pub fn look_at(
    rounds: &[Vec<f64>],
    settings: &RankingSettings,
    reference: Option<usize>,
    looks: &Looks,
    look: usize,
    precision: f64,
) -> LookResult {
    let alpha = looks.alpha_at(look);
    let samples: Result<Vec<Sample>, _> = rounds.iter().map(|v| Sample::new(v.clone())).collect();
    let Ok(samples) = samples else {
        return LookResult::Nothing;
    };
    match samples.as_slice() {
        [] => LookResult::Nothing,
        [one] => median_known(one, alpha, precision).unwrap_or(LookResult::Nothing),
        _ => {
            let rule = crate::stats::RankSettings {
                alpha,
                ..settings.rule()
            };
            let options = RankOptions {
                rounds: rounds.first().map(Vec::len),
                reference,
                classic: false,
            };
            match rank_with(&samples, options, &rule) {
                Ok(r) => LookResult::Ranking(r),
                Err(_) => LookResult::Nothing,
            }
        }
    }
}

/// What the experiment does after a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// Go on until the given round, then ask again.
    Until(u64),
    Stop(StopReason),
}

/// Follows an adaptive experiment round by round and says when to stop.
#[derive(Debug)]
pub struct Stopper {
    rule: StoppingRule,
    settings: RankingSettings,
    reference: Option<usize>,
    looks: Looks,
    /// Per command, the ranked metric's values in run order.
    values: Vec<Vec<f64>>,
    /// The next look.
    next_look: usize,
    /// A run without the ranked metric: nothing can be decided.
    unrankable: bool,
    /// What the last look found.
    pub last: Option<(u64, LookResult)>,
}

impl Stopper {
    pub fn new(
        rule: StoppingRule,
        settings: RankingSettings,
        reference: Option<usize>,
        commands: usize,
    ) -> Stopper {
        Stopper {
            looks: Looks::new(settings.alpha, commands, rule.min_rounds),
            rule,
            settings,
            reference,
            values: vec![Vec::new(); commands],
            next_look: 0,
            unrankable: false,
            last: None,
        }
    }

    pub fn looks(&self) -> &Looks {
        &self.looks
    }

    pub fn rule(&self) -> &StoppingRule {
        &self.rule
    }

    /// One timed run of command `cmd` with the ranked metric's `value`.
    pub fn record(&mut self, cmd: usize, value: Option<f64>) {
        match (value, self.values.get_mut(cmd)) {
            (Some(v), Some(values)) if v.is_finite() => values.push(v),
            _ => self.unrankable = true,
        }
    }

    /// Ranks another metric from here on: `values[c]` holds command c's
    /// values of it for every run so far, in run order (`None` where a run
    /// lacks it). The looks already made stay made.
    pub fn restart(&mut self, values: Vec<Vec<Option<f64>>>) {
        self.unrankable = false;
        for v in &mut self.values {
            v.clear();
        }
        for (cmd, runs) in values.into_iter().enumerate() {
            for value in runs {
                self.record(cmd, value);
            }
        }
    }

    /// Complete rounds so far.
    pub fn rounds(&self) -> u64 {
        self.values.iter().map(Vec::len).min().unwrap_or(0) as u64
    }

    /// After `rounds` complete rounds and `elapsed` time: stop, or the
    /// round to go on to. `round_time` is the mean time of a round so far:
    /// between looks the experiment asks again about every quarter second,
    /// so that `--max-time` is kept without a check after every run.
    pub fn checkpoint(&mut self, elapsed: Duration, round_time: Duration) -> Checkpoint {
        let n = self.rounds();
        if !self.unrankable && n == self.looks.round(self.next_look) {
            let found = look_at(
                &self.values,
                &self.settings,
                self.reference,
                &self.looks,
                self.next_look,
                self.rule.precision,
            );
            let decided = found.decided();
            self.last = Some((n, found));
            self.next_look += 1;
            if decided && n >= self.rule.min_rounds {
                return Checkpoint::Stop(StopReason::Decided);
            }
        }
        if n >= self.rule.max_rounds {
            return Checkpoint::Stop(StopReason::MaxRuns);
        }
        let looked = self.next_look > 0 || self.rule.max_time_given;
        if elapsed >= self.rule.max_time && looked {
            return Checkpoint::Stop(StopReason::MaxTime);
        }
        let per_quarter = match round_time.as_secs_f64() {
            t if t > 0.0 => (0.25 / t).floor() as u64,
            _ => u64::MAX,
        };
        let look = self.looks.round(self.next_look);
        Checkpoint::Until(
            look.min(self.rule.max_rounds)
                .min(n.saturating_add(per_quarter.max(1))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lognormal(n: usize, median: f64, seed: u64) -> Vec<f64> {
        let mut rng = crate::stats::SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let (u, v) = (1.0 - rng.uniform(), rng.uniform());
                let z = (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos();
                (median * (0.05 * z).exp()).round()
            })
            .collect()
    }

    fn run(stopper: &mut Stopper, data: &[Vec<f64>]) -> (u64, Checkpoint) {
        let mut until = 0;
        for r in 0..data[0].len() {
            for (c, d) in data.iter().enumerate() {
                stopper.record(c, Some(d[r]));
            }
            if stopper.rounds() < until {
                continue;
            }
            match stopper.checkpoint(Duration::ZERO, Duration::from_millis(1)) {
                Checkpoint::Until(u) => until = u,
                stop => return (stopper.rounds(), stop),
            }
        }
        (stopper.rounds(), Checkpoint::Until(until))
    }

    #[test]
    fn a_doubling_stops_decided_at_the_first_look() {
        let data = vec![lognormal(100, 10_000.0, 1), lognormal(100, 20_000.0, 2)];
        let mut s = Stopper::new(StoppingRule::default(), RankingSettings::default(), None, 2);
        let (n, stop) = run(&mut s, &data);
        assert_eq!((n, stop), (8, Checkpoint::Stop(StopReason::Decided)));
        let Some((8, LookResult::Ranking(r))) = &s.last else {
            panic!("{:?}", s.last)
        };
        assert_eq!(r.entries[1].verdict, Verdict::Slower);
    }

    #[test]
    fn identical_commands_are_not_slower_and_stop_at_the_budget_or_equivalent() {
        let data = vec![lognormal(300, 10_000.0, 3), lognormal(300, 10_000.0, 4)];
        let rule = StoppingRule {
            max_rounds: 40,
            ..StoppingRule::default()
        };
        let mut s = Stopper::new(rule, RankingSettings::default(), None, 2);
        let (n, stop) = run(&mut s, &data);
        assert_eq!((n, stop), (40, Checkpoint::Stop(StopReason::MaxRuns)));
        let Some((_, LookResult::Ranking(r))) = &s.last else {
            panic!("{:?}", s.last)
        };
        assert_ne!(r.entries[1].verdict, Verdict::Slower);
    }

    #[test]
    fn one_command_stops_when_its_median_is_known_within_the_precision() {
        let data = vec![lognormal(2000, 10_000.0, 5)];
        let mut s = Stopper::new(StoppingRule::default(), RankingSettings::default(), None, 1);
        let (n, stop) = run(&mut s, &data);
        assert_eq!(stop, Checkpoint::Stop(StopReason::Decided));
        // σ 0.05: the bounds come within ±2 % after a few hundred runs
        // (the fixed-count interval would need about 40).
        assert!((40..=500).contains(&n) && s.looks().is_look(n), "{n}");
        let Some((_, LookResult::Median { median, low, high })) = s.last else {
            panic!("{:?}", s.last)
        };
        assert!(low >= 0.98 * median && high <= 1.02 * median);
    }

    #[test]
    fn time_ends_the_experiment_between_looks() {
        let mut s = Stopper::new(StoppingRule::default(), RankingSettings::default(), None, 2);
        s.record(0, Some(1.0));
        s.record(1, Some(1.0));
        // Not before the first look, unless --max-time was given.
        assert_eq!(
            s.checkpoint(Duration::from_secs(31), Duration::from_secs(1)),
            Checkpoint::Until(2)
        );
        s.rule.max_time_given = true;
        assert_eq!(
            s.checkpoint(Duration::from_secs(31), Duration::from_secs(1)),
            Checkpoint::Stop(StopReason::MaxTime)
        );
        // Slow rounds: ask again after every round.
        assert_eq!(
            s.checkpoint(Duration::from_secs(1), Duration::from_secs(1)),
            Checkpoint::Until(2)
        );
        // A missing value: never decided, the budget ends it.
        s.record(0, None);
        assert!(s.unrankable);
    }
}

//! `--runs auto` during an experiment: the stopping rule's state, fed each
//! run and asked at each look, what the progress display shows of it, and
//! why the experiment stopped (in the metadata and, for a budget, a note).

use std::time::{Duration, Instant};

use crate::analysis::{choose_from, MetricFrom, RunTimes, Spending, StopReason, Stopper};
use crate::app::output;
use crate::cli::RunConfig;
use crate::data::Metric;
use crate::experiment::Clock;
use crate::report::progress::Rounds;

/// An adaptive experiment's stopper, its clock and why it stopped.
pub(super) struct Adaptive {
    pub(super) stopper: Stopper,
    /// The metric the stopper ranks.
    pub(super) metric: Metric,
    /// Without `--metric`: every run's times, per command, to choose the
    /// metric from at each look as the final analysis will.
    pub(super) choosing: Option<Vec<Vec<RunTimes>>>,
    pub(super) clock: Clock,
    pub(super) started: Instant,
    /// When the first timed run was recorded: rounds are timed from there.
    pub(super) first: Option<Instant>,
    pub(super) stopped: Option<StopReason>,
    /// Runs in a round.
    pub(super) commands: u64,
    /// When the stopping rule said stop (since `started`).
    pub(super) stopped_at: Option<Duration>,
}

impl Adaptive {
    /// Without `--metric`: the metric chosen from the runs so far, as the
    /// final analysis chooses it from all of them; when it changes, the
    /// stopper ranks the new one's values of every run so far.
    pub(super) fn choose_metric(&mut self) {
        let Some(runs) = &self.choosing else { return };
        let metric = choose_from(&Spending::of_runs(runs), None).metric;
        if metric != self.metric {
            self.metric = metric;
            let value = |t: &RunTimes| {
                if metric == Metric::WALL {
                    t.wall
                } else {
                    t.cpu
                }
            };
            self.stopper
                .restart(runs.iter().map(|c| c.iter().map(value).collect()).collect());
        }
    }

    /// The experiment starts now, under `rule`, ranking against the
    /// `reference` command if one is given.
    pub(super) fn new(
        rule: crate::analysis::StoppingRule,
        rc: &RunConfig,
        reference: Option<usize>,
        clock: &Clock,
    ) -> Adaptive {
        let commands = rc.plan.commands.len();
        Adaptive {
            stopper: Stopper::new(rule, rc.output.ranking.clone(), reference, commands),
            metric: rc.output.ranking.metric,
            choosing: (rc.output.ranking.metric_from == MetricFrom::Auto)
                .then(|| vec![Vec::new(); commands]),
            clock: clock.clone(),
            started: clock.now(),
            first: None,
            stopped: None,
            commands: commands as u64,
            stopped_at: None,
        }
    }

    /// Where the experiment is against its next look and its budget, for
    /// the progress display.
    pub(super) fn rounds(&self) -> Rounds {
        let rule = self.stopper.rule();
        let looks = self.stopper.looks();
        let done = self.stopper.rounds();
        // The default budget waits for the first look (it is never
        // checked before); a given one holds from the start.
        let looked = self.stopper.last.is_some();
        Rounds {
            done,
            commands: self.commands,
            next_look: looks.round(looks.slot(done + 1)),
            max_rounds: rule.max_rounds,
            max_time: (rule.max_time_given || looked)
                .then(|| (rule.max_time, self.clock.since(self.started))),
        }
    }

    /// After the runs: why the experiment stopped, in the metadata and,
    /// for a budget, in a note. (The raw file's header records the rule,
    /// so `bestreport` reports its runs as this did.)
    pub(super) fn finish(&mut self, metadata: &mut crate::export::metadata::Metadata) {
        let rounds = self.stopper.rounds();
        // The schedule ends by itself at --max-runs, without asking.
        if self.stopped.is_none() && rounds >= self.stopper.rule().max_rounds {
            self.stopped = Some(StopReason::MaxRuns);
        }
        if let Some(experiment) = &mut metadata.experiment {
            experiment.runs = rounds;
            experiment.stopped = self.stopped.map(StopReason::key);
        }
        if let Some(note) = stop_note(self, rounds) {
            output::note(&note);
        }
    }
}

/// What ended an adaptive experiment, when a budget did, and how long it
/// took against `--max-time` ([`crate::app::budget::note`]).
fn stop_note(a: &Adaptive, rounds: u64) -> Option<String> {
    let rule = a.stopper.rule();
    let took = a.clock.since(a.started);
    crate::app::budget::note(&crate::app::budget::Spent {
        stopped: a.stopped?,
        rounds,
        commands: a.commands,
        first_look: a.stopper.looks().first,
        max_rounds: rule.max_rounds,
        max_time: rule.max_time,
        max_time_given: rule.max_time_given,
        took,
        before: a.first.map_or(took, |f| f.duration_since(a.started)),
        stopped_at: a.stopped_at.unwrap_or(took),
    })
}

//! `--live`: the results so far, under the progress bar (cbdr's
//! `sample | analyze`).
//!
//! Per command: the runs so far, the median of the metric of interest, and
//! its relative difference from the reference (the `--reference` command,
//! else the best so far) with the ranking's own interval — the same
//! [`rank_with`] and settings as the final ranking, on the values measured
//! so far, compared as independent samples (the final analysis may pair
//! complete rounds; the intervals are the same). With `--runs auto` the
//! intervals are the adaptive rule's: at the level of the look the rounds
//! so far belong to (the next look), as the report would give them if
//! the experiment ended now, and the note under the table says so. With
//! a fixed count they are the fixed count's, and the note says why they
//! must not decide when to stop: stopping when a difference looks good
//! ("optional stopping") makes the intervals too narrow.
//!
//! What it costs: the analysis runs in this process while commands run, so
//! on a small machine it competes with them for a CPU. It runs at most
//! twice a second, and never more than 1/20 of the time (after an analysis
//! that took t, the next waits at least 20·t), so its share of a core
//! stays under 5 % however many runs there are. `BENCHMARKS.md` has the
//! measured effect on `bench/overhead.sh`'s ratios.

use std::time::{Duration, Instant};

use crate::analysis::{RankingSettings, Reference};
use crate::data::{Metric, RunRecord};
use crate::experiment::{Clock, Plan};
use crate::report::progress::{LiveRow, LiveTable, LIVE_LOOKS, LIVE_REMINDER};
use crate::report::units::{self, Scale};
use crate::stats::{quantile, rank_with, runs_to_compare, Looks, RankOptions, Sample, Verdict};

/// The live results of an experiment.
pub struct Live {
    settings: RankingSettings,
    /// The `--reference` command's index, if one was given and exists.
    reference: Option<usize>,
    labels: Vec<String>,
    /// Per command, the values of the metric of interest so far.
    values: Vec<Vec<f64>>,
    /// No analysis before this instant.
    next: Option<Instant>,
    clock: Clock,
    rows: Vec<LiveRow>,
}

impl Live {
    /// Longest gap between two analyses while results arrive.
    const EVERY: Duration = Duration::from_millis(500);
    /// An analysis may take at most this fraction of the time.
    const DUTY: u32 = 20;

    pub fn new(plan: &Plan, settings: &RankingSettings, clock: &Clock) -> Live {
        let labels: Vec<String> = plan
            .commands
            .iter()
            .map(|c| c.name.clone().unwrap_or_else(|| c.command.text.clone()))
            .collect();
        let reference = settings.reference.as_ref().and_then(|r| match r {
            Reference::Number(n) => n.checked_sub(1).filter(|&i| i < labels.len()),
            Reference::Name(name) => {
                let by_name = plan
                    .commands
                    .iter()
                    .position(|c| c.name.as_deref() == Some(name.as_str()));
                by_name.or_else(|| plan.commands.iter().position(|c| c.command.text == *name))
            }
        });
        let rows = labels
            .iter()
            .map(|label| LiveRow {
                label: label.clone(),
                runs: 0,
                location: String::new(),
                difference: String::new(),
            })
            .collect();
        Live {
            settings: settings.clone(),
            reference,
            values: vec![Vec::new(); labels.len()],
            labels,
            next: None,
            clock: clock.clone(),
            rows,
        }
    }

    /// The table to show now ([`Live::rows`]), with its note.
    pub fn table(&mut self) -> LiveTable<'_> {
        let note = if self.settings.adaptive.is_some() {
            LIVE_LOOKS
        } else {
            LIVE_REMINDER
        };
        LiveTable {
            metric: self.settings.metric.label(),
            rows: self.rows(),
            note,
        }
    }

    /// Keeps the run's value of the metric of interest.
    pub fn record(&mut self, run: &RunRecord) {
        let index = usize::try_from(run.batch).unwrap_or(0).wrapping_sub(1);
        if let (Some(values), Some(v)) =
            (self.values.get_mut(index), run.value(self.settings.metric))
        {
            values.push(v.as_f64());
        }
    }

    /// The rows to show now: analysed afresh when enough time has passed,
    /// else the last ones.
    pub fn rows(&mut self) -> &[LiveRow] {
        let now = self.clock.now();
        let due = match self.next {
            None => true,
            Some(t) => t <= now,
        };
        if due {
            let started = self.clock.now();
            self.rows = analyse(
                &self.labels,
                &self.values,
                self.settings.metric,
                &self.settings,
                self.reference,
            );
            let took = self.clock.since(started);
            self.next = Some(now + Self::EVERY.max(took * Self::DUTY));
        }
        // The counts are free: always today's, so that between analyses
        // they keep up with the bar (not `Runs 1` beside a bar at 281/600).
        for (row, values) in self.rows.iter_mut().zip(&self.values) {
            row.runs = values.len() as u64;
        }
        &self.rows
    }
}

/// One row per command from the values so far.
fn analyse(
    labels: &[String],
    values: &[Vec<f64>],
    metric: Metric,
    settings: &RankingSettings,
    reference: Option<usize>,
) -> Vec<LiveRow> {
    let samples: Vec<Option<Sample>> = values.iter().map(|v| Sample::new(v.clone()).ok()).collect();
    let medians: Vec<Option<f64>> = samples
        .iter()
        .map(|s| s.as_ref().and_then(|s| quantile(s, 0.5)))
        .collect();
    let largest = medians.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = Scale::choose(metric.unit(), largest);
    let mut rows: Vec<LiveRow> = labels
        .iter()
        .zip(values)
        .zip(&medians)
        .map(|((label, v), median)| LiveRow {
            label: label.clone(),
            runs: v.len() as u64,
            location: median.map_or_else(String::new, |m| scale.compact(m)),
            difference: String::new(),
        })
        .collect();
    // The level: a fixed count's α, or with `--runs auto` the share of
    // the look that the rounds so far belong to (the complete rounds: the
    // fewest runs of any command).
    let mut rule = settings.rule();
    if let Some(adaptive) = settings.adaptive {
        let looks = Looks::new(settings.alpha, values.len(), adaptive.min_rounds);
        let rounds = rows.iter().map(|row| row.runs).min().unwrap_or(0);
        rule.alpha = looks.alpha_at(looks.slot(rounds));
    }
    // Compare only when every command has enough runs for all to be
    // compared: the ranking needs one sample per command.
    let needed = runs_to_compare(rule.alpha, values.len()) as u64;
    if rows.iter().any(|row| row.runs < needed) {
        for row in &mut rows {
            if row.runs < needed {
                row.difference = format!("needs {needed} runs");
            }
        }
        return rows;
    }
    let Some(samples) = samples.into_iter().collect::<Option<Vec<Sample>>>() else {
        return rows;
    };
    let options = RankOptions {
        rounds: None,
        reference,
        classic: false,
    };
    let Ok(ranking) = rank_with(&samples, options, &rule) else {
        return rows;
    };
    for entry in &ranking.entries {
        let Some(row) = rows.get_mut(entry.index) else {
            continue;
        };
        row.difference = match (&entry.comparison, &entry.verdict) {
            (_, Verdict::Best) => "reference".to_owned(),
            (Some(c), _) => units::contrast(&c.contrast, metric.unit()),
            (None, _) => String::new(),
        };
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_show_runs_median_and_the_ratio_against_the_best() {
        let labels = vec!["slow".to_string(), "fast".to_string()];
        let fast: Vec<f64> = (0..20).map(|i| 1000.0 + f64::from(i)).collect();
        let slow: Vec<f64> = fast.iter().map(|v| v * 1.5).collect();
        let rows = analyse(
            &labels,
            &[slow, fast],
            Metric::TOTAL,
            &RankingSettings::default(),
            None,
        );
        assert_eq!(rows[0].runs, 20);
        assert_eq!(rows[1].difference, "reference");
        assert!(rows[0].difference.starts_with("+50"), "{:?}", rows[0]);
        assert!(rows[0].location.ends_with("ms"), "{:?}", rows[0]);
    }

    #[test]
    fn run_counts_are_current_between_analyses() {
        let labels = vec!["a".to_string()];
        let mut live = Live {
            settings: RankingSettings::default(),
            reference: None,
            values: vec![Vec::new()],
            rows: Vec::new(),
            labels,
            next: None,
            // Stands still: the next analysis is never due.
            clock: Clock::scripted(),
        };
        let run = |v: i64| {
            RunRecord {
                batch: 1,
                ..RunRecord::default()
            }
            .with(Metric::USER, v)
            .with(Metric::SYSTEM, 0)
        };
        live.record(&run(100));
        assert_eq!(live.rows()[0].runs, 1);
        for v in 0..3 {
            live.record(&run(101 + v));
        }
        // Not due for another analysis (500 ms on a clock that stands
        // still), yet the count moves on.
        assert_eq!(live.rows()[0].runs, 4);
    }

    #[test]
    fn too_few_runs_are_said_not_compared() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let rows = analyse(
            &labels,
            &[vec![1.0, 2.0], vec![]],
            Metric::TOTAL,
            &RankingSettings::default(),
            None,
        );
        // Two commands: 2⁻⁷ ≤ α/4 on each side of each median.
        assert_eq!(rows[0].difference, "needs 7 runs");
        assert_eq!(rows[1].location, "");
        assert_eq!(rows[1].difference, "needs 7 runs");
    }

    #[test]
    fn with_runs_auto_the_intervals_are_at_the_looks_level() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let auto = RankingSettings {
            adaptive: Some(crate::analysis::StoppingRule::default()),
            ..RankingSettings::default()
        };
        let values = |n: usize| -> Vec<Vec<f64>> {
            let a: Vec<f64> = (0..n).map(|i| 1000.0 + 7.0 * i as f64).collect();
            let b = a.iter().map(|v| v * 1.5).collect();
            vec![a, b]
        };
        let rows = |n, settings: &RankingSettings| {
            analyse(&labels, &values(n), Metric::TOTAL, settings, None)
        };
        // Seven runs compare two commands at α = 0.05; the rule's first
        // look, spending α/2, needs eight.
        assert!(rows(7, &RankingSettings::default())[1]
            .difference
            .starts_with("+50"));
        assert_eq!(rows(7, &auto)[1].difference, "needs 8 runs");
        // At 10 rounds (between the looks at 8 and 12): the interval of
        // the look at 12, at its share of α.
        let looks = Looks::new(0.05, 2, 0);
        let alpha = looks.alpha_at(looks.slot(10));
        assert_eq!(looks.round(looks.slot(10)), 12);
        let samples: Vec<Sample> = (values(10).into_iter())
            .map(|v| Sample::new(v).unwrap())
            .collect();
        let rule = crate::stats::RankSettings {
            alpha,
            ..auto.rule()
        };
        let expected = rank_with(&samples, RankOptions::default(), &rule).unwrap();
        let c = expected.entries[1].comparison.unwrap().contrast;
        let shown = rows(10, &auto);
        assert_eq!(
            shown[1].difference,
            units::contrast(&c, Metric::TOTAL.unit())
        );
        assert_ne!(
            shown[1].difference,
            rows(10, &RankingSettings::default())[1].difference
        );
    }

    #[test]
    fn the_note_under_the_table_follows_the_design() {
        let live = |settings: RankingSettings| {
            let mut l = Live {
                settings,
                reference: None,
                values: vec![Vec::new()],
                rows: Vec::new(),
                labels: vec!["a".to_string()],
                next: None,
                clock: Clock::scripted(),
            };
            l.table().note.to_owned()
        };
        assert_eq!(live(RankingSettings::default()), LIVE_REMINDER);
        let auto = RankingSettings {
            adaptive: Some(crate::analysis::StoppingRule::default()),
            ..RankingSettings::default()
        };
        assert_eq!(live(auto), LIVE_LOOKS);
    }

    #[test]
    fn a_given_reference_is_the_reference() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let a: Vec<f64> = (0..10).map(|i| 100.0 + f64::from(i)).collect();
        let b: Vec<f64> = a.iter().map(|v| v * 2.0).collect();
        let rows = analyse(
            &labels,
            &[a, b],
            Metric::TOTAL,
            &RankingSettings::default(),
            Some(1),
        );
        assert_eq!(rows[1].difference, "reference");
        assert!(rows[0].difference.starts_with("-50"), "{:?}", rows[0]);
    }
}

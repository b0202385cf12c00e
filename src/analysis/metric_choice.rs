//! Which metric the ranking and the reports are about: `--metric NAME`,
//! or, without it, the one chosen from what the commands spend.
//!
//! The names users give: `cpu` (total CPU time, user + system), `wall`,
//! `user`, `system`, `rss` (peak memory), `ctxsw` (context switches),
//! `runq` (run-queue delay), and every further metric the data hold — the
//! catalogue's own names (`minflt`, `majflt`, `vcsw`, `icsw`, counters,
//! a command's custom metrics), their JSON keys or raw CSV column headers,
//! without regard to case ([`Catalogue::find`]). A custom metric exists
//! only once data are read or an experiment is set up, so a name is
//! resolved against the catalogue of the data at hand.
//!
//! Without `--metric` ([`MetricFrom::Auto`]), [`choose`] decides from the
//! data ([`Spending`]): wall-clock time when a command mostly waits for
//! something other than a CPU (a sleep, I/O, the network: CPU time would
//! miss what it costs), total CPU time otherwise (what a command spends on
//! a CPU, which a busy machine does not inflate, where it does inflate the
//! wall clock). Waiting for a CPU is not waiting: the run-queue delay is
//! taken out first, so contention never makes a CPU-bound command look
//! like one that waits. Data without CPU time per run (Hyperfine 1.x's
//! JSON), or whose CPU times are counted in ticks too coarse for the runs
//! (cbdr's 10 ms), are ranked by wall-clock time, and the line that says
//! which metric is ranked says why. `bestguess` and `bestreport` choose
//! the same way from the same runs, and an adaptive experiment chooses
//! at every look from the runs so far.

use super::spending::Spending;
use crate::data::{Catalogue, Dataset, InputFormat, Metric};

/// How the ranked metric was decided.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum MetricFrom {
    /// Named (`--metric`), or set by the caller.
    #[default]
    Given,
    /// To be chosen from the data ([`choose`]): no `--metric`.
    Auto,
    /// Chosen from the data, and why.
    Chosen(Choice),
}

/// The metric chosen from the data, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub metric: Metric,
    pub why: Why,
    /// Every run the choice read has its run-queue delay: waiting for a
    /// CPU was told apart from waiting for anything else.
    pub delay_known: bool,
}

/// Why a metric was chosen. Commands are indices in dataset order.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// Total CPU time: every command spends its wall time on a CPU or
    /// waiting for one; `waits` is the largest median share of wall time
    /// any command spent waiting for something else. `tick`: the CPU
    /// times are counted in this coarse tick (µs), fine enough for the
    /// runs.
    OnCpu { waits: f64, tick: Option<i64> },
    /// Wall-clock time: these commands mostly wait for something other
    /// than a CPU; `share` is the largest median share among them.
    Waits { commands: Vec<usize>, share: f64 },
    /// Wall-clock time: the CPU times of `command` are counted in ticks of
    /// `tick` µs (0: every one is 0), too coarse for its median CPU time.
    CoarseCpu {
        command: usize,
        tick: i64,
        median: f64,
    },
    /// Wall-clock time: these commands have no CPU time per run; `source`
    /// names what the format keeps instead, where it is known.
    NoCpu {
        commands: Vec<usize>,
        source: Option<InputFormat>,
    },
    /// Total CPU time: the data have no wall-clock times.
    NoWall,
}

/// The metric to rank for `dataset`, from what its commands spend.
pub fn choose(dataset: &Dataset, spending: &Spending) -> Choice {
    let no_cpu: Vec<usize> = (0..spending.commands.len())
        .filter(|&i| !spending.commands[i].has_cpu)
        .collect();
    let source = no_cpu.iter().find_map(|&i| {
        let c = dataset.commands.get(i)?;
        let format = dataset.sources.get(c.source)?.format;
        matches!(
            format,
            InputFormat::HyperfineJson1 | InputFormat::HyperfineJson2
        )
        .then_some(format)
    });
    choose_from(spending, source)
}

/// `settings` with the metric settled for `dataset`: chosen from the data
/// ([`choose`]) when it is [`MetricFrom::Auto`], as it was otherwise.
pub fn settle(
    mut settings: super::RankingSettings,
    dataset: &Dataset,
    spending: &Spending,
) -> super::RankingSettings {
    if settings.metric_from == MetricFrom::Auto {
        let choice = choose(dataset, spending);
        settings.metric = choice.metric;
        settings.metric_from = MetricFrom::Chosen(choice);
    }
    settings
}

/// [`choose`] from the spending alone (an experiment under way); `source`:
/// the format that explains missing CPU times, if known.
pub fn choose_from(spending: &Spending, source: Option<InputFormat>) -> Choice {
    let commands = &spending.commands;
    let choice = |metric, why| Choice {
        metric,
        why,
        delay_known: spending.delay_known(),
    };
    let all_wall = commands.iter().all(|c| c.has_wall);
    if !commands.is_empty() && !all_wall {
        return choice(Metric::TOTAL, Why::NoWall);
    }
    let no_cpu: Vec<usize> = (0..commands.len())
        .filter(|&i| !commands[i].has_cpu)
        .collect();
    if !no_cpu.is_empty() {
        return choice(
            Metric::WALL,
            Why::NoCpu {
                commands: no_cpu,
                source,
            },
        );
    }
    // Too coarse first: a CPU time of 0 would make any command look as if
    // it waited.
    if let Some((command, tick)) =
        (commands.iter().enumerate()).find_map(|(i, c)| c.too_coarse().map(|tick| (i, tick)))
    {
        return choice(
            Metric::WALL,
            Why::CoarseCpu {
                command,
                tick,
                median: commands[command].cpu_median.unwrap_or(0.0),
            },
        );
    }
    let waiting = spending.waiting();
    let most = |list: &mut dyn Iterator<Item = usize>| {
        list.filter_map(|i| commands[i].waits)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    if !waiting.is_empty() {
        let share = most(&mut waiting.iter().copied());
        return choice(
            Metric::WALL,
            Why::Waits {
                commands: waiting,
                share,
            },
        );
    }
    let waits = most(&mut (0..commands.len()));
    let tick = commands.iter().filter_map(|c| c.cpu_tick).max();
    choice(
        Metric::TOTAL,
        Why::OnCpu {
            waits: if waits.is_finite() { waits } else { 0.0 },
            tick,
        },
    )
}

/// The short names of the fixed metrics, as `--metric`'s help promises
/// them, beside the catalogue's own (`total`, `maxrss`, `csw`).
const ALIASES: [(&str, Metric); 4] = [
    ("cpu", Metric::TOTAL),
    ("rss", Metric::MAXRSS),
    ("memory", Metric::MAXRSS),
    ("ctxsw", Metric::TOTAL_CSW),
];

/// The short names `--metric` lists first, in that order: the ones a user
/// reaches for (the time metrics, peak memory, context switches).
pub const SHORT_NAMES: [(&str, Metric); 6] = [
    ("cpu", Metric::TOTAL),
    ("wall", Metric::WALL),
    ("user", Metric::USER),
    ("system", Metric::SYSTEM),
    ("rss", Metric::MAXRSS),
    ("ctxsw", Metric::TOTAL_CSW),
];

/// The metric `name` means in `catalogue`, or an error that lists the names
/// there are.
pub fn resolve_metric(name: &str, catalogue: &Catalogue) -> Result<Metric, UnknownMetric> {
    let wanted = name.trim();
    ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(wanted))
        .map(|(_, m)| *m)
        .or_else(|| catalogue.find(wanted))
        .ok_or_else(|| UnknownMetric {
            name: wanted.to_owned(),
            known: known_names(catalogue),
        })
}

/// Every name `--metric` accepts for `catalogue`, the short ones first.
pub fn known_names(catalogue: &Catalogue) -> Vec<String> {
    let mut names: Vec<String> = SHORT_NAMES
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    for (metric, def) in catalogue.iter() {
        let covered = ALIASES.iter().any(|(_, m)| *m == metric)
            || names.iter().any(|n| n == def.name.as_ref());
        if !covered {
            names.push(def.name.to_string());
        }
    }
    names
}

/// A `--metric` name that the data do not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--metric {name}: no such metric in the data; choose one of {}", known.join(", "))]
pub struct UnknownMetric {
    pub name: String,
    pub known: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_and_catalogue_names_resolve() {
        let c = Catalogue::new();
        assert_eq!(resolve_metric("cpu", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric("CPU", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric("total", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric(" wall ", &c), Ok(Metric::WALL));
        assert_eq!(resolve_metric("user", &c), Ok(Metric::USER));
        assert_eq!(resolve_metric("system", &c), Ok(Metric::SYSTEM));
        assert_eq!(resolve_metric("rss", &c), Ok(Metric::MAXRSS));
        assert_eq!(resolve_metric("ctxsw", &c), Ok(Metric::TOTAL_CSW));
        assert_eq!(resolve_metric("majflt", &c), Ok(Metric::MAJOR_FAULTS));
        assert_eq!(resolve_metric("Wall clock (us)", &c), Ok(Metric::WALL));
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let e = resolve_metric("cycles", &Catalogue::new()).unwrap_err();
        assert_eq!(e.name, "cycles");
        assert_eq!(
            &e.known[..6],
            ["cpu", "wall", "user", "system", "rss", "ctxsw"]
        );
        assert!(e.known.contains(&"majflt".to_owned()));
        assert!(!e.known.contains(&"total".to_owned()), "{:?}", e.known);
        assert!(e.to_string().starts_with("--metric cycles: no such metric"));
    }

    use super::super::spending::{CommandSpending, RunTimes};

    fn spending(commands: &[(f64, f64, Option<f64>)]) -> Spending {
        let runs: Vec<Vec<RunTimes>> = commands
            .iter()
            .map(|&(wall, cpu, delay)| {
                (0..5)
                    .map(|k| RunTimes {
                        wall: Some(wall + k as f64),
                        cpu: Some(cpu + k as f64),
                        delay,
                    })
                    .collect()
            })
            .collect();
        Spending::of_runs(&runs)
    }

    #[test]
    fn a_command_that_mostly_waits_ranks_wall_clock_time() {
        let c = choose_from(
            &spending(&[
                (100_000.0, 1_000.0, Some(30.0)),
                (200_000.0, 1_100.0, Some(40.0)),
            ]),
            None,
        );
        assert_eq!(c.metric, Metric::WALL);
        assert!(
            matches!(c.why, Why::Waits { ref commands, share } if commands == &[0, 1] && share > 0.98)
        );
        assert!(c.delay_known);
        // One waiting command is enough: CPU time would miss its cost.
        let mixed = choose_from(
            &spending(&[
                (100_000.0, 1_000.0, Some(0.0)),
                (5_000.0, 4_900.0, Some(0.0)),
            ]),
            None,
        );
        assert!(matches!(mixed.why, Why::Waits { ref commands, .. } if commands == &[0]));
    }

    #[test]
    fn a_busy_machine_does_not_make_cpu_bound_commands_wait() {
        // Half the wall time waiting for a CPU, the rest on it.
        let c = choose_from(
            &spending(&[
                (40_000.0, 20_000.0, Some(19_500.0)),
                (80_000.0, 40_000.0, Some(39_000.0)),
            ]),
            None,
        );
        assert_eq!(c.metric, Metric::TOTAL);
        assert!(matches!(c.why, Why::OnCpu { waits, tick: None } if waits < 0.02));
        // Without the delay the same runs look like waiting, and the
        // choice says it could not tell.
        let blind = choose_from(
            &spending(&[(40_000.0, 15_000.0, None), (80_000.0, 30_000.0, None)]),
            None,
        );
        assert_eq!((blind.metric, blind.delay_known), (Metric::WALL, false));
    }

    #[test]
    fn coarse_or_missing_cpu_times_rank_wall_clock_time_with_the_reason() {
        let ticks: Vec<RunTimes> = [0.0, 10_000.0, 0.0, 0.0, 20_000.0]
            .iter()
            .map(|&cpu| RunTimes {
                wall: Some(2_300.0),
                cpu: Some(cpu),
                delay: None,
            })
            .collect();
        let c = choose_from(&Spending::of_runs(&[ticks.clone(), ticks]), None);
        assert_eq!(c.metric, Metric::WALL);
        assert!(
            matches!(c.why, Why::CoarseCpu { command: 0, tick: 10_000, median } if median == 0.0)
        );
        let wall_only = vec![RunTimes {
            wall: Some(1.0),
            ..RunTimes::default()
        }];
        let c = choose_from(
            &Spending::of_runs(&[wall_only.clone(), wall_only]),
            Some(InputFormat::HyperfineJson1),
        );
        assert_eq!(c.metric, Metric::WALL);
        assert!(
            matches!(c.why, Why::NoCpu { ref commands, source: Some(InputFormat::HyperfineJson1) } if commands == &[0, 1])
        );
        let cpu_only = vec![RunTimes {
            cpu: Some(1.0),
            ..RunTimes::default()
        }];
        assert_eq!(
            choose_from(&Spending::of_runs(&[cpu_only]), None).why,
            Why::NoWall
        );
        // A fine CPU time in long runs: no tick, CPU time.
        let long = CommandSpending::of_runs((0..3).map(|k| RunTimes {
            wall: Some(1e6),
            cpu: Some(9e5 + k as f64),
            delay: Some(0.0),
        }));
        assert_eq!(long.cpu_tick, None);
    }

    #[test]
    fn settling_chooses_only_when_asked() {
        use crate::data::{Dataset, RunRecord};
        let runs = (0..5).flat_map(|k| {
            [("sleep", 1), ("nap", 2)].map(|(c, batch)| {
                RunRecord {
                    command: c.into(),
                    batch,
                    ..RunRecord::default()
                }
                .with(Metric::USER, 900 + k)
                .with(Metric::SYSTEM, 0)
                .with(Metric::WALL, 100_000 * batch as i64 + k)
                .with(Metric::RUN_DELAY, 20)
            })
        });
        let dataset = Dataset::from_records(runs);
        let spent = Spending::of(&dataset);
        let given = super::super::RankingSettings::default();
        assert_eq!(settle(given.clone(), &dataset, &spent), given);
        let auto = super::super::RankingSettings {
            metric_from: MetricFrom::Auto,
            ..given
        };
        let settled = settle(auto, &dataset, &spent);
        assert_eq!(settled.metric, Metric::WALL);
        assert!(matches!(
            settled.metric_from,
            MetricFrom::Chosen(Choice {
                metric: Metric::WALL,
                ..
            })
        ));
    }

    #[test]
    fn registered_metrics_are_found_by_name() {
        use crate::data::{MetricDef, Unit};
        let mut c = Catalogue::new();
        let m = c
            .register(MetricDef::appended("score", Unit::Number))
            .unwrap();
        assert_eq!(resolve_metric("score", &c), Ok(m));
        assert!(known_names(&c).contains(&"score".to_owned()));
    }
}

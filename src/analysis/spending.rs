//! What each command spends its wall-clock time on: the CPU, waiting for
//! a CPU, or waiting for something else (a timer, the disk, the network,
//! a child that waits).
//!
//! Per run, wall time splits into CPU time (user + system, from `wait4`),
//! the run-queue delay (time runnable but not running: waiting for a CPU,
//! from `/proc/PID/schedstat`; see `docs/measuring.md`) and the rest,
//! `wall − CPU − delay`, time spent waiting for anything but a CPU. The
//! first two are the command's work and the machine's contention; only the
//! third says the command itself waits. The default metric is chosen from
//! it ([`super::metric_choice`]) and so is the note about commands that
//! mostly wait, which a busy machine therefore cannot set off, and the
//! share of the runs' wall time spent waiting for a CPU says whether the
//! machine was busy.
//!
//! Each share is the median over a command's runs of the run's own share
//! (a run is one measurement of all three). A run without a run-queue
//! delay (files written without it, a kernel without `CONFIG_SCHED_INFO`,
//! the portable build) counts its wait for a CPU as waiting:
//! [`Spending::delay_known`] says whether that happened.
//!
//! The delay covers the command's own process (its main thread), not its
//! children or other threads (see `docs/measuring.md`), and CPU time covers
//! the whole tree: for a command that hands its work to children on a busy
//! machine, their wait for a CPU counts as waiting.

use crate::data::{CommandRuns, Dataset, Metric, Value, Values};
use crate::stats::{quantile, Sample};

/// A command that spends more than this share of its wall time waiting
/// for something other than a CPU mostly waits.
pub const MOSTLY_WAITS: f64 = 0.5;

/// Runs that spent at least this share of their wall time waiting for a
/// CPU ran on a busy machine. A quiet 2-CPU machine gives `/bin/true`
/// 1–3 % (the wake-up after its spawn), a sleep 0.1 % or less.
pub const BUSY: f64 = 0.10;

/// CPU times counted in ticks of at least this many µs are coarse (the
/// C library's `times()` and cbdr count 10 ms ticks).
pub const COARSE_TICK_US: i64 = 1000;

/// A coarse CPU time is too coarse to rank when the command's median CPU
/// time is below this many ticks: one tick is then more than 1 %, the
/// default effect threshold.
pub const TICKS_TO_RANK: f64 = 100.0;

/// One run's times as the shares read them, µs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunTimes {
    pub wall: Option<f64>,
    /// User + system time.
    pub cpu: Option<f64>,
    /// Run-queue delay.
    pub delay: Option<f64>,
}

impl RunTimes {
    /// The times of one run's values.
    pub fn of(values: &Values) -> RunTimes {
        let get = |m| values.get(m).map(Value::as_f64);
        RunTimes {
            wall: get(Metric::WALL),
            cpu: get(Metric::TOTAL),
            delay: get(Metric::RUN_DELAY),
        }
    }
}

/// What one command spends.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandSpending {
    /// Median share of a run's wall time spent waiting for something other
    /// than a CPU, `(wall − CPU − delay) / wall` (negative when threads
    /// ran in parallel); `None` without runs that have both times.
    pub waits: Option<f64>,
    /// Median share of a run's wall time spent waiting for a CPU; `None`
    /// without runs that have the delay and a wall time.
    pub cpu_wait: Option<f64>,
    /// Median CPU time, µs.
    pub cpu_median: Option<f64>,
    /// The tick the CPU times are counted in, µs, when it is coarse (at
    /// least [`COARSE_TICK_US`]): every value a whole multiple of it. `Some(0)`
    /// when every CPU time is 0 (no resolution at all).
    pub cpu_tick: Option<i64>,
    /// Some run has a wall time / a CPU time.
    pub has_wall: bool,
    pub has_cpu: bool,
    /// Runs with a wall and a CPU time but no run-queue delay.
    pub runs_without_delay: usize,
}

impl CommandSpending {
    /// The command's CPU time is counted in ticks too coarse to rank it:
    /// the tick, when its median CPU time is fewer than [`TICKS_TO_RANK`]
    /// ticks (or every CPU time is 0).
    pub fn too_coarse(&self) -> Option<i64> {
        let tick = self.cpu_tick?;
        let median = self.cpu_median.unwrap_or(0.0);
        (tick == 0 || median < TICKS_TO_RANK * tick as f64).then_some(tick)
    }

    /// The command mostly waits for something other than a CPU.
    pub fn mostly_waits(&self) -> bool {
        self.waits.is_some_and(|w| w > MOSTLY_WAITS)
    }

    /// From one command's runs.
    pub fn of_runs(runs: impl Iterator<Item = RunTimes>) -> CommandSpending {
        let mut waits = Vec::new();
        let mut cpu_waits = Vec::new();
        let mut cpus = Vec::new();
        let mut out = CommandSpending::default();
        let mut tick: Option<i64> = None;
        let mut any_cpu = false;
        for r in runs {
            out.has_wall |= r.wall.is_some();
            if let Some(cpu) = r.cpu {
                any_cpu = true;
                cpus.push(cpu);
                // In whole µs: the greatest common divisor of the nonzero
                // ones.
                let c = cpu.round() as i64;
                if c > 0 {
                    tick = Some(tick.map_or(c, |t| gcd(t, c)));
                }
            }
            let Some(wall) = r.wall.filter(|&w| w > 0.0) else {
                continue;
            };
            if let Some(delay) = r.delay {
                cpu_waits.push(delay / wall);
            }
            if let Some(cpu) = r.cpu {
                if r.delay.is_none() {
                    out.runs_without_delay += 1;
                }
                waits.push((wall - cpu - r.delay.unwrap_or(0.0)) / wall);
            }
        }
        out.has_cpu = any_cpu;
        out.waits = median(waits);
        out.cpu_wait = median(cpu_waits);
        out.cpu_median = median(cpus);
        out.cpu_tick = match tick {
            None if any_cpu => Some(0),
            Some(t) if t >= COARSE_TICK_US => Some(t),
            _ => None,
        };
        out
    }

    /// From a command of a dataset.
    pub fn of(c: &CommandRuns) -> CommandSpending {
        let times = c
            .values(Metric::WALL)
            .zip(c.values(Metric::TOTAL))
            .zip(c.values(Metric::RUN_DELAY))
            .map(|((wall, cpu), delay)| RunTimes {
                wall: wall.map(Value::as_f64),
                cpu: cpu.map(Value::as_f64),
                delay: delay.map(Value::as_f64),
            });
        CommandSpending::of_runs(times)
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn median(values: Vec<f64>) -> Option<f64> {
    let sample = Sample::new(values).ok()?;
    quantile(&sample, 0.5)
}

/// What every command spends, and whether the machine was busy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spending {
    /// Per command, in dataset order.
    pub commands: Vec<CommandSpending>,
    /// The share of the runs' wall time spent waiting for a CPU: the sum
    /// of their run-queue delays over the sum of their wall times (runs
    /// that have both); `None` when no run has a delay.
    pub cpu_wait_share: Option<f64>,
}

impl Spending {
    /// From a dataset.
    pub fn of(dataset: &Dataset) -> Spending {
        let commands = dataset.commands.iter().map(CommandSpending::of).collect();
        let mut sums = (0.0, 0.0, false);
        for c in &dataset.commands {
            for (wall, delay) in c.values(Metric::WALL).zip(c.values(Metric::RUN_DELAY)) {
                if let (Some(wall), Some(delay)) = (wall, delay) {
                    sums.0 += delay.as_f64();
                    sums.1 += wall.as_f64();
                    sums.2 = true;
                }
            }
        }
        Spending {
            commands,
            cpu_wait_share: share(sums),
        }
    }

    /// From runs kept per command (an experiment under way).
    pub fn of_runs(runs: &[Vec<RunTimes>]) -> Spending {
        let commands = (runs.iter())
            .map(|r| CommandSpending::of_runs(r.iter().copied()))
            .collect();
        let mut sums = (0.0, 0.0, false);
        for r in runs.iter().flatten() {
            if let (Some(wall), Some(delay)) = (r.wall, r.delay) {
                sums.0 += delay;
                sums.1 += wall;
                sums.2 = true;
            }
        }
        Spending {
            commands,
            cpu_wait_share: share(sums),
        }
    }

    /// Every run that has wall and CPU times has its run-queue delay.
    pub fn delay_known(&self) -> bool {
        self.commands.iter().all(|c| c.runs_without_delay == 0)
    }

    /// The share of wall time spent waiting for a CPU, when it marks the
    /// machine as busy (at least [`BUSY`]).
    pub fn busy(&self) -> Option<f64> {
        self.cpu_wait_share.filter(|&s| s >= BUSY)
    }

    /// The commands that mostly wait for something other than a CPU.
    pub fn waiting(&self) -> Vec<usize> {
        (0..self.commands.len())
            .filter(|&i| self.commands[i].mostly_waits())
            .collect()
    }
}

fn share((delay, wall, any): (f64, f64, bool)) -> Option<f64> {
    (any && wall > 0.0).then(|| delay / wall)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(wall: f64, cpu: f64, delay: Option<f64>) -> RunTimes {
        RunTimes {
            wall: Some(wall),
            cpu: Some(cpu),
            delay,
        }
    }

    #[test]
    fn waiting_for_a_cpu_is_not_waiting() {
        // A sleep: almost all of its wall time off the CPU and not waiting
        // for one.
        let sleep = CommandSpending::of_runs((0..5).map(|_| run(100_000.0, 1_000.0, Some(50.0))));
        assert!(sleep.mostly_waits());
        assert!((sleep.waits.unwrap() - 0.9895).abs() < 1e-9);
        // CPU-bound beside a hog on its CPU: half its wall time waiting
        // for the CPU, none for anything else.
        let busy = CommandSpending::of_runs((0..5).map(|_| run(20_000.0, 10_000.0, Some(9_900.0))));
        assert!(!busy.mostly_waits());
        assert!((busy.cpu_wait.unwrap() - 0.495).abs() < 1e-9);
        // The same without the delay (an older file): it looks like waiting.
        let unknown = CommandSpending::of_runs((0..5).map(|_| run(20_000.0, 9_000.0, None)));
        assert!(unknown.mostly_waits());
        assert_eq!(unknown.runs_without_delay, 5);
        // Parallel threads: more CPU than wall time.
        let threads = CommandSpending::of_runs((0..5).map(|_| run(10_000.0, 35_000.0, Some(0.0))));
        assert!(threads.waits.unwrap() < 0.0 && !threads.mostly_waits());
    }

    #[test]
    fn the_busy_share_weighs_runs_by_their_wall_time() {
        let runs = vec![
            vec![run(1_000.0, 900.0, Some(500.0))],
            vec![run(9_000.0, 8_000.0, Some(500.0)), run(0.0, 0.0, None)],
        ];
        let s = Spending::of_runs(&runs);
        assert_eq!(s.cpu_wait_share, Some(0.1));
        assert_eq!(s.busy(), Some(0.1));
        assert!(!s.delay_known() || s.commands[1].runs_without_delay == 0);
        let quiet = Spending::of_runs(&[vec![run(1_000.0, 900.0, Some(20.0))]]);
        assert_eq!(quiet.busy(), None);
        let none = Spending::of_runs(&[vec![run(1_000.0, 900.0, None)]]);
        assert_eq!((none.cpu_wait_share, none.delay_known()), (None, false));
    }

    #[test]
    fn coarse_ticks_are_found_and_judged_against_the_median() {
        // cbdr: 10 ms ticks, mostly 0, runs of a few ms.
        let cbdr = CommandSpending::of_runs(
            [0.0, 0.0, 10_000.0, 0.0, 20_000.0]
                .iter()
                .map(|&c| run(2_500.0, c, None)),
        );
        assert_eq!(cbdr.cpu_tick, Some(10_000));
        assert_eq!(cbdr.too_coarse(), Some(10_000));
        // Long runs: 10 ms is under 1 % of the median.
        let long = CommandSpending::of_runs(
            [2_000_000.0, 2_010_000.0, 1_990_000.0]
                .iter()
                .map(|&c| run(2_500_000.0, c, None)),
        );
        assert_eq!((long.cpu_tick, long.too_coarse()), (Some(10_000), None));
        // Microseconds: no tick.
        let fine = CommandSpending::of_runs(
            [731.0, 1_000.0, 2_000.0]
                .iter()
                .map(|&c| run(900.0, c, None)),
        );
        assert_eq!(fine.cpu_tick, None);
        // Every CPU time 0: nothing to rank.
        let zero = CommandSpending::of_runs((0..3).map(|_| run(900.0, 0.0, None)));
        assert_eq!(zero.too_coarse(), Some(0));
        // No CPU time at all: no tick, and nothing coarse.
        let none = CommandSpending::of_runs((0..3).map(|_| RunTimes {
            wall: Some(1.0),
            ..RunTimes::default()
        }));
        assert_eq!(
            (none.cpu_tick, none.has_cpu, none.waits),
            (None, false, None)
        );
    }
}

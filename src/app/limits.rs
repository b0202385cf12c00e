//! The `--limits` text: what the tool and this machine can measure, read
//! from the launcher (the Max RSS floor, the spawn path, which counters
//! open), without running an experiment.

use super::engine::start_launcher;
use super::AppError;
use crate::measure::counters;
use crate::measure::extras::ExtrasConfig;
use crate::measure::launcher::Launcher;

/// The `--limits` text.
pub fn limits() -> Result<String, AppError> {
    let mut launcher = start_launcher()?;
    let floor = launcher
        .floor_bytes()
        .map_err(|e| AppError::failure(e.to_string()))?;
    Ok(format!(
        "Limits:\n\
         \x20 Commands, words per command, command length: no compiled-in limits\n\
         \x20 (memory is the only limit; every run is kept).\n\
         \x20 Runs and warmups per command (-r, -w): at most {}; parameter\n\
         \x20 combinations (-P, -L): at most {}.\n\
         \x20 Max RSS floor: {floor} bytes ({:.2} MB), {}\n\
         \x20 Resolution: wall clock CLOCK_MONOTONIC (ns, stored in μs); CPU times as\n\
         \x20 accounted by the kernel (rusage, μs).\n\
         \x20 Inference needs n runs of each command with 2^-n <= alpha/(2K) for K commands\n\
         \x20 (7 for two at alpha 0.05, 9 for ten); p95 needs 20, p99 100.\n{}\
         \x20 Run-queue delay (time waiting for a CPU): {}.\n{}",
        crate::experiment::MAX_RUNS,
        crate::experiment::params::MAX_VALUES,
        floor as f64 / 1e6,
        crate::measure::platform::FLOOR,
        launcher.spawn_path().limits_text(),
        crate::measure::platform::run_delay_unavailable()
            .unwrap_or("measured per run, from /proc/PID/schedstat"),
        probe_counters(&mut launcher)
    ))
}

/// What `--limits` says about CPU time accounting and counters: every
/// counter is opened once by the launcher to see which work here.
fn probe_counters(launcher: &mut Launcher) -> String {
    let all = ExtrasConfig {
        counters: counters::COUNTERS.iter().collect(),
        ..ExtrasConfig::default()
    };
    match launcher.set_up(&all) {
        Ok(reply) => counters::limits_text(
            &reply.counter_errors,
            crate::measure::platform::perf_paranoid(),
            crate::measure::platform::cpu_accounting(),
        ),
        Err(e) => format!("  Counters: could not be probed ({e}).\n"),
    }
}

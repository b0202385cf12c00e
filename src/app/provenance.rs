//! What the JSON export records about how an experiment was made: the
//! command line, the clocks, the machine and the plan.
//!
//! Gathered here, at the edge, so that exports stay pure writers. The
//! machine is read from `/proc` (kernel release, CPU model) where it
//! exists; anything unknown is left out rather than guessed.

use crate::cli::RunConfig;
use crate::data::Dataset;
use crate::experiment::Order;
use crate::export::metadata::{Experiment, Metadata, Platform, Source};
use crate::measure::sys;

/// The machine this process runs on.
pub fn platform() -> Platform {
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| {
                    l.starts_with("model name")
                        || l.starts_with("Model")
                        || l.starts_with("cpu model")
                })
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        });
    Platform {
        os: read("/proc/sys/kernel/ostype").unwrap_or_else(|| os_name().to_owned()),
        architecture: std::env::consts::ARCH.to_owned(),
        kernel: read("/proc/sys/kernel/osrelease"),
        cpu_model,
        cpus: std::thread::available_parallelism().ok().map(|n| n.get()),
    }
}

/// `uname -s`'s spelling of the operating systems Rust names in lower case.
fn os_name() -> &'static str {
    match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Darwin",
        "freebsd" => "FreeBSD",
        "netbsd" => "NetBSD",
        "openbsd" => "OpenBSD",
        other => other,
    }
}

/// Metadata of an experiment about to start (the end time is set when it
/// ends).
pub fn for_run(rc: &RunConfig, command_line: &[String]) -> Metadata {
    let plan = &rc.plan;
    Metadata {
        program: "bestguess".to_owned(),
        command_line: command_line.to_vec(),
        start_unix_us: Some(sys::realtime_us()),
        end_unix_us: None,
        platform: Some(platform()),
        experiment: Some(Experiment {
            runs: plan.runs,
            warmup: plan.warmup,
            order: plan.order.to_string(),
            seed: (plan.order == Order::Random).then_some(plan.seed),
            seed_given: rc.seed_given,
            shell: plan.shell.clone(),
            timeout_s: plan.timeout.map(|t| t.as_secs_f64()),
            ignore_failure: plan.ignore_failure,
            commands: plan.commands.len(),
            stopped: None,
            budget: rc
                .output
                .ranking
                .adaptive
                .map(|rule| (rule.max_rounds, rule.max_time.as_secs_f64())),
        }),
        ..Metadata::default()
    }
}

/// Metadata of a report on saved files: the command line that made it;
/// the machine, times and plan of the runs are not known from the files.
pub fn for_report(command_line: &[String], dataset: &Dataset) -> Metadata {
    Metadata {
        program: "bestreport".to_owned(),
        command_line: command_line.to_vec(),
        sources: dataset
            .sources
            .iter()
            .map(|s| Source {
                path: s.path.clone(),
                tag: s.tag.clone(),
                format: s.format.name().to_owned(),
            })
            .collect(),
        ..Metadata::default()
    }
}

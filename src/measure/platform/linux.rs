//! The platform interface on Linux (see [`super`]): the launcher runs
//! from a memfd, counters are perf events, pinning is
//! `sched_setaffinity`, the run-queue delay comes from
//! `/proc/PID/schedstat`.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

use crate::measure::sys;

/// The measurement path, as `--limits` and the JSON name it.
pub const NAME: &str = "linux";

/// What `--limits` says the launcher's floor is (its VmHWM).
pub const FLOOR: &str = "the peak RSS of the static C launcher that\n  \
     spawns the commands; no command's max RSS can be reported below it.";

/// The launcher in a memfd, its descriptor moved to 10 or above (3 and 4
/// are mapped over at the spawn), and the path that executes it.
pub fn memory_image(bytes: &[u8]) -> io::Result<(OwnedFd, CString)> {
    let fd = sys::memfd_with(c"bestguess-launcher", bytes)?;
    let fd = sys::dup_above(fd.as_raw_fd(), 10)?;
    let path =
        CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd())).map_err(io::Error::other)?;
    Ok((fd, path))
}

/// Why the run-queue delay is not measured here, if it is not: the kernel
/// keeps no per-task scheduler statistics.
pub fn run_delay_unavailable() -> Option<&'static str> {
    if std::path::Path::new("/proc/self/schedstat").exists() {
        None
    } else {
        Some(
            "this kernel keeps no per-task scheduler statistics (/proc/PID/schedstat, \
             CONFIG_SCHED_INFO)",
        )
    }
}

/// Counters are perf events; whether each opens is the launcher's answer.
pub fn counters_unavailable() -> Option<&'static str> {
    None
}

/// Pinning is `sched_setaffinity`.
pub fn pinning_unavailable() -> Option<&'static str> {
    None
}

/// The CPUs this process may run on (`Cpus_allowed_list` of
/// `/proc/self/status`), if readable.
pub fn allowed_cpus() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map(|l| l.trim().to_string())
}

/// `/proc/sys/kernel/perf_event_paranoid`, if readable.
pub fn perf_paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// How this kernel accounts user and system time: `"tick"` or `"virt"`,
/// from its configuration in `/boot`, if readable.
pub fn cpu_accounting() -> Option<&'static str> {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    let config = std::fs::read_to_string(format!("/boot/config-{}", release.trim())).ok()?;
    if config.lines().any(|l| l == "CONFIG_TICK_CPU_ACCOUNTING=y") {
        Some("tick")
    } else if config
        .lines()
        .any(|l| l.starts_with("CONFIG_VIRT_CPU_ACCOUNTING") && l.ends_with("=y"))
    {
        Some("virt")
    } else {
        None
    }
}

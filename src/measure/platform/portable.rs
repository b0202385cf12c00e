//! The platform interface with POSIX alone (see [`super`]): what macOS
//! and the BSDs have. The launcher runs from a private temporary file; no
//! counters, no pinning, no run-queue delay (each refused or marked with
//! one line); the launcher's memory floor is its own `ru_maxrss`.

use std::ffi::CString;
use std::io;
use std::os::fd::OwnedFd;

/// The measurement path, as `--limits` and the JSON name it.
pub const NAME: &str = "portable";

/// What `--limits` says the launcher's floor is: its own `ru_maxrss`,
/// which is not its own peak alone (after an `execve`, Linux keeps the
/// spawner's high-water mark in it), so an upper bound of the floor.
pub const FLOOR: &str = "the launcher's own ru_maxrss: an upper\n  \
     bound of the floor under every command's max RSS (the portable build\n  \
     cannot read the launcher's own peak; on Linux this figure includes the\n  \
     peak of the tool that started it).";

/// There is no executable file in memory without Linux's memfd and
/// `/proc/self/fd`: the launcher is run from a temporary file.
pub fn memory_image(_bytes: &[u8]) -> io::Result<(OwnedFd, CString)> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the portable build runs the launcher from a temporary file",
    ))
}

/// Why the run-queue delay is not measured.
pub fn run_delay_unavailable() -> Option<&'static str> {
    Some("the portable build does not measure it (it needs Linux's /proc/PID/schedstat)")
}

/// Why counters cannot be opened.
pub fn counters_unavailable() -> Option<&'static str> {
    Some("the portable build has no performance counters (they need Linux's perf events)")
}

/// Why commands cannot be pinned.
pub fn pinning_unavailable() -> Option<&'static str> {
    Some(
        "the portable build cannot pin commands to CPUs (it needs Linux's \
         sched_setaffinity)",
    )
}

/// Not known without `/proc`.
pub fn allowed_cpus() -> Option<String> {
    None
}

/// No perf events.
pub fn perf_paranoid() -> Option<i32> {
    None
}

/// Not known without the kernel's configuration.
pub fn cpu_accounting() -> Option<&'static str> {
    None
}

//! Everything the measurement path needs beyond POSIX, behind one small
//! interface, with two implementations: `linux` (the measurement path
//! as Linux allows it: the launcher executed from a memfd, counters,
//! pinning, the run-queue delay, the exact memory floor) and `portable`
//! (POSIX alone: what macOS and the BSDs have). The `linux` cargo feature,
//! on by default, chooses the first when building for Linux
//! (`cfg(bestguess_linux)`, set by `build.rs`); `cargo build
//! --no-default-features` builds the portable path on Linux, which is how
//! it is tested here. The launcher has the same split in C
//! (`launcher_linux.c`, `launcher_posix.c`).
//!
//! The interface, implemented by both modules with the same names:
//!
//! * `NAME`: the path, for `--limits` and the JSON's metadata;
//! * `memory_image(bytes)`: the launcher as an executable file in memory
//!   and the path that executes it (a memfd and `/proc/self/fd/N`), or an
//!   error: the launcher is then run from a private temporary file;
//! * `run_delay_unavailable()`, `counters_unavailable()`,
//!   `pinning_unavailable()`: why a measurement or control cannot be had
//!   here, in one line (`None`: it can);
//! * `allowed_cpus()`: the CPUs this process may run on (`--cpus` checks
//!   against them);
//! * `perf_paranoid()`, `cpu_accounting()`: what `--limits` says of the
//!   counters and of CPU time;
//!
//! and [`maxrss_bytes`], the one conversion of `ru_maxrss` (whose unit
//! differs by platform) into bytes. The few system calls that need
//! `unsafe` are in `sys/`, gated the same way.

#[cfg(bestguess_linux)]
pub mod linux;
#[cfg(not(bestguess_linux))]
pub mod portable;

#[cfg(bestguess_linux)]
pub use linux::*;
#[cfg(not(bestguess_linux))]
pub use portable::*;

/// The operating systems whose `ru_maxrss` unit is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    FreeBsd,
    /// Another BSD or Unix: `ru_maxrss` in KiB, as on the BSDs it descends
    /// from (NetBSD's and OpenBSD's getrusage(2) say kilobytes).
    Other,
}

/// The system this build runs on.
pub const OS: Os = if cfg!(target_os = "linux") {
    Os::Linux
} else if cfg!(target_os = "macos") {
    Os::MacOs
} else if cfg!(target_os = "freebsd") {
    Os::FreeBsd
} else {
    Os::Other
};

/// `ru_maxrss` (of `wait4` or `getrusage`, as the launcher reports it) in
/// bytes, on this system: see [`maxrss_bytes_on`].
pub fn maxrss_bytes(raw: i64) -> i64 {
    maxrss_bytes_on(OS, raw)
}

/// `ru_maxrss` in bytes on `os`. The unit is the platform's:
///
/// * Linux: KiB — `kernel/sys.c`, `getrusage`: `r->ru_maxrss = maxrss *
///   (PAGE_SIZE / 1024); /* convert pages to KBs */`; getrusage(2):
///   "ru_maxrss ... (in kilobytes)".
/// * macOS: bytes — XNU, `bsd/kern/kern_resource.c`, `calcru`:
///   `ru_maxrss = tinfo.resident_size_max`, from `task_info`'s
///   `MACH_TASK_BASIC_INFO`, which counts bytes (Apple's getrusage(2) page
///   still says kilobytes; tools that read it on macOS, such as Go's
///   runtime and Tailscale's logger, divide by 2^20 for MiB).
/// * FreeBSD: KiB — `sys/kern/kern_clock.c`, `statclock`: `rss =
///   pgtok(vmspace_resident_count(vm)); if (ru->ru_maxrss < rss)
///   ru->ru_maxrss = rss`; getrusage(2): "(in kilobytes)".
///
/// Negative values pass through (the launcher's "not measured").
pub fn maxrss_bytes_on(os: Os, raw: i64) -> i64 {
    match os {
        Os::MacOs => raw,
        Os::Linux | Os::FreeBsd | Os::Other if raw < 0 => raw,
        Os::Linux | Os::FreeBsd | Os::Other => raw.saturating_mul(1024),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ru_maxrss_is_kib_on_linux_and_freebsd_and_bytes_on_macos() {
        assert_eq!(maxrss_bytes_on(Os::Linux, 1_000), 1_024_000);
        assert_eq!(maxrss_bytes_on(Os::FreeBsd, 1_000), 1_024_000);
        assert_eq!(maxrss_bytes_on(Os::Other, 3), 3_072);
        assert_eq!(maxrss_bytes_on(Os::MacOs, 1_024_000), 1_024_000);
        // Never an overflow, and "not measured" stays so.
        assert_eq!(maxrss_bytes_on(Os::Linux, i64::MAX), i64::MAX);
        assert_eq!(maxrss_bytes_on(Os::Linux, -1), -1);
        assert_eq!(maxrss_bytes_on(Os::MacOs, -1), -1);
        // This build's own rule.
        assert_eq!(maxrss_bytes(2), maxrss_bytes_on(OS, 2));
        if cfg!(target_os = "linux") {
            assert_eq!(OS, Os::Linux);
        }
    }
}

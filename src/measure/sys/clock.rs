//! The clock: CLOCK_REALTIME for the record's timestamps.

use std::mem::MaybeUninit;

/// CLOCK_REALTIME in microseconds since the Unix epoch (for the record only,
/// never for durations).
pub fn realtime_us() -> i64 {
    (clock_ns(libc::CLOCK_REALTIME) / 1000) as i64
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: `ts` is a valid out-pointer for one timespec; the clock ids used
    // are always supported on Linux, so the call cannot fail.
    let ts = unsafe {
        libc::clock_gettime(clock, ts.as_mut_ptr());
        ts.assume_init()
    };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

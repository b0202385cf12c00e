// The launcher protocol's constants: the one definition that the tool and
// the C launcher both use. The library compiles this file as
// `measure::protocol::consts`; build.rs `include!`s it and writes every
// constant as a `#define` of the same name into `launcher_protocol.h`,
// which `launcher.c` includes, so a value the two sides disagree on
// cannot be built. Only `pub const`s of integer type belong here (build.rs
// refuses a constant it does not pass on). The module's doc is on its
// `mod` line: a file that `include!` reads can hold no `//!` comment.

/// The version of the protocol, which the launcher's hello carries: the
/// tool refuses a launcher that speaks another (one built from other
/// sources). Every change to a frame's layout or to a constant's meaning
/// raises it.
pub const PROTOCOL_VERSION: u32 = 1;
/// The first four bytes the launcher writes, before its version: "BGLP".
pub const HELLO_MAGIC: u32 = u32::from_le_bytes(*b"BGLP");

/// The launcher's descriptor for requests (the tool writes).
pub const REQUEST_FD: i32 = 3;
/// The launcher's descriptor for responses (the tool reads).
pub const RESPONSE_FD: i32 = 4;

/// Request: report the launcher's peak RSS and spawn path.
pub const OP_FLOOR: u8 = 1;
/// Request: the program table (replaces the one before).
pub const OP_PROGRAMS: u8 = 2;
/// Request: run a batch of steps.
pub const OP_BATCH: u8 = 3;
/// Request: the measurement extras (counters, pinning, padding, metrics
/// file), at most once, before the first batch.
pub const OP_SETUP: u8 = 4;

/// Response kind: a run ended (exited, killed or timed out).
pub const FINISHED: u8 = 0;
/// Response kind: a step could not be spawned (the errno is the value).
pub const SPAWN_ERROR: u8 = 1;
/// Response kind: the tool cancelled; the step was killed or not started.
pub const CANCELLED: u8 = 2;
/// Response kind: answers [`OP_FLOOR`].
pub const FLOOR: u8 = 3;
/// Response kind: a request the launcher could not read.
pub const PROTOCOL_ERROR: u8 = 4;
/// Response kind: answers [`OP_PROGRAMS`].
pub const DEFINED: u8 = 5;
/// Response kind: answers [`OP_SETUP`] (followed by a frame).
pub const SET_UP: u8 = 6;
/// Response kind: a measured run not started: its metrics file could not
/// be made afresh (the errno is the value).
pub const METRICS_ERROR: u8 = 7;

/// Program flag: stdin, stdout and stderr are /dev/null.
pub const FLAG_NULL_STDIO: u8 = 1;
/// Program flag: a process group of its own (so everything it starts can
/// be killed on timeout or interrupt).
pub const FLAG_NEW_GROUP: u8 = 2;
/// Program flag: a measured command (extras apply), not a hook.
pub const FLAG_MEASURED: u8 = 4;

/// Number of little-endian i64 slots in a response's integer block.
pub const INTS: usize = 11;
/// Bytes in one response: kind, the integer block, signaled, code,
/// timed_out.
pub const RESPONSE_LEN: usize = 1 + 8 * INTS + 1 + 4 + 1;

/// Slot of the errno of a failed spawn or metrics file, or the floor (in
/// `ru_maxrss`'s unit) for [`FLOOR`].
pub const SLOT_VALUE: usize = 0;
/// Slot of the run's start, µs since the Unix epoch (CLOCK_REALTIME).
pub const SLOT_START: usize = 1;
/// In a [`FLOOR`] response: the slot of the launcher's spawn path (one of
/// the `SPAWN_` constants).
pub const SLOT_SPAWN_PATH: usize = 1;
/// In a [`FLOOR`] response: the errno with which the kernel refused clone3.
pub const SLOT_SPAWN_ERRNO: usize = 2;
// The slots of the metrics. The catalogue (`crate::data::metric`) names
// each fixed metric's slot and unit conversion; a test in `protocol` holds
// it to these. A negative value is one the launcher could not measure.
// No slot is spare: a further metric extends `INTS`.
/// Wall time, ns (CLOCK_MONOTONIC).
pub const SLOT_WALL_NS: usize = 2;
/// User CPU time, µs (`wait4`'s rusage).
pub const SLOT_USER_US: usize = 3;
/// System CPU time, µs.
pub const SLOT_SYSTEM_US: usize = 4;
/// Max RSS, in `ru_maxrss`'s unit.
pub const SLOT_MAXRSS: usize = 5;
/// Minor page faults.
pub const SLOT_MINOR_FAULTS: usize = 6;
/// Major page faults.
pub const SLOT_MAJOR_FAULTS: usize = 7;
/// Voluntary context switches.
pub const SLOT_VOLUNTARY_CSW: usize = 8;
/// Involuntary context switches.
pub const SLOT_INVOLUNTARY_CSW: usize = 9;
/// Run-queue delay, ns (`/proc/PID/schedstat`), -1 where not kept.
pub const SLOT_RUN_DELAY_NS: usize = 10;

/// Spawn path: clone3 with `CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND`.
pub const SPAWN_CLONE3: i64 = 0;
/// Spawn path: posix_spawnp, forced by `BESTGUESS_SPAWN=posix_spawn`.
pub const SPAWN_FORCED: i64 = 1;
/// Spawn path: posix_spawnp, the kernel refused clone3.
pub const SPAWN_REFUSED: i64 = 2;
/// Spawn path: posix_spawnp, no clone3 path on this architecture.
pub const SPAWN_NO_CLONE3: i64 = 3;
/// Spawn path: posix_spawnp, the portable build.
pub const SPAWN_PORTABLE: i64 = 4;

/// The most counters one SETUP may ask for.
pub const MAX_COUNTERS: usize = 16;
/// The most bytes of environment padding (`BESTGUESS_ENV_PAD`'s value).
pub const PAD_MAX: usize = 4096;
/// The most the launcher reads back from a run's metrics file.
pub const METRICS_MAX: usize = 65536;
/// The largest body of an extra frame: padding, counters, the metrics
/// length and state, the metrics.
pub const EXTRA_FRAME_MAX: usize = 4 + 24 * MAX_COUNTERS + 5 + METRICS_MAX;

/// Metrics file state: read whole (or there is none).
pub const METRICS_WHOLE: u8 = 0;
/// Metrics file state: cut at [`METRICS_MAX`].
pub const METRICS_CUT: u8 = 1;
/// Metrics file state: not a regular file, not read.
pub const METRICS_NOT_A_FILE: u8 = 2;
/// Metrics file state: removed, or its directory.
pub const METRICS_REMOVED: u8 = 3;

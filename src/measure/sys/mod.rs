//! The one module that talks to the kernel directly, and the only place in
//! the crate with `unsafe`: this directory, one file per job.
//!
//! Everything here is a thin, checked wrapper over one or two libc calls,
//! each `unsafe` block with a `// SAFETY:` comment: the clock
//! (`clock.rs`), pipes and descriptors and a memfd to execute the embedded
//! launcher from (`fd.rs`), `posix_spawnp` to start the launcher and the
//! reaping of it (`process.rs`), the signal handler that relays
//! SIGINT/SIGTERM to the launcher (`signals.rs`) and, before it, the one
//! that removes unfinished exports' temporary files (`doomed.rs`), the
//! file-size limit, writeback and locks of exports (`files.rs`), the
//! terminal's size (`terminal.rs`) and the allocator that reports running
//! out of memory (`alloc.rs`). Commands themselves are spawned and measured
//! by the launcher (`launcher.c`). Callers get safe Rust types, by the
//! names re-exported here (`sys::spawn`, `sys::pipe`, ...).
//!
//! Calls beyond POSIX (`pipe2`, `F_SETPIPE_SZ`, `memfd_create`,
//! `sync_file_range`) are made only by the Linux measurement path
//! (`cfg(bestguess_linux)`, see `platform`); the portable build has a POSIX
//! version of each, or none where it is only an optimisation.

mod alloc;
mod clock;
mod doomed;
mod fd;
mod files;
mod process;
mod signals;
mod terminal;

pub use alloc::ReportingAlloc;
pub use clock::realtime_us;
pub use doomed::{
    end_on_termination_signals, remove_doomed_on_termination_signals, remove_on_termination, Doomed,
};
#[cfg(bestguess_linux)]
pub use fd::memfd_with;
pub use fd::{dup_above, pipe, set_pipe_size};
pub use files::{file_size_limit, set_file_size_soft_limit, start_writeback, try_lock_exclusive};
pub use process::{arg_max, send_signal, spawn, wait_pid};
pub use signals::{
    catch_termination_signals, ignore_file_size_signal, signal_name, termination_signal,
    TERMINATION_SIGNALS,
};
pub use terminal::{terminal_columns, terminal_rows};

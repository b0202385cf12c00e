//! Termination signals: relaying SIGINT, SIGTERM, SIGHUP and SIGQUIT to
//! the launcher as a cancel, remembering which arrived, signal names, and
//! SIGXFSZ ignored.

use std::ffi::c_int;
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

static SIGNAL_RECEIVED: AtomicI32 = AtomicI32::new(0);
static LAUNCHER_PID: AtomicI32 = AtomicI32::new(0);

pub(super) extern "C" fn on_termination_signal(sig: c_int) {
    SIGNAL_RECEIVED.store(sig, Ordering::SeqCst);
    let pid = LAUNCHER_PID.load(Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: kill is async-signal-safe and has no memory effects.
        // SIGCONT too: a launcher a command stopped (`kill -STOP $PPID`)
        // takes the cancel then (else the tool would wait for it for ever).
        unsafe {
            libc::kill(pid, libc::SIGUSR1);
            libc::kill(pid, libc::SIGCONT);
        }
    }
}

/// The signals that stop an experiment (after keeping every completed run):
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT. SIGHUP and SIGQUIT are left alone if
/// they were ignored when the tool started (as under `nohup`, or SIGQUIT in
/// a background job), so the tool keeps running as its caller asked.
pub const TERMINATION_SIGNALS: [c_int; 4] =
    [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// Catch the [`TERMINATION_SIGNALS`]: remember which arrived, and send
/// SIGUSR1 to the `launcher` so that it kills the running command at once.
pub fn catch_termination_signals(launcher: libc::pid_t) -> io::Result<()> {
    LAUNCHER_PID.store(launcher, Ordering::SeqCst);
    for sig in TERMINATION_SIGNALS {
        // SAFETY: a zeroed sigaction is valid; we set a handler that only
        // touches atomics and calls kill(2), which is async-signal-safe.
        // SA_RESTART keeps blocking reads from failing with EINTR. The old
        // action is read into a zeroed sigaction first.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                return Err(io::Error::last_os_error());
            }
            let inherited_ignore = old.sa_sigaction == libc::SIG_IGN;
            if inherited_ignore && (sig == libc::SIGHUP || sig == libc::SIGQUIT) {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_termination_signal as *const () as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Ignore SIGXFSZ, so that writing past a file size limit (`ulimit -f`)
/// fails with EFBIG, which is reported, instead of killing the tool.
/// Programs the tool starts get the default action back (see
/// [`spawn`](super::spawn)).
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal to SIG_IGN has no memory effects.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The termination signal received so far, if any.
pub fn termination_signal() -> Option<i32> {
    match SIGNAL_RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// A human-readable name for a signal number, e.g. "SIGKILL".
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

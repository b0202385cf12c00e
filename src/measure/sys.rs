//! The one module that talks to the kernel directly, and the only place in the
//! crate with `unsafe`.
//!
//! Everything here is a thin, checked wrapper over one or two libc calls:
//! `posix_spawnp` (glibc implements it with `clone(CLONE_VM | CLONE_VFORK)`,
//! so nothing runs between fork and exec that would be billed to the command),
//! `pidfd_open` + `poll` (wait for a child, a timeout, or a cancel request
//! without races), `wait4` (the rusage of exactly that child), the clocks,
//! pipes, and signal dispositions. Callers get safe Rust types.

use std::ffi::{c_char, c_int, CStr};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, Ordering};

/// What `wait4` reported about one child.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rusage {
    pub user_us: i64,
    pub system_us: i64,
    /// Linux reports max RSS in KiB.
    pub maxrss_kib: i64,
    pub minor_faults: i64,
    pub major_faults: i64,
    pub voluntary_csw: i64,
    pub involuntary_csw: i64,
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitStatus {
    Exited(i32),
    Signaled(i32),
}

/// Why `wait_child` returned before the child ended on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitEnd {
    /// The child ended by itself.
    Exited,
    /// The timeout passed; the child (group) was killed.
    TimedOut,
    /// A byte arrived on the cancel descriptor; the child (group) was killed.
    Cancelled,
}

/// CLOCK_MONOTONIC in nanoseconds: immune to wall-clock adjustments.
pub fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

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

/// A pipe with both ends close-on-exec.
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and owned by us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Duplicate `fd` to a number of at least `min`, close-on-exec.
pub fn dup_above(fd: RawFd, min: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC only reads its integer arguments.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, min) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fcntl returned a fresh descriptor that nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// Mark a descriptor this process inherited as close-on-exec, so commands
/// started later do not inherit it.
pub fn set_cloexec(fd: RawFd) -> io::Result<()> {
    // SAFETY: F_SETFD with an integer flag has no memory effects.
    if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Take ownership of an inherited descriptor number.
///
/// Returns an error if the descriptor is not open.
pub fn adopt_fd(fd: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: F_GETFD only queries the descriptor table.
    if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor is open and, by the launcher protocol, handed to
    // this process to own; nothing else in the process refers to it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// How the child's standard descriptors are set up by [`spawn`].
pub enum Stdio<'a> {
    /// Inherit this process's descriptors 0, 1 and 2.
    Inherit,
    /// Make 0, 1 and 2 refer to this (already open) /dev/null descriptor.
    Null(&'a OwnedFd),
}

/// Start a program with `posix_spawnp` (PATH lookup, this process's
/// environment).
///
/// The child gets default dispositions for the signals this tool ignores or
/// handles (SIGINT, SIGTERM, SIGPIPE, SIGQUIT), an empty signal mask, and, if
/// `new_group`, a process group of its own so that a timeout or Ctrl-C can
/// kill everything it started. `scratch` is reused between calls so the
/// launcher does not allocate per run.
///
/// `extra` maps descriptors of this process to descriptor numbers in the
/// child (source, target); sources must not be below 10, so that no mapping
/// overwrites the source of a later one.
pub fn spawn(
    argv: &[&CStr],
    stdio: Stdio<'_>,
    extra: &[(RawFd, RawFd)],
    new_group: bool,
    scratch: &mut Vec<*const c_char>,
) -> io::Result<libc::pid_t> {
    if argv.is_empty() {
        return Err(io::Error::from_raw_os_error(libc::ENOENT));
    }
    scratch.clear();
    scratch.extend(argv.iter().map(|a| a.as_ptr()));
    scratch.push(std::ptr::null());

    let mut actions = MaybeUninit::<libc::posix_spawn_file_actions_t>::uninit();
    let mut attr = MaybeUninit::<libc::posix_spawnattr_t>::uninit();
    // SAFETY: init functions write a valid object into the out-pointers; each
    // is destroyed below on every path. The signal sets are initialised by
    // sigemptyset before use. argv pointers stay alive (borrowed from
    // `argv`) until posix_spawnp returns, and the array is NULL-terminated.
    // `environ` is the process environment, valid for the duration.
    unsafe {
        check(libc::posix_spawn_file_actions_init(actions.as_mut_ptr()))?;
        if let Err(e) = check(libc::posix_spawnattr_init(attr.as_mut_ptr())) {
            libc::posix_spawn_file_actions_destroy(actions.as_mut_ptr());
            return Err(e);
        }
        let result = (|| {
            match stdio {
                Stdio::Inherit => {}
                Stdio::Null(null) => {
                    for target in 0..3 {
                        check(libc::posix_spawn_file_actions_adddup2(
                            actions.as_mut_ptr(),
                            null.as_raw_fd(),
                            target,
                        ))?;
                    }
                }
            }
            for &(source, target) in extra {
                check(libc::posix_spawn_file_actions_adddup2(
                    actions.as_mut_ptr(),
                    source,
                    target,
                ))?;
            }
            let mut empty = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(empty.as_mut_ptr());
            let mut defaults = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(defaults.as_mut_ptr());
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGPIPE, libc::SIGQUIT] {
                libc::sigaddset(defaults.as_mut_ptr(), sig);
            }
            let mut flags = libc::POSIX_SPAWN_SETSIGMASK | libc::POSIX_SPAWN_SETSIGDEF;
            if new_group {
                flags |= libc::POSIX_SPAWN_SETPGROUP;
                check(libc::posix_spawnattr_setpgroup(attr.as_mut_ptr(), 0))?;
            }
            check(libc::posix_spawnattr_setsigmask(
                attr.as_mut_ptr(),
                empty.as_ptr(),
            ))?;
            check(libc::posix_spawnattr_setsigdefault(
                attr.as_mut_ptr(),
                defaults.as_ptr(),
            ))?;
            check(libc::posix_spawnattr_setflags(
                attr.as_mut_ptr(),
                flags as libc::c_short,
            ))?;
            let mut pid: libc::pid_t = 0;
            extern "C" {
                static environ: *const *mut c_char;
            }
            check(libc::posix_spawnp(
                &mut pid,
                scratch[0],
                actions.as_ptr(),
                attr.as_ptr(),
                scratch.as_ptr() as *const *mut c_char,
                environ,
            ))?;
            Ok(pid)
        })();
        libc::posix_spawn_file_actions_destroy(actions.as_mut_ptr());
        libc::posix_spawnattr_destroy(attr.as_mut_ptr());
        result
    }
}

fn check(rc: c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(rc))
    }
}

/// Wait for child `pid` to end, for at most `timeout_ms` (if given), and
/// return early if a byte can be read from `cancel`. On timeout or cancel the
/// child — its whole process group if `group` — is killed with SIGKILL.
/// Either way the child is then reaped with `wait4`, and its own rusage is
/// returned.
pub fn wait_child(
    pid: libc::pid_t,
    group: bool,
    timeout_ms: Option<u64>,
    cancel: Option<RawFd>,
) -> io::Result<(WaitStatus, Rusage, WaitEnd)> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor
    // (close-on-exec) or -1.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as c_int;
    let end = if raw < 0 {
        let err = io::Error::last_os_error();
        if cancel.is_none() && timeout_ms.is_none() {
            // Nothing to watch but the child itself: wait4 alone suffices.
            WaitEnd::Exited
        } else {
            kill_child(pid, group);
            let (_, _) = reap(pid)?;
            return Err(io::Error::new(
                err.kind(),
                format!("pidfd_open failed ({err}); BestGuess needs Linux 5.3 or later"),
            ));
        }
    } else {
        // SAFETY: pidfd_open returned a fresh descriptor we now own.
        let pidfd = unsafe { OwnedFd::from_raw_fd(raw) };
        poll_child(&pidfd, timeout_ms, cancel)?
    };
    if end != WaitEnd::Exited {
        kill_child(pid, group);
    }
    let (status, usage) = reap(pid)?;
    Ok((status, usage, end))
}

fn poll_child(
    pidfd: &OwnedFd,
    timeout_ms: Option<u64>,
    cancel: Option<RawFd>,
) -> io::Result<WaitEnd> {
    let deadline = timeout_ms.map(|ms| monotonic_ns() + ms * 1_000_000);
    loop {
        let mut fds = [
            libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: cancel.unwrap_or(-1),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let wait_ms: c_int = match deadline {
            None => -1,
            Some(d) => {
                let now = monotonic_ns();
                if now >= d {
                    return Ok(WaitEnd::TimedOut);
                }
                ((d - now).div_ceil(1_000_000)).min(c_int::MAX as u64) as c_int
            }
        };
        // SAFETY: `fds` is a valid array of two pollfd; a negative fd is
        // ignored by poll.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait_ms) };
        if n < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if fds[0].revents != 0 {
            return Ok(WaitEnd::Exited);
        }
        if fds[1].revents != 0 {
            return Ok(WaitEnd::Cancelled);
        }
    }
}

fn kill_child(pid: libc::pid_t, group: bool) {
    let target = if group { -pid } else { pid };
    // SAFETY: kill has no memory effects; the child is not yet reaped, so
    // its pid (and group id) cannot have been reused.
    unsafe {
        libc::kill(target, libc::SIGKILL);
    }
}

fn reap(pid: libc::pid_t) -> io::Result<(WaitStatus, Rusage)> {
    let mut status: c_int = 0;
    let mut ru = MaybeUninit::<libc::rusage>::zeroed();
    loop {
        // SAFETY: `status` and `ru` are valid out-pointers; `pid` is our
        // unreaped child.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, ru.as_mut_ptr()) };
        if rc == pid {
            break;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    // SAFETY: wait4 succeeded and filled `ru`.
    let ru = unsafe { ru.assume_init() };
    let us = |tv: libc::timeval| tv.tv_sec * 1_000_000 + tv.tv_usec;
    let usage = Rusage {
        user_us: us(ru.ru_utime),
        system_us: us(ru.ru_stime),
        maxrss_kib: ru.ru_maxrss,
        minor_faults: ru.ru_minflt,
        major_faults: ru.ru_majflt,
        voluntary_csw: ru.ru_nvcsw,
        involuntary_csw: ru.ru_nivcsw,
    };
    let status = if libc::WIFSIGNALED(status) {
        WaitStatus::Signaled(libc::WTERMSIG(status))
    } else {
        WaitStatus::Exited(libc::WEXITSTATUS(status))
    };
    Ok((status, usage))
}

/// Ignore SIGINT and SIGTERM in this process (the launcher: the tool decides
/// when to stop, and tells the launcher through its cancel pipe).
pub fn ignore_termination_signals() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installing SIG_IGN has no memory effects.
        unsafe {
            libc::signal(sig, libc::SIG_IGN);
        }
    }
}

static SIGNAL_RECEIVED: AtomicI32 = AtomicI32::new(0);
static CANCEL_FD: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_termination_signal(sig: c_int) {
    SIGNAL_RECEIVED.store(sig, Ordering::SeqCst);
    let fd = CANCEL_FD.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = [1u8];
        // SAFETY: write is async-signal-safe; the buffer is a valid 1-byte
        // array. The result is deliberately ignored: a full pipe already
        // holds a cancel byte.
        unsafe {
            libc::write(fd, byte.as_ptr().cast(), 1);
        }
    }
}

/// Catch SIGINT and SIGTERM: remember which arrived and write one byte to
/// `cancel_fd` so that the launcher kills the running command at once.
pub fn catch_termination_signals(cancel_fd: RawFd) -> io::Result<()> {
    CANCEL_FD.store(cancel_fd, Ordering::SeqCst);
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction is valid; we set a handler that only
        // touches atomics and calls write(2), which is async-signal-safe.
        // SA_RESTART keeps blocking reads from failing with EINTR.
        unsafe {
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

/// The termination signal received so far, if any.
pub fn termination_signal() -> Option<i32> {
    match SIGNAL_RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// Wait for (reap) a helper process such as the launcher.
pub fn wait_pid(pid: libc::pid_t) -> io::Result<WaitStatus> {
    reap(pid).map(|(status, _)| status)
}

/// Whether a descriptor refers to a terminal.
pub fn is_terminal(fd: RawFd) -> bool {
    // SAFETY: isatty only queries the descriptor.
    unsafe { libc::isatty(fd) == 1 }
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
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

/// An anonymous in-memory file holding `bytes`, for executing an embedded
/// program through `/proc/self/fd/N` without touching the file system.
pub fn memfd_with(name: &CStr, bytes: &[u8]) -> io::Result<OwnedFd> {
    // SAFETY: `name` is a valid NUL-terminated string; memfd_create returns a
    // new descriptor or -1.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: memfd_create returned a fresh descriptor that we now own.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let mut file = std::fs::File::from(fd);
    io::Write::write_all(&mut file, bytes)?;
    Ok(file.into())
}

//! The one module that talks to the kernel directly, and the only place in the
//! crate with `unsafe`.
//!
//! Everything here is a thin, checked wrapper over one or two libc calls:
//! `posix_spawnp` (to start the launcher), pipes and descriptors, a memfd to
//! execute the embedded launcher from, the clock, the signal handler that
//! relays SIGINT/SIGTERM to the launcher (and, before it, the one that
//! removes unfinished exports' temporary files), and starting an export's
//! writeback to disk. Commands themselves are spawned and
//! measured by the launcher (`launcher.c`). Callers get safe Rust types.
//!
//! Calls beyond POSIX (`pipe2`, `F_SETPIPE_SZ`, `memfd_create`,
//! `sync_file_range`) are made only by the Linux measurement path
//! (`cfg(bestguess_linux)`, see `platform`); the portable build has a POSIX
//! version of each, or none where it is only an optimisation.

use std::ffi::{c_char, c_int, CStr};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};

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

/// A pipe with both ends close-on-exec (`pipe2`, atomically).
#[cfg(bestguess_linux)]
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and owned by us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe with both ends close-on-exec (POSIX `pipe`, then `FD_CLOEXEC` on
/// each end: macOS has no `pipe2`).
#[cfg(not(bestguess_linux))]
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe writes.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe succeeded, so both descriptors are open and owned by us.
    let ends = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    for fd in fds {
        // SAFETY: F_SETFD takes an integer and has no memory effects; `fd`
        // is open (owned by `ends`).
        if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(ends)
}

/// Ask for a pipe buffer of at least `bytes` (Linux `F_SETPIPE_SZ`); the
/// kernel may round up, and refuses sizes above `fs.pipe-max-size` for
/// unprivileged users, in which case the pipe keeps its size.
#[cfg(bestguess_linux)]
pub fn set_pipe_size(fd: RawFd, bytes: usize) -> io::Result<()> {
    // SAFETY: F_SETPIPE_SZ takes an integer and has no memory effects.
    if unsafe { libc::fcntl(fd, libc::F_SETPIPE_SZ, bytes as c_int) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
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

/// Start a program with `posix_spawnp` (PATH lookup, this process's
/// environment, inherited stdin/stdout/stderr).
///
/// The child gets default dispositions for the signals this tool ignores or
/// handles (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ) and an empty
/// signal mask.
///
/// `extra` maps descriptors of this process to descriptor numbers in the
/// child (source, target); sources must not be below 10, so that no mapping
/// overwrites the source of a later one.
pub fn spawn(
    argv: &[&CStr],
    extra: &[(RawFd, RawFd)],
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
            for sig in [
                libc::SIGINT,
                libc::SIGTERM,
                libc::SIGHUP,
                libc::SIGQUIT,
                libc::SIGPIPE,
                libc::SIGXFSZ,
            ] {
                libc::sigaddset(defaults.as_mut_ptr(), sig);
            }
            let flags = libc::POSIX_SPAWN_SETSIGMASK | libc::POSIX_SPAWN_SETSIGDEF;
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

/// Wait for (reap) a child such as the launcher, and say how it ended.
pub fn wait_pid(pid: libc::pid_t) -> io::Result<i32> {
    let mut status: c_int = 0;
    loop {
        // SAFETY: `status` is a valid out-pointer; `pid` is our child.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        if rc == pid {
            return Ok(status);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Send `sig` to process `pid` (errors, such as an already exited process,
/// are ignored: the caller only wants it stopped).
pub fn send_signal(pid: libc::pid_t, sig: c_int) {
    // SAFETY: kill has no memory effects.
    unsafe {
        libc::kill(pid, sig);
    }
}

static SIGNAL_RECEIVED: AtomicI32 = AtomicI32::new(0);
static LAUNCHER_PID: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_termination_signal(sig: c_int) {
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

/// Temporary files to remove if a termination signal ends the process
/// before they are renamed into place: NUL-terminated paths, never freed
/// (a signal handler on another thread may be reading one), null where
/// free.
static DOOMED: [AtomicPtr<c_char>; DOOMED_SLOTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; DOOMED_SLOTS];

/// At most this many temporary files are removed on a signal (exports
/// beyond them are still put in place only when complete).
const DOOMED_SLOTS: usize = 64;

/// A temporary file registered with [`remove_on_termination`].
#[derive(Debug)]
pub struct Doomed(Option<usize>);

impl Drop for Doomed {
    /// Forgets the file: it was renamed into place or removed. Its path's
    /// memory is leaked (a few bytes per export).
    fn drop(&mut self) {
        if let Some(slot) = self.0 {
            DOOMED[slot].store(std::ptr::null_mut(), Ordering::SeqCst);
        }
    }
}

/// Has `path` removed if one of the [`TERMINATION_SIGNALS`] ends the
/// process while the returned value is alive (see
/// [`remove_doomed_on_termination_signals`]).
pub fn remove_on_termination(path: &std::path::Path) -> Doomed {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return Doomed(None);
    };
    let raw = c.into_raw();
    for (slot, cell) in DOOMED.iter().enumerate() {
        if cell
            .compare_exchange(
                std::ptr::null_mut(),
                raw,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
        {
            return Doomed(Some(slot));
        }
    }
    // SAFETY: `raw` came from CString::into_raw above and was not stored.
    drop(unsafe { std::ffi::CString::from_raw(raw) });
    Doomed(None)
}

/// Removes every file registered by [`remove_on_termination`]; allocates
/// nothing and is async-signal-safe.
fn remove_doomed() {
    for cell in &DOOMED {
        let path = cell.load(Ordering::SeqCst);
        if !path.is_null() {
            // SAFETY: a non-null slot holds a NUL-terminated path that is
            // never freed; unlink is async-signal-safe.
            unsafe {
                libc::unlink(path);
            }
        }
    }
}

extern "C" fn remove_doomed_and_die(sig: c_int) {
    remove_doomed();
    // Only now the default action: a second signal meanwhile, caught by
    // another thread, runs this handler there too (with SA_RESETHAND it
    // would kill the process before the files are removed).
    // SAFETY: sigaction and raise are async-signal-safe; `dfl` is a valid,
    // zeroed sigaction with the default action. The signal is blocked on
    // this thread while the handler runs, so the process dies of it on
    // return, as it would have.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &dfl, std::ptr::null_mut());
        libc::raise(sig);
    }
}

/// Until [`catch_termination_signals`] replaces it, a [`TERMINATION_SIGNALS`]
/// signal that would end the process (its action is the default) removes
/// the registered temporary files first, and then ends it as it would have.
/// A signal ignored when the tool started (`nohup`, SIGINT in a background
/// job) stays ignored.
pub fn remove_doomed_on_termination_signals() -> io::Result<()> {
    remove_doomed_on(libc::SIG_DFL)
}

/// Once the experiment is over: a [`TERMINATION_SIGNALS`] signal caught by
/// [`catch_termination_signals`] now ends the process, removing the
/// registered temporary files first (as before the experiment). The
/// reports and exports that follow can take long (an export to a slow
/// reader), and a signal then must not be swallowed, the program going on
/// to exit 0. A signal left ignored stays ignored.
pub fn end_on_termination_signals() -> io::Result<()> {
    remove_doomed_on(on_termination_signal as *const () as usize)
}

/// Every [`TERMINATION_SIGNALS`] signal whose action is now `current` (a
/// `sa_sigaction` value) removes the registered temporary files and ends
/// the process as the default action would.
fn remove_doomed_on(current: libc::sighandler_t) -> io::Result<()> {
    for sig in TERMINATION_SIGNALS {
        // SAFETY: as in catch_termination_signals; the handler only reads
        // atomics and calls unlink(2) and raise(3), both async-signal-safe.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                return Err(io::Error::last_os_error());
            }
            if old.sa_sigaction != current {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = remove_doomed_and_die as *const () as usize;
            action.sa_flags = libc::SA_RESTART;
            // Every termination signal waits on this thread while the
            // handler runs; another thread may run it meanwhile.
            libc::sigemptyset(&mut action.sa_mask);
            for other in TERMINATION_SIGNALS {
                libc::sigaddset(&mut action.sa_mask, other);
            }
            if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Ignore SIGXFSZ, so that writing past a file size limit (`ulimit -f`)
/// fails with EFBIG, which is reported, instead of killing the tool.
/// Programs the tool starts get the default action back (see [`spawn`]).
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal to SIG_IGN has no memory effects.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The soft and hard limits on the size of a file this process writes
/// (RLIMIT_FSIZE, `ulimit -f`), in bytes; `None` is unlimited.
pub fn file_size_limit() -> (Option<u64>, Option<u64>) {
    let mut limit = MaybeUninit::<libc::rlimit>::uninit();
    // SAFETY: getrlimit writes one rlimit through the valid out-pointer;
    // it is read only when the call succeeded.
    if unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, limit.as_mut_ptr()) } != 0 {
        return (None, None);
    }
    // SAFETY: the call succeeded, so the struct is initialised.
    let limit = unsafe { limit.assume_init() };
    // rlim_t is u64 on Linux and macOS, i64 on FreeBSD.
    #[allow(clippy::unnecessary_cast)]
    let bytes = |v: libc::rlim_t| (v != libc::RLIM_INFINITY).then_some(v as u64);
    (bytes(limit.rlim_cur), bytes(limit.rlim_max))
}

/// Sets the soft file-size limit (`None`: unlimited), the hard limit
/// unchanged; the kernel refuses a soft limit above the hard one.
pub fn set_file_size_soft_limit(soft: Option<u64>) -> io::Result<()> {
    let (_, hard) = file_size_limit();
    #[allow(clippy::unnecessary_cast)]
    let value = |v: Option<u64>| v.map_or(libc::RLIM_INFINITY, |b| b as libc::rlim_t);
    let limit = libc::rlimit {
        rlim_cur: value(soft),
        rlim_max: value(hard),
    };
    // SAFETY: setrlimit reads one valid rlimit and touches no other memory.
    if unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The kernel's limit on a new program's arguments and environment
/// together, in bytes (`ARG_MAX`), if the system says.
pub fn arg_max() -> Option<usize> {
    // SAFETY: sysconf reads a system constant; it has no memory effects.
    let n = unsafe { libc::sysconf(libc::_SC_ARG_MAX) };
    usize::try_from(n).ok().filter(|&n| n > 0)
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

/// The portable build cannot size a pipe: the launcher then pauses
/// between runs whenever the pipe is full, until this process reads.
#[cfg(not(bestguess_linux))]
pub fn set_pipe_size(_fd: RawFd, _bytes: usize) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Starts writing `len` bytes of `file` from `offset` to disk, without
/// waiting for it (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`): a
/// large export is then written back while the rest is still being made,
/// and its final `fdatasync` has only the tail left to wait for. A hint:
/// the caller may ignore an error (the `fdatasync` still makes it safe).
#[cfg(bestguess_linux)]
pub fn start_writeback(file: &std::fs::File, offset: u64, len: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    // SAFETY: sync_file_range takes a descriptor and integers and touches
    // no memory of ours; `file` keeps the descriptor open for the call.
    let rc = unsafe {
        libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE)
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Takes an exclusive advisory lock on `file` without waiting (`flock`
/// with `LOCK_EX | LOCK_NB`), held until every descriptor of the open file
/// is closed: `Ok(false)` when another open file holds one.
pub fn try_lock_exclusive(file: &std::fs::File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock takes a descriptor and flags and touches no memory of
    // ours; `file` keeps the descriptor open for the call.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Ok(false);
    }
    Err(e)
}

/// The portable build has no `sync_file_range`: the hint is not given (the
/// export's final `fdatasync` writes it all).
#[cfg(not(bestguess_linux))]
pub fn start_writeback(_file: &std::fs::File, _offset: u64, _len: u64) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// An anonymous in-memory file holding `bytes`, for executing an embedded
/// program through `/proc/self/fd/N` without touching the file system.
#[cfg(bestguess_linux)]
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

/// The number of columns of the terminal on `fd`, if it is one and says.
pub fn terminal_columns(fd: RawFd) -> Option<usize> {
    terminal_size(fd)
        .map(|(columns, _)| columns)
        .filter(|&c| c > 0)
}

/// The number of rows of the terminal on `fd`, if it is one and says.
pub fn terminal_rows(fd: RawFd) -> Option<usize> {
    terminal_size(fd).map(|(_, rows)| rows).filter(|&r| r > 0)
}

/// The columns and rows of the terminal on `fd` (0 where it does not say).
fn terminal_size(fd: RawFd) -> Option<(usize, usize)> {
    let mut size = MaybeUninit::<libc::winsize>::zeroed();
    // SAFETY: TIOCGWINSZ writes one `winsize` through the pointer, which is
    // valid and large enough; on any error (not a terminal, closed fd) it
    // writes nothing and returns -1, which is checked before reading.
    let rc = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, size.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: the call succeeded, so the kernel filled the struct (and it was
    // zero-initialised anyway).
    let size = unsafe { size.assume_init() };
    Some((usize::from(size.ws_col), usize::from(size.ws_row)))
}

/// The global allocator of both programs: the system allocator, except that
/// running out of memory (a tight `ulimit -v`, a huge input) ends the
/// program with one line on standard error and exit status 2, instead of
/// Rust's abort (SIGABRT, a core dump and no word of what to do). The raw
/// data file is written row by row, so what it holds stays complete; an
/// export's temporary file is removed (the previous export stays). The
/// field is the program's name, for the message.
pub struct ReportingAlloc(pub &'static str);

/// Set by the first thread that runs out of memory: it alone writes the
/// line and exits (several threads can fail at once).
static OUT_OF_MEMORY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn out_of_memory(program: &str, size: usize) -> ! {
    if OUT_OF_MEMORY.swap(true, std::sync::atomic::Ordering::SeqCst) {
        // Another thread is writing the message and ending the process.
        loop {
            // SAFETY: pause(2) takes no arguments and only waits for a
            // signal; the process ends by the other thread's _exit.
            unsafe { libc::pause() };
        }
    }
    remove_doomed();
    let mut msg = *b": error: out of memory (could not allocate                     ";
    let prefix = b": error: out of memory (could not allocate ".len();
    let mut digits = [0u8; 20];
    let mut n = 0;
    let mut v = size;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut end = prefix;
    while n > 0 {
        n -= 1;
        msg[end] = digits[n];
        end += 1;
    }
    let tail = b" bytes); give more memory (ulimit -v) or fewer runs/files\n";
    // SAFETY: write(2) on fd 2 with pointers to live stack buffers and their
    // lengths; _exit(2) never returns and runs no destructors or allocations.
    unsafe {
        libc::write(2, program.as_ptr().cast(), program.len());
        libc::write(2, msg.as_ptr().cast(), end);
        libc::write(2, tail.as_ptr().cast(), tail.len());
        libc::_exit(2);
    }
}

// SAFETY: every method forwards to `System` with the same arguments and
// returns its result unchanged, so System's guarantees hold; the only
// addition is that a null result (allocation failure) never returns.
unsafe impl std::alloc::GlobalAlloc for ReportingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded as is (the caller upholds alloc's contract).
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() {
            out_of_memory(self.0, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(self.0, layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: forwarded as is.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(self.0, new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn a_temporary_file_is_registered_until_dropped() {
        let path = std::path::Path::new("/tmp/some dir/.out.json.bestguess-1-0.tmp");
        let doomed = remove_on_termination(path);
        let slot = doomed.0.expect("a free slot");
        let held = DOOMED[slot].load(Ordering::SeqCst);
        assert!(!held.is_null());
        // SAFETY: registered paths are never freed.
        let text = unsafe { CStr::from_ptr(held) };
        assert_eq!(text.to_bytes(), path.as_os_str().as_bytes());
        drop(doomed);
        // Another test may take the slot, but never with this pointer
        // (registered paths are never freed, so never reused).
        assert_ne!(DOOMED[slot].load(Ordering::SeqCst), held);
        // A path holding a NUL cannot be registered (nor created).
        let nul = std::path::Path::new(std::ffi::OsStr::from_bytes(b"a\0b"));
        assert!(remove_on_termination(nul).0.is_none());
    }
}

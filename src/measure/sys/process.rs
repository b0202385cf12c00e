//! Starting and reaping programs: `posix_spawnp` with the launcher's
//! descriptors mapped, `waitpid`, `kill`, and the kernel's limit on a new
//! program's arguments.

use std::ffi::{c_char, c_int, CStr};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;

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

/// The kernel's limit on a new program's arguments and environment
/// together, in bytes (`ARG_MAX`), if the system says.
pub fn arg_max() -> Option<usize> {
    // SAFETY: sysconf reads a system constant; it has no memory effects.
    let n = unsafe { libc::sysconf(libc::_SC_ARG_MAX) };
    usize::try_from(n).ok().filter(|&n| n > 0)
}

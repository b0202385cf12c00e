//! Descriptors: close-on-exec pipes and their size, moving a descriptor
//! above a number, and a memfd holding bytes to execute.

use std::ffi::c_int;
#[cfg(bestguess_linux)]
use std::ffi::CStr;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};

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

/// The portable build cannot size a pipe: the launcher then pauses
/// between runs whenever the pipe is full, until this process reads.
#[cfg(not(bestguess_linux))]
pub fn set_pipe_size(_fd: RawFd, _bytes: usize) -> io::Result<()> {
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

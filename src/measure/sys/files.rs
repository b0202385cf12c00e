//! Files: the file-size limit (RLIMIT_FSIZE), starting writeback, and an
//! advisory lock.

use std::io;
use std::mem::MaybeUninit;

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

//! The terminal's size (`TIOCGWINSZ`).

use std::mem::MaybeUninit;
use std::os::fd::RawFd;

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

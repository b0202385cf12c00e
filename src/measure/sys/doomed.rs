//! Temporary files removed when a termination signal ends the process
//! before they are renamed into place (unfinished exports): a fixed table
//! of paths that a signal handler reads without allocating.

use std::ffi::{c_char, c_int};
use std::io;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::signals::{on_termination_signal, TERMINATION_SIGNALS};

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
pub(super) fn remove_doomed() {
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

/// Until [`catch_termination_signals`](super::catch_termination_signals)
/// replaces it, a [`TERMINATION_SIGNALS`] signal that would end the
/// process (its action is the default) removes the registered temporary
/// files first, and then ends it as it would have. A signal ignored when
/// the tool started (`nohup`, SIGINT in a background job) stays ignored.
pub fn remove_doomed_on_termination_signals() -> io::Result<()> {
    remove_doomed_on(libc::SIG_DFL)
}

/// Once the experiment is over: a [`TERMINATION_SIGNALS`] signal caught by
/// [`catch_termination_signals`](super::catch_termination_signals) now
/// ends the process, removing the registered temporary files first (as
/// before the experiment). The reports and exports that follow can take
/// long (an export to a slow reader), and a signal then must not be
/// swallowed, the program going on to exit 0. A signal left ignored stays
/// ignored.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;
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

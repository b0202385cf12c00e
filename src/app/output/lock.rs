//! One writer per file: an exclusive advisory lock (`flock`) on every
//! regular file being written, held until the process ends.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::app::AppError;

/// Takes the exclusive advisory lock (`flock`) that marks `file`, a
/// regular file, as being written by this process, held until the file is
/// closed, so that a second `bestguess -o same.csv` cannot interleave its
/// rows with the first's, cutting some. Refused (status 2) when another
/// process holds it; a file system without such locks is written unlocked.
pub(super) fn lock_for_writing(file: &File, what: &str) -> Result<(), AppError> {
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        // A FIFO or a device (/dev/null) may be shared.
        return Ok(());
    }
    match crate::measure::sys::try_lock_exclusive(file) {
        Ok(false) => Err(AppError::failure(format!(
            "{what}: another process is writing this file; wait until it ends, or give another path"
        ))),
        Ok(true) | Err(_) => Ok(()),
    }
}

/// The file `open` opens at `path` (with whether it created it), locked by
/// [`lock_for_writing`]. A lock is taken on an open file, and between the
/// open and the lock another process may put a new file at `path` (an
/// export renamed into place): the lock would then hold a file nobody
/// reads, and two writers would go on. So the lock counts only once `path`
/// still names the file locked; else it is opened again. `open` gives
/// `None` to be tried again (a file created by another process between
/// looking and creating).
pub(super) fn open_locked(
    path: &Path,
    what: &str,
    open: impl Fn() -> Result<Option<(File, bool)>, AppError>,
) -> Result<(File, bool), AppError> {
    for _ in 0..100 {
        let Some((file, created)) = open()? else {
            continue;
        };
        lock_for_writing(&file, what)?;
        let same = match (file.metadata(), std::fs::metadata(path)) {
            (Ok(f), Ok(p)) => (f.dev(), f.ino()) == (p.dev(), p.ino()),
            _ => false,
        };
        if same {
            return Ok((file, created));
        }
    }
    Err(AppError::failure(format!(
        "{what}: another process keeps replacing this file; wait until it ends, or give another path"
    )))
}

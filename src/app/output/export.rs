//! An export: written to a temporary file next to its target and renamed
//! over it once complete, the target locked meanwhile.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::app::writeback::Writeback;
use crate::app::AppError;

use super::lock::open_locked;
use super::names_a_directory;

/// Opens and locks the file an export will replace ([`open_locked`]),
/// making it, empty, where there is none yet: the returned placeholder
/// removes it again unless the export replaces it.
fn lock_target(target: &Path, what: &str) -> Result<(File, Option<Placeholder>), AppError> {
    let fail = |e: io::Error| AppError::failure(format!("{what}: cannot create the file: {e}"));
    // One writer per file, new or not: the file this export replaces
    // is locked until it is replaced (another process writing it, its
    // raw CSV or the same export, keeps it until done). A file that
    // does not exist yet is made now, empty, to hold the lock (else two
    // processes exporting one new file would both go on, the later
    // one's file silently replacing the other's); it is removed again
    // if the export is not made.
    let open = || match OpenOptions::new().write(true).open(target) {
        // (The open neither truncates nor changes the file.)
        Ok(f) => Ok(Some((f, false))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            match OpenOptions::new().write(true).create_new(true).open(target) {
                Ok(f) => Ok(Some((f, true))),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(None),
                Err(e) => Err(fail(e)),
            }
        }
        // A file its owner protected from writing is refused as a
        // redirection would refuse it: the rename that puts the export in
        // place needs only the directory's permission and would replace
        // it regardless.
        Err(e) => Err(AppError::failure(format!(
            "{what}: cannot replace the file: {e}; make it writable or give another path"
        ))),
    };
    let (locked, created) = open_locked(target, what, open)?;
    let placeholder = created.then(|| Placeholder {
        doomed: Some(crate::measure::sys::remove_on_termination(target)),
        path: target.to_path_buf(),
        file: locked.metadata().map(|m| (m.dev(), m.ino())).ok(),
        replaced: false,
    });
    Ok((locked, placeholder))
}

/// The path a chain of symbolic links starting at `path` ends at, for a
/// path that names no file (`path` itself when it is no link); an error
/// for a chain that loops (or runs past 40 links).
fn dangling_target(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&at) {
            Ok(next) => {
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            Err(_) => return Ok(at),
        }
    }
    Err(io::Error::other(
        "it is a symbolic link that loops; give another path",
    ))
}

/// An export being produced. A regular file (or a path that does not exist
/// yet) is written to a temporary file next to it and renamed over it by
/// [`Export::commit`]; standard output and special files (a FIFO, a device)
/// are written directly. Dropped without a commit, the temporary file is
/// removed and the target is untouched.
pub struct Export {
    pub what: String,
    out: BufWriter<ExportTarget>,
    temp: Option<(PathBuf, PathBuf)>,
    /// The temporary file, removed if a termination signal ends the
    /// process first (see `main_with`); forgotten once renamed or removed
    /// (fields are dropped after `Drop::drop`).
    _doomed: Option<crate::measure::sys::Doomed>,
    /// The empty file made to hold the lock where there was none, removed
    /// if the export is not put in place.
    placeholder: Option<Placeholder>,
    /// The file this export replaces, locked while this process means to
    /// replace it ([`lock_for_writing`](super::lock::lock_for_writing)).
    _locked: Option<File>,
}

/// The empty file an [`Export`] made at its target to hold the lock:
/// removed when dropped (or by a termination signal) unless the export
/// was put in its place.
struct Placeholder {
    path: PathBuf,
    /// Device and inode of the file made, so that only it is removed.
    file: Option<(u64, u64)>,
    /// Removes it if a termination signal ends the process first.
    doomed: Option<crate::measure::sys::Doomed>,
    /// The export replaced it: nothing to remove.
    replaced: bool,
}

impl Drop for Placeholder {
    /// Removes the file made, if it is still at its path and still empty.
    fn drop(&mut self) {
        if self.replaced {
            return;
        }
        let ours = std::fs::metadata(&self.path)
            .is_ok_and(|m| Some((m.dev(), m.ino())) == self.file && m.len() == 0);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

enum ExportTarget {
    Stdout(io::Stdout),
    /// A FIFO or a device, written directly.
    File(File),
    /// The temporary file that replaces the target.
    Temp(Writeback),
}

impl Write for ExportTarget {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ExportTarget::Stdout(s) => s.write(buf),
            ExportTarget::File(f) => f.write(buf),
            ExportTarget::Temp(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ExportTarget::Stdout(s) => s.flush(),
            ExportTarget::File(f) => f.flush(),
            ExportTarget::Temp(w) => w.flush(),
        }
    }
}

impl Export {
    /// Prepare `path` for `option`: for a file, create the temporary file
    /// now, so that an unwritable directory is reported before anything runs.
    pub fn create(option: &str, path: &str) -> Result<Export, AppError> {
        let what = format!("{option} {path}");
        let fail = |e: io::Error| AppError::failure(format!("{what}: cannot create the file: {e}"));
        if path == "-" {
            return Ok(Export {
                what,
                out: BufWriter::new(ExportTarget::Stdout(io::stdout())),
                temp: None,
                _doomed: None,
                placeholder: None,
                _locked: None,
            });
        }
        let meta = std::fs::metadata(path).ok();
        if let Some(m) = meta.as_ref().filter(|m| !m.file_type().is_file()) {
            if m.is_dir() {
                return Err(fail(io::Error::other(
                    "it is a directory; give a file name",
                )));
            }
            // A FIFO or a device: there is nothing to keep, write to it.
            let f = OpenOptions::new().write(true).open(path).map_err(fail)?;
            return Ok(Export {
                what,
                out: BufWriter::new(ExportTarget::File(f)),
                temp: None,
                _doomed: None,
                placeholder: None,
                _locked: None,
            });
        }
        if let Some(e) = names_a_directory(path) {
            return Err(fail(e));
        }
        // Through a symbolic link, replace the file it points to, not the
        // link; a link to nothing yet makes the file it names (as `-o`
        // does; the export never replaces the link itself).
        let target = match &meta {
            Some(_) => Path::new(path).canonicalize().map_err(fail)?,
            None => dangling_target(Path::new(path)).map_err(fail)?,
        };
        let (locked, placeholder) = lock_target(&target, &what)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The temporary name adds about 30 bytes: a name near the 255-byte
        // limit keeps only its start in it, so that "File name too long"
        // is never said of a name that is not.
        let name: String = {
            let mut end = name.len().min(160);
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            name[..end].to_owned()
        };
        let mut attempt = 0u32;
        let (temp, file) = loop {
            let temp = dir.join(format!(
                ".{name}.bestguess-{}-{attempt}.tmp",
                std::process::id()
            ));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(f) => break (temp, f),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                // The file may be writable when its directory is not: say
                // which one refused (the export is made beside the file
                // and renamed over it).
                Err(e) if meta.is_some() && e.kind() == io::ErrorKind::PermissionDenied => {
                    return Err(AppError::failure(format!(
                        "{what}: cannot create a temporary file in {}: {e}; the export is \
                         written beside the file and renamed over it, so give a path in a \
                         directory you can write",
                        dir.display()
                    )))
                }
                Err(e) => return Err(fail(e)),
            }
        };
        if let Some(m) = &meta {
            // The new file keeps the old one's permissions.
            let _ = file.set_permissions(std::fs::Permissions::from_mode(m.mode() & 0o7777));
        }
        Ok(Export {
            what,
            out: BufWriter::new(ExportTarget::Temp(Writeback::new(file))),
            _doomed: Some(crate::measure::sys::remove_on_termination(&temp)),
            temp: Some((temp, target)),
            placeholder,
            _locked: Some(locked),
        })
    }

    /// Whether this export writes to standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.out.get_ref(), ExportTarget::Stdout(_))
    }

    /// Where to write the export's content.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        &mut self.out
    }

    /// Finish: flush, and put a temporary file in place of the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some((temp, target)) = self.temp.take() {
            // Once renamed, the target is the export: a signal must not
            // remove it as the empty file it was.
            let mut placeholder = self.placeholder.take();
            let result = match self.out.get_mut() {
                ExportTarget::Temp(w) => w.sync_data(),
                ExportTarget::File(_) | ExportTarget::Stdout(_) => Ok(()),
            }
            .and_then(|()| {
                if let Some(p) = &mut placeholder {
                    p.doomed = None;
                }
                std::fs::rename(&temp, &target)
            });
            match &result {
                Ok(()) => placeholder.iter_mut().for_each(|p| p.replaced = true),
                // The empty file made goes with the placeholder.
                Err(_) => {
                    let _ = std::fs::remove_file(&temp);
                }
            }
            return result;
        }
        Ok(())
    }
}

impl Drop for Export {
    fn drop(&mut self) {
        if let Some((temp, _)) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

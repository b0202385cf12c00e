//! The raw CSV (`-o`): written row by row, unbuffered, and cut back to its
//! last complete row when a write fails.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use super::lock::open_locked;
use super::{names_a_directory, note};
use crate::app::AppError;

/// The raw CSV destination: standard output or a file, written unbuffered
/// (the CSV writer hands over one whole row per write).
pub enum RawDestination {
    Stdout(io::Stdout),
    /// `held`: what was written before the first run's row (the header),
    /// kept here while the file keeps its old content (see
    /// [`RawDestination::create`]); `None` once written to the file.
    File {
        file: File,
        held: Option<Vec<u8>>,
    },
}

impl RawDestination {
    /// Create `path`, or use standard output for `-`. A file that exists
    /// with content is opened but not truncated until the first run's row
    /// ([`RawDestination::start`]), so that a command the kernel refuses
    /// only when started (no `#!` line, a missing ELF loader, `ulimit -u`)
    /// leaves the file as it was, not a header alone. Its writability is
    /// checked here, before anything runs.
    pub fn create(path: &str) -> Result<RawDestination, AppError> {
        if path == "-" {
            if stdout_is_null() {
                note(
                    "Warning: -o -: standard output is /dev/null (a closed standard output \
                     is reopened there), so the runs' rows are discarded; give -o a file \
                     to keep them\n",
                );
            }
            return Ok(RawDestination::Stdout(io::stdout()));
        }
        let fail =
            |e: io::Error| AppError::failure(format!("-o {path}: cannot create the file: {e}"));
        if let Some(e) = names_a_directory(path) {
            return Err(fail(e));
        }
        // Opened without truncating, and locked before anything is cut: a
        // second writer must not empty the first one's file on its way to
        // finding it locked.
        let open = || {
            OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map(|f| Some((f, false)))
                .map_err(fail)
        };
        let (file, _) = open_locked(Path::new(path), &format!("-o {path}"), open)?;
        let old_content = file.metadata().is_ok_and(|m| m.is_file() && m.len() > 0);
        Ok(RawDestination::File {
            file,
            held: old_content.then(Vec::new),
        })
    }

    /// Before the first run's row: the old content goes and what was held
    /// is written.
    fn start(&mut self) -> io::Result<()> {
        if let RawDestination::File { file, held } = self {
            if let Some(text) = held.take() {
                file.set_len(0)?;
                if let Err(e) = file.write_all(&text) {
                    // No part of a header: the file is empty.
                    let _ = file.set_len(0);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

/// Whether standard output is the null device: redirected there, or
/// closed when the program started (Rust's runtime then opens /dev/null in
/// its place, so the two cannot be told apart).
fn stdout_is_null() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (File::from(fd).metadata(), std::fs::metadata("/dev/null")) {
        (Ok(out), Ok(null)) => {
            use std::os::unix::fs::FileTypeExt;
            out.file_type().is_char_device() && out.rdev() == null.rdev()
        }
        _ => false,
    }
}

impl Write for RawDestination {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            RawDestination::Stdout(s) => s.write(buf),
            RawDestination::File {
                held: Some(held), ..
            } => {
                held.extend_from_slice(buf);
                Ok(buf.len())
            }
            RawDestination::File { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            RawDestination::Stdout(s) => s.flush(),
            RawDestination::File { file, .. } => file.flush(),
        }
    }
}

/// Counts the bytes that reached the destination, so that a failed write can
/// be undone back to the end of the last complete row.
pub struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The raw CSV output: rows written as they come; after a write error the
/// file is cut back to its last complete row and left alone.
pub struct RawOutput {
    writer: crate::data::RawCsvWriter<Counted<RawDestination>>,
    /// Bytes up to the end of the last complete row (or the header).
    complete: u64,
    /// Rows written completely.
    pub rows: u64,
    failed: bool,
}

impl RawOutput {
    /// Create the file and write the header.
    /// `parameters`: the names of the experiment's parameters, one column
    /// each; `adaptive`: the stopping rule of `--runs auto`, recorded in
    /// the header.
    pub fn create(
        path: &str,
        catalogue: &crate::data::Catalogue,
        parameters: &[String],
        adaptive: Option<crate::data::columns::AdaptiveRule>,
    ) -> Result<RawOutput, AppError> {
        let dest = Counted {
            inner: RawDestination::create(path)?,
            written: 0,
        };
        let writer =
            crate::data::RawCsvWriter::for_experiment(dest, catalogue, parameters, adaptive)
                .map_err(|e| AppError::failure(format!("-o {path}: cannot write: {e}")))?;
        let complete = writer.get_ref().written;
        Ok(RawOutput {
            writer,
            complete,
            rows: 0,
            failed: false,
        })
    }

    /// Write one row. After the first error nothing more is written, and a
    /// partly written row is removed from the file (standard output cannot
    /// be cut back).
    pub fn write_run(&mut self, run: &crate::data::RunRecord) -> io::Result<()> {
        if self.failed {
            return Ok(());
        }
        let started = self.writer.get_mut().inner.start();
        match started.and_then(|()| self.writer.write_run(run)) {
            Ok(()) => {
                self.complete = self.writer.get_ref().written;
                self.rows += 1;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                if let RawDestination::File { file, held: None } = &self.writer.get_ref().inner {
                    if self.writer.get_ref().written != self.complete {
                        let _ = file.set_len(self.complete);
                    }
                }
                Err(e)
            }
        }
    }
}

//! Where everything is written, decided in one place: the raw CSV (`-o`),
//! the exports, and the reports. No output may destroy data:
//!
//! - every output path must differ from every input (raw files, command
//!   files) and from every other output ([`check_paths`]), compared as files
//!   (same device and inode, or the same canonical path for a file that does
//!   not exist yet), so `raw.csv`, `./raw.csv` and a symbolic link to it are
//!   one file;
//! - an export to a regular file is written to a temporary file in the same
//!   directory and renamed over the target only once it is complete
//!   ([`Export`]), so an interrupted or failed export leaves the previous
//!   file as it was;
//! - the raw CSV is written row by row; if a write fails (full disk, file
//!   size limit), the file is cut back to its last complete row and nothing
//!   more is written to it ([`RawOutput`]);
//! - one writer per file: a regular file being written (the raw CSV, or the
//!   file an export will replace, made empty where there is none yet)
//!   carries an exclusive advisory lock (`flock`) from before the first run
//!   until the process ends, and a second process that would write it
//!   refuses before running anything ([`lock_for_writing`],
//!   [`open_locked`]).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::writeback::Writeback;
use super::AppError;

/// What a path names, for telling whether two paths are the same file.
#[derive(PartialEq, Eq, Debug)]
enum Identity {
    /// An existing file.
    Inode(u64, u64),
    /// A file that does not exist yet: its parent's canonical path and name.
    Path(PathBuf),
    /// Standard input or output, or a character device such as /dev/null,
    /// which several outputs may share without harm.
    Shared,
}

fn identity(path: &str) -> Identity {
    if path == "-" {
        return Identity::Shared;
    }
    match std::fs::metadata(path) {
        Ok(m) if m.file_type().is_char_device() => Identity::Shared,
        Ok(m) => Identity::Inode(m.dev(), m.ino()),
        Err(_) => {
            let p = Path::new(path);
            let parent = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let parent = parent
                .canonicalize()
                .unwrap_or_else(|_| parent.to_path_buf());
            Identity::Path(parent.join(p.file_name().unwrap_or(p.as_os_str())))
        }
    }
}

/// Whether `path` names the regular file or pipe that standard output
/// already writes (`/dev/stdout`, `/proc/self/fd/1`, or the file the shell
/// redirected standard output to). Such an output is standard output, `-`:
/// opened a second time, the raw CSV was overwritten from its start by the
/// report, and an export renamed over the file erased the report. (A
/// terminal or `/dev/null` is shared harmlessly, as before.)
fn names_standard_output(path: &str) -> bool {
    use std::os::fd::AsFd;
    names_stream(io::stdout().as_fd(), path)
}

/// What the standard stream `fd` is (its file's metadata).
fn stream_metadata(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<std::fs::Metadata> {
    fd.try_clone_to_owned()
        .map(File::from)
        .and_then(|f| f.metadata())
}

/// Whether `path` names the regular file or pipe that `stream` writes.
fn names_stream(stream: std::os::fd::BorrowedFd<'_>, path: &str) -> bool {
    let Ok(ours) = stream_metadata(stream) else {
        return false;
    };
    let kind = ours.file_type();
    (kind.is_file() || kind.is_fifo())
        && std::fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == (ours.dev(), ours.ino()))
}

/// Every output path (`-o`, exports) that names standard output
/// ([`names_standard_output`]) becomes `-`, before the options are checked
/// (two outputs on standard output are then refused as usual).
pub fn standard_output_as_dash(output: &mut Option<String>, exports: &mut [(impl Sized, String)]) {
    let dash = |path: &mut String| {
        if path != "-" && names_standard_output(path) {
            *path = "-".to_owned();
        }
    };
    if let Some(path) = output {
        dash(path);
    }
    for (_, path) in exports {
        dash(path);
    }
}

/// Refuse (usage error) an output (`-o`, exports) naming the regular file
/// or pipe that standard error writes (`/dev/stderr`, `2> f` and `-o f`):
/// the messages went into the raw CSV's first rows, and an export renamed
/// over the file erased the error it was there to keep.
pub fn refuse_standard_error(
    output: &Option<String>,
    exports: &[(crate::export::Format, String)],
) -> Result<(), AppError> {
    use std::os::fd::AsFd;
    let given = output
        .iter()
        .map(|p| ("-o", p))
        .chain(exports.iter().map(|(f, p)| (f.option(), p)));
    for (option, path) in given {
        if path != "-" && names_stream(io::stderr().as_fd(), path) {
            return Err(AppError::usage(format!(
                "{}{option} {path} is standard error, where the messages go, and the two would mix: give a file, or - for standard output",
                if option == "-o" { "" } else { "--" }
            )));
        }
    }
    Ok(())
}

/// Refuse (usage error) any output that names the same file as an input or
/// as another output. Each item is (option, path).
pub fn check_paths(inputs: &[(&str, &str)], outputs: &[(&str, &str)]) -> Result<(), AppError> {
    check_streams_once(inputs)?;
    let ids: Vec<Identity> = outputs.iter().map(|(_, p)| identity(p)).collect();
    for (i, (option, path)) in outputs.iter().enumerate() {
        if ids[i] == Identity::Shared {
            continue;
        }
        if let Some((input_option, input)) =
            inputs.iter().find(|(_, input)| identity(input) == ids[i])
        {
            let input_what = if input_option.is_empty() {
                format!("the input file {input}")
            } else {
                format!("the {input_option} file {input}")
            };
            return Err(AppError::usage(format!(
                "{option} {path} would overwrite {input_what}: give the output another path"
            )));
        }
        if let Some(j) = (0..i).find(|&j| ids[j] == ids[i]) {
            let (other, other_path) = outputs[j];
            return Err(AppError::usage(format!(
                "{other} {other_path} and {option} {path} are the same file: give each output its own path"
            )));
        }
    }
    Ok(())
}

/// Refuse (usage error) two inputs that name the same pipe, socket or
/// device (`-` being standard input): it can be read only once, and the
/// second reader had waited for ever on a FIFO given twice. A regular file
/// may be read twice (its commands then appear twice).
fn check_streams_once(inputs: &[(&str, &str)]) -> Result<(), AppError> {
    use std::os::fd::AsFd;
    let stream = |path: &str| -> Option<(u64, u64)> {
        let m = if path == "-" {
            stream_metadata(io::stdin().as_fd())
        } else {
            std::fs::metadata(path)
        }
        .ok()?;
        let kind = m.file_type();
        (kind.is_fifo() || kind.is_socket() || kind.is_char_device()).then(|| (m.dev(), m.ino()))
    };
    let ids: Vec<Option<(u64, u64)>> = inputs.iter().map(|(_, p)| stream(p)).collect();
    for (i, id) in ids.iter().enumerate() {
        let Some(id) = id else { continue };
        if let Some(j) = (0..i).find(|&j| ids[j] == Some(*id)) {
            let name = |(option, path): (&str, &str)| {
                if option.is_empty() {
                    path.to_owned()
                } else {
                    format!("{option} {path}")
                }
            };
            return Err(AppError::usage(format!(
                "{} and {} are the same pipe or device, which can be read only once: give it once",
                name(inputs[j]),
                name(inputs[i])
            )));
        }
    }
    Ok(())
}

/// Takes the exclusive advisory lock (`flock`) that marks `file`, a
/// regular file, as being written by this process, held until the file is
/// closed: a second `bestguess -o same.csv` had interleaved its rows with
/// the first's, cutting some. Refused (status 2) when another process
/// holds it; a file system without such locks is written unlocked.
fn lock_for_writing(file: &File, what: &str) -> Result<(), AppError> {
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
fn open_locked(
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
    /// ([`RawDestination::start`]): a command the kernel refuses only when
    /// started (no `#!` line, a missing ELF loader, `ulimit -u`) had left
    /// nothing of it but a header. Its writability is checked now.
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

/// A path that ends with `/` names a directory, whatever is there: an
/// error saying so (the kernel's would be "Is a directory" for a path that
/// does not exist, or, for an export, "Not a directory" only at its end).
fn names_a_directory(path: &str) -> Option<io::Error> {
    path.ends_with('/').then(|| {
        io::Error::other("the path ends with /, so it names a directory; give a file name")
    })
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
    /// replace it ([`lock_for_writing`]).
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
        // does; the link had been replaced by the export).
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
        // limit keeps only its start in it ("File name too long" had been
        // said of a name that is not).
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

/// Where reports go: standard output, unless the raw data or an export is
/// written there, then standard error. A closed pipe on the report's stream
/// (`bestreport f.csv | head -1`) ends the report quietly: the reader has
/// what it wanted, and later writes are discarded (exports and the exit
/// status are not affected). Any other write error is returned.
pub struct ReportStream {
    to_stderr: bool,
    closed: bool,
}

impl ReportStream {
    pub fn new(data_on_stdout: bool) -> ReportStream {
        ReportStream {
            to_stderr: data_on_stdout,
            closed: false,
        }
    }

    fn absorb(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

impl Write for ReportStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = if self.to_stderr {
            io::stderr().write_all(buf)
        } else {
            io::stdout().write_all(buf)
        };
        self.absorb(result).map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = if self.to_stderr {
            io::stderr().flush()
        } else {
            io::stdout().flush()
        };
        self.absorb(result)
    }
}

/// `-Q`: notes and warnings are held ([`held`]) instead of printed.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// What `-Q` kept off standard error, in order.
static HELD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// With `-Q` (`quiet`), standard error gets errors only: every later
/// [`note`] (notes, warnings, the seed line) is held for the JSON export's
/// `metadata.messages` instead.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `-Q` holds notes and warnings back.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// The messages `-Q` held back so far, one per message, its wrapped lines
/// joined.
pub fn held() -> Vec<String> {
    HELD.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Writes an error line to standard error, whatever `-Q` says.
pub fn error(text: &str) {
    // On a terminal, broken at spaces at its width and continuing
    // indented, as the warnings are (a note had run past 60 columns);
    // into a file or a pipe, one line each, whole for grep.
    if !std::io::IsTerminal::is_terminal(&io::stderr()) {
        let mut e = io::stderr().lock();
        let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
        return;
    }
    let width = super::terminal::report_width();
    let mut wrapped = String::with_capacity(text.len() + 8);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let pieces = crate::report::text::continued(body, width);
        wrapped.push_str(&pieces.join("\n"));
        wrapped.push_str(end);
    }
    let mut e = io::stderr().lock();
    let _ = e.write_all(wrapped.as_bytes()).and_then(|()| e.flush());
}

/// Write a note (a reminder, the random seed, an interrupt, a warning) to
/// standard error, or hold it with `-Q` ([`set_quiet`]); a closed
/// standard error is not an error.
pub fn note(text: &str) {
    if quiet() {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        held.extend(messages(text));
        return;
    }
    error(text);
}

/// The messages of `text`: each starts on a line of its own, and a line
/// that starts with a blank continues the one before (the wrapped form
/// notes and warnings are printed in).
fn messages(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        match out.last_mut() {
            Some(last) if line.starts_with(' ') => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ if line.trim().is_empty() => {}
            _ => out.push(line.trim_end().to_owned()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_file_by_another_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.csv");
        std::fs::write(&a, "x").unwrap();
        let a = a.to_str().unwrap();
        let dotted = format!("{}/./a.csv", dir.path().display());
        let err = check_paths(&[("", a)], &[("--export-json", &dotted)]).unwrap_err();
        assert_eq!(err.status, 1);
        assert!(
            err.message.contains("would overwrite the input file"),
            "{}",
            err.message
        );
        let new = format!("{}/new.json", dir.path().display());
        let new2 = format!(
            "{}/../{}/new.json",
            dir.path().display(),
            dir.path().file_name().unwrap().to_str().unwrap()
        );
        let err = check_paths(&[], &[("-o", &new), ("--export-json", &new2)]).unwrap_err();
        assert!(err.message.contains("are the same file"), "{}", err.message);
        check_paths(
            &[("", a)],
            &[
                ("-o", &new),
                ("--export-csv", "/dev/null"),
                ("--export-json", "/dev/null"),
                ("--export-markdown", "-"),
            ],
        )
        .unwrap();
    }

    #[test]
    fn an_abandoned_export_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.json");
        std::fs::write(&p, "old").unwrap();
        let mut e = Export::create("--export-json", p.to_str().unwrap()).unwrap();
        e.writer().write_all(b"new and half").unwrap();
        drop(e); // abandoned: interrupted or failed
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
        let mut e = Export::create("--export-json", p.to_str().unwrap()).unwrap();
        e.writer().write_all(b"new").unwrap();
        e.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

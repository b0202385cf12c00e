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
//!   refuses before running anything ([`lock`]).
//!
//! Here: which paths name one file, and where reports go; [`raw`] writes
//! the raw CSV, [`export`] the exports, [`messages`] the notes, warnings
//! and errors on standard error.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use super::AppError;

mod export;
mod lock;
mod messages;
mod raw;

pub use export::Export;
pub use messages::{error, held, note, quiet, set_quiet};
pub use raw::RawOutput;

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
/// opened a second time, the raw CSV would be overwritten from its start by
/// the report, and an export renamed over the file would erase the report.
/// (A terminal or `/dev/null` is shared harmlessly.)
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
/// the messages would go into the raw CSV's first rows, and an export
/// renamed over the file would erase the error it is there to keep.
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
/// second reader would wait for ever on a FIFO given twice. A regular file
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

/// A path that ends with `/` names a directory, whatever is there: an
/// error saying so (the kernel's would be "Is a directory" for a path that
/// does not exist, or, for an export, "Not a directory" only at its end).
fn names_a_directory(path: &str) -> Option<io::Error> {
    path.ends_with('/').then(|| {
        io::Error::other("the path ends with /, so it names a directory; give a file name")
    })
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

//! Starting the launcher: the embedded program written to a memfd (or a
//! private temporary file where that is refused) under a file-size limit
//! raised for the write, spawned with its request and response pipes,
//! and its first answer awaited.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, BufReader};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::time::Duration;

use super::{Launcher, SpawnPath};
use crate::measure::protocol::{self, VersionMismatch, REQUEST_FD, RESPONSE_FD};
use crate::measure::ExecError;
use crate::measure::{platform, sys};

/// The launcher program compiled from `launcher.c`.
static EMBEDDED_LAUNCHER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bestguess-launcher"));

/// Response pipe size: more than a largest batch of responses (1024 × 95
/// bytes).
const RESPONSE_PIPE_BYTES: usize = 256 * 1024;

/// Why the launcher could not be started, from the error of its memory
/// image (none in the portable build) and of its temporary file, with what
/// to do where a limit explains it.
fn start_error(memory: Option<io::Error>, file: io::Error) -> io::Error {
    if file.raw_os_error() == Some(libc::EFBIG) {
        return io::Error::new(file.kind(), file_size_limit_message());
    }
    let errnos = [
        memory.as_ref().and_then(io::Error::raw_os_error),
        file.raw_os_error(),
    ];
    // EINVAL: no descriptor 10 or above may exist (the launcher's pipes
    // and memory image are moved there).
    let hint = if errnos.contains(&Some(libc::EMFILE))
        || errnos[0] == Some(libc::EINVAL)
        || (memory.is_none() && errnos[1] == Some(libc::EINVAL))
    {
        "; the open-file limit (ulimit -n) is too low: give it at least 16"
    } else {
        ""
    };
    let tried = match &memory {
        Some(m) => format!("memfd: {m}; temporary file: {file}"),
        None => format!("temporary file: {file}"),
    };
    io::Error::new(
        file.kind(),
        format!("cannot start the launcher process ({tried}){hint}"),
    )
}

/// `write` (of the launcher's bytes) under a file-size limit raised, for
/// the time of the write, as far as the hard limit allows: the launcher
/// is written to a memory file before it runs, and RLIMIT_FSIZE counts
/// those bytes as a file's (under `ulimit -S -f 512` no experiment could
/// start otherwise). The soft limit is put back before anything is spawned, so
/// the launcher and the commands run under the limit they were given.
fn with_room_to_write<T>(write: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let (soft, hard) = sys::file_size_limit();
    let needed = EMBEDDED_LAUNCHER.len() as u64;
    let raise = soft.is_some_and(|s| s < needed) && hard.map_or(true, |h| h > soft.unwrap_or(0));
    if raise {
        let _ = sys::set_file_size_soft_limit(hard);
    }
    let written = write();
    if raise {
        let _ = sys::set_file_size_soft_limit(soft);
    }
    written
}

/// Why the launcher cannot be written: the file-size limit, its value and
/// what to do.
fn file_size_limit_message() -> String {
    let (soft, hard) = sys::file_size_limit();
    let kib = |b: u64| b / 1024;
    let size = (EMBEDDED_LAUNCHER.len() as u64).div_ceil(1024);
    let limit = match (soft, hard) {
        (Some(s), Some(h)) if s == h => format!("{} KiB, its hard limit too", kib(s)),
        (Some(s), Some(h)) => format!("{} KiB, with a hard limit of {} KiB", kib(s), kib(h)),
        (Some(s), None) => format!("{} KiB", kib(s)),
        (None, _) => "unknown".to_owned(),
    };
    format!(
        "cannot start the launcher process: the file-size limit (ulimit -f) is {limit}, below \
         the {size} KiB of the launcher, which is written to a memory file before it runs; \
         raise it to at least {size} KiB (in bash: ulimit -f {size}, or ulimit -f unlimited) \
         in the shell that starts bestguess"
    )
}

impl Launcher {
    /// Start the launcher: from a memfd, or else from a private temporary
    /// file (some systems forbid executing memfds).
    pub fn start() -> io::Result<Launcher> {
        let from_memfd = if std::env::var_os("BESTGUESS_TEST_NO_MEMFD").is_some() {
            Err(io::Error::other(
                "memfd disabled by BESTGUESS_TEST_NO_MEMFD",
            ))
        } else {
            with_room_to_write(|| platform::memory_image(EMBEDDED_LAUNCHER))
        };
        // (The image's descriptor stays open until the launcher runs.)
        let from_memfd = from_memfd.and_then(|(_image, path)| Self::start_program(&path));
        let memory_error = match from_memfd {
            Ok(launcher) => return Ok(launcher),
            // The portable build has no memory image: the temporary file's
            // error alone says what went wrong.
            Err(e) if e.kind() == io::ErrorKind::Unsupported => None,
            // The same bytes from a file would speak the same protocol.
            Err(e) if VersionMismatch::is(&e) => return Err(e),
            Err(e) => Some(e),
        };
        Self::start_from_temp_file().map_err(|e| {
            if VersionMismatch::is(&e) {
                e
            } else {
                start_error(memory_error, e)
            }
        })
    }

    /// From a private temporary file in the temporary directory, or in
    /// /tmp if that one cannot take it (TMPDIR naming a directory that does
    /// not exist or is not writable).
    fn start_from_temp_file() -> io::Result<Launcher> {
        let mut dirs = vec![std::env::temp_dir()];
        if dirs[0] != std::path::Path::new("/tmp") {
            dirs.push("/tmp".into());
        }
        let mut first = None;
        for dir in dirs {
            match Self::start_from_file_in(&dir) {
                Ok(launcher) => return Ok(launcher),
                // Only where the file could not be made is another tried.
                Err((true, e)) => return Err(e),
                Err((false, e)) => {
                    first.get_or_insert(e);
                }
            }
        }
        Err(first.unwrap_or_else(|| io::Error::other("no temporary directory")))
    }

    /// The launcher from a private file in `dir`; an error says whether the
    /// file was written (true: starting it failed).
    fn start_from_file_in(dir: &std::path::Path) -> Result<Launcher, (bool, io::Error)> {
        // Unique in the process too: a library may start several launchers
        // at once (the tests do).
        static STARTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!("bestguess-launcher-{}-{n}", std::process::id()));
        let written = (|| {
            let mut f = File::options()
                .write(true)
                .create_new(true)
                .mode(0o700)
                .open(&path)?;
            with_room_to_write(|| io::Write::write_all(&mut f, EMBEDDED_LAUNCHER))
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&path);
            return Err((false, e));
        }
        let started = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(io::Error::other)
            .and_then(|c| Self::start_program(&c));
        // Once it runs (or failed to), the file is no longer needed.
        let _ = std::fs::remove_file(&path);
        started.map_err(|e| (true, e))
    }

    fn start_program(path: &std::ffi::CStr) -> io::Result<Launcher> {
        let (req_read, req_write) = sys::pipe()?;
        let (resp_read, resp_write) = sys::pipe()?;
        // Room for a whole batch of responses, so the launcher never waits
        // for this process to read. Best effort: a smaller pipe only means
        // the launcher may pause between runs while this process catches up.
        let _ = sys::set_pipe_size(resp_read.as_raw_fd(), RESPONSE_PIPE_BYTES);
        let pid = {
            // Move the child's ends above 10 so the dup2 mappings cannot
            // collide, and close every copy of them here once it is spawned:
            // if this process kept a write end of the response pipe, a
            // launcher that died would leave the reads below waiting forever.
            let child_req: OwnedFd = sys::dup_above(req_read.as_raw_fd(), 10)?;
            let child_resp: OwnedFd = sys::dup_above(resp_write.as_raw_fd(), 10)?;
            drop((req_read, resp_write));
            let mut scratch = Vec::new();
            sys::spawn(
                &[path],
                &[
                    (child_req.as_raw_fd(), REQUEST_FD),
                    (child_resp.as_raw_fd(), RESPONSE_FD),
                ],
                &mut scratch,
            )?
        };
        let mut launcher = Launcher {
            pid,
            spawn_path: SpawnPath::NoClone3,
            requests: Some(File::from(req_write)),
            responses: BufReader::with_capacity(RESPONSE_PIPE_BYTES, File::from(resp_read)),
            names: Vec::new(),
            measured: Vec::new(),
            extras: None,
            extra_metrics: None,
            metrics_dir: None,
            cancelled: false,
            pace: Duration::ZERO,
            reaped: false,
        };
        // A round trip proves the program really runs and speaks this
        // protocol: its hello names the version, and a FLOOR is answered.
        // The request goes out before the hello is read, so that a
        // launcher that sends no hello answers it, and the answer fails
        // the check, where both sides would otherwise wait.
        let did_not_answer =
            |e: ExecError| io::Error::other(format!("the launcher did not answer: {e}"));
        launcher
            .send(&protocol::floor_request())
            .map_err(did_not_answer)?;
        if let Err(e) = protocol::read_hello(&mut launcher.responses) {
            if VersionMismatch::is(&e) {
                return Err(e);
            }
            return Err(did_not_answer(launcher.lost(e)));
        }
        let floor = launcher.read_floor().map_err(did_not_answer)?;
        launcher.spawn_path = SpawnPath::from_floor(&floor);
        Ok(launcher)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::protocol::{PROTOCOL_VERSION, RESPONSE_LEN};

    /// Start the shell script `body` in the launcher's place.
    fn start_script(dir: &std::path::Path, name: &str, body: &str) -> io::Result<Launcher> {
        let path = dir.join(name);
        let mut f = File::options()
            .write(true)
            .create_new(true)
            .mode(0o700)
            .open(&path)
            .unwrap();
        io::Write::write_all(&mut f, format!("#!/bin/sh\n{body}").as_bytes()).unwrap();
        drop(f);
        let path = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        loop {
            match Launcher::start_program(&path) {
                // Another test's spawn may hold a copy of the descriptor
                // the script was written through until its exec.
                Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) => continue,
                started => return started,
            }
        }
    }

    #[test]
    fn a_launcher_of_another_protocol_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        // Each answers the FLOOR request with a zeroed response (two) after its
        // hello, so that a check that let it pass fails on that answer
        // rather than waiting; then it waits for the end of the requests.
        let zeros = format!("dd if=/dev/zero bs={RESPONSE_LEN} count=2 2>/dev/null >&4\n");
        let rest = "cat <&3 >/dev/null\n";
        let newer = PROTOCOL_VERSION + 1;
        assert!(newer < 256, "the script writes the version as one byte");
        let cases = [
            (
                "another-version",
                format!("printf 'BGLP\\{newer:03o}\\000\\000\\000' >&4\n{zeros}{rest}"),
                Some(newer),
            ),
            ("no-hello", format!("{zeros}{rest}"), None),
        ];
        for (name, body, found) in cases {
            let e = match start_script(dir.path(), name, &body) {
                Ok(_) => panic!("{name}: started"),
                Err(e) => e,
            };
            assert!(VersionMismatch::is(&e), "{name}: {e}");
            assert_eq!(e.to_string(), VersionMismatch { found }.to_string());
            assert!(e.to_string().contains("rebuild bestguess"), "{e}");
        }
    }
}

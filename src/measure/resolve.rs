//! Checking, before any timing starts, that a program can be started.
//!
//! `posix_spawnp` would report a missing program only when the first run is
//! attempted, after warmups and other commands may already have run. Looking
//! the program up the same way first lets BestGuess refuse an experiment that
//! cannot complete, naming the command, before measuring anything. So is
//! what `execve` would refuse only when asked: an argument longer than the
//! kernel takes (E2BIG), and a script whose `#!` interpreter is missing
//! (ENOENT, which the kernel reports as if the script itself were).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Why a program cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("'{0}': command not found in PATH")]
    NotFound(String),
    #[error("'{0}': no such file")]
    NoSuchFile(String),
    #[error("'{0}' is a directory, not a program")]
    Directory(String),
    #[error("'{0}' is not executable (check its permissions)")]
    NotExecutable(String),
    #[error("the command is empty: there is no program to run")]
    Empty,
    #[error(
        "its argument {index} is {bytes} bytes, more than the {most} the kernel takes in one \
         argument; put the command in a script file and run that",
        most = MAX_ARG - 1
    )]
    ArgumentTooLong { index: usize, bytes: usize },
    #[error(
        "its arguments and the environment come to {bytes} bytes, more than the {max} the \
         kernel takes (ARG_MAX); put the command in a script file and run that"
    )]
    ArgumentsTooLong { bytes: usize, max: usize },
    #[error("'{program}' starts with '#!{interpreter}', and {why}; correct that line")]
    Interpreter {
        program: String,
        interpreter: String,
        why: String,
    },
}

/// The longest single argument (with its terminating NUL) `execve` takes
/// on Linux: MAX_ARG_STRLEN, 32 pages of 4 KiB.
pub const MAX_ARG: usize = 32 * 4096;

/// Room kept for what the launcher adds to a measured command's
/// environment (`BESTGUESS_ENV_PAD` up to 4096 bytes, `BESTGUESS_METRICS`
/// with its path).
const ENV_ADDED: usize = super::protocol::PAD_MAX + 4096;

/// [`resolve`] `argv[0]`, and check what `execve` would check of the rest:
/// each argument's length, the arguments and this process's environment
/// together against ARG_MAX, and a script's `#!` interpreter. Returns the
/// program's path.
pub fn check_startable(argv: &[String]) -> Result<PathBuf, ResolveError> {
    let program = argv.first().map(String::as_str).unwrap_or("");
    let path = resolve(program)?;
    if let Some((index, arg)) = (argv.iter().enumerate()).find(|(_, a)| a.len() + 1 > MAX_ARG) {
        return Err(ResolveError::ArgumentTooLong {
            index,
            bytes: arg.len(),
        });
    }
    // Each string with its NUL and its pointer, as the kernel counts.
    let cost = |len: usize| len + 1 + std::mem::size_of::<usize>();
    let env: usize = std::env::vars_os()
        .map(|(k, v)| cost(k.len() + 1 + v.len()))
        .sum();
    let bytes = argv.iter().map(|a| cost(a.len())).sum::<usize>() + env + ENV_ADDED;
    if let Some(max) = crate::measure::sys::arg_max().filter(|&max| bytes > max) {
        return Err(ResolveError::ArgumentsTooLong { bytes, max });
    }
    check_interpreter(&path, program)?;
    Ok(path)
}

/// A script's `#!` line must name an executable file (the kernel does not
/// search PATH for it, and reports its absence as ENOENT of the script).
fn check_interpreter(path: &Path, program: &str) -> Result<(), ResolveError> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        // Unreadable but executable: for the kernel to judge.
        return Ok(());
    };
    let Some(line) = head[..n].strip_prefix(b"#!") else {
        return Ok(());
    };
    let line = line.split(|&b| b == b'\n').next().unwrap_or(line);
    let line = String::from_utf8_lossy(line);
    let Some(interpreter) = line.split([' ', '\t']).find(|w| !w.is_empty()) else {
        return Ok(());
    };
    let fault = |why: &str| ResolveError::Interpreter {
        program: program.to_string(),
        interpreter: interpreter.to_string(),
        why: why.to_string(),
    };
    match std::fs::metadata(interpreter) {
        Err(_) => Err(fault("that interpreter does not exist")),
        Ok(m) if m.is_dir() => Err(fault("that is a directory")),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => Err(fault("that is not executable")),
        Ok(_) => Ok(()),
    }
}

/// Find the file `posix_spawnp` would execute for `program`, as execvp does:
/// a name containing `/` is used as is, otherwise each PATH entry is tried.
pub fn resolve(program: &str) -> Result<PathBuf, ResolveError> {
    if program.is_empty() {
        return Err(ResolveError::Empty);
    }
    if program.contains('/') {
        return check_file(Path::new(program), program);
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    let mut first_problem = None;
    for dir in std::env::split_paths(&path) {
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let candidate = dir.join(program);
        match check_file(&candidate, program) {
            Ok(found) => return Ok(found),
            Err(ResolveError::NoSuchFile(_)) => {}
            Err(e) => {
                first_problem.get_or_insert(e);
            }
        }
    }
    Err(first_problem.unwrap_or_else(|| ResolveError::NotFound(program.to_string())))
}

fn check_file(path: &Path, shown: &str) -> Result<PathBuf, ResolveError> {
    let meta = std::fs::metadata(path).map_err(|_| ResolveError::NoSuchFile(shown.to_string()))?;
    if meta.is_dir() {
        return Err(ResolveError::Directory(shown.to_string()));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(ResolveError::NotExecutable(shown.to_string()));
    }
    Ok(path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_programs_in_path_and_by_path() {
        assert!(resolve("sh").is_ok());
        assert!(resolve("/bin/sh").is_ok());
    }

    #[test]
    fn reports_each_kind_of_problem() {
        assert_eq!(
            resolve("no-such-program-bestguess"),
            Err(ResolveError::NotFound("no-such-program-bestguess".into()))
        );
        assert_eq!(
            resolve("/no/such/file"),
            Err(ResolveError::NoSuchFile("/no/such/file".into()))
        );
        assert_eq!(resolve("/tmp"), Err(ResolveError::Directory("/tmp".into())));
        assert_eq!(resolve(""), Err(ResolveError::Empty));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "data").unwrap();
        let shown = file.to_str().unwrap().to_string();
        assert_eq!(
            resolve(&shown),
            Err(ResolveError::NotExecutable(shown.clone()))
        );
    }

    #[test]
    fn what_execve_would_refuse_is_found_first() {
        let sh = |args: &[&str]| -> Vec<String> { args.iter().map(|s| s.to_string()).collect() };
        assert!(check_startable(&sh(&["sh", "-c", "true"])).is_ok());
        let long = "x".repeat(MAX_ARG);
        let e = check_startable(&sh(&["sh", "-c", &long])).unwrap_err();
        assert_eq!(
            e,
            ResolveError::ArgumentTooLong {
                index: 2,
                bytes: MAX_ARG
            }
        );
        assert!(e.to_string().contains("put the command in a script"), "{e}");
        // Just under: the kernel takes it.
        assert!(check_startable(&sh(&["sh", "-c", &long[1..]])).is_ok());
        let many: Vec<String> = std::iter::once("sh".to_string())
            .chain(std::iter::repeat_n("y".repeat(100_000), 200))
            .collect();
        let e = check_startable(&many).unwrap_err();
        assert!(matches!(e, ResolveError::ArgumentsTooLong { .. }), "{e}");

        let dir = tempfile::tempdir().unwrap();
        let script = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path.to_str().unwrap().to_string()
        };
        let bad = script("bad", "#!/no/such/interp -x\necho\n");
        let e = check_startable(&sh(&[&bad])).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("'{bad}' starts with '#!/no/such/interp', and that interpreter does not exist; correct that line")
        );
        let spaced = script("spaced", "#! /bin/sh\necho\n");
        assert!(check_startable(&sh(&[&spaced])).is_ok());
        let dir_interp = script("dirint", "#!/tmp\n");
        assert!(check_startable(&sh(&[&dir_interp]))
            .unwrap_err()
            .to_string()
            .contains("directory"));
        let plain = script("plain-bin", "\x7fELF not really");
        assert!(
            check_startable(&sh(&[&plain])).is_ok(),
            "no #!: for the kernel"
        );
    }
}

//! Checking, before any timing starts, that a program can be started.
//!
//! `posix_spawnp` would report a missing program only when the first run is
//! attempted, after warmups and other commands may already have run. Looking
//! the program up the same way first lets BestGuess refuse an experiment that
//! cannot complete, naming the command, before measuring anything.

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
}

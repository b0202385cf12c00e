//! The one home of the helpers the test files share (as ripgrep's
//! `tests/util.rs`): the two programs, the test data's paths, temporary
//! directories and what a run wrote. A test file declares `mod support;`
//! and uses what it needs; each file is its own crate, so what one of them
//! leaves unused is allowed here.
#![allow(dead_code)]

pub mod counters;
pub mod history;
pub mod pty;

use std::path::{Path, PathBuf};

use bestguess::data::{read_raw_csv, Dataset, RunRecord};

// Where the files that use it call it.
#[allow(unused_imports)]
pub use counters::assert_task_clock_agrees;

/// `bestguess`, built by cargo for this test run.
pub fn bestguess() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("bestguess").unwrap()
}

/// `bestreport`, built by cargo for this test run.
pub fn bestreport() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("bestreport").unwrap()
}

/// The variable that runs `bestguess` on the scripted executor.
pub const SCRIPTED: &str = "BESTGUESS_SCRIPTED";

/// `bestguess` on the scripted executor: nothing runs, every run's values
/// and durations, and the time, come from `script` (its syntax: the rustdoc
/// of `src/experiment/scripted.rs`).
pub fn scripted(script: &str) -> assert_cmd::Command {
    let mut cmd = bestguess();
    cmd.env(SCRIPTED, script);
    cmd
}

/// [`run`] of `bestguess` on the scripted executor ([`scripted`]).
pub fn run_scripted(script: &str, args: &[&str]) -> (i32, String, String) {
    let out = scripted(script).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The path of one of the crate's executables (`bestguess`, `bestreport`),
/// for a command line run by a shell or under a pseudo-terminal.
pub fn program_path(program: &str) -> String {
    assert_cmd::cargo::cargo_bin(program)
        .to_string_lossy()
        .into_owned()
}

/// Runs `program` (`bestguess` or `bestreport`) with `args`: its exit
/// status (-1 for a signal), standard output and standard error.
pub fn run(program: &str, args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin(program)
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `bestreport ARGS`, which must succeed: its standard output and error.
pub fn report(args: &[&str]) -> (String, String) {
    let out = bestreport().args(args).assert().success();
    let o = out.get_output();
    (
        String::from_utf8(o.stdout.clone()).unwrap(),
        String::from_utf8(o.stderr.clone()).unwrap(),
    )
}

/// The standard output of a finished command.
pub fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

/// The standard error of a finished command.
pub fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// A file of the test data: `tests/data/DIR/NAME`.
pub fn data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name)
}

/// A hand-made raw file (`tests/data/fixtures/`).
pub fn fixture(name: &str) -> PathBuf {
    data("fixtures", name)
}

/// A raw file of the C BestGuess's own test data (`tests/data/c_tool/`).
pub fn c_tool(name: &str) -> PathBuf {
    data("c_tool", name)
}

/// A file the method's simulations made (`tests/data/method/`).
pub fn method(name: &str) -> PathBuf {
    data("method", name)
}

/// Another tool's file (`tests/data/formats/`).
pub fn format_file(name: &str) -> PathBuf {
    data("formats", name)
}

/// A path as a command-line argument (the test data's paths are UTF-8).
pub fn arg(path: impl AsRef<Path>) -> String {
    path.as_ref().to_str().unwrap().to_owned()
}

/// The golden values in `tests/data/golden/NAME` (made by `tools/`).
pub fn golden(name: &str) -> serde_json::Value {
    let path = data("golden", name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The dataset one file holds, in whichever format it is.
pub fn dataset(path: &str) -> Dataset {
    Dataset::read_files(&[path.to_string()]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The runs of a raw CSV file.
pub fn rows(path: &Path) -> Vec<RunRecord> {
    read_raw_csv(
        std::fs::File::open(path).unwrap(),
        &path.display().to_string(),
    )
    .unwrap()
}

/// A new temporary directory, removed when dropped.
pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

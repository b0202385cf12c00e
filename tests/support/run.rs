//! Running one of the crate's executables and taking what it wrote.

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

//! Hostile input: arguments, command strings, command files, raw files,
//! outputs, signals and resource limits, tried as an attacker (or a very
//! unlucky user) would. Every case asserts the exit status, the message,
//! and that nothing already on disk was lost or left half-written.
//!
//! A case is a command line (with `{d}` standing for its own temporary
//! directory), the files that exist before it runs, and what must hold
//! after: the status, a part of standard error, and the state of files.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use bestguess::data::read_raw_csv;

/// What a file must look like after the case ran.
enum After {
    /// Exactly its content before the case.
    Unchanged,
    /// Does not exist.
    Absent,
    /// A raw CSV that reads back, ends with a complete row, with this many
    /// runs (None: any number, at least the header).
    Raw(Option<usize>),
    /// Contains this text.
    Contains(&'static str),
}

struct Case {
    name: &'static str,
    program: &'static str,
    args: Vec<String>,
    /// Files created first: (name in the directory, content).
    files: Vec<(&'static str, Vec<u8>)>,
    stdin: Option<Vec<u8>>,
    /// A shell prefix run before the program, e.g. `ulimit -f 4;`.
    shell: Option<&'static str>,
    status: i32,
    stderr: &'static str,
    after: Vec<(&'static str, After)>,
}

fn case(name: &'static str, program: &'static str, args: &[&str]) -> Case {
    Case {
        name,
        program,
        args: args.iter().map(|s| s.to_string()).collect(),
        files: Vec::new(),
        stdin: None,
        shell: None,
        status: 0,
        stderr: "",
        after: Vec::new(),
    }
}

impl Case {
    fn file(mut self, name: &'static str, content: impl AsRef<[u8]>) -> Self {
        self.files.push((name, content.as_ref().to_vec()));
        self
    }
    fn stdin(mut self, content: impl AsRef<[u8]>) -> Self {
        self.stdin = Some(content.as_ref().to_vec());
        self
    }
    fn under(mut self, shell: &'static str) -> Self {
        self.shell = Some(shell);
        self
    }
    fn fails(mut self, status: i32, stderr: &'static str) -> Self {
        self.status = status;
        self.stderr = stderr;
        self
    }
    fn ok(mut self) -> Self {
        self.status = 0;
        self
    }
    fn then(mut self, file: &'static str, after: After) -> Self {
        self.after.push((file, after));
        self
    }

    fn run(&self) -> Result<(), String> {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap().to_string();
        for (name, content) in &self.files {
            fs::write(dir.path().join(name), content).unwrap();
        }
        let args: Vec<String> = self.args.iter().map(|a| a.replace("{d}", &d)).collect();
        let bin = assert_cmd::cargo::cargo_bin(self.program);
        let mut cmd = match self.shell {
            None => {
                let mut c = Command::cargo_bin(self.program).unwrap();
                c.args(&args);
                c
            }
            Some(prefix) => {
                let mut c = Command::new("/bin/sh");
                c.arg("-c")
                    .arg(format!("{prefix} exec \"$0\" \"$@\""))
                    .arg(&bin)
                    .args(&args);
                c
            }
        };
        cmd.current_dir(dir.path())
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        if let Some(input) = &self.stdin {
            let _ = child.stdin.take().unwrap().write_all(input);
        }
        let out = wait_with_timeout(child, Duration::from_secs(60))?;
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        // A death by a signal as a shell reports it: 128 + the signal.
        let code = out
            .status
            .code()
            .or_else(|| out.status.signal().map(|s| 128 + s));
        let mut problems = Vec::new();
        if code != Some(self.status) {
            problems.push(format!("status {code:?}, expected {}", self.status));
        }
        if !stderr.contains(self.stderr) {
            problems.push(format!("stderr lacks {:?}", self.stderr));
        }
        if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
            problems.push("a panic".into());
        }
        if stderr.lines().filter(|l| l.contains("error:")).count() > 1 {
            problems.push("more than one error line".into());
        }
        // No case leaves an export's temporary file behind, whatever ended
        // the program.
        for entry in fs::read_dir(dir.path()).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains(".bestguess-") && name.ends_with(".tmp") {
                problems.push(format!("temporary file {name} left behind"));
            }
        }
        self.check_files(dir.path(), &mut problems);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: {}\n  args: {args:?}\n  stderr: {stderr}",
                self.name,
                problems.join("; ")
            ))
        }
    }

    /// What each file the case names holds after the run, as it expects.
    fn check_files(&self, dir: &std::path::Path, problems: &mut Vec<String>) {
        for (file, after) in &self.after {
            let path = dir.join(file);
            let before = self.files.iter().find(|(n, _)| n == file).map(|(_, c)| c);
            match after {
                After::Unchanged => {
                    let now = fs::read(&path).ok();
                    if now.as_ref() != before {
                        problems.push(format!("{file} changed"));
                    }
                }
                After::Absent => {
                    if path.exists() {
                        problems.push(format!("{file} exists"));
                    }
                }
                After::Raw(rows) => match check_raw(&path) {
                    Ok(n) if rows.map_or(true, |r| r == n) => {}
                    Ok(n) => problems.push(format!("{file}: {n} rows, expected {rows:?}")),
                    Err(e) => problems.push(format!("{file}: {e}")),
                },
                After::Contains(text) => {
                    let now = fs::read_to_string(&path).unwrap_or_default();
                    if !now.contains(text) {
                        problems.push(format!("{file} lacks {text:?}"));
                    }
                }
            }
        }
    }
}

fn wait_with_timeout(
    mut child: std::process::Child,
    limit: Duration,
) -> Result<std::process::Output, String> {
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return Ok(child.wait_with_output().unwrap());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            return Err("a hang: killed after 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A raw CSV that reads back and ends with a complete row: its run count.
fn check_raw(path: &Path) -> Result<usize, String> {
    let bytes = fs::read(path).map_err(|e| e.to_string())?;
    if !bytes.ends_with(b"\n") {
        return Err("does not end with a complete row".into());
    }
    if bytes.iter().filter(|&&b| b == b'\n').count() == 1 && bytes.starts_with(b"Command,") {
        return Ok(0); // the header alone: no run completed
    }
    read_raw_csv(&bytes[..], "raw")
        .map(|r| r.len())
        .map_err(|e| e.to_string())
}

const RAW: &str = "Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us),Total time (us),Total Context Switches\n\
\"a\",\"\",\"\",1,0,100,20,1000,1,0,1,1,150,120,2\n\
\"a\",\"\",\"\",1,0,110,20,1000,1,0,1,1,160,130,2\n\
\"a\",\"\",\"\",1,0,120,20,1000,1,0,1,1,170,140,2\n\
\"a\",\"\",\"\",1,0,130,20,1000,1,0,1,1,180,150,2\n\
\"a\",\"\",\"\",1,0,140,20,1000,1,0,1,1,190,160,2\n\
\"b\",\"\",\"\",2,0,200,20,1000,1,0,1,1,250,220,2\n\
\"b\",\"\",\"\",2,0,210,20,1000,1,0,1,1,260,230,2\n\
\"b\",\"\",\"\",2,0,220,20,1000,1,0,1,1,270,240,2\n\
\"b\",\"\",\"\",2,0,230,20,1000,1,0,1,1,280,250,2\n\
\"b\",\"\",\"\",2,0,240,20,1000,1,0,1,1,290,260,2\n";

/// [`RAW`] with its rows `copies` times over: one header, then the rows
/// again and again (a large raw file, 10 rows a copy).
fn raw_with_rows_repeated(copies: usize) -> String {
    let (header, rows) = RAW.split_once('\n').expect("RAW has a header line");
    format!("{header}\n{}", rows.repeat(copies))
}

/// `raw` with `header` appended to its header line and `value` to its rows.
fn with_column(raw: &str, header: &str, value: &str) -> String {
    raw.lines()
        .enumerate()
        .map(|(i, l)| match i {
            0 => format!("{l},{header}\n"),
            _ => format!("{l},{value}\n"),
        })
        .collect()
}

const OLD: &str = "precious old content\n";

/// A file name of 250 bytes (the limit is 255): the export's temporary
/// name beside it must not be too long.
const LONG_NAME: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json";

// A table of cases, one per hostile input and no logic: its length is
// the number of cases, not a function to split.
#[allow(clippy::too_many_lines)]
fn arguments() -> Vec<Case> {
    vec![
        case(
            "a baseline without the ranked metric, before any run",
            "bestguess",
            &["-r", "2", "-o", "r.csv", "--baseline", "base.json", "true"],
        )
        .file(
            "base.json",
            r#"{"results":[{"command":"true","times":[0.001,0.0011,0.0012,0.0013,0.0014]}]}"#,
        )
        .fails(1, "the baseline holds no Total CPU time values to compare with; choose another --metric (it has wall)")
        .then("r.csv", After::Absent),
        case("a switch given a value", "bestguess", &["--ignore-failure=1,2", "true"])
            .fails(1, "--ignore-failure takes no value, and '1,2' was given: write --ignore-failure alone (Record"),
        case(
            "--metric naming a counter not measured",
            "bestguess",
            &["-r", "2", "--metric", "task-clock", "true"],
        )
        .fails(1, "measure it with --counters task-clock"),
        case(
            "an empty figure directory writes nothing here",
            "bestreport",
            &["--export-svg", "", "raw.csv"],
        )
        .file("raw.csv", RAW)
        .file("ranking.svg", OLD)
        .fails(1, "--export-svg is empty: give a directory")
        .then("ranking.svg", After::Unchanged),
        case(
            "an empty raw data path",
            "bestguess",
            &["-r", "2", "-o", "", "true"],
        )
        .fails(1, "-o is empty"),
        case("an empty data file name", "bestreport", &[""])
            .fails(1, "a data file's name is empty"),
        case("an empty command file name", "bestguess", &["-f", ""]).fails(1, "-f is empty"),
        case(
            "raw data to standard error",
            "bestguess",
            &["-r", "2", "-o", "/dev/stderr", "true"],
        )
        .fails(1, "-o /dev/stderr is standard error, where the messages go"),
        case(
            "an export to standard error",
            "bestreport",
            &["--export-markdown", "/dev/stderr", "raw.csv"],
        )
        .file("raw.csv", RAW)
        .fails(1, "--export-markdown /dev/stderr is standard error"),
        case(
            "commands' output into an export on standard output",
            "bestguess",
            &["-r", "2", "--show-output", "--export-json", "-", "echo hi"],
        )
        .fails(1, "--show-output and --export-json - would mix"),
        case(
            "a list value twice",
            "bestguess",
            &["-r", "2", "-L", "n", "a,a", "echo {n}"],
        )
        .fails(1, "-L n: the value 'a' is given twice"),
        case(
            "raw data over the program measured",
            "bestguess",
            &["-r", "2", "-o", "run.sh", "./run.sh"],
        )
        .file("run.sh", "#!/bin/sh\n")
        .fails(1, "-o run.sh would overwrite the program file ./run.sh")
        .then("run.sh", After::Unchanged),
        case(
            "an export over a hook's program",
            "bestguess",
            &[
                "-r",
                "2",
                "-p",
                "./prep.sh x",
                "--export-json",
                "prep.sh",
                "true",
            ],
        )
        .file("prep.sh", "#!/bin/sh\n")
        .fails(
            1,
            "--export-json prep.sh would overwrite the program file ./prep.sh",
        )
        .then("prep.sh", After::Unchanged),
        case(
            "run options with -A report",
            "bestguess",
            &["-A", "report", "-w", "50", "-o", "new.csv", "raw.csv"],
        )
        .file("raw.csv", RAW)
        .fails(
            1,
            "--warmup only applies when running commands, and -A report reads saved data",
        )
        .then("new.csv", After::Absent),
        case(
            "a program named by an empty word",
            "bestguess",
            &["-r", "2", "'' x"],
        )
        .fails(1, "names its program by an empty word"),
        case(
            "a command that signals its parent, the launcher",
            "bestguess",
            &[
                "-Q",
                "-r",
                "3",
                "-o",
                "raw.csv",
                "-s",
                "/bin/sh -c",
                "kill -USR1 $PPID",
            ],
        )
        .ok()
        .then("raw.csv", After::Raw(Some(3))),
        case("zero runs", "bestguess", &["-r", "0", "true"]).fails(1, "-r"),
        case("negative runs", "bestguess", &["-r", "-1", "true"]).fails(1, "-r"),
        case(
            "runs overflow u64",
            "bestguess",
            &["-r", "18446744073709551616", "true"],
        )
        .fails(1, "-r"),
        case(
            "runs in scientific notation",
            "bestguess",
            &["-r", "1e3", "true"],
        )
        .fails(1, "-r"),
        case("warmups not a number", "bestguess", &["-w", "many", "true"]).fails(1, "-w"),
        case("timeout zero", "bestguess", &["--timeout", "0", "true"]).fails(1, "--timeout"),
        case("timeout NaN", "bestguess", &["--timeout", "NaN", "true"]).fails(1, "--timeout"),
        case(
            "timeout infinite",
            "bestguess",
            &["--timeout", "inf", "true"],
        )
        .fails(1, "--timeout"),
        case(
            "timeout beyond any clock",
            "bestguess",
            &["--timeout", "1e30", "true"],
        )
        .fails(1, "--timeout"),
        case(
            "alpha out of range",
            "bestguess",
            &["-c", "alpha=2", "true"],
        )
        .fails(1, "alpha"),
        case(
            "effect beyond f64",
            "bestguess",
            &["-c", "effect=1e400", "true"],
        )
        .fails(1, "effect"),
        case("unknown setting", "bestguess", &["-c", "speed=11", "true"]).fails(1, "speed"),
        case("unknown option", "bestguess", &["--frobnicate", "true"]).fails(1, "--frobnicate"),
        case("option without its value", "bestguess", &["true", "-r"]).fails(1, "-r"),
        case(
            "unknown order",
            "bestguess",
            &["--order", "sideways", "true"],
        )
        .fails(1, "sideways"),
        case("no command at all", "bestguess", &["-r", "3"]).fails(1, "command"),
        case("empty command without a shell", "bestguess", &[""]).fails(1, "empty"),
        case("unbalanced quote", "bestguess", &["echo 'oops"]).fails(1, "quote"),
        case("blank shell", "bestguess", &["-s", "  ", "true"]).fails(1, "-s"),
        case(
            "three prepare hooks for two commands",
            "bestguess",
            &["-p", "true", "-p", "true", "-p", "true", "true", "true"],
        )
        .fails(1, "-p"),
        case(
            "two outputs on standard output",
            "bestguess",
            &["-o", "-", "--export-json", "-", "true"],
        )
        .fails(1, "-"),
    ]
}

// A table of cases, one per hostile input and no logic: its length is
// the number of cases, not a function to split.
#[allow(clippy::too_many_lines)]
fn commands() -> Vec<Case> {
    vec![
        case("an empty hook", "bestguess", &["-r", "1", "-p", "", "true"]).fails(
            1,
            "--prepare is empty: without a shell there is nothing to run; give it a command",
        ),
        case(
            "runs that can be saved nowhere after a failed analysis",
            "bestguess",
            &[
                "-r",
                "3",
                "--randomize-env",
                "--metric",
                "env-padding",
                "--baseline",
                "base.csv",
                "true",
            ],
        )
        // The baseline has env-padding, but not for `true`: the comparison
        // fails after the runs.
        .file("base.csv", {
            let mut lines = RAW.lines();
            let header = format!("{},env-padding (bytes)\n", lines.next().unwrap());
            let rows: String = lines
                .map(|l| match l.strip_prefix("\"a\"") {
                    Some(rest) => format!("\"true\"{rest},\n"),
                    None => format!("{l},100\n"),
                })
                .collect();
            header + &rows
        })
        .under(
            "chmod 555 .; export TMPDIR=/nonexistent; [ \"$(id -u)\" = 0 ] && \
             exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\";",
        )
        .fails(2, "the 3 runs measured could not be saved either"),
        case(
            "a command that sends its parent SIGALRM",
            "bestguess",
            &[
                "-r",
                "5",
                "-o",
                "a.csv",
                "sh -c 'kill -ALRM $PPID; sleep 0.01'",
            ],
        )
        .ok()
        .then("a.csv", After::Raw(Some(5))),
        case(
            "a command that kills its parent",
            "bestguess",
            &["-r", "3", "-o", "b.csv", "sh -c 'kill -USR2 $PPID'"],
        )
        .fails(2, "the launcher process was killed by SIGUSR2")
        .then("b.csv", After::Raw(None)),
        case(
            "a script without #! keeps the old -o file",
            "bestguess",
            &["-r", "2", "-i", "-o", "old.csv", "./noshebang"],
        )
        .file("old.csv", OLD)
        .file("noshebang", "echo hi\n")
        .under("chmod +x noshebang;")
        .fails(2, "add a #! line")
        .then("old.csv", After::Unchanged),
        case(
            "program not found",
            "bestguess",
            &["-o", "raw.csv", "no-such-program-xyz"],
        )
        .file("raw.csv", OLD)
        .fails(2, "no-such-program-xyz")
        .then("raw.csv", After::Unchanged),
        case(
            "a directory as the program",
            "bestguess",
            &["-o", "raw.csv", "/tmp"],
        )
        .file("raw.csv", OLD)
        .fails(2, "/tmp")
        .then("raw.csv", After::Unchanged),
        case(
            "a file that is not executable",
            "bestguess",
            &["-o", "raw.csv", "./data.txt"],
        )
        .file("data.txt", "not a program")
        .file("raw.csv", OLD)
        .fails(2, "data.txt")
        .then("raw.csv", After::Unchanged),
        case(
            "a missing hook refuses before any run",
            "bestguess",
            &["-o", "raw.csv", "--setup", "no-such-hook-xyz", "true"],
        )
        .file("raw.csv", OLD)
        .fails(2, "no-such-hook-xyz")
        .then("raw.csv", After::Unchanged),
        case(
            "argument list too long",
            "bestguess",
            &["-r", "1", "-o", "raw.csv", "-f", "long.txt"],
        )
        .file("long.txt", format!("true {}\n", "x ".repeat(1_100_000)))
        // Found before anything runs or -o is created, as execve would.
        .fails(2, "the kernel takes (ARG_MAX); put the command in a script")
        .then("raw.csv", After::Absent),
        case(
            "a failing run is recorded before stopping",
            "bestguess",
            &[
                "-w",
                "0",
                "-r",
                "3",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "exit 3",
            ],
        )
        .fails(2, "exited with code 3")
        .then("raw.csv", After::Raw(Some(1))),
        case(
            "a run killed by a signal",
            "bestguess",
            &[
                "-w",
                "0",
                "-r",
                "3",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "kill -9 $$",
            ],
        )
        .fails(2, "SIGKILL")
        .then("raw.csv", After::Raw(Some(1))),
        case(
            "a run that ignores SIGTERM is still timed out",
            "bestguess",
            &[
                "-w",
                "0",
                "-r",
                "1",
                "--timeout",
                "0.2",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "trap '' TERM; sleep 30",
            ],
        )
        .fails(2, "timed out")
        .then("raw.csv", After::Raw(Some(1))),
        case(
            "a command that floods its output",
            "bestguess",
            &[
                "-r",
                "2",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "head -c 5000000 /dev/zero",
            ],
        )
        .ok()
        .then("raw.csv", After::Raw(Some(2))),
        case(
            "quotes, commas, newlines and emoji in a command and name",
            "bestguess",
            &[
                "-r",
                "2",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "echo \"a,b\" '\n' ü😀",
                "-n",
                "na,me \"😀\"",
            ],
        )
        .ok()
        .then("raw.csv", After::Raw(Some(2)))
        .then("raw.csv", After::Contains("na,me \"\"😀\"\"")),
        case(
            "a command closing its own output",
            "bestguess",
            &[
                "-r",
                "2",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "exec >&- 2>&-; true",
            ],
        )
        .ok()
        .then("raw.csv", After::Raw(Some(2))),
        case(
            "--show-output with raw data on standard output",
            "bestguess",
            &["--show-output", "-o", "-", "true"],
        )
        .fails(1, "--show-output"),
        case(
            "a directory left at the metrics path fails no later run",
            "bestguess",
            &[
                "-Q",
                "-r",
                "5",
                "--custom-metrics",
                "ops",
                "-s",
                "/bin/sh -c",
                "-o",
                "raw.csv",
                "[ -f \"$BESTGUESS_METRICS\" ] || exit 9; rm -f \"$BESTGUESS_METRICS\"; mkdir \"$BESTGUESS_METRICS\"",
            ],
        )
        .ok()
        // Every run finds a fresh file: without -i a failed run (exit 9)
        // would stop the experiment.
        .then("raw.csv", After::Raw(Some(5))),
    ]
}

fn command_files() -> Vec<Case> {
    vec![
        case(
            "commands from standard input",
            "bestguess",
            &["-Q", "-r", "2", "-o", "r.csv", "-f", "-"],
        )
        .stdin("# a comment, not a command\ntrue\n")
        .ok()
        .then("r.csv", After::Raw(Some(2))),
        case("a bare -n line", "bestguess", &["-r", "2", "-f", "c.txt"])
            .file("c.txt", "true\n-n\n")
            .fails(1, "c.txt, line 2: '-n' names nothing"),
        case(
            "an endless command file of NUL bytes",
            "bestguess",
            &["-f", "/dev/zero"],
        )
        .fails(1, "line 1: control character U+0000 (NUL)"),
        case("command file missing", "bestguess", &["-f", "nope.txt"]).fails(2, "nope.txt"),
        case("command file is a directory", "bestguess", &["-f", "/tmp"]).fails(2, "/tmp"),
        case("empty command file", "bestguess", &["-f", "/dev/null"]).fails(1, "command"),
        case(
            "byte-order mark is ignored",
            "bestguess",
            &["-r", "1", "-o", "raw.csv", "-f", "cmds.txt"],
        )
        .file("cmds.txt", b"\xEF\xBB\xBFtrue\n")
        .ok()
        .then("raw.csv", After::Raw(Some(1))),
        case(
            "NUL byte in a command file",
            "bestguess",
            &["-f", "cmds.txt"],
        )
        .file("cmds.txt", b"tr\0ue\n")
        .fails(1, "line 1"),
        case("not UTF-8", "bestguess", &["-f", "cmds.txt"])
            .file("cmds.txt", b"true\n\xff\xfe\n")
            .fails(1, "line 2"),
        case(
            "CRLF and no final newline",
            "bestguess",
            &["-r", "1", "-o", "raw.csv", "-f", "cmds.txt"],
        )
        .file("cmds.txt", "true\r\n-n yes\r\nfalse -i\r\n\r\ntrue")
        .fails(2, "")
        .then("raw.csv", After::Raw(None)),
        case(
            "-o names the command file",
            "bestguess",
            &["-f", "cmds.txt", "-o", "cmds.txt"],
        )
        .file("cmds.txt", "true\n")
        .fails(1, "cmds.txt")
        .then("cmds.txt", After::Unchanged),
        case(
            "-o names the command file by another path",
            "bestguess",
            &["-f", "cmds.txt", "-o", "{d}/./cmds.txt"],
        )
        .file("cmds.txt", "true\n")
        .fails(1, "cmds.txt")
        .then("cmds.txt", After::Unchanged),
    ]
}

// A table of cases, one per hostile input and no logic: its length is
// the number of cases, not a function to split.
#[allow(clippy::too_many_lines)]
fn raw_files() -> Vec<Case> {
    vec![
        case("a raw file appended to itself", "bestreport", &["-Q", "d.csv"])
            .file("d.csv", {
                let (header, rows) = RAW.split_once('\n').unwrap();
                let numbered: String = (rows.lines().enumerate())
                    .map(|(k, row)| format!("{row},{}\n", k + 1))
                    .collect();
                format!("{header},Sequence\n{numbered}{numbered}")
            })
            .fails(2, "d.csv: sequence number 1 is given to two runs of one experiment"),
        case("an endless file of NUL bytes", "bestreport", &["/dev/zero"])
            .fails(2, "without a line end"),
        case("a cbdr file with an endless line", "bestreport", &["-"])
            .stdin(format!(
                "benchmark,wall_time\nx,1\n{}",
                "7".repeat((16 << 20) + 100)
            ))
            .fails(2, "without a line end"),
        case("empty raw file", "bestreport", &["e.csv"])
            .file("e.csv", "")
            .fails(2, "e.csv"),
        case("binary garbage", "bestreport", &["g.csv"])
            .file("g.csv", b"\x7fELF\x02\x01\x01\0\0\0\xff\xfe\"\n\x00")
            .fails(2, "g.csv"),
        case("unterminated quote", "bestreport", &["q.csv"])
            .file("q.csv", format!("{RAW}\"a,1,2\n"))
            .fails(2, "q.csv"),
        case("a Hyperfine parameter of null", "bestreport", &["p.json"])
            .file(
                "p.json",
                r#"{"results":[{"command":"a","times":[0.1,0.11,0.12,0.13,0.105],"parameters":{"n":null}}]}"#,
            )
            .fails(2, "results[0]: parameter \"n\" is null"),
        case("Hyperfine parameters as a string", "bestreport", &["p.json"])
            .file(
                "p.json",
                r#"{"results":[{"command":"a","times":[0.1,0.11,0.12,0.13,0.105],"parameters":"n=1"}]}"#,
            )
            .fails(2, "results[0].parameters is a string"),
        case("Hyperfine parameters as a list", "bestreport", &["p.json"])
            .file(
                "p.json",
                r#"{"results":[{"command":"a","times":[0.1,0.11,0.12,0.13,0.105],"parameters":[1]}]}"#,
            )
            .fails(2, "results[0].parameters is a list"),
        case("Hyperfine user mean of a string", "bestreport", &["u.json"])
            .file(
                "u.json",
                r#"{"results":[{"command":"a","user":"fast","times":[0.1,0.11,0.12,0.13,0.105]}]}"#,
            )
            .fails(2, "results[0].user is \"fast\""),
        case("Hyperfine 2.0 summary CSV", "bestreport", &["s.csv"])
            .file(
                "s.csv",
                "command,time_wall_clock_unit,time_wall_clock_mean,time_wall_clock_stddev,time_wall_clock_median,time_wall_clock_min,time_wall_clock_max\nls,s,0.1,0.01,0.1,0.09,0.12\n",
            )
            .fails(2, "Hyperfine 2.0's summary CSV"),
        case("the C tool's 11-column file", "bestreport", &["-Q", "old.csv"])
            .file(
                "old.csv",
                "Command,Shell,Exit code,User time (us),System time (us),Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,Wall clock (us)\n\
                 \"a\",\"\",0,100,20,1884160,1,0,1,1,150\n\"a\",\"\",0,110,20,1884160,1,0,1,1,160\n",
            )
            .ok(),
        case("the C tool's names with a row too short", "bestreport", &["old.csv"])
            .file(
                "old.csv",
                "Command,Exit code,User time (us)\n\"a\",0,100\n\"a\",0\n",
            )
            .fails(2, "line 3: 2 fields where the header names 3"),
        case("the C tool's names with a negative time", "bestreport", &["old.csv"])
            .file("old.csv", "Command,User time (us)\n\"a\",-5\n")
            .fails(2, "is not a whole number of 0 or more"),
        case("the C tool's names, no data rows", "bestreport", &["old.csv"])
            .file("old.csv", "Command,User time (us)\n")
            .fails(2, "old.csv"),
        case("cbdr's older millis columns", "bestreport", &["-Q", "m.csv"])
            .file(
                "m.csv",
                "benchmark,kernel_cpu_millis,user_cpu_millis,wall_clock_millis\na,0,1,7.67\na,0,1,7.7\n",
            )
            .ok(),
        case("cbdr millis of text", "bestreport", &["m.csv"])
            .file("m.csv", "benchmark,wall_clock_millis\na,fast\n")
            .fails(2, "is not a number of milliseconds"),
        case("negative time", "bestreport", &["n.csv"])
            .file("n.csv", RAW.replace("1,0,100,20", "1,0,-100,20"))
            .fails(2, "line 2"),
        case("number beyond i64", "bestreport", &["o.csv"])
            .file(
                "o.csv",
                RAW.replace("1,0,100,20", "1,0,99999999999999999999,20"),
            )
            .fails(2, "line 2"),
        case("totals that do not add up", "bestreport", &["t.csv"])
            .file("t.csv", RAW.replace("150,120,2", "150,121,2"))
            .fails(2, "line 2"),
        case("no header: first line is a run", "bestreport", &["h.csv"])
            .file("h.csv", RAW.lines().skip(1).collect::<Vec<_>>().join("\n"))
            .fails(2, "h.csv"),
        case(
            "two files concatenated",
            "bestreport",
            &["-Q", "-R", "c.csv"],
        )
        .file("c.csv", format!("{RAW}{RAW}"))
        .ok(),
        case(
            "byte-order mark before the header",
            "bestreport",
            &["-Q", "-R", "b.csv"],
        )
        .file("b.csv", format!("\u{feff}{RAW}"))
        .ok(),
        case(
            "one metric named by two columns",
            "bestreport",
            &["--export-json", "out.json", "d.csv"],
        )
        .file("d.csv", with_column(RAW, "score (number),score (number)", "1,2"))
        .file("out.json", OLD)
        .fails(2, "column 17 (score (number)): column 16 has this name too")
        .then("out.json", After::Unchanged),
        case(
            "one metric in two units across files",
            "bestreport",
            &["--metric", "score", "n.csv", "u.csv"],
        )
        .file("n.csv", with_column(RAW, "score (number)", "7"))
        .file("u.csv", with_column(RAW, "score (us)", "7"))
        .fails(2, "u.csv: line 1, column 16 (score (us)): the metric \"score\" was read from a column \"score (number)\" before"),
        case(
            "a baseline without the metric, before any export",
            "bestreport",
            &["--baseline", "base.csv", "--metric", "score", "--export-json", "out.json", "new.csv"],
        )
        .file("base.csv", RAW)
        .file("new.csv", with_column(RAW, "score (number)", "7"))
        .file("out.json", OLD)
        .fails(2, "--baseline base.csv: the baseline's command 1 (a) has no score values to compare")
        .then("out.json", After::Unchanged),
        case(
            "an export through a link to nothing yet",
            "bestreport",
            &["-Q", "--export-json", "out.json", "raw.csv"],
        )
        .file("raw.csv", RAW)
        .under("ln -s nowhere.json out.json;")
        .ok()
        .then("nowhere.json", After::Contains("\"results\"")),
        case("an export to a link that loops", "bestreport", &["--export-json", "l1", "raw.csv"])
            .file("raw.csv", RAW)
            .under("ln -s l2 l1; ln -s l1 l2;")
            .fails(2, "a symbolic link that loops"),
        case("a raw file whose first header field is benchmark", "bestreport", &["-Q", "b.csv"])
            .file("b.csv", RAW.replacen("Command,", "benchmark,", 1))
            .ok(),
        case("a cbdr column twice", "bestreport", &["-"])
            .stdin("benchmark,wall_time,wall_time\nx,0.1,5\nx,0.2,6\n")
            .fails(2, "columns 2 and 3 are both \"wall_time\""),
        case("the same FIFO twice", "bestreport", &["f", "f"])
            .under("mkfifo f;")
            .fails(
                1,
                "f and f are the same pipe or device, which can be read only once",
            ),
        case(
            "a FIFO as data and as baseline",
            "bestreport",
            &["--baseline", "f", "f"],
        )
        .under("mkfifo f;")
        .fails(1, "can be read only once"),
        case("a directory as input", "bestreport", &["/tmp"]).fails(2, "/tmp"),
        case(
            "missing input creates no export",
            "bestreport",
            &["--export-json", "out.json", "missing.csv"],
        )
        .fails(2, "missing.csv")
        .then("out.json", After::Absent),
        case("standard input twice", "bestreport", &["-", "-"])
            .stdin(RAW)
            .fails(1, "at most once"),
        case(
            "raw data on standard input",
            "bestreport",
            &["-Q", "-R", "-"],
        )
        .stdin(RAW)
        .ok(),
        case("CRLF raw file", "bestreport", &["-Q", "-R", "w.csv"])
            .file("w.csv", RAW.replace('\n', "\r\n"))
            .ok(),
    ]
}

// A table of cases, one per hostile input and no logic: its length is
// the number of cases, not a function to split.
#[allow(clippy::too_many_lines)]
fn outputs() -> Vec<Case> {
    vec![
        case(
            "an export over a writable file in a directory the user cannot write",
            "bestreport",
            &["--export-json", "ro/x.json", "in.csv"],
        )
        .file("in.csv", RAW)
        .under(
            "mkdir ro; echo old > ro/x.json; chmod 666 ro/x.json; chmod 555 ro; chmod 777 .; \
             [ \"$(id -u)\" = 0 ] && exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\";",
        )
        .fails(2, "cannot create a temporary file in")
        .then("ro/x.json", After::Contains("old")),
        case(
            "an export whose name is near the longest a name can be",
            "bestreport",
            &["--export-json", LONG_NAME, "in.csv"],
        )
        .file("in.csv", RAW)
        .ok()
        .then(LONG_NAME, After::Contains("\"results\"")),
        case(
            "-o given twice",
            "bestguess",
            &["-r", "2", "-o", "a.csv", "-o", "b.csv", "true"],
        )
        .file("a.csv", OLD)
        .fails(1, "-o is given twice (a.csv and b.csv)")
        .then("a.csv", After::Unchanged)
        .then("b.csv", After::Absent),
        case(
            "one export format to two files",
            "bestreport",
            &[
                "--export-json",
                "a.json",
                "--export-json",
                "b.json",
                "in.csv",
            ],
        )
        .file("in.csv", RAW)
        .ok()
        .then("a.json", After::Contains("\"results\""))
        .then("b.json", After::Contains("\"results\"")),
        case(
            "an export over a file protected from writing",
            "bestreport",
            &["--export-markdown", "mine.md", "in.csv"],
        )
        .file("in.csv", RAW)
        .file("mine.md", "precious")
        // As a user the file's mode binds (root writes a mode 444 file, as
        // a redirection would): run as nobody where the tests run as root,
        // in a directory anyone may write, as `/tmp` is.
        .under(
            "chmod 444 mine.md; chmod 777 .; [ \"$(id -u)\" = 0 ] && \
             exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\";",
        )
        .fails(2, "mine.md: cannot replace the file")
        .then("mine.md", After::Unchanged),
        case(
            "-o and an export are the same file",
            "bestguess",
            &["-r", "2", "-o", "x.csv", "--export-json", "x.csv", "true"],
        )
        .file("x.csv", OLD)
        .fails(1, "same file")
        .then("x.csv", After::Unchanged),
        case(
            "a spreadsheet's separator hint above the header",
            "bestreport",
            &["in.csv"],
        )
        .file("in.csv", format!("sep=,\n{RAW}"))
        .fails(2, "line 1 (sep=,) is a spreadsheet's separator hint, not the header; delete that line")
        .then("in.csv", After::Unchanged),
        case(
            "rows a spreadsheet left empty",
            "bestreport",
            &["-Q", "--export-csv", "s.csv", "in.csv"],
        )
        .file("in.csv", format!("{RAW},,,,,,,,,,,,,,\n , ,,\t,,,,,,,,,,,\n"))
        .ok()
        .then("s.csv", After::Contains("\na,,5,0,"))
        .then("s.csv", After::Contains("\nb,,5,0,")),
        case(
            "two exports to standard output",
            "bestreport",
            &["--export-csv", "-", "--hyperfine-csv", "-", "in.csv"],
        )
        .file("in.csv", RAW)
        .fails(1, "--export-csv and --hyperfine-csv both write to standard output (-); give one of them a file name"),
        case(
            "an export and the figures' directory on one path",
            "bestreport",
            &["--export-markdown", "same", "--export-svg", "same", "in.csv"],
        )
        .file("in.csv", RAW)
        .fails(1, "--export-markdown same and --export-svg same are the same file")
        .then("same", After::Absent),
        case(
            "bestreport exporting over its input",
            "bestreport",
            &["--export-json", "in.csv", "in.csv"],
        )
        .file("in.csv", RAW)
        .fails(1, "in.csv")
        .then("in.csv", After::Unchanged),
        case(
            "an export through a symbolic link to the input",
            "bestreport",
            &["--export-csv", "link.csv", "in.csv"],
        )
        .file("in.csv", RAW)
        .under("ln -s in.csv link.csv;")
        .fails(1, "in.csv")
        .then("in.csv", After::Unchanged),
        case(
            "-o naming a program found on PATH",
            "bestguess",
            &["-r", "2", "-o", "bin/mybench", "mybench"],
        )
        .file("mybench", "#!/bin/sh\nexit 0\n")
        .under("mkdir bin; mv mybench bin/; chmod +x bin/mybench; PATH=$PWD/bin:$PATH;")
        .fails(1, "would overwrite the program file")
        .then("bin/mybench", After::Contains("exit 0")),
        case(
            "-o naming a script a shell runs",
            "bestguess",
            &["-r", "2", "-o", "bench.sh", "sh bench.sh"],
        )
        .file("bench.sh", "#!/bin/sh\nexit 0\n")
        .fails(1, "would overwrite the program file bench.sh")
        .then("bench.sh", After::Unchanged),
        case(
            "an export naming a script a hook runs",
            "bestguess",
            &[
                "-r",
                "2",
                "-p",
                "sh prep.sh",
                "--export-json",
                "prep.sh",
                "true",
            ],
        )
        .file("prep.sh", "#!/bin/sh\nexit 0\n")
        .fails(1, "prep.sh")
        .then("prep.sh", After::Unchanged),
        case(
            "an export to ./input",
            "bestreport",
            &["--export-markdown", "./in.csv", "in.csv"],
        )
        .file("in.csv", RAW)
        .fails(1, "in.csv")
        .then("in.csv", After::Unchanged),
        case(
            "two exports to the same new file",
            "bestreport",
            &[
                "--export-json",
                "o.txt",
                "--export-csv",
                "./o.txt",
                "in.csv",
            ],
        )
        .file("in.csv", RAW)
        .fails(1, "same file")
        .then("o.txt", After::Absent),
        case(
            "-o in a missing directory fails before any run",
            "bestguess",
            &["-o", "no/such/dir/raw.csv", "-s", "/bin/sh -c", "touch ran"],
        )
        .fails(2, "no/such/dir")
        .then("ran", After::Absent),
        case("-o is a directory", "bestguess", &["-o", "/tmp", "true"]).fails(2, "/tmp"),
        case(
            "an argument longer than the kernel takes fails before -o is touched",
            "bestguess",
            &["-o", "old.csv", "true", "-f", "long.txt"],
        )
        .file("old.csv", OLD)
        .file("long.txt", format!("echo {}\n", "x".repeat(131_072)))
        .fails(2, "more than the 131071 the kernel takes in one argument")
        .then("old.csv", After::Unchanged),
        case(
            "a script whose #! interpreter is missing fails before -o is touched, also with -i",
            "bestguess",
            &["-i", "-o", "old.csv", "-p", "./bad.sh", "true"],
        )
        .file("old.csv", OLD)
        .file("bad.sh", "#!/no/such/interpreter\n")
        .under("chmod +x bad.sh;")
        .fails(
            2,
            "'./bad.sh' starts with '#!/no/such/interpreter', and that interpreter does not exist",
        )
        .then("old.csv", After::Unchanged),
        case(
            "--reference naming no command fails before any run",
            "bestguess",
            &[
                "--reference",
                "nosuch",
                "-o",
                "old.csv",
                "-s",
                "/bin/sh -c",
                "touch ran",
                "true",
            ],
        )
        .file("old.csv", OLD)
        .fails(1, "--reference 'nosuch' names no command")
        .then("ran", After::Absent)
        .then("old.csv", After::Unchanged),
        case(
            "--reference past the last command fails before any run",
            "bestguess",
            &["--reference", "3", "-s", "/bin/sh -c", "touch ran", "true"],
        )
        .fails(1, "--reference 3: there are only 2 commands")
        .then("ran", After::Absent),
        case(
            "-o /dev/stdout while standard output is a file",
            "bestguess",
            &["-r", "40", "-o", "/dev/stdout", "true"],
        )
        .under("exec > out.csv;")
        // The report to standard error, as with -o -: not over the rows.
        .fails(0, "Command 1:")
        .then("out.csv", After::Raw(Some(40))),
        case(
            "an export to the file standard output already writes",
            "bestreport",
            &["--export-markdown", "out.md", "in.csv"],
        )
        .file("in.csv", RAW)
        .under("exec > out.md;")
        // The report goes to standard error, as with -: not erased by the
        // export's rename, nor written over it.
        .fails(0, "Command 1:")
        .then("out.md", After::Contains("| Command |")),
        case(
            "--export-svg names an existing file",
            "bestreport",
            &["--export-svg", "notes.md", "in.csv"],
        )
        .file("in.csv", RAW)
        .file("notes.md", OLD)
        .fails(
            2,
            "notes.md: cannot create the directory: it exists and is not a directory",
        )
        .then("notes.md", After::Unchanged),
        case(
            "an export path ending in / fails before any run",
            "bestguess",
            &["--export-json", "out/", "-s", "/bin/sh -c", "touch ran"],
        )
        .fails(2, "ends with /")
        .then("ran", After::Absent)
        .then("out", After::Absent),
        case(
            "-o ending in / fails before any run",
            "bestguess",
            &["-o", "raw/", "-s", "/bin/sh -c", "touch ran"],
        )
        .fails(2, "ends with /")
        .then("ran", After::Absent)
        .then("raw", After::Absent),
        case(
            "export to a full disk",
            "bestreport",
            &["--export-json", "/dev/full", "in.csv"],
        )
        .file("in.csv", RAW)
        .fails(2, "--export-json /dev/full"),
        case(
            "raw data to a full disk",
            "bestguess",
            &["-o", "/dev/full", "-s", "/bin/sh -c", "touch ran"],
        )
        .fails(2, "-o /dev/full")
        .then("ran", After::Absent),
        case(
            "raw data past ulimit -f ends with a complete row",
            "bestguess",
            &[
                "-r",
                "100000",
                "-o",
                "raw.csv",
                "true",
                "-n",
                &"long name ".repeat(2000),
            ],
        )
        .under("ulimit -f 2048;")
        .fails(2, "File too large")
        .then("raw.csv", After::Raw(None)),
        case(
            "an export past ulimit -f keeps the old file",
            "bestreport",
            &["-Q", "--export-json", "out.json", "big.csv"],
        )
        .file("big.csv", raw_with_rows_repeated(300))
        .file("out.json", OLD)
        .under("ulimit -f 40;")
        .fails(2, "the previous file, if any, is unchanged")
        .then("out.json", After::Unchanged),
        case(
            "a large export past ulimit -f keeps the old file",
            "bestreport",
            &["-Q", "--export-json", "out.json", "big.csv"],
        )
        // Past several writebacks (every 8 MiB), and short of the whole
        // document (about 40 MB).
        .file("big.csv", raw_with_rows_repeated(12_000))
        .file("out.json", OLD)
        .under("ulimit -f 49152;")
        .fails(2, "the previous file, if any, is unchanged")
        .then("out.json", After::Unchanged),
        case(
            "SIGTERM during an export keeps the old file and leaves no temporary one",
            "bestreport",
            &["-Q", "--export-json", "out.json", "big.csv"],
        )
        .file("big.csv", raw_with_rows_repeated(40_000))
        .file("out.json", OLD)
        // Once the export has begun (its temporary file is not empty; at
        // most 30 s), the process is sent SIGTERM and dies of it.
        .under(
            "(i=0; while [ ! -s .out.json.bestguess-*.tmp ] && [ $i -lt 3000 ]; \
             do sleep 0.01; i=$((i + 1)); done; kill -TERM $$) & ",
        )
        .fails(143, "")
        .then("out.json", After::Unchanged),
        case(
            "a refused command leaves -o untouched",
            "bestguess",
            &["-o", "raw.csv", "true", "echo 'x"],
        )
        .file("raw.csv", OLD)
        .fails(1, "quote")
        .then("raw.csv", After::Unchanged),
        case(
            "export into a read-only directory fails before any run",
            "bestguess",
            &[
                "--export-json",
                "/proc/out.json",
                "-s",
                "/bin/sh -c",
                "touch ran",
            ],
        )
        .fails(2, "/proc/out.json")
        .then("ran", After::Absent),
        case(
            "exports replace files atomically",
            "bestreport",
            &[
                "-Q",
                "--export-json",
                "out.json",
                "--export-csv",
                "out.csv",
                "in.csv",
            ],
        )
        .file("in.csv", RAW)
        .file("out.json", OLD)
        .ok()
        .then("out.json", After::Contains("\"results\"")),
        case(
            "export to /dev/null twice is fine",
            "bestreport",
            &[
                "-Q",
                "--export-json",
                "/dev/null",
                "--export-csv",
                "/dev/null",
                "in.csv",
            ],
        )
        .file("in.csv", RAW)
        .ok(),
    ]
}

// A table of cases, one per hostile input and no logic: its length is
// the number of cases, not a function to split.
#[allow(clippy::too_many_lines)]
fn limits() -> Vec<Case> {
    vec![
        case(
            "the largest run count is refused with its range",
            "bestguess",
            &["-r", "18446744073709551615", "true"],
        )
        .fails(1, "1000000000"),
        case(
            "a billion runs are accepted and interruptible",
            "bestguess",
            &["-Q", "-r", "1000000000", "-o", "raw.csv", "true"],
        )
        .under("(sleep 1; kill -TERM $$) & ")
        .fails(143, "Interrupted by SIGTERM")
        .then("raw.csv", After::Raw(None)),
        case(
            "SIGTERM during a long setup hook",
            "bestguess",
            &[
                "-o",
                "raw.csv",
                "-s",
                "/bin/sh -c",
                "--setup",
                "sleep 30",
                "true",
            ],
        )
        .under("(sleep 0.5; kill -TERM $$) & ")
        .fails(143, "Interrupted by SIGTERM: 0 completed runs")
        .then("raw.csv", After::Raw(Some(0))),
        case(
            "a tight address-space limit is a message, not an abort",
            "bestreport",
            &["-Q", "big.csv"],
        )
        .file("big.csv", raw_with_rows_repeated(40000))
        .under("ulimit -v 20000;")
        .fails(2, "memory"),
        case(
            "out of memory with an export: the old export stays, the temporary goes",
            "bestreport",
            &["-Q", "--export-json", "out.json", "big.csv"],
        )
        .file("big.csv", raw_with_rows_repeated(40000))
        .file("out.json", OLD)
        .under("ulimit -v 20000;")
        .fails(2, "bestreport: error: out of memory")
        .then("out.json", After::Unchanged),
        case(
            "an open-file limit of 8",
            "bestguess",
            &["-r", "2", "-o", "raw.csv", "true"],
        )
        .file("raw.csv", OLD)
        .under("ulimit -n 8;")
        .fails(
            2,
            "the open-file limit (ulimit -n) is too low: give it at least 16",
        )
        .then("raw.csv", After::Unchanged),
        case(
            "a file size limit below the launcher's size",
            "bestguess",
            &["-o", "raw.csv", "true"],
        )
        .file("raw.csv", OLD)
        .under("ulimit -f 100;")
        .fails(2, "ulimit -f")
        .then("raw.csv", After::Unchanged),
        case(
            "many commands",
            "bestguess",
            &["-Q", "-r", "1", "-o", "raw.csv", "-f", "many.txt"],
        )
        .file("many.txt", "true\n".repeat(300))
        .ok()
        .then("raw.csv", After::Raw(Some(300))),
        case(
            "SIGTERM after a command stopped the launcher",
            "bestguess",
            &["-r", "3", "-o", "raw.csv", "-s", "/bin/sh -c", "kill -STOP $PPID; sleep 0.1"],
        )
        .under("(sleep 1; kill -TERM $$) >/dev/null 2>&1 & ")
        .fails(143, "Interrupted by SIGTERM")
        .then("raw.csv", After::Raw(None)),
        case(
            "SIGTERM while an export waits for a slow reader",
            "bestguess",
            &[
                "-Q",
                "-r",
                "1",
                "-o",
                "raw.csv",
                "-f",
                "many.txt",
                "--export-json",
                "slow",
            ],
        )
        .file("many.txt", "true\n".repeat(300))
        // A reader that never reads: the export (over 64 KiB) blocks once
        // the pipe is full. The signal is not swallowed until the reader
        // leaves (and the write then fails).
        .under("mkfifo slow; (sleep 8 < slow >/dev/null 2>&1) & (sleep 3; kill -TERM $$) >/dev/null 2>&1 & ")
        .fails(143, "")
        .then("raw.csv", After::Raw(Some(300))),
    ]
}

#[test]
fn hostile_inputs_are_refused_clearly_and_lose_nothing() {
    let cases: Vec<Case> = [
        arguments(),
        commands(),
        command_files(),
        raw_files(),
        outputs(),
        limits(),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(|c| c.run().err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} hostile cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// `program ARGS 2>err | READER` in `dir`: the program's exit status and
/// what it wrote to standard error.
fn piped(dir: &Path, program: &str, args: &str, reader: &str) -> (String, String) {
    let bin = assert_cmd::cargo::cargo_bin(program);
    let script = format!(
        "\"{}\" {args} 2>err | {reader} >/dev/null; echo ${{PIPESTATUS[0]}} >status",
        bin.display()
    );
    let status = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success());
    let code = fs::read_to_string(dir.join("status")).unwrap();
    let err = fs::read_to_string(dir.join("err")).unwrap();
    (code.trim().to_owned(), err)
}

/// `bestreport f.csv | head -1`: the reader leaves early; bestreport ends
/// quietly with status 0 (and so does bestguess writing its report).
#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.csv"), RAW).unwrap();
    for (program, args) in [
        ("bestreport", "-D -E in.csv in.csv in.csv"),
        ("bestguess", "-r 20 -o raw.csv -D -E true false -i"),
    ] {
        let (code, err) = piped(dir.path(), program, args, "head -c 1");
        assert_eq!(code, "0", "{program}: {err}");
        assert!(
            !err.contains("error") && !err.contains("Broken pipe"),
            "{program}: {err}"
        );
    }
    // The help and the man page to a reader that is gone before they are
    // written end the same way (not "Broken pipe", status 2).
    for (program, args) in [("bestguess", "--help"), ("bestreport", "--generate man")] {
        let (code, err) = piped(dir.path(), program, args, "(exec 0<&-; sleep 0.5)");
        assert_eq!(code, "0", "{program} {args}: {err}");
        assert!(err.is_empty(), "{program} {args}: {err}");
    }
    // The raw data to a pipe that closes early: status 0, as a pipeline
    // expects, but the runs measured are said (the report and exports
    // hold only those).
    let (code, err) = piped(dir.path(), "bestguess", "-r 2000 -o - true", "head -n 3");
    assert_eq!(code, "0", "{err}");
    assert!(
        err.contains("Note: the reader of the raw data (-o -) went away after"),
        "{err}"
    );
}

/// `-o -` with standard output closed: Rust's runtime reopens it on
/// /dev/null, so the rows would go nowhere with status 0 and no word. The
/// runs still run (a redirection to /dev/null cannot be told from it),
/// and a warning says where the rows go and what to do.
#[test]
fn raw_data_to_a_closed_standard_output_is_warned_of() {
    let bin = assert_cmd::cargo::cargo_bin("bestguess");
    for redirect in [">&-", ">/dev/null"] {
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("exec \"$0\" -r 2 -o - true {redirect}"))
            .arg(&bin)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{redirect}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("Warning: -o -: standard output is /dev/null")
                && err.contains("give -o a file to keep them"),
            "{redirect}: {err}"
        );
    }
    // A pipe is no null device: no warning.
    let out = Command::new(&bin)
        .args(["-Q", "-r", "2", "-o", "-", "true"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("Warning"));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
}

/// Standard error a pipe whose reader has gone: an error or a warning is
/// lost, not a panic (`eprintln!` would make a usage error exit 101).
#[test]
fn a_closed_standard_error_is_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (program, args, expected) in [
        ("bestguess", "-c bad=1 true", 1),
        ("bestreport", "missing.csv", 2),
        // A warning (-s env), then the runs and the report as usual.
        ("bestguess", "-Q -r 2 -s env true", 0),
    ] {
        let bin = assert_cmd::cargo::cargo_bin(program);
        // The reader is gone before the program writes anything.
        let script = format!(
            "exec 3>&1; {{ sleep 0.3; \"{}\" {args} 1>&3; echo $? >status; }} 2>&1 | true",
            bin.display()
        );
        let status = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let code = fs::read_to_string(dir.path().join("status")).unwrap();
        assert_eq!(code.trim(), expected.to_string(), "{program} {args}");
    }
}

/// Under address-space limits from below what the program needs to
/// start up to the first that lets it run, threads cannot always be had:
/// the work they would do is done on the main thread, with no panic and
/// no run lost.
#[test]
fn too_few_threads_is_no_panic_and_loses_no_run() {
    let bin = assert_cmd::cargo::cargo_bin("bestguess");
    // The limits start below what any build needs and rise until the
    // program runs: where that happens moves with the binary's size and
    // its dependencies, so the scan finds it rather than assuming it.
    let mut ran = 0;
    for limit in (11_000..=256_000).step_by(1_000) {
        if ran > 0 {
            break;
        }
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("/bin/sh")
            .arg("-c")
            // Each run appends a line to runs.log: the runs completed,
            // counted apart from the program.
            .arg(format!(
                "ulimit -v {limit}; exec \"$0\" -w 0 -r 3 -o raw.csv --export-json e.json \
                 \"sh -c 'echo a >> runs.log'\" \"sh -c 'echo b >> runs.log'\""
            ))
            .arg(&bin)
            .current_dir(dir.path())
            .env_remove("RUST_BACKTRACE")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The one panic Rust's standard library itself raises: a thread
        // started without room for its signal stack (then the program
        // runs out of memory, below).
        let ours = stderr.lines().filter(|l| l.contains("panicked")).count()
            > stderr
                .matches("failed to allocate an alternative stack")
                .count();
        assert!(!ours, "ulimit -v {limit}: {stderr}");
        match out.status.code() {
            Some(0) => {
                ran += 1;
                assert_eq!(check_raw(&dir.path().join("raw.csv")), Ok(6), "{limit}");
                let json = fs::read_to_string(dir.path().join("e.json")).unwrap();
                assert!(json.ends_with("}\n"), "{limit}: a whole document");
            }
            // Too little to go on: said in one line, the runs made kept
            // (no raw file only where no run was made: the limit was met
            // before the first, which moves with the binary's size).
            Some(2) => {
                // Ours, or the kernel's refusal to start the launcher
                // (which limit meets which moves with the binary's size).
                assert!(
                    stderr.contains("out of memory") || stderr.contains("Cannot allocate memory"),
                    "{limit}: {stderr}"
                );
                // Not counted: the seed note, and the standard library's
                // own message of a thread without room for its signal
                // stack (its panic line, its cause, the backtrace hint).
                let std_message = |l: &str| {
                    l.is_empty()
                        || l.starts_with("thread '<unnamed>'")
                        || l.starts_with("failed to allocate an alternative stack")
                        || l.starts_with("note: run with `RUST_BACKTRACE")
                };
                let errors = stderr
                    .lines()
                    .filter(|l| !l.starts_with("Random order, seed") && !std_message(l));
                assert_eq!(errors.count(), 1, "{limit}: {stderr}");
                let completed = fs::read_to_string(dir.path().join("runs.log"))
                    .map_or(0, |log| log.lines().count());
                let raw = dir.path().join("raw.csv");
                if completed > 0 || raw.exists() {
                    let rows = check_raw(&raw);
                    assert!(
                        rows.as_ref().is_ok_and(|&n| n <= 6 && n >= completed),
                        "{limit}: {rows:?}, {completed} runs completed"
                    );
                }
            }
            // Too little for the dynamic loader: not this program's to say.
            Some(127) => assert!(stderr.contains("shared librar"), "{limit}: {stderr}"),
            // Too little to map the program at all (the limit that meets
            // it moves with the binary's size): the loader dies before
            // main, silently, and nothing was made.
            None if out.status.signal() == Some(libc::SIGSEGV)
                && stderr.is_empty()
                && !dir.path().join("raw.csv").exists() => {}
            // Too little for the standard library to set up the main
            // thread (its signal stack), before main: it aborts saying so,
            // and nothing ran. Which limit meets it moves with the binary's
            // size.
            None if out.status.signal() == Some(libc::SIGABRT)
                && stderr.contains("fatal runtime error")
                && !dir.path().join("raw.csv").exists() => {}
            // Too little for glibc's own bookkeeping of a new thread: it
            // aborts, saying so ("Fatal glibc error: failed to register TLS
            // destructor: out of memory", seen once on CI). Not this
            // program's either; what it wrote is still whole rows.
            None if out.status.signal() == Some(libc::SIGABRT)
                && stderr.contains("Fatal glibc error") =>
            {
                let rows = check_raw(&dir.path().join("raw.csv"));
                assert!(rows.as_ref().is_ok_and(|&n| n <= 6), "{limit}: {rows:?}");
            }
            other => panic!("ulimit -v {limit}: status {other:?}: {stderr}"),
        }
    }
    assert!(ran > 0, "no limit let the program run");
}

/// Two processes writing one file: while one `bestguess -o same.csv`
/// runs, a second writer of that file (`-o`, or an export that would
/// replace it, or an export that the first one will replace) refuses
/// before running anything, naming the file; the first completes a
/// well-formed file. Two writers unlocked would interleave about 100 of
/// 200 rows, some cut.
#[test]
fn a_second_writer_of_a_file_refuses_and_the_first_completes() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("same.json"), OLD).unwrap();
    let start = |args: &[&str]| {
        Command::cargo_bin("bestguess")
            .unwrap()
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = start(&[
        "-Q",
        "-r",
        "300",
        "-o",
        "same.csv",
        "--export-json",
        "same.json",
        "sleep 0.01",
    ]);
    // Until the first has written a run's row.
    let raw = dir.path().join("same.csv");
    let waited = std::time::Instant::now();
    while fs::read_to_string(&raw).map_or(0, |t| t.lines().count()) < 2 {
        assert!(waited.elapsed() < Duration::from_secs(30), "no row written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut first = first;
    for (args, file) in [
        (
            vec!["-r", "300", "-o", "same.csv", "sleep 0.01"],
            "-o same.csv",
        ),
        (
            vec!["-r", "3", "--export-csv", "same.csv", "true"],
            "--export-csv same.csv",
        ),
        (
            vec!["-r", "3", "--export-json", "same.json", "true"],
            "--export-json same.json",
        ),
    ] {
        let second = wait_with_timeout(start(&args), Duration::from_secs(60)).unwrap();
        let stderr = String::from_utf8_lossy(&second.stderr);
        assert_eq!(second.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "error: {file}: another process is writing this file"
            )),
            "{args:?}: {stderr}"
        );
        assert!(
            first.try_wait().unwrap().is_none(),
            "the first writer ended before the second was tried: lengthen it"
        );
    }
    let out = wait_with_timeout(first, Duration::from_secs(120)).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(check_raw(&raw), Ok(300));
    let json = fs::read_to_string(dir.path().join("same.json")).unwrap();
    assert!(json.contains("\"results\""), "{json}");
    // The lock went with the process: the file can be written again.
    let again = wait_with_timeout(
        start(&["-r", "3", "-o", "same.csv", "true"]),
        Duration::from_secs(60),
    )
    .unwrap();
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(check_raw(&raw), Ok(3));
}

/// Runs `bestguess ARGS` in `dir` with `TMPDIR` set to `tmp`: status,
/// standard error, and the raw file `raw.csv` (header and rows, split at
/// commas: the commands here have none).
fn in_dir_with_tmp(dir: &Path, tmp: &Path, args: &[&str]) -> (i32, String, Vec<Vec<String>>) {
    let out = Command::cargo_bin("bestguess")
        .unwrap()
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let raw = fs::read_to_string(dir.join("raw.csv")).unwrap_or_default();
    let rows = raw
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        rows,
    )
}

/// A run that removes the directory of its metrics file (`rm -rf
/// "$(dirname "$BESTGUESS_METRICS")"`) loses what it wrote there, with a
/// warning naming it; every later run gets a fresh file in a directory
/// made again, and its values are recorded. When the directory cannot be
/// made again (the command removed its parent too), the experiment stops
/// before the next run, saying why, with the runs before kept.
#[test]
fn a_run_that_removes_the_metrics_directory_loses_no_later_value() {
    // Four runs of a script whose first run removes `target` (a shell
    // expression of $BESTGUESS_METRICS) and whose later runs write x 1.
    let removing = |target: &str| {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir(&tmp).unwrap();
        let script = format!(
            "if [ -e gone ]; then echo 'x 1' > \"$BESTGUESS_METRICS\"; \
             else touch gone; rm -rf \"{target}\"; fi"
        );
        let args = [
            "-w",
            "0",
            "-r",
            "4",
            "--custom-metrics",
            "x",
            "-o",
            "raw.csv",
            "-s",
            "/bin/sh -c",
            &script,
        ];
        let (status, stderr, rows) = in_dir_with_tmp(dir.path(), &tmp, &args);
        (status, stderr, rows, dir, tmp)
    };
    let (status, stderr, rows, _dir, tmp) = removing("$(dirname \"$BESTGUESS_METRICS\")");
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.contains("run 1")
            && stderr.contains("the command removed the file or its directory"),
        "{stderr}"
    );
    let x = rows[0].iter().position(|h| h == "x (number)").unwrap();
    let values: Vec<&str> = rows[1..].iter().map(|r| r[x].as_str()).collect();
    assert_eq!(values, ["", "1", "1", "1"], "{rows:?}");
    // The private directory is gone with the experiment.
    assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0, "left in TMPDIR");

    // Its parent removed too: nothing can be made again there.
    let (status, stderr, rows, _dir, _tmp) =
        removing("$(dirname \"$(dirname \"$BESTGUESS_METRICS\")\")");
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("cannot make a fresh $BESTGUESS_METRICS file for the next run of")
            && stderr.contains("a command removed or replaced the directory it is in"),
        "{stderr}"
    );
    assert_eq!(rows.len(), 2, "the run before is kept: {rows:?}");
}

/// Under a file-size limit of 512 KiB the launcher (about 700 KiB, written
/// to a memory file before it runs) starts when the hard limit leaves room,
/// and the commands still run under the limit given; when the hard limit
/// is as low, the one error names the limit, its value and what to do.
#[test]
fn a_file_size_limit_of_512_kib_starts_the_launcher_or_names_the_limit() {
    let cases = [
        case(
            "a soft file-size limit of 512 KiB",
            "bestguess",
            &[
                "-r",
                "2",
                "-o",
                "raw.csv",
                "-s",
                "/bin/sh -c",
                "grep 'Max file size' /proc/self/limits > limit.txt",
            ],
        )
        // /bin/sh (dash) counts 512-byte blocks: 1024 is 512 KiB.
        .under("ulimit -S -f 1024;")
        .ok()
        .then("raw.csv", After::Raw(Some(2)))
        // The command's own limit: 512 KiB, as given.
        .then("limit.txt", After::Contains("524288")),
        case(
            "a hard file-size limit of 512 KiB",
            "bestguess",
            &["-r", "2", "-o", "raw.csv", "true"],
        )
        .file("raw.csv", "kept\n")
        .under("ulimit -f 1024;")
        .fails(
            2,
            "the file-size limit (ulimit -f) is 512 KiB, its hard limit too, below the",
        )
        .then("raw.csv", After::Unchanged),
    ];
    let failures: Vec<String> = cases.iter().filter_map(|c| c.run().err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// Another tool's numbers and exit codes, runs without values, headers that
// cannot be read, --precision with several commands, and exports to a new
// file from two processes.

use serde_json::value::RawValue;
use std::collections::HashMap;

type Raw = HashMap<String, Box<RawValue>>;

/// `program ARGS` in `dir`: status, standard output, standard error.
fn run_in(dir: &Path, program: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin(program)
        .unwrap()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// `bestreport --export-json out.json FILE` in `dir`: the export's text
/// (and the standard error), after checking the status is 0.
fn re_exported(dir: &Path, file: &str) -> (String, String) {
    let out = dir.join("out.json");
    let (status, _, err) = run_in(
        dir,
        "bestreport",
        &["-Q", "--export-json", out.to_str().unwrap(), file],
    );
    assert_eq!(status, 0, "{file}: {err}");
    (fs::read_to_string(out).unwrap(), err)
}

/// The results of a JSON document, each a map of its keys' raw text.
fn raw_results(doc: &str) -> Vec<Raw> {
    let top: Raw = serde_json::from_str(doc).unwrap();
    serde_json::from_str(top["results"].get()).unwrap()
}

fn raw_list(raw: &RawValue) -> Vec<Box<RawValue>> {
    serde_json::from_str(raw.get()).unwrap()
}

/// A number's text as the double it spells (Rust's parser rounds
/// correctly), `None` for `null`.
fn number(raw: &RawValue) -> Option<u64> {
    let text = raw.get().trim();
    (text != "null").then(|| {
        text.parse::<f64>()
            .unwrap_or_else(|_| panic!("{text}"))
            .to_bits()
    })
}

/// Every per-run number of a Hyperfine layout of `doc`, per result, as
/// (where, the double, bit for bit): with `two`, 2.0's measurements'
/// values and exit codes, else 1.x's `times`, `memory_usage_byte` and
/// `exit_codes`.
fn hyperfine_numbers(doc: &str, two: bool) -> Vec<Vec<(String, Option<u64>)>> {
    let mut all = Vec::new();
    for result in raw_results(doc) {
        let mut numbers = Vec::new();
        if two {
            let ms = &result["measurements"];
            for (i, m) in raw_list(ms).iter().enumerate() {
                let m: Raw = serde_json::from_str(m.get()).unwrap();
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                for key in keys {
                    let v = &m[key];
                    let value = if key == "exit_code" {
                        number(v)
                    } else {
                        let entry: Raw = serde_json::from_str(v.get()).unwrap();
                        number(&entry["value"])
                    };
                    numbers.push((format!("measurements[{i}].{key}"), value));
                }
            }
        } else {
            for key in ["times", "memory_usage_byte", "exit_codes"] {
                for (i, v) in result
                    .get(key)
                    .map(|l| raw_list(l))
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    numbers.push((format!("{key}[{i}]"), number(v)));
                }
            }
        }
        all.push(numbers);
    }
    all
}

/// A Hyperfine 2.0 document of `n` runs of one command whose times are
/// drawn over ten decades with every bit of their mantissas, as
/// Hyperfine's own arithmetic leaves them (its shell correction subtracts
/// a mean; its CPU times are µs × 10⁻⁶), `time_cpu` their sum as
/// Hyperfine computes it; with how many of them a double of µs cannot
/// give back.
fn drawn_hyperfine_times(n: usize) -> (String, usize) {
    let mut rng = bestguess::stats::SplitMix64::new(46);
    let mut draw = || {
        let mantissa = 1.0 + (rng.next_u64() >> 12) as f64 / (1u64 << 52) as f64;
        let decade = (rng.next_u64() % 10) as i32 - 7;
        mantissa * 10f64.powi(decade)
    };
    let mut lost_in_us = 0;
    let mut runs = Vec::new();
    for _ in 0..n {
        let (wall, user, system) = (draw(), draw(), draw());
        for s in [wall, user, system] {
            lost_in_us += usize::from(s * 1e6 / 1e6 != s);
        }
        runs.push(format!(
            r#"{{"time_wall_clock": {{"value": {wall:?}, "unit": "second"}}, "time_cpu": {{"value": {:?}, "unit": "second"}}, "time_user": {{"value": {user:?}, "unit": "second"}}, "time_system": {{"value": {system:?}, "unit": "second"}}, "memory_peak_resident": {{"value": 3067904.0, "unit": "byte"}}, "exit_code": 0}}"#,
            user + system
        ));
    }
    let doc = format!(
        r#"{{"schema_version": 2, "results": [{{"command": "drawn", "measurements": [{}]}}]}}"#,
        runs.join(", ")
    );
    (doc, lost_in_us)
}

/// Hyperfine's per-run numbers come back exactly as read, from every real
/// export in tests/data/formats and from 3,000 drawn times: each value the
/// same double, bit for bit: no time rounded to whole µs (0.0140510003 →
/// 0.014051) and none a unit in the last place off, as a JSON float
/// parser that is not exact, times near whole µs made integers, or
/// doubles of µs (which cannot hold every double of seconds) would make
/// them. The real files: Hyperfine 2.0.0 and 1.20.0 built
/// with `cargo install`, `-N --runs 20 ls "ls -l /usr/bin"` (no-shell),
/// `--runs 15 "sleep 0.003" "echo hi"` (shell, with its correction),
/// `-N -i --runs 8 "sh -c 'kill -9 $$'" "sh -c 'exit 3'"` (killed), and
/// 1.20's `--runs 8 "sleep 0.002" "echo hi"` and `-N -i --runs 6` (killed).
#[test]
fn hyperfine_numbers_come_back_exactly_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let (drawn, lost_in_us) = drawn_hyperfine_times(1000);
    assert!(
        lost_in_us > 50,
        "the draw has times µs cannot hold: {lost_in_us}"
    );
    fs::write(dir.path().join("drawn.json"), &drawn).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats");
    let mut files: Vec<String> = fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.contains("hyperfine") && p.ends_with(".json"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files.push(dir.path().join("drawn.json").to_string_lossy().into_owned());
    for file in &files {
        let (out, _) = re_exported(dir.path(), file);
        let text = fs::read_to_string(file).unwrap();
        let two = text.contains("\"measurements\"");
        let (read, written) = (hyperfine_numbers(&text, two), hyperfine_numbers(&out, two));
        assert_eq!(read.len(), written.len(), "{file}");
        for (k, (a, b)) in read.iter().zip(&written).enumerate() {
            assert_eq!(a.len(), b.len(), "{file}: results[{k}] has other numbers");
            for ((at, x), (_, y)) in a.iter().zip(b) {
                assert!(
                    x == y,
                    "{file}: results[{k}].{at}: {x:?} came back as {y:?}"
                );
            }
        }
    }
}

/// A Hyperfine `null` exit code (a run a signal ended: Hyperfine before it
/// wrote 128 + the signal, and on Windows) stays `null` in every layout of
/// a re-export and of the re-export's re-export, counts as a failed run,
/// and the gate names it as a signal not recorded: no exit code (−1, 0)
/// is made up for it.
#[test]
fn a_null_exit_code_stays_null_and_counts_as_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats");
    // Hyperfine 1.20's killed runs (137) as older versions wrote them.
    let mut one: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(data.join("hyperfine-1.20-killed.json")).unwrap())
            .unwrap();
    for code in one["results"][0]["exit_codes"].as_array_mut().unwrap() {
        assert_eq!(*code, 137);
        *code = serde_json::Value::Null;
    }
    fs::write(dir.path().join("one.json"), one.to_string()).unwrap();
    // Hyperfine 2.0's, two runs of the first command.
    let mut two: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(data.join("hyperfine-2.0-export.json")).unwrap())
            .unwrap();
    for i in [1, 4] {
        two["results"][0]["measurements"][i]["exit_code"] = serde_json::Value::Null;
    }
    fs::write(dir.path().join("two.json"), two.to_string()).unwrap();
    for (file, killed) in [
        ("one.json", vec![0, 1, 2, 3, 4, 5]),
        ("two.json", vec![1, 4]),
    ] {
        let (first, _) = re_exported(dir.path(), file);
        fs::write(dir.path().join("again.json"), &first).unwrap();
        let (second, _) = re_exported(dir.path(), "again.json");
        for doc in [&first, &second] {
            let v: serde_json::Value = serde_json::from_str(doc).unwrap();
            let r = &v["results"][0];
            let codes = r["exit_codes"].as_array().unwrap();
            let measured = r["measurements"].as_array().unwrap();
            let per_run = &r["bestguess"]["per_run"];
            for i in 0..codes.len() {
                let signalled = killed.contains(&i);
                assert_eq!(
                    codes[i].is_null(),
                    signalled,
                    "{file}: exit_codes[{i}] {}",
                    codes[i]
                );
                assert_eq!(
                    measured[i]["exit_code"].is_null(),
                    signalled,
                    "{file}: measurements[{i}]"
                );
                assert_eq!(
                    per_run["exit_code"][i].is_null(),
                    signalled,
                    "{file}: per_run[{i}]"
                );
                assert!(per_run["signal"][i].is_null());
                assert_eq!(
                    per_run["signal_unknown"][i], signalled,
                    "{file}: signal_unknown[{i}]"
                );
            }
            assert_eq!(r["bestguess"]["failed"], killed.len(), "{file}");
        }
    }
    // The gate says how they ended, and makes up no exit code.
    let (status, out, err) = run_in(
        dir.path(),
        "bestreport",
        &[
            "-Q",
            "--baseline",
            "two.json",
            "--fail-if-slower",
            "5",
            "two.json",
        ],
    );
    assert_eq!(status, 3, "{err}");
    let said = out + &err;
    assert!(
        said.contains("(2 of 10 runs failed: a signal not recorded ×2)"),
        "{said}"
    );
    assert!(
        !said.contains("exit -1") && !said.contains("exit 0"),
        "{said}"
    );
}

/// A run without values (a Hyperfine 2.0 measurement without wall time; a
/// row of the C tool's with empty cells) is said in one line, kept (its
/// exit code counts, `bestguess.per_run` holds it with `null`s), and left
/// out of what needs the values: Hyperfine's layouts, whose `times` and
/// `memory_usage_byte` are numbers, never `null`.
#[test]
fn runs_without_values_are_said_and_never_null_where_a_number_is_promised() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats");
    let mut two: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(data.join("hyperfine-2.0-export.json")).unwrap())
            .unwrap();
    let ms = &mut two["results"][0]["measurements"];
    ms[2] = serde_json::json!({"exit_code": 0});
    ms[5].as_object_mut().unwrap().remove("time_wall_clock");
    fs::write(dir.path().join("two.json"), two.to_string()).unwrap();
    // The C tool's named columns, its second row's cells empty.
    fs::write(
        dir.path().join("c.csv"),
        "Command,Exit code,User time (us),Max RSS (Bytes),Wall clock (us)\n\
         ls,0,10,2000000,20\nls,,,,\nls,0,12,2000000,22\nls,0,11,2000000,21\n",
    )
    .unwrap();
    for (file, said, without) in [
        (
            "two.json",
            "Note: 2 runs lack values the other runs of their command have (ls: runs 3, 6)",
            vec![2, 5],
        ),
        (
            "c.csv",
            "Note: 1 run lacks values its command's other runs have (ls: run 2)",
            vec![1],
        ),
    ] {
        let (doc, err) = {
            let out = dir.path().join("out.json");
            let (status, _, err) = run_in(
                dir.path(),
                "bestreport",
                &["--export-json", out.to_str().unwrap(), file],
            );
            assert_eq!(status, 0, "{file}: {err}");
            (fs::read_to_string(out).unwrap(), err)
        };
        assert!(err.contains(said), "{file}: {err}");
        assert_eq!(
            err.matches("runs lack").count() + err.matches("run lacks").count(),
            1,
            "one line: {err}"
        );
        let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
        let r = &v["results"][0];
        let runs = r["bestguess"]["runs"].as_u64().unwrap() as usize;
        let kept = runs - without.len();
        for key in ["times", "memory_usage_byte", "exit_codes"] {
            let list = r[key]
                .as_array()
                .unwrap_or_else(|| panic!("{file}: no {key}"));
            assert_eq!(list.len(), kept, "{file}: {key}");
            assert!(list.iter().all(|x| x.is_number()), "{file}: {key} {list:?}");
        }
        let measured = r["measurements"].as_array().unwrap();
        assert_eq!(measured.len(), kept, "{file}");
        assert!(
            measured
                .iter()
                .all(|m| m["time_wall_clock"]["value"].is_number()),
            "{file}"
        );
        // BestGuess's own layout keeps every run, absent values null.
        let wall = r["bestguess"]["per_run"]["wall_us"].as_array().unwrap();
        assert_eq!(wall.len(), runs, "{file}");
        for (i, w) in wall.iter().enumerate() {
            assert_eq!(w.is_null(), without.contains(&i), "{file}: wall_us[{i}]");
        }
    }
    // The empty exit code cell is none, not 0.
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("out.json")).unwrap()).unwrap();
    assert!(v["results"][0]["bestguess"]["per_run"]["exit_code"][1].is_null());
}

const TWO_RUNS_LS: &str = "ls,0,1,2\nls,0,1,2\n";

fn headers_and_precision() -> Vec<Case> {
    let fixture = |name: &str| {
        fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/c_tool")
                .join(name),
        )
        .unwrap()
    };
    vec![
        case("a C-tool header naming a column twice", "bestreport", &["h.csv"])
            .file("h.csv", format!("Command,Exit code,User time (us),user time (us)\n{TWO_RUNS_LS}"))
            .fails(2, "h.csv: line 1, column 4 (User time (us)): column 3 has this name too, so which one the data mean cannot be told; a header names each column once: rename the one that is wrong, or remove it from the header and from every row"),
        case("a C-tool header without a command column", "bestreport", &["h.csv"])
            .file("h.csv", "Shell,Exit code,User time (us),Wall clock (us)\n,0,1,2\n")
            .fails(2, "h.csv: line 1 names no Command column (it names Shell, Exit code, User time (us), Wall clock (us)), and each run's command is needed: name the column that holds the commands Command, or add a Command column to the header and to every row"),
        case("a C-tool header that lost its first name", "bestreport", &["h.csv"])
            .file("h.csv", "Exit code,User time (us),Wall clock (us)\nls,0,1,2\n")
            .fails(2, "the rows have 4 fields to its 3 names: the header lost its first name; add Command, at the start of line 1"),
        case("a header of a command column only", "bestreport", &["h.csv"])
            .file("h.csv", "Command\nls\nls\n")
            .fails(2, "h.csv: line 1 names no measurement (only Command), so there is nothing to analyse"),
        case("a header of text columns only", "bestreport", &["h.csv"])
            .file("h.csv", "Command,Shell,Exit code\nls,,0\n")
            .fails(2, "line 1 names no measurement (only Command, Shell, Exit code)"),
        case("a C-tool header with a name of another tool", "bestreport", &["h.csv"])
            .file("h.csv", format!("Command,Exit code,wall_time,User time (us)\n{TWO_RUNS_LS}"))
            .fails(2, "line 1, column 3 (\"wall_time\") is not one of the raw data columns"),
        case("a raw header with a name out of its place", "bestreport", &["h.csv"])
            .file("h.csv", RAW.replacen("Batch", "Batches", 1))
            .fails(2, "line 1 is not a raw data header (column 4 is \"Batches\" where \"Batch\" belongs); correct that line"),
        case("a data row where the header belongs", "bestreport", &["h.csv"])
            .file("h.csv", RAW.split_once('\n').unwrap().1)
            .fails(2, "(add that line if the file lost it)"),
        case("a statistics test file whose header is a web address", "bestreport", &["s.csv"])
            .file("s.csv", "https://statisticsbyjim.com/hypothesis-testing/mann-whitney-u-test/,Shell,name,batch,Exit code,User time (us)\ncmd1,,,12,0,35600\ncmd2,,,34,0,36400\n")
            .fails(2, "s.csv: line 1 starts with a web address (https://statisticsbyjim.com/hypothesis-t…): this is a statistics test file of the C BestGuess (the numbers of the textbook example at that address), not raw data of runs; to read its rows as runs anyway, replace the web address with Command"),
        case("a statistics test file of two samples", "bestreport", &["s.csv"])
            .file("s.csv", "https://www.statsdirect.co.uk/help/nonparametric_methods/mann_whitney.htm,farm,town\n1,14800,7300\n")
            .fails(2, "not raw data of runs; bestreport reads raw data, as bestguess -o writes it"),
        case("the C tool's textbook files read as raw data", "bestreport", &["-Q", "a.csv", "b.csv", "c.csv"])
            .file("a.csv", fixture("brandAB.csv"))
            .file("b.csv", fixture("farmboys.csv"))
            .file("c.csv", fixture("minitab.csv"))
            .ok(),
        case("--precision with two commands", "bestguess", &["--precision", "5%", "true", "false"])
            .fails(1, "--precision applies to one command (its median known within ±PCT), and there are 2: with several, --runs auto runs until every comparison is decided; leave --precision out"),
        case("--precision with a list of two values", "bestguess", &["--precision", "5%", "-L", "n", "1,2", "echo {n}"])
            .fails(1, "--precision applies to one command (its median known within ±PCT), and there are 2"),
        case("--precision on a file of two commands", "bestreport", &["--runs", "auto", "--precision", "5%", "--export-json", "new.json", "raw.csv"])
            .file("raw.csv", RAW)
            .fails(1, "--precision applies to one command (its median known within ±PCT), and there are 2")
            .then("new.json", After::Absent),
        case("--precision with -r", "bestguess", &["-r", "5", "--precision", "5%", "true"])
            .fails(1, "--precision applies to --runs auto, and -r gives a fixed count"),
        case("a report that fails leaves no file at a new export's path", "bestreport", &["--export-json", "new.json", "--export-markdown", "new.md", "missing.csv"])
            .fails(2, "missing.csv: cannot open")
            .then("new.json", After::Absent)
            .then("new.md", After::Absent),
        case("an experiment that cannot start leaves no file at a new export's path", "bestguess", &["-r", "2", "--export-json", "new.json", "./no-such-program"])
            .fails(2, "no-such-program")
            .then("new.json", After::Absent),
    ]
}

#[test]
fn headers_precision_and_new_exports_are_handled_clearly() {
    let cases = headers_and_precision();
    let failures: Vec<String> = cases.iter().filter_map(|c| c.run().err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Two processes exporting one new file: while the first runs, a second
/// export to that path (the same format or another) refuses before
/// running anything, naming the file, and the first's export is the one
/// in place (never both going on, the later one's file silently
/// replacing the other's). Once the first ends, the path can be written.
#[test]
fn a_second_exporter_of_a_new_file_refuses_and_the_first_one_wins() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("raw.csv"), RAW).unwrap();
    let first = Command::cargo_bin("bestguess")
        .unwrap()
        .args([
            "-Q",
            "-r",
            "300",
            "-o",
            "first.csv",
            "--export-json",
            "new.json",
            "sleep 0.01",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let raw = dir.path().join("first.csv");
    let waited = std::time::Instant::now();
    while fs::read_to_string(&raw).map_or(0, |t| t.lines().count()) < 2 {
        assert!(waited.elapsed() < Duration::from_secs(30), "no row written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut first = first;
    for (program, args) in [
        (
            "bestguess",
            vec!["-r", "3", "--export-json", "new.json", "true"],
        ),
        (
            "bestreport",
            vec!["--export-markdown", "new.json", "raw.csv"],
        ),
    ] {
        let (status, _, err) = run_in(dir.path(), program, &args);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert!(
            err.contains("error: --export-") && err.contains("new.json: another process is writing this file; wait until it ends, or give another path"),
            "{args:?}: {err}"
        );
        assert!(
            first.try_wait().unwrap().is_none(),
            "the first ended too soon: lengthen it"
        );
    }
    let out = wait_with_timeout(first, Duration::from_secs(120)).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = fs::read_to_string(dir.path().join("new.json")).unwrap();
    assert!(
        json.contains("\"command\": \"sleep 0.01\""),
        "the first one's export"
    );
    assert!(!json.contains("\"command\": \"true\""));
    let (status, _, err) = run_in(
        dir.path(),
        "bestreport",
        &["--export-json", "new.json", "raw.csv"],
    );
    assert_eq!(status, 0, "{err}");
}

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
        for (file, after) in &self.after {
            let path = dir.path().join(file);
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
        // No temporary export file is ever left behind.
        for entry in fs::read_dir(dir.path()).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.contains(".bestguess-") && name.ends_with(".tmp") {
                problems.push(format!("temporary file {name} left"));
            }
        }
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
/// name beside it had been too long.
const LONG_NAME: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json";

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
        // Without -i a failed run had stopped the experiment.
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
        // the pipe is full. The signal had been swallowed until the
        // reader left, then the write failed.
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
    // written end the same way (they had said "Broken pipe", status 2).
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
/// /dev/null, so the rows went nowhere with status 0 and no word. The
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
/// lost, not a panic (`eprintln!` had made a usage error exit 101).
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

/// Under address-space limits just above what the program needs to
/// start, threads cannot always be had: the work they would do is done
/// on the main thread. `scope.spawn` had panicked (status 101) after the
/// runs, and the runs were lost with the process.
#[test]
fn too_few_threads_is_no_panic_and_loses_no_run() {
    let bin = assert_cmd::cargo::cargo_bin("bestguess");
    let mut ran = 0;
    for limit in (11_000..=16_000).step_by(1_000) {
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
/// well-formed file. Two writers had interleaved about 100 of 200 rows,
/// some cut.
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
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let script = "if [ -e gone ]; then echo 'x 1' > \"$BESTGUESS_METRICS\"; \
                  else touch gone; rm -rf \"$(dirname \"$BESTGUESS_METRICS\")\"; fi";
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
        script,
    ];
    let (status, stderr, rows) = in_dir_with_tmp(dir.path(), &tmp, &args);
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
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let script = "if [ -e gone ]; then echo 'x 1' > \"$BESTGUESS_METRICS\"; \
                  else touch gone; rm -rf \"$(dirname \"$(dirname \"$BESTGUESS_METRICS\")\")\"; fi";
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
        script,
    ];
    let (status, stderr, rows) = in_dir_with_tmp(dir.path(), &tmp, &args);
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

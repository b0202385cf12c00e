//! Both spawn paths of the launcher behave alike: clone3 (the default where
//! the kernel takes it) and posix_spawn (the fallback, forced here with
//! `BESTGUESS_SPAWN=posix_spawn`). Every case runs on both, and where a
//! command cannot be started the exit status and the whole error output
//! must be the same on both.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use predicates::prelude::*;

/// The two paths: the value of BESTGUESS_SPAWN for each.
const PATHS: [&str; 2] = ["", "posix_spawn"];

mod support;

use support::tmp;

/// `bestguess` on spawn path `path`.
fn spawning(path: &str) -> assert_cmd::Command {
    let mut cmd = support::bestguess();
    cmd.env("BESTGUESS_SPAWN", path);
    cmd
}

/// `bestguess` under `sh -c "PREFIX exec bestguess ARGS"` in `dir`, on
/// spawn path `path`: (status, stderr).
fn run_in(dir: &Path, path: &str, prefix: &str, args: &[&str]) -> (Option<i32>, String) {
    let bin = support::program_path("bestguess");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("{prefix} exec \"$0\" \"$@\""))
        .arg(&bin)
        .args(args)
        .current_dir(dir)
        .env("BESTGUESS_SPAWN", path)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run the same case on both paths: the same status and error output, and
/// the output contains `says`.
fn same_on_both(dir: &Path, prefix: &str, args: &[&str], status: i32, says: &str) {
    let [a, b] = PATHS.map(|p| run_in(dir, p, prefix, args));
    assert_eq!(a.0, Some(status), "clone3 path, {args:?}: {}", a.1);
    assert!(a.1.contains(says), "clone3 path, {args:?}: {}", a.1);
    // Byte counts that include the environment differ by the length of
    // BESTGUESS_SPAWN's own value.
    let counts = numbers_hidden;
    assert_eq!(
        (a.0, counts(&a.1)),
        (b.0, counts(&b.1)),
        "the two paths differ on {args:?}"
    );
}

/// `text` with every number replaced by `#`.
fn numbers_hidden(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// The portable build has one spawn path, and `--limits` says so.
#[cfg(not(bestguess_linux))]
#[test]
fn limits_say_the_portable_build_spawns_with_posix_spawn() {
    for path in PATHS {
        let out = spawning(path).arg("--limits").assert().success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("Spawn: posix_spawn, in the portable build"),
            "{text}"
        );
        assert_eq!(
            path.is_empty(),
            !flat.contains("BESTGUESS_SPAWN is ignored"),
            "{text}"
        );
    }
}

// Linux measurement path only: the clone3 path and its fallback.
#[cfg(bestguess_linux)]
#[test]
fn limits_say_which_path_spawns() {
    let default = spawning("").arg("--limits").assert().success();
    let text = String::from_utf8_lossy(&default.get_output().stdout).into_owned();
    // clone3 on this kernel, or the fallback with its reason.
    assert!(
        text.contains("Spawn: clone3 (CLONE_VM, CLONE_VFORK, CLONE_CLEAR_SIGHAND)")
            || text.contains("because the kernel refused clone3")
            || text.contains("built for x86-64 only"),
        "{text}"
    );
    spawning("posix_spawn")
        .arg("--limits")
        .assert()
        .success()
        .stdout(predicate::str::contains("Spawn: glibc's posix_spawn"))
        .stdout(predicate::str::contains(
            "BESTGUESS_SPAWN=posix_spawn is set",
        ));
    let other = spawning("vfork").arg("--limits").output().unwrap();
    let text = String::from_utf8_lossy(&other.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert!(
        words
            .join(" ")
            .contains("BESTGUESS_SPAWN=vfork is ignored: posix_spawn is its only value"),
        "{text}"
    );
}

/// What the checks before any timing refuse: the same on both paths.
#[test]
fn unstartable_commands_are_refused_alike_before_any_timing() {
    let dir = tmp();
    fs::write(dir.path().join("data.txt"), "not a program").unwrap();
    let long = format!("true {}\n", "x ".repeat(1_100_000));
    fs::write(dir.path().join("long.txt"), long).unwrap();
    fs::write(
        dir.path().join("big.txt"),
        format!("true {}\n", "y".repeat(200_000)),
    )
    .unwrap();
    for (args, says) in [
        (&["-r", "2", "no-such-program-xyz"][..], "command not found"),
        (&["-r", "2", "/tmp"], "is a directory"),
        (&["-r", "2", "./data.txt"], "not executable"),
        (&["-r", "1", "-f", "long.txt"], "the kernel takes (ARG_MAX)"),
        (&["-r", "1", "-f", "big.txt"], "more than the 131071"),
    ] {
        same_on_both(dir.path(), "", args, 2, says);
    }
    same_on_both(
        dir.path(),
        "ulimit -n 8;",
        &["-r", "2", "true"],
        2,
        "the open-file limit (ulimit -n) is too low",
    );
}

/// What only the kernel finds, at the spawn itself: the same errors, the
/// same messages, on both paths.
#[test]
fn spawn_errors_are_reported_alike() {
    let dir = tmp();
    let d = dir.path();
    fs::write(d.join("noshebang"), "echo hi\n").unwrap();
    fs::set_permissions(d.join("noshebang"), fs::Permissions::from_mode(0o755)).unwrap();
    same_on_both(d, "", &["-r", "2", "./noshebang"], 2, "add a #! line");
    // Removed, or made unexecutable, after the checks (by --prepare): the
    // first spawn fails. By path, and found on PATH.
    let prog = d.join("prog");
    let fresh = |mode| {
        fs::copy("/bin/true", &prog).unwrap();
        fs::set_permissions(&prog, fs::Permissions::from_mode(mode)).unwrap();
    };
    let prog_s = prog.to_str().unwrap();
    for (prepare, program, says) in [
        (
            format!("rm {prog_s}"),
            prog_s,
            "No such file or directory (os error 2)",
        ),
        (
            format!("chmod -x {prog_s}"),
            prog_s,
            "Permission denied (os error 13)",
        ),
        (
            format!("chmod -x {prog_s}"),
            "prog",
            "Permission denied (os error 13)",
        ),
    ] {
        let [a, b] = PATHS.map(|p| {
            fresh(0o755);
            run_in(
                d,
                p,
                &format!("PATH={}:$PATH;", d.display()),
                &["-r", "2", "-p", &prepare, program],
            )
        });
        assert_eq!(a.0, Some(2), "{prepare}: {}", a.1);
        assert!(a.1.contains(says), "{prepare}: {}", a.1);
        assert_eq!(a, b, "the two paths differ on {prepare}");
    }
}

/// At the limit on processes (ulimit -u), the command cannot be started
/// (EAGAIN), though the launcher could. Root is not held to the limit, so
/// the case runs as nobody there.
#[test]
fn the_process_limit_is_reported_alike() {
    let dir = tmp();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let as_nobody = "[ \"$(id -u)\" = 0 ] && exec setpriv --reuid=65534 --regid=65534 \
                     --clear-groups \"$0\" \"$@\";";
    let limit = format!("ulimit -u 2; {as_nobody}");
    same_on_both(
        dir.path(),
        &limit,
        &["-r", "2", "true"],
        2,
        "the limit on processes is reached (ulimit -u)",
    );
}

/// A program found on PATH after a same-named file that cannot be run
/// (skipped, as execvp skips it).
#[test]
fn path_search_skips_what_cannot_run() {
    let dir = tmp();
    let (first, second) = (dir.path().join("a"), dir.path().join("b"));
    fs::create_dir(&first).unwrap();
    fs::create_dir(&second).unwrap();
    fs::write(first.join("prog"), "not a program").unwrap();
    fs::copy("/bin/true", second.join("prog")).unwrap();
    for p in PATHS {
        spawning(p)
            .env(
                "PATH",
                format!("{}:{}:/usr/bin:/bin", first.display(), second.display()),
            )
            .args(["-r", "2", "-o", "-", "prog"])
            .assert()
            .success()
            .stdout(predicate::str::contains("\"prog\",\"\",\"\",1,0,"));
    }
}

/// What a command inherits: stdio on /dev/null (or the terminal's with
/// --show-output), a process group of its own, no signal ignored or
/// blocked, the environment with its padding, counters from its exec.
#[test]
fn commands_get_the_same_process_state_on_both_paths() {
    for p in PATHS {
        let dir = tmp();
        let d = dir.path();
        // No signal blocked, none of the standard ones (1-31) ignored,
        // whatever this process has, and the same dispositions on both
        // paths (glibc keeps its two internal signals, 32 and 33, ignored
        // in what it spawns, the launcher included).
        let signals = |p: &str| {
            let out = spawning(p)
                .args(["-r", "1", "-w", "0", "--show-output"])
                .args(["grep -E ^Sig(Blk|Ign) /proc/self/status"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{p:?}");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.lines().take(2).map(str::to_string).collect::<Vec<_>>()
        };
        let state = signals(p);
        assert_eq!(state, signals(PATHS[0]), "{p:?}");
        assert_eq!(state[0], "SigBlk:\t0000000000000000", "{p:?}");
        let ignored = u64::from_str_radix(state[1].trim_start_matches("SigIgn:\t"), 16).unwrap();
        assert_eq!(ignored & 0x7fff_ffff, 0, "{p:?}: {state:?}");
        // stdio: /dev/null, and a process group of its own (pgid = pid).
        let state = d.join("state");
        let probe = format!(
            "fds=$(readlink /proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2); echo \"$fds\" > {0}; \
             cut -d' ' -f1,5 /proc/$$/stat >> {0}; \
             echo ${{#BESTGUESS_ENV_PAD}} >> {0}",
            state.display()
        );
        spawning(p)
            .args(["-r", "1", "-w", "0", "--randomize-env", "-s", "/bin/sh -c"])
            .arg(&probe)
            .assert()
            .success();
        let text = fs::read_to_string(&state).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..3], ["/dev/null"; 3], "{p:?}: {text}");
        let ids: Vec<&str> = lines[3].split(' ').collect();
        assert_eq!(ids[0], ids[1], "{p:?}: own process group: {text}");
        let pad: usize = lines[4].parse().unwrap();
        assert!(pad <= 4096, "{p:?}: {text}");
        // The exit status, and a timeout that ends the command's group.
        spawning(p)
            .args(["-r", "2", "-i", "-o", "-", "-s", "/bin/sh -c", "exit 3"])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "\"exit 3\",\"/bin/sh -c\",\"\",1,3,",
            ));
        let started = std::time::Instant::now();
        spawning(p)
            .args([
                "-r",
                "1",
                "-i",
                "--timeout",
                "0.2",
                "-o",
                "-",
                "-s",
                "/bin/sh -c",
            ])
            .arg("sleep 20 & sleep 20")
            .assert()
            .success()
            // Signal 9, timed out, then the run-queue delay.
            .stdout(predicate::str::contains(",9,1,"));
        assert!(started.elapsed().as_secs() < 10, "{p:?}: timeout");
    }
}

/// task-clock counts from the command's exec on both paths (where the
/// counter can be opened at all).
#[test]
fn counters_count_the_command_on_both_paths() {
    let limits = spawning("").arg("--limits").output().unwrap();
    if !String::from_utf8_lossy(&limits.stdout).contains("work here: task-clock") {
        eprintln!("task-clock cannot be opened here: not checked");
        return;
    }
    for p in PATHS {
        let out = spawning(p)
            .args([
                "-r",
                "3",
                "--counters",
                "task-clock",
                "-o",
                "-",
                "/bin/true",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{p:?}");
        let csv = String::from_utf8_lossy(&out.stdout);
        for row in csv.lines().skip(1) {
            let ns: u64 = row.rsplit(',').next().unwrap().parse().unwrap();
            assert!(ns > 0, "{p:?}: task-clock 0 in {row}");
        }
    }
}

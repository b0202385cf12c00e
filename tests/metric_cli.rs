//! The metric of interest through the real `bestguess`: commands that sleep
//! use almost no CPU time, so ranking them by CPU time says little; the
//! note says so and points to `--metric wall`.

fn bestguess(args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("bestguess")
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

#[test]
fn sleeping_commands_ranked_by_cpu_time_get_one_note() {
    let (status, stdout, stderr) = bestguess(&["-Q", "-R", "-r", "5", "sleep 0.1", "sleep 0.2"]);
    assert_eq!(status, 0, "{stderr}");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Note:")).collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(notes[0].contains("command 1 (sleep 0.1) and command 2 (sleep 0.2)"));
    assert!(notes[0].contains("--metric wall"), "{}", notes[0]);
    assert!(!stdout.contains("Note:"), "notes go to stderr: {stdout}");
}

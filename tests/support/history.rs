//! The history's tests through the binaries, written once and run
//! against each kind of store: an SQLite file (`tests/history_cli.rs`)
//! and a PostgreSQL server (`tests/history_postgres.rs`).
//!
//! The measured command is `sh bench.sh` in a throwaway git repository:
//! it reports a custom metric `cost`, the number in the file `cost` of the
//! commit checked out plus a deterministic wobble of ±1.5 % that moves
//! from run to run, so every series is the same on every machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const SCRIPT: &str = "#!/bin/sh
n=$(cat \"$COUNTER\" 2>/dev/null || echo 0)
n=$((n + 1))
echo \"$n\" > \"$COUNTER\"
base=$(cat cost)
echo \"cost $((base + (n * 7919) % 31 - 15))\" > \"$BESTGUESS_METRICS\"
";

/// A throwaway git repository with the measured script.
pub struct Repo {
    pub dir: tempfile::TempDir,
    pub commits: Vec<String>,
}

pub fn bin(name: &str) -> PathBuf {
    assert_cmd::cargo::cargo_bin(name)
}

fn git(dir: &Path, args: &[&str], n: usize) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.org")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.org")
        // Commit times one minute apart: the series' order.
        .env(
            "GIT_COMMITTER_DATE",
            format!("{} +0000", 1_790_000_000 + 60 * n),
        )
        .env(
            "GIT_AUTHOR_DATE",
            format!("{} +0000", 1_790_000_000 + 60 * n),
        )
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Repo {
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "-b", "main"], 0);
        std::fs::write(dir.path().join("bench.sh"), SCRIPT).unwrap();
        Repo {
            dir,
            commits: Vec::new(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Commits `cost` as the next commit; returns its hash.
    pub fn commit(&mut self, cost: u32) -> String {
        let n = self.commits.len() + 1;
        std::fs::write(self.path().join("cost"), format!("{cost}\n")).unwrap();
        git(self.path(), &["add", "-A"], n);
        git(
            self.path(),
            &["commit", "-q", "-m", &format!("commit {n}")],
            n,
        );
        let out = Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(self.path())
            .output()
            .unwrap();
        let hash = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        self.commits.push(hash.clone());
        hash
    }

    /// `bestguess` in the repository, measuring `sh bench.sh` 9 times.
    pub fn bestguess(&self, store: &str, extra: &[&str]) -> Command {
        let mut c = Command::new(bin("bestguess"));
        c.current_dir(self.path())
            .env("COUNTER", self.path().join(".counter"))
            .env_remove("BESTGUESS_HISTORY")
            .args(["--history", store, "-r", "9", "-w", "0", "-Q"])
            .args(["--custom-metrics", "cost", "--metric", "cost"])
            .args(extra)
            .args(["sh bench.sh", "-n", "work"]);
        c
    }

    /// Commits each cost in turn and measures it once.
    pub fn series(&mut self, store: &str, costs: impl IntoIterator<Item = u32>) {
        for cost in costs {
            self.commit(cost);
            let out = self.bestguess(store, &[]).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

pub fn bestreport(store: &str, args: &[&str]) -> Output {
    Command::new(bin("bestreport"))
        .env_remove("BESTGUESS_HISTORY")
        .arg(format!("--history={store}"))
        .args(args)
        .output()
        .unwrap()
}

/// The JSON history of the `cost` metric.
pub fn history_json(store: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--metric", "cost", "--export-json", "-"];
    args.extend_from_slice(extra);
    let out = bestreport(store, &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["history"].clone()
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// 30 commits, the cost up 10 % from commit 20: one change point, between
/// commits 19 and 20, whose ratio interval holds 1.10.
pub fn step_is_found(store: &str) {
    let mut repo = Repo::new();
    repo.series(store, (1..=30).map(|i| if i < 20 { 1000 } else { 1100 }));
    let h = history_json(store, &[]);
    let series = h["series"].as_array().unwrap();
    assert_eq!(series.len(), 1, "{h}");
    let s = &series[0];
    assert_eq!(s["command"], "work");
    assert_eq!(s["metric"], "cost");
    assert_eq!(s["points"].as_array().unwrap().len(), 30);
    for p in s["points"].as_array().unwrap() {
        assert_eq!(p["runs"], 9);
        assert!(p["ci_low"].as_f64() <= p["median"].as_f64());
        assert!(p["median"].as_f64() <= p["ci_high"].as_f64());
    }
    let cps = s["change_points"].as_array().unwrap();
    assert_eq!(cps.len(), 1, "{s}");
    assert_eq!(cps[0]["commit_before"], repo.commits[18].as_str());
    assert_eq!(cps[0]["commit_after"], repo.commits[19].as_str());
    let (low, high) = (
        cps[0]["ratio_ci_low"].as_f64().unwrap(),
        cps[0]["ratio_ci_high"].as_f64().unwrap(),
    );
    assert!(low <= 1.10 && 1.10 <= high, "[{low}, {high}]");
    assert!(
        low > 1.0,
        "the interval excludes no change: [{low}, {high}]"
    );
    // The terminal report names the change by its commits.
    let out = bestreport(store, &["--metric", "cost"]);
    let t = text(&out);
    assert!(
        t.contains(&format!(
            "{} → {}",
            &repo.commits[18][..10],
            &repo.commits[19][..10]
        )),
        "{t}"
    );
    // Markdown and HTML name it too.
    let out = bestreport(store, &["--metric", "cost", "-Q", "--export-markdown", "-"]);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(&format!(
            "`{}` → `{}`",
            &repo.commits[18][..10],
            &repo.commits[19][..10]
        )),
        "{md}"
    );
    let out = bestreport(store, &["--metric", "cost", "-Q", "--export-html", "-"]);
    let html = String::from_utf8_lossy(&out.stdout);
    assert!(
        html.contains("<svg") && html.contains(&repo.commits[19][..10]),
        "{}",
        text(&out)
    );
    assert!(
        html.contains("stroke-dasharray"),
        "the change point is marked"
    );
}

/// 30 commits of the same cost: no change point.
pub fn no_step_no_change_point(store: &str) {
    let mut repo = Repo::new();
    repo.series(store, (1..=30).map(|_| 1000));
    let h = history_json(store, &[]);
    let s = &h["series"][0];
    assert_eq!(s["points"].as_array().unwrap().len(), 30);
    assert_eq!(s["change_points"].as_array().unwrap().len(), 0, "{s}");
}

/// The gate: 19 commits of history, then a 10 % slower commit fails
/// `--fail-if-slower 5` (status 3) and the same cost passes.
pub fn gate_fails_on_the_step_only(store_slow: &str, store_same: &str) {
    for (store, cost, status) in [(store_slow, 1100, 3), (store_same, 1000, 0)] {
        let mut repo = Repo::new();
        repo.series(store, (1..=19).map(|_| 1000));
        repo.commit(cost);
        let out = repo
            .bestguess(store, &["--fail-if-slower", "5"])
            .output()
            .unwrap();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(status), "{t}");
        assert!(t.contains("against 19 experiments"), "{t}");
        assert!(
            t.contains(if status == 3 { "slower" } else { "passed" }),
            "{t}"
        );
        // The experiment is recorded either way.
        assert_eq!(
            history_json(store, &[])["series"][0]["points"]
                .as_array()
                .unwrap()
                .len(),
            20
        );
    }
}

/// Too little history: the gate says so and compares with the runs.
pub fn gate_with_little_history(store: &str, empty_store: &str) {
    let mut repo = Repo::new();
    repo.series(store, [1000, 1000]);
    repo.commit(1300);
    let out = repo
        .bestguess(store, &["--fail-if-slower", "5"])
        .output()
        .unwrap();
    let t = text(&out);
    assert!(t.contains("too little history (2 experiments"), "{t}");
    assert_eq!(out.status.code(), Some(3), "{t}");
    let empty = Repo::new();
    let out = empty
        .bestguess(empty_store, &["--fail-if-slower", "5"])
        .output()
        .unwrap();
    let t = text(&out);
    assert!(
        t.contains("no history of this command on this machine: not gated"),
        "{t}"
    );
    assert_eq!(out.status.code(), Some(0), "{t}");
}

/// Raw files and a Hyperfine export loaded into the history.
pub fn import_raw_and_hyperfine(store: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let raw = root.join("fixtures/gate_baseline.csv");
    let hyperfine = root.join("formats/hyperfine-2.0-export.json");
    let out = Command::new(bin("bestreport"))
        .env_remove("BESTGUESS_HISTORY")
        .arg(format!("--history-import={store}"))
        .arg(&raw)
        .arg(&hyperfine)
        .args(["--commit", "abc123", "--branch", "imported"])
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("recorded as experiment"), "{t}");
    let out = bestreport(
        store,
        &[
            "--metric",
            "wall",
            "--branch",
            "imported",
            "--export-json",
            "-",
            "-Q",
        ],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let series = doc["history"]["series"].as_array().unwrap().clone();
    // Every command of both files, each with one point of commit abc123.
    let from = |path: &Path| {
        let out = Command::new(bin("bestreport"))
            .arg(path)
            .args(["--export-json", "-", "-Q", "--metric", "wall"])
            .output()
            .unwrap();
        let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        d["results"].as_array().map_or(0, |r| r.len())
    };
    let expected = from(&raw) + from(&hyperfine);
    assert!(expected >= 2);
    assert_eq!(series.len(), expected, "{doc}");
    for s in &series {
        assert_eq!(s["points"][0]["commit"], "abc123");
        assert!(s["points"][0]["runs"].as_u64().unwrap() >= 1);
    }
}

/// Two experiments appending at once both land whole: the first holds
/// its transaction open while the second starts.
pub fn concurrent_appends(store: &str) {
    let mut repo = Repo::new();
    repo.commit(1000);
    let marker = repo.path().join("marker");
    let mut first = repo
        .bestguess(store, &[])
        .env("BESTGUESS_TEST_PAUSE_IN_APPEND", &marker)
        .env("BESTGUESS_TEST_PAUSE_SECONDS", "3")
        .spawn()
        .unwrap();
    wait_for(&marker);
    let second = repo.bestguess(store, &[]).output().unwrap();
    let first = first.wait().unwrap();
    assert_eq!(first.code(), Some(0));
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));
    let h = history_json(store, &[]);
    let points = h["series"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{h}");
    assert!(points.iter().all(|p| p["runs"] == 9));
}

fn wait_for(path: &Path) {
    for _ in 0..600 {
        if path.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{} never appeared", path.display());
}

/// `kill -9` in the middle of an append: no half experiment in the store,
/// the raw file whole.
pub fn kill_during_append(store: &str) {
    let mut repo = Repo::new();
    repo.series(store, [1000]);
    let marker = repo.path().join("marker");
    let raw = repo.path().join("raw.csv");
    let mut child = repo
        .bestguess(store, &["-o", raw.to_str().unwrap()])
        .env("BESTGUESS_TEST_PAUSE_IN_APPEND", &marker)
        .spawn()
        .unwrap();
    wait_for(&marker);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let h = history_json(store, &[]);
    assert_eq!(h["series"][0]["points"].as_array().unwrap().len(), 1, "{h}");
    // The raw file holds all 9 runs.
    let out = Command::new(bin("bestreport"))
        .arg(&raw)
        .args(["--metric", "cost", "--export-json", "-", "-Q"])
        .output()
        .unwrap();
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["results"][0]["bestguess"]["runs"], 9, "{d}");
    // The store takes the next experiment.
    let out = repo.bestguess(store, &[]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        history_json(store, &[])["series"][0]["points"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// A store that cannot be used costs nothing: the raw file and the report
/// are written, one line says what was not recorded, status 4.
pub fn unusable_store(store: &str, why: &str) {
    let mut repo = Repo::new();
    repo.commit(1000);
    let raw = repo.path().join("raw.csv");
    let out = repo
        .bestguess(store, &["-o", raw.to_str().unwrap(), "--summary"])
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "{t}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("not recorded"))
        .collect();
    assert_eq!(lines.len(), 1, "{t}");
    assert!(lines[0].contains(why), "{t}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("work"),
        "the report: {t}"
    );
    let raw = std::fs::read_to_string(&raw).unwrap();
    assert_eq!(raw.lines().count(), 10, "header and 9 runs");
}

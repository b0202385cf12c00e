//! Where and from what an experiment came: the git commit, branch, whether
//! the work tree was dirty and the commit's time (from `git` run as a
//! subprocess: no git library), and a fingerprint of the machine (CPU
//! model, core count, kernel, memory, from `/proc` and `uname`).
//!
//! The fingerprint is what makes two experiments comparable: a benchmark
//! is a command × metric × machine, so a kernel upgrade or another runner
//! type starts a new series instead of appearing as a change point.

use std::process::Command;

/// The git state of the work tree an experiment measured, each part
/// absent where it is not known (outside a repository, `git` missing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GitState {
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub dirty: Option<bool>,
    /// The commit's committer time, µs since the Unix epoch.
    pub commit_time_us: Option<i64>,
}

/// `git ARGS` in the current directory: its standard output, trimmed, or
/// `None` when git is absent or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The top of the git work tree around the current directory, if any.
pub fn work_tree_top() -> Option<String> {
    git(&["rev-parse", "--show-toplevel"]).filter(|s| !s.is_empty())
}

/// The commit an experiment is recorded as of without `--commit`.
pub const DEFAULT_REV: &str = "HEAD";

impl GitState {
    /// The state of the work tree around the current directory, with
    /// `--commit REV` and `--branch NAME` taking the place of what git says
    /// (`REV` is resolved to a full hash where git knows it). Two `git`
    /// runs at most: `log` for the commit and its time, `status` for the
    /// branch and the dirty flag (not asked with `--commit`: the work
    /// tree says nothing about another commit).
    pub fn current(commit: Option<&str>, branch: Option<&str>) -> GitState {
        let rev = commit.unwrap_or(DEFAULT_REV);
        let logged = git(&["log", "-1", "--format=%H %ct", rev, "--"]);
        let (hash, time) = match logged.as_deref().and_then(|l| l.split_once(' ')) {
            Some((h, t)) => (Some(h.to_owned()), t.parse::<i64>().ok()),
            None => (None, None),
        };
        let mut state = GitState {
            commit: hash.or_else(|| commit.map(str::to_owned)),
            branch: branch.map(str::to_owned),
            dirty: None,
            commit_time_us: time.map(|s| s.saturating_mul(1_000_000)),
        };
        if commit.is_none() {
            if let Some(status) = git(&[
                "status",
                "--porcelain=v2",
                "--branch",
                "--untracked-files=no",
            ]) {
                let mut dirty = false;
                for line in status.lines() {
                    match line.strip_prefix("# branch.head ") {
                        Some(head) if state.branch.is_none() && head != "(detached)" => {
                            state.branch = Some(head.to_owned());
                        }
                        Some(_) => {}
                        None => dirty |= !line.starts_with('#'),
                    }
                }
                state.dirty = Some(dirty);
            }
        }
        state
    }
}

/// The machine an experiment ran on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Machine {
    pub cpu_model: String,
    pub cores: u32,
    pub kernel: String,
    pub architecture: String,
    /// Total memory in bytes (`MemTotal` of `/proc/meminfo`), 0 unknown.
    pub memory_bytes: u64,
}

impl Machine {
    /// This machine, read from `/proc/cpuinfo`, `/proc/meminfo` and
    /// `uname -r`; what cannot be read stays empty (or 0).
    pub fn current() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find(|l| {
                l.starts_with("model name") || l.starts_with("Model") || l.starts_with("cpu model")
            })
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default();
        let processors = cpuinfo
            .lines()
            .filter(|l| l.starts_with("processor"))
            .count();
        let cores = match processors {
            0 => std::thread::available_parallelism().map_or(0, |n| n.get()),
            n => n,
        };
        let memory_bytes = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
                let kb = line.split_whitespace().nth(1)?.parse::<u64>().ok()?;
                Some(kb * 1024)
            })
            .unwrap_or(0);
        // What `uname -r` prints, without starting it.
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|k| k.trim().to_owned())
            .ok()
            .filter(|k| !k.is_empty())
            .or_else(|| {
                Command::new("uname")
                    .arg("-r")
                    .output()
                    .ok()
                    .filter(|o| o.status.success())
                    .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            })
            .unwrap_or_default();
        Machine {
            cpu_model,
            cores: u32::try_from(cores).unwrap_or(u32::MAX),
            kernel,
            architecture: std::env::consts::ARCH.to_owned(),
            memory_bytes,
        }
    }

    /// A short, stable name for the machine: 12 hex digits of the 64-bit
    /// FNV-1a hash of its description (FNV is fixed by its definition, so
    /// the same machine gets the same name from every version).
    pub fn fingerprint(&self) -> String {
        let text = format!(
            "{}\n{}\n{}\n{}\n{}",
            self.cpu_model,
            self.cores,
            self.kernel,
            self.architecture,
            // Rounded to whole GiB: the kernel's reservations move
            // MemTotal by a few MB between boots of the same machine.
            (self.memory_bytes + (1 << 29)) >> 30
        );
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("{:012x}", h >> 16)
    }

    /// One line for reports: `Intel Xeon … · 2 cores · 6.1.0 · 8 GiB`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.cpu_model.is_empty() {
            parts.push(self.cpu_model.clone());
        }
        if self.cores > 0 {
            parts.push(format!(
                "{} core{}",
                self.cores,
                if self.cores == 1 { "" } else { "s" }
            ));
        }
        if !self.kernel.is_empty() {
            parts.push(self.kernel.clone());
        }
        if self.memory_bytes > 0 {
            parts.push(format!("{} GiB", (self.memory_bytes + (1 << 29)) >> 30));
        }
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_is_stable_and_ignores_small_memory_moves() {
        let m = Machine {
            cpu_model: "CPU X".into(),
            cores: 4,
            kernel: "6.1.0".into(),
            architecture: "x86_64".into(),
            memory_bytes: 8 << 30,
        };
        let moved = Machine {
            memory_bytes: (8 << 30) - (20 << 20),
            ..m.clone()
        };
        assert_eq!(m.fingerprint(), moved.fingerprint());
        assert_eq!(m.fingerprint().len(), 12);
        let other = Machine {
            kernel: "6.2.0".into(),
            ..m.clone()
        };
        assert_ne!(m.fingerprint(), other.fingerprint());
        assert_eq!(m.describe(), "CPU X · 4 cores · 6.1.0 · 8 GiB");
    }
}

//! How the launcher spawns commands, as its FLOOR response says, and the
//! lines `--limits` prints about it.

use std::io;

use crate::measure::protocol::{self, Response};

/// How the launcher spawns commands (`--limits` says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpawnPath {
    /// clone3 with `CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND`: the
    /// child only joins its process group and sets its stdio before exec.
    Clone3,
    /// posix_spawn, because `BESTGUESS_SPAWN=posix_spawn` asked for it.
    Forced,
    /// posix_spawn, because the kernel refused clone3 with this errno
    /// (older kernels, seccomp filters).
    Refused(i32),
    /// posix_spawn: the launcher has no clone3 path on this architecture.
    NoClone3,
    /// posix_spawn: the portable build (POSIX alone, `measure::platform`).
    Portable,
}

impl SpawnPath {
    pub(super) fn from_floor(resp: &Response) -> SpawnPath {
        // The portable build has one path (BESTGUESS_SPAWN changes nothing).
        if cfg!(not(bestguess_linux)) {
            return SpawnPath::Portable;
        }
        match resp.ints[protocol::SLOT_SPAWN_PATH] {
            protocol::SPAWN_CLONE3 => SpawnPath::Clone3,
            protocol::SPAWN_FORCED => SpawnPath::Forced,
            protocol::SPAWN_REFUSED => {
                SpawnPath::Refused(resp.ints[protocol::SLOT_SPAWN_ERRNO] as i32)
            }
            protocol::SPAWN_PORTABLE => SpawnPath::Portable,
            _ => SpawnPath::NoClone3,
        }
    }

    /// The `--limits` lines.
    pub fn limits_text(&self) -> String {
        let fallback = "glibc's posix_spawn, whose child resets every signal handler \
                        itself before exec: that work is billed to each run's CPU time";
        let text = match self {
            SpawnPath::Clone3 => "clone3 (CLONE_VM, CLONE_VFORK, CLONE_CLEAR_SIGHAND): before \
                                  its exec a command's process only joins its process group \
                                  and sets its stdio, so next to nothing of the spawn is \
                                  billed to it"
                .to_string(),
            SpawnPath::Forced => format!(
                "{fallback}, because BESTGUESS_SPAWN=posix_spawn is set (meant for \
                 tests; unset it to spawn with clone3)"
            ),
            SpawnPath::Refused(errno) => format!(
                "{fallback}, because the kernel refused clone3 with CLONE_CLEAR_SIGHAND \
                 ({}; that needs Linux 5.5 and no seccomp filter against clone3)",
                io::Error::from_raw_os_error(*errno)
            ),
            SpawnPath::NoClone3 => format!("{fallback} (the clone3 path is built for x86-64 only)"),
            SpawnPath::Portable => "posix_spawn, in the portable build (POSIX alone: no \
                                    counters, no pinning, no run-queue delay; what a command \
                                    leaves running is ended with its process group), whose \
                                    child resets every handled signal itself before exec: \
                                    that work is billed to each run's CPU time"
                .to_string(),
        };
        let mut text = format!("Spawn: {text}.");
        if let Some(v) = std::env::var_os("BESTGUESS_SPAWN") {
            if *self == SpawnPath::Portable && !v.is_empty() {
                text.push_str(" BESTGUESS_SPAWN is ignored: this build has no other path.");
            } else if *self != SpawnPath::Forced && !v.is_empty() {
                text.push_str(&format!(
                    " BESTGUESS_SPAWN={} is ignored: posix_spawn is its only value.",
                    v.to_string_lossy()
                ));
            }
        }
        wrap(&text, 78, "  ")
    }
}

/// `text` in lines of at most `width` characters, each with `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(indent);
    out.push_str(&line);
    out.push('\n');
    out
}

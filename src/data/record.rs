//! One timed run, as stored in the raw CSV file: the record of truth.
//!
//! Times are integer microseconds and memory is bytes, exactly as measured;
//! conversion to display units happens only when rendering.

/// Everything recorded about one timed run of one command.
///
/// The first thirteen fields are the C reference's columns; `Total time` and
/// `Total Context Switches` are derived (see [`RunRecord::total_us`] and
/// [`RunRecord::total_csw`]); the remaining fields are BestGuess's appended
/// columns and are `None`/defaults when read from a reference file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunRecord {
    /// The command string as the user gave it.
    pub command: String,
    /// The shell string (`-s`), empty when no shell was used.
    pub shell: String,
    /// The command's name (`-n`), empty when it has none.
    pub name: String,
    /// Groups runs into commands: command index + 1 within one experiment.
    pub batch: u64,
    /// Exit status; for a run ended by a signal this is 128 + signal number.
    pub exit_code: i32,
    pub user_us: i64,
    pub system_us: i64,
    pub maxrss_bytes: i64,
    /// Minor page faults ("Page Reclaims").
    pub minor_faults: i64,
    /// Major page faults ("Page Faults").
    pub major_faults: i64,
    pub voluntary_csw: i64,
    pub involuntary_csw: i64,
    pub wall_us: i64,
    /// Global position of the run in execution order (1-based), all commands.
    pub sequence: Option<u64>,
    /// When the run started, microseconds since the Unix epoch.
    pub start_unix_us: Option<i64>,
    /// The signal that ended the run, if one did.
    pub signal: Option<i32>,
    /// The run was killed because it exceeded `--timeout`.
    pub timed_out: bool,
}

impl RunRecord {
    /// Total CPU time, user + system: BestGuess's primary metric.
    pub fn total_us(&self) -> i64 {
        self.user_us + self.system_us
    }

    /// Voluntary + involuntary context switches.
    pub fn total_csw(&self) -> i64 {
        self.voluntary_csw + self.involuntary_csw
    }

    /// The run did not end with exit code 0 (signal and timeout included).
    pub fn failed(&self) -> bool {
        self.exit_code != 0 || self.signal.is_some() || self.timed_out
    }
}

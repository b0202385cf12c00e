//! One timed run, as stored in the raw CSV file: the record of truth.
//!
//! Times are integer microseconds and memory is bytes, exactly as measured;
//! conversion to display units happens only when rendering.

use super::metric::{Metric, Value, Values};

/// Everything recorded about one timed run of one command.
///
/// The measurements are [`Values`], indexed by the metric catalogue
/// ([`super::metric`]); the other fields say which command ran and how it
/// ended. BestGuess's appended columns (sequence, start, signal, timed out)
/// are `None`/defaults when read from a C BestGuess file.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// The source recorded no exit code for the run (Hyperfine before
    /// 1.13, or a run a signal ended in Hyperfine's files): `exit_code` is
    /// then 0, but the code is absent, never written as 0; the run counts
    /// as a success unless `signal_unknown` says a signal ended it.
    pub no_exit_code: bool,
    /// Global position of the run in execution order (1-based), all commands.
    pub sequence: Option<u64>,
    /// When the run started, microseconds since the Unix epoch.
    pub start_unix_us: Option<i64>,
    /// The signal that ended the run, if one did and its number is known.
    pub signal: Option<i32>,
    /// A signal ended the run, but the source did not record which
    /// (Hyperfine writes its exit code as `null`): the run failed, with no
    /// exit code (`no_exit_code`) and no signal number (`signal` is
    /// `None`), and none is made up for it.
    pub signal_unknown: bool,
    /// The run was killed because it exceeded `--timeout`.
    pub timed_out: bool,
    /// What was measured, by metric.
    pub metrics: Values,
    /// The parameter values (`-P`, `-L`) of the command, as (name, value)
    /// in parameter order; empty without parameters.
    pub parameters: Vec<(String, String)>,
}

impl RunRecord {
    /// The value of `metric` for this run, if it was measured.
    pub fn value(&self, metric: Metric) -> Option<Value> {
        self.metrics.get(metric)
    }

    /// `self` with `metric` set to the integer `value` (for building records).
    pub fn with(mut self, metric: Metric, value: i64) -> RunRecord {
        self.metrics.set(metric, Some(Value::Int(value)));
        self
    }

    /// The run did not end with exit code 0 (signal and timeout included).
    pub fn failed(&self) -> bool {
        self.exit_code != 0 || self.signal.is_some() || self.signal_unknown || self.timed_out
    }
}

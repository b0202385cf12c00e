//! The in-memory dataset: every timed run, grouped by command, by column.
//!
//! Both entry points end here: `bestguess` builds a [`Dataset`] from the
//! records it measures ([`DatasetBuilder::push`], [`Dataset::from_records`])
//! and `bestreport` from saved files ([`Dataset::read_files`], which streams
//! rows straight into the builder); analysis and reports then share one
//! code path.
//!
//! Storage is columnar: per command, one [`Column`] per metric of the
//! [`Catalogue`] and per run attribute (exit code, signal, …), each in the
//! narrowest integer width its values need, and the command's text once
//! (not once per run). A million runs of a typical command take about 20
//! bytes each. Failed runs are included in every column, as C BestGuess
//! does with `-i`: no data is discarded behind the user's back;
//! [`CommandRuns::failed`] counts them. A value a run lacks is absent in its
//! column, never zero.
//!
//! Grouping: within one source, runs with the same Batch *and* the same
//! command, shell and name form one command, wherever they are in the file
//! (C BestGuess groups maximal runs of equal batch numbers, so an
//! interleaved order A,B,A,B would become four commands; and grouping by
//! batch alone would merge two different commands that share a batch number,
//! as in two files concatenated). Commands appear in batch order.
//!
//! Here: the types. [`builder`] groups runs into commands as they come;
//! [`read`] makes a dataset from records or files and tells look-alike
//! commands apart; [`runs`] is what one command's runs give analysis
//! (values by metric, attributes, failures) and how they are stored.

mod builder;
mod read;
mod runs;

use super::column::Column;
use super::columns::AdaptiveRule;
use super::formats::InputFormat;
use super::metric::Catalogue;

pub use builder::DatasetBuilder;
pub use read::source_tags;

/// Runs decoded at a time by [`CommandRuns::values`].
const RANGE: usize = 4096;

/// A per-run attribute column of [`CommandRuns`] (not a metric), for
/// [`CommandRuns::attribute_range`]. Values as the accessors give them
/// before conversion: the exit code as an integer, the signal absent when
/// none, the sequence number's bits as an `i64`, the start time in µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    ExitCode,
    Signal,
    Sequence,
    Start,
}

/// The display name used for standard input (`-`) in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// All runs of an experiment (or of several raw files), by command.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The metrics the runs may have (fixed ones, then registered ones).
    pub catalogue: Catalogue,
    /// In batch order within each source, sources in order.
    pub commands: Vec<CommandRuns>,
    /// The files the runs were read from, in order (empty for an
    /// experiment's own runs).
    pub sources: Vec<SourceFile>,
}

/// One file a dataset was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as given (`<stdin>` for `-`).
    pub path: String,
    /// What it was read as.
    pub format: InputFormat,
    /// A short name for it that no other source shares: the file name, or
    /// as much of the path as tells it apart, `#2`, `#3`… for the same
    /// path given again.
    pub tag: String,
}

/// The runs of one command.
#[derive(Clone, Debug, Default)]
pub struct CommandRuns {
    pub command: String,
    pub shell: String,
    pub name: String,
    /// The batch number shared by every run (after any offset applied when
    /// several sources are read).
    pub batch: u64,
    /// Index into [`Dataset::sources`] of the file the runs came from.
    pub source: usize,
    /// Which group of its source the runs are in: a header row in the
    /// middle of a raw file starts the next (0 for the first; groups
    /// without runs are not counted). A BestGuess JSON file keeps it
    /// (`bestguess.source.group`).
    pub group: usize,
    /// What tells the command apart when the same label occurs more than
    /// once: its source's tag when it also occurs in another source, and
    /// `group N` when it also occurs in another group of its own source;
    /// else empty. [`CommandRuns::label`] shows it.
    pub tag: String,
    /// The tag its runs had where they were first read, when a BestGuess
    /// JSON export carries it (`bestguess.source.tag`): read back, the
    /// commands of two files are told apart by their files' names, not
    /// `group 1` and `group 2`.
    pub origin: Option<String>,
    /// The parameter values (`-P`, `-L`) the command ran with, as (name,
    /// value); empty without parameters.
    pub parameters: Vec<(String, String)>,
    /// The stopping rule of the adaptive experiment (`--runs auto`) the
    /// runs came from, where their file records it.
    pub adaptive: Option<AdaptiveRule>,
    /// The means of user and system time (µs) its source gave without
    /// per-run values (Hyperfine 1.x's `user`, `system`): kept for the
    /// JSON export, never taken for runs' values.
    pub source_means: SourceMeans,
    /// The parameter values that tell this command apart from others of
    /// its experiment that would otherwise look alike (the same name, or
    /// command and shell: a command without the scan's `{NAME}`), as
    /// Hyperfine shows them: `level = 2`; else empty. Part of
    /// [`CommandRuns::label`]: `cat data.txt (level = 2)`.
    pub shown_parameters: String,
    len: usize,
    exit_code: Column,
    signal: Column,
    timed_out: Column,
    sequence: Column,
    start_unix_us: Column,
    /// The runs (in ascending order) a signal ended whose number the
    /// source did not record ([`RunRecord::signal_unknown`](crate::data::RunRecord::signal_unknown)): rare, so
    /// listed rather than a column.
    signal_unknown: Vec<usize>,
    /// Indexed by [`Metric`](crate::data::Metric); derived metrics' columns stay empty.
    metrics: Vec<Column>,
}

/// Means of user and system time (µs) a source gave for a command
/// without per-run values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SourceMeans {
    pub user: Option<f64>,
    pub system: Option<f64>,
}

impl Dataset {
    /// Total number of runs over all commands.
    pub fn run_count(&self) -> usize {
        self.commands.iter().map(|c| c.len()).sum()
    }

    /// No commands at all.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Bytes of heap held by the runs' columns (not the command texts).
    pub fn heap_bytes(&self) -> usize {
        self.commands.iter().map(CommandRuns::heap_bytes).sum()
    }

    /// One line on the runs read from files that lack a value of a metric
    /// every run is expected to have (not an optional one) while other
    /// runs of their command have it (a Hyperfine measurement without wall
    /// time, a row of the C tool's with empty cells), naming up to three
    /// commands and their runs (numbered from 1); `None` when there are
    /// none. Such a run is kept (its exit code counts), and each statistic
    /// leaves it out where it lacks the metric.
    pub fn incomplete_runs_note(&self) -> Option<String> {
        let incomplete: Vec<(&CommandRuns, Vec<usize>)> = (self.commands.iter())
            .map(|c| (c, c.incomplete_runs(&self.catalogue)))
            .filter(|(_, runs)| !runs.is_empty())
            .collect();
        let total: usize = incomplete.iter().map(|(_, runs)| runs.len()).sum();
        if total == 0 {
            return None;
        }
        let shown: Vec<String> = (incomplete.iter().take(3))
            .map(|(c, runs)| {
                let numbers: Vec<String> =
                    runs.iter().take(5).map(|i| (i + 1).to_string()).collect();
                let more = if runs.len() > 5 { ", …" } else { "" };
                let run = if runs.len() == 1 { "run" } else { "runs" };
                format!("{}: {run} {}{more}", c.label(), numbers.join(", "))
            })
            .collect();
        let more = if incomplete.len() > 3 { "; …" } else { "" };
        let subject = if total == 1 {
            "1 run lacks values its command's other runs have".to_owned()
        } else {
            format!("{total} runs lack values the other runs of their command have")
        };
        Some(format!(
            "Note: {subject} ({}{more}); each statistic leaves out the runs without its \
             metric, and the JSON export's Hyperfine layouts the runs without wall-clock time.\n",
            shown.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests;

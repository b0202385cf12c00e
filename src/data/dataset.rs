//! The in-memory dataset: every timed run, grouped by command.
//!
//! Both entry points end here: `bestguess` builds a [`Dataset`] from the
//! records it has just measured ([`Dataset::from_records`]) and `bestreport`
//! from saved files ([`Dataset::read_files`]); analysis and reports then
//! share one code path.
//!
//! Runs are kept whole, as [`RunRecord`]s in execution order, rather than
//! split into per-metric columns: exports and reports need every field of a
//! run (exit code, signal, sequence), and nothing is ever dropped. Analysis
//! asks for a column when it needs one ([`CommandRuns::metric`]), which is
//! O(n) and cheap next to sorting it. Failed runs are included in every
//! column, as the reference does with `-i`: no data is discarded behind the
//! user's back; [`CommandRuns::failed`] counts them.
//!
//! Grouping is by Batch, not by adjacency (the reference groups maximal runs
//! of equal batch numbers, so an interleaved order A,B,A,B would become four
//! commands). Commands appear in the order of their first run.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io;

use super::csv_read::read_raw_csv;
use super::error::DataError;
use super::RunRecord;

/// The display name used for standard input (`-`) in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// All runs of an experiment (or of several raw files), by command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dataset {
    /// In order of each command's first run.
    pub commands: Vec<CommandRuns>,
}

/// The runs of one command: one batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandRuns {
    /// Command, shell and name of the first run of the batch.
    pub command: String,
    pub shell: String,
    pub name: String,
    /// The batch number shared by every run below (after any offset applied
    /// by [`Dataset::from_sources`]).
    pub batch: u64,
    /// In execution (file) order; never empty when built by this module.
    pub runs: Vec<RunRecord>,
}

impl Dataset {
    /// Groups records from one experiment or one file into commands.
    ///
    /// Rows with the same Batch belong to the same command wherever they
    /// are; command, shell and name come from each batch's first row.
    /// Commands are in batch order, which is the order they were given to
    /// `bestguess` whatever order they ran in (with `--order random` the
    /// first row of the file may belong to any command).
    pub fn from_records(records: impl IntoIterator<Item = RunRecord>) -> Self {
        let mut dataset = Dataset::default();
        dataset.add_source(records, 0);
        dataset
    }

    /// Groups the records of several sources (display name, records), in
    /// order, keeping each source's commands apart.
    ///
    /// As in the reference, each source's batch numbers are offset by the
    /// largest batch number so far, so the same file given twice yields
    /// each command twice (`raw1.csv raw1.csv`: batches 1, 2, 3, 4). The
    /// reference offsets by the previous file's *last* batch; the largest
    /// is used here so interleaved files cannot collide, and a source that
    /// uses batch 0 is offset one further for the same reason. Grouping is
    /// by (source, original batch), so it is right even if offsetting would
    /// overflow (then the number saturates at `u64::MAX`). Each run's
    /// `batch` field is rewritten to its command's offset batch.
    ///
    /// The display names are not stored; they are taken so that the
    /// signature matches what [`Dataset::read_files`] produces.
    pub fn from_sources(sources: Vec<(String, Vec<RunRecord>)>) -> Self {
        let mut dataset = Dataset::default();
        let mut largest: Option<u64> = None;
        for (_name, records) in sources {
            let uses_zero = records.iter().any(|r| r.batch == 0);
            let offset = match largest {
                None => 0,
                Some(m) => m.saturating_add(u64::from(uses_zero)),
            };
            if let Some(m) = dataset.add_source(records, offset) {
                largest = Some(largest.map_or(m, |l| l.max(m)));
            }
        }
        dataset
    }

    /// Reads raw data files in order (`-` is standard input, at most once)
    /// and groups them as [`Dataset::from_sources`] does.
    ///
    /// Stops at the first file that cannot be opened or read; the error
    /// names it. No paths give an empty dataset.
    pub fn read_files(paths: &[String]) -> Result<Self, DataError> {
        Dataset::read_paths(paths, io::stdin().lock())
    }

    /// [`Dataset::read_files`] with standard input supplied by the caller.
    fn read_paths(paths: &[String], stdin: impl io::Read) -> Result<Self, DataError> {
        let mut stdin = Some(stdin);
        let mut sources = Vec::with_capacity(paths.len());
        for path in paths {
            let records = if path == "-" {
                let input = stdin.take().ok_or_else(|| DataError::StdinTwice {
                    file: STDIN_NAME.to_owned(),
                })?;
                read_raw_csv(input, STDIN_NAME)?
            } else {
                let file = File::open(path).map_err(|cause| DataError::Open {
                    file: path.clone(),
                    cause,
                })?;
                read_raw_csv(file, path)?
            };
            sources.push((path.clone(), records));
        }
        Ok(Dataset::from_sources(sources))
    }

    /// Total number of runs over all commands.
    pub fn run_count(&self) -> usize {
        self.commands.iter().map(|c| c.runs.len()).sum()
    }

    /// No commands at all.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Adds one source's records with `offset` added to their batch
    /// numbers; returns the largest resulting batch number, if any.
    fn add_source(
        &mut self,
        records: impl IntoIterator<Item = RunRecord>,
        offset: u64,
    ) -> Option<u64> {
        let first = self.commands.len();
        // Original batch number -> index into self.commands.
        let mut by_batch: HashMap<u64, usize> = HashMap::new();
        let mut largest = None;
        for mut run in records {
            let original = run.batch;
            run.batch = original.saturating_add(offset);
            largest = Some(largest.map_or(run.batch, |l: u64| l.max(run.batch)));
            match by_batch.get(&original) {
                Some(&i) => self.commands[i].runs.push(run),
                None => {
                    by_batch.insert(original, self.commands.len());
                    self.commands.push(CommandRuns {
                        command: run.command.clone(),
                        shell: run.shell.clone(),
                        name: run.name.clone(),
                        batch: run.batch,
                        runs: vec![run],
                    });
                }
            }
        }
        // The offset is the same for the whole source, so this is the
        // source's own batch order (stable: equal batches cannot occur).
        self.commands[first..].sort_by_key(|c| c.batch);
        largest
    }
}

impl CommandRuns {
    /// How the command is shown in reports: its name if it has one (a name
    /// of only blanks counts as none), else the command string. An empty command (which measures shell
    /// start-up) is shown as the shell with an empty argument, e.g.
    /// `/bin/sh -c ""`, which is literally what ran; without a shell (which
    /// cannot be run, but a file may say so) as `(empty)`.
    pub fn label(&self) -> Cow<'_, str> {
        if !self.name.trim().is_empty() {
            Cow::Borrowed(&self.name)
        } else if !self.command.is_empty() {
            Cow::Borrowed(&self.command)
        } else if !self.shell.is_empty() {
            Cow::Owned(format!("{} \"\"", self.shell))
        } else {
            Cow::Borrowed("(empty)")
        }
    }

    /// The values of one metric, one per run in execution order, failed
    /// runs included.
    ///
    /// Values are integers in the metric's [`Unit`]; as `f64` they are
    /// exact up to 2^53 (285 years in microseconds).
    pub fn metric(&self, metric: Metric) -> Vec<f64> {
        self.runs.iter().map(|r| metric.value(r) as f64).collect()
    }

    /// Number of runs that failed (non-zero exit, signal, or time-out).
    pub fn failed(&self) -> usize {
        self.runs.iter().filter(|r| r.failed()).count()
    }

    /// Number of runs.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

/// A measured quantity of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// User + system CPU time: the primary metric, used for ranking.
    Total,
    User,
    System,
    Wall,
    MaxRss,
    VoluntaryCsw,
    InvoluntaryCsw,
    /// Voluntary + involuntary context switches.
    TotalCsw,
}

/// The unit a [`Metric`] is recorded in. Values stay integers in this unit
/// until they are rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Microseconds,
    Bytes,
    Count,
}

impl Metric {
    /// Every metric, in the order of the reference's summary CSV.
    pub const ALL: [Metric; 8] = [
        Metric::Total,
        Metric::User,
        Metric::System,
        Metric::MaxRss,
        Metric::VoluntaryCsw,
        Metric::InvoluntaryCsw,
        Metric::TotalCsw,
        Metric::Wall,
    ];

    /// The label used in terminal reports (the reference's row labels).
    pub fn label(self) -> &'static str {
        match self {
            Metric::Total => "Total CPU time",
            Metric::User => "User time",
            Metric::System => "System time",
            Metric::Wall => "Wall clock",
            Metric::MaxRss => "Max RSS",
            Metric::VoluntaryCsw => "Voluntary context switches",
            Metric::InvoluntaryCsw => "Involuntary context switches",
            Metric::TotalCsw => "Context switches",
        }
    }

    /// The short prefix used in the reference's summary CSV column names
    /// (e.g. `Vol Ctx Sw` in `Vol Ctx Sw median (ct)`).
    pub fn short_label(self) -> &'static str {
        match self {
            Metric::Total => "Total",
            Metric::User => "User",
            Metric::System => "System",
            Metric::Wall => "Wall",
            Metric::MaxRss => "Max RSS",
            Metric::VoluntaryCsw => "Vol Ctx Sw",
            Metric::InvoluntaryCsw => "Invol Ctx Sw",
            Metric::TotalCsw => "Total Ctx Sw",
        }
    }

    pub fn unit(self) -> Unit {
        match self {
            Metric::Total | Metric::User | Metric::System | Metric::Wall => Unit::Microseconds,
            Metric::MaxRss => Unit::Bytes,
            Metric::VoluntaryCsw | Metric::InvoluntaryCsw | Metric::TotalCsw => Unit::Count,
        }
    }

    /// This metric's value for one run.
    pub fn value(self, run: &RunRecord) -> i64 {
        match self {
            Metric::Total => run.total_us(),
            Metric::User => run.user_us,
            Metric::System => run.system_us,
            Metric::Wall => run.wall_us,
            Metric::MaxRss => run.maxrss_bytes,
            Metric::VoluntaryCsw => run.voluntary_csw,
            Metric::InvoluntaryCsw => run.involuntary_csw,
            Metric::TotalCsw => run.total_csw(),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl Unit {
    /// The unit's symbol as used in raw and summary column names.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Microseconds => "μs",
            Unit::Bytes => "bytes",
            Unit::Count => "ct",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &str, batch: u64, user_us: i64) -> RunRecord {
        RunRecord {
            command: command.into(),
            batch,
            user_us,
            ..RunRecord::default()
        }
    }

    fn shape(d: &Dataset) -> Vec<(String, u64, Vec<i64>)> {
        d.commands
            .iter()
            .map(|c| {
                let users = c.runs.iter().map(|r| r.user_us).collect();
                (c.command.clone(), c.batch, users)
            })
            .collect()
    }

    #[test]
    fn interleaved_batches_group_by_batch_in_batch_order() {
        let d = Dataset::from_records(vec![
            run("b", 2, 1),
            run("a", 1, 2),
            run("b", 2, 3),
            run("a", 1, 4),
        ]);
        assert_eq!(
            shape(&d),
            vec![("a".into(), 1, vec![2, 4]), ("b".into(), 2, vec![1, 3])],
            "a random run order does not renumber the commands"
        );
    }

    #[test]
    fn group_identity_comes_from_the_first_row() {
        let mut second = run("changed", 1, 2);
        second.name = "other".into();
        let d = Dataset::from_records(vec![run("first", 1, 1), second]);
        assert_eq!(d.commands.len(), 1);
        assert_eq!(d.commands[0].command, "first");
        assert_eq!(d.commands[0].name, "");
        // The runs themselves are kept as recorded.
        assert_eq!(d.commands[0].runs[1].command, "changed");
    }

    #[test]
    fn sources_are_offset_by_the_largest_batch_so_far() {
        let file = || vec![run("a", 1, 1), run("b", 2, 2)];
        let d = Dataset::from_sources(vec![("x".into(), file()), ("x".into(), file())]);
        let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
        assert_eq!(batches, [1, 2, 3, 4]);
        assert!(d
            .commands
            .iter()
            .all(|c| c.runs.iter().all(|r| r.batch == c.batch)));

        // Interleaved first file ending with batch 1: offset by 2, not 1.
        let d = Dataset::from_sources(vec![
            ("x".into(), vec![run("a", 2, 1), run("b", 1, 2)]),
            ("y".into(), vec![run("c", 1, 3)]),
        ]);
        assert_eq!(shape(&d)[2], ("c".into(), 3, vec![3]));
    }

    #[test]
    fn batch_zero_in_a_later_source_does_not_collide() {
        let d = Dataset::from_sources(vec![
            ("x".into(), vec![run("a", 0, 1), run("b", 3, 1)]),
            ("y".into(), vec![run("c", 0, 1), run("d", 1, 1)]),
        ]);
        let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
        assert_eq!(batches, [0, 3, 4, 5]);
    }

    #[test]
    fn huge_batches_saturate_but_still_group_apart() {
        let d = Dataset::from_sources(vec![
            ("x".into(), vec![run("a", u64::MAX, 1)]),
            ("y".into(), vec![run("b", 5, 2), run("c", 6, 3)]),
        ]);
        assert_eq!(d.commands.len(), 3);
        assert_eq!(d.commands[2].runs.len(), 1);
    }

    #[test]
    fn labels() {
        let mut c = CommandRuns {
            command: "ls -l".into(),
            ..CommandRuns::default()
        };
        assert_eq!(c.label(), "ls -l");
        c.name = "listing".into();
        assert_eq!(c.label(), "listing");
        c.name = "  \t".into();
        assert_eq!(c.label(), "ls -l", "a blank name names nothing");
        c.name.clear();
        c.command.clear();
        assert_eq!(c.label(), "(empty)");
        c.shell = "/bin/sh -c".into();
        assert_eq!(c.label(), "/bin/sh -c \"\"");
    }

    #[test]
    fn metrics_and_failures() {
        let ok = RunRecord {
            user_us: 10,
            system_us: 5,
            wall_us: 20,
            maxrss_bytes: 4096,
            voluntary_csw: 2,
            involuntary_csw: 3,
            ..run("a", 1, 10)
        };
        let failed = RunRecord {
            exit_code: 1,
            ..ok.clone()
        };
        let killed = RunRecord {
            signal: Some(9),
            user_us: 1,
            ..ok.clone()
        };
        let d = Dataset::from_records(vec![ok, failed, killed]);
        let c = &d.commands[0];
        assert_eq!(c.metric(Metric::Total), [15.0, 15.0, 6.0]);
        assert_eq!(c.metric(Metric::User), [10.0, 10.0, 1.0]);
        assert_eq!(c.metric(Metric::System), [5.0; 3]);
        assert_eq!(c.metric(Metric::Wall), [20.0; 3]);
        assert_eq!(c.metric(Metric::MaxRss), [4096.0; 3]);
        assert_eq!(c.metric(Metric::VoluntaryCsw), [2.0; 3]);
        assert_eq!(c.metric(Metric::InvoluntaryCsw), [3.0; 3]);
        assert_eq!(c.metric(Metric::TotalCsw), [5.0; 3]);
        assert_eq!(c.failed(), 2);
        assert_eq!(d.run_count(), 3);
    }

    #[test]
    fn metric_labels_and_units() {
        assert_eq!(Metric::Total.to_string(), "Total CPU time");
        assert_eq!(Metric::TotalCsw.short_label(), "Total Ctx Sw");
        assert_eq!(Metric::Wall.unit(), Unit::Microseconds);
        assert_eq!(Metric::MaxRss.unit().to_string(), "bytes");
        assert_eq!(Metric::InvoluntaryCsw.unit(), Unit::Count);
        let distinct: std::collections::HashSet<Metric> = Metric::ALL.into_iter().collect();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn read_files_names_the_missing_file() {
        let e = Dataset::read_files(&["/nonexistent/missing.csv".to_string()]).unwrap_err();
        let s = e.to_string();
        assert!(
            s.starts_with("/nonexistent/missing.csv: cannot open: No such file or directory"),
            "{s}"
        );
        assert!(!s.contains('\n'));
    }

    #[test]
    fn stdin_is_read_once_and_named() {
        let data = "h\nc,,,1,0,1,1,1,1,1,1,1,1\n";
        let d = Dataset::read_paths(&["-".to_string()], data.as_bytes()).unwrap();
        assert_eq!(d.run_count(), 1);
        let e = Dataset::read_paths(&["-".to_string(), "-".to_string()], data.as_bytes());
        assert!(matches!(e, Err(DataError::StdinTwice { .. })), "{e:?}");
        let e = Dataset::read_paths(&["-".to_string()], &b"h\nbad\n"[..]).unwrap_err();
        assert!(
            e.to_string().starts_with("<stdin>: line 2, column 2"),
            "{e}"
        );
    }
}

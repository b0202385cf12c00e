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
//! bytes each. Failed runs are included in every column, as the reference
//! does with `-i`: no data is discarded behind the user's back;
//! [`CommandRuns::failed`] counts them. A value a run lacks is absent in its
//! column, never zero.
//!
//! Grouping: within one source, runs with the same Batch *and* the same
//! command, shell and name form one command, wherever they are in the file
//! (the reference groups maximal runs of equal batch numbers, so an
//! interleaved order A,B,A,B would become four commands; and grouping by
//! batch alone would merge two different commands that share a batch number,
//! as in two files concatenated). Commands appear in batch order.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;

use super::column::Column;
use super::columns::AdaptiveRule;
use super::csv_read::{RowSink, Rows};
use super::error::DataError;
use super::fast_read::slot;
use super::formats::{self, InputFormat};
use super::metric::{Catalogue, Metric, Source, Value};
use super::RunRecord;

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
    /// source did not record ([`RunRecord::signal_unknown`]): rare, so
    /// listed rather than a column.
    signal_unknown: Vec<usize>,
    /// Indexed by [`Metric`]; derived metrics' columns stay empty.
    metrics: Vec<Column>,
}

/// Means of user and system time (µs) a source gave for a command
/// without per-run values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SourceMeans {
    pub user: Option<f64>,
    pub system: Option<f64>,
}

/// Builds a [`Dataset`] one run at a time, source by source.
#[derive(Debug, Default)]
pub struct DatasetBuilder {
    dataset: Dataset,
    /// Index of the current source's first command.
    source_start: usize,
    /// Within the current source: batch as recorded -> its commands.
    by_batch: HashMap<u64, Vec<usize>>,
    /// The command the previous run went to (runs come in long stretches).
    last: Option<usize>,
    /// The largest batch number of the finished sources.
    largest: Option<u64>,
    runs: usize,
    /// The source (file) the runs pushed now belong to.
    source: usize,
    /// The tag of the file the current group's runs were first read from
    /// ([`RowSink::origin`]), if known.
    origin: Option<String>,
    /// The group within that source (see [`CommandRuns::group`]).
    group: usize,
    /// The current group's adaptive rule, if its header records one.
    adaptive: Option<AdaptiveRule>,
    /// For the catalogue of this many metrics: its stored metrics, and
    /// its [`Catalogue::index_bound`].
    stored: (usize, Vec<Metric>, usize),
}

impl DatasetBuilder {
    /// An empty dataset whose runs may have the metrics of `catalogue`.
    pub fn new(catalogue: Catalogue) -> DatasetBuilder {
        DatasetBuilder {
            dataset: Dataset {
                catalogue,
                commands: Vec::new(),
                sources: Vec::new(),
            },
            ..DatasetBuilder::default()
        }
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.dataset.catalogue
    }

    /// For registering metrics met on the way (a file's appended columns).
    pub fn catalogue_mut(&mut self) -> &mut Catalogue {
        &mut self.dataset.catalogue
    }

    /// Runs pushed so far.
    pub fn run_count(&self) -> usize {
        self.runs
    }

    /// Adds one run to its command (a new one if no earlier run of the
    /// current source has its batch, command, shell and name).
    pub fn push(&mut self, run: &RunRecord) {
        let index = match self.last.filter(|&i| self.dataset.commands[i].is_for(run)) {
            Some(i) => i,
            None => self.find_or_add(run),
        };
        self.last = Some(index);
        self.push_to(index, run);
    }

    /// Appends `run` to command `index`'s columns.
    fn push_to(&mut self, index: usize, run: &RunRecord) {
        self.runs += 1;
        self.list_stored();
        let (_, stored, bound) = &self.stored;
        self.dataset.commands[index].push(run, stored, *bound);
    }

    /// Brings [`DatasetBuilder::stored`] up to date with the catalogue.
    fn list_stored(&mut self) {
        let catalogue = &self.dataset.catalogue;
        // The stored metrics, listed again only when the catalogue grew.
        if self.stored.0 != catalogue.metrics().len() {
            let stored = catalogue
                .iter()
                .filter(|(_, def)| def.source == Source::Stored)
                .map(|(m, _)| m);
            self.stored = (
                catalogue.metrics().len(),
                stored.collect(),
                catalogue.index_bound(),
            );
        }
    }

    fn find_or_add(&mut self, run: &RunRecord) -> usize {
        self.find_or_add_key(&Key::of(run))
    }

    fn find_or_add_key(&mut self, key: &Key<'_>) -> usize {
        let commands = &mut self.dataset.commands;
        let same = self.by_batch.entry(key.batch).or_default();
        if let Some(&i) = same.iter().find(|&&i| commands[i].is_for_key(key)) {
            return i;
        }
        same.push(commands.len());
        commands.push(CommandRuns {
            command: key.command.to_owned(),
            shell: key.shell.to_owned(),
            name: key.name.to_owned(),
            batch: key.batch,
            source: self.source,
            group: self.group,
            parameters: key.parameters.to_vec(),
            origin: self.origin.clone(),
            adaptive: self.adaptive,
            ..CommandRuns::default()
        });
        commands.len() - 1
    }

    /// Ends the current source: what follows is another file (or a part of
    /// a file after a repeated header), whose commands stay apart from the
    /// ones before even where batch numbers and text agree.
    ///
    /// As in the reference, each source's batch numbers are offset by the
    /// largest batch number so far, so the same file given twice yields
    /// each command twice (`raw1.csv raw1.csv`: batches 1, 2, 3, 4). The
    /// reference offsets by the previous file's *last* batch; the largest is
    /// used here so interleaved files cannot collide, and a source that uses
    /// batch 0 is offset one further for the same reason. The number
    /// saturates at `u64::MAX` (grouping does not depend on it).
    pub fn next_source(&mut self) {
        self.adaptive = None;
        let start = self.source_start;
        let source = &mut self.dataset.commands[start..];
        if !source.is_empty() {
            let uses_zero = source.iter().any(|c| c.batch == 0);
            let offset = match self.largest {
                None => 0,
                Some(m) => m.saturating_add(u64::from(uses_zero)),
            };
            for c in source.iter_mut() {
                c.batch = c.batch.saturating_add(offset);
                self.largest = Some(self.largest.map_or(c.batch, |l| l.max(c.batch)));
            }
            // Batch order within the source (stable: commands that share a
            // batch number keep the order of their first runs).
            source.sort_by_key(|c| c.batch);
        }
        self.source_start = self.dataset.commands.len();
        self.by_batch.clear();
        self.last = None;
    }

    /// What follows comes from the file [`Dataset::sources`]`[index]`
    /// (call [`DatasetBuilder::next_source`] first).
    pub fn set_source(&mut self, index: usize) {
        self.source = index;
        self.group = 0;
    }

    /// The dataset, its last source ended.
    pub fn finish(mut self) -> Dataset {
        self.next_source();
        for c in &mut self.dataset.commands {
            c.shrink_to_fit();
        }
        self.dataset.show_parameters();
        self.dataset
    }
}

impl RowSink for DatasetBuilder {
    fn catalogue(&mut self) -> &mut Catalogue {
        self.catalogue_mut()
    }

    fn new_group(&mut self) {
        self.next_source();
        self.group += 1;
        self.origin = None;
    }

    fn adaptive(&mut self, rule: AdaptiveRule) {
        self.adaptive = Some(rule);
    }

    fn origin(&mut self, tag: &str) {
        self.origin = (!tag.is_empty()).then(|| tag.to_owned());
    }

    fn means(&mut self, user: Option<f64>, system: Option<f64>) {
        if let Some(i) = self.last {
            self.dataset.commands[i].source_means = SourceMeans { user, system };
        }
    }

    fn row(&mut self, run: &RunRecord, same_text: bool) {
        match self.last {
            // The previous row's command, and the same batch: no need to
            // compare the texts.
            Some(i) if same_text && self.dataset.commands[i].batch == run.batch => {
                self.push_to(i, run);
            }
            _ => self.push(run),
        }
    }

    /// As [`RowSink::row`] for each row, a column at a time for each
    /// stretch of rows of one command.
    fn rows(&mut self, rows: &Rows<'_>) {
        self.list_stored();
        let (_, stored, bound) = &self.stored;
        let bound = *bound;
        let slots: Vec<(Metric, Option<usize>)> =
            stored.iter().map(|&m| (m, rows.slot(m))).collect();
        // (text id, batch) -> command, for the last few met in these rows.
        let mut known: Vec<(u32, u64, usize)> = Vec::new();
        let n = rows.len();
        let mut i = 0;
        while i < n {
            let (text, batch) = (rows.text_id(i), rows.batch(i));
            let mut end = i + 1;
            while end < n && rows.text_id(end) == text && rows.batch(end) == batch {
                end += 1;
            }
            let index = match known.iter().find(|k| k.0 == text && k.1 == batch) {
                Some(k) => k.2,
                None => {
                    let [command, shell, name] = rows.texts(i);
                    let key = Key {
                        batch,
                        command,
                        shell,
                        name,
                        parameters: &[],
                    };
                    let index = match self
                        .last
                        .filter(|&c| self.dataset.commands[c].is_for_key(&key))
                    {
                        Some(c) => c,
                        None => self.find_or_add_key(&key),
                    };
                    if known.len() == 8 {
                        known.remove(0);
                    }
                    known.push((text, batch, index));
                    index
                }
            };
            self.last = Some(index);
            self.dataset.commands[index].push_rows(rows, i..end, &slots, bound);
            self.runs += end - i;
            i = end;
        }
    }
}

/// What tells a command's runs from others' in one source.
struct Key<'a> {
    batch: u64,
    command: &'a str,
    shell: &'a str,
    name: &'a str,
    parameters: &'a [(String, String)],
}

impl Key<'_> {
    fn of(run: &RunRecord) -> Key<'_> {
        Key {
            batch: run.batch,
            command: &run.command,
            shell: &run.shell,
            name: &run.name,
            parameters: &run.parameters,
        }
    }
}

impl Dataset {
    /// A sequence number that two runs of one experiment (a source's
    /// group) share, with the source: each run has its own, so a repeat
    /// means rows copied (a file appended to itself had doubled its runs
    /// and narrowed every interval, without a word). A set of bits up to
    /// the largest number (bestguess numbers runs from 1), or a sorted
    /// list where numbers are sparse.
    fn repeated_sequence(&self) -> Option<(usize, u64)> {
        let key = |c: &CommandRuns| (c.source, c.group);
        let mut order: Vec<&CommandRuns> = self.commands.iter().collect();
        order.sort_by_key(|c| key(c));
        for members in order.chunk_by(|a, b| key(a) == key(b)) {
            let source = members[0].source;
            let (mut count, mut largest) = (0usize, 0u64);
            for c in members {
                c.each_sequence(|v| {
                    if let Some(v) = v {
                        count += 1;
                        largest = largest.max(v);
                    }
                });
            }
            let repeated = if largest / 64 <= count as u64 {
                let mut seen = vec![0u64; largest as usize / 64 + 1];
                let mut repeated = None;
                for c in members {
                    c.each_sequence(|v| {
                        let Some(v) = v else { return };
                        let (word, bit) = (v as usize / 64, 1u64 << (v % 64));
                        if seen[word] & bit != 0 {
                            repeated.get_or_insert(v);
                        }
                        seen[word] |= bit;
                    });
                }
                repeated
            } else {
                let mut all = Vec::with_capacity(count);
                for c in members {
                    c.each_sequence(|v| all.extend(v));
                }
                all.sort_unstable();
                all.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
            };
            if let Some(v) = repeated {
                return Some((source, v));
            }
        }
        None
    }

    /// Groups records from one experiment or one file into commands, with
    /// the fixed metrics' catalogue.
    pub fn from_records(records: impl IntoIterator<Item = RunRecord>) -> Self {
        Dataset::from_records_with(Catalogue::new(), records)
    }

    /// [`Dataset::from_records`] with a catalogue that may hold registered
    /// metrics.
    pub fn from_records_with(
        catalogue: Catalogue,
        records: impl IntoIterator<Item = RunRecord>,
    ) -> Self {
        let mut builder = DatasetBuilder::new(catalogue);
        for r in records {
            builder.push(&r);
        }
        builder.finish()
    }

    /// Reads raw data files in order (`-` is standard input, at most once);
    /// each file is a source of its own (see [`DatasetBuilder::next_source`]).
    ///
    /// Stops at the first file that cannot be opened or read; the error
    /// names it. No paths give an empty dataset.
    pub fn read_files(paths: &[String]) -> Result<Self, DataError> {
        Dataset::read_paths(paths, io::stdin().lock())
    }

    /// [`Dataset::read_files`] with standard input supplied by the caller.
    /// Each file's format is told from its content ([`formats::read_into`]).
    fn read_paths(paths: &[String], stdin: impl io::Read) -> Result<Self, DataError> {
        let mut stdin = Some(stdin);
        let mut builder = DatasetBuilder::new(Catalogue::new());
        let mut sources = Vec::with_capacity(paths.len());
        for (index, path) in paths.iter().enumerate() {
            builder.next_source();
            builder.set_source(index);
            let (name, format) = if path == "-" {
                let input = stdin.take().ok_or_else(|| DataError::StdinTwice {
                    file: STDIN_NAME.to_owned(),
                })?;
                (
                    STDIN_NAME,
                    formats::read_into(input, STDIN_NAME, &mut builder)?,
                )
            } else {
                let file = File::open(path).map_err(|cause| DataError::Open {
                    file: path.clone(),
                    cause,
                })?;
                (path.as_str(), formats::read_into(file, path, &mut builder)?)
            };
            sources.push((name.to_owned(), format));
        }
        let mut dataset = builder.finish();
        if let Some((source, sequence)) = dataset.repeated_sequence() {
            return Err(DataError::Format {
                file: sources[source].0.clone(),
                message: format!(
                    "sequence number {sequence} is given to two runs of one experiment; each run \
                     has its own (were rows copied, or two files joined without the second's \
                     header?)"
                ),
            });
        }
        let names: Vec<&str> = sources.iter().map(|(p, _)| p.as_str()).collect();
        dataset.sources = source_tags(&names)
            .into_iter()
            .zip(sources)
            .map(|(tag, (path, format))| SourceFile { path, format, tag })
            .collect();
        dataset.tag_repeated_commands();
        Ok(dataset)
    }

    /// Sets [`CommandRuns::shown_parameters`]: among the commands of one
    /// experiment (source and group) whose labels would be equal, the
    /// parameters whose values differ between them, in the order the
    /// command has them.
    fn show_parameters(&mut self) {
        let mut alike: HashMap<(usize, usize, String, String), Vec<usize>> = HashMap::new();
        for (i, c) in self.commands.iter().enumerate() {
            if c.parameters.is_empty() {
                continue;
            }
            let key = (
                c.source,
                c.group,
                c.base_label().into_owned(),
                c.shell.clone(),
            );
            alike.entry(key).or_default().push(i);
        }
        let mut shown: Vec<(usize, String)> = Vec::new();
        for members in alike.values().filter(|m| m.len() > 1) {
            let value = |i: usize, name: &str| {
                (self.commands[i].parameters.iter())
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.as_str())
            };
            for &i in members {
                let differing: Vec<String> = (self.commands[i].parameters.iter())
                    .filter(|(name, v)| members.iter().any(|&j| value(j, name) != Some(v)))
                    .map(|(name, v)| format!("{name} = {v}"))
                    .collect();
                shown.push((i, differing.join(", ")));
            }
        }
        for (i, text) in shown {
            self.commands[i].shown_parameters = text;
        }
    }

    /// Tags every command whose label occurs more than once, so that
    /// reports can tell them apart: with its source's tag when the label
    /// also occurs in another source, and with `group N` when it also
    /// occurs in another group of the same source (the same command in
    /// two experiments saved in one file).
    fn tag_repeated_commands(&mut self) {
        // Groups are numbered among those of their source that hold runs
        // (a header row right after another starts an empty one): from
        // here on `group` is that number, from 0.
        let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
        for c in &self.commands {
            let of_source = groups.entry(c.source).or_default();
            if !of_source.contains(&c.group) {
                of_source.push(c.group);
            }
        }
        for of_source in groups.values_mut() {
            of_source.sort_unstable();
        }
        for c in &mut self.commands {
            let of_source = &groups[&c.source];
            c.group = (of_source.iter().position(|&g| g == c.group)).unwrap_or(c.group);
        }
        let mut seen: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
        for c in &self.commands {
            let places = seen.entry(c.base_label().into_owned()).or_default();
            if !places.contains(&(c.source, c.group)) {
                places.push((c.source, c.group));
            }
        }
        for c in &mut self.commands {
            let places = &seen[c.base_label().as_ref()];
            let mut parts = Vec::new();
            if places.iter().any(|&(source, _)| source != c.source) {
                if let Some(s) = self.sources.get(c.source) {
                    parts.push(s.tag.clone());
                }
            }
            if (places.iter()).any(|&(source, group)| source == c.source && group != c.group) {
                // Read back from an export, the group's original file says
                // more than its number, where the file is named.
                parts.push(match &c.origin {
                    Some(origin) => origin.clone(),
                    None => format!("group {}", c.group + 1),
                });
            }
            c.tag = parts.join(", ");
        }
    }

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

/// Short tags that tell the paths apart: each path's last component, or as
/// many trailing components as make it unique among the different paths;
/// a path given again gets `#2`, `#3`, ….
pub fn source_tags(paths: &[&str]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = paths
        .iter()
        .map(|p| p.split('/').filter(|c| !c.is_empty()).collect())
        .collect();
    let suffix = |i: usize, k: usize| -> String {
        let p = &parts[i];
        if p.is_empty() {
            return paths[i].to_owned();
        }
        p[p.len().saturating_sub(k)..].join("/")
    };
    // Per path, the fewest trailing components no other (different) path
    // ends with: for each length, how many different paths end so. Linear
    // in the paths for each length (5,000 files: milliseconds).
    let mut distinct: Vec<usize> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, p) in paths.iter().enumerate() {
        if seen.insert(p) {
            distinct.push(i);
        }
    }
    let mut chosen: HashMap<&str, usize> = HashMap::new();
    let deepest = parts.iter().map(|p| p.len().max(1)).max().unwrap_or(1);
    for k in 1..=deepest {
        let mut ends: HashMap<String, usize> = HashMap::new();
        for &i in &distinct {
            *ends.entry(suffix(i, k)).or_default() += 1;
        }
        for &i in &distinct {
            let longest = parts[i].len().max(1);
            if k <= longest && !chosen.contains_key(paths[i]) && ends[&suffix(i, k)] == 1 {
                chosen.insert(paths[i], k);
            }
        }
    }
    let mut repeats: HashMap<&str, usize> = HashMap::new();
    let mut tags = Vec::with_capacity(paths.len());
    for i in 0..paths.len() {
        let longest = parts[i].len().max(1);
        let k = chosen.get(paths[i]).copied().unwrap_or(longest);
        let mut tag = suffix(i, k);
        let repeat = *repeats.entry(paths[i]).and_modify(|n| *n += 1).or_insert(0);
        if repeat > 0 {
            tag.push_str(&format!("#{}", repeat + 1));
        }
        tags.push(tag);
    }
    tags
}

impl CommandRuns {
    /// How the command is shown in reports: its name if it has one (a name
    /// of only blanks counts as none), else the command string. An empty
    /// command (which measures shell start-up) is shown as the shell with an
    /// empty argument, e.g. `/bin/sh -c ""`, which is literally what ran;
    /// without a shell (which cannot be run, but a file may say so) as
    /// `(empty)`.
    ///
    /// When the same command was read from several files, the label ends
    /// with the file's tag in brackets: `ls -l [a.csv]`.
    pub fn label(&self) -> Cow<'_, str> {
        self.tagged(self.base_label())
    }

    /// `text` (the label, or the command string in the CSV exports)
    /// followed by the source tag where there is one: `true [a.csv]`.
    pub fn tagged<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        if self.tag.is_empty() {
            text
        } else {
            Cow::Owned(format!("{text} [{}]", self.tag))
        }
    }

    /// `text` (a command string, in the CSV exports) followed by the
    /// parameter values that tell the command apart, where there are any:
    /// `cat data.txt (level = 2)`.
    pub fn with_parameters<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        if self.shown_parameters.is_empty() {
            text
        } else {
            Cow::Owned(format!("{text} ({})", self.shown_parameters))
        }
    }

    /// [`CommandRuns::label`] without the source tag: the name or command,
    /// and the parameter values that tell it apart
    /// ([`CommandRuns::shown_parameters`]).
    pub fn base_label(&self) -> Cow<'_, str> {
        self.with_parameters(self.text_label())
    }

    /// The name or command alone.
    fn text_label(&self) -> Cow<'_, str> {
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

    /// Whether `run` belongs to this command (within one source).
    fn is_for(&self, run: &RunRecord) -> bool {
        self.is_for_key(&Key::of(run))
    }

    fn is_for_key(&self, key: &Key<'_>) -> bool {
        self.batch == key.batch
            && self.command == key.command
            && self.shell == key.shell
            && self.name == key.name
            && self.parameters == key.parameters
    }

    /// Appends runs `range` of `rows` as [`CommandRuns::push`] would
    /// append each: `slots` are the stored metrics of a catalogue whose
    /// index bound is `bound`, each with its slot in `rows`, if any.
    fn push_rows(
        &mut self,
        rows: &Rows<'_>,
        range: std::ops::Range<usize>,
        slots: &[(Metric, Option<usize>)],
        bound: usize,
    ) {
        let n = self.len;
        if self.metrics.len() < bound {
            self.metrics.resize_with(bound, Column::default);
        }
        for &(metric, slot) in slots {
            let column = &mut self.metrics[metric.index()];
            // A metric registered after this command's first runs.
            while column.len() < n {
                column.push(None);
            }
            match slot {
                Some(s) => column.push_ints(&rows.column(s)[range.clone()]),
                None => range.clone().for_each(|_| column.push(None)),
            }
        }
        // Exit code and Timed out as integers, the others absent where the
        // row has none; the sequence number's bits as they are (as `push`).
        for (column, s) in [
            (&mut self.exit_code, slot::EXIT_CODE),
            (&mut self.signal, slot::SIGNAL),
            (&mut self.timed_out, slot::TIMED_OUT),
            (&mut self.sequence, slot::SEQUENCE),
            (&mut self.start_unix_us, slot::START),
        ] {
            column.push_ints(&rows.column(s)[range.clone()]);
        }
        self.len += range.len();
    }

    /// Appends `run`: its value of each of the `stored` metrics (a
    /// catalogue's, whose index bound is `bound`) and its attributes.
    fn push(&mut self, run: &RunRecord, stored: &[Metric], bound: usize) {
        let n = self.len;
        if self.metrics.len() < bound {
            self.metrics.resize_with(bound, Column::default);
        }
        for &metric in stored {
            let column = &mut self.metrics[metric.index()];
            // A metric registered after this command's first runs.
            while column.len() < n {
                column.push(None);
            }
            column.push(run.metrics.stored(metric));
        }
        let int = |v: i64| Some(Value::Int(v));
        self.exit_code
            .push(int(run.exit_code.into()).filter(|_| !run.no_exit_code));
        self.signal.push(run.signal.and_then(|s| int(s.into())));
        self.timed_out.push(int(run.timed_out.into()));
        // Stored bit for bit: every u64 reads back.
        self.sequence.push(run.sequence.and_then(|s| int(s as i64)));
        self.start_unix_us.push(run.start_unix_us.and_then(int));
        if run.signal_unknown {
            self.signal_unknown.push(n);
        }
        self.len += 1;
    }

    fn shrink_to_fit(&mut self) {
        let n = self.len;
        for c in &mut self.metrics {
            if !c.is_empty() {
                while c.len() < n {
                    c.push(None);
                }
            }
            c.shrink_to_fit();
        }
        for c in [
            &mut self.exit_code,
            &mut self.signal,
            &mut self.timed_out,
            &mut self.sequence,
            &mut self.start_unix_us,
        ] {
            c.shrink_to_fit();
        }
    }

    fn heap_bytes(&self) -> usize {
        let runs = [
            &self.exit_code,
            &self.signal,
            &self.timed_out,
            &self.sequence,
            &self.start_unix_us,
        ];
        runs.iter().map(|c| c.heap_bytes()).sum::<usize>()
            + self.signal_unknown.capacity() * std::mem::size_of::<usize>()
            + self.metrics.iter().map(Column::heap_bytes).sum::<usize>()
            + self.metrics.capacity() * std::mem::size_of::<Column>()
    }

    /// The value of `metric` in run `i` (derived metrics computed), if the
    /// run has it.
    pub fn value(&self, i: usize, metric: Metric) -> Option<Value> {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(a, b)) => self.value(i, a)?.sum(self.value(i, b)?),
            _ => self
                .metrics
                .get(metric.index())
                .filter(|c| c.len() > i)
                .and_then(|c| c.get(i)),
        }
    }

    /// Every run's value of `metric`, in execution order.
    pub fn values(&self, metric: Metric) -> impl Iterator<Item = Option<Value>> + '_ {
        let mut chunk = Vec::new();
        (0..self.len).step_by(RANGE).flat_map(move |start| {
            chunk.clear();
            self.values_range(metric, start..(start + RANGE).min(self.len), &mut chunk);
            std::mem::take(&mut chunk)
        })
    }

    /// Appends [`CommandRuns::value`] of runs `range` to `out`, a range at
    /// a time (derived metrics computed as there).
    pub fn values_range(
        &self,
        metric: Metric,
        range: std::ops::Range<usize>,
        out: &mut Vec<Option<Value>>,
    ) {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(a, b)) => {
                let start = out.len();
                self.values_range(a, range.clone(), out);
                let mut parts = Vec::with_capacity(range.len());
                self.values_range(b, range, &mut parts);
                for (x, y) in out[start..].iter_mut().zip(parts) {
                    *x = match (*x, y) {
                        (Some(x), Some(y)) => x.sum(y),
                        _ => None,
                    };
                }
            }
            _ => match self.metrics.get(metric.index()) {
                Some(c) if c.len() >= range.end => c.read_range(range, out),
                // A column shorter than the runs (one never pushed).
                _ => out.extend(range.map(|i| self.value(i, metric))),
            },
        }
    }

    /// Appends the run attribute `which` of runs `range` to `out`, as
    /// stored (absent where not recorded).
    pub fn attribute_range(
        &self,
        which: Attribute,
        range: std::ops::Range<usize>,
        out: &mut Vec<Option<Value>>,
    ) {
        self.attribute_column(which).read_range(range, out);
    }

    fn attribute_column(&self, which: Attribute) -> &Column {
        match which {
            Attribute::ExitCode => &self.exit_code,
            Attribute::Signal => &self.signal,
            Attribute::Sequence => &self.sequence,
            Attribute::Start => &self.start_unix_us,
        }
    }

    /// Appends [`CommandRuns::values_range`]'s values of runs `range` to
    /// `out` as integers and returns true, when every one of them is a
    /// present integer; otherwise returns false and leaves `out` as it
    /// was (the per-run exports then take the general path).
    pub fn ints_range(
        &self,
        metric: Metric,
        range: std::ops::Range<usize>,
        out: &mut Vec<i64>,
    ) -> bool {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(a, b)) => {
                let start = out.len();
                let mut parts = Vec::with_capacity(range.len());
                let sum = self.ints_range(a, range.clone(), out)
                    && self.ints_range(b, range, &mut parts)
                    && out[start..]
                        .iter_mut()
                        .zip(parts)
                        .all(|(x, y)| x.checked_add(y).map(|s| *x = s).is_some());
                if !sum {
                    out.truncate(start);
                }
                sum
            }
            _ => match self.metrics.get(metric.index()) {
                Some(c) if c.len() >= range.end => c.read_ints(range, out),
                _ => false,
            },
        }
    }

    /// [`CommandRuns::attribute_range`] as [`CommandRuns::ints_range`] is
    /// `values_range`: true and the integers, or false and nothing.
    pub fn attribute_ints(
        &self,
        which: Attribute,
        range: std::ops::Range<usize>,
        out: &mut Vec<i64>,
    ) -> bool {
        self.attribute_column(which).read_ints(range, out)
    }

    /// The values of `metric` that are present, one per run that has it, in
    /// execution order, failed runs included. Values are exact as `f64` up
    /// to 2^53 (285 years in microseconds).
    pub fn metric(&self, metric: Metric) -> Vec<f64> {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(..)) => self.values(metric).flatten().map(Value::as_f64).collect(),
            _ => match self.metrics.get(metric.index()) {
                Some(c) => c.present_f64(),
                None => Vec::new(),
            },
        }
    }

    /// Whether any run has a value of `metric`.
    pub fn has(&self, metric: Metric) -> bool {
        match metric.builtin().map(|d| d.source) {
            Some(Source::Sum(..)) => (0..self.len).any(|i| self.value(i, metric).is_some()),
            _ => self
                .metrics
                .get(metric.index())
                .is_some_and(Column::any_present),
        }
    }

    /// Whether any run has a recorded exit code (Hyperfine before 1.13
    /// recorded none).
    pub fn has_exit_codes(&self) -> bool {
        let mut codes = Vec::new();
        (0..self.len).step_by(RANGE).any(|start| {
            codes.clear();
            (self.exit_code).read_range(start..(start + RANGE).min(self.len), &mut codes);
            codes.iter().any(Option::is_some)
        })
    }

    /// Exit status of run `i` (128 + signal for a run ended by a signal; 0
    /// where none was recorded).
    pub fn exit_code(&self, i: usize) -> i32 {
        self.exit_code
            .get(i)
            .and_then(Value::as_int)
            .map_or(0, |v| v as i32)
    }

    /// The signal that ended run `i`, if one did.
    pub fn signal(&self, i: usize) -> Option<i32> {
        self.signal.get(i).and_then(Value::as_int).map(|v| v as i32)
    }

    /// The runs that lack a value of a stored metric that is not optional
    /// while other runs of this command have it, in order.
    pub fn incomplete_runs(&self, catalogue: &Catalogue) -> Vec<usize> {
        let mut runs: Vec<usize> = (catalogue.iter())
            .filter(|(m, def)| !def.optional && def.source == Source::Stored && self.has(*m))
            .flat_map(|(m, _)| self.runs_without(m))
            .collect();
        runs.sort_unstable();
        runs.dedup();
        runs
    }

    /// The runs without a value of `metric`, a stored one, in order.
    pub fn runs_without(&self, metric: Metric) -> Vec<usize> {
        match self.metrics.get(metric.index()) {
            Some(c) => c.absent_runs().chain(c.len()..self.len).collect(),
            None => (0..self.len).collect(),
        }
    }

    /// Whether a signal ended run `i` without its number being recorded
    /// ([`RunRecord::signal_unknown`]).
    pub fn signal_unknown(&self, i: usize) -> bool {
        self.signal_unknown.binary_search(&i).is_ok()
    }

    /// Whether a signal ended some run without its number being recorded.
    pub fn any_signal_unknown(&self) -> bool {
        !self.signal_unknown.is_empty()
    }

    /// Whether run `i` was killed by `--timeout`.
    pub fn timed_out(&self, i: usize) -> bool {
        self.timed_out.get(i) == Some(Value::Int(1))
    }

    /// Run `i`'s position in the experiment's execution order, if recorded.
    pub fn sequence(&self, i: usize) -> Option<u64> {
        self.sequence
            .get(i)
            .and_then(Value::as_int)
            .map(|v| v as u64)
    }

    /// When run `i` started (µs since the Unix epoch), if recorded.
    pub fn start_unix_us(&self, i: usize) -> Option<i64> {
        self.start_unix_us.get(i).and_then(Value::as_int)
    }

    /// Whether run `i` failed (non-zero exit, signal, or time-out).
    pub fn run_failed(&self, i: usize) -> bool {
        self.exit_code(i) != 0
            || self.signal(i).is_some()
            || self.signal_unknown(i)
            || self.timed_out(i)
    }

    /// Run `i` as a record (its command's text, its batch after any offset).
    pub fn record(&self, i: usize, catalogue: &Catalogue) -> RunRecord {
        let mut r = RunRecord {
            command: self.command.clone(),
            shell: self.shell.clone(),
            name: self.name.clone(),
            batch: self.batch,
            parameters: self.parameters.clone(),
            exit_code: self.exit_code(i),
            no_exit_code: self.exit_code.get(i).is_none(),
            sequence: self.sequence(i),
            start_unix_us: self.start_unix_us(i),
            signal: self.signal(i),
            signal_unknown: self.signal_unknown(i),
            timed_out: self.timed_out(i),
            ..RunRecord::default()
        };
        for (metric, def) in catalogue.iter() {
            if def.source == Source::Stored {
                r.metrics.set(metric, self.value(i, metric));
            }
        }
        r
    }

    /// Number of runs that failed (non-zero exit, signal, or time-out).
    pub fn failed(&self) -> usize {
        let (mut codes, mut signals, mut timeouts) = (Vec::new(), Vec::new(), Vec::new());
        let mut failed = 0;
        for start in (0..self.len).step_by(RANGE) {
            let range = start..(start + RANGE).min(self.len);
            for (v, c) in [
                (&mut codes, &self.exit_code),
                (&mut signals, &self.signal),
                (&mut timeouts, &self.timed_out),
            ] {
                v.clear();
                c.read_range(range.clone(), v);
            }
            // As `run_failed`: an exit code other than 0, a signal, a 1
            // in Timed out, a signal not named.
            failed += (0..range.len())
                .filter(|&k| {
                    let code = codes[k].and_then(Value::as_int).map_or(0, |v| v as i32);
                    code != 0
                        || signals[k].is_some()
                        || timeouts[k] == Some(Value::Int(1))
                        || self.signal_unknown(start + k)
                })
                .count();
        }
        failed
    }

    /// Whether any run timed out.
    pub fn any_timed_out(&self) -> bool {
        let mut flags = Vec::new();
        (0..self.len).step_by(RANGE).any(|start| {
            flags.clear();
            (self.timed_out).read_range(start..(start + RANGE).min(self.len), &mut flags);
            flags.contains(&Some(Value::Int(1)))
        })
    }

    /// Calls `f` with every run's sequence number (as
    /// [`CommandRuns::sequence`]), in file order, a range of runs at a time.
    fn each_sequence(&self, mut f: impl FnMut(Option<u64>)) {
        let (mut ints, mut raw) = (Vec::new(), Vec::new());
        for start in (0..self.len).step_by(RANGE) {
            let range = start..(start + RANGE).min(self.len);
            ints.clear();
            if self.sequence.read_ints(range.clone(), &mut ints) {
                ints.iter().for_each(|&v| f(Some(v as u64)));
            } else {
                raw.clear();
                self.sequence.read_range(range, &mut raw);
                raw.iter()
                    .for_each(|v| f(v.and_then(Value::as_int).map(|v| v as u64)));
            }
        }
    }

    /// Every run's sequence number (as [`CommandRuns::sequence`]), in
    /// file order.
    pub fn sequences(&self) -> Vec<Option<u64>> {
        let mut out = Vec::with_capacity(self.len);
        self.each_sequence(|v| out.push(v));
        out
    }

    /// Number of runs.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &str, batch: u64, user_us: i64) -> RunRecord {
        RunRecord {
            command: command.into(),
            batch,
            ..RunRecord::default()
        }
        .with(Metric::USER, user_us)
    }

    fn shape(d: &Dataset) -> Vec<(String, u64, Vec<i64>)> {
        d.commands
            .iter()
            .map(|c| {
                let users = c
                    .values(Metric::USER)
                    .map(|v| v.and_then(Value::as_int).unwrap())
                    .collect();
                (c.command.clone(), c.batch, users)
            })
            .collect()
    }

    fn from_sources(sources: Vec<Vec<RunRecord>>) -> Dataset {
        let mut b = DatasetBuilder::new(Catalogue::new());
        for records in sources {
            b.next_source();
            records.iter().for_each(|r| b.push(r));
        }
        b.finish()
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
    fn a_different_command_under_the_same_batch_is_another_command() {
        let mut named = run("first", 1, 3);
        named.name = "other".into();
        let d = Dataset::from_records(vec![
            run("first", 1, 1),
            run("changed", 1, 2),
            named,
            run("first", 1, 4),
        ]);
        assert_eq!(
            shape(&d),
            vec![
                ("first".into(), 1, vec![1, 4]),
                ("changed".into(), 1, vec![2]),
                ("first".into(), 1, vec![3]),
            ]
        );
        assert_eq!(d.commands[2].name, "other");
    }

    #[test]
    fn sources_are_offset_by_the_largest_batch_so_far() {
        let file = || vec![run("a", 1, 1), run("b", 2, 2)];
        let d = from_sources(vec![file(), file()]);
        let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
        assert_eq!(batches, [1, 2, 3, 4]);
        assert_eq!(d.commands[2].record(0, &d.catalogue).batch, 3);

        // Interleaved first file ending with batch 1: offset by 2, not 1.
        let d = from_sources(vec![
            vec![run("a", 2, 1), run("b", 1, 2)],
            vec![run("c", 1, 3)],
        ]);
        assert_eq!(shape(&d)[2], ("c".into(), 3, vec![3]));
    }

    #[test]
    fn batch_zero_in_a_later_source_does_not_collide() {
        let d = from_sources(vec![
            vec![run("a", 0, 1), run("b", 3, 1)],
            vec![run("c", 0, 1), run("d", 1, 1)],
        ]);
        let batches: Vec<u64> = d.commands.iter().map(|c| c.batch).collect();
        assert_eq!(batches, [0, 3, 4, 5]);
    }

    #[test]
    fn huge_batches_saturate_but_still_group_apart() {
        let d = from_sources(vec![
            vec![run("a", u64::MAX, 1)],
            vec![run("b", 5, 2), run("c", 6, 3)],
        ]);
        assert_eq!(d.commands.len(), 3);
        assert_eq!(d.commands[2].len(), 1);
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
    fn parameters_tell_look_alike_commands_apart() {
        let run = |command: &str, batch: u64, level: &str, size: &str| RunRecord {
            command: command.into(),
            batch,
            parameters: vec![("level".into(), level.into()), ("size".into(), size.into())],
            ..RunRecord::default()
        };
        let d = Dataset::from_records([
            run("gzip -1", 1, "1", "9"),
            run("cat data", 2, "1", "9"),
            run("gzip -2", 3, "2", "9"),
            run("cat data", 4, "2", "9"),
        ]);
        let labels: Vec<String> = d.commands.iter().map(|c| c.label().into_owned()).collect();
        assert_eq!(
            labels,
            [
                "gzip -1",
                "cat data (level = 1)",
                "gzip -2",
                "cat data (level = 2)"
            ]
        );
    }

    fn full(user: i64) -> RunRecord {
        run("a", 1, user)
            .with(Metric::SYSTEM, 5)
            .with(Metric::WALL, 20)
            .with(Metric::MAXRSS, 4096)
            .with(Metric::MINOR_FAULTS, 7)
            .with(Metric::MAJOR_FAULTS, 0)
            .with(Metric::VOLUNTARY_CSW, 2)
            .with(Metric::INVOLUNTARY_CSW, 3)
    }

    #[test]
    fn metrics_and_failures() {
        let ok = full(10);
        let failed = RunRecord {
            exit_code: 1,
            ..full(10)
        };
        let killed = RunRecord {
            signal: Some(9),
            ..full(1)
        };
        let d = Dataset::from_records(vec![ok, failed, killed]);
        let c = &d.commands[0];
        assert_eq!(c.metric(Metric::TOTAL), [15.0, 15.0, 6.0]);
        assert_eq!(c.metric(Metric::USER), [10.0, 10.0, 1.0]);
        assert_eq!(c.metric(Metric::SYSTEM), [5.0; 3]);
        assert_eq!(c.metric(Metric::WALL), [20.0; 3]);
        assert_eq!(c.metric(Metric::MAXRSS), [4096.0; 3]);
        assert_eq!(c.metric(Metric::VOLUNTARY_CSW), [2.0; 3]);
        assert_eq!(c.metric(Metric::INVOLUNTARY_CSW), [3.0; 3]);
        assert_eq!(c.metric(Metric::TOTAL_CSW), [5.0; 3]);
        assert_eq!(c.failed(), 2);
        assert_eq!(d.run_count(), 3);
        assert_eq!((c.exit_code(1), c.signal(2)), (1, Some(9)));
    }

    #[test]
    fn records_read_back_whole() {
        let runs = vec![
            RunRecord {
                sequence: Some(u64::MAX),
                start_unix_us: Some(-5),
                signal: Some(15),
                timed_out: true,
                exit_code: 143,
                ..full(1)
            },
            RunRecord {
                sequence: Some(2),
                ..full(i64::MAX - 5)
            },
        ];
        let d = Dataset::from_records(runs.clone());
        let back: Vec<RunRecord> = (0..2)
            .map(|i| d.commands[0].record(i, &d.catalogue))
            .collect();
        assert_eq!(back, runs);
    }

    #[test]
    fn absent_values_are_absent_never_zero() {
        let mut catalogue = Catalogue::new();
        let custom = catalogue
            .register(super::super::metric::MetricDef {
                name: "score".into(),
                column: "score (num)".into(),
                raw: super::super::metric::RawColumn::Appended,
                key: "score".into(),
                label: "score".into(),
                row_label: "score".into(),
                unit: super::super::metric::Unit::Number,
                integer: false,
                optional: true,
                summary_row: true,
                source: Source::Stored,
                wire: None,
            })
            .unwrap();
        let mut with = run("a", 1, 1);
        with.metrics.set(custom, Some(Value::Real(2.5)));
        let d = Dataset::from_records_with(catalogue, vec![run("a", 1, 1), with, run("b", 2, 1)]);
        assert_eq!(d.commands[0].metric(custom), [2.5]);
        assert_eq!(d.commands[0].value(0, custom), None);
        assert!(d.commands[0].has(custom) && !d.commands[1].has(custom));
        assert!(d.commands[1].metric(custom).is_empty());
        // Parts missing: the total is absent too.
        assert!(!d.commands[0].has(Metric::TOTAL));
        assert_eq!(d.commands[0].value(0, Metric::WALL), None);
    }

    #[test]
    fn a_million_runs_of_a_typical_command_are_small() {
        let mut b = DatasetBuilder::new(Catalogue::new());
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for i in 0..100_000u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let jitter = (state % 2000) as i64;
            let r = RunRecord {
                command: "ls -l".into(),
                batch: 1,
                sequence: Some(i + 1),
                start_unix_us: Some(1_700_000_000_000_000 + 3000 * i as i64),
                ..full(1000 + jitter)
            }
            .with(Metric::WALL, 2000 + jitter)
            .with(Metric::MAXRSS, 2_000_000 + 4096 * (jitter % 16));
            b.push(&r);
        }
        let d = b.finish();
        let per_run = d.heap_bytes() as f64 / 100_000.0;
        assert!(per_run < 20.0, "{per_run} bytes per run");
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
        let header = crate::data::csv_write::header_line();
        let data = format!("{header}c,,,1,0,1,1,1,1,1,1,1,1,2,2\n");
        let data = data.as_str();
        let d = Dataset::read_paths(&["-".to_string()], data.as_bytes()).unwrap();
        assert_eq!(d.run_count(), 1);
        let e = Dataset::read_paths(&["-".to_string(), "-".to_string()], data.as_bytes());
        assert!(matches!(e, Err(DataError::StdinTwice { .. })), "{e:?}");
        let e = Dataset::read_paths(&["-".to_string()], format!("{header}bad\n").as_bytes())
            .unwrap_err();
        assert!(
            e.to_string().starts_with("<stdin>: line 2, column 2"),
            "{e}"
        );
    }
    #[test]
    fn sequences_are_each_run_s_sequence_across_ranges() {
        // Whole ranges with every number, and ranges with an absent one or
        // one beyond i64 (stored as the u64's bits).
        let n = 3 * RANGE + 17;
        let records = (0..n).map(|i| RunRecord {
            sequence: match i {
                _ if i == RANGE + 5 => None,
                _ if i == 2 * RANGE + 1 => Some(u64::MAX),
                _ => Some(i as u64 * 3),
            },
            ..run("a", 1, 10)
        });
        let d = Dataset::from_records(records);
        let runs = &d.commands[0];
        let each: Vec<Option<u64>> = (0..n).map(|i| runs.sequence(i)).collect();
        assert_eq!(runs.sequences(), each);
        assert_eq!(each[RANGE + 5], None);
        assert_eq!(each[2 * RANGE + 1], Some(u64::MAX));
        assert_eq!(each[7], Some(21));
    }
}

//! Builds a [`Dataset`] one run at a time, source by source: runs of one
//! command (batch, command, shell, name and parameters) go to one
//! [`CommandRuns`], wherever they are in their source.

use std::collections::HashMap;

use super::{CommandRuns, Dataset, SourceMeans};
use crate::data::columns::AdaptiveRule;
use crate::data::csv_read::{RowSink, Rows};
use crate::data::metric::{Catalogue, Metric, Source};
use crate::data::RunRecord;

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
    /// As in C BestGuess, each source's batch numbers are offset by the
    /// largest batch number so far, so the same file given twice yields
    /// each command twice (`raw1.csv raw1.csv`: batches 1, 2, 3, 4). C
    /// BestGuess offsets by the previous file's *last* batch; the largest is
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

impl CommandRuns {
    /// Whether `run` belongs to this command (within one source).
    fn is_for(&self, run: &RunRecord) -> bool {
        self.is_for_key(&Key::of(run))
    }

    /// Whether runs of `key` belong to this command (within one source).
    fn is_for_key(&self, key: &Key<'_>) -> bool {
        self.batch == key.batch
            && self.command == key.command
            && self.shell == key.shell
            && self.name == key.name
            && self.parameters == key.parameters
    }
}

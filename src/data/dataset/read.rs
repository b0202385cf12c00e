//! A [`Dataset`] from records or from files: reading every source into one
//! builder, then the notes and tags that tell look-alike commands apart.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;

use super::{CommandRuns, Dataset, DatasetBuilder, SourceFile, STDIN_NAME};
use crate::data::error::DataError;
use crate::data::formats;
use crate::data::metric::Catalogue;
use crate::data::RunRecord;

impl Dataset {
    /// A sequence number that two runs of one experiment (a source's
    /// group) share, with the source: each run has its own, so a repeat
    /// means rows copied (a file appended to itself would double its runs
    /// and narrow every interval, without a word). A set of bits up to
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
    pub(super) fn read_paths(paths: &[String], stdin: impl io::Read) -> Result<Self, DataError> {
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
    pub(super) fn show_parameters(&mut self) {
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

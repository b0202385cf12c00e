//! What a command's runs hold: labels, values by metric or by range, run
//! attributes (exit code, signal, sequence, start), failures, and how runs
//! are stored into the columns.

use std::borrow::Cow;

use super::{Attribute, CommandRuns, RANGE};
use crate::data::column::Column;
use crate::data::csv_read::Rows;
use crate::data::fast_read::slot;
use crate::data::metric::{Catalogue, Metric, Source, Value};
use crate::data::RunRecord;

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

    /// Appends runs `range` of `rows` as [`CommandRuns::push`] would
    /// append each: `slots` are the stored metrics of a catalogue whose
    /// index bound is `bound`, each with its slot in `rows`, if any.
    pub(super) fn push_rows(
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
    pub(super) fn push(&mut self, run: &RunRecord, stored: &[Metric], bound: usize) {
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

    pub(super) fn shrink_to_fit(&mut self) {
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

    pub(super) fn heap_bytes(&self) -> usize {
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
    pub(super) fn each_sequence(&self, mut f: impl FnMut(Option<u64>)) {
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

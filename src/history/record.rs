//! One experiment as the history keeps it: provenance, settings, and
//! every run of every command packed ([`super::pack`]); and the way back,
//! from packed runs to the values of one metric.

use super::pack::{self, Column, PackError, Reader};
use super::provenance::{GitState, Machine};
use crate::data::metric::{recognise, Source};
use crate::data::{Catalogue, CommandRuns, Dataset, Metric};

/// An experiment to append.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// When it started, µs since the Unix epoch.
    pub time_us: i64,
    pub git: GitState,
    pub machine: Machine,
    /// The version of the tool that measured it (or imported it).
    pub tool_version: String,
    /// The settings of the experiment, as JSON text (the plan, the
    /// ranking's settings): kept, not interpreted.
    pub settings: String,
    /// Where the runs came from: `bestguess`, or the imported file.
    pub source: String,
    pub commands: Vec<CommandRecord>,
}

/// The runs of one command in one experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandRecord {
    /// Its position in the experiment, from 1.
    pub position: u32,
    /// The benchmark's name: the command's name, else its text, with the
    /// parameter values that tell it apart.
    pub name: String,
    pub command: String,
    pub shell: String,
    /// `name=value` pairs, `;`-separated (empty without parameters).
    pub parameters: String,
    pub runs: u32,
    pub failed: u32,
    /// The raw CSV column names of the metric columns in `data`, in order,
    /// joined by a newline.
    pub metrics: String,
    /// The attribute columns (exit code, signal, timed out, sequence,
    /// start), then one column per metric.
    pub data: Vec<u8>,
}

/// The attribute columns that precede the metrics in packed data.
const ATTRIBUTES: usize = 5;

impl CommandRecord {
    /// Packs every run of `c`.
    pub fn of(c: &CommandRuns, catalogue: &Catalogue, position: u32) -> CommandRecord {
        let n = c.len();
        let records: Vec<_> = (0..n).map(|i| c.record(i, catalogue)).collect();
        let mut data = Vec::with_capacity(16 * n + 16);
        pack::put_header(&mut data, n);
        let attribute = |f: &dyn Fn(&crate::data::RunRecord) -> Option<i64>| {
            Column::Ints(records.iter().map(f).collect())
        };
        for column in [
            attribute(&|r| (!r.no_exit_code).then_some(i64::from(r.exit_code))),
            attribute(&|r| r.signal.map(i64::from)),
            attribute(&|r| Some(i64::from(r.timed_out))),
            attribute(&|r| r.sequence.map(|s| s as i64)),
            attribute(&|r| r.start_unix_us),
        ] {
            pack::put_column(&mut data, &column);
        }
        let mut names = Vec::new();
        for (metric, def) in catalogue.iter() {
            if def.source != Source::Stored || !c.has(metric) {
                continue;
            }
            let column = if def.integer {
                Column::Ints(
                    (0..n)
                        .map(|i| c.value(i, metric).and_then(|v| v.as_int()))
                        .collect(),
                )
            } else {
                Column::Reals(
                    (0..n)
                        .map(|i| c.value(i, metric).map(|v| v.as_f64()))
                        .collect(),
                )
            };
            // A real value in an integer metric keeps its exactness.
            let column = match column {
                Column::Ints(v)
                    if v.iter().filter(|x| x.is_some()).count()
                        < (0..n).filter(|&i| c.value(i, metric).is_some()).count() =>
                {
                    Column::Reals(
                        (0..n)
                            .map(|i| c.value(i, metric).map(|v| v.as_f64()))
                            .collect(),
                    )
                }
                other => other,
            };
            pack::put_column(&mut data, &column);
            names.push(def.column.to_string());
        }
        CommandRecord {
            position,
            name: c.base_label().into_owned(),
            command: c.command.clone(),
            shell: c.shell.clone(),
            parameters: c
                .parameters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
            runs: u32::try_from(n).unwrap_or(u32::MAX),
            failed: u32::try_from(c.failed()).unwrap_or(u32::MAX),
            metrics: names.join("\n"),
            data,
        }
    }
}

impl Experiment {
    /// Every command of `dataset`, with the given provenance.
    pub fn of(
        dataset: &Dataset,
        time_us: i64,
        git: GitState,
        machine: Machine,
        settings: String,
        source: String,
    ) -> Experiment {
        Experiment {
            time_us,
            git,
            machine,
            tool_version: env!("CARGO_PKG_VERSION").to_owned(),
            settings,
            source,
            commands: dataset
                .commands
                .iter()
                .enumerate()
                .map(|(i, c)| CommandRecord::of(c, &dataset.catalogue, i as u32 + 1))
                .collect(),
        }
    }
}

/// Packed runs, unpacked: the attribute columns and the metric columns
/// by raw CSV column name.
#[derive(Clone, Debug, PartialEq)]
pub struct Runs {
    pub len: usize,
    pub exit_code: Column,
    pub signal: Column,
    pub timed_out: Column,
    pub sequence: Column,
    pub start: Column,
    pub metrics: Vec<(Metric, Column)>,
}

impl Runs {
    /// Unpacks `data` whose metric columns are named by `metrics` (raw CSV
    /// column names, one a line), registering the metrics it names in
    /// `catalogue`.
    pub fn unpack(
        metrics: &str,
        data: &[u8],
        catalogue: &mut Catalogue,
    ) -> Result<Runs, PackError> {
        Runs::unpack_only(metrics, data, catalogue, None)
    }

    /// [`Runs::unpack`], with only the metric columns that `wanted` needs
    /// (its parts, for a derived metric) when it is given.
    pub fn unpack_only(
        metrics: &str,
        data: &[u8],
        catalogue: &mut Catalogue,
        wanted: Option<Metric>,
    ) -> Result<Runs, PackError> {
        let needs = |m: Metric| match wanted {
            None => true,
            Some(w) => match w.builtin().map(|d| d.source) {
                Some(Source::Sum(a, b)) => m == a || m == b,
                _ => m == w,
            },
        };
        let mut r = Reader::new(data);
        let len = pack::header(&mut r)?;
        let mut attributes = Vec::with_capacity(ATTRIBUTES);
        for _ in 0..ATTRIBUTES {
            attributes.push(r.column(len)?);
        }
        let mut columns = Vec::new();
        for name in metrics.lines().filter(|l| !l.is_empty()) {
            let metric = match catalogue.by_column(name) {
                Some(m) => m,
                None => {
                    let def =
                        recognise(name).ok_or(PackError("a metric's name is not a column name"))?;
                    catalogue
                        .register(def)
                        .map_err(|_| PackError("a metric cannot be registered"))?
                }
            };
            if needs(metric) {
                columns.push((metric, r.column(len)?));
            } else {
                r.skip_column()?;
            }
        }
        if !r.at_end() {
            return Err(PackError("bytes after the last column"));
        }
        let mut a = attributes.into_iter();
        let mut next = || a.next().unwrap_or(Column::Ints(Vec::new()));
        Ok(Runs {
            len,
            exit_code: next(),
            signal: next(),
            timed_out: next(),
            sequence: next(),
            start: next(),
            metrics: columns,
        })
    }

    fn column(&self, metric: Metric) -> Option<&Column> {
        self.metrics
            .iter()
            .find(|(m, _)| *m == metric)
            .map(|(_, c)| c)
    }

    /// The present values of `metric` (a derived one computed from its
    /// parts, absent where either is), in run order.
    pub fn values(&self, metric: Metric) -> Vec<f64> {
        if let Some(Source::Sum(a, b)) = metric.builtin().map(|d| d.source) {
            let (Some(a), Some(b)) = (self.column(a), self.column(b)) else {
                return Vec::new();
            };
            return (0..self.len)
                .filter_map(|i| Some(a.get_f64(i)? + b.get_f64(i)?))
                .collect();
        }
        match self.column(metric) {
            Some(c) => (0..self.len).filter_map(|i| c.get_f64(i)).collect(),
            None => Vec::new(),
        }
    }

    /// Every metric these runs have values of: the stored ones, and each
    /// derived one whose parts are both there.
    pub fn metrics(&self, catalogue: &Catalogue) -> Vec<Metric> {
        catalogue
            .metrics()
            .filter(|&m| match m.builtin().map(|d| d.source) {
                Some(Source::Sum(a, b)) => self.column(a).is_some() && self.column(b).is_some(),
                _ => self.column(m).is_some(),
            })
            .collect()
    }

    /// How many runs failed (a non-zero exit, a signal, a time-out).
    pub fn failed(&self) -> usize {
        (0..self.len)
            .filter(|&i| {
                self.exit_code.get_f64(i).is_some_and(|c| c != 0.0)
                    || self.signal.get_f64(i).is_some()
                    || self.timed_out.get_f64(i).is_some_and(|t| t != 0.0)
            })
            .count()
    }
}

/// The name reports and `--metric` use for `metric`: the short name
/// `--metric` lists first where there is one (`cpu`, `rss`, `ctxsw`),
/// else the catalogue's (`wall`, `minflt`, `cost`).
pub fn metric_name(metric: Metric) -> String {
    match metric {
        Metric::TOTAL => "cpu".to_owned(),
        Metric::MAXRSS => "rss".to_owned(),
        Metric::TOTAL_CSW => "ctxsw".to_owned(),
        m => m.name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{RunRecord, Value};

    #[test]
    fn runs_read_back_as_they_were_measured() {
        let mut catalogue = Catalogue::new();
        let cost = catalogue
            .register(crate::data::MetricDef::appended(
                "cost",
                crate::data::Unit::Number,
            ))
            .unwrap();
        let runs = (0..7).map(|i| {
            let mut r = RunRecord {
                command: "work".into(),
                batch: 1,
                exit_code: if i == 3 { 1 } else { 0 },
                sequence: Some(i + 1),
                start_unix_us: Some(1_700_000_000_000_000 + 12_345 * i as i64),
                ..RunRecord::default()
            }
            .with(Metric::USER, 1000 + i as i64)
            .with(Metric::SYSTEM, 200)
            .with(Metric::WALL, 1500 - i as i64)
            .with(Metric::MAXRSS, 2_500_000 + 1024 * i as i64);
            r.metrics.set(cost, Value::real(2.5 * i as f64));
            r
        });
        let dataset = Dataset::from_records_with(catalogue.clone(), runs);
        let record = CommandRecord::of(&dataset.commands[0], &dataset.catalogue, 1);
        assert_eq!(record.runs, 7);
        assert_eq!(record.failed, 1);
        let mut read = Catalogue::new();
        let runs = Runs::unpack(&record.metrics, &record.data, &mut read).unwrap();
        assert_eq!(runs.failed(), 1);
        assert_eq!(
            runs.values(Metric::WALL),
            [1500.0, 1499.0, 1498.0, 1497.0, 1496.0, 1495.0, 1494.0]
        );
        assert_eq!(runs.values(Metric::TOTAL)[6], 1206.0);
        let cost = read.find("cost").unwrap();
        assert_eq!(runs.values(cost)[3], 7.5);
        assert!(runs.metrics(&read).contains(&Metric::TOTAL));
        assert_eq!(metric_name(Metric::TOTAL), "cpu");
        assert_eq!(metric_name(cost), "cost");
    }
}

//! The measurement extras as metrics: setting them up for an experiment
//! (the launcher's SETUP, the metrics file, the catalogue entries) and
//! turning each run's extras into that run's values.
//!
//! Every extra is an appended, optional metric of the catalogue
//! ([`crate::data::metric`]): a counter is `NAME (ns)` or `NAME (ct)`, a
//! command's own figure `NAME (number)`, the environment padding
//! `env-padding (bytes)`, and with hardware counters `scaled-counters (ct)`
//! says how many of a run's counter values are multiplexing estimates. From
//! there the raw CSV, the dataset, the reports, `--metric` and the JSON
//! treat them like any other metric. A value that was not measured (a
//! counter that never ran, a figure the command did not report) is absent.

use std::path::PathBuf;

use super::counters::{OpenFailure, Source};
use super::custom;
use super::extras::{self, ExtrasConfig, MeasureOptions, MetricsRead, RunExtras};
use super::platform;
use crate::data::{Catalogue, Metric, MetricDef, Unit, Value, Values};

/// Which catalogue entry each extra of a run fills.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtraMetrics {
    /// Per counter of the SETUP, in its order: its metric if it opened.
    counters: Vec<Option<Metric>>,
    /// How many counter values of the run are scaled estimates (registered
    /// only when a hardware counter opened: software ones never multiplex).
    scaled: Option<Metric>,
    padding: Option<Metric>,
    /// Declared custom metrics.
    custom: Vec<(String, Metric)>,
}

impl ExtraMetrics {
    /// Fill `values` from one run's extras; what was wrong with the
    /// command's metrics file, one line each (for warnings naming the run).
    pub fn fill(&self, extras: &RunExtras, values: &mut Values) -> Vec<String> {
        let mut scaled = 0;
        for (metric, raw) in self.counters.iter().zip(&extras.counters) {
            let Some(metric) = metric else { continue };
            if let Some(r) = raw.reading() {
                scaled += i64::from(r.scaled);
                let value = i64::try_from(r.value).unwrap_or(i64::MAX);
                values.set(*metric, Some(Value::Int(value)));
            }
        }
        if let Some(m) = self.scaled {
            values.set(m, Some(Value::Int(scaled)));
        }
        if let (Some(m), Some(pad)) = (self.padding, extras.env_padding) {
            values.set(m, Some(Value::Int(i64::from(pad))));
        }
        let mut notes = Vec::new();
        if let Some(bytes) = &extras.metrics {
            let (reported, problems) = custom::parse(bytes);
            notes.extend(problems.iter().map(|p| format!("$BESTGUESS_METRICS {p}")));
            for (name, value) in reported {
                match self.custom.iter().find(|(n, _)| *n == name) {
                    Some((_, m)) => values.set(*m, Some(Value::Real(value))),
                    None => notes.push(format!(
                        "$BESTGUESS_METRICS: '{name}' is not one of --custom-metrics ({}); ignored",
                        self.custom
                            .iter()
                            .map(|(n, _)| n.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }
            match extras.metrics_read {
                MetricsRead::Whole => {}
                MetricsRead::Cut => notes.push(format!(
                    "$BESTGUESS_METRICS: the file held more than {} bytes; the rest was ignored",
                    super::protocol::METRICS_MAX
                )),
                MetricsRead::NotAFile => notes.push(
                    "$BESTGUESS_METRICS: the command left something other than a regular file \
                     there (a FIFO, a device, a directory); not read"
                        .to_owned(),
                ),
                MetricsRead::Removed => notes.push(
                    "$BESTGUESS_METRICS: the command removed the file or its directory, so \
                     whatever it wrote there is lost (the next run gets both afresh); leave \
                     the file in place"
                        .to_owned(),
                ),
            }
        }
        notes
    }
}

/// A private directory for the metrics file, removed when dropped.
#[derive(Debug)]
pub struct MetricsDir(PathBuf);

impl MetricsDir {
    fn create() -> std::io::Result<MetricsDir> {
        use std::os::unix::fs::DirBuilderExt;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("bestguess-{}-{stamp}", std::process::id()));
        std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
        Ok(MetricsDir(dir))
    }

    pub fn file(&self) -> PathBuf {
        self.0.join("metrics")
    }
}

impl Drop for MetricsDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An experiment's extras, ready to send to the launcher: what to ask for,
/// and (once the launcher answered) which metrics to register.
#[derive(Debug)]
pub struct Plan {
    pub config: ExtrasConfig,
    pub dir: Option<MetricsDir>,
}

/// What to ask the launcher for. `seed` draws the environment padding.
pub fn plan(options: &MeasureOptions, seed: u64) -> Result<Plan, String> {
    if let (false, Some(why)) = (options.cpus.is_empty(), platform::pinning_unavailable()) {
        return Err(format!(
            "--cpus {}: {why}; leave --cpus out",
            extras::format_cpus(&options.cpus)
        ));
    }
    let dir = if options.custom_metrics.is_empty() {
        None
    } else {
        Some(MetricsDir::create().map_err(|e| {
            format!(
                "--custom-metrics: cannot create a private directory in {}: {e}; set TMPDIR to a writable directory",
                std::env::temp_dir().display()
            )
        })?)
    };
    Ok(Plan {
        config: ExtrasConfig {
            counters: options.counters.clone(),
            cpus: options.cpus.clone(),
            env_padding_seed: options.randomize_env.then_some(seed),
            metrics_file: dir.as_ref().map(MetricsDir::file),
        },
        dir,
    })
}

/// What the launcher's answer means: the catalogue entries to record
/// (registered in `catalogue`), and one note per counter that could not be
/// opened. Pinning or a metrics file that failed is an error: the user
/// asked for it and the results would not be what they think.
pub fn register(
    options: &MeasureOptions,
    config: &ExtrasConfig,
    reply: &extras::SetupReply,
    catalogue: &mut Catalogue,
) -> Result<(ExtraMetrics, Vec<String>), String> {
    let allowed = platform::allowed_cpus();
    let shown = allowed.clone().unwrap_or_else(|| "unknown".into());
    if reply.affinity_error != 0 {
        return Err(format!(
            "--cpus {}: cannot pin to these CPUs: {}; this process may use CPUs {shown}",
            extras::format_cpus(&options.cpus),
            std::io::Error::from_raw_os_error(reply.affinity_error)
        ));
    }
    // The kernel pins to the part of a set it can use and says nothing of
    // the rest: `--cpus 1-5` on two CPUs runs on CPU 1, which is refused
    // rather than recorded as 1-5.
    if let Some(Ok(usable)) = allowed.as_deref().map(extras::parse_cpus) {
        let missing: Vec<u32> = (options.cpus.iter())
            .filter(|c| !usable.contains(c))
            .copied()
            .collect();
        if !missing.is_empty() {
            let (cpus, are) = if missing.len() == 1 {
                ("CPU", "is")
            } else {
                ("CPUs", "are")
            };
            return Err(format!(
                "--cpus {}: {cpus} {} {are} not available; this process may use CPUs {shown}",
                extras::format_cpus(&options.cpus),
                extras::format_cpus(&missing)
            ));
        }
    }
    if reply.metrics_error != 0 {
        return Err(format!(
            "--custom-metrics: cannot create the metrics file: {}",
            std::io::Error::from_raw_os_error(reply.metrics_error)
        ));
    }
    let mut map = ExtraMetrics::default();
    let mut failed: Vec<(String, Vec<&str>)> = Vec::new();
    let paranoid = platform::perf_paranoid();
    let add = |def: MetricDef, catalogue: &mut Catalogue| {
        catalogue
            .register(def)
            .map_err(|e| format!("cannot record it: {e}"))
    };
    let mut hardware = false;
    for (c, &errno) in config.counters.iter().zip(&reply.counter_errors) {
        if errno != 0 {
            let why = OpenFailure {
                counter: c,
                errno,
                paranoid,
            }
            .reason();
            // One line per reason: the six hardware counters of a machine
            // without a PMU share one.
            match failed.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(c.name),
                None => failed.push((why, vec![c.name])),
            }
            map.counters.push(None);
            continue;
        }
        hardware |= c.source == Source::Hardware;
        let unit = if c.nanoseconds {
            Unit::Nanoseconds
        } else {
            Unit::Count
        };
        map.counters
            .push(Some(add(MetricDef::appended(c.name, unit), catalogue)?));
    }
    if hardware {
        map.scaled = Some(add(
            MetricDef::appended("scaled-counters", Unit::Count),
            catalogue,
        )?);
    }
    if config.env_padding_seed.is_some() {
        map.padding = Some(add(
            MetricDef::appended("env-padding", Unit::Bytes),
            catalogue,
        )?);
    }
    for name in &options.custom_metrics {
        let m = add(MetricDef::appended(name, Unit::Number), catalogue)
            .map_err(|e| format!("--custom-metrics {name}: {e}"))?;
        map.custom.push((name.clone(), m));
    }
    let notes = failed
        .into_iter()
        .map(|(why, names)| format!("{} not measured: {why}", names.join(", ")))
        .collect();
    Ok((map, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::counters::{by_name, RawReading};

    fn options() -> MeasureOptions {
        MeasureOptions {
            counters: vec![by_name("task-clock").unwrap(), by_name("cycles").unwrap()],
            custom_metrics: vec!["tokens".into()],
            cpus: Vec::new(),
            randomize_env: true,
        }
    }

    #[test]
    fn metrics_are_registered_for_what_opened_and_filled_per_run() {
        let options = options();
        let plan = plan(&options, 9).unwrap();
        assert!(plan
            .config
            .metrics_file
            .as_ref()
            .unwrap()
            .parent()
            .unwrap()
            .is_dir());
        let reply = extras::SetupReply {
            counter_errors: vec![0, libc::ENOENT],
            affinity_error: 0,
            metrics_error: 0,
        };
        let mut catalogue = Catalogue::new();
        let (map, notes) = register(&options, &plan.config, &reply, &mut catalogue).unwrap();
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("cycles not measured: "));
        let columns: Vec<&str> = catalogue
            .appended()
            .map(|(_, d)| d.column.as_ref())
            .collect();
        assert_eq!(
            columns,
            ["task-clock (ns)", "env-padding (bytes)", "tokens (number)"],
            "no column for a counter that did not open, none for scaling without hardware counters"
        );
        let extras = RunExtras {
            env_padding: Some(17),
            counters: vec![
                RawReading {
                    value: 5000,
                    enabled_ns: 10,
                    running_ns: 10,
                },
                RawReading::default(),
            ],
            metrics: Some(b"tokens 2.5\nother 1\nbad\n".to_vec()),
            metrics_read: MetricsRead::Whole,
            notes: Vec::new(),
        };
        let mut values = Values::new();
        let notes = map.fill(&extras, &mut values);
        let get = |name: &str| values.get(catalogue.find(name).unwrap());
        assert_eq!(get("task-clock"), Some(Value::Int(5000)));
        assert_eq!(get("env-padding"), Some(Value::Int(17)));
        assert_eq!(get("tokens"), Some(Value::Real(2.5)));
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("line 3 'bad'"));
        assert!(notes[1].contains("'other' is not one of --custom-metrics (tokens)"));
        // A counter that never ran and a figure not reported are absent.
        let never = RunExtras {
            counters: vec![RawReading::default(), RawReading::default()],
            metrics: Some(Vec::new()),
            ..extras
        };
        let mut values = Values::new();
        assert!(map.fill(&never, &mut values).is_empty());
        assert_eq!(values.get(catalogue.find("task-clock").unwrap()), None);
        assert_eq!(values.get(catalogue.find("tokens").unwrap()), None);
        let dir = plan.dir.as_ref().unwrap().0.clone();
        drop(plan);
        assert!(!dir.exists(), "the private directory is removed");
    }

    #[test]
    fn hardware_counters_bring_the_scaled_count_and_failures_stop_pinning() {
        let options = MeasureOptions {
            counters: vec![by_name("cycles").unwrap()],
            ..MeasureOptions::default()
        };
        let plan = plan(&options, 0).unwrap();
        let ok = extras::SetupReply {
            counter_errors: vec![0],
            ..Default::default()
        };
        let mut catalogue = Catalogue::new();
        let (map, _) = register(&options, &plan.config, &ok, &mut catalogue).unwrap();
        let extras = RunExtras {
            counters: vec![RawReading {
                value: 10,
                enabled_ns: 4,
                running_ns: 1,
            }],
            ..RunExtras::default()
        };
        let mut values = Values::new();
        map.fill(&extras, &mut values);
        assert_eq!(
            values.get(catalogue.find("cycles").unwrap()),
            Some(Value::Int(40))
        );
        assert_eq!(
            values.get(catalogue.find("scaled-counters").unwrap()),
            Some(Value::Int(1))
        );
        let pinned = MeasureOptions {
            cpus: vec![7],
            ..MeasureOptions::default()
        };
        let bad = extras::SetupReply {
            affinity_error: libc::EINVAL,
            ..Default::default()
        };
        let e = register(&pinned, &plan.config, &bad, &mut Catalogue::new()).unwrap_err();
        assert!(e.starts_with("--cpus 7: cannot pin"), "{e}");
    }
}

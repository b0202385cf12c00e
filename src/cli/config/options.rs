//! Single options' values: counts, durations, percentages, the seed,
//! the action, the gate's and the exports' options, the extras to measure.

use std::time::Duration;

use super::super::lowargs::Args;
use super::super::UsageError;
use super::ConfigError;
use crate::analysis::resolve_metric;
use crate::data::Catalogue;
use crate::export::{self, Format, JsonRuns};
use crate::gate::GateOptions;
use crate::measure::extras::{self, MeasureOptions};
use crate::measure::{counters, custom};

/// `--fail-if-slower PCT`, if given.
pub(super) fn margin(args: &Args) -> Result<Option<f64>, UsageError> {
    Ok(match args.fail_if_slower.as_deref() {
        None => None,
        Some(v) => Some(
            v.trim()
                .trim_end_matches('%')
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| {
                    UsageError(format!(
                        "--fail-if-slower expects a percentage of 0 or more, such as 5, got '{v}'"
                    ))
                })?,
        ),
    })
}

/// `--baseline FILE` and `--fail-if-slower PCT` (only with a baseline, or
/// with `--history`, whose gate takes it).
pub(super) fn gate_options(args: &Args) -> Result<Option<GateOptions>, UsageError> {
    let margin = margin(args)?;
    match &args.baseline {
        None if margin.is_some() && args.history.is_some() => Ok(None),
        None if margin.is_some() => Err(UsageError(
            "--fail-if-slower needs --baseline FILE or --history: the raw data or the history to compare with".into(),
        )),
        None => Ok(None),
        Some(path) if path.is_empty() => Err(UsageError(
            "--baseline is empty: give the raw data file of the baseline".into(),
        )),
        Some(path) => {
            if path == "-" && args.positional.iter().any(|p| p.text == "-") {
                return Err(UsageError(
                    "--baseline - and a data file - both read standard input; give the baseline a file name".into(),
                ));
            }
            Ok(Some(GateOptions {
                baseline: path.clone(),
                fail_if_slower: margin,
            }))
        }
    }
}

/// `--json-runs LIST`, which only says what `--export-json` writes: without
/// that export it would do nothing, so it is refused rather than ignored.
pub(super) fn export_options(args: &Args) -> Result<export::Options, UsageError> {
    let Some(list) = args.json_runs.as_deref() else {
        return Ok(export::Options::default());
    };
    let json_runs = JsonRuns::parse(list).map_err(UsageError)?;
    if !args.exports.iter().any(|(f, _)| *f == Format::Json) {
        return Err(UsageError(
            "--json-runs says which per-run data --export-json writes; give --export-json FILE too, or leave --json-runs out".into(),
        ));
    }
    Ok(export::Options { json_runs })
}

/// Whether `-A` (or, without it, the program's name) asks to run commands.
pub(super) fn running(action: Option<&str>, default_running: bool) -> Result<bool, UsageError> {
    match action {
        None => Ok(default_running),
        Some("run") => Ok(true),
        Some("report") => Ok(false),
        Some(other) => Err(UsageError(format!(
            "unknown action '{other}': use -A run (run an experiment) or -A report (read raw data)"
        ))),
    }
}

/// `--custom-metrics`: the names, each also free of every name the tool
/// gives a metric of its own — built-in ones, `--metric`'s short names
/// (`rss` would otherwise rank by Max RSS, not the command's `rss`) and
/// counters — a usage error before anything runs.
pub(super) fn custom_metric_names(list: &str) -> Result<Vec<String>, UsageError> {
    let names = custom::parse_names(list).map_err(UsageError)?;
    let builtin = Catalogue::new();
    for name in &names {
        let taken = resolve_metric(name, &builtin).is_ok()
            || counters::by_name(&name.to_ascii_lowercase()).is_some();
        if taken {
            return Err(UsageError(format!(
                "--custom-metrics: '{name}' is already the name of a metric bestguess measures \
                 (see --metric and --counters); choose another name"
            )));
        }
    }
    Ok(names)
}

/// The extras to measure: counters, custom metrics, pinning, padding.
pub(super) fn measure_options(args: &Args) -> Result<MeasureOptions, ConfigError> {
    Ok(MeasureOptions {
        counters: match args.counters.as_deref() {
            Some(list) => counters::parse_list(list).map_err(UsageError)?,
            None => Vec::new(),
        },
        custom_metrics: match args.custom_metrics.as_deref() {
            Some(names) => custom_metric_names(names)?,
            None => Vec::new(),
        },
        cpus: match args.cpus.as_deref() {
            Some(list) => extras::parse_cpus(list).map_err(UsageError)?,
            None => Vec::new(),
        },
        randomize_env: args.randomize_env,
    })
}

/// `--seed`, if given.
pub(super) fn seed(args: &Args) -> Result<Option<u64>, UsageError> {
    Ok(match args.seed.as_deref() {
        None => None,
        Some(s) => Some(s.trim().parse::<u64>().map_err(|_| {
            UsageError(format!(
                "--seed expects a whole number from 0 to {}, got '{s}'",
                u64::MAX
            ))
        })?),
    })
}

/// `--timeout`, if given.
pub(super) fn timeout(args: &Args) -> Result<Option<Duration>, UsageError> {
    Ok(match args.timeout.as_deref() {
        None => None,
        Some(t) => Some(
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| (1e-6..=MAX_TIMEOUT).contains(s))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    UsageError(format!(
                        "--timeout expects a number of seconds from 0.000001 to {MAX_TIMEOUT:.0}, got '{t}'"
                    ))
                })?,
        ),
    })
}

/// A whole number from `min` to `max`.
pub(super) fn count(
    value: Option<&str>,
    option: &str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, UsageError> {
    let Some(v) = value else { return Ok(None) };
    match v.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        Ok(0) => Err(UsageError(format!(
            "{option} is 0, nothing to do: it must be a whole number from {min} to {max}"
        ))),
        _ => Err(UsageError(format!(
            "{option} expects a whole number from {min} to {max}, got '{v}'"
        ))),
    }
}

/// The largest `--timeout`, in seconds (about 31 years).
pub const MAX_TIMEOUT: f64 = 1e9;

/// Untimed runs of each command before its timed ones when `-w` is not
/// given: one, because a command's first run is a cold start (on average
/// 10 % slower in `bench/aa.sh`, and the slowest of 30 runs in one
/// command out of seven); `docs/measuring.md`, "Order and warm-up".
pub const DEFAULT_WARMUP: u64 = 1;

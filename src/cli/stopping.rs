//! `--runs auto` and its budget: `--min-runs`/`-m`, `--max-runs`,
//! `--max-time`, `--precision`, validated into the analysis's
//! [`StoppingRule`].

use std::time::Duration;

use super::lowargs::Args;
use super::UsageError;
use crate::analysis::StoppingRule;
use crate::experiment::MAX_RUNS;

/// How `bestreport` analyses the count of the runs it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunsAnalysis {
    /// No `--runs`: as the file records it (the rule of an adaptive
    /// experiment, whose header records it; else a fixed count).
    #[default]
    AsRecorded,
    /// `--runs auto` (and every `bestguess` experiment): the rule given.
    Given,
    /// `bestreport --runs fixed`: a fixed count, even of an adaptive
    /// experiment's runs.
    Fixed,
}

/// How `bestreport` analyses the runs' count (`bestguess`: as given).
pub fn analysis(args: &Args, running: bool) -> RunsAnalysis {
    match args.runs.as_deref().map(str::trim) {
        _ if running => RunsAnalysis::Given,
        None => RunsAnalysis::AsRecorded,
        Some("fixed") => RunsAnalysis::Fixed,
        Some(_) => RunsAnalysis::Given,
    }
}

/// The stopping rule: `Some` when the runs are (`bestguess`) or were
/// (`bestreport`) made by `--runs auto`, the default for `bestguess`
/// when `-r` is not given. For `bestreport` without `--runs` the file
/// decides ([`RunsAnalysis::AsRecorded`]).
pub fn rule(args: &Args, running: bool) -> Result<Option<StoppingRule>, UsageError> {
    let auto = match args.runs.as_deref().map(str::trim) {
        None => running,
        Some("auto") => true,
        Some(_) if running => false,
        Some("fixed") => false,
        Some(other) => {
            return Err(UsageError(format!(
                "--runs {other}: bestreport reads the runs a file holds; --runs auto analyses them as an adaptive experiment's, --runs fixed as a fixed count (leave --runs out: as the file records)"
            )))
        }
    };
    let given = [
        ("--min-runs", &args.min_runs),
        ("--max-runs", &args.max_runs),
        ("--max-time", &args.max_time),
        ("--precision", &args.precision),
    ];
    if !auto {
        if let Some((option, _)) = given.iter().find(|(_, v)| v.is_some()) {
            return Err(UsageError(format!(
                "{option} applies to --runs auto, and -r gives a fixed count: leave one of them out"
            )));
        }
        return Ok(None);
    }
    let mut rule = StoppingRule::default();
    if let Some(v) = &args.min_runs {
        rule.min_rounds = rounds(v, "-m/--min-runs")?;
    }
    if let Some(v) = &args.max_runs {
        rule.max_rounds = rounds(v, "--max-runs")?;
    }
    if rule.min_rounds > rule.max_rounds {
        return Err(UsageError(format!(
            "--min-runs {} is above --max-runs {}: the experiment could not keep both",
            rule.min_rounds, rule.max_rounds
        )));
    }
    if let Some(v) = &args.max_time {
        rule.max_time = duration(v)?;
        rule.max_time_given = true;
    }
    if let Some(v) = &args.precision {
        rule.precision = percent(v)? / 100.0;
    }
    Ok(Some(rule))
}

/// `--precision` is for one command: it says when that command's median
/// is known. With several, `--runs auto` stops when every comparison is
/// decided, and the precision would change nothing: refused, not ignored.
pub fn precision_for(commands: usize) -> Result<(), UsageError> {
    if commands > 1 {
        return Err(UsageError(format!(
            "--precision applies to one command (its median known within ±PCT), and there are \
             {commands}: with several, --runs auto runs until every comparison is decided; leave \
             --precision out"
        )));
    }
    Ok(())
}

fn rounds(v: &str, option: &str) -> Result<u64, UsageError> {
    match v.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_RUNS).contains(&n) => Ok(n),
        _ => Err(UsageError(format!(
            "{option} expects a whole number of rounds from 1 to {}, got '{v}'",
            MAX_RUNS
        ))),
    }
}

/// `90`, `90s`, `500ms`, `2m`, `1h`: a positive duration (seconds without
/// a unit, as Hyperfine's options).
pub fn duration(v: &str) -> Result<Duration, UsageError> {
    let t = v.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|x| x * scale)
        .filter(|s| (1e-3..=1e9).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            UsageError(format!(
                "--max-time expects a duration such as 30s, 500ms, 2m or 1h (from 1 ms), got '{v}'"
            ))
        })
}

/// `2%` or `2`: a percentage above 0 and below 100.
fn percent(v: &str) -> Result<f64, UsageError> {
    let t = v.trim();
    t.strip_suffix('%')
        .unwrap_or(t)
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p < 100.0)
        .ok_or_else(|| {
            UsageError(format!(
                "--precision expects a percentage above 0 and below 100, such as 2%, got '{v}'"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(runs: Option<&str>, max_time: Option<&str>) -> Args {
        Args {
            runs: runs.map(str::to_owned),
            max_time: max_time.map(str::to_owned),
            ..Args::default()
        }
    }

    #[test]
    fn auto_is_the_default_of_a_run_only() {
        assert_eq!(
            rule(&args(None, None), true),
            Ok(Some(StoppingRule::default()))
        );
        assert_eq!(rule(&args(Some("20"), None), true), Ok(None));
        assert_eq!(rule(&args(None, None), false), Ok(None));
        assert!(rule(&args(Some("auto"), None), false).unwrap().is_some());
        let e = rule(&args(Some("20"), None), false).unwrap_err();
        assert!(e.0.contains("--runs fixed as a fixed count"), "{}", e.0);
        // bestreport: as the file records, unless told.
        assert_eq!(rule(&args(Some("fixed"), None), false), Ok(None));
        assert_eq!(analysis(&args(None, None), false), RunsAnalysis::AsRecorded);
        assert_eq!(
            analysis(&args(Some("fixed"), None), false),
            RunsAnalysis::Fixed
        );
        assert_eq!(
            analysis(&args(Some("auto"), None), false),
            RunsAnalysis::Given
        );
        assert_eq!(analysis(&args(None, None), true), RunsAnalysis::Given);
        let e = rule(&args(Some("20"), Some("5s")), true).unwrap_err();
        assert!(e.0.contains("--max-time applies to --runs auto"), "{}", e.0);
    }

    #[test]
    fn durations_take_hyperfines_units() {
        let d = |v: &str| duration(v).map(|d| d.as_secs_f64());
        assert_eq!(d("90"), Ok(90.0));
        assert_eq!(d("90s"), Ok(90.0));
        assert_eq!(d("500ms"), Ok(0.5));
        assert_eq!(d("2m"), Ok(120.0));
        assert_eq!(d("1h"), Ok(3600.0));
        for bad in ["", "0", "-1s", "1x", "nan", "0.0001"] {
            assert!(duration(bad).is_err(), "{bad}");
        }
        assert_eq!(percent("2%"), Ok(2.0));
        assert!(percent("0").is_err() && percent("100%").is_err());
    }

    #[test]
    fn a_precision_is_for_one_command() {
        assert_eq!(precision_for(1), Ok(()));
        let e = precision_for(2).unwrap_err();
        assert!(
            e.0.starts_with("--precision applies to one command"),
            "{}",
            e.0
        );
        assert!(e.0.contains("there are 2") && e.0.contains("leave --precision out"));
    }
}

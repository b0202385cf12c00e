//! `-c name=value[,name=value…]` settings (BestGuess's `-x`/`-c`): strings
//! turned into the ranking's settings ([`RankingSettings`], owned by the
//! analysis, which holds their defaults and checks their ranges) and the
//! plot width (owned by the reports).

use super::UsageError;
use crate::analysis::{RankingSettings, Reference};
use crate::report::{GraphScale, WIDTH_RANGE};
use crate::stats::Threshold;

/// What `-c` sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// Width of the reports. `None`: the terminal's width (see `app`), 80
    /// when not on one.
    pub width: Option<usize>,
    /// The scale of the run graph (`-G`).
    pub graph_scale: GraphScale,
    /// The ranking's settings.
    pub ranking: RankingSettings,
    /// `-c alpha=` was given (`bestreport` keeps it over the α an
    /// adaptive experiment's file records).
    pub alpha_given: bool,
}

pub(crate) const NAMES: &str = "width, graph, alpha, epsilon, effect, best, sigma";

/// What shell completions offer after `-c`: each setting's `NAME=`.
pub fn completions() -> Vec<String> {
    NAMES.split(", ").map(|name| format!("{name}=")).collect()
}

impl Settings {
    /// Apply one `-c` argument: a comma-separated list of `name=value`.
    pub fn apply(&mut self, arg: &str) -> Result<(), UsageError> {
        for item in arg.split(',') {
            let item = item.trim();
            let Some((name, value)) = item.split_once('=') else {
                if let Some(e) = super::habits::cleanup_habit(arg) {
                    return Err(UsageError(e));
                }
                return Err(UsageError(format!(
                    "setting '{item}' has no value: write name=value (names: {NAMES})"
                )));
            };
            let (name, value) = (name.trim(), unquote(value.trim()));
            if value.is_empty() {
                return Err(UsageError(format!("setting '{name}' has an empty value")));
            }
            let mut ranking = self.ranking.clone();
            match name {
                "width" => {
                    let expected = format!(
                        "a whole number of columns from {} to {}",
                        WIDTH_RANGE.0, WIDTH_RANGE.1
                    );
                    let w: usize = value.parse().map_err(|_| bad(name, value, &expected))?;
                    if !(WIDTH_RANGE.0..=WIDTH_RANGE.1).contains(&w) {
                        return Err(bad(name, value, &expected));
                    }
                    self.width = Some(w);
                    continue;
                }
                "graph" => {
                    self.graph_scale = match value {
                        "common" => GraphScale::Common,
                        "each" => GraphScale::Each,
                        _ => return Err(bad(name, value, "common or each")),
                    };
                    continue;
                }
                "alpha" => {
                    // Below 1e-6 the levels of the intervals (1 − α over
                    // the family) cannot be told from 1 in a double.
                    let expected = "a number from 0.000001 up to 1 (exclusive)";
                    let alpha = number(name, value, expected)?;
                    if !(1e-6..1.0).contains(&alpha) {
                        return Err(bad(name, value, expected));
                    }
                    ranking.alpha = alpha;
                    self.alpha_given = true;
                }
                "super" => {
                    return Err(UsageError(format!(
                        "setting super={value} is no longer used: verdicts are decided on the ratio of medians, and the probability of superiority is shown by -E without deciding; remove the setting"
                    )))
                }
                "epsilon" => ranking.epsilon = amount(name, value)?,
                "effect" => ranking.effect = amount(name, value)?,
                "best" | "sigma" => {
                    let mut b = ranking.best_case;
                    if name == "best" {
                        b.k = value.parse().map_err(|_| {
                            bad(name, value, "a whole number of fastest runs, at least 2")
                        })?;
                    } else {
                        b.max_distance =
                            number(name, value, "a positive number of standard deviations")?;
                    }
                    ranking.best_case = b.validated().map_err(|e| {
                        UsageError(format!("setting {name}={value} is invalid: {e}"))
                    })?;
                }
                _ => {
                    return Err(UsageError(format!(
                        "unknown setting '{name}': the settings are {NAMES}"
                    )))
                }
            }
            ranking
                .validate()
                .map_err(|e| UsageError(format!("setting {name}={value} is invalid: {e}")))?;
            self.ranking = ranking;
        }
        Ok(())
    }

    /// Sets the reference command: a number (from 1) or a name.
    pub fn set_reference(&mut self, value: &str) -> Result<(), UsageError> {
        let value = value.trim();
        if value.is_empty() {
            return Err(UsageError(
                "--reference is empty: give a command's number (from 1) or its name".into(),
            ));
        }
        self.ranking.reference = Some(match value.parse::<usize>() {
            Ok(0) => {
                return Err(UsageError(
                    "--reference 0: commands are numbered from 1".into(),
                ))
            }
            Ok(n) => Reference::Number(n),
            Err(_) => Reference::Name(value.to_owned()),
        });
        Ok(())
    }

    /// The `--config` listing.
    pub fn describe(&self) -> String {
        let graph = match self.graph_scale {
            GraphScale::Common => "common",
            GraphScale::Each => "each",
        };
        format!(
            "  width = {}\n  graph = {graph}\n{}",
            self.width.map_or_else(
                || "auto (the terminal's, else 80)".to_owned(),
                |w| w.to_string()
            ),
            self.ranking.describe()
        )
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return &v[1..v.len() - 1];
        }
    }
    v
}

fn bad(name: &str, value: &str, expected: &str) -> UsageError {
    UsageError(format!(
        "setting {name}={value} is invalid: expected {expected}"
    ))
}

/// A finite number; the message says why `value` is not one and what is
/// accepted.
fn number(name: &str, value: &str, expected: &str) -> Result<f64, UsageError> {
    match value.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) if v.is_nan() => Err(bad(name, value, expected)),
        Ok(_) => Err(UsageError(format!(
            "setting {name}={value} is invalid: {value} is beyond the largest number this program can hold (about 1.8e308); expected {expected}"
        ))),
        Err(_) => Err(bad(name, value, expected)),
    }
}

fn amount(name: &str, value: &str) -> Result<Threshold, UsageError> {
    let expected =
        "a number of microseconds from 0 up (e.g. 500) or a percentage of the best median from 0% up (e.g. 2%)";
    let (digits, percent) = match value.strip_suffix('%') {
        Some(d) => (d.trim(), true),
        None => (
            value
                .strip_suffix("us")
                .or(value.strip_suffix("μs"))
                .unwrap_or(value)
                .trim(),
            false,
        ),
    };
    // Messages name the value as given (`5%%`, not `5%`).
    let v = number(name, digits, expected).map_err(|e| match digits.parse::<f64>() {
        Ok(v) if v.is_infinite() => e,
        _ => bad(name, value, expected),
    })?;
    if v < 0.0 {
        return Err(bad(name, value, expected));
    }
    Ok(if percent {
        Threshold::Percent(v)
    } else {
        Threshold::Absolute(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_analysis_defaults() {
        let s = Settings::default();
        assert_eq!(s.ranking, RankingSettings::default());
        assert!(s.describe().starts_with(
            "  width = auto (the terminal's, else 80)\n  graph = common\n  alpha = 0.05\n"
        ));
    }

    #[test]
    fn graph_scale() {
        let mut s = Settings::default();
        assert_eq!(s.graph_scale, GraphScale::Common);
        s.apply("graph=each").unwrap();
        assert_eq!(s.graph_scale, GraphScale::Each);
        let e = s.apply("graph=log").unwrap_err();
        assert!(e.0.contains("common or each"), "{e}");
    }

    #[test]
    fn lists_quotes_and_percentages() {
        let mut s = Settings::default();
        s.apply("width=100,alpha=\".01\"").unwrap();
        s.apply("effect=2%, epsilon=100us").unwrap();
        let e = s.apply("super=1").unwrap_err();
        assert!(e.0.contains("no longer used"), "{e}");
        assert_eq!(s.width, Some(100));
        assert_eq!(s.ranking.alpha, 0.01);
        assert_eq!(s.ranking.effect, Threshold::Percent(2.0));
        assert_eq!(s.ranking.epsilon, Threshold::Absolute(100.0));
        s.apply("best=5,sigma=4.5").unwrap();
        assert_eq!(s.ranking.best_case.k, 5);
        assert_eq!(s.ranking.best_case.max_distance, 4.5);
    }

    #[test]
    fn ranges_and_names_are_checked() {
        let mut s = Settings::default();
        for bad in [
            "width=30",
            "width=2000",
            "width=80.5",
            "alpha=0",
            "alpha=1",
            "alpha=1e-7",
            "alpha=x",
            "super=1.5",
            "effect=-1",
            "epsilon=nan",
            "bogus=1",
            "alpha",
            "alpha=",
            "effect=inf",
            "best=1",
            "best=2.5",
            "sigma=0",
            "sigma=-3",
        ] {
            assert!(s.apply(bad).is_err(), "{bad} should be rejected");
        }
        assert_eq!(s, Settings::default(), "a rejected setting changes nothing");
        assert!(s.apply("width=30").unwrap_err().0.contains("40 to 1024"));
        // Every message states the accepted range, and never a wrong reason.
        // The value as given, not as stripped of its %.
        let e = s.apply("effect=5%%").unwrap_err().0;
        assert!(e.starts_with("setting effect=5%% is invalid"), "{e}");
        let e = s.apply("effect=1e400").unwrap_err().0;
        assert!(
            e.contains("beyond the largest number") && e.contains("from 0 up"),
            "{e}"
        );
        assert!(!e.contains("negative"), "{e}");
        let e = s.apply("effect=-1").unwrap_err().0;
        assert!(e.contains("from 0 up"), "{e}");
        let e = s.apply("alpha=1e999").unwrap_err().0;
        assert!(e.contains("from 0.000001 up to 1"), "{e}");
        let e = s.apply("alpha=1e-300").unwrap_err().0;
        assert!(e.contains("from 0.000001 up to 1"), "{e}");
        s.apply("alpha=0.000001").unwrap();
        s.apply("alpha=0.05").unwrap();
        assert!(s
            .apply("alpha=1")
            .unwrap_err()
            .0
            .contains("alpha=1 is invalid"));
    }

    #[test]
    fn references_are_numbers_or_names() {
        let mut s = Settings::default();
        s.set_reference("2").unwrap();
        assert_eq!(s.ranking.reference, Some(Reference::Number(2)));
        s.set_reference("ls -l").unwrap();
        assert_eq!(s.ranking.reference, Some(Reference::Name("ls -l".into())));
        assert!(s.set_reference("0").is_err());
        assert!(s.set_reference(" ").is_err());
    }
}

//! The ranking's settings: one type, one set of defaults, one validation.
//!
//! Everything that changes what the ranking concludes lives here: the
//! significance level, the thresholds, the metric
//! of interest and the reference command. The command line (`-c`,
//! `--metric`, `--reference`) only turns strings into this type; the
//! analysis, the reports and the exports read it from the [`Analysis`](crate::analysis::Analysis)
//! (`crate::analysis::Analysis::settings`). The ranges are checked by
//! [`RankingSettings::validate`], which defers to the statistics engine's
//! own check ([`RankSettings::validate`]) so that there is one rule.

use std::fmt;

use super::{MetricFrom, StoppingRule};
use crate::data::columns::AdaptiveRule;
use crate::data::{CommandRuns, Dataset, Metric};
use crate::stats::{BestCaseSettings, RankSettings, SettingsError, Threshold};

/// The command every other command is compared with, when not the best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A command's number, counting from 1 in input order.
    Number(usize),
    /// A command's name (`-n`) or, failing that, its command text.
    Name(String),
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Number(n) => write!(f, "{n}"),
            Reference::Name(name) => write!(f, "{name}"),
        }
    }
}

/// What the verdict settings mean, as every report that lists them says
/// it (the `-E` settings table, the HTML export's).
pub mod meaning {
    pub const EFFECT: &str = "Slower beyond (lower bound above)";
    pub const EPSILON: &str = "Equivalent within ± (both bounds)";
    pub const ALPHA: &str = "Family-wise error rate, α";
}

/// The ranking's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingSettings {
    /// Significance level; 1 − the confidence of the intervals.
    pub alpha: f64,
    /// The smallest difference that matters (`effect`).
    pub effect: Threshold,
    /// The margin of a confidence interval's ends around zero (`epsilon`).
    pub epsilon: Threshold,
    /// The metric the ranking compares.
    pub metric: Metric,
    /// How `metric` was decided: given, or to be (or once) chosen from the
    /// data ([`super::metric_choice`]).
    pub metric_from: MetricFrom,
    /// The command to compare with; `None` is the best (chosen from the
    /// data).
    pub reference: Option<Reference>,
    /// The best-case estimate's settings (`-c best=`, `-c distance=`): a
    /// diagnostic beside the ranking, which it does not change.
    pub best_case: BestCaseSettings,
    /// The runs came from an adaptive experiment (`--runs auto`) with this
    /// rule: the verdicts are those of its last look, at that look's level.
    pub adaptive: Option<StoppingRule>,
}

impl Default for RankingSettings {
    /// α = 0.05; effect and epsilon 1 % of the reference's median (on the
    /// ratio of medians); total CPU time; against the best. Why these
    /// values: `docs/statistics.md` ("Ranking", its thresholds).
    fn default() -> Self {
        RankingSettings {
            alpha: 0.05,
            effect: Threshold::Percent(1.0),
            epsilon: Threshold::Percent(1.0),
            metric: Metric::TOTAL,
            metric_from: MetricFrom::Given,
            reference: None,
            best_case: BestCaseSettings::default(),
            adaptive: None,
        }
    }
}

impl RankingSettings {
    /// The parameters of the statistical rule.
    pub fn rule(&self) -> RankSettings {
        RankSettings {
            alpha: self.alpha,
            epsilon: self.epsilon,
            effect: self.effect,
        }
    }

    /// The adaptive experiment's rule as the raw file records it, with
    /// `--runs auto`.
    pub fn recorded_rule(&self) -> Option<AdaptiveRule> {
        self.adaptive.map(|rule| AdaptiveRule {
            alpha: self.alpha,
            min_rounds: rule.min_rounds,
            precision: rule.precision,
        })
    }

    /// The settings with the rule the runs of `dataset` record, when they
    /// all come from one adaptive experiment (one file, one group) whose
    /// header records it: its α, `--min-runs` and precision. `None`
    /// otherwise. `alpha_given`: `-c alpha` was given, and is kept.
    pub fn as_recorded(&self, dataset: &Dataset, alpha_given: bool) -> Option<RankingSettings> {
        let first = dataset.commands.first()?;
        let rule = first.adaptive?;
        let one = |c: &CommandRuns| {
            (c.source, c.group) == (first.source, first.group) && c.adaptive == Some(rule)
        };
        if !dataset.commands.iter().all(one) {
            return None;
        }
        Some(RankingSettings {
            alpha: if alpha_given { self.alpha } else { rule.alpha },
            adaptive: Some(StoppingRule {
                min_rounds: rule.min_rounds,
                precision: rule.precision,
                ..StoppingRule::default()
            }),
            ..self.clone()
        })
    }

    /// Checks every range (alpha in (0, 1), thresholds finite and ≥ 0). A reference is checked against the data when the
    /// analysis resolves it.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.rule().validate()
    }

    /// The settings as `name = value` lines, names right-aligned (the
    /// `--config` listing; `width` belongs to the reports and is listed by
    /// the caller).
    pub fn describe(&self) -> String {
        let reference = self
            .reference
            .as_ref()
            .map_or_else(|| "the best".to_owned(), |r| r.to_string());
        let metric = match self.metric_from {
            MetricFrom::Auto => {
                "chosen from the data (wall clock if a command mostly waits, else CPU time)"
            }
            _ => self.metric.label(),
        };
        format!(
            "  alpha = {}\n effect = {}\nepsilon = {}\n metric = {metric}\n    ref = {reference}\n   best = {}\n  sigma = {}\n",
            self.alpha,
            threshold(self.effect),
            threshold(self.epsilon),
            self.best_case.k,
            self.best_case.max_distance,
        )
    }
}

/// A threshold as `-c` accepts it: `500us` or `2%`.
pub fn threshold(t: Threshold) -> String {
    match t {
        Threshold::Absolute(us) => format!("{us}us"),
        Threshold::Percent(p) => format!("{p}%"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_are_listed() {
        let s = RankingSettings::default();
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(
            s.describe(),
            "  alpha = 0.05\n effect = 1%\nepsilon = 1%\n metric = Total CPU time\n    ref = the best\n   best = 3\n  sigma = 9\n"
        );
    }

    #[test]
    fn ranges_are_checked_once() {
        let bad = |s: RankingSettings| s.validate().unwrap_err();
        let d = RankingSettings::default();
        assert!(matches!(
            bad(RankingSettings {
                alpha: 0.0,
                ..d.clone()
            }),
            SettingsError::Alpha(_)
        ));
        let e = Threshold::Percent(-1.0);
        assert_eq!(
            bad(RankingSettings {
                effect: e,
                ..d.clone()
            }),
            SettingsError::Effect(e)
        );
    }

    #[test]
    fn thresholds_print_as_settings() {
        assert_eq!(threshold(Threshold::Absolute(250.0)), "250us");
        assert_eq!(threshold(Threshold::Absolute(0.5)), "0.5us");
        assert_eq!(threshold(Threshold::Percent(2.0)), "2%");
    }
}

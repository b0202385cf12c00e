//! Per command, in time order: the best case and its stability between
//! the halves, and the Mann–Kendall trend with Holm's adjustment over the
//! commands, a change of speed when the halves differ by the `effect`.

use crate::stats::{
    best_case, hodges_lehmann, holm_adjust, mann_kendall, mann_kendall_with, BestCase,
    BestCaseSettings, MannKendall, NotApplicable, Sample, SampleError, Series, Threshold,
};

/// The time-order diagnostics of one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostics {
    /// The best-case estimate of the metric of interest.
    pub best_case: Result<BestCase, NotApplicable>,
    /// The trend test of the metric of interest against run order.
    pub trend: Result<MannKendall, NotApplicable>,
    /// The trend's p-value after Holm's adjustment over all commands that
    /// could be tested.
    pub trend_p_adjusted: Option<f64>,
    /// How much the later half differs from the earlier one.
    pub halves: Option<HalvesShift>,
    /// The adjusted p-value is below α and the halves differ by at least
    /// the `effect` threshold: the speed changed.
    pub drifted: bool,
}

/// The later half of a command's runs against the earlier half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalvesShift {
    /// Hodges–Lehmann shift, later − earlier (positive: slower later).
    pub shift: f64,
    /// Median of the earlier half.
    pub early_median: f64,
}

/// The later half against the earlier (halves as for the best case); `None`
/// with fewer than two values.
pub(crate) fn halves_shift(values: &[f64]) -> Option<HalvesShift> {
    let (early, late) = values.split_at(values.len() / 2);
    let early = Sample::from_slice(early).ok()?;
    let late = Sample::from_slice(late).ok()?;
    Some(HalvesShift {
        shift: hodges_lehmann(&early, &late),
        early_median: crate::stats::Quantiles::of(&early).median,
    })
}

/// The diagnostics of one command, from its values of the metric of
/// interest in time order, before Holm's adjustment ([`adjust`]).
/// `sample`, when given, is the [`Sample`] of the same values (the
/// summaries' of the ranked metric): the trend test then uses its sort
/// instead of sorting again.
pub fn diagnose_one(
    values: Vec<f64>,
    sample: Option<&Sample>,
    settings: &BestCaseSettings,
) -> Result<Diagnostics, SampleError> {
    let s = Series::new(values)?;
    let trend = match sample {
        Some(sample) => mann_kendall_with(&s, sample),
        None => mann_kendall(&s),
    };
    Ok(Diagnostics {
        best_case: best_case(&s, settings),
        trend,
        trend_p_adjusted: None,
        halves: halves_shift(s.values()),
        drifted: false,
    })
}

/// Holm's adjustment of the trend p-values over every command that could
/// be tested, and the drift flags that follow from it; `alpha` and
/// `effect` are the ranking's.
pub fn adjust(out: &mut [Diagnostics], alpha: f64, effect: Threshold) {
    let tested: Vec<usize> = (0..out.len()).filter(|&i| out[i].trend.is_ok()).collect();
    let p: Vec<f64> = tested
        .iter()
        .filter_map(|&i| out[i].trend.as_ref().ok().map(|t| t.p_value))
        .collect();
    for (&i, adjusted) in tested.iter().zip(holm_adjust(&p)) {
        let d = &mut out[i];
        d.trend_p_adjusted = Some(adjusted);
        let matters = d
            .halves
            .is_some_and(|h| h.shift.abs() >= effect.resolve(h.early_median));
        d.drifted = adjusted < alpha && matters;
    }
}

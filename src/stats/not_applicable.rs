//! Why a statistic has no value for a sample.
//!
//! Skewness, kurtosis and the normality test are undefined or meaningless
//! for tiny or constant samples. Rather than returning a sentinel (C BestGuess
//! printed 0 or −1) or NaN, such statistics are
//! `Result<T, NotApplicable>`, and the reason is kept so a report can say
//! "n/a (fewer than 8 values)".

use thiserror::Error;

/// The reason a statistic is not reported for a sample.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum NotApplicable {
    /// The sample has `n` values but the statistic needs at least `min`.
    #[error("needs at least {min} values, has {n}")]
    TooFewValues {
        /// Values in the sample.
        n: usize,
        /// Values the statistic needs.
        min: usize,
    },
    /// All values are equal, so there is no shape to measure.
    #[error("all values are equal")]
    ZeroVariance,
    /// Some standardized value is so far from the mean that the normal
    /// distribution's tail cannot be evaluated in double precision.
    #[error("values too far from the mean (|z| up to {max_abs_z:e})")]
    ExtremeValues {
        /// The largest |(x − mean)/sd| in the sample.
        max_abs_z: f64,
    },
}

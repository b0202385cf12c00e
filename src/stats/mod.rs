//! Statistics engine: pure numerics for describing and ranking samples.
//!
//! Everything BestGuess reports about a distribution, and every decision
//! of its ranking, is computed here. The module does no I/O, imports
//! nothing else from the crate, holds no `unsafe`, and never panics or
//! returns NaN/∞ for a valid [`Sample`] (non-empty, finite, |x| ≤ 1e100);
//! statistics that do not exist for a sample say why ([`NotApplicable`]).
//! Each definition is the textbook one, named and cited where it is
//! implemented, and pinned by golden values from scipy/statsmodels
//! (`tools/golden.py`, `tests/stats_golden.rs`).
//!
//! * Per sample: [`Summary::of`] bundles [`Quantiles`] (Hyndman–Fan
//!   type 7), [`half_sample_mode`], [`Moments`] (mean, sd, skewness G1,
//!   excess kurtosis G2) and the [`anderson_darling`] normality test;
//!   whether G1 or G2 departs [`substantial`]ly from normal.
//! * Two samples: [`compare()`] bounds the ratio (or difference) of
//!   medians by each median's order-statistic bounds ([`MedianBounds`],
//!   [`Contrast`]), and gives the C tool's statistics beside it ([`Classic`]: [`mann_whitney()`], [`hodges_lehmann`] with the C
//!   tool's interval, the probability of superiority); pairwise
//!   differences are selected, never materialised
//!   ([`kth_pairwise_difference`]).
//! * Many samples: [`rank_with`] decides from the counts which commands
//!   can be compared ([`comparable`]), bounds every compared median at a
//!   share of α so that all hold together, chooses the reference,
//!   compares every other command with it and decides slower /
//!   equivalent / inconclusive on the bounds ([`holm_adjust`] serves
//!   families of p-values elsewhere).
//! * Adaptive experiments: [`Looks`], the rounds at which the ranking may
//!   stop and the share of α each spends (anytime-valid verdicts).
//! * In time order ([`Series`]): the [`best_case`](fn@best_case) estimate and its
//!   stability between the experiment's halves (after `tim`), and the
//!   [`mann_kendall`] test for a trend, which say whether the machine
//!   changed while the experiment ran.
//! * The normal distribution: [`normal_cdf`], [`normal_sf`],
//!   [`normal_log_cdf`], [`normal_quantile`].

mod anytime;
mod best_case;
pub mod changepoint;
mod compare;
mod holm;
mod mann_whitney;
mod medians;
mod mode;
mod moments;
mod normal;
mod normality;
mod not_applicable;
mod quantile;
mod ranking;
mod rng;
mod sample;
mod select;
mod series;
mod shape;
mod shift;
mod summary;
mod trend;
mod u_distribution;

pub use anytime::Looks;
pub use best_case::{
    best_case, BestCase, BestCaseSettings, BestCaseSettingsError, HalfBest, DEFAULT_BEST_K,
    DEFAULT_MAX_DISTANCE,
};
pub use compare::{compare, Classic, CompareOptions, Comparison, Design};
pub use holm::holm_adjust;
pub use mann_whitney::{mann_whitney, MannWhitney, Method};
pub use medians::{values_needed, Contrast, MedianBounds, Scale};
pub use mode::half_sample_mode;
pub use moments::{Moments, SHAPE_MIN_N};
pub use normal::{normal_cdf, normal_log_cdf, normal_quantile, normal_sf};
pub use normality::{anderson_darling, anderson_darling_p_value, AndersonDarling, NORMALITY_MIN_N};
pub use not_applicable::NotApplicable;
pub use quantile::{quantile, Quantiles, P95_MIN_N, P99_MIN_N};
pub use ranking::{
    comparable, rank, rank_with, runs_to_compare, RankOptions, RankSettings, RankedEntry, Ranking,
    Reason, SettingsError, Threshold, Verdict,
};
pub use rng::SplitMix64;
pub use sample::{Sample, SampleError};
pub use series::Series;
pub use shape::{substantial, Moment};
pub use shift::{
    hodges_lehmann, kth_pairwise_difference, pairwise_difference_count, Alpha, InvalidAlpha,
};
pub use summary::Summary;
pub use trend::{
    change_point, mann_kendall, mann_kendall_with, pooled_slope, student_t_quantile, MannKendall,
    PooledSlope, TREND_MIN_N,
};
pub use u_distribution::EXACT_LIMIT;

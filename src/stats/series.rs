//! A validated series: values in the order they were measured.
//!
//! [`Sample`](super::Sample) forgets the order of its values, which is right for every
//! statistic of a distribution. The diagnostics that ask whether the
//! machine changed during an experiment ([`best_case`](fn@super::best_case),
//! [`mann_kendall`](super::mann_kendall)) need that order, so they take a
//! [`Series`] instead: the same validation (non-empty, finite, |x| ≤
//! [`Sample::MAX_MAGNITUDE`](super::Sample::MAX_MAGNITUDE)), the input order kept.

use super::sample::SampleError;

/// A non-empty list of finite values in time order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    values: Vec<f64>,
}

impl Series {
    /// Validates `values`, kept in the given order.
    ///
    /// Errors exactly as [`Sample::new`](super::Sample::new); negative zero is stored as zero.
    pub fn new(mut values: Vec<f64>) -> Result<Self, SampleError> {
        super::sample::validate(&mut values)?;
        Ok(Series { values })
    }

    /// Number of values (always at least 1).
    #[allow(clippy::len_without_is_empty)] // a Series is never empty
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The values, in time order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_order_and_rejects_what_a_sample_rejects() {
        let s = Series::new(vec![3.0, -0.0, 2.0]).unwrap();
        assert_eq!(s.values(), &[3.0, 0.0, 2.0]);
        assert!(s.values()[1].is_sign_positive());
        assert_eq!(s.len(), 3);
        assert_eq!(Series::new(vec![]), Err(SampleError::Empty));
        assert!(matches!(
            Series::new(vec![1.0, f64::NAN]),
            Err(SampleError::NonFinite { index: 1, .. })
        ));
        assert!(matches!(
            Series::new(vec![2e100]),
            Err(SampleError::TooLarge { index: 0, .. })
        ));
    }
}

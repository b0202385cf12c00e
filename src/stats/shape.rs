//! Whether a sample's skewness G1 or excess kurtosis G2 departs
//! substantially from its value under normality (0): the `-D` table's
//! verdict on each.
//!
//! The rule is the C tool's, made consistent: a statistic G is a
//! substantial deviation when |G|/SE(G) exceeds the two-sided critical z
//! at level 0.05 (n ≤ 50), 0.01 (n ≤ 100) or 0.001 (n ≤ 300), SE being
//! its exact standard error under normality (Joanes & Gill 1998, "Comparing
//! measures of sample skewness and kurtosis", The Statistician 47, 183–189;
//! SPSS's SES and SEK). Above 300 values every such test is significant,
//! so the rule of thumb |G1| > 2, |G2| > 4 (West, Finch & Curran 1995, via
//! Kim 2013, "Statistical notes for clinical researchers: assessing normal
//! distribution (2) using skewness and kurtosis") applies instead.

use super::normal::normal_quantile;

/// Which shape statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// Skewness G1.
    Skew,
    /// Excess kurtosis G2.
    Kurtosis,
}

/// Standard error of the skewness G1 of n normal values (Joanes & Gill
/// 1998; the "SES" of SPSS).
fn skew_se(n: f64) -> f64 {
    (6.0 * n * (n - 1.0) / ((n - 2.0) * (n + 1.0) * (n + 3.0))).sqrt()
}

/// Standard error of the excess kurtosis G2 of n normal values (the "SEK").
fn kurtosis_se(n: f64) -> f64 {
    2.0 * skew_se(n) * ((n * n - 1.0) / ((n - 3.0) * (n + 5.0))).sqrt()
}

/// Whether `g`, the `moment` of `n` values, departs substantially from
/// its value under normality (0); see the module docs for the rule.
/// Never for fewer than 4 values (the standard errors need n ≥ 4).
pub fn substantial(g: f64, n: usize, moment: Moment) -> bool {
    if n < 4 {
        return false;
    }
    if n > 300 {
        let limit = match moment {
            Moment::Skew => 2.0,
            Moment::Kurtosis => 4.0,
        };
        return g.abs() > limit;
    }
    let level = if n > 100 {
        0.001
    } else if n > 50 {
        0.01
    } else {
        0.05
    };
    let critical = normal_quantile(level / 2.0).map_or(1.96, f64::abs);
    let nf = n as f64;
    let se = match moment {
        Moment::Skew => skew_se(nf),
        Moment::Kurtosis => kurtosis_se(nf),
    };
    g.abs() / se > critical
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_errors_match_published_values() {
        // SPSS prints SES 0.687 and SEK 1.334 for n = 10.
        assert!((skew_se(10.0) - 0.687).abs() < 5e-4);
        assert!((kurtosis_se(10.0) - 1.334).abs() < 5e-4);
    }

    #[test]
    fn kurtosis_has_its_own_verdict() {
        // n = 20: SES ≈ 0.512, SEK ≈ 0.992; critical z 1.96.
        assert!(substantial(1.2, 20, Moment::Skew));
        assert!(!substantial(1.2, 20, Moment::Kurtosis));
        assert!(substantial(2.5, 20, Moment::Kurtosis));
        // Large n: rule of thumb.
        assert!(!substantial(3.9, 1000, Moment::Kurtosis));
        assert!(substantial(2.1, 1000, Moment::Skew));
    }
}

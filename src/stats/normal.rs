//! The standard normal distribution: Φ, its logarithm and Φ⁻¹.
//!
//! The Anderson–Darling statistic sums `ln Φ(z)` and `ln(1 − Φ(z))` over
//! every value of a sample, so both tails must be accurate far from the
//! centre: computing `1 − Φ(z)` by subtraction loses every digit once
//! Φ(z) rounds to 1 (z ≳ 8.3), and `ln` of that is −∞. Here each tail is
//! computed directly, and in log space when asked, so `ln Φ(z)` is finite
//! and accurate for every |z| < 1.3·10¹⁵⁴ (beyond that z² overflows).
//!
//! Φ uses W. J. Cody's rational Chebyshev approximations, the normal-CDF
//! form of his erf/erfc approximations (Cody 1969; routine ANORM of
//! Cody 1993, "Algorithm 715: SPECFUN", ACM TOMS 19, 22–32), accurate to
//! about 1e-16 relative in each tail. Φ⁻¹ is Wichura's AS 241 PPND16
//! (Wichura 1988, Applied Statistics 37, 477–484), accurate to about 1 part
//! in 10¹⁶.

// The coefficients are quoted digit for digit as published, so they can be
// checked against the papers; f64 rounds them on parsing.
#![allow(clippy::excessive_precision)]

/// 1/√(2π).
const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// Boundary between Cody's first and second regions: Φ⁻¹(3/4).
const CENTRAL_LIMIT: f64 = 0.674_489_75;

/// Boundary between Cody's second and third regions: √32.
const SQRT_32: f64 = 5.656_854_249_492_381;

/// Evaluates a polynomial with coefficients in ascending order of power.
fn polynomial(coefficients: &[f64], x: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |acc, &c| acc * x + c)
}

/// Both tails of Φ at one point, either as probabilities or as their logs.
#[derive(Debug, Clone, Copy)]
struct Tails {
    /// Φ(x) (or its natural log).
    lower: f64,
    /// 1 − Φ(x) (or its natural log).
    upper: f64,
}

/// Cody's algorithm for both tails of Φ(x); `log` selects log space.
///
/// The smaller tail is always computed directly; only the larger one (which
/// is at least ½) is obtained by subtraction, where no precision is lost.
fn tails(x: f64, log: bool) -> Tails {
    let y = x.abs();
    if y <= CENTRAL_LIMIT {
        // Region 1: Φ(x) = ½ + x·R(x²), R rational of degree (4, 4).
        const A: [f64; 5] = [
            1.8154981253343561249e4,
            1.0676894854603709582e3,
            1.6102823106855587881e2,
            2.2352520354606839287,
            6.5682337918207449113e-2,
        ];
        const B: [f64; 5] = [
            4.5507789335026729956e4,
            1.0260932208618978205e4,
            9.7609855173777669322e2,
            4.7202581904688241870e1,
            1.0,
        ];
        let xsq = x * x;
        let t = x * polynomial(&A, xsq) / polynomial(&B, xsq);
        let (lower, upper) = (0.5 + t, 0.5 - t);
        return if log {
            Tails {
                lower: lower.ln(),
                upper: upper.ln(),
            }
        } else {
            Tails { lower, upper }
        };
    }

    // Regions 2 and 3: the smaller tail is exp(−y²/2)·R(y).
    let r = if y <= SQRT_32 {
        const C: [f64; 9] = [
            9.8427148383839780218e3,
            1.1602651437647350124e4,
            6.8481904505362823326e3,
            2.4945375852903726711e3,
            5.9727027639480026226e2,
            9.3506656132177855979e1,
            8.8831497943883759412,
            3.9894151208813466764e-1,
            1.0765576773720192317e-8,
        ];
        const D: [f64; 9] = [
            1.9685429676859990727e4,
            3.8912003286093271411e4,
            3.4900952721145977266e4,
            1.8615571640885098091e4,
            6.4855582982667607550e3,
            1.5193775994075548050e3,
            2.3538790178262499861e2,
            2.2266688044328115691e1,
            1.0,
        ];
        polynomial(&C, y) / polynomial(&D, y)
    } else {
        // Region 3: a rational function of w = 1/y², degree (5, 5).
        const P: [f64; 6] = [
            2.9112874951168792e-5,
            1.421619193227893466e-3,
            2.2235277870649807e-2,
            1.274011611602473639e-1,
            2.1589853405795699e-1,
            2.307344176494017303e-2,
        ];
        const Q: [f64; 6] = [
            7.29751555083966205e-5,
            3.78239633202758244e-3,
            6.59881378689285515e-2,
            4.68238212480865118e-1,
            1.28426009614491121,
            1.0,
        ];
        let w = 1.0 / (y * y);
        let ratio = w * polynomial(&P, w) / polynomial(&Q, w);
        (FRAC_1_SQRT_2PI - ratio) / y
    };

    // exp(−y²/2) without the rounding error of y²: split y into a part with
    // four fractional bits (whose square is exact) and the rest (Cody).
    let y16 = (y * 16.0).trunc() / 16.0;
    let rest = (y - y16) * (y + y16);
    let (small, large) = if log {
        let small = -y16 * y16 * 0.5 - rest * 0.5 + r.ln();
        (small, (-small.exp()).ln_1p())
    } else {
        let small = (-y16 * y16 * 0.5).exp() * (-rest * 0.5).exp() * r;
        (small, 1.0 - small)
    };
    if x > 0.0 {
        Tails {
            lower: large,
            upper: small,
        }
    } else {
        Tails {
            lower: small,
            upper: large,
        }
    }
}

/// Φ(x), the standard normal cumulative distribution function (Cody 1993).
///
/// Returns exactly 0 or 1 only where the true value rounds to it. NaN in,
/// NaN out; ±∞ give 0 and 1.
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_infinite() {
        return if x > 0.0 { 1.0 } else { 0.0 };
    }
    tails(x, false).lower
}

/// 1 − Φ(x), the upper tail, computed directly (no cancellation).
pub fn normal_sf(x: f64) -> f64 {
    normal_cdf(-x)
}

/// ln Φ(x), accurate in both tails (Cody 1993, evaluated in log space).
///
/// Finite for every finite x with |x| < 1.3·10¹⁵⁴; `ln(1 − Φ(x))` is
/// `normal_log_cdf(-x)`.
pub fn normal_log_cdf(x: f64) -> f64 {
    if x.is_infinite() {
        return if x > 0.0 { 0.0 } else { f64::NEG_INFINITY };
    }
    tails(x, true).lower
}

/// `(ln Φ(x), ln(1 − Φ(x)))` from one evaluation, for the Anderson–Darling sum.
pub(crate) fn normal_log_tails(x: f64) -> (f64, f64) {
    let t = tails(x, true);
    (t.lower, t.upper)
}

/// Φ⁻¹(p), the standard normal quantile, by Wichura's AS 241 (PPND16).
///
/// `None` unless 0 < p < 1 (the quantile is ±∞ at the ends and undefined
/// outside). For an upper-tail probability q close to 0, prefer
/// `-normal_quantile(q)` to `normal_quantile(1 - q)`, which loses q's digits.
pub fn normal_quantile(p: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        const A: [f64; 8] = [
            3.387132872796366608,
            1.3314166789178437745e2,
            1.9715909503065514427e3,
            1.3731693765509461125e4,
            4.5921953931549871457e4,
            6.7265770927008700853e4,
            3.3430575583588128105e4,
            2.5090809287301226727e3,
        ];
        const B: [f64; 8] = [
            1.0,
            4.2313330701600911252e1,
            6.8718700749205790830e2,
            5.3941960214247511077e3,
            2.1213794301586595867e4,
            3.9307895800092710610e4,
            2.8729085735721942674e4,
            5.2264952788528545610e3,
        ];
        let r = 0.180625 - q * q;
        return Some(q * polynomial(&A, r) / polynomial(&B, r));
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let r = (-tail.ln()).sqrt();
    let magnitude = if r <= 5.0 {
        const C: [f64; 8] = [
            1.42343711074968357734,
            4.63033784615654529590,
            5.76949722146069140550,
            3.64784832476320460504,
            1.27045825245236838258,
            2.41780725177450611770e-1,
            2.27238449892691845833e-2,
            7.74545014278341407640e-4,
        ];
        const D: [f64; 8] = [
            1.0,
            2.05319162663775882187,
            1.67638483018380384940,
            6.89767334985100004550e-1,
            1.48103976427480074590e-1,
            1.51986665636164571966e-2,
            5.47593808499534494600e-4,
            1.05075007164441684324e-9,
        ];
        let r = r - 1.6;
        polynomial(&C, r) / polynomial(&D, r)
    } else {
        const E: [f64; 8] = [
            6.65790464350110377720,
            5.46378491116411436990,
            1.78482653991729133580,
            2.96560571828504891230e-1,
            2.65321895265761230930e-2,
            1.24266094738807843860e-3,
            2.71155556874348757815e-5,
            2.01033439929228813265e-7,
        ];
        const F: [f64; 8] = [
            1.0,
            5.99832206555887937690e-1,
            1.36929880922735805310e-1,
            1.48753612908506148525e-2,
            7.86869131145613259100e-4,
            1.84631831751005468180e-5,
            1.42151175831644588870e-7,
            2.04426310338993978564e-15,
        ];
        let r = r - 5.0;
        polynomial(&E, r) / polynomial(&F, r)
    };
    Some(if q < 0.0 { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    // Values from mpmath at 40 digits (ncdf, log(ncdf), and
    // findroot for the quantile), independent of Cody's approximations.
    #[test]
    fn cdf_matches_mpmath_values_in_each_region() {
        let cases = [
            (0.0, 0.5),
            (0.5, 0.691_462_461_274_013_1),
            (-1.0, 0.158_655_253_931_457_05),
            (-3.0, 0.001_349_898_031_630_094_5),
            (-6.0, 9.865_876_450_376_981e-10),
            (-20.0, 2.753_624_118_606_233_7e-89),
            (-37.0, 5.725_571_222_524_576_8e-300),
        ];
        for (x, p) in cases {
            assert!(rel(normal_cdf(x), p) < 1e-14, "Φ({x}) = {}", normal_cdf(x));
        }
        assert_eq!(normal_cdf(9.0), 1.0);
        assert!(rel(normal_sf(9.0), 1.128_588_405_953_840_6e-19) < 1e-14);
    }

    #[test]
    fn log_cdf_is_finite_and_accurate_far_into_the_tails() {
        let cases = [
            (-0.3, -0.962_102_818_168_850_7),
            (2.0, -0.023_012_909_328_963_488),
            (-10.0, -53.231_285_150_512_47),
            (-40.0, -804.608_442_013_753_8),
            (-1000.0, -500_007.826_694_812_2),
        ];
        for (x, l) in cases {
            assert!(
                rel(normal_log_cdf(x), l) < 1e-14,
                "lnΦ({x}) = {}",
                normal_log_cdf(x)
            );
        }
        // ln(1 − Φ(10)) must not be −∞ although Φ(10) rounds to 1.
        let (_, upper) = normal_log_tails(10.0);
        assert!(rel(upper, -53.231_285_150_512_47) < 1e-14);
    }

    #[test]
    fn quantile_inverts_cdf_and_matches_mpmath_values() {
        assert_eq!(normal_quantile(0.5), Some(0.0));
        assert!(rel(normal_quantile(0.975).unwrap(), 1.959_963_984_540_054_2) < 1e-15);
        assert!(rel(normal_quantile(0.025).unwrap(), -1.959_963_984_540_054_2) < 1e-15);
        assert!(rel(normal_quantile(1e-20).unwrap(), -9.262_340_089_798_408) < 1e-14);
        assert!(rel(normal_quantile(1e-300).unwrap(), -37.047_096_299_361_2) < 1e-14);
        for p in [1e-9, 0.01, 0.2, 0.6, 0.93, 0.999_999] {
            let z = normal_quantile(p).unwrap();
            assert!(rel(normal_cdf(z), p) < 1e-13, "p = {p}");
        }
    }

    #[test]
    fn quantile_rejects_probabilities_outside_the_open_interval() {
        for p in [0.0, 1.0, -0.1, 1.5, f64::NAN] {
            assert_eq!(normal_quantile(p), None);
        }
    }
}

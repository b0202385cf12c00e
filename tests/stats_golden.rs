//! Golden-vector tests of the statistics engine.
//!
//! `tools/golden.py` computed the expected values with numpy, scipy,
//! statsmodels and mpmath (see its docstring for which library backs which
//! number; the bounds of medians are cross-checked there with
//! `scipy.stats.quantile_test`, and the ranking is written there from its
//! definition) and stored them, with the input data, in
//! `tests/data/golden/`.
//! Every statistic is compared through one tolerance helper: 1e-9 relative
//! (1e-12 absolute floor) for statistics and asymptotic p-values, 1e-12
//! relative for exact p-values; ranks and methods must match exactly.

use bestguess::stats::{
    holm_adjust, rank_with, Alpha, Classic, Contrast, MedianBounds, Method, NotApplicable,
    RankOptions, RankSettings, Sample, Scale, Summary, Threshold,
};
use serde_json::Value;

/// A tolerance: |actual − expected| ≤ max(rel·|expected|, abs).
#[derive(Debug, Clone, Copy)]
struct Tolerance {
    rel: f64,
    abs: f64,
}

/// Statistics and asymptotic p-values.
const STATISTIC: Tolerance = Tolerance {
    rel: 1e-9,
    abs: 1e-12,
};

/// Exact p-values: ratios of exact integer counts on both sides.
const EXACT_P: Tolerance = Tolerance {
    rel: 1e-12,
    abs: 0.0,
};

/// Collects every mismatch so one run reports all of them.
#[derive(Default)]
struct Checker {
    failures: Vec<String>,
    comparisons: usize,
}

impl Checker {
    fn close(&mut self, what: &str, actual: f64, expected: f64, tol: Tolerance) {
        self.comparisons += 1;
        let ok = actual.is_finite()
            && (actual - expected).abs() <= (tol.rel * expected.abs()).max(tol.abs);
        if !ok {
            self.failures
                .push(format!("{what}: got {actual:e}, expected {expected:e}"));
        }
    }

    fn equal<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, actual: T, expected: T) {
        self.comparisons += 1;
        if actual != expected {
            self.failures
                .push(format!("{what}: got {actual:?}, expected {expected:?}"));
        }
    }

    fn finish(self, minimum_comparisons: usize) {
        assert!(
            self.failures.is_empty(),
            "{} of {} comparisons failed:\n{}",
            self.failures.len(),
            self.comparisons,
            self.failures.join("\n")
        );
        assert!(
            self.comparisons >= minimum_comparisons,
            "only {} comparisons made; is the golden file truncated?",
            self.comparisons
        );
    }
}

mod support;

use support::golden as load;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array of numbers")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

fn flag(v: &Value, key: &str) -> bool {
    v[key]
        .as_bool()
        .unwrap_or_else(|| panic!("{key} is not a boolean"))
}

fn sample(v: &Value) -> Sample {
    Sample::new(numbers(v)).expect("golden data are valid samples")
}

/// The expected Err of a statistic that does not apply, if it does not.
fn expected_not_applicable(v: &Value) -> Option<NotApplicable> {
    match v.get("not_applicable")?.as_str()? {
        "too_few_values" => Some(NotApplicable::TooFewValues {
            n: v["n"].as_u64().unwrap() as usize,
            min: v["min"].as_u64().unwrap() as usize,
        }),
        "zero_variance" => Some(NotApplicable::ZeroVariance),
        other => panic!("unknown reason {other}"),
    }
}

fn check_applicable(
    c: &mut Checker,
    what: &str,
    actual: Result<f64, NotApplicable>,
    expected: &Value,
) {
    match (actual, expected_not_applicable(expected)) {
        (Ok(a), None) => c.close(what, a, num(expected, "value"), STATISTIC),
        (actual, Some(reason)) => c.equal(what, actual, Err(reason)),
        (Err(e), None) => c.equal(what, Err(e), Ok(num(expected, "value"))),
    }
}

fn check_option(c: &mut Checker, what: &str, actual: Option<f64>, expected: &Value) {
    match (actual, expected.as_f64()) {
        (Some(a), Some(e)) => c.close(what, a, e, STATISTIC),
        (a, e) => c.equal(what, a, e),
    }
}

#[test]
fn per_sample_statistics_match_numpy_scipy_statsmodels() {
    let golden = load("samples.json");
    let datasets = golden["samples"].as_array().unwrap();
    let mut c = Checker::default();
    let mut not_applicable = 0;
    for d in datasets {
        let name = d["name"].as_str().unwrap();
        let e = &d["expected"];
        let s = Summary::of(&sample(&d["values"]));
        let q = &s.quantiles;
        c.equal(&format!("{name} n"), s.n as u64, e["n"].as_u64().unwrap());
        for (stat, actual) in [
            ("min", q.min),
            ("q1", q.q1),
            ("median", q.median),
            ("q3", q.q3),
            ("max", q.max),
            ("mode", s.mode),
            ("mean", s.mean),
        ] {
            c.close(&format!("{name} {stat}"), actual, num(e, stat), STATISTIC);
        }
        c.close(
            &format!("{name} iqr"),
            q.iqr(),
            num(e, "q3") - num(e, "q1"),
            STATISTIC,
        );
        check_option(&mut c, &format!("{name} p95"), q.p95, &e["p95"]);
        check_option(&mut c, &format!("{name} p99"), q.p99, &e["p99"]);
        check_option(&mut c, &format!("{name} sd"), s.sd, &e["sd"]);
        check_applicable(
            &mut c,
            &format!("{name} skewness"),
            s.skewness,
            &e["skewness"],
        );
        check_applicable(
            &mut c,
            &format!("{name} kurtosis"),
            s.excess_kurtosis,
            &e["excess_kurtosis"],
        );
        let ad = &e["normality"];
        match (s.normality, expected_not_applicable(ad)) {
            (Ok(r), None) => {
                c.close(&format!("{name} A²"), r.a2, num(ad, "a2"), STATISTIC);
                c.close(
                    &format!("{name} A*²"),
                    r.a2_star,
                    num(ad, "a2_star"),
                    STATISTIC,
                );
                c.close(
                    &format!("{name} AD p"),
                    r.p_value,
                    num(ad, "p_value"),
                    STATISTIC,
                );
            }
            (actual, Some(reason)) => {
                not_applicable += 1;
                c.equal(
                    &format!("{name} normality"),
                    actual.map(|r| r.a2),
                    Err(reason),
                );
            }
            (Err(e), None) => c.equal(&format!("{name} normality"), Err(e), Ok(num(ad, "a2"))),
        }
    }
    // The file must exercise both the computed and the not-applicable paths.
    assert!(
        datasets.len() >= 30 && not_applicable >= 5,
        "golden samples look incomplete"
    );
    c.finish(datasets.len() * 15);
}

/// A contrast against the golden `contrast` object: scale, estimate,
/// bounds and miss chances.
fn check_contrast(c: &mut Checker, name: &str, b: &Contrast, e: &Value) {
    let scale = match e["scale"].as_str().unwrap() {
        "ratio" => Scale::Ratio,
        _ => Scale::Difference,
    };
    c.equal(&format!("{name} scale"), b.scale, scale);
    c.close(
        &format!("{name} estimate"),
        b.estimate,
        num(e, "estimate"),
        STATISTIC,
    );
    c.close(&format!("{name} low"), b.low, num(e, "low"), STATISTIC);
    c.close(&format!("{name} high"), b.high, num(e, "high"), STATISTIC);
    c.close(
        &format!("{name} low miss"),
        b.low_miss,
        num(e, "miss"),
        STATISTIC,
    );
    c.close(
        &format!("{name} high miss"),
        b.high_miss,
        num(e, "miss"),
        STATISTIC,
    );
}

/// A median's bounds against the golden object (`null`: none exist).
fn check_bounds(c: &mut Checker, name: &str, b: Option<MedianBounds>, e: &Value) {
    c.equal(&format!("{name} exists"), b.is_some(), !e.is_null());
    let Some(b) = b else {
        return;
    };
    c.equal(
        &format!("{name} rank"),
        b.rank as u64,
        e["rank"].as_u64().unwrap(),
    );
    for (what, actual) in [
        ("median", b.median),
        ("low", b.low),
        ("high", b.high),
        ("miss", b.miss),
    ] {
        c.close(&format!("{name} {what}"), actual, num(e, what), STATISTIC);
    }
}

fn scale_of(best: &[f64], other: &[f64]) -> Scale {
    let positive = |v: &[f64]| v.iter().all(|&x| x > 0.0);
    if positive(best) && positive(other) {
        Scale::Ratio
    } else {
        Scale::Difference
    }
}

#[test]
fn two_sample_statistics_match_scipy_and_brute_force() {
    let golden = load("pairs.json");
    let datasets = golden["pairs"].as_array().unwrap();
    let mut c = Checker::default();
    let mut methods = [0, 0];
    let mut bounded = [0, 0];
    for d in datasets {
        let name = d["name"].as_str().unwrap();
        let e = &d["expected"];
        let alpha = num(d, "alpha");
        let (best, other) = (numbers(&d["best"]), numbers(&d["other"]));
        let (bs, os) = (sample(&d["best"]), sample(&d["other"]));
        let expected_method = match e["method"].as_str().unwrap() {
            "exact" => Method::Exact,
            "asymptotic" => Method::Asymptotic,
            m => panic!("unknown method {m}"),
        };
        methods[usize::from(expected_method == Method::Exact)] += 1;
        let k = Classic::of(&bs, &os, Alpha::new(alpha).unwrap(), 1);
        let mw = &k.mann_whitney;
        c.equal(&format!("{name} p method"), mw.method, expected_method);
        c.close(&format!("{name} U"), mw.u, num(e, "u"), STATISTIC);
        c.close(&format!("{name} W"), mw.w, num(e, "w"), STATISTIC);
        let p_tolerance = if expected_method == Method::Exact {
            EXACT_P
        } else {
            STATISTIC
        };
        c.close(
            &format!("{name} p"),
            mw.p_value,
            num(e, "p_value"),
            p_tolerance,
        );
        c.close(
            &format!("{name} p adjusted"),
            k.p_adjusted,
            num(e, "p_value"),
            p_tolerance,
        );
        for (what, actual) in [
            ("shift", k.shift),
            ("shift_low", k.shift_low),
            ("shift_high", k.shift_high),
            ("shift_confidence", k.shift_confidence),
            ("superiority", k.superiority),
        ] {
            c.close(&format!("{name} {what}"), actual, num(e, what), STATISTIC);
        }
        // The contrast of the two medians, each bounded at α per side.
        let r = MedianBounds::of(bs.sorted(), alpha);
        let o = MedianBounds::of(os.sorted(), alpha);
        let contrast = r
            .zip(o)
            .and_then(|(r, o)| Contrast::between(&r, &o, scale_of(&best, &other)));
        c.equal(
            &format!("{name} contrast exists"),
            contrast.is_some(),
            !e["contrast"].is_null(),
        );
        if let Some(b) = &contrast {
            check_contrast(&mut c, name, b, &e["contrast"]);
        }
        bounded[usize::from(contrast.is_some())] += 1;
    }
    assert!(datasets.len() >= 20, "golden pairs look incomplete");
    assert!(
        methods[0] >= 5 && methods[1] >= 5,
        "need exact and asymptotic cases: {methods:?}"
    );
    assert!(
        bounded[0] >= 3 && bounded[1] >= 10,
        "need cases with too few values and cases bounded: {bounded:?}"
    );
    c.finish(datasets.len() * 12);
}

#[test]
fn median_bounds_match_their_definition_and_scipy() {
    let golden = load("medians.json");
    let datasets = golden["medians"].as_array().unwrap();
    let mut c = Checker::default();
    let mut none = 0;
    for d in datasets {
        let name = d["name"].as_str().unwrap();
        let b = MedianBounds::of(sample(&d["values"]).sorted(), num(d, "gamma"));
        none += usize::from(b.is_none());
        check_bounds(&mut c, name, b, &d["expected"]);
    }
    assert!(
        datasets.len() >= 60 && none >= 3,
        "golden median cases look incomplete"
    );
    c.finish(datasets.len() * 4);
}

#[test]
fn rankings_follow_their_definition() {
    let golden = load("levels.json");
    let cases = golden["cases"].as_array().unwrap();
    let mut c = Checker::default();
    let (mut made, mut partial) = (0, 0);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let e = &case["expected"];
        let samples: Vec<Sample> = case["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(sample)
            .collect();
        let settings = RankSettings {
            alpha: num(case, "alpha"),
            epsilon: Threshold::Percent(1.0),
            effect: Threshold::Percent(1.0),
        };
        let r = rank_with(&samples, RankOptions::default(), &settings).unwrap();
        let inference = flag(e, "inference");
        c.equal(&format!("{name} inference"), r.inference, inference);
        if !inference {
            c.equal(
                &format!("{name} runs needed"),
                r.runs_needed.map(|n| n as u64),
                e["runs_needed"].as_u64(),
            );
            continue;
        }
        made += 1;
        let mut compared: Vec<u64> = (r.entries.iter())
            .filter(|e| e.bounds.is_some())
            .map(|e| e.index as u64)
            .collect();
        compared.sort_unstable();
        let want: Vec<u64> = (e["compared"].as_array().unwrap().iter())
            .map(|v| v.as_u64().unwrap())
            .collect();
        partial += usize::from(want.len() < samples.len());
        c.equal(&format!("{name} compared"), compared, want);
        c.equal(
            &format!("{name} reference"),
            r.entries[0].index as u64,
            e["reference"].as_u64().unwrap(),
        );
        for entry in &r.entries {
            let key = entry.index.to_string();
            let what = format!("{name} #{key}");
            match (&entry.bounds, &entry.comparison) {
                (Some(_), comparison) => {
                    check_bounds(&mut c, &what, entry.bounds, &e["bounds"][&key]);
                    if let Some(k) = comparison {
                        check_contrast(&mut c, &what, &k.contrast, &e["contrasts"][&key]);
                    }
                }
                (None, _) => c.equal(
                    &format!("{what} runs needed"),
                    entry.runs_needed.map(|n| n as u64),
                    e["not_compared_runs_needed"].as_u64(),
                ),
            }
        }
        c.close(
            &format!("{name} each"),
            r.bound_confidence.unwrap_or(f64::NAN),
            num(e, "bound_confidence"),
            STATISTIC,
        );
        c.close(
            &format!("{name} together"),
            r.simultaneous_confidence.unwrap_or(f64::NAN),
            num(e, "simultaneous_confidence"),
            STATISTIC,
        );
    }
    assert!(cases.len() >= 60, "golden ranking cases look incomplete");
    assert!(
        made >= 30 && partial >= 5,
        "need rankings made, some with commands left out: {made} {partial}"
    );
    c.finish(cases.len() * 5);
}

#[test]
fn holm_matches_statsmodels() {
    let golden = load("holm.json");
    let cases = golden["cases"].as_array().unwrap();
    let mut c = Checker::default();
    for (i, case) in cases.iter().enumerate() {
        let adjusted = holm_adjust(&numbers(&case["p"]));
        let expected = numbers(&case["adjusted"]);
        c.equal(&format!("case {i} length"), adjusted.len(), expected.len());
        for (j, (a, e)) in adjusted.iter().zip(&expected).enumerate() {
            c.close(&format!("case {i} p[{j}]"), *a, *e, STATISTIC);
        }
    }
    c.finish(30);
}

#[test]
fn golden_files_hold_at_least_forty_datasets() {
    let samples = load("samples.json")["samples"].as_array().unwrap().len();
    let pairs = load("pairs.json")["pairs"].as_array().unwrap().len();
    assert!(samples + pairs >= 40, "{samples} samples + {pairs} pairs");
}

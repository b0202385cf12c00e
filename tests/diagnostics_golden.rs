//! Golden-vector tests of the time-order diagnostics: the best-case
//! estimate (after `tim`) and the Mann–Kendall trend test.
//!
//! `tools/golden_diagnostics.py` computed the expected values (an
//! independent Python implementation of the best-case definition; scipy's
//! `kendalltau` for the trend test) and stored them, with the input data,
//! in `tests/data/golden/`. Numbers agree to 1e-9 relative; Kendall's S,
//! stability verdicts and reasons for not applying agree exactly.

use bestguess::stats::{best_case, mann_kendall, BestCaseSettings, NotApplicable, Series};
use serde_json::Value;

mod support;

use support::golden as load;

fn series(v: &Value) -> Series {
    let values = v
        .as_array()
        .expect("an array of numbers")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    Series::new(values).expect("golden data are valid")
}

fn close(what: &str, actual: f64, expected: &Value) {
    let e = expected
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: expected value {expected} is not a number"));
    assert!(
        actual.is_finite() && (actual - e).abs() <= (1e-9 * e.abs()).max(1e-12),
        "{what}: got {actual:e}, expected {e:e}"
    );
}

fn not_applicable(e: &Value) -> Option<NotApplicable> {
    match e.get("not_applicable")?.as_str()? {
        "too_few_values" => Some(NotApplicable::TooFewValues {
            n: e["n"].as_u64().unwrap() as usize,
            min: e["min"].as_u64().unwrap() as usize,
        }),
        "zero_variance" => Some(NotApplicable::ZeroVariance),
        other => panic!("unknown reason {other}"),
    }
}

#[test]
fn best_case_matches_an_independent_implementation() {
    let golden = load("best_case.json");
    let datasets = golden["datasets"].as_array().unwrap();
    let (mut stable, mut unstable) = (0, 0);
    for d in datasets {
        let name = d["name"].as_str().unwrap();
        let settings = BestCaseSettings {
            k: d["k"].as_u64().unwrap() as usize,
            max_distance: d["max_distance"].as_f64().unwrap(),
        }
        .validated()
        .unwrap();
        let e = &d["expected"];
        let actual = best_case(&series(&d["values"]), &settings);
        if let Some(reason) = not_applicable(e) {
            assert_eq!(actual, Err(reason), "{name}");
            continue;
        }
        let b = actual.unwrap_or_else(|r| panic!("{name}: not applicable ({r})"));
        for (i, half) in b.halves.iter().enumerate() {
            let h = &e["halves"][i];
            assert_eq!(half.n as u64, h["n"].as_u64().unwrap(), "{name} half {i}");
            close(&format!("{name} half {i} mean"), half.mean, &h["mean"]);
            close(&format!("{name} half {i} sd"), half.sd, &h["sd"]);
        }
        close(&format!("{name} estimate"), b.estimate, &e["estimate"]);
        close(&format!("{name} error"), b.error, &e["error"]);
        match b.distance {
            Some(distance) => close(&format!("{name} distance"), distance, &e["distance"]),
            None => assert!(e["distance"].is_null(), "{name}: no distance"),
        }
        assert_eq!(b.stable, e["stable"].as_bool().unwrap(), "{name}");
        if b.stable {
            stable += 1;
        } else {
            unstable += 1;
        }
    }
    // The file holds stationary data and data whose fastest runs jump.
    assert!(
        stable >= 8 && unstable >= 4,
        "{stable} stable, {unstable} unstable"
    );
}

#[test]
fn mann_kendall_matches_scipy_kendalltau() {
    let golden = load("trend.json");
    let datasets = golden["datasets"].as_array().unwrap();
    let mut tested = 0;
    for d in datasets {
        let name = d["name"].as_str().unwrap();
        let e = &d["expected"];
        let actual = mann_kendall(&series(&d["values"]));
        if let Some(reason) = not_applicable(e) {
            assert_eq!(actual, Err(reason), "{name}");
            continue;
        }
        let mk = actual.unwrap_or_else(|r| panic!("{name}: not applicable ({r})"));
        assert_eq!(mk.s, e["s"].as_i64().unwrap(), "{name}: S");
        close(&format!("{name} tau"), mk.tau, &e["tau"]);
        close(&format!("{name} z"), mk.z, &e["z"]);
        close(&format!("{name} p"), mk.p_value, &e["p_value"]);
        tested += 1;
    }
    assert!(tested >= 8, "only {tested} datasets tested");
}

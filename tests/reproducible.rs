//! A random order can be rebuilt from what an experiment leaves behind: the
//! seed (printed on standard error, even with -Q, and recorded in the JSON
//! export's metadata) and the raw CSV. The order is rebuilt here with the
//! algorithm as docs/JSON.md states it, implemented independently of the
//! crate, and compared with the order the raw CSV's Sequence column says
//! the runs were made in.

use std::fs;

mod support;

use support::bestguess;

/// SplitMix64, as docs/JSON.md gives it.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The batches (command numbers, 1-based) in execution order, per
/// docs/JSON.md: one permutation of 1..=n, shuffled in place before each
/// round by Fisher–Yates from the end with j = ⌊x·(i+1)/2⁶⁴⌋.
fn documented_order(seed: u64, commands: usize, runs: usize) -> Vec<u64> {
    let mut rng = SplitMix64(seed);
    let mut round: Vec<u64> = (1..=commands as u64).collect();
    let mut order = Vec::new();
    for _ in 0..runs {
        for i in (1..commands).rev() {
            let j = ((u128::from(rng.next()) * (i as u128 + 1)) >> 64) as usize;
            round.swap(i, j);
        }
        order.extend(&round);
    }
    order
}

/// The batches of a raw CSV in the order its Sequence column gives.
fn csv_order(path: &std::path::Path) -> Vec<u64> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (batch, sequence) = (column("Batch"), column("Sequence"));
    let mut rows: Vec<(u64, u64)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[sequence].parse().unwrap(), r[batch].parse().unwrap())
        })
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, b)| b).collect()
}

#[test]
fn a_drawn_seed_reaches_the_json_and_rebuilds_the_order() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw.csv");
    let json = dir.path().join("x.json");
    let commands = ["true", "echo a", "echo b", "echo c"];
    let out = bestguess()
        .args(["-Q", "-r", "8", "--order", "random", "-o"])
        .arg(&raw)
        .arg("--export-json")
        .arg(&json)
        .args(commands)
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();

    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    let experiment = &doc["metadata"]["experiment"];
    assert_eq!(experiment["order"], "random");
    assert_eq!(experiment["seed_given"], false);
    let seed = experiment["seed"].as_u64().expect("the seed is recorded");
    // -Q prints nothing but errors: the seed line is held for the JSON.
    assert!(!stderr.contains("seed"), "{stderr}");
    let held = doc["metadata"]["messages"].to_string();
    assert!(held.contains(&format!("seed {seed} ")), "{held}");
    let n = experiment["commands"].as_u64().unwrap() as usize;
    let runs = experiment["runs"].as_u64().unwrap() as usize;
    assert_eq!((n, runs), (4, 8));

    let recorded = csv_order(&raw);
    assert_eq!(recorded.len(), 32);
    assert_eq!(recorded, documented_order(seed, n, runs));
    // Not trivially so: eight rounds of four are not all in input order.
    assert_ne!(recorded, documented_order(seed, n, 1).repeat(runs));

    // And the seed given back reproduces it.
    let again = dir.path().join("again.csv");
    bestguess()
        .args(["-Q", "-r", "8", "--order", "random", "--seed"])
        .arg(seed.to_string())
        .arg("-o")
        .arg(&again)
        .args(commands)
        .assert()
        .success();
    assert_eq!(csv_order(&again), recorded);
}

#[test]
fn a_large_given_seed_is_recorded_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("x.json");
    let seed = u64::MAX - 12;
    bestguess()
        .args(["-Q", "-r", "2", "--order", "random", "--seed"])
        .arg(seed.to_string())
        .arg("--export-json")
        .arg(&json)
        .args(["true", "echo"])
        .assert()
        .success();
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["metadata"]["experiment"]["seed"].as_u64(), Some(seed));
    assert_eq!(doc["metadata"]["experiment"]["seed_given"], true);
}

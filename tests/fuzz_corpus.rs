//! The fuzz targets (fuzz/targets.rs) replayed over their committed corpus
//! (fuzz/corpus/TARGET/), on the stable toolchain, inside `cargo test`:
//! every input the fuzzers kept, and every crash they ever found (added to
//! the corpus once fixed), must pass again.
//!
//! Fuzzing itself needs nightly: `cd fuzz && cargo +nightly fuzz run TARGET`.

#![allow(dead_code)]

include!("../fuzz/targets.rs");

fn replay(target: &str, run: fn(&[u8])) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no corpus for {target}");
    for path in inputs {
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target}: {} fails", path.display());
    }
}

#[test]
fn every_target_has_a_corpus_and_passes_it() {
    for &(name, run) in TARGETS {
        replay(name, run);
    }
}

//! The history's tests against a real PostgreSQL server: the same tests
//! as `tests/history_cli.rs` runs on an SQLite file.
//!
//! `BESTGUESS_TEST_POSTGRES` names the server (a `postgresql://` URL
//! whose database the tests may create others beside); `.ci/run` starts a
//! throwaway cluster and sets it. Without it each test says SKIPPED on
//! standard error — written past the test harness's capture, so that
//! `cargo test` shows it — and passes, except under CI (`CI` set), where
//! it fails: CI must test the real thing.

mod support;

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::history::*;

/// A URL of a new, empty database on the test server, or `None` (and
/// SKIPPED said) without one.
fn database(test: &str) -> Option<String> {
    let Ok(base) = std::env::var("BESTGUESS_TEST_POSTGRES") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: BESTGUESS_TEST_POSTGRES is not set under CI; .ci/run starts a PostgreSQL server and sets it"
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: no PostgreSQL server (set BESTGUESS_TEST_POSTGRES=postgresql://…; .ci/run does)"
        );
        return None;
    };
    static N: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "bestguess_test_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let mut client = postgres::Client::connect(&base, postgres::NoTls)
        .unwrap_or_else(|e| panic!("{test}: cannot connect to {base}: {e}"));
    client
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .unwrap();
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let (path, query) = match base.split_once('?') {
        Some((p, q)) => (p, format!("?{q}")),
        None => (base.as_str(), String::new()),
    };
    let scheme_end = path.find("://").map_or(0, |i| i + 3);
    let prefix = match path[scheme_end..].find('/') {
        Some(i) => &path[..scheme_end + i],
        None => path,
    };
    Some(format!("{prefix}/{name}{query}"))
}

#[test]
fn postgres_a_step_is_found_between_its_commits() {
    if let Some(url) = database("postgres_a_step_is_found_between_its_commits") {
        step_is_found(&url);
    }
}

#[test]
fn postgres_no_step_gives_no_change_point() {
    if let Some(url) = database("postgres_no_step_gives_no_change_point") {
        no_step_no_change_point(&url);
    }
}

#[test]
fn postgres_the_gate_fails_on_the_step_and_passes_without_it() {
    let test = "postgres_the_gate_fails_on_the_step_and_passes_without_it";
    if let (Some(a), Some(b)) = (database(test), database(test)) {
        gate_fails_on_the_step_only(&a, &b);
    }
}

#[test]
fn postgres_the_gate_with_little_history_says_so() {
    let test = "postgres_the_gate_with_little_history_says_so";
    if let (Some(a), Some(b)) = (database(test), database(test)) {
        gate_with_little_history(&a, &b);
    }
}

#[test]
fn postgres_raw_files_and_hyperfine_exports_are_imported() {
    if let Some(url) = database("postgres_raw_files_and_hyperfine_exports_are_imported") {
        import_raw_and_hyperfine(&url);
    }
}

#[test]
fn postgres_two_appends_at_once_both_land_whole() {
    if let Some(url) = database("postgres_two_appends_at_once_both_land_whole") {
        concurrent_appends(&url);
    }
}

#[test]
fn postgres_kill_9_during_an_append_leaves_no_half_experiment() {
    if let Some(url) = database("postgres_kill_9_during_an_append_leaves_no_half_experiment") {
        kill_during_append(&url);
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let orphans: i64 = client
            .query_one(
                "SELECT count(*) FROM bestguess_experiments e WHERE NOT EXISTS
                 (SELECT 1 FROM bestguess_commands c WHERE c.experiment_id = e.id)",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(orphans, 0);
    }
}

#[test]
fn postgres_a_server_that_is_down_costs_nothing() {
    if database("postgres_a_server_that_is_down_costs_nothing").is_some() {
        // A socket directory with no server in it.
        let d = tempfile::tempdir().unwrap();
        let url = format!("postgresql://postgres@/none?host={}", d.path().display());
        unusable_store(&url, "cannot connect to the history server");
    }
}

#[test]
fn postgres_a_newer_schema_is_refused() {
    if let Some(url) = database("postgres_a_newer_schema_is_refused") {
        let mut repo = Repo::new();
        repo.series(&url, [1000]);
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        client
            .execute("UPDATE bestguess_schema SET version = 99", &[])
            .unwrap();
        unusable_store(&url, "schema version 99");
    }
}

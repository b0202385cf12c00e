//! The performance history through the binaries, with the default store:
//! an SQLite file. The same tests run against PostgreSQL in
//! `tests/history_postgres.rs`.

mod support;

use std::process::Command;
use support::history::*;

fn store(dir: &tempfile::TempDir) -> String {
    dir.path().join("history.db").to_string_lossy().into_owned()
}

#[test]
fn a_step_is_found_between_its_commits() {
    let d = tempfile::tempdir().unwrap();
    step_is_found(&store(&d));
}

#[test]
fn no_step_gives_no_change_point() {
    let d = tempfile::tempdir().unwrap();
    no_step_no_change_point(&store(&d));
}

#[test]
fn the_gate_fails_on_the_step_and_passes_without_it() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    gate_fails_on_the_step_only(&store(&a), &store(&b));
}

#[test]
fn the_gate_with_little_history_says_so() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    gate_with_little_history(&store(&a), &store(&b));
}

#[test]
fn raw_files_and_hyperfine_exports_are_imported() {
    let d = tempfile::tempdir().unwrap();
    import_raw_and_hyperfine(&store(&d));
}

#[test]
fn two_appends_at_once_both_land_whole() {
    let d = tempfile::tempdir().unwrap();
    concurrent_appends(&store(&d));
}

#[test]
fn kill_9_during_an_append_leaves_no_half_experiment() {
    let d = tempfile::tempdir().unwrap();
    let s = store(&d);
    kill_during_append(&s);
    let conn = rusqlite::Connection::open(&s).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM bestguess_experiments e WHERE NOT EXISTS
             (SELECT 1 FROM bestguess_commands c WHERE c.experiment_id = e.id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);
}

#[test]
fn the_default_store_is_at_the_top_of_the_work_tree() {
    let mut repo = Repo::new();
    repo.commit(1000);
    let sub = repo.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(repo.path().join("cost"), sub.join("cost")).unwrap();
    std::fs::copy(repo.path().join("bench.sh"), sub.join("bench.sh")).unwrap();
    let out = Command::new(bin("bestguess"))
        .current_dir(&sub)
        .env_remove("BESTGUESS_HISTORY")
        .env("COUNTER", sub.join(".counter"))
        .args([
            "--history",
            "-r",
            "5",
            "-w",
            "0",
            "-Q",
            "--custom-metrics",
            "cost",
            "sh bench.sh",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(repo.path().join(".bestguess/history.db").is_file());
    // BESTGUESS_HISTORY names another.
    let other = repo.path().join("elsewhere.db");
    let out = Command::new(bin("bestguess"))
        .current_dir(&sub)
        .env("BESTGUESS_HISTORY", &other)
        .env("COUNTER", sub.join(".counter"))
        .args([
            "--history",
            "-r",
            "5",
            "-w",
            "0",
            "-Q",
            "--custom-metrics",
            "cost",
            "sh bench.sh",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(other.is_file());
}

#[test]
fn a_store_that_cannot_be_written_costs_nothing() {
    let d = tempfile::tempdir().unwrap();
    // A directory where the store's file should be cannot be a store.
    let s = d.path().join("dir.db");
    std::fs::create_dir(&s).unwrap();
    unusable_store(&s.to_string_lossy(), "dir.db");
}

#[test]
fn a_read_only_store_costs_nothing() {
    let d = tempfile::tempdir().unwrap();
    let s = store(&d);
    let mut repo = Repo::new();
    repo.series(&s, [1000]);
    let mut perms = std::fs::metadata(&s).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o444);
    std::fs::set_permissions(&s, perms).unwrap();
    let root = Command::new("id").arg("-u").output().unwrap();
    if String::from_utf8_lossy(&root.stdout).trim() == "0" {
        // Root writes whatever the mode says: the store is made read-only
        // by mounting its directory read-only in a namespace of our own.
        let probe = Command::new("unshare")
            .args([
                "-rm",
                "sh",
                "-c",
                "mount -o bind,ro \"$0\" \"$0\"",
                d.path().to_str().unwrap(),
            ])
            .output();
        if !probe.is_ok_and(|o| o.status.success()) {
            eprintln!("SKIPPED: root ignores file modes and no read-only mount can be made here");
            return;
        }
    }
    let mut repo2 = Repo::new();
    repo2.commit(1000);
    let raw = repo2.path().join("raw.csv");
    let mut cmd = repo2.bestguess(&s, &["-o", raw.to_str().unwrap(), "--summary"]);
    let out = if String::from_utf8_lossy(&root.stdout).trim() == "0" {
        let program = cmd.get_program().to_owned();
        let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
        Command::new("unshare")
            .current_dir(repo2.path())
            .env("COUNTER", repo2.path().join(".counter"))
            .env_remove("BESTGUESS_HISTORY")
            .args([
                "-rm",
                "sh",
                "-c",
                "mount -o bind,ro \"$0\" \"$0\" && shift && exec \"$@\"",
                d.path().to_str().unwrap(),
                "-",
            ])
            .arg(program)
            .args(args)
            .output()
            .unwrap()
    } else {
        cmd.output().unwrap()
    };
    let t = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(4), "{t}");
    assert!(t.contains("not recorded in the history"), "{t}");
    assert_eq!(std::fs::read_to_string(&raw).unwrap().lines().count(), 10);
}

#[test]
fn a_newer_schema_is_refused_and_an_older_one_migrated() {
    let d = tempfile::tempdir().unwrap();
    let s = store(&d);
    // Version 1: the tables, without the indexes of version 2.
    {
        let conn = rusqlite::Connection::open(&s).unwrap();
        conn.execute_batch("CREATE TABLE bestguess_schema (version BIGINT NOT NULL); INSERT INTO bestguess_schema VALUES (1);").unwrap();
        for sql in bestguess::history::schema::MIGRATIONS[0] {
            conn.execute(&bestguess::history::schema::Dialect::Sqlite.sql(sql), [])
                .unwrap();
        }
    }
    let mut repo = Repo::new();
    repo.series(&s, [1000]);
    {
        let conn = rusqlite::Connection::open(&s).unwrap();
        let v: i64 = conn
            .query_row("SELECT version FROM bestguess_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, bestguess::history::schema::VERSION);
        let index: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'bestguess_commands_name'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(index, 1);
        conn.execute("UPDATE bestguess_schema SET version = 99", [])
            .unwrap();
    }
    unusable_store(&s, "schema version 99");
    let out = bestreport(&s, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("schema version 99") && stderr.contains("newer bestguess"),
        "{stderr}"
    );
}

#[test]
fn history_options_are_checked() {
    let refused = |args: &[&str], running: bool, says: &str| {
        let out = Command::new(bin(if running { "bestguess" } else { "bestreport" }))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    refused(
        &["--commit", "abc", "true"],
        true,
        "only applies to the history",
    );
    refused(
        &["--history-import", "h.db", "a.csv"],
        false,
        "needs --commit",
    );
    refused(
        &["--history", "h.db", "a.csv"],
        false,
        "reads the store, not data files",
    );
    refused(
        &["--history", "--since", "yesterday"],
        false,
        "--since expects a date",
    );
    refused(
        &["--history", "--export-csv", "x.csv"],
        false,
        "not written for the history",
    );
    refused(
        &["--history", "--command", "x", "true"],
        true,
        "selects what bestreport --history reports",
    );
}

#[test]
fn a_name_after_the_store_names_the_command_that_follows() {
    let d = tempfile::tempdir().unwrap();
    let s = store(&d);
    let out = Command::new(bin("bestguess"))
        .current_dir(d.path())
        .args([
            "--history",
            &s,
            "-n",
            "fast",
            "true",
            "-r",
            "3",
            "-w",
            "0",
            "-Q",
            "--commit",
            "abc",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conn = rusqlite::Connection::open(&s).unwrap();
    let names: Vec<(String, String)> = conn
        .prepare("SELECT name, command FROM bestguess_commands")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(names, [("fast".to_owned(), "true".to_owned())]);
}

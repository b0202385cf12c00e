//! The default store: one SQLite file (through `rusqlite`, with SQLite
//! compiled in), in write-ahead-log mode so that readers never wait for a
//! writer, with a busy timeout so that two experiments appending at once
//! take turns instead of failing.

use std::rc::Rc;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};

use super::provenance::Machine;
use super::record::Experiment;
use super::schema::{self, Dialect};
use super::store::{self, Filter, Param, Store, StoreError, StoredCommand, StoredExperiment};

/// How long an append waits for another writer's transaction to end.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

pub struct SqliteStore {
    path: String,
    conn: Connection,
}

fn error(path: &str, what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError(format!("{path}: {what}: {e}"))
}

impl SqliteStore {
    /// Opens the file at `path`, creating it (and its directory) if
    /// needed, and brings its schema to [`schema::VERSION`].
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let p = std::path::Path::new(path);
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.exists() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| error(path, "cannot create the store's directory", e))?;
            }
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .or_else(|_| Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY))
        .map_err(|e| error(path, "cannot open the history store", e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| error(path, "cannot open the history store", e))?;
        let mut store = SqliteStore {
            path: path.to_owned(),
            conn,
        };
        store.migrate()?;
        Ok(store)
    }

    fn version(&self) -> Result<i64, StoreError> {
        let exists: Option<String> = self
            .conn
            .query_row(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'bestguess_schema'",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.unreadable(e))?;
        if exists.is_none() {
            return Ok(0);
        }
        self.conn
            .query_row("SELECT version FROM bestguess_schema", [], |r| r.get(0))
            .map_err(|e| self.unreadable(e))
    }

    fn unreadable(&self, e: rusqlite::Error) -> StoreError {
        error(
            &self.path,
            "cannot read the history store (is it an SQLite file?)",
            e,
        )
    }

    /// Applies the migrations the file lacks, in one transaction; refuses
    /// a file of a newer schema.
    fn migrate(&mut self) -> Result<(), StoreError> {
        let version = self.version()?;
        if version > schema::VERSION {
            return Err(store::newer_schema(&self.path, version));
        }
        if version == schema::VERSION {
            return Ok(());
        }
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| error(&path, "cannot set up the history store", e);
        // WAL is a property of the file: set once, before the first table.
        self.conn
            .query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
            .map_err(fail)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        // Another process may have migrated it while this one waited.
        let now: i64 = tx
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'bestguess_schema'",
                [],
                |r| r.get(0),
            )
            .map_err(fail)?;
        let version = if now == 0 {
            tx.execute(
                "CREATE TABLE bestguess_schema (version BIGINT NOT NULL)",
                [],
            )
            .map_err(fail)?;
            tx.execute("INSERT INTO bestguess_schema (version) VALUES (0)", [])
                .map_err(fail)?;
            0
        } else {
            tx.query_row("SELECT version FROM bestguess_schema", [], |r| r.get(0))
                .map_err(fail)?
        };
        if version > schema::VERSION {
            return Err(store::newer_schema(&path, version));
        }
        for sql in schema::migrations_from(version, Dialect::Sqlite) {
            tx.execute(&sql, []).map_err(fail)?;
        }
        tx.execute(
            "UPDATE bestguess_schema SET version = ?1",
            [schema::VERSION],
        )
        .map_err(fail)?;
        tx.commit().map_err(fail)
    }
}

/// The machine's row id, inserted if new.
fn machine_id(tx: &rusqlite::Transaction<'_>, m: &Machine) -> rusqlite::Result<i64> {
    let fingerprint = m.fingerprint();
    tx.execute(
        &Dialect::Sqlite.sql(
            "INSERT INTO bestguess_machines (fingerprint, cpu_model, cores, kernel, architecture, memory_bytes)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (fingerprint) DO NOTHING",
        ),
        rusqlite::params![
            fingerprint,
            m.cpu_model,
            i64::from(m.cores),
            m.kernel,
            m.architecture,
            i64::try_from(m.memory_bytes).unwrap_or(i64::MAX)
        ],
    )?;
    tx.query_row(
        "SELECT id FROM bestguess_machines WHERE fingerprint = ?1",
        [fingerprint],
        |r| r.get(0),
    )
}

impl Store for SqliteStore {
    fn append(&mut self, e: &Experiment) -> Result<i64, StoreError> {
        let path = self.path.clone();
        let fail = |err: rusqlite::Error| error(&path, "cannot write to the history store", err);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let machine = machine_id(&tx, &e.machine).map_err(fail)?;
        let id: i64 = tx
            .query_row(
                &Dialect::Sqlite.sql(super::INSERT_EXPERIMENT),
                rusqlite::params![
                    e.time_us,
                    e.git.commit,
                    e.git.branch,
                    e.git.dirty.map(i64::from),
                    e.git.commit_time_us,
                    e.tool_version,
                    machine,
                    e.settings,
                    e.source
                ],
                |r| r.get(0),
            )
            .map_err(fail)?;
        {
            let mut insert = tx
                .prepare(&Dialect::Sqlite.sql(super::INSERT_COMMAND))
                .map_err(fail)?;
            for c in &e.commands {
                insert
                    .execute(rusqlite::params![
                        id,
                        i64::from(c.position),
                        c.name,
                        c.command,
                        c.shell,
                        c.parameters,
                        i64::from(c.runs),
                        i64::from(c.failed),
                        c.metrics,
                        c.data
                    ])
                    .map_err(fail)?;
            }
        }
        super::pause_for_tests();
        tx.commit().map_err(fail)?;
        Ok(id)
    }

    fn load(&mut self, filter: &Filter) -> Result<Vec<StoredCommand>, StoreError> {
        let (clause, params) = store::where_clause(filter);
        let sql = Dialect::Sqlite.sql(&schema::LOAD.replace("{where}", &clause));
        let path = self.path.clone();
        let fail = |err: rusqlite::Error| error(&path, "cannot read the history store", err);
        let mut stmt = self.conn.prepare(&sql).map_err(fail)?;
        let values: Vec<rusqlite::types::Value> = params
            .into_iter()
            .map(|p| match p {
                Param::Text(t) => rusqlite::types::Value::Text(t),
                Param::Int(i) => rusqlite::types::Value::Integer(i),
            })
            .collect();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(values))
            .map_err(fail)?;
        let mut out = Vec::new();
        let mut last: Option<Rc<StoredExperiment>> = None;
        while let Some(r) = rows.next().map_err(fail)? {
            let id: i64 = r.get(0).map_err(fail)?;
            let experiment = match &last {
                Some(e) if e.id == id => e.clone(),
                _ => {
                    let e = Rc::new(StoredExperiment {
                        id,
                        time_us: r.get(1).map_err(fail)?,
                        commit: r.get(2).map_err(fail)?,
                        branch: r.get(3).map_err(fail)?,
                        dirty: r.get::<_, Option<i64>>(4).map_err(fail)?.map(|d| d != 0),
                        commit_time_us: r.get(5).map_err(fail)?,
                        tool_version: r.get(6).map_err(fail)?,
                        fingerprint: r.get(7).map_err(fail)?,
                        machine: Machine {
                            cpu_model: r.get(8).map_err(fail)?,
                            cores: u32::try_from(r.get::<_, i64>(9).map_err(fail)?).unwrap_or(0),
                            kernel: r.get(10).map_err(fail)?,
                            architecture: r.get(11).map_err(fail)?,
                            memory_bytes: u64::try_from(r.get::<_, i64>(12).map_err(fail)?)
                                .unwrap_or(0),
                        },
                    });
                    last = Some(e.clone());
                    e
                }
            };
            out.push(StoredCommand {
                experiment,
                name: r.get(13).map_err(fail)?,
                runs: u32::try_from(r.get::<_, i64>(14).map_err(fail)?).unwrap_or(0),
                failed: u32::try_from(r.get::<_, i64>(15).map_err(fail)?).unwrap_or(0),
                metrics: r.get(16).map_err(fail)?,
                data: r.get(17).map_err(fail)?,
            });
        }
        Ok(out)
    }
}

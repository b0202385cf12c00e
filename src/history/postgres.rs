//! The shared store: a PostgreSQL server (through the `postgres` crate's
//! blocking client), for teams and CI fleets whose runners keep one
//! history. The schema is the SQLite store's ([`super::schema`]); every
//! append is one transaction, and migrations hold an advisory lock so
//! that two runners starting on an empty database do not both create it.

use std::rc::Rc;

use postgres::{Client, NoTls};

use super::provenance::Machine;
use super::record::Experiment;
use super::schema::{self, Dialect};
use super::store::{
    self, Filter, Location, Param, Store, StoreError, StoredCommand, StoredExperiment,
};

pub struct PostgresStore {
    shown: String,
    client: Client,
}

/// The advisory lock key migrations hold ("bestguess" in ASCII, cut to
/// 63 bits).
const MIGRATION_LOCK: i64 = 0x0062_6573_7467_7565;

impl PostgresStore {
    /// Connects to the server at `url` and brings the schema to
    /// [`schema::VERSION`].
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let shown = Location::Postgres(url.to_owned()).shown();
        let client = Client::connect(url, NoTls).map_err(|e| {
            StoreError(format!(
                "{shown}: cannot connect to the history server: {}",
                one_line(&e)
            ))
        })?;
        let mut store = PostgresStore { shown, client };
        store.migrate()?;
        Ok(store)
    }

    fn fail(&self, what: &str, e: &postgres::Error) -> StoreError {
        StoreError(format!("{}: {what}: {}", self.shown, one_line(e)))
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let mut tx = self
            .client
            .transaction()
            .map_err(|e| StoreError(format!("{}: {}", self.shown, one_line(&e))))?;
        let steps = (|| -> Result<Result<(), i64>, postgres::Error> {
            let exists: bool = tx
                .query_one("SELECT to_regclass('bestguess_schema') IS NOT NULL", &[])?
                .get(0);
            let read = |tx: &mut postgres::Transaction<'_>| -> Result<i64, postgres::Error> {
                Ok(tx
                    .query_one("SELECT version FROM bestguess_schema", &[])?
                    .get(0))
            };
            if exists && read(&mut tx)? == schema::VERSION {
                return Ok(Ok(()));
            }
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
            let exists: bool = tx
                .query_one("SELECT to_regclass('bestguess_schema') IS NOT NULL", &[])?
                .get(0);
            let version = if exists {
                read(&mut tx)?
            } else {
                tx.batch_execute(
                    "CREATE TABLE bestguess_schema (version BIGINT NOT NULL);
                     INSERT INTO bestguess_schema (version) VALUES (0)",
                )?;
                0
            };
            if version > schema::VERSION {
                return Ok(Err(version));
            }
            for sql in schema::migrations_from(version, Dialect::Postgres) {
                tx.batch_execute(&sql)?;
            }
            tx.execute(
                "UPDATE bestguess_schema SET version = $1",
                &[&schema::VERSION],
            )?;
            Ok(Ok(()))
        })();
        match steps {
            Ok(Ok(())) => tx
                .commit()
                .map_err(|e| StoreError(format!("{}: {}", self.shown, one_line(&e)))),
            Ok(Err(version)) => Err(store::newer_schema(&self.shown, version)),
            Err(e) => Err(StoreError(format!(
                "{}: cannot set up the history store: {}",
                self.shown,
                one_line(&e)
            ))),
        }
    }
}

/// The error and its causes on one line.
fn one_line(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let t = s.to_string();
        if !text.contains(&t) {
            text.push_str(": ");
            text.push_str(&t);
        }
        source = s.source();
    }
    text.replace('\n', " ")
}

impl Store for PostgresStore {
    fn append(&mut self, e: &Experiment) -> Result<i64, StoreError> {
        let result = (|| -> Result<i64, postgres::Error> {
            let mut tx = self.client.transaction()?;
            let m = &e.machine;
            let fingerprint = m.fingerprint();
            tx.execute(
                "INSERT INTO bestguess_machines (fingerprint, cpu_model, cores, kernel, architecture, memory_bytes)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (fingerprint) DO NOTHING",
                &[
                    &fingerprint,
                    &m.cpu_model,
                    &i64::from(m.cores),
                    &m.kernel,
                    &m.architecture,
                    &i64::try_from(m.memory_bytes).unwrap_or(i64::MAX),
                ],
            )?;
            let machine: i64 = tx
                .query_one(
                    "SELECT id FROM bestguess_machines WHERE fingerprint = $1",
                    &[&fingerprint],
                )?
                .get(0);
            let id: i64 = tx
                .query_one(
                    super::INSERT_EXPERIMENT,
                    &[
                        &e.time_us,
                        &e.git.commit,
                        &e.git.branch,
                        &e.git.dirty.map(i64::from),
                        &e.git.commit_time_us,
                        &e.tool_version,
                        &machine,
                        &e.settings,
                        &e.source,
                    ],
                )?
                .get(0);
            let insert = tx.prepare(super::INSERT_COMMAND)?;
            for c in &e.commands {
                tx.execute(
                    &insert,
                    &[
                        &id,
                        &i64::from(c.position),
                        &c.name,
                        &c.command,
                        &c.shell,
                        &c.parameters,
                        &i64::from(c.runs),
                        &i64::from(c.failed),
                        &c.metrics,
                        &c.data,
                    ],
                )?;
            }
            super::pause_for_tests();
            tx.commit()?;
            Ok(id)
        })();
        result.map_err(|err| self.fail("cannot write to the history store", &err))
    }

    fn load(&mut self, filter: &Filter) -> Result<Vec<StoredCommand>, StoreError> {
        let (clause, params) = store::where_clause(filter);
        let sql = schema::LOAD.replace("{where}", &clause);
        let values: Vec<Box<dyn postgres::types::ToSql + Sync>> = params
            .into_iter()
            .map(|p| -> Box<dyn postgres::types::ToSql + Sync> {
                match p {
                    Param::Text(t) => Box::new(t),
                    Param::Int(i) => Box::new(i),
                }
            })
            .collect();
        let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
            values.iter().map(|b| b.as_ref()).collect();
        let rows = self
            .client
            .query(sql.as_str(), &refs)
            .map_err(|e| self.fail("cannot read the history store", &e))?;
        let mut out = Vec::with_capacity(rows.len());
        let mut last: Option<Rc<StoredExperiment>> = None;
        for r in rows {
            let id: i64 = r.get(0);
            let experiment = match &last {
                Some(e) if e.id == id => e.clone(),
                _ => {
                    let e = Rc::new(StoredExperiment {
                        id,
                        time_us: r.get(1),
                        commit: r.get(2),
                        branch: r.get(3),
                        dirty: r.get::<_, Option<i64>>(4).map(|d| d != 0),
                        commit_time_us: r.get(5),
                        tool_version: r.get(6),
                        fingerprint: r.get(7),
                        machine: Machine {
                            cpu_model: r.get(8),
                            cores: u32::try_from(r.get::<_, i64>(9)).unwrap_or(0),
                            kernel: r.get(10),
                            architecture: r.get(11),
                            memory_bytes: u64::try_from(r.get::<_, i64>(12)).unwrap_or(0),
                        },
                    });
                    last = Some(e.clone());
                    e
                }
            };
            out.push(StoredCommand {
                experiment,
                name: r.get(13),
                runs: u32::try_from(r.get::<_, i64>(14)).unwrap_or(0),
                failed: u32::try_from(r.get::<_, i64>(15)).unwrap_or(0),
                metrics: r.get(16),
                data: r.get(17),
            });
        }
        Ok(out)
    }
}

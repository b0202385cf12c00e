//! Where the history is kept: the [`Store`] trait with its two
//! implementations (an SQLite file, the default; a PostgreSQL server), and
//! how a store is named.

use std::fmt;

use super::provenance::Machine;
use super::record::Experiment;

/// Why a store could not be opened, read or written: one line, naming
/// the store, that says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Which experiments a report reads. Every field left `None` matches all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// The benchmark's command name, exactly.
    pub command: Option<String>,
    /// A prefix of the machine's fingerprint.
    pub machine: Option<String>,
    /// Experiments made at or after this time (µs since the epoch).
    pub since_us: Option<i64>,
    pub branch: Option<String>,
}

/// One experiment's provenance, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredExperiment {
    pub id: i64,
    pub time_us: i64,
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub dirty: Option<bool>,
    pub commit_time_us: Option<i64>,
    pub tool_version: String,
    pub fingerprint: String,
    pub machine: Machine,
}

/// One command of one experiment, as read back (runs still packed).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredCommand {
    pub experiment: std::rc::Rc<StoredExperiment>,
    /// Its place among the experiment's commands.
    pub position: u32,
    pub name: String,
    pub runs: u32,
    pub failed: u32,
    pub metrics: String,
    pub data: Vec<u8>,
}

/// A history store.
pub trait Store {
    /// Appends `experiment` in one transaction: after a crash or a kill
    /// the store holds all of it or none. Returns its id.
    fn append(&mut self, experiment: &Experiment) -> Result<i64, StoreError>;

    /// The stored commands `filter` selects, oldest commit first
    /// (commit time, else the experiment's time), then by experiment and
    /// position.
    fn load(&mut self, filter: &Filter) -> Result<Vec<StoredCommand>, StoreError>;
}

/// The environment variable that names the store when `--history` does not.
pub const STORE_VARIABLE: &str = "BESTGUESS_HISTORY";

/// The store without `--history STORE` or [`STORE_VARIABLE`], relative to
/// the top of the git work tree.
pub const DEFAULT_STORE: &str = ".bestguess/history.db";

/// A store's name as given: a file path or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(String),
    Postgres(String),
}

impl Location {
    /// `postgres://` and `postgresql://` URLs name a server; anything else
    /// is an SQLite file.
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(text.to_owned())
        } else {
            Location::Sqlite(text.to_owned())
        }
    }

    /// Whether a command-line word names a store rather than a command
    /// or a data file: a PostgreSQL URL, or a path ending in `.db`,
    /// `.sqlite` or `.sqlite3`.
    pub fn looks_like_store(word: &str) -> bool {
        let lower = word.to_ascii_lowercase();
        matches!(Location::parse(word), Location::Postgres(_))
            || [".db", ".sqlite", ".sqlite3"]
                .iter()
                .any(|e| lower.ends_with(e) && lower.len() > e.len())
    }

    /// How the store is named in messages: a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => p.clone(),
            Location::Postgres(url) => hide_password(url),
        }
    }

    /// The store named by `given`, else by [`STORE_VARIABLE`], else
    /// [`DEFAULT_STORE`] at the top of the git work tree (the current
    /// directory outside one).
    pub fn resolve(given: Option<&str>) -> Location {
        if let Some(g) = given.filter(|g| !g.is_empty()) {
            return Location::parse(g);
        }
        if let Ok(env) = std::env::var(STORE_VARIABLE) {
            if !env.is_empty() {
                return Location::parse(&env);
            }
        }
        let top = super::provenance::work_tree_top().unwrap_or_else(|| ".".to_owned());
        Location::Sqlite(
            std::path::Path::new(&top)
                .join(DEFAULT_STORE)
                .to_string_lossy()
                .into_owned(),
        )
    }

    /// Opens (creating or migrating) the store.
    pub fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        match self {
            Location::Sqlite(path) => Ok(Box::new(super::sqlite::SqliteStore::open(path)?)),
            Location::Postgres(url) => Ok(Box::new(super::postgres::PostgresStore::open(url)?)),
        }
    }
}

/// `postgresql://user:secret@host/db` as `postgresql://user:***@host/db`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}{tail}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// The refusal of a store written by a newer version.
pub fn newer_schema(store: &str, version: i64) -> StoreError {
    StoreError(format!(
        "{store}: the history store has schema version {version}, and this bestguess ({}) reads versions up to {}; use a newer bestguess, or another store",
        env!("CARGO_PKG_VERSION"),
        super::schema::VERSION
    ))
}

/// `rows` in the order [`Store::load`] gives them: oldest commit first
/// (commit time, else the experiment's time), then by the experiment's
/// time and id, then by position.
pub fn in_commit_order(mut rows: Vec<StoredCommand>) -> Vec<StoredCommand> {
    rows.sort_by_key(|r| {
        let e = &r.experiment;
        (
            e.commit_time_us.unwrap_or(e.time_us),
            e.time_us,
            e.id,
            r.position,
        )
    });
    rows
}

/// A value bound to a query's placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    Text(String),
    Int(i64),
}

/// The `WHERE` clause of `filter` with its values, `$1`, `$2`, … in order.
pub fn where_clause(filter: &Filter) -> (String, Vec<Param>) {
    let mut terms = Vec::new();
    let mut params = Vec::new();
    let mut term = |sql: &str, p: Param| {
        params.push(p);
        terms.push(sql.replace('#', &format!("${}", params.len())));
    };
    if let Some(c) = &filter.command {
        term("c.name = #", Param::Text(c.clone()));
    }
    if let Some(m) = &filter.machine {
        // A prefix: LIKE with the pattern's own characters escaped.
        let escaped = m
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        term(
            "m.fingerprint LIKE # ESCAPE '\\'",
            Param::Text(format!("{escaped}%")),
        );
    }
    if let Some(t) = filter.since_us {
        term("e.time_us >= #", Param::Int(t));
    }
    if let Some(b) = &filter.branch {
        term("e.branch = #", Param::Text(b.clone()));
    }
    let sql = if terms.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", terms.join(" AND "))
    };
    (sql, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_oldest_commit_first_then_by_experiment_and_position() {
        let experiment = |id: i64, time_us: i64, commit_time_us: Option<i64>| {
            std::rc::Rc::new(StoredExperiment {
                id,
                time_us,
                commit: None,
                branch: None,
                dirty: None,
                commit_time_us,
                tool_version: String::new(),
                fingerprint: String::new(),
                machine: Machine::default(),
            })
        };
        let row = |e: &std::rc::Rc<StoredExperiment>, position: u32| StoredCommand {
            experiment: e.clone(),
            position,
            name: String::new(),
            runs: 0,
            failed: 0,
            metrics: String::new(),
            data: Vec::new(),
        };
        // Experiment 1 measured last but of the oldest commit; 2 and 3 of
        // one commit, 3 measured first; 4 without a commit time.
        let (e1, e2, e3, e4) = (
            experiment(1, 900, Some(10)),
            experiment(2, 300, Some(20)),
            experiment(3, 200, Some(20)),
            experiment(4, 15, None),
        );
        let rows = vec![
            row(&e2, 1),
            row(&e4, 0),
            row(&e1, 1),
            row(&e3, 0),
            row(&e2, 0),
            row(&e1, 0),
        ];
        let order: Vec<(i64, u32)> = in_commit_order(rows)
            .iter()
            .map(|r| (r.experiment.id, r.position))
            .collect();
        assert_eq!(order, [(1, 0), (1, 1), (4, 0), (3, 0), (2, 0), (2, 1)]);
    }

    #[test]
    fn stores_are_told_apart_by_their_names() {
        assert_eq!(
            Location::parse("postgresql://u@h/db"),
            Location::Postgres("postgresql://u@h/db".into())
        );
        assert_eq!(Location::parse("h.db"), Location::Sqlite("h.db".into()));
        assert!(Location::looks_like_store("a/b.sqlite3"));
        assert!(Location::looks_like_store("postgres://x"));
        assert!(!Location::looks_like_store("raw.csv"));
        assert!(!Location::looks_like_store(".db"));
        assert!(!Location::looks_like_store("true"));
        assert_eq!(
            hide_password("postgresql://me:pw@host:5432/db"),
            "postgresql://me:***@host:5432/db"
        );
        assert_eq!(
            hide_password("postgresql:///db?host=/tmp"),
            "postgresql:///db?host=/tmp"
        );
    }
}

//! A PostgreSQL backend for governed agent memory: [`PostgresBackend`] implements the whole
//! [`store_trait::Backend`] (agent memories and governance state) and
//! [`store_trait::StoreBackend`] (memory stores, versions, sessions) on one database, so that
//! several service instances — on one machine or many — share one memory with one set of limits.
//!
//! It is a separate crate so that the facade's dependency tree stays free of network code. The
//! client is blocking (`postgres`) with an `r2d2` connection pool; the schema is created and
//! upgraded by embedded, versioned migrations at open. Limits hold across processes: every
//! read-decide-write runs in one transaction under PostgreSQL advisory locks (see
//! `docs/storage-postgres.md`).
//!
//! ```no_run
//! use store_postgres::PostgresBackend;
//! use store_trait::{Backend, Owner, ScanQuery};
//! use memory_core::{MemberId, Timestamp, WorkspaceId};
//!
//! let backend = PostgresBackend::connect("postgres://postgres@127.0.0.1:5432/postgres", 8)?;
//! let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
//! let now = Timestamp::now();
//! let page = backend.scan(&owner, &ScanQuery::new(now, now.minus_days(90), 20))?;
//! println!("{} versions", page.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod agent;
mod client;
mod kv;
mod migrations;
mod rows;
#[cfg(test)]
mod tests;

use std::fmt;

use r2d2_postgres::PostgresConnectionManager;
use r2d2_postgres::postgres::{self, NoTls};
use store_kv::KvStores;
use store_trait::{Error, HasStores};

pub use client::PgError;
pub use kv::StoreTable;

use crate::client::{Conn, Pool, db, lock};

/// Governed agent memory on PostgreSQL. Cheap to share behind an `Arc`; every method takes a
/// connection from the pool for its duration.
pub struct PostgresBackend {
    /// The memory stores, in the key space of the table `memory_store_kv`, whose pool serves
    /// every call.
    stores: KvStores<StoreTable>,
}

/// Memory stores are [`KvStores`]' over the table `memory_store_kv`.
impl HasStores for PostgresBackend {
    type Stores = KvStores<StoreTable>;

    fn stores(&self) -> &KvStores<StoreTable> {
        &self.stores
    }
}

impl fmt::Debug for PostgresBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.pool().state();
        f.debug_struct("PostgresBackend")
            .field("connections", &state.connections)
            .field("idle", &state.idle_connections)
            .finish()
    }
}

impl PostgresBackend {
    /// Connects to the database at `url` (a `postgres://` URL or a libpq key-value string) with
    /// at most `pool_size` connections, and applies the schema migrations this build has and the
    /// database lacks. Refuses a database whose schema is newer than this build
    /// ([`Error::Format`]).
    pub fn connect(url: &str, pool_size: u32) -> Result<Self, Error> {
        let config: postgres::Config = url
            .parse()
            .map_err(|e| Error::other("invalid database URL", PgError(e)))?;
        Self::open(config, pool_size)
    }

    /// [`connect`](Self::connect) with every table in `schema` (created when absent): several
    /// independent memories in one database, such as one per test.
    pub fn connect_in_schema(url: &str, schema: &str, pool_size: u32) -> Result<Self, Error> {
        Self::open(schema_config(url, schema)?, pool_size)
    }

    /// Drops `schema` and everything in it (a throw-away schema of
    /// [`connect_in_schema`](Self::connect_in_schema), such as a replay's or a test's).
    pub fn drop_schema(url: &str, schema: &str) -> Result<(), Error> {
        let config: postgres::Config = url
            .parse()
            .map_err(|e| Error::other("invalid database URL", PgError(e)))?;
        let mut client = config.connect(NoTls).map_err(db)?;
        let quoted = format!("\"{}\"", schema.replace('"', "\"\""));
        client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {quoted} CASCADE"))
            .map_err(db)
    }

    /// Opens a pool over `config` and migrates the schema.
    pub fn open(config: postgres::Config, pool_size: u32) -> Result<Self, Error> {
        let backend = Self::unmigrated(config, pool_size)?;
        backend.migrate_to(migrations::latest())?;
        Ok(backend)
    }

    /// A pool over `config`, the schema left as it is.
    fn unmigrated(config: postgres::Config, pool_size: u32) -> Result<Self, Error> {
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = r2d2_postgres::r2d2::Pool::builder()
            .max_size(pool_size.max(1))
            .min_idle(Some(0))
            .build(manager)
            .map_err(|e| Error::other("connecting to the database", e))?;
        Ok(PostgresBackend {
            stores: KvStores::over(StoreTable { pool }),
        })
    }

    fn pool(&self) -> &Pool {
        &self.stores.kv().pool
    }

    pub(crate) fn conn(&self) -> Result<Conn, Error> {
        self.stores.kv().conn()
    }

    /// The schema version the database is at (the newest migration applied).
    pub fn schema_version(&self) -> Result<i32, Error> {
        let mut conn = self.conn()?;
        let row = conn
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                &[],
            )
            .map_err(db)?;
        Ok(row.get(0))
    }

    /// Applies the missing migrations up to `target` (each one's SQL, then its Rust step) in one
    /// transaction under an advisory lock, so that instances starting together migrate once;
    /// refuses a database newer than this build. `open` migrates to the latest version; the
    /// upgrade tests stop at an older one.
    fn migrate_to(&self, target: i32) -> Result<(), Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))",
            &[&lock::MIGRATE],
        )
        .map_err(db)?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                 version integer PRIMARY KEY,
                 applied_at timestamptz NOT NULL DEFAULT now()
             )",
        )
        .map_err(db)?;
        let current: i32 = tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                &[],
            )
            .map_err(db)?
            .get(0);
        let latest = migrations::latest();
        if current > latest {
            return Err(Error::Format(format!(
                "the database schema is at version {current}, newer than the {latest} this build \
                 knows; upgrade agent-memory"
            )));
        }
        for (version, sql) in migrations::MIGRATIONS {
            if *version > current && *version <= target {
                tx.batch_execute(sql).map_err(db)?;
                migrations::after_sql(*version, &mut tx)?;
                tx.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)",
                    &[version],
                )
                .map_err(db)?;
            }
        }
        tx.commit().map_err(db)
    }
}

/// `url`'s configuration with every table in `schema` (created when absent).
fn schema_config(url: &str, schema: &str) -> Result<postgres::Config, Error> {
    let mut config: postgres::Config = url
        .parse()
        .map_err(|e| Error::other("invalid database URL", PgError(e)))?;
    let quoted = format!("\"{}\"", schema.replace('"', "\"\""));
    let mut client = config.connect(NoTls).map_err(db)?;
    client
        .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {quoted}"))
        .map_err(db)?;
    // Spaces and backslashes in the option value are escaped for the startup packet.
    let path = quoted.replace('\\', "\\\\").replace(' ', "\\ ");
    config.options(&format!("-c search_path={path}"));
    Ok(config)
}

impl store_trait::Database for PostgresBackend {
    /// Rewrites the tables with `VACUUM FULL` so that removed rows leave the data files; reports
    /// the tables' sizes (`pg_total_relation_size`, indexes and TOAST included) before and after.
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<store_trait::VacuumReport, Error> {
        const TABLES: &[&str] = &[
            "memory_store_kv",
            "agent_memory_versions",
            "agent_memory_postings",
            "agent_memory_vectors",
            "agent_memory_keys",
            "rate_windows",
            "workspace_settings",
        ];
        let mut conn = self.conn()?;
        let size = |conn: &mut Conn| -> Result<u64, Error> {
            let mut total = 0u64;
            for table in TABLES {
                let row = conn
                    .query_one(
                        "SELECT pg_total_relation_size($1::text::regclass)",
                        &[table],
                    )
                    .map_err(db)?;
                total += u64::try_from(row.get::<_, i64>(0)).unwrap_or(0);
            }
            Ok(total)
        };
        let bytes_before = size(&mut conn)?;
        let entries: i64 = conn
            .query_one("SELECT count(*) FROM memory_store_kv", &[])
            .map_err(db)?
            .get(0);
        let steps = TABLES.len() as u64;
        for (i, table) in TABLES.iter().enumerate() {
            progress(i as u64, steps);
            // VACUUM cannot run in a transaction block: one statement per table.
            conn.batch_execute(&format!("VACUUM FULL {table}"))
                .map_err(db)?;
        }
        progress(steps, steps);
        Ok(store_trait::VacuumReport {
            bytes_before,
            bytes_after: size(&mut conn)?,
            entries: u64::try_from(entries).unwrap_or(0),
        })
    }

    /// The newest schema migration of this build: [`PostgresBackend::open`] applied every one
    /// (or refused a newer database).
    fn format_version(&self) -> Option<u32> {
        u32::try_from(migrations::latest()).ok()
    }

    /// Every commit is acknowledged once the server made it durable (PostgreSQL's default
    /// `synchronous_commit`; a server configured otherwise weakens this).
    fn durability(&self) -> Option<store_trait::Durability> {
        Some(store_trait::Durability::Immediate)
    }
}

//! The connection pool's types, the advisory-lock classes and the conversion of a PostgreSQL
//! client error, shared by the memory stores (`kv.rs`) and agent memories (`agent.rs`,
//! `rows.rs`).

use r2d2_postgres::PostgresConnectionManager;
use r2d2_postgres::postgres::{self, NoTls};
use store_trait::Error;

pub(crate) type Pool = r2d2_postgres::r2d2::Pool<PostgresConnectionManager<NoTls>>;
pub(crate) type Conn = r2d2_postgres::r2d2::PooledConnection<PostgresConnectionManager<NoTls>>;

/// Advisory-lock classes (the first key of `pg_advisory_xact_lock(int, int)`), so that locks of
/// different kinds never share a key.
pub(crate) mod lock {
    /// Schema migrations at open.
    pub(crate) const MIGRATE: i32 = 0x616d_0001;
    /// A workspace: shared by per-owner operations, exclusive for workspace-wide ones.
    pub(crate) const WORKSPACE: i32 = 0x616d_0002;
    /// An owner (workspace, member): quota, key index and versions.
    pub(crate) const OWNER: i32 = 0x616d_0003;
    /// A credential's rate window (workspace, credential).
    pub(crate) const CREDENTIAL: i32 = 0x616d_0004;
    /// Memory-store steps (one per schema).
    pub(crate) const STORES: i32 = 0x616d_0005;
}

/// A PostgreSQL client error, kept as the cause.
pub(crate) fn db(e: postgres::Error) -> Error {
    Error::other("postgres", e)
}

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
    Error::other("postgres", PgError(e))
}

/// A PostgreSQL client error whose `Display` names its SQLSTATE code and nothing else.
///
/// The server's message can quote a value of the statement it refused (`invalid input syntax
/// for type …: "…"`, a `DETAIL: Key (…)=(…)` line), and a storage error carries no memory
/// content, since whoever turns it into a 500 logs its chain. The client's error stays inside,
/// whole, for code that downcasts to read it ([`PgError::client_error`]); it is not offered as
/// [`source`](std::error::Error::source), so that printing the chain cannot reach its text.
#[derive(Debug)]
pub struct PgError(pub(crate) postgres::Error);

impl PgError {
    /// The client's error, with the server's message and detail.
    pub fn client_error(&self) -> &postgres::Error {
        &self.0
    }
}

impl std::fmt::Display for PgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.code() {
            Some(code) => write!(f, "PostgreSQL error SQLSTATE {}", code.code()),
            None if self.0.is_closed() => f.write_str("the PostgreSQL connection is closed"),
            None => f.write_str("a PostgreSQL client error (no SQLSTATE)"),
        }
    }
}

impl std::error::Error for PgError {}

//! The storage backends a host hands to [`MemoryService`](crate::MemoryService) and
//! [`StoreService`](crate::StoreService), re-exported so that `agent-memory` is the one
//! dependency a host needs.
//!
//! [`InMemoryBackend`] is always here (tests, scripts, a single process that may forget
//! everything). The durable ones come with the crate feature of the same name:
//!
//! | feature    | backend           | what it is |
//! |------------|-------------------|------------|
//! | `redb`     | `RedbBackend`     | one redb database file; one fsync per commit with [`Durability::Immediate`] |
//! | `sled`     | `SledBackend`     | a sled 0.34 database directory |
//! | `sqlite`   | `SqliteBackend`   | one SQLite database file (WAL) that several processes open at once, with limits held across them |
//! | `postgres` | `PostgresBackend` | a PostgreSQL database that several service instances share, with limits held across processes |
//!
//! `postgres` is the one feature that brings network code into a host's build: the PostgreSQL
//! client (and the tokio runtime it runs on). Without it the facade's dependency tree opens no
//! socket.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::backends::{Backend, InMemoryBackend, Owner};
//! use agent_memory::{MemberId, WorkspaceId};
//!
//! let backend = Arc::new(InMemoryBackend::new());
//! let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
//! assert_eq!(backend.settings(&owner.workspace)?, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use store_kv::InMemoryBackend;
pub use store_trait::{Backend, Database, Durability, Error, Owner, Storage, StoreBackend};

#[cfg(feature = "redb")]
pub use store_redb::RedbBackend;

#[cfg(feature = "sled")]
pub use store_sled::SledBackend;

#[cfg(feature = "sqlite")]
pub use store_sqlite::SqliteBackend;

#[cfg(feature = "postgres")]
pub use store_postgres::PostgresBackend;

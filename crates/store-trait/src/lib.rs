//! The storage [`Backend`] trait for governed agent memory and the [`InMemoryBackend`].
//!
//! A backend stores agent-memory versions per [`Owner`] (workspace, member) and the governance
//! state that must hold across processes: the credentials' rate windows, the quota's count, the
//! (namespace, key) index and the workspace settings. It decides nothing itself:
//! [`Backend::remember`] reads a [`RememberState`], hands it to the caller's `decide` closure
//! (rate limit, quota, version number, supersede) and applies the [`RememberWrite`] it returns
//! in the same transaction, so check-and-write is atomic.
//!
//! ```
//! use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, Timestamp, WorkspaceId};
//! use store_trait::{Backend, InMemoryBackend, Owner, RememberOutcome, RememberWrite, ScanQuery};
//!
//! let backend = InMemoryBackend::new();
//! let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
//! let credential = CredentialId::new("cred_a")?;
//! let now: Timestamp = "2026-01-01T00:00:00Z".parse()?;
//! let (text, _masked) = MemoryText::mask("Reply tersely");
//!
//! let outcome = backend.remember(
//!     &owner,
//!     &credential,
//!     Some(("prefs", "tone")),
//!     now.minus_seconds(3600), // the rate window's start
//!     now.minus_days(90),      // the retention cut-off
//!     &mut |state| {
//!         // The caller's policy decides from point reads: refuse, or say what to write.
//!         if state.window.len() >= 120 {
//!             return Err(memory_core::ApiError::rate_limited(60));
//!         }
//!         Ok(RememberWrite {
//!             record: AgentMemory {
//!                 id: AgentMemoryId::parse("amem_1")?,
//!                 workspace: owner.workspace.clone(),
//!                 member: owner.member.clone(),
//!                 credential: credential.clone(),
//!                 namespace: "prefs".into(),
//!                 key: Some("tone".into()),
//!                 text: text.clone(),
//!                 collection_id: None,
//!                 version: state.last_version + 1,
//!                 citations: vec![],
//!                 created_at: now,
//!                 superseded_at: None,
//!                 ranking: Default::default(),
//!             },
//!             supersede_current: state.current.is_some(),
//!         })
//!     },
//! )?;
//! assert!(matches!(outcome, RememberOutcome::Written { superseded: None, .. }));
//!
//! let page = backend.scan(&owner, &ScanQuery::new(now, now.minus_days(90), 20))?;
//! assert_eq!(page.len(), 1);
//! assert_eq!(page[0].version, 1);
//! assert_eq!(backend.stored_versions(&owner, now.minus_days(90))?, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The trait's documentation states the contract; the conformance suite (the
//! `store-conformance` crate) checks it.
//!
//! # Crate features
//!
//! - `redb` (off by default): `RedbBackend`, a durable backend in one redb database file.
//! - `sled` (off by default): `SledBackend`, a durable backend in a sled 0.34 database directory.
//! - `sqlite` (off by default): `SqliteBackend`, a durable backend in one SQLite database file
//!   (WAL mode) that many processes open at once.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod backend;
pub mod codec;
mod database;
mod durability;
mod history;
mod keys;
pub mod kv;
mod kv_agent;
mod legacy;
mod memory;
#[cfg(feature = "redb")]
mod redb;
#[cfg(feature = "sled")]
mod sled;
#[cfg(feature = "sqlite")]
mod sqlite;
mod stores;

#[cfg(feature = "redb")]
pub use crate::redb::{RedbBackend, RedbKv};
#[cfg(feature = "sled")]
pub use crate::sled::{SledBackend, SledKv};
#[cfg(feature = "sqlite")]
pub use crate::sqlite::{SqliteBackend, SqliteKv};
pub use backend::{
    Backend, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery,
    StorageFailure, check_decided_write, key_instant, latest_instant,
};
pub use database::{Database, Storage, VacuumReport};
pub use durability::Durability;
pub use history::{
    History, IndexStats, MemberHistory, Postings, VectorTable, indexed_terms, reanalyzed,
};
pub use kv_agent::KvBackend;
pub use memory::{InMemoryBackend, MemoryKv};
pub use stores::{
    MemoryChange, MemoryWrite, MemoryWriteOutcome, PassageRecords, RedactOutcome, StoreBackend,
};

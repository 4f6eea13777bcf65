//! Domain model of governed agent memories and memory stores: ids, tenancy, memories, versions,
//! stores, sessions, error codes and their JSON views.
//!
//! Everything here is plain data with its invariants: no storage, no policy decisions, no I/O.
//! Its dependencies inside the project are the two leaves: `pii-mask`, because a storable
//! agent-memory text ([`MemoryText`]) can only be built from the masker's output, and
//! `fusion-rank`, whose [`Ranks`] (a recalled memory's rank by each [`Ranker`]) is the `ranks`
//! object of a recall answer, one type from the fusion to the JSON.
//!
//! ```
//! use memory_core::{
//!     AgentMemory, AgentMemoryId, CredentialId, IdGenerator, MemberId, MemoryText, MemoryView,
//!     SeededIdGenerator, SourceState, Timestamp, WorkspaceId,
//! };
//!
//! let now: Timestamp = "2026-01-01T00:00:00Z".parse()?;
//! let ids = SeededIdGenerator::new(7);
//! let (text, _masked_counts) = MemoryText::mask("Reply tersely");
//! let memory = AgentMemory {
//!     id: AgentMemoryId::generate(&ids, now)?,
//!     workspace: WorkspaceId::new("ws1")?,
//!     member: MemberId::new("alice")?,
//!     credential: CredentialId::new("cred_a")?,
//!     namespace: "prefs".into(),
//!     key: Some("tone".into()),
//!     text,
//!     collection_id: None,
//!     version: 1,
//!     citations: vec![],
//!     created_at: now,
//!     superseded_at: None,
//!     ranking: Default::default(),
//! };
//! assert!(memory.is_valid_at(now.plus_seconds(1)));
//! assert!(memory.is_expired(now.plus_days(90), 90));
//!
//! let view = serde_json::to_value(MemoryView::new(&memory, SourceState::Uncited))?;
//! assert_eq!(view["createdAt"], "2026-01-01T00:00:00Z");
//! assert_eq!(view["supersededAt"], serde_json::Value::Null);
//! assert_eq!(view["evidence"], false);
//! assert_eq!(view["trust"], "untrusted");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules: [`time`] (instants), [`id`] (prefixed sortable ids and generators), [`tenancy`]
//! (workspaces, members, roles, scopes, settings, context sets), [`memory`] (agent memories and
//! their view), [`store`] (memory stores, memories, versions, paths), [`session`] (sessions and
//! mounts), [`error`] (the crate error, the error-code catalogue and the API error body). The
//! main types are re-exported at the root.
//!
//! # Crate features
//!
//! - `openapi` (off by default): `utoipa::ToSchema` for the wire types (ids, instants, views,
//!   store objects, sessions, the error body) and the [`schema`] builders, so that a REST host
//!   generates its OpenAPI document from these types.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod id;
pub mod memory;
#[cfg(feature = "openapi")]
pub mod schema;
pub mod session;
pub mod store;
pub mod tenancy;
pub mod time;

pub use error::{ApiError, Error, ErrorCode, FieldProblem};
pub use id::{
    AgentMemoryId, IdGenerator, IdKind, MemoryStoreId, MemoryVersionId, RandomIdGenerator,
    SeededIdGenerator, SessionId, StoreMemoryId,
};
pub use memory::{
    AgentMemory, Citation, MaskedCounts, MemoryText, MemoryView, Ranker, RankingData, Ranks,
    RecalledMemory, SourceState, StoredEmbedding, valid_at,
};
pub use session::{Access, Session, SessionResource};
pub use store::{
    Actor, MemoryDeleted, MemoryStore, MemoryStoreDeleted, MemoryVersion, PathRejection, PiiPolicy,
    Precondition, StoreMemory, StoreMemoryMetadata, StorePath, VersionOperation, content_sha256,
};
pub use tenancy::{
    ContextBinding, ContextSet, CredentialId, MemberId, Role, Scope, Settings, WorkspaceId,
};
pub use time::Timestamp;

//! Governed agent memory for Rust hosts: the facade that composes masking, governance, source
//! verification and storage into one embeddable, synchronous API with no network code.
//!
//! A host resolves its own credentials and members, then calls [`MemoryService`] with an
//! [`AgentCaller`] (agent operations) or a [`MemberCaller`] (member and owner operations) and a
//! typed request ([`RememberRequest`], [`RecallRequest`], [`ListRequest`], …). Every answer is
//! either a response that serializes to the REST response body, or an [`ApiError`] with a stable
//! `code()` and `http_status()`. Hosts that receive JSON (a REST route, an MCP server) pass it
//! through [`json::JsonApi`], which reads it with the same rules. Each operation is also a type
//! of [`ops`] (its caller kind, request, response, REST route and MCP tool), which a router or
//! a tool server calls directly.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::{
//!     AgentCaller, AgentCredential, ContextBinding, CredentialId, InMemoryPassageSource,
//!     ListRequest, MemberCaller, MemberId, MemoryService, RecallRequest, RememberRequest, Role,
//!     Scope, SettingsPatch, WorkspaceId,
//! };
//!
//! let service = MemoryService::builder(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(InMemoryPassageSource::new()),
//! )
//! .build()?;
//! let workspace = WorkspaceId::new("ws1")?;
//! let owner = MemberCaller { workspace: workspace.clone(), member: MemberId::new("olivia")?, role: Role::Owner };
//! service.settings_put(&owner, &SettingsPatch::default().agent_memories_enabled(true))?;
//!
//! let agent = AgentCaller::Resolved(AgentCredential {
//!     workspace,
//!     workspace_retaining: true,
//!     member: MemberId::new("alice")?,
//!     credential: CredentialId::new("cred_a")?,
//!     role: Some(Role::Editor),
//!     active: true,
//!     scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
//!     binding: ContextBinding::Unbound,
//! });
//! let note = RememberRequest::new("prefs", "Reply tersely; mail me at a@b.io").key("tone");
//! let stored = service.remember(&agent, &note)?;
//! assert_eq!(stored.memory.text, "Reply tersely; mail me at [EMAIL]");
//! let page = service.list(&agent, &ListRequest::new())?;
//! assert_eq!(page.memories.len(), 1);
//! let found = service.recall(&agent, &RecallRequest::new("how tersely should I reply?"))?;
//! assert_eq!(found.memories[0].view.id, stored.memory.id);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Namespaces
//!
//! Each crate underneath is re-exported whole as a module, the way a host would name it:
//! [`types`] (ids, values, errors), [`mask`] (personal-data masking), [`rank`] (recall's
//! rankers), [`policy`] (requests and access rules), [`citations`] (source verification) and
//! [`storage`] (the storage traits); [`backends`] holds the backends. The memory-store product
//! is its own crate, re-exported whole as [`stores`]; what both products share (its own crate
//! below both) is re-exported as [`ops`] (with the operation types of both products),
//! [`caller`], [`audit`], [`clock`] and [`fence`]. The types a host needs on every call are also
//! re-exported at the root.
//!
//! # Crate features
//!
//! All off by default; each adds a backend or the model to what this crate re-exports, so that
//! a host declares `agent-memory` and nothing else (see [`backends`]).
//!
//! - `redb`: `backends::RedbBackend`, one redb database file.
//! - `sled`: `backends::SledBackend`, a sled 0.34 database directory.
//! - `sqlite`: `backends::SqliteBackend`, one SQLite database file (WAL) that several processes
//!   open at once, with the rate limit and the quota held across them.
//! - `postgres`: `backends::PostgresBackend`, a PostgreSQL database shared by many service
//!   instances. The one feature that brings network code (the PostgreSQL client and its tokio
//!   runtime) into the dependency tree; without it the tree opens no socket.
//! - `candle`: `CandleEmbedder`, a local BERT-style sentence-embedding model read from a
//!   directory (nothing is downloaded).
//! - `openapi`: `openapi`, the OpenAPI 3.1 schemas of the JSON edge's request, response and
//!   error bodies (`utoipa::ToSchema` on the types), for a REST host's document.
//! - `tokio`: [`AsyncService`], every operation of both products as an async method that runs
//!   on tokio's blocking pool. tokio comes with its `rt` feature only: no I/O driver, no socket.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "tokio")]
pub mod asynchronous;
pub mod backends;
mod cursor;
pub mod entity;
pub mod json;
pub mod mcp;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod ops;
mod recall;
mod reembed;
mod reexports;
pub mod responses;
mod reverify;
mod service;
pub mod transfer;

pub use agent_memory_ops::{audit, caller, clock, fence, telemetry};

/// Memory stores, the second product: stores, memories, versions and sessions for hosts, and
/// the agent's file interface and memory tool over a session's mounts (the
/// `agent-memory-stores` crate). Its operations are also types of [`ops`], and [`json`] serves
/// them for a JSON body.
pub use agent_memory_stores as stores;

/// The value types both products share: ids, roles, scopes, timestamps, memory views, store
/// memories and versions, settings, and the error every operation answers with (the
/// `memory-core` crate). The types a host names on every call are also re-exported at the root.
pub use memory_core as types;

/// Masking of personal data and secrets in memory text, with the counts by category that
/// `remember` reports (the `pii-mask` crate).
pub use pii_mask as mask;

/// The rankers of recall and their fusion: the lexical analyzer, the embedders and the weights
/// (the `fusion-rank` crate).
pub use fusion_rank as rank;

/// The agent-memory requests, their field rules and the access rules of the order of checks
/// (the `governance-policy` crate).
pub use governance_policy as policy;

/// Source verification: the passages a memory cites and whether they still stand (the
/// `citation-verify` crate).
pub use citation_verify as citations;

/// The storage traits every backend implements, with their error and the ids of the key space
/// (the `store-trait` crate); the backends themselves are in [`backends`].
pub use store_trait as storage;

#[cfg(feature = "tokio")]
pub use asynchronous::AsyncService;
pub use audit::{AuditEvent, AuditRecord, AuditSink, MemoryAuditSink, NoopAuditSink};
pub use caller::{AgentCaller, AgentCredential, MemberCaller};
pub use clock::{Clock, ManualClock, SystemClock};
pub use entity::{DefaultEntityResolver, EntityResolver};
pub use fusion_rank::{Analyzer, EmbedError, Embedder, HashingEmbedder, Ranker, Weights};
pub use governance_policy::{
    CandidateWindow, ForgetRequest, InvalidLimits, InvalidWindow, Limits, ListRequest,
    MemberDeleteRequest, MemberListRequest, REMEMBER_BATCH_MAX, RecallRequest,
    RememberBatchRequest, RememberRequest, Request, SettingsPatch,
};
pub use mcp::{ToolAnnotations, ToolDescriptor, ToolResult, tools};
pub use memory_core::{ApiError, ErrorCode};
pub use recall::{RecallPeriod, RecallResponse};
pub use reembed::ReembedResponse;
pub use reexports::*;
pub use responses::{
    BatchAnswer, DeletedResponse, ListResponse, PurgedResponse, RememberBatchResponse,
    RememberResponse,
};
pub use service::{BuildError, MemoryService, MemoryServiceBuilder};
pub use stores::requests::{
    AddSessionResourceRequest, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest,
    DeleteMemoryRequest, FsPathRequest, FsRenameRequest, FsWriteRequest, ListMemoriesRequest,
    ListStoresRequest, ListVersionsRequest, MemoryIdRequest, Precondition, ResourceRequest,
    RestoreMemoryRequest, SessionIdRequest, StoreIdRequest, UpdateMemoryRequest,
    UpdateStoreRequest, VersionIdRequest,
};
pub use stores::{
    FsDeleted, FsStat, MemoryToolFailure, SessionCaller, StoreCaller, StoreService,
    StoreServiceBuilder,
};
pub use transfer::{ExportedVersion, ImportReport, ImportRequest};

/// The README's Rust example is compiled and run as a doctest, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

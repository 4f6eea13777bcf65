//! Governed agent memory for Rust hosts: the facade that composes masking, governance, source
//! verification and storage into one embeddable, synchronous API with no network code.
//!
//! A host resolves its own credentials and members, then calls [`MemoryService`] with an
//! [`AgentCaller`] (agent operations) or a [`MemberCaller`] (member and owner operations) and the
//! JSON body of the request. Every answer is either a response body that serializes to the REST
//! response, or an [`ApiError`] with a stable `code()` and `http_status()`.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::{AgentCaller, AgentCredential, MemberCaller, MemoryService};
//! use citation_verify::InMemoryPassageSource;
//! use memory_core::{ContextBinding, CredentialId, MemberId, Role, Scope, WorkspaceId};
//! use store_trait::InMemoryBackend;
//!
//! let service = MemoryService::builder(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(InMemoryPassageSource::new()),
//! )
//! .build()?;
//! let workspace = WorkspaceId::new("ws1")?;
//! let owner = MemberCaller { workspace: workspace.clone(), member: MemberId::new("olivia")?, role: Role::Owner };
//! service.settings_put(&owner, &serde_json::json!({"agentMemoriesEnabled": true}))?;
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
//! let stored = service.remember(
//!     &agent,
//!     &serde_json::json!({"namespace": "prefs", "key": "tone", "text": "Reply tersely; mail me at a@b.io"}),
//! )?;
//! assert_eq!(stored.memory.text, "Reply tersely; mail me at [EMAIL]");
//! let page = service.list(&agent, &serde_json::json!({}))?;
//! assert_eq!(page.memories.len(), 1);
//! let found = service.recall(&agent, &serde_json::json!({"query": "how tersely should I reply?"}))?;
//! assert_eq!(found.memories[0].view.id, stored.memory.id);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod audit;
pub mod backends;
pub mod caller;
pub mod clock;
mod cursor;
pub mod entity;
pub mod fence;
mod input;
pub mod json;
pub mod mcp;
mod recall;
mod reembed;
mod reexports;
pub mod responses;
mod service;
pub mod stores;

pub use audit::{AuditEvent, AuditRecord, AuditSink, MemoryAuditSink, NoopAuditSink};
pub use caller::{AgentCaller, AgentCredential, MemberCaller};
pub use clock::{Clock, ManualClock, SystemClock};
pub use entity::{DefaultEntityResolver, EntityResolver};
pub use fusion_rank::{EmbedError, Embedder, HashingEmbedder};
pub use governance_policy::{
    ForgetRequest, ListRequest, MemberDeleteRequest, MemberListRequest, RecallRequest,
    RememberRequest, Request, SettingsPatch,
};
pub use mcp::{ToolDescriptor, ToolResult, tools};
pub use memory_core::{ApiError, ErrorCode};
pub use recall::RecallResponse;
pub use reembed::ReembedResponse;
pub use reexports::*;
pub use responses::{DeletedResponse, ListResponse, PurgedResponse, RememberResponse};
pub use service::{BuildError, MemoryService, MemoryServiceBuilder};
pub use stores::{
    FsStat, MemoryToolFailure, SessionCaller, StoreCaller, StoreService, StoreServiceBuilder,
};

/// The README's Rust example is compiled and run as a doctest, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

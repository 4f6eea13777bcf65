//! Pure governance decisions for agent memories: who may act, what a request may contain, how
//! much may be written, what has expired and what a context set admits.
//!
//! Every function here decides from the values it is given: no storage, no clock, no I/O. The
//! facade gathers the facts (settings, the caller's credential, stored counts, recent accepts)
//! and asks this crate in the spec's order of checks; the first refusal wins. Refusals are
//! [`memory_core::ApiError`]s whose messages are static texts: they name a field, never echo a
//! value.
//!
//! ```
//! use governance_policy::{
//!     AgentAccess, CredentialState, RememberRequest, check_agent_access, check_identifiers,
//!     check_quota, check_rate,
//! };
//! use memory_core::{ErrorCode, Role, Scope, Settings, Timestamp};
//!
//! let settings = Settings::new(true, 90)?;
//! let access = AgentAccess {
//!     retaining: true,
//!     settings: &settings,
//!     credential: CredentialState::Valid { role: Role::Editor, scopes: &[Scope::MemoryWrite] },
//!     required: Scope::MemoryWrite,
//! };
//! check_agent_access(&access)?;
//!
//! let body = serde_json::json!({"namespace": "prefs", "key": "tone", "text": "Reply tersely"});
//! let request = RememberRequest::from_json(&body)?;
//! check_identifiers(
//!     &request.namespace,
//!     request.key.as_deref(),
//!     request.collection_id.as_deref(),
//! )?;
//!
//! let now: Timestamp = "2026-01-01T12:00:00Z".parse()?;
//! check_rate(&[now.minus_seconds(60)], now, 120)?;
//! check_quota(4_999, 5_000)?;
//!
//! let refused = RememberRequest::from_json(&serde_json::json!({"namespace": "prefs"}));
//! assert_eq!(refused.unwrap_err().code(), ErrorCode::AgentMemoryInvalidRequest);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules: [`limits`] (the numeric limits), [`access`] (grants, the access check of the four
//! agent operations, the owner check), [`request`] (request bodies parsed and validated from
//! JSON, the personal-data check of identifiers), [`budget`] (rate limit and quota),
//! [`retention`] (expiry and the effective `asOf`), [`context`] (context-set rules), [`window`]
//! (recall's candidate window), [`wire`] (reading a body into its serde-derived wire struct in
//! the contract's order of checks).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod budget;
pub mod context;
pub mod limits;
pub mod request;
pub mod retention;
pub mod window;
pub mod wire;

pub use access::{AgentAccess, CredentialState, check_agent_access, grant, require_owner};
pub use budget::{check_quota, check_rate, retry_after_seconds, window_start};
pub use context::{
    check_cited_documents, check_memory_in_binding, check_read_filter, check_remember_anchor,
    memory_in_set, visible_through,
};
pub use limits::*;
pub use request::{
    ForgetRequest, ListRequest, MemberDeleteRequest, MemberListRequest, RecallRequest,
    RememberBatchRequest, RememberRequest, Request, SettingsPatch, check_identifiers,
};
pub use retention::{effective_as_of, expired_cutoff};
pub use window::{CandidateWindow, InvalidWindow};

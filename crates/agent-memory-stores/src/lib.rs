//! Memory stores, the second product of `agent-memory`: the host-side operations on stores,
//! memories, versions and sessions, and the agent-side file interface (`fs.*` and the
//! client-side memory tool) over a session's mounts. Hosts name it as `agent_memory::stores`
//! (the facade re-exports this crate whole), never as a dependency of their own.
//!
//! Every operation takes the caller and a typed request ([`requests`]) and answers with the
//! response object or an [`ApiError`](memory_core::ApiError); each is also a type of [`ops`], and the facade's
//! `agent_memory::json::JsonApi` serves the same operations for a JSON body. The order of checks is the spec's: `403` (role, read-only mount) → `400`/`413`
//! validation → `404` → `409` archived → `409` precondition → `409` path conflict → `400`
//! personal data. Validation runs in this order:
//!
//! 1. the body's fields (`400 MEMORY_INVALID_REQUEST`);
//! 2. the path's syntax, or where a session path leads (`400 MEMORY_PATH_INVALID`) — pure, no
//!    storage;
//! 3. a path the write would store, in a store whose policy is `mask` or `reject`, that holds
//!    personal data (`400 MEMORY_PATH_PERSONAL_DATA`);
//! 4. the content's size as it would be stored (`413 MEMORY_TOO_LARGE`).
//!
//! Steps 3 and 4 need the store's policy: the facade reads the store for it (a point read that
//! decides nothing) and writes nothing before the backend's step; for a store that does not exist
//! step 3 has no policy to apply and the answer is `404` after step 4. The checks after `404` —
//! archived, precondition, path conflict, personal data in the content — are decided by the
//! backend in the same transaction as the write ([`StoreBackend::write_memory`](store_trait::StoreBackend::write_memory)); the facade
//! validates, masks and sizes the content before it calls the backend.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory_ops::caller::{MemberCaller, SessionCaller, StoreCaller};
//! use agent_memory_stores::StoreService;
//! use agent_memory_stores::requests::{
//!     CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest, FsPathRequest,
//! };
//! use memory_core::{Access, MemberId, Role, WorkspaceId};
//! use serde_json::json;
//! use store_kv::InMemoryBackend;
//!
//! let stores = StoreService::builder(Arc::new(InMemoryBackend::new())).build();
//! let workspace = WorkspaceId::new("ws1")?;
//! let alice = StoreCaller::Member(MemberCaller {
//!     workspace: workspace.clone(),
//!     member: MemberId::new("alice")?,
//!     role: Role::Editor,
//! });
//! let store = stores.stores_create(&alice, &CreateStoreRequest::new("User Preferences"))?;
//! stores.memories_create(
//!     &alice,
//!     &CreateMemoryRequest::new(store.id.clone(), "/tone.md", "Reply tersely.\n"),
//! )?;
//! let session = stores.sessions_create(
//!     &alice,
//!     &CreateSessionRequest::new().memory_store(store.id, Access::ReadWrite),
//! )?;
//! let agent = SessionCaller { workspace, session: session.id };
//! let read = stores.fs_read(&agent, &FsPathRequest::new("/mnt/memory/user-preferences/tone.md"))?;
//! assert_eq!(read.content, "Reply tersely.\n");
//! // The memory tool is JSON by nature: its input is what the model sent.
//! let view = stores.memory_tool(&agent, &json!({"command": "view", "path": "/memories/user-preferences/tone.md"}))?;
//! assert_eq!(view.text, "Here's the content of /memories/user-preferences/tone.md with line numbers:\n     1\tReply tersely.");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where the size check sits
//!
//! The 102,400-byte limit applies to the content as it is stored — after masking, when the store's
//! policy is `mask` — so the facade reads the store (a point read that decides nothing) to learn
//! its policy, masks, and only then compares the size. When the store does not exist the raw
//! content is compared, so `413` still comes before `404`. Content over [`HARD_INPUT_CAP`] is
//! refused with `413` before any masking, whatever the policy, so a huge body costs no masking
//! work.
//!
//! # Paths and store texts
//!
//! In a `mask` or `reject` store a path is an identifier, like an agent memory's namespace or
//! key: a path for which [`pii_mask::contains_personal_data`] is true is refused with `400
//! MEMORY_PATH_PERSONAL_DATA`, never rewritten (a masked path would silently name another file).
//! The check applies to every path a write names — `memories.create`, the new `path` of
//! `memories.update`, `fs.write`, the destination of `fs.rename`, the memory tool's `create`,
//! `str_replace`, `insert` and every path a `rename` would give — and not to reads, deletes or
//! the source of a rename, so a file stored under such a path before the rule can still be read,
//! moved to a clean path or deleted. An `allow` store stores paths as given.
//!
//! A store's `name` and `description` are stored as the masker leaves them, whatever the policy;
//! their length limits apply to the masked text too.
//!
//! # Traces
//!
//! Each operation emits one `tracing` event with ids, counts and the error code of a refusal —
//! never content, paths, names, descriptions or instructions (paths may hold personal data).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cursor;
mod fs;
mod host;
mod memory_tool;
mod mounts;
pub mod ops;
pub mod requests;
mod service;
mod session;
mod tool_text;
mod versions;

pub use agent_memory_ops::caller::{SessionCaller, StoreCaller};
pub use fs::{FsDeleted, FsStat};
pub use memory_tool::MemoryToolFailure;
pub use service::{HARD_INPUT_CAP, StoreService, StoreServiceBuilder};
pub use session::{INSTRUCTIONS_MAX_CHARS, WORKSPACE_FENCE_TAG};

//! The rules of governed agent memory over an ordered key-value space ([`Kv`]), written once:
//! [`KvBackend`] gives any key space the whole [`Backend`] (agent memories and the governance
//! state) and, through [`KvStores`], the whole [`StoreBackend`] (memory stores). A backend
//! supplies the key space and nothing else: [`InMemoryBackend`] here, and the durable ones in
//! `store-redb`, `store-sled` and `store-sqlite`; `store-postgres` keeps its memory stores in a
//! [`KvStores`] over a table.
//!
//! - [`KvStores`] (`stores`): the memory-store rules and their key layout;
//! - [`KvBackend`] (`agent`): the agent-memory rules, their key layout and the recall index;
//! - [`InMemoryBackend`] (`memory`): the key space in a map, for tests, benchmarks and hosts that
//!   keep nothing across restarts;
//! - [`legacy`]: format 3 of redb and sled, what an upgrade imports.
//!
//! ```
//! use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, Timestamp, WorkspaceId};
//! use store_kv::InMemoryBackend;
//! use store_trait::{Backend, Owner, RememberOutcome, RememberWrite, ScanQuery};
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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod agent;
pub mod legacy;
mod memory;
mod stores;

pub use agent::KvBackend;
pub use agent::write::build_index;
pub use memory::{InMemoryBackend, MemoryKv};
pub use stores::KvStores;

#[cfg(doc)]
use store_trait::{Backend, StoreBackend, kv::Kv};

/// Syncs the directory holding `path`, so that a rename into it survives a power loss (the
/// vacuums of the file-backed key spaces swap files by renaming).
pub fn sync_parent_dir(path: &std::path::Path) -> std::io::Result<()> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    let dir = if dir.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        dir
    };
    std::fs::File::open(dir)?.sync_all()
}

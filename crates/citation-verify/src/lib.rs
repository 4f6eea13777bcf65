//! Citations of agent memories: resolved through the host's [`PassageSource`] when a memory is
//! written, and re-verified in one batched lookup whenever memories are read.
//!
//! At write time each cited passage id becomes a [`memory_core::Citation`] recording the
//! passage's document, collection, document version and the SHA-256 of its body; the body itself
//! is never stored. At read time every cited passage is looked up again: a memory with a gone
//! source is hidden, one whose document version or passage hash moved is `changed`, the rest are
//! `current` (or `uncited`). The entities of the cited passages come back too, for the recall
//! ranker.
//!
//! ```
//! use citation_verify::{InMemoryPassageSource, Passage, Verdict, resolve_citations, verify};
//! use memory_core::{
//!     AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, SourceState, Timestamp,
//!     WorkspaceId,
//! };
//!
//! let ws = WorkspaceId::new("ws1")?;
//! let alice = MemberId::new("alice")?;
//! let source = InMemoryPassageSource::new();
//! source.put_passage(&ws, Passage::new("p1", "d1", "c1", 3, "The sky is blue."));
//!
//! let citations = resolve_citations(&source, &ws, &alice, &["p1".to_owned()])?;
//! assert_eq!(citations[0].document_version, 3);
//!
//! let now: Timestamp = "2026-01-01T00:00:00Z".parse()?;
//! let memory = AgentMemory {
//!     id: AgentMemoryId::parse("amem_demo")?,
//!     workspace: ws.clone(),
//!     member: alice.clone(),
//!     credential: CredentialId::new("cred_a")?,
//!     namespace: "facts".into(),
//!     key: None,
//!     text: MemoryText::mask("sky colour noted").0,
//!     collection_id: None,
//!     version: 1,
//!     citations,
//!     created_at: now,
//!     superseded_at: None,
//!     ranking: Default::default(),
//! };
//!
//! let checked = verify(&source, &ws, &alice, &[&memory]);
//! assert_eq!(checked.verdicts, vec![Verdict::Visible(SourceState::Current)]);
//!
//! source.put_passage(&ws, Passage::new("p1", "d1", "c1", 4, "The sky is grey."));
//! assert_eq!(verify(&source, &ws, &alice, &[&memory]).verdicts[0], Verdict::Visible(SourceState::Changed));
//!
//! source.delete_document(&ws, "d1");
//! assert_eq!(verify(&source, &ws, &alice, &[&memory]).verdicts[0], Verdict::Hidden);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules: [`source`] (the host interface and its lookup results), [`in_memory`] (the shipped
//! in-memory source for tests, the CLI and replay), [`verification`] (write-time resolution and
//! read-time verification).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod in_memory;
pub mod source;
pub mod verification;

pub use in_memory::{InMemoryPassageSource, Passage};
pub use source::{Entity, PassageInfo, PassageLookup, PassageSource};
pub use verification::{
    EntityIdVerification, EntityIndexVerification, Verdict, Verification, resolve_citations,
    verify, verify_each, verify_entity_ids, verify_entity_indices,
};

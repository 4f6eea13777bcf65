//! The types of the crates underneath that a host names when it calls the facade — ids, roles,
//! scopes, errors, the passage source, the local embedding model — re-exported at the crate
//! root, so that `agent-memory` is the one dependency a host declares. Backends are in
//! [`backends`](crate::backends).

pub use citation_verify::{
    Entity, InMemoryPassageSource, Passage, PassageInfo, PassageLookup, PassageSource,
};
pub use memory_core::{
    Access, Actor, AgentMemoryId, Citation, ContextBinding, ContextSet, CredentialId, IdGenerator,
    MaskedCounts, MemberId, MemoryStore, MemoryStoreId, MemoryText, MemoryVersion, MemoryVersionId,
    MemoryView, PiiPolicy, RandomIdGenerator, RecalledMemory, Role, Scope, SeededIdGenerator,
    Session, SessionId, SessionResource, Settings, SourceState, StoreMemory, StoreMemoryId,
    StorePath, Timestamp, VersionOperation, WorkspaceId,
};

/// Why an id, a role, a scope, a timestamp or a path was refused when it was built from a
/// string (`WorkspaceId::new`, `"owner".parse::<Role>()`, …).
pub use memory_core::Error as InvalidValue;

/// A BERT-style sentence-embedding model read from a local directory (crate feature `candle`);
/// hand it to [`MemoryServiceBuilder::embedder`](crate::MemoryServiceBuilder::embedder).
#[cfg(feature = "candle")]
pub use embed_candle::CandleEmbedder;

/// Why a local embedding model could not be loaded or run (crate feature `candle`).
#[cfg(feature = "candle")]
pub use embed_candle::Error as ModelError;

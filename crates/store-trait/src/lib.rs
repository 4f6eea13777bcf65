//! The storage `Backend` trait for governed agent memory.
//!
//! DRAFT CONTRACT (filled in by the store-trait work; the trait's shape is fixed, see below).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use memory_core::{AgentMemory, AgentMemoryId, ApiError, CredentialId, MemberId, Settings, Timestamp, WorkspaceId};

/// Whose memories: every agent-memory read and write is keyed by this pair, compared by exact
/// equality inside the backend (architecture invariant 2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Owner {
    /// The workspace.
    pub workspace: WorkspaceId,
    /// The member who owns the memories.
    pub member: MemberId,
}

/// A scan of one owner's memory versions, newest first (`created_at` desc, then `id` desc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanQuery {
    /// Only versions valid at this instant (`created_at ≤ t` and not superseded at or before `t`).
    pub valid_at: Timestamp,
    /// Only versions created strictly after this instant (the retention cut-off: a version with
    /// `created_at ≤ expired_cutoff` is expired and never returned).
    pub expired_cutoff: Timestamp,
    /// Exact namespace filter.
    pub namespace: Option<String>,
    /// Exact key filter.
    pub key: Option<String>,
    /// Exact `collection_id` filter.
    pub collection_id: Option<String>,
    /// Keyset position: only versions strictly after `(created_at, id)` in scan order.
    pub after: Option<(Timestamp, AgentMemoryId)>,
    /// At most this many versions.
    pub limit: usize,
}

/// What a remember transaction reads before deciding; every field is a point read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RememberState {
    /// The writing credential's accepted remember instants still in its rate window record
    /// (those after the `window_start` the caller passed), oldest first.
    pub window: Vec<Timestamp>,
    /// The owner's stored, unexpired versions (all namespaces, superseded and hidden included).
    pub stored_versions: u64,
    /// The key's current version, for a keyed remember.
    pub current: Option<AgentMemory>,
    /// The highest version number the key has had since it was last forgotten (0 if none).
    pub last_version: u32,
}

/// What a remember transaction writes once the caller's decision accepted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RememberWrite {
    /// The new version to insert (id, version number and `created_at` decided by the caller).
    pub record: AgentMemory,
    /// Set the key's current version's `superseded_at` to `record.created_at`.
    pub supersede_current: bool,
}

/// The result of [`Backend::remember`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RememberOutcome {
    /// Written: the inserted version and the version it superseded, if any.
    Written {
        /// The stored version.
        record: AgentMemory,
        /// The previous current version, now superseded.
        superseded: Option<AgentMemory>,
    },
    /// The decision refused the write; nothing was written.
    Refused(ApiError),
}

/// Errors of a backend itself (I/O, corruption); never carries memory content.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The underlying database failed.
    #[error("storage backend failed: {0}")]
    Backend(String),
}

/// Persistence for governed agent memory. Implementations are safe for concurrent use.
pub trait Backend: Send + Sync {
    /// Atomically: reads the [`RememberState`] for `owner`, `credential` and the key, calls
    /// `decide` (possibly more than once, when a backend retries a conflicting transaction), and
    /// if it returns a write, applies all of it in one transaction: inserts the record, supersedes
    /// the current version when asked, appends `record.created_at` to the credential's window
    /// (dropping instants ≤ `window_start`), counts the version for the owner and moves the key's
    /// current version and last version number.
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error>;

    /// The owner's version `id`, if it exists (expired or not, superseded or not).
    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error>;

    /// The current version of (namespace, key), if any.
    fn current_of_key(&self, owner: &Owner, namespace: &str, key: &str) -> Result<Option<AgentMemory>, Error>;

    /// The owner's versions matching `query`, newest first.
    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error>;

    /// Removes every version of (namespace, key) and resets the key's version numbering;
    /// returns the removed versions (empty when the key has none).
    fn forget_key(&self, owner: &Owner, namespace: &str, key: &str) -> Result<Vec<AgentMemory>, Error>;

    /// Removes version `id`: for a keyed memory every version of its key (and resets the key's
    /// numbering), for a keyless one that version alone. Returns the removed versions.
    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error>;

    /// Removes every version of the owner and resets all of its keys; returns the count.
    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error>;

    /// Removes every agent-memory version of the workspace, of every member, and resets their
    /// keys; returns the count.
    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error>;

    /// Retention purge: removes the workspace's versions with `created_at ≤ cutoff`. Key
    /// numbering is kept (purges never reset it); returns the count.
    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error>;

    /// Removes the workspace's versions citing `document_id`; returns the count.
    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error>;

    /// Removes the workspace's versions whose `collection_id` is `collection_id` or that cite a
    /// passage recorded in it; returns the count.
    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error>;

    /// The owner's stored versions with `created_at > expired_cutoff` (the quota's count).
    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error>;

    /// The workspace's settings, or `None` when never set.
    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error>;

    /// Stores the workspace's settings.
    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error>;
}

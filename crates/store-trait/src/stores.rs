//! The [`StoreBackend`] trait: persistence for memory stores — path-addressed memories, their
//! immutable versions, agent sessions, and the host's passages that agent memories cite (a CLI
//! home keeps them in its database, beside everything else). Every mutation of a memory is decided and written in
//! one transaction (existence, archive state, no-op, precondition, path conflict, personal data).

use memory_core::{
    Actor, ApiError, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Precondition,
    Session, SessionId, StoreMemory, StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp,
    WorkspaceId,
};

use std::ops::Deref;

use crate::error::Error;

/// The answer of [`StoreBackend::passages`]: one record per asked id, in input order.
pub type PassageRecords = Vec<Option<Vec<u8>>>;

/// One mutation of one memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryChange {
    /// Creates a memory at `path` with `content` (a `created` version).
    Create {
        /// The new memory's id.
        memory_id: StoreMemoryId,
        /// Where it lives.
        path: StorePath,
        /// Its content (already masked when the store masks).
        content: String,
    },
    /// Changes a live memory's content and/or path (a `modified` version). Equal content and
    /// path is a no-op: no version, whatever the precondition says.
    Update {
        /// The memory.
        memory_id: StoreMemoryId,
        /// The new content, or `None` to keep it.
        content: Option<String>,
        /// The new path, or `None` to keep it.
        path: Option<StorePath>,
        /// Must hold for the current content, checked after the no-op test.
        precondition: Option<Precondition>,
    },
    /// Deletes a live memory (a `deleted` version that keeps the path; versions stay).
    Delete {
        /// The memory.
        memory_id: StoreMemoryId,
        /// Must hold for the current content.
        precondition: Option<Precondition>,
    },
    /// Moves a live memory to `path`, replacing the live memory already there as POSIX
    /// `rename(2)` does: a `modified` version for the moved memory (the outcome's version) and,
    /// when another live memory is exactly at `path`, a `deleted` version for that one, with id
    /// `replaced_version_id` — both in the same transaction, so no reader ever sees one without
    /// the other. With nothing at `path` it is a rename-only [`MemoryChange::Update`]; the path
    /// of the memory itself is a no-op. The checks are an update's: not found, archived, the
    /// no-op test, `precondition` (for the moved memory's content), then `409
    /// MEMORY_PATH_CONFLICT` when a live memory other than the two lies above or under `path`
    /// (only a file exactly at `path` is replaced, never a directory). Personal data is not
    /// checked: no content is written. `replaced_version_id` equal to the write's `version_id`
    /// is an invalid write when a memory is replaced.
    Replace {
        /// The memory to move.
        memory_id: StoreMemoryId,
        /// Where it goes.
        path: StorePath,
        /// Must hold for the moved memory's current content, checked after the no-op test.
        precondition: Option<Precondition>,
        /// The id of the `deleted` version of the replaced memory, if one is replaced.
        replaced_version_id: MemoryVersionId,
    },
    /// Writes version `source`'s content and path as a new version: `modified`, or `created` when
    /// the memory was deleted; nothing when the live memory already equals it.
    Restore {
        /// The memory the version belongs to.
        memory_id: StoreMemoryId,
        /// The version to restore (must belong to `memory_id`).
        source: MemoryVersionId,
        /// Must hold for the current content of a live memory (ignored for a deleted one).
        precondition: Option<Precondition>,
    },
}

/// A [`MemoryChange`] with everything the backend needs to write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryWrite {
    /// The workspace (exact equality; a store of another workspace is not found).
    pub workspace: WorkspaceId,
    /// The store.
    pub store: MemoryStoreId,
    /// What to do.
    pub change: MemoryChange,
    /// The id of the version this write creates, if it creates one.
    pub version_id: MemoryVersionId,
    /// Who acts.
    pub actor: Actor,
    /// When: the caller's clock. The backend writes at this instant, or 1 ms after the store's
    /// newest version when the clock has not passed it (decided inside the write's step, as
    /// [`key_instant`](crate::key_instant) does for agent memories), so that the versions of a
    /// store, and so of each memory, are in commit order by `created_at`.
    pub at: Timestamp,
    /// True when the store's policy is `reject` and the content to be written would be changed by
    /// the masker: a create or an update is refused with `400 MEMORY_PERSONAL_DATA`, the last
    /// check before writing. Ignored by delete and restore (a restored version's content was
    /// accepted under the same policy when it was written).
    pub personal_data: bool,
}

/// The result of [`StoreBackend::write_memory`].
#[allow(clippy::large_enum_variant)] // built once per write and matched at once; boxing buys nothing
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryWriteOutcome {
    /// A version was written; `memory` is the live memory afterwards (`None` after a delete).
    Written {
        /// The memory as it now is, if live.
        memory: Option<StoreMemory>,
        /// The version written.
        version: MemoryVersion,
    },
    /// Nothing changed, so no version was written.
    Unchanged {
        /// The live memory.
        memory: StoreMemory,
    },
    /// Refused, nothing written. Checked in this order: `404 MEMORY_STORE_NOT_FOUND`,
    /// `404 MEMORY_NOT_FOUND` (a restore finds a deleted memory), `404 MEMORY_VERSION_NOT_FOUND`
    /// (restore), `409 MEMORY_STORE_ARCHIVED`, `409 MEMORY_VERSION_REDACTED` /
    /// `409 MEMORY_VERSION_NOT_RESTORABLE` (restore), the no-op test, `409
    /// MEMORY_PRECONDITION_FAILED` (carrying the current hash), `409 MEMORY_PATH_CONFLICT` (a live
    /// memory has the path, lies under it or above it), `400 MEMORY_PERSONAL_DATA`.
    Refused(ApiError),
}

/// The result of [`StoreBackend::redact_version`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedactOutcome {
    /// The version, now redacted (or already redacted: idempotent, `redacted_at` unchanged).
    Redacted(MemoryVersion),
    /// Refused, nothing written, checked in this order: `404 MEMORY_STORE_NOT_FOUND`, `404
    /// MEMORY_VERSION_NOT_FOUND`, `409 MEMORY_STORE_ARCHIVED` (an archived store is read-only,
    /// even for a version already redacted), `409 MEMORY_VERSION_IS_CURRENT` when the version is
    /// a live memory's current content.
    Refused(ApiError),
}

/// Persistence for memory stores. Every read and write is scoped to one workspace by exact
/// equality; objects of another workspace do not exist for the caller.
pub trait StoreBackend: Send + Sync {
    /// Stores a new memory store.
    fn create_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error>;

    /// A store of the workspace (archived ones too).
    fn get_store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, Error>;

    /// The workspace's stores, `created_at` descending then id descending, strictly after the
    /// keyset position `after`; archived ones only with `include_archived`.
    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Result<Vec<MemoryStore>, Error>;

    /// Replaces a store's record (name, description, `updated_at`, `archived_at`); false when
    /// the store does not exist.
    fn put_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error>;

    /// Deletes a store with all its memories and versions; false when it does not exist.
    fn delete_store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error>;

    /// Applies one memory mutation atomically (see [`MemoryWriteOutcome::Refused`] for the order
    /// of checks).
    fn write_memory(&self, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error>;

    /// A live memory of the store.
    fn get_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Result<Option<StoreMemory>, Error>;

    /// The live memory at `path`.
    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, Error>;

    /// Live memories (without content) ordered by path bytes, strictly after `after`, whose path has `prefix` as
    /// whole leading segments (see `StorePath::has_prefix`).
    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Result<Vec<StoreMemoryMetadata>, Error>;

    /// A version of the store (redacted ones too).
    fn get_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Result<Option<MemoryVersion>, Error>;

    /// The store's versions (of one memory when `memory` is given), `created_at` descending
    /// then id descending, strictly after the keyset position `after`.
    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Result<Vec<MemoryVersion>, Error>;

    /// Redacts a version: content, path, hash and size become null and `redacted_at` is set;
    /// irreversible and idempotent; refused for a live memory's current version.
    fn redact_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> Result<RedactOutcome, Error>;

    /// Stores a new session, or replaces it (resources added later).
    fn put_session(&self, workspace: &WorkspaceId, session: &Session) -> Result<(), Error>;

    /// A session of the workspace.
    fn get_session(
        &self,
        workspace: &WorkspaceId,
        id: &SessionId,
    ) -> Result<Option<Session>, Error>;

    /// Inserts or replaces (by id) one of the workspace's passages: the host's record of a
    /// passage that memories may cite, bytes the backend keeps without reading them. One
    /// transaction, durable as the backend's other writes; the next read of any process sharing
    /// the database sees it.
    ///
    /// The passage methods' defaults answer [`Error::Unsupported`], so that a backend written
    /// before they existed still builds; every backend of this crate and `store-postgres`
    /// implements them, and the conformance suite checks them.
    fn put_passage(&self, workspace: &WorkspaceId, id: &str, record: &[u8]) -> Result<(), Error> {
        let _ = (workspace, id, record);
        Err(Error::Unsupported("put_passage"))
    }

    /// The records of `ids` in the workspace, one answer per id in input order (`None` for an
    /// id without one), read in one consistent view.
    fn passages(&self, workspace: &WorkspaceId, ids: &[&str]) -> Result<PassageRecords, Error> {
        let _ = (workspace, ids);
        Err(Error::Unsupported("passages"))
    }

    /// The workspace's passages in id order (byte order), strictly after `after`, at most
    /// `limit`, as `(id, record)`.
    fn list_passages(
        &self,
        workspace: &WorkspaceId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, Error> {
        let _ = (workspace, after, limit);
        Err(Error::Unsupported("list_passages"))
    }

    /// Removes one of the workspace's passages; `false` when it had none of that id.
    fn delete_passage(&self, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
        let _ = (workspace, id);
        Err(Error::Unsupported("delete_passage"))
    }

    /// Imports passages kept elsewhere (a host's earlier file, named by `source`) once: in one
    /// transaction, unless the workspace already records an import of `source`, writes each
    /// record whose id has none yet (a passage put since is never overwritten) and records the
    /// import. Returns whether it imported; a second call with the same `source` writes nothing
    /// and answers `false`, so a host that crashed before removing its file imports it again
    /// harmlessly.
    fn import_passages(
        &self,
        workspace: &WorkspaceId,
        source: &str,
        records: &[(String, Vec<u8>)],
    ) -> Result<bool, Error> {
        let _ = (workspace, source, records);
        Err(Error::Unsupported("import_passages"))
    }

    /// A stamp of the workspace's passages: every step that changes what
    /// [`passages`](Self::passages) answers for the workspace (a put, a delete that removed one,
    /// an import that imported) gives it, in the same transaction, a value it never had before;
    /// reads and refused writes leave it. `None` (the default) when the backend keeps none.
    /// A host's passage source built on these methods may answer it as its
    /// `PassageSource::generation`, when no process writing the database without moving it (an
    /// older build) can share the database.
    fn passage_generation(&self, workspace: &WorkspaceId) -> Result<Option<u64>, Error> {
        let _ = workspace;
        Ok(None)
    }
}

/// A type whose memory stores are another value's: it is a [`StoreBackend`] that answers every
/// call as [`stores`](Self::stores) does. A pointer to a store (`&S`, `Box<S>`, `Arc<S>`,
/// anything that dereferences to one) is one — a store shared by several users (a facade and a
/// mount over one database) is still a store — and so is a backend that keeps its memory
/// stores in a key space it holds (`store-kv`'s `KvStores`), whatever it does with agent
/// memories. This is the one place a `StoreBackend` is forwarded.
pub trait HasStores {
    /// The store answering the calls.
    type Stores: StoreBackend + ?Sized;

    /// The store answering the calls.
    fn stores(&self) -> &Self::Stores;
}

impl<P> HasStores for P
where
    P: Deref,
    P::Target: StoreBackend,
{
    type Stores = P::Target;

    fn stores(&self) -> &P::Target {
        self
    }
}

impl<P: HasStores + Send + Sync> StoreBackend for P {
    fn create_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error> {
        self.stores().create_store(workspace, store)
    }

    fn get_store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, Error> {
        self.stores().get_store(workspace, id)
    }

    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Result<Vec<MemoryStore>, Error> {
        self.stores()
            .list_stores(workspace, include_archived, after, limit)
    }

    fn put_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error> {
        self.stores().put_store(workspace, store)
    }

    fn delete_store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error> {
        self.stores().delete_store(workspace, id)
    }

    fn write_memory(&self, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
        self.stores().write_memory(write)
    }

    fn get_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Result<Option<StoreMemory>, Error> {
        self.stores().get_memory(workspace, store, id)
    }

    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, Error> {
        self.stores().memory_at_path(workspace, store, path)
    }

    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Result<Vec<StoreMemoryMetadata>, Error> {
        self.stores()
            .list_memories(workspace, store, prefix, after, limit)
    }

    fn get_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Result<Option<MemoryVersion>, Error> {
        self.stores().get_version(workspace, store, id)
    }

    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Result<Vec<MemoryVersion>, Error> {
        self.stores()
            .list_versions(workspace, store, memory, after, limit)
    }

    fn redact_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> Result<RedactOutcome, Error> {
        self.stores().redact_version(workspace, store, id, at)
    }

    fn put_session(&self, workspace: &WorkspaceId, session: &Session) -> Result<(), Error> {
        self.stores().put_session(workspace, session)
    }

    fn get_session(
        &self,
        workspace: &WorkspaceId,
        id: &SessionId,
    ) -> Result<Option<Session>, Error> {
        self.stores().get_session(workspace, id)
    }

    fn put_passage(&self, workspace: &WorkspaceId, id: &str, record: &[u8]) -> Result<(), Error> {
        self.stores().put_passage(workspace, id, record)
    }

    fn passages(&self, workspace: &WorkspaceId, ids: &[&str]) -> Result<PassageRecords, Error> {
        self.stores().passages(workspace, ids)
    }

    fn list_passages(
        &self,
        workspace: &WorkspaceId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, Error> {
        self.stores().list_passages(workspace, after, limit)
    }

    fn delete_passage(&self, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
        self.stores().delete_passage(workspace, id)
    }

    fn import_passages(
        &self,
        workspace: &WorkspaceId,
        source: &str,
        records: &[(String, Vec<u8>)],
    ) -> Result<bool, Error> {
        self.stores().import_passages(workspace, source, records)
    }

    fn passage_generation(&self, workspace: &WorkspaceId) -> Result<Option<u64>, Error> {
        self.stores().passage_generation(workspace)
    }
}

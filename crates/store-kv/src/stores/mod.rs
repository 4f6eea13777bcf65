//! Memory stores over an ordered key-value space: [`KvStores`], the one implementation of
//! [`StoreBackend`]'s rules, shared by every backend. A backend supplies [`Kv`] — a consistent
//! read view, and an exclusive read-then-write step whose writes land atomically. PostgreSQL
//! keeps agent memories in tables of its own, so it is no `KvBackend`, but its memory stores
//! are a `KvStores` over a table.
//!
//! # Layout
//!
//! Every key starts with a one-byte kind and the workspace as a length-delimited component (see
//! `keys`), so tenants never share a prefix:
//!
//! | kind | key after the workspace | value |
//! |---|---|---|
//! | `S` | store id | the store (JSON) |
//! | `M` | store id, memory id | the live memory without its content (JSON), or a tombstone |
//! | `P` | store id, path bytes | memory id (live memories only) |
//! | `V` | store id, version id | the version (JSON) |
//! | `O` | store id, order(`created_at`), version id | memory id |
//! | `H` | store id, memory id, order(`created_at`), version id | empty |
//! | `N` | session id | the session (JSON) |
//! | `C` | passage id bytes | the host's passage record (its own bytes) |
//! | `I` | import source | empty: the source's passages were imported |
//! | `G` | — | the passages' stamp (u64 BE): a fresh value in every step that changes a `C` entry |
//!
//! Lower-case kinds are those of agent memories (see `crate::agent`).
//!
//! `order(t)` is the instant's milliseconds with the sign bit flipped, big-endian, so byte order
//! is time order; paths and the trailing version ids are raw bytes, so byte order is the list
//! order the spec asks for. A path conflict is three point reads and one seek: the path itself,
//! each ancestor, and the first path after `path + "/"`.
//!
//! A live memory's content is kept once, in its current version (which cannot be redacted while
//! it is current): an update writes the content once, a no-op is detected by hash without reading
//! the old content, and lists read no content at all.

mod layout;
mod passages;
mod records;
mod write;

use memory_core::{
    MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Session, SessionId, StoreMemory,
    StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp, WorkspaceId,
};
use passages::{
    delete_passage, import_passages, list_passages, passage_generation, passages, put_passage,
};
use records::{
    create_store, delete_store, get_memory, get_session, get_store, get_version, list_memories,
    list_stores, list_versions, memory_at_path, put_session, put_store, redact_version,
};
use store_trait::kv::Kv;
use store_trait::{
    Error, MemoryWrite, MemoryWriteOutcome, PassageRecords, RedactOutcome, StoreBackend,
};
use write::write_memory;

/// [`StoreBackend`] over the ordered key space `K`, laid out as this module says: the one
/// implementation of the memory-store rules, which every key-space backend and `store-postgres`
/// answer their memory-store calls with (through [`HasStores`](store_trait::HasStores)).
#[derive(Debug, Default)]
pub struct KvStores<K> {
    kv: K,
}

impl<K> KvStores<K> {
    /// The memory stores in `kv`.
    pub fn over(kv: K) -> Self {
        KvStores { kv }
    }

    /// The key space.
    pub fn kv(&self) -> &K {
        &self.kv
    }
}

/// Every method is the function of its name in the submodule of its job.
impl<K: Kv + Send + Sync> StoreBackend for KvStores<K> {
    fn create_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error> {
        create_store(&self.kv, workspace, store)
    }

    fn get_store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, Error> {
        get_store(&self.kv, workspace, id)
    }

    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Result<Vec<MemoryStore>, Error> {
        list_stores(&self.kv, workspace, include_archived, after, limit)
    }

    fn put_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error> {
        put_store(&self.kv, workspace, store)
    }

    fn delete_store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error> {
        delete_store(&self.kv, workspace, id)
    }

    fn write_memory(&self, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
        write_memory(&self.kv, write)
    }

    fn get_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Result<Option<StoreMemory>, Error> {
        get_memory(&self.kv, workspace, store, id)
    }

    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, Error> {
        memory_at_path(&self.kv, workspace, store, path)
    }

    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Result<Vec<StoreMemoryMetadata>, Error> {
        list_memories(&self.kv, workspace, store, prefix, after, limit)
    }

    fn get_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Result<Option<MemoryVersion>, Error> {
        get_version(&self.kv, workspace, store, id)
    }

    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Result<Vec<MemoryVersion>, Error> {
        list_versions(&self.kv, workspace, store, memory, after, limit)
    }

    fn redact_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> Result<RedactOutcome, Error> {
        redact_version(&self.kv, workspace, store, id, at)
    }

    fn put_session(&self, workspace: &WorkspaceId, session: &Session) -> Result<(), Error> {
        put_session(&self.kv, workspace, session)
    }

    fn get_session(
        &self,
        workspace: &WorkspaceId,
        id: &SessionId,
    ) -> Result<Option<Session>, Error> {
        get_session(&self.kv, workspace, id)
    }

    fn put_passage(&self, workspace: &WorkspaceId, id: &str, record: &[u8]) -> Result<(), Error> {
        put_passage(&self.kv, workspace, id, record)
    }

    fn passages(&self, workspace: &WorkspaceId, ids: &[&str]) -> Result<PassageRecords, Error> {
        passages(&self.kv, workspace, ids)
    }

    fn list_passages(
        &self,
        workspace: &WorkspaceId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, Error> {
        list_passages(&self.kv, workspace, after, limit)
    }

    fn delete_passage(&self, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
        delete_passage(&self.kv, workspace, id)
    }

    fn import_passages(
        &self,
        workspace: &WorkspaceId,
        source: &str,
        records: &[(String, Vec<u8>)],
    ) -> Result<bool, Error> {
        import_passages(&self.kv, workspace, source, records)
    }

    fn passage_generation(&self, workspace: &WorkspaceId) -> Result<Option<u64>, Error> {
        passage_generation(&self.kv, workspace).map(Some)
    }
}

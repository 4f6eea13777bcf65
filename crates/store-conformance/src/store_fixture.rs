//! Builders shared by the memory-store checks: ids, instants, stores, and a writer of memory
//! changes with its refusal codes.

use memory_core::{
    Actor, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, PiiPolicy,
    Precondition, StoreMemory, StoreMemoryId, StorePath, Timestamp, WorkspaceId, content_sha256,
};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, StoreBackend};

pub(crate) fn ws(name: &str) -> WorkspaceId {
    WorkspaceId::new(name).expect("workspace id")
}

pub(crate) fn at(ms: i64) -> Timestamp {
    Timestamp::from_millis(1_767_225_600_000 + ms).expect("instant")
}

pub(crate) fn store_id(n: u32) -> MemoryStoreId {
    MemoryStoreId::parse(format!("memstore_{n:04}")).expect("store id")
}

pub(crate) fn mem_id(n: u32) -> StoreMemoryId {
    StoreMemoryId::parse(format!("mem_{n:04}")).expect("memory id")
}

pub(crate) fn ver_id(n: u32) -> MemoryVersionId {
    MemoryVersionId::parse(format!("memver_{n:06}")).expect("version id")
}

pub(crate) fn path(p: &str) -> StorePath {
    StorePath::parse(p).expect("path")
}

pub(crate) fn actor() -> Actor {
    Actor::UserActor {
        user_id: "alice".into(),
    }
}

pub(crate) fn store(n: u32, ms: i64) -> MemoryStore {
    MemoryStore {
        id: store_id(n),
        kind: Default::default(),
        name: format!("Store {n}"),
        description: String::new(),
        pii_policy: PiiPolicy::Allow,
        created_at: at(ms),
        updated_at: at(ms),
        archived_at: None,
    }
}

pub(crate) fn sha(p: &str) -> Option<Precondition> {
    Some(Precondition::ContentSha256 {
        content_sha256: content_sha256(p),
    })
}

/// A write helper bound to one workspace and store.
pub(crate) struct Writer<'a, B> {
    pub(crate) backend: &'a B,
    pub(crate) workspace: WorkspaceId,
    pub(crate) store: MemoryStoreId,
}

impl<B: StoreBackend> Writer<'_, B> {
    pub(crate) fn write(&self, version: u32, ms: i64, change: MemoryChange) -> MemoryWriteOutcome {
        self.write_pd(version, ms, change, false)
    }

    pub(crate) fn write_pd(
        &self,
        version: u32,
        ms: i64,
        change: MemoryChange,
        personal_data: bool,
    ) -> MemoryWriteOutcome {
        self.backend
            .write_memory(&MemoryWrite {
                workspace: self.workspace.clone(),
                store: self.store.clone(),
                change,
                version_id: ver_id(version),
                actor: actor(),
                at: at(ms),
                personal_data,
            })
            .expect("write_memory")
    }

    pub(crate) fn create(
        &self,
        memory: u32,
        version: u32,
        ms: i64,
        p: &str,
        content: &str,
    ) -> StoreMemory {
        match self.write(
            version,
            ms,
            MemoryChange::Create {
                memory_id: mem_id(memory),
                path: path(p),
                content: content.into(),
            },
        ) {
            MemoryWriteOutcome::Written {
                memory: Some(m), ..
            } => m,
            other => panic!("create refused: {other:?}"),
        }
    }

    pub(crate) fn versions(&self, memory: Option<u32>) -> Vec<MemoryVersion> {
        self.backend
            .list_versions(
                &self.workspace,
                &self.store,
                memory.map(mem_id).as_ref(),
                None,
                usize::MAX,
            )
            .expect("list_versions")
    }
}

pub(crate) fn refused_code(outcome: &MemoryWriteOutcome) -> Option<ErrorCode> {
    match outcome {
        MemoryWriteOutcome::Refused(e) => Some(e.code()),
        _ => None,
    }
}

pub(crate) fn setup<B: StoreBackend>(backend: &B) -> Writer<'_, B> {
    backend
        .create_store(&ws("ws1"), &store(1, 0))
        .expect("create_store");
    Writer {
        backend,
        workspace: ws("ws1"),
        store: store_id(1),
    }
}

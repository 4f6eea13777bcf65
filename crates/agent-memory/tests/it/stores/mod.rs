//! Memory stores at the facade level, on the in-memory backend with a manual clock and seeded
//! ids: every rule and error code of the spec, the R4 precondition race, the R6 path attacks,
//! the system-prompt fence, the agent file interface and the memory tool.

mod fs;
mod host;
mod json_edge;
mod memory_tool;
mod paths;
mod personal_data;
mod prompt;
mod races;
mod sessions;
mod traces;

use std::sync::Arc;

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{
    ApiError, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest, ErrorCode,
    InMemoryPassageSource, ListMemoriesRequest, ListVersionsRequest, ManualClock, MemberCaller,
    MemoryAuditSink, MemoryService, MemoryStoreId, SessionCaller, StoreCaller, StoreService,
};
use memory_core::session::{FsListing, FsRead, TextAnswer};
use memory_core::store::Page;
use memory_core::{
    MemberId, MemoryStore, MemoryStoreDeleted, MemoryVersion, Role, SeededIdGenerator, Session,
    SessionId, StoreMemory, StoreMemoryMetadata, Timestamp, WorkspaceId,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use store_kv::InMemoryBackend;

/// A store service over a fresh in-memory backend, workspace `ws`.
///
/// `service` is the service behind the JSON edge: its operations take JSON bodies and go
/// through [`JsonApi`] exactly as a REST host's would (the rule tables of these tests are
/// written as the JSON that hosts send); everything else derefs to the [`StoreService`].
/// [`Stores::typed`] is the typed API a Rust host calls.
pub(crate) struct Stores {
    pub(crate) service: JsonStores,
    pub(crate) clock: Arc<ManualClock>,
    pub(crate) audit: Arc<MemoryAuditSink>,
}

/// A [`StoreService`] called through the JSON edge, the answer read back into its Rust type.
pub(crate) struct JsonStores {
    stores: StoreService,
    memories: MemoryService,
}

impl std::ops::Deref for JsonStores {
    type Target = StoreService;

    fn deref(&self) -> &StoreService {
        &self.stores
    }
}

macro_rules! json_ops {
    ($($method:ident: $op:ident, $kind:ident -> $answer:ty;)*) => {
        impl JsonStores {
            $(
                pub(crate) fn $method(
                    &self,
                    caller: &json_ops!(@caller $kind),
                    body: &Value,
                ) -> Result<$answer, ApiError> {
                    self.call(Operation::$op, Caller::$kind(caller), body)
                }
            )*
        }
    };
    (@caller Store) => { StoreCaller };
    (@caller Session) => { SessionCaller };
}

json_ops! {
    stores_create: StoresCreate, Store -> MemoryStore;
    stores_get: StoresGet, Store -> MemoryStore;
    stores_list: StoresList, Store -> Page<MemoryStore>;
    stores_update: StoresUpdate, Store -> MemoryStore;
    stores_archive: StoresArchive, Store -> MemoryStore;
    stores_delete: StoresDelete, Store -> MemoryStoreDeleted;
    memories_create: MemoriesCreate, Store -> StoreMemory;
    memories_get: MemoriesGet, Store -> StoreMemory;
    memories_list: MemoriesList, Store -> Page<StoreMemoryMetadata>;
    memories_update: MemoriesUpdate, Store -> StoreMemory;
    versions_list: VersionsList, Store -> Page<MemoryVersion>;
    versions_get: VersionsGet, Store -> MemoryVersion;
    versions_redact: VersionsRedact, Store -> MemoryVersion;
    sessions_create: SessionsCreate, Store -> Session;
    sessions_resources_add: SessionsResourcesAdd, Store -> Session;
    sessions_system_prompt: SessionsSystemPrompt, Store -> TextAnswer;
    fs_list: FsList, Session -> FsListing;
    fs_read: FsRead, Session -> FsRead;
    fs_write: FsWrite, Session -> StoreMemory;
}

impl JsonStores {
    /// The JSON edge over both services.
    pub(crate) fn api(&self) -> JsonApi<'_> {
        JsonApi::new(&self.memories).with_stores(&self.stores)
    }

    fn call<T: DeserializeOwned>(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Result<T, ApiError> {
        let answer = self.api().call(operation, caller, body)?;
        Ok(serde_json::from_value(answer).expect("the answer reads back into its Rust type"))
    }
}

impl Stores {
    pub(crate) fn new() -> Stores {
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let audit = Arc::new(MemoryAuditSink::new());
        let stores = StoreService::over(Arc::new(InMemoryBackend::new()))
            .clock(clock.clone())
            .ids(Arc::new(SeededIdGenerator::new(11)))
            .audit(audit.clone())
            .build();
        let memories = MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .build()
        .unwrap();
        Stores {
            service: JsonStores { stores, memories },
            clock,
            audit,
        }
    }

    /// The typed API.
    pub(crate) fn typed(&self) -> &StoreService {
        &self.service.stores
    }

    /// Creates a store as the editor and returns its id.
    pub(crate) fn store(&self, request: CreateStoreRequest) -> String {
        self.typed()
            .stores_create(&editor(), &request)
            .unwrap()
            .id
            .into_string()
    }

    /// Creates a memory as the editor.
    pub(crate) fn memory(
        &self,
        store: &str,
        path: &str,
        content: &str,
    ) -> memory_core::StoreMemory {
        self.typed()
            .memories_create(
                &editor(),
                &CreateMemoryRequest::new(store_id(store), path, content),
            )
            .unwrap()
    }

    /// Every version of the store, newest first (all pages).
    pub(crate) fn versions(&self, store: &str) -> Vec<memory_core::MemoryVersion> {
        let mut all = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut request = ListVersionsRequest::new(store_id(store)).limit(100);
            if let Some(c) = &cursor {
                request = request.cursor(c);
            }
            let page = self.typed().versions_list(&editor(), &request).unwrap();
            all.extend(page.data);
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => return all,
            }
        }
    }

    /// Every live memory path of the store, by path.
    pub(crate) fn paths(&self, store: &str) -> Vec<String> {
        self.typed()
            .memories_list(
                &editor(),
                &ListMemoriesRequest::new(store_id(store)).limit(100),
            )
            .unwrap()
            .data
            .into_iter()
            .map(|m| m.path.into_string())
            .collect()
    }

    /// A session with the given resources (JSON, as a host sends them), as the editor.
    pub(crate) fn session(&self, resources: Value) -> SessionCaller {
        let session = self
            .service
            .sessions_create(&editor(), &serde_json::json!({"resources": resources}))
            .unwrap();
        SessionCaller {
            workspace: ws(),
            session: session.id,
        }
    }

    /// A session with `request`'s resources, as the editor.
    pub(crate) fn typed_session(&self, request: &CreateSessionRequest) -> SessionCaller {
        let session = self.typed().sessions_create(&editor(), request).unwrap();
        SessionCaller {
            workspace: ws(),
            session: session.id,
        }
    }
}

/// The id `id` (tests name stores by the strings the service returned).
pub(crate) fn store_id(id: &str) -> MemoryStoreId {
    MemoryStoreId::parse(id).unwrap()
}

pub(crate) fn ws() -> WorkspaceId {
    WorkspaceId::new("ws").unwrap()
}

pub(crate) fn member_with(role: Role) -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: ws(),
        member: MemberId::new(format!("m_{}", role.as_str())).unwrap(),
        role,
    })
}

pub(crate) fn editor() -> StoreCaller {
    member_with(Role::Editor)
}

pub(crate) fn viewer() -> StoreCaller {
    member_with(Role::Viewer)
}

pub(crate) fn api_key() -> StoreCaller {
    StoreCaller::ApiKey {
        workspace: ws(),
        api_key_id: "key_1".into(),
    }
}

/// A caller of another workspace.
pub(crate) fn stranger() -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: WorkspaceId::new("other").unwrap(),
        member: MemberId::new("eve").unwrap(),
        role: Role::Owner,
    })
}

/// A session id that was never created.
pub(crate) fn ghost_session() -> SessionCaller {
    SessionCaller {
        workspace: ws(),
        session: SessionId::parse("sesn_ghost").unwrap(),
    }
}

#[track_caller]
pub(crate) fn code<T: std::fmt::Debug>(result: Result<T, ApiError>) -> ErrorCode {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.code(),
    }
}

//! Host-side operations on stores and memories (`stores.*`, `memories.*`); versions are in
//! [`super::versions`].

use memory_core::store::MemoryStoreTag;
use memory_core::store::Page;
use memory_core::{
    Actor, ApiError, ErrorCode, MemoryDeleted, MemoryStore, MemoryStoreDeleted, MemoryStoreId,
    MemoryVersionId, PiiPolicy, StoreMemory, StoreMemoryId, StoreMemoryMetadata, StorePath,
    WorkspaceId,
};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome};

use super::cursor::StoreCursor;
use super::requests::{
    CreateMemoryRequest, CreateStoreRequest, DeleteMemoryRequest, ListMemoriesRequest,
    ListStoresRequest, MemoryIdRequest, RestoreMemoryRequest, StoreIdRequest, UpdateMemoryRequest,
    UpdateStoreRequest, normalized_prefix,
};
use crate::ops;
use crate::service::{
    StoreService, check_path, internal, masked_store_text, page_tally, prepare_content, trace_op,
    trace_page,
};
use agent_memory_ops::audit::AuditEvent;
use agent_memory_ops::caller::StoreCaller;
use agent_memory_ops::ops::{
    Body, GenAiOperation, HttpInput, HttpMethod, HttpRoute, Operation, Tally, route,
};

pub(super) fn store_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryStoreNotFound, "memory store not found")
}

pub(super) fn memory_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryNotFound, "memory not found")
}

pub(super) fn version_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryVersionNotFound, "memory version not found")
}

fn archived() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryStoreArchived,
        "the memory store is archived",
    )
}

/// The refusal of a name that the masker's placeholders make too long.
const NAME_RULE: &str = "name has more than 255 characters once its personal data is masked";

/// The refusal of a description that the masker's placeholders make too long.
const DESCRIPTION_RULE: &str =
    "description has more than 4096 characters once its personal data is masked";

pub(crate) fn parse_path(path: String) -> Result<StorePath, ApiError> {
    StorePath::parse(path).map_err(ApiError::from)
}

impl StoreService {
    /// Writes one memory change through the backend, which decides `404`/`409`/`400 personal
    /// data` in one transaction; a refusal comes back as the error.
    pub(crate) fn write_change(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        change: MemoryChange,
        actor: Actor,
        personal_data: bool,
    ) -> Result<MemoryWriteOutcome, ApiError> {
        let now = self.now();
        let version_id = MemoryVersionId::generate(&*self.ids, now)
            .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))?;
        let outcome = self
            .backend
            .write_memory(&MemoryWrite {
                workspace: workspace.clone(),
                store: store.clone(),
                change,
                version_id,
                actor,
                at: now,
                personal_data,
            })
            .map_err(internal)?;
        match outcome {
            MemoryWriteOutcome::Refused(err) => Err(err),
            other => Ok(other),
        }
    }

    pub(crate) fn new_memory_id(&self) -> Result<StoreMemoryId, ApiError> {
        StoreMemoryId::generate(&*self.ids, self.now())
            .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))
    }

    /// The policy of `store`, or `None` when it does not exist (the backend answers `404` then).
    pub(crate) fn policy_of(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
    ) -> Result<Option<PiiPolicy>, ApiError> {
        Ok(self.store_of(workspace, store)?.map(|s| s.pii_policy))
    }

    /// Step 3 of the validation order for a path a write would store in `store`: reads the
    /// store's policy and refuses a path with personal data under `mask` and `reject` (`400
    /// MEMORY_PATH_PERSONAL_DATA`). A missing store passes: the write answers `404` itself.
    pub(crate) fn check_new_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<(), ApiError> {
        check_path(self.policy_of(workspace, store)?, path)
    }

    // -----------------------------------------------------------------------------------------
    // Stores

    /// `stores.create {name, description?, pii_policy?}` → the store.
    pub fn stores_create(
        &self,
        c: &StoreCaller,
        request: &CreateStoreRequest,
    ) -> Result<MemoryStore, ApiError> {
        ops::StoresCreate::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresCreate {
    const NAME: &'static str = "stores.create";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::CreateMemoryStore);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores",
        HttpInput::Body,
        "Create a memory store",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = CreateStoreRequest;
    type Response = MemoryStore;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, CreateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let name = masked_store_text(body.name, MemoryStore::name_valid, NAME_RULE)?;
        let description = masked_store_text(
            body.description.unwrap_or_default(),
            MemoryStore::description_valid,
            DESCRIPTION_RULE,
        )?;
        let now = service.now();
        let store = MemoryStore {
            id: MemoryStoreId::generate(&*service.ids, now)
                .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))?,
            kind: MemoryStoreTag,
            name,
            description,
            pii_policy: body.pii_policy,
            created_at: now,
            updated_at: now,
            archived_at: None,
        };
        service
            .backend
            .create_store(c.workspace(), &store)
            .map_err(internal)?;
        Ok(store)
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryStore, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |s| {
            tracing::info!(
                op = Self::NAME,
                memory_store_id = s.id.as_str(),
                pii_policy = s.pii_policy.as_str()
            );
        });
    }
}

impl StoreService {
    /// `stores.get {memory_store_id}` → the store (archived ones too).
    pub fn stores_get(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStore, ApiError> {
        ops::StoresGet::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresGet {
    const NAME: &'static str = "stores.get";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores/{memory_store_id}",
        HttpInput::None,
        "Read a memory store",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = StoreIdRequest;
    type Response = MemoryStore;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryStore, ApiError>) {
        trace_store(Self::NAME, c, result);
    }
}

impl StoreService {
    /// `stores.list {include_archived?, limit?, cursor?}` → a page, newest first.
    pub fn stores_list(
        &self,
        c: &StoreCaller,
        request: &ListStoresRequest,
    ) -> Result<Page<MemoryStore>, ApiError> {
        ops::StoresList::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresList {
    const NAME: &'static str = "stores.list";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores",
        HttpInput::Query,
        "Page through the workspace's memory stores",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = ListStoresRequest;
    type Response = Page<MemoryStore>;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, ListStoresRequest>,
    ) -> Result<Page<MemoryStore>, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        let limit = body.limit;
        let include_archived = body.include_archived;
        let after = body
            .cursor
            .as_deref()
            .map(|s| StoreCursor::decode(s)?.stores_position(include_archived))
            .transpose()?;
        let data = service
            .backend
            .list_stores(c.workspace(), include_archived, after.as_ref(), limit + 1)
            .map_err(internal)?;
        Ok(Page::from_one_more(data, limit, |last| {
            StoreCursor::Stores {
                include_archived,
                created_at: last.created_at.as_millis(),
                id: last.id.as_str().to_owned(),
            }
            .encode()
        }))
    }

    fn tally(page: &Page<MemoryStore>) -> Tally<'_> {
        page_tally(page)
    }

    fn trace(c: &StoreCaller, result: &Result<Page<MemoryStore>, ApiError>) {
        trace_page(Self::NAME, c.workspace(), result);
    }
}

impl StoreService {
    /// `stores.update {memory_store_id, name?, description?}` → the store. An archived store is
    /// read-only (`409 MEMORY_STORE_ARCHIVED`); an update that changes nothing keeps `updated_at`.
    pub fn stores_update(
        &self,
        c: &StoreCaller,
        request: &UpdateStoreRequest,
    ) -> Result<MemoryStore, ApiError> {
        ops::StoresUpdate::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresUpdate {
    const NAME: &'static str = "stores.update";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}",
        HttpInput::Body,
        "Rename or describe a memory store",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = UpdateStoreRequest;
    type Response = MemoryStore;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, UpdateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        // Masked before the store is read: a refusal of the masked text is a validation error.
        let name = body
            .name
            .map(|n| masked_store_text(n, MemoryStore::name_valid, NAME_RULE))
            .transpose()?;
        let description = body
            .description
            .map(|d| masked_store_text(d, MemoryStore::description_valid, DESCRIPTION_RULE))
            .transpose()?;
        let mut store = service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        if store.is_archived() {
            return Err(archived());
        }
        let mut changed = false;
        if let Some(name) = name.filter(|n| *n != store.name) {
            store.name = name;
            changed = true;
        }
        if let Some(description) = description.filter(|d| *d != store.description) {
            store.description = description;
            changed = true;
        }
        if changed {
            store.updated_at = service.now();
            service.save_store(c.workspace(), &store)?;
        }
        Ok(store)
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryStore, ApiError>) {
        trace_store(Self::NAME, c, result);
    }
}

impl StoreService {
    /// `stores.archive {memory_store_id}` → the store, read-only from now on. Archiving an
    /// archived store changes nothing (idempotent).
    pub fn stores_archive(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStore, ApiError> {
        ops::StoresArchive::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresArchive {
    const NAME: &'static str = "stores.archive";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}/archive",
        HttpInput::None,
        "Make a memory store read-only",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = StoreIdRequest;
    type Response = MemoryStore;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?;
        let mut store = service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        if store.is_archived() {
            return Ok(store);
        }
        let now = service.now();
        store.archived_at = Some(now);
        store.updated_at = now;
        service.save_store(c.workspace(), &store)?;
        Ok(store)
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryStore, ApiError>) {
        trace_store(Self::NAME, c, result);
    }
}

impl StoreService {
    /// `stores.delete {memory_store_id}` → `{"id":…,"type":"memory_store_deleted"}`; the store,
    /// its memories and all versions are gone (archived stores can be deleted too).
    pub fn stores_delete(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStoreDeleted, ApiError> {
        ops::StoresDelete::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::StoresDelete {
    const NAME: &'static str = "stores.delete";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemoryStore);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Delete,
        "/v1/memory_stores/{memory_store_id}",
        HttpInput::None,
        "Delete a memory store with its memories and versions",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = StoreIdRequest;
    type Response = MemoryStoreDeleted;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, StoreIdRequest>,
    ) -> Result<MemoryStoreDeleted, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?;
        if !service
            .backend
            .delete_store(c.workspace(), &body.memory_store_id)
            .map_err(internal)?
        {
            return Err(store_not_found());
        }
        service.record_audit(
            c,
            AuditEvent::MemoryStoreDeleted {
                memory_store_id: body.memory_store_id.as_str().to_owned(),
            },
        );
        Ok(MemoryStoreDeleted::new(body.memory_store_id.clone()))
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryStoreDeleted, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |d| {
            tracing::info!(op = Self::NAME, memory_store_id = d.id.as_str());
        });
    }
}

impl StoreService {
    // -----------------------------------------------------------------------------------------
    // Memories

    /// `memories.create {memory_store_id, path, content}` → the memory (a `created` version).
    pub fn memories_create(
        &self,
        c: &StoreCaller,
        request: &CreateMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::MemoriesCreate::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesCreate {
    const NAME: &'static str = "memories.create";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}/memories",
        HttpInput::Body,
        "Create a memory (a text file at a path)",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = CreateMemoryRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, CreateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let path = parse_path(body.path)?;
        service.create_memory(
            c.workspace(),
            &body.memory_store_id,
            path,
            body.content,
            c.actor(),
        )
    }

    fn trace(c: &StoreCaller, result: &Result<StoreMemory, ApiError>) {
        trace_memory(Self::NAME, c, result);
    }
}

impl StoreService {
    /// Creates a memory: the path's personal data, then size and policy (see the module docs),
    /// then the backend.
    pub(crate) fn create_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: StorePath,
        content: String,
        actor: Actor,
    ) -> Result<StoreMemory, ApiError> {
        let policy = self.policy_of(workspace, store)?;
        check_path(policy, &path)?;
        let prepared = prepare_content(policy, content)?;
        if policy.is_none() {
            return Err(store_not_found());
        }
        let change = MemoryChange::Create {
            memory_id: self.new_memory_id()?,
            path,
            content: prepared.content,
        };
        match self.write_change(workspace, store, change, actor, prepared.personal_data)? {
            MemoryWriteOutcome::Written {
                memory: Some(memory),
                ..
            }
            | MemoryWriteOutcome::Unchanged { memory } => Ok(memory),
            _ => Err(ApiError::new(
                ErrorCode::InternalError,
                "the storage backend answered a create without a memory",
            )),
        }
    }

    /// `memories.get {memory_store_id, memory_id}` → the live memory.
    pub fn memories_get(
        &self,
        c: &StoreCaller,
        request: &MemoryIdRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::MemoriesGet::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesGet {
    const NAME: &'static str = "memories.get";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores/{memory_store_id}/memories/{memory_id}",
        HttpInput::None,
        "Read a memory",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = MemoryIdRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, MemoryIdRequest>,
    ) -> Result<StoreMemory, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        service
            .backend
            .get_memory(c.workspace(), &body.memory_store_id, &body.memory_id)
            .map_err(internal)?
            .ok_or_else(memory_not_found)
    }

    fn trace(c: &StoreCaller, result: &Result<StoreMemory, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |m| {
            tracing::info!(
                op = Self::NAME,
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str()
            );
        });
    }
}

impl StoreService {
    /// `memories.list {memory_store_id, path_prefix?, limit?, cursor?}` → metadata by path.
    pub fn memories_list(
        &self,
        c: &StoreCaller,
        request: &ListMemoriesRequest,
    ) -> Result<Page<StoreMemoryMetadata>, ApiError> {
        ops::MemoriesList::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesList {
    const NAME: &'static str = "memories.list";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores/{memory_store_id}/memories",
        HttpInput::Query,
        "Page through a store's memories by path",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = ListMemoriesRequest;
    type Response = Page<StoreMemoryMetadata>;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, ListMemoriesRequest>,
    ) -> Result<Page<StoreMemoryMetadata>, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        let limit = body.limit;
        let prefix = normalized_prefix(body.path_prefix.as_deref())?;
        let after = body
            .cursor
            .as_deref()
            .map(|s| {
                StoreCursor::decode(s)?.memories_position(&body.memory_store_id, prefix.as_deref())
            })
            .transpose()?;
        service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        let memories = service
            .backend
            .list_memories(
                c.workspace(),
                &body.memory_store_id,
                prefix.as_deref(),
                after.as_ref(),
                limit + 1,
            )
            .map_err(internal)?;
        Ok(Page::from_one_more(memories, limit, |last| {
            StoreCursor::Memories {
                store: body.memory_store_id.as_str().to_owned(),
                path_prefix: prefix.clone(),
                after: last.path.as_str().to_owned(),
            }
            .encode()
        }))
    }

    fn tally(page: &Page<StoreMemoryMetadata>) -> Tally<'_> {
        page_tally(page)
    }

    fn trace(c: &StoreCaller, result: &Result<Page<StoreMemoryMetadata>, ApiError>) {
        trace_page(Self::NAME, c.workspace(), result);
    }
}

impl StoreService {
    /// `memories.update {memory_store_id, memory_id, content?, path?, precondition?}` → the
    /// memory. Equal content and path: `200`, no version, whatever the precondition says.
    pub fn memories_update(
        &self,
        c: &StoreCaller,
        request: &UpdateMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::MemoriesUpdate::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesUpdate {
    const NAME: &'static str = "memories.update";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}/memories/{memory_id}",
        HttpInput::Body,
        "Change a memory's content or path",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = UpdateMemoryRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, UpdateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let path = body.path.map(parse_path).transpose()?;
        let precondition = body.precondition;
        service.update_memory(
            c.workspace(),
            &body.memory_store_id,
            &body.memory_id,
            body.content,
            path,
            precondition,
            c.actor(),
        )
    }

    fn trace(c: &StoreCaller, result: &Result<StoreMemory, ApiError>) {
        trace_memory(Self::NAME, c, result);
    }
}

impl StoreService {
    /// Updates a memory's content and/or path (see [`Self::memories_update`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn update_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: &StoreMemoryId,
        content: Option<String>,
        path: Option<StorePath>,
        precondition: Option<memory_core::Precondition>,
        actor: Actor,
    ) -> Result<StoreMemory, ApiError> {
        // The store's policy, read once when a path or content is to be checked against it
        // (`None` inside: the store does not exist).
        let policy = if content.is_some() || path.is_some() {
            Some(self.policy_of(workspace, store)?)
        } else {
            None
        };
        if let (Some(policy), Some(path)) = (policy, &path) {
            check_path(policy, path)?;
        }
        let (content, personal_data) = match content {
            Some(raw) => {
                let policy = policy.flatten();
                let prepared = prepare_content(policy, raw)?;
                if policy.is_none() {
                    return Err(store_not_found());
                }
                (Some(prepared.content), prepared.personal_data)
            }
            None => (None, false),
        };
        let change = MemoryChange::Update {
            memory_id: memory.clone(),
            content,
            path,
            precondition,
        };
        match self.write_change(workspace, store, change, actor, personal_data)? {
            MemoryWriteOutcome::Written {
                memory: Some(memory),
                ..
            }
            | MemoryWriteOutcome::Unchanged { memory } => Ok(memory),
            _ => Err(ApiError::new(
                ErrorCode::InternalError,
                "the storage backend answered an update without a memory",
            )),
        }
    }

    /// `memories.delete {memory_store_id, memory_id, precondition?}` →
    /// `{"id":…,"type":"memory_deleted"}` (a `deleted` version; the versions stay).
    pub fn memories_delete(
        &self,
        c: &StoreCaller,
        request: &DeleteMemoryRequest,
    ) -> Result<MemoryDeleted, ApiError> {
        ops::MemoriesDelete::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesDelete {
    const NAME: &'static str = "memories.delete";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Delete,
        "/v1/memory_stores/{memory_store_id}/memories/{memory_id}",
        HttpInput::Body,
        "Delete a memory",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = DeleteMemoryRequest;
    type Response = MemoryDeleted;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, DeleteMemoryRequest>,
    ) -> Result<MemoryDeleted, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let precondition = body.precondition;
        service.write_change(
            c.workspace(),
            &body.memory_store_id,
            MemoryChange::Delete {
                memory_id: body.memory_id.clone(),
                precondition,
            },
            c.actor(),
            false,
        )?;
        Ok(MemoryDeleted::new(body.memory_id))
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryDeleted, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |d| {
            tracing::info!(op = Self::NAME, memory_id = d.id.as_str());
        });
    }
}

impl StoreService {
    /// `memories.restore {memory_store_id, memory_id, version_id, precondition?}` → the memory
    /// with the version's content and path (`modified`, or `created` after a delete; nothing
    /// written when it already equals the version).
    pub fn memories_restore(
        &self,
        c: &StoreCaller,
        request: &RestoreMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::MemoriesRestore::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::MemoriesRestore {
    const NAME: &'static str = "memories.restore";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}/memories/{memory_id}/restore",
        HttpInput::Body,
        "Bring back a version's content and path",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = RestoreMemoryRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, RestoreMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let precondition = body.precondition;
        let change = MemoryChange::Restore {
            memory_id: body.memory_id,
            source: body.version_id,
            precondition,
        };
        match service.write_change(
            c.workspace(),
            &body.memory_store_id,
            change,
            c.actor(),
            false,
        )? {
            MemoryWriteOutcome::Written {
                memory: Some(memory),
                ..
            }
            | MemoryWriteOutcome::Unchanged { memory } => Ok(memory),
            _ => Err(ApiError::new(
                ErrorCode::InternalError,
                "the storage backend answered a restore without a memory",
            )),
        }
    }

    fn trace(c: &StoreCaller, result: &Result<StoreMemory, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |m| {
            tracing::info!(
                op = Self::NAME,
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
            );
        });
    }
}

/// Traces an operation that answers a memory: its ids and size, or the refusal's code.
fn trace_memory(op: &'static str, c: &StoreCaller, result: &Result<StoreMemory, ApiError>) {
    trace_op(op, c.workspace(), result, |m| {
        tracing::info!(
            op,
            memory_store_id = m.memory_store_id.as_str(),
            memory_id = m.id.as_str(),
            version_id = m.version_id.as_str(),
            bytes = m.content_size_bytes,
        );
    });
}

/// Traces an operation that answers a store: its id, or the refusal's code.
fn trace_store(op: &'static str, c: &StoreCaller, result: &Result<MemoryStore, ApiError>) {
    trace_op(op, c.workspace(), result, |s| {
        tracing::info!(op, memory_store_id = s.id.as_str());
    });
}

impl StoreService {
    /// Writes a changed store back; a store deleted meanwhile is not found.
    fn save_store(&self, ws: &WorkspaceId, store: &MemoryStore) -> Result<(), ApiError> {
        if self.backend.put_store(ws, store).map_err(internal)? {
            Ok(())
        } else {
            Err(store_not_found())
        }
    }
}

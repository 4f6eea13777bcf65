//! Host-side operations on stores, memories and versions (`stores.*`, `memories.*`,
//! `versions.*`).

use memory_core::store::MemoryStoreTag;
use memory_core::store::Page;
use memory_core::{
    Actor, ApiError, ErrorCode, MemoryDeleted, MemoryStore, MemoryStoreDeleted, MemoryStoreId,
    MemoryVersion, MemoryVersionId, PiiPolicy, StoreMemory, StoreMemoryId, StoreMemoryMetadata,
    StorePath, WorkspaceId,
};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome};

use super::cursor::StoreCursor;
use super::requests::{
    CreateMemoryRequest, CreateStoreRequest, DeleteMemoryRequest, ListMemoriesRequest,
    ListStoresRequest, ListVersionsRequest, MemoryIdRequest, RestoreMemoryRequest, StoreIdRequest,
    UpdateMemoryRequest, UpdateStoreRequest, VersionIdRequest, normalized_prefix,
};
use super::{
    StoreCaller, StoreService, check_path, internal, masked_store_text, prepare_content, trace_op,
    trace_page,
};
use crate::audit::AuditEvent;
use crate::input::Input;

fn store_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryStoreNotFound, "memory store not found")
}

fn memory_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryNotFound, "memory not found")
}

fn version_not_found() -> ApiError {
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
        self.stores_create_input(c, Input::Typed(request))
    }

    /// [`Self::stores_create`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_create_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, CreateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        let result = self.stores_create_inner(c, input);
        trace_op("stores.create", c.workspace(), &result, |s| {
            tracing::info!(
                op = "stores.create",
                memory_store_id = s.id.as_str(),
                pii_policy = s.pii_policy.as_str()
            );
        });
        result
    }

    fn stores_create_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, CreateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let name = masked_store_text(body.name, MemoryStore::name_valid, NAME_RULE)?;
        let description = masked_store_text(
            body.description.unwrap_or_default(),
            MemoryStore::description_valid,
            DESCRIPTION_RULE,
        )?;
        let now = self.now();
        let store = MemoryStore {
            id: MemoryStoreId::generate(&*self.ids, now)
                .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))?,
            kind: MemoryStoreTag,
            name,
            description,
            pii_policy: body.pii_policy,
            created_at: now,
            updated_at: now,
            archived_at: None,
        };
        self.backend
            .create_store(c.workspace(), &store)
            .map_err(internal)?;
        Ok(store)
    }

    /// `stores.get {memory_store_id}` → the store (archived ones too).
    pub fn stores_get(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStore, ApiError> {
        self.stores_get_input(c, Input::Typed(request))
    }

    /// [`Self::stores_get`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_get_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        let result = self.stores_get_inner(c, input);
        trace_op("stores.get", c.workspace(), &result, |s| {
            tracing::info!(op = "stores.get", memory_store_id = s.id.as_str());
        });
        result
    }

    fn stores_get_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        self.authorize(c, false)?;
        let body = input.read()?;
        self.store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)
    }

    /// `stores.list {include_archived?, limit?, cursor?}` → a page, newest first.
    pub fn stores_list(
        &self,
        c: &StoreCaller,
        request: &ListStoresRequest,
    ) -> Result<Page<MemoryStore>, ApiError> {
        self.stores_list_input(c, Input::Typed(request))
    }

    /// [`Self::stores_list`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_list_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListStoresRequest>,
    ) -> Result<Page<MemoryStore>, ApiError> {
        let result = self.stores_list_inner(c, input);
        trace_page("stores.list", c.workspace(), &result);
        result
    }

    fn stores_list_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListStoresRequest>,
    ) -> Result<Page<MemoryStore>, ApiError> {
        self.authorize(c, false)?;
        let body = input.read()?;
        let limit = body.limit;
        let include_archived = body.include_archived;
        let after = body
            .cursor
            .as_deref()
            .map(|s| StoreCursor::decode(s)?.stores_position(include_archived))
            .transpose()?;
        let mut data = self
            .backend
            .list_stores(c.workspace(), include_archived, after.as_ref(), limit + 1)
            .map_err(internal)?;
        let more = data.len() > limit;
        data.truncate(limit);
        let next_cursor = more.then(|| data.last()).flatten().map(|last| {
            StoreCursor::Stores {
                include_archived,
                created_at: last.created_at.as_millis(),
                id: last.id.as_str().to_owned(),
            }
            .encode()
        });
        Ok(Page { data, next_cursor })
    }

    /// `stores.update {memory_store_id, name?, description?}` → the store. An archived store is
    /// read-only (`409 MEMORY_STORE_ARCHIVED`); an update that changes nothing keeps `updated_at`.
    pub fn stores_update(
        &self,
        c: &StoreCaller,
        request: &UpdateStoreRequest,
    ) -> Result<MemoryStore, ApiError> {
        self.stores_update_input(c, Input::Typed(request))
    }

    /// [`Self::stores_update`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_update_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, UpdateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        let result = self.stores_update_inner(c, input);
        trace_op("stores.update", c.workspace(), &result, |s| {
            tracing::info!(op = "stores.update", memory_store_id = s.id.as_str());
        });
        result
    }

    fn stores_update_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, UpdateStoreRequest>,
    ) -> Result<MemoryStore, ApiError> {
        self.authorize(c, true)?;
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
        let mut store = self
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
            store.updated_at = self.now();
            if !self
                .backend
                .put_store(c.workspace(), &store)
                .map_err(internal)?
            {
                return Err(store_not_found());
            }
        }
        Ok(store)
    }

    /// `stores.archive {memory_store_id}` → the store, read-only from now on. Archiving an
    /// archived store changes nothing (idempotent).
    pub fn stores_archive(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStore, ApiError> {
        self.stores_archive_input(c, Input::Typed(request))
    }

    /// [`Self::stores_archive`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_archive_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        let result = self.stores_archive_inner(c, input);
        trace_op("stores.archive", c.workspace(), &result, |s| {
            tracing::info!(op = "stores.archive", memory_store_id = s.id.as_str());
        });
        result
    }

    fn stores_archive_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStore, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?;
        let mut store = self
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        if store.is_archived() {
            return Ok(store);
        }
        let now = self.now();
        store.archived_at = Some(now);
        store.updated_at = now;
        if !self
            .backend
            .put_store(c.workspace(), &store)
            .map_err(internal)?
        {
            return Err(store_not_found());
        }
        Ok(store)
    }

    /// `stores.delete {memory_store_id}` → `{"id":…,"type":"memory_store_deleted"}`; the store,
    /// its memories and all versions are gone (archived stores can be deleted too).
    pub fn stores_delete(
        &self,
        c: &StoreCaller,
        request: &StoreIdRequest,
    ) -> Result<MemoryStoreDeleted, ApiError> {
        self.stores_delete_input(c, Input::Typed(request))
    }

    /// [`Self::stores_delete`] with the request typed or as JSON, read after the role check.
    pub(crate) fn stores_delete_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStoreDeleted, ApiError> {
        let result = self.stores_delete_inner(c, input);
        trace_op("stores.delete", c.workspace(), &result, |d| {
            tracing::info!(op = "stores.delete", memory_store_id = d.id.as_str());
        });
        result
    }

    fn stores_delete_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, StoreIdRequest>,
    ) -> Result<MemoryStoreDeleted, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?;
        if !self
            .backend
            .delete_store(c.workspace(), &body.memory_store_id)
            .map_err(internal)?
        {
            return Err(store_not_found());
        }
        self.record_audit(
            c,
            AuditEvent::MemoryStoreDeleted {
                memory_store_id: body.memory_store_id.as_str().to_owned(),
            },
        );
        Ok(MemoryStoreDeleted::new(body.memory_store_id.clone()))
    }

    // -----------------------------------------------------------------------------------------
    // Memories

    /// `memories.create {memory_store_id, path, content}` → the memory (a `created` version).
    pub fn memories_create(
        &self,
        c: &StoreCaller,
        request: &CreateMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        self.memories_create_input(c, Input::Typed(request))
    }

    /// [`Self::memories_create`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_create_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, CreateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.memories_create_inner(c, input);
        trace_op("memories.create", c.workspace(), &result, |m| {
            tracing::info!(
                op = "memories.create",
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
                bytes = m.content_size_bytes,
            );
        });
        result
    }

    fn memories_create_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, CreateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let path = parse_path(body.path)?;
        self.create_memory(
            c.workspace(),
            &body.memory_store_id,
            path,
            body.content,
            c.actor(),
        )
    }

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
        self.memories_get_input(c, Input::Typed(request))
    }

    /// [`Self::memories_get`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_get_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, MemoryIdRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.memories_get_inner(c, input);
        trace_op("memories.get", c.workspace(), &result, |m| {
            tracing::info!(
                op = "memories.get",
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str()
            );
        });
        result
    }

    fn memories_get_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, MemoryIdRequest>,
    ) -> Result<StoreMemory, ApiError> {
        self.authorize(c, false)?;
        let body = input.read()?;
        self.store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        self.backend
            .get_memory(c.workspace(), &body.memory_store_id, &body.memory_id)
            .map_err(internal)?
            .ok_or_else(memory_not_found)
    }

    /// `memories.list {memory_store_id, path_prefix?, limit?, cursor?}` → metadata by path.
    pub fn memories_list(
        &self,
        c: &StoreCaller,
        request: &ListMemoriesRequest,
    ) -> Result<Page<StoreMemoryMetadata>, ApiError> {
        self.memories_list_input(c, Input::Typed(request))
    }

    /// [`Self::memories_list`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_list_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListMemoriesRequest>,
    ) -> Result<Page<StoreMemoryMetadata>, ApiError> {
        let result = self.memories_list_inner(c, input);
        trace_page("memories.list", c.workspace(), &result);
        result
    }

    fn memories_list_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListMemoriesRequest>,
    ) -> Result<Page<StoreMemoryMetadata>, ApiError> {
        self.authorize(c, false)?;
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
        self.store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        let mut memories = self
            .backend
            .list_memories(
                c.workspace(),
                &body.memory_store_id,
                prefix.as_deref(),
                after.as_ref(),
                limit + 1,
            )
            .map_err(internal)?;
        let more = memories.len() > limit;
        memories.truncate(limit);
        let next_cursor = more.then(|| memories.last()).flatten().map(|last| {
            StoreCursor::Memories {
                store: body.memory_store_id.as_str().to_owned(),
                path_prefix: prefix.clone(),
                after: last.path.as_str().to_owned(),
            }
            .encode()
        });
        Ok(Page {
            data: memories,
            next_cursor,
        })
    }

    /// `memories.update {memory_store_id, memory_id, content?, path?, precondition?}` → the
    /// memory. Equal content and path: `200`, no version, whatever the precondition says.
    pub fn memories_update(
        &self,
        c: &StoreCaller,
        request: &UpdateMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        self.memories_update_input(c, Input::Typed(request))
    }

    /// [`Self::memories_update`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_update_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, UpdateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.memories_update_inner(c, input);
        trace_op("memories.update", c.workspace(), &result, |m| {
            tracing::info!(
                op = "memories.update",
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
                bytes = m.content_size_bytes,
            );
        });
        result
    }

    fn memories_update_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, UpdateMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let path = body.path.map(parse_path).transpose()?;
        let precondition = body.precondition;
        self.update_memory(
            c.workspace(),
            &body.memory_store_id,
            &body.memory_id,
            body.content,
            path,
            precondition,
            c.actor(),
        )
    }

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
        self.memories_delete_input(c, Input::Typed(request))
    }

    /// [`Self::memories_delete`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_delete_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, DeleteMemoryRequest>,
    ) -> Result<MemoryDeleted, ApiError> {
        let result = self.memories_delete_inner(c, input);
        trace_op("memories.delete", c.workspace(), &result, |d| {
            tracing::info!(op = "memories.delete", memory_id = d.id.as_str());
        });
        result
    }

    fn memories_delete_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, DeleteMemoryRequest>,
    ) -> Result<MemoryDeleted, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let precondition = body.precondition;
        self.write_change(
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

    /// `memories.restore {memory_store_id, memory_id, version_id, precondition?}` → the memory
    /// with the version's content and path (`modified`, or `created` after a delete; nothing
    /// written when it already equals the version).
    pub fn memories_restore(
        &self,
        c: &StoreCaller,
        request: &RestoreMemoryRequest,
    ) -> Result<StoreMemory, ApiError> {
        self.memories_restore_input(c, Input::Typed(request))
    }

    /// [`Self::memories_restore`] with the request typed or as JSON, read after the role check.
    pub(crate) fn memories_restore_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, RestoreMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.memories_restore_inner(c, input);
        trace_op("memories.restore", c.workspace(), &result, |m| {
            tracing::info!(
                op = "memories.restore",
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
            );
        });
        result
    }

    fn memories_restore_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, RestoreMemoryRequest>,
    ) -> Result<StoreMemory, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?.into_owned();
        let precondition = body.precondition;
        let change = MemoryChange::Restore {
            memory_id: body.memory_id,
            source: body.version_id,
            precondition,
        };
        match self.write_change(
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

    // -----------------------------------------------------------------------------------------
    // Versions

    /// `versions.list {memory_store_id, memory_id?, limit?, cursor?}` → a page, newest first.
    /// A `memory_id` with neither a live memory nor any version is `404 MEMORY_NOT_FOUND`.
    pub fn versions_list(
        &self,
        c: &StoreCaller,
        request: &ListVersionsRequest,
    ) -> Result<Page<MemoryVersion>, ApiError> {
        self.versions_list_input(c, Input::Typed(request))
    }

    /// [`Self::versions_list`] with the request typed or as JSON, read after the role check.
    pub(crate) fn versions_list_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListVersionsRequest>,
    ) -> Result<Page<MemoryVersion>, ApiError> {
        let result = self.versions_list_inner(c, input);
        trace_page("versions.list", c.workspace(), &result);
        result
    }

    fn versions_list_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, ListVersionsRequest>,
    ) -> Result<Page<MemoryVersion>, ApiError> {
        self.authorize(c, false)?;
        let body = input.read()?;
        let limit = body.limit;
        let store = &body.memory_store_id;
        let memory = body.memory_id.as_ref();
        let after = body
            .cursor
            .as_deref()
            .map(|s| StoreCursor::decode(s)?.versions_position(store, memory))
            .transpose()?;
        let ws = c.workspace();
        self.store_of(ws, store)?.ok_or_else(store_not_found)?;
        if let Some(m) = memory
            && self
                .backend
                .get_memory(ws, store, m)
                .map_err(internal)?
                .is_none()
            && self
                .backend
                .list_versions(ws, store, Some(m), None, 1)
                .map_err(internal)?
                .is_empty()
        {
            return Err(memory_not_found());
        }
        let mut data = self
            .backend
            .list_versions(ws, store, memory, after.as_ref(), limit + 1)
            .map_err(internal)?;
        let more = data.len() > limit;
        data.truncate(limit);
        let next_cursor = more.then(|| data.last()).flatten().map(|last| {
            StoreCursor::Versions {
                store: store.as_str().to_owned(),
                memory: memory.map(|m| m.as_str().to_owned()),
                created_at: last.created_at.as_millis(),
                id: last.id.as_str().to_owned(),
            }
            .encode()
        });
        Ok(Page { data, next_cursor })
    }

    /// `versions.get {memory_store_id, version_id}` → the version (redacted ones too).
    pub fn versions_get(
        &self,
        c: &StoreCaller,
        request: &VersionIdRequest,
    ) -> Result<MemoryVersion, ApiError> {
        self.versions_get_input(c, Input::Typed(request))
    }

    /// [`Self::versions_get`] with the request typed or as JSON, read after the role check.
    pub(crate) fn versions_get_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        let result = self.versions_get_inner(c, input);
        trace_op("versions.get", c.workspace(), &result, |v| {
            tracing::info!(op = "versions.get", version_id = v.id.as_str());
        });
        result
    }

    fn versions_get_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        self.authorize(c, false)?;
        let body = input.read()?;
        self.store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        self.backend
            .get_version(c.workspace(), &body.memory_store_id, &body.version_id)
            .map_err(internal)?
            .ok_or_else(version_not_found)
    }

    /// `versions.redact {memory_store_id, version_id}` → the redacted version (idempotent);
    /// a live memory's current version → `409 MEMORY_VERSION_IS_CURRENT`.
    pub fn versions_redact(
        &self,
        c: &StoreCaller,
        request: &VersionIdRequest,
    ) -> Result<MemoryVersion, ApiError> {
        self.versions_redact_input(c, Input::Typed(request))
    }

    /// [`Self::versions_redact`] with the request typed or as JSON, read after the role check.
    pub(crate) fn versions_redact_input(
        &self,
        c: &StoreCaller,
        input: Input<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        let result = self.versions_redact_inner(c, input);
        trace_op("versions.redact", c.workspace(), &result, |v| {
            tracing::info!(op = "versions.redact", version_id = v.id.as_str());
        });
        result
    }

    fn versions_redact_inner(
        &self,
        c: &StoreCaller,
        input: Input<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        self.authorize(c, true)?;
        let body = input.read()?;
        let now = self.now();
        let outcome = self
            .backend
            .redact_version(c.workspace(), &body.memory_store_id, &body.version_id, now)
            .map_err(internal)?;
        match outcome {
            // A second redaction keeps the first `redacted_at` and records nothing.
            RedactOutcome::Redacted(version) if version.redacted_at != Some(now) => Ok(version),
            RedactOutcome::Redacted(version) => {
                self.record_audit(
                    c,
                    AuditEvent::MemoryVersionRedacted {
                        memory_store_id: body.memory_store_id.as_str().to_owned(),
                        version_id: version.id.as_str().to_owned(),
                    },
                );
                Ok(version)
            }
            RedactOutcome::Refused(err) => Err(err),
        }
    }
}

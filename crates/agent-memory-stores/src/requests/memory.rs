//! The requests of the memory and version operations: `memories.create`, `memories.get`,
//! `memories.list`, `memories.update`, `memories.delete`, `memories.restore`, `versions.list`,
//! `versions.get`/`redact`.

use std::fmt;

use memory_core::{ApiError, MemoryStoreId, MemoryVersionId, Precondition, StoreMemoryId};
use serde::Deserialize;
use serde_json::Value;

use super::rules::{
    Mistyped, Redacted, check_limit, check_optional_path, check_path, check_precondition,
    default_limit, limit_or_default, no_own, normalized_prefix, own_precondition, redacted_path,
    shape, store_requests,
};

store_requests!(
    CreateMemoryRequest,
    MemoryIdRequest,
    ListMemoriesRequest,
    UpdateMemoryRequest,
    DeleteMemoryRequest,
    RestoreMemoryRequest,
    ListVersionsRequest,
    VersionIdRequest,
);

/// `memories.create {memory_store_id, path, content}`. `Debug` shows the path's and the
/// content's lengths only.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of memories.create")
)]
#[non_exhaustive]
pub struct CreateMemoryRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// The memory's path (`/…`, see [`memory_core::StorePath`]).
    #[cfg_attr(feature = "openapi", schema(value_type = memory_core::StorePath))]
    pub path: String,
    /// UTF-8 text; at most 102400 bytes as stored (413 MEMORY_TOO_LARGE), checked after the
    /// store's policy applies.
    pub content: String,
}

impl CreateMemoryRequest {
    /// A memory at `path` of the store `memory_store_id` holding `content`.
    pub fn new(
        memory_store_id: MemoryStoreId,
        path: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        CreateMemoryRequest {
            memory_store_id,
            path: path.into(),
            content: content.into(),
        }
    }

    /// Applies the field rules (the size is checked once the store's policy is known).
    pub fn validate(&self) -> Result<(), ApiError> {
        check_path(&self.path)
    }

    /// Reads and validates a `memories.create` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

impl fmt::Debug for CreateMemoryRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CreateMemoryRequest")
            .field("memory_store_id", &self.memory_store_id)
            .field("path", &redacted_path(&self.path))
            .field("content", &Redacted(&self.content))
            .finish()
    }
}

/// `memories.get {memory_store_id, memory_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MemoryIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
}

impl MemoryIdRequest {
    /// The memory `memory_id` of the store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId, memory_id: StoreMemoryId) -> Self {
        MemoryIdRequest {
            memory_store_id,
            memory_id,
        }
    }

    /// No field rules beyond the ids' own form.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{memory_store_id, memory_id}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

/// `memories.list {memory_store_id, path_prefix?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The parameters of memories.list (the query string)")
)]
#[non_exhaustive]
pub struct ListMemoriesRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// Only memories at or under this path, by whole segments; `""` or `/` is all.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// 1–100, default 20.
    #[serde(default = "default_limit", deserialize_with = "limit_or_default")]
    #[cfg_attr(
        feature = "openapi",
        schema(nullable, minimum = 1, maximum = 100, default = 20)
    )]
    pub limit: usize,
    /// The `next_cursor` of an earlier page.
    #[serde(default)]
    pub cursor: Option<String>,
}

impl ListMemoriesRequest {
    /// The first page of the store's memories by path, 20 to a page.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        ListMemoriesRequest {
            memory_store_id,
            path_prefix: None,
            limit: default_limit(),
            cursor: None,
        }
    }

    /// Only memories at or under `prefix`.
    pub fn path_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.path_prefix = Some(prefix.into());
        self
    }

    /// At most `limit` memories a page (1–100).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The page after the one that returned `cursor`.
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_limit(self.limit)?;
        normalized_prefix(self.path_prefix.as_deref()).map(drop)
    }

    /// Reads and validates a `memories.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

/// `memories.update {memory_store_id, memory_id, content?, path?, precondition?}`. `Debug`
/// shows the path's and the content's lengths only.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of memories.update; absent fields are kept")
)]
#[non_exhaustive]
pub struct UpdateMemoryRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// The memory (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_id: StoreMemoryId,
    /// New content.
    #[serde(default)]
    pub content: Option<String>,
    /// A new path.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<memory_core::StorePath>))]
    pub path: Option<String>,
    /// Write only if the stored content still has this hash.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<memory_core::store::PreconditionSchema>)
    )]
    pub precondition: Option<Precondition>,
}

impl UpdateMemoryRequest {
    /// Changes nothing yet of the memory `memory_id` of the store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId, memory_id: StoreMemoryId) -> Self {
        UpdateMemoryRequest {
            memory_store_id,
            memory_id,
            content: None,
            path: None,
            precondition: None,
        }
    }

    /// Replaces the content.
    pub fn content(mut self, content: impl Into<String>) -> Self {
        self.content = Some(content.into());
        self
    }

    /// Moves the memory to `path`.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Mistyped::NONE)
    }

    fn check(&self, mistyped: &Mistyped) -> Result<(), ApiError> {
        check_optional_path(self.path.as_deref())?;
        check_precondition(mistyped, self.precondition.as_ref())
    }

    /// Reads and validates a `memories.update` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_precondition)?;
        request.check(&mistyped)?;
        Ok(request)
    }
}

impl fmt::Debug for UpdateMemoryRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UpdateMemoryRequest")
            .field("memory_store_id", &self.memory_store_id)
            .field("memory_id", &self.memory_id)
            .field("content", &self.content.as_deref().map(Redacted))
            .field("path", &self.path.as_deref().map(redacted_path))
            .field("precondition", &self.precondition)
            .finish()
    }
}

/// `memories.delete {memory_store_id, memory_id, precondition?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of memories.delete")
)]
#[non_exhaustive]
pub struct DeleteMemoryRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// The memory (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_id: StoreMemoryId,
    /// Delete only if the stored content still has this hash.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<memory_core::store::PreconditionSchema>)
    )]
    pub precondition: Option<Precondition>,
}

impl DeleteMemoryRequest {
    /// Deletes the memory `memory_id` of the store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId, memory_id: StoreMemoryId) -> Self {
        DeleteMemoryRequest {
            memory_store_id,
            memory_id,
            precondition: None,
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(&Mistyped::NONE, self.precondition.as_ref())
    }

    /// Reads and validates a `memories.delete` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_precondition)?;
        check_precondition(&mistyped, request.precondition.as_ref())?;
        Ok(request)
    }
}

/// `memories.restore {memory_store_id, memory_id, version_id, precondition?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of memories.restore")
)]
#[non_exhaustive]
pub struct RestoreMemoryRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// The memory (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_id: StoreMemoryId,
    /// The version whose content and path come back.
    pub version_id: MemoryVersionId,
    /// Restore only if the stored content still has this hash.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<memory_core::store::PreconditionSchema>)
    )]
    pub precondition: Option<Precondition>,
}

impl RestoreMemoryRequest {
    /// Restores the memory `memory_id` of the store `memory_store_id` to `version_id`.
    pub fn new(
        memory_store_id: MemoryStoreId,
        memory_id: StoreMemoryId,
        version_id: MemoryVersionId,
    ) -> Self {
        RestoreMemoryRequest {
            memory_store_id,
            memory_id,
            version_id,
            precondition: None,
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(&Mistyped::NONE, self.precondition.as_ref())
    }

    /// Reads and validates a `memories.restore` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_precondition)?;
        check_precondition(&mistyped, request.precondition.as_ref())?;
        Ok(request)
    }
}

/// `versions.list {memory_store_id, memory_id?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The parameters of versions.list (the query string)")
)]
#[non_exhaustive]
pub struct ListVersionsRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// Only the versions of this memory.
    #[serde(default)]
    pub memory_id: Option<StoreMemoryId>,
    /// 1–100, default 20.
    #[serde(default = "default_limit", deserialize_with = "limit_or_default")]
    #[cfg_attr(
        feature = "openapi",
        schema(nullable, minimum = 1, maximum = 100, default = 20)
    )]
    pub limit: usize,
    /// The `next_cursor` of an earlier page.
    #[serde(default)]
    pub cursor: Option<String>,
}

impl ListVersionsRequest {
    /// The first page of the store's versions, newest first, 20 to a page.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        ListVersionsRequest {
            memory_store_id,
            memory_id: None,
            limit: default_limit(),
            cursor: None,
        }
    }

    /// Only the versions of `memory_id`.
    pub fn memory_id(mut self, memory_id: StoreMemoryId) -> Self {
        self.memory_id = Some(memory_id);
        self
    }

    /// At most `limit` versions a page (1–100).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The page after the one that returned `cursor`.
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_limit(self.limit)
    }

    /// Reads and validates a `versions.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

/// `versions.get`, `versions.redact`: `{memory_store_id, version_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct VersionIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The version.
    pub version_id: MemoryVersionId,
}

impl VersionIdRequest {
    /// The version `version_id` of the store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId, version_id: MemoryVersionId) -> Self {
        VersionIdRequest {
            memory_store_id,
            version_id,
        }
    }

    /// No field rules beyond the ids' own form.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{memory_store_id, version_id}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

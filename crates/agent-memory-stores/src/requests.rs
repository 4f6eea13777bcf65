//! Request bodies of the memory-store operations, as typed values.
//!
//! Required fields are constructor arguments, optional ones are set with builder methods. The
//! field rules (lengths, paths, limits, preconditions, resource lists) run at the call, at step 2
//! of the order of checks (after the role check): [`Request::validate`] for a typed request,
//! `Request::from_json` for a JSON body. `from_json` first reads the body's shape — an object,
//! no unknown field, no missing field, every field of its JSON type, ids well formed — and then
//! applies the very same rules, in the same order and with the same messages, so a JSON caller
//! and a Rust caller get the same answer to the same request.
//!
//! Every refusal is `400 MEMORY_INVALID_REQUEST` (`400 TOO_MANY_MEMORY_STORES`,
//! `400 MEMORY_STORE_DUPLICATE` and `400 MEMORY_STORE_ATTACH_AT_CREATION_ONLY` for the session
//! rules, `400 MEMORY_PATH_INVALID` for a path) with a static message; a refused value is never
//! echoed. A body is read from the `&Value` in place: only the fields are copied, never the
//! whole body.
//!
//! ```
//! use agent_memory_stores::requests::UpdateMemoryRequest;
//! use governance_policy::Request;
//! use memory_core::{MemoryStoreId, StoreMemoryId};
//!
//! let store = MemoryStoreId::parse("memstore_demo")?;
//! let memory = StoreMemoryId::parse("mem_demo")?;
//! let request = UpdateMemoryRequest::new(store, memory)
//!     .content("Reply tersely.\n")
//!     .if_content_sha256("0".repeat(64));
//! assert!(request.validate().is_ok());
//! let moved = UpdateMemoryRequest::new(request.memory_store_id.clone(), request.memory_id.clone())
//!     .path("no-leading-slash.md");
//! assert_eq!(moved.validate().unwrap_err().code().as_str(), "MEMORY_PATH_INVALID");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use governance_policy::Request;
use memory_core::session::Access;
use memory_core::store::{LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN, is_sha256_hex};
use memory_core::{
    ApiError, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersionId, PiiPolicy, SessionId,
    StoreMemoryId, StorePath,
};
use serde::Deserialize;
use serde_json::Value;

use super::invalid;
use super::session::INSTRUCTIONS_MAX_CHARS;

pub use memory_core::Precondition;
pub use memory_core::session::ResourceRequest;

// ---------------------------------------------------------------------------------------------
// The field rules: each is one function, called by `validate` and by `from_json`.

const SHAPE: &str =
    "the request body has an unknown field, a missing field or a field of the wrong type";

const RESOURCE: &str = "a resource must be an object with a string type; a memory_store resource takes memory_store_id, access and instructions";

/// The body's shape: an object whose fields the wire struct `T` knows, each of its type, else
/// `400 MEMORY_INVALID_REQUEST`. The serde message is dropped: it may quote the refused value.
fn shape<'a, T: Deserialize<'a>>(body: &'a Value) -> Result<T, ApiError> {
    if !body.is_object() {
        return Err(invalid("the request body must be a JSON object"));
    }
    T::deserialize(body).map_err(|_| invalid(SHAPE))
}

fn check_name(name: &str) -> Result<(), ApiError> {
    if MemoryStore::name_valid(name) {
        Ok(())
    } else {
        Err(invalid("name must have 1 to 255 characters"))
    }
}

fn check_description(description: Option<&str>) -> Result<(), ApiError> {
    match description {
        Some(d) if !MemoryStore::description_valid(d) => {
            Err(invalid("description must have at most 4096 characters"))
        }
        _ => Ok(()),
    }
}

fn read_pii_policy(policy: Option<&str>) -> Result<PiiPolicy, ApiError> {
    match policy {
        None | Some("allow") => Ok(PiiPolicy::Allow),
        Some("mask") => Ok(PiiPolicy::Mask),
        Some("reject") => Ok(PiiPolicy::Reject),
        Some(_) => Err(invalid("pii_policy must be allow, mask or reject")),
    }
}

/// `limit` of a list: 1–100.
fn check_limit(limit: u64) -> Result<usize, ApiError> {
    if !(u64::from(LIST_LIMIT_MIN)..=u64::from(LIST_LIMIT_MAX)).contains(&limit) {
        return Err(invalid("limit must be between 1 and 100"));
    }
    // At most 100: the conversion cannot truncate.
    Ok(limit as usize)
}

fn read_limit(limit: Option<u64>) -> Result<usize, ApiError> {
    check_limit(limit.unwrap_or(u64::from(LIST_LIMIT_DEFAULT)))
}

const DEFAULT_LIMIT: usize = LIST_LIMIT_DEFAULT as usize;

pub(crate) fn check_path(path: &str) -> Result<(), ApiError> {
    StorePath::check(path).map_err(|r| memory_core::Error::InvalidPath(r).into())
}

fn check_optional_path(path: Option<&str>) -> Result<(), ApiError> {
    path.map_or(Ok(()), check_path)
}

/// A `path_prefix`: empty or `/` means every path; otherwise it must be a valid path once its
/// trailing slashes are dropped (it is compared by whole segments, never decoded).
pub(crate) fn normalized_prefix(prefix: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(prefix) = prefix else {
        return Ok(None);
    };
    let trimmed = prefix.trim_end_matches('/');
    if trimmed.is_empty() {
        return Ok(None);
    }
    check_path(trimmed)?;
    Ok(Some(trimmed.to_owned()))
}

fn check_precondition(precondition: Option<&Precondition>) -> Result<(), ApiError> {
    match precondition {
        Some(Precondition::ContentSha256 { content_sha256 }) if !is_sha256_hex(content_sha256) => {
            Err(invalid(
                "precondition content_sha256 must be 64 lowercase hex digits",
            ))
        }
        _ => Ok(()),
    }
}

/// A `precondition` object: `{"type":"content_sha256","content_sha256":<64 lowercase hex>}`.
fn read_precondition(value: Option<&Value>) -> Result<Option<Precondition>, ApiError> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let precondition = Precondition::deserialize(value).map_err(|_| {
        invalid("precondition must be {\"type\":\"content_sha256\",\"content_sha256\":…}")
    })?;
    check_precondition(Some(&precondition))?;
    Ok(Some(precondition))
}

/// A resource other than a memory store: an object with a string `type`, kept as given.
fn check_other_resource(value: &Value) -> Result<(), ApiError> {
    match value.get("type").and_then(Value::as_str) {
        Some(kind) if kind != "memory_store" => Ok(()),
        _ => Err(invalid(RESOURCE)),
    }
}

fn check_resources(resources: &[ResourceRequest]) -> Result<(), ApiError> {
    for resource in resources {
        if let ResourceRequest::Other(value) = resource {
            check_other_resource(value)?;
        }
    }
    let stores: Vec<(&MemoryStoreId, Option<&str>)> = resources
        .iter()
        .filter_map(|r| match r {
            ResourceRequest::MemoryStore {
                memory_store_id,
                instructions,
                ..
            } => Some((memory_store_id, instructions.as_deref())),
            ResourceRequest::Other(_) => None,
        })
        .collect();
    if stores.len() > memory_core::session::MAX_MEMORY_STORES_PER_SESSION {
        return Err(ApiError::new(
            ErrorCode::TooManyMemoryStores,
            "at most 8 memory stores can be attached to a session",
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (id, instructions) in stores {
        if !seen.insert(id) {
            return Err(ApiError::new(
                ErrorCode::MemoryStoreDuplicate,
                "the same memory store is attached twice",
            ));
        }
        if instructions.is_some_and(|i| i.chars().count() > INSTRUCTIONS_MAX_CHARS) {
            return Err(invalid("instructions must have at most 4096 characters"));
        }
    }
    Ok(())
}

/// A resource added after creation: anything but a memory store, an object with a string type.
fn check_added_resource(resource: &Value) -> Result<(), ApiError> {
    if resource.get("type").and_then(Value::as_str) == Some("memory_store") {
        return Err(ApiError::new(
            ErrorCode::MemoryStoreAttachAtCreationOnly,
            "memory stores can only be attached when the session is created",
        ));
    }
    check_other_resource(resource)
        .map_err(|_| invalid("a resource must be an object with a string type"))
}

/// Writes content as its length only, so a `{:?}` in a log never carries memory content.
struct Redacted<'a>(&'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} bytes>", self.0.len())
    }
}

/// Paths may hold personal data: `{:?}` shows their length only.
fn redacted_path(path: &str) -> Redacted<'_> {
    Redacted(path)
}

macro_rules! store_requests {
    ($($t:ty),* $(,)?) => {$(
        impl Request for $t {
            fn from_json(value: &Value) -> Result<Self, ApiError> {
                <$t>::from_json(value)
            }

            fn validate(&self) -> Result<(), ApiError> {
                <$t>::validate(self)
            }
        }
    )*};
}

store_requests!(
    CreateStoreRequest,
    StoreIdRequest,
    ListStoresRequest,
    UpdateStoreRequest,
    CreateMemoryRequest,
    MemoryIdRequest,
    ListMemoriesRequest,
    UpdateMemoryRequest,
    DeleteMemoryRequest,
    RestoreMemoryRequest,
    ListVersionsRequest,
    VersionIdRequest,
    CreateSessionRequest,
    AddSessionResourceRequest,
    SessionIdRequest,
    FsPathRequest,
    FsWriteRequest,
    FsRenameRequest,
);

/// The schemas of the field rules (feature `openapi`), used by each request's `ToSchema` next to
/// its `from_json`. Bodies are closed objects (`deny_unknown_fields`); an optional field may be
/// `null` (serde's `Option`). The ids a route carries in its path (`memory_store_id`,
/// `memory_id`, `version_id`, `session_id`) are listed but not required: the router merges
/// them into the body.
#[cfg(feature = "openapi")]
mod schema {
    use memory_core::MemoryStore;
    use memory_core::schema::{closed_object, integer, nullable, reference_to, string};
    use utoipa::ToSchema;
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::{Ref, RefOr};

    use super::{DEFAULT_LIMIT, LIST_LIMIT_MAX, LIST_LIMIT_MIN};

    /// A body: every field it does not name is refused.
    pub(super) fn body(description: &'static str) -> ObjectBuilder {
        closed_object().description(Some(description))
    }

    /// An id the route carries in its path.
    pub(super) fn path_id<T: ToSchema>() -> RefOr<Schema> {
        let mut id = Ref::from_schema_name(T::name());
        id.description = "In the route's path; the router merges it into the body".into();
        RefOr::Ref(id)
    }

    /// `limit` (1–100, default 20).
    pub(super) fn limit() -> RefOr<Schema> {
        nullable(
            integer(
                u64::from(LIST_LIMIT_MIN),
                u64::from(LIST_LIMIT_MAX),
                Some(DEFAULT_LIMIT as u64),
            )
            .description(Some("limit must be between 1 and 100")),
        )
    }

    /// `cursor`: the opaque `next_cursor` of an earlier page.
    pub(super) fn cursor() -> RefOr<Schema> {
        nullable(string(None, None).description(Some("The next_cursor of an earlier page")))
    }

    /// A store's `name` (1–255 characters).
    pub(super) fn name() -> ObjectBuilder {
        string(Some(1), Some(MemoryStore::NAME_MAX_CHARS))
            .description(Some("name must have 1 to 255 characters"))
    }

    /// A store's `description` (at most 4096 characters).
    pub(super) fn description() -> RefOr<Schema> {
        nullable(
            string(None, Some(MemoryStore::DESCRIPTION_MAX_CHARS))
                .description(Some("description must have at most 4096 characters")),
        )
    }

    /// An optional `precondition`.
    pub(super) fn precondition() -> RefOr<Schema> {
        nullable(reference_to::<memory_core::Precondition>())
    }

    /// A boolean that may be absent or `null`, `default` then.
    pub(super) fn flag(default: bool) -> RefOr<Schema> {
        nullable(
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .default(Some(default.into())),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Stores

/// `stores.create {name, description?, pii_policy?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CreateStoreRequest {
    /// 1–255 characters.
    pub name: String,
    /// At most 4096 characters; empty when not given.
    pub description: Option<String>,
    /// What the store does with personal data in content (default `allow`).
    pub pii_policy: PiiPolicy,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateStoreWire<'a> {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default, borrow)]
    pii_policy: Option<&'a str>,
}

impl CreateStoreRequest {
    /// A store named `name`, without a description, that stores content as given.
    pub fn new(name: impl Into<String>) -> Self {
        CreateStoreRequest {
            name: name.into(),
            description: None,
            pii_policy: PiiPolicy::Allow,
        }
    }

    /// Describes the store (at most 4096 characters).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Masks or rejects personal data in content.
    pub fn pii_policy(mut self, policy: PiiPolicy) -> Self {
        self.pii_policy = policy;
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_name(&self.name)?;
        check_description(self.description.as_deref())
    }

    /// Reads and validates a `stores.create` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: CreateStoreWire<'_> = shape(body)?;
        check_name(&wire.name)?;
        check_description(wire.description.as_deref())?;
        Ok(CreateStoreRequest {
            pii_policy: read_pii_policy(wire.pii_policy)?,
            name: wire.name,
            description: wire.description,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for CreateStoreRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{nullable, reference_to};
        schema::body("The body of stores.create")
            .property("name", schema::name())
            .required("name")
            .property("description", schema::description())
            .property("pii_policy", nullable(reference_to::<PiiPolicy>()))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for CreateStoreRequest {}

/// `stores.get`, `stores.archive`, `stores.delete`: `{memory_store_id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoreIdWire {
    memory_store_id: MemoryStoreId,
}

impl StoreIdRequest {
    /// The store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        StoreIdRequest { memory_store_id }
    }

    /// No field rules beyond the id's own form.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{memory_store_id}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: StoreIdWire = shape(body)?;
        Ok(StoreIdRequest::new(wire.memory_store_id))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for StoreIdRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("A store named in the route's path")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for StoreIdRequest {}

impl From<MemoryStoreId> for StoreIdRequest {
    fn from(id: MemoryStoreId) -> Self {
        StoreIdRequest::new(id)
    }
}

/// `stores.list {include_archived?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListStoresRequest {
    /// Archived stores too (default: not).
    pub include_archived: bool,
    /// 1–100, default 20.
    pub limit: usize,
    /// The opaque cursor of a previous page.
    pub cursor: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListStoresWire {
    #[serde(default)]
    include_archived: Option<bool>,
    #[serde(default)]
    limit: Option<u64>,
    #[serde(default)]
    cursor: Option<String>,
}

impl Default for ListStoresRequest {
    fn default() -> Self {
        ListStoresRequest::new()
    }
}

impl ListStoresRequest {
    /// The first page of the live stores, 20 to a page.
    pub fn new() -> Self {
        ListStoresRequest {
            include_archived: false,
            limit: DEFAULT_LIMIT,
            cursor: None,
        }
    }

    /// Lists archived stores too.
    pub fn include_archived(mut self, include: bool) -> Self {
        self.include_archived = include;
        self
    }

    /// At most `limit` stores a page (1–100).
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
        check_limit(self.limit as u64).map(drop)
    }

    /// Reads and validates a `stores.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: ListStoresWire = shape(body)?;
        Ok(ListStoresRequest {
            limit: read_limit(wire.limit)?,
            include_archived: wire.include_archived.unwrap_or(false),
            cursor: wire.cursor,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ListStoresRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("The parameters of stores.list (the query string)")
            .property("include_archived", schema::flag(false))
            .property("limit", schema::limit())
            .property("cursor", schema::cursor())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ListStoresRequest {}

/// `stores.update {memory_store_id, name?, description?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpdateStoreRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// A new name (1–255 characters).
    pub name: Option<String>,
    /// A new description (at most 4096 characters).
    pub description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateStoreWire {
    memory_store_id: MemoryStoreId,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

impl UpdateStoreRequest {
    /// Changes nothing yet of the store `memory_store_id`.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        UpdateStoreRequest {
            memory_store_id,
            name: None,
            description: None,
        }
    }

    /// Renames the store.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Replaces the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        if let Some(name) = &self.name {
            check_name(name)?;
        }
        check_description(self.description.as_deref())
    }

    /// Reads and validates a `stores.update` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: UpdateStoreWire = shape(body)?;
        let request = UpdateStoreRequest {
            memory_store_id: wire.memory_store_id,
            name: wire.name,
            description: wire.description,
        };
        request.validate()?;
        Ok(request)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for UpdateStoreRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::nullable;
        schema::body("The body of stores.update; absent fields are kept")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("name", nullable(schema::name()))
            .property("description", schema::description())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for UpdateStoreRequest {}

// ---------------------------------------------------------------------------------------------
// Memories

/// `memories.create {memory_store_id, path, content}`. `Debug` shows the path's and the
/// content's lengths only.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CreateMemoryRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory's path (`/…`, see [`StorePath`]).
    pub path: String,
    /// The content (at most 102,400 bytes as stored; checked after the store's policy applies).
    pub content: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateMemoryWire {
    memory_store_id: MemoryStoreId,
    path: String,
    content: String,
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
        let wire: CreateMemoryWire = shape(body)?;
        let request = CreateMemoryRequest {
            memory_store_id: wire.memory_store_id,
            path: wire.path,
            content: wire.content,
        };
        request.validate()?;
        Ok(request)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for CreateMemoryRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{reference_to, string};
        schema::body("The body of memories.create")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("path", reference_to::<StorePath>())
            .required("path")
            .property(
                "content",
                string(None, None).description(Some(
                    "UTF-8 text; at most 102400 bytes as stored (413 MEMORY_TOO_LARGE)",
                )),
            )
            .required("content")
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for CreateMemoryRequest {}

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
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MemoryIdWire {
    memory_store_id: MemoryStoreId,
    memory_id: StoreMemoryId,
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
        let wire: MemoryIdWire = shape(body)?;
        Ok(MemoryIdRequest::new(wire.memory_store_id, wire.memory_id))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for MemoryIdRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("A memory named in the route's path")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("memory_id", schema::path_id::<StoreMemoryId>())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for MemoryIdRequest {}

/// `memories.list {memory_store_id, path_prefix?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListMemoriesRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// Only memories at or under this path (compared by whole segments); `""` or `/` is all.
    pub path_prefix: Option<String>,
    /// 1–100, default 20.
    pub limit: usize,
    /// The opaque cursor of a previous page.
    pub cursor: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListMemoriesWire {
    memory_store_id: MemoryStoreId,
    #[serde(default)]
    path_prefix: Option<String>,
    #[serde(default)]
    limit: Option<u64>,
    #[serde(default)]
    cursor: Option<String>,
}

impl ListMemoriesRequest {
    /// The first page of the store's memories by path, 20 to a page.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        ListMemoriesRequest {
            memory_store_id,
            path_prefix: None,
            limit: DEFAULT_LIMIT,
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
        check_limit(self.limit as u64)?;
        normalized_prefix(self.path_prefix.as_deref()).map(drop)
    }

    /// Reads and validates a `memories.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: ListMemoriesWire = shape(body)?;
        let limit = read_limit(wire.limit)?;
        normalized_prefix(wire.path_prefix.as_deref())?;
        Ok(ListMemoriesRequest {
            memory_store_id: wire.memory_store_id,
            path_prefix: wire.path_prefix,
            limit,
            cursor: wire.cursor,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ListMemoriesRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{nullable, string};
        schema::body("The parameters of memories.list (the query string)")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property(
                "path_prefix",
                nullable(string(None, None).description(Some(
                    "Only memories at or under this path, by whole segments; \"\" or / is all",
                ))),
            )
            .property("limit", schema::limit())
            .property("cursor", schema::cursor())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ListMemoriesRequest {}

/// `memories.update {memory_store_id, memory_id, content?, path?, precondition?}`. `Debug`
/// shows the path's and the content's lengths only.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpdateMemoryRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
    /// New content.
    pub content: Option<String>,
    /// A new path.
    pub path: Option<String>,
    /// Write only if the stored content still has this hash.
    pub precondition: Option<Precondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateMemoryWire {
    memory_store_id: MemoryStoreId,
    memory_id: StoreMemoryId,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    precondition: Option<Value>,
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

    /// Writes only under `precondition`.
    pub fn precondition(mut self, precondition: Precondition) -> Self {
        self.precondition = Some(precondition);
        self
    }

    /// Writes only if the stored content's SHA-256 is `content_sha256` (64 lowercase hex).
    pub fn if_content_sha256(self, content_sha256: impl Into<String>) -> Self {
        self.precondition(Precondition::ContentSha256 {
            content_sha256: content_sha256.into(),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_optional_path(self.path.as_deref())?;
        check_precondition(self.precondition.as_ref())
    }

    /// Reads and validates a `memories.update` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: UpdateMemoryWire = shape(body)?;
        check_optional_path(wire.path.as_deref())?;
        Ok(UpdateMemoryRequest {
            precondition: read_precondition(wire.precondition.as_ref())?,
            memory_store_id: wire.memory_store_id,
            memory_id: wire.memory_id,
            content: wire.content,
            path: wire.path,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for UpdateMemoryRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{nullable, reference_to, string};
        schema::body("The body of memories.update; absent fields are kept")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("memory_id", schema::path_id::<StoreMemoryId>())
            .property("content", nullable(string(None, None)))
            .property("path", nullable(reference_to::<StorePath>()))
            .property("precondition", schema::precondition())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for UpdateMemoryRequest {}

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
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeleteMemoryRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
    /// Delete only if the stored content still has this hash.
    pub precondition: Option<Precondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteMemoryWire {
    memory_store_id: MemoryStoreId,
    memory_id: StoreMemoryId,
    #[serde(default)]
    precondition: Option<Value>,
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

    /// Deletes only under `precondition`.
    pub fn precondition(mut self, precondition: Precondition) -> Self {
        self.precondition = Some(precondition);
        self
    }

    /// Deletes only if the stored content's SHA-256 is `content_sha256`.
    pub fn if_content_sha256(self, content_sha256: impl Into<String>) -> Self {
        self.precondition(Precondition::ContentSha256 {
            content_sha256: content_sha256.into(),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(self.precondition.as_ref())
    }

    /// Reads and validates a `memories.delete` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: DeleteMemoryWire = shape(body)?;
        Ok(DeleteMemoryRequest {
            precondition: read_precondition(wire.precondition.as_ref())?,
            memory_store_id: wire.memory_store_id,
            memory_id: wire.memory_id,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for DeleteMemoryRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("The body of memories.delete")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("memory_id", schema::path_id::<StoreMemoryId>())
            .property("precondition", schema::precondition())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for DeleteMemoryRequest {}

/// `memories.restore {memory_store_id, memory_id, version_id, precondition?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RestoreMemoryRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
    /// The version whose content and path come back.
    pub version_id: MemoryVersionId,
    /// Restore only if the stored content still has this hash.
    pub precondition: Option<Precondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestoreMemoryWire {
    memory_store_id: MemoryStoreId,
    memory_id: StoreMemoryId,
    version_id: MemoryVersionId,
    #[serde(default)]
    precondition: Option<Value>,
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

    /// Restores only under `precondition`.
    pub fn precondition(mut self, precondition: Precondition) -> Self {
        self.precondition = Some(precondition);
        self
    }

    /// Restores only if the stored content's SHA-256 is `content_sha256`.
    pub fn if_content_sha256(self, content_sha256: impl Into<String>) -> Self {
        self.precondition(Precondition::ContentSha256 {
            content_sha256: content_sha256.into(),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(self.precondition.as_ref())
    }

    /// Reads and validates a `memories.restore` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: RestoreMemoryWire = shape(body)?;
        Ok(RestoreMemoryRequest {
            precondition: read_precondition(wire.precondition.as_ref())?,
            memory_store_id: wire.memory_store_id,
            memory_id: wire.memory_id,
            version_id: wire.version_id,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for RestoreMemoryRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::reference_to;
        schema::body("The body of memories.restore")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("memory_id", schema::path_id::<StoreMemoryId>())
            .property("version_id", reference_to::<MemoryVersionId>())
            .required("version_id")
            .property("precondition", schema::precondition())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for RestoreMemoryRequest {}

// ---------------------------------------------------------------------------------------------
// Versions

/// `versions.list {memory_store_id, memory_id?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListVersionsRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// Only the versions of this memory.
    pub memory_id: Option<StoreMemoryId>,
    /// 1–100, default 20.
    pub limit: usize,
    /// The opaque cursor of a previous page.
    pub cursor: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListVersionsWire {
    memory_store_id: MemoryStoreId,
    #[serde(default)]
    memory_id: Option<StoreMemoryId>,
    #[serde(default)]
    limit: Option<u64>,
    #[serde(default)]
    cursor: Option<String>,
}

impl ListVersionsRequest {
    /// The first page of the store's versions, newest first, 20 to a page.
    pub fn new(memory_store_id: MemoryStoreId) -> Self {
        ListVersionsRequest {
            memory_store_id,
            memory_id: None,
            limit: DEFAULT_LIMIT,
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
        check_limit(self.limit as u64).map(drop)
    }

    /// Reads and validates a `versions.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: ListVersionsWire = shape(body)?;
        Ok(ListVersionsRequest {
            limit: read_limit(wire.limit)?,
            memory_store_id: wire.memory_store_id,
            memory_id: wire.memory_id,
            cursor: wire.cursor,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ListVersionsRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{nullable, reference_to};
        schema::body("The parameters of versions.list (the query string)")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("memory_id", nullable(reference_to::<StoreMemoryId>()))
            .property("limit", schema::limit())
            .property("cursor", schema::cursor())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ListVersionsRequest {}

/// `versions.get`, `versions.redact`: `{memory_store_id, version_id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VersionIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The version.
    pub version_id: MemoryVersionId,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionIdWire {
    memory_store_id: MemoryStoreId,
    version_id: MemoryVersionId,
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
        let wire: VersionIdWire = shape(body)?;
        Ok(VersionIdRequest::new(wire.memory_store_id, wire.version_id))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for VersionIdRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("A version named in the route's path")
            .property("memory_store_id", schema::path_id::<MemoryStoreId>())
            .property("version_id", schema::path_id::<MemoryVersionId>())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for VersionIdRequest {}

// ---------------------------------------------------------------------------------------------
// Sessions

/// `sessions.create {agent?, resources}`: at most 8 memory stores, none twice, instructions of
/// at most 4096 characters; other resources are objects with a string `type`, kept as given.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct CreateSessionRequest {
    /// The agent as the host describes it, kept as given.
    pub agent: Option<Value>,
    /// The resources, in order.
    pub resources: Vec<ResourceRequest>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateSessionWire {
    #[serde(default)]
    agent: Option<Value>,
    #[serde(default)]
    resources: Vec<Value>,
}

impl CreateSessionRequest {
    /// A session without resources.
    pub fn new() -> Self {
        CreateSessionRequest::default()
    }

    /// Records the agent (any JSON the host keeps with the session).
    pub fn agent(mut self, agent: Value) -> Self {
        self.agent = Some(agent);
        self
    }

    /// Attaches a resource.
    pub fn resource(mut self, resource: ResourceRequest) -> Self {
        self.resources.push(resource);
        self
    }

    /// Attaches the store `memory_store_id` with `access`, mounted at `/mnt/memory/<slug>/`.
    pub fn memory_store(self, memory_store_id: MemoryStoreId, access: Access) -> Self {
        self.resource(ResourceRequest::MemoryStore {
            memory_store_id,
            access,
            instructions: None,
        })
    }

    /// Like [`Self::memory_store`], with instructions for the agent (at most 4096 characters).
    pub fn memory_store_with_instructions(
        self,
        memory_store_id: MemoryStoreId,
        access: Access,
        instructions: impl Into<String>,
    ) -> Self {
        self.resource(ResourceRequest::MemoryStore {
            memory_store_id,
            access,
            instructions: Some(instructions.into()),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_resources(&self.resources)
    }

    /// Reads and validates a `sessions.create` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: CreateSessionWire = shape(body)?;
        let resources = wire
            .resources
            .into_iter()
            .map(|r| ResourceRequest::deserialize(r).map_err(|_| invalid(RESOURCE)))
            .collect::<Result<Vec<_>, _>>()?;
        let request = CreateSessionRequest {
            agent: wire.agent.filter(|a| !a.is_null()),
            resources,
        };
        request.validate()?;
        Ok(request)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for CreateSessionRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{array, reference_to};
        use utoipa::openapi::schema::ObjectBuilder;
        schema::body(
            "The body of sessions.create: at most 8 memory stores, none twice; other resources \
             are kept as given",
        )
        .property(
            "agent",
            ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
                .description(Some("The agent as the host describes it, kept as given")),
        )
        .property("resources", array(reference_to::<ResourceRequest>(), None))
        .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for CreateSessionRequest {}

/// `sessions.resources.add {session_id, resource}`: any resource but a memory store.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AddSessionResourceRequest {
    /// The session.
    pub session_id: SessionId,
    /// The resource: an object with a string `type` other than `memory_store`.
    pub resource: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddSessionResourceWire {
    session_id: SessionId,
    resource: Value,
}

impl AddSessionResourceRequest {
    /// Appends `resource` to the session `session_id`.
    pub fn new(session_id: SessionId, resource: Value) -> Self {
        AddSessionResourceRequest {
            session_id,
            resource,
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_added_resource(&self.resource)
    }

    /// Reads and validates a `sessions.resources.add` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: AddSessionResourceWire = shape(body)?;
        let request = AddSessionResourceRequest::new(wire.session_id, wire.resource);
        request.validate()?;
        Ok(request)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for AddSessionResourceRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{not_exactly, string};
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let resource = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "type",
                string(None, None)
                    .pattern(Some(not_exactly(memory_core::store::MemoryStoreTag::VALUE))),
            )
            .required("type")
            .description(Some(
                "Any resource but a memory store (those are attached at creation only)",
            ));
        schema::body("The body of sessions.resources.add")
            .property("session_id", schema::path_id::<SessionId>())
            .property("resource", resource)
            .required("resource")
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for AddSessionResourceRequest {}

/// `sessions.system_prompt {session_id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionIdRequest {
    /// The session.
    pub session_id: SessionId,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionIdWire {
    session_id: SessionId,
}

impl SessionIdRequest {
    /// The session `session_id`.
    pub fn new(session_id: SessionId) -> Self {
        SessionIdRequest { session_id }
    }

    /// No field rules beyond the id's own form.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{session_id}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: SessionIdWire = shape(body)?;
        Ok(SessionIdRequest::new(wire.session_id))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for SessionIdRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("A session named in the route's path")
            .property("session_id", schema::path_id::<SessionId>())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for SessionIdRequest {}

// ---------------------------------------------------------------------------------------------
// The file interface

/// `fs.list`, `fs.read`, `fs.delete`: `{path}`, a path of the session's mounts (checked against
/// them once the session is read, so it has no field rule of its own). `Debug` shows its length.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FsPathRequest {
    /// `/mnt/memory/…`.
    pub path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FsPathWire {
    path: String,
}

impl FsPathRequest {
    /// The path `path`.
    pub fn new(path: impl Into<String>) -> Self {
        FsPathRequest { path: path.into() }
    }

    /// No field rules: the path is resolved against the session's mounts.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{path}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: FsPathWire = shape(body)?;
        Ok(FsPathRequest::new(wire.path))
    }
}

impl fmt::Debug for FsPathRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsPathRequest")
            .field("path", &redacted_path(&self.path))
            .finish()
    }
}

/// `fs.write {path, content, precondition?}`. `Debug` shows lengths only.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FsWriteRequest {
    /// `/mnt/memory/…`.
    pub path: String,
    /// The content.
    pub content: String,
    /// Update only if the stored content has this hash (a missing memory is then `404`).
    pub precondition: Option<Precondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FsWriteWire {
    path: String,
    content: String,
    #[serde(default)]
    precondition: Option<Value>,
}

impl FsWriteRequest {
    /// Writes `content` at `path`: a create, or an update of the memory there.
    pub fn new(path: impl Into<String>, content: impl Into<String>) -> Self {
        FsWriteRequest {
            path: path.into(),
            content: content.into(),
            precondition: None,
        }
    }

    /// Writes only under `precondition`.
    pub fn precondition(mut self, precondition: Precondition) -> Self {
        self.precondition = Some(precondition);
        self
    }

    /// Writes only if the stored content's SHA-256 is `content_sha256`.
    pub fn if_content_sha256(self, content_sha256: impl Into<String>) -> Self {
        self.precondition(Precondition::ContentSha256 {
            content_sha256: content_sha256.into(),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(self.precondition.as_ref())
    }

    /// Reads and validates an `fs.write` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: FsWriteWire = shape(body)?;
        Ok(FsWriteRequest {
            precondition: read_precondition(wire.precondition.as_ref())?,
            path: wire.path,
            content: wire.content,
        })
    }
}

impl fmt::Debug for FsWriteRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsWriteRequest")
            .field("path", &redacted_path(&self.path))
            .field("content", &Redacted(&self.content))
            .field("precondition", &self.precondition)
            .finish()
    }
}

/// `fs.rename {from, to}`, within one mount. `Debug` shows lengths only.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FsRenameRequest {
    /// The memory's path.
    pub from: String,
    /// Its new path.
    pub to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FsRenameWire {
    from: String,
    to: String,
}

impl FsRenameRequest {
    /// Moves the memory at `from` to `to`.
    pub fn new(from: impl Into<String>, to: impl Into<String>) -> Self {
        FsRenameRequest {
            from: from.into(),
            to: to.into(),
        }
    }

    /// No field rules: both paths are resolved against the session's mounts.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads an `fs.rename` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let wire: FsRenameWire = shape(body)?;
        Ok(FsRenameRequest::new(wire.from, wire.to))
    }
}

impl fmt::Debug for FsRenameRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsRenameRequest")
            .field("from", &redacted_path(&self.from))
            .field("to", &redacted_path(&self.to))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn null_and_non_object_bodies_are_refused() {
        for body in [Value::Null, json!([]), json!("x")] {
            let err = FsPathRequest::from_json(&body).unwrap_err();
            assert_eq!(err.message(), "the request body must be a JSON object");
        }
    }

    #[test]
    fn debug_shows_no_content_or_path() {
        let request = FsWriteRequest::new("/mnt/memory/a/secret.md", "secret plan");
        let shown = format!("{request:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }
}

//! The requests of the store operations: `stores.create`, `stores.get`/`archive`/`delete`,
//! `stores.list`, `stores.update`.

use memory_core::{ApiError, MemoryStoreId, PiiPolicy};
use serde::Deserialize;
use serde_json::Value;

use super::rules::{
    Mistyped, PII_POLICY, check_description, check_limit, check_name, default_limit,
    limit_or_default, no_own, shape, store_requests,
};

store_requests!(
    CreateStoreRequest,
    StoreIdRequest,
    ListStoresRequest,
    UpdateStoreRequest
);

/// `stores.create {name, description?, pii_policy?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(description = "The body of stores.create"))]
#[non_exhaustive]
pub struct CreateStoreRequest {
    /// 1–255 characters.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 255))]
    pub name: String,
    /// At most 4096 characters; empty when not given.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_length = 4096))]
    pub description: Option<String>,
    /// What the store does with personal data in content (default `allow`).
    #[serde(default, deserialize_with = "governance_policy::wire::null_as_default")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<PiiPolicy>))]
    pub pii_policy: PiiPolicy,
}

/// A `pii_policy` string that names no policy has its own message.
fn own_pii_policy(field: &str, value: &Value) -> bool {
    field == "pii_policy" && value.is_string()
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
        self.check(&Mistyped::NONE)
    }

    fn check(&self, mistyped: &Mistyped) -> Result<(), ApiError> {
        check_name(&self.name)?;
        check_description(self.description.as_deref())?;
        mistyped.check("pii_policy", PII_POLICY)
    }

    /// Reads and validates a `stores.create` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_pii_policy)?;
        request.check(&mistyped)?;
        Ok(request)
    }
}

/// `stores.get`, `stores.archive`, `stores.delete`: `{memory_store_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct StoreIdRequest {
    /// The store.
    pub memory_store_id: MemoryStoreId,
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
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

impl From<MemoryStoreId> for StoreIdRequest {
    fn from(id: MemoryStoreId) -> Self {
        StoreIdRequest::new(id)
    }
}

/// `stores.list {include_archived?, limit?, cursor?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The parameters of stores.list (the query string)")
)]
#[non_exhaustive]
pub struct ListStoresRequest {
    /// Archived stores too (default: not).
    #[serde(default, deserialize_with = "governance_policy::wire::null_as_default")]
    #[cfg_attr(feature = "openapi", schema(nullable, default = false))]
    pub include_archived: bool,
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
            limit: default_limit(),
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
        check_limit(self.limit)
    }

    /// Reads and validates a `stores.list` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

/// `stores.update {memory_store_id, name?, description?}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of stores.update; absent fields are kept")
)]
#[non_exhaustive]
pub struct UpdateStoreRequest {
    /// The store (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub memory_store_id: MemoryStoreId,
    /// A new name (1–255 characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 255))]
    pub name: Option<String>,
    /// A new description (at most 4096 characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_length = 4096))]
    pub description: Option<String>,
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
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

//! Response bodies of the facade's operations, serialized exactly as the REST responses.

use memory_core::{MaskedCounts, MemoryView};
use serde::Serialize;

/// `remember`: `{ "memory": MemoryView, "superseded": 0|1, "masked": {category: count} }`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RememberResponse {
    /// The stored version.
    pub memory: MemoryView,
    /// True when an unexpired current version of the key was superseded (`1` on the wire,
    /// `0` otherwise).
    #[serde(serialize_with = "one_or_zero")]
    #[cfg_attr(feature = "openapi", schema(value_type = u8, minimum = 0, maximum = 1))]
    pub superseded: bool,
    /// What the masker replaced, by category (only non-zero counts).
    pub masked: MaskedCounts,
}

fn one_or_zero<S: serde::Serializer>(flag: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(u8::from(*flag))
}

/// `list` and the member's own list: `{ "memories": [...], "hidden": n, "nextCursor": … }`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResponse {
    /// The page, newest first.
    pub memories: Vec<MemoryView>,
    /// Versions met on this page whose sources are gone (agent list only).
    pub hidden: u64,
    /// The next page's cursor; null exactly when no matching memory follows.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next_cursor: Option<String>,
}

/// `forget`, member delete and owner delete-all: `{ "deleted": n }` (versions removed).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DeletedResponse {
    /// Versions removed.
    pub deleted: u64,
}

/// Host events and the retention purge: `{ "purged": n }`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PurgedResponse {
    /// Versions removed.
    pub purged: u64,
}

/// `rememberBatch`: one answer per item, in the items' order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RememberBatchResponse {
    /// Each item's answer.
    pub results: Vec<BatchAnswer>,
}

/// One item's answer: `{"status": 200, "body": {…}, "error": null}` or `{"status": 4xx,
/// "body": null, "error": {"code", "message", …}}` (the error body's inner object).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BatchAnswer {
    /// The HTTP status the item would have answered alone.
    pub status: u16,
    /// The remember's response on success, else null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub body: Option<RememberResponse>,
    /// On a refusal the error (`code`, `message`, `retryAfterSeconds` on a 429), else null.
    #[serde(serialize_with = "inner_error")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>, required = true))]
    pub error: Option<memory_core::ApiError>,
}

/// An error as the error body's `error` object.
fn inner_error<S: serde::Serializer>(
    error: &Option<memory_core::ApiError>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match error {
        None => s.serialize_none(),
        Some(error) => {
            let body = serde_json::to_value(error).map_err(serde::ser::Error::custom)?;
            body.get("error").serialize(s)
        }
    }
}

impl BatchAnswer {
    /// The answer of one item.
    pub fn from_result(result: Result<RememberResponse, memory_core::ApiError>) -> Self {
        match result {
            Ok(body) => BatchAnswer {
                status: 200,
                body: Some(body),
                error: None,
            },
            Err(error) => BatchAnswer {
                status: error.http_status(),
                body: None,
                error: Some(error),
            },
        }
    }
}

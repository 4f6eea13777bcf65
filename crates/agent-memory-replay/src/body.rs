//! The answers and bodies of scenario lines: reading a world operation's body, and writing an
//! answer or an error as one output line.

use agent_memory::{ApiError, ErrorCode, PurgedResponse, WorkspaceId};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `400 REPLAY_BAD_LINE` for a world operation's body.
pub(crate) fn bad_body() -> ApiError {
    ApiError::new(
        ErrorCode::ReplayBadLine,
        "the body of this world operation is invalid",
    )
}

/// `409 REPLAY_DUPLICATE_ID`: the script's ids are unique across it (see `docs/replay.md`).
pub(crate) fn duplicate_id(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::ReplayDuplicateId, message)
}

/// A world operation's body as `T`, or [`bad_body`].
pub(crate) fn parse_body<T: DeserializeOwned>(body: &Value) -> Result<T, ApiError> {
    serde_json::from_value(body.clone()).map_err(|_| bad_body())
}

/// A workspace id of a world operation's body, or [`bad_body`].
pub(crate) fn workspace_id(s: &str) -> Result<WorkspaceId, ApiError> {
    WorkspaceId::new(s).map_err(|_| bad_body())
}

/// A host event's answer: how many versions it purged.
pub(crate) fn purged(p: PurgedResponse) -> Value {
    json!({ "purged": p.purged })
}

/// `{"status": s, "error": {...}}` with the error body's fields.
pub(crate) fn error_line(err: &ApiError) -> String {
    let body = serde_json::to_value(err).unwrap_or_else(|_| json!({}));
    format!(
        "{{\"status\":{},\"error\":{}}}",
        err.http_status(),
        body["error"]
    )
}

/// A response body as JSON.
pub(crate) fn to_value<T: serde::Serialize>(response: &T) -> Result<Value, ApiError> {
    serde_json::to_value(response).map_err(|_| {
        ApiError::new(
            ErrorCode::InternalError,
            "a response could not be serialized",
        )
    })
}

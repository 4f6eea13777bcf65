//! The error catalogue: every code of both specs with its status, and the error body shape.

use memory_core::{ApiError, ErrorCode};
use serde_json::json;

/// Every code the specs name, with the status they fix (agent-memory.md's table, memory-stores.md
/// and replay.md), plus the library's own: `REPLAY_DUPLICATE_ID`, `INTERNAL_ERROR` and the
/// storage failures a person can act on.
const TABLE: &[(&str, u16)] = &[
    ("AGENT_MEMORY_INVALID_REQUEST", 400),
    ("AGENT_MEMORY_PERSONAL_DATA", 400),
    ("AGENT_MEMORY_EMPTY", 400),
    ("AGENT_MEMORY_CITATION_INVALID", 400),
    ("AGENT_MEMORY_SCOPE_NOT_GRANTABLE", 400),
    ("AGENT_CREDENTIAL_INVALID", 401),
    ("NON_RETAINING_WORKSPACE", 403),
    ("AGENT_MEMORY_DISABLED", 403),
    ("AGENT_MEMORY_SCOPE_REQUIRED", 403),
    ("AGENT_CONTEXT_SET_SCOPE_REFUSED", 403),
    ("ASK_HISTORY_MANAGE_REQUIRED", 403),
    ("AGENT_MEMORY_NOT_FOUND", 404),
    ("AGENT_MEMORY_FULL", 409),
    ("AGENT_MEMORY_RATE_LIMITED", 429),
    ("MEMORY_INVALID_REQUEST", 400),
    ("MEMORY_PATH_INVALID", 400),
    ("MEMORY_PERSONAL_DATA", 400),
    ("MEMORY_PATH_PERSONAL_DATA", 400),
    ("TOO_MANY_MEMORY_STORES", 400),
    ("MEMORY_STORE_DUPLICATE", 400),
    ("MEMORY_STORE_ATTACH_AT_CREATION_ONLY", 400),
    ("MEMORY_TOOL_ERROR", 400),
    ("MEMORY_STORE_FORBIDDEN", 403),
    ("MEMORY_STORE_READ_ONLY", 403),
    ("MEMORY_STORE_NOT_FOUND", 404),
    ("MEMORY_NOT_FOUND", 404),
    ("MEMORY_VERSION_NOT_FOUND", 404),
    ("SESSION_NOT_FOUND", 404),
    ("MEMORY_STORE_ARCHIVED", 409),
    ("MEMORY_PRECONDITION_FAILED", 409),
    ("MEMORY_PATH_CONFLICT", 409),
    ("MEMORY_VERSION_REDACTED", 409),
    ("MEMORY_VERSION_NOT_RESTORABLE", 409),
    ("MEMORY_VERSION_IS_CURRENT", 409),
    ("MEMORY_TOO_LARGE", 413),
    ("MEMBER_NOT_FOUND", 404),
    ("REPLAY_BAD_LINE", 400),
    ("REPLAY_DUPLICATE_ID", 409),
    ("INTERNAL_ERROR", 500),
    ("STORAGE_LOCKED", 503),
    ("STORAGE_FULL", 507),
    ("STORAGE_READ_ONLY", 503),
];

#[test]
fn every_code_has_the_spec_status_and_the_catalogue_is_complete() {
    for &(name, status) in TABLE {
        let code = ErrorCode::from_name(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(code.as_str(), name);
        assert_eq!(code.http_status(), status, "{name}");
        assert_eq!(serde_json::to_value(code).unwrap(), json!(name));
    }
    assert_eq!(ErrorCode::ALL.len(), TABLE.len());
    for code in ErrorCode::ALL {
        assert!(
            TABLE.iter().any(|(name, _)| *name == code.as_str()),
            "{code} not in the table"
        );
    }
}

#[test]
fn error_body_shape() {
    let err = ApiError::new(
        ErrorCode::AgentMemoryDisabled,
        "agent memories are disabled",
    );
    assert_eq!(err.http_status(), 403);
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"error": {"code": "AGENT_MEMORY_DISABLED", "message": "agent memories are disabled"}})
    );

    let limited = ApiError::rate_limited(12);
    assert_eq!(
        serde_json::to_value(&limited).unwrap(),
        json!({"error": {"code": "AGENT_MEMORY_RATE_LIMITED", "message": limited.message(), "retryAfterSeconds": 12}})
    );
    assert_eq!(limited.http_status(), 429);

    let hash = "a".repeat(64);
    let precondition = ApiError::precondition_failed(hash.clone());
    assert_eq!(
        serde_json::to_value(&precondition).unwrap(),
        json!({"error": {"code": "MEMORY_PRECONDITION_FAILED", "message": precondition.message(), "current_content_sha256": hash}})
    );
}

#[test]
fn error_body_round_trips() {
    let err = ApiError::from(ErrorCode::MemoryPathConflict).with_retry_after(3);
    let back: ApiError = serde_json::from_str(&serde_json::to_string(&err).unwrap()).unwrap();
    assert_eq!(back, err);
    assert!(
        serde_json::from_value::<ApiError>(json!({"error": {"code": "NOPE", "message": "x"}}))
            .is_err()
    );
}

#[test]
fn default_messages_are_plain() {
    for code in ErrorCode::ALL {
        let err = ApiError::from(*code);
        assert!(!err.message().is_empty());
        assert_eq!(
            err.to_string(),
            format!("{}: {}", code.as_str(), err.message())
        );
        assert_eq!(err.retry_after_seconds(), None);
        assert_eq!(err.current_content_sha256(), None);
    }
}

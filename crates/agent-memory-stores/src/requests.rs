//! Request bodies of the memory-store operations, as typed values.
//!
//! Each request is one type: its wire form is the serde derive (`deny_unknown_fields`, snake_case
//! names as on the wire), its OpenAPI schema the `utoipa::ToSchema` derive (feature `openapi`),
//! required fields are constructor arguments and optional ones builder methods. The field rules
//! (lengths, paths, limits, preconditions, resource lists) run at the call, at step 2 of the
//! order of checks (after the role check): [`Request::validate`] for a typed request,
//! `Request::from_json` for a JSON body. `from_json` first reads the body's shape with the
//! derive — an object, no unknown field, no missing field, every field of its JSON type, ids
//! well formed — and then applies the very same rules, in the same order and with the same
//! messages, so a JSON caller and a Rust caller get the same answer to the same request.
//!
//! Every refusal is `400 MEMORY_INVALID_REQUEST` (`400 TOO_MANY_MEMORY_STORES`,
//! `400 MEMORY_STORE_DUPLICATE` and `400 MEMORY_STORE_ATTACH_AT_CREATION_ONLY` for the session
//! rules, `400 MEMORY_PATH_INVALID` for a path) with a static message; a refused value is never
//! echoed. A body is read from the `&Value` in place; its fields are copied only when one of them
//! does not read.
//!
//! Modules: `rules` (the field rules and the body reader), `store`, `memory` (memories and
//! versions), `session` (sessions and the file interface).
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

mod memory;
mod rules;
mod session;
mod store;

#[cfg(doc)]
use governance_policy::Request;
pub use memory::{
    CreateMemoryRequest, DeleteMemoryRequest, ListMemoriesRequest, ListVersionsRequest,
    MemoryIdRequest, RestoreMemoryRequest, UpdateMemoryRequest, VersionIdRequest,
};
pub use memory_core::Precondition;
pub use memory_core::session::ResourceRequest;
pub use rules::INSTRUCTIONS_MAX_CHARS;
pub(crate) use rules::normalized_prefix;
pub use session::{
    AddSessionResourceRequest, CreateSessionRequest, FsPathRequest, FsRenameRequest,
    FsWriteRequest, SessionIdRequest,
};
pub use store::{CreateStoreRequest, ListStoresRequest, StoreIdRequest, UpdateStoreRequest};

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

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

    fn wrong(field: &str) -> String {
        format!("the request body's field {field} has a value of the wrong type or form")
    }

    #[test]
    fn fields_with_a_message_of_their_own_answer_after_the_shape() {
        // A field of the wrong type elsewhere is the shape's answer, whatever the order.
        let body = json!({"name": 5, "pii_policy": "maybe"});
        assert_eq!(
            CreateStoreRequest::from_json(&body).unwrap_err().message(),
            wrong("name")
        );
        // A non-string policy is a wrong type; an unknown string has its own message, after the
        // name's rule.
        let body = json!({"name": "n", "pii_policy": 5});
        assert_eq!(
            CreateStoreRequest::from_json(&body).unwrap_err().message(),
            wrong("pii_policy")
        );
        let body = json!({"name": "", "pii_policy": "maybe"});
        assert_eq!(
            CreateStoreRequest::from_json(&body).unwrap_err().message(),
            "name must have 1 to 255 characters"
        );
        let body = json!({"name": "n", "pii_policy": "maybe"});
        assert_eq!(
            CreateStoreRequest::from_json(&body).unwrap_err().message(),
            rules::PII_POLICY
        );
        let body = json!({"name": "n", "pii_policy": null});
        assert!(CreateStoreRequest::from_json(&body).is_ok());
        // A precondition of any wrong shape has its own message, after the path's rule.
        let ids = json!({"memory_store_id": "memstore_s", "memory_id": "mem_m"});
        let mut body = ids.clone();
        body["precondition"] = json!("x");
        assert_eq!(
            UpdateMemoryRequest::from_json(&body).unwrap_err().message(),
            rules::PRECONDITION
        );
        body["path"] = json!("no-slash");
        assert_eq!(
            UpdateMemoryRequest::from_json(&body)
                .unwrap_err()
                .code()
                .as_str(),
            "MEMORY_PATH_INVALID"
        );
        body["content"] = json!(5);
        assert_eq!(
            UpdateMemoryRequest::from_json(&body).unwrap_err().message(),
            wrong("content")
        );
        // A resource of the wrong shape has its own message; a `resources` that is no array is
        // a wrong type.
        let body = json!({"resources": [{"type": "memory_store"}]});
        assert_eq!(
            CreateSessionRequest::from_json(&body)
                .unwrap_err()
                .message(),
            rules::RESOURCE
        );
        let body = json!({"resources": "x"});
        assert_eq!(
            CreateSessionRequest::from_json(&body)
                .unwrap_err()
                .message(),
            wrong("resources")
        );
        // Malformed ids, unknown and missing fields, floats where an integer goes.
        for (body, message) in [
            (json!({"memory_store_id": "mem_x"}), wrong("memory_store_id")),
            (
                json!({"memory_store_id": "memstore_s", "x": 1}),
                "the request body has an unknown field: x".to_owned(),
            ),
            (
                json!({"memory_store_id": "memstore_s", "dana@example.com": 1}),
                "the request body has an unknown field (its name is not shown: it is not a plain identifier)".to_owned(),
            ),
            (
                json!({}),
                "the request body's field memory_store_id is missing".to_owned(),
            ),
        ] {
            assert_eq!(
                StoreIdRequest::from_json(&body).unwrap_err().message(),
                message
            );
        }
        let body = json!({"limit": 20.0});
        assert_eq!(
            ListStoresRequest::from_json(&body).unwrap_err().message(),
            wrong("limit")
        );
        let body = json!({"limit": 0});
        assert_eq!(
            ListStoresRequest::from_json(&body).unwrap_err().message(),
            "limit must be between 1 and 100"
        );
        let body = json!({"limit": null, "include_archived": null});
        assert_eq!(
            ListStoresRequest::from_json(&body).unwrap(),
            ListStoresRequest::new()
        );
    }
}

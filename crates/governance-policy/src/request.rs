//! Request bodies of the agent, member and owner operations, and the personal-data check of
//! identifiers (step 6 of the order of checks).
//!
//! Each request is one type: its wire form is the serde derive (`deny_unknown_fields`, camelCase
//! names), its OpenAPI schema is the `utoipa::ToSchema` derive (feature `openapi`, with the
//! bounds the rules check), required fields are constructor arguments and optional ones builder
//! methods. [`Request::validate`] applies the field rules (lengths, identifiers, bounds) that
//! step 5 of the order of checks requires, field by field in the contract's order; `from_json`
//! reads the body with the derive and runs the very same rules, so that a field of the wrong
//! JSON type answers where its rule would (see `wire`): there is one set of rules, not one per
//! door.
//!
//! Common rules: the body is a JSON object (a `null` body counts as `{}`), field names are
//! camelCase, unknown fields are refused (before any field is checked), an optional field sent
//! as `null` is absent, lengths are Unicode scalar values, and integers must be JSON integers
//! within bounds (no floats, no strings). Every refusal is `400 AGENT_MEMORY_INVALID_REQUEST`
//! with a static message naming the field; a refused value is never echoed, and an unknown
//! field is named only when its name is a plain identifier without personal data.

use memory_core::{ApiError, ErrorCode};
use serde_json::Value;

mod batch;
mod bodies;
mod rules;

pub use batch::RememberBatchRequest;

#[cfg(feature = "openapi")]
pub use bodies::{ForgetByIdForm, ForgetByKeyForm, ForgetForms};
pub use bodies::{
    ForgetRequest, ListRequest, MemberDeleteRequest, MemberListRequest, RecallRequest,
    RememberRequest, SettingsPatch,
};

/// A request the facade validates at the call: built in Rust, or read from a JSON body.
pub trait Request: Sized {
    /// Reads and validates a JSON body: the field rules of [`Request::validate`] plus JSON
    /// types and unknown fields, field by field in the order of the contract.
    fn from_json(value: &Value) -> Result<Self, ApiError>;

    /// Applies the field rules, in the same order as `from_json`, with the same messages.
    fn validate(&self) -> Result<(), ApiError>;
}

macro_rules! request_impl {
    ($($t:ty),*) => {$(
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

request_impl!(
    RememberRequest,
    RecallRequest,
    ListRequest,
    ForgetRequest,
    SettingsPatch,
    MemberDeleteRequest,
    MemberListRequest
);

/// Step 6 of remember: a namespace, key or `collectionId` in which a validated personal-data
/// detector fires → `400 AGENT_MEMORY_PERSONAL_DATA`. Identifiers are refused, never masked.
/// List and recall filters (`namespace`, `key`, `collectionId`) are never checked: a filter
/// stores nothing.
pub fn check_identifiers(
    namespace: &str,
    key: Option<&str>,
    collection_id: Option<&str>,
) -> Result<(), ApiError> {
    let found = pii_mask::contains_personal_data(namespace)
        || key.is_some_and(pii_mask::contains_personal_data);
    if found {
        return Err(ErrorCode::AgentMemoryPersonalData.into());
    }
    if collection_id.is_some_and(pii_mask::contains_personal_data) {
        return Err(ApiError::new(
            ErrorCode::AgentMemoryPersonalData,
            "collectionId contains personal data",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::rules::*;
    use super::*;
    use crate::limits::*;

    #[test]
    fn identifier_rule_rejects_edges_and_controls() {
        assert!(NAMESPACE.check("prefs").is_ok());
        assert!(NAMESPACE.check("a b").is_ok());
        for bad in [
            "",
            " prefs",
            "prefs ",
            "pre\u{0}fs",
            "pre\nfs",
            "\u{3000}x",
            "x\u{85}",
        ] {
            assert!(NAMESPACE.check(bad).is_err(), "{bad:?}");
        }
        // Text may hold newlines; only identifiers are restricted.
        assert!(TEXT.check("line one\nline two ").is_ok());
    }

    #[test]
    fn lengths_count_scalar_values() {
        let emoji = "😀".repeat(NAMESPACE_MAX_CHARS);
        assert!(NAMESPACE.check(&emoji).is_ok());
        assert!(NAMESPACE.check(&format!("{emoji}😀")).is_err());
    }

    #[test]
    fn an_unknown_field_is_refused_before_any_field_is_checked() {
        let body = json!({"namespace": 5, "text": "", "colour": "red"});
        let err = RememberRequest::from_json(&body).unwrap_err();
        assert_eq!(
            err.message(),
            "the request body has an unknown field: colour"
        );
    }

    #[test]
    fn a_mistyped_field_answers_where_the_contract_checks_it() {
        // `citations` is read first (serde meets fields in name order); `namespace` is checked
        // first.
        let body = json!({"citations": 5, "namespace": "", "text": "t"});
        let err = RememberRequest::from_json(&body).unwrap_err();
        assert_eq!(err.message(), NAMESPACE.message);
        let body = json!({"citations": 5, "namespace": 5, "text": 5});
        let err = RememberRequest::from_json(&body).unwrap_err();
        assert_eq!(err.message(), NAMESPACE.message);
        let body = json!({"citations": [1], "namespace": "n", "text": "t"});
        let err = RememberRequest::from_json(&body).unwrap_err();
        assert_eq!(err.message(), PASSAGE_ID.message);
        for limit in [json!(20.0), json!("5"), json!(-1), json!(1e30), json!(51)] {
            let err = RecallRequest::from_json(&json!({"query": "q", "limit": limit})).unwrap_err();
            assert_eq!(err.message(), RECALL_LIMIT.message, "{limit}");
        }
        let err = RecallRequest::from_json(&json!({"query": 1, "limit": "x"})).unwrap_err();
        assert_eq!(err.message(), QUERY.message);
        let err = SettingsPatch::from_json(&json!({"retentionDays": 70000})).unwrap_err();
        assert_eq!(err.message(), RETENTION_DAYS.message);
        let err = ListRequest::from_json(&json!({"asOf": "yesterday"})).unwrap_err();
        assert_eq!(err.message(), "asOf must be an RFC 3339 timestamp");
    }

    #[test]
    fn null_fields_are_absent() {
        let req = RecallRequest::from_json(
            &json!({"query": "q", "namespace": null, "limit": null, "asOf": null}),
        )
        .unwrap();
        assert_eq!(req, RecallRequest::new("q"));
        let err = RememberRequest::from_json(&json!({"namespace": null, "text": "t"})).unwrap_err();
        assert_eq!(err.message(), NAMESPACE.message);
        let req =
            RememberRequest::from_json(&json!({"namespace": "n", "text": "t", "citations": null}))
                .unwrap();
        assert!(req.citations.is_empty());
    }

    #[test]
    fn citations_are_counted_as_sent_then_collapsed() {
        let ids = vec![Value::from("psg_1"); 21];
        let err =
            RememberRequest::from_json(&json!({"namespace": "n", "text": "t", "citations": ids}))
                .unwrap_err();
        assert_eq!(err.message(), PASSAGE_ID.message);
        let ids = vec![Value::from("psg_1"); 20];
        let req =
            RememberRequest::from_json(&json!({"namespace": "n", "text": "t", "citations": ids}))
                .unwrap();
        assert_eq!(req.citations, ["psg_1"]);
        assert!(req.validate().is_ok());
    }

    #[test]
    fn null_body_is_an_empty_object() {
        let req = MemberListRequest::from_json(&Value::Null).unwrap();
        assert_eq!(
            req,
            MemberListRequest {
                limit: LIST_LIMIT_DEFAULT,
                cursor: None
            }
        );
        assert!(MemberListRequest::from_json(&json!([])).is_err());
    }

    #[test]
    fn debug_never_shows_text_or_query() {
        let req =
            RememberRequest::from_json(&json!({"namespace": "n", "text": "secret plan"})).unwrap();
        let shown = format!("{req:?}");
        assert!(!shown.contains("secret") && shown.contains("<11 chars>"));
        let req = RecallRequest::from_json(&json!({"query": "secret plan"})).unwrap();
        assert!(!format!("{req:?}").contains("secret"));
    }
}

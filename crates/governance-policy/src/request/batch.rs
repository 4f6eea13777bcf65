//! `rememberBatch`: several remembers in one request, each answered on its own.

use memory_core::{ApiError, ErrorCode};
use serde_json::Value;

use super::{RememberRequest, Request};
use crate::limits::REMEMBER_BATCH_MAX;

/// `{"items": [remember body, …]}`: 1 to 100 remember bodies. The batch itself is refused only
/// when it is not such a list; each item is read and checked on its own, so a malformed item is
/// that item's `400` and the others still run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of rememberBatch: 1 to 100 remember bodies")
)]
#[cfg_attr(feature = "openapi", serde(deny_unknown_fields))]
#[non_exhaustive]
pub struct RememberBatchRequest {
    /// The remembers, in order: each a `remember` body (a `RememberRequest`), read and checked
    /// on its own, so that a malformed one is that item's `400` in the answer.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Vec<Object>, min_items = 1, max_items = 100)
    )]
    pub items: Vec<Result<RememberRequest, ApiError>>,
}

impl RememberBatchRequest {
    /// A batch of typed remembers (each validated when it runs).
    pub fn new(items: impl IntoIterator<Item = RememberRequest>) -> Self {
        RememberBatchRequest {
            items: items.into_iter().map(Ok).collect(),
        }
    }
}

fn invalid(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::AgentMemoryInvalidRequest, message)
}

const ITEMS: &str = "items must be a list of 1 to 100 remember bodies";

impl Request for RememberBatchRequest {
    fn from_json(value: &Value) -> Result<Self, ApiError> {
        let Value::Object(fields) = value else {
            return Err(invalid("the request body must be a JSON object"));
        };
        if let Some(unknown) = fields.keys().find(|k| *k != "items") {
            return Err(ApiError::unknown_field(
                ErrorCode::AgentMemoryInvalidRequest,
                unknown,
            ));
        }
        let Some(Value::Array(items)) = fields.get("items") else {
            return Err(invalid(ITEMS));
        };
        if !(1..=REMEMBER_BATCH_MAX).contains(&items.len()) {
            return Err(invalid(ITEMS));
        }
        Ok(RememberBatchRequest {
            items: items.iter().map(RememberRequest::from_json).collect(),
        })
    }

    fn validate(&self) -> Result<(), ApiError> {
        if (1..=REMEMBER_BATCH_MAX).contains(&self.items.len()) {
            Ok(())
        } else {
            Err(invalid(ITEMS))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_malformed_item_is_that_items_answer_and_the_list_is_checked_whole() {
        let batch = RememberBatchRequest::from_json(&json!({"items": [
            {"namespace": "n", "text": "fine"},
            {"namespace": "n"},
            {"namespace": "n", "text": "t", "colour": "red"},
        ]}))
        .unwrap();
        assert!(batch.items[0].is_ok());
        assert_eq!(
            batch.items[1].as_ref().unwrap_err().code(),
            ErrorCode::AgentMemoryInvalidRequest
        );
        assert_eq!(
            batch.items[2].as_ref().unwrap_err().message(),
            "the request body has an unknown field: colour"
        );
        for body in [
            json!({"items": []}),
            json!({"items": {}}),
            json!({}),
            json!({"items": vec![json!({"namespace": "n", "text": "t"}); 101]}),
        ] {
            assert_eq!(
                RememberBatchRequest::from_json(&body)
                    .unwrap_err()
                    .message(),
                ITEMS
            );
        }
        assert!(RememberBatchRequest::from_json(&json!([])).is_err());
        assert!(RememberBatchRequest::new([]).validate().is_err());
    }
}

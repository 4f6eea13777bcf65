//! The field rules of the agent-memory requests: each field's bounds and the one static message
//! that refuses it, and the walk that applies them in the contract's order.

use std::collections::HashSet;
use std::fmt;

use memory_core::{ApiError, ErrorCode, Settings};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::limits::*;
use crate::wire::{self, BodyError};

pub(crate) fn invalid(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::AgentMemoryInvalidRequest, message)
}

/// The bounds of one string field and the message that refuses it.
pub(crate) struct StringRule {
    pub(crate) name: &'static str,
    pub(crate) min: usize,
    pub(crate) max: usize,
    /// Namespaces and keys: no control characters, no leading or trailing whitespace.
    identifier: bool,
    pub(crate) message: &'static str,
}

impl StringRule {
    pub(crate) fn check(&self, s: &str) -> Result<(), ApiError> {
        let chars = s.chars().count();
        let mut ok = (self.min..=self.max).contains(&chars);
        if ok && self.identifier {
            ok = !s.chars().any(char::is_control)
                && !s.starts_with(char::is_whitespace)
                && !s.ends_with(char::is_whitespace);
        }
        if ok {
            Ok(())
        } else {
            Err(invalid(self.message))
        }
    }
}

pub(crate) const NAMESPACE: StringRule = StringRule {
    name: "namespace",
    min: NAMESPACE_MIN_CHARS,
    max: NAMESPACE_MAX_CHARS,
    identifier: true,
    message: "namespace must be a string of 1 to 64 characters without control characters or \
              leading or trailing whitespace",
};
pub(crate) const KEY: StringRule = StringRule {
    name: "key",
    min: KEY_MIN_CHARS,
    max: KEY_MAX_CHARS,
    identifier: true,
    message: "key must be a string of 1 to 120 characters without control characters or \
              leading or trailing whitespace",
};
pub(crate) const TEXT: StringRule = StringRule {
    name: "text",
    min: TEXT_MIN_CHARS,
    max: TEXT_MAX_CHARS,
    identifier: false,
    message: "text must be a string of 1 to 1000 characters",
};
pub(crate) const COLLECTION_ID: StringRule = StringRule {
    name: "collectionId",
    min: COLLECTION_ID_MIN_CHARS,
    max: COLLECTION_ID_MAX_CHARS,
    identifier: false,
    message: "collectionId must be a string of 1 to 128 characters",
};
pub(crate) const QUERY: StringRule = StringRule {
    name: "query",
    min: QUERY_MIN_CHARS,
    max: QUERY_MAX_CHARS,
    identifier: false,
    message: "query must be a string of 1 to 1000 characters",
};
pub(crate) const PASSAGE_ID: StringRule = StringRule {
    name: "citations",
    min: PASSAGE_ID_MIN_CHARS,
    max: PASSAGE_ID_MAX_CHARS,
    identifier: false,
    message: "citations must be an array of at most 20 passage ids of 1 to 128 characters",
};
pub(crate) const MEMORY_ID: StringRule = StringRule {
    name: "memoryId",
    min: 1,
    max: MEMORY_ID_MAX_CHARS,
    identifier: false,
    message: "memoryId must be a string of 1 to 128 characters",
};
pub(crate) const CURSOR: StringRule = StringRule {
    name: "cursor",
    min: 1,
    max: CURSOR_MAX_CHARS,
    identifier: false,
    message: "cursor must be a cursor string returned by an earlier page",
};

/// The bounds of one integer field.
pub(crate) struct IntRule {
    pub(crate) name: &'static str,
    min: u64,
    max: u64,
    pub(crate) message: &'static str,
}

pub(crate) const RECALL_LIMIT: IntRule = IntRule {
    name: "limit",
    min: RECALL_LIMIT_MIN as u64,
    max: RECALL_LIMIT_MAX as u64,
    message: "limit must be an integer from 1 to 50",
};
pub(crate) const LIST_LIMIT: IntRule = IntRule {
    name: "limit",
    min: LIST_LIMIT_MIN as u64,
    max: LIST_LIMIT_MAX as u64,
    message: "limit must be an integer from 1 to 100",
};
pub(crate) const RETENTION_DAYS: IntRule = IntRule {
    name: "retentionDays",
    min: Settings::RETENTION_DAYS_MIN as u64,
    max: Settings::RETENTION_DAYS_MAX as u64,
    message: "retentionDays must be an integer from 1 to 365",
};

impl IntRule {
    pub(crate) fn check(&self, v: u64) -> Result<(), ApiError> {
        if (self.min..=self.max).contains(&v) {
            Ok(())
        } else {
            Err(invalid(self.message))
        }
    }
}

/// The field rules of one request, walked in the contract's order. A field whose JSON type was
/// wrong (read as absent, see `wire`) answers with its own message where its rule runs.
pub(crate) struct Checks<'a> {
    mistyped: &'a [&'static str],
}

impl Checks<'_> {
    /// The checks of a request built in Rust: every field has its type.
    pub(crate) const TYPED: Checks<'static> = Checks { mistyped: &[] };

    /// Refuses with `message` when `name` did not read.
    pub(crate) fn typed(&self, name: &str, message: &'static str) -> Result<(), ApiError> {
        if self.mistyped.contains(&name) {
            Err(invalid(message))
        } else {
            Ok(())
        }
    }

    /// A string field, `None` when absent (a required field is never `None`: absent, it is
    /// empty, which its length refuses).
    pub(crate) fn string(&self, rule: &StringRule, value: Option<&str>) -> Result<(), ApiError> {
        self.typed(rule.name, rule.message)?;
        value.map_or(Ok(()), |v| rule.check(v))
    }

    /// An integer field, `None` when absent.
    pub(crate) fn int(&self, rule: &IntRule, value: Option<u64>) -> Result<(), ApiError> {
        self.typed(rule.name, rule.message)?;
        value.map_or(Ok(()), |v| rule.check(v))
    }

    /// Cited passage ids: at most 20 as sent, each 1–128 characters.
    pub(crate) fn citations(&self, sent: usize, ids: &[String]) -> Result<(), ApiError> {
        self.typed(PASSAGE_ID.name, PASSAGE_ID.message)?;
        if sent > CITATIONS_MAX || ids.len() > CITATIONS_MAX {
            return Err(invalid(PASSAGE_ID.message));
        }
        ids.iter().try_for_each(|id| PASSAGE_ID.check(id))
    }
}

/// Reads a body into its wire struct `T` and runs `check` with the fields that did not read.
pub(crate) fn read_body<T: DeserializeOwned>(
    body: &Value,
    check: impl FnOnce(&mut T, &Checks<'_>) -> Result<(), ApiError>,
) -> Result<T, ApiError> {
    match wire::read::<T>(body) {
        Ok(wire::Read {
            mut value,
            mistyped,
        }) => {
            check(
                &mut value,
                &Checks {
                    mistyped: &mistyped,
                },
            )?;
            Ok(value)
        }
        // Every field has a default: a missing field cannot occur.
        Err(
            BodyError::NotAnObject
            | BodyError::MissingField(_)
            | BodyError::MissingAfterMistyped(_),
        ) => Err(invalid("the request body must be a JSON object")),
        // Named when the name is a plain identifier without personal data; never its value.
        Err(BodyError::UnknownField(name)) => Err(ApiError::unknown_field(
            ErrorCode::AgentMemoryInvalidRequest,
            &name,
        )),
    }
}

/// Distinct ids in first-occurrence order, and how many were given.
pub(crate) fn distinct(ids: impl IntoIterator<Item = String>) -> (usize, Vec<String>) {
    let mut sent = 0;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for id in ids {
        sent += 1;
        if seen.insert(id.clone()) {
            out.push(id);
        }
    }
    (sent, out)
}

/// Writes a text field as its length only, so a `{:?}` in a log never carries memory text or
/// a query.
pub(crate) struct Redacted<'a>(pub(crate) &'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} chars>", self.0.chars().count())
    }
}

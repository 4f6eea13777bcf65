//! The field rules of the memory-store requests, each one function that the requests' `check`s
//! call in the contract's order, and the reading of a body into its wire struct.

use std::fmt;

use governance_policy::wire::{self, BodyError, Read};
use memory_core::session::ResourceRequest;
use memory_core::store::{LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN, is_sha256_hex};
use memory_core::{
    ApiError, ErrorCode, FieldProblem, MemoryStore, MemoryStoreId, Precondition, StorePath,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `400 MEMORY_INVALID_REQUEST` with `message`.
pub(crate) fn invalid(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::MemoryInvalidRequest, message)
}

/// Most characters of a mount's `instructions` (the spec sets no limit; this one matches the
/// store description's, so the system prompt stays bounded).
pub const INSTRUCTIONS_MAX_CHARS: usize = MemoryStore::DESCRIPTION_MAX_CHARS;

pub(crate) const RESOURCE: &str = "a resource must be an object with a string type; a memory_store resource takes memory_store_id, access and instructions";

pub(crate) const PII_POLICY: &str = "pii_policy must be allow, mask or reject";

pub(crate) const PRECONDITION: &str =
    "precondition must be {\"type\":\"content_sha256\",\"content_sha256\":…}";

/// The fields of a body that did not read and that have a message of their own.
pub(crate) struct Mistyped(Vec<&'static str>);

impl Mistyped {
    /// The fields of a request built in Rust: none.
    pub(crate) const NONE: Mistyped = Mistyped(Vec::new());

    /// Refuses with `message` when `field` did not read.
    pub(crate) fn check(&self, field: &str, message: &'static str) -> Result<(), ApiError> {
        if self.0.contains(&field) {
            Err(invalid(message))
        } else {
            Ok(())
        }
    }
}

/// Reads a body into its wire struct `T`: an object, no unknown field, no missing field, every
/// field of its type, ids well formed, else `400 MEMORY_INVALID_REQUEST` naming the field (an
/// unknown one only when its name is a plain identifier; serde's message is dropped: it may
/// quote the refused value). A field for which `own` holds,
/// given its value, is the exception: it has a message of its own, which the request's `check`
/// gives at that field's place in the order of checks (a `precondition`, a `resources` list, a
/// `pii_policy` string).
pub(crate) fn shape<T: DeserializeOwned>(
    body: &Value,
    own: fn(&str, &Value) -> bool,
) -> Result<(T, Mistyped), ApiError> {
    let Value::Object(fields) = body else {
        return Err(invalid("the request body must be a JSON object"));
    };
    let code = ErrorCode::MemoryInvalidRequest;
    let Read { value, mistyped } = wire::read::<T>(body).map_err(|err| match err {
        BodyError::UnknownField(name) => ApiError::unknown_field(code, &name),
        BodyError::MissingField(Some(field)) => {
            ApiError::field_error(code, field, FieldProblem::Missing)
        }
        BodyError::MissingAfterMistyped(field) => {
            ApiError::field_error(code, field, FieldProblem::WrongType)
        }
        BodyError::NotAnObject | BodyError::MissingField(None) => {
            invalid("the request body must be a JSON object with the operation's fields")
        }
    })?;
    if let Some(field) = mistyped.iter().find(|f| !own(f, &fields[**f])) {
        return Err(ApiError::field_error(code, field, FieldProblem::WrongType));
    }
    Ok((value, Mistyped(mistyped)))
}

/// Every field of the body is read by its type alone.
pub(crate) fn no_own(_: &str, _: &Value) -> bool {
    false
}

/// A `precondition` of the wrong shape has its own message.
pub(crate) fn own_precondition(field: &str, _: &Value) -> bool {
    field == "precondition"
}

pub(crate) fn check_name(name: &str) -> Result<(), ApiError> {
    if MemoryStore::name_valid(name) {
        Ok(())
    } else {
        Err(invalid("name must have 1 to 255 characters"))
    }
}

pub(crate) fn check_description(description: Option<&str>) -> Result<(), ApiError> {
    match description {
        Some(d) if !MemoryStore::description_valid(d) => {
            Err(invalid("description must have at most 4096 characters"))
        }
        _ => Ok(()),
    }
}

/// `limit` of a list: 1–100.
pub(crate) fn check_limit(limit: usize) -> Result<(), ApiError> {
    if !(u64::from(LIST_LIMIT_MIN)..=u64::from(LIST_LIMIT_MAX)).contains(&(limit as u64)) {
        return Err(invalid("limit must be between 1 and 100"));
    }
    Ok(())
}

pub(crate) const DEFAULT_LIMIT: usize = LIST_LIMIT_DEFAULT as usize;

pub(crate) fn default_limit() -> usize {
    DEFAULT_LIMIT
}

/// `limit` of a list: absent or `null` is 20.
pub(crate) fn limit_or_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(<Option<usize> as serde::Deserialize>::deserialize(d)?.unwrap_or(DEFAULT_LIMIT))
}

pub(crate) fn check_path(path: &str) -> Result<(), ApiError> {
    StorePath::check(path).map_err(|r| memory_core::Error::InvalidPath(r).into())
}

pub(crate) fn check_optional_path(path: Option<&str>) -> Result<(), ApiError> {
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

/// A `precondition` (of the wrong shape, when it did not read) and its hash.
pub(crate) fn check_precondition(
    mistyped: &Mistyped,
    precondition: Option<&Precondition>,
) -> Result<(), ApiError> {
    mistyped.check("precondition", PRECONDITION)?;
    match precondition {
        Some(Precondition::ContentSha256 { content_sha256 }) if !is_sha256_hex(content_sha256) => {
            Err(invalid(
                "precondition content_sha256 must be 64 lowercase hex digits",
            ))
        }
        _ => Ok(()),
    }
}

/// A resource other than a memory store: an object with a string `type`, kept as given.
fn check_other_resource(value: &Value) -> Result<(), ApiError> {
    match value.get("type").and_then(Value::as_str) {
        Some(kind) if kind != "memory_store" => Ok(()),
        _ => Err(invalid(RESOURCE)),
    }
}

pub(crate) fn check_resources(resources: &[ResourceRequest]) -> Result<(), ApiError> {
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
pub(crate) fn check_added_resource(resource: &Value) -> Result<(), ApiError> {
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
pub(crate) struct Redacted<'a>(pub(crate) &'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} bytes>", self.0.len())
    }
}

/// Paths may hold personal data: `{:?}` shows their length only.
pub(crate) fn redacted_path(path: &str) -> Redacted<'_> {
    Redacted(path)
}

/// `impl Request` for request types whose `from_json` and `validate` are inherent.
macro_rules! store_requests {
    ($($t:ty),* $(,)?) => {$(
        impl governance_policy::Request for $t {
            fn from_json(value: &serde_json::Value) -> Result<Self, memory_core::ApiError> {
                <$t>::from_json(value)
            }

            fn validate(&self) -> Result<(), memory_core::ApiError> {
                <$t>::validate(self)
            }
        }
    )*};
}

pub(crate) use store_requests;

/// The builder methods of the requests that take a `precondition`: `precondition` and
/// `if_content_sha256`, the operation applied only while the stored content is unchanged.
macro_rules! preconditioned {
    ($($request:ty),* $(,)?) => {$(
        impl $request {
            /// Applies only under `precondition`.
            pub fn precondition(mut self, precondition: Precondition) -> Self {
                self.precondition = Some(precondition);
                self
            }

            /// Applies only if the stored content's SHA-256 is `content_sha256` (64 lowercase
            /// hex digits; another value is refused by `validate`).
            pub fn if_content_sha256(self, content_sha256: impl Into<String>) -> Self {
                self.precondition(Precondition::ContentSha256 {
                    content_sha256: content_sha256.into(),
                })
            }
        }
    )*};
}

preconditioned!(
    super::UpdateMemoryRequest,
    super::DeleteMemoryRequest,
    super::RestoreMemoryRequest,
    super::FsWriteRequest,
);

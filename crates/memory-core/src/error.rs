//! The crate's error type, the one error-code catalogue of both products, and the API error body.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The error type of this crate: a value handed to a constructor or parser was refused.
///
/// Messages name what was wrong, never the refused value itself (it may be memory text, a path
/// with personal data, or a secret).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A timestamp was not valid RFC 3339 or lies outside years 0000–9999 (UTC).
    #[error("invalid timestamp: {0}")]
    InvalidTimestamp(&'static str),
    /// An id did not have the expected prefix or a well-formed body.
    #[error("invalid {kind} id: {reason}")]
    InvalidId {
        /// The kind of id that was expected (its prefix).
        kind: &'static str,
        /// Why it was refused.
        reason: &'static str,
    },
    /// A host-chosen tenancy id (workspace, member, credential) was empty.
    #[error("invalid {0} id: must not be empty")]
    EmptyTenancyId(&'static str),
    /// A role name other than `viewer`, `editor`, `admin`, `owner`.
    #[error("unknown role")]
    UnknownRole,
    /// A scope name other than `memory:read`, `memory:write`.
    #[error("unknown scope")]
    UnknownScope,
    /// `retentionDays` outside 1–365.
    #[error("retentionDays must be between 1 and 365")]
    RetentionDaysOutOfRange,
    /// A memory-store path broke one of the path rules.
    #[error("invalid path: {0}")]
    InvalidPath(PathRejection),
    /// A string that names no error code of the catalogue.
    #[error("unknown error code")]
    UnknownErrorCode,
}

impl Error {
    /// The API error code that best answers this error when it comes from a request.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::InvalidPath(_) => ErrorCode::MemoryPathInvalid,
            Error::InvalidId { kind, .. } if kind.starts_with("amem") => {
                ErrorCode::AgentMemoryInvalidRequest
            }
            Error::InvalidId { .. } => ErrorCode::MemoryInvalidRequest,
            Error::RetentionDaysOutOfRange
            | Error::InvalidTimestamp(_)
            | Error::EmptyTenancyId(_)
            | Error::UnknownRole
            | Error::UnknownScope
            | Error::UnknownErrorCode => ErrorCode::AgentMemoryInvalidRequest,
        }
    }
}

/// Why a memory-store path was refused (see [`StorePath`](crate::StorePath)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathRejection {
    /// Does not start with `/`.
    NotAbsolute,
    /// Longer than 1,024 bytes.
    TooLong,
    /// More than 32 segments.
    TooManySegments,
    /// An empty segment (`//`, or a trailing `/`, or the bare root).
    EmptySegment,
    /// A segment longer than 255 bytes.
    SegmentTooLong,
    /// A `.` or `..` segment.
    DotSegment,
    /// A NUL or other control character.
    ControlCharacter,
    /// A backslash.
    Backslash,
    /// A segment that percent-decodes to `.` or `..`, or to text containing `/` or `\`.
    EncodedDotOrSeparator,
}

impl PathRejection {
    /// A human-readable reason (never containing the path).
    pub const fn message(self) -> &'static str {
        match self {
            PathRejection::NotAbsolute => "the path must start with /",
            PathRejection::TooLong => "the path is longer than 1024 bytes",
            PathRejection::TooManySegments => "the path has more than 32 segments",
            PathRejection::EmptySegment => "the path has an empty segment",
            PathRejection::SegmentTooLong => "a path segment is longer than 255 bytes",
            PathRejection::DotSegment => "a path segment is . or ..",
            PathRejection::ControlCharacter => "the path contains a control character",
            PathRejection::Backslash => "the path contains a backslash",
            PathRejection::EncodedDotOrSeparator => {
                "a path segment percent-decodes to . or .. or contains an encoded separator"
            }
        }
    }
}

impl fmt::Display for PathRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal => $status:literal, )*) => {
        /// Every machine-readable error code either product can answer with.
        ///
        /// The wire names are stable; [`ErrorCode::http_status`] is the status the specs fix.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[cfg_attr(
            feature = "openapi",
            schema(description = "A stable machine-readable error code")
        )]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                $(#[$doc])*
                #[cfg_attr(feature = "openapi", schema(rename = $name))]
                $variant,
            )*
        }

        impl ErrorCode {
            /// Every code, in catalogue order.
            pub const ALL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The wire name, such as `AGENT_MEMORY_DISABLED`.
            pub const fn as_str(self) -> &'static str {
                match self { $( ErrorCode::$variant => $name, )* }
            }

            /// The HTTP status that carries this code.
            pub const fn http_status(self) -> u16 {
                match self { $( ErrorCode::$variant => $status, )* }
            }

            /// Looks a code up by its wire name (exact, case-sensitive).
            pub fn from_name(name: &str) -> Option<ErrorCode> {
                match name { $( $name => Some(ErrorCode::$variant), )* _ => None }
            }
        }
    };
}

error_codes! {
    // --- agent memories (agent-memory.md) ---
    /// Request validation failed (types, unknown fields, lengths, limits, asOf, cursor).
    AgentMemoryInvalidRequest = "AGENT_MEMORY_INVALID_REQUEST" => 400,
    /// Personal data found in a namespace or key.
    AgentMemoryPersonalData = "AGENT_MEMORY_PERSONAL_DATA" => 400,
    /// Nothing but placeholders, whitespace and punctuation left after masking.
    AgentMemoryEmpty = "AGENT_MEMORY_EMPTY" => 400,
    /// A cited passage could not be resolved at write time.
    AgentMemoryCitationInvalid = "AGENT_MEMORY_CITATION_INVALID" => 400,
    /// A scope the member's role does not allow was granted.
    AgentMemoryScopeNotGrantable = "AGENT_MEMORY_SCOPE_NOT_GRANTABLE" => 400,
    /// Unknown or revoked credential, removed member, or another workspace.
    AgentCredentialInvalid = "AGENT_CREDENTIAL_INVALID" => 401,
    /// The workspace does not retain history.
    NonRetainingWorkspace = "NON_RETAINING_WORKSPACE" => 403,
    /// `agentMemoriesEnabled` is false.
    AgentMemoryDisabled = "AGENT_MEMORY_DISABLED" => 403,
    /// Missing scope, or role below the scope's minimum.
    AgentMemoryScopeRequired = "AGENT_MEMORY_SCOPE_REQUIRED" => 403,
    /// Outside the credential's context set, or the bound set is invalid.
    AgentContextSetScopeRefused = "AGENT_CONTEXT_SET_SCOPE_REFUSED" => 403,
    /// Only the owner holds `ask_history:manage`.
    AskHistoryManageRequired = "ASK_HISTORY_MANAGE_REQUIRED" => 403,
    /// Unknown memory id, another member's memory, or nothing under that key.
    AgentMemoryNotFound = "AGENT_MEMORY_NOT_FOUND" => 404,
    /// The member's quota of stored memory versions is reached.
    AgentMemoryFull = "AGENT_MEMORY_FULL" => 409,
    /// Too many remembers in the last hour.
    AgentMemoryRateLimited = "AGENT_MEMORY_RATE_LIMITED" => 429,

    // --- memory stores (memory-stores.md) ---
    /// Invalid fields of a memory-store request.
    MemoryInvalidRequest = "MEMORY_INVALID_REQUEST" => 400,
    /// A path that breaks the path rules or resolves inside no mount.
    MemoryPathInvalid = "MEMORY_PATH_INVALID" => 400,
    /// A `reject` store refused content the masker would change.
    MemoryPersonalData = "MEMORY_PERSONAL_DATA" => 400,
    /// A store with `pii_policy` mask or reject refused a path that holds personal data (paths
    /// are identifiers there: refused, never masked).
    MemoryPathPersonalData = "MEMORY_PATH_PERSONAL_DATA" => 400,
    /// More than 8 memory stores attached to a session.
    TooManyMemoryStores = "TOO_MANY_MEMORY_STORES" => 400,
    /// The same memory store attached twice to one session.
    MemoryStoreDuplicate = "MEMORY_STORE_DUPLICATE" => 400,
    /// Memory stores can only be attached when the session is created.
    MemoryStoreAttachAtCreationOnly = "MEMORY_STORE_ATTACH_AT_CREATION_ONLY" => 400,
    /// A failure of the client-side memory tool command set.
    MemoryToolError = "MEMORY_TOOL_ERROR" => 400,
    /// The member's role is too low for this store operation.
    MemoryStoreForbidden = "MEMORY_STORE_FORBIDDEN" => 403,
    /// A write through a read-only mount.
    MemoryStoreReadOnly = "MEMORY_STORE_READ_ONLY" => 403,
    /// Unknown memory store id (or one of another workspace).
    MemoryStoreNotFound = "MEMORY_STORE_NOT_FOUND" => 404,
    /// Unknown memory id.
    MemoryNotFound = "MEMORY_NOT_FOUND" => 404,
    /// Unknown memory version id.
    MemoryVersionNotFound = "MEMORY_VERSION_NOT_FOUND" => 404,
    /// Unknown session id.
    SessionNotFound = "SESSION_NOT_FOUND" => 404,
    /// A write to an archived store, or attaching an archived store.
    MemoryStoreArchived = "MEMORY_STORE_ARCHIVED" => 409,
    /// A `content_sha256` precondition did not match.
    MemoryPreconditionFailed = "MEMORY_PRECONDITION_FAILED" => 409,
    /// The path (or an ancestor or descendant of it) is taken by a live memory.
    MemoryPathConflict = "MEMORY_PATH_CONFLICT" => 409,
    /// Restoring a redacted version.
    MemoryVersionRedacted = "MEMORY_VERSION_REDACTED" => 409,
    /// Restoring a `deleted` version.
    MemoryVersionNotRestorable = "MEMORY_VERSION_NOT_RESTORABLE" => 409,
    /// Redacting the current content of a live memory.
    MemoryVersionIsCurrent = "MEMORY_VERSION_IS_CURRENT" => 409,
    /// Content over 102,400 bytes.
    MemoryTooLarge = "MEMORY_TOO_LARGE" => 413,

    // --- replay (replay.md) ---
    /// A replay line names an unknown member.
    MemberNotFound = "MEMBER_NOT_FOUND" => 404,
    /// A replay line that is not valid JSON, names an unknown op, or moves time backwards.
    ReplayBadLine = "REPLAY_BAD_LINE" => 400,
    /// Not in replay.md: a world operation that would create a workspace, member or credential
    /// whose id the script already used, or a context set whose id another workspace has (the
    /// spec makes those ids unique across a script; see `docs/replay.md`).
    ReplayDuplicateId = "REPLAY_DUPLICATE_ID" => 409,

    // --- not in the specs: the answer to a failure of the host's storage or environment ---
    /// The library could not complete the request (for example a storage failure).
    InternalError = "INTERNAL_ERROR" => 500,
    /// The database is open in another process, which holds its lock.
    StorageLocked = "STORAGE_LOCKED" => 503,
    /// The device under the database has no space left (or the user's quota is used up).
    StorageFull = "STORAGE_FULL" => 507,
    /// The database lies on a read-only file system (or is opened read-only): it can be read,
    /// not written.
    StorageReadOnly = "STORAGE_READ_ONLY" => 503,
}

impl ErrorCode {
    /// A generic human-readable message for this code, free of any request content.
    pub const fn default_message(self) -> &'static str {
        match self {
            ErrorCode::AgentMemoryInvalidRequest => "the request is invalid",
            ErrorCode::AgentMemoryPersonalData => "namespace or key contains personal data",
            ErrorCode::AgentMemoryEmpty => "nothing is left of the text after masking",
            ErrorCode::AgentMemoryCitationInvalid => "a cited passage cannot be resolved",
            ErrorCode::AgentMemoryScopeNotGrantable => {
                "the member's role does not allow this scope"
            }
            ErrorCode::AgentCredentialInvalid => "the credential is not valid",
            ErrorCode::NonRetainingWorkspace => "the workspace does not retain history",
            ErrorCode::AgentMemoryDisabled => "agent memories are disabled in this workspace",
            ErrorCode::AgentMemoryScopeRequired => "the credential lacks the required scope",
            ErrorCode::AgentContextSetScopeRefused => "outside the credential's context set",
            ErrorCode::AskHistoryManageRequired => "only the workspace owner may do this",
            ErrorCode::AgentMemoryNotFound => "memory not found",
            ErrorCode::AgentMemoryFull => "the memory quota is reached",
            ErrorCode::AgentMemoryRateLimited => "too many memories written in the last hour",
            ErrorCode::MemoryInvalidRequest => "the request is invalid",
            ErrorCode::MemoryPathInvalid => "the path is invalid",
            ErrorCode::MemoryPersonalData => "the content contains personal data",
            ErrorCode::MemoryPathPersonalData => "the path contains personal data",
            ErrorCode::TooManyMemoryStores => "at most 8 memory stores can be attached",
            ErrorCode::MemoryStoreDuplicate => "the same memory store is attached twice",
            ErrorCode::MemoryStoreAttachAtCreationOnly => {
                "memory stores can only be attached when the session is created"
            }
            ErrorCode::MemoryToolError => "the memory tool command failed",
            ErrorCode::MemoryStoreForbidden => "the member's role does not allow this",
            ErrorCode::MemoryStoreReadOnly => "the memory store is mounted read-only",
            ErrorCode::MemoryStoreNotFound => "memory store not found",
            ErrorCode::MemoryNotFound => "memory not found",
            ErrorCode::MemoryVersionNotFound => "memory version not found",
            ErrorCode::SessionNotFound => "session not found",
            ErrorCode::MemoryStoreArchived => "the memory store is archived",
            ErrorCode::MemoryPreconditionFailed => "the content precondition does not match",
            ErrorCode::MemoryPathConflict => "the path is taken",
            ErrorCode::MemoryVersionRedacted => "the version is redacted",
            ErrorCode::MemoryVersionNotRestorable => "a deleted version cannot be restored",
            ErrorCode::MemoryVersionIsCurrent => "the version is a live memory's current content",
            ErrorCode::MemoryTooLarge => "the content is too large",
            ErrorCode::MemberNotFound => "member not found",
            ErrorCode::ReplayBadLine => "the replay line is invalid",
            ErrorCode::ReplayDuplicateId => "the id is already used in this script",
            ErrorCode::InternalError => "internal error",
            ErrorCode::StorageLocked => "the database is open in another process",
            ErrorCode::StorageFull => "no space left on the device under the database",
            ErrorCode::StorageReadOnly => "the database is read-only",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorCode {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        ErrorCode::from_name(s).ok_or(Error::UnknownErrorCode)
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = Cow::<'de, str>::deserialize(deserializer)?;
        ErrorCode::from_name(&name).ok_or_else(|| serde::de::Error::custom("unknown error code"))
    }
}

/// An error answer of either API: a code, a human-readable message and the optional extra fields.
///
/// Serializes to the specs' error body
/// `{"error":{"code":…,"message":…,"retryAfterSeconds":…,"current_content_sha256":…}}`, where the
/// last two keys appear only when set. Messages are `'static` so that they cannot carry memory
/// text, a query or a detected personal value.
///
/// An answer to a failure of the host's storage keeps that failure as its
/// [`source`](std::error::Error::source) ([`ApiError::with_source`]), for the log of the place
/// that turns it into a 500; the source is never part of the answer: not of its `Display`, its
/// JSON, its `Debug`, nor of equality (two errors are equal when their answers are).
#[derive(Clone)]
pub struct ApiError {
    code: ErrorCode,
    message: Cow<'static, str>,
    retry_after_seconds: Option<u64>,
    current_content_sha256: Option<String>,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

/// The answer's fields, and whether a cause is kept: the cause itself is for the one log that
/// turns it into a 500, not for every `{:?}` of the answer.
impl std::fmt::Debug for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiError")
            .field("code", &self.code)
            .field("message", &self.message)
            .field("retry_after_seconds", &self.retry_after_seconds)
            .field("current_content_sha256", &self.current_content_sha256)
            .field("has_source", &self.source.is_some())
            .finish()
    }
}

impl PartialEq for ApiError {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code
            && self.message == other.message
            && self.retry_after_seconds == other.retry_after_seconds
            && self.current_content_sha256 == other.current_content_sha256
    }
}

impl Eq for ApiError {}

/// What is wrong with a field a request defines; see [`ApiError::field_error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldProblem {
    /// A required field is absent.
    Missing,
    /// The field's value is not of its JSON type or form (a malformed id).
    WrongType,
}

impl ApiError {
    /// An error with an explicit message.
    pub fn new(code: ErrorCode, message: &'static str) -> Self {
        ApiError {
            code,
            message: Cow::Borrowed(message),
            retry_after_seconds: None,
            current_content_sha256: None,
            source: None,
        }
    }

    /// A `400` (with `code`) for a body field the request does not have. The message names the
    /// field when its name is a plain identifier — 1 to 40 ASCII letters, digits and `_`,
    /// starting with a letter — in which the masker finds no personal data; any other name is
    /// the client's content and is not shown. The field's value is never shown.
    pub fn unknown_field(code: ErrorCode, name: &str) -> Self {
        let plain = (1..=40).contains(&name.len())
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !pii_mask::contains_personal_data(name);
        if plain {
            ApiError::owned(
                code,
                format!("the request body has an unknown field: {name}"),
            )
        } else {
            ApiError::new(
                code,
                "the request body has an unknown field (its name is not shown: it is not a plain identifier)",
            )
        }
    }

    /// A `400` (with `code`) naming a field the request defines (a `'static` name, never the
    /// client's): the field is missing, or its value has the wrong type or form.
    pub fn field_error(code: ErrorCode, field: &'static str, problem: FieldProblem) -> Self {
        let what = match problem {
            FieldProblem::Missing => "is missing",
            FieldProblem::WrongType => "has a value of the wrong type or form",
        };
        ApiError::owned(code, format!("the request body's field {field} {what}"))
    }

    /// A `400` (with `code`) for a field outside the bounds a host set on its service (a
    /// `'static` field name and two numbers, never the value): `{field} must be from {min} to
    /// {max} on this service`.
    pub fn out_of_bounds(code: ErrorCode, field: &'static str, min: u64, max: u64) -> Self {
        ApiError::owned(
            code,
            format!("{field} must be from {min} to {max} on this service"),
        )
    }

    /// An error whose message was built from static text and checked names only.
    fn owned(code: ErrorCode, message: String) -> Self {
        ApiError {
            message: Cow::Owned(message),
            ..ApiError::new(code, "")
        }
    }

    /// Keeps `source`, the failure this error answers, as its
    /// [`source`](std::error::Error::source): for logs only, never in the answer.
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// A `429 AGENT_MEMORY_RATE_LIMITED` answer; `retry_after_seconds` is raised to at least 1.
    pub fn rate_limited(retry_after_seconds: u64) -> Self {
        ApiError::from(ErrorCode::AgentMemoryRateLimited).with_retry_after(retry_after_seconds)
    }

    /// A `409 MEMORY_PRECONDITION_FAILED` answer carrying the stored content's hash.
    pub fn precondition_failed(current_content_sha256: impl Into<String>) -> Self {
        ApiError::from(ErrorCode::MemoryPreconditionFailed)
            .with_current_content_sha256(current_content_sha256)
    }

    /// Sets `retryAfterSeconds` (at least 1).
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after_seconds = Some(seconds.max(1));
        self
    }

    /// Sets `current_content_sha256` (memory-store precondition failures).
    pub fn with_current_content_sha256(mut self, sha256: impl Into<String>) -> Self {
        self.current_content_sha256 = Some(sha256.into());
        self
    }

    /// The machine-readable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The HTTP status of the code.
    pub fn http_status(&self) -> u16 {
        self.code.http_status()
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Seconds until a rate-limited request may succeed, when set.
    pub fn retry_after_seconds(&self) -> Option<u64> {
        self.retry_after_seconds
    }

    /// The stored content's hash, for a failed `content_sha256` precondition.
    pub fn current_content_sha256(&self) -> Option<&str> {
        self.current_content_sha256.as_deref()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(code: ErrorCode) -> Self {
        ApiError::new(code, code.default_message())
    }
}

impl From<Error> for ApiError {
    fn from(err: Error) -> Self {
        let message = match err {
            Error::InvalidPath(reason) => reason.message(),
            _ => err.code().default_message(),
        };
        ApiError::new(err.code(), message)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The error body, as [`ApiError`] writes and reads it; its schema (feature `openapi`) is named
/// `Error`.
#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(as = Error, description = "The error body of every refused or failed request")
)]
pub struct ErrorBody<'a> {
    #[serde(borrow)]
    error: ErrorFields<'a>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
struct ErrorFields<'a> {
    code: ErrorCode,
    /// For people; never carries memory text, queries or personal values.
    #[serde(borrow)]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    message: Cow<'a, str>,
    /// Seconds until a rate-limited request may succeed (429).
    #[serde(
        rename = "retryAfterSeconds",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = u64, required = false, minimum = 1))]
    retry_after_seconds: Option<u64>,
    /// The stored content's hash, when a content_sha256 precondition failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = String,
            required = false,
            min_length = 64,
            max_length = 64,
            pattern = "^[0-9a-f]{64}$"
        )
    )]
    current_content_sha256: Option<String>,
}

impl Serialize for ApiError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ErrorBody {
            error: ErrorFields {
                code: self.code,
                message: Cow::Borrowed(&self.message),
                retry_after_seconds: self.retry_after_seconds,
                current_content_sha256: self.current_content_sha256.clone(),
            },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ApiError {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let body = ErrorBody::deserialize(deserializer)?;
        Ok(ApiError {
            code: body.error.code,
            message: Cow::Owned(body.error.message.into_owned()),
            retry_after_seconds: body.error.retry_after_seconds,
            current_content_sha256: body.error.current_content_sha256,
            source: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for &code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert_eq!(ErrorCode::from_name(code.as_str()), Some(code));
            assert!(!code.default_message().is_empty());
        }
    }

    #[test]
    fn retry_after_is_at_least_one() {
        assert_eq!(ApiError::rate_limited(0).retry_after_seconds(), Some(1));
    }

    #[test]
    fn the_source_is_kept_for_logs_and_left_out_of_the_answer() {
        use std::error::Error as _;
        let cause = std::io::Error::other("disk on fire");
        let err = ApiError::new(ErrorCode::InternalError, "the storage backend failed");
        let with_cause = err.clone().with_source(cause);
        assert!(err.source().is_none());
        let kept = with_cause.source().expect("the cause is kept");
        assert_eq!(kept.to_string(), "disk on fire");
        assert!(kept.downcast_ref::<std::io::Error>().is_some());
        assert_eq!(with_cause, err);
        assert_eq!(with_cause.to_string(), err.to_string());
        assert_eq!(
            serde_json::to_string(&with_cause).unwrap(),
            serde_json::to_string(&err).unwrap()
        );
        assert!(with_cause.clone().source().is_some());
    }

    #[test]
    fn crate_errors_map_to_codes_without_echoing_input() {
        let err: ApiError = Error::InvalidPath(PathRejection::DotSegment).into();
        assert_eq!(err.code(), ErrorCode::MemoryPathInvalid);
        assert!(!err.message().is_empty());
    }
}

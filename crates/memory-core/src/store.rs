//! Memory stores: validated paths, the store, memory and version objects (snake_case JSON),
//! actors, preconditions, deleted markers and list pages.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use crate::error::PathRejection;
use crate::{Error, MemoryStoreId, MemoryVersionId, SessionId, StoreMemoryId, Timestamp};

/// Lowercase hex SHA-256 of `content`'s UTF-8 bytes.
pub fn content_sha256(content: &str) -> String {
    let digest = Sha256::digest(content.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        hex.push(char::from_digit(u32::from(byte & 0xf), 16).unwrap_or('0'));
    }
    hex
}

/// True when `s` is 64 lowercase hex digits.
pub fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

// ---------------------------------------------------------------------------------------------
// Paths

/// A valid memory path: absolute, `/`-separated, never decoded, compared byte-exactly.
///
/// Rules: starts with `/`; at most 1,024 bytes and 32 segments; every segment 1–255 bytes, not
/// `.` or `..`; no NUL or other control character, no backslash; no segment that would
/// percent-decode to `.` or `..` or to text containing `/` or `\` (`%2e%2e`, `%2E.`, `a%2fb`).
/// Otherwise `%` is an ordinary character. `Ord` is byte order, the order memories are listed in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        value_type = String,
        pattern = r"^/[\s\S]",
        description = "An absolute memory path: at most 1024 bytes and 32 segments of 1 to 255 bytes, no . or .. segment (also percent-encoded), no control character or backslash"
    )
)]
pub struct StorePath(String);

impl StorePath {
    /// Most bytes in a path.
    pub const MAX_BYTES: usize = 1024;
    /// Most segments in a path.
    pub const MAX_SEGMENTS: usize = 32;
    /// Most bytes in a segment.
    pub const MAX_SEGMENT_BYTES: usize = 255;

    /// Validates `path`.
    pub fn parse(path: impl Into<String>) -> Result<Self, Error> {
        let path = path.into();
        Self::check(&path).map_err(Error::InvalidPath)?;
        Ok(StorePath(path))
    }

    /// The rule `path` breaks first, if any.
    pub fn check(path: &str) -> Result<(), PathRejection> {
        let rest = path.strip_prefix('/').ok_or(PathRejection::NotAbsolute)?;
        if path.len() > Self::MAX_BYTES {
            return Err(PathRejection::TooLong);
        }
        if path.chars().any(char::is_control) {
            return Err(PathRejection::ControlCharacter);
        }
        if path.contains('\\') {
            return Err(PathRejection::Backslash);
        }
        let mut count = 0;
        for segment in rest.split('/') {
            count += 1;
            if count > Self::MAX_SEGMENTS {
                return Err(PathRejection::TooManySegments);
            }
            check_segment(segment)?;
        }
        Ok(())
    }

    /// The path as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0[1..].split('/')
    }

    /// The last segment.
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or_default()
    }

    /// The parent path, or `None` for a one-segment path (its parent is the root).
    pub fn parent(&self) -> Option<StorePath> {
        let cut = self.0.rfind('/')?;
        (cut > 0).then(|| StorePath(self.0[..cut].to_owned()))
    }

    /// Appends one segment; refused when the result breaks a rule.
    pub fn join(&self, segment: &str) -> Result<StorePath, Error> {
        StorePath::parse(format!("{}/{segment}", self.0))
    }

    /// True when `self` lies strictly under `ancestor` (whole segments: `/a/b` is under `/a`,
    /// `/ab` is not).
    pub fn is_under(&self, ancestor: &StorePath) -> bool {
        self.0.len() > ancestor.0.len()
            && self.0.starts_with(&ancestor.0)
            && self.0.as_bytes()[ancestor.0.len()] == b'/'
    }

    /// True when the two paths cannot both be live in one store: equal, or one under the other.
    pub fn conflicts_with(&self, other: &StorePath) -> bool {
        self == other || self.is_under(other) || other.is_under(self)
    }

    /// `path_prefix` matching by whole leading segments: true when `self` equals `prefix` or lies
    /// under it. Trailing slashes of `prefix` are ignored, and `""` or `/` matches every path.
    pub fn has_prefix(&self, prefix: &str) -> bool {
        let prefix = prefix.trim_end_matches('/');
        if prefix.is_empty() {
            return true;
        }
        self.0 == prefix
            || (self.0.len() > prefix.len()
                && self.0.starts_with(prefix)
                && self.0.as_bytes()[prefix.len()] == b'/')
    }
}

fn check_segment(segment: &str) -> Result<(), PathRejection> {
    if segment.is_empty() {
        return Err(PathRejection::EmptySegment);
    }
    if segment.len() > StorePath::MAX_SEGMENT_BYTES {
        return Err(PathRejection::SegmentTooLong);
    }
    if segment == "." || segment == ".." {
        return Err(PathRejection::DotSegment);
    }
    if segment.contains('%') {
        let decoded = percent_decode_once(segment.as_bytes());
        if decoded == b"." || decoded == b".." || decoded.iter().any(|&b| b == b'/' || b == b'\\') {
            return Err(PathRejection::EncodedDotOrSeparator);
        }
    }
    Ok(())
}

/// One pass of percent-decoding, used only to look for disguised dots and separators;
/// malformed escapes stay as they are.
fn percent_decode_once(bytes: &[u8]) -> Vec<u8> {
    fn hex(b: u8) -> Option<u8> {
        char::from(b).to_digit(16).map(|d| d as u8)
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(hi << 4 | lo);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

impl TryFrom<String> for StorePath {
    type Error = Error;

    fn try_from(path: String) -> Result<Self, Error> {
        StorePath::parse(path)
    }
}

impl From<StorePath> for String {
    fn from(path: StorePath) -> String {
        path.0
    }
}

impl FromStr for StorePath {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        StorePath::parse(s)
    }
}

impl AsRef<str> for StorePath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StorePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Constant `type` tags

/// A tag is a one-valued enum whose schema (feature `openapi`) is derived: the one string. A
/// constant of the same name stands for its one value, so that it reads like a unit struct.
macro_rules! type_tag {
    ($(#[$doc:meta])* $name:ident = $value:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[allow(clippy::enum_variant_names)]
        pub enum $name {
            /// The one value.
            #[default]
            #[cfg_attr(feature = "openapi", schema(rename = $value))]
            $name,
        }

        $(#[$doc])*
        #[allow(non_upper_case_globals)]
        pub const $name: $name = $name::$name;

        impl $name {
            /// The tag's value.
            pub const VALUE: &'static str = $value;
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct TagVisitor;

                impl<'de> Visitor<'de> for TagVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("\"", $value, "\""))
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        if v == $value {
                            Ok($name)
                        } else {
                            Err(E::custom(concat!("expected type \"", $value, "\"")))
                        }
                    }
                }

                deserializer.deserialize_str(TagVisitor)
            }
        }
    };
}

type_tag!(
    /// `"type": "memory_store"`.
    MemoryStoreTag = "memory_store"
);
type_tag!(
    /// `"type": "memory"`.
    StoreMemoryTag = "memory"
);
type_tag!(
    /// `"type": "memory_version"`.
    MemoryVersionTag = "memory_version"
);
type_tag!(
    /// `"type": "memory_store_deleted"`.
    MemoryStoreDeletedTag = "memory_store_deleted"
);
type_tag!(
    /// `"type": "memory_deleted"`.
    MemoryDeletedTag = "memory_deleted"
);
type_tag!(
    /// `"type": "session"`.
    SessionTag = "session"
);

// ---------------------------------------------------------------------------------------------
// Objects

/// What a store does with personal data in memory content.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PiiPolicy {
    /// Store content as given (default).
    #[default]
    Allow,
    /// Mask content before storing it; the hash is of the masked content.
    Mask,
    /// Refuse content the masker would change (`400 MEMORY_PERSONAL_DATA`).
    Reject,
}

impl PiiPolicy {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            PiiPolicy::Allow => "allow",
            PiiPolicy::Mask => "mask",
            PiiPolicy::Reject => "reject",
        }
    }
}

/// A memory store object.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryStore {
    /// `memstore_…`.
    pub id: MemoryStoreId,
    /// Always `"memory_store"`.
    #[serde(rename = "type")]
    pub kind: MemoryStoreTag,
    /// 1–255 characters.
    pub name: String,
    /// Up to 4,096 characters; shown to the agent (empty when none was given).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub description: String,
    /// Personal-data policy.
    pub pii_policy: PiiPolicy,
    /// Creation instant.
    pub created_at: Timestamp,
    /// Last change of name, description or archival.
    pub updated_at: Timestamp,
    /// When archived (read-only, not attachable), or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archived_at: Option<Timestamp>,
}

impl MemoryStore {
    /// Most characters in a name.
    pub const NAME_MAX_CHARS: usize = 255;
    /// Most characters in a description.
    pub const DESCRIPTION_MAX_CHARS: usize = 4096;

    /// True when archived.
    pub fn is_archived(&self) -> bool {
        self.archived_at.is_some()
    }

    /// True when `name` has 1–255 characters.
    pub fn name_valid(name: &str) -> bool {
        (1..=Self::NAME_MAX_CHARS).contains(&name.chars().count())
    }

    /// True when `description` has at most 4,096 characters.
    pub fn description_valid(description: &str) -> bool {
        description.chars().count() <= Self::DESCRIPTION_MAX_CHARS
    }
}

/// A memory: path-addressed text in a store.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreMemory {
    /// `mem_…`.
    pub id: StoreMemoryId,
    /// Always `"memory"`.
    #[serde(rename = "type")]
    pub kind: StoreMemoryTag,
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The path, unique among the store's live memories.
    pub path: StorePath,
    /// UTF-8 text, 0–102,400 bytes (masked when the store masks).
    pub content: String,
    /// Lowercase hex SHA-256 of `content`.
    pub content_sha256: String,
    /// Byte length of `content`.
    pub content_size_bytes: u64,
    /// The version holding the current content and path.
    pub version_id: MemoryVersionId,
    /// Creation instant.
    pub created_at: Timestamp,
    /// Last change.
    pub updated_at: Timestamp,
}

impl StoreMemory {
    /// Most bytes of content.
    pub const CONTENT_MAX_BYTES: usize = 102_400;

    /// A memory whose hash and size are computed from `content`.
    pub fn new(
        id: StoreMemoryId,
        memory_store_id: MemoryStoreId,
        path: StorePath,
        content: String,
        version_id: MemoryVersionId,
        at: Timestamp,
    ) -> Self {
        StoreMemory {
            id,
            kind: StoreMemoryTag,
            memory_store_id,
            path,
            content_sha256: content_sha256(&content),
            content_size_bytes: content.len() as u64,
            content,
            version_id,
            created_at: at,
            updated_at: at,
        }
    }

    /// Replaces the content, keeping hash and size consistent.
    pub fn set_content(&mut self, content: String) {
        self.content_sha256 = content_sha256(&content);
        self.content_size_bytes = content.len() as u64;
        self.content = content;
    }

    /// The list view (everything but `content`).
    pub fn metadata(&self) -> StoreMemoryMetadata {
        StoreMemoryMetadata {
            id: self.id.clone(),
            kind: StoreMemoryTag,
            memory_store_id: self.memory_store_id.clone(),
            path: self.path.clone(),
            content_sha256: self.content_sha256.clone(),
            content_size_bytes: self.content_size_bytes,
            version_id: self.version_id.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// A memory without its content, as `memories.list` returns it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreMemoryMetadata {
    /// `mem_…`.
    pub id: StoreMemoryId,
    /// Always `"memory"`.
    #[serde(rename = "type")]
    pub kind: StoreMemoryTag,
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The path.
    pub path: StorePath,
    /// Lowercase hex SHA-256 of the content.
    pub content_sha256: String,
    /// Byte length of the content.
    pub content_size_bytes: u64,
    /// The current version.
    pub version_id: MemoryVersionId,
    /// Creation instant.
    pub created_at: Timestamp,
    /// Last change.
    pub updated_at: Timestamp,
}

/// What a mutation did.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionOperation {
    /// The memory was created (or restored after deletion).
    Created,
    /// Content or path changed.
    Modified,
    /// The memory was deleted.
    Deleted,
}

/// Who made a change.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Actor {
    /// A host API key.
    ApiActor {
        /// The key's id.
        api_key_id: String,
    },
    /// A workspace member acting directly.
    UserActor {
        /// The member's id.
        user_id: String,
    },
    /// An agent session through its mounts.
    SessionActor {
        /// The session.
        session_id: SessionId,
    },
}

/// An immutable snapshot written by a mutation.
///
/// A `deleted` version keeps `path` and has null content, hash and size; a redacted one has all
/// four null and `redacted_at` set.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryVersion {
    /// `memver_…`.
    pub id: MemoryVersionId,
    /// Always `"memory_version"`.
    #[serde(rename = "type")]
    pub kind: MemoryVersionTag,
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The memory.
    pub memory_id: StoreMemoryId,
    /// What the mutation did.
    pub operation: VersionOperation,
    /// The path after the mutation; null once redacted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub path: Option<StorePath>,
    /// The content after the mutation; null when deleted or redacted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub content: Option<String>,
    /// Hash of `content`; null when deleted or redacted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub content_sha256: Option<String>,
    /// Size of `content`; null when deleted or redacted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub content_size_bytes: Option<u64>,
    /// Who made the change.
    pub created_by: Actor,
    /// When.
    pub created_at: Timestamp,
    /// When redacted, or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub redacted_at: Option<Timestamp>,
}

impl MemoryVersion {
    /// A `created` or `modified` snapshot of `memory` (id, store, path and content).
    pub fn snapshot(
        id: MemoryVersionId,
        memory: &StoreMemory,
        operation: VersionOperation,
        created_by: Actor,
        at: Timestamp,
    ) -> Self {
        MemoryVersion {
            id,
            kind: MemoryVersionTag,
            memory_store_id: memory.memory_store_id.clone(),
            memory_id: memory.id.clone(),
            operation,
            path: Some(memory.path.clone()),
            content: Some(memory.content.clone()),
            content_sha256: Some(memory.content_sha256.clone()),
            content_size_bytes: Some(memory.content_size_bytes),
            created_by,
            created_at: at,
            redacted_at: None,
        }
    }

    /// A `deleted` version of `memory`: keeps the path, no content.
    pub fn deletion(
        id: MemoryVersionId,
        memory: &StoreMemory,
        created_by: Actor,
        at: Timestamp,
    ) -> Self {
        MemoryVersion {
            id,
            kind: MemoryVersionTag,
            memory_store_id: memory.memory_store_id.clone(),
            memory_id: memory.id.clone(),
            operation: VersionOperation::Deleted,
            path: Some(memory.path.clone()),
            content: None,
            content_sha256: None,
            content_size_bytes: None,
            created_by,
            created_at: at,
            redacted_at: None,
        }
    }

    /// True once redacted.
    pub fn is_redacted(&self) -> bool {
        self.redacted_at.is_some()
    }

    /// Redacts: clears path, content, hash and size. Idempotent: a second call keeps the first
    /// `redacted_at`. Returns true when this call changed the version.
    pub fn redact(&mut self, at: Timestamp) -> bool {
        if self.is_redacted() {
            return false;
        }
        self.path = None;
        self.content = None;
        self.content_sha256 = None;
        self.content_size_bytes = None;
        self.redacted_at = Some(at);
        true
    }

    /// The code refusing a restore of this version, if any (`MEMORY_VERSION_REDACTED` first,
    /// then `MEMORY_VERSION_NOT_RESTORABLE` for a `deleted` version).
    pub fn restore_refusal(&self) -> Option<crate::ErrorCode> {
        if self.is_redacted() {
            Some(crate::ErrorCode::MemoryVersionRedacted)
        } else if self.operation == VersionOperation::Deleted {
            Some(crate::ErrorCode::MemoryVersionNotRestorable)
        } else {
            None
        }
    }
}

/// An optimistic-concurrency precondition: `{"type":"content_sha256","content_sha256":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Precondition {
    /// The stored content must have this hash.
    ContentSha256 {
        /// Expected lowercase hex SHA-256.
        content_sha256: String,
    },
}

/// The schema of a [`Precondition`] (feature `openapi`), named `Precondition`: the derive of the
/// internally tagged enum would leave its fields open, so the one form is described as the closed
/// object it is on the wire. Described, never built.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(
    as = Precondition,
    description = "Write only if the stored content still has this hash"
)]
#[allow(dead_code)]
pub struct PreconditionSchema {
    r#type: ContentSha256Type,
    /// The stored content's expected lowercase hex SHA-256.
    #[schema(min_length = 64, max_length = 64, pattern = "^[0-9a-f]{64}$")]
    content_sha256: String,
}

/// `"type": "content_sha256"`.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[allow(dead_code)]
enum ContentSha256Type {
    #[serde(rename = "content_sha256")]
    ContentSha256,
}

impl Precondition {
    /// True when the stored content's hash satisfies the precondition.
    pub fn holds_for(&self, current_content_sha256: &str) -> bool {
        match self {
            Precondition::ContentSha256 { content_sha256 } => {
                content_sha256 == current_content_sha256
            }
        }
    }
}

/// `{"id": …, "type": "memory_store_deleted"}`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryStoreDeleted {
    /// The deleted store.
    pub id: MemoryStoreId,
    /// Always `"memory_store_deleted"`.
    #[serde(rename = "type")]
    pub kind: MemoryStoreDeletedTag,
}

impl MemoryStoreDeleted {
    /// The marker for `id`.
    pub fn new(id: MemoryStoreId) -> Self {
        MemoryStoreDeleted {
            id,
            kind: MemoryStoreDeletedTag,
        }
    }
}

/// `{"id": …, "type": "memory_deleted"}`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryDeleted {
    /// The deleted memory.
    pub id: StoreMemoryId,
    /// Always `"memory_deleted"`.
    #[serde(rename = "type")]
    pub kind: MemoryDeletedTag,
}

impl MemoryDeleted {
    /// The marker for `id`.
    pub fn new(id: StoreMemoryId) -> Self {
        MemoryDeleted {
            id,
            kind: MemoryDeletedTag,
        }
    }
}

/// One page of a memory-store list: `{"data": [...], "next_cursor": string|null}`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page<T> {
    /// The items.
    pub data: Vec<T>,
    /// Where the next page starts; null on the last page.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// The page of a list read with `limit + 1` items: the first `limit`, and a cursor after the
    /// last of them (made by `cursor`) when the read found more.
    pub fn from_one_more(
        mut data: Vec<T>,
        limit: usize,
        cursor: impl FnOnce(&T) -> String,
    ) -> Self {
        let more = data.len() > limit;
        data.truncate(limit);
        let next_cursor = if more { data.last().map(cursor) } else { None };
        Page { data, next_cursor }
    }
}

/// Smallest `limit` of a memory-store list.
pub const LIST_LIMIT_MIN: u32 = 1;
/// Largest `limit` of a memory-store list.
pub const LIST_LIMIT_MAX: u32 = 100;
/// `limit` of a memory-store list when none is given.
pub const LIST_LIMIT_DEFAULT: u32 = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(
            content_sha256(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert!(is_sha256_hex(&content_sha256("abc")));
        assert!(!is_sha256_hex(&content_sha256("abc").to_uppercase()));
    }

    #[test]
    fn percent_decoding_leaves_malformed_escapes() {
        assert_eq!(percent_decode_once(b"%2e%zz%2"), b".%zz%2");
        assert_eq!(percent_decode_once(b"a%2Fb"), b"a/b");
    }

    #[test]
    fn path_helpers() {
        let p = StorePath::parse("/notes/a.md").unwrap();
        assert_eq!(p.segments().collect::<Vec<_>>(), ["notes", "a.md"]);
        assert_eq!(p.file_name(), "a.md");
        assert_eq!(p.parent().unwrap().as_str(), "/notes");
        assert_eq!(StorePath::parse("/a").unwrap().parent(), None);
        assert_eq!(p.parent().unwrap().join("b").unwrap().as_str(), "/notes/b");
        assert!(p.parent().unwrap().join("..").is_err());
    }

    #[test]
    fn redaction_is_idempotent() {
        let memory = StoreMemory::new(
            StoreMemoryId::parse("mem_1").unwrap(),
            MemoryStoreId::parse("memstore_1").unwrap(),
            StorePath::parse("/a").unwrap(),
            "hello".into(),
            MemoryVersionId::parse("memver_1").unwrap(),
            Timestamp::UNIX_EPOCH,
        );
        let actor = Actor::UserActor {
            user_id: "u".into(),
        };
        let mut v = MemoryVersion::snapshot(
            memory.version_id.clone(),
            &memory,
            VersionOperation::Created,
            actor,
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!(v.restore_refusal(), None);
        assert!(v.redact(Timestamp::from_unix_seconds(5)));
        assert!(!v.redact(Timestamp::from_unix_seconds(9)));
        assert_eq!(v.redacted_at, Some(Timestamp::from_unix_seconds(5)));
        assert_eq!(
            v.restore_refusal(),
            Some(crate::ErrorCode::MemoryVersionRedacted)
        );
    }
}

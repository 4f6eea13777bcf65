//! Agent sessions: attached resources, mount paths and slugs, and the agent file-interface
//! objects.

use std::collections::BTreeSet;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::MemoryStoreTag;
pub use crate::store::SessionTag;
use crate::{MemoryStoreId, SessionId, Timestamp};

/// Where every memory-store mount lives: `/mnt/memory/`.
pub const MOUNT_ROOT: &str = "/mnt/memory/";
/// The client-side memory tool's root, naming the same mounts: `/memories/`.
pub const MEMORY_TOOL_ROOT: &str = "/memories/";
/// Most memory stores attached to one session.
pub const MAX_MEMORY_STORES_PER_SESSION: usize = 8;

/// How a session's agent may use an attached store.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Read and write (default).
    #[default]
    ReadWrite,
    /// Read only; writes answer `403 MEMORY_STORE_READ_ONLY`.
    ReadOnly,
}

impl Access {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Access::ReadWrite => "read_write",
            Access::ReadOnly => "read_only",
        }
    }
}

/// The slug of a store name: ASCII-lowercased, every run of characters other than `a-z0-9`
/// turned into one `-`, leading and trailing `-` trimmed, and `store` when nothing is left.
pub fn mount_slug(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let trimmed = slug.trim_matches('-');
    if trimmed.is_empty() {
        "store".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// Slugs for the stores of one session, in resource order: a slug already taken gets `-2`,
/// `-3`, … (the first free one).
pub fn assign_mount_slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken = BTreeSet::new();
    let mut slugs = Vec::new();
    for name in names {
        let base = mount_slug(name);
        let mut slug = base.clone();
        let mut n = 2u32;
        while taken.contains(&slug) {
            slug = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(slug.clone());
        slugs.push(slug);
    }
    slugs
}

/// The mount path of a slug: `/mnt/memory/<slug>/`.
pub fn mount_path(slug: &str) -> String {
    format!("{MOUNT_ROOT}{slug}/")
}

/// A memory store as attached to a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryStoreResource {
    /// The store.
    pub memory_store_id: MemoryStoreId,
    /// The agent's access.
    pub access: Access,
    /// Workspace-provided instructions for the agent, or null.
    pub instructions: Option<String>,
    /// `/mnt/memory/<slug>/`.
    pub mount_path: String,
}

impl MemoryStoreResource {
    /// The slug part of the mount path.
    pub fn slug(&self) -> &str {
        self.mount_path
            .strip_prefix(MOUNT_ROOT)
            .map(|s| s.trim_end_matches('/'))
            .unwrap_or_default()
    }
}

/// A resource of a session: a memory store, or another kind (`file`, `github_repository`, …)
/// kept exactly as given.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionResource {
    /// `{"type":"memory_store",…}`.
    MemoryStore(MemoryStoreResource),
    /// Any other resource object, untouched.
    Other(Value),
}

/// A resource as `sessions.create` / `sessions.resources.add` receive it.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceRequest {
    /// `{"type":"memory_store","memory_store_id":…,"access"?:…,"instructions"?:…}`.
    MemoryStore {
        /// The store to attach.
        memory_store_id: MemoryStoreId,
        /// The requested access (default `read_write`).
        access: Access,
        /// Instructions for the agent.
        instructions: Option<String>,
    },
    /// Any other resource object, kept as given.
    Other(Value),
}

#[derive(Serialize, Deserialize)]
struct MemoryStoreResourceWire {
    #[serde(rename = "type")]
    kind: MemoryStoreTag,
    memory_store_id: MemoryStoreId,
    access: Access,
    instructions: Option<String>,
    mount_path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourceRequestWire {
    #[serde(rename = "type")]
    _kind: MemoryStoreTag,
    memory_store_id: MemoryStoreId,
    #[serde(default)]
    access: Option<Access>,
    #[serde(default)]
    instructions: Option<String>,
}

/// Splits a resource object by its `type`: `Some` for a memory store, `None` for another kind.
fn resource_type<E: de::Error>(value: &Value) -> Result<bool, E> {
    match value.get("type").and_then(Value::as_str) {
        Some(kind) => Ok(kind == "memory_store"),
        None => Err(E::custom(
            "a resource must be an object with a string \"type\"",
        )),
    }
}

impl Serialize for SessionResource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            SessionResource::MemoryStore(r) => MemoryStoreResourceWire {
                kind: MemoryStoreTag,
                memory_store_id: r.memory_store_id.clone(),
                access: r.access,
                instructions: r.instructions.clone(),
                mount_path: r.mount_path.clone(),
            }
            .serialize(serializer),
            SessionResource::Other(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for SessionResource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if resource_type::<D::Error>(&value)? {
            let wire: MemoryStoreResourceWire =
                serde_json::from_value(value).map_err(de::Error::custom)?;
            Ok(SessionResource::MemoryStore(MemoryStoreResource {
                memory_store_id: wire.memory_store_id,
                access: wire.access,
                instructions: wire.instructions,
                mount_path: wire.mount_path,
            }))
        } else {
            Ok(SessionResource::Other(value))
        }
    }
}

impl<'de> Deserialize<'de> for ResourceRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if resource_type::<D::Error>(&value)? {
            let wire: ResourceRequestWire =
                serde_json::from_value(value).map_err(de::Error::custom)?;
            Ok(ResourceRequest::MemoryStore {
                memory_store_id: wire.memory_store_id,
                access: wire.access.unwrap_or_default(),
                instructions: wire.instructions,
            })
        } else {
            Ok(ResourceRequest::Other(value))
        }
    }
}

/// The schema of a resource other than a memory store (feature `openapi`): an object with a
/// string `type` that is not `memory_store`, any other fields kept as given. Described, never
/// built: such a resource is kept as the JSON it was sent as.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[schema(
    description = "A resource other than a memory store (file, github_repository, …), kept as given"
)]
#[allow(dead_code)]
pub struct OtherResource {
    /// Any `type` but `memory_store` (the pattern spells every other string without
    /// look-around, so that every regex dialect reads it alike).
    #[schema(
        pattern = r"^(?:[\s\S]{0,11}|[\s\S]{13,}|[^m][\s\S]{11}|m[^e][\s\S]{10}|me[^m][\s\S]{9}|mem[^o][\s\S]{8}|memo[^r][\s\S]{7}|memor[^y][\s\S]{6}|memory[^_][\s\S]{5}|memory_[^s][\s\S]{4}|memory_s[^t][\s\S]{3}|memory_st[^o][\s\S]{2}|memory_sto[^r][\s\S]{1}|memory_stor[^e][\s\S]{0})$"
    )]
    r#type: String,
}

/// The schema of a [`SessionResource`] (feature `openapi`), named `SessionResource`: an attached
/// memory store, or another resource kept as given. Described, never built.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(
    as = SessionResource,
    description = "A resource of a session: an attached memory store, or another resource kept as given"
)]
#[allow(dead_code)]
pub enum SessionResourceSchema {
    /// A memory store attached to the session.
    MemoryStore(AttachedStoreForm),
    /// Any other resource, kept as given.
    Other(OtherResource),
}

/// A memory store attached to a session, as a session lists it.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(description = "A memory store attached to the session")]
#[allow(dead_code)]
pub struct AttachedStoreForm {
    r#type: MemoryStoreTag,
    memory_store_id: MemoryStoreId,
    access: Access,
    /// Workspace-provided instructions for the agent, or null.
    #[schema(required = true, max_length = 4096)]
    instructions: Option<String>,
    /// `/mnt/memory/<slug>/`.
    #[schema(pattern = "^/mnt/memory/[a-z0-9-]+/$")]
    mount_path: String,
}

/// The schema of a [`ResourceRequest`] (feature `openapi`), named `ResourceRequest`: what a
/// `sessions.create` resource is read from. Described, never built.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(
    as = ResourceRequest,
    description = "A resource of sessions.create: a memory store to attach, or another resource kept as given"
)]
#[allow(dead_code)]
pub enum ResourceRequestSchema {
    /// Attaches a memory store.
    MemoryStore(RequestedStoreForm),
    /// Any other resource, kept as given.
    Other(OtherResource),
}

/// A memory store to attach, mounted at `/mnt/memory/<slug>/` (`access` defaults to
/// `read_write`).
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(
    description = "Attaches a memory store, mounted at /mnt/memory/<slug>/ (access defaults to read_write)"
)]
#[allow(dead_code)]
pub struct RequestedStoreForm {
    r#type: MemoryStoreTag,
    memory_store_id: MemoryStoreId,
    #[serde(default)]
    access: Option<Access>,
    /// Instructions for the agent.
    #[serde(default)]
    #[schema(max_length = 4096)]
    instructions: Option<String>,
}

/// An agent session with its resources.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// `sesn_…`.
    pub id: SessionId,
    /// Always `"session"`.
    #[serde(rename = "type")]
    pub kind: SessionTag,
    /// The agent as the host gave it, or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub agent: Option<Value>,
    /// Attached resources, in request order.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<SessionResourceSchema>))]
    pub resources: Vec<SessionResource>,
    /// Creation instant.
    pub created_at: Timestamp,
}

impl Session {
    /// The attached memory stores, in resource order.
    pub fn memory_stores(&self) -> impl Iterator<Item = &MemoryStoreResource> {
        self.resources.iter().filter_map(|r| match r {
            SessionResource::MemoryStore(m) => Some(m),
            SessionResource::Other(_) => None,
        })
    }

    /// The attached store mounted under `slug`.
    pub fn mount(&self, slug: &str) -> Option<&MemoryStoreResource> {
        self.memory_stores().find(|m| m.slug() == slug)
    }
}

/// One entry of `fs.list`: `{"name":…,"type":"dir"}` or `{"name":…,"type":"file","size":n}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FsEntry {
    /// An implicit directory (or a mount).
    Dir {
        /// The entry name.
        name: String,
    },
    /// A memory.
    File {
        /// The entry name.
        name: String,
        /// Content size in bytes.
        size: u64,
    },
}

impl FsEntry {
    /// The entry name.
    pub fn name(&self) -> &str {
        match self {
            FsEntry::Dir { name } | FsEntry::File { name, .. } => name,
        }
    }
}

/// The `fs.list` answer: `{"entries":[…]}`, sorted by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FsListing {
    /// The entries.
    pub entries: Vec<FsEntry>,
}

impl FsListing {
    /// A listing of `entries` sorted by name (bytes).
    pub fn sorted(mut entries: Vec<FsEntry>) -> Self {
        entries.sort_by(|a, b| a.name().cmp(b.name()));
        FsListing { entries }
    }
}

/// The `fs.read` answer: `{"content":…,"content_sha256":…}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FsRead {
    /// The memory's content.
    pub content: String,
    /// Its lowercase hex SHA-256.
    pub content_sha256: String,
}

/// A `{"text": …}` answer (`sessions.system_prompt`, the memory tool).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextAnswer {
    /// The text.
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_spec_examples() {
        assert_eq!(mount_slug("User Preferences"), "user-preferences");
        assert_eq!(mount_slug("user preferences!"), "user-preferences");
        assert_eq!(mount_slug("--Ünïcode__ 42--"), "n-code-42");
        assert_eq!(mount_slug("日本"), "store");
        assert_eq!(mount_slug(""), "store");
        assert_eq!(
            assign_mount_slugs([
                "User Preferences",
                "user preferences!",
                "x",
                "USER-preferences"
            ]),
            [
                "user-preferences",
                "user-preferences-2",
                "x",
                "user-preferences-3"
            ]
        );
        assert_eq!(mount_path("x"), "/mnt/memory/x/");
    }

    #[test]
    fn resource_requests_default_access() {
        let r: ResourceRequest =
            serde_json::from_str(r#"{"type":"memory_store","memory_store_id":"memstore_1"}"#)
                .unwrap();
        assert!(matches!(
            r,
            ResourceRequest::MemoryStore {
                access: Access::ReadWrite,
                ..
            }
        ));
        let other: ResourceRequest =
            serde_json::from_str(r#"{"type":"file","file_id":"f1","mount_path":"/x"}"#).unwrap();
        assert!(matches!(other, ResourceRequest::Other(_)));
        assert!(serde_json::from_str::<ResourceRequest>(r#"{"file_id":"f1"}"#).is_err());
    }
}

#[cfg(all(test, feature = "openapi"))]
mod schema_tests {
    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn another_resource_is_any_type_but_a_memory_store() {
        let schema = serde_json::to_value(OtherResource::schema()).unwrap();
        assert_eq!(
            schema["properties"]["type"]["pattern"],
            crate::schema::not_exactly(MemoryStoreTag::VALUE)
        );
    }
}

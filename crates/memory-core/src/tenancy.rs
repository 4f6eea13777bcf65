//! Who acts where: host-chosen workspace, member and credential ids, roles, scopes, workspace
//! settings and context sets.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Error;

macro_rules! host_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        ///
        /// Chosen by the host; any non-empty string. Compared by exact equality only.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// Wraps `id`; refused when empty.
            pub fn new(id: impl Into<String>) -> Result<Self, Error> {
                let id = id.into();
                if id.is_empty() {
                    return Err(Error::EmptyTenancyId($what));
                }
                Ok($name(id))
            }

            /// The id as a string.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The id as an owned string.
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = Error;

            fn try_from(id: String) -> Result<Self, Error> {
                Self::new(id)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = Error;

            fn try_from(id: &str) -> Result<Self, Error> {
                Self::new(id)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl FromStr for $name {
            type Err = Error;

            fn from_str(s: &str) -> Result<Self, Error> {
                Self::new(s)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

host_id!(
    /// A workspace: the tenancy boundary nothing crosses.
    WorkspaceId,
    "workspace"
);
host_id!(
    /// A member of a workspace; agent memories belong to members.
    MemberId,
    "member"
);
host_id!(
    /// A credential a member created for an agent.
    CredentialId,
    "credential"
);

/// A member's role in a workspace, lowest to highest: viewer < editor < admin < owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Reads.
    Viewer,
    /// Reads and writes.
    Editor,
    /// Administers the workspace.
    Admin,
    /// Owns the workspace; the only role holding `ask_history:manage`.
    Owner,
}

impl Role {
    /// Every role, lowest first.
    pub const ALL: [Role; 4] = [Role::Viewer, Role::Editor, Role::Admin, Role::Owner];

    /// The wire name: `viewer`, `editor`, `admin`, `owner`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Admin => "admin",
            Role::Owner => "owner",
        }
    }

    /// True for the owner, the only holder of `ask_history:manage`.
    pub const fn can_manage_ask_history(self) -> bool {
        matches!(self, Role::Owner)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or(Error::UnknownRole)
    }
}

/// A scope a credential can hold for agent memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Scope {
    /// `memory:read`: recall and list.
    #[serde(rename = "memory:read")]
    MemoryRead,
    /// `memory:write`: remember and forget.
    #[serde(rename = "memory:write")]
    MemoryWrite,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 2] = [Scope::MemoryRead, Scope::MemoryWrite];

    /// The wire name: `memory:read` or `memory:write`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::MemoryRead => "memory:read",
            Scope::MemoryWrite => "memory:write",
        }
    }

    /// The lowest role that may be granted, and may use, this scope.
    pub const fn min_role(self) -> Role {
        match self {
            Scope::MemoryRead => Role::Viewer,
            Scope::MemoryWrite => Role::Editor,
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Scope::ALL
            .into_iter()
            .find(|x| x.as_str() == s)
            .ok_or(Error::UnknownScope)
    }
}

/// Per-workspace agent-memory settings, `{"agentMemoriesEnabled":…,"retentionDays":…}`.
///
/// Deserializing refuses a `retentionDays` outside
/// [`RETENTION_DAYS_MIN`](Self::RETENTION_DAYS_MIN)..=[`RETENTION_DAYS_MAX`](Self::RETENTION_DAYS_MAX);
/// a missing field takes its default.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The workspace's agent-memory settings")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "RawSettings")]
pub struct Settings {
    /// Whether agents may use memories in the workspace (default false).
    pub agent_memories_enabled: bool,
    /// Days a memory version is kept (default 90).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 365))]
    pub retention_days: u16,
}

impl Settings {
    /// Shortest retention.
    pub const RETENTION_DAYS_MIN: u16 = 1;
    /// Longest retention.
    pub const RETENTION_DAYS_MAX: u16 = 365;
    /// Retention of a workspace that never set it.
    pub const RETENTION_DAYS_DEFAULT: u16 = 90;

    /// Settings with both fields given; refused when `retention_days` is out of bounds.
    pub fn new(agent_memories_enabled: bool, retention_days: u16) -> Result<Self, Error> {
        let settings = Settings {
            agent_memories_enabled,
            retention_days,
        };
        settings.validate()?;
        Ok(settings)
    }

    /// Checks the retention bounds.
    pub fn validate(&self) -> Result<(), Error> {
        if Self::retention_days_valid(self.retention_days) {
            Ok(())
        } else {
            Err(Error::RetentionDaysOutOfRange)
        }
    }

    /// True when `days` is within 1–365.
    pub const fn retention_days_valid(days: u16) -> bool {
        days >= Self::RETENTION_DAYS_MIN && days <= Self::RETENTION_DAYS_MAX
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            agent_memories_enabled: false,
            retention_days: Self::RETENTION_DAYS_DEFAULT,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSettings {
    #[serde(default)]
    agent_memories_enabled: bool,
    #[serde(default = "default_retention_days")]
    retention_days: u16,
}

fn default_retention_days() -> u16 {
    Settings::RETENTION_DAYS_DEFAULT
}

impl TryFrom<RawSettings> for Settings {
    type Error = Error;

    fn try_from(raw: RawSettings) -> Result<Self, Error> {
        Settings::new(raw.agent_memories_enabled, raw.retention_days)
    }
}

/// A context set: the collections and documents a bound credential is limited to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ContextSet {
    /// Collection ids; every document of a listed collection is inside.
    #[serde(default)]
    pub collections: BTreeSet<String>,
    /// Document ids listed one by one.
    #[serde(default)]
    pub documents: BTreeSet<String>,
}

impl ContextSet {
    /// A set of the given collections and documents.
    pub fn new<C, D>(collections: C, documents: D) -> Self
    where
        C: IntoIterator,
        C::Item: Into<String>,
        D: IntoIterator,
        D::Item: Into<String>,
    {
        ContextSet {
            collections: collections.into_iter().map(Into::into).collect(),
            documents: documents.into_iter().map(Into::into).collect(),
        }
    }

    /// True when the set lists `collection_id`.
    pub fn contains_collection(&self, collection_id: &str) -> bool {
        self.collections.contains(collection_id)
    }

    /// True when the document is listed itself, or its collection is listed.
    pub fn contains_document(&self, document_id: &str, collection_id: &str) -> bool {
        self.documents.contains(document_id) || self.collections.contains(collection_id)
    }
}

/// How a credential is bound to a context set, as the host reports it on every call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ContextBinding {
    /// Not bound: the member's whole access applies.
    #[default]
    Unbound,
    /// Bound to this set.
    Bound(ContextSet),
    /// Bound to a set that no longer exists: every context-set check refuses.
    Invalid,
}

impl ContextBinding {
    /// The bound set, when bound to a valid one.
    pub fn set(&self) -> Option<&ContextSet> {
        match self {
            ContextBinding::Bound(set) => Some(set),
            _ => None,
        }
    }

    /// True unless unbound.
    pub fn is_bound(&self) -> bool {
        !matches!(self, ContextBinding::Unbound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_order_and_parse() {
        assert!(Role::Viewer < Role::Editor && Role::Editor < Role::Admin);
        assert!(Role::Admin < Role::Owner);
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
        }
        assert_eq!("Owner".parse::<Role>(), Err(Error::UnknownRole));
    }

    #[test]
    fn scope_minimum_roles() {
        assert_eq!(Scope::MemoryRead.min_role(), Role::Viewer);
        assert_eq!(Scope::MemoryWrite.min_role(), Role::Editor);
        assert_eq!("memory:write".parse::<Scope>(), Ok(Scope::MemoryWrite));
    }

    #[test]
    fn empty_host_ids_are_refused() {
        assert!(WorkspaceId::new("").is_err());
        assert!(serde_json::from_str::<MemberId>("\"\"").is_err());
        assert_eq!(CredentialId::new("c").unwrap().as_str(), "c");
    }

    #[test]
    fn settings_defaults_and_bounds() {
        let s: Settings = serde_json::from_str("{}").unwrap();
        assert_eq!(s, Settings::default());
        assert!(!s.agent_memories_enabled);
        assert_eq!(s.retention_days, 90);
        assert!(serde_json::from_str::<Settings>(r#"{"retentionDays":0}"#).is_err());
        assert!(serde_json::from_str::<Settings>(r#"{"retentionDays":366}"#).is_err());
        assert!(serde_json::from_str::<Settings>(r#"{"retentionDays":365}"#).is_ok());
    }

    #[test]
    fn context_set_membership() {
        let set = ContextSet::new(["c1"], ["d9"]);
        assert!(set.contains_document("d1", "c1"));
        assert!(set.contains_document("d9", "c2"));
        assert!(!set.contains_document("d1", "c2"));
        assert!(set.contains_collection("c1") && !set.contains_collection("C1"));
    }
}

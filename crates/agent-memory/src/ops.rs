//! Operations as types: every operation of both products is a type implementing [`Operation`],
//! which names its service, its caller kind, its request and response types, its REST route
//! and its MCP tool where it has one, and holds its implementation. The typed methods of
//! [`MemoryService`] and [`StoreService`], the JSON edge ([`crate::json`]), a REST router, the
//! OpenAPI document and the MCP tools all call or read the same type, so an operation is
//! written once and an operation cannot be called with a caller of another kind.
//!
//! The trait and its parts live in `agent-memory-ops`, the memory-store operations in
//! `agent-memory-stores`; this module gathers them with the agent-memory operations, and
//! [`OperationName`] names every operation of both products.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::ops::{self, Body, Operation};
//! use agent_memory::{InMemoryPassageSource, MemberCaller, MemberId, MemoryService, Role, WorkspaceId};
//!
//! let service = MemoryService::builder(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(InMemoryPassageSource::new()),
//! )
//! .build()?;
//! let owner = MemberCaller {
//!     workspace: WorkspaceId::new("ws1")?,
//!     member: MemberId::new("olivia")?,
//!     role: Role::Owner,
//! };
//! let body = serde_json::json!({"retentionDays": 30});
//! // `ops::SettingsPut::Caller` is `MemberCaller`: an `AgentCaller` here would not compile.
//! let settings = ops::SettingsPut::run(&service, &owner, Body::Json(&body))?;
//! assert_eq!(settings.retention_days, 30);
//! assert_eq!(ops::SettingsPut::NAME, "settings.put");
//! assert_eq!(ops::SettingsPut::HTTP.map(|r| r.path), Some("/api/w/{ws_id}/ask-history/settings"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use agent_memory_ops::ops::*;
pub use agent_memory_stores::ops::*;

#[cfg(doc)]
use crate::{MemoryService, StoreService};

agent_memory_ops::operation_types! {
    /// Agent: store a memory.
    Remember,
    /// Agent: store up to 100 memories, each answered on its own.
    RememberBatch,
    /// Agent: rank memories for a query.
    Recall,
    /// Agent: page through memories.
    List,
    /// Agent: forget a memory or a key.
    Forget,
    /// Owner: read the workspace settings (the body is ignored).
    SettingsGet,
    /// Owner: change the workspace settings.
    SettingsPut,
    /// Member: list one's own memories.
    MemberList,
    /// Member: delete one or all of one's own memories.
    MemberDelete,
    /// Owner: delete every agent memory of the workspace (the body is ignored).
    OwnerDeleteAll,
}

/// Calls [`Visitor::visit`] with the type of an operation chosen at run time.
pub trait Visitor {
    /// What the visit answers.
    type Output;

    /// Visits the operation `O`.
    fn visit<O: Operation>(self) -> Self::Output;
}

macro_rules! operation_names {
    ($($op:ident,)*) => {
        /// An operation of either product by name, for hosts that pick it at run time (the
        /// replay runner, a JSON dispatcher); [`OperationName::visit`] leads to its type.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum OperationName {
            $(
                #[doc = concat!("[`", stringify!($op), "`]")]
                $op,
            )*
        }

        impl OperationName {
            /// Every operation.
            pub const ALL: &'static [OperationName] = &[$(OperationName::$op,)*];

            /// The operation's name ([`Operation::NAME`]).
            pub fn name(self) -> &'static str {
                match self {
                    $(OperationName::$op => <$op as Operation>::NAME,)*
                }
            }

            /// Who may call it ([`Operation::Caller`]'s kind).
            pub fn caller_kind(self) -> CallerKind {
                match self {
                    $(OperationName::$op => <<$op as Operation>::Caller as TypedCaller>::KIND,)*
                }
            }

            /// The operation named `name`, if there is one.
            pub fn from_name(name: &str) -> Option<OperationName> {
                OperationName::ALL.iter().copied().find(|op| op.name() == name)
            }

            /// Calls `visitor` with the operation's type.
            pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
                match self {
                    $(OperationName::$op => visitor.visit::<$op>(),)*
                }
            }

            /// Calls `visitor` with the operation's type, whose request and response the
            /// OpenAPI document describes (feature `openapi`).
            #[cfg(feature = "openapi")]
            pub fn visit_documented<V: crate::openapi::DocumentedVisitor>(
                self,
                visitor: V,
            ) -> V::Output {
                match self {
                    $(OperationName::$op => visitor.visit::<$op>(),)*
                }
            }
        }
    };
}

operation_names! {
    Remember,
    RememberBatch,
    Recall,
    List,
    Forget,
    SettingsGet,
    SettingsPut,
    MemberList,
    MemberDelete,
    OwnerDeleteAll,
    StoresCreate,
    StoresGet,
    StoresList,
    StoresUpdate,
    StoresArchive,
    StoresDelete,
    MemoriesCreate,
    MemoriesGet,
    MemoriesList,
    MemoriesUpdate,
    MemoriesDelete,
    MemoriesRestore,
    VersionsList,
    VersionsGet,
    VersionsRedact,
    SessionsCreate,
    SessionsResourcesAdd,
    SessionsSystemPrompt,
    FsList,
    FsRead,
    FsWrite,
    FsDelete,
    FsRename,
    MemoryTool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for &op in OperationName::ALL {
            assert_eq!(OperationName::from_name(op.name()), Some(op));
            assert!(seen.insert(op.name()));
        }
        assert_eq!(OperationName::from_name("nope"), None);
    }
}

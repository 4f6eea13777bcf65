//! Operations as types: every operation of both products is a type implementing [`Operation`],
//! which names its service, its caller kind, its request and response types, its REST route
//! and its MCP tool where it has one, and holds its implementation. The typed methods of
//! [`MemoryService`] and [`StoreService`], the JSON edge ([`crate::json`]), a REST router, the
//! OpenAPI document and the MCP tools all call or read the same type, so an operation is
//! written once and an operation cannot be called with a caller of another kind.
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

use governance_policy::Request;
use memory_core::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::Value;

use crate::caller::{AgentCaller, MemberCaller, SessionCaller, StoreCaller};
pub use crate::caller::{Caller, CallerKind};
pub use crate::input::{Body, Unreadable};
use crate::service::MemoryService;
use crate::stores::StoreService;

mod sealed {
    /// Keeps the set of operations, services and caller types this crate's own.
    pub trait Sealed {}
}

/// The service an operation runs on: [`MemoryService`] (agent memories) or [`StoreService`]
/// (memory stores).
pub trait Service: sealed::Sealed + Send + Sync + 'static {
    /// The code of an invalid request in this service's product.
    const INVALID_REQUEST: ErrorCode;

    /// This service out of a host's two (`None`: the host serves no memory stores).
    fn of<'a>(memories: &'a MemoryService, stores: Option<&'a StoreService>) -> Option<&'a Self>;
}

impl sealed::Sealed for MemoryService {}
impl Service for MemoryService {
    const INVALID_REQUEST: ErrorCode = ErrorCode::AgentMemoryInvalidRequest;

    fn of<'a>(memories: &'a MemoryService, _: Option<&'a StoreService>) -> Option<&'a Self> {
        Some(memories)
    }
}

impl sealed::Sealed for StoreService {}
impl Service for StoreService {
    const INVALID_REQUEST: ErrorCode = ErrorCode::MemoryInvalidRequest;

    fn of<'a>(_: &'a MemoryService, stores: Option<&'a StoreService>) -> Option<&'a Self> {
        stores
    }
}

/// A caller type: [`AgentCaller`], [`MemberCaller`], [`StoreCaller`] or [`SessionCaller`].
pub trait TypedCaller: sealed::Sealed + Send + Sync + 'static {
    /// The kind this type is.
    const KIND: CallerKind;

    /// The caller behind `caller` when it is of this kind.
    fn from_dyn<'a>(caller: Caller<'a>) -> Option<&'a Self>;
}

macro_rules! typed_callers {
    ($($kind:ident => $type:ty,)*) => {$(
        impl sealed::Sealed for $type {}
        impl TypedCaller for $type {
            const KIND: CallerKind = CallerKind::$kind;

            fn from_dyn<'a>(caller: Caller<'a>) -> Option<&'a Self> {
                match caller {
                    Caller::$kind(c) => Some(c),
                    _ => None,
                }
            }
        }
    )*};
}

typed_callers! {
    Agent => AgentCaller,
    Member => MemberCaller,
    Store => StoreCaller,
    Session => SessionCaller,
}

/// The HTTP methods of the REST routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpMethod {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `DELETE`
    Delete,
}

impl HttpMethod {
    /// The lower-case name OpenAPI uses (`get`, `post`, …).
    pub fn name(self) -> &'static str {
        match self {
            HttpMethod::Get => "get",
            HttpMethod::Post => "post",
            HttpMethod::Put => "put",
            HttpMethod::Delete => "delete",
        }
    }
}

/// Where a REST route's input comes from besides the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpInput {
    /// A JSON object in the body.
    Body,
    /// The query string (`GET` lists).
    Query,
    /// Nothing (the path says everything).
    None,
}

/// The REST route of an operation. Path parameters other than `{ws_id}` (which names the
/// workspace of a [`MemberCaller`]) are fields of the request; the router puts them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpRoute {
    /// The method.
    pub method: HttpMethod,
    /// The path in axum's syntax (`/v1/memory_stores/{memory_store_id}`).
    pub path: &'static str,
    /// Where the input comes from.
    pub input: HttpInput,
    /// One line for the OpenAPI document.
    pub summary: &'static str,
}

/// One operation of either product. Implemented by the unit types of this module only.
pub trait Operation: sealed::Sealed + Sized + 'static {
    /// The name the replay runner, the JSON edge and the logs use (`remember`, `stores.create`).
    const NAME: &'static str;
    /// The REST route, for the operations that have one.
    const HTTP: Option<HttpRoute> = None;
    /// The MCP tool name, for the operations that are a tool of the agent-memory MCP server.
    const MCP_TOOL: Option<&'static str> = None;
    /// The service it runs on.
    type Service: Service;
    /// Who may call it.
    type Caller: TypedCaller;
    /// Its request.
    type Request: Request + Clone;
    /// Its response, serialized exactly as the REST response body.
    type Response: Serialize + Send + 'static;

    /// The operation itself, in the spec's order of checks; the request is read at step 5.
    fn execute(
        service: &Self::Service,
        caller: &Self::Caller,
        request: Body<'_, Self::Request>,
    ) -> Result<Self::Response, ApiError>;

    /// Traces the answer: ids and counts, or the refusal's code; never content.
    fn trace(caller: &Self::Caller, result: &Result<Self::Response, ApiError>) {
        let _ = (caller, result);
    }

    /// Runs the operation and traces its answer.
    fn run(
        service: &Self::Service,
        caller: &Self::Caller,
        request: Body<'_, Self::Request>,
    ) -> Result<Self::Response, ApiError> {
        let result = Self::execute(service, caller, request);
        Self::trace(caller, &result);
        result
    }

    /// A body of this operation that could not be read (not JSON, or a broken query string):
    /// refused with the product's invalid-request error once the caller's access is settled.
    fn unreadable<'a>() -> Body<'a, Self::Request> {
        Body::Unreadable(Unreadable(<Self::Service as Service>::INVALID_REQUEST))
    }
}

/// The request of an operation that reads none (`settings.get`, `agentMemories.deleteAll`): any
/// body is ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoRequest;

impl Request for NoRequest {
    fn from_json(_: &Value) -> Result<Self, ApiError> {
        Ok(NoRequest)
    }

    fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

/// The memory tool's input as the model sent it: its command decides which fields it takes, and
/// [`StoreService::memory_tool`] reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInput(pub Value);

impl Request for ToolInput {
    fn from_json(value: &Value) -> Result<Self, ApiError> {
        Ok(ToolInput(value.clone()))
    }

    fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

/// Calls [`Visitor::visit`] with the type of an operation chosen at run time.
pub trait Visitor {
    /// What the visit answers.
    type Output;

    /// Visits the operation `O`.
    fn visit<O: Operation>(self) -> Self::Output;
}

macro_rules! operations {
    ($($(#[$doc:meta])* $op:ident,)*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct $op;
            impl sealed::Sealed for $op {}
        )*

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
        }
    };
}

operations! {
    /// Agent: store a memory.
    Remember,
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
    /// Memory stores: create a store.
    StoresCreate,
    /// Memory stores: read a store.
    StoresGet,
    /// Memory stores: page through the stores.
    StoresList,
    /// Memory stores: rename or describe a store.
    StoresUpdate,
    /// Memory stores: make a store read-only.
    StoresArchive,
    /// Memory stores: delete a store with its memories and versions.
    StoresDelete,
    /// Memory stores: create a memory.
    MemoriesCreate,
    /// Memory stores: read a memory.
    MemoriesGet,
    /// Memory stores: page through a store's memories by path.
    MemoriesList,
    /// Memory stores: change a memory's content or path.
    MemoriesUpdate,
    /// Memory stores: delete a memory.
    MemoriesDelete,
    /// Memory stores: bring back a version's content and path.
    MemoriesRestore,
    /// Memory stores: page through versions.
    VersionsList,
    /// Memory stores: read a version.
    VersionsGet,
    /// Memory stores: erase a version's content.
    VersionsRedact,
    /// Memory stores: create a session with stores mounted.
    SessionsCreate,
    /// Memory stores: add a resource other than a store to a session.
    SessionsResourcesAdd,
    /// Memory stores: the system-prompt text of a session's mounts.
    SessionsSystemPrompt,
    /// Agent file interface: list a directory of the mounts.
    FsList,
    /// Agent file interface: read a file.
    FsRead,
    /// Agent file interface: create or update a file.
    FsWrite,
    /// Agent file interface: delete a file.
    FsDelete,
    /// Agent file interface: move a file within its mount.
    FsRename,
    /// The client-side memory tool's commands (the body is the tool input).
    MemoryTool,
}

/// A shorthand for the operations' REST routes.
pub(crate) const fn route(
    method: HttpMethod,
    path: &'static str,
    input: HttpInput,
    summary: &'static str,
) -> Option<HttpRoute> {
    Some(HttpRoute {
        method,
        path,
        input,
        summary,
    })
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

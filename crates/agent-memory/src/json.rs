//! The JSON edge of both products: one entry point that takes an operation, its caller and its
//! JSON body, and answers with the JSON response or the error body — for REST hosts, MCP
//! servers and the replay runner. It reads bodies with the same field rules as the typed API
//! (at the same step of the order of checks) and calls the typed methods' implementation, so the
//! JSON contract and the Rust API cannot drift apart.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::json::{Caller, JsonApi, Operation};
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
//! let api = JsonApi::new(&service);
//! let op = Operation::from_name("settings.put").ok_or("unknown operation")?;
//! let answer = api.answer(op, Caller::Member(&owner), &serde_json::json!({"retentionDays": 30}));
//! assert_eq!(answer.status, 200);
//! assert_eq!(answer.body["retentionDays"], 30);
//! let refused = api.answer(op, Caller::Member(&owner), &serde_json::json!({"retentionDays": 0}));
//! assert_eq!(refused.status, 400);
//! assert_eq!(refused.body["error"]["code"], "AGENT_MEMORY_INVALID_REQUEST");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use memory_core::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::Value;

use crate::caller::{AgentCaller, MemberCaller};
use crate::input::Input;
use crate::service::MemoryService;
use crate::stores::{SessionCaller, StoreCaller, StoreService};

macro_rules! operations {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// An operation of either product, named as the replay runner and the REST mapping name
        /// it (`remember`, `settings.put`, `stores.create`, …).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Operation {
            $($(#[$doc])* $variant,)*
        }

        impl Operation {
            /// Every operation.
            pub const ALL: &'static [Operation] = &[$(Operation::$variant,)*];

            /// The operation's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Operation::$variant => $name,)*
                }
            }

            /// The operation named `name`, if there is one.
            pub fn from_name(name: &str) -> Option<Operation> {
                match name {
                    $($name => Some(Operation::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

operations! {
    /// Agent: store a memory (`AgentCaller`).
    Remember = "remember",
    /// Agent: rank memories for a query (`AgentCaller`).
    Recall = "recall",
    /// Agent: page through memories (`AgentCaller`).
    List = "list",
    /// Agent: forget a memory or a key (`AgentCaller`).
    Forget = "forget",
    /// Owner: read the workspace settings (`MemberCaller`; the body is ignored).
    SettingsGet = "settings.get",
    /// Owner: change the workspace settings (`MemberCaller`).
    SettingsPut = "settings.put",
    /// Member: list one's own memories (`MemberCaller`).
    MemberList = "agentMemories.list",
    /// Member: delete one or all of one's own memories (`MemberCaller`).
    MemberDelete = "agentMemories.delete",
    /// Owner: delete every agent memory of the workspace (`MemberCaller`; the body is ignored).
    OwnerDeleteAll = "agentMemories.deleteAll",
    /// Memory stores: create a store (`StoreCaller`).
    StoresCreate = "stores.create",
    /// Memory stores: read a store (`StoreCaller`).
    StoresGet = "stores.get",
    /// Memory stores: page through the stores (`StoreCaller`).
    StoresList = "stores.list",
    /// Memory stores: rename or describe a store (`StoreCaller`).
    StoresUpdate = "stores.update",
    /// Memory stores: make a store read-only (`StoreCaller`).
    StoresArchive = "stores.archive",
    /// Memory stores: delete a store with its memories and versions (`StoreCaller`).
    StoresDelete = "stores.delete",
    /// Memory stores: create a memory (`StoreCaller`).
    MemoriesCreate = "memories.create",
    /// Memory stores: read a memory (`StoreCaller`).
    MemoriesGet = "memories.get",
    /// Memory stores: page through a store's memories by path (`StoreCaller`).
    MemoriesList = "memories.list",
    /// Memory stores: change a memory's content or path (`StoreCaller`).
    MemoriesUpdate = "memories.update",
    /// Memory stores: delete a memory (`StoreCaller`).
    MemoriesDelete = "memories.delete",
    /// Memory stores: bring back a version's content and path (`StoreCaller`).
    MemoriesRestore = "memories.restore",
    /// Memory stores: page through versions (`StoreCaller`).
    VersionsList = "versions.list",
    /// Memory stores: read a version (`StoreCaller`).
    VersionsGet = "versions.get",
    /// Memory stores: erase a version's content (`StoreCaller`).
    VersionsRedact = "versions.redact",
    /// Memory stores: create a session with stores mounted (`StoreCaller`).
    SessionsCreate = "sessions.create",
    /// Memory stores: add a resource other than a store to a session (`StoreCaller`).
    SessionsResourcesAdd = "sessions.resources.add",
    /// Memory stores: the system-prompt text of a session's mounts (`StoreCaller`).
    SessionsSystemPrompt = "sessions.system_prompt",
    /// Agent file interface: list a directory of the mounts (`SessionCaller`).
    FsList = "fs.list",
    /// Agent file interface: read a file (`SessionCaller`).
    FsRead = "fs.read",
    /// Agent file interface: create or update a file (`SessionCaller`).
    FsWrite = "fs.write",
    /// Agent file interface: delete a file (`SessionCaller`).
    FsDelete = "fs.delete",
    /// Agent file interface: move a file within its mount (`SessionCaller`).
    FsRename = "fs.rename",
    /// The client-side memory tool's commands (`SessionCaller`; the body is the tool input).
    MemoryTool = "memory_tool",
}

/// Who calls an operation: the kind each operation expects is named on its variant.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// An agent's credential, resolved by the host (or not).
    Agent(&'a AgentCaller),
    /// A workspace member, for member and owner operations.
    Member(&'a MemberCaller),
    /// A member or API key acting on memory stores.
    Store(&'a StoreCaller),
    /// An agent session with memory stores attached.
    Session(&'a SessionCaller),
}

/// An answer in HTTP terms: the status and the JSON body (the response, or `{"error": …}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The response body.
    pub body: Value,
}

impl JsonAnswer {
    /// The answer to a result: `200` and the response, or the error's status and body.
    pub fn from_result(result: Result<Value, ApiError>) -> JsonAnswer {
        match result {
            Ok(body) => JsonAnswer { status: 200, body },
            Err(err) => JsonAnswer {
                status: err.http_status(),
                body: error_body(&err),
            },
        }
    }
}

/// The error body `{"error": {"code", "message", …}}` of `err`.
pub fn error_body(err: &ApiError) -> Value {
    serde_json::to_value(err).unwrap_or_else(|_| serde_json::json!({"error": {}}))
}

/// The services the JSON edge serves.
#[derive(Clone, Copy)]
pub struct JsonApi<'a> {
    memories: &'a MemoryService,
    stores: Option<&'a StoreService>,
}

impl<'a> JsonApi<'a> {
    /// The agent-memory operations of `memories`.
    pub fn new(memories: &'a MemoryService) -> Self {
        JsonApi {
            memories,
            stores: None,
        }
    }

    /// Also serves the memory-store operations of `stores`.
    pub fn with_stores(mut self, stores: &'a StoreService) -> Self {
        self.stores = Some(stores);
        self
    }

    /// Runs `operation` for `caller` on the JSON `body`: the response as JSON, or the error.
    pub fn call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let m = self.memories;
        match (operation, caller) {
            (Operation::Remember, Caller::Agent(c)) => {
                to_json(m.remember_input(c, Input::Json(body)))
            }
            (Operation::Recall, Caller::Agent(c)) => to_json(m.recall_input(c, Input::Json(body))),
            (Operation::List, Caller::Agent(c)) => to_json(m.list_input(c, Input::Json(body))),
            (Operation::Forget, Caller::Agent(c)) => to_json(m.forget_input(c, Input::Json(body))),
            (Operation::SettingsGet, Caller::Member(c)) => to_json(m.settings_get(c)),
            (Operation::SettingsPut, Caller::Member(c)) => {
                to_json(m.settings_put_input(c, Input::Json(body)))
            }
            (Operation::MemberList, Caller::Member(c)) => {
                to_json(m.member_list_input(c, Input::Json(body)))
            }
            (Operation::MemberDelete, Caller::Member(c)) => {
                to_json(m.member_delete_input(c, Input::Json(body)))
            }
            (Operation::OwnerDeleteAll, Caller::Member(c)) => to_json(m.owner_delete_all(c)),
            (operation, caller) => self.store_call(operation, caller, body),
        }
    }

    /// [`JsonApi::call`] as an HTTP-shaped answer.
    pub fn answer(&self, operation: Operation, caller: Caller<'_>, body: &Value) -> JsonAnswer {
        JsonAnswer::from_result(self.call(operation, caller, body))
    }

    fn store_call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        // Looked up per arm, so that an agent operation with a store caller is still a wrong
        // caller, not a service the host forgot.
        let s = || self.stores.ok_or_else(|| not_served(operation));
        match (operation, caller) {
            (Operation::StoresCreate, Caller::Store(c)) => {
                to_json(s()?.stores_create_input(c, Input::Json(body)))
            }
            (Operation::StoresGet, Caller::Store(c)) => {
                to_json(s()?.stores_get_input(c, Input::Json(body)))
            }
            (Operation::StoresList, Caller::Store(c)) => {
                to_json(s()?.stores_list_input(c, Input::Json(body)))
            }
            (Operation::StoresUpdate, Caller::Store(c)) => {
                to_json(s()?.stores_update_input(c, Input::Json(body)))
            }
            (Operation::StoresArchive, Caller::Store(c)) => {
                to_json(s()?.stores_archive_input(c, Input::Json(body)))
            }
            (Operation::StoresDelete, Caller::Store(c)) => {
                to_json(s()?.stores_delete_input(c, Input::Json(body)))
            }
            (Operation::MemoriesCreate, Caller::Store(c)) => {
                to_json(s()?.memories_create_input(c, Input::Json(body)))
            }
            (Operation::MemoriesGet, Caller::Store(c)) => {
                to_json(s()?.memories_get_input(c, Input::Json(body)))
            }
            (Operation::MemoriesList, Caller::Store(c)) => {
                to_json(s()?.memories_list_input(c, Input::Json(body)))
            }
            (Operation::MemoriesUpdate, Caller::Store(c)) => {
                to_json(s()?.memories_update_input(c, Input::Json(body)))
            }
            (Operation::MemoriesDelete, Caller::Store(c)) => {
                to_json(s()?.memories_delete_input(c, Input::Json(body)))
            }
            (Operation::MemoriesRestore, Caller::Store(c)) => {
                to_json(s()?.memories_restore_input(c, Input::Json(body)))
            }
            (Operation::VersionsList, Caller::Store(c)) => {
                to_json(s()?.versions_list_input(c, Input::Json(body)))
            }
            (Operation::VersionsGet, Caller::Store(c)) => {
                to_json(s()?.versions_get_input(c, Input::Json(body)))
            }
            (Operation::VersionsRedact, Caller::Store(c)) => {
                to_json(s()?.versions_redact_input(c, Input::Json(body)))
            }
            (Operation::SessionsCreate, Caller::Store(c)) => {
                to_json(s()?.sessions_create_input(c, Input::Json(body)))
            }
            (Operation::SessionsResourcesAdd, Caller::Store(c)) => {
                to_json(s()?.sessions_resources_add_input(c, Input::Json(body)))
            }
            (Operation::SessionsSystemPrompt, Caller::Store(c)) => {
                to_json(s()?.sessions_system_prompt_input(c, Input::Json(body)))
            }
            (Operation::FsList, Caller::Session(c)) => {
                to_json(s()?.fs_list_input(c, Input::Json(body)))
            }
            (Operation::FsRead, Caller::Session(c)) => {
                to_json(s()?.fs_read_input(c, Input::Json(body)))
            }
            (Operation::FsWrite, Caller::Session(c)) => {
                to_json(s()?.fs_write_input(c, Input::Json(body)))
            }
            (Operation::FsDelete, Caller::Session(c)) => {
                to_json(s()?.fs_delete_input(c, Input::Json(body)))
            }
            (Operation::FsRename, Caller::Session(c)) => {
                to_json(s()?.fs_rename_input(c, Input::Json(body)))
            }
            (Operation::MemoryTool, Caller::Session(c)) => to_json(s()?.memory_tool(c, body)),
            (operation, caller) => Err(wrong_caller(operation, caller)),
        }
    }
}

/// A host passed a caller of another kind than the operation takes: a programming error of the
/// host, answered as an internal error naming no content.
fn wrong_caller(operation: Operation, caller: Caller<'_>) -> ApiError {
    let kind = match caller {
        Caller::Agent(_) => "agent",
        Caller::Member(_) => "member",
        Caller::Store(_) => "store",
        Caller::Session(_) => "session",
    };
    tracing::error!(
        operation = operation.name(),
        caller = kind,
        "the host called an operation with a caller of another kind"
    );
    ApiError::new(
        ErrorCode::InternalError,
        "the operation was called with a caller of another kind",
    )
}

/// A host asked for a memory-store operation of a [`JsonApi`] built without
/// [`JsonApi::with_stores`]: a programming error of the host, like [`wrong_caller`].
fn not_served(operation: Operation) -> ApiError {
    tracing::error!(
        operation = operation.name(),
        "the host called a memory-store operation without serving the stores"
    );
    ApiError::new(
        ErrorCode::InternalError,
        "the memory-store operations are not served here",
    )
}

/// A response as JSON.
pub(crate) fn to_json<T: Serialize>(result: Result<T, ApiError>) -> Result<Value, ApiError> {
    let response = result?;
    serde_json::to_value(&response).map_err(|_| {
        ApiError::new(
            ErrorCode::InternalError,
            "a response could not be serialized",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for &op in Operation::ALL {
            assert_eq!(Operation::from_name(op.name()), Some(op));
            assert!(seen.insert(op.name()));
        }
        assert_eq!(Operation::from_name("nope"), None);
    }
}

//! The route table: every REST route of both products, once. The router is built from it and so
//! is the OpenAPI document, so a route cannot exist without its documentation or the other way
//! round (`tests/it/openapi.rs` checks the served router against the served document).

use agent_memory::StoreMemory;
use agent_memory::json::Operation;
use axum::http::Method;
use governance_policy::limits::{
    CITATIONS_MAX, COLLECTION_ID_MAX_CHARS, CURSOR_MAX_CHARS, KEY_MAX_CHARS, NAMESPACE_MAX_CHARS,
    PASSAGE_ID_MAX_CHARS, QUERY_MAX_CHARS, TEXT_MAX_CHARS,
};

/// Who may call a route, and how the router finds out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallerKind {
    /// An agent's credential ([`Authenticator::agent`](crate::Authenticator::agent)).
    Agent,
    /// A signed-in member of the workspace named by the path's `{ws_id}`
    /// ([`Authenticator::member`](crate::Authenticator::member)).
    Member,
    /// A member or host API key acting on memory stores
    /// ([`Authenticator::store`](crate::Authenticator::store)).
    Store,
}

impl CallerKind {
    /// `agent`, `member` or `store`: the caller kind a request log names.
    pub fn name(self) -> &'static str {
        match self {
            CallerKind::Agent => "agent",
            CallerKind::Member => "member",
            CallerKind::Store => "store",
        }
    }
}

/// Where an operation's input comes from besides the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A JSON object in the body.
    Body,
    /// The query string (`GET` lists).
    Query,
    /// Nothing (the path says everything).
    None,
}

/// One REST route.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The HTTP method.
    pub method: RouteMethod,
    /// The path in axum's syntax (`/v1/memory_stores/{memory_store_id}`).
    pub path: &'static str,
    /// The facade operation it calls.
    pub operation: Operation,
    /// Who may call it.
    pub caller: CallerKind,
    /// Where its input comes from.
    pub input: Input,
    /// The largest body accepted, in bytes; past it the answer is `413` before anything is read.
    pub body_limit: usize,
    /// One line for the OpenAPI document.
    pub summary: &'static str,
}

/// The methods the routes use (a `Copy` stand-in for [`Method`] in a `const` table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RouteMethod {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `DELETE`
    Delete,
}

impl RouteMethod {
    /// The [`Method`].
    pub fn method(self) -> Method {
        match self {
            RouteMethod::Get => Method::GET,
            RouteMethod::Post => Method::POST,
            RouteMethod::Put => Method::PUT,
            RouteMethod::Delete => Method::DELETE,
        }
    }

    /// The lower-case name OpenAPI uses.
    pub fn name(self) -> &'static str {
        match self {
            RouteMethod::Get => "get",
            RouteMethod::Post => "post",
            RouteMethod::Put => "put",
            RouteMethod::Delete => "delete",
        }
    }
}

/// JSON escapes one character in at most 12 bytes (`\uXXXX\uXXXX` for a surrogate pair), so
/// a body whose strings are all at their longest fits in 12 bytes per character plus the field
/// names and punctuation (well under 4 KiB for any operation).
const ESCAPED: usize = 12;
const STRUCTURE: usize = 4 * 1024;

const REMEMBER_CHARS: usize = NAMESPACE_MAX_CHARS
    + TEXT_MAX_CHARS
    + KEY_MAX_CHARS
    + COLLECTION_ID_MAX_CHARS
    + CITATIONS_MAX * PASSAGE_ID_MAX_CHARS;
/// Recall's and list's strings together (list has a cursor instead of a query; both fit).
const READ_CHARS: usize =
    QUERY_MAX_CHARS + NAMESPACE_MAX_CHARS + COLLECTION_ID_MAX_CHARS + CURSOR_MAX_CHARS;

/// The largest valid agent-memory body: the longer of remember and of recall or list with every
/// string at its longest and fully escaped (forget's id or key is shorter).
pub const AGENT_BODY_LIMIT: usize = ESCAPED
    * if REMEMBER_CHARS > READ_CHARS {
        REMEMBER_CHARS
    } else {
        READ_CHARS
    }
    + STRUCTURE;

/// The largest memory-store content is 102,400 bytes of UTF-8; escaped, at most 6 bytes per
/// byte (`\u0000` for a control byte), plus a path and a precondition hash.
pub const CONTENT_BODY_LIMIT: usize = 6 * StoreMemory::CONTENT_MAX_BYTES + 16 * 1024;

/// Member and owner bodies and the memory-store bodies without content (names, descriptions,
/// session resources, instructions).
pub const SMALL_BODY_LIMIT: usize = 64 * 1024;

macro_rules! route {
    ($method:ident $path:literal => $op:ident, $caller:ident, $input:ident, $limit:expr, $summary:literal) => {
        Route {
            method: RouteMethod::$method,
            path: $path,
            operation: Operation::$op,
            caller: CallerKind::$caller,
            input: Input::$input,
            body_limit: $limit,
            summary: $summary,
        }
    };
}

/// Every route, in the order of `docs/http.md`.
pub const ROUTES: &[Route] = &[
    route!(Post "/api/agent/v1/memories/remember" => Remember, Agent, Body, AGENT_BODY_LIMIT,
        "Store a memory for the credential's member (the text is masked first)"),
    route!(Post "/api/agent/v1/memories/recall" => Recall, Agent, Body, AGENT_BODY_LIMIT,
        "Rank the member's memories for a query"),
    route!(Post "/api/agent/v1/memories/list" => List, Agent, Body, AGENT_BODY_LIMIT,
        "Page through the member's memories, newest first"),
    route!(Post "/api/agent/v1/memories/forget" => Forget, Agent, Body, AGENT_BODY_LIMIT,
        "Forget a memory by id, or every version of a key"),
    route!(Get "/api/w/{ws_id}/ask-history/settings" => SettingsGet, Member, None, 0,
        "Read the workspace's agent-memory settings (owner)"),
    route!(Put "/api/w/{ws_id}/ask-history/settings" => SettingsPut, Member, Body, SMALL_BODY_LIMIT,
        "Change the workspace's agent-memory settings (owner)"),
    route!(Delete "/api/w/{ws_id}/ask-history/settings/agent-memories" => OwnerDeleteAll, Member, None, 0,
        "Delete every agent memory of the workspace (owner)"),
    route!(Get "/api/w/{ws_id}/ask-history/agent-memories" => MemberList, Member, Query, 0,
        "List the signed-in member's own memories"),
    route!(Delete "/api/w/{ws_id}/ask-history/agent-memories" => MemberDelete, Member, Body, SMALL_BODY_LIMIT,
        "Delete one or all of the signed-in member's own memories"),
    route!(Post "/v1/memory_stores" => StoresCreate, Store, Body, SMALL_BODY_LIMIT,
        "Create a memory store"),
    route!(Get "/v1/memory_stores" => StoresList, Store, Query, 0,
        "Page through the workspace's memory stores"),
    route!(Get "/v1/memory_stores/{memory_store_id}" => StoresGet, Store, None, 0,
        "Read a memory store"),
    route!(Post "/v1/memory_stores/{memory_store_id}" => StoresUpdate, Store, Body, SMALL_BODY_LIMIT,
        "Rename or describe a memory store"),
    route!(Post "/v1/memory_stores/{memory_store_id}/archive" => StoresArchive, Store, None, 0,
        "Make a memory store read-only"),
    route!(Delete "/v1/memory_stores/{memory_store_id}" => StoresDelete, Store, None, 0,
        "Delete a memory store with its memories and versions"),
    route!(Post "/v1/memory_stores/{memory_store_id}/memories" => MemoriesCreate, Store, Body, CONTENT_BODY_LIMIT,
        "Create a memory (a text file at a path)"),
    route!(Get "/v1/memory_stores/{memory_store_id}/memories" => MemoriesList, Store, Query, 0,
        "Page through a store's memories by path"),
    route!(Get "/v1/memory_stores/{memory_store_id}/memories/{memory_id}" => MemoriesGet, Store, None, 0,
        "Read a memory"),
    route!(Post "/v1/memory_stores/{memory_store_id}/memories/{memory_id}" => MemoriesUpdate, Store, Body, CONTENT_BODY_LIMIT,
        "Change a memory's content or path"),
    route!(Delete "/v1/memory_stores/{memory_store_id}/memories/{memory_id}" => MemoriesDelete, Store, Body, SMALL_BODY_LIMIT,
        "Delete a memory"),
    route!(Post "/v1/memory_stores/{memory_store_id}/memories/{memory_id}/restore" => MemoriesRestore, Store, Body, SMALL_BODY_LIMIT,
        "Bring back a version's content and path"),
    route!(Get "/v1/memory_stores/{memory_store_id}/memory_versions" => VersionsList, Store, Query, 0,
        "Page through a store's versions, newest first"),
    route!(Get "/v1/memory_stores/{memory_store_id}/memory_versions/{version_id}" => VersionsGet, Store, None, 0,
        "Read a version"),
    route!(Post "/v1/memory_stores/{memory_store_id}/memory_versions/{version_id}/redact" => VersionsRedact, Store, None, 0,
        "Erase a version's content"),
    route!(Post "/v1/sessions" => SessionsCreate, Store, Body, SMALL_BODY_LIMIT,
        "Create an agent session with memory stores mounted"),
    route!(Post "/v1/sessions/{session_id}/resources" => SessionsResourcesAdd, Store, Body, SMALL_BODY_LIMIT,
        "Add a resource other than a memory store to a session"),
    route!(Get "/v1/sessions/{session_id}/system_prompt" => SessionsSystemPrompt, Store, None, 0,
        "The system-prompt text describing a session's mounts"),
];

/// The query parameters that are integers or booleans on the wire of the JSON edge; every other
/// parameter is a string.
pub(crate) fn query_value(name: &str, raw: &str) -> serde_json::Value {
    use serde_json::Value;
    match name {
        "limit" => raw
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or_else(|_| Value::from(raw)),
        "include_archived" => match raw {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::from(raw),
        },
        _ => Value::from(raw),
    }
}

/// The path parameters of `path`, in order (`{memory_store_id}` → `memory_store_id`).
pub fn path_parameters(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_operation_but_the_session_side_has_one_route() {
        let routed: Vec<Operation> = ROUTES.iter().map(|r| r.operation).collect();
        let unique: HashSet<Operation> = routed.iter().copied().collect();
        assert_eq!(unique.len(), routed.len(), "an operation is routed twice");
        for op in Operation::ALL {
            let session_side = op.name().starts_with("fs.") || op.name() == "memory_tool";
            assert_eq!(
                unique.contains(op),
                !session_side,
                "{} is routed: {}",
                op.name(),
                unique.contains(op)
            );
        }
    }

    #[test]
    fn method_and_path_pairs_are_unique() {
        let pairs: HashSet<(RouteMethod, &str)> =
            ROUTES.iter().map(|r| (r.method, r.path)).collect();
        assert_eq!(pairs.len(), ROUTES.len());
    }

    #[test]
    fn member_routes_name_their_workspace_and_others_do_not() {
        for route in ROUTES {
            let has_ws = path_parameters(route.path).any(|p| p == "ws_id");
            assert_eq!(has_ws, route.caller == CallerKind::Member, "{}", route.path);
        }
    }

    #[test]
    fn bodies_have_limits_and_the_rest_read_none() {
        for route in ROUTES {
            assert_eq!(
                route.body_limit > 0,
                route.input == Input::Body,
                "{}",
                route.path
            );
        }
    }
}

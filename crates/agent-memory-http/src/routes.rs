//! The route table: every REST route of both products, once — each a facade operation type
//! ([`agent_memory::ops`]), whose method, path, input and caller kind the table reads, with the
//! body limit of this router. The router registers one typed handler per route and the OpenAPI
//! document is built from the same table, so a route cannot exist without its documentation or
//! the other way round (`tests/it/openapi.rs` checks the served router against the served
//! document), and a route cannot call its operation with a caller of another kind.

use std::collections::BTreeMap;
use std::future::Future;

use agent_memory::ops::{self, HttpMethod};
use agent_memory::{AgentCaller, MemberCaller, StoreCaller, StoreMemory, WorkspaceId};
use axum::http::Method;
use axum::http::request::Parts;
use governance_policy::limits::{
    CITATIONS_MAX, COLLECTION_ID_MAX_CHARS, CURSOR_MAX_CHARS, KEY_MAX_CHARS, NAMESPACE_MAX_CHARS,
    PASSAGE_ID_MAX_CHARS, QUERY_MAX_CHARS, REMEMBER_BATCH_MAX, TEXT_MAX_CHARS,
};

use crate::auth::Authenticator;

/// Who may call a route: the facade's caller kinds (no route takes a session caller).
pub use agent_memory::caller::CallerKind;
/// The facade operation a route calls, by name.
pub use agent_memory::json::Operation;
/// Where a route's input comes from besides the path.
pub use agent_memory::ops::HttpInput as Input;

/// One REST route: the facade operation's [`HttpRoute`](agent_memory::ops::HttpRoute), its
/// caller kind, and the body limit of this router.
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

/// The route of the operation `O`, which must have one (checked when [`ROUTES`] is built).
const fn route<O: ops::Operation>(operation: Operation, body_limit: usize) -> Route
where
    O::Caller: Authenticated,
{
    let Some(http) = O::HTTP else {
        panic!("a routed operation has an HTTP route");
    };
    Route {
        method: RouteMethod::of(http.method),
        path: http.path,
        operation,
        caller: <O::Caller as agent_memory::ops::TypedCaller>::KIND,
        input: http.input,
        body_limit,
        summary: http.summary,
    }
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
    const fn of(method: HttpMethod) -> RouteMethod {
        match method {
            HttpMethod::Get => RouteMethod::Get,
            HttpMethod::Post => RouteMethod::Post,
            HttpMethod::Put => RouteMethod::Put,
            HttpMethod::Delete => RouteMethod::Delete,
        }
    }

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

/// A caller type a route can authenticate: the router asks the host's [`Authenticator`] for
/// it before the body is read. A session caller has no route, so an operation of the agent file
/// interface cannot be routed (it would not compile).
pub trait Authenticated: Sized + Send + Sync + 'static {
    /// The caller of `request`, or `None` (`401`). `path` holds the path's parameters.
    fn authenticate<A: Authenticator>(
        auth: &A,
        request: &Parts,
        path: &BTreeMap<String, String>,
    ) -> impl Future<Output = Option<Self>> + Send;
}

impl Authenticated for AgentCaller {
    async fn authenticate<A: Authenticator>(
        auth: &A,
        request: &Parts,
        _: &BTreeMap<String, String>,
    ) -> Option<Self> {
        auth.agent(request).await
    }
}

impl Authenticated for MemberCaller {
    async fn authenticate<A: Authenticator>(
        auth: &A,
        request: &Parts,
        path: &BTreeMap<String, String>,
    ) -> Option<Self> {
        let workspace = WorkspaceId::new(path.get("ws_id")?.as_str()).ok()?;
        let member = auth.member(request, &workspace).await?;
        // Tenant isolation by exact equality, whatever the authenticator returned.
        (member.workspace == workspace).then_some(member)
    }
}

impl Authenticated for StoreCaller {
    async fn authenticate<A: Authenticator>(
        auth: &A,
        request: &Parts,
        _: &BTreeMap<String, String>,
    ) -> Option<Self> {
        auth.store(request).await
    }
}

/// Visits every routed operation with its route (the router registers its typed handler).
pub(crate) trait RouteVisitor {
    /// Visits the operation `O` and its route.
    fn visit<O: ops::Operation>(&mut self, route: &'static Route)
    where
        O::Caller: Authenticated;
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

/// The largest `rememberBatch` body: 100 remembers at their longest.
pub const BATCH_BODY_LIMIT: usize = REMEMBER_BATCH_MAX * ESCAPED * REMEMBER_CHARS + STRUCTURE;

/// The largest memory-store content is 102,400 bytes of UTF-8; escaped, at most 6 bytes per
/// byte (`\u0000` for a control byte), plus a path and a precondition hash.
pub const CONTENT_BODY_LIMIT: usize = 6 * StoreMemory::CONTENT_MAX_BYTES + 16 * 1024;

/// Member and owner bodies and the memory-store bodies without content (names, descriptions,
/// session resources, instructions).
pub const SMALL_BODY_LIMIT: usize = 64 * 1024;

macro_rules! routes {
    ($($op:ident => $limit:expr,)*) => {
        /// Every route, in the order of `docs/http.md`: each a facade operation with its body
        /// limit (method, path, input and summary are the operation's own).
        pub const ROUTES: &[Route] = &[$(route::<ops::$op>(Operation::$op, $limit),)*];

        /// Calls `visitor` with every routed operation's type and route.
        pub(crate) fn visit_routes(visitor: &mut impl RouteVisitor) {
            let mut routes = ROUTES.iter();
            $(
                if let Some(route) = routes.next() {
                    visitor.visit::<ops::$op>(route);
                }
            )*
        }
    };
}

routes! {
    Remember => AGENT_BODY_LIMIT,
    RememberBatch => BATCH_BODY_LIMIT,
    Recall => AGENT_BODY_LIMIT,
    List => AGENT_BODY_LIMIT,
    Forget => AGENT_BODY_LIMIT,
    SettingsGet => 0,
    SettingsPut => SMALL_BODY_LIMIT,
    OwnerDeleteAll => 0,
    MemberList => 0,
    MemberDelete => SMALL_BODY_LIMIT,
    StoresCreate => SMALL_BODY_LIMIT,
    StoresList => 0,
    StoresGet => 0,
    StoresUpdate => SMALL_BODY_LIMIT,
    StoresArchive => 0,
    StoresDelete => 0,
    MemoriesCreate => CONTENT_BODY_LIMIT,
    MemoriesList => 0,
    MemoriesGet => 0,
    MemoriesUpdate => CONTENT_BODY_LIMIT,
    MemoriesDelete => SMALL_BODY_LIMIT,
    MemoriesRestore => SMALL_BODY_LIMIT,
    VersionsList => 0,
    VersionsGet => 0,
    VersionsRedact => 0,
    SessionsCreate => SMALL_BODY_LIMIT,
    SessionsResourcesAdd => SMALL_BODY_LIMIT,
    SessionsSystemPrompt => 0,
}

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

//! The REST routes of governed agent memory and memory stores as a ready [`axum::Router`], with
//! the host's [`Authenticator`] deciding who calls, and the MCP tools over Streamable HTTP.
//!
//! Adding governed memory to an axum service is this crate, an authenticator, and one
//! `.merge(router)`:
//!
//! ```no_run
//! use std::sync::Arc;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::{InMemoryPassageSource, MemoryService};
//! use agent_memory_http::{Api, StaticTokens};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let memories = MemoryService::builder(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(InMemoryPassageSource::new()),
//! )
//! .build()?;
//! let tokens = StaticTokens::new(); // or the host's own `Authenticator`
//! let app = axum::Router::new()
//!     // … the host's own routes …
//!     .merge(Api::new(Arc::new(memories), tokens).router());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, app).await?;
//! # Ok(()) }
//! ```
//!
//! Every route answers JSON: the response body of the operation, or
//! `{"error": {"code", "message", "retryAfterSeconds"?}}` with the contract's status (and a
//! `Retry-After` header on 429). The routes, their bodies and every status are in
//! `docs/http.md`; the router serves the same as an OpenAPI 3.1 document at `/openapi.json`.
//! The facade is synchronous: each call runs on tokio's blocking pool. Logs (the
//! `agent_memory_http` tracing target) name the route's template, the operation and the status,
//! never a path parameter, a query or a body.
#![forbid(unsafe_code)]

mod auth;
mod mcp;
pub mod openapi;
mod rest;
pub mod routes;

use std::collections::BTreeMap;
use std::sync::Arc;

use agent_memory::{MemoryService, StoreService};
use axum::Router;
use axum::http::StatusCode;
use axum::routing::{MethodFilter, MethodRouter, on};

pub use auth::{Authenticator, StaticTokens, bearer_token, new_token};
pub use mcp::{call_tool_result, from_tool_result, tool};
pub use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
pub use routes::{CallerKind, ROUTES, Route, RouteMethod};

use rest::Shared;

/// `401` for the member and memory-store routes without valid credentials (agent routes and
/// `/mcp` answer the contract's `AGENT_CREDENTIAL_INVALID`).
pub const UNAUTHENTICATED: &str = "UNAUTHENTICATED";
/// `413` for an agent-memory or member body larger than any valid one (memory-store routes
/// answer `MEMORY_TOO_LARGE`).
pub const REQUEST_TOO_LARGE: &str = "REQUEST_TOO_LARGE";
/// `400` for a body that broke off before its end.
pub const BODY_UNREADABLE: &str = "BODY_UNREADABLE";
/// `400` for a path parameter that is not valid percent-encoded UTF-8.
pub const PATH_INVALID: &str = "PATH_INVALID";
/// `404` for a path no route serves.
pub const ROUTE_NOT_FOUND: &str = "ROUTE_NOT_FOUND";
/// `405` for a method the path's routes do not serve.
pub const METHOD_NOT_ALLOWED: &str = "METHOD_NOT_ALLOWED";

/// The path the OpenAPI document is served at.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// The path `/mcp` is served at by [`Api::router`] when [`Api::with_mcp`] is set.
pub const MCP_PATH: &str = "/mcp";

/// The services and authenticator a router serves; [`Api::router`] builds it.
pub struct Api<A> {
    memories: Arc<MemoryService>,
    stores: Option<Arc<StoreService>>,
    auth: A,
    mcp: Option<StreamableHttpServerConfig>,
}

impl<A: Authenticator> Api<A> {
    /// The agent-memory routes of `memories`, with `auth` deciding the callers.
    pub fn new(memories: Arc<MemoryService>, auth: A) -> Self {
        Api {
            memories,
            stores: None,
            auth,
            mcp: None,
        }
    }

    /// Also serves the memory-store and session routes of `stores` (without it they answer
    /// `500 INTERNAL_ERROR`: the host called them without serving stores).
    pub fn with_stores(mut self, stores: Arc<StoreService>) -> Self {
        self.stores = Some(stores);
        self
    }

    /// Also serves the agent-memory MCP tools at [`MCP_PATH`] over Streamable HTTP, with rmcp's
    /// `config` (its `allowed_hosts` default to loopback only: set your host names for a public
    /// deployment; cancel its `cancellation_token` at shutdown to close open streams).
    pub fn with_mcp(mut self, config: StreamableHttpServerConfig) -> Self {
        self.mcp = Some(config);
        self
    }

    /// The router: every route of [`ROUTES`], their OpenAPI document at [`OPENAPI_PATH`]
    /// (no credentials needed), JSON answers for unknown paths (404) and methods (405), and
    /// `/mcp` when configured.
    pub fn router(self) -> Router {
        let mcp = self.mcp;
        let shared = Arc::new(Shared {
            memories: self.memories,
            stores: self.stores,
            auth: self.auth,
        });
        let mut by_path: BTreeMap<&'static str, MethodRouter> = BTreeMap::new();
        for route in ROUTES {
            let state = shared.clone();
            let handler =
                move |request: axum::extract::Request| rest::handle(state, route, request);
            let filter = MethodFilter::try_from(route.method.method())
                .unwrap_or_else(|_| unreachable!("every route method is a standard one"));
            let entry = by_path.remove(route.path);
            let methods = match entry {
                Some(methods) => methods.on(filter, handler),
                None => on(filter, handler),
            };
            by_path.insert(route.path, methods);
        }
        let mut router = Router::new();
        for (path, methods) in by_path {
            router = router.route(
                path,
                methods.fallback(|| async {
                    rest::router_error(
                        StatusCode::METHOD_NOT_ALLOWED,
                        METHOD_NOT_ALLOWED,
                        "this path does not serve that method",
                    )
                }),
            );
        }
        // Rendered once: the document depends on nothing but the code.
        let document: Arc<str> = Arc::from(
            openapi::document()
                .to_json()
                .unwrap_or_else(|_| "{}".to_owned()),
        );
        router = router.route(
            OPENAPI_PATH,
            axum::routing::get(move || {
                let document = document.clone();
                async move {
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        document.to_string(),
                    )
                }
            }),
        );
        if let Some(config) = mcp {
            let service = mcp::service(shared.memories.clone(), config);
            let layer =
                axum::middleware::from_fn_with_state(shared.clone(), mcp::authenticate::<A>);
            router = router.nest_service(
                MCP_PATH,
                tower::ServiceBuilder::new().layer(layer).service(service),
            );
        }
        router.fallback(|| async {
            rest::router_error(
                StatusCode::NOT_FOUND,
                ROUTE_NOT_FOUND,
                "no route serves this path",
            )
        })
    }
}

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
//! `agent_memory_http` tracing target) name the method, the route's template, the operation,
//! the caller kind, the status and the latency, never a path parameter, a query or a body.
//! [`serve_with`] serves the router with a connection cap and header-read and idle timeouts;
//! `/healthz` and `/readyz` answer without credentials. [`Api::with_metrics`] adds `/metrics`,
//! the host's metrics as Prometheus text, for the callers its authenticator lets scrape.
#![forbid(unsafe_code)]

mod auth;
mod codes;
mod health;
mod mcp;
mod metrics;
pub mod openapi;
mod rest;
pub mod routes;
pub mod server;
pub mod stdio;

use std::collections::BTreeMap;
use std::sync::Arc;

use agent_memory::{AsyncService, MemoryService, StoreService};
use axum::Router;
use axum::http::StatusCode;
use axum::routing::{MethodFilter, MethodRouter, on};

pub use auth::{Authenticator, StaticTokens, bearer_token, new_token};
pub use codes::{
    BODY_UNREADABLE, DEFAULT_MAX_MCP_SESSIONS, HEALTHZ_PATH, MCP_PATH, MCP_SESSIONS_EXHAUSTED,
    METHOD_NOT_ALLOWED, METRICS_PATH, NOT_READY, OPENAPI_PATH, ORIGIN_NOT_ALLOWED, PATH_INVALID,
    READYZ_PATH, REQUEST_TOO_LARGE, ROUTE_NOT_FOUND, UNAUTHENTICATED,
};
pub use health::ReadyCheck;
pub use mcp::{CallLog, MEMORY_TOOL, McpServer};
pub use metrics::{MetricsRender, PROMETHEUS_TEXT};
pub use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
pub use routes::{CallerKind, ROUTES, Route, RouteMethod};
pub use server::{ServeOptions, serve_with};

use rest::Shared;
use routes::{Authenticated, RouteVisitor};

/// Registers each route's typed handler under its path.
struct Handlers<A> {
    shared: Arc<Shared<A>>,
    by_path: BTreeMap<&'static str, MethodRouter>,
}

impl<A: Authenticator> RouteVisitor for Handlers<A> {
    fn visit<O: agent_memory::ops::Operation>(&mut self, route: &'static Route)
    where
        O::Caller: Authenticated,
    {
        let state = self.shared.clone();
        let handler =
            move |request: axum::extract::Request| rest::handle::<A, O>(state, route, request);
        let filter = MethodFilter::try_from(route.method.method())
            .unwrap_or_else(|_| unreachable!("every route method is a standard one"));
        let methods = match self.by_path.remove(route.path) {
            Some(methods) => methods.on(filter, handler),
            None => on(filter, handler),
        };
        self.by_path.insert(route.path, methods);
    }
}

/// The services and authenticator a router serves; [`Api::router`] builds it.
pub struct Api<A> {
    memories: Arc<MemoryService>,
    stores: Option<Arc<StoreService>>,
    auth: A,
    mcp: Option<StreamableHttpServerConfig>,
    allowed_origins: Vec<String>,
    max_mcp_sessions: usize,
    ready: Option<ReadyCheck>,
    metrics: Option<MetricsRender>,
}

impl<A: Authenticator> Api<A> {
    /// The agent-memory routes of `memories`, with `auth` deciding the callers.
    pub fn new(memories: Arc<MemoryService>, auth: A) -> Self {
        Api {
            memories,
            stores: None,
            auth,
            mcp: None,
            allowed_origins: Vec::new(),
            max_mcp_sessions: DEFAULT_MAX_MCP_SESSIONS,
            ready: None,
            metrics: None,
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

    /// Browser origins (`https://app.example`, `http://localhost:3000`) allowed to call `/mcp`
    /// besides the server's own: a request whose `Origin` is neither is refused `403
    /// ORIGIN_NOT_ALLOWED`, and `Origin: null` always is. Requests without `Origin` (clients
    /// that are not browsers) pass. An entry that is not `http(s)://host[:port]` is ignored.
    pub fn with_allowed_origins<I, S>(mut self, origins: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.allowed_origins = origins
            .into_iter()
            .filter_map(|o| mcp::normalize_origin(o.as_ref()))
            .collect();
        self
    }

    /// Live MCP sessions at most (default [`DEFAULT_MAX_MCP_SESSIONS`]); a request that would
    /// open one more is refused `503 MCP_SESSIONS_EXHAUSTED`. A session ends when its client
    /// deletes it or after rmcp's keep-alive (5 minutes without a message).
    pub fn with_max_mcp_sessions(mut self, max: usize) -> Self {
        self.max_mcp_sessions = max;
        self
    }

    /// What `/readyz` asks (default: nothing, so it answers like `/healthz`).
    pub fn with_ready_check(mut self, check: ReadyCheck) -> Self {
        self.ready = Some(check);
        self
    }

    /// Also serves `GET` [`METRICS_PATH`]: what `render` returns, as Prometheus text
    /// ([`PROMETHEUS_TEXT`]), to the callers [`Authenticator::metrics`] lets in (`401` for
    /// the others). The host installs the recorder the operations count into and renders it
    /// here; without this there is no `/metrics` route.
    pub fn with_metrics(mut self, render: MetricsRender) -> Self {
        self.metrics = Some(render);
        self
    }

    /// The router: every route of [`ROUTES`], their OpenAPI document at [`OPENAPI_PATH`]
    /// (no credentials needed), JSON answers for unknown paths (404) and methods (405), and
    /// `/mcp` when configured.
    pub fn router(self) -> Router {
        let mcp = self.mcp;
        let allowed_origins = self.allowed_origins;
        let max_mcp_sessions = self.max_mcp_sessions;
        let ready = self.ready;
        let metrics = self.metrics;
        let mut services = AsyncService::new(self.memories);
        if let Some(stores) = self.stores {
            services = services.with_stores(stores);
        }
        let shared = Arc::new(Shared {
            services,
            auth: self.auth,
        });
        let mut handlers = Handlers {
            shared: shared.clone(),
            by_path: BTreeMap::new(),
        };
        routes::visit_routes(&mut handlers);
        let mut router = Router::new();
        for (path, methods) in handlers.by_path {
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
        router = router
            .route(HEALTHZ_PATH, axum::routing::get(health::healthz))
            .route(
                READYZ_PATH,
                axum::routing::get(move || health::readyz(ready.clone())),
            );
        if let Some(render) = metrics {
            let shared = shared.clone();
            router = router.route(
                METRICS_PATH,
                axum::routing::get(move |request: axum::extract::Request| {
                    metrics::scrape(shared.clone(), render.clone(), request)
                }),
            );
        }
        if let Some(config) = mcp {
            let (service, sessions) = mcp::service(shared.services.clone(), config);
            let guard = Arc::new(mcp::Guard {
                allowed_origins,
                max_sessions: max_mcp_sessions,
                sessions,
                creating: tokio::sync::Mutex::new(()),
            });
            let layer =
                axum::middleware::from_fn_with_state((shared.clone(), guard), mcp::guard::<A>);
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

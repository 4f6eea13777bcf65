//! The router's own answers: the stable codes of the errors it gives before an operation runs,
//! and the paths it serves besides the routes. Re-exported at the crate root.

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

/// `403` for a request to `/mcp` whose `Origin` is neither the server's own nor an allowed one
/// (`null` included): MCP's guard against DNS rebinding.
pub const ORIGIN_NOT_ALLOWED: &str = "ORIGIN_NOT_ALLOWED";
/// `503` for a request that would open an MCP session while the server holds its maximum.
pub const MCP_SESSIONS_EXHAUSTED: &str = "MCP_SESSIONS_EXHAUSTED";
/// `503` from `/readyz` when the host's readiness check fails or does not answer in time.
pub const NOT_READY: &str = "NOT_READY";

/// Live MCP sessions a router holds at most unless [`Api::with_max_mcp_sessions`](crate::Api::with_max_mcp_sessions) says
/// otherwise.
pub const DEFAULT_MAX_MCP_SESSIONS: usize = 256;

/// Liveness: answers `200 {"status": "ok"}` while the process serves, without credentials.
pub const HEALTHZ_PATH: &str = "/healthz";
/// Readiness: `200 {"status": "ready"}` when the host's check (the database answers) passes,
/// else `503 NOT_READY`; without credentials.
pub const READYZ_PATH: &str = "/readyz";

/// The host's metrics in the Prometheus text format, served when
/// [`Api::with_metrics`](crate::Api::with_metrics) is set, to callers
/// [`Authenticator::metrics`](crate::Authenticator::metrics) lets in (else `401
/// UNAUTHENTICATED`).
pub const METRICS_PATH: &str = "/metrics";

/// The path the OpenAPI document is served at.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// The path `/mcp` is served at by [`Api::router`](crate::Api::router) when [`Api::with_mcp`](crate::Api::with_mcp) is set.
pub const MCP_PATH: &str = "/mcp";

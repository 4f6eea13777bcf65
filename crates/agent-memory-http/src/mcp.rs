//! The agent-memory MCP tools over the MCP Streamable HTTP transport of the official Rust SDK
//! (rmcp), and the conversions between the facade's tool surface and rmcp's types that the
//! CLI's stdio server uses too.
//!
//! Every HTTP request to `/mcp` passes the guard first: an `Origin` other than the server's own
//! or an allowed one is refused (DNS rebinding), then the request is authenticated by the host's
//! [`Authenticator::agent`](crate::Authenticator::agent) before rmcp sees it; a request without
//! a valid agent credential answers `401` with the error body. The resolved caller travels in
//! the request's extensions to the tool call, so each call acts as the credential of the HTTP
//! request that carried it. A request that would open a session beyond the cap is refused.

use std::sync::Arc;
use std::time::Instant;

use agent_memory::{AgentCaller, MemoryService, ToolDescriptor, ToolResult};
use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::Authenticator;

/// The header that names a Streamable HTTP session.
const SESSION_ID: &str = "mcp-session-id";
use crate::rest::Shared;

/// An rmcp [`Tool`] from a facade descriptor.
pub fn tool(descriptor: &ToolDescriptor) -> Tool {
    let schema = match &descriptor.input_schema {
        Value::Object(schema) => schema.clone(),
        _ => serde_json::Map::new(),
    };
    Tool::new(descriptor.name, descriptor.description, schema)
}

/// An rmcp [`CallToolResult`] from parts of a facade result: one text item, the structured
/// content, and `isError`.
pub fn call_tool_result(is_error: bool, structured_content: Value, text: String) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    let mut result = if is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = Some(structured_content);
    result
}

/// [`call_tool_result`] of a [`ToolResult`].
pub fn from_tool_result(result: ToolResult) -> CallToolResult {
    call_tool_result(result.is_error, result.structured_content, result.text)
}

/// The caller that the `/mcp` middleware resolved for one HTTP request.
#[derive(Clone)]
struct McpCaller(Arc<AgentCaller>);

/// The rmcp server handler: the facade's four agent-memory tools, each call acting as the
/// credential of its own HTTP request.
#[derive(Clone)]
pub(crate) struct HttpTools {
    memories: Arc<MemoryService>,
    tools: Arc<Vec<Tool>>,
}

impl HttpTools {
    fn caller(context: &RequestContext<RoleServer>) -> Option<Arc<AgentCaller>> {
        let parts = context.extensions.get::<Parts>()?;
        parts.extensions.get::<McpCaller>().map(|c| c.0.clone())
    }
}

impl ServerHandler for HttpTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("agent-memory", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.into_owned();
        if !self.tools.iter().any(|t| t.name == name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {name}"),
                None,
            ));
        }
        // The middleware put it there; without it the request did not come through the router.
        let caller = Self::caller(&context)
            .ok_or_else(|| ErrorData::internal_error("the request has no caller", None))?;
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let memories = self.memories.clone();
        let called = name.clone();
        let result =
            tokio::task::spawn_blocking(move || memories.call_tool(&caller, &called, &arguments))
                .await
                .map_err(|_| ErrorData::internal_error("the tool call did not complete", None))?;
        let code = result.structured_content["error"]["code"].as_str();
        tracing::info!(
            target: "agent_memory_http",
            tool = name.as_str(),
            error = code.filter(|_| result.is_error).unwrap_or(""),
            "mcp tool call"
        );
        Ok(CallToolResponse::from(from_tool_result(result)))
    }
}

/// The Streamable HTTP service of the tools, for [`Api::with_mcp`](crate::Api::with_mcp), and
/// its session manager (the session cap counts its sessions).
pub(crate) fn service(
    memories: Arc<MemoryService>,
    config: StreamableHttpServerConfig,
) -> (
    StreamableHttpService<HttpTools, LocalSessionManager>,
    Arc<LocalSessionManager>,
) {
    let tools = Arc::new(agent_memory::tools().iter().map(tool).collect::<Vec<_>>());
    let handler = HttpTools { memories, tools };
    let sessions = Arc::new(LocalSessionManager::default());
    let service = StreamableHttpService::new(move || Ok(handler.clone()), sessions.clone(), config);
    (service, sessions)
}

/// What the `/mcp` guard checks before rmcp sees a request.
pub(crate) struct Guard {
    /// Browser origins allowed besides the server's own (normalized `scheme://host:port`).
    pub(crate) allowed_origins: Vec<String>,
    /// Live sessions at most.
    pub(crate) max_sessions: usize,
    pub(crate) sessions: Arc<LocalSessionManager>,
    /// Held while a request without a session id runs, so that two initializes cannot both
    /// take the last place.
    pub(crate) creating: tokio::sync::Mutex<()>,
}

/// `scheme://host:port` of an origin or allow-list entry, lowercase, with the scheme's default
/// port filled in; `None` for anything else (`null` included).
pub(crate) fn normalize_origin(origin: &str) -> Option<String> {
    let origin = origin.trim().to_ascii_lowercase();
    let (scheme, rest) = origin.split_once("://")?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() || rest.contains(['/', '?', '#', '@']) {
        return None;
    }
    let (host, port) = split_host_port(rest, default_port)?;
    Some(format!("{scheme}://{host}:{port}"))
}

/// `host` and port of an authority (`[::1]:8080`, `example.com`).
fn split_host_port(authority: &str, default_port: u16) -> Option<(String, u16)> {
    let authority = authority.to_ascii_lowercase();
    if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(port) => port.parse().ok()?,
            None if after.is_empty() => default_port,
            None => return None,
        };
        return Some((format!("[{host}]"), port));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() => Some((host.to_owned(), port.parse().ok()?)),
        Some(_) => None,
        None if authority.is_empty() => None,
        None => Some((authority, default_port)),
    }
}

/// Whether `origin` may call: the request's own `Host` (same origin) or an allowed origin.
fn origin_allowed(guard: &Guard, origin: &str, host: Option<&str>) -> bool {
    let Some(origin) = normalize_origin(origin) else {
        return false;
    };
    if guard.allowed_origins.contains(&origin) {
        return true;
    }
    let Some(host) = host else {
        return false;
    };
    let (scheme, authority) = origin.split_once("://").unwrap_or_default();
    let default_port = if scheme == "https" { 443 } else { 80 };
    match split_host_port(host.trim(), default_port) {
        Some((host, port)) => authority == format!("{host}:{port}"),
        None => false,
    }
}

/// Guards a request to `/mcp`: its `Origin` (DNS rebinding), its credential, and the session
/// cap for requests that would open a session; logs the request.
pub(crate) async fn guard<A: Authenticator>(
    State((shared, guard)): State<(Arc<Shared<A>>, Arc<Guard>)>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let response = guarded(&shared, &guard, request, next).await;
    tracing::info!(
        target: "agent_memory_http",
        method = method.as_str(),
        route = crate::MCP_PATH,
        operation = "mcp",
        caller = "agent",
        status = response.status().as_u16(),
        micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        "request"
    );
    response
}

async fn guarded<A: Authenticator>(
    shared: &Shared<A>,
    guard: &Guard,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    if let Some(origin) = parts.headers.get(ORIGIN) {
        let host = parts
            .headers
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| parts.uri.authority().map(|a| a.as_str()));
        let allowed = origin
            .to_str()
            .is_ok_and(|origin| origin_allowed(guard, origin, host));
        if !allowed {
            return crate::rest::router_error(
                StatusCode::FORBIDDEN,
                crate::ORIGIN_NOT_ALLOWED,
                "this Origin may not call /mcp: only the server's own origin and the configured \
                 allowed origins may",
            );
        }
    }
    match shared.auth.agent(&parts).await {
        Some(caller @ AgentCaller::Resolved(_)) => {
            parts.extensions.insert(McpCaller(Arc::new(caller)));
        }
        Some(AgentCaller::Unresolved) | None => {
            return crate::rest::router_error(
                StatusCode::UNAUTHORIZED,
                agent_memory::ErrorCode::AgentCredentialInvalid.as_str(),
                "the agent credential is missing, unknown or not valid here",
            );
        }
    }
    let opens_session = parts.method == Method::POST && !parts.headers.contains_key(SESSION_ID);
    let request = Request::from_parts(parts, body);
    if !opens_session {
        return next.run(request).await;
    }
    let _creating = guard.creating.lock().await;
    if guard.sessions.sessions.read().await.len() >= guard.max_sessions {
        return crate::rest::router_error(
            StatusCode::SERVICE_UNAVAILABLE,
            crate::MCP_SESSIONS_EXHAUSTED,
            "the server holds as many MCP sessions as it may: end one (DELETE /mcp with its \
             Mcp-Session-Id) or retry when an idle one has expired",
        );
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(allowed: &[&str]) -> Guard {
        Guard {
            allowed_origins: allowed.iter().filter_map(|o| normalize_origin(o)).collect(),
            max_sessions: 1,
            sessions: Arc::new(LocalSessionManager::default()),
            creating: tokio::sync::Mutex::new(()),
        }
    }

    #[test]
    fn same_origin_means_the_requests_own_host_and_port() {
        let g = guard(&[]);
        for (origin, host) in [
            ("http://127.0.0.1:8787", "127.0.0.1:8787"),
            ("http://LOCALHOST:8787", "localhost:8787"),
            ("http://localhost", "localhost:80"),
            ("http://localhost:80", "localhost"),
            ("http://[::1]:8787", "[::1]:8787"),
        ] {
            assert!(origin_allowed(&g, origin, Some(host)), "{origin} {host}");
        }
        for (origin, host) in [
            ("http://evil.example", "127.0.0.1:8787"),
            ("http://127.0.0.1:9999", "127.0.0.1:8787"),
            ("https://localhost", "localhost:80"),
            ("null", "127.0.0.1:8787"),
            ("file://", "127.0.0.1:8787"),
            ("http://user@127.0.0.1:8787", "127.0.0.1:8787"),
            ("http://127.0.0.1:8787/path", "127.0.0.1:8787"),
        ] {
            assert!(!origin_allowed(&g, origin, Some(host)), "{origin} {host}");
        }
        assert!(!origin_allowed(&g, "http://127.0.0.1:8787", None));
    }

    #[test]
    fn allowed_origins_compare_by_scheme_host_and_port() {
        let g = guard(&[
            "https://App.Example",
            "http://localhost:3000/",
            "null",
            "nonsense",
        ]);
        assert_eq!(g.allowed_origins.len(), 2, "null and nonsense are ignored");
        assert!(origin_allowed(
            &g,
            "https://app.example",
            Some("127.0.0.1:8787")
        ));
        assert!(origin_allowed(
            &g,
            "https://app.example:443",
            Some("127.0.0.1:8787")
        ));
        assert!(origin_allowed(
            &g,
            "http://localhost:3000",
            Some("127.0.0.1:8787")
        ));
        assert!(!origin_allowed(
            &g,
            "http://app.example",
            Some("127.0.0.1:8787")
        ));
        assert!(!origin_allowed(
            &g,
            "http://localhost:3001",
            Some("127.0.0.1:8787")
        ));
        assert!(!origin_allowed(&g, "null", Some("127.0.0.1:8787")));
    }
}

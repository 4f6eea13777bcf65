//! The agent-memory MCP tools over the MCP Streamable HTTP transport of the official Rust SDK
//! (rmcp), and the conversions between the facade's tool surface and rmcp's types that the
//! CLI's stdio server uses too.
//!
//! Every HTTP request to `/mcp` is authenticated by the host's
//! [`Authenticator::agent`](crate::Authenticator::agent) before rmcp sees it; a request without
//! a valid agent credential answers `401` with the error body. The resolved caller travels in
//! the request's extensions to the tool call, so each call acts as the credential of the HTTP
//! request that carried it.

use std::sync::Arc;

use agent_memory::{AgentCaller, MemoryService, ToolDescriptor, ToolResult};
use axum::extract::{Request, State};
use axum::http::request::Parts;
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

/// The Streamable HTTP service of the tools, for [`Api::with_mcp`](crate::Api::with_mcp).
pub(crate) fn service(
    memories: Arc<MemoryService>,
    config: StreamableHttpServerConfig,
) -> StreamableHttpService<HttpTools, LocalSessionManager> {
    let tools = Arc::new(agent_memory::tools().iter().map(tool).collect::<Vec<_>>());
    let handler = HttpTools { memories, tools };
    StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

/// Authenticates a request to `/mcp`: `401` without a valid agent credential, else the caller
/// rides in the request's extensions.
pub(crate) async fn authenticate<A: Authenticator>(
    State(shared): State<Arc<Shared<A>>>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    match shared.auth.agent(&parts).await {
        Some(caller @ AgentCaller::Resolved(_)) => {
            parts.extensions.insert(McpCaller(Arc::new(caller)));
            next.run(Request::from_parts(parts, body)).await
        }
        Some(AgentCaller::Unresolved) | None => crate::rest::router_error(
            axum::http::StatusCode::UNAUTHORIZED,
            agent_memory::ErrorCode::AgentCredentialInvalid.as_str(),
            "the agent credential is missing, unknown or not valid here",
        ),
    }
}

//! `agent-memory mcp`: an MCP server over stdio (rmcp, the official Rust SDK) on the home's
//! database, with the facade's agent-memory tools and, for a session, the memory tool.
//!
//! The protocol is rmcp's and the handler is [`agent_memory_http::McpServer`], the one `/mcp`
//! serves too: the facade's tools, each call on tokio's blocking pool because the facade is
//! synchronous. Spec errors are tool results with `isError: true`, never protocol errors;
//! stdout carries only the protocol (through our own line transport), logs go to stderr and
//! name tools and error codes, never arguments or results.

mod transport;

use std::time::Duration;

use agent_memory::{AgentCaller, AsyncService};
use agent_memory_http::McpServer;
use anyhow::Context as _;
use rmcp::ServiceExt;

use crate::home::Home;
use crate::local::Local;

/// Arguments of `agent-memory mcp`.
#[derive(Debug, clap::Args)]
pub(crate) struct McpArgs {
    /// The agent credential the agent-memory tools act as [default: the one `init` created].
    /// Any other id is unknown here: those tool calls then answer AGENT_CREDENTIAL_INVALID (the
    /// memory tool acts as the session, not the credential).
    #[arg(long, env = "AGENT_MEMORY_CREDENTIAL", value_name = "ID")]
    credential: Option<String>,
    /// Also serve the tool `memory` (view, create, str_replace, insert, delete, rename) over this
    /// session's mounts (`sesn_…`, from `agent-memory sessions create`).
    #[arg(long, env = "AGENT_MEMORY_SESSION", value_name = "ID")]
    session: Option<String>,
    #[command(flatten)]
    embedder: crate::embedder::EmbedderArgs,
    #[command(flatten)]
    window: crate::embedder::WindowArgs,
}

/// Serves MCP on stdin/stdout until the client closes stdin.
pub(crate) fn run(home: &Home, args: McpArgs) -> anyhow::Result<()> {
    let local = Local::open_for_agents(home, args.embedder.load()?, args.window.candidate_window)?;
    let backend = local.config.backend.name();
    let (server, acting_as) = server(local, &args)?;
    eprintln!(
        "agent-memory mcp: serving {} tools on stdio for {} ({}), {}",
        server.tools().len(),
        home.root().display(),
        backend,
        acting_as
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let served = runtime.block_on(async move {
        // Our own line transport, not rmcp's: it answers the lines rmcp would drop unanswered
        // (see `transport`).
        let (transport, writer) =
            transport::line_transport(tokio::io::stdin(), tokio::io::stdout());
        let writer = tokio::spawn(writer);
        let served = match server.serve(transport).await {
            // stdin closed before the client said anything: nothing to serve.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
            Err(err) => Err(anyhow::Error::new(err).context("starting the MCP session")),
            Ok(running) => running
                .waiting()
                .await
                .map(drop)
                .context("the MCP session failed"),
        };
        // The transport is gone with the service: the writer sends what is queued, then ends.
        // (Bounded: a response still in flight when the client left must not hold the process.)
        match tokio::time::timeout(Duration::from_secs(5), writer).await {
            Ok(Ok(Ok(_))) => {}
            Ok(Ok(Err(err))) => eprintln!("agent-memory mcp: writing stdout failed: {err}"),
            Ok(Err(_)) | Err(_) => eprintln!("agent-memory mcp: the stdout writer did not finish"),
        }
        served
    });
    // A read of stdin that never returns must not hold the process open.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served?;
    eprintln!("agent-memory mcp: the client closed the connection; stopped");
    Ok(())
}

/// The MCP server on the opened home, and who its tools act as (for the start-up line, without
/// the credential id).
fn server(local: Local, args: &McpArgs) -> anyhow::Result<(McpServer, &'static str)> {
    // The home knows one credential; a host with a credential store would resolve the id
    // there. An unknown id is the facade's `Unresolved` caller, answered 401 on every call.
    let (agent, acting_as) = match args.credential.as_deref() {
        None => (local.agent(), "as the local agent credential"),
        Some(id) if id == local.config.credential => {
            (local.agent(), "as the local agent credential")
        }
        Some(_) => (
            AgentCaller::Unresolved,
            "as an unknown credential (every agent-memory tool call answers \
             AGENT_CREDENTIAL_INVALID)",
        ),
    };
    let session = match args.session.as_deref() {
        None => None,
        Some(id) => {
            // A session that does not exist is a configuration mistake: say so at start-up,
            // where the person who wrote the client configuration sees it.
            let caller = crate::store_commands::session_caller(&local, id)
                .with_context(|| format!("--session {id}"))?;
            let prompt = local
                .stores
                .sessions_system_prompt(
                    &local.store_caller(),
                    &agent_memory::SessionIdRequest::new(caller.session.clone()),
                )
                .with_context(|| format!("--session {id}"))?;
            Some((caller, prompt.text))
        }
    };
    let services = AsyncService::new(local.service.clone()).with_stores(local.stores.clone());
    let mut server = McpServer::new(services, agent).with_call_log(log_call);
    if let Some((caller, instructions)) = session {
        server = server.with_memory_tool(caller, instructions);
    }
    Ok((server, acting_as))
}

/// One stderr line per call: the tool and, for a failure, the error code. No arguments or
/// results: they hold the member's notes and files.
fn log_call(name: &str, error_code: Option<&str>) {
    match error_code {
        None => eprintln!("agent-memory mcp: {name}: ok"),
        Some(code) => eprintln!("agent-memory mcp: {name}: {code}"),
    }
}

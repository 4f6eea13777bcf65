//! `agent-memory mcp`: an MCP server over stdio (rmcp, the official Rust SDK) on the home's
//! database, with the facade's agent-memory tools and, for a session, the memory tool.
//!
//! The protocol is rmcp's and the handler is [`agent_memory_http::McpServer`], the one `/mcp`
//! serves too: the facade's tools, each call on tokio's blocking pool because the facade is
//! synchronous. Spec errors are tool results with `isError: true`, never protocol errors;
//! stdout carries only the protocol (through our own line transport), logs go to stderr and
//! name tools and error codes, never arguments or results.
//!
//! With `--print-config` it serves nothing: it prints the `mcpServers` entry that makes an MCP
//! client start this server on this home ([`print_config`]).

use std::path::Path;
use std::time::Duration;

use agent_memory::{AgentCaller, AsyncService};
use agent_memory_http::McpServer;
use anyhow::Context as _;
use rmcp::ServiceExt;

use crate::embedder::EmbedderChoice;
use crate::home::{BackendKind, Home};
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
    /// Print the client configuration that starts this server on this home (JSON in the
    /// `mcpServers` format: this executable and `mcp --home DIR` with absolute paths, plus the
    /// flags given here), then exit without serving.
    #[arg(long)]
    print_config: bool,
}

/// Serves MCP on stdin/stdout until the client closes stdin (or, with `--print-config`, prints
/// the client configuration).
pub(crate) fn run(home: &Home, args: McpArgs) -> anyhow::Result<()> {
    if args.print_config {
        return print_config(home, &args);
    }
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
            agent_memory_http::stdio::line_transport(tokio::io::stdin(), tokio::io::stdout());
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

/// `--print-config`: the `mcpServers` JSON that MCP clients (desktop assistants, IDEs, agent
/// frameworks) read, naming this executable and `mcp --home <home>` with absolute, canonical
/// paths (a client starts the server in a working directory of its choosing), followed by the
/// `--credential`, `--session`, `--embedder` and `--candidate-window` given here, from their
/// flags or environment variables. The home must have been initialised; the database is not
/// opened, so this works while another process holds a redb or sled home, and the ids are not
/// checked here: the server checks `--session` when it starts.
fn print_config(home: &Home, args: &McpArgs) -> anyhow::Result<()> {
    let config = home.load_config()?;
    let root = std::fs::canonicalize(home.root())
        .with_context(|| format!("resolving the home {}", home.root().display()))?;
    let command = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .context("finding the agent-memory executable")?;
    let mut server_args = vec!["mcp".to_owned(), "--home".to_owned(), utf8(&root)?];
    if let Some(credential) = &args.credential {
        server_args.extend(["--credential".to_owned(), credential.clone()]);
    }
    if let Some(session) = &args.session {
        server_args.extend(["--session".to_owned(), session.clone()]);
    }
    if let EmbedderChoice::Local(dir) = &args.embedder.embedder {
        let dir = std::fs::canonicalize(dir)
            .with_context(|| format!("resolving the embedding model {}", dir.display()))?;
        server_args.extend(["--embedder".to_owned(), format!("local:{}", utf8(&dir)?)]);
    }
    if let Some(window) = args.window.candidate_window {
        server_args.extend(["--candidate-window".to_owned(), window.to_string()]);
    }
    let entry = serde_json::json!({
        "mcpServers": {
            "agent-memory": {"command": utf8(&command)?, "args": server_args}
        }
    });
    println!("{}", serde_json::to_string_pretty(&entry)?);
    if config.backend == BackendKind::Postgres {
        // The URL may hold a password: it is not printed, the client has to pass it on.
        eprintln!(
            "agent-memory mcp: this home's database is PostgreSQL: add \
             AGENT_MEMORY_DATABASE_URL to the server's \"env\" in the client configuration"
        );
    }
    Ok(())
}

/// A path as JSON can carry it.
fn utf8(path: &Path) -> anyhow::Result<String> {
    path.to_str()
        .map(str::to_owned)
        .with_context(|| format!("{} is not valid UTF-8", path.display()))
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

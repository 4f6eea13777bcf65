//! `agent-memory serve`: the REST routes, `/openapi.json` and `/mcp` of `agent-memory-http` on
//! the home's database (and `/metrics` with `--metrics`), and `agent-memory token`: the home's
//! bearer tokens.
//!
//! `init` writes `tokens.json` (readable by its user only) with one token for the local agent
//! credential and one for the owner member; a home created before tokens existed gets them the
//! first time `serve` or `token` needs them.

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use agent_memory_http::{Api, ServeOptions, StaticTokens, StreamableHttpServerConfig};
use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::home::{Home, write_atomically};
use crate::local::Local;

/// Arguments of `agent-memory serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on; port 0 takes a free one (the first line printed names it)
    #[arg(
        long,
        env = "AGENT_MEMORY_LISTEN",
        default_value = "127.0.0.1:8787",
        value_name = "ADDR"
    )]
    listen: SocketAddr,
    /// A browser origin (`https://app.example`) allowed to call /mcp besides the server's own;
    /// repeat the flag or separate with commas
    #[arg(
        long = "allowed-origin",
        env = "AGENT_MEMORY_ALLOWED_ORIGINS",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    allowed_origins: Vec<String>,
    /// Open connections at most; at the cap a new connection closes the longest-idle one
    #[arg(long, env = "AGENT_MEMORY_MAX_CONNECTIONS", default_value_t = ServeOptions::DEFAULT.max_connections, value_name = "N")]
    max_connections: usize,
    /// Seconds a connection may stay open with no request in flight and no byte moving
    #[arg(long, env = "AGENT_MEMORY_IDLE_TIMEOUT", default_value_t = ServeOptions::DEFAULT.idle_timeout.as_secs_f64(), value_name = "SECONDS")]
    idle_timeout: f64,
    /// Seconds a request's head may take once its first byte arrived
    #[arg(long, env = "AGENT_MEMORY_HEADER_TIMEOUT", default_value_t = ServeOptions::DEFAULT.header_read_timeout.as_secs_f64(), value_name = "SECONDS")]
    header_timeout: f64,
    /// Live MCP sessions at most over /mcp
    #[arg(long, env = "AGENT_MEMORY_MAX_MCP_SESSIONS", default_value_t = agent_memory_http::DEFAULT_MAX_MCP_SESSIONS, value_name = "N")]
    max_mcp_sessions: usize,
    /// Count every operation in a Prometheus recorder and serve it at GET /metrics (Prometheus
    /// text), to the owner's token only
    #[arg(long, env = "AGENT_MEMORY_METRICS")]
    metrics: bool,
    #[command(flatten)]
    embedder: crate::embedder::EmbedderArgs,
    #[command(flatten)]
    window: crate::embedder::WindowArgs,
}

/// `serve`'s log filter when `RUST_LOG` is unset: warnings, and one line per request.
pub(crate) const DEFAULT_LOG_FILTER: &str = "warn,agent_memory_http=info";

/// File descriptors `serve` keeps for the database, the audit log and the runtime besides
/// its connections.
const RESERVED_FILES: u64 = 64;

/// Raises the soft open-file limit to the hard one; the limit in force afterwards (`None` when
/// it cannot be read).
fn raise_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            let raised = rustix::process::Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            match setrlimit(Resource::Nofile, raised) {
                Ok(()) => limit = raised,
                Err(err) => tracing::warn!(
                    target: "agent_memory_http",
                    error = %err,
                    "could not raise the open-file limit"
                ),
            }
        }
        limit.current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

fn seconds(value: f64, flag: &str) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{flag} must be a positive number of seconds"))
}

/// The buckets of the operation-duration histogram, in seconds: from a millisecond (a point
/// read) to ten seconds (well past recall's 800 ms semantic budget).
const DURATION_BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1.0, 2.5, 10.0,
];

/// How often the recorder's upkeep runs (what its own listener would do).
const METRICS_UPKEEP: Duration = Duration::from_secs(5);

/// Installs the process's Prometheus recorder, which every operation counts into from then on,
/// and describes the library's metrics to it.
fn install_metrics() -> anyhow::Result<metrics_exporter_prometheus::PrometheusHandle> {
    use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full(agent_memory::telemetry::OPERATION_DURATION_SECONDS.to_owned()),
            &DURATION_BUCKETS,
        )
        .context("configuring the Prometheus recorder")?
        .install_recorder()
        .context("installing the Prometheus recorder")?;
    agent_memory::telemetry::describe();
    Ok(handle)
}

/// Which token `agent-memory token` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum TokenKind {
    /// The local agent credential's: the agent routes and `/mcp`.
    Agent,
    /// The owner member's: settings, the member's own memories, memory stores and sessions.
    Owner,
}

/// Arguments of `agent-memory token`.
#[derive(Debug, clap::Args)]
pub(crate) struct TokenArgs {
    /// Whose token
    #[arg(value_enum)]
    kind: TokenKind,
}

/// `tokens.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Tokens {
    agent: String,
    owner: String,
}

fn tokens_path(home: &Home) -> std::path::PathBuf {
    home.root().join("tokens.json")
}

/// Creates the home's tokens when it has none; the existing ones otherwise. Concurrent callers
/// of a home without tokens get the same ones: the file is created once, under the home's lock,
/// and appears whole (a new file renamed into place).
pub(crate) fn ensure_tokens(home: &Home) -> anyhow::Result<Tokens> {
    let path = tokens_path(home);
    if let Some(tokens) = read_tokens(&path)? {
        return Ok(tokens);
    }
    let _lock = home.lock()?;
    // Another process may have created them while this one waited for the lock.
    if let Some(tokens) = read_tokens(&path)? {
        return Ok(tokens);
    }
    let token = || agent_memory_http::new_token().context("drawing a random token");
    let tokens = Tokens {
        agent: token()?,
        owner: token()?,
    };
    // A new temporary file of the user's only (0600), synced, then renamed into place.
    write_atomically(&path, &serde_json::to_string_pretty(&tokens)?)?;
    Ok(tokens)
}

/// The tokens in `path`; `None` when there is no such file.
fn read_tokens(path: &Path) -> anyhow::Result<Option<Tokens>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(anyhow::Error::new(err).context(format!("reading {}", path.display())));
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is not a valid tokens file", path.display()))
}

/// `agent-memory token KIND`.
pub(crate) fn token(home: &Home, args: &TokenArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if !home.is_initialized() {
        // Loads the config only for its clear error.
        home.load_config()?;
    }
    let tokens = ensure_tokens(home)?;
    let token = match args.kind {
        TokenKind::Agent => tokens.agent,
        TokenKind::Owner => tokens.owner,
    };
    writeln!(out, "{token}")?;
    Ok(())
}

/// `agent-memory serve`.
pub(crate) fn run(home: &Home, args: ServeArgs) -> anyhow::Result<()> {
    // First, so that every operation of this process is counted.
    let metrics = args.metrics.then(install_metrics).transpose()?;
    let files = raise_file_limit();
    let mut options = ServeOptions {
        max_connections: args.max_connections.max(1),
        header_read_timeout: seconds(args.header_timeout, "--header-timeout")?,
        idle_timeout: seconds(args.idle_timeout, "--idle-timeout")?,
    };
    // Connections never take the descriptors the database and the runtime need.
    if let Some(files) = files {
        let room =
            usize::try_from(files.saturating_sub(RESERVED_FILES).max(1)).unwrap_or(usize::MAX);
        options.max_connections = options.max_connections.min(room);
    }
    let local = Local::open_for_agents(home, args.embedder.load()?, args.window.candidate_window)?;
    let tokens = ensure_tokens(home)?;
    let auth = StaticTokens::new()
        .agent(&tokens.agent, local.agent())
        .member(&tokens.owner, local.owner());
    let owner = local.owner();
    let backend = local.config.backend.name();
    let workspace = local.config.workspace.clone();
    let Local {
        service, stores, ..
    } = local;
    // Ready when the database answers a read of the owner's settings.
    let ready: agent_memory_http::ReadyCheck = {
        let service = service.clone();
        Arc::new(move || service.settings_get(&owner).is_ok())
    };

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        let addr = listener.local_addr()?;
        // The first line, for scripts that listen on port 0.
        println!("listening on http://{addr}");
        std::io::stdout().flush()?;
        eprintln!(
            "agent-memory serve: {} ({backend}), workspace {workspace}: REST under \
             /api/agent/v1, /api/w/{workspace} and /v1; /openapi.json; /mcp{}. Tokens: \
             `agent-memory token agent|owner`",
            home.root().display(),
            if metrics.is_some() {
                "; /metrics (owner token)"
            } else {
                ""
            }
        );
        let stop = tokio_util::sync::CancellationToken::new();
        let mut hosts = vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
            "::1".to_owned(),
        ];
        if !addr.ip().is_unspecified() {
            hosts.push(addr.ip().to_string());
        }
        let mcp = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_cancellation_token(stop.clone());
        let mut api = Api::new(service, auth)
            .with_stores(stores)
            .with_mcp(mcp)
            .with_allowed_origins(&args.allowed_origins)
            .with_max_mcp_sessions(args.max_mcp_sessions)
            .with_ready_check(ready);
        if let Some(handle) = metrics {
            let upkeep = handle.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(METRICS_UPKEEP);
                loop {
                    every.tick().await;
                    upkeep.run_upkeep();
                }
            });
            api = api.with_metrics(Arc::new(move || handle.render()));
        }
        let router = api.router();
        let shutdown = {
            let stop = stop.clone();
            async move {
                termination().await;
                eprintln!("agent-memory serve: stopping");
                // Open MCP streams end, so the graceful shutdown does not wait on them.
                stop.cancel();
            }
        };
        agent_memory_http::serve_with(listener, router, options, shutdown)
            .await
            .context("serving HTTP")
    })?;
    runtime.shutdown_timeout(Duration::from_secs(2));
    eprintln!("agent-memory serve: stopped");
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix.
async fn termination() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

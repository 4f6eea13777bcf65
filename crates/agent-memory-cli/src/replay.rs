//! `agent-memory replay`: runs a JSON-lines scenario (the executable contract of the spec's
//! `replay.md`) with `agent-memory-replay`'s runner, in memory, on an embedded database or in a
//! throw-away PostgreSQL schema, printing exactly one JSON line per executed input line.

use std::io::Write;
use std::sync::Arc;

#[cfg(feature = "postgres")]
use agent_memory::backends::PostgresBackend;
use agent_memory::backends::{InMemoryBackend, Storage};
use agent_memory_replay::{Replay, RunError};
use anyhow::Context;

use crate::home::{BackendKind, require_unused_database};
use crate::local::open_backend;

/// Arguments of `agent-memory replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReplayArgs {
    /// The scenario file; `-` or nothing reads standard input.
    file: Option<std::path::PathBuf>,
    /// Run on the embedded database at PATH instead of in memory. It must be new or empty (an
    /// empty file for redb and sqlite, an empty directory for sled): replay refuses a used one.
    #[arg(long, value_name = "PATH")]
    db: Option<std::path::PathBuf>,
    /// The embedded database `--db` names; or `postgres`: run in a throw-away schema of the
    /// database at `--database-url` (dropped at the end), without `--db`.
    #[arg(long, value_enum, default_value_t = BackendKind::Redb)]
    backend: BackendKind,
    /// Scenarios' `embedder.set` modes switch this model on and off (`normal` runs it).
    #[command(flatten)]
    embedder: crate::embedder::EmbedderArgs,
    #[command(flatten)]
    window: crate::embedder::WindowArgs,
}

/// Runs `agent-memory replay`; returns whether every line was executed.
pub(crate) fn run(args: &ReplayArgs, output: impl Write) -> anyhow::Result<bool> {
    if args.backend == BackendKind::Postgres {
        if args.db.is_some() {
            anyhow::bail!("--backend postgres takes --database-url, not --db");
        }
        return run_in_postgres(args, output);
    }
    let backend: Arc<dyn Storage> = match &args.db {
        None if args.backend != BackendKind::Redb => {
            anyhow::bail!("--backend {} needs --db PATH", args.backend.name())
        }
        None => Arc::new(InMemoryBackend::new()),
        Some(path) => {
            args.backend.require_built()?;
            require_unused_database(path, args.backend)?;
            open_backend(args.backend, path, true)?
        }
    };
    replay_on(args, backend, output)
}

/// Runs the scenario in a throw-away schema of the database at `--database-url`, dropped at the
/// end.
#[cfg(feature = "postgres")]
fn run_in_postgres(args: &ReplayArgs, output: impl Write) -> anyhow::Result<bool> {
    let url = crate::local::database_url()?;
    let schema = format!(
        "replay_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let backend = PostgresBackend::connect_in_schema(url, &schema, 4)
        .context("opening the PostgreSQL database");
    let result = backend.and_then(|b| replay_on(args, Arc::new(b), output));
    PostgresBackend::drop_schema(url, &schema).context("dropping the replay's schema")?;
    result
}

/// `--backend postgres` in a build without PostgreSQL.
#[cfg(not(feature = "postgres"))]
fn run_in_postgres(_args: &ReplayArgs, _output: impl Write) -> anyhow::Result<bool> {
    Err(BackendKind::Postgres.not_built())
}

/// Runs the scenario on `backend`.
fn replay_on(
    args: &ReplayArgs,
    backend: Arc<dyn Storage>,
    output: impl Write,
) -> anyhow::Result<bool> {
    let window = args.window.candidate_window.unwrap_or_default();
    let mut replay = Replay::new(backend, args.embedder.load()?, window)?;
    let ran = match args.file.as_deref() {
        None => replay.run(std::io::stdin().lock(), output),
        Some(path) if path.as_os_str() == "-" => replay.run(std::io::stdin().lock(), output),
        Some(path) => {
            let file =
                std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
            replay.run(std::io::BufReader::new(file), output)
        }
    };
    ran.map_err(|err| match err {
        RunError::Read { line, source } => {
            anyhow::Error::new(source).context(format!("reading line {line}"))
        }
        // The write's own error, so that a reader that stopped early (`| head`) is no failure.
        RunError::Write(source) => anyhow::Error::new(source),
    })
}

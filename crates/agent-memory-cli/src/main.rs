//! The `agent-memory` command-line tool.
//!
//! Subcommands live in their own modules; `main` only parses arguments and dispatches. The CLI
//! may use `anyhow` (library crates may not) because its errors end at a human's terminal.

mod audit_log;
mod commands;
mod demo;
mod embedder;
mod features;
mod home;
mod local;
mod logs;
mod mask;
#[cfg(feature = "mcp")]
mod mcp;
mod migrate;
mod mount;
mod output;
mod passages;
mod recall_config;
mod replay;
#[cfg(feature = "http")]
mod serve;
mod store_commands;
mod transfer;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use serde_json::json;

use agent_memory::storage::StorageFailure;
use agent_memory::{ApiError, ErrorCode};
use home::{BackendKind, Home};
use local::Local;

// A command whose feature the build lacks keeps its name and accepts any arguments, and answers
// with the feature it needs (`features::missing`).
#[cfg(not(feature = "mcp"))]
use features::Unavailable as McpArgs;
#[cfg(not(feature = "http"))]
use features::{Unavailable as ServeArgs, Unavailable as TokenArgs};
#[cfg(feature = "mcp")]
use mcp::McpArgs;
#[cfg(feature = "http")]
use serve::{ServeArgs, TokenArgs};

const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  an error. A spec error prints `error: CODE: message` on stderr, CODE being the spec's
     stable code (AGENT_MEMORY_INVALID_REQUEST, AGENT_MEMORY_PERSONAL_DATA, AGENT_MEMORY_DISABLED,
     AGENT_MEMORY_NOT_FOUND, MEMORY_PATH_CONFLICT, MEMORY_PRECONDITION_FAILED, …); with --json
     the spec's error body is printed on stdout too.
     Any other failure (no workspace yet, a used replay database, unreadable files) prints
     `error: message`.
  2  a usage error, or a replay line that could not be executed
  3  STORAGE_LOCKED: the database is held by another process: a redb or sled home open in
     an `agent-memory mcp` or `mount`, say, or a SQLite home whose writer did not let go
     within 5 s; stop it, or wait for it, and run the command again
  4  STORAGE_FULL: no space left on the device under the database (or the disk quota or
     file-size limit is used up); free space and run the command again
  5  STORAGE_READ_ONLY: the database cannot be written (a read-only file system or mount, no
     write permission); the commands that only read (list, recall, export, stores list, …)
     and `serve` and `mcp` still work on a SQLite or redb home, and refuse writes with it
  Exits 3-5 print `error: CODE: message` and the cause on stderr; with --json the error body
  `{\"error\":{\"code\",\"message\"}}` is printed on stdout too.

Data lives in ./.agent-memory/ unless --home or AGENT_MEMORY_HOME names another directory.";

/// Governed agent memory on your own machine, in an embedded database.
#[derive(Debug, Parser)]
#[command(name = "agent-memory", version, about, after_help = EXIT_CODES)]
struct Cli {
    /// The local data directory [default: ./.agent-memory]
    #[arg(long, global = true, env = "AGENT_MEMORY_HOME", value_name = "DIR")]
    home: Option<PathBuf>,
    /// The PostgreSQL database of `--backend postgres` (init, replay) and of a home initialised
    /// with it, as a `postgres://` URL or a libpq key-value string
    #[arg(
        long,
        global = true,
        env = "AGENT_MEMORY_DATABASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    database_url: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a local workspace, its owner member and an agent credential with both scopes, and
    /// turn agent memories on.
    Init(InitArgs),
    /// Remember a note as the local agent credential (personal data is masked).
    Remember(commands::RememberArgs),
    /// Recall the notes that best match a query, with each ranker's position.
    Recall(commands::RecallArgs),
    /// List notes, newest first (one page; `--cursor` for the next).
    List(commands::ListArgs),
    /// Forget a note by id, or every version of a namespace's key.
    Forget(commands::ForgetArgs),
    /// Show the workspace settings, or change them with --enable, --disable, --retention-days.
    Settings(commands::SettingsArgs),
    /// Show how recall ranks in this home (candidate window, ranker weights), or change it.
    Config(ConfigCommandArgs),
    /// Remove expired versions now (retention purge); with --all, every agent memory.
    Purge(commands::PurgeArgs),
    /// Print every current memory of the member as JSON lines (hidden ones as `unavailable`);
    /// with --history every stored version, as `import` reads it back.
    Export(transfer::ExportArgs),
    /// Restore what `export` wrote (ids, keys, every version with its instants and
    /// supersession, citations, embeddings of the same model), masking every text again. Your
    /// own operation: not rate-limited, inside the quota; a second import of the same file
    /// changes nothing.
    Import(transfer::ImportArgs),
    /// Move the home to another embedded database (`--to sqlite`, the default): copies the
    /// settings, every agent-memory version and every memory store with all its versions, then
    /// switches config.json to the copy. The old database stays, unused.
    ///
    /// Stop the home's `mcp` and `mount` processes first (a redb or sled home answers
    /// STORAGE_LOCKED while they run). Sessions are not copied.
    Migrate(migrate::MigrateArgs),
    /// Manage the passages that notes can cite.
    Passage(commands::PassageArgs),
    /// A guided tour on a fresh database: masking, supersede, citations, recall, asOf, forget.
    ///
    /// Runs in a temporary directory unless --home is given on the command line (it must be new
    /// or empty; the demo's data then stays there).
    Demo(demo::DemoArgs),
    /// Manage memory stores: named collections of path-addressed text documents where every
    /// change writes a version.
    Stores(store_commands::StoresArgs),
    /// Create, read, update, delete and restore the memories (documents) of a store.
    Memories(store_commands::MemoriesArgs),
    /// List, read and redact a store's memory versions.
    Versions(store_commands::VersionsArgs),
    /// Create agent sessions with memory stores mounted under /mnt/memory/.
    Sessions(store_commands::SessionsArgs),
    /// Use a session's mounts as files, as its agent does (ls, cat, write, rm, mv).
    Fs(store_commands::FsArgs),
    /// Rewrite the database so that deleted and redacted content is gone from its files
    /// (a progress bar on stderr).
    Vacuum(store_commands::VacuumArgs),
    /// Give the member's stored memories (current and superseded versions) the vectors of the
    /// chosen --embedder, where they have none or another model's (a progress bar on stderr).
    ///
    /// Recall compares only vectors of the query's model: after switching embedders, older
    /// memories sit out the semantic ranker (BM25 and entities still rank them) until this runs.
    Reembed(embedder::ReembedArgs),
    /// Serve MCP on stdin/stdout for an MCP client (the agent-memory tools, and with --session
    /// the memory tool) on this home's database; stops when the client closes stdin.
    ///
    /// Logs go to stderr. `--print-config` prints the client configuration for this home (see
    /// docs/mcp-server.md).
    Mcp(McpArgs),
    /// Mount a session's memory stores as files at DIR (Linux, FUSE): `DIR/<slug>/…` for each
    /// mount, used with any file tool; each closed file is one version. Runs in the foreground
    /// until Ctrl-C or SIGTERM, which unmount. DIR must exist and be empty.
    Mount(mount::MountArgs),
    /// Serve the REST routes of both products, /openapi.json and MCP over Streamable HTTP at
    /// /mcp on this home's database, until Ctrl-C or SIGTERM.
    ///
    /// The first line printed is `listening on http://HOST:PORT` (so `--listen 127.0.0.1:0` is
    /// usable from scripts). Requests authenticate with `Authorization: Bearer TOKEN`: the agent
    /// token (`agent-memory token agent`) for the agent routes and /mcp, the owner token
    /// (`agent-memory token owner`) for settings, the member's own memories, memory stores and
    /// sessions. See docs/http.md.
    Serve(ServeArgs),
    /// Print the home's bearer token for `serve`: `agent` (the local agent credential) or
    /// `owner` (the owner member). The tokens live in tokens.json, readable by its user only.
    Token(TokenArgs),
    /// Mask personal data in each line read from standard input.
    Mask(mask::MaskArgs),
    /// Run a JSON-lines scenario against the library and print one JSON line per operation.
    ///
    /// Exits 0 when every line was executed (whatever the statuses), 2 when a line was not
    /// valid JSON, named an unknown op or could not run.
    Replay(replay::ReplayArgs),
}

/// Arguments of `agent-memory config`: the settings and the embedder whose default weights
/// apply.
#[derive(Debug, clap::Args)]
struct ConfigCommandArgs {
    #[command(flatten)]
    config: recall_config::ConfigArgs,
    #[command(flatten)]
    embedder: embedder::EmbedderArgs,
}

/// Arguments of `agent-memory init`.
#[derive(Debug, clap::Args)]
struct InitArgs {
    /// The database. sqlite (default): one file that the mcp, mount and CLI processes share at
    /// once, an fsync per commit. redb: ACID, an fsync per commit, one process at a time.
    /// sled 0.34: crash-consistent, but an acknowledged write may be lost on power loss; one
    /// process at a time. postgres: the database at --database-url, shared by every instance
    /// that uses it.
    #[arg(long, value_enum, default_value_t = BackendKind::Sqlite)]
    backend: BackendKind,
    #[command(flatten)]
    out: output::JsonFlag,
}

fn main() -> ExitCode {
    // Before anything is created: every file and directory of a home is its user's only.
    home::private_by_default();
    let matches = Cli::command().get_matches();
    // The demo uses --home only when it was typed: a home from AGENT_MEMORY_HOME is the user's
    // real one, which the demo must not take over.
    let home_typed = matches.value_source("home") == Some(ValueSource::CommandLine);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|err| err.exit());
    let json = json_requested(&matches);
    // `serve` logs its requests unless RUST_LOG says otherwise.
    #[cfg(feature = "http")]
    let default_filter =
        matches!(cli.command, Command::Serve(_)).then_some(serve::DEFAULT_LOG_FILTER);
    #[cfg(not(feature = "http"))]
    let default_filter = None;
    logs::install(default_filter);
    match run(cli, home_typed) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        // A reader that stopped early (`| head`) is not a failure of the command.
        Err(err)
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => match storage_failure(&err) {
            Some((code, printed)) => {
                let status = match code {
                    ErrorCode::StorageLocked => 3,
                    ErrorCode::StorageFull => 4,
                    _ => 5,
                };
                let answer = ApiError::from(code);
                if json && !printed {
                    println!("{}", serde_json::to_string(&answer).unwrap_or_default());
                }
                eprintln!("error: {answer}");
                if !printed {
                    // The cause, for the person who has to act on it (a facade answer keeps it
                    // in the library's error log instead).
                    eprintln!("  ({})", printable(&err));
                }
                ExitCode::from(status)
            }
            None => {
                eprintln!("error: {}", printable(&err));
                ExitCode::FAILURE
            }
        },
    }
}

/// `err` with its causes, joined by ": " like `{:#}`, up to and including the first facade
/// answer: an [`ApiError`]'s own cause (a storage failure behind a 500) is for the library's
/// error log, not the terminal.
fn printable(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&cause.to_string());
        if cause.downcast_ref::<ApiError>().is_some() {
            break;
        }
    }
    out
}

/// Whether the command line asked for `--json` (the subcommand's flag).
fn json_requested(matches: &clap::ArgMatches) -> bool {
    let mut m = matches;
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
    }
    matches!(m.try_get_one::<bool>("json"), Ok(Some(true)))
}

/// The storage failure a person can act on behind `err`, if it is one: its code, and whether
/// the command already printed its error body (a facade answer goes through `--json`'s
/// printing; a failure to open the database does not).
fn storage_failure(err: &anyhow::Error) -> Option<(ErrorCode, bool)> {
    let storage = |code: ErrorCode| {
        matches!(
            code,
            ErrorCode::StorageLocked | ErrorCode::StorageFull | ErrorCode::StorageReadOnly
        )
        .then_some(code)
    };
    err.chain().find_map(|cause| {
        if let Some(api) = cause.downcast_ref::<ApiError>() {
            return storage(api.code()).map(|code| (code, true));
        }
        let failure = cause
            .downcast_ref::<agent_memory::backends::Error>()?
            .failure();
        let code = match failure {
            StorageFailure::Locked => ErrorCode::StorageLocked,
            StorageFailure::Full => ErrorCode::StorageFull,
            StorageFailure::ReadOnly => ErrorCode::StorageReadOnly,
            _ => return None,
        };
        Some((code, false))
    })
}

/// Runs one command; `Ok(false)` means "ran, but not everything could be executed" (exit 2).
fn run(cli: Cli, home_typed: bool) -> anyhow::Result<bool> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let home_path = cli.home.clone();
    if let Some(url) = cli.database_url.clone() {
        local::set_database_url(url);
    }
    let home = Home::new(
        cli.home
            .unwrap_or_else(|| PathBuf::from(home::DEFAULT_HOME)),
    );
    match cli.command {
        Command::Mask(args) => {
            return mask::run(&args, std::io::stdin().lock(), out).map(|()| true);
        }
        Command::Replay(args) => return replay::run(&args, out),
        Command::Demo(args) => demo::run(&args, home_path.filter(|_| home_typed), &mut out)?,
        Command::Init(args) => init(&home, &args, &mut out)?,
        Command::Remember(args) => {
            let local = Local::open_with_embedder(&home, args.embedder.load()?, None)?;
            commands::remember(&local, args, &mut out)?
        }
        // list, recall and export only read: they open the database read-only, so that a home
        // on a read-only mount or in a backup can still be read.
        Command::Recall(args) => {
            let window = args.window.candidate_window;
            let local = Local::open_read_only(&home, args.embedder.load()?, window)?;
            commands::recall(&local, args, &mut out)?
        }
        Command::Reembed(args) => {
            let local = Local::open_with_embedder(&home, args.embedder.load()?, None)?;
            embedder::reembed(&local, &args, &mut out)?
        }
        Command::List(args) => commands::list(&read_only(&home)?, args, &mut out)?,
        Command::Forget(args) => commands::forget(&Local::open(&home)?, args, &mut out)?,
        Command::Settings(args) => commands::settings(&Local::open(&home)?, args, &mut out)?,
        Command::Config(args) => recall_config::run(
            &home,
            &args.config,
            args.embedder.load()?.as_ref(),
            &mut out,
        )?,
        Command::Purge(args) => commands::purge(&Local::open(&home)?, args, &mut out)?,
        Command::Export(args) => transfer::export(&read_only(&home)?, &args, &mut out)?,
        Command::Import(args) => {
            let local = Local::open_with_embedder(&home, args.embedder.load()?, None)?;
            transfer::import(&local, &args, &mut out)?
        }
        Command::Migrate(args) => migrate::run(&home, &args, &mut out)?,
        Command::Passage(args) => commands::passage(&Local::open(&home)?, args, &mut out)?,
        Command::Stores(args) => store_commands::stores(&Local::open(&home)?, args, &mut out)?,
        Command::Memories(args) => store_commands::memories(&Local::open(&home)?, args, &mut out)?,
        Command::Versions(args) => store_commands::versions(&Local::open(&home)?, args, &mut out)?,
        Command::Sessions(args) => store_commands::sessions(&Local::open(&home)?, args, &mut out)?,
        Command::Fs(args) => store_commands::fs(&Local::open(&home)?, args, &mut out)?,
        Command::Vacuum(args) => store_commands::vacuum(&Local::open(&home)?, args, &mut out)?,
        Command::Mount(args) => mount::run(&home, args, &mut out)?,
        #[cfg(feature = "http")]
        Command::Serve(args) => {
            // The first line of stdout is the address; release the lock this function holds.
            drop(out);
            return serve::run(&home, args).map(|()| true);
        }
        #[cfg(feature = "http")]
        Command::Token(args) => serve::token(&home, &args, &mut out)?,
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => {
            // stdout belongs to the protocol: release the lock this function holds on it.
            drop(out);
            return mcp::run(&home, args).map(|()| true);
        }
        #[cfg(not(feature = "http"))]
        Command::Serve(_) => return Err(features::missing("http", "`agent-memory serve`")),
        #[cfg(not(feature = "http"))]
        Command::Token(_) => return Err(features::missing("http", "`agent-memory token`")),
        #[cfg(not(feature = "mcp"))]
        Command::Mcp(_) => return Err(features::missing("mcp", "`agent-memory mcp`")),
    }
    out.flush()?;
    Ok(true)
}

/// [`Local::open_read_only`] with the hashing embedder (list and export embed nothing).
fn read_only(home: &Home) -> anyhow::Result<Local> {
    Local::open_read_only(
        home,
        Arc::new(agent_memory::HashingEmbedder::new()),
        Default::default(),
    )
}

fn init(home: &Home, args: &InitArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (local, settings) = Local::init(home, args.backend, Arc::new(agent_memory::SystemClock))?;
    // The bearer tokens of `serve`; a build without it leaves them to the first `serve` or
    // `token` of a build with it.
    #[cfg(feature = "http")]
    serve::ensure_tokens(home)?;
    let config = &local.config;
    let database = home.database_path(config.backend);
    if args.out.json {
        let answer = json!({
            "home": home.root(),
            "database": database,
            "config": config,
            "settings": settings,
        });
        writeln!(out, "{answer}")?;
        return Ok(());
    }
    writeln!(out, "initialised {}", home.root().display())?;
    writeln!(
        out,
        "  database:     {} ({})",
        database.display(),
        config.backend.name()
    )?;
    writeln!(out, "  workspace:    {}", config.workspace)?;
    writeln!(out, "  owner member: {}", config.member)?;
    writeln!(
        out,
        "  credential:   {} (memory:read, memory:write)",
        config.credential
    )?;
    writeln!(
        out,
        "  agent memories: {}, retention {} days",
        if settings.agent_memories_enabled {
            "enabled"
        } else {
            "disabled"
        },
        settings.retention_days
    )?;
    writeln!(out, "  audit log:    {}", home.audit_path().display())?;
    #[cfg(feature = "http")]
    writeln!(
        out,
        "  HTTP tokens:  {} (`agent-memory token agent|owner`; `agent-memory serve`)",
        home.root().join("tokens.json").display()
    )?;
    Ok(())
}

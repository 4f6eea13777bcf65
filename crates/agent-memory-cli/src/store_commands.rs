//! The memory-store commands — `stores`, `memories`, `versions`, `sessions`, `fs` and `vacuum` —
//! on the local database, acting as the owner member `init` created (`user_actor`) or, for `fs`,
//! as a session (`session_actor`). Each builds the operation's typed request, calls the facade
//! and prints a human summary or, with `--json`, the response exactly.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use agent_memory::types::StoreMemoryMetadata;
use agent_memory::types::session::{FsEntry, FsListing, TextAnswer};
use agent_memory::types::store::Page;
use agent_memory::{
    Access, Actor, ApiError, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest,
    DeleteMemoryRequest, ErrorCode, FsPathRequest, FsRenameRequest, FsWriteRequest,
    ListMemoriesRequest, ListStoresRequest, ListVersionsRequest, MemoryIdRequest, MemoryStore,
    MemoryStoreId, MemoryVersion, MemoryVersionId, PiiPolicy, RestoreMemoryRequest, Session,
    SessionCaller, SessionId, SessionIdRequest, SessionResource, StoreIdRequest, StoreMemory,
    StoreMemoryId, UpdateMemoryRequest, UpdateStoreRequest, VersionIdRequest, VersionOperation,
};
use anyhow::Context;
use serde_json::json;

use crate::commands::{JsonFlag, emit};
use crate::local::Local;

/// Arguments of `agent-memory stores`.
#[derive(Debug, clap::Args)]
pub(crate) struct StoresArgs {
    #[command(subcommand)]
    command: StoresCommand,
}

#[derive(Debug, clap::Subcommand)]
enum StoresCommand {
    /// Create a memory store.
    Create {
        /// The name (1–255 characters); a session mounts the store at a slug of it.
        name: String,
        /// What the store holds (up to 4,096 characters; shown to agents).
        #[arg(long, short)]
        description: Option<String>,
        /// Personal data in content: store it as given, mask it, or reject the write.
        #[arg(long, value_parser = ["allow", "mask", "reject"])]
        pii_policy: Option<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// List the stores, newest first (one page; `--cursor` for the next).
    List {
        /// Archived stores too.
        #[arg(long)]
        include_archived: bool,
        /// Page size (1–100, default 20).
        #[arg(long)]
        limit: Option<u64>,
        /// The `next_cursor` of the previous page.
        #[arg(long)]
        cursor: Option<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Show a store.
    Get {
        /// The store id (`memstore_…`).
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Rename a store or change its description.
    Update {
        /// The store id.
        id: String,
        /// The new name.
        #[arg(long)]
        name: Option<String>,
        /// The new description.
        #[arg(long, short)]
        description: Option<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Archive a store: read-only from now on, and no new session can attach it.
    Archive {
        /// The store id.
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Delete a store with all its memories and versions.
    Delete {
        /// The store id.
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Arguments of `agent-memory memories`.
#[derive(Debug, clap::Args)]
pub(crate) struct MemoriesArgs {
    #[command(subcommand)]
    command: MemoriesCommand,
}

/// `--store ID`, shared by the commands on one store's memories and versions.
#[derive(Debug, clap::Args)]
struct StoreArg {
    /// The store (`memstore_…`).
    #[arg(long, short)]
    store: String,
}

/// `--if-sha256 HASH`: the optimistic-concurrency precondition.
#[derive(Debug, clap::Args)]
struct IfSha256 {
    /// Only if the memory's current content has this SHA-256 (64 lowercase hex digits, as
    /// `memories get` shows it); otherwise MEMORY_PRECONDITION_FAILED names the current hash.
    #[arg(long, value_name = "HASH")]
    if_sha256: Option<String>,
}

/// A request that can carry a `content_sha256` precondition.
trait Preconditioned: Sized {
    fn if_content_sha256(self, hash: String) -> Self;
}

macro_rules! preconditioned {
    ($($t:ty),*) => {$(
        impl Preconditioned for $t {
            fn if_content_sha256(self, hash: String) -> Self {
                <$t>::if_content_sha256(self, hash)
            }
        }
    )*};
}

preconditioned!(
    UpdateMemoryRequest,
    DeleteMemoryRequest,
    RestoreMemoryRequest
);

impl IfSha256 {
    fn apply<R: Preconditioned>(self, request: R) -> R {
        match self.if_sha256 {
            Some(hash) => request.if_content_sha256(hash),
            None => request,
        }
    }
}

#[derive(Debug, clap::Subcommand)]
enum MemoriesCommand {
    /// Create a memory at PATH with the content of --file, or of standard input.
    Create {
        #[command(flatten)]
        store: StoreArg,
        /// Its path: absolute, `/`-separated (`/notes/todo.md`); no other live memory may have
        /// it, lie under it or above it.
        path: String,
        /// Read the content from this file (`-`: standard input, the default). Up to
        /// 102,400 bytes of UTF-8, stored byte for byte.
        #[arg(long, short)]
        file: Option<PathBuf>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Show a memory with its content.
    Get {
        #[command(flatten)]
        store: StoreArg,
        /// The memory id (`mem_…`).
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// List a store's memories by path, without content.
    List {
        #[command(flatten)]
        store: StoreArg,
        /// Only paths under this one (whole leading segments: `/a` matches `/a/b`, not `/ab`).
        #[arg(long)]
        prefix: Option<String>,
        /// Page size (1–100, default 20).
        #[arg(long)]
        limit: Option<u64>,
        /// The `next_cursor` of the previous page.
        #[arg(long)]
        cursor: Option<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Replace a memory's content (from --file, or standard input) and/or move it (--path).
    ///
    /// With --path alone the content is kept. Writing what is already stored changes nothing
    /// and writes no version.
    Update {
        #[command(flatten)]
        store: StoreArg,
        /// The memory id.
        id: String,
        /// Read the new content from this file (`-`: standard input). Without --file and
        /// --path, the content is read from standard input.
        #[arg(long, short)]
        file: Option<PathBuf>,
        /// The new path.
        #[arg(long)]
        path: Option<String>,
        #[command(flatten)]
        precondition: IfSha256,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Delete a memory (its versions stay; `memories restore` brings it back).
    Delete {
        #[command(flatten)]
        store: StoreArg,
        /// The memory id.
        id: String,
        #[command(flatten)]
        precondition: IfSha256,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Roll a memory back to one of its versions (a deleted memory comes back).
    Restore {
        #[command(flatten)]
        store: StoreArg,
        /// The memory id.
        id: String,
        /// The version to restore (`memver_…`).
        version: String,
        #[command(flatten)]
        precondition: IfSha256,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Arguments of `agent-memory versions`.
#[derive(Debug, clap::Args)]
pub(crate) struct VersionsArgs {
    #[command(subcommand)]
    command: VersionsCommand,
}

#[derive(Debug, clap::Subcommand)]
enum VersionsCommand {
    /// List a store's versions (of one memory with --memory), newest first.
    List {
        #[command(flatten)]
        store: StoreArg,
        /// Only this memory's versions.
        #[arg(long, short)]
        memory: Option<String>,
        /// Page size (1–100, default 20).
        #[arg(long)]
        limit: Option<u64>,
        /// The `next_cursor` of the previous page.
        #[arg(long)]
        cursor: Option<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Show a version with its content.
    Get {
        #[command(flatten)]
        store: StoreArg,
        /// The version id (`memver_…`).
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Redact a version: its content and path are gone for good (`vacuum` then removes them
    /// from the database files). A memory's current version cannot be redacted.
    Redact {
        #[command(flatten)]
        store: StoreArg,
        /// The version id.
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Arguments of `agent-memory sessions`.
#[derive(Debug, clap::Args)]
pub(crate) struct SessionsArgs {
    #[command(subcommand)]
    command: SessionsCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SessionsCommand {
    /// Create an agent session with memory stores mounted under /mnt/memory/.
    Create {
        /// A store to attach (repeatable, at most 8): `ID` read-write, `ID:ro` read-only.
        #[arg(long = "store", value_name = "ID[:ro]")]
        stores: Vec<String>,
        /// Instructions for the agent about a store (repeatable: the first goes with the first
        /// --store, and so on).
        #[arg(long = "instructions", value_name = "TEXT")]
        instructions: Vec<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Print the text a host puts in the session agent's system prompt about its mounts.
    Prompt {
        /// The session id (`sesn_…`).
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Arguments of `agent-memory fs`.
#[derive(Debug, clap::Args)]
pub(crate) struct FsArgs {
    #[command(subcommand)]
    command: FsCommand,
}

/// `--session ID`: the session whose mounts `fs` uses.
#[derive(Debug, clap::Args)]
struct SessionArg {
    /// The session (`sesn_…`, from `sessions create`).
    #[arg(long)]
    session: String,
}

#[derive(Debug, clap::Subcommand)]
enum FsCommand {
    /// List a directory: `/mnt/memory/` lists the mounts, a mount its top-level entries.
    Ls {
        #[command(flatten)]
        session: SessionArg,
        /// The directory.
        #[arg(default_value = "/mnt/memory/")]
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Print a file's content.
    Cat {
        #[command(flatten)]
        session: SessionArg,
        /// The file (`/mnt/memory/<slug>/…`).
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Create or replace a file with the content of --file, or of standard input.
    Write {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        path: String,
        /// Read the content from this file (`-`: standard input, the default).
        #[arg(long, short)]
        file: Option<PathBuf>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Delete a file.
    Rm {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Move a file within its mount.
    Mv {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        from: String,
        /// Its new path.
        to: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Arguments of `agent-memory vacuum`.
#[derive(Debug, clap::Args)]
pub(crate) struct VacuumArgs {
    #[command(flatten)]
    out: JsonFlag,
}

/// The content of `file`, or of standard input for `None` and `-`, exactly as stored: no line
/// break is added or removed.
fn read_content(file: Option<&Path>) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        }
        _ => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("reading the content from standard input")?;
        }
    }
    String::from_utf8(bytes).context("a memory's content must be UTF-8 text")
}

/// An id typed on the command line; a malformed one is refused as the facade refuses a
/// malformed id in a body (`400 MEMORY_INVALID_REQUEST`), so `--json` prints an error body.
fn parse_id<T: std::str::FromStr>(id: &str, message: &'static str) -> Result<T, ApiError> {
    id.parse()
        .map_err(|_| ApiError::new(ErrorCode::MemoryInvalidRequest, message))
}

fn store_id(id: &str) -> Result<MemoryStoreId, ApiError> {
    parse_id(
        id,
        "the memory store id must be memstore_ and 1 to 64 letters, digits, - or _",
    )
}

fn memory_id(id: &str) -> Result<StoreMemoryId, ApiError> {
    parse_id(
        id,
        "the memory id must be mem_ and 1 to 64 letters, digits, - or _",
    )
}

fn version_id(id: &str) -> Result<MemoryVersionId, ApiError> {
    parse_id(
        id,
        "the version id must be memver_ and 1 to 64 letters, digits, - or _",
    )
}

/// A page size from the command line; one beyond `usize` is refused by the facade's bounds.
fn limit(limit: u64) -> usize {
    usize::try_from(limit).unwrap_or(usize::MAX)
}

fn policy(policy: &str) -> PiiPolicy {
    match policy {
        "mask" => PiiPolicy::Mask,
        "reject" => PiiPolicy::Reject,
        // clap admits only allow, mask and reject.
        _ => PiiPolicy::Allow,
    }
}

fn actor(actor: &Actor) -> String {
    match actor {
        Actor::ApiActor { api_key_id } => format!("api key {api_key_id}"),
        Actor::UserActor { user_id } => format!("user {user_id}"),
        Actor::SessionActor { session_id } => format!("session {session_id}"),
    }
}

fn operation(operation: VersionOperation) -> &'static str {
    match operation {
        VersionOperation::Created => "created",
        VersionOperation::Modified => "modified",
        VersionOperation::Deleted => "deleted",
    }
}

fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".to_owned()
    } else {
        format!("{n} bytes")
    }
}

fn write_store(out: &mut dyn Write, store: &MemoryStore) -> std::io::Result<()> {
    write!(
        out,
        "{}  {}  (pii {}, created {}",
        store.id,
        store.name,
        store.pii_policy.as_str(),
        store.created_at
    )?;
    if let Some(at) = store.archived_at {
        write!(out, ", archived {at}")?;
    }
    writeln!(out, ")")?;
    if !store.description.is_empty() {
        writeln!(out, "    {}", store.description)?;
    }
    Ok(())
}

fn write_store_page(out: &mut dyn Write, page: &Page<MemoryStore>) -> std::io::Result<()> {
    if page.data.is_empty() {
        writeln!(out, "no memory stores")?;
    }
    for store in &page.data {
        write_store(out, store)?;
    }
    write_more(out, page.next_cursor.as_deref())
}

fn write_more(out: &mut dyn Write, cursor: Option<&str>) -> std::io::Result<()> {
    match cursor {
        Some(cursor) => writeln!(out, "more: --cursor {cursor}"),
        None => Ok(()),
    }
}

/// A memory's header: id, path, size, full hash (the one `--if-sha256` takes) and version.
fn write_memory_header(out: &mut dyn Write, memory: &StoreMemory) -> std::io::Result<()> {
    writeln!(
        out,
        "{}  {}  ({})",
        memory.id,
        memory.path,
        bytes(memory.content_size_bytes)
    )?;
    writeln!(out, "  sha256:  {}", memory.content_sha256)?;
    writeln!(
        out,
        "  version: {} (updated {})",
        memory.version_id, memory.updated_at
    )
}

fn write_memory_with_content(out: &mut dyn Write, memory: &StoreMemory) -> std::io::Result<()> {
    write_memory_header(out, memory)?;
    writeln!(out, "---")?;
    write_text(out, &memory.content)
}

/// `text` as it is, with a line break after it when it has none.
fn write_text(out: &mut dyn Write, text: &str) -> std::io::Result<()> {
    write!(out, "{text}")?;
    if !text.is_empty() && !text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

fn write_memory_page(out: &mut dyn Write, page: &Page<StoreMemoryMetadata>) -> std::io::Result<()> {
    if page.data.is_empty() {
        writeln!(out, "no memories")?;
    }
    for memory in &page.data {
        writeln!(
            out,
            "{}  {}  ({}, sha256 {})",
            memory.id,
            memory.path,
            bytes(memory.content_size_bytes),
            memory.content_sha256
        )?;
    }
    write_more(out, page.next_cursor.as_deref())
}

fn write_version_line(out: &mut dyn Write, version: &MemoryVersion) -> std::io::Result<()> {
    write!(
        out,
        "{}  {}  {}  by {}  at {}",
        version.id,
        operation(version.operation),
        version.memory_id,
        actor(&version.created_by),
        version.created_at
    )?;
    match (
        &version.redacted_at,
        &version.path,
        version.content_size_bytes,
    ) {
        (Some(at), _, _) => write!(out, "  [redacted {at}]")?,
        (None, Some(path), Some(size)) => write!(out, "  {path} ({})", bytes(size))?,
        (None, Some(path), None) => write!(out, "  {path}")?,
        (None, None, _) => {}
    }
    writeln!(out)
}

fn write_version(out: &mut dyn Write, version: &MemoryVersion) -> std::io::Result<()> {
    write_version_line(out, version)?;
    if let Some(hash) = &version.content_sha256 {
        writeln!(out, "  sha256:  {hash}")?;
    }
    if let Some(content) = &version.content {
        writeln!(out, "---")?;
        write_text(out, content)?;
    }
    Ok(())
}

fn write_version_page(out: &mut dyn Write, page: &Page<MemoryVersion>) -> std::io::Result<()> {
    if page.data.is_empty() {
        writeln!(out, "no versions")?;
    }
    for version in &page.data {
        write_version_line(out, version)?;
    }
    write_more(out, page.next_cursor.as_deref())
}

fn write_session(out: &mut dyn Write, session: &Session) -> std::io::Result<()> {
    writeln!(out, "session {}", session.id)?;
    let mut mounts = 0;
    for resource in &session.resources {
        if let SessionResource::MemoryStore(m) = resource {
            mounts += 1;
            writeln!(
                out,
                "  {}  {}  {}",
                m.mount_path,
                m.access.as_str(),
                m.memory_store_id
            )?;
        }
    }
    if mounts == 0 {
        writeln!(out, "  (no memory stores mounted)")?;
    }
    Ok(())
}

pub(crate) fn stores(local: &Local, args: StoresArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let caller = local.store_caller();
    let service = &local.stores;
    match args.command {
        StoresCommand::Create {
            name,
            description,
            pii_policy,
            out: flag,
        } => {
            let mut request = CreateStoreRequest::new(name);
            if let Some(description) = description {
                request = request.description(description);
            }
            if let Some(policy) = pii_policy {
                request = request.pii_policy(self::policy(&policy));
            }
            let result = service.stores_create(&caller, &request);
            emit(out, flag, result, |out, store| {
                write!(out, "created ")?;
                write_store(out, store)
            })
        }
        StoresCommand::List {
            include_archived,
            limit,
            cursor,
            out: flag,
        } => {
            let mut request = ListStoresRequest::new().include_archived(include_archived);
            if let Some(n) = limit {
                request = request.limit(self::limit(n));
            }
            if let Some(cursor) = cursor {
                request = request.cursor(cursor);
            }
            let result = service.stores_list(&caller, &request);
            emit(out, flag, result, write_store_page)
        }
        StoresCommand::Get { id, out: flag } => {
            let result =
                store_id(&id).and_then(|id| service.stores_get(&caller, &StoreIdRequest::new(id)));
            emit(out, flag, result, write_store)
        }
        StoresCommand::Update {
            id,
            name,
            description,
            out: flag,
        } => {
            let result = store_id(&id).and_then(|id| {
                let mut request = UpdateStoreRequest::new(id);
                if let Some(name) = name {
                    request = request.name(name);
                }
                if let Some(description) = description {
                    request = request.description(description);
                }
                service.stores_update(&caller, &request)
            });
            emit(out, flag, result, |out, store| {
                write!(out, "updated ")?;
                write_store(out, store)
            })
        }
        StoresCommand::Archive { id, out: flag } => {
            let result = store_id(&id)
                .and_then(|id| service.stores_archive(&caller, &StoreIdRequest::new(id)));
            emit(out, flag, result, |out, store| {
                write!(out, "archived ")?;
                write_store(out, store)
            })
        }
        StoresCommand::Delete { id, out: flag } => {
            let result = store_id(&id)
                .and_then(|id| service.stores_delete(&caller, &StoreIdRequest::new(id)));
            emit(out, flag, result, |out, deleted| {
                writeln!(out, "deleted {} with its memories and versions", deleted.id)
            })
        }
    }
}

pub(crate) fn memories(
    local: &Local,
    args: MemoriesArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let caller = local.store_caller();
    let service = &local.stores;
    match args.command {
        MemoriesCommand::Create {
            store,
            path,
            file,
            out: flag,
        } => {
            let content = read_content(file.as_deref())?;
            let result = store_id(&store.store).and_then(|store| {
                service.memories_create(&caller, &CreateMemoryRequest::new(store, path, content))
            });
            emit(out, flag, result, |out, memory| {
                write!(out, "created ")?;
                write_memory_header(out, memory)
            })
        }
        MemoriesCommand::Get {
            store,
            id,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                let request = MemoryIdRequest::new(store, memory_id(&id)?);
                service.memories_get(&caller, &request)
            });
            emit(out, flag, result, write_memory_with_content)
        }
        MemoriesCommand::List {
            store,
            prefix,
            limit,
            cursor,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                let mut request = ListMemoriesRequest::new(store);
                if let Some(prefix) = prefix {
                    request = request.path_prefix(prefix);
                }
                if let Some(n) = limit {
                    request = request.limit(self::limit(n));
                }
                if let Some(cursor) = cursor {
                    request = request.cursor(cursor);
                }
                service.memories_list(&caller, &request)
            });
            emit(out, flag, result, write_memory_page)
        }
        MemoriesCommand::Update {
            store,
            id,
            file,
            path,
            precondition,
            out: flag,
        } => {
            // --path alone moves the memory and keeps its content.
            let content = if file.is_some() || path.is_none() {
                Some(read_content(file.as_deref())?)
            } else {
                None
            };
            let result = store_id(&store.store).and_then(|store| {
                let mut request = UpdateMemoryRequest::new(store, memory_id(&id)?);
                if let Some(path) = path {
                    request = request.path(path);
                }
                if let Some(content) = content {
                    request = request.content(content);
                }
                service.memories_update(&caller, &precondition.apply(request))
            });
            emit(out, flag, result, |out, memory| {
                write!(out, "updated ")?;
                write_memory_header(out, memory)
            })
        }
        MemoriesCommand::Delete {
            store,
            id,
            precondition,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                let request = DeleteMemoryRequest::new(store, memory_id(&id)?);
                service.memories_delete(&caller, &precondition.apply(request))
            });
            emit(out, flag, result, |out, deleted| {
                writeln!(
                    out,
                    "deleted {} (its versions stay; `memories restore` brings it back)",
                    deleted.id
                )
            })
        }
        MemoriesCommand::Restore {
            store,
            id,
            version,
            precondition,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                let request =
                    RestoreMemoryRequest::new(store, memory_id(&id)?, version_id(&version)?);
                service.memories_restore(&caller, &precondition.apply(request))
            });
            emit(out, flag, result, |out, memory| {
                write!(out, "restored ")?;
                write_memory_header(out, memory)
            })
        }
    }
}

pub(crate) fn versions(
    local: &Local,
    args: VersionsArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let caller = local.store_caller();
    let service = &local.stores;
    match args.command {
        VersionsCommand::List {
            store,
            memory,
            limit,
            cursor,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                let mut request = ListVersionsRequest::new(store);
                if let Some(memory) = memory {
                    request = request.memory_id(memory_id(&memory)?);
                }
                if let Some(n) = limit {
                    request = request.limit(self::limit(n));
                }
                if let Some(cursor) = cursor {
                    request = request.cursor(cursor);
                }
                service.versions_list(&caller, &request)
            });
            emit(out, flag, result, write_version_page)
        }
        VersionsCommand::Get {
            store,
            id,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                service.versions_get(&caller, &VersionIdRequest::new(store, version_id(&id)?))
            });
            emit(out, flag, result, write_version)
        }
        VersionsCommand::Redact {
            store,
            id,
            out: flag,
        } => {
            let result = store_id(&store.store).and_then(|store| {
                service.versions_redact(&caller, &VersionIdRequest::new(store, version_id(&id)?))
            });
            emit(out, flag, result, |out, version| {
                write!(out, "redacted ")?;
                write_version_line(out, version)
            })
        }
    }
}

/// Attaches `ID`, `ID:ro` or `ID:rw` to `request`.
fn attach_store(
    request: CreateSessionRequest,
    spec: &str,
    instructions: Option<&String>,
) -> Result<CreateSessionRequest, ApiError> {
    let (id, access) = match spec.rsplit_once(':') {
        Some((id, "ro")) => (id, Access::ReadOnly),
        Some((id, "rw")) => (id, Access::ReadWrite),
        _ => (spec, Access::ReadWrite),
    };
    let id = store_id(id)?;
    Ok(match instructions {
        Some(text) => request.memory_store_with_instructions(id, access, text.as_str()),
        None => request.memory_store(id, access),
    })
}

pub(crate) fn sessions(
    local: &Local,
    args: SessionsArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let caller = local.store_caller();
    match args.command {
        SessionsCommand::Create {
            stores,
            instructions,
            out: flag,
        } => {
            if instructions.len() > stores.len() {
                anyhow::bail!(
                    "{} --instructions for {} --store: each --instructions goes with the --store \
                     in the same position",
                    instructions.len(),
                    stores.len()
                );
            }
            let result = stores
                .iter()
                .enumerate()
                .try_fold(CreateSessionRequest::new(), |request, (i, spec)| {
                    attach_store(request, spec, instructions.get(i))
                })
                .and_then(|request| local.stores.sessions_create(&caller, &request));
            emit(out, flag, result, write_session)
        }
        SessionsCommand::Prompt { id, out: flag } => {
            let result = parse_id(
                &id,
                "the session id must be sesn_ and 1 to 64 letters, digits, - or _",
            )
            .and_then(|id| {
                local
                    .stores
                    .sessions_system_prompt(&caller, &SessionIdRequest::new(id))
            });
            emit(out, flag, result, |out, answer: &TextAnswer| {
                write_text(out, &answer.text)
            })
        }
    }
}

/// The session `--session` names, in the local workspace (an id that is no session id is not
/// found, as the facade answers for an unknown one).
pub(crate) fn session_caller(local: &Local, id: &str) -> anyhow::Result<SessionCaller> {
    let session = SessionId::parse(id).map_err(|_| {
        agent_memory::ApiError::new(
            agent_memory::ErrorCode::SessionNotFound,
            "session not found",
        )
    })?;
    Ok(SessionCaller {
        workspace: local.owner().workspace,
        session,
    })
}

fn write_listing(out: &mut dyn Write, listing: &FsListing) -> std::io::Result<()> {
    if listing.entries.is_empty() {
        writeln!(out, "(empty)")?;
    }
    for entry in &listing.entries {
        match entry {
            FsEntry::Dir { name } => writeln!(out, "dir   {name}/")?,
            FsEntry::File { name, size } => writeln!(out, "file  {name}  ({})", bytes(*size))?,
        }
    }
    Ok(())
}

pub(crate) fn fs(local: &Local, args: FsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let service = &local.stores;
    match args.command {
        FsCommand::Ls {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_list(&caller, &FsPathRequest::new(path));
            emit(out, flag, result, write_listing)
        }
        FsCommand::Cat {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_read(&caller, &FsPathRequest::new(path));
            // Like cat: the content exactly, nothing added.
            emit(out, flag, result, |out, read| {
                out.write_all(read.content.as_bytes())
            })
        }
        FsCommand::Write {
            session,
            path,
            file,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let content = read_content(file.as_deref())?;
            let result = service.fs_write(&caller, &FsWriteRequest::new(path.as_str(), content));
            emit(out, flag, result, |out, memory| {
                write!(out, "wrote {path}: ")?;
                write_memory_header(out, memory)
            })
        }
        FsCommand::Rm {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_delete(&caller, &FsPathRequest::new(path.as_str()));
            emit(out, flag, result, |out, _| writeln!(out, "deleted {path}"))
        }
        FsCommand::Mv {
            session,
            from,
            to,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result =
                service.fs_rename(&caller, &FsRenameRequest::new(from.as_str(), to.as_str()));
            emit(out, flag, result, |out, memory| {
                write!(out, "moved {from} to {to}: ")?;
                write_memory_header(out, memory)
            })
        }
    }
}

/// `vacuum`: rewrites the database so that deleted and redacted content is gone from its files,
/// with a progress bar on stderr (drawn only when stderr is a terminal).
pub(crate) fn vacuum(local: &Local, args: VacuumArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "vacuum {bar:40.cyan/blue} {pos}/{len} entries ({eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let result = local.stores.vacuum(&|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let database = local.home.database_path(local.config.backend);
    let report = result.map(|r| {
        json!({
            "database": database,
            "bytes_before": r.bytes_before,
            "bytes_after": r.bytes_after,
            "entries": r.entries,
        })
    });
    emit(out, args.out, report, |out, r| {
        writeln!(
            out,
            "vacuumed {}: {} → {} ({} entries copied)",
            database.display(),
            bytes(r["bytes_before"].as_u64().unwrap_or_default()),
            bytes(r["bytes_after"].as_u64().unwrap_or_default()),
            r["entries"]
        )
    })
}

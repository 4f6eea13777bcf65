//! `agent-memory versions`: list, get and redact a store's memory versions.

use std::io::Write;

use agent_memory::types::store::Page;
use agent_memory::{Actor, ListVersionsRequest, MemoryVersion, VersionIdRequest, VersionOperation};

use super::shared::{
    StoreArg, bytes, limit, memory_id, store_id, version_id, write_more, write_text,
};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

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

//! `agent-memory memories`: create, get, list, update, delete and restore a store's memories.

use std::io::Write;
use std::path::PathBuf;

use agent_memory::types::StoreMemoryMetadata;
use agent_memory::types::store::Page;
use agent_memory::{
    CreateMemoryRequest, DeleteMemoryRequest, ListMemoriesRequest, MemoryIdRequest,
    RestoreMemoryRequest, StoreMemory, UpdateMemoryRequest,
};

use super::shared::{
    IfSha256, StoreArg, bytes, limit, memory_id, read_content, store_id, version_id,
    write_memory_header, write_more, write_text,
};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// Arguments of `agent-memory memories`.
#[derive(Debug, clap::Args)]
pub(crate) struct MemoriesArgs {
    #[command(subcommand)]
    command: MemoriesCommand,
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

fn write_memory_with_content(out: &mut dyn Write, memory: &StoreMemory) -> std::io::Result<()> {
    write_memory_header(out, memory)?;
    writeln!(out, "---")?;
    write_text(out, &memory.content)
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

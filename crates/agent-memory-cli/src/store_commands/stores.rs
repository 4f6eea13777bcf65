//! `agent-memory stores` (create, list, get, update, archive, delete) and `agent-memory vacuum`.

use std::io::Write;

use agent_memory::types::store::Page;
use agent_memory::{
    CreateStoreRequest, ListStoresRequest, MemoryStore, PiiPolicy, StoreIdRequest,
    UpdateStoreRequest,
};
use serde_json::json;

use super::shared::{bytes, limit, store_id, write_more};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

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

/// Arguments of `agent-memory vacuum`.
#[derive(Debug, clap::Args)]
pub(crate) struct VacuumArgs {
    #[command(flatten)]
    out: JsonFlag,
}

fn policy(policy: &str) -> PiiPolicy {
    match policy {
        "mask" => PiiPolicy::Mask,
        "reject" => PiiPolicy::Reject,
        // clap admits only allow, mask and reject.
        _ => PiiPolicy::Allow,
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

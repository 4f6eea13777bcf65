//! `agent-memory migrate --to sqlite`: copies a home's database into another embedded database
//! in the same home — the settings, every agent-memory version with its id, version number,
//! instants, supersession and embedding, and every memory store with every version of its
//! memories (ids, operations, authors, instants, redactions), and the passages memories cite —
//! then points `config.json` at the copy. The old database is left where it was, unchanged.
//!
//! The copy goes through the storage traits, written the way the facade writes, so that each
//! backend keeps its own indexes and counts: agent-memory versions oldest first (each keyed one
//! superseding its key's current version, as it once did), memory-store versions in the store's
//! commit order (a replacing rename as one write again, a redacted version written as a
//! placeholder and redacted once its successors are written).

use std::collections::HashMap;
use std::io::Write;

use agent_memory::backends::{Owner, Storage};
use agent_memory::storage::{
    MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome, RememberOutcome, RememberWrite,
};
use agent_memory::types::AgentMemory;
use agent_memory::{
    MemberId, MemoryStore, MemoryVersion, StorePath, Timestamp, VersionOperation, WorkspaceId,
};
use anyhow::{Context, bail};
use serde_json::json;

use crate::home::{BackendKind, Home, require_unused_database};
use crate::local::open_backend;

/// Arguments of `agent-memory migrate`.
#[derive(Debug, clap::Args)]
pub(crate) struct MigrateArgs {
    /// The database to move the home to.
    #[arg(long, value_enum, default_value_t = BackendKind::Sqlite)]
    to: BackendKind,
    #[command(flatten)]
    out: crate::output::JsonFlag,
}

/// Versions read per page.
const PAGE: usize = 500;

/// What was copied.
#[derive(Debug, Default)]
struct Copied {
    agent_memory_versions: u64,
    stores: u64,
    store_versions: u64,
}

/// Runs `agent-memory migrate`.
pub(crate) fn run(home: &Home, args: &MigrateArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut config = home.load_config()?;
    let from = config.backend;
    if from == args.to {
        bail!(
            "{} already uses {}; nothing to migrate",
            home.root().display(),
            from.name()
        );
    }
    if from == BackendKind::Postgres || args.to == BackendKind::Postgres {
        bail!("migrate moves a home between its embedded databases (sqlite, redb, sled) only");
    }
    // Both databases must be in this build, before anything is created.
    from.require_built()?;
    args.to.require_built()?;
    let source_path = home.database_path(from);
    let target_path = home.database_path(args.to);
    require_unused_database(&target_path, args.to).with_context(|| {
        format!(
            "{} is left from an earlier migrate that did not finish (config.json still names \
             {}): remove it and run migrate again",
            target_path.display(),
            from.name()
        )
    })?;
    // redb and sled lock their database: a running `mcp` or `mount` stops the migrate here
    // (STORAGE_LOCKED), before anything is copied, and no write can happen during the copy.
    let source = open_backend(from, &source_path, false)?;
    let target = open_backend(args.to, &target_path, true)?;
    let workspace = WorkspaceId::new(config.workspace.clone())?;
    let owner = Owner::new(workspace.clone(), MemberId::new(config.member.clone())?);
    let mut copied = Copied::default();
    if let Some(settings) = source.settings(&workspace)? {
        target.put_settings(&workspace, &settings)?;
    }
    copy_agent_memories(&*source, &*target, &owner, &mut copied)?;
    copy_stores(&*source, &*target, &workspace, &mut copied)?;
    copy_passages(&*source, &*target, &workspace)?;
    drop(target);
    drop(source);
    // Last, and atomically: an interrupted migrate leaves the home on its old database.
    config.backend = args.to;
    home.write_config(&config)?;

    if args.out.json {
        let answer = json!({
            "from": {"backend": from.name(), "database": source_path},
            "to": {"backend": args.to.name(), "database": target_path},
            "agentMemoryVersions": copied.agent_memory_versions,
            "stores": copied.stores,
            "storeVersions": copied.store_versions,
        });
        writeln!(out, "{answer}")?;
        return Ok(());
    }
    writeln!(
        out,
        "migrated {} from {} to {}",
        home.root().display(),
        from.name(),
        args.to.name()
    )?;
    writeln!(
        out,
        "  agent memories: {} versions",
        copied.agent_memory_versions
    )?;
    writeln!(
        out,
        "  memory stores:  {} stores, {} versions",
        copied.stores, copied.store_versions
    )?;
    writeln!(out, "  database:       {}", target_path.display())?;
    writeln!(
        out,
        "  the old database {} is unchanged and no longer used: remove it once the home works",
        source_path.display()
    )?;
    writeln!(
        out,
        "  sessions are not copied: create new ones with `agent-memory sessions create`"
    )?;
    Ok(())
}

/// Every passage of the workspace, record for record.
fn copy_passages(
    source: &dyn Storage,
    target: &dyn Storage,
    workspace: &WorkspaceId,
) -> anyhow::Result<()> {
    let mut after: Option<String> = None;
    loop {
        let page = source.list_passages(workspace, after.as_deref(), PAGE)?;
        for (id, record) in &page {
            target.put_passage(workspace, id, record)?;
        }
        if page.len() < PAGE {
            return Ok(());
        }
        after = page.last().map(|(id, _)| id.clone());
    }
}

/// Every version of the owner, oldest first, each written as the remember that made it.
fn copy_agent_memories(
    source: &dyn Storage,
    target: &dyn Storage,
    owner: &Owner,
    copied: &mut Copied,
) -> anyhow::Result<()> {
    let mut all: Vec<AgentMemory> = Vec::new();
    let mut after = None;
    loop {
        // Timestamp::MIN as the cut-off: expired versions not yet purged are copied too.
        let page = source.versions(owner, Timestamp::MIN, after.as_ref(), PAGE)?;
        let full = page.len() == PAGE;
        if let Some(last) = page.last() {
            after = Some((last.created_at, last.id.clone()));
        }
        all.extend(page);
        if !full {
            break;
        }
    }
    // The rate window keeps the last hour's remembers, as the source's did.
    let window_start = Timestamp::now().minus_seconds(3600);
    for version in all.into_iter().rev() {
        let mut record = version.clone();
        // Set again by the successor's write, at the successor's created_at.
        record.superseded_at = None;
        let key = version
            .key
            .as_deref()
            .map(|k| (version.namespace.as_str(), k));
        let outcome = target.remember(
            owner,
            &version.credential,
            key,
            window_start,
            Timestamp::MIN,
            &mut |state| {
                Ok(RememberWrite {
                    record: record.clone(),
                    supersede_current: state.current.is_some(),
                })
            },
        )?;
        match outcome {
            RememberOutcome::Written { record, .. } if record.created_at == version.created_at => {}
            _ => bail!(
                "agent memory {} could not be copied with its instant; the home is left on its \
                 old database",
                version.id
            ),
        }
        copied.agent_memory_versions += 1;
    }
    Ok(())
}

/// Every store of the workspace, archived ones too, with all of its versions.
fn copy_stores(
    source: &dyn Storage,
    target: &dyn Storage,
    workspace: &WorkspaceId,
    copied: &mut Copied,
) -> anyhow::Result<()> {
    let mut stores: Vec<MemoryStore> = Vec::new();
    let mut after = None;
    loop {
        let page = source.list_stores(workspace, true, after.as_ref(), PAGE)?;
        let full = page.len() == PAGE;
        if let Some(last) = page.last() {
            after = Some((last.created_at, last.id.clone()));
        }
        stores.extend(page);
        if !full {
            break;
        }
    }
    for store in stores {
        // Written unarchived (an archived store takes no write), its record restored at the end.
        let mut open = store.clone();
        open.archived_at = None;
        target.create_store(workspace, &open)?;
        copy_store_versions(source, target, workspace, &store, copied)?;
        target.put_store(workspace, &store)?;
        copied.stores += 1;
    }
    Ok(())
}

fn copy_store_versions(
    source: &dyn Storage,
    target: &dyn Storage,
    workspace: &WorkspaceId,
    store: &MemoryStore,
    copied: &mut Copied,
) -> anyhow::Result<()> {
    let mut versions: Vec<MemoryVersion> = Vec::new();
    let mut after = None;
    loop {
        let page = source.list_versions(workspace, &store.id, None, after.as_ref(), PAGE)?;
        let full = page.len() == PAGE;
        if let Some(last) = page.last() {
            after = Some((last.created_at, last.id.clone()));
        }
        versions.extend(page);
        if !full {
            break;
        }
    }
    versions.reverse();
    // The versions written so far of each memory, to find a restore's source.
    let mut written: HashMap<String, Vec<&MemoryVersion>> = HashMap::new();
    let write = |change: MemoryChange, version: &MemoryVersion| -> anyhow::Result<()> {
        let outcome = target.write_memory(&MemoryWrite {
            workspace: workspace.clone(),
            store: store.id.clone(),
            change,
            version_id: version.id.clone(),
            actor: version.created_by.clone(),
            at: version.created_at,
            personal_data: false,
        })?;
        match outcome {
            // A redacted version's instant may move by a millisecond: its placeholder cannot
            // share one write with a replacing rename's other half.
            MemoryWriteOutcome::Written { version: w, .. }
                if w.created_at == version.created_at || version.redacted_at.is_some() =>
            {
                Ok(())
            }
            _ => bail!(
                "version {} of store {} could not be copied as it is; the home is left on its \
                 old database",
                version.id,
                store.id
            ),
        }
    };
    let mut i = 0;
    while i < versions.len() {
        let version = &versions[i];
        // A replacing rename wrote two versions at one instant: the moved memory's `modified`
        // and the replaced one's `deleted` at the same path. It is one write again.
        if let Some(next) = versions.get(i + 1)
            && next.created_at == version.created_at
            && let Some((moved, replaced)) = replace_pair(version, next)
        {
            let path = moved.path.clone().context("a moved memory's path")?;
            write(
                MemoryChange::Replace {
                    memory_id: moved.memory_id.clone(),
                    path,
                    precondition: None,
                    replaced_version_id: replaced.id.clone(),
                },
                moved,
            )?;
            for v in [version, next] {
                written.entry(v.memory_id.to_string()).or_default().push(v);
            }
            copied.store_versions += 2;
            i += 2;
            continue;
        }
        let earlier = written.entry(version.memory_id.to_string()).or_default();
        let redacted = version.redacted_at.is_some();
        // A redacted version's content and path are gone: a placeholder at a path of its own
        // stands in until it is redacted below.
        let (path, content) = match (&version.path, &version.content) {
            (Some(path), Some(content)) if !redacted => (path.clone(), content.clone()),
            _ => (
                StorePath::parse(format!("/migrate-redacted/{}.md", version.id))?,
                String::new(),
            ),
        };
        let change = match version.operation {
            VersionOperation::Deleted => MemoryChange::Delete {
                memory_id: version.memory_id.clone(),
                precondition: None,
            },
            VersionOperation::Created if earlier.is_empty() => MemoryChange::Create {
                memory_id: version.memory_id.clone(),
                path,
                content,
            },
            // Created again after a delete, and redacted since: a restore of any earlier
            // version, redacted below.
            VersionOperation::Created if redacted => {
                let source_version = earlier
                    .iter()
                    .rev()
                    .find(|v| v.operation != VersionOperation::Deleted)
                    .context("a restored memory has an earlier version")?;
                MemoryChange::Restore {
                    memory_id: version.memory_id.clone(),
                    source: source_version.id.clone(),
                    precondition: None,
                }
            }
            // Created again after a delete: a restore of the earlier version it copied.
            VersionOperation::Created => {
                let source_version = earlier
                    .iter()
                    .rev()
                    .find(|v| {
                        v.redacted_at.is_none()
                            && v.operation != VersionOperation::Deleted
                            && v.content.as_ref() == Some(&content)
                            && v.path.as_ref() == Some(&path)
                    })
                    .with_context(|| {
                        format!(
                            "version {} restores content that was redacted since; migrate \
                             cannot copy it as it is (the home is left on its old database)",
                            version.id
                        )
                    })?;
                MemoryChange::Restore {
                    memory_id: version.memory_id.clone(),
                    source: source_version.id.clone(),
                    precondition: None,
                }
            }
            VersionOperation::Modified => MemoryChange::Update {
                memory_id: version.memory_id.clone(),
                content: Some(content),
                path: Some(path),
                precondition: None,
            },
        };
        write(change, version)?;
        earlier.push(version);
        copied.store_versions += 1;
        i += 1;
    }
    for version in versions.iter().filter(|v| v.redacted_at.is_some()) {
        let at = version.redacted_at.unwrap_or(version.created_at);
        match target.redact_version(workspace, &store.id, &version.id, at)? {
            RedactOutcome::Redacted(_) => {}
            RedactOutcome::Refused(err) => bail!(
                "version {} could not be redacted again ({err}); the home is left on its old \
                 database",
                version.id
            ),
        }
    }
    Ok(())
}

/// `(moved, replaced)` when `a` and `b` are the two versions of one replacing rename.
fn replace_pair<'v>(
    a: &'v MemoryVersion,
    b: &'v MemoryVersion,
) -> Option<(&'v MemoryVersion, &'v MemoryVersion)> {
    let pair = match (a.operation, b.operation) {
        (VersionOperation::Modified, VersionOperation::Deleted) => (a, b),
        (VersionOperation::Deleted, VersionOperation::Modified) => (b, a),
        _ => return None,
    };
    (pair.0.memory_id != pair.1.memory_id && pair.0.path.is_some() && pair.0.path == pair.1.path)
        .then_some(pair)
}

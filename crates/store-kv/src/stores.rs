//! Memory stores over an ordered key-value space: [`KvStores`], the one implementation of
//! [`StoreBackend`]'s rules, shared by every backend. A backend supplies [`Kv`] — a consistent
//! read view, and an exclusive read-then-write step whose writes land atomically. PostgreSQL
//! keeps agent memories in tables of its own, so it is no `KvBackend`, but its memory stores
//! are a `KvStores` over a table.
//!
//! # Layout
//!
//! Every key starts with a one-byte kind and the workspace as a length-delimited component (see
//! `keys`), so tenants never share a prefix:
//!
//! | kind | key after the workspace | value |
//! |---|---|---|
//! | `S` | store id | the store (JSON) |
//! | `M` | store id, memory id | the live memory without its content (JSON), or a tombstone |
//! | `P` | store id, path bytes | memory id (live memories only) |
//! | `V` | store id, version id | the version (JSON) |
//! | `O` | store id, order(`created_at`), version id | memory id |
//! | `H` | store id, memory id, order(`created_at`), version id | empty |
//! | `N` | session id | the session (JSON) |
//! | `C` | passage id bytes | the host's passage record (its own bytes) |
//! | `I` | import source | empty: the source's passages were imported |
//!
//! Lower-case kinds are those of agent memories (see `crate::agent`).
//!
//! `order(t)` is the instant's milliseconds with the sign bit flipped, big-endian, so byte order
//! is time order; paths and the trailing version ids are raw bytes, so byte order is the list
//! order the spec asks for. A path conflict is three point reads and one seek: the path itself,
//! each ancestor, and the first path after `path + "/"`.
//!
//! A live memory's content is kept once, in its current version (which cannot be redacted while
//! it is current): an update writes the content once, a no-op is detected by hash without reading
//! the old content, and lists read no content at all.

use memory_core::{
    ApiError, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Session,
    SessionId, StoreMemory, StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp,
    VersionOperation, WorkspaceId, content_sha256,
};
use serde::{Deserialize, Serialize};

use store_trait::keys::{order, prefix_end, push_component, unorder};
use store_trait::kv::{Kv, KvOp, KvRead};
use store_trait::{
    Error, MemoryChange, MemoryWrite, MemoryWriteOutcome, PassageRecords, RedactOutcome,
    StoreBackend,
};

const STORE: u8 = b'S';
const MEMORY: u8 = b'M';
const PATH: u8 = b'P';
const VERSION: u8 = b'V';
const ORDER: u8 = b'O';
const HISTORY: u8 = b'H';
const SESSION: u8 = b'N';
const PASSAGE: u8 = b'C';
const IMPORTED: u8 = b'I';

fn key(kind: u8, workspace: &WorkspaceId, parts: &[&str]) -> Vec<u8> {
    let mut out = vec![kind];
    push_component(&mut out, workspace.as_str());
    for part in parts {
        push_component(&mut out, part);
    }
    out
}

fn with_raw(mut prefix: Vec<u8>, raw: &[&[u8]]) -> Vec<u8> {
    for r in raw {
        prefix.extend_from_slice(r);
    }
    prefix
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(value).map_err(|e| Error::other("encoding a record", e))
}

fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, Error> {
    serde_json::from_slice(bytes).map_err(|e| Error::undecodable("key space: a record", e))
}

/// The `M` record: a live memory without its content (that is in its current version), or what
/// is left of a deleted one.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum MemoryRecord {
    Live(StoreMemoryMetadata),
    Deleted {
        deleted_at: Timestamp,
        created_at: Timestamp,
    },
}

/// The memory `meta` describes with `content`.
fn assemble(meta: StoreMemoryMetadata, content: String) -> StoreMemory {
    StoreMemory {
        id: meta.id,
        kind: meta.kind,
        memory_store_id: meta.memory_store_id,
        path: meta.path,
        content,
        content_sha256: meta.content_sha256,
        content_size_bytes: meta.content_size_bytes,
        version_id: meta.version_id,
        created_at: meta.created_at,
        updated_at: meta.updated_at,
    }
}

/// The current content of the live memory `meta`, from its current version.
fn current_content(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    meta: &StoreMemoryMetadata,
) -> Result<String, Error> {
    let version: Option<MemoryVersion> = get_json(
        r,
        &key(
            VERSION,
            workspace,
            &[meta.memory_store_id.as_str(), meta.version_id.as_str()],
        ),
    )?;
    version
        .and_then(|v| v.content)
        .ok_or_else(|| Error::corrupt("key space: a live memory's current version has no content"))
}

/// The live memory `id` with its content.
fn live_memory(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &StoreMemoryId,
) -> Result<Option<StoreMemory>, Error> {
    match memory_record(r, workspace, store, id)? {
        Some(MemoryRecord::Live(meta)) => {
            let content = current_content(r, workspace, &meta)?;
            Ok(Some(assemble(meta, content)))
        }
        _ => Ok(None),
    }
}

fn get_json<T: for<'de> Deserialize<'de>>(r: &dyn KvRead, key: &[u8]) -> Result<Option<T>, Error> {
    r.get(key)?.map(|b| decode(&b)).transpose()
}

fn store_of(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    id: &MemoryStoreId,
) -> Result<Option<MemoryStore>, Error> {
    get_json(r, &key(STORE, workspace, &[id.as_str()]))
}

fn memory_record(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &StoreMemoryId,
) -> Result<Option<MemoryRecord>, Error> {
    get_json(r, &key(MEMORY, workspace, &[store.as_str(), id.as_str()]))
}

fn path_key(workspace: &WorkspaceId, store: &MemoryStoreId, path: &str) -> Vec<u8> {
    with_raw(key(PATH, workspace, &[store.as_str()]), &[path.as_bytes()])
}

/// True when a live memory other than those in `except` has `path`, lies above it or under it.
fn path_taken(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    path: &StorePath,
    except: &[&StoreMemoryId],
) -> Result<bool, Error> {
    let other = |id: &[u8]| except.iter().all(|e| e.as_str().as_bytes() != id);
    if let Some(id) = r.get(&path_key(workspace, store, path.as_str()))?
        && other(&id)
    {
        return Ok(true);
    }
    let mut ancestor = path.parent();
    while let Some(a) = ancestor {
        if let Some(id) = r.get(&path_key(workspace, store, a.as_str()))?
            && other(&id)
        {
            return Ok(true);
        }
        ancestor = a.parent();
    }
    let below = path_key(workspace, store, &format!("{}/", path.as_str()));
    let end = prefix_end(&below);
    let mut found = false;
    r.range(&below, &end, false, &mut |_, id| {
        if other(id) {
            found = true;
            false
        } else {
            true
        }
    })?;
    Ok(found)
}

/// The writes that record `version` (of a memory of `store`).
fn version_ops(workspace: &WorkspaceId, version: &MemoryVersion) -> Result<Vec<KvOp>, Error> {
    let store = version.memory_store_id.as_str();
    let vid = version.id.as_str().as_bytes();
    let at = order(version.created_at);
    Ok(vec![
        KvOp::Put(
            key(VERSION, workspace, &[store, version.id.as_str()]),
            encode(version)?,
        ),
        KvOp::Put(
            with_raw(key(ORDER, workspace, &[store]), &[&at, vid]),
            version.memory_id.as_str().as_bytes().to_vec(),
        ),
        KvOp::Put(
            with_raw(
                key(HISTORY, workspace, &[store, version.memory_id.as_str()]),
                &[&at, vid],
            ),
            Vec::new(),
        ),
    ])
}

fn refused(code: ErrorCode, message: &'static str) -> MemoryWriteOutcome {
    MemoryWriteOutcome::Refused(ApiError::new(code, message))
}

fn precondition_refusal(
    precondition: Option<&memory_core::Precondition>,
    current: &StoreMemoryMetadata,
) -> Option<MemoryWriteOutcome> {
    precondition
        .filter(|p| !p.holds_for(&current.content_sha256))
        .map(|_| {
            MemoryWriteOutcome::Refused(ApiError::precondition_failed(
                current.content_sha256.clone(),
            ))
        })
}

/// The `deleted` version of the live memory `current` (it keeps the path; no content).
fn deleted_version(
    w: &MemoryWrite,
    current: &StoreMemoryMetadata,
    id: MemoryVersionId,
) -> MemoryVersion {
    MemoryVersion {
        id,
        kind: Default::default(),
        memory_store_id: w.store.clone(),
        memory_id: current.id.clone(),
        operation: VersionOperation::Deleted,
        path: Some(current.path.clone()),
        content: None,
        content_sha256: None,
        content_size_bytes: None,
        created_by: w.actor.clone(),
        created_at: w.at,
        redacted_at: None,
    }
}

/// The writes that delete `current` with its `deleted` version, except its path entry (a
/// delete removes it; a replace gives it to the memory moved there).
fn deletion_ops(
    workspace: &WorkspaceId,
    current: &StoreMemoryMetadata,
    version: &MemoryVersion,
) -> Result<Vec<KvOp>, Error> {
    let mut ops = version_ops(workspace, version)?;
    ops.push(KvOp::Put(
        key(
            MEMORY,
            workspace,
            &[current.memory_store_id.as_str(), current.id.as_str()],
        ),
        encode(&MemoryRecord::Deleted {
            deleted_at: version.created_at,
            created_at: current.created_at,
        })?,
    ));
    Ok(ops)
}

/// The `created_at` of the store's newest version (the last of its order index).
fn newest_version_at(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
) -> Result<Option<Timestamp>, Error> {
    let start = key(ORDER, workspace, &[store.as_str()]);
    let end = prefix_end(&start);
    let mut newest = None;
    r.range(&start, &end, true, &mut |k, _| {
        newest = k
            .get(start.len()..start.len() + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(unorder);
        false
    })?;
    Ok(newest)
}

/// The instant of the write `w`: its `at`, or 1 ms (the resolution of [`Timestamp`]) after the
/// store's newest version when `at` has not passed that ([`key_instant`](store_trait::key_instant)),
/// so that the versions of a store — and so of each of its memories — are in commit order by
/// `created_at`, whatever order the callers' clocks were read in. Decided inside the step,
/// before anything else reads `at`.
fn write_instant(r: &dyn KvRead, w: &MemoryWrite) -> Result<Timestamp, Error> {
    let latest = newest_version_at(r, &w.workspace, &w.store)?;
    Ok(store_trait::key_instant(w.at, latest))
}

/// Decides one memory write from `r`; the writes to apply come back with the outcome.
fn decide_write(r: &dyn KvRead, w: &MemoryWrite) -> Result<(MemoryWriteOutcome, Vec<KvOp>), Error> {
    let at = write_instant(r, w)?;
    let moved;
    let w = if at == w.at {
        w
    } else {
        moved = MemoryWrite { at, ..w.clone() };
        &moved
    };
    let ws = &w.workspace;
    let nothing = |o| Ok((o, Vec::new()));
    let Some(store) = store_of(r, ws, &w.store)? else {
        return nothing(refused(
            ErrorCode::MemoryStoreNotFound,
            "memory store not found",
        ));
    };
    let archived = || {
        refused(
            ErrorCode::MemoryStoreArchived,
            "the memory store is archived",
        )
    };
    let conflict = || {
        refused(
            ErrorCode::MemoryPathConflict,
            "a memory already has this path, or a path above or under it",
        )
    };
    let personal = || {
        refused(
            ErrorCode::MemoryPersonalData,
            "the content contains personal data and the store rejects it",
        )
    };
    // Writes besides the memory's own: the replaced memory's deletion.
    let mut extra_ops = Vec::new();
    // (memory before, memory after or None when deleted, operation)
    let (before_path, after, operation, created_at) = match &w.change {
        MemoryChange::Create {
            memory_id,
            path,
            content,
        } => {
            if store.is_archived() {
                return nothing(archived());
            }
            if memory_record(r, ws, &w.store, memory_id)?.is_some() {
                return Err(Error::InvalidWrite("the new memory's id is already stored"));
            }
            if path_taken(r, ws, &w.store, path, &[])? {
                return nothing(conflict());
            }
            if w.personal_data {
                return nothing(personal());
            }
            let memory = StoreMemory::new(
                memory_id.clone(),
                w.store.clone(),
                path.clone(),
                content.clone(),
                w.version_id.clone(),
                w.at,
            );
            (None, Some(memory), VersionOperation::Created, w.at)
        }
        MemoryChange::Update {
            memory_id,
            content,
            path,
            precondition,
        } => {
            let Some(MemoryRecord::Live(current)) = memory_record(r, ws, &w.store, memory_id)?
            else {
                return nothing(refused(ErrorCode::MemoryNotFound, "memory not found"));
            };
            if store.is_archived() {
                return nothing(archived());
            }
            let new_path = path.as_ref().unwrap_or(&current.path).clone();
            // Equal hashes are equal contents: the old content is never read for the test.
            let new_hash = content.as_deref().map(content_sha256);
            let same_content = new_hash
                .as_ref()
                .is_none_or(|h| *h == current.content_sha256);
            let old_content = |current: &StoreMemoryMetadata| match content {
                Some(c) if same_content => Ok(c.clone()),
                _ => current_content(r, ws, current),
            };
            if new_path == current.path && same_content {
                let content = old_content(&current)?;
                return nothing(MemoryWriteOutcome::Unchanged {
                    memory: assemble(current, content),
                });
            }
            if let Some(refusal) = precondition_refusal(precondition.as_ref(), &current) {
                return nothing(refusal);
            }
            if new_path != current.path && path_taken(r, ws, &w.store, &new_path, &[memory_id])? {
                return nothing(conflict());
            }
            if w.personal_data {
                return nothing(personal());
            }
            let new_content = match content {
                Some(c) if !same_content => c.clone(),
                _ => old_content(&current)?,
            };
            let before = current.path.clone();
            let created_at = current.created_at;
            let mut next = assemble(current, new_content);
            next.path = new_path;
            if let Some(hash) = new_hash.filter(|_| !same_content) {
                next.content_sha256 = hash;
                next.content_size_bytes = next.content.len() as u64;
            }
            next.version_id = w.version_id.clone();
            next.updated_at = w.at;
            (
                Some(before),
                Some(next),
                VersionOperation::Modified,
                created_at,
            )
        }
        MemoryChange::Delete {
            memory_id,
            precondition,
        } => {
            let Some(MemoryRecord::Live(current)) = memory_record(r, ws, &w.store, memory_id)?
            else {
                return nothing(refused(ErrorCode::MemoryNotFound, "memory not found"));
            };
            if store.is_archived() {
                return nothing(archived());
            }
            if let Some(refusal) = precondition_refusal(precondition.as_ref(), &current) {
                return nothing(refusal);
            }
            let version = deleted_version(w, &current, w.version_id.clone());
            let mut ops = deletion_ops(ws, &current, &version)?;
            ops.push(KvOp::Delete(path_key(ws, &w.store, current.path.as_str())));
            return Ok((
                MemoryWriteOutcome::Written {
                    memory: None,
                    version,
                },
                ops,
            ));
        }
        MemoryChange::Replace {
            memory_id,
            path,
            precondition,
            replaced_version_id,
        } => {
            let Some(MemoryRecord::Live(current)) = memory_record(r, ws, &w.store, memory_id)?
            else {
                return nothing(refused(ErrorCode::MemoryNotFound, "memory not found"));
            };
            if store.is_archived() {
                return nothing(archived());
            }
            if *path == current.path {
                let content = current_content(r, ws, &current)?;
                return nothing(MemoryWriteOutcome::Unchanged {
                    memory: assemble(current, content),
                });
            }
            if let Some(refusal) = precondition_refusal(precondition.as_ref(), &current) {
                return nothing(refusal);
            }
            // Only a memory exactly at `path` is replaced; one above or under it still conflicts.
            let replaced = match r.get(&path_key(ws, &w.store, path.as_str()))? {
                Some(id) => {
                    let id = StoreMemoryId::parse(String::from_utf8_lossy(&id).into_owned())
                        .map_err(|_| {
                            Error::corrupt("key space: a path index entry names no memory id")
                        })?;
                    match memory_record(r, ws, &w.store, &id)? {
                        Some(MemoryRecord::Live(target)) => Some(target),
                        _ => {
                            return Err(Error::corrupt(
                                "key space: a path index entry names no live memory",
                            ));
                        }
                    }
                }
                None => None,
            };
            let except: Vec<&StoreMemoryId> = std::iter::once(memory_id)
                .chain(replaced.as_ref().map(|t| &t.id))
                .collect();
            if path_taken(r, ws, &w.store, path, &except)? {
                return nothing(conflict());
            }
            if let Some(target) = &replaced {
                if *replaced_version_id == w.version_id {
                    return Err(Error::InvalidWrite(
                        "a replace needs two distinct version ids",
                    ));
                }
                let version = deleted_version(w, target, replaced_version_id.clone());
                extra_ops = deletion_ops(ws, target, &version)?;
            }
            let before = current.path.clone();
            let created_at = current.created_at;
            let content = current_content(r, ws, &current)?;
            let mut next = assemble(current, content);
            next.path = path.clone();
            next.version_id = w.version_id.clone();
            next.updated_at = w.at;
            (
                Some(before),
                Some(next),
                VersionOperation::Modified,
                created_at,
            )
        }
        MemoryChange::Restore {
            memory_id,
            source,
            precondition,
        } => {
            let Some(record) = memory_record(r, ws, &w.store, memory_id)? else {
                return nothing(refused(ErrorCode::MemoryNotFound, "memory not found"));
            };
            let version: Option<MemoryVersion> =
                get_json(r, &key(VERSION, ws, &[w.store.as_str(), source.as_str()]))?;
            let Some(version) = version.filter(|v| v.memory_id == *memory_id) else {
                return nothing(refused(
                    ErrorCode::MemoryVersionNotFound,
                    "memory version not found",
                ));
            };
            if store.is_archived() {
                return nothing(archived());
            }
            if let Some(code) = version.restore_refusal() {
                return nothing(MemoryWriteOutcome::Refused(ApiError::from(code)));
            }
            let (Some(path), Some(content)) = (version.path.clone(), version.content.clone())
            else {
                return Err(Error::corrupt(
                    "key space: a stored version without content is neither redacted nor deleted",
                ));
            };
            match record {
                MemoryRecord::Live(current) => {
                    let same_content =
                        version.content_sha256.as_deref() == Some(current.content_sha256.as_str());
                    if current.path == path && same_content {
                        return nothing(MemoryWriteOutcome::Unchanged {
                            memory: assemble(current, content),
                        });
                    }
                    if let Some(refusal) = precondition_refusal(precondition.as_ref(), &current) {
                        return nothing(refusal);
                    }
                    if path != current.path && path_taken(r, ws, &w.store, &path, &[memory_id])? {
                        return nothing(conflict());
                    }
                    let before = current.path.clone();
                    let created_at = current.created_at;
                    let mut next = assemble(current, String::new());
                    next.path = path;
                    next.set_content(content);
                    next.version_id = w.version_id.clone();
                    next.updated_at = w.at;
                    (
                        Some(before),
                        Some(next),
                        VersionOperation::Modified,
                        created_at,
                    )
                }
                MemoryRecord::Deleted { created_at, .. } => {
                    if path_taken(r, ws, &w.store, &path, &[memory_id])? {
                        return nothing(conflict());
                    }
                    let memory = StoreMemory::new(
                        memory_id.clone(),
                        w.store.clone(),
                        path,
                        content,
                        w.version_id.clone(),
                        w.at,
                    );
                    (None, Some(memory), VersionOperation::Created, created_at)
                }
            }
        }
    };
    let Some(mut memory) = after else {
        unreachable!("every arm but delete produces a memory")
    };
    memory.created_at = created_at;
    let version = MemoryVersion::snapshot(
        w.version_id.clone(),
        &memory,
        operation,
        w.actor.clone(),
        w.at,
    );
    let mut ops = extra_ops;
    ops.extend(version_ops(ws, &version)?);
    if let Some(old) = before_path.filter(|p| *p != memory.path) {
        ops.push(KvOp::Delete(path_key(ws, &w.store, old.as_str())));
    }
    ops.push(KvOp::Put(
        path_key(ws, &w.store, memory.path.as_str()),
        memory.id.as_str().as_bytes().to_vec(),
    ));
    ops.push(KvOp::Put(
        key(MEMORY, ws, &[w.store.as_str(), memory.id.as_str()]),
        encode(&MemoryRecord::Live(memory.metadata()))?,
    ));
    Ok((
        MemoryWriteOutcome::Written {
            memory: Some(memory),
            version,
        },
        ops,
    ))
}

/// Every key of `workspace` of `kind` under the store `store`.
fn store_range(kind: u8, workspace: &WorkspaceId, store: &MemoryStoreId) -> (Vec<u8>, Vec<u8>) {
    let start = key(kind, workspace, &[store.as_str()]);
    let end = prefix_end(&start);
    (start, end)
}

fn collect_keys(r: &dyn KvRead, (start, end): (Vec<u8>, Vec<u8>)) -> Result<Vec<Vec<u8>>, Error> {
    let mut keys = Vec::new();
    r.range(&start, &end, false, &mut |k, _| {
        keys.push(k.to_vec());
        true
    })?;
    Ok(keys)
}

// The operations, one per `StoreBackend` method.

fn create_store(kv: &impl Kv, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error> {
    let k = key(STORE, workspace, &[store.id.as_str()]);
    let value = encode(store)?;
    kv.step(&mut |r| {
        if r.get(&k)?.is_some() {
            return Err(Error::InvalidWrite("the new store's id is already stored"));
        }
        Ok(((), vec![KvOp::Put(k.clone(), value.clone())]))
    })
}

fn get_store(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &MemoryStoreId,
) -> Result<Option<MemoryStore>, Error> {
    kv.read(&mut |r| store_of(r, workspace, id))
}

fn list_stores(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    include_archived: bool,
    after: Option<&(Timestamp, MemoryStoreId)>,
    limit: usize,
) -> Result<Vec<MemoryStore>, Error> {
    let start = key(STORE, workspace, &[]);
    let end = prefix_end(&start);
    let mut stores: Vec<MemoryStore> = kv.read(&mut |r| {
        let mut out = Vec::new();
        let mut failed = None;
        r.range(&start, &end, false, &mut |_, v| match decode(v) {
            Ok(s) => {
                out.push(s);
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        })?;
        failed.map_or(Ok(out), Err)
    })?;
    stores.retain(|s: &MemoryStore| {
        (include_archived || !s.is_archived())
            && after.is_none_or(|(t, id)| (s.created_at, &s.id) < (*t, id))
    });
    stores.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    stores.truncate(limit);
    Ok(stores)
}

fn put_store(kv: &impl Kv, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error> {
    let k = key(STORE, workspace, &[store.id.as_str()]);
    let value = encode(store)?;
    kv.step(&mut |r| {
        if r.get(&k)?.is_none() {
            return Ok((false, Vec::new()));
        }
        Ok((true, vec![KvOp::Put(k.clone(), value.clone())]))
    })
}

fn delete_store(kv: &impl Kv, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error> {
    let k = key(STORE, workspace, &[id.as_str()]);
    kv.step(&mut |r| {
        if r.get(&k)?.is_none() {
            return Ok((false, Vec::new()));
        }
        let mut ops = vec![KvOp::Delete(k.clone())];
        for kind in [MEMORY, PATH, VERSION, ORDER, HISTORY] {
            ops.extend(
                collect_keys(r, store_range(kind, workspace, id))?
                    .into_iter()
                    .map(KvOp::Delete),
            );
        }
        Ok((true, ops))
    })
}

fn write_memory(kv: &impl Kv, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
    kv.step(&mut |r| decide_write(r, write))
}

fn get_memory(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &StoreMemoryId,
) -> Result<Option<StoreMemory>, Error> {
    kv.read(&mut |r| live_memory(r, workspace, store, id))
}

fn memory_at_path(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    path: &StorePath,
) -> Result<Option<StoreMemory>, Error> {
    kv.read(&mut |r| {
        let Some(id) = r.get(&path_key(workspace, store, path.as_str()))? else {
            return Ok(None);
        };
        let id = StoreMemoryId::parse(String::from_utf8_lossy(&id).into_owned())
            .map_err(|_| Error::corrupt("key space: a path index entry names no memory id"))?;
        live_memory(r, workspace, store, &id)
    })
}

fn list_memories(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    prefix: Option<&str>,
    after: Option<&StorePath>,
    limit: usize,
) -> Result<Vec<StoreMemoryMetadata>, Error> {
    let base = key(PATH, workspace, &[store.as_str()]);
    let prefix = prefix.map(|p| p.trim_end_matches('/')).unwrap_or("");
    let scope = with_raw(base.clone(), &[prefix.as_bytes()]);
    let end = prefix_end(&scope);
    let mut start = scope.clone();
    if let Some(after) = after {
        let mut past = with_raw(base.clone(), &[after.as_str().as_bytes()]);
        past.push(0);
        start = start.max(past);
    }
    if limit == 0 {
        return Ok(Vec::new());
    }
    kv.read(&mut |r| {
        let mut ids = Vec::new();
        r.range(&start, &end, false, &mut |k, id| {
            let path = String::from_utf8_lossy(&k[base.len()..]);
            let under = StorePath::parse(path.into_owned()).is_ok_and(|p| p.has_prefix(prefix));
            if under {
                ids.push(String::from_utf8_lossy(id).into_owned());
            }
            ids.len() < limit
        })?;
        let mut out = Vec::with_capacity(ids.len());
        for id in &ids {
            let id = StoreMemoryId::parse(id.clone())
                .map_err(|_| Error::corrupt("key space: a path index entry names no memory id"))?;
            if let Some(MemoryRecord::Live(m)) = memory_record(r, workspace, store, &id)? {
                out.push(m);
            }
        }
        Ok(out)
    })
}

fn get_version(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &MemoryVersionId,
) -> Result<Option<MemoryVersion>, Error> {
    kv.read(&mut |r| get_json(r, &key(VERSION, workspace, &[store.as_str(), id.as_str()])))
}

fn list_versions(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    memory: Option<&StoreMemoryId>,
    after: Option<&(Timestamp, MemoryVersionId)>,
    limit: usize,
) -> Result<Vec<MemoryVersion>, Error> {
    let base = match memory {
        Some(m) => key(HISTORY, workspace, &[store.as_str(), m.as_str()]),
        None => key(ORDER, workspace, &[store.as_str()]),
    };
    let start = base.clone();
    let end = match after {
        Some((t, id)) => with_raw(base.clone(), &[&order(*t), id.as_str().as_bytes()]),
        None => prefix_end(&base),
    };
    if limit == 0 {
        return Ok(Vec::new());
    }
    kv.read(&mut |r| {
        let mut ids = Vec::new();
        r.range(&start, &end, true, &mut |k, _| {
            // order (8 bytes) then the version id.
            ids.push(String::from_utf8_lossy(&k[base.len() + 8..]).into_owned());
            ids.len() < limit
        })?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let v: Option<MemoryVersion> =
                get_json(r, &key(VERSION, workspace, &[store.as_str(), &id]))?;
            out.push(
                v.ok_or_else(|| Error::corrupt("key space: an order entry names no version"))?,
            );
        }
        Ok(out)
    })
}

fn redact_version(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &MemoryVersionId,
    at: Timestamp,
) -> Result<RedactOutcome, Error> {
    let vkey = key(VERSION, workspace, &[store.as_str(), id.as_str()]);
    kv.step(&mut |r| {
        let nothing = |o| Ok((o, Vec::new()));
        let Some(stored) = store_of(r, workspace, store)? else {
            return nothing(RedactOutcome::Refused(ApiError::new(
                ErrorCode::MemoryStoreNotFound,
                "memory store not found",
            )));
        };
        let Some(mut version) = get_json::<MemoryVersion>(r, &vkey)? else {
            return nothing(RedactOutcome::Refused(ApiError::new(
                ErrorCode::MemoryVersionNotFound,
                "memory version not found",
            )));
        };
        // An archived store is read-only: even a repeated redaction is a write it refuses.
        if stored.is_archived() {
            return nothing(RedactOutcome::Refused(ApiError::new(
                ErrorCode::MemoryStoreArchived,
                "the memory store is archived",
            )));
        }
        if version.is_redacted() {
            return nothing(RedactOutcome::Redacted(version));
        }
        if let Some(MemoryRecord::Live(m)) = memory_record(r, workspace, store, &version.memory_id)?
            && m.version_id == *id
        {
            return nothing(RedactOutcome::Refused(ApiError::new(
                ErrorCode::MemoryVersionIsCurrent,
                "the version is the memory's current content; update or delete the memory first",
            )));
        }
        version.redact(at);
        Ok((
            RedactOutcome::Redacted(version.clone()),
            vec![KvOp::Put(vkey.clone(), encode(&version)?)],
        ))
    })
}

fn put_session(kv: &impl Kv, workspace: &WorkspaceId, session: &Session) -> Result<(), Error> {
    let k = key(SESSION, workspace, &[session.id.as_str()]);
    let value = encode(session)?;
    kv.step(&mut |_| Ok(((), vec![KvOp::Put(k.clone(), value.clone())])))
}

fn get_session(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &SessionId,
) -> Result<Option<Session>, Error> {
    kv.read(&mut |r| get_json(r, &key(SESSION, workspace, &[id.as_str()])))
}

/// The key of passage `id`: the id's raw bytes after the workspace, so key order is id order.
fn passage_key(workspace: &WorkspaceId, id: &str) -> Vec<u8> {
    with_raw(key(PASSAGE, workspace, &[]), &[id.as_bytes()])
}

fn put_passage(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &str,
    record: &[u8],
) -> Result<(), Error> {
    let k = passage_key(workspace, id);
    kv.step(&mut |_| Ok(((), vec![KvOp::Put(k.clone(), record.to_vec())])))
}

fn passages(kv: &impl Kv, workspace: &WorkspaceId, ids: &[&str]) -> Result<PassageRecords, Error> {
    kv.read(&mut |r| {
        ids.iter()
            .map(|id| r.get(&passage_key(workspace, id)))
            .collect()
    })
}

fn list_passages(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    after: Option<&str>,
    limit: usize,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let prefix = key(PASSAGE, workspace, &[]);
    let end = prefix_end(&prefix);
    let start = match after {
        // The first key after `after`'s own: its bytes and a zero byte.
        Some(after) => with_raw(passage_key(workspace, after), &[&[0]]),
        None => prefix.clone(),
    };
    kv.read(&mut |r| {
        let mut out = Vec::new();
        let mut failed = None;
        if limit > 0 {
            r.range(&start, &end, false, &mut |k, v| {
                match String::from_utf8(k[prefix.len()..].to_vec()) {
                    Ok(id) => out.push((id, v.to_vec())),
                    Err(_) => {
                        failed = Some(Error::corrupt("key space: a passage id is not UTF-8"));
                        return false;
                    }
                }
                out.len() < limit
            })?;
        }
        failed.map_or(Ok(out), Err)
    })
}

fn delete_passage(kv: &impl Kv, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
    let k = passage_key(workspace, id);
    kv.step(&mut |r| {
        if r.get(&k)?.is_none() {
            return Ok((false, vec![]));
        }
        Ok((true, vec![KvOp::Delete(k.clone())]))
    })
}

fn import_passages(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    source: &str,
    records: &[(String, Vec<u8>)],
) -> Result<bool, Error> {
    let marker = key(IMPORTED, workspace, &[source]);
    kv.step(&mut |r| {
        if r.get(&marker)?.is_some() {
            return Ok((false, vec![]));
        }
        let mut ops = vec![KvOp::Put(marker.clone(), Vec::new())];
        let mut seen = std::collections::HashSet::new();
        for (id, record) in records {
            let k = passage_key(workspace, id);
            // A passage put since is kept; of an id given twice, the first record wins.
            if seen.insert(k.clone()) && r.get(&k)?.is_none() {
                ops.push(KvOp::Put(k, record.clone()));
            }
        }
        Ok((true, ops))
    })
}

/// [`StoreBackend`] over the ordered key space `K`, laid out as this module says: the one
/// implementation of the memory-store rules, which every key-space backend and `store-postgres`
/// answer their memory-store calls with (through [`HasStores`](store_trait::HasStores)).
#[derive(Debug, Default)]
pub struct KvStores<K> {
    kv: K,
}

impl<K> KvStores<K> {
    /// The memory stores in `kv`.
    pub fn over(kv: K) -> Self {
        KvStores { kv }
    }

    /// The key space.
    pub fn kv(&self) -> &K {
        &self.kv
    }
}

/// Every method is the function of this module of its name.
impl<K: Kv + Send + Sync> StoreBackend for KvStores<K> {
    fn create_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error> {
        create_store(&self.kv, workspace, store)
    }

    fn get_store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, Error> {
        get_store(&self.kv, workspace, id)
    }

    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Result<Vec<MemoryStore>, Error> {
        list_stores(&self.kv, workspace, include_archived, after, limit)
    }

    fn put_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error> {
        put_store(&self.kv, workspace, store)
    }

    fn delete_store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error> {
        delete_store(&self.kv, workspace, id)
    }

    fn write_memory(&self, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
        write_memory(&self.kv, write)
    }

    fn get_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Result<Option<StoreMemory>, Error> {
        get_memory(&self.kv, workspace, store, id)
    }

    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, Error> {
        memory_at_path(&self.kv, workspace, store, path)
    }

    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Result<Vec<StoreMemoryMetadata>, Error> {
        list_memories(&self.kv, workspace, store, prefix, after, limit)
    }

    fn get_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Result<Option<MemoryVersion>, Error> {
        get_version(&self.kv, workspace, store, id)
    }

    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Result<Vec<MemoryVersion>, Error> {
        list_versions(&self.kv, workspace, store, memory, after, limit)
    }

    fn redact_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> Result<RedactOutcome, Error> {
        redact_version(&self.kv, workspace, store, id, at)
    }

    fn put_session(&self, workspace: &WorkspaceId, session: &Session) -> Result<(), Error> {
        put_session(&self.kv, workspace, session)
    }

    fn get_session(
        &self,
        workspace: &WorkspaceId,
        id: &SessionId,
    ) -> Result<Option<Session>, Error> {
        get_session(&self.kv, workspace, id)
    }

    fn put_passage(&self, workspace: &WorkspaceId, id: &str, record: &[u8]) -> Result<(), Error> {
        put_passage(&self.kv, workspace, id, record)
    }

    fn passages(&self, workspace: &WorkspaceId, ids: &[&str]) -> Result<PassageRecords, Error> {
        passages(&self.kv, workspace, ids)
    }

    fn list_passages(
        &self,
        workspace: &WorkspaceId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, Error> {
        list_passages(&self.kv, workspace, after, limit)
    }

    fn delete_passage(&self, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
        delete_passage(&self.kv, workspace, id)
    }

    fn import_passages(
        &self,
        workspace: &WorkspaceId,
        source: &str,
        records: &[(String, Vec<u8>)],
    ) -> Result<bool, Error> {
        import_passages(&self.kv, workspace, source, records)
    }
}

//! The memory write step: the order of refusals (preconditions, archived stores, path conflicts)
//! and the writes of a create, an update, a rename (replacing or not) and a delete.

use super::layout::{
    MEMORY, MemoryRecord, ORDER, VERSION, assemble, current_content, encode, get_json, key,
    memory_record, path_key, path_taken, store_of, version_ops,
};
use memory_core::{
    ApiError, ErrorCode, MemoryStoreId, MemoryVersion, MemoryVersionId, StoreMemory, StoreMemoryId,
    StoreMemoryMetadata, Timestamp, VersionOperation, WorkspaceId, content_sha256,
};
use store_trait::keys::{prefix_end, unorder};
use store_trait::kv::{Kv, KvOp, KvRead};
use store_trait::{Error, MemoryChange, MemoryWrite, MemoryWriteOutcome};

pub(crate) fn refused(code: ErrorCode, message: &'static str) -> MemoryWriteOutcome {
    MemoryWriteOutcome::Refused(ApiError::new(code, message))
}

pub(crate) fn precondition_refusal(
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
pub(crate) fn deleted_version(
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
pub(crate) fn deletion_ops(
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
pub(crate) fn newest_version_at(
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
pub(crate) fn write_instant(r: &dyn KvRead, w: &MemoryWrite) -> Result<Timestamp, Error> {
    let latest = newest_version_at(r, &w.workspace, &w.store)?;
    Ok(store_trait::key_instant(w.at, latest))
}

/// Decides one memory write from `r`; the writes to apply come back with the outcome.
pub(crate) fn decide_write(
    r: &dyn KvRead,
    w: &MemoryWrite,
) -> Result<(MemoryWriteOutcome, Vec<KvOp>), Error> {
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

pub(crate) fn write_memory(kv: &impl Kv, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
    kv.step(&mut |r| decide_write(r, write))
}

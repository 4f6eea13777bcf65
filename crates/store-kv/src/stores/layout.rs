//! The layout of memory stores in the key space (the table in `super`'s documentation): the key
//! kinds, the keys, the records, and the reads every operation shares (a store, a memory, a path
//! conflict).

use memory_core::{
    MemoryStore, MemoryStoreId, MemoryVersion, StoreMemory, StoreMemoryId, StoreMemoryMetadata,
    StorePath, Timestamp, WorkspaceId,
};
use serde::{Deserialize, Serialize};
use store_trait::keys::{order, prefix_end, push_component};
use store_trait::kv::{KvOp, KvRead};
use store_trait::{Error, JsonError};

pub(crate) const STORE: u8 = b'S';
pub(crate) const MEMORY: u8 = b'M';
pub(crate) const PATH: u8 = b'P';
pub(crate) const VERSION: u8 = b'V';
pub(crate) const ORDER: u8 = b'O';
pub(crate) const HISTORY: u8 = b'H';
pub(crate) const SESSION: u8 = b'N';
pub(crate) const PASSAGE: u8 = b'C';
pub(crate) const IMPORTED: u8 = b'I';
pub(crate) const PASSAGE_STAMP: u8 = b'G';

pub(crate) fn key(kind: u8, workspace: &WorkspaceId, parts: &[&str]) -> Vec<u8> {
    let mut out = vec![kind];
    push_component(&mut out, workspace.as_str());
    for part in parts {
        push_component(&mut out, part);
    }
    out
}

pub(crate) fn with_raw(mut prefix: Vec<u8>, raw: &[&[u8]]) -> Vec<u8> {
    for r in raw {
        prefix.extend_from_slice(r);
    }
    prefix
}

pub(crate) fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(value).map_err(|e| Error::other("encoding a record", JsonError::from(e)))
}

pub(crate) fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, Error> {
    serde_json::from_slice(bytes)
        .map_err(|e| Error::undecodable("key space: a record", JsonError::from(e)))
}

/// The `M` record: a live memory without its content (that is in its current version), or what
/// is left of a deleted one.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum MemoryRecord {
    Live(StoreMemoryMetadata),
    Deleted {
        deleted_at: Timestamp,
        created_at: Timestamp,
    },
}

/// The memory `meta` describes with `content`.
pub(crate) fn assemble(meta: StoreMemoryMetadata, content: String) -> StoreMemory {
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
pub(crate) fn current_content(
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
pub(crate) fn live_memory(
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

pub(crate) fn get_json<T: for<'de> Deserialize<'de>>(
    r: &dyn KvRead,
    key: &[u8],
) -> Result<Option<T>, Error> {
    r.get(key)?.map(|b| decode(&b)).transpose()
}

pub(crate) fn store_of(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    id: &MemoryStoreId,
) -> Result<Option<MemoryStore>, Error> {
    get_json(r, &key(STORE, workspace, &[id.as_str()]))
}

pub(crate) fn memory_record(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &StoreMemoryId,
) -> Result<Option<MemoryRecord>, Error> {
    get_json(r, &key(MEMORY, workspace, &[store.as_str(), id.as_str()]))
}

pub(crate) fn path_key(workspace: &WorkspaceId, store: &MemoryStoreId, path: &str) -> Vec<u8> {
    with_raw(key(PATH, workspace, &[store.as_str()]), &[path.as_bytes()])
}

/// True when a live memory other than those in `except` has `path`, lies above it or under it.
pub(crate) fn path_taken(
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
pub(crate) fn version_ops(
    workspace: &WorkspaceId,
    version: &MemoryVersion,
) -> Result<Vec<KvOp>, Error> {
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

/// Every key of `workspace` of `kind` under the store `store`.
pub(crate) fn store_range(
    kind: u8,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
) -> (Vec<u8>, Vec<u8>) {
    let start = key(kind, workspace, &[store.as_str()]);
    let end = prefix_end(&start);
    (start, end)
}

pub(crate) fn collect_keys(
    r: &dyn KvRead,
    (start, end): (Vec<u8>, Vec<u8>),
) -> Result<Vec<Vec<u8>>, Error> {
    let mut keys = Vec::new();
    r.range(&start, &end, false, &mut |k, _| {
        keys.push(k.to_vec());
        true
    })?;
    Ok(keys)
}

// The operations, one per `StoreBackend` method.

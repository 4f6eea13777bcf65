//! Stores, memories, versions and sessions: point reads, keyset lists, store writes and deletion,
//! and redaction.

use super::layout::{
    HISTORY, MEMORY, MemoryRecord, ORDER, PATH, SESSION, STORE, VERSION, collect_keys, decode,
    encode, get_json, key, live_memory, memory_record, path_key, store_of, store_range, with_raw,
};
use memory_core::{
    ApiError, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Session,
    SessionId, StoreMemory, StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp, WorkspaceId,
};
use store_trait::keys::{order, prefix_end};
use store_trait::kv::{Kv, KvOp};
use store_trait::{Error, RedactOutcome};

pub(crate) fn create_store(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStore,
) -> Result<(), Error> {
    let k = key(STORE, workspace, &[store.id.as_str()]);
    let value = encode(store)?;
    kv.step(&mut |r| {
        if r.get(&k)?.is_some() {
            return Err(Error::InvalidWrite("the new store's id is already stored"));
        }
        Ok(((), vec![KvOp::Put(k.clone(), value.clone())]))
    })
}

pub(crate) fn get_store(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &MemoryStoreId,
) -> Result<Option<MemoryStore>, Error> {
    kv.read(&mut |r| store_of(r, workspace, id))
}

pub(crate) fn list_stores(
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

pub(crate) fn put_store(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStore,
) -> Result<bool, Error> {
    let k = key(STORE, workspace, &[store.id.as_str()]);
    let value = encode(store)?;
    kv.step(&mut |r| {
        if r.get(&k)?.is_none() {
            return Ok((false, Vec::new()));
        }
        Ok((true, vec![KvOp::Put(k.clone(), value.clone())]))
    })
}

pub(crate) fn delete_store(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &MemoryStoreId,
) -> Result<bool, Error> {
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

pub(crate) fn get_memory(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &StoreMemoryId,
) -> Result<Option<StoreMemory>, Error> {
    kv.read(&mut |r| live_memory(r, workspace, store, id))
}

pub(crate) fn memory_at_path(
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

pub(crate) fn list_memories(
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

pub(crate) fn get_version(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    store: &MemoryStoreId,
    id: &MemoryVersionId,
) -> Result<Option<MemoryVersion>, Error> {
    kv.read(&mut |r| get_json(r, &key(VERSION, workspace, &[store.as_str(), id.as_str()])))
}

pub(crate) fn list_versions(
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

pub(crate) fn redact_version(
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

pub(crate) fn put_session(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    session: &Session,
) -> Result<(), Error> {
    let k = key(SESSION, workspace, &[session.id.as_str()]);
    let value = encode(session)?;
    kv.step(&mut |_| Ok(((), vec![KvOp::Put(k.clone(), value.clone())])))
}

pub(crate) fn get_session(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &SessionId,
) -> Result<Option<Session>, Error> {
    kv.read(&mut |r| get_json(r, &key(SESSION, workspace, &[id.as_str()])))
}

//! Reads of agent memories in one view: walks, point reads, the remember state's parts, the
//! history and its cache (the cache rule), and scans.

use std::sync::Arc;

use super::layout::{
    SETTINGS, STATS, VERSION, corrupt, decode, decode_stats, id_key, instant_at, owner_key,
    version_key, ws_key,
};
use memory_core::{AgentMemory, AgentMemoryId, Settings, Timestamp, WorkspaceId};
use store_trait::keys::{KeyEntry, prefix_end};
use store_trait::kv::{Kv, KvRead, VersionCache};
use store_trait::{Error, IndexStats, JsonError, MemberHistory, Owner};

/// A visitor of key-value entries that may fail: `Ok(false)` stops the walk.
pub(crate) type Visit<'v> = dyn FnMut(&[u8], &[u8]) -> Result<bool, Error> + 'v;

/// Visits the entries under `prefix` in key order until `visit` says stop or fails.
pub(crate) fn walk(
    r: &dyn KvRead,
    prefix: &[u8],
    reverse: bool,
    visit: &mut Visit<'_>,
) -> Result<(), Error> {
    let mut failed = None;
    r.range(
        prefix,
        &prefix_end(prefix),
        reverse,
        &mut |k, v| match visit(k, v) {
            Ok(go_on) => go_on,
            Err(e) => {
                failed = Some(e);
                false
            }
        },
    )?;
    failed.map_or(Ok(()), Err)
}

/// The keys under `prefix` in key order until `visit` says stop or fails; values are not read.
pub(crate) fn walk_keys(
    r: &dyn KvRead,
    prefix: &[u8],
    reverse: bool,
    visit: &mut dyn FnMut(&[u8]) -> Result<bool, Error>,
) -> Result<(), Error> {
    let mut failed = None;
    r.range_keys(
        prefix,
        &prefix_end(prefix),
        reverse,
        &mut |k| match visit(k) {
            Ok(go_on) => go_on,
            Err(e) => {
                failed = Some(e);
                false
            }
        },
    )?;
    failed.map_or(Ok(()), Err)
}

pub(crate) fn read_version(r: &dyn KvRead, key: &[u8]) -> Result<Option<AgentMemory>, Error> {
    r.get(key)?.map(|b| decode(&b)).transpose()
}

pub(crate) fn read_key_entry(r: &dyn KvRead, key: &[u8]) -> Result<Option<KeyEntry>, Error> {
    r.get(key)?
        .map(|b| KeyEntry::decode(&b).ok_or_else(|| corrupt("short key entry")))
        .transpose()
}

/// The owner's version `id` and its key, through the id index.
pub(crate) fn read_by_id(
    r: &dyn KvRead,
    owner: &Owner,
    id: &AgentMemoryId,
) -> Result<Option<(Vec<u8>, AgentMemory)>, Error> {
    let Some(at) = r.get(&id_key(owner, id))? else {
        return Ok(None);
    };
    let vkey = version_key(owner, instant_at(&at, 0)?, id);
    Ok(read_version(r, &vkey)?.map(|m| (vkey, m)))
}

/// The owner's stored versions with `created_at > cutoff`: the stored count of the statistics
/// less the expired ones not purged yet, counted from the oldest end of the owner's versions.
pub(crate) fn unexpired(r: &dyn KvRead, owner: &Owner, cutoff: Timestamp) -> Result<u64, Error> {
    let stored = match r.get(&owner_key(STATS, owner))? {
        Some(bytes) => decode_stats(&bytes)?.0.documents,
        None => 0,
    };
    let prefix = owner_key(VERSION, owner);
    let mut expired = 0_u64;
    walk_keys(r, &prefix, false, &mut |k| {
        if instant_at(k, prefix.len())? > cutoff {
            return Ok(false);
        }
        expired += 1;
        Ok(true)
    })?;
    Ok(stored.saturating_sub(expired))
}

/// The workspace's stored settings, if any ([`Backend::settings`](store_trait::Backend::settings),
/// and a remember's step, which reads them in its own transaction).
pub(crate) fn read_settings(
    r: &dyn KvRead,
    workspace: &WorkspaceId,
) -> Result<Option<Settings>, Error> {
    r.get(&ws_key(SETTINGS, workspace))?
        .map(|b| {
            serde_json::from_slice(&b)
                .map_err(|e| Error::undecodable("key space: settings", JsonError::from(e)))
        })
        .transpose()
}

pub(crate) fn read_window(r: &dyn KvRead, key: &[u8]) -> Result<Vec<Timestamp>, Error> {
    match r.get(key)? {
        Some(bytes) => {
            store_trait::keys::decode_window(&bytes).ok_or_else(|| corrupt("rate window"))
        }
        None => Ok(Vec::new()),
    }
}

// ---- The recall index ----

/// A decoded history and the generation it was read under.
pub(crate) type Cached = ([u8; 16], Arc<MemberHistory>);

/// Owners' decoded histories, each with the generation it was read under, for at most
/// [`HistoryCache::OWNERS`] owners.
#[derive(Default)]
pub(crate) struct HistoryCache(std::sync::Mutex<std::collections::HashMap<Owner, Cached>>);

impl HistoryCache {
    /// Owners kept: a host whose agents recall over whole histories for more members at once
    /// decodes some of them again.
    const OWNERS: usize = 32;

    pub(crate) fn get(&self, owner: &Owner, generation: &[u8; 16]) -> Option<Arc<MemberHistory>> {
        let map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.get(owner)
            .filter(|(g, _)| g == generation)
            .map(|(_, h)| Arc::clone(h))
    }

    pub(crate) fn put(&self, owner: &Owner, generation: [u8; 16], history: Arc<MemberHistory>) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= Self::OWNERS && !map.contains_key(owner) {
            let evicted = map.keys().next().cloned();
            if let Some(evicted) = evicted {
                map.remove(&evicted);
            }
        }
        map.insert(owner.clone(), (generation, history));
    }
}

/// The owner's versions newest first with the vectors their records hold, checked against the
/// statistics of `s`. Posting lists come from the rows' own term counts
/// ([`MemberHistory::postings_from_rows`]).
pub(crate) fn read_history(
    r: &dyn KvRead,
    owner: &Owner,
    stats: IndexStats,
    cache: &VersionCache,
) -> Result<MemberHistory, Error> {
    let prefix = owner_key(VERSION, owner);
    let mut rows = Vec::with_capacity(usize::try_from(stats.documents).unwrap_or(0));
    r.range_versions_cached(&prefix, &prefix_end(&prefix), true, cache, &mut |_, m| {
        rows.push(m);
        true
    })?;
    // The rows are in scan order already; the vectors and the statistics are the records'.
    let history = MemberHistory::from_versions(rows);
    if history.stats() != stats {
        return Err(corrupt("index statistics disagree with the versions"));
    }
    Ok(history)
}

/// The owner's unexpired versions in scan order after `after` that `keep` accepts, at most
/// `limit`, each as the key space hands it out ([`KvRead::range_versions`]: shared when it
/// keeps decoded versions).
pub(crate) fn scan_where(
    kv: &impl Kv,
    cache: &VersionCache,
    owner: &Owner,
    expired_cutoff: Timestamp,
    after: Option<&(Timestamp, AgentMemoryId)>,
    limit: usize,
    keep: &dyn Fn(&AgentMemory) -> bool,
) -> Result<Vec<Arc<AgentMemory>>, Error> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let prefix = owner_key(VERSION, owner);
    let end = match after {
        Some((at, id)) => version_key(owner, *at, id),
        None => prefix_end(&prefix),
    };
    kv.read(&mut |r| {
        let mut found = Vec::new();
        let mut failed = None;
        r.range_versions_cached(&prefix, &end, true, cache, &mut |k, memory| {
            // Newest first: the first expired version ends the walk.
            match instant_at(k, prefix.len()) {
                Ok(at) if at <= expired_cutoff => return false,
                Ok(_) => {}
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            }
            if keep(&memory) {
                found.push(memory);
            }
            found.len() < limit
        })?;
        failed.map_or(Ok(std::mem::take(&mut found)), Err)
    })
}

/// Owned copies of `shared` (free when nothing else holds them).
pub(crate) fn owned(shared: Vec<Arc<AgentMemory>>) -> Vec<AgentMemory> {
    shared.into_iter().map(Arc::unwrap_or_clone).collect()
}

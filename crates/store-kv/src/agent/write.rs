//! The steps that write agent memories: a remember, purges and deletions, and the rebuild of
//! the recall index an upgrade runs.

use std::collections::{BTreeMap, BTreeSet};

use super::layout::{
    COUNT, KEY, KEY_VERSION, POSTING, STATS, VECTOR, VERSION, decode, encode, encode_stats,
    fresh_generation, id_key, index_entries, key_of, owner_key, owner_of, suffix, window_key,
};
use super::pending::Pending;
use super::read::{
    read_key_entry, read_settings, read_version, read_window, unexpired, walk, walk_keys,
};
use memory_core::{ApiError, CredentialId, Timestamp};
use store_trait::keys::KeyEntry;
use store_trait::kv::{Kv, KvOp, KvRead};
use store_trait::{
    Error, IndexStats, Owner, RememberOutcome, RememberState, RememberWrite, check_decided_write,
    key_instant, latest_instant,
};

/// The writes that bring the recall index of every version in the key space to this build's
/// layout and analyzer: the upgrade of a database written before the index existed, by an
/// earlier analyzer (`fusion_rank::ANALYZER_VERSION`), or with postings, vectors and version
/// counts beside the versions (`t`, `v`, `c`), which this layout derives from the versions and
/// their statistics instead. Every `t`, `v` and `c` entry is deleted, every version whose
/// stored term counts differ from [`store_trait::reanalyzed`]'s is rewritten, and each
/// version's index entries and its owner's statistics are written afresh (a new generation),
/// all derived from the rewritten versions.
///
/// Running it twice writes the same index: its result depends on the versions' texts only.
pub fn build_index(r: &dyn KvRead) -> Result<Vec<KvOp>, Error> {
    let mut ops = Vec::new();
    for kind in [POSTING, VECTOR, COUNT] {
        walk(r, &[kind], false, &mut |k, _| {
            ops.push(KvOp::Delete(k.to_vec()));
            Ok(true)
        })?;
    }
    let mut stats: BTreeMap<Vec<u8>, IndexStats> = BTreeMap::new();
    walk(r, &[VERSION], false, &mut |k, v| {
        let stored = decode(v)?;
        let memory = store_trait::reanalyzed(&stored);
        if memory != stored {
            ops.push(KvOp::Put(k.to_vec(), encode(&memory)?));
        }
        ops.extend(
            index_entries(&memory)
                .into_iter()
                .map(|(k, v)| KvOp::Put(k, v)),
        );
        let s = stats
            .entry(owner_key(STATS, &owner_of(&memory)))
            .or_default();
        s.documents += 1;
        s.total_length += u64::from(memory.ranking.length);
        Ok(true)
    })?;
    ops.extend(
        stats
            .into_iter()
            .map(|(k, s)| KvOp::Put(k, encode_stats(s, fresh_generation()))),
    );
    Ok(ops)
}

// ---- The Backend methods ----

#[allow(
    clippy::too_many_arguments,
    reason = "the arguments of Backend::remember plus the key space"
)]
pub(crate) fn remember(
    kv: &impl Kv,
    owner: &Owner,
    credential: &CredentialId,
    key: Option<(&str, &str)>,
    window_start: Timestamp,
    expired_cutoff: Timestamp,
    decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
) -> Result<RememberOutcome, Error> {
    let wk = window_key(&owner.workspace, credential);
    let kp = key.map(|(namespace, key)| key_of(KEY, owner, namespace, key));
    let vprefix = owner_key(VERSION, owner);
    kv.step(&mut |r| {
        let stored_window = read_window(r, &wk)?;
        let entry = match &kp {
            Some(kp) => read_key_entry(r, kp)?.unwrap_or_default(),
            None => KeyEntry::default(),
        };
        let current = match &entry.current {
            Some(position) => read_version(r, &[&vprefix[..], position].concat())?,
            None => None,
        };
        let state = RememberState {
            window: stored_window
                .iter()
                .copied()
                .filter(|t| *t > window_start)
                .collect(),
            stored_versions: unexpired(r, owner, expired_cutoff)?,
            current,
            last_version: entry.last_version,
            settings: read_settings(r, &owner.workspace)?,
        };
        // The key's newest stored version carries its latest instant (a chain's instants
        // increase): the current one's `created_at` or, after a purge took it, a
        // `superseded_at`.
        let latest = match key {
            Some((namespace, k)) => {
                let prefix = key_of(KEY_VERSION, owner, namespace, k);
                let mut newest = None;
                walk_keys(r, &prefix, true, &mut |k| {
                    newest = Some(k[prefix.len()..].to_vec());
                    Ok(false)
                })?;
                let newest = match newest {
                    // Mostly the current version, already read.
                    Some(position) if entry.current.as_ref() == Some(&position) => {
                        state.current.as_ref().map(latest_instant)
                    }
                    Some(position) => read_version(r, &[&vprefix[..], &position].concat())?
                        .map(|m| latest_instant(&m)),
                    None => None,
                };
                newest.max(state.current.as_ref().map(|c| c.created_at))
            }
            None => None,
        };

        let write = match decide(&state) {
            Ok(write) => write,
            Err(refusal) => return Ok((RememberOutcome::Refused(refusal), Vec::new())),
        };
        let mut record = write.record;
        let id_taken = r.get(&id_key(owner, &record.id))?.is_some();
        check_decided_write(owner, credential, key, &record, id_taken)
            .map_err(Error::InvalidWrite)?;
        if key.is_some() {
            record.created_at = key_instant(record.created_at, latest);
        }

        let mut p = Pending::new(r);
        let mut window = stored_window;
        let at = window.partition_point(|t| *t <= record.created_at);
        window.insert(at, record.created_at);
        window.retain(|t| *t > window_start);
        p.put(wk.clone(), store_trait::keys::encode_window(&window));

        let mut superseded = None;
        if let Some(kp) = &kp {
            let previous = entry.current.clone();
            let next = KeyEntry {
                last_version: entry.last_version.max(record.version),
                current: Some(suffix(record.created_at, &record.id)),
            };
            p.put(kp.clone(), next.encode());
            // The current version was read above, from the same snapshot: it is the one
            // superseded, so it is not read and decoded a second time.
            if write.supersede_current
                && let Some(previous) = previous
                && let Some(mut old) = state.current
            {
                let previous_key = [&vprefix[..], &previous].concat();
                old.superseded_at = Some(record.created_at);
                p.put_version(owner, previous_key, &old)?;
                superseded = Some(old);
            }
        }
        p.insert_version(&record)?;
        Ok((RememberOutcome::Written { record, superseded }, p.ops()))
    })
}

/// Removes the versions whose `a` keys are the values of the index entries under `prefix` (a
/// purge), keeping their keys' numbering.
pub(crate) fn purge_indexed(kv: &impl Kv, prefix: &[u8], end: &[u8]) -> Result<u64, Error> {
    kv.step(&mut |r| {
        let mut doomed = BTreeSet::new();
        r.range(prefix, end, false, &mut |_, vkey| {
            doomed.insert(vkey.to_vec());
            true
        })?;
        let mut p = Pending::new(r);
        let mut n = 0;
        for vkey in &doomed {
            if p.remove_version(vkey)?.is_some() {
                n += 1;
            }
        }
        Ok((n, p.ops()))
    })
}

/// Removes every agent-memory version of `scope` (an owner's or a workspace's key bytes after
/// the kind) with its indexes, and resets its keys; returns the versions removed.
pub(crate) fn delete_scope(kv: &impl Kv, scope: &[u8]) -> Result<u64, Error> {
    let with = |kind: u8| [&[kind][..], scope].concat();
    kv.step(&mut |r| {
        let mut p = Pending::new(r);
        let mut removed = 0;
        walk(r, &with(VERSION), false, &mut |k, v| {
            let memory = decode(v)?;
            p.delete(k.to_vec());
            for (index, _) in index_entries(&memory) {
                p.delete(index);
            }
            removed += 1;
            Ok(true)
        })?;
        // Keys whose versions were all purged still hold their numbering: reset it too.
        for kind in [KEY, STATS] {
            let mut keys = Vec::new();
            walk(r, &with(kind), false, &mut |k, _| {
                keys.push(k.to_vec());
                Ok(true)
            })?;
            for k in keys {
                p.delete(k);
            }
        }
        Ok((removed, p.ops()))
    })
}

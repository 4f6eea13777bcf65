//! [`Pending`]: a step's writes so far, read through, so that a step touching several versions
//! sees its own earlier changes to their shared entries.

use std::collections::BTreeMap;

use super::layout::{
    KEY, KEY_VERSION, STATS, VERSION, corrupt, decode, decode_stats, encode, encode_stats,
    fresh_generation, index_entries, key_of, owner_key, owner_of, suffix, version_key,
};
use memory_core::AgentMemory;
use store_trait::keys::{KeyEntry, prefix_end};
use store_trait::kv::{KvOp, KvRead};
use store_trait::{Error, IndexStats, Owner};

// ---- A step's pending writes ----

/// A step's view: the snapshot under its writes so far, so that a step removing several versions
/// of one key or owner sees its own earlier changes to their shared entries.
pub(crate) struct Pending<'a> {
    base: &'a dyn KvRead,
    writes: BTreeMap<Vec<u8>, Option<Vec<u8>>>,
}

impl<'a> Pending<'a> {
    pub(crate) fn new(base: &'a dyn KvRead) -> Self {
        Pending {
            base,
            writes: BTreeMap::new(),
        }
    }

    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        match self.writes.get(key) {
            Some(value) => Ok(value.clone()),
            None => self.base.get(key),
        }
    }

    pub(crate) fn put(&mut self, key: Vec<u8>, value: Vec<u8>) {
        self.writes.insert(key, Some(value));
    }

    pub(crate) fn delete(&mut self, key: Vec<u8>) {
        self.writes.insert(key, None);
    }

    pub(crate) fn ops(self) -> Vec<KvOp> {
        self.writes
            .into_iter()
            .map(|(k, v)| match v {
                Some(v) => KvOp::Put(k, v),
                None => KvOp::Delete(k),
            })
            .collect()
    }

    /// Moves the owner's index statistics by the deltas and gives them a fresh generation (the
    /// entry goes when no version is left).
    pub(crate) fn add_stats(
        &mut self,
        owner: &Owner,
        documents: i64,
        length: i64,
    ) -> Result<(), Error> {
        let key = owner_key(STATS, owner);
        let old = match self.get(&key)? {
            Some(bytes) => decode_stats(&bytes)?.0,
            None => IndexStats::default(),
        };
        let new = IndexStats {
            documents: old.documents.saturating_add_signed(documents),
            total_length: old.total_length.saturating_add_signed(length),
        };
        if new.documents == 0 {
            self.delete(key);
        } else {
            self.put(key, encode_stats(new, fresh_generation()));
        }
        Ok(())
    }

    /// Writes a version record: the one way a step writes an `a` key, so that every such write
    /// moves the owner's generation.
    pub(crate) fn put_version(
        &mut self,
        owner: &Owner,
        key: Vec<u8>,
        memory: &AgentMemory,
    ) -> Result<(), Error> {
        self.put(key, encode(memory)?);
        self.add_stats(owner, 0, 0)
    }

    pub(crate) fn insert_version(&mut self, memory: &AgentMemory) -> Result<(), Error> {
        let owner = owner_of(memory);
        self.put(
            version_key(&owner, memory.created_at, &memory.id),
            encode(memory)?,
        );
        for (k, v) in index_entries(memory) {
            self.put(k, v);
        }
        self.add_stats(&owner, 1, i64::from(memory.ranking.length))
    }

    /// Removes the version stored under `vkey` and its index entries; a key whose current
    /// version it was is left without one (numbering kept). `None` when it is not stored.
    pub(crate) fn remove_version(&mut self, vkey: &[u8]) -> Result<Option<AgentMemory>, Error> {
        let Some(bytes) = self.get(vkey)? else {
            return Ok(None);
        };
        let memory = decode(&bytes)?;
        self.delete(vkey.to_vec());
        for (k, _) in index_entries(&memory) {
            self.delete(k);
        }
        let owner = owner_of(&memory);
        self.add_stats(&owner, -1, -i64::from(memory.ranking.length))?;
        if let Some(key) = &memory.key {
            let kp = key_of(KEY, &owner, &memory.namespace, key);
            if let Some(bytes) = self.get(&kp)? {
                let mut entry =
                    KeyEntry::decode(&bytes).ok_or_else(|| corrupt("short key entry"))?;
                if entry.current.as_deref() == Some(&suffix(memory.created_at, &memory.id)[..]) {
                    entry.current = None;
                    self.put(kp, entry.encode());
                }
            }
        }
        Ok(Some(memory))
    }

    /// Removes every version of (namespace, key), newest first, and the key's entry; nothing when
    /// the key has no stored version (its numbering is kept then).
    pub(crate) fn forget_key(
        &mut self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        let prefix = key_of(KEY_VERSION, owner, namespace, key);
        let mut positions = Vec::new();
        self.base
            .range(&prefix, &prefix_end(&prefix), true, &mut |k, _| {
                positions.push(k[prefix.len()..].to_vec());
                true
            })?;
        if positions.is_empty() {
            return Ok(Vec::new());
        }
        let vprefix = owner_key(VERSION, owner);
        let mut removed = Vec::with_capacity(positions.len());
        for position in positions {
            removed.extend(self.remove_version(&[&vprefix[..], &position].concat())?);
        }
        self.delete(key_of(KEY, owner, namespace, key));
        Ok(removed)
    }
}

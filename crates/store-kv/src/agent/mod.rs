//! Agent memories over an ordered key-value space: the one implementation of [`Backend`]'s
//! rules for every backend that supplies a [`Kv`], and [`KvBackend`], the wrapper that gives such
//! a key space both [`Backend`] and [`StoreBackend`](store_trait::StoreBackend) (its
//! [`KvStores`]) with nothing written per backend.
//!
//! # Layout
//!
//! Every key starts with a one-byte kind (lower case, so never one of `crate::stores`' memory-store
//! kinds) and the workspace as a length-delimited component (`keys::push_component`); owner keys
//! add the member as a second component, so owners and workspaces never share a prefix and
//! everything is compared by exact equality. `order(t)` is the instant's milliseconds with the
//! sign bit flipped, big-endian (byte order is time order); a version id closes its key as raw
//! bytes, so byte order is `(created_at, id)` order and a scan walks backwards.
//!
//! | kind | key after the workspace | value |
//! |---|---|---|
//! | `a` | member, order(`created_at`), id | the version (`codec`) |
//! | `i` | member, id | order(`created_at`) |
//! | `k` | member, namespace, key | last version (u32 BE) ‖ current version's order ‖ id (if any) |
//! | `j` | member, namespace, key, order(`created_at`), id | empty: every stored version of a key |
//! | `e` | order(`created_at`), member, id | the version's `a` key (retention purge) |
//! | `d` | document id, member, order(`created_at`), id | the version's `a` key (citations) |
//! | `l` | collection id, member, order(`created_at`), id | the version's `a` key (collection or citation) |
//! | `r` | credential | accepted remember instants, oldest first, i64 BE ms each |
//! | `g` | — | the workspace's settings (JSON) |
//! | `s` | member | versions stored, expired ones included (u64 BE) ‖ their total length (u64 BE) ‖ generation (16 bytes) |
//!
//! Every change that touches several keys — a remember with its supersede, window, statistics
//! and indexes; a forget; a purge; a deletion — is one [`Kv::step`], so it lands whole or not at
//! all.
//!
//! A version's `i`, `j`, `e`, `d` and `l` entries come from [`index_entries`], the one function
//! that both writes them with the version and deletes them with it, so no index entry can
//! outlive its version.
//!
//! Kinds only earlier formats wrote are written no more, and [`build_index`](crate::build_index),
//! the upgrade, deletes every entry of them: `c` (member → versions stored, u64 BE; SQLite 1 to
//! 3, redb and sled 4 to 6), which `s` counts too; `t` (member, term, order(`created_at`), id →
//! the term's frequency in the version, u32 BE) and `v` (member, order(`created_at`), id → the
//! version's embedding, model ‖ f32 LE values; both SQLite 2 and 3, redb and sled 5 and 6),
//! which every version's record holds.
//!
//! # The recall index
//!
//! Recall over a whole history ([`Backend::history`]) decodes every version record of the
//! member, and each record already holds its term counts and its embedding, so nothing of them
//! is written a second time: [`read_history`] lays the records' embeddings side by side, and
//! the posting list of an asked term comes from the rows' term counts
//! ([`MemberHistory::postings_from_rows`], kept in the history). The index is `s`: the member's
//! index statistics, kept exactly (its count of versions is also the quota's), and a
//! *generation*: sixteen bytes rewritten, unique, by every step that writes or deletes one of
//! the member's versions ([`Pending`] does it for every version key it touches). A history read
//! checks its versions against the statistics, and a read that finds the generation it decoded
//! the history under reuses that decoded history (its posting lists included); any other
//! generation means the versions changed, in this process or another, and it reads them again.
//! An owner without versions has no `s` entry.

pub(crate) mod layout;
pub(crate) mod pending;
mod read;
pub(crate) mod write;

use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, StoredEmbedding, Timestamp,
    WorkspaceId,
};
use store_trait::keys::{order, prefix_end, push_component};
use store_trait::kv::{Decided, Kv, KvOp, KvRead, VersionCache};
use store_trait::{
    Backend, Database, Durability, Error, HasStores, History, JsonError, MemberHistory, Owner,
    RememberOutcome, RememberState, RememberWrite, ScanQuery, VacuumReport,
};

use crate::stores::KvStores;
use layout::{
    COLLECTION, DOCUMENT, EXPIRY, KEY, SETTINGS, STATS, VERSION, decode_stats, index_entries,
    key_of, owner_key, ws_key,
};
use pending::Pending;
use read::{
    HistoryCache, owned, read_by_id, read_history, read_key_entry, read_version, scan_where,
    unexpired,
};
use write::{delete_scope, purge_indexed, remember};

/// [`Backend`] and [`StoreBackend`](store_trait::StoreBackend) over the ordered key space `K`:
/// agent memories laid out as this module says, memory stores as [`KvStores`] lays them out
/// (its [`HasStores`]). A backend supplies the key space and nothing else.
#[derive(Default)]
pub struct KvBackend<K> {
    stores: KvStores<K>,
    /// Decoded histories of recently read owners, each under the generation it was read at.
    histories: HistoryCache,
    /// Decoded versions with the bytes they were decoded from: a scan or a history read
    /// decodes only the values it has not met with these exact bytes.
    versions: VersionCache,
}

impl<K: std::fmt::Debug> std::fmt::Debug for KvBackend<K> {
    /// The key space only: the cache holds memory content, which never goes into logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("KvBackend").field(self.kv()).finish()
    }
}

impl<K> KvBackend<K> {
    /// The backend over `kv`.
    pub fn over(kv: K) -> Self {
        KvBackend {
            stores: KvStores::over(kv),
            histories: HistoryCache::default(),
            versions: VersionCache::default(),
        }
    }

    /// The key space.
    pub fn kv(&self) -> &K {
        self.stores.kv()
    }
}

/// Memory stores are the key space's, as [`KvStores`] lays them out.
impl<K: Kv + Send + Sync> HasStores for KvBackend<K> {
    type Stores = KvStores<K>;

    fn stores(&self) -> &KvStores<K> {
        &self.stores
    }
}

impl<K: Kv> Kv for KvBackend<K> {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        self.kv().read(f)
    }

    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        self.kv().step(f)
    }
}

/// The key space is the whole database: its vacuum, format and durability are the backend's.
impl<K: Kv + Database> Database for KvBackend<K> {
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        self.kv().vacuum(progress)
    }

    fn format_version(&self) -> Option<u32> {
        self.kv().format_version()
    }

    fn durability(&self) -> Option<Durability> {
        self.kv().durability()
    }
}

impl<K: Kv + Send + Sync> Backend for KvBackend<K> {
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        remember(
            self.kv(),
            owner,
            credential,
            key,
            window_start,
            expired_cutoff,
            decide,
        )
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        self.kv()
            .read(&mut |r| Ok(read_by_id(r, owner, id)?.map(|(_, m)| m)))
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        let kp = key_of(KEY, owner, namespace, key);
        let vprefix = owner_key(VERSION, owner);
        self.kv().read(
            &mut |r| match read_key_entry(r, &kp)?.and_then(|e| e.current) {
                Some(position) => read_version(r, &[&vprefix[..], &position].concat()),
                None => Ok(None),
            },
        )
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error> {
        self.scan_shared(owner, query).map(owned)
    }

    fn between_writes(&self, owner: &Owner, settle: &mut dyn FnMut()) -> Result<(), Error> {
        // A step without writes runs while no other step does: no remember is in flight.
        let _ = owner;
        let mut settled = false;
        let stepped = self.kv().step(&mut |_| {
            settle();
            settled = true;
            Ok(((), Vec::new()))
        });
        match stepped {
            // A database opened read-only cannot hold writers back; it still settles.
            Err(e) if e.failure() == store_trait::StorageFailure::ReadOnly => {
                if !settled {
                    settle();
                }
                Ok(())
            }
            other => other,
        }
    }

    fn history(&self, owner: &Owner, terms: &[String]) -> Result<History, Error> {
        let stats_key = owner_key(STATS, owner);
        self.kv().read(&mut |r| {
            let versions = match r.get(&stats_key)? {
                None => Arc::new(MemberHistory::default()),
                Some(bytes) => {
                    let (stats, generation) = decode_stats(&bytes)?;
                    match self.histories.get(owner, &generation) {
                        Some(history) => history,
                        None => {
                            let history = Arc::new(read_history(r, owner, stats, &self.versions)?);
                            self.histories.put(owner, generation, Arc::clone(&history));
                            history
                        }
                    }
                }
            };
            let postings = versions.postings_from_rows(terms);
            Ok(History { versions, postings })
        })
    }

    fn scan_shared(
        &self,
        owner: &Owner,
        query: &ScanQuery,
    ) -> Result<Vec<Arc<AgentMemory>>, Error> {
        scan_where(
            self.kv(),
            &self.versions,
            owner,
            query.expired_cutoff,
            query.after.as_ref(),
            query.limit,
            &|m| query.matches(m),
        )
    }

    fn versions(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        scan_where(
            self.kv(),
            &self.versions,
            owner,
            expired_cutoff,
            after,
            limit,
            &|_| true,
        )
        .map(owned)
    }

    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        self.kv().step(&mut |r| {
            let Some((vkey, mut memory)) = read_by_id(r, owner, id)? else {
                return Ok((false, Vec::new()));
            };
            let mut p = Pending::new(r);
            for (k, _) in index_entries(&memory) {
                p.delete(k);
            }
            memory.ranking.embedding = Some(embedding.clone());
            for (k, v) in index_entries(&memory) {
                p.put(k, v);
            }
            p.put_version(owner, vkey, &memory)?;
            Ok((true, p.ops()))
        })
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        self.kv().step(&mut |r| {
            let mut p = Pending::new(r);
            let removed = p.forget_key(owner, namespace, key)?;
            Ok((removed, p.ops()))
        })
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        self.kv().step(&mut |r| {
            let Some((vkey, memory)) = read_by_id(r, owner, id)? else {
                return Ok((Vec::new(), Vec::new()));
            };
            let mut p = Pending::new(r);
            let removed = match &memory.key {
                Some(key) => p.forget_key(owner, &memory.namespace, key)?,
                None => p.remove_version(&vkey)?.into_iter().collect(),
            };
            Ok((removed, p.ops()))
        })
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        delete_scope(self.kv(), &owner_key(VERSION, owner)[1..])
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        // The workspace's windows and settings have kinds of their own and stay.
        delete_scope(self.kv(), &ws_key(VERSION, workspace)[1..])
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        let prefix = ws_key(EXPIRY, workspace);
        let end = prefix_end(&[&prefix[..], &order(cutoff)].concat());
        purge_indexed(self.kv(), &prefix, &end)
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        let mut prefix = ws_key(DOCUMENT, workspace);
        push_component(&mut prefix, document_id);
        purge_indexed(self.kv(), &prefix, &prefix_end(&prefix))
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        let mut prefix = ws_key(COLLECTION, workspace);
        push_component(&mut prefix, collection_id);
        purge_indexed(self.kv(), &prefix, &prefix_end(&prefix))
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        self.kv().read(&mut |r| unexpired(r, owner, expired_cutoff))
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        self.kv().read(&mut |r| read::read_settings(r, workspace))
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let key = ws_key(SETTINGS, workspace);
        let value = serde_json::to_vec(settings)
            .map_err(|e| Error::other("encoding settings", JsonError::from(e)))?;
        self.kv()
            .step(&mut |_| Ok(((), vec![KvOp::Put(key.clone(), value.clone())])))
    }
}

#[cfg(test)]
mod tests {
    use memory_core::MemberId;
    use store_trait::keys::KeyEntry;

    use super::layout::{instant_at, suffix};
    use super::*;

    #[test]
    fn positions_sort_by_instant_then_id() {
        let id = |s: &str| AgentMemoryId::parse(s).unwrap();
        let instants = [
            Timestamp::MIN,
            Timestamp::from_millis(-1).unwrap(),
            Timestamp::UNIX_EPOCH,
            Timestamp::from_millis(1).unwrap(),
            Timestamp::MAX,
        ];
        let ids = ["amem_1", "amem_10", "amem_1_", "amem_2", "amem_A", "amem_a"];
        let mut versions: Vec<(Timestamp, AgentMemoryId)> = instants
            .iter()
            .flat_map(|t| ids.iter().map(move |i| (*t, id(i))))
            .collect();
        let mut by_key = versions.clone();
        by_key.sort_by_key(|(t, i)| suffix(*t, i));
        versions.sort();
        assert_eq!(by_key, versions);
        for (t, i) in &versions {
            assert_eq!(instant_at(&suffix(*t, i), 0).unwrap(), *t);
        }
    }

    #[test]
    fn owner_keys_never_share_a_prefix() {
        let owner =
            |w: &str, m: &str| Owner::new(WorkspaceId::new(w).unwrap(), MemberId::new(m).unwrap());
        let (a, b) = (
            owner_key(VERSION, &owner("a", "bc")),
            owner_key(VERSION, &owner("ab", "c")),
        );
        assert!(!a.starts_with(&b) && !b.starts_with(&a));
        assert!(
            !key_of(KEY, &owner("a", "b"), "n", "k_").starts_with(&key_of(
                KEY,
                &owner("a", "b"),
                "n",
                "k"
            ))
        );
        let entry = KeyEntry {
            last_version: 7,
            current: Some(b"position".to_vec()),
        };
        assert_eq!(KeyEntry::decode(&entry.encode()), Some(entry));
    }
}

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
//! | `c` | member | versions stored, expired ones included (u64 BE) |
//! | `e` | order(`created_at`), member, id | the version's `a` key (retention purge) |
//! | `d` | document id, member, order(`created_at`), id | the version's `a` key (citations) |
//! | `l` | collection id, member, order(`created_at`), id | the version's `a` key (collection or citation) |
//! | `r` | credential | accepted remember instants, oldest first, i64 BE ms each |
//! | `g` | — | the workspace's settings (JSON) |
//! | `t` | member, term, order(`created_at`), id | the term's frequency in the version (u32 BE) |
//! | `v` | member, order(`created_at`), id | the version's embedding: model ‖ f32 LE values |
//! | `s` | member | versions stored (u64 BE) ‖ their total length (u64 BE) ‖ generation (16 bytes) |
//!
//! Every change that touches several keys — a remember with its supersede, window, count and
//! indexes; a forget; a purge; a deletion — is one [`Kv::step`], so it lands whole or not at all.
//!
//! # The recall index
//!
//! `t` (the inverted index: one posting per term of a version's masked text) and `v` (its
//! embedding) are derived from a version by [`index_entries`], the one function that both
//! writes them with the version and deletes them with it, so no index entry can outlive its
//! version. `s` keeps the member's index statistics exactly and a *generation*: sixteen bytes
//! rewritten, unique, by every step that writes or deletes one of the member's versions
//! ([`Pending`] does it for every version key it touches). A read that finds the generation
//! it decoded the history under reuses that decoded history; any other generation means the
//! versions changed, in this process or another, and it reads them again. An owner without
//! versions has no `s` entry.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, StoredEmbedding, Timestamp,
    WorkspaceId,
};

use store_trait::keys::{KeyEntry, order, prefix_end, push_component, unorder};
use store_trait::kv::{Decided, Kv, KvOp, KvRead};
use store_trait::{
    Backend, Database, Durability, Error, HasStores, History, IndexStats, MemberHistory, Owner,
    Postings, RememberOutcome, RememberState, RememberWrite, ScanQuery, VacuumReport, VectorTable,
    check_decided_write, key_instant, latest_instant,
};

use crate::KvStores;

const VERSION: u8 = b'a';
const ID: u8 = b'i';
pub(crate) const KEY: u8 = b'k';
const KEY_VERSION: u8 = b'j';
const COUNT: u8 = b'c';
const EXPIRY: u8 = b'e';
const DOCUMENT: u8 = b'd';
const COLLECTION: u8 = b'l';
const WINDOW: u8 = b'r';
pub(crate) const SETTINGS: u8 = b'g';
const POSTING: u8 = b't';
const VECTOR: u8 = b'v';
const STATS: u8 = b's';

/// [`Backend`] and [`StoreBackend`](store_trait::StoreBackend) over the ordered key space `K`:
/// agent memories laid out as this module says, memory stores as [`KvStores`] lays them out
/// (its [`HasStores`]). A backend supplies the key space and nothing else.
#[derive(Default)]
pub struct KvBackend<K> {
    stores: KvStores<K>,
    /// Decoded histories of recently read owners, each under the generation it was read at.
    histories: HistoryCache,
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

// ---- Keys ----

pub(crate) fn ws_key(kind: u8, workspace: &WorkspaceId) -> Vec<u8> {
    let mut out = vec![kind];
    push_component(&mut out, workspace.as_str());
    out
}

fn owner_key(kind: u8, owner: &Owner) -> Vec<u8> {
    let mut out = ws_key(kind, &owner.workspace);
    push_component(&mut out, owner.member.as_str());
    out
}

/// A version's position: order(`created_at`) ‖ id.
pub(crate) fn suffix(created_at: Timestamp, id: &AgentMemoryId) -> Vec<u8> {
    let mut out = order(created_at).to_vec();
    out.extend_from_slice(id.as_str().as_bytes());
    out
}

fn version_key(owner: &Owner, created_at: Timestamp, id: &AgentMemoryId) -> Vec<u8> {
    let mut out = owner_key(VERSION, owner);
    out.extend(suffix(created_at, id));
    out
}

fn id_key(owner: &Owner, id: &AgentMemoryId) -> Vec<u8> {
    let mut out = owner_key(ID, owner);
    out.extend_from_slice(id.as_str().as_bytes());
    out
}

pub(crate) fn key_of(kind: u8, owner: &Owner, namespace: &str, key: &str) -> Vec<u8> {
    let mut out = owner_key(kind, owner);
    push_component(&mut out, namespace);
    push_component(&mut out, key);
    out
}

pub(crate) fn window_key(workspace: &WorkspaceId, credential: &CredentialId) -> Vec<u8> {
    let mut out = ws_key(WINDOW, workspace);
    push_component(&mut out, credential.as_str());
    out
}

/// `<kind> workspace <component> member order id`: a citation or collection index entry.
fn cited_key(kind: u8, memory: &AgentMemory, cited: &str) -> Vec<u8> {
    let mut out = ws_key(kind, &memory.workspace);
    push_component(&mut out, cited);
    push_component(&mut out, memory.member.as_str());
    out.extend(suffix(memory.created_at, &memory.id));
    out
}

fn owner_of(memory: &AgentMemory) -> Owner {
    Owner::new(memory.workspace.clone(), memory.member.clone())
}

/// Every index entry of a stored version besides its record, its key entry and its count and
/// statistics: written with the version and deleted with it, by the same derivation.
fn index_entries(memory: &AgentMemory) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let owner = owner_of(memory);
    let vkey = version_key(&owner, memory.created_at, &memory.id);
    let mut out = BTreeMap::new();
    let position = suffix(memory.created_at, &memory.id);
    for (term, frequency) in store_trait::indexed_terms(memory) {
        let mut k = owner_key(POSTING, &owner);
        push_component(&mut k, term);
        k.extend_from_slice(&position);
        out.insert(k, frequency.to_be_bytes().to_vec());
    }
    if let Some(embedding) = &memory.ranking.embedding {
        let mut k = owner_key(VECTOR, &owner);
        k.extend_from_slice(&position);
        out.insert(k, encode_vector(&embedding.model, &embedding.vector));
    }
    out.insert(
        id_key(&owner, &memory.id),
        order(memory.created_at).to_vec(),
    );
    if let Some(key) = &memory.key {
        let mut k = key_of(KEY_VERSION, &owner, &memory.namespace, key);
        k.extend(suffix(memory.created_at, &memory.id));
        out.insert(k, Vec::new());
    }
    let mut expiry = ws_key(EXPIRY, &memory.workspace);
    expiry.extend_from_slice(&order(memory.created_at));
    push_component(&mut expiry, memory.member.as_str());
    expiry.extend_from_slice(memory.id.as_str().as_bytes());
    out.insert(expiry, vkey.clone());
    let documents: BTreeSet<&str> = memory
        .citations
        .iter()
        .map(|c| c.document_id.as_str())
        .collect();
    for document in documents {
        out.insert(cited_key(DOCUMENT, memory, document), vkey.clone());
    }
    let collections: BTreeSet<&str> = memory
        .collection_id
        .iter()
        .map(String::as_str)
        .chain(memory.citations.iter().map(|c| c.collection_id.as_str()))
        .collect();
    for collection in collections {
        out.insert(cited_key(COLLECTION, memory, collection), vkey.clone());
    }
    out
}

// ---- Values ----

fn corrupt(what: &'static str) -> Error {
    Error::corrupt(format!("key space: {what}"))
}

fn decode(bytes: &[u8]) -> Result<AgentMemory, Error> {
    store_trait::codec::decode_version(bytes)
}

fn encode(memory: &AgentMemory) -> Result<Vec<u8>, Error> {
    store_trait::codec::encode(memory).map_err(|e| Error::other("encoding a version", e))
}

fn instant_at(bytes: &[u8], at: usize) -> Result<Timestamp, Error> {
    bytes
        .get(at..at + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(unorder)
        .ok_or_else(|| corrupt("short key"))
}

/// A `v` value: the model as a component, then the values as f32 little-endian.
fn encode_vector(model: &str, values: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + model.len() + 4 * values.len());
    push_component(&mut out, model);
    for x in values {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// The model and the values of a `v` value, appended to `values`; `None` when malformed.
fn decode_vector<'b>(bytes: &'b [u8], values: &mut Vec<f32>) -> Option<&'b str> {
    let (len, rest) = bytes.split_first_chunk::<4>()?;
    let len = u32::from_be_bytes(*len) as usize;
    let model = std::str::from_utf8(rest.get(..len)?).ok()?;
    let (chunks, tail) = rest.get(len..)?.as_chunks::<4>();
    if !tail.is_empty() {
        return None;
    }
    values.extend(chunks.iter().map(|c| f32::from_le_bytes(*c)));
    Some(model)
}

/// A generation no other step wrote: this process's random seed and a counter.
fn fresh_generation() -> [u8; 16] {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEED: OnceLock<u64> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seed = *SEED.get_or_init(|| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        h.finish()
    });
    let mut out = [0; 16];
    out[..8].copy_from_slice(&seed.to_be_bytes());
    out[8..].copy_from_slice(&NEXT.fetch_add(1, Ordering::Relaxed).to_be_bytes());
    out
}

fn encode_stats(stats: IndexStats, generation: [u8; 16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32);
    out.extend_from_slice(&stats.documents.to_be_bytes());
    out.extend_from_slice(&stats.total_length.to_be_bytes());
    out.extend_from_slice(&generation);
    out
}

fn decode_stats(bytes: &[u8]) -> Result<(IndexStats, [u8; 16]), Error> {
    let bytes = <&[u8; 32]>::try_from(bytes).map_err(|_| corrupt("index statistics"))?;
    let (documents, rest) = bytes.split_first_chunk::<8>().expect("32 bytes");
    let (length, generation) = rest.split_first_chunk::<8>().expect("24 bytes");
    Ok((
        IndexStats {
            documents: u64::from_be_bytes(*documents),
            total_length: u64::from_be_bytes(*length),
        },
        <[u8; 16]>::try_from(generation).expect("16 bytes"),
    ))
}

fn decode_count(bytes: &[u8]) -> Result<u64, Error> {
    <[u8; 8]>::try_from(bytes)
        .map(u64::from_be_bytes)
        .map_err(|_| corrupt("count"))
}

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

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        match self.writes.get(key) {
            Some(value) => Ok(value.clone()),
            None => self.base.get(key),
        }
    }

    pub(crate) fn put(&mut self, key: Vec<u8>, value: Vec<u8>) {
        self.writes.insert(key, Some(value));
    }

    fn delete(&mut self, key: Vec<u8>) {
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

    fn add_count(&mut self, owner: &Owner, delta: i64) -> Result<(), Error> {
        let key = owner_key(COUNT, owner);
        let old = self.get(&key)?.map(|b| decode_count(&b)).transpose()?;
        let new = old.unwrap_or(0).saturating_add_signed(delta);
        if new == 0 {
            self.delete(key);
        } else {
            self.put(key, new.to_be_bytes().to_vec());
        }
        Ok(())
    }

    /// Moves the owner's index statistics by the deltas and gives them a fresh generation (the
    /// entry goes when no version is left).
    fn add_stats(&mut self, owner: &Owner, documents: i64, length: i64) -> Result<(), Error> {
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
    fn put_version(
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
        self.add_stats(&owner, 1, i64::from(memory.ranking.length))?;
        self.add_count(&owner, 1)
    }

    /// Removes the version stored under `vkey` and its index entries; a key whose current
    /// version it was is left without one (numbering kept). `None` when it is not stored.
    fn remove_version(&mut self, vkey: &[u8]) -> Result<Option<AgentMemory>, Error> {
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
        self.add_count(&owner, -1)?;
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
    fn forget_key(
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

/// A visitor of key-value entries that may fail: `Ok(false)` stops the walk.
type Visit<'v> = dyn FnMut(&[u8], &[u8]) -> Result<bool, Error> + 'v;

/// Visits the entries under `prefix` in key order until `visit` says stop or fails.
fn walk(r: &dyn KvRead, prefix: &[u8], reverse: bool, visit: &mut Visit<'_>) -> Result<(), Error> {
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

fn read_version(r: &dyn KvRead, key: &[u8]) -> Result<Option<AgentMemory>, Error> {
    r.get(key)?.map(|b| decode(&b)).transpose()
}

fn read_key_entry(r: &dyn KvRead, key: &[u8]) -> Result<Option<KeyEntry>, Error> {
    r.get(key)?
        .map(|b| KeyEntry::decode(&b).ok_or_else(|| corrupt("short key entry")))
        .transpose()
}

/// The owner's version `id` and its key, through the id index.
fn read_by_id(
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

/// The owner's stored versions with `created_at > cutoff`: the stored count less the expired
/// ones not purged yet, counted from the oldest end of the owner's versions.
fn unexpired(r: &dyn KvRead, owner: &Owner, cutoff: Timestamp) -> Result<u64, Error> {
    let stored = r
        .get(&owner_key(COUNT, owner))?
        .map(|b| decode_count(&b))
        .transpose()?
        .unwrap_or(0);
    let prefix = owner_key(VERSION, owner);
    let mut expired = 0_u64;
    walk(r, &prefix, false, &mut |k, _| {
        if instant_at(k, prefix.len())? > cutoff {
            return Ok(false);
        }
        expired += 1;
        Ok(true)
    })?;
    Ok(stored.saturating_sub(expired))
}

fn read_window(r: &dyn KvRead, key: &[u8]) -> Result<Vec<Timestamp>, Error> {
    match r.get(key)? {
        Some(bytes) => {
            store_trait::keys::decode_window(&bytes).ok_or_else(|| corrupt("rate window"))
        }
        None => Ok(Vec::new()),
    }
}

// ---- The recall index ----

/// A decoded history and the generation it was read under.
type Cached = ([u8; 16], Arc<MemberHistory>);

/// Owners' decoded histories, each with the generation it was read under, for at most
/// [`HistoryCache::OWNERS`] owners.
#[derive(Default)]
struct HistoryCache(std::sync::Mutex<std::collections::HashMap<Owner, Cached>>);

impl HistoryCache {
    /// Owners kept: a host whose agents recall over whole histories for more members at once
    /// decodes some of them again.
    const OWNERS: usize = 32;

    fn get(&self, owner: &Owner, generation: &[u8; 16]) -> Option<Arc<MemberHistory>> {
        let map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.get(owner)
            .filter(|(g, _)| g == generation)
            .map(|(_, h)| Arc::clone(h))
    }

    fn put(&self, owner: &Owner, generation: [u8; 16], history: Arc<MemberHistory>) {
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

/// The owner's versions newest first with their vectors from `v`, checked against the
/// statistics of `s`.
fn read_history(r: &dyn KvRead, owner: &Owner, stats: IndexStats) -> Result<MemberHistory, Error> {
    let prefix = owner_key(VERSION, owner);
    let mut rows = Vec::with_capacity(usize::try_from(stats.documents).unwrap_or(0));
    r.range_versions(&prefix, &prefix_end(&prefix), true, &mut |_, m| {
        rows.push(m);
        true
    })?;
    let length: u64 = rows.iter().map(|m| u64::from(m.ranking.length)).sum();
    if rows.len() as u64 != stats.documents || length != stats.total_length {
        return Err(corrupt("index statistics disagree with the versions"));
    }
    // Both walks run in the same (newest first) order; a vector belongs to the next row at its
    // position or to none.
    let vprefix = owner_key(VECTOR, owner);
    let mut vectors = VectorTable::default();
    let mut next = 0usize;
    let mut values = Vec::new();
    walk(r, &vprefix, true, &mut |k, v| {
        let position = &k[vprefix.len()..];
        while let Some(m) = rows.get(next) {
            if suffix(m.created_at, &m.id) == position {
                break;
            }
            vectors.push(None);
            next += 1;
        }
        if next == rows.len() {
            return Err(corrupt("a vector without its version"));
        }
        values.clear();
        let model = decode_vector(v, &mut values).ok_or_else(|| corrupt("vector"))?;
        vectors.push(Some((model, &values)));
        next += 1;
        Ok(true)
    })?;
    while vectors.len() < rows.len() {
        vectors.push(None);
    }
    Ok(MemberHistory::from_parts(rows, vectors, stats))
}

/// The posting lists of `terms` as rows of `history`, rows ascending: from the history's own
/// cache, or read from `r`, the view the history was read in (or one of the same generation).
fn read_postings(
    r: &dyn KvRead,
    owner: &Owner,
    history: &MemberHistory,
    terms: &[String],
) -> Result<Vec<Postings>, Error> {
    let base = owner_key(POSTING, owner);
    terms
        .iter()
        .map(|term| {
            history.postings_of(term, || {
                let mut prefix = base.clone();
                push_component(&mut prefix, term);
                let mut list = Vec::new();
                walk(r, &prefix, false, &mut |k, v| {
                    let at = instant_at(k, prefix.len())?;
                    let id = &k[prefix.len() + 8..];
                    let row = history
                        .row_at(at, id)
                        .ok_or_else(|| corrupt("a posting without its version"))?;
                    let frequency = <[u8; 4]>::try_from(v)
                        .map(u32::from_be_bytes)
                        .map_err(|_| corrupt("posting"))?;
                    list.push((row as u32, frequency));
                    Ok(true)
                })?;
                list.sort_unstable();
                Ok(list)
            })
        })
        .collect()
}

/// The writes that rebuild the recall index (`t`, `v`, `s`) of every version in the key space
/// with this build's analyzer: the upgrade of a database written before the index existed, or
/// by an earlier analyzer ([`fusion_rank::ANALYZER_VERSION`]). Every posting is deleted, every
/// version whose stored term counts differ from [`store_trait::reanalyzed`]'s is rewritten, and each
/// version's index entries and its owner's statistics are written afresh (a new generation),
/// all derived from the rewritten versions.
///
/// Running it twice writes the same index: its result depends on the versions' texts only.
pub fn build_index(r: &dyn KvRead) -> Result<Vec<KvOp>, Error> {
    let mut ops = Vec::new();
    walk(r, &[POSTING], false, &mut |k, _| {
        ops.push(KvOp::Delete(k.to_vec()));
        Ok(true)
    })?;
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
fn remember(
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
        };
        // The key's newest stored version carries its latest instant (a chain's instants
        // increase): the current one's `created_at` or, after a purge took it, a
        // `superseded_at`.
        let latest = match key {
            Some((namespace, k)) => {
                let prefix = key_of(KEY_VERSION, owner, namespace, k);
                let mut newest = None;
                walk(r, &prefix, true, &mut |k, _| {
                    newest = Some(k[prefix.len()..].to_vec());
                    Ok(false)
                })?;
                let newest = match newest {
                    Some(position) => read_version(r, &[&vprefix[..], &position].concat())?,
                    None => None,
                };
                newest
                    .map(|m| latest_instant(&m))
                    .max(state.current.as_ref().map(|c| c.created_at))
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
            if write.supersede_current
                && let Some(previous) = previous
            {
                let previous_key = [&vprefix[..], &previous].concat();
                if let Some(mut old) = read_version(r, &previous_key)? {
                    old.superseded_at = Some(record.created_at);
                    p.put_version(owner, previous_key, &old)?;
                    superseded = Some(old);
                }
            }
        }
        p.insert_version(&record)?;
        Ok((RememberOutcome::Written { record, superseded }, p.ops()))
    })
}

/// The owner's unexpired versions in scan order after `after` that `keep` accepts, at most
/// `limit`, each as the key space hands it out ([`KvRead::range_versions`]: shared when it
/// keeps decoded versions).
fn scan_where(
    kv: &impl Kv,
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
        r.range_versions(&prefix, &end, true, &mut |k, memory| {
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
fn owned(shared: Vec<Arc<AgentMemory>>) -> Vec<AgentMemory> {
    shared.into_iter().map(Arc::unwrap_or_clone).collect()
}

/// Removes the versions whose `a` keys are the values of the index entries under `prefix` (a
/// purge), keeping their keys' numbering.
fn purge_indexed(kv: &impl Kv, prefix: &[u8], end: &[u8]) -> Result<u64, Error> {
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
fn delete_scope(kv: &impl Kv, scope: &[u8]) -> Result<u64, Error> {
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
        for kind in [KEY, COUNT, STATS] {
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
                            let history = Arc::new(read_history(r, owner, stats)?);
                            self.histories.put(owner, generation, Arc::clone(&history));
                            history
                        }
                    }
                }
            };
            let postings = read_postings(r, owner, &versions, terms)?;
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
        scan_where(self.kv(), owner, expired_cutoff, after, limit, &|_| true).map(owned)
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
        let key = ws_key(SETTINGS, workspace);
        self.kv().read(&mut |r| {
            r.get(&key)?
                .map(|b| {
                    serde_json::from_slice(&b)
                        .map_err(|e| Error::undecodable("key space: settings", e))
                })
                .transpose()
        })
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let key = ws_key(SETTINGS, workspace);
        let value =
            serde_json::to_vec(settings).map_err(|e| Error::other("encoding settings", e))?;
        self.kv()
            .step(&mut |_| Ok(((), vec![KvOp::Put(key.clone(), value.clone())])))
    }
}

#[cfg(test)]
mod tests {
    use memory_core::MemberId;

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

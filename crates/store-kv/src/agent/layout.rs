//! The layout of agent memories in the key space (the table in `super`'s documentation): the
//! key kinds, the keys, and the encodings of the values, the recall index's included.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{AgentMemory, AgentMemoryId, CredentialId, Timestamp, WorkspaceId};
use store_trait::keys::{order, push_component, unorder};
use store_trait::{Error, IndexStats, Owner};

pub(crate) const VERSION: u8 = b'a';
pub(crate) const ID: u8 = b'i';
pub(crate) const KEY: u8 = b'k';
pub(crate) const KEY_VERSION: u8 = b'j';
/// Earlier formats' count of an owner's stored versions, which the statistics (`s`) hold; an
/// upgrade deletes every entry of it.
pub(crate) const COUNT: u8 = b'c';
pub(crate) const EXPIRY: u8 = b'e';
pub(crate) const DOCUMENT: u8 = b'd';
pub(crate) const COLLECTION: u8 = b'l';
pub(crate) const WINDOW: u8 = b'r';
pub(crate) const SETTINGS: u8 = b'g';
/// The inverted index (term postings) that earlier formats (SQLite 2 and 3, redb and sled 5
/// and 6) wrote beside the versions, derived since from the versions' own term counts; an
/// upgrade deletes every entry of it.
pub(crate) const POSTING: u8 = b't';
/// The embeddings that the same formats wrote beside the versions (each version's record holds
/// its own); an upgrade deletes every entry of it.
pub(crate) const VECTOR: u8 = b'v';
pub(crate) const STATS: u8 = b's';

// ---- Keys ----

pub(crate) fn ws_key(kind: u8, workspace: &WorkspaceId) -> Vec<u8> {
    let mut out = vec![kind];
    push_component(&mut out, workspace.as_str());
    out
}

pub(crate) fn owner_key(kind: u8, owner: &Owner) -> Vec<u8> {
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

pub(crate) fn version_key(owner: &Owner, created_at: Timestamp, id: &AgentMemoryId) -> Vec<u8> {
    let mut out = owner_key(VERSION, owner);
    out.extend(suffix(created_at, id));
    out
}

pub(crate) fn id_key(owner: &Owner, id: &AgentMemoryId) -> Vec<u8> {
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
pub(crate) fn cited_key(kind: u8, memory: &AgentMemory, cited: &str) -> Vec<u8> {
    let mut out = ws_key(kind, &memory.workspace);
    push_component(&mut out, cited);
    push_component(&mut out, memory.member.as_str());
    out.extend(suffix(memory.created_at, &memory.id));
    out
}

pub(crate) fn owner_of(memory: &AgentMemory) -> Owner {
    Owner::new(memory.workspace.clone(), memory.member.clone())
}

/// Every index entry of a stored version besides its record, its key entry and its owner's
/// statistics (`i`, `j`, `e`, `d`, `l`): written with the version and deleted with it, by the
/// same derivation. Postings and vectors are not among them: the record holds both.
pub(crate) fn index_entries(memory: &AgentMemory) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let owner = owner_of(memory);
    let vkey = version_key(&owner, memory.created_at, &memory.id);
    let mut out = BTreeMap::new();
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

pub(crate) fn corrupt(what: &'static str) -> Error {
    Error::corrupt(format!("key space: {what}"))
}

pub(crate) fn decode(bytes: &[u8]) -> Result<AgentMemory, Error> {
    store_trait::codec::decode_version(bytes)
}

pub(crate) fn encode(memory: &AgentMemory) -> Result<Vec<u8>, Error> {
    store_trait::codec::encode(memory).map_err(|e| Error::other("encoding a version", e))
}

pub(crate) fn instant_at(bytes: &[u8], at: usize) -> Result<Timestamp, Error> {
    bytes
        .get(at..at + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(unorder)
        .ok_or_else(|| corrupt("short key"))
}

/// A generation no other step wrote: this process's random seed and a counter.
pub(crate) fn fresh_generation() -> [u8; 16] {
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

/// A 64-bit value no other call of any process drew (but with a chance of 2⁻⁶⁴ per pair): a
/// hash of this process's random seed and a counter.
pub(crate) fn fresh_stamp() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut h = STATE
        .get_or_init(std::collections::hash_map::RandomState::new)
        .build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(NEXT.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

pub(crate) fn encode_stats(stats: IndexStats, generation: [u8; 16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32);
    out.extend_from_slice(&stats.documents.to_be_bytes());
    out.extend_from_slice(&stats.total_length.to_be_bytes());
    out.extend_from_slice(&generation);
    out
}

pub(crate) fn decode_stats(bytes: &[u8]) -> Result<(IndexStats, [u8; 16]), Error> {
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

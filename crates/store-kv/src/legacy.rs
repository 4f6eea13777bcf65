//! Format 3, the last redb and sled layout with agent-memory tables (trees) of their own, kept
//! so that a home written before the key-space layout opens: what both formats held
//! ([`Legacy`]), the decoding of the records they share, and [`import`], the writes that lay it
//! out in the key space. The readers of the tables (`store-redb`) and of the trees
//! (`store-sled`) are those crates' own; each calls them inside the write transaction that
//! upgrades a file in place (see `docs/storage-redb.md` and `docs/storage-sled.md`, "Upgrading
//! from format 3").
//!
//! A reader gathers what cannot be derived — every version, each key's numbering and current
//! version, the rate windows, the settings and the memory-store entries (already in key-space
//! layout in format 3) — and [`import`] writes it in the new layout, rebuilding every index from
//! the versions.

use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemberId, Timestamp, WorkspaceId};
use store_trait::keys::KeyEntry;
use store_trait::kv::{KvOp, KvRead};
use store_trait::{Error, Owner};

use crate::agent::layout::{KEY, SETTINGS, key_of as key_entry_key, suffix, window_key, ws_key};
use crate::agent::pending::Pending;

/// A key and its value, as a table or tree holds them.
pub type Row = (Vec<u8>, Vec<u8>);

/// The format these readers read.
pub const FORMAT: u32 = 3;

/// A (namespace, key) index entry of format 3.
pub struct LegacyKey {
    /// Whose key.
    pub owner: Owner,
    /// The key's namespace.
    pub namespace: String,
    /// The key.
    pub key: String,
    /// The highest version number since the key was last forgotten.
    pub last_version: u32,
    /// The current version's `created_at` and id.
    pub current: Option<(Timestamp, AgentMemoryId)>,
}

/// Everything a format-3 database holds that the key-space layout keeps.
#[derive(Default)]
pub struct Legacy {
    /// Every stored version.
    pub versions: Vec<AgentMemory>,
    /// Every (namespace, key) index entry.
    pub keys: Vec<LegacyKey>,
    /// (workspace, credential, accepted instants oldest first).
    pub windows: Vec<(WorkspaceId, CredentialId, Vec<Timestamp>)>,
    /// (workspace, the settings' JSON, as the key-space layout stores it too).
    pub settings: Vec<(WorkspaceId, Vec<u8>)>,
    /// The memory-store table's entries, copied as they are.
    pub stores: Vec<Row>,
}

/// A format-3 record that does not decode: corruption.
pub fn corrupt(what: &'static str) -> Error {
    Error::corrupt(format!("format-3 database: {what}"))
}

/// Splits the length-delimited components `n` a key starts with (`store_trait::keys::push_component`)
/// off it; the rest follows.
pub fn components(key: &[u8], n: usize) -> Result<(Vec<String>, &[u8]), Error> {
    let mut rest = key;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let (len, tail) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| corrupt("short key"))?;
        let len = u32::from_be_bytes(*len) as usize;
        let part = tail.get(..len).ok_or_else(|| corrupt("short key"))?;
        out.push(
            String::from_utf8(part.to_vec())
                .map_err(|_| corrupt("a key component is not UTF-8"))?,
        );
        rest = &tail[len..];
    }
    Ok((out, rest))
}

/// The owner, namespace and key of a key-index key.
pub fn key_of(key: &[u8]) -> Result<(Owner, String, String), Error> {
    let (mut parts, _) = components(key, 4)?;
    let key = parts.pop().unwrap_or_default();
    let namespace = parts.pop().unwrap_or_default();
    Ok((owner(&parts[0], &parts[1])?, namespace, key))
}

/// The owner of a key's first two components.
pub fn owner(workspace: &str, member: &str) -> Result<Owner, Error> {
    Ok(Owner::new(
        WorkspaceId::new(workspace).map_err(|_| corrupt("a workspace id"))?,
        MemberId::new(member).map_err(|_| corrupt("a member id"))?,
    ))
}

/// The workspace a key's first component names.
pub fn workspace(name: &str) -> Result<WorkspaceId, Error> {
    WorkspaceId::new(name).map_err(|_| corrupt("a workspace id"))
}

/// A window record's key (workspace, credential) and value.
pub fn window(
    key: &[u8],
    value: &[u8],
) -> Result<(WorkspaceId, CredentialId, Vec<Timestamp>), Error> {
    let (parts, _) = components(key, 2)?;
    let credential = CredentialId::new(parts[1].clone()).map_err(|_| corrupt("a credential id"))?;
    let instants =
        store_trait::keys::decode_window(value).ok_or_else(|| corrupt("a rate window"))?;
    Ok((workspace(&parts[0])?, credential, instants))
}

/// A version record.
pub fn version(value: &[u8]) -> Result<AgentMemory, Error> {
    store_trait::codec::decode(value)
        .map_err(|e| Error::undecodable("format-3 database: undecodable version", e))
}

/// A scan position of format 3 (both layouts): `created_at` and the id, each descending — the
/// instant's order bits inverted, then the id's bytes inverted and a 0xFF terminator.
pub fn position(bytes: &[u8]) -> Result<(Timestamp, AgentMemoryId), Error> {
    let (head, rest) = bytes
        .split_first_chunk::<8>()
        .ok_or_else(|| corrupt("short position"))?;
    let millis = (!u64::from_be_bytes(*head) ^ (1 << 63)) as i64;
    let at = Timestamp::from_millis(millis).map_err(|_| corrupt("an instant out of range"))?;
    let id = rest
        .strip_suffix(&[0xFF])
        .ok_or_else(|| corrupt("an unterminated id"))?;
    let id: Vec<u8> = id.iter().map(|b| !b).collect();
    let id = String::from_utf8(id).map_err(|_| corrupt("an id is not UTF-8"))?;
    Ok((at, AgentMemoryId::parse(id).map_err(|_| corrupt("an id"))?))
}

/// A key space with nothing in it: the base of an import's writes.
struct Empty;

impl KvRead for Empty {
    fn get(&self, _key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(None)
    }

    fn range(
        &self,
        _start: &[u8],
        _end: &[u8],
        _reverse: bool,
        _visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        Ok(())
    }
}

/// The writes that lay out what a format-3 database held ([`Legacy`]) in this key space:
/// every version with all its index entries and statistics, each key's numbering and current
/// version, the rate windows, the settings, and the memory-store entries as they were.
pub fn import(legacy: &Legacy) -> Result<Vec<KvOp>, Error> {
    let mut p = Pending::new(&Empty);
    for version in &legacy.versions {
        // Format 3 predates the analyzer: its term counts are computed again.
        p.insert_version(&store_trait::reanalyzed(version))?;
    }
    for k in &legacy.keys {
        let entry = KeyEntry {
            last_version: k.last_version,
            current: k.current.as_ref().map(|(at, id)| suffix(*at, id)),
        };
        p.put(
            key_entry_key(KEY, &k.owner, &k.namespace, &k.key),
            entry.encode(),
        );
    }
    for (workspace, credential, window) in &legacy.windows {
        p.put(
            window_key(workspace, credential),
            store_trait::keys::encode_window(window),
        );
    }
    for (workspace, json) in &legacy.settings {
        p.put(ws_key(SETTINGS, workspace), json.clone());
    }
    for (k, v) in &legacy.stores {
        p.put(k.clone(), v.clone());
    }
    Ok(p.ops())
}

//! Readers of format 3, the last redb and sled layout with agent-memory tables (trees) of their
//! own, kept so that a home written before the key-space layout opens: the durable backends call
//! them inside the write transaction that upgrades a file in place (see `docs/storage-redb.md`
//! and `docs/storage-sled.md`, "Upgrading from format 3").
//!
//! A reader gathers what cannot be derived — every version, each key's numbering and current
//! version, the rate windows, the settings and the memory-store entries (already in key-space
//! layout in format 3) — and `crate::kv_agent::import` writes it in the new layout, rebuilding
//! every index from the versions.
#![cfg_attr(not(any(feature = "redb", feature = "sled")), allow(dead_code))]

use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemberId, Timestamp, WorkspaceId};

use crate::{Error, Owner};

/// A key and its value, as a table or tree holds them.
pub(crate) type Row = (Vec<u8>, Vec<u8>);

/// The format these readers read.
pub(crate) const FORMAT: u32 = 3;

/// A (namespace, key) index entry of format 3.
pub(crate) struct LegacyKey {
    pub(crate) owner: Owner,
    pub(crate) namespace: String,
    pub(crate) key: String,
    pub(crate) last_version: u32,
    /// The current version's `created_at` and id.
    pub(crate) current: Option<(Timestamp, AgentMemoryId)>,
}

/// Everything a format-3 database holds that the key-space layout keeps.
#[derive(Default)]
pub(crate) struct Legacy {
    pub(crate) versions: Vec<AgentMemory>,
    pub(crate) keys: Vec<LegacyKey>,
    /// (workspace, credential, accepted instants oldest first).
    pub(crate) windows: Vec<(WorkspaceId, CredentialId, Vec<Timestamp>)>,
    /// (workspace, the settings' JSON, as the key-space layout stores it too).
    pub(crate) settings: Vec<(WorkspaceId, Vec<u8>)>,
    /// The memory-store table's entries, copied as they are.
    pub(crate) stores: Vec<Row>,
}

pub(crate) fn corrupt(what: &str) -> Error {
    Error::Backend(format!("corrupt format-3 database: {what}"))
}

/// Splits the length-delimited components `n` a key starts with (`crate::keys::push_component`)
/// off it; the rest follows.
pub(crate) fn components(key: &[u8], n: usize) -> Result<(Vec<String>, &[u8]), Error> {
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
pub(crate) fn key_of(key: &[u8]) -> Result<(Owner, String, String), Error> {
    let (mut parts, _) = components(key, 4)?;
    let key = parts.pop().unwrap_or_default();
    let namespace = parts.pop().unwrap_or_default();
    Ok((owner(&parts[0], &parts[1])?, namespace, key))
}

pub(crate) fn owner(workspace: &str, member: &str) -> Result<Owner, Error> {
    Ok(Owner::new(
        WorkspaceId::new(workspace).map_err(|_| corrupt("a workspace id"))?,
        MemberId::new(member).map_err(|_| corrupt("a member id"))?,
    ))
}

pub(crate) fn workspace(name: &str) -> Result<WorkspaceId, Error> {
    WorkspaceId::new(name).map_err(|_| corrupt("a workspace id"))
}

/// A window record's key (workspace, credential) and value.
pub(crate) fn window(
    key: &[u8],
    value: &[u8],
) -> Result<(WorkspaceId, CredentialId, Vec<Timestamp>), Error> {
    let (parts, _) = components(key, 2)?;
    let credential = CredentialId::new(parts[1].clone()).map_err(|_| corrupt("a credential id"))?;
    let instants = crate::keys::decode_window(value).ok_or_else(|| corrupt("a rate window"))?;
    Ok((workspace(&parts[0])?, credential, instants))
}

/// A version record.
pub(crate) fn version(value: &[u8]) -> Result<AgentMemory, Error> {
    crate::codec::decode(value).map_err(|e| corrupt(&format!("undecodable version: {e}")))
}

/// A scan position of format 3 (both layouts): `created_at` and the id, each descending — the
/// instant's order bits inverted, then the id's bytes inverted and a 0xFF terminator.
pub(crate) fn position(bytes: &[u8]) -> Result<(Timestamp, AgentMemoryId), Error> {
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

/// The format-3 redb tables.
#[cfg(feature = "redb")]
pub(crate) mod redb {
    use ::redb::{ReadableTable, TableDefinition, WriteTransaction};

    use super::{Legacy, LegacyKey, corrupt};
    use crate::Error;

    pub(crate) const VERSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("versions");
    pub(crate) const IDS: TableDefinition<&[u8], i64> = TableDefinition::new("ids");
    pub(crate) const KEYS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("keys");
    pub(crate) const KEY_VERSIONS: TableDefinition<&[u8], ()> =
        TableDefinition::new("key_versions");
    pub(crate) const COUNTS: TableDefinition<&[u8], u64> = TableDefinition::new("counts");
    pub(crate) const WINDOWS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("windows");
    pub(crate) const SETTINGS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("settings");
    pub(crate) const STORES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("memory_stores");

    /// Reads every format-3 table of `txn` and deletes them, so that the same transaction can
    /// write the new layout and commit both at once.
    pub(crate) fn take(txn: &WriteTransaction) -> Result<Legacy, Error> {
        let e = |e: ::redb::Error| crate::redb::backend_error(e);
        let mut out = Legacy::default();
        let bytes_table = |def: TableDefinition<&[u8], &[u8]>| -> Result<Vec<super::Row>, Error> {
            let table = txn.open_table(def).map_err(|x| e(x.into()))?;
            let mut rows = Vec::new();
            for entry in table.iter().map_err(|x| e(x.into()))? {
                let (k, v) = entry.map_err(|x| e(x.into()))?;
                rows.push((k.value().to_vec(), v.value().to_vec()));
            }
            Ok(rows)
        };
        for (_, v) in bytes_table(VERSIONS)? {
            out.versions.push(super::version(&v)?);
        }
        for (k, v) in bytes_table(KEYS)? {
            let (owner, namespace, key) = super::key_of(&k)?;
            let entry =
                crate::keys::KeyEntry::decode(&v).ok_or_else(|| corrupt("short key entry"))?;
            out.keys.push(LegacyKey {
                owner,
                namespace,
                key,
                last_version: entry.last_version,
                current: entry.current.as_deref().map(super::position).transpose()?,
            });
        }
        for (k, v) in bytes_table(WINDOWS)? {
            out.windows.push(super::window(&k, &v)?);
        }
        for (k, v) in bytes_table(SETTINGS)? {
            let (parts, _) = super::components(&k, 1)?;
            out.settings.push((super::workspace(&parts[0])?, v));
        }
        out.stores = bytes_table(STORES)?;
        for name in ["versions", "keys", "windows", "settings", "memory_stores"] {
            txn.delete_table(TableDefinition::<&[u8], &[u8]>::new(name))
                .map_err(|x| e(x.into()))?;
        }
        txn.delete_table(IDS).map_err(|x| e(x.into()))?;
        txn.delete_table(KEY_VERSIONS).map_err(|x| e(x.into()))?;
        txn.delete_table(COUNTS).map_err(|x| e(x.into()))?;
        Ok(out)
    }
}

/// The format-3 sled trees.
#[cfg(feature = "sled")]
pub(crate) mod sled {
    use super::{Legacy, LegacyKey, corrupt};
    use crate::Error;

    /// Every tree of format 3, the memory-store tree last.
    pub(crate) const TREES: [&str; 8] = [
        "memories",
        "ids",
        "keys",
        "key_versions",
        "counts",
        "windows",
        "settings",
        "memory_stores",
    ];

    /// A (namespace, key) entry of format 3: last version u32, versions stored u64, then the
    /// current version's `created_at` (i64 ms) and id, all big-endian.
    fn key_entry(
        value: &[u8],
    ) -> Result<
        (
            u32,
            Option<(memory_core::Timestamp, memory_core::AgentMemoryId)>,
        ),
        Error,
    > {
        let short = || corrupt("short key entry");
        let last = u32::from_be_bytes(
            value
                .get(..4)
                .ok_or_else(short)?
                .try_into()
                .map_err(|_| short())?,
        );
        let current = match value.get(12..) {
            Some([]) | None => None,
            Some(rest) => {
                let (at, id) = rest.split_first_chunk::<8>().ok_or_else(short)?;
                let at = memory_core::Timestamp::from_millis(i64::from_be_bytes(*at))
                    .map_err(|_| corrupt("an instant out of range"))?;
                let id = std::str::from_utf8(id).map_err(|_| corrupt("an id is not UTF-8"))?;
                Some((
                    at,
                    memory_core::AgentMemoryId::parse(id).map_err(|_| corrupt("an id"))?,
                ))
            }
        };
        Ok((last, current))
    }

    /// Reads the format-3 trees of `db` (it does not change them).
    pub(crate) fn read(db: &::sled::Db) -> Result<Legacy, Error> {
        let e = |x: ::sled::Error| crate::sled::storage("upgrade", &x);
        let rows = |name: &str| -> Result<Vec<super::Row>, Error> {
            let tree = db.open_tree(name).map_err(e)?;
            tree.iter()
                .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(e))
                .collect()
        };
        let mut out = Legacy::default();
        for (_, v) in rows("memories")? {
            out.versions.push(super::version(&v)?);
        }
        for (k, v) in rows("keys")? {
            let (owner, namespace, key) = super::key_of(&k)?;
            let (last_version, current) = key_entry(&v)?;
            out.keys.push(LegacyKey {
                owner,
                namespace,
                key,
                last_version,
                current,
            });
        }
        for (k, v) in rows("windows")? {
            out.windows.push(super::window(&k, &v)?);
        }
        for (k, v) in rows("settings")? {
            let (parts, _) = super::components(&k, 1)?;
            out.settings.push((super::workspace(&parts[0])?, v));
        }
        out.stores = rows("memory_stores")?;
        Ok(out)
    }
}

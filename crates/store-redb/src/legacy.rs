//! The format-3 redb tables: agent memories in tables of their own, read and deleted by the
//! upgrade to the key-space layout (`store_kv::legacy` says what it keeps and imports it).

use ::redb::{ReadableTable, TableDefinition, WriteTransaction};
use store_kv::legacy::{self, Legacy, LegacyKey, Row, corrupt};
use store_trait::Error;

pub(crate) const VERSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("versions");
pub(crate) const IDS: TableDefinition<&[u8], i64> = TableDefinition::new("ids");
pub(crate) const KEYS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("keys");
pub(crate) const KEY_VERSIONS: TableDefinition<&[u8], ()> = TableDefinition::new("key_versions");
pub(crate) const COUNTS: TableDefinition<&[u8], u64> = TableDefinition::new("counts");
pub(crate) const WINDOWS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("windows");
pub(crate) const SETTINGS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("settings");
pub(crate) const STORES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("memory_stores");

/// Reads every format-3 table of `txn` and deletes them, so that the same transaction can
/// write the new layout and commit both at once.
pub(crate) fn take(txn: &WriteTransaction) -> Result<Legacy, Error> {
    let e = |e: ::redb::Error| crate::error::backend_error(e);
    let mut out = Legacy::default();
    let bytes_table = |def: TableDefinition<&[u8], &[u8]>| -> Result<Vec<Row>, Error> {
        let table = txn.open_table(def).map_err(|x| e(x.into()))?;
        let mut rows = Vec::new();
        for entry in table.iter().map_err(|x| e(x.into()))? {
            let (k, v) = entry.map_err(|x| e(x.into()))?;
            rows.push((k.value().to_vec(), v.value().to_vec()));
        }
        Ok(rows)
    };
    for (_, v) in bytes_table(VERSIONS)? {
        out.versions.push(legacy::version(&v)?);
    }
    for (k, v) in bytes_table(KEYS)? {
        let (owner, namespace, key) = legacy::key_of(&k)?;
        let entry =
            store_trait::keys::KeyEntry::decode(&v).ok_or_else(|| corrupt("short key entry"))?;
        out.keys.push(LegacyKey {
            owner,
            namespace,
            key,
            last_version: entry.last_version,
            current: entry.current.as_deref().map(legacy::position).transpose()?,
        });
    }
    for (k, v) in bytes_table(WINDOWS)? {
        out.windows.push(legacy::window(&k, &v)?);
    }
    for (k, v) in bytes_table(SETTINGS)? {
        let (parts, _) = legacy::components(&k, 1)?;
        out.settings.push((legacy::workspace(&parts[0])?, v));
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

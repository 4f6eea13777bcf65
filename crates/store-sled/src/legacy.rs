//! The format-3 sled trees: agent memories in trees of their own, read by the upgrade to the
//! key-space layout (`store_kv::legacy` says what it keeps and imports it).

use store_kv::legacy::{self, Legacy, LegacyKey, Row, corrupt};
use store_trait::Error;

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
    let e = |x: ::sled::Error| crate::error::storage("upgrade", &x);
    let rows = |name: &str| -> Result<Vec<Row>, Error> {
        let tree = db.open_tree(name).map_err(e)?;
        tree.iter()
            .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(e))
            .collect()
    };
    let mut out = Legacy::default();
    for (_, v) in rows("memories")? {
        out.versions.push(legacy::version(&v)?);
    }
    for (k, v) in rows("keys")? {
        let (owner, namespace, key) = legacy::key_of(&k)?;
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
        out.windows.push(legacy::window(&k, &v)?);
    }
    for (k, v) in rows("settings")? {
        let (parts, _) = legacy::components(&k, 1)?;
        out.settings.push((legacy::workspace(&parts[0])?, v));
    }
    out.stores = rows("memory_stores")?;
    Ok(out)
}

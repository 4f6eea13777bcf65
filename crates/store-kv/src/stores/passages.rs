//! The host's passages a CLI home keeps: records by id, keyset lists, and imports recorded once
//! per source.

use super::layout::{IMPORTED, PASSAGE, key, with_raw};
use memory_core::WorkspaceId;
use store_trait::keys::prefix_end;
use store_trait::kv::{Kv, KvOp};
use store_trait::{Error, PassageRecords};

/// The key of passage `id`: the id's raw bytes after the workspace, so key order is id order.
pub(crate) fn passage_key(workspace: &WorkspaceId, id: &str) -> Vec<u8> {
    with_raw(key(PASSAGE, workspace, &[]), &[id.as_bytes()])
}

pub(crate) fn put_passage(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &str,
    record: &[u8],
) -> Result<(), Error> {
    let k = passage_key(workspace, id);
    kv.step(&mut |_| Ok(((), vec![KvOp::Put(k.clone(), record.to_vec())])))
}

pub(crate) fn passages(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    ids: &[&str],
) -> Result<PassageRecords, Error> {
    kv.read(&mut |r| {
        ids.iter()
            .map(|id| r.get(&passage_key(workspace, id)))
            .collect()
    })
}

pub(crate) fn list_passages(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    after: Option<&str>,
    limit: usize,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let prefix = key(PASSAGE, workspace, &[]);
    let end = prefix_end(&prefix);
    let start = match after {
        // The first key after `after`'s own: its bytes and a zero byte.
        Some(after) => with_raw(passage_key(workspace, after), &[&[0]]),
        None => prefix.clone(),
    };
    kv.read(&mut |r| {
        let mut out = Vec::new();
        let mut failed = None;
        if limit > 0 {
            r.range(&start, &end, false, &mut |k, v| {
                match String::from_utf8(k[prefix.len()..].to_vec()) {
                    Ok(id) => out.push((id, v.to_vec())),
                    Err(_) => {
                        failed = Some(Error::corrupt("key space: a passage id is not UTF-8"));
                        return false;
                    }
                }
                out.len() < limit
            })?;
        }
        failed.map_or(Ok(out), Err)
    })
}

pub(crate) fn delete_passage(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &str,
) -> Result<bool, Error> {
    let k = passage_key(workspace, id);
    kv.step(&mut |r| {
        if r.get(&k)?.is_none() {
            return Ok((false, vec![]));
        }
        Ok((true, vec![KvOp::Delete(k.clone())]))
    })
}

pub(crate) fn import_passages(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    source: &str,
    records: &[(String, Vec<u8>)],
) -> Result<bool, Error> {
    let marker = key(IMPORTED, workspace, &[source]);
    kv.step(&mut |r| {
        if r.get(&marker)?.is_some() {
            return Ok((false, vec![]));
        }
        let mut ops = vec![KvOp::Put(marker.clone(), Vec::new())];
        let mut seen = std::collections::HashSet::new();
        for (id, record) in records {
            let k = passage_key(workspace, id);
            // A passage put since is kept; of an id given twice, the first record wins.
            if seen.insert(k.clone()) && r.get(&k)?.is_none() {
                ops.push(KvOp::Put(k, record.clone()));
            }
        }
        Ok((true, ops))
    })
}

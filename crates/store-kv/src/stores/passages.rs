//! The host's passages a CLI home keeps: records by id, keyset lists, imports recorded once
//! per source, and the workspace's stamp that every change of them moves.

use super::layout::{IMPORTED, PASSAGE, PASSAGE_STAMP, key, with_raw};
use memory_core::WorkspaceId;
use store_trait::keys::prefix_end;
use store_trait::kv::{Kv, KvOp, KvRead};
use store_trait::{Error, PassageRecords};

/// The key of passage `id`: the id's raw bytes after the workspace, so key order is id order.
pub(crate) fn passage_key(workspace: &WorkspaceId, id: &str) -> Vec<u8> {
    with_raw(key(PASSAGE, workspace, &[]), &[id.as_bytes()])
}

/// The stamp stored for the workspace's passages; 0 before any step wrote one.
fn read_stamp(r: &dyn KvRead, workspace: &WorkspaceId) -> Result<u64, Error> {
    match r.get(&key(PASSAGE_STAMP, workspace, &[]))? {
        None => Ok(0),
        Some(bytes) => <[u8; 8]>::try_from(bytes.as_slice())
            .map(u64::from_be_bytes)
            .map_err(|_| Error::corrupt("key space: the passages' stamp")),
    }
}

/// The write that gives the workspace's passages a stamp other than `old` and 0: a value drawn
/// from this process's random seed and a counter, so that no two steps of any process draw the
/// same one (but with a chance of 2⁻⁶⁴ per pair), even across a database restored from a copy.
fn new_stamp(workspace: &WorkspaceId, old: u64) -> KvOp {
    let stamp = loop {
        let drawn = crate::agent::layout::fresh_stamp();
        if drawn != old && drawn != 0 {
            break drawn;
        }
    };
    KvOp::Put(
        key(PASSAGE_STAMP, workspace, &[]),
        stamp.to_be_bytes().to_vec(),
    )
}

pub(crate) fn passage_generation(kv: &impl Kv, workspace: &WorkspaceId) -> Result<u64, Error> {
    kv.read(&mut |r| read_stamp(r, workspace))
}

pub(crate) fn put_passage(
    kv: &impl Kv,
    workspace: &WorkspaceId,
    id: &str,
    record: &[u8],
) -> Result<(), Error> {
    let k = passage_key(workspace, id);
    kv.step(&mut |r| {
        let stamp = new_stamp(workspace, read_stamp(r, workspace)?);
        Ok(((), vec![KvOp::Put(k.clone(), record.to_vec()), stamp]))
    })
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
        let stamp = new_stamp(workspace, read_stamp(r, workspace)?);
        Ok((true, vec![KvOp::Delete(k.clone()), stamp]))
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
        let stamp = new_stamp(workspace, read_stamp(r, workspace)?);
        let mut ops = vec![KvOp::Put(marker.clone(), Vec::new()), stamp];
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

//! The write-ahead journal of a durable redb database: `<file>.journal`, beside it.
//!
//! A durable commit of redb writes every page the transaction dirtied, scattered over the file,
//! and syncs them: about seventeen pages for one remember, each its own device write. The
//! journal makes the sync of a group of steps one contiguous write instead. A group's writes
//! ([`KvOp`]s) are appended to the journal as one record and synced; only then is the group
//! committed to redb, without a sync of its own. Every so often (when the journal is full, on a
//! vacuum, and when the database closes) redb commits durably — a checkpoint — and the journal
//! starts over.
//!
//! Each record carries a sequence number, and each group's redb transaction stores its number
//! ([`crate::JOURNAL_SEQ`]), so redb's state after a crash names the last record it holds. On
//! open, the records after that one are applied again in order, and a checkpoint follows. A
//! record is acknowledged only after its sync, and the sync covers every record before it in
//! the file, so an acknowledged group is always either in redb or in an intact, unbroken run of
//! records after redb's last one.
//!
//! The journal belongs to one database: a random id the database keeps beside the record
//! numbers, repeated in every record, so that a journal left beside another file (a database
//! deleted and created again under the same name) is never applied to it.
//!
//! The file: records back to back from offset 0. A record is a 32-byte header — the magic
//! `GMJ2`, the payload's length (u32), the sequence number (u64), the database's id (u64), the
//! CRC-32 (u32) of the sequence number, the id, the previous record's CRC (0 for the first
//! record after a checkpoint) and the payload, 4 zero bytes — and the payload: each write as a
//! tag byte (`1` put, `2` delete), the key's length (u32) and the key, and for a put the
//! value's length (u32) and the value; integers little-endian. Reading stops at the first record
//! that is torn, fails its checksum or does not follow the one before it: after a checkpoint the
//! journal is written from offset 0 again, and what an earlier run left beyond the new records
//! has older numbers and a chain of checksums of its own. The file is extended with zeros a mebibyte at a
//! time and synced once, so that a record's sync rewrites blocks the file already has and needs
//! no update of the file's size.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use ::redb::{Database, ReadTransaction, ReadableDatabase, TableDefinition, WriteTransaction};
use store_trait::Error;
use store_trait::kv::KvOp;

use crate::error::backend_error;
use crate::{KV, apply};

const MAGIC: &[u8; 4] = b"GMJ2";
/// The magic of the first layout (no id, no chain), written only by a development build.
pub(crate) const OLD_MAGIC: &[u8; 4] = b"GMJ1";
const HEADER: usize = 32;
const PUT: u8 = 1;
const DELETE: u8 = 2;
/// The file grows by this many zero bytes at a time.
const GROWTH: u64 = 1 << 20;
/// Past this size the journal checkpoints instead of growing.
pub(crate) const CAPACITY: u64 = 8 << 20;

/// The journal file of a database opened read-write with a sync per write.
#[derive(Debug)]
pub(crate) struct Journal {
    file: File,
    path: PathBuf,
    /// Where the next record goes.
    offset: u64,
    /// The bytes from 0 that are allocated: zeros or records.
    allocated: u64,
    /// The number the next record carries.
    next_seq: u64,
    /// The database's id, in every record.
    id: u64,
    /// The checksum of the last record written since the journal (re)started; 0 before one.
    last_crc: u32,
}

/// The journal's path for the database at `db`: `<db>.journal`.
pub(crate) fn path_of(db: &Path) -> PathBuf {
    let mut path = db.as_os_str().to_owned();
    path.push(".journal");
    PathBuf::from(path)
}

fn io(context: &'static str, e: std::io::Error) -> Error {
    Error::io(context, e)
}

/// The payload of a record of `ops`, appended to `out`.
pub(crate) fn encode(ops: &[KvOp], out: &mut Vec<u8>) {
    for op in ops {
        match op {
            KvOp::Put(k, v) => {
                out.push(PUT);
                out.extend_from_slice(&len32(k.len()).to_le_bytes());
                out.extend_from_slice(k);
                out.extend_from_slice(&len32(v.len()).to_le_bytes());
                out.extend_from_slice(v);
            }
            KvOp::Delete(k) => {
                out.push(DELETE);
                out.extend_from_slice(&len32(k.len()).to_le_bytes());
                out.extend_from_slice(k);
            }
        }
    }
}

/// A length that fits a u32: keys and values of the key space are far smaller.
fn len32(len: usize) -> u32 {
    u32::try_from(len).expect("a key or value under 4 GiB")
}

/// The writes of a payload ([`encode`]); `None` when it is malformed.
fn decode(mut payload: &[u8]) -> Option<Vec<KvOp>> {
    fn take<'a>(input: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = input.split_at_checked(n)?;
        *input = rest;
        Some(head)
    }
    fn bytes(input: &mut &[u8]) -> Option<Vec<u8>> {
        let len = u32::from_le_bytes(take(input, 4)?.try_into().ok()?);
        Some(take(input, usize::try_from(len).ok()?)?.to_vec())
    }
    let mut ops = Vec::new();
    while let Some((&tag, rest)) = payload.split_first() {
        payload = rest;
        match tag {
            PUT => {
                let key = bytes(&mut payload)?;
                ops.push(KvOp::Put(key, bytes(&mut payload)?));
            }
            DELETE => ops.push(KvOp::Delete(bytes(&mut payload)?)),
            _ => return None,
        }
    }
    Some(ops)
}

/// Writes all of `bytes` at `offset`.
#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
}

/// Writes all of `bytes` at `offset`.
#[cfg(windows)]
fn write_at(file: &File, mut bytes: &[u8], mut offset: u64) -> std::io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(file, bytes, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
        offset += n as u64;
    }
    Ok(())
}

fn checksum(seq: u64, id: u64, prev: u32, payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&seq.to_le_bytes());
    hasher.update(&id.to_le_bytes());
    hasher.update(&prev.to_le_bytes());
    hasher.update(payload);
    hasher.finalize()
}

/// The header of a record of `payload` numbered `seq` of the database `id`, after a record whose
/// checksum is `prev`.
fn header(seq: u64, id: u64, prev: u32, payload: &[u8]) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..4].copy_from_slice(MAGIC);
    h[4..8].copy_from_slice(&len32(payload.len()).to_le_bytes());
    h[8..16].copy_from_slice(&seq.to_le_bytes());
    h[16..24].copy_from_slice(&id.to_le_bytes());
    h[24..28].copy_from_slice(&checksum(seq, id, prev, payload).to_le_bytes());
    h
}

/// A new database id: random, from the standard library's randomly seeded hasher.
pub(crate) fn new_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// The unbroken run of intact records of the database `id` at the start of `bytes`: each
/// record's number and writes.
pub(crate) fn records(bytes: &[u8], id: u64) -> Vec<(u64, Vec<KvOp>)> {
    let mut out: Vec<(u64, Vec<KvOp>)> = Vec::new();
    let mut at = 0usize;
    let mut prev = 0u32;
    while let Some(h) = at.checked_add(HEADER).and_then(|end| bytes.get(at..end)) {
        // The padding is zero: the checksum does not cover it.
        if &h[..4] != MAGIC || h[28..32] != [0; 4] {
            break;
        }
        let len = u32::from_le_bytes(h[4..8].try_into().expect("4 bytes"));
        let seq = u64::from_le_bytes(h[8..16].try_into().expect("8 bytes"));
        let owner = u64::from_le_bytes(h[16..24].try_into().expect("8 bytes"));
        let sum = u32::from_le_bytes(h[24..28].try_into().expect("4 bytes"));
        let start = at + HEADER;
        let Some(payload) = usize::try_from(len)
            .ok()
            .and_then(|len| start.checked_add(len))
            .and_then(|end| bytes.get(start..end))
        else {
            break;
        };
        let follows = out
            .last()
            .is_none_or(|(last, _)| last.checked_add(1) == Some(seq));
        if owner != id || !follows || checksum(seq, id, prev, payload) != sum {
            break;
        }
        let Some(ops) = decode(payload) else {
            break;
        };
        out.push((seq, ops));
        prev = sum;
        at = start + payload.len();
    }
    out
}

/// The whole journal of the database at `db`; empty when there is none.
pub(crate) fn read_all(db: &Path) -> Result<Vec<u8>, Error> {
    match File::open(path_of(db)) {
        Ok(mut file) => {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(|e| io("redb journal: reading", e))?;
            Ok(bytes)
        }
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(io("redb journal: opening", e)),
    }
}

impl Journal {
    /// Opens (or creates) the journal of the database at `db`, whose id is `id`, for records
    /// numbered from `next_seq`, written from offset 0: call it only after a checkpoint has put
    /// every record of the database the file holds into redb.
    pub(crate) fn start(db: &Path, id: u64, next_seq: u64) -> Result<Journal, Error> {
        let path = path_of(db);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| io("redb journal: opening", e))?;
        // The file's name and size, which an earlier run may have left unsynced, are durable
        // before any record relies on them.
        file.sync_all()
            .map_err(|e| io("redb journal: syncing", e))?;
        store_kv::sync_parent_dir(&path)
            .map_err(|e| io("redb journal: syncing the directory", e))?;
        let len = file
            .metadata()
            .map_err(|e| io("redb journal: its size", e))?
            .len();
        Ok(Journal {
            file,
            path,
            offset: 0,
            // Only whole mebibytes of zeros or records count as allocated.
            allocated: len - len % GROWTH,
            next_seq,
            id,
            last_crc: 0,
        })
    }

    /// Whether no record was written since the journal (re)started.
    pub(crate) fn is_empty(&self) -> bool {
        self.offset == 0
    }

    /// The number the next record carries.
    pub(crate) fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Whether a record of a payload of `len` bytes fits before the journal must checkpoint.
    pub(crate) fn fits(&self, len: usize) -> bool {
        self.offset + (HEADER + len) as u64 <= CAPACITY
    }

    /// Appends the record of `payload` under the next number and syncs it; the number.
    pub(crate) fn append(&mut self, payload: &[u8]) -> Result<u64, Error> {
        let seq = self.next_seq;
        let end = self.offset + (HEADER + payload.len()) as u64;
        if end > self.allocated {
            self.grow(end)?;
        }
        let mut record = Vec::with_capacity(HEADER + payload.len());
        let head = header(seq, self.id, self.last_crc, payload);
        record.extend_from_slice(&head);
        record.extend_from_slice(payload);
        write_at(&self.file, &record, self.offset)
            .map_err(|e| io("redb journal: writing a record", e))?;
        self.file
            .sync_data()
            .map_err(|e| io("redb journal: syncing a record", e))?;
        self.offset = end;
        self.next_seq += 1;
        self.last_crc = u32::from_le_bytes(head[24..28].try_into().expect("4 bytes"));
        Ok(seq)
    }

    /// Extends the allocated zeros to cover `end`, synced with the file's new size.
    fn grow(&mut self, end: u64) -> Result<(), Error> {
        let target = end.div_ceil(GROWTH) * GROWTH;
        let zeros = vec![0u8; usize::try_from(GROWTH).expect("1 MiB")];
        let mut at = self.allocated;
        while at < target {
            write_at(&self.file, &zeros, at).map_err(|e| io("redb journal: growing", e))?;
            at += GROWTH;
        }
        self.file
            .sync_all()
            .map_err(|e| io("redb journal: growing", e))?;
        self.allocated = target;
        Ok(())
    }

    /// Starts over at offset 0 after a checkpoint put every record into redb; the next record
    /// is numbered `next_seq`.
    pub(crate) fn restart(&mut self, next_seq: u64) {
        self.offset = 0;
        self.next_seq = next_seq;
        self.last_crc = 0;
    }

    /// Empties the file after a checkpoint, so that no copy of a record's content outlives a
    /// vacuum; it grows again with the next records.
    pub(crate) fn clear(&mut self) -> Result<(), Error> {
        self.offset = 0;
        self.last_crc = 0;
        self.file
            .set_len(0)
            .map_err(|e| io("redb journal: emptying", e))?;
        self.allocated = 0;
        self.file
            .sync_all()
            .map_err(|e| io("redb journal: emptying", e))
    }

    /// Removes the journal file (after a checkpoint, when the database closes).
    pub(crate) fn remove(self) -> Result<(), Error> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|e| io("redb journal: removing", e))
    }
}

/// `"seq"` → the number of the last journal record the file holds ([`journal`]), written by
/// every commit of a durable backend; `"id"` → the database's id, which its journal's records
/// carry. Both absent until a durable open.
pub(crate) const JOURNAL_SEQ: TableDefinition<&str, u64> = TableDefinition::new("journal");
const SEQ_KEY: &str = "seq";
const ID_KEY: &str = "id";

/// The number of the last journal record the database holds (0 before the first) and its id
/// (none before its first durable open).
pub(crate) fn journal_state(txn: &ReadTransaction) -> Result<(u64, Option<u64>), Error> {
    match txn.open_table(JOURNAL_SEQ) {
        Ok(table) => {
            let get = |key| -> Result<Option<u64>, Error> {
                Ok(table.get(key).map_err(backend_error)?.map(|v| v.value()))
            };
            Ok((get(SEQ_KEY)?.unwrap_or(0), get(ID_KEY)?))
        }
        Err(::redb::TableError::TableDoesNotExist(_)) => Ok((0, None)),
        Err(e) => Err(backend_error(e)),
    }
}

/// The database's id, given it in a durable commit when it has none.
pub(crate) fn database_id(db: &Database) -> Result<u64, Error> {
    if let (_, Some(id)) = journal_state(&db.begin_read().map_err(backend_error)?)? {
        return Ok(id);
    }
    let id = new_id();
    let mut txn = db.begin_write().map_err(backend_error)?;
    txn.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    {
        let mut table = txn.open_table(JOURNAL_SEQ).map_err(backend_error)?;
        table.insert(ID_KEY, id).map_err(backend_error)?;
    }
    txn.commit().map_err(backend_error)?;
    Ok(id)
}

/// Records in `txn` that the database holds journal record `seq`.
pub(crate) fn set_journal_seq(txn: &WriteTransaction, seq: u64) -> Result<(), Error> {
    let mut table = txn.open_table(JOURNAL_SEQ).map_err(backend_error)?;
    table.insert(SEQ_KEY, seq).map_err(backend_error)?;
    Ok(())
}

/// Applies the journal records of the database at `path` that it does not hold yet, in one
/// durable commit; the number of the last record it then holds. Records that do not continue
/// the database's last one are refused: the journal belongs to another state of the file.
pub(crate) fn replay(db: &Database, path: &Path) -> Result<u64, Error> {
    let (held, id) = journal_state(&db.begin_read().map_err(backend_error)?)?;
    let bytes = read_all(path)?;
    // A database never opened durably has no journal of its own; one that numbered records
    // before it had an id was written by a development build's first layout, not read here.
    let Some(id) = id else {
        if held > 0 && bytes.starts_with(OLD_MAGIC) {
            return Err(Error::Format(
                "the database's journal has a layout this build does not read; open it once \
                 with the build that wrote it"
                    .into(),
            ));
        }
        return Ok(held);
    };
    let pending: Vec<(u64, Vec<KvOp>)> = records(&bytes, id)
        .into_iter()
        .filter(|(seq, _)| *seq > held)
        .collect();
    let Some((last, _)) = pending.last() else {
        return Ok(held);
    };
    let last = *last;
    if pending[0].0 != held + 1 {
        return Err(Error::Format(format!(
            "the database's journal starts at record {} but the database holds records up to \
             {held} only: the journal belongs to another copy of the file",
            pending[0].0
        )));
    }
    let mut txn = db.begin_write().map_err(backend_error)?;
    txn.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    {
        let mut table = txn.open_table(KV).map_err(backend_error)?;
        for (_, ops) in pending {
            apply(&mut table, ops)?;
        }
    }
    set_journal_seq(&txn, last)?;
    txn.commit().map_err(backend_error)?;
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(n: u8) -> Vec<KvOp> {
        vec![
            KvOp::Put(vec![n, 1], vec![n; usize::from(n)]),
            KvOp::Delete(vec![n, 2]),
            KvOp::Put(vec![], vec![]),
        ]
    }

    const ID: u64 = 0x5eed;

    /// A record and its checksum, after a record whose checksum is `prev`.
    fn chained(seq: u64, prev: u32, ops: &[KvOp]) -> (Vec<u8>, u32) {
        let mut payload = Vec::new();
        encode(ops, &mut payload);
        let head = header(seq, ID, prev, &payload);
        let mut out = head.to_vec();
        out.extend_from_slice(&payload);
        (out, u32::from_le_bytes(head[24..28].try_into().unwrap()))
    }

    fn record(seq: u64, ops: &[KvOp]) -> Vec<u8> {
        let mut payload = Vec::new();
        encode(ops, &mut payload);
        let mut out = header(seq, ID, 0, &payload).to_vec();
        out.extend_from_slice(&payload);
        out
    }

    /// Every cut of a journal, and every single flipped byte, reads back a prefix of its records
    /// in order, never a record it does not hold whole: what a crash at any moment leaves.
    #[test]
    fn every_cut_and_every_flipped_byte_reads_a_prefix() {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        let mut prev = 0;
        for seq in 1..=6u64 {
            let (r, sum) = chained(seq, prev, &ops(seq as u8 * 7));
            bytes.extend(r);
            ends.push(bytes.len());
            prev = sum;
        }
        let encoded = |ops: &[KvOp]| {
            let mut out = Vec::new();
            encode(ops, &mut out);
            out
        };
        let check = |read: &[(u64, Vec<KvOp>)], whole: usize| {
            assert_eq!(read.len(), whole);
            for (i, (seq, got)) in read.iter().enumerate() {
                assert_eq!(*seq, i as u64 + 1);
                assert_eq!(encoded(got), encoded(&ops((i as u8 + 1) * 7)));
            }
        };
        for cut in 0..=bytes.len() {
            let whole = ends.iter().filter(|end| **end <= cut).count();
            check(&records(&bytes[..cut], ID), whole);
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x40;
            // The record holding the byte and every one after it are not read.
            let whole = ends.iter().filter(|end| **end <= at).count();
            let read = records(&flipped, ID);
            assert!(read.len() <= whole, "byte {at}: {} records", read.len());
            check(&read, read.len());
        }
    }

    #[test]
    fn records_read_back_until_the_run_breaks() {
        let mut bytes = Vec::new();
        let mut prev = 0;
        for seq in 7..10 {
            let (r, sum) = chained(seq, prev, &ops(seq as u8));
            bytes.extend(r);
            prev = sum;
        }
        let tail_crc = prev;
        let read = records(&bytes, ID);
        assert_eq!(read.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [7, 8, 9]);
        let encoded = |ops: &[KvOp]| {
            let mut out = Vec::new();
            encode(ops, &mut out);
            out
        };
        assert_eq!(encoded(&read[1].1), encoded(&ops(8)));
        // Zeros after the run, a torn last record, a flipped byte, a gap in the numbers.
        let mut zeros = bytes.clone();
        zeros.extend([0u8; 100]);
        assert_eq!(records(&zeros, ID).len(), 3);
        assert_eq!(records(&bytes[..bytes.len() - 1], ID).len(), 2);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 1;
        assert_eq!(records(&flipped, ID).len(), 2);
        let mut gap = bytes.clone();
        gap.extend(chained(11, tail_crc, &ops(11)).0);
        assert_eq!(records(&gap, ID).len(), 3);
        // The next number, but chained to another record: left by an earlier run.
        let mut stale_next = bytes.clone();
        stale_next.extend(chained(10, tail_crc ^ 1, &ops(10)).0);
        assert_eq!(records(&stale_next, ID).len(), 3);
        let mut next = bytes.clone();
        next.extend(chained(10, tail_crc, &ops(10)).0);
        assert_eq!(records(&next, ID).len(), 4);
        // Older records left beyond newer ones are not read.
        let mut stale = record(20, &ops(1));
        stale.extend(record(21, &ops(2)));
        assert_eq!(records(&stale, ID).len(), 1);
        // Another database's records are not read.
        assert!(records(&bytes, ID + 1).is_empty());
    }
}

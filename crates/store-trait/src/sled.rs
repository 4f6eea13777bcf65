//! [`SledBackend`]: a durable [`Backend`] in a sled 0.34 database directory (feature `sled`).
//!
//! `docs/storage-sled.md` documents the on-disk layout this module writes: the trees, the key
//! and value encodings, the format version and what durability means here.
//!
//! sled's transactions can only read and write single keys, so the layout gives everything
//! [`Backend::remember`] decides on a point-readable record: the credential's rate-window record,
//! the (namespace, key) index entry and the owner's age histogram (below). Range scans (lists,
//! forgets, purges, deletions) run outside transactions; a write that acts on what a scan found
//! re-reads each found version inside its transaction and, where a missed version would leave the
//! indexes inconsistent, checks an exact count before writing, retrying the scan otherwise.
//!
//! # The quota count: an age histogram per owner
//!
//! The quota counts the owner's versions with `created_at > cutoff` for any cut-off the caller
//! passes, expired but unpurged versions excluded, while `get` and the forgets must still see
//! those. Purging them inside `remember` is therefore not an option, and one counter cannot
//! answer for an arbitrary cut-off. Instead every owner has a radix histogram of its versions'
//! `created_at`: the instant, as milliseconds since [`Timestamp::MIN`] (< 2⁴⁹), is split into 7
//! digits of 7 bits, and the record of level `l` for a 7·`l`-digit prefix holds, per next digit,
//! how many stored versions have that prefix and digit. The count above a cut-off is the sum, on
//! the cut-off's own path of 7 records, of the counts of digits greater than the cut-off's digit
//! at that level: exact, 7 point reads. A write or a removal adjusts the 7 records on its
//! version's path; a record whose counts all reach zero is removed, so the histogram always
//! describes exactly the stored versions and its root record's sum is the owner's total.

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use ::sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};
use ::sled::{Db, IVec, Tree};
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, StoredEmbedding, Timestamp,
    WorkspaceId,
};

use crate::backend::{check_decided_write, key_instant, latest_instant};
use crate::keys::{
    decode_window, encode_window, key_prefix, owner_prefix, window_key, workspace_prefix,
};
use crate::kv::{Decided, Kv, KvOp, KvRead, impl_store_backend};
use crate::stores::VacuumReport;
use crate::{
    Backend, Durability, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery,
};

/// The key of the format record in sled's default tree.
const FORMAT_KEY: &[u8] = b"store-trait/format";

/// The trees, by name; their keys and values are described in `docs/storage-sled.md`.
const MEMORIES: &str = "memories";
const IDS: &str = "ids";
const KEYS: &str = "keys";
const KEY_VERSIONS: &str = "key_versions";
const COUNTS: &str = "counts";
const WINDOWS: &str = "windows";
const SETTINGS: &str = "settings";
const STORES: &str = "memory_stores";

/// Digits of the age histogram and bits per digit: 7 × 7 = 49 bits hold every instant.
const LEVELS: u32 = 7;
const DIGIT_BITS: u32 = 7;
const DIGIT_MASK: u64 = (1 << DIGIT_BITS) - 1;

/// A [`Backend`] storing everything in a sled 0.34 database directory.
///
/// Every mutation is one sled multi-tree transaction, so a crash leaves either all of it or none
/// of it. sled 0.34 runs a transaction's closure and commit under one process-wide lock, so
/// transactions never interleave; `decide` runs inside it and so must not call the backend.
///
/// With [`Durability::Immediate`] every mutating call returns only after `flush()` wrote its
/// commit to disk. sled's flush ends with `sync_file_range`, not `fsync`: an acknowledged write
/// survives the process being killed, but is not guaranteed to survive a power loss or an
/// operating-system crash. Hosts that need that use the redb backend.
///
/// One database directory can be opened by one process at a time (sled locks it).
pub struct SledBackend {
    /// `None` only after a vacuum could not reopen the rewritten directory. Every call holds the
    /// read lock while it runs; [`vacuum`](crate::StoreBackend::vacuum) takes the write lock to
    /// swap the directory.
    core: RwLock<Option<SledCore>>,
    path: PathBuf,
    durability: Durability,
}

/// One open sled database: everything [`SledBackend`] does between two vacuums.
pub(crate) struct SledCore {
    db: Db,
    path: PathBuf,
    durability: Durability,
    trees: Trees,
    /// Memory-store steps (read, decide, apply one batch) hold it exclusively, reads shared:
    /// sled applies a batch atomically per key, not across the keys a read visits, so without
    /// it a read of several keys could see half of a step.
    store_steps: RwLock<()>,
}

struct Trees {
    memories: Tree,
    ids: Tree,
    keys: Tree,
    key_versions: Tree,
    counts: Tree,
    windows: Tree,
    settings: Tree,
    stores: Tree,
}

impl SledCore {
    /// The storage format this build reads and writes, recorded in every database it creates.
    pub const FORMAT_VERSION: u32 = 3;

    /// The owner's unexpired versions in scan order after `after` that `keep` accepts, at most
    /// `limit`: [`Backend::scan`] with the query's filters, [`Backend::versions`] with none.
    fn scan_where(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
        keep: &dyn Fn(&AgentMemory) -> bool,
    ) -> Result<Vec<AgentMemory>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let prefix = owner_prefix(owner);
        let start = match after {
            // Strictly after the position: its key with a byte appended is the next one up.
            Some((at, id)) => {
                let mut k = memory_key(&prefix, *at, id);
                k.push(0);
                k
            }
            None => prefix.clone(),
        };
        let mut found = Vec::new();
        for item in self.trees.memories.range(start..) {
            let (k, value) = item.map_err(|e| storage("scan", &e))?;
            if !k.starts_with(&prefix) {
                break;
            }
            // Newest first: once one version is expired, every later one is.
            let at = decode_desc_millis(&k[prefix.len()..]).ok_or_else(|| {
                Error::Backend("corrupt sled database: a memories key is malformed".into())
            })?;
            if at <= expired_cutoff {
                break;
            }
            let memory = decode_memory(&value).map_err(Error::Backend)?;
            if keep(&memory) {
                found.push(memory);
                if found.len() >= limit {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// Opens (creating when missing) the database directory `path`.
    ///
    /// A new database gets the format record of [`FORMAT_VERSION`](Self::FORMAT_VERSION). A
    /// database recording another format version, or holding data without a format record, is
    /// refused with [`Error::Format`] (naming both versions) before anything is written to it;
    /// a database that sled itself cannot open is [`Error::Backend`].
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref().to_path_buf();
        let db = open_when_released(&path).map_err(|e| storage("open", &e))?;
        match db.get(FORMAT_KEY).map_err(|e| storage("open", &e))? {
            Some(found) => {
                let found = <[u8; 4]>::try_from(found.as_ref())
                    .map(u32::from_be_bytes)
                    .map_err(|_| {
                        Error::Format(format!(
                            "the sled database at {} has an unreadable format record; it was \
                             left unchanged",
                            path.display()
                        ))
                    })?;
                if found != Self::FORMAT_VERSION {
                    return Err(Error::Format(format!(
                        "the sled database at {} has format version {found}, but this build \
                         reads only format version {}; it was left unchanged",
                        path.display(),
                        Self::FORMAT_VERSION
                    )));
                }
            }
            None => {
                // Data in any tree is someone else's. Empty trees are not: a crash while creating
                // a database may leave the trees without the format record before them.
                let mut foreign = !db.is_empty();
                for name in db.tree_names() {
                    // Opening a tree that exists creates nothing.
                    foreign |= !db
                        .open_tree(name)
                        .map_err(|e| storage("open", &e))?
                        .is_empty();
                }
                if foreign {
                    return Err(Error::Format(format!(
                        "the sled database at {} holds data without a store-trait format record; \
                         it was left unchanged",
                        path.display()
                    )));
                }
                db.insert(FORMAT_KEY, &Self::FORMAT_VERSION.to_be_bytes()[..])
                    .map_err(|e| storage("open", &e))?;
            }
        }
        let tree = |name: &str| db.open_tree(name).map_err(|e| storage("open", &e));
        let trees = Trees {
            memories: tree(MEMORIES)?,
            ids: tree(IDS)?,
            keys: tree(KEYS)?,
            key_versions: tree(KEY_VERSIONS)?,
            counts: tree(COUNTS)?,
            windows: tree(WINDOWS)?,
            settings: tree(SETTINGS)?,
            stores: tree(STORES)?,
        };
        // The format record and the trees are on disk before the first write is acknowledged.
        db.flush().map_err(|e| storage("open", &e))?;
        Ok(SledCore {
            db,
            path,
            durability,
            trees,
            store_steps: RwLock::new(()),
        })
    }

    /// Writes every pending commit to disk (what [`Durability::Immediate`] does after each
    /// mutating call); with [`Durability::Eventual`], call it at points the host wants durable.
    pub fn flush(&self) -> Result<(), Error> {
        self.db.flush().map_err(|e| storage("flush", &e))?;
        Ok(())
    }

    fn sync(&self) -> Result<(), Error> {
        match self.durability {
            Durability::Immediate => self.flush(),
            Durability::Eventual => Ok(()),
        }
    }

    /// Runs `f` as one transaction over every tree but the settings; flushes after a commit
    /// when the durability asks for it. An [`Abort`] comes back as the inner error.
    fn transact<A>(&self, f: &dyn Fn(&Tx<'_>) -> TxResult<A>) -> Result<Result<A, Abort>, Error> {
        let t = &self.trees;
        let result = (
            &t.memories,
            &t.ids,
            &t.keys,
            &t.key_versions,
            &t.counts,
            &t.windows,
        )
            .transaction(|(memories, ids, keys, key_versions, counts, windows)| {
                f(&Tx {
                    memories,
                    ids,
                    keys,
                    key_versions,
                    counts,
                    windows,
                })
            });
        match result {
            Ok(value) => {
                self.sync()?;
                Ok(Ok(value))
            }
            Err(TransactionError::Abort(Abort::Corrupt(what))) => Err(Error::Backend(what)),
            Err(TransactionError::Abort(abort)) => Ok(Err(abort)),
            Err(TransactionError::Storage(e)) => Err(storage("transaction", &e)),
        }
    }

    /// Like [`transact`](Self::transact) for a mutation that acts on what a scan found: scans
    /// with `scan`, runs `apply` on the result, and scans again while `apply` asks to retry.
    /// When `scan` found nothing there is nothing to change: the answer is `A::default()`,
    /// without a transaction.
    fn scan_and_apply<S, A: Default>(
        &self,
        scan: &dyn Fn() -> Result<S, Error>,
        nothing_found: &dyn Fn(&S) -> bool,
        apply: &dyn Fn(&Tx<'_>, &S) -> TxResult<A>,
    ) -> Result<A, Error> {
        loop {
            let found = scan()?;
            if nothing_found(&found) {
                return Ok(A::default());
            }
            match self.transact(&|tx| apply(tx, &found))? {
                Ok(value) => return Ok(value),
                Err(Abort::Retry) => continue,
                Err(_) => return Err(Error::Backend("unexpected transaction abort".into())),
            }
        }
    }

    /// Runs the point reads of `f` as one unit: a transaction that commits nothing (it ends by
    /// aborting with the answer), so that no commit lands between its reads.
    fn read<A>(&self, f: &dyn Fn(&Tx<'_>) -> TxResult<A>) -> Result<A, Error> {
        let answer = RefCell::new(None);
        let outcome = self.transact::<()>(&|tx| {
            *answer.borrow_mut() = Some(f(tx)?);
            Err(ConflictableTransactionError::Abort(Abort::ReadDone))
        })?;
        match (outcome, answer.into_inner()) {
            (Err(Abort::ReadDone), Some(value)) => Ok(value),
            _ => Err(Error::Backend("unexpected transaction outcome".into())),
        }
    }

    /// Every stored version of the workspace (all owners) for which `doomed` holds.
    fn scan_workspace(
        &self,
        workspace: &WorkspaceId,
        doomed: &dyn Fn(&AgentMemory) -> bool,
    ) -> Result<Vec<AgentMemory>, Error> {
        let mut found = Vec::new();
        for item in self.trees.memories.scan_prefix(workspace_prefix(workspace)) {
            let (_, value) = item.map_err(|e| storage("scan", &e))?;
            let memory = decode_memory(&value).map_err(Error::Backend)?;
            if doomed(&memory) {
                found.push(memory);
            }
        }
        Ok(found)
    }

    /// Removes the versions found (those still stored), keeping their keys' numbering.
    fn purge_found(
        &self,
        found: &dyn Fn() -> Result<Vec<AgentMemory>, Error>,
    ) -> Result<u64, Error> {
        self.scan_and_apply(found, &|found| found.is_empty(), &|tx, found| {
            let mut removed = 0;
            for memory in found {
                let prefix =
                    owner_prefix(&Owner::new(memory.workspace.clone(), memory.member.clone()));
                // Re-read: a concurrent forget may have removed it since the scan.
                let Some(stored) = tx.memory(&prefix, memory.created_at, &memory.id)? else {
                    continue;
                };
                tx.remove_version(&prefix, &stored)?;
                if let Some(key) = &stored.key {
                    let kk = key_prefix(&prefix, &stored.namespace, key);
                    if let Some(mut entry) = tx.key_entry(&kk)? {
                        entry.versions = entry.versions.checked_sub(1).ok_or_else(|| {
                            corrupt("a key index entry counts fewer versions than are stored")
                        })?;
                        if entry
                            .current
                            .as_ref()
                            .is_some_and(|(at, id)| *at == stored.created_at && *id == stored.id)
                        {
                            entry.current = None;
                        }
                        tx.keys.insert(kk, entry.encode())?;
                    }
                }
                removed += 1;
            }
            Ok(removed)
        })
    }

    /// Removes every version of the owners under `prefix` (one owner, or a whole workspace) and
    /// their key index entries.
    fn delete_under(&self, prefix: &[u8]) -> Result<u64, Error> {
        let scan = || -> Result<(Vec<AgentMemory>, Vec<IVec>), Error> {
            // Key entries first: one created after this scan comes with a version the memory
            // scan below sees, or with one that makes the owner's total disagree (a retry).
            let key_entries = self
                .trees
                .keys
                .scan_prefix(prefix)
                .keys()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| storage("scan", &e))?;
            let mut memories = Vec::new();
            for item in self.trees.memories.scan_prefix(prefix) {
                let (_, value) = item.map_err(|e| storage("scan", &e))?;
                memories.push(decode_memory(&value).map_err(Error::Backend)?);
            }
            Ok((memories, key_entries))
        };
        let nothing = |(memories, key_entries): &(Vec<AgentMemory>, Vec<IVec>)| {
            memories.is_empty() && key_entries.is_empty()
        };
        self.scan_and_apply(&scan, &nothing, &|tx, (memories, key_entries)| {
            // Owner prefix → versions found still stored.
            let mut present: Vec<(Vec<u8>, u64)> = Vec::new();
            let mut owners_seen =
                |owner: Vec<u8>, n: u64| match present.iter_mut().find(|(o, _)| *o == owner) {
                    Some((_, count)) => *count += n,
                    None => present.push((owner, n)),
                };
            let mut stored = Vec::new();
            for memory in memories {
                let prefix =
                    owner_prefix(&Owner::new(memory.workspace.clone(), memory.member.clone()));
                match tx.memory(&prefix, memory.created_at, &memory.id)? {
                    Some(m) => {
                        owners_seen(prefix.clone(), 1);
                        stored.push((prefix, m));
                    }
                    None => owners_seen(prefix, 0),
                }
            }
            for kk in key_entries {
                let owner =
                    owner_prefix_of(kk).ok_or_else(|| corrupt("a key index key is malformed"))?;
                owners_seen(owner.to_vec(), 0);
            }
            // A version written since the scan would stay behind without its key entry: start
            // over unless each owner's total is exactly what was found.
            for (owner, count) in &present {
                if tx.total(owner)? != *count {
                    return Err(ConflictableTransactionError::Abort(Abort::Retry));
                }
            }
            for (prefix, memory) in &stored {
                tx.remove_version(prefix, memory)?;
                if let Some(key) = &memory.key {
                    tx.keys.remove(key_prefix(prefix, &memory.namespace, key))?;
                }
            }
            for kk in key_entries {
                tx.keys.remove(kk.clone())?;
            }
            Ok(stored.len() as u64)
        })
    }

    /// The latest instant of the key's newest stored version ([`latest_instant`]), read outside
    /// a transaction: when a purge removes that version between the two reads, the next one
    /// is read.
    fn newest_of_key(&self, prefix: &[u8], kk: &[u8]) -> Result<Option<Timestamp>, Error> {
        for _ in 0..100 {
            let Some(first) = self.trees.key_versions.scan_prefix(kk).keys().next() else {
                return Ok(None);
            };
            let first = first.map_err(|e| storage("scan", &e))?;
            // A key_versions key ends with the same (created_at, id) suffix as the version's
            // memories key.
            let mut mk = prefix.to_vec();
            mk.extend_from_slice(&first[kk.len()..]);
            match self
                .trees
                .memories
                .get(mk)
                .map_err(|e| storage("get", &e))?
            {
                Some(value) => {
                    let memory = decode_memory(&value).map_err(Error::Backend)?;
                    return Ok(Some(latest_instant(&memory)));
                }
                // Removed in between: the purge that did it has removed the entry too.
                None => std::thread::yield_now(),
            }
        }
        Err(Error::Backend(
            "corrupt sled database: a key_versions entry names no version".into(),
        ))
    }

    /// Removes every version of (namespace, key) and its index entry, when the key has a
    /// stored version (and, with `id`, only while version `id` is still stored).
    fn forget_key_inner(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
        id: Option<&AgentMemoryId>,
    ) -> Result<Vec<AgentMemory>, Error> {
        let prefix = owner_prefix(owner);
        let kk = key_prefix(&prefix, namespace, key);
        let scan = || -> Result<Vec<IVec>, Error> {
            self.trees
                .key_versions
                .scan_prefix(&kk)
                .keys()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| storage("scan", &e))
        };
        self.scan_and_apply(&scan, &|found| found.is_empty(), &|tx, found| {
            if let Some(id) = id
                && tx.ids.get(id_key(&prefix, id))?.is_none()
            {
                return Ok(Vec::new());
            }
            let Some(entry) = tx.key_entry(&kk)? else {
                return Ok(Vec::new());
            };
            // A key whose versions were all purged keeps its numbering.
            if entry.versions == 0 {
                return Ok(Vec::new());
            }
            let mut removed = Vec::new();
            for found in found {
                // A key_versions key ends with the same (created_at, id) suffix as the version's
                // memories key.
                let mut mk = prefix.clone();
                mk.extend_from_slice(&found[kk.len()..]);
                if let Some(value) = tx.memories.get(mk)? {
                    removed.push(decode_memory(&value).map_err(abort_corrupt)?);
                }
            }
            if removed.len() as u64 != entry.versions {
                return Err(ConflictableTransactionError::Abort(Abort::Retry));
            }
            for memory in &removed {
                tx.remove_version(&prefix, memory)?;
            }
            tx.keys.remove(kk.as_slice())?;
            Ok(removed)
        })
    }
}

impl fmt::Debug for SledCore {
    /// The path and durability only: the database holds memory content, which never goes into
    /// logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SledCore")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .finish()
    }
}

/// Why a transaction closure stopped without committing.
enum Abort {
    /// `decide` refused; nothing is written.
    Refused(ApiError),
    /// The decided write breaks the [`RememberWrite`] contract.
    Invalid(&'static str),
    /// A scan is stale: scan again and retry.
    Retry,
    /// A read-only unit finished (see [`SledCore::read`]).
    ReadDone,
    /// A stored value could not be decoded.
    Corrupt(String),
}

type TxResult<A> = Result<A, ConflictableTransactionError<Abort>>;

fn corrupt(what: &str) -> ConflictableTransactionError<Abort> {
    ConflictableTransactionError::Abort(Abort::Corrupt(format!("corrupt sled database: {what}")))
}

fn abort_corrupt(what: String) -> ConflictableTransactionError<Abort> {
    ConflictableTransactionError::Abort(Abort::Corrupt(what))
}

/// A sled failure, classified: sled reports the lock another process holds as an I/O error of
/// kind `Other` with this message (sled 0.34, `Config::try_lock`).
fn storage(during: &str, e: &::sled::Error) -> Error {
    let failure = match e {
        ::sled::Error::Io(io) if io.to_string().starts_with("could not acquire lock") => {
            crate::StorageFailure::Locked
        }
        ::sled::Error::Io(io) => crate::StorageFailure::of_io(io),
        _ => crate::StorageFailure::Other,
    };
    Error::storage(failure, format!("sled {during}"), e.clone())
}

/// The trees of one transaction.
struct Tx<'a> {
    memories: &'a TransactionalTree,
    ids: &'a TransactionalTree,
    keys: &'a TransactionalTree,
    key_versions: &'a TransactionalTree,
    counts: &'a TransactionalTree,
    windows: &'a TransactionalTree,
}

impl Tx<'_> {
    fn memory(
        &self,
        prefix: &[u8],
        created_at: Timestamp,
        id: &AgentMemoryId,
    ) -> TxResult<Option<AgentMemory>> {
        match self.memories.get(memory_key(prefix, created_at, id))? {
            Some(value) => Ok(Some(decode_memory(&value).map_err(abort_corrupt)?)),
            None => Ok(None),
        }
    }

    fn key_entry(&self, kk: &[u8]) -> TxResult<Option<KeyEntry>> {
        match self.keys.get(kk)? {
            Some(value) => {
                Ok(Some(KeyEntry::decode(&value).ok_or_else(|| {
                    corrupt("a key index entry is malformed")
                })?))
            }
            None => Ok(None),
        }
    }

    fn put_memory(&self, prefix: &[u8], memory: &AgentMemory) -> TxResult<()> {
        let value = crate::codec::encode(memory)
            .map_err(|e| abort_corrupt(format!("cannot encode a memory: {e}")))?;
        self.memories
            .insert(memory_key(prefix, memory.created_at, &memory.id), value)?;
        Ok(())
    }

    /// Removes a stored version from the memories, ids and key-versions trees and from the
    /// owner's histogram; the key index entry is the caller's.
    fn remove_version(&self, prefix: &[u8], memory: &AgentMemory) -> TxResult<()> {
        self.memories
            .remove(memory_key(prefix, memory.created_at, &memory.id))?;
        self.ids.remove(id_key(prefix, &memory.id))?;
        if let Some(key) = &memory.key {
            let mut kv = key_prefix(prefix, &memory.namespace, key);
            push_position(&mut kv, memory.created_at, &memory.id);
            self.key_versions.remove(kv)?;
        }
        self.count(prefix, memory.created_at, false)
    }

    /// The owner's stored versions with `created_at > cutoff` (7 point reads).
    fn count_after(&self, prefix: &[u8], cutoff: Timestamp) -> TxResult<u64> {
        let u = histogram_position(cutoff);
        let mut total = 0;
        for level in 0..LEVELS {
            let Some(value) = self.counts.get(count_key(prefix, level, u))? else {
                continue;
            };
            let digit = digit(level, u);
            total += decode_counts(&value)
                .ok_or_else(|| corrupt("a histogram record is malformed"))?
                .iter()
                .filter(|(d, _)| *d > digit)
                .map(|(_, n)| n)
                .sum::<u64>();
        }
        Ok(total)
    }

    /// The owner's stored versions, expired ones included: the sum of the histogram's root.
    fn total(&self, prefix: &[u8]) -> TxResult<u64> {
        match self.counts.get(count_key(prefix, 0, 0))? {
            Some(value) => Ok(decode_counts(&value)
                .ok_or_else(|| corrupt("a histogram record is malformed"))?
                .iter()
                .map(|(_, n)| n)
                .sum()),
            None => Ok(0),
        }
    }

    /// Adds (or removes) one version created at `at` to (from) the owner's histogram.
    fn count(&self, prefix: &[u8], at: Timestamp, add: bool) -> TxResult<()> {
        let u = histogram_position(at);
        for level in 0..LEVELS {
            let ck = count_key(prefix, level, u);
            let mut counts = match self.counts.get(&ck)? {
                Some(value) => decode_counts(&value)
                    .ok_or_else(|| corrupt("a histogram record is malformed"))?,
                None => Vec::new(),
            };
            let digit = digit(level, u);
            let at = counts.partition_point(|(d, _)| *d < digit);
            match (counts.get_mut(at), add) {
                (Some((d, n)), true) if *d == digit => *n += 1,
                (_, true) => counts.insert(at, (digit, 1)),
                (Some((d, n)), false) if *d == digit => {
                    *n -= 1;
                    if *n == 0 {
                        counts.remove(at);
                    }
                }
                (_, false) => return Err(corrupt("the histogram misses a stored version")),
            }
            if counts.is_empty() {
                self.counts.remove(ck)?;
            } else {
                self.counts.insert(ck, encode_counts(&counts))?;
            }
        }
        Ok(())
    }
}

impl Backend for SledCore {
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        let prefix = owner_prefix(owner);
        let kk = key.map(|(namespace, key)| key_prefix(&prefix, namespace, key));
        let wk = window_key(&owner.workspace, credential);
        // The transaction closure is `Fn` (sled may run it again); `decide` is `FnMut`.
        let decide = RefCell::new(decide);
        // A sled transaction cannot seek, so the key's newest version is read before it. A
        // remember committed since then is the key's current version inside the transaction; a
        // forget or purge since can only lower the key's latest instant: the instant taken is
        // never too early.
        let newest = match &kk {
            Some(kk) => self.newest_of_key(&prefix, kk)?,
            None => None,
        };

        let outcome = self.transact(&|tx| {
            // Point reads only: the window record, the histogram path, the key entry and the
            // current version it names.
            let window = match tx.windows.get(&wk)? {
                Some(value) => decode_window(&value)
                    .ok_or_else(|| corrupt("a rate-window record is malformed"))?,
                None => Vec::new(),
            };
            let entry = match &kk {
                Some(kk) => tx.key_entry(kk)?,
                None => None,
            };
            let current = match entry.as_ref().and_then(|e| e.current.as_ref()) {
                Some((at, id)) => tx.memory(&prefix, *at, id)?,
                None => None,
            };
            let state = RememberState {
                window: window
                    .iter()
                    .copied()
                    .filter(|t| *t > window_start)
                    .collect(),
                stored_versions: tx.count_after(&prefix, expired_cutoff)?,
                current,
                last_version: entry.as_ref().map_or(0, |e| e.last_version),
            };

            let write = match (*decide.borrow_mut())(&state) {
                Ok(write) => write,
                Err(refusal) => {
                    return Err(ConflictableTransactionError::Abort(Abort::Refused(refusal)));
                }
            };
            let mut record = write.record;
            let ik = id_key(&prefix, &record.id);
            let id_taken = tx.ids.get(&ik)?.is_some();
            check_decided_write(owner, credential, key, &record, id_taken)
                .map_err(|why| ConflictableTransactionError::Abort(Abort::Invalid(why)))?;
            if kk.is_some() {
                let latest = newest.max(state.current.as_ref().map(|c| c.created_at));
                record.created_at = key_instant(record.created_at, latest);
            }

            // The whole write: record, indexes, histogram and window, in this transaction.
            tx.put_memory(&prefix, &record)?;
            tx.ids
                .insert(ik, &record.created_at.as_millis().to_be_bytes()[..])?;
            tx.count(&prefix, record.created_at, true)?;
            let mut superseded = None;
            if let Some(kk) = &kk {
                let mut entry = entry.unwrap_or_default();
                if write.supersede_current
                    && let Some(mut old) = state.current.clone()
                {
                    old.superseded_at = Some(record.created_at);
                    tx.put_memory(&prefix, &old)?;
                    superseded = Some(old);
                }
                entry.current = Some((record.created_at, record.id.clone()));
                entry.last_version = entry.last_version.max(record.version);
                entry.versions += 1;
                tx.keys.insert(kk.as_slice(), entry.encode())?;
                let mut kv = kk.clone();
                push_position(&mut kv, record.created_at, &record.id);
                tx.key_versions.insert(kv, Vec::new())?;
            }
            let mut window = window;
            let at = window.partition_point(|t| *t <= record.created_at);
            window.insert(at, record.created_at);
            window.retain(|t| *t > window_start);
            tx.windows.insert(wk.as_slice(), encode_window(&window))?;
            Ok((record, superseded))
        })?;
        match outcome {
            Ok((record, superseded)) => Ok(RememberOutcome::Written { record, superseded }),
            Err(Abort::Refused(refusal)) => Ok(RememberOutcome::Refused(refusal)),
            Err(Abort::Invalid(why)) => Err(Error::InvalidWrite(why)),
            Err(Abort::Retry | Abort::ReadDone | Abort::Corrupt(_)) => {
                Err(Error::Backend("unexpected transaction abort".into()))
            }
        }
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        let prefix = owner_prefix(owner);
        let Some(at) = self
            .trees
            .ids
            .get(id_key(&prefix, id))
            .map_err(|e| storage("get", &e))?
        else {
            return Ok(None);
        };
        let at = decode_millis(&at).ok_or_else(|| {
            Error::Backend("corrupt sled database: an id index entry is malformed".into())
        })?;
        match self
            .trees
            .memories
            .get(memory_key(&prefix, at, id))
            .map_err(|e| storage("get", &e))?
        {
            Some(value) => Ok(Some(decode_memory(&value).map_err(Error::Backend)?)),
            None => Ok(None),
        }
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        let prefix = owner_prefix(owner);
        let kk = key_prefix(&prefix, namespace, key);
        // One unit, so that a concurrent supersede cannot hand back a superseded version.
        self.read(&|tx| match tx.key_entry(&kk)?.and_then(|e| e.current) {
            Some((at, id)) => tx.memory(&prefix, at, &id),
            None => Ok(None),
        })
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error> {
        self.scan_where(
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
        self.scan_where(owner, expired_cutoff, after, limit, &|_| true)
    }

    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        let Some(memory) = self.get(owner, id)? else {
            return Ok(false);
        };
        let prefix = owner_prefix(owner);
        let outcome = self.transact(&|tx| {
            // Read again inside the transaction: a forget may have removed it meanwhile.
            let Some(mut stored) = tx.memory(&prefix, memory.created_at, id)? else {
                return Ok(false);
            };
            stored.ranking.embedding = Some(embedding.clone());
            tx.put_memory(&prefix, &stored)?;
            Ok(true)
        })?;
        outcome.map_err(|_| Error::Backend("unexpected transaction abort".into()))
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        self.forget_key_inner(owner, namespace, key, None)
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        let Some(memory) = self.get(owner, id)? else {
            return Ok(Vec::new());
        };
        if let Some(key) = &memory.key {
            return self.forget_key_inner(owner, &memory.namespace, key, Some(id));
        }
        let prefix = owner_prefix(owner);
        let outcome = self.transact(&|tx| {
            let Some(stored) = tx.memory(&prefix, memory.created_at, id)? else {
                return Ok(Vec::new());
            };
            tx.remove_version(&prefix, &stored)?;
            Ok(vec![stored])
        })?;
        outcome.map_err(|_| Error::Backend("unexpected transaction abort".into()))
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        self.delete_under(&owner_prefix(owner))
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        self.delete_under(&workspace_prefix(workspace))
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        // Per owner, the expired versions are the tail of its range: seek straight to it.
        let scan = || -> Result<Vec<AgentMemory>, Error> {
            let ws = workspace_prefix(workspace);
            let mut found = Vec::new();
            let mut from = ws.clone();
            loop {
                let Some(first) = self
                    .trees
                    .memories
                    .range(from.as_slice()..)
                    .keys()
                    .next()
                    .transpose()
                    .map_err(|e| storage("scan", &e))?
                else {
                    break;
                };
                if !first.starts_with(&ws) {
                    break;
                }
                let owner = owner_prefix_of(&first)
                    .ok_or_else(|| {
                        Error::Backend("corrupt sled database: a memories key is malformed".into())
                    })?
                    .to_vec();
                let mut tail = owner.clone();
                tail.extend_from_slice(&desc_millis(cutoff));
                for item in self.trees.memories.range(tail..) {
                    let (k, value) = item.map_err(|e| storage("scan", &e))?;
                    if !k.starts_with(&owner) {
                        break;
                    }
                    found.push(decode_memory(&value).map_err(Error::Backend)?);
                }
                match successor(&owner) {
                    Some(next) => from = next,
                    None => break,
                }
            }
            Ok(found)
        };
        self.purge_found(&scan)
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        self.purge_found(&|| self.scan_workspace(workspace, &|m| m.cites_document(document_id)))
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        self.purge_found(&|| {
            self.scan_workspace(workspace, &|m| m.touches_collection(collection_id))
        })
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        let prefix = owner_prefix(owner);
        self.read(&|tx| tx.count_after(&prefix, expired_cutoff))
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        match self
            .trees
            .settings
            .get(workspace_prefix(workspace))
            .map_err(|e| storage("get", &e))?
        {
            Some(value) => serde_json::from_slice(&value).map(Some).map_err(|e| {
                Error::Backend(format!("corrupt sled database: unreadable settings: {e}"))
            }),
            None => Ok(None),
        }
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let value = serde_json::to_vec(settings)
            .map_err(|e| Error::Backend(format!("cannot encode settings: {e}")))?;
        self.trees
            .settings
            .insert(workspace_prefix(workspace), value)
            .map_err(|e| storage("insert", &e))?;
        self.sync()
    }
}

// Key encoding. Every variable-length component is length-delimited (u32 big-endian length,
// then the bytes), so no workspace, member, namespace or key is ever a prefix of another.

/// The owner prefix (two length-delimited components) a key starts with.
fn owner_prefix_of(key: &[u8]) -> Option<&[u8]> {
    let mut at = 0;
    for _ in 0..2 {
        let len = u32::from_be_bytes(key.get(at..at + 4)?.try_into().ok()?) as usize;
        at = at.checked_add(4 + len)?;
    }
    key.get(..at)
}

/// The smallest byte string greater than every string starting with `prefix`.
fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut next = prefix.to_vec();
    while let Some(last) = next.pop() {
        if last < u8::MAX {
            next.push(last + 1);
            return Some(next);
        }
    }
    None
}

/// `created_at` so that byte order is newest first.
fn desc_millis(at: Timestamp) -> [u8; 8] {
    (!((at.as_millis() as u64) ^ (1 << 63))).to_be_bytes()
}

fn decode_desc_millis(bytes: &[u8]) -> Option<Timestamp> {
    let raw = u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?);
    Timestamp::from_millis((!raw ^ (1 << 63)) as i64).ok()
}

/// Appends the scan position (`created_at` desc, `id` desc): the id's bytes inverted, then
/// 0xFF, which sorts after every inverted id byte (ids are ASCII, never 0x00), so that a longer
/// id sorts before its own prefix as descending order requires.
fn push_position(buf: &mut Vec<u8>, at: Timestamp, id: &AgentMemoryId) {
    buf.extend_from_slice(&desc_millis(at));
    buf.extend(id.as_str().bytes().map(|b| !b));
    buf.push(u8::MAX);
}

fn memory_key(prefix: &[u8], at: Timestamp, id: &AgentMemoryId) -> Vec<u8> {
    let mut k = prefix.to_vec();
    push_position(&mut k, at, id);
    k
}

fn id_key(prefix: &[u8], id: &AgentMemoryId) -> Vec<u8> {
    let mut k = prefix.to_vec();
    k.extend_from_slice(id.as_str().as_bytes());
    k
}

/// An instant's position in the histogram: milliseconds since [`Timestamp::MIN`] (< 2⁴⁹).
fn histogram_position(at: Timestamp) -> u64 {
    at.millis_since(Timestamp::MIN) as u64
}

/// The key of the level-`level` histogram record on `u`'s path: the owner, the level, and the
/// digits above it.
fn count_key(prefix: &[u8], level: u32, u: u64) -> Vec<u8> {
    let mut k = prefix.to_vec();
    k.push(level as u8);
    k.extend_from_slice(&(u >> (DIGIT_BITS * (LEVELS - level))).to_be_bytes());
    k
}

/// `u`'s digit at `level` (level 0 the most significant).
fn digit(level: u32, u: u64) -> u8 {
    ((u >> (DIGIT_BITS * (LEVELS - 1 - level))) & DIGIT_MASK) as u8
}

// Value encoding: memories and settings are serde JSON; the small index records are binary.

fn decode_memory(value: &[u8]) -> Result<AgentMemory, String> {
    crate::codec::decode(value)
        .map_err(|e| format!("corrupt sled database: unreadable memory record: {e}"))
}

fn decode_millis(value: &[u8]) -> Option<Timestamp> {
    Timestamp::from_millis(i64::from_be_bytes(value.try_into().ok()?)).ok()
}

/// A histogram record: (digit u8, count u64 big-endian) pairs, digits ascending.
fn encode_counts(counts: &[(u8, u64)]) -> Vec<u8> {
    let mut v = Vec::with_capacity(counts.len() * 9);
    for (digit, n) in counts {
        v.push(*digit);
        v.extend_from_slice(&n.to_be_bytes());
    }
    v
}

fn decode_counts(value: &[u8]) -> Option<Vec<(u8, u64)>> {
    if !value.len().is_multiple_of(9) {
        return None;
    }
    value
        .chunks_exact(9)
        .map(|c| Some((c[0], u64::from_be_bytes(c[1..].try_into().ok()?))))
        .collect()
}

/// A (namespace, key) index entry.
#[derive(Debug, Default, PartialEq)]
struct KeyEntry {
    /// The current version's scan position, if the key has one.
    current: Option<(Timestamp, AgentMemoryId)>,
    /// The highest version number since the key was last forgotten.
    last_version: u32,
    /// How many versions of the key are stored.
    versions: u64,
}

impl KeyEntry {
    /// `last_version` u32, `versions` u64, then, when there is a current version, its
    /// `created_at` i64 and its id's bytes (all big-endian).
    fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(48);
        v.extend_from_slice(&self.last_version.to_be_bytes());
        v.extend_from_slice(&self.versions.to_be_bytes());
        if let Some((at, id)) = &self.current {
            v.extend_from_slice(&at.as_millis().to_be_bytes());
            v.extend_from_slice(id.as_str().as_bytes());
        }
        v
    }

    fn decode(value: &[u8]) -> Option<KeyEntry> {
        let last_version = u32::from_be_bytes(value.get(..4)?.try_into().ok()?);
        let versions = u64::from_be_bytes(value.get(4..12)?.try_into().ok()?);
        let current = match value.get(12..) {
            Some([]) | None => None,
            Some(rest) => {
                let at = decode_millis(rest.get(..8)?)?;
                let id = std::str::from_utf8(rest.get(8..)?).ok()?;
                Some((at, AgentMemoryId::parse(id).ok()?))
            }
        };
        Some(KeyEntry {
            current,
            last_version,
            versions,
        })
    }
}

impl SledBackend {
    /// The storage format this build reads and writes, recorded in every database it creates.
    pub const FORMAT_VERSION: u32 = SledCore::FORMAT_VERSION;

    /// Opens (creating when missing) the database directory `path`.
    ///
    /// A new database gets the format record of [`FORMAT_VERSION`](Self::FORMAT_VERSION). A
    /// database recording another format version, or holding data without a format record, is
    /// refused with [`Error::Format`] (naming both versions) before anything is written to it;
    /// a database that sled itself cannot open is [`Error::Backend`].
    ///
    /// A vacuum interrupted by a crash is finished or rolled back first (see
    /// `docs/storage-sled.md`): the directory is always either the old database or the new one.
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref().to_path_buf();
        recover_vacuum(&path)?;
        let core = SledCore::open(&path, durability)?;
        Ok(SledBackend {
            core: RwLock::new(Some(core)),
            path,
            durability,
        })
    }

    /// The database directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The durability this backend was opened with.
    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// Writes every pending commit to disk (what [`Durability::Immediate`] does after each
    /// mutating call); with [`Durability::Eventual`], call it at points the host wants durable.
    pub fn flush(&self) -> Result<(), Error> {
        self.core()?.flush()
    }

    fn core(&self) -> Result<CoreGuard<'_>, Error> {
        let guard = self.core.read().unwrap_or_else(PoisonError::into_inner);
        if guard.is_none() {
            return Err(Error::Backend(
                "the database could not be reopened after a vacuum; open it again".into(),
            ));
        }
        Ok(CoreGuard(guard))
    }
}

impl fmt::Debug for SledBackend {
    /// The path and durability only: the database holds memory content, which never goes into
    /// logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SledBackend")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .finish()
    }
}

/// A read lock on an open [`SledCore`].
struct CoreGuard<'a>(RwLockReadGuard<'a, Option<SledCore>>);

impl std::ops::Deref for CoreGuard<'_> {
    type Target = SledCore;

    fn deref(&self) -> &SledCore {
        self.0.as_ref().expect("checked by SledBackend::core")
    }
}

crate::backend::forward_backend!(impl[] SledBackend, |this| &*this.core()?);

/// Siblings of the database directory used by a vacuum: the copy being written, and the old
/// directory between the two renames.
fn vacuum_paths(path: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        PathBuf::from(p)
    };
    (with(".vacuum"), with(".vacuum-old"))
}

/// Finishes or rolls back a vacuum a crash interrupted. The copy is complete and flushed before
/// the first rename, so: no directory but a copy → the copy is the database; a database and an
/// old directory → the swap happened and the old one goes; a database and a copy → the copy was
/// never finished and goes.
fn recover_vacuum(path: &Path) -> Result<(), Error> {
    let (copy, old) = vacuum_paths(path);
    let io = |e: std::io::Error| Error::io("sled vacuum recovery", e);
    if !path.exists() && copy.exists() && old.exists() {
        std::fs::rename(&copy, path).map_err(io)?;
    }
    if path.exists() && old.exists() {
        std::fs::remove_dir_all(&old).map_err(io)?;
    }
    if path.exists() && copy.exists() {
        std::fs::remove_dir_all(&copy).map_err(io)?;
    }
    Ok(())
}

fn dir_size(path: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.metadata() {
                Ok(m) if m.is_dir() => stack.push(entry.path()),
                Ok(m) => total += m.len(),
                Err(_) => {}
            }
        }
    }
    total
}

/// The memory-store tree as a [`KvRead`], read under the step lock (see `store_steps`).
struct TreeView<'a>(&'a Tree);

impl KvRead for TreeView<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(self
            .0
            .get(key)
            .map_err(|e| storage("read", &e))?
            .map(|v| v.to_vec()))
    }

    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        if start >= end {
            return Ok(());
        }
        let range = self.0.range(start..end);
        let mut walk = |entry: ::sled::Result<(IVec, IVec)>| -> Result<bool, Error> {
            let (k, v) = entry.map_err(|e| storage("scan", &e))?;
            Ok(visit(&k, &v))
        };
        if reverse {
            for entry in range.rev() {
                if !walk(entry)? {
                    break;
                }
            }
        } else {
            for entry in range {
                if !walk(entry)? {
                    break;
                }
            }
        }
        Ok(())
    }
}

impl Kv for SledBackend {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let core = self.core()?;
        let _view = core
            .store_steps
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        f(&TreeView(&core.trees.stores))
    }

    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let core = self.core()?;
        let _step = core
            .store_steps
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let (out, ops) = f(&TreeView(&core.trees.stores))?;
        if ops.is_empty() {
            return Ok(out);
        }
        let mut batch = ::sled::Batch::default();
        for op in ops {
            match op {
                KvOp::Put(k, v) => batch.insert(k, v),
                KvOp::Delete(k) => batch.remove(k),
            }
        }
        core.trees
            .stores
            .apply_batch(batch)
            .map_err(|e| storage("write", &e))?;
        core.sync()?;
        Ok(out)
    }
}

/// Copies every tree of `db` into a new database at `copy`, flushed; the entries copied.
fn copy_database(db: &::sled::Db, copy: &Path, progress: &dyn Fn(u64, u64)) -> Result<u64, Error> {
    let names: Vec<IVec> = db.tree_names();
    let mut total = 0u64;
    for name in &names {
        total += db.open_tree(name).map_err(|e| storage("vacuum", &e))?.len() as u64;
    }
    let mut copied = 0u64;
    let fresh = ::sled::Config::new()
        .path(copy)
        .open()
        .map_err(|e| storage("vacuum", &e))?;
    for name in &names {
        let from = db.open_tree(name).map_err(|e| storage("vacuum", &e))?;
        let to = fresh.open_tree(name).map_err(|e| storage("vacuum", &e))?;
        let mut batch = ::sled::Batch::default();
        let mut in_batch = 0;
        for entry in from.iter() {
            let (k, v) = entry.map_err(|e| storage("vacuum", &e))?;
            batch.insert(k, v);
            in_batch += 1;
            copied += 1;
            if in_batch == 1024 {
                to.apply_batch(std::mem::take(&mut batch))
                    .map_err(|e| storage("vacuum", &e))?;
                in_batch = 0;
                progress(copied, total);
            }
        }
        to.apply_batch(batch).map_err(|e| storage("vacuum", &e))?;
    }
    fresh.flush().map_err(|e| storage("vacuum", &e))?;
    progress(copied, total);
    Ok(copied)
}

impl SledBackend {
    /// Rewrites the database: copies every tree's live entries into a new directory next to it
    /// (`<dir>.vacuum`), flushes it, then swaps the directories (`<dir>` → `<dir>.vacuum-old`,
    /// copy → `<dir>`), removes the old one and reopens. A failed copy (a full disk) is removed
    /// and the old database stays in use; [`open`](Self::open) finishes or rolls back a swap a
    /// crash interrupted.
    fn vacuum_database(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        let mut slot = self.core.write().unwrap_or_else(PoisonError::into_inner);
        let Some(core) = slot.as_ref() else {
            return Err(Error::Backend(
                "the database could not be reopened after a vacuum; open it again".into(),
            ));
        };
        let io = |what: &str, e: std::io::Error| Error::io(format!("vacuum: {what}"), e);
        core.flush()?;
        let bytes_before = dir_size(&self.path);
        let (copy, old) = vacuum_paths(&self.path);
        if copy.exists() {
            std::fs::remove_dir_all(&copy).map_err(|e| io("removing a stale copy", e))?;
        }
        // A copy that failed (a full disk, say) is removed at once: it would hold up to a whole
        // database's worth of space until the next vacuum or open.
        let copied = match copy_database(&core.db, &copy, progress) {
            Ok(copied) => copied,
            Err(err) => {
                // Not answered: the copy's error is the one to report, and `open` removes a
                // stale copy anyway.
                let _ = std::fs::remove_dir_all(&copy);
                return Err(err);
            }
        };
        let durability = core.durability;
        *slot = None;
        if let Err(e) = std::fs::rename(&self.path, &old) {
            // Nothing moved: keep serving the old database.
            let _ = std::fs::remove_dir_all(&copy);
            *slot = Some(SledCore::open(&self.path, durability)?);
            return Err(io("moving the old database aside", e));
        }
        if let Err(e) = std::fs::rename(&copy, &self.path) {
            // Put the old database back (what `open` would do on the next start, too).
            let _ = std::fs::rename(&old, &self.path);
            let _ = std::fs::remove_dir_all(&copy);
            *slot = Some(SledCore::open(&self.path, durability)?);
            return Err(io("moving the copy in place", e));
        }
        let synced = crate::durability::sync_parent_dir(&self.path)
            .map_err(|e| io("syncing the directory", e))
            .and_then(|()| {
                std::fs::remove_dir_all(&old).map_err(|e| io("removing the old database", e))
            });
        *slot = Some(SledCore::open(&self.path, durability)?);
        synced?;
        Ok(VacuumReport {
            bytes_before,
            bytes_after: dir_size(&self.path),
            entries: copied,
        })
    }
}

impl_store_backend!(SledBackend);

/// Opens the sled database at `path`, waiting up to two seconds for this process's previous
/// handle to let go of the file lock: sled releases it from a background thread after the last
/// handle drops, so an immediate reopen in the same process can otherwise fail spuriously.
fn open_when_released(path: &Path) -> ::sled::Result<::sled::Db> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match ::sled::Config::new().path(path).open() {
            // sled reports a held lock as a plain `Other` I/O error with this message.
            Err(::sled::Error::Io(e))
                if e.to_string().starts_with("could not acquire lock")
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_counts_exactly_above_any_cutoff() {
        let instants = [
            -5_i64,
            0,
            1,
            127,
            128,
            129,
            16_384,
            1 << 40,
            1_767_225_600_000,
        ];
        for cutoff in [
            -6_i64,
            -5,
            0,
            1,
            126,
            127,
            128,
            16_383,
            16_384,
            1 << 40,
            i64::MAX,
        ] {
            let cutoff = Timestamp::from_millis_saturating(cutoff);
            let u_c = histogram_position(cutoff);
            let mut total = 0;
            for level in 0..LEVELS {
                total += instants
                    .iter()
                    .map(|ms| histogram_position(Timestamp::from_millis_saturating(*ms)))
                    .filter(|u| {
                        let shift = DIGIT_BITS * (LEVELS - level);
                        u >> shift == u_c >> shift && digit(level, *u) > digit(level, u_c)
                    })
                    .count();
            }
            let want = instants
                .iter()
                .filter(|ms| Timestamp::from_millis_saturating(**ms) > cutoff)
                .count();
            assert_eq!(total, want, "cutoff {cutoff}");
        }
    }

    #[test]
    fn positions_sort_newest_first_then_by_id_descending() {
        let id = |s: &str| AgentMemoryId::parse(s).unwrap();
        let t = Timestamp::from_millis_saturating;
        let key = |at: i64, s: &str| memory_key(b"", t(at), &id(s));
        assert!(key(2, "amem_1") < key(1, "amem_9"));
        assert!(key(-1, "amem_1") > key(1, "amem_1"));
        assert!(key(1, "amem_10") < key(1, "amem_1"));
        assert!(key(1, "amem_2") < key(1, "amem_10"));
        assert_eq!(decode_desc_millis(&key(-7, "amem_1")), Some(t(-7)));
    }

    #[test]
    fn key_entries_roundtrip() {
        for entry in [
            KeyEntry::default(),
            KeyEntry {
                current: Some((Timestamp::MIN, AgentMemoryId::parse("amem_x-1").unwrap())),
                last_version: 7,
                versions: 3,
            },
        ] {
            assert_eq!(KeyEntry::decode(&entry.encode()), Some(entry));
        }
        assert_eq!(
            owner_prefix_of(&owner_prefix(&Owner::new(
                WorkspaceId::new("ws").unwrap(),
                memory_core::MemberId::new("m").unwrap()
            )))
            .map(<[u8]>::len),
            Some(4 + 2 + 4 + 1)
        );
    }
}

//! [`SledBackend`]: a durable backend in a sled 0.34 database directory — the key space of
//! `store-kv` in one sled tree — and the upgrades of its older formats (`legacy`: format 3's
//! trees).
//!
//! `docs/storage-sled.md` documents the on-disk layout: the tree, the format record, the
//! upgrade of format 3 and what durability means here.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod gate;
mod legacy;

use std::convert::Infallible;
use std::fmt;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use ::sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};
use ::sled::{Db, IVec, Tree};

use store_kv::KvBackend;
use store_trait::kv::{Decided, Kv, KvOp, KvRead};
use store_trait::{Durability, Error, VacuumReport};

use crate::error::storage;

/// The key of the format record in sled's default tree.
const FORMAT_KEY: &[u8] = b"store-trait/format";
/// The storage format this build reads and writes, recorded in every database it creates.
/// Version 4 moved agent memories from trees of their own (format 3, read by `legacy`)
/// into the key space; version 5 added the recall index (`store-kv`'s `t`, `v` and `s`
/// kinds); version 6 holds term counts and postings of analyzer version 2
/// (`fusion_rank::ANALYZER_VERSION`: function words dropped, words stemmed); version 7 no
/// longer writes postings, vectors and version counts beside the versions (`t`, `v`, `c`):
/// recall derives the first two from the versions' records, and the quota counts from the
/// statistics (`s`).
const FORMAT_VERSION: u32 = 7;
/// The key-space format without the recall index, upgraded by [`build_index`].
const FORMAT_NO_INDEX: u32 = 4;
/// The recall index of analyzer version 1, rebuilt by [`build_index`].
const FORMAT_ANALYZER_1: u32 = 5;
/// Postings, vectors and version counts beside the versions, deleted by [`build_index`].
const FORMAT_SIDE_INDEX: u32 = 6;
/// The tree of the key space.
const KV: &str = "kv";

/// A [`Backend`](store_trait::Backend) and [`StoreBackend`](store_trait::StoreBackend) in a
/// sled 0.34 database directory (see [`SledKv`]): the [`KvBackend`] over it, which it
/// dereferences to.
///
/// ```
/// use store_sled::SledBackend;
/// use store_trait::{Backend, Durability, Owner};
/// use memory_core::{MemberId, Timestamp, WorkspaceId};
///
/// let dir = tempfile::tempdir()?;
/// let backend = SledBackend::open(dir.path().join("memory.sled"), Durability::Immediate)?;
/// let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
/// assert_eq!(backend.stored_versions(&owner, Timestamp::MIN)?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SledBackend(KvBackend<SledKv>);

/// The key-space backend over the database: every [`Backend`](store_trait::Backend),
/// [`StoreBackend`](store_trait::StoreBackend) and [`Database`](store_trait::Database) call is
/// its.
impl Deref for SledBackend {
    type Target = KvBackend<SledKv>;

    fn deref(&self) -> &KvBackend<SledKv> {
        &self.0
    }
}

impl fmt::Debug for SledBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The key space in one sled tree.
///
/// A step runs alone and applies its writes as one sled batch, which sled applies atomically (a
/// crash keeps all of it or none); reads run beside each other but never beside a step, so no
/// read sees half of a step. With [`Durability::Immediate`] every step returns only after a
/// `flush()` that follows its batch, and no read sees the batch before that flush; steps that
/// arrive while one runs share one flush (group commit). sled's flush ends with `sync_file_range`, not `fsync`: an acknowledged
/// write survives the process being killed, but is not guaranteed to survive a power loss or an
/// operating-system crash. Hosts that need that use redb or SQLite.
///
/// One database directory can be opened by one process at a time (sled locks it).
pub struct SledKv {
    /// `None` only after a vacuum could not reopen the rewritten directory. Every call holds the
    /// read lock while it runs; a vacuum takes the write lock to swap the directory.
    core: RwLock<Option<SledCore>>,
    path: PathBuf,
    durability: Durability,
}

/// One open sled database: everything [`SledKv`] does between two vacuums.
struct SledCore {
    db: Db,
    tree: Tree,
    durability: Durability,
    /// Orders steps (read, decide, apply one batch) and reads: sled applies a batch atomically
    /// per key, not across the keys a read visits, so a read of several keys could otherwise see
    /// half of a step. It also groups the flushes of concurrent steps (`gate`).
    gate: gate::StepGate,
}

impl SledCore {
    /// Opens (creating when missing) the database directory `path`, upgrading a format-3
    /// database in place.
    fn open(path: &Path, durability: Durability) -> Result<Self, Error> {
        let db = open_when_released(path).map_err(|e| storage("open", &e))?;
        let io = |e: ::sled::Error| storage("open", &e);
        match db.get(FORMAT_KEY).map_err(io)? {
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
                if found == store_kv::legacy::FORMAT {
                    upgrade(&db)?;
                } else if [FORMAT_NO_INDEX, FORMAT_ANALYZER_1, FORMAT_SIDE_INDEX].contains(&found) {
                    drop_legacy_trees(&db)?;
                    build_index(&db)?;
                } else if found == FORMAT_VERSION {
                    drop_legacy_trees(&db)?;
                } else {
                    return Err(Error::Format(format!(
                        "the sled database at {} has format version {found}, but this build \
                         reads only format version {FORMAT_VERSION} (and upgrades formats {}, \
                         {FORMAT_NO_INDEX}, {FORMAT_ANALYZER_1} and {FORMAT_SIDE_INDEX}); it \
                         was left unchanged",
                        path.display(),
                        store_kv::legacy::FORMAT,
                    )));
                }
            }
            None => {
                // Data in any tree is someone else's. Empty trees are not: a crash while creating
                // a database may leave the trees without the format record before them.
                let mut foreign = !db.is_empty();
                for name in db.tree_names() {
                    // Opening a tree that exists creates nothing.
                    foreign |= !db.open_tree(name).map_err(io)?.is_empty();
                }
                if foreign {
                    return Err(Error::Format(format!(
                        "the sled database at {} holds data without a store-trait format record; \
                         it was left unchanged",
                        path.display()
                    )));
                }
                db.insert(FORMAT_KEY, &FORMAT_VERSION.to_be_bytes()[..])
                    .map_err(io)?;
            }
        }
        let tree = db.open_tree(KV).map_err(io)?;
        // The format record and the tree are on disk before the first write is acknowledged.
        db.flush().map_err(io)?;
        Ok(SledCore {
            db,
            tree,
            durability,
            gate: gate::StepGate::default(),
        })
    }

    fn flush(&self) -> Result<(), Error> {
        self.db.flush().map_err(|e| storage("flush", &e))?;
        Ok(())
    }
}

/// Upgrades a format-3 database in place: reads its trees (`legacy`), then writes
/// the content in the key-space layout and the new format record in one sled transaction over
/// the key-space tree and the default tree, flushes, and only then drops the old trees. A crash
/// before the commit leaves format 3 as it was (a partial key space is never committed); one
/// after it leaves the current format with old trees that nothing reads, which the next open
/// drops.
fn upgrade(db: &Db) -> Result<(), Error> {
    let io = |e: ::sled::Error| storage("upgrade", &e);
    let legacy = legacy::read(db)?;
    let ops = store_kv::legacy::import(&legacy)?;
    let tree = db.open_tree(KV).map_err(io)?;
    // A crashed earlier attempt committed nothing, so the tree is empty here.
    commit_upgrade(db, &tree, &ops)?;
    drop_legacy_trees(db)
}

/// Applies an upgrade's writes to the key-space tree and the new format record to the default
/// tree in one sled transaction, then flushes.
fn commit_upgrade(db: &Db, tree: &Tree, ops: &[KvOp]) -> Result<(), Error> {
    let io = |e: ::sled::Error| storage("upgrade", &e);
    let meta: &Tree = db;
    (tree, meta)
        .transaction(|(kv, meta)| {
            for op in ops {
                match op {
                    KvOp::Put(k, v) => {
                        kv.insert(k.as_slice(), v.as_slice())?;
                    }
                    KvOp::Delete(k) => {
                        kv.remove(k.as_slice())?;
                    }
                }
            }
            meta.insert(FORMAT_KEY, &FORMAT_VERSION.to_be_bytes()[..])?;
            Ok::<_, ConflictableTransactionError<Infallible>>(())
        })
        .map_err(|e| match e {
            TransactionError::Storage(e) => io(e),
            TransactionError::Abort(never) => match never {},
        })?;
    db.flush().map_err(io)?;
    Ok(())
}

/// Upgrades a format-4, 5 or 6 database in place: (re)builds the recall index of every stored
/// version with this build's analyzer (deleting the postings, vectors and counts earlier formats
/// kept beside the versions, rewriting versions whose term counts change) and writes the new
/// format record in one sled transaction over the key-space tree and the default tree, then
/// flushes. A crash leaves the old format (the build starts over) or the new one.
fn build_index(db: &Db) -> Result<(), Error> {
    let tree = db.open_tree(KV).map_err(|e| storage("upgrade", &e))?;
    let ops = store_kv::build_index(&TreeView(&tree))?;
    commit_upgrade(db, &tree, &ops)
}

/// Drops the trees of format 3 that an upgrade left (all of them, or those a crash kept).
fn drop_legacy_trees(db: &Db) -> Result<(), Error> {
    let io = |e: ::sled::Error| storage("upgrade", &e);
    let names = db.tree_names();
    let mut dropped = false;
    for name in legacy::TREES {
        if names.iter().any(|n| n.as_ref() == name.as_bytes()) {
            db.drop_tree(name).map_err(io)?;
            dropped = true;
        }
    }
    if dropped {
        db.flush().map_err(io)?;
    }
    Ok(())
}

impl SledBackend {
    /// The storage format this build reads and writes, recorded in every database it creates.
    pub const FORMAT_VERSION: u32 = FORMAT_VERSION;

    /// Opens (creating when missing) the database directory `path`.
    ///
    /// A new database gets the format record of [`FORMAT_VERSION`](Self::FORMAT_VERSION). A
    /// format-3 database (agent memories in trees of their own) is upgraded in place. A
    /// database recording another format version, or holding data without a format record, is
    /// refused with [`Error::Format`] (naming both versions) before anything is written to it;
    /// a database that sled itself cannot open is [`Error::Storage`].
    ///
    /// A vacuum interrupted by a crash is finished or rolled back first (see
    /// `docs/storage-sled.md`): the directory is always either the old database or the new one.
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref().to_path_buf();
        recover_vacuum(&path)?;
        let core = SledCore::open(&path, durability)?;
        Ok(SledBackend(KvBackend::over(SledKv {
            core: RwLock::new(Some(core)),
            path,
            durability,
        })))
    }

    /// The database directory.
    pub fn path(&self) -> &Path {
        &self.kv().path
    }

    /// Writes every pending commit to disk (what [`Durability::Immediate`] does after each
    /// mutating call); with [`Durability::Eventual`], call it at points the host wants durable.
    pub fn flush(&self) -> Result<(), Error> {
        self.kv().core()?.flush()
    }
}

impl SledKv {
    fn core(&self) -> Result<CoreGuard<'_>, Error> {
        let guard = self.core.read().unwrap_or_else(PoisonError::into_inner);
        if guard.is_none() {
            return Err(Error::Closed);
        }
        Ok(CoreGuard(guard))
    }
}

impl fmt::Debug for SledKv {
    /// The path and durability only: the database holds memory content, which never goes into
    /// logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SledKv")
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
        self.0.as_ref().expect("checked by SledKv::core")
    }
}

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

/// The key-space tree as a [`KvRead`], read through the gate (see `SledCore::gate`).
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

impl Kv for SledKv {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let core = self.core()?;
        core.gate.read(|| f(&TreeView(&core.tree)))
    }

    /// Group flush (the `gate` module): a step is acknowledged only after a flush that
    /// follows its batch, and no read sees the batch before that flush.
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let core = self.core()?;
        let run = || {
            let (out, ops) = match f(&TreeView(&core.tree)) {
                Ok(decided) => decided,
                Err(e) => return (Err(e), false),
            };
            if ops.is_empty() {
                return (Ok(out), false);
            }
            let mut batch = ::sled::Batch::default();
            for op in ops {
                match op {
                    KvOp::Put(k, v) => batch.insert(k, v),
                    KvOp::Delete(k) => batch.remove(k),
                }
            }
            match core.tree.apply_batch(batch) {
                Ok(()) => (Ok(out), true),
                Err(e) => (Err(storage("write", &e)), false),
            }
        };
        core.gate.step(core.durability, run, || core.flush())
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

impl store_trait::Database for SledKv {
    /// Rewrites the database: copies every tree's live entries into a new directory next to it
    /// (`<dir>.vacuum`), flushes it, then swaps the directories (`<dir>` → `<dir>.vacuum-old`,
    /// copy → `<dir>`), removes the old one and reopens. A failed copy (a full disk) is removed
    /// and the old database stays in use; [`SledBackend::open`] finishes or rolls back a swap a
    /// crash interrupted.
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        let mut slot = self.core.write().unwrap_or_else(PoisonError::into_inner);
        let Some(core) = slot.as_ref() else {
            return Err(Error::Closed);
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
        let synced = store_kv::sync_parent_dir(&self.path)
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

    fn format_version(&self) -> Option<u32> {
        Some(FORMAT_VERSION)
    }

    fn durability(&self) -> Option<Durability> {
        Some(self.durability)
    }
}

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

//! [`RedbBackend`]: a durable backend in one redb database file — the key space of `store-kv` in
//! one redb table, one redb write transaction per step — and the upgrades of its older formats
//! (`legacy`: format 3's tables). The on-disk layout is documented in `docs/storage-redb.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod journal;
mod legacy;

use std::fmt;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard};

use ::redb::{
    Database, ReadOnlyDatabase, ReadTransaction, ReadableDatabase, ReadableTable,
    ReadableTableMetadata, TableDefinition, WriteTransaction,
};

use store_kv::KvBackend;
use store_trait::kv::{CommitPacer, Decided, GroupOutcome, Kv, KvOp, KvRead};
use store_trait::{Durability, Error, StorageFailure, VacuumReport};

use crate::error::backend_error;
use crate::journal::Journal;

/// The layout version this build reads and writes, stored under [`FORMAT_KEY`] in [`META`].
/// Bump it on any change of a table, a key or a value encoding. Version 4 moved agent memories
/// from tables of their own (format 3, read by `legacy`) into the key space; version 5
/// added the recall index (`store-kv`'s `t`, `v` and `s` kinds); version 6 holds term
/// counts and postings of analyzer version 2 (`fusion_rank::ANALYZER_VERSION`: function words
/// dropped, words stemmed); version 7 no longer writes postings, vectors and version counts
/// beside the versions (`t`, `v`, `c`): recall derives the first two from the versions' records,
/// and the quota counts from the statistics (`s`); version 8 may have a write-ahead journal
/// beside the file (`journal`) whose records the file does not hold yet, and numbers its
/// commits in [`journal::JOURNAL_SEQ`]: an earlier build would not read the journal.
const FORMAT_VERSION: u32 = 8;
/// Format 7: the same tables, never a journal; upgraded by setting the format record.
const FORMAT_NO_JOURNAL: u32 = 7;
/// The key-space format without the recall index, upgraded by [`build_index`].
const FORMAT_NO_INDEX: u32 = 4;
/// The recall index of analyzer version 1 (every word as the tokenizer gives it), rebuilt by
/// [`build_index`].
const FORMAT_ANALYZER_1: u32 = 5;
/// Postings, vectors and version counts beside the versions, deleted by [`build_index`].
const FORMAT_SIDE_INDEX: u32 = 6;
const FORMAT_KEY: &str = "format_version";
/// Steps committed together at most: a bound on how long the first of a group waits.
const MAX_GROUP: usize = 32;

/// `"format_version"` → [`FORMAT_VERSION`].
const META: TableDefinition<&str, u32> = TableDefinition::new("meta");
/// The key space (`store-kv`'s layout): memory stores and agent memories.
const KV: TableDefinition<&[u8], &[u8]> = TableDefinition::new("kv");

type DbGuard<'a> = RwLockReadGuard<'a, Option<Database>>;

/// A [`Backend`](store_trait::Backend) and [`StoreBackend`](store_trait::StoreBackend) in one
/// redb database file (see [`RedbKv`]): the [`KvBackend`] over it, which it dereferences to.
///
/// ```
/// use store_redb::RedbBackend;
/// use store_trait::{Backend, Durability, Owner};
/// use memory_core::{MemberId, Timestamp, WorkspaceId};
///
/// let dir = tempfile::tempdir()?;
/// let backend = RedbBackend::create(dir.path().join("memory.redb"), Durability::Immediate)?;
/// let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
/// assert_eq!(backend.stored_versions(&owner, Timestamp::MIN)?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RedbBackend(KvBackend<RedbKv>);

/// The key-space backend over the file: every [`Backend`](store_trait::Backend),
/// [`StoreBackend`](store_trait::StoreBackend) and [`Database`](store_trait::Database) call is
/// its.
impl Deref for RedbBackend {
    type Target = KvBackend<RedbKv>;

    fn deref(&self) -> &KvBackend<RedbKv> {
        &self.0
    }
}

impl fmt::Debug for RedbBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The key space in one redb database file.
///
/// Steps run in redb write transactions, one at a time, so a step's reads and writes are atomic
/// across threads; reads run in read transactions (snapshots) that never wait for writers and
/// see only committed steps. redb locks the file: one process opens it at a time.
///
/// Group commit: steps that arrive while another step holds the writer run in the same write
/// transaction, one after another, and the last of them — the one that finds nobody waiting,
/// or the 32nd — commits for all. Every step that wrote returns only once that commit is done
/// (and synced, with [`Durability::Immediate`]), so a step is acknowledged only after its own
/// commit, nothing is visible to a read before it is committed, and eight concurrent writers
/// pay for far fewer than eight syncs. A step's decision writes nothing until it is made: a
/// refusal, an error or a panic in `decide` leaves the group as it was; a write that fails
/// half-way aborts the whole group, and every step in it answers that error.
pub struct RedbKv {
    /// `None` only after a vacuum could not reopen the rewritten file. Every call holds the read
    /// lock for as long as it uses the database; a vacuum takes the write lock to swap the file.
    db: RwLock<Option<Database>>,
    /// Set instead of `db` by [`RedbBackend::open_read_only`]: reads only.
    read_only: Option<ReadOnlyDatabase>,
    path: PathBuf,
    durability: Durability,
    /// The write transaction a group of steps holds open, if any. Taken before `db`'s lock.
    writer: Mutex<Option<Group>>,
    /// Signalled whenever a group ends (committed or aborted).
    finished: Condvar,
    /// Steps waiting for `writer`: while there are any, a step leaves the group open for them.
    waiting: AtomicUsize,
    /// Whether a durable group waits for more steps before it commits.
    pacer: CommitPacer,
    /// With [`Durability::Immediate`], the write-ahead journal: a group's writes are synced
    /// there as one record before redb commits them without a sync of its own. Taken after
    /// `writer`.
    journal: Mutex<Option<Journal>>,
    /// Set when a journal write or a commit after it failed: redb and the journal may disagree
    /// until the next open replays the journal, so no step runs.
    broken: AtomicBool,
    /// The format the file records: this build's, or format 7 for a file a read-only open
    /// found in it (the one earlier format this build reads without upgrading it).
    format: u32,
}

/// Steps run one after another in one open write transaction, committed by the last of them.
struct Group {
    txn: WriteTransaction,
    /// Steps in it.
    steps: usize,
    /// Whether any step wrote (a group that wrote nothing aborts: no sync).
    wrote: bool,
    /// Recorded once the transaction has ended.
    outcome: GroupOutcome,
    /// The payload of the group's journal record: its steps' writes, when journaled.
    record: Option<Vec<u8>>,
}

/// How a step ran in its group's transaction.
enum Ran<R> {
    /// Wrote nothing, or wrote all of its writes: the answer and whether it wrote.
    Clean(Result<(R, bool), Error>),
    /// `decide` panicked before any write.
    Panicked(Box<dyn std::any::Any + Send>),
    /// A write failed or panicked half-way: the group's transaction holds part of the step.
    Broken(Error, Option<Box<dyn std::any::Any + Send>>),
}

impl fmt::Debug for RedbKv {
    /// The file and the durability only: the database holds memory content.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedbKv")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .field("read_only", &self.read_only.is_some())
            .finish()
    }
}

/// The answer to a write on a backend opened with [`RedbBackend::open_read_only`].
fn read_only_error() -> Error {
    Error::storage(
        StorageFailure::ReadOnly,
        "redb",
        std::io::Error::other("the database was opened read-only"),
    )
}

/// The answer to every call after a journal write, or the commit after it, failed.
fn broken_error() -> Error {
    Error::other(
        "redb journal",
        std::io::Error::other(
            "a journal write or the commit after it failed; reopen the database, which applies \
             the journal",
        ),
    )
}

/// The format record and whether the file has any table, read before anything is written.
fn format_of(txn: &ReadTransaction) -> Result<(Option<u32>, bool), Error> {
    let has_tables = txn.list_tables().map_err(backend_error)?.next().is_some();
    let found = match txn.open_table(META) {
        Ok(meta) => meta
            .get(FORMAT_KEY)
            .map_err(backend_error)?
            .map(|v| v.value()),
        Err(::redb::TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(backend_error(e)),
    };
    Ok((found, has_tables))
}

fn format_mismatch(found: u32) -> Error {
    Error::Format(format!(
        "the database has format version {found}; this build reads version {FORMAT_VERSION}"
    ))
}

fn no_format_record() -> Error {
    Error::Format("the database has no format record: not a store-trait database".into())
}

/// The answer to a read-only open of a format-3, 4, 5 or 6 file, which only a writer can upgrade.
fn needs_upgrade(found: u32) -> Error {
    Error::Format(format!(
        "the database has format version {found}, written by an earlier build; open it \
         read-write once (any command that writes) to upgrade it in place to version \
         {FORMAT_VERSION}"
    ))
}

impl RedbBackend {
    /// Opens the database at `path`, creating and initializing the file when it does not exist
    /// or is empty. An existing file must be a store-trait database of this build's format
    /// version, or of format 3, which is upgraded in place in one write transaction; anything
    /// else is [`Error::Format`] and the file is left as it was.
    pub fn create(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = Database::create(path).map_err(backend_error)?;
        RedbKv::start(db, path, durability, true).map(|kv| RedbBackend(KvBackend::over(kv)))
    }

    /// Opens an existing database at `path` (an error when there is no file). The file must be a
    /// store-trait database of this build's format version, or of format 3, which is upgraded in
    /// place in one write transaction; anything else is [`Error::Format`] and the file is left
    /// as it was.
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = Database::open(path).map_err(backend_error)?;
        RedbKv::start(db, path, durability, false).map(|kv| RedbBackend(KvBackend::over(kv)))
    }

    /// Opens an existing database at `path` for reading only — a backup, a read-only mount, a
    /// file without write permission: the file is opened read-only and never written. Every
    /// write answers a [`StorageFailure::ReadOnly`](StorageFailure) error, vacuum too.
    /// The file must be a store-trait database of this build's format version (a format-3 file
    /// is [`Error::Format`] saying to open it read-write once, which upgrades it), and closed
    /// cleanly (redb cannot repair a file it may not write: open it read-write once to repair
    /// it); a database another process has open is [`StorageFailure::Locked`](StorageFailure).
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = ReadOnlyDatabase::open(path).map_err(backend_error)?;
        let txn = db.begin_read().map_err(backend_error)?;
        let (found, _) = format_of(&txn)?;
        match found {
            Some(FORMAT_VERSION) => {
                // Records a crash left in the journal are replayed by a writer only.
                let (held, id) = journal::journal_state(&txn)?;
                let bytes = journal::read_all(path)?;
                let pending = id.is_some_and(|id| {
                    journal::records(&bytes, id)
                        .iter()
                        .any(|(seq, _)| *seq > held)
                });
                if pending {
                    return Err(Error::Format(
                        "the database's journal holds writes the file does not yet: it was not \
                         closed cleanly; open it read-write once (any command that writes) to \
                         apply them"
                            .into(),
                    ));
                }
            }
            Some(FORMAT_NO_JOURNAL) => {}
            Some(
                old @ (store_kv::legacy::FORMAT
                | FORMAT_NO_INDEX
                | FORMAT_ANALYZER_1
                | FORMAT_SIDE_INDEX),
            ) => {
                return Err(needs_upgrade(old));
            }
            Some(other) => return Err(format_mismatch(other)),
            None => return Err(no_format_record()),
        }
        Ok(RedbBackend(KvBackend::over(RedbKv {
            db: RwLock::new(None),
            read_only: Some(db),
            path: path.to_owned(),
            durability: Durability::Immediate,
            writer: Mutex::new(None),
            finished: Condvar::new(),
            waiting: AtomicUsize::new(0),
            pacer: CommitPacer::new(),
            journal: Mutex::new(None),
            broken: AtomicBool::new(false),
            format: found.unwrap_or(FORMAT_VERSION),
        })))
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.kv().path
    }
}

impl RedbKv {
    fn start(db: Database, path: &Path, durability: Durability, init: bool) -> Result<Self, Error> {
        // Read first: a mismatch must be refused before any write transaction touches the file.
        let (found, has_tables) = format_of(&db.begin_read().map_err(backend_error)?)?;
        match found {
            Some(FORMAT_VERSION) => {}
            Some(FORMAT_NO_JOURNAL) => set_format(&db)?,
            Some(store_kv::legacy::FORMAT) => upgrade(&db)?,
            Some(FORMAT_NO_INDEX | FORMAT_ANALYZER_1 | FORMAT_SIDE_INDEX) => build_index(&db)?,
            Some(other) => return Err(format_mismatch(other)),
            None if init && !has_tables => {
                // A new database: the table and the format record in one durable commit.
                let txn = db.begin_write().map_err(backend_error)?;
                {
                    let mut meta = txn.open_table(META).map_err(backend_error)?;
                    meta.insert(FORMAT_KEY, FORMAT_VERSION)
                        .map_err(backend_error)?;
                    txn.open_table(KV).map_err(backend_error)?;
                }
                txn.commit().map_err(backend_error)?;
            }
            None => return Err(no_format_record()),
        }
        let next_seq = journal::replay(&db, path)? + 1;
        let journal = match durability {
            Durability::Immediate => {
                Some(Journal::start(path, journal::database_id(&db)?, next_seq)?)
            }
            Durability::Eventual => {
                match std::fs::remove_file(journal::path_of(path)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io("redb journal: removing", e)),
                }
                None
            }
        };
        Ok(RedbKv {
            db: RwLock::new(Some(db)),
            read_only: None,
            path: path.to_owned(),
            durability,
            writer: Mutex::new(None),
            finished: Condvar::new(),
            waiting: AtomicUsize::new(0),
            pacer: CommitPacer::new(),
            journal: Mutex::new(journal),
            broken: AtomicBool::new(false),
            format: FORMAT_VERSION,
        })
    }

    fn database(&self) -> Result<DbGuard<'_>, Error> {
        if self.read_only.is_some() {
            return Err(read_only_error());
        }
        if self.broken.load(Ordering::SeqCst) {
            return Err(broken_error());
        }
        let guard = self.db.read().unwrap_or_else(PoisonError::into_inner);
        if guard.is_none() {
            return Err(Error::Closed);
        }
        Ok(guard)
    }

    /// A write transaction of the backend's durability on the database `guard` holds.
    fn begin_write(&self, guard: &DbGuard<'_>) -> Result<WriteTransaction, Error> {
        let db = guard.as_ref().expect("checked by database()");
        let mut txn = db.begin_write().map_err(backend_error)?;
        // With a journal, its synced record makes the group durable, not redb's own sync.
        let durability = match self.durability {
            Durability::Immediate if !self.journaled() => ::redb::Durability::Immediate,
            _ => ::redb::Durability::None,
        };
        txn.set_durability(durability).map_err(backend_error)?;
        Ok(txn)
    }

    /// Whether groups are journaled ([`journal`]).
    /// A writable backend with `Immediate` durability always has its journal (`start`), so no
    /// step needs the journal's lock to know.
    fn journaled(&self) -> bool {
        self.durability == Durability::Immediate && self.read_only.is_none()
    }

    /// Ends the open group, if any — committed when a step wrote, else aborted — and tells the
    /// steps waiting on it how it ended.
    fn finish(&self, slot: &mut MutexGuard<'_, Option<Group>>) -> Result<(), Error> {
        let Some(group) = slot.take() else {
            return Ok(());
        };
        let wrote = group.wrote;
        let mut txn = group.txn;
        let started = std::time::Instant::now();
        // A panic inside redb still ends the group for the steps waiting on it.
        let result = catch_unwind(AssertUnwindSafe(|| {
            if !wrote {
                return txn.abort().map_err(backend_error);
            }
            let Some(record) = &group.record else {
                return txn.commit().map_err(backend_error);
            };
            let mut journal = self.journal.lock().unwrap_or_else(PoisonError::into_inner);
            let journal = journal.as_mut().expect("a journaled group has a journal");
            let seq = journal.next_seq();
            journal::set_journal_seq(&txn, seq)?;
            if !journal.fits(record.len()) {
                // A full journal: this commit is a checkpoint, durable in redb itself, and the
                // journal starts over after it.
                txn.set_durability(::redb::Durability::Immediate)
                    .map_err(backend_error)?;
                txn.commit().map_err(backend_error)?;
                journal.restart(seq + 1);
                return Ok(());
            }
            if let Err(err) = journal.append(record) {
                // The record may be on disk all the same: the next open decides.
                self.broken.store(true, Ordering::SeqCst);
                let _ = txn.abort();
                return Err(err);
            }
            txn.commit().map_err(|e| {
                self.broken.store(true, Ordering::SeqCst);
                backend_error(e)
            })
        }))
        .unwrap_or_else(|_| {
            // A panic between the journal's record and redb's commit may leave the record
            // behind: nothing may be numbered after it until a reopen decides.
            if wrote && group.record.is_some() {
                self.broken.store(true, Ordering::SeqCst);
            }
            Err(panicked("redb: committing a group of steps"))
        });
        if wrote && result.is_ok() && self.durability == Durability::Immediate {
            self.pacer.committed(group.steps, started.elapsed());
        }
        group.outcome.set(result.as_ref().map(|_| ()));
        self.finished.notify_all();
        result
    }

    /// Aborts the open group because a step's write broke off half-way: nothing of the group
    /// is committed, and the steps waiting on it learn why.
    fn abandon(&self, slot: &mut MutexGuard<'_, Option<Group>>, why: &Error) {
        if let Some(group) = slot.take() {
            // The abort's own failure, or panic, adds nothing to the write's.
            let txn = group.txn;
            let _ = catch_unwind(AssertUnwindSafe(|| txn.abort()));
            group.outcome.set(Err(why));
            self.finished.notify_all();
        }
    }

    /// Commits every journaled group durably in redb itself and starts the journal over (no
    /// group may be open). Nothing to do without a journal or when it is empty.
    fn checkpoint(&self, db: &Database) -> Result<(), Error> {
        let mut journal = self.journal.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(journal) = journal.as_mut().filter(|j| !j.is_empty()) else {
            return Ok(());
        };
        let mut txn = db.begin_write().map_err(backend_error)?;
        txn.set_durability(::redb::Durability::Immediate)
            .map_err(backend_error)?;
        journal::set_journal_seq(&txn, journal.next_seq() - 1)?;
        txn.commit().map_err(backend_error)?;
        journal.restart(journal.next_seq());
        Ok(())
    }

    fn begin_read(&self) -> Result<(DbGuard<'_>, ReadTransaction), Error> {
        if let Some(db) = &self.read_only {
            let guard = self.db.read().unwrap_or_else(PoisonError::into_inner);
            return Ok((guard, db.begin_read().map_err(backend_error)?));
        }
        let guard = self.database()?;
        let txn = guard
            .as_ref()
            .expect("checked by database()")
            .begin_read()
            .map_err(backend_error)?;
        Ok((guard, txn))
    }
}

/// Upgrades a format-7 file: the same tables, so only the format record changes (durably).
fn set_format(db: &Database) -> Result<(), Error> {
    let mut txn = db.begin_write().map_err(backend_error)?;
    txn.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    {
        let mut meta = txn.open_table(META).map_err(backend_error)?;
        meta.insert(FORMAT_KEY, FORMAT_VERSION)
            .map_err(backend_error)?;
    }
    txn.commit().map_err(backend_error)
}

/// Upgrades a format-3 file in place: in one durable write transaction, reads its tables
/// (`legacy`), deletes them, writes the same content in the key-space layout and
/// sets the format record. A crash leaves the file in format 3 or in this build's, never
/// between.
fn upgrade(db: &Database) -> Result<(), Error> {
    let mut txn = db.begin_write().map_err(backend_error)?;
    txn.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    let legacy = legacy::take(&txn)?;
    let ops = store_kv::legacy::import(&legacy)?;
    {
        let mut table = txn.open_table(KV).map_err(backend_error)?;
        apply(&mut table, ops)?;
        let mut meta = txn.open_table(META).map_err(backend_error)?;
        meta.insert(FORMAT_KEY, FORMAT_VERSION)
            .map_err(backend_error)?;
    }
    txn.commit().map_err(backend_error)
}

/// Upgrades a format-4, 5 or 6 file in place: (re)builds the recall index of every stored
/// version with this build's analyzer (`store_kv::build_index`, which deletes the postings,
/// vectors and counts earlier formats kept beside the versions and rewrites versions whose term
/// counts change) and sets the format record, in one durable write transaction (a crash
/// leaves the old format or the new one).
fn build_index(db: &Database) -> Result<(), Error> {
    let mut txn = db.begin_write().map_err(backend_error)?;
    txn.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    {
        let mut table = txn.open_table(KV).map_err(backend_error)?;
        let ops = store_kv::build_index(&TableView(&table))?;
        apply(&mut table, ops)?;
        let mut meta = txn.open_table(META).map_err(backend_error)?;
        meta.insert(FORMAT_KEY, FORMAT_VERSION)
            .map_err(backend_error)?;
    }
    txn.commit().map_err(backend_error)
}

fn apply(
    table: &mut ::redb::Table<'_, &'static [u8], &'static [u8]>,
    ops: Vec<KvOp>,
) -> Result<(), Error> {
    for op in ops {
        match op {
            KvOp::Put(k, v) => {
                table
                    .insert(k.as_slice(), v.as_slice())
                    .map_err(backend_error)?;
            }
            KvOp::Delete(k) => {
                table.remove(k.as_slice()).map_err(backend_error)?;
            }
        }
    }
    Ok(())
}

/// The key-space table of one transaction as a [`KvRead`].
struct TableView<'a, T>(&'a T);

impl<T: ReadableTable<&'static [u8], &'static [u8]>> KvRead for TableView<'_, T> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(self
            .0
            .get(key)
            .map_err(backend_error)?
            .map(|v| v.value().to_vec()))
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
        let range = self.0.range::<&[u8]>(start..end).map_err(backend_error)?;
        let mut walk = |entry: Result<_, ::redb::StorageError>| -> Result<bool, Error> {
            let (k, v): (::redb::AccessGuard<&[u8]>, ::redb::AccessGuard<&[u8]>) =
                entry.map_err(backend_error)?;
            Ok(visit(k.value(), v.value()))
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

impl Kv for RedbKv {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let (_guard, txn) = self.begin_read()?;
        let table = txn.open_table(KV).map_err(backend_error)?;
        f(&TableView(&table))
    }

    /// Runs `f` in the open group's transaction (see [`RedbKv`] on group commit).
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut slot = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let guard = match self.database() {
            Ok(guard) => guard,
            Err(err) => {
                // The steps before it in an open group wait for the commit it would have made.
                let _ = self.finish(&mut slot);
                return Err(err);
            }
        };
        if slot.is_none() {
            *slot = Some(Group {
                txn: self.begin_write(&guard)?,
                steps: 0,
                wrote: false,
                outcome: GroupOutcome::new(),
                record: self.journaled().then(Vec::new),
            });
        }
        let group = slot.as_mut().expect("opened above");
        let ran = run_step(&group.txn, group.record.as_mut(), f);
        let earlier_writes = group.wrote;
        group.steps += 1;
        if let Ran::Clean(Ok((_, true))) = &ran {
            group.wrote = true;
        }
        let outcome = group.outcome.clone();
        let full = group.steps >= MAX_GROUP;
        // The database stays open while the group's transaction lives; the lock is not needed
        // to wait, and holding it there would keep a vacuum (which ends the group) waiting.
        drop(guard);
        let mut committed_here = None;
        let answer = match ran {
            Ran::Broken(err, panic) => {
                self.abandon(&mut slot, &err);
                if let Some(panic) = panic {
                    drop(slot);
                    resume_unwind(panic);
                }
                return Err(err);
            }
            Ran::Panicked(panic) => {
                if full || self.waiting.load(Ordering::SeqCst) == 0 {
                    // The steps before it in the group still get their commit.
                    let _ = self.finish(&mut slot);
                }
                drop(slot);
                resume_unwind(panic);
            }
            Ran::Clean(answer) => answer,
        };
        if full || self.waiting.load(Ordering::SeqCst) == 0 {
            // A durable group smaller than the last one first lets more steps join it.
            if let Some(group) = slot.as_ref()
                && group.wrote
                && !full
                && self.durability == Durability::Immediate
            {
                let steps = group.steps;
                slot = self.pacer.hold(slot, &self.finished, steps, &outcome);
            }
            if !outcome.is_set() {
                committed_here = Some(self.finish(&mut slot));
            }
        }
        let (out, wrote) = answer?;
        if !wrote && !earlier_writes {
            return Ok(out);
        }
        // A step that wrote nothing still answers only once the writes before it in its group
        // are committed: "no write in flight" then holds for what it read.
        match committed_here {
            Some(result) => result.map(|()| out),
            None => outcome
                .wait(slot, "redb: committing a group of steps")
                .map(|()| out),
        }
    }
}

impl Drop for RedbKv {
    /// A clean close: the journaled groups are committed durably in redb and the journal file
    /// is removed, so the file alone holds everything (a read-only open needs that). A failure
    /// leaves the journal for the next open to apply.
    fn drop(&mut self) {
        if self.read_only.is_some() || self.broken.load(Ordering::SeqCst) {
            return;
        }
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        if self.finish(&mut writer).is_err() {
            return;
        }
        let db = self.db.read().unwrap_or_else(PoisonError::into_inner);
        let Some(db) = db.as_ref() else {
            return;
        };
        if self.checkpoint(db).is_err() {
            return;
        }
        if let Some(journal) = self
            .journal
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            let _ = journal.remove();
        }
    }
}

/// One step in an open transaction: `f` decides on what the transaction reads (the steps before
/// it in the group included), then its writes are applied (and added to the group's journal
/// `record`, if any).
fn run_step<R>(
    txn: &WriteTransaction,
    record: Option<&mut Vec<u8>>,
    f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>,
) -> Ran<R> {
    let mut table = match catch_unwind(AssertUnwindSafe(|| txn.open_table(KV))) {
        Ok(Ok(table)) => table,
        // Nothing was written by this step; the transaction may be unusable all the same.
        Ok(Err(e)) => return Ran::Broken(backend_error(e), None),
        Err(panic) => return Ran::Broken(panicked("redb: opening the table"), Some(panic)),
    };
    let (out, ops) = match catch_unwind(AssertUnwindSafe(|| f(&TableView(&table)))) {
        Err(panic) => return Ran::Panicked(panic),
        Ok(Err(e)) => return Ran::Clean(Err(e)),
        Ok(Ok(decided)) => decided,
    };
    if ops.is_empty() {
        return Ran::Clean(Ok((out, false)));
    }
    // A panic half-way through the encoding breaks the group like a failed write: the group,
    // and its record with it, is abandoned.
    match catch_unwind(AssertUnwindSafe(|| {
        if let Some(record) = record {
            journal::encode(&ops, record);
        }
        apply(&mut table, ops)
    })) {
        Ok(Ok(())) => Ran::Clean(Ok((out, true))),
        Ok(Err(e)) => Ran::Broken(e, None),
        Err(panic) => Ran::Broken(panicked("redb: a write"), Some(panic)),
    }
}

/// The error of a group that a panic inside redb or a write ended: none of its steps is
/// acknowledged.
fn panicked(context: &'static str) -> Error {
    Error::other(
        context,
        std::io::Error::other("panicked; no step of the group is acknowledged"),
    )
}

/// Copies every entry of `def` from `src` into `dst`, counting them in `copied`.
fn copy_table<K: ::redb::Key + 'static, V: ::redb::Value + 'static>(
    src: &ReadTransaction,
    dst: &WriteTransaction,
    def: TableDefinition<K, V>,
    copied: &mut u64,
    total: u64,
    progress: &dyn Fn(u64, u64),
) -> Result<(), Error> {
    let from = match src.open_table(def) {
        Ok(table) => table,
        Err(::redb::TableError::TableDoesNotExist(_)) => return Ok(()),
        Err(e) => return Err(backend_error(e)),
    };
    let mut to = dst.open_table(def).map_err(backend_error)?;
    for entry in from.iter().map_err(backend_error)? {
        let (k, v) = entry.map_err(backend_error)?;
        to.insert(k.value(), v.value()).map_err(backend_error)?;
        *copied += 1;
        if (*copied).is_multiple_of(1024) {
            progress(*copied, total);
        }
    }
    Ok(())
}

fn table_len<K: ::redb::Key + 'static, V: ::redb::Value + 'static>(
    src: &ReadTransaction,
    def: TableDefinition<K, V>,
) -> Result<u64, Error> {
    match src.open_table(def) {
        Ok(table) => table.len().map_err(backend_error),
        Err(::redb::TableError::TableDoesNotExist(_)) => Ok(0),
        Err(e) => Err(backend_error(e)),
    }
}

/// Copies the format record and the key space of `db` into a new database at `tmp`, committed
/// durably; the entries copied.
fn copy_database(db: &Database, tmp: &Path, progress: &dyn Fn(u64, u64)) -> Result<u64, Error> {
    let src = db.begin_read().map_err(backend_error)?;
    let total =
        table_len(&src, META)? + table_len(&src, journal::JOURNAL_SEQ)? + table_len(&src, KV)?;
    let mut copied = 0;
    let fresh = Database::create(tmp).map_err(backend_error)?;
    let mut dst = fresh.begin_write().map_err(backend_error)?;
    dst.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    copy_table(&src, &dst, META, &mut copied, total, progress)?;
    copy_table(
        &src,
        &dst,
        journal::JOURNAL_SEQ,
        &mut copied,
        total,
        progress,
    )?;
    copy_table(&src, &dst, KV, &mut copied, total, progress)?;
    dst.commit().map_err(backend_error)?;
    progress(copied, total);
    Ok(copied)
}

/// Removes what a failed vacuum wrote. A failure to do so is not answered: the vacuum's own
/// error is the one to report, and the next vacuum removes a stale copy anyway.
fn remove_partial_copy(tmp: &Path) {
    let _ = std::fs::remove_file(tmp);
}

impl store_trait::Database for RedbKv {
    /// Rewrites the file: copies every table's live entries into a new file next to it
    /// (`<file>.vacuum`), commits it durably, then renames it over the old file and reopens.
    /// A failed copy (a full disk) is removed and the old file stays in use; a crash before the
    /// rename leaves the old file as it was (and a stale `.vacuum` file that the next vacuum
    /// replaces).
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        if self.read_only.is_some() {
            return Err(read_only_error());
        }
        // A group left open for steps still to come is committed first, and no step starts
        // until the file is swapped.
        let mut writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.finish(&mut writer)?;
        let mut slot = self.db.write().unwrap_or_else(PoisonError::into_inner);
        let Some(db) = slot.as_ref() else {
            return Err(Error::Closed);
        };
        // The old file is closed and may be opened again below: nothing of it may rest on
        // the journal alone.
        if self.broken.load(Ordering::SeqCst) {
            return Err(broken_error());
        }
        self.checkpoint(db)?;
        // What the records held is gone from the file too, as the vacuum promises.
        if let Some(journal) = self
            .journal
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            journal.clear()?;
        }
        let io = |what: &str, e: std::io::Error| Error::io(format!("vacuum: {what}"), e);
        let bytes_before = std::fs::metadata(&self.path)
            .map_err(|e| io("size", e))?
            .len();
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".vacuum");
        let tmp = PathBuf::from(tmp);
        match std::fs::remove_file(&tmp) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io("removing a stale copy", e)),
        }
        // A copy that failed (a full disk, say) is removed at once: it would hold up to a whole
        // database's worth of space until the next vacuum.
        let copied = match copy_database(db, &tmp, progress) {
            Ok(copied) => copied,
            Err(err) => {
                remove_partial_copy(&tmp);
                return Err(err);
            }
        };
        // Close the old file before the new one takes its name.
        *slot = None;
        if let Err(e) = std::fs::rename(&tmp, &self.path) {
            // The old file is still in place: keep serving it.
            remove_partial_copy(&tmp);
            *slot = Some(Database::open(&self.path).map_err(backend_error)?);
            return Err(io("replacing the file", e));
        }
        let synced = store_kv::sync_parent_dir(&self.path);
        *slot = Some(Database::open(&self.path).map_err(backend_error)?);
        synced.map_err(|e| io("syncing the directory", e))?;
        let bytes_after = std::fs::metadata(&self.path)
            .map_err(|e| io("size", e))?
            .len();
        Ok(VacuumReport {
            bytes_before,
            bytes_after,
            entries: copied,
        })
    }

    fn format_version(&self) -> Option<u32> {
        Some(self.format)
    }

    fn durability(&self) -> Option<Durability> {
        Some(self.durability)
    }
}

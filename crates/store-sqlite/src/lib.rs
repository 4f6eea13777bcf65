//! [`SqliteBackend`]: a durable backend in one SQLite database file that any number of threads
//! and processes open at once, over the ordered key space of `store-kv`.
//!
//! The file holds one table, `kv(key BLOB PRIMARY KEY, value BLOB) WITHOUT ROWID`, whose rows are
//! the key space (BLOBs compare as bytes, so SQL order is key order), and a format record under
//! the key `FORMAT_KEY` (no layout key starts with a NUL byte). The journal is in WAL mode:
//! readers see a snapshot and never wait for the writer, and a writer in another process waits
//! (up to `BUSY_TIMEOUT`, five seconds) instead of failing. A [`Kv::step`] is one `BEGIN IMMEDIATE`
//! transaction, which takes the database's write lock before it reads, so a step's reads and
//! writes are one atomic unit across processes: the rate limit and the quota hold whoever writes.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use store_kv::KvBackend;
use store_trait::kv::{Decided, GroupOutcome, Kv, KvOp, KvRead};
use store_trait::{Database, Durability, Error, StorageFailure, VacuumReport};

/// The layout version this build reads and writes, stored under [`FORMAT_KEY`]. Bump it on any
/// change of a key or value encoding of `store-kv`'s layout. Version 2 added the
/// recall index (`store-kv`'s `t`, `v` and `s` kinds); version 3 holds term counts and
/// postings of analyzer version 2 (`fusion_rank::ANALYZER_VERSION`: function words dropped,
/// words stemmed); version 4 no longer writes postings, vectors and version counts beside the
/// versions (`t`, `v`, `c`): recall derives the first two from the versions' records, and the
/// quota counts from the statistics (`s`).
const FORMAT_VERSION: u32 = 4;
/// The format without the recall index, which a read-write open upgrades in place.
const FORMAT_NO_INDEX: u32 = 1;
/// The recall index of analyzer version 1, which a read-write open rebuilds in place.
const FORMAT_ANALYZER_1: u32 = 2;
/// Postings, vectors and version counts beside the versions, which a read-write open deletes in
/// place.
const FORMAT_SIDE_INDEX: u32 = 3;
/// The key of the format record: a NUL byte never starts a layout key.
const FORMAT_KEY: &[u8] = b"\0format_version";
/// How long a write waits for another process's write transaction before it fails
/// ([`StorageFailure::Locked`]).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Idle read connections kept for reuse.
const IDLE_READERS: usize = 8;
/// Steps committed together at most: a bound on how long the first of a group waits.
const MAX_GROUP: usize = 32;
/// WAL frames after a commit from which the WAL is copied back into the database (SQLite's own
/// automatic checkpoint runs at the same size, on the committing thread).
const CHECKPOINT_FRAMES: i32 = 1_000;
/// Frames not yet copied back below which the committing thread copies them itself: a short
/// copy, after which the next commit starts the WAL again from its beginning.
const CATCH_UP_FRAMES: i32 = 64;
/// WAL frames after a commit from which the committing thread checkpoints itself whatever the
/// checkpoint thread is doing: it has fallen this far behind, or is gone.
const CHECKPOINT_FRAMES_INLINE: i32 = 8_000;

/// A [`Backend`](store_trait::Backend) and [`StoreBackend`](store_trait::StoreBackend) in one
/// SQLite file, shared by threads and processes (see [`SqliteKv`]): the [`KvBackend`] over it,
/// which it dereferences to.
///
/// ```
/// use store_sqlite::SqliteBackend;
/// use store_trait::{Backend, Durability, Owner};
/// use memory_core::{MemberId, Timestamp, WorkspaceId};
///
/// let dir = tempfile::tempdir()?;
/// let backend = SqliteBackend::create(dir.path().join("memory.sqlite"), Durability::Immediate)?;
/// let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
/// assert_eq!(backend.stored_versions(&owner, Timestamp::MIN)?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SqliteBackend(KvBackend<SqliteKv>);

/// The key-space backend over the file: every [`Backend`](store_trait::Backend),
/// [`StoreBackend`](store_trait::StoreBackend) and [`Database`] call is its.
impl Deref for SqliteBackend {
    type Target = KvBackend<SqliteKv>;

    fn deref(&self) -> &KvBackend<SqliteKv> {
        &self.0
    }
}

impl fmt::Debug for SqliteBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The key space in one SQLite database file: a write connection behind a lock for steps, and
/// read connections (one per concurrent reader, idle ones kept) for reads.
///
/// A `decide` that panics rolls its transaction back (nothing is written) and leaves the backend
/// usable.
pub struct SqliteKv {
    writer: Mutex<Writer>,
    /// Signalled whenever a group of steps is committed (or rolled back).
    finished: Condvar,
    /// Steps of this process waiting for the writer: while there are any, a step leaves its
    /// transaction open for them to join (group commit).
    waiting: AtomicUsize,
    readers: Mutex<Vec<Connection>>,
    path: PathBuf,
    durability: Durability,
    /// How read connections are opened (never with `create`).
    access: Access,
    /// Copies the WAL back into the database off the writers' path (read-write opens only).
    /// Declared after `writer`, so dropped after it: the write connection's hook holds a
    /// sender of the thread's channel, and the thread ends only once every sender is gone.
    _checkpointer: Option<Checkpointer>,
}

/// A thread with a connection of its own that copies the WAL back into the database (a passive
/// checkpoint) when the write connection's commits ask it to; with [`Durability::Eventual`]
/// only.
///
/// SQLite's automatic checkpoint runs inside the commit that leaves [`CHECKPOINT_FRAMES`] in the
/// WAL, so one remember in sixty or so paid for copying a thousand pages back and syncing the
/// file: 5 ms at the 99th percentile, a tenth of a single writer's time without a sync per
/// commit. Here such a commit wakes this thread, which copies the bulk while the writers go on;
/// a passive checkpoint never waits for a lock and never blocks a reader or a writer. Copying
/// never catches a busy writer up, though, and SQLite starts the WAL again from its beginning
/// only when a write transaction finds every frame copied: so once fewer than
/// [`CATCH_UP_FRAMES`] are left, the committing thread copies them itself (a short copy), and
/// the next commit starts the WAL again. Past [`CHECKPOINT_FRAMES_INLINE`] the committing
/// thread checkpoints whatever this one is doing. Durability is unchanged: a commit is in the
/// WAL before it is acknowledged, whether or not it was copied back, and every checkpoint syncs
/// the WAL before it writes the database, as SQLite's own does.
struct Checkpointer {
    /// Dropped first on drop: the thread sees the channel close and ends.
    wake: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on a new read-write connection to `path`, or `None` when that
    /// connection cannot be opened (the committing thread then checkpoints, as SQLite would).
    fn start(path: &Path, durability: Durability) -> Option<Checkpointer> {
        let conn = connect(path, Access::ReadWrite { create: false }).ok()?;
        // The checkpoint syncs as the writers' commits do: the WAL before the database is
        // written, and the database after.
        configure(&conn, durability).ok()?;
        let (wake, woken) = sync_channel::<()>(1);
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                while woken.recv().is_ok() {
                    // A failure (the disk full, another process's checkpoint running) leaves
                    // the frames in the WAL, where every reader still finds them; the next
                    // wake tries again.
                    let _ = checkpoint_passive(&conn);
                }
            })
            .ok()?;
        Some(Checkpointer {
            wake: Some(wake),
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    /// Ends the thread, after the checkpoint it may be running.
    fn drop(&mut self) {
        self.wake.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One passive checkpoint: copies what no reader still needs from the WAL into the database,
/// without waiting for any lock.
fn checkpoint_passive(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
}

/// Replaces SQLite's automatic checkpoint on the write connection (see [`Checkpointer`]): a
/// commit that leaves [`CHECKPOINT_FRAMES`] or more in the WAL copies them back itself when
/// fewer than [`CATCH_UP_FRAMES`] are left to copy, when there are [`CHECKPOINT_FRAMES_INLINE`]
/// or more, or when there is no checkpoint thread to `wake`; otherwise it wakes the thread.
fn hand_off_checkpoints(conn: &mut Connection, wake: Option<SyncSender<()>>) -> Result<(), Error> {
    use rusqlite::wal::CheckpointMode;
    conn.wal_hook(Some(
        move |wal: &mut rusqlite::hooks::Wal, frames: std::ffi::c_int| {
            if frames < CHECKPOINT_FRAMES {
                return Ok(());
            }
            // Counts the frames in the WAL and those copied back, and copies none.
            let left = match wal.checkpoint_v2(CheckpointMode::NOOP) {
                Ok((log, copied)) if log >= 0 && copied >= 0 => log - copied,
                _ => frames,
            };
            let woken = left > CATCH_UP_FRAMES
                && frames < CHECKPOINT_FRAMES_INLINE
                && wake
                    .as_ref()
                    .is_some_and(|w| !matches!(w.try_send(()), Err(TrySendError::Disconnected(_))));
            if !woken {
                // The commit has happened whatever this returns: a checkpoint that cannot run
                // now (the thread's is running) is tried again at the next commit, as SQLite's
                // own would be.
                let _ = wal.checkpoint_v2(CheckpointMode::PASSIVE);
            }
            Ok(())
        },
    ))
    .map_err(sqlite_error)
}

/// The write connection and the group of steps its open transaction holds, if any.
struct Writer {
    conn: Connection,
    group: Option<Group>,
}

/// Steps run one after another in one open `BEGIN IMMEDIATE` transaction, each in a savepoint
/// of its own, and committed together by the last of them.
struct Group {
    /// Steps in it.
    steps: usize,
    /// Whether any step wrote (a group that wrote nothing rolls back: no sync).
    wrote: bool,
    /// Recorded once the group's transaction has ended.
    outcome: GroupOutcome,
}

impl Writer {
    /// Ends the open group's transaction — committed when a step wrote, else rolled back — and
    /// records its outcome for the steps waiting on it.
    fn finish(&mut self, finished: &Condvar) -> Result<(), Error> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        let sql = if group.wrote { "COMMIT" } else { "ROLLBACK" };
        let result = control(&self.conn, sql);
        if result.is_err() {
            // A failed commit may leave the transaction open: end it, so the next step starts
            // afresh. Its own failure adds nothing to the commit's error.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        group.outcome.set(result.as_ref().map(|_| ()));
        finished.notify_all();
        result
    }

    /// Rolls the open group back because a step's savepoint could not be ended cleanly: nothing
    /// of the group is committed, and the steps waiting on it learn why.
    fn abandon(&mut self, why: &Error, finished: &Condvar) {
        if let Some(group) = self.group.take() {
            // The transaction may already have ended with the failure; nothing more to report.
            let _ = self.conn.execute_batch("ROLLBACK");
            group.outcome.set(Err(why));
            finished.notify_all();
        }
    }
}

impl fmt::Debug for SqliteKv {
    /// The file and the durability only: the database holds memory content.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteKv")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .finish()
    }
}

/// A SQLite failure, its cause kept and classified.
fn sqlite_error(e: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode;
    let failure = match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StorageFailure::Locked,
        Some(ErrorCode::DiskFull) => StorageFailure::Full,
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => StorageFailure::ReadOnly,
        _ => StorageFailure::Other,
    };
    if e.sqlite_error_code() == Some(ErrorCode::NotADatabase) {
        return Error::Format("the file is not a SQLite database".into());
    }
    Error::storage(failure, "sqlite", e)
}

fn format_mismatch(found: &[u8]) -> Error {
    match <[u8; 4]>::try_from(found) {
        Ok(b) => Error::Format(format!(
            "the database has format version {}; this build reads version {FORMAT_VERSION}",
            u32::from_be_bytes(b)
        )),
        Err(_) => Error::Format("the database's format record is unreadable".into()),
    }
}

fn no_format_record() -> Error {
    Error::Format("the database has no format record: not a store-trait database".into())
}

/// What an opened file holds, read before anything is written.
enum Found {
    /// No table at all: a new (or empty) file.
    Nothing,
    /// A store-trait database of this build's format.
    Ours,
    /// A store-trait database of an earlier format that a writer upgrades in place: format 1
    /// (without the recall index), 2 (its index from analyzer version 1) or 3 (postings,
    /// vectors and version counts beside the versions).
    Older(u32),
}

fn inspect(conn: &Connection) -> Result<Found, Error> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(sqlite_error)?;
    if tables.is_empty() {
        return Ok(Found::Nothing);
    }
    if !tables.iter().any(|t| t == "kv") {
        return Err(no_format_record());
    }
    let format: Option<Vec<u8>> = conn
        .query_row(
            "SELECT value FROM kv WHERE key = ?1",
            params![FORMAT_KEY],
            |r| r.get(0),
        )
        .optional()
        .map_err(sqlite_error)?;
    match format {
        Some(f) if f == FORMAT_VERSION.to_be_bytes() => Ok(Found::Ours),
        Some(f) if f == FORMAT_NO_INDEX.to_be_bytes() => Ok(Found::Older(FORMAT_NO_INDEX)),
        Some(f) if f == FORMAT_ANALYZER_1.to_be_bytes() => Ok(Found::Older(FORMAT_ANALYZER_1)),
        Some(f) if f == FORMAT_SIDE_INDEX.to_be_bytes() => Ok(Found::Older(FORMAT_SIDE_INDEX)),
        Some(f) => Err(format_mismatch(&f)),
        None => Err(no_format_record()),
    }
}

/// How connections to the file are opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Reads and writes; `create` allows a new file.
    ReadWrite { create: bool },
    /// Reads only, sharing the WAL with writers in other processes.
    ReadOnly,
    /// Reads only, the file taken as immutable: for a WAL database whose directory cannot be
    /// written (a read-only mount, a backup), where SQLite cannot create the shared-memory
    /// file and no other process can be writing.
    Immutable,
}

/// A connection to `path` with the busy timeout set and nothing written yet.
fn connect(path: &Path, access: Access) -> Result<Connection, Error> {
    let flags = OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = match access {
        Access::ReadWrite { create } => {
            let mut flags = flags | OpenFlags::SQLITE_OPEN_READ_WRITE;
            if create {
                flags |= OpenFlags::SQLITE_OPEN_CREATE;
            }
            Connection::open_with_flags(path, flags)
        }
        Access::ReadOnly => {
            Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_READ_ONLY)
        }
        Access::Immutable => {
            // A URI names the file: `%`, `?` and `#` are escaped so that no path is misread.
            let mut uri = String::from("file:");
            for c in path.to_string_lossy().chars() {
                match c {
                    '%' => uri.push_str("%25"),
                    '?' => uri.push_str("%3f"),
                    '#' => uri.push_str("%23"),
                    c => uri.push(c),
                }
            }
            uri.push_str("?immutable=1");
            Connection::open_with_flags(
                uri,
                flags | OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            )
        }
    }
    .map_err(sqlite_error)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(sqlite_error)?;
    Ok(conn)
}

/// Sets the per-connection settings of a store-trait database.
fn configure(conn: &Connection, durability: Durability) -> Result<(), Error> {
    // `FULL` syncs the WAL at every commit; `NORMAL` only at checkpoints, which a killed process
    // never loses (the WAL survives it) but a power loss may.
    let synchronous = match durability {
        Durability::Immediate => "FULL",
        Durability::Eventual => "NORMAL",
    };
    // Deleted rows are overwritten with zeros rather than left in free pages, and temporary
    // data (a vacuum's copy) stays in memory: removed text is found in no file.
    // Reads map the file (up to 256 MiB) instead of copying each page with a system call: a
    // recall's scan spends a fifth of its time in `pread` otherwise.
    conn.execute_batch(&format!(
        "PRAGMA synchronous = {synchronous}; PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY; \
         PRAGMA mmap_size = 268435456;"
    ))
    .map_err(sqlite_error)
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The database file and its WAL.
fn files_size(path: &Path) -> u64 {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    file_size(path) + file_size(Path::new(&wal))
}

impl SqliteBackend {
    /// Opens the database at `path`, creating and initializing the file when it does not exist
    /// or is empty. An existing file must be a store-trait database of this build's format
    /// version, or the answer is [`Error::Format`] and the file is left as it was.
    pub fn create(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        SqliteKv::start(path.as_ref(), durability, true)
            .map(|kv| SqliteBackend(KvBackend::over(kv)))
    }

    /// Opens an existing database at `path` (an error when there is no file). The file must be a
    /// store-trait database of this build's format version, or the answer is [`Error::Format`]
    /// and the file is left as it was.
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        SqliteKv::start(path.as_ref(), durability, false)
            .map(|kv| SqliteBackend(KvBackend::over(kv)))
    }

    /// Opens an existing database for reading only: every write answers a
    /// [`StorageFailure::ReadOnly`] error. Readers still share the WAL with writers in other
    /// processes. When SQLite cannot open the file so (its directory cannot be written: a
    /// read-only mount, a backup) and no write-ahead log holds commits, the file is read as
    /// immutable, since no process can be writing it.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        match SqliteKv::start_with(path, Durability::Immediate, Access::ReadOnly) {
            Err(Error::Storage { .. }) if file_size(Path::new(&wal)) == 0 => {
                SqliteKv::start_with(path, Durability::Immediate, Access::Immutable)
            }
            opened => opened,
        }
        .map(|kv| SqliteBackend(KvBackend::over(kv)))
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.kv().path
    }
}

impl SqliteKv {
    fn start(path: &Path, durability: Durability, create: bool) -> Result<Self, Error> {
        Self::start_with(path, durability, Access::ReadWrite { create })
    }

    fn start_with(path: &Path, durability: Durability, access: Access) -> Result<Self, Error> {
        let mut conn = connect(path, access)?;
        // Read first: a foreign file must be refused before anything writes to it.
        let found = inspect(&conn)?;
        if let Found::Older(old) = found {
            if !matches!(access, Access::ReadWrite { .. }) {
                return Err(Error::Format(format!(
                    "the database has format version {old}, written by an earlier \
                     build; open it read-write once (any command that writes) to upgrade it in \
                     place to version {FORMAT_VERSION}"
                )));
            }
            build_index(&mut conn)?;
        }
        if let Found::Nothing = found {
            if access != (Access::ReadWrite { create: true }) {
                return Err(no_format_record());
            }
            let mode: String = conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
                .map_err(sqlite_error)?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(Error::other(
                    "sqlite: the journal cannot be put in WAL mode",
                    std::io::Error::new(
                        std::io::ErrorKind::Unsupported,
                        format!("the journal mode stayed {mode}"),
                    ),
                ));
            }
            let txn = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(sqlite_error)?;
            // Another process may have initialized the file since the first look.
            if let Found::Nothing = inspect(&txn)? {
                txn.execute_batch(
                    "CREATE TABLE kv (key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;",
                )
                .map_err(sqlite_error)?;
                txn.execute(
                    "INSERT INTO kv (key, value) VALUES (?1, ?2)",
                    params![FORMAT_KEY, FORMAT_VERSION.to_be_bytes()],
                )
                .map_err(sqlite_error)?;
            }
            txn.commit().map_err(sqlite_error)?;
        }
        configure(&conn, durability)?;
        // With a sync per commit, a checkpoint's syncs on another thread contend with the
        // commits' own for the disk: a durable writer measured 40 % slower so, and keeps
        // SQLite's checkpoint on the committing thread.
        let checkpointer = match (access, durability) {
            (Access::ReadWrite { .. }, Durability::Eventual) => {
                let checkpointer = Checkpointer::start(path, durability);
                hand_off_checkpoints(
                    &mut conn,
                    checkpointer.as_ref().and_then(|c| c.wake.clone()),
                )?;
                checkpointer
            }
            _ => None,
        };
        Ok(SqliteKv {
            _checkpointer: checkpointer,
            writer: Mutex::new(Writer { conn, group: None }),
            finished: Condvar::new(),
            waiting: AtomicUsize::new(0),
            readers: Mutex::new(Vec::new()),
            path: path.to_owned(),
            durability,
            access: match access {
                Access::ReadWrite { .. } => Access::ReadWrite { create: false },
                other => other,
            },
        })
    }

    fn reader(&self) -> Result<Connection, Error> {
        let idle = self
            .readers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        match idle {
            Some(conn) => Ok(conn),
            None => {
                let conn = connect(&self.path, self.access)?;
                configure(&conn, self.durability)?;
                Ok(conn)
            }
        }
    }

    fn put_back(&self, conn: Connection) {
        let mut idle = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < IDLE_READERS {
            idle.push(conn);
        }
    }
}

/// One transaction's view of the `kv` table.
struct View<'a>(&'a Connection);

impl KvRead for View<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        self.0
            .prepare_cached("SELECT value FROM kv WHERE key = ?1")
            .and_then(|mut s| s.query_row(params![key], |r| r.get(0)).optional())
            .map_err(sqlite_error)
    }

    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        let sql = if reverse {
            "SELECT key, value FROM kv WHERE key >= ?1 AND key < ?2 ORDER BY key DESC"
        } else {
            "SELECT key, value FROM kv WHERE key >= ?1 AND key < ?2 ORDER BY key"
        };
        self.rows(sql, start, end, &mut |row| {
            Ok(visit(blob(row, 0)?, blob(row, 1)?))
        })
    }

    /// Selects the keys alone: a version's value, most of it in overflow pages, is not read.
    fn range_keys(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<(), Error> {
        let sql = if reverse {
            "SELECT key FROM kv WHERE key >= ?1 AND key < ?2 ORDER BY key DESC"
        } else {
            "SELECT key FROM kv WHERE key >= ?1 AND key < ?2 ORDER BY key"
        };
        self.rows(sql, start, end, &mut |row| Ok(visit(blob(row, 0)?)))
    }
}

impl View<'_> {
    /// The rows with `start <= key < end` of the query `sql` (its `?1` and `?2`), each handed
    /// to `visit` with its columns, until `visit` returns false.
    fn rows(
        &self,
        sql: &str,
        start: &[u8],
        end: &[u8],
        visit: &mut dyn FnMut(&rusqlite::Row<'_>) -> Result<bool, Error>,
    ) -> Result<(), Error> {
        if start >= end {
            return Ok(());
        }
        let mut stmt = self.0.prepare_cached(sql).map_err(sqlite_error)?;
        let mut rows = stmt.query(params![start, end]).map_err(sqlite_error)?;
        while let Some(row) = rows.next().map_err(sqlite_error)? {
            if !visit(row)? {
                break;
            }
        }
        Ok(())
    }
}

/// Column `i` of `row` as a blob.
fn blob<'r>(row: &'r rusqlite::Row<'_>, i: usize) -> Result<&'r [u8], Error> {
    row.get_ref(i)
        .and_then(|v| v.as_blob().map_err(rusqlite::Error::from))
        .map_err(sqlite_error)
}

impl Kv for SqliteKv {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let mut conn = self.reader()?;
        let out = {
            // A deferred transaction: one snapshot from its first read to its end.
            let txn = conn.transaction().map_err(sqlite_error)?;
            let out = f(&View(&txn));
            txn.finish().map_err(sqlite_error)?;
            out
        };
        self.put_back(conn);
        out
    }

    /// Group commit: steps of this process that arrive while another holds the write
    /// connection run in the same `BEGIN IMMEDIATE` transaction, one after another, each in a
    /// savepoint of its own (a refusal, an error or a panic rolls back that step alone); the
    /// last step of the group — the one that finds nobody waiting, or the 32nd — commits for all,
    /// and every step that wrote returns only once that commit is done (and synced, with
    /// [`Durability::Immediate`]). So a step is acknowledged only after its own commit, and
    /// eight concurrent writers pay for far fewer than eight syncs. Steps stay serialized: each
    /// reads everything the steps before it wrote, in this process or another.
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut w = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        if w.group.is_none() {
            // Takes the write lock before the first read, so nothing commits between the
            // group's reads and its writes, in this process or another.
            control(&w.conn, "BEGIN IMMEDIATE")?;
            w.group = Some(Group {
                steps: 0,
                wrote: false,
                outcome: GroupOutcome::new(),
            });
        }
        let ran = match control(&w.conn, "SAVEPOINT step") {
            Ok(()) => catch_unwind(AssertUnwindSafe(|| run_step(&w.conn, f))),
            Err(e) => Ok(Err(e)),
        };
        let kept = matches!(ran, Ok(Ok((_, true))));
        let ended = if kept {
            control(&w.conn, "RELEASE step")
        } else {
            control(&w.conn, "ROLLBACK TO step").and_then(|()| control(&w.conn, "RELEASE step"))
        };
        let group = w.group.as_mut().expect("opened above");
        // A step that writes nothing still answers only once the writes of the steps before it
        // in its group are committed: "no write in flight" then holds for what it read and for
        // what it lets happen (`Backend::between_writes`).
        let earlier_writes = group.wrote;
        group.steps += 1;
        group.wrote |= kept;
        let outcome = group.outcome.clone();
        let full = group.steps >= MAX_GROUP;
        let mut committed_here = None;
        if let Err(e) = &ended {
            w.abandon(e, &self.finished);
        } else if full || self.waiting.load(Ordering::SeqCst) == 0 {
            committed_here = Some(w.finish(&self.finished));
        }
        let answer = match ran {
            Err(panic) => {
                drop(w);
                resume_unwind(panic);
            }
            Ok(answer) => answer,
        };
        ended?;
        let (out, wrote) = answer?;
        if !wrote && !earlier_writes {
            return Ok(out);
        }
        match committed_here {
            Some(result) => result.map(|()| out),
            None => {
                // Leave the transaction to the steps waiting; answer once it is committed.
                outcome
                    .wait(w, "sqlite: committing a group of steps")
                    .map(|()| out)
            }
        }
    }
}

/// Runs one transaction-control statement (`BEGIN IMMEDIATE`, `SAVEPOINT`, `COMMIT`…) from the
/// connection's statement cache: a step runs four of them, and none needs parsing again.
fn control(conn: &Connection, sql: &str) -> Result<(), Error> {
    conn.prepare_cached(sql)
        .and_then(|mut s| s.execute([]))
        .map(|_| ())
        .map_err(sqlite_error)
}

/// Upgrades a format-1, 2 or 3 file in place: in one `BEGIN IMMEDIATE` transaction (another
/// process may be upgrading it too: the second finds the new format and does nothing), (re)builds
/// the recall index of every stored version with this build's analyzer (deleting the postings,
/// vectors and counts earlier formats kept beside the versions, rewriting versions whose term
/// counts change) and moves the format record. Upgrade with every older process closed
/// (`docs/storage-sqlite.md`): a format-1 build still writing the file would leave versions
/// without statistics, whose new versions would be reported as a corrupt index (their count
/// disagrees) but whose supersedes and re-embeddings, which change no count, would go
/// unnoticed; a format-2 or 3 build would write postings and vectors again that nothing
/// deletes.
fn build_index(conn: &mut Connection) -> Result<(), Error> {
    let txn = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite_error)?;
    if let Found::Older(_) = inspect(&txn)? {
        run_step(&txn, &mut |r| Ok(((), store_kv::build_index(r)?)))?;
        txn.execute(
            "UPDATE kv SET value = ?2 WHERE key = ?1",
            params![FORMAT_KEY, FORMAT_VERSION.to_be_bytes()],
        )
        .map_err(sqlite_error)?;
    }
    txn.commit().map_err(sqlite_error)
}

/// Runs one step's decision on the open transaction and applies its writes; the answer and
/// whether it wrote anything.
fn run_step<R>(
    conn: &Connection,
    f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>,
) -> Result<(R, bool), Error> {
    let (out, ops) = f(&View(conn))?;
    if ops.is_empty() {
        return Ok((out, false));
    }
    let mut put = conn
        .prepare_cached("INSERT OR REPLACE INTO kv (key, value) VALUES (?1, ?2)")
        .map_err(sqlite_error)?;
    let mut delete = conn
        .prepare_cached("DELETE FROM kv WHERE key = ?1")
        .map_err(sqlite_error)?;
    for op in ops {
        match op {
            KvOp::Put(k, v) => put.execute(params![k, v]),
            KvOp::Delete(k) => delete.execute(params![k]),
        }
        .map_err(sqlite_error)?;
    }
    Ok((out, true))
}

impl Database for SqliteKv {
    /// Rebuilds the file (`VACUUM`: no free page is left) and truncates the WAL to nothing
    /// (`wal_checkpoint(TRUNCATE)` before and after), so that, with `secure_delete` on, no
    /// removed text remains in the database or its WAL. A reader in another process that holds
    /// a snapshot keeps the WAL from being truncated: the answer is then a
    /// [`StorageFailure::Locked`] error, and a later vacuum finishes the work.
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        let mut w = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        // A group left open for steps still to come is committed first: VACUUM runs outside
        // any transaction.
        w.finish(&self.finished)?;
        let conn = &w.conn;
        let bytes_before = files_size(&self.path);
        let entries: i64 = conn
            .query_row("SELECT count(*) FROM kv", [], |r| r.get(0))
            .map_err(sqlite_error)?;
        let entries = u64::try_from(entries).unwrap_or(0);
        progress(0, entries);
        let checkpoint = |conn: &Connection| -> Result<(), Error> {
            let busy: i64 = conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
                .map_err(sqlite_error)?;
            if busy != 0 {
                return Err(Error::storage(
                    StorageFailure::Locked,
                    "sqlite vacuum",
                    std::io::Error::other("another connection holds a snapshot of the WAL"),
                ));
            }
            Ok(())
        };
        checkpoint(conn)?;
        conn.execute_batch("VACUUM").map_err(sqlite_error)?;
        checkpoint(conn)?;
        progress(entries, entries);
        Ok(VacuumReport {
            bytes_before,
            bytes_after: files_size(&self.path),
            entries,
        })
    }

    fn format_version(&self) -> Option<u32> {
        Some(FORMAT_VERSION)
    }

    fn durability(&self) -> Option<Durability> {
        Some(self.durability)
    }
}

//! [`RedbBackend`] (feature `redb`): a durable backend in one redb database file, one redb
//! write transaction per mutating call. The on-disk layout is documented in
//! `docs/storage-redb.md`; the encoding helpers below are its single implementation.

use std::fmt;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use ::redb::{
    Database, ReadOnlyDatabase, ReadTransaction, ReadableDatabase, ReadableTable,
    ReadableTableMetadata, Table, TableDefinition, WriteTransaction,
};
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, StoredEmbedding, Timestamp,
    WorkspaceId,
};

use crate::backend::{check_decided_write, key_instant, latest_instant};
use crate::keys::{
    KeyEntry, encode_window, key_prefix, owner_prefix, window_key, workspace_prefix,
};
use crate::kv::{Decided, Kv, KvOp, KvRead, impl_store_backend};
use crate::stores::VacuumReport;
use crate::{
    Backend, Durability, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery,
};

/// The layout version this build reads and writes, stored under [`FORMAT_KEY`] in [`META`].
/// Bump it on any change of a table, a key or a value encoding.
const FORMAT_VERSION: u32 = 3;
const FORMAT_KEY: &str = "format_version";

/// `"format_version"` → [`FORMAT_VERSION`].
const META: TableDefinition<&str, u32> = TableDefinition::new("meta");
/// owner ‖ desc(created_at) ‖ desc(id) → the version, serde JSON. Scans walk it forwards.
const VERSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("versions");
/// owner ‖ id bytes → `created_at` in ms: finds a version's key from its id.
const IDS: TableDefinition<&[u8], i64> = TableDefinition::new("ids");
/// owner ‖ namespace ‖ key → last version (u32 BE) ‖ the current version's suffix (if any).
const KEYS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("keys");
/// owner ‖ namespace ‖ key ‖ desc(created_at) ‖ desc(id) → (): every stored version of a key.
const KEY_VERSIONS: TableDefinition<&[u8], ()> = TableDefinition::new("key_versions");
/// owner → versions stored, expired ones included.
const COUNTS: TableDefinition<&[u8], u64> = TableDefinition::new("counts");
/// workspace ‖ credential → accepted remember instants, oldest first, i64 BE ms each.
const WINDOWS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("windows");
/// workspace → settings, serde JSON.
const SETTINGS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("settings");

/// memory-store key (see `crate::kv`) → value: memory stores, memories, versions and sessions.
const STORES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("memory_stores");

type DbGuard<'a> = RwLockReadGuard<'a, Option<Database>>;

/// A [`Backend`] storing everything in one redb database file.
///
/// Every mutating call is one redb write transaction, and redb runs one write transaction at a
/// time: [`remember`](Backend::remember) reads its state, runs `decide` and writes inside it,
/// so check-and-write is atomic across threads. Reads run in read transactions (snapshots) that
/// never wait for writers.
///
/// Keys are binary and tenant-prefixed: each component (workspace, member, namespace, key,
/// credential) is written as its length (u32, big-endian) followed by its bytes, so no component
/// value can be a prefix of another and a range over one owner's prefix holds exactly that
/// owner's entries. Records are stored whole as serde JSON. The tables, encodings and format
/// version are documented in `docs/storage-redb.md`.
///
/// redb locks the file: one process opens it at a time. A `decide` that panics aborts its
/// transaction (nothing is written) and leaves the backend usable.
///
/// ```
/// use store_trait::{Backend, Durability, Owner, RedbBackend};
/// use memory_core::{MemberId, Timestamp, WorkspaceId};
///
/// let dir = tempfile::tempdir()?;
/// let backend = RedbBackend::create(dir.path().join("memory.redb"), Durability::Immediate)?;
/// let owner = Owner::new(WorkspaceId::new("ws1")?, MemberId::new("alice")?);
/// assert_eq!(backend.stored_versions(&owner, Timestamp::MIN)?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RedbBackend {
    /// `None` only after a vacuum could not reopen the rewritten file. Every call holds the read
    /// lock for as long as its transaction runs; [`vacuum`](crate::StoreBackend::vacuum) takes
    /// the write lock to swap the file.
    db: RwLock<Option<Database>>,
    /// Set instead of `db` by [`RedbBackend::open_read_only`]: reads only.
    read_only: Option<ReadOnlyDatabase>,
    path: PathBuf,
    durability: Durability,
}

impl fmt::Debug for RedbBackend {
    /// The file and the durability only: the database holds memory content.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedbBackend")
            .field("path", &self.path)
            .field("durability", &self.durability)
            .field("read_only", &self.read_only.is_some())
            .finish()
    }
}

/// The answer to a write on a backend opened with [`RedbBackend::open_read_only`].
fn read_only_error() -> Error {
    Error::storage(
        crate::StorageFailure::ReadOnly,
        "redb",
        std::io::Error::other("the database was opened read-only"),
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

/// A redb failure, its cause kept and classified (the lock another process holds, a full disk,
/// a read-only file).
fn backend_error(e: impl Into<::redb::Error>) -> Error {
    let e: ::redb::Error = e.into();
    let failure = match &e {
        ::redb::Error::DatabaseAlreadyOpen => crate::StorageFailure::Locked,
        ::redb::Error::Io(io) => crate::StorageFailure::of_io(io),
        _ => crate::StorageFailure::Other,
    };
    Error::storage(failure, "redb", e)
}

/// The ways a write transaction ends.
enum Finish<T> {
    /// Commit what was written, then answer.
    Commit(T),
    /// Nothing was written (a refusal, a forget that found nothing): abort and answer.
    Discard(T),
}

impl RedbBackend {
    /// Opens the database at `path`, creating and initializing the file when it does not exist
    /// or is empty. An existing file must be a store-trait database of this build's format
    /// version, or the answer is [`Error::Format`] and the file is left as it was.
    pub fn create(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = Database::create(path).map_err(backend_error)?;
        Self::start(db, path, durability, true)
    }

    /// Opens an existing database at `path` (an error when there is no file). The file must be a
    /// store-trait database of this build's format version, or the answer is [`Error::Format`]
    /// and the file is left as it was.
    pub fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = Database::open(path).map_err(backend_error)?;
        Self::start(db, path, durability, false)
    }

    /// Opens an existing database at `path` for reading only — a backup, a read-only mount, a
    /// file without write permission: the file is opened read-only and never written. Every
    /// write answers a [`StorageFailure::ReadOnly`](crate::StorageFailure) error, vacuum too.
    /// The file must be a store-trait database of this build's format version, and closed
    /// cleanly (redb cannot repair a file it may not write: open it read-write once to repair
    /// it); a database another process has open is [`StorageFailure::Locked`](crate::StorageFailure).
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let db = ReadOnlyDatabase::open(path).map_err(backend_error)?;
        let (found, _) = format_of(&db.begin_read().map_err(backend_error)?)?;
        match found {
            Some(FORMAT_VERSION) => {}
            Some(other) => return Err(format_mismatch(other)),
            None => return Err(no_format_record()),
        }
        Ok(RedbBackend {
            db: RwLock::new(None),
            read_only: Some(db),
            path: path.to_owned(),
            durability: Durability::Immediate,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The durability of this backend's commits.
    pub fn durability(&self) -> Durability {
        self.durability
    }

    fn start(db: Database, path: &Path, durability: Durability, init: bool) -> Result<Self, Error> {
        // Read first: a mismatch must be refused before any write transaction touches the file.
        let (found, has_tables) = format_of(&db.begin_read().map_err(backend_error)?)?;
        match found {
            Some(FORMAT_VERSION) => {}
            Some(other) => return Err(format_mismatch(other)),
            None if init && !has_tables => {
                // A new database: create every table and the format record in one durable commit.
                let txn = db.begin_write().map_err(backend_error)?;
                {
                    let mut meta = txn.open_table(META).map_err(backend_error)?;
                    meta.insert(FORMAT_KEY, FORMAT_VERSION)
                        .map_err(backend_error)?;
                    Tables::open(&txn)?;
                    txn.open_table(SETTINGS).map_err(backend_error)?;
                }
                txn.commit().map_err(backend_error)?;
            }
            None => return Err(no_format_record()),
        }
        Ok(RedbBackend {
            db: RwLock::new(Some(db)),
            read_only: None,
            path: path.to_owned(),
            durability,
        })
    }

    fn database(&self) -> Result<DbGuard<'_>, Error> {
        if self.read_only.is_some() {
            return Err(read_only_error());
        }
        let guard = self.db.read().unwrap_or_else(PoisonError::into_inner);
        if guard.is_none() {
            return Err(Error::Backend(
                "the database could not be reopened after a vacuum; open it again".into(),
            ));
        }
        Ok(guard)
    }

    fn begin_write(&self) -> Result<(DbGuard<'_>, WriteTransaction), Error> {
        let guard = self.database()?;
        let db = guard.as_ref().expect("checked by database()");
        let mut txn = db.begin_write().map_err(backend_error)?;
        let durability = match self.durability {
            Durability::Immediate => ::redb::Durability::Immediate,
            Durability::Eventual => ::redb::Durability::None,
        };
        txn.set_durability(durability).map_err(backend_error)?;
        Ok((guard, txn))
    }

    /// Runs `f` in one write transaction over the agent-memory tables and commits or aborts as it
    /// says; an error aborts.
    fn write<T>(
        &self,
        f: impl FnOnce(&mut Tables<'_>) -> Result<Finish<T>, Error>,
    ) -> Result<T, Error> {
        let (_guard, txn) = self.begin_write()?;
        let finish = {
            let mut tables = Tables::open(&txn)?;
            f(&mut tables)?
        };
        match finish {
            Finish::Commit(out) => {
                txn.commit().map_err(backend_error)?;
                Ok(out)
            }
            Finish::Discard(out) => {
                txn.abort().map_err(backend_error)?;
                Ok(out)
            }
        }
    }

    fn read(&self) -> Result<(DbGuard<'_>, ReadTransaction), Error> {
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
        let (_guard, txn) = self.read()?;
        let versions = txn.open_table(VERSIONS).map_err(backend_error)?;
        let op = owner_prefix(owner);
        let range = PrefixRange::new(&op);
        let after = after.map(|(at, id)| concat(&[&op, &version_suffix(*at, id)]));
        let lower = match &after {
            Some(after) => Bound::Excluded(after.as_slice()),
            None => Bound::Included(op.as_slice()),
        };
        let mut found = Vec::new();
        for entry in versions
            .range::<&[u8]>((lower, range.upper()))
            .map_err(backend_error)?
        {
            let (k, v) = entry.map_err(backend_error)?;
            // Newest first: the first expired version ends the walk.
            if suffix_created_at(&k.value()[op.len()..])? <= expired_cutoff {
                break;
            }
            let memory: AgentMemory = decode(v.value())?;
            if keep(&memory) {
                found.push(memory);
                if found.len() == limit {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// Removes the workspace's versions `doomed` selects (given the version's `created_at` and
    /// stored bytes), keeping their keys' numbering.
    fn purge(
        &self,
        workspace: &WorkspaceId,
        doomed: impl Fn(Timestamp, &[u8]) -> Result<bool, Error>,
    ) -> Result<u64, Error> {
        let range = PrefixRange::new(&workspace_prefix(workspace));
        self.write(|t| {
            let mut gone = Vec::new();
            for entry in t
                .versions
                .range::<&[u8]>(range.bounds())
                .map_err(backend_error)?
            {
                let (k, v) = entry.map_err(backend_error)?;
                let key = k.value();
                let split = owner_prefix_len(key)?;
                if doomed(suffix_created_at(&key[split..])?, v.value())? {
                    gone.push((key[..split].to_vec(), key[split..].to_vec()));
                }
            }
            for (owner, suffix) in &gone {
                t.remove_version(owner, suffix)?;
            }
            let n = gone.len() as u64;
            Ok(if n == 0 {
                Finish::Discard(0)
            } else {
                Finish::Commit(n)
            })
        })
    }

    /// Removes every agent-memory entry under `prefix` (an owner's or a workspace's); returns
    /// the versions removed.
    fn delete_prefix(&self, prefix: &[u8]) -> Result<u64, Error> {
        self.write(|t| {
            let removed = clear_range(&mut t.versions, prefix)?;
            // Keys whose versions were all purged still hold their numbering: reset it too.
            let index_entries = clear_range(&mut t.ids, prefix)?
                + clear_range(&mut t.keys, prefix)?
                + clear_range(&mut t.key_versions, prefix)?
                + clear_range(&mut t.counts, prefix)?;
            Ok(if removed + index_entries == 0 {
                Finish::Discard(0)
            } else {
                Finish::Commit(removed)
            })
        })
    }
}

/// The agent-memory tables of one write transaction.
struct Tables<'t> {
    versions: Table<'t, &'static [u8], &'static [u8]>,
    ids: Table<'t, &'static [u8], i64>,
    keys: Table<'t, &'static [u8], &'static [u8]>,
    key_versions: Table<'t, &'static [u8], ()>,
    counts: Table<'t, &'static [u8], u64>,
    windows: Table<'t, &'static [u8], &'static [u8]>,
}

impl<'t> Tables<'t> {
    fn open(txn: &'t WriteTransaction) -> Result<Self, Error> {
        Ok(Tables {
            versions: txn.open_table(VERSIONS).map_err(backend_error)?,
            ids: txn.open_table(IDS).map_err(backend_error)?,
            keys: txn.open_table(KEYS).map_err(backend_error)?,
            key_versions: txn.open_table(KEY_VERSIONS).map_err(backend_error)?,
            counts: txn.open_table(COUNTS).map_err(backend_error)?,
            windows: txn.open_table(WINDOWS).map_err(backend_error)?,
        })
    }

    fn add_count(&mut self, owner: &[u8], delta: i64) -> Result<(), Error> {
        let old = self
            .counts
            .get(owner)
            .map_err(backend_error)?
            .map_or(0, |v| v.value());
        let new = old.saturating_add_signed(delta);
        if new == 0 {
            self.counts.remove(owner).map_err(backend_error)?;
        } else {
            self.counts.insert(owner, new).map_err(backend_error)?;
        }
        Ok(())
    }

    /// Removes one version and its index entries; a key whose current version it was is left
    /// without one (numbering kept).
    fn remove_version(
        &mut self,
        owner: &[u8],
        suffix: &[u8],
    ) -> Result<Option<AgentMemory>, Error> {
        let removed = self
            .versions
            .remove(concat(&[owner, suffix]).as_slice())
            .map_err(backend_error)?
            .map(|v| decode(v.value()));
        let Some(memory) = removed.transpose()? else {
            return Ok(None);
        };
        self.ids
            .remove(concat(&[owner, memory.id.as_str().as_bytes()]).as_slice())
            .map_err(backend_error)?;
        self.add_count(owner, -1)?;
        if let Some(key) = &memory.key {
            let kp = key_prefix(owner, &memory.namespace, key);
            self.key_versions
                .remove(concat(&[&kp, suffix]).as_slice())
                .map_err(backend_error)?;
            if let Some(mut entry) = read_key_entry(&self.keys, &kp)?
                && entry.current.as_deref() == Some(suffix)
            {
                entry.current = None;
                self.keys
                    .insert(kp.as_slice(), entry.encode().as_slice())
                    .map_err(backend_error)?;
            }
        }
        Ok(Some(memory))
    }

    /// Removes the key's index entry and every version of the key, newest first; nothing when
    /// the key has no stored version (its numbering is kept then).
    fn forget_key(
        &mut self,
        owner: &[u8],
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        let kp = key_prefix(owner, namespace, key);
        let range = PrefixRange::new(&kp);
        let mut suffixes = Vec::new();
        for entry in self
            .key_versions
            .range::<&[u8]>(range.bounds())
            .map_err(backend_error)?
        {
            let (k, _) = entry.map_err(backend_error)?;
            suffixes.push(k.value()[kp.len()..].to_vec());
        }
        if suffixes.is_empty() {
            return Ok(Vec::new());
        }
        let mut removed = Vec::with_capacity(suffixes.len());
        for suffix in &suffixes {
            removed.extend(self.remove_version(owner, suffix)?);
        }
        self.keys.remove(kp.as_slice()).map_err(backend_error)?;
        Ok(removed)
    }
}

/// The key's newest stored version (its key-versions entries sort newest first).
fn newest_of_key(
    key_versions: &impl ReadableTable<&'static [u8], ()>,
    versions: &impl ReadableTable<&'static [u8], &'static [u8]>,
    owner: &[u8],
    kp: &[u8],
) -> Result<Option<AgentMemory>, Error> {
    let range = PrefixRange::new(kp);
    let Some(first) = key_versions
        .range::<&[u8]>(range.bounds())
        .map_err(backend_error)?
        .next()
    else {
        return Ok(None);
    };
    let (k, _) = first.map_err(backend_error)?;
    read_version(versions, &concat(&[owner, &k.value()[kp.len()..]]))
}

fn read_key_entry(
    keys: &impl ReadableTable<&'static [u8], &'static [u8]>,
    kp: &[u8],
) -> Result<Option<KeyEntry>, Error> {
    keys.get(kp)
        .map_err(backend_error)?
        .map(|v| KeyEntry::decode(v.value()).ok_or_else(|| corrupt("short key entry")))
        .transpose()
}

fn read_version(
    versions: &impl ReadableTable<&'static [u8], &'static [u8]>,
    key: &[u8],
) -> Result<Option<AgentMemory>, Error> {
    versions
        .get(key)
        .map_err(backend_error)?
        .map(|v| decode(v.value()))
        .transpose()
}

/// The owner's version `id`, through the id index.
fn read_by_id(
    ids: &impl ReadableTable<&'static [u8], i64>,
    versions: &impl ReadableTable<&'static [u8], &'static [u8]>,
    owner: &[u8],
    id: &AgentMemoryId,
) -> Result<Option<(Vec<u8>, AgentMemory)>, Error> {
    let Some(created_at) = ids
        .get(concat(&[owner, id.as_str().as_bytes()]).as_slice())
        .map_err(backend_error)?
        .map(|v| v.value())
    else {
        return Ok(None);
    };
    let suffix = version_suffix(timestamp(created_at)?, id);
    let found = read_version(versions, &concat(&[owner, &suffix]))?;
    Ok(found.map(|m| (suffix, m)))
}

/// The owner's stored versions with `created_at > cutoff`: the stored count less the expired
/// ones not purged yet, counted from the oldest end of the owner's range.
fn unexpired(
    counts: &impl ReadableTable<&'static [u8], u64>,
    versions: &impl ReadableTable<&'static [u8], &'static [u8]>,
    owner: &[u8],
    cutoff: Timestamp,
) -> Result<u64, Error> {
    let stored = counts
        .get(owner)
        .map_err(backend_error)?
        .map_or(0, |v| v.value());
    let range = PrefixRange::new(owner);
    let mut expired = 0_u64;
    for entry in versions
        .range::<&[u8]>(range.bounds())
        .map_err(backend_error)?
        .rev()
    {
        let (k, _) = entry.map_err(backend_error)?;
        if suffix_created_at(&k.value()[owner.len()..])? > cutoff {
            break;
        }
        expired += 1;
    }
    Ok(stored.saturating_sub(expired))
}

/// Removes every entry of `table` whose key starts with `prefix`; returns how many.
fn clear_range<V: ::redb::Value + 'static>(
    table: &mut Table<'_, &'static [u8], V>,
    prefix: &[u8],
) -> Result<u64, Error> {
    let range = PrefixRange::new(prefix);
    let mut removed = 0;
    for entry in table
        .extract_from_if::<&[u8], _>(range.bounds(), |_, _| true)
        .map_err(backend_error)?
    {
        entry.map_err(backend_error)?;
        removed += 1;
    }
    Ok(removed)
}

fn decode(bytes: &[u8]) -> Result<AgentMemory, Error> {
    crate::codec::decode(bytes).map_err(|e| corrupt(&format!("undecodable version: {e}")))
}

fn encode(memory: &AgentMemory) -> Result<Vec<u8>, Error> {
    crate::codec::encode(memory)
        .map_err(|e| Error::Backend(format!("cannot encode a version: {e}")))
}

fn corrupt(what: &str) -> Error {
    Error::Backend(format!("corrupt redb store: {what}"))
}

fn timestamp(millis: i64) -> Result<Timestamp, Error> {
    Timestamp::from_millis(millis).map_err(|_| corrupt("timestamp out of range"))
}

// ---- Key encoding (docs/storage-redb.md, "Keys") ----

/// The length of the (workspace, member) prefix a stored key starts with.
fn owner_prefix_len(key: &[u8]) -> Result<usize, Error> {
    let mut at = 0;
    for _ in 0..2 {
        let len = key
            .get(at..)
            .and_then(<[u8]>::first_chunk::<4>)
            .ok_or_else(|| corrupt("short key"))?;
        let len = usize::try_from(u32::from_be_bytes(*len)).map_err(|_| corrupt("long key"))?;
        at = at.saturating_add(4).saturating_add(len);
    }
    if at > key.len() {
        return Err(corrupt("short key"));
    }
    Ok(at)
}

/// A version's position after its owner prefix: `created_at` then the id, both descending, so
/// that a forward walk is newest first.
fn version_suffix(created_at: Timestamp, id: &AgentMemoryId) -> Vec<u8> {
    let id = id.as_str().as_bytes();
    let mut out = Vec::with_capacity(8 + id.len() + 1);
    // Flipping the sign bit orders i64 as u64; inverting every bit reverses that order.
    let ascending = (created_at.as_millis() as u64) ^ (1 << 63);
    out.extend_from_slice(&(!ascending).to_be_bytes());
    // Inverted bytes reverse the order of ids of equal length; the 0xFF terminator puts a longer
    // id before its prefix (ids never contain NUL, so no inverted byte is 0xFF).
    out.extend(id.iter().map(|b| !b));
    out.push(0xFF);
    out
}

fn suffix_created_at(suffix: &[u8]) -> Result<Timestamp, Error> {
    let head = suffix
        .first_chunk::<8>()
        .ok_or_else(|| corrupt("short version key"))?;
    let millis = (!u64::from_be_bytes(*head) ^ (1 << 63)) as i64;
    timestamp(millis)
}

fn concat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The keys starting with a prefix: from the prefix itself up to its successor, the prefix with
/// its last byte below 0xFF incremented and the rest dropped (unbounded when there is none).
struct PrefixRange {
    start: Vec<u8>,
    end: Option<Vec<u8>>,
}

impl PrefixRange {
    fn new(prefix: &[u8]) -> Self {
        let end = prefix.iter().rposition(|b| *b != 0xFF).map(|at| {
            let mut end = prefix[..=at].to_vec();
            end[at] += 1;
            end
        });
        PrefixRange {
            start: prefix.to_vec(),
            end,
        }
    }

    fn bounds(&self) -> (Bound<&[u8]>, Bound<&[u8]>) {
        (Bound::Included(&self.start), self.upper())
    }

    fn upper(&self) -> Bound<&[u8]> {
        self.end
            .as_deref()
            .map_or(Bound::Unbounded, Bound::Excluded)
    }
}

impl Backend for RedbBackend {
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        let op = owner_prefix(owner);
        let wk = window_key(&owner.workspace, credential);
        let kp = key.map(|(namespace, key)| key_prefix(&op, namespace, key));
        self.write(|t| {
            // Read: every part of the state is a point read, the count's expired tail aside.
            let stored_window = match t.windows.get(wk.as_slice()).map_err(backend_error)? {
                Some(v) => decode_stored_window(v.value())?,
                None => Vec::new(),
            };
            let entry = match &kp {
                Some(kp) => read_key_entry(&t.keys, kp)?.unwrap_or_default(),
                None => KeyEntry::default(),
            };
            let current = match &entry.current {
                Some(suffix) => read_version(&t.versions, &concat(&[&op, suffix]))?,
                None => None,
            };
            let state = RememberState {
                window: stored_window
                    .iter()
                    .copied()
                    .filter(|at| *at > window_start)
                    .collect(),
                stored_versions: unexpired(&t.counts, &t.versions, &op, expired_cutoff)?,
                current,
                last_version: entry.last_version,
            };
            let latest = match &kp {
                Some(kp) => newest_of_key(&t.key_versions, &t.versions, &op, kp)?
                    .map(|m| latest_instant(&m))
                    .max(state.current.as_ref().map(|c| c.created_at)),
                None => None,
            };

            // Decide.
            let write = match decide(&state) {
                Ok(write) => write,
                Err(refusal) => return Ok(Finish::Discard(RememberOutcome::Refused(refusal))),
            };
            let mut record = write.record;
            let id_key = concat(&[&op, record.id.as_str().as_bytes()]);
            let id_taken = t
                .ids
                .get(id_key.as_slice())
                .map_err(backend_error)?
                .is_some();
            check_decided_write(owner, credential, key, &record, id_taken)
                .map_err(Error::InvalidWrite)?;
            if kp.is_some() {
                record.created_at = key_instant(record.created_at, latest);
            }

            // Write all of it.
            let mut window = stored_window;
            let at = window.partition_point(|i| *i <= record.created_at);
            window.insert(at, record.created_at);
            window.retain(|i| *i > window_start);
            t.windows
                .insert(wk.as_slice(), encode_window(&window).as_slice())
                .map_err(backend_error)?;

            let suffix = version_suffix(record.created_at, &record.id);
            let mut superseded = None;
            if let Some(kp) = &kp {
                let previous = entry.current;
                let entry = KeyEntry {
                    last_version: entry.last_version.max(record.version),
                    current: Some(suffix.clone()),
                };
                t.keys
                    .insert(kp.as_slice(), entry.encode().as_slice())
                    .map_err(backend_error)?;
                t.key_versions
                    .insert(concat(&[kp, &suffix]).as_slice(), ())
                    .map_err(backend_error)?;
                if write.supersede_current
                    && let Some(previous) = previous
                {
                    let previous_key = concat(&[&op, &previous]);
                    if let Some(mut old) = read_version(&t.versions, &previous_key)? {
                        old.superseded_at = Some(record.created_at);
                        t.versions
                            .insert(previous_key.as_slice(), encode(&old)?.as_slice())
                            .map_err(backend_error)?;
                        superseded = Some(old);
                    }
                }
            }
            t.versions
                .insert(
                    concat(&[&op, &suffix]).as_slice(),
                    encode(&record)?.as_slice(),
                )
                .map_err(backend_error)?;
            t.ids
                .insert(id_key.as_slice(), record.created_at.as_millis())
                .map_err(backend_error)?;
            t.add_count(&op, 1)?;
            Ok(Finish::Commit(RememberOutcome::Written {
                record,
                superseded,
            }))
        })
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        let (_guard, txn) = self.read()?;
        let ids = txn.open_table(IDS).map_err(backend_error)?;
        let versions = txn.open_table(VERSIONS).map_err(backend_error)?;
        Ok(read_by_id(&ids, &versions, &owner_prefix(owner), id)?.map(|(_, m)| m))
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        let (_guard, txn) = self.read()?;
        let keys = txn.open_table(KEYS).map_err(backend_error)?;
        let op = owner_prefix(owner);
        let Some(suffix) =
            read_key_entry(&keys, &key_prefix(&op, namespace, key))?.and_then(|e| e.current)
        else {
            return Ok(None);
        };
        let versions = txn.open_table(VERSIONS).map_err(backend_error)?;
        read_version(&versions, &concat(&[&op, &suffix]))
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
        let op = owner_prefix(owner);
        self.write(|t| {
            let Some((suffix, mut memory)) = read_by_id(&t.ids, &t.versions, &op, id)? else {
                return Ok(Finish::Discard(false));
            };
            memory.ranking.embedding = Some(embedding.clone());
            t.versions
                .insert(
                    concat(&[&op, &suffix]).as_slice(),
                    encode(&memory)?.as_slice(),
                )
                .map_err(backend_error)?;
            Ok(Finish::Commit(true))
        })
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        let op = owner_prefix(owner);
        self.write(|t| {
            let removed = t.forget_key(&op, namespace, key)?;
            Ok(if removed.is_empty() {
                Finish::Discard(removed)
            } else {
                Finish::Commit(removed)
            })
        })
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        let op = owner_prefix(owner);
        self.write(|t| {
            let Some((suffix, memory)) = read_by_id(&t.ids, &t.versions, &op, id)? else {
                return Ok(Finish::Discard(Vec::new()));
            };
            let removed = match &memory.key {
                Some(key) => t.forget_key(&op, &memory.namespace, key)?,
                None => t.remove_version(&op, &suffix)?.into_iter().collect(),
            };
            Ok(Finish::Commit(removed))
        })
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        self.delete_prefix(&owner_prefix(owner))
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        // The workspace prefix covers every member's owner prefix; windows and settings live in
        // other tables and stay.
        self.delete_prefix(&workspace_prefix(workspace))
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        self.purge(workspace, |created_at, _| Ok(created_at <= cutoff))
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        self.purge(workspace, |_, bytes| {
            Ok(decode(bytes)?.cites_document(document_id))
        })
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        self.purge(workspace, |_, bytes| {
            Ok(decode(bytes)?.touches_collection(collection_id))
        })
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        let (_guard, txn) = self.read()?;
        let counts = txn.open_table(COUNTS).map_err(backend_error)?;
        let versions = txn.open_table(VERSIONS).map_err(backend_error)?;
        unexpired(&counts, &versions, &owner_prefix(owner), expired_cutoff)
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        let (_guard, txn) = self.read()?;
        let settings = txn.open_table(SETTINGS).map_err(backend_error)?;
        settings
            .get(workspace_prefix(workspace).as_slice())
            .map_err(backend_error)?
            .map(|v| {
                serde_json::from_slice(v.value())
                    .map_err(|e| corrupt(&format!("undecodable settings: {e}")))
            })
            .transpose()
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let (_guard, txn) = self.begin_write()?;
        {
            let mut table = txn.open_table(SETTINGS).map_err(backend_error)?;
            table
                .insert(
                    workspace_prefix(workspace).as_slice(),
                    serde_json::to_vec(settings)
                        .map_err(|e| Error::Backend(format!("cannot encode settings: {e}")))?
                        .as_slice(),
                )
                .map_err(backend_error)?;
        }
        txn.commit().map_err(backend_error)
    }
}

/// The memory-store table of one transaction as a [`KvRead`].
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

/// A database created before memory stores existed has no memory-store table: nothing in it.
struct EmptyView;

impl KvRead for EmptyView {
    fn get(&self, _key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(None)
    }

    fn range(
        &self,
        _start: &[u8],
        _end: &[u8],
        _reverse: bool,
        _visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        Ok(())
    }
}

impl Kv for RedbBackend {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let (_guard, txn) = self.read()?;
        match txn.open_table(STORES) {
            Ok(table) => f(&TableView(&table)),
            Err(::redb::TableError::TableDoesNotExist(_)) => f(&EmptyView),
            Err(e) => Err(backend_error(e)),
        }
    }

    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let (_guard, txn) = self.begin_write()?;
        let out = {
            let mut table = txn.open_table(STORES).map_err(backend_error)?;
            let (out, ops) = f(&TableView(&table))?;
            if ops.is_empty() {
                drop(table);
                txn.abort().map_err(backend_error)?;
                return Ok(out);
            }
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
            out
        };
        txn.commit().map_err(backend_error)?;
        Ok(out)
    }
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

/// Copies every table of `db` into a new database at `tmp`, committed durably; the entries
/// copied.
fn copy_database(db: &Database, tmp: &Path, progress: &dyn Fn(u64, u64)) -> Result<u64, Error> {
    let src = db.begin_read().map_err(backend_error)?;
    let total = table_len(&src, META)?
        + table_len(&src, VERSIONS)?
        + table_len(&src, IDS)?
        + table_len(&src, KEYS)?
        + table_len(&src, KEY_VERSIONS)?
        + table_len(&src, COUNTS)?
        + table_len(&src, WINDOWS)?
        + table_len(&src, SETTINGS)?
        + table_len(&src, STORES)?;
    let mut copied = 0;
    let fresh = Database::create(tmp).map_err(backend_error)?;
    let mut dst = fresh.begin_write().map_err(backend_error)?;
    dst.set_durability(::redb::Durability::Immediate)
        .map_err(backend_error)?;
    let c = &mut copied;
    copy_table(&src, &dst, META, c, total, progress)?;
    copy_table(&src, &dst, VERSIONS, c, total, progress)?;
    copy_table(&src, &dst, IDS, c, total, progress)?;
    copy_table(&src, &dst, KEYS, c, total, progress)?;
    copy_table(&src, &dst, KEY_VERSIONS, c, total, progress)?;
    copy_table(&src, &dst, COUNTS, c, total, progress)?;
    copy_table(&src, &dst, WINDOWS, c, total, progress)?;
    copy_table(&src, &dst, SETTINGS, c, total, progress)?;
    copy_table(&src, &dst, STORES, c, total, progress)?;
    dst.commit().map_err(backend_error)?;
    progress(copied, total);
    Ok(copied)
}

/// Removes what a failed vacuum wrote. A failure to do so is not answered: the vacuum's own
/// error is the one to report, and the next vacuum removes a stale copy anyway.
fn remove_partial_copy(tmp: &Path) {
    let _ = std::fs::remove_file(tmp);
}

impl RedbBackend {
    /// Rewrites the file: copies every table's live entries into a new file next to it
    /// (`<file>.vacuum`), commits it durably, then renames it over the old file and reopens.
    /// A failed copy (a full disk) is removed and the old file stays in use; a crash before the
    /// rename leaves the old file as it was (and a stale `.vacuum` file that the next vacuum
    /// replaces).
    fn vacuum_database(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        if self.read_only.is_some() {
            return Err(read_only_error());
        }
        let mut slot = self.db.write().unwrap_or_else(PoisonError::into_inner);
        let Some(db) = slot.as_ref() else {
            return Err(Error::Backend(
                "the database could not be reopened after a vacuum; open it again".into(),
            ));
        };
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
        let synced = crate::durability::sync_parent_dir(&self.path);
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
}

impl_store_backend!(RedbBackend);

/// A stored rate window, or a corruption error.
fn decode_stored_window(bytes: &[u8]) -> Result<Vec<Timestamp>, Error> {
    crate::keys::decode_window(bytes).ok_or_else(|| corrupt("rate window"))
}

#[cfg(test)]
mod tests {
    use memory_core::MemberId;

    use super::*;

    fn id(s: &str) -> AgentMemoryId {
        AgentMemoryId::parse(s).unwrap()
    }

    #[test]
    fn version_suffixes_sort_newest_first() {
        let instants = [
            Timestamp::MIN,
            Timestamp::from_millis(-1).unwrap(),
            Timestamp::UNIX_EPOCH,
        ]
        .into_iter()
        .chain([Timestamp::from_millis(1).unwrap(), Timestamp::MAX]);
        let ids = [
            "amem_1", "amem_10", "amem_1_", "amem_2", "amem_A", "amem_a", "amem_-",
        ];
        let mut versions: Vec<(Timestamp, AgentMemoryId)> = instants
            .flat_map(|t| ids.iter().map(move |i| (t, id(i))))
            .collect();
        let mut by_suffix = versions.clone();
        by_suffix.sort_by_key(|(t, i)| version_suffix(*t, i));
        versions.sort_by(|a, b| b.cmp(a));
        assert_eq!(by_suffix, versions);
        for (t, i) in &versions {
            assert_eq!(suffix_created_at(&version_suffix(*t, i)).unwrap(), *t);
        }
    }

    #[test]
    fn components_are_length_delimited() {
        let a = owner_prefix(&Owner::new(
            WorkspaceId::new("a").unwrap(),
            MemberId::new("bc").unwrap(),
        ));
        let ab = owner_prefix(&Owner::new(
            WorkspaceId::new("ab").unwrap(),
            MemberId::new("c").unwrap(),
        ));
        assert_ne!(a, ab);
        assert!(!ab.starts_with(&workspace_prefix(&WorkspaceId::new("a").unwrap())));
        assert_eq!(
            owner_prefix_len(&concat(&[&a, b"suffix"])).unwrap(),
            a.len()
        );
        assert!(owner_prefix_len(&a[..a.len() - 1]).is_err());
        assert!(!key_prefix(&a, "n", "k_").starts_with(&key_prefix(&a, "n", "k")));
    }

    #[test]
    fn prefix_ranges_end_at_the_successor() {
        assert_eq!(PrefixRange::new(&[1, 2]).end, Some(vec![1, 3]));
        assert_eq!(PrefixRange::new(&[1, 0xFF]).end, Some(vec![2]));
        assert_eq!(PrefixRange::new(&[0xFF, 0xFF]).end, None);
    }
}

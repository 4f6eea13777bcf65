//! The file-system layer: each file operation of the mount mapped to calls of the facade's agent
//! file interface (acting as the session) and to an errno. Nothing here speaks the FUSE protocol —
//! `fuse.rs` decodes requests and encodes replies — so the whole mapping is unit-tested without a
//! kernel.
//!
//! Paths are kept relative to the mount directory (`""` is the directory of mounts, `notes` a
//! mount root, `notes/a/b.md` the memory `/a/b.md` of the mount `notes`) and become the agent
//! paths `/mnt/memory/<rel>` of the facade. Inode numbers are handed out once per path and kept
//! for the life of the filesystem object; a rename moves the number with the file.
//!
//! Writes are buffered per open file handle: the content a handle reads at `open` (and its hash)
//! is edited in memory by `write` and `truncate`, and committed as one version when the handle is
//! flushed (each `close`) or released. A file opened for an existing memory commits with a
//! `content_sha256` precondition on the hash it read, and a file this handle created commits with
//! an exclusive create: when another writer changed, deleted or created the memory in between,
//! the commit is refused as a whole (`EIO`) and the other writer's version stays as it is.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use agent_memory::{ApiError, ErrorCode, FsStat, SessionCaller, StoreService};
use fuser::Errno;
use memory_core::session::{FsEntry, MOUNT_ROOT};
use memory_core::{Precondition, StoreMemory, Timestamp};

pub(crate) use state::ROOT_INO;
use state::{Handle, State, at_or_under, join, parent_of};

/// The largest file: a memory's content limit, 102,400 bytes.
pub(crate) const MAX_FILE_BYTES: usize = StoreMemory::CONTENT_MAX_BYTES;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Dir,
    File,
}

/// The attributes of a node, as `getattr` reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Attr {
    pub(crate) ino: u64,
    pub(crate) kind: Kind,
    /// Bytes: the memory's `content_size_bytes`, or the buffer of a file being written.
    pub(crate) size: u64,
    /// The mount is read-only (or this is the directory of mounts).
    pub(crate) read_only: bool,
    /// The memory's `updated_at` (mtime and ctime).
    pub(crate) modified: SystemTime,
    /// The memory's `created_at`.
    pub(crate) created: SystemTime,
}

/// What `open` and `create` were asked for (decoded from the open(2) flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct OpenMode {
    /// `O_WRONLY` or `O_RDWR`.
    pub(crate) write: bool,
    /// `O_TRUNC`.
    pub(crate) truncate: bool,
    /// `O_APPEND`: every write goes to the end.
    pub(crate) append: bool,
    /// `O_EXCL` (with `O_CREAT`): an existing file is `EEXIST`.
    pub(crate) exclusive: bool,
}

pub(crate) type FsResult<T> = Result<T, Errno>;

/// The errno a refusal of the facade becomes.
pub(crate) fn errno(err: &ApiError) -> Errno {
    match err.code() {
        ErrorCode::MemoryNotFound | ErrorCode::MemoryStoreNotFound | ErrorCode::SessionNotFound => {
            Errno::ENOENT
        }
        // An archived store is read-only too.
        ErrorCode::MemoryStoreReadOnly | ErrorCode::MemoryStoreArchived => Errno::EROFS,
        ErrorCode::MemoryTooLarge => Errno::EFBIG,
        ErrorCode::MemoryPathInvalid | ErrorCode::MemoryInvalidRequest => Errno::EINVAL,
        ErrorCode::MemoryPathConflict => Errno::EEXIST,
        // The store's policy refuses the content, or a path with personal data.
        ErrorCode::MemoryPersonalData | ErrorCode::MemoryPathPersonalData => Errno::EPERM,
        // A lost optimistic-concurrency race, and anything else: the write did not happen.
        _ => Errno::EIO,
    }
}

/// The agent path of `rel` (`/mnt/memory/<rel>`).
fn agent_path(rel: &str) -> String {
    format!("{MOUNT_ROOT}{rel}")
}

fn system_time(t: Timestamp) -> SystemTime {
    let ms = t.as_millis();
    if ms >= 0 {
        SystemTime::UNIX_EPOCH + Duration::from_millis(ms.unsigned_abs())
    } else {
        SystemTime::UNIX_EPOCH - Duration::from_millis(ms.unsigned_abs())
    }
}

/// A session's mounts as a file system.
pub(crate) struct MemoryFs {
    service: Arc<StoreService>,
    caller: SessionCaller,
    /// Directories have no times of their own: they show the mount's start.
    mounted_at: SystemTime,
    state: Mutex<State>,
}

impl MemoryFs {
    pub(crate) fn new(service: Arc<StoreService>, caller: SessionCaller) -> Self {
        MemoryFs {
            service,
            caller,
            mounted_at: SystemTime::now(),
            state: Mutex::new(State::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves no half-made change worth refusing service for:
        // every change to storage is one facade call.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn dir_attr(&self, ino: u64, read_only: bool) -> Attr {
        Attr {
            ino,
            kind: Kind::Dir,
            size: 0,
            read_only,
            modified: self.mounted_at,
            created: self.mounted_at,
        }
    }

    /// What is at `rel`: a file being created here, what the facade finds, or a directory made
    /// with `mkdir`.
    fn stat(&self, st: &mut State, rel: &str) -> FsResult<Attr> {
        if let Some(ino) = st.inodes.get(rel)
            && let Some(h) = st.pending(ino)
        {
            return Ok(Attr {
                ino,
                kind: Kind::File,
                size: h.buffer.len() as u64,
                read_only: false,
                modified: h.opened,
                created: h.opened,
            });
        }
        match self.service.fs_stat_path(&self.caller, &agent_path(rel)) {
            Ok(FsStat::File { memory, read_only }) => {
                let ino = st.inodes.ino(rel);
                Ok(Attr {
                    ino,
                    kind: Kind::File,
                    size: st.unsaved_size(ino).unwrap_or(memory.content_size_bytes),
                    read_only,
                    modified: system_time(memory.updated_at),
                    created: system_time(memory.created_at),
                })
            }
            Ok(FsStat::Dir { read_only }) => Ok(self.dir_attr(st.inodes.ino(rel), read_only)),
            // Nothing can be written into the directory of mounts itself.
            Ok(FsStat::Mounts) => Ok(self.dir_attr(ROOT_INO, true)),
            Ok(_) => Err(Errno::EIO),
            Err(e) if e.code() == ErrorCode::MemoryNotFound && st.dirs.contains(rel) => {
                Ok(self.dir_attr(st.inodes.ino(rel), false))
            }
            // A name in the directory of mounts that is no mount is simply not there.
            Err(e) if e.code() == ErrorCode::MemoryPathInvalid && !rel.contains('/') => {
                Err(Errno::ENOENT)
            }
            Err(e) => Err(errno(&e)),
        }
    }

    /// [`Self::stat`] with "not there" as `None`.
    fn stat_if_any(&self, st: &mut State, rel: &str) -> FsResult<Option<Attr>> {
        match self.stat(st, rel) {
            Ok(attr) => Ok(Some(attr)),
            Err(e) if e == Errno::ENOENT => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The entries directly in the directory `rel`: from storage, made with `mkdir`, or being
    /// created; sorted by name.
    fn entries(&self, st: &State, rel: &str) -> FsResult<BTreeMap<String, Kind>> {
        let listing = self
            .service
            .fs_list_path(&self.caller, &agent_path(rel))
            .map_err(|e| errno(&e))?;
        let mut entries: BTreeMap<String, Kind> = listing
            .entries
            .into_iter()
            .map(|e| match e {
                FsEntry::Dir { name } => (name, Kind::Dir),
                FsEntry::File { name, .. } => (name, Kind::File),
            })
            .collect();
        let below = |p: &String| parent_of(p) == Some(rel);
        for dir in st.dirs.iter().filter(|d| below(d)) {
            let name = dir.rsplit('/').next().unwrap_or(dir);
            entries.entry(name.to_owned()).or_insert(Kind::Dir);
        }
        for file in st.pending_paths().iter().filter(|p| below(p)) {
            let name = file.rsplit('/').next().unwrap_or(file);
            entries.entry(name.to_owned()).or_insert(Kind::File);
        }
        Ok(entries)
    }

    // -----------------------------------------------------------------------------------------
    // The operations

    /// `lookup`: the attributes of `name` in the directory `parent`.
    pub(crate) fn lookup(&self, parent: u64, name: &OsStr) -> FsResult<Attr> {
        let mut st = self.lock();
        let rel = st.child(parent, name)?;
        self.stat(&mut st, &rel)
    }

    /// `getattr`.
    pub(crate) fn getattr(&self, ino: u64) -> FsResult<Attr> {
        let mut st = self.lock();
        let rel = st.inodes.path(ino)?;
        self.stat(&mut st, &rel)
    }

    /// The inode of the parent of directory `ino` (the root is its own parent).
    pub(crate) fn parent(&self, ino: u64) -> FsResult<u64> {
        let mut st = self.lock();
        let rel = st.inodes.path(ino)?;
        Ok(parent_of(&rel).map_or(ROOT_INO, |p| st.inodes.ino(p)))
    }

    /// `readdir`: the entries of directory `ino` (without `.` and `..`), sorted by name.
    pub(crate) fn readdir(&self, ino: u64) -> FsResult<Vec<(u64, Kind, String)>> {
        let mut st = self.lock();
        let rel = st.inodes.path(ino)?;
        if self.stat(&mut st, &rel)?.kind == Kind::File {
            return Err(Errno::ENOTDIR);
        }
        let entries = self.entries(&st, &rel)?;
        Ok(entries
            .into_iter()
            .map(|(name, kind)| (st.inodes.ino(&join(&rel, &name)), kind, name))
            .collect())
    }

    /// `open`: reads the content and its hash into a new handle.
    pub(crate) fn open(&self, ino: u64, mode: OpenMode) -> FsResult<u64> {
        let mut st = self.lock();
        let rel = st.inodes.path(ino)?;
        self.open_rel(&mut st, &rel, ino, mode)
    }

    fn open_rel(&self, st: &mut State, rel: &str, ino: u64, mode: OpenMode) -> FsResult<u64> {
        let truncate = mode.write && mode.truncate;
        let opened = SystemTime::now();
        // A file another handle is creating: start from its buffer; the first to commit creates.
        if let Some(h) = st.pending(ino) {
            let buffer = if truncate {
                Vec::new()
            } else {
                h.buffer.clone()
            };
            return Ok(st.add_handle(Handle {
                ino,
                buffer,
                base: None,
                dirty: truncate,
                writable: mode.write,
                append: mode.append,
                discarded: false,
                refused: None,
                writer: None,
                opened,
            }));
        }
        if mode.write {
            let attr = self.stat(st, rel)?;
            if attr.kind == Kind::Dir {
                return Err(Errno::EISDIR);
            }
            if attr.read_only {
                return Err(Errno::EROFS);
            }
            // A file stored under a path its store now refuses can be read, moved or removed,
            // not written: say so at the open rather than at the close.
            self.check_write(rel)?;
        }
        let read = self
            .service
            .fs_read_path(&self.caller, &agent_path(rel))
            .map_err(|e| errno(&e))?;
        // Truncating an empty file changes nothing: no version.
        let dirty = truncate && !read.content.is_empty();
        let buffer = if truncate {
            Vec::new()
        } else {
            read.content.into_bytes()
        };
        Ok(st.add_handle(Handle {
            ino,
            buffer,
            base: Some(read.content_sha256),
            dirty,
            writable: mode.write,
            append: mode.append,
            discarded: false,
            refused: None,
            writer: None,
            opened,
        }))
    }

    /// `create`: a new, empty file open for writing; nothing is stored until it is committed
    /// (so `echo text > new` writes one `created` version). An existing file is opened as
    /// `open` would (truncated when asked), or refused with `EEXIST` under `O_EXCL`.
    pub(crate) fn create(
        &self,
        parent: u64,
        name: &OsStr,
        mode: OpenMode,
    ) -> FsResult<(Attr, u64)> {
        let mut st = self.lock();
        let rel = st.child(parent, name)?;
        // The stat also validates the name: an invalid path is EINVAL before anything else.
        match self.stat_if_any(&mut st, &rel)? {
            Some(attr) if attr.kind == Kind::Dir => return Err(Errno::EISDIR),
            Some(_) if mode.exclusive => return Err(Errno::EEXIST),
            Some(attr) => {
                let mode = OpenMode {
                    write: true,
                    ..mode
                };
                let fh = self.open_rel(&mut st, &rel, attr.ino, mode)?;
                let attr = self.stat(&mut st, &rel)?;
                return Ok((attr, fh));
            }
            None => {}
        }
        let parent_rel = parent_of(&rel).ok_or(Errno::EINVAL)?;
        if parent_rel.is_empty() {
            // The directory of mounts holds the session's mounts only.
            return Err(Errno::EPERM);
        }
        if self.stat(&mut st, parent_rel)?.read_only {
            return Err(Errno::EROFS);
        }
        // A name the store refuses (personal data in a path) is refused now, not at the close.
        self.check_write(&rel)?;
        let ino = st.inodes.ino(&rel);
        let opened = SystemTime::now();
        let fh = st.add_handle(Handle {
            ino,
            buffer: Vec::new(),
            base: None,
            dirty: true,
            writable: true,
            append: mode.append,
            discarded: false,
            refused: None,
            writer: None,
            opened,
        });
        Ok((
            Attr {
                ino,
                kind: Kind::File,
                size: 0,
                read_only: false,
                modified: opened,
                created: opened,
            },
            fh,
        ))
    }

    /// `read` from the handle's buffer.
    pub(crate) fn read(&self, fh: u64, offset: u64, size: u32) -> FsResult<Vec<u8>> {
        let mut st = self.lock();
        let h = st.handle(fh)?;
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(h.buffer.len());
        let end = start.saturating_add(size as usize).min(h.buffer.len());
        Ok(h.buffer[start..end].to_vec())
    }

    /// `write` into the handle's buffer by the lock owner `owner`. Past 102,400 bytes the write
    /// is refused with `EFBIG`, and the whole unsaved content of the handle is abandoned: an
    /// overwrite that does not fit leaves the stored file as it was.
    pub(crate) fn write(
        &self,
        fh: u64,
        offset: u64,
        data: &[u8],
        owner: Option<u64>,
    ) -> FsResult<u32> {
        let mut st = self.lock();
        let h = st.handle(fh)?;
        if !h.writable {
            return Err(Errno::EBADF);
        }
        h.writer = owner.or(h.writer);
        let start = if h.append {
            h.buffer.len()
        } else {
            usize::try_from(offset).unwrap_or(usize::MAX)
        };
        let end = start.saturating_add(data.len());
        if end > MAX_FILE_BYTES {
            h.refused = Some(Errno::EFBIG);
            return Err(Errno::EFBIG);
        }
        if h.buffer.len() < end {
            h.buffer.resize(end, 0);
        }
        h.buffer[start..end].copy_from_slice(data);
        h.dirty = true;
        u32::try_from(data.len()).map_err(|_| Errno::EFBIG)
    }

    /// `truncate` / `ftruncate` (a `setattr` with a size): through the handle `fh` or an open
    /// writable handle of the file, else at once, as one version with a precondition.
    pub(crate) fn truncate(&self, ino: u64, fh: Option<u64>, size: u64) -> FsResult<Attr> {
        let mut st = self.lock();
        let rel = st.inodes.path(ino)?;
        let size = usize::try_from(size).map_err(|_| Errno::EFBIG)?;
        if size > MAX_FILE_BYTES {
            return Err(Errno::EFBIG);
        }
        let through = match fh {
            Some(fh) => Some(fh),
            None => st
                .open
                .handles
                .iter()
                .find(|(_, h)| h.ino == ino && h.writable && !h.discarded)
                .map(|(fh, _)| *fh),
        };
        if let Some(fh) = through {
            let h = st.handle(fh)?;
            if !h.writable {
                return Err(Errno::EBADF);
            }
            if h.buffer.len() != size {
                h.buffer.resize(size, 0);
                h.dirty = true;
            }
        } else {
            let attr = self.stat(&mut st, &rel)?;
            if attr.kind == Kind::Dir {
                return Err(Errno::EISDIR);
            }
            if attr.read_only {
                return Err(Errno::EROFS);
            }
            let read = self
                .service
                .fs_read_path(&self.caller, &agent_path(&rel))
                .map_err(|e| errno(&e))?;
            let mut bytes = read.content.into_bytes();
            bytes.resize(size, 0);
            let content = String::from_utf8(bytes).map_err(|_| Errno::EILSEQ)?;
            let precondition = Precondition::ContentSha256 {
                content_sha256: read.content_sha256,
            };
            self.service
                .fs_write_path(&self.caller, &agent_path(&rel), content, Some(precondition))
                .map_err(|e| lost_race(&e, Errno::EIO))?;
        }
        self.stat(&mut st, &rel)
    }

    /// Attributes for a `setattr` that changes no size (mode, owner and times are not kept).
    pub(crate) fn setattr_other(&self, ino: u64) -> FsResult<Attr> {
        self.getattr(ino)
    }

    /// `flush` (each `close` of a descriptor, by lock owner `owner`): commits the handle's
    /// buffer, unless the last write came from another owner (see `Handle::writer`).
    pub(crate) fn flush(&self, fh: u64, owner: u64) -> FsResult<()> {
        let mut st = self.lock();
        if st.handle(fh)?.writer.is_some_and(|w| w != owner) {
            return Ok(());
        }
        self.commit(&mut st, fh)
    }

    /// `fsync`: commits the handle's buffer.
    pub(crate) fn fsync(&self, fh: u64) -> FsResult<()> {
        let mut st = self.lock();
        self.commit(&mut st, fh)
    }

    /// `release` (the last close): commits what is left and forgets the handle.
    pub(crate) fn release(&self, fh: u64) -> FsResult<()> {
        let mut st = self.lock();
        let result = self.commit(&mut st, fh);
        st.open.handles.remove(&fh);
        result
    }

    /// Commits every handle still holding unsaved content (the mount is going away).
    pub(crate) fn commit_all(&self) {
        let mut st = self.lock();
        let handles: Vec<u64> = st.open.handles.keys().copied().collect();
        for fh in handles {
            if let Err(e) = self.commit(&mut st, fh) {
                tracing::warn!(errno = ?e, "an open file could not be saved at unmount");
            }
        }
    }

    /// Writes the handle's buffer as one version: an update with a precondition on the hash the
    /// buffer started from, or an exclusive create for a file this handle made. A lost race with
    /// another writer is `EIO`; nothing of this buffer is stored then, and the buffer is dropped
    /// (later writes through the handle start a new attempt).
    fn commit(&self, st: &mut State, fh: u64) -> FsResult<()> {
        let h = st.handle(fh)?;
        if let Some(refused) = h.refused.take() {
            h.dirty = false;
            return Err(refused);
        }
        if !h.dirty || h.discarded {
            return Ok(());
        }
        h.dirty = false;
        let (ino, base) = (h.ino, h.base.clone());
        let content = String::from_utf8(h.buffer.clone());
        let Some(rel) = st.inodes.by_ino.get(&ino).cloned() else {
            return Ok(());
        };
        // A memory is UTF-8 text.
        let content = content.map_err(|_| Errno::EILSEQ)?;
        let path = agent_path(&rel);
        let written = match &base {
            Some(hash) => {
                let precondition = Precondition::ContentSha256 {
                    content_sha256: hash.clone(),
                };
                self.service
                    .fs_write_path(&self.caller, &path, content, Some(precondition))
                    .map_err(|e| lost_race(&e, Errno::EIO))
            }
            None => self
                .service
                .fs_create_path(&self.caller, &path, content)
                .map_err(|e| match e.code() {
                    ErrorCode::MemoryPathConflict => Errno::EIO,
                    _ => errno(&e),
                }),
        }?;
        // Later writes through the handle commit against what it stored.
        st.handle(fh)?.base = Some(written.content_sha256);
        Ok(())
    }

    /// `unlink`: deletes the memory (a `deleted` version); a file still being created is dropped.
    pub(crate) fn unlink(&self, parent: u64, name: &OsStr) -> FsResult<()> {
        let mut st = self.lock();
        let rel = st.child(parent, name)?;
        if let Some(ino) = st.inodes.get(&rel)
            && st.pending(ino).is_some()
        {
            st.discard(ino);
            st.inodes.forget(&rel);
            return Ok(());
        }
        match self.service.fs_delete_path(&self.caller, &agent_path(&rel)) {
            Ok(()) => {}
            Err(e) if e.code() == ErrorCode::MemoryNotFound => {
                return match self.stat(&mut st, &rel)?.kind {
                    Kind::Dir => Err(Errno::EISDIR),
                    Kind::File => Err(Errno::ENOENT),
                };
            }
            Err(e) => return Err(errno(&e)),
        }
        if let Some(ino) = st.inodes.get(&rel) {
            st.discard(ino);
        }
        st.inodes.forget(&rel);
        Ok(())
    }

    /// `mkdir`: the directory lives in this mount's memory until a file is written under it.
    pub(crate) fn mkdir(&self, parent: u64, name: &OsStr) -> FsResult<Attr> {
        let mut st = self.lock();
        let rel = st.child(parent, name)?;
        if !rel.contains('/') {
            return Err(Errno::EPERM);
        }
        if self.stat_if_any(&mut st, &rel)?.is_some() {
            return Err(Errno::EEXIST);
        }
        let parent_rel = parent_of(&rel).unwrap_or("");
        if self.stat(&mut st, parent_rel)?.read_only {
            return Err(Errno::EROFS);
        }
        // Every file under a directory would carry its name.
        self.check_write(&rel)?;
        st.dirs.insert(rel.clone());
        Ok(self.dir_attr(st.inodes.ino(&rel), false))
    }

    /// `rmdir`: only an empty directory made with `mkdir` can go (one with files under it is
    /// `ENOTEMPTY`; a mount root is `EBUSY`).
    pub(crate) fn rmdir(&self, parent: u64, name: &OsStr) -> FsResult<()> {
        let mut st = self.lock();
        let rel = st.child(parent, name)?;
        let attr = self.stat(&mut st, &rel)?;
        if attr.kind == Kind::File {
            return Err(Errno::ENOTDIR);
        }
        if !rel.contains('/') {
            return Err(Errno::EBUSY);
        }
        if !self.entries(&st, &rel)?.is_empty() {
            return Err(Errno::ENOTEMPTY);
        }
        if attr.read_only {
            return Err(Errno::EROFS);
        }
        if !st.dirs.remove(&rel) {
            return Err(Errno::ENOENT);
        }
        st.inodes.forget(&rel);
        Ok(())
    }

    /// `rename` within one mount. A file moves with one `modified` version, replacing a file at
    /// the destination in the same transaction (a `deleted` version for it) unless `no_replace`
    /// (`RENAME_NOREPLACE`: `EEXIST`). A directory moves file by file (one version each; a
    /// directory is no memory, so this is not one transaction) onto a missing or empty one.
    /// Across mounts: `EXDEV` (tools then copy and delete).
    pub(crate) fn rename(
        &self,
        parent: u64,
        name: &OsStr,
        new_parent: u64,
        new_name: &OsStr,
        no_replace: bool,
    ) -> FsResult<()> {
        let mut st = self.lock();
        let from = st.child(parent, name)?;
        let to = st.child(new_parent, new_name)?;
        if from == to {
            return Ok(());
        }
        let (Some((from_mount, _)), Some((to_mount, _))) =
            (from.split_once('/'), to.split_once('/'))
        else {
            // A mount root cannot move, nor can anything become one.
            return Err(if from.contains('/') {
                Errno::EPERM
            } else {
                Errno::EBUSY
            });
        };
        if from_mount != to_mount {
            return Err(Errno::EXDEV);
        }
        let source = self.stat(&mut st, &from)?;
        let dest = self.stat_if_any(&mut st, &to)?;
        if no_replace && dest.is_some() {
            return Err(Errno::EEXIST);
        }
        if source.read_only {
            return Err(Errno::EROFS);
        }
        // The destination names what is stored (a directory's files carry its name): refused
        // before anything moves.
        self.check_write(&to)?;
        match source.kind {
            Kind::File => self.rename_file(&mut st, &from, &to, &source, dest.as_ref(), no_replace),
            Kind::Dir => self.rename_dir(&mut st, &from, &to, dest.as_ref()),
        }
    }

    fn rename_file(
        &self,
        st: &mut State,
        from: &str,
        to: &str,
        source: &Attr,
        dest: Option<&Attr>,
        no_replace: bool,
    ) -> FsResult<()> {
        if dest.is_some_and(|d| d.kind == Kind::Dir) {
            return Err(Errno::EISDIR);
        }
        // A file being created is stored first, so that the rename is a storage rename.
        let creating: Vec<u64> = st
            .open
            .handles
            .iter()
            .filter(|(_, h)| h.ino == source.ino && h.pending())
            .map(|(fh, _)| *fh)
            .collect();
        for fh in creating {
            self.commit(st, fh)?;
        }
        let (from_path, to_path) = (agent_path(from), agent_path(to));
        let moved = if no_replace {
            self.service
                .fs_rename_path(&self.caller, &from_path, &to_path)
        } else {
            self.service
                .fs_rename_replacing_path(&self.caller, &from_path, &to_path)
        };
        moved.map_err(|e| errno(&e))?;
        if let Some(replaced) = dest {
            st.discard(replaced.ino);
        }
        st.inodes.rename(from, to);
        Ok(())
    }

    fn rename_dir(
        &self,
        st: &mut State,
        from: &str,
        to: &str,
        dest: Option<&Attr>,
    ) -> FsResult<()> {
        if let Some(dest) = dest {
            if dest.kind == Kind::File {
                return Err(Errno::ENOTDIR);
            }
            if !self.entries(st, to)?.is_empty() {
                return Err(Errno::ENOTEMPTY);
            }
        }
        if at_or_under(to, from) {
            return Err(Errno::EINVAL);
        }
        // Files being created under the directory are stored first.
        let creating: Vec<u64> = st
            .open
            .handles
            .iter()
            .filter(|(_, h)| h.pending())
            .filter(|(_, h)| {
                st.inodes
                    .by_ino
                    .get(&h.ino)
                    .is_some_and(|p| at_or_under(p, from))
            })
            .map(|(fh, _)| *fh)
            .collect();
        for fh in creating {
            self.commit(st, fh)?;
        }
        for file in self.files_under(from)? {
            let target = format!("{to}{}", &file[from.len()..]);
            self.service
                .fs_rename_path(&self.caller, &agent_path(&file), &agent_path(&target))
                .map_err(|e| errno(&e))?;
        }
        let made: Vec<String> = st
            .dirs
            .iter()
            .filter(|d| at_or_under(d, from))
            .cloned()
            .collect();
        st.dirs.remove(to);
        for dir in made {
            st.dirs.remove(&dir);
            st.dirs.insert(format!("{to}{}", &dir[from.len()..]));
        }
        st.inodes.rename(from, to);
        Ok(())
    }

    /// Whether a file may be stored at `rel` (or under it, for a directory): the facade's
    /// [`StoreService::fs_check_write_path`], as an errno (`EPERM` for a path with personal
    /// data in a store that masks or rejects it).
    fn check_write(&self, rel: &str) -> FsResult<()> {
        self.service
            .fs_check_write_path(&self.caller, &agent_path(rel))
            .map_err(|e| errno(&e))
    }

    /// Every stored file at or under the directory `rel`, depth first.
    fn files_under(&self, rel: &str) -> FsResult<Vec<String>> {
        let listing = self
            .service
            .fs_list_path(&self.caller, &agent_path(rel))
            .map_err(|e| errno(&e))?;
        let mut out = Vec::new();
        for entry in listing.entries {
            match entry {
                FsEntry::File { name, .. } => out.push(join(rel, &name)),
                FsEntry::Dir { name } => out.extend(self.files_under(&join(rel, &name))?),
            }
        }
        Ok(out)
    }
}

/// A refusal that means another writer got there first — the memory changed or was deleted
/// since it was read — becomes `race`; anything else its own errno.
fn lost_race(err: &ApiError, race: Errno) -> Errno {
    match err.code() {
        ErrorCode::MemoryPreconditionFailed | ErrorCode::MemoryNotFound => race,
        _ => errno(err),
    }
}

mod state;
#[cfg(test)]
mod tests;

//! The layer's bookkeeping, apart from the facade: relative paths, inode numbers handed out per
//! path, open file handles with their unsaved buffers, and the directories made with `mkdir`.

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsStr;
use std::time::SystemTime;

use fuser::Errno;

/// The inode of the mount directory (the directory of mounts).
pub(crate) const ROOT_INO: u64 = 1;

pub(super) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}/{name}")
    }
}

/// The parent of `rel` (`""` for a mount root; `None` for the directory of mounts).
pub(super) fn parent_of(rel: &str) -> Option<&str> {
    if rel.is_empty() {
        return None;
    }
    Some(rel.rsplit_once('/').map_or("", |(parent, _)| parent))
}

/// True when `rel` is `dir` or lies under it.
pub(super) fn at_or_under(rel: &str, dir: &str) -> bool {
    rel == dir
        || rel
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Inode numbers: one per path, stable while the filesystem object lives.
pub(super) struct Inodes {
    pub(super) by_path: HashMap<String, u64>,
    pub(super) by_ino: HashMap<u64, String>,
    pub(super) next: u64,
}

impl Inodes {
    pub(super) fn new() -> Self {
        Inodes {
            by_path: HashMap::from([(String::new(), ROOT_INO)]),
            by_ino: HashMap::from([(ROOT_INO, String::new())]),
            next: ROOT_INO + 1,
        }
    }

    pub(super) fn get(&self, rel: &str) -> Option<u64> {
        self.by_path.get(rel).copied()
    }

    /// The inode of `rel`, handed out now if it has none.
    pub(super) fn ino(&mut self, rel: &str) -> u64 {
        if let Some(ino) = self.by_path.get(rel) {
            return *ino;
        }
        let ino = self.next;
        self.next += 1;
        self.by_path.insert(rel.to_owned(), ino);
        self.by_ino.insert(ino, rel.to_owned());
        ino
    }

    pub(super) fn path(&self, ino: u64) -> Result<String, Errno> {
        self.by_ino.get(&ino).cloned().ok_or(Errno::ENOENT)
    }

    /// Drops `rel` and everything under it: a later file there gets a new number.
    pub(super) fn forget(&mut self, rel: &str) {
        let gone: Vec<String> = self
            .by_path
            .keys()
            .filter(|p| at_or_under(p, rel))
            .cloned()
            .collect();
        for path in gone {
            if let Some(ino) = self.by_path.remove(&path) {
                self.by_ino.remove(&ino);
            }
        }
    }

    /// Moves the numbers of `from` and everything under it to `to`, whose own are dropped.
    pub(super) fn rename(&mut self, from: &str, to: &str) {
        self.forget(to);
        let moved: Vec<(String, u64)> = self
            .by_path
            .iter()
            .filter(|(p, _)| at_or_under(p, from))
            .map(|(p, ino)| (p.clone(), *ino))
            .collect();
        for (old, ino) in moved {
            let new = format!("{to}{}", &old[from.len()..]);
            self.by_path.remove(&old);
            self.by_path.insert(new.clone(), ino);
            self.by_ino.insert(ino, new);
        }
    }
}

/// An open file.
pub(super) struct Handle {
    pub(super) ino: u64,
    /// The content as this handle sees it.
    pub(super) buffer: Vec<u8>,
    /// The hash of the stored content the buffer started from (or last committed); `None` for a
    /// file this handle created and has not committed yet.
    pub(super) base: Option<String>,
    /// The buffer differs from what was committed.
    pub(super) dirty: bool,
    pub(super) writable: bool,
    pub(super) append: bool,
    /// The file was unlinked or replaced while open: nothing is committed any more.
    pub(super) discarded: bool,
    /// A write was refused (`EFBIG`): the unsaved content is abandoned, and the next commit
    /// answers this instead of storing anything.
    pub(super) refused: Option<Errno>,
    /// The lock owner (the writing process's descriptor table) of the last write: a flush from
    /// another owner — a child that inherited the descriptor and closed it, at `exec` say — is
    /// not the writer's close, and commits nothing.
    pub(super) writer: Option<u64>,
    pub(super) opened: SystemTime,
}

impl Handle {
    /// A file being created: it exists only in this handle until its first commit (after a
    /// failed one, the store answers for the path again).
    pub(super) fn pending(&self) -> bool {
        self.base.is_none() && self.dirty && !self.discarded
    }
}

#[derive(Default)]
pub(super) struct Open {
    pub(super) handles: HashMap<u64, Handle>,
    pub(super) next: u64,
}

pub(super) struct State {
    pub(super) inodes: Inodes,
    /// Directories made with `mkdir`: they live here, not in storage (a directory is implicit in
    /// the paths of the memories under it), until `rmdir`.
    pub(super) dirs: BTreeSet<String>,
    pub(super) open: Open,
}

impl State {
    /// Only the directory of mounts has a number; nothing is open, no directory made.
    pub(super) fn new() -> Self {
        State {
            inodes: Inodes::new(),
            dirs: BTreeSet::new(),
            open: Open::default(),
        }
    }

    pub(super) fn child(&self, parent: u64, name: &OsStr) -> Result<String, Errno> {
        let parent = self.inodes.path(parent)?;
        let name = name.to_str().ok_or(Errno::EINVAL)?;
        Ok(join(&parent, name))
    }

    pub(super) fn handle(&mut self, fh: u64) -> Result<&mut Handle, Errno> {
        self.open.handles.get_mut(&fh).ok_or(Errno::EBADF)
    }

    /// The handle creating the file `ino`, if one is.
    pub(super) fn pending(&self, ino: u64) -> Option<&Handle> {
        self.open
            .handles
            .values()
            .find(|h| h.ino == ino && h.pending())
    }

    /// The size of the largest unsaved buffer of `ino`: what a reader of the open file sees.
    pub(super) fn unsaved_size(&self, ino: u64) -> Option<u64> {
        self.open
            .handles
            .values()
            .filter(|h| h.ino == ino && h.writable && h.dirty && !h.discarded)
            .map(|h| h.buffer.len() as u64)
            .max()
    }

    /// Nothing is committed any more for `ino` (it was unlinked or replaced).
    pub(super) fn discard(&mut self, ino: u64) {
        for h in self.open.handles.values_mut().filter(|h| h.ino == ino) {
            h.discarded = true;
        }
    }

    /// Paths of files being created.
    pub(super) fn pending_paths(&self) -> Vec<String> {
        self.open
            .handles
            .values()
            .filter(|h| h.pending())
            .filter_map(|h| self.inodes.by_ino.get(&h.ino).cloned())
            .collect()
    }

    pub(super) fn add_handle(&mut self, handle: Handle) -> u64 {
        self.open.next += 1;
        let fh = self.open.next;
        self.open.handles.insert(fh, handle);
        fh
    }
}

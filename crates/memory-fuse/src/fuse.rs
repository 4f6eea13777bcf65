//! The FUSE side: [`fuser::Filesystem`] callbacks that decode a request, call the layer
//! (`layer.rs`) and encode its answer — no decisions here — and [`mount`], which checks the
//! directory and the session and starts the session loop on a background thread.

use std::ffi::OsStr;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use agent_memory::{SessionCaller, StoreService};
use fuser::{
    BackgroundSession, BsdFileFlags, Config, Errno, FileAttr, FileHandle, FileType, Filesystem,
    FopenFlags, Generation, INodeNo, InitFlags, KernelConfig, LockOwner, MountOption, OpenFlags,
    RenameFlags, ReplyAttr, ReplyCreate, ReplyData, ReplyDirectory, ReplyEmpty, ReplyEntry,
    ReplyOpen, ReplyWrite, Request, TimeOrNow, WriteFlags,
};
use memory_core::session::MOUNT_ROOT;

use crate::Error;
use crate::layer::{Attr, FsResult, Kind, MemoryFs, OpenMode};

/// Attributes and entries are not cached by the kernel: other writers change the stores too.
const TTL: Duration = Duration::ZERO;

/// The owner every node shows: the owner of the mount directory.
#[derive(Debug, Clone, Copy)]
struct Owner {
    uid: u32,
    gid: u32,
}

struct Adapter {
    fs: MemoryFs,
    owner: Owner,
}

fn file_attr(a: &Attr, owner: Owner) -> FileAttr {
    let (kind, perm, nlink) = match (a.kind, a.read_only) {
        (Kind::Dir, false) => (FileType::Directory, 0o755, 2),
        (Kind::Dir, true) => (FileType::Directory, 0o555, 2),
        (Kind::File, false) => (FileType::RegularFile, 0o644, 1),
        (Kind::File, true) => (FileType::RegularFile, 0o444, 1),
    };
    FileAttr {
        ino: INodeNo(a.ino),
        size: a.size,
        blocks: a.size.div_ceil(512),
        atime: a.modified,
        mtime: a.modified,
        ctime: a.modified,
        crtime: a.created,
        kind,
        perm,
        nlink,
        uid: owner.uid,
        gid: owner.gid,
        rdev: 0,
        blksize: 4096,
        flags: 0,
    }
}

fn open_mode(flags: i32) -> OpenMode {
    let access = flags & libc::O_ACCMODE;
    OpenMode {
        write: access == libc::O_WRONLY || access == libc::O_RDWR,
        truncate: flags & libc::O_TRUNC != 0,
        append: flags & libc::O_APPEND != 0,
        exclusive: flags & libc::O_EXCL != 0,
    }
}

fn kind(kind: Kind) -> FileType {
    match kind {
        Kind::Dir => FileType::Directory,
        Kind::File => FileType::RegularFile,
    }
}

fn empty(reply: ReplyEmpty, result: FsResult<()>) {
    match result {
        Ok(()) => reply.ok(),
        Err(e) => reply.error(e),
    }
}

fn entry(adapter: &Adapter, reply: ReplyEntry, result: FsResult<Attr>) {
    match result {
        Ok(attr) => reply.entry(&TTL, &file_attr(&attr, adapter.owner), Generation(0)),
        Err(e) => reply.error(e),
    }
}

// Every file is read and written through its handle's buffer, never the page cache
// (`FOPEN_DIRECT_IO`): the stores change under the mount, and a handle commits what it holds.
const OPEN_FLAGS: FopenFlags = FopenFlags::FOPEN_DIRECT_IO;

impl Filesystem for Adapter {
    fn init(&mut self, _req: &Request, config: &mut KernelConfig) -> io::Result<()> {
        // `open(O_TRUNC)` arrives as a flag of the open, not as a separate truncate, so an
        // overwrite is one version. Without the capability the kernel truncates first.
        if let Err(missing) = config.add_capabilities(InitFlags::FUSE_ATOMIC_O_TRUNC) {
            tracing::warn!(?missing, "the kernel cannot pass O_TRUNC with open");
        }
        Ok(())
    }

    fn destroy(&mut self) {
        self.fs.commit_all();
    }

    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        entry(self, reply, self.fs.lookup(parent.0, name));
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        match self.fs.getattr(ino.0) {
            Ok(attr) => reply.attr(&TTL, &file_attr(&attr, self.owner)),
            Err(e) => reply.error(e),
        }
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        _mode: Option<u32>,
        _uid: Option<u32>,
        _gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        _mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        // Modes, owners and times are not stored: only a size changes a file.
        let result = match size {
            Some(size) => self.fs.truncate(ino.0, fh.map(|f| f.0), size),
            None => self.fs.setattr_other(ino.0),
        };
        match result {
            Ok(attr) => reply.attr(&TTL, &file_attr(&attr, self.owner)),
            Err(e) => reply.error(e),
        }
    }

    fn mkdir(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        reply: ReplyEntry,
    ) {
        entry(self, reply, self.fs.mkdir(parent.0, name));
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        empty(reply, self.fs.unlink(parent.0, name));
    }

    fn rmdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        empty(reply, self.fs.rmdir(parent.0, name));
    }

    fn rename(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        newparent: INodeNo,
        newname: &OsStr,
        flags: RenameFlags,
        reply: ReplyEmpty,
    ) {
        if flags.intersects(RenameFlags::RENAME_EXCHANGE | RenameFlags::RENAME_WHITEOUT) {
            return reply.error(Errno::EINVAL);
        }
        let no_replace = flags.contains(RenameFlags::RENAME_NOREPLACE);
        empty(
            reply,
            self.fs
                .rename(parent.0, name, newparent.0, newname, no_replace),
        );
    }

    fn open(&self, _req: &Request, ino: INodeNo, flags: OpenFlags, reply: ReplyOpen) {
        match self.fs.open(ino.0, open_mode(flags.0)) {
            Ok(fh) => reply.opened(FileHandle(fh), OPEN_FLAGS),
            Err(e) => reply.error(e),
        }
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        match self.fs.read(fh.0, offset, size) {
            Ok(data) => reply.data(&data),
            Err(e) => reply.error(e),
        }
    }

    fn write(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        data: &[u8],
        _write_flags: WriteFlags,
        _flags: OpenFlags,
        lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        match self.fs.write(fh.0, offset, data, lock_owner.map(|o| o.0)) {
            Ok(n) => reply.written(n),
            Err(e) => reply.error(e),
        }
    }

    fn flush(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        lock_owner: LockOwner,
        reply: ReplyEmpty,
    ) {
        empty(reply, self.fs.flush(fh.0, lock_owner.0));
    }

    fn release(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        _flush: bool,
        reply: ReplyEmpty,
    ) {
        empty(reply, self.fs.release(fh.0));
    }

    fn fsync(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        empty(reply, self.fs.fsync(fh.0));
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let listed = self.fs.readdir(ino.0).and_then(|entries| {
            let parent = self.fs.parent(ino.0)?;
            Ok((parent, entries))
        });
        let (parent, entries) = match listed {
            Ok(listed) => listed,
            Err(e) => return reply.error(e),
        };
        let all = [
            (ino.0, Kind::Dir, ".".to_owned()),
            (parent, Kind::Dir, "..".to_owned()),
        ]
        .into_iter()
        .chain(entries);
        // The offset of an entry is its position + 1: the kernel asks again from there.
        let skip = usize::try_from(offset).unwrap_or(usize::MAX);
        for (i, (ino, k, name)) in all.enumerate().skip(skip) {
            if reply.add(INodeNo(ino), i as u64 + 1, kind(k), name) {
                break;
            }
        }
        reply.ok();
    }

    fn fsyncdir(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn create(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        flags: i32,
        reply: ReplyCreate,
    ) {
        match self.fs.create(parent.0, name, open_mode(flags)) {
            Ok((attr, fh)) => reply.created(
                &TTL,
                &file_attr(&attr, self.owner),
                Generation(0),
                FileHandle(fh),
                OPEN_FLAGS,
            ),
            Err(e) => reply.error(e),
        }
    }
}

/// How long [`Mount::unmount`] waits for the session loop to end after the detach.
const UNMOUNT_WAIT: Duration = Duration::from_secs(5);

/// A mounted session; dropping it unmounts too (errors are then only logged).
#[derive(Debug)]
pub struct Mount {
    session: Option<BackgroundSession>,
    dir: PathBuf,
}

impl Mount {
    /// The mount directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// False once the file system ended by itself (it was unmounted from outside, with
    /// `fusermount3 -u` or `umount`).
    pub fn is_mounted(&self) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| !s.guard.is_finished())
    }

    /// Unmounts and waits for the session loop to end (open files holding unsaved content are
    /// committed as it ends). The unmount is lazy, as libfuse's is: the directory is detached at
    /// once even while a process still has a file or directory open under it. Those are served
    /// until they close; if they are still open after 5 seconds, [`Error::Busy`] is returned and
    /// the loop is left running on its thread (it ends with the process).
    pub fn unmount(mut self) -> Result<(), Error> {
        self.stop()
    }

    fn stop(&mut self) -> Result<(), Error> {
        let Some(session) = self.session.take() else {
            return Ok(());
        };
        if !session.guard.is_finished() {
            detach(&self.dir).map_err(Error::Unmount)?;
        }
        let deadline = std::time::Instant::now() + UNMOUNT_WAIT;
        while !session.guard.is_finished() {
            if std::time::Instant::now() > deadline {
                // Dropping the handle leaves the thread running; its unmount-on-drop finds the
                // directory already detached.
                drop(session);
                return Err(Error::Busy(self.dir.clone()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        session.join().map_err(Error::Unmount)
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        if let Err(e) = self.stop() {
            tracing::warn!(error = %e, "unmounting failed");
        }
    }
}

/// Detaches the mount at `dir` lazily: `umount2(MNT_DETACH)` as root, else the setuid
/// `fusermount3 -u -z` (what libfuse does for users).
fn detach(dir: &Path) -> io::Result<()> {
    match nix::mount::umount2(dir, nix::mount::MntFlags::MNT_DETACH) {
        Ok(()) => Ok(()),
        Err(nix::errno::Errno::EPERM) => {
            let status = std::process::Command::new("fusermount3")
                .args(["-u", "-z"])
                .arg(dir)
                .status()?;
            if status.success() {
                Ok(())
            } else {
                Err(io::Error::other(format!(
                    "fusermount3 -u -z {} failed ({status})",
                    dir.display()
                )))
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Mounts the session `caller` names at `dir`, acting as the session through `service`: each
/// of its mounts appears as `<dir>/<slug>/`. `dir` must exist, be a directory and be empty. The
/// file system runs on a background thread until [`Mount::unmount`] (or the handle is dropped,
/// or it is unmounted from outside).
///
/// Needs `/dev/fuse` and the right to mount: root (the mount system call), or the setuid
/// `fusermount3` helper of the `fuse3` package for other users; no libfuse is linked.
pub fn mount(
    service: Arc<StoreService>,
    caller: SessionCaller,
    dir: &Path,
) -> Result<Mount, Error> {
    let meta = match std::fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(Error::MissingDirectory(dir.to_owned()));
        }
        Err(e) => return Err(Error::Directory(dir.to_owned(), e)),
    };
    if !meta.is_dir() {
        return Err(Error::NotADirectory(dir.to_owned()));
    }
    let not_empty = std::fs::read_dir(dir)
        .map_err(|e| Error::Directory(dir.to_owned(), e))?
        .next()
        .is_some();
    if not_empty {
        return Err(Error::DirectoryNotEmpty(dir.to_owned()));
    }
    // An unknown session is refused now rather than as an empty mount.
    service
        .fs_list_path(&caller, MOUNT_ROOT)
        .map_err(Error::Session)?;
    let owner = Owner {
        uid: meta.uid(),
        gid: meta.gid(),
    };
    let adapter = Adapter {
        fs: MemoryFs::new(service, caller),
        owner,
    };
    let mut config = Config::default();
    config.mount_options = vec![
        MountOption::FSName("agent-memory".into()),
        MountOption::Subtype("agent-memory".into()),
        MountOption::NoDev,
        MountOption::NoSuid,
        MountOption::NoExec,
    ];
    let session = fuser::spawn_mount(adapter, dir, &config).map_err(Error::Mount)?;
    Ok(Mount {
        session: Some(session),
        dir: dir.to_owned(),
    })
}

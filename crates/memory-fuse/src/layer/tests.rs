//! The layer without a kernel: every file operation against a facade over the in-memory
//! backend, checking the errno and exactly which versions were written.

use std::ffi::OsStr;
use std::sync::Arc;

use agent_memory::backends::InMemoryBackend;
use agent_memory::{
    Access, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest, ListVersionsRequest,
    MemberCaller, SessionCaller, StoreCaller, StoreService,
};
use memory_core::{
    MemberId, MemoryStoreId, MemoryVersion, Role, VersionOperation, WorkspaceId, content_sha256,
};

use super::*;

struct World {
    service: Arc<StoreService>,
    agent: SessionCaller,
    fs: MemoryFs,
    notes: String,
    shared: String,
}

fn editor() -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: WorkspaceId::new("ws1").unwrap(),
        member: MemberId::new("alice").unwrap(),
        role: Role::Editor,
    })
}

/// A session with `notes` (read-write, empty) and `shared` (read-only, `/fact.md`).
fn world() -> World {
    let service = Arc::new(StoreService::builder(Arc::new(InMemoryBackend::new())).build());
    let store = |name: &str| {
        service
            .stores_create(&editor(), &CreateStoreRequest::new(name))
            .unwrap()
            .id
    };
    let (notes, shared) = (store("Notes"), store("Shared"));
    service
        .memories_create(
            &editor(),
            &CreateMemoryRequest::new(shared.clone(), "/fact.md", "fixed"),
        )
        .unwrap();
    let session = service
        .sessions_create(
            &editor(),
            &CreateSessionRequest::new()
                .memory_store(notes.clone(), Access::ReadWrite)
                .memory_store(shared.clone(), Access::ReadOnly),
        )
        .unwrap();
    let (notes, shared) = (notes.into_string(), shared.into_string());
    let agent = SessionCaller {
        workspace: WorkspaceId::new("ws1").unwrap(),
        session: session.id,
    };
    World {
        fs: MemoryFs::new(service.clone(), agent.clone()),
        service,
        agent,
        notes,
        shared,
    }
}

fn os(name: &str) -> &OsStr {
    OsStr::new(name)
}

/// The lock owner (descriptor table) of the writing process.
const OWNER: u64 = 7;

const RW: OpenMode = OpenMode {
    write: true,
    truncate: false,
    append: false,
    exclusive: false,
};
const TRUNC: OpenMode = OpenMode {
    write: true,
    truncate: true,
    append: false,
    exclusive: false,
};
const RO: OpenMode = OpenMode {
    write: false,
    truncate: false,
    append: false,
    exclusive: false,
};

impl World {
    /// The inode of `rel`, looked up from the root as the kernel walks a path.
    fn ino(&self, rel: &str) -> FsResult<u64> {
        let mut ino = ROOT_INO;
        for name in rel.split('/') {
            ino = self.fs.lookup(ino, os(name))?.ino;
        }
        Ok(ino)
    }

    /// `echo -n content > rel` in one call per step, as the kernel sends it.
    fn write_file(&self, dir: &str, name: &str, content: &str) -> FsResult<()> {
        let parent = self.ino(dir)?;
        let fh = match self.fs.lookup(parent, os(name)) {
            Ok(attr) => self.fs.open(attr.ino, TRUNC)?,
            Err(e) if e == Errno::ENOENT => self.fs.create(parent, os(name), TRUNC)?.1,
            Err(e) => return Err(e),
        };
        self.fs.write(fh, 0, content.as_bytes(), Some(OWNER))?;
        let flushed = self.fs.flush(fh, OWNER);
        self.fs.release(fh)?;
        flushed
    }

    fn content(&self, path: &str) -> Option<String> {
        self.service
            .fs_read_path(&self.agent, &format!("/mnt/memory/{path}"))
            .ok()
            .map(|r| r.content)
    }

    fn versions(&self, store: &str) -> Vec<MemoryVersion> {
        self.service
            .versions_list(
                &editor(),
                &ListVersionsRequest::new(MemoryStoreId::parse(store).unwrap()).limit(100),
            )
            .unwrap()
            .data
    }

    fn operations(&self, store: &str) -> Vec<VersionOperation> {
        let mut ops: Vec<_> = self.versions(store).iter().map(|v| v.operation).collect();
        ops.reverse();
        ops
    }
}

#[test]
fn a_file_written_in_chunks_is_one_version_when_it_is_closed() {
    let w = world();
    let notes = w.ino("notes").unwrap();
    let (attr, fh) = w.fs.create(notes, os("a.md"), TRUNC).unwrap();
    assert_eq!((attr.kind, attr.size), (Kind::File, 0));
    for (i, chunk) in ["one ", "two ", "three"].iter().enumerate() {
        w.fs.write(fh, [0, 4, 8][i], chunk.as_bytes(), Some(OWNER))
            .unwrap();
    }
    // Being written: visible with its buffered size, nothing stored yet.
    assert_eq!(w.fs.getattr(attr.ino).unwrap().size, 13);
    assert_eq!(w.fs.lookup(notes, os("a.md")).unwrap().ino, attr.ino);
    assert!(w.versions(&w.notes).is_empty());
    let listed = w.fs.readdir(notes).unwrap();
    assert_eq!(listed, [(attr.ino, Kind::File, "a.md".to_owned())]);
    w.fs.flush(fh, OWNER).unwrap();
    w.fs.flush(fh, OWNER).unwrap();
    w.fs.release(fh).unwrap();
    assert_eq!(w.operations(&w.notes), [VersionOperation::Created]);
    assert_eq!(w.content("notes/a.md").as_deref(), Some("one two three"));
    // The stored file keeps its inode and reports the memory's size and times.
    let stored = w.fs.getattr(attr.ino).unwrap();
    assert_eq!((stored.size, stored.read_only), (13, false));
    let memory = &w.versions(&w.notes)[0];
    assert_eq!(stored.modified, system_time(memory.created_at));
    // Reading is from the content read at open.
    let fh = w.fs.open(attr.ino, RO).unwrap();
    assert_eq!(w.fs.read(fh, 4, 3).unwrap(), b"two");
    assert_eq!(w.fs.read(fh, 100, 3).unwrap(), b"");
    assert_eq!(w.fs.write(fh, 0, b"x", Some(OWNER)), Err(Errno::EBADF));
    w.fs.release(fh).unwrap();
    assert_eq!(w.versions(&w.notes).len(), 1, "reading writes nothing");
}

#[test]
fn a_close_by_a_process_that_only_inherited_the_descriptor_commits_nothing() {
    let w = world();
    let notes = w.ino("notes").unwrap();
    let (_, fh) = w.fs.create(notes, os("a.md"), RW).unwrap();
    w.fs.write(fh, 0, b"first half, ", Some(OWNER)).unwrap();
    // A child forked meanwhile closes its copy of the descriptor (at exec, say).
    w.fs.flush(fh, OWNER + 1).unwrap();
    assert!(w.versions(&w.notes).is_empty());
    w.fs.write(fh, 12, b"second half", Some(OWNER)).unwrap();
    w.fs.flush(fh, OWNER).unwrap();
    w.fs.release(fh).unwrap();
    assert_eq!(w.operations(&w.notes), [VersionOperation::Created]);
    assert_eq!(
        w.content("notes/a.md").as_deref(),
        Some("first half, second half")
    );
}

#[test]
fn an_overwrite_is_one_modified_version_and_an_empty_file_is_a_file() {
    let w = world();
    w.write_file("notes", "a.md", "first").unwrap();
    w.write_file("notes", "a.md", "second, longer").unwrap();
    assert_eq!(
        w.operations(&w.notes),
        [VersionOperation::Created, VersionOperation::Modified]
    );
    assert_eq!(w.content("notes/a.md").as_deref(), Some("second, longer"));
    // The same content again: no version.
    w.write_file("notes", "a.md", "second, longer").unwrap();
    assert_eq!(w.versions(&w.notes).len(), 2);
    // Appending edits the content read at open.
    let ino = w.ino("notes/a.md").unwrap();
    let fh = w.fs.open(ino, OpenMode { append: true, ..RW }).unwrap();
    w.fs.write(fh, 0, b"!", Some(OWNER)).unwrap();
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/a.md").as_deref(), Some("second, longer!"));
    // ftruncate through the handle.
    let fh = w.fs.open(ino, RW).unwrap();
    assert_eq!(w.fs.truncate(ino, Some(fh), 6).unwrap().size, 6);
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/a.md").as_deref(), Some("second"));
    // truncate(2) without an open file: one version at once.
    w.fs.truncate(ino, None, 3).unwrap();
    assert_eq!(w.content("notes/a.md").as_deref(), Some("sec"));
    assert_eq!(w.versions(&w.notes).len(), 5);
    // An empty file (touch): a created version with no content.
    let notes = w.ino("notes").unwrap();
    let (attr, fh) = w.fs.create(notes, os("empty"), RW).unwrap();
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/empty").as_deref(), Some(""));
    assert_eq!(w.fs.getattr(attr.ino).unwrap().size, 0);
    assert_eq!(w.versions(&w.notes).len(), 6);
}

#[test]
fn a_writer_that_lost_a_race_gets_eio_and_the_other_version_stays() {
    let w = world();
    w.write_file("notes", "a.md", "base").unwrap();
    let ino = w.ino("notes/a.md").unwrap();
    let fh = w.fs.open(ino, TRUNC).unwrap();
    w.fs.write(fh, 0, b"mine", Some(OWNER)).unwrap();
    // Another writer commits first.
    w.service
        .fs_write_path(&w.agent, "/mnt/memory/notes/a.md", "theirs".into(), None)
        .unwrap();
    assert_eq!(w.fs.flush(fh, OWNER), Err(Errno::EIO));
    // Nothing more at release: the buffer was dropped with the refusal.
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/a.md").as_deref(), Some("theirs"));
    assert_eq!(w.versions(&w.notes).len(), 2);
    // The same for a file deleted meanwhile, and for two creators of one path.
    let fh = w.fs.open(ino, RW).unwrap();
    w.fs.write(fh, 0, b"more", Some(OWNER)).unwrap();
    w.service
        .fs_delete_path(&w.agent, "/mnt/memory/notes/a.md")
        .unwrap();
    assert_eq!(w.fs.release(fh), Err(Errno::EIO));
    assert_eq!(w.content("notes/a.md"), None);
    let notes = w.ino("notes").unwrap();
    let (_, fh) = w.fs.create(notes, os("b.md"), RW).unwrap();
    w.fs.write(fh, 0, b"mine", Some(OWNER)).unwrap();
    w.service
        .fs_write_path(&w.agent, "/mnt/memory/notes/b.md", "theirs".into(), None)
        .unwrap();
    assert_eq!(w.fs.release(fh), Err(Errno::EIO));
    assert_eq!(w.content("notes/b.md").as_deref(), Some("theirs"));
    let versions = w.versions(&w.notes);
    assert_eq!(versions.len(), 4);
    assert!(
        versions
            .iter()
            .all(|v| v.content_sha256 != Some(content_sha256("mine")))
    );
}

#[test]
fn read_only_mounts_answer_erofs_and_write_nothing() {
    let w = world();
    let shared = w.ino("shared").unwrap();
    let fact = w.ino("shared/fact.md").unwrap();
    assert!(w.fs.getattr(shared).unwrap().read_only);
    assert!(w.fs.getattr(fact).unwrap().read_only);
    let fh = w.fs.open(fact, RO).unwrap();
    assert_eq!(w.fs.read(fh, 0, 100).unwrap(), b"fixed");
    w.fs.release(fh).unwrap();
    assert_eq!(w.fs.open(fact, RW), Err(Errno::EROFS));
    assert_eq!(w.fs.open(fact, TRUNC), Err(Errno::EROFS));
    assert_eq!(
        w.fs.create(shared, os("new.md"), RW).map(|_| ()),
        Err(Errno::EROFS)
    );
    assert_eq!(w.fs.mkdir(shared, os("dir")).map(|_| ()), Err(Errno::EROFS));
    assert_eq!(w.fs.unlink(shared, os("fact.md")), Err(Errno::EROFS));
    assert_eq!(
        w.fs.rename(shared, os("fact.md"), shared, os("b.md"), false),
        Err(Errno::EROFS)
    );
    assert_eq!(w.fs.truncate(fact, None, 0).map(|_| ()), Err(Errno::EROFS));
    assert_eq!(w.versions(&w.shared).len(), 1);
    assert_eq!(w.content("shared/fact.md").as_deref(), Some("fixed"));
}

#[test]
fn sizes_names_and_missing_files_have_their_errno() {
    let w = world();
    let notes = w.ino("notes").unwrap();
    // 102,400 bytes fit; one more is EFBIG at the write, and nothing of that open is stored.
    let full = vec![b'x'; MAX_FILE_BYTES];
    let (_, fh) = w.fs.create(notes, os("big"), RW).unwrap();
    assert_eq!(w.fs.write(fh, 0, &full, Some(OWNER)), Ok(102_400));
    assert_eq!(
        w.fs.write(fh, 102_400, b"y", Some(OWNER)),
        Err(Errno::EFBIG)
    );
    assert_eq!(w.fs.release(fh), Err(Errno::EFBIG));
    assert_eq!(w.content("notes/big"), None);
    let (attr, fh) = w.fs.create(notes, os("big"), RW).unwrap();
    assert_eq!(w.fs.write(fh, 0, &full, Some(OWNER)), Ok(102_400));
    assert_eq!(
        w.fs.truncate(attr.ino, Some(fh), 102_401).map(|_| ()),
        Err(Errno::EFBIG)
    );
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/big").map(|c| c.len()), Some(102_400));
    // An overwrite that does not fit leaves the stored file as it was.
    let fh = w.fs.open(attr.ino, TRUNC).unwrap();
    assert_eq!(
        w.fs.write(fh, 0, &[b'y'; MAX_FILE_BYTES + 1], Some(OWNER)),
        Err(Errno::EFBIG)
    );
    assert_eq!(w.fs.flush(fh, OWNER), Err(Errno::EFBIG));
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/big").map(|c| c.len()), Some(102_400));
    // Names the store refuses; missing names; the directory of mounts.
    for bad in ["a\\b", "%2e%2e", "a\u{1}b"] {
        assert_eq!(w.fs.lookup(notes, os(bad)), Err(Errno::EINVAL), "{bad:?}");
        assert_eq!(
            w.fs.create(notes, os(bad), RW).map(|_| ()),
            Err(Errno::EINVAL),
            "{bad:?}"
        );
    }
    assert_eq!(w.fs.lookup(notes, os("missing")), Err(Errno::ENOENT));
    assert_eq!(
        w.fs.lookup(ROOT_INO, os("no-such-mount")),
        Err(Errno::ENOENT)
    );
    assert_eq!(
        w.fs.create(ROOT_INO, os("file"), RW).map(|_| ()),
        Err(Errno::EPERM)
    );
    assert_eq!(w.fs.getattr(9_999), Err(Errno::ENOENT));
    assert_eq!(w.fs.unlink(notes, os("missing")), Err(Errno::ENOENT));
    // Exclusive create of an existing file.
    let exclusive = OpenMode {
        exclusive: true,
        ..RW
    };
    assert_eq!(
        w.fs.create(notes, os("big"), exclusive).map(|_| ()),
        Err(Errno::EEXIST)
    );
    // Content that is not UTF-8 is no memory.
    let (_, fh) = w.fs.create(notes, os("bin"), RW).unwrap();
    w.fs.write(fh, 0, &[0xff, 0xfe], Some(OWNER)).unwrap();
    assert_eq!(w.fs.flush(fh, OWNER), Err(Errno::EILSEQ));
    w.fs.release(fh).unwrap();
    assert_eq!(w.content("notes/bin"), None);
    assert_eq!(w.versions(&w.notes).len(), 1);
}

#[test]
fn rename_onto_an_existing_file_replaces_it_in_one_step() {
    let w = world();
    w.write_file("notes", "draft.md", "new text").unwrap();
    w.write_file("notes", "notes.md", "old text").unwrap();
    let notes = w.ino("notes").unwrap();
    let draft = w.ino("notes/draft.md").unwrap();
    assert_eq!(
        w.fs.rename(notes, os("draft.md"), notes, os("notes.md"), true),
        Err(Errno::EEXIST),
        "RENAME_NOREPLACE"
    );
    w.fs.rename(notes, os("draft.md"), notes, os("notes.md"), false)
        .unwrap();
    let versions = w.versions(&w.notes);
    assert_eq!(versions.len(), 4);
    let newest: Vec<_> = versions[..2].iter().map(|v| v.operation).collect();
    assert!(
        newest.contains(&VersionOperation::Deleted) && newest.contains(&VersionOperation::Modified)
    );
    assert_eq!(versions[0].created_at, versions[1].created_at);
    assert_eq!(w.content("notes/notes.md").as_deref(), Some("new text"));
    assert_eq!(w.content("notes/draft.md"), None);
    // The inode moved with the file.
    assert_eq!(w.ino("notes/notes.md").unwrap(), draft);
    assert_eq!(w.fs.lookup(notes, os("draft.md")), Err(Errno::ENOENT));
    // A plain rename: one version.
    w.fs.rename(notes, os("notes.md"), notes, os("final.md"), false)
        .unwrap();
    assert_eq!(w.versions(&w.notes).len(), 5);
    // Across mounts, onto a directory, a mount root.
    assert_eq!(
        w.fs.rename(
            notes,
            os("final.md"),
            w.ino("shared").unwrap(),
            os("x"),
            false
        ),
        Err(Errno::EXDEV)
    );
    w.fs.mkdir(notes, os("dir")).unwrap();
    assert_eq!(
        w.fs.rename(notes, os("final.md"), notes, os("dir"), false),
        Err(Errno::EISDIR)
    );
    assert_eq!(
        w.fs.rename(ROOT_INO, os("notes"), ROOT_INO, os("other"), false),
        Err(Errno::EBUSY)
    );
    assert_eq!(w.versions(&w.notes).len(), 5);
}

#[test]
fn directories_live_in_the_mount_until_a_file_is_written_under_them() {
    let w = world();
    let notes = w.ino("notes").unwrap();
    let dir = w.fs.mkdir(notes, os("dir")).unwrap();
    assert_eq!(dir.kind, Kind::Dir);
    assert_eq!(w.fs.mkdir(notes, os("dir")).map(|_| ()), Err(Errno::EEXIST));
    assert_eq!(w.fs.mkdir(ROOT_INO, os("x")).map(|_| ()), Err(Errno::EPERM));
    let sub = w.fs.mkdir(dir.ino, os("sub")).unwrap();
    assert_eq!(
        w.fs.readdir(notes).unwrap(),
        [(dir.ino, Kind::Dir, "dir".to_owned())]
    );
    assert!(w.versions(&w.notes).is_empty(), "a directory is no memory");
    assert_eq!(w.fs.rmdir(notes, os("dir")), Err(Errno::ENOTEMPTY));
    w.write_file("notes/dir/sub", "a.md", "a").unwrap();
    assert_eq!(w.content("notes/dir/sub/a.md").as_deref(), Some("a"));
    assert_eq!(w.fs.rmdir(dir.ino, os("sub")), Err(Errno::ENOTEMPTY));
    assert_eq!(w.fs.unlink(notes, os("dir")), Err(Errno::EISDIR));
    assert_eq!(w.fs.rmdir(sub.ino, os("a.md")), Err(Errno::ENOTDIR));
    assert_eq!(w.fs.rmdir(ROOT_INO, os("notes")), Err(Errno::EBUSY));
    // A directory moves with its files, one rename each.
    w.fs.rename(notes, os("dir"), notes, os("moved"), false)
        .unwrap();
    assert_eq!(w.content("notes/moved/sub/a.md").as_deref(), Some("a"));
    assert_eq!(w.fs.lookup(notes, os("dir")), Err(Errno::ENOENT));
    assert_eq!(w.ino("notes/moved/sub").unwrap(), sub.ino);
    // Emptied again, the made directories stay until rmdir.
    w.fs.unlink(sub.ino, os("a.md")).unwrap();
    assert_eq!(w.fs.readdir(sub.ino).unwrap(), []);
    w.fs.rmdir(w.ino("notes/moved").unwrap(), os("sub"))
        .unwrap();
    w.fs.rmdir(notes, os("moved")).unwrap();
    assert_eq!(w.fs.readdir(notes).unwrap(), []);
    assert_eq!(
        w.operations(&w.notes),
        [
            VersionOperation::Created,
            VersionOperation::Modified,
            VersionOperation::Deleted
        ]
    );
}

#[test]
fn unlink_deletes_and_a_file_still_being_created_leaves_nothing() {
    let w = world();
    let notes = w.ino("notes").unwrap();
    let (_, fh) = w.fs.create(notes, os("tmp"), RW).unwrap();
    w.fs.write(fh, 0, b"scratch", Some(OWNER)).unwrap();
    w.fs.unlink(notes, os("tmp")).unwrap();
    w.fs.release(fh).unwrap();
    assert!(w.versions(&w.notes).is_empty());
    w.write_file("notes", "a.md", "a").unwrap();
    let ino = w.ino("notes/a.md").unwrap();
    let fh = w.fs.open(ino, RW).unwrap();
    w.fs.unlink(notes, os("a.md")).unwrap();
    // Writes to an unlinked file go nowhere.
    w.fs.write(fh, 0, b"b", Some(OWNER)).unwrap();
    w.fs.release(fh).unwrap();
    assert_eq!(
        w.operations(&w.notes),
        [VersionOperation::Created, VersionOperation::Deleted]
    );
    assert_eq!(w.fs.readdir(ROOT_INO).unwrap().len(), 2);
}

/// A session with `notes` (allow), `private` (mask) and `strict` (reject), all read-write, and a
/// layer over it.
fn policy_world() -> (Arc<StoreService>, MemoryFs, [String; 3]) {
    use memory_core::PiiPolicy;
    let service = Arc::new(StoreService::builder(Arc::new(InMemoryBackend::new())).build());
    let ids = [
        ("Notes", PiiPolicy::Allow),
        ("Private", PiiPolicy::Mask),
        ("Strict", PiiPolicy::Reject),
    ]
    .map(|(name, policy)| {
        service
            .stores_create(&editor(), &CreateStoreRequest::new(name).pii_policy(policy))
            .unwrap()
            .id
    });
    let session = ids.iter().fold(CreateSessionRequest::new(), |r, id| {
        r.memory_store(id.clone(), Access::ReadWrite)
    });
    let session = service.sessions_create(&editor(), &session).unwrap();
    let agent = SessionCaller {
        workspace: WorkspaceId::new("ws1").unwrap(),
        session: session.id,
    };
    let fs = MemoryFs::new(service.clone(), agent);
    (service, fs, ids.map(MemoryStoreId::into_string))
}

#[test]
fn names_with_personal_data_are_refused_with_eperm_where_the_store_masks_or_rejects() {
    let (service, fs, stores) = policy_world();
    let versions = |store: &str| {
        service
            .versions_list(
                &editor(),
                &ListVersionsRequest::new(MemoryStoreId::parse(store).unwrap()).limit(100),
            )
            .unwrap()
            .data
            .len()
    };
    let lookup = |rel: &str| {
        let mut ino = ROOT_INO;
        for name in rel.split('/') {
            ino = fs.lookup(ino, os(name))?.ino;
        }
        Ok::<u64, Errno>(ino)
    };
    let name = "dana.levi@example.com";
    for (mount, store) in ["private", "strict"].iter().zip(&stores[1..]) {
        let dir = lookup(mount).unwrap();
        // A new file: refused at create, before any handle exists.
        assert_eq!(
            fs.create(dir, os(&format!("{name}.md")), TRUNC).err(),
            Some(Errno::EPERM)
        );
        assert_eq!(
            fs.create(dir, os("+14155550100"), TRUNC).err(),
            Some(Errno::EPERM)
        );
        // A directory: refused at mkdir.
        assert_eq!(fs.mkdir(dir, os(name)).err(), Some(Errno::EPERM));
        // A rename onto such a name, of a file and of a directory.
        let (_, fh) = fs.create(dir, os("a.md"), TRUNC).unwrap();
        fs.write(fh, 0, b"a", Some(OWNER)).unwrap();
        fs.release(fh).unwrap();
        assert_eq!(
            fs.rename(dir, os("a.md"), dir, os(name), false),
            Err(Errno::EPERM)
        );
        assert_eq!(
            fs.rename(dir, os("a.md"), dir, os(name), true),
            Err(Errno::EPERM)
        );
        let sub = fs.mkdir(dir, os("sub")).unwrap().ino;
        let (_, fh) = fs.create(sub, os("b.md"), TRUNC).unwrap();
        fs.write(fh, 0, b"b", Some(OWNER)).unwrap();
        fs.release(fh).unwrap();
        assert_eq!(
            fs.rename(dir, os("sub"), dir, os(name), false),
            Err(Errno::EPERM)
        );
        // Nothing but the two clean files was stored, and they did not move.
        assert_eq!(versions(store), 2, "{mount}");
        let mut names: Vec<String> = fs
            .readdir(dir)
            .unwrap()
            .into_iter()
            .map(|(_, _, n)| n)
            .collect();
        names.sort();
        assert_eq!(names, ["a.md", "sub"], "{mount}");
    }
    // The allow store keeps such names as given.
    let notes = lookup("notes").unwrap();
    let (_, fh) = fs.create(notes, os(&format!("{name}.md")), TRUNC).unwrap();
    fs.write(fh, 0, b"x", Some(OWNER)).unwrap();
    fs.release(fh).unwrap();
    fs.mkdir(notes, os(name)).unwrap();
    assert_eq!(versions(&stores[0]), 1);
    assert!(
        service
            .fs_read_path(&fs.caller, &format!("/mnt/memory/notes/{name}.md"))
            .is_ok()
    );
}

#[test]
fn refusals_map_to_errno() {
    for (code, want) in [
        (ErrorCode::MemoryNotFound, Errno::ENOENT),
        (ErrorCode::MemoryStoreNotFound, Errno::ENOENT),
        (ErrorCode::SessionNotFound, Errno::ENOENT),
        (ErrorCode::MemoryStoreReadOnly, Errno::EROFS),
        (ErrorCode::MemoryStoreArchived, Errno::EROFS),
        (ErrorCode::MemoryTooLarge, Errno::EFBIG),
        (ErrorCode::MemoryPathInvalid, Errno::EINVAL),
        (ErrorCode::MemoryPathConflict, Errno::EEXIST),
        (ErrorCode::MemoryPersonalData, Errno::EPERM),
        (ErrorCode::MemoryPathPersonalData, Errno::EPERM),
        (ErrorCode::MemoryPreconditionFailed, Errno::EIO),
        (ErrorCode::InternalError, Errno::EIO),
    ] {
        assert_eq!(errno(&ApiError::from(code)), want, "{code:?}");
    }
}

//! Create, read back, overwrite, rename (onto an existing file too), delete, read-only refusal,
//! size limit, names, names with personal data in a masking store, directories and a lost race —
//! through the kernel — with the exact version listing after each.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use agent_memory::backends::InMemoryBackend;
use agent_memory::{
    Access, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest, ListVersionsRequest,
    MemberCaller, SessionCaller, StoreCaller, StoreService,
};
use memory_core::{MemberId, MemoryStoreId, PiiPolicy, Role, VersionOperation, WorkspaceId};

fn editor() -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: WorkspaceId::new("ws1").unwrap(),
        member: MemberId::new("alice").unwrap(),
        role: Role::Editor,
    })
}

/// A session with `notes` (read-write, empty) and `shared` (read-only, `/fact.md`), and with
/// [`mounted_with_private`] `private` too (read-write, policy `mask`), mounted at a temporary
/// directory. Dropping it unmounts, also when the test panicked.
struct Mounted {
    service: Arc<StoreService>,
    agent: SessionCaller,
    notes: String,
    shared: String,
    private: Option<String>,
    mount: Option<memory_fuse::Mount>,
    dir: tempfile::TempDir,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        // The helper first (it is what a person would run); the library's lazy detach covers a
        // machine without it. Errors are expected when the test unmounted already.
        let _ = Command::new("fusermount3")
            .arg("-u")
            .arg(self.dir.path())
            .output();
        if let Some(mount) = self.mount.take() {
            let _ = mount.unmount();
        }
    }
}

/// Why FUSE cannot be used here: a failure, since these tests run only when asked for.
fn unavailable(why: String) -> ! {
    panic!(
        "these tests mount FUSE file systems, but {why} (they need /dev/fuse and root or \
         fusermount3 from Debian's fuse3)"
    );
}

fn mounted() -> Mounted {
    mounted_stores(false)
}

fn mounted_with_private() -> Mounted {
    mounted_stores(true)
}

fn mounted_stores(with_private: bool) -> Mounted {
    if let Err(e) = OpenOptions::new().read(true).write(true).open("/dev/fuse") {
        unavailable(format!("/dev/fuse cannot be opened ({e})"));
    }
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
            &CreateMemoryRequest::new(shared.clone(), "/fact.md", "fixed\n"),
        )
        .unwrap();
    let mut session = CreateSessionRequest::new()
        .memory_store(notes.clone(), Access::ReadWrite)
        .memory_store(shared.clone(), Access::ReadOnly);
    let private = with_private.then(|| {
        service
            .stores_create(
                &editor(),
                &CreateStoreRequest::new("Private").pii_policy(PiiPolicy::Mask),
            )
            .unwrap()
            .id
    });
    if let Some(private) = &private {
        session = session.memory_store(private.clone(), Access::ReadWrite);
    }
    let session = service.sessions_create(&editor(), &session).unwrap();
    let (notes, shared) = (notes.into_string(), shared.into_string());
    let private = private.map(MemoryStoreId::into_string);
    let agent = SessionCaller {
        workspace: WorkspaceId::new("ws1").unwrap(),
        session: session.id,
    };
    let dir = tempfile::tempdir().unwrap();
    match memory_fuse::mount(service.clone(), agent.clone(), dir.path()) {
        Ok(mount) => Mounted {
            service,
            agent,
            notes,
            shared,
            private,
            mount: Some(mount),
            dir,
        },
        Err(memory_fuse::Error::Mount(e))
            if e.kind() == ErrorKind::PermissionDenied || e.raw_os_error() == Some(EPERM) =>
        {
            unavailable(format!("mounting is not permitted here ({e})"))
        }
        Err(e) => panic!("mounting failed: {e}"),
    }
}

impl Mounted {
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// The store's versions, oldest first, as (operation, path, content).
    fn versions(&self, store: &str) -> Vec<(VersionOperation, String, Option<String>)> {
        let mut all = self
            .service
            .versions_list(
                &editor(),
                &ListVersionsRequest::new(MemoryStoreId::parse(store).unwrap()).limit(100),
            )
            .unwrap()
            .data;
        all.reverse();
        all.into_iter()
            .map(|v| {
                (
                    v.operation,
                    v.path.map(|p| p.into_string()).unwrap_or_default(),
                    v.content,
                )
            })
            .collect()
    }

    fn stored(&self, path: &str) -> Option<String> {
        self.service
            .fs_read_path(&self.agent, &format!("/mnt/memory/{path}"))
            .ok()
            .map(|r| r.content)
    }
}

/// Runs a command in the mount directory; (success, stdout, stderr).
fn run(dir: &Path, program: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn errno(e: &std::io::Error) -> Option<i32> {
    e.raw_os_error()
}

// Linux errno values, as the kernel hands them to the caller.
const EPERM: i32 = 1;
const EIO: i32 = 5;
const EEXIST: i32 = 17;
const EINVAL: i32 = 22;
const EFBIG: i32 = 27;
const EROFS: i32 = 30;

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

use VersionOperation::{Created, Deleted, Modified};

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn files_round_trip_byte_for_byte_with_one_version_per_close() {
    let m = mounted();
    let (ok, out, _) = run(m.dir.path(), "ls", &[]);
    assert!(ok);
    assert_eq!(out, "notes\nshared\n");
    let text = "Grüße — décisions\n\ttabs, emoji 🦀, CRLF\r\nend without newline";
    fs::write(m.path("notes/decisions.md"), text).unwrap();
    assert_eq!(
        fs::read(m.path("notes/decisions.md")).unwrap(),
        text.as_bytes()
    );
    let (ok, out, _) = run(m.dir.path(), "cat", &["notes/decisions.md"]);
    assert!(ok);
    assert_eq!(out, text);
    let meta = fs::metadata(m.path("notes/decisions.md")).unwrap();
    assert!(meta.is_file());
    assert_eq!(meta.len(), text.len() as u64);
    assert_eq!(m.stored("notes/decisions.md").as_deref(), Some(text));
    // Overwrite: exactly one new version, from many write() calls — and a child process started
    // meanwhile, whose copy of the descriptor is closed at its exec, does not cut it in two.
    let mut file = fs::File::create(m.path("notes/decisions.md")).unwrap();
    for line in 0..200 {
        writeln!(file, "line {line}").unwrap();
        if line == 100 {
            assert!(Command::new("true").status().unwrap().success());
        }
    }
    drop(file);
    let rewritten: String = (0..200).map(|l| format!("line {l}\n")).collect();
    assert_eq!(
        fs::read_to_string(m.path("notes/decisions.md")).unwrap(),
        rewritten
    );
    // Append through the kernel: the content read at open, extended.
    let mut file = OpenOptions::new()
        .append(true)
        .open(m.path("notes/decisions.md"))
        .unwrap();
    file.write_all(b"appended\n").unwrap();
    drop(file);
    // An empty file.
    fs::File::create(m.path("notes/empty.md")).unwrap();
    assert_eq!(fs::metadata(m.path("notes/empty.md")).unwrap().len(), 0);
    let (ok, out, _) = run(m.dir.path(), "ls", &["notes"]);
    assert!(ok);
    assert_eq!(out, "decisions.md\nempty.md\n");
    assert_eq!(
        m.versions(&m.notes),
        [
            (Created, "/decisions.md".into(), some(text)),
            (Modified, "/decisions.md".into(), Some(rewritten.clone())),
            (
                Modified,
                "/decisions.md".into(),
                Some(rewritten + "appended\n")
            ),
            (Created, "/empty.md".into(), some("")),
        ]
    );
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn mv_and_rm_rename_replace_and_delete() {
    let m = mounted();
    fs::write(m.path("notes/draft.md"), "new text\n").unwrap();
    fs::write(m.path("notes/notes.md"), "old text\n").unwrap();
    let dir = m.dir.path();
    // A plain rename with mv.
    assert!(run(dir, "mv", &["notes/draft.md", "notes/next.md"]).0);
    // Onto an existing file: the old one is replaced in the same transaction.
    assert!(run(dir, "mv", &["notes/next.md", "notes/notes.md"]).0);
    let (_, out, _) = run(dir, "cat", &["notes/notes.md"]);
    assert_eq!(out, "new text\n");
    // std::fs::rename into a new directory made with mkdir.
    fs::create_dir(m.path("notes/archive")).unwrap();
    fs::rename(m.path("notes/notes.md"), m.path("notes/archive/notes.md")).unwrap();
    let (_, out, _) = run(dir, "ls", &["-R", "notes"]);
    assert_eq!(out, "notes:\narchive\n\nnotes/archive:\nnotes.md\n");
    let (ok, _, _) = run(dir, "rm", &["notes/archive/notes.md"]);
    assert!(ok);
    assert!(!m.path("notes/archive/notes.md").exists());
    // The emptied directory stays until rmdir.
    assert!(m.path("notes/archive").is_dir());
    fs::remove_dir(m.path("notes/archive")).unwrap();
    let (_, out, _) = run(dir, "ls", &["notes"]);
    assert_eq!(out, "");
    let versions = m.versions(&m.notes);
    assert_eq!(
        versions[..3],
        [
            (Created, "/draft.md".into(), some("new text\n")),
            (Created, "/notes.md".into(), some("old text\n")),
            (Modified, "/next.md".into(), some("new text\n")),
        ]
    );
    // The replacing rename's two versions share one instant; their order is the ids'.
    let mut replaced = versions[3..5].to_vec();
    replaced.sort_by_key(|v| v.0 == Modified);
    assert_eq!(
        replaced,
        [
            (Deleted, "/notes.md".into(), None),
            (Modified, "/notes.md".into(), some("new text\n")),
        ]
    );
    assert_eq!(
        versions[5..],
        [
            (Modified, "/archive/notes.md".into(), some("new text\n")),
            (Deleted, "/archive/notes.md".into(), None),
        ]
    );
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn refusals_reach_the_caller_as_errno_and_write_nothing() {
    let m = mounted();
    // Read-only mount: readable, every write EROFS.
    assert_eq!(
        fs::read_to_string(m.path("shared/fact.md")).unwrap(),
        "fixed\n"
    );
    let e = fs::write(m.path("shared/fact.md"), "changed").unwrap_err();
    assert_eq!(errno(&e), Some(EROFS), "{e}");
    let e = fs::write(m.path("shared/new.md"), "x").unwrap_err();
    assert_eq!(errno(&e), Some(EROFS), "{e}");
    let (ok, _, err) = run(m.dir.path(), "rm", &["shared/fact.md"]);
    assert!(!ok);
    assert!(err.contains("Read-only file system"), "{err}");
    let (ok, _, err) = run(m.dir.path(), "mv", &["shared/fact.md", "shared/b.md"]);
    assert!(!ok, "{err}");
    // Size: 102,400 bytes fit, one more is EFBIG at the write.
    let full = "x".repeat(102_400);
    fs::write(m.path("notes/full.txt"), &full).unwrap();
    assert_eq!(fs::read_to_string(m.path("notes/full.txt")).unwrap(), full);
    let e = fs::write(m.path("notes/full.txt"), full.clone() + "y").unwrap_err();
    assert_eq!(errno(&e), Some(EFBIG), "{e}");
    // The refused overwrite abandoned that open as a whole: the stored file is as it was.
    assert_eq!(m.stored("notes/full.txt").as_deref(), Some(full.as_str()));
    // Names the store refuses; missing files; exclusive create.
    let e = fs::write(m.path("notes/back\\slash"), "x").unwrap_err();
    assert_eq!(errno(&e), Some(EINVAL), "{e}");
    let e = fs::read(m.path("notes/missing")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    let e = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(m.path("notes/full.txt"))
        .unwrap_err();
    assert_eq!(errno(&e), Some(EEXIST), "{e}");
    assert_eq!(
        m.versions(&m.notes),
        [(Created, "/full.txt".into(), Some(full))]
    );
    assert_eq!(m.versions(&m.shared).len(), 1);
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn a_write_that_lost_a_race_is_eio_and_the_other_version_stays() {
    let m = mounted();
    fs::write(m.path("notes/shared.md"), "base\n").unwrap();
    let mut file = OpenOptions::new()
        .write(true)
        .open(m.path("notes/shared.md"))
        .unwrap();
    file.write_all(b"mine\n").unwrap();
    // Another writer (the same session through the facade, say another agent process).
    m.service
        .fs_write_path(
            &m.agent,
            "/mnt/memory/notes/shared.md",
            "theirs\n".into(),
            None,
        )
        .unwrap();
    let e = file.sync_all().unwrap_err();
    assert_eq!(errno(&e), Some(EIO), "{e}");
    drop(file);
    assert_eq!(
        fs::read_to_string(m.path("notes/shared.md")).unwrap(),
        "theirs\n"
    );
    assert_eq!(
        m.versions(&m.notes),
        [
            (Created, "/shared.md".into(), some("base\n")),
            (Modified, "/shared.md".into(), some("theirs\n")),
        ]
    );
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn names_with_personal_data_are_eperm_in_a_masking_store_and_write_nothing() {
    let m = mounted_with_private();
    let private = m.private.clone().unwrap();
    let dir = m.dir.path();
    // A new file, refused at its creation (not at the close, which programs often ignore).
    let e = fs::write(m.path("private/dana.levi@example.com.md"), "x").unwrap_err();
    assert_eq!(errno(&e), Some(EPERM), "{e}");
    let e = fs::File::create(m.path("private/+14155550100.md")).unwrap_err();
    assert_eq!(errno(&e), Some(EPERM), "{e}");
    let e = fs::create_dir(m.path("private/dana.levi@example.com")).unwrap_err();
    assert_eq!(errno(&e), Some(EPERM), "{e}");
    // A rename onto such a name, with mv and with std::fs.
    fs::write(m.path("private/2024-03-15.md"), "notes\n").unwrap();
    let (ok, _, err) = run(
        dir,
        "mv",
        &["private/2024-03-15.md", "private/050-123-4567.md"],
    );
    assert!(!ok);
    assert!(err.contains("Operation not permitted"), "{err}");
    let e = fs::rename(
        m.path("private/2024-03-15.md"),
        m.path("private/123456782.md"),
    )
    .unwrap_err();
    assert_eq!(errno(&e), Some(EPERM), "{e}");
    let (_, out, _) = run(dir, "ls", &["private"]);
    assert_eq!(out, "2024-03-15.md\n");
    assert_eq!(
        m.versions(&private),
        [(Created, "/2024-03-15.md".into(), some("notes\n"))]
    );
    // The allow store keeps such a name as given.
    fs::write(m.path("notes/dana.levi@example.com.md"), "x").unwrap();
    assert_eq!(
        m.versions(&m.notes),
        [(Created, "/dana.levi@example.com.md".into(), some("x"))]
    );
}

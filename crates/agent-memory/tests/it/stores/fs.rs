//! The agent file interface: listing, reading, writing, deleting and renaming through mounts.

use agent_memory::ErrorCode;
use agent_memory::{CreateStoreRequest, PiiPolicy};
use agent_memory::{FsPathRequest, FsRenameRequest, FsWriteRequest};
use memory_core::{VersionOperation, content_sha256};
use serde_json::json;

use super::{Stores, code, editor, ghost_session};

fn entries(listing: memory_core::session::FsListing) -> serde_json::Value {
    serde_json::to_value(listing).unwrap()
}

#[test]
fn list_shows_mounts_top_level_entries_and_implicit_directories() {
    let st = Stores::new();
    let s = &st.service;
    let notes = st.store(CreateStoreRequest::new("Notes"));
    let team = st.store(CreateStoreRequest::new("A Team"));
    st.memory(&notes, "/todo.md", "twelve bytes");
    st.memory(&notes, "/notes/a.md", "a");
    st.memory(&notes, "/notes/deep/b.md", "bb");
    st.memory(&notes, "/B.md", "");
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": notes},
        {"type": "memory_store", "memory_store_id": team},
    ]));
    for root in ["/mnt/memory", "/mnt/memory/"] {
        assert_eq!(
            entries(
                st.typed()
                    .fs_list(&agent, &FsPathRequest::new(root))
                    .unwrap()
            ),
            json!({"entries": [{"name": "a-team", "type": "dir"}, {"name": "notes", "type": "dir"}]})
        );
    }
    for mount in ["/mnt/memory/notes", "/mnt/memory/notes/"] {
        assert_eq!(
            entries(
                st.typed()
                    .fs_list(&agent, &FsPathRequest::new(mount))
                    .unwrap()
            ),
            json!({"entries": [
                {"name": "B.md", "type": "file", "size": 0},
                {"name": "notes", "type": "dir"},
                {"name": "todo.md", "type": "file", "size": 12},
            ]})
        );
    }
    assert_eq!(
        entries(
            st.typed()
                .fs_list(&agent, &FsPathRequest::new("/mnt/memory/notes/notes/"))
                .unwrap()
        ),
        json!({"entries": [{"name": "a.md", "type": "file", "size": 1}, {"name": "deep", "type": "dir"}]})
    );
    assert_eq!(
        entries(
            st.typed()
                .fs_list(&agent, &FsPathRequest::new("/mnt/memory/notes/todo.md"))
                .unwrap()
        ),
        json!({"entries": [{"name": "todo.md", "type": "file", "size": 12}]})
    );
    assert_eq!(
        entries(
            st.typed()
                .fs_list(&agent, &FsPathRequest::new("/mnt/memory/notes/nothing"))
                .unwrap()
        ),
        json!({"entries": []})
    );
    assert_eq!(
        entries(
            st.typed()
                .fs_list(&agent, &FsPathRequest::new("/mnt/memory/a-team"))
                .unwrap()
        ),
        json!({"entries": []})
    );
    for bad in [
        "/mnt/memory/other",
        "/memories/notes",
        "/etc",
        "/mnt/memory/notes/../x",
    ] {
        assert_eq!(
            code(st.typed().fs_list(&agent, &FsPathRequest::new(bad))),
            ErrorCode::MemoryPathInvalid,
            "{bad}"
        );
    }
    assert_eq!(
        code(s.fs_list(&agent, &json!({"path": "/x", "depth": 2}))),
        ErrorCode::MemoryInvalidRequest
    );
    assert_eq!(
        code(
            st.typed()
                .fs_list(&ghost_session(), &FsPathRequest::new("/mnt/memory/"))
        ),
        ErrorCode::SessionNotFound
    );
}

#[test]
fn write_read_rename_delete_as_the_session() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let agent = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
    let created = st
        .typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/a/b.md", "one"),
        )
        .unwrap();
    assert_eq!(created.path.as_str(), "/a/b.md");
    let updated = st
        .typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/a/b.md", "two"),
        )
        .unwrap();
    assert_eq!(
        updated.id, created.id,
        "a write to an existing path updates that memory"
    );
    let read = st
        .typed()
        .fs_read(&agent, &FsPathRequest::new("/mnt/memory/notes/a/b.md"))
        .unwrap();
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        json!({"content": "two", "content_sha256": content_sha256("two")})
    );
    // Writing what is there writes nothing.
    st.typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/a/b.md", "two"),
        )
        .unwrap();
    // A precondition can guard a write.
    assert_eq!(
        code(s.fs_write(
            &agent,
            &json!({"path": "/mnt/memory/notes/a/b.md", "content": "three",
                    "precondition": {"type": "content_sha256", "content_sha256": content_sha256("one")}})
        )),
        ErrorCode::MemoryPreconditionFailed
    );
    assert_eq!(
        code(s.fs_write(
            &agent,
            &json!({"path": "/mnt/memory/notes/new.md", "content": "x",
                    "precondition": {"type": "content_sha256", "content_sha256": content_sha256("")}})
        )),
        ErrorCode::MemoryNotFound
    );
    let moved = st
        .typed()
        .fs_rename(
            &agent,
            &FsRenameRequest::new("/mnt/memory/notes/a/b.md", "/mnt/memory/notes/c.md"),
        )
        .unwrap();
    assert_eq!(
        (moved.id.as_str(), moved.path.as_str()),
        (created.id.as_str(), "/c.md")
    );
    assert_eq!(
        code(
            st.typed()
                .fs_read(&agent, &FsPathRequest::new("/mnt/memory/notes/a/b.md"))
        ),
        ErrorCode::MemoryNotFound
    );
    // A conflict: a file cannot become the parent of another.
    st.typed()
        .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/notes/d.md", "d"))
        .unwrap();
    assert_eq!(
        code(st.typed().fs_rename(
            &agent,
            &FsRenameRequest::new("/mnt/memory/notes/d.md", "/mnt/memory/notes/c.md/x")
        )),
        ErrorCode::MemoryPathConflict
    );
    assert_eq!(
        code(st.typed().fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/c.md/x", "x")
        )),
        ErrorCode::MemoryPathConflict
    );
    assert_eq!(
        st.typed()
            .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/notes/c.md"))
            .unwrap(),
        agent_memory::FsDeleted::default()
    );
    assert_eq!(
        code(
            st.typed()
                .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/notes/c.md"))
        ),
        ErrorCode::MemoryNotFound
    );
    assert_eq!(
        code(
            st.typed()
                .fs_read(&agent, &FsPathRequest::new("/mnt/memory/notes"))
        ),
        ErrorCode::MemoryPathInvalid
    );
    assert_eq!(
        code(
            st.typed()
                .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/notes/"))
        ),
        ErrorCode::MemoryPathInvalid
    );
    // Every version was written by the session.
    let versions = st.versions(&store);
    let ops: Vec<VersionOperation> = versions.iter().rev().map(|v| v.operation).collect();
    assert_eq!(
        ops,
        [
            VersionOperation::Created,
            VersionOperation::Modified,
            VersionOperation::Modified,
            VersionOperation::Created,
            VersionOperation::Deleted
        ]
    );
    for v in &versions {
        assert_eq!(
            serde_json::to_value(&v.created_by).unwrap(),
            json!({"type": "session_actor", "session_id": agent.session})
        );
    }
}

#[test]
fn read_only_mounts_refuse_writes_and_rename_stays_in_its_mount() {
    let st = Stores::new();
    let ro = st.store(CreateStoreRequest::new("Shared"));
    let rw = st.store(CreateStoreRequest::new("Mine"));
    st.memory(&ro, "/fact.md", "fixed");
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": ro, "access": "read_only"},
        {"type": "memory_store", "memory_store_id": rw},
    ]));
    assert_eq!(
        st.typed()
            .fs_read(&agent, &FsPathRequest::new("/mnt/memory/shared/fact.md"))
            .unwrap()
            .content,
        "fixed"
    );
    let writes = [
        st.typed()
            .fs_write(
                &agent,
                &FsWriteRequest::new("/mnt/memory/shared/fact.md", "changed"),
            )
            .map(|_| ()),
        st.typed()
            .fs_write(
                &agent,
                &FsWriteRequest::new("/mnt/memory/shared/new.md", "x".repeat(200_000)),
            )
            .map(|_| ()),
        st.typed()
            .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/shared/fact.md"))
            .map(|_| ()),
        st.typed()
            .fs_rename(
                &agent,
                &FsRenameRequest::new("/mnt/memory/shared/fact.md", "/mnt/memory/shared/b.md"),
            )
            .map(|_| ()),
    ];
    for w in writes {
        assert_eq!(
            code(w),
            ErrorCode::MemoryStoreReadOnly,
            "403 before 413 and 404"
        );
    }
    st.memory(&rw, "/mine.md", "m");
    for (from, to) in [
        ("/mnt/memory/mine/mine.md", "/mnt/memory/shared/mine.md"),
        ("/mnt/memory/shared/fact.md", "/mnt/memory/mine/fact.md"),
    ] {
        assert_eq!(
            code(
                st.typed()
                    .fs_rename(&agent, &FsRenameRequest::new(from, to))
            ),
            ErrorCode::MemoryPathInvalid,
            "{from} -> {to}"
        );
    }
    assert_eq!(st.paths(&ro), ["/fact.md"]);
    assert_eq!(st.paths(&rw), ["/mine.md"]);
    assert_eq!(st.versions(&ro).len(), 1);
    assert_eq!(st.versions(&rw).len(), 1);
}

#[test]
fn deleted_and_archived_stores_behind_a_mount() {
    let st = Stores::new();
    let s = &st.service;
    let gone = st.store(CreateStoreRequest::new("Gone"));
    let old = st.store(CreateStoreRequest::new("Old"));
    st.memory(&old, "/a.md", "a");
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": gone},
        {"type": "memory_store", "memory_store_id": old},
    ]));
    s.stores_delete(&editor(), &json!({"memory_store_id": gone}))
        .unwrap();
    s.stores_archive(&editor(), &json!({"memory_store_id": old}))
        .unwrap();
    assert_eq!(
        code(
            st.typed()
                .fs_list(&agent, &FsPathRequest::new("/mnt/memory/gone"))
        ),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(
            st.typed()
                .fs_read(&agent, &FsPathRequest::new("/mnt/memory/gone/a.md"))
        ),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(
            st.typed()
                .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/gone/a.md", "x"))
        ),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(
            st.typed()
                .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/gone/a.md"))
        ),
        ErrorCode::MemoryStoreNotFound
    );
    // The mount itself is still listed: the session does not change.
    assert_eq!(
        st.typed()
            .fs_list(&agent, &FsPathRequest::new("/mnt/memory/"))
            .unwrap()
            .entries
            .len(),
        2
    );
    assert_eq!(
        st.typed()
            .fs_read(&agent, &FsPathRequest::new("/mnt/memory/old/a.md"))
            .unwrap()
            .content,
        "a"
    );
    assert_eq!(
        code(
            st.typed()
                .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/old/a.md", "b"))
        ),
        ErrorCode::MemoryStoreArchived
    );
    assert_eq!(
        code(
            st.typed()
                .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/old/new.md", "b"))
        ),
        ErrorCode::MemoryStoreArchived
    );
}

#[test]
fn a_100_kb_file_round_trips_byte_for_byte_and_one_byte_more_is_refused() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let agent = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
    // Multi-byte characters of every UTF-8 length, padded to exactly 102,400 bytes.
    let unit = "aé€😀\n";
    let mut content = unit.repeat(102_400 / unit.len());
    content.push_str(&"z".repeat(102_400 - content.len()));
    assert_eq!(content.len(), 102_400);
    let m = st
        .typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/big.txt", content.as_str()),
        )
        .unwrap();
    assert_eq!(m.content_size_bytes, 102_400);
    let read = st
        .typed()
        .fs_read(&agent, &FsPathRequest::new("/mnt/memory/notes/big.txt"))
        .unwrap();
    assert!(read.content.as_bytes() == content.as_bytes());
    assert_eq!(read.content_sha256, content_sha256(&content));
    let over = format!("{content}z");
    assert_eq!(
        code(st.typed().fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/big.txt", over.as_str())
        )),
        ErrorCode::MemoryTooLarge
    );
    assert_eq!(
        code(st.typed().fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/notes/other.txt", over.as_str())
        )),
        ErrorCode::MemoryTooLarge
    );
    assert_eq!(
        st.typed()
            .fs_read(&agent, &FsPathRequest::new("/mnt/memory/notes/big.txt"))
            .unwrap()
            .content,
        content
    );
    assert_eq!(st.paths(&store), ["/big.txt"]);
    assert_eq!(st.versions(&store).len(), 1);
}

#[test]
fn session_writes_follow_the_store_policy() {
    let st = Stores::new();
    let mask = st.store(CreateStoreRequest::new("Masked").pii_policy(PiiPolicy::Mask));
    let reject = st.store(CreateStoreRequest::new("Strict").pii_policy(PiiPolicy::Reject));
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": mask},
        {"type": "memory_store", "memory_store_id": reject},
    ]));
    let m = st
        .typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/masked/a", "call 050-123-4567"),
        )
        .unwrap();
    assert_eq!(m.content, "call [PHONE]");
    assert_eq!(
        code(st.typed().fs_write(
            &agent,
            &FsWriteRequest::new("/mnt/memory/strict/a", "mail dana@example.com")
        )),
        ErrorCode::MemoryPersonalData
    );
    assert!(st.paths(&reject).is_empty());
}

/// The helpers a real file system needs: stat without content, exclusive create, and a rename
/// that replaces the file at its destination in one transaction.
#[test]
fn stat_create_and_replacing_rename_for_a_file_system() {
    use agent_memory::FsStat;
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let shared = st.store(CreateStoreRequest::new("Shared"));
    st.memory(&shared, "/fact.md", "fixed");
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": store},
        {"type": "memory_store", "memory_store_id": shared, "access": "read_only"},
    ]));
    let draft = s
        .fs_create_path(&agent, "/mnt/memory/notes/draft.md", "new text".into())
        .unwrap();
    let old = s
        .fs_create_path(&agent, "/mnt/memory/notes/dir/notes.md", "old text".into())
        .unwrap();
    // Exclusive: a memory there (or above it) is a conflict, never an update.
    for path in ["/mnt/memory/notes/draft.md", "/mnt/memory/notes/draft.md/x"] {
        assert_eq!(
            code(s.fs_create_path(&agent, path, "x".into())),
            ErrorCode::MemoryPathConflict,
            "{path}"
        );
    }
    assert_eq!(
        code(s.fs_create_path(&agent, "/mnt/memory/shared/new.md", "x".into())),
        ErrorCode::MemoryStoreReadOnly
    );
    assert_eq!(
        code(s.fs_create_path(&agent, "/mnt/memory/notes/a\\b", "x".into())),
        ErrorCode::MemoryPathInvalid
    );
    // Stat: the mounts directory, mount roots, implicit directories, files; 404 for nothing.
    assert_eq!(
        s.fs_stat_path(&agent, "/mnt/memory/").unwrap(),
        FsStat::Mounts
    );
    assert_eq!(
        s.fs_stat_path(&agent, "/mnt/memory/shared").unwrap(),
        FsStat::Dir { read_only: true }
    );
    assert_eq!(
        s.fs_stat_path(&agent, "/mnt/memory/notes/dir/").unwrap(),
        FsStat::Dir { read_only: false }
    );
    match s
        .fs_stat_path(&agent, "/mnt/memory/notes/draft.md")
        .unwrap()
    {
        FsStat::File { memory, read_only } => {
            assert!(!read_only);
            assert_eq!(memory, draft.metadata());
        }
        other => panic!("{other:?}"),
    }
    for missing in ["/mnt/memory/notes/dra", "/mnt/memory/notes/dir/notes"] {
        assert_eq!(
            code(s.fs_stat_path(&agent, missing)),
            ErrorCode::MemoryNotFound,
            "{missing}"
        );
    }
    assert_eq!(
        code(s.fs_stat_path(&agent, "/mnt/memory/other")),
        ErrorCode::MemoryPathInvalid
    );
    // A plain rename refuses the taken path; the replacing one replaces it.
    assert_eq!(
        code(s.fs_rename_path(
            &agent,
            "/mnt/memory/notes/draft.md",
            "/mnt/memory/notes/dir/notes.md"
        )),
        ErrorCode::MemoryPathConflict
    );
    st.clock.advance_seconds(1);
    let before = st.versions(&store).len();
    let moved = s
        .fs_rename_replacing_path(
            &agent,
            "/mnt/memory/notes/draft.md",
            "/mnt/memory/notes/dir/notes.md",
        )
        .unwrap();
    assert_eq!(
        (&moved.id, moved.path.as_str(), moved.content.as_str()),
        (&draft.id, "/dir/notes.md", "new text")
    );
    let versions = st.versions(&store);
    assert_eq!(versions.len(), before + 2);
    let newest: Vec<(String, VersionOperation)> = versions[..2]
        .iter()
        .map(|v| (v.memory_id.as_str().to_owned(), v.operation))
        .collect();
    assert!(newest.contains(&(draft.id.as_str().to_owned(), VersionOperation::Modified)));
    assert!(newest.contains(&(old.id.as_str().to_owned(), VersionOperation::Deleted)));
    assert_eq!(versions[0].created_at, versions[1].created_at);
    assert_eq!(st.paths(&store), ["/dir/notes.md"]);
    // Onto a directory: still a conflict; across mounts or in a read-only one: refused.
    s.fs_create_path(&agent, "/mnt/memory/notes/x.md", "x".into())
        .unwrap();
    assert_eq!(
        code(s.fs_rename_replacing_path(&agent, "/mnt/memory/notes/x.md", "/mnt/memory/notes/dir")),
        ErrorCode::MemoryPathConflict
    );
    assert_eq!(
        code(s.fs_rename_replacing_path(
            &agent,
            "/mnt/memory/notes/x.md",
            "/mnt/memory/shared/fact.md"
        )),
        ErrorCode::MemoryPathInvalid
    );
    assert_eq!(
        code(s.fs_rename_replacing_path(
            &agent,
            "/mnt/memory/shared/fact.md",
            "/mnt/memory/shared/b.md"
        )),
        ErrorCode::MemoryStoreReadOnly
    );
    assert_eq!(st.versions(&shared).len(), 1);
}

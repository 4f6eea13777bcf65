//! Conformance checks of [`StoreBackend`]: memory stores, path-addressed memories, versions,
//! redaction, sessions, passages and tenancy.

use super::store_fixture::{
    Writer, actor, at, mem_id, path, refused_code, setup, sha, store, store_id, ver_id, ws,
};
use memory_core::{
    ApiError, ErrorCode, MemoryStore, Precondition, Session, SessionId, VersionOperation,
    content_sha256,
};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome, StoreBackend};

/// Stores round-trip, list newest first with keyset pages, hide archived ones unless asked, and
/// are invisible from another workspace.
pub fn stores_roundtrip_and_list<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = ws("ws1");
    for (n, ms) in [(1, 10), (2, 30), (3, 20), (4, 30)] {
        backend.create_store(&w, &store(n, ms)).unwrap();
    }
    assert_eq!(
        backend.get_store(&w, &store_id(2)).unwrap(),
        Some(store(2, 30))
    );
    assert_eq!(backend.get_store(&ws("ws2"), &store_id(2)).unwrap(), None);
    assert!(
        backend
            .list_stores(&ws("ws2"), true, None, 10)
            .unwrap()
            .is_empty()
    );
    let ids = |v: Vec<MemoryStore>| v.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(
        ids(backend.list_stores(&w, false, None, 10).unwrap()),
        [store_id(4), store_id(2), store_id(3), store_id(1)]
    );
    let page = backend.list_stores(&w, false, None, 2).unwrap();
    let last = page.last().unwrap();
    assert_eq!(
        ids(backend
            .list_stores(&w, false, Some(&(last.created_at, last.id.clone())), 10)
            .unwrap()),
        [store_id(3), store_id(1)]
    );
    let mut archived = store(3, 20);
    archived.archived_at = Some(at(40));
    archived.updated_at = at(40);
    assert!(backend.put_store(&w, &archived).unwrap());
    assert!(!backend.put_store(&ws("ws2"), &archived).unwrap());
    assert_eq!(
        ids(backend.list_stores(&w, false, None, 10).unwrap()),
        [store_id(4), store_id(2), store_id(1)]
    );
    assert_eq!(backend.list_stores(&w, true, None, 10).unwrap().len(), 4);
    assert_eq!(backend.get_store(&w, &store_id(3)).unwrap(), Some(archived));
}

/// Create, update, rename, no-op, delete and restore write exactly the versions the spec says,
/// newest first, and keep every version after a delete.
pub fn memory_lifecycle_writes_one_version_per_change<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = setup(&backend);
    let created = w.create(1, 1, 1, "/notes/a.md", "first");
    assert_eq!(created.content_sha256, content_sha256("first"));
    assert_eq!(created.content_size_bytes, 5);
    assert_eq!(created.version_id, ver_id(1));
    let update =
        |content: Option<&str>, p: Option<&str>, pre: Option<Precondition>| MemoryChange::Update {
            memory_id: mem_id(1),
            content: content.map(Into::into),
            path: p.map(path),
            precondition: pre,
        };
    // A no-op writes nothing, even when the precondition names another hash.
    match w.write(2, 2, update(Some("first"), None, sha("other"))) {
        MemoryWriteOutcome::Unchanged { memory } => assert_eq!(memory, created),
        other => panic!("expected no change: {other:?}"),
    }
    // A mismatched precondition is refused with the current hash.
    match w.write(2, 2, update(Some("second"), None, sha("other"))) {
        MemoryWriteOutcome::Refused(e) => {
            assert_eq!(e.code(), ErrorCode::MemoryPreconditionFailed);
            assert_eq!(e, ApiError::precondition_failed(content_sha256("first")));
        }
        other => panic!("expected a refusal: {other:?}"),
    }
    let MemoryWriteOutcome::Written {
        memory: Some(updated),
        version,
    } = w.write(2, 3, update(Some("second"), None, sha("first")))
    else {
        panic!("update refused")
    };
    assert_eq!(version.operation, VersionOperation::Modified);
    assert_eq!(version.content.as_deref(), Some("second"));
    assert_eq!(updated.created_at, created.created_at);
    assert_eq!(updated.updated_at, at(3));
    // Rename only: a modified version with the same content.
    let MemoryWriteOutcome::Written {
        memory: Some(renamed),
        version,
    } = w.write(3, 4, update(None, Some("/b.md"), None))
    else {
        panic!("rename refused")
    };
    assert_eq!(renamed.path, path("/b.md"));
    assert_eq!(version.content.as_deref(), Some("second"));
    assert_eq!(
        backend
            .memory_at_path(&w.workspace, &w.store, &path("/notes/a.md"))
            .unwrap(),
        None
    );
    assert_eq!(
        backend
            .memory_at_path(&w.workspace, &w.store, &path("/b.md"))
            .unwrap()
            .unwrap()
            .id,
        mem_id(1)
    );
    // Delete: a deleted version keeping the path, no content; the memory is gone.
    let MemoryWriteOutcome::Written {
        memory: None,
        version: deleted,
    } = w.write(
        4,
        5,
        MemoryChange::Delete {
            memory_id: mem_id(1),
            precondition: sha("second"),
        },
    )
    else {
        panic!("delete refused")
    };
    assert_eq!(deleted.operation, VersionOperation::Deleted);
    assert_eq!(deleted.path, Some(path("/b.md")));
    assert_eq!(deleted.content, None);
    assert_eq!(deleted.content_sha256, None);
    assert_eq!(
        backend
            .get_memory(&w.workspace, &w.store, &mem_id(1))
            .unwrap(),
        None
    );
    let ops: Vec<_> = w.versions(Some(1)).iter().map(|v| v.operation).collect();
    assert_eq!(
        ops,
        [
            VersionOperation::Deleted,
            VersionOperation::Modified,
            VersionOperation::Modified,
            VersionOperation::Created
        ]
    );
    // Restoring the first version of a deleted memory recreates it under its old id.
    let restore = |source: u32| MemoryChange::Restore {
        memory_id: mem_id(1),
        source: ver_id(source),
        precondition: None,
    };
    assert_eq!(
        refused_code(&w.write(5, 6, restore(4))),
        Some(ErrorCode::MemoryVersionNotRestorable)
    );
    let MemoryWriteOutcome::Written {
        memory: Some(back),
        version,
    } = w.write(5, 6, restore(1))
    else {
        panic!("restore refused")
    };
    assert_eq!(version.operation, VersionOperation::Created);
    assert_eq!(
        (back.path.as_str(), back.content.as_str()),
        ("/notes/a.md", "first")
    );
    assert_eq!(back.id, mem_id(1));
    assert_eq!(back.created_at, created.created_at);
    // Restoring what the memory already is writes nothing.
    assert!(matches!(
        w.write(6, 7, restore(1)),
        MemoryWriteOutcome::Unchanged { .. }
    ));
    // Restoring an older version of a live memory is a modified version.
    let MemoryWriteOutcome::Written { version, .. } = w.write(6, 7, restore(2)) else {
        panic!("restore refused")
    };
    assert_eq!(version.operation, VersionOperation::Modified);
    assert_eq!(w.versions(None).len(), 6);
    assert_eq!(w.versions(Some(2)).len(), 0);
}

/// Refusals come in the spec's order and write nothing: not found, archived, restore refusals,
/// precondition, path conflict, personal data.
pub fn refusals_follow_the_order_of_checks<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = setup(&backend);
    w.create(1, 1, 1, "/a/b", "x");
    w.create(2, 2, 2, "/c", "y");
    let before = w.versions(None);
    let create = |m: u32, p: &str| MemoryChange::Create {
        memory_id: mem_id(m),
        path: path(p),
        content: "z".into(),
    };
    // Path conflicts: equal, above, under.
    for p in ["/a/b", "/a", "/a/b/c", "/c/d"] {
        assert_eq!(
            refused_code(&w.write(9, 9, create(9, p))),
            Some(ErrorCode::MemoryPathConflict),
            "{p}"
        );
    }
    // `/ab` and `/a/bc` do not conflict with `/a/b`.
    w.create(3, 3, 3, "/ab", "z");
    w.create(4, 4, 4, "/a/bc", "z");
    // Personal data is the last check: a conflict wins over it.
    assert_eq!(
        refused_code(&w.write_pd(9, 9, create(9, "/c"), true)),
        Some(ErrorCode::MemoryPathConflict)
    );
    assert_eq!(
        refused_code(&w.write_pd(9, 9, create(9, "/free"), true)),
        Some(ErrorCode::MemoryPersonalData)
    );
    // Precondition before path conflict.
    let move_to = |p: &str, pre| MemoryChange::Update {
        memory_id: mem_id(2),
        content: None,
        path: Some(path(p)),
        precondition: pre,
    };
    assert_eq!(
        refused_code(&w.write(9, 9, move_to("/a", sha("not y")))),
        Some(ErrorCode::MemoryPreconditionFailed)
    );
    assert_eq!(
        refused_code(&w.write(9, 9, move_to("/a", sha("y")))),
        Some(ErrorCode::MemoryPathConflict)
    );
    // A memory may move under its own old path.
    assert!(matches!(
        w.write(5, 5, move_to("/c/inner", None)),
        MemoryWriteOutcome::Written { .. }
    ));
    // Unknown memory and version; a version of another memory is not found.
    let update_unknown = MemoryChange::Update {
        memory_id: mem_id(99),
        content: Some("q".into()),
        path: None,
        precondition: None,
    };
    assert_eq!(
        refused_code(&w.write(9, 9, update_unknown.clone())),
        Some(ErrorCode::MemoryNotFound)
    );
    let restore = |m: u32, v: u32| MemoryChange::Restore {
        memory_id: mem_id(m),
        source: ver_id(v),
        precondition: None,
    };
    assert_eq!(
        refused_code(&w.write(9, 9, restore(1, 2))),
        Some(ErrorCode::MemoryVersionNotFound)
    );
    assert_eq!(
        refused_code(&w.write(9, 9, restore(99, 1))),
        Some(ErrorCode::MemoryNotFound)
    );
    // Unknown store: before everything else.
    let other = Writer {
        backend: &backend,
        workspace: ws("ws1"),
        store: store_id(7),
    };
    assert_eq!(
        refused_code(&other.write(9, 9, update_unknown)),
        Some(ErrorCode::MemoryStoreNotFound)
    );
    // The same store id in another workspace does not exist.
    let foreign = Writer {
        backend: &backend,
        workspace: ws("ws2"),
        store: store_id(1),
    };
    assert_eq!(
        refused_code(&foreign.write(9, 9, create(9, "/new"))),
        Some(ErrorCode::MemoryStoreNotFound)
    );
    // Archived: after not-found, before the rest.
    let mut archived = backend.get_store(&w.workspace, &w.store).unwrap().unwrap();
    archived.archived_at = Some(at(50));
    backend.put_store(&w.workspace, &archived).unwrap();
    let versions_now = w.versions(None);
    assert_eq!(
        refused_code(&w.write(9, 60, create(9, "/a/b"))),
        Some(ErrorCode::MemoryStoreArchived)
    );
    assert_eq!(
        refused_code(&w.write(9, 60, move_to("/x", sha("wrong")))),
        Some(ErrorCode::MemoryStoreArchived)
    );
    assert_eq!(
        refused_code(&w.write(
            9,
            60,
            MemoryChange::Delete {
                memory_id: mem_id(99),
                precondition: None
            }
        )),
        Some(ErrorCode::MemoryNotFound)
    );
    assert_eq!(
        refused_code(&w.write(9, 60, restore(1, 1))),
        Some(ErrorCode::MemoryStoreArchived)
    );
    assert_eq!(w.versions(None), versions_now);
    assert_eq!(before.len() + 3, versions_now.len());
}

/// A replacing rename (POSIX `rename(2)` onto an existing file) writes the replaced memory's
/// `deleted` version and the moved memory's `modified` version in one step; onto a free path it
/// is a plain rename (one version), onto its own path nothing; a directory (a memory under the
/// path) or a file above it still conflicts; a failed precondition or an archived store writes
/// nothing and leaves the target intact.
pub fn replace_renames_onto_a_live_memory_in_one_step<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = setup(&backend);
    let moved = w.create(1, 1, 1, "/draft.md", "new text");
    let target = w.create(2, 2, 2, "/notes.md", "old text");
    w.create(3, 3, 3, "/dir/inner.md", "z");
    let replace = |m: u32, p: &str, pre, replaced: u32| MemoryChange::Replace {
        memory_id: mem_id(m),
        path: path(p),
        precondition: pre,
        replaced_version_id: ver_id(replaced),
    };
    let before = w.versions(None);
    // Refusals write nothing: a wrong precondition, a directory at the path, a file above it,
    // an unknown memory.
    for (change, code) in [
        (
            replace(1, "/notes.md", sha("other"), 11),
            ErrorCode::MemoryPreconditionFailed,
        ),
        (replace(1, "/dir", None, 11), ErrorCode::MemoryPathConflict),
        (
            replace(1, "/dir/inner.md/x", None, 11),
            ErrorCode::MemoryPathConflict,
        ),
        (replace(9, "/notes.md", None, 11), ErrorCode::MemoryNotFound),
    ] {
        assert_eq!(
            refused_code(&w.write(10, 10, change.clone())),
            Some(code),
            "{change:?}"
        );
    }
    assert_eq!(w.versions(None), before);
    // Its own path: nothing changes, whatever the precondition.
    assert!(matches!(
        w.write(10, 10, replace(1, "/draft.md", sha("other"), 11)),
        MemoryWriteOutcome::Unchanged { memory } if memory == moved
    ));
    // Two distinct version ids are needed once something is replaced.
    assert!(matches!(
        backend.write_memory(&MemoryWrite {
            workspace: w.workspace.clone(),
            store: w.store.clone(),
            change: replace(1, "/notes.md", None, 10),
            version_id: ver_id(10),
            actor: actor(),
            at: at(10),
            personal_data: false,
        }),
        Err(store_trait::Error::InvalidWrite(_))
    ));
    assert_eq!(w.versions(None), before);
    // Onto the live memory at `/notes.md`: both versions at once, personal data not checked.
    let MemoryWriteOutcome::Written {
        memory: Some(now),
        version,
    } = w.write_pd(10, 10, replace(1, "/notes.md", sha("new text"), 11), true)
    else {
        panic!("replace refused")
    };
    assert_eq!(
        (now.id.clone(), now.path.as_str(), now.content.as_str()),
        (mem_id(1), "/notes.md", "new text")
    );
    assert_eq!((now.created_at, now.updated_at), (moved.created_at, at(10)));
    assert_eq!(version.operation, VersionOperation::Modified);
    assert_eq!(version.id, ver_id(10));
    let replaced = backend
        .get_version(&w.workspace, &w.store, &ver_id(11))
        .unwrap()
        .expect("the replaced memory's deleted version");
    assert_eq!(replaced.operation, VersionOperation::Deleted);
    assert_eq!(replaced.memory_id, target.id);
    assert_eq!(replaced.path, Some(path("/notes.md")));
    assert_eq!((replaced.content, replaced.created_at), (None, at(10)));
    assert_eq!(
        backend
            .get_memory(&w.workspace, &w.store, &mem_id(2))
            .unwrap(),
        None
    );
    assert_eq!(
        backend
            .memory_at_path(&w.workspace, &w.store, &path("/notes.md"))
            .unwrap(),
        Some(now.clone())
    );
    assert_eq!(
        backend
            .memory_at_path(&w.workspace, &w.store, &path("/draft.md"))
            .unwrap(),
        None
    );
    let paths: Vec<String> = backend
        .list_memories(&w.workspace, &w.store, None, None, 10)
        .unwrap()
        .into_iter()
        .map(|m| m.path.into_string())
        .collect();
    assert_eq!(paths, ["/dir/inner.md", "/notes.md"]);
    assert_eq!(w.versions(None).len(), before.len() + 2);
    let ops = |m: u32| -> Vec<VersionOperation> {
        w.versions(Some(m)).iter().map(|v| v.operation).collect()
    };
    assert_eq!(
        ops(2),
        [VersionOperation::Deleted, VersionOperation::Created]
    );
    assert_eq!(
        ops(1),
        [VersionOperation::Modified, VersionOperation::Created]
    );
    // The replaced memory can come back elsewhere only: its path is taken now.
    assert_eq!(
        refused_code(&w.write(
            12,
            12,
            MemoryChange::Restore {
                memory_id: mem_id(2),
                source: ver_id(2),
                precondition: None,
            }
        )),
        Some(ErrorCode::MemoryPathConflict)
    );
    // Onto a free path: one modified version, no deleted one.
    assert!(matches!(
        w.write(12, 12, replace(1, "/final.md", None, 13)),
        MemoryWriteOutcome::Written { memory: Some(ref m), .. } if m.path == path("/final.md")
    ));
    assert_eq!(
        backend
            .get_version(&w.workspace, &w.store, &ver_id(13))
            .unwrap(),
        None
    );
    assert_eq!(w.versions(None).len(), before.len() + 3);
    // An archived store refuses, and the memory at the target stays.
    let mut archived = backend.get_store(&w.workspace, &w.store).unwrap().unwrap();
    archived.archived_at = Some(at(20));
    backend.put_store(&w.workspace, &archived).unwrap();
    assert_eq!(
        refused_code(&w.write(20, 20, replace(1, "/dir/inner.md", None, 21))),
        Some(ErrorCode::MemoryStoreArchived)
    );
    assert!(
        backend
            .get_memory(&w.workspace, &w.store, &mem_id(3))
            .unwrap()
            .is_some()
    );
}

/// Redaction nulls content, path, hash and size, is idempotent, and is refused for a live
/// memory's current version; a redacted version cannot be restored.
pub fn redaction_is_irreversible_and_spares_current_versions<B: StoreBackend>(
    make: &dyn Fn() -> B,
) {
    let backend = make();
    let w = setup(&backend);
    w.create(1, 1, 1, "/secret", "first secret");
    let redact = |v: u32, ms: i64| {
        backend
            .redact_version(&w.workspace, &w.store, &ver_id(v), at(ms))
            .unwrap()
    };
    let code = |o: RedactOutcome| match o {
        RedactOutcome::Refused(e) => Some(e.code()),
        RedactOutcome::Redacted(_) => None,
    };
    assert_eq!(code(redact(1, 2)), Some(ErrorCode::MemoryVersionIsCurrent));
    assert_eq!(code(redact(77, 2)), Some(ErrorCode::MemoryVersionNotFound));
    assert_eq!(
        code(
            backend
                .redact_version(&w.workspace, &store_id(9), &ver_id(1), at(2))
                .unwrap()
        ),
        Some(ErrorCode::MemoryStoreNotFound)
    );
    w.write(
        2,
        3,
        MemoryChange::Update {
            memory_id: mem_id(1),
            content: Some("second".into()),
            path: None,
            precondition: None,
        },
    );
    let RedactOutcome::Redacted(v) = redact(1, 4) else {
        panic!("redaction refused")
    };
    assert_eq!(
        (
            &v.path,
            &v.content,
            &v.content_sha256,
            v.content_size_bytes,
            v.redacted_at
        ),
        (&None, &None, &None, None, Some(at(4)))
    );
    let RedactOutcome::Redacted(again) = redact(1, 9) else {
        panic!("second redaction refused")
    };
    assert_eq!(again.redacted_at, Some(at(4)));
    assert_eq!(
        backend
            .get_version(&w.workspace, &w.store, &ver_id(1))
            .unwrap(),
        Some(v)
    );
    assert_eq!(
        refused_code(&w.write(
            3,
            10,
            MemoryChange::Restore {
                memory_id: mem_id(1),
                source: ver_id(1),
                precondition: None
            }
        )),
        Some(ErrorCode::MemoryVersionRedacted)
    );
    // After a delete, every version of the memory can be redacted, the deleted one included.
    w.write(
        3,
        11,
        MemoryChange::Delete {
            memory_id: mem_id(1),
            precondition: None,
        },
    );
    assert!(matches!(redact(2, 12), RedactOutcome::Redacted(_)));
    assert!(matches!(redact(3, 12), RedactOutcome::Redacted(_)));
    assert!(
        w.versions(Some(1))
            .iter()
            .all(|v| v.content.is_none() && v.path.is_none())
    );
}

/// Memories list by path bytes, filtered by whole leading segments, with keyset pages.
pub fn memories_list_by_path_with_prefix_and_pages<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = setup(&backend);
    for (n, p) in [
        (1, "/notes/b"),
        (2, "/notes/a"),
        (3, "/notes-x"),
        (4, "/notesy/z"),
        (5, "/a"),
        (6, "/notes/sub/c"),
    ] {
        w.create(n, n, i64::from(n), p, "c");
    }
    let list = |prefix: Option<&str>, after: Option<&str>, limit| {
        backend
            .list_memories(
                &w.workspace,
                &w.store,
                prefix,
                after.map(path).as_ref(),
                limit,
            )
            .unwrap()
            .into_iter()
            .map(|m| m.path.into_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        list(None, None, 100),
        [
            "/a",
            "/notes-x",
            "/notes/a",
            "/notes/b",
            "/notes/sub/c",
            "/notesy/z"
        ]
    );
    assert_eq!(
        list(Some("/notes"), None, 100),
        ["/notes/a", "/notes/b", "/notes/sub/c"]
    );
    assert_eq!(list(Some("/notes/"), None, 2), ["/notes/a", "/notes/b"]);
    assert_eq!(list(Some("/notes"), Some("/notes/b"), 2), ["/notes/sub/c"]);
    assert_eq!(list(Some("/"), Some("/notes/sub/c"), 10), ["/notesy/z"]);
    assert_eq!(list(Some("/no"), None, 10), Vec::<String>::new());
    // Versions list newest first with keyset pages.
    let all = w.versions(None);
    assert_eq!(all.len(), 6);
    assert!(all.windows(2).all(|p| p[0].created_at >= p[1].created_at));
    let page = backend
        .list_versions(
            &w.workspace,
            &w.store,
            None,
            Some(&(all[1].created_at, all[1].id.clone())),
            2,
        )
        .unwrap();
    assert_eq!(page, all[2..4]);
}

/// Deleting a store removes its memories and versions and nothing else.
pub fn store_delete_removes_everything_of_the_store_only<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w = setup(&backend);
    backend.create_store(&w.workspace, &store(2, 5)).unwrap();
    let w2 = Writer {
        backend: &backend,
        workspace: w.workspace.clone(),
        store: store_id(2),
    };
    w.create(1, 1, 1, "/a", "one");
    w2.create(2, 2, 2, "/a", "two");
    assert!(backend.delete_store(&w.workspace, &store_id(1)).unwrap());
    assert!(!backend.delete_store(&w.workspace, &store_id(1)).unwrap());
    assert_eq!(backend.get_store(&w.workspace, &store_id(1)).unwrap(), None);
    assert_eq!(
        backend
            .get_version(&w.workspace, &store_id(1), &ver_id(1))
            .unwrap(),
        None
    );
    assert!(w.versions(None).is_empty());
    assert!(
        backend
            .list_memories(&w.workspace, &store_id(1), None, None, 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(w2.versions(None).len(), 1);
    assert_eq!(
        backend
            .memory_at_path(&w.workspace, &store_id(2), &path("/a"))
            .unwrap()
            .unwrap()
            .content,
        "two"
    );
}

/// Sessions round-trip per workspace.
pub fn sessions_roundtrip_per_workspace<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let session = Session {
        id: SessionId::parse("sesn_1").unwrap(),
        kind: Default::default(),
        agent: None,
        resources: vec![],
        created_at: at(1),
    };
    backend.put_session(&ws("ws1"), &session).unwrap();
    assert_eq!(
        backend.get_session(&ws("ws1"), &session.id).unwrap(),
        Some(session.clone())
    );
    assert_eq!(backend.get_session(&ws("ws2"), &session.id).unwrap(), None);
}

/// Passages: upsert by id, batched lookup in input order, id-ordered keyset pages, delete, a
/// one-time import that never overwrites a passage put since — all per workspace.
pub fn passages_roundtrip_per_workspace<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let (w1, w2) = (ws("ws1"), ws("ws2"));
    assert!(backend.list_passages(&w1, None, 10).unwrap().is_empty());
    backend.put_passage(&w1, "p2", b"two").unwrap();
    backend.put_passage(&w1, "p1", b"one").unwrap();
    backend.put_passage(&w1, "p10", b"ten").unwrap();
    backend.put_passage(&w2, "p1", b"other workspace").unwrap();
    // Upsert.
    backend.put_passage(&w1, "p2", b"two, again").unwrap();
    assert_eq!(
        backend.passages(&w1, &["p2", "nope", "p1", "p2"]).unwrap(),
        vec![
            Some(b"two, again".to_vec()),
            None,
            Some(b"one".to_vec()),
            Some(b"two, again".to_vec())
        ]
    );
    assert_eq!(
        backend.passages(&w2, &["p1", "p2"]).unwrap(),
        vec![Some(b"other workspace".to_vec()), None]
    );
    assert!(backend.passages(&ws("ws3"), &[]).unwrap().is_empty());
    // Byte order of the ids, keyset pages.
    let ids = |page: Vec<(String, Vec<u8>)>| page.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    assert_eq!(
        ids(backend.list_passages(&w1, None, 10).unwrap()),
        ["p1", "p10", "p2"]
    );
    assert_eq!(
        ids(backend.list_passages(&w1, None, 2).unwrap()),
        ["p1", "p10"]
    );
    assert_eq!(
        ids(backend.list_passages(&w1, Some("p1"), 10).unwrap()),
        ["p10", "p2"]
    );
    assert_eq!(
        ids(backend.list_passages(&w1, Some("p10"), 1).unwrap()),
        ["p2"]
    );
    assert!(
        backend
            .list_passages(&w1, Some("p2"), 10)
            .unwrap()
            .is_empty()
    );
    assert!(backend.list_passages(&w1, None, 0).unwrap().is_empty());
    assert_eq!(
        backend.list_passages(&w2, None, 10).unwrap(),
        vec![("p1".to_owned(), b"other workspace".to_vec())]
    );
    // Delete.
    assert!(backend.delete_passage(&w1, "p10").unwrap());
    assert!(!backend.delete_passage(&w1, "p10").unwrap());
    assert_eq!(backend.passages(&w1, &["p10"]).unwrap(), vec![None]);
    assert_eq!(
        backend.passages(&w2, &["p1"]).unwrap(),
        vec![Some(b"other workspace".to_vec())]
    );
    // Import: once per source, never over a passage already there.
    let records = vec![
        ("p1".to_owned(), b"imported one".to_vec()),
        ("p3".to_owned(), b"imported three".to_vec()),
        ("p3".to_owned(), b"a later duplicate".to_vec()),
    ];
    assert!(backend.import_passages(&w1, "file", &records).unwrap());
    assert_eq!(
        backend.passages(&w1, &["p1", "p3"]).unwrap(),
        vec![Some(b"one".to_vec()), Some(b"imported three".to_vec())]
    );
    backend.delete_passage(&w1, "p3").unwrap();
    assert!(!backend.import_passages(&w1, "file", &records).unwrap());
    assert_eq!(backend.passages(&w1, &["p3"]).unwrap(), vec![None]);
    // Another workspace imports the same source on its own.
    assert!(
        backend
            .import_passages(&w2, "file", &records[1..2])
            .unwrap()
    );
    assert_eq!(
        ids(backend.list_passages(&w2, None, 10).unwrap()),
        ["p1", "p3"]
    );
}

/// The passages' stamp, where a backend keeps one: every step that changes what
/// [`passages`](StoreBackend::passages) answers for the workspace — a put (even of the same
/// bytes), a delete that removed one, an import that imported — leaves it at a value it never
/// had before; reads, a delete of nothing and a refused import leave it as it was.
pub fn passage_stamps_move_with_every_change<B: StoreBackend>(make: &dyn Fn() -> B) {
    let backend = make();
    let w1 = ws("ws1");
    let stamp = || backend.passage_generation(&w1).unwrap();
    let Some(first) = stamp() else {
        // No stamp: nothing moves, and nothing may be promised.
        backend.put_passage(&w1, "p1", b"one").unwrap();
        assert_eq!(stamp(), None);
        return;
    };
    let mut seen = vec![first];
    let mut moved = |what: &str| {
        let now = stamp().expect("a stamp once given stays given");
        assert!(
            !seen.contains(&now),
            "{what}: the stamp took an earlier value"
        );
        seen.push(now);
    };
    backend.put_passage(&w1, "p1", b"one").unwrap();
    moved("a put");
    backend.put_passage(&w1, "p1", b"one").unwrap();
    moved("the same put again");
    backend.put_passage(&w1, "p2", b"two").unwrap();
    moved("another put");
    assert!(backend.delete_passage(&w1, "p2").unwrap());
    moved("a delete");
    let records = vec![("p3".to_owned(), b"three".to_vec())];
    assert!(backend.import_passages(&w1, "file", &records).unwrap());
    moved("an import");

    let kept = stamp();
    backend.passages(&w1, &["p1", "p2", "p3"]).unwrap();
    backend.list_passages(&w1, None, 10).unwrap();
    assert!(!backend.delete_passage(&w1, "p2").unwrap());
    assert!(!backend.import_passages(&w1, "file", &records).unwrap());
    assert_eq!(stamp(), kept, "reads and refused writes left the stamp");
    backend.put_passage(&w1, "p2", b"two, again").unwrap();
    moved("a put after them");
}

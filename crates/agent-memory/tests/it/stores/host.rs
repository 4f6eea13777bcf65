//! Host-side operations: stores, memories, versions — each rule and error code.

use agent_memory::{
    CreateMemoryRequest, CreateStoreRequest, DeleteMemoryRequest, ErrorCode, ListVersionsRequest,
    MemoryIdRequest, MemoryVersionId, PiiPolicy, RestoreMemoryRequest, StoreIdRequest,
    StoreMemoryId, UpdateMemoryRequest, UpdateStoreRequest, VersionIdRequest,
};
use memory_core::{Role, VersionOperation, content_sha256};
use serde_json::json;

use super::{Stores, api_key, code, editor, member_with, store_id, stranger, viewer};

#[test]
fn forbidden_comes_first_and_follows_roles() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Notes"));
    // A viewer may read but not write; the 403 comes before the body is even looked at.
    assert_eq!(
        code(
            st.service
                .stores_create(&viewer(), &json!("not even an object"))
        ),
        ErrorCode::MemoryStoreForbidden
    );
    assert_eq!(
        code(st.service.memories_create(
            &viewer(),
            &json!({"memory_store_id": store, "path": "/a", "content": "x"})
        )),
        ErrorCode::MemoryStoreForbidden
    );
    for write in [
        st.service
            .stores_archive(&viewer(), &json!({"memory_store_id": store}))
            .map(|_| ()),
        st.service
            .stores_delete(&viewer(), &json!({"memory_store_id": store}))
            .map(|_| ()),
        st.service
            .versions_redact(
                &viewer(),
                &json!({"memory_store_id": store, "version_id": "memver_x"}),
            )
            .map(|_| ()),
        st.service
            .sessions_create(&viewer(), &json!({"resources": []}))
            .map(|_| ()),
    ] {
        assert_eq!(code(write), ErrorCode::MemoryStoreForbidden);
    }
    assert!(
        st.service
            .stores_get(&viewer(), &json!({"memory_store_id": store}))
            .is_ok()
    );
    assert!(st.service.stores_list(&viewer(), &json!({})).is_ok());
    for role in [Role::Editor, Role::Admin, Role::Owner] {
        assert!(
            st.service
                .stores_create(&member_with(role), &json!({"name": "x"}))
                .is_ok()
        );
    }
    // An API key has editor rights and is recorded as api_actor.
    let m = st
        .service
        .memories_create(
            &api_key(),
            &json!({"memory_store_id": store, "path": "/k", "content": "v"}),
        )
        .unwrap();
    let v = st
        .service
        .versions_get(
            &viewer(),
            &json!({"memory_store_id": store, "version_id": m.version_id}),
        )
        .unwrap();
    assert_eq!(
        serde_json::to_value(&v.created_by).unwrap(),
        json!({"type": "api_actor", "api_key_id": "key_1"})
    );
    let m = st.memory(&store, "/u", "v");
    let v = st
        .service
        .versions_get(
            &viewer(),
            &json!({"memory_store_id": store, "version_id": m.version_id}),
        )
        .unwrap();
    assert_eq!(
        serde_json::to_value(&v.created_by).unwrap(),
        json!({"type": "user_actor", "user_id": "m_editor"})
    );
}

#[test]
fn store_fields_are_validated() {
    let st = Stores::new();
    let s = &st.service;
    let bad = [
        json!({}),
        json!({"name": ""}),
        json!({"name": "x".repeat(256)}),
        json!({"name": "x", "description": "d".repeat(4097)}),
        json!({"name": "x", "pii_policy": "scrub"}),
        json!({"name": "x", "colour": "red"}),
        json!({"name": 7}),
        json!(["name"]),
    ];
    for body in bad {
        assert_eq!(
            code(s.stores_create(&editor(), &body)),
            ErrorCode::MemoryInvalidRequest,
            "{body}"
        );
    }
    // Lengths are characters, not bytes.
    let store = s
        .stores_create(
            &editor(),
            &json!({"name": "é".repeat(255), "description": "ü".repeat(4096), "pii_policy": "mask"}),
        )
        .unwrap();
    assert_eq!(store.pii_policy, memory_core::PiiPolicy::Mask);
    let json = serde_json::to_value(&store).unwrap();
    assert_eq!(json["type"], "memory_store");
    assert_eq!(json["archived_at"], serde_json::Value::Null);
    assert!(json["id"].as_str().unwrap().starts_with("memstore_"));
    let plain = s.stores_create(&editor(), &json!({"name": "p"})).unwrap();
    assert_eq!(plain.description, "");
    assert_eq!(plain.pii_policy, memory_core::PiiPolicy::Allow);
}

#[test]
fn objects_of_another_workspace_are_not_found() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let m = st.memory(&store, "/a", "x");
    let s = &st.service;
    assert_eq!(
        code(s.stores_get(&stranger(), &json!({"memory_store_id": store}))),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(s.memories_get(
            &stranger(),
            &json!({"memory_store_id": store, "memory_id": m.id})
        )),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(s.memories_create(
            &stranger(),
            &json!({"memory_store_id": store, "path": "/b", "content": ""})
        )),
        ErrorCode::MemoryStoreNotFound
    );
    assert!(
        s.stores_list(&stranger(), &json!({}))
            .unwrap()
            .data
            .is_empty()
    );
    assert_eq!(
        code(s.stores_delete(&stranger(), &json!({"memory_store_id": store}))),
        ErrorCode::MemoryStoreNotFound
    );
    assert!(
        s.stores_get(&editor(), &json!({"memory_store_id": store}))
            .is_ok()
    );
}

#[test]
fn stores_list_pages_newest_first_with_bound_cursors() {
    let st = Stores::new();
    let s = &st.service;
    let mut ids = Vec::new();
    for i in 0..5 {
        if i % 2 == 0 {
            st.clock.advance_seconds(1);
        }
        ids.push(st.store(CreateStoreRequest::new(format!("s{i}"))));
    }
    s.stores_archive(&editor(), &json!({"memory_store_id": ids[4]}))
        .unwrap();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut body = json!({"limit": 2, "include_archived": true});
        if let Some(c) = &cursor {
            body["cursor"] = json!(c);
        }
        let page = s.stores_list(&editor(), &body).unwrap();
        pages += 1;
        seen.extend(page.data.iter().map(|s| s.id.as_str().to_owned()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let expected: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(seen, expected, "created_at descending, then id descending");
    // Archived stores only on request.
    let live = s.stores_list(&editor(), &json!({})).unwrap();
    assert_eq!(live.data.len(), 4);
    assert_eq!(live.next_cursor, None);
    // Exactly `limit` items left: the last page says so (no empty extra page).
    let page = s.stores_list(&editor(), &json!({"limit": 4})).unwrap();
    assert_eq!((page.data.len(), page.next_cursor), (4, None));
    // A cursor is bound to its filters and listing; malformed ones and bad limits are 400.
    let first = s.stores_list(&editor(), &json!({"limit": 1})).unwrap();
    let c = first.next_cursor.unwrap();
    for body in [
        json!({"cursor": c, "include_archived": true}),
        json!({"cursor": "zz"}),
        json!({"cursor": c.to_uppercase()}),
        json!({"limit": 0}),
        json!({"limit": 101}),
        json!({"limit": -1}),
        json!({"limit": "5"}),
        json!({"include_archived": "yes"}),
    ] {
        assert_eq!(
            code(s.stores_list(&editor(), &body)),
            ErrorCode::MemoryInvalidRequest,
            "{body}"
        );
    }
    assert_eq!(
        code(s.memories_list(&editor(), &json!({"memory_store_id": ids[0], "cursor": c}))),
        ErrorCode::MemoryInvalidRequest
    );
    // Default limit 20.
    for i in 0..20 {
        st.store(CreateStoreRequest::new(format!("more{i}")));
    }
    let page = s.stores_list(&editor(), &json!({})).unwrap();
    assert_eq!(page.data.len(), 20);
    assert!(page.next_cursor.is_some());
}

#[test]
fn stores_update_archive_and_delete() {
    let st = Stores::new();
    let s = st.typed();
    let store = st.store(CreateStoreRequest::new("Notes").description("d"));
    let id = store_id(&store);
    let this = StoreIdRequest::new(id.clone());
    st.clock.advance_seconds(5);
    let same = s
        .stores_update(
            &editor(),
            &UpdateStoreRequest::new(id.clone()).name("Notes"),
        )
        .unwrap();
    assert_eq!(
        same.updated_at, same.created_at,
        "a no-op update keeps updated_at"
    );
    let renamed = s
        .stores_update(
            &editor(),
            &UpdateStoreRequest::new(id.clone())
                .name("Notes 2")
                .description(""),
        )
        .unwrap();
    assert_eq!(
        (renamed.name.as_str(), renamed.description.as_str()),
        ("Notes 2", "")
    );
    assert!(renamed.updated_at > renamed.created_at);
    assert_eq!(
        code(s.stores_update(&editor(), &UpdateStoreRequest::new(id.clone()).name(""))),
        ErrorCode::MemoryInvalidRequest
    );
    assert_eq!(
        code(s.stores_update(
            &editor(),
            &UpdateStoreRequest::new(store_id("memstore_nope")).name("x")
        )),
        ErrorCode::MemoryStoreNotFound
    );
    let m = st.memory(&store, "/a", "one");
    let memory = MemoryIdRequest::new(id.clone(), m.id.clone());
    st.clock.advance_seconds(5);
    let archived = s.stores_archive(&editor(), &this).unwrap();
    let at = archived.archived_at.unwrap();
    st.clock.advance_seconds(5);
    let again = s.stores_archive(&editor(), &this).unwrap();
    assert_eq!(again.archived_at, Some(at), "archiving is idempotent");
    // Archived: read-only for every write, readable as before.
    let writes = [
        s.stores_update(&editor(), &UpdateStoreRequest::new(id.clone()).name("x"))
            .map(|_| ()),
        s.memories_create(&editor(), &CreateMemoryRequest::new(id.clone(), "/b", "x"))
            .map(|_| ()),
        s.memories_update(
            &editor(),
            &UpdateMemoryRequest::new(id.clone(), m.id.clone()).content("two"),
        )
        .map(|_| ()),
        s.memories_delete(
            &editor(),
            &DeleteMemoryRequest::new(id.clone(), m.id.clone()),
        )
        .map(|_| ()),
    ];
    for w in writes {
        assert_eq!(code(w), ErrorCode::MemoryStoreArchived);
    }
    assert_eq!(s.memories_get(&viewer(), &memory).unwrap().content, "one");
    // 413 comes before 409 archived.
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &CreateMemoryRequest::new(id.clone(), "/b", "x".repeat(102_401))
        )),
        ErrorCode::MemoryTooLarge
    );
    let deleted = s.stores_delete(&editor(), &this).unwrap();
    assert_eq!(
        serde_json::to_value(&deleted).unwrap(),
        json!({"id": store, "type": "memory_store_deleted"})
    );
    assert_eq!(
        code(s.stores_get(&editor(), &this)),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(s.versions_get(
            &editor(),
            &VersionIdRequest::new(id.clone(), m.version_id.clone())
        )),
        ErrorCode::MemoryStoreNotFound
    );
    assert_eq!(
        code(s.stores_delete(&editor(), &this)),
        ErrorCode::MemoryStoreNotFound
    );
    let events = serde_json::to_value(st.audit.records()).unwrap();
    assert_eq!(events[0]["event"], "memory_store_deleted");
    assert_eq!(events[0]["memory_store_id"], store.as_str());
    assert_eq!(events[0]["actor"], "m_editor");
}

#[test]
fn memories_create_get_and_path_rules() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let m = st.memory(&store, "/notes/a.md", "héllo");
    assert_eq!(m.content_sha256, content_sha256("héllo"));
    assert_eq!(m.content_size_bytes, 6);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["type"], "memory");
    let v = st.versions(&store);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].operation, VersionOperation::Created);
    // The same path, a path under a file, and a path above a file are all taken.
    for path in ["/notes/a.md", "/notes/a.md/x", "/notes"] {
        assert_eq!(
            code(s.memories_create(
                &editor(),
                &json!({"memory_store_id": store, "path": path, "content": ""})
            )),
            ErrorCode::MemoryPathConflict,
            "{path}"
        );
    }
    // Byte-exact and case-sensitive: these are other paths.
    st.memory(&store, "/Notes/a.md", "");
    st.memory(&store, "/notes/a.mdx", "");
    st.memory(&store, "/notes/b.md", "");
    // Validation comes before 404: a bad path on an unknown store is 400.
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &json!({"memory_store_id": "memstore_nope", "path": "a", "content": ""})
        )),
        ErrorCode::MemoryPathInvalid
    );
    assert_eq!(
        code(s.memories_create(&editor(), &json!({"memory_store_id": "memstore_nope", "path": "/a", "content": "x".repeat(102_401)}))),
        ErrorCode::MemoryTooLarge
    );
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &json!({"memory_store_id": "memstore_nope", "path": "/a", "content": ""})
        )),
        ErrorCode::MemoryStoreNotFound
    );
    for body in [
        json!({"memory_store_id": store, "path": "/x"}),
        json!({"memory_store_id": store, "path": "/x", "content": 5}),
        json!({"memory_store_id": store, "path": "/x", "content": "", "mode": "0644"}),
        json!({"memory_store_id": "not-an-id", "path": "/x", "content": ""}),
    ] {
        assert_eq!(
            code(s.memories_create(&editor(), &body)),
            ErrorCode::MemoryInvalidRequest,
            "{body}"
        );
    }
    assert_eq!(
        s.memories_get(
            &viewer(),
            &json!({"memory_store_id": store, "memory_id": m.id})
        )
        .unwrap(),
        m
    );
    assert_eq!(
        code(s.memories_get(
            &viewer(),
            &json!({"memory_store_id": store, "memory_id": "mem_nope"})
        )),
        ErrorCode::MemoryNotFound
    );
    // Empty content is allowed; exactly 102,400 bytes too.
    let big = st.memory(&store, "/big", &"x".repeat(102_400));
    assert_eq!(big.content_size_bytes, 102_400);
}

#[test]
fn memories_list_orders_by_path_bytes_and_matches_whole_segments() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    for p in ["/b", "/a/x", "/ab", "/a/y/z", "/A", "/a-b"] {
        st.memory(&store, p, "c");
    }
    assert_eq!(
        st.paths(&store),
        ["/A", "/a-b", "/a/x", "/a/y/z", "/ab", "/b"]
    );
    let under = |prefix: &str| -> Vec<String> {
        s.memories_list(
            &editor(),
            &json!({"memory_store_id": store, "path_prefix": prefix}),
        )
        .unwrap()
        .data
        .into_iter()
        .map(|m| m.path.into_string())
        .collect()
    };
    assert_eq!(under("/a"), ["/a/x", "/a/y/z"]);
    assert_eq!(under("/a/"), ["/a/x", "/a/y/z"]);
    assert_eq!(under("/a/y/z"), ["/a/y/z"]);
    assert_eq!(under("/"), st.paths(&store));
    assert!(under("/c").is_empty());
    assert_eq!(
        code(s.memories_list(
            &editor(),
            &json!({"memory_store_id": store, "path_prefix": "/a/../b"})
        )),
        ErrorCode::MemoryPathInvalid
    );
    // Metadata only: no content field.
    let page = s
        .memories_list(&editor(), &json!({"memory_store_id": store, "limit": 4}))
        .unwrap();
    let json = serde_json::to_value(&page).unwrap();
    assert!(json["data"][0].get("content").is_none());
    assert!(json["data"][0].get("content_sha256").is_some());
    // Pagination with a prefix.
    let first = s
        .memories_list(
            &editor(),
            &json!({"memory_store_id": store, "path_prefix": "/a", "limit": 1}),
        )
        .unwrap();
    assert_eq!(first.data[0].path.as_str(), "/a/x");
    let c = first.next_cursor.unwrap();
    let second = s
        .memories_list(
            &editor(),
            &json!({"memory_store_id": store, "path_prefix": "/a", "limit": 1, "cursor": c}),
        )
        .unwrap();
    assert_eq!(second.data[0].path.as_str(), "/a/y/z");
    assert_eq!(second.next_cursor, None);
    assert_eq!(
        code(s.memories_list(
            &editor(),
            &json!({"memory_store_id": store, "path_prefix": "/b", "cursor": c})
        )),
        ErrorCode::MemoryInvalidRequest
    );
    assert_eq!(
        code(s.memories_list(&editor(), &json!({"memory_store_id": "memstore_nope"}))),
        ErrorCode::MemoryStoreNotFound
    );
}

#[test]
fn memories_update_no_op_precondition_rename_and_order() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let m = st.memory(&store, "/a", "one");
    st.memory(&store, "/taken", "t");
    let wrong = "0".repeat(64);
    // No-op: 200, no version, even with a precondition naming another hash.
    let same = s
        .memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "content": "one", "path": "/a",
                    "precondition": {"type": "content_sha256", "content_sha256": wrong}}),
        )
        .unwrap();
    assert_eq!(same, m);
    assert_eq!(st.versions(&store).len(), 2);
    // A mismatch otherwise: 409 with the current hash.
    let err = s
        .memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "content": "two",
                    "precondition": {"type": "content_sha256", "content_sha256": wrong}}),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::MemoryPreconditionFailed);
    assert_eq!(
        err.current_content_sha256(),
        Some(content_sha256("one").as_str())
    );
    assert_eq!(
        serde_json::to_value(&err).unwrap()["error"]["current_content_sha256"],
        content_sha256("one")
    );
    // Precondition 409 comes before path conflict 409.
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "path": "/taken",
                    "precondition": {"type": "content_sha256", "content_sha256": wrong}}),
        )),
        ErrorCode::MemoryPreconditionFailed
    );
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "path": "/taken/x"})
        )),
        ErrorCode::MemoryPathConflict
    );
    // Rename only: a modified version, content kept.
    let moved = s
        .memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "path": "/b",
                    "precondition": {"type": "content_sha256", "content_sha256": content_sha256("one")}}),
        )
        .unwrap();
    assert_eq!((moved.path.as_str(), moved.content.as_str()), ("/b", "one"));
    let v = st.versions(&store);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0].operation, VersionOperation::Modified);
    assert_eq!(v[0].path.as_ref().unwrap().as_str(), "/b");
    assert_ne!(moved.version_id, m.version_id);
    // Moving a file under its own old path is allowed (the old path goes away).
    let under = s
        .memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "path": "/b/inner"}),
        )
        .unwrap();
    assert_eq!(under.path.as_str(), "/b/inner");
    // Precondition shape is validated (400 before 404).
    for p in [
        json!({"type": "content_sha256", "content_sha256": "ABC"}),
        json!({"type": "content_sha256", "content_sha256": content_sha256("x").to_uppercase()}),
        json!({"type": "etag", "content_sha256": content_sha256("x")}),
        json!({"type": "content_sha256", "content_sha256": content_sha256("x"), "extra": 1}),
        json!("abc"),
    ] {
        assert_eq!(
            code(s.memories_update(
                &editor(),
                &json!({"memory_store_id": store, "memory_id": "mem_nope", "content": "x", "precondition": p})
            )),
            ErrorCode::MemoryInvalidRequest,
            "{p}"
        );
    }
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": "mem_nope", "content": "x"})
        )),
        ErrorCode::MemoryNotFound
    );
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "path": "b"})
        )),
        ErrorCode::MemoryPathInvalid
    );
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "content": "é".repeat(51_201)})
        )),
        ErrorCode::MemoryTooLarge
    );
}

#[test]
fn delete_restore_and_versions() {
    let st = Stores::new();
    let s = st.typed();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let id = store_id(&store);
    let m = st.memory(&store, "/a", "one");
    let v1 = m.version_id.clone();
    st.clock.advance_seconds(1);
    let m2 = s
        .memories_update(
            &editor(),
            &UpdateMemoryRequest::new(id.clone(), m.id.clone()).content("two"),
        )
        .unwrap();
    // Delete with a failing precondition, then for real.
    assert_eq!(
        code(
            s.memories_delete(
                &editor(),
                &DeleteMemoryRequest::new(id.clone(), m.id.clone())
                    .if_content_sha256(content_sha256("one"))
            )
        ),
        ErrorCode::MemoryPreconditionFailed
    );
    let gone = s
        .memories_delete(
            &editor(),
            &DeleteMemoryRequest::new(id.clone(), m.id.clone()),
        )
        .unwrap();
    assert_eq!(
        serde_json::to_value(&gone).unwrap(),
        json!({"id": m.id, "type": "memory_deleted"})
    );
    assert_eq!(
        code(s.memories_get(&editor(), &MemoryIdRequest::new(id.clone(), m.id.clone()))),
        ErrorCode::MemoryNotFound
    );
    assert_eq!(
        code(s.memories_delete(
            &editor(),
            &DeleteMemoryRequest::new(id.clone(), m.id.clone())
        )),
        ErrorCode::MemoryNotFound
    );
    let versions = st.versions(&store);
    assert_eq!(versions.len(), 3);
    let deletion = &versions[0];
    assert_eq!(deletion.operation, VersionOperation::Deleted);
    assert_eq!(
        deletion.path.as_ref().unwrap().as_str(),
        "/a",
        "a deleted version keeps its path"
    );
    assert_eq!(
        (
            deletion.content.as_ref(),
            deletion.content_sha256.as_ref(),
            deletion.content_size_bytes
        ),
        (None, None, None)
    );
    // Versions of one memory, newest first; unknown memory → 404.
    let of = s
        .versions_list(
            &editor(),
            &ListVersionsRequest::new(id.clone()).memory_id(m.id.clone()),
        )
        .unwrap();
    assert_eq!(of.data.len(), 3);
    assert!(
        of.data
            .windows(2)
            .all(|w| (w[0].created_at, &w[0].id) > (w[1].created_at, &w[1].id))
    );
    assert_eq!(
        code(
            s.versions_list(
                &editor(),
                &ListVersionsRequest::new(id.clone())
                    .memory_id(StoreMemoryId::parse("mem_nope").unwrap())
            )
        ),
        ErrorCode::MemoryNotFound
    );
    assert_eq!(
        code(s.versions_get(
            &editor(),
            &VersionIdRequest::new(id.clone(), MemoryVersionId::parse("memver_nope").unwrap())
        )),
        ErrorCode::MemoryVersionNotFound
    );
    // Restoring a deleted version is refused; restoring v1 after the delete writes `created`.
    assert_eq!(
        code(s.memories_restore(
            &editor(),
            &RestoreMemoryRequest::new(id.clone(), m.id.clone(), deletion.id.clone())
        )),
        ErrorCode::MemoryVersionNotRestorable
    );
    // The path is taken by another memory meanwhile: conflict.
    let squatter = st.memory(&store, "/a", "squatter");
    assert_eq!(
        code(s.memories_restore(
            &editor(),
            &RestoreMemoryRequest::new(id.clone(), m.id.clone(), v1.clone())
        )),
        ErrorCode::MemoryPathConflict
    );
    s.memories_delete(
        &editor(),
        &DeleteMemoryRequest::new(id.clone(), squatter.id.clone()),
    )
    .unwrap();
    let back = s
        .memories_restore(
            &editor(),
            &RestoreMemoryRequest::new(id.clone(), m.id.clone(), v1.clone()),
        )
        .unwrap();
    assert_eq!(
        (back.content.as_str(), back.path.as_str(), back.id.as_str()),
        ("one", "/a", m.id.as_str())
    );
    let newest = &st.versions(&store)[0];
    assert_eq!(newest.operation, VersionOperation::Created);
    // Restoring what is already there writes nothing.
    let count = st.versions(&store).len();
    s.memories_restore(
        &editor(),
        &RestoreMemoryRequest::new(id.clone(), m.id.clone(), v1.clone()),
    )
    .unwrap();
    assert_eq!(st.versions(&store).len(), count);
    // Restoring v2 over a live memory: `modified`.
    let again = s
        .memories_restore(
            &editor(),
            &RestoreMemoryRequest::new(id.clone(), m.id.clone(), m2.version_id.clone()),
        )
        .unwrap();
    assert_eq!(again.content, "two");
    assert_eq!(st.versions(&store)[0].operation, VersionOperation::Modified);
    // Redaction: the current version is refused; an older one loses content, path, hash, size.
    assert_eq!(
        code(s.versions_redact(
            &editor(),
            &VersionIdRequest::new(id.clone(), again.version_id.clone())
        )),
        ErrorCode::MemoryVersionIsCurrent
    );
    st.clock.advance_seconds(3);
    let red = s
        .versions_redact(&editor(), &VersionIdRequest::new(id.clone(), v1.clone()))
        .unwrap();
    assert!(red.redacted_at.is_some());
    assert_eq!(
        (
            red.content,
            red.path,
            red.content_sha256,
            red.content_size_bytes
        ),
        (None, None, None, None)
    );
    st.clock.advance_seconds(3);
    let twice = s
        .versions_redact(&editor(), &VersionIdRequest::new(id.clone(), v1.clone()))
        .unwrap();
    assert_eq!(twice.redacted_at, red.redacted_at, "idempotent");
    assert_eq!(
        s.versions_get(&viewer(), &VersionIdRequest::new(id.clone(), v1.clone()))
            .unwrap()
            .redacted_at,
        red.redacted_at
    );
    assert_eq!(
        code(s.memories_restore(
            &editor(),
            &RestoreMemoryRequest::new(id.clone(), m.id.clone(), v1.clone())
        )),
        ErrorCode::MemoryVersionRedacted
    );
    assert_eq!(
        code(s.versions_redact(
            &editor(),
            &VersionIdRequest::new(id.clone(), MemoryVersionId::parse("memver_nope").unwrap())
        )),
        ErrorCode::MemoryVersionNotFound
    );
    let redactions: Vec<_> = st
        .audit
        .records()
        .into_iter()
        .filter(|r| {
            matches!(
                r.event,
                agent_memory::AuditEvent::MemoryVersionRedacted { .. }
            )
        })
        .collect();
    assert_eq!(redactions.len(), 1, "a repeated redaction records nothing");
}

#[test]
fn pii_policies_allow_mask_and_reject() {
    let st = Stores::new();
    let s = &st.service;
    let allow = st.store(CreateStoreRequest::new("allow"));
    let mask = st.store(CreateStoreRequest::new("mask").pii_policy(PiiPolicy::Mask));
    let reject = st.store(CreateStoreRequest::new("reject").pii_policy(PiiPolicy::Reject));
    let text = "mail dana@example.com about it";
    assert_eq!(st.memory(&allow, "/a", text).content, text);
    let masked = st.memory(&mask, "/a", text);
    assert_eq!(masked.content, "mail [EMAIL] about it");
    assert_eq!(
        masked.content_sha256,
        content_sha256("mail [EMAIL] about it")
    );
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &json!({"memory_store_id": reject, "path": "/a", "content": text})
        )),
        ErrorCode::MemoryPersonalData
    );
    let clean = st.memory(&reject, "/a", "nothing personal");
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": reject, "memory_id": clean.id, "content": text})
        )),
        ErrorCode::MemoryPersonalData
    );
    // Personal data is the last check: a taken path is a conflict first.
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &json!({"memory_store_id": reject, "path": "/a", "content": text})
        )),
        ErrorCode::MemoryPathConflict
    );
    // The mask store's update of the same personal text masks to what is stored: a no-op.
    let count = st.versions(&mask).len();
    s.memories_update(
        &editor(),
        &json!({"memory_store_id": mask, "memory_id": masked.id, "content": text}),
    )
    .unwrap();
    assert_eq!(st.versions(&mask).len(), count);
    // The size limit applies after masking: text that grows past 102,400 bytes when masked is
    // refused by the mask store and accepted by the allow store.
    let unit = "a@b.io ";
    let grows = unit.repeat(102_400 / unit.len());
    assert!(grows.len() <= 102_400);
    assert!(pii_mask::mask(&grows).text.len() > 102_400);
    assert_eq!(
        code(s.memories_create(
            &editor(),
            &json!({"memory_store_id": mask, "path": "/big", "content": grows})
        )),
        ErrorCode::MemoryTooLarge
    );
    assert!(
        s.memories_create(
            &editor(),
            &json!({"memory_store_id": allow, "path": "/big", "content": grows})
        )
        .is_ok()
    );
}

#[test]
fn versions_list_pages_with_cursors_bound_to_the_memory_filter() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let a = st.memory(&store, "/a", "0");
    let b = st.memory(&store, "/b", "0");
    for i in 1..4 {
        st.clock.advance_seconds(1);
        for m in [&a, &b] {
            s.memories_update(
                &api_key(),
                &json!({"memory_store_id": store, "memory_id": m.id, "content": i.to_string()}),
            )
            .unwrap();
        }
    }
    let mut seen = Vec::new();
    let mut cursor = None::<String>;
    loop {
        let mut body = json!({"memory_store_id": store, "memory_id": a.id, "limit": 3});
        if let Some(c) = &cursor {
            body["cursor"] = json!(c);
        }
        let page = s.versions_list(&viewer(), &body).unwrap();
        seen.extend(page.data.iter().map(|v| v.content.clone().unwrap()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(seen, ["3", "2", "1", "0"]);
    let first = s
        .versions_list(
            &viewer(),
            &json!({"memory_store_id": store, "memory_id": a.id, "limit": 1}),
        )
        .unwrap();
    let c = first.next_cursor.unwrap();
    for body in [
        json!({"memory_store_id": store, "memory_id": b.id, "cursor": c}),
        json!({"memory_store_id": store, "cursor": c}),
        json!({"memory_store_id": store, "cursor": "00"}),
    ] {
        assert_eq!(
            code(s.versions_list(&viewer(), &body)),
            ErrorCode::MemoryInvalidRequest,
            "{body}"
        );
    }
    assert_eq!(st.versions(&store).len(), 8);
}

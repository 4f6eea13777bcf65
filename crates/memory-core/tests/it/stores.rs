//! Memory-store JSON (snake_case): stores, memories, versions, actors, deleted markers,
//! preconditions, pages, sessions and the file interface.

use memory_core::session::{
    FsEntry, FsListing, FsRead, MemoryStoreResource, ResourceRequest, assign_mount_slugs,
    mount_path,
};
use memory_core::store::{MemoryDeleted, MemoryStoreDeleted, MemoryStoreTag, Page, Precondition};
use memory_core::{
    Access, Actor, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, PiiPolicy, Session,
    SessionId, SessionResource, StoreMemory, StoreMemoryId, StorePath, Timestamp, VersionOperation,
    content_sha256,
};
use serde_json::{Value, json};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn store_id() -> MemoryStoreId {
    MemoryStoreId::parse("memstore_01jq0000000000000000000000").unwrap()
}

fn memory() -> StoreMemory {
    StoreMemory::new(
        StoreMemoryId::parse("mem_01jq0000000000000000000001").unwrap(),
        store_id(),
        StorePath::parse("/formatting_standards.md").unwrap(),
        "Use sentence case for headings; keep lines under 99 chars".into(),
        MemoryVersionId::parse("memver_01jq0000000000000000000002").unwrap(),
        ts("2026-01-01T00:00:00Z"),
    )
}

#[test]
fn content_hash_is_lowercase_hex_of_utf8() {
    assert_eq!(
        content_sha256("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(content_sha256("é").len(), 64);
}

#[test]
fn store_shape() {
    let store = MemoryStore {
        id: store_id(),
        kind: MemoryStoreTag,
        name: "User Preferences".into(),
        description: "Per-user preferences and project context.".into(),
        pii_policy: PiiPolicy::Allow,
        created_at: ts("2026-01-01T00:00:00Z"),
        updated_at: ts("2026-01-01T00:00:00.250Z"),
        archived_at: None,
    };
    let value = serde_json::to_value(&store).unwrap();
    assert_eq!(
        value,
        json!({"id": "memstore_01jq0000000000000000000000", "type": "memory_store", "name": "User Preferences",
               "description": "Per-user preferences and project context.", "pii_policy": "allow",
               "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00.250Z", "archived_at": null})
    );
    assert_eq!(
        serde_json::from_value::<MemoryStore>(value.clone()).unwrap(),
        store
    );
    let mut wrong = value;
    wrong["type"] = json!("memory");
    assert!(serde_json::from_value::<MemoryStore>(wrong).is_err());

    for (policy, name) in [
        (PiiPolicy::Allow, "allow"),
        (PiiPolicy::Mask, "mask"),
        (PiiPolicy::Reject, "reject"),
    ] {
        assert_eq!(serde_json::to_value(policy).unwrap(), json!(name));
    }
    assert!(serde_json::from_value::<PiiPolicy>(json!("redact")).is_err());
    assert_eq!(PiiPolicy::default(), PiiPolicy::Allow);
    assert!(MemoryStore::name_valid(&"é".repeat(255)) && !MemoryStore::name_valid(""));
    assert!(!MemoryStore::name_valid(&"n".repeat(256)));
}

#[test]
fn memory_shape_and_metadata() {
    let m = memory();
    let value = serde_json::to_value(&m).unwrap();
    assert_eq!(
        value,
        json!({"id": "mem_01jq0000000000000000000001", "type": "memory",
               "memory_store_id": "memstore_01jq0000000000000000000000", "path": "/formatting_standards.md",
               "content": "Use sentence case for headings; keep lines under 99 chars",
               "content_sha256": content_sha256("Use sentence case for headings; keep lines under 99 chars"),
               "content_size_bytes": 57, "version_id": "memver_01jq0000000000000000000002",
               "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"})
    );
    let meta = serde_json::to_value(m.metadata()).unwrap();
    let mut without_content = value.clone();
    without_content.as_object_mut().unwrap().remove("content");
    assert_eq!(meta, without_content);

    let mut changed = m.clone();
    changed.set_content("é".into());
    assert_eq!(changed.content_size_bytes, 2);
    assert_eq!(changed.content_sha256, content_sha256("é"));
    let mut bad_path = value;
    bad_path["path"] = json!("/a/../b");
    assert!(serde_json::from_value::<StoreMemory>(bad_path).is_err());
}

#[test]
fn version_shapes_created_deleted_redacted() {
    let m = memory();
    let session = SessionId::parse("sesn_01jq0000000000000000000003").unwrap();
    let mut version = MemoryVersion::snapshot(
        m.version_id.clone(),
        &m,
        VersionOperation::Created,
        Actor::SessionActor {
            session_id: session,
        },
        m.created_at,
    );
    let value = serde_json::to_value(&version).unwrap();
    assert_eq!(
        value,
        json!({"id": "memver_01jq0000000000000000000002", "type": "memory_version",
               "memory_store_id": "memstore_01jq0000000000000000000000", "memory_id": "mem_01jq0000000000000000000001",
               "operation": "created", "path": "/formatting_standards.md", "content": m.content,
               "content_sha256": m.content_sha256, "content_size_bytes": 57,
               "created_by": {"type": "session_actor", "session_id": "sesn_01jq0000000000000000000003"},
               "created_at": "2026-01-01T00:00:00Z", "redacted_at": null})
    );
    assert_eq!(
        serde_json::from_value::<MemoryVersion>(value).unwrap(),
        version
    );

    let deleted = MemoryVersion::deletion(
        MemoryVersionId::parse("memver_x").unwrap(),
        &m,
        Actor::UserActor {
            user_id: "alice".into(),
        },
        ts("2026-01-02T00:00:00Z"),
    );
    let value = serde_json::to_value(&deleted).unwrap();
    assert_eq!(value["operation"], "deleted");
    assert_eq!(value["path"], "/formatting_standards.md");
    for field in [
        "content",
        "content_sha256",
        "content_size_bytes",
        "redacted_at",
    ] {
        assert_eq!(value[field], Value::Null, "{field}");
    }
    assert_eq!(
        deleted.restore_refusal(),
        Some(memory_core::ErrorCode::MemoryVersionNotRestorable)
    );

    assert!(version.redact(ts("2026-01-03T00:00:00Z")));
    let value = serde_json::to_value(&version).unwrap();
    for field in ["path", "content", "content_sha256", "content_size_bytes"] {
        assert_eq!(value[field], Value::Null, "{field}");
    }
    assert_eq!(value["redacted_at"], "2026-01-03T00:00:00Z");
    assert_eq!(value["operation"], "created");
    assert!(!version.redact(ts("2026-01-04T00:00:00Z")));
    assert_eq!(serde_json::to_value(&version).unwrap(), value);

    for (op, name) in [
        (VersionOperation::Created, "created"),
        (VersionOperation::Modified, "modified"),
        (VersionOperation::Deleted, "deleted"),
    ] {
        assert_eq!(serde_json::to_value(op).unwrap(), json!(name));
    }
}

#[test]
fn actors_are_tagged_by_type() {
    let actors = [
        (
            Actor::ApiActor {
                api_key_id: "key1".into(),
            },
            json!({"type": "api_actor", "api_key_id": "key1"}),
        ),
        (
            Actor::UserActor {
                user_id: "alice".into(),
            },
            json!({"type": "user_actor", "user_id": "alice"}),
        ),
        (
            Actor::SessionActor {
                session_id: SessionId::parse("sesn_1").unwrap(),
            },
            json!({"type": "session_actor", "session_id": "sesn_1"}),
        ),
    ];
    for (actor, expected) in actors {
        assert_eq!(serde_json::to_value(&actor).unwrap(), expected);
        assert_eq!(serde_json::from_value::<Actor>(expected).unwrap(), actor);
    }
    assert!(serde_json::from_value::<Actor>(json!({"type": "robot_actor", "id": "r"})).is_err());
}

#[test]
fn deleted_markers_preconditions_and_pages() {
    assert_eq!(
        serde_json::to_value(MemoryStoreDeleted::new(store_id())).unwrap(),
        json!({"id": "memstore_01jq0000000000000000000000", "type": "memory_store_deleted"})
    );
    let mem = StoreMemoryId::parse("mem_1").unwrap();
    assert_eq!(
        serde_json::to_value(MemoryDeleted::new(mem)).unwrap(),
        json!({"id": "mem_1", "type": "memory_deleted"})
    );

    let hash = content_sha256("x");
    let precondition: Precondition =
        serde_json::from_value(json!({"type": "content_sha256", "content_sha256": hash})).unwrap();
    assert!(precondition.holds_for(&hash));
    assert!(!precondition.holds_for(&content_sha256("y")));
    assert_eq!(
        serde_json::to_value(&precondition).unwrap(),
        json!({"type": "content_sha256", "content_sha256": hash})
    );
    assert!(serde_json::from_value::<Precondition>(json!({"type": "etag", "etag": "1"})).is_err());

    let page = Page {
        data: vec![memory().metadata()],
        next_cursor: None,
    };
    let value = serde_json::to_value(&page).unwrap();
    assert_eq!(value["next_cursor"], Value::Null);
    assert_eq!(value["data"][0]["path"], "/formatting_standards.md");
    assert!(value["data"][0].get("content").is_none());
}

#[test]
fn session_shape_and_mounts() {
    let slugs = assign_mount_slugs(["User Preferences", "user preferences!"]);
    assert_eq!(slugs, ["user-preferences", "user-preferences-2"]);
    let session = Session {
        id: SessionId::parse("sesn_1").unwrap(),
        kind: Default::default(),
        agent: None,
        resources: vec![
            SessionResource::MemoryStore(MemoryStoreResource {
                memory_store_id: store_id(),
                access: Access::ReadWrite,
                instructions: None,
                mount_path: mount_path(&slugs[0]),
            }),
            SessionResource::Other(
                json!({"type": "file", "file_id": "file_1", "mount_path": "/workspace/a"}),
            ),
        ],
        created_at: ts("2026-01-01T00:00:00Z"),
    };
    let value = serde_json::to_value(&session).unwrap();
    assert_eq!(
        value,
        json!({"id": "sesn_1", "type": "session", "agent": null,
               "resources": [
                   {"type": "memory_store", "memory_store_id": "memstore_01jq0000000000000000000000",
                    "access": "read_write", "instructions": null, "mount_path": "/mnt/memory/user-preferences/"},
                   {"type": "file", "file_id": "file_1", "mount_path": "/workspace/a"}
               ],
               "created_at": "2026-01-01T00:00:00Z"})
    );
    let back: Session = serde_json::from_value(value).unwrap();
    assert_eq!(back, session);
    assert_eq!(
        back.mount("user-preferences").unwrap().memory_store_id,
        store_id()
    );
    assert_eq!(back.memory_stores().count(), 1);

    let request: ResourceRequest = serde_json::from_value(json!({
        "type": "memory_store", "memory_store_id": "memstore_1", "access": "read_only", "instructions": "be tidy"
    }))
    .unwrap();
    assert_eq!(
        request,
        ResourceRequest::MemoryStore {
            memory_store_id: MemoryStoreId::parse("memstore_1").unwrap(),
            access: Access::ReadOnly,
            instructions: Some("be tidy".into()),
        }
    );
    assert!(
        serde_json::from_value::<ResourceRequest>(json!({
            "type": "memory_store", "memory_store_id": "memstore_1", "access": "write_only"
        }))
        .is_err()
    );
}

#[test]
fn file_interface_objects() {
    let listing = FsListing::sorted(vec![
        FsEntry::File {
            name: "todo.md".into(),
            size: 12,
        },
        FsEntry::Dir {
            name: "notes".into(),
        },
    ]);
    assert_eq!(
        serde_json::to_value(&listing).unwrap(),
        json!({"entries": [{"name": "notes", "type": "dir"}, {"name": "todo.md", "type": "file", "size": 12}]})
    );
    let read = FsRead {
        content: "x".into(),
        content_sha256: content_sha256("x"),
    };
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        json!({"content": "x", "content_sha256": content_sha256("x")})
    );
}

//! Personal data in what a store keeps besides content: in `mask` and `reject` stores a path is
//! an identifier, refused with `400 MEMORY_PATH_PERSONAL_DATA` through every door that names a
//! path to write, before anything is written; an `allow` store keeps it as given. Store names and
//! descriptions are masked whatever the policy.

use std::collections::BTreeSet;
use std::sync::Arc;

use agent_memory::{
    Access, CreateSessionRequest, CreateStoreRequest, ErrorCode, FsPathRequest, FsRenameRequest,
    FsWriteRequest, ListMemoriesRequest, ListStoresRequest, PiiPolicy, SessionCaller, StoreService,
};
use memory_core::{
    Actor, MemoryStore, MemoryStoreId, MemoryVersionId, StoreMemoryId, StorePath, Timestamp,
};
use serde_json::json;
use store_kv::InMemoryBackend;
use store_trait::{MemoryChange, MemoryWrite, StoreBackend};

use super::{Stores, code, editor, store_id, viewer, ws};
use crate::generate::Gen;

const EXAMPLE: &str = "/contacts/dana.levi@example.com/+14155550100.md";
const CLEAN: &[&str] = &[
    "/notes/2024-03-15.md",
    "/projects/v1.2.3/readme.md",
    "/notes/2024/03/15.md",
    "/a/icon@2x.png",
    "/meetings/weekly-12.md",
];
const PATH_MESSAGE: &str = "the store refuses paths with personal data; choose a path without it";

/// Stores named `Allow`, `Mask` and `Reject` with those policies (mounted as `allow`, `mask`
/// and `reject`).
fn three_stores(st: &Stores) -> [(PiiPolicy, String, &'static str); 3] {
    [
        (PiiPolicy::Allow, "Allow", "allow"),
        (PiiPolicy::Mask, "Mask", "mask"),
        (PiiPolicy::Reject, "Reject", "reject"),
    ]
    .map(|(policy, name, slug)| {
        (
            policy,
            st.store(CreateStoreRequest::new(name).pii_policy(policy)),
            slug,
        )
    })
}

/// Every live path of the store (all pages).
fn all_paths(st: &Stores, store: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut request = ListMemoriesRequest::new(store_id(store)).limit(100);
        if let Some(c) = &cursor {
            request = request.cursor(c);
        }
        let page = st.typed().memories_list(&editor(), &request).unwrap();
        out.extend(page.data.into_iter().map(|m| m.path.into_string()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
}

#[test]
fn the_spec_example_is_refused_by_mask_and_reject_and_kept_by_allow() {
    let st = Stores::new();
    let s = &st.service;
    for (policy, store, _) in three_stores(&st) {
        let created = s.memories_create(
            &editor(),
            &json!({"memory_store_id": store, "path": EXAMPLE, "content": "x"}),
        );
        match policy {
            PiiPolicy::Allow => assert_eq!(created.unwrap().path.as_str(), EXAMPLE),
            _ => {
                let err = created.unwrap_err();
                assert_eq!(err.code(), ErrorCode::MemoryPathPersonalData, "{policy:?}");
                assert_eq!(err.http_status(), 400);
                // The message names the rule, never the value.
                assert!(!err.message().contains("dana") && !err.message().contains("4155"));
                assert!(
                    st.versions(&store).is_empty(),
                    "{policy:?}: nothing written"
                );
            }
        }
        for clean in CLEAN {
            st.memory(&store, clean, "x");
        }
        let mut want: Vec<String> = CLEAN.iter().map(|p| (*p).to_owned()).collect();
        if policy == PiiPolicy::Allow {
            want.push(EXAMPLE.to_owned());
        }
        want.sort();
        assert_eq!(all_paths(&st, &store), want, "{policy:?}");
    }
}

#[test]
fn generated_paths_with_personal_data_are_refused_through_every_door_and_nothing_is_written() {
    let st = Stores::new();
    let s = &st.service;
    let stores = three_stores(&st);
    let agent = st.session(json!(
        stores
            .iter()
            .map(|(_, id, _)| json!({"type": "memory_store", "memory_store_id": id}))
            .collect::<Vec<_>>()
    ));
    // A file and a directory to move in each store.
    let seeds: Vec<_> = stores
        .iter()
        .map(|(_, store, _)| {
            st.memory(store, "/dir/a.md", "a");
            st.memory(store, "/seed.md", "seed")
        })
        .collect();
    let mut g = Gen::new(0x5eed);
    let mut allowed = 0;
    for _ in 0..300 {
        let path = g.personal_path();
        for ((policy, store, slug), seed) in stores.iter().zip(&seeds) {
            let mounted = format!("/mnt/memory/{slug}{path}");
            let tool = format!("/memories/{slug}{path}");
            if *policy == PiiPolicy::Allow {
                // Kept as given (and deleted again, so that the next paths cannot conflict).
                let memory = s
                    .memories_create(
                        &editor(),
                        &json!({"memory_store_id": store, "path": path, "content": "x"}),
                    )
                    .unwrap();
                assert_eq!(memory.path.as_str(), path);
                st.typed()
                    .fs_delete(&agent, &FsPathRequest::new(&mounted))
                    .unwrap();
                allowed += 1;
                continue;
            }
            let refused = ErrorCode::MemoryPathPersonalData;
            assert_eq!(
                code(s.memories_create(
                    &editor(),
                    &json!({"memory_store_id": store, "path": path, "content": "x"})
                )),
                refused,
                "memories.create {path}"
            );
            for body in [
                json!({"memory_store_id": store, "memory_id": seed.id, "path": path}),
                json!({"memory_store_id": store, "memory_id": seed.id, "path": path, "content": "y"}),
            ] {
                assert_eq!(
                    code(s.memories_update(&editor(), &body)),
                    refused,
                    "memories.update {body}"
                );
            }
            assert_eq!(
                code(s.fs_write(&agent, &json!({"path": mounted, "content": "x"}))),
                refused,
                "fs.write {mounted}"
            );
            assert_eq!(
                code(st.typed().fs_rename(
                    &agent,
                    &FsRenameRequest::new(format!("/mnt/memory/{slug}/seed.md"), &mounted)
                )),
                refused,
                "fs.rename {mounted}"
            );
            assert_eq!(
                code(st.typed().fs_rename_replacing_path(
                    &agent,
                    &format!("/mnt/memory/{slug}/seed.md"),
                    &mounted
                )),
                refused,
                "fs.rename replacing {mounted}"
            );
            assert_eq!(
                code(st.typed().fs_create_path(&agent, &mounted, "x".into())),
                refused,
                "fs create {mounted}"
            );
            assert_eq!(
                code(st.typed().fs_check_write_path(&agent, &mounted)),
                refused
            );
            for body in [
                json!({"command": "create", "path": tool, "file_text": "x"}),
                json!({"command": "rename", "old_path": format!("/memories/{slug}/seed.md"), "new_path": tool}),
                json!({"command": "rename", "old_path": format!("/memories/{slug}/dir"), "new_path": tool}),
            ] {
                let failure = st.typed().memory_tool_call(&agent, &body).unwrap_err();
                assert_eq!(
                    failure.api_error().code(),
                    ErrorCode::MemoryToolError,
                    "{body}"
                );
                assert_eq!(failure.api_error().message(), PATH_MESSAGE, "{body}");
            }
        }
    }
    assert_eq!(allowed, 300);
    for ((policy, store, _), _) in stores.iter().zip(&seeds) {
        if *policy == PiiPolicy::Allow {
            continue;
        }
        assert_eq!(
            all_paths(&st, store),
            ["/dir/a.md", "/seed.md"],
            "{policy:?}: nothing new"
        );
        assert_eq!(
            st.versions(store).len(),
            2,
            "{policy:?}: no version written"
        );
    }
}

#[test]
fn generated_clean_paths_are_stored_by_every_policy() {
    let st = Stores::new();
    let s = &st.service;
    let stores = three_stores(&st);
    let agent = st.session(json!(
        stores
            .iter()
            .map(|(_, id, _)| json!({"type": "memory_store", "memory_store_id": id}))
            .collect::<Vec<_>>()
    ));
    let mut g = Gen::new(42);
    let paths: BTreeSet<String> = (0..300).map(|_| g.clean_path()).collect();
    for (policy, store, slug) in &stores {
        for (i, path) in paths.iter().enumerate() {
            // Through the host API, the file interface and the memory tool in turn.
            match i % 3 {
                0 => {
                    s.memories_create(
                        &editor(),
                        &json!({"memory_store_id": store, "path": path, "content": "x"}),
                    )
                    .unwrap_or_else(|e| panic!("{policy:?} {path}: {e}"));
                }
                1 => {
                    s.fs_write(
                        &agent,
                        &json!({"path": format!("/mnt/memory/{slug}{path}"), "content": "x"}),
                    )
                    .unwrap_or_else(|e| panic!("{policy:?} {path}: {e}"));
                }
                _ => {
                    s.memory_tool(
                        &agent,
                        &json!({"command": "create", "path": format!("/memories/{slug}{path}"), "file_text": "x"}),
                    )
                    .unwrap_or_else(|e| panic!("{policy:?} {path}: {e}"));
                }
            }
        }
        let stored: BTreeSet<String> = all_paths(&st, store).into_iter().collect();
        assert_eq!(stored, paths, "{policy:?}");
    }
}

#[test]
fn a_path_with_personal_data_is_a_validation_error_in_the_order_of_checks() {
    let st = Stores::new();
    let s = &st.service;
    let mask = st.store(CreateStoreRequest::new("Mask").pii_policy(PiiPolicy::Mask));
    let reject = st.store(CreateStoreRequest::new("Reject").pii_policy(PiiPolicy::Reject));
    let create = |store: &str, path: &str, content: &str| {
        s.memories_create(
            &editor(),
            &json!({"memory_store_id": store, "path": path, "content": content}),
        )
    };
    // 403 comes first.
    assert_eq!(
        code(s.memories_create(
            &viewer(),
            &json!({"memory_store_id": mask, "path": EXAMPLE, "content": "x"})
        )),
        ErrorCode::MemoryStoreForbidden
    );
    // A path that breaks the path rules is MEMORY_PATH_INVALID, whatever it holds.
    assert_eq!(
        code(create(&mask, "/contacts/../dana@example.com", "x")),
        ErrorCode::MemoryPathInvalid
    );
    // Before the size: content too large (raw, and after masking) with such a path.
    let big = "x".repeat(102_401);
    assert_eq!(
        code(create(&mask, EXAMPLE, &big)),
        ErrorCode::MemoryPathPersonalData
    );
    assert_eq!(
        code(create(&reject, EXAMPLE, &big)),
        ErrorCode::MemoryPathPersonalData
    );
    // Before a path conflict and before personal data in the content.
    st.memory(&reject, "/contacts", "x");
    assert_eq!(
        code(create(&reject, "/contacts/dana@example.com", "x")),
        ErrorCode::MemoryPathPersonalData
    );
    assert_eq!(
        code(create(&reject, EXAMPLE, "mail dana@example.com")),
        ErrorCode::MemoryPathPersonalData
    );
    // Before a failed precondition.
    let memory = st.memory(&mask, "/m.md", "x");
    assert_eq!(
        code(s.memories_update(
            &editor(),
            &json!({"memory_store_id": mask, "memory_id": memory.id, "path": EXAMPLE,
                "precondition": {"type": "content_sha256", "content_sha256": "0".repeat(64)}})
        )),
        ErrorCode::MemoryPathPersonalData
    );
    // Before the archived store.
    s.stores_archive(&editor(), &json!({"memory_store_id": mask}))
        .unwrap();
    assert_eq!(
        code(create(&mask, EXAMPLE, "x")),
        ErrorCode::MemoryPathPersonalData
    );
    assert_eq!(
        code(create(&mask, "/n.md", "x")),
        ErrorCode::MemoryStoreArchived
    );
    // A store that does not exist has no policy to apply: not found.
    assert_eq!(
        code(create("memstore_nope", EXAMPLE, "x")),
        ErrorCode::MemoryStoreNotFound
    );
    // A read-only mount refuses the write first.
    let agent = st.typed_session(
        &CreateSessionRequest::new().memory_store(store_id(&reject), Access::ReadOnly),
    );
    assert_eq!(
        code(st.typed().fs_write(
            &agent,
            &FsWriteRequest::new(format!("/mnt/memory/reject{EXAMPLE}"), "x")
        )),
        ErrorCode::MemoryStoreReadOnly
    );
    assert_eq!(
        code(
            st.typed()
                .fs_check_write_path(&agent, &format!("/mnt/memory/reject{EXAMPLE}"))
        ),
        ErrorCode::MemoryStoreReadOnly
    );
    assert_eq!(st.versions(&reject).len(), 1);
}

/// A store and a session over a backend the test can also write to directly, to hold a file
/// stored under a path with personal data before the rule existed.
fn with_an_old_file() -> (StoreService, SessionCaller, MemoryStoreId) {
    let backend = Arc::new(InMemoryBackend::new());
    let service = StoreService::builder(backend.clone()).build();
    let store = service
        .stores_create(
            &editor(),
            &CreateStoreRequest::new("Mask").pii_policy(PiiPolicy::Mask),
        )
        .unwrap()
        .id;
    backend
        .write_memory(&MemoryWrite {
            workspace: ws(),
            store: store.clone(),
            change: MemoryChange::Create {
                memory_id: StoreMemoryId::parse("mem_old").unwrap(),
                path: StorePath::parse(EXAMPLE).unwrap(),
                content: "kept from before".into(),
            },
            version_id: MemoryVersionId::parse("memver_old").unwrap(),
            actor: Actor::UserActor {
                user_id: "m_editor".into(),
            },
            at: Timestamp::parse("2025-01-01T00:00:00Z").unwrap(),
            personal_data: false,
        })
        .unwrap();
    let session = service
        .sessions_create(
            &editor(),
            &CreateSessionRequest::new().memory_store(store.clone(), Access::ReadWrite),
        )
        .unwrap();
    let agent = SessionCaller {
        workspace: ws(),
        session: session.id,
    };
    (service, agent, store)
}

#[test]
fn a_file_stored_under_such_a_path_before_can_be_read_moved_away_and_deleted_not_written() {
    let (service, agent, store) = with_an_old_file();
    let old = format!("/mnt/memory/mask{EXAMPLE}");
    assert_eq!(
        service
            .fs_read(&agent, &FsPathRequest::new(&old))
            .unwrap()
            .content,
        "kept from before"
    );
    assert!(
        service
            .memory_tool(
                &agent,
                &json!({"command": "view", "path": format!("/memories/mask{EXAMPLE}")})
            )
            .is_ok()
    );
    // Writing through the path names it: refused.
    assert_eq!(
        code(service.fs_write(&agent, &FsWriteRequest::new(&old, "changed"))),
        ErrorCode::MemoryPathPersonalData
    );
    for body in [
        json!({"command": "str_replace", "path": format!("/memories/mask{EXAMPLE}"), "old_str": "kept", "new_str": "held"}),
        json!({"command": "insert", "path": format!("/memories/mask{EXAMPLE}"), "insert_line": 0, "insert_text": "x"}),
    ] {
        let failure = service.memory_tool_call(&agent, &body).unwrap_err();
        assert_eq!(failure.api_error().message(), PATH_MESSAGE, "{body}");
    }
    // Moving it to a clean path works, and so does deleting it there.
    let moved = service
        .fs_rename(
            &agent,
            &FsRenameRequest::new(&old, "/mnt/memory/mask/contacts/dana.md"),
        )
        .unwrap();
    assert_eq!(moved.path.as_str(), "/contacts/dana.md");
    service
        .fs_delete(
            &agent,
            &FsPathRequest::new("/mnt/memory/mask/contacts/dana.md"),
        )
        .unwrap();
    let versions = service
        .versions_list(
            &editor(),
            &agent_memory::ListVersionsRequest::new(store.clone()),
        )
        .unwrap()
        .data;
    assert_eq!(versions.len(), 3, "created before, moved, deleted");
}

#[test]
fn store_names_and_descriptions_are_masked_whatever_the_policy() {
    let st = Stores::new();
    let s = &st.service;
    let name = "Dana dana.levi@example.com";
    let description = "Call +14155550100 or 050-123-4567 about the 2024-03-15 plan.";
    let (masked_name, masked_description) =
        (pii_mask::mask(name).text, pii_mask::mask(description).text);
    assert_ne!(masked_name, name);
    assert!(!masked_description.contains("4155") && masked_description.contains("2024-03-15"));
    for policy in ["allow", "mask", "reject"] {
        let created = s
            .stores_create(
                &editor(),
                &json!({"name": name, "description": description, "pii_policy": policy}),
            )
            .unwrap();
        assert_eq!(
            (created.name.as_str(), created.description.as_str()),
            (masked_name.as_str(), masked_description.as_str()),
            "{policy}"
        );
        let got = s
            .stores_get(&editor(), &json!({"memory_store_id": created.id}))
            .unwrap();
        assert_eq!(got, created, "{policy}: get reads what create answered");
    }
    let listed = st
        .typed()
        .stores_list(&editor(), &ListStoresRequest::new())
        .unwrap()
        .data;
    assert_eq!(listed.len(), 3);
    assert!(
        listed
            .iter()
            .all(|s| s.name == masked_name && s.description == masked_description)
    );

    // An update masks too; sending the same personal data again masks to what is stored and
    // changes nothing.
    let store = listed[0].id.clone();
    st.clock.advance_seconds(60);
    let same = s
        .stores_update(
            &editor(),
            &json!({"memory_store_id": store, "name": name, "description": description}),
        )
        .unwrap();
    assert_eq!(same, listed[0], "no change, updated_at kept");
    let updated = s
        .stores_update(
            &editor(),
            &json!({"memory_store_id": store, "name": "Noa noa@example.org",
                "description": "card 4111 1111 1111 1111"}),
        )
        .unwrap();
    assert_eq!(updated.name, pii_mask::mask("Noa noa@example.org").text);
    assert_eq!(
        updated.description,
        pii_mask::mask("card 4111 1111 1111 1111").text
    );
    assert_ne!(updated.updated_at, listed[0].updated_at);
    assert_eq!(
        s.stores_get(&editor(), &json!({"memory_store_id": store}))
            .unwrap(),
        updated
    );

    // The mount slug and the system prompt come from the stored (masked) texts.
    let agent = st.typed_session(&CreateSessionRequest::new().memory_store_with_instructions(
        store.clone(),
        Access::ReadWrite,
        "be brief",
    ));
    let prompt = s
        .sessions_system_prompt(&editor(), &json!({"session_id": agent.session}))
        .unwrap()
        .text;
    assert!(prompt.contains(&updated.name) && prompt.contains(&updated.description));
    assert!(!prompt.contains("noa@example.org") && !prompt.contains("4111"));
}

#[test]
fn generated_store_texts_are_stored_without_their_personal_data() {
    let st = Stores::new();
    let s = &st.service;
    let mut g = Gen::new(0xface);
    for i in 0..200 {
        let value = g.personal_value();
        let name = format!("{} {value}", g.word());
        let description = format!("About {value}, see {}.", g.clean_path());
        let policy = ["allow", "mask", "reject"][i % 3];
        let store = s
            .stores_create(
                &editor(),
                &json!({"name": name, "description": description,
                    "pii_policy": policy}),
            )
            .unwrap();
        assert_eq!(store.name, pii_mask::mask(&name).text);
        assert_eq!(store.description, pii_mask::mask(&description).text);
        assert!(
            !store.name.contains(&value) && !store.description.contains(&value),
            "{value}"
        );
    }
}

#[test]
fn a_name_or_description_that_masking_makes_too_long_is_refused_and_nothing_is_created() {
    let st = Stores::new();
    let s = &st.service;
    // Each address (6 characters) becomes `[EMAIL]` (7): within the limit as sent, over it
    // once masked.
    let grows = |limit: usize| {
        let unit = "a@b.io ";
        let text = unit.repeat(limit / unit.len());
        let text = text.trim_end().to_owned();
        assert!(text.chars().count() <= limit);
        assert!(pii_mask::mask(&text).text.chars().count() > limit);
        text
    };
    let name = grows(MemoryStore::NAME_MAX_CHARS);
    let description = grows(MemoryStore::DESCRIPTION_MAX_CHARS);
    assert_eq!(
        code(s.stores_create(&editor(), &json!({"name": name}))),
        ErrorCode::MemoryInvalidRequest
    );
    assert_eq!(
        code(s.stores_create(
            &editor(),
            &json!({"name": "ok", "description": description})
        )),
        ErrorCode::MemoryInvalidRequest
    );
    let store = st.store(CreateStoreRequest::new("ok"));
    for body in [
        json!({"memory_store_id": store, "name": name}),
        json!({"memory_store_id": store, "description": description}),
    ] {
        assert_eq!(
            code(s.stores_update(&editor(), &body)),
            ErrorCode::MemoryInvalidRequest
        );
    }
    let listed = st
        .typed()
        .stores_list(&editor(), &ListStoresRequest::new())
        .unwrap()
        .data;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].name.as_str(), listed[0].description.as_str()),
        ("ok", "")
    );
}

//! Sessions: attaching stores at creation, mount slugs, other resources, system prompt.

use agent_memory::{
    Access, CreateSessionRequest, CreateStoreRequest, ErrorCode, MemoryStoreId, StoreIdRequest,
};
use serde_json::json;

use super::{Stores, code, editor, store_id, viewer};

#[test]
fn create_attaches_stores_with_slugs_and_keeps_other_resources() {
    let st = Stores::new();
    let s = &st.service;
    let a = st.store(CreateStoreRequest::new("User Preferences"));
    let b = st.store(CreateStoreRequest::new("user preferences!"));
    let c = st.store(CreateStoreRequest::new("日本"));
    let file =
        json!({"type": "file", "file_id": "f1", "mount_path": "/x", "extra": {"deep": [1, 2]}});
    let repo = json!({"type": "github_repository", "url": "https://example.com/r"});
    let session = s
        .sessions_create(
            &editor(),
            &json!({
                "agent": {"name": "helper", "v": 2},
                "resources": [
                    {"type": "memory_store", "memory_store_id": a},
                    file,
                    {"type": "memory_store", "memory_store_id": b, "access": "read_only", "instructions": "Only read."},
                    repo,
                    {"type": "memory_store", "memory_store_id": c},
                ]
            }),
        )
        .unwrap();
    let json = serde_json::to_value(&session).unwrap();
    assert_eq!(json["type"], "session");
    assert!(json["id"].as_str().unwrap().starts_with("sesn_"));
    assert_eq!(json["agent"], json!({"name": "helper", "v": 2}));
    let r = &json["resources"];
    assert_eq!(
        r[0],
        json!({"type": "memory_store", "memory_store_id": a, "access": "read_write", "instructions": null,
               "mount_path": "/mnt/memory/user-preferences/"})
    );
    assert_eq!(r[1], file, "other resources are kept exactly as given");
    assert_eq!(r[2]["mount_path"], "/mnt/memory/user-preferences-2/");
    assert_eq!(r[2]["access"], "read_only");
    assert_eq!(r[2]["instructions"], "Only read.");
    assert_eq!(r[3], repo);
    assert_eq!(r[4]["mount_path"], "/mnt/memory/store/");
    // No resources at all is a session too.
    assert!(
        s.sessions_create(&editor(), &json!({"resources": []}))
            .is_ok()
    );
}

#[test]
fn create_refuses_too_many_duplicates_unknown_and_archived_in_order() {
    let st = Stores::new();
    let s = &st.service;
    let ids: Vec<String> = (0..9)
        .map(|i| st.store(CreateStoreRequest::new(format!("s{i}"))))
        .collect();
    // The typed API: the same rules, in the same order, as the JSON bodies below.
    let typed = st.typed();
    let attach = |ids: &[&str]| {
        ids.iter().fold(CreateSessionRequest::new(), |request, id| {
            request.memory_store(MemoryStoreId::parse(*id).unwrap(), Access::ReadWrite)
        })
    };
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    assert!(
        typed
            .sessions_create(&editor(), &attach(&refs[..8]))
            .is_ok(),
        "8 is the limit"
    );
    assert_eq!(
        code(typed.sessions_create(&editor(), &attach(&refs))),
        ErrorCode::TooManyMemoryStores
    );
    // 400s come before the 404: nine unknown stores are too many, not unknown.
    let unknown: Vec<String> = (0..9).map(|i| format!("memstore_nope{i}")).collect();
    let unknown_refs: Vec<&str> = unknown.iter().map(String::as_str).collect();
    assert_eq!(
        code(typed.sessions_create(&editor(), &attach(&unknown_refs))),
        ErrorCode::TooManyMemoryStores
    );
    assert_eq!(
        code(typed.sessions_create(&editor(), &attach(&[refs[0], refs[1], refs[0]]))),
        ErrorCode::MemoryStoreDuplicate
    );
    assert_eq!(
        code(typed.sessions_create(&editor(), &attach(&["memstore_nope"]))),
        ErrorCode::MemoryStoreNotFound
    );
    typed
        .stores_archive(&editor(), &StoreIdRequest::new(store_id(&ids[3])))
        .unwrap();
    assert_eq!(
        code(typed.sessions_create(&editor(), &attach(&[refs[0], refs[3]]))),
        ErrorCode::MemoryStoreArchived
    );
    let long = CreateSessionRequest::new().memory_store_with_instructions(
        store_id(&ids[0]),
        Access::ReadOnly,
        "i".repeat(4097),
    );
    assert_eq!(
        code(typed.sessions_create(&editor(), &long)),
        ErrorCode::MemoryInvalidRequest
    );
    let untyped = CreateSessionRequest::new().resource(agent_memory::ResourceRequest::Other(
        json!({"file_id": "no type"}),
    ));
    assert_eq!(
        code(typed.sessions_create(&editor(), &untyped)),
        ErrorCode::MemoryInvalidRequest
    );
    // What only JSON can get wrong, through the JSON edge.
    for body in [
        json!({"resources": [{"file_id": "no type"}]}),
        json!({"resources": [{"type": "memory_store", "memory_store_id": ids[0], "access": "write_only"}]}),
        json!({"resources": [{"type": "memory_store", "memory_store_id": ids[0], "mount_path": "/mnt/memory/x/"}]}),
        json!({"resources": [{"type": "memory_store", "memory_store_id": ids[0], "instructions": "i".repeat(4097)}]}),
        json!({"resources": "none"}),
        json!({"resources": [], "user": "x"}),
    ] {
        assert_eq!(
            code(s.sessions_create(&editor(), &body)),
            ErrorCode::MemoryInvalidRequest,
            "{body}"
        );
    }
}

#[test]
fn resources_add_appends_other_kinds_only() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let caller = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
    let id = caller.session.as_str();
    assert_eq!(
        code(s.sessions_resources_add(
            &editor(),
            &json!({"session_id": id, "resource": {"type": "memory_store", "memory_store_id": store}})
        )),
        ErrorCode::MemoryStoreAttachAtCreationOnly
    );
    // Even on an unknown session the 400 comes first.
    assert_eq!(
        code(s.sessions_resources_add(
            &editor(),
            &json!({"session_id": "sesn_ghost", "resource": {"type": "memory_store", "memory_store_id": store}})
        )),
        ErrorCode::MemoryStoreAttachAtCreationOnly
    );
    let file = json!({"type": "file", "file_id": "f9"});
    let session = s
        .sessions_resources_add(&editor(), &json!({"session_id": id, "resource": file}))
        .unwrap();
    assert_eq!(session.resources.len(), 2);
    assert_eq!(
        serde_json::to_value(&session).unwrap()["resources"][1],
        file
    );
    assert_eq!(
        code(s.sessions_resources_add(
            &editor(),
            &json!({"session_id": "sesn_ghost", "resource": file})
        )),
        ErrorCode::SessionNotFound
    );
    assert_eq!(
        code(s.sessions_resources_add(&viewer(), &json!({"session_id": id, "resource": file}))),
        ErrorCode::MemoryStoreForbidden
    );
    assert_eq!(
        code(s.sessions_resources_add(
            &editor(),
            &json!({"session_id": id, "resource": {"file_id": 1}})
        )),
        ErrorCode::MemoryInvalidRequest
    );
}

#[test]
fn system_prompt_names_every_mount_with_fenced_workspace_text() {
    let st = Stores::new();
    let s = &st.service;
    let a =
        st.store(CreateStoreRequest::new("User Preferences").description("Per-user preferences."));
    let b = st.store(CreateStoreRequest::new("Team").description("Shared notes."));
    let caller = st.session(json!([
        {"type": "memory_store", "memory_store_id": a, "instructions": "Keep it short."},
        {"type": "memory_store", "memory_store_id": b, "access": "read_only"},
    ]));
    let text = s
        .sessions_system_prompt(&viewer(), &json!({"session_id": caller.session}))
        .unwrap()
        .text;
    assert!(text.contains("mount: /mnt/memory/user-preferences/\naccess: read_write\n"));
    assert!(text.contains("mount: /mnt/memory/team/\naccess: read_only\n"));
    let blocks = super::prompt::blocks(&text);
    assert_eq!(blocks.len(), 2);
    assert_eq!(
        blocks[0].1,
        "name: User Preferences\ndescription: Per-user preferences.\ninstructions: Keep it short.\n"
    );
    assert_eq!(blocks[1].1, "name: Team\ndescription: Shared notes.\n");
    // A deleted store still shows its mount, its access and its instructions.
    s.stores_delete(&editor(), &json!({"memory_store_id": a}))
        .unwrap();
    let text = s
        .sessions_system_prompt(&viewer(), &json!({"session_id": caller.session}))
        .unwrap()
        .text;
    assert!(text.contains("state: the memory store no longer exists"));
    assert_eq!(
        super::prompt::blocks(&text)[0].1,
        "instructions: Keep it short.\n"
    );
    assert_eq!(
        code(s.sessions_system_prompt(&viewer(), &json!({"session_id": "sesn_ghost"}))),
        ErrorCode::SessionNotFound
    );
    let empty = st.session(json!([]));
    let text = s
        .sessions_system_prompt(&viewer(), &json!({"session_id": empty.session}))
        .unwrap()
        .text;
    assert_eq!(text, "No memory stores are mounted for this session.\n");
}

//! The JSON edge of the memory stores: what only JSON can get wrong (types, unknown fields,
//! missing fields, malformed ids) is refused with the same `400`s as before the typed API, and
//! a typed request and its JSON body get the same answer, field rules and order included.

use agent_memory::json::{Caller, JsonAnswer, Operation, error_body};
use agent_memory::{
    Access, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest, FsPathRequest,
    FsWriteRequest, ListMemoriesRequest, PiiPolicy, StoreMemoryId, UpdateMemoryRequest,
};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

use super::{Stores, editor, store_id, viewer};

fn answer<T: Serialize>(result: Result<T, agent_memory::ApiError>) -> JsonAnswer {
    match result {
        Ok(response) => JsonAnswer {
            status: 200,
            body: serde_json::to_value(&response).unwrap(),
        },
        Err(err) => JsonAnswer {
            status: err.http_status(),
            body: error_body(&err),
        },
    }
}

#[track_caller]
fn refused(answer: JsonAnswer, message: &str) {
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.body["error"]["code"], "MEMORY_INVALID_REQUEST");
    assert_eq!(answer.body["error"]["message"], message);
}

#[test]
fn bad_json_is_refused_with_the_messages_of_the_contract() {
    let st = Stores::new();
    let api = st.service.api();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let editor = editor();
    let host = |op: &str, body: Value| {
        api.answer(
            Operation::from_name(op).unwrap(),
            Caller::Store(&editor),
            &body,
        )
    };
    // Each names the field, never its value.
    let wrong = |field: &str| {
        format!("the request body's field {field} has a value of the wrong type or form")
    };
    let missing = |field: &str| format!("the request body's field {field} is missing");
    let unknown = |field: &str| format!("the request body has an unknown field: {field}");
    let table = [
        ("stores.create", json!({"name": 7}), wrong("name")),
        (
            "stores.create",
            json!({"name": "x", "colour": "red"}),
            unknown("colour"),
        ),
        (
            "stores.create",
            json!({"description": "no name"}),
            missing("name"),
        ),
        ("stores.create", json!({"name": null}), wrong("name")),
        ("stores.list", json!({"limit": 1.5}), wrong("limit")),
        ("stores.list", json!({"limit": -1}), wrong("limit")),
        (
            "stores.list",
            json!({"include_archived": "yes"}),
            wrong("include_archived"),
        ),
        (
            "stores.get",
            json!({"memory_store_id": "not-a-store-id"}),
            wrong("memory_store_id"),
        ),
        (
            "stores.get",
            json!({"memory_store_id": store, "extra": 1}),
            unknown("extra"),
        ),
        (
            "memories.create",
            json!({"memory_store_id": store, "path": "/a"}),
            missing("content"),
        ),
        (
            "memories.create",
            json!({"memory_store_id": store, "path": "/a", "content": ["x"]}),
            wrong("content"),
        ),
        (
            "memories.update",
            json!({"memory_store_id": store, "memory_id": "memver_wrong_kind"}),
            wrong("memory_id"),
        ),
        (
            "memories.restore",
            json!({"memory_store_id": store, "memory_id": "mem_x"}),
            missing("version_id"),
        ),
        (
            "versions.list",
            json!({"memory_store_id": store, "memory_id": 3}),
            wrong("memory_id"),
        ),
        (
            "sessions.create",
            json!({"resources": {}}),
            wrong("resources"),
        ),
        (
            "sessions.create",
            json!({"agent": {}, "tools": []}),
            unknown("tools"),
        ),
        (
            "sessions.system_prompt",
            json!({"session_id": "memstore_x"}),
            wrong("session_id"),
        ),
    ];
    for (op, body, message) in table {
        refused(host(op, body), &message);
    }
    for body in [json!([]), json!("x"), json!(null), json!(1)] {
        refused(
            host("stores.create", body),
            "the request body must be a JSON object",
        );
    }
    // A precondition is read by its own rule, after the body's shape.
    refused(
        host(
            "memories.delete",
            json!({"memory_store_id": store, "memory_id": "mem_x", "precondition": {"type": "etag"}}),
        ),
        "precondition must be {\"type\":\"content_sha256\",\"content_sha256\":…}",
    );
    refused(
        host(
            "sessions.create",
            json!({"resources": [{"type": "memory_store", "memory_store_id": store, "mount": "/x"}]}),
        ),
        "a resource must be an object with a string type; a memory_store resource takes memory_store_id, access and instructions",
    );
    // The agent's side: a session caller, the same shape rule.
    let agent = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
    for (op, body, message) in [
        ("fs.read", json!({"path": 1}), wrong("path")),
        ("fs.list", json!({}), missing("path")),
        (
            "fs.write",
            json!({"path": "/mnt/memory/notes/a", "content": "x", "mode": 1}),
            unknown("mode"),
        ),
        (
            "fs.rename",
            json!({"from": "/mnt/memory/notes/a"}),
            missing("to"),
        ),
        (
            "fs.delete",
            json!({"path": "/mnt/memory/notes/a", "recursive": true}),
            unknown("recursive"),
        ),
    ] {
        let got = api.answer(
            Operation::from_name(op).unwrap(),
            Caller::Session(&agent),
            &body,
        );
        refused(got, &message);
    }
    // The role comes first, even before the body is looked at.
    let viewer = viewer();
    let got = api.answer(
        Operation::StoresCreate,
        Caller::Store(&viewer),
        &json!("not even an object"),
    );
    assert_eq!(got.status, 403);
}

#[test]
fn a_caller_of_the_wrong_kind_is_an_internal_error() {
    let st = Stores::new();
    let api = st.service.api();
    let agent = super::ghost_session();
    let got = api.answer(Operation::StoresList, Caller::Session(&agent), &json!({}));
    assert_eq!(got.status, 500);
    let editor = editor();
    let got = api.answer(
        Operation::FsList,
        Caller::Store(&editor),
        &json!({"path": "/mnt/memory/"}),
    );
    assert_eq!(got.status, 500);
}

#[test]
fn fs_delete_answers_an_empty_object() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let agent = st.typed_session(
        &CreateSessionRequest::new().memory_store(store_id(&store), Access::ReadWrite),
    );
    let typed = st.typed();
    typed
        .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/notes/a.md", "x"))
        .unwrap();
    let deleted = typed
        .fs_delete(&agent, &FsPathRequest::new("/mnt/memory/notes/a.md"))
        .unwrap();
    assert_eq!(serde_json::to_value(deleted).unwrap(), json!({}));
}

/// The same script of requests, typed on one service and as JSON on a twin (same clock, same
/// seeded ids): every answer must be the same JSON, refusals included.
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per generated field"
)]
fn same_answers(
    name: &str,
    description: Option<&str>,
    policy: Option<PiiPolicy>,
    path: &str,
    content: &str,
    limit: usize,
    prefix: Option<&str>,
    hash: &str,
) {
    let typed = Stores::new();
    let json = Stores::new();
    let api = json.service.api();
    let editor = editor();
    let call = |op: Operation, body: Value| api.answer(op, Caller::Store(&editor), &body);

    let mut request = CreateStoreRequest::new(name);
    let mut body = json!({"name": name});
    if let Some(d) = description {
        request = request.description(d);
        body["description"] = json!(d);
    }
    if let Some(p) = policy {
        request = request.pii_policy(p);
        body["pii_policy"] = json!(p.as_str());
    }
    let created = answer(typed.typed().stores_create(&editor, &request));
    assert_eq!(created, call(Operation::StoresCreate, body));
    let Some(store) = created.body["id"].as_str().map(store_id) else {
        return;
    };

    let request = CreateMemoryRequest::new(store.clone(), path, content);
    let memory = answer(typed.typed().memories_create(&editor, &request));
    let body = json!({"memory_store_id": store, "path": path, "content": content});
    assert_eq!(memory, call(Operation::MemoriesCreate, body));

    let mut request = ListMemoriesRequest::new(store.clone()).limit(limit);
    let mut body = json!({"memory_store_id": store, "limit": limit});
    if let Some(p) = prefix {
        request = request.path_prefix(p);
        body["path_prefix"] = json!(p);
    }
    let listed = answer(typed.typed().memories_list(&editor, &request));
    assert_eq!(listed, call(Operation::MemoriesList, body));

    let memory_id = memory.body["id"].as_str().unwrap_or("mem_missing");
    let memory_id = StoreMemoryId::parse(memory_id).unwrap();
    let request = UpdateMemoryRequest::new(store.clone(), memory_id.clone())
        .content(format!("{content}!"))
        .path(format!("{path}.moved"))
        .if_content_sha256(hash);
    let updated = answer(typed.typed().memories_update(&editor, &request));
    let body = json!({
        "memory_store_id": store,
        "memory_id": memory_id,
        "content": format!("{content}!"),
        "path": format!("{path}.moved"),
        "precondition": {"type": "content_sha256", "content_sha256": hash},
    });
    assert_eq!(updated, call(Operation::MemoriesUpdate, body));
}

fn policy() -> impl Strategy<Value = Option<PiiPolicy>> {
    prop_oneof![
        Just(None),
        Just(Some(PiiPolicy::Allow)),
        Just(Some(PiiPolicy::Mask)),
        Just(Some(PiiPolicy::Reject)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn typed_and_json_requests_get_the_same_answers(
        name in prop_oneof![Just(String::new()), "[a-zé ]{1,8}", Just("n".repeat(256))],
        description in proptest::option::of(prop_oneof!["[a-z]{0,8}", Just("d".repeat(4097))]),
        policy in policy(),
        path in prop_oneof!["/[a-z]{1,6}(/[a-z]{1,6})?", Just("no-slash".to_owned()), Just("/a//b".to_owned()), Just("/./x".to_owned())],
        content in prop_oneof!["[a-z ]{0,20}", Just("call 555-867-5309".to_owned())],
        limit in 0usize..=102,
        prefix in proptest::option::of(prop_oneof![Just("/".to_owned()), "/[a-z]{1,3}", Just("a/../b".to_owned())]),
        hash in prop_oneof![Just("0".repeat(64)), Just("ABC".to_owned())],
    ) {
        same_answers(
            &name,
            description.as_deref(),
            policy,
            &path,
            &content,
            limit,
            prefix.as_deref(),
            &hash,
        );
    }
}

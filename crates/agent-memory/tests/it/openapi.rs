//! The OpenAPI schemas (`agent_memory::openapi`) against the facade: every REST operation's
//! actual success and error bodies validate against the generated schemas, the request bodies
//! the facade accepts validate, an unknown field is refused by both, and for the hand-parsed
//! request types the schema accepts exactly the bodies `from_json` accepts (a property test).
//!
//! The validator is the `jsonschema` crate (JSON Schema 2020-12, OpenAPI 3.1's dialect), with
//! the named schemas of [`openapi::components`] as the document `$ref`s resolve in.

use std::rc::Rc;
use std::sync::Arc;

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::openapi;
use agent_memory::{
    AddSessionResourceRequest, AgentCaller, CreateMemoryRequest, CreateSessionRequest,
    CreateStoreRequest, DeleteMemoryRequest, ForgetRequest, InMemoryPassageSource,
    ListMemoriesRequest, ListRequest, ListStoresRequest, ListVersionsRequest, ManualClock,
    MemberCaller, MemberDeleteRequest, MemberListRequest, MemoryService, RecallRequest,
    RememberRequest, Request, RestoreMemoryRequest, SettingsPatch, StoreCaller, StoreService,
    UpdateMemoryRequest, UpdateStoreRequest,
};
use memory_core::{MemberId, Role, SeededIdGenerator, Timestamp, WorkspaceId};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use store_trait::InMemoryBackend;

use crate::{agent, member, owner};

// ---------------------------------------------------------------------------------------------
// The validator

/// Validates values against the generated schemas with `jsonschema` (JSON Schema 2020-12, the
/// dialect of OpenAPI 3.1): each schema is checked inside a document that holds every named
/// schema under `components/schemas`, so a `$ref` resolves as it does in `/openapi.json`.
/// `date-time` is checked with the facade's own RFC 3339 reader.
struct Validator {
    schemas: Map<String, Value>,
    compiled: std::cell::RefCell<std::collections::HashMap<String, Rc<jsonschema::Validator>>>,
}

impl Validator {
    fn new() -> Validator {
        let components = serde_json::to_value(openapi::components()).unwrap();
        let Value::Object(schemas) = components["schemas"].clone() else {
            panic!("components without schemas");
        };
        Validator {
            schemas,
            compiled: Default::default(),
        }
    }

    fn resolve<'a>(&'a self, reference: &str) -> &'a Value {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("a $ref outside the components: {reference}"));
        self.schemas
            .get(name)
            .unwrap_or_else(|| panic!("$ref to a schema missing from components(): {name}"))
    }

    /// `schema`, compiled once (the property test checks thousands of bodies against a few).
    fn compiled(&self, schema: &Value) -> Rc<jsonschema::Validator> {
        let key = schema.to_string();
        if let Some(compiled) = self.compiled.borrow().get(&key) {
            return compiled.clone();
        }
        let document = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": {"schemas": self.schemas},
            "allOf": [schema],
        });
        let compiled = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .with_format("date-time", |s: &str| Timestamp::parse(s).is_ok())
            .build(&document)
            .unwrap_or_else(|e| panic!("the schema does not compile: {e}\n{schema}"));
        let compiled = Rc::new(compiled);
        self.compiled.borrow_mut().insert(key, compiled.clone());
        compiled
    }

    fn check(&self, schema: &Value, value: &Value) -> Result<(), String> {
        self.compiled(schema)
            .validate(value)
            .map_err(|e| format!("{}: {e}", e.instance_path().as_str()))
    }

    /// `op`'s request body schema, for an operation that has one.
    fn request(&self, op: Operation) -> Value {
        let schema = openapi::request_schema(op)
            .unwrap_or_else(|| panic!("{} has no request schema", op.name()));
        serde_json::to_value(schema).unwrap()
    }
}

// ---------------------------------------------------------------------------------------------
// The facade

struct World {
    memories: MemoryService,
    stores: StoreService,
    validator: Validator,
    /// The REST operations exercised so far.
    seen: std::cell::RefCell<std::collections::BTreeSet<&'static str>>,
}

impl World {
    fn new() -> World {
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let memories = MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .clock(clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(7)))
        .build()
        .unwrap();
        let stores = StoreService::builder(Arc::new(InMemoryBackend::new()))
            .clock(clock)
            .ids(Arc::new(SeededIdGenerator::new(9)))
            .build();
        World {
            memories,
            stores,
            validator: Validator::new(),
            seen: Default::default(),
        }
    }

    fn api(&self) -> JsonApi<'_> {
        JsonApi::new(&self.memories).with_stores(&self.stores)
    }

    /// Calls `op`; its request body (when the operation has one, or its query parameters) must
    /// validate, and so must the answer, against the success or the error schema by its status.
    #[track_caller]
    fn answer(&self, op: &str, caller: Caller<'_>, body: Value) -> (u16, Value) {
        let op = Operation::from_name(op).unwrap();
        self.seen.borrow_mut().insert(op.name());
        let answer = self.api().answer(op, caller, &body);
        let schema = if answer.status == 200 {
            openapi::response_schema(op)
        } else {
            openapi::error_schema()
        };
        let schema = serde_json::to_value(schema).unwrap();
        if let Err(e) = self.validator.check(&schema, &answer.body) {
            panic!(
                "{} answered {} with a body its schema refuses: {e}\n{}",
                op.name(),
                answer.status,
                answer.body
            );
        }
        (answer.status, answer.body)
    }

    /// A call that must succeed; its request body validates against the request schema (or
    /// its fields against the query parameters).
    #[track_caller]
    fn ok(&self, op: &str, caller: Caller<'_>, body: Value) -> Value {
        self.check_request(op, &body);
        let (status, answer) = self.answer(op, caller, body);
        assert_eq!(status, 200, "{op}: {answer}");
        answer
    }

    /// A call that must be refused with `status`.
    #[track_caller]
    fn refused(&self, op: &str, caller: Caller<'_>, body: Value, status: u16) -> Value {
        let (got, answer) = self.answer(op, caller, body);
        assert_eq!(got, status, "{op}: {answer}");
        answer
    }

    #[track_caller]
    fn check_request(&self, name: &str, body: &Value) {
        let op = Operation::from_name(name).unwrap();
        let path: Vec<String> = openapi::path_parameters(op)
            .into_iter()
            .map(|p| p.name)
            .collect();
        if let Some(schema) = openapi::request_schema(op) {
            let schema = serde_json::to_value(schema).unwrap();
            if let Err(e) = self.validator.check(&schema, body) {
                panic!("{name}: the facade accepts a body its schema refuses: {e}\n{body}");
            }
            return;
        }
        let query = openapi::query_parameters(op);
        let fields = body.as_object().cloned().unwrap_or_default();
        for (field, value) in &fields {
            if path.contains(field) {
                continue;
            }
            let parameter = query.iter().find(|p| &p.name == field).unwrap_or_else(|| {
                panic!("{name}: {field} is neither a path nor a query parameter")
            });
            let schema = serde_json::to_value(parameter.schema.as_ref().unwrap()).unwrap();
            if let Err(e) = self.validator.check(&schema, value) {
                panic!("{name}: the query parameter {field} refuses {value}: {e}");
            }
        }
    }
}

fn viewer() -> MemberCaller {
    MemberCaller {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("victor").unwrap(),
        role: Role::Viewer,
    }
}

/// The REST operations: every operation but the agent file interface and the memory tool.
fn rest_operations() -> Vec<&'static str> {
    Operation::ALL
        .iter()
        .map(|op| op.name())
        .filter(|name| !name.starts_with("fs.") && *name != "memory_tool")
        .collect()
}

#[test]
fn every_rest_operation_answers_what_its_schemas_describe() {
    let w = World::new();
    let owner = owner();
    let alice = agent("alice", "cred_a");
    let unresolved = AgentCaller::Unresolved;
    let alice_member = member("alice");
    let editor = StoreCaller::Member(member("erin"));
    let viewer = StoreCaller::Member(viewer());

    // Settings and the agent operations.
    w.refused(
        "settings.get",
        Caller::Member(&alice_member),
        json!({}),
        403,
    );
    w.ok(
        "settings.put",
        Caller::Member(&owner),
        json!({"agentMemoriesEnabled": true, "retentionDays": 30}),
    );
    w.refused(
        "settings.put",
        Caller::Member(&owner),
        json!({"retentionDays": 0}),
        400,
    );
    let settings = w.ok("settings.get", Caller::Member(&owner), json!({}));
    assert_eq!(settings["retentionDays"], 30);

    let first = w.ok(
        "remember",
        Caller::Agent(&alice),
        json!({"namespace": "prefs", "key": "tone", "text": "Reply tersely; mail me at a@b.io"}),
    );
    assert_eq!(first["masked"]["email"], 1);
    let second = w.ok(
        "remember",
        Caller::Agent(&alice),
        json!({"namespace": "prefs", "key": "tone", "text": "Reply tersely", "citations": null}),
    );
    assert_eq!(second["superseded"], 1);
    w.ok(
        "remember",
        Caller::Agent(&alice),
        json!({"namespace": "travel", "text": "Prefers window seats", "collectionId": null}),
    );
    w.refused("remember", Caller::Agent(&unresolved), json!({}), 401);
    w.refused(
        "remember",
        Caller::Agent(&alice),
        json!({"namespace": "prefs", "key": "dana@example.com", "text": "x"}),
        400,
    );
    let found = w.ok(
        "recall",
        Caller::Agent(&alice),
        json!({"query": "how tersely should I reply?", "limit": 5, "asOf": null}),
    );
    assert!(!found["memories"].as_array().unwrap().is_empty());
    w.refused("recall", Caller::Agent(&alice), json!({"query": ""}), 400);
    let page = w.ok("list", Caller::Agent(&alice), json!({"limit": 1}));
    let cursor = page["nextCursor"].as_str().unwrap().to_owned();
    w.ok(
        "list",
        Caller::Agent(&alice),
        json!({"limit": 1, "cursor": cursor}),
    );
    w.ok(
        "list",
        Caller::Agent(&alice),
        json!({"namespace": "prefs", "asOf": "2026-01-01T00:00:00Z"}),
    );
    w.refused(
        "list",
        Caller::Agent(&alice),
        json!({"cursor": "not-a-cursor"}),
        400,
    );
    w.ok(
        "forget",
        Caller::Agent(&alice),
        json!({"namespace": "prefs", "key": "tone", "memoryId": null}),
    );
    w.refused(
        "forget",
        Caller::Agent(&alice),
        json!({"memoryId": "amem_gone"}),
        404,
    );

    // The member's own memories and the owner's delete-all.
    let own = w.ok(
        "agentMemories.list",
        Caller::Member(&alice_member),
        json!({"limit": 10}),
    );
    let id = own["memories"][0]["id"].as_str().unwrap().to_owned();
    w.refused(
        "agentMemories.list",
        Caller::Member(&alice_member),
        json!({"limit": 0}),
        400,
    );
    w.ok(
        "agentMemories.delete",
        Caller::Member(&alice_member),
        json!({"memoryId": id}),
    );
    w.refused(
        "agentMemories.delete",
        Caller::Member(&alice_member),
        json!({"memoryId": id}),
        404,
    );
    w.refused(
        "agentMemories.deleteAll",
        Caller::Member(&alice_member),
        json!({}),
        403,
    );
    w.ok("agentMemories.deleteAll", Caller::Member(&owner), json!({}));

    // The rate limit's error body carries retryAfterSeconds.
    let bob = agent("bob", "cred_b");
    let mut limited = None;
    for i in 0..=governance_policy::RATE_LIMIT_PER_HOUR {
        let (status, body) = w.answer(
            "remember",
            Caller::Agent(&bob),
            json!({"namespace": "n", "text": format!("note {i}")}),
        );
        if status == 429 {
            limited = Some(body);
        }
    }
    let limited = limited.expect("the 121st remember within the hour is refused");
    assert!(limited["error"]["retryAfterSeconds"].as_u64().unwrap() >= 1);

    // Memory stores.
    let store = w.ok(
        "stores.create",
        Caller::Store(&editor),
        json!({"name": "User Preferences", "description": "tone", "pii_policy": "mask"}),
    );
    let store_id = store["id"].as_str().unwrap().to_owned();
    let spare = w.ok(
        "stores.create",
        Caller::Store(&editor),
        json!({"name": "Spare"}),
    );
    let spare_id = spare["id"].as_str().unwrap().to_owned();
    w.refused(
        "stores.create",
        Caller::Store(&viewer),
        json!({"name": "x"}),
        403,
    );
    w.ok(
        "stores.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id}),
    );
    w.refused(
        "stores.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": "memstore_missing"}),
        404,
    );
    let stores = w.ok("stores.list", Caller::Store(&viewer), json!({"limit": 1}));
    assert!(stores["next_cursor"].is_string());
    w.ok(
        "stores.list",
        Caller::Store(&viewer),
        json!({"limit": 1, "cursor": stores["next_cursor"]}),
    );
    w.refused(
        "stores.list",
        Caller::Store(&viewer),
        json!({"limit": 101}),
        400,
    );
    w.ok(
        "stores.update",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "description": "how to reply", "name": null}),
    );
    w.refused(
        "stores.update",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "name": ""}),
        400,
    );

    let memory = w.ok(
        "memories.create",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "path": "/tone.md", "content": "Reply tersely.\n"}),
    );
    let memory_id = memory["id"].as_str().unwrap().to_owned();
    let created_version = memory["version_id"].as_str().unwrap().to_owned();
    w.refused(
        "memories.create",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "path": "/a/../b", "content": "x"}),
        400,
    );
    w.ok(
        "memories.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "memory_id": memory_id}),
    );
    w.refused(
        "memories.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "memory_id": "mem_missing"}),
        404,
    );
    w.ok(
        "memories.list",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "path_prefix": "/", "limit": 5}),
    );
    w.refused(
        "memories.list",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "limit": "5"}),
        400,
    );
    let sha = memory["content_sha256"].as_str().unwrap().to_owned();
    w.ok(
        "memories.update",
        Caller::Store(&editor),
        json!({
            "memory_store_id": store_id, "memory_id": memory_id, "content": "Reply briefly.\n",
            "precondition": {"type": "content_sha256", "content_sha256": sha},
        }),
    );
    let stale = w.refused(
        "memories.update",
        Caller::Store(&editor),
        json!({
            "memory_store_id": store_id, "memory_id": memory_id, "content": "x",
            "precondition": {"type": "content_sha256", "content_sha256": sha},
        }),
        409,
    );
    assert!(stale["error"]["current_content_sha256"].is_string());
    let versions = w.ok(
        "versions.list",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "memory_id": memory_id, "limit": 1}),
    );
    assert!(versions["next_cursor"].is_string());
    w.refused(
        "versions.list",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "limit": 0}),
        400,
    );
    w.ok(
        "versions.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "version_id": created_version}),
    );
    w.refused(
        "versions.get",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "version_id": "memver_missing"}),
        404,
    );
    w.ok(
        "memories.delete",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "memory_id": memory_id, "precondition": null}),
    );
    w.refused(
        "memories.delete",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "memory_id": memory_id}),
        404,
    );
    w.ok(
        "memories.restore",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "memory_id": memory_id, "version_id": created_version}),
    );
    w.refused(
        "memories.restore",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "memory_id": memory_id}),
        400,
    );
    let redacted = w.ok(
        "versions.redact",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "version_id": created_version}),
    );
    assert!(redacted["redacted_at"].is_string() && redacted["content"].is_null());
    w.refused(
        "versions.redact",
        Caller::Store(&viewer),
        json!({"memory_store_id": store_id, "version_id": created_version}),
        403,
    );

    // Sessions.
    let session = w.ok(
        "sessions.create",
        Caller::Store(&editor),
        json!({
            "agent": {"name": "helper"},
            "resources": [
                {"type": "memory_store", "memory_store_id": store_id, "access": "read_only",
                 "instructions": "Check tone first."},
                {"type": "file", "file_id": "f1"},
            ],
        }),
    );
    let session_id = session["id"].as_str().unwrap().to_owned();
    w.refused(
        "sessions.create",
        Caller::Store(&editor),
        json!({"resources": [
            {"type": "memory_store", "memory_store_id": store_id},
            {"type": "memory_store", "memory_store_id": store_id},
        ]}),
        400,
    );
    w.ok(
        "sessions.resources.add",
        Caller::Store(&editor),
        json!({"session_id": session_id, "resource": {"type": "github_repository", "url": "u"}}),
    );
    w.refused(
        "sessions.resources.add",
        Caller::Store(&editor),
        json!({"session_id": session_id, "resource": {"type": "memory_store", "memory_store_id": spare_id}}),
        400,
    );
    let prompt = w.ok(
        "sessions.system_prompt",
        Caller::Store(&viewer),
        json!({"session_id": session_id}),
    );
    assert!(
        prompt["text"]
            .as_str()
            .unwrap()
            .contains("/mnt/memory/user-preferences/")
    );
    w.refused(
        "sessions.system_prompt",
        Caller::Store(&viewer),
        json!({"session_id": "sesn_missing"}),
        404,
    );

    w.ok(
        "stores.archive",
        Caller::Store(&editor),
        json!({"memory_store_id": spare_id}),
    );
    w.refused(
        "stores.archive",
        Caller::Store(&viewer),
        json!({"memory_store_id": spare_id}),
        403,
    );
    w.ok(
        "stores.delete",
        Caller::Store(&editor),
        json!({"memory_store_id": spare_id}),
    );
    w.refused(
        "stores.delete",
        Caller::Store(&editor),
        json!({"memory_store_id": spare_id}),
        404,
    );

    // A new REST operation fails here until this test calls it.
    let seen = w.seen.borrow();
    for op in rest_operations() {
        assert!(
            seen.contains(op),
            "{op} is not exercised against its schemas"
        );
    }
}

#[test]
fn an_unknown_field_is_refused_by_the_facade_and_by_the_schema() {
    let w = World::new();
    let owner = owner();
    w.ok(
        "settings.put",
        Caller::Member(&owner),
        json!({"agentMemoriesEnabled": true}),
    );
    let alice = agent("alice", "cred_a");
    let alice_member = member("alice");
    let editor = StoreCaller::Member(member("erin"));
    let store = w.ok(
        "stores.create",
        Caller::Store(&editor),
        json!({"name": "S"}),
    );
    let store_id = store["id"].clone();
    let memory = w.ok(
        "memories.create",
        Caller::Store(&editor),
        json!({"memory_store_id": store_id, "path": "/a.md", "content": "a"}),
    );
    let session = w.ok(
        "sessions.create",
        Caller::Store(&editor),
        json!({"resources": []}),
    );

    // A body each operation accepts; with one field more, both refuse it.
    let accepted: Vec<(&str, Caller<'_>, Value)> = vec![
        (
            "remember",
            Caller::Agent(&alice),
            json!({"namespace": "n", "key": "k", "text": "t"}),
        ),
        ("recall", Caller::Agent(&alice), json!({"query": "q"})),
        ("list", Caller::Agent(&alice), json!({})),
        (
            "forget",
            Caller::Agent(&alice),
            json!({"namespace": "n", "key": "k"}),
        ),
        (
            "settings.put",
            Caller::Member(&owner),
            json!({"retentionDays": 90}),
        ),
        (
            "agentMemories.delete",
            Caller::Member(&alice_member),
            json!({}),
        ),
        (
            "stores.create",
            Caller::Store(&editor),
            json!({"name": "T"}),
        ),
        (
            "stores.update",
            Caller::Store(&editor),
            json!({"memory_store_id": store_id, "name": "U"}),
        ),
        (
            "memories.create",
            Caller::Store(&editor),
            json!({"memory_store_id": store_id, "path": "/b.md", "content": "b"}),
        ),
        (
            "memories.update",
            Caller::Store(&editor),
            json!({"memory_store_id": store_id, "memory_id": memory["id"], "content": "c"}),
        ),
        (
            "memories.restore",
            Caller::Store(&editor),
            json!({"memory_store_id": store_id, "memory_id": memory["id"],
                   "version_id": memory["version_id"]}),
        ),
        (
            "memories.delete",
            Caller::Store(&editor),
            json!({"memory_store_id": store_id, "memory_id": memory["id"]}),
        ),
        (
            "sessions.create",
            Caller::Store(&editor),
            json!({"resources": []}),
        ),
        (
            "sessions.resources.add",
            Caller::Store(&editor),
            json!({"session_id": session["id"], "resource": {"type": "file"}}),
        ),
    ];
    let mut with_body = 0;
    for (name, caller, body) in accepted {
        let op = Operation::from_name(name).unwrap();
        let schema = w.validator.request(op);
        let mut extra = body.clone();
        extra
            .as_object_mut()
            .unwrap()
            .insert("unexpected".into(), json!(1));
        let (status, answer) = w.answer(name, caller, extra.clone());
        assert_eq!(status, 400, "{name}: {answer}");
        assert!(
            answer["error"]["code"]
                .as_str()
                .unwrap()
                .ends_with("INVALID_REQUEST"),
            "{name}: {answer}"
        );
        assert!(
            w.validator.check(&schema, &extra).is_err(),
            "{name}: the schema accepts an unknown field"
        );
        w.ok(name, caller, body);
        with_body += 1;
    }
    let documented = Operation::ALL
        .iter()
        .filter(|op| openapi::request_schema(**op).is_some())
        .count();
    assert_eq!(
        with_body, documented,
        "every operation with a body is tried"
    );
}

#[test]
fn query_parameters_are_the_list_fields_and_never_path_parameters() {
    let names = |op: &str| -> Vec<String> {
        openapi::query_parameters(Operation::from_name(op).unwrap())
            .into_iter()
            .map(|p| p.name)
            .collect()
    };
    assert_eq!(names("agentMemories.list"), ["limit", "cursor"]);
    assert_eq!(
        names("stores.list"),
        ["include_archived", "limit", "cursor"]
    );
    assert_eq!(names("memories.list"), ["path_prefix", "limit", "cursor"]);
    assert_eq!(names("versions.list"), ["memory_id", "limit", "cursor"]);
    assert!(names("remember").is_empty());
    for op in [
        "agentMemories.list",
        "stores.list",
        "memories.list",
        "versions.list",
    ] {
        assert!(openapi::request_schema(Operation::from_name(op).unwrap()).is_none());
    }
    // A query value cannot be null: the parameter's schema has no `null`.
    let limit = openapi::query_parameters(Operation::from_name("stores.list").unwrap())
        .into_iter()
        .find(|p| p.name == "limit")
        .unwrap();
    let schema = serde_json::to_value(limit.schema.unwrap()).unwrap();
    assert_eq!(schema["type"], "integer");
    assert_eq!(schema["default"], 20);
    assert_eq!(schema["maximum"], 100);
}

#[test]
fn the_error_code_is_an_enum_of_every_stable_code() {
    let components = serde_json::to_value(openapi::components()).unwrap();
    let codes = components["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = codes.iter().map(|c| c.as_str().unwrap()).collect();
    let expected: Vec<&str> = memory_core::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(names, expected);
}

// ---------------------------------------------------------------------------------------------
// The hand-written request schemas accept exactly what `from_json` accepts

/// `T`'s schema (the component named after the type) and a reader saying whether `from_json`
/// accepts a body.
fn accepts<T: Request>() -> (Value, fn(&Value) -> bool) {
    let name = std::any::type_name::<T>().rsplit("::").next().unwrap();
    let components = serde_json::to_value(openapi::components()).unwrap();
    let schema = components["schemas"][name].clone();
    assert!(schema.is_object(), "no component named {name}");
    (schema, |body| T::from_json(body).is_ok())
}

/// Values near the rules' edges, for fields of either product.
fn edge_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..130).prop_map(Value::from),
        Just(json!(1.5)),
        Just(json!(20.0)),
        Just(json!(366)),
        Just(json!(10_000)),
        ".{0,12}".prop_map(Value::from),
        "[ \\t]?[a-z]{1,3}[ \u{a0}\u{3000}\n]?".prop_map(Value::from),
        Just(Value::from("")),
        Just(Value::from("x".repeat(65))),
        Just(Value::from("x".repeat(121))),
        Just(Value::from("x".repeat(129))),
        Just(Value::from("x".repeat(256))),
        Just(Value::from("😀".repeat(64))),
        Just(Value::from("a\u{85}")),
        Just(Value::from("\u{feff}a")),
        Just(Value::from("2026-01-01T00:00:00Z")),
        Just(Value::from("2026-01-01T00:00:00.5+02:00")),
        Just(Value::from("2026-13-45T99:00:00Z")),
        Just(Value::from("memstore_a")),
        Just(Value::from("mem_a")),
        Just(Value::from("memver_a")),
        Just(Value::from("sesn_a")),
        Just(Value::from("mem_a b")),
        Just(Value::from("allow")),
        Just(Value::from("mask")),
        Just(Value::from("reject")),
        Just(Value::from("memory_store")),
        Just(Value::from("content_sha256")),
        Just(Value::from("0".repeat(64))),
        Just(Value::from("/a.md")),
        Just(Value::from("/a/../b")),
        Just(Value::from("/")),
        Just(Value::from("read_only")),
        Just(Value::from("A".repeat(64))),
    ];
    leaf.prop_recursive(2, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            Just(Value::from(vec![Value::from("psg_1"); 21])),
            Just(Value::from(vec![Value::from("psg_1"); 20])),
            prop::collection::btree_map(
                prop::sample::select(&["type", "content_sha256", "file_id", "x"][..])
                    .prop_map(str::to_owned),
                inner,
                0..3,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// `seed` (a body `from_json` accepts) with up to three of its fields, or an unknown one, set to
/// values near the rules' edges or removed.
fn body_for(schema: &Value, seed: Value) -> impl Strategy<Value = Value> + use<> {
    let mut names: Vec<String> = Vec::new();
    collect_property_names(schema, &mut names);
    names.push("unexpected".into());
    let change = (
        prop::sample::select(names),
        prop::option::weighted(0.85, edge_value()),
    );
    prop::collection::vec(change, 0..4).prop_map(move |changes| {
        let mut body = seed.clone();
        let fields = body.as_object_mut().unwrap();
        for (name, value) in changes {
            match value {
                Some(value) => fields.insert(name, value),
                None => fields.remove(&name),
            };
        }
        body
    })
}

fn collect_property_names(schema: &Value, out: &mut Vec<String>) {
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for name in properties.keys() {
            if !out.contains(name) {
                out.push(name.clone());
            }
        }
    }
    for composite in ["oneOf", "anyOf", "allOf"] {
        for sub in schema
            .get(composite)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect_property_names(sub, out);
        }
    }
}

/// The hand-parsed request types, each with a body it accepts.
/// A request type: its name, schema, `from_json` verdict and a body it accepts.
struct Exact {
    name: &'static str,
    schema: Value,
    reads: fn(&Value) -> bool,
    seed: Value,
    /// The facade checks more than the schema states (the path rules, the session limits):
    /// every body it accepts validates, not the other way round.
    loose: bool,
}

fn exact_types() -> Vec<Exact> {
    macro_rules! types {
        ($($t:ty => $seed:expr $(, $loose:ident)?);* $(;)?) => {
            vec![$({
                let (schema, reads) = accepts::<$t>();
                let loose = stringify!($($loose)?) == "loose";
                Exact { name: stringify!($t), schema, reads, seed: $seed, loose }
            },)*]
        };
    }
    let sha = "0".repeat(64);
    types!(
        RememberRequest => json!({"namespace": "prefs", "text": "Reply tersely", "key": "tone",
                                   "collectionId": "c1", "citations": ["psg_1"]});
        RecallRequest => json!({"query": "q", "namespace": "prefs", "collectionId": "c1",
                                 "asOf": "2026-01-01T00:00:00Z", "limit": 5});
        ListRequest => json!({"namespace": "prefs", "key": "tone", "collectionId": "c1",
                               "asOf": "2026-01-01T00:00:00Z", "limit": 5, "cursor": "c"});
        ForgetRequest => json!({"namespace": "prefs", "key": "tone"});
        SettingsPatch => json!({"agentMemoriesEnabled": true, "retentionDays": 30});
        MemberDeleteRequest => json!({"memoryId": "amem_a"});
        MemberListRequest => json!({"limit": 5, "cursor": "c"});
        CreateStoreRequest => json!({"name": "S", "description": "d", "pii_policy": "mask"});
        ListStoresRequest => json!({"include_archived": true, "limit": 5, "cursor": "c"});
        UpdateStoreRequest => json!({"name": "S", "description": "d"});
        DeleteMemoryRequest => json!({"precondition": {"type": "content_sha256", "content_sha256": sha}});
        RestoreMemoryRequest => json!({"version_id": "memver_v",
                                        "precondition": {"type": "content_sha256", "content_sha256": sha}});
        ListVersionsRequest => json!({"memory_id": "mem_m", "limit": 5, "cursor": "c"});
        AddSessionResourceRequest => json!({"resource": {"type": "file", "file_id": "f"}});
        CreateMemoryRequest => json!({"path": "/a.md", "content": "x"}), loose;
        ListMemoriesRequest => json!({"path_prefix": "/a/", "limit": 5, "cursor": "c"}), loose;
        UpdateMemoryRequest => json!({"content": "c", "path": "/b.md",
                                       "precondition": {"type": "content_sha256", "content_sha256": sha}}), loose;
        CreateSessionRequest => json!({"agent": {"name": "a"}, "resources": [
            {"type": "memory_store", "memory_store_id": "memstore_a", "access": "read_only"},
            {"type": "file", "file_id": "f"},
        ]}), loose;
    )
}

/// The path parameters a router merges in, so that `from_json` sees a whole body.
fn with_path_ids(name: &str, body: &Value) -> Value {
    let ids: &[(&str, &str)] = match name {
        "UpdateStoreRequest" | "ListVersionsRequest" => &[("memory_store_id", "memstore_s")],
        "CreateMemoryRequest" | "ListMemoriesRequest" => &[("memory_store_id", "memstore_s")],
        "DeleteMemoryRequest" | "RestoreMemoryRequest" | "UpdateMemoryRequest" => {
            &[("memory_store_id", "memstore_s"), ("memory_id", "mem_m")]
        }
        "AddSessionResourceRequest" => &[("session_id", "sesn_s")],
        _ => &[],
    };
    let mut body = body.clone();
    if let Value::Object(fields) = &mut body {
        for (field, id) in ids {
            fields.entry(*field).or_insert_with(|| Value::from(*id));
        }
    }
    body
}

/// For each type, bodies drawn near its rules: the schema and `from_json` agree on every one,
/// and both verdicts occur (a generator that only made refused bodies would prove nothing).
#[test]
fn request_schemas_accept_exactly_what_from_json_accepts() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let validator = Validator::new();
    let mut runner = TestRunner::new(Config::default());
    for Exact {
        name,
        schema,
        reads,
        seed,
        loose,
    } in exact_types()
    {
        let strategy = body_for(&schema, seed);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..400 {
            let body = with_path_ids(name, &strategy.new_tree(&mut runner).unwrap().current());
            let by_schema = validator.check(&schema, &body);
            let read = reads(&body);
            // JSON Schema reads `20.0` as the integer 20; the facade takes only integers written
            // as integers (checked below): there, every body it accepts validates.
            if loose || has_integral_float(&body) {
                assert!(
                    !read || by_schema.is_ok(),
                    "{name} on {body}: {by_schema:?}"
                );
            } else {
                assert_eq!(read, by_schema.is_ok(), "{name} on {body}: {by_schema:?}");
            }
            if read {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            accepted > 0 && refused > 0,
            "{name}: {accepted} accepted, {refused} refused"
        );
    }
}

/// A number written with a fraction or an exponent whose value is a whole number (`20.0`).
fn has_integral_float(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0),
        Value::Array(items) => items.iter().any(has_integral_float),
        Value::Object(fields) => fields.values().any(has_integral_float),
        _ => false,
    }
}

/// The facade refuses an integer written as `20.0`, which the schema's `integer` admits.
#[test]
fn integers_written_with_a_fraction_are_refused_by_the_facade() {
    for body in [json!({"query": "q", "limit": 20.0}), json!({"query": "q", "limit": 2e1})] {
        assert!(RecallRequest::from_json(&body).is_err(), "{body}");
    }
    assert!(ListStoresRequest::from_json(&json!({"limit": 20.0})).is_err());
    assert!(SettingsPatch::from_json(&json!({"retentionDays": 30.0})).is_err());
}

#[test]
fn the_validator_refuses_bodies_the_schemas_refuse() {
    let validator = Validator::new();
    let remember = serde_json::to_value(openapi::response_schema(
        Operation::from_name("remember").unwrap(),
    ))
    .unwrap();
    let view = json!({
        "id": "amem_a", "namespace": "n", "key": null, "text": "t", "collectionId": null,
        "version": 1, "citations": [], "createdAt": "2026-01-01T00:00:00Z", "supersededAt": null,
        "sourceState": "uncited", "type": "memory", "evidence": false, "trust": "untrusted",
    });
    let good = json!({"memory": view, "superseded": 0, "masked": {"email": 1}});
    validator.check(&remember, &good).unwrap();
    for (pointer, wrong) in [
        ("/superseded", json!(2)),
        ("/masked", json!({"shoe_size": 1})),
        ("/memory/trust", json!("trusted")),
        ("/memory/evidence", json!(true)),
        ("/memory/createdAt", json!("yesterday")),
        ("/memory/id", json!("mem_a")),
    ] {
        let mut bad = good.clone();
        *bad.pointer_mut(pointer).unwrap() = wrong;
        assert!(validator.check(&remember, &bad).is_err(), "{pointer}");
    }
    let error = serde_json::to_value(openapi::error_schema()).unwrap();
    validator
        .check(
            &error,
            &json!({"error": {"code": "MEMORY_NOT_FOUND", "message": "m"}}),
        )
        .unwrap();
    for bad in [
        json!({"error": {"code": "NOT_A_CODE", "message": "m"}}),
        json!({"error": {"code": "MEMORY_NOT_FOUND"}}),
        json!({"error": {"code": "AGENT_MEMORY_RATE_LIMITED", "message": "m", "retryAfterSeconds": 0}}),
    ] {
        assert!(validator.check(&error, &bad).is_err(), "{bad}");
    }
}

#[test]
fn identifiers_follow_the_same_edges_in_the_schema_and_in_from_json() {
    let validator = Validator::new();
    let (schema, reads) = accepts::<RememberRequest>();
    for namespace in [
        "prefs",
        "a b",
        "😀",
        " prefs",
        "prefs ",
        "pre\u{0}fs",
        "pre\nfs",
        "\u{3000}x",
        "x\u{85}",
        "x\u{a0}",
        "\u{2028}x",
        "x\u{7f}",
        "\u{feff}x",
        "a\u{200b}",
    ] {
        let body = json!({"namespace": namespace, "text": "t"});
        assert_eq!(
            reads(&body),
            validator.check(&schema, &body).is_ok(),
            "{namespace:?}"
        );
    }
}

#[test]
fn forget_takes_exactly_one_form() {
    let validator = Validator::new();
    let (schema, reads) = accepts::<ForgetRequest>();
    for body in [
        json!({"memoryId": "amem_x"}),
        json!({"namespace": "n", "key": "k"}),
        json!({"memoryId": "amem_x", "namespace": null, "key": null}),
        json!({"memoryId": null, "namespace": "n", "key": "k"}),
        json!({"memoryId": "amem_x", "namespace": "n"}),
        json!({"namespace": "n"}),
        json!({}),
        Value::Null,
    ] {
        assert_eq!(
            reads(&body),
            validator.check(&schema, &body).is_ok(),
            "{body}"
        );
    }
}

/// A response writes every field it has (an absent value is `null`), so every property of a
/// response schema is required: a client may count on the key. The exceptions are the fields
/// the contract writes only when they say something, each listed here with its rule.
#[test]
fn response_schemas_require_every_field_they_list() {
    // A recalled memory's `duplicates`: only when it stands for identical notes (`minimum: 1`).
    const WRITTEN_WHEN_THEY_APPLY: [&str; 1] = ["duplicates"];
    let validator = Validator::new();
    let mut pending: Vec<Value> = rest_operations()
        .into_iter()
        .map(|name| {
            serde_json::to_value(openapi::response_schema(
                Operation::from_name(name).unwrap(),
            ))
            .unwrap()
        })
        .collect();
    let mut visited = std::collections::BTreeSet::new();
    while let Some(schema) = pending.pop() {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            if visited.insert(reference.to_owned()) {
                pending.push(validator.resolve(reference).clone());
            }
            continue;
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, sub) in properties {
                assert!(
                    required.contains(&name.as_str())
                        || WRITTEN_WHEN_THEY_APPLY.contains(&name.as_str()),
                    "{name} is not required in {schema}"
                );
                pending.push(sub.clone());
            }
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            pending.extend(
                schema
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        if let Some(items) = schema.get("items") {
            pending.push(items.clone());
        }
    }
    assert!(visited.contains("#/components/schemas/MemoryVersion"));
}

//! The OpenAPI schemas (`agent_memory::openapi`) against the facade: every REST operation's
//! actual success and error bodies validate against the generated schemas, the request bodies
//! the facade accepts validate, and an unknown field is refused by both. `request_schemas`
//! checks that each request schema accepts exactly the bodies `from_json` accepts.
//!
//! The validator is the `jsonschema` crate (JSON Schema 2020-12, OpenAPI 3.1's dialect), with
//! the named schemas of [`openapi::components`] as the document `$ref`s resolve in.

use std::rc::Rc;
use std::sync::Arc;

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::openapi;
use agent_memory::{
    AgentCaller, InMemoryPassageSource, ManualClock, MemberCaller, MemoryService, StoreCaller,
    StoreService,
};
use memory_core::{MemberId, Role, SeededIdGenerator, Timestamp, WorkspaceId};
use serde_json::{Map, Value, json};
use store_kv::InMemoryBackend;

use crate::{agent, member, owner};

// ---------------------------------------------------------------------------------------------
// The validator

/// Validates values against the generated schemas with `jsonschema` (JSON Schema 2020-12, the
/// dialect of OpenAPI 3.1): each schema is checked inside a document that holds every named
/// schema under `components/schemas`, so a `$ref` resolves as it does in `/openapi.json`.
/// `date-time` is checked with the facade's own RFC 3339 reader.
pub(crate) struct Validator {
    schemas: Map<String, Value>,
    compiled: std::cell::RefCell<std::collections::HashMap<String, Rc<jsonschema::Validator>>>,
}

impl Validator {
    pub(crate) fn new() -> Validator {
        let components = serde_json::to_value(openapi::components()).unwrap();
        let Value::Object(schemas) = components["schemas"].clone() else {
            panic!("components without schemas");
        };
        Validator {
            schemas,
            compiled: Default::default(),
        }
    }

    pub(crate) fn resolve<'a>(&'a self, reference: &str) -> &'a Value {
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

    pub(crate) fn check(&self, schema: &Value, value: &Value) -> Result<(), String> {
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
pub(crate) fn rest_operations() -> Vec<&'static str> {
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

    // A batch: one answer per item, a bad item among good ones.
    w.ok(
        "rememberBatch",
        Caller::Agent(&alice),
        json!({"items": [{"namespace": "n", "text": "batched"}, {"namespace": ""}]}),
    );
    w.refused(
        "rememberBatch",
        Caller::Agent(&alice),
        json!({"items": []}),
        400,
    );

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
        (
            "rememberBatch",
            Caller::Agent(&alice),
            json!({"items": [{"namespace": "n", "text": "t"}]}),
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

//! The derived request schemas against `from_json`: for each request type, bodies drawn near
//! its rules are accepted by the schema exactly when `from_json` accepts them (a property test),
//! and the schemas of the responses and the error body refuse what the contract refuses.

use agent_memory::json::Operation;
use agent_memory::openapi;
use agent_memory::{
    AddSessionResourceRequest, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest,
    DeleteMemoryRequest, ForgetRequest, ListMemoriesRequest, ListRequest, ListStoresRequest,
    ListVersionsRequest, MemberDeleteRequest, MemberListRequest, RecallRequest, RememberRequest,
    Request, RestoreMemoryRequest, SettingsPatch, UpdateMemoryRequest, UpdateStoreRequest,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::openapi::{Validator, rest_operations};

// ---------------------------------------------------------------------------------------------
// The request schemas accept exactly what `from_json` accepts

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
    for body in [
        json!({"query": "q", "limit": 20.0}),
        json!({"query": "q", "limit": 2e1}),
    ] {
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
    const WRITTEN_WHEN_THEY_APPLY: [&str; 3] = ["duplicates", "period", "time"];
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

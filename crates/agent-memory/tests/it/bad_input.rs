//! R8: bad input anywhere gets a clear 4xx with a stable code, never a panic, and writes nothing.
//! Bodies arrive as JSON through the facade's JSON edge, as a REST host, MCP and replay send them.

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{ApiError, MemberListRequest};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::{Fixture, agent, member, owner, req};

fn call(fx: &Fixture, op: Operation, caller: Caller<'_>, body: &Value) -> Result<Value, ApiError> {
    JsonApi::new(&fx.service).call(op, caller, body)
}

/// The field names the operations know; messages may name these (never values).
const FIELDS: &[&str] = &[
    "namespace",
    "text",
    "key",
    "collectionId",
    "citations",
    "asOf",
    "createdAfter",
    "createdBefore",
    "limit",
    "cursor",
    "memoryId",
    "agentMemoriesEnabled",
    "retentionDays",
    "query",
];

/// Arbitrary JSON, biased towards the field names the operations know.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        Just(Value::from("x".repeat(1001))),
        Just(Value::from("2026-13-45T99:00:00Z")),
        Just(Value::from("dana@example.com")),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    prop::sample::select(FIELDS).prop_map(str::to_owned),
                    "[a-zA-Z]{1,8}",
                ],
                inner,
                0..5,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every version the backend holds for alice, through the member's own view.
fn alice_versions(fx: &Fixture) -> usize {
    fx.service
        .member_list(&member("alice"), &MemberListRequest::new().limit(100))
        .unwrap()
        .memories
        .len()
}

fn strings_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if s.chars().count() >= 4 => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            if k.chars().count() >= 4 && !FIELDS.contains(&k.as_str()) {
                out.push(k.clone());
            }
            strings_in(v, out)
        }),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bodies_get_a_4xx_or_a_success_and_refusals_write_nothing(body in json_value(), op in 0usize..6) {
        let fx = Fixture::new();
        let alice = agent("alice", "cred_a");
        fx.service.remember(&alice, &req(json!({"namespace": "n", "key": "k", "text": "a first note"}))).unwrap();
        let before = alice_versions(&fx);
        let (owner, alice_member) = (owner(), member("alice"));
        let result = match op {
            0 => call(&fx, Operation::Remember, Caller::Agent(&alice), &body),
            1 => call(&fx, Operation::List, Caller::Agent(&alice), &body),
            2 => call(&fx, Operation::Forget, Caller::Agent(&alice), &body),
            3 => call(&fx, Operation::SettingsPut, Caller::Member(&owner), &body),
            4 => call(&fx, Operation::MemberList, Caller::Member(&alice_member), &body),
            _ => call(&fx, Operation::MemberDelete, Caller::Member(&alice_member), &body),
        };
        if let Err(err) = result {
            prop_assert!((400..500).contains(&err.http_status()), "{:?}", err.code());
            let mut sent = Vec::new();
            strings_in(&body, &mut sent);
            for s in sent {
                // A short run of lowercase letters can sit in a fixed message by chance ("know"
                // in "unknown"); an unknown field is named by design, in exactly one form;
                // anything else found in the message was echoed.
                let common = s.len() < 12 && s.chars().all(|c| c.is_ascii_lowercase() || c == ' ');
                let named = err.message() == format!("the request body has an unknown field: {s}");
                prop_assert!(common || named || !err.message().contains(&s), "the message echoes input");
            }
            prop_assert_eq!(alice_versions(&fx), before, "a refused request writes nothing");
        }
    }
}

#[test]
fn each_bad_field_has_the_invalid_request_code() {
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    let cases = [
        json!({"namespace": "n"}),
        json!({"text": "t"}),
        json!({"namespace": "", "text": "t"}),
        json!({"namespace": "n", "text": ""}),
        json!({"namespace": "n".repeat(65), "text": "t"}),
        json!({"namespace": "n", "text": "t".repeat(1001)}),
        json!({"namespace": "n", "text": "t", "key": "k".repeat(121)}),
        json!({"namespace": "n", "text": "t", "collectionId": "c".repeat(129)}),
        json!({"namespace": "n", "text": "t", "citations": vec!["p"; 21]}),
        json!({"namespace": "n", "text": "t", "citations": "p1"}),
        json!({"namespace": 5, "text": "t"}),
        json!({"namespace": "n", "text": "t", "extra": 1}),
        json!({"namespace": " n", "text": "t"}),
        json!({"namespace": "n\u{7}", "text": "t"}),
        json!([1, 2]),
        json!("a string"),
    ];
    for body in cases {
        let err = call(&fx, Operation::Remember, Caller::Agent(&alice), &body).unwrap_err();
        assert_eq!(
            err.code().as_str(),
            "AGENT_MEMORY_INVALID_REQUEST",
            "{body}"
        );
    }
    let list_cases = [
        json!({"limit": 0}),
        json!({"limit": 101}),
        json!({"limit": 1e30}),
        json!({"limit": "5"}),
        json!({"limit": -1}),
        json!({"limit": 2.5}),
        json!({"asOf": "yesterday"}),
        json!({"asOf": "2026-02-30T00:00:00Z"}),
        json!({"cursor": "not-a-cursor"}),
        json!({"cursor": ""}),
    ];
    for body in list_cases {
        let err = call(&fx, Operation::List, Caller::Agent(&alice), &body).unwrap_err();
        assert_eq!(
            err.code().as_str(),
            "AGENT_MEMORY_INVALID_REQUEST",
            "{body}"
        );
    }
    for body in [
        json!({}),
        json!({"memoryId": "amem_x", "namespace": "n", "key": "k"}),
        json!({"namespace": "n"}),
    ] {
        let err = call(&fx, Operation::Forget, Caller::Agent(&alice), &body).unwrap_err();
        assert_eq!(
            err.code().as_str(),
            "AGENT_MEMORY_INVALID_REQUEST",
            "{body}"
        );
    }
    assert_eq!(alice_versions(&fx), 0, "nothing was written");
}

/// The typed API and the JSON edge read a request at the same step of the order of checks and
/// by the same rules: the same request gets the same answer through both doors.
#[test]
fn typed_and_json_callers_get_the_same_answers() {
    use agent_memory::{AgentCaller, RememberRequest};
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    let nobody = AgentCaller::Unresolved;
    let cases: [(AgentCaller, RememberRequest, Value); 4] = [
        // An unknown credential is refused before its body is read, whatever the body.
        (
            nobody.clone(),
            RememberRequest::new("", ""),
            json!({"namespace": "", "text": ""}),
        ),
        (
            alice.clone(),
            RememberRequest::new("n", "t".repeat(1001)),
            json!({"namespace": "n", "text": "t".repeat(1001)}),
        ),
        (
            alice.clone(),
            RememberRequest::new("n", "t").citations(vec!["p"; 21]),
            json!({"namespace": "n", "text": "t", "citations": vec!["p"; 21]}),
        ),
        (
            alice.clone(),
            RememberRequest::new("dana@example.com", "t"),
            json!({"namespace": "dana@example.com", "text": "t"}),
        ),
    ];
    for (caller, typed, body) in cases {
        let a = fx.service.remember(&caller, &typed).unwrap_err();
        let b = call(&fx, Operation::Remember, Caller::Agent(&caller), &body).unwrap_err();
        assert_eq!((a.code(), a.message()), (b.code(), b.message()), "{body}");
    }
    let typed = fx
        .service
        .remember(&alice, &RememberRequest::new("n", "same note").key("k"))
        .unwrap();
    let through_json = call(
        &fx,
        Operation::Remember,
        Caller::Agent(&alice),
        &json!({"namespace": "n", "key": "k", "text": "same note"}),
    )
    .unwrap();
    assert_eq!(through_json["memory"]["version"], typed.memory.version + 1);
    assert_eq!(through_json["superseded"], 1);
}

#[test]
fn an_unknown_field_is_named_only_when_its_name_is_a_plain_identifier() {
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    let remember = |extra: &str| {
        let mut body = json!({"namespace": "n", "text": "t"});
        body[extra] = json!("dana@example.com");
        call(&fx, Operation::Remember, Caller::Agent(&alice), &body).unwrap_err()
    };
    let err = remember("colour");
    assert_eq!(err.code().as_str(), "AGENT_MEMORY_INVALID_REQUEST");
    assert_eq!(
        err.message(),
        "the request body has an unknown field: colour"
    );
    // A name that is not a plain identifier, that is long, or that holds personal data is the
    // client's content: the field is refused without its name. The value is never shown.
    for name in [
        "dana@example.com",
        "my field",
        "x".repeat(41).as_str(),
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "phone_4155550123",
    ] {
        let err = remember(name);
        assert_eq!(
            err.message(),
            "the request body has an unknown field (its name is not shown: it is not a plain identifier)",
            "{name}"
        );
    }
}

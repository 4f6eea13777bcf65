//! `rememberBatch`: each item is a remember under the same rules, answered on its own.

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{AgentCaller, RememberBatchRequest, RememberRequest};
use serde_json::json;

use crate::{Fixture, agent};

#[test]
fn each_item_is_answered_on_its_own_under_a_single_remembers_rules() {
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    let body = json!({"items": [
        {"namespace": "prefs", "key": "tone", "text": "Reply tersely"},
        {"namespace": "prefs"},
        {"namespace": "prefs", "key": "tone", "text": "Reply at length; call 050-123-4567"},
        {"namespace": "dana@example.com", "text": "x"},
    ]});
    let answer = JsonApi::new(&fx.service)
        .call(Operation::RememberBatch, Caller::Agent(&alice), &body)
        .unwrap();
    let results = answer["results"].as_array().unwrap();
    let statuses: Vec<u64> = results
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 400, 200, 400]);
    assert_eq!(results[1]["error"]["code"], "AGENT_MEMORY_INVALID_REQUEST");
    assert_eq!(results[3]["error"]["code"], "AGENT_MEMORY_PERSONAL_DATA");
    // In order: the third supersedes the first, and is masked.
    assert_eq!(results[2]["body"]["superseded"], 1);
    assert_eq!(
        results[2]["body"]["memory"]["text"],
        "Reply at length; call [PHONE]"
    );
    assert!(results[0]["error"].is_null() && results[1]["body"].is_null());
    // No answer repeats an item's text or the refused namespace.
    let text = answer.to_string();
    assert!(!text.contains("dana@example.com") && !text.contains("050-123-4567"));
}

#[test]
fn the_rate_limit_counts_each_item_and_a_bad_credential_refuses_the_batch() {
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    for i in 0..118 {
        fx.service
            .remember(&alice, &RememberRequest::new("n", format!("note {i}")))
            .unwrap();
    }
    let batch =
        RememberBatchRequest::new((0..4).map(|i| RememberRequest::new("n", format!("batch {i}"))));
    let answer = fx.service.remember_many(&alice, &batch).unwrap();
    let statuses: Vec<u16> = answer.results.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200, 200, 429, 429]);
    assert!(
        answer.results[2]
            .error
            .as_ref()
            .unwrap()
            .retry_after_seconds()
            .is_some()
    );
    let err = fx
        .service
        .remember_many(&AgentCaller::Unresolved, &batch)
        .unwrap_err();
    assert_eq!(err.http_status(), 401);
    // Too many items: the batch itself is refused.
    let many =
        RememberBatchRequest::new((0..101).map(|i| RememberRequest::new("n", format!("x {i}"))));
    assert_eq!(
        fx.service
            .remember_many(&alice, &many)
            .unwrap_err()
            .http_status(),
        400
    );
}

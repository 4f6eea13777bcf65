//! Identifiers of agent memories: a `collectionId` with personal data is refused like a namespace
//! or key (`400 AGENT_MEMORY_PERSONAL_DATA`, nothing written) through every door — the typed API,
//! the JSON edge (REST, replay) and the MCP tool — while filters of list and recall, which store
//! nothing, are never checked, for collections as for namespaces.

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{ErrorCode, ListRequest, MemberListRequest, RecallRequest, RememberRequest};
use serde_json::json;

use crate::generate::Gen;
use crate::{Fixture, agent, member};

/// The memories of member `m`, up to 100 (the member's own list, which no filter narrows).
fn stored(fx: &Fixture) -> usize {
    fx.service
        .member_list(&member("m"), &MemberListRequest::new().limit(100))
        .unwrap()
        .memories
        .len()
}

#[test]
fn a_collection_id_with_personal_data_is_refused_through_every_door() {
    let fx = Fixture::new();
    let caller = agent("m", "c");
    let api = JsonApi::new(&fx.service);
    let mut g = Gen::new(0xc011);
    for _ in 0..200 {
        let collection = g.personal_identifier();
        let typed = fx.service.remember(
            &caller,
            &RememberRequest::new("prefs", "Reply tersely").collection_id(&collection),
        );
        let err = typed.unwrap_err();
        assert_eq!(
            (err.code(), err.http_status()),
            (ErrorCode::AgentMemoryPersonalData, 400),
            "{collection}"
        );
        assert_eq!(err.message(), "collectionId contains personal data");
        let body =
            json!({"namespace": "prefs", "text": "Reply tersely", "collectionId": collection});
        let err = api
            .call(Operation::Remember, Caller::Agent(&caller), &body)
            .unwrap_err();
        assert_eq!(
            err.code(),
            ErrorCode::AgentMemoryPersonalData,
            "{collection}"
        );
        let tool = fx.service.call_tool(&caller, "remember_memory", &body);
        assert!(tool.is_error, "{collection}");
        assert_eq!(
            tool.structured_content["error"]["code"],
            "AGENT_MEMORY_PERSONAL_DATA"
        );
        assert!(!tool.text.contains(&collection));
    }
    assert_eq!(stored(&fx), 0, "nothing was written");
}

#[test]
fn the_namespace_and_key_are_checked_before_the_collection_id() {
    let fx = Fixture::new();
    let caller = agent("m", "c");
    let err = fx
        .service
        .remember(
            &caller,
            &RememberRequest::new("dana@example.com", "x").collection_id("+14155550100"),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryPersonalData);
    assert_eq!(err.message(), "namespace or key contains personal data");
    // Malformed input is answered before personal data (step 5 before step 6).
    let long = format!("dana@example.com{}", "x".repeat(128));
    let err = fx
        .service
        .remember(
            &caller,
            &RememberRequest::new("prefs", "x").collection_id(long),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest);
}

#[test]
fn clean_collection_ids_are_stored_as_given() {
    let fx = Fixture::new();
    let caller = agent("m", "c");
    let mut g = Gen::new(0xc1ea);
    let mut written = 0;
    for _ in 0..100 {
        let collection = g.clean_identifier();
        let stored = fx
            .service
            .remember(
                &caller,
                &RememberRequest::new("prefs", "Reply tersely").collection_id(&collection),
            )
            .unwrap_or_else(|e| panic!("{collection}: {e}"));
        assert_eq!(
            stored.memory.collection_id.as_deref(),
            Some(collection.as_str())
        );
        written += 1;
    }
    assert_eq!(stored(&fx), written);
}

#[test]
fn filters_with_personal_data_are_not_checked_for_collections_as_for_namespaces() {
    let fx = Fixture::new();
    let caller = agent("m", "c");
    fx.service
        .remember(
            &caller,
            &RememberRequest::new("prefs", "Reply tersely").collection_id("c1"),
        )
        .unwrap();
    let api = JsonApi::new(&fx.service);
    for filter in [
        json!({"collectionId": "dana@example.com"}),
        json!({"namespace": "dana@example.com"}),
    ] {
        let listed = api
            .call(Operation::List, Caller::Agent(&caller), &filter)
            .unwrap();
        assert_eq!(listed["memories"], json!([]), "{filter}");
        let mut query = filter.clone();
        query["query"] = json!("tersely");
        let recalled = api
            .call(Operation::Recall, Caller::Agent(&caller), &query)
            .unwrap();
        assert_eq!(recalled["memories"], json!([]), "{query}");
    }
    // The typed requests agree.
    let list = fx
        .service
        .list(&caller, &ListRequest::new().collection_id("+14155550100"))
        .unwrap();
    assert!(list.memories.is_empty());
    let recall = fx
        .service
        .recall(
            &caller,
            &RecallRequest::new("tersely").collection_id("+14155550100"),
        )
        .unwrap();
    assert!(recall.memories.is_empty());
}

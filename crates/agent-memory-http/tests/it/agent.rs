//! The agent, settings and member routes: each success and each error status over HTTP.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::{AGENT, OTHER_OWNER, OWNER, READER, Server, VIEWER, code};

const REMEMBER: &str = "/api/agent/v1/memories/remember";
const RECALL: &str = "/api/agent/v1/memories/recall";
const LIST: &str = "/api/agent/v1/memories/list";
const FORGET: &str = "/api/agent/v1/memories/forget";
const SETTINGS: &str = "/api/w/ws/ask-history/settings";
const OWN: &str = "/api/w/ws/ask-history/agent-memories";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remember_recall_list_forget_over_http() {
    let server = Server::start().await;
    // Off by default: the contract's 403 comes through unchanged.
    let (status, body) = server
        .post(REMEMBER, AGENT, json!({"namespace": "prefs", "text": "Hi"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(code(&body), "AGENT_MEMORY_DISABLED");
    server.enable().await;

    let (status, body) = server
        .post(
            REMEMBER,
            AGENT,
            json!({"namespace": "prefs", "key": "contact",
                   "text": "Reach Dana at dana.levi@example.com about the launch"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let text = body["memory"]["text"].as_str().unwrap();
    assert!(!text.contains("dana.levi@example.com"), "{text}");
    assert!(text.contains("launch"));
    let id = body["memory"]["id"].as_str().unwrap().to_owned();

    let (status, body) = server
        .post(RECALL, READER, json!({"query": "launch"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["memories"][0]["id"], id.as_str());

    let (status, body) = server.post(LIST, READER, json!({"limit": 5})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["memories"].as_array().unwrap().len(), 1);

    // The read-only credential may not forget.
    let (status, body) = server.post(FORGET, READER, json!({"memoryId": id})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(code(&body), "AGENT_MEMORY_SCOPE_REQUIRED");
    let (status, body) = server.post(FORGET, AGENT, json!({"memoryId": id})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = server.post(FORGET, AGENT, json!({"memoryId": id})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&body), "AGENT_MEMORY_NOT_FOUND");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_routes_refuse_missing_unknown_and_other_kinds_of_token() {
    let server = Server::start().await;
    server.enable().await;
    let body = json!({"namespace": "prefs", "text": "Hi"});
    for token in [None, Some("no-such-token"), Some(OWNER)] {
        let (status, answer) = server
            .call(Method::POST, REMEMBER, token, Some(&body))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(code(&answer), "AGENT_CREDENTIAL_INVALID");
        assert!(answer["error"]["message"].is_string());
    }
    // Not a bearer scheme at all.
    let response = server
        .client
        .post(server.url(REMEMBER))
        .basic_auth("agent", Some(AGENT))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_answer_400_after_the_credential_is_checked() {
    let server = Server::start().await;
    server.enable().await;
    for body in [
        json!({"namespace": "prefs", "text": "Hi", "unknown": 1}),
        json!({"namespace": "prefs"}),
        json!([1, 2]),
    ] {
        let (status, answer) = server.post(REMEMBER, AGENT, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(code(&answer), "AGENT_MEMORY_INVALID_REQUEST");
    }
    // Not JSON: refused at the facade's validation step, with its body.
    let response = server
        .client
        .post(server.url(REMEMBER))
        .bearer_auth(AGENT)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let answer: serde_json::Value = response.json().await.unwrap();
    assert_eq!(code(&answer), "AGENT_MEMORY_INVALID_REQUEST");
    // Not JSON and no credential: the credential is the first answer.
    let response = server
        .client
        .post(server.url(REMEMBER))
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    // Personal data in a key.
    let (status, answer) = server
        .post(
            REMEMBER,
            AGENT,
            json!({"namespace": "prefs", "key": "dana.levi@example.com", "text": "Hi"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&answer), "AGENT_MEMORY_PERSONAL_DATA");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_answers_429_with_retry_after() {
    let server = Server::start().await;
    server.enable().await;
    for i in 0..120 {
        let (status, body) = server
            .post(
                REMEMBER,
                AGENT,
                json!({"namespace": "n", "text": format!("note {i}")}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{i}: {body}");
    }
    let (status, headers, body) = server
        .call_full(
            Method::POST,
            REMEMBER,
            Some(AGENT),
            Some(&json!({"namespace": "n", "text": "one more"})),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(code(&body), "AGENT_MEMORY_RATE_LIMITED");
    let seconds = body["error"]["retryAfterSeconds"].as_u64().unwrap();
    assert!((1..=3600).contains(&seconds));
    let header = headers["retry-after"].to_str().unwrap();
    assert_eq!(header, seconds.to_string());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_and_member_routes() {
    let server = Server::start().await;
    let (status, body) = server.get(SETTINGS, OWNER).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["agentMemoriesEnabled"], false);
    assert_eq!(body["retentionDays"], 90);

    // A viewer is signed in but not the owner.
    let (status, body) = server.get(SETTINGS, VIEWER).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(code(&body), "ASK_HISTORY_MANAGE_REQUIRED");
    // The owner of another workspace, an agent token, no token: not signed in here.
    for token in [Some(OTHER_OWNER), Some(AGENT), None] {
        let (status, body) = server.call(Method::GET, SETTINGS, token, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(code(&body), agent_memory_http::UNAUTHENTICATED);
    }
    let (status, body) = server
        .call(
            Method::PUT,
            SETTINGS,
            Some(OWNER),
            Some(&json!({"retentionDays": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&body), "AGENT_MEMORY_INVALID_REQUEST");
    server.enable().await;

    for i in 0..3 {
        let (status, _) = server
            .post(
                REMEMBER,
                AGENT,
                json!({"namespace": "n", "text": format!("note {i}")}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    // The member's own list reads limit and cursor from the query string.
    let (status, first) = server.get(&format!("{OWN}?limit=2"), OWNER).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["memories"].as_array().unwrap().len(), 2);
    let cursor = first["nextCursor"].as_str().unwrap();
    let (status, second) = server
        .get(&format!("{OWN}?limit=2&cursor={cursor}"), OWNER)
        .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(second["memories"].as_array().unwrap().len(), 1);
    for bad in ["limit=abc", "limit=0", "limit=2.5", "unknown=1"] {
        let (status, body) = server.get(&format!("{OWN}?{bad}"), OWNER).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(code(&body), "AGENT_MEMORY_INVALID_REQUEST");
    }
    // The viewer is a member: their own list is empty, not refused.
    let (status, body) = server.get(OWN, VIEWER).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["memories"], json!([]));

    let (status, body) = server
        .call(
            Method::DELETE,
            OWN,
            Some(OWNER),
            Some(&json!({"memoryId": "mem_unknown"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&body), "AGENT_MEMORY_NOT_FOUND");
    let id = first["memories"][0]["id"].as_str().unwrap();
    let (status, body) = server
        .call(
            Method::DELETE,
            OWN,
            Some(OWNER),
            Some(&json!({"memoryId": id})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["deleted"], 1);

    let all = "/api/w/ws/ask-history/settings/agent-memories";
    let (status, body) = server.call(Method::DELETE, all, Some(VIEWER), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(code(&body), "ASK_HISTORY_MANAGE_REQUIRED");
    let (status, body) = server.call(Method::DELETE, all, Some(OWNER), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["deleted"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_paths_and_methods_answer_json() {
    let server = Server::start().await;
    let (status, body) = server.get("/api/agent/v1/nothing", AGENT).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&body), agent_memory_http::ROUTE_NOT_FOUND);
    let (status, body) = server.get(REMEMBER, AGENT).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(code(&body), agent_memory_http::METHOD_NOT_ALLOWED);
    server.stop().await;
}

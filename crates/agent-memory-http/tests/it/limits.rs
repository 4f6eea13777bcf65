//! Body-size limits: every valid body fits, and past a route's limit the answer is a JSON 413
//! before the facade reads anything.

use agent_memory_http::routes::{AGENT_BODY_LIMIT, CONTENT_BODY_LIMIT, SMALL_BODY_LIMIT};
use reqwest::StatusCode;
use serde_json::json;

use crate::{AGENT, OWNER, Server, code};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_valid_remember_body_fits_and_a_larger_one_is_413() {
    let server = Server::start().await;
    server.enable().await;
    // Every string at its longest and in characters that JSON escapes to six bytes each.
    let escaped = "\u{1}";
    let body = json!({
        "namespace": "n".repeat(64),
        "key": "k".repeat(120),
        "text": escaped.repeat(1000),
        "collectionId": "c".repeat(128),
        "citations": (0..20).map(|i| format!("{i:0>128}")).collect::<Vec<_>>(),
    });
    assert!(serde_json::to_vec(&body).unwrap().len() < AGENT_BODY_LIMIT);
    let (status, answer) = server
        .post("/api/agent/v1/memories/remember", AGENT, body)
        .await;
    // Read and judged by the facade (the passages do not exist): not refused for its size.
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_ne!(code(&answer), agent_memory_http::REQUEST_TOO_LARGE);

    let huge = json!({"namespace": "n", "text": "x".repeat(AGENT_BODY_LIMIT)});
    let (status, answer) = server
        .post("/api/agent/v1/memories/remember", AGENT, huge)
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(code(&answer), agent_memory_http::REQUEST_TOO_LARGE);
    // Nothing was written.
    let (status, listed) = server
        .post("/api/agent/v1/memories/list", AGENT, json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed["memories"], json!([]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_content_is_413_from_the_facade_and_from_the_router() {
    let server = Server::start().await;
    let (_, store) = server
        .post("/v1/memory_stores", OWNER, json!({"name": "S"}))
        .await;
    let memories = format!(
        "/v1/memory_stores/{}/memories",
        store["id"].as_str().unwrap()
    );
    // The largest content, fully escaped, is read.
    let (status, answer) = server
        .post(
            &memories,
            OWNER,
            json!({"path": "/max.md", "content": "\u{1}".repeat(102_400)}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{}", answer["error"]);
    // One byte more: the facade's 413.
    let (status, answer) = server
        .post(
            &memories,
            OWNER,
            json!({"path": "/over.md", "content": "x".repeat(102_401)}),
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(code(&answer), "MEMORY_TOO_LARGE");
    // Past the route's limit: the router's 413, with the same code.
    let (status, answer) = server
        .post(
            &memories,
            OWNER,
            json!({"path": "/huge.md", "content": "x".repeat(CONTENT_BODY_LIMIT)}),
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(code(&answer), "MEMORY_TOO_LARGE");
    // Neither 413 wrote anything: only the largest valid memory is there.
    let (status, listed) = server.get(&memories, OWNER).await;
    assert_eq!(status, StatusCode::OK);
    let paths: Vec<&str> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/max.md"]);
    // Small bodies have a small limit.
    let (status, answer) = server
        .post(
            "/v1/memory_stores",
            OWNER,
            json!({"name": "x".repeat(SMALL_BODY_LIMIT)}),
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(code(&answer), "MEMORY_TOO_LARGE");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunked_body_without_length_is_cut_at_the_limit() {
    let server = Server::start().await;
    server.enable().await;
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..20)
        .map(|_| Ok(vec![b' '; AGENT_BODY_LIMIT / 10]))
        .collect();
    let response = server
        .client
        .post(server.url("/api/agent/v1/memories/remember"))
        .bearer_auth(AGENT)
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(
            chunks,
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    server.stop().await;
}

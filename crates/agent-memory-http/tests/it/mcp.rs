//! `/mcp` over real HTTP: the Streamable HTTP handshake and a tool call, authenticated by the
//! same authenticator as the REST routes. (CI also drives it with the official MCP Python SDK:
//! `tests/mcp_http_client.py`.)

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{AGENT, OWNER, Server, code};

/// Posts one JSON-RPC message; the status, the session id header and the JSON-RPC answer (from
/// a JSON body or the first SSE `data:` line).
async fn rpc(
    server: &Server,
    token: Option<&str>,
    session: Option<&str>,
    message: Value,
) -> (StatusCode, Option<String>, Option<Value>) {
    let mut request = server
        .client
        .post(server.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .json(&message);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18");
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let answer = serde_json::from_str::<Value>(&text).ok().or_else(|| {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .find_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
    });
    (status, session, answer)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "http-test", "version": "0"}
    }})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_needs_an_agent_credential() {
    let server = Server::start().await;
    for token in [None, Some("nope"), Some(OWNER)] {
        let (status, _, answer) = rpc(&server, token, None, initialize()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(code(&answer.unwrap()), "AGENT_CREDENTIAL_INVALID");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_list_and_call_a_tool_over_streamable_http() {
    let server = Server::start().await;
    server.enable().await;
    let (status, session, answer) = rpc(&server, Some(AGENT), None, initialize()).await;
    assert_eq!(status, StatusCode::OK);
    let answer = answer.unwrap();
    assert_eq!(answer["result"]["serverInfo"]["name"], "agent-memory");
    let session = session.expect("a session id");
    let (status, _, _) = rpc(
        &server,
        Some(AGENT),
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert!(status.is_success(), "{status}");

    let (status, _, answer) = rpc(
        &server,
        Some(AGENT),
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = answer.as_ref().unwrap()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "remember_memory",
            "recall_memories",
            "list_memories",
            "forget_memory"
        ]
    );
    // Each tool's annotations: every hint given, closed world, as the facade describes them.
    let tools = answer.as_ref().unwrap()["result"]["tools"]
        .as_array()
        .unwrap();
    let hints: Vec<(&str, &Value, &Value, &Value, &Value)> = tools
        .iter()
        .map(|t| {
            let a = &t["annotations"];
            assert_eq!(a["openWorldHint"], false, "{t}");
            assert_eq!(a["title"], t["title"], "{t}");
            (
                t["name"].as_str().unwrap(),
                &a["title"],
                &a["readOnlyHint"],
                &a["destructiveHint"],
                &a["idempotentHint"],
            )
        })
        .collect();
    let (yes, no) = (&json!(true), &json!(false));
    assert_eq!(
        hints,
        [
            ("remember_memory", &json!("Remember a note"), no, no, no),
            ("recall_memories", &json!("Recall notes"), yes, no, yes),
            ("list_memories", &json!("List notes"), yes, no, yes),
            ("forget_memory", &json!("Forget a note"), no, yes, yes),
        ]
    );

    let (status, _, answer) = rpc(
        &server,
        Some(AGENT),
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "remember_memory",
            "arguments": {"namespace": "prefs", "text": "Mail me at dana@example.com"}
        }}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let result = &answer.as_ref().unwrap()["result"];
    assert_eq!(result["isError"], false, "{result}");
    let text = result["structuredContent"]["memory"]["text"]
        .as_str()
        .unwrap();
    assert!(!text.contains("dana@example.com"), "{text}");

    // The same session with another token is refused before rmcp sees it.
    let (status, _, _) = rpc(
        &server,
        Some("nope"),
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    server.stop().await;
}

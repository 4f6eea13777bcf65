//! The memory-store, version and session routes over HTTP: the whole life of a store, with
//! each error status the contract gives these routes.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{AGENT, API_KEY, OWNER, Server, VIEWER, code};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_from_creation_to_deletion() {
    let server = Server::start().await;
    let (status, store) = server
        .post(
            "/v1/memory_stores",
            OWNER,
            json!({"name": "Team Notes", "description": "What the team agreed"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{store}");
    let sid = store["id"].as_str().unwrap().to_owned();
    let base = format!("/v1/memory_stores/{sid}");

    let (status, listed) = server.get("/v1/memory_stores?limit=10", API_KEY).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(listed["data"][0]["id"], sid.as_str());
    let (status, got) = server.get(&base, VIEWER).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(got["name"], "Team Notes");
    let (status, updated) = server.post(&base, OWNER, json!({"name": "Team"})).await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["name"], "Team");

    // Memories: create, read, list, update under a precondition.
    let memories = format!("{base}/memories");
    let (status, memory) = server
        .post(
            &memories,
            OWNER,
            json!({"path": "/style.md", "content": "Short sentences."}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{memory}");
    let mid = memory["id"].as_str().unwrap().to_owned();
    let sha = memory["content_sha256"].as_str().unwrap().to_owned();
    let (status, conflict) = server
        .post(
            &memories,
            OWNER,
            json!({"path": "/style.md", "content": "again"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(code(&conflict), "MEMORY_PATH_CONFLICT");
    let (status, bad_path) = server
        .post(&memories, OWNER, json!({"path": "/a/../b", "content": ""}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&bad_path), "MEMORY_PATH_INVALID");
    let (status, page) = server
        .get(&format!("{memories}?path_prefix=/&limit=5"), VIEWER)
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["data"].as_array().unwrap().len(), 1);
    let one = format!("{memories}/{mid}");
    let (status, read) = server.get(&one, VIEWER).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["content"], "Short sentences.");

    let stale = json!({"type": "content_sha256", "content_sha256": "0".repeat(64)});
    let (status, failed) = server
        .post(
            &one,
            OWNER,
            json!({"content": "Shorter.", "precondition": stale}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(code(&failed), "MEMORY_PRECONDITION_FAILED");
    assert_eq!(failed["error"]["current_content_sha256"], sha.as_str());
    let fresh = json!({"type": "content_sha256", "content_sha256": sha});
    let (status, changed) = server
        .post(
            &one,
            API_KEY,
            json!({"content": "Shorter.", "precondition": fresh}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    // A viewer reads but does not write.
    let (status, refused) = server.post(&one, VIEWER, json!({"content": "x"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(code(&refused), "MEMORY_STORE_FORBIDDEN");

    // Versions: newest first; the current one cannot be redacted, an older one can.
    let versions = format!("{base}/memory_versions");
    let (status, listed) = server
        .get(&format!("{versions}?memory_id={mid}"), VIEWER)
        .await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let data = listed["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    let (current, first) = (id_of(&data[0]), id_of(&data[1]));
    let (status, got) = server.get(&format!("{versions}/{first}"), VIEWER).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(got["content"], "Short sentences.");
    let (status, refused) = server
        .post(&format!("{versions}/{current}/redact"), OWNER, json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(code(&refused), "MEMORY_VERSION_IS_CURRENT");
    let (status, redacted) = server
        .call(
            Method::POST,
            &format!("{versions}/{first}/redact"),
            Some(OWNER),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{redacted}");
    assert_eq!(redacted["content"], Value::Null);
    let (status, refused) = server
        .post(
            &format!("{one}/restore"),
            OWNER,
            json!({"version_id": first}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(code(&refused), "MEMORY_VERSION_REDACTED");

    // Sessions mount the store.
    let (status, session) = server
        .post(
            "/v1/sessions",
            OWNER,
            json!({"resources": [{"type": "memory_store", "memory_store_id": sid}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{session}");
    let session_id = session["id"].as_str().unwrap().to_owned();
    let (status, prompt) = server
        .get(&format!("/v1/sessions/{session_id}/system_prompt"), OWNER)
        .await;
    assert_eq!(status, StatusCode::OK, "{prompt}");
    assert!(
        prompt["text"]
            .as_str()
            .unwrap()
            .contains("/mnt/memory/team/")
    );
    let (status, added) = server
        .post(
            &format!("/v1/sessions/{session_id}/resources"),
            OWNER,
            json!({"resource": {"type": "file", "file_id": "file_1"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{added}");
    let (status, refused) = server
        .post(
            &format!("/v1/sessions/{session_id}/resources"),
            OWNER,
            json!({"resource": {"type": "memory_store", "memory_store_id": sid}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&refused), "MEMORY_STORE_ATTACH_AT_CREATION_ONLY");
    let (status, missing) = server
        .get("/v1/sessions/sesn_unknown/system_prompt", OWNER)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&missing), "SESSION_NOT_FOUND");

    // Delete the memory, archive, then delete the store.
    let (status, deleted) = server.call(Method::DELETE, &one, Some(OWNER), None).await;
    assert_eq!(status, StatusCode::OK, "{deleted}");
    assert_eq!(deleted["type"], "memory_deleted");
    let (status, archived) = server
        .call(Method::POST, &format!("{base}/archive"), Some(OWNER), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{archived}");
    assert!(archived["archived_at"].is_string());
    let (status, refused) = server
        .post(&memories, OWNER, json!({"path": "/new.md", "content": "x"}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(code(&refused), "MEMORY_STORE_ARCHIVED");
    let (status, gone) = server.call(Method::DELETE, &base, Some(OWNER), None).await;
    assert_eq!(status, StatusCode::OK, "{gone}");
    assert_eq!(gone["type"], "memory_store_deleted");
    let (status, missing) = server.get(&base, OWNER).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&missing), "MEMORY_STORE_NOT_FOUND");
    server.stop().await;
}

fn id_of(version: &Value) -> String {
    version["id"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_routes_need_a_member_or_an_api_key() {
    let server = Server::start().await;
    for token in [None, Some("nope"), Some(AGENT)] {
        let (status, body) = server
            .call(Method::GET, "/v1/memory_stores", token, None)
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(code(&body), agent_memory_http::UNAUTHENTICATED);
    }
    let (status, body) = server
        .post("/v1/memory_stores", OWNER, json!({"name": ""}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&body), "MEMORY_INVALID_REQUEST");
    let (status, body) = server
        .get("/v1/memory_stores?include_archived=maybe", OWNER)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(code(&body), "MEMORY_INVALID_REQUEST");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_path_names_the_object_whatever_the_body_says() {
    let server = Server::start().await;
    let (_, a) = server
        .post("/v1/memory_stores", OWNER, json!({"name": "A"}))
        .await;
    let (_, b) = server
        .post("/v1/memory_stores", OWNER, json!({"name": "B"}))
        .await;
    let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let (status, memory) = server
        .post(
            &format!("/v1/memory_stores/{a}/memories"),
            OWNER,
            json!({"memory_store_id": b, "path": "/x.md", "content": "in A"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{memory}");
    assert_eq!(memory["memory_store_id"], a);
    server.stop().await;
}

/// A body that is not JSON is refused by the operation itself, after the caller's access is
/// settled, with the invalid-request error of the operation's product (memory stores here,
/// agent memories for the settings route of the same router).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_json_is_the_products_invalid_request() {
    let server = Server::start().await;
    for (path, method, token, expected) in [
        ("/v1/memory_stores", "POST", OWNER, "MEMORY_INVALID_REQUEST"),
        (
            "/api/w/ws/ask-history/settings",
            "PUT",
            OWNER,
            "AGENT_MEMORY_INVALID_REQUEST",
        ),
    ] {
        let response = server
            .client
            .request(
                Method::from_bytes(method.as_bytes()).unwrap(),
                server.url(path),
            )
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body("{\"name\": ")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{path}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(code(&answer), expected, "{path}");
        assert_eq!(
            answer["error"]["message"], "the request body must be a JSON object",
            "{path}"
        );
    }
    // Without a role that may create a store, the role is the first answer, not the body.
    let response = server
        .client
        .post(server.url("/v1/memory_stores"))
        .bearer_auth(VIEWER)
        .body("not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    server.stop().await;
}

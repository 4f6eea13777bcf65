//! `/openapi.json`: every route documented, every documented route served, and (with Python's
//! `openapi-spec-validator`) a valid OpenAPI 3.1 document.

use std::collections::BTreeSet;

use agent_memory_http::{ROUTES, openapi};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::{Server, code};

fn documented(document: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in [
            "get", "post", "put", "delete", "patch", "head", "options", "trace",
        ] {
            if item.get(method).is_some() {
                out.insert((method.to_owned(), path.clone()));
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_lists_every_route_and_nothing_else() {
    let server = Server::start().await;
    let response = server
        .client
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let document: Value = response.json().await.unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    let routed: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|r| (r.method.name().to_owned(), r.path.to_owned()))
        .collect();
    assert_eq!(documented(&document), routed);
    for route in ROUTES {
        let op = &document["paths"][route.path][route.method.name()];
        assert_eq!(op["operationId"], route.operation.name(), "{}", route.path);
        assert!(op["responses"]["200"]["content"]["application/json"]["schema"].is_object());
        assert!(op["responses"]["401"].is_object(), "{}", route.path);
        assert_eq!(op["security"][0]["bearer"], Value::Array(vec![]));
        let body = &op["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(body.is_object(), route.body_limit > 0, "{}", route.path);
    }
    // Every reference resolves inside the document.
    let text = document.to_string();
    for reference in text.split("\"$ref\":\"").skip(1) {
        let target = reference.split('"').next().unwrap();
        let name = target.strip_prefix("#/components/schemas/").unwrap();
        assert!(
            document["components"]["schemas"].get(name).is_some(),
            "{target} does not resolve"
        );
    }
    // The served document is the one the code builds.
    assert_eq!(document, serde_json::to_value(openapi::document()).unwrap());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_route_is_served() {
    let server = Server::start().await;
    let document = serde_json::to_value(openapi::document()).unwrap();
    for (method, path) in documented(&document) {
        let concrete: String = path
            .split('/')
            .map(|s| if s.starts_with('{') { "x1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let (status, body) = server.call(method.clone(), &concrete, None, None).await;
        // Served: the route authenticates before anything else.
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}: {body}");
        // And a method no route documents there is not served.
        let (status, body) = server.call(Method::PATCH, &concrete, None, None).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "PATCH {path}");
        assert_eq!(code(&body), agent_memory_http::METHOD_NOT_ALLOWED);
    }
    server.stop().await;
}

#[test]
#[ignore = "needs Python with openapi-spec-validator (AGENT_MEMORY_OPENAPI_PYTHON=VENV/bin/python)"]
fn the_document_passes_openapi_spec_validator() {
    let python = std::env::var("AGENT_MEMORY_OPENAPI_PYTHON")
        .expect("AGENT_MEMORY_OPENAPI_PYTHON names a Python with openapi-spec-validator");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, openapi::document().to_pretty_json().unwrap()).unwrap();
    let output = std::process::Command::new(python)
        .args(["-m", "openapi_spec_validator", "--schema", "3.1"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

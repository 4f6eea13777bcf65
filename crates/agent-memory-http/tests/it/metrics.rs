//! `/metrics`: served only when the host hands the router a rendering, and only to the callers
//! the authenticator lets scrape (with `StaticTokens`, an owner's token).

use std::sync::Arc;

use agent_memory_http::{METRICS_PATH, MetricsRender, PROMETHEUS_TEXT};
use reqwest::StatusCode;

use crate::{AGENT, API_KEY, OTHER_OWNER, OWNER, Server, VIEWER, code, tokens};

const SCRAPE: &str = "# TYPE up counter\nup_total 1\n";

async fn get(server: &Server, token: Option<&str>) -> reqwest::Response {
    let mut request = server.client.get(server.url(METRICS_PATH));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn metrics_answer_an_owner_in_prometheus_text_and_everyone_else_401() {
    let render: MetricsRender = Arc::new(|| SCRAPE.to_owned());
    let server = Server::start_configured(tokens(), |api| api.with_metrics(render)).await;

    let answer = get(&server, Some(OWNER)).await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], PROMETHEUS_TEXT);
    assert!(PROMETHEUS_TEXT.starts_with("text/plain; version=0.0.4"));
    assert_eq!(answer.text().await.unwrap(), SCRAPE);
    // An owner of another workspace owns a workspace too: the scrape is the process's.
    assert_eq!(
        get(&server, Some(OTHER_OWNER)).await.status(),
        StatusCode::OK
    );

    for token in [
        None,
        Some(AGENT),
        Some(VIEWER),
        Some(API_KEY),
        Some("nonsense"),
    ] {
        let answer = get(&server, token).await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(answer.headers()["www-authenticate"], "Bearer");
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(code(&body), "UNAUTHENTICATED");
        assert!(!body.to_string().contains("up_total"));
    }
    server.stop().await;
}

#[tokio::test]
async fn without_a_rendering_there_is_no_metrics_route() {
    let server = Server::start().await;
    let (status, body) = server.get(METRICS_PATH, OWNER).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(code(&body), "ROUTE_NOT_FOUND");
    server.stop().await;
}

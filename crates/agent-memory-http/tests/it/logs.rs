//! The router's logs name the route template, the operation and the status — never a path
//! parameter, a query string, a header or a body (the facade's own events are checked in its
//! crate). Events of this workspace's crates are captured from every thread the server uses.

use std::fmt::Debug;
use std::sync::{Arc, Mutex, OnceLock};

use reqwest::Method;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::{AGENT, OWNER, Server};

struct Capture(Arc<Mutex<String>>);

struct Fields<'a>(&'a Mutex<String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        let mut text = self.0.lock().unwrap();
        text.push_str(&format!("{}={value:?};", field.name()));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("agent_memory")
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        attributes.record(&mut Fields(&self.0));
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        values.record(&mut Fields(&self.0));
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        event.record(&mut Fields(&self.0));
        self.0.lock().unwrap().push('\n');
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// The process-wide capture (a global subscriber can be set once per test binary).
fn captured() -> Arc<Mutex<String>> {
    static TEXT: OnceLock<Arc<Mutex<String>>> = OnceLock::new();
    TEXT.get_or_init(|| {
        let text = Arc::new(Mutex::new(String::new()));
        tracing::subscriber::set_global_default(Capture(text.clone()))
            .expect("no other test sets a global subscriber");
        text
    })
    .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_carry_routes_and_statuses_but_no_content() {
    let text = captured();
    let server = Server::start().await;
    server.enable().await;
    let (status, _) = server
        .post(
            "/api/agent/v1/memories/remember",
            AGENT,
            json!({"namespace": "ns-quokka-secret", "key": "key-wombat-secret",
                   "text": "The numbat password is hunter2-secret"}),
        )
        .await;
    assert!(status.is_success());
    let (_, _) = server
        .post(
            "/api/agent/v1/memories/recall",
            AGENT,
            json!({"query": "numbat recall-query-secret"}),
        )
        .await;
    let (_, store) = server
        .post(
            "/v1/memory_stores",
            OWNER,
            json!({"name": "store-name-secret"}),
        )
        .await;
    let sid = store["id"].as_str().unwrap().to_owned();
    let (_, _) = server
        .post(
            &format!("/v1/memory_stores/{sid}/memories"),
            OWNER,
            json!({"path": "/path-secret.md", "content": "content-secret"}),
        )
        .await;
    let (_, _) = server
        .call(
            Method::GET,
            &format!("/v1/memory_stores/{sid}/memories?path_prefix=/prefix-secret"),
            Some(OWNER),
            None,
        )
        .await;
    // A failure too: the refused value is not echoed either.
    let (_, _) = server
        .post(
            "/api/agent/v1/memories/remember",
            AGENT,
            json!({"namespace": "ns", "key": "dana.levi@example.com", "text": "x"}),
        )
        .await;
    server.stop().await;

    let text = text.lock().unwrap().clone();
    assert!(
        text.contains("route=\"/v1/memory_stores/{memory_store_id}/memories\""),
        "{text}"
    );
    assert!(text.contains("status=200"), "{text}");
    assert!(text.contains("status=400"), "{text}");
    for secret in [
        "quokka",
        "wombat",
        "hunter2",
        "numbat",
        "recall-query",
        "store-name",
        "path-secret",
        "content-secret",
        "prefix-secret",
        "dana.levi",
        AGENT,
        OWNER,
    ] {
        assert!(!text.contains(secret), "the logs contain {secret:?}");
    }
}

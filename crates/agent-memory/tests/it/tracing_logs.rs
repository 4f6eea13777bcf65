//! Traces name operations, ids, counts and codes — never memory text, queries, namespaces or keys.

use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::{Fixture, agent, owner, req};

/// Collects every span and event field as `name=value;` text.
pub(crate) struct Capture(pub(crate) Arc<Mutex<String>>);

struct Fields<'a>(&'a Mutex<String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        let mut text = self.0.lock().unwrap();
        text.push_str(&format!("{}={value:?};", field.name()));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
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

#[test]
fn traces_carry_ids_counts_and_codes_but_no_content() {
    let text = Arc::new(Mutex::new(String::new()));
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    tracing::subscriber::with_default(Capture(text.clone()), || {
        let stored = fx
            .service
            .remember(
                &alice,
                &req(json!({"namespace": "secretns", "key": "secretkey", "text": "codeword marmalade"})),
            )
            .unwrap();
        fx.service
            .recall(
                &alice,
                &req(json!({"query": "what is the marmalade codeword"})),
            )
            .unwrap();
        fx.service
            .list(&alice, &req(json!({"namespace": "secretns"})))
            .unwrap();
        fx.service
            .remember(
                &alice,
                &req(json!({"namespace": "secretns", "text": "call 050-123-4567"})),
            )
            .unwrap();
        fx.service
            .remember(
                &alice,
                &req(json!({"namespace": "dana@example.com", "text": "marmalade"})),
            )
            .unwrap_err();
        fx.service
            .forget(&alice, &req(json!({"memoryId": stored.memory.id.as_str()})))
            .unwrap();
        fx.service.owner_delete_all(&owner()).unwrap();
    });
    let log = text.lock().unwrap().clone();
    for expected in [
        "op=\"remember\"",
        "op=\"recall\"",
        "op=\"list\"",
        "op=\"forget\"",
        "AGENT_MEMORY_PERSONAL_DATA",
        "OwnerDeleteAll",
    ] {
        assert!(
            log.contains(expected),
            "the trace records {expected}:\n{log}"
        );
    }
    assert!(
        log.contains("credential=\"cred_a\""),
        "spans name the caller's ids:\n{log}"
    );
    for secret in [
        "marmalade",
        "codeword",
        "secretns",
        "secretkey",
        "050",
        "4567",
        "dana",
        "example.com",
    ] {
        assert!(!log.contains(secret), "the trace leaks {secret}:\n{log}");
    }
}

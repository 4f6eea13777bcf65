//! Traces name operations, ids, counts and codes — never memory text, queries, namespaces or keys
//! — and every operation runs in one span, `agent_memory.operation`, with its names, outcome,
//! counts and latency.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use agent_memory::AgentCaller;
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
        if field.name() == LATENCY {
            // A clock reading: its digits may be any, so the leak checks do not read it.
            text.push_str(&format!("{LATENCY}=<measured>;"));
        } else {
            text.push_str(&format!("{}={value:?};", field.name()));
        }
    }
}

/// The span field that holds an operation's measured latency.
const LATENCY: &str = "agent_memory.latency_ms";

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

/// One span as a subscriber saw it: its name and every field recorded on it, at its opening or
/// later (string values as they are, others in their `Debug` form).
#[derive(Debug, Clone, Default)]
pub(crate) struct SeenSpan {
    pub(crate) name: &'static str,
    pub(crate) fields: BTreeMap<String, String>,
}

impl SeenSpan {
    /// The value of `field`, when it was recorded.
    pub(crate) fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }
}

/// Keeps every span apart (its own id, its name, its fields), and every event's fields as one
/// line, for tests that check a span's fields one by one.
#[derive(Clone, Default)]
pub(crate) struct SpanCapture {
    spans: Arc<Mutex<Vec<SeenSpan>>>,
    events: Arc<Mutex<Vec<String>>>,
}

impl SpanCapture {
    /// The spans named `name`, in the order they opened.
    pub(crate) fn spans(&self, name: &str) -> Vec<SeenSpan> {
        let spans = self.spans.lock().unwrap();
        spans.iter().filter(|s| s.name == name).cloned().collect()
    }

    /// Every span's name and fields and every event's fields, as one text.
    pub(crate) fn everything(&self) -> String {
        let mut text = String::new();
        for span in self.spans.lock().unwrap().iter() {
            // The latency is a clock reading whose digits may be any ("0.005004" holds "050"):
            // its value is left out, so that a leak check reads what could carry content.
            let mut fields = span.fields.clone();
            if let Some(latency) = fields.get_mut(LATENCY) {
                *latency = "<measured>".to_owned();
            }
            text.push_str(&format!("{} {fields:?}\n", span.name));
        }
        for event in self.events.lock().unwrap().iter() {
            text.push_str(event);
            text.push('\n');
        }
        text
    }
}

struct SpanFields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for SpanFields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for SpanCapture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let mut span = SeenSpan {
            name: attributes.metadata().name(),
            fields: BTreeMap::new(),
        };
        attributes.record(&mut SpanFields(&mut span.fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(span);
        Id::from_u64(spans.len() as u64)
    }

    fn record(&self, id: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        let span = &mut spans[id.into_u64() as usize - 1];
        values.record(&mut SpanFields(&mut span.fields));
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut SpanFields(&mut fields));
        self.events.lock().unwrap().push(format!("{fields:?}"));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

#[test]
fn every_operation_runs_in_one_span_with_its_names_outcome_counts_and_latency() {
    let capture = SpanCapture::default();
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    tracing::subscriber::with_default(capture.clone(), || {
        fx.service
            .remember(
                &alice,
                &req(json!({"namespace": "secretns", "key": "secretkey", "text": "codeword marmalade, call 050-123-4567"})),
            )
            .unwrap();
        fx.service
            .recall(&alice, &req(json!({"query": "the marmalade codeword"})))
            .unwrap();
        fx.service
            .remember(
                &alice,
                &req(json!({"namespace": "dana@example.com", "text": "marmalade"})),
            )
            .unwrap_err();
        fx.service
            .remember(
                &AgentCaller::Unresolved,
                &req(json!({"namespace": "secretns", "text": "marmalade"})),
            )
            .unwrap_err();
        fx.service.owner_delete_all(&owner()).unwrap();
    });
    let spans = capture.spans("agent_memory.operation");
    assert_eq!(spans.len(), 5, "one span per call: {spans:#?}");
    let [remember, recall, refused, unresolved, delete_all] = &spans[..] else {
        unreachable!()
    };

    assert_eq!(remember.get("gen_ai.operation.name"), Some("update_memory"));
    assert_eq!(remember.get("agent_memory.operation"), Some("remember"));
    assert_eq!(remember.get("agent_memory.caller"), Some("agent"));
    assert_eq!(remember.get("agent_memory.workspace"), Some("ws"));
    assert_eq!(remember.get("agent_memory.outcome"), Some("ok"));
    assert_eq!(remember.get("agent_memory.masked"), Some("1"));
    assert_eq!(remember.get("agent_memory.superseded"), Some("false"));
    assert_eq!(remember.get("error.type"), None);

    assert_eq!(recall.get("gen_ai.operation.name"), Some("search_memory"));
    assert_eq!(recall.get("agent_memory.operation"), Some("recall"));
    assert_eq!(recall.get("agent_memory.outcome"), Some("ok"));
    assert_eq!(recall.get("agent_memory.returned"), Some("1"));
    assert_eq!(recall.get("agent_memory.considered"), Some("1"));
    assert_eq!(recall.get("agent_memory.hidden"), Some("0"));
    assert_eq!(recall.get("agent_memory.semantic_skipped"), Some("false"));

    assert_eq!(
        refused.get("agent_memory.outcome"),
        Some("AGENT_MEMORY_PERSONAL_DATA")
    );
    assert_eq!(
        refused.get("error.type"),
        Some("AGENT_MEMORY_PERSONAL_DATA")
    );
    assert_eq!(
        refused.get("agent_memory.masked"),
        None,
        "a refusal has no counts"
    );

    assert_eq!(unresolved.get("agent_memory.workspace"), None);
    assert_eq!(
        unresolved.get("agent_memory.outcome"),
        Some("AGENT_CREDENTIAL_INVALID")
    );

    assert_eq!(
        delete_all.get("gen_ai.operation.name"),
        Some("delete_memory")
    );
    assert_eq!(
        delete_all.get("agent_memory.operation"),
        Some("agentMemories.deleteAll")
    );
    assert_eq!(delete_all.get("agent_memory.caller"), Some("member"));
    assert_eq!(delete_all.get("agent_memory.workspace"), Some("ws"));
    assert_eq!(delete_all.get("agent_memory.deleted"), Some("1"));

    for span in &spans {
        let latency: f64 = span
            .get("agent_memory.latency_ms")
            .expect("every span records its latency")
            .parse()
            .unwrap();
        assert!((0.0..60_000.0).contains(&latency), "{span:?}");
        assert!(span.get("agent_memory.outcome").is_some(), "{span:?}");
    }
    let everything = capture.everything();
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
        assert!(
            !everything.contains(secret),
            "the spans or events leak {secret}:\n{everything}"
        );
    }
}

#[test]
fn the_settings_operations_have_a_span_without_a_gen_ai_name() {
    let capture = SpanCapture::default();
    let fx = Fixture::new();
    tracing::subscriber::with_default(capture.clone(), || {
        fx.service.settings_get(&owner()).unwrap();
    });
    let spans = capture.spans("agent_memory.operation");
    assert_eq!(spans.len(), 1);
    assert_eq!(spans[0].get("agent_memory.operation"), Some("settings.get"));
    assert_eq!(spans[0].get("gen_ai.operation.name"), None);
    assert_eq!(spans[0].get("agent_memory.outcome"), Some("ok"));
}

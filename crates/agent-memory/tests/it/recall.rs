//! Recall through the facade: vectors of another model never meet the query's, and a stuck
//! embedder costs at most the semantic budget.

use std::sync::Arc;
use std::time::{Duration, Instant};

use agent_memory::{EmbedError, Embedder, HashingEmbedder, ManualClock, MemoryService};
use citation_verify::InMemoryPassageSource;
use memory_core::{SeededIdGenerator, Timestamp};
use serde_json::json;
use store_kv::InMemoryBackend;

use crate::{agent, owner, req};

/// The hashing embedder's vectors under another model id.
struct OtherModel;

impl Embedder for OtherModel {
    fn model_id(&self) -> &str {
        "other-model-v1"
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        HashingEmbedder::new().embed(text)
    }
}

/// Blocks far longer than the budget.
struct Stuck;

impl Embedder for Stuck {
    fn model_id(&self) -> &str {
        HashingEmbedder::MODEL_ID
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        std::thread::sleep(Duration::from_secs(5));
        HashingEmbedder::new().embed(text)
    }
}

/// A service over `backend`; `seed` keeps ids of two services over one backend apart.
fn service(backend: Arc<InMemoryBackend>, embedder: Arc<dyn Embedder>, seed: u64) -> MemoryService {
    MemoryService::builder(backend, Arc::new(InMemoryPassageSource::new()))
        .clock(Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        )))
        .ids(Arc::new(SeededIdGenerator::new(seed)))
        .embedder(embedder)
        .build()
        .unwrap()
}

#[test]
fn memories_embedded_by_another_model_sit_out_the_semantic_ranker() {
    let backend = Arc::new(InMemoryBackend::new());
    let hashing = service(backend.clone(), Arc::new(HashingEmbedder::new()), 1);
    hashing
        .settings_put(&owner(), &req(json!({"agentMemoriesEnabled": true})))
        .unwrap();
    let alice = agent("alice", "cred_a");
    let old = hashing
        .remember(
            &alice,
            &req(json!({"namespace": "n", "text": "prefers bullet points"})),
        )
        .unwrap();

    // The host switches models: the old memory's vector is of the old model.
    let other = service(backend, Arc::new(OtherModel), 2);
    let new = other
        .remember(
            &alice,
            &req(json!({"namespace": "n", "text": "prefers bullet lists"})),
        )
        .unwrap();
    let found = other
        .recall(&alice, &req(json!({"query": "bullet"})))
        .unwrap();
    assert!(!found.semantic_skipped);
    let ranks = |id: &memory_core::AgentMemoryId| {
        found
            .memories
            .iter()
            .find(|m| &m.view.id == id)
            .map(|m| m.ranks)
            .expect("both are recalled by BM25")
    };
    assert!(
        ranks(&new.memory.id).semantic.is_some(),
        "same model: compared"
    );
    assert_eq!(
        ranks(&old.memory.id).semantic,
        None,
        "other model: never compared"
    );
    assert!(ranks(&old.memory.id).bm25.is_some());
}

#[test]
fn a_stuck_embedder_costs_at_most_the_budget_and_recall_still_ranks() {
    let backend = Arc::new(InMemoryBackend::new());
    let fine = service(backend.clone(), Arc::new(HashingEmbedder::new()), 1);
    fine.settings_put(&owner(), &req(json!({"agentMemoriesEnabled": true})))
        .unwrap();
    let alice = agent("alice", "cred_a");
    fine.remember(
        &alice,
        &req(json!({"namespace": "n", "text": "the quarterly report goes out on Mondays"})),
    )
    .unwrap();

    let stuck = service(backend, Arc::new(Stuck), 2);
    let started = Instant::now();
    let found = stuck
        .recall(&alice, &req(json!({"query": "quarterly report"})))
        .unwrap();
    let first = started.elapsed();
    assert!(found.semantic_skipped);
    assert_eq!(found.memories.len(), 1, "BM25 still ranks");
    assert_eq!(found.memories[0].ranks.semantic, None);
    // A behaviour bound, not a performance target: far below the embedder's 5 s block.
    assert!(first < Duration::from_secs(3), "waited {first:?}");
}

/// Fails every call.
struct Failing;

impl Embedder for Failing {
    fn model_id(&self) -> &str {
        "failing-model"
    }

    fn embed(&self, _: &str) -> Result<Vec<f32>, EmbedError> {
        Err(EmbedError::Failed("model unavailable".into()))
    }
}

#[test]
fn reembed_gives_every_version_of_the_member_the_current_model() {
    let backend = Arc::new(InMemoryBackend::new());
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let with = |embedder: Arc<dyn Embedder>, seed: u64| {
        MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
            .clock(clock.clone())
            .ids(Arc::new(SeededIdGenerator::new(seed)))
            .embedder(embedder)
            .build()
            .unwrap()
    };
    let hashing = with(Arc::new(HashingEmbedder::new()), 1);
    hashing
        .settings_put(&owner(), &req(json!({"agentMemoriesEnabled": true})))
        .unwrap();
    let alice = agent("alice", "cred_a");
    let bob = agent("bob", "cred_b");
    let remember = |service: &MemoryService, who: &agent_memory::AgentCaller, body| {
        clock.advance_seconds(60);
        service.remember(who, &body).unwrap()
    };
    let first = remember(
        &hashing,
        &alice,
        req(json!({"namespace": "prefs", "key": "tone", "text": "prefers bullet points"})),
    );
    let first_at = agent_memory::Clock::now(clock.as_ref());
    remember(
        &hashing,
        &alice,
        req(
            json!({"namespace": "prefs", "key": "tone", "text": "prefers bullet lists, short ones"}),
        ),
    );
    remember(
        &hashing,
        &alice,
        req(json!({"namespace": "n", "text": "the deadline moved to March"})),
    );
    remember(
        &hashing,
        &bob,
        req(json!({"namespace": "n", "text": "bob's bullet points"})),
    );

    let other = with(Arc::new(OtherModel), 2);
    remember(
        &other,
        &alice,
        req(json!({"namespace": "n", "text": "bullet points in reports"})),
    );
    let alice_member = crate::member("alice");
    let bob_member = crate::member("bob");
    // Three versions of the old model, the superseded one included; the new one is current.
    assert_eq!(other.stale_embeddings(&alice_member).unwrap(), 3);

    // A model that fails leaves every version as it was.
    let failing = with(Arc::new(Failing), 3);
    let failed = failing.reembed(&alice_member, &mut |_, _| {}).unwrap();
    assert_eq!(
        (failed.examined, failed.reembedded, failed.failed),
        (4, 0, 4)
    );
    assert_eq!(other.stale_embeddings(&alice_member).unwrap(), 3);

    let mut calls = Vec::new();
    let done = other
        .reembed(&alice_member, &mut |done, total| calls.push((done, total)))
        .unwrap();
    assert_eq!(done.model, "other-model-v1");
    assert_eq!((done.examined, done.reembedded, done.failed), (4, 3, 0));
    assert_eq!(calls, vec![(0, 3), (1, 3), (2, 3), (3, 3)]);
    assert_eq!(other.stale_embeddings(&alice_member).unwrap(), 0);
    assert_eq!(
        other
            .reembed(&alice_member, &mut |_, _| {})
            .unwrap()
            .reembedded,
        0,
        "nothing left to do"
    );
    // Bob's memory is his own business.
    assert_eq!(other.stale_embeddings(&bob_member).unwrap(), 1);

    // Every version now takes part in the semantic ranker, the superseded one at its asOf.
    let found = other
        .recall(&alice, &req(json!({"query": "bullet"})))
        .unwrap();
    assert!(found.memories.iter().all(|m| m.ranks.semantic.is_some()));
    let past = other
        .recall(
            &alice,
            &req(json!({"query": "bullet points", "asOf": first_at.to_string()})),
        )
        .unwrap();
    let old = past
        .memories
        .iter()
        .find(|m| m.view.id == first.memory.id)
        .expect("the first version is valid then");
    assert!(old.ranks.semantic.is_some());
}

/// Identical masked texts of one namespace answer once, as the newest of them, saying how many
/// others it stands for; texts that differ (or sit in another namespace) stay apart; and the
/// collapse happens before the cut, so `limit` counts distinct texts. Checked on a generated
/// history of repeated texts in two namespaces, against a count made here.
#[test]
fn identical_texts_collapse_to_the_newest_before_the_cut() {
    let backend = Arc::new(InMemoryBackend::new());
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let build = |collapse: bool| {
        MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
            .clock(clock.clone())
            .ids(Arc::new(SeededIdGenerator::new(u64::from(collapse))))
            .collapse_duplicates(collapse)
            .build()
            .unwrap()
    };
    let service = build(true);
    service
        .settings_put(&owner(), &req(json!({"agentMemoriesEnabled": true})))
        .unwrap();
    let alice = agent("alice", "cred_a");
    // Five coffee texts (two differ only in case: the masker keeps case, so they differ) in
    // two namespaces, in a shuffled order with repeats.
    let texts = [
        "coffee at ten",
        "Coffee at ten",
        "coffee with oat milk",
        "coffee beans from Kenya",
        "decaf coffee after lunch",
    ];
    let mut state = 17u64;
    let mut written: Vec<(String, String, memory_core::AgentMemoryId, Timestamp)> = Vec::new();
    for _ in 0..60 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let text = texts[((state >> 33) % texts.len() as u64) as usize];
        let namespace = if (state >> 40).is_multiple_of(3) {
            "b"
        } else {
            "a"
        };
        let stored = service
            .remember(&alice, &req(json!({"namespace": namespace, "text": text})))
            .unwrap();
        written.push((
            namespace.to_owned(),
            text.to_owned(),
            stored.memory.id.clone(),
            stored.memory.created_at,
        ));
        clock.advance_seconds(31);
    }
    let found = service
        .recall(&alice, &req(json!({"query": "coffee", "limit": 50})))
        .unwrap();
    let mut groups: std::collections::BTreeMap<(String, String), Vec<_>> = Default::default();
    for (ns, text, id, at) in &written {
        groups
            .entry((ns.clone(), text.clone()))
            .or_default()
            .push((*at, id.clone()));
    }
    assert_eq!(
        found.memories.len(),
        groups.len(),
        "one answer per distinct text"
    );
    for m in &found.memories {
        let group = &groups[&(m.view.namespace.clone(), m.view.text.clone())];
        let newest = group.iter().max().unwrap();
        assert_eq!(m.view.id, newest.1, "the newest of its group answers");
        assert_eq!(m.duplicates as usize, group.len() - 1);
        let json = serde_json::to_value(m).unwrap();
        if group.len() == 1 {
            assert!(json.get("duplicates").is_none());
        } else {
            assert_eq!(json["duplicates"], group.len() - 1);
        }
    }
    // The cut counts distinct texts.
    let two = service
        .recall(&alice, &req(json!({"query": "coffee", "limit": 2})))
        .unwrap();
    assert_eq!(two.memories.len(), 2);
    assert_ne!(
        (&two.memories[0].view.namespace, &two.memories[0].view.text),
        (&two.memories[1].view.namespace, &two.memories[1].view.text)
    );
    // Without the collapse every version answers.
    let every = build(false)
        .recall(&alice, &req(json!({"query": "coffee", "limit": 50})))
        .unwrap();
    assert_eq!(every.memories.len(), 50);
    assert!(every.memories.iter().all(|m| m.duplicates == 0));
}

/// The builder's error names what failed and leaves the embedding error to its source, so that
/// a printer of the whole chain prints each message once.
#[test]
fn a_build_error_prints_its_cause_once() {
    use std::error::Error as _;
    let err = agent_memory::BuildError::from(EmbedError::Spawn("no threads left".into()));
    assert_eq!(err.to_string(), "the embedding worker pool could not start");
    let cause = err.source().expect("the embedding error is the source");
    assert_eq!(
        cause.to_string(),
        "could not start an embedding worker: no threads left"
    );
}

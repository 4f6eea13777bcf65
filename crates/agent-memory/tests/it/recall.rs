//! Recall through the facade: vectors of another model never meet the query's, and a stuck
//! embedder costs at most the semantic budget.

use std::sync::Arc;
use std::time::{Duration, Instant};

use agent_memory::{EmbedError, Embedder, HashingEmbedder, ManualClock, MemoryService};
use citation_verify::InMemoryPassageSource;
use memory_core::{SeededIdGenerator, Timestamp};
use serde_json::json;
use store_trait::InMemoryBackend;

use crate::{agent, owner};

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
        .settings_put(&owner(), &json!({"agentMemoriesEnabled": true}))
        .unwrap();
    let alice = agent("alice", "cred_a");
    let old = hashing
        .remember(
            &alice,
            &json!({"namespace": "n", "text": "prefers bullet points"}),
        )
        .unwrap();

    // The host switches models: the old memory's vector is of the old model.
    let other = service(backend, Arc::new(OtherModel), 2);
    let new = other
        .remember(
            &alice,
            &json!({"namespace": "n", "text": "prefers bullet lists"}),
        )
        .unwrap();
    let found = other.recall(&alice, &json!({"query": "bullet"})).unwrap();
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
    fine.settings_put(&owner(), &json!({"agentMemoriesEnabled": true}))
        .unwrap();
    let alice = agent("alice", "cred_a");
    fine.remember(
        &alice,
        &json!({"namespace": "n", "text": "the quarterly report goes out on Mondays"}),
    )
    .unwrap();

    let stuck = service(backend, Arc::new(Stuck), 2);
    let started = Instant::now();
    let found = stuck
        .recall(&alice, &json!({"query": "quarterly report"}))
        .unwrap();
    let first = started.elapsed();
    assert!(found.semantic_skipped);
    assert_eq!(found.memories.len(), 1, "BM25 still ranks");
    assert_eq!(found.memories[0].ranks.semantic, None);
    // A behaviour bound, not a performance target: far below the embedder's 5 s block.
    assert!(first < Duration::from_secs(3), "waited {first:?}");
}

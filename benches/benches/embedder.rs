//! P6 with a real embedding model: the query embedding alone, and facade recall over 5,000
//! memories (300 candidates with two citations each, the query embedding included), for the
//! hashing embedder and for all-MiniLM-L6-v2 run by `embed-candle`, in one group.
//!
//! The model comes from `AGENT_MEMORY_TEST_MODEL_DIR` (what `.ci/run` fetches); without it
//! only the hashing embedder is measured, and a message says so. Built with the benches
//! crate's `candle` feature: `cargo bench -p benches --features candle --bench embedder`.
//!
//! The world is P6's (`recall.rs`), loaded through the backend with each memory's ranking data
//! computed as remember computes it; the model's stored vectors are computed in batches of 32
//! (equal to one-by-one vectors up to float rounding), since loading 5,000 one at a time
//! would dominate the run.
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented public items"
)]

use std::hint::black_box;
use std::sync::Arc;

use agent_memory::{
    AgentCaller, AgentCredential, Embedder, HashingEmbedder, ManualClock, MemberCaller,
    MemoryService,
};
use citation_verify::{Entity, InMemoryPassageSource, Passage};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use embed_candle::CandleEmbedder;
use fusion_rank::TermStats;
use memory_core::{
    AgentMemory, AgentMemoryId, Citation, ContextBinding, CredentialId, MemberId, MemoryText,
    RankingData, Role, Scope, SeededIdGenerator, StoredEmbedding, Timestamp, WorkspaceId,
};
use serde_json::json;
use store_trait::{Backend, InMemoryBackend, Owner, RememberWrite};

const MEMORIES: usize = 5_000;
const CITED: usize = 300;
/// A typical question to an agent's memory, for the query-embedding latency.
const QUESTION: &str = "how should I format my answers?";

struct World {
    service: MemoryService,
    caller: AgentCaller,
    query: serde_json::Value,
}

/// The model, when `AGENT_MEMORY_TEST_MODEL_DIR` names a loadable one.
fn model() -> Option<Arc<CandleEmbedder>> {
    let Some(dir) = std::env::var_os(embed_candle::TEST_MODEL_DIR_VAR) else {
        eprintln!(
            "{} is not set: measuring the hashing embedder only",
            embed_candle::TEST_MODEL_DIR_VAR
        );
        return None;
    };
    match CandleEmbedder::load(&dir) {
        Ok(model) => Some(Arc::new(model)),
        Err(e) => {
            eprintln!("{e}: measuring the hashing embedder only");
            None
        }
    }
}

/// The stored, unit-length vectors of `texts` under `embedder`.
fn vectors(
    embedder: &dyn Embedder,
    model: Option<&CandleEmbedder>,
    texts: &[&str],
) -> Vec<Vec<f32>> {
    match model {
        Some(model) => texts
            .chunks(32)
            .flat_map(|chunk| model.embed_batch(chunk).expect("the model embeds"))
            .collect(),
        None => texts
            .iter()
            .map(|t| embedder.embed(t).expect("the embedder embeds"))
            .collect(),
    }
}

fn store(backend: &dyn Backend, record: AgentMemory) {
    let owner = Owner::new(record.workspace.clone(), record.member.clone());
    let credential = record.credential.clone();
    let start = record.created_at.minus_seconds(3600);
    let cutoff = record.created_at.minus_days(365);
    backend
        .remember(&owner, &credential, None, start, cutoff, &mut |_| {
            Ok(RememberWrite {
                record: record.clone(),
                supersede_current: false,
            })
        })
        .expect("the backend stores the record");
}

/// P6's world, embedded with `embedder` (`model` is the same embedder when it is the model).
fn world(embedder: Arc<dyn Embedder>, model: Option<&CandleEmbedder>) -> World {
    let backend = Arc::new(InMemoryBackend::new());
    let start = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    let clock = Arc::new(ManualClock::new(start));
    let passages = Arc::new(InMemoryPassageSource::new());
    let ws = WorkspaceId::new("ws").unwrap();
    let alice = MemberId::new("alice").unwrap();
    let cred = CredentialId::new("cred_a").unwrap();
    let ids = SeededIdGenerator::new(1);
    let vocabulary = benches::vocabulary(0xBEEF, 2_000);
    let texts = benches::recall_texts(0xFACE, &vocabulary, MEMORIES, 40);
    for i in 0..CITED * 2 {
        let passage = Passage::new(
            format!("p{i}"),
            format!("d{}", i / 2),
            "c1",
            1,
            format!("passage body {i}"),
        )
        .with_entities(vec![Entity::new(
            format!("e{}", i % 50),
            format!("{} entity", vocabulary[i % 50]),
        )]);
        passages.put_passage(&ws, passage);
    }
    let masked: Vec<MemoryText> = texts.iter().map(|t| MemoryText::mask(t).0).collect();
    let refs: Vec<&str> = masked.iter().map(MemoryText::as_str).collect();
    let vectors = vectors(embedder.as_ref(), model, &refs);
    for (i, (text, vector)) in masked.into_iter().zip(vectors).enumerate() {
        let at = start.plus_seconds(i as i64);
        let (terms, length) = TermStats::from_text(text.as_str()).into_counts();
        let citations = if i >= MEMORIES - CITED {
            let j = i - (MEMORIES - CITED);
            (0..2)
                .map(|k| Citation {
                    passage_id: format!("p{}", 2 * j + k),
                    document_id: format!("d{j}"),
                    collection_id: "c1".into(),
                    document_version: 1,
                    sha256: memory_core::content_sha256(&format!("passage body {}", 2 * j + k)),
                })
                .collect()
        } else {
            Vec::new()
        };
        store(
            backend.as_ref(),
            AgentMemory {
                id: AgentMemoryId::generate(&ids, at).unwrap(),
                workspace: ws.clone(),
                member: alice.clone(),
                credential: cred.clone(),
                namespace: "notes".into(),
                key: None,
                ranking: RankingData {
                    terms,
                    length,
                    embedding: Some(StoredEmbedding {
                        model: embedder.model_id().to_owned(),
                        vector,
                    }),
                },
                text,
                collection_id: None,
                version: 1,
                citations,
                created_at: at,
                superseded_at: None,
            },
        );
    }
    clock.set(start.plus_seconds(MEMORIES as i64 + 60));
    let service = MemoryService::builder(backend, passages)
        .clock(clock)
        .embedder(embedder)
        .build()
        .unwrap();
    let owner = MemberCaller {
        workspace: ws.clone(),
        member: MemberId::new("olivia").unwrap(),
        role: Role::Owner,
    };
    service
        .settings_put(
            &owner,
            &json!({"agentMemoriesEnabled": true, "retentionDays": 365}),
        )
        .unwrap();
    let caller = AgentCaller::Resolved(AgentCredential {
        workspace: ws,
        workspace_retaining: true,
        member: alice,
        credential: cred,
        role: Some(Role::Editor),
        active: true,
        scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
        binding: ContextBinding::Unbound,
    });
    let query = json!({"query": format!("{} {} entity", benches::recall_query(&vocabulary), vocabulary[7]), "limit": 10});
    World {
        service,
        caller,
        query,
    }
}

fn p6_recall_with_embedders(c: &mut Criterion) {
    let model = model();
    let mut embedders: Vec<(&str, Arc<dyn Embedder>)> =
        vec![("hash-ngram-v1-d384", Arc::new(HashingEmbedder::new()))];
    if let Some(model) = &model {
        embedders.push(("all-MiniLM-L6-v2", model.clone()));
    }
    let mut group = c.benchmark_group("P6_recall_with_embedder");
    for (label, embedder) in &embedders {
        group.bench_with_input(
            BenchmarkId::new("query_embedding", label),
            embedder,
            |b, e| b.iter(|| e.embed(black_box(QUESTION)).unwrap()),
        );
    }
    for (label, embedder) in &embedders {
        let is_model = *label != "hash-ngram-v1-d384";
        let w = world(embedder.clone(), model.as_deref().filter(|_| is_model));
        let r = w.service.recall(&w.caller, &w.query).unwrap();
        assert_eq!(r.considered, 300);
        assert!(!r.semantic_skipped, "{label} answered within the budget");
        group.bench_with_input(BenchmarkId::new("facade_recall_5000", label), &w, |b, w| {
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, p6_recall_with_embedders);
criterion_main!(benches);

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

use agent_memory::{Embedder, HashingEmbedder};
use benches::world::World;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use embed_candle::CandleEmbedder;
use store_kv::InMemoryBackend;

/// A typical question to an agent's memory, for the query-embedding latency.
const QUESTION: &str = "how should I format my answers?";

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

/// P6's world, embedded with `embedder` (`model` is the same embedder when it is the model).
fn world(embedder: Arc<dyn Embedder>, model: Option<&CandleEmbedder>) -> World {
    let each = embedder.clone();
    benches::world::world(Arc::new(InMemoryBackend::new()), 0, embedder, &|texts| {
        vectors(each.as_ref(), model, texts)
    })
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

//! The labelled recall set (fusion-rank's `tests/data/recall-set.json`) ranked with the hashing
//! embedder and with all-MiniLM-L6-v2: MRR and nDCG@10 of the semantic ranker alone and of the
//! fusion, side by side. `cargo test -p govmem-embed-candle quality -- --nocapture` prints the table
//! that `docs/embed-candle.md` quotes.
//!
//! Each query has one expected text, so nDCG@10 is `1 / log2(1 + rank)` when the text is in
//! the first ten and 0 otherwise; MRR is `1 / rank` (0 when the ranking does not list it).

use fusion_rank::{
    Candidate, Embedder, HashingEmbedder, PreparedQuery, Ranker, Rankings, TermStats, fuse_rankings,
};
use serde_json::Value;

use crate::minilm;

const RECALL_SET: &str = include_str!("../../../fusion-rank/tests/data/recall-set.json");

/// A query: its text, the entity ids resolved from it, the index of its expected text.
type Query = (String, Vec<String>, usize);

struct Set {
    /// `(id, text, entity ids)`.
    texts: Vec<(String, String, Vec<String>)>,
    /// The named query sets.
    query_sets: Vec<(&'static str, Vec<Query>)>,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn load() -> Set {
    let set: Value = serde_json::from_str(RECALL_SET).unwrap();
    let text = |v: &Value, f: &str| v[f].as_str().unwrap().to_owned();
    let texts: Vec<_> = set["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (text(t, "id"), text(t, "text"), strings(&t["entities"])))
        .collect();
    let queries = |name: &str| {
        set[name]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| {
                let expected = text(q, "expected");
                let index = texts.iter().position(|t| t.0 == expected).unwrap();
                (text(q, "query"), strings(&q["entities"]), index)
            })
            .collect::<Vec<_>>()
    };
    let query_sets = vec![
        ("queries", queries("queries")),
        ("paraphrases", queries("paraphrases")),
    ];
    Set { texts, query_sets }
}

/// Rank (1-based) of `expected` in a ranking, if listed.
fn rank_of(list: impl IntoIterator<Item = usize>, expected: usize) -> Option<usize> {
    list.into_iter().position(|i| i == expected).map(|p| p + 1)
}

fn reciprocal(rank: Option<usize>) -> f64 {
    rank.map_or(0.0, |r| 1.0 / r as f64)
}

fn ndcg10(rank: Option<usize>) -> f64 {
    match rank {
        Some(r) if r <= 10 => 1.0 / ((r + 1) as f64).log2(),
        _ => 0.0,
    }
}

/// MRR and nDCG@10 of (semantic alone, fused) over one query set with one embedder.
#[derive(Debug, Clone, Copy, Default)]
struct Scores {
    semantic_mrr: f64,
    semantic_ndcg: f64,
    fused_mrr: f64,
    fused_ndcg: f64,
    /// BM25 and entity MRR (the same for every embedder), for the table's footer.
    bm25_mrr: f64,
    entity_mrr: f64,
}

fn score(set: &Set, queries: &[Query], embedder: &dyn Embedder) -> Scores {
    let stats: Vec<TermStats> = set
        .texts
        .iter()
        .map(|t| TermStats::from_text(&t.1))
        .collect();
    let vectors: Vec<Vec<f32>> = set
        .texts
        .iter()
        .map(|t| embedder.embed(&t.1).unwrap())
        .collect();
    let candidates: Vec<Candidate> = set
        .texts
        .iter()
        .enumerate()
        .map(|(i, (id, _, entities))| Candidate {
            recency: i as i64,
            id,
            terms: (&stats[i]).into(),
            embedding: Some(&vectors[i]),
            entities,
        })
        .collect();
    let mut s = Scores::default();
    for (query, entities, expected) in queries {
        let prepared = PreparedQuery::new(query)
            .with_embedding(embedder.embed(query).unwrap())
            .with_entities(entities.iter().cloned());
        let rankings = Rankings::compute(&prepared, &candidates);
        let fused = fuse_rankings(&candidates, &rankings, candidates.len());
        let semantic = rank_of(
            rankings[Ranker::Semantic].iter().map(|x| x.index),
            *expected,
        );
        let fused = rank_of(fused.iter().map(|f| f.index), *expected);
        s.semantic_mrr += reciprocal(semantic);
        s.semantic_ndcg += ndcg10(semantic);
        s.fused_mrr += reciprocal(fused);
        s.fused_ndcg += ndcg10(fused);
        s.bm25_mrr += reciprocal(rank_of(
            rankings[Ranker::Bm25].iter().map(|x| x.index),
            *expected,
        ));
        s.entity_mrr += reciprocal(rank_of(
            rankings[Ranker::Entity].iter().map(|x| x.index),
            *expected,
        ));
    }
    let n = queries.len() as f64;
    Scores {
        semantic_mrr: s.semantic_mrr / n,
        semantic_ndcg: s.semantic_ndcg / n,
        fused_mrr: s.fused_mrr / n,
        fused_ndcg: s.fused_ndcg / n,
        bm25_mrr: s.bm25_mrr / n,
        entity_mrr: s.entity_mrr / n,
    }
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn the_model_ranks_by_meaning_where_the_hashing_embedder_needs_shared_words() {
    let model = minilm("the recall-quality table");
    let set = load();
    let hashing = HashingEmbedder::new();
    println!(
        "\n| query set | ranker | {} MRR | nDCG@10 | {} MRR | nDCG@10 |",
        HashingEmbedder::MODEL_ID,
        model.model_id()
    );
    println!("|---|---|---:|---:|---:|---:|");
    let mut results = Vec::new();
    for (name, queries) in &set.query_sets {
        let h = score(&set, queries, &hashing);
        let m = score(&set, queries, model.as_ref());
        let label = format!("{name} ({})", queries.len());
        println!(
            "| {label} | semantic alone | {:.3} | {:.3} | {:.3} | {:.3} |",
            h.semantic_mrr, h.semantic_ndcg, m.semantic_mrr, m.semantic_ndcg
        );
        println!(
            "| {label} | fused (RRF) | {:.3} | {:.3} | {:.3} | {:.3} |",
            h.fused_mrr, h.fused_ndcg, m.fused_mrr, m.fused_ndcg
        );
        results.push((*name, h, m));
    }
    for (name, h, _) in &results {
        println!(
            "{name}: BM25 alone MRR {:.3}, entities alone MRR {:.3} (embedder-independent)",
            h.bm25_mrr, h.entity_mrr
        );
    }
    println!("{} texts", set.texts.len());

    // What a user of the model relies on: asked in other words, the model's semantic ranker
    // finds the text better than character n-grams do, and so does the fusion it feeds.
    let (_, h, m) = results
        .iter()
        .find(|(name, _, _)| *name == "paraphrases")
        .copied()
        .unwrap();
    assert!(m.semantic_mrr > h.semantic_mrr, "{m:?} vs {h:?}");
    assert!(m.fused_mrr > h.fused_mrr, "{m:?} vs {h:?}");
}

//! A small labelled recall set: fusing the three rankers must beat each of them alone.
//!
//! The texts, the entity ids attached to them (what an entity resolver would report) and the
//! queries with their one expected text were written by hand before measuring; they live in
//! `tests/data/recall-set.json`, which embed-candle's quality table reads too. Mean reciprocal
//! rank counts 1 / rank of the expected text, and 0 when a ranking does not list it.

use crate::{Doc, candidates};
use fusion_rank::{HashingEmbedder, PreparedQuery, Ranker, Rankings, Scored, fuse_rankings};
use serde_json::Value;

const RECALL_SET: &str = include_str!("../data/recall-set.json");

/// A text of the set: id, text, entity ids.
type Text = (String, String, Vec<String>);
/// A query of the set: query, entity ids resolved from it, the expected text's id.
type Query = (String, Vec<String>, String);

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn field(v: &Value, name: &str) -> String {
    v[name].as_str().unwrap_or_default().to_owned()
}

/// The set's texts and its original `queries` (the `paraphrases` are embed-candle's).
fn recall_set() -> (Vec<Text>, Vec<Query>) {
    let set: Value = serde_json::from_str(RECALL_SET).expect("the recall set is JSON");
    let texts = set["texts"].as_array().expect("texts");
    let queries = set["queries"].as_array().expect("queries");
    (
        texts
            .iter()
            .map(|t| (field(t, "id"), field(t, "text"), strings(&t["entities"])))
            .collect(),
        queries
            .iter()
            .map(|q| {
                (
                    field(q, "query"),
                    strings(&q["entities"]),
                    field(q, "expected"),
                )
            })
            .collect(),
    )
}

fn reciprocal_rank(list: impl IntoIterator<Item = usize>, expected: usize) -> f64 {
    list.into_iter()
        .position(|i| i == expected)
        .map_or(0.0, |p| 1.0 / (p as f64 + 1.0))
}

fn order(list: &[Scored]) -> Vec<usize> {
    list.iter().map(|s| s.index).collect()
}

#[test]
fn fusion_beats_every_single_ranker_on_mean_reciprocal_rank() {
    let (texts, queries) = recall_set();
    let docs: Vec<Doc> = texts
        .iter()
        .enumerate()
        .map(|(i, (id, text, entities))| {
            let entities: Vec<&str> = entities.iter().map(String::as_str).collect();
            Doc::new(id, i as i64, text, &entities)
        })
        .collect();
    let cands = candidates(&docs);
    let mut sums = [0.0f64; 4];
    println!(
        "{:<62} {:>5} {:>5} {:>5} {:>5}",
        "query", "bm25", "sem", "ent", "fused"
    );
    for (query, entities, expected) in &queries {
        let expected = texts
            .iter()
            .position(|t| t.0 == *expected)
            .unwrap_or(usize::MAX);
        let prepared = PreparedQuery::new(query)
            .with_embedding(HashingEmbedder.vector(query))
            .with_entities(entities.iter().cloned());
        let rankings = Rankings::compute(&prepared, &cands);
        let fused = fuse_rankings(&cands, &rankings, cands.len());
        let rr = [
            reciprocal_rank(order(&rankings[Ranker::Bm25]), expected),
            reciprocal_rank(order(&rankings[Ranker::Semantic]), expected),
            reciprocal_rank(order(&rankings[Ranker::Entity]), expected),
            reciprocal_rank(fused.iter().map(|f| f.index), expected),
        ];
        println!(
            "{query:<62} {:>5.2} {:>5.2} {:>5.2} {:>5.2}",
            rr[0], rr[1], rr[2], rr[3]
        );
        for (sum, r) in sums.iter_mut().zip(rr) {
            *sum += r;
        }
    }
    let mrr = sums.map(|s| s / queries.len() as f64);
    println!(
        "MRR over {} queries, {} texts: bm25 {:.3}, semantic {:.3}, entity {:.3}, fused {:.3}",
        queries.len(),
        texts.len(),
        mrr[0],
        mrr[1],
        mrr[2],
        mrr[3]
    );
    assert!(texts.len() >= 20 && queries.len() >= 10);
    for (name, single) in ["bm25", "semantic", "entity"].iter().zip(&mrr[..3]) {
        assert!(
            mrr[3] > *single,
            "fused {:.3} <= {name} {single:.3}",
            mrr[3]
        );
    }
}

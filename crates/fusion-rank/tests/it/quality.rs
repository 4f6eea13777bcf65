//! A small labelled recall set: fusing the three rankers must beat each of them alone.
//!
//! The texts, the entity ids attached to them (what an entity resolver would report) and the
//! queries with their one expected text were written by hand before measuring. Mean reciprocal
//! rank counts 1 / rank of the expected text, and 0 when a ranking does not list it.

use crate::{Doc, candidates};
use fusion_rank::{HashingEmbedder, PreparedQuery, Rankings, Scored, fuse_rankings};

const TEXTS: &[(&str, &str, &[&str])] = &[
    (
        "t01",
        "Dana prefers short answers with bullet points.",
        &["person:dana"],
    ),
    (
        "t02",
        "The Atlas project deadline moved to the end of March.",
        &["project:atlas"],
    ),
    (
        "t03",
        "Yossi leads the weekly sync on Mondays.",
        &["person:yossi"],
    ),
    (
        "t04",
        "Acme's quarterly report draft is due on Friday.",
        &["org:acme"],
    ),
    ("t05", "東京で寿司を食べるのが好き", &["place:tokyo"]),
    (
        "t06",
        "She wants replies in Hebrew when the topic is personal.",
        &["person:dana"],
    ),
    (
        "t07",
        "Meetings with the design team should stay under thirty minutes.",
        &[],
    ),
    (
        "t08",
        "The customer complained about the onboarding flow in the mobile app.",
        &["org:acme"],
    ),
    (
        "t09",
        "He asked us to translate the release notes into Japanese.",
        &["person:yossi"],
    ),
    ("t10", "Use metric units in every report.", &[]),
    (
        "t11",
        "Atlas stores its data in Postgres and caches with Redis.",
        &["project:atlas"],
    ),
    (
        "t12",
        "Backlog grooming happens every second Thursday.",
        &[],
    ),
    (
        "t13",
        "Dana's daughter starts school in September.",
        &["person:dana"],
    ),
    (
        "t14",
        "Never schedule calls before ten in the morning.",
        &[],
    ),
    (
        "t15",
        "The marketing budget for Acme was cut by twenty percent.",
        &["org:acme"],
    ),
    (
        "t16",
        "Charts should use the colour-blind safe palette.",
        &[],
    ),
    (
        "t17",
        "The mobile app crashes when uploading large photos.",
        &["project:atlas"],
    ),
    (
        "t18",
        "Yossi is allergic to peanuts, so avoid suggesting Thai restaurants.",
        &["person:yossi"],
    ),
    ("t19", "大阪の出張は来月に延期された", &["place:osaka"]),
    (
        "t20",
        "Quarterly planning for the platform team starts in October.",
        &[],
    ),
    ("t21", "The user likes dark mode in every editor.", &[]),
    (
        "t22",
        "Invoices from Acme go to the finance mailbox.",
        &["org:acme"],
    ),
    (
        "t23",
        "Prefers Python over JavaScript for scripting tasks.",
        &[],
    ),
    (
        "t24",
        "The Tokyo office moved to Shibuya last year.",
        &["place:tokyo"],
    ),
];

/// Query, entity ids resolved from it, the expected best text.
const QUERIES: &[(&str, &[&str], &str)] = &[
    (
        "which language should replies to Dana use for personal topics",
        &["person:dana"],
        "t06",
    ),
    ("when is the Atlas deadline", &["project:atlas"], "t02"),
    ("who runs the weekly meeting", &[], "t03"),
    ("寿司", &[], "t05"),
    ("Acme quarterly report due date", &["org:acme"], "t04"),
    ("what food should Yossi avoid", &["person:yossi"], "t18"),
    ("onboarding complaints from the customer", &[], "t08"),
    ("which database does Atlas use", &["project:atlas"], "t11"),
    (
        "translating release notes for Yossi",
        &["person:yossi"],
        "t09",
    ),
    ("大阪の出張", &["place:osaka"], "t19"),
    ("colour palette for charts", &[], "t16"),
    ("how long should meetings be", &[], "t07"),
    ("Dana's kid and school", &["person:dana"], "t13"),
    ("no calls early in the morning", &[], "t14"),
];

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
    let docs: Vec<Doc> = TEXTS
        .iter()
        .enumerate()
        .map(|(i, (id, text, entities))| Doc::new(id, i as i64, text, entities))
        .collect();
    let cands = candidates(&docs);
    let mut sums = [0.0f64; 4];
    println!(
        "{:<62} {:>5} {:>5} {:>5} {:>5}",
        "query", "bm25", "sem", "ent", "fused"
    );
    for (query, entities, expected) in QUERIES {
        let expected = TEXTS
            .iter()
            .position(|t| t.0 == *expected)
            .unwrap_or(usize::MAX);
        let prepared = PreparedQuery::new(query)
            .with_embedding(HashingEmbedder.vector(query))
            .with_entities(entities.iter().copied());
        let rankings = Rankings::compute(&prepared, &cands);
        let fused = fuse_rankings(&cands, &rankings, cands.len());
        let rr = [
            reciprocal_rank(order(&rankings.bm25), expected),
            reciprocal_rank(order(&rankings.semantic), expected),
            reciprocal_rank(order(&rankings.entity), expected),
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
    let mrr = sums.map(|s| s / QUERIES.len() as f64);
    println!(
        "MRR over {} queries, {} texts: bm25 {:.3}, semantic {:.3}, entity {:.3}, fused {:.3}",
        QUERIES.len(),
        TEXTS.len(),
        mrr[0],
        mrr[1],
        mrr[2],
        mrr[3]
    );
    assert!(TEXTS.len() >= 20 && QUERIES.len() >= 10);
    for (name, single) in ["bm25", "semantic", "entity"].iter().zip(&mrr[..3]) {
        assert!(
            mrr[3] > *single,
            "fused {:.3} <= {name} {single:.3}",
            mrr[3]
        );
    }
}

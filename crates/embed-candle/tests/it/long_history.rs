//! Recall quality over a long history: the labelled recall set's 24 texts are a member's
//! *oldest* notes, followed by 600 generated notes on other subjects, so every answer lies
//! outside the default window of the 300 most recent. Each of the 33 questions (queries and
//! paraphrases) is asked through the facade with `latest(300)` and with `all`, and scored by
//! MRR@10 and recall@10 for the fusion and for each ranker — a ranker's rank of the expected
//! note is the one recall reports for it among the 50 best fused answers (a note outside those
//! counts as missed by every ranker).
//!
//! The hashing-embedder table runs with every `cargo test`; the model's is ignored without the
//! model files. Both print their table (`--nocapture`).

use std::collections::HashMap;
use std::sync::Arc;

use agent_memory::backends::InMemoryBackend;
use agent_memory::{
    CandidateWindow, Embedder, HashingEmbedder, InMemoryPassageSource, ManualClock, MemberCaller,
    MemberId, MemoryService, RecallRequest, RememberRequest, Role, SettingsPatch, Timestamp,
    WorkspaceId,
};
use serde_json::Value;

use crate::facade::agent;
use crate::minilm;

const RECALL_SET: &str = include_str!("../../../fusion-rank/tests/data/recall-set.json");
const FILLER: usize = 600;

/// Notes on subjects the recall set does not ask about, from a fixed seed.
fn filler(i: usize, state: &mut u64) -> String {
    const WHO: &[&str] = &[
        "The platform team",
        "Marketing",
        "The data group",
        "Finance",
        "The mobile squad",
        "Support",
        "The design crew",
        "Operations",
        "The research lab",
        "Procurement",
    ];
    const DID: &[&str] = &[
        "moved the quarterly review to",
        "asked for a summary of",
        "approved the budget for",
        "postponed the workshop on",
        "published a draft about",
        "opened a ticket for",
        "scheduled a demo of",
        "closed the survey on",
        "hired a contractor for",
        "archived the old notes on",
    ];
    const WHAT: &[&str] = &[
        "the warehouse dashboard",
        "printer maintenance",
        "the spring newsletter",
        "badge access",
        "the parking rota",
        "server racks in hall B",
        "the onboarding video",
        "office plants",
        "the holiday calendar",
        "the cafeteria menu",
        "load balancer logs",
        "the intranet search",
        "chair ergonomics",
        "the recycling pilot",
        "conference tickets",
    ];
    let mut next = |n: usize| {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((*state >> 33) as usize) % n
    };
    format!(
        "{} {} {} (item {i}).",
        WHO[next(WHO.len())],
        DID[next(DID.len())],
        WHAT[next(WHAT.len())]
    )
}

/// A member whose oldest notes are the set's texts; the note id of each text id.
fn history(
    embedder: Arc<dyn Embedder>,
    window: CandidateWindow,
) -> (MemoryService, HashMap<String, String>) {
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let service = MemoryService::builder(
        Arc::new(InMemoryBackend::new()),
        Arc::new(InMemoryPassageSource::new()),
    )
    .clock(clock.clone())
    .embedder(embedder)
    .candidate_window(window)
    .semantic_budget(crate::eval::QUALITY_BUDGET)
    .build()
    .unwrap();
    let owner = MemberCaller {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("olivia").unwrap(),
        role: Role::Owner,
    };
    service
        .settings_put(
            &owner,
            &SettingsPatch::default().agent_memories_enabled(true),
        )
        .unwrap();
    let set: Value = serde_json::from_str(RECALL_SET).unwrap();
    let mut ids = HashMap::new();
    let remember = |text: String| {
        let stored = service
            .remember(&agent(), &RememberRequest::new("notes", text))
            .unwrap();
        // 120 remembers an hour per credential.
        clock.advance_seconds(31);
        stored.memory.id.to_string()
    };
    for text in set["texts"].as_array().unwrap() {
        let id = remember(text["text"].as_str().unwrap().to_owned());
        ids.insert(text["id"].as_str().unwrap().to_owned(), id);
    }
    let mut state = 7;
    for i in 0..FILLER {
        remember(filler(i, &mut state));
    }
    (service, ids)
}

/// MRR@10 and recall@10 of the fusion, BM25, the semantic ranker and the entity ranker, and
/// the mean of `considered`.
#[derive(Debug, Default, Clone, Copy)]
struct Scores {
    mrr: [f64; 4],
    recall: [f64; 4],
    considered: f64,
}

fn measure(service: &MemoryService, ids: &HashMap<String, String>) -> Scores {
    let set: Value = serde_json::from_str(RECALL_SET).unwrap();
    let questions: Vec<(&str, &str)> = set["queries"]
        .as_array()
        .unwrap()
        .iter()
        .chain(set["paraphrases"].as_array().unwrap())
        .map(|q| {
            (
                q["query"].as_str().unwrap(),
                q["expected"].as_str().unwrap(),
            )
        })
        .collect();
    let mut scores = Scores::default();
    for (query, expected) in &questions {
        let found = service
            .recall(&agent(), &RecallRequest::new(*query).limit(50))
            .unwrap();
        scores.considered += found.considered as f64;
        let target = &ids[*expected];
        let hit = found
            .memories
            .iter()
            .enumerate()
            .find(|(_, m)| m.view.id.as_str() == target.as_str());
        let ranks: [Option<u32>; 4] = match hit {
            None => [None; 4],
            Some((position, m)) => [
                Some(position as u32 + 1),
                m.ranks.bm25,
                m.ranks.semantic,
                m.ranks.entity,
            ],
        };
        for (slot, rank) in ranks.iter().enumerate() {
            if let Some(rank) = rank.filter(|r| *r <= 10) {
                scores.mrr[slot] += 1.0 / f64::from(rank);
                scores.recall[slot] += 1.0;
            }
        }
    }
    let n = questions.len() as f64;
    for slot in 0..4 {
        scores.mrr[slot] /= n;
        scores.recall[slot] /= n;
    }
    scores.considered /= n;
    scores
}

fn table(embedder: &str, rows: &[(&str, Scores)]) {
    println!(
        "\nlong history ({} notes, the answers the oldest 24), {embedder}:",
        24 + FILLER
    );
    println!("| window | considered | fused MRR@10 / R@10 | BM25 | semantic | entity |");
    println!("|---|---|---|---|---|---|");
    for (name, s) in rows {
        println!(
            "| {name} | {:.0} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} |",
            s.considered,
            s.mrr[0],
            s.recall[0],
            s.mrr[1],
            s.recall[1],
            s.mrr[2],
            s.recall[2],
            s.mrr[3],
            s.recall[3]
        );
    }
}

fn compare(name: &str, embedder: Arc<dyn Embedder>) -> (Scores, Scores) {
    let (latest, ids) = history(embedder.clone(), CandidateWindow::default());
    let default = measure(&latest, &ids);
    let (all, ids) = history(embedder, CandidateWindow::All);
    let every = measure(&all, &ids);
    table(name, &[("latest(300)", default), ("all", every)]);
    (default, every)
}

#[test]
fn with_the_hashing_embedder_only_the_window_all_reaches_the_oldest_notes() {
    let (default, all) = compare("hashing embedder", Arc::new(HashingEmbedder::new()));
    assert_eq!(default.considered, 300.0);
    assert_eq!(default.recall[0], 0.0, "no answer is among the latest 300");
    assert_eq!(all.considered, (24 + FILLER) as f64);
    assert!(all.recall[0] >= 0.5, "{all:?}");
    assert!(all.mrr[0] > 0.3, "{all:?}");
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn with_the_model_the_window_all_recalls_the_oldest_notes() {
    let model = minilm("the long-history quality table");
    let (default, all) = compare("all-MiniLM-L6-v2", model);
    assert_eq!(default.recall[0], 0.0);
    assert!(all.recall[0] >= 0.8, "{all:?}");
    // Fusion beats BM25 alone here. It does not beat the model alone on this set (0.88 against
    // 0.97 recall@10 when measured): RRF gives a note that only the model finds less than one
    // that both rankers place lower. The table says so rather than this test.
    assert!(all.recall[0] >= all.recall[1], "{all:?}");
}

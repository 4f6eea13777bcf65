//! The project's recall evaluation sets, measured through the facade: every note of a set is
//! remembered in order (oldest first) by one member, then every question is asked, and each
//! answer is scored against the question's labelled evidence.
//!
//! - `long-history.json`: a long conversational history (over 2,000 notes) whose answers are
//!   all among the oldest 250, so outside the default window of the latest 300.
//! - `short-facts.json`: short third-person facts about a dozen people, many per person.
//! - `conversations.json`: three long two-person conversations, one note per turn, with
//!   questions asked as a reader of the conversation would (most reuse some of the answer's
//!   words, a quarter share none).
//!
//! Both were written for this project before any ranker was measured on them, with
//! paraphrased questions. For each embedder (the hashing embedder always; all-MiniLM-L6-v2
//! with its files) and each window (`latest(300)` and `all`) the table gives recall@1, @5 and
//! @10 (the share of a question's evidence among the first k answers, averaged over questions)
//! and MRR@10 (the reciprocal rank of the first evidence note) for:
//!
//! - `fused`: the service's default weights for that embedder;
//! - `fused, no time`: the same with the time ranker weighed 0 (no period resolved, every word
//!   a BM25 term), to show what the time ranker changes on questions that were not written
//!   about time;
//! - `equal`: plain Reciprocal Rank Fusion (every weight 1);
//! - `bm25`, `semantic`: one ranker alone (its weight 1, the others 0), which is that
//!   ranker's own list.
//!
//! `cargo test -p govmem-embed-candle --test it eval -- --nocapture` prints the tables (the model's
//! with `--ignored` and `AGENT_MEMORY_TEST_MODEL_DIR`). The tests assert that with the window
//! `all` the fused list's recall@10 is not below either ranker's alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_memory::backends::InMemoryBackend;
use agent_memory::{
    CandidateWindow, EmbedError, Embedder, HashingEmbedder, InMemoryPassageSource, ManualClock,
    MemberCaller, MemberId, MemoryService, Ranker, RecallRequest, RememberRequest, Role,
    SettingsPatch, Timestamp, Weights, WorkspaceId,
};
use serde::Deserialize;

use crate::facade::agent;
use crate::minilm;

/// What the evaluations allow a query's embedding: they measure what the rankers find, not how
/// fast. With the service's 800 ms budget a loaded machine (the other model tests run in
/// threads beside these) drops the semantic ranker for some questions, and the scores measure
/// the machine; the budget itself is tested in `facade.rs` and timed in criterion.
pub(crate) const QUALITY_BUDGET: Duration = Duration::from_secs(120);

const LONG_HISTORY: &str = include_str!("../../../fusion-rank/tests/data/long-history.json");
const SHORT_FACTS: &str = include_str!("../../../fusion-rank/tests/data/short-facts.json");
const CONVERSATIONS: &str = include_str!("../../../fusion-rank/tests/data/conversations.json");

#[derive(Deserialize)]
struct Set {
    notes: Vec<Note>,
    questions: Vec<Question>,
}

#[derive(Deserialize)]
struct Note {
    id: String,
    text: String,
}

#[derive(Deserialize)]
struct Question {
    query: String,
    evidence: Vec<String>,
}

/// `inner` with every vector kept by text: each set asks its questions under eight rankings,
/// and the model would embed each question eight times.
struct Cached {
    inner: Arc<dyn Embedder>,
    seen: Mutex<HashMap<String, Vec<f32>>>,
}

impl Embedder for Cached {
    fn model_id(&self) -> &str {
        self.inner.model_id()
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        if let Some(v) = self.seen.lock().unwrap().get(text) {
            return Ok(v.clone());
        }
        let v = self.inner.embed(text)?;
        self.seen.lock().unwrap().insert(text.to_owned(), v.clone());
        Ok(v)
    }

    fn understands_meaning(&self) -> bool {
        self.inner.understands_meaning()
    }
}

/// Recall@1, @5, @10 and MRR@10, averaged over the questions.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(crate) struct Scores {
    pub recall: [f64; 3],
    pub mrr: f64,
}

const KS: [usize; 3] = [1, 5, 10];

/// The rankings measured: a name and the weights that make the service rank so.
fn rankings(embedder: &dyn Embedder) -> [(&'static str, Weights); 5] {
    [
        ("fused", Weights::for_embedder(embedder)),
        (
            "fused, no time",
            Weights {
                time: 0.0,
                ..Weights::for_embedder(embedder)
            },
        ),
        ("equal", Weights::EQUAL),
        ("bm25", Weights::only(Ranker::Bm25)),
        ("semantic", Weights::only(Ranker::Semantic)),
    ]
}

/// One member's history holding the set's notes, oldest first; the memory id of each note id.
fn remember_all(
    set: &Set,
    embedder: Arc<dyn Embedder>,
) -> (
    Arc<InMemoryBackend>,
    Arc<ManualClock>,
    HashMap<String, String>,
) {
    let backend = Arc::new(InMemoryBackend::new());
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let service = MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
        .clock(clock.clone())
        .embedder(embedder)
        .semantic_budget(QUALITY_BUDGET)
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
            &SettingsPatch::default()
                .agent_memories_enabled(true)
                .retention_days(365),
        )
        .unwrap();
    let mut ids = HashMap::new();
    for note in &set.notes {
        let stored = service
            .remember(&agent(), &RememberRequest::new("notes", note.text.clone()))
            .unwrap_or_else(|e| panic!("note {} is refused: {e}", note.id));
        ids.insert(note.id.clone(), stored.memory.id.to_string());
        // 120 remembers an hour per credential.
        clock.advance_seconds(31);
    }
    (backend, clock, ids)
}

fn measure(service: &MemoryService, set: &Set, ids: &HashMap<String, String>) -> Scores {
    let mut scores = Scores::default();
    for q in &set.questions {
        let found = service
            .recall(&agent(), &RecallRequest::new(q.query.clone()).limit(10))
            .unwrap();
        let evidence: Vec<&str> = q.evidence.iter().map(|e| ids[e].as_str()).collect();
        let hits: Vec<bool> = found
            .memories
            .iter()
            .map(|m| evidence.contains(&m.view.id.as_str()))
            .collect();
        for (slot, k) in KS.iter().enumerate() {
            let within = hits.iter().take(*k).filter(|h| **h).count();
            scores.recall[slot] += within as f64 / evidence.len() as f64;
        }
        if let Some(first) = hits.iter().position(|h| *h) {
            scores.mrr += 1.0 / (first + 1) as f64;
        }
    }
    let n = set.questions.len() as f64;
    for r in &mut scores.recall {
        *r /= n;
    }
    scores.mrr /= n;
    scores
}

/// The table of one set and one embedder, both windows; returns the `all` window's scores by
/// ranking name.
pub(crate) fn evaluate(
    name: &str,
    json: &str,
    embedder_name: &str,
    embedder: Arc<dyn Embedder>,
) -> HashMap<&'static str, Scores> {
    let set: Set = serde_json::from_str(json).unwrap();
    let embedder: Arc<dyn Embedder> = Arc::new(Cached {
        inner: embedder,
        seen: Mutex::new(HashMap::new()),
    });
    let (backend, clock, ids) = remember_all(&set, embedder.clone());
    println!(
        "\n{name} ({} notes, {} questions), {embedder_name}:",
        set.notes.len(),
        set.questions.len()
    );
    println!("| window | ranking | R@1 | R@5 | R@10 | MRR@10 |");
    println!("|---|---|---|---|---|---|");
    let mut all = HashMap::new();
    for (window_name, window) in [
        ("latest(300)", CandidateWindow::default()),
        ("all", CandidateWindow::All),
    ] {
        for (ranking, weights) in rankings(embedder.as_ref()) {
            let service =
                MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
                    .clock(clock.clone())
                    .embedder(embedder.clone())
                    .candidate_window(window)
                    .weights(weights)
                    .semantic_budget(QUALITY_BUDGET)
                    .build()
                    .unwrap();
            let s = measure(&service, &set, &ids);
            println!(
                "| {window_name} | {ranking} | {:.3} | {:.3} | {:.3} | {:.3} |",
                s.recall[0], s.recall[1], s.recall[2], s.mrr
            );
            if window_name == "all" {
                all.insert(ranking, s);
            }
        }
    }
    all
}

/// With the window `all`, the fused list finds at least as much as each ranker alone.
fn fused_never_below_a_single_ranker(scores: &HashMap<&'static str, Scores>, what: &str) {
    let fused = scores["fused"];
    for single in ["bm25", "semantic"] {
        let s = scores[single];
        // Recall@10: the first 10 answers are what an agent reads.
        assert!(
            fused.recall[2] >= s.recall[2],
            "{what}: fused recall@10 {:.3} is below {single}'s {:.3}",
            fused.recall[2],
            s.recall[2]
        );
    }
}

#[test]
fn hashing_embedder_long_history() {
    let scores = evaluate(
        "long history",
        LONG_HISTORY,
        "hashing embedder",
        Arc::new(HashingEmbedder::new()),
    );
    fused_never_below_a_single_ranker(&scores, "long history, hashing");
}

#[test]
fn hashing_embedder_short_facts() {
    let scores = evaluate(
        "short facts",
        SHORT_FACTS,
        "hashing embedder",
        Arc::new(HashingEmbedder::new()),
    );
    fused_never_below_a_single_ranker(&scores, "short facts, hashing");
}

#[test]
fn hashing_embedder_conversations() {
    let scores = evaluate(
        "conversations",
        CONVERSATIONS,
        "hashing embedder",
        Arc::new(HashingEmbedder::new()),
    );
    fused_never_below_a_single_ranker(&scores, "conversations, hashing");
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn model_conversations() {
    let scores = evaluate(
        "conversations",
        CONVERSATIONS,
        "all-MiniLM-L6-v2",
        minilm("the conversations evaluation set"),
    );
    fused_never_below_a_single_ranker(&scores, "conversations, model");
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn model_long_history() {
    let scores = evaluate(
        "long history",
        LONG_HISTORY,
        "all-MiniLM-L6-v2",
        minilm("the long-history evaluation set"),
    );
    fused_never_below_a_single_ranker(&scores, "long history, model");
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn model_short_facts() {
    let scores = evaluate(
        "short facts",
        SHORT_FACTS,
        "all-MiniLM-L6-v2",
        minilm("the short-facts evaluation set"),
    );
    fused_never_below_a_single_ranker(&scores, "short facts, model");
}

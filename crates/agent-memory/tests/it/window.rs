//! Recall's candidate window: `latest(300)` by default, `latest(n)` and `all` on the builder,
//! and `considered` telling how many versions were ranked.

use std::sync::Arc;

use agent_memory::{
    CandidateWindow, Clock, InMemoryPassageSource, ManualClock, MemoryService, RecallRequest,
    RememberRequest, SettingsPatch, Timestamp,
};
use proptest::prelude::*;
use store_kv::InMemoryBackend;

use crate::{agent, owner};

/// A member with `n` notes, the first of which (the oldest) is the only one about the query.
fn history(n: usize, window: Option<CandidateWindow>) -> MemoryService {
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let mut builder = MemoryService::builder(
        Arc::new(InMemoryBackend::new()),
        Arc::new(InMemoryPassageSource::new()),
    )
    .clock(clock.clone());
    if let Some(window) = window {
        builder = builder.candidate_window(window);
    }
    let service = builder.build().unwrap();
    service
        .settings_put(
            &owner(),
            &SettingsPatch::default().agent_memories_enabled(true),
        )
        .unwrap();
    let caller = agent("alice", "cred_a");
    for i in 0..n {
        let text = if i == 0 {
            "The lighthouse keeper prefers chamomile tea".to_owned()
        } else {
            format!("Standup note number {i} about the sprint board")
        };
        service
            .remember(&caller, &RememberRequest::new("notes", text))
            .unwrap();
        // Under the rate limit: 120 an hour.
        clock.advance_seconds(31);
    }
    service
}

fn recall(service: &MemoryService) -> (u64, bool) {
    let found = service
        .recall(
            &agent("alice", "cred_a"),
            &RecallRequest::new("what tea does the lighthouse keeper like?"),
        )
        .unwrap();
    let hit = found
        .memories
        .first()
        .is_some_and(|m| m.view.text.contains("chamomile"));
    (found.considered, hit)
}

#[test]
fn the_default_window_ranks_the_latest_300_and_misses_older_notes() {
    let service = history(320, None);
    assert_eq!(recall(&service), (300, false));
}

#[test]
fn the_window_all_ranks_every_visible_version() {
    let service = history(320, Some(CandidateWindow::All));
    assert_eq!(recall(&service), (320, true));
}

#[test]
fn a_latest_window_ranks_exactly_that_many() {
    let service = history(320, Some(CandidateWindow::latest(310).unwrap()));
    assert_eq!(recall(&service), (310, false));
    let service = history(40, Some(CandidateWindow::latest(10).unwrap()));
    assert_eq!(recall(&service), (10, false));
    let service = history(40, Some(CandidateWindow::latest(1_000).unwrap()));
    assert_eq!(recall(&service), (40, true));
}

const WORDS: [&str; 10] = [
    "garden", "invoice", "dentist", "sprint", "harbor", "tea", "budget", "violin", "ferry", "oak",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// With every version inside the default window, the whole-history path (the rows' heads
    /// and ids side by side, the posting lists, the vector table) answers exactly what the
    /// scanned window answers: the same memories, scores, ranks, `hidden` and `considered`,
    /// over superseded keys, shared instants, a namespace filter and a past `asOf`.
    #[test]
    fn the_whole_history_path_answers_as_the_scanned_window(
        notes in proptest::collection::vec(
            (
                0usize..2,
                proptest::option::of(0usize..3),
                proptest::collection::vec(0usize..WORDS.len(), 1..6),
                prop_oneof![Just(0i64), 1i64..4_000],
            ),
            1..40,
        ),
        query in proptest::collection::vec(0usize..WORDS.len(), 1..4),
        namespace in proptest::option::of(0usize..2),
        as_of in proptest::option::of(0usize..40),
        limit in 1usize..12,
    ) {
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let backend = Arc::new(InMemoryBackend::new());
        let passages = Arc::new(InMemoryPassageSource::new());
        let service = |window: CandidateWindow| {
            MemoryService::builder(backend.clone(), passages.clone())
                .clock(clock.clone())
                .candidate_window(window)
                .build()
                .unwrap()
        };
        let scanned = service(CandidateWindow::default());
        let whole = service(CandidateWindow::All);
        scanned
            .settings_put(&owner(), &SettingsPatch::default().agent_memories_enabled(true))
            .unwrap();
        let caller = agent("alice", "cred_a");
        let mut instants = Vec::new();
        for (ns, key, words, gap) in &notes {
            let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
            let mut request = RememberRequest::new(format!("ns{ns}"), text.join(" "));
            if let Some(key) = key {
                request = request.key(format!("k{key}"));
            }
            scanned.remember(&caller, &request).unwrap();
            instants.push(clock.now());
            clock.advance_seconds(*gap);
        }
        let words: Vec<&str> = query.iter().map(|&w| WORDS[w]).collect();
        let mut request = RecallRequest::new(words.join(" ")).limit(limit);
        if let Some(ns) = namespace {
            request = request.namespace(format!("ns{ns}"));
        }
        if let Some(at) = as_of.and_then(|i| instants.get(i)) {
            request = request.as_of(*at);
        }
        let from_scan = scanned.recall(&caller, &request).unwrap();
        let from_history = whole.recall(&caller, &request).unwrap();
        prop_assert_eq!(from_history, from_scan);
    }
}

//! Recall's candidate window: `latest(300)` by default, `latest(n)` and `all` on the builder,
//! and `considered` telling how many versions were ranked.

use std::sync::Arc;

use agent_memory::{
    CandidateWindow, InMemoryPassageSource, ManualClock, MemoryService, RecallRequest,
    RememberRequest, SettingsPatch, Timestamp,
};
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

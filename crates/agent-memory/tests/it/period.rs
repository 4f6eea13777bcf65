//! `createdAfter` and `createdBefore` on recall and list, against a model: the notes written at
//! generated instants, and the ones strictly inside the period, newest first.

use std::sync::Arc;

use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{
    CandidateWindow, InMemoryPassageSource, ListRequest, ManualClock, MemoryService, RecallRequest,
    RememberRequest, Timestamp,
};
use memory_core::{ErrorCode, SeededIdGenerator};
use proptest::prelude::*;
use serde_json::json;
use store_kv::InMemoryBackend;

use crate::{agent, enabled};

const START_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

/// A member's notes written `gaps` seconds apart (a gap of 0 shares the instant), all about the
/// same thing, with the instant each was written at.
fn notes(gaps: &[u32], window: CandidateWindow) -> (MemoryService, Vec<(Timestamp, String)>) {
    let clock = Arc::new(ManualClock::new(Timestamp::from_millis(START_MS).unwrap()));
    let service = enabled(
        MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .clock(clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(3)))
        .rate_limited(false)
        .candidate_window(window),
    );
    let caller = agent("alice", "cred_a");
    let mut written = Vec::new();
    for (i, gap) in gaps.iter().enumerate() {
        clock.advance_seconds(i64::from(*gap));
        let r = service
            .remember(
                &caller,
                &RememberRequest::new("notes", format!("garden note {i} about tomatoes")),
            )
            .unwrap();
        written.push((r.memory.created_at, r.memory.id.as_str().to_owned()));
    }
    (service, written)
}

/// The ids of the notes strictly inside the period, newest first (then the larger id first, as
/// list orders).
fn inside(
    written: &[(Timestamp, String)],
    after: Option<Timestamp>,
    before: Option<Timestamp>,
) -> Vec<String> {
    let mut ids: Vec<(Timestamp, String)> = written
        .iter()
        .filter(|(t, _)| after.is_none_or(|a| *t > a) && before.is_none_or(|b| *t < b))
        .cloned()
        .collect();
    ids.sort_by(|a, b| b.cmp(a));
    ids.into_iter().map(|(_, id)| id).collect()
}

fn instant(offset_seconds: i64) -> Timestamp {
    Timestamp::from_millis(START_MS + offset_seconds * 1000).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every page of a listing with a period, put together, is exactly the model's notes inside
    /// it in list order; recall ranks exactly the window's newest of them and returns only
    /// notes inside it.
    #[test]
    fn recall_and_list_keep_exactly_the_notes_inside_the_period(
        gaps in proptest::collection::vec(0u32..4, 1..40),
        after in proptest::option::of(0i64..80),
        length in proptest::option::of(1i64..80),
        page in 1usize..7,
        window in prop_oneof![Just(CandidateWindow::All), (1usize..30).prop_map(|n| CandidateWindow::latest(n).unwrap())],
    ) {
        let (service, written) = notes(&gaps, window);
        let after = after.map(instant);
        // `before` is after `after` (a period that holds no instant is refused, tested below).
        let before = length.map(|l| instant(after.map_or(0, |a| (a.as_millis() - START_MS) / 1000) + l));
        let caller = agent("alice", "cred_a");
        let expected = inside(&written, after, before);

        let mut listed = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut request = ListRequest::new().limit(page);
            request.created_after = after;
            request.created_before = before;
            if let Some(c) = cursor.take() {
                request = request.cursor(c);
            }
            let answer = service.list(&caller, &request).unwrap();
            prop_assert!(answer.memories.len() <= page);
            listed.extend(answer.memories.iter().map(|m| m.id.as_str().to_owned()));
            match answer.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        prop_assert_eq!(&listed, &expected);

        let mut request = RecallRequest::new("tomatoes in the garden").limit(50);
        request.created_after = after;
        request.created_before = before;
        let answer = service.recall(&caller, &request).unwrap();
        prop_assert_eq!(answer.considered as usize, expected.len().min(window.max()));
        for m in &answer.memories {
            prop_assert!(expected.contains(&m.view.id.as_str().to_owned()));
        }
    }
}

#[test]
fn a_cursor_is_bound_to_its_period() {
    let (service, _) = notes(&[1; 10], CandidateWindow::All);
    let caller = agent("alice", "cred_a");
    let mut first = ListRequest::new().limit(2);
    first.created_before = Some(instant(9));
    let cursor = service.list(&caller, &first).unwrap().next_cursor.unwrap();
    let mut other = ListRequest::new().limit(2).cursor(cursor.clone());
    other.created_before = Some(instant(8));
    let err = service.list(&caller, &other).unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest);
    let mut same = ListRequest::new().limit(2).cursor(cursor);
    same.created_before = Some(instant(9));
    assert_eq!(service.list(&caller, &same).unwrap().memories.len(), 2);
}

#[test]
fn a_bad_period_is_refused_before_anything_is_read() {
    let (service, _) = notes(&[1; 3], CandidateWindow::All);
    let caller = agent("alice", "cred_a");
    for body in [
        json!({"query": "tomatoes", "createdAfter": "last week"}),
        json!({"query": "tomatoes", "createdBefore": 17}),
        json!({"query": "tomatoes", "createdAfter": "2026-01-02T00:00:00Z", "createdBefore": "2026-01-02T00:00:00Z"}),
        json!({"query": "tomatoes", "createdAfter": "2026-01-03T00:00:00Z", "createdBefore": "2026-01-02T00:00:00Z"}),
    ] {
        let api = JsonApi::new(&service);
        let err = api
            .call(Operation::Recall, Caller::Agent(&caller), &body)
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest, "{body}");
        assert_eq!(err.http_status(), 400);
        let mut list_body = body.clone();
        list_body.as_object_mut().unwrap().remove("query");
        let err = api
            .call(Operation::List, Caller::Agent(&caller), &list_body)
            .unwrap_err();
        assert_eq!(
            err.code(),
            ErrorCode::AgentMemoryInvalidRequest,
            "{list_body}"
        );
    }
    let mut typed = RecallRequest::new("tomatoes");
    typed.created_after = Some(instant(5));
    typed.created_before = Some(instant(5));
    assert_eq!(
        service.recall(&caller, &typed).unwrap_err().code(),
        ErrorCode::AgentMemoryInvalidRequest
    );
}

//! R4: eight threads racing at the quota edge and at the rate-limit edge never get past either,
//! half of them through a second facade over the same backend: the limits are backend state, not
//! a facade's.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_memory::{ErrorCode, MemoryService};
use citation_verify::InMemoryPassageSource;
use memory_core::{
    AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, SeededIdGenerator, WorkspaceId,
};
use serde_json::json;
use store_trait::{Backend, Owner, RememberWrite};

use crate::{Fixture, agent, req};

const THREADS: usize = 8;

/// Another facade over the fixture's backend and clock (as a second service instance would be),
/// with its own id generator.
pub(crate) fn second_facade(fx: &Fixture) -> MemoryService {
    MemoryService::builder(fx.backend.clone(), Arc::new(InMemoryPassageSource::new()))
        .clock(fx.clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(8)))
        .build()
        .unwrap()
}

/// Stores `n` versions for alice straight through the backend (the facade's rate limit would
/// make preloading take simulated days; the quota counts versions however they were written).
fn preload(fx: &Fixture, n: usize) {
    let owner = Owner {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("alice").unwrap(),
    };
    let loader = CredentialId::new("loader").unwrap();
    let ids = SeededIdGenerator::new(99);
    let now = fx.service.now();
    for _ in 0..n {
        let record = AgentMemory {
            id: AgentMemoryId::generate(&ids, now).unwrap(),
            workspace: owner.workspace.clone(),
            member: owner.member.clone(),
            credential: loader.clone(),
            namespace: "bulk".into(),
            key: None,
            text: MemoryText::mask("a preloaded note").0,
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: now,
            superseded_at: None,
            ranking: Default::default(),
        };
        let outcome = fx
            .backend
            .remember(
                &owner,
                &loader,
                None,
                now.minus_seconds(3600),
                now.minus_days(90),
                &mut |_| {
                    Ok(RememberWrite {
                        record: record.clone(),
                        supersede_current: false,
                    })
                },
            )
            .unwrap();
        assert!(matches!(
            outcome,
            store_trait::RememberOutcome::Written { .. }
        ));
    }
}

#[test]
fn eight_threads_at_the_quota_edge_never_store_a_5001st_version() {
    let fx = Arc::new(Fixture::new());
    let second = second_facade(&fx);
    preload(&fx, 4_990);
    let accepted = AtomicUsize::new(0);
    let full = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (accepted, full) = (&accepted, &full);
            let service = if t % 2 == 0 { &fx.service } else { &second };
            s.spawn(move || {
                // Each thread has its own credential, so only the quota can refuse.
                let caller = agent("alice", &format!("cred_{t}"));
                for i in 0..5 {
                    let body = json!({"namespace": "race", "text": format!("note {t} {i}")});
                    match service.remember(&caller, &req(body.clone())) {
                        Ok(_) => accepted.fetch_add(1, Ordering::SeqCst),
                        Err(e) => {
                            assert_eq!(e.code(), ErrorCode::AgentMemoryFull);
                            full.fetch_add(1, Ordering::SeqCst)
                        }
                    };
                }
            });
        }
    });
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        10,
        "exactly the 10 free places were taken"
    );
    assert_eq!(full.load(Ordering::SeqCst), THREADS * 5 - 10);
    let owner = Owner {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("alice").unwrap(),
    };
    let stored = fx
        .backend
        .stored_versions(&owner, fx.service.now().minus_days(90))
        .unwrap();
    assert_eq!(stored, 5_000);
}

#[test]
fn eight_threads_on_one_credential_never_get_a_121st_remember_in_the_hour() {
    let fx = Fixture::new();
    let second = second_facade(&fx);
    let accepted = AtomicUsize::new(0);
    let limited = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (accepted, limited) = (&accepted, &limited);
            let service = if t % 2 == 0 { &fx.service } else { &second };
            s.spawn(move || {
                let caller = agent("alice", "cred_shared");
                for i in 0..20 {
                    let body = json!({"namespace": "race", "key": format!("k{t}"), "text": format!("note {i}")});
                    match service.remember(&caller, &req(body.clone())) {
                        Ok(_) => accepted.fetch_add(1, Ordering::SeqCst),
                        Err(e) => {
                            assert_eq!(e.code(), ErrorCode::AgentMemoryRateLimited);
                            assert!(e.retry_after_seconds().is_some_and(|s| s >= 1));
                            limited.fetch_add(1, Ordering::SeqCst)
                        }
                    };
                }
            });
        }
    });
    assert_eq!(accepted.load(Ordering::SeqCst), 120);
    assert_eq!(limited.load(Ordering::SeqCst), THREADS * 20 - 120);
    // Every key's versions are numbered without gaps or repeats despite the race.
    let page = fx
        .service
        .list(&agent("alice", "cred_shared"), &req(json!({"limit": 100})))
        .unwrap();
    assert!(
        page.memories.len() <= THREADS,
        "at most one current version per key"
    );
    let total: u32 = page.memories.iter().map(|m| m.version).sum();
    assert_eq!(
        total, 120,
        "versions 1..=n per key add up to the accepted writes"
    );
    // An hour later the credential may write again.
    fx.clock.advance_seconds(3600);
    fx.service
        .remember(
            &agent("alice", "cred_shared"),
            &req(json!({"namespace": "race", "text": "later"})),
        )
        .unwrap();
}

//! Limits a host sets on the builder: the rate limit, the quota, the longest text and the
//! retention bounds, each refused outside its documented bounds, each enforced like the
//! contract's value it replaces; and a service whose owner alone drives it without the rate limit.

use std::sync::Arc;

use agent_memory::{
    BuildError, InMemoryPassageSource, Limits, ListRequest, ManualClock, MemoryService,
    RememberRequest, SettingsPatch,
};
use memory_core::{ErrorCode, Timestamp};
use store_kv::InMemoryBackend;

use crate::{agent, enabled, owner};

const START: &str = "2026-01-01T00:00:00Z";

fn service(
    backend: &Arc<InMemoryBackend>,
    clock: &Arc<ManualClock>,
    limits: Limits,
) -> MemoryService {
    service_with(backend, clock, limits, true)
}

fn service_with(
    backend: &Arc<InMemoryBackend>,
    clock: &Arc<ManualClock>,
    limits: Limits,
    rate_limited: bool,
) -> MemoryService {
    enabled(
        MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
            .clock(clock.clone())
            .limits(limits)
            .rate_limited(rate_limited),
    )
}

fn fresh() -> (Arc<InMemoryBackend>, Arc<ManualClock>) {
    (
        Arc::new(InMemoryBackend::new()),
        Arc::new(ManualClock::new(Timestamp::parse(START).unwrap())),
    )
}

fn note(i: usize) -> RememberRequest {
    RememberRequest::new("n", format!("note number {i}"))
}

#[test]
fn the_rate_limit_a_host_sets_holds_and_an_owner_only_service_skips_it() {
    let (backend, clock) = fresh();
    let limits = Limits {
        remembers_per_hour: 3,
        ..Limits::default()
    };
    let agents = service(&backend, &clock, limits);
    let alice = agent("alice", "cred_a");
    for i in 0..3 {
        agents.remember(&alice, &note(i)).unwrap();
    }
    let err = agents.remember(&alice, &note(3)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryRateLimited);
    assert!(err.retry_after_seconds().unwrap() >= 1);
    // The owner's own service over the same database is not held to it...
    let owners = service_with(&backend, &clock, limits, false);
    for i in 3..8 {
        owners.remember(&alice, &note(i)).unwrap();
    }
    // ...but what it wrote counts for the agents' service, which still refuses.
    assert_eq!(
        agents.remember(&alice, &note(9)).unwrap_err().code(),
        ErrorCode::AgentMemoryRateLimited
    );
    // An hour later the window is empty again.
    clock.set(Timestamp::parse("2026-01-01T01:00:01Z").unwrap());
    agents.remember(&alice, &note(10)).unwrap();
}

#[test]
fn the_quota_a_host_sets_holds_and_the_owner_only_service_keeps_it() {
    let (backend, clock) = fresh();
    let limits = Limits {
        versions_per_member: 4,
        ..Limits::default()
    };
    let owners = service_with(&backend, &clock, limits, false);
    let alice = agent("alice", "cred_a");
    for i in 0..4 {
        owners.remember(&alice, &note(i)).unwrap();
    }
    let err = owners.remember(&alice, &note(4)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryFull);
    let listed = owners.list(&alice, &ListRequest::new()).unwrap();
    assert_eq!(listed.memories.len(), 4, "a refused write wrote nothing");
}

#[test]
fn a_shorter_text_limit_refuses_longer_texts_naming_the_bounds_not_the_text() {
    let (backend, clock) = fresh();
    let limits = Limits {
        text_max_chars: 10,
        ..Limits::default()
    };
    let s = service(&backend, &clock, limits);
    let alice = agent("alice", "cred_a");
    s.remember(&alice, &RememberRequest::new("n", "ten chars!"))
        .unwrap();
    let err = s
        .remember(&alice, &RememberRequest::new("n", "eleven char"))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest);
    assert_eq!(
        err.message(),
        "the length of text must be from 1 to 10 on this service"
    );
    // The contract's own rule still answers first above 1,000.
    let err = s
        .remember(&alice, &RememberRequest::new("n", "x".repeat(1001)))
        .unwrap_err();
    assert_eq!(
        err.message(),
        "text must be a string of 1 to 1000 characters"
    );
}

#[test]
fn retention_bounds_refuse_settings_outside_them_and_shorten_a_longer_recorded_one() {
    let (backend, clock) = fresh();
    // Recorded under the contract's bounds: a year.
    let open = service(&backend, &clock, Limits::default());
    open.settings_put(&owner(), &SettingsPatch::default().retention_days(365))
        .unwrap();
    let alice = agent("alice", "cred_a");
    open.remember(&alice, &note(0)).unwrap();
    clock.set(Timestamp::parse("2026-03-01T00:00:00Z").unwrap());
    open.remember(&alice, &note(1)).unwrap();

    let limits = Limits {
        retention_min_days: 7,
        retention_max_days: 30,
        ..Limits::default()
    };
    let bounded = MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
        .clock(clock.clone())
        .limits(limits)
        .build()
        .unwrap();
    // The recorded year applies as 30 days: the January note is expired, the March one is not.
    assert_eq!(bounded.settings_get(&owner()).unwrap().retention_days, 30);
    let listed = bounded.list(&alice, &ListRequest::new()).unwrap();
    assert_eq!(listed.memories.len(), 1);
    assert_eq!(listed.memories[0].text, "note number 1");
    // Settings outside the bounds are refused, naming the bounds; inside, accepted.
    for days in [1, 6, 31, 365] {
        let err = bounded
            .settings_put(&owner(), &SettingsPatch::default().retention_days(days))
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest);
        assert_eq!(
            err.message(),
            "retentionDays must be from 7 to 30 on this service"
        );
    }
    let set = bounded
        .settings_put(&owner(), &SettingsPatch::default().retention_days(14))
        .unwrap();
    assert_eq!(set.retention_days, 14);
}

#[test]
fn limits_outside_their_bounds_do_not_build() {
    for limits in [
        Limits {
            remembers_per_hour: 0,
            ..Limits::default()
        },
        Limits {
            text_max_chars: 1001,
            ..Limits::default()
        },
        Limits {
            retention_min_days: 10,
            retention_max_days: 5,
            ..Limits::default()
        },
    ] {
        let built = MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .limits(limits)
        .build();
        assert!(matches!(built, Err(BuildError::Limits(_))), "{limits:?}");
    }
}

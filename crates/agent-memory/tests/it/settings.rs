//! A remember checks its caller under the workspace settings its service last read, and its
//! transaction reads them again: settings another service over the same storage (another
//! process) changed in between decide the answer, in the order of checks that settings read
//! now give, and a refused remember writes nothing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use agent_memory::{ErrorCode, RememberRequest, SettingsPatch, Timestamp};
use memory_core::{MemberId, WorkspaceId};
use store_trait::{Backend, Owner};

use crate::races::second_facade;
use crate::{Fixture, agent, owner};

fn alice() -> Owner {
    Owner {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("alice").unwrap(),
    }
}

fn stored(fx: &Fixture) -> u64 {
    fx.backend
        .stored_versions(&alice(), Timestamp::MIN)
        .unwrap()
}

fn switch(enabled: bool) -> SettingsPatch {
    SettingsPatch::default().agent_memories_enabled(enabled)
}

/// A service that remembered once for alice (so it keeps the settings as on), and a second
/// service over the same storage that then turned memories off.
fn turned_off_elsewhere() -> (Fixture, agent_memory::MemoryService) {
    let fx = Fixture::new();
    let elsewhere = second_facade(&fx);
    fx.service
        .remember(
            &agent("alice", "cred_a"),
            &RememberRequest::new("notes", "first note"),
        )
        .unwrap();
    elsewhere.settings_put(&owner(), &switch(false)).unwrap();
    (fx, elsewhere)
}

#[test]
fn a_switch_turned_off_elsewhere_refuses_the_next_remember_and_writes_nothing() {
    let (fx, _elsewhere) = turned_off_elsewhere();
    let err = fx
        .service
        .remember(
            &agent("alice", "cred_a"),
            &RememberRequest::new("notes", "second note"),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryDisabled);
    assert_eq!(stored(&fx), 1);
}

#[test]
fn a_bad_body_under_a_switch_turned_off_elsewhere_is_answered_as_disabled() {
    let (fx, elsewhere) = turned_off_elsewhere();
    let caller = agent("alice", "cred_a");
    // An empty text (the field rules), and one that masking empties (checked later).
    for text in ["", "dana@example.com"] {
        let err = fx
            .service
            .remember(&caller, &RememberRequest::new("notes", text))
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::AgentMemoryDisabled, "{text:?}");
    }
    // Turned on again: the same bodies get their own refusals.
    elsewhere.settings_put(&owner(), &switch(true)).unwrap();
    let err = fx
        .service
        .remember(&caller, &RememberRequest::new("notes", "dana@example.com"))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryEmpty);
    assert_eq!(stored(&fx), 1);
}

#[test]
fn a_switch_turned_on_elsewhere_lets_the_next_remember_through() {
    let fx = Fixture::new();
    let elsewhere = second_facade(&fx);
    let caller = agent("alice", "cred_a");
    fx.service.settings_put(&owner(), &switch(false)).unwrap();
    let err = fx
        .service
        .remember(&caller, &RememberRequest::new("notes", "a note"))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryDisabled);
    elsewhere.settings_put(&owner(), &switch(true)).unwrap();
    fx.service
        .remember(&caller, &RememberRequest::new("notes", "a note"))
        .unwrap();
    assert_eq!(stored(&fx), 1);
}

/// The retention decides whether the key's earlier version still counts as superseded: the
/// write obeys the retention its transaction read, not the one its service read before.
#[test]
fn a_retention_shortened_elsewhere_is_the_one_the_write_obeys() {
    let fx = Fixture::new();
    let elsewhere = second_facade(&fx);
    let caller = agent("alice", "cred_a");
    let keyed = |text: &str| RememberRequest::new("prefs", text).key("tone");
    fx.service
        .remember(&caller, &keyed("short answers"))
        .unwrap();
    fx.clock.advance_seconds(2 * 86_400);
    let again = fx
        .service
        .remember(&caller, &keyed("long answers"))
        .unwrap();
    assert!(
        again.superseded,
        "under 90 days, the earlier version is superseded"
    );
    // Three days: the current version (written now) is not purged by the change.
    elsewhere
        .settings_put(&owner(), &SettingsPatch::default().retention_days(3))
        .unwrap();
    fx.clock.advance_seconds(4 * 86_400);
    let last = fx
        .service
        .remember(&caller, &keyed("no preference"))
        .unwrap();
    assert!(
        !last.superseded,
        "under three days, the earlier version had expired before this write"
    );
}

/// Writers on one service and a switch flipped on another, concurrently: every remember is
/// written or refused as disabled, and exactly the written ones are stored.
#[test]
fn remembers_racing_a_switch_flipped_elsewhere_store_exactly_what_they_acknowledge() {
    let fx = Fixture::new();
    let elsewhere = second_facade(&fx);
    let written = AtomicUsize::new(0);
    let refused = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let writers: Vec<_> = (0..3)
            .map(|t| {
                let (fx, written, refused) = (&fx, &written, &refused);
                s.spawn(move || {
                    let caller = agent("alice", &format!("cred_{t}"));
                    for i in 0..100 {
                        let request = RememberRequest::new("notes", format!("note {t} {i}"));
                        match fx.service.remember(&caller, &request) {
                            Ok(_) => written.fetch_add(1, Ordering::SeqCst),
                            Err(err) => {
                                assert_eq!(err.code(), ErrorCode::AgentMemoryDisabled);
                                refused.fetch_add(1, Ordering::SeqCst)
                            }
                        };
                    }
                })
            })
            .collect();
        s.spawn(|| {
            let mut on = false;
            while !done.load(Ordering::SeqCst) {
                elsewhere.settings_put(&owner(), &switch(on)).unwrap();
                on = !on;
                std::thread::yield_now();
            }
        });
        for w in writers {
            w.join().unwrap();
        }
        done.store(true, Ordering::SeqCst);
    });
    let (written, refused) = (written.into_inner(), refused.into_inner());
    assert_eq!(written + refused, 300);
    assert_eq!(stored(&fx), written as u64);
}

/// Writers that keep the switch as on, and a second service turning it off once while they
/// write: no remember that began after the switch-off returned is acknowledged, whatever the
/// writers' service kept, and every refusal is the switch's.
#[test]
fn no_remember_begun_after_a_switch_off_elsewhere_is_acknowledged() {
    let fx = Fixture::new();
    let elsewhere = second_facade(&fx);
    let written = AtomicUsize::new(0);
    let off = AtomicBool::new(false);
    std::thread::scope(|s| {
        for t in 0..3 {
            let (fx, written, off) = (&fx, &written, &off);
            s.spawn(move || {
                let caller = agent("alice", &format!("cred_{t}"));
                for i in 0..100 {
                    let began_after_off = off.load(Ordering::SeqCst);
                    let request = RememberRequest::new("notes", format!("note {t} {i}"));
                    match fx.service.remember(&caller, &request) {
                        Ok(_) => {
                            assert!(!began_after_off, "acknowledged after the switch-off");
                            written.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(err) => assert_eq!(err.code(), ErrorCode::AgentMemoryDisabled),
                    }
                }
            });
        }
        s.spawn(|| {
            // Off once the writers are under way (and have kept the settings as on).
            while written.load(Ordering::SeqCst) < 30 {
                std::thread::yield_now();
            }
            elsewhere.settings_put(&owner(), &switch(false)).unwrap();
            off.store(true, Ordering::SeqCst);
        });
    });
    assert!(off.into_inner());
    assert_eq!(stored(&fx), written.into_inner() as u64);
}

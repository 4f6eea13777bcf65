//! Races: 8 threads remembering at once at the quota edge, at the rate-limit edge and on one key
//! (quality target R4). A backend whose check-and-write is not atomic overshoots.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::thread;

use memory_core::{ApiError, ErrorCode, Timestamp};

use super::fixture::{Note, owner, t};
use crate::{Backend, RememberOutcome, ScanQuery};

const THREADS: usize = 8;

/// Instants handed out in increasing order, read inside `decide` so that the order of
/// `created_at` follows the order in which decisions ran.
struct Ticks(AtomicI64);

impl Ticks {
    fn next(&self) -> Timestamp {
        t(self.0.fetch_add(1, Ordering::SeqCst))
    }
}

/// Runs `attempts` remembers on each of 8 threads; returns how many were written.
fn race(attempts: usize, attempt: &(dyn Fn(usize, usize) -> RememberOutcome + Sync)) -> usize {
    let written = AtomicU64::new(0);
    thread::scope(|scope| {
        for thread in 0..THREADS {
            let written = &written;
            scope.spawn(move || {
                for i in 0..attempts {
                    if let RememberOutcome::Written { .. } = attempt(thread, i) {
                        written.fetch_add(1, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    written.into_inner() as usize
}

/// 8 threads, 80 attempts, a decision refusing once 40 versions are stored (`409
/// AGENT_MEMORY_FULL`): exactly 40 are written, and each key's versions are numbered 1..=n.
pub fn race_quota_edge<B: Backend>(make: &dyn Fn() -> B) {
    const QUOTA: u64 = 40;
    let b = make();
    let alice = owner("ws1", "alice");
    let ticks = Ticks(AtomicI64::new(0));
    let written = race(10, &|thread, i| {
        let mut note = Note::new(&alice, "n", t(0)).credential(&format!("cred_{thread}"));
        if i % 2 == 1 {
            note = note.key(&format!("k{}", thread % 2));
        }
        let outcome = note.remember_with(&b, &mut |state| {
            if state.stored_versions >= QUOTA {
                return Err(ApiError::from(ErrorCode::AgentMemoryFull));
            }
            let mut write = note.accept(state);
            write.record.created_at = ticks.next();
            Ok(write)
        });
        outcome.expect("remember succeeds")
    });
    assert_eq!(written as u64, QUOTA, "written versions");
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), QUOTA);
    for key in ["k0", "k1"] {
        let query = ScanQuery {
            key: Some(key.into()),
            ..ScanQuery::new(Timestamp::MAX, Timestamp::MIN, usize::MAX)
        };
        assert!(
            b.scan(&alice, &query).unwrap().len() <= 1,
            "more than one current version of {key}"
        );
        let mut versions: Vec<u32> = b
            .forget_key(&alice, "n", key)
            .unwrap()
            .iter()
            .map(|m| m.version)
            .collect();
        versions.sort_unstable();
        assert_eq!(
            versions,
            (1..=versions.len() as u32).collect::<Vec<_>>(),
            "numbering of {key}"
        );
    }
}

/// 8 threads, 64 attempts with one credential, a decision refusing once 30 instants are in the
/// window (`429`): exactly 30 are accepted, and the window holds exactly those.
pub fn race_rate_limit_edge<B: Backend>(make: &dyn Fn() -> B) {
    const RATE: usize = 30;
    let b = make();
    let alice = owner("ws1", "alice");
    let ticks = Ticks(AtomicI64::new(0));
    let written = race(8, &|thread, _| {
        // Every thread writes with the same credential, so every decision reads one window.
        let note = Note::new(&alice, &format!("n{thread}"), t(0))
            .credential("cred_shared")
            .window_start(t(-1));
        let outcome = note.remember_with(&b, &mut |state| {
            if state.window.len() >= RATE {
                return Err(ApiError::rate_limited(1));
            }
            let mut write = note.accept(state);
            write.record.created_at = ticks.next();
            Ok(write)
        });
        outcome.expect("remember succeeds")
    });
    assert_eq!(written, RATE, "accepted remembers");
    let window = Note::new(&alice, "n", t(0))
        .credential("cred_shared")
        .window_start(t(-1))
        .probe(&b)
        .window;
    assert_eq!(window.len(), RATE);
    assert!(
        window.windows(2).all(|w| w[0] <= w[1]),
        "the window is not oldest first"
    );
    assert_eq!(
        b.stored_versions(&alice, Timestamp::MIN).unwrap(),
        RATE as u64
    );
}

/// 8 threads remembering one key 5 times each: versions 1..=40, each superseded exactly at the
/// `created_at` of the next, one current version.
pub fn race_one_key<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let ticks = Ticks(AtomicI64::new(0));
    let written = race(5, &|thread, _| {
        let note = Note::new(&alice, "n", t(0))
            .key("k")
            .credential(&format!("cred_{thread}"));
        let outcome = note.remember_with(&b, &mut |state| {
            let mut write = note.accept(state);
            write.record.created_at = ticks.next();
            Ok(write)
        });
        outcome.expect("remember succeeds")
    });
    assert_eq!(written, THREADS * 5);
    let mut all = b
        .scan(
            &alice,
            &ScanQuery::new(Timestamp::MAX, Timestamp::MIN, usize::MAX),
        )
        .unwrap();
    assert_eq!(all.len(), 1, "exactly one current version");
    assert_eq!(all[0].version, 40);
    assert_eq!(
        b.current_of_key(&alice, "n", "k").unwrap().as_ref(),
        all.first()
    );
    all = b.forget_key(&alice, "n", "k").unwrap();
    all.sort_by_key(|m| m.version);
    assert_eq!(
        all.iter().map(|m| m.version).collect::<Vec<_>>(),
        (1..=40).collect::<Vec<_>>()
    );
    for pair in all.windows(2) {
        assert_eq!(
            pair[0].superseded_at,
            Some(pair[1].created_at),
            "version {} superseded at the wrong instant",
            pair[0].version
        );
    }
    assert_eq!(all[39].superseded_at, None);
}

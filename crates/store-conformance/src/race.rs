//! Races: 8 threads remembering at once at the quota edge, at the rate-limit edge and on one key
//! (quality target R4). A backend whose check-and-write is not atomic overshoots; one that takes
//! a write's instant outside its atomic step scrambles the key's history.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::thread;

use memory_core::{AgentMemory, ApiError, ErrorCode, Timestamp};

use super::fixture::{Note, owner, t};
use store_trait::{Backend, Owner, RememberOutcome, ScanQuery};

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

/// 8 threads remembering one key 10 times each, every caller reading its clock *before* the
/// backend's step, as a facade does, from a clock that stands still across 4 reads: the
/// backend must still write the key's history in commit order ([`assert_key_history`]). Taking
/// the caller's instant as it is gives inversions (version N+1 created before version N), equal
/// instants, and versions superseded before or as they were created.
pub fn race_one_key_history_follows_commit_order<B: Backend>(make: &dyn Fn() -> B) {
    const PER_THREAD: usize = 10;
    let b = make();
    let alice = owner("ws1", "alice");
    let clock = AtomicI64::new(0);
    let acknowledged = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for thread in 0..THREADS {
            let (b, alice, clock, acknowledged) = (&b, &alice, &clock, &acknowledged);
            scope.spawn(move || {
                for _ in 0..PER_THREAD {
                    // The clock stands still for 4 reads, then moves on by 1 ms.
                    let at = t(clock.fetch_add(1, Ordering::SeqCst) / 4);
                    // Let another caller's step run between reading the clock and writing.
                    thread::yield_now();
                    let note = Note::new(alice, "n", at)
                        .key("k")
                        .credential(&format!("cred_{thread}"));
                    let outcome = note
                        .remember_with(b, &mut |state| Ok(note.accept(state)))
                        .expect("remember succeeds");
                    let RememberOutcome::Written { record, .. } = outcome else {
                        panic!("the usual decision was refused");
                    };
                    acknowledged
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(record);
                }
            });
        }
    });
    let acknowledged = acknowledged
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    assert_key_history(&b, &alice, "n", "k", &acknowledged);
}

/// Checks the two invariants of a key's history over its whole stored chain, and that each of
/// `acknowledged` (the records the backend answered remembers of the key with) is stored as
/// answered; panics at the first breach.
///
/// - *At most one version of the key is valid at any instant*: a [`Backend::scan`] of the key
///   at every instant where validity changes (each `created_at` and `superseded_at`, and the
///   millisecond before each) returns at most one version. Ordered by version number (commit
///   order), `created_at` strictly increases and each version is superseded exactly at its
///   successor's `created_at`; the last is current.
/// - *Every acknowledged version is the valid one at its own `created_at`*: the scan at that
///   instant returns exactly it.
///
/// Every version of the key must be unexpired and stored (no purge or forget in between).
pub fn assert_key_history<B: Backend + ?Sized>(
    backend: &B,
    owner: &Owner,
    namespace: &str,
    key: &str,
    acknowledged: &[AgentMemory],
) {
    let mut chain: Vec<AgentMemory> = backend
        .versions(owner, Timestamp::MIN, None, usize::MAX)
        .expect("versions")
        .into_iter()
        .filter(|m| m.namespace == namespace && m.key.as_deref() == Some(key))
        .collect();
    chain.sort_by_key(|m| m.version);
    assert_eq!(
        chain.iter().map(|m| m.version).collect::<Vec<_>>(),
        (1..=chain.len() as u32).collect::<Vec<_>>(),
        "the key's versions are not numbered 1..=n"
    );
    assert_eq!(chain.len(), acknowledged.len(), "acknowledged versions");
    for pair in chain.windows(2) {
        assert!(
            pair[0].created_at < pair[1].created_at,
            "version {} created at {}, not after version {} at {}",
            pair[1].version,
            pair[1].created_at,
            pair[0].version,
            pair[0].created_at
        );
        assert_eq!(
            pair[0].superseded_at,
            Some(pair[1].created_at),
            "version {} is not superseded at the creation of version {}",
            pair[0].version,
            pair[1].version
        );
    }
    if let Some(last) = chain.last() {
        assert_eq!(last.superseded_at, None, "the newest version is superseded");
    }
    let valid_at = |at: Timestamp| {
        let query = ScanQuery {
            namespace: Some(namespace.to_owned()),
            key: Some(key.to_owned()),
            ..ScanQuery::new(at, Timestamp::MIN, usize::MAX)
        };
        backend.scan(owner, &query).expect("scan")
    };
    let mut instants: Vec<Timestamp> = chain
        .iter()
        .flat_map(|m| [Some(m.created_at), m.superseded_at])
        .flatten()
        .flat_map(|at| [at, at.minus_millis(1)])
        .collect();
    instants.sort_unstable();
    instants.dedup();
    for at in instants {
        let valid = valid_at(at);
        assert!(
            valid.len() <= 1,
            "{} versions of the key are valid at {at}: {:?}",
            valid.len(),
            valid.iter().map(|m| m.version).collect::<Vec<_>>()
        );
    }
    for ack in acknowledged {
        let valid = valid_at(ack.created_at);
        assert!(
            valid.len() == 1 && valid[0].id == ack.id && valid[0].created_at == ack.created_at,
            "acknowledged version {} (created at {}) is not the valid one at its own created_at: \
             {:?}",
            ack.version,
            ack.created_at,
            valid
                .iter()
                .map(|m| (m.version, m.created_at))
                .collect::<Vec<_>>()
        );
    }
}

/// The versions of `owner` valid at `at`, as ids.
fn valid_ids<B: Backend>(b: &B, owner: &Owner, at: Timestamp) -> Vec<String> {
    let mut ids: Vec<String> = b
        .scan(owner, &ScanQuery::new(at, Timestamp::MIN, usize::MAX))
        .unwrap()
        .into_iter()
        .map(|m| m.id.as_str().to_owned())
        .collect();
    ids.sort();
    ids
}

/// [`Backend::between_writes`] against 4 threads superseding 20 keys 40 times each, each reading its instant
/// inside its step and taking a millisecond to commit: every version committed after a
/// `between_writes` whose `settle` moved the clock past an instant is newer than that instant,
/// so what is valid at the instant never changes afterwards — the guarantee a paged listing
/// pins its snapshot on. A backend whose `between_writes` does not wait for a remember in flight
/// lets such a version commit with an older instant.
pub fn race_between_writes_orders_later_commits_after_it<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let ticks = Ticks(AtomicI64::new(1));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let pins = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for thread in 0..4 {
            let (b, alice, ticks, stop) = (&b, &alice, &ticks, &stop);
            scope.spawn(move || {
                for i in 0..40usize {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let note = Note::new(alice, "n", t(0))
                        .key(&format!("k{}", (i * 7 + thread) % 20))
                        .credential(&format!("cred_{thread}"))
                        .window_start(Timestamp::MIN);
                    note.remember_with(b, &mut |state| {
                        let mut write = note.accept(state);
                        write.record.created_at = ticks.next();
                        thread::sleep(std::time::Duration::from_millis(1));
                        Ok(write)
                    })
                    .expect("remember succeeds");
                }
            });
        }
        for _ in 0..20 {
            let mut pin = None;
            // The clock moves past the instant before any remember may go on.
            b.between_writes(&alice, &mut || pin = Some(ticks.next()))
                .expect("between_writes succeeds");
            let pin = pin.expect("settle ran");
            pins.lock().unwrap().push((pin, valid_ids(&b, &alice, pin)));
            thread::sleep(std::time::Duration::from_millis(2));
        }
        stop.store(true, Ordering::SeqCst);
    });
    for (pin, before) in pins.into_inner().unwrap() {
        assert_eq!(
            valid_ids(&b, &alice, pin),
            before,
            "a version committed after between_writes took an instant at or before {pin:?}"
        );
    }
}

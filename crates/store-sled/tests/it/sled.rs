//! `SledBackend`: the whole conformance suite on a database in a temporary directory (Eventual
//! durability, so that the model-based test's thousand cases run fast), the races and a model
//! run with Immediate durability, reopening, the format-version check, length-delimited tenancy
//! keys, and forgets, purges and deletions racing remembers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use memory_core::{AgentMemoryId, CredentialId, Settings, Timestamp};
use store_conformance::{self as conformance, Guarded};
use store_sled::SledBackend;
use store_trait::{Backend, Database, Durability, Error, Owner, ScanQuery, StorageFailure};
use tempfile::TempDir;

use store_durable_suite::crash::{Remember, at, owner, probe};

/// A fresh backend in its own temporary directory, which outlives it.
fn fresh(durability: Durability) -> Guarded<SledBackend, TempDir> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let backend = SledBackend::open(dir.path().join("db"), durability).expect("open");
    Guarded {
        backend,
        guard: dir,
    }
}

fn eventual() -> Guarded<SledBackend, TempDir> {
    fresh(Durability::Eventual)
}

/// One `#[test]` per conformance check, the model-based test at `CONFORMANCE_CASES` (default
/// 1,000) cases and the three races included.
mod conformance_eventual {
    store_conformance::conformance_tests!(super::eventual);
}

#[test]
fn immediate_durability_passes_the_races_and_the_model() {
    let immediate = || fresh(Durability::Immediate);
    conformance::race_quota_edge(&immediate);
    conformance::race_rate_limit_edge(&immediate);
    conformance::race_one_key(&immediate);
    conformance::model_matches_backend_with(&immediate, 16);
}

fn everything(valid_at: Timestamp) -> ScanQuery {
    ScanQuery::new(valid_at, Timestamp::MIN, usize::MAX)
}

fn remember(backend: &SledBackend, o: &Owner, key: Option<&str>, id: &str, ms: i64) {
    Remember {
        owner: o,
        credential: &CredentialId::new("cred_a").unwrap(),
        namespace: "prefs",
        key,
        id,
        created_at: at(ms),
        window_ms: 1_000,
    }
    .run(backend)
    .unwrap();
}

#[test]
fn everything_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let alice = &owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let cred = CredentialId::new("cred_a").unwrap();
    let settings = Settings {
        agent_memories_enabled: true,
        retention_days: 30,
    };

    let (before, alice_window) = {
        let backend = SledBackend::open(&path, Durability::Immediate).unwrap();
        remember(&backend, alice, Some("tone"), "amem_1", 10);
        remember(&backend, alice, Some("tone"), "amem_2", 20);
        remember(&backend, alice, Some("tone"), "amem_3", 30);
        remember(&backend, alice, None, "amem_4", 40);
        remember(&backend, alice, Some("gone"), "amem_5", 50);
        remember(&backend, &bob, Some("tone"), "amem_6", 60);
        remember(&backend, alice, Some("old"), "amem_7", 5);
        assert_eq!(backend.forget_key(alice, "prefs", "gone").unwrap().len(), 1);
        // A purge keeps the key's numbering but leaves it without a current version.
        assert_eq!(backend.purge_expired(&alice.workspace, at(5)).unwrap(), 1);
        backend.put_settings(&alice.workspace, &settings).unwrap();
        let before = backend.scan(alice, &everything(at(25))).unwrap();
        (before, probe(&backend, alice, &cred, None).window)
    };

    let backend = SledBackend::open(&path, Durability::Eventual).unwrap();
    assert_eq!(backend.durability(), Some(Durability::Eventual));
    assert_eq!(backend.path(), path);
    assert_eq!(backend.scan(alice, &everything(at(25))).unwrap(), before);
    let now = backend.scan(alice, &everything(at(100))).unwrap();
    let ids: Vec<&str> = now.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["amem_4", "amem_3"]);
    let v2 = backend
        .get(alice, &AgentMemoryId::parse("amem_2").unwrap())
        .unwrap()
        .expect("superseded version kept");
    assert_eq!((v2.version, v2.superseded_at), (2, Some(at(30))));
    assert_eq!(
        backend.current_of_key(alice, "prefs", "tone").unwrap(),
        Some(now[1].clone())
    );
    assert_eq!(backend.current_of_key(alice, "prefs", "old").unwrap(), None);
    assert_eq!(backend.stored_versions(alice, Timestamp::MIN).unwrap(), 4);
    assert_eq!(backend.stored_versions(alice, at(20)).unwrap(), 2);
    assert_eq!(backend.stored_versions(&bob, Timestamp::MIN).unwrap(), 1);
    assert_eq!(backend.settings(&alice.workspace).unwrap(), Some(settings));
    assert_eq!(probe(&backend, alice, &cred, None).window, alice_window);
    let tone = probe(&backend, alice, &cred, Some(("prefs", "tone")));
    assert_eq!((tone.last_version, tone.stored_versions), (3, 4));
    // The forgotten key starts again at 1, the purged one continues.
    assert_eq!(
        probe(&backend, alice, &cred, Some(("prefs", "gone"))).last_version,
        0
    );
    assert_eq!(
        probe(&backend, alice, &cred, Some(("prefs", "old"))).last_version,
        1
    );
}

/// Rewrites the format record in sled's default tree directly.
fn set_format_version(path: &std::path::Path, version: u32) {
    let db = raw_open(path);
    db.insert("store-trait/format", &version.to_be_bytes()[..])
        .unwrap();
    db.flush().unwrap();
}

#[test]
fn another_format_version_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let alice = &owner("ws1", "alice");
    {
        let backend = SledBackend::open(&path, Durability::Immediate).unwrap();
        remember(&backend, alice, Some("tone"), "amem_1", 0);
    }
    set_format_version(&path, 8);
    let err = SledBackend::open(&path, Durability::Immediate).expect_err("format 8 refused");
    assert!(matches!(err, Error::Format(_)), "{err}");
    assert!(err.to_string().contains("format version 8"), "{err}");
    assert!(err.to_string().contains("format version 7"), "{err}");
    {
        let db = raw_open(&path);
        assert_eq!(
            db.get("store-trait/format").unwrap().as_deref(),
            Some(&8_u32.to_be_bytes()[..]),
            "the refused open rewrote the format record"
        );
    }
    set_format_version(&path, 7);
    let backend = SledBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(backend.stored_versions(alice, Timestamp::MIN).unwrap(), 1);
}

#[test]
fn a_foreign_sled_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    {
        let db = raw_open(&path);
        db.open_tree("other").unwrap().insert("k", "v").unwrap();
        db.flush().unwrap();
    }
    let err = SledBackend::open(&path, Durability::Immediate).expect_err("refused");
    assert!(matches!(err, Error::Format(_)), "{err}");
    let db = raw_open(&path);
    assert_eq!(db.get("store-trait/format").unwrap(), None);
}

/// With plain concatenation ("a" + "bc" = "ab" + "c") these owners would share keys.
#[test]
fn owners_whose_names_concatenate_alike_are_isolated() {
    let guarded = eventual();
    let b = &guarded.backend;
    let first = owner("a", "bc");
    let second = owner("ab", "c");
    let third = owner("a", "b");
    remember(b, &first, Some("k"), "amem_1", 1);
    remember(b, &second, Some("k"), "amem_2", 2);
    remember(b, &third, None, "amem_3", 3);
    for (o, id) in [(&first, "amem_1"), (&second, "amem_2"), (&third, "amem_3")] {
        let all = b.scan(o, &everything(Timestamp::MAX)).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].id.as_str(), id);
        assert_eq!(b.stored_versions(o, Timestamp::MIN).unwrap(), 1);
    }
    assert_eq!(b.delete_workspace(&first.workspace).unwrap(), 2);
    assert_eq!(b.stored_versions(&second, Timestamp::MIN).unwrap(), 1);
    assert_eq!(
        b.current_of_key(&second, "prefs", "k")
            .unwrap()
            .unwrap()
            .version,
        1
    );
}

/// Forgets, purges and deletions scan outside their transaction; with remembers racing them
/// the indexes must still agree with the stored versions afterwards.
#[test]
fn forgets_purges_and_deletions_racing_remembers_keep_the_indexes_exact() {
    let guarded = eventual();
    let b = &guarded.backend;
    let alice = &owner("ws1", "alice");
    let next = AtomicU64::new(0);
    thread::scope(|scope| {
        for writer in 0..3 {
            let next = &next;
            scope.spawn(move || {
                for i in 0..150 {
                    let n = next.fetch_add(1, Ordering::SeqCst);
                    let key = ["k0", "k1"].get((i + writer) % 3).copied();
                    remember(b, alice, key, &format!("amem_{n:06}"), n as i64);
                }
            });
        }
        scope.spawn(move || {
            for i in 0..60_u64 {
                match i % 5 {
                    0 => drop(b.forget_key(alice, "prefs", "k0").unwrap()),
                    1 => drop(
                        b.purge_expired(&alice.workspace, at((i * 6) as i64))
                            .unwrap(),
                    ),
                    2 => drop(
                        b.forget_id(
                            alice,
                            &AgentMemoryId::parse(format!("amem_{:06}", i * 7)).unwrap(),
                        )
                        .unwrap(),
                    ),
                    3 => drop(b.delete_owner(alice).unwrap()),
                    _ => drop(b.delete_workspace(&alice.workspace).unwrap()),
                }
            }
        });
    });

    let issued = next.into_inner();
    let stored: Vec<_> = (0..issued)
        .filter_map(|n| {
            b.get(
                alice,
                &AgentMemoryId::parse(format!("amem_{n:06}")).unwrap(),
            )
            .unwrap()
        })
        .collect();
    assert_eq!(
        b.stored_versions(alice, Timestamp::MIN).unwrap(),
        stored.len() as u64
    );
    assert_eq!(
        b.stored_versions(alice, at(200)).unwrap(),
        stored.iter().filter(|m| m.created_at > at(200)).count() as u64
    );
    let cred = CredentialId::new("cred_a").unwrap();
    for key in ["k0", "k1"] {
        let mut of_key: Vec<_> = stored
            .iter()
            .filter(|m| m.key.as_deref() == Some(key))
            .cloned()
            .collect();
        of_key.sort_by(|x, y| (y.created_at, &y.id).cmp(&(x.created_at, &x.id)));
        let current = b.current_of_key(alice, "prefs", key).unwrap();
        assert!(current.iter().all(|c| c.superseded_at.is_none()));
        assert!(
            of_key.iter().filter(|m| m.superseded_at.is_none()).count() <= 1,
            "more than one unsuperseded version of {key}"
        );
        let state = probe(b, alice, &cred, Some(("prefs", key)));
        assert!(of_key.iter().all(|m| m.version <= state.last_version));
        assert_eq!(b.forget_key(alice, "prefs", key).unwrap(), of_key);
    }
    let keyless = stored.iter().filter(|m| m.key.is_none()).count() as u64;
    assert_eq!(b.stored_versions(alice, Timestamp::MIN).unwrap(), keyless);
    assert_eq!(b.delete_owner(alice).unwrap(), keyless);
    assert_eq!(b.stored_versions(alice, Timestamp::MIN).unwrap(), 0);
}

/// `decide` runs inside sled's transaction, under its process-wide lock: a panic in it must
/// release the lock and write nothing.
#[test]
fn a_panicking_decision_writes_nothing_and_leaves_the_backend_usable() {
    let guarded = eventual();
    let b = &guarded.backend;
    let alice = &owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        b.remember(
            alice,
            &cred,
            Some(("prefs", "k")),
            Timestamp::MIN,
            Timestamp::MIN,
            &mut |_| panic!("decision failed"),
        )
    }));
    assert!(panicked.is_err());
    let state = probe(b, alice, &cred, Some(("prefs", "k")));
    assert_eq!((state.stored_versions, state.last_version), (0, 0));
    assert!(state.window.is_empty());
    remember(b, alice, Some("k"), "amem_1", 1);
    assert_eq!(b.stored_versions(alice, Timestamp::MIN).unwrap(), 1);
}

#[test]
fn debug_shows_no_content() {
    let guarded = eventual();
    let debug = format!("{:?}", guarded.backend);
    assert!(debug.starts_with("KvBackend(SledKv { path: "), "{debug}");
    assert!(debug.ends_with("durability: Eventual })"), "{debug}");
}

/// Opens the directory with sled itself, waiting (bounded) for a handle dropped just before to
/// release sled's file lock, which sled does from a background thread.
fn raw_open(path: &std::path::Path) -> ::sled::Db {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match ::sled::open(path) {
            Ok(db) => return db,
            Err(e)
                if std::time::Instant::now() < deadline
                    && e.to_string().contains("could not acquire lock") =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("sled opens {}: {e}", path.display()),
        }
    }
}

#[test]
fn a_database_open_elsewhere_is_a_locked_failure_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let _first = SledBackend::open(&path, Durability::Immediate).unwrap();
    // (Waits two seconds for the lock, as a reopen in one process must.)
    let err = SledBackend::open(&path, Durability::Immediate).unwrap_err();
    assert_eq!(err.failure(), StorageFailure::Locked, "{err}");
    let cause = std::error::Error::source(&err).expect("the cause is kept");
    assert!(
        cause.downcast_ref::<::sled::Error>().is_some(),
        "sled's own error: {cause}"
    );
}

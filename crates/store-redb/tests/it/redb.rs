//! `RedbBackend`: the whole conformance suite on a database in a temporary directory (Eventual
//! durability, so that the model-based test's thousand cases run fast), the races and a model
//! run with Immediate durability, reopening, and the format-version check.

use memory_core::{CredentialId, Timestamp};
use store_conformance::{self as conformance, Guarded};
use store_redb::RedbBackend;
use store_trait::{Backend, Database, Durability, Error, ScanQuery, StorageFailure};
use tempfile::TempDir;

use store_durable_suite::crash::{Remember, at, owner, probe};

const FILE: &str = "store.redb";

/// A fresh backend in its own temporary directory, which outlives it.
fn fresh(durability: Durability) -> Guarded<RedbBackend, TempDir> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let backend = RedbBackend::create(dir.path().join(FILE), durability).expect("create");
    Guarded {
        backend,
        guard: dir,
    }
}

fn eventual() -> Guarded<RedbBackend, TempDir> {
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

#[test]
fn everything_survives_a_reopen() {
    store_durable_suite::crash::everything_survives_a_reopen(
        FILE,
        |path| RedbBackend::create(path, Durability::Immediate).unwrap(),
        |path| RedbBackend::open(path, Durability::Immediate).unwrap(),
    );
}

/// Rewrites the format record of the database at `path` with redb directly.
fn set_format_version(path: &std::path::Path, version: u32) {
    let db = ::redb::Database::open(path).unwrap();
    let txn = db.begin_write().unwrap();
    {
        let mut meta = txn
            .open_table(::redb::TableDefinition::<&str, u32>::new("meta"))
            .unwrap();
        meta.insert("format_version", version).unwrap();
    }
    txn.commit().unwrap();
}

#[test]
fn another_format_version_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    {
        let backend = RedbBackend::create(&path, Durability::Immediate).unwrap();
        Remember {
            owner: &alice,
            credential: &cred,
            namespace: "prefs",
            key: Some("tone"),
            id: "amem_1",
            created_at: at(0),
            window_ms: 1_000,
        }
        .run(&backend)
        .unwrap();
    }
    set_format_version(&path, 9);
    for opened in [
        RedbBackend::open(&path, Durability::Immediate),
        RedbBackend::create(&path, Durability::Eventual),
    ] {
        let err = opened.expect_err("format 9 refused");
        assert!(matches!(err, Error::Format(_)), "{err}");
        assert!(err.to_string().contains("format version 9"), "{err}");
    }
    // Format 7, the one before the journal, is upgraded by an open.
    set_format_version(&path, 7);
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
}

#[test]
fn files_that_are_not_stores_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.redb");
    let err = RedbBackend::open(&missing, Durability::Immediate).unwrap_err();
    assert!(matches!(err, Error::Storage { .. }), "{err}");
    assert!(
        std::error::Error::source(&err).is_some(),
        "the cause is kept"
    );
    assert!(!missing.exists(), "open created a file");

    // A redb database of something else: tables, but no format record.
    let foreign = dir.path().join("foreign.redb");
    {
        let db = ::redb::Database::create(&foreign).unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(::redb::TableDefinition::<u64, u64>::new("other"))
            .unwrap();
        txn.commit().unwrap();
    }
    for opened in [
        RedbBackend::open(&foreign, Durability::Immediate),
        RedbBackend::create(&foreign, Durability::Immediate),
    ] {
        assert!(matches!(opened, Err(Error::Format(_))));
    }

    // An empty file is initialized by `create` (and only by `create`).
    let empty = dir.path().join("empty.redb");
    std::fs::write(&empty, b"").unwrap();
    let backend = RedbBackend::create(&empty, Durability::Eventual).unwrap();
    assert_eq!(backend.path(), empty);
    assert_eq!(backend.durability(), Some(Durability::Eventual));
    drop(backend);
    RedbBackend::open(&empty, Durability::Immediate).unwrap();
}

#[test]
fn debug_shows_no_content() {
    let guarded = eventual();
    let debug = format!("{:?}", guarded.backend);
    assert!(debug.starts_with("KvBackend(RedbKv { path: "), "{debug}");
    assert!(
        debug.ends_with("durability: Eventual, read_only: false })"),
        "{debug}"
    );
}

#[test]
fn a_panicking_decision_writes_nothing_and_leaves_the_backend_usable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let note = |id| Remember {
        owner: &alice,
        credential: &cred,
        namespace: "prefs",
        key: Some("tone"),
        id,
        created_at: at(0),
        window_ms: 1_000,
    };
    {
        let backend = RedbBackend::create(&path, Durability::Immediate).unwrap();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            backend.remember(
                &alice,
                &cred,
                Some(("prefs", "tone")),
                Timestamp::MIN,
                Timestamp::MIN,
                &mut |_| panic!("decision failed"),
            )
        }));
        assert!(panicked.is_err());
        assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 0);
        assert!(probe(&backend, &alice, &cred, None).window.is_empty());
        note("amem_1").run(&backend).unwrap();
    }
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
    assert_eq!(note("amem_2").run(&backend).unwrap().version, 2);
}

#[test]
fn a_database_open_elsewhere_is_a_locked_failure_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let _first = RedbBackend::create(&path, Durability::Immediate).unwrap();
    for err in [
        RedbBackend::open(&path, Durability::Immediate).unwrap_err(),
        RedbBackend::open_read_only(&path).unwrap_err(),
    ] {
        assert_eq!(err.failure(), StorageFailure::Locked, "{err}");
        let cause = std::error::Error::source(&err).expect("the cause is kept");
        assert!(
            cause.downcast_ref::<::redb::Error>().is_some(),
            "redb's own error: {cause}"
        );
    }
}

#[test]
fn a_read_only_open_reads_and_refuses_every_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let remember = |id: &'static str, ms: i64| Remember {
        owner: &alice,
        credential: &cred,
        namespace: "prefs",
        key: Some("tone"),
        id,
        created_at: at(ms),
        window_ms: 1_000,
    };
    {
        let backend = RedbBackend::create(&path, Durability::Immediate).unwrap();
        remember("amem_1", 10).run(&backend).unwrap();
    }
    let bytes = std::fs::read(&path).unwrap();
    let backend = RedbBackend::open_read_only(&path).unwrap();
    let page = backend.scan(&alice, &everything(at(100))).unwrap();
    assert_eq!(page.len(), 1);
    let write = remember("amem_2", 20).run(&backend).unwrap_err();
    assert_eq!(write.failure(), StorageFailure::ReadOnly, "{write}");
    let vacuum = backend.vacuum(&|_, _| {}).unwrap_err();
    assert_eq!(vacuum.failure(), StorageFailure::ReadOnly, "{vacuum}");
    // Two readers at once are fine; the file is never written.
    let second = RedbBackend::open_read_only(&path).unwrap();
    assert_eq!(second.scan(&alice, &everything(at(100))).unwrap().len(), 1);
    drop((backend, second));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the file is untouched"
    );
}

#[test]
fn operating_system_errors_are_classified_by_kind() {
    use std::io::{Error as Io, ErrorKind};
    for (kind, failure) in [
        (ErrorKind::StorageFull, StorageFailure::Full),
        (ErrorKind::QuotaExceeded, StorageFailure::Full),
        (ErrorKind::FileTooLarge, StorageFailure::Full),
        (ErrorKind::ReadOnlyFilesystem, StorageFailure::ReadOnly),
        (ErrorKind::PermissionDenied, StorageFailure::ReadOnly),
        (ErrorKind::UnexpectedEof, StorageFailure::Other),
    ] {
        let err = Error::io("writing", Io::from(kind));
        assert_eq!(err.failure(), failure, "{kind:?}");
        assert_eq!(err.to_string(), "storage backend failed: writing");
    }
    // ENOSPC and EROFS as the operating system reports them.
    assert_eq!(
        StorageFailure::of_io(&Io::from_raw_os_error(28)),
        StorageFailure::Full
    );
    assert_eq!(
        StorageFailure::of_io(&Io::from_raw_os_error(30)),
        StorageFailure::ReadOnly
    );
}

/// The journal beside the database at `db`.
fn journal_of(db: &std::path::Path) -> std::path::PathBuf {
    let mut path = db.as_os_str().to_owned();
    path.push(".journal");
    std::path::PathBuf::from(path)
}

/// `n` keyless remembers of `alice` numbered from `from`, each acknowledged.
fn remember_n(backend: &RedbBackend, from: usize, n: usize) {
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    for i in from..from + n {
        let id = format!("amem_{i}");
        Remember {
            owner: &alice,
            credential: &cred,
            namespace: "prefs",
            key: None,
            id: &id,
            created_at: at(i as i64),
            window_ms: 1_000,
        }
        .run(backend)
        .unwrap();
    }
}

fn versions_of_alice(backend: &RedbBackend) -> u64 {
    backend
        .stored_versions(&owner("ws1", "alice"), Timestamp::MIN)
        .unwrap()
}

/// The file as redb last synced it and the journal as the writes left it: what a crash leaves
/// when redb loses every commit it had not synced itself (the journal's records were synced).
#[test]
fn the_journal_brings_back_what_the_file_lost_and_a_torn_tail_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let lost = tempfile::tempdir().unwrap();
    let copy = lost.path().join(FILE);
    let backend = RedbBackend::create(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 0, 5);
    // A durable state of five versions: a clean close checkpoints and removes the journal.
    drop(backend);
    assert!(
        !journal_of(&path).exists(),
        "a clean close leaves no journal"
    );
    std::fs::copy(&path, &copy).unwrap();
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 5, 40);
    assert_eq!(versions_of_alice(&backend), 45);
    // The journal of those 40 beside the file of the 5, plus half a record of garbage.
    let mut records = std::fs::read(journal_of(&path)).unwrap();
    // The records' end: each is a 32-byte header (its payload's length at bytes 4..8) and the
    // payload; the zeros the journal grew by follow. (A record may itself end in a zero byte.)
    let mut end = 0;
    while records[end..].starts_with(b"GMJ2") {
        let len = u32::from_le_bytes(records[end + 4..end + 8].try_into().unwrap());
        end += 32 + len as usize;
    }
    records.truncate(end);
    records.extend_from_slice(b"GMJ1\x10\x00\x00\x00");
    std::fs::write(journal_of(&copy), &records).unwrap();
    drop(backend);

    let err = RedbBackend::open_read_only(&copy).expect_err("pending records");
    assert!(matches!(err, Error::Format(_)), "{err}");
    assert!(err.to_string().contains("open it read-write once"), "{err}");
    let reopened = RedbBackend::open(&copy, Durability::Immediate).unwrap();
    assert_eq!(
        versions_of_alice(&reopened),
        45,
        "every journaled write is back"
    );
    remember_n(&reopened, 45, 3);
    drop(reopened);
    let read_only = RedbBackend::open_read_only(&copy).unwrap();
    assert_eq!(versions_of_alice(&read_only), 48);
}

/// A journal that does not continue the file (its records start after a gap) is refused, not
/// applied; a journal of another database is never applied.
#[test]
fn a_journal_that_skips_records_is_refused_and_another_databases_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let other = tempfile::tempdir().unwrap();
    let copy = other.path().join(FILE);
    // The copy: the database before any write. The journal: records 6 and 7, after five
    // writes a clean close made durable.
    drop(RedbBackend::create(&path, Durability::Immediate).unwrap());
    std::fs::copy(&path, &copy).unwrap();
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 0, 5);
    drop(backend);
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 5, 2);
    std::fs::copy(journal_of(&path), journal_of(&copy)).unwrap();
    drop(backend);
    let err = RedbBackend::open(&copy, Durability::Immediate).expect_err("a gap");
    assert!(matches!(err, Error::Format(_)), "{err}");
    assert!(err.to_string().contains("another copy"), "{err}");
    // Refused without a write: the copy still holds nothing once the journal is gone.
    std::fs::remove_file(journal_of(&copy)).unwrap();
    let reopened = RedbBackend::open(&copy, Durability::Immediate).unwrap();
    assert_eq!(versions_of_alice(&reopened), 0);
    drop(reopened);

    // A database created anew under a name whose old journal is still there.
    let fresh = other.path().join("fresh.redb");
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 7, 3);
    std::fs::copy(journal_of(&path), journal_of(&fresh)).unwrap();
    drop(backend);
    let created = RedbBackend::create(&fresh, Durability::Immediate).unwrap();
    assert_eq!(
        versions_of_alice(&created),
        0,
        "another database's journal applied"
    );
    remember_n(&created, 0, 1);
    drop(created);
    let reopened = RedbBackend::open(&fresh, Durability::Immediate).unwrap();
    assert_eq!(versions_of_alice(&reopened), 1);
}

/// With Eventual durability nothing is journaled; a journal left by a durable run is applied on
/// open and removed.
#[test]
fn an_eventual_open_applies_and_removes_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let lost = tempfile::tempdir().unwrap();
    let copy = lost.path().join(FILE);
    drop(RedbBackend::create(&path, Durability::Immediate).unwrap());
    std::fs::copy(&path, &copy).unwrap();
    let backend = RedbBackend::open(&path, Durability::Immediate).unwrap();
    remember_n(&backend, 0, 7);
    std::fs::copy(journal_of(&path), journal_of(&copy)).unwrap();
    drop(backend);
    let reopened = RedbBackend::open(&copy, Durability::Eventual).unwrap();
    assert_eq!(versions_of_alice(&reopened), 7);
    assert!(!journal_of(&copy).exists());
    remember_n(&reopened, 7, 2);
    assert!(!journal_of(&copy).exists(), "nothing journaled");
}

/// Writes past the journal's capacity (8 MiB) make a commit a checkpoint and the journal start
/// over: it stays within its capacity, and a copy of the files taken while the backend is open
/// — the state a crash would leave — holds every write.
#[test]
fn a_full_journal_checkpoints_and_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let long = memory_core::MemoryText::mask(&"quokka ".repeat(14_000)).0;
    let backend = RedbBackend::create(&path, Durability::Immediate).unwrap();
    for i in 0..100 {
        let id = format!("amem_{i}");
        let remember = Remember {
            owner: &alice,
            credential: &cred,
            namespace: "prefs",
            key: None,
            id: &id,
            created_at: at(i),
            window_ms: 1_000,
        };
        backend
            .remember(
                &alice,
                &cred,
                None,
                Timestamp::MIN,
                Timestamp::MIN,
                &mut |state| {
                    let mut write = remember.accept(state);
                    write.record.text = long.clone();
                    Ok(write)
                },
            )
            .unwrap();
    }
    let size = std::fs::metadata(journal_of(&path)).unwrap().len();
    assert!(size <= 8 << 20, "the journal grew to {size} bytes");
    let copy_dir = tempfile::tempdir().unwrap();
    let copy = copy_dir.path().join(FILE);
    std::fs::copy(&path, &copy).unwrap();
    std::fs::copy(journal_of(&path), journal_of(&copy)).unwrap();
    drop(backend);
    let reopened = RedbBackend::open(&copy, Durability::Immediate).unwrap();
    assert_eq!(versions_of_alice(&reopened), 100);
}

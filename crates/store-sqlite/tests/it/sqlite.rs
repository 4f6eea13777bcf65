//! `SqliteBackend`: the whole conformance suite on a database in a temporary directory (Eventual
//! durability, so that the model-based test's thousand cases run fast), the races and a model
//! run with Immediate durability, reopening, the format-version check, several handles on one
//! file, and two OS processes racing at the rate-limit edge.

use std::process::{Command, Stdio};
use std::thread;

use memory_core::{ApiError, CredentialId, ErrorCode, Timestamp};
use store_conformance::{self as conformance, Guarded};
use store_sqlite::SqliteBackend;
use store_trait::{Backend, Database, Durability, Error, RememberOutcome};
use tempfile::TempDir;

use store_durable_suite::crash::{Remember, at, owner, probe};

const FILE: &str = "store.sqlite";

/// A fresh backend in its own temporary directory, which outlives it.
fn fresh(durability: Durability) -> Guarded<SqliteBackend, TempDir> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let backend = SqliteBackend::create(dir.path().join(FILE), durability).expect("create");
    Guarded {
        backend,
        guard: dir,
    }
}

fn eventual() -> Guarded<SqliteBackend, TempDir> {
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

#[test]
fn everything_survives_a_reopen() {
    store_durable_suite::crash::everything_survives_a_reopen(
        FILE,
        |path| SqliteBackend::create(path, Durability::Immediate).unwrap(),
        |path| SqliteBackend::open(path, Durability::Immediate).unwrap(),
    );
}

/// Rewrites the format record of the database at `path` with SQLite directly.
fn set_format_version(path: &std::path::Path, version: u32) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute(
        "UPDATE kv SET value = ?1 WHERE key = ?2",
        rusqlite::params![version.to_be_bytes(), b"\0format_version"],
    )
    .unwrap();
}

#[test]
fn another_format_version_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    {
        let backend = SqliteBackend::create(&path, Durability::Immediate).unwrap();
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
    set_format_version(&path, 5);
    for opened in [
        SqliteBackend::open(&path, Durability::Immediate),
        SqliteBackend::create(&path, Durability::Eventual),
    ] {
        let err = opened.expect_err("format 5 refused");
        assert!(matches!(err, Error::Format(_)), "{err}");
        assert!(err.to_string().contains("format version 5"), "{err}");
    }
    set_format_version(&path, 4);
    let backend = SqliteBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
}

#[test]
fn files_that_are_not_stores_are_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.sqlite");
    let err = SqliteBackend::open(&missing, Durability::Immediate).unwrap_err();
    assert!(matches!(err, Error::Storage { .. }), "{err}");
    assert!(
        std::error::Error::source(&err).is_some(),
        "the cause is kept"
    );
    assert!(!missing.exists(), "open created a file");

    // A SQLite database of something else: tables, but no format record.
    let foreign = dir.path().join("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE other (x INTEGER);")
        .unwrap();
    let bytes = std::fs::read(&foreign).unwrap();
    for opened in [
        SqliteBackend::open(&foreign, Durability::Immediate),
        SqliteBackend::create(&foreign, Durability::Immediate),
    ] {
        assert!(matches!(opened, Err(Error::Format(_))));
    }
    assert_eq!(std::fs::read(&foreign).unwrap(), bytes);

    // Not a database at all.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, [b'x'; 4096]).unwrap();
    let err = SqliteBackend::create(&text, Durability::Immediate).unwrap_err();
    assert!(matches!(err, Error::Format(_)), "{err}");
    assert_eq!(std::fs::read(&text).unwrap(), [b'x'; 4096]);

    // An empty file is initialized by `create` (and only by `create`).
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    assert!(matches!(
        SqliteBackend::open(&empty, Durability::Immediate),
        Err(Error::Format(_))
    ));
    let backend = SqliteBackend::create(&empty, Durability::Eventual).unwrap();
    assert_eq!(backend.path(), empty);
    assert_eq!(backend.durability(), Some(Durability::Eventual));
    drop(backend);
    SqliteBackend::open(&empty, Durability::Immediate).unwrap();
}

#[test]
fn debug_shows_no_content() {
    let guarded = eventual();
    let debug = format!("{:?}", guarded.backend);
    assert!(debug.starts_with("KvBackend(SqliteKv { path: "), "{debug}");
    assert!(debug.ends_with("durability: Eventual })"), "{debug}");
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
        let backend = SqliteBackend::create(&path, Durability::Immediate).unwrap();
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
    let backend = SqliteBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
    assert_eq!(note("amem_2").run(&backend).unwrap().version, 2);
}

#[test]
fn handles_on_one_file_see_each_others_writes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let first = SqliteBackend::create(&path, Durability::Immediate).unwrap();
    let second = SqliteBackend::open(&path, Durability::Immediate).unwrap();
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let note = |id: &'static str, ms| Remember {
        owner: &alice,
        credential: &cred,
        namespace: "prefs",
        key: Some("tone"),
        id,
        created_at: at(ms),
        window_ms: 1_000,
    };
    note("amem_1", 10).run(&first).unwrap();
    assert_eq!(note("amem_2", 20).run(&second).unwrap().version, 2);
    let current = first.current_of_key(&alice, "prefs", "tone").unwrap();
    assert_eq!(current.unwrap().id.as_str(), "amem_2");
    assert_eq!(first.stored_versions(&alice, Timestamp::MIN).unwrap(), 2);
}

// ---- Two OS processes on one file ----

/// Set in a child: `<database path>:<tag>`.
const CHILD: &str = "STORE_TRAIT_SQLITE_CHILD";
/// Remembers each process attempts, and the limit they race at.
const ATTEMPTS: usize = 80;
const LIMIT: usize = 120;
/// Threads per process, so that the processes' writes interleave.
const THREADS: usize = 4;

/// The child's part: `ATTEMPTS` keyless remembers by one credential at one instant, split over
/// `THREADS` threads, each refused once the window holds `LIMIT`; prints how many were accepted.
fn rate_limit_child(spec: &str) -> ! {
    let (path, tag) = spec.rsplit_once(':').expect("child spec");
    let backend = SqliteBackend::open(path, Durability::Immediate).expect("child open");
    // Start together: the parent creates the go file once both children run.
    let go = std::path::PathBuf::from(format!("{path}.go"));
    while !go.exists() {
        thread::sleep(std::time::Duration::from_millis(1));
    }
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_shared").unwrap();
    let accepted: usize = thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (backend, alice, cred) = (&backend, &alice, &cred);
                s.spawn(move || {
                    let mut accepted = 0;
                    for i in (t..ATTEMPTS).step_by(THREADS) {
                        let id = format!("amem_{tag}_{i}");
                        let remember = Remember {
                            owner: alice,
                            credential: cred,
                            namespace: "notes",
                            key: None,
                            id: &id,
                            created_at: at(0),
                            window_ms: 3_600_000,
                        };
                        let outcome = backend
                            .remember(
                                alice,
                                cred,
                                None,
                                at(-3_600_000),
                                Timestamp::MIN,
                                &mut |state| {
                                    if state.window.len() >= LIMIT {
                                        return Err(ApiError::from(
                                            ErrorCode::AgentMemoryRateLimited,
                                        ));
                                    }
                                    Ok(remember.accept(state))
                                },
                            )
                            .expect("remember");
                        if matches!(outcome, RememberOutcome::Written { .. }) {
                            accepted += 1;
                        }
                    }
                    accepted
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    println!("accepted {accepted}");
    std::process::exit(0);
}

#[test]
fn two_processes_racing_at_the_rate_limit_edge_accept_exactly_the_limit() {
    if let Ok(spec) = std::env::var(CHILD) {
        rate_limit_child(&spec);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let backend = SqliteBackend::create(&path, Durability::Immediate).unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["p1", "p2"]
        .iter()
        .map(|tag| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "sqlite::two_processes_racing_at_the_rate_limit_edge_accept_exactly_the_limit",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(CHILD, format!("{}:{tag}", path.display()))
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::fs::write(dir.path().join(format!("{FILE}.go")), b"").unwrap();
    let mut per_process = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "child failed: {:?}", out.status);
        let stdout = String::from_utf8(out.stdout).unwrap();
        let accepted: usize = stdout
            .split("accepted ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no count in the child's output: {stdout}"))
            .parse()
            .unwrap();
        per_process.push(accepted);
    }
    println!("accepted per process: {per_process:?}");
    assert_eq!(per_process.iter().sum::<usize>(), LIMIT, "{per_process:?}");
    let alice = owner("ws1", "alice");
    assert_eq!(
        backend.stored_versions(&alice, Timestamp::MIN).unwrap(),
        LIMIT as u64
    );
    let cred = CredentialId::new("cred_shared").unwrap();
    assert_eq!(probe(&backend, &alice, &cred, None).window.len(), LIMIT);
    // The vacuum needs no other process to be gone: the children have exited.
    backend.vacuum(&|_, _| {}).unwrap();
}

/// The decoded history a handle keeps is used only under the generation it was read at: a
/// write, a supersede and a forget through another handle on the same file (as another process
/// would make them) show in the first handle's next read at once.
#[test]
fn a_cached_history_never_hides_another_handles_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let reader = SqliteBackend::create(&path, Durability::Immediate).unwrap();
    let writer = SqliteBackend::open(&path, Durability::Immediate).unwrap();
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let remember = |id: &str, key: Option<&'static str>, ms: i64| {
        Remember {
            owner: &alice,
            credential: &cred,
            namespace: "prefs",
            key,
            id,
            created_at: at(ms),
            window_ms: 1_000_000,
        }
        .run(&writer)
        .unwrap()
    };
    let rows = |b: &SqliteBackend| {
        let h = b.history(&alice, &[]).unwrap();
        h.versions
            .rows()
            .iter()
            .map(|m| (m.id.to_string(), m.superseded_at.is_some()))
            .collect::<Vec<_>>()
    };
    remember("amem_1", Some("tone"), 0);
    assert_eq!(rows(&reader), [("amem_1".to_owned(), false)]);
    // Read twice: the second answer comes from the cache.
    assert_eq!(rows(&reader), [("amem_1".to_owned(), false)]);
    remember("amem_2", Some("tone"), 10);
    assert_eq!(
        rows(&reader),
        [("amem_2".to_owned(), false), ("amem_1".to_owned(), true)]
    );
    writer
        .forget_id(
            &alice,
            &memory_core::AgentMemoryId::parse("amem_2").unwrap(),
        )
        .unwrap();
    assert_eq!(rows(&reader), []);
    remember("amem_3", None, 20);
    assert_eq!(rows(&reader), [("amem_3".to_owned(), false)]);
}

/// A real race on the generation: one thread remembers through one handle while another reads
/// the history through a second handle on the same file, as fast as it can. Every history read
/// is whole (its statistics agree with its rows, or the read fails), never goes back, and once
/// the writer is done the next read has every note — a history cached under an old generation
/// would keep answering the old count.
#[test]
fn histories_read_while_another_handle_writes_are_whole_and_end_current() {
    const NOTES: usize = 150;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let reader = SqliteBackend::create(&path, Durability::Eventual).unwrap();
    let writer = SqliteBackend::open(&path, Durability::Eventual).unwrap();
    let alice = owner("ws1", "alice");
    let cred = CredentialId::new("cred_a").unwrap();
    let done = std::sync::atomic::AtomicBool::new(false);
    thread::scope(|s| {
        s.spawn(|| {
            for i in 0..NOTES {
                Remember {
                    owner: &alice,
                    credential: &cred,
                    namespace: "notes",
                    key: (i % 3 == 0).then_some("tone"),
                    id: &format!("amem_{i:04}"),
                    created_at: at(i as i64),
                    window_ms: 1_000_000,
                }
                .run(&writer)
                .unwrap();
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let mut last = 0;
        let mut reads = 0;
        loop {
            let finished = done.load(std::sync::atomic::Ordering::SeqCst);
            let h = reader.history(&alice, &[]).unwrap();
            let rows = h.versions.rows().len();
            assert_eq!(h.versions.stats().documents, rows as u64);
            assert!(
                rows >= last,
                "a history went back from {last} to {rows} rows"
            );
            last = rows;
            reads += 1;
            if finished {
                break;
            }
        }
        assert_eq!(last, NOTES, "the read after the writer finished is current");
        assert!(reads > 1);
    });
}

/// Bytes of one WAL frame of a 4 KiB-page database: its 24-byte header and the page.
const WAL_FRAME: u64 = 24 + 4096;

/// Commits `steps` steps, each writing one new key of 6,000 bytes (a leaf and an overflow page,
/// so at least two WAL frames a commit), and returns the largest size the WAL reached.
fn write_pages(backend: &SqliteBackend, wal: &std::path::Path, steps: u32) -> u64 {
    use store_trait::kv::{Kv, KvOp};
    let mut largest = 0;
    for n in 0..steps {
        // Keys of kind `x` are no layout key: the agent-memory layer never reads them.
        let key = [b"x".as_slice(), &n.to_be_bytes()].concat();
        backend
            .kv()
            .step(&mut |_| Ok(((), vec![KvOp::Put(key.clone(), vec![7; 6_000])])))
            .expect("a step commits");
        largest = largest.max(std::fs::metadata(wal).map_or(0, |m| m.len()));
    }
    largest
}

/// Without a sync per commit, the WAL is copied back into the database by a thread of the
/// backend's own once it holds a thousand frames, while the writer goes on: the database file
/// grows with no writer closing or checkpointing it. Without that thread nothing would be
/// copied before eight thousand frames, when the committing thread checkpoints itself.
#[test]
fn without_a_sync_the_wal_is_copied_back_off_the_writers_path() {
    let guarded = fresh(Durability::Eventual);
    let path = guarded.guard.path().join(FILE);
    let wal = guarded.guard.path().join(format!("{FILE}-wal"));
    let before = std::fs::metadata(&path).unwrap().len();
    // About 2,400 frames: past the thread's threshold, far from the committing thread's.
    write_pages(&guarded.backend, &wal, 1_200);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::metadata(&path).unwrap().len() < before + 1_000 * 4096 {
        assert!(
            std::time::Instant::now() < deadline,
            "the database file was not written within 20 s"
        );
        thread::sleep(std::time::Duration::from_millis(20));
    }
    // Everything written is read back, from the database or the WAL.
    use store_trait::kv::Kv;
    let count = guarded
        .backend
        .kv()
        .read(&mut |r| {
            let mut n = 0;
            r.range_keys(b"x", b"y", false, &mut |_| {
                n += 1;
                true
            })?;
            Ok(n)
        })
        .unwrap();
    assert_eq!(count, 1_200);
}

/// However far the checkpoint thread falls behind, the WAL stays bounded: past eight thousand
/// frames the committing thread checkpoints itself (it may find the thread's checkpoint
/// running and try again at its next commit), so over 20,000 frames of commits leave at most
/// a few thousand more than that in the file. With a sync per commit, SQLite's own checkpoint
/// keeps it near a thousand.
#[test]
fn the_wal_stays_bounded_with_or_without_a_sync() {
    for (durability, bound) in [
        (Durability::Eventual, 12_000),
        (Durability::Immediate, 1_500),
    ] {
        let guarded = fresh(durability);
        let wal = guarded.guard.path().join(format!("{FILE}-wal"));
        let largest = write_pages(&guarded.backend, &wal, 10_000);
        assert!(largest >= 1_000 * WAL_FRAME, "the writes went to the WAL");
        assert!(
            largest <= bound * WAL_FRAME,
            "{durability:?}: the WAL reached {} frames",
            largest / WAL_FRAME
        );
    }
}

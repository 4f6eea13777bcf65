//! Erasure you can verify: content removed through the APIs is in the database's files until a
//! vacuum and in none of them afterwards (`store_durable_suite::vacuum`).

use store_durable_suite::crash::owner;
use store_durable_suite::vacuum::{LIVE, markers_in, store_id, vacuum_and_check, write_and_remove};
use store_trait::StoreBackend;

use store_sqlite::SqliteBackend;
use store_trait::Durability;

#[test]
fn sqlite_vacuum_leaves_no_copy_of_removed_content() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("store.sqlite");
    let b = SqliteBackend::create(&file, Durability::Immediate).unwrap();
    let before = write_and_remove(&b, dir.path());
    // The WAL keeps the page images of every commit until a checkpoint truncates it, removed
    // rows' text included.
    assert!(
        before.len() > 1 && before.contains(&LIVE),
        "the scan should see content in the files before the vacuum: {before:?}"
    );
    assert!(
        dir.path().join("store.sqlite-wal").exists(),
        "the scan covers the WAL (and the -shm index)"
    );
    vacuum_and_check(&b, dir.path());
    // The write after the vacuum went to the WAL again: still nothing removed in any file.
    assert_eq!(markers_in(dir.path()), [LIVE]);
    drop(b);
    let reopened = SqliteBackend::open(&file, Durability::Immediate).unwrap();
    assert!(
        reopened
            .get_store(&owner("ws1", "alice").workspace, &store_id(1))
            .unwrap()
            .is_some()
    );
}

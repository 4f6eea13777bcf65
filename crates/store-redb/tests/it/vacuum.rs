//! Erasure you can verify: content removed through the APIs is in the database's files until a
//! vacuum and in none of them afterwards (`store_durable_suite::vacuum`).

use store_durable_suite::crash::owner;
use store_durable_suite::vacuum::{LIVE, store_id, vacuum_and_check, write_and_remove};
use store_trait::StoreBackend;

use store_redb::RedbBackend;
use store_trait::Durability;

#[test]
fn redb_vacuum_leaves_no_copy_of_removed_content() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("store.redb");
    let b = RedbBackend::create(&file, Durability::Immediate).unwrap();
    let before = write_and_remove(&b, dir.path());
    // redb frees the pages of removed records without overwriting them, so the file still
    // holds the removed content: this is what the vacuum is for (and shows the scan works).
    assert!(
        before.len() > 1 && before.contains(&LIVE),
        "the scan should see content in the file before the vacuum: {before:?}"
    );
    vacuum_and_check(&b, dir.path());
    drop(b);
    let reopened = RedbBackend::open(&file, Durability::Immediate).unwrap();
    assert!(
        reopened
            .get_store(&owner("ws1", "alice").workspace, &store_id(1))
            .unwrap()
            .is_some()
    );
}

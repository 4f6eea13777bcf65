//! Erasure you can verify: content removed through the APIs is in the database's files until a
//! vacuum and in none of them afterwards (`store_durable_suite::vacuum`).

use store_durable_suite::crash::owner;
use store_durable_suite::vacuum::{REMOVED, store_id, vacuum_and_check, write_and_remove};
use store_trait::StoreBackend;

use store_sled::SledBackend;
use store_trait::Durability;

#[test]
fn sled_vacuum_leaves_no_copy_of_removed_content() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.sled");
    let b = SledBackend::open(&db, Durability::Immediate).unwrap();
    let before = write_and_remove(&b, dir.path());
    // sled is log-structured: every write is appended, so every removed record is still there.
    assert_eq!(before.len(), REMOVED.len() + 1, "{before:?}");
    vacuum_and_check(&b, dir.path());
    assert!(!dir.path().join("store.sled.vacuum").exists());
    assert!(!dir.path().join("store.sled.vacuum-old").exists());
    drop(b);
    let reopened = SledBackend::open(&db, Durability::Immediate).unwrap();
    assert!(
        reopened
            .get_store(&owner("ws1", "alice").workspace, &store_id(1))
            .unwrap()
            .is_some()
    );
}

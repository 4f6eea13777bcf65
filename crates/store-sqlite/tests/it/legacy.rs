//! SQLite homes of older formats: the checked-in fixtures under `tests/fixtures/` (format 1,
//! before the recall index; format 2, analyzer version 1; format 3, postings and vectors beside
//! the versions) hold `store_durable_suite::formats`'
//! fixture history; a read-write open upgrades them in place and every answer must come back as
//! the old code gave it. The same history written afresh must give those answers too.

use std::path::{Path, PathBuf};

use store_durable_suite::formats::{
    copy_fixture, expected, index_matches_versions, populate, populate_talk,
    reanalyzed_as_expected, side_index_entries, snapshot, talk_reanalyzed, upgraded_as_before,
};
use store_sqlite::SqliteBackend;
use store_trait::Durability;

/// The fixtures' directory.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[test]
fn a_fresh_database_answers_the_fixture_history_as_format_3_did() {
    let dir = tempfile::tempdir().unwrap();
    let b = SqliteBackend::create(dir.path().join("a.sqlite"), Durability::Eventual).unwrap();
    populate(&b);
    assert_eq!(snapshot(&b), expected());
}

/// The index is built as the fixture history is written afresh.
#[test]
fn a_fresh_database_indexes_the_fixture_history_as_it_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let b = SqliteBackend::create(dir.path().join("a.sqlite"), Durability::Eventual).unwrap();
    populate(&b);
    populate_talk(&b);
    index_matches_versions(&b);
    assert_eq!(
        side_index_entries(b.kv()),
        0,
        "postings, vectors or counts written"
    );
}

#[test]
fn a_format_1_sqlite_file_gets_its_recall_index_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sqlite-format1.sqlite", dir.path());
    let err = SqliteBackend::open_read_only(&path).expect_err("format 1 is not read read-only");
    assert!(err.to_string().contains("format version 1"), "{err}");
    assert!(err.to_string().contains("open it read-write once"), "{err}");
    upgraded_as_before(
        &SqliteBackend::open(&path, Durability::Immediate).unwrap(),
        4,
    );
    index_matches_versions(&SqliteBackend::open_read_only(&path).unwrap());
}

#[test]
fn a_format_2_sqlite_file_is_analyzed_again_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sqlite-format2.sqlite", dir.path());
    let err = SqliteBackend::open_read_only(&path).expect_err("format 2 is not read read-only");
    assert!(err.to_string().contains("format version 2"), "{err}");
    assert!(err.to_string().contains("open it read-write once"), "{err}");
    reanalyzed_as_expected(
        &SqliteBackend::open(&path, Durability::Immediate).unwrap(),
        4,
    );
    let read_only = SqliteBackend::open_read_only(&path).unwrap();
    index_matches_versions(&read_only);
    talk_reanalyzed(&read_only);
    assert_eq!(side_index_entries(read_only.kv()), 0);
}

/// Rows of kinds `t`, `v` and `c` in the file, counted with SQLite directly.
fn raw_side_index_rows(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row(
        "SELECT count(*) FROM kv WHERE (key >= X'74' AND key < X'75') \
         OR (key >= X'76' AND key < X'77') OR (key >= X'63' AND key < X'64')",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn a_format_3_sqlite_file_loses_its_side_index_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sqlite-format3.sqlite", dir.path());
    assert!(raw_side_index_rows(&path) > 0, "the fixture holds postings");
    let err = SqliteBackend::open_read_only(&path).expect_err("format 3 is not read read-only");
    assert!(err.to_string().contains("format version 3"), "{err}");
    assert!(err.to_string().contains("open it read-write once"), "{err}");
    let b = SqliteBackend::open(&path, Durability::Immediate).unwrap();
    upgraded_as_before(&b, 4);
    assert_eq!(side_index_entries(b.kv()), 0);
    drop(b);
    assert_eq!(raw_side_index_rows(&path), 0);
    index_matches_versions(&SqliteBackend::open_read_only(&path).unwrap());
}

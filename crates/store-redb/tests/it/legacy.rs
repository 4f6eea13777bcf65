//! redb homes of older formats: the checked-in fixtures under `tests/fixtures/` (format 3, with
//! agent-memory tables of their own; format 4, before the recall index; format 5, analyzer
//! version 1; format 6, postings and vectors beside the versions; format 7, before the
//! write-ahead journal) hold `store_durable_suite::formats`' fixture history; a read-write open upgrades
//! them in place and every answer must come back as the old code gave it. The same history
//! written afresh must give those answers too.

use std::path::{Path, PathBuf};

use store_durable_suite::formats::{
    copy_fixture, expected, expected_upgraded, index_matches_versions, populate, populate_talk,
    reanalyzed_as_expected, side_index_entries, snapshot, talk_reanalyzed, upgraded_as_before,
};
use store_redb::RedbBackend;
use store_trait::{Database, Durability, Error};

/// The fixtures' directory.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[test]
fn a_fresh_database_answers_the_fixture_history_as_format_3_did() {
    let dir = tempfile::tempdir().unwrap();
    let b = RedbBackend::create(dir.path().join("a.redb"), Durability::Eventual).unwrap();
    populate(&b);
    assert_eq!(snapshot(&b), expected());
}

/// The index is built as the fixture history is written afresh.
#[test]
fn a_fresh_database_indexes_the_fixture_history_as_it_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let b = RedbBackend::create(dir.path().join("a.redb"), Durability::Eventual).unwrap();
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
fn a_format_3_redb_file_is_upgraded_in_place_by_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "redb-format3.redb", dir.path());
    let err = writes_nothing(&path, || {
        RedbBackend::open_read_only(&path).expect_err("format 3 is not read read-only")
    });
    assert!(matches!(err, Error::Format(_)), "{err}");
    assert!(err.to_string().contains("open it read-write once"), "{err}");
    {
        let b = RedbBackend::open(&path, Durability::Immediate).unwrap();
        assert_eq!(b.format_version(), Some(8));
        assert_eq!(snapshot(&b), expected_upgraded());
    }
    // The old tables are gone, and the upgraded file reads alike read-only and read-write.
    {
        use ::redb::ReadableDatabase;
        let db = ::redb::Database::open(&path).unwrap();
        let mut tables: Vec<String> = db
            .begin_read()
            .unwrap()
            .list_tables()
            .unwrap()
            .map(|t| ::redb::TableHandle::name(&t).to_owned())
            .collect();
        tables.sort();
        // `journal` holds the id and record number a durable open gives the file.
        assert_eq!(tables, ["journal", "kv", "meta"]);
    }
    let read_only = RedbBackend::open_read_only(&path).unwrap();
    assert_eq!(read_only.format_version(), Some(8));
    drop(read_only);
    let b = RedbBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(snapshot(&b), expected_upgraded());
}

/// A read-only open of the file at `path`, of the earlier `format`, is refused with the advice
/// to open it read-write once, and writes nothing.
fn refused_read_only(path: &Path, format: u32) {
    let err = writes_nothing(path, || {
        RedbBackend::open_read_only(path).expect_err("an earlier format is not read read-only")
    });
    assert!(
        err.to_string()
            .contains(&format!("format version {format}")),
        "{err}"
    );
    assert!(err.to_string().contains("open it read-write once"), "{err}");
}

/// Runs `open` (a read-only open and its reads) and checks that no byte of the file at `path`
/// changed.
fn writes_nothing<T>(path: &Path, open: impl FnOnce() -> T) -> T {
    let before = std::fs::read(path).unwrap();
    let out = open();
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "the read-only open wrote"
    );
    out
}

#[test]
fn a_format_4_redb_file_gets_its_recall_index_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "redb-format4.redb", dir.path());
    refused_read_only(&path, 4);
    upgraded_as_before(&RedbBackend::open(&path, Durability::Immediate).unwrap(), 8);
    index_matches_versions(&RedbBackend::open_read_only(&path).unwrap());
}

#[test]
fn a_format_5_redb_file_is_analyzed_again_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "redb-format5.redb", dir.path());
    refused_read_only(&path, 5);
    reanalyzed_as_expected(&RedbBackend::open(&path, Durability::Immediate).unwrap(), 8);
    let read_only = RedbBackend::open_read_only(&path).unwrap();
    index_matches_versions(&read_only);
    talk_reanalyzed(&read_only);
}

/// Entries of kinds `t`, `v` and `c` in the file's key-space table, counted with redb directly.
fn raw_side_index_entries(path: &Path) -> usize {
    use ::redb::ReadableDatabase;
    let db = ::redb::Database::open(path).unwrap();
    let table: ::redb::TableDefinition<&[u8], &[u8]> = ::redb::TableDefinition::new("kv");
    let txn = db.begin_read().unwrap();
    let kv = txn.open_table(table).unwrap();
    let mut n = 0;
    for (start, end) in [
        (&b"t"[..], &b"u"[..]),
        (&b"v"[..], &b"w"[..]),
        (&b"c"[..], &b"d"[..]),
    ] {
        n += kv.range(start..end).unwrap().count();
    }
    n
}

#[test]
fn a_format_6_redb_file_loses_its_side_index_on_a_read_write_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "redb-format6.redb", dir.path());
    assert!(
        raw_side_index_entries(&path) > 0,
        "the fixture holds postings"
    );
    refused_read_only(&path, 6);
    {
        let b = RedbBackend::open(&path, Durability::Immediate).unwrap();
        upgraded_as_before(&b, 8);
        assert_eq!(side_index_entries(b.kv()), 0);
    }
    assert_eq!(raw_side_index_entries(&path), 0);
    index_matches_versions(&RedbBackend::open_read_only(&path).unwrap());
}

/// The format record of the file at `path`, read with redb directly.
fn raw_format(path: &Path) -> u32 {
    use ::redb::ReadableDatabase;
    let db = ::redb::Database::open(path).unwrap();
    let meta: ::redb::TableDefinition<&str, u32> = ::redb::TableDefinition::new("meta");
    let txn = db.begin_read().unwrap();
    let table = txn.open_table(meta).unwrap();
    table.get("format_version").unwrap().unwrap().value()
}

/// A file written by the format-7 build (the one before the journal): read as it is by a
/// read-only open, which reports format 7 (a format-7 file has no journal to apply), and
/// upgraded by a read-write open to format 8 with every answer the fixture history gives — its
/// term counts are already this analyzer's.
#[test]
fn a_format_7_redb_file_reads_as_it_is_and_a_read_write_open_sets_format_8() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "redb-format7.redb", dir.path());
    assert_eq!(raw_format(&path), 7);
    // (redb's own read-write open above marks the file's header; the read-only open below
    // must change no byte of it.)
    writes_nothing(&path, || {
        let read_only = RedbBackend::open_read_only(&path).unwrap();
        assert_eq!(read_only.format_version(), Some(7));
        index_matches_versions(&read_only);
    });
    {
        let b = RedbBackend::open(&path, Durability::Immediate).unwrap();
        assert_eq!(b.format_version(), Some(8));
        assert_eq!(snapshot(&b), expected());
        index_matches_versions(&b);
    }
    assert_eq!(raw_format(&path), 8);
    let read_only = RedbBackend::open_read_only(&path).unwrap();
    assert_eq!(read_only.format_version(), Some(8));
    index_matches_versions(&read_only);
}

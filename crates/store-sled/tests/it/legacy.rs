//! sled homes of older formats: the checked-in fixtures under `tests/fixtures/` (format 3, with
//! agent-memory trees of their own; format 4, before the recall index; format 5, analyzer
//! version 1; format 6, postings and vectors beside the versions) hold `store_durable_suite::formats`' fixture history; a read-write open upgrades
//! them in place and every answer must come back as the old code gave it. The same history
//! written afresh must give those answers too.

use std::path::{Path, PathBuf};

use store_durable_suite::formats::{
    copy_fixture, expected, expected_upgraded, index_matches_versions, populate, populate_talk,
    reanalyzed_as_expected, side_index_entries, snapshot, upgraded_as_before,
};
use store_sled::SledBackend;
use store_trait::{Database, Durability};

/// The fixtures' directory.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[test]
fn a_fresh_database_answers_the_fixture_history_as_format_3_did() {
    let dir = tempfile::tempdir().unwrap();
    let b = SledBackend::open(dir.path().join("a.sled"), Durability::Eventual).unwrap();
    populate(&b);
    assert_eq!(snapshot(&b), expected());
}

/// The index is built as the fixture history is written afresh.
#[test]
fn a_fresh_database_indexes_the_fixture_history_as_it_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let b = SledBackend::open(dir.path().join("a.sled"), Durability::Eventual).unwrap();
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
fn a_format_3_sled_directory_is_upgraded_in_place_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sled-format3", dir.path());
    {
        let b = SledBackend::open(&path, Durability::Immediate).unwrap();
        assert_eq!(b.format_version(), Some(7));
        assert_eq!(snapshot(&b), expected_upgraded());
    }
    {
        let db = ::sled::open(&path).unwrap();
        let names: Vec<String> = db
            .tree_names()
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        assert!(!names.iter().any(|n| n == "memories"), "{names:?}");
        assert!(names.iter().any(|n| n == "kv"), "{names:?}");
    }
    let b = SledBackend::open(&path, Durability::Immediate).unwrap();
    assert_eq!(snapshot(&b), expected_upgraded());
}

#[test]
fn a_format_4_sled_directory_gets_its_recall_index_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sled-format4", dir.path());
    upgraded_as_before(&SledBackend::open(&path, Durability::Immediate).unwrap(), 7);
    index_matches_versions(&SledBackend::open(&path, Durability::Immediate).unwrap());
}

#[test]
fn a_format_5_sled_directory_is_analyzed_again_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sled-format5", dir.path());
    reanalyzed_as_expected(&SledBackend::open(&path, Durability::Immediate).unwrap(), 7);
    reanalyzed_as_expected(&SledBackend::open(&path, Durability::Immediate).unwrap(), 7);
}

/// Entries of kinds `t`, `v` and `c` in the directory's key-space tree, counted with sled
/// directly.
fn raw_side_index_entries(path: &Path) -> usize {
    let db = ::sled::open(path).unwrap();
    let kv = db.open_tree("kv").unwrap();
    [
        (&b"t"[..], &b"u"[..]),
        (&b"v"[..], &b"w"[..]),
        (&b"c"[..], &b"d"[..]),
    ]
    .into_iter()
    .map(|(start, end)| kv.range(start..end).count())
    .sum()
}

#[test]
fn a_format_6_sled_directory_loses_its_side_index_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_fixture(&fixtures(), "sled-format6", dir.path());
    assert!(
        raw_side_index_entries(&path) > 0,
        "the fixture holds postings"
    );
    {
        let b = SledBackend::open(&path, Durability::Immediate).unwrap();
        upgraded_as_before(&b, 7);
        assert_eq!(side_index_entries(b.kv()), 0);
    }
    assert_eq!(raw_side_index_entries(&path), 0);
    index_matches_versions(&SledBackend::open(&path, Durability::Immediate).unwrap());
}

//! The in-memory backend gives the fixture history of the format tests
//! (`store_durable_suite::formats`) the answers format 3 gave, and indexes it as it writes it.

use store_durable_suite::formats::{
    expected, index_matches_versions, populate, populate_talk, side_index_entries, snapshot,
};
use store_kv::InMemoryBackend;

#[test]
fn the_in_memory_backend_answers_the_fixture_history_as_format_3_did() {
    let b = InMemoryBackend::new();
    populate(&b);
    assert_eq!(snapshot(&b), expected());
}

/// The index is built as the fixture history is written.
#[test]
fn the_in_memory_backend_indexes_the_fixture_history_as_it_writes_it() {
    let b = InMemoryBackend::new();
    populate(&b);
    populate_talk(&b);
    index_matches_versions(&b);
    assert_eq!(
        side_index_entries(b.kv()),
        0,
        "postings, vectors or counts written"
    );
}

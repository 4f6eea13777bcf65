//! Step 8 of remember: resolving cited passages at write time.

use citation_verify::{
    InMemoryPassageSource, Passage, PassageInfo, PassageLookup, resolve_citations,
};
use memory_core::{ErrorCode, content_sha256};

use crate::support::{Fixed, Recording, ids, member, ws};

fn source() -> InMemoryPassageSource {
    let source = InMemoryPassageSource::new();
    source.put_passage(
        &ws("ws1"),
        Passage::new("p1", "d1", "c1", 3, "The sky is blue."),
    );
    source.put_passage(
        &ws("ws1"),
        Passage::new("p2", "d2", "c1", 1, "Grass is green."),
    );
    source
}

#[test]
fn records_document_version_and_body_hash_in_one_call() {
    let source = Recording::new(source());
    let citations =
        resolve_citations(&source, &ws("ws1"), &member("alice"), &ids(&["p2", "p1"])).unwrap();
    assert_eq!(source.calls(), vec![ids(&["p2", "p1"])]);
    assert_eq!(citations.len(), 2);
    assert_eq!(citations[0].passage_id, "p2");
    let c = &citations[1];
    assert_eq!(
        (
            c.passage_id.as_str(),
            c.document_id.as_str(),
            c.collection_id.as_str()
        ),
        ("p1", "d1", "c1")
    );
    assert_eq!(c.document_version, 3);
    assert_eq!(c.sha256, content_sha256("The sky is blue."));
    assert_eq!(c.sha256.len(), 64);
    assert!(
        c.sha256
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
    // The stored form carries no body.
    let stored = serde_json::to_string(&citations).unwrap();
    assert!(!stored.contains("sky") && !stored.contains("Grass"));
}

#[test]
fn hashes_the_body_when_the_host_has_no_hash() {
    let hashing = source();
    let bodies = source().with_hashes(false);
    let alice = member("alice");
    let a = resolve_citations(&hashing, &ws("ws1"), &alice, &ids(&["p1"])).unwrap();
    let b = resolve_citations(&bodies, &ws("ws1"), &alice, &ids(&["p1"])).unwrap();
    assert_eq!(a, b);
}

#[test]
fn every_kind_of_gone_is_citation_invalid() {
    let w = ws("ws1");
    let alice = member("alice");
    let assert_invalid = |source: &InMemoryPassageSource, list: &[&str]| {
        let err = resolve_citations(source, &w, &alice, &ids(list)).unwrap_err();
        assert_eq!(
            (err.code(), err.http_status()),
            (ErrorCode::AgentMemoryCitationInvalid, 400)
        );
    };

    assert_invalid(&source(), &["p1", "nope"]);

    let s = source();
    assert_eq!(s.delete_document(&w, "d1"), 1);
    assert_invalid(&s, &["p1"]);
    assert!(resolve_citations(&s, &w, &alice, &ids(&["p2"])).is_ok());

    let s = source();
    s.expire_document(&w, "d1");
    assert_invalid(&s, &["p1"]);

    let s = source();
    s.set_document_readable(&w, "d1", &alice, false);
    assert_invalid(&s, &["p1"]);
    assert!(resolve_citations(&s, &w, &member("bob"), &ids(&["p1"])).is_ok());
    s.set_document_readable(&w, "d1", &alice, true);
    assert!(resolve_citations(&s, &w, &alice, &ids(&["p1"])).is_ok());

    let s = source();
    assert_eq!(s.delete_collection(&w, "c1"), 2);
    assert_invalid(&s, &["p2"]);

    // Another workspace's passage is not found.
    let err = resolve_citations(&source(), &ws("ws2"), &alice, &ids(&["p1"])).unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryCitationInvalid);
}

#[test]
fn no_citations_no_lookup_and_duplicates_once() {
    let source = Recording::new(source());
    assert!(
        resolve_citations(&source, &ws("ws1"), &member("alice"), &[])
            .unwrap()
            .is_empty()
    );
    assert!(source.calls().is_empty());
    let citations =
        resolve_citations(&source, &ws("ws1"), &member("alice"), &ids(&["p1", "p1"])).unwrap();
    assert_eq!(citations.len(), 1);
    assert_eq!(source.calls(), vec![ids(&["p1"])]);
}

#[test]
fn unverifiable_or_short_answers_are_refused() {
    let info = PassageInfo {
        passage_id: "p1".into(),
        document_id: "d1".into(),
        collection_id: "c1".into(),
        document_version: 1,
        sha256: None,
        body: None,
        entities: vec![],
    };
    let w = ws("ws1");
    let alice = member("alice");
    let no_content = Fixed(vec![PassageLookup::found(info.clone())]);
    assert!(resolve_citations(&no_content, &w, &alice, &ids(&["p1"])).is_err());
    let short = Fixed(vec![PassageLookup::found(PassageInfo {
        body: Some("x".into()),
        ..info
    })]);
    assert!(resolve_citations(&short, &w, &alice, &ids(&["p1"])).is_ok());
    assert!(resolve_citations(&short, &w, &alice, &ids(&["p1", "p2"])).is_err());
}

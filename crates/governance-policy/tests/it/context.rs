//! Steps 7 and 9 of remember and the context-set rules of reads and forget.

use governance_policy::{
    check_cited_documents, check_memory_in_binding, check_read_filter, check_remember_anchor,
    memory_in_set, visible_through,
};
use memory_core::{
    AgentMemory, AgentMemoryId, Citation, ContextBinding, ContextSet, CredentialId, ErrorCode,
    MemberId, MemoryText, Timestamp, WorkspaceId,
};

fn bound() -> ContextBinding {
    ContextBinding::Bound(ContextSet::new(["c1"], ["d9"]))
}

fn citation(document: &str, collection: &str) -> Citation {
    Citation {
        passage_id: format!("p-{document}"),
        document_id: document.into(),
        collection_id: collection.into(),
        document_version: 1,
        sha256: "0".repeat(64),
    }
}

fn memory(collection: Option<&str>, citations: Vec<Citation>) -> AgentMemory {
    AgentMemory {
        id: AgentMemoryId::parse("amem_t").unwrap(),
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("m").unwrap(),
        credential: CredentialId::new("c").unwrap(),
        namespace: "n".into(),
        key: None,
        text: MemoryText::mask("note").0,
        collection_id: collection.map(Into::into),
        version: 1,
        citations,
        created_at: Timestamp::UNIX_EPOCH,
        superseded_at: None,
        ranking: Default::default(),
    }
}

#[track_caller]
fn assert_refused(result: Result<(), memory_core::ApiError>) {
    let err = result.unwrap_err();
    assert_eq!(
        (err.code(), err.http_status()),
        (ErrorCode::AgentContextSetScopeRefused, 403)
    );
}

#[test]
fn remember_anchor_rules() {
    let set = bound();
    assert!(check_remember_anchor(&set, Some("c1"), false).is_ok());
    assert!(check_remember_anchor(&set, None, true).is_ok());
    assert!(check_remember_anchor(&set, Some("c1"), true).is_ok());
    // Not anchored.
    assert_refused(check_remember_anchor(&set, None, false));
    // collectionId outside the set (a listed document does not admit its collection).
    assert_refused(check_remember_anchor(&set, Some("c2"), true));
    // Exact match only.
    assert_refused(check_remember_anchor(&set, Some("C1"), false));
    // Invalid set.
    assert_refused(check_remember_anchor(
        &ContextBinding::Invalid,
        Some("c1"),
        true,
    ));
    // Unbound credentials need no anchor.
    assert!(check_remember_anchor(&ContextBinding::Unbound, None, false).is_ok());
    assert!(check_remember_anchor(&ContextBinding::Unbound, Some("elsewhere"), false).is_ok());
}

#[test]
fn cited_documents_must_be_inside() {
    let set = bound();
    assert!(check_cited_documents(&set, &[citation("d1", "c1"), citation("d9", "c7")]).is_ok());
    assert_refused(check_cited_documents(
        &set,
        &[citation("d1", "c1"), citation("d2", "c2")],
    ));
    assert_refused(check_cited_documents(
        &ContextBinding::Invalid,
        &[citation("d1", "c1")],
    ));
    assert!(check_cited_documents(&ContextBinding::Unbound, &[citation("d2", "c2")]).is_ok());
}

#[test]
fn memories_inside_a_set() {
    let ContextBinding::Bound(set) = bound() else {
        unreachable!()
    };
    assert!(memory_in_set(&set, &memory(Some("c1"), vec![])));
    assert!(memory_in_set(
        &set,
        &memory(None, vec![citation("d9", "c5")])
    ));
    assert!(memory_in_set(
        &set,
        &memory(Some("c1"), vec![citation("d3", "c1")])
    ));
    // Unanchored memories are outside every set.
    assert!(!memory_in_set(&set, &memory(None, vec![])));
    assert!(!memory_in_set(&set, &memory(Some("c2"), vec![])));
    assert!(!memory_in_set(
        &set,
        &memory(Some("c1"), vec![citation("d9", "c5"), citation("d4", "c4")])
    ));
    // The recorded collection of a citation decides, not the memory's collectionId.
    assert!(!memory_in_set(
        &set,
        &memory(Some("c1"), vec![citation("d4", "c4")])
    ));
}

#[test]
fn visibility_and_single_memory_checks() {
    let inside = memory(Some("c1"), vec![]);
    let outside = memory(None, vec![]);
    assert!(visible_through(&ContextBinding::Unbound, &outside));
    assert!(visible_through(&bound(), &inside));
    assert!(!visible_through(&bound(), &outside));
    assert!(!visible_through(&ContextBinding::Invalid, &inside));
    assert!(check_memory_in_binding(&bound(), &inside).is_ok());
    assert_refused(check_memory_in_binding(&bound(), &outside));
    assert_refused(check_memory_in_binding(&ContextBinding::Invalid, &inside));
    assert!(check_memory_in_binding(&ContextBinding::Unbound, &outside).is_ok());
}

#[test]
fn read_filters() {
    assert!(check_read_filter(&bound(), None).is_ok());
    assert!(check_read_filter(&bound(), Some("c1")).is_ok());
    assert_refused(check_read_filter(&bound(), Some("c2")));
    assert_refused(check_read_filter(&ContextBinding::Invalid, None));
    assert!(check_read_filter(&ContextBinding::Unbound, Some("c2")).is_ok());
}

//! Read-time re-verification: hidden, changed, current and uncited, in one batched lookup.

use citation_verify::{
    Entity, InMemoryPassageSource, Passage, PassageSource, Verdict, resolve_citations, verify,
    verify_entity_ids, verify_entity_indices,
};
use memory_core::{AgentMemory, SourceState};

use crate::support::{Recording, ids, member, memory, ws};

const CURRENT: Verdict = Verdict::Visible(SourceState::Current);
const CHANGED: Verdict = Verdict::Visible(SourceState::Changed);
const UNCITED: Verdict = Verdict::Visible(SourceState::Uncited);

fn world() -> InMemoryPassageSource {
    let source = InMemoryPassageSource::new();
    let w = ws("ws1");
    let acme = Entity::new("e_acme", "Acme").with_aliases(["ACME Corp"]);
    let bob = Entity::new("e_bob", "Bob");
    source.put_passage(
        &w,
        Passage::new("p1", "d1", "c1", 1, "Acme hired Bob.").with_entities(vec![acme.clone(), bob]),
    );
    source.put_passage(
        &w,
        Passage::new("p2", "d1", "c1", 1, "Acme moved.").with_entities(vec![acme]),
    );
    source.put_passage(&w, Passage::new("p3", "d2", "c2", 7, "Unrelated."));
    source
}

fn cited(source: &InMemoryPassageSource, n: u32, passages: &[&str]) -> AgentMemory {
    let citations =
        resolve_citations(source, &ws("ws1"), &member("alice"), &ids(passages)).unwrap();
    memory(n, citations)
}

fn verdicts(source: &impl PassageSource, memories: &[&AgentMemory]) -> Vec<Verdict> {
    verify(source, &ws("ws1"), &member("alice"), memories).verdicts
}

#[test]
fn one_batched_lookup_of_distinct_ids_for_all_memories() {
    let base = world();
    let (m1, m2, m3, m4) = (
        cited(&base, 1, &["p1", "p2"]),
        cited(&base, 2, &["p2", "p3"]),
        memory(3, vec![]),
        cited(&base, 4, &["p1"]),
    );
    let resolved = base.lookups();
    let source = Recording::new(base);
    let result = verify(&source, &ws("ws1"), &member("alice"), &[&m1, &m2, &m3, &m4]);
    assert_eq!(source.calls(), vec![ids(&["p1", "p2", "p3"])]);
    assert_eq!(result.verdicts, vec![CURRENT, CURRENT, UNCITED, CURRENT]);
    assert_eq!(source.inner.lookups(), resolved + 1);
}

#[test]
fn nothing_cited_means_no_lookup() {
    let source = Recording::new(world());
    let (a, b) = (memory(1, vec![]), memory(2, vec![]));
    assert_eq!(verdicts(&source, &[&a, &b]), vec![UNCITED, UNCITED]);
    assert!(verdicts(&source, &[]).is_empty());
    assert!(source.calls().is_empty());
}

#[test]
fn version_or_hash_changes_mark_changed() {
    let source = world();
    let w = ws("ws1");
    let (m1, m3) = (cited(&source, 1, &["p1"]), cited(&source, 3, &["p3"]));
    // New document version, same body.
    source.put_passage(&w, Passage::new("p1", "d1", "c1", 2, "Acme hired Bob."));
    // Same version, different body.
    source.put_passage(&w, Passage::new("p3", "d2", "c2", 7, "Edited in place."));
    assert_eq!(verdicts(&source, &[&m1, &m3]), vec![CHANGED, CHANGED]);
    // Back to the recorded body and version: current again.
    source.put_passage(&w, Passage::new("p3", "d2", "c2", 7, "Unrelated."));
    assert_eq!(verdicts(&source, &[&m3]), vec![CURRENT]);
    // Same result when the host reports bodies instead of hashes.
    let bodies = InMemoryPassageSource::new().with_hashes(false);
    bodies.put_passage(&w, Passage::new("p3", "d2", "c2", 7, "Unrelated."));
    assert_eq!(verdicts(&bodies, &[&m3]), vec![CURRENT]);
    bodies.put_passage(&w, Passage::new("p3", "d2", "c2", 7, "Other."));
    assert_eq!(verdicts(&bodies, &[&m3]), vec![CHANGED]);
}

#[test]
fn any_gone_passage_hides_the_memory() {
    let w = ws("ws1");
    let alice = member("alice");

    let source = world();
    let (both, p3_only) = (cited(&source, 1, &["p1", "p3"]), cited(&source, 2, &["p3"]));
    source.put_passage(&w, Passage::new("p3", "d2", "c2", 8, "changed"));
    source.delete_document(&w, "d1");
    let result = verify(&source, &w, &alice, &[&both, &p3_only]);
    // Hidden wins over changed.
    assert_eq!(result.verdicts, vec![Verdict::Hidden, CHANGED]);
    assert_eq!(result.hidden_count(), 1);
    assert!(result.entities[0].is_empty());

    let source = world();
    let m = cited(&source, 1, &["p2"]);
    source.expire_document(&w, "d1");
    assert_eq!(verdicts(&source, &[&m]), vec![Verdict::Hidden]);

    let source = world();
    let m = cited(&source, 1, &["p2"]);
    source.set_document_readable(&w, "d1", &alice, false);
    assert_eq!(verdicts(&source, &[&m]), vec![Verdict::Hidden]);
    // Readability is per member.
    assert_eq!(
        verify(&source, &w, &member("bob"), &[&m]).verdicts,
        vec![CURRENT]
    );

    let source = world();
    let m = cited(&source, 1, &["p3"]);
    source.delete_collection(&w, "c2");
    assert_eq!(verdicts(&source, &[&m]), vec![Verdict::Hidden]);

    // Looked up from another workspace, nothing is found.
    let source = world();
    let m = cited(&source, 1, &["p3"]);
    assert_eq!(
        verify(&source, &ws("ws2"), &alice, &[&m]).verdicts,
        vec![Verdict::Hidden]
    );
}

#[test]
fn member_list_state_of_verdicts() {
    assert_eq!(Verdict::Hidden.member_state(), SourceState::Unavailable);
    assert_eq!(CURRENT.member_state(), SourceState::Current);
    assert_eq!(CHANGED.agent_state(), Some(SourceState::Changed));
    assert_eq!(Verdict::Hidden.agent_state(), None);
}

#[test]
fn entities_of_cited_passages_per_memory() {
    let source = world();
    let (m1, m2, m3) = (
        cited(&source, 1, &["p1", "p2"]),
        cited(&source, 2, &["p2"]),
        cited(&source, 3, &["p3"]),
    );
    let uncited = memory(4, vec![]);
    let result = verify(
        &source,
        &ws("ws1"),
        &member("alice"),
        &[&m1, &m2, &m3, &uncited],
    );
    let names = |i: usize| {
        result.entities[i]
            .iter()
            .map(|e| e.id.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(0),
        ["e_acme", "e_bob"],
        "each entity once, in citation order"
    );
    assert_eq!(names(1), ["e_acme"]);
    assert!(names(2).is_empty() && names(3).is_empty());
    assert_eq!(result.entities[0][0].aliases, ["ACME Corp"]);
    assert_eq!(result.entities.len(), result.verdicts.len());
}

#[test]
fn the_source_is_shareable_across_threads() {
    let source = std::sync::Arc::new(world());
    let m = cited(&source, 1, &["p1"]);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let (source, m) = (source.clone(), m.clone());
            std::thread::spawn(move || {
                verify(&source, &ws("ws1"), &member("alice"), &[&m]).verdicts
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), vec![CURRENT]);
    }
    // One lookup per resolve and per verify.
    assert_eq!(source.lookups(), 5);
}

#[test]
fn passages_deserialize_from_replay_bodies() {
    let p: Passage = serde_json::from_value(serde_json::json!({
        "id": "p1", "documentId": "d1", "collectionId": "c1", "documentVersion": 2, "text": "t",
        "entities": [{"id": "e1", "name": "Acme", "aliases": ["ACME"]}]
    }))
    .unwrap();
    assert_eq!(p.document_version, 2);
    assert_eq!(
        p.entities,
        vec![Entity::new("e1", "Acme").with_aliases(["ACME"])]
    );
}

#[test]
fn entity_indices_agree_with_entity_ids() {
    let source = world();
    let w = ws("ws1");
    // `e_acme` is reported by two records: the first appearance is the distinct one.
    source.put_passage(
        &w,
        Passage::new("p4", "d3", "c1", 1, "Acme again.").with_entities(vec![
            Entity::new("e_acme", "Acme Inc"),
            Entity::new("e_cy", "Cy"),
        ]),
    );
    let (m1, m2, m3, m4) = (
        cited(&source, 1, &["p4", "p2"]),
        cited(&source, 2, &["p1", "p3"]),
        cited(&source, 3, &["p3"]),
        cited(&source, 4, &["p2", "p1"]),
    );
    let uncited = memory(5, vec![]);
    source.delete_document(&w, "d2");
    let memories = [&m1, &m2, &m3, &uncited, &m4];
    let ids = verify_entity_ids(&source, &w, &member("alice"), &memories);
    let indices = verify_entity_indices(&source, &w, &member("alice"), &memories);
    assert_eq!(indices.verdicts, ids.verdicts);
    assert_eq!(indices.distinct, ids.distinct);
    assert_eq!(indices.starts.len(), memories.len() + 1);
    for (i, expected) in ids.entity_ids.iter().enumerate() {
        let got: Vec<&str> = indices
            .entities_of(i)
            .iter()
            .map(|&k| indices.distinct[k as usize].id.as_str())
            .collect();
        assert_eq!(&got, expected, "memory {i}");
    }
    assert_eq!(indices.distinct[0].name, "Acme Inc");
    assert_eq!(indices.verdicts[1], Verdict::Hidden);
    assert!(indices.entities_of(1).is_empty());
}

#[test]
fn every_change_of_the_in_memory_source_moves_its_generation() {
    let source = world();
    let w = ws("ws1");
    let alice = member("alice");
    let mut seen = vec![source.generation(&w).expect("the in-memory source stamps")];
    let mut moved = |what: &str| {
        let now = source.generation(&w).unwrap();
        assert!(
            !seen.contains(&now),
            "{what} moves the generation to a new value"
        );
        seen.push(now);
    };
    source.put_passage(&w, Passage::new("p1", "d1", "c1", 2, "Acme hired Bob."));
    moved("a new document version");
    source.put_passage(&w, Passage::new("p1", "d1", "c1", 2, "Acme hired Bo."));
    moved("a new text");
    source.put_passage(&w, Passage::new("p9", "d9", "c9", 1, "New."));
    moved("a new passage");
    source.expire_document(&w, "d9");
    moved("an expiry");
    source.set_document_readable(&w, "d1", &alice, false);
    moved("a revoked read");
    source.set_document_readable(&w, "d1", &alice, true);
    moved("a granted read");
    source.delete_document(&w, "d9");
    moved("a deleted document");
    source.delete_collection(&w, "c2");
    moved("a deleted collection");
    source.put_passage(&ws("ws2"), Passage::new("p1", "d1", "c1", 1, "Elsewhere."));
    moved("a change in another workspace (one stamp for all)");
    // Reads move nothing, and every way of sharing the source reports its stamp.
    let now = source.generation(&w);
    let m = cited(&source, 1, &["p2"]);
    verify(&source, &w, &alice, &[&m]);
    assert_eq!(source.generation(&w), now);
    let shared = std::sync::Arc::new(source);
    let borrowed: &InMemoryPassageSource = &shared;
    assert_eq!(
        <&InMemoryPassageSource as PassageSource>::generation(&borrowed, &w),
        now
    );
    assert_eq!(shared.clone().generation(&w), now);
    let boxed: Box<dyn PassageSource> = Box::new(shared.clone());
    assert_eq!(boxed.generation(&w), now);
    // A host's source gives no stamp unless it says so.
    assert_eq!(Recording::new(world()).generation(&w), None);
}

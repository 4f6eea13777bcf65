//! Re-verification through the recall index with verdicts kept between recalls: while the
//! member's history and the host's passage stamp (`PassageSource::generation`) stand, recall
//! looks nothing up; after any change to the passages the next recall answers exactly what a
//! recall looking every citation up answers — in this service and in another sharing the source.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use agent_memory::{
    CandidateWindow, ManualClock, MemoryService, RecallRequest, RecallResponse, RememberRequest,
    SeededIdGenerator, Timestamp,
};
use citation_verify::{Entity, InMemoryPassageSource, Passage, PassageLookup, PassageSource};
use memory_core::{MemberId, SourceState, WorkspaceId};
use proptest::prelude::*;
use store_kv::InMemoryBackend;

use crate::{agent, enabled};

/// The host's source without a stamp: every recall through it looks every citation up.
struct Unstamped(Arc<InMemoryPassageSource>);

impl PassageSource for Unstamped {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        self.0.lookup(ws, member, ids)
    }
}

/// The host's source whose next lookup, once armed, first expires a document: the passages
/// change while recall looks them up.
struct ChangesDuringLookup {
    inner: Arc<InMemoryPassageSource>,
    armed: AtomicBool,
}

impl PassageSource for ChangesDuringLookup {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        if self.armed.swap(false, Ordering::SeqCst) {
            self.inner.expire_document(ws, "d1");
        }
        self.inner.lookup(ws, member, ids)
    }

    fn generation(&self, ws: &WorkspaceId) -> Option<u64> {
        self.inner.generation(ws)
    }
}

fn ws() -> WorkspaceId {
    WorkspaceId::new("ws").unwrap()
}

const PASSAGES: usize = 6;

/// Passage `i`'s document: three documents, the first two in collection `c0`.
fn document(i: usize) -> String {
    format!("d{}", i % 3)
}

fn collection(document: usize) -> String {
    format!("c{}", usize::from(document == 2))
}

/// Entity lists a passage may report; `e_acme` goes by two records.
fn entities(variant: usize) -> Vec<Entity> {
    let acme = Entity::new("e_acme", "Acme");
    let acme_corp = Entity::new("e_acme", "Acme Corp").with_aliases(["ACME"]);
    let bob = Entity::new("e_bob", "Bob");
    match variant % 5 {
        0 => vec![acme],
        1 => vec![acme_corp],
        2 => vec![bob],
        3 => vec![],
        _ => vec![bob, acme],
    }
}

fn passage(i: usize, text: usize, version: u64, entity_variant: usize) -> Passage {
    let d = i % 3;
    Passage::new(
        format!("p{i}"),
        document(i),
        collection(d),
        version,
        format!("passage {i}, text {text}"),
    )
    .with_entities(entities(entity_variant))
}

/// One member's notes over shared passages, three services over the same backend: `kept` and
/// `other` keep verdicts (sharing the source), `fresh` looks every citation up.
struct World {
    passages: Arc<InMemoryPassageSource>,
    clock: Arc<ManualClock>,
    kept: MemoryService,
    other: MemoryService,
    fresh: MemoryService,
    notes: usize,
}

fn service(
    backend: &Arc<InMemoryBackend>,
    passages: Arc<dyn PassageSource>,
    clock: &Arc<ManualClock>,
) -> MemoryService {
    enabled(
        MemoryService::builder(backend.clone(), passages)
            .clock(clock.clone())
            .ids(Arc::new(SeededIdGenerator::new(11)))
            .candidate_window(CandidateWindow::All)
            // Recall waits for the query's embedding however loaded the machine is, so that
            // `semanticSkipped` never differs between the services compared.
            .semantic_budget(Duration::from_secs(120)),
    )
}

impl World {
    fn new() -> World {
        World::with_source(|passages| passages)
    }

    /// A world whose `kept` service reads the passages through `wrap`.
    fn with_source(
        wrap: impl FnOnce(Arc<InMemoryPassageSource>) -> Arc<dyn PassageSource>,
    ) -> World {
        let backend = Arc::new(InMemoryBackend::new());
        let passages = Arc::new(InMemoryPassageSource::new());
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        for i in 0..PASSAGES {
            passages.put_passage(&ws(), passage(i, 0, 1, i));
        }
        let mut world = World {
            kept: service(&backend, wrap(passages.clone()), &clock),
            other: service(&backend, passages.clone(), &clock),
            fresh: service(&backend, Arc::new(Unstamped(passages.clone())), &clock),
            passages,
            clock,
            notes: 0,
        };
        for i in 0..10 {
            let namespace = if i % 2 == 0 { "a" } else { "b" };
            world.remember(namespace, &[i % PASSAGES, (i + 1) % PASSAGES]);
        }
        world.remember("a", &[]);
        world.remember("b", &[]);
        world
    }

    /// A note citing `cites` (refused when one is gone; then nothing is written).
    fn remember(&mut self, namespace: &str, cites: &[usize]) {
        self.notes += 1;
        let ids: Vec<String> = cites.iter().map(|i| format!("p{i}")).collect();
        let text = format!(
            "note {} about the launch plan of acme and bob, topic {}",
            self.notes,
            self.notes % 4
        );
        let _ = self.kept.remember(
            &agent("alice", "cred_a"),
            &RememberRequest::new(namespace, text).citations(ids),
        );
        // Under the rate limit: 120 an hour.
        self.clock.advance_seconds(31);
    }
}

fn recall(service: &MemoryService, namespace: Option<&str>) -> RecallResponse {
    let mut request = RecallRequest::new("what did acme corp and bob decide about the launch?");
    if let Some(ns) = namespace {
        request = request.namespace(ns);
    }
    service
        .recall(&agent("alice", "cred_a"), &request.limit(50))
        .unwrap()
}

/// Every service answers what a recall looking every citation up answers, and `kept`, asked
/// again, answers the same without a lookup. The first filter is the last one, so that the
/// first recall after a change asks for the rows the last one before it asked for.
fn check(world: &World) {
    for namespace in [Some("b"), None, Some("a"), Some("b")] {
        let kept = recall(&world.kept, namespace);
        let before = world.passages.lookups();
        assert_eq!(recall(&world.kept, namespace), kept);
        assert_eq!(
            world.passages.lookups(),
            before,
            "nothing changed: the kept verdicts answer"
        );
        let fresh = recall(&world.fresh, namespace);
        assert_eq!(kept, fresh, "kept verdicts, namespace {namespace:?}");
        assert_eq!(recall(&world.other, namespace), fresh, "the other service");
    }
}

fn states(r: &RecallResponse) -> Vec<SourceState> {
    let mut states: Vec<(String, SourceState)> = r
        .memories
        .iter()
        .map(|m| (m.view.id.to_string(), m.view.source_state))
        .collect();
    states.sort_by(|a, b| a.0.cmp(&b.0));
    states.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn a_second_recall_over_an_unchanged_history_looks_nothing_up() {
    let mut world = World::new();
    recall(&world.kept, None);
    let before = world.passages.lookups();
    recall(&world.kept, None);
    assert_eq!(world.passages.lookups(), before);
    // A new note is a new history: its rows are verified again.
    world.remember("a", &[0]);
    let before = world.passages.lookups();
    recall(&world.kept, None);
    assert_eq!(world.passages.lookups(), before + 1);
    // A source without a stamp is asked on every recall.
    let before = world.passages.lookups();
    recall(&world.fresh, None);
    recall(&world.fresh, None);
    assert_eq!(world.passages.lookups(), before + 2);
}

/// A named change of the host's passages.
type Step<'a> = (&'static str, Box<dyn Fn() + 'a>);

#[test]
fn every_passage_change_reaches_the_next_recall_of_both_services() {
    let world = World::new();
    let w = ws();
    let alice = MemberId::new("alice").unwrap();
    let changes: Vec<Step<'_>> = vec![
        (
            "new text",
            Box::new(|| world.passages.put_passage(&w, passage(0, 1, 1, 0))),
        ),
        (
            "new document version",
            Box::new(|| world.passages.put_passage(&w, passage(1, 0, 2, 1))),
        ),
        (
            "other entities",
            Box::new(|| world.passages.put_passage(&w, passage(2, 0, 1, 4))),
        ),
        (
            "original again",
            Box::new(|| {
                world.passages.put_passage(&w, passage(0, 0, 1, 0));
                world.passages.put_passage(&w, passage(1, 0, 1, 1));
            }),
        ),
        (
            "document deleted",
            Box::new(|| {
                world.passages.delete_document(&w, "d0");
            }),
        ),
        (
            "passages back",
            Box::new(|| {
                world.passages.put_passage(&w, passage(0, 0, 1, 0));
                world.passages.put_passage(&w, passage(3, 0, 1, 3));
            }),
        ),
        (
            "document expired",
            Box::new(|| world.passages.expire_document(&w, "d1")),
        ),
        (
            "unreadable for alice",
            Box::new(|| {
                world
                    .passages
                    .set_document_readable(&w, "d2", &alice, false)
            }),
        ),
        (
            "readable again",
            Box::new(|| world.passages.set_document_readable(&w, "d2", &alice, true)),
        ),
        (
            "collection deleted",
            Box::new(|| {
                world.passages.delete_collection(&w, "c0");
            }),
        ),
    ];
    check(&world);
    let mut seen = vec![(
        recall(&world.kept, None).hidden,
        states(&recall(&world.kept, None)),
    )];
    for (what, change) in &changes {
        let before = recall(&world.kept, None);
        change();
        let after = recall(&world.kept, None);
        assert_eq!(after, recall(&world.fresh, None), "after {what}");
        assert_eq!(
            after,
            recall(&world.other, None),
            "after {what}, other service"
        );
        assert_ne!(after, before, "{what} changes the answer");
        seen.push((after.hidden, states(&after)));
        check(&world);
    }
    // The changes went through every state: changed, hidden, current again.
    assert!(seen.iter().any(|(_, s)| s.contains(&SourceState::Changed)));
    assert!(seen.iter().any(|(hidden, _)| *hidden > 0));
    assert!(seen.iter().any(|(hidden, _)| *hidden == 0));
}

#[test]
fn verdicts_kept_from_before_a_change_during_the_lookup_are_not_mixed_in() {
    let mut armed = None;
    let world = World::with_source(|inner| {
        let source = Arc::new(ChangesDuringLookup {
            inner,
            armed: AtomicBool::new(false),
        });
        armed = Some(source.clone());
        source
    });
    let source = armed.unwrap();
    // Namespace `a` keeps the verdicts of its rows; the full recall then reuses those and looks
    // the others up, during which `d1` expires: the answer is that of one lookup after it.
    recall(&world.kept, Some("a"));
    source.armed.store(true, Ordering::SeqCst);
    let kept = recall(&world.kept, None);
    assert!(!source.armed.load(Ordering::SeqCst), "the change happened");
    assert!(kept.hidden > 0);
    assert_eq!(kept, recall(&world.fresh, None));
    check(&world);
}

#[test]
fn verdicts_looked_up_while_the_passages_changed_are_not_kept() {
    let mut armed = None;
    let world = World::with_source(|inner| {
        let source = Arc::new(ChangesDuringLookup {
            inner,
            armed: AtomicBool::new(false),
        });
        armed = Some(source.clone());
        source
    });
    let source = armed.unwrap();
    // The first recall's lookup sees `d1` expire: its verdicts are answered, not kept, so the
    // next recall looks up again (and then keeps).
    source.armed.store(true, Ordering::SeqCst);
    let first = recall(&world.kept, None);
    assert!(!source.armed.load(Ordering::SeqCst), "the change happened");
    let before = world.passages.lookups();
    let second = recall(&world.kept, None);
    assert_eq!(world.passages.lookups(), before + 1, "nothing was kept");
    assert_eq!(first, second);
    assert_eq!(second, recall(&world.fresh, None));
    check(&world);
}

/// One change to the host's passages or the member's notes.
#[derive(Debug, Clone)]
enum Change {
    Put {
        passage: usize,
        text: usize,
        version: u64,
        entities: usize,
    },
    DeleteDocument(usize),
    DeleteCollection(usize),
    Expire(usize),
    Readable(usize, bool),
    Remember {
        namespace: bool,
        cites: Vec<usize>,
    },
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (0..PASSAGES, 0..3usize, 1..4u64, 0..5usize).prop_map(
            |(passage, text, version, entities)| Change::Put {
                passage,
                text,
                version,
                entities
            }
        ),
        1 => (0..3usize).prop_map(Change::DeleteDocument),
        1 => (0..2usize).prop_map(Change::DeleteCollection),
        1 => (0..3usize).prop_map(Change::Expire),
        1 => (0..3usize, any::<bool>()).prop_map(|(d, r)| Change::Readable(d, r)),
        1 => (any::<bool>(), proptest::collection::vec(0..PASSAGES, 0..3))
            .prop_map(|(namespace, cites)| Change::Remember { namespace, cites }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// After any sequence of changes, every recall answers what a recall looking every citation
    /// up answers (no stale verdict), in the service keeping them and in another sharing the
    /// source, and a recall after no change looks nothing up.
    #[test]
    fn kept_verdicts_never_go_stale(changes in proptest::collection::vec(change(), 1..8)) {
        let mut world = World::new();
        let w = ws();
        let alice = MemberId::new("alice").unwrap();
        check(&world);
        for change in changes {
            match change {
                Change::Put { passage: p, text, version, entities } => {
                    world.passages.put_passage(&w, passage(p, text, version, entities));
                }
                Change::DeleteDocument(d) => {
                    world.passages.delete_document(&w, &format!("d{d}"));
                }
                Change::DeleteCollection(c) => {
                    world.passages.delete_collection(&w, &format!("c{c}"));
                }
                Change::Expire(d) => world.passages.expire_document(&w, &format!("d{d}")),
                Change::Readable(d, readable) => {
                    world.passages.set_document_readable(&w, &format!("d{d}"), &alice, readable);
                }
                Change::Remember { namespace, cites } => {
                    world.remember(if namespace { "a" } else { "b" }, &cites);
                }
            }
            check(&world);
        }
    }
}

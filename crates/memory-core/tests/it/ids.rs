//! Id prefixes, typed parsing, and generation order for both generators.

use memory_core::{
    AgentMemoryId, IdGenerator, IdKind, MemoryStoreId, MemoryVersionId, RandomIdGenerator,
    SeededIdGenerator, SessionId, StoreMemoryId, Timestamp,
};
use proptest::prelude::*;

fn at(ms: i64) -> Timestamp {
    Timestamp::from_millis(ms).unwrap()
}

#[test]
fn prefixes() {
    let expected = [
        (IdKind::AgentMemory, "amem_"),
        (IdKind::MemoryStore, "memstore_"),
        (IdKind::StoreMemory, "mem_"),
        (IdKind::MemoryVersion, "memver_"),
        (IdKind::Session, "sesn_"),
    ];
    let generator = RandomIdGenerator::new();
    for (kind, prefix) in expected {
        assert_eq!(kind.prefix(), prefix);
        let id = generator.next_id(kind, at(1_767_225_600_000));
        assert!(id.starts_with(prefix), "{id}");
        assert_eq!(id.len(), prefix.len() + 26);
        assert_eq!(IdKind::of(&id), Some(kind));
    }
}

#[test]
fn typed_ids_check_their_prefix() {
    let now = at(1_767_225_600_123);
    let generator = SeededIdGenerator::new(1);
    let id = AgentMemoryId::generate(&generator, now).unwrap();
    assert!(id.is_canonical());
    assert_eq!(id.timestamp(), Some(now));
    assert!(
        MemoryStoreId::generate(&generator, now)
            .unwrap()
            .as_str()
            .starts_with("memstore_")
    );
    assert!(
        StoreMemoryId::generate(&generator, now)
            .unwrap()
            .as_str()
            .starts_with("mem_")
    );
    assert!(
        MemoryVersionId::generate(&generator, now)
            .unwrap()
            .as_str()
            .starts_with("memver_")
    );
    assert!(
        SessionId::generate(&generator, now)
            .unwrap()
            .as_str()
            .starts_with("sesn_")
    );

    assert!(StoreMemoryId::parse(id.as_str()).is_err());
    assert!(MemoryStoreId::parse("mem_01jq0000000000000000000000").is_err());
    assert!(StoreMemoryId::parse("memstore_01jq0000000000000000000000").is_err());
    assert!(AgentMemoryId::parse("AMEM_x").is_err());
    assert!(AgentMemoryId::parse("amem_x/../y").is_err());

    // Serde is the plain string, validated on the way in.
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, format!("\"{id}\""));
    assert_eq!(serde_json::from_str::<AgentMemoryId>(&json).unwrap(), id);
    assert!(serde_json::from_str::<SessionId>(&json).is_err());
}

/// A generator that breaks the contract is caught by the typed helper.
struct Broken;

impl IdGenerator for Broken {
    fn next_id(&self, _: IdKind, _: Timestamp) -> String {
        "nope".into()
    }
}

#[test]
fn typed_generation_refuses_a_broken_generator() {
    assert!(AgentMemoryId::generate(&Broken, at(0)).is_err());
}

fn check_increasing(generator: &dyn IdGenerator, kind: IdKind, instants: &[i64]) -> Vec<String> {
    let ids: Vec<String> = instants
        .iter()
        .map(|&ms| generator.next_id(kind, at(ms)))
        .collect();
    for pair in ids.windows(2) {
        assert!(pair[0] < pair[1], "{} !< {}", pair[0], pair[1]);
    }
    ids
}

/// Instants that mostly move forward but often repeat and sometimes step back.
fn instants() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-2_000i64..5_000, 1..200).prop_map(|steps| {
        let mut now = 1_767_225_600_000i64;
        steps
            .into_iter()
            .map(|step| {
                now += if step < 0 {
                    step / 10
                } else if step < 2_500 {
                    0
                } else {
                    step
                };
                now
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn random_ids_made_later_sort_after(instants in instants(), kind in 0usize..5) {
        check_increasing(&RandomIdGenerator::new(), IdKind::ALL[kind], &instants);
    }

    #[test]
    fn seeded_ids_made_later_sort_after_and_are_deterministic(
        instants in instants(), seed: u64, kind in 0usize..5,
    ) {
        let kind = IdKind::ALL[kind];
        let first = check_increasing(&SeededIdGenerator::new(seed), kind, &instants);
        let second = check_increasing(&SeededIdGenerator::new(seed), kind, &instants);
        prop_assert_eq!(first, second);
    }

    #[test]
    fn ids_of_later_milliseconds_sort_after(a in 0i64..(1 << 47), b in 0i64..(1 << 47)) {
        // Across generators too: the time part dominates.
        let (early, late) = (a.min(b), a.max(b));
        prop_assume!(early < late);
        let x = SeededIdGenerator::new(9).next_id(IdKind::Session, at(late));
        let y = RandomIdGenerator::new().next_id(IdKind::Session, at(early));
        prop_assert!(y < x);
    }
}

#[test]
fn interleaved_kinds_and_threads_stay_ordered() {
    let generator = std::sync::Arc::new(RandomIdGenerator::new());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let generator = generator.clone();
            std::thread::spawn(move || {
                (0..500)
                    .map(|_| generator.next_id(IdKind::AgentMemory, at(1_000)))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all = Vec::new();
    for handle in handles {
        let ids = handle.join().unwrap();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        all.extend(ids);
    }
    let count = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), count, "duplicate ids");
}

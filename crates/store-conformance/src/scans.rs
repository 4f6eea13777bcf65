//! Scenario checks of the [`Backend`] contract's reads: scan order and keyset pages, exact
//! filters, the validity rule, retention, and owner isolation.

use memory_core::{AgentMemory, Timestamp};
use store_trait::{Backend, Owner, RememberState, ScanQuery};

use super::fixture::{Note, ids, mid, owner, scan_all, t, ws};

/// Scans return `created_at` desc then `id` desc; keyset pages concatenate to the full scan,
/// also when versions are written and superseded between pages.
pub fn scan_orders_newest_first_with_stable_keyset_pages<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    for (at, id) in [(0, 5), (0, 3), (0, 9), (10, 1), (10, 2), (20, 4)] {
        Note::new(&alice, "n", t(at)).id(id).remember(&b);
    }
    Note::new(&alice, "n", t(5)).id(7).key("k").remember(&b);
    let order = [(20, 4), (10, 2), (10, 1), (5, 7), (0, 9), (0, 5), (0, 3)];
    let expected: Vec<_> = order.iter().map(|&(_, id)| mid(id)).collect();

    let as_of = t(25);
    let full = scan_all(&b, &alice, as_of, Timestamp::MIN);
    assert_eq!(ids(&full), expected);
    for (m, &(at, _)) in full.iter().zip(&order) {
        assert_eq!(m.created_at, t(at));
    }

    for limit in 1..=8 {
        assert_eq!(
            ids(&paginate(&b, &alice, as_of, limit, &mut |_| {})),
            expected,
            "pages of {limit}"
        );
    }
    assert_eq!(
        b.scan(&alice, &ScanQuery::new(as_of, Timestamp::MIN, 0))
            .unwrap(),
        vec![]
    );
    let after_last = ScanQuery {
        after: Some((t(0), mid(3))),
        ..ScanQuery::new(as_of, Timestamp::MIN, 10)
    };
    assert_eq!(b.scan(&alice, &after_last).unwrap(), vec![]);
    // A position between two versions of the same instant.
    let same_instant = ScanQuery {
        after: Some((t(10), mid(2))),
        ..ScanQuery::new(as_of, Timestamp::MIN, 2)
    };
    assert_eq!(
        ids(&b.scan(&alice, &same_instant).unwrap()),
        vec![mid(1), mid(7)]
    );
    // A position that is no stored version still orders by (created_at, id).
    let between = ScanQuery {
        after: Some((t(10), mid(0))),
        ..ScanQuery::new(t(40), Timestamp::MIN, 1)
    };
    assert_eq!(ids(&b.scan(&alice, &between).unwrap()), vec![mid(7)]);

    // Writes between pages: newer versions (one valid at the pages' asOf), and a supersede of a
    // version not read yet. The pages still concatenate to the scan made before the writes.
    let pages = paginate(&b, &alice, as_of, 2, &mut |read| {
        if read == 2 {
            Note::new(&alice, "n", t(30)).id(100).remember(&b);
            Note::new(&alice, "n", t(25)).id(101).remember(&b);
            Note::new(&alice, "n", t(31)).id(102).key("k").remember(&b);
        }
    });
    assert_eq!(ids(&pages), expected);
}

/// Reads every page of `limit` versions valid at `as_of`, calling `between` with the number of
/// versions read so far after each page.
fn paginate<B: Backend + ?Sized>(
    b: &B,
    owner: &Owner,
    as_of: Timestamp,
    limit: usize,
    between: &mut dyn FnMut(usize),
) -> Vec<AgentMemory> {
    let mut pages = Vec::new();
    let mut query = ScanQuery::new(as_of, Timestamp::MIN, limit);
    loop {
        let page = b.scan(owner, &query).unwrap();
        assert!(page.len() <= limit, "a page longer than its limit");
        let Some(last) = page.last() else { break };
        query.after = Some((last.created_at, last.id.clone()));
        pages.extend(page);
        between(pages.len());
        assert!(pages.len() <= 1_000, "pagination does not end");
    }
    pages
}

/// Namespace, key and collection filters are exact equality: `a_`, `a%`, `a*` and prefixes of
/// real values match nothing else.
pub fn scan_filters_are_exact<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let namespaces = ["a", "a_", "a%", "a*", "ab", "prefs", "A"];
    let keys = [None, Some("tone"), Some("tone_"), Some("ton"), Some("t%")];
    let collections = [None, Some("c1"), Some("c10"), Some("c_")];
    let mut stored = Vec::new();
    let mut at = 0;
    for ns in namespaces {
        for key in keys {
            for collection in collections {
                at += 1;
                let mut note = Note::new(&alice, ns, t(at));
                if let Some(key) = key {
                    note = note.key(key);
                }
                if let Some(collection) = collection {
                    note = note.collection(collection);
                }
                stored.push(note.remember(&b).1);
            }
        }
    }
    // Versions of one key under several collections superseded each other: compare against
    // what is valid now, with the stored `superseded_at`.
    let as_of = t(at + 1);
    stored.reverse();
    let stored: Vec<_> = stored
        .iter()
        .map(|m| b.get(&alice, &m.id).unwrap().expect("stored"))
        .filter(|m| m.is_valid_at(as_of))
        .collect();

    let ns_filters = [
        None,
        Some("a"),
        Some("a_"),
        Some("a%"),
        Some("a*"),
        Some("ab"),
        Some("prefs"),
        Some("pref"),
        Some("prefsx"),
        Some(""),
        Some("%"),
        Some("_"),
        Some("*"),
        Some("a "),
        Some("A"),
    ];
    let key_filters = [
        None,
        Some("tone"),
        Some("ton"),
        Some("tone_"),
        Some("t%"),
        Some("t"),
        Some("%"),
        Some(""),
    ];
    let collection_filters = [
        None,
        Some("c1"),
        Some("c"),
        Some("c%"),
        Some("c_"),
        Some("c10"),
        Some("c1 "),
    ];
    for namespace in ns_filters {
        for key in key_filters {
            for collection in collection_filters {
                let query = ScanQuery {
                    namespace: namespace.map(str::to_owned),
                    key: key.map(str::to_owned),
                    collection_id: collection.map(str::to_owned),
                    ..ScanQuery::new(as_of, Timestamp::MIN, usize::MAX)
                };
                let expected: Vec<_> = stored
                    .iter()
                    .filter(|m| namespace.is_none_or(|ns| m.namespace == ns))
                    .filter(|m| key.is_none_or(|k| m.key.as_deref() == Some(k)))
                    .filter(|m| collection.is_none_or(|c| m.collection_id.as_deref() == Some(c)))
                    .map(|m| m.id.clone())
                    .collect();
                assert_eq!(
                    ids(&b.scan(&alice, &query).unwrap()),
                    expected,
                    "filters {namespace:?} {key:?} {collection:?}"
                );
            }
        }
    }
}

/// A version is valid at `T` when `created_at ≤ T` and (`superseded_at` is none or
/// `superseded_at > T`); scans show the stored `superseded_at`, also when it lies after `T`.
pub fn scan_valid_at_follows_the_validity_rule<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, v1, _) = Note::new(&alice, "p", t(0)).key("k").remember(&b);
    let (_, v2, _) = Note::new(&alice, "p", t(10)).key("k").remember(&b);
    let (_, keyless, _) = Note::new(&alice, "p", t(15)).remember(&b);
    let (_, v3, _) = Note::new(&alice, "p", t(20)).key("k").remember(&b);
    let cases = [
        (-1, vec![]),
        (0, vec![v1.id.clone()]),
        (9, vec![v1.id.clone()]),
        (10, vec![v2.id.clone()]),
        (15, vec![keyless.id.clone(), v2.id.clone()]),
        (19, vec![keyless.id.clone(), v2.id.clone()]),
        (20, vec![v3.id.clone(), keyless.id.clone()]),
        (1_000, vec![v3.id.clone(), keyless.id.clone()]),
    ];
    for (at, expected) in cases {
        assert_eq!(
            ids(&scan_all(&b, &alice, t(at), Timestamp::MIN)),
            expected,
            "valid at {at}"
        );
    }
    let past = scan_all(&b, &alice, t(5), Timestamp::MIN);
    assert_eq!(past[0].superseded_at, Some(t(10)));
    assert_eq!(
        scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN).len(),
        2
    );
}

/// Versions with `created_at ≤ cutoff` are never scanned nor counted (by `stored_versions` and by
/// `RememberState::stored_versions`), while `get` still finds them until a purge.
pub fn expired_versions_are_never_scanned_or_counted<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, k0, _) = Note::new(&alice, "n", t(0)).remember(&b);
    let (_, v1, _) = Note::new(&alice, "n", t(5)).key("k").remember(&b);
    let (_, k10, _) = Note::new(&alice, "n", t(10)).remember(&b);
    let (_, v2, _) = Note::new(&alice, "n", t(15)).key("k").remember(&b);
    let (_, k20, _) = Note::new(&alice, "n", t(20)).remember(&b);

    for (cutoff, count) in [
        (Timestamp::MIN, 5),
        (t(-1), 5),
        (t(0), 4),
        (t(9), 3),
        (t(10), 2),
        (t(15), 1),
        (t(20), 0),
    ] {
        assert_eq!(
            b.stored_versions(&alice, cutoff).unwrap(),
            count,
            "cutoff {cutoff}"
        );
        let state = Note::new(&alice, "n", t(30))
            .key("k")
            .expired_cutoff(cutoff)
            .probe(&b);
        assert_eq!(
            state.stored_versions, count,
            "remember state, cutoff {cutoff}"
        );
    }
    assert_eq!(
        ids(&scan_all(&b, &alice, t(100), t(10))),
        vec![k20.id.clone(), v2.id.clone()]
    );
    assert_eq!(
        ids(&scan_all(&b, &alice, t(100), t(15))),
        vec![k20.id.clone()]
    );
    assert_eq!(
        scan_all(&b, &alice, t(12), t(10)),
        vec![],
        "expiry is judged by the cut-off, not asOf"
    );
    assert_eq!(ids(&scan_all(&b, &alice, t(12), t(0))), vec![k10.id, v1.id]);
    assert_eq!(b.get(&alice, &k0.id).unwrap(), Some(k0));
}

/// Another member of the workspace, the same member id in another workspace and owners whose ids
/// are prefixes of real ones never see, count, forget or delete the owner's versions.
pub fn owners_are_isolated<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, keyed, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let (_, keyless, _) = Note::new(&alice, "prefs", t(1)).remember(&b);
    let before = scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN);
    let strangers = [
        owner("ws1", "bob"),
        owner("ws2", "alice"),
        owner("ws1", "ali"),
        owner("ws1", "alice2"),
        owner("ws", "alice"),
        owner("ws10", "alice"),
        owner("ws1", "Alice"),
    ];
    for stranger in &strangers {
        for id in [&keyed.id, &keyless.id] {
            assert_eq!(b.get(stranger, id).unwrap(), None, "{stranger:?}");
            assert_eq!(b.forget_id(stranger, id).unwrap(), vec![], "{stranger:?}");
        }
        assert_eq!(b.current_of_key(stranger, "prefs", "tone").unwrap(), None);
        assert_eq!(
            scan_all(&b, stranger, Timestamp::MAX, Timestamp::MIN),
            vec![]
        );
        assert_eq!(b.stored_versions(stranger, Timestamp::MIN).unwrap(), 0);
        assert_eq!(b.forget_key(stranger, "prefs", "tone").unwrap(), vec![]);
        assert_eq!(b.delete_owner(stranger).unwrap(), 0);
        let state = Note::new(stranger, "prefs", t(5))
            .key("tone")
            .credential("cred_alice")
            .probe(&b);
        assert_eq!(
            state,
            RememberState {
                window: state.window.clone(),
                stored_versions: 0,
                current: None,
                last_version: 0,
                settings: None,
            }
        );
        let (seen, theirs, superseded) =
            Note::new(stranger, "prefs", t(5)).key("tone").remember(&b);
        assert_eq!(
            (seen.last_version, theirs.version, superseded),
            (0, 1, None)
        );
        assert_eq!(
            b.forget_key(stranger, "prefs", "tone").unwrap(),
            vec![theirs]
        );
    }
    assert_eq!(scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN), before);
    assert_eq!(
        b.current_of_key(&alice, "prefs", "tone").unwrap(),
        Some(keyed)
    );
    assert_eq!(b.purge_expired(&ws("ws2"), Timestamp::MAX).unwrap(), 0);
    assert_eq!(b.delete_workspace(&ws("ws")).unwrap(), 0);
    assert_eq!(scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN), before);
}

//! Scenario checks of the [`Backend`] contract's writes: remember, supersede and version
//! numbering, refusals, forgets, purges, deletions, settings, rate windows and maintenance writes.

use memory_core::{AgentMemory, ApiError, Settings, Timestamp};
use store_trait::{Backend, Error, RememberOutcome, RememberState, RememberWrite};

use super::fixture::{Note, ids, mid, owner, scan_all, t, ws};

/// A first keyed remember reads an empty state, stores version 1 and makes it current.
pub fn remember_writes_the_first_version<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let note = Note::new(&alice, "prefs", t(0)).key("tone");
    let (seen, record, superseded) = note.remember(&b);
    assert_eq!(
        seen,
        RememberState {
            window: vec![],
            stored_versions: 0,
            current: None,
            last_version: 0,
            settings: None,
        }
    );
    assert_eq!(record, note.record(1));
    assert_eq!(superseded, None);
    assert_eq!(b.get(&alice, &record.id).unwrap(), Some(record.clone()));
    assert_eq!(
        b.current_of_key(&alice, "prefs", "tone").unwrap(),
        Some(record.clone())
    );
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
    assert_eq!(scan_all(&b, &alice, t(0), Timestamp::MIN), vec![record]);
}

/// A keyed remember supersedes the key's current version at the new `created_at`, in the same
/// call, and numbers versions per (namespace, key).
pub fn remember_supersedes_and_numbers_versions<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, v1, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let (seen, v2, superseded) = Note::new(&alice, "prefs", t(10)).key("tone").remember(&b);
    assert_eq!(seen.current, Some(v1.clone()));
    assert_eq!(seen.last_version, 1);
    assert_eq!(seen.stored_versions, 1);
    assert_eq!(v2.version, 2);
    let mut v1_superseded = v1.clone();
    v1_superseded.superseded_at = Some(t(10));
    assert_eq!(superseded, Some(v1_superseded.clone()));
    assert_eq!(b.get(&alice, &v1.id).unwrap(), Some(v1_superseded));
    assert_eq!(
        b.current_of_key(&alice, "prefs", "tone").unwrap(),
        Some(v2.clone())
    );

    let (seen, v3, _) = Note::new(&alice, "prefs", t(20)).key("tone").remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, v3.version),
        (Some(v2), 2, 3)
    );

    // Another key of the namespace, and the same key in another namespace, number on their own.
    let (seen, other, _) = Note::new(&alice, "prefs", t(30)).key("lang").remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, other.version),
        (None, 0, 1)
    );
    let (seen, other, _) = Note::new(&alice, "prefs2", t(30)).key("tone").remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, other.version),
        (None, 0, 1)
    );
    assert_eq!(b.current_of_key(&alice, "prefs", "tone").unwrap(), Some(v3));
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 5);
}

/// Keyless remembers never read or supersede a current version and do not touch keyed ones.
pub fn keyless_versions_are_never_superseded<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, keyed, _) = Note::new(&alice, "notes", t(0)).key("k").remember(&b);
    let (seen, first, superseded) = Note::new(&alice, "notes", t(1)).remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, superseded),
        (None, 0, None)
    );
    let (seen, second, superseded) = Note::new(&alice, "notes", t(2)).remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, superseded),
        (None, 0, None)
    );
    assert_eq!((first.version, second.version), (1, 1));
    assert_eq!(
        b.get(&alice, &first.id).unwrap().unwrap().superseded_at,
        None
    );
    assert_eq!(
        b.current_of_key(&alice, "notes", "k").unwrap(),
        Some(keyed.clone())
    );
    assert_eq!(
        ids(&scan_all(&b, &alice, t(5), Timestamp::MIN)),
        vec![second.id, first.id, keyed.id]
    );
}

/// `RememberState::stored_versions` counts the owner's unexpired versions of every namespace,
/// superseded ones included, and nobody else's.
pub fn remember_state_counts_the_owner_only<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    Note::new(&alice, "prefs", t(10)).key("tone").remember(&b);
    Note::new(&alice, "other", t(20)).remember(&b);
    assert_eq!(Note::new(&alice, "x", t(30)).probe(&b).stored_versions, 3);
    assert_eq!(
        Note::new(&alice, "x", t(30))
            .expired_cutoff(t(0))
            .probe(&b)
            .stored_versions,
        2
    );
    assert_eq!(
        Note::new(&alice, "x", t(30))
            .expired_cutoff(t(20))
            .probe(&b)
            .stored_versions,
        0
    );
    for other in [owner("ws1", "bob"), owner("ws2", "alice")] {
        assert_eq!(
            Note::new(&other, "prefs", t(30))
                .key("tone")
                .probe(&b)
                .stored_versions,
            0
        );
    }
}

/// A refused decision writes nothing: no version, no supersede, no rate-window instant, no
/// numbering.
pub fn refusal_writes_nothing<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, v1, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let refused = Note::new(&alice, "prefs", t(5)).key("tone");
    let outcome = refused
        .remember_with(&b, &mut |_| Err(ApiError::rate_limited(7)))
        .unwrap();
    assert_eq!(outcome, RememberOutcome::Refused(ApiError::rate_limited(7)));
    assert_eq!(b.get(&alice, &refused.id).unwrap(), None);
    assert_eq!(
        b.current_of_key(&alice, "prefs", "tone").unwrap(),
        Some(v1.clone())
    );
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
    let seen = Note::new(&alice, "prefs", t(6)).key("tone").probe(&b);
    assert_eq!(
        seen,
        RememberState {
            window: vec![t(0)],
            stored_versions: 1,
            current: Some(v1),
            last_version: 1,
            settings: None,
        }
    );
}

/// A write that breaks the [`RememberWrite`] contract is answered with [`Error::InvalidWrite`]
/// and writes nothing.
pub fn invalid_write_is_rejected_and_writes_nothing<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, v1, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let note = Note::new(&alice, "prefs", t(5)).key("tone");
    let bob = Note::new(&owner("ws1", "bob"), "prefs", t(5)).key("tone");
    let other_ws = Note::new(&owner("ws2", "alice"), "prefs", t(5)).key("tone");
    let bad_records = [
        bob.record(2),
        other_ws.record(2),
        note.clone().credential("cred_other").record(2),
        Note {
            namespace: "prefs2".into(),
            ..note.clone()
        }
        .record(2),
        note.clone().key("tone2").record(2),
        Note {
            key: None,
            ..note.clone()
        }
        .record(2),
        AgentMemory {
            superseded_at: Some(t(6)),
            ..note.record(2)
        },
        AgentMemory {
            id: v1.id.clone(),
            ..note.record(2)
        },
    ];
    for bad in bad_records {
        let result = note.remember_with(&b, &mut |_| {
            Ok(RememberWrite {
                record: bad.clone(),
                supersede_current: true,
            })
        });
        assert!(
            matches!(result, Err(Error::InvalidWrite(_))),
            "accepted {bad:?}: {result:?}"
        );
    }
    // A keyless call cannot write a keyed record either.
    let keyless = Note::new(&alice, "prefs", t(5));
    let result = keyless.remember_with(&b, &mut |_| {
        Ok(RememberWrite {
            record: note.record(2),
            supersede_current: false,
        })
    });
    assert!(matches!(result, Err(Error::InvalidWrite(_))), "{result:?}");

    assert_eq!(
        scan_all(&b, &alice, t(10), Timestamp::MIN),
        vec![v1.clone()]
    );
    for other in [owner("ws1", "bob"), owner("ws2", "alice")] {
        assert_eq!(b.stored_versions(&other, Timestamp::MIN).unwrap(), 0);
    }
    let seen = Note::new(&alice, "prefs", t(6)).key("tone").probe(&b);
    assert_eq!(
        seen,
        RememberState {
            window: vec![t(0)],
            stored_versions: 1,
            current: Some(v1),
            last_version: 1,
            settings: None,
        }
    );
}

/// `forget_key` removes every version of the key, expired ones too, returns them newest first,
/// resets the numbering and touches nothing else; `asOf` cannot bring them back.
pub fn forget_key_removes_every_version_and_resets_numbering<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    Note::new(&alice, "prefs", t(10)).key("tone").remember(&b);
    let (_, v3, _) = Note::new(&alice, "prefs", t(20)).key("tone").remember(&b);
    let (_, lang, _) = Note::new(&alice, "prefs", t(15)).key("lang").remember(&b);
    let (_, keyless, _) = Note::new(&alice, "prefs", t(16)).remember(&b);
    let (_, other_ns, _) = Note::new(&alice, "prefs2", t(17)).key("tone").remember(&b);
    let before: Vec<_> = scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN);

    let removed = b.forget_key(&alice, "prefs", "tone").unwrap();
    assert_eq!(
        removed.iter().map(|m| m.version).collect::<Vec<_>>(),
        vec![3, 2, 1]
    );
    assert_eq!(removed[0], v3);
    assert_eq!(removed[1].superseded_at, Some(t(20)));
    for m in &removed {
        assert_eq!(b.get(&alice, &m.id).unwrap(), None);
    }
    assert_eq!(b.current_of_key(&alice, "prefs", "tone").unwrap(), None);
    for as_of in [t(5), t(15), t(25)] {
        let seen = scan_all(&b, &alice, as_of, Timestamp::MIN);
        assert!(
            seen.iter()
                .all(|m| m.key.as_deref() != Some("tone") || m.namespace != "prefs"),
            "asOf brought back a forgotten version"
        );
    }
    let expected: Vec<_> = before
        .into_iter()
        .filter(|m| !(m.namespace == "prefs" && m.key.as_deref() == Some("tone")))
        .collect();
    assert_eq!(
        scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN),
        expected
    );
    assert_eq!(
        b.current_of_key(&alice, "prefs", "lang").unwrap(),
        Some(lang)
    );
    assert_eq!(
        b.current_of_key(&alice, "prefs2", "tone").unwrap(),
        Some(other_ns)
    );
    assert!(b.get(&alice, &keyless.id).unwrap().is_some());

    assert_eq!(b.forget_key(&alice, "prefs", "tone").unwrap(), vec![]);
    assert_eq!(b.forget_key(&alice, "prefs", "never").unwrap(), vec![]);
    let (seen, again, _) = Note::new(&alice, "prefs", t(30)).key("tone").remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, again.version),
        (None, 0, 1)
    );
}

/// `forget_id` of any version of a key removes the whole key and resets its numbering.
pub fn forget_id_of_a_keyed_version_removes_its_whole_key<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, v1, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let (_, v2, _) = Note::new(&alice, "prefs", t(10)).key("tone").remember(&b);
    let (_, keyless, _) = Note::new(&alice, "prefs", t(5)).remember(&b);
    let removed = b.forget_id(&alice, &v1.id).unwrap();
    assert_eq!(ids(&removed), vec![v2.id.clone(), v1.id.clone()]);
    assert_eq!(b.get(&alice, &v2.id).unwrap(), None);
    assert_eq!(b.current_of_key(&alice, "prefs", "tone").unwrap(), None);
    assert_eq!(
        scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN),
        vec![keyless]
    );
    assert_eq!(b.forget_id(&alice, &v2.id).unwrap(), vec![]);
    assert_eq!(b.forget_id(&alice, &mid(999)).unwrap(), vec![]);
    let (seen, again, _) = Note::new(&alice, "prefs", t(20)).key("tone").remember(&b);
    assert_eq!((seen.last_version, again.version), (0, 1));
}

/// `forget_id` of a keyless version removes that version alone.
pub fn forget_id_of_a_keyless_version_removes_it_alone<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let (_, first, _) = Note::new(&alice, "notes", t(0)).remember(&b);
    let (_, second, _) = Note::new(&alice, "notes", t(1)).remember(&b);
    let (_, keyed, _) = Note::new(&alice, "notes", t(2)).key("k").remember(&b);
    assert_eq!(b.forget_id(&alice, &first.id).unwrap(), vec![first.clone()]);
    assert_eq!(b.forget_id(&alice, &first.id).unwrap(), vec![]);
    assert_eq!(
        scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN),
        vec![keyed.clone(), second]
    );
    assert_eq!(b.current_of_key(&alice, "notes", "k").unwrap(), Some(keyed));
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 2);
}

/// Purges never reset a key's numbering, and a purge that removes a key's current version leaves
/// the key without one: older versions stay superseded; a forget that finds only purged versions
/// forgets nothing.
pub fn purges_keep_numbering_and_resurrect_nothing<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let w = ws("ws1");
    let (_, v1, _) = Note::new(&alice, "prefs", t(0)).key("tone").remember(&b);
    let (_, v2, _) = Note::new(&alice, "prefs", t(10))
        .key("tone")
        .cites("d1", "c1")
        .remember(&b);

    assert_eq!(b.purge_document(&w, "d1").unwrap(), 1);
    assert_eq!(b.get(&alice, &v2.id).unwrap(), None);
    assert_eq!(b.current_of_key(&alice, "prefs", "tone").unwrap(), None);
    assert_eq!(
        b.get(&alice, &v1.id).unwrap().unwrap().superseded_at,
        Some(t(10))
    );
    assert_eq!(
        scan_all(&b, &alice, t(20), Timestamp::MIN),
        vec![],
        "a purge resurrected an older version"
    );
    // History before the supersede is still history.
    assert_eq!(
        ids(&scan_all(&b, &alice, t(5), Timestamp::MIN)),
        vec![v1.id.clone()]
    );

    let (seen, v3, superseded) = Note::new(&alice, "prefs", t(30))
        .key("tone")
        .collection("c9")
        .remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, v3.version, superseded),
        (None, 2, 3, None)
    );
    assert_eq!(
        b.get(&alice, &v1.id).unwrap().unwrap().superseded_at,
        Some(t(10))
    );

    assert_eq!(b.purge_collection(&w, "c9").unwrap(), 1);
    let (seen, v4, _) = Note::new(&alice, "prefs", t(40)).key("tone").remember(&b);
    assert_eq!((seen.current, seen.last_version, v4.version), (None, 3, 4));

    assert_eq!(b.purge_expired(&w, t(0)).unwrap(), 1);
    assert_eq!(b.get(&alice, &v1.id).unwrap(), None);
    let (seen, v5, _) = Note::new(&alice, "prefs", t(50)).key("tone").remember(&b);
    assert_eq!(
        (seen.current, seen.last_version, v5.version),
        (Some(v4.clone()), 4, 5)
    );

    // Purge everything of the key: a forget then finds nothing and forgets nothing.
    assert_eq!(b.purge_expired(&w, t(50)).unwrap(), 2);
    assert_eq!(b.forget_key(&alice, "prefs", "tone").unwrap(), vec![]);
    let (seen, v6, _) = Note::new(&alice, "prefs", t(60)).key("tone").remember(&b);
    assert_eq!((seen.current, seen.last_version, v6.version), (None, 5, 6));
}

/// `purge_expired` removes exactly the workspace's versions with `created_at ≤ cutoff`, of every
/// member, and counts them.
pub fn purge_expired_is_inclusive_and_scoped_to_the_workspace<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let elsewhere = owner("ws2", "alice");
    Note::new(&alice, "n", t(0)).remember(&b);
    Note::new(&alice, "n", t(10)).key("k").remember(&b);
    let (_, kept, _) = Note::new(&alice, "n", t(20)).key("k").remember(&b);
    Note::new(&bob, "n", t(10)).remember(&b);
    let (_, other, _) = Note::new(&elsewhere, "n", t(0)).remember(&b);
    Note::new(&owner("ws", "alice"), "n", t(0)).remember(&b);

    assert_eq!(b.purge_expired(&ws("ws1"), t(10)).unwrap(), 3);
    assert_eq!(
        scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN),
        vec![kept.clone()]
    );
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 1);
    assert_eq!(b.stored_versions(&bob, Timestamp::MIN).unwrap(), 0);
    assert_eq!(
        scan_all(&b, &elsewhere, Timestamp::MAX, Timestamp::MIN),
        vec![other]
    );
    assert_eq!(
        b.stored_versions(&owner("ws", "alice"), Timestamp::MIN)
            .unwrap(),
        1
    );
    assert_eq!(b.purge_expired(&ws("ws1"), t(10)).unwrap(), 0);
    assert_eq!(b.purge_expired(&ws("ws3"), t(100)).unwrap(), 0);
    assert_eq!(b.current_of_key(&alice, "n", "k").unwrap(), Some(kept));
}

/// `purge_document` removes the workspace's versions citing the document;
/// `purge_collection` those anchored to the collection or citing a passage recorded in it.
/// Ids are matched exactly (`d1` is not `d10`, `c` matches nothing).
pub fn purge_document_and_collection_match_exactly<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let elsewhere = owner("ws2", "alice");
    let (_, m1, _) = Note::new(&alice, "n", t(1)).cites("d1", "c1").remember(&b);
    let (_, m2, _) = Note::new(&alice, "n", t(2))
        .cites("d2", "c2")
        .collection("c1")
        .remember(&b);
    let (_, m3, _) = Note::new(&alice, "n", t(3)).collection("c2").remember(&b);
    let (_, m4, _) = Note::new(&bob, "n", t(4)).cites("d1", "c3").remember(&b);
    let (_, m5, _) = Note::new(&elsewhere, "n", t(5))
        .cites("d1", "c1")
        .collection("c1")
        .remember(&b);
    let (_, m6, _) = Note::new(&alice, "n", t(6))
        .cites("d10", "c10")
        .collection("c10")
        .remember(&b);
    let (_, m7, _) = Note::new(&alice, "n", t(7))
        .cites("d3", "c3")
        .cites("d7", "c2")
        .remember(&b);
    let (_, m8, _) = Note::new(&alice, "n", t(8)).remember(&b);

    assert_eq!(b.purge_document(&ws("ws1"), "d").unwrap(), 0);
    assert_eq!(b.purge_collection(&ws("ws1"), "c").unwrap(), 0);
    assert_eq!(b.purge_document(&ws("ws1"), "d1").unwrap(), 2);
    assert_eq!(b.get(&alice, &m1.id).unwrap(), None);
    assert_eq!(b.get(&bob, &m4.id).unwrap(), None);
    assert_eq!(b.purge_collection(&ws("ws1"), "c1").unwrap(), 1);
    assert_eq!(b.get(&alice, &m2.id).unwrap(), None);
    assert_eq!(b.purge_collection(&ws("ws1"), "c2").unwrap(), 2);
    assert_eq!(
        ids(&scan_all(&b, &alice, Timestamp::MAX, Timestamp::MIN)),
        vec![m8.id, m6.id]
    );
    assert_eq!(b.get(&alice, &m3.id).unwrap(), None);
    assert_eq!(b.get(&alice, &m7.id).unwrap(), None);
    assert_eq!(
        scan_all(&b, &elsewhere, Timestamp::MAX, Timestamp::MIN),
        vec![m5]
    );
    assert_eq!(b.purge_document(&ws("ws1"), "d1").unwrap(), 0);
}

/// `delete_owner` removes one owner's versions, `delete_workspace` every member's of one
/// workspace; both reset numbering and keep settings and rate windows.
pub fn deletes_are_scoped_and_reset_numbering<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let w1 = ws("ws1");
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let elsewhere = owner("ws2", "alice");
    let settings = Settings::new(true, 30).unwrap();
    b.put_settings(&w1, &settings).unwrap();
    Note::new(&alice, "p", t(0)).key("k").remember(&b);
    Note::new(&alice, "p", t(1)).key("k").remember(&b);
    Note::new(&alice, "q", t(2)).remember(&b);
    Note::new(&bob, "p", t(3)).key("k").remember(&b);
    Note::new(&bob, "p", t(4)).remember(&b);
    let (_, other, _) = Note::new(&elsewhere, "p", t(5)).key("k").remember(&b);

    assert_eq!(b.delete_owner(&alice).unwrap(), 3);
    assert_eq!(b.delete_owner(&alice).unwrap(), 0);
    assert_eq!(b.stored_versions(&alice, Timestamp::MIN).unwrap(), 0);
    assert_eq!(b.stored_versions(&bob, Timestamp::MIN).unwrap(), 2);
    let state = Note::new(&alice, "p", t(10)).key("k").probe(&b);
    assert_eq!((state.current, state.last_version), (None, 0));
    assert_eq!(
        state.window,
        vec![t(0), t(1), t(2)],
        "deletes do not refund the rate window"
    );

    assert_eq!(b.delete_workspace(&w1).unwrap(), 2);
    assert_eq!(b.stored_versions(&bob, Timestamp::MIN).unwrap(), 0);
    let state = Note::new(&bob, "p", t(10)).key("k").probe(&b);
    assert_eq!(
        (state.current, state.last_version, state.window.len()),
        (None, 0, 2)
    );
    assert_eq!(b.settings(&w1).unwrap(), Some(settings));
    assert_eq!(
        scan_all(&b, &elsewhere, Timestamp::MAX, Timestamp::MIN),
        vec![other]
    );
    assert_eq!(b.delete_workspace(&w1).unwrap(), 0);
    assert_eq!(b.delete_workspace(&ws("ws3")).unwrap(), 0);
}

/// Settings are stored per workspace, `None` until set, replaced by a later put.
pub fn settings_roundtrip<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    assert_eq!(b.settings(&ws("ws1")).unwrap(), None);
    let first = Settings::new(true, 30).unwrap();
    b.put_settings(&ws("ws1"), &first).unwrap();
    assert_eq!(b.settings(&ws("ws1")).unwrap(), Some(first));
    for other in ["ws2", "ws", "ws10", "WS1"] {
        assert_eq!(b.settings(&ws(other)).unwrap(), None);
    }
    let second = Settings::new(false, 365).unwrap();
    b.put_settings(&ws("ws1"), &second).unwrap();
    assert_eq!(b.settings(&ws("ws1")).unwrap(), Some(second));
    b.put_settings(&ws("ws2"), &Settings::default()).unwrap();
    assert_eq!(b.settings(&ws("ws2")).unwrap(), Some(Settings::default()));
    assert_eq!(b.settings(&ws("ws1")).unwrap(), Some(second));
}

/// A remember's state holds its own workspace's settings as stored, read in its transaction:
/// none before any were put, each put as soon as it is made, never another workspace's.
pub fn remember_state_holds_the_workspace_settings<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let probe = |b: &B| {
        Note::new(&alice, "prefs", t(0))
            .key("tone")
            .probe(b)
            .settings
    };
    assert_eq!(probe(&b), None);
    for other in ["ws2", "ws", "ws10", "WS1"] {
        b.put_settings(&ws(other), &Settings::new(true, 7).unwrap())
            .unwrap();
    }
    assert_eq!(probe(&b), None);
    let first = Settings::new(true, 30).unwrap();
    b.put_settings(&ws("ws1"), &first).unwrap();
    assert_eq!(probe(&b), Some(first));
    Note::new(&alice, "prefs", t(1)).key("tone").remember(&b);
    let second = Settings::new(false, 365).unwrap();
    b.put_settings(&ws("ws1"), &second).unwrap();
    assert_eq!(probe(&b), Some(second));
}

/// The rate window is kept per (workspace, credential), oldest first; a write drops instants
/// `≤ window_start` from the stored record; forgets do not refund it.
pub fn rate_window_is_pruned_and_kept_per_credential<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let note = |at: i64| Note::new(&alice, "n", t(at)).credential("cred_a");
    note(0).remember(&b);
    note(10).remember(&b);
    let (_, keyed, _) = note(20).key("k").remember(&b);
    assert_eq!(note(30).probe(&b).window, vec![t(0), t(10), t(20)]);
    assert_eq!(
        note(30).window_start(t(0)).probe(&b).window,
        vec![t(10), t(20)]
    );

    let (seen, _, _) = note(30).window_start(t(10)).remember(&b);
    assert_eq!(seen.window, vec![t(20)]);
    // The write dropped t(0) and t(10) from the stored record.
    assert_eq!(note(40).probe(&b).window, vec![t(20), t(30)]);
    // An instant before the newest (a clock that went back) is kept in order.
    note(25).window_start(t(10)).remember(&b);
    assert_eq!(note(40).probe(&b).window, vec![t(20), t(25), t(30)]);

    assert_eq!(b.forget_key(&alice, "n", "k").unwrap(), vec![keyed]);
    assert_eq!(
        note(40).probe(&b).window,
        vec![t(20), t(25), t(30)],
        "a forget refunded the window"
    );

    // Another credential of the owner, and the same credential id in another workspace.
    assert_eq!(note(40).credential("cred_b").probe(&b).window, vec![]);
    assert_eq!(
        Note::new(&owner("ws2", "alice"), "n", t(40))
            .credential("cred_a")
            .probe(&b)
            .window,
        vec![]
    );
    assert_eq!(
        Note::new(&owner("ws1", "bob"), "n", t(40))
            .credential("cred_bob")
            .probe(&b)
            .window,
        vec![]
    );
}

/// [`Backend::versions`] lists every unexpired version of the owner whatever its validity
/// (superseded ones too), in scan order with keyset pages; [`Backend::set_embedding`] replaces
/// one version's embedding and nothing else, and finds nothing of another owner.
pub fn versions_and_set_embedding_touch_only_the_owners_versions<B: Backend>(make: &dyn Fn() -> B) {
    let b = make();
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let (_, k0, _) = Note::new(&alice, "n", t(0)).remember(&b);
    let (_, v1, _) = Note::new(&alice, "n", t(5)).key("k").remember(&b);
    let (_, v2, _) = Note::new(&alice, "n", t(10)).key("k").remember(&b);
    let (_, k15, _) = Note::new(&alice, "other", t(15)).remember(&b);
    let (_, theirs, _) = Note::new(&bob, "n", t(12)).remember(&b);

    // Newest first, the superseded v1 included; the expiry cut-off still applies.
    let all = b
        .versions(&alice, Timestamp::MIN, None, usize::MAX)
        .unwrap();
    assert_eq!(
        ids(&all),
        vec![k15.id.clone(), v2.id.clone(), v1.id.clone(), k0.id.clone()]
    );
    assert!(all[2].superseded_at.is_some(), "v1 is listed as superseded");
    assert_eq!(
        ids(&b.versions(&alice, t(0), None, usize::MAX).unwrap()),
        vec![k15.id.clone(), v2.id.clone(), v1.id.clone()]
    );
    // Pages of two, each after the last version of the previous one.
    let first = b.versions(&alice, Timestamp::MIN, None, 2).unwrap();
    let after = first.last().map(|m| (m.created_at, m.id.clone())).unwrap();
    let second = b.versions(&alice, Timestamp::MIN, Some(&after), 2).unwrap();
    assert_eq!(ids(&first), vec![k15.id.clone(), v2.id.clone()]);
    assert_eq!(ids(&second), vec![v1.id.clone(), k0.id.clone()]);
    assert_eq!(b.versions(&alice, Timestamp::MIN, None, 0).unwrap(), vec![]);
    assert_eq!(
        ids(&b.versions(&bob, Timestamp::MIN, None, 9).unwrap()),
        vec![theirs.id.clone()]
    );

    // Replacing the superseded version's embedding changes that and nothing else.
    let embedding = memory_core::StoredEmbedding {
        model: "model-b".into(),
        vector: vec![0.6, -0.8],
    };
    let before_state = Note::new(&alice, "n", t(30)).key("k").probe(&b);
    assert!(b.set_embedding(&alice, &v1.id, &embedding).unwrap());
    let mut expected = v1.clone();
    expected.superseded_at = Some(v2.created_at);
    expected.ranking.embedding = Some(embedding.clone());
    assert_eq!(b.get(&alice, &v1.id).unwrap(), Some(expected.clone()));
    assert_eq!(
        b.versions(&alice, Timestamp::MIN, None, usize::MAX)
            .unwrap()[2],
        expected
    );
    assert_eq!(
        scan_all(&b, &alice, t(7), Timestamp::MIN),
        vec![expected.clone(), k0.clone()],
        "the version stays where it was in scans"
    );
    assert_eq!(
        b.current_of_key(&alice, "n", "k").unwrap(),
        Some(v2.clone())
    );
    assert_eq!(
        Note::new(&alice, "n", t(30)).key("k").probe(&b),
        before_state,
        "counts, key numbering and the rate window are unchanged"
    );
    // Again, with another model: the last write wins.
    let newer = memory_core::StoredEmbedding {
        model: "model-c".into(),
        vector: vec![1.0],
    };
    assert!(b.set_embedding(&alice, &v1.id, &newer).unwrap());
    assert_eq!(
        b.get(&alice, &v1.id)
            .unwrap()
            .and_then(|m| m.ranking.embedding),
        Some(newer)
    );

    // Another owner's version, an unknown id and a forgotten version are not found.
    assert!(!b.set_embedding(&alice, &theirs.id, &embedding).unwrap());
    assert!(!b.set_embedding(&bob, &k0.id, &embedding).unwrap());
    assert!(!b.set_embedding(&alice, &mid(999_999), &embedding).unwrap());
    assert_eq!(b.get(&bob, &theirs.id).unwrap(), Some(theirs));
    b.forget_id(&alice, &k0.id).unwrap();
    assert!(!b.set_embedding(&alice, &k0.id, &embedding).unwrap());
    assert_eq!(b.get(&alice, &k0.id).unwrap(), None);
}

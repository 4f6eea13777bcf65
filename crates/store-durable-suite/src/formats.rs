//! The fixture history of the format tests: homes written before agent memories moved into the
//! key space (redb and sled, format 3), before the recall index (redb and sled format 4, SQLite
//! format 1), by analyzer version 1 (redb and sled format 5, SQLite format 2) and with postings,
//! vectors and version counts beside the versions (redb and sled format 6, SQLite format 3) are
//! checked in under each backend's `tests/fixtures/`, written through [`populate`] (and
//! [`populate_talk`]); the generator tests that did it are in the commits that added them. Opening one read-write
//! upgrades it in place, and every answer the old code gave (recorded in
//! `fixtures/format3-expected.json` of this crate by the same run) must come back unchanged
//! ([`expected`], [`expected_upgraded`]). The same history written afresh on every backend must
//! give those answers too.

use std::path::{Path, PathBuf};

use memory_core::{
    Actor, Citation, CredentialId, MemoryStore, MemoryStoreId, MemoryVersionId, PiiPolicy, Session,
    SessionId, Settings, StoreMemoryId, StorePath, StoredEmbedding, Timestamp,
};
use serde_json::{Value, json};
use std::sync::Arc;

use store_trait::{
    Backend, MemberHistory, MemoryChange, MemoryWrite, Owner, Storage, StoreBackend,
};

use crate::crash::{Remember, at, owner, probe};

fn owners() -> [Owner; 3] {
    [
        owner("ws_a", "alice"),
        owner("ws_a", "bob"),
        owner("ws_b", "alice"),
    ]
}

fn credential(name: &str) -> CredentialId {
    CredentialId::new(name).unwrap()
}

const KEYS: [(&str, &str); 3] = [("prefs", "tone"), ("prefs", "lang"), ("facts", "city")];

/// Writes a small history touching every kind of record: keyed chains with supersedes, keyless
/// versions, citations and a collection, an embedding, a forgotten key, a key whose versions
/// were all purged (its numbering stays), rate windows of two credentials, settings, and a
/// memory store with a memory, an update, a redaction and a session.
pub fn populate<B: Backend + StoreBackend + ?Sized>(b: &B) {
    let [alice, bob, other] = owners();
    let (ca, cb) = (credential("cred_a"), credential("cred_b"));
    let remember = |o: &Owner, c: &CredentialId, ns: &str, key: Option<&str>, id: &str, ms| {
        Remember {
            owner: o,
            credential: c,
            namespace: ns,
            key,
            id,
            created_at: at(ms),
            window_ms: 3_600_000,
        }
        .run(b)
        .unwrap()
    };
    // A key purged away entirely first, so that only its numbering is left.
    remember(&other, &ca, "old", Some("gone"), "amem_old1", -500_000);
    remember(&other, &ca, "old", Some("gone"), "amem_old2", -400_000);
    assert_eq!(b.purge_expired(&other.workspace, at(-300_000)).unwrap(), 2);
    for (i, (ns, key)) in KEYS.iter().enumerate() {
        for v in 0..3 {
            let id = format!("amem_k{i}v{v}");
            remember(&alice, &ca, ns, Some(key), &id, (i * 10 + v) as i64 * 1_000);
        }
    }
    remember(&alice, &cb, "notes", None, "amem_free1", 40_000);
    remember(&alice, &cb, "notes", None, "amem_free2", 41_000);
    remember(&bob, &ca, "prefs", Some("tone"), "amem_bob1", 42_000);
    remember(&other, &cb, "prefs", Some("tone"), "amem_oth1", 43_000);
    // Citations and a collection: written through a decision of its own.
    let cited = Remember {
        owner: &alice,
        credential: &ca,
        namespace: "docs",
        key: Some("summary"),
        id: "amem_cited",
        created_at: at(44_000),
        window_ms: 3_600_000,
    };
    b.remember(
        &alice,
        &ca,
        Some(("docs", "summary")),
        at(44_000 - 3_600_000),
        Timestamp::MIN,
        &mut |state| {
            let mut write = cited.accept(state);
            write.record.collection_id = Some("col_1".into());
            write.record.citations = vec![Citation {
                passage_id: "pas_1".into(),
                document_id: "doc_1".into(),
                collection_id: "col_2".into(),
                document_version: 1,
                sha256: "0".repeat(64),
            }];
            Ok(write)
        },
    )
    .unwrap();
    let embedded = memory_core::AgentMemoryId::parse("amem_free1").unwrap();
    let embedding = StoredEmbedding {
        model: "hash-test".into(),
        vector: vec![0.25, -1.5, 3.0],
    };
    assert!(b.set_embedding(&alice, &embedded, &embedding).unwrap());
    // Forgotten: its versions go and its numbering resets.
    remember(&bob, &cb, "scratch", Some("tmp"), "amem_tmp1", 45_000);
    assert_eq!(b.forget_key(&bob, "scratch", "tmp").unwrap().len(), 1);
    b.put_settings(&alice.workspace, &Settings::new(true, 30).unwrap())
        .unwrap();
    b.put_settings(&other.workspace, &Settings::new(false, 90).unwrap())
        .unwrap();

    // Memory stores (already in the key space before the upgrade).
    let ws = alice.workspace.clone();
    let store = MemoryStore {
        id: MemoryStoreId::parse("memstore_0001").unwrap(),
        kind: Default::default(),
        name: "Notes".into(),
        description: "fixture".into(),
        pii_policy: PiiPolicy::Allow,
        created_at: at(0),
        updated_at: at(0),
        archived_at: None,
    };
    b.create_store(&ws, &store).unwrap();
    let write = |version: &str, ms, change| MemoryWrite {
        workspace: ws.clone(),
        store: store.id.clone(),
        change,
        version_id: MemoryVersionId::parse(version).unwrap(),
        actor: Actor::UserActor {
            user_id: "alice".into(),
        },
        at: at(ms),
        personal_data: false,
    };
    let memory = StoreMemoryId::parse("mem_0001").unwrap();
    b.write_memory(&write(
        "memver_000001",
        1_000,
        MemoryChange::Create {
            memory_id: memory.clone(),
            path: StorePath::parse("/notes/a.md").unwrap(),
            content: "first".into(),
        },
    ))
    .unwrap();
    b.write_memory(&write(
        "memver_000002",
        2_000,
        MemoryChange::Update {
            memory_id: memory,
            path: None,
            content: Some("second".into()),
            precondition: None,
        },
    ))
    .unwrap();
    b.redact_version(
        &ws,
        &store.id,
        &MemoryVersionId::parse("memver_000001").unwrap(),
        at(3_000),
    )
    .unwrap();
    b.put_session(
        &ws,
        &Session {
            id: SessionId::parse("sesn_0001").unwrap(),
            kind: Default::default(),
            agent: None,
            resources: vec![],
            created_at: at(0),
        },
    )
    .unwrap();
}

/// Everything of [`populate`]'s history a caller can observe, as JSON.
pub fn snapshot<B: Backend + StoreBackend + ?Sized>(b: &B) -> Value {
    let mut agent = Vec::new();
    for o in owners() {
        let versions = b.versions(&o, Timestamp::MIN, None, usize::MAX).unwrap();
        let mut keys = Vec::new();
        for (ns, key) in
            KEYS.iter()
                .copied()
                .chain([("old", "gone"), ("docs", "summary"), ("scratch", "tmp")])
        {
            let state = probe(b, &o, &credential("cred_a"), Some((ns, key)));
            keys.push(json!({
                "key": [ns, key],
                "current": b.current_of_key(&o, ns, key).unwrap(),
                "state_current": state.current,
                "last_version": state.last_version,
            }));
        }
        let windows: Vec<Value> = ["cred_a", "cred_b"]
            .iter()
            .map(|c| json!(probe(b, &o, &credential(c), None).window))
            .collect();
        agent.push(json!({
            "owner": [o.workspace.as_str(), o.member.as_str()],
            "versions": versions,
            "stored": b.stored_versions(&o, Timestamp::MIN).unwrap(),
            "keys": keys,
            "windows": windows,
            "settings": b.settings(&o.workspace).unwrap(),
            "cites_doc_1": b.versions(&o, Timestamp::MIN, None, usize::MAX).unwrap()
                .iter().filter(|m| m.cites_document("doc_1")).count(),
        }));
    }
    let ws = owners()[0].workspace.clone();
    let store = MemoryStoreId::parse("memstore_0001").unwrap();
    json!({
        "agent": agent,
        "stores": b.list_stores(&ws, true, None, usize::MAX).unwrap(),
        "memories": b.list_memories(&ws, &store, None, None, usize::MAX).unwrap(),
        "memory": b.memory_at_path(&ws, &store, &StorePath::parse("/notes/a.md").unwrap()).unwrap(),
        "versions": b.list_versions(&ws, &store, None, None, usize::MAX).unwrap(),
        "session": b.get_session(&ws, &SessionId::parse("sesn_0001").unwrap()).unwrap(),
    })
}

/// The answers the format-3 code gave for the fixtures.
pub fn expected() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format3-expected.json");
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// [`expected`] as an upgraded database answers it: every version's term counts and length are
/// the current analyzer's of its text (the upgrade analyzes every stored version again), and
/// nothing else changes.
pub fn expected_upgraded() -> Value {
    let mut value = expected();
    reanalyze_json(&mut value);
    value
}

/// Replaces the `ranking.terms` and `ranking.length` of every serialized version (an object
/// with a `text` and a `ranking`) with [`fusion_rank::TermStats::from_text`]'s.
fn reanalyze_json(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(text)), Some(Value::Object(_))) =
                (map.get("text"), map.get("ranking"))
            {
                let (terms, length) = fusion_rank::TermStats::from_text(text).into_counts();
                let ranking = map.get_mut("ranking").unwrap();
                ranking["terms"] = json!(terms);
                ranking["length"] = json!(length);
            }
            for v in map.values_mut() {
                reanalyze_json(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(reanalyze_json),
        _ => {}
    }
}

/// Copies the fixture `name` of the directory `fixtures` (a file, or a directory) into `dir`.
pub fn copy_fixture(fixtures: &Path, name: &str, dir: &Path) -> PathBuf {
    let from = fixtures.join(name);
    let to = dir.join(name);
    if from.is_dir() {
        copy_dir(&from, &to);
    } else {
        std::fs::copy(&from, &to).unwrap();
    }
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The recall index a backend reads for every fixture owner is the one its versions give:
/// rows, vectors and statistics (the upgrade built it from the stored versions).
pub fn index_matches_versions(b: &dyn Storage) {
    for o in owners() {
        let versions = b.versions(&o, Timestamp::MIN, None, usize::MAX).unwrap();
        assert!(!versions.is_empty(), "{o:?} has versions in the fixture");
        let terms = vec!["tone".to_owned()];
        let history = b.history(&o, &terms).unwrap();
        let want = MemberHistory::from_versions(versions.into_iter().map(Arc::new).collect());
        assert_eq!(*history.versions, want, "{o:?}");
        assert_eq!(history.postings, want.derived_postings(&terms), "{o:?}");
    }
}

/// The entries of kinds `t`, `v` and `c` in the key space: the postings, vectors and version
/// counts that formats up to SQLite 3 and redb and sled 6 wrote beside the versions, which the
/// current layout derives from the versions and their statistics instead. A fresh database
/// writes none; an upgrade deletes them.
pub fn side_index_entries(kv: &impl store_trait::kv::Kv) -> usize {
    kv.read(&mut |r| {
        let mut n = 0;
        for kind in [b't', b'v', b'c'] {
            r.range(&[kind], &[kind + 1], false, &mut |_, _| {
                n += 1;
                true
            })?;
        }
        Ok(n)
    })
    .unwrap()
}

/// An upgraded database: the new format, every answer the fixture history gave (term counts
/// the current analyzer's), and its index.
pub fn upgraded_as_before(b: &dyn Storage, format: u32) {
    assert_eq!(b.format_version(), Some(format));
    assert_eq!(snapshot(b), expected_upgraded());
    index_matches_versions(b);
}

/// Notes of a fourth owner (outside [`snapshot`]'s three) whose stored term counts are the
/// ones analyzer version 1 wrote: every word as the tokenizer gives it, nothing dropped or
/// stemmed. The format-5 and format-2 fixtures hold them beside [`populate`]'s history.
pub const TALK: [(&str, &str); 3] = [
    (
        "amem_talk1",
        "Maya: I was running along the river every morning",
    ),
    ("amem_talk2", "The dogs were barking at the runners"),
    ("amem_talk3", "Книги о собаках и бегунах"),
];

/// The owner of [`TALK`].
pub fn talk_owner() -> Owner {
    owner("ws_c", "carol")
}

/// Writes [`TALK`] with version-1 term counts.
pub fn populate_talk<B: Backend + ?Sized>(b: &B) {
    let carol = talk_owner();
    let cred = credential("cred_c");
    for (i, (id, text)) in TALK.iter().enumerate() {
        let note = Remember {
            owner: &carol,
            credential: &cred,
            namespace: "talk",
            key: None,
            id,
            created_at: at(50_000 + i as i64 * 1_000),
            window_ms: 3_600_000,
        };
        b.remember(&carol, &cred, None, at(0), Timestamp::MIN, &mut |state| {
            let mut write = note.accept(state);
            write.record.text = memory_core::MemoryText::mask(text).0;
            let tokens = fusion_rank::tokenize(text);
            write.record.ranking.length = tokens.len() as u32;
            write.record.ranking.terms = tokens.into_iter().map(|t| (t, 1)).collect();
            Ok(write)
        })
        .unwrap();
    }
}

/// After an upgrade from analyzer version 1: [`TALK`]'s versions carry the current analyzer's
/// term counts, their postings are under the stems (`run`, `dog`) and no longer under the old
/// words (`running`, `dogs`, `the`), and the rest of the fixture history answers as before.
pub fn reanalyzed_as_expected(b: &dyn Storage, format: u32) {
    upgraded_as_before(b, format);
    talk_reanalyzed(b);
}

/// [`TALK`]'s versions and postings as the current analyzer gives them.
pub fn talk_reanalyzed(b: &dyn Storage) {
    let carol = talk_owner();
    let versions = b
        .versions(&carol, Timestamp::MIN, None, usize::MAX)
        .unwrap();
    assert_eq!(versions.len(), TALK.len());
    for m in &versions {
        let (terms, length) = fusion_rank::TermStats::from_text(m.text.as_str()).into_counts();
        assert_eq!(
            (&m.ranking.terms, m.ranking.length),
            (&terms, length),
            "{}",
            m.id
        );
    }
    let probe: Vec<String> = ["run", "dog", "running", "dogs", "the", "книг"]
        .map(str::to_owned)
        .to_vec();
    let history = b.history(&carol, &probe).unwrap();
    let want = MemberHistory::from_versions(versions.into_iter().map(Arc::new).collect());
    assert_eq!(*history.versions, want);
    assert_eq!(history.postings, want.derived_postings(&probe));
    let found: Vec<usize> = history.postings.iter().map(|p| p.len()).collect();
    // `run`: talk1 (running) and talk2 (runners → runner, not run); `dog`: talk2; `книг`: talk3.
    assert_eq!(found, [1, 1, 0, 0, 0, 1], "{:?}", history.postings);
    assert_eq!(history.versions.stats().documents, TALK.len() as u64);
}

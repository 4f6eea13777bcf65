//! Erasure you can verify, the checks every durable backend's vacuum test runs: content removed
//! through the APIs (a redacted version, a deleted memory's redacted versions, a deleted store,
//! a forgotten agent memory) is still in a durable backend's files until a vacuum
//! ([`write_and_remove`]), and in none of them afterwards ([`vacuum_and_check`]). Live content survives the
//! vacuum, and the backend keeps working and reopens. The forgotten memory's stored term counts
//! hold one term its text does not, and its embedding a model name: both are erased the same
//! way.

use std::path::Path;

use memory_core::{
    Actor, AgentMemory, AgentMemoryId, CredentialId, MemoryStore, MemoryStoreId, MemoryText,
    MemoryVersionId, PiiPolicy, StoreMemoryId, StorePath, Timestamp,
};
use store_trait::{
    Backend, MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome, RememberOutcome,
    RememberWrite, Storage, StoreBackend,
};

use crate::crash::{at, owner};

const REDACTED: &str = "vacuummarkerredactedversionquokka";
const DELETED: &str = "vacuummarkerdeletedmemorypangolin";
const STORE_GONE: &str = "vacuummarkerdeletedstoreaxolotl";
const FORGOTTEN: &str = "vacuummarkerforgottenagentnarwhal";
/// Content that stays live through the vacuum.
pub const LIVE: &str = "vacuummarkerlivecontentokapi";
/// A term of the forgotten memory held only by its stored term counts, and its embedding's
/// model name.
const INDEXED: &str = "vacuummarkerindexedtermcapybara";
const MODEL: &str = "vacuummarkervectormodeltapir";

/// Every removed marker, with what removed it.
pub const REMOVED: [&str; 6] = [REDACTED, DELETED, STORE_GONE, FORGOTTEN, INDEXED, MODEL];

/// The markers found in any file under `dir`.
pub fn markers_in(dir: &Path) -> Vec<&'static str> {
    let mut bytes = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let entry = entry.expect("entry");
            if entry.file_type().expect("type").is_dir() {
                stack.push(entry.path());
            } else {
                bytes.extend(std::fs::read(entry.path()).expect("read"));
                bytes.push(0);
            }
        }
    }
    REMOVED
        .into_iter()
        .chain([LIVE])
        .filter(|m| bytes.windows(m.len()).any(|w| w == m.as_bytes()))
        .collect()
}

fn store(n: u32) -> MemoryStore {
    MemoryStore {
        id: MemoryStoreId::parse(format!("memstore_{n}")).unwrap(),
        kind: Default::default(),
        name: format!("Store {n}"),
        description: String::new(),
        pii_policy: PiiPolicy::Allow,
        created_at: at(0),
        updated_at: at(0),
        archived_at: None,
    }
}

fn write<B: StoreBackend>(b: &B, store: u32, version: u32, change: MemoryChange) {
    let outcome = b
        .write_memory(&MemoryWrite {
            workspace: owner("ws1", "alice").workspace,
            store: store_id(store),
            change,
            version_id: ver(version),
            actor: Actor::UserActor {
                user_id: "alice".into(),
            },
            at: at(i64::from(version)),
            personal_data: false,
        })
        .unwrap();
    assert!(
        matches!(outcome, MemoryWriteOutcome::Written { .. }),
        "{outcome:?}"
    );
}

/// The id of test store `n`.
pub fn store_id(n: u32) -> MemoryStoreId {
    MemoryStoreId::parse(format!("memstore_{n}")).unwrap()
}

fn ver(n: u32) -> MemoryVersionId {
    MemoryVersionId::parse(format!("memver_{n:04}")).unwrap()
}

fn mem(n: u32) -> StoreMemoryId {
    StoreMemoryId::parse(format!("mem_{n}")).unwrap()
}

fn create(m: u32, path: &str, content: &str) -> MemoryChange {
    MemoryChange::Create {
        memory_id: mem(m),
        path: StorePath::parse(path).unwrap(),
        content: format!("{content} and some ordinary words around it"),
    }
}

/// Writes the five markers, removes four of them through the APIs, and returns what the files
/// held before the vacuum.
pub fn write_and_remove<B: Backend + StoreBackend>(b: &B, dir: &Path) -> Vec<&'static str> {
    let alice = owner("ws1", "alice");
    let ws = &alice.workspace;
    b.create_store(ws, &store(1)).unwrap();
    b.create_store(ws, &store(2)).unwrap();
    // Redacted: an old version of a live memory.
    write(b, 1, 1, create(1, "/kept.md", REDACTED));
    write(
        b,
        1,
        2,
        MemoryChange::Update {
            memory_id: mem(1),
            content: Some(format!("{LIVE} replaced it")),
            path: None,
            precondition: None,
        },
    );
    assert!(matches!(
        b.redact_version(ws, &store_id(1), &ver(1), at(3)).unwrap(),
        RedactOutcome::Redacted(_)
    ));
    // Deleted: a memory deleted, then its content version redacted.
    write(b, 1, 4, create(2, "/gone.md", DELETED));
    write(
        b,
        1,
        5,
        MemoryChange::Delete {
            memory_id: mem(2),
            precondition: None,
        },
    );
    assert!(matches!(
        b.redact_version(ws, &store_id(1), &ver(4), at(6)).unwrap(),
        RedactOutcome::Redacted(_)
    ));
    // A whole store deleted.
    write(b, 2, 7, create(3, "/x.md", STORE_GONE));
    assert!(b.delete_store(ws, &store_id(2)).unwrap());
    // An agent memory forgotten.
    let credential = CredentialId::new("cred_a").unwrap();
    let outcome = b
        .remember(
            &alice,
            &credential,
            None,
            Timestamp::MIN,
            Timestamp::MIN,
            &mut |_| {
                Ok(RememberWrite {
                    record: AgentMemory {
                        id: AgentMemoryId::parse("amem_1").unwrap(),
                        workspace: alice.workspace.clone(),
                        member: alice.member.clone(),
                        credential: credential.clone(),
                        namespace: "notes".into(),
                        key: None,
                        text: MemoryText::mask(&format!("remember {FORGOTTEN} please")).0,
                        collection_id: None,
                        version: 1,
                        citations: vec![],
                        created_at: at(8),
                        superseded_at: None,
                        ranking: memory_core::RankingData {
                            terms: [("please", 1), ("remember", 1), (FORGOTTEN, 1), (INDEXED, 1)]
                                .into_iter()
                                .collect(),
                            length: 4,
                            embedding: Some(memory_core::StoredEmbedding {
                                model: MODEL.into(),
                                vector: vec![0.6, 0.8],
                            }),
                        },
                    },
                    supersede_current: false,
                })
            },
        )
        .unwrap();
    assert!(matches!(outcome, RememberOutcome::Written { .. }));
    assert_eq!(
        b.forget_id(&alice, &AgentMemoryId::parse("amem_1").unwrap())
            .unwrap()
            .len(),
        1
    );
    // Nothing removed is readable through the API any more.
    assert!(b.get_store(ws, &store_id(2)).unwrap().is_none());
    assert!(
        b.get_version(ws, &store_id(1), &ver(1))
            .unwrap()
            .unwrap()
            .content
            .is_none()
    );
    markers_in(dir)
}

/// Vacuums and checks the files and the backend afterwards.
pub fn vacuum_and_check<B: Storage>(b: &B, dir: &Path) {
    let calls = std::cell::Cell::new(0u32);
    let report = b
        .vacuum(&|done, total| {
            assert!(done <= total);
            calls.set(calls.get() + 1);
        })
        .unwrap();
    assert!(calls.get() >= 1, "progress was never reported");
    assert!(report.entries > 0);
    assert!(report.bytes_after > 0);
    assert_eq!(
        markers_in(dir),
        [LIVE],
        "removed content survived the vacuum"
    );
    // The live memory is intact and the backend keeps working.
    let ws = owner("ws1", "alice").workspace;
    let live = b
        .memory_at_path(&ws, &store_id(1), &StorePath::parse("/kept.md").unwrap())
        .unwrap()
        .unwrap();
    assert!(live.content.starts_with(LIVE));
    write(b, 1, 20, create(9, "/after.md", "written after the vacuum"));
    assert_eq!(
        b.list_versions(&ws, &store_id(1), None, None, 100)
            .unwrap()
            .len(),
        5
    );
}

//! The recall index's tables (`agent_memory_postings`, `agent_memory_vectors`), read directly:
//! every way versions leave — forget by key and by id, the three purges, deleting an owner and a
//! workspace — takes their postings and vectors with them (the foreign keys cascade), and leaves
//! every other version's index rows in place.

use std::collections::BTreeSet;
use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, Citation, CredentialId, MemberId, MemoryText, RankingData,
    StoredEmbedding, Timestamp, WorkspaceId,
};
use r2d2_postgres::postgres::{Client, NoTls};
use store_postgres::PostgresBackend;
use store_trait::{Backend, MemberHistory, Owner, RememberOutcome, RememberWrite};

use crate::support::Schema;

type Version = (String, String, String);

fn t0() -> Timestamp {
    Timestamp::parse("2026-01-01T00:00:00Z").unwrap()
}

fn owner(workspace: &str, member: &str) -> Owner {
    Owner::new(
        WorkspaceId::new(workspace).unwrap(),
        MemberId::new(member).unwrap(),
    )
}

/// Note `n` of `owner` at `at`: two terms (one of them its own) and an embedding.
fn note(owner: &Owner, n: u64, at: Timestamp) -> AgentMemory {
    AgentMemory {
        id: AgentMemoryId::parse(format!("amem_{n:012}")).unwrap(),
        workspace: owner.workspace.clone(),
        member: owner.member.clone(),
        credential: CredentialId::new("cr1").unwrap(),
        namespace: "notes".into(),
        key: None,
        text: MemoryText::mask("a note").0,
        collection_id: None,
        version: 1,
        citations: Vec::new(),
        created_at: at,
        superseded_at: None,
        ranking: RankingData {
            terms: vec![("common".to_owned(), 2), (format!("own{n}"), 1)].into(),
            length: 3,
            embedding: Some(StoredEmbedding {
                model: "hash".into(),
                vector: vec![n as f32, 0.5],
            }),
        },
    }
}

/// Remembers `record` (the next version of its key, superseding the current one); returns what
/// was stored.
fn remember(backend: &PostgresBackend, mut record: AgentMemory) -> AgentMemory {
    let owner = Owner::new(record.workspace.clone(), record.member.clone());
    let credential = record.credential.clone();
    let namespace = record.namespace.clone();
    let key = record.key.clone();
    let outcome = backend
        .remember(
            &owner,
            &credential,
            key.as_deref().map(|k| (namespace.as_str(), k)),
            t0().minus_days(1),
            t0().minus_days(365),
            &mut |state| {
                if key.is_some() {
                    record.version = state.last_version + 1;
                }
                Ok(RememberWrite {
                    record: record.clone(),
                    supersede_current: state.current.is_some(),
                })
            },
        )
        .unwrap();
    match outcome {
        RememberOutcome::Written { record, .. } => record,
        RememberOutcome::Refused(e) => panic!("refused: {e}"),
    }
}

fn ids(client: &mut Client, table: &str) -> BTreeSet<Version> {
    client
        .query(&format!("SELECT workspace, member, id FROM {table}"), &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

fn key_of(m: &AgentMemory) -> Version {
    (
        m.workspace.as_str().to_owned(),
        m.member.as_str().to_owned(),
        m.id.as_str().to_owned(),
    )
}

/// The index tables hold exactly the stored versions' rows (every note has two terms and a
/// vector), none of `gone`'s, and the stored versions are `expected`.
fn assert_index(client: &mut Client, expected: &[&AgentMemory], gone: &[&AgentMemory], what: &str) {
    let versions = ids(client, "agent_memory_versions");
    let want: BTreeSet<Version> = expected.iter().map(|m| key_of(m)).collect();
    assert_eq!(versions, want, "{what}: the stored versions");
    assert_eq!(
        ids(client, "agent_memory_postings"),
        versions,
        "{what}: versions with postings"
    );
    assert_eq!(
        ids(client, "agent_memory_vectors"),
        versions,
        "{what}: versions with vectors"
    );
    let postings: i64 = client
        .query_one("SELECT count(*) FROM agent_memory_postings", &[])
        .unwrap()
        .get(0);
    assert_eq!(postings, 2 * versions.len() as i64, "{what}: postings");
    for m in gone {
        let (ws, member, id) = key_of(m);
        let left: i64 = client
            .query_one(
                "SELECT (SELECT count(*) FROM agent_memory_postings WHERE workspace = $1 \
                 AND member = $2 AND id = $3) + (SELECT count(*) FROM agent_memory_vectors \
                 WHERE workspace = $1 AND member = $2 AND id = $3)",
                &[&ws, &member, &id],
            )
            .unwrap()
            .get(0);
        assert_eq!(left, 0, "{what}: index rows of the removed {id}");
    }
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn the_index_tables_cascade_from_their_versions() {
    let schema = Schema::fresh();
    let backend = schema.backend(2);
    let mut client = Client::connect(&schema.url, NoTls).unwrap();
    client
        .batch_execute(&format!("SET search_path = \"{}\"", schema.name))
        .unwrap();
    let cascades: Vec<(String, String)> = client
        .query(
            "SELECT conrelid::regclass::text, confdeltype::text FROM pg_constraint \
             WHERE contype = 'f' AND confrelid = 'agent_memory_versions'::regclass \
             ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(
        cascades,
        [
            ("agent_memory_postings".to_owned(), "c".to_owned()),
            ("agent_memory_vectors".to_owned(), "c".to_owned())
        ]
    );

    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let carol = owner("ws2", "carol");
    let at = |ms: i64| t0().plus_millis(ms);
    let keyed = |n: u64, ms: i64| {
        let mut m = note(&alice, n, at(ms));
        m.key = Some("k1".into());
        m
    };
    let k1 = remember(&backend, keyed(1, 1));
    let k2 = remember(&backend, keyed(2, 2));
    let a1 = remember(&backend, note(&alice, 3, at(3)));
    let a2 = remember(&backend, note(&alice, 4, at(4)));
    let cites = remember(&backend, {
        let mut m = note(&alice, 5, at(5));
        m.citations.push(Citation {
            passage_id: "p1".into(),
            document_id: "d1".into(),
            collection_id: "c1".into(),
            document_version: 1,
            sha256: "0".repeat(64),
        });
        m
    });
    let collected = remember(&backend, {
        let mut m = note(&alice, 6, at(6));
        m.collection_id = Some("c2".into());
        m
    });
    let old = remember(&backend, note(&alice, 7, t0().minus_days(100)));
    let b1 = remember(&backend, note(&bob, 8, at(8)));
    let b2 = remember(&backend, note(&bob, 9, at(9)));
    let c1 = remember(&backend, note(&carol, 10, at(10)));
    let c2 = remember(&backend, note(&carol, 11, at(11)));
    // A replaced embedding is still one vector row.
    assert!(
        backend
            .set_embedding(
                &alice,
                &a2.id,
                &StoredEmbedding {
                    model: "model-a".into(),
                    vector: vec![9.0],
                },
            )
            .unwrap()
    );
    let mut left = vec![
        &k1, &k2, &a1, &a2, &cites, &collected, &old, &b1, &b2, &c1, &c2,
    ];
    assert_index(&mut client, &left, &[], "written");

    let mut remove = |gone: &[&AgentMemory], what: &str, client: &mut Client| {
        left.retain(|m| !gone.iter().any(|g| g.id == m.id));
        assert_index(client, &left, gone, what);
    };
    assert_eq!(backend.forget_key(&alice, "notes", "k1").unwrap().len(), 2);
    remove(&[&k1, &k2], "forget_key", &mut client);
    assert_eq!(backend.forget_id(&alice, &a1.id).unwrap().len(), 1);
    remove(&[&a1], "forget_id", &mut client);
    let ws1 = alice.workspace.clone();
    assert_eq!(backend.purge_expired(&ws1, t0().minus_days(30)).unwrap(), 1);
    remove(&[&old], "purge_expired", &mut client);
    assert_eq!(backend.purge_document(&ws1, "d1").unwrap(), 1);
    remove(&[&cites], "purge_document", &mut client);
    assert_eq!(backend.purge_collection(&ws1, "c2").unwrap(), 1);
    remove(&[&collected], "purge_collection", &mut client);
    assert_eq!(backend.delete_owner(&bob).unwrap(), 2);
    remove(&[&b1, &b2], "delete_owner", &mut client);
    assert_eq!(backend.delete_workspace(&carol.workspace).unwrap(), 2);
    remove(&[&c1, &c2], "delete_workspace", &mut client);

    // What is left is still indexed and read through the index.
    let got = backend.history(&alice, &["common".into()]).unwrap();
    let want = MemberHistory::from_versions(
        backend
            .versions(&alice, Timestamp::MIN, None, usize::MAX)
            .unwrap()
            .into_iter()
            .map(Arc::new)
            .collect(),
    );
    assert_eq!(*got.versions, want);
    assert_eq!(got.versions.rows().len(), 1);
    assert_eq!(got.postings, want.derived_postings(&["common".into()]));
    assert_eq!(&*got.postings[0], &[(0, 2)]);
    assert_eq!(
        got.versions.vectors().get(0),
        Some(("model-a", &[9.0_f32][..]))
    );
}

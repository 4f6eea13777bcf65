//! The upgrades to schema version 2 (the recall index) and 3 (analyzer version 2), on a
//! database built the way version 1 built it: migration 1 only, versions written by version 1's code path (the version row and
//! nothing else, a supersede updating the row's `superseded_at`). It needs the crate's insides
//! (migrating to an older version, the row writer), so it is a unit test; like every
//! PostgreSQL test it is ignored unless asked for and needs `AGENT_MEMORY_TEST_DATABASE_URL`.

use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, Citation, CredentialId, MemberId, MemoryText, RankingData,
    StoredEmbedding, Timestamp, WorkspaceId,
};
use r2d2_postgres::postgres::{Client, NoTls};
use store_trait::{Backend, MemberHistory, Owner};

use crate::{PostgresBackend, migrations, rows, schema_config};

const URL_VAR: &str = "AGENT_MEMORY_TEST_DATABASE_URL";

/// A schema of its own, dropped with everything in it when this is dropped.
struct Schema {
    url: String,
    name: String,
}

impl Schema {
    fn fresh(tag: &str) -> Schema {
        let url = std::env::var(URL_VAR).unwrap_or_else(|_| {
            panic!("{URL_VAR} is not set: `source .ci/postgres.sh` starts a throw-away cluster")
        });
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        // `t_<pid>_…`: the integration tests' clean-up drops it if this process dies.
        let name = format!("t_{}_unit_{tag}_{nanos}", std::process::id());
        Schema { url, name }
    }

    fn client(&self) -> Client {
        let mut client = Client::connect(&self.url, NoTls).expect("the test database");
        client
            .batch_execute(&format!("SET search_path = \"{}\"", self.name))
            .unwrap();
        client
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let _ = PostgresBackend::drop_schema(&self.url, &self.name);
    }
}

fn owner(workspace: &str, member: &str) -> Owner {
    Owner::new(
        WorkspaceId::new(workspace).unwrap(),
        MemberId::new(member).unwrap(),
    )
}

const TERMS: [&str; 5] = ["b", "bb", "gamma", "zeta", "zero"];

/// Version `n` of `owner`: terms picked by `n` (each 1 to 3 times; `zero` listed with frequency
/// 0, which is no posting), an embedding of one of two models for two thirds of them (with
/// values whose bits must survive: -0.0, a subnormal and a NaN with a payload), a key for every fifth, a citation for
/// every seventh.
fn version(owner: &Owner, n: u64) -> AgentMemory {
    let mut terms: Vec<(String, u32)> = TERMS[..4]
        .iter()
        .enumerate()
        .filter(|(i, _)| (n >> i) & 1 == 1)
        .map(|(i, t)| ((*t).to_owned(), 1 + ((n + i as u64) % 3) as u32))
        .collect();
    if n.is_multiple_of(4) {
        terms.push(("zero".into(), 0));
    }
    terms.sort();
    let embedding = (!n.is_multiple_of(3)).then(|| StoredEmbedding {
        model: if n.is_multiple_of(2) {
            "hash"
        } else {
            "model-a"
        }
        .to_owned(),
        vector: vec![
            n as f32,
            -0.0,
            f32::from_bits(1),
            f32::from_bits(0x7fc0_0001),
            0.25,
        ],
    });
    let citations = if n.is_multiple_of(7) {
        vec![Citation {
            passage_id: format!("p{n}"),
            document_id: "d1".into(),
            collection_id: "c1".into(),
            document_version: 1,
            sha256: "0".repeat(64),
        }]
    } else {
        Vec::new()
    };
    AgentMemory {
        id: AgentMemoryId::parse(format!("amem_{n:012}")).unwrap(),
        workspace: owner.workspace.clone(),
        member: owner.member.clone(),
        credential: CredentialId::new("cr1").unwrap(),
        namespace: "notes".into(),
        key: n.is_multiple_of(5).then(|| format!("k{}", n % 3)),
        text: MemoryText::mask("a note").0,
        collection_id: None,
        version: 1,
        citations,
        // A few share an instant, so that the id orders them.
        created_at: Timestamp::from_millis_saturating(1_767_225_600_000 + (n / 2) as i64),
        superseded_at: None,
        ranking: RankingData {
            length: terms.iter().map(|(_, f)| f).sum(),
            terms: terms.into(),
            embedding,
        },
    }
}

/// A vector by its values' bits.
fn bits<'a>(vector: Option<(&'a str, &[f32])>) -> Option<(&'a str, Vec<u32>)> {
    vector.map(|(model, values)| (model, values.iter().map(|v| v.to_bits()).collect()))
}

/// Equal histories, or a panic naming the first row, vector or statistic that differs (the
/// whole history would be thousands of lines). Vectors are compared bit for bit: `==` on
/// histories compares them as floats, so a NaN never equals itself and -0.0 equals 0.0.
fn assert_same(got: &MemberHistory, want: &MemberHistory, what: &str) {
    assert_eq!(got.rows().len(), want.rows().len(), "{what}: rows");
    assert_eq!(got.vectors().len(), want.vectors().len(), "{what}: vectors");
    for (row, (g, w)) in got.rows().iter().zip(want.rows()).enumerate() {
        assert_eq!(g, w, "{what}: row {row}");
        assert_eq!(
            bits(got.vectors().get(row)),
            bits(want.vectors().get(row)),
            "{what}: vector of row {row}"
        );
    }
    assert_eq!(got.stats(), want.stats(), "{what}: statistics");
}

fn count(client: &mut Client, sql: &str) -> i64 {
    client.query_one(sql, &[]).unwrap().get(0)
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn a_version_1_database_gets_the_recall_index_of_its_versions() {
    let schema = Schema::fresh("v1");
    let config = schema_config(&schema.url, &schema.name).unwrap();
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let carol = owner("ws2", "carol");
    // Alice's versions span more than one batch of the backfill's portal.
    let mut stored: Vec<AgentMemory> = (0..1_205).map(|n| version(&alice, n)).collect();
    stored.extend((5_000..5_040).map(|n| version(&bob, n)));

    {
        let old = PostgresBackend::unmigrated(config.clone(), 1).unwrap();
        old.migrate_to(1).unwrap();
        assert_eq!(old.schema_version().unwrap(), 1);
        let mut conn = old.conn().unwrap();
        let mut tx = conn.transaction().unwrap();
        for m in &stored {
            rows::insert_row(&mut tx, m).unwrap();
        }
        // Version 1 superseded by updating the column only.
        for m in stored.iter_mut().filter(|m| m.id.as_str().ends_with('5')) {
            let at = m.created_at.plus_millis(7);
            tx.execute(
                "UPDATE agent_memory_versions SET superseded_at = $3 WHERE member = $1 AND id = $2",
                &[&m.member.as_str(), &m.id.as_str(), &at.as_millis()],
            )
            .unwrap();
            m.superseded_at = Some(at);
        }
        tx.commit().unwrap();
        let mut client = schema.client();
        let missing: bool = client
            .query_one(
                "SELECT to_regclass('agent_memory_postings') IS NULL \
                 AND to_regclass('agent_memory_vectors') IS NULL",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(missing, "schema version 1 has no recall index");
    }

    // Version 2 first, as a build of that version would have left it.
    let backend = PostgresBackend::unmigrated(config.clone(), 2).unwrap();
    backend.migrate_to(2).unwrap();
    assert_eq!(backend.schema_version().unwrap(), 2);

    let mut terms: Vec<String> = TERMS.iter().map(|t| (*t).to_owned()).collect();
    terms.push("absent".into());
    terms.push("bb".into());
    for who in [&alice, &bob, &carol] {
        let got = backend.history(who, &terms).unwrap();
        // What the versions themselves give: as written, and as the backend reads them back.
        let written = MemberHistory::from_versions(
            stored
                .iter()
                .filter(|m| m.member == who.member && m.workspace == who.workspace)
                .cloned()
                .map(Arc::new)
                .collect(),
        );
        let read = MemberHistory::from_versions(
            backend
                .versions(who, Timestamp::MIN, None, usize::MAX)
                .unwrap()
                .into_iter()
                .map(Arc::new)
                .collect(),
        );
        assert_same(&read, &written, &format!("{who:?}: the versions read back"));
        assert_same(
            &got.versions,
            &written,
            &format!("{who:?}: the recall index"),
        );
        assert_eq!(
            got.postings,
            written.derived_postings(&terms),
            "{who:?}: postings"
        );
    }

    // The index rows are exactly the versions' positive terms and embeddings.
    let mut client = schema.client();
    let postings: usize = stored
        .iter()
        .map(|m| m.ranking.terms.iter().filter(|(_, f)| *f > 0).count())
        .sum();
    let vectors = stored
        .iter()
        .filter(|m| m.ranking.embedding.is_some())
        .count();
    assert_eq!(
        count(&mut client, "SELECT count(*) FROM agent_memory_postings"),
        postings as i64
    );
    assert_eq!(
        count(&mut client, "SELECT count(*) FROM agent_memory_vectors"),
        vectors as i64
    );
    assert_eq!(
        count(
            &mut client,
            "SELECT count(*) FROM agent_memory_postings WHERE term = 'zero'"
        ),
        0
    );

    // Reopening applies migration 3 and nothing else (the backfill of 2 would collide with
    // its own rows): every version analyzed again from its text, its record rewritten and its
    // postings replaced; the vectors stay.
    drop(backend);
    let again = PostgresBackend::connect_in_schema(&schema.url, &schema.name, 1).unwrap();
    assert_eq!(again.schema_version().unwrap(), 3);
    assert_eq!(migrations::latest(), 3);
    let reanalyzed: Vec<AgentMemory> = stored.iter().map(store_trait::reanalyzed).collect();
    let postings: usize = reanalyzed
        .iter()
        .map(|m| store_trait::indexed_terms(m).len())
        .sum();
    assert_eq!(
        count(&mut client, "SELECT count(*) FROM agent_memory_postings"),
        postings as i64
    );
    assert_eq!(
        count(&mut client, "SELECT count(*) FROM agent_memory_vectors"),
        vectors as i64
    );
    let probe: Vec<String> = ["note", "b", "a"].map(str::to_owned).to_vec();
    for who in [&alice, &bob] {
        let want = MemberHistory::from_versions(
            reanalyzed
                .iter()
                .filter(|m| m.member == who.member && m.workspace == who.workspace)
                .cloned()
                .map(Arc::new)
                .collect(),
        );
        let got = again.history(who, &probe).unwrap();
        assert_same(&got.versions, &want, &format!("{who:?}: after migration 3"));
        assert_eq!(got.postings, want.derived_postings(&probe), "{who:?}");
        // `a note`: the function word is gone, the noun is every version's one term.
        assert_eq!(got.postings[0].len(), want.rows().len());
        assert!(got.postings[2].is_empty());
    }
    // A migrated version's embedding is replaced in the index too.
    let plain = stored
        .iter()
        .find(|m| m.ranking.embedding.is_none())
        .unwrap();
    let e = StoredEmbedding {
        model: "model-b".into(),
        vector: vec![1.0, 2.0],
    };
    assert!(again.set_embedding(&alice, &plain.id, &e).unwrap());
    let got = again.history(&alice, &[]).unwrap();
    let row = got.versions.row_of(plain.created_at, &plain.id).unwrap();
    assert_eq!(
        got.versions.vectors().get(row),
        Some(("model-b", &[1.0_f32, 2.0][..]))
    );
}

#[test]
#[ignore = "needs PostgreSQL: set AGENT_MEMORY_TEST_DATABASE_URL (.ci/postgres.sh starts one)"]
fn a_server_error_that_quotes_a_value_is_logged_as_its_sqlstate_only() {
    let url = std::env::var(URL_VAR).unwrap_or_else(|_| {
        panic!("{URL_VAR} is not set: `source .ci/postgres.sh` starts a throw-away cluster")
    });
    let mut client = Client::connect(&url, NoTls).expect("the test database");
    let server = client
        .batch_execute("SELECT 'call Dana at home'::int")
        .unwrap_err();
    assert!(
        format!("{server:?}").contains("call Dana"),
        "the server quotes the value"
    );
    let err = crate::client::db(server);
    let mut printed = err.to_string();
    let mut next = std::error::Error::source(&err);
    while let Some(cause) = next {
        printed.push_str(" <- ");
        printed.push_str(&cause.to_string());
        next = cause.source();
    }
    assert_eq!(
        printed,
        "storage backend failed: postgres <- PostgreSQL error SQLSTATE 22P02"
    );
    // The client's error is still there for code that asks for it.
    let pg = std::error::Error::source(&err)
        .and_then(|c| c.downcast_ref::<crate::PgError>())
        .expect("the cause is a PgError");
    assert!(format!("{:?}", pg.client_error()).contains("call Dana"));
}

//! P6 (facade recall, in-memory backend, 5,000 memories, 300 candidates with two citations each),
//! P7 (the same recall on redb, on sled and on SQLite) and P8 (recall cost with 10 k vs 1 M memories stored
//! for other members and workspaces).
//!
//! Memories are loaded through the `Backend` directly — the facade's rate limit would make
//! loading thousands take simulated days — with their write-time ranking data computed exactly
//! as `remember` computes it.
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented public items"
)]

use std::hint::black_box;
use std::sync::Arc;

use agent_memory::{Embedder, HashingEmbedder};
use benches::world::World;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use memory_core::{MemoryText, SeededIdGenerator, Timestamp};
use store_kv::InMemoryBackend;
use store_postgres::PostgresBackend;
use store_redb::RedbBackend;
use store_sled::SledBackend;
use store_sqlite::SqliteBackend;
use store_trait::{Backend, Durability};

/// P6's world on `backend` with `others` memories of other members, embedded by the hashing
/// embedder as `remember` would.
fn world(backend: Arc<dyn Backend>, others: usize) -> World {
    let embedder = Arc::new(HashingEmbedder::new());
    let each = embedder.clone();
    benches::world::world(backend, others, embedder, &|texts| {
        texts.iter().map(|t| each.embed(t).unwrap()).collect()
    })
}

/// Checks once that the world answers as the target describes (300 candidates, none hidden).
fn sanity(world: &World) {
    let r = world.service.recall(&world.caller, &world.query).unwrap();
    assert_eq!(r.considered, 300);
    assert_eq!(r.hidden, 0);
    assert!(!r.memories.is_empty());
}

fn p6_recall_in_memory(c: &mut Criterion) {
    let w = world(Arc::new(InMemoryBackend::new()), 0);
    sanity(&w);
    let mut group = c.benchmark_group("P6_recall_in_memory_5000");
    group.bench_function("facade_recall", |b| {
        b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
    });
    group.finish();
}

fn p7_recall_on_disk(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Durability only affects writes; loading without per-write syncs keeps setup short.
    let redb: Arc<dyn Backend> = Arc::new(
        RedbBackend::create(dir.path().join("p7.redb"), Durability::Eventual).expect("redb opens"),
    );
    let sled: Arc<dyn Backend> = Arc::new(
        SledBackend::open(dir.path().join("p7.sled"), Durability::Eventual).expect("sled opens"),
    );
    let sqlite: Arc<dyn Backend> = Arc::new(
        SqliteBackend::create(dir.path().join("p7.sqlite"), Durability::Eventual)
            .expect("sqlite opens"),
    );
    let mut group = c.benchmark_group("P7_recall_on_disk_5000");
    for (label, backend) in [("redb", redb), ("sled", sled), ("sqlite", sqlite)] {
        let w = world(backend, 0);
        sanity(&w);
        group.bench_with_input(BenchmarkId::new("facade_recall", label), &w, |b, w| {
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
    }
    group.finish();
}

fn p8_recall_vs_total_data(c: &mut Criterion) {
    let mut group = c.benchmark_group("P8_recall_vs_total_data");
    group.sample_size(30);
    for (label, others) in [("10k", 10_000usize), ("1M", 1_000_000)] {
        let mut loaded = None;
        group.bench_function(BenchmarkId::new("facade_recall", label), |b| {
            let w = loaded.get_or_insert_with(|| world(Arc::new(InMemoryBackend::new()), others));
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
    }
    group.finish();
}

/// A throw-away schema of the PostgreSQL at `AGENT_MEMORY_TEST_DATABASE_URL`, dropped at the end.
struct PgSchema {
    url: String,
    name: String,
}

impl PgSchema {
    /// `None` (with a note) when no database is configured or it is unreachable.
    fn new(label: &str) -> Option<PgSchema> {
        let Ok(url) = std::env::var("AGENT_MEMORY_TEST_DATABASE_URL") else {
            eprintln!("PostgreSQL part skipped: AGENT_MEMORY_TEST_DATABASE_URL is not set");
            return None;
        };
        let name = format!("bench_{label}_{}", std::process::id());
        Some(PgSchema { url, name })
    }

    fn backend(&self) -> Arc<PostgresBackend> {
        Arc::new(
            PostgresBackend::connect_in_schema(&self.url, &self.name, 4).expect("PostgreSQL opens"),
        )
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let _ = PostgresBackend::drop_schema(&self.url, &self.name);
    }
}

/// P8's `others` filler memories (those `world` would store one by one), inserted into the
/// schema in batches of 10,000 rows: a million single-row transactions would take most of an
/// hour. The rows are the same records, encoded by the same codec. They get no recall-index
/// rows (postings, vectors): P8 recalls alice with the default window, which scans and never
/// reads the index, and alice's own memories are written through the backend.
fn pg_bulk_others(schema: &PgSchema, others: usize) {
    use r2d2_postgres::postgres::{Client, NoTls};
    let start = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    let ids = SeededIdGenerator::new(2);
    let filler = MemoryText::mask("a note of somebody else").0;
    let mut client = Client::connect(&schema.url, NoTls).expect("PostgreSQL connects");
    client
        .batch_execute(&format!("SET search_path = \"{}\"", schema.name))
        .unwrap();
    let mut i = 0;
    while i < others {
        let end = (i + 10_000).min(others);
        let (mut ws, mut member, mut id, mut at, mut record) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for j in i..end {
            let m = benches::world::other_memory(j, &ids, start, &filler);
            record.push(store_trait::codec::encode(&m).unwrap());
            ws.push(m.workspace.as_str().to_owned());
            member.push(m.member.as_str().to_owned());
            id.push(m.id.as_str().to_owned());
            at.push(m.created_at.as_millis());
        }
        client
            .execute(
                "INSERT INTO agent_memory_versions (workspace, member, id, created_at, namespace, \
                 documents, collections, record) SELECT w, m, i, a, 'notes', '{}', '{}', r \
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bytea[]) \
                 AS t(w, m, i, a, r)",
                &[&ws, &member, &id, &at, &record],
            )
            .expect("bulk insert");
        i = end;
    }
    client
        .batch_execute("ANALYZE agent_memory_versions")
        .unwrap();
}

/// P6 on PostgreSQL beside redb: the same 5,000 memories, the same recall.
fn p6_recall_postgres_beside_redb(c: &mut Criterion) {
    let Some(schema) = PgSchema::new("p6") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let redb: Arc<dyn Backend> = Arc::new(
        RedbBackend::create(dir.path().join("p6.redb"), Durability::Eventual).expect("redb opens"),
    );
    let postgres: Arc<dyn Backend> = schema.backend();
    let mut group = c.benchmark_group("P6_recall_5000_postgres_beside_redb");
    for (label, backend) in [("redb", redb), ("postgres", postgres)] {
        let w = world(backend, 0);
        sanity(&w);
        group.bench_with_input(BenchmarkId::new("facade_recall", label), &w, |b, w| {
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
    }
    group.finish();
}

/// P8 on PostgreSQL beside redb: recall with 10 k and with 1 M memories of other members and
/// workspaces stored beside alice's 5,000.
fn p8_recall_vs_total_data_postgres_beside_redb(c: &mut Criterion) {
    let Some(_probe) = PgSchema::new("p8probe") else {
        return;
    };
    let mut group = c.benchmark_group("P8_recall_vs_total_data_postgres_beside_redb");
    group.sample_size(30);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (label, others) in [("10k", 10_000usize), ("1M", 1_000_000)] {
        let redb: Arc<dyn Backend> = Arc::new(
            RedbBackend::create(
                dir.path().join(format!("p8-{label}.redb")),
                Durability::Eventual,
            )
            .expect("redb opens"),
        );
        let w = world(redb, others);
        group.bench_function(BenchmarkId::new("redb", label), |b| {
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
        drop(w);
        let schema = PgSchema::new(&format!("p8_{label}")).expect("checked above");
        let backend = schema.backend();
        pg_bulk_others(&schema, others);
        let w = world(backend, 0);
        sanity(&w);
        group.bench_function(BenchmarkId::new("postgres", label), |b| {
            b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
        });
    }
    group.finish();
}

/// Issue-level scale target beside P6: recall with the candidate window `all` over alice's
/// memories, every one citing two passages, with 1,000 and with 5,000 memories (the cost ratio),
/// in memory and on redb and SQLite, through the recall index (`Backend::history`). Beside it,
/// the same 5,000 memories citing nothing (`uncited/5000`): the difference is what re-verifying
/// 10,000 citations costs a recall. The passage source gives a stamp and nothing changes between
/// iterations, so after the first recall the verdicts kept for the history answer (the first
/// recall after a change verifies every row again; `P11_reverify_10000_citations` shows that
/// part).
fn p11_recall_window_all(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut group = c.benchmark_group("P11_recall_window_all");
    group.sample_size(20);
    for (memories, cited) in [(1_000usize, 1_000usize), (5_000, 5_000), (5_000, 0)] {
        let shape = benches::world::Shape {
            memories,
            cited,
            window: agent_memory::CandidateWindow::All,
        };
        let size = if cited == 0 {
            format!("uncited/{memories}")
        } else {
            memories.to_string()
        };
        let backends: [(&str, Arc<dyn Backend>); 3] = [
            ("in_memory", Arc::new(InMemoryBackend::new())),
            (
                "redb",
                Arc::new(
                    RedbBackend::create(
                        dir.path().join(format!("p11-{memories}-{cited}.redb")),
                        Durability::Eventual,
                    )
                    .expect("redb opens"),
                ),
            ),
            (
                "sqlite",
                Arc::new(
                    SqliteBackend::create(
                        dir.path().join(format!("p11-{memories}-{cited}.sqlite")),
                        Durability::Eventual,
                    )
                    .expect("sqlite opens"),
                ),
            ),
        ];
        for (label, backend) in backends {
            let embedder = Arc::new(HashingEmbedder::new());
            let each = embedder.clone();
            let w = benches::world::world_shaped(
                backend,
                0,
                embedder,
                &|texts| texts.iter().map(|t| each.embed(t).unwrap()).collect(),
                shape,
            );
            let r = w.service.recall(&w.caller, &w.query).unwrap();
            assert_eq!(r.considered as usize, memories);
            assert_eq!(r.hidden, 0);
            group.bench_with_input(BenchmarkId::new(label, &size), &w, |b, w| {
                b.iter(|| w.service.recall(&w.caller, black_box(&w.query)).unwrap())
            });
        }
    }
    group.finish();
}

/// What P11 spends on re-verification alone: alice's 5,000 memories, each citing two passages,
/// checked against the host's in-memory passage source in one batched lookup (the memories come
/// from the recall index, decoded beforehand): `verify_entity_ids` copies each memory's entity
/// ids, `verify_entity_indices` (what recall runs when it keeps no verdicts) gives positions in
/// the distinct entities. Recall through the recall index over a source with a stamp looks up
/// only the rows it has not verified under the current stamp: none in P11's repeated recalls.
fn p11_reverify_10000_citations(c: &mut Criterion) {
    let embedder = Arc::new(HashingEmbedder::new());
    let each = embedder.clone();
    let w = benches::world::world_shaped(
        Arc::new(InMemoryBackend::new()),
        0,
        embedder,
        &|texts| texts.iter().map(|t| each.embed(t).unwrap()).collect(),
        benches::world::Shape {
            memories: 5_000,
            cited: 5_000,
            window: agent_memory::CandidateWindow::All,
        },
    );
    let agent_memory::AgentCaller::Resolved(credential) = &w.caller else {
        unreachable!("the world's caller is resolved")
    };
    let owner = store_trait::Owner::new(credential.workspace.clone(), credential.member.clone());
    let history = w.backend.history(&owner, &[]).unwrap();
    let refs: Vec<&memory_core::AgentMemory> =
        history.versions.rows().iter().map(|m| &**m).collect();
    assert_eq!(refs.len(), 5_000);
    let mut group = c.benchmark_group("P11_reverify_10000_citations");
    group.sample_size(20);
    group.bench_function("verify_entity_ids", |b| {
        b.iter(|| {
            citation_verify::verify_entity_ids(
                w.passages.as_ref(),
                &owner.workspace,
                &owner.member,
                black_box(&refs),
            )
        })
    });
    group.bench_function("verify_entity_indices", |b| {
        b.iter(|| {
            citation_verify::verify_entity_indices(
                w.passages.as_ref(),
                &owner.workspace,
                &owner.member,
                black_box(&refs),
            )
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    p6_recall_in_memory,
    p11_recall_window_all,
    p11_reverify_10000_citations,
    p7_recall_on_disk,
    p8_recall_vs_total_data,
    p6_recall_postgres_beside_redb,
    p8_recall_vs_total_data_postgres_beside_redb
);
criterion_main!(benches);

//! P10: facade `memories.update` of a 100 KB memory with a `content_sha256` precondition, on redb,
//! sled and SQLite without per-write durability (target: median ≤ 1 ms).
//!
//! Each iteration swaps the memory between two 102,400-byte contents, naming the current one's
//! hash as the precondition, so every call passes every check and writes one version: validation,
//! the store's policy, the precondition, the path and the version are decided and written in one
//! step. The typed requests are built once (a host has already parsed its JSON).
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented public items"
)]

use std::cell::Cell;
use std::sync::Arc;

use agent_memory::{
    CreateMemoryRequest, CreateStoreRequest, MemberCaller, StoreCaller, StoreService,
    UpdateMemoryRequest,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use memory_core::{MemberId, Role, WorkspaceId, content_sha256};
use store_redb::RedbBackend;
use store_sled::SledBackend;
use store_sqlite::SqliteBackend;
use store_trait::{Durability, StoreBackend};

const SIZE: usize = 102_400;

/// A 102,400-byte text of ordinary words (no personal data), varied by `seed`.
fn content(seed: &str) -> String {
    let mut text = String::with_capacity(SIZE);
    let mut n = 0u32;
    while text.len() < SIZE {
        text.push_str(seed);
        text.push_str(" notes about the project plan and the team's conventions, line ");
        text.push_str(&n.to_string());
        text.push('\n');
        n += 1;
    }
    // ASCII only, so any byte length is a character boundary.
    text.truncate(SIZE);
    text
}

fn bench_backend(c: &mut Criterion, name: &str, backend: Arc<dyn StoreBackend>) {
    let service = StoreService::builder(backend).build();
    let caller = StoreCaller::Member(MemberCaller {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("alice").unwrap(),
        role: Role::Editor,
    });
    let store = service
        .stores_create(&caller, &CreateStoreRequest::new("Bench"))
        .unwrap();
    let (a, b) = (content("alpha"), content("bravo"));
    assert_eq!((a.len(), b.len()), (SIZE, SIZE));
    let memory = service
        .memories_create(
            &caller,
            &CreateMemoryRequest::new(store.id.clone(), "/big.md", a.as_str()),
        )
        .unwrap();
    let body = |to: &str, current: &str| {
        UpdateMemoryRequest::new(store.id.clone(), memory.id.clone())
            .content(to)
            .if_content_sha256(content_sha256(current))
    };
    let bodies = [body(&b, &a), body(&a, &b)];
    let turn = Cell::new(0usize);
    let mut group = c.benchmark_group("P10_memories_update_100KB");
    group.throughput(Throughput::Bytes(SIZE as u64));
    group.bench_function(name, |bench| {
        bench.iter(|| {
            let i = turn.get();
            turn.set(i ^ 1);
            service.memories_update(&caller, &bodies[i]).unwrap()
        })
    });
    group.finish();
}

fn p10(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let redb = RedbBackend::create(dir.path().join("p10.redb"), Durability::Eventual).unwrap();
    bench_backend(c, "redb", Arc::new(redb));
    let sled = SledBackend::open(dir.path().join("p10.sled"), Durability::Eventual).unwrap();
    bench_backend(c, "sled", Arc::new(sled));
    let sqlite =
        SqliteBackend::create(dir.path().join("p10.sqlite"), Durability::Eventual).unwrap();
    bench_backend(c, "sqlite", Arc::new(sqlite));
}

criterion_group!(benches, p10);
criterion_main!(benches);

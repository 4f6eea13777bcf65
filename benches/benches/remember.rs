//! P9: facade `remember` on redb, sled and SQLite — masking, citation resolution, quota, rate
//! limit and supersede in one transaction — without and with per-write durability, beside the
//! disk's raw fsync rate measured in the same run (the target is relative to it); and the same
//! with 8 writers at once on one durable backend (an MCP server serves calls concurrently),
//! where the figure is the time per remember of all 8 together.
//!
//! The clock moves 31 s per remember so that no credential reaches its 120-per-hour window, and
//! the writing member changes every 4,000 remembers so that no member reaches its quota: the
//! benchmark measures the write path, not refusals. Concurrent writers write as members of their
//! own.
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented public items"
)]

use std::cell::Cell;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;
use std::time::Duration;

use agent_memory::{
    AgentCaller, AgentCredential, ManualClock, MemberCaller, MemoryService, RememberRequest,
    SettingsPatch,
};
use citation_verify::{InMemoryPassageSource, Passage};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use memory_core::{ContextBinding, CredentialId, MemberId, Role, Scope, Timestamp, WorkspaceId};
use store_redb::RedbBackend;
use store_sled::SledBackend;
use store_sqlite::SqliteBackend;
use store_trait::{Backend, Durability};

struct Writer {
    service: MemoryService,
    clock: Arc<ManualClock>,
    count: Cell<u64>,
    prefix: String,
}

impl Writer {
    fn new(backend: Arc<dyn Backend>) -> Writer {
        Self::as_members(backend, "m")
    }

    /// A writer whose members are named `<prefix><n>`.
    fn as_members(backend: Arc<dyn Backend>, prefix: &str) -> Writer {
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let passages = Arc::new(InMemoryPassageSource::new());
        let ws = WorkspaceId::new("ws").unwrap();
        passages.put_passage(
            &ws,
            Passage::new("p1", "d1", "c1", 1, "the style guide says: short answers"),
        );
        let service = MemoryService::builder(backend, passages)
            .clock(clock.clone())
            .build()
            .unwrap();
        let owner = MemberCaller {
            workspace: ws,
            member: MemberId::new("olivia").unwrap(),
            role: Role::Owner,
        };
        service
            .settings_put(
                &owner,
                &SettingsPatch::default().agent_memories_enabled(true),
            )
            .unwrap();
        Writer {
            service,
            clock,
            count: Cell::new(0),
            prefix: prefix.to_owned(),
        }
    }

    /// One remember with a key (so every other write supersedes), PII to mask and a citation.
    fn remember(&self) {
        let n = self.count.get();
        self.count.set(n + 1);
        self.clock.advance_seconds(31);
        let member = format!("{}{}", self.prefix, n / 4_000);
        let caller = AgentCaller::Resolved(AgentCredential {
            workspace: WorkspaceId::new("ws").unwrap(),
            workspace_retaining: true,
            member: MemberId::new(member.clone()).unwrap(),
            credential: CredentialId::new(format!("cred-{member}")).unwrap(),
            role: Some(Role::Editor),
            active: true,
            scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
            binding: ContextBinding::Unbound,
        });
        let body = RememberRequest::new(
            "prefs",
            format!("Reply tersely, note {n}; reach me at dana{n}@example.com or 050-123-4567"),
        )
        .key(format!("k{}", n % 2))
        .citations(["p1"]);
        self.service
            .remember(&caller, &body)
            .expect("the write is accepted");
    }
}

fn p9_remember_on_disk(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut group = c.benchmark_group("P9_remember_on_disk");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));

    // The disk's own rate: overwrite 512 bytes and fdatasync, as a commit would at least do.
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(dir.path().join("fsync"))
        .unwrap();
    group.bench_function("fsync_baseline", |b| {
        b.iter(|| {
            file.seek(SeekFrom::Start(0)).unwrap();
            file.write_all(&[7u8; 512]).unwrap();
            file.sync_data().unwrap();
        })
    });

    for durability in [Durability::Eventual, Durability::Immediate] {
        let tag = match durability {
            Durability::Immediate => "durable",
            _ => "no_sync",
        };
        let redb: Arc<dyn Backend> = Arc::new(
            RedbBackend::create(dir.path().join(format!("p9-{tag}.redb")), durability).unwrap(),
        );
        let sled: Arc<dyn Backend> = Arc::new(
            SledBackend::open(dir.path().join(format!("p9-{tag}.sled")), durability).unwrap(),
        );
        let sqlite: Arc<dyn Backend> = Arc::new(
            SqliteBackend::create(dir.path().join(format!("p9-{tag}.sqlite")), durability).unwrap(),
        );
        for (name, backend) in [("redb", redb), ("sled", sled), ("sqlite", sqlite)] {
            let writer = Writer::new(backend);
            group.bench_with_input(BenchmarkId::new(name, tag), &writer, |b, w| {
                b.iter(|| w.remember())
            });
        }
    }
    group.finish();
}

/// Writers at once in the concurrent group.
const WRITERS: usize = 8;

fn p9_remember_8_writers(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut group = c.benchmark_group("P9_remember_8_writers_durable");
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    let redb: Arc<dyn Backend> =
        Arc::new(RedbBackend::create(dir.path().join("p9c.redb"), Durability::Immediate).unwrap());
    let sled: Arc<dyn Backend> =
        Arc::new(SledBackend::open(dir.path().join("p9c.sled"), Durability::Immediate).unwrap());
    let sqlite: Arc<dyn Backend> = Arc::new(
        SqliteBackend::create(dir.path().join("p9c.sqlite"), Durability::Immediate).unwrap(),
    );
    for (name, backend) in [("redb", redb), ("sled", sled), ("sqlite", sqlite)] {
        let mut writers: Vec<Writer> = (0..WRITERS)
            .map(|i| Writer::as_members(backend.clone(), &format!("w{i}m")))
            .collect();
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                // Every writer does its share; the time is that of all of them together.
                let each = iters.div_ceil(WRITERS as u64);
                let start = std::time::Instant::now();
                std::thread::scope(|s| {
                    for w in writers.iter_mut() {
                        s.spawn(move || {
                            for _ in 0..each {
                                w.remember();
                            }
                        });
                    }
                });
                start
                    .elapsed()
                    .mul_f64(iters as f64 / (each * WRITERS as u64) as f64)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, p9_remember_on_disk, p9_remember_8_writers);
criterion_main!(benches);

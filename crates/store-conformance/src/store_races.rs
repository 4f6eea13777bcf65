//! The memory-store races: the precondition race of quality target R4 (no lost update) and
//! readers against a writer (every read one whole step).

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use super::store_fixture::{Writer, mem_id, path, setup, store, store_id, ws};
use memory_core::{ErrorCode, Precondition, StoreMemory, VersionOperation, content_sha256};
use store_trait::{MemoryChange, MemoryWriteOutcome, StoreBackend};

/// R4: 8 writers update one memory with `content_sha256` preconditions, retrying on a mismatch.
/// No update is lost and the versions form one chain: each version's predecessor holds exactly
/// the content its writer read.
pub fn race_store_preconditions<B: StoreBackend>(make: &dyn Fn() -> B) {
    const THREADS: u32 = 8;
    const UPDATES: u32 = 12;
    let backend = make();
    let w = setup(&backend);
    w.create(1, 0, 0, "/counter", "start");
    let next_version = AtomicU64::new(1);
    thread::scope(|scope| {
        for t in 0..THREADS {
            let (backend, w, next_version) = (&backend, &w, &next_version);
            scope.spawn(move || {
                for i in 0..UPDATES {
                    loop {
                        let current = backend
                            .get_memory(&w.workspace, &w.store, &mem_id(1))
                            .unwrap()
                            .unwrap();
                        let v = next_version.fetch_add(1, Ordering::SeqCst) as u32;
                        let outcome = w.write(
                            v,
                            i64::from(v),
                            MemoryChange::Update {
                                memory_id: mem_id(1),
                                content: Some(format!("{t}:{i} after {}", current.content_sha256)),
                                path: None,
                                precondition: Some(Precondition::ContentSha256 {
                                    content_sha256: current.content_sha256.clone(),
                                }),
                            },
                        );
                        match outcome {
                            MemoryWriteOutcome::Written { .. } => break,
                            MemoryWriteOutcome::Refused(e) => {
                                assert_eq!(e.code(), ErrorCode::MemoryPreconditionFailed);
                            }
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                }
            });
        }
    });
    let mut versions = w.versions(Some(1));
    versions.reverse();
    assert_eq!(versions.len() as u32, THREADS * UPDATES + 1);
    for pair in versions.windows(2) {
        let read = pair[1]
            .content
            .as_deref()
            .and_then(|c| c.rsplit_once(" after "))
            .map(|(_, hash)| hash.to_owned());
        assert_eq!(read, pair[0].content_sha256, "a lost update");
    }
    let mut writers: Vec<_> = versions[1..]
        .iter()
        .map(|v| {
            v.content
                .clone()
                .unwrap()
                .split_once(' ')
                .unwrap()
                .0
                .to_owned()
        })
        .collect();
    writers.sort();
    writers.dedup();
    assert_eq!(writers.len() as u32, THREADS * UPDATES);
}

/// A reader racing a writer: one thread creates a store, a memory in it, updates the memory and
/// deletes the store, 300 times; two others read the memory (by id and by path), its versions
/// and the store's memories all along. Every read is one consistent view (`Kv::read`), so no
/// read fails and each sees a write whole: a memory with the content its hash names, a history
/// that begins with its `created` version. A backend whose reads see the live key space
/// without a lock lets a read of several keys straddle a step, and fails here (a live memory
/// whose current version is gone, an order entry naming no version).
pub fn race_store_reads_see_whole_steps<B: StoreBackend>(make: &dyn Fn() -> B) {
    const ROUNDS: u32 = 300;
    const READERS: usize = 2;
    let backend = make();
    let w = Writer {
        backend: &backend,
        workspace: ws("ws1"),
        store: store_id(1),
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let reads = AtomicU64::new(0);
    let whole = |m: &StoreMemory| {
        assert_eq!(
            m.content_sha256,
            content_sha256(&m.content),
            "a memory read with another version's content"
        );
    };
    thread::scope(|scope| {
        for _ in 0..READERS {
            let (backend, w, done, reads) = (&backend, &w, &done, &reads);
            scope.spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    let by_id = backend
                        .get_memory(&w.workspace, &w.store, &mem_id(1))
                        .expect("get_memory mid-write");
                    by_id.iter().for_each(whole);
                    let by_path = backend
                        .memory_at_path(&w.workspace, &w.store, &path("/note"))
                        .expect("memory_at_path mid-write");
                    by_path.iter().for_each(whole);
                    let history = backend
                        .list_versions(&w.workspace, &w.store, Some(&mem_id(1)), None, 10)
                        .expect("list_versions mid-write");
                    if let Some(first) = history.last() {
                        assert_eq!(
                            first.operation,
                            VersionOperation::Created,
                            "a history read without its beginning"
                        );
                    }
                    backend
                        .list_memories(&w.workspace, &w.store, None, None, 10)
                        .expect("list_memories mid-write");
                    reads.fetch_add(1, Ordering::SeqCst);
                }
            });
        }
        // Stops the readers even when the writer panics.
        struct Stop<'a>(&'a std::sync::atomic::AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let _stop = Stop(&done);
        for round in 0..ROUNDS {
            let ms = i64::from(round) * 10;
            backend
                .create_store(&w.workspace, &store(1, ms))
                .expect("create_store");
            w.create(1, 2 * round, ms, "/note", &format!("round {round}"));
            let updated = w.write(
                2 * round + 1,
                ms + 1,
                MemoryChange::Update {
                    memory_id: mem_id(1),
                    content: Some(format!("round {round}, updated")),
                    path: None,
                    precondition: None,
                },
            );
            assert!(matches!(updated, MemoryWriteOutcome::Written { .. }));
            assert!(
                backend
                    .delete_store(&w.workspace, &w.store)
                    .expect("delete_store")
            );
        }
    });
    assert!(reads.into_inner() > 0, "the readers never ran");
}

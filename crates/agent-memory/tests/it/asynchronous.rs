//! The async facade (`AsyncService`, feature `tokio`): a slow backend wait runs on tokio's
//! blocking pool, so other tasks of a single-threaded runtime keep running, and a dropped call
//! finishes its write whole.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use agent_memory::{
    AsyncService, InMemoryPassageSource, ListRequest, MemberId, MemoryService, Passage,
    PassageLookup, PassageSource, RecallRequest, RememberRequest, WorkspaceId,
};
use store_kv::InMemoryBackend;

use crate::{agent, enabled, owner};

/// A passage store whose every lookup waits `delay`, as a remote one on a slow link would.
struct SlowPassages {
    inner: InMemoryPassageSource,
    delay: Duration,
}

impl PassageSource for SlowPassages {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        std::thread::sleep(self.delay);
        self.inner.lookup(ws, member, ids)
    }
}

fn slow_service(delay: Duration) -> AsyncService {
    let inner = InMemoryPassageSource::new();
    inner.put_passage(
        &WorkspaceId::new("ws").unwrap(),
        Passage::new("p1", "doc", "handbook", 1, "Replies stay short."),
    );
    let service = enabled(MemoryService::builder(
        Arc::new(InMemoryBackend::new()),
        Arc::new(SlowPassages { inner, delay }),
    ));
    AsyncService::new(Arc::new(service))
}

#[test]
fn slow_calls_do_not_stall_a_current_thread_runtime() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let delay = Duration::from_millis(300);
    let service = slow_service(delay);
    let ticks = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    runtime.block_on(async {
        // A ticker on the one runtime thread: it only advances while no call blocks it.
        let ticker = {
            let ticks = ticks.clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    ticks.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        // Eight remembers that each wait on the slow passage store, at once.
        let calls: Vec<_> = (0..8)
            .map(|i| {
                let service = service.clone();
                tokio::spawn(async move {
                    let request = RememberRequest::new("n", format!("note {i} on short replies"))
                        .citations(["p1"]);
                    service.remember(agent("alice", "cred_a"), request).await
                })
            })
            .collect();
        for call in calls {
            call.await.unwrap().unwrap();
        }
        ticker.abort();
    });
    let elapsed = started.elapsed();
    // Serially on the runtime thread the eight would take 8 × 300 ms and the ticker would not
    // tick meanwhile; on the blocking pool they overlap and the ticker keeps its pace.
    assert!(
        elapsed < delay * 4,
        "eight slow calls took {elapsed:?}: they did not overlap"
    );
    let ticked = ticks.load(Ordering::Relaxed);
    assert!(
        ticked >= (delay.as_millis() / 10 / 2) as usize,
        "the ticker ticked {ticked} times in {elapsed:?}: the runtime thread was blocked"
    );
}

#[test]
fn a_dropped_call_finishes_its_write_whole() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let service = slow_service(Duration::from_millis(200));
    runtime.block_on(async {
        let request = RememberRequest::new("n", "a note the caller stops waiting for")
            .key("k")
            .citations(["p1"]);
        let call = service.remember(agent("alice", "cred_a"), request);
        // The caller gives up long before the slow lookup ends.
        let gave_up = tokio::time::timeout(Duration::from_millis(20), call).await;
        assert!(gave_up.is_err(), "the call answered before the timeout");
        // The write was not cut: it lands whole, once.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let listed = service
                .list(agent("alice", "cred_a"), ListRequest::new())
                .await
                .unwrap();
            if let Some(memory) = listed.memories.first() {
                assert_eq!(listed.memories.len(), 1);
                assert_eq!(memory.text, "a note the caller stops waiting for");
                break;
            }
            assert!(Instant::now() < deadline, "the dropped write never landed");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let found = service
            .recall(
                agent("alice", "cred_a"),
                RecallRequest::new("note caller waiting"),
            )
            .await
            .unwrap();
        assert_eq!(found.memories.len(), 1);
    });
}

#[test]
fn memory_store_operations_need_the_stores() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let service = slow_service(Duration::ZERO);
    let err = runtime
        .block_on(service.stores_list(
            agent_memory::StoreCaller::Member(owner()),
            agent_memory::ListStoresRequest::new(),
        ))
        .unwrap_err();
    assert_eq!(err.code().as_str(), "INTERNAL_ERROR");
}

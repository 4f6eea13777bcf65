//! The semantic budget is a real bound: a stuck embedder costs a caller at most the budget,
//! and nothing once every worker is stuck.

use fusion_rank::{EmbedError, EmbedPool, Embedder, SEMANTIC_BUDGET};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Blocks every call for five seconds unless released earlier.
struct Stuck {
    released: Mutex<bool>,
    wake: Condvar,
}

impl Stuck {
    fn release(&self) {
        if let Ok(mut released) = self.released.lock() {
            *released = true;
        }
        self.wake.notify_all();
    }
}

impl Embedder for Stuck {
    fn model_id(&self) -> &str {
        "stuck"
    }

    fn embed(&self, _: &str) -> Result<Vec<f32>, EmbedError> {
        let guard = self
            .released
            .lock()
            .map_err(|_| EmbedError::Failed("poisoned".into()))?;
        let _ = self
            .wake
            .wait_timeout_while(guard, Duration::from_secs(5), |released| !*released);
        Ok(vec![1.0])
    }
}

#[test]
fn a_five_second_embedder_is_abandoned_at_the_budget() -> Result<(), EmbedError> {
    assert_eq!(SEMANTIC_BUDGET, Duration::from_millis(800));
    let stuck = Arc::new(Stuck {
        released: Mutex::new(false),
        wake: Condvar::new(),
    });
    let pool = EmbedPool::new(stuck.clone(), 1)?;

    let start = Instant::now();
    let first = pool.embed_within("query", SEMANTIC_BUDGET);
    let waited = start.elapsed();
    assert_eq!(
        first,
        Err(EmbedError::TimedOut {
            budget: SEMANTIC_BUDGET
        })
    );
    assert!(
        waited >= Duration::from_millis(790),
        "gave up early: {waited:?}"
    );
    assert!(waited < Duration::from_secs(2), "waited {waited:?}");

    // The only worker is still stuck: the next call does not wait at all.
    let start = Instant::now();
    assert_eq!(
        pool.embed_within("query", SEMANTIC_BUDGET),
        Err(EmbedError::Busy)
    );
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(pool.busy_workers(), 1);

    // Once the stuck call ends (its answer is dropped), the worker serves again.
    stuck.release();
    let start = Instant::now();
    while pool.busy_workers() > 0 && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(pool.embed_within("query", SEMANTIC_BUDGET)?, [1.0]);
    Ok(())
}

#[test]
fn every_default_worker_stuck_means_an_immediate_skip() -> Result<(), EmbedError> {
    let stuck = Arc::new(Stuck {
        released: Mutex::new(false),
        wake: Condvar::new(),
    });
    let pool = EmbedPool::with_default_workers(stuck.clone())?;
    let budget = Duration::from_millis(100);
    let start = Instant::now();
    for _ in 0..EmbedPool::DEFAULT_WORKERS {
        assert_eq!(
            pool.embed_within("q", budget),
            Err(EmbedError::TimedOut { budget })
        );
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let start = Instant::now();
    assert_eq!(
        pool.embed_within("q", SEMANTIC_BUDGET),
        Err(EmbedError::Busy)
    );
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
    stuck.release();
    Ok(())
}

#[test]
fn concurrent_callers_each_wait_at_most_the_budget() -> Result<(), EmbedError> {
    let stuck = Arc::new(Stuck {
        released: Mutex::new(false),
        wake: Condvar::new(),
    });
    let pool = Arc::new(EmbedPool::with_default_workers(stuck.clone())?);
    let start = Instant::now();
    let callers: Vec<_> = (0..6)
        .map(|_| {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || pool.embed_within("q", SEMANTIC_BUDGET))
        })
        .collect();
    let mut timed_out = 0;
    let mut busy = 0;
    for caller in callers {
        match caller
            .join()
            .map_err(|_| EmbedError::Failed("caller panicked".into()))?
        {
            Err(EmbedError::TimedOut { .. }) => timed_out += 1,
            Err(EmbedError::Busy) => busy += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        (timed_out, busy),
        (EmbedPool::DEFAULT_WORKERS, 6 - EmbedPool::DEFAULT_WORKERS)
    );
    stuck.release();
    Ok(())
}

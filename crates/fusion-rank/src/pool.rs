//! `EmbedPool`: runs an embedder on a small set of worker threads so that a caller waits at most
//! a time budget for the query embedding, however slow or stuck the embedder is.

use crate::{EmbedError, Embedder, normalize};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError};
use std::thread;
use std::time::{Duration, Instant};

/// The time budget of the semantic stage (query embedding plus similarities).
pub const SEMANTIC_BUDGET: Duration = Duration::from_millis(800);

type Reply = Result<Vec<f32>, EmbedError>;

/// How long [`EmbedPool::embed_within`] polls for the answer before blocking on it (never
/// longer than the call's budget).
const SPIN: Duration = Duration::from_micros(50);

struct Job {
    text: String,
    reply: SyncSender<Reply>,
}

struct Worker {
    jobs: SyncSender<Job>,
    busy: Arc<AtomicBool>,
}

/// A bounded pool of threads that run one [`Embedder`], each busy with at most one call.
///
/// [`embed_within`](EmbedPool::embed_within) hands the text to an idle worker and waits at most
/// the budget. A call that overruns keeps its worker busy until the embedder returns; its answer
/// is then dropped. When every worker is busy that way, the next call fails at once with
/// [`EmbedError::Busy`] instead of queueing behind stuck calls, so a hung model costs each
/// caller at most one budget and, once the pool is saturated, nothing.
///
/// Dropping the pool closes the queues; idle workers exit at once, busy ones after their call.
pub struct EmbedPool {
    embedder: Arc<dyn Embedder>,
    workers: Vec<Worker>,
}

impl std::fmt::Debug for EmbedPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbedPool")
            .field("model_id", &self.embedder.model_id())
            .field("workers", &self.workers.len())
            .field("busy", &self.busy_workers())
            .finish()
    }
}

impl EmbedPool {
    /// Number of workers that [`EmbedPool::with_default_workers`] starts.
    pub const DEFAULT_WORKERS: usize = 2;

    /// Starts `workers` threads (at least one) running `embedder`.
    ///
    /// # Errors
    ///
    /// [`EmbedError::Spawn`] when the operating system refuses a thread.
    pub fn new(embedder: Arc<dyn Embedder>, workers: usize) -> Result<Self, EmbedError> {
        let mut started = Vec::with_capacity(workers.max(1));
        for i in 0..workers.max(1) {
            // Capacity 1: a worker is handed a job only while marked idle, so this never fills.
            let (jobs, queue) = mpsc::sync_channel::<Job>(1);
            let busy = Arc::new(AtomicBool::new(false));
            let model = Arc::clone(&embedder);
            let flag = Arc::clone(&busy);
            thread::Builder::new()
                .name(format!("fusion-rank-embed-{i}"))
                .spawn(move || {
                    while let Ok(job) = queue.recv() {
                        let answer = catch_unwind(AssertUnwindSafe(|| model.embed(&job.text)))
                            .unwrap_or_else(|_| {
                                Err(EmbedError::Failed("embedder panicked".into()))
                            });
                        // Idle before replying, so a caller that got its answer can call again.
                        flag.store(false, Ordering::Release);
                        // The caller may have stopped waiting; its answer is then dropped.
                        let _ = job.reply.send(answer);
                    }
                })
                .map_err(|e| EmbedError::Spawn(e.to_string()))?;
            started.push(Worker { jobs, busy });
        }
        Ok(EmbedPool {
            embedder,
            workers: started,
        })
    }

    /// Starts [`EmbedPool::DEFAULT_WORKERS`] threads.
    ///
    /// # Errors
    ///
    /// As [`EmbedPool::new`].
    pub fn with_default_workers(embedder: Arc<dyn Embedder>) -> Result<Self, EmbedError> {
        Self::new(embedder, Self::DEFAULT_WORKERS)
    }

    /// The embedder's model id.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// The embedder itself.
    pub fn embedder(&self) -> &Arc<dyn Embedder> {
        &self.embedder
    }

    /// The unit-length embedding of `text`, computed on the calling thread without a budget:
    /// for storing a candidate's vector at write time.
    ///
    /// # Errors
    ///
    /// The embedder's own error.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut v = self.embedder.embed(text)?;
        normalize(&mut v);
        Ok(v)
    }

    /// Number of workers still running a call, including calls whose callers gave up.
    pub fn busy_workers(&self) -> usize {
        self.workers
            .iter()
            .filter(|w| w.busy.load(Ordering::Acquire))
            .count()
    }

    /// The unit-length embedding of `text`, or an error no later than `budget` from now.
    ///
    /// # Errors
    ///
    /// - [`EmbedError::Busy`] at once when every worker is still running an earlier call;
    /// - [`EmbedError::TimedOut`] when the budget passes first (the call goes on in the
    ///   background and its answer is dropped);
    /// - the embedder's own error, or [`EmbedError::Failed`] when it panicked;
    /// - [`EmbedError::Closed`] when a worker thread is gone.
    pub fn embed_within(&self, text: &str, budget: Duration) -> Result<Vec<f32>, EmbedError> {
        self.start_within(text, budget).wait()
    }

    /// [`EmbedPool::embed_within`] in two halves: hands `text` to a worker now and returns at
    /// once (an embedder that [runs inline](Embedder::runs_inline) is called here instead); [`PendingEmbedding::wait`] gives the answer, within `budget` from now. The caller
    /// does other work meanwhile (recall verifies its candidates while the query is embedded).
    pub fn start_within(&self, text: &str, budget: Duration) -> PendingEmbedding {
        let started = Instant::now();
        if self.embedder.runs_inline() {
            // A bounded computation (`Embedder::runs_inline`): done here, before returning.
            let mut answer = catch_unwind(AssertUnwindSafe(|| self.embedder.embed(text)))
                .unwrap_or_else(|_| Err(EmbedError::Failed("embedder panicked".into())));
            // Bounded, but held to the same promise as a worker's answer: none past the budget.
            if started.elapsed() > budget {
                answer = Err(EmbedError::TimedOut { budget });
            }
            return PendingEmbedding {
                answer: Ok(Answer::Ready(answer)),
                started,
                budget,
            };
        }
        let answer = (|| {
            let worker = self
                .workers
                .iter()
                .find(|w| {
                    w.busy
                        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                })
                .ok_or(EmbedError::Busy)?;
            let (reply, answer) = mpsc::sync_channel(1);
            let job = Job {
                text: text.to_owned(),
                reply,
            };
            if let Err(e) = worker.jobs.try_send(job) {
                worker.busy.store(false, Ordering::Release);
                return Err(match e {
                    TrySendError::Full(_) => EmbedError::Busy,
                    TrySendError::Disconnected(_) => EmbedError::Closed,
                });
            }
            Ok(Answer::Pending(answer))
        })();
        PendingEmbedding {
            answer,
            started,
            budget,
        }
    }
}

/// An embedding started by [`EmbedPool::start_within`]: handed to a worker, or already computed
/// when the embedder runs inline. Dropping it abandons the answer, as a timed-out
/// [`EmbedPool::embed_within`] does.
#[derive(Debug)]
pub struct PendingEmbedding {
    answer: Result<Answer, EmbedError>,
    started: Instant,
    budget: Duration,
}

/// Where the answer of a started embedding is.
#[derive(Debug)]
enum Answer {
    /// Computed on the caller's thread ([`Embedder::runs_inline`]).
    Ready(Reply),
    /// Coming from a worker.
    Pending(Receiver<Reply>),
}

impl PendingEmbedding {
    /// The unit-length embedding, or an error no later than the budget after the start.
    ///
    /// # Errors
    ///
    /// As [`EmbedPool::embed_within`]; `Busy` and `Closed` at hand-over are reported here.
    pub fn wait(self) -> Result<Vec<f32>, EmbedError> {
        let PendingEmbedding {
            answer,
            started,
            budget,
        } = self;
        let answer = match answer? {
            Answer::Ready(result) => {
                return result.map(|mut v| {
                    normalize(&mut v);
                    v
                });
            }
            Answer::Pending(answer) => answer,
        };
        // A fast embedder answers within microseconds, sooner than a blocked caller is woken
        // again: poll for a short while before sleeping on the channel. That wake-up was most
        // of the round trip through the pool on every remember and recall.
        let spin = SPIN.min(budget);
        let received = loop {
            match answer.try_recv() {
                Ok(result) => break Ok(result),
                Err(TryRecvError::Disconnected) => break Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) => {
                    let waited = started.elapsed();
                    if waited >= spin {
                        break answer.recv_timeout(budget.saturating_sub(waited));
                    }
                    std::hint::spin_loop();
                }
            }
        };
        match received {
            Ok(result) => result.map(|mut v| {
                normalize(&mut v);
                v
            }),
            Err(RecvTimeoutError::Timeout) => Err(EmbedError::TimedOut { budget }),
            Err(RecvTimeoutError::Disconnected) => Err(EmbedError::Closed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HashingEmbedder;

    struct Failing;

    impl Embedder for Failing {
        fn model_id(&self) -> &str {
            "failing"
        }
        fn embed(&self, _: &str) -> Result<Vec<f32>, EmbedError> {
            Err(EmbedError::Failed("model unavailable".into()))
        }
    }

    struct Panicking;

    impl Embedder for Panicking {
        fn model_id(&self) -> &str {
            "panicking"
        }
        fn embed(&self, _: &str) -> Result<Vec<f32>, EmbedError> {
            panic!("model crashed")
        }
    }

    #[test]
    fn a_fast_embedder_answers_with_its_vector() -> Result<(), EmbedError> {
        let pool = EmbedPool::with_default_workers(Arc::new(HashingEmbedder))?;
        assert_eq!(pool.model_id(), HashingEmbedder::MODEL_ID);
        let v = pool.embed_within("hello world", SEMANTIC_BUDGET)?;
        let direct = HashingEmbedder.vector("hello world");
        assert!(v.iter().zip(&direct).all(|(a, b)| (a - b).abs() < 1e-6));
        assert_eq!(pool.embed("hello world")?, v);
        // Many calls in a row reuse the workers.
        for _ in 0..50 {
            pool.embed_within("again", SEMANTIC_BUDGET)?;
        }
        Ok(())
    }

    /// The hashing embedder behind a flag that sends it to the workers.
    struct ThroughWorkers;

    impl Embedder for ThroughWorkers {
        fn model_id(&self) -> &str {
            HashingEmbedder::MODEL_ID
        }
        fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
            HashingEmbedder.embed(text)
        }
    }

    /// Runs inline and panics on one text.
    struct InlinePanicking;

    impl Embedder for InlinePanicking {
        fn model_id(&self) -> &str {
            "inline-panicking"
        }
        fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
            if text == "boom" {
                panic!("model crashed")
            }
            HashingEmbedder.embed(text)
        }
        fn runs_inline(&self) -> bool {
            true
        }
    }

    #[test]
    fn an_inline_embedder_answers_as_a_worker_would_and_needs_no_idle_worker()
    -> Result<(), EmbedError> {
        let inline = EmbedPool::new(Arc::new(HashingEmbedder), 1)?;
        let workers = EmbedPool::new(Arc::new(ThroughWorkers), 1)?;
        for text in [
            "hello world",
            "",
            "Zahnarzttermin am Montag",
            "歯医者の予約",
        ] {
            assert_eq!(
                inline.embed_within(text, SEMANTIC_BUDGET)?,
                workers.embed_within(text, SEMANTIC_BUDGET)?
            );
        }
        // An inline embedding started and not yet collected holds no worker.
        let first = inline.start_within("first", SEMANTIC_BUDGET);
        assert_eq!(inline.busy_workers(), 0);
        assert!(inline.embed_within("second", SEMANTIC_BUDGET).is_ok());
        assert!(first.wait().is_ok());
        // A zero budget is over before any answer: the inline one is refused too.
        assert!(matches!(
            inline.embed_within("late", Duration::ZERO),
            Err(EmbedError::TimedOut { .. })
        ));
        // A panic is an error, as on a worker, and the pool goes on.
        let pool = EmbedPool::new(Arc::new(InlinePanicking), 1)?;
        assert!(matches!(
            pool.embed_within("boom", SEMANTIC_BUDGET),
            Err(EmbedError::Failed(_))
        ));
        assert!(pool.embed_within("fine", SEMANTIC_BUDGET).is_ok());
        Ok(())
    }

    #[test]
    fn embedder_errors_and_panics_come_back_as_errors_and_free_the_worker() -> Result<(), EmbedError>
    {
        let pool = EmbedPool::new(Arc::new(Failing), 1)?;
        assert!(matches!(
            pool.embed_within("q", SEMANTIC_BUDGET),
            Err(EmbedError::Failed(_))
        ));
        assert!(matches!(
            pool.embed_within("q", SEMANTIC_BUDGET),
            Err(EmbedError::Failed(_))
        ));
        let pool = EmbedPool::new(Arc::new(Panicking), 1)?;
        for _ in 0..3 {
            assert!(matches!(
                pool.embed_within("q", SEMANTIC_BUDGET),
                Err(EmbedError::Failed(_))
            ));
        }
        Ok(())
    }
}

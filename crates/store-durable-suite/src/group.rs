//! Group commit, checked on a durable backend whose concurrent steps share commits.
//!
//! [`GroupCrashTest`]: a child process runs 8 writer threads on one backend (Immediate
//! durability), so that their steps are committed in groups, and
//! prints `ack <thread> <i>` once each call returned. The parent SIGKILLs it at seeded moments,
//! reopens the file and checks, per thread, that every acknowledged version is there and that
//! what is there is exactly that thread's first calls, at most one more than it acknowledged
//! (the call in flight may have committed). An acknowledgement given before its group's commit
//! would show up as a lost version.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use memory_core::{AgentMemoryId, ApiError, CredentialId, ErrorCode, Timestamp};
use store_trait::{Backend, Error, RememberOutcome};

use crate::crash::{Child, Remember, at, owner};

const CHILD_ENV: &str = "STORE_TRAIT_GROUP_CRASH_CHILD";
const THREADS: usize = 8;

fn id(round: u64, thread: usize, i: usize) -> String {
    format!("amem_r{round:03}t{thread}n{i:06}")
}

fn remember<B: Backend>(backend: &B, round: u64, thread: usize, i: usize) {
    let o = owner("ws_group", &format!("w{thread}"));
    let credential = CredentialId::new(format!("cred_w{thread}")).unwrap();
    Remember {
        owner: &o,
        credential: &credential,
        namespace: "group",
        key: None,
        id: &id(round, thread, i),
        created_at: at((round * 1_000_000 + i as u64) as i64),
        window_ms: 200,
    }
    .run(backend)
    .expect("remember");
}

/// The group-commit crash test of one durable backend.
pub struct GroupCrashTest<B> {
    /// The backend's name, for the report.
    pub backend: &'static str,
    /// The full name of the calling `#[test]` (the child runs only it).
    pub test_name: &'static str,
    /// Kills (rounds) to run.
    pub rounds: u64,
    /// Opens the backend on Immediate durability in the given directory, creating it when new.
    pub open: fn(&Path) -> Result<B, Error>,
}

/// What a group-commit crash test checked.
#[derive(Debug)]
pub struct GroupCrashReport {
    /// Acknowledged calls found after the kills (all of them, or the test failed).
    pub acks_checked: usize,
    /// Calls in flight at a kill that were found committed.
    pub in_flight_committed: usize,
}

impl<B: Backend + Sync> GroupCrashTest<B> {
    /// Acts as the child when this process is one (and then never returns); otherwise runs the
    /// rounds and panics on the first acknowledged call lost.
    pub fn run(&self) -> GroupCrashReport {
        if let Ok(spec) = std::env::var(CHILD_ENV) {
            self.child(&spec);
        }
        self.parent()
    }

    /// The child: 8 threads writing until killed.
    fn child(&self, spec: &str) -> ! {
        let (round, dir) = spec.split_once(':').expect("round:dir");
        let round: u64 = round.parse().unwrap();
        let backend = (self.open)(Path::new(dir)).expect("open in child");
        std::thread::scope(|s| {
            for thread in 0..THREADS {
                let backend = &backend;
                s.spawn(move || {
                    for i in 0..100_000 {
                        remember(backend, round, thread, i);
                        let mut out = std::io::stdout().lock();
                        writeln!(out, "ack {thread} {i}").unwrap();
                        out.flush().unwrap();
                    }
                });
            }
        });
        std::process::exit(0)
    }

    /// Runs a child until `target` acknowledgements in all and `delay` more, then kills it; the
    /// acknowledgements per thread.
    fn kill_child(
        &self,
        dir: &Path,
        round: u64,
        target: usize,
        delay: Duration,
    ) -> [usize; THREADS] {
        let child = Child::spawn(
            self.test_name,
            CHILD_ENV,
            format!("{round}:{}", dir.display()),
        );
        let mut acked = [0usize; THREADS];
        let record = |ack: &str, acked: &mut [usize; THREADS]| {
            let (t, i) = ack.split_once(' ').unwrap();
            let (t, i) = (t.parse::<usize>().unwrap(), i.parse::<usize>().unwrap());
            assert_eq!(i, acked[t], "thread {t}: acknowledgements out of order");
            acked[t] += 1;
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while acked.iter().sum::<usize>() < target {
            match child.next_ack(deadline) {
                Some(ack) => record(&ack, &mut acked),
                None => break,
            }
        }
        let killed = child.kill_after(delay);
        for ack in &killed.acks {
            record(ack, &mut acked);
        }
        assert!(killed.killed, "round {round}: the child ended on its own");
        assert!(
            acked.iter().sum::<usize>() >= target,
            "round {round}: too few acknowledgements"
        );
        acked
    }

    fn parent(&self) -> GroupCrashReport {
        let started = Instant::now();
        let dir = tempfile::tempdir().unwrap();
        let mut seed = 0x6A09_E667_F3BC_C908_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut checked, mut in_flight) = (0, 0);
        let rounds = self.rounds;
        for round in 0..rounds {
            let target = 8 + next(200) as usize;
            let delay = Duration::from_micros(next(3_000));
            let acked = self.kill_child(dir.path(), round, target, delay);
            let backend = (self.open)(dir.path())
                .unwrap_or_else(|e| panic!("round {round}: reopen failed: {e}"));
            for (thread, &acked) in acked.iter().enumerate() {
                let o = owner("ws_group", &format!("w{thread}"));
                let present = |i: usize| {
                    let id = AgentMemoryId::parse(id(round, thread, i)).unwrap();
                    backend.get(&o, &id).unwrap().is_some()
                };
                for i in 0..acked {
                    assert!(
                        present(i),
                        "round {round}, thread {thread}: acknowledged call {i} of {acked} was lost"
                    );
                }
                checked += acked;
                // At most the call in flight is there besides, and nothing after it.
                if present(acked) {
                    in_flight += 1;
                    assert!(
                        !present(acked + 1),
                        "round {round}, thread {thread}: a call never made"
                    );
                }
            }
            // The versions of every round so far, counted by the backend, match what was found.
            let stored: u64 = (0..THREADS)
                .map(|t| {
                    let o = owner("ws_group", &format!("w{t}"));
                    backend.stored_versions(&o, Timestamp::MIN).unwrap()
                })
                .sum();
            assert!(
                stored >= checked as u64,
                "round {round}: {stored} stored, {checked} acknowledged"
            );
        }
        println!(
            "{} group-commit crash test: {rounds} SIGKILLs of 8 writer threads, {checked} \
         acknowledged calls checked, 0 lost, {in_flight} unacknowledged in-flight calls found \
         committed, {:.1?}",
            self.backend,
            started.elapsed()
        );
        GroupCrashReport {
            acks_checked: checked,
            in_flight_committed: in_flight,
        }
    }
}

/// What step `i` of a thread in [`refusals_and_panics_leave_their_group_whole`] does.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Write,
    Refuse,
    Panic,
}

fn kind(thread: usize, i: usize) -> Kind {
    match (thread * 7 + i * 3) % 10 {
        0 | 5 => Kind::Refuse,
        3 => Kind::Panic,
        _ => Kind::Write,
    }
}

/// 8 threads write, refuse and panic at once on `backend`, so that steps of all three kinds share
/// groups: afterwards every acknowledged write is stored, no refused or panicked one is, and
/// each owner's count matches. A group that let a refusal or a panic take the steps beside it
/// down, or kept a refused step's writes, fails here.
pub fn refusals_and_panics_leave_their_group_whole<B: Backend + Sync>(backend: &B) {
    const STEPS: usize = 60;
    let written: Vec<Vec<bool>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|thread| {
                s.spawn(move || {
                    let o = owner("ws_mixed", &format!("w{thread}"));
                    let credential = CredentialId::new(format!("cred_w{thread}")).unwrap();
                    let mut acked = Vec::with_capacity(STEPS);
                    for i in 0..STEPS {
                        let id = id(0, thread, i);
                        let call = Remember {
                            owner: &o,
                            credential: &credential,
                            namespace: "mixed",
                            key: None,
                            id: &id,
                            created_at: at(i as i64),
                            window_ms: 1,
                        };
                        let k = kind(thread, i);
                        let outcome =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                backend.remember(
                                    &o,
                                    &credential,
                                    None,
                                    Timestamp::MIN,
                                    Timestamp::MIN,
                                    &mut |state| match k {
                                        Kind::Write => Ok(call.accept(state)),
                                        Kind::Refuse => Err(ApiError::new(
                                            ErrorCode::AgentMemoryRateLimited,
                                            "refused on purpose",
                                        )),
                                        Kind::Panic => panic!("a decision that panics"),
                                    },
                                )
                            }));
                        let wrote = match (k, outcome) {
                            (Kind::Write, Ok(Ok(RememberOutcome::Written { .. }))) => true,
                            (Kind::Refuse, Ok(Ok(RememberOutcome::Refused(_)))) => false,
                            (Kind::Panic, Err(_)) => false,
                            (_, Ok(Err(e))) => panic!("thread {thread}, step {i}: {e}"),
                            _ => panic!("thread {thread}, step {i}: an unexpected outcome"),
                        };
                        acked.push(wrote);
                    }
                    acked
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (thread, acked) in written.iter().enumerate() {
        let o = owner("ws_mixed", &format!("w{thread}"));
        for (i, &wrote) in acked.iter().enumerate() {
            let stored = backend
                .get(&o, &AgentMemoryId::parse(id(0, thread, i)).unwrap())
                .unwrap()
                .is_some();
            assert_eq!(stored, wrote, "thread {thread}, step {i}");
        }
        let writes = acked.iter().filter(|w| **w).count() as u64;
        assert_eq!(backend.stored_versions(&o, Timestamp::MIN).unwrap(), writes);
    }
}

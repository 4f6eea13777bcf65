//! [`StepGate`]: what orders sled steps and reads, and groups the flushes of concurrent steps.
//!
//! sled applies a batch atomically, but a read that visits several keys could still see half of
//! a step, so steps run alone and reads wait for them. With [`Durability::Immediate`] a step's
//! batch must also be flushed before anyone learns of it — its caller or a read. Steps that
//! arrive while one runs form a group: each runs alone in turn, reading what the ones before it
//! wrote, and the last of them (the one that finds no step waiting, or the 32nd) flushes once for
//! all. Reads wait until the group's flush is done, and every step that wrote (or read what an
//! earlier step of its group wrote) answers only after it.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use store_trait::kv::GroupOutcome;
use store_trait::{Durability, Error};

/// Steps flushed together at most: a bound on how long the first of a group waits.
const MAX_GROUP: usize = 32;

/// The gate of one open database.
#[derive(Default)]
pub(crate) struct StepGate {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// A step runs, or a group is being flushed.
    busy: bool,
    /// Reads running.
    readers: usize,
    /// Steps waiting to run: they go before reads that arrive meanwhile, and while there are
    /// any the running step leaves its group open for them.
    queued: usize,
    /// Steps whose writes are applied but not yet flushed: reads wait until it is `None`.
    group: Option<Group>,
}

struct Group {
    steps: usize,
    outcome: GroupOutcome,
}

impl StepGate {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs a read: after the running step and every flush it waits for, never beside a step.
    pub(crate) fn read<R>(&self, read: impl FnOnce() -> R) -> R {
        let mut state = self.lock();
        while state.busy || state.queued > 0 || state.group.is_some() {
            state = self.wait(state);
        }
        state.readers += 1;
        drop(state);
        let out = catch_unwind(AssertUnwindSafe(read));
        let mut state = self.lock();
        state.readers -= 1;
        if state.readers == 0 {
            self.changed.notify_all();
        }
        drop(state);
        out.unwrap_or_else(|panic| resume_unwind(panic))
    }

    /// Runs a step alone. `run` decides and applies its batch (all of it or nothing: sled's
    /// batches are atomic) and says whether it wrote; `flush` makes everything applied durable.
    /// With `Immediate` durability the step answers only once a flush after its write (and after
    /// the writes before it in its group) is done.
    pub(crate) fn step<R>(
        &self,
        durability: Durability,
        run: impl FnOnce() -> (Result<R, Error>, bool),
        flush: impl FnOnce() -> Result<(), Error>,
    ) -> Result<R, Error> {
        let mut state = self.lock();
        state.queued += 1;
        while state.busy || state.readers > 0 {
            state = self.wait(state);
        }
        state.queued -= 1;
        state.busy = true;
        drop(state);

        let ran = catch_unwind(AssertUnwindSafe(run));

        let mut state = self.lock();
        let wrote = matches!(ran, Ok((_, true)));
        if wrote && durability == Durability::Immediate && state.group.is_none() {
            state.group = Some(Group {
                steps: 0,
                outcome: GroupOutcome::new(),
            });
        }
        // A step joins the open group when it wrote or when it read an earlier step's writes.
        let mine = state.group.as_mut().map(|g| {
            g.steps += 1;
            (g.outcome.clone(), g.steps >= MAX_GROUP)
        });
        let mut flushed_here = None;
        match &mine {
            Some((outcome, full)) if *full || state.queued == 0 => {
                // Still busy: no step starts and no read runs until the flush is done.
                drop(state);
                let result = catch_unwind(AssertUnwindSafe(flush)).unwrap_or_else(|_| {
                    Err(Error::other(
                        "sled: flushing a group of steps",
                        std::io::Error::other("the flush panicked"),
                    ))
                });
                outcome.set(result.as_ref().map(|_| ()));
                state = self.lock();
                state.group = None;
                flushed_here = Some(result);
            }
            _ => {}
        }
        state.busy = false;
        self.changed.notify_all();
        let (answer, _) = match ran {
            Ok(ran) => ran,
            Err(panic) => {
                drop(state);
                resume_unwind(panic);
            }
        };
        let Some((outcome, _)) = mine else {
            return answer;
        };
        let answer = answer?;
        if let Some(result) = flushed_here {
            return result.map(|()| answer);
        }
        outcome
            .wait(state, "sled: flushing a group of steps")
            .map(|()| answer)
    }
}

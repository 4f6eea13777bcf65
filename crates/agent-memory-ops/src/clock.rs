//! Time as the host supplies it: the system clock in production, a manual one in tests and replay.

use std::sync::Mutex;

use memory_core::Timestamp;

/// The source of "now" for every decision (rate windows, retention, supersede instants).
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that moves only when told to; used by tests and `replay`.
#[derive(Debug)]
pub struct ManualClock(Mutex<Timestamp>);

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: Timestamp) -> Self {
        ManualClock(Mutex::new(start))
    }

    /// Moves the clock to `t` (backwards too: the caller decides whether that is allowed).
    pub fn set(&self, t: Timestamp) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = t;
    }

    /// Moves the clock forward by `seconds`.
    pub fn advance_seconds(&self, seconds: i64) {
        let mut now = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *now = now.plus_seconds(seconds);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

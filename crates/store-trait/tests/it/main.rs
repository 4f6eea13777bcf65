//! Integration tests of `store-trait`: the conformance suite against `InMemoryBackend`, directly
//! (one test per check) and through the forwarding implementations, and against each durable
//! backend, with its reopen and crash tests.

#[cfg(any(feature = "redb", feature = "sled", feature = "sqlite"))]
mod crash_common;
#[cfg(feature = "sqlite")]
mod crash_group;
#[cfg(feature = "redb")]
mod crash_redb;
#[cfg(feature = "sled")]
mod crash_sled;
#[cfg(feature = "sqlite")]
mod crash_sqlite;
mod forwarding;
mod in_memory;
#[cfg(all(feature = "redb", feature = "sled", feature = "sqlite"))]
mod legacy;
#[cfg(feature = "redb")]
mod redb;
#[cfg(feature = "sled")]
mod sled;
#[cfg(feature = "sqlite")]
mod sqlite;
#[cfg(any(feature = "redb", feature = "sled", feature = "sqlite"))]
mod vacuum;

//! The checks every durable backend's tests run beside the conformance suite
//! (`store-conformance`), each generic over how the backend is opened:
//!
//! - [`crash`]: the crash test (quality target R3), which SIGKILLs a child process writing
//!   through the backend at seeded moments and checks every acknowledged call after each
//!   reopen, and the reopen test;
//! - [`group`]: group commit — a SIGKILL test of 8 writer threads and a check that
//!   refusals and panics inside a group leave the steps beside them whole;
//! - [`formats`]: the fixture history the format-upgrade tests check, with the answers format 3
//!   gave (`fixtures/format3-expected.json`);
//! - [`vacuum`]: content removed through the APIs is in the database's files until a vacuum and
//!   in none of them afterwards.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod crash;
pub mod formats;
pub mod group;
pub mod vacuum;

//! Integration tests of `store-sled`: the conformance suite on a sled directory, reopen and crash
//! tests (one writer and group flushes), the vacuum, and the upgrades of older formats.

mod crash_group;
mod crash_sled;
mod legacy;
mod sled;
mod vacuum;

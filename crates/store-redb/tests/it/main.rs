//! Integration tests of `store-redb`: the conformance suite on a redb file, reopen and crash
//! tests, the vacuum, and the upgrades of older formats.

mod crash_redb;
mod legacy;
mod redb;
mod vacuum;

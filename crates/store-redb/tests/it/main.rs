//! Integration tests of `store-redb`: the conformance suite on a redb file, reopen and crash
//! tests (one writer and group commits), the vacuum, and the upgrades of older formats.

mod crash_group;
mod crash_redb;
mod legacy;
mod redb;
mod vacuum;

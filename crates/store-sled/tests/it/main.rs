//! Integration tests of `store-sled`: the conformance suite on a sled directory, reopen and crash
//! tests, the vacuum, and the upgrades of older formats.

mod crash_sled;
mod legacy;
mod sled;
mod vacuum;

//! Integration tests of `store-sqlite`: the conformance suite on a SQLite file, processes
//! sharing it, reopen and crash tests (one writer and group commits), the vacuum, and the
//! upgrades of older formats.

mod crash_group;
mod crash_sqlite;
mod legacy;
mod sqlite;
mod vacuum;

//! `PostgresBackend` against a real PostgreSQL: the whole conformance suite, schema migrations,
//! the recall index's tables, and races between two OS processes, each with its own facade over
//! its own backend.
//!
//! The database is `AGENT_MEMORY_TEST_DATABASE_URL` (`.ci/postgres.sh` starts one). Every test
//! needs it, so every test is `#[ignore]`d: a plain `cargo test` lists them as ignored, and
//! `cargo test -p govmem-store-postgres -- --ignored` runs them, failing when the database is missing
//! or unreachable. Each test works in a fresh schema, dropped afterwards.

mod conformance;
mod index;
mod processes;
mod schema;
mod support;

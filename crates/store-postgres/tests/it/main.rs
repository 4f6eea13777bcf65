//! `PostgresBackend` against a real PostgreSQL: the whole conformance suite, schema migrations,
//! and races between two OS processes, each with its own facade over its own backend.
//!
//! The database is `AGENT_MEMORY_TEST_DATABASE_URL` (`.ci/postgres.sh` starts one). Without it,
//! or when it is unreachable, every test passes without running and says so — unless `CI` is
//! set, where that is a failure. Each test works in a fresh schema, dropped afterwards.

mod conformance;
mod processes;
mod schema;
mod support;

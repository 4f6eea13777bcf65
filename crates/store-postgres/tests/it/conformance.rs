//! One `#[test]` per conformance check, each on a fresh schema; the model-based tests run
//! `CONFORMANCE_CASES` cases (1,000 by default), each case on a fresh schema.

store_conformance::conformance_tests!(
    crate::support::fresh,
    ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"
);

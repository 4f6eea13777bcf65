//! Migrations: applied once, recorded, and a newer database refused.

use r2d2_postgres::postgres::{Client, NoTls};
use store_trait::{Backend, Error};

use crate::support::Schema;

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn migrations_are_recorded_and_reopening_keeps_data() {
    let schema = Schema::fresh();
    let backend = schema.backend(2);
    assert_eq!(backend.schema_version().unwrap(), 3);
    let ws = memory_core::WorkspaceId::new("ws1").unwrap();
    let settings = memory_core::Settings {
        agent_memories_enabled: true,
        retention_days: 30,
    };
    backend.put_settings(&ws, &settings).unwrap();
    drop(backend);
    let again = schema.backend(2);
    assert_eq!(again.settings(&ws).unwrap(), Some(settings));
    assert_eq!(again.schema_version().unwrap(), 3);
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn a_database_newer_than_the_code_is_refused() {
    let schema = Schema::fresh();
    drop(schema.backend(1));
    let mut client = Client::connect(&schema.url, NoTls).unwrap();
    client
        .batch_execute(&format!(
            "INSERT INTO \"{}\".schema_migrations (version) VALUES (999)",
            schema.name
        ))
        .unwrap();
    let err = store_postgres::PostgresBackend::connect_in_schema(&schema.url, &schema.name, 1)
        .unwrap_err();
    assert!(
        matches!(&err, Error::Format(m) if m.contains("999")),
        "{err}"
    );
}

//! The test database (a failure when it is missing: these tests are ignored unless asked for),
//! fresh schemas and backends.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use r2d2_postgres::postgres::{Client, NoTls};
use store_conformance::Guarded;
use store_postgres::PostgresBackend;

/// The environment variable naming the test database.
pub const URL_VAR: &str = "AGENT_MEMORY_TEST_DATABASE_URL";

/// The test database's URL. Panics when it is not set or not reachable: the tests that call
/// this run only when asked for (`--ignored`), and a database that was asked for must be there.
pub fn url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        let url = std::env::var(URL_VAR).unwrap_or_else(|_| {
            panic!("{URL_VAR} is not set: `source .ci/postgres.sh` starts a throw-away cluster")
        });
        match Client::connect(&url, NoTls) {
            Ok(mut client) => drop_leftovers(&mut client),
            Err(e) => panic!("{URL_VAR} is set but PostgreSQL is unreachable: {e}"),
        }
        url
    })
}

/// A schema of its own, dropped with everything in it when this is dropped.
pub struct Schema {
    pub url: String,
    pub name: String,
}

impl Schema {
    /// A new, unique schema name (created by the first backend opened in it).
    pub fn fresh() -> Schema {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let url = url().to_owned();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "t_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        Schema { url, name }
    }

    /// A backend on this schema with `pool` connections.
    pub fn backend(&self, pool: u32) -> PostgresBackend {
        PostgresBackend::connect_in_schema(&self.url, &self.name, pool).expect("open the backend")
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        if let Ok(mut client) = Client::connect(&self.url, NoTls) {
            let _ =
                client.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name));
        }
    }
}

/// Migrated schemas whose backend was dropped, emptied for the next factory call: the
/// model-based tests open a backend per case, and creating a schema each time would be most of
/// their run time.
static FREE: Mutex<Vec<Schema>> = Mutex::new(Vec::new());

/// A schema of [`FREE`] in use; it goes back there when dropped.
pub struct Reused(Option<Schema>);

impl Drop for Reused {
    fn drop(&mut self) {
        if let Some(schema) = self.0.take() {
            FREE.lock().unwrap_or_else(|e| e.into_inner()).push(schema);
        }
    }
}

/// A fresh backend: an emptied schema from earlier tests of this process, or a new one (pool
/// of 10: the races run 8 threads).
pub fn fresh() -> Guarded<PostgresBackend, Reused> {
    let reused = FREE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let schema = match reused {
        Some(schema) => {
            let mut client = Client::connect(&schema.url, NoTls).expect("the test database");
            client
                .batch_execute(&format!(
                    "SET search_path = \"{}\"; TRUNCATE agent_memory_versions, agent_memory_postings, \
                     agent_memory_vectors, agent_memory_keys, rate_windows, workspace_settings, \
                     memory_store_kv",
                    schema.name
                ))
                .expect("empty a reused schema");
            schema
        }
        None => Schema::fresh(),
    };
    Guarded {
        backend: schema.backend(10),
        guard: Reused(Some(schema)),
    }
}

/// Drops the test schemas that processes no longer running left behind (those of [`FREE`] live
/// as long as their process). Linux only: it asks `/proc` whether the process is alive.
fn drop_leftovers(client: &mut Client) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(rows) = client.query(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'",
        &[],
    ) else {
        return;
    };
    for row in rows {
        let name: String = row.get(0);
        let pid = name.split('_').nth(1).unwrap_or("");
        if !pid.is_empty() && !std::path::Path::new("/proc").join(pid).exists() {
            let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{name}\" CASCADE"));
        }
    }
}

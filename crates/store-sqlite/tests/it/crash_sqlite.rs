//! Crash test R3 for `SqliteBackend`: the shared crash test (`crash_common`) on a SQLite database
//! file in WAL mode with Immediate durability; 36 SIGKILLs at seeded moments, every acknowledged
//! call checked after each reopen.

use std::path::Path;

use store_sqlite::SqliteBackend;
use store_trait::{Durability, Error};

use store_durable_suite::crash::CrashTest;
use store_kv::InMemoryBackend;

fn open(dir: &Path) -> Result<SqliteBackend, Error> {
    SqliteBackend::create(dir.join("crash.sqlite"), Durability::Immediate)
}

#[test]
fn acknowledged_writes_survive_sigkill() {
    let report = CrashTest {
        backend: "sqlite",
        test_name: "crash_sqlite::acknowledged_writes_survive_sigkill",
        rounds: 36,
        open,
        model: InMemoryBackend::new,
    }
    .run();
    println!(
        "sqlite crash test: {} SIGKILLs, {} acknowledged calls checked, {} lost, {} \
         unacknowledged in-flight calls found committed, {:.1?}",
        report.kills, report.acks_checked, report.lost, report.in_flight_committed, report.elapsed
    );
    assert!(report.kills >= 30);
    assert_eq!(report.lost, 0);
}

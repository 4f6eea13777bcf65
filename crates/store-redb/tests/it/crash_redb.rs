//! Crash test R3 for `RedbBackend`: the shared crash test (`crash_common`) on a redb database
//! file with Immediate durability; 36 SIGKILLs at seeded moments, every acknowledged call checked
//! after each reopen.

use std::path::Path;

use store_redb::RedbBackend;
use store_trait::{Durability, Error};

use store_durable_suite::crash::CrashTest;
use store_kv::InMemoryBackend;

fn open(dir: &Path) -> Result<RedbBackend, Error> {
    RedbBackend::create(dir.join("crash.redb"), Durability::Immediate)
}

#[test]
fn acknowledged_writes_survive_sigkill() {
    let report = CrashTest {
        backend: "redb",
        test_name: "crash_redb::acknowledged_writes_survive_sigkill",
        rounds: 36,
        open,
        model: InMemoryBackend::new,
    }
    .run();
    println!(
        "redb crash test: {} SIGKILLs, {} acknowledged calls checked, {} lost, {} unacknowledged \
         in-flight calls found committed, {:.1?}",
        report.kills, report.acks_checked, report.lost, report.in_flight_committed, report.elapsed
    );
    assert!(report.kills >= 30);
    assert_eq!(report.lost, 0);
}

//! Crash test R3 for `SledBackend`: the shared crash test (`crash_common`) on a sled database
//! directory with Immediate durability; 36 SIGKILLs at seeded moments, every acknowledged call
//! checked after each reopen.

use std::path::Path;

use store_sled::SledBackend;
use store_trait::{Durability, Error};

use store_durable_suite::crash::CrashTest;
use store_kv::InMemoryBackend;

fn open(dir: &Path) -> Result<SledBackend, Error> {
    SledBackend::open(dir.join("db"), Durability::Immediate)
}

#[test]
fn acknowledged_writes_survive_sigkill() {
    let report = CrashTest {
        backend: "sled",
        test_name: "crash_sled::acknowledged_writes_survive_sigkill",
        rounds: 36,
        open,
        model: InMemoryBackend::new,
    }
    .run();
    println!(
        "sled crash test: {} SIGKILLs, {} acknowledged calls checked, {} lost, {} unacknowledged \
         in-flight calls found committed, {:.1?}",
        report.kills, report.acks_checked, report.lost, report.in_flight_committed, report.elapsed
    );
    assert!(report.kills >= 30);
    assert_eq!(report.lost, 0);
}

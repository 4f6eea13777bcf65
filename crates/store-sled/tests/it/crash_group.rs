//! sled's group flush: the SIGKILL test of 8 writer threads and mixed steps in groups (see
//! `store_durable_suite::group`).

use std::path::Path;

use store_durable_suite::group::{GroupCrashTest, refusals_and_panics_leave_their_group_whole};
use store_sled::SledBackend;
use store_trait::{Durability, Error};

fn open(dir: &Path) -> Result<SledBackend, Error> {
    SledBackend::open(dir.join("group.sled"), Durability::Immediate)
}

#[test]
fn acknowledged_group_commits_survive_sigkill() {
    GroupCrashTest {
        backend: "sled",
        test_name: "crash_group::acknowledged_group_commits_survive_sigkill",
        rounds: 30,
        open,
    }
    .run();
}

#[test]
fn refusals_and_panics_leave_their_group_whole_on_sled() {
    let dir = tempfile::tempdir().unwrap();
    refusals_and_panics_leave_their_group_whole(&open(dir.path()).unwrap());
}

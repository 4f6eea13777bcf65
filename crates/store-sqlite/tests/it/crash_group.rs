//! Crash test of SQLite's group commit: a child process runs 8 writer threads on one
//! `SqliteBackend` (Immediate durability), so that their steps are committed in groups, and
//! prints `ack <thread> <i>` once each call returned. The parent SIGKILLs it at seeded moments,
//! reopens the file and checks, per thread, that every acknowledged version is there and that
//! what is there is exactly that thread's first calls, at most one more than it acknowledged
//! (the call in flight may have committed). An acknowledgement given before its group's commit
//! would show up as a lost version.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use memory_core::{AgentMemoryId, CredentialId, Timestamp};
use store_sqlite::SqliteBackend;
use store_trait::{Backend, Durability};

use store_durable_suite::crash::{Remember, at, owner};

const CHILD_ENV: &str = "STORE_TRAIT_GROUP_CRASH_CHILD";
const THREADS: usize = 8;
const TEST: &str = "crash_group::acknowledged_group_commits_survive_sigkill";

fn id(round: u64, thread: usize, i: usize) -> String {
    format!("amem_r{round:03}t{thread}n{i:06}")
}

fn open(dir: &Path) -> SqliteBackend {
    SqliteBackend::create(dir.join("group.sqlite"), Durability::Immediate).expect("open")
}

fn remember(backend: &SqliteBackend, round: u64, thread: usize, i: usize) {
    let o = owner("ws_group", &format!("w{thread}"));
    let credential = CredentialId::new(format!("cred_w{thread}")).unwrap();
    Remember {
        owner: &o,
        credential: &credential,
        namespace: "group",
        key: None,
        id: &id(round, thread, i),
        created_at: at((round * 1_000_000 + i as u64) as i64),
        window_ms: 200,
    }
    .run(backend)
    .expect("remember");
}

/// The child: 8 threads writing until killed.
fn child(spec: &str) -> ! {
    let (round, dir) = spec.split_once(':').expect("round:dir");
    let round: u64 = round.parse().unwrap();
    let backend = open(Path::new(dir));
    std::thread::scope(|s| {
        for thread in 0..THREADS {
            let backend = &backend;
            s.spawn(move || {
                for i in 0..100_000 {
                    remember(backend, round, thread, i);
                    let mut out = std::io::stdout().lock();
                    writeln!(out, "ack {thread} {i}").unwrap();
                    out.flush().unwrap();
                }
            });
        }
    });
    std::process::exit(0)
}

/// Runs a child until `target` acknowledgements in all and `delay` more, then kills it; the
/// acknowledgements per thread.
fn kill_child(dir: &Path, round: u64, target: usize, delay: Duration) -> [usize; THREADS] {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", TEST, "--nocapture", "--test-threads=1", "-q"])
        .env(CHILD_ENV, format!("{round}:{}", dir.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout);
        let mut line = String::new();
        // A line cut by the kill has no newline: it is no acknowledgement.
        while lines.read_line(&mut line).unwrap_or(0) > 0 && line.ends_with('\n') {
            if let Some(rest) = line.trim_end().strip_prefix("ack ") {
                let (t, i) = rest.split_once(' ').unwrap();
                let _ = tx.send((t.parse::<usize>().unwrap(), i.parse::<usize>().unwrap()));
            }
            line.clear();
        }
    });
    let mut acked = [0usize; THREADS];
    let record = |(t, i): (usize, usize), acked: &mut [usize; THREADS]| {
        assert_eq!(i, acked[t], "thread {t}: acknowledgements out of order");
        acked[t] += 1;
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while acked.iter().sum::<usize>() < target {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(ack) => record(ack, &mut acked),
            Err(_) => break,
        }
    }
    std::thread::sleep(delay);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    for ack in rx.try_iter() {
        record(ack, &mut acked);
    }
    assert_eq!(
        status.signal(),
        Some(9),
        "round {round}: the child ended on its own"
    );
    assert!(
        acked.iter().sum::<usize>() >= target,
        "round {round}: too few acknowledgements"
    );
    acked
}

#[test]
fn acknowledged_group_commits_survive_sigkill() {
    if let Ok(spec) = std::env::var(CHILD_ENV) {
        child(&spec);
    }
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0x6A09_E667_F3BC_C908_u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (mut checked, mut in_flight) = (0, 0);
    let rounds = 30;
    for round in 0..rounds {
        let target = 8 + next(200) as usize;
        let delay = Duration::from_micros(next(3_000));
        let acked = kill_child(dir.path(), round, target, delay);
        let backend = open(dir.path());
        for (thread, &acked) in acked.iter().enumerate() {
            let o = owner("ws_group", &format!("w{thread}"));
            let present = |i: usize| {
                let id = AgentMemoryId::parse(id(round, thread, i)).unwrap();
                backend.get(&o, &id).unwrap().is_some()
            };
            for i in 0..acked {
                assert!(
                    present(i),
                    "round {round}, thread {thread}: acknowledged call {i} of {acked} was lost"
                );
            }
            checked += acked;
            // At most the call in flight is there besides, and nothing after it.
            if present(acked) {
                in_flight += 1;
                assert!(
                    !present(acked + 1),
                    "round {round}, thread {thread}: a call never made"
                );
            }
        }
        // The versions of every round so far, counted by the backend, match what was found.
        let stored: u64 = (0..THREADS)
            .map(|t| {
                let o = owner("ws_group", &format!("w{t}"));
                backend.stored_versions(&o, Timestamp::MIN).unwrap()
            })
            .sum();
        assert!(
            stored >= checked as u64,
            "round {round}: {stored} stored, {checked} acknowledged"
        );
    }
    println!(
        "sqlite group-commit crash test: {rounds} SIGKILLs of 8 writer threads, {checked} \
         acknowledged calls checked, 0 lost, {in_flight} unacknowledged in-flight calls found \
         committed, {:.1?}",
        started.elapsed()
    );
}

//! Helpers shared by the durable backends' tests: a remember with the usual decision, a probe of
//! the remember state, the crash test (R3) itself, generic over how a backend is opened, and the
//! reopen test.
//!
//! The crash test re-executes this test binary as a child (`STORE_TRAIT_CRASH_CHILD` set to
//! `<backend>:<round>:<directory>`, running only the calling test) that applies a deterministic
//! sequence of remembers with keys, supersedes and forgets on Immediate durability and prints
//! `ack <i>` once call `i` has returned. The parent SIGKILLs it after a seeded number of
//! acknowledgements plus a seeded delay, reopens the database, and compares everything
//! observable with a reference backend (the in-memory one) that replayed the acknowledged calls (or those plus the
//! one call in flight at the kill, which may have committed before its acknowledgement was
//! printed). Then it runs a few conformance-style checks on the reopened database.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, ErrorCode, MemberId, MemoryText, Settings,
    Timestamp, WorkspaceId,
};
use store_trait::{
    Backend, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery,
};

/// Test clock: 2026-01-01T00:00:00Z plus `ms`.
pub fn at(ms: i64) -> Timestamp {
    Timestamp::from_millis(1_767_225_600_000 + ms).expect("in range")
}

/// The owner `member` of `workspace`.
pub fn owner(workspace: &str, member: &str) -> Owner {
    Owner::new(
        WorkspaceId::new(workspace).expect("workspace id"),
        MemberId::new(member).expect("member id"),
    )
}

/// One remember with the usual decision: the key's next version number, superseding its current
/// version; the rate window starts `window_ms` before `created_at`, nothing is expired.
pub struct Remember<'a> {
    /// Whose memory.
    pub owner: &'a Owner,
    /// The writing credential.
    pub credential: &'a CredentialId,
    /// The namespace.
    pub namespace: &'a str,
    /// The key, for a keyed remember.
    pub key: Option<&'a str>,
    /// The new version's id.
    pub id: &'a str,
    /// The new version's `created_at`.
    pub created_at: Timestamp,
    /// How far the rate window reaches back from `created_at`.
    pub window_ms: i64,
}

impl Remember<'_> {
    /// Remembers through `backend` with [`accept`](Self::accept)'s decision.
    pub fn run<B: Backend + ?Sized>(&self, backend: &B) -> Result<AgentMemory, Error> {
        let key = self.key.map(|k| (self.namespace, k));
        let outcome = backend.remember(
            self.owner,
            self.credential,
            key,
            self.created_at.minus_millis(self.window_ms),
            Timestamp::MIN,
            &mut |state| Ok(self.accept(state)),
        )?;
        match outcome {
            RememberOutcome::Written { record, .. } => Ok(record),
            RememberOutcome::Refused(refusal) => panic!("accepting decision refused: {refusal}"),
        }
    }

    /// The write the usual decision makes from `state`.
    pub fn accept(&self, state: &RememberState) -> RememberWrite {
        RememberWrite {
            record: AgentMemory {
                id: AgentMemoryId::parse(self.id).expect("valid id"),
                workspace: self.owner.workspace.clone(),
                member: self.owner.member.clone(),
                credential: self.credential.clone(),
                namespace: self.namespace.to_owned(),
                key: self.key.map(str::to_owned),
                text: MemoryText::mask("Reply tersely").0,
                collection_id: None,
                version: if self.key.is_some() {
                    state.last_version + 1
                } else {
                    1
                },
                citations: vec![],
                created_at: self.created_at,
                superseded_at: None,
                ranking: Default::default(),
            },
            supersede_current: state.current.is_some(),
        }
    }
}

/// The state a remember would read (window from the whole past, no expiry), through a decision
/// that refuses, so nothing is written.
pub fn probe<B: Backend + ?Sized>(
    backend: &B,
    owner: &Owner,
    credential: &CredentialId,
    key: Option<(&str, &str)>,
) -> RememberState {
    let mut seen = None;
    let outcome = backend
        .remember(
            owner,
            credential,
            key,
            Timestamp::MIN,
            Timestamp::MIN,
            &mut |state| {
                seen = Some(state.clone());
                Err(ApiError::from(ErrorCode::AgentMemoryFull))
            },
        )
        .expect("probe");
    assert!(matches!(outcome, RememberOutcome::Refused(_)));
    seen.expect("decide ran")
}

/// Set in the child: `<backend>:<round>:<directory>`.
const CHILD_ENV: &str = "STORE_TRAIT_CRASH_CHILD";
/// A child stops by itself after this many calls (the parent kills it long before).
const MAX_OPS: usize = 5_000;
const KEYS: [&str; 4] = ["k0", "k1", "k2", "k3"];
const NAMESPACE: &str = "crash";

fn crash_owner() -> Owner {
    owner("ws_crash", "alice")
}

fn credential() -> CredentialId {
    CredentialId::new("cred_crash").unwrap()
}

/// splitmix64: a tiny deterministic generator, enough to pick operations and delays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Debug, Clone)]
enum Op {
    Remember {
        key: Option<usize>,
        id: String,
        ms: i64,
    },
    ForgetKey {
        key: usize,
    },
    ForgetId {
        id: String,
    },
}

fn id_of(round: u64, index: usize) -> String {
    format!("amem_r{round:03}n{index:06}")
}

/// Round `round`'s calls: remembers with and without key (keyed ones supersede), forgets by key
/// and by id of a recent call mixed in; instants increase across rounds.
fn ops(round: u64) -> impl Iterator<Item = Op> {
    let mut rng = Rng(round.wrapping_mul(0xA076_1D64_78BD_642F) ^ 0x5EED);
    (0..MAX_OPS).map(move |i| {
        let ms = (round * 1_000_000 + i as u64) as i64;
        match rng.below(10) {
            0..=4 => Op::Remember {
                key: Some(rng.below(KEYS.len() as u64) as usize),
                id: id_of(round, i),
                ms,
            },
            5..=7 => Op::Remember {
                key: None,
                id: id_of(round, i),
                ms,
            },
            8 => Op::ForgetKey {
                key: rng.below(KEYS.len() as u64) as usize,
            },
            _ => Op::ForgetId {
                id: id_of(round, i.saturating_sub(1 + rng.below(16) as usize)),
            },
        }
    })
}

fn apply<B: Backend + ?Sized>(backend: &B, op: &Op) {
    let o = crash_owner();
    let cred = credential();
    match op {
        Op::Remember { key, id, ms } => {
            Remember {
                owner: &o,
                credential: &cred,
                namespace: NAMESPACE,
                key: key.map(|k| KEYS[k]),
                id,
                created_at: at(*ms),
                window_ms: 200,
            }
            .run(backend)
            .expect("remember");
        }
        Op::ForgetKey { key } => {
            backend
                .forget_key(&o, NAMESPACE, KEYS[*key])
                .expect("forget_key");
        }
        Op::ForgetId { id } => {
            let id = AgentMemoryId::parse(id.as_str()).unwrap();
            backend.forget_id(&o, &id).expect("forget_id");
        }
    }
}

/// Everything observable of the crash owner: every version ever written (by id), each key's
/// current version and remember state, the rate window and the valid versions in scan order.
#[derive(Debug, PartialEq)]
struct Snapshot {
    by_id: Vec<Option<AgentMemory>>,
    keys: Vec<(Option<AgentMemory>, RememberState)>,
    keyless: RememberState,
    valid_now: Vec<AgentMemory>,
    stored: u64,
}

fn snapshot<B: Backend + ?Sized>(backend: &B, ids: &[AgentMemoryId]) -> Snapshot {
    let o = crash_owner();
    let cred = credential();
    Snapshot {
        by_id: ids.iter().map(|id| backend.get(&o, id).unwrap()).collect(),
        keys: KEYS
            .iter()
            .map(|k| {
                (
                    backend.current_of_key(&o, NAMESPACE, k).unwrap(),
                    probe(backend, &o, &cred, Some((NAMESPACE, k))),
                )
            })
            .collect(),
        keyless: probe(backend, &o, &cred, None),
        valid_now: backend
            .scan(
                &o,
                &ScanQuery::new(Timestamp::MAX, Timestamp::MIN, usize::MAX),
            )
            .unwrap(),
        stored: backend.stored_versions(&o, Timestamp::MIN).unwrap(),
    }
}

/// A few conformance-style checks on the reopened database, with an owner of another workspace
/// that the child never touches (left empty again afterwards).
fn still_works<B: Backend + ?Sized>(backend: &B, round: u64) {
    let o = owner("ws_check", "carol");
    let cred = credential();
    let write = |key, n: u64| {
        Remember {
            owner: &o,
            credential: &cred,
            namespace: NAMESPACE,
            key,
            id: &format!("amem_check{round:03}x{n}"),
            created_at: at((round * 1_000_000 + n) as i64),
            window_ms: 200,
        }
        .run(backend)
        .unwrap()
    };
    let v1 = write(Some("k"), 1);
    let v2 = write(Some("k"), 2);
    let note = write(None, 3);
    assert_eq!((v1.version, v2.version), (1, 2));
    assert_eq!(
        backend.current_of_key(&o, NAMESPACE, "k").unwrap(),
        Some(v2.clone())
    );
    let query = ScanQuery::new(Timestamp::MAX, Timestamp::MIN, usize::MAX);
    assert_eq!(
        backend.scan(&o, &query).unwrap(),
        [note.clone(), v2.clone()]
    );
    assert_eq!(backend.stored_versions(&o, Timestamp::MIN).unwrap(), 3);
    assert_eq!(backend.forget_key(&o, NAMESPACE, "k").unwrap().len(), 2);
    assert_eq!(backend.forget_id(&o, &note.id).unwrap(), [note]);
    assert_eq!(backend.stored_versions(&o, Timestamp::MIN).unwrap(), 0);
    // The crash owner's scan is strictly newest first.
    let all = backend.scan(&crash_owner(), &query).unwrap();
    assert!(
        all.windows(2)
            .all(|p| (p[0].created_at, &p[0].id) > (p[1].created_at, &p[1].id))
    );
}

/// What a crash test run did.
#[derive(Debug)]
pub struct CrashReport {
    /// Children killed.
    pub kills: u64,
    /// Acknowledged calls checked after the reopens.
    pub acks_checked: u64,
    /// Acknowledged calls the reopened database lost.
    pub lost: u64,
    /// Calls in flight at a kill that the reopened database holds.
    pub in_flight_committed: u64,
    /// How long the test ran.
    pub elapsed: Duration,
}

/// The crash test of one durable backend.
pub struct CrashTest<B, M> {
    /// The backend's name, the first part of the child's spec.
    pub backend: &'static str,
    /// The full name of the calling `#[test]` (the child runs only it).
    pub test_name: &'static str,
    /// Kills (rounds) to run.
    pub rounds: u64,
    /// Opens the backend on Immediate durability in the given directory, creating it when new.
    pub open: fn(&Path) -> Result<B, Error>,
    /// A fresh reference backend that replays the acknowledged calls (the in-memory one).
    pub model: fn() -> M,
}

impl<B: Backend, M: Backend> CrashTest<B, M> {
    /// Acts as the child when this process is one (and then never returns); otherwise runs the
    /// parent's rounds and reports.
    pub fn run(&self) -> CrashReport {
        if let Ok(spec) = std::env::var(CHILD_ENV) {
            self.child(&spec);
        }
        let started = Instant::now();
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng(0xC0FF_EE00);
        let model = (self.model)();
        let mut ids: Vec<AgentMemoryId> = Vec::new();
        let mut report = CrashReport {
            kills: 0,
            acks_checked: 0,
            lost: 0,
            in_flight_committed: 0,
            elapsed: Duration::ZERO,
        };

        for round in 0..self.rounds {
            // Kill after a seeded number of acknowledgements plus a seeded delay of up to 3 ms,
            // so that kills land before, inside and after commits and flushes.
            let target = 1 + rng.below(100) as usize;
            let delay = Duration::from_micros(rng.below(3_000));
            let acked = self.kill_child(dir.path(), round, target, delay);
            report.kills += 1;

            // The acknowledged calls happened; the next one may have.
            let mut round_ops = ops(round);
            for op in round_ops.by_ref().take(acked) {
                if let Op::Remember { id, .. } = &op {
                    ids.push(AgentMemoryId::parse(id.as_str()).unwrap());
                }
                apply(&model, &op);
            }
            let in_flight = round_ops.next().expect("the child stopped before MAX_OPS");
            if let Op::Remember { id, .. } = &in_flight {
                ids.push(AgentMemoryId::parse(id.as_str()).unwrap());
            }
            report.acks_checked += acked as u64;

            let backend = (self.open)(dir.path())
                .unwrap_or_else(|e| panic!("round {round}: reopen failed: {e}"));
            let got = snapshot(&backend, &ids);
            if got != snapshot(&model, &ids) {
                apply(&model, &in_flight);
                let want = snapshot(&model, &ids);
                if got != want {
                    report.lost += want
                        .by_id
                        .iter()
                        .zip(&got.by_id)
                        .filter(|(w, g)| w != g)
                        .count() as u64;
                    panic!(
                        "{}: round {round}: the reopened database matches neither the \
                         acknowledged calls nor those plus the call in flight ({} versions \
                         differ)\n got: {got:?}\nwant: {want:?}",
                        self.backend, report.lost
                    );
                }
                report.in_flight_committed += 1;
            }
            still_works(&backend, round);
        }
        report.elapsed = started.elapsed();
        report
    }

    /// Runs round `round` in a child until `target` acknowledgements and `delay` more, then
    /// SIGKILLs it; returns how many calls it acknowledged.
    fn kill_child(&self, dir: &Path, round: u64, target: usize, delay: Duration) -> usize {
        let child = Child::spawn(
            self.test_name,
            CHILD_ENV,
            format!("{}:{round}:{}", self.backend, dir.display()),
        );
        let mut acked = 0;
        let mut record = |ack: &str| {
            let i: usize = ack.parse().unwrap();
            assert_eq!(i, acked, "acknowledgements out of order");
            acked += 1;
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = 0;
        while seen < target {
            match child.next_ack(deadline) {
                Some(ack) => {
                    record(&ack);
                    seen += 1;
                }
                None => break,
            }
        }
        let killed = child.kill_after(delay);
        assert!(
            killed.killed,
            "{}: round {round}: the child ended on its own after {} acknowledgements",
            self.backend,
            seen + killed.acks.len()
        );
        for ack in &killed.acks {
            record(ack);
        }
        assert!(
            acked >= target,
            "{}: round {round}: only {acked} acknowledgements",
            self.backend
        );
        acked
    }

    /// In the child: applies round `round`'s calls to the database in the spec's directory,
    /// printing `ack <index>` once each call has returned.
    fn child(&self, spec: &str) -> ! {
        let mut parts = spec.splitn(3, ':');
        assert_eq!(
            parts.next(),
            Some(self.backend),
            "unknown crash child {spec}"
        );
        let round: u64 = parts.next().unwrap().parse().unwrap();
        let dir = Path::new(parts.next().unwrap());
        let backend = (self.open)(dir).expect("open in child");
        let mut out = std::io::stdout().lock();
        for (i, op) in ops(round).enumerate() {
            apply(&backend, &op);
            writeln!(out, "ack {i}").unwrap();
            out.flush().unwrap();
        }
        drop(backend);
        std::process::exit(0)
    }
}

/// A child process of this test binary that runs one test only, with one environment variable
/// set (what makes it the child), and whose output lines `ack <text>` are read as they come. A
/// line the kill cut (no newline) is no acknowledgement.
pub(crate) struct Child {
    process: std::process::Child,
    acks: mpsc::Receiver<String>,
    reader: std::thread::JoinHandle<()>,
}

/// What a killed child acknowledged after the last [`Child::next_ack`], and whether the kill
/// ended it (it did not end on its own first).
pub(crate) struct Killed {
    pub(crate) acks: Vec<String>,
    pub(crate) killed: bool,
}

impl Child {
    /// Starts `test_name` of this binary with `var` set to `spec`.
    pub(crate) fn spawn(test_name: &str, var: &str, spec: String) -> Child {
        let mut process = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                test_name,
                "--nocapture",
                "--test-threads=1",
                "-q",
            ])
            .env(var, spec)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = process.stdout.take().unwrap();
        let (tx, acks) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout);
            let mut line = String::new();
            while lines.read_line(&mut line).unwrap_or(0) > 0 && line.ends_with('\n') {
                if let Some(ack) = line.trim_end().strip_prefix("ack ") {
                    let _ = tx.send(ack.to_owned());
                }
                line.clear();
            }
        });
        Child {
            process,
            acks,
            reader,
        }
    }

    /// The next acknowledgement, or `None` once `deadline` passes or the child's output ends.
    pub(crate) fn next_ack(&self, deadline: Instant) -> Option<String> {
        self.acks
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok()
    }

    /// Waits `delay`, SIGKILLs the child and collects what it acknowledged meanwhile.
    pub(crate) fn kill_after(mut self, delay: Duration) -> Killed {
        std::thread::sleep(delay);
        self.process.kill().unwrap();
        let status = self.process.wait().unwrap();
        self.reader.join().unwrap();
        Killed {
            acks: self.acks.try_iter().collect(),
            killed: status.signal() == Some(9),
        }
    }
}

/// Every version valid at `valid_at`, expired ones included.
fn scan_all(valid_at: Timestamp) -> ScanQuery {
    ScanQuery::new(valid_at, Timestamp::MIN, usize::MAX)
}

/// Writes a history — supersedes, a keyless memory, a forgotten key, a purge, settings, a rate
/// window — through the backend `create` makes at a path, drops it, and checks that the backend
/// `open` makes at the same path reads all of it back alike and numbers the key's next version
/// on from it.
pub fn everything_survives_a_reopen<B: Backend>(
    file: &str,
    create: impl FnOnce(&Path) -> B,
    open: impl FnOnce(&Path) -> B,
) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    let alice = owner("ws1", "alice");
    let bob = owner("ws1", "bob");
    let cred = CredentialId::new("cred_a").unwrap();
    let settings = Settings {
        agent_memories_enabled: true,
        retention_days: 30,
    };
    let remember = |backend: &B, o: &Owner, key: Option<&str>, id: &str, ms: i64| {
        Remember {
            owner: o,
            credential: &cred,
            namespace: "prefs",
            key,
            id,
            created_at: at(ms),
            window_ms: 1_000,
        }
        .run(backend)
        .unwrap()
    };

    let (before, alice_window) = {
        let backend = create(&path);
        remember(&backend, &alice, Some("tone"), "amem_1", 10);
        remember(&backend, &alice, Some("tone"), "amem_2", 20);
        remember(&backend, &alice, Some("tone"), "amem_3", 30);
        remember(&backend, &alice, None, "amem_4", 40);
        remember(&backend, &alice, Some("gone"), "amem_5", 50);
        remember(&backend, &bob, Some("tone"), "amem_6", 60);
        remember(&backend, &alice, Some("old"), "amem_7", 5);
        assert_eq!(
            backend.forget_key(&alice, "prefs", "gone").unwrap().len(),
            1
        );
        // A purge keeps the key's numbering but leaves it without a current version.
        assert_eq!(backend.purge_expired(&alice.workspace, at(5)).unwrap(), 1);
        backend.put_settings(&alice.workspace, &settings).unwrap();
        let before = backend.scan(&alice, &scan_all(at(25))).unwrap();
        (before, probe(&backend, &alice, &cred, None).window)
    };

    let backend = open(&path);
    assert_eq!(backend.scan(&alice, &scan_all(at(25))).unwrap(), before);
    let now = backend.scan(&alice, &scan_all(at(100))).unwrap();
    let ids: Vec<&str> = now.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["amem_4", "amem_3"]);
    let v2 = backend
        .get(&alice, &AgentMemoryId::parse("amem_2").unwrap())
        .unwrap()
        .expect("superseded version kept");
    assert_eq!((v2.version, v2.superseded_at), (2, Some(at(30))));
    assert_eq!(
        backend.current_of_key(&alice, "prefs", "tone").unwrap(),
        Some(now[1].clone())
    );
    assert_eq!(
        backend.current_of_key(&alice, "prefs", "old").unwrap(),
        None
    );
    assert_eq!(backend.stored_versions(&alice, Timestamp::MIN).unwrap(), 4);
    assert_eq!(backend.stored_versions(&bob, Timestamp::MIN).unwrap(), 1);
    assert_eq!(backend.settings(&alice.workspace).unwrap(), Some(settings));
    assert_eq!(probe(&backend, &alice, &cred, None).window, alice_window);
    let tone = probe(&backend, &alice, &cred, Some(("prefs", "tone")));
    assert_eq!(tone.last_version, 3);
    assert_eq!(tone.stored_versions, 4);
    // The forgotten key starts again at 1, the purged one continues.
    assert_eq!(
        probe(&backend, &alice, &cred, Some(("prefs", "gone"))).last_version,
        0
    );
    assert_eq!(
        probe(&backend, &alice, &cred, Some(("prefs", "old"))).last_version,
        1
    );
    let v4 = remember(&backend, &alice, Some("tone"), "amem_8", 70);
    assert_eq!(v4.version, 4);
}

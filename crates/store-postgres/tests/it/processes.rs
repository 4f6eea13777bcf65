//! Limits across processes: two OS processes — this test binary re-run with a child role — each
//! with its own facade over its own `PostgresBackend` on one schema, racing at the quota edge,
//! at the rate-limit edge, on one key (its history must follow commit order), and on one
//! memory-store memory with preconditions.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_memory::{
    AgentCaller, AgentCredential, CreateMemoryRequest, CreateStoreRequest, ErrorCode, ManualClock,
    MemberCaller, MemoryIdRequest, MemoryService, MemoryStoreId, RememberRequest, SettingsPatch,
    StoreCaller, StoreMemoryId, StoreService, UpdateMemoryRequest,
};
use citation_verify::InMemoryPassageSource;
use memory_core::{
    AgentMemory, AgentMemoryId, ContextBinding, CredentialId, MemberId, MemoryText, Role, Scope,
    SeededIdGenerator, Timestamp, WorkspaceId,
};
use store_postgres::PostgresBackend;
use store_trait::{Backend, Owner, RememberOutcome, RememberWrite};

use crate::support::Schema;

const ROLE: &str = "STORE_POSTGRES_CHILD_ROLE";
const SCHEMA: &str = "STORE_POSTGRES_CHILD_SCHEMA";
const SEED: &str = "STORE_POSTGRES_CHILD_SEED";
const ARG: &str = "STORE_POSTGRES_CHILD_ARG";
/// Threads per process.
const THREADS: usize = 4;

fn now() -> Timestamp {
    Timestamp::parse("2026-01-01T00:00:00Z").unwrap()
}

fn ws() -> WorkspaceId {
    WorkspaceId::new("ws").unwrap()
}

fn alice() -> Owner {
    Owner::new(ws(), MemberId::new("alice").unwrap())
}

fn agent(credential: &str) -> AgentCaller {
    AgentCaller::Resolved(AgentCredential {
        workspace: ws(),
        workspace_retaining: true,
        member: MemberId::new("alice").unwrap(),
        credential: CredentialId::new(credential).unwrap(),
        role: Some(Role::Editor),
        active: true,
        scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
        binding: ContextBinding::Unbound,
    })
}

fn editor() -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: ws(),
        member: MemberId::new("olivia").unwrap(),
        role: Role::Editor,
    })
}

fn service(backend: Arc<PostgresBackend>, seed: u64) -> MemoryService {
    MemoryService::builder(backend, Arc::new(InMemoryPassageSource::new()))
        .clock(Arc::new(ManualClock::new(now())))
        .ids(Arc::new(SeededIdGenerator::new(seed)))
        .build()
        .unwrap()
}

fn stores(backend: Arc<PostgresBackend>, seed: u64) -> StoreService {
    StoreService::builder(backend)
        .clock(Arc::new(ManualClock::new(now())))
        .ids(Arc::new(SeededIdGenerator::new(seed)))
        .build()
}

/// Runs this test binary twice at once as `role` children on `schema`; returns the numbers each
/// printed on its `RESULT` line.
fn run_children(role: &str, schema: &Schema, arg: &str) -> Vec<Vec<usize>> {
    run_children_output(role, schema, arg)
        .iter()
        .map(|stdout| {
            // libtest may print the test's name on the same line before it.
            let line = stdout
                .lines()
                .find_map(|l| l.split_once("RESULT ").map(|(_, rest)| rest))
                .unwrap_or_else(|| panic!("no RESULT line:\n{stdout}"));
            line.split(' ')
                .take(2)
                .map(|n| n.parse().unwrap())
                .collect()
        })
        .collect()
}

/// Runs this test binary twice at once as `role` children on `schema`; returns what each
/// printed.
fn run_children_output(role: &str, schema: &Schema, arg: &str) -> Vec<String> {
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..2)
        .map(|i| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "processes::child",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(ROLE, role)
                .env(SCHEMA, &schema.name)
                .env(SEED, (100 + i).to_string())
                .env(ARG, arg)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(out.status.success(), "a child failed:\n{stdout}");
            stdout
        })
        .collect()
}

/// The child's side: does nothing unless started by [`run_children`] (ignored, so that it is
/// not counted as a passed test; the children run it with `--ignored`).
#[test]
#[ignore = "the child process of the two-process races, which start it; alone it does nothing"]
fn child() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    let schema = std::env::var(SCHEMA).unwrap();
    let seed: u64 = std::env::var(SEED).unwrap().parse().unwrap();
    let url = std::env::var(crate::support::URL_VAR).unwrap();
    let backend = Arc::new(PostgresBackend::connect_in_schema(&url, &schema, 4).unwrap());
    let accepted = AtomicUsize::new(0);
    let refused = AtomicUsize::new(0);
    match role.as_str() {
        "quota" | "rate" => {
            let service = service(backend, seed);
            let per_thread = if role == "quota" { 5 } else { 20 };
            std::thread::scope(|s| {
                for t in 0..THREADS {
                    let (service, accepted, refused, role) = (&service, &accepted, &refused, &role);
                    s.spawn(move || {
                        // Quota: a credential per thread and process, so only the quota refuses.
                        let caller = if role == "quota" {
                            agent(&format!("cred_{seed}_{t}"))
                        } else {
                            agent("cred_shared")
                        };
                        for i in 0..per_thread {
                            let request = RememberRequest::new("race", format!("note {i}"))
                                .key(format!("k{seed}_{t}"));
                            match service.remember(&caller, &request) {
                                Ok(_) => accepted.fetch_add(1, Ordering::SeqCst),
                                Err(e) => {
                                    let expected = if role == "quota" {
                                        ErrorCode::AgentMemoryFull
                                    } else {
                                        ErrorCode::AgentMemoryRateLimited
                                    };
                                    assert_eq!(e.code(), expected);
                                    refused.fetch_add(1, Ordering::SeqCst)
                                }
                            };
                        }
                    });
                }
            });
        }
        "store" => {
            let service = stores(backend, seed);
            let (store, memory) = std::env::var(ARG)
                .unwrap()
                .split_once(' ')
                .map(|(a, b)| {
                    (
                        MemoryStoreId::parse(a).unwrap(),
                        StoreMemoryId::parse(b).unwrap(),
                    )
                })
                .unwrap();
            std::thread::scope(|s| {
                for t in 0..THREADS {
                    let (service, accepted, refused, store, memory) =
                        (&service, &accepted, &refused, &store, &memory);
                    s.spawn(move || {
                        let mut done = 0;
                        while done < 10 {
                            let ids = MemoryIdRequest::new(store.clone(), memory.clone());
                            let current = service.memories_get(&editor(), &ids).unwrap();
                            let n: usize =
                                current.content.split(' ').next().unwrap().parse().unwrap();
                            // A writer-unique suffix: equal content would be a no-op, which
                            // succeeds whatever the precondition says.
                            let request = UpdateMemoryRequest::new(store.clone(), memory.clone())
                                .content(format!("{} by {seed}/{t}/{done}", n + 1))
                                .if_content_sha256(current.content_sha256);
                            match service.memories_update(&editor(), &request) {
                                Ok(_) => {
                                    done += 1;
                                    accepted.fetch_add(1, Ordering::SeqCst);
                                }
                                Err(e) => {
                                    assert_eq!(e.code(), ErrorCode::MemoryPreconditionFailed);
                                    refused.fetch_add(1, Ordering::SeqCst);
                                }
                            }
                        }
                    });
                }
            });
        }
        "history" => {
            // Every remember of one key, from a clock that stands still: the instants must still
            // follow commit order across both processes.
            let service = service(backend, seed);
            std::thread::scope(|s| {
                for t in 0..THREADS {
                    let (service, accepted) = (&service, &accepted);
                    s.spawn(move || {
                        let caller = agent(&format!("cred_{seed}_{t}"));
                        for i in 0..10 {
                            let request =
                                RememberRequest::new("race", format!("note {seed}/{t}/{i}"))
                                    .key("tone");
                            let answer = service.remember(&caller, &request).unwrap();
                            accepted.fetch_add(1, Ordering::SeqCst);
                            println!(
                                "ACK {} {}",
                                answer.memory.id.as_str(),
                                answer.memory.created_at.as_millis()
                            );
                        }
                    });
                }
            });
        }
        other => panic!("unknown child role {other}"),
    }
    println!(
        "RESULT {} {}",
        accepted.load(Ordering::SeqCst),
        refused.load(Ordering::SeqCst)
    );
}

/// A schema with agent memories enabled for `ws`.
fn enabled_schema() -> (Schema, Arc<PostgresBackend>) {
    let schema = Schema::fresh();
    let backend = Arc::new(schema.backend(4));
    service(backend.clone(), 1)
        .settings_put(
            &MemberCaller {
                workspace: ws(),
                member: MemberId::new("olivia").unwrap(),
                role: Role::Owner,
            },
            &SettingsPatch::default().agent_memories_enabled(true),
        )
        .unwrap();
    (schema, backend)
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn two_processes_at_the_quota_edge_never_store_a_5001st_version() {
    let (schema, backend) = enabled_schema();
    // 4,990 versions straight through the backend (the rate limit would make this take days).
    let loader = CredentialId::new("loader").unwrap();
    let ids = SeededIdGenerator::new(99);
    for _ in 0..4_990 {
        let record = AgentMemory {
            id: AgentMemoryId::generate(&ids, now()).unwrap(),
            workspace: ws(),
            member: alice().member,
            credential: loader.clone(),
            namespace: "bulk".into(),
            key: None,
            text: MemoryText::mask("a preloaded note").0,
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: now(),
            superseded_at: None,
            ranking: Default::default(),
        };
        let outcome = backend
            .remember(
                &alice(),
                &loader,
                None,
                now().minus_seconds(3600),
                now().minus_days(90),
                &mut |_| {
                    Ok(RememberWrite {
                        record: record.clone(),
                        supersede_current: false,
                    })
                },
            )
            .unwrap();
        assert!(matches!(outcome, RememberOutcome::Written { .. }));
    }
    let results = run_children("quota", &schema, "");
    let accepted: usize = results.iter().map(|r| r[0]).sum();
    let refused: usize = results.iter().map(|r| r[1]).sum();
    assert_eq!(
        accepted, 10,
        "exactly the 10 free places were taken: {results:?}"
    );
    assert_eq!(refused, 2 * THREADS * 5 - 10);
    assert_eq!(
        backend
            .stored_versions(&alice(), now().minus_days(90))
            .unwrap(),
        5_000
    );
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn two_processes_on_one_credential_never_get_a_121st_remember_in_the_hour() {
    let (schema, backend) = enabled_schema();
    let results = run_children("rate", &schema, "");
    let accepted: usize = results.iter().map(|r| r[0]).sum();
    let refused: usize = results.iter().map(|r| r[1]).sum();
    assert_eq!(accepted, 120, "{results:?}");
    assert_eq!(refused, 2 * THREADS * 20 - 120);
    assert_eq!(
        backend
            .stored_versions(&alice(), now().minus_days(90))
            .unwrap(),
        120
    );
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn two_processes_updating_one_store_memory_with_preconditions_lose_no_update() {
    let schema = Schema::fresh();
    let backend = Arc::new(schema.backend(4));
    let service = stores(backend, 1);
    let store = service
        .stores_create(&editor(), &CreateStoreRequest::new("Counters"))
        .unwrap();
    let memory = service
        .memories_create(
            &editor(),
            &CreateMemoryRequest::new(store.id.clone(), "/counter", "0"),
        )
        .unwrap();
    let results = run_children(
        "store",
        &schema,
        &format!("{} {}", store.id.as_str(), memory.id.as_str()),
    );
    let accepted: usize = results.iter().map(|r| r[0]).sum();
    assert_eq!(accepted, 2 * THREADS * 10);
    let last = service
        .memories_get(
            &editor(),
            &MemoryIdRequest::new(store.id.clone(), memory.id.clone()),
        )
        .unwrap();
    assert_eq!(
        last.content.split(' ').next().unwrap(),
        accepted.to_string(),
        "every accepted update built on the one before it"
    );
}

#[test]
#[ignore = "needs PostgreSQL: AGENT_MEMORY_TEST_DATABASE_URL naming a database (`source .ci/postgres.sh` starts one)"]
fn two_processes_remembering_one_key_write_its_history_in_commit_order() {
    let (schema, backend) = enabled_schema();
    let outputs = run_children_output("history", &schema, "");
    let mut acknowledged = Vec::new();
    for stdout in &outputs {
        // libtest may print the test's name on the same line before it.
        for ack in stdout
            .lines()
            .filter_map(|l| l.split_once("ACK ").map(|(_, a)| a))
        {
            let (id, millis) = ack.split_once(' ').unwrap();
            let id = AgentMemoryId::parse(id).unwrap();
            let mut stored = backend.get(&alice(), &id).unwrap().expect("acknowledged");
            // As acknowledged: the instant the child was answered with.
            stored.created_at = Timestamp::from_millis(millis.trim().parse().unwrap()).unwrap();
            acknowledged.push(stored);
        }
    }
    assert_eq!(acknowledged.len(), 2 * THREADS * 10, "{outputs:?}");
    store_conformance::assert_key_history(
        backend.as_ref(),
        &alice(),
        "race",
        "tone",
        &acknowledged,
    );
}

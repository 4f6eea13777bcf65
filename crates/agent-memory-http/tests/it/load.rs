//! A bounded load test: 8 clients, each sending a fixed number of requests that alternate
//! remember and recall over loopback HTTP, then the same calls on the JSON edge in process. It
//! asserts only that every answer is a 200 and prints throughput and p50/p99 latency per
//! operation for both (run with `--nocapture`; `AGENT_MEMORY_HTTP_LOAD_REQUESTS` sets the
//! requests per client, for example 2000 in a release build).
//!
//! The rate limit (remembers per credential and hour) and the quota (versions per member) stay
//! as the spec sets them: each client is its own member with enough credentials that none
//! reaches the limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use agent_memory::backends::InMemoryBackend;
use agent_memory::json::{Caller, JsonApi, Operation};
use agent_memory::{
    AgentCaller, AgentCredential, ContextBinding, CredentialId, InMemoryPassageSource, MemberId,
    MemoryService, Role, Scope,
};
use agent_memory_http::StaticTokens;
use governance_policy::limits::{QUOTA_VERSIONS, RATE_LIMIT_PER_HOUR};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{OWNER, Server, member, ws};

const CLIENTS: usize = 8;
/// Requests per client unless `AGENT_MEMORY_HTTP_LOAD_REQUESTS` says otherwise: small, so that
/// the debug test suite stays fast.
const DEFAULT_REQUESTS: usize = 150;
/// The whole test (both transports) ends within this, or fails.
const DEADLINE: Duration = Duration::from_secs(600);

const REMEMBER: &str = "/api/agent/v1/memories/remember";
const RECALL: &str = "/api/agent/v1/memories/recall";

fn requests_per_client() -> usize {
    match std::env::var("AGENT_MEMORY_HTTP_LOAD_REQUESTS") {
        Ok(n) => n
            .parse()
            .expect("AGENT_MEMORY_HTTP_LOAD_REQUESTS is a number of requests"),
        Err(_) => DEFAULT_REQUESTS,
    }
}

/// Request `i` of a client: even ones remember, odd ones recall.
fn is_remember(i: usize) -> bool {
    i.is_multiple_of(2)
}

fn body(client: usize, i: usize) -> Value {
    const TOPICS: &[&str] = &["launch", "renewal", "pricing", "onboarding", "roadmap"];
    let topic = TOPICS[i / 2 % TOPICS.len()];
    if is_remember(i) {
        json!({"namespace": "load", "text": format!("client {client} note {i} about the {topic} plan")})
    } else {
        json!({"query": format!("{topic} plan")})
    }
}

/// The credential a client's request `i` uses: remembers move to the next credential before
/// one reaches the rate limit.
fn credential(i: usize) -> usize {
    (i / 2) / RATE_LIMIT_PER_HOUR
}

fn credentials_per_client(requests: usize) -> usize {
    credential(requests.saturating_sub(1)) + 1
}

fn token(client: usize, credential: usize) -> String {
    format!("load-{client}-{credential}")
}

fn caller(client: usize, credential: usize) -> AgentCaller {
    AgentCaller::Resolved(AgentCredential {
        workspace: ws("ws"),
        workspace_retaining: true,
        member: MemberId::new(format!("member-{client}")).unwrap(),
        credential: CredentialId::new(format!("cred-{client}-{credential}")).unwrap(),
        role: Some(Role::Editor),
        active: true,
        scopes: Scope::ALL.to_vec(),
        binding: ContextBinding::Unbound,
    })
}

/// Latencies of one operation, and what they add up to.
#[derive(Default)]
struct Latencies(Vec<Duration>);

impl Latencies {
    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.0.clone();
        sorted.sort_unstable();
        let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
        sorted[rank.clamp(1, sorted.len()) - 1]
    }
}

/// One transport's figures: the wall time of the whole run and each operation's latencies.
struct Run {
    wall: Duration,
    remember: Latencies,
    recall: Latencies,
}

impl Run {
    fn new(wall: Duration, per_client: Vec<Vec<(bool, Duration)>>) -> Run {
        let mut run = Run {
            wall,
            remember: Latencies::default(),
            recall: Latencies::default(),
        };
        for (remembered, took) in per_client.into_iter().flatten() {
            let op = if remembered {
                &mut run.remember
            } else {
                &mut run.recall
            };
            op.0.push(took);
        }
        run
    }

    fn report(&self, name: &str) {
        let total = self.remember.0.len() + self.recall.0.len();
        let secs = self.wall.as_secs_f64();
        println!(
            "load {name:<10} {total} requests in {secs:.2} s: {:.0} req/s",
            total as f64 / secs
        );
        for (op, latencies) in [("remember", &self.remember), ("recall", &self.recall)] {
            println!(
                "load {name:<10}   {op:<8} {:>6} × {:.0} req/s  p50 {:>9.1?}  p99 {:>9.1?}",
                latencies.0.len(),
                latencies.0.len() as f64 / secs,
                latencies.percentile(50.0),
                latencies.percentile(99.0),
            );
        }
    }
}

async fn over_http(requests: usize) -> Run {
    let credentials = credentials_per_client(requests);
    let mut tokens = StaticTokens::new().member(OWNER, member("ws", "olivia", Role::Owner));
    for client in 0..CLIENTS {
        for c in 0..credentials {
            tokens = tokens.agent(&token(client, c), caller(client, c));
        }
    }
    let server = Arc::new(Server::start_with(tokens).await);
    server.enable().await;
    let started = Instant::now();
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let server = server.clone();
        clients.push(tokio::spawn(async move {
            // A connection pool per client, as separate processes would have.
            let http = reqwest::Client::new();
            let mut took = Vec::with_capacity(requests);
            for i in 0..requests {
                let path = if is_remember(i) { REMEMBER } else { RECALL };
                let sent = Instant::now();
                let response = http
                    .post(server.url(path))
                    .bearer_auth(token(client, credential(i)))
                    .json(&body(client, i))
                    .send()
                    .await
                    .unwrap();
                let status = response.status();
                let answer = response.bytes().await.unwrap();
                took.push((is_remember(i), sent.elapsed()));
                assert_eq!(
                    status,
                    StatusCode::OK,
                    "client {client} request {i}: {}",
                    String::from_utf8_lossy(&answer)
                );
            }
            took
        }));
    }
    let mut per_client = Vec::new();
    for client in clients {
        per_client.push(client.await.unwrap());
    }
    let run = Run::new(started.elapsed(), per_client);
    Arc::into_inner(server)
        .expect("every client is done")
        .stop()
        .await;
    run
}

/// The same calls on the JSON edge, the entry point every route calls, from 8 threads.
fn in_process(requests: usize) -> Run {
    let memories = MemoryService::builder(
        Arc::new(InMemoryBackend::new()),
        Arc::new(InMemoryPassageSource::new()),
    )
    .build()
    .unwrap();
    let api = JsonApi::new(&memories);
    let owner = member("ws", "olivia", Role::Owner);
    let enabled = api.answer(
        Operation::SettingsPut,
        Caller::Member(&owner),
        &json!({"agentMemoriesEnabled": true}),
    );
    assert_eq!(enabled.status, 200, "{}", enabled.body);
    let credentials = credentials_per_client(requests);
    let started = Instant::now();
    let per_client = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let callers: Vec<AgentCaller> =
                    (0..credentials).map(|c| caller(client, c)).collect();
                scope.spawn(move || {
                    let mut took = Vec::with_capacity(requests);
                    for i in 0..requests {
                        let op = if is_remember(i) {
                            Operation::Remember
                        } else {
                            Operation::Recall
                        };
                        let caller = &callers[credential(i)];
                        let sent = Instant::now();
                        let answer = api.answer(op, Caller::Agent(caller), &body(client, i));
                        took.push((is_remember(i), sent.elapsed()));
                        assert_eq!(answer.status, 200, "client {client} request {i}");
                    }
                    took
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .collect::<Vec<_>>()
    });
    Run::new(started.elapsed(), per_client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_clients_remember_and_recall_over_http_beside_the_facade_in_process() {
    let requests = requests_per_client();
    let remembers = requests.div_ceil(2);
    assert!(
        remembers as u64 <= QUOTA_VERSIONS,
        "{requests} requests per client would pass a member's quota of versions"
    );
    let finished = tokio::time::timeout(DEADLINE, async {
        let http = over_http(requests).await;
        let direct = tokio::task::spawn_blocking(move || in_process(requests))
            .await
            .unwrap();
        (http, direct)
    })
    .await;
    let (http, direct) = finished.unwrap_or_else(|_| {
        panic!("{CLIENTS} × {requests} requests did not finish within {DEADLINE:?}")
    });
    println!(
        "load: {CLIENTS} clients × {requests} requests, remember and recall alternating, \
         {} credentials per client",
        credentials_per_client(requests)
    );
    http.report("HTTP");
    direct.report("in process");
    assert_eq!(http.remember.0.len(), CLIENTS * remembers);
    assert_eq!(direct.recall.0.len(), CLIENTS * (requests - remembers));
}

//! Replay over real HTTP (tests only): every operation of a scenario that has a REST route (the
//! agent, settings and member operations, memory stores, versions and sessions) goes through
//! `agent_memory_http`'s router on a loopback port instead of the JSON edge in process, over the
//! same services, so that the router must answer every scenario line exactly as the facade does.
//! The agent file interface and the memory tool have no route and stay in process.
//!
//! The runner still decides who calls (the world resolves the credential, member or API key as
//! it does in process); the router learns it through [`ReplayCallers`], a table the transport fills with
//! a fresh bearer token per request. An unresolved credential is registered as such, so the
//! facade itself writes its 401 body, not the router.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use agent_memory::json::{Caller, Operation};
use agent_memory::{
    AgentCaller, MemberCaller, MemoryService, StoreCaller, StoreService, WorkspaceId,
};
use agent_memory_http::routes::{Input, path_parameters};
use agent_memory_http::{Api, Authenticator, CallerKind, ROUTES, bearer_token};
use axum::http::request::Parts;
use memory_core::{ApiError, ErrorCode};
use serde_json::Value;

/// Who a bearer token stands for during one request.
#[derive(Clone)]
enum Identity {
    Agent(AgentCaller),
    Member(MemberCaller),
    Store(StoreCaller),
}

/// The router's [`Authenticator`]: the callers the runner registered, by token.
#[derive(Clone, Default)]
struct ReplayCallers {
    table: Arc<Mutex<HashMap<String, Identity>>>,
}

impl ReplayCallers {
    fn lookup(&self, request: &Parts) -> Option<Identity> {
        let token = bearer_token(request)?;
        let table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        table.get(token).cloned()
    }

    fn insert(&self, token: String, identity: Identity) {
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        table.insert(token, identity);
    }

    fn remove(&self, token: &str) {
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        table.remove(token);
    }
}

impl Authenticator for ReplayCallers {
    fn agent(&self, request: &Parts) -> impl Future<Output = Option<AgentCaller>> + Send {
        let found = match self.lookup(request) {
            Some(Identity::Agent(caller)) => Some(caller),
            _ => None,
        };
        async { found }
    }

    fn member(
        &self,
        request: &Parts,
        workspace: &WorkspaceId,
    ) -> impl Future<Output = Option<MemberCaller>> + Send {
        let found = match self.lookup(request) {
            Some(Identity::Member(member)) if member.workspace == *workspace => Some(member),
            _ => None,
        };
        async { found }
    }

    fn store(&self, request: &Parts) -> impl Future<Output = Option<StoreCaller>> + Send {
        let found = match self.lookup(request) {
            Some(Identity::Store(caller)) => Some(caller),
            _ => None,
        };
        async { found }
    }
}

/// A router on `127.0.0.1:0` over the replay's services, and the client that calls it; both run
/// on a runtime of their own, which the synchronous runner blocks on per request.
pub(super) struct HttpTransport {
    runtime: tokio::runtime::Runtime,
    base: String,
    client: reqwest::Client,
    callers: ReplayCallers,
    next_token: AtomicU64,
    /// How many requests each operation sent over HTTP.
    served: Mutex<BTreeMap<&'static str, usize>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl HttpTransport {
    /// Serves `memories` and `stores` on a loopback port.
    pub(super) fn start(memories: Arc<MemoryService>, stores: Arc<StoreService>) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime for the replay's HTTP server");
        let callers = ReplayCallers::default();
        let router = Api::new(memories, callers.clone())
            .with_stores(stores)
            .router();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a loopback port");
        let base = format!("http://{}", listener.local_addr().expect("a bound address"));
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        runtime.spawn(async move {
            let served = axum::serve(listener, router).with_graceful_shutdown(async {
                let _ = stop.await;
            });
            served.await.expect("the replay's HTTP server runs");
        });
        HttpTransport {
            runtime,
            base,
            client: reqwest::Client::new(),
            callers,
            next_token: AtomicU64::new(0),
            served: Mutex::default(),
            shutdown: Some(shutdown),
        }
    }

    /// How many requests each operation sent over HTTP so far.
    pub(super) fn served(&self) -> BTreeMap<&'static str, usize> {
        self.served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `operation` over HTTP, or `None` when it has no route or its body cannot travel as the
    /// route's path and input (a query string carries strings, and the integers and booleans of
    /// the parameters the router reads as such).
    pub(super) fn call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Option<Result<Value, ApiError>> {
        let route = ROUTES.iter().find(|r| r.operation == operation)?;
        let (identity, workspace) = match (route.caller, caller) {
            (CallerKind::Agent, Caller::Agent(c)) => (Identity::Agent(c.clone()), None),
            (CallerKind::Member, Caller::Member(c)) => {
                (Identity::Member(c.clone()), Some(c.workspace.clone()))
            }
            (CallerKind::Store, Caller::Store(c)) => (Identity::Store(c.clone()), None),
            _ => return None,
        };
        let mut path = match &workspace {
            Some(ws) => route.path.replace("{ws_id}", &percent_encode(ws.as_str())),
            None => route.path.to_owned(),
        };
        // The other path parameters are the body's fields of the same name (the router puts
        // them back); a body without one, or with one that is not a segment, stays in process.
        let params: Vec<&str> = path_parameters(route.path)
            .filter(|p| *p != "ws_id")
            .collect();
        let mut rest = body.clone();
        for param in &params {
            let value = body.get(param)?.as_str().filter(|v| !v.is_empty())?;
            path = path.replace(&format!("{{{param}}}"), &percent_encode(value));
            if let Value::Object(fields) = &mut rest {
                fields.remove(*param);
            }
        }
        let query = match route.input {
            Input::Query => Some(query_pairs(&rest)?),
            Input::Body => None,
            // The path says everything: a body with more than the path would be refused in
            // process and cannot travel (member and owner routes without parameters ignore it).
            Input::None if !params.is_empty() && rest.as_object().is_none_or(|f| !f.is_empty()) => {
                return None;
            }
            Input::None => None,
        };
        let n = self.next_token.fetch_add(1, Ordering::Relaxed);
        let token = format!("replay-{n}");
        self.callers.insert(token.clone(), identity);
        let mut request = self
            .client
            .request(route.method.method(), format!("{}{path}", self.base))
            .bearer_auth(&token);
        if let Some(pairs) = &query {
            request = request.query(pairs);
        }
        if route.input == Input::Body {
            request = request
                .header("content-type", "application/json")
                .body(serde_json::to_vec(body).expect("a JSON value serializes"));
        }
        let answered = self.runtime.block_on(async {
            let response = request.send().await?;
            let status = response.status().as_u16();
            let bytes = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, bytes))
        });
        self.callers.remove(&token);
        *self
            .served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(operation.name())
            .or_default() += 1;
        Some(match answered {
            Ok((status, bytes)) => from_http(status, &bytes),
            Err(_) => Err(mismatch("the HTTP request failed")),
        })
    }
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// An answer no in-process call gives, so that the scenario comparison shows the line.
fn mismatch(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::InternalError, message)
}

/// The router's answer as the JSON edge's result: `200` and the body, or the error body, whose
/// status must be its code's.
fn from_http(status: u16, bytes: &[u8]) -> Result<Value, ApiError> {
    let Ok(body) = serde_json::from_slice::<Value>(bytes) else {
        return Err(mismatch("the HTTP answer is not JSON"));
    };
    if status == 200 {
        return Ok(body);
    }
    match serde_json::from_value::<ApiError>(body) {
        Ok(err) if err.http_status() == status => Err(err),
        Ok(_) => Err(mismatch("the HTTP status is not the error code's")),
        Err(_) => Err(mismatch("the HTTP answer is not the facade's error body")),
    }
}

/// The body as query parameters, if every field survives the trip: the router reads `limit` as
/// an integer and `include_archived` as a boolean when they parse as such, every other
/// parameter as a string.
fn query_pairs(body: &Value) -> Option<Vec<(String, String)>> {
    let object = body.as_object()?;
    let mut pairs = Vec::with_capacity(object.len());
    for (name, value) in object {
        let raw = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return None,
        };
        let read = match name.as_str() {
            "limit" => raw
                .parse::<u64>()
                .map_or_else(|_| raw.clone().into(), Value::from),
            "include_archived" if raw == "true" || raw == "false" => Value::Bool(raw == "true"),
            _ => Value::from(raw.clone()),
        };
        if read != *value {
            return None;
        }
        pairs.push((name.clone(), raw));
    }
    Some(pairs)
}

/// `segment` with every byte outside RFC 3986's unreserved set percent-encoded.
fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use agent_memory::HashingEmbedder;
    use store_kv::InMemoryBackend;

    use super::*;
    use crate::replay::Replay;

    fn scenarios() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("the scenario folder exists")
            .map(|entry| entry.expect("a readable entry").path())
            .filter(|p| {
                let name = p.to_string_lossy();
                name.ends_with(".jsonl") && !name.ends_with(".expected.jsonl")
            })
            .collect();
        found.sort();
        found
    }

    /// The scenario's output, and what went over HTTP (nothing in process).
    fn replay(input: &[u8], over_http: bool) -> (String, BTreeMap<&'static str, usize>) {
        let mut replay = Replay::new(
            Arc::new(InMemoryBackend::new()),
            Arc::new(HashingEmbedder::new()),
            Default::default(),
        )
        .unwrap();
        if over_http {
            replay.serve_over_http();
        }
        let mut out = Vec::new();
        replay.run(input, &mut out).unwrap();
        let served = replay.served_over_http();
        (String::from_utf8(out).unwrap(), served)
    }

    #[test]
    fn every_scenario_answers_byte_for_byte_the_same_over_http() {
        let scenarios = scenarios();
        assert!(scenarios.len() >= 10, "the scenario set is present");
        let mut failures = Vec::new();
        let mut served: BTreeMap<&'static str, usize> = BTreeMap::new();
        for path in &scenarios {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let input = std::fs::read(path).unwrap();
            let (direct, none) = replay(&input, false);
            assert!(none.is_empty());
            let (http, by_op) = replay(&input, true);
            for (op, n) in by_op {
                *served.entry(op).or_default() += n;
            }
            let (direct, http): (Vec<&str>, Vec<&str>) =
                (direct.lines().collect(), http.lines().collect());
            assert_eq!(direct.len(), http.len(), "{name}: one line per input line");
            for (i, (d, h)) in direct.iter().zip(&http).enumerate() {
                if d != h {
                    failures.push(format!(
                        "{name} answer {}:\n  in process: {d}\n  over HTTP:  {h}",
                        i + 1
                    ));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} answers differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
        let total: usize = served.values().sum();
        println!("over HTTP: {total} requests, by operation {served:?}");
        // Every route's operation went over HTTP in some scenario.
        let routed: Vec<&str> = ROUTES.iter().map(|r| r.operation.name()).collect();
        for op in routed {
            assert!(
                served.get(op).is_some_and(|n| *n > 0),
                "{op} never went over HTTP: {served:?}"
            );
        }
    }

    #[test]
    fn query_bodies_travel_only_when_the_router_reads_them_back() {
        let pairs = query_pairs(&serde_json::json!({"limit": 2, "cursor": "a b&c"})).unwrap();
        assert_eq!(
            pairs,
            vec![
                ("limit".to_owned(), "2".to_owned()),
                ("cursor".to_owned(), "a b&c".to_owned())
            ]
        );
        // A string limit would come back as an integer; a float, an array, a null cannot travel.
        for body in [
            serde_json::json!({"limit": "2"}),
            serde_json::json!({"limit": 2.5}),
            serde_json::json!({"cursor": ["x"]}),
            serde_json::json!({"cursor": null}),
            serde_json::json!([1]),
        ] {
            assert!(query_pairs(&body).is_none(), "{body}");
        }
        assert_eq!(percent_encode("ws-1_a.b~"), "ws-1_a.b~");
        assert_eq!(percent_encode("a/b c"), "a%2Fb%20c");
    }
}

//! `agent-memory serve` against clients that misbehave: idle connections, browsers from other
//! origins, too many MCP sessions; its open-file limit, health routes and request logs.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::run_cli;

struct Served {
    child: Child,
    base: String,
    addr: String,
    stderr: std::path::PathBuf,
}

impl Served {
    /// `init` then `serve --listen 127.0.0.1:0 EXTRA…` on `dir/home` (through `sh -c` with
    /// `shell_prefix` before the command), stderr to `dir/serve.err`.
    fn start(
        dir: &std::path::Path,
        extra: &[&str],
        env: &[(&str, &str)],
        shell_prefix: &str,
    ) -> Self {
        let home = dir.join("home");
        let home = home.to_str().unwrap();
        let (status, _, err) = run_cli(&["--home", home, "init"], "");
        assert_eq!(status, 0, "{err}");
        let stderr = dir.join("serve.err");
        let mut command = format!(
            "{shell_prefix} exec '{}' --home '{home}' serve --listen 127.0.0.1:0",
            env!("CARGO_BIN_EXE_agent-memory")
        );
        for arg in extra {
            command.push_str(&format!(" '{arg}'"));
        }
        let mut child = Command::new("sh");
        child
            .args(["-c", &command])
            .env_remove("AGENT_MEMORY_HOME")
            .env_remove("AGENT_MEMORY_EMBEDDER")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap());
        for (name, value) in env {
            child.env(name, value);
        }
        let mut child = child.spawn().expect("serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let base = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line: {first:?}"))
            .to_owned();
        let addr = base.strip_prefix("http://").unwrap().to_owned();
        Served {
            child,
            base,
            addr,
            stderr,
        }
    }

    fn token(&self, dir: &std::path::Path, kind: &str) -> String {
        let home = dir.join("home");
        let (status, out, err) = run_cli(&["--home", home.to_str().unwrap(), "token", kind], "");
        assert_eq!(status, 0, "{err}");
        out.trim().to_owned()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// An HTTP request with a 10 s timeout; (status, headers, body as JSON or null).
fn request(
    runtime: &tokio::runtime::Runtime,
    method: reqwest::Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, reqwest::header::HeaderMap, Value) {
    runtime.block_on(async {
        let mut request = reqwest::Client::new()
            .request(method, url)
            .timeout(Duration::from_secs(10));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("an answer in time");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        (
            status,
            headers,
            serde_json::from_str(&text).unwrap_or(Value::Null),
        )
    })
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "limits-test", "version": "1"}}})
}

const MCP_ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

#[test]
fn idle_connections_cannot_starve_serve_and_are_closed_when_idle() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(
        dir.path(),
        &["--max-connections", "100", "--idle-timeout", "2"],
        &[],
        "",
    );
    let token = served.token(dir.path(), "agent");
    // 300 connections that never send a byte, three times the cap.
    let idle: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&served.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let runtime = runtime();
    let started = Instant::now();
    let auth = format!("Bearer {token}");
    let (status, _, body) = request(
        &runtime,
        reqwest::Method::POST,
        &format!("{}/api/agent/v1/memories/list", served.base),
        &[("authorization", &auth)],
        Some(json!({})),
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "a legitimate request took {:?}",
        started.elapsed()
    );
    // After the idle timeout every idle connection has been closed by the server.
    std::thread::sleep(Duration::from_secs(4));
    let mut open = 0;
    for mut stream in idle {
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut byte = [0u8; 1];
        match stream.read(&mut byte) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            _ => open += 1,
        }
    }
    assert_eq!(
        open, 0,
        "idle connections still open after the idle timeout"
    );
}

#[test]
fn a_request_head_that_never_ends_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &["--header-timeout", "1"], &[], "");
    let mut slow = TcpStream::connect(&served.addr).unwrap();
    std::io::Write::write_all(&mut slow, b"GET /healthz HTTP/1.1\r\nHost: x\r\n").unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the connection stayed open {:?}",
        started.elapsed()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn serve_raises_its_soft_open_file_limit_to_the_hard_one() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &[], &[], "ulimit -Sn 256 &&");
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", served.child.id())).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let numbers: Vec<&str> = line.split_whitespace().skip(3).take(2).collect();
    assert_eq!(numbers[0], numbers[1], "soft and hard: {line}");
}

#[test]
fn mcp_refuses_foreign_and_null_origins_and_accepts_its_own_and_allowed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(
        dir.path(),
        &["--allowed-origin", "https://app.example"],
        &[],
        "",
    );
    let token = served.token(dir.path(), "agent");
    let auth = format!("Bearer {token}");
    let runtime = runtime();
    let url = format!("{}/mcp", served.base);
    let own = served.base.clone();
    let post = |origin: Option<&str>| {
        let mut headers = vec![("authorization", auth.as_str()), MCP_ACCEPT];
        if let Some(origin) = origin {
            headers.push(("origin", origin));
        }
        request(
            &runtime,
            reqwest::Method::POST,
            &url,
            &headers,
            Some(initialize()),
        )
    };
    for origin in [
        "http://evil.example",
        "null",
        "https://app.example:8443",
        "garbage",
    ] {
        let (status, _, body) = post(Some(origin));
        assert_eq!(status, 403, "{origin}: {body}");
        assert_eq!(body["error"]["code"], "ORIGIN_NOT_ALLOWED", "{origin}");
    }
    // Refused before the credential is even looked at.
    let (status, _, body) = request(
        &runtime,
        reqwest::Method::POST,
        &url,
        &[("origin", "http://evil.example"), MCP_ACCEPT],
        Some(initialize()),
    );
    assert_eq!(
        (status, &body["error"]["code"]),
        (403, &json!("ORIGIN_NOT_ALLOWED"))
    );
    for origin in [None, Some(own.as_str()), Some("https://app.example")] {
        let (status, headers, _) = post(origin);
        assert_eq!(status, 200, "{origin:?}");
        assert!(headers.contains_key("mcp-session-id"), "{origin:?}");
    }
}

#[test]
fn live_mcp_sessions_are_capped_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &["--max-mcp-sessions", "3"], &[], "");
    let token = served.token(dir.path(), "agent");
    let auth = format!("Bearer {token}");
    let runtime = runtime();
    let url = format!("{}/mcp", served.base);
    let mut sessions = Vec::new();
    for _ in 0..3 {
        let (status, headers, _) = request(
            &runtime,
            reqwest::Method::POST,
            &url,
            &[("authorization", &auth), MCP_ACCEPT],
            Some(initialize()),
        );
        assert_eq!(status, 200);
        sessions.push(headers["mcp-session-id"].to_str().unwrap().to_owned());
    }
    let (status, _, body) = request(
        &runtime,
        reqwest::Method::POST,
        &url,
        &[("authorization", &auth), MCP_ACCEPT],
        Some(initialize()),
    );
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "MCP_SESSIONS_EXHAUSTED");
    // Ending one makes room.
    let (status, _, _) = request(
        &runtime,
        reqwest::Method::DELETE,
        &url,
        &[("authorization", &auth), ("mcp-session-id", &sessions[0])],
        None,
    );
    assert!(status < 300, "{status}");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _, body) = request(
            &runtime,
            reqwest::Method::POST,
            &url,
            &[("authorization", &auth), MCP_ACCEPT],
            Some(initialize()),
        );
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "{status} {body}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn health_and_readiness_answer_without_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &[], &[], "");
    let runtime = runtime();
    for (path, status) in [("/healthz", "ok"), ("/readyz", "ready")] {
        let (code, _, body) = request(
            &runtime,
            reqwest::Method::GET,
            &format!("{}{path}", served.base),
            &[],
            None,
        );
        assert_eq!(code, 200, "{path}: {body}");
        assert_eq!(body, json!({"status": status}), "{path}");
    }
}

#[test]
fn request_logs_name_the_route_template_status_latency_and_caller_kind_only() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &[], &[("RUST_LOG", "info")], "");
    let agent = served.token(dir.path(), "agent");
    let owner = served.token(dir.path(), "owner");
    let runtime = runtime();
    let content = "the launch code word is periwinkle-4417";
    let (status, _, body) = request(
        &runtime,
        reqwest::Method::POST,
        &format!("{}/api/agent/v1/memories/remember", served.base),
        &[("authorization", &format!("Bearer {agent}"))],
        Some(json!({"namespace": "notes", "text": content, "key": "launch-key"})),
    );
    assert_eq!(status, 200, "{body}");
    let memory = body["memory"]["id"].as_str().unwrap().to_owned();
    let (status, _, body) = request(
        &runtime,
        reqwest::Method::POST,
        &format!("{}/v1/memory_stores", served.base),
        &[("authorization", &format!("Bearer {owner}"))],
        Some(json!({"name": "Secret Store Name"})),
    );
    assert_eq!(status, 200, "{body}");
    let store = body["id"].as_str().unwrap().to_owned();
    let (status, _, _) = request(
        &runtime,
        reqwest::Method::GET,
        &format!("{}/v1/memory_stores/{store}", served.base),
        &[("authorization", &format!("Bearer {owner}"))],
        None,
    );
    assert_eq!(status, 200);
    let (status, _, _) = request(
        &runtime,
        reqwest::Method::GET,
        &format!("{}/healthz", served.base),
        &[],
        None,
    );
    assert_eq!(status, 200);
    std::thread::sleep(Duration::from_millis(300));
    let log = served.stderr();
    let line = |route: &str| {
        log.lines()
            .find(|l| l.contains(&format!("route=\"{route}\"")))
            .unwrap_or_else(|| panic!("no log line for {route}:\n{log}"))
            .to_owned()
    };
    let remember = line("/api/agent/v1/memories/remember");
    for field in [
        "method=\"POST\"",
        "status=200",
        "caller=\"agent\"",
        "micros=",
        "operation=\"remember\"",
    ] {
        assert!(remember.contains(field), "{field} missing: {remember}");
    }
    let read = line("/v1/memory_stores/{memory_store_id}");
    assert!(
        read.contains("method=\"GET\"") && read.contains("caller=\"store\""),
        "{read}"
    );
    assert!(line("/healthz").contains("status=200"));
    for secret in [
        agent.as_str(),
        owner.as_str(),
        content,
        "periwinkle",
        "launch-key",
        "Secret Store Name",
    ] {
        assert!(!log.contains(secret), "{secret:?} is in the log:\n{log}");
    }
    // The request lines name no id at all (the facade's own events at info name the ids its
    // caller touched).
    for request in log
        .lines()
        .filter(|l| l.contains("agent_memory_http: request"))
    {
        for id in [memory.as_str(), store.as_str(), "ws_local_", "cred_"] {
            assert!(!request.contains(id), "{id:?} in {request}");
        }
    }
}

/// p50 and p99 of `samples`.
fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let at = |p: f64| samples[((samples.len() as f64 * p) as usize).min(samples.len() - 1)];
    (at(0.50), at(0.99))
}

/// 20 clients listing memories concurrently, `per_client` requests each: the latencies.
fn list_load(base: &str, token: &str, per_client: usize) -> Vec<Duration> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut clients = Vec::new();
        for _ in 0..20 {
            let url = format!("{base}/api/agent/v1/memories/list");
            let token = token.to_owned();
            clients.push(tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut latencies = Vec::with_capacity(per_client);
                for _ in 0..per_client {
                    let started = Instant::now();
                    let response = client
                        .post(&url)
                        .bearer_auth(&token)
                        .json(&json!({"limit": 20}))
                        .timeout(Duration::from_secs(30))
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(response.status().as_u16(), 200);
                    response.bytes().await.unwrap();
                    latencies.push(started.elapsed());
                }
                latencies
            }));
        }
        let mut all = Vec::new();
        for client in clients {
            all.extend(client.await.unwrap());
        }
        all
    })
}

/// The closing figures of the server's hardening: p50/p99 of an authenticated list under 20
/// concurrent clients, then again while 1,100 idle connections are open (default limits).
/// `cargo test -p govmem-agent-memory-cli --test it serve_load_figures -- --ignored --nocapture`
/// (`AGENT_MEMORY_SERVE_LOAD_REQUESTS` requests per client, default 100).
#[test]
#[ignore = "a measurement: prints figures"]
fn serve_load_figures() {
    let per_client: usize = std::env::var("AGENT_MEMORY_SERVE_LOAD_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path(), &[], &[("RUST_LOG", "warn")], "");
    let token = served.token(dir.path(), "agent");
    for i in 0..20 {
        let runtime = runtime();
        let (status, _, body) = request(
            &runtime,
            reqwest::Method::POST,
            &format!("{}/api/agent/v1/memories/remember", served.base),
            &[("authorization", &format!("Bearer {token}"))],
            Some(
                json!({"namespace": "load", "text": format!("note number {i} about the load test")}),
            ),
        );
        assert_eq!(status, 200, "{body}");
    }
    let (p50, p99) = percentiles(list_load(&served.base, &token, per_client));
    eprintln!("serve list, 20 clients x {per_client}: p50 {p50:?}, p99 {p99:?}");
    let idle: Vec<TcpStream> = (0..1100)
        .map(|_| TcpStream::connect(&served.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (p50, p99) = percentiles(list_load(&served.base, &token, per_client));
    eprintln!(
        "serve list, 20 clients x {per_client}, 1,100 idle connections opened: p50 {p50:?}, p99 {p99:?}"
    );
    drop(idle);
}

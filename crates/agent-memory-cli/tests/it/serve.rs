//! `agent-memory serve` as a user runs it: a fresh home, `--listen 127.0.0.1:0`, the tokens
//! from `agent-memory token`, requests over loopback, and SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::run_cli;

/// A running `serve`, killed when dropped so that a failing test leaves no server behind.
pub(crate) struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub(crate) base: String,
}

impl Served {
    /// `init` then `serve` on `home`; waits for the first line.
    fn start(home: &str) -> Served {
        let (status, _, err) = run_cli(&["--home", home, "init"], "");
        assert_eq!(status, 0, "{err}");
        Served::on(home)
    }

    /// `serve --listen 127.0.0.1:0` on the initialised `home`; waits for the first line.
    pub(crate) fn on(home: &str) -> Served {
        Served::on_with(home, &[])
    }

    /// [`Served::on`] with more arguments of `serve`.
    fn on_with(home: &str, more: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
            .args(["--home", home, "serve", "--listen", "127.0.0.1:0"])
            .args(more)
            .env_remove("AGENT_MEMORY_HOME")
            .env_remove("AGENT_MEMORY_EMBEDDER")
            .env_remove("AGENT_MEMORY_METRICS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let base = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line: {first:?}"))
            .to_owned();
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        Served { child, base }
    }

    /// SIGTERM; the exit status.
    fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "serve did not stop on SIGTERM"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn token(home: &str, kind: &str) -> String {
    let (status, out, err) = run_cli(&["--home", home, "token", kind], "");
    assert_eq!(status, 0, "{err}");
    out.trim().to_owned()
}

fn call(
    runtime: &tokio::runtime::Runtime,
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    runtime.block_on(async {
        let mut request = reqwest::Client::new().request(method, url);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap())
    })
}

#[test]
fn serve_on_a_fresh_home_answers_curl_style_requests_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home = home.to_str().unwrap();
    let served = Served::start(home);
    let (agent, owner) = (token(home, "agent"), token(home, "owner"));
    assert_ne!(agent, owner);
    let config: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("home/config.json")).unwrap(),
    )
    .unwrap();
    let ws = config["workspace"].as_str().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = |path: &str| format!("{}{path}", served.base);
    let post = reqwest::Method::POST;

    let (status, body) = call(
        &runtime,
        post.clone(),
        url("/api/agent/v1/memories/remember"),
        Some(&agent),
        Some(json!({"namespace": "prefs", "text": "Call Dana at +1 415 555 0100 after lunch"})),
    );
    assert_eq!(status, 200, "{body}");
    let text = body["memory"]["text"].as_str().unwrap();
    assert!(text.contains("[PHONE]") && !text.contains("555"), "{text}");
    let id = body["memory"]["id"].as_str().unwrap().to_owned();

    let (status, body) = call(
        &runtime,
        post.clone(),
        url("/api/agent/v1/memories/recall"),
        Some(&agent),
        Some(json!({"query": "lunch"})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["memories"][0]["id"], id.as_str());

    // The owner reads and changes the settings.
    let settings = url(&format!("/api/w/{ws}/ask-history/settings"));
    let (status, body) = call(
        &runtime,
        reqwest::Method::GET,
        settings.clone(),
        Some(&owner),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["agentMemoriesEnabled"], true);
    let (status, body) = call(
        &runtime,
        reqwest::Method::PUT,
        settings.clone(),
        Some(&owner),
        Some(json!({"retentionDays": 30})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["retentionDays"], 30);
    // The agent token is not the owner's.
    let (status, body) = call(&runtime, reqwest::Method::GET, settings, Some(&agent), None);
    assert_eq!(status, 401, "{body}");

    let (status, body) = call(
        &runtime,
        post.clone(),
        url("/api/agent/v1/memories/forget"),
        Some(&agent),
        Some(json!({"memoryId": id})),
    );
    assert_eq!(status, 200, "{body}");

    // No token: 401 with the error body.
    let (status, body) = call(
        &runtime,
        post,
        url("/api/agent/v1/memories/list"),
        None,
        Some(json!({})),
    );
    assert_eq!(status, 401);
    assert_eq!(body["error"]["code"], "AGENT_CREDENTIAL_INVALID");

    // The OpenAPI document, without credentials: every route of the router.
    let document: Value = runtime.block_on(async {
        reqwest::get(url("/openapi.json"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    });
    assert_eq!(document["openapi"], "3.1.0");
    let paths = document["paths"].as_object().unwrap();
    for route in [
        "/api/agent/v1/memories/remember",
        "/api/agent/v1/memories/recall",
        "/api/agent/v1/memories/forget",
        "/api/w/{ws_id}/ask-history/settings",
        "/v1/memory_stores/{memory_store_id}/memories/{memory_id}",
        "/v1/sessions/{session_id}/system_prompt",
    ] {
        assert!(paths.contains_key(route), "{route}");
    }
    let operations: usize = paths
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    assert_eq!(operations, 28, "one documented operation per route");

    // Without `--metrics` there is no /metrics route.
    let (status, body) = call(
        &runtime,
        reqwest::Method::GET,
        url("/metrics"),
        Some(&owner),
        None,
    );
    assert_eq!(status, 404, "{body}");

    // What serve wrote is the home's: the CLI sees the settings change.
    let (status, out, err) = run_cli(&["--home", home, "settings", "--json"], "");
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("\"retentionDays\":30"), "{out}");

    let exit = served.terminate();
    assert!(exit.success(), "serve exited with {exit}");
}

#[cfg(unix)]
#[test]
fn the_tokens_file_is_readable_by_its_user_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap();
    let (status, _, err) = run_cli(&["--home", home, "init"], "");
    assert_eq!(status, 0, "{err}");
    let mode = std::fs::metadata(dir.path().join("tokens.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // Stable across calls.
    assert_eq!(token(home, "agent"), token(home, "agent"));
}

/// `GET url` with `token`: the status, the content type and the body as text.
fn get_text(
    runtime: &tokio::runtime::Runtime,
    url: String,
    token: Option<&str>,
) -> (u16, String, String) {
    runtime.block_on(async {
        let mut request = reqwest::Client::new().get(url);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (status, content_type, response.text().await.unwrap())
    })
}

#[test]
fn serve_with_metrics_counts_operations_for_the_owners_scrape_without_their_content() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home = home.to_str().unwrap();
    let (status, _, err) = run_cli(&["--home", home, "init"], "");
    assert_eq!(status, 0, "{err}");
    let served = Served::on_with(home, &["--metrics"]);
    let (agent, owner) = (token(home, "agent"), token(home, "owner"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = |path: &str| format!("{}{path}", served.base);

    let (status, body) = call(
        &runtime,
        reqwest::Method::POST,
        url("/api/agent/v1/memories/remember"),
        Some(&agent),
        Some(
            json!({"namespace": "quince", "text": "the marmalade codeword; call +1 415 555 0100"}),
        ),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = call(
        &runtime,
        reqwest::Method::POST,
        url("/api/agent/v1/memories/remember"),
        Some(&agent),
        Some(json!({"namespace": "dana@example.com", "text": "marmalade"})),
    );
    assert_eq!(status, 400, "{body}");

    for token in [None, Some(agent.as_str())] {
        let (status, _, body) = get_text(&runtime, url("/metrics"), token);
        assert_eq!(status, 401, "{body}");
        assert!(!body.contains("agent_memory_operations_total"), "{body}");
    }
    let (status, content_type, scrape) = get_text(&runtime, url("/metrics"), Some(&owner));
    assert_eq!(status, 200, "{scrape}");
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let line = |name: &str, labels: &[&str]| {
        scrape
            .lines()
            .find(|l| l.starts_with(&format!("{name}{{")) && labels.iter().all(|x| l.contains(x)))
            .unwrap_or_else(|| panic!("no {name} with {labels:?} in:\n{scrape}"))
            .to_owned()
    };
    let accepted = line(
        "agent_memory_operations_total",
        &["operation=\"remember\"", "outcome=\"ok\""],
    );
    assert!(accepted.ends_with(" 1"), "{accepted}");
    let refused = line(
        "agent_memory_refusals_total",
        &["code=\"AGENT_MEMORY_PERSONAL_DATA\""],
    );
    assert!(refused.ends_with(" 1"), "{refused}");
    let phones = line("agent_memory_masked_values_total", &["category=\"phone\""]);
    assert!(phones.ends_with(" 1"), "{phones}");
    assert!(
        scrape.contains("# TYPE agent_memory_operation_duration_seconds histogram"),
        "{scrape}"
    );
    // Names, labels and help text, without the measured values: a duration sum such as
    // 0.010052887 may hold any digits, and the digits of a secret in it leak nothing.
    let scrape: String = scrape
        .lines()
        .map(|l| match l.starts_with('#') {
            true => l,
            false => l.rsplit_once(' ').map_or(l, |(series, _value)| series),
        })
        .collect::<Vec<_>>()
        .join("\n");
    for secret in [
        "marmalade",
        "codeword",
        "quince",
        "415",
        "0100",
        "dana",
        "example.com",
        agent.as_str(),
        owner.as_str(),
    ] {
        assert!(
            !scrape.contains(secret),
            "the scrape leaks {secret}:\n{scrape}"
        );
    }

    let exit = served.terminate();
    assert!(exit.success(), "serve exited with {exit}");
}

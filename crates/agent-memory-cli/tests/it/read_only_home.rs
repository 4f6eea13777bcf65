//! A home that cannot be written (a read-only mount, a directory without write permission):
//! `serve`, `mcp` and the reading commands start and answer reads, and every write answers
//! `STORAGE_READ_ONLY` (HTTP 503, an MCP tool error, exit 5) with nothing changed.
//!
//! As root, permission bits stop nothing, so the home is made read-only by a read-only bind
//! mount in a mount namespace of the command's own (`unshare -m`); as another user, by removing
//! its write permissions for the test's duration.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::local::LocalHome;

const BIN: &str = env!("CARGO_BIN_EXE_agent-memory");

/// A home made read-only for the commands built by [`ReadOnly::command`].
struct ReadOnly {
    home: PathBuf,
    /// Write permissions were removed (restored on drop); otherwise a bind mount per command.
    chmodded: bool,
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
}

impl ReadOnly {
    /// `None` when neither a read-only bind mount (root) nor permissions (others) can be used.
    fn new(home: &Path) -> Option<ReadOnly> {
        if is_root() {
            let probe = Command::new("unshare")
                .args(["-m", "true"])
                .stderr(Stdio::null())
                .status();
            if !probe.is_ok_and(|s| s.success()) {
                return None;
            }
            return Some(ReadOnly {
                home: home.to_owned(),
                chmodded: false,
            });
        }
        let status = Command::new("chmod")
            .args(["-R", "a-w"])
            .arg(home)
            .status()
            .unwrap();
        assert!(status.success());
        Some(ReadOnly {
            home: home.to_owned(),
            chmodded: true,
        })
    }

    /// `agent-memory --home HOME ARGS` with the home read-only.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = if self.chmodded {
            let mut c = Command::new(BIN);
            c.arg("--home").arg(&self.home);
            c
        } else {
            let mut c = Command::new("unshare");
            c.args([
                "-m",
                "sh",
                "-c",
                "mount --bind \"$2\" \"$2\" && mount -o remount,bind,ro \"$2\" && b=\"$1\" && \
                 h=\"$2\" && shift 2 && exec \"$b\" --home \"$h\" \"$@\"",
                "sh",
                BIN,
            ])
            .arg(&self.home);
            c
        };
        command
            .args(args)
            .env_remove("AGENT_MEMORY_HOME")
            .env_remove("AGENT_MEMORY_EMBEDDER")
            .env_remove("AGENT_MEMORY_CREDENTIAL")
            .env_remove("AGENT_MEMORY_SESSION");
        command
    }

    /// Runs a command to its end: (status, stdout, stderr).
    fn run(&self, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin);
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.chmodded {
            let _ = Command::new("chmod")
                .args(["-R", "u+w"])
                .arg(&self.home)
                .status();
        }
    }
}

/// Every file of the home with its content, to show that nothing changed.
fn snapshot(home: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![home.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        } else {
            files.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// A home with a note, a store with one memory and a session that mounts it: (home, store id,
/// memory id, session id).
fn home_with_data(backend: &str) -> (LocalHome, String, String, String) {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", backend]);
    home.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply tersely."]);
    let store = home.json(&["stores", "create", "Notes"]);
    let store = store["id"].as_str().unwrap().to_owned();
    let (status, out, err) = home.run_with_stdin(
        &["memories", "create", "--store", &store, "/a.md", "--json"],
        "hello",
    );
    assert_eq!(status, 0, "{err}");
    let memory: Value = serde_json::from_str(&out).unwrap();
    let memory = memory["id"].as_str().unwrap().to_owned();
    let session = home.json(&["sessions", "create", "--store", &store]);
    let session = session["id"].as_str().unwrap().to_owned();
    // A process that last closed the database leaves it clean (no WAL with commits).
    (home, store, memory, session)
}

fn skipped() {
    println!("SKIPPED: the home cannot be made read-only here (no unshare -m for root)");
}

#[test]
fn reading_commands_work_on_a_read_only_home_and_writes_are_exit_5() {
    for backend in ["sqlite", "redb"] {
        let (home, store, memory, session) = home_with_data(backend);
        let before = snapshot(&home.path());
        let Some(ro) = ReadOnly::new(&home.path()) else {
            return skipped();
        };
        let reads: Vec<Vec<&str>> = vec![
            vec!["list", "--json"],
            vec!["recall", "terse", "--json"],
            vec!["export"],
            vec!["settings", "--json"],
            vec!["config", "--json"],
            vec!["token", "agent"],
            vec!["token", "owner"],
            vec!["stores", "list", "--json"],
            vec!["stores", "get", &store, "--json"],
            vec!["memories", "list", "--store", &store, "--json"],
            vec!["memories", "get", "--store", &store, &memory, "--json"],
            vec!["versions", "list", "--store", &store, "--json"],
            vec!["sessions", "prompt", &session, "--json"],
            vec!["fs", "ls", "--session", &session, "/mnt/memory/notes/"],
            vec!["fs", "cat", "--session", &session, "/mnt/memory/notes/a.md"],
        ];
        for args in &reads {
            let (status, out, err) = ro.run(args, b"");
            assert_eq!(
                status, 0,
                "{backend}: {args:?} reads a read-only home: {err}"
            );
            assert!(!out.is_empty(), "{backend}: {args:?}");
        }
        let writes: Vec<Vec<&str>> = vec![
            vec!["remember", "-n", "prefs", "x", "--json"],
            vec!["forget", "-n", "prefs", "-k", "tone", "--json"],
            vec!["settings", "--disable", "--json"],
            vec!["stores", "create", "Other", "--json"],
            vec!["memories", "create", "--store", &store, "/b.md", "--json"],
            vec![
                "fs",
                "write",
                "--session",
                &session,
                "/mnt/memory/notes/c.md",
                "--json",
            ],
            vec!["vacuum", "--json"],
        ];
        for args in &writes {
            let (status, out, err) = ro.run(args, b"text");
            assert_eq!(status, 5, "{backend}: {args:?} is refused: {out} {err}");
            assert!(
                err.contains("STORAGE_READ_ONLY"),
                "{backend}: {args:?}: {err}"
            );
            let body: Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(
                body["error"]["code"], "STORAGE_READ_ONLY",
                "{backend}: {args:?}"
            );
        }
        drop(ro);
        assert!(
            snapshot(&home.path()) == before,
            "{backend}: nothing changed"
        );
    }
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn call(id: u64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

#[test]
fn mcp_serves_a_read_only_home_and_refuses_writes_with_storage_read_only() {
    for backend in ["sqlite", "redb"] {
        let (home, _, _, session) = home_with_data(backend);
        let before = snapshot(&home.path());
        let Some(ro) = ReadOnly::new(&home.path()) else {
            return skipped();
        };
        let lines = [
            request(
                1,
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "by-hand", "version": "0"}}),
            ),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            call(2, "list_memories", json!({})),
            call(3, "recall_memories", json!({"query": "terse"})),
            call(
                4,
                "remember_memory",
                json!({"namespace": "prefs", "text": "x"}),
            ),
            call(
                5,
                "memory",
                json!({"command": "view", "path": "/memories/notes/a.md"}),
            ),
            call(
                6,
                "memory",
                json!({"command": "create", "path": "/memories/notes/b.md", "file_text": "x"}),
            ),
        ];
        let mut input = Vec::new();
        for line in &lines {
            writeln!(input, "{line}").unwrap();
        }
        let (status, stdout, stderr) = ro.run(&["mcp", "--session", &session], &input);
        assert_eq!(
            status, 0,
            "{backend}: the server starts and stops cleanly: {stderr}"
        );
        let answers: std::collections::BTreeMap<u64, Value> = stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|m| (m["id"].as_u64().unwrap(), m))
            .collect();
        assert_eq!(answers.len(), 6, "{backend}: {stdout}");
        let listed = &answers[&2]["result"];
        assert_eq!(listed["isError"], false, "{backend}: {listed}");
        assert_eq!(
            listed["structuredContent"]["memories"][0]["text"],
            "Reply tersely."
        );
        let recalled = &answers[&3]["result"];
        assert_eq!(recalled["isError"], false, "{backend}: {recalled}");
        assert_eq!(
            recalled["structuredContent"]["memories"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        let refused = &answers[&4]["result"];
        assert_eq!(refused["isError"], true, "{backend}: {refused}");
        assert_eq!(
            refused["structuredContent"]["error"]["code"],
            "STORAGE_READ_ONLY"
        );
        let viewed = &answers[&5]["result"];
        assert_eq!(viewed["isError"], false, "{backend}: {viewed}");
        assert!(
            viewed["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("hello")
        );
        // The memory tool answers its own code, with the storage failure as the message.
        let refused = &answers[&6]["result"];
        assert_eq!(refused["isError"], true, "{backend}: {refused}");
        assert_eq!(
            refused["structuredContent"]["error"]["message"], "the database is read-only",
            "{backend}: {refused}"
        );
        drop(ro);
        assert!(
            snapshot(&home.path()) == before,
            "{backend}: nothing changed"
        );
    }
}

/// `serve` on the read-only home; the base URL. The caller kills the child.
fn serve(ro: &ReadOnly) -> (Child, String) {
    let mut child = ro
        .command(&["serve", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let base = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| {
            let _ = child.kill();
            panic!("serve starts on a read-only home; first line: {first:?}")
        })
        .to_owned();
    (child, base)
}

#[test]
fn serve_answers_reads_on_a_read_only_home_and_refuses_writes_with_503() {
    let (home, store, memory, _) = home_with_data("sqlite");
    let agent = home.ok(&["token", "agent"]).trim().to_owned();
    let owner = home.ok(&["token", "owner"]).trim().to_owned();
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join("config.json")).unwrap())
            .unwrap();
    let ws = config["workspace"].as_str().unwrap().to_owned();
    let before = snapshot(&home.path());
    let Some(ro) = ReadOnly::new(&home.path()) else {
        return skipped();
    };
    let (mut child, base) = serve(&ro);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let send = |method: reqwest::Method, path: &str, token: &str, body: Option<Value>| {
        runtime.block_on(async {
            let mut request = reqwest::Client::new()
                .request(method, format!("{base}{path}"))
                .bearer_auth(token);
            if let Some(body) = body {
                request = request.json(&body);
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        })
    };
    use reqwest::Method;
    let (status, body) = send(
        Method::POST,
        "/api/agent/v1/memories/list",
        &agent,
        Some(json!({})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["memories"][0]["text"], "Reply tersely.");
    let (status, body) = send(
        Method::POST,
        "/api/agent/v1/memories/recall",
        &agent,
        Some(json!({"query": "terse"})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["memories"].as_array().unwrap().len(), 1);
    let settings = format!("/api/w/{ws}/ask-history/settings");
    let (status, body) = send(Method::GET, &settings, &owner, None);
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(Method::GET, "/v1/memory_stores", &owner, None);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0]["id"], store.as_str());
    let (status, body) = send(
        Method::GET,
        &format!("/v1/memory_stores/{store}/memories/{memory}"),
        &owner,
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["content"], "hello");

    let read_only =
        json!({"error": {"code": "STORAGE_READ_ONLY", "message": "the database is read-only"}});
    let (status, body) = send(
        Method::POST,
        "/api/agent/v1/memories/remember",
        &agent,
        Some(json!({"namespace": "prefs", "text": "x"})),
    );
    assert_eq!((status, &body), (503, &read_only));
    let (status, body) = send(
        Method::PUT,
        &settings,
        &owner,
        Some(json!({"retentionDays": 30})),
    );
    assert_eq!((status, &body), (503, &read_only));
    let (status, body) = send(
        Method::POST,
        "/v1/memory_stores",
        &owner,
        Some(json!({"name": "Other"})),
    );
    assert_eq!((status, &body), (503, &read_only));
    let _ = child.kill();
    let _ = child.wait();
    drop(ro);
    assert!(snapshot(&home.path()) == before, "nothing changed");
}

//! A SQLite home shared by processes: `agent-memory mcp` servers, `agent-memory mount` and CLI
//! commands work on one home at the same time, and the rate limit holds across them.
//!
//! The mount part needs FUSE and is `#[ignore]`d as the other mount tests are.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::local::LocalHome;

const BIN: &str = env!("CARGO_BIN_EXE_agent-memory");

fn string(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_else(|| panic!("a string: {value}"))
        .to_owned()
}

/// A running `agent-memory mcp` with its stdin kept open; dropping it closes stdin and waits.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    /// Starts `agent-memory --home H mcp ARGS` and waits for its "serving" line on stderr.
    fn start(home: &LocalHome, args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .arg("--home")
            .arg(home.path())
            .arg("mcp")
            .args(args)
            .env_remove("AGENT_MEMORY_HOME")
            .env_remove("AGENT_MEMORY_CREDENTIAL")
            .env_remove("AGENT_MEMORY_SESSION")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("agent-memory mcp starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        assert!(line.contains("serving"), "the server started: {line}");
        // The rest of its log is drained, so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout,
        };
        server.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "shared-home", "version": "0"}}}));
        server.answer(0);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads messages until the answer to request `id`.
    fn answer(&mut self, id: u64) -> Value {
        loop {
            let mut line = String::new();
            assert_ne!(
                self.stdout.read_line(&mut line).unwrap(),
                0,
                "the server ended"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// Calls tool `name`; its result.
    fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments}}));
        let answer = self.answer(id);
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        answer["result"].clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A SQLite home (the default) with a store "Notes" holding `/plan.md`, and a session mounting
/// it read-write; (home, store id, session id).
fn home_with_session() -> (LocalHome, String, String) {
    let home = LocalHome::new();
    assert_eq!(home.json(&["init"])["config"]["backend"], "sqlite");
    let store = string(&home.json(&["stores", "create", "Notes"])["id"]);
    home.run_with_stdin(
        &["memories", "create", "--store", &store, "/plan.md"],
        "Ship it.\n",
    );
    let session = string(&home.json(&["sessions", "create", "--store", &store])["id"]);
    (home, store, session)
}

#[test]
fn cli_commands_work_while_two_mcp_servers_serve_the_same_home() {
    let (home, _, session) = home_with_session();
    let mut first = Server::start(&home, &["--session", &session]);
    let mut second = Server::start(&home, &[]);

    // Agent memories: the CLI and both servers write and read one another's at once.
    let from_cli = home.json(&["remember", "-n", "prefs", "-k", "tone", "Reply tersely."]);
    let id = string(&from_cli["memory"]["id"]);
    let remembered = first.call(
        1,
        "remember_memory",
        json!({"namespace": "prefs", "text": "Prefer metric units."}),
    );
    assert_eq!(
        remembered["structuredContent"]["memory"]["text"],
        "Prefer metric units."
    );
    let listed = home.json(&["list"]);
    let texts: Vec<&str> = listed["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Prefer metric units.", "Reply tersely."]);
    let recalled = home.json(&["recall", "how tersely should I reply?"]);
    assert_eq!(recalled["memories"][0]["id"], id.as_str());
    let listed = second.call(2, "list_memories", json!({}));
    assert_eq!(
        listed["structuredContent"]["memories"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Files: what the CLI writes the server's memory tool reads at once, and back.
    home.run_with_stdin(
        &[
            "fs",
            "write",
            "--session",
            &session,
            "/mnt/memory/notes/todo.md",
        ],
        "Write the docs.\n",
    );
    let viewed = first.call(
        3,
        "memory",
        json!({"command": "view", "path": "/memories/notes/todo.md"}),
    );
    assert!(
        viewed.to_string().contains("Write the docs."),
        "the server reads the CLI's file: {viewed}"
    );
    let cat = home.ok(&[
        "fs",
        "cat",
        "--session",
        &session,
        "/mnt/memory/notes/plan.md",
    ]);
    assert_eq!(cat, "Ship it.\n");
    let ls = home.ok(&["fs", "ls", "--session", &session, "/mnt/memory/notes/"]);
    assert!(ls.contains("plan.md") && ls.contains("todo.md"), "{ls}");

    // A vacuum shares the home too (it waits for the servers' transactions, never for them
    // to stop).
    assert!(home.json(&["vacuum"])["entries"].as_u64().is_some());
    assert_eq!(
        home.json(&["list"])["memories"].as_array().unwrap().len(),
        2
    );
}

/// An `agent-memory mcp` server on `home` that makes `count` remember calls (the agents' rate
/// limit holds there; the owner's own `remember` command is not rate-limited); the error code
/// of each answer, `None` for an accepted one.
fn remember_loop(home: &std::path::Path, tag: &str, count: usize) -> Vec<Option<String>> {
    let mut child = Command::new(BIN)
        .arg("--home")
        .arg(home)
        .arg("mcp")
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .env_remove("AGENT_MEMORY_CREDENTIAL")
        .env_remove("AGENT_MEMORY_SESSION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "race", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for i in 0..count {
        lines.push(
            json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {
            "name": "remember_memory",
            "arguments": {"namespace": "race", "text": format!("note {tag} {i}")}}}),
        );
    }
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|m| m["id"].as_u64().is_some_and(|id| id > 0))
        .map(|m| {
            let result = &m["result"];
            (result["isError"] == true).then(|| {
                result["structuredContent"]["error"]["code"]
                    .as_str()
                    .unwrap_or("no code")
                    .to_owned()
            })
        })
        .collect()
}

#[test]
fn two_processes_racing_at_the_rate_limit_are_accepted_exactly_120_times() {
    // The servers run on the system clock: the 160 remembers below take far less than the hour
    // of the rate window, so the window's 120 is the edge they race at.
    let home = LocalHome::new();
    home.ok(&["init"]);
    let path = home.path();
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| remember_loop(&path, "a", 80));
        let b = scope.spawn(|| remember_loop(&path, "b", 80));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!((a.len(), b.len()), (80, 80), "every call is answered");
    let all: Vec<_> = a.iter().chain(&b).collect();
    let accepted = all.iter().filter(|code| code.is_none()).count();
    let limited = all
        .iter()
        .filter(|code| code.as_deref() == Some("AGENT_MEMORY_RATE_LIMITED"))
        .count();
    assert_eq!(
        (accepted, limited),
        (120, 40),
        "every remember is accepted or rate-limited, none lost or locked out: {:?}",
        all.iter()
            .filter(|c| c
                .as_deref()
                .is_some_and(|c| c != "AGENT_MEMORY_RATE_LIMITED"))
            .collect::<Vec<_>>()
    );
    // Both processes got some of the 120: they raced.
    assert!(a.iter().any(Option::is_none) && b.iter().any(Option::is_none));
    let exported = home.ok(&["export"]);
    assert_eq!(
        exported.lines().count(),
        120,
        "exactly the accepted ones are stored"
    );
    // The owner's own command line is not held to the agents' hour.
    home.ok(&["remember", "-n", "race", "the owner's own note"]);
}

/// The running `agent-memory mount`; dropping it unmounts and ends the child.
struct Mounting {
    child: Child,
    dir: std::path::PathBuf,
}

impl Drop for Mounting {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = Command::new("fusermount3")
                .arg("-u")
                .arg(&self.dir)
                .output();
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn with_mcp_and_mount_running_the_cli_works_and_sees_files_written_through_the_mount() {
    if let Err(e) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/fuse")
    {
        panic!("this test mounts a FUSE file system, but /dev/fuse cannot be opened ({e})");
    }
    let (home, store, session) = home_with_session();
    let mut server = Server::start(&home, &["--session", &session]);
    let dir = home.scratch().join("mnt");
    std::fs::create_dir(&dir).unwrap();
    let child = Command::new(BIN)
        .arg("--home")
        .arg(home.path())
        .args(["mount", "--session", &session])
        .arg(&dir)
        .env_remove("AGENT_MEMORY_HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("agent-memory mount starts");
    let mut mounting = Mounting {
        child,
        dir: dir.clone(),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !dir.join("notes").exists() {
        if let Some(status) = mounting.child.try_wait().unwrap() {
            panic!("agent-memory mount ended ({status}): is mounting permitted here?");
        }
        assert!(Instant::now() < deadline, "the mount did not appear");
        std::thread::sleep(Duration::from_millis(50));
    }

    // With both running, the CLI's commands succeed on the home.
    home.json(&["remember", "-n", "prefs", "Reply tersely."]);
    server.call(
        1,
        "remember_memory",
        json!({"namespace": "prefs", "text": "Prefer metric units."}),
    );
    assert_eq!(
        home.json(&["list"])["memories"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        home.json(&["recall", "how tersely?"])["memories"][0]["text"],
        "Reply tersely."
    );
    assert_eq!(
        home.ok(&[
            "fs",
            "cat",
            "--session",
            &session,
            "/mnt/memory/notes/plan.md"
        ]),
        "Ship it.\n"
    );

    // A file closed through the mount is a version the CLI reads at once.
    std::fs::write(dir.join("notes/mounted.md"), "Written through the mount.\n").unwrap();
    assert_eq!(
        home.ok(&[
            "fs",
            "cat",
            "--session",
            &session,
            "/mnt/memory/notes/mounted.md"
        ]),
        "Written through the mount.\n"
    );
    let listed = home.json(&["memories", "list", "--store", &store]);
    assert_eq!(listed["data"].as_array().unwrap().len(), 2);
    // And what the CLI writes the mount shows.
    home.run_with_stdin(
        &[
            "fs",
            "write",
            "--session",
            &session,
            "/mnt/memory/notes/cli.md",
        ],
        "From the CLI.\n",
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes/cli.md")).unwrap(),
        "From the CLI.\n"
    );
    let viewed = server.call(
        2,
        "memory",
        json!({"command": "view", "path": "/memories/notes/mounted.md"}),
    );
    assert!(
        viewed.to_string().contains("Written through the mount."),
        "{viewed}"
    );
    drop(mounting);
}

//! `agent-memory mcp`: the stdio MCP server, driven by the official MCP Python SDK
//! (`tests/mcp/client.py`, with the interpreter `AGENT_MEMORY_MCP_PYTHON` names; `#[ignore]`d,
//! since it needs that Python) and, with no Python at all, by JSON-RPC lines written by hand;
//! and `/mcp` of `agent-memory serve`, driven by the same SDK's Streamable HTTP client
//! (`tests/mcp/http_client.py`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::local::LocalHome;

/// The client script, run as `python client.py <binary> <home> <session>`.
const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/client.py");

/// The interpreter of `AGENT_MEMORY_MCP_PYTHON`, which must import `mcp`: the test that calls
/// this runs only when asked for (`--ignored`), so a missing interpreter is a failure.
fn python_with_mcp() -> PathBuf {
    let missing = |why: String| -> ! {
        panic!(
            "{why}. To provide it: python3 -m venv VENV && VENV/bin/pip install mcp && \
             AGENT_MEMORY_MCP_PYTHON=VENV/bin/python cargo test -p govmem-agent-memory-cli mcp -- --ignored \
             (.ci/run does this)"
        )
    };
    let Some(python) = std::env::var_os("AGENT_MEMORY_MCP_PYTHON").filter(|p| !p.is_empty()) else {
        missing("AGENT_MEMORY_MCP_PYTHON is not set".into());
    };
    let python = PathBuf::from(python);
    let imports = Command::new(&python)
        .args(["-c", "import mcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match imports {
        Ok(status) if status.success() => python,
        Ok(_) => missing(format!("{} cannot import mcp", python.display())),
        Err(e) => missing(format!("{} does not run: {e}", python.display())),
    }
}

/// A home with a store "Project Notes" mounted read-write in a new session; the session id.
fn home_with_session() -> (LocalHome, String) {
    let home = LocalHome::new();
    let init = home.json(&["init"]);
    assert_eq!(init["settings"]["agentMemoriesEnabled"], true);
    let store = home.json(&["stores", "create", "Project Notes"]);
    let store_id = store["id"].as_str().unwrap();
    let session = home.json(&["sessions", "create", "--store", store_id]);
    let session_id = session["id"].as_str().unwrap().to_owned();
    (home, session_id)
}

#[test]
#[ignore = "needs Python with the mcp package: AGENT_MEMORY_MCP_PYTHON naming its interpreter"]
fn the_official_python_client_drives_the_server() {
    let python = python_with_mcp();
    let (home, session) = home_with_session();
    let out = Command::new(&python)
        .arg(CLIENT)
        .arg(env!("CARGO_BIN_EXE_agent-memory"))
        .arg(home.path())
        .arg(&session)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_CREDENTIAL")
        .env_remove("AGENT_MEMORY_SESSION")
        .stdin(Stdio::null())
        .output()
        .expect("the client script starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the client script succeeds ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // What the script reports: the negotiated protocol versions, the tools, the checks.
    for line in stdout.lines() {
        println!("mcp client: {line}");
    }
    assert!(
        stdout.contains("protocol initialize: 20"),
        "a negotiated version: {stdout}"
    );
    assert!(
        stdout.contains(
            "tools: remember_memory, recall_memories, list_memories, forget_memory, memory"
        ),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or("")
            .ends_with("checks passed"),
        "{stdout}"
    );
    // The server logged each call on stderr, with codes and no content.
    assert!(
        stderr.contains("agent-memory mcp: forget_memory: AGENT_MEMORY_NOT_FOUND"),
        "{stderr}"
    );
    assert!(!stderr.contains("050-123-4567"), "no content in the logs");
}

/// The Streamable HTTP client script, run as `python http_client.py <base URL> <agent token>`.
const HTTP_CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/http_client.py");

/// A child process that is killed when dropped (a failed assertion must not leave it running).
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` at most `limit`; kills it past that.
fn wait_at_most(child: &mut KillOnDrop, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.0.kill();
            panic!("the process did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[ignore = "needs Python with the mcp package: AGENT_MEMORY_MCP_PYTHON naming its interpreter"]
fn the_official_python_client_speaks_streamable_http_to_serve() {
    let python = python_with_mcp();
    let home = LocalHome::new();
    home.ok(&["init"]);
    let token = home.ok(&["token", "agent"]).trim().to_owned();
    let mut server = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_agent-memory"))
            .arg("--home")
            .arg(home.path())
            .args(["serve", "--listen", "127.0.0.1:0"])
            .env_remove("AGENT_MEMORY_HOME")
            .env_remove("AGENT_MEMORY_EMBEDDER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("agent-memory serve starts"),
    );
    let mut first = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let base = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the first line names the address: {first:?}"))
        .to_owned();

    let mut client = KillOnDrop(
        Command::new(&python)
            .arg(HTTP_CLIENT)
            .arg(&base)
            .arg(&token)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the client script starts"),
    );
    let status = wait_at_most(&mut client, Duration::from_secs(120));
    let (mut stdout, mut stderr) = (String::new(), String::new());
    client
        .0
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    client
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(
        status.success(),
        "the client script succeeds ({status}):\n{stdout}\n{stderr}"
    );
    for line in stdout.lines() {
        println!("mcp http client: {line}");
    }
    assert!(
        stdout.contains("protocol initialize: 20"),
        "a negotiated version: {stdout}"
    );
    assert!(
        stdout.contains("tools: remember_memory, recall_memories, list_memories, forget_memory"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or("")
            .ends_with("checks passed"),
        "{stdout}"
    );

    // The note the client remembered is the home's: the CLI recalls it, masked.
    let recalled = home.json(&["recall", "tersely"]);
    assert_eq!(
        recalled["memories"][0]["text"], "Reply tersely; call me on [PHONE]",
        "{recalled}"
    );
    let mut logged = String::new();
    let server_err = server.0.stderr.take();
    let _ = server.0.kill();
    let _ = server.0.wait();
    server_err.unwrap().read_to_string(&mut logged).unwrap();
    assert!(!logged.contains("050-123-4567"), "no content in the logs");
}

/// Runs `agent-memory --home H mcp ARGS` with `lines` on stdin (then end of input); returns the
/// exit status, every stdout line parsed as JSON, and stderr.
fn serve(
    home: &LocalHome,
    args: &[&str],
    env: &[(&str, &str)],
    lines: &[Value],
) -> (i32, Vec<Value>, String) {
    let mut input = Vec::new();
    for line in lines {
        writeln!(input, "{line}").unwrap();
    }
    serve_raw(home, args, env, &input)
}

/// [`serve`] with `input` on stdin byte for byte (lines that are not JSON, or not UTF-8).
fn serve_raw(
    home: &LocalHome,
    args: &[&str],
    env: &[(&str, &str)],
    input: &[u8],
) -> (i32, Vec<Value>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agent-memory"));
    command
        .arg("--home")
        .arg(home.path())
        .arg("mcp")
        .args(args)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_CREDENTIAL")
        .env_remove("AGENT_MEMORY_SESSION")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("agent-memory mcp starts");
    let mut stdin = child.stdin.take().unwrap();
    // A server that refused to start has closed its end already.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let messages = stdout
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("stdout is JSON-RPC only: {l}: {e}"))
        })
        .collect();
    (
        out.status.code().unwrap_or(-1),
        messages,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn handshake() -> Vec<Value> {
    vec![
        request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "by-hand", "version": "0"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
}

fn call(id: u64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

/// The answers by request id (they may come in any order: calls run concurrently).
fn by_id(messages: Vec<Value>) -> BTreeMap<u64, Value> {
    messages
        .into_iter()
        .map(|m| {
            (
                m["id"].as_u64().expect("every message answers a request"),
                m,
            )
        })
        .collect()
}

#[test]
fn json_rpc_by_hand_without_python() {
    let (home, session) = home_with_session();
    let mut lines = handshake();
    lines.extend([
        request(2, "tools/list", json!({})),
        call(
            3,
            "remember_memory",
            json!({"namespace": "prefs", "text": "Reply in French."}),
        ),
        call(4, "memory", json!({"command": "view", "path": "/memories"})),
        call(5, "no_such_tool", json!({})),
    ]);
    let (status, messages, stderr) = serve(&home, &["--session", &session], &[], &lines);
    assert_eq!(status, 0, "end of input stops the server cleanly: {stderr}");
    let answers = by_id(messages);
    let init = &answers[&1]["result"];
    assert_eq!(init["protocolVersion"], "2025-06-18");
    assert_eq!(init["serverInfo"]["name"], "agent-memory");
    assert_eq!(init["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    let names: Vec<&str> = answers[&2]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "remember_memory",
            "recall_memories",
            "list_memories",
            "forget_memory",
            "memory"
        ]
    );
    // The descriptors are the facade's, unchanged.
    let facade = serde_json::to_value(agent_memory::tools()).unwrap();
    assert_eq!(
        answers[&2]["result"]["tools"][1]["inputSchema"],
        facade[1]["inputSchema"]
    );
    // Every tool says how it behaves, each hint given, and its title twice (clients read the
    // tool's `title` or the annotations').
    for t in answers[&2]["result"]["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        let (title, read_only, destructive, idempotent) = match name {
            "remember_memory" => ("Remember a note", false, false, false),
            "recall_memories" => ("Recall notes", true, false, true),
            "list_memories" => ("List notes", true, false, true),
            "forget_memory" => ("Forget a note", false, true, true),
            "memory" => ("Memory files", false, true, false),
            other => panic!("unexpected tool {other}"),
        };
        assert_eq!(t["title"], title, "{name}");
        assert_eq!(
            t["annotations"],
            json!({
                "title": title,
                "readOnlyHint": read_only,
                "destructiveHint": destructive,
                "idempotentHint": idempotent,
                "openWorldHint": false
            }),
            "{name}"
        );
    }
    let remembered = &answers[&3]["result"];
    assert_eq!(remembered["isError"], false);
    assert_eq!(
        remembered["structuredContent"]["memory"]["text"],
        "Reply in French."
    );
    assert!(
        remembered["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("<untrusted-memory ")
    );
    let viewed = &answers[&4]["result"];
    assert_eq!(viewed["isError"], false);
    assert!(
        viewed["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("/memories/project-notes"),
        "{viewed}"
    );
    // An unknown tool cannot be routed: a protocol error, not a tool result.
    assert_eq!(answers[&5]["error"]["code"], -32602);
    assert!(stderr.contains("stopped"), "{stderr}");
}

#[test]
fn every_line_gets_an_answer_even_one_that_is_not_json() {
    let (home, session) = home_with_session();
    let mut input = Vec::new();
    for line in handshake() {
        writeln!(input, "{line}").unwrap();
    }
    // A truncated request, a line that is not UTF-8, and tools/call with params rmcp cannot
    // read: each gets its answer, and the server goes on serving.
    input.extend(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/li\n");
    input.extend(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"x\":\"\xff\"}\n");
    for line in [
        request(
            4,
            "tools/call",
            json!({"name": "list_memories", "arguments": "limit=1"}),
        ),
        request(5, "tools/call", json!({"arguments": {}})),
        call(
            7,
            "memory",
            json!({"command": "insert", "path": "/memories/project-notes/none.md", "insert_line": "1", "insert_text": "x"}),
        ),
        request(8, "ping", json!({})),
    ] {
        writeln!(input, "{line}").unwrap();
    }
    let (status, messages, stderr) = serve_raw(&home, &["--session", &session], &[], &input);
    assert_eq!(status, 0, "{stderr}");
    let (unanswerable, answered): (Vec<Value>, Vec<Value>) =
        messages.into_iter().partition(|m| m["id"].is_null());
    let parse_error =
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}});
    assert_eq!(unanswerable, [parse_error.clone(), parse_error]);
    let answers = by_id(answered);
    assert_eq!(answers.keys().copied().collect::<Vec<_>>(), [1, 4, 5, 7, 8]);
    for id in [4, 5] {
        assert_eq!(
            answers[&id]["error"]["code"], -32602,
            "invalid params, not method not found: {}",
            answers[&id]
        );
    }
    // A numeric string is the line number (the facade's rule, the same in replay): the command
    // is read, and fails only because the file does not exist.
    assert_eq!(
        answers[&7]["result"]["content"][0]["text"],
        "Error: The path /memories/project-notes/none.md does not exist"
    );
    assert_eq!(answers[&8]["result"], json!({}));
}

#[test]
fn the_credential_comes_from_the_flag_or_the_environment() {
    let (home, _) = home_with_session();
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join("config.json")).unwrap())
            .unwrap();
    let local = config["credential"].as_str().unwrap();
    let mut lines = handshake();
    lines.push(call(2, "list_memories", json!({})));
    let answer = |args: &[&str], env: &[(&str, &str)]| {
        let (status, messages, stderr) = serve(&home, args, env, &lines);
        assert_eq!(status, 0, "{stderr}");
        by_id(messages)[&2]["result"].clone()
    };
    for known in [
        answer(&["--credential", local], &[]),
        answer(&[], &[("AGENT_MEMORY_CREDENTIAL", local)]),
    ] {
        assert_eq!(known["isError"], false, "{known}");
    }
    for unknown in [
        answer(&["--credential", "cred_other"], &[]),
        answer(&[], &[("AGENT_MEMORY_CREDENTIAL", "cred_other")]),
        // The flag wins over the environment.
        answer(
            &["--credential", "cred_other"],
            &[("AGENT_MEMORY_CREDENTIAL", local)],
        ),
    ] {
        assert_eq!(unknown["isError"], true, "{unknown}");
        assert_eq!(
            unknown["structuredContent"]["error"]["code"],
            "AGENT_CREDENTIAL_INVALID"
        );
        let text = unknown["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("AGENT_CREDENTIAL_INVALID: "), "{text}");
    }
}

#[test]
fn a_missing_session_or_home_stops_the_server_before_it_serves() {
    let (home, _) = home_with_session();
    let (status, messages, stderr) = serve(
        &home,
        &["--session", "sesn_01aaaaaaaaaaaaaaaaaaaaaaaa"],
        &[],
        &handshake(),
    );
    assert_eq!(status, 1);
    assert!(messages.is_empty(), "nothing on stdout");
    assert!(stderr.contains("SESSION_NOT_FOUND"), "{stderr}");
    let (status, messages, stderr) = serve(
        &home,
        &[],
        &[("AGENT_MEMORY_SESSION", "not a session")],
        &handshake(),
    );
    assert_eq!((status, messages.len()), (1, 0));
    assert!(stderr.contains("SESSION_NOT_FOUND"), "{stderr}");

    let empty = LocalHome::new();
    let (status, messages, stderr) = serve(&empty, &[], &[], &handshake());
    assert_eq!((status, messages.len()), (1, 0));
    assert!(stderr.contains("agent-memory init"), "{stderr}");
}

/// The home's `limits` in `config.json`: the owner's own commands are not rate-limited, the
/// agents of `mcp` are (and count what the owner wrote), the shorter text limit holds for
/// both, and limits outside their bounds stop the home from opening with a clear error.
#[test]
fn the_homes_limits_hold_for_agents_and_the_owner_is_not_rate_limited() {
    let home = LocalHome::new();
    home.json(&["init"]);
    let config_path = home.path().join("config.json");
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).unwrap()).unwrap();
    config["limits"] = json!({"remembersPerHour": 2, "textMaxChars": 30});
    std::fs::write(&config_path, config.to_string()).unwrap();
    // Three of the owner's own remembers: no rate limit on the command line.
    for i in 0..3 {
        home.ok(&["remember", "-n", "prefs", &format!("owner note {i}")]);
    }
    let (code, _, stderr) = home.run(&["remember", "-n", "prefs", &"x".repeat(31)]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("the length of text must be from 1 to 30 on this service"),
        "{stderr}"
    );
    // The agent's credential already has three accepts in the hour: refused.
    let mut lines = handshake();
    lines.push(call(
        2,
        "remember_memory",
        json!({"namespace": "prefs", "text": "agent note"}),
    ));
    let (status, messages, stderr) = serve(&home, &[], &[], &lines);
    assert_eq!(status, 0, "{stderr}");
    let answers = by_id(messages);
    let refused = &answers[&2]["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["structuredContent"]["error"]["code"],
        "AGENT_MEMORY_RATE_LIMITED"
    );
    // Out of bounds: the home does not open, and says which limit and its bounds.
    config["limits"] = json!({"remembersPerHour": 0});
    std::fs::write(&config_path, config.to_string()).unwrap();
    let (code, _, stderr) = home.run(&["list"]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("remembersPerHour must be from 1 to 1000000"),
        "{stderr}"
    );
}

/// Runs `agent-memory --home HOME mcp --print-config ARGS` in `dir` with `env`; the exit
/// status, stdout and stderr.
fn print_config(
    dir: &std::path::Path,
    home: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .current_dir(dir)
        .args(["--home", home, "mcp", "--print-config"])
        .args(args)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_CREDENTIAL")
        .env_remove("AGENT_MEMORY_SESSION")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .env_remove("AGENT_MEMORY_CANDIDATE_WINDOW")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("agent-memory runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn print_config_names_this_binary_and_the_home_absolutely_and_its_command_serves() {
    let (home, session) = home_with_session();
    // A relative --home, resolved from the working directory.
    let (status, stdout, stderr) =
        print_config(home.scratch(), "home", &["--session", &session], &[]);
    assert_eq!(status, 0, "{stderr}");
    let config: Value = serde_json::from_str(&stdout).expect("stdout is one JSON document");
    let servers = config["mcpServers"].as_object().unwrap();
    assert_eq!(servers.len(), 1, "{config}");
    let server = &servers["agent-memory"];
    let command = PathBuf::from(server["command"].as_str().unwrap());
    assert!(command.is_absolute() && command.is_file(), "{config}");
    assert_eq!(
        command,
        std::fs::canonicalize(env!("CARGO_BIN_EXE_agent-memory")).unwrap()
    );
    let home_path = std::fs::canonicalize(home.path()).unwrap();
    assert!(home_path.is_absolute());
    assert_eq!(
        server["args"],
        json!(["mcp", "--home", home_path, "--session", session]),
        "{config}"
    );

    // What the client would start, started elsewhere, serves this home with the memory tool.
    let args: Vec<&str> = server["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let mut input = Vec::new();
    for line in handshake()
        .iter()
        .chain([&request(2, "tools/list", json!({}))])
    {
        writeln!(input, "{line}").unwrap();
    }
    let mut child = Command::new(&command)
        .args(&args)
        .current_dir(std::env::temp_dir())
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_CREDENTIAL")
        .env_remove("AGENT_MEMORY_SESSION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the printed command starts");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let answers = by_id(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    );
    assert_eq!(answers[&1]["result"]["serverInfo"]["name"], "agent-memory");
    assert_eq!(
        answers[&2]["result"]["tools"].as_array().unwrap().len(),
        5,
        "the four agent-memory tools and the memory tool"
    );

    // Flags given through the environment are written out as flags.
    let (status, stdout, stderr) = print_config(
        home.scratch(),
        home.path().to_str().unwrap(),
        &["--candidate-window", "50"],
        &[("AGENT_MEMORY_CREDENTIAL", "cred_other")],
    );
    assert_eq!(status, 0, "{stderr}");
    let config: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        config["mcpServers"]["agent-memory"]["args"],
        json!([
            "mcp",
            "--home",
            home_path,
            "--credential",
            "cred_other",
            "--candidate-window",
            "50"
        ])
    );
}

#[test]
fn print_config_refuses_a_home_that_was_not_initialised() {
    let empty = LocalHome::new();
    let (status, stdout, stderr) = print_config(empty.scratch(), "home", &[], &[]);
    assert_eq!(status, 1, "{stdout}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("agent-memory init"), "{stderr}");
}

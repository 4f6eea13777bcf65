//! Storage failures a person can act on: a redb or sled database another process holds (exit 3;
//! a SQLite home is shared, see `shared_home`), a full disk (exit 4), a read-only home (exit 5; `list`, `recall` and `export` still read it), each
//! with its stable code, and with `--json` the error body on stdout.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::local::LocalHome;

const BIN: &str = env!("CARGO_BIN_EXE_agent-memory");

/// Runs `sh -c SCRIPT sh ARGS…` (the script sees the binary and the home as `$1`, `$2`);
/// returns (status, stdout, stderr).
fn sh(script: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg("sh")
        .args(args)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn body(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{stdout}: {e}"))
}

#[test]
fn a_redb_home_another_process_holds_is_exit_3_storage_locked() {
    let home = LocalHome::new();
    // redb and sled are single-process databases: homes created on them before SQLite was the
    // default keep answering so.
    home.ok(&["init", "--backend", "redb"]);
    home.ok(&["remember", "-n", "prefs", "Reply tersely."]);
    // The MCP server holds the database until its stdin closes.
    let mut server = Command::new(BIN)
        .arg("--home")
        .arg(home.path())
        .arg("mcp")
        .env_remove("AGENT_MEMORY_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its start-up line says the database is open.
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    assert!(line.contains("serving"), "{line}");

    let (status, stdout, err) = home.run(&["list", "--json"]);
    assert_eq!(status, 3, "{err}");
    assert_eq!(
        body(&stdout),
        json!({"error": {"code": "STORAGE_LOCKED", "message": "the database is open in another process"}})
    );
    assert!(err.starts_with("error: STORAGE_LOCKED: "), "{err}");
    assert!(err.contains("Database already open"), "the cause: {err}");
    let (status, stdout, err) = home.run(&["remember", "-n", "prefs", "x"]);
    assert_eq!((status, stdout.as_str()), (3, ""), "{err}");

    drop(server.stdin.take());
    assert!(server.wait().unwrap().success());
    assert_eq!(home.run(&["list"]).0, 0, "free again");
}

#[test]
fn a_redb_vacuum_that_runs_out_of_space_is_exit_4_and_removes_its_copy() {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", "redb"]);
    let store = home.json(&["stores", "create", "Big"]);
    let store = store["id"].as_str().unwrap();
    // Incompressible content, 6 × 90 kB: the database is larger than the limit below.
    let mut state = 1u64;
    let content: String = (0..90_000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'a' + (state >> 59) as u8 % 26)
        })
        .collect();
    for i in 0..6 {
        let path = format!("/f{i}.md");
        home.run_with_stdin(&["memories", "create", "--store", store, &path], &content);
    }
    let listed = home.json(&["memories", "list", "--store", store]);
    assert_eq!(listed["data"].as_array().unwrap().len(), 6);
    let database = home.path().join("memory.redb");
    assert!(std::fs::metadata(&database).unwrap().len() > 400 * 1024);

    // A file-size limit (EFBIG, SIGXFSZ ignored) stands in for a full disk: the copy's writes
    // fail part-way, as they would on a full disk, and no privilege is needed.
    let (status, stdout, err) = sh(
        "trap '' XFSZ; ulimit -f 400; exec \"$1\" --home \"$2\" vacuum --json",
        &[BIN, home.path().to_str().unwrap()],
    );
    assert_eq!(status, 4, "{err}");
    assert_eq!(body(&stdout)["error"]["code"], "STORAGE_FULL");
    assert!(err.starts_with("error: STORAGE_FULL: "), "{err}");
    assert!(
        !home.path().join("memory.redb.vacuum").exists(),
        "the partial copy is removed"
    );
    // Everything is still there, and a vacuum with room succeeds.
    let listed = home.json(&["memories", "list", "--store", store]);
    assert_eq!(listed["data"].as_array().unwrap().len(), 6);
    assert!(home.json(&["vacuum"])["entries"].as_u64().is_some());
}

/// Runs `agent-memory --home HOME ARGS` with HOME read-only: a read-only bind mount in a mount
/// namespace of its own when the test runs as root (root ignores permission bits), else the
/// home's write permissions removed. `None` when neither can be arranged here.
fn on_read_only_home(home: &Path, args: &[&str]) -> Option<(i32, String, String)> {
    let root = std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"));
    let home = home.to_str().unwrap();
    let mut argv = vec![BIN, home];
    argv.extend_from_slice(args);
    if root {
        let probe = sh("unshare -m true", &[]);
        if probe.0 != 0 {
            return None;
        }
        return Some(sh(
            "unshare -m sh -c 'mount --bind \"$2\" \"$2\" && mount -o remount,bind,ro \"$2\" && \
             b=\"$1\" && h=\"$2\" && shift 2 && exec \"$b\" --home \"$h\" \"$@\"' sh \"$@\"",
            &argv,
        ));
    }
    Some(sh(
        "chmod -R a-w \"$2\"; b=\"$1\"; h=\"$2\"; shift 2; \"$b\" --home \"$h\" \"$@\"; s=$?; \
         chmod -R u+w \"$h\"; exit $s",
        &argv,
    ))
}

#[test]
fn a_read_only_home_can_still_be_read_and_writes_are_exit_5() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    home.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply tersely."]);
    let Some((status, stdout, err)) = on_read_only_home(&home.path(), &["list", "--json"]) else {
        println!("SKIPPED: no read-only mount (unshare -m) for root here");
        return;
    };
    assert_eq!(status, 0, "list reads a read-only home: {err}");
    assert_eq!(body(&stdout)["memories"][0]["text"], "Reply tersely.");
    let (status, stdout, err) = on_read_only_home(&home.path(), &["export"]).unwrap();
    assert_eq!(status, 0, "{err}");
    assert!(stdout.contains("Reply tersely."), "{stdout}");
    let (status, stdout, err) =
        on_read_only_home(&home.path(), &["recall", "how terse?", "--json"]).unwrap();
    assert_eq!(status, 0, "{err}");
    assert_eq!(body(&stdout)["memories"].as_array().unwrap().len(), 1);

    let (status, stdout, err) =
        on_read_only_home(&home.path(), &["remember", "-n", "prefs", "x", "--json"]).unwrap();
    assert_eq!(status, 5, "{err}");
    assert_eq!(
        body(&stdout),
        json!({"error": {"code": "STORAGE_READ_ONLY", "message": "the database is read-only"}})
    );
    assert!(err.starts_with("error: STORAGE_READ_ONLY: "), "{err}");
}

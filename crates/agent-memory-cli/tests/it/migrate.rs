//! `agent-memory migrate --to sqlite`: a home created on redb or sled moves to SQLite with
//! everything it holds, and every read gives the same answer afterwards.

use serde_json::Value;

use crate::local::LocalHome;

fn string(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_else(|| panic!("a string: {value}"))
        .to_owned()
}

/// Fills a home with what a user makes: settings, keyed and keyless agent memories (a
/// supersede, a forget, masked text), and two stores whose memories were created, updated,
/// moved, deleted, restored and redacted, one store archived. Returns the
/// ids the reads below need: (store, archived store, session).
fn fill(home: &LocalHome) -> (String, String, String) {
    home.ok(&["settings", "--retention-days", "90"]);
    for id in ["p1", "p2"] {
        home.ok(&[
            "passage",
            "put",
            "--id",
            id,
            "--document",
            "handbook",
            "--collection",
            "policies",
            "--text",
            "Refunds take 14 days.",
        ]);
    }
    home.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply tersely."]);
    home.ok(&[
        "remember",
        "-n",
        "prefs",
        "-k",
        "tone",
        "Reply very tersely.",
    ]);
    home.ok(&["remember", "-n", "prefs", "Mail me at dana@example.com"]);
    let gone = home.json(&["remember", "-n", "scratch", "Forget me."]);
    home.ok(&["forget", &string(&gone["memory"]["id"])]);
    home.ok(&[
        "remember",
        "-n",
        "facts",
        "-k",
        "units",
        "Prefer metric units.",
    ]);

    let store = string(&home.json(&["stores", "create", "Notes"])["id"]);
    let create = |path: &str, content: &str| {
        let (status, out, err) = home.run_with_stdin(
            &["memories", "create", "--store", &store, path, "--json"],
            content,
        );
        assert_eq!(status, 0, "{err}");
        let created: Value = serde_json::from_str(&out).unwrap();
        string(&created["id"])
    };
    let plan = create("/plan.md", "Ship it.\n");
    let todo = create("/todo.md", "Write the docs.\n");
    home.run_with_stdin(
        &["memories", "update", "--store", &store, &plan],
        "Ship it on Friday.\n",
    );
    let session = string(&home.json(&["sessions", "create", "--store", &store])["id"]);
    home.ok(&[
        "fs",
        "mv",
        "--session",
        &session,
        "/mnt/memory/notes/todo.md",
        "/mnt/memory/notes/done/todo.md",
    ]);
    home.ok(&["memories", "delete", "--store", &store, &todo]);
    let versions = home.json(&["versions", "list", "--store", &store, "--memory", &todo]);
    let first = string(&versions["data"].as_array().unwrap().last().unwrap()["id"]);
    home.ok(&["memories", "restore", "--store", &store, &todo, &first]);
    // The plan's first content is redacted.
    let versions = home.json(&["versions", "list", "--store", &store, "--memory", &plan]);
    let oldest = string(&versions["data"].as_array().unwrap().last().unwrap()["id"]);
    home.ok(&["versions", "redact", "--store", &store, &oldest]);

    let old = string(&home.json(&["stores", "create", "Old"])["id"]);
    home.run_with_stdin(
        &["memories", "create", "--store", &old, "/a.md"],
        "Archived.\n",
    );
    home.ok(&["stores", "archive", &old]);
    (store, old, session)
}

/// Everything the home answers to reads, as printed.
fn reads(home: &LocalHome, store: &str, old: &str) -> Vec<String> {
    let mut out = vec![
        home.ok(&["export"]),
        home.ok(&["list", "--json"]),
        home.ok(&["list", "--json", "--namespace", "prefs"]),
        home.ok(&["settings", "--json"]),
        home.ok(&["passage", "list", "--json"]),
        home.ok(&["stores", "list", "--include-archived", "--json"]),
    ];
    for s in [store, old] {
        out.push(home.ok(&["memories", "list", "--store", s, "--json"]));
        out.push(home.ok(&["versions", "list", "--store", s, "--json"]));
    }
    out
}

fn migrate_keeps_everything(backend: &str) {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", backend]);
    let (store, old, _) = fill(&home);
    let before = reads(&home, &store, &old);

    let migrated = home.json(&["migrate", "--to", "sqlite"]);
    assert_eq!(migrated["from"]["backend"], backend);
    assert_eq!(migrated["to"]["backend"], "sqlite");
    // Two versions of `tone`, the keyless mail and `units` (the forgotten one is gone).
    assert_eq!(migrated["agentMemoryVersions"], 4);
    assert_eq!(migrated["stores"], 2);
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join("config.json")).unwrap())
            .unwrap();
    assert_eq!(config["backend"], "sqlite");
    assert!(home.path().join("memory.sqlite").is_file());
    assert!(
        home.path().join(format!("memory.{backend}")).exists(),
        "the old database is left in place"
    );

    let after = reads(&home, &store, &old);
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b, a, "a read answers the same after the migrate");
    }
    // The home goes on from where it was: the key's numbering, the archived store's refusal.
    let next = home.json(&["remember", "-n", "prefs", "-k", "tone", "Reply in French."]);
    assert_eq!(next["memory"]["version"], 3);
    assert_eq!(next["superseded"], 1);
    let (status, _, err) =
        home.run_with_stdin(&["memories", "create", "--store", &old, "/b.md"], "x");
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("MEMORY_STORE_ARCHIVED"), "{err}");
    // A second migrate has nothing to do.
    let (status, _, err) = home.run(&["migrate", "--to", "sqlite"]);
    assert_eq!(status, 1);
    assert!(err.contains("already uses sqlite"), "{err}");
}

#[test]
fn a_redb_home_migrated_to_sqlite_reads_the_same() {
    migrate_keeps_everything("redb");
}

#[test]
fn a_sled_home_migrated_to_sqlite_reads_the_same() {
    migrate_keeps_everything("sled");
}

#[test]
fn migrate_refuses_while_an_mcp_server_holds_a_redb_home_and_copies_nothing() {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", "redb"]);
    home.ok(&["remember", "-n", "prefs", "Reply tersely."]);
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .arg("--home")
        .arg(home.path())
        .arg("mcp")
        .env_remove("AGENT_MEMORY_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    assert!(line.contains("serving"), "{line}");
    let (status, _, err) = home.run(&["migrate"]);
    assert_eq!(status, 3, "STORAGE_LOCKED: {err}");
    drop(server.stdin.take());
    assert!(server.wait().unwrap().success());
    // The home is as it was, and the migrate runs once the server has stopped.
    let config = std::fs::read_to_string(home.path().join("config.json")).unwrap();
    assert!(config.contains("\"redb\""), "{config}");
    home.ok(&["migrate"]);
    assert_eq!(
        home.json(&["list"])["memories"][0]["text"],
        "Reply tersely."
    );
}

//! The memory-store commands on a home directory: `stores`, `memories`, `versions`, `sessions`,
//! `fs` and `vacuum`, each its own process, acting as the home's owner member (or, for `fs`, as a
//! session), on the embedded database that the agent-memory commands use too.

use std::path::Path;

use serde_json::Value;

use crate::local::LocalHome;

fn string(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_else(|| panic!("a string: {value}"))
        .to_owned()
}

/// Every byte of the database (the redb file, or every file of the sled directory).
fn database_bytes(path: &Path) -> Vec<u8> {
    if path.is_file() {
        return std::fs::read(path).unwrap();
    }
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let entry = entry.unwrap().path();
        if entry.is_dir() {
            bytes.extend(database_bytes(&entry));
        } else {
            bytes.extend(std::fs::read(&entry).unwrap());
        }
    }
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// stores create → memories create from a file → update with a good and a stale --if-sha256 →
/// versions list → redact → sessions create → fs ls / cat / write → vacuum.
fn store_lifecycle(backend: &str) {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", backend]);

    let store = home.json(&[
        "stores",
        "create",
        "Project Notes",
        "--description",
        "Decisions and conventions of the project.",
    ]);
    assert_eq!(store["type"], "memory_store");
    assert_eq!(store["pii_policy"], "allow");
    let store_id = string(&store["id"]);
    let reference = home.json(&["stores", "create", "Reference", "--pii-policy", "mask"]);
    let reference_id = string(&reference["id"]);
    let listed = home.ok(&["stores", "list"]);
    assert!(
        listed.contains("Project Notes") && listed.contains("Reference  (pii mask"),
        "{listed}"
    );

    // The content comes from a file, byte for byte (the trailing line break included).
    let file = home.scratch().join("decision.md");
    std::fs::write(&file, "Use redb. Secret marker ZEBRA-7731.\n").unwrap();
    let created = home.json(&[
        "memories",
        "create",
        "--store",
        &store_id,
        "/decisions.md",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(created["content"], "Use redb. Secret marker ZEBRA-7731.\n");
    assert_eq!(created["content_size_bytes"], 36);
    let memory_id = string(&created["id"]);
    let first_hash = string(&created["content_sha256"]);
    let first_version = string(&created["version_id"]);
    let shown = home.ok(&["memories", "get", "--store", &store_id, &memory_id]);
    assert!(
        shown.contains(&first_hash) && shown.contains("Use redb. Secret marker"),
        "{shown}"
    );

    // Update from standard input with the current hash, then again with the stale one.
    let (status, stdout, stderr) = home.run_with_stdin(
        &[
            "memories",
            "update",
            "--store",
            &store_id,
            &memory_id,
            "--if-sha256",
            &first_hash,
            "--json",
        ],
        "Use redb; sled for tests.\n",
    );
    assert_eq!(status, 0, "{stderr}");
    let updated: Value = serde_json::from_str(&stdout).unwrap();
    let second_hash = string(&updated["content_sha256"]);
    assert_ne!(second_hash, first_hash);
    let (_, stderr) = home.fails_with(
        &[
            "memories",
            "update",
            "--store",
            &store_id,
            &memory_id,
            "--if-sha256",
            &first_hash,
            "--file",
            file.to_str().unwrap(),
        ],
        "MEMORY_PRECONDITION_FAILED",
    );
    assert!(
        stderr.contains(&second_hash),
        "the current hash is named: {stderr}"
    );
    let (stdout, _) = home.fails_with(
        &[
            "memories",
            "delete",
            "--store",
            &store_id,
            &memory_id,
            "--if-sha256",
            &first_hash,
            "--json",
        ],
        "MEMORY_PRECONDITION_FAILED",
    );
    let body: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        body["error"]["current_content_sha256"],
        second_hash.as_str()
    );

    // --path alone moves the memory and keeps its content (no standard input is read).
    let moved = home.json(&[
        "memories",
        "update",
        "--store",
        &store_id,
        &memory_id,
        "--path",
        "/adr/0001.md",
    ]);
    assert_eq!(moved["path"], "/adr/0001.md");
    assert_eq!(moved["content_sha256"], second_hash.as_str());

    // Versions, newest first: modified (rename), modified, created — by the owner member.
    let versions = home.json(&[
        "versions", "list", "--store", &store_id, "--memory", &memory_id,
    ]);
    let operations: Vec<&str> = versions["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["operation"].as_str().unwrap())
        .collect();
    assert_eq!(operations, ["modified", "modified", "created"]);
    assert_eq!(
        versions["data"][2]["created_by"],
        serde_json::json!({"type": "user_actor", "user_id": "owner"})
    );
    let human = home.ok(&["versions", "list", "--store", &store_id]);
    assert!(
        human.contains("  created  ") && human.contains("by user owner"),
        "{human}"
    );

    // Redact the first version; the current one cannot be redacted.
    let redacted = home.json(&["versions", "redact", "--store", &store_id, &first_version]);
    assert_eq!(redacted["content"], Value::Null);
    assert_eq!(redacted["path"], Value::Null);
    assert!(redacted["redacted_at"].is_string());
    let current = string(&moved["version_id"]);
    home.fails_with(
        &["versions", "redact", "--store", &store_id, &current],
        "MEMORY_VERSION_IS_CURRENT",
    );
    let again = home.ok(&["versions", "get", "--store", &store_id, &first_version]);
    assert!(
        again.contains("[redacted") && !again.contains("ZEBRA"),
        "{again}"
    );

    // A session with both stores, the second read-only; the agent's view of the mounts.
    let session = home.ok(&[
        "sessions",
        "create",
        "--store",
        &store_id,
        "--store",
        &format!("{reference_id}:ro"),
        "--instructions",
        "Record every decision here.",
    ]);
    assert!(
        session.contains("/mnt/memory/project-notes/  read_write")
            && session.contains("/mnt/memory/reference/  read_only"),
        "{session}"
    );
    let session_id = session
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("session "))
        .expect("the first line names the session")
        .to_owned();
    let mounts = home.ok(&["fs", "ls", "--session", &session_id]);
    assert_eq!(mounts, "dir   project-notes/\ndir   reference/\n");
    let root = home.ok(&[
        "fs",
        "ls",
        "--session",
        &session_id,
        "/mnt/memory/project-notes/",
    ]);
    assert_eq!(root, "dir   adr/\n");
    let content = home.ok(&[
        "fs",
        "cat",
        "--session",
        &session_id,
        "/mnt/memory/project-notes/adr/0001.md",
    ]);
    assert_eq!(
        content, "Use redb; sled for tests.\n",
        "cat prints it exactly"
    );
    let (status, _, stderr) = home.run_with_stdin(
        &[
            "fs",
            "write",
            "--session",
            &session_id,
            "/mnt/memory/reference/new.md",
        ],
        "x",
    );
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("error: MEMORY_STORE_READ_ONLY: "),
        "{stderr}"
    );
    let (status, _, stderr) = home.run_with_stdin(
        &[
            "fs",
            "write",
            "--session",
            &session_id,
            "/mnt/memory/project-notes/todo.md",
        ],
        "review the ADR\n",
    );
    assert_eq!(status, 0, "{stderr}");
    let prompt = home.ok(&["sessions", "prompt", &session_id]);
    assert!(
        prompt.contains("/mnt/memory/project-notes/") && prompt.contains("Record every decision"),
        "{prompt}"
    );

    // vacuum: the redacted content leaves the database files; everything live stays.
    let database = home.path().join(format!("memory.{backend}"));
    let report = home.json(&["vacuum"]);
    assert!(report["bytes_after"].is_u64() && report["entries"].is_u64());
    assert!(
        !contains(&database_bytes(&database), "ZEBRA-7731"),
        "vacuum removed the redacted content from {}",
        database.display()
    );
    let human = home.ok(&["vacuum"]);
    assert!(human.starts_with("vacuumed "), "{human}");
    let after = home.json(&["memories", "list", "--store", &store_id]);
    let paths: Vec<&str> = after["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/adr/0001.md", "/todo.md"]);
}

#[test]
fn store_lifecycle_on_redb() {
    store_lifecycle("redb");
}

#[test]
fn store_lifecycle_on_sled() {
    store_lifecycle("sled");
}

#[test]
fn store_errors_exit_1_with_the_spec_code() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let store = home.json(&["stores", "create", "Notes"]);
    let id = string(&store["id"]);
    home.fails_with(&["stores", "create", ""], "MEMORY_INVALID_REQUEST");
    home.fails_with(
        &["stores", "get", "memstore_01JZZZZZZZZZZZZZZZZZZZZZZZ"],
        "MEMORY_STORE_NOT_FOUND",
    );
    let (status, _, stderr) =
        home.run_with_stdin(&["memories", "create", "--store", &id, "relative.md"], "x");
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("error: MEMORY_PATH_INVALID: "),
        "{stderr}"
    );
    let (status, _, _) = home.run_with_stdin(&["memories", "create", "--store", &id, "/a"], "x");
    assert_eq!(status, 0);
    let (status, _, stderr) =
        home.run_with_stdin(&["memories", "create", "--store", &id, "/a/b"], "y");
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("error: MEMORY_PATH_CONFLICT: "),
        "{stderr}"
    );
    home.fails_with(
        &["fs", "ls", "--session", "sesn_01JZZZZZZZZZZZZZZZZZZZZZZZ"],
        "SESSION_NOT_FOUND",
    );
    home.fails_with(
        &["fs", "ls", "--session", "not-a-session"],
        "SESSION_NOT_FOUND",
    );
    home.ok(&["stores", "archive", &id]);
    let (status, _, stderr) =
        home.run_with_stdin(&["memories", "create", "--store", &id, "/b"], "x");
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("error: MEMORY_STORE_ARCHIVED: "),
        "{stderr}"
    );
    home.fails_with(
        &["sessions", "create", "--store", &id],
        "MEMORY_STORE_ARCHIVED",
    );
    let deleted = home.json(&["stores", "delete", &id]);
    assert_eq!(deleted["type"], "memory_store_deleted");
    assert!(home.ok(&["stores", "list"]).contains("no memory stores"));
    // More --instructions than --store is a mistake of the command line, not of the request.
    let (status, _, stderr) = home.run(&["sessions", "create", "--instructions", "x"]);
    assert_eq!(status, 1);
    assert!(stderr.contains("--instructions"), "{stderr}");
}

#[test]
fn store_commands_before_init_fail_clearly() {
    let home = LocalHome::new();
    for args in [
        &["stores", "list"][..],
        &["vacuum"],
        &["fs", "ls", "--session", "sesn_x"],
    ] {
        let (status, _, stderr) = home.run(args);
        assert_eq!(status, 1, "{args:?}");
        assert!(
            stderr.contains("run `agent-memory init` first"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!home.path().exists());
}

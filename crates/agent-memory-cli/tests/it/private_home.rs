//! A home is private to its user: the directory 0700 and every file in it 0600, whatever the
//! backend, while processes hold the database open (SQLite's `-wal` and `-shm`), and after
//! `vacuum` and `migrate` write new files; a home with wider modes still opens, with a warning.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::local::LocalHome;

/// Every path under `root` (itself included) whose mode is not 0700 (directories) or 0600
/// (files), with its mode.
fn not_private(root: &Path) -> Vec<(PathBuf, String)> {
    let mut wrong = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = meta.permissions().mode() & 0o7777;
        let want = if meta.is_dir() { 0o700 } else { 0o600 };
        if mode != want {
            wrong.push((path.clone(), format!("{mode:04o}")));
        }
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        }
    }
    wrong
}

fn names(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Checks the home's modes while an `mcp` server holds the database open (so SQLite's `-wal`
/// and `-shm` files exist), and again after it stopped.
fn assert_private_while_open(home: &LocalHome, backend: &str) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .arg("--home")
        .arg(home.path())
        .arg("mcp")
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut logs = BufReader::new(server.stderr.take().unwrap());
    logs.read_line(&mut line).unwrap();
    assert!(line.contains("serving"), "{line}");
    let open = names(&home.path());
    let wrong = not_private(&home.path());
    drop(server.stdin.take());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut logs, &mut rest).unwrap();
    assert!(server.wait().unwrap().success(), "{line}{rest}");
    if backend == "sqlite" {
        assert!(
            open.iter().any(|n| n == "memory.sqlite-wal"),
            "the WAL exists while the server runs: {open:?}"
        );
    }
    assert!(
        wrong.is_empty(),
        "{backend}: not private while open: {wrong:?}"
    );
    let wrong = not_private(&home.path());
    assert!(wrong.is_empty(), "{backend}: not private: {wrong:?}");
}

fn every_file_of_a_home_is_private(backend: &str, migrate_to: &str) {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", backend]);
    home.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply tersely."]);
    home.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply at length."]);
    home.ok(&[
        "passage",
        "put",
        "--id",
        "p1",
        "--document",
        "d1",
        "--collection",
        "c1",
        "--text",
        "A passage.",
    ]);
    home.ok(&["config", "--candidate-window", "100"]);
    let store = home.json(&["stores", "create", "Notes"]);
    let (status, _, err) = home.run_with_stdin(
        &[
            "memories",
            "create",
            "--store",
            store["id"].as_str().unwrap(),
            "/a.md",
        ],
        "hello",
    );
    assert_eq!(status, 0, "{err}");
    home.ok(&["token", "agent"]);
    let wrong = not_private(&home.path());
    assert!(wrong.is_empty(), "{backend}: not private: {wrong:?}");
    assert_private_while_open(&home, backend);

    home.ok(&["vacuum"]);
    let wrong = not_private(&home.path());
    assert!(
        wrong.is_empty(),
        "{backend}: not private after vacuum: {wrong:?}"
    );
    home.ok(&["migrate", "--to", migrate_to]);
    let wrong = not_private(&home.path());
    assert!(
        wrong.is_empty(),
        "{backend}: not private after migrate: {wrong:?}"
    );
    home.ok(&["vacuum"]);
    assert_private_while_open(&home, migrate_to);
}

#[test]
fn every_file_of_a_sqlite_home_is_private_after_init_vacuum_and_migrate() {
    every_file_of_a_home_is_private("sqlite", "redb");
}

#[test]
fn every_file_of_a_redb_home_is_private_after_init_vacuum_and_migrate() {
    every_file_of_a_home_is_private("redb", "sled");
}

#[test]
fn every_file_of_a_sled_home_is_private_after_init_vacuum_and_migrate() {
    every_file_of_a_home_is_private("sled", "sqlite");
}

#[test]
fn a_home_readable_by_others_still_opens_with_a_warning() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    home.ok(&["remember", "-n", "prefs", "Reply tersely."]);
    let (status, _, err) = home.run(&["list"]);
    assert_eq!(status, 0);
    assert!(
        !err.contains("warning"),
        "a private home: no warning: {err}"
    );

    let root = home.path();
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (status, stdout, err) = home.run(&["list"]);
    assert_eq!(status, 0, "the home still opens: {err}");
    assert!(stdout.contains("Reply tersely."), "{stdout}");
    let shown = root.display().to_string();
    assert!(
        err.contains("warning:") && err.contains(&shown) && err.contains("0755"),
        "the warning names the path and its mode: {err}"
    );
    assert!(err.contains("chmod"), "and says how to fix it: {err}");
    assert!(!err.contains("Reply tersely."), "no content: {err}");

    // A file readable by others is named too; the fix the warning gives makes it go away.
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o700)).unwrap();
    let audit = root.join("audit.jsonl");
    std::fs::set_permissions(&audit, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (status, _, err) = home.run(&["remember", "-n", "prefs", "More."]);
    assert_eq!(status, 0, "{err}");
    assert!(
        err.contains(&audit.display().to_string()) && err.contains("0644"),
        "{err}"
    );
    let fix = Command::new("chmod")
        .args(["-R", "go-rwx"])
        .arg(&root)
        .status()
        .unwrap();
    assert!(fix.success());
    let (status, _, err) = home.run(&["list"]);
    assert_eq!(status, 0);
    assert!(!err.contains("warning"), "fixed: {err}");
}

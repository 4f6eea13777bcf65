//! `agent-memory mount`: refusals of a missing or non-empty directory and an unknown session,
//! and a real mount in a child process, used through the kernel, unmounted by SIGTERM, with the
//! versions listed afterwards by `versions list --json`.
//!
//! The real mount needs FUSE, so it is `#[ignore]`d: `cargo test -p govmem-agent-memory-cli --
//! --ignored` runs it, failing where `/dev/fuse` cannot be opened or mounting is not permitted.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::local::LocalHome;

fn string(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_else(|| panic!("a string: {value}"))
        .to_owned()
}

/// A home with one read-write store (`notes`), one read-only store (`shared`, `/fact.md`) and a
/// session mounting both; (home, notes store id, session id).
fn home_with_session() -> (LocalHome, String, String) {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let notes = string(&home.json(&["stores", "create", "Notes"])["id"]);
    let shared = string(&home.json(&["stores", "create", "Shared"])["id"]);
    let fact = home.scratch().join("fact.md");
    std::fs::write(&fact, "fixed\n").unwrap();
    home.ok(&[
        "memories",
        "create",
        "--store",
        &shared,
        "/fact.md",
        "--file",
        fact.to_str().unwrap(),
    ]);
    let read_only = format!("{shared}:ro");
    let session = string(
        &home.json(&[
            "sessions", "create", "--store", &notes, "--store", &read_only,
        ])["id"],
    );
    (home, notes, session)
}

#[test]
fn mount_refuses_a_missing_or_non_empty_directory_and_an_unknown_session() {
    let (home, _, session) = home_with_session();
    let missing = home.scratch().join("missing");
    let (status, _, stderr) =
        home.run(&["mount", "--session", &session, missing.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(stderr.contains("does not exist"), "{stderr}");
    let full = home.scratch().join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("file"), "x").unwrap();
    let (status, _, stderr) = home.run(&["mount", "--session", &session, full.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(stderr.contains("is not empty"), "{stderr}");
    let empty = home.scratch().join("empty");
    std::fs::create_dir(&empty).unwrap();
    home.fails_with(
        &[
            "mount",
            "--session",
            "sesn_unknown",
            empty.to_str().unwrap(),
        ],
        "SESSION_NOT_FOUND",
    );
    // Nothing was mounted.
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
}

/// The running `agent-memory mount`; dropping it unmounts (`fusermount3 -u`) and ends the child,
/// also when the test failed.
struct Mounting {
    child: Child,
    dir: std::path::PathBuf,
}

impl Drop for Mounting {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = Command::new("fusermount3")
                .arg("-u")
                .arg(&self.dir)
                .output();
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Why FUSE cannot be used here: a failure, since the real mount runs only when asked for.
fn unavailable(why: String) -> ! {
    panic!(
        "this test mounts a FUSE file system, but {why} (it needs /dev/fuse and root or \
         fusermount3 from Debian's fuse3)"
    );
}

fn mounted_in_proc(dir: &Path) -> bool {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_to_string("/proc/mounts")
        .unwrap()
        .lines()
        .any(|l| l.split(' ').nth(1) == Some(dir.to_str().unwrap()))
}

#[test]
#[ignore = "needs FUSE: /dev/fuse, and root or fusermount3 (Debian's fuse3 package)"]
fn mount_serves_the_session_until_sigterm_and_every_close_is_one_version() {
    if let Err(e) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/fuse")
    {
        unavailable(format!("/dev/fuse cannot be opened ({e})"));
    }
    let (home, notes, session) = home_with_session();
    let dir = home.scratch().join("mnt");
    std::fs::create_dir(&dir).unwrap();
    let home_path = home.path();
    let child = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .args([
            "--home",
            home_path.to_str().unwrap(),
            "mount",
            "--session",
            &session,
        ])
        .arg(&dir)
        .env_remove("AGENT_MEMORY_HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-memory starts");
    let mut mounting = Mounting {
        child,
        dir: dir.clone(),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !dir.join("notes").exists() {
        if let Some(status) = mounting.child.try_wait().unwrap() {
            let out = printed(&mut mounting.child);
            if out.contains("not permitted") || out.contains("Permission denied") {
                unavailable(format!("mounting is not permitted here: {out}"));
            }
            panic!("agent-memory mount ended ({status}): {out}");
        }
        assert!(Instant::now() < deadline, "the mount did not appear");
        std::thread::sleep(Duration::from_millis(50));
    }
    let ls = |rel: &str| {
        let out = Command::new("ls").arg(dir.join(rel)).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(ls(""), "notes\nshared\n");
    // Create, read back, overwrite: one version per close.
    std::fs::write(dir.join("notes/a.md"), "first\n").unwrap();
    std::fs::write(dir.join("notes/b.md"), "to be replaced\n").unwrap();
    std::fs::write(dir.join("notes/a.md"), "second\n").unwrap();
    let cat = Command::new("cat")
        .arg(dir.join("notes/a.md"))
        .output()
        .unwrap();
    assert_eq!(cat.stdout, b"second\n");
    // Rename onto an existing file, then delete.
    let mv = Command::new("mv")
        .arg(dir.join("notes/a.md"))
        .arg(dir.join("notes/b.md"))
        .status()
        .unwrap();
    assert!(mv.success());
    assert_eq!(ls("notes"), "b.md\n");
    assert!(
        Command::new("rm")
            .arg(dir.join("notes/b.md"))
            .status()
            .unwrap()
            .success()
    );
    // Read-only: EROFS.
    let e = std::fs::write(dir.join("shared/fact.md"), "changed").unwrap_err();
    assert_eq!(e.raw_os_error(), Some(30), "{e}");
    // SIGTERM unmounts and ends the process cleanly.
    let pid = mounting.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = mounting.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "agent-memory mount did not end after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = printed(&mut mounting.child);
    assert!(status.success(), "{status}: {out}");
    assert!(out.contains("unmounted"), "{out}");
    assert!(!mounted_in_proc(&dir));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // The versions, newest first: exactly what the file operations wrote, all by the session.
    let versions = home.json(&["versions", "list", "--store", &notes]);
    let listed: Vec<(String, String)> = versions["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                string(&v["operation"]),
                v["path"].as_str().unwrap_or("").to_owned(),
            )
        })
        .rev()
        .collect();
    let pair = |op: &str, path: &str| (op.to_owned(), path.to_owned());
    assert_eq!(
        listed[..3],
        [
            pair("created", "/a.md"),
            pair("created", "/b.md"),
            pair("modified", "/a.md"),
        ]
    );
    // The replacing rename: two versions in one transaction, at one instant.
    let mut replaced = listed[3..5].to_vec();
    replaced.sort();
    assert_eq!(
        replaced,
        [pair("deleted", "/b.md"), pair("modified", "/b.md")]
    );
    assert_eq!(listed[5..], [pair("deleted", "/b.md")]);
    for v in versions["data"].as_array().unwrap() {
        assert_eq!(v["created_by"]["session_id"], session.as_str());
    }
}

/// What the ended child printed on stdout and stderr.
fn printed(child: &mut Child) -> String {
    use std::io::Read;
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut text);
    }
    text
}

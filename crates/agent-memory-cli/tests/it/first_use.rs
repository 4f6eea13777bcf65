//! First use is atomic across processes: concurrent `init`s on one new directory make one
//! workspace (the others say the home is already initialised, as a second `init` does), and
//! concurrent token reads of a home without `tokens.json` create one pair of tokens.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// Starts `agent-memory --home HOME ARGS` behind a gate: the process waits for a line on its
/// standard input before it executes the binary, so that all of a race start together.
fn spawn_gated(home: &Path, args: &[&str]) -> Child {
    Command::new("sh")
        .arg("-c")
        .arg("read _ && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_agent-memory"))
        .arg("--home")
        .arg(home)
        .args(args)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts")
}

/// Starts `n` processes at once, then waits for each: (status, stdout, stderr).
fn race(n: usize, home: &Path, args: &[&str]) -> Vec<(i32, String, String)> {
    let mut children: Vec<Child> = (0..n).map(|_| spawn_gated(home, args)).collect();
    // Every process is waiting at its gate: open them all.
    for child in &mut children {
        let mut gate = child.stdin.take().unwrap();
        gate.write_all(b"go\n").unwrap();
    }
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            (
                out.status.code().unwrap_or(-1),
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap(),
            )
        })
        .collect()
}

fn config_of(home: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(home.join("config.json")).unwrap()).unwrap()
}

#[test]
fn concurrent_inits_on_a_new_directory_make_one_workspace_and_the_others_say_so() {
    for round in 0..4 {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("new").join("home");
        let runs = race(6, &home, &["init", "--json"]);
        let won: Vec<&(i32, String, String)> = runs.iter().filter(|r| r.0 == 0).collect();
        assert_eq!(
            won.len(),
            1,
            "round {round}: exactly one init creates the workspace: {runs:#?}"
        );
        let answer: Value = serde_json::from_str(won[0].1.trim()).unwrap();
        let config = config_of(&home);
        assert_eq!(answer["config"]["workspace"], config["workspace"]);
        assert_eq!(answer["config"]["credential"], config["credential"]);
        for (status, stdout, stderr) in runs.iter().filter(|r| r.0 != 0) {
            assert_eq!(*status, 1, "{stderr}");
            assert!(stdout.is_empty(), "{stdout}");
            assert!(
                stderr.contains("already initialised"),
                "the others say so: {stderr}"
            );
        }
        // The workspace works, and it is the one the winner reported.
        let (status, out, err) = crate::run_cli(
            &["--home", home.to_str().unwrap(), "settings", "--json"],
            "",
        );
        assert_eq!(status, 0, "{err}");
        assert!(out.contains("\"agentMemoriesEnabled\":true"), "{out}");
        let leftovers: Vec<String> = std::fs::read_dir(&home)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn concurrent_token_reads_without_tokens_json_create_one_token() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let (status, _, err) = crate::run_cli(&["--home", home.to_str().unwrap(), "init"], "");
    assert_eq!(status, 0, "{err}");
    for round in 0..10 {
        std::fs::remove_file(home.join("tokens.json")).unwrap();
        let runs = race(8, &home, &["token", "agent"]);
        for (status, _, stderr) in &runs {
            assert_eq!(*status, 0, "round {round}: every read succeeds: {stderr}");
        }
        let printed: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.1.trim()).collect();
        assert_eq!(printed.len(), 1, "round {round}: one token: {printed:?}");
        let stored: Value =
            serde_json::from_str(&std::fs::read_to_string(home.join("tokens.json")).unwrap())
                .unwrap();
        assert_eq!(
            stored["agent"].as_str(),
            printed.first().copied(),
            "round {round}"
        );
    }
}

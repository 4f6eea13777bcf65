//! `agent-memory demo`, the README's "run it" command: it must run anywhere, tell the whole
//! story with the facade's real answers, and leave nothing behind unless asked to.

use serde_json::Value;

use crate::run_cli_with;

#[test]
fn the_demo_tells_the_story_in_a_temporary_directory() {
    let scratch = tempfile::tempdir().unwrap();
    // A real home named by the variable is not the demo's to take over.
    let real_home = scratch.path().join("real-home");
    let env = [("AGENT_MEMORY_HOME", real_home.as_path())];
    let (status, stdout, stderr) = run_cli_with(&["demo"], "", Some(scratch.path()), &env);
    assert_eq!(status, 0, "stderr: {stderr}");
    for expected in [
        "fresh sqlite database",
        "masked: email ×1, phone ×1",
        "stored text: Dana prefers mail at [EMAIL]; call [PHONE] only if urgent",
        "superseded: the key's previous version",
        "cites refunds-1 (document handbook v1)",
        "ranks: bm25 1, semantic 1, entity 1  [current]",
        "ranks: bm25 1, semantic 1, entity 1  [changed]",
        "Keep replies short.\n",
        "forgot 2 versions",
        "no memories",
        "\"event\":\"forget\"",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    let temp = stdout
        .lines()
        .next()
        .and_then(|l| l.rsplit(" in ").next())
        .expect("the first line names the directory");
    assert!(!std::path::Path::new(temp).exists(), "{temp} was removed");
    assert!(!real_home.exists());
    assert!(!scratch.path().join(".agent-memory").exists());
}

#[test]
fn the_demo_keeps_a_usable_home_when_home_is_given() {
    let scratch = tempfile::tempdir().unwrap();
    let home = scratch.path().join("tour");
    let home_arg = home.to_str().unwrap();
    let (status, stdout, stderr) = run_cli_with(
        &["--home", home_arg, "demo", "--backend", "sled"],
        "",
        None,
        &[],
    );
    assert_eq!(status, 0, "stderr: {stderr}");
    assert!(stdout.contains("fresh sled database"), "{stdout}");
    assert!(home.join("memory.sled").is_dir());

    let (status, stdout, _) = run_cli_with(&["--home", home_arg, "list", "--json"], "", None, &[]);
    assert_eq!(status, 0);
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    let states: Vec<&str> = listed["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["sourceState"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["changed", "uncited"], "{stdout}");

    let (status, stdout, stderr) = run_cli_with(&["--home", home_arg, "demo"], "", None, &[]);
    assert_eq!(status, 1, "a used home is refused");
    assert!(stdout.is_empty());
    assert!(stderr.contains("already initialised"), "{stderr}");
}

//! `replay --db PATH`: the scenario runs on an embedded database, which must be new or empty.

use std::path::Path;

use crate::{run_cli, run_cli_with};

fn scenario() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/03_supersede_and_asof.jsonl")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn replay_runs_on_redb_and_sled_and_refuses_a_used_database() {
    let scenario = scenario();
    let (status, in_memory, _) = run_cli(&["replay", &scenario], "");
    assert_eq!(status, 0);
    let dir = tempfile::tempdir().unwrap();
    for (backend, extra) in [("redb", &[][..]), ("sled", &["--backend", "sled"][..])] {
        let db = dir.path().join(format!("scenario.{backend}"));
        let mut args = vec!["replay", &scenario, "--db", db.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (status, stdout, stderr) = run_cli(&args, "");
        assert_eq!(status, 0, "{backend}: {stderr}");
        assert_eq!(
            stdout, in_memory,
            "{backend} answers as the in-memory backend"
        );
        match backend {
            "redb" => assert!(db.is_file()),
            _ => assert!(db.is_dir()),
        }

        let (status, stdout, stderr) = run_cli(&args, "");
        assert_eq!(status, 1, "{backend}: a used database is refused");
        assert!(stdout.is_empty(), "nothing runs: {stdout}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains("already in use"),
            "{stderr}"
        );
    }
}

#[test]
fn replay_accepts_an_empty_file_or_directory_and_needs_db_for_backend() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.redb");
    std::fs::write(&file, "").unwrap();
    let empty_dir = dir.path().join("empty.sled");
    std::fs::create_dir(&empty_dir).unwrap();
    let script = "{\"op\":\"workspace.create\",\"body\":{\"id\":\"w\"}}\n";
    for args in [
        vec!["replay", "--db", file.to_str().unwrap()],
        vec![
            "replay",
            "--db",
            empty_dir.to_str().unwrap(),
            "--backend",
            "sled",
        ],
    ] {
        let (status, stdout, stderr) = run_cli(&args, script);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        assert_eq!(stdout, "{\"status\":200,\"body\":{}}\n");
    }
    // A file is no sled database directory.
    let (status, _, stderr) = run_cli(
        &[
            "replay",
            "--db",
            file.to_str().unwrap(),
            "--backend",
            "sled",
        ],
        script,
    );
    assert_eq!(status, 1, "{stderr}");
    // --backend sled (or redb) only chooses the database of --db (postgres takes a URL instead),
    // so it is refused at run time, with the missing flag named.
    let (status, _, stderr) = run_cli_with(&["replay", "--backend", "sled"], script, None, &[]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("--db"), "{stderr}");
}

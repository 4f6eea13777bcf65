//! Passages live in the home's database: parallel `passage put` processes lose nothing, a
//! running `serve` sees a passage put after it started, a home's `passages.json` moves into the
//! database once, and a full disk is exit 4 `STORAGE_FULL` with nothing half-written.

use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::local::LocalHome;
use crate::serve::Served;

const BIN: &str = env!("CARGO_BIN_EXE_agent-memory");

/// `agent-memory --home HOME passage put --id ID …` as a child process.
fn spawn_put(home: &std::path::Path, id: &str) -> Child {
    Command::new(BIN)
        .arg("--home")
        .arg(home)
        .args(["passage", "put", "--id", id, "--document", "handbook"])
        .args(["--collection", "policies", "--text"])
        .arg(format!("Passage {id} of the handbook."))
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the agent-memory binary starts")
}

fn put(home: &LocalHome, id: &str, version: &str, text: &str) {
    home.ok(&[
        "passage",
        "put",
        "--id",
        id,
        "--document",
        "handbook",
        "--collection",
        "policies",
        "--version",
        version,
        "--text",
        text,
    ]);
}

#[test]
fn eight_parallel_passage_puts_all_succeed_and_all_are_stored() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let mut ids = Vec::new();
    for round in 0..3 {
        let children: Vec<(String, Child)> = (0..8)
            .map(|i| {
                let id = format!("p{round}-{i}");
                let child = spawn_put(&home.path(), &id);
                (id, child)
            })
            .collect();
        for (id, child) in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "passage put --id {id}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            ids.push(id);
        }
    }
    for id in &ids {
        let stored: Value = serde_json::from_str(&home.ok(&["passage", "get", "--id", id]))
            .unwrap_or_else(|e| panic!("passage {id}: {e}"));
        assert_eq!(stored["id"], id.as_str());
        assert_eq!(stored["text"], format!("Passage {id} of the handbook."));
    }
    let listed: Vec<String> = home
        .ok(&["passage", "list", "--json"])
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(listed, expected);
    // Every one of them can be cited.
    home.ok(&[
        "remember",
        "--cite",
        &ids[7],
        "--cite",
        &ids[23],
        "cites two",
    ]);
    assert!(
        !home.path().join("passages.json").exists(),
        "no file is written beside the database"
    );
}

#[test]
fn put_get_list_delete_and_a_deleted_passage_hides_its_memories() {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", "sled"]);
    put(&home, "b", "1", "Refunds take 14 days.");
    put(&home, "a", "1", "Shipping is free.");
    assert_eq!(
        home.ok(&["passage", "list"]),
        "a (document handbook v1, collection policies)\n\
         b (document handbook v1, collection policies)\n"
    );
    put(&home, "b", "2", "Refunds take 30 days.");
    let stored: Value = serde_json::from_str(&home.ok(&["passage", "get", "--id", "b"])).unwrap();
    assert_eq!(stored["documentVersion"], 2);
    assert_eq!(stored["text"], "Refunds take 30 days.");
    home.ok(&["remember", "--cite", "b", "refunds: 30 days"]);
    assert_eq!(
        home.json(&["recall", "refunds"])["memories"][0]["sourceState"],
        "current"
    );

    assert_eq!(
        home.ok(&["passage", "delete", "--id", "b"]),
        "passage b deleted\n"
    );
    let (status, _, err) = home.run(&["passage", "delete", "--id", "b"]);
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("no passage b"), "{err}");
    let (status, _, err) = home.run(&["passage", "get", "--id", "b"]);
    assert_eq!(status, 1, "{err}");
    assert!(
        home.json(&["recall", "refunds"])["memories"]
            .as_array()
            .unwrap()
            .is_empty(),
        "a memory whose passage is gone is hidden"
    );
}

#[test]
fn serve_sees_a_passage_put_after_it_started() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let token = home.ok(&["token", "agent"]).trim().to_owned();
    let served = Served::on(home.path().to_str().unwrap());
    let base = served.base.clone();

    // Put and cited from the CLI while serve runs.
    put(&home, "late", "1", "Refunds take 14 days.");
    let cli = home.json(&[
        "remember",
        "--cite",
        "late",
        "refunds: 14 days, from the CLI",
    ]);
    let cli_id = cli["memory"]["id"].as_str().unwrap().to_owned();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let post = |path: &str, body: Value| -> (u16, Value) {
        runtime.block_on(async {
            let response = reqwest::Client::new()
                .post(format!("{base}{path}"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            (status, response.json().await.unwrap())
        })
    };
    // serve verifies the CLI's memory against the passage it did not have at start.
    let (status, body) = post("/api/agent/v1/memories/recall", json!({"query": "refunds"}));
    assert_eq!(status, 200, "{body}");
    let found = body["memories"].as_array().unwrap();
    assert_eq!(found.len(), 1, "the CLI's memory is not hidden: {body}");
    assert_eq!(found[0]["id"], cli_id.as_str());
    assert_eq!(found[0]["sourceState"], "current");
    // And accepts a remember citing it.
    let (status, body) = post(
        "/api/agent/v1/memories/remember",
        json!({"namespace": "notes", "text": "refunds: 14 days, over HTTP", "citations": ["late"]}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["memory"]["citations"][0]["passageId"], "late");

    // A new version put from the CLI is seen at once: the memories become `changed`.
    put(&home, "late", "2", "Refunds take 30 days.");
    let (status, body) = post("/api/agent/v1/memories/recall", json!({"query": "refunds"}));
    assert_eq!(status, 200, "{body}");
    let states: Vec<&str> = body["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["sourceState"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["changed", "changed"], "{body}");
}

fn passages_json(passages: &[(&str, u64, &str)]) -> String {
    let passages: Vec<Value> = passages
        .iter()
        .map(|(id, version, text)| {
            json!({"id": id, "documentId": "handbook", "collectionId": "policies",
                   "documentVersion": version, "text": text, "entities": []})
        })
        .collect();
    serde_json::to_string_pretty(&passages).unwrap()
}

#[test]
fn a_homes_passages_json_moves_into_the_database_once() {
    for backend in ["sqlite", "redb", "sled"] {
        let home = LocalHome::new();
        home.ok(&["init", "--backend", backend]);
        let file = home.path().join("passages.json");
        // A home as an earlier release left it: passages in a file beside the database.
        std::fs::write(
            &file,
            passages_json(&[
                ("p1", 1, "Refunds take 14 days."),
                ("p2", 1, "Shipping is free."),
            ]),
        )
        .unwrap();

        // A read-only command reads the file but leaves it where it is.
        home.ok(&["list"]);
        assert!(file.exists(), "{backend}: a read-only open moves nothing");

        // The first read-write open moves it.
        let stored = home.json(&["remember", "--cite", "p1", "refunds: 14 days"]);
        assert_eq!(stored["memory"]["citations"][0]["documentVersion"], 1);
        assert!(
            !file.exists(),
            "{backend}: the file is removed once imported"
        );
        let listed = home.ok(&["passage", "list"]);
        assert_eq!(
            listed,
            "p1 (document handbook v1, collection policies)\n\
             p2 (document handbook v1, collection policies)\n",
            "{backend}"
        );

        // Changed and deleted since; then the file is back (a crash before its removal, or a
        // restored copy): it is not imported again.
        put(&home, "p1", "2", "Refunds take 30 days.");
        home.ok(&["passage", "delete", "--id", "p2"]);
        std::fs::write(
            &file,
            passages_json(&[
                ("p1", 1, "Refunds take 14 days."),
                ("p2", 1, "Shipping is free."),
            ]),
        )
        .unwrap();
        let listed = home.ok(&["passage", "list"]);
        assert_eq!(
            listed, "p1 (document handbook v2, collection policies)\n",
            "{backend}: nothing re-imported"
        );
        assert!(!file.exists(), "{backend}");
        assert_eq!(
            home.json(&["recall", "refunds"])["memories"][0]["sourceState"],
            "changed",
            "{backend}"
        );
    }
}

/// Runs `sh -c SCRIPT sh ARGS…`; (status, stdout, stderr).
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
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(2) == Some("0"))
        })
        .unwrap_or(false)
}

#[test]
#[ignore = "needs root and `unshare -m` for a tmpfs in a mount namespace of its own (Linux); \
            .ci/run provides them"]
fn passage_put_on_a_full_disk_is_exit_4_and_writes_nothing() {
    // A small tmpfs in a mount namespace of its own (root), filled up after `init`.
    assert!(
        running_as_root() && sh("unshare -m true", &[]).0 == 0,
        "a tmpfs needs root and `unshare -m`: run this test as root on Linux"
    );
    let dir = tempfile::tempdir().unwrap();
    let big: String = (0..100_000u32)
        .map(|i| char::from(b'a' + (i.wrapping_mul(2_654_435_761) >> 27) as u8 % 26))
        .collect();
    let script = r#"
        set -u
        bin=$1; mnt=$2; big=$3; home=$mnt/home
        mount -t tmpfs -o size=1m tmpfs "$mnt" || exit 90
        "$bin" --home "$home" init >/dev/null || exit 91
        "$bin" --home "$home" passage put --id kept --document d --collection c --text kept >/dev/null || exit 92
        dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
        "$bin" --home "$home" passage put --id big --document d --collection c --text "$big"
        echo "status=$?"
        rm "$mnt/fill"
        echo "files=$(ls -a "$home" | tr '\n' ' ')"
        "$bin" --home "$home" passage list
    "#;
    let (status, out, err) = sh(
        &format!(
            "unshare -m sh -c '{}' sh \"$@\"",
            script.replace('\'', "'\\''")
        ),
        &[BIN, dir.path().to_str().unwrap(), &big],
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(out.contains("status=4"), "exit 4: {out}\n{err}");
    assert!(err.contains("error: STORAGE_FULL: "), "{err}");
    let files = out.lines().find(|l| l.starts_with("files=")).unwrap();
    assert!(
        !files.contains(".tmp") && !files.contains("passages"),
        "nothing half-written: {files}"
    );
    assert!(
        out.ends_with("kept (document d v1, collection c)\n"),
        "the refused passage is not stored, the earlier one is: {out}"
    );
}

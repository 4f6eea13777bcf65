//! The local commands on a home directory: every command is its own process, so whatever a later
//! command sees was persisted by the embedded database (or `passages.json`) of an earlier one.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tempfile::TempDir;

use crate::run_cli_with;

/// A scratch directory holding one home, `<dir>/home`.
pub(crate) struct LocalHome {
    dir: TempDir,
}

impl LocalHome {
    pub(crate) fn new() -> Self {
        LocalHome {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The scratch directory around the home (commands run there).
    pub(crate) fn scratch(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// `agent-memory --home <home> ARGS` (run in the scratch directory).
    pub(crate) fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_with_stdin(args, "")
    }

    pub(crate) fn run_with_stdin(&self, args: &[&str], stdin: &str) -> (i32, String, String) {
        let home = self.path();
        let mut argv = vec!["--home", home.to_str().unwrap()];
        argv.extend_from_slice(args);
        run_cli_with(&argv, stdin, Some(self.dir.path()), &[])
    }

    /// Runs a command that must succeed; its stdout.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let (status, stdout, stderr) = self.run(args);
        assert_eq!(status, 0, "{args:?} succeeds (stderr: {stderr})");
        stdout
    }

    /// Runs a command with `--json` that must succeed; the response.
    pub(crate) fn json(&self, args: &[&str]) -> Value {
        let mut argv = args.to_vec();
        argv.push("--json");
        serde_json::from_str(&self.ok(&argv)).expect("--json prints one JSON document")
    }

    /// Runs a command that must fail with a spec error; asserts exit 1 and `error: CODE: …`.
    pub(crate) fn fails_with(&self, args: &[&str], code: &str) -> (String, String) {
        let (status, stdout, stderr) = self.run(args);
        assert_eq!(status, 1, "{args:?} fails (stdout: {stdout})");
        assert!(
            stderr.starts_with(&format!("error: {code}: ")),
            "{args:?} reports {code}; stderr: {stderr}"
        );
        (stdout, stderr)
    }
}

/// init → remember (masked) → supersede → recall → list → forget → export → audit log.
fn lifecycle(backend: &str) {
    let home = LocalHome::new();
    let init = home.json(&["init", "--backend", backend]);
    assert_eq!(init["config"]["backend"], backend);
    assert_eq!(init["settings"]["agentMemoriesEnabled"], true);
    let database = home.path().join(format!("memory.{backend}"));
    match backend {
        "sled" => assert!(database.is_dir(), "{database:?} is the sled directory"),
        _ => assert!(database.is_file(), "{database:?} is the {backend} file"),
    }

    let first = home.json(&[
        "remember",
        "--namespace",
        "prefs",
        "--key",
        "tone",
        "Reply tersely; mail me at dana@example.com",
    ]);
    assert_eq!(first["memory"]["text"], "Reply tersely; mail me at [EMAIL]");
    assert_eq!(first["masked"], serde_json::json!({"email": 1}));
    assert_eq!(first["memory"]["version"], 1);

    let human = home.ok(&["remember", "Call 050-123-4567 about the Acme renewal"]);
    assert!(human.contains("masked: phone ×1"), "{human}");
    assert!(human.contains("[PHONE]") && !human.contains("050-123-4567"));
    assert!(
        human.contains("in notes (version 1)"),
        "default namespace: {human}"
    );

    let second = home.json(&[
        "remember",
        "-n",
        "prefs",
        "-k",
        "tone",
        "Reply tersely, in bullet points",
    ]);
    assert_eq!(second["superseded"], 1);
    assert_eq!(second["memory"]["version"], 2);
    let second_id = second["memory"]["id"].as_str().unwrap().to_owned();

    let found = home.json(&["recall", "how tersely should I reply?"]);
    assert_eq!(found["memories"][0]["id"], second_id.as_str());
    assert_eq!(
        found["considered"], 2,
        "the superseded version is not a candidate"
    );
    assert!(found["memories"][0]["ranks"]["bm25"].is_u64());
    let timed = home.ok(&["recall", "how should I reply? I noted it yesterday"]);
    assert!(
        timed.contains("period named by the query: from "),
        "{timed}"
    );
    let human = home.ok(&["recall", "how tersely should I reply?"]);
    assert!(human.contains("ranks: bm25 1"), "{human}");
    assert!(
        !human.contains("time"),
        "no time rank without a period: {human}"
    );
    assert!(
        human.contains("[uncited]") && human.contains("score "),
        "{human}"
    );

    let listed = home.json(&["list"]);
    assert_eq!(listed["memories"].as_array().unwrap().len(), 2);
    assert_eq!(listed["nextCursor"], Value::Null);
    let page = home.json(&["list", "--limit", "1"]);
    let cursor = page["nextCursor"]
        .as_str()
        .expect("a second page")
        .to_owned();
    let rest = home.json(&["list", "--limit", "1", "--cursor", &cursor]);
    assert_eq!(rest["memories"].as_array().unwrap().len(), 1);
    let at_first = first["memory"]["createdAt"].as_str().unwrap();
    let then = home.json(&["list", "-n", "prefs", "-k", "tone", "--as-of", at_first]);
    assert_eq!(then["memories"][0]["version"], 1, "asOf reads the past");
    let before_second = home.json(&["list", "--before", at_first]);
    assert_eq!(
        before_second["memories"].as_array().unwrap().len(),
        0,
        "--before is strict: nothing was written before the first note"
    );
    let since_first = home.json(&["recall", "reply", "--after", at_first]);
    // Instants compare as instants: their text drops zero milliseconds (`…:01Z` is before
    // `…:01.5Z`, though it sorts after it as text).
    let instant = |text: &str| agent_memory::types::Timestamp::parse(text).unwrap();
    assert!(
        since_first["memories"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| instant(m["createdAt"].as_str().unwrap()) > instant(at_first)),
        "--after keeps notes written after the instant only"
    );

    let forgot = home.json(&["forget", &second_id]);
    assert_eq!(forgot["deleted"], 2, "the whole key is forgotten");
    home.fails_with(
        &["forget", "-n", "prefs", "-k", "tone"],
        "AGENT_MEMORY_NOT_FOUND",
    );

    let exported = home.ok(&["export"]);
    let lines: Vec<Value> = exported
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "export: {exported}");
    assert_eq!(lines[0]["text"], "Call [PHONE] about the Acme renewal");
    assert!(!exported.contains("050-123-4567"));

    let audit = std::fs::read_to_string(home.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"event\":\"forget\""), "{audit}");
    assert!(audit.contains("\"event\":\"settings_changed\""), "{audit}");
    for content in ["tersely", "dana", "Acme", "prefs", "tone"] {
        assert!(
            !audit.contains(content),
            "the audit log holds no content: {audit}"
        );
    }
}

#[test]
fn lifecycle_on_sqlite_the_default_backend() {
    lifecycle("sqlite");
}

#[test]
fn lifecycle_on_redb() {
    lifecycle("redb");
}

#[test]
fn lifecycle_on_sled() {
    lifecycle("sled");
}

#[test]
fn init_defaults_to_sqlite_and_refuses_to_run_twice() {
    let home = LocalHome::new();
    let out = home.ok(&["init"]);
    assert!(
        out.contains("(sqlite)") && out.contains("credential:"),
        "{out}"
    );
    assert!(home.path().join("memory.sqlite").is_file());
    let config = std::fs::read_to_string(home.path().join("config.json")).unwrap();
    let (status, _, stderr) = home.run(&["init", "--backend", "sled"]);
    assert_eq!(status, 1);
    assert!(stderr.contains("already initialised"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(home.path().join("config.json")).unwrap(),
        config,
        "the first workspace is kept"
    );
}

#[test]
fn commands_before_init_fail_clearly_and_create_nothing() {
    let home = LocalHome::new();
    for args in [
        &["remember", "a note"][..],
        &["recall", "a note"],
        &["list"],
        &["forget", "amem_x"],
        &["settings"],
        &["purge"],
        &["export"],
        &[
            "passage",
            "put",
            "--id",
            "p",
            "--document",
            "d",
            "--collection",
            "c",
            "--text",
            "t",
        ],
    ] {
        let (status, stdout, stderr) = home.run(args);
        assert_eq!(status, 1, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains("run `agent-memory init` first"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!home.path().exists(), "no half-made home is left behind");
}

#[test]
fn bad_input_exits_1_with_the_spec_code() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    home.fails_with(
        &["remember", "--namespace", "mail dana@example.com", "a note"],
        "AGENT_MEMORY_PERSONAL_DATA",
    );
    home.fails_with(&["remember", "dana@example.com !"], "AGENT_MEMORY_EMPTY");
    home.fails_with(
        &["remember", "--cite", "no-such-passage", "a note"],
        "AGENT_MEMORY_CITATION_INVALID",
    );
    home.fails_with(
        &["recall", "anything", "--as-of", "yesterday"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(
        &["recall", "anything", "--after", "last week"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(
        &[
            "list",
            "--after",
            "2026-02-01T00:00:00Z",
            "--before",
            "2026-01-01T00:00:00Z",
        ],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(
        &["recall", "anything", "--limit", "51"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(
        &["list", "--cursor", "garbage"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(&["forget"], "AGENT_MEMORY_INVALID_REQUEST");
    home.fails_with(
        &["forget", "amem_x", "-n", "prefs", "-k", "tone"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    home.fails_with(
        &["settings", "--retention-days", "400"],
        "AGENT_MEMORY_INVALID_REQUEST",
    );
    // With --json the spec's error body is on stdout as well.
    let (stdout, _) = home.fails_with(
        &["forget", "amem_unknown", "--json"],
        "AGENT_MEMORY_NOT_FOUND",
    );
    let body: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(body["error"]["code"], "AGENT_MEMORY_NOT_FOUND");

    // Turning agent memories off refuses the agent, and the member still sees their own data.
    home.ok(&["remember", "kept while disabled"]);
    assert!(
        home.ok(&["settings", "--disable"])
            .contains("agent memories: disabled")
    );
    home.fails_with(&["remember", "a note"], "AGENT_MEMORY_DISABLED");
    home.fails_with(&["recall", "a note"], "AGENT_MEMORY_DISABLED");
    assert_eq!(home.ok(&["export"]).lines().count(), 1);
    let settings = home.json(&["settings", "--enable", "--retention-days", "30"]);
    assert_eq!(
        settings,
        serde_json::json!({"agentMemoriesEnabled": true, "retentionDays": 30})
    );
    // Clap refuses contradictions itself (usage error, exit 2).
    assert_eq!(home.run(&["settings", "--enable", "--disable"]).0, 2);
}

#[test]
fn the_text_can_come_from_standard_input() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let (status, stdout, stderr) =
        home.run_with_stdin(&["remember", "-", "--json"], "Prefers tea, mail a@b.io\n");
    assert_eq!(status, 0, "{stderr}");
    let body: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(body["memory"]["text"], "Prefers tea, mail [EMAIL]");
}

#[test]
fn citations_are_reverified_after_the_passage_changes() {
    let home = LocalHome::new();
    home.ok(&["init", "--backend", "sled"]);
    let put = |version: &str, text: &str| {
        home.ok(&[
            "passage",
            "put",
            "--id",
            "p1",
            "--document",
            "handbook",
            "--collection",
            "policies",
            "--version",
            version,
            "--entity",
            "Acme",
            "--text",
            text,
        ])
    };
    put("1", "Acme refunds take 14 days.");
    let stored = home.json(&[
        "remember",
        "--collection",
        "policies",
        "--cite",
        "p1",
        "Acme refunds: 14 days",
    ]);
    assert_eq!(stored["memory"]["citations"][0]["documentVersion"], 1);
    let found = home.json(&["recall", "Acme refunds"]);
    assert_eq!(found["memories"][0]["sourceState"], "current");
    assert_eq!(found["memories"][0]["ranks"]["entity"], 1);

    put("2", "Acme refunds take 30 days.");
    let found = home.json(&["recall", "Acme refunds"]);
    assert_eq!(found["memories"][0]["sourceState"], "changed");
    let listed = home.ok(&["list"]);
    assert!(
        listed.contains("[changed]") && listed.contains("cites p1"),
        "{listed}"
    );
}

#[test]
fn agent_memory_home_is_honoured_and_home_overrides_it() {
    let scratch = tempfile::tempdir().unwrap();
    let env_home = scratch.path().join("from-env");
    let env = [("AGENT_MEMORY_HOME", env_home.as_path())];
    let run = |args: &[&str]| run_cli_with(args, "", Some(scratch.path()), &env);
    assert_eq!(run(&["init"]).0, 0);
    assert!(env_home.join("config.json").is_file());
    assert!(!scratch.path().join(".agent-memory").exists());
    assert_eq!(run(&["remember", "stored through the env home"]).0, 0);
    let (status, stdout, _) = run(&["export"]);
    assert_eq!((status, stdout.lines().count()), (0, 1));

    // --home wins over the variable: this one was never initialised.
    let other = scratch.path().join("other");
    let (status, _, stderr) = run(&["--home", other.to_str().unwrap(), "list"]);
    assert_eq!(status, 1);
    assert!(stderr.contains(&*other.to_string_lossy()), "{stderr}");
}

#[test]
fn the_default_home_is_dot_agent_memory_in_the_working_directory() {
    let scratch = tempfile::tempdir().unwrap();
    let (status, _, stderr) = run_cli_with(&["init"], "", Some(scratch.path()), &[]);
    assert_eq!(status, 0, "{stderr}");
    assert!(scratch.path().join(".agent-memory/config.json").is_file());
    assert!(home_is_listable(scratch.path()));
}

fn home_is_listable(dir: &Path) -> bool {
    run_cli_with(&["list"], "", Some(dir), &[])
        .1
        .contains("no memories")
}

/// A new home records the window `all`, which `recall` uses unless its flag says otherwise;
/// `config` shows and changes the window and the weights (validated, nothing written on a bad
/// value); `recall --verbose` prints the analyzed query terms; identical notes answer once.
#[test]
fn the_home_records_how_recall_ranks_and_config_changes_it() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let shown = home.json(&["config"]);
    assert_eq!(shown["candidateWindow"], "all");
    assert_eq!(shown["weights"]["source"], "default");
    assert_eq!(
        shown["weights"]["semantic"], 0.3,
        "the hashing embedder's default"
    );
    for _ in 0..3 {
        home.ok(&[
            "remember",
            "-n",
            "drinks",
            "Dana likes running by the river",
        ]);
    }
    home.ok(&["remember", "-n", "drinks", "coffee at ten"]);
    // Three identical notes answer once.
    let found = home.json(&["recall", "where does Dana go jogging?"]);
    let memories = found["memories"].as_array().unwrap();
    let dana: Vec<&Value> = memories
        .iter()
        .filter(|m| m["text"] == "Dana likes running by the river")
        .collect();
    assert_eq!(dana.len(), 1, "{found}");
    assert_eq!(dana[0]["duplicates"], 2);
    let text = home.ok(&["recall", "--verbose", "where does Dana go jogging?"]);
    assert!(text.starts_with("query terms: dana go jog\n"), "{text}");
    assert!(
        text.contains("window: all; weights: bm25 1, semantic 0.3, entity 1"),
        "{text}"
    );
    assert!(
        text.contains("(also stands for 2 identical earlier notes)"),
        "{text}"
    );
    // The flag wins over the home's window.
    let text = home.ok(&["recall", "--verbose", "--candidate-window", "2", "coffee"]);
    assert!(text.contains("window: 2;"), "{text}");

    // Changing the settings; bad values are refused and change nothing.
    let changed = home.json(&["config", "--candidate-window", "300", "--weights", "equal"]);
    assert_eq!(changed["candidateWindow"], "300");
    assert_eq!(changed["weights"]["semantic"], 1.0);
    assert_eq!(changed["weights"]["source"], "home");
    for bad in [
        &["config", "--weights", "bm25=1"][..],
        &["config", "--weights", "bm25=-1,semantic=1,entity=1"],
        &["config", "--candidate-window", "0"],
    ] {
        let (status, _, stderr) = home.run(bad);
        assert_ne!(status, 0, "{bad:?}");
        assert!(!stderr.is_empty(), "{bad:?} says why");
    }
    let kept = home.json(&["config"]);
    assert_eq!(kept["candidateWindow"], "300");
    assert_eq!(kept["weights"]["bm25"], 1.0);
    let text = home.ok(&["recall", "--verbose", "coffee"]);
    assert!(
        text.contains("window: 300; weights: bm25 1, semantic 1, entity 1"),
        "{text}"
    );
    let back = home.json(&[
        "config",
        "--weights",
        "default",
        "--candidate-window",
        "all",
    ]);
    assert_eq!(back["weights"]["source"], "default");
    assert_eq!(back["candidateWindow"], "all");
}

/// `export --history` → `import` into another home → `export --history` is the same file;
/// importing it again changes nothing; a plain export imports as current versions.
#[test]
fn export_with_history_and_import_round_trip_byte_for_byte() {
    let put_passage = |home: &LocalHome| {
        home.ok(&[
            "passage",
            "put",
            "--id",
            "p1",
            "--document",
            "handbook",
            "--collection",
            "policies",
            "--version",
            "1",
            "--text",
            "Replies stay short.",
        ]);
    };
    let from = LocalHome::new();
    from.ok(&["init"]);
    put_passage(&from);
    from.ok(&[
        "remember",
        "-n",
        "prefs",
        "-k",
        "tone",
        "Reply tersely",
        "--cite",
        "p1",
    ]);
    from.ok(&["remember", "-n", "prefs", "-k", "tone", "Reply at length"]);
    from.ok(&[
        "remember",
        "-n",
        "prefs",
        "-k",
        "tone",
        "Reply in French; mail dana@example.com",
    ]);
    from.ok(&["remember", "-n", "notes", "The dentist moved to Tuesday"]);
    let exported = from.ok(&["export", "--history"]);
    assert_eq!(exported.lines().count(), 4, "every version: {exported}");
    let file = from.scratch().join("history.jsonl");
    std::fs::write(&file, &exported).unwrap();

    let to = LocalHome::new();
    to.ok(&["init"]);
    put_passage(&to);
    let file = file.to_str().unwrap();
    let summary = to.ok(&["import", file]);
    assert!(
        summary.starts_with("imported 4 of 4 memory versions"),
        "{summary}"
    );
    assert_eq!(to.ok(&["export", "--history"]), exported);
    let again = to.json(&["import", file]);
    assert_eq!(again["imported"], 0);
    assert_eq!(again["unchanged"], 4);
    assert_eq!(to.ok(&["export", "--history"]), exported);

    // A plain export: the two current versions, under the importing home's credential.
    let views = from.ok(&["export"]);
    let file = from.scratch().join("views.jsonl");
    std::fs::write(&file, &views).unwrap();
    let third = LocalHome::new();
    third.ok(&["init"]);
    let summary = third.ok(&["import", file.to_str().unwrap()]);
    assert!(
        summary.starts_with("imported 2 of 2 memory versions"),
        "{summary}"
    );
    assert_eq!(third.ok(&["export"]).lines().count(), 2);

    // A line that is not an exported memory: nothing imported, the line named, no content.
    let file = from.scratch().join("bad.jsonl");
    std::fs::write(&file, format!("{}not json dana@example.com\n", views)).unwrap();
    let (code, _, stderr) = third.run(&["import", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(stderr.contains("line 3"), "{stderr}");
    assert!(!stderr.contains("dana@example.com"), "{stderr}");
}

//! `--embedder` and `reembed`: memories of another model sit out the semantic ranker until
//! `reembed` gives them the chosen model's vectors.

use crate::local::LocalHome;

#[test]
fn an_unknown_embedder_is_a_usage_error_and_a_missing_model_a_clear_one() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    let (status, _, stderr) = home.run(&["recall", "x", "--embedder", "onnx:/models/a"]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("use `hash`, or `local:DIR`"), "{stderr}");

    let missing = home.scratch().join("no-model");
    let flag = format!("local:{}", missing.display());
    for args in [
        vec!["remember", "a note", "--embedder", flag.as_str()],
        vec!["recall", "a note", "--embedder", flag.as_str()],
        vec!["reembed", "--embedder", flag.as_str()],
    ] {
        let (status, _, stderr) = home.run(&args);
        assert_eq!(status, 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains("loading the embedding model") && stderr.contains("no-model"),
            "{stderr}"
        );
    }
    // Nothing was remembered by the refused command.
    assert_eq!(home.json(&["list"])["memories"], serde_json::json!([]));
}

#[test]
fn reembed_with_the_same_model_has_nothing_to_do() {
    let home = LocalHome::new();
    home.ok(&["init"]);
    home.ok(&["remember", "prefers bullet points"]);
    let dry = home.json(&["reembed", "--dry-run"]);
    assert_eq!(dry["model"], "hash-ngram-v1-d384");
    assert_eq!(dry["stale"], 0);
    let done = home.json(&["reembed"]);
    assert_eq!(done["examined"], 1);
    assert_eq!(done["reembedded"], 0);
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn reembed_moves_memories_to_a_local_model_and_recall_then_ranks_them_by_meaning() {
    let model = embed_candle::test_model_dir("the CLI's reembed test");
    let flag = format!("local:{}", model.display());
    let home = LocalHome::new();
    home.ok(&["init"]);
    home.ok(&[
        "remember",
        "wants answers short and direct, bullet points over prose",
    ]);
    home.ok(&[
        "remember",
        "-k",
        "deadline",
        "The Atlas deadline moved to March",
    ]);
    home.ok(&[
        "remember",
        "-k",
        "deadline",
        "The Atlas deadline moved to April",
    ]);
    let query = [
        "recall",
        "how should I format my answers?",
        "--embedder",
        &flag,
    ];

    // Stored with the hashing embedder: the model never compares their vectors.
    let before = home.json(&query);
    assert_eq!(before["semanticSkipped"], false);
    assert!(
        before["memories"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["ranks"]["semantic"].is_null()),
        "{before}"
    );

    // The superseded version counts too.
    let dry = home.json(&["reembed", "--dry-run", "--embedder", &flag]);
    assert_eq!(dry["stale"], 3);
    let model_id = dry["model"].as_str().unwrap().to_owned();
    assert!(model_id.contains('@'), "{model_id}");
    let done = home.json(&["reembed", "--embedder", &flag]);
    assert_eq!(done["model"], model_id.as_str());
    assert_eq!(
        (done["examined"].clone(), done["reembedded"].clone()),
        (3.into(), 3.into())
    );

    let after = home.json(&query);
    let best = &after["memories"][0];
    assert_eq!(
        best["text"],
        "wants answers short and direct, bullet points over prose"
    );
    assert_eq!(best["ranks"]["semantic"], 1, "{after}");
    // The default embedder now sees vectors of another model: they sit out its semantic ranker.
    let hashed = home.json(&["recall", "how should I format my answers?"]);
    assert!(
        hashed["memories"][0]["ranks"]["semantic"].is_null(),
        "{hashed}"
    );
    // A human-readable run says what it did.
    let again = home.ok(&["reembed", "--embedder", &flag]);
    assert!(
        again.contains("re-embedded 0 of 3 memory versions"),
        "{again}"
    );
}

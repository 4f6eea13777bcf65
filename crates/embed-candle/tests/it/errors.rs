//! A missing or malformed model file is a typed error that names it; nothing is downloaded.

use std::path::{Path, PathBuf};

use embed_candle::{CandleEmbedder, Error};

use crate::write_tiny_model;

fn model_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m");
    write_tiny_model(&model);
    (dir, model)
}

fn load_err(dir: &Path) -> Error {
    match CandleEmbedder::load(dir) {
        Ok(_) => panic!("{} loaded", dir.display()),
        Err(e) => e,
    }
}

#[test]
fn a_missing_directory_or_file_is_named() {
    let (_dir, model) = model_dir();
    let absent = model.join("nope");
    let err = load_err(&absent);
    assert!(
        matches!(&err, Error::NotADirectory { dir } if *dir == absent),
        "{err:?}"
    );
    assert!(err.to_string().contains("does not exist"), "{err}");

    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        let (_dir, model) = model_dir();
        std::fs::remove_file(model.join(file)).unwrap();
        let err = load_err(&model);
        assert!(
            matches!(&err, Error::MissingFile { file: f, .. } if *f == file),
            "{file}: {err:?}"
        );
        let message = err.to_string();
        assert!(
            message.contains(file) && message.contains("nothing is downloaded"),
            "{message}"
        );
    }
}

#[test]
fn a_malformed_file_is_named_with_what_it_should_be() {
    let cases: [(&str, &[u8], &str); 5] = [
        ("config.json", b"{not json", "model config"),
        (
            "config.json",
            br#"{"model_type": "bert", "hidden_size": 16}"#,
            "BERT model config",
        ),
        ("tokenizer.json", b"{\"version\": \"1.0\"}", "tokenizer"),
        (
            "model.safetensors",
            b"\x08\x00\x00\x00\x00\x00\x00\x00{}garbage",
            "safetensors",
        ),
        ("model.safetensors", b"", "safetensors"),
    ];
    for (file, content, what) in cases {
        let (_dir, model) = model_dir();
        std::fs::write(model.join(file), content).unwrap();
        let err = load_err(&model);
        match &err {
            Error::Malformed { path, what: w, .. } => {
                assert_eq!(path, &model.join(file), "{err}");
                assert!(w.contains(what), "{file}: {w}");
            }
            other => panic!("{file}: {other:?}"),
        }
        assert!(err.to_string().contains(file), "{err}");
    }
}

#[test]
fn weights_of_another_shape_are_refused() {
    let (_dir, model) = model_dir();
    // The config now asks for 32 hidden units; the weights have 16.
    let mut config = crate::tiny_config();
    config["hidden_size"] = 32.into();
    config["intermediate_size"] = 64.into();
    std::fs::write(model.join("config.json"), config.to_string()).unwrap();
    let err = load_err(&model);
    assert!(
        matches!(&err, Error::Malformed { what, .. } if what.contains("safetensors")),
        "{err:?}"
    );
}

#[test]
fn other_architectures_and_poolings_are_refused_not_run_wrongly() {
    let (_dir, model) = model_dir();
    let mut config = crate::tiny_config();
    config["model_type"] = "roberta".into();
    std::fs::write(model.join("config.json"), config.to_string()).unwrap();
    let err = load_err(&model);
    assert!(matches!(&err, Error::Unsupported { .. }), "{err:?}");
    assert!(err.to_string().contains("roberta"), "{err}");

    let (_dir, model) = model_dir();
    std::fs::create_dir_all(model.join("1_Pooling")).unwrap();
    std::fs::write(
        model.join("1_Pooling/config.json"),
        r#"{"word_embedding_dimension": 16, "pooling_mode_cls_token": true,
            "pooling_mode_mean_tokens": false}"#,
    )
    .unwrap();
    let err = load_err(&model);
    assert!(matches!(&err, Error::Unsupported { .. }), "{err:?}");
    assert!(err.to_string().contains("mean pooling"), "{err}");

    // Mean pooling, as sentence-transformers writes it, loads.
    std::fs::write(
        model.join("1_Pooling/config.json"),
        r#"{"word_embedding_dimension": 16, "pooling_mode_cls_token": false,
            "pooling_mode_mean_tokens": true, "pooling_mode_max_tokens": false,
            "pooling_mode_mean_sqrt_len_tokens": false}"#,
    )
    .unwrap();
    assert!(CandleEmbedder::load(&model).is_ok());
}

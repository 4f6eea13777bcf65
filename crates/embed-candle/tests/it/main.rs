//! Integration tests of `embed-candle`.
//!
//! Always run: loading errors on broken directories and the whole pipeline (tokenizer, encoder,
//! masked mean pooling, normalisation, truncation, the model id) on a tiny random BERT written
//! by the tests. `#[ignore]`d, since they need the real all-MiniLM-L6-v2 files in
//! `AGENT_MEMORY_TEST_MODEL_DIR` (as `.ci/run` provides), and failing without them when run with
//! `--ignored`: reference similarities, paraphrases, determinism, the facade's 800 ms semantic
//! budget, and the recall-quality table against the hashing embedder.

mod errors;
mod eval;
mod facade;
mod long_history;
mod minilm;
mod quality;
mod tiny;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use candle_core::{DType, Device};
use candle_nn::{VarBuilder, VarMap};
use candle_transformers::models::bert::{BertModel, Config};
use embed_candle::CandleEmbedder;
use serde_json::{Value, json};

/// The real model, loaded once for every test that needs it; a failure when the files are
/// absent (the tests that call this are ignored unless asked for).
pub(crate) fn minilm(what: &str) -> Arc<CandleEmbedder> {
    static MODEL: OnceLock<Arc<CandleEmbedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = embed_candle::test_model_dir(what);
            Arc::new(CandleEmbedder::load(&dir).expect("the test model directory loads"))
        })
        .clone()
}

/// Cosine of two unit vectors.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The words of the tiny model's vocabulary after the four special tokens.
pub(crate) const TINY_WORDS: &[&str] = &[
    "the", "user", "prefers", "short", "answers", "with", "bullet", "points", "deadline", "moved",
    "to", "march", "a", "b", "c", "d", "e", "f", "g", "h", "##s", "##ed",
];

/// The tiny model's encoder settings.
pub(crate) fn tiny_config() -> Value {
    json!({
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": 4 + TINY_WORDS.len(),
        "hidden_size": 16,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 32,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": 16,
        "type_vocab_size": 2,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 0
    })
}

/// A BERT WordPiece tokenizer.json (the layout of all-MiniLM-L6-v2's) over the tiny vocabulary.
pub(crate) fn tiny_tokenizer() -> Value {
    let specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"];
    let vocab: serde_json::Map<String, Value> = specials
        .iter()
        .chain(TINY_WORDS)
        .enumerate()
        .map(|(i, w)| ((*w).to_owned(), json!(i)))
        .collect();
    let added: Vec<Value> = specials
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({"id": i, "special": true, "content": s, "single_word": false,
                   "lstrip": false, "rstrip": false, "normalized": false})
        })
        .collect();
    json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": true,
                       "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}
            }
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab}
    })
}

/// Writes a tiny BERT with random weights into `dir`: the three files a model directory has.
pub(crate) fn write_tiny_model(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let config = tiny_config();
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
    std::fs::write(dir.join("tokenizer.json"), tiny_tokenizer().to_string()).unwrap();
    let config: Config = serde_json::from_value(config).unwrap();
    let vars = VarMap::new();
    // Loading through a VarMap creates every tensor the model needs, randomly initialised.
    BertModel::load(
        VarBuilder::from_varmap(&vars, DType::F32, &Device::Cpu),
        &config,
    )
    .unwrap();
    vars.save(dir.join("model.safetensors")).unwrap();
}

//! The pipeline on a tiny random BERT: runs everywhere, without the real model.

use std::sync::Arc;

use embed_candle::CandleEmbedder;
use fusion_rank::{EmbedPool, Embedder, SEMANTIC_BUDGET};
use sha2::{Digest, Sha256};

use crate::{cosine, write_tiny_model};

fn tiny() -> (tempfile::TempDir, CandleEmbedder) {
    let dir = tempfile::tempdir().unwrap();
    let model_dir = dir.path().join("tiny-bert");
    write_tiny_model(&model_dir);
    let model = CandleEmbedder::load(&model_dir).unwrap();
    (dir, model)
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_tiny_model_embeds_any_text_as_a_unit_vector_of_its_hidden_size() {
    let (_dir, model) = tiny();
    assert_eq!(model.dimension(), 16);
    // No sentence-transformers settings and no truncation in tokenizer.json: the position table.
    assert_eq!(model.max_length(), 16);
    for text in [
        "the user prefers short answers",
        "",
        "unknown words only: zebra quux",
        "東京",
    ] {
        let v = model.embed(text).unwrap();
        assert_eq!(v.len(), 16, "{text:?}");
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{text:?}: norm {norm}");
    }
    let a = model.embed("the deadline moved to march").unwrap();
    let b = model.embed("bullet points").unwrap();
    assert!(
        cosine(&a, &b) < 0.9999,
        "different texts, different vectors"
    );
}

#[test]
fn the_model_id_is_the_directory_name_and_the_weights_hash() {
    let (dir, model) = tiny();
    let weights = std::fs::read(dir.path().join("tiny-bert/model.safetensors")).unwrap();
    let sha: String = Sha256::digest(&weights)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(model.weights_sha256(), sha);
    assert_eq!(model.model_id(), format!("tiny-bert@{}", &sha[..12]));
    assert_eq!(Embedder::model_id(&model), model.model_id());
    assert_eq!(model.name(), "tiny-bert");

    // The generic folder name `model` gives way to its parent's; a given name wins.
    let nested = dir.path().join("some-package").join("model");
    std::fs::create_dir_all(&nested).unwrap();
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::fs::copy(dir.path().join("tiny-bert").join(file), nested.join(file)).unwrap();
    }
    let moved = CandleEmbedder::load(&nested).unwrap();
    assert_eq!(moved.model_id(), format!("some-package@{}", &sha[..12]));
    let named = CandleEmbedder::load_with_name(&nested, "tiny-bert").unwrap();
    assert_eq!(named.model_id(), model.model_id());
    // The same weights embed alike, wherever they are.
    assert_eq!(
        bits(&named.embed("short answers").unwrap()),
        bits(&model.embed("short answers").unwrap())
    );

    // Other weights, another id.
    let other = dir.path().join("other").join("tiny-bert");
    write_tiny_model(&other);
    let other = CandleEmbedder::load(&other).unwrap();
    assert_eq!(other.name(), model.name());
    assert_ne!(other.model_id(), model.model_id());
}

#[test]
fn embeddings_are_bit_identical_across_calls_threads_and_the_pool() {
    let (_dir, model) = tiny();
    let model = Arc::new(model);
    let text = "the user prefers short answers with bullet points";
    let first = bits(&model.embed(text).unwrap());
    for _ in 0..3 {
        assert_eq!(bits(&model.embed(text).unwrap()), first);
    }
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let model = Arc::clone(&model);
            std::thread::spawn(move || bits(&model.embed(text).unwrap()))
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), first);
    }
    // The pool normalises once more (the last bit may move): its two paths agree.
    let pool = EmbedPool::with_default_workers(model.clone()).unwrap();
    let pooled = bits(&pool.embed_within(text, SEMANTIC_BUDGET).unwrap());
    assert_eq!(bits(&pool.embed(text).unwrap()), pooled);
}

#[test]
fn padding_in_a_batch_leaves_each_texts_embedding_unchanged() {
    let (_dir, model) = tiny();
    let texts = [
        "a b",
        "the user prefers short answers with bullet points to march",
        "deadline",
    ];
    let batch = model.embed_batch(&texts).unwrap();
    assert_eq!(batch.len(), 3);
    for (text, together) in texts.iter().zip(&batch) {
        let alone = model.embed(text).unwrap();
        let worst = alone
            .iter()
            .zip(together)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        // Masked padding changes nothing but float rounding.
        assert!(worst < 1e-5, "{text:?}: differs by {worst}");
    }
    assert!(model.embed_batch(&[]).unwrap().is_empty());
}

#[test]
fn long_texts_are_truncated_to_the_maximum_length() {
    let (dir, model) = tiny();
    // 16 positions: [CLS], 14 words, [SEP]. Words after the fourteenth are cut off.
    let head = "a b c d e f g h a b c d e f";
    let one = model.embed(&format!("{head} the user")).unwrap();
    let two = model
        .embed(&format!("{head} deadline moved to march"))
        .unwrap();
    assert_eq!(bits(&one), bits(&two));
    assert_ne!(
        bits(&model.embed("a b c").unwrap()),
        bits(&model.embed("a b d").unwrap())
    );
    let long = "the user prefers short answers ".repeat(200);
    assert_eq!(model.embed(&long).unwrap().len(), 16);

    // sentence-transformers' max_seq_length, when present, is the limit.
    let model_dir = dir.path().join("tiny-bert");
    std::fs::write(
        model_dir.join("sentence_bert_config.json"),
        r#"{"max_seq_length": 6, "do_lower_case": false}"#,
    )
    .unwrap();
    let short = CandleEmbedder::load(&model_dir).unwrap();
    assert_eq!(short.max_length(), 6);
    assert_eq!(
        bits(&short.embed("a b c d e f g").unwrap()),
        bits(&short.embed("a b c d h h h h").unwrap())
    );
}

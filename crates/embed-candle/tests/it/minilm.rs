//! all-MiniLM-L6-v2 itself: its published similarities, paraphrases above unrelated pairs,
//! 384 unit dimensions, and the same bits on every call.

use std::sync::Arc;

use fusion_rank::{EmbedPool, Embedder, SEMANTIC_BUDGET};

use crate::{cosine, minilm};

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn vectors_have_384_unit_dimensions_and_the_published_similarity() {
    let model = minilm("the MiniLM dimension test");
    assert_eq!(model.dimension(), 384);
    // sentence_bert_config.json's max_seq_length, not tokenizer.json's 128.
    assert_eq!(model.max_length(), 256);
    assert!(
        model
            .model_id()
            .ends_with(&format!("@{}", &model.weights_sha256()[..12])),
        "{}",
        model.model_id()
    );
    let food = model.embed("A man is eating food.").unwrap();
    let bread = model.embed("A man is eating a piece of bread.").unwrap();
    for v in [&food, &bread] {
        assert_eq!(v.len(), 384);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "norm {norm}");
    }
    // The score sentence-transformers' documentation prints for this pair with this model
    // (semantic search example): the same tokens, pooling and weights give the same number.
    let score = cosine(&food, &bread);
    assert!((score - 0.7553).abs() < 5e-4, "cosine {score}");
}

/// Pairs saying the same thing in other words; every other pairing is unrelated.
const PARAPHRASES: &[(&str, &str)] = &[
    (
        "how should I format my answers?",
        "wants answers short and direct, bullet points over prose",
    ),
    (
        "The meeting was moved to next Tuesday.",
        "We rescheduled the call for the following Tuesday.",
    ),
    (
        "She is allergic to peanuts.",
        "Nuts make her sick, so avoid them in her food.",
    ),
    (
        "The app crashes when I upload a big photo.",
        "Uploading large images makes the mobile application fail.",
    ),
    (
        "Invoices go to the finance mailbox.",
        "Send bills to the accounting team's inbox.",
    ),
    (
        "I prefer dark mode in my editor.",
        "Use a dark theme for the code editor.",
    ),
];

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn paraphrases_score_higher_than_unrelated_pairs() {
    let model = minilm("the MiniLM paraphrase test");
    let left: Vec<Vec<f32>> = PARAPHRASES
        .iter()
        .map(|p| model.embed(p.0).unwrap())
        .collect();
    let right: Vec<Vec<f32>> = PARAPHRASES
        .iter()
        .map(|p| model.embed(p.1).unwrap())
        .collect();
    let mut lowest_paraphrase = f32::MAX;
    let mut highest_unrelated = f32::MIN;
    for (i, l) in left.iter().enumerate() {
        let own = cosine(l, &right[i]);
        lowest_paraphrase = lowest_paraphrase.min(own);
        for (j, r) in right.iter().enumerate().filter(|(j, _)| *j != i) {
            let other = cosine(l, r);
            highest_unrelated = highest_unrelated.max(other);
            assert!(
                own > other,
                "{:?} is closer to {:?} ({other:.3}) than to its paraphrase ({own:.3})",
                PARAPHRASES[i].0,
                PARAPHRASES[j].1
            );
        }
    }
    println!(
        "lowest paraphrase cosine {lowest_paraphrase:.3}, highest unrelated {highest_unrelated:.3}"
    );
    assert!(lowest_paraphrase > highest_unrelated);
}

#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn the_same_text_gives_the_same_bits_every_time() {
    let model = minilm("the MiniLM determinism test");
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    let text = "Dana prefers short answers with bullet points.";
    let first = bits(model.embed(text).unwrap());
    for _ in 0..3 {
        assert_eq!(bits(model.embed(text).unwrap()), first);
    }
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let model = Arc::clone(&model);
            std::thread::spawn(move || model.embed(text).unwrap())
        })
        .collect();
    for t in threads {
        assert_eq!(bits(t.join().unwrap()), first);
    }
    // The facade's pool scales every answer to unit length once more, which may move the last
    // bit: its two paths (remember's budgeted call on a worker, reembed's direct call) agree
    // with each other, so a stored vector equals the one reembed would compute.
    let pool = EmbedPool::with_default_workers(model.clone()).unwrap();
    let pooled = bits(pool.embed_within(text, SEMANTIC_BUDGET).unwrap());
    assert_eq!(bits(pool.embed(text).unwrap()), pooled);
    assert_eq!(
        bits(pool.embed_within(text, SEMANTIC_BUDGET).unwrap()),
        pooled
    );
}

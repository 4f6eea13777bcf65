//! The default hashing embedder: deterministic, normalised, and closer for related texts.

use fusion_rank::{Embedder, HashingEmbedder};

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn same_text_same_vector_and_a_stable_model_id() -> Result<(), fusion_rank::EmbedError> {
    let e = HashingEmbedder::new();
    assert_eq!(e.model_id(), "hash-ngram-v1-d384");
    let a = e.embed("The user prefers short answers")?;
    assert_eq!(a, e.embed("The user prefers short answers")?);
    assert_eq!(a.len(), HashingEmbedder::DIMENSION);
    const { assert!(HashingEmbedder::DIMENSION >= 256) };
    Ok(())
}

#[test]
fn vectors_do_not_change_under_the_same_model_id() {
    // Stored vectors are compared with new ones for as long as the model id stays the same, so
    // the features of a short text are pinned; changing them requires a new model id.
    // "hi" has the word feature (weight 1) and the 3-grams "^hi", "hi$" (weight 1/√2 each);
    // normalised by √2 they become 1/√2 and 1/2, 1/2 with hashed signs.
    let v = HashingEmbedder.vector("hi");
    let slots: Vec<usize> = (0..v.len()).filter(|&i| v[i] != 0.0).collect();
    assert_eq!(slots, [11, 134, 304]);
    let expected = [-0.5, 0.5, -std::f32::consts::FRAC_1_SQRT_2];
    for (&slot, want) in slots.iter().zip(expected) {
        assert!(
            (v[slot] - want).abs() < 1e-6,
            "slot {slot}: {} != {want}",
            v[slot]
        );
    }
}

#[test]
fn vectors_are_unit_length() {
    for text in [
        "a",
        "The user prefers short answers",
        "東京で寿司を食べるのが好き",
        "ＡＢＣ 123",
    ] {
        let v = HashingEmbedder.vector(text);
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{text}: {norm}");
    }
}

#[test]
fn a_paraphrase_is_closer_than_an_unrelated_text() {
    let e = HashingEmbedder;
    let base = e.vector("The user prefers short answers with bullet points");
    let pairs = [
        (
            "User prefers shorter answers, in bullets",
            "Quarterly budget report for Acme is due",
        ),
        (
            "meetings with the design team",
            "invoices go to the finance mailbox",
        ),
    ];
    let close = e.vector(pairs[0].0);
    let far = e.vector(pairs[0].1);
    assert!(
        cosine(&base, &close) > cosine(&base, &far) + 0.2,
        "{} vs {}",
        cosine(&base, &close),
        cosine(&base, &far)
    );
    let meeting = e.vector("design team meeting");
    assert!(cosine(&meeting, &e.vector(pairs[1].0)) > cosine(&meeting, &e.vector(pairs[1].1)));
}

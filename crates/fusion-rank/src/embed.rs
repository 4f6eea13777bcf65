//! The `Embedder` trait through which a host plugs a model, and the offline default
//! `HashingEmbedder`.

use crate::EmbedError;
use crate::hash::hash;
use crate::tokenize::for_each_token;

/// Turns a text into a vector for the semantic ranker.
///
/// Vectors from different models are not comparable: callers store the [`model_id`] with every
/// stored vector and only compare vectors of the same id.
///
/// [`model_id`]: Embedder::model_id
pub trait Embedder: Send + Sync {
    /// A stable name of the model and its configuration, such as `hash-ngram-v1-d384`.
    fn model_id(&self) -> &str;

    /// The embedding of `text`. The semantic stage receives already masked text.
    ///
    /// Any length is accepted: [`EmbedPool`](crate::EmbedPool) scales the vector to unit
    /// length, which stored candidate vectors must have.
    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError>;

    /// Whether the vectors place texts by meaning (a trained language model), rather than by
    /// shared words and spellings as [`HashingEmbedder`] does. Hosts read it to choose the
    /// semantic ranker's default weight in the fusion ([`Weights::for_embedder`]); the default
    /// is `true`.
    ///
    /// [`Weights::for_embedder`]: crate::Weights::for_embedder
    fn understands_meaning(&self) -> bool {
        true
    }

    /// Whether a call is a short computation on the text alone — no I/O, no lock, no model that
    /// may stall — whose time is bounded by the text's length. [`EmbedPool`](crate::EmbedPool)
    /// then runs it on the caller's thread instead of handing it to a worker: the hand-over
    /// (two thread wake-ups) costs more than such a call. The default is `false`, and an
    /// embedder that can block must keep it: only a worker lets a caller give up on a stuck
    /// call when the budget passes.
    fn runs_inline(&self) -> bool {
        false
    }
}

/// Offline, deterministic embedder: feature hashing of the tokenizer's terms and of each term's
/// character 3-grams into [`HashingEmbedder::DIMENSION`] dimensions, L2-normalised.
///
/// Words match words; 3-grams (with word-boundary marks) let inflections such as "meeting" and
/// "meetings" overlap. There is no model download and the output never changes between runs,
/// platforms or releases of the same model id.
#[derive(Debug, Clone, Copy, Default)]
pub struct HashingEmbedder;

impl HashingEmbedder {
    /// Number of dimensions of every vector.
    pub const DIMENSION: usize = 384;
    /// The model id; bump the version on any change to the features or the hash.
    pub const MODEL_ID: &'static str = "hash-ngram-v1-d384";

    /// The embedder.
    pub fn new() -> Self {
        HashingEmbedder
    }

    /// The embedding of `text` (all zeros when the text has no term); never fails.
    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; Self::DIMENSION];
        let mut chars: Vec<char> = Vec::new();
        let mut buf = [0u8; 12];
        for_each_token(text, |term| {
            add_feature(&mut v, b'w', term.as_bytes(), 1.0);
            chars.clear();
            chars.push('\u{2}');
            chars.extend(term.chars());
            chars.push('\u{3}');
            let grams = chars.len().saturating_sub(2);
            // A term's 3-grams together weigh as much as the term itself.
            let weight = 1.0 / (grams as f32).sqrt();
            for gram in chars.windows(3) {
                let mut len = 0;
                for c in gram {
                    len += c.encode_utf8(&mut buf[len..]).len();
                }
                add_feature(&mut v, b'g', &buf[..len], weight);
            }
        });
        normalize(&mut v);
        v
    }
}

/// Scales `v` to unit length (L2), as stored candidate embeddings must be; a zero or
/// non-finite vector is left as it is.
///
/// [`HashingEmbedder`] and [`EmbedPool`](crate::EmbedPool) already return unit vectors; call
/// this on vectors from any other source before storing them.
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

impl Embedder for HashingEmbedder {
    fn model_id(&self) -> &str {
        Self::MODEL_ID
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        Ok(self.vector(text))
    }

    fn understands_meaning(&self) -> bool {
        false
    }

    /// Hashing a text's terms and 3-grams is a loop over its characters: nothing can stall it.
    fn runs_inline(&self) -> bool {
        true
    }
}

/// Adds `weight` with a hashed sign to the hashed slot of a feature; the sign keeps collisions
/// from adding up to a bias.
fn add_feature(v: &mut [f32], kind: u8, bytes: &[u8], weight: f32) {
    let h = hash(kind, bytes);
    let slot = (h % v.len() as u64) as usize;
    v[slot] += if h >> 63 == 0 { weight } else { -weight };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_scales_to_unit_length_and_leaves_zero_alone() {
        let mut v = [3.0, 4.0];
        normalize(&mut v);
        assert_eq!(v, [0.6, 0.8]);
        let mut zero = [0.0f32; 3];
        normalize(&mut zero);
        assert_eq!(zero, [0.0; 3]);
    }

    #[test]
    fn empty_text_is_the_zero_vector() {
        let v = HashingEmbedder.vector("  [EMAIL] ");
        assert_eq!(v.len(), HashingEmbedder::DIMENSION);
        assert!(v.iter().all(|&x| x == 0.0));
    }
}

//! Fused ranking of a small candidate set: BM25, embedding cosine and entity overlap, combined
//! by Reciprocal Rank Fusion.
//!
//! The crate knows nothing about where texts come from. A caller tokenizes each text once when
//! it is written ([`TermStats::from_text`], optionally [`HashingEmbedder`] or its own
//! [`Embedder`]), stores the result, and at query time borrows it into [`Candidate`]s and calls
//! [`fuse`].
//!
//! ```
//! use fusion_rank::{
//!     Candidate, EmbedPool, Embedder, HashingEmbedder, PreparedQuery, SEMANTIC_BUDGET,
//!     TermStats, fuse,
//! };
//! use std::sync::Arc;
//!
//! // Write time: statistics and embeddings are computed once and stored with each text.
//! let texts = [
//!     ("m1", "Dana prefers short answers with bullet points", vec!["person:dana".to_owned()]),
//!     ("m2", "東京で寿司を食べるのが好き", vec![]),
//!     ("m3", "The Atlas deadline moved to March", vec!["project:atlas".to_owned()]),
//! ];
//! let embedder = HashingEmbedder::new();
//! let stored: Vec<_> = texts
//!     .iter()
//!     .map(|(id, text, entities)| {
//!         Ok((*id, TermStats::from_text(text), embedder.embed(text)?, entities.clone()))
//!     })
//!     .collect::<Result<_, fusion_rank::EmbedError>>()?;
//!
//! // Query time: the query embedding gets at most the semantic budget.
//! let pool = EmbedPool::with_default_workers(Arc::new(embedder))?;
//! let mut query = PreparedQuery::new("寿司");
//! match pool.embed_within("寿司", SEMANTIC_BUDGET) {
//!     Ok(vector) => query = query.with_embedding(vector),
//!     Err(_) => { /* report `semanticSkipped: true`; BM25 and entities still rank */ }
//! }
//! let candidates: Vec<Candidate> = stored
//!     .iter()
//!     .enumerate()
//!     .map(|(i, (id, terms, embedding, entities))| Candidate {
//!         recency: i as i64,
//!         id,
//!         terms: terms.into(),
//!         embedding: Some(embedding.as_slice()),
//!         entities,
//!     })
//!     .collect();
//! let top = fuse(&query, &candidates, 10);
//! let best = top.first().ok_or("no result")?;
//! assert_eq!(candidates[best.index].id, "m2");
//! assert_eq!(best.ranks.bm25, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What it computes
//!
//! - [`tokenize`]: UAX #29 words, full lowercase, full-width forms folded, Han/Kana/Hangul runs
//!   as overlapping bigrams, masker placeholders dropped.
//! - [`bm25_ranking`] (`k1 = 1.2`, `b = 0.75`, statistics over the candidate set),
//!   [`semantic_ranking`] (cosine > 0; stored vectors have unit length, see [`normalize`]) and
//!   [`entity_ranking`] (≥ 1 shared entity id), and [`time_ranking`] (created in the period the
//!   query names, newest first); ties go to the newer candidate, then the smaller id.
//! - [`fuse_rankings`]: `Σ 1 / (60 + rank)` over the rankers listing a candidate.
//! - [`EmbedPool::embed_within`]: the query embedding on a bounded worker pool, given up at the
//!   budget ([`SEMANTIC_BUDGET`], 800 ms) or at once when every worker is stuck.
//! - [`resolve_time`]: the time expression of a query ("last week", "先週", "בשבוע שעבר")
//!   as a [`Period`] of creation times, with the byte spans to leave out of BM25's terms
//!   ([`without_spans`]).
//!
//! Ranking costs `O(candidates × (query terms · log terms + dimension + entities))` plus one
//! sort per ranker; nothing is indexed per query.
//!
//! # Crate features
//!
//! - `serde`: derives `Serialize` and `Deserialize` for [`TermStats`] (stored at write time)
//!   and [`Ranks`] (an answer's `ranks` object).
//! - `openapi`: derives `utoipa::ToSchema` for [`Ranks`], so that a REST host's OpenAPI document
//!   describes the `ranks` object.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod analyze;
mod counts;
mod embed;
mod hash;
mod pool;
mod rank;
mod ranks;
mod terms;
mod time;
mod tokenize;

pub use analyze::{ANALYZER_VERSION, Analyzer, Language, analyze};
pub use counts::TermCounts;
pub use embed::{Embedder, HashingEmbedder, normalize};
pub use pool::{EmbedPool, PendingEmbedding, SEMANTIC_BUDGET};
pub use rank::{
    BM25_B, BM25_K1, Candidate, Fused, PreparedQuery, Rankings, Scored, Weights, bm25_postings,
    bm25_postings_with_coverage, bm25_ranking, bm25_with_coverage, entity_ranking, fuse,
    fuse_rankings, fuse_weighted, semantic_ranking, time_ranking,
};
pub use ranks::{RRF_K, Ranker, Ranks};
pub use terms::{TermStats, Terms};
pub use time::{Period, TimeMention, resolve_time, without_spans};
pub use tokenize::{PLACEHOLDERS, tokenize};

use std::time::Duration;

/// Why no embedding came back.
///
/// Messages never include the text being embedded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EmbedError {
    /// The embedder reported a failure (or panicked).
    #[error("embedder failed: {0}")]
    Failed(String),
    /// The budget passed before the embedder answered.
    #[error("embedding took longer than its budget of {} ms", budget.as_millis())]
    TimedOut {
        /// The budget that passed.
        budget: Duration,
    },
    /// Every worker of the pool is still running an earlier call.
    #[error("every embedding worker is busy")]
    Busy,
    /// A worker thread of the pool is gone.
    #[error("the embedding worker pool is closed")]
    Closed,
    /// The operating system refused to start a worker thread.
    #[error("could not start an embedding worker: {0}")]
    Spawn(String),
}

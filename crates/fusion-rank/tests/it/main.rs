//! Integration tests for `fusion-rank`: hand-computed BM25, fusion order, tokenization, the
//! hashing embedder, the semantic time budget, a labelled recall-quality set, the time
//! expressions of queries and properties.

mod bm25;
mod budget;
mod embedder;
mod fusion;
mod props;
mod quality;
mod time;
mod tokenizer;

use fusion_rank::{Candidate, HashingEmbedder, TermStats};

/// A stored text as a caller would keep it: statistics and embedding computed at write time.
pub(crate) struct Doc {
    pub(crate) id: String,
    pub(crate) recency: i64,
    pub(crate) stats: TermStats,
    pub(crate) embedding: Vec<f32>,
    pub(crate) entities: Vec<String>,
}

impl Doc {
    pub(crate) fn new(id: &str, recency: i64, text: &str, entities: &[&str]) -> Self {
        Doc {
            id: id.to_owned(),
            recency,
            stats: TermStats::from_text(text),
            embedding: HashingEmbedder.vector(text),
            entities: entities.iter().map(|e| (*e).to_owned()).collect(),
        }
    }

    pub(crate) fn candidate(&self) -> Candidate<'_> {
        Candidate {
            recency: self.recency,
            id: &self.id,
            terms: (&self.stats).into(),
            embedding: Some(&self.embedding),
            entities: &self.entities,
        }
    }
}

pub(crate) fn candidates(docs: &[Doc]) -> Vec<Candidate<'_>> {
    docs.iter().map(Doc::candidate).collect()
}

pub(crate) fn ids<'a>(
    candidates: &[Candidate<'a>],
    indices: impl IntoIterator<Item = usize>,
) -> Vec<&'a str> {
    indices.into_iter().map(|i| candidates[i].id).collect()
}

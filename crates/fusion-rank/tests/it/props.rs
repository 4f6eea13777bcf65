//! Properties of tokenization and fusion over generated inputs.

use crate::{Doc, candidates};
use fusion_rank::{Candidate, PreparedQuery, Rankings, fuse, tokenize};
use proptest::prelude::*;

const VOCABULARY: &[&str] = &[
    "dana",
    "atlas",
    "report",
    "weekly",
    "sync",
    "deadline",
    "東京",
    "寿司",
    "한국",
    "Ｒｕｓｔ",
    "meeting",
    "meetings",
    "notes",
    "[EMAIL]",
    "draft",
    "budget",
    "acme",
    "the",
    "a",
    "é",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..12).prop_map(|w| w.join(" "))
}

fn doc_specs() -> impl Strategy<Value = Vec<(String, i64, Vec<usize>)>> {
    prop::collection::vec(
        (text(), 0i64..4, prop::collection::vec(0usize..5, 0..3)),
        0..25,
    )
}

fn build(specs: &[(String, i64, Vec<usize>)]) -> Vec<Doc> {
    specs
        .iter()
        .enumerate()
        .map(|(i, (text, recency, entities))| {
            let entities: Vec<String> = entities.iter().map(|e| format!("e{e}")).collect();
            let refs: Vec<&str> = entities.iter().map(String::as_str).collect();
            Doc::new(&format!("c{i:02}"), *recency, text, &refs)
        })
        .collect()
}

fn query(text: &str, entities: &[usize]) -> PreparedQuery {
    PreparedQuery::new(text)
        .with_embedding(fusion_rank::HashingEmbedder.vector(text))
        .with_entities(entities.iter().map(|e| format!("e{e}")))
}

fn fused_ids<'a>(q: &PreparedQuery, cands: &[Candidate<'a>], limit: usize) -> Vec<&'a str> {
    fuse(q, cands, limit)
        .iter()
        .map(|f| cands[f.index].id)
        .collect()
}

proptest! {
    #[test]
    fn tokens_are_non_empty_words_without_spaces(s in any::<String>()) {
        for token in tokenize(&s) {
            prop_assert!(!token.is_empty());
            prop_assert!(!token.chars().any(char::is_whitespace), "{token:?}");
        }
    }

    #[test]
    fn a_placeholder_tokenizes_like_a_space(a in any::<String>(), b in any::<String>()) {
        prop_assert_eq!(tokenize(&format!("{a} [PHONE] {b}")), tokenize(&format!("{a} {b}")));
    }

    #[test]
    fn fusion_is_ordered_complete_and_consistent(
        specs in doc_specs(),
        q in text(),
        entities in prop::collection::vec(0usize..5, 0..3),
        limit in 0usize..30,
    ) {
        let docs = build(&specs);
        let cands = candidates(&docs);
        let q = query(&q, &entities);
        let all = fuse(&q, &cands, usize::MAX);
        let rankings = Rankings::compute(&q, &cands);
        let listed = |i: usize| [&rankings.bm25, &rankings.semantic, &rankings.entity]
            .iter()
            .any(|l| l.iter().any(|s| s.index == i));
        // Exactly the candidates some ranker lists, each once.
        prop_assert_eq!(all.len(), (0..cands.len()).filter(|&i| listed(i)).count());
        for pair in all.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let (ca, cb) = (&cands[a.index], &cands[b.index]);
            prop_assert!(
                a.score > b.score
                    || (a.score == b.score
                        && (ca.recency > cb.recency || (ca.recency == cb.recency && ca.id < cb.id)))
            );
        }
        for f in &all {
            prop_assert_eq!(f.score, f.ranks.rrf_score());
        }
        // A smaller limit is a prefix of the full order.
        let top = fuse(&q, &cands, limit);
        prop_assert_eq!(&top[..], &all[..limit.min(all.len())]);
    }

    #[test]
    fn candidate_order_does_not_change_the_result(
        specs in doc_specs(),
        q in text(),
        entities in prop::collection::vec(0usize..5, 0..3),
    ) {
        let docs = build(&specs);
        let cands = candidates(&docs);
        let mut reversed = cands.clone();
        reversed.reverse();
        let q = query(&q, &entities);
        prop_assert_eq!(fused_ids(&q, &cands, 10), fused_ids(&q, &reversed, 10));
    }
}

proptest! {
    /// BM25 from posting lists (what an inverted index hands out) is BM25 over the candidates'
    /// own term counts, bit for bit: the same scores in the same order.
    #[test]
    fn bm25_from_postings_equals_bm25_over_the_candidates(
        specs in doc_specs(),
        q in text(),
    ) {
        let docs = build(&specs);
        let cands = candidates(&docs);
        let prepared = PreparedQuery::new(&q);
        let postings: Vec<Vec<(u32, u32)>> = prepared
            .terms
            .iter()
            .map(|t| {
                docs.iter()
                    .enumerate()
                    .map(|(i, d)| (i as u32, d.stats.frequency(t)))
                    .filter(|(_, f)| *f > 0)
                    .collect()
            })
            .collect();
        let lengths_only: Vec<Candidate<'_>> = cands
            .iter()
            .map(|c| Candidate { terms: fusion_rank::Terms::length_only(c.terms.length()), ..*c })
            .collect();
        prop_assert_eq!(
            fusion_rank::bm25_postings(&postings, &lengths_only),
            fusion_rank::bm25_ranking(&prepared.terms, &cands)
        );
    }
}

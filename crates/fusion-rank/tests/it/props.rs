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
        let listed = |i: usize| rankings.iter().any(|(_, l)| l.iter().any(|s| s.index == i));
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
        let (from_postings, postings_coverage) =
            fusion_rank::bm25_postings_with_coverage(&postings, &lengths_only);
        let (from_counts, counts_coverage) =
            fusion_rank::bm25_with_coverage(&prepared.terms, &cands);
        prop_assert_eq!(&from_postings, &from_counts);
        // The fusion weighs BM25 by its coverage: both recall paths must give the same one.
        prop_assert_eq!(postings_coverage.to_bits(), counts_coverage.to_bits());
        prop_assert!((0.0..=1.0).contains(&counts_coverage));
        prop_assert_eq!(counts_coverage == 0.0, from_counts.is_empty() || prepared.terms.is_empty());
    }
}

/// Words of every script the analyzer tells apart, with stop words, inflections, apostrophes
/// (straight and typographic), digits, placeholders and CJK.
const MIXED: &[&str] = &[
    "The",
    "running",
    "runs",
    "Dana's",
    "don’t",
    "don't",
    "WHERE",
    "jogging",
    "v1.2",
    "2024s",
    "книги",
    "и",
    "собаках",
    "και",
    "βιβλία",
    "في",
    "الكتب",
    "של",
    "ספרים",
    "மற்றும்",
    "புத்தகம்",
    "東京タワー",
    "한국어",
    "[PHONE]",
    "Ｒｕｎｎｉｎｇ",
    "İstanbul",
    "naïve",
    "x",
];

fn mixed_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(MIXED), 0..16).prop_map(|w| w.join(" "))
}

proptest! {
    /// One analysis at write and at query time: a query made of a stored text's own words finds
    /// every one of its terms in that text's stored counts, and the counts' length is the number
    /// of analyzed terms. (A query analyzed otherwise than the stored text, as the tokenizer
    /// alone would, misses `the`, `running` and the rest.)
    #[test]
    fn a_text_asked_for_with_its_own_words_matches_every_query_term(
        stored in mixed_text(),
        extra in mixed_text(),
    ) {
        let stats = fusion_rank::TermStats::from_text(&stored);
        prop_assert_eq!(stats.length() as usize, fusion_rank::analyze(&stored).len());
        for term in PreparedQuery::new(&stored).terms {
            prop_assert!(stats.frequency(&term) > 0, "{term:?} of {stored:?}");
        }
        // Analysis never depends on the neighbouring words.
        let joined = fusion_rank::analyze(&format!("{stored} {extra}"));
        let mut apart = fusion_rank::analyze(&stored);
        apart.extend(fusion_rank::analyze(&extra));
        prop_assert_eq!(joined, apart);
    }
}

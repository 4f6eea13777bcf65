//! Reciprocal Rank Fusion on fixed rank lists, and the tie-breaks inside rankers and fusion.

use crate::{Doc, candidates, ids};
use fusion_rank::{
    PreparedQuery, Ranker, Rankings, Ranks, Scored, Weights, entity_ranking, fuse, fuse_rankings,
    fuse_weighted,
};

fn list(indices: &[usize]) -> Vec<Scored> {
    // Only the order matters to the fusion; the scores are placeholders.
    indices
        .iter()
        .map(|&index| Scored { index, score: 1.0 })
        .collect()
}

fn plain(id: &str, recency: i64) -> Doc {
    Doc::new(id, recency, "text", &[])
}

#[test]
fn rrf_sums_reciprocal_ranks_and_skips_unlisted_candidates() {
    let docs = [
        plain("c0", 5),
        plain("c1", 7),
        plain("c2", 0),
        plain("c3", 0),
        plain("c4", 9),
    ];
    let cands = candidates(&docs);
    let rankings = Rankings::from_lists(
        [
            (Ranker::Bm25, list(&[0, 1, 2])),
            (Ranker::Semantic, list(&[1, 0])),
            (Ranker::Entity, list(&[3])),
        ],
        1.0,
    );
    let fused = fuse_rankings(&cands, &rankings, 10);
    // c0: 1/61 + 1/62 and c1: 1/62 + 1/61 are equal (0.032522); c1 is newer, so first.
    // c3: 1/61 = 0.016393; c2: 1/63 = 0.015873; c4 is in no list.
    assert_eq!(
        ids(&cands, fused.iter().map(|f| f.index)),
        ["c1", "c0", "c3", "c2"]
    );
    assert_eq!(fused[0].score, fused[1].score);
    assert!((fused[0].score - (1.0 / 61.0 + 1.0 / 62.0)).abs() < 1e-15);
    assert_eq!(fused[2].score, 1.0 / 61.0);
    assert_eq!(fused[3].score, 1.0 / 63.0);
    assert_eq!(
        fused[0].ranks,
        Ranks {
            bm25: Some(2),
            semantic: Some(1),
            entity: None,
            time: None,
        }
    );
    assert_eq!(
        fused[2].ranks,
        Ranks {
            bm25: None,
            semantic: None,
            entity: Some(1),
            time: None,
        }
    );
    // The top `limit` of the same order.
    let top2 = fuse_rankings(&cands, &rankings, 2);
    assert_eq!(top2, fused[..2]);
}

#[test]
fn one_first_place_loses_to_two_fifth_places() {
    // solo: 1/61 = 0.016393; both: 1/65 + 1/65 = 0.030769. Agreement between rankers wins.
    let docs = [
        plain("solo", 9),
        plain("both", 0),
        plain("f1", 0),
        plain("f2", 0),
    ];
    let cands = candidates(&docs);
    let rankings = Rankings::from_lists(
        [
            (Ranker::Bm25, list(&[2, 3, 2, 3, 1])),
            (Ranker::Semantic, list(&[3, 2, 3, 2, 1])),
            (Ranker::Entity, list(&[0])),
        ],
        1.0,
    );
    let fused = fuse_rankings(&cands, &rankings, 10);
    let order = ids(&cands, fused.iter().map(|f| f.index));
    let (both, solo) = (
        order.iter().position(|&i| i == "both"),
        order.iter().position(|&i| i == "solo"),
    );
    assert!(both < solo, "{order:?}");
    let both = &fused[both.unwrap_or(0)];
    // A repeated index keeps its first position: f1 and f2 are ranks 1 and 2, "both" rank 5.
    assert_eq!(
        both.ranks,
        Ranks {
            bm25: Some(5),
            semantic: Some(5),
            entity: None,
            time: None,
        }
    );
    assert_eq!(both.score, 1.0 / 65.0 + 1.0 / 65.0);
}

#[test]
fn equal_rrf_scores_break_by_recency_then_id() {
    let docs = [plain("b", 3), plain("a", 3), plain("z", 4)];
    let cands = candidates(&docs);
    // Each candidate first in exactly one ranker: three equal scores of 1/61.
    let rankings = Rankings::from_lists(
        [
            (Ranker::Bm25, list(&[0])),
            (Ranker::Semantic, list(&[1])),
            (Ranker::Entity, list(&[2])),
        ],
        1.0,
    );
    let fused = fuse_rankings(&cands, &rankings, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["z", "a", "b"]);
}

#[test]
fn rankers_break_ties_by_recency_then_id() {
    let docs = [
        Doc::new("m-b", 1, "same words here", &["e1"]),
        Doc::new("m-a", 1, "same words here", &["e1"]),
        Doc::new("m-old", 0, "same words here", &["e1"]),
        Doc::new("m-new", 2, "same words here", &["e1"]),
    ];
    let cands = candidates(&docs);
    let expected = ["m-new", "m-a", "m-b", "m-old"];
    let query = PreparedQuery::new("words")
        .with_embedding(docs[0].embedding.clone())
        .with_entities(["e1"]);
    let rankings = Rankings::compute(&query, &cands);
    for (ranker, list) in rankings.iter() {
        if ranker == Ranker::Time {
            assert!(list.is_empty(), "the query names no period");
            continue;
        }
        assert_eq!(ids(&cands, list.iter().map(|s| s.index)), expected);
    }
    // All but the oldest in the period: the time ranker's ties go the same way.
    let timed = query.clone().with_period(fusion_rank::Period {
        start_ms: 1,
        end_ms: 3,
    });
    let rankings = Rankings::compute(&timed, &cands);
    assert_eq!(
        ids(&cands, rankings[Ranker::Time].iter().map(|s| s.index)),
        expected[..3]
    );
    // A period that holds every candidate lists every one: a question that names only a time
    // ("what did I note this year?") is answered by it when no other ranker lists anything.
    let everything = query.clone().with_period(fusion_rank::Period {
        start_ms: 0,
        end_ms: 3,
    });
    assert_eq!(
        ids(
            &cands,
            Rankings::compute(&everything, &cands)[Ranker::Time]
                .iter()
                .map(|s| s.index)
        ),
        expected
    );
    let fused = fuse(&query, &cands, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), expected);
    assert_eq!(
        fused[3].ranks,
        Ranks {
            bm25: Some(4),
            semantic: Some(4),
            entity: Some(4),
            time: None,
        }
    );
}

#[test]
fn entity_score_is_the_number_of_shared_ids() {
    let docs = [
        Doc::new("one", 9, "a", &["person:dana"]),
        Doc::new(
            "two",
            0,
            "a",
            &["person:dana", "project:atlas", "person:dana"],
        ),
        Doc::new("none", 9, "a", &["org:acme"]),
    ];
    let cands = candidates(&docs);
    let query = [
        "person:dana".to_owned(),
        "project:atlas".to_owned(),
        "person:dana".to_owned(),
    ];
    let ranked = entity_ranking(&query, &cands);
    assert_eq!(ids(&cands, ranked.iter().map(|s| s.index)), ["two", "one"]);
    assert_eq!(ranked[0].score, 2.0);
    assert_eq!(ranked[1].score, 1.0);
}

#[test]
fn without_a_query_embedding_the_other_rankers_still_fuse() {
    let docs = [
        Doc::new("m1", 0, "quarterly report draft", &[]),
        Doc::new("m2", 1, "weekly sync notes", &["team:core"]),
    ];
    let cands = candidates(&docs);
    let query = PreparedQuery::new("report").with_entities(["team:core"]);
    let fused = fuse(&query, &cands, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["m2", "m1"]);
    assert!(fused.iter().all(|f| f.ranks.semantic.is_none()));
}

/// Weights scale each list, depths cut it, and BM25 by coverage fades with the cube of the
/// share of the query its best match holds; ranks are reported whatever the weights.
#[test]
fn weights_scale_lists_and_depths_cut_them() {
    let docs = [plain("c0", 5), plain("c1", 7), plain("c2", 0)];
    let cands = candidates(&docs);
    let mut rankings = Rankings::from_lists(
        [
            (Ranker::Bm25, list(&[0, 1])),
            (Ranker::Semantic, list(&[1, 2])),
            (Ranker::Entity, list(&[])),
        ],
        0.5,
    );
    // Plain RRF: c1 is in both lists.
    let plain_fused = fuse_weighted(&cands, &rankings, &Weights::EQUAL, 10);
    assert_eq!(
        ids(&cands, plain_fused.iter().map(|f| f.index)),
        ["c1", "c0", "c2"]
    );
    // Semantic alone: its own list, with BM25's ranks still reported.
    let alone = fuse_weighted(&cands, &rankings, &Weights::only(Ranker::Semantic), 10);
    assert_eq!(ids(&cands, alone.iter().map(|f| f.index)), ["c1", "c2"]);
    assert_eq!(alone[0].ranks.bm25, Some(2));
    // BM25 by coverage: 0.5³ of its weight.
    let by_coverage = Weights {
        bm25_by_coverage: true,
        ..Weights::EQUAL
    };
    let fused = fuse_weighted(&cands, &rankings, &by_coverage, 10);
    let c0 = fused.iter().find(|f| cands[f.index].id == "c0").unwrap();
    assert!((c0.score - 0.125 / 61.0).abs() < 1e-12, "{}", c0.score);
    // No coverage: BM25 adds nothing, and a candidate only BM25 lists is not returned.
    rankings.bm25_coverage = 0.0;
    let fused = fuse_weighted(&cands, &rankings, &by_coverage, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["c1", "c2"]);
    // A semantic depth of 1 keeps only its first rank.
    let shallow = Weights {
        semantic_depth: Some(1),
        ..Weights::only(Ranker::Semantic)
    };
    let fused = fuse_weighted(&cands, &rankings, &shallow, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["c1"]);
    assert_eq!(Weights::new(1.0, -1.0, 0.0), None);
    assert_eq!(Weights::new(0.0, 0.0, 0.0), None);
    assert_eq!(Weights::new(f64::NAN, 1.0, 0.0), None);
}

//! BM25 scores checked against values worked out by hand.

use crate::{Doc, candidates, ids};
use fusion_rank::bm25_ranking;

fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "{actual} != {expected}");
}

fn set() -> Vec<Doc> {
    vec![
        Doc::new("d0", 0, "cat sat mat", &[]),
        Doc::new("d1", 0, "cat cat dog", &[]),
        Doc::new("d2", 0, "dog bird", &[]),
        Doc::new("d3", 0, "fish", &[]),
    ]
}

#[test]
fn two_terms_with_equal_idf() {
    // N = 4, lengths 3, 3, 2, 1: avgdl = 9 / 4 = 2.25.
    // n(cat) = 2, n(dog) = 2: idf = ln(1 + (4 - 2 + 0.5) / (2 + 0.5)) = ln 2 = 0.693147180...
    // Length norm K = k1 · (1 - b + b · |d| / avgdl):
    //   |d| = 3: 1.2 · (0.25 + 0.75 · 3 / 2.25) = 1.2 · 1.25 = 1.5
    //   |d| = 2: 1.2 · (0.25 + 0.75 · 2 / 2.25) = 1.2 · 0.91666... = 1.1
    // Term weight idf · f · (k1 + 1) / (f + K):
    //   d0, cat f=1: ln2 · 2.2 / 2.5 = ln2 · 0.88 = 0.609969519
    //   d1, cat f=2: ln2 · 4.4 / 3.5 = ln2 · 1.257142857; dog f=1: ln2 · 0.88
    //       total ln2 · 2.137142857 = 1.481354546
    //   d2, dog f=1: ln2 · 2.2 / 2.1 = ln2 · 1.047619048 = 0.726154189
    //   d3: no term, not listed.
    let docs = set();
    let cands = candidates(&docs);
    let ranked = bm25_ranking(&["cat".into(), "dog".into()], &cands);
    assert_eq!(
        ids(&cands, ranked.iter().map(|s| s.index)),
        ["d1", "d2", "d0"]
    );
    close(ranked[0].score, 1.481_354_545_882_397_6);
    close(ranked[1].score, 0.726_154_189_158_037_9);
    close(ranked[2].score, 0.609_969_518_892_751_9);
}

#[test]
fn a_rare_term_outweighs_a_repeated_common_one() {
    // Adding "bird": n(bird) = 1, idf = ln(1 + (4 - 1 + 0.5) / (1 + 0.5)) = ln(10 / 3) = 1.203972804.
    //   d2: (ln2 + ln(10/3)) · 2.2 / 2.1 = 1.897119985 · 1.047619048 = 1.987459032
    // d1 and d0 keep their scores from the two-term query.
    let docs = set();
    let cands = candidates(&docs);
    let ranked = bm25_ranking(&["cat".into(), "dog".into(), "bird".into()], &cands);
    assert_eq!(
        ids(&cands, ranked.iter().map(|s| s.index)),
        ["d2", "d1", "d0"]
    );
    close(ranked[0].score, 1.987_459_031_785_209);
    close(ranked[1].score, 1.481_354_545_882_397_6);
    close(ranked[2].score, 0.609_969_518_892_751_9);
}

#[test]
fn statistics_come_from_the_candidate_set_only() {
    // The same text scores differently in another set: with d0 alone, N = 1, n(cat) = 1,
    // idf = ln(1 + 0.5 / 1.5) = ln(4 / 3) = 0.287682072, avgdl = 3, K = 1.2:
    //   ln(4/3) · 2.2 / 2.2 = 0.287682072
    let docs = set();
    let cands = candidates(&docs[..1]);
    let ranked = bm25_ranking(&["cat".into()], &cands);
    close(ranked[0].score, (4.0f64 / 3.0).ln());
}

#[test]
fn a_term_in_every_candidate_still_counts() {
    // n = N = 2: idf = ln(1 + 0.5 / 2.5) = ln 1.2 > 0, so both are listed, the shorter first.
    let docs = [Doc::new("a", 0, "x y", &[]), Doc::new("b", 0, "x", &[])];
    let cands = candidates(&docs);
    let ranked = bm25_ranking(&["x".into()], &cands);
    assert_eq!(ids(&cands, ranked.iter().map(|s| s.index)), ["b", "a"]);
    assert!(ranked.iter().all(|s| s.score > 0.0));
}

//! Tokenization as recall sees it: text without spaces, placeholders, full-width forms.

use crate::{Doc, candidates, ids};
use fusion_rank::{PLACEHOLDERS, PreparedQuery, TermStats, fuse, tokenize};

#[test]
fn japanese_without_spaces_is_found_by_a_japanese_word() {
    let docs = [
        Doc::new("sushi", 0, "東京で寿司を食べるのが好き", &[]),
        Doc::new("osaka", 1, "大阪の出張は来月に延期された", &[]),
        Doc::new("english", 2, "Dana prefers short answers", &[]),
    ];
    let cands = candidates(&docs);
    for query in ["寿司", "寿司が好き", "東京"] {
        let fused = fuse(&PreparedQuery::new(query), &cands, 10);
        assert_eq!(
            ids(&cands, fused.iter().map(|f| f.index)),
            ["sushi"],
            "query {query}"
        );
    }
    let fused = fuse(&PreparedQuery::new("出張"), &cands, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["osaka"]);
}

#[test]
fn chinese_and_korean_runs_are_bigrams_too() {
    assert_eq!(tokenize("我喜欢寿司"), ["我喜", "喜欢", "欢寿", "寿司"]);
    let stats = TermStats::from_text("서울에서 회의가 있다");
    assert_eq!(stats.frequency("회의"), 1);
    assert_eq!(stats.frequency("서울"), 1);
}

#[test]
fn placeholders_give_no_tokens() {
    for placeholder in PLACEHOLDERS {
        assert!(tokenize(placeholder).is_empty(), "{placeholder}");
    }
    assert_eq!(
        tokenize("write to [EMAIL] or call [PHONE], card [CARD], IBAN [IBAN], id [IL_ID]"),
        ["write", "to", "or", "call", "card", "iban", "id"]
    );
    // Two memories that differ only by their masked values share no placeholder term.
    let a = TermStats::from_text("[EMAIL] [NUMBER] [BANK_ACCOUNT]");
    assert_eq!(a.length(), 0);
}

#[test]
fn full_width_latin_and_digits_match_their_ascii_forms() {
    assert_eq!(
        tokenize("Ｄａｎａ　ｐｒｅｆｅｒｓ　２０２４"),
        ["dana", "prefers", "2024"]
    );
    let docs = [
        Doc::new("fw", 0, "ＡＴＬＡＳ ｄｅａｄｌｉｎｅ", &[]),
        Doc::new("other", 1, "lunch", &[]),
    ];
    let cands = candidates(&docs);
    let fused = fuse(&PreparedQuery::new("atlas DEADLINE"), &cands, 10);
    assert_eq!(ids(&cands, fused.iter().map(|f| f.index)), ["fw"]);
}

#[test]
fn unicode_case_folds_for_matching() {
    assert_eq!(tokenize("ÉCOLE Straße ΣΟΦΊΑ"), ["école", "straße", "σοφία"]);
}

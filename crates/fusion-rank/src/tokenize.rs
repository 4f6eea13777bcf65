//! The tokenizer: the words (and CJK bigrams) of a text, which the analyzer refines for BM25 and
//! the hashing embedder hashes as they are.

use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;

/// The placeholders written by the personal-data masker; they stand for removed values, so they
/// must not make two unrelated texts look alike and produce no token.
pub const PLACEHOLDERS: [&str; 7] = [
    "[EMAIL]",
    "[PHONE]",
    "[CARD]",
    "[IBAN]",
    "[IL_ID]",
    "[BANK_ACCOUNT]",
    "[NUMBER]",
];

/// Splits `text` into search terms.
///
/// - Words follow Unicode word boundaries (UAX #29) and are lowercased with the full Unicode
///   mapping; full-width Latin letters, digits and punctuation (U+FF01–U+FF5E) are read as their
///   ASCII forms first, and the ideographic space as a space.
/// - A run of Han, Hiragana, Katakana or Hangul letters becomes its overlapping two-character
///   pieces (a one-character run is one term), so text written without spaces is searchable.
/// - Masker placeholders such as `[EMAIL]` produce nothing.
///
/// ```
/// use fusion_rank::tokenize;
///
/// assert_eq!(tokenize("Ｄａｎａ likes [EMAIL] SUSHI"), ["dana", "likes", "sushi"]);
/// assert_eq!(tokenize("寿司を食べる"), ["寿司", "司を", "を食", "食べ", "べる"]);
/// ```
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |token| out.push(token.to_owned()));
    out
}

/// Calls `emit` with every term of `text`, in order, without allocating one string per term.
pub(crate) fn for_each_token(text: &str, mut emit: impl FnMut(&str)) {
    let clean = normalise(text);
    let mut word = String::new();
    let mut run: Vec<char> = Vec::new();
    let mut scratch = String::new();
    for segment in clean.split_word_bounds() {
        if !segment.chars().any(char::is_alphanumeric) {
            // Spaces and punctuation end a run of ideographs as well as a word.
            flush_run(&mut run, &mut scratch, &mut emit);
            continue;
        }
        for c in segment.chars() {
            if c.is_whitespace() {
                // UAX #29 glues a combining mark to a preceding space; the space still separates.
                flush_word(&mut word, &mut emit);
                flush_run(&mut run, &mut scratch, &mut emit);
            } else if in_cjk_block(c) {
                flush_word(&mut word, &mut emit);
                if c.is_alphanumeric() {
                    run.push(c);
                } else {
                    // Kana punctuation such as the middle dot separates like a space.
                    flush_run(&mut run, &mut scratch, &mut emit);
                }
            } else {
                flush_run(&mut run, &mut scratch, &mut emit);
                word.push(c);
            }
        }
        // A run goes on into the next segment (UAX #29 cuts between ideographs), a word does not.
        flush_word(&mut word, &mut emit);
    }
    flush_run(&mut run, &mut scratch, &mut emit);
}

fn flush_word(word: &mut String, emit: &mut impl FnMut(&str)) {
    if word.chars().any(char::is_alphanumeric) {
        if word.is_ascii() {
            word.make_ascii_lowercase();
            emit(word);
        } else {
            // `str::to_lowercase` applies the full mapping, including a word-final sigma.
            emit(&word.to_lowercase());
        }
    }
    word.clear();
}

fn flush_run(run: &mut Vec<char>, scratch: &mut String, emit: &mut impl FnMut(&str)) {
    match run.len() {
        0 => {}
        1 => {
            scratch.clear();
            scratch.push(run[0]);
            emit(scratch);
        }
        _ => {
            for pair in run.windows(2) {
                scratch.clear();
                scratch.push(pair[0]);
                scratch.push(pair[1]);
                emit(scratch);
            }
        }
    }
    run.clear();
}

/// Han, Hiragana, Katakana and Hangul blocks (letters and the few punctuation marks inside them;
/// the caller tells them apart with `is_alphanumeric`).
fn in_cjk_block(c: char) -> bool {
    matches!(c as u32,
        // Hangul Jamo, compatibility Jamo, Jamo extended A, syllables, Jamo extended B.
        0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF
        // Han: iteration mark, ideographic zero, Hangzhou numerals, unified ideographs and
        // extension A, compatibility ideographs, the supplementary ideographic planes.
        | 0x3005 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303B | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF
        // Hiragana, Katakana, Katakana phonetic extensions, half-width Katakana, Kana supplement.
        | 0x3040..=0x309F | 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F | 0x1B000..=0x1B16F
    )
}

/// Full-width ASCII forms and the ideographic space, which NFKC maps to ASCII.
fn fold(c: char) -> char {
    match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        0x3000 => ' ',
        _ => c,
    }
}

/// Folds full-width forms and blanks out placeholders; borrows when there is nothing to do.
fn normalise(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c == '[' || fold(c) != c) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '['
            && let Some(placeholder) = PLACEHOLDERS.iter().find(|p| rest.starts_with(*p))
        {
            out.push(' ');
            rest = &rest[placeholder.len()..];
            continue;
        }
        out.push(fold(c));
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_with_the_full_mapping() {
        assert_eq!(tokenize("Hello, WORLD!"), ["hello", "world"]);
        assert_eq!(tokenize("ΟΔΟΣ straße"), ["οδος", "straße"]);
        assert_eq!(tokenize("İstanbul"), ["i\u{307}stanbul"]);
    }

    #[test]
    fn contractions_and_numbers_stay_one_word() {
        assert_eq!(
            tokenize("Dana's v1.2 costs 3.50"),
            ["dana's", "v1.2", "costs", "3.50"]
        );
    }

    #[test]
    fn placeholders_vanish_even_when_glued_to_words() {
        assert!(
            tokenize("[EMAIL] [PHONE] [CARD] [IBAN] [IL_ID] [BANK_ACCOUNT] [NUMBER]").is_empty()
        );
        assert_eq!(tokenize("mail:[EMAIL],tel[PHONE]x"), ["mail", "tel", "x"]);
        // Only the masker's exact spelling is a placeholder.
        assert_eq!(tokenize("[Email] [FOO]"), ["email", "foo"]);
    }

    #[test]
    fn full_width_forms_fold_to_ascii() {
        assert_eq!(tokenize("ＡＢＣ１２３　ｄｅｆ"), ["abc123", "def"]);
        assert_eq!(tokenize("Ｒｕｓｔ！"), tokenize("rust!"));
    }

    #[test]
    fn cjk_runs_become_bigrams_across_script_changes() {
        assert_eq!(tokenize("東京"), ["東京"]);
        assert_eq!(tokenize("東"), ["東"]);
        assert_eq!(tokenize("東京タワー"), ["東京", "京タ", "タワ", "ワー"]);
        assert_eq!(tokenize("東京、大阪"), ["東京", "大阪"]);
        assert_eq!(tokenize("한국어 abc"), ["한국", "국어", "abc"]);
        assert_eq!(tokenize("2024年"), ["2024", "年"]);
        assert_eq!(tokenize("ＴＯＫＹＯ東京"), ["tokyo", "東京"]);
    }
}

//! Context words (account, card and ID keywords) looked up in a short window before a value.

use super::prev_char_start;
use crate::Category;

/// A context word, lower case.
pub(crate) struct Word {
    text: &'static str,
    /// Also needs a non-letter after it: short words would otherwise match inside longer ones.
    whole: bool,
}

const fn w(text: &'static str) -> Word {
    Word { text, whole: false }
}

const fn whole(text: &'static str) -> Word {
    Word { text, whole: true }
}

/// A list of context words with a table of the bytes they can start with, so the search skips
/// most positions with one lookup.
pub(crate) struct Words {
    words: &'static [Word],
    first: [bool; 256],
}

const fn words(words: &'static [Word]) -> Words {
    let mut first = [false; 256];
    let mut i = 0;
    while i < words.len() {
        let b = words[i].text.as_bytes()[0];
        first[b as usize] = true;
        first[b.to_ascii_uppercase() as usize] = true;
        i += 1;
    }
    Words { words, first }
}

/// Words that introduce an Israeli ID.
pub(crate) const ID_WORDS: Words = words(&[
    w("ת.ז"),
    w("ת\"ז"),
    w("ת״ז"),
    w("תז"),
    w("תעודת זהות"),
    w("מספר זהות"),
    whole("id"),
    w("identity"),
    w("teudat zehut"),
]);

/// Words that introduce a bank account.
pub(crate) const ACCOUNT_WORDS: Words = words(&[
    w("account"),
    w("acct"),
    w("a/c"),
    w("bank"),
    w("branch"),
    w("חשבון"),
    w("ח-ן"),
    w("ח\"ן"),
    w("בנק"),
    w("סניף"),
    w("口座"),
]);

/// Words that introduce a payment card.
pub(crate) const CARD_WORDS: Words = words(&[
    w("card"),
    w("visa"),
    w("mastercard"),
    w("amex"),
    w("american express"),
    w("diners"),
    w("discover"),
    w("maestro"),
    w("unionpay"),
    whole("jcb"),
    w("credit"),
    w("debit"),
    w("כרטיס"),
    w("אשראי"),
    w("カード"),
    w("クレジット"),
    w("卡"),
]);

/// Words that introduce a US Social Security number.
pub(crate) const SSN_WORDS: Words = words(&[
    whole("ssn"),
    w("social security"),
    w("soc sec"),
    whole("ss#"),
    whole("ss no"),
    w("ssn#"),
    w("social security no"),
    w("社会保障番号"),
    w("ソーシャルセキュリティ番号"),
    w("מספר ביטוח לאומי אמריקאי"),
]);

/// Words that make a dotted quad a version rather than an address.
pub(crate) const VERSION_WORDS: Words = words(&[
    w("version"),
    whole("ver"),
    w("release"),
    w("build"),
    w("firmware"),
    w("upgraded to"),
    w("updated to"),
]);

/// Longest word above, in characters: the search looks this far past the window so that a
/// word ending inside the window is seen whole.
const LONGEST_WORD_CHARS: usize = 16;

/// True when one of `words` ends within `window` characters before `pos` in the view `s`.
pub(crate) fn word_before(s: &str, pos: usize, window: usize, words: &Words) -> bool {
    let v = s.as_bytes();
    let mut window_start = pos;
    for _ in 0..window {
        if window_start == 0 {
            break;
        }
        window_start = prev_char_start(v, window_start);
    }
    let mut region_start = window_start;
    for _ in 0..LONGEST_WORD_CHARS {
        if region_start == 0 {
            break;
        }
        region_start = prev_char_start(v, region_start);
    }
    for k in region_start..pos {
        let b = v[k];
        if !words.first[usize::from(b)] {
            continue;
        }
        for word in words.words {
            let t = word.text.as_bytes();
            if t[0] != b.to_ascii_lowercase() {
                continue;
            }
            let end = k + t.len();
            if end > pos || end < window_start || !v[k..end].eq_ignore_ascii_case(t) {
                continue;
            }
            if t[0].is_ascii_alphabetic() && k > 0 && v[k - 1].is_ascii_alphabetic() {
                continue;
            }
            if word.whole && v.get(end).is_some_and(u8::is_ascii_alphabetic) {
                continue;
            }
            if inside_placeholder(v, k, end) {
                continue;
            }
            return true;
        }
    }
    false
}

/// Like [`word_before`], but only words on the same line as `pos` count. Words that make a
/// value safe use this: a word on the line before says nothing about a value on a line of its
/// own (`ver` closing one line never makes the address on the next a version).
pub(crate) fn word_before_on_line(s: &str, pos: usize, window: usize, words: &Words) -> bool {
    let line_start = s[..pos]
        .char_indices()
        .rev()
        .find(|&(_, c)| is_line_break(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    word_before(&s[line_start..], pos - line_start, window, words)
}

/// Characters that end a line: LF, CR, vertical tab, form feed, NEL and the Unicode line and
/// paragraph separators.
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// True when `start..end` lies inside a placeholder such as `[BANK_ACCOUNT]`: the words in
/// placeholders are ours, not context the user wrote.
fn inside_placeholder(v: &[u8], start: usize, end: usize) -> bool {
    let from = start.saturating_sub(14);
    (from..=start).rev().any(|p| {
        v[p] == b'['
            && Category::ALL.iter().any(|c| {
                let ph = c.placeholder().as_bytes();
                p + ph.len() >= end && v[p..].starts_with(ph)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn before(s: &str, words: &Words, window: usize) -> bool {
        let pos = s.find('#').unwrap();
        word_before(s, pos, window, words)
    }

    #[test]
    fn a_safe_making_word_counts_only_on_its_own_line() {
        let on_line = |s: &str| word_before_on_line(s, s.find('#').unwrap(), 12, &VERSION_WORDS);
        assert!(on_line("firmware ver #"));
        assert!(on_line("line one\nver #"));
        for br in [
            "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        ] {
            let text = format!("ver{br}#");
            assert!(before(&text, &VERSION_WORDS, 12));
            assert!(!on_line(&text), "{br:?}");
        }
    }

    #[test]
    fn finds_words_inside_the_window() {
        assert!(before("account #", &ACCOUNT_WORDS, 25));
        assert!(before("Bank Leumi, branch 12, no. #", &ACCOUNT_WORDS, 25));
        assert!(before("מספר חשבון: #", &ACCOUNT_WORDS, 25));
        assert!(before("ID #", &ID_WORDS, 20));
        assert!(before("ת.ז. #", &ID_WORDS, 20));
        assert!(before("my Visa: #", &CARD_WORDS, 20));
    }

    #[test]
    fn ignores_words_too_far_glued_or_inside_placeholders() {
        assert!(!before(
            "account and then quite a lot of words #",
            &ACCOUNT_WORDS,
            25
        ));
        assert!(!before("invoice #", &ACCOUNT_WORDS, 25));
        assert!(!before("paid #", &ID_WORDS, 20));
        assert!(!before("idea #", &ID_WORDS, 20));
        assert!(!before("[BANK_ACCOUNT] #", &ACCOUNT_WORDS, 25));
        assert!(!before("[IL_ID] #", &ID_WORDS, 20));
        assert!(!before("[CARD] #", &CARD_WORDS, 20));
    }
}

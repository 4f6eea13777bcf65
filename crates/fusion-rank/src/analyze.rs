//! The analyzer BM25 and the recall index read: the tokenizer's terms, less each script's
//! function words, each word reduced to its Snowball stem.
//!
//! The same function runs when a text is written ([`TermStats::from_text`]) and on every query
//! ([`PreparedQuery::new`]), so a stored term and a query term match exactly when the analyzer
//! maps both words to one stem. Changing anything here changes stored term counts: the storage
//! formats record which analyzer wrote them ([`ANALYZER_VERSION`]) and re-analyze on upgrade.
//!
//! [`TermStats::from_text`]: crate::TermStats::from_text
//! [`PreparedQuery::new`]: crate::PreparedQuery::new

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;

use crate::tokenize::for_each_token;

/// The analyzer's version: stored term counts written by another version must be computed
/// again (the storage backends do it when they upgrade a database).
///
/// - 1: the tokenizer's terms as they are (every word, no stemming).
/// - 2: function words removed and words stemmed by their script's language.
pub const ANALYZER_VERSION: u32 = 2;

/// Which terms BM25 and the recall index count: what a text's stored term counts and a query's
/// terms are made of. Writer and reader must use the same one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Analyzer {
    /// [`analyze`]: function words dropped, words stemmed by their script's language (analyzer
    /// version 2, [`ANALYZER_VERSION`]). The default, and what the storage formats hold.
    #[default]
    Stemmed,
    /// [`tokenize`](crate::tokenize) alone: every word as written (analyzer version 1, the
    /// seeds' contract). For reproducing answers ranked before the analyzer existed, such as
    /// recorded scenarios; a database the default analyzer reads must not be written with it.
    Words,
}

impl Analyzer {
    /// The analyzer version whose term counts it makes.
    pub const fn version(self) -> u32 {
        match self {
            Analyzer::Stemmed => ANALYZER_VERSION,
            Analyzer::Words => 1,
        }
    }

    /// The terms of `text`, in order, repeats kept.
    pub fn analyze(self, text: &str) -> Vec<String> {
        match self {
            Analyzer::Stemmed => analyze(text),
            Analyzer::Words => crate::tokenize(text),
        }
    }

    /// The term counts and length of `text` (what a writer stores).
    pub fn term_stats(self, text: &str) -> crate::TermStats {
        crate::TermStats::from_tokens(self.analyze(text))
    }
}

/// The language the analyzer reads a word in, told by the word's script.
///
/// Latin script is read as English: a script alone cannot tell English from French, and
/// English is what most notes are written in. Words in scripts without a stemmer (Hebrew,
/// Han/Kana/Hangul bigrams, …) keep their form; Hebrew still loses its function words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Language {
    /// Latin script.
    English,
    /// Cyrillic script.
    Russian,
    /// Greek script.
    Greek,
    /// Arabic script.
    Arabic,
    /// Tamil script.
    Tamil,
    /// Hebrew script: function words only, no Snowball stemmer exists.
    Hebrew,
}

impl Language {
    /// The language of a lowercased word, from its first letter's script; `None` for scripts
    /// the analyzer leaves alone.
    pub fn of_word(word: &str) -> Option<Language> {
        let c = word.chars().find(|c| c.is_alphabetic())?;
        Some(match c as u32 {
            0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Language::English,
            0x400..=0x52F | 0x1C80..=0x1C8F => Language::Russian,
            0x370..=0x3FF | 0x1F00..=0x1FFF => Language::Greek,
            0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF => Language::Arabic,
            0xB80..=0xBFF => Language::Tamil,
            0x590..=0x5FF => Language::Hebrew,
            _ => return None,
        })
    }

    fn stop_words(self) -> &'static [&'static str] {
        match self {
            Language::English => ENGLISH_STOP,
            Language::Russian => RUSSIAN_STOP,
            Language::Greek => GREEK_STOP,
            Language::Arabic => ARABIC_STOP,
            Language::Tamil => TAMIL_STOP,
            Language::Hebrew => HEBREW_STOP,
        }
    }

    fn stemmer(self) -> Option<&'static Stemmer> {
        static STEMMERS: OnceLock<[Stemmer; 5]> = OnceLock::new();
        let all = STEMMERS.get_or_init(|| {
            [
                Stemmer::create(Algorithm::English),
                Stemmer::create(Algorithm::Russian),
                Stemmer::create(Algorithm::Greek),
                Stemmer::create(Algorithm::Arabic),
                Stemmer::create(Algorithm::Tamil),
            ]
        });
        match self {
            Language::English => Some(&all[0]),
            Language::Russian => Some(&all[1]),
            Language::Greek => Some(&all[2]),
            Language::Arabic => Some(&all[3]),
            Language::Tamil => Some(&all[4]),
            Language::Hebrew => None,
        }
    }

    /// Whether `word` (lowercased, apostrophes straight) is one of this language's function
    /// words.
    pub fn is_stop_word(self, word: &str) -> bool {
        self.stop_words().binary_search(&word).is_ok()
    }
}

/// Splits `text` into the terms BM25 and the recall index count: [`tokenize`]'s terms with
/// function words dropped and words stemmed.
///
/// - Han, Hiragana, Katakana and Hangul bigrams are kept as they are.
/// - A word's script tells its language ([`Language::of_word`]); its function words are
///   dropped, and a word made only of letters is reduced to its Snowball stem (English for
///   Latin script, Russian for Cyrillic, Greek, Arabic, Tamil). Words with digits stay whole.
/// - Typographic apostrophes are read as `'`, so `don’t` and `don't` are one word.
/// - Masker placeholders give nothing, as in [`tokenize`].
///
/// ```
/// use fusion_rank::analyze;
///
/// assert_eq!(analyze("Where do I like to go jogging?"), ["like", "go", "jog"]);
/// assert_eq!(analyze("She runs; they were running"), ["run", "run"]);
/// assert_eq!(analyze("寿司を食べる"), ["寿司", "司を", "を食", "食べ", "べる"]);
/// assert!(analyze("[EMAIL] and the [PHONE]").is_empty());
/// ```
///
/// [`tokenize`]: crate::tokenize
pub fn analyze(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |term| out.push(term.to_owned()));
    out
}

/// Calls `emit` with every analyzed term of `text`, in order.
pub(crate) fn for_each_term(text: &str, mut emit: impl FnMut(&str)) {
    let mut straight = String::new();
    for_each_token(text, |token| {
        let Some(language) = Language::of_word(token) else {
            emit(token);
            return;
        };
        let word: &str = if token.contains('\u{2019}') {
            straight.clear();
            straight.extend(
                token
                    .chars()
                    .map(|c| if c == '\u{2019}' { '\'' } else { c }),
            );
            &straight
        } else {
            token
        };
        if language.is_stop_word(word) {
            return;
        }
        match language.stemmer() {
            Some(stemmer) if word.chars().all(|c| c.is_alphabetic() || c == '\'') => {
                let stem = stemmer.stem(word);
                let stem = stem.trim_end_matches('\'');
                if !stem.is_empty() && !language.is_stop_word(stem) {
                    emit(stem);
                }
            }
            _ => emit(word),
        }
    });
}

// The stop lists below are sorted (byte order) for binary search; a unit test checks it. They
// hold the function words of everyday notes and questions — articles, pronouns, auxiliaries,
// prepositions, conjunctions, question words and chat fillers — and none of the words that
// carry a note's subject (months, numbers, names, `like`, `go`).

const ENGLISH_STOP: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "ah",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "anyway",
    "are",
    "aren't",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "can't",
    "cannot",
    "could",
    "couldn't",
    "did",
    "didn't",
    "do",
    "does",
    "doesn't",
    "doing",
    "don't",
    "down",
    "during",
    "each",
    "either",
    "else",
    "etc",
    "even",
    "ever",
    "every",
    "few",
    "for",
    "from",
    "further",
    "gonna",
    "gotta",
    "had",
    "hadn't",
    "has",
    "hasn't",
    "have",
    "haven't",
    "having",
    "he",
    "he'd",
    "he'll",
    "he's",
    "hello",
    "her",
    "here",
    "here's",
    "hers",
    "herself",
    "hey",
    "hi",
    "him",
    "himself",
    "his",
    "how",
    "how's",
    "however",
    "i",
    "i'd",
    "i'll",
    "i'm",
    "i've",
    "if",
    "in",
    "into",
    "is",
    "isn't",
    "it",
    "it'd",
    "it'll",
    "it's",
    "its",
    "itself",
    "just",
    "let's",
    "lol",
    "me",
    "might",
    "mine",
    "more",
    "most",
    "much",
    "must",
    "mustn't",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "off",
    "oh",
    "ok",
    "okay",
    "on",
    "once",
    "only",
    "onto",
    "or",
    "other",
    "others",
    "ought",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "quite",
    "rather",
    "really",
    "same",
    "shall",
    "shan't",
    "she",
    "she'd",
    "she'll",
    "she's",
    "should",
    "shouldn't",
    "so",
    "some",
    "such",
    "than",
    "that",
    "that's",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "there's",
    "these",
    "they",
    "they'd",
    "they'll",
    "they're",
    "they've",
    "this",
    "those",
    "though",
    "through",
    "thus",
    "to",
    "too",
    "toward",
    "towards",
    "uh",
    "um",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "via",
    "wanna",
    "was",
    "wasn't",
    "we",
    "we'd",
    "we'll",
    "we're",
    "we've",
    "were",
    "weren't",
    "what",
    "what's",
    "whatever",
    "when",
    "when's",
    "where",
    "where's",
    "whether",
    "which",
    "while",
    "who",
    "who's",
    "whom",
    "whose",
    "why",
    "why's",
    "will",
    "with",
    "within",
    "without",
    "won't",
    "would",
    "wouldn't",
    "yeah",
    "yes",
    "yet",
    "you",
    "you'd",
    "you'll",
    "you're",
    "you've",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

const RUSSIAN_STOP: &[&str] = &[
    "а",
    "без",
    "бы",
    "был",
    "была",
    "были",
    "было",
    "быть",
    "в",
    "вам",
    "вас",
    "вот",
    "все",
    "всё",
    "вы",
    "где",
    "да",
    "для",
    "до",
    "его",
    "ее",
    "если",
    "есть",
    "еще",
    "ещё",
    "её",
    "же",
    "за",
    "и",
    "из",
    "или",
    "им",
    "их",
    "к",
    "как",
    "какой",
    "когда",
    "кто",
    "ли",
    "мне",
    "мой",
    "мы",
    "на",
    "над",
    "не",
    "нет",
    "но",
    "ну",
    "о",
    "об",
    "он",
    "она",
    "они",
    "оно",
    "от",
    "по",
    "под",
    "после",
    "при",
    "про",
    "с",
    "со",
    "так",
    "там",
    "тебя",
    "то",
    "тоже",
    "только",
    "ты",
    "у",
    "уже",
    "чем",
    "что",
    "чтобы",
    "это",
    "этот",
    "я",
];

const GREEK_STOP: &[&str] = &[
    "ένα",
    "ή",
    "αλλά",
    "από",
    "για",
    "δεν",
    "είναι",
    "η",
    "θα",
    "και",
    "κι",
    "με",
    "μη",
    "μην",
    "μια",
    "να",
    "ο",
    "οι",
    "που",
    "πως",
    "σε",
    "στα",
    "στη",
    "στην",
    "στο",
    "στον",
    "τα",
    "την",
    "της",
    "τι",
    "το",
    "τον",
    "του",
    "των",
    "ως",
    "ότι",
];

const ARABIC_STOP: &[&str] = &[
    "أن", "أنا", "أنت", "أو", "إلى", "إن", "التي", "الذي", "بعد", "بين", "ثم", "حتى", "ذلك", "على",
    "عن", "عند", "في", "قبل", "قد", "كان", "كانت", "كل", "لا", "لم", "لن", "ما", "مع", "من", "نحن",
    "هذا", "هذه", "هم", "هو", "هي", "و",
];

const TAMIL_STOP: &[&str] = &["அது", "அந்த", "அவர்", "இது", "இந்த", "ஒரு", "மற்றும்"];

const HEBREW_STOP: &[&str] = &[
    "אבל",
    "או",
    "איך",
    "אין",
    "איפה",
    "אל",
    "אם",
    "אנחנו",
    "אני",
    "את",
    "אתה",
    "אתם",
    "בין",
    "גם",
    "הוא",
    "היא",
    "היה",
    "היו",
    "הייתה",
    "הם",
    "הן",
    "זאת",
    "זה",
    "זו",
    "יש",
    "כבר",
    "כי",
    "כל",
    "כמו",
    "כן",
    "לא",
    "לה",
    "לו",
    "לי",
    "לך",
    "למה",
    "לנו",
    "לפני",
    "מה",
    "מי",
    "מתי",
    "עוד",
    "על",
    "עם",
    "רק",
    "של",
    "שלה",
    "שלו",
    "שלי",
    "שלך",
    "שלנו",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_lists_are_sorted_and_distinct_for_binary_search() {
        for language in [
            Language::English,
            Language::Russian,
            Language::Greek,
            Language::Arabic,
            Language::Tamil,
            Language::Hebrew,
        ] {
            let list = language.stop_words();
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(list, &sorted[..], "{language:?}");
            for word in list {
                assert_eq!(Language::of_word(word), Some(language), "{word}");
            }
        }
    }

    #[test]
    fn words_are_stemmed_by_their_script() {
        assert_eq!(analyze("running runs ran"), ["run", "run", "ran"]);
        assert_eq!(analyze("Dana's dogs"), ["dana", "dog"]);
        assert_eq!(analyze("don’t stop"), ["stop"]);
        assert_eq!(analyze("книги книга"), ["книг", "книг"]);
        assert_eq!(analyze("и книги"), ["книг"]);
        // Hebrew: function words go, words stay whole.
        assert_eq!(analyze("של ספרים"), ["ספרים"]);
        // Words with digits are not stemmed.
        assert_eq!(analyze("v1.2 2024s"), ["v1.2", "2024s"]);
    }

    #[test]
    fn bigrams_and_placeholders_are_as_the_tokenizer_gives_them() {
        assert_eq!(analyze("東京タワー"), ["東京", "京タ", "タワ", "ワー"]);
        assert_eq!(analyze("한국어"), ["한국", "국어"]);
        assert!(analyze("[EMAIL] [PHONE] [NUMBER]").is_empty());
        assert!(analyze("what is it that you do?").is_empty());
    }
}

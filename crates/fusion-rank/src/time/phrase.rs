//! Word-level matching for languages written with spaces (English, Hebrew): the query as
//! tokens (runs of letters and digits), and rules that are sequences of elements ([`El`]).
//!
//! A rule matches consecutive tokens separated by spaces (at most one comma among them). A
//! phrase never starts or ends inside a hyphenated compound ("Monday-morning"), except that an
//! ISO date is one, a bare Hebrew prefix may be tied to the next word by a hyphen or maqaf
//! ("ב-2025"), and a language's hyphen words to the next ("mid-March").

use super::Found;
use super::calendar::{Expr, Weekday, max_day};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

/// Words mapped to a number: counts, months, weekdays. An entry may span several words
/// ("a couple of").
pub(super) type Table = &'static [(&'static str, u32)];

/// One element of a rule.
#[derive(Debug, Clone, Copy)]
pub(super) enum El {
    /// One of these words.
    Word(&'static [&'static str]),
    /// One of these words, or nothing.
    Opt(&'static [&'static str]),
    /// One of these words with no comma before it ("two days back", not "out for two days,
    /// back on the job").
    Tight(&'static [&'static str]),
    /// A count ≥ 1: ASCII digits or an entry of the table.
    Count(Table),
    /// Two counts as [`El::Count`] reads them, the first smaller, joined by a dash ("2-3",
    /// "2 – 3") or by "to", "or" or "and" ("two to three", "between 2 and 4"): the first
    /// captured as [`Caps::first`], the second as the count.
    CountRange(Table),
    /// An entry of the table, captured as the count; never digits ("q1").
    Entry(Table),
    /// An entry of the table that counts vaguely ("a few", "several"), captured as the count
    /// with [`Caps::few`] set: "a few days ago" is a span of days, not the third day back.
    Few(Table),
    /// A weekday name of the table.
    Weekday(Table),
    /// A month name of the table; the word may carry the language's month prefixes.
    Month(Table),
    /// A season name of the table (0 spring … 3 winter).
    Season(Table),
    /// A month name of the table written with the Hebrew prefix ב ("במרץ"), or וב.
    InMonth(Table),
    /// A day of the month, 1–31, with an optional English ordinal suffix ("3rd").
    Day,
    /// A day of the month, 1–31, with an English ordinal suffix ("14th"): never a bare number.
    Ordinal,
    /// A range's first day of the month, 1–31, with an optional ordinal suffix, captured as
    /// the count ("from the 10th to the 20th of October": [`El::Day`] takes the 20th).
    FirstDay,
    /// Matches no token: holds unless the next token is one of these words, whatever separates
    /// it ("year" not before "'s": "the end of last year's budget" is no part of a year).
    NotBefore(&'static [&'static str]),
    /// Matches no token, first in a rule only: holds where the word before the phrase, a space
    /// apart, is one of `after` (as [`El::After`]), or one of `ends`, which join a range ("from
    /// Easter to Thanksgiving"): a phrase read after those is only the end of a range
    /// ([`Caps::ends_range`]), and names no time unless a range joins it.
    AfterOrEnd {
        after: &'static [&'static str],
        ends: &'static [&'static str],
    },
    /// Matches no token, first in a rule only: holds unless the word before the phrase, a space
    /// apart, is one of these words ("last Christmas", not "the last Christmas movie").
    NotAfter(&'static [&'static str]),
    /// Matches no token, first in a rule only: holds where the word before the phrase, a space
    /// apart, is one of these words, which stays outside the phrase ("2025" after "since": the
    /// range that word opens is read around the phrase).
    After(&'static [&'static str]),
    /// As [`El::After`] with `after`; where the word before that one is none of `topics` (a
    /// verb: "what did I do on Halloween"), the phrase may end anywhere ([`Caps::loose_end`]),
    /// where it is one ("notes on Halloween") only where an [`El::EndsBefore`] says.
    AfterUnlessTopic {
        after: &'static [&'static str],
        topics: &'static [&'static str],
    },
    /// A month name of the table, with no prefix and no comma before it (Hebrew "בסוף מרץ";
    /// "בסוף, במרץ" is "in the end, in March").
    BareMonth(Table),
    /// Matches no token: holds where the phrase ends at the end of the query or before
    /// punctuation (a comma included), or before one of these words ("on the 14th about…", not "on the 2nd floor").
    EndsBefore(&'static [&'static str]),
    /// A four-digit year, 1970–2100.
    Year,
    /// `YYYY-MM` or `YYYY-MM-DD`; `YYYY/MM/DD` or `YYYY.MM.DD`.
    Iso,
    /// A month and a day joined by a slash, the month first unless it cannot be one ("11/3" is
    /// November 3, "25/12" December 25), with an optional four-digit year after another slash
    /// ("11/3/2026").
    Slashed,
    /// A day and a month, the day first, as Hebrew writes them: `D/M` or `D/M/YYYY` (also a
    /// two-digit year), and `D.M.YYYY` (a dot only with a year: "2.5" is a number).
    DayFirst,
    /// `D.M.YYYY` alone, the day first, as much of Europe writes a date in English ("on
    /// 14.11.2025"); never a slash, which [`El::Slashed`] reads month first.
    Dotted,
    /// `D.M` without a year, the day first, as Hebrew writes a date ("ב-15.3"); the rules that
    /// use it read it only where the phrase ends, as a number ("עלה ב-2.5 אחוז") goes on.
    DottedNoYear,
    /// An ISO week number, captured as the count: `W45`, `CW45`, `KW45`, or `YYYY-W45` with
    /// its year.
    WeekNumber,
}

/// What the elements of a rule captured.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Caps {
    pub(super) count: Option<u32>,
    /// The first count of a [`El::CountRange`].
    pub(super) first: Option<u32>,
    /// Whether the count was vague ([`El::Few`]).
    pub(super) few: bool,
    /// Whether the phrase was read after a word that joins a range ([`El::AfterOrEnd`]).
    pub(super) ends_range: bool,
    /// Whether [`El::EndsBefore`] holds wherever the phrase ends ([`El::AfterUnlessTopic`]).
    pub(super) loose_end: bool,
    pub(super) weekday: Option<Weekday>,
    pub(super) month: Option<u32>,
    pub(super) season: Option<u32>,
    pub(super) day: Option<u32>,
    pub(super) year: Option<i32>,
}

/// How a matched rule turns into an expression.
#[derive(Debug, Clone, Copy)]
pub(super) enum Make {
    /// Always this expression.
    Fixed(Expr),
    /// Built from the captures; `None` rejects the match (a day the month does not have).
    With(fn(&Caps) -> Option<Expr>),
}

/// A phrase pattern and its meaning.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rule {
    pub(super) pattern: &'static [El],
    pub(super) make: Make,
}

/// The rules and word conventions of one language.
pub(super) struct Language {
    pub(super) rules: &'static [Rule],
    /// Letters that may be glued to the front of a phrase's first word (Hebrew ו ב ה ל מ ש
    /// כ); at most two are stripped.
    pub(super) prefixes: &'static str,
    /// Letters that may be glued to the front of a month name anywhere in a phrase (Hebrew ו
    /// and ב: "ובמרץ"; not "from" or "to").
    pub(super) month_prefixes: &'static str,
    /// Words that may be tied to the next word of a phrase by a hyphen ("mid-March").
    pub(super) hyphen_words: &'static [&'static str],
    /// Every word a rule's element may match as its first token, built once from the rules
    /// ([`Language::vocabulary`]).
    pub(super) vocabulary: &'static OnceLock<HashSet<&'static str>>,
    /// Which rules may begin at a token, built once from the rules ([`Language::starts`]).
    pub(super) starts: &'static OnceLock<Starts>,
}

/// The rules that may begin at a token, by what their first token must be: one of some words
/// (with or without the language's prefixes), a token holding a digit, or anything. Matching
/// tries only these, in the rules' order, which is what trying every rule gives.
#[derive(Debug, Default)]
pub(super) struct Starts {
    by_word: HashMap<&'static str, Vec<usize>>,
    numeric: Vec<usize>,
    anywhere: Vec<usize>,
    /// By rule: whether every match takes at least two tokens ([`min_tokens`]).
    needs_two: Vec<bool>,
    /// Every word any element may take, each word of a table's entries included: a token that
    /// is none of them (with or without the prefixes) and holds no digit is taken by no
    /// element, so no match goes on through it.
    words: HashSet<&'static str>,
}

/// What an element takes from the query, stated once for every element: the gates below
/// ([`min_tokens`], [`element_words`], [`first_tokens`]) read it and never the elements.
#[derive(Debug, Clone, Copy)]
enum Takes {
    /// No token: a condition on the words around the phrase or after it.
    Nothing,
    /// One of these words, or nothing.
    MaybeWord(&'static [&'static str]),
    /// One of these words.
    Word(&'static [&'static str]),
    /// An entry of the table, which may span several words.
    Entry(Table),
    /// ASCII digits or an entry of the table; with `range`, two of them joined by one of
    /// [`COUNT_JOINERS`] or a dash.
    Count { table: Table, range: bool },
    /// A token holding digits.
    Digits,
}

impl El {
    /// What this element takes from the query.
    fn takes(&self) -> Takes {
        match *self {
            El::After(_)
            | El::AfterUnlessTopic { .. }
            | El::AfterOrEnd { .. }
            | El::NotAfter(_)
            | El::NotBefore(_)
            | El::EndsBefore(_) => Takes::Nothing,
            El::Opt(list) => Takes::MaybeWord(list),
            El::Word(list) | El::Tight(list) => Takes::Word(list),
            El::Entry(table)
            | El::Few(table)
            | El::Weekday(table)
            | El::Month(table)
            | El::Season(table)
            | El::InMonth(table)
            | El::BareMonth(table) => Takes::Entry(table),
            El::Count(table) => Takes::Count {
                table,
                range: false,
            },
            El::CountRange(table) => Takes::Count { table, range: true },
            El::Day
            | El::Ordinal
            | El::FirstDay
            | El::Year
            | El::Iso
            | El::Slashed
            | El::DayFirst
            | El::Dotted
            | El::DottedNoYear
            | El::WeekNumber => Takes::Digits,
        }
    }
}

/// The fewest tokens a match of `pattern` takes: one per element that takes a token and may not
/// be left out (a lower bound for the elements that read several).
fn min_tokens(pattern: &[El]) -> usize {
    pattern
        .iter()
        .filter(|element| !matches!(element.takes(), Takes::Nothing | Takes::MaybeWord(_)))
        .count()
}

/// The words `element` may take: of a table's entries, the first word only unless
/// `every_word` (which also splits the words of a list); the words that join two counts.
fn element_words(element: &El, every_word: bool, words: &mut HashSet<&'static str>) {
    let entries = |table: Table| {
        table.iter().flat_map(move |(entry, _)| {
            let mut parts = entry.split(' ');
            let first = parts.next();
            first.into_iter().chain(parts.filter(move |_| every_word))
        })
    };
    match element.takes() {
        Takes::Word(list) | Takes::MaybeWord(list) => {
            words.extend(list.iter().copied());
            if every_word {
                words.extend(list.iter().flat_map(|w| w.split(' ')));
            }
        }
        Takes::Count { table, range } => {
            words.extend(entries(table));
            if range {
                words.extend(COUNT_JOINERS.iter().copied());
            }
        }
        Takes::Entry(table) => words.extend(entries(table)),
        Takes::Digits | Takes::Nothing => {}
    }
}

/// What the first token of a match of `pattern` may be: `(words, numeric)`, or `None` when it
/// may be any token. Elements that match no token are passed over; an optional word may be
/// left out, so the elements after it count too.
fn first_tokens(pattern: &[El]) -> Option<(Vec<&'static str>, bool)> {
    let first_words = |table: Table| {
        table
            .iter()
            .filter_map(|(entry, _)| entry.split(' ').next())
            .collect::<Vec<_>>()
    };
    let mut words = Vec::new();
    for element in pattern {
        match element.takes() {
            Takes::Nothing => {}
            Takes::MaybeWord(list) => words.extend(list.iter().copied()),
            Takes::Word(list) => {
                words.extend(list.iter().copied());
                return Some((words, false));
            }
            Takes::Entry(table) => {
                words.extend(first_words(table));
                return Some((words, false));
            }
            Takes::Count { table, .. } => {
                words.extend(first_words(table));
                return Some((words, true));
            }
            Takes::Digits => return Some((words, true)),
        }
    }
    None
}

impl Language {
    /// The rules by what their first token may be ([`Starts`]).
    fn starts(&self) -> &Starts {
        self.starts.get_or_init(|| {
            let mut starts = Starts::default();
            for (index, rule) in self.rules.iter().enumerate() {
                starts.needs_two.push(min_tokens(rule.pattern) >= 2);
                for element in rule.pattern {
                    element_words(element, true, &mut starts.words);
                }
                match first_tokens(rule.pattern) {
                    None => starts.anywhere.push(index),
                    Some((words, numeric)) => {
                        for word in words {
                            let rules = starts.by_word.entry(word).or_default();
                            if rules.last() != Some(&index) {
                                rules.push(index);
                            }
                        }
                        if numeric {
                            starts.numeric.push(index);
                        }
                    }
                }
            }
            starts
        })
    }

    /// The indices of the rules that may begin at `token`, in order.
    fn rules_at(&self, token: &str) -> Vec<usize> {
        let starts = self.starts();
        let mut rules = starts.anywhere.clone();
        if token.bytes().any(|b| b.is_ascii_digit()) {
            rules.extend_from_slice(&starts.numeric);
        }
        for form in stripped(token, self.prefixes) {
            if let Some(more) = starts.by_word.get(form) {
                rules.extend_from_slice(more);
            }
        }
        rules.sort_unstable();
        rules.dedup();
        rules
    }

    /// The words of every element of every rule (each table entry's first word): a token that
    /// is none of them, with or without the language's prefixes, and holds no digit cannot
    /// begin a phrase, so matching skips it without trying a rule.
    fn vocabulary(&self) -> &HashSet<&'static str> {
        self.vocabulary.get_or_init(|| {
            let mut words = HashSet::new();
            for rule in self.rules {
                for element in rule.pattern {
                    element_words(element, false, &mut words);
                }
            }
            words
        })
    }
}

/// What separates a token from the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// Spaces, with at most one comma.
    Space,
    /// A single hyphen or maqaf: the two tokens form a compound.
    Hyphen,
    /// A single slash between two numbers ("2026/11/03", "11/3").
    Slash,
    /// A single full stop between two numbers ("2026.11.03", "3.11").
    Dot,
    /// An apostrophe before an "s" ("New Year's Eve"): a phrase may go on through it only where
    /// a rule names the "s".
    Owner,
    /// Anything else (sentence punctuation, quotes, ...), or the start of the query.
    Other,
}

/// Month abbreviations written with a full stop ("Sept. 3rd", "in Nov. 2025"): the stop
/// and the spaces after it separate words as a space does.
pub(super) const ABBREVIATIONS: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

struct Token {
    range: Range<usize>,
    lower: String,
    gap_before: Gap,
    /// Whether the gap before it holds a comma.
    comma_before: bool,
    /// Whether the gap before it is one dash, with or without spaces around it ("2-3",
    /// "2 – 3"): what joins the counts of a [`El::CountRange`].
    dash_before: bool,
}

/// The words that join the two counts of a [`El::CountRange`]: English "to", "or", "and",
/// Hebrew "עד" (to) and "או" (or).
const COUNT_JOINERS: &[&str] = &["to", "or", "and", "עד", "או"];
/// The marks that join them.
const COUNT_DASHES: &[&str] = &["-", "\u{2013}", "\u{2014}", "~", "\u{301c}", "\u{ff5e}"];

/// The query as tokens, ready to be matched against any language's rules.
pub(super) struct Tokens {
    tokens: Vec<Token>,
}

impl Tokens {
    /// `month_named` tells which words are month names: a hyphen between two of them is a
    /// range's dash.
    pub(super) fn new(query: &str, month_named: fn(&str) -> Option<u32>) -> Self {
        let mut tokens: Vec<Token> = Vec::new();
        let mut current: Option<usize> = None;
        let push = |tokens: &mut Vec<Token>, range: Range<usize>| {
            let gap_text = tokens.last().map(|t| &query[t.range.end..range.start]);
            let numbers = tokens.last().is_some_and(|t| digits(&t.lower).is_some())
                && digits(&query[range.clone()]).is_some();
            // A year written with two digits after an apostrophe ("Oct '25", "summer ’24"),
            // read as its four digits: 1970 to 2069.
            let short_year = gap_text
                .and_then(|gap| gap.strip_suffix(['\'', '\u{2018}', '\u{2019}']))
                .filter(|spaces| !spaces.is_empty() && spaces.chars().all(char::is_whitespace))
                .and_then(|_| {
                    let text = &query[range.clone()];
                    (text.len() == 2 && text.bytes().all(|b| b.is_ascii_digit())).then(|| {
                        let n: u32 = text.parse().unwrap_or(0);
                        (if n >= 70 { 1900 } else { 2000 } + n).to_string()
                    })
                });
            let gap_before = match gap_text {
                _ if short_year.is_some() => Gap::Space,
                // Digits right after Hebrew prefix letters are joined as with a hyphen
                // ("ב2025" as "ב-2025").
                Some("")
                    if query[range.clone()].starts_with(|c: char| c.is_ascii_digit())
                        && tokens
                            .last()
                            .is_some_and(|t| t.lower.chars().all(|c| "ובהלמשכ".contains(c))) =>
                {
                    Gap::Hyphen
                }
                // Another script begins: as punctuation would, it ends a phrase.
                None | Some("") => Gap::Other,
                // A hyphen between two months is a range's dash ("September-November"), not
                // after "may" ("a may-june romance").
                Some("-")
                    if tokens
                        .last()
                        .is_some_and(|t| t.lower != "may" && month_named(&t.lower).is_some())
                        && month_named(&query[range.clone()]).is_some() =>
                {
                    Gap::Other
                }
                Some("-" | "\u{05be}") => Gap::Hyphen,
                Some("/") if numbers => Gap::Slash,
                Some(".") if numbers => Gap::Dot,
                // The full stop of a month's abbreviation ("Sept. 3rd", "Nov. 2025") is a space.
                Some(gap)
                    if gap.starts_with('.')
                        && gap.len() > 1
                        && gap[1..].chars().all(char::is_whitespace)
                        && tokens
                            .last()
                            .is_some_and(|t| ABBREVIATIONS.contains(&t.lower.as_str())) =>
                {
                    Gap::Space
                }
                Some("'" | "\u{2019}") if query[range.clone()].eq_ignore_ascii_case("s") => {
                    Gap::Owner
                }
                Some(gap)
                    if gap.chars().all(|c| c.is_whitespace() || c == ',')
                        && gap.matches(',').count() <= 1 =>
                {
                    Gap::Space
                }
                Some(_) => Gap::Other,
            };
            // The apostrophe of a two-digit year is part of its token, so that a word before it
            // opens it as it would a year ("since '24").
            let range = match (&short_year, gap_text) {
                (Some(_), Some(gap)) => {
                    range.start - gap.chars().next_back().map_or(0, char::len_utf8)..range.end
                }
                _ => range,
            };
            tokens.push(Token {
                lower: short_year.unwrap_or_else(|| query[range.clone()].to_lowercase()),
                comma_before: gap_text.is_some_and(|gap| gap.contains(',')),
                dash_before: gap_text.is_some_and(|gap| COUNT_DASHES.contains(&gap.trim())),
                range,
                gap_before,
            });
        };
        let mut previous_ascii = false;
        let hebrew = |c: Option<char>| c.is_some_and(|c| ('\u{05d0}'..='\u{05ea}').contains(&c));
        for (at, c) in query.char_indices() {
            // Gershayim between two Hebrew letters belong to the word: an acronym ("סופ"ש").
            let acronym = matches!(c, '"' | '\u{05f4}')
                && hebrew(query[..at].chars().next_back())
                && hebrew(query[at + c.len_utf8()..].chars().next());
            // The mark is written in Hebrew, whatever its code.
            let ascii = c.is_ascii() && !acronym;
            match (c.is_alphanumeric() || acronym, current) {
                (true, None) => current = Some(at),
                (false, Some(start)) => {
                    push(&mut tokens, start..at);
                    current = None;
                }
                // Latin letters or digits written against another script end a word there:
                // "2026/11/03のメモ", "Q3の予算" (Japanese writes no space).
                (true, Some(start)) if ascii != previous_ascii => {
                    push(&mut tokens, start..at);
                    current = Some(at);
                }
                _ => {}
            }
            previous_ascii = ascii;
        }
        if let Some(start) = current {
            push(&mut tokens, start..query.len());
        }
        Tokens { tokens }
    }

    /// Every phrase of `language` in the query, left to right, without overlaps: at each token
    /// the longest matching rule wins (the earlier rule on a tie), and matching resumes after it.
    pub(super) fn find(&self, language: &Language) -> Vec<Found> {
        self.find_gated(language, true)
    }

    /// [`Tokens::find`], skipping the tokens that cannot begin a phrase and trying at the others
    /// only the rules that may begin there ([`Starts`]) when `gate` is set, or trying every rule
    /// at every token when not (what the gate must not change).
    fn find_gated(&self, language: &Language, gate: bool) -> Vec<Found> {
        let vocabulary = language.vocabulary();
        let mut found = Vec::new();
        let mut at = 0;
        while at < self.tokens.len() {
            // Inside a compound or a number ("2026/11/03", "3.5") no phrase begins.
            if matches!(
                self.tokens[at].gap_before,
                Gap::Hyphen | Gap::Slash | Gap::Dot
            ) {
                at += 1;
                continue;
            }
            let token = &self.tokens[at].lower;
            let may_begin = token.bytes().any(|b| b.is_ascii_digit())
                || stripped(token, language.prefixes).any(|t| vocabulary.contains(t));
            if gate && !may_begin {
                at += 1;
                continue;
            }
            let mut best: Option<(usize, Expr, bool)> = None;
            let candidates: Vec<&Rule> = if gate {
                // A match of two tokens or more goes on through the next one: not where no
                // element takes it ("the meeting", "on budget").
                let starts = language.starts();
                let next_taken = self.tokens.get(at + 1).is_some_and(|next| {
                    next.lower.bytes().any(|b| b.is_ascii_digit())
                        || stripped(&next.lower, language.prefixes)
                            .chain(stripped(&next.lower, language.month_prefixes))
                            .any(|t| starts.words.contains(t))
                });
                language
                    .rules_at(token)
                    .into_iter()
                    .filter(|index| next_taken || !starts.needs_two[*index])
                    .map(|index| &language.rules[index])
                    .collect()
            } else {
                language.rules.iter().collect()
            };
            for rule in candidates {
                let mut ends = Vec::new();
                self.match_from(language, rule.pattern, at, true, Caps::default(), &mut ends);
                for (end, caps) in ends {
                    // A match may end before a hyphen only where a day range goes on ("Nov
                    // 1-15": the range is read around the date).
                    let compound_after = self.tokens.get(end).is_some_and(|t| {
                        let day_range = t.gap_before == Gap::Hyphen
                            && digits(&self.tokens[end - 1].lower)
                                .zip(digits(&t.lower))
                                .is_some_and(|(from, to)| from < to && to <= 31);
                        matches!(t.gap_before, Gap::Hyphen | Gap::Slash | Gap::Dot) && !day_range
                    });
                    if compound_after || best.is_some_and(|(longest, _, _)| end <= longest) {
                        continue;
                    }
                    let expr = match rule.make {
                        Make::Fixed(expr) => Some(expr),
                        Make::With(make) => make(&caps),
                    };
                    if let Some(expr) = expr {
                        best = Some((end, expr, caps.ends_range));
                    }
                }
            }
            match best {
                Some((end, expr, ends_range)) => {
                    let range = self.tokens[at].range.start..self.tokens[end - 1].range.end;
                    found.push(Found {
                        range,
                        expr,
                        ends_range,
                    });
                    at = end;
                }
                None => at += 1,
            }
        }
        found
    }

    /// Pushes to `ends` the token index after every way `pattern` matches from token `at`.
    fn match_from(
        &self,
        language: &Language,
        pattern: &[El],
        at: usize,
        first: bool,
        caps: Caps,
        ends: &mut Vec<(usize, Caps)>,
    ) {
        let Some((element, rest)) = pattern.split_first() else {
            if !first {
                ends.push((at, caps));
            }
            return;
        };
        if let El::Opt(_) = element {
            self.match_from(language, rest, at, first, caps, ends);
        }
        if let El::NotBefore(words) = element {
            let blocked = self
                .tokens
                .get(at)
                .is_some_and(|next| words.contains(&next.lower.as_str()));
            if !first && !blocked {
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        if let El::AfterUnlessTopic { after, topics } = element {
            let holds = first
                && at > 0
                && self.tokens[at].gap_before == Gap::Space
                && after.contains(&self.tokens[at - 1].lower.as_str());
            if holds {
                let topical = at > 1
                    && self.tokens[at - 1].gap_before == Gap::Space
                    && topics.contains(&self.tokens[at - 2].lower.as_str());
                let caps = Caps {
                    loose_end: !topical,
                    ..caps
                };
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        if let El::After(words) = element {
            let holds = first
                && at > 0
                && self.tokens[at].gap_before == Gap::Space
                && words.contains(&self.tokens[at - 1].lower.as_str());
            if holds {
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        if let El::AfterOrEnd {
            after,
            ends: joiners,
        } = element
        {
            if !first || at == 0 || self.tokens[at].gap_before != Gap::Space {
                return;
            }
            let before = self.tokens[at - 1].lower.as_str();
            if after.contains(&before) {
                self.match_from(language, rest, at, first, caps, ends);
            } else if joiners.contains(&before) {
                let caps = Caps {
                    ends_range: true,
                    ..caps
                };
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        if let El::NotAfter(words) = element {
            let blocked = at > 0
                && self.tokens[at].gap_before == Gap::Space
                && words.contains(&self.tokens[at - 1].lower.as_str());
            if first && !blocked {
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        if let El::EndsBefore(words) = element {
            let ends_here = self.tokens.get(at).is_none_or(|next| {
                matches!(
                    next.gap_before,
                    Gap::Other | Gap::Owner | Gap::Slash | Gap::Dot
                ) || next.comma_before
                    || words.contains(&next.lower.as_str())
                    // A year that names the phrase's own ("on Christmas 2024", read together).
                    || (next.lower.len() == 4 && year(&next.lower).is_some())
            });
            if !first && (ends_here || caps.loose_end) {
                self.match_from(language, rest, at, first, caps, ends);
            }
            return;
        }
        for (next, caps) in self.element(language, *element, at, first, caps) {
            self.match_from(language, rest, next, false, caps, ends);
        }
    }

    /// The ways `element` matches from token `at`: the token after it and the captures.
    fn element(
        &self,
        language: &Language,
        element: El,
        at: usize,
        first: bool,
        mut caps: Caps,
    ) -> Vec<(usize, Caps)> {
        if !self.joins(language, at, first) {
            return Vec::new();
        }
        let token = &self.tokens[at].lower;
        let strip = if first { language.prefixes } else { "" };
        let one = |caps: Caps| vec![(at + 1, caps)];
        match element {
            El::Tight(_) if self.tokens[at].comma_before => Vec::new(),
            El::Word(words) | El::Opt(words) | El::Tight(words) => {
                if words
                    .iter()
                    .any(|w| stripped(token, strip).any(|t| t == *w))
                {
                    one(caps)
                } else {
                    Vec::new()
                }
            }
            El::Count(table) => self
                .counts(language, table, at, strip)
                .into_iter()
                .map(|(next, n)| {
                    caps.count = Some(n);
                    (next, caps)
                })
                .collect(),
            El::CountRange(table) => self.count_range(language, table, at, strip, caps),
            El::Entry(table) | El::Few(table) => self
                .entries(language, table, at, strip)
                .map(|(next, n)| {
                    caps.count = Some(n);
                    caps.few = matches!(element, El::Few(_));
                    (next, caps)
                })
                .collect(),
            // A table entry captured into one field of the captures.
            El::Weekday(table) => self.capture(language, table, at, strip, caps, |c, day| {
                c.weekday = Some(day);
            }),
            El::Month(table) => {
                let strip = language.month_prefixes;
                self.capture(language, table, at, strip, caps, |c, month| {
                    c.month = Some(month);
                })
            }
            El::Season(table) => self.capture(language, table, at, strip, caps, |c, season| {
                c.season = Some(season);
            }),
            El::InMonth(table) => {
                let name = token.strip_prefix("ב").or_else(|| token.strip_prefix("וב"));
                match table.iter().find(|(word, _)| Some(*word) == name) {
                    Some((_, month)) => one(Caps {
                        month: Some(*month),
                        ..caps
                    }),
                    None => Vec::new(),
                }
            }
            El::Day | El::Ordinal | El::FirstDay => {
                let number = token.trim_end_matches(|c: char| c.is_ascii_alphabetic());
                let suffix = &token[number.len()..];
                let suffixes: &[&str] = match element {
                    El::Ordinal => &["st", "nd", "rd", "th"],
                    _ => &["", "st", "nd", "rd", "th"],
                };
                match digits(number) {
                    Some(day @ 1..=31) if number.len() <= 2 && suffixes.contains(&suffix) => {
                        one(match element {
                            El::FirstDay => Caps {
                                count: Some(day),
                                ..caps
                            },
                            _ => Caps {
                                day: Some(day),
                                ..caps
                            },
                        })
                    }
                    _ => Vec::new(),
                }
            }
            El::Year => match year(token) {
                Some(year) => one(Caps {
                    year: Some(year),
                    ..caps
                }),
                None => Vec::new(),
            },
            El::Iso => self.iso(at, caps),
            El::Slashed => self.slashed(at, caps),
            El::DayFirst => self.day_first(at, caps),
            El::Dotted if self.tokens.get(at + 1).map(|t| t.gap_before) == Some(Gap::Dot) => {
                self.day_first(at, caps)
            }
            El::Dotted => Vec::new(),
            El::DottedNoYear => self.dotted_no_year(at, caps),
            El::WeekNumber => self.week_number(at, caps),
            // Handled by `match_from`: they match no token.
            El::EndsBefore(_)
            | El::NotBefore(_)
            | El::NotAfter(_)
            | El::After(_)
            | El::AfterUnlessTopic { .. }
            | El::AfterOrEnd { .. } => Vec::new(),
            El::BareMonth(table) if !self.tokens[at].comma_before => {
                self.capture(language, table, at, "", caps, |c, month| {
                    c.month = Some(month);
                })
            }
            El::BareMonth(_) => Vec::new(),
        }
    }

    /// The ways a count matches from token `at` ([`El::Count`]): the token after it and the
    /// count.
    fn counts(
        &self,
        language: &Language,
        table: Table,
        at: usize,
        strip: &str,
    ) -> Vec<(usize, u32)> {
        let mut ways: Vec<(usize, u32)> = self
            .tokens
            .get(at)
            .and_then(|token| digits(&token.lower))
            .filter(|n| *n >= 1)
            .map(|n| (at + 1, n))
            .into_iter()
            .collect();
        ways.extend(self.entries(language, table, at, strip));
        ways
    }

    /// The ways two counts joined into a range match from token `at` ([`El::CountRange`]).
    fn count_range(
        &self,
        language: &Language,
        table: Table,
        at: usize,
        strip: &str,
        caps: Caps,
    ) -> Vec<(usize, Caps)> {
        let mut ways = Vec::new();
        for (after_first, first) in self.counts(language, table, at, strip) {
            let Some(next) = self.tokens.get(after_first) else {
                continue;
            };
            let second_at = if next.dash_before {
                after_first
            } else if next.gap_before == Gap::Space
                && !next.comma_before
                && COUNT_JOINERS.contains(&next.lower.as_str())
                && self
                    .tokens
                    .get(after_first + 1)
                    .is_some_and(|t| t.gap_before == Gap::Space && !t.comma_before)
            {
                after_first + 1
            } else {
                continue;
            };
            for (end, count) in self.counts(language, table, second_at, "") {
                if first < count {
                    ways.push((
                        end,
                        Caps {
                            first: Some(first),
                            count: Some(count),
                            ..caps
                        },
                    ));
                }
            }
        }
        ways
    }

    /// The ways an entry of `table` matches from token `at`, each with its value set into
    /// `caps` by `set`.
    fn capture(
        &self,
        language: &Language,
        table: Table,
        at: usize,
        strip: &str,
        caps: Caps,
        set: fn(&mut Caps, u32),
    ) -> Vec<(usize, Caps)> {
        self.entries(language, table, at, strip)
            .map(|(next, value)| {
                let mut caps = caps;
                set(&mut caps, value);
                (next, caps)
            })
            .collect()
    }

    /// Whether token `at` may continue a phrase (or start one, when `first`).
    fn joins(&self, language: &Language, at: usize, first: bool) -> bool {
        let Some(token) = self.tokens.get(at) else {
            return false;
        };
        match token.gap_before {
            _ if first => true,
            Gap::Space => true,
            Gap::Hyphen => {
                let before = &self.tokens[at - 1].lower;
                (!language.prefixes.is_empty()
                    && before.chars().all(|c| language.prefixes.contains(c)))
                    || language.hyphen_words.contains(&before.as_str())
            }
            // Only an "s" has this gap, and only a rule that names it matches the "s".
            Gap::Owner => true,
            Gap::Other | Gap::Slash | Gap::Dot => false,
        }
    }

    /// The table entries that match from token `at` (each entry's words in a row, the first one
    /// possibly with prefixes from `strip`): the token after the entry and its value.
    fn entries<'a>(
        &'a self,
        language: &'a Language,
        table: Table,
        at: usize,
        strip: &'a str,
    ) -> impl Iterator<Item = (usize, u32)> + 'a {
        table.iter().filter_map(move |(entry, value)| {
            let mut next = at;
            for (i, word) in entry.split(' ').enumerate() {
                if !self.joins(language, next, i == 0) {
                    return None;
                }
                let token = &self.tokens[next].lower;
                let matches = if i == 0 {
                    stripped(token, strip).any(|t| t == word)
                } else {
                    token == word
                };
                if !matches {
                    return None;
                }
                next += 1;
            }
            Some((next, *value))
        })
    }

    /// `YYYY-MM` or `YYYY-MM-DD` from token `at`, the parts joined by single hyphens, or
    /// `YYYY/MM/DD` and `YYYY.MM.DD` (a day required); with a slash, the month and the day may
    /// have one digit ("2026/11/3"; "2024.3.1" is a version).
    fn iso(&self, at: usize, caps: Caps) -> Vec<(usize, Caps)> {
        let Some(gap) = self.tokens.get(at + 1).map(|t| t.gap_before) else {
            return Vec::new();
        };
        let short = match gap {
            Gap::Hyphen => false,
            Gap::Slash | Gap::Dot => true,
            _ => return Vec::new(),
        };
        let part = |i: usize, len: usize| {
            let token = self.tokens.get(i)?;
            let joined = i == at || token.gap_before == gap;
            // One digit only with a slash: "2024.3.1" is a version.
            let fits = token.lower.len() == len
                || (gap == Gap::Slash && len == 2 && token.lower.len() == 1);
            (joined && fits).then(|| digits(&token.lower))?
        };
        let (Some(year), Some(month @ 1..=12)) = (part(at, 4).and_then(year_of), part(at + 1, 2))
        else {
            return Vec::new();
        };
        // "2026/11" alone may be a ratio or a page; "2026-11" is a month.
        if short && part(at + 2, 2).is_none() {
            return Vec::new();
        }
        let caps = Caps {
            year: Some(year),
            month: Some(month),
            ..caps
        };
        match part(at + 2, 2) {
            Some(day) if (1..=max_day(month)).contains(&day) => {
                vec![(
                    at + 3,
                    Caps {
                        day: Some(day),
                        ..caps
                    },
                )]
            }
            Some(_) => Vec::new(),
            None => vec![(at + 2, caps)],
        }
    }
}

impl Tokens {
    /// `M/D` or `M/D/YYYY` from token `at` ([`El::Slashed`]): the month first, unless only the
    /// other order names a month ("25/12"); a day the month does not have is no date.
    fn slashed(&self, at: usize, caps: Caps) -> Vec<(usize, Caps)> {
        let part = |i: usize| {
            let token = self.tokens.get(i)?;
            (token.lower.len() <= 2 && (i == at || token.gap_before == Gap::Slash))
                .then(|| digits(&token.lower))?
        };
        let (Some(first), Some(second)) = (part(at), part(at + 1)) else {
            return Vec::new();
        };
        let (month, day) = if (1..=12).contains(&first) {
            (first, second)
        } else {
            (second, first)
        };
        if !(1..=12).contains(&month) || !(1..=max_day(month)).contains(&day) {
            return Vec::new();
        }
        // Four digits, or two ("11/14/25": 1970 to 2069).
        let year = self.year_after(at + 2, Gap::Slash);
        // Idioms, not days: "24/7", "9/11".
        if year.is_none() && matches!((first, second), (24, 7) | (9, 11)) {
            return Vec::new();
        }
        dated(at, caps, month, day, year)
    }
}

impl Tokens {
    /// The year of token `at` when `gap` joins it to the token before: four digits, or two
    /// (1970 to 2069).
    fn year_after(&self, at: usize, gap: Gap) -> Option<i32> {
        self.tokens
            .get(at)
            .filter(|t| t.gap_before == gap)
            .and_then(|t| match t.lower.len() {
                4 => year(&t.lower),
                2 => digits(&t.lower).and_then(|n| year_of(if n >= 70 { 1900 } else { 2000 } + n)),
                _ => None,
            })
    }

    /// `D/M`, `D/M/YY(YY)` or `D.M.YYYY` from token `at` ([`El::DayFirst`]); a day the month
    /// does not have is no date.
    fn day_first(&self, at: usize, caps: Caps) -> Vec<(usize, Caps)> {
        let Some(gap) = self.tokens.get(at + 1).map(|t| t.gap_before) else {
            return Vec::new();
        };
        if !matches!(gap, Gap::Slash | Gap::Dot) {
            return Vec::new();
        }
        let part = |i: usize| {
            let token = self.tokens.get(i)?;
            (token.lower.len() <= 2 && (i == at || token.gap_before == gap))
                .then(|| digits(&token.lower))?
        };
        let (Some(day), Some(month @ 1..=12)) = (part(at), part(at + 1)) else {
            return Vec::new();
        };
        if !(1..=max_day(month)).contains(&day) {
            return Vec::new();
        }
        // Two digits only after a slash: "1.12.25" is a version.
        let year = self
            .year_after(at + 2, gap)
            .filter(|_| gap == Gap::Slash || self.tokens[at + 2].lower.len() == 4);
        // Without a year only a slash makes a date ("15/3"; "15.3" is a number), and not the
        // idioms "24/7" and "9/11".
        if year.is_none() && (gap == Gap::Dot || matches!((day, month), (24, 7) | (9, 11))) {
            return Vec::new();
        }
        dated(at, caps, month, day, year)
    }
}

impl Tokens {
    /// `D.M` from token `at`, with no third part after it ([`El::DottedNoYear`]).
    fn dotted_no_year(&self, at: usize, caps: Caps) -> Vec<(usize, Caps)> {
        let part = |i: usize| {
            let token = self.tokens.get(i)?;
            (token.lower.len() <= 2 && (i == at || token.gap_before == Gap::Dot))
                .then(|| digits(&token.lower))?
        };
        let third = self
            .tokens
            .get(at + 2)
            .is_some_and(|t| t.gap_before == Gap::Dot);
        match (part(at), part(at + 1)) {
            (Some(day), Some(month @ 1..=12)) if !third && (1..=max_day(month)).contains(&day) => {
                dated(at, caps, month, day, None)
            }
            _ => Vec::new(),
        }
    }

    /// An ISO week number from token `at` ([`El::WeekNumber`]).
    fn week_number(&self, at: usize, caps: Caps) -> Vec<(usize, Caps)> {
        let week = |i: usize| {
            let token = &self.tokens.get(i)?.lower;
            let number = ["cw", "kw", "w"]
                .iter()
                .find_map(|prefix| token.strip_prefix(prefix))?;
            (1..=2)
                .contains(&number.len())
                .then(|| digits(number))?
                .filter(|week| (1..=53).contains(week))
        };
        // A bare "W45" is a week only after a word that makes it one ("in W45", "since W40"):
        // "my W2 form" is a tax form. "CW45", "KW45" and "2026-W45" are weeks wherever.
        let plain = self.tokens[at].lower.starts_with('w');
        let opened = at > 0
            && self.tokens[at].gap_before == Gap::Space
            && [
                "in", "during", "over", "since", "before", "after", "from", "until", "till",
            ]
            .contains(&self.tokens[at - 1].lower.as_str());
        if let Some(week) = week(at).filter(|_| !plain || opened) {
            return vec![(
                at + 1,
                Caps {
                    count: Some(week),
                    ..caps
                },
            )];
        }
        let year = self.tokens.get(at).and_then(|t| year(&t.lower));
        let joined = self
            .tokens
            .get(at + 1)
            .is_some_and(|t| t.gap_before == Gap::Hyphen);
        match (year, joined.then(|| week(at + 1)).flatten()) {
            (Some(year), Some(week)) => vec![(
                at + 2,
                Caps {
                    count: Some(week),
                    year: Some(year),
                    ..caps
                },
            )],
            _ => Vec::new(),
        }
    }
}

/// A date of two or three tokens from `at` ([`Tokens::slashed`], [`Tokens::day_first`]): the
/// captures with its month, day and year, and the token after it.
fn dated(at: usize, caps: Caps, month: u32, day: u32, year: Option<i32>) -> Vec<(usize, Caps)> {
    let caps = Caps {
        month: Some(month),
        day: Some(day),
        year: year.or(caps.year),
        ..caps
    };
    vec![(if year.is_some() { at + 3 } else { at + 2 }, caps)]
}

/// `token` itself, then `token` without one and two leading letters of `prefixes`.
fn stripped<'a>(token: &'a str, prefixes: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let mut rest = Some(token);
    let mut taken = 0;
    std::iter::from_fn(move || {
        let current = rest?;
        rest = None;
        if taken < 2 {
            let mut chars = current.chars();
            if chars.next().is_some_and(|c| prefixes.contains(c)) && !chars.as_str().is_empty() {
                rest = Some(chars.as_str());
                taken += 1;
            }
        }
        Some(current)
    })
}

/// The value of an all-ASCII-digit token of at most nine digits.
fn digits(token: &str) -> Option<u32> {
    if token.is_empty() || token.len() > 9 || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

/// A four-digit token naming a year from 1970 to 2100.
fn year(token: &str) -> Option<i32> {
    (token.len() == 4)
        .then(|| digits(token))
        .flatten()
        .and_then(year_of)
}

fn year_of(value: u32) -> Option<i32> {
    i32::try_from(value)
        .ok()
        .filter(|y| (1970..=2100).contains(y))
}

#[cfg(test)]
mod tests {
    use super::super::{en::ENGLISH, he::HEBREW};
    use super::*;
    use proptest::prelude::*;

    /// Words of every kind a query mixes: the tables' words, Hebrew prefixes glued to them,
    /// digits, ordinals, hyphens, punctuation and words that name no time.
    fn word() -> impl Strategy<Value = String> {
        let vocabulary: Vec<String> = ENGLISH
            .vocabulary()
            .iter()
            .chain(HEBREW.vocabulary().iter())
            .map(|w| (*w).to_owned())
            .collect();
        let vocabulary = proptest::sample::select(vocabulary);
        prop_oneof![
            4 => vocabulary.clone(),
            1 => (proptest::sample::select(vec!["ב", "וב", "ה", "מ", "ש"]), vocabulary)
                .prop_map(|(p, w)| format!("{p}{w}")),
            1 => (0u32..3000).prop_map(|n| n.to_string()),
            1 => (1u32..32, proptest::sample::select(vec!["st", "nd", "rd", "th"]))
                .prop_map(|(n, s)| format!("{n}{s}")),
            1 => proptest::sample::select(vec![
                "dentist", "notes", "Monday-morning", "2026-11-03", "-", ",", ".", "ב-",
                "יוני", "may", "this", "quarter", "and", "since", "mid-March", "mid-term",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// One rule of `language` written out: each element as one of the words it takes (an
    /// optional one left out or not), so that most phrases match their rule or a longer one.
    fn phrase(language: &'static Language) -> impl Strategy<Value = String> {
        (0..language.rules.len(), any::<u64>()).prop_map(move |(r, seed)| {
            let mut seed = seed;
            let mut pick = |n: usize| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (seed >> 33) as usize % n.max(1)
            };
            let mut words = Vec::new();
            for element in language.rules[r].pattern {
                let word = match element {
                    El::Word(list) | El::Tight(list) => list[pick(list.len())].to_owned(),
                    El::Opt(list) if pick(2) == 0 => continue,
                    El::Opt(list) => list[pick(list.len())].to_owned(),
                    El::Count(table) if pick(3) == 0 || table.is_empty() => {
                        (1 + pick(40)).to_string()
                    }
                    El::CountRange(_) => {
                        let joiner = [" to ", " or ", "-", " - ", "\u{2013}"][pick(5)];
                        let first = 1 + pick(10);
                        format!("{first}{joiner}{}", first + 1 + pick(10))
                    }
                    El::Count(table)
                    | El::Entry(table)
                    | El::Few(table)
                    | El::Weekday(table)
                    | El::Month(table)
                    | El::Season(table) => table[pick(table.len())].0.to_owned(),
                    El::InMonth(table) => format!("ב{}", table[pick(table.len())].0),
                    El::Day | El::FirstDay => (1 + pick(31)).to_string(),
                    El::Ordinal => format!("{}th", 1 + pick(31)),
                    El::EndsBefore(list) if !list.is_empty() && pick(2) == 0 => {
                        list[pick(list.len())].to_owned()
                    }
                    El::EndsBefore(_) => continue,
                    El::NotBefore(list) if pick(2) == 0 => list[pick(list.len())].to_owned(),
                    El::NotBefore(_) => continue,
                    // Written before the phrase, so that it holds.
                    El::After(list) | El::AfterUnlessTopic { after: list, .. } => {
                        list[pick(list.len())].to_owned()
                    }
                    El::NotAfter(_) => continue,
                    El::AfterOrEnd { after, ends } => {
                        let words = if after.is_empty() { ends } else { after };
                        words[pick(words.len())].to_owned()
                    }
                    El::BareMonth(table) => table[pick(table.len())].0.to_owned(),
                    El::Year => (1960 + pick(150)).to_string(),
                    El::Iso => format!("{}-{:02}-{:02}", 1990 + pick(50), 1 + pick(13), pick(33)),
                    El::Slashed | El::DayFirst => format!("{}/{}", 1 + pick(32), 1 + pick(32)),
                    El::Dotted => format!("{}.{}.{}", 1 + pick(32), 1 + pick(13), 1960 + pick(150)),
                    El::DottedNoYear => format!("{}.{}", 1 + pick(32), 1 + pick(13)),
                    El::WeekNumber => format!("w{}", pick(60)),
                };
                words.push(word);
            }
            words.join(" ")
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3_000))]

        /// The vocabulary gate only skips work: with it and without it, every language finds
        /// the same phrases in the same places — in rules written out next to each other and
        /// among other words.
        #[test]
        fn the_vocabulary_gate_changes_no_match(
            parts in proptest::collection::vec(
                prop_oneof![2 => phrase(&ENGLISH), 2 => phrase(&HEBREW), 1 => word()],
                1..8,
            )
        ) {
            let query = parts.join(" ");
            let tokens = Tokens::new(&query, super::super::en::month_named);
            for language in [&ENGLISH, &HEBREW] {
                prop_assert_eq!(
                    tokens.find_gated(language, true),
                    tokens.find_gated(language, false),
                    "{:?}", query
                );
            }
        }
    }
}

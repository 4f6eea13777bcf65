//! English time phrases (matched case-insensitively, word by word).

use super::Found;
use super::build::{
    date, date_in_words, date_on_weekday, day_of_last_month, day_of_month, day_of_month_on_weekday,
    day_of_this_month, days_ago, days_back_between, days_between, earlier_than_days,
    earlier_than_months, earlier_than_weeks, earlier_than_years, early_month, early_season,
    early_season_last_year, early_year, ended_month, first_day_of_month, first_days_of_month,
    first_half_of_year, first_weeks_of_month, fourth_quarter_of_year, half_of_month, half_of_year,
    hebrew_month, hours_ago, iso, iso_week, iso_week_last_year, iso_week_this_year,
    last_day_of_month, last_days_of_month, last_week_of_month, last_weeks_of_month, late_month,
    late_season, late_season_last_year, late_year, mid_month, mid_season, mid_season_last_year,
    mid_year, month_before_last, month_last_year, month_part, month_this_year, months_ago,
    months_ago_today, months_and_a_half_ago, months_back_between, named_month, named_year,
    nth_weekday_last_month, nth_weekday_of_month, nth_weekday_this_month, ordinal_quarter,
    past_days, past_hours, past_months, past_weekends, past_weeks, past_years, quarter_last_year,
    quarter_of_year, quarter_this_year, season_begun, season_last_year, season_of_year,
    season_this_year, seasons_ago, second_half_of_year, slashed_with_year, week_from_date, week_of,
    week_of_day, week_of_in_words, week_of_month, week_of_month_ago_0, week_of_month_ago_1,
    weekday, weekday_before_last, weekday_last_week, weekday_this_week, weekday_weeks_ago,
    weekdays_ago, weekend_of_day, weekends_ago, weeks_ago, weeks_and_a_half_ago,
    weeks_back_between, year_half, year_part, years_ago, years_ago_today, years_and_a_half_ago,
    years_back_between,
};
use super::calendar::{Expr, Feast, Unit};
use super::phrase::El::{
    After, AfterOrEnd, AfterUnlessTopic, Count, CountRange, Day, Dotted, EndsBefore, Entry, Few,
    FirstDay, Iso, Month, NotAfter, NotBefore, Opt, Ordinal, Season, Slashed, Tight, WeekNumber,
    Weekday, Word, Year,
};
use super::phrase::Make::{Fixed, With};
use super::phrase::{El, Language, Make, Rule, Table, Tokens};

const COUNTS: Table = &[
    ("a", 1),
    ("an", 1),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    // Tens with their units, so that "twenty one days ago" is never "one days ago".
    ("twenty", 20),
    ("twenty one", 21),
    ("twenty two", 22),
    ("twenty three", 23),
    ("twenty four", 24),
    ("twenty five", 25),
    ("twenty six", 26),
    ("twenty seven", 27),
    ("twenty eight", 28),
    ("twenty nine", 29),
    ("thirty", 30),
    ("thirty one", 31),
    ("a couple of", 2),
    ("a couple", 2),
    ("couple of", 2),
    ("couple", 2),
    ("a few", 3),
    ("few", 3),
    ("several", 3),
];

/// Vague counts: "a few days ago" is the days 2 to 5 back ([`super::phrase::few_back`]).
/// "a couple" stays two.
const FEW: Table = &[("a few", 3), ("few", 3), ("several", 3), ("some", 3)];

/// Quarters named with their year ("Q1 2025", "Q3 of last year").
const QUARTERS: Table = &[("q1", 1), ("q2", 2), ("q3", 3), ("q4", 4)];

const WEEKDAYS: Table = &[
    ("monday", 0),
    ("tuesday", 1),
    ("wednesday", 2),
    ("thursday", 3),
    ("friday", 4),
    ("saturday", 5),
    ("sunday", 6),
    // Abbreviations that are no other word ("sat", "sun" and "wed" are).
    ("tues", 1),
    ("weds", 2),
    ("thurs", 3),
];

/// Short weekday names read only after "on" or "last" ("on Thu", "last Fri").
const SHORT_WEEKDAYS: Table = &[("mon", 0), ("tue", 1), ("thu", 3), ("fri", 4)];

/// Words of a trip taken before "for" a holiday ("where did we go for Thanksgiving?", "home for
/// Christmas"): past or asked about with "did", not "going for" (to come).
const TRAVELLED_FOR: El = Word(&[
    "go",
    "went",
    "gone",
    "came",
    "home",
    "traveled",
    "travelled",
    "flew",
    "drove",
    "stayed",
    "away",
    "visited",
]);

/// Every short weekday name, read only before a part of the day ("Sat morning").
const ALL_SHORT_WEEKDAYS: Table = &[
    ("mon", 0),
    ("tue", 1),
    ("wed", 2),
    ("thu", 3),
    ("fri", 4),
    ("sat", 5),
    ("sun", 6),
];

/// Weekday names counted back ("two Mondays ago").
const WEEKDAYS_PLURAL: Table = &[
    ("mondays", 0),
    ("tuesdays", 1),
    ("wednesdays", 2),
    ("thursdays", 3),
    ("fridays", 4),
    ("saturdays", 5),
    ("sundays", 6),
];

/// Which such weekday of a month ("the first Monday of November"): 0 is the last.
const NTH: Table = &[
    ("first", 1),
    ("1st", 1),
    ("second", 2),
    ("2nd", 2),
    ("third", 3),
    ("3rd", 3),
    ("fourth", 4),
    ("4th", 4),
    ("fifth", 5),
    ("5th", 5),
    ("last", 0),
    ("final", 0),
];

/// Month names that stand alone: every full name but "may" (mostly the verb).
const MONTHS_ALONE: Table = &[
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
];

/// Month names next to a day, a year or in/during/last/this: all names and abbreviations.
const MONTHS: Table = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
    // Last, for [`MONTHS_NOT_MAY`].
    ("may", 5),
];

/// "may" alone, as a list's last month with "last year" after it ("in April and May last
/// year").
const ONLY_MAY: Table = &[("may", 5)];

/// Month names after a word that opens a range ("since Oct", "from Sept to Dec"): every name
/// and abbreviation but "may" ("suggestions from May"), the last entry of [`MONTHS`].
const MONTHS_NOT_MAY: Table = MONTHS.split_at(MONTHS.len() - 1).0;

/// Words that open a range on a time after them ([`super::ranges`]): a year, a month or "the
/// summer" after them is a time ("since 2025", "before the summer").
const OPENERS: El = After(&[
    "since", "before", "after", "until", "till", "from", "between",
]);
/// The same without "from" and "between", where "may" would be the month ("since May").
const SIDE_OPENERS: El = After(&["since", "before", "after", "until", "till"]);
/// "from" and "between".
const RANGE_OPENERS: El = After(&["from", "between"]);

/// Season names next to a year ("the summer of 2025", "winter last year"); "fall" needs a
/// word before it ([`FALL`]): "did sales fall last year" is last year.
const SEASONS: Table = &[("spring", 0), ("summer", 1), ("autumn", 2), ("winter", 3)];

/// Season names after a count ("two summers ago", "one winter ago").
const COUNTED_SEASONS: Table = &[
    ("spring", 0),
    ("springs", 0),
    ("summer", 1),
    ("summers", 1),
    ("autumn", 2),
    ("autumns", 2),
    ("fall", 2),
    ("falls", 2),
    ("winter", 3),
    ("winters", 3),
];

/// Seasons written with "time" ("in the summertime").
const SEASON_TIMES: Table = &[("springtime", 0), ("summertime", 1), ("wintertime", 3)];

/// "fall" as the season, after "the", "in", "during" or "over".
const FALL: Table = &[("fall", 2)];

/// Words a phrase ending in a day of the month may stand before ("on the 14th about the
/// dentist"); before any other word ("on the 2nd floor") the ordinal is no day.
pub(super) const AFTER_DAY: &[&str] = &[
    "about",
    "regarding",
    "concerning",
    "and",
    "or",
    "i",
    "we",
    "you",
    "he",
    "she",
    "they",
    "it",
    "when",
    "what",
    "that",
    "at",
    "in",
    "for",
    "with",
    "to",
    "onwards",
    "onward",
    // Last, for [`SEASON_ENDS`], which leaves these three out.
    "of",
    "this",
    "last",
];

/// Where a third of a season without "in" before it, or "the week|weekend of the Nth", must
/// end ([`AFTER_DAY`] without "of", "this" and "last"):
/// at the end, before punctuation or before a word such as "about" or a pronoun — not before
/// a noun it would name ("late summer squash").
const SEASON_ENDS: El = EndsBefore(AFTER_DAY.split_at(AFTER_DAY.len() - 3).0);

/// Not before "of" or a word that makes "h1" a heading ("in H1 tags").
const NOT_HEADING: El = NotBefore(&[
    "of", "tag", "tags", "heading", "headings", "title", "titles", "element", "elements", "text",
]);

/// Ordinal words for a day of the month ("the twentieth of October", "March the third"), the
/// tens with their units ("twenty-first", "twenty first").
const DAY_WORDS: Table = &[
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("eleventh", 11),
    ("twelfth", 12),
    ("thirteenth", 13),
    ("fourteenth", 14),
    ("fifteenth", 15),
    ("sixteenth", 16),
    ("seventeenth", 17),
    ("eighteenth", 18),
    ("nineteenth", 19),
    ("twentieth", 20),
    ("twenty first", 21),
    ("twenty second", 22),
    ("twenty third", 23),
    ("twenty fourth", 24),
    ("twenty fifth", 25),
    ("twenty sixth", 26),
    ("twenty seventh", 27),
    ("twenty eighth", 28),
    ("twenty ninth", 29),
    ("thirtieth", 30),
    ("thirty first", 31),
];

/// Ordinal words for a week or a half of a month.
const ORDINALS: Table = &[
    ("first", 1),
    ("1st", 1),
    ("second", 2),
    ("2nd", 2),
    ("third", 3),
    ("3rd", 3),
    ("fourth", 4),
    ("4th", 4),
];

const fn day(days_ago: u32) -> Make {
    Fixed(Expr::Day { days_ago })
}

const fn part(days_ago: u32, from_hour: u32, to_hour: u32) -> Make {
    Fixed(Expr::DayPart {
        days_ago,
        from_hour,
        to_hour,
    })
}

const fn rule(pattern: &'static [El], make: Make) -> Rule {
    Rule { pattern, make }
}

/// The whole units `nearest` to `farthest` back ("two or three weeks ago").
const fn back(unit: Unit, nearest: u32, farthest: u32) -> Make {
    Fixed(Expr::Back {
        unit,
        nearest,
        farthest,
    })
}

const fn season(season: u32, ended: bool) -> Make {
    Fixed(Expr::Season { season, ended })
}

/// "last" before a holiday makes it a time, unless a word before "last" makes "last" an
/// adjective ("the last Christmas movie", "my last Easter egg").
/// Also not after an owner's "'s" ("Mom's last Christmas") nor in "one|every|final last".
const NOT_OWNED: El = NotAfter(&[
    "the", "my", "our", "your", "his", "her", "their", "its", "a", "this", "that", "very", "s",
    "one", "every", "final", "song",
]);

/// Not before a word that makes "back" a noun or a place ("two weeks back pay", "a few weeks
/// back home", "two years back to back").
const BACK_NOT_BEFORE: El = NotBefore(&[
    "pay", "rent", "taxes", "tax", "wages", "to", "home", "at", "in", "on", "from", "and",
]);
/// Not after "first" ("my first few weeks back at work").
const BACK_NOT_AFTER: El = NotAfter(&["first"]);

/// Not after a determiner: a weekday or month name after one is part of a name ("the Monday
/// standup", "our April release", "every Friday").
const NOT_DETERMINED: El = NotAfter(DETERMINERS);

/// Words for notes, before which a month after "my" or "our" is when they were written.
const NOTE_WORDS: &[&str] = &[
    "notes", "note", "memos", "memo", "entries", "journal", "log", "logs", "diary", "jottings",
];

/// Not before a pronoun: "late may I go" is the verb.
const NOT_PRONOUN: El = NotBefore(&["i", "we", "you", "he", "she", "they", "it"]);

const DETERMINERS: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "their", "his", "her", "its", "every", "each", "that",
    "those", "these", "which", "whose", "any", "no", "for",
];

/// Nouns that close a label of what happened: "Summer trip notes", "Dec dentist notes". Not
/// what looks ahead ("New Year's Eve party ideas", "Thanksgiving plans", "Christmas list").
const LABEL_NOUNS: &[&str] = &[
    "notes", "note", "memos", "memo", "entries", "entry", "log", "logs", "journal", "diary",
    "photos", "pictures", "receipts", "expenses", "recap", "summary", "minutes",
];

/// The time that opens a label, as a preposition before it would read it: the query's first
/// words, before a noun of [`LABEL_NOUNS`] that ends the query ("Summer trip notes", "Christmas
/// 2025 notes", "Memorial Day trip notes") or before a colon ("late Jan: interview
/// feedback?"). Written as a label, with no word before it that makes it a time, a month
/// abbreviation, a season or a holiday names none alone; here the longest run of first words
/// that "in" or "on" would make one expression of, whole, is that expression.
pub(super) fn label(query: &str) -> Option<Found> {
    let head = query.trim_end_matches(|c: char| c.is_whitespace() || "?.!".contains(c));
    let label_end = match head.find(':') {
        Some(colon) => colon,
        None => {
            let last = head.rsplit(char::is_whitespace).next()?;
            LABEL_NOUNS
                .contains(&last.to_lowercase().as_str())
                .then(|| head.len() - last.len())?
        }
    };
    let words: Vec<(usize, usize)> = query[..label_end]
        .split_whitespace()
        .map(|w| {
            let start = w.as_ptr() as usize - query.as_ptr() as usize;
            (start, start + w.len())
        })
        .collect();
    if words.is_empty() || words.len() > 4 || words[0].0 != 0 {
        return None;
    }
    (1..=words.len()).rev().find_map(|n| {
        let end = words[n - 1].1;
        ["in", "on"].iter().find_map(|preposition| {
            let written = format!("{preposition} {}", &query[..end]);
            let shift = preposition.len() + 1;
            Tokens::new(&written, month_named)
                .find(&ENGLISH)
                .into_iter()
                // With the preposition or right after it: from the label's first word.
                .find(|f| f.range.start <= shift && f.range.end == written.len())
                .map(|f| Found {
                    range: 0..f.range.end - shift,
                    ..f
                })
        })
    })
}

/// Whether the word at `range` is a weekday, month or quarter name listed after another after
/// a determiner, and so part of a name as that one is: "the Monday and Tuesday sessions",
/// "every Monday, Wednesday and Friday", "the March/April issue", "the Q3 and Q4 plans".
pub(super) fn in_named_list(query: &str, range: &std::ops::Range<usize>) -> bool {
    let is_name = |word: &str| {
        let word = word.to_lowercase();
        [WEEKDAYS, MONTHS, QUARTERS]
            .iter()
            .any(|table| table.iter().any(|(name, _)| *name == word))
    };
    if !is_name(&query[range.clone()]) {
        return false;
    }
    let mut head = &query[..range.start];
    loop {
        // The joiner before the name: "and", "or", "to", "through", "&", "/", "-" or a comma.
        let trimmed = head.trim_end();
        let Some(rest) = ["and", "or", "to", "through", "thru", "&", "/", "-", ","]
            .iter()
            .find_map(|joiner| {
                let rest = trimmed.strip_suffix(joiner)?;
                let whole =
                    !joiner.starts_with(char::is_alphabetic) || rest.ends_with(char::is_whitespace);
                whole.then_some(rest)
            })
        else {
            return false;
        };
        let rest = rest.trim_end();
        // A comma may come before "and" ("Monday, Tuesday, and Wednesday").
        let rest = rest.strip_suffix(',').unwrap_or(rest).trim_end();
        let start = rest
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric())
            .last()
            .map(|(at, _)| at);
        let Some(start) = start else { return false };
        if !is_name(&rest[start..]) {
            return false;
        }
        let before = rest[..start].trim_end();
        let word_start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphabetic())
            .last()
            .map_or(before.len(), |(at, _)| at);
        let word = before[word_start..].to_lowercase();
        if DETERMINERS.contains(&word.as_str()) && before.len() < rest[..start].len() {
            return true;
        }
        head = &rest[..start];
    }
}

/// Whether the text after a month name read as a list's later item lets it be the month:
/// the end, punctuation, a year, or a word that ends a phrase ("in October and Jan said hi" is
/// Jan the person).
pub(super) fn month_item_ends(rest: &str) -> bool {
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    let trimmed = rest.trim_start();
    let Some(first) = trimmed.chars().next() else {
        return true;
    };
    if !first.is_alphanumeric() || first.is_ascii_digit() {
        return true;
    }
    if trimmed.len() == rest.len() {
        return false;
    }
    let word: String = trimmed
        .chars()
        .take_while(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    AFTER_DAY.contains(&word.as_str())
        && !["i", "we", "you", "he", "she", "they", "it"].contains(&word.as_str())
        || ["and", "or", "last", "this"].contains(&word.as_str())
}

/// Words before a holiday that make it a time ("over Christmas"; "Christmas gifts" names
/// none); they stay outside the phrase, so that "since", "before" and "after" open it
/// ("before Christmas" asked shortly before the coming one names no period: `time::coming`).
/// Not "on" ("notes on Christmas gifts") nor "last" ("the last Christmas movie").
/// After "to", "and", "until", "till" or "through" a holiday ends a range and is read only as
/// such ("from Easter to Thanksgiving"; "gifts for Christmas and Easter" names no time), or
/// with "until", "till", "prior to" or "up to" alone as the end of an open one.
const HOLIDAY_AFTER: El = AfterOrEnd {
    after: &[
        "at", "over", "around", "during", "since", "after", "from", "between", "before",
    ],
    ends: &["to", "and", "until", "till", "through", "thru"],
};

/// A holiday name after "on", read only where its phrase ends ([`ON_HOLIDAY_ENDS`]): "on
/// Halloween", "on Boxing Day", "on Christmas about the gifts"; not "notes on Halloween
/// costumes", "a post on Boxing Day deals", "my notes on Christmas and Easter traditions".
/// After a verb ("what did I do on Halloween with the kids") the phrase ends anywhere.
const ON_HOLIDAY: El = AfterUnlessTopic {
    after: &["on"],
    topics: ON_TOPICS,
};

/// Words before "on" that make what follows it a topic ("notes on Halloween costumes",
/// "spent on Christmas presents") or a place ("lives on Easter Road"), not a day.
const ON_TOPICS: &[&str] = &[
    "notes",
    "note",
    "thoughts",
    "ideas",
    "tips",
    "advice",
    "post",
    "posts",
    "article",
    "articles",
    "essay",
    "report",
    "reports",
    "book",
    "books",
    "talk",
    "lecture",
    "chapter",
    "piece",
    "video",
    "videos",
    "podcast",
    "opinion",
    "opinions",
    "views",
    "take",
    "info",
    "information",
    "research",
    "focus",
    "focused",
    "spend",
    "spent",
    "spending",
    "money",
    "deals",
    "deal",
    "sale",
    "sales",
    "discount",
    "discounts",
    "comments",
    "feedback",
    "questions",
    "facts",
    "stats",
    "data",
    "guide",
    "course",
    "class",
    "lesson",
    "workshop",
    "webinar",
    "memo",
    "memos",
    "summary",
    "reading",
    "story",
    "stories",
    "poem",
    "song",
    "songs",
    "jokes",
    "quiz",
    "worked",
    "working",
    "work",
    "reflect",
    "reflections",
    "based",
    "depends",
    "depend",
    "decorations",
    "budget",
    "recipes",
    "recipe",
    "movies",
    "movie",
    "film",
    "films",
    "special",
    "specials",
    // Places on a street named for a holiday ("who lives on Easter Road?").
    "lives",
    "live",
    "lived",
    "living",
    "located",
    "shop",
    "store",
    "restaurant",
    "cafe",
    "house",
    "apartment",
    "flat",
    "office",
];

/// The words a holiday after "on" may stand before (besides the end, punctuation and a year):
/// not "and", "of", "with" or "for", which go on about the holiday as a topic.
const ON_HOLIDAY_ENDS: &[&str] = &[
    "about",
    "regarding",
    "concerning",
    // Where and when on the day: "on Christmas Day at grandma's", "on Halloween night".
    "at",
    "morning",
    "afternoon",
    "evening",
    "night",
    "i",
    "we",
    "you",
    "he",
    "she",
    "they",
    "it",
    "when",
    "what",
    "that",
    "last",
    "this",
];

/// Words before a holiday's name that make it a time: "on" and [`HOLIDAY_AFTER`]'s.
const HOLIDAY_WORDS: El = After(&[
    "on", "at", "over", "around", "during", "since", "after", "from", "between",
]);

/// The `nth` Sunday of `month` (a holiday of that date, the latest begun).
const fn nth_sunday(nth: u32, month: u32) -> Make {
    Fixed(Expr::NthWeekdayOfMonth {
        nth,
        weekday: 6,
        month,
        year: None,
    })
}

/// The `nth` Monday of `month` (a holiday of that date, the latest begun).
const fn nth_monday(nth: u32, month: u32) -> Make {
    Fixed(Expr::NthWeekdayOfMonth {
        nth,
        weekday: 0,
        month,
        year: None,
    })
}

/// The words a month and a day with a slash may stand before (besides the end and
/// punctuation): not "of" or "for" ("on 1/2 of the pages", "10/10 for the movie": fractions and
/// scores); "to", "and", "until" join a range or a list of them.
const SLASHED_ENDS: &[&str] = &[
    "about",
    "regarding",
    "concerning",
    "and",
    "or",
    "to",
    "until",
    "till",
    "through",
    "thru",
    "i",
    "we",
    "you",
    "he",
    "she",
    "they",
    "it",
    "when",
    "what",
    "that",
    "at",
    "in",
    "this",
    "last",
];

/// Words that join a range or a list before its later item.
const LATER_ITEM: El = AfterOrEnd {
    after: &[],
    ends: &["and", "or", "to", "through", "thru", "until", "till"],
};

/// `days` days from `month`/`day` of the latest year that has reached it.
const fn days_of_year(month: u32, day: u32, days: u32) -> Make {
    Fixed(Expr::DaysOfYear { month, day, days })
}

const fn quarter(quarter: u32) -> Make {
    Fixed(Expr::Quarter { quarter })
}

/// The month a word names, as in a range's end ("from March to may"), where the word cannot be
/// the verb: every name and abbreviation of [`MONTHS`].
pub(super) fn month_named(word: &str) -> Option<u32> {
    let word = word.to_lowercase();
    MONTHS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, month)| *month)
}

/// `days` days from `offset` days after `feast`.
const fn feast(feast: Feast, offset: i32, days: u32) -> Make {
    Fixed(Expr::Feast {
        feast,
        offset,
        days,
    })
}

/// The word before "week", "month", "year" or "quarter" that means the one before this:
/// "the previous month", "the prior year".
const PREVIOUS: El = Word(&["previous", "prior", "preceding"]);

/// Days `from_day` to `to_day` (Monday 0) of the ISO week `weeks_ago` back.
const fn week_part(weeks_ago: u32, from_day: u32, to_day: u32) -> Make {
    Fixed(Expr::PartOfWeek {
        weeks_ago,
        from_day,
        to_day,
    })
}

/// "back" after a length, not after a comma ("out for two days, back on the job").
const BACK: El = Tight(&["back"]);
const THIS: El = Word(&["this"]);
const LAST: El = Word(&["last"]);
const AGO: El = Word(&["ago"]);
const DAYS: El = Word(&["day", "days"]);
const WEEKS: El = Word(&["week", "weeks", "wk", "wks"]);
const MONTH_WORDS: El = Word(&["month", "months", "mos"]);
const YEARS: El = Word(&["year", "years", "yr", "yrs"]);
const N: El = Count(COUNTS);
/// Words before a season that make it a time: "in (the) summer", "during the winter".
const IN_SEASON: El = Word(&["in", "during", "over", "throughout"]);
const SPRING: El = Word(&["spring"]);
const SUMMER: El = Word(&["summer"]);
/// "fall" is the verb unless a preposition or "this"/"last" comes first.
const AUTUMN: El = Word(&["autumn", "fall"]);
const WINTER: El = Word(&["winter"]);
const THE: El = Opt(&["the"]);
/// Months of the Hebrew calendar in English letters, 1 Tishrei … 12 Elul
/// ([`Expr::HebrewMonth`]), but Av and Nissan (a name, a car), in [`OTHER_HEBREW_MONTHS`].
const HEBREW_MONTHS: Table = &[
    ("tishrei", 1),
    ("tishri", 1),
    ("cheshvan", 2),
    ("heshvan", 2),
    ("marcheshvan", 2),
    ("kislev", 3),
    ("tevet", 4),
    ("teves", 4),
    ("shevat", 5),
    ("shvat", 5),
    ("adar", 6),
    ("nisan", 7),
    ("iyar", 8),
    ("iyyar", 8),
    ("sivan", 9),
    ("tammuz", 10),
    ("tamuz", 10),
    ("elul", 12),
];
/// Hebrew months whose names are other words too: read only after "the month of".
const OTHER_HEBREW_MONTHS: Table = &[("nissan", 7), ("av", 11)];

/// Words before an ISO week number ("in week 45", "during CW 10").
const WEEK_OPENERS: El = Opt(&["in", "during", "over"]);
/// The words of an ISO week number before it ("week 45", "CW 10"; "calendar" may come first).
const WEEK_NUMBER_WORDS: El = Word(&["week", "wk", "cw", "kw"]);
/// Not before "'s": "the end of last year's budget" is no part of a year.
const NOT_OWNER: El = NotBefore(&["s"]);
/// Not before "'s", "before", "after" or "of": "the first quarter of the year before last" is
/// no quarter of this year, "the first half of the month of March" none of this month.
const NOT_OTHER: El = NotBefore(&["s", "before", "after", "of"]);
/// Not before "of" nor a unit a quarter divides: "the first quarter of the match", "the first
/// quarter mile".
const NOT_QUARTER_OF: El = NotBefore(&[
    "of", "mile", "miles", "century", "note", "notes", "inch", "pound", "hour",
]);
/// Not before "of": "in the last year of school" is no year up to now.
const NOT_OF: El = NotBefore(&["of"]);
/// Not before a name that "last" may belong to: "the night before last Friday".
const NOT_NAMED: El = NotBefore(&[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "week",
    "weekend",
    "month",
    "year",
    "christmas",
    "night",
]);

/// Tried at every word; the longest match wins, the earlier rule on a tie.
#[rustfmt::skip]
const RULES: &[Rule] = &[
    // Vague counts first, so that on a tie with the counts of [`COUNTS`] they win.
    rule(&[Few(FEW), DAYS, AGO], With(days_ago)),
    rule(&[Few(FEW), WEEKS, AGO], With(weeks_ago)),
    rule(&[Few(FEW), MONTH_WORDS, AGO], With(months_ago)),
    rule(&[Few(FEW), YEARS, AGO], With(years_ago)),
    rule(&[Word(&["today"])], day(0)),
    rule(&[Word(&["yesterday"])], day(1)),
    rule(&[Opt(&["the"]), Word(&["day"]), Word(&["before"]), Word(&["yesterday"])], day(2)),
    rule(&[Word(&["the"]), Word(&["day"]), Word(&["before"]), Word(&["today"])], day(1)),
    rule(&[THIS, Word(&["morning"])], part(0, 0, 12)),
    rule(&[THIS, Word(&["afternoon"])], part(0, 12, 18)),
    rule(&[THIS, Word(&["evening"])], part(0, 18, 24)),
    rule(&[Word(&["tonight"])], part(0, 18, 24)),
    rule(&[LAST, Word(&["night"])], part(1, 18, 30)),
    rule(&[Word(&["yesterday"]), Word(&["morning"])], part(1, 0, 12)),
    rule(&[Word(&["yesterday"]), Word(&["afternoon"])], part(1, 12, 18)),
    rule(&[Word(&["yesterday"]), Word(&["evening"])], part(1, 18, 24)),
    rule(&[N, DAYS, AGO], With(days_ago)),
    rule(&[N, WEEKS, AGO], With(weeks_ago)),
    rule(&[N, MONTH_WORDS, AGO], With(months_ago)),
    rule(&[N, YEARS, AGO], With(years_ago)),
    rule(&[Opt(&["earlier"]), THIS, Word(&["week"])], Fixed(Expr::Week { weeks_ago: 0 })),
    // Not before "of": "the last week of the project".
    rule(&[LAST, Word(&["week"]), NOT_OF], Fixed(Expr::Week { weeks_ago: 1 })),
    rule(&[Opt(&["the"]), Word(&["past"]), Word(&["week"])], Fixed(Expr::Trailing { days: 7 })),
    rule(&[Opt(&["earlier"]), THIS, Word(&["month"])], Fixed(Expr::Month { months_ago: 0 })),
    rule(&[LAST, Word(&["month"]), NOT_OF], Fixed(Expr::Month { months_ago: 1 })),
    rule(&[Opt(&["earlier"]), THIS, Word(&["year"])], Fixed(Expr::Year { years_ago: 0 })),
    rule(&[LAST, Word(&["year"])], Fixed(Expr::Year { years_ago: 1 })),
    rule(&[THIS, Word(&["weekend"]), NOT_OF], Fixed(Expr::Weekend)),
    // On a Saturday or a Sunday, "last weekend" is the one before.
    rule(&[LAST, Word(&["weekend"]), NOT_OF], Fixed(Expr::EndedWeekend)),
    // "the first Monday of November", "the last Friday in October".
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(NTH), Weekday(WEEKDAYS), Word(&["of", "in"]), Month(MONTHS)], With(nth_weekday_of_month)),
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(NTH), Weekday(WEEKDAYS), Word(&["of", "in"]), Month(MONTHS), Year], With(nth_weekday_of_month)),
    // "two Mondays ago", "the Monday before last", "Friday two weeks ago".
    rule(&[N, Weekday(WEEKDAYS_PLURAL), AGO], With(weekdays_ago)),
    rule(&[Opt(&["on"]), Word(&["the"]), Weekday(WEEKDAYS), Word(&["before"]), LAST, NOT_NAMED], With(weekday_before_last)),
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), N, WEEKS, AGO], With(weekday_weeks_ago)),
    // "the last day of October", "on the first day of November".
    rule(&[Opt(&["on"]), Word(&["the"]), Word(&["last", "final"]), Word(&["day"]), Word(&["of", "in"]), Month(MONTHS)], With(last_day_of_month)),
    rule(&[Opt(&["on"]), Word(&["the"]), Word(&["first"]), Word(&["day"]), Word(&["of", "in"]), Month(MONTHS)], With(first_day_of_month)),
    rule(&[Opt(&["the"]), Word(&["past", "last"]), N, DAYS, NOT_OF], With(past_days)),
    rule(&[Opt(&["the"]), Word(&["past", "last"]), N, WEEKS, NOT_OF], With(past_weeks)),
    rule(&[Opt(&["over", "on", "at", "during", "in"]), Opt(&["the"]), Word(&["past", "last"]), N, Word(&["weekends"]), NOT_OF], With(past_weekends)),
    rule(&[Opt(&["over", "on", "at", "during", "in"]), Opt(&["the"]), Word(&["past", "last"]), Few(FEW), Word(&["weekends"]), NOT_OF], With(past_weekends)),
    rule(&[Word(&["on", "last"]), Weekday(WEEKDAYS)], With(weekday)),
    rule(&[Word(&["in", "during"]), Month(MONTHS_ALONE)], With(named_month)),
    // A bare name after a determiner names a thing: "the Monday standup", "the April release",
    // "the March of Dimes".
    rule(&[NOT_DETERMINED, Weekday(WEEKDAYS)], With(weekday)),
    // Nor before "'s": "June's birthday".
    rule(&[NOT_DETERMINED, Month(MONTHS_ALONE), NOT_OWNER], With(named_month)),
    // After "my" or "our", a month before a word for notes is when they were written ("my
    // October notes about the house": the word for notes goes with it); before anything else
    // it is a name ("our April release", "my January/Monday standup").
    rule(&[After(&["my", "our"]), Month(MONTHS_ALONE), Word(NOTE_WORDS)], With(named_month)),
    rule(&[Word(&["in", "during"]), Month(MONTHS)], With(named_month)),
    // "last December" on December 3 is the one that is over.
    rule(&[LAST, Month(MONTHS)], With(ended_month)),
    // A time to come is no creation time; matched so that "Friday" alone does not take it.
    rule(&[Opt(&["this"]), Word(&["next", "coming"]), Weekday(WEEKDAYS)], Fixed(Expr::Future)),
    rule(&[Opt(&["this"]), Word(&["next", "coming"]), Month(MONTHS)], Fixed(Expr::Future)),
    rule(&[Opt(&["this"]), Word(&["next", "coming"]), Word(&["week", "weekend", "month", "year", "quarter"])], Fixed(Expr::Future)),
    rule(&[Opt(&["this"]), Word(&["next", "coming"]), Season(SEASONS)], Fixed(Expr::Future)),
    rule(&[Opt(&["this"]), Word(&["next", "coming"]), Season(FALL)], Fixed(Expr::Future)),
    // "Monday last week", "on Tuesday of last week", "Friday this week".
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Opt(&["of"]), LAST, Word(&["week"])], With(weekday_last_week)),
    // "last week on Monday", "last week's Monday", "last week Friday".
    rule(&[LAST, Word(&["week"]), Opt(&["on", "s"]), Weekday(WEEKDAYS)], With(weekday_last_week)),
    // "notes from the weekend": the latest weekend begun.
    rule(&[After(&["from"]), Word(&["the"]), Word(&["weekend"]), NOT_OF], Fixed(Expr::Weekend)),
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Opt(&["of"]), THIS, Word(&["week"])], With(weekday_this_week)),
    rule(&[Opt(&["in", "during"]), Entry(QUARTERS), Opt(&["of"]), Year], With(quarter_of_year)),
    rule(&[Opt(&["in", "during"]), Entry(QUARTERS), Opt(&["of"]), LAST, Word(&["year"])], With(quarter_last_year)),
    rule(&[Opt(&["a"]), Word(&["fortnight"]), AGO], Fixed(Expr::Week { weeks_ago: 2 })),
    // Not "this" with "may" or an abbreviation: "this may help".
    // "this June": this year's, no time while it is to come.
    rule(&[THIS, Month(MONTHS_ALONE)], With(month_this_year)),
    rule(&[Opt(&["in", "during"]), Month(MONTHS), Opt(&["of"]), Year], With(named_month)),
    rule(&[Opt(&["on"]), Month(MONTHS), Day], With(date)),
    rule(&[Opt(&["on"]), Month(MONTHS), Day, Year], With(date)),
    rule(&[Opt(&["on"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(date)),
    rule(&[Opt(&["on"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS), Year], With(date)),
    // A day in words: "on the first of March", "the twentieth of October 2025", "March the
    // third", "October twentieth" (not after "may": "you may first ask").
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(DAY_WORDS), Word(&["of"]), Month(MONTHS)], With(date_in_words)),
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(DAY_WORDS), Word(&["of"]), Month(MONTHS), Year], With(date_in_words)),
    rule(&[Opt(&["on"]), Month(MONTHS_NOT_MAY), Word(&["the"]), Entry(DAY_WORDS)], With(date_in_words)),
    rule(&[Opt(&["on"]), Month(MONTHS_NOT_MAY), Entry(DAY_WORDS), EndsBefore(AFTER_DAY), NOT_OF], With(date_in_words)),
    // Not "may the fourth be with you".
    rule(&[Opt(&["on"]), Month(MONTHS_NOT_MAY), Word(&["the"]), Ordinal], With(date)),
    rule(&[Opt(&["on"]), Month(MONTHS_NOT_MAY), Word(&["the"]), Ordinal, Year], With(date)),
    rule(&[Opt(&["on"]), Month(MONTHS_NOT_MAY), Opt(&["the"]), Entry(DAY_WORDS), Year], With(date_in_words)),
    rule(&[Word(&["in", "during"]), Year], With(named_year)),
    rule(&[Opt(&["in", "on", "during"]), Iso], With(iso)),
    rule(&[THE, Word(&["week"]), Word(&["before"]), LAST], Fixed(Expr::Week { weeks_ago: 2 })),
    rule(&[THE, Word(&["month"]), Word(&["before"]), LAST], Fixed(Expr::Month { months_ago: 2 })),
    rule(&[THE, Word(&["year"]), Word(&["before"]), LAST], Fixed(Expr::Year { years_ago: 2 })),
    // Not "on the weekend of the 14th", another weekend.
    rule(&[Word(&["over", "on", "at", "during"]), Word(&["the"]), Word(&["weekend"]), NotBefore(&["of", "trip", "trips", "getaway", "retreat", "shift", "shifts", "edition"])], Fixed(Expr::Weekend)),
    rule(&[N, Word(&["hour", "hours"]), AGO], With(hours_ago)),
    rule(&[IN_SEASON, THE, SPRING], season(0, false)),
    rule(&[IN_SEASON, THE, SUMMER], season(1, false)),
    rule(&[IN_SEASON, THE, AUTUMN], season(2, false)),
    rule(&[IN_SEASON, THE, WINTER], season(3, false)),
    // "this summer" in March is the one to come: no period (Expr::ThisSeason).
    rule(&[THIS, SPRING], Fixed(Expr::ThisSeason { season: 0 })),
    rule(&[THIS, SUMMER], Fixed(Expr::ThisSeason { season: 1 })),
    rule(&[THIS, AUTUMN], Fixed(Expr::ThisSeason { season: 2 })),
    rule(&[THIS, WINTER], Fixed(Expr::ThisSeason { season: 3 })),
    rule(&[LAST, SPRING], season(0, true)),
    rule(&[LAST, SUMMER], season(1, true)),
    rule(&[LAST, AUTUMN], season(2, true)),
    rule(&[LAST, WINTER], season(3, true)),
    rule(&[NOT_DETERMINED, Opt(&["in", "during"]), Word(&["q1"]), NOT_OF], quarter(1)),
    rule(&[NOT_DETERMINED, Opt(&["in", "during"]), Word(&["q2"]), NOT_OF], quarter(2)),
    rule(&[NOT_DETERMINED, Opt(&["in", "during"]), Word(&["q3"]), NOT_OF], quarter(3)),
    rule(&[NOT_DETERMINED, Opt(&["in", "during"]), Word(&["q4"]), NOT_OF], quarter(4)),
    rule(&[THIS, Word(&["quarter"])], Fixed(Expr::QuarterAgo { quarters_ago: 0 })),
    rule(&[LAST, Word(&["quarter"]), NOT_OF], Fixed(Expr::QuarterAgo { quarters_ago: 1 })),
    rule(&[Opt(&["the"]), Word(&["past", "last"]), N, MONTH_WORDS, NOT_OF], With(past_months)),
    rule(&[Opt(&["the"]), Word(&["past", "last"]), N, YEARS, NOT_OF], With(past_years)),
    rule(&[Opt(&["the"]), Word(&["past"]), Word(&["month"])], Fixed(Expr::TrailingMonths { months: 1 })),
    rule(&[Opt(&["the"]), Word(&["past"]), Word(&["year"])], Fixed(Expr::TrailingMonths { months: 12 })),
    rule(&[Word(&["half"]), Word(&["a"]), Word(&["year"]), AGO], Fixed(Expr::Month { months_ago: 6 })),
    rule(&[THIS, Word(&["past"]), Word(&["weekend"])], Fixed(Expr::Weekend)),
    // "may" and abbreviations only after "in"/"during": "it may last year-round".
    rule(&[Opt(&["in", "during"]), Month(MONTHS_ALONE), Opt(&["of"]), LAST, Word(&["year"])], With(month_last_year)),
    rule(&[Word(&["in", "during"]), Month(MONTHS), Opt(&["of"]), LAST, Word(&["year"])], With(month_last_year)),
    rule(&[Opt(&["in", "during"]), Month(MONTHS_ALONE), Opt(&["of"]), THIS, Word(&["year"])], With(month_this_year)),
    rule(&[Word(&["in", "during"]), Month(MONTHS), Opt(&["of"]), THIS, Word(&["year"])], With(month_this_year)),
    rule(&[Opt(&["in", "during", "over"]), THE, Season(SEASONS), Opt(&["of"]), Year], With(season_of_year)),
    rule(&[Opt(&["in", "during", "over"]), THE, Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(season_last_year)),
    rule(&[Opt(&["in", "during", "over"]), THE, Season(SEASONS), Opt(&["of"]), THIS, Word(&["year"])], With(season_this_year)),
    rule(&[Opt(&["in", "during", "over"]), Word(&["the"]), Season(FALL), Opt(&["of"]), Year], With(season_of_year)),
    rule(&[Opt(&["in", "during", "over"]), Word(&["the"]), Season(FALL), Opt(&["of"]), LAST, Word(&["year"])], With(season_last_year)),
    rule(&[Opt(&["in", "during", "over"]), Word(&["the"]), Season(FALL), Opt(&["of"]), THIS, Word(&["year"])], With(season_this_year)),
    rule(&[Word(&["in", "during", "over"]), Season(FALL), Opt(&["of"]), Year], With(season_of_year)),
    rule(&[Word(&["in", "during", "over"]), Season(FALL), Opt(&["of"]), LAST, Word(&["year"])], With(season_last_year)),
    rule(&[Word(&["in", "during", "over"]), Season(FALL), Opt(&["of"]), THIS, Word(&["year"])], With(season_this_year)),
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Month(MONTHS_ALONE)], With(early_month)),
    rule(&[Word(&["in", "during"]), Word(&["early"]), Month(MONTHS)], With(early_month)),
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Month(MONTHS), Year], With(early_month)),
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Month(MONTHS_ALONE)], With(mid_month)),
    rule(&[Word(&["in", "during"]), Word(&["mid"]), Month(MONTHS)], With(mid_month)),
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Month(MONTHS), Year], With(mid_month)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Month(MONTHS_ALONE)], With(late_month)),
    // Thirds of a season, each a month: "in early spring" (March), "mid-summer" (July), "late
    // in the fall", "the end of the winter" (February), "early summer 2025"; "fall" only after
    // "in", "during" or "the". Without "in" or "during" before it, only where the phrase ends
    // (as "on the 14th"): "early spring rolls", "mid-winter sale ideas" and "the end of the
    // winter coat sale" are no time.
    rule(&[Word(&["in", "during"]), Word(&["early"]), Season(SEASONS), NOT_OF], With(early_season)),
    rule(&[Word(&["in", "during"]), Word(&["mid"]), Season(SEASONS), NOT_OF], With(mid_season)),
    rule(&[Word(&["in", "during"]), Word(&["late"]), Season(SEASONS), NOT_OF], With(late_season)),
    rule(&[Word(&["early"]), Season(SEASONS), SEASON_ENDS], With(early_season)),
    rule(&[Word(&["mid"]), Season(SEASONS), SEASON_ENDS], With(mid_season)),
    rule(&[Word(&["late"]), Season(SEASONS), SEASON_ENDS], With(late_season)),
    rule(&[Word(&["in", "during"]), Word(&["early"]), Season(FALL), NOT_OF], With(early_season)),
    rule(&[Word(&["in", "during"]), Word(&["mid"]), Season(FALL), NOT_OF], With(mid_season)),
    rule(&[Word(&["in", "during"]), Word(&["late"]), Season(FALL), NOT_OF], With(late_season)),
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Season(SEASONS), Opt(&["of"]), Year], With(early_season)),
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Season(SEASONS), Opt(&["of"]), Year], With(mid_season)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Season(SEASONS), Opt(&["of"]), Year], With(late_season)),
    rule(&[Word(&["in", "during"]), Word(&["early"]), Season(FALL), Opt(&["of"]), Year], With(early_season)),
    rule(&[Word(&["in", "during"]), Word(&["mid"]), Season(FALL), Opt(&["of"]), Year], With(mid_season)),
    rule(&[Word(&["in", "during"]), Word(&["late"]), Season(FALL), Opt(&["of"]), Year], With(late_season)),
    // "late summer last year": that year's season's month.
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(early_season_last_year)),
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(mid_season_last_year)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(late_season_last_year)),
    rule(&[Word(&["in", "during"]), Word(&["early"]), Season(FALL), Opt(&["of"]), LAST, Word(&["year"])], With(early_season_last_year)),
    rule(&[Word(&["in", "during"]), Word(&["late"]), Season(FALL), Opt(&["of"]), LAST, Word(&["year"])], With(late_season_last_year)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), THE, Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(early_season_last_year)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), THE, Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(late_season_last_year)),
    rule(&[Word(&["early"]), Word(&["in"]), Word(&["the"]), Season(SEASONS), NOT_OF], With(early_season)),
    rule(&[Word(&["early"]), Word(&["in"]), Word(&["the"]), Season(FALL), NOT_OF], With(early_season)),
    rule(&[Word(&["late"]), Word(&["in"]), Word(&["the"]), Season(SEASONS), NOT_OF], With(late_season)),
    rule(&[Word(&["late"]), Word(&["in"]), Word(&["the"]), Season(FALL), NOT_OF], With(late_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), THE, Season(SEASONS), SEASON_ENDS], With(early_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), Word(&["the"]), Season(FALL), SEASON_ENDS], With(early_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["middle"]), Word(&["of"]), THE, Season(SEASONS), SEASON_ENDS], With(mid_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["middle"]), Word(&["of"]), Word(&["the"]), Season(FALL), SEASON_ENDS], With(mid_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), THE, Season(SEASONS), SEASON_ENDS], With(late_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), Word(&["the"]), Season(FALL), SEASON_ENDS], With(late_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), THE, Season(SEASONS), Opt(&["of"]), Year], With(early_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["middle"]), Word(&["of"]), THE, Season(SEASONS), Opt(&["of"]), Year], With(mid_season)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), THE, Season(SEASONS), Opt(&["of"]), Year], With(late_season)),
    // "(at) the beginning/middle/end of March (2025)", "the first week of March", "the second
    // half of March", "on the 14th".
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), Month(MONTHS)], With(early_month)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["beginning", "start"]), Word(&["of"]), Month(MONTHS), Year], With(early_month)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["middle"]), Word(&["of"]), Month(MONTHS)], With(mid_month)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["middle"]), Word(&["of"]), Month(MONTHS), Year], With(mid_month)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), Month(MONTHS)], With(late_month)),
    rule(&[Opt(&["in", "at", "during", "by"]), THE, Word(&["end"]), Word(&["of"]), Month(MONTHS), Year], With(late_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Count(ORDINALS), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS)], With(week_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Count(ORDINALS), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS), Year], With(week_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Count(ORDINALS), Word(&["half"]), Word(&["of"]), Month(MONTHS)], With(half_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Count(ORDINALS), Word(&["half"]), Word(&["of"]), Month(MONTHS), Year], With(half_of_month)),
    // Without "the", only an ordinal word: "first week of April", not "1 week of March off".
    rule(&[Opt(&["in", "during"]), Entry(ORDINALS), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS)], With(week_of_month)),
    rule(&[Opt(&["in", "during"]), Entry(ORDINALS), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS), Year], With(week_of_month)),
    rule(&[Opt(&["in", "during"]), Entry(ORDINALS), Word(&["half"]), Word(&["of"]), Month(MONTHS)], With(half_of_month)),
    rule(&[Opt(&["in", "during"]), Entry(ORDINALS), Word(&["half"]), Word(&["of"]), Month(MONTHS), Year], With(half_of_month)),
    // "the last week of March": its last days, from the 25th (February's from the 23rd).
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["last", "final"]), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS)], With(last_week_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["last", "final"]), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS), Year], With(last_week_of_month)),
    rule(&[Word(&["on"]), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(day_of_month)),
    // "the week of the 9th", "over the weekend of the 14th": of the latest month whose such
    // week or weekend has begun; only where the phrase ends ("the week of the first meeting"
    // names none). "the week of the ninth of March" is that day's week.
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Word(&["the"]), Entry(DAY_WORDS), Word(&["of"]), Month(MONTHS)], With(week_of_in_words)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Word(&["the"]), Entry(DAY_WORDS), Word(&["of"]), Month(MONTHS), Year], With(week_of_in_words)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Word(&["the"]), Ordinal, SEASON_ENDS], With(week_of_day)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Word(&["the"]), Entry(DAY_WORDS), SEASON_ENDS], With(week_of_day)),
    rule(&[Opt(&["over", "on", "during"]), THE, Word(&["weekend"]), Word(&["of"]), Word(&["the"]), Ordinal, SEASON_ENDS], With(weekend_of_day)),
    rule(&[Opt(&["over", "on", "during"]), THE, Word(&["weekend"]), Word(&["of"]), Word(&["the"]), Entry(DAY_WORDS), SEASON_ENDS], With(weekend_of_day)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Month(MONTHS), Day], With(week_of)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Month(MONTHS), Day, Year], With(week_of)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(week_of)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["of"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS), Year], With(week_of)),
    // Thirds of a year: "early this year", "the end of last year", "in the middle of the year",
    // "the beginning of 2025"; not "the end of last year's budget".
    rule(&[Word(&["early"]), THIS, Word(&["year"]), NOT_OWNER], year_part(0, 0)),
    rule(&[Word(&["early"]), LAST, Word(&["year"]), NOT_OWNER], year_part(1, 0)),
    rule(&[Word(&["late"]), LAST, Word(&["year"]), NOT_OWNER], year_part(1, 2)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OWNER], year_part(0, 0)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), LAST, Word(&["year"]), NOT_OWNER], year_part(1, 0)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OWNER], year_part(0, 1)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), LAST, Word(&["year"]), NOT_OWNER], year_part(1, 1)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), LAST, Word(&["year"]), NOT_OWNER], year_part(1, 2)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Word(&["before"]), LAST], year_part(2, 0)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Word(&["before"]), LAST], year_part(2, 1)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Word(&["before"]), LAST], year_part(2, 2)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Year], With(early_year)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Year], With(early_year)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Year], With(mid_year)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Year], With(mid_year)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), Year], With(late_year)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Year], With(late_year)),
    // Halves of a year: "the first half of the year", "the second half of last year", "the
    // first half of 2025".
    // "in H1", "H2 2025", "in H1 last year"; a bare "h1" is more often a heading.
    rule(&[Word(&["in", "during"]), Word(&["h1"]), NOT_HEADING], year_half(0, 0)),
    rule(&[Word(&["in", "during"]), Word(&["h2"]), NOT_HEADING], year_half(0, 1)),
    rule(&[Opt(&["in", "during"]), Word(&["h1"]), Opt(&["of"]), Year], With(first_half_of_year)),
    rule(&[Opt(&["in", "during"]), Word(&["h2"]), Opt(&["of"]), Year], With(second_half_of_year)),
    rule(&[Opt(&["in", "during"]), Word(&["h1"]), Opt(&["of"]), LAST, Word(&["year"])], year_half(1, 0)),
    rule(&[Opt(&["in", "during"]), Word(&["h2"]), Opt(&["of"]), LAST, Word(&["year"])], year_half(1, 1)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), Word(&["half"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OWNER], year_half(0, 0)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["second"]), Word(&["half"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OWNER], year_half(0, 1)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), Word(&["half"]), Word(&["of"]), LAST, Word(&["year"]), NOT_OWNER], year_half(1, 0)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["second"]), Word(&["half"]), Word(&["of"]), LAST, Word(&["year"]), NOT_OWNER], year_half(1, 1)),
    rule(&[Opt(&["in", "during"]), THE, Count(ORDINALS), Word(&["half"]), Word(&["of"]), Year], With(half_of_year)),
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Year], With(early_year)),
    // "in/over/within the last week|month|year": the days up to the reference, as "the past
    // week"; "last week" alone is the calendar week.
    // Not before "of": "in the last year of school".
    rule(&[Word(&["in", "within", "over", "during"]), Word(&["the"]), LAST, Word(&["week"]), NOT_OF], Fixed(Expr::Trailing { days: 7 })),
    rule(&[Word(&["in", "within", "over", "during"]), Word(&["the"]), LAST, Word(&["month"]), NOT_OF], Fixed(Expr::TrailingMonths { months: 1 })),
    rule(&[Word(&["in", "within", "over", "during"]), Word(&["the"]), LAST, Word(&["year"]), NOT_OF], Fixed(Expr::TrailingMonths { months: 12 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["24"]), Word(&["hours"])], Fixed(Expr::Trailing { days: 1 })),
    // A year, a month or a season after a word that opens a range: "since 2025", "before
    // Oct", "after the summer".
    // The year ends the phrase: "after 2000 tests passed" names no year.
    rule(&[OPENERS, Year, EndsBefore(AFTER_DAY)], With(named_year)),
    // A range's or a list's second year: "from 2020 to 2022", "between 2020 and 2022", "in
    // 2024 or 2025"; alone it names no time ("scores of 2024 and 2025 fans" is no 2025).
    rule(&[AfterOrEnd { after: &[], ends: &["to", "and", "or", "through", "thru"] }, Year, EndsBefore(AFTER_DAY)], With(named_year)),
    // Not "may": "what I wrote before may be outdated".
    rule(&[OPENERS, Month(MONTHS_NOT_MAY)], With(named_month)),
    // "since May", "before May, what…": where the phrase ends ("before may be outdated" and
    // "since May left" are no month).
    rule(&[SIDE_OPENERS, Month(ONLY_MAY), EndsBefore(AFTER_DAY)], With(named_month)),
    // Not before "of": "after the fall of Rome".
    rule(&[SIDE_OPENERS, THE, SPRING, NOT_OF], season(0, false)),
    rule(&[SIDE_OPENERS, THE, SUMMER, NOT_OF], season(1, false)),
    rule(&[SIDE_OPENERS, Word(&["the"]), AUTUMN, NOT_OF], season(2, false)),
    rule(&[SIDE_OPENERS, Word(&["autumn"]), NOT_OF], season(2, false)),
    rule(&[SIDE_OPENERS, THE, WINTER, NOT_OF], season(3, false)),
    // After "from" or "between" only with "the": "feedback from summer interns" names none.
    rule(&[RANGE_OPENERS, Word(&["the"]), SPRING, NOT_OF], season(0, false)),
    rule(&[RANGE_OPENERS, Word(&["the"]), SUMMER, NOT_OF], season(1, false)),
    rule(&[RANGE_OPENERS, Word(&["the"]), AUTUMN, NOT_OF], season(2, false)),
    rule(&[RANGE_OPENERS, Word(&["the"]), WINTER, NOT_OF], season(3, false)),
    // A weekday before a date: the date ("Thursday, November 12", "on Thursday the 12th"),
    // none when the date falls on another weekday.
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Month(MONTHS), Day], With(date_on_weekday)),
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Month(MONTHS), Day, Year], With(date_on_weekday)),
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(date_on_weekday)),
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS), Year], With(date_on_weekday)),
    // "on Friday the 20th": the latest 20th that fell on a Friday.
    rule(&[Opt(&["on"]), Weekday(WEEKDAYS), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(day_of_month_on_weekday)),
    // "this Friday" is this week's: today's or a day before, or a day to come (no period).
    rule(&[THIS, Weekday(WEEKDAYS)], With(weekday_this_week)),
    // Thirds of this or last month: "the end of last month", "early this month".
    rule(&[Word(&["early"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 1, 11)),
    rule(&[Word(&["mid", "middle"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 11, 21)),
    rule(&[Word(&["late"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 21, 32)),
    rule(&[Word(&["early"]), THIS, Word(&["month"]), NOT_OWNER], month_part(0, 1, 11)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 1, 11)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 11, 21)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 21, 32)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["the", "this"]), Word(&["month"]), NOT_OWNER], month_part(0, 1, 11)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Word(&["the", "this"]), Word(&["month"]), NOT_OWNER], month_part(0, 11, 21)),
    // The weekend before last, the past weekend, the night before last.
    // Not "the night before last Friday".
    rule(&[Opt(&["over", "on", "at", "during"]), THE, Word(&["weekend"]), Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::WeekendBack { weeks_back: 1 })),
    rule(&[Opt(&["the"]), Word(&["past"]), Word(&["weekend"])], Fixed(Expr::Weekend)),
    rule(&[THE, Word(&["night"]), Word(&["before"]), LAST, NOT_NAMED], part(2, 18, 30)),
    // Holidays with fixed dates, after a word that makes them a time: "over Christmas" (the
    // 24th to the 26th), "at Christmas Eve", "around New Year's Eve", "since Halloween",
    // "during Valentine's Day".
    rule(&[HOLIDAY_AFTER, Word(&["christmas", "xmas"]), NotBefore(&["eve", "day"])], days_of_year(12, 24, 3)),
    rule(&[HOLIDAY_AFTER, Word(&["christmas", "xmas"]), Word(&["eve"])], days_of_year(12, 24, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["christmas", "xmas"]), Word(&["day"])], days_of_year(12, 25, 1)),
    // "New Year" is the last day of a year and the first of the next; "new years eve" and
    // "new years day" are their day, as "New Year's Eve|Day" (rules below, through the
    // apostrophe).
    rule(&[HOLIDAY_AFTER, Word(&["new"]), Word(&["year", "years"])], days_of_year(12, 31, 2)),
    rule(&[HOLIDAY_AFTER, Word(&["new"]), Word(&["years"]), Word(&["eve"])], days_of_year(12, 31, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["new"]), Word(&["years"]), Word(&["day"])], days_of_year(1, 1, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["halloween"])], days_of_year(10, 31, 1)),
    // Not after "from": "quotes from Independence Day" are from the film.
    rule(&[After(&["at", "over", "around", "during", "since", "after"]), Word(&["independence"]), Word(&["day"])], days_of_year(7, 4, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["valentine", "valentines"])], days_of_year(2, 14, 1)),
    // "over the holidays": the winter holidays, December 20 to January 3.
    rule(&[HOLIDAY_AFTER, Word(&["the"]), Word(&["holidays"])], days_of_year(12, 20, 15)),
    rule(&[HOLIDAY_AFTER, Word(&["the"]), Word(&["christmas", "xmas", "winter"]), Word(&["holidays", "break", "vacation"])], days_of_year(12, 20, 15)),
    // Days and weeks before and after a holiday: "the day after Thanksgiving", "the week
    // before Christmas", "the Sunday after Easter" (weeks after a Thursday or a Sunday run
    // Monday to Sunday).
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["day"]), Word(&["after"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 1, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["day"]), Word(&["before"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, -1, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week"]), Word(&["after"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 4, 7)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week"]), Word(&["before"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, -10, 7)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["day"]), Word(&["after"]), Word(&["christmas", "xmas"])], days_of_year(12, 26, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["day"]), Word(&["before"]), Word(&["christmas", "xmas"])], days_of_year(12, 24, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["day"]), Word(&["before"]), Word(&["christmas", "xmas"]), Word(&["eve"])], days_of_year(12, 23, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week", "days"]), Word(&["after"]), Word(&["christmas", "xmas"])], days_of_year(12, 26, 7)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week", "days"]), Word(&["before"]), Word(&["christmas", "xmas"])], days_of_year(12, 17, 7)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week"]), Word(&["after"]), Word(&["easter"])], feast(Feast::Easter, 1, 7)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week"]), Word(&["before"]), Word(&["easter"])], feast(Feast::Easter, -6, 7)),
    rule(&[Opt(&["on"]), Word(&["the"]), Word(&["sunday"]), Word(&["after"]), Word(&["easter"])], feast(Feast::Easter, 7, 1)),
    rule(&[Opt(&["on", "in", "during"]), Word(&["the"]), Word(&["week"]), Word(&["after"]), Word(&["halloween"])], days_of_year(11, 1, 7)),
    // "the week starting|beginning October 12": the seven days from that day.
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["starting", "beginning", "commencing", "from"]), Opt(&["on"]), Month(MONTHS), Day], With(week_from_date)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["week"]), Word(&["starting", "beginning", "commencing", "from"]), Opt(&["on"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(week_from_date)),
    // Weeks of this and last month: "the first week of this month", "the last week of last
    // month" (the 25th to the end).
    rule(&[Opt(&["in", "during"]), THE, Count(ORDINALS), Word(&["week"]), Word(&["of"]), THIS, Word(&["month"])], With(week_of_month_ago_0)),
    rule(&[Opt(&["in", "during"]), THE, Count(ORDINALS), Word(&["week"]), Word(&["of"]), LAST, Word(&["month"])], With(week_of_month_ago_1)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["last", "final"]), Word(&["week"]), Word(&["of"]), THIS, Word(&["month"])], Fixed(Expr::PartOfMonthAgo { months_ago: 0, from_day: 25, to_day: 32 })),
    rule(&[Opt(&["in", "during"]), THE, Word(&["last", "final"]), Word(&["week"]), Word(&["of"]), LAST, Word(&["month"])], Fixed(Expr::PartOfMonthAgo { months_ago: 1, from_day: 25, to_day: 32 })),
    // "early May", "mid-May", "late May": "may" next to a third is the month.
    rule(&[Opt(&["in", "during"]), Word(&["early"]), Month(ONLY_MAY), EndsBefore(AFTER_DAY), NOT_PRONOUN], With(early_month)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Month(ONLY_MAY), EndsBefore(AFTER_DAY), NOT_PRONOUN], With(late_month)),
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Month(ONLY_MAY), EndsBefore(AFTER_DAY), NOT_PRONOUN], With(mid_month)),
    // "early|late in 2025", "two weekends ago".
    rule(&[Word(&["early"]), Word(&["in"]), Year], With(early_year)),
    rule(&[Word(&["late"]), Word(&["in"]), Year], With(late_year)),
    rule(&[N, Word(&["weekends"]), AGO], With(weekends_ago)),
    // Good Friday after a word that makes it a time, before the names below take it.
    rule(&[HOLIDAY_AFTER, Word(&["good"]), Word(&["friday"])], feast(Feast::Easter, -2, 1)),
    rule(&[ON_HOLIDAY, Word(&["good"]), Word(&["friday"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, -2, 1)),
    // "the summer before last", "the October before last".
    rule(&[THE, SPRING, Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::SeasonBack { season: 0, years: 1 })),
    rule(&[THE, SUMMER, Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::SeasonBack { season: 1, years: 1 })),
    rule(&[THE, AUTUMN, Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::SeasonBack { season: 2, years: 1 })),
    rule(&[THE, WINTER, Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::SeasonBack { season: 3, years: 1 })),
    rule(&[Word(&["the"]), Month(MONTHS_ALONE), Word(&["before"]), LAST, NOT_NAMED], With(month_before_last)),
    // "two summers ago": the summer before last; "a summer ago" is the last one.
    rule(&[N, Season(COUNTED_SEASONS), AGO], With(seasons_ago)),
    // Thanksgiving week: its Monday to Sunday.
    rule(&[Opt(&["in", "during", "over"]), Word(&["the"]), Word(&["week"]), Word(&["of"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, -3, 7)),
    rule(&[Word(&["in", "during", "over", "since", "after", "before"]), Word(&["thanksgiving"]), Word(&["week"])], feast(Feast::Thanksgiving, -3, 7)),
    // "the Friday after Thanksgiving" (Black Friday), "the weekend after Thanksgiving".
    rule(&[Opt(&["on"]), Word(&["the"]), Word(&["friday"]), Word(&["after"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 1, 1)),
    rule(&[Opt(&["on", "over"]), Word(&["the"]), Word(&["weekend"]), Word(&["after"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 2, 2)),
    // "in the middle of the month", "early in the week"; "the early|latter part of October".
    rule(&[Opt(&["in"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), Word(&["the"]), Word(&["month"])], Fixed(Expr::PartOfMonthAgo { months_ago: 0, from_day: 11, to_day: 21 })),
    rule(&[Word(&["early"]), Word(&["in"]), Word(&["the"]), Word(&["week"])], Fixed(Expr::PartOfWeek { weeks_ago: 0, from_day: 0, to_day: 3 })),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["early", "first", "beginning"]), Word(&["part"]), Word(&["of"]), Month(MONTHS)], With(early_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["part"]), Word(&["of"]), Month(MONTHS)], With(mid_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["latter", "later", "last", "final"]), Word(&["part"]), Word(&["of"]), Month(MONTHS)], With(late_month)),
    // "since the 10th", "after the 3rd", "notes from the 15th": the latest such day, opened by
    // the word before ("from" opens nothing alone).
    rule(&[After(&["since", "after", "before", "until", "till", "from", "around"]), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(day_of_month)),
    // "two or three months ago", "2-3 weeks ago", "between 3 and 5 days ago": the units from
    // the first count back to the second.
    rule(&[Opt(&["between"]), CountRange(COUNTS), DAYS, AGO], With(days_back_between)),
    rule(&[Opt(&["between"]), CountRange(COUNTS), WEEKS, AGO], With(weeks_back_between)),
    rule(&[Opt(&["between"]), CountRange(COUNTS), MONTH_WORDS, AGO], With(months_back_between)),
    rule(&[Opt(&["between"]), CountRange(COUNTS), YEARS, AGO], With(years_back_between)),
    // Black Friday and Cyber Monday, the day after Thanksgiving and the Monday after it, after
    // the holiday words (before the names below, which they win a tie against).
    rule(&[HOLIDAY_AFTER, Word(&["black"]), Word(&["friday"])], feast(Feast::Thanksgiving, 1, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["cyber"]), Word(&["monday"])], feast(Feast::Thanksgiving, 4, 1)),
    rule(&[ON_HOLIDAY, Word(&["black"]), Word(&["friday"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Thanksgiving, 1, 1)),
    rule(&[ON_HOLIDAY, Word(&["cyber"]), Word(&["monday"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Thanksgiving, 4, 1)),
    // Names that hold a time word and name no time: "Black Friday deals", "Sunday Times",
    // "USA Today".
    rule(&[Word(&["black", "good", "cyber", "holy", "ash", "taco"]), Weekday(WEEKDAYS)], Fixed(Expr::NoTime)),
    rule(&[Weekday(WEEKDAYS), Word(&["times", "roast", "school", "funday", "blues", "pot"])], Fixed(Expr::NoTime)),
    // A weekday's opening hours or a show's season: "the clinic's Saturday hours",
    // "Wednesday season 2".
    rule(&[Weekday(WEEKDAYS), Word(&["hours", "season", "episode", "episodes", "opening"])], Fixed(Expr::NoTime)),
    // Titles: "Friday Night Lights", "Saturday Night Live", "Sunday Night Football".
    rule(&[Weekday(WEEKDAYS), Word(&["night"]), Word(&["lights", "live", "football", "fever", "dinner"])], Fixed(Expr::NoTime)),
    rule(&[Word(&["usa"]), Word(&["today"])], Fixed(Expr::NoTime)),
    // "the last week of March" without "the".
    rule(&[Opt(&["in", "during"]), Word(&["last", "final"]), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS)], With(last_week_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["last", "final"]), Word(&["week"]), Word(&["of", "in"]), Month(MONTHS), Year], With(last_week_of_month)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Year], With(late_year)),
    rule(&[Word(&["in", "during"]), Word(&["late"]), Month(MONTHS)], With(late_month)),
    rule(&[Opt(&["in", "during"]), Word(&["late"]), Month(MONTHS), Year], With(late_month)),
    // "the previous week", "in the prior month", "previous year", "the preceding quarter".
    // Not before "of": "the previous year of school".
    rule(&[Opt(&["in", "during"]), THE, PREVIOUS, Word(&["week"]), NOT_OF], Fixed(Expr::Week { weeks_ago: 1 })),
    rule(&[Opt(&["in", "during"]), THE, PREVIOUS, Word(&["month"]), NOT_OF], Fixed(Expr::Month { months_ago: 1 })),
    rule(&[Opt(&["in", "during"]), THE, PREVIOUS, Word(&["year"]), NOT_OF], Fixed(Expr::Year { years_ago: 1 })),
    rule(&[Opt(&["in", "during"]), THE, PREVIOUS, Word(&["quarter"]), NOT_OF], Fixed(Expr::QuarterAgo { quarters_ago: 1 })),
    // "the other day": the days 1 to 6 back.
    // Not "the other day of the week", "take the other day off", "the other day shift".
    rule(&[Word(&["the"]), Word(&["other"]), Word(&["day"]), NotBefore(&["of", "off", "too", "shift", "shifts", "trip", "trips", "pass"])], Fixed(Expr::Back { unit: Unit::Day, nearest: 1, farthest: 6 })),
    // Quarters by ordinal: "in the first quarter", "the third quarter of 2025", "the second
    // quarter of last year"; not "the first quarter of the match".
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Entry(ORDINALS), Word(&["quarter"]), NOT_QUARTER_OF], With(ordinal_quarter)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Entry(ORDINALS), Word(&["quarter"]), Word(&["of"]), Word(&["the"]), Word(&["year"]), Year], With(quarter_of_year)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Entry(ORDINALS), Word(&["quarter"]), Word(&["of"]), Year], With(quarter_of_year)),
    // Without "the" before a year: "second quarter of 2025".
    rule(&[Opt(&["in", "during"]), Entry(ORDINALS), Word(&["quarter"]), Word(&["of"]), Year], With(quarter_of_year)),
    // "the quarter before last": two quarters back.
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["quarter"]), Word(&["before"]), LAST, NOT_NAMED], Fixed(Expr::QuarterAgo { quarters_ago: 2 })),
    // "fall 2025": the season of that year ("fall" alone is the verb).
    rule(&[Season(FALL), Year], With(season_of_year)),
    // "beginning|start of this month" without "the".
    rule(&[Opt(&["in", "at", "during", "by"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["this", "the"]), Word(&["month"])], Fixed(Expr::PartOfMonthAgo { months_ago: 0, from_day: 1, to_day: 11 })),
    rule(&[Opt(&["in", "at", "during", "by"]), Opt(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["this"]), Word(&["month"])], Fixed(Expr::PartOfMonthAgo { months_ago: 0, from_day: 1, to_day: 11 })),
    // "between May and July": May opens the range.
    rule(&[After(&["between"]), Month(ONLY_MAY), EndsBefore(&["and"])], With(named_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Entry(ORDINALS), Word(&["quarter"]), Word(&["of"]), LAST, Word(&["year"])], With(quarter_last_year)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Entry(ORDINALS), Word(&["quarter"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OTHER], With(quarter_this_year)),
    rule(&[Opt(&["in", "during"]), Entry(QUARTERS), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OTHER], With(quarter_this_year)),
    // "mid-2025": May to August.
    rule(&[Opt(&["in", "during"]), Word(&["mid"]), Year], With(mid_year)),
    // "N days|weeks|months|years back": no hours ("set the clocks an hour back") nor other
    // things ("two steps back").
    rule(&[BACK_NOT_AFTER, Few(FEW), DAYS, BACK, BACK_NOT_BEFORE], With(days_ago)),
    rule(&[BACK_NOT_AFTER, Few(FEW), WEEKS, BACK, BACK_NOT_BEFORE], With(weeks_ago)),
    rule(&[BACK_NOT_AFTER, Few(FEW), MONTH_WORDS, BACK, BACK_NOT_BEFORE], With(months_ago)),
    rule(&[BACK_NOT_AFTER, Few(FEW), YEARS, BACK, BACK_NOT_BEFORE], With(years_ago)),
    rule(&[BACK_NOT_AFTER, N, DAYS, BACK, BACK_NOT_BEFORE], With(days_ago)),
    rule(&[BACK_NOT_AFTER, N, WEEKS, BACK, BACK_NOT_BEFORE], With(weeks_ago)),
    rule(&[BACK_NOT_AFTER, N, MONTH_WORDS, BACK, BACK_NOT_BEFORE], With(months_ago)),
    rule(&[BACK_NOT_AFTER, N, YEARS, BACK, BACK_NOT_BEFORE], With(years_ago)),
    // Thirds of a week: "early last week" (Monday to Wednesday), "late last week" (Thursday to
    // Sunday), "the beginning|end of last week", "early this week", "the start of the week".
    rule(&[Word(&["early"]), LAST, Word(&["week"]), NOT_OWNER], week_part(1, 0, 3)),
    rule(&[Word(&["late"]), LAST, Word(&["week"]), NOT_OWNER], week_part(1, 3, 7)),
    rule(&[Word(&["early"]), THIS, Word(&["week"]), NOT_OWNER], week_part(0, 0, 3)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), LAST, Word(&["week"]), NOT_OWNER], week_part(1, 0, 3)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), LAST, Word(&["week"]), NOT_OWNER], week_part(1, 3, 7)),
    rule(&[Opt(&["in", "at", "during"]), Word(&["the"]), Word(&["beginning", "start"]), Word(&["of"]), Word(&["the", "this"]), Word(&["week"]), NOT_OTHER], week_part(0, 0, 3)),
    // "the past|last 48 hours", "the past fortnight".
    // Not before "of", "before", "after" or "'s": "the last 2 hours of the movie".
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), N, Word(&["hours"]), NOT_OTHER], With(past_hours)),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Opt(&["one", "1"]), Word(&["hour"]), NOT_OTHER], Fixed(Expr::TrailingHours { hours: 1 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["fortnight"]), NOT_OTHER], Fixed(Expr::Trailing { days: 14 })),
    // "(around|about) this time last year": the two weeks either side of the day a year back.
    // Not "this time, last year's winner": no comma, no owner.
    rule(&[Opt(&["around", "about", "at"]), Word(&["this"]), Word(&["time"]), Tight(&["last"]), Word(&["year"]), NOT_OWNER], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 14 })),
    rule(&[Opt(&["around", "about", "at"]), Opt(&["the"]), Word(&["same"]), Word(&["time"]), Tight(&["last"]), Word(&["year"]), NOT_OWNER], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 14 })),
    // "a year ago today": that day; "a week ago today" the day seven back.
    rule(&[N, YEARS, AGO, Word(&["today"])], With(years_ago_today)),
    rule(&[Word(&["a", "one"]), Word(&["week"]), AGO, Word(&["today"])], day(7)),
    rule(&[N, MONTH_WORDS, AGO, Word(&["today"])], With(months_ago_today)),
    // "(around) this time last month": the three days either side of the day a month back.
    rule(&[Opt(&["around", "about", "at"]), Word(&["this"]), Word(&["time"]), Tight(&["last"]), Word(&["month"]), NOT_OWNER], Fixed(Expr::AroundMonthsAgo { months_ago: 1, days: 3 })),
    rule(&[Opt(&["around", "about", "at"]), Opt(&["the"]), Word(&["same"]), Word(&["time"]), Tight(&["last"]), Word(&["month"]), NOT_OWNER], Fixed(Expr::AroundMonthsAgo { months_ago: 1, days: 3 })),
    // "the first Monday of this|the month", "the last Friday of last month".
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(NTH), Weekday(WEEKDAYS), Word(&["of", "in"]), Word(&["this", "the"]), Word(&["month"]), NOT_OWNER], With(nth_weekday_this_month)),
    rule(&[Opt(&["on"]), Word(&["the"]), Entry(NTH), Weekday(WEEKDAYS), Word(&["of", "in"]), Opt(&["the"]), Word(&["last", "previous", "prior"]), Word(&["month"]), NOT_OWNER], With(nth_weekday_last_month)),
    // "the 2nd of last month", "on the 15th of this month", "last month on the 15th".
    rule(&[Opt(&["on"]), Word(&["the"]), Ordinal, Word(&["of"]), Opt(&["the"]), Word(&["last", "previous", "prior"]), Word(&["month"]), NOT_OWNER], With(day_of_last_month)),
    rule(&[Opt(&["on"]), Word(&["the"]), Ordinal, Word(&["of"]), Word(&["this", "the"]), Word(&["month"]), NOT_OWNER], With(day_of_this_month)),
    rule(&[LAST, Word(&["month"]), Word(&["on"]), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(day_of_last_month)),
    rule(&[THIS, Word(&["month"]), Word(&["on"]), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(day_of_this_month)),
    // "more than a month ago", "over two weeks ago": everything before; "less than a week ago",
    // "under a month ago": up to now.
    rule(&[Word(&["more", "over"]), Opt(&["than"]), N, DAYS, AGO], With(earlier_than_days)),
    rule(&[Word(&["more", "over"]), Opt(&["than"]), N, WEEKS, AGO], With(earlier_than_weeks)),
    rule(&[Word(&["more", "over"]), Opt(&["than"]), N, MONTH_WORDS, AGO], With(earlier_than_months)),
    rule(&[Word(&["more", "over"]), Opt(&["than"]), N, YEARS, AGO], With(earlier_than_years)),
    rule(&[Word(&["less", "under", "within"]), Opt(&["than"]), N, DAYS, AGO], With(past_days)),
    rule(&[Word(&["less", "under", "within"]), Opt(&["than"]), N, WEEKS, AGO], With(past_weeks)),
    rule(&[Word(&["less", "under", "within"]), Opt(&["than"]), N, MONTH_WORDS, AGO], With(past_months)),
    rule(&[Word(&["less", "under", "within"]), Opt(&["than"]), N, YEARS, AGO], With(past_years)),
    // "later today", "later this week": still to come.
    rule(&[Word(&["later"]), Word(&["today", "tonight"])], Fixed(Expr::Future)),
    rule(&[Word(&["later"]), THIS, Word(&["morning", "afternoon", "evening", "week", "month", "year"])], Fixed(Expr::Future)),
    // A month named as a person: "what did April say", "June thinks" (not "in April said").
    rule(&[Month(MONTHS_ALONE), Word(NAME_VERBS)], Fixed(Expr::NoTime)),
    // Names that hold a time word: "Wednesday Addams", "the Today programme", "Monday.com",
    // "October Sky", "the Women's March".
    rule(&[Word(&["wednesday"]), Word(&["addams"])], Fixed(Expr::NoTime)),
    rule(&[Word(&["today"]), Word(&["programme", "program", "show"])], Fixed(Expr::NoTime)),
    rule(&[Opt(&["on"]), Word(&["monday"]), Word(&["com"])], Fixed(Expr::NoTime)),
    rule(&[Word(&["october"]), Word(&["sky"])], Fixed(Expr::NoTime)),
    rule(&[Word(&["women", "womens"]), Opt(&["s"]), Word(&["march"])], Fixed(Expr::NoTime)),
    // "yesterday or the day before", "last week or the week before": both.
    rule(&[Word(&["yesterday"]), Word(&["or"]), Word(&["the"]), Word(&["day"]), Word(&["before"])], back(Unit::Day, 1, 2)),
    rule(&[Word(&["today"]), Word(&["or"]), Word(&["yesterday"])], back(Unit::Day, 0, 1)),
    rule(&[Word(&["yesterday"]), Word(&["or"]), Word(&["today"])], back(Unit::Day, 0, 1)),
    rule(&[LAST, Word(&["week"]), Word(&["or"]), Word(&["the"]), Word(&["week"]), Word(&["before"])], back(Unit::Week, 1, 2)),
    rule(&[LAST, Word(&["month"]), Word(&["or"]), Word(&["the"]), Word(&["month"]), Word(&["before"])], back(Unit::Month, 1, 2)),
    rule(&[LAST, Word(&["year"]), Word(&["or"]), Word(&["the"]), Word(&["year"]), Word(&["before"])], back(Unit::Year, 1, 2)),
    // "a day or two ago", "a month or two ago".
    rule(&[Word(&["a"]), Word(&["day"]), Word(&["or"]), Word(&["two", "2"]), AGO], back(Unit::Day, 1, 2)),
    rule(&[Word(&["a"]), Word(&["week"]), Word(&["or"]), Word(&["two", "2"]), AGO], back(Unit::Week, 1, 2)),
    rule(&[Word(&["a"]), Word(&["month"]), Word(&["or"]), Word(&["two", "2"]), AGO], back(Unit::Month, 1, 2)),
    rule(&[Word(&["a"]), Word(&["year"]), Word(&["or"]), Word(&["two", "2"]), AGO], back(Unit::Year, 1, 2)),
    // "in the last month or two", "over the past week or two": the longer.
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["day"]), Word(&["or"]), Word(&["two", "2"]), NOT_OTHER], Fixed(Expr::Trailing { days: 2 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["week"]), Word(&["or"]), Word(&["two", "2"]), NOT_OTHER], Fixed(Expr::Trailing { days: 14 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["month"]), Word(&["or"]), Word(&["two", "2"]), NOT_OTHER], Fixed(Expr::TrailingMonths { months: 2 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["year"]), Word(&["or"]), Word(&["two", "2"]), NOT_OTHER], Fixed(Expr::TrailingMonths { months: 24 })),
    // "a year and a half ago" (the month 18 back), "a month and a half ago", "two and a half
    // weeks ago" (the days around that many back).
    rule(&[N, Word(&["and"]), Word(&["a"]), Word(&["half"]), YEARS, AGO], With(years_and_a_half_ago)),
    rule(&[N, Word(&["and"]), Word(&["a"]), Word(&["half"]), MONTH_WORDS, AGO], With(months_and_a_half_ago)),
    rule(&[N, Word(&["and"]), Word(&["a"]), Word(&["half"]), WEEKS, AGO], With(weeks_and_a_half_ago)),
    rule(&[N, YEARS, Word(&["and"]), Word(&["a"]), Word(&["half"]), AGO], With(years_and_a_half_ago)),
    rule(&[N, MONTH_WORDS, Word(&["and"]), Word(&["a"]), Word(&["half"]), AGO], With(months_and_a_half_ago)),
    rule(&[N, WEEKS, Word(&["and"]), Word(&["a"]), Word(&["half"]), AGO], With(weeks_and_a_half_ago)),
    // "in the past year and a half", "the last month and a half", "the past week and a half".
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["year"]), Word(&["and"]), Word(&["a"]), Word(&["half"]), NOT_OTHER], Fixed(Expr::TrailingMonths { months: 18 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["month"]), Word(&["and"]), Word(&["a"]), Word(&["half"]), NOT_OTHER], Fixed(Expr::Trailing { days: 46 })),
    rule(&[Opt(&["in", "within", "over", "during"]), Opt(&["the"]), Word(&["past", "last"]), Word(&["week"]), Word(&["and"]), Word(&["a"]), Word(&["half"]), NOT_OTHER], Fixed(Expr::Trailing { days: 11 })),
    // "in recent weeks|months|days": as the Hebrew "in the last weeks", three weeks or months,
    // or seven days, up to the reference.
    rule(&[Word(&["in", "over", "during"]), Word(&["recent"]), Word(&["days"])], Fixed(Expr::Trailing { days: 7 })),
    rule(&[Word(&["in", "over", "during"]), Word(&["recent"]), Word(&["weeks"])], Fixed(Expr::Trailing { days: 21 })),
    rule(&[Word(&["in", "over", "during"]), Word(&["recent"]), Word(&["months"])], Fixed(Expr::TrailingMonths { months: 3 })),
    // "earlier in the year|month|week": this one.
    rule(&[Word(&["earlier"]), Word(&["in"]), Word(&["the"]), Word(&["year"])], Fixed(Expr::Year { years_ago: 0 })),
    rule(&[Word(&["earlier"]), Word(&["in"]), Word(&["the"]), Word(&["month"]), NOT_OF], Fixed(Expr::Month { months_ago: 0 })),
    rule(&[Word(&["earlier"]), Word(&["in"]), Word(&["the"]), Word(&["week"]), NOT_OF], Fixed(Expr::Week { weeks_ago: 0 })),
    rule(&[Word(&["earlier"]), Word(&["in"]), Word(&["the"]), Word(&["year"]), Year], With(named_year)),
    rule(&[Word(&["earlier"]), Word(&["in"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Month(MONTHS)], With(named_month)),
    // "in the year 2025", "throughout 2025".
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["year"]), Year], With(named_year)),
    rule(&[Word(&["throughout"]), Year], With(named_year)),
    rule(&[Word(&["all"]), Word(&["of"]), Year], With(named_year)),
    // Short units and weekdays: "last wk|mo|yr", "on Thu", "last Fri" (after "on" or "last"
    // only: "c'mon" is no Monday).
    rule(&[LAST, Word(&["wk"]), NOT_OF], Fixed(Expr::Week { weeks_ago: 1 })),
    rule(&[LAST, Word(&["mo"]), NOT_OF], Fixed(Expr::Month { months_ago: 1 })),
    rule(&[LAST, Word(&["yr"]), NOT_OF], Fixed(Expr::Year { years_ago: 1 })),
    rule(&[Word(&["on", "last"]), Weekday(SHORT_WEEKDAYS)], With(weekday)),
    // Before a part of the day, any short name is the weekday ("Sat morning", "Wed night"),
    // the day whole, as "Saturday morning" is read.
    rule(&[Opt(&["on", "last"]), Weekday(ALL_SHORT_WEEKDAYS), Word(&["morning", "afternoon", "evening", "night"])], With(weekday)),
    // Travel "for" a holiday is at it ("where did we go for Thanksgiving?", "home for
    // Christmas"); "recipes for Thanksgiving" is about it.
    rule(&[TRAVELLED_FOR, Word(&["for"]), Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 0, 4)),
    rule(&[TRAVELLED_FOR, Word(&["for"]), Word(&["christmas", "xmas"])], days_of_year(12, 24, 3)),
    rule(&[TRAVELLED_FOR, Word(&["for"]), Word(&["easter"])], feast(Feast::Easter, -2, 4)),
    // "last Christmas", "last Easter": the latest one, not "the last Christmas movie".
    // Not the song ("Last Christmas by Wham").
    rule(&[NOT_OWNED, LAST, Word(&["christmas", "xmas"]), NotBefore(&["eve", "day", "by", "lyrics", "song"])], days_of_year(12, 24, 3)),
    rule(&[NOT_OWNED, LAST, Word(&["halloween"])], days_of_year(10, 31, 1)),
    rule(&[NOT_OWNED, LAST, Word(&["easter"])], feast(Feast::Easter, -2, 4)),
    rule(&[NOT_OWNED, LAST, Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 0, 4)),
    // US holidays on a Monday, and the weekend before it.
    rule(&[HOLIDAY_AFTER, Word(&["memorial"]), Word(&["day"])], feast(Feast::MemorialDay, 0, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["memorial"]), Word(&["day"]), Word(&["weekend"])], feast(Feast::MemorialDay, -2, 3)),
    // "labour day" is May 1 in much of the world: only the US spelling.
    rule(&[HOLIDAY_AFTER, Word(&["labor"]), Word(&["day"])], feast(Feast::LaborDay, 0, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["labor"]), Word(&["day"]), Word(&["weekend"])], feast(Feast::LaborDay, -2, 3)),
    rule(&[NOT_OWNED, LAST, Word(&["memorial"]), Word(&["day"])], feast(Feast::MemorialDay, 0, 1)),
    rule(&[NOT_OWNED, LAST, Word(&["labor"]), Word(&["day"])], feast(Feast::LaborDay, 0, 1)),
    rule(&[NOT_OWNED, LAST, Word(&["independence"]), Word(&["day"])], days_of_year(7, 4, 1)),
    rule(&[NOT_OWNED, LAST, Word(&["fourth"]), Word(&["of"]), Word(&["july"])], days_of_year(7, 4, 1)),
    // Independence Day: "the Fourth of July" (a name; "the fourth of July" is no July).
    rule(&[Opt(&["on", "at", "over", "around", "during", "since", "after"]), Word(&["the"]), Word(&["fourth"]), Word(&["of"]), Word(&["july"])], days_of_year(7, 4, 1)),
    // Not after "from": "quotes from Independence Day" (the film).
    rule(&[After(&["at", "over", "around", "during", "since", "after", "between"]), Word(&["independence"]), Word(&["day"])], days_of_year(7, 4, 1)),
    // Halves of this or last month: "the first half of the month", "the second half of last
    // month".
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), Word(&["half"]), Word(&["of"]), Word(&["the", "this"]), Word(&["month"]), NOT_OTHER], month_part(0, 1, 16)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["second"]), Word(&["half"]), Word(&["of"]), Word(&["the", "this"]), Word(&["month"]), NOT_OTHER], month_part(0, 16, 32)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), Word(&["half"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 1, 16)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["second"]), Word(&["half"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], month_part(1, 16, 32)),
    // "New Year's Eve", "New Year's Day" through their apostrophe.
    rule(&[HOLIDAY_AFTER, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["eve"])], days_of_year(12, 31, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["day"])], days_of_year(1, 1, 1)),
    // "between Christmas and New Year", "from Christmas to New Year's": December 24 to
    // January 1.
    rule(&[After(&["between", "from"]), Word(&["christmas", "xmas"]), Word(&["and", "to", "till", "until", "through"]), Opt(&["the"]), Word(&["new"]), Word(&["year", "years"])], days_of_year(12, 24, 9)),
    rule(&[After(&["between", "from"]), Word(&["christmas", "xmas"]), Word(&["and", "to", "till", "until", "through"]), Word(&["new"]), Word(&["years"]), Word(&["eve"])], days_of_year(12, 24, 8)),
    rule(&[After(&["between", "from"]), Word(&["christmas", "xmas"]), Word(&["and", "to", "till", "until", "through"]), Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["eve"])], days_of_year(12, 24, 8)),
    // A year right after a holiday ("at Christmas 2024", "over Easter 2025"), read with it
    // (`resolve_time`).
    rule(&[After(&["christmas", "xmas", "easter", "thanksgiving", "halloween", "eve", "day", "july"]), Year, EndsBefore(AFTER_DAY)], With(named_year)),
    // Holidays that move: Easter (Good Friday to Easter Monday), Thanksgiving (Thursday to
    // Sunday), after the same words as the fixed ones.
    rule(&[HOLIDAY_AFTER, Word(&["easter"]), NotBefore(&["island", "road"])], feast(Feast::Easter, -2, 4)),
    rule(&[HOLIDAY_AFTER, Word(&["easter"]), Word(&["sunday"])], feast(Feast::Easter, 0, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["easter"]), Word(&["monday"])], feast(Feast::Easter, 1, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["thanksgiving"])], feast(Feast::Thanksgiving, 0, 4)),
    // Jewish holidays named in English, as the Hebrew ones are read (the days kept in Israel).
    rule(&[HOLIDAY_AFTER, Word(&["hanukkah", "chanukah", "hanukah"])], feast(Feast::Hanukkah, 0, 8)),
    rule(&[ON_HOLIDAY, Word(&["hanukkah", "chanukah", "hanukah"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Hanukkah, 0, 8)),
    rule(&[HOLIDAY_AFTER, Word(&["passover", "pesach"])], feast(Feast::Passover, 0, 7)),
    rule(&[ON_HOLIDAY, Word(&["passover", "pesach"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Passover, 0, 7)),
    rule(&[HOLIDAY_AFTER, Word(&["rosh"]), Word(&["hashanah", "hashana"])], feast(Feast::RoshHashanah, 0, 2)),
    rule(&[ON_HOLIDAY, Word(&["rosh"]), Word(&["hashanah", "hashana"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::RoshHashanah, 0, 2)),
    rule(&[HOLIDAY_AFTER, Word(&["yom"]), Word(&["kippur"])], feast(Feast::RoshHashanah, 9, 1)),
    rule(&[ON_HOLIDAY, Word(&["yom"]), Word(&["kippur"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::RoshHashanah, 9, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["sukkot"])], feast(Feast::RoshHashanah, 14, 7)),
    rule(&[ON_HOLIDAY, Word(&["sukkot"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::RoshHashanah, 14, 7)),
    rule(&[HOLIDAY_AFTER, Word(&["purim"])], feast(Feast::Passover, -30, 1)),
    rule(&[ON_HOLIDAY, Word(&["purim"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Passover, -30, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["shavuot"])], feast(Feast::Passover, 50, 1)),
    rule(&[ON_HOLIDAY, Word(&["shavuot"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Passover, 50, 1)),
    // Shrove Tuesday and Mardi Gras, 47 days before Easter.
    rule(&[HOLIDAY_AFTER, Word(&["mardi"]), Word(&["gras"])], feast(Feast::Easter, -47, 1)),
    rule(&[ON_HOLIDAY, Word(&["mardi"]), Word(&["gras"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, -47, 1)),
    rule(&[ON_HOLIDAY, Word(&["shrove", "pancake"]), Word(&["tuesday", "day"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, -47, 1)),
    // "in the summertime", as "in the summer".
    rule(&[IN_SEASON, THE, Season(SEASON_TIMES)], With(season_begun)),
    rule(&[HOLIDAY_AFTER, Word(&["thanksgiving"]), Word(&["day"])], feast(Feast::Thanksgiving, 0, 1)),
    // "the last few days of March", "the last days of February 2025": the month's last week,
    // as "the last week of March" (not the few days up to now).
    // Not "the last day of March", one day.
    rule(&[Opt(&["in", "during"]), THE, LAST, Opt(&["few", "couple"]), Opt(&["of"]), Word(&["days"]), Word(&["of"]), Month(MONTHS)], With(last_week_of_month)),
    rule(&[Opt(&["in", "during"]), THE, LAST, Opt(&["few", "couple"]), Opt(&["of"]), Word(&["days"]), Word(&["of"]), Month(MONTHS), Year], With(last_week_of_month)),
    // "early in March", "late in October": the month's first or last ten days;
    // "early in the year", "late in the year": its first or last four months.
    rule(&[Word(&["early"]), Word(&["in"]), Month(MONTHS)], With(early_month)),
    rule(&[Word(&["early"]), Word(&["in"]), Month(MONTHS), Year], With(early_month)),
    rule(&[Word(&["late"]), Word(&["in"]), Month(MONTHS)], With(late_month)),
    rule(&[Word(&["late"]), Word(&["in"]), Month(MONTHS), Year], With(late_month)),
    rule(&[Word(&["early"]), Word(&["in"]), Word(&["the"]), Word(&["year"]), NOT_OTHER], year_part(0, 0)),
    rule(&[Word(&["late"]), Word(&["in"]), Word(&["the"]), Word(&["year"]), NOT_OTHER], year_part(0, 2)),
    // "the previous summer", "this past winter", "over the past spring": the latest one over.
    rule(&[THE, PREVIOUS, SPRING, NOT_OF], season(0, true)),
    rule(&[THE, PREVIOUS, SUMMER, NOT_OF], season(1, true)),
    rule(&[THE, PREVIOUS, AUTUMN, NOT_OF], season(2, true)),
    rule(&[THE, PREVIOUS, WINTER, NOT_OF], season(3, true)),
    rule(&[Opt(&["over", "during", "in"]), Word(&["this", "the"]), Word(&["past"]), SPRING, NOT_OF], season(0, true)),
    rule(&[Opt(&["over", "during", "in"]), Word(&["this", "the"]), Word(&["past"]), SUMMER, NOT_OF], season(1, true)),
    rule(&[Opt(&["over", "during", "in"]), Word(&["this", "the"]), Word(&["past"]), AUTUMN, NOT_OF], season(2, true)),
    rule(&[Opt(&["over", "during", "in"]), Word(&["this", "the"]), Word(&["past"]), WINTER, NOT_OF], season(3, true)),
    // "the first 10 days of March", "the last two weeks of October 2025": days counted from
    // the month's start or back from its end (not the days up to now).
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), N, DAYS, Word(&["of"]), Month(MONTHS)], With(first_days_of_month)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), N, DAYS, Word(&["of"]), Month(MONTHS), Year], With(first_days_of_month)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), N, WEEKS, Word(&["of"]), Month(MONTHS)], With(first_weeks_of_month)),
    rule(&[Opt(&["in", "during"]), THE, Word(&["first"]), N, WEEKS, Word(&["of"]), Month(MONTHS), Year], With(first_weeks_of_month)),
    rule(&[Opt(&["in", "during"]), THE, LAST, N, DAYS, Word(&["of"]), Month(MONTHS)], With(last_days_of_month)),
    rule(&[Opt(&["in", "during"]), THE, LAST, N, DAYS, Word(&["of"]), Month(MONTHS), Year], With(last_days_of_month)),
    rule(&[Opt(&["in", "during"]), THE, LAST, N, WEEKS, Word(&["of"]), Month(MONTHS)], With(last_weeks_of_month)),
    rule(&[Opt(&["in", "during"]), THE, LAST, N, WEEKS, Word(&["of"]), Month(MONTHS), Year], With(last_weeks_of_month)),
    // Holidays with fixed days: "on Boxing Day", "on Valentine's Day", "on Halloween".
    rule(&[HOLIDAY_AFTER, Word(&["boxing"]), Word(&["day"])], days_of_year(12, 26, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["valentine"]), Word(&["s"]), Word(&["day"])], days_of_year(2, 14, 1)),
    rule(&[HOLIDAY_AFTER, Word(&["valentines"]), Word(&["day"])], days_of_year(2, 14, 1)),
    rule(&[ON_HOLIDAY, Word(&["halloween"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(10, 31, 1)),
    rule(&[ON_HOLIDAY, Word(&["independence"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(7, 4, 1)),
    rule(&[ON_HOLIDAY, Word(&["christmas", "xmas"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 24, 3)),
    rule(&[ON_HOLIDAY, Word(&["easter"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, -2, 4)),
    rule(&[ON_HOLIDAY, Word(&["thanksgiving"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Thanksgiving, 0, 4)),
    // The names ending in "Day" or "Eve" after "on", where the phrase ends ("on Boxing Day",
    // not "a post on Boxing Day deals").
    rule(&[ON_HOLIDAY, Word(&["christmas", "xmas"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 24, 1)),
    rule(&[ON_HOLIDAY, Word(&["christmas", "xmas"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 25, 1)),
    rule(&[ON_HOLIDAY, Word(&["new"]), Word(&["years"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 31, 1)),
    rule(&[ON_HOLIDAY, Word(&["new"]), Word(&["years"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(1, 1, 1)),
    rule(&[ON_HOLIDAY, Word(&["memorial"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::MemorialDay, 0, 1)),
    rule(&[ON_HOLIDAY, Word(&["labor"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::LaborDay, 0, 1)),
    rule(&[ON_HOLIDAY, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 31, 1)),
    rule(&[ON_HOLIDAY, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(1, 1, 1)),
    rule(&[ON_HOLIDAY, Word(&["easter"]), Word(&["sunday"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, 0, 1)),
    rule(&[ON_HOLIDAY, Word(&["easter"]), Word(&["monday"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Easter, 1, 1)),
    rule(&[ON_HOLIDAY, Word(&["thanksgiving"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], feast(Feast::Thanksgiving, 0, 1)),
    rule(&[ON_HOLIDAY, Word(&["boxing"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 26, 1)),
    rule(&[ON_HOLIDAY, Word(&["valentine"]), Word(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(2, 14, 1)),
    rule(&[ON_HOLIDAY, Word(&["valentines"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(2, 14, 1)),
    // A day's own name without "on", where the phrase ends: "did I go out New Year's Eve?",
    // "what did I do Christmas Day?" (not "New Year's Eve party ideas").
    rule(&[NOT_OWNED, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 31, 1)),
    rule(&[NOT_OWNED, Word(&["new"]), Word(&["years"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 31, 1)),
    rule(&[NOT_OWNED, Word(&["new"]), Word(&["year"]), Word(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(1, 1, 1)),
    rule(&[NOT_OWNED, Word(&["new"]), Word(&["years"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(1, 1, 1)),
    rule(&[NOT_OWNED, Word(&["christmas", "xmas"]), Word(&["eve"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 24, 1)),
    rule(&[NOT_OWNED, Word(&["christmas", "xmas"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(12, 25, 1)),
    // The Easter weekend: Good Friday to Easter Monday, as "over Easter".
    rule(&[Opt(&["over", "during", "on", "at"]), Opt(&["the"]), Word(&["easter"]), Word(&["weekend"])], feast(Feast::Easter, -2, 4)),
    // Days named by their place in a month, after "on" or the holiday words: Mother's Day
    // (the second Sunday of May, as in the United States), Father's Day (the third Sunday of
    // June), Presidents' Day and MLK Day (the third Monday of February and of January);
    // St Patrick's Day, Juneteenth and Bonfire Night have a date.
    rule(&[HOLIDAY_WORDS, Word(&["mother", "mothers"]), Opt(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], nth_sunday(2, 5)),
    rule(&[HOLIDAY_WORDS, Word(&["father", "fathers"]), Opt(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], nth_sunday(3, 6)),
    rule(&[HOLIDAY_WORDS, Word(&["presidents", "president"]), Opt(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], nth_monday(3, 2)),
    rule(&[HOLIDAY_WORDS, Word(&["mlk"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], nth_monday(3, 1)),
    rule(&[HOLIDAY_WORDS, Word(&["st", "saint"]), Word(&["patrick", "patricks", "paddy", "paddys"]), Opt(&["s"]), Word(&["day"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(3, 17, 1)),
    rule(&[HOLIDAY_WORDS, Word(&["juneteenth"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(6, 19, 1)),
    rule(&[HOLIDAY_WORDS, Word(&["bonfire", "guy"]), Opt(&["fawkes"]), Word(&["night"]), EndsBefore(ON_HOLIDAY_ENDS)], days_of_year(11, 5, 1)),
    // "since the weekend", "the previous weekend": the latest one over.
    rule(&[After(&["since"]), Word(&["the"]), Word(&["weekend"])], Fixed(Expr::EndedWeekend)),
    rule(&[Opt(&["on", "over", "during"]), Word(&["the"]), PREVIOUS, Word(&["weekend"]), NOT_OF], Fixed(Expr::EndedWeekend)),
    // "the other week": the weeks 1 to 3 back, as "the other day" is days.
    rule(&[Word(&["the"]), Word(&["other"]), Word(&["week"]), NotBefore(&["of", "off", "too", "shift"])], Fixed(Expr::Back { unit: Unit::Week, nearest: 1, farthest: 3 })),
    // "in the month of May", "late in the month of July".
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Month(MONTHS)], With(named_month)),
    rule(&[Word(&["early"]), Word(&["in"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Month(MONTHS)], With(early_month)),
    rule(&[Word(&["late"]), Word(&["in"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Month(MONTHS)], With(late_month)),
    // "in the middle of last week": Tuesday to Thursday.
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["middle"]), Word(&["of"]), LAST, Word(&["week"]), NOT_OWNER], week_part(1, 1, 4)),
    // "start|beginning|end of last month" without "the".
    rule(&[Word(&["start", "beginning"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], Fixed(Expr::PartOfMonthAgo { months_ago: 1, from_day: 1, to_day: 11 })),
    rule(&[Word(&["end"]), Word(&["of"]), LAST, Word(&["month"]), NOT_OWNER], Fixed(Expr::PartOfMonthAgo { months_ago: 1, from_day: 21, to_day: 32 })),
    // "just over a month ago", "slightly more than a week ago": about that long, as without.
    rule(&[Word(&["just", "slightly"]), Word(&["over", "more"]), Opt(&["than"]), N, DAYS, AGO], With(days_ago)),
    rule(&[Word(&["just", "slightly"]), Word(&["over", "more"]), Opt(&["than"]), N, WEEKS, AGO], With(weeks_ago)),
    rule(&[Word(&["just", "slightly"]), Word(&["over", "more"]), Opt(&["than"]), N, MONTH_WORDS, AGO], With(months_ago)),
    rule(&[Word(&["just", "slightly"]), Word(&["over", "more"]), Opt(&["than"]), N, YEARS, AGO], With(years_ago)),
    // "from the 5th to the 12th", "between the 5th and the 12th": the first day as the latest
    // such day; the range of days reads the rest.
    rule(&[After(&["from", "between"]), Word(&["the"]), Ordinal, EndsBefore(&["to", "and", "through", "thru", "until", "till"])], With(day_of_month)),
    // A list's or a range's later season without a word before it: "last summer and fall",
    // "in the spring or summer"; alone it names none.
    rule(&[LATER_ITEM, Season(SEASONS), NOT_OF], With(season_begun)),
    rule(&[LATER_ITEM, Season(FALL), NOT_OF], With(season_begun)),
    rule(&[LATER_ITEM, Season(SEASONS), Opt(&["of"]), Year], With(season_of_year)),
    rule(&[LATER_ITEM, Season(FALL), Opt(&["of"]), Year], With(season_of_year)),
    rule(&[LATER_ITEM, Season(SEASONS), Opt(&["of"]), LAST, Word(&["year"])], With(season_last_year)),
    rule(&[LATER_ITEM, Season(FALL), Opt(&["of"]), LAST, Word(&["year"])], With(season_last_year)),
    // "may" as a list's last month where it cannot be the verb: "in March and May", "in April
    // or May?"; not "in March and may I ask".
    rule(&[AfterOrEnd { after: &[], ends: &["and", "or"] }, Word(&["may"]), EndsBefore(&["about", "regarding", "concerning", "for", "last", "this"])], Fixed(Expr::NamedMonth { month: 5, year: None })),
    rule(&[AfterOrEnd { after: &[], ends: &["and", "or"] }, Month(ONLY_MAY), Opt(&["of"]), LAST, Word(&["year"])], With(month_last_year)),
    // A month and a day with a slash after "on" or a word that opens a range ("on 11/3",
    // "since 3/15"), or with a year ("11/3/2026"): never a bare "24/7" or "1/2".
    rule(&[Word(&["on"]), Slashed, EndsBefore(SLASHED_ENDS)], With(date)),
    rule(&[OPENERS, Slashed, EndsBefore(SLASHED_ENDS)], With(date)),
    rule(&[LATER_ITEM, Slashed, EndsBefore(SLASHED_ENDS)], With(date)),
    rule(&[Opt(&["on"]), Slashed], With(slashed_with_year)),
    // A date written with dots, the day first, with its year ("on 14.11.2025").
    rule(&[NotAfter(&["version", "ver", "v", "release", "build"]), Opt(&["on", "since", "from"]), Dotted], With(slashed_with_year)),
    // ISO week numbers: "week 45", "calendar week 12", "CW 10", "KW45", "2026-W45", "in
    // week 3 of this year", "week 45 of 2025". "Week 2 of the course" counts the course's
    // weeks: a number after "week" is no week of the year before "of", and without "in",
    // "during" or "over" only where the phrase ends ("my week 2 workout" names none).
    rule(&[Word(&["in", "during", "over"]), Opt(&["calendar"]), WEEK_NUMBER_WORDS, Count(&[]), NotBefore(&["of"])], With(iso_week)),
    rule(&[Opt(&["calendar"]), Word(&["cw", "kw"]), Count(&[]), NotBefore(&["of"])], With(iso_week)),
    rule(&[Word(&["calendar"]), Word(&["week"]), Count(&[]), NotBefore(&["of"])], With(iso_week)),
    rule(&[Word(&["week", "wk"]), Count(&[]), EndsBefore(&[])], With(iso_week)),
    rule(&[WEEK_OPENERS, Opt(&["calendar"]), WEEK_NUMBER_WORDS, Count(&[]), Opt(&["of", "in"]), Year], With(iso_week)),
    rule(&[WEEK_OPENERS, Opt(&["calendar"]), WEEK_NUMBER_WORDS, Count(&[]), Opt(&["of"]), LAST, Word(&["year"])], With(iso_week_last_year)),
    rule(&[WEEK_OPENERS, Opt(&["calendar"]), WEEK_NUMBER_WORDS, Count(&[]), Opt(&["of"]), Word(&["this"]), Word(&["year"])], With(iso_week_this_year)),
    rule(&[WEEK_OPENERS, Word(&["iso"]), WEEK_NUMBER_WORDS, Count(&[]), NotBefore(&["of"])], With(iso_week)),
    rule(&[WEEK_OPENERS, WeekNumber], With(iso_week)),
    // Months of the Hebrew calendar, the latest begun, after a word that makes them a time
    // ("in Elul", "during Tishrei", "in the month of Nisan"); Av and Nissan (a name, a car)
    // only after "the month of".
    rule(&[After(&["in", "during", "since", "from", "before", "after", "until"]), Entry(HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Entry(HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[Opt(&["in", "during"]), Word(&["the"]), Word(&["month"]), Word(&["of"]), Entry(OTHER_HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[WEEK_OPENERS, WeekNumber, Opt(&["of", "in"]), Year], With(iso_week)),
    // "year to date": this year (its days to come hold no memory).
    // Days of a month named after them, or after the first: "from the 10th to the 20th of
    // October", "between the 10th and 20th of October 2025", "the 3rd through the 9th of
    // March", "from October 10th to the 20th"; the last day ends the phrase ("from October 10
    // to 20 people" is no range).
    rule(&[Word(&["from"]), Opt(&["the"]), FirstDay, Word(&["to", "until", "till", "through", "thru"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(days_between)),
    rule(&[Word(&["from"]), Opt(&["the"]), FirstDay, Word(&["to", "until", "till", "through", "thru"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS), Year], With(days_between)),
    rule(&[Word(&["between"]), Opt(&["the"]), FirstDay, Word(&["and"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS)], With(days_between)),
    rule(&[Word(&["between"]), Opt(&["the"]), FirstDay, Word(&["and"]), Opt(&["the"]), Day, Opt(&["of"]), Month(MONTHS), Year], With(days_between)),
    rule(&[Word(&["the"]), FirstDay, Word(&["to", "until", "till", "through", "thru"]), Word(&["the"]), Day, Word(&["of"]), Month(MONTHS)], With(days_between)),
    rule(&[Word(&["the"]), FirstDay, Word(&["to", "until", "till", "through", "thru"]), Word(&["the"]), Day, Word(&["of"]), Month(MONTHS), Year], With(days_between)),
    rule(&[Word(&["from"]), Month(MONTHS), FirstDay, Word(&["to", "until", "till", "through", "thru"]), Word(&["the"]), Ordinal, EndsBefore(AFTER_DAY)], With(days_between)),
    // The end and the thirds of this year: "at the end of the year", "the end of this year",
    // "late this year", "towards the end of the year".
    rule(&[Opt(&["in", "at", "during", "by", "towards", "toward"]), Word(&["the"]), Word(&["end"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OTHER], year_part(0, 2)),
    rule(&[Word(&["late"]), THIS, Word(&["year"]), NOT_OWNER], year_part(0, 2)),
    rule(&[Word(&["mid", "middle"]), THIS, Word(&["year"]), NOT_OWNER], year_part(0, 1)),
    // "the last quarter of 2025|last year|the year": the fourth, not the one before this.
    rule(&[Opt(&["in", "during"]), Opt(&["the"]), LAST, Word(&["quarter"]), Word(&["of"]), Year], With(fourth_quarter_of_year)),
    rule(&[Opt(&["in", "during"]), Opt(&["the"]), LAST, Word(&["quarter"]), Word(&["of"]), LAST, Word(&["year"])], Fixed(Expr::PartOfYear { year: None, years_ago: 1, from_month: 9, months: 3 })),
    rule(&[Opt(&["in", "during"]), Opt(&["the"]), LAST, Word(&["quarter"]), Word(&["of"]), Word(&["the", "this"]), Word(&["year"]), NOT_OTHER], Fixed(Expr::PartOfYear { year: None, years_ago: 0, from_month: 9, months: 3 })),
    // Not "my best year to date".
    rule(&[NotAfter(&["best", "worst", "good", "great", "bad", "busiest", "biggest", "strongest", "warmest", "hottest", "coldest", "wettest", "record"]), Word(&["year"]), Word(&["to"]), Word(&["date"])], Fixed(Expr::Year { years_ago: 0 })),
    // Days named after a feast or an event, where the holiday rules above do not read them
    // (they win a tie): "Easter Sunday with the kids", "Shrove Tuesday", "Super Bowl Sunday",
    // "Palm Sunday" are no latest weekday.
    rule(&[Word(&["easter", "shrove", "palm", "bowl", "fat", "whit", "pentecost", "mothering", "trinity"]), Weekday(WEEKDAYS)], Fixed(Expr::NoTime)),
];

/// Verbs after a month name that make it a person ("April said", "what did June think").
const NAME_VERBS: &[&str] = &[
    "say",
    "said",
    "says",
    "think",
    "thinks",
    "thought",
    "tell",
    "told",
    "tells",
    "want",
    "wants",
    "wanted",
    "ask",
    "asked",
    "asks",
    "mention",
    "mentioned",
    "mentions",
    "suggest",
    "suggested",
    "suggests",
    "recommend",
    "recommended",
    "recommends",
    "call",
    "called",
    "calls",
    "text",
    "texted",
    "texts",
    "email",
    "emailed",
    "emails",
    "write",
    "wrote",
    "writes",
    "send",
    "sent",
    "sends",
    "like",
    "liked",
    "likes",
    "love",
    "loved",
    "loves",
    "feel",
    "felt",
    "feels",
    "need",
    "needs",
    "needed",
    "decide",
    "decided",
    "decides",
    "hates",
    "hated",
    "knows",
    "knew",
];

/// English.
/// The vocabulary of [`ENGLISH`], built on first use.
static VOCABULARY: std::sync::OnceLock<std::collections::HashSet<&str>> =
    std::sync::OnceLock::new();

pub(super) const ENGLISH: Language = Language {
    rules: RULES,
    prefixes: "",
    month_prefixes: "",
    hyphen_words: &["mid", "twenty", "thirty"],
    vocabulary: &VOCABULARY,
    starts: &STARTS,
};

static STARTS: std::sync::OnceLock<super::phrase::Starts> = std::sync::OnceLock::new();

//! Expressions joined into one period — "between March and May", "from last week to
//! yesterday", "3月から5月まで" — an expression opened up to the reference — "since Monday",
//! "先週から", "מאז ינואר" — and one opened on its other side — "before April", "after last
//! week", "3月まで", "אחרי מרץ". The words that join or open them are looked up around
//! expressions already found, so they never make a time of their own.

use std::ops::Range;

use super::calendar::Expr;
use super::{Found, Period};
use super::{en, he};

/// How an expression joins what follows it.
pub(super) enum Joined {
    /// With the next expression: the span from the opening word to the next expression's end.
    WithNext(Range<usize>),
    /// With a month name that is no expression on its own ("and may"): the span, the month,
    /// and whether no word opened the range ("March to may"), which only a month may start.
    ToMonth(Range<usize>, u32, bool),
    /// Up to the reference ("from January to now", "between October and now"): the span.
    ToNow(Range<usize>),
}

/// Japanese particles after an expression that open it up to the reference.
const JA_SINCE: &[&str] = &["から", "以降", "以来", "以後"];
/// The Japanese particle that joins two expressions ("AからB"), and the one that may close the
/// range ("まで").
const JA_FROM: &str = "から";
/// Marks that join two expressions as "から" does: "3月〜5月", "January – March", "January -
/// March", "March-April" (a hyphen between two month names only: "mid-March" is one word).
const DASHES: &[&str] = &["〜", "～", "~", "–", "—", "-"];
const JA_UNTIL: &str = "まで";

/// The word of letters that ends where the spaces before `at` begin, and its start; `None`
/// when no space separates it from `at`.
fn word_before(query: &str, at: usize) -> Option<(usize, &str)> {
    let head = query.get(..at)?;
    let trimmed = head.trim_end();
    if trimmed.len() == head.len() {
        return None;
    }
    let start = trimmed
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map(|(i, _)| i)?;
    Some((start, &trimmed[start..]))
}

/// The word of letters that starts after the spaces after `at`, and its range; `None` when no
/// space separates it from `at`.
fn word_after(query: &str, at: usize) -> Option<Range<usize>> {
    let tail = query.get(at..)?;
    let trimmed = tail.trim_start();
    if trimmed.len() == tail.len() {
        return None;
    }
    let start = at + (tail.len() - trimmed.len());
    let len: usize = trimmed
        .chars()
        .take_while(|c| c.is_alphabetic())
        .map(char::len_utf8)
        .sum();
    (len > 0).then_some(start..start + len)
}

/// Whether the expression at `range` opens a range that `next` (the following expression, if
/// any) or a month name closes: "between A and B", "from A to|until|till|through B", "AからB".
pub(super) fn between(
    query: &str,
    range: &Range<usize>,
    next: Option<&(Range<usize>, Period)>,
) -> Option<Joined> {
    // The full stop of an abbreviation ("from Sept. to Nov.") belongs to the expression.
    let range = &(range.start..range.end + abbreviation_stop(query, range));
    let after = query.get(range.end..)?;
    // A dash may have spaces around it ("3月 〜 5月"); から is written next to both.
    let mark = if after.starts_with(JA_FROM) {
        Some(JA_FROM.len())
    } else {
        let spaced = after.trim_start();
        DASHES
            .iter()
            .find(|m| spaced.starts_with(**m))
            .map(|m| after.len() - spaced.len() + m.len())
            .map(|len| len + (after[len..].len() - after[len..].trim_start().len()))
    };
    if let Some(mark) = mark {
        // "January – now".
        if let Some(now) = word_after(query, range.end + mark - 1)
            && now.start == range.end + mark
            && query[now.clone()].eq_ignore_ascii_case("now")
        {
            return Some(Joined::ToNow(range.start..now.end));
        }
        let to = range.end + mark;
        let Some((next_range, _)) = next.filter(|(r, _)| r.start == to) else {
            // A month that is no expression on its own: "in Sep-Nov", "in Oct – Dec".
            let len: usize = query[to..]
                .chars()
                .take_while(|c| c.is_alphabetic())
                .map(char::len_utf8)
                .sum();
            // Not "may" ("notes from Jan - may I see them").
            let word = &query[to..to + len];
            let named = en::month_named(word).filter(|_| !word.eq_ignore_ascii_case("may"))?;
            return Some(Joined::ToMonth(range.start..to + len, named, true));
        };
        let mut end = next_range.end;
        if query.get(end..).is_some_and(|t| t.starts_with(JA_UNTIL)) {
            end += JA_UNTIL.len();
        }
        return Some(Joined::WithNext(range.start..end));
    }
    // Hebrew "מA עד B": A carries מ ("from") as its prefix ("מ-5 במרץ עד 10 במרץ").
    if query[range.clone()].starts_with('מ')
        && let Some(joiner) = word_after(query, range.end)
        && matches!(&query[joiner.clone()], "עד" | "ועד")
        && let Some((next_range, _)) = next
        && (next_range.start == joiner.start
            || (next_range.start > joiner.end
                && query[joiner.end..next_range.start].trim().is_empty()))
        // "עד היום" is up to now, which the word עד opens on its own.
        && !matches!(&query[next_range.clone()], "היום" | "עכשיו")
    {
        return Some(Joined::WithNext(range.start..next_range.end));
    }
    let (open, opener) = word_before(query, range.start).unwrap_or((range.start, ""));
    if opener == "בין" {
        // Hebrew joins with a prefix on the second part: "בין מרץ למאי", "בין מרץ ומאי".
        let word = word_after(query, range.end)?;
        // The second part is an expression of its own ("ומאי 2025"): up to its end.
        if let Some((next_range, _)) = next
            && next_range.start == word.start
        {
            return Some(Joined::WithNext(open..next_range.end));
        }
        let text = &query[word.clone()];
        let month = text
            .strip_prefix('ל')
            .or_else(|| text.strip_prefix('ו'))
            .and_then(he::month_named)?;
        // A month read alone must end the range: not "למאי 2025" or "למאי שנה שעברה", whose
        // year this reading would not see.
        let after = query[word.end..].trim_start();
        let qualified = after.starts_with(|c: char| c.is_ascii_digit())
            || ["שנה", "בשנה", "אשתקד"]
                .iter()
                .any(|w| after.starts_with(w));
        if qualified {
            return None;
        }
        return Some(Joined::ToMonth(open..word.end, month, false));
    }
    const TO: &[&str] = &["to", "until", "till", "through", "thru"];
    let (open, joiners, bare): (usize, &[&str], bool) = match opener.to_lowercase().as_str() {
        "between" => (open, &["and"], false),
        // "since 2020 to now" is "from 2020 to now".
        "from" | "since" => (open, TO, false),
        // "March to May": the range starts at the expression itself.
        _ => (range.start, TO, true),
    };
    let joiner = word_after(query, range.end)?;
    if !joiners.contains(&query[joiner.clone()].to_lowercase().as_str()) {
        return None;
    }
    if let Some(now) = word_after(query, joiner.end)
        && query[now.clone()].eq_ignore_ascii_case("now")
    {
        return Some(Joined::ToNow(open..now.end));
    }
    if let Some((next_range, _)) = next
        && next_range.start > joiner.end
        && query[joiner.end..next_range.start].trim().is_empty()
    {
        return Some(Joined::WithNext(open..next_range.end));
    }
    let month = word_after(query, joiner.end)?;
    let named = en::month_named(&query[month.clone()])?;
    Some(Joined::ToMonth(open..month.end, named, bare))
}

/// The length of a full stop right after the expression at `range` when it ends in a month's
/// abbreviation ("Sept."), else 0.
fn abbreviation_stop(query: &str, range: &Range<usize>) -> usize {
    if !query[range.end..].starts_with('.') {
        return 0;
    }
    // The abbreviations are ASCII words of three or four letters: only the last few bytes are
    // looked at, however long the run of letters before them (Japanese has no spaces).
    let head = &query.as_bytes()[..range.end];
    let letters = head
        .iter()
        .rev()
        .take(5)
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let start = range.end - letters;
    let alone = !query[..start]
        .chars()
        .next_back()
        .is_some_and(char::is_alphabetic);
    let word = query[start..range.end].to_ascii_lowercase();
    usize::from(alone && super::phrase::ABBREVIATIONS.contains(&word.as_str()))
}

/// The span and period of a range of days of one month written after the expression at
/// `range`, which names `first`: "March 3-5", "March 14 – 20th" (the month whole, then two
/// days joined by a dash), "March 3 to 5", "Oct 3 - 5", "between March 3 and 5" (one day,
/// then a dash, "to", "through", "until" or, after "between", "and" and the last day). The
/// last day must end the phrase as in "on the 14th": "March 3 to 5 pm" and "in March 1-2
/// people" name no range of days.
pub(super) fn day_range(
    query: &str,
    range: &Range<usize>,
    first: Period,
    reference_ms: i64,
) -> Option<(Range<usize>, Period)> {
    let after = query.get(range.end..)?;
    // One day continues only where its phrase ends in its number ("March 3", "the 3rd"), not
    // "yesterday until 5".
    let named_by_number = query[range.clone()]
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .ends_with(|c: char| c.is_ascii_digit());
    let (opened, opener) = word_before(query, range.start).unwrap_or((range.start, ""));
    let between = opener.eq_ignore_ascii_case("between");
    // "March 3-5": the month, then both days.
    let (from_day, rest) = match number(after.trim_start()) {
        Some((day, rest)) if after.starts_with(char::is_whitespace) => (Some(day), rest),
        _ => (None, after),
    };
    let rest = rest.trim_start();
    let joined = DASHES[3..]
        .iter()
        .chain(["to", "through", "thru", "until", "till"].iter())
        .chain(between.then_some(&"and"))
        .find_map(|j| {
            let tail = rest.get(..j.len()).filter(|h| h.eq_ignore_ascii_case(j))?;
            let tail = &rest[tail.len()..];
            // A word joiner stands apart: "to 5", not "tomorrow".
            (!j.chars().all(char::is_alphabetic) || tail.starts_with(char::is_whitespace))
                .then_some(tail)
        })?;
    // "July 1st through the 15th": "the" may come before the last day.
    let joined = joined.trim_start();
    let joined = joined
        .get(..4)
        .filter(|the| the.eq_ignore_ascii_case("the "))
        .map_or(joined, |_| joined[4..].trim_start());
    let (to_day, tail) = number(joined)?;
    // The last day ends the phrase, as "on the 14th" must: at the end, before punctuation
    // (not a time's "5:30" or another number) or before a word such as "about" — not "to 5 pm",
    // "1-2 people".
    let next_word: String = tail
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    let ends = tail.is_empty()
        || (tail.starts_with(|c: char| c.is_ascii_punctuation())
            && !tail.starts_with(['-', ':', '/', '%'])
            && !(tail.starts_with('.') && tail[1..].starts_with(|c: char| c.is_ascii_digit())))
        || (tail.starts_with(char::is_whitespace) && {
            let next = tail.trim_start();
            next.is_empty()
                || (next.starts_with(|c: char| c.is_ascii_punctuation())
                    && !next.starts_with(['-', ':', '/', '%']))
                || en::AFTER_DAY.contains(&next_word.as_str())
        });
    // "from March 3 until the 5th of April" names another month's day.
    if !ends || next_word == "of" {
        return None;
    }
    let day_of = |p: Period| {
        let start = chrono::DateTime::from_timestamp_millis(p.start_ms)?;
        Some(chrono::Datelike::day(&start))
    };
    let (from_day, month) = match from_day {
        // Two numbers only after a month named whole ("March 3-5"), not "yesterday 3-5".
        Some(day) => (day, Some(super::calendar::whole_month(first)?)),
        None if named_by_number => (day_of(first)?, None),
        None => return None,
    };
    let mut period = super::calendar::days_in_month_of(first, from_day, to_day)?;
    if period.start_ms > reference_ms {
        // "March 14-20" on March 10: the latest such days that have begun, a year earlier.
        let earlier = super::calendar::month_until(first.start_ms - 1, month?)?;
        period = super::calendar::days_in_month_of(earlier, from_day, to_day)?;
    }
    let end = query.len() - tail.len();
    let start = if between { opened } else { range.start };
    Some((start..end, period))
}

/// The span and period of a Japanese range of days of one month after the day at `range`,
/// which names `first`: "10月10日〜20日", "10月10日から20日まで" (the first day whole, a dash
/// or から, then the last day with 日 and an optional まで).
pub(super) fn ja_day_range(
    query: &str,
    range: &Range<usize>,
    first: Period,
) -> Option<(Range<usize>, Period)> {
    if !query[range.clone()].ends_with('日') {
        return None;
    }
    let after = query.get(range.end..)?;
    let joined = [JA_FROM, "〜", "～", "~", "–", "-"]
        .iter()
        .find_map(|mark| after.strip_prefix(mark))?;
    // The first day named alone, not a month it was widened to ("去年の10月10日" reads as last
    // October).
    if first.end_ms - first.start_ms != 86_400_000 {
        return None;
    }
    let (to_day, tail) = super::ja::day_number(joined)?;
    let tail = tail.strip_prefix(JA_UNTIL).unwrap_or(tail);
    let from_day = chrono::Datelike::day(&chrono::DateTime::from_timestamp_millis(first.start_ms)?);
    let period = super::calendar::days_in_month_of(first, from_day, to_day)?;
    Some((range.start..query.len() - tail.len(), period))
}

/// The span and period of a Hebrew range of days written before the month at `range`, which
/// names the whole month `first`: "מה-5 עד ה-10 במרץ" (from, until), "בין ה-1 ל-15 בחודש
/// שעבר" (between, to); the days in digits, each with its ה or ל and an optional hyphen. Or
/// written before a day, `first`, that ends it: "מ-5 עד 10 במרץ".
pub(super) fn he_day_range(
    query: &str,
    range: &Range<usize>,
    first: Period,
    reference_ms: i64,
) -> Option<(Range<usize>, Period)> {
    // A day with its prefixes, the prefixes the first one may take, and its number.
    let day = |word: &str, prefixes: &[&str]| -> Option<u32> {
        let rest = prefixes
            .iter()
            .find_map(|p| word.strip_prefix(p))
            .unwrap_or(word);
        let rest = rest.strip_prefix('-').unwrap_or(rest);
        match number(rest)? {
            (n, "") => Some(n),
            _ => None,
        }
    };
    let head = query.get(..range.start)?;
    let mut words = head
        .split_whitespace()
        .rev()
        .map(|w| (w.as_ptr() as usize - query.as_ptr() as usize, w));
    let (_, last) = words.next()?;
    let (second_at, second) = words.next()?;
    // "מ-5 עד 10 במרץ": the last day is an expression of its own, March 10.
    if first.end_ms - first.start_ms == 86_400_000 {
        let to_day =
            chrono::Datelike::day(&chrono::DateTime::from_timestamp_millis(first.start_ms)?);
        let from_day = day(second.strip_prefix('מ')?, &["ה"])?;
        if last != "עד" || from_day >= to_day {
            return None;
        }
        let days_before = i64::from(to_day - from_day) * 86_400_000;
        let period = |last: Period| Period {
            start_ms: last.start_ms - days_before,
            end_ms: last.end_ms,
        };
        // Read with no year, the last day is the latest such; the range is the latest begun,
        // as a month's days are ("מ-1 עד 10 בדצמבר" on December 2 is running).
        let a_year_later = || {
            let start_ms = day_years_apart(first.start_ms, 1)?;
            Some(period(Period {
                start_ms,
                end_ms: start_ms + 86_400_000,
            }))
        };
        let later = (!year_named(query, range))
            .then(a_year_later)
            .flatten()
            .filter(|p| p.start_ms <= reference_ms);
        return Some((second_at..range.end, later.unwrap_or(period(first))));
    }
    let (start, from_day, to_day) = if let Some(rest) = last.strip_prefix('ל') {
        // "בין ה-1 ל-15".
        let to_day = day(rest, &[])?;
        let from_day = day(second, &["ה"])?;
        let (start, between) = words.next()?;
        (between == "בין").then_some((start, from_day, to_day))?
    } else {
        // "מה-5 עד ה-10".
        let to_day = day(last, &["ה"])?;
        if second != "עד" {
            return None;
        }
        let (start, from) = words.next()?;
        let from_day = day(from.strip_prefix('מ')?, &["ה"])?;
        (start, from_day, to_day)
    };
    let period = super::calendar::days_in_month_of(first, from_day, to_day)?;
    // Days of a month named without a year that have not begun are last year's, as in "3月5日
    // 〜20日" ("מה-5 עד ה-20 בדצמבר" on December 2).
    let year_earlier = || {
        let start_ms = day_years_apart(first.start_ms, -1)?;
        let month = chrono::Datelike::month(&chrono::DateTime::from_timestamp_millis(start_ms)?);
        let days = super::calendar::days_in_month_of(
            super::calendar::month_from(start_ms, month)?,
            from_day,
            to_day,
        )?;
        Some(days)
    };
    let period = if period.start_ms > reference_ms && !year_named(query, range) {
        year_earlier()?
    } else {
        period
    };
    Some((start..range.end, period))
}

/// The start of the day `years` years after (or before) the day of `ms`.
fn day_years_apart(ms: i64, years: i32) -> Option<i64> {
    let day = chrono::DateTime::from_timestamp_millis(ms)?.date_naive();
    let months = chrono::Months::new(years.unsigned_abs().checked_mul(12)?);
    let day = if years >= 0 {
        day.checked_add_months(months)?
    } else {
        day.checked_sub_months(months)?
    };
    Some(
        day.and_time(chrono::NaiveTime::MIN)
            .and_utc()
            .timestamp_millis(),
    )
}

/// Whether the expression at `range` names its month by name alone, as the latest such: no
/// year in digits, and no "this month" ("בין ה-5 ל-20 החודש" stays this month's).
fn year_named(query: &str, range: &Range<usize>) -> bool {
    let text = &query[range.clone()];
    let month_named = text
        .split_whitespace()
        .last()
        .map(|w| w.strip_prefix('ב').unwrap_or(w))
        .and_then(he::month_named)
        .is_some();
    !month_named || text.bytes().filter(u8::is_ascii_digit).count() > 2
}

/// A day number of one or two digits at the start of `text`, with an optional English ordinal
/// suffix ("5", "20th"), and the text after it.
fn number(text: &str) -> Option<(u32, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let day: u32 = text[..digits].parse().ok()?;
    let mut rest = &text[digits..];
    for suffix in ["st", "nd", "rd", "th"] {
        if let Some(tail) = rest.strip_prefix(suffix) {
            rest = tail;
            break;
        }
    }
    // Not the start of a longer word or number ("3rd-floor" stays whole above; "5x" is none).
    if rest.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    (1..=31).contains(&day).then_some((day, rest))
}

/// Words and marks that list two expressions side by side ("in March and May").
const LISTED_BY: &[&str] = &[
    "and", "or", "&", ",", "/", "と", "や", "か", "、", "・", "או",
];

/// Holidays a year next to them places ([`holiday_before`], [`holiday_after`]).
const HOLIDAYS: &[(&str, Expr)] = &[
    (
        "christmas",
        Expr::DaysOfYear {
            month: 12,
            day: 24,
            days: 3,
        },
    ),
    (
        "xmas",
        Expr::DaysOfYear {
            month: 12,
            day: 24,
            days: 3,
        },
    ),
    (
        "halloween",
        Expr::DaysOfYear {
            month: 10,
            day: 31,
            days: 1,
        },
    ),
    (
        "thanksgiving",
        Expr::Feast {
            feast: super::calendar::Feast::Thanksgiving,
            offset: 0,
            days: 4,
        },
    ),
    (
        "easter",
        Expr::Feast {
            feast: super::calendar::Feast::Easter,
            offset: -2,
            days: 4,
        },
    ),
];

/// A holiday named right before the expression at `range`, with no word that makes it a time
/// before it ("Christmas 2025", "Halloween last year", "Christmas of 2024"): where its name
/// starts, and the holiday. The caller places it in the year the expression names.
pub(super) fn holiday_before(query: &str, range: &Range<usize>) -> Option<(usize, Expr)> {
    let (mut start, mut word) = word_before(query, range.start)?;
    if word.eq_ignore_ascii_case("of") {
        (start, word) = word_before(query, start)?;
    }
    let word = word.to_lowercase();
    HOLIDAYS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, holiday)| (start, *holiday))
}

/// A holiday named right after the expression at `range` with an owner's "'s" ("last year's
/// Christmas", "2025's Halloween"): where its name ends, and the holiday. The caller places it
/// in the year the expression names.
pub(super) fn holiday_after(query: &str, range: &Range<usize>) -> Option<(usize, Expr)> {
    let after = query.get(range.end..)?;
    let after = ["'s ", "\u{2019}s "]
        .iter()
        .find_map(|owner| after.strip_prefix(owner))?;
    let len: usize = after
        .chars()
        .take_while(|c| c.is_alphabetic())
        .map(char::len_utf8)
        .sum();
    let word = after[..len].to_lowercase();
    let (_, holiday) = HOLIDAYS.iter().find(|(name, _)| *name == word)?;
    Some((query.len() - after.len() + len, *holiday))
}

/// A year that no rule read, written right after the expression at `range` (", 2025", " of
/// 2025", " של 2025", " '25") or right before it ("2025 Q4"): the span with it, and the year.
pub(super) fn bare_year_around(query: &str, range: &Range<usize>) -> Option<(Range<usize>, i32)> {
    let four = |digits: &str| {
        (digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<i32>().ok())
            .flatten()
            .filter(|year| (1970..=2100).contains(year))
    };
    let ends_word = |text: &str| !text.starts_with(|c: char| c.is_alphanumeric());
    // After: a comma or spaces, "of" or של, then four digits or an apostrophe and two.
    let rest = &query[range.end..];
    let spaced = rest.strip_prefix(',').unwrap_or(rest);
    let trimmed = spaced.trim_start();
    if trimmed.len() < spaced.len() {
        let after_of = ["of ", "של "]
            .iter()
            .find_map(|of| {
                trimmed
                    .get(..of.len())
                    .filter(|head| head.eq_ignore_ascii_case(of))
                    .map(|_| trimmed[of.len()..].trim_start())
            })
            .unwrap_or(trimmed);
        let at = query.len() - after_of.len();
        if let Some(year) = after_of.get(..4).and_then(four)
            && ends_word(&after_of[4..])
        {
            return Some((range.start..at + 4, year));
        }
        let short = after_of.strip_prefix(['\'', '\u{2018}', '\u{2019}']);
        if let Some(short) = short
            && short.len() >= 2
            && short.as_bytes()[..2].iter().all(u8::is_ascii_digit)
            && ends_word(&short[2..])
        {
            let n: i32 = short[..2].parse().ok()?;
            let year = if n >= 70 { 1900 + n } else { 2000 + n };
            return Some((range.start..query.len() - short.len() + 2, year));
        }
    }
    // Before: four digits, a space apart, that begin a word.
    let head = &query[..range.start];
    let trimmed = head.trim_end();
    if trimmed.len() < head.len()
        && trimmed.len() >= 4
        && trimmed.is_char_boundary(trimmed.len() - 4)
    {
        let digits = &trimmed[trimmed.len() - 4..];
        let before = &trimmed[..trimmed.len() - 4];
        if let Some(year) = four(digits)
            && !before.ends_with(|c: char| c.is_alphanumeric() || c == '-' || c == '/')
        {
            return Some((trimmed.len() - 4..range.end, year));
        }
    }
    None
}

/// Abbreviated month names listed after a month ("in Sept and Oct", "in Oct/Nov", "in Sept,
/// Oct and Nov"), which are no expressions alone ("Oct" may be a word of another language, or
/// a name): each as the month, to be listed with the one before it. Not "may" unless another
/// month follows it ("April, May and June"), nor a name where an expression already starts
/// ("in Sept and Oct 3").
pub(super) fn listed_months(query: &str, found: &[Found]) -> Vec<Found> {
    let mut more = Vec::new();
    for first in found {
        if !matches!(first.expr, Expr::NamedMonth { year: None, .. }) {
            continue;
        }
        let mut at = first.range.clone();
        loop {
            let end = at.end + abbreviation_stop(query, &at);
            let rest = &query[end..];
            let after_gap = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
            // "and" and "or" are words of their own ("Sept andrew" is no list); "&" and "/"
            // may touch the names ("Oct/Nov").
            let joiner = ["and", "or", "&", "/"].iter().find(|w| {
                after_gap
                    .get(..w.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(w))
                    && (!w.starts_with(char::is_alphabetic)
                        || after_gap[w.len()..].starts_with(char::is_whitespace))
            });
            let next = match joiner {
                Some(w) => &after_gap[w.len()..],
                // A comma alone lists too ("Sept, Oct and Nov").
                None if rest.trim_start().starts_with(',') => after_gap,
                None => break,
            };
            let word_at = query.len() - next.trim_start().len();
            let len: usize = query[word_at..]
                .chars()
                .take_while(|c| c.is_alphabetic())
                .map(char::len_utf8)
                .sum();
            let word = &query[word_at..word_at + len];
            // "may" only between two months ("April, May and June").
            let may_between = || {
                let after = query[word_at + len..]
                    .trim_start_matches(|c: char| c.is_whitespace() || c == ',');
                let after = ["and ", "or ", "& ", "/"]
                    .iter()
                    .find_map(|w| {
                        after
                            .get(..w.len())
                            .filter(|head| head.eq_ignore_ascii_case(w))
                            .map(|_| &after[w.len()..])
                    })
                    .unwrap_or(after)
                    .trim_start();
                let next: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
                after.len() < query[word_at + len..].len()
                    && en::month_named(&next).is_some_and(|m| m != 5)
            };
            let Some(month) = en::month_named(word)
                .filter(|_| !word.eq_ignore_ascii_case("may") || may_between())
                .filter(|_| en::month_item_ends(&query[word_at + len..]))
            else {
                break;
            };
            let range = word_at..word_at + len;
            if found.iter().any(|f| f.range.start == range.start) {
                break;
            }
            more.push(Found {
                range: range.clone(),
                expr: Expr::NamedMonth { month, year: None },
                ends_range: false,
            });
            at = range;
        }
    }
    more
}

/// A month name that starts a range of two months with no word before that makes it a time
/// ("Jan-Mar", "Sept to Nov 2025", "Jan through March"): alone it names none ("Jan" may be a
/// name), so it is found here as the month, for [`between`] to join to the second. The second
/// must be a month name too, after a word ending the item as a month does; "may" neither
/// starts nor closes one, as [`between`] reads it ("Jan - may I see them").
pub(super) fn paired_months(query: &str, found: &[Found]) -> Vec<Found> {
    const TO: &[&str] = &["to", "through", "thru", "till", "until"];
    let mut more = Vec::new();
    let mut words = query.char_indices().peekable();
    while let Some((start, c)) = words.next() {
        if !c.is_alphabetic() {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some((at, c)) = words.next_if(|(_, c)| c.is_alphabetic()) {
            end = at + c.len_utf8();
        }
        let word = &query[start..end];
        let Some(month) = en::month_named(word).filter(|_| !word.eq_ignore_ascii_case("may"))
        else {
            continue;
        };
        let glued = query[..start]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        if glued
            || found
                .iter()
                .any(|f| f.range.start < end && start < f.range.end)
        {
            continue;
        }
        let stop = end + abbreviation_stop(query, &(start..end));
        let after = &query[stop..];
        let spaced = after.trim_start();
        let (second_at, dashed) = match DASHES.iter().find(|m| spaced.starts_with(**m)) {
            Some(mark) => {
                let rest = &spaced[mark.len()..];
                (query.len() - rest.trim_start().len(), true)
            }
            None => match word_after(query, stop) {
                Some(joiner) if TO.contains(&query[joiner.clone()].to_lowercase().as_str()) => {
                    match word_after(query, joiner.end) {
                        Some(second) => (second.start, false),
                        None => continue,
                    }
                }
                _ => continue,
            },
        };
        let len: usize = query[second_at..]
            .chars()
            .take_while(|c| c.is_alphabetic())
            .map(char::len_utf8)
            .sum();
        let second = &query[second_at..second_at + len];
        let closes = en::month_named(second).is_some()
            && !second.eq_ignore_ascii_case("may")
            // A dash between two month names makes them a range whatever follows ("Jan-Mar
            // notes").
            && (dashed || en::month_item_ends(&query[second_at + len..]));
        if closes {
            more.push(Found {
                range: start..end,
                expr: Expr::NamedMonth { month, year: None },
                ends_range: false,
            });
        }
    }
    more
}

/// Whether the expression (or list) at `range` and the next expression at `next` are listed
/// together: nothing but one listing word or mark between them, or, in Hebrew, the next one's
/// prefix ו.
pub(super) fn listed(query: &str, range: &Range<usize>, next: &Range<usize>) -> bool {
    let end = range.end + abbreviation_stop(query, range);
    let Some(between) = query.get(end..next.start) else {
        return false;
    };
    let gap = between.trim();
    if gap.is_empty() {
        // Hebrew writes "and" as the next word's prefix; nothing else lists without a word.
        return !between.is_empty() && query[next.start..].starts_with('ו');
    }
    // A comma may come before the word ("Monday, Tuesday, and Wednesday").
    let word = gap.strip_prefix(',').map_or(gap, str::trim_start);
    LISTED_BY
        .iter()
        .any(|w| gap.eq_ignore_ascii_case(w) || word.eq_ignore_ascii_case(w))
}

/// Hebrew words with מ ("from") that open a range up to the reference ([`since`]).
const HE_FROM: &[&str] = &[
    "מתחילת",
    "מאמצע",
    "מסוף",
    "מהחודש",
    "מהשבוע",
    "מהשנה",
    "מהקיץ",
    "מהחורף",
    "מהאביב",
    "מהסתיו",
];

/// Hebrew words for notes, before which מ ("from") names where they come from.
const NOTES: &[&str] = &[
    "הפתקים",
    "פתקים",
    "הפתק",
    "ההערות",
    "הערות",
    "ההערה",
    "הרשימות",
    "רשימות",
    "הרשימה",
    "המסמכים",
    "התזכורות",
    "הסיכומים",
    "הזיכרונות",
    "הזכרונות",
];

/// The span of "since A" ("מאז A", "Aから", "A以降", "מתחילת A"), when the expression at
/// `range` is opened up to the reference.
pub(super) fn since(query: &str, range: &Range<usize>) -> Option<Range<usize>> {
    let after = query.get(range.end..)?;
    if let Some(particle) = JA_SINCE.iter().find(|p| after.starts_with(**p)) {
        return Some(range.start..range.end + particle.len());
    }
    // Hebrew "from" is מ on the expression's first word: "מתחילת מרץ" (from the beginning of
    // March), "מהחודש שעבר" (from last month); not a month that begins with מ (מרץ, מאי).
    let text = &query[range.clone()];
    // After a word for notes, מ says where they are from, as "notes from last month" does:
    // "הפתקים מהחודש שעבר", "ההערות מאוקטובר" are that month alone; "מתחילת", "מאמצע" and
    // "מסוף" still run to now.
    let of_notes = word_before(query, range.start).is_some_and(|(_, word)| NOTES.contains(&word))
        && !["מתחילת", "מאמצע", "מסוף"]
            .iter()
            .any(|word| text.starts_with(word));
    if of_notes {
        return None;
    }
    if HE_FROM.iter().any(|word| text.starts_with(word)) {
        return Some(range.clone());
    }
    // "ממרץ": a month with מ.
    if super::he::FROM_MONTHS
        .iter()
        .any(|(name, _)| text.starts_with(name))
    {
        return Some(range.clone());
    }
    // The prefix may lie outside the expression's span.
    if let Some(start) = range.start.checked_sub('מ'.len_utf8())
        && query.get(start..range.start) == Some("מ")
        && HE_FROM
            .iter()
            .any(|word| text.starts_with(&word['מ'.len_utf8()..]))
    {
        return Some(start..range.end);
    }
    let before = word_before(query, range.start);
    let opener = before.map(|(_, word)| word.to_lowercase());
    let opens = matches!(
        opener.as_deref(),
        Some("since" | "מאז" | "from" | "starting" | "beginning")
    );
    let open = match before {
        Some((at, _)) if opens => at,
        _ => range.start,
    };
    // "from October onwards", "October onward", "from October on" (where the phrase ends: not
    // "from Monday on the dentist").
    if let Some(word) = word_after(query, range.end) {
        let after = query[word.clone()].to_lowercase();
        let ends = query[word.end..]
            .trim_start()
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if after == "onwards"
            || after == "onward"
            || (after == "on" && opener.as_deref() == Some("from") && ends)
        {
            return Some(open..word.end);
        }
    }
    match opener.as_deref() {
        Some("since" | "מאז") => Some(open..range.end),
        // "starting in October", "starting October", "starting from March"; not "the show
        // starting Monday night" or "starting March Madness": after these words the
        // expression opens with "in" or "on", or ends the phrase.
        Some("starting" | "beginning") => {
            let text = query[range.clone()].to_lowercase();
            let after = &query[range.end..];
            let ends = after
                .trim_start()
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
                || word_after(query, range.end)
                    .is_some_and(|w| en::AFTER_DAY.contains(&query[w].to_lowercase().as_str()));
            (text.starts_with("in ") || text.starts_with("on ") || ends).then_some(open..range.end)
        }
        Some("from") => {
            let (at, word) = word_before(query, open)?;
            ["starting", "beginning"]
                .contains(&word.to_lowercase().as_str())
                .then_some(at..range.end)
        }
        _ => None,
    }
}

/// Which side of an expression a word before it (or a particle after it) keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// "before A", "prior to A", "Aより前", "לפני A": everything before A starts.
    Before,
    /// "just before A", "right before A", "the days before A", "A直前", "ממש לפני A": the week
    /// before A starts.
    JustBefore,
    /// "the day before A", "A前日", "Aの前日": the day before A starts.
    DayBefore,
    /// "the day after A", "Aの翌日": the day after A ends.
    DayAfter,
    /// "the week after A", "the days after A", "Aの翌週": the week after A ends.
    WeekAfter,
    /// "the weekend before A", "Aの前の週末": Saturday to Monday of the latest weekend that
    /// ends by the time A starts.
    WeekendBefore,
    /// "the weekend after A": the first weekend that starts after A ends.
    WeekendAfter,
    /// "around A", "בסביבות A", "A頃": a day widened by three days on each side; anything
    /// longer as it is.
    Around,
    /// "until A", "till A", "up to A", "A以前", "Aまで", "עד A": everything up to A's end.
    Until,
    /// "after A", "Aより後", "אחרי A": from A's end to the reference.
    After,
    /// "ממרץ עד A" (from March until A): from the month named before "עד", the latest that
    /// starts at or before A, to A's end.
    FromMonth(u32),
}

/// Japanese particles after an expression that open it on one side.
const JA_SIDES: &[(&str, Side)] = &[
    ("頃", Side::Around),
    ("ごろ", Side::Around),
    ("より前", Side::Before),
    ("以前", Side::Until),
    ("まで", Side::Until),
    ("より後", Side::After),
];

/// Japanese particles after a holiday or a season that open it on one side ("クリスマス前",
/// "お盆の前", "夏前") or name the day before it ("クリスマス前日"); after other expressions 前
/// counts back ("3日前") or names the one before ("先週の前の週").
const JA_HOLIDAY_SIDES: &[(&str, Side)] = &[
    ("の前日", Side::DayBefore),
    ("前日", Side::DayBefore),
    ("の前の週末", Side::WeekendBefore),
    ("の前の週", Side::JustBefore),
    ("の数日前", Side::JustBefore),
    ("の翌日", Side::DayAfter),
    ("の翌週", Side::WeekAfter),
    ("の次の週", Side::WeekAfter),
    ("の直前", Side::JustBefore),
    ("直前", Side::JustBefore),
    ("の前", Side::Before),
    ("前", Side::Before),
];

/// "The day before A", "the week after A", "the weekend before A", "the days before A", and
/// the Hebrew "בשבוע שלפני A", "ביום שאחרי A", "בימים שלפני A": the side they keep next to A
/// and where they start. `opener` is the word right before A, at `open`.
fn next_to_it(query: &str, open: usize, opener: &str) -> Option<(usize, Side)> {
    let (at, unit) = word_before(query, open)?;
    let unit = unit.to_lowercase();
    let opener = opener.to_lowercase();
    // Hebrew carries its preposition on the unit ("בשבוע", "מהשבוע", "ביום").
    let hebrew = unit
        .strip_prefix('ו')
        .unwrap_or(&unit)
        .strip_prefix(['ב', 'מ'])
        .map(|unit| unit.strip_prefix('ה').unwrap_or(unit));
    let side = match (hebrew.unwrap_or(&unit), opener.as_str()) {
        ("day", "before") | ("יום", "שלפני") => Side::DayBefore,
        ("day", "after") | ("יום", "שאחרי") => Side::DayAfter,
        ("week" | "days", "before") | ("שבוע" | "ימים", "שלפני") => Side::JustBefore,
        ("week" | "days", "after") | ("שבוע" | "ימים", "שאחרי") => Side::WeekAfter,
        ("weekend", "before") => Side::WeekendBefore,
        ("weekend", "after") => Side::WeekendAfter,
        _ => return None,
    };
    // English needs "the" ("a week before March 3" is a span from A, read as A).
    if hebrew.is_some() {
        return Some((at, side));
    }
    let (the, word) = word_before(query, at)?;
    word.eq_ignore_ascii_case("the").then_some((the, side))
}

/// Words before "before" that bring it close to A: "just before", "right before".
const JUST: &[&str] = &["just", "right", "shortly", "immediately"];

/// The span of "before A", "until A" or "after A" (in any of the three languages) and the side
/// it keeps, when a word before the expression at `range` (or a particle after it) opens it.
/// `holiday` when the expression names a holiday or a season, which a bare 前 after it opens.
/// Not when the expression owns what follows ("before Monday's meeting" names the meeting's
/// day, not everything before it).
pub(super) fn open_ended(
    query: &str,
    range: &Range<usize>,
    holiday: bool,
) -> Option<(Range<usize>, Side)> {
    let after = query.get(range.end..)?;
    if let Some((particle, side)) = JA_SIDES
        .iter()
        .chain(JA_HOLIDAY_SIDES.iter().filter(|_| holiday))
        .find(|(p, _)| after.starts_with(*p))
    {
        // "前の日", "の前の週": the day or week before A, not everything before it; 前後
        // ("about"), 前夜 (the eve) and 前半 (the first half) are words of their own.
        let rest = &after[particle.len()..];
        if JA_HOLIDAY_SIDES.iter().any(|(p, _)| p == particle)
            && ["の日", "の週", "日", "週", "の晩", "の夜", "夜", "後", "半"]
                .iter()
                .any(|unit| rest.starts_with(unit))
        {
            return None;
        }
        // "までに" is a deadline ("金曜日までに送る"), not "until".
        if *particle == "まで" && after[particle.len()..].starts_with('に') {
            return None;
        }
        return Some((range.start..range.end + particle.len(), *side));
    }
    if ["'s", "\u{2019}s"].iter().any(|s| after.starts_with(s)) {
        return None;
    }
    let (open, opener) = word_before(query, range.start)?;
    // "a week before March 3", "the day after last Monday": a span from A, not everything
    // before or after it; A is read alone.
    let measured = || {
        word_before(query, open).is_some_and(|(_, unit)| {
            matches!(
                unit.to_lowercase().as_str(),
                "day" | "days" | "week" | "weeks" | "month" | "months" | "year" | "years" | "night"
            )
        })
    };
    if let Some(found) = next_to_it(query, open, opener) {
        return Some((found.0..range.end, found.1));
    }
    let side = match opener.to_lowercase().as_str() {
        "before" | "after" if measured() => return None,
        "before"
            if let Some((at, _)) = word_before(query, open)
                .filter(|(_, just)| JUST.contains(&just.to_lowercase().as_str())) =>
        {
            return Some((at..range.end, Side::JustBefore));
        }
        "לפני"
            if let Some((at, _)) =
                word_before(query, open).filter(|(_, just)| ["ממש", "קצת"].contains(just)) =>
        {
            return Some((at..range.end, Side::JustBefore));
        }
        "before" | "לפני" => Side::Before,
        "עד" | "ועד" => {
            // "ממרץ עד מאי": the month the word before carries with מ ("from") opens it.
            let from = word_before(query, open).and_then(|(start, word)| {
                let month = he::month_named(word.strip_prefix('מ')?)?;
                Some((start, month))
            });
            if let Some((start, month)) = from {
                return Some((start..range.end, Side::FromMonth(month)));
            }
            Side::Until
        }
        "until" | "till" | "til" => Side::Until,
        "after" | "אחרי" => Side::After,
        "around" | "בסביבות" | "סביב" => Side::Around,
        // Two words: "prior to A", "up to A".
        "to" => {
            let (first, word) = word_before(query, open)?;
            // "the run-up to A", "the lead-up to A": the days just before it.
            // Compared as ASCII bytes, so that the start found is a character boundary.
            let head = &query.as_bytes()[..first];
            let lead = ["run-", "run ", "lead-", "lead ", "build-", "build "]
                .iter()
                .find(|lead| {
                    let Some(start) = head.len().checked_sub(lead.len()) else {
                        return false;
                    };
                    // A word of its own: no letter or digit (of any script) before it. The
                    // bytes matched are ASCII, so `start` is a character boundary.
                    head[start..].eq_ignore_ascii_case(lead.as_bytes())
                        && query[..start]
                            .chars()
                            .next_back()
                            .is_none_or(|c| !c.is_alphanumeric())
                })
                .map(|lead| first - lead.len());
            let side = match word.to_lowercase().as_str() {
                "prior" => Side::Before,
                "up" if let Some(lead) = lead => return Some((lead..range.end, Side::JustBefore)),
                "up" => Side::Until,
                _ => return None,
            };
            return Some((first..range.end, side));
        }
        // "earlier than A", "later than A".
        "than" => {
            let (first, word) = word_before(query, open)?;
            let side = match word.to_lowercase().as_str() {
                "earlier" | "sooner" => Side::Before,
                "later" => Side::After,
                _ => return None,
            };
            return Some((first..range.end, side));
        }
        _ => return None,
    };
    Some((open..range.end, side))
}

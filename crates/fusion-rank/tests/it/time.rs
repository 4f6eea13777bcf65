//! Time expressions of recall queries: a table of English, Japanese and Hebrew expressions
//! resolved against a fixed reference, queries that name no time, and properties over
//! generated queries.

use chrono::{Datelike, NaiveDate, NaiveDateTime};
use fusion_rank::{Period, TimeMention, resolve_time, without_spans};
use proptest::prelude::*;
use std::ops::Range;

/// Wednesday 2026-12-02 15:30 UTC.
const REFERENCE: &str = "2026-12-02T15:30";

/// Milliseconds since the epoch of `2026-12-02` (midnight) or `2026-12-02T15:30`, UTC.
fn ms(text: &str) -> i64 {
    let instant = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M").unwrap_or_else(|_| {
        NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .unwrap_or_else(|e| panic!("bad date {text}: {e}"))
            .into()
    });
    instant.and_utc().timestamp_millis()
}

fn period(start: &str, end: &str) -> Period {
    Period {
        start_ms: ms(start),
        end_ms: ms(end),
    }
}

/// Query, start and end of the period it names at [`REFERENCE`].
const CASES: &[(&str, &str, &str)] = &[
    // Hebrew dotted dates without a year where the phrase ends, the first of a month, "about
    // April".
    ("מה בישלתי ב-15.3?", "2026-03-15", "2026-03-16"),
    ("תראה לי את הפתקים ב-1.12", "2026-12-01", "2026-12-02"),
    ("מה שמרתי בתאריך 1.3", "2026-03-01", "2026-03-02"),
    ("מ-1.3 עד 15.3", "2026-03-01", "2026-03-16"),
    ("כמה הוצאתי בראשון לדצמבר?", "2026-12-01", "2026-12-02"),
    ("איפה היינו בסביבות אפריל?", "2026-04-01", "2026-05-01"),
    // "Around" a day widens it by three days each side.
    (
        "around March 10 I wrote about a plumber",
        "2026-03-07",
        "2026-03-14",
    ),
    ("3月10日頃に書いたメモ", "2026-03-07", "2026-03-14"),
    ("בסביבות ה-10 בנובמבר", "2026-11-07", "2026-11-14"),
    // Notes "from" a month in Hebrew are that month's, as in English.
    ("הפתקים מאוקטובר על הבית", "2026-10-01", "2026-11-01"),
    ("הפתקים מהחודש שעבר על הבריאות", "2026-11-01", "2026-12-01"),
    ("בדיוק לפני שנה", "2025-12-02", "2025-12-03"),
    // 前後 after a holiday is "about" it, not "before" it.
    ("お盆前後", "2026-08-13", "2026-08-17"),
    // A month after "my" before a word for notes.
    (
        "show me my October notes about the house",
        "2026-10-01",
        "2026-11-01",
    ),
    // English.
    ("the week before last", "2026-11-16", "2026-11-23"),
    ("the month before last", "2026-10-01", "2026-11-01"),
    ("the year before last", "2024-01-01", "2025-01-01"),
    ("over the weekend", "2026-11-28", "2026-11-30"),
    ("an hour ago", "2026-12-02T13:30", "2026-12-02T15:30"),
    ("3 hours ago", "2026-12-02T11:30", "2026-12-02T13:30"),
    ("in the spring", "2026-03-01", "2026-06-01"),
    ("during the summer", "2026-06-01", "2026-09-01"),
    ("in the fall", "2026-09-01", "2026-12-01"),
    ("this winter", "2026-12-01", "2027-03-01"),
    ("last winter", "2025-12-01", "2026-03-01"),
    ("last summer", "2026-06-01", "2026-09-01"),
    ("in Q1", "2026-01-01", "2026-04-01"),
    ("Q4", "2026-10-01", "2027-01-01"),
    ("this quarter", "2026-10-01", "2027-01-01"),
    ("last quarter", "2026-07-01", "2026-10-01"),
    // The last week of a month, ordinal weeks without "the", a month that is over, a weekday
    // of a named week, quarters of a year, and counts in other words.
    ("the last week of March", "2026-03-25", "2026-04-01"),
    (
        "in the last week of February 2025",
        "2025-02-23",
        "2025-03-01",
    ),
    ("first week of April", "2026-04-01", "2026-04-08"),
    ("last December", "2025-12-01", "2026-01-01"),
    ("last March", "2026-03-01", "2026-04-01"),
    ("Monday last week", "2026-11-23", "2026-11-24"),
    ("on Tuesday of last week", "2026-11-24", "2026-11-25"),
    ("Monday this week", "2026-11-30", "2026-12-01"),
    ("Q1 2025", "2025-01-01", "2025-04-01"),
    ("in Q3 of last year", "2025-07-01", "2025-10-01"),
    ("a fortnight ago", "2026-11-16", "2026-11-23"),
    ("fifteen days ago", "2026-11-17", "2026-11-18"),
    ("twenty one days ago", "2026-11-11", "2026-11-12"),
    ("twenty-one days ago", "2026-11-11", "2026-11-12"),
    (
        "the past thirty days",
        "2026-11-02T15:30",
        "2026-12-02T15:30",
    ),
    ("couple days ago", "2026-11-30", "2026-12-01"),
    ("בין מרץ 2024 ומאי 2025", "2024-03-01", "2025-06-01"),
    // Vague counts: the units 2 to 5 back, whole.
    ("several weeks ago", "2026-10-26", "2026-11-23"),
    ("数日前", "2026-11-27", "2026-12-01"),
    ("数週間前のメモ", "2026-10-26", "2026-11-23"),
    ("数ヶ月前", "2026-07-01", "2026-11-01"),
    ("לפני כמה ימים", "2026-11-27", "2026-12-01"),
    ("לפני כמה חודשים", "2026-07-01", "2026-11-01"),
    ("what did I note a few days ago", "2026-11-27", "2026-12-01"),
    ("a few months ago", "2026-07-01", "2026-11-01"),
    ("some days ago", "2026-11-27", "2026-12-01"),
    ("the other day", "2026-11-26", "2026-12-02"),
    // A precise count stays one unit.
    ("לפני שלושה ימים", "2026-11-29", "2026-11-30"),
    ("半年前", "2026-06-01", "2026-07-01"),
    ("去年の年末", "2025-12-01", "2026-01-01"),
    ("第1四半期", "2026-01-01", "2026-04-01"),
    ("上半期", "2026-01-01", "2026-07-01"),
    ("לפני כשבוע", "2026-11-23", "2026-11-30"),
    ("בין מרץ למאי", "2026-03-01", "2026-06-01"),
    // Ranges, and a time opened up to the reference.
    ("since Monday", "2026-11-30", "2026-12-02T15:30"),
    (
        "what changed since last month",
        "2026-11-01",
        "2026-12-02T15:30",
    ),
    ("between March and May", "2026-03-01", "2026-06-01"),
    // Two times listed together, when close enough to be read as one period.
    ("in January and February", "2026-01-01", "2026-03-01"),
    ("what I said in March, April", "2026-03-01", "2026-05-01"),
    ("on Monday or Tuesday", "2026-11-30", "2026-12-02"),
    ("last week & yesterday", "2026-11-23", "2026-12-02"),
    ("1月と2月のメモ", "2026-01-01", "2026-03-01"),
    ("先週や昨日", "2026-11-23", "2026-12-02"),
    ("בינואר ובפברואר", "2026-01-01", "2026-03-01"),
    ("בינואר או בפברואר", "2026-01-01", "2026-03-01"),
    ("January – March", "2026-01-01", "2026-04-01"),
    (
        "notes from January - March on rent",
        "2026-01-01",
        "2026-04-01",
    ),
    ("the last few days of March", "2026-03-25", "2026-04-01"),
    ("the last days of February 2025", "2025-02-23", "2025-03-01"),
    ("what did I say late in October", "2026-10-21", "2026-11-01"),
    ("early in March", "2026-03-01", "2026-03-11"),
    ("early in the year", "2026-01-01", "2026-05-01"),
    ("the previous summer", "2026-06-01", "2026-09-01"),
    ("this past summer", "2026-06-01", "2026-09-01"),
    ("over the past winter", "2025-12-01", "2026-03-01"),
    ("on Friday, Saturday or Sunday", "2026-11-27", "2026-11-30"),
    (
        "on Friday, Saturday, and Sunday",
        "2026-11-27",
        "2026-11-30",
    ),
    ("on Tuesday and Monday", "2026-11-30", "2026-12-02"),
    ("2026-03-14 and 2026-03-20", "2026-03-14", "2026-03-21"),
    ("in 2024 or 2025", "2024-01-01", "2026-01-01"),
    // A year or week after the list names it for every item.
    ("in January and February 2025", "2025-01-01", "2025-03-01"),
    ("Q1 and Q2 2025", "2025-01-01", "2025-07-01"),
    (
        "in the spring and summer of 2025",
        "2025-03-01",
        "2025-09-01",
    ),
    ("Monday and Tuesday last week", "2026-11-23", "2026-11-25"),
    (
        "January, February and March 2025",
        "2025-01-01",
        "2025-04-01",
    ),
    (
        "Monday, Tuesday and Wednesday last week",
        "2026-11-23",
        "2026-11-26",
    ),
    (
        "what did I do yesterday until 5",
        "2026-12-01",
        "2026-12-02",
    ),
    ("March 3-5.", "2026-03-03", "2026-03-06"),
    ("in December and January", "2025-12-01", "2026-02-01"),
    // A word that opens the first keeps it alone.
    ("before March or April", "1970-01-01", "2026-03-01"),
    // Days of one month.
    ("March 3-5", "2026-03-03", "2026-03-06"),
    ("what did I note March 14–20?", "2026-03-14", "2026-03-21"),
    ("Oct 3 - 5", "2026-10-03", "2026-10-06"),
    ("from March 3 to 5", "2026-03-03", "2026-03-06"),
    ("between March 3 and 5th", "2026-03-03", "2026-03-06"),
    ("since March 3-5", "2026-03-03", "2026-12-02T15:30"),
    ("March 3 to 5 pm", "2026-03-03", "2026-03-04"),
    ("March 5-3", "2026-03-01", "2026-04-01"),
    ("March 3 to 5 people", "2026-03-03", "2026-03-04"),
    ("in March 1-2 people came", "2026-03-01", "2026-04-01"),
    // Too far apart: the first alone.
    ("in January and October", "2026-01-01", "2026-02-01"),
    ("yesterday or last year", "2026-12-01", "2026-12-02"),
    ("at Christmas and Easter", "2025-12-24", "2025-12-27"),
    // One day, not the month's last week.
    ("the last day of March", "2026-03-31", "2026-04-01"),
    (
        "between last week and yesterday",
        "2026-11-23",
        "2026-12-02",
    ),
    ("from Monday until yesterday", "2026-11-30", "2026-12-02"),
    ("from October to November", "2026-10-01", "2026-12-01"),
    (
        "from January through March 2026",
        "2026-01-01",
        "2026-04-01",
    ),
    ("3月から5月まで", "2026-03-01", "2026-06-01"),
    ("先週から", "2026-11-23", "2026-12-02T15:30"),
    ("先月以降の会議", "2026-11-01", "2026-12-02T15:30"),
    ("מאז ינואר", "2026-01-01", "2026-12-02T15:30"),
    ("מאז אתמול", "2026-12-01", "2026-12-02T15:30"),
    // Opened on one side: before A's start, until A's end, after A's end.
    (
        "what did I note before April about taxes",
        "1970-01-01",
        "2026-04-01",
    ),
    ("notes prior to last month", "1970-01-01", "2026-11-01"),
    ("until March", "1970-01-01", "2026-04-01"),
    ("up to last week", "1970-01-01", "2026-11-30"),
    ("after last week", "2026-11-30", "2026-12-02T15:30"),
    ("after March 2025", "2025-04-01", "2026-12-02T15:30"),
    // An event on that day, not everything before it; and no past after today.
    ("before Monday's meeting", "2026-11-30", "2026-12-01"),
    ("3月より前の会議", "1970-01-01", "2026-03-01"),
    ("3月以前", "1970-01-01", "2026-04-01"),
    ("先週まで", "1970-01-01", "2026-11-30"),
    ("先月より後", "2026-12-01", "2026-12-02T15:30"),
    ("3月以後", "2026-03-01", "2026-12-02T15:30"),
    ("לפני מרץ", "1970-01-01", "2026-03-01"),
    ("עד אפריל", "1970-01-01", "2026-05-01"),
    ("אחרי ינואר", "2026-02-01", "2026-12-02T15:30"),
    // "in/over the last week|month|year" are the days up to the reference; "last week" alone
    // the calendar week.
    ("in the last month", "2026-11-02T15:30", "2026-12-02T15:30"),
    ("over the last year", "2025-12-02T15:30", "2026-12-02T15:30"),
    ("over the last week", "2026-11-25T15:30", "2026-12-02T15:30"),
    ("the past 24 hours", "2026-12-01T15:30", "2026-12-02T15:30"),
    ("last week of October", "2026-10-25", "2026-11-01"),
    // A year, an abbreviated month or a season after the word that opens a range.
    ("since 2025", "2025-01-01", "2026-12-02T15:30"),
    ("before 2026, what did I", "1970-01-01", "2026-01-01"),
    ("since Oct", "2026-10-01", "2026-12-02T15:30"),
    ("from Sept to Dec", "2026-09-01", "2027-01-01"),
    ("before the summer", "1970-01-01", "2026-06-01"),
    ("after the summer", "2026-09-01", "2026-12-02T15:30"),
    ("since spring", "2026-03-01", "2026-12-02T15:30"),
    ("from January to now", "2026-01-01", "2026-12-02T15:30"),
    ("between October and now", "2026-10-01", "2026-12-02T15:30"),
    ("March to May", "2026-03-01", "2026-06-01"),
    // A range whose end comes first: a month not yet over is read a year earlier; a start that
    // is over runs to the end's first such after it, a range still running ("Monday to
    // Friday" on a Wednesday: this week's Monday to Friday).
    ("December to February", "2025-12-01", "2026-03-01"),
    ("from March to May 2025", "2025-03-01", "2025-06-01"),
    ("Monday to Friday schedule", "2026-11-30", "2026-12-05"),
    ("from Nov 28 to Dec 5", "2026-11-28", "2026-12-06"),
    ("from 2020 to 2022", "2020-01-01", "2023-01-01"),
    ("since 2020 to now", "2020-01-01", "2026-12-02T15:30"),
    ("3月 〜 5月", "2026-03-01", "2026-06-01"),
    // Without "from" only a month starts a range to a month name: May the person.
    (
        "what did I send last week to May",
        "2026-11-23",
        "2026-11-30",
    ),
    // A measured span from A is not everything before it; までに is a deadline.
    ("a week before March 3", "2026-03-03", "2026-03-04"),
    ("金曜日までに送る", "2026-11-27", "2026-11-28"),
    ("after the fall", "2026-12-01", "2026-12-02T15:30"),
    // Thirds of this or last month; the weekend and the night before last.
    ("at the end of last month", "2026-11-21", "2026-12-01"),
    ("early last month", "2026-11-01", "2026-11-11"),
    ("at the start of the month", "2026-12-01", "2026-12-11"),
    ("the weekend before last", "2026-11-21", "2026-11-23"),
    (
        "the night before last",
        "2026-11-30T18:00",
        "2026-12-01T06:00",
    ),
    // Holidays with fixed dates, after a word that makes them a time.
    (
        "what did I decide over Christmas",
        "2025-12-24",
        "2025-12-27",
    ),
    ("since Christmas", "2025-12-24", "2026-12-02T15:30"),
    // "Around" a single day widens it by three days each side.
    ("around Halloween", "2026-10-28", "2026-11-04"),
    ("over the weekend before last", "2026-11-21", "2026-11-23"),
    // "last" belongs to Friday.
    ("the night before last Friday", "2026-11-27", "2026-11-28"),
    ("over the holidays", "2025-12-20", "2026-01-04"),
    // A weekday before a date is that date; "this Wednesday" is today's.
    ("Thursday, November 12", "2026-11-12", "2026-11-13"),
    ("on Thursday the 12th", "2026-11-12", "2026-11-13"),
    ("this Wednesday", "2026-12-02", "2026-12-03"),
    ("this Monday", "2026-11-30", "2026-12-01"),
    ("先週末", "2026-11-28", "2026-11-30"),
    ("去年の上半期", "2025-01-01", "2025-07-01"),
    ("前四半期", "2026-07-01", "2026-10-01"),
    ("一月前", "2026-11-01", "2026-12-01"),
    ("3月〜5月", "2026-03-01", "2026-06-01"),
    ("過去1週間", "2026-11-25T15:30", "2026-12-02T15:30"),
    ("ここ数日", "2026-11-29T15:30", "2026-12-02T15:30"),
    ("ממרץ עד מאי", "2026-03-01", "2026-06-01"),
    ("בנובמבר שעבר", "2026-11-01", "2026-12-01"),
    ("ביום שני בשבוע שעבר", "2026-11-23", "2026-11-24"),
    ("בשבוע האחרון", "2026-11-25T15:30", "2026-12-02T15:30"),
    ("בשנה האחרונה", "2025-12-02T15:30", "2026-12-02T15:30"),
    ("לפני חצי שנה", "2026-06-01", "2026-07-01"),
    // Halves of a year.
    ("in the first half of the year", "2026-01-01", "2026-07-01"),
    ("the second half of last year", "2025-07-01", "2026-01-01"),
    ("first half of 2025", "2025-01-01", "2025-07-01"),
    ("today", "2026-12-02", "2026-12-03"),
    ("Today's standup notes", "2026-12-02", "2026-12-03"),
    ("yesterday", "2026-12-01", "2026-12-02"),
    ("the day before yesterday", "2026-11-30", "2026-12-01"),
    ("this morning", "2026-12-02T00:00", "2026-12-02T12:00"),
    ("this afternoon", "2026-12-02T12:00", "2026-12-02T18:00"),
    ("last night", "2026-12-01T18:00", "2026-12-02T06:00"),
    ("yesterday morning", "2026-12-01T00:00", "2026-12-01T12:00"),
    ("3 days ago", "2026-11-29", "2026-11-30"),
    ("a day ago", "2026-12-01", "2026-12-02"),
    ("a week ago", "2026-11-23", "2026-11-30"),
    ("two weeks ago", "2026-11-16", "2026-11-23"),
    ("a couple of months ago", "2026-10-01", "2026-11-01"),
    ("twelve months ago", "2025-12-01", "2026-01-01"),
    ("a few years ago", "2021-01-01", "2025-01-01"),
    ("three years ago", "2023-01-01", "2024-01-01"),
    // "previous", "prior" and "preceding" as "last".
    ("the previous week", "2026-11-23", "2026-11-30"),
    ("in the prior month", "2026-11-01", "2026-12-01"),
    ("previous year", "2025-01-01", "2026-01-01"),
    ("the preceding quarter", "2026-07-01", "2026-10-01"),
    // Quarters by ordinal.
    ("in the first quarter", "2026-01-01", "2026-04-01"),
    ("the third quarter of 2025", "2025-07-01", "2025-10-01"),
    (
        "the second quarter of last year",
        "2025-04-01",
        "2025-07-01",
    ),
    ("the 4th quarter of this year", "2026-10-01", "2027-01-01"),
    ("Q2 of this year", "2026-04-01", "2026-07-01"),
    ("mid-2025", "2025-05-01", "2025-09-01"),
    ("the first half of the month", "2026-12-01", "2026-12-16"),
    ("the second half of last month", "2026-11-16", "2026-12-01"),
    // Holidays that move, and through an apostrophe.
    ("over Easter", "2026-04-03", "2026-04-07"),
    ("at Easter Monday", "2026-04-06", "2026-04-07"),
    ("since Good Friday", "2026-04-03", "2026-12-02T15:30"),
    ("over Thanksgiving", "2026-11-26", "2026-11-30"),
    ("at Thanksgiving dinner", "2026-11-26", "2026-11-30"),
    ("during Thanksgiving Day", "2026-11-26", "2026-11-27"),
    ("between Christmas and New Year", "2025-12-24", "2026-01-02"),
    ("from Christmas to New Year's", "2025-12-24", "2026-01-02"),
    ("after New Year's Eve", "2026-01-01", "2026-12-02T15:30"),
    ("around New Year\u{2019}s Day", "2025-12-29", "2026-01-05"),
    // A holiday followed by a year is that year's.
    ("at Easter last year", "2025-04-18", "2025-04-22"),
    ("over Thanksgiving 2025", "2025-11-27", "2025-12-01"),
    ("at Christmas 2024", "2024-12-24", "2024-12-27"),
    (
        "from Christmas to New Year's Eve",
        "2025-12-24",
        "2026-01-01",
    ),
    // "before last" and "of" after a part are not this year's or this month's.
    (
        "the first half of the month before last",
        "2026-10-01",
        "2026-11-01",
    ),
    ("Q3 of the year before last", "2024-01-01", "2025-01-01"),
    (
        "the first quarter of the year 2025",
        "2025-01-01",
        "2025-04-01",
    ),
    // Units back, thirds of a week, hours, a fortnight, this time last year.
    ("two weeks back", "2026-11-16", "2026-11-23"),
    ("a few years back", "2021-01-01", "2025-01-01"),
    ("early last week", "2026-11-23", "2026-11-26"),
    ("the end of last week", "2026-11-26", "2026-11-30"),
    ("at the start of the week", "2026-11-30", "2026-12-03"),
    (
        "in the last 48 hours",
        "2026-11-30T15:30",
        "2026-12-02T15:30",
    ),
    ("the past fortnight", "2026-11-18T15:30", "2026-12-02T15:30"),
    ("around this time last year", "2025-11-18", "2025-12-17"),
    // "last" before a holiday; US holidays on a Monday; the Fourth of July.
    ("what did we do last Christmas", "2025-12-24", "2025-12-27"),
    ("last Thanksgiving", "2026-11-26", "2026-11-30"),
    ("over Memorial Day weekend", "2026-05-23", "2026-05-26"),
    ("since Labor Day", "2026-09-07", "2026-12-02T15:30"),
    ("on the Fourth of July", "2026-07-04", "2026-07-05"),
    ("the fourth of July 2024", "2024-07-04", "2024-07-05"),
    // Ranges between holidays; a holiday after "to" or "and" is read only as a range's end.
    ("from Memorial Day to Labor Day", "2026-05-25", "2026-09-08"),
    ("between Christmas and Easter", "2025-12-24", "2026-04-07"),
    ("from Thanksgiving to Christmas", "2025-11-27", "2025-12-27"),
    (
        "from Easter 2025 to Thanksgiving 2025",
        "2025-04-18",
        "2025-12-01",
    ),
    ("the past hour", "2026-12-02T14:30", "2026-12-02T15:30"),
    ("this week", "2026-11-30", "2026-12-07"),
    ("earlier this week", "2026-11-30", "2026-12-07"),
    ("last week", "2026-11-23", "2026-11-30"),
    ("the past week", "2026-11-25T15:30", "2026-12-02T15:30"),
    ("this month", "2026-12-01", "2027-01-01"),
    ("last month", "2026-11-01", "2026-12-01"),
    ("this year", "2026-01-01", "2027-01-01"),
    ("last year", "2025-01-01", "2026-01-01"),
    ("last weekend", "2026-11-28", "2026-11-30"),
    ("this weekend", "2026-11-28", "2026-11-30"),
    ("the past 10 days", "2026-11-22T15:30", "2026-12-02T15:30"),
    (
        "in the last three days",
        "2026-11-29T15:30",
        "2026-12-02T15:30",
    ),
    ("on Monday", "2026-11-30", "2026-12-01"),
    ("last Friday", "2026-11-27", "2026-11-28"),
    ("Wednesday", "2026-11-25", "2026-11-26"),
    ("SUNDAY", "2026-11-29", "2026-11-30"),
    ("in March", "2026-03-01", "2026-04-01"),
    ("in May", "2026-05-01", "2026-06-01"),
    ("March 2025", "2025-03-01", "2025-04-01"),
    ("in Sept 2024", "2024-09-01", "2024-10-01"),
    ("March 3", "2026-03-03", "2026-03-04"),
    ("on December 5th", "2025-12-05", "2025-12-06"),
    ("2 December", "2026-12-02", "2026-12-03"),
    ("on the 1st of May", "2026-05-01", "2026-05-02"),
    ("May 3, 2024", "2024-05-03", "2024-05-04"),
    ("Feb 29", "2024-02-29", "2024-03-01"),
    ("2026-11-03", "2026-11-03", "2026-11-04"),
    ("(2026-11)", "2026-11-01", "2026-12-01"),
    ("in 2025", "2025-01-01", "2026-01-01"),
    ("during 2024", "2024-01-01", "2025-01-01"),
    ("March forward", "2026-03-01", "2026-04-01"),
    ("dentist, last week?", "2026-11-23", "2026-11-30"),
    // A month or a season of a year named by "last year"/"this year" or a number.
    ("November last year", "2025-11-01", "2025-12-01"),
    ("in March of last year", "2025-03-01", "2025-04-01"),
    ("in may this year", "2026-05-01", "2026-06-01"),
    ("the summer of 2025", "2025-06-01", "2025-09-01"),
    ("in the spring of last year", "2025-03-01", "2025-06-01"),
    ("winter 2024", "2024-12-01", "2025-03-01"),
    ("the fall this year", "2026-09-01", "2026-12-01"),
    // Thirds of a month.
    ("in early March", "2026-03-01", "2026-03-11"),
    ("mid-November", "2026-11-11", "2026-11-21"),
    ("mid November", "2026-11-11", "2026-11-21"),
    ("late October", "2026-10-21", "2026-11-01"),
    ("late February 2024", "2024-02-21", "2024-03-01"),
    ("in early May", "2026-05-01", "2026-05-11"),
    ("at the beginning of March", "2026-03-01", "2026-03-11"),
    ("the end of October", "2026-10-21", "2026-11-01"),
    ("in the middle of November 2025", "2025-11-11", "2025-11-21"),
    ("the first week of November", "2026-11-01", "2026-11-08"),
    (
        "during the second week of October",
        "2026-10-08",
        "2026-10-15",
    ),
    ("the 4th week of May", "2026-05-22", "2026-05-29"),
    ("the second half of September", "2026-09-16", "2026-10-01"),
    (
        "the first half of February 2024",
        "2024-02-01",
        "2024-02-16",
    ),
    ("on the 14th", "2026-11-14", "2026-11-15"),
    ("on the 2nd", "2026-12-02", "2026-12-03"),
    ("on the 31st", "2026-10-31", "2026-11-01"),
    (
        "what did I note on the 14th about the dentist",
        "2026-11-14",
        "2026-11-15",
    ),
    ("on the 14th, the dentist", "2026-11-14", "2026-11-15"),
    ("the week of November 9", "2026-11-09", "2026-11-16"),
    (
        "during the week of the 12th of November",
        "2026-11-09",
        "2026-11-16",
    ),
    ("the week of March 4, 2025", "2025-03-03", "2025-03-10"),
    ("the week of December 4", "2026-11-30", "2026-12-07"),
    ("week of 9 November", "2026-11-09", "2026-11-16"),
    (
        "the week of the 12th of November 2025",
        "2025-11-10",
        "2025-11-17",
    ),
    (
        "the beginning of the year before last",
        "2024-01-01",
        "2024-05-01",
    ),
    ("the beginning of the year 2025", "2025-01-01", "2025-05-01"),
    ("in the middle of 2025", "2025-05-01", "2025-09-01"),
    ("late 2025", "2025-09-01", "2026-01-01"),
    ("the end of last year's budget", "2025-01-01", "2026-01-01"),
    // Thirds of a year.
    ("early this year", "2026-01-01", "2026-05-01"),
    ("early last year", "2025-01-01", "2025-05-01"),
    ("late last year", "2025-09-01", "2026-01-01"),
    ("at the beginning of the year", "2026-01-01", "2026-05-01"),
    ("in the middle of the year", "2026-05-01", "2026-09-01"),
    ("the end of last year", "2025-09-01", "2026-01-01"),
    // A part of a month that has not begun is last year's.
    ("late December", "2025-12-21", "2026-01-01"),
    ("the second week of December", "2025-12-08", "2025-12-15"),
    ("early December", "2026-12-01", "2026-12-11"),
    // "fall" is the season only after a word that makes it one.
    ("in fall 2025", "2025-09-01", "2025-12-01"),
    ("the fall of last year", "2025-09-01", "2025-12-01"),
    ("did sales fall last year", "2025-01-01", "2026-01-01"),
    ("I had a fall last year", "2025-01-01", "2026-01-01"),
    // Months and years up to the reference.
    (
        "in the past 3 months",
        "2026-09-02T15:30",
        "2026-12-02T15:30",
    ),
    ("the last two years", "2024-12-02T15:30", "2026-12-02T15:30"),
    (
        "during the past year",
        "2025-12-02T15:30",
        "2026-12-02T15:30",
    ),
    (
        "over the past month",
        "2026-11-02T15:30",
        "2026-12-02T15:30",
    ),
    ("half a year ago", "2026-06-01", "2026-07-01"),
    ("this past weekend", "2026-11-28", "2026-11-30"),
    // Japanese.
    ("今日", "2026-12-02", "2026-12-03"),
    ("本日の会議", "2026-12-02", "2026-12-03"),
    ("昨日", "2026-12-01", "2026-12-02"),
    ("きのう", "2026-12-01", "2026-12-02"),
    ("一昨日", "2026-11-30", "2026-12-01"),
    ("おととい", "2026-11-30", "2026-12-01"),
    ("今朝", "2026-12-02T00:00", "2026-12-02T12:00"),
    ("昨夜", "2026-12-01T18:00", "2026-12-02T06:00"),
    ("昨晩", "2026-12-01T18:00", "2026-12-02T06:00"),
    ("先週", "2026-11-23", "2026-11-30"),
    ("今週", "2026-11-30", "2026-12-07"),
    ("先月", "2026-11-01", "2026-12-01"),
    ("今月", "2026-12-01", "2027-01-01"),
    ("去年", "2025-01-01", "2026-01-01"),
    ("昨年", "2025-01-01", "2026-01-01"),
    ("今年", "2026-01-01", "2027-01-01"),
    ("3日前", "2026-11-29", "2026-11-30"),
    ("３日前", "2026-11-29", "2026-11-30"),
    ("三日前", "2026-11-29", "2026-11-30"),
    ("2週間前", "2026-11-16", "2026-11-23"),
    ("2か月前", "2026-10-01", "2026-11-01"),
    ("2ヶ月前", "2026-10-01", "2026-11-01"),
    ("2カ月前", "2026-10-01", "2026-11-01"),
    ("十年前", "2016-01-01", "2017-01-01"),
    ("3月の予定", "2026-03-01", "2026-04-01"),
    ("十二月", "2026-12-01", "2027-01-01"),
    ("12月3日", "2025-12-03", "2025-12-04"),
    ("2025年3月3日", "2025-03-03", "2025-03-04"),
    ("2025年3月", "2025-03-01", "2025-04-01"),
    ("2025年", "2025-01-01", "2026-01-01"),
    ("月曜日", "2026-11-30", "2026-12-01"),
    ("水曜に", "2026-11-25", "2026-11-26"),
    ("先週の月曜日", "2026-11-23", "2026-11-24"),
    ("先週の歯医者のメモ", "2026-11-23", "2026-11-30"),
    ("去年の夏", "2025-06-01", "2025-09-01"),
    ("今年の春の旅行", "2026-03-01", "2026-06-01"),
    ("2025年の秋", "2025-09-01", "2025-12-01"),
    ("去年の3月", "2025-03-01", "2025-04-01"),
    ("昨年11月", "2025-11-01", "2025-12-01"),
    ("一昨年の冬", "2024-12-01", "2025-03-01"),
    ("2025年の3月", "2025-03-01", "2025-04-01"),
    ("3月下旬", "2026-03-21", "2026-04-01"),
    ("2025年3月上旬の会議", "2025-03-01", "2025-03-11"),
    ("10月中旬", "2026-10-11", "2026-10-21"),
    ("2025年の5月末", "2025-05-21", "2025-06-01"),
    ("3月初めの会議", "2026-03-01", "2026-03-11"),
    ("3月初めて東京に行った", "2026-03-01", "2026-04-01"),
    ("4月はじめた仕事", "2026-04-01", "2026-05-01"),
    ("去年の夏休み", "2025-06-01", "2025-09-01"),
    ("去年秋葉原で買った", "2025-01-01", "2026-01-01"),
    ("去年の秋田出張", "2025-01-01", "2026-01-01"),
    // Hebrew.
    ("היום", "2026-12-02", "2026-12-03"),
    ("אתמול", "2026-12-01", "2026-12-02"),
    ("שלשום", "2026-11-30", "2026-12-01"),
    ("הבוקר", "2026-12-02T00:00", "2026-12-02T12:00"),
    ("אמש", "2026-12-01T18:00", "2026-12-02T06:00"),
    ("בשבוע שעבר", "2026-11-23", "2026-11-30"),
    ("שבוע שעבר", "2026-11-23", "2026-11-30"),
    ("השבוע", "2026-11-30", "2026-12-07"),
    ("בחודש שעבר", "2026-11-01", "2026-12-01"),
    ("החודש", "2026-12-01", "2027-01-01"),
    ("בשנה שעברה", "2025-01-01", "2026-01-01"),
    ("השנה", "2026-01-01", "2027-01-01"),
    ("לפני 3 ימים", "2026-11-29", "2026-11-30"),
    ("לפני שלושה שבועות", "2026-11-09", "2026-11-16"),
    ("לפני חמש שנים", "2021-01-01", "2022-01-01"),
    ("לפני יומיים", "2026-11-30", "2026-12-01"),
    ("לפני שבועיים", "2026-11-16", "2026-11-23"),
    ("לפני חודשיים", "2026-10-01", "2026-11-01"),
    ("לפני שנתיים", "2024-01-01", "2025-01-01"),
    ("לפני שבוע", "2026-11-23", "2026-11-30"),
    ("לפני חודש", "2026-11-01", "2026-12-01"),
    ("לפני שנה", "2025-01-01", "2026-01-01"),
    ("במרץ", "2026-03-01", "2026-04-01"),
    ("מרץ 2026", "2026-03-01", "2026-04-01"),
    ("מאז מרץ", "2026-03-01", "2026-12-02T15:30"),
    ("מה כתבתי בחודש מרץ?", "2026-03-01", "2026-04-01"),
    ("ביוני", "2026-06-01", "2026-07-01"),
    ("ביום שני", "2026-11-30", "2026-12-01"),
    ("יום שישי", "2026-11-27", "2026-11-28"),
    ("ב-2025", "2025-01-01", "2026-01-01"),
    ("בשנת 2024", "2024-01-01", "2025-01-01"),
    ("ב-3 במרץ 2025", "2025-03-03", "2025-03-04"),
    ("בקיץ שעבר", "2026-06-01", "2026-09-01"),
    ("בחורף 2025", "2025-12-01", "2026-03-01"),
    ("בסתיו בשנה שעברה", "2025-09-01", "2025-12-01"),
    ("במרץ שנה שעברה", "2025-03-01", "2025-04-01"),
    ("בנובמבר אשתקד", "2025-11-01", "2025-12-01"),
    ("באביב שעבר", "2026-03-01", "2026-06-01"),
    ("בתחילת מרץ", "2026-03-01", "2026-03-11"),
    ("באמצע נובמבר", "2026-11-11", "2026-11-21"),
    ("בסוף אוקטובר 2025", "2025-10-21", "2025-11-01"),
    ("בסוף, במרץ עברנו דירה", "2026-03-01", "2026-04-01"),
    ("בסוף יוני 2025", "2025-06-21", "2025-07-01"),
    ("על תל אביב בשנה שעברה", "2025-01-01", "2026-01-01"),
    (
        "מה רשמתי על רופא השיניים בשבוע שעבר?",
        "2026-11-23",
        "2026-11-30",
    ),
    // A range's end named without a year is the first one after its start; a year named
    // before a list reaches every item.
    ("from March 2025 to June", "2025-03-01", "2025-07-01"),
    (
        "between November 2024 and February",
        "2024-11-01",
        "2025-03-01",
    ),
    ("2025年3月から6月まで", "2025-03-01", "2025-07-01"),
    ("2025年11月から2月", "2025-11-01", "2026-03-01"),
    ("2025年3月と4月", "2025-03-01", "2025-05-01"),
    ("2025年3月と4月と5月", "2025-03-01", "2025-06-01"),
    ("from 2024 to March", "2024-01-01", "2026-04-01"),
    // Days and weeks counted from a month's start or back from its end.
    (
        "during the last two weeks of October",
        "2026-10-18",
        "2026-11-01",
    ),
    (
        "in the first two weeks of November",
        "2026-11-01",
        "2026-11-15",
    ),
    ("the first 10 days of March", "2026-03-01", "2026-03-11"),
    (
        "the last 3 days of February 2025",
        "2025-02-27",
        "2025-03-01",
    ),
    // The beginning, middle and end of a month without "the".
    ("end of October", "2026-10-21", "2026-11-01"),
    ("start of October 2025", "2025-10-01", "2025-10-11"),
    ("by the end of October", "2026-10-21", "2026-11-01"),
    // Holidays after "on".
    ("on New Year's Eve", "2025-12-31", "2026-01-01"),
    ("on Valentine's Day", "2026-02-14", "2026-02-15"),
    ("on Boxing Day", "2025-12-26", "2025-12-27"),
    ("on Halloween", "2026-10-31", "2026-11-01"),
    ("what did we buy on Christmas?", "2025-12-24", "2025-12-27"),
    // Abbreviations with a full stop, and longer weekday abbreviations.
    ("on Sept. 3rd", "2026-09-03", "2026-09-04"),
    ("in Nov. 2025", "2025-11-01", "2025-12-01"),
    ("last Thurs", "2026-11-26", "2026-11-27"),
    // Numeric dates: year first with a slash or a stop; month and day with a slash after "on"
    // or an opening word, the month first unless only the day can be one, or with a year.
    ("on 2026/11/03", "2026-11-03", "2026-11-04"),
    ("on 2026.11.03", "2026-11-03", "2026-11-04"),
    ("on 11/3", "2026-11-03", "2026-11-04"),
    ("on 25/12", "2025-12-25", "2025-12-26"),
    ("since 3/15", "2026-03-15", "2026-12-02T15:30"),
    ("11/3/2026", "2026-11-03", "2026-11-04"),
    // A season or "May" as a list's later item.
    ("last summer and fall", "2026-06-01", "2026-12-01"),
    ("in the spring or summer", "2026-03-01", "2026-09-01"),
    ("in March and May", "2026-03-01", "2026-06-01"),
    ("in April or May?", "2026-04-01", "2026-06-01"),
    ("in March and may I ask", "2026-03-01", "2026-04-01"),
    ("in April and May last year", "2025-04-01", "2025-06-01"),
    ("in the summer and fall of 2025", "2025-06-01", "2025-12-01"),
    ("in spring or fall 2025", "2025-03-01", "2025-12-01"),
    (
        "in the summer and fall last year",
        "2025-06-01",
        "2025-12-01",
    ),
    // Slashed dates as a range's or a list's items; an abbreviation's stop before "to".
    ("from 11/3 until 11/10", "2026-11-03", "2026-11-11"),
    ("between 12/20 and 1/5", "2025-12-20", "2026-01-06"),
    ("on 11/3 and 11/4", "2026-11-03", "2026-11-05"),
    ("from Sept. to Nov.", "2026-09-01", "2026-12-01"),
    ("January – now", "2026-01-01", "2026-12-02T15:30"),
    // Days of a month named after the two days; the end of this year; the last quarter of one.
    (
        "what happened between the 10th and the 20th of October",
        "2026-10-10",
        "2026-10-21",
    ),
    (
        "from the 10th until the 20th of October",
        "2026-10-10",
        "2026-10-21",
    ),
    (
        "the 3rd through the 9th of March 2025",
        "2025-03-03",
        "2025-03-10",
    ),
    ("from October 10th to the 20th", "2026-10-10", "2026-10-21"),
    // The last day must end the phrase: this is October 10 alone.
    ("from October 10 to 20 people", "2026-10-10", "2026-10-11"),
    ("at the end of the year", "2026-09-01", "2027-01-01"),
    ("late this year", "2026-09-01", "2027-01-01"),
    (
        "during the last quarter of 2025",
        "2025-10-01",
        "2026-01-01",
    ),
    (
        "in the last quarter of the year, any notes on bonuses?",
        "2026-10-01",
        "2027-01-01",
    ),
    // ASCII written against Japanese is a word of its own.
    ("2026/11/03のメモ", "2026-11-03", "2026-11-04"),
    ("Q3の予算", "2026-07-01", "2026-10-01"),
    // Japanese seasons, parts of a year, a month range with one 月.
    ("春に庭について何を書いた？", "2026-03-01", "2026-06-01"),
    ("この夏", "2026-06-01", "2026-09-01"),
    ("今年の上半期", "2026-01-01", "2026-07-01"),
    ("年の初めに", "2026-01-01", "2026-05-01"),
    ("去年の第4四半期", "2025-10-01", "2026-01-01"),
    ("週末に何をした？", "2026-11-28", "2026-11-30"),
    ("7〜9月の予算", "2026-07-01", "2026-10-01"),
    // Hebrew seasons with ב, parts of the year and month, quarters, recent weeks.
    ("מה כתבתי על הגינה באביב?", "2026-03-01", "2026-06-01"),
    ("בקיץ", "2026-06-01", "2026-09-01"),
    ("בתחילת השנה, מה תכננתי?", "2026-01-01", "2026-05-01"),
    ("בסוף השנה שעברה", "2025-09-01", "2026-01-01"),
    ("בסוף החודש שעבר", "2026-11-21", "2026-12-01"),
    ("במחצית הראשונה של השנה", "2026-01-01", "2026-07-01"),
    ("ברבעון השלישי", "2026-07-01", "2026-10-01"),
    ("ברבעון הקודם", "2026-07-01", "2026-10-01"),
    ("בשבועות האחרונים", "2026-11-11T15:30", "2026-12-02T15:30"),
    ("בחצי השנה האחרונה", "2026-06-02T15:30", "2026-12-02T15:30"),
    ("בשבת", "2026-11-28", "2026-11-29"),
    ("בסוף השבוע", "2026-11-28", "2026-11-30"),
    // A holiday after "on" with its year.
    ("on Christmas 2024", "2024-12-24", "2024-12-27"),
    (
        "what did I do on Christmas Day?",
        "2025-12-25",
        "2025-12-26",
    ),
    ("year to date", "2026-01-01", "2027-01-01"),
    // Thirds of a season, each a month.
    ("in early spring", "2026-03-01", "2026-04-01"),
    ("what happened in late summer", "2026-08-01", "2026-09-01"),
    ("mid-summer", "2026-07-01", "2026-08-01"),
    ("in late fall", "2026-11-01", "2026-12-01"),
    ("in early winter", "2026-12-01", "2027-01-01"),
    ("late winter", "2026-02-01", "2026-03-01"),
    ("late in the summer", "2026-08-01", "2026-09-01"),
    ("the beginning of summer", "2026-06-01", "2026-07-01"),
    ("at the start of the winter", "2026-12-01", "2027-01-01"),
    ("by the end of summer", "2026-08-01", "2026-09-01"),
    ("early summer 2025", "2025-06-01", "2025-07-01"),
    ("the end of the summer of 2025", "2025-08-01", "2025-09-01"),
    ("late winter 2025", "2026-02-01", "2026-03-01"),
    // Months joined by a hyphen, or a dash to an abbreviation.
    ("September-November", "2026-09-01", "2026-12-01"),
    ("notes from January-March 2025", "2025-01-01", "2025-04-01"),
    ("in Sep-Nov", "2026-09-01", "2026-12-01"),
    ("in Oct–Dec", "2026-10-01", "2027-01-01"),
    ("in Sep - Nov", "2026-09-01", "2026-12-01"),
    // As a range of two expressions: from a start that is over, a range still running; a
    // start that has not ended, with an end to come, is read a year earlier.
    ("in Nov-Jan", "2026-11-01", "2027-02-01"),
    ("in November-January", "2026-11-01", "2027-02-01"),
    ("from November to may", "2026-11-01", "2027-06-01"),
    ("in Dec - Feb", "2025-12-01", "2026-03-01"),
    ("in December-February", "2025-12-01", "2026-03-01"),
    // Open to now after: "onwards", "from … on", "starting (in)".
    ("from October onwards", "2026-10-01", "2026-12-02T15:30"),
    ("October onward", "2026-10-01", "2026-12-02T15:30"),
    ("notes from October on", "2026-10-01", "2026-12-02T15:30"),
    ("starting in October", "2026-10-01", "2026-12-02T15:30"),
    (
        "notes from Monday on the dentist",
        "2026-11-30",
        "2026-12-01",
    ),
    // Anchored days, recent weeks, the year's earlier part, short words.
    ("same time last year", "2025-11-18", "2025-12-17"),
    ("a year ago today", "2025-12-02", "2025-12-03"),
    ("a week ago today", "2026-11-25", "2026-11-26"),
    (
        "anything about the trip earlier than September?",
        "1970-01-01",
        "2026-09-01",
    ),
    ("later than March", "2026-04-01", "2026-12-02T15:30"),
    (
        "last year's Christmas trip notes",
        "2025-12-24",
        "2025-12-27",
    ),
    (
        "Any notes from the weekend about the lease?",
        "2026-11-28",
        "2026-11-30",
    ),
    (
        "What did I write last week Friday about the lease?",
        "2026-11-27",
        "2026-11-28",
    ),
    // More Hebrew: Friday and Thursday with ב alone, parts and halves of a named month, this
    // time last year, "exactly a week ago", the 25th, before or after the summer, "from March".
    ("מה בישלתי בשישי?", "2026-11-27", "2026-11-28"),
    ("מה רשמתי על הפגישה בחמישי?", "2026-11-26", "2026-11-27"),
    (
        "מה עשיתי בחדר כושר בין יוני לאוגוסט?",
        "2026-06-01",
        "2026-09-01",
    ),
    (
        "מה רשמתי על הפגישה בתחילת חודש מאי?",
        "2026-05-01",
        "2026-05-11",
    ),
    ("מה קניתי בחצי הראשון של מרץ?", "2026-03-01", "2026-03-16"),
    (
        "על מה דיברתי עם אמא בחצי השני של נובמבר?",
        "2026-11-16",
        "2026-12-01",
    ),
    ("מה קניתי באותו זמן בשנה שעברה?", "2025-11-18", "2025-12-17"),
    (
        "על מה דיברתי עם אמא בתקופה הזאת בשנה שעברה?",
        "2025-11-18",
        "2025-12-17",
    ),
    (
        "מה החלטתי על השכירות לפני שבוע בדיוק?",
        "2026-11-25",
        "2026-11-26",
    ),
    ("מה רשמתי על הפגישה ב-25 לחודש?", "2026-11-25", "2026-11-26"),
    ("מה קניתי בתחילת השבוע?", "2026-11-30", "2026-12-03"),
    (
        "מה החלטתי על השכירות לפני הקיץ?",
        "1970-01-01",
        "2026-06-01",
    ),
    (
        "על מה דיברתי עם אמא אחרי הקיץ?",
        "2026-09-01",
        "2026-12-02T15:30",
    ),
    (
        "ממרץ קבעתי משהו עם רואה החשבון?",
        "2026-03-01",
        "2026-12-02T15:30",
    ),
    // Japanese holidays before a particle or a mark.
    ("クリスマスに決めた旅行の予定", "2025-12-24", "2025-12-27"),
    ("GWに決めた旅行の予定", "2026-04-29", "2026-05-06"),
    ("去年のクリスマス", "2025-12-24", "2025-12-27"),
    ("大晦日は何をした", "2025-12-31", "2026-01-01"),
    ("ハロウィンに作った料理のレシピ", "2026-10-31", "2026-11-01"),
    ("元旦に書いた目標", "2026-01-01", "2026-01-02"),
    ("今年のGWに", "2026-04-29", "2026-05-06"),
    // Holidays with a place or a time of day after them, named without "on", or by their
    // place in a month; the weekend since or before; "the other week"; "the month of May";
    // "just over … ago" (about that long); a range of days of the latest month.
    (
        "what did I eat on Christmas Day at grandma's?",
        "2025-12-25",
        "2025-12-26",
    ),
    (
        "what did I do on Halloween night?",
        "2026-10-31",
        "2026-11-01",
    ),
    (
        "what did I do on Christmas morning?",
        "2025-12-24",
        "2025-12-27",
    ),
    ("did I go out New Year's Eve?", "2025-12-31", "2026-01-01"),
    ("what did I do Christmas Day?", "2025-12-25", "2025-12-26"),
    (
        "On Good Friday, what was the plan for the bathroom?",
        "2026-04-03",
        "2026-04-04",
    ),
    ("over the Easter weekend", "2026-04-03", "2026-04-07"),
    (
        "Easter weekend: notes about the school application",
        "2026-04-03",
        "2026-04-07",
    ),
    (
        "did I write anything about the dentist on Mother's Day?",
        "2026-05-10",
        "2026-05-11",
    ),
    (
        "what did I note on Father's Day about my back pain?",
        "2026-06-21",
        "2026-06-22",
    ),
    (
        "On St Patrick's Day, what did I decide about the lease?",
        "2026-03-17",
        "2026-03-18",
    ),
    ("what did I do on Juneteenth?", "2026-06-19", "2026-06-20"),
    (
        "what did I do on Bonfire Night?",
        "2026-11-05",
        "2026-11-06",
    ),
    ("what did I do on MLK Day?", "2026-01-19", "2026-01-20"),
    (
        "what did I note since the weekend?",
        "2026-11-28",
        "2026-12-02T15:30",
    ),
    (
        "what did I note the previous weekend?",
        "2026-11-28",
        "2026-11-30",
    ),
    (
        "The other week, what was the plan for the bathroom?",
        "2026-11-09",
        "2026-11-30",
    ),
    (
        "did I mention in the month of May that the roof was leaking?",
        "2026-05-01",
        "2026-06-01",
    ),
    (
        "Late in the month of July, what did the doctor tell me?",
        "2026-07-21",
        "2026-08-01",
    ),
    (
        "what did I note in the middle of last week?",
        "2026-11-24",
        "2026-11-27",
    ),
    (
        "what did I note start of last month?",
        "2026-11-01",
        "2026-11-11",
    ),
    (
        "what did I decide just over a month ago about the car?",
        "2026-11-01",
        "2026-12-01",
    ),
    (
        "Between the 5th and the 12th, what was the plan for the bathroom?",
        "2026-11-05",
        "2026-11-13",
    ),
    (
        "what did I learn from the 5th to the 12th at the pottery class?",
        "2026-11-05",
        "2026-11-13",
    ),
    (
        "what did I note from the 1st to the 7th?",
        "2026-12-01",
        "2026-12-08",
    ),
    ("notes from the 5th", "2026-11-05", "2026-11-06"),
    // A holiday named right before a year is that year's.
    (
        "what did I write Christmas 2025",
        "2025-12-24",
        "2025-12-27",
    ),
    (
        "what did I buy Christmas last year?",
        "2025-12-24",
        "2025-12-27",
    ),
    ("for Halloween 2025?", "2025-10-31", "2025-11-01"),
    // Hebrew dates in digits, the day first, and a day of last or this month.
    ("מה החלטתי על השכירות ב-20/11?", "2026-11-20", "2026-11-21"),
    ("מה קניתי ב-5.1.2026?", "2026-01-05", "2026-01-06"),
    ("ב-15/03/2025", "2025-03-15", "2025-03-16"),
    ("ב-20/12", "2025-12-20", "2025-12-21"),
    (
        "מה החלטתי על השכירות ב-15 לחודש שעבר?",
        "2026-11-15",
        "2026-11-16",
    ),
    ("ב-1 לחודש הזה", "2026-12-01", "2026-12-02"),
    // 昨夏 is last year's summer; 年末 and 年始 are December and January; days and parts of
    // last week; Hebrew "the last December", "a year and a half ago" and "from the beginning
    // of March" (up to now).
    ("昨夏に作った料理のレシピ", "2025-06-01", "2025-09-01"),
    ("昨秋の会議のメモ", "2025-09-01", "2025-12-01"),
    ("年末に上司に言われたことは？", "2026-12-01", "2027-01-01"),
    ("昨年末", "2025-12-01", "2026-01-01"),
    ("年明けの出費", "2026-01-01", "2026-02-01"),
    ("先週の今日に", "2026-11-25", "2026-11-26"),
    ("先週の週末", "2026-11-28", "2026-11-30"),
    ("先々週の水曜日", "2026-11-18", "2026-11-19"),
    ("今週の初め", "2026-11-30", "2026-12-03"),
    ("何日か前", "2026-11-27", "2026-12-01"),
    ("1年半前", "2025-06-01", "2025-07-01"),
    ("בדצמבר האחרון", "2025-12-01", "2026-01-01"),
    ("לפני שנה וחצי", "2025-06-01", "2025-07-01"),
    ("לפני חודש וחצי", "2026-10-11", "2026-10-26"),
    ("מתחילת מרץ", "2026-03-01", "2026-12-02T15:30"),
    ("מאמצע נובמבר", "2026-11-11", "2026-12-02T15:30"),
    (
        "מה הוצאתי מהחודש שעבר עד היום?",
        "2026-11-01",
        "2026-12-02T15:30",
    ),
    // A day of last or this month, "more|less than … ago", names beside a time, "May" inside
    // a list of months, parts of a month and a weekday of last week in other orders.
    (
        "what did I write on the 2nd of last month?",
        "2026-11-02",
        "2026-11-03",
    ),
    (
        "what did I note on the 1st of this month?",
        "2026-12-01",
        "2026-12-02",
    ),
    (
        "last month on the 15th, what did I note?",
        "2026-11-15",
        "2026-11-16",
    ),
    (
        "what did I note more than a month ago",
        "1970-01-01",
        "2026-11-02T15:30",
    ),
    ("anything over a year ago", "1970-01-01", "2025-12-02T15:30"),
    (
        "notes from less than a week ago",
        "2026-11-25T15:30",
        "2026-12-02T15:30",
    ),
    (
        "did April call me back in June?",
        "2026-06-01",
        "2026-07-01",
    ),
    ("what did June say on Friday?", "2026-11-27", "2026-11-28"),
    ("April, May and June", "2026-04-01", "2026-07-01"),
    ("in Mar, May and Jul", "2026-03-01", "2026-08-01"),
    ("the first part of March", "2026-03-01", "2026-03-11"),
    ("last week on Thursday", "2026-11-26", "2026-11-27"),
    // Japanese "within N units" (not a deadline with に).
    ("2週間以内のメモ", "2026-11-18T15:30", "2026-12-02T15:30"),
    ("1か月以内", "2026-11-02T15:30", "2026-12-02T15:30"),
    ("ממרץ עד יוני", "2026-03-01", "2026-07-01"),
    // A day or a week a month back, an ordinal weekday of this or last month, "A or the one
    // before", "the last N or two", "and a half", and a range of days ending in "the 15th".
    ("this time last month", "2026-10-30", "2026-11-06"),
    (
        "around the same time last month",
        "2026-10-30",
        "2026-11-06",
    ),
    ("a month ago today", "2026-11-02", "2026-11-03"),
    ("two months ago today", "2026-10-02", "2026-10-03"),
    ("the first Monday of last month", "2026-11-02", "2026-11-03"),
    (
        "the last Friday of the previous month",
        "2026-11-27",
        "2026-11-28",
    ),
    ("the first Tuesday of the month", "2026-12-01", "2026-12-02"),
    ("yesterday or the day before", "2026-11-30", "2026-12-02"),
    ("today or yesterday", "2026-12-01", "2026-12-03"),
    ("last week or the week before", "2026-11-16", "2026-11-30"),
    ("last month or the month before", "2026-10-01", "2026-12-01"),
    ("last year or the year before", "2024-01-01", "2026-01-01"),
    ("a month or two ago", "2026-10-01", "2026-12-01"),
    ("a day or two ago", "2026-11-30", "2026-12-02"),
    (
        "in the last month or two",
        "2026-10-02T15:30",
        "2026-12-02T15:30",
    ),
    (
        "over the past week or two",
        "2026-11-18T15:30",
        "2026-12-02T15:30",
    ),
    (
        "in the last day or two",
        "2026-11-30T15:30",
        "2026-12-02T15:30",
    ),
    (
        "the past year or two",
        "2024-12-02T15:30",
        "2026-12-02T15:30",
    ),
    ("a year and a half ago", "2025-06-01", "2025-07-01"),
    ("two years and a half ago", "2024-06-01", "2024-07-01"),
    ("a month and a half ago", "2026-10-11", "2026-10-26"),
    ("two and a half weeks ago", "2026-11-13", "2026-11-18"),
    (
        "in the past year and a half",
        "2025-06-02T15:30",
        "2026-12-02T15:30",
    ),
    (
        "the last month and a half",
        "2026-10-17T15:30",
        "2026-12-02T15:30",
    ),
    ("July 1st until the 15th", "2026-07-01", "2026-07-16"),
    ("between July 1st and the 15th", "2026-07-01", "2026-07-16"),
    ("March 3 through the 5th", "2026-03-03", "2026-03-06"),
    ("in recent weeks", "2026-11-11T15:30", "2026-12-02T15:30"),
    ("over recent months", "2026-09-02T15:30", "2026-12-02T15:30"),
    ("earlier in the year", "2026-01-01", "2027-01-01"),
    ("in the year 2025", "2025-01-01", "2026-01-01"),
    ("throughout 2025", "2025-01-01", "2026-01-01"),
    ("throughout the summer", "2026-06-01", "2026-09-01"),
    ("last wk", "2026-11-23", "2026-11-30"),
    ("last yr", "2025-01-01", "2026-01-01"),
    ("on Thu", "2026-11-26", "2026-11-27"),
    (
        "what did I buy on Black Friday?",
        "2026-11-27",
        "2026-11-28",
    ),
    ("since Cyber Monday", "2026-11-30", "2026-12-02T15:30"),
    // A quarter or month after a determiner or "for" is the topic; the period is elsewhere.
    (
        "what did we decide about the Q3 roadmap last week?",
        "2026-11-23",
        "2026-11-30",
    ),
    ("the Q2 budget in March", "2026-03-01", "2026-04-01"),
    (
        "the plan for August in last week's meeting",
        "2026-11-23",
        "2026-11-30",
    ),
    (
        "what did I write in last year's Q4?",
        "2025-10-01",
        "2026-01-01",
    ),
    // Japanese days and weeks of 先月/今月, years with の before a holiday, this time a year
    // ago, seasons opened with 以降, halves of last week.
    ("先月の15日", "2026-11-15", "2026-11-16"),
    ("先月の第2週", "2026-11-08", "2026-11-15"),
    ("今月の第1週", "2026-12-01", "2026-12-08"),
    ("2025年のゴールデンウィーク", "2025-04-29", "2025-05-06"),
    ("去年の年末年始", "2025-12-29", "2026-01-04"),
    ("1年前の今頃", "2025-11-18", "2025-12-17"),
    ("去年の同じ時期", "2025-11-18", "2025-12-17"),
    ("夏以降", "2026-06-01", "2026-12-02T15:30"),
    ("去年の夏以降", "2025-06-01", "2026-12-02T15:30"),
    ("きょうのメモ", "2026-12-02", "2026-12-03"),
    ("先週の土日", "2026-11-28", "2026-11-30"),
    ("先週の後半", "2026-11-26", "2026-11-30"),
    ("3月の中頃", "2026-03-11", "2026-03-21"),
    // Hebrew this week|month|year with הזה/הנוכחי, last week then its weekday, a weekday with
    // שעבר, dates with ל before the month.
    ("מה כתבתי בשבוע הזה?", "2026-11-30", "2026-12-07"),
    ("בחודש הנוכחי", "2026-12-01", "2027-01-01"),
    ("בשבוע שעבר ביום שלישי", "2026-11-24", "2026-11-25"),
    ("מה כתבתי בשישי שעבר?", "2026-11-27", "2026-11-28"),
    ("מה כתבתי ב-3 לנובמבר?", "2026-11-03", "2026-11-04"),
    // "early|mid|late May" where the phrase ends, not before a pronoun.
    ("from early May to late June", "2026-05-01", "2026-07-01"),
    (
        "notes from mid-May about tomatoes",
        "2026-05-11",
        "2026-05-21",
    ),
    // Hebrew: from the start of this year, since the summer, to now, thirds of a named year.
    ("מה כתבתי מתחילת השנה?", "2026-01-01", "2026-12-02T15:30"),
    ("מה כתבתי מאז הקיץ?", "2026-06-01", "2026-12-02T15:30"),
    ("מה כתבתי מאוקטובר ועד היום?", "2026-10-01", "2026-12-03"),
    ("מה כתבתי מינואר עד עכשיו?", "2026-01-01", "2026-12-03"),
    ("מה כתבתי בסוף 2025?", "2025-09-01", "2026-01-01"),
    // Days and weeks around a holiday.
    (
        "what did I write the week after Christmas?",
        "2025-12-26",
        "2026-01-02",
    ),
    ("the week after Easter", "2026-04-06", "2026-04-13"),
    ("the day after Thanksgiving", "2026-11-27", "2026-11-28"),
    ("the day before Thanksgiving", "2026-11-25", "2026-11-26"),
    ("the week before Thanksgiving", "2026-11-16", "2026-11-23"),
    ("the Sunday after Easter", "2026-04-12", "2026-04-13"),
    (
        "the week before Christmas last year",
        "2025-12-17",
        "2025-12-24",
    ),
    ("during the Christmas holidays", "2025-12-20", "2026-01-04"),
    // Weeks of this and last month, weeks from a date, thirds of a named year.
    ("the first week of this month", "2026-12-01", "2026-12-08"),
    ("the second week of last month", "2026-11-08", "2026-11-15"),
    ("the last week of last month", "2026-11-25", "2026-12-01"),
    ("the week starting October 12", "2026-10-12", "2026-10-19"),
    ("late in 2025", "2025-09-01", "2026-01-01"),
    ("Nov 1-15", "2026-11-01", "2026-11-16"),
    ("two weekends ago", "2026-11-21", "2026-11-23"),
    ("2 wks ago", "2026-11-16", "2026-11-23"),
    ("3 mos ago", "2026-09-01", "2026-10-01"),
    ("2025年度の予算のメモは？", "2025-04-01", "2026-04-01"),
    // A bare year next to an expression that no rule reads with one.
    ("the first day of November 2025", "2025-11-01", "2025-11-02"),
    (
        "what did I buy on Black Friday 2025",
        "2025-11-28",
        "2025-11-29",
    ),
    ("during Thanksgiving week 2025", "2025-11-24", "2025-12-01"),
    ("notes from 2025 Q4", "2025-10-01", "2026-01-01"),
    ("בסוף הקיץ של 2025", "2025-08-01", "2025-09-01"),
    ("במהלך הקיץ של 2025", "2025-06-01", "2025-09-01"),
    ("בשבוע הראשון של נובמבר 2025", "2025-11-01", "2025-11-08"),
    ("in 2025 in the summer", "2025-06-01", "2025-09-01"),
    // Two-digit years opened and listed as four-digit ones are.
    ("since '24", "2024-01-01", "2026-12-02T15:30"),
    ("before '25", "1970-01-01", "2025-01-01"),
    ("from '23 to '25", "2023-01-01", "2026-01-01"),
    ("in March ‘25", "2025-03-01", "2025-04-01"),
    // Openers, Thanksgiving's days, a weekday with its day of the month.
    ("starting from March", "2026-03-01", "2026-12-02T15:30"),
    ("from 2020 onwards", "2020-01-01", "2026-12-02T15:30"),
    ("the Friday after Thanksgiving", "2026-11-27", "2026-11-28"),
    ("the weekend after Thanksgiving", "2026-11-28", "2026-11-30"),
    ("on Friday the 20th", "2026-11-20", "2026-11-21"),
    ("earlier in the year 2025", "2025-01-01", "2026-01-01"),
    ("earlier in the month of May", "2026-05-01", "2026-06-01"),
    // Japanese years with おととし, pairs of counts, seasons joined by から.
    ("おととしの夏", "2024-06-01", "2024-09-01"),
    ("昨年の今ごろ", "2025-11-18", "2025-12-17"),
    ("2、3日前", "2026-11-29", "2026-12-01"),
    ("2～3か月前", "2026-09-01", "2026-11-01"),
    ("2週間か3週間前", "2026-11-09", "2026-11-23"),
    ("春から夏", "2026-03-01", "2026-09-01"),
    // Slashed dates with a two-digit year; in Japanese, before a particle.
    ("on 11/14/25", "2025-11-14", "2025-11-15"),
    ("11/3のメモは？", "2026-11-03", "2026-11-04"),
    ("11/3（火）のメモ", "2026-11-03", "2026-11-04"),
    ("2025/9のメモ", "2025-09-01", "2025-10-01"),
    // The season or month before last, Thanksgiving week, parts, pairs of counts.
    ("the summer before last", "2025-06-01", "2025-09-01"),
    ("the winter before last", "2024-12-01", "2025-03-01"),
    ("the October before last", "2025-10-01", "2025-11-01"),
    ("in 2025 Q4", "2025-10-01", "2026-01-01"),
    ("the week of Thanksgiving", "2026-11-23", "2026-11-30"),
    ("during Thanksgiving week", "2026-11-23", "2026-11-30"),
    ("early in the week", "2026-11-30", "2026-12-03"),
    ("in the early part of October", "2026-10-01", "2026-10-11"),
    ("the latter part of October", "2026-10-21", "2026-11-01"),
    ("two or three months ago", "2026-09-01", "2026-11-01"),
    ("one or two weeks ago", "2026-11-16", "2026-11-30"),
    // Any two counts: joined by a dash, "to", "or", or "between … and".
    ("what did I do 2-3 weeks ago", "2026-11-09", "2026-11-23"),
    ("2 – 3 weeks ago", "2026-11-09", "2026-11-23"),
    ("two to three weeks ago", "2026-11-09", "2026-11-23"),
    ("notes from 3 to 5 days ago", "2026-11-27", "2026-11-30"),
    (
        "between two and three months ago",
        "2026-09-01",
        "2026-11-01",
    ),
    ("between 2 and 4 weeks ago", "2026-11-02", "2026-11-23"),
    ("1-2 years ago", "2024-01-01", "2026-01-01"),
    ("page 12-14 weeks ago", "2026-08-24", "2026-09-14"),
    // Hebrew counts joined by a hyphen, "עד" or "או"; weekdays by their letter; the weekend's
    // acronym; halves of a named year.
    ("מה עשיתי לפני שבוע-שבועיים", "2026-11-16", "2026-11-30"),
    ("לפני שבוע או שבועיים", "2026-11-16", "2026-11-30"),
    ("מה היה לפני שבועיים-שלושה", "2026-11-09", "2026-11-23"),
    ("מה כתבתי לפני 2-3 שבועות", "2026-11-09", "2026-11-23"),
    ("לפני 2 עד 3 שבועות", "2026-11-09", "2026-11-23"),
    ("לפני יומיים-שלושה", "2026-11-29", "2026-12-01"),
    ("לפני שנה-שנתיים", "2024-01-01", "2026-01-01"),
    ("לפני חודשיים-שלושה", "2026-09-01", "2026-11-01"),
    ("מה עשיתי ביום ה' שעבר", "2026-11-26", "2026-11-27"),
    ("מה כתבתי ביום ג'", "2026-12-01", "2026-12-02"),
    ("ביום א׳ האחרון", "2026-11-29", "2026-11-30"),
    ("ביום ה-15 לחודש", "2026-11-15", "2026-11-16"),
    ("מה היה בסופ\"ש", "2026-11-28", "2026-11-30"),
    ("מה היה בסופ״ש שעבר", "2026-11-28", "2026-11-30"),
    ("במחצית השנייה של 2025", "2025-07-01", "2026-01-01"),
    // Hebrew holidays counted from Passover and Rosh Hashanah (2026: Passover April 2, Rosh
    // Hashanah September 12; Hanukkah 2025 began December 15), civil and school days.
    ("איפה היינו בשבועות?", "2026-05-22", "2026-05-23"),
    ("מה סיכמתי עם הבוס בל\"ג בעומר?", "2026-05-05", "2026-05-06"),
    ("מה עשיתי ביום העצמאות?", "2026-04-20", "2026-04-24"),
    ("כמה הוצאתי בליל הסדר?", "2026-04-01", "2026-04-02"),
    ("בערב פסח – מה היו המשימות שלי?", "2026-04-01", "2026-04-02"),
    ("מה רשמתי בחול המועד סוכות?", "2026-09-27", "2026-10-02"),
    ("עם מי נפגשתי בחגי תשרי?", "2026-09-12", "2026-10-05"),
    ("מה בישלתי בחגים?", "2026-09-12", "2026-10-05"),
    ("מה בישלתי בט\"ו בשבט?", "2026-02-01", "2026-02-03"),
    ("מה קניתי בסילבסטר?", "2025-12-31", "2026-01-01"),
    ("מה רשמתי בחופש הגדול?", "2026-07-01", "2026-09-01"),
    ("מה סיכמתי עם הבוס במוצאי שבת?", "2026-11-28", "2026-11-29"),
    ("בשני – מה היו המשימות שלי?", "2026-11-30", "2026-12-01"),
    ("מה עשיתי ברביעי?", "2026-11-25", "2026-11-26"),
    ("מה כתבתי ב2025 על הרופא?", "2025-01-01", "2026-01-01"),
    // Japanese: the week before, the start of the week and month, Reiwa years, a day of the
    // month alone, a season opening a clause, the rainy season, Obon, Coming of Age Day.
    (
        "歯医者の予約、前の週に入れたっけ？",
        "2026-11-23",
        "2026-11-30",
    ),
    ("週明けに誰と会ったっけ", "2026-11-30", "2026-12-02"),
    ("月初に考えていた引っ越しの件", "2026-12-01", "2026-12-11"),
    ("令和7年に誰と会ったっけ", "2025-01-01", "2026-01-01"),
    ("令和7年12月に読んだ本", "2025-12-01", "2026-01-01"),
    ("令和元年の写真", "2019-01-01", "2020-01-01"),
    ("25日に読んだ本のタイトルは？", "2026-11-25", "2026-11-26"),
    ("15日の出費はいくらだった？", "2026-11-15", "2026-11-16"),
    ("1日に会った人", "2026-12-01", "2026-12-02"),
    ("夏の会議のメモを見せて", "2026-06-01", "2026-09-01"),
    (
        "秋、歯医者について何か書いてた？",
        "2026-09-01",
        "2026-12-01",
    ),
    ("夏は何のスポーツをしてた？", "2026-06-01", "2026-09-01"),
    (
        "梅雨の時期に考えていた引っ越しの件",
        "2026-06-01",
        "2026-07-21",
    ),
    ("お盆に母と話したことをまとめて", "2026-08-13", "2026-08-17"),
    (
        "成人の日に家賃について何を決めた？",
        "2026-01-12",
        "2026-01-13",
    ),
    // Hebrew "מA עד B" with two expressions.
    ("מ-5 במרץ עד 10 במרץ", "2026-03-05", "2026-03-11"),
    (
        "מיום ראשון עד יום שלישי בשבוע שעבר",
        "2026-11-22",
        "2026-11-25",
    ),
    ("מה-1 בינואר עד ה-15 בפברואר", "2026-01-01", "2026-02-16"),
    // Hebrew: a day "from" which notes are, last year's half, the week before last.
    ("סיכום הפגישה מה-12 בנובמבר", "2026-11-12", "2026-11-13"),
    ("במחצית השנייה של השנה שעברה", "2025-07-01", "2026-01-01"),
    ("בשבוע שלפני השבוע שעבר", "2026-11-16", "2026-11-23"),
    // Hebrew days of a month, before it.
    ("מה בישלתי מה-5 עד ה-10 במרץ?", "2026-03-05", "2026-03-11"),
    (
        "מה החלטתי על השכירות בין ה-1 ל-10 בדצמבר?",
        "2026-12-01",
        "2026-12-11",
    ),
    (
        "מה קניתי בין ה-1 ל-15 בחודש שעבר?",
        "2026-11-01",
        "2026-11-16",
    ),
    ("איפה היינו מ-5 עד 10 במרץ?", "2026-03-05", "2026-03-11"),
    // Japanese parts of a named year.
    ("2026年上半期のメモ", "2026-01-01", "2026-07-01"),
    ("2025年の下半期", "2025-07-01", "2026-01-01"),
    ("2025年の年末", "2025-12-01", "2026-01-01"),
    ("2025年末に何をした", "2025-12-01", "2026-01-01"),
    ("2026年前半のメモ", "2026-01-01", "2026-07-01"),
    ("2025年後半", "2025-07-01", "2026-01-01"),
    ("2026年初めに", "2026-01-01", "2026-02-01"),
    // Jewish holidays named in English; Shrove Tuesday; the summertime.
    ("what did I do over Hanukkah?", "2025-12-15", "2025-12-23"),
    ("what did I do on Passover?", "2026-04-02", "2026-04-09"),
    ("during Rosh Hashanah", "2026-09-12", "2026-09-14"),
    ("on Yom Kippur", "2026-09-21", "2026-09-22"),
    (
        "what did I eat on Shrove Tuesday?",
        "2026-02-17",
        "2026-02-18",
    ),
    (
        "what did I read in the summertime?",
        "2026-06-01",
        "2026-09-01",
    ),
    // Found by a second held-out probe.
    (
        "notes written between May and July",
        "2026-05-01",
        "2026-08-01",
    ),
    ("fall 2025", "2025-09-01", "2025-12-01"),
    ("second quarter of 2025", "2025-04-01", "2025-07-01"),
    ("the quarter before last", "2026-04-01", "2026-07-01"),
    ("beginning of this month", "2026-12-01", "2026-12-11"),
    ("around the 10th", "2026-11-07", "2026-11-14"),
    ("2025年の前半", "2025-01-01", "2025-07-01"),
    // A short weekday before a part of the day; a trip "for" a holiday.
    ("what did I note Sat morning?", "2026-11-28", "2026-11-29"),
    ("Wed night notes", "2026-11-25", "2026-11-26"),
    (
        "where did we go for Thanksgiving?",
        "2026-11-26",
        "2026-11-30",
    ),
    ("we went home for Christmas", "2025-12-24", "2025-12-27"),
    // A holiday after a verb and "on" may be followed by anything.
    (
        "what did I do on Christmas Day with the kids?",
        "2025-12-25",
        "2025-12-26",
    ),
    (
        "what did I learn on Thanksgiving with family?",
        "2026-11-26",
        "2026-11-30",
    ),
    (
        "what did I plan on Valentine's Day for dinner?",
        "2026-02-14",
        "2026-02-15",
    ),
    (
        "which recipes did I save on New Year's Day for later?",
        "2026-01-01",
        "2026-01-02",
    ),
    (
        "On Christmas Day with the kids - what did we do?",
        "2025-12-25",
        "2025-12-26",
    ),
    // A time that opens a label, and a day "from" which notes are.
    ("Dec dentist notes", "2026-12-01", "2027-01-01"),
    ("late Jan: interview feedback?", "2026-01-21", "2026-02-01"),
    ("Summer trip notes", "2026-06-01", "2026-09-01"),
    ("New Year's Day notes", "2026-01-01", "2026-01-02"),
    ("Memorial Day trip notes", "2026-05-25", "2026-05-26"),
    ("Christmas 2025 notes", "2025-12-24", "2025-12-27"),
    ("November 3: dentist", "2026-11-03", "2026-11-04"),
    (
        "Notes from the 15th about the dentist",
        "2026-11-15",
        "2026-11-16",
    ),
    // Seasons counted back.
    ("what did we do two summers ago", "2025-06-01", "2025-09-01"),
    ("two winters ago", "2024-12-01", "2025-03-01"),
    ("one summer ago", "2026-06-01", "2026-09-01"),
    ("three springs ago", "2024-03-01", "2024-06-01"),
    // A range whose end names its week: the start is that week's.
    (
        "between Monday and Wednesday last week",
        "2026-11-23",
        "2026-11-26",
    ),
    (
        "from Monday to Wednesday last week",
        "2026-11-23",
        "2026-11-26",
    ),
    // Two month names joined with no word before them.
    ("what did I note Jan-Mar?", "2026-01-01", "2026-04-01"),
    ("Jan-Mar notes", "2026-01-01", "2026-04-01"),
    ("notes Jan through March", "2026-01-01", "2026-04-01"),
    ("notes Sept to Nov 2025", "2025-09-01", "2025-12-01"),
    ("Sept. to Nov. 2025", "2025-09-01", "2025-12-01"),
    ("Jan–Mar 2025 notes", "2025-01-01", "2025-04-01"),
    ("Jun-Jul 2024 photos", "2024-06-01", "2024-08-01"),
    (
        "what happened in Sep-Nov last year",
        "2025-09-01",
        "2025-12-01",
    ),
    ("in Oct to Dec of 2025", "2025-10-01", "2026-01-01"),
    ("Dec-Feb trips", "2025-12-01", "2026-03-01"),
    ("since the 10th", "2026-11-10", "2026-12-02T15:30"),
    ("春から夏にかけて", "2026-03-01", "2026-09-01"),
    // Japanese "about … ago", the other day, this time last year, lists with か.
    ("3か月くらい前", "2026-09-01", "2026-10-01"),
    ("2週間ほど前", "2026-11-16", "2026-11-23"),
    ("半年くらい前", "2026-06-01", "2026-07-01"),
    ("去年の今頃", "2025-11-18", "2025-12-17"),
    ("去年の暮れ", "2025-12-01", "2026-01-01"),
    ("9月か10月", "2026-09-01", "2026-11-01"),
    ("先日の歯医者のメモ", "2026-11-26", "2026-12-02"),
    ("おととし", "2024-01-01", "2025-01-01"),
    ("最近3か月", "2026-09-02T15:30", "2026-12-02T15:30"),
    // Hebrew seasons of a year and their thirds, weeks of a month.
    ("בקיץ של 2025", "2025-06-01", "2025-09-01"),
    ("בקיץ של השנה שעברה", "2025-06-01", "2025-09-01"),
    ("בחורף האחרון", "2025-12-01", "2026-03-01"),
    ("בסוף הקיץ", "2026-08-01", "2026-09-01"),
    ("בתחילת הסתיו", "2026-09-01", "2026-10-01"),
    ("במהלך הקיץ", "2026-06-01", "2026-09-01"),
    ("בשבוע הראשון של נובמבר", "2026-11-01", "2026-11-08"),
    ("בשבוע השני בנובמבר", "2026-11-08", "2026-11-15"),
    ("בשבוע האחרון של אוקטובר", "2026-10-25", "2026-11-01"),
    // Abbreviated months listed after a month.
    ("in Sept and Oct", "2026-09-01", "2026-11-01"),
    ("in Oct/Nov", "2026-10-01", "2026-12-01"),
    ("in Oct & Nov", "2026-10-01", "2026-12-01"),
    ("in Sept, Oct and Nov", "2026-09-01", "2026-12-01"),
    ("in Sept and Oct 2025", "2025-09-01", "2025-11-01"),
    ("in October/November", "2026-10-01", "2026-12-01"),
    ("in Sept andrew's notes", "2026-09-01", "2026-10-01"),
    ("in Oct and may I ask", "2026-10-01", "2026-11-01"),
    // A two-digit year after an apostrophe.
    (
        "what did I write about hiking in Oct '25?",
        "2025-10-01",
        "2025-11-01",
    ),
    ("in summer '25", "2025-06-01", "2025-09-01"),
    ("in December ’25", "2025-12-01", "2026-01-01"),
    ("on Nov 3 '25", "2025-11-03", "2025-11-04"),
    ("over Christmas '24", "2024-12-24", "2024-12-27"),
    ("back in '25", "2025-01-01", "2026-01-01"),
    // A weekday or month name after a determiner is a name; the time is elsewhere.
    (
        "what did I note about the Monday standup last week?",
        "2026-11-23",
        "2026-11-30",
    ),
    ("the April release in August", "2026-08-01", "2026-09-01"),
    (
        "the October planning notes from November",
        "2026-11-01",
        "2026-12-01",
    ),
    ("June's birthday party in May", "2026-05-01", "2026-06-01"),
    // Such a weekday of a month, weekdays counted back, the last and first days of a month.
    (
        "on the first Monday of November",
        "2026-11-02",
        "2026-11-03",
    ),
    ("the last Friday of October", "2026-10-30", "2026-10-31"),
    (
        "on the second Tuesday in November",
        "2026-11-10",
        "2026-11-11",
    ),
    ("the first Monday of December", "2025-12-01", "2025-12-02"),
    (
        "the first Monday of November last year",
        "2025-11-03",
        "2025-11-04",
    ),
    ("the Monday before last", "2026-11-23", "2026-11-24"),
    ("two Fridays ago", "2026-11-20", "2026-11-21"),
    ("Friday two weeks ago", "2026-11-20", "2026-11-21"),
    ("in the final week of October", "2026-10-25", "2026-11-01"),
    ("in the first week in November", "2026-11-01", "2026-11-08"),
    ("on the last day of October", "2026-10-31", "2026-11-01"),
    ("on the first day of November", "2026-11-01", "2026-11-02"),
    ("the last day of February", "2026-02-28", "2026-03-01"),
    // A day or a part of a month next to a year is that year's.
    ("on March 3 last year", "2025-03-03", "2025-03-04"),
    (
        "notes from the 20th of October last year",
        "2025-10-20",
        "2025-10-21",
    ),
    ("March 3rd of last year", "2025-03-03", "2025-03-04"),
    ("early October last year", "2025-10-01", "2025-10-11"),
    (
        "the first week of October of last year",
        "2025-10-01",
        "2025-10-08",
    ),
    (
        "the week of November 9 last year",
        "2025-11-03",
        "2025-11-10",
    ),
    ("last year in October", "2025-10-01", "2025-11-01"),
    ("last year on October 20", "2025-10-20", "2025-10-21"),
    ("last year at Christmas", "2025-12-24", "2025-12-27"),
    ("in 2025 on March 3", "2025-03-03", "2025-03-04"),
    ("this year in March", "2026-03-01", "2026-04-01"),
    // Halves of a year.
    ("in H1", "2026-01-01", "2026-07-01"),
    ("H2 2025", "2025-07-01", "2026-01-01"),
    ("in H1 of 2025", "2025-01-01", "2025-07-01"),
    ("H1 last year", "2025-01-01", "2025-07-01"),
    // Days in words, and "the" between a month and its day.
    ("on the first of March", "2026-03-01", "2026-03-02"),
    ("the twentieth of October", "2026-10-20", "2026-10-21"),
    ("October twentieth", "2026-10-20", "2026-10-21"),
    ("the twenty-first of September", "2026-09-21", "2026-09-22"),
    (
        "the twenty first of September 2025",
        "2025-09-21",
        "2025-09-22",
    ),
    ("November the twenty-ninth", "2026-11-29", "2026-11-30"),
    ("on March the 3rd", "2026-03-03", "2026-03-04"),
    // A week or a weekend of a day of the month, and Independence Day.
    ("the week of the 9th", "2026-11-09", "2026-11-16"),
    ("the week of the first", "2026-11-30", "2026-12-07"),
    ("on the weekend of the 14th", "2026-11-14", "2026-11-16"),
    ("the weekend of the 15th", "2026-11-14", "2026-11-16"),
    ("on Independence Day", "2026-07-04", "2026-07-05"),
    ("in late summer last year", "2025-08-01", "2025-09-01"),
    (
        "the end of the summer last year",
        "2025-08-01",
        "2025-09-01",
    ),
    ("the weekend of the 13th", "2026-11-14", "2026-11-16"),
    ("the weekend of the 16th", "2026-11-14", "2026-11-16"),
    ("October twentieth 2025", "2025-10-20", "2025-10-21"),
    ("the week of the ninth of March", "2026-03-09", "2026-03-16"),
    // Japanese: parts of this and last month, holidays, この + a length.
    // Japanese: holidays of last or this year, Christmas as a time, the fiscal year, parts of
    // a season, days of one month.
    ("去年のクリスマス", "2025-12-24", "2025-12-27"),
    ("去年のお盆", "2025-08-13", "2025-08-17"),
    ("今年のゴールデンウィーク", "2026-04-29", "2026-05-06"),
    ("クリスマスの頃", "2025-12-24", "2025-12-27"),
    ("今年度", "2026-04-01", "2027-04-01"),
    ("昨年度", "2025-04-01", "2026-04-01"),
    ("年度末", "2026-03-01", "2026-04-01"),
    ("春先に", "2026-03-01", "2026-04-01"),
    ("初夏", "2026-06-01", "2026-07-01"),
    ("晩秋", "2026-11-01", "2026-12-01"),
    ("夏の終わりに", "2026-08-01", "2026-09-01"),
    ("冬の終わり", "2026-02-01", "2026-03-01"),
    ("去年の初夏のメモ", "2025-06-01", "2025-07-01"),
    ("今年の春先に書いたこと", "2026-03-01", "2026-04-01"),
    ("去年の冬の終わり", "2026-02-01", "2026-03-01"),
    ("2024年の晩秋", "2024-11-01", "2024-12-01"),
    ("10月の第2週のメモ", "2026-10-08", "2026-10-15"),
    (
        "10月の初めに書いた会議のメモは？",
        "2026-10-01",
        "2026-10-11",
    ),
    ("9月の中旬", "2026-09-11", "2026-09-21"),
    ("9月半ば", "2026-09-11", "2026-09-21"),
    ("8月の終わりに", "2026-08-21", "2026-09-01"),
    ("9月の頭", "2026-09-01", "2026-09-11"),
    ("8月前半", "2026-08-01", "2026-08-16"),
    ("先月の後半", "2026-11-16", "2026-12-01"),
    ("先々月の半ば", "2026-10-11", "2026-10-21"),
    ("今月の頭", "2026-12-01", "2026-12-11"),
    ("10月第1週", "2026-10-01", "2026-10-08"),
    ("2025年10月の第3週", "2025-10-15", "2025-10-22"),
    ("9月の最終週", "2026-09-24", "2026-10-01"),
    ("10月10日〜20日", "2026-10-10", "2026-10-21"),
    ("10月10日から20日まで", "2026-10-10", "2026-10-21"),
    ("１０月１０日～２０日", "2026-10-10", "2026-10-21"),
    ("2025年3月3日〜5日", "2025-03-03", "2025-03-06"),
    ("昨年度末", "2026-03-01", "2026-04-01"),
    ("一昨年度", "2024-04-01", "2025-04-01"),
    ("昨年の正月", "2025-01-01", "2025-01-04"),
    ("今月の初め", "2026-12-01", "2026-12-11"),
    ("先月末", "2026-11-21", "2026-12-01"),
    ("先月の半ば", "2026-11-11", "2026-11-21"),
    ("この3か月", "2026-09-02T15:30", "2026-12-02T15:30"),
    ("お正月", "2026-01-01", "2026-01-04"),
    ("ゴールデンウィーク", "2026-04-29", "2026-05-06"),
    ("年末年始", "2025-12-29", "2026-01-04"),
    // Hebrew: the last N days, weeks, months.
    // Hebrew: Jewish holidays, the latest begun.
    ("בפסח", "2026-04-02", "2026-04-09"),
    ("בחג הפסח", "2026-04-02", "2026-04-09"),
    ("מה סיכמנו בחנוכה על התקציב", "2025-12-15", "2025-12-23"),
    ("בראש השנה", "2026-09-12", "2026-09-14"),
    ("ביום כיפור", "2026-09-21", "2026-09-22"),
    ("בסוכות", "2026-09-26", "2026-10-03"),
    ("בפורים", "2026-03-03", "2026-03-04"),
    ("מאז פסח", "2026-04-02", "2026-12-02T15:30"),
    ("אחרי ראש השנה", "2026-09-14", "2026-12-02T15:30"),
    ("בשבועיים האחרונים", "2026-11-18T15:30", "2026-12-02T15:30"),
    ("בחודשיים האחרונים", "2026-10-02T15:30", "2026-12-02T15:30"),
    (
        "ב-3 החודשים האחרונים",
        "2026-09-02T15:30",
        "2026-12-02T15:30",
    ),
    (
        "בשלושת השבועות האחרונים",
        "2026-11-11T15:30",
        "2026-12-02T15:30",
    ),
];

/// Queries that name no time (at [`REFERENCE`]).
const NO_TIME: &[&str] = &[
    // A week counted from something else's start, and words that are also months of the
    // Hebrew calendar.
    "in week 2 of the course",
    "my week 2 workout",
    "שבוע 2 של הקורס",
    "מה אמר לי אבא באב",
    "מי היה בשבט",
    "my Adar notes",
    "notes before the meeting",
    "a 14.5 kg bag",
    "version 3.11",
    // Web and file names, titles, a person called Satsuki.
    "Monday.com integration notes",
    "notes from march.pdf",
    "Friday Night Lights quotes",
    "Saturday Night Live sketch ideas",
    "五月さんの連絡先",
    // Month abbreviations and counts that join nothing.
    "Jan went to Mar-a-Lago",
    // After a topic word or a place, "on" a holiday is what the words are about.
    "notes on Halloween costumes",
    "recipes for Hanukkah",
    "recipes for Thanksgiving",
    "I am going for Christmas shopping",
    "notes on Passover traditions",
    "how much I spent on Christmas presents for the team",
    "a post on Boxing Day deals",
    "who lives on Easter Road?",
    // A Hebrew month's bare name, with no word that makes it a time: a name, or מרץ (energy).
    "מה אמרה לי יולי על הדירה?",
    "איפה גרה אפריל עכשיו?",
    "איך מחזירים מרץ אחרי מחלה?",
    "Dana notes",
    "Thanksgiving plans",
    "Christmas gift list",
    "What did I write: dentist",
    "feedback from the 3rd floor",
    "一日の予算はいくら？",
    "1日の予算",
    "1日に3回飲む薬",
    "3日に一度走る",
    "3日間の旅行",
    "真夏の夜の夢",
    "お盆を買った",
    "מה אמר צה\"ל על זה",
    "חילקנו את העבודה בשני חלקים",
    "בחגים הבאים נטוס",
    "בשבועות הקרובים",
    "what did Jan tell me",
    "Jan to May budget",
    "I have 2 or 3 notes about the days ago",
    // To come: the first Monday of December is the 7th.
    "the first Monday of this month",
    "this year's Christmas",
    "クリスマスプレゼント",
    "七夕祭り",
    "10GWの発電所",
    "New Year's Eve party ideas",
    "Mother's Day gift ideas",
    "Good Friday deals",
    "the other week of the trip",
    "Christmas this year",
    "עלה ב-2.5 אחוז",
    // Nothing after today has come.
    "after today",
    // Deadlines and opening hours, every Monday, a month after "my" before other words.
    "what did my April say about the flat?",
    // Tax forms and versions.
    "where is my W2 form",
    "the W9 I filed",
    "version 1.2.2025",
    "our April release",
    "the report that's due on Friday",
    "the deadline is March 3",
    "3月15日締め切りの確定申告の書類",
    "what are the clinic's Saturday hours?",
    "תזכורת לכל יום שני להוציא את הפח",
    "ב-24/7",
    "ב-31/2",
    "来週の月曜日、歯医者について",
    "次の日曜日に誰と会ったっけ",
    "今週末に読んだ本",
    "今日子さんの誕生日プレゼント",
    "五月蝿い隣人への対応",
    "ביום שני הבא",
    "בקיץ הבא",
    "במרץ הבא",
    "what did I note on the 10th of this month?",
    "how did I feel later today",
    "what did April say about the flat?",
    "what did June think of the new sofa?",
    "Wednesday Addams costume ideas",
    "the Today programme interview",
    "October Sky",
    "the Women's March organisers",
    "Shrove Tuesday pancakes",
    "Super Bowl Sunday party",
    "3日以内に返信する",
    "",
    "the week of the first meeting",
    "the weekend of the first game",
    "may the fourth be with you",
    "クリスマスにぴったりのレシピ",
    "今年度末",
    "今年の冬の終わり",
    "the Monday standup notes",
    "the March of Dimes donation",
    "our April release plan",
    "June's birthday party",
    "every Friday",
    "rock 'n' roll in the '90s",
    "the recent months were hard",
    "Black Friday deals list",
    "notes on Black Friday deals",
    "c'mon",
    "青春から学んだこと",
    "1/2カップの砂糖",
    // A year still to come makes what it places to come ("December 20" alone would be last
    // year's).
    "on December 20 this year",
    "at Christmas this year",
    "in March next year",
    "next year in March",
    "on Monday next week",
    "in 2027 Q1",
    // Weekday and month names listed after a determiner are names.
    "the Monday and Tuesday sessions",
    "every Monday, Wednesday and Friday",
    "the March/April issue",
    "a Monday to Friday job",
    "Thanksgiving week travel tips",
    "last yr of college",
    "what did I write about the Q3 roadmap?",
    "what are the book club picks for June?",
    "what did we do on the weekend trip to the lake?",
    "it is late may I go",
    "leaving early may help",
    "עכשיו אני צריך",
    "今年の年末年始",
    "日曜大工の道具",
    "金曜ロードショー",
    "五月人形",
    "מה עשינו עם רכב השנה?",
    "בפסח הבא",
    "בראש השנה האזרחית",
    "בסוכות של השכנים",
    "early spring rolls recipe",
    "in H1 tags use bold",
    "mid-winter sale ideas",
    "late summer squash",
    "the end of the winter coat sale",
    "in midsummer night dream notes",
    "מתכונים לפסח",
    "בראש השנה של החברה",
    "לפני חנוכה",
    "クリスマスプレゼントの候補",
    "the spring fair was early",
    "an early spring of ideas",
    "a may-june romance",
    "you may first ask",
    "the h1 tag",
    "h1 headings",
    "India Independence Day speech",
    "may I ask about the dentist",
    "this may help",
    "the sun was out",
    "sat on the mat",
    "second opinion",
    "Monday-morning quarterback",
    "week",
    "weekly report",
    "a few notes",
    "2025 tests passed",
    "last",
    "todays agenda",
    "yesterdays",
    "jan's notes",
    "0 days ago",
    "the past 0 days",
    "2026-13-01",
    "2026-11-03-draft",
    // After the reference: not a creation time.
    "this evening",
    "tonight",
    "in 2030",
    "2026-12-25",
    "December 25 2026",
    "今夜",
    "הערב",
    // A time to come, named: its words are no other period either.
    "next Friday",
    "this coming Monday",
    "next March",
    "next week",
    "next summer",
    "Friday this week",
    // "back" is no "ago"; "…前後" is "about …"; a digit before "week of" is no ordinal.
    "set the clocks an hour back",
    "twenty-something notes",
    "out for two days, back on the job",
    "半年前後",
    "3日前後",
    // Seasons, quarters and ranges need their words.
    "we fall behind",
    "it may last year-round",
    "on the 3 servers",
    "on the 2nd floor",
    "on the 1st try",
    "תל אביב 2025",
    "the 3rd attempt",
    "the fifth week of May",
    "the end of the day",
    "a late year",
    "the week of",
    "בסוף, יוני אמר לי",
    "leaving early may help",
    "the late show",
    "mid-term review",
    "summer reading list",
    "spring cleaning",
    "summer interns",
    "the quarter of the budget",
    "between us and them",
    "since you asked",
    "before you ask",
    // A day still to come this week.
    "this Friday",
    "after 2000 tests passed",
    "what I wrote before may be outdated",
    "Christmas gifts for mom",
    "notes on Christmas gifts",
    "the last Christmas movie we watched",
    // In December, the coming one: no creation time.
    "what should I finish before Christmas",
    "Halloween costume ideas",
    "recipes for Thanksgiving",
    "Christmas and New Year plans",
    "an Easter egg hunt",
    "the first quarter of the match",
    "the previous version of the doc",
    "prior art in the patent",
    "the first quarter mile",
    "take the other day off",
    "on the other day of the week",
    "the previous year of school",
    "a trip over Easter Island",
    "the report of 2025",
    "set the clocks an hour back",
    "a few steps back",
    "the last Christmas movie we watched",
    "my last Easter egg hunt",
    "independence day plans",
    "I got two weeks back pay",
    "won the title two years back to back",
    "my first few weeks back at work",
    "Last Christmas by Wham lyrics",
    "one last Christmas together",
    "Mom's last Christmas",
    "the last 2 hours of the movie",
    "quotes from Independence Day",
    "gifts for Christmas and Easter",
    "the 2024 and 2025 budgets",
    "cards to Thanksgiving guests",
    "a new year resolution",
    "after the fall of Rome",
    // November 12, 2026 is a Thursday.
    "Friday, November 12",
    "Black Friday deals",
    "the Sunday Times review",
    "Sunday roast recipe",
    "Taco Tuesday",
    "a USA Today article",
    "the Sunday Pot restaurant",
    "feedback from summer interns",
    "suggestions from May about the car",
    "毎週月曜日の会議",
    "ראש השנה",
    "after all",
    "the first half of the year's budget",
    "the third half of the game",
    // Japanese and Hebrew words that only look like time.
    "百二十日前",
    "三日月",
    "דעה שנייה",
    "שני",
    "דיברתי עם יוני",
    "לפני הפגישה",
    "שמאי",
    "24/7 support",
    "add 1/2 cup of sugar",
    "notes on Halloween costumes",
    "recipes for Hanukkah",
    "recipes for Thanksgiving",
    "I am going for Christmas shopping",
    "notes on Passover traditions",
    "notes on Christmas gifts",
    "version 2025.1 notes",
    "page 2026/11",
    "the rise and fall of the empire",
    "prices rise and fall",
    "the bug shows on 1/2 of the pages",
    "since 2/3 of the team left",
    "score on 10/10 for the movie",
    "keep the server on 24/7",
    "upgrade Home Assistant to 2024.12.1",
    "notes on IntelliJ 2024.3.1 bug",
    "a post on Boxing Day deals",
    "thoughts on Valentine's Day gifts",
    "my notes on Christmas and Easter traditions",
    "my best year to date",
    "お盆を買った",
    "この2年生のクラス",
    "旧正月",
    "notes about the last week of the project",
    "in the last month of the year",
    "青春について",
    "年末調整のメモ",
    "3月生まれの友達",
    "12月号の雑誌",
    "השנה הראשונה של הילד",
    "ספר השנה",
    "השבוע הראשון בעבודה החדשה",
];

fn reference() -> i64 {
    ms(REFERENCE)
}

#[test]
fn expressions_resolve_to_their_periods() {
    assert!(CASES.len() >= 60);
    let mut failures = Vec::new();
    for (query, start, end) in CASES {
        let got = resolve_time(query, reference()).map(|m| m.period);
        if got != Some(period(start, end)) {
            failures.push(format!("{query:?}: got {got:?}, want {start} .. {end}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_single_expression_spans_the_whole_query_or_its_words() {
    for (query, _, _) in CASES {
        let mention = resolve_time(query, reference()).expect("a time");
        assert!(!mention.spans.is_empty(), "{query:?}");
    }
    let spans = |query: &str| -> Vec<String> {
        let mention = resolve_time(query, reference()).expect("a time");
        mention
            .spans
            .iter()
            .map(|s| query[s.clone()].to_owned())
            .collect()
    };
    assert_eq!(
        spans("the day before yesterday"),
        ["the day before yesterday"]
    );
    assert_eq!(spans("Today's standup notes"), ["Today"]);
    assert_eq!(spans("notes from on March 3rd, please"), ["on March 3rd"]);
    assert_eq!(spans("(2026-11)"), ["2026-11"]);
    assert_eq!(spans("本日の会議"), ["本日"]);
    assert_eq!(spans("ב-3 במרץ 2025"), ["ב-3 במרץ 2025"]);
    // The words that join a range are left out of BM25 with it.
    assert_eq!(
        spans("notes between March and May on taxes"),
        ["between March and May"]
    );
    assert_eq!(spans("dentist since last week"), ["since last week"]);
    assert_eq!(spans("taxes before April, please"), ["before April"]);
    assert_eq!(spans("歯医者3月以前"), ["3月以前"]);
    // A particle never reaches into the next expression: spans stay disjoint.
    assert_eq!(spans("去年より前四半期の売上"), ["去年", "前四半期"]);
    assert_eq!(spans("歯医者3月から5月まで"), ["3月から5月まで"]);
    // "from" alone names where, not since when.
    assert_eq!(spans("notes from last week about taxes"), ["last week"]);
}

#[test]
fn queries_without_a_time_resolve_to_none() {
    for query in NO_TIME {
        assert_eq!(resolve_time(query, reference()), None, "{query:?}");
    }
}

#[test]
fn the_leftmost_expression_gives_the_period_and_every_one_a_span() {
    let query = "yesterday, and also last week";
    let mention = resolve_time(query, reference()).expect("a time");
    assert_eq!(mention.period, period("2026-12-01", "2026-12-02"));
    let words: Vec<&str> = mention.spans.iter().map(|s| &query[s.clone()]).collect();
    assert_eq!(words, ["yesterday", "last week"]);

    let query = "先週、それから昨日";
    let mention = resolve_time(query, reference()).expect("a time");
    assert_eq!(mention.period, period("2026-11-23", "2026-11-30"));
    assert_eq!(mention.spans.len(), 2);

    // Listed together, the two are one period with one span.
    let query = "先週と昨日";
    let mention = resolve_time(query, reference()).expect("a time");
    assert_eq!(mention.period, period("2026-11-23", "2026-12-02"));
    assert_eq!(
        mention.spans,
        [Range {
            start: 0,
            end: query.len()
        }]
    );

    // An expression after the reference is skipped; the next one counts.
    let query = "tonight or this morning";
    let mention = resolve_time(query, reference()).expect("a time");
    assert_eq!(
        mention.period,
        period("2026-12-02T00:00", "2026-12-02T12:00")
    );
    assert_eq!(mention.spans, [Range { start: 11, end: 23 }]);
}

#[test]
fn this_season_or_month_is_the_one_under_way_or_over_never_the_one_to_come() {
    for (query, asked, want) in [
        ("this summer", "2026-03-15T09:00", None),
        ("this fall", "2026-07-01T09:00", None),
        ("this winter", "2026-11-03T09:00", None),
        ("今夏", "2026-03-15T09:00", None),
        // A month after "this" is this year's, no time while to come.
        ("this June", "2026-04-10T09:00", None),
        (
            "this March",
            "2026-04-10T09:00",
            Some(("2026-03-01", "2026-04-01")),
        ),
        (
            "this summer",
            "2026-07-01T09:00",
            Some(("2026-06-01", "2026-09-01")),
        ),
        (
            "this summer",
            "2026-10-20T09:00",
            Some(("2026-06-01", "2026-09-01")),
        ),
        (
            "this spring",
            "2026-12-02T09:00",
            Some(("2026-03-01", "2026-06-01")),
        ),
        (
            "this winter",
            "2027-01-03T09:00",
            Some(("2026-12-01", "2027-03-01")),
        ),
        (
            "this winter",
            "2027-03-20T09:00",
            Some(("2026-12-01", "2027-03-01")),
        ),
        (
            "この冬",
            "2026-12-02T09:00",
            Some(("2026-12-01", "2027-03-01")),
        ),
    ] {
        let got = resolve_time(query, ms(asked)).map(|m| m.period);
        assert_eq!(
            got,
            want.map(|(from, to)| period(from, to)),
            "{query} at {asked}"
        );
    }
}

#[test]
fn on_the_named_weekday_itself_a_weekday_is_a_week_back() {
    // The reference is a Wednesday.
    let mention = resolve_time("on Wednesday", reference()).expect("a time");
    assert_eq!(mention.period, period("2026-11-25", "2026-11-26"));
    // In March, "March" is this March; on March 3, "March 3" is today.
    let march_3 = ms("2026-03-03T09:00");
    let mention = resolve_time("March", march_3).expect("a time");
    assert_eq!(mention.period, period("2026-03-01", "2026-04-01"));
    let mention = resolve_time("March 3", march_3).expect("a time");
    assert_eq!(mention.period, period("2026-03-03", "2026-03-04"));
    // On a Saturday or a Sunday, "last weekend" is the one before; "this weekend" the one
    // under way.
    for weekend_day in ["2026-11-28T10:00", "2026-11-29T10:00"] {
        let day = ms(weekend_day);
        let mention = resolve_time("last weekend", day).expect("a time");
        assert_eq!(mention.period, period("2026-11-21", "2026-11-23"));
        let mention = resolve_time("this weekend", day).expect("a time");
        assert_eq!(mention.period, period("2026-11-28", "2026-11-30"));
    }
    // "the weekend before last" is the one before that.
    let saturday = ms("2026-12-05T10:00");
    let mention = resolve_time("the weekend before last", saturday).expect("a time");
    assert_eq!(mention.period, period("2026-11-21", "2026-11-23"));
    // On a Monday, the one just over.
    let monday = ms("2026-11-30T10:00");
    let mention = resolve_time("last weekend", monday).expect("a time");
    assert_eq!(mention.period, period("2026-11-28", "2026-11-30"));
}

#[test]
fn without_spans_keeps_the_topic_and_drops_the_time_words() {
    for query in [
        "what did I note about the dentist last week?",
        "先週の歯医者のメモ",
        "מה רשמתי על רופא השיניים בשבוע שעבר?",
    ] {
        let mention: TimeMention = resolve_time(query, reference()).expect("a time");
        let rest = without_spans(query, &mention.spans);
        for span in &mention.spans {
            assert!(!rest.contains(&query[span.clone()]), "{rest:?}");
        }
        assert!(
            ["dentist", "歯医者", "השיניים"]
                .iter()
                .any(|topic| rest.contains(topic)),
            "{rest:?}"
        );
    }
    let query = "what did I note about the dentist last week?";
    let mention = resolve_time(query, reference()).expect("a time");
    assert_eq!(
        without_spans(query, &mention.spans),
        "what did I note about the dentist  ?"
    );
}

#[test]
fn without_spans_tolerates_any_spans() {
    let query = "aé先週b";
    // Out of order, touching, overlapping, out of bounds, reversed and inside a character.
    let reversed = Range { start: 5, end: 4 };
    let spans = [3..9, 0..1, 1..6, 4..10, 20..30, reversed, 2..3];
    assert_eq!(without_spans(query, &spans), "  b");
    assert_eq!(without_spans(query, &[Range { start: 3, end: 9 }]), "aé b");
    assert_eq!(without_spans(query, &[]), query);
}

/// Words that generated queries are made of: time words of the three languages, parts of
/// them, look-alikes and noise.
const VOCABULARY: &[&str] = &[
    "today",
    "yesterday",
    "the",
    "day",
    "before",
    "this",
    "last",
    "past",
    "morning",
    "night",
    "evening",
    "tonight",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "ago",
    "a",
    "couple",
    "of",
    "few",
    "three",
    "12",
    "0",
    "999999999",
    "4294967295",
    "in",
    "during",
    "on",
    "Monday",
    "sunday",
    "March",
    "may",
    "Feb",
    "29",
    "31",
    "3rd",
    "2025",
    "1970",
    "2100",
    "2101",
    "-",
    "--",
    ",",
    ".",
    "?",
    "'s",
    "2026-11-03",
    "2024-02-29",
    "1969-12",
    "dentist",
    "é",
    "先週",
    "の",
    "月曜日",
    "月",
    "曜",
    "日",
    "前",
    "年",
    "十",
    "二",
    "百",
    "３",
    "か月前",
    "週間前",
    "今夜",
    "一昨日",
    "今朝",
    "היום",
    "לפני",
    "שני",
    "יום",
    "ב",
    "במרץ",
    "שבוע",
    "שעבר",
    "שנתיים",
    "ב-",
    "־",
    "שלושה",
    "ימים",
    "early",
    "beginning",
    "middle",
    "上旬",
    "下旬",
    "末",
    "בסוף",
    "תחילת",
    "end",
    "second",
    "14th",
    "mid",
    "mid-",
    "late",
    "half",
    "summer",
    "fall",
    "winter",
    "去年",
    "今年の",
    "夏",
    "冬",
    "קיץ",
    "בחורף",
    "אשתקד",
    "שנה",
    "שעברה",
    // Words read around an expression: ranges opened, joined or ended.
    "since",
    "after",
    "until",
    "prior",
    "to",
    "up",
    "from",
    "between",
    "and",
    "now",
    "Thursday",
    "Christmas",
    "over",
    "holidays",
    "より前",
    "以前",
    "まで",
    "に",
    "より後",
    "から",
    "〜",
    "前四半期",
    "過去",
    "עד",
    "אחרי",
    "ממרץ",
    "מאי",
    "האחרון",
];

fn generated_query() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(VOCABULARY),
            prop::sample::select(&[" ", "", " ", ", ", "-", "\u{0301}"][..]),
        ),
        0..10,
    )
    .prop_map(|words| {
        words
            .into_iter()
            .map(|(w, sep)| format!("{w}{sep}"))
            .collect()
    })
}

/// Expressions with the words read around them packed between: every range word, particle
/// and opener next to every expression, where a word taken around one expression could reach
/// into the next.
fn packed_query() -> impl Strategy<Value = String> {
    const EXPRESSIONS: &[&str] = &[
        "去年",
        "3月",
        "先週",
        "前四半期",
        "先月",
        "年末",
        "מרץ ",
        "מאי ",
        "March ",
        "last week ",
        "Christmas ",
        "the weekend ",
        "2025 ",
        "now ",
        "yesterday ",
    ];
    const WORDS: &[&str] = &[
        "より前",
        "より",
        "前",
        "以前",
        "まで",
        "までに",
        "から",
        "〜",
        " 〜 ",
        "以降",
        "より後",
        "",
        "לפני ",
        "עד ",
        "מאז ",
        "ממרץ ",
        "before ",
        "after ",
        "since ",
        "to ",
        "and ",
        "over ",
        "the ",
        "'s ",
        "between ",
        "from ",
    ];
    prop::collection::vec(
        (
            prop::sample::select(WORDS),
            prop::sample::select(EXPRESSIONS),
        ),
        1..5,
    )
    .prop_map(|pairs| pairs.into_iter().map(|(w, e)| format!("{w}{e}")).collect())
}

fn any_query() -> impl Strategy<Value = String> {
    prop_oneof![
        generated_query(),
        packed_query(),
        any::<String>(),
        "[0-9a-z年月日前 -]{0,30}"
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn resolution_never_panics_and_stays_in_the_past(
        query in any_query(),
        // 1990-01-01 to 2100-01-01.
        reference in 631_152_000_000i64..4_102_444_800_000,
    ) {
        if let Some(mention) = resolve_time(&query, reference) {
            let Period { start_ms, end_ms } = mention.period;
            prop_assert!(start_ms < end_ms);
            prop_assert!(start_ms <= reference);
            prop_assert!(!mention.spans.is_empty());
            let mut previous_end = 0;
            for span in &mention.spans {
                prop_assert!(span.start < span.end && span.end <= query.len());
                prop_assert!(query.is_char_boundary(span.start));
                prop_assert!(query.is_char_boundary(span.end));
                prop_assert!(span.start >= previous_end, "spans in order and disjoint");
                previous_end = span.end;
            }
            let rest = without_spans(&query, &mention.spans);
            prop_assert!(rest.len() <= query.len());
        }
    }

    #[test]
    fn any_reference_is_safe(query in generated_query(), reference in any::<i64>()) {
        if let Some(mention) = resolve_time(&query, reference) {
            prop_assert!(mention.period.start_ms < mention.period.end_ms);
            prop_assert!(mention.period.start_ms <= reference);
        }
    }
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The resolution invariants: a period that starts no later than the reference, and spans in
/// order, disjoint, on character boundaries.
fn holds_invariants(query: &str, reference: i64) -> Result<(), TestCaseError> {
    if let Some(mention) = resolve_time(query, reference) {
        prop_assert!(mention.period.start_ms < mention.period.end_ms, "{query}");
        prop_assert!(
            mention.period.start_ms <= reference,
            "{query}: starts after the reference"
        );
        let mut previous_end = 0;
        for span in &mention.spans {
            prop_assert!(span.start < span.end && span.end <= query.len());
            prop_assert!(query.is_char_boundary(span.start) && query.is_char_boundary(span.end));
            prop_assert!(span.start >= previous_end, "{query}: spans overlap");
            previous_end = span.end;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Days of a month ("March 14-20", "in May 3 to 5th") asked on any day of the year around
    /// that month: never days after the reference.
    #[test]
    fn a_range_of_days_never_starts_after_the_reference(
        month in 0usize..12,
        from in 1u32..32,
        to in 1u32..32,
        joiner in prop::sample::select(vec!["-", " - ", "–", " to ", " until ", " and "]),
        opener in prop::sample::select(vec!["", "in ", "between ", "since ", "on "]),
        suffix in prop::sample::select(vec!["", "th", "."]),
        // The reference within 40 days either side of the month's start in 2026.
        offset_days in -40i64..70,
    ) {
        let name = MONTH_NAMES[month];
        let start = NaiveDate::from_ymd_opt(2026, month as u32 + 1, 1).unwrap();
        let reference = start.and_hms_opt(12, 0, 0).unwrap().and_utc().timestamp_millis()
            + offset_days * 86_400_000;
        for query in [
            format!("{opener}{name} {from}{joiner}{to}{suffix}"),
            format!("what did I note {opener}{name} {from}{joiner}{to}{suffix} about rent"),
        ] {
            holds_invariants(&query, reference)?;
        }
    }

    /// Times listed together, with a qualifier after them or not: the same invariants.
    #[test]
    fn a_list_keeps_the_invariants(
        items in prop::collection::vec(prop::sample::select(vec![
            "January", "February", "December", "Monday", "Tuesday", "Friday", "Q1", "Q4",
            "the summer", "Christmas", "yesterday", "last week", "2024", "2025", "March 3",
        ]), 2..5),
        joiner in prop::sample::select(vec![" and ", " or ", ", ", " & ", ", and ", "と"]),
        qualifier in prop::sample::select(vec!["", " 2025", " last year", " last week", " 2026"]),
        opener in prop::sample::select(vec!["", "in ", "before ", "since ", "between "]),
        reference in 1_735_689_600_000i64..1_830_297_600_000,
    ) {
        let query = format!("{opener}{}{qualifier}", items.join(joiner));
        holds_invariants(&query, reference)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// "from <month> <year> to <month>": the end is the first such month at or after the
    /// start, so the range holds at most twelve months and ends with the month named.
    #[test]
    fn a_range_ends_at_the_first_named_month_after_its_start(
        from in 0usize..12,
        to in 0usize..12,
        year in 2015i32..2026,
        words in prop::sample::select(vec![("from ", " to "), ("between ", " and "), ("", " until ")]),
    ) {
        let query = format!("{}{} {year}{}{}", words.0, MONTH_NAMES[from], words.1, MONTH_NAMES[to]);
        let mention = resolve_time(&query, reference()).expect("a range");
        let start = NaiveDate::from_ymd_opt(year, from as u32 + 1, 1).unwrap();
        prop_assert_eq!(mention.period.start_ms, start.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis(), "{}", query);
        let end = chrono::DateTime::from_timestamp_millis(mention.period.end_ms - 1).unwrap().date_naive();
        prop_assert_eq!(end.month0() as usize, to, "{}", query);
        let months = (end.year() - year) * 12 + end.month0() as i32 - from as i32;
        prop_assert!((0..12).contains(&months), "{}: {} months", query, months);
    }

    /// "on M/D" is the latest such day with the month first; when the first number cannot be
    /// a month, the other order; a day no month has, "24/7" and "9/11" are no date.
    #[test]
    fn a_slashed_date_reads_the_month_first_unless_it_cannot(
        first in 1u32..40,
        second in 1u32..40,
    ) {
        let query = format!("on {first}/{second}");
        let got = resolve_time(&query, reference()).map(|m| m.period);
        let (month, day) = if first <= 12 { (first, second) } else { (second, first) };
        // "24/7" and "9/11" are idioms.
        let idiom = matches!((first, second), (24, 7) | (9, 11));
        let want = ((1..=12).contains(&month) && !idiom).then(|| {
            [2026, 2025, 2024].into_iter().find_map(|year| {
                let date = NaiveDate::from_ymd_opt(year, month, day)?;
                let start = date.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis();
                (start <= reference()).then_some(Period { start_ms: start, end_ms: start + 86_400_000 })
            })
        }).flatten();
        prop_assert_eq!(got, want, "{}", query);
    }
}

/// Days of a month named whole that have not begun are the latest such days: a year earlier.
#[test]
fn days_of_a_month_not_begun_are_last_years() {
    let reference = ms("2026-03-10T12:00");
    let mention = resolve_time("March 14-20", reference).expect("a time");
    assert_eq!(mention.period, period("2025-03-14", "2025-03-21"));
    let mention = resolve_time("March 3-5", reference).expect("a time");
    assert_eq!(mention.period, period("2026-03-03", "2026-03-06"));
}

/// The instant `ms` as a date, UTC.
fn date_of(ms: i64) -> NaiveDate {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap()
        .date_naive()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// "early|mid|late <season>" and "the beginning|middle|end of the <season>", asked on any
    /// day from 2000 to 2099: the latest month that has begun among the season's first, second
    /// or last, checked against a model of the rule (spring's are March to May, winter's
    /// December to February).
    #[test]
    fn a_third_of_a_season_is_the_latest_such_month(
        season in 0u32..4,
        third in 0u32..3,
        wording in 0usize..2,
        // 2000-01-01 to 2099-12-31.
        reference in 946_684_800_000i64..4_102_358_400_000,
    ) {
        let name = ["spring", "summer", "autumn", "winter"][season as usize];
        let query = match wording {
            0 => format!("notes from {} {name}", ["early", "mid", "late"][third as usize]),
            _ => format!("at the {} of the {name}", ["beginning", "middle", "end"][third as usize]),
        };
        let month = (season * 3 + 2 + third) % 12 + 1;
        let today = date_of(reference);
        let year = if month <= today.month() { today.year() } else { today.year() - 1 };
        let start = NaiveDate::from_ymd_opt(year, month, 1).unwrap();
        let end = start.checked_add_months(chrono::Months::new(1)).unwrap();
        let mention = resolve_time(&query, reference);
        prop_assert!(mention.is_some(), "{query}");
        let to_ms = |d: NaiveDate| d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis();
        prop_assert_eq!(
            mention.unwrap().period,
            Period { start_ms: to_ms(start), end_ms: to_ms(end) },
            "{}", query
        );
    }

    /// "the week of the Nth" and "the weekend of the Nth", asked on any day: a Monday-to-Monday
    /// week holding an N-th, or a Saturday and Sunday one of which is an N-th or next to a Friday
    /// or Monday N-th; begun by the
    /// reference; and the latest such: the same span of the next month that has an N-th (the
    /// next month's weekend, for a weekend) has not begun.
    #[test]
    fn the_week_of_a_day_of_the_month_is_the_latest_begun(
        day in 1u32..32,
        weekend in any::<bool>(),
        reference in 946_684_800_000i64..4_102_358_400_000,
    ) {
        let suffix = match day {
            1 | 21 | 31 => "st",
            2 | 22 => "nd",
            3 | 23 => "rd",
            _ => "th",
        };
        let query = format!("the {} of the {day}{suffix}", if weekend { "weekend" } else { "week" });
        let today = date_of(reference);
        let Some(mention) = resolve_time(&query, reference) else {
            // Only when no month of the last twelve offers one: never for a week.
            prop_assert!(weekend, "{}", query);
            return Ok(());
        };
        let start = date_of(mention.period.start_ms);
        let days = (mention.period.end_ms - mention.period.start_ms) / 86_400_000;
        prop_assert!(start <= today);
        // A weekend may also be the one after a Friday N-th or before a Monday N-th.
        let held = (-1..=days)
            .filter(|i| weekend || (0..days).contains(i))
            .filter_map(|i| start.checked_add_signed(chrono::TimeDelta::days(i)))
            .any(|d| d.day() == day);
        prop_assert!(held, "{}: {} holds no {}", query, start, day);
        if weekend {
            prop_assert_eq!(days, 2);
            prop_assert_eq!(start.weekday(), chrono::Weekday::Sat);
        } else {
            prop_assert_eq!(days, 7);
            prop_assert_eq!(start.weekday(), chrono::Weekday::Mon);
        }
        // No later such span has begun: every N-th after the period's own, up to the
        // reference, gives a span that starts after the reference or is no weekend.
        let mut later = start + chrono::Days::new(days as u64);
        while later <= today {
            if later.day() == day {
                let begins = match (weekend, later.weekday()) {
                    (false, w) => Some(later - chrono::Days::new(u64::from(w.num_days_from_monday()))),
                    (true, chrono::Weekday::Fri) => Some(later + chrono::Days::new(1)),
                    (true, chrono::Weekday::Sat) => Some(later),
                    (true, chrono::Weekday::Sun) => Some(later - chrono::Days::new(1)),
                    (true, chrono::Weekday::Mon) => Some(later - chrono::Days::new(2)),
                    (true, _) => None,
                };
                // The same weekend, for the Monday after it, is no later one.
                prop_assert!(
                    begins.is_none_or(|b| b > today || b == start),
                    "{}: {} is later", query, later
                );
            }
            later = later + chrono::Days::new(1);
        }
    }

    /// A day, a week of a month or a month next to a year names that year's, whatever the order
    /// and the wording ("on March 3 last year", "last year in October", "2025年10月の第2週"):
    /// checked against the calendar day by day, asked on any day from 2000 to 2099.
    #[test]
    fn a_day_or_a_week_of_a_month_next_to_a_year_is_that_years(
        month in 1u32..13,
        day in 1u32..29,
        week in 1u32..5,
        years_ago in 1u32..4,
        wording in 0usize..6,
        reference in 946_684_800_000i64..4_102_358_400_000,
    ) {
        let today = date_of(reference);
        let year = today.year() - years_ago as i32;
        let name = MONTH_NAMES[month as usize - 1];
        let ago = match years_ago {
            1 => "last year".to_string(),
            _ => format!("in {year}"),
        };
        let ordinal = ["first", "second", "third", "fourth"][week as usize - 1];
        let (query, from, days) = match wording {
            0 => (format!("what did I note on {name} {day} {ago}?"), day, 1),
            1 => (format!("{ago} on {name} {day}, what did I note"), day, 1),
            2 => (format!("notes from the {ordinal} week of {name} {ago}"), 7 * week - 6, 7),
            3 => (format!("{ago} in {name}"), 1, 0),
            4 => (format!("{year}年{month}月の第{week}週のメモ"), 7 * week - 6, 7),
            _ => (format!("{year}年{month}月{day}日に書いたこと"), day, 1),
        };
        let start = NaiveDate::from_ymd_opt(year, month, from).unwrap();
        let end = match days {
            0 => start.checked_add_months(chrono::Months::new(1)).unwrap(),
            days => start + chrono::Days::new(days),
        };
        let to_ms = |d: NaiveDate| d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis();
        let mention = resolve_time(&query, reference);
        prop_assert!(mention.is_some(), "{}", query);
        prop_assert_eq!(
            mention.unwrap().period,
            Period { start_ms: to_ms(start), end_ms: to_ms(end) },
            "{}", query
        );
    }

    /// A day or month placed in this year is this year's or, while it is to come, no time;
    /// placed in next year, no time, in either order: never the latest such day of an
    /// earlier year ("on December 20 this year" asked on December 2 was last year's).
    #[test]
    fn a_day_placed_in_this_or_next_year_is_never_an_earlier_years(
        month in 1u32..13,
        day in 1u32..29,
        wording in 0usize..4,
        reference in 946_684_800_000i64..4_102_358_400_000,
    ) {
        let today = date_of(reference);
        let name = MONTH_NAMES[month as usize - 1];
        let (query, next_year) = match wording {
            0 => (format!("what did I note on {name} {day} this year?"), false),
            1 => (format!("this year on {name} {day}"), false),
            2 => (format!("what did I note on {name} {day} next year?"), true),
            _ => (format!("next year in {name}"), true),
        };
        let got = resolve_time(&query, reference).map(|m| m.period);
        let date = NaiveDate::from_ymd_opt(today.year(), month, day).unwrap();
        let start = date.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis();
        let want = (!next_year && date <= today)
            .then_some(Period { start_ms: start, end_ms: start + 86_400_000 });
        prop_assert_eq!(got, want, "{}", query);
    }

    /// A weekday, month or quarter named after a determiner or "for", alone or listed with
    /// another, is part of a topic's name: the period is the real time phrase's, wherever it
    /// stands ("what did I note about the Monday standup last week?" was last Monday).
    #[test]
    fn a_name_after_a_determiner_never_takes_the_period(
        determiner in prop::sample::select(vec!["the", "my", "our", "every", "for the", "a"]),
        first in 0usize..22,
        second in prop::option::of(0usize..22),
        joiner in prop::sample::select(vec![" and ", " or ", "/", " to ", ", "]),
        noun in prop::sample::select(vec!["standup", "release", "review", "meeting", "issue", "plan"]),
        time in prop::sample::select(vec![
            "last week", "yesterday", "in March", "two days ago", "on 2026-11-03", "last month",
        ]),
        time_first in any::<bool>(),
        reference in 946_684_800_000i64..4_102_358_400_000,
    ) {
        const NAMES: [&str; 22] = [
            "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
            "January", "February", "March", "April", "June", "July", "August", "September",
            "October", "November", "December", "Q1", "Q2", "Q3", "Q4",
        ];
        let names = match second {
            Some(second) => format!("{}{joiner}{}", NAMES[first], NAMES[second]),
            None => NAMES[first].to_owned(),
        };
        let topic = format!("{determiner} {names} {noun}");
        let query = if time_first {
            format!("what did I note {time} about {topic}?")
        } else {
            format!("what did I note about {topic} {time}?")
        };
        let want = resolve_time(time, reference).map(|m| m.period);
        let got = resolve_time(&query, reference).map(|m| m.period);
        prop_assert_eq!(got, want, "{}", query);
    }
}

/// A range of two months named without a year reads the same in the three languages, asked on
/// any day of any month: "from March to May", "ממרץ עד מאי", "3月から5月まで" (a range still
/// running is this year's; one whose start is to come is the latest one begun).
#[test]
fn a_range_of_two_months_reads_the_same_in_every_language() {
    for asked_month in 1..=12 {
        for asked_day in [1, 15, 28] {
            let asked = ms(&format!("2026-{asked_month:02}-{asked_day:02}T12:00"));
            for from in 0..12 {
                for to in 0..12 {
                    let japanese = format!("{}月から{}月まで", from + 1, to + 1);
                    let want = resolve_time(&japanese, asked).map(|m| m.period);
                    let first = want.expect("a range of months names a time");
                    assert!(
                        first.start_ms <= asked,
                        "{japanese} at 2026-{asked_month}-{asked_day}"
                    );
                    let mut others =
                        vec![format!("מ{} עד {}", HEBREW_MONTHS[from], HEBREW_MONTHS[to])];
                    // "from May" is read as a name ("suggestions from May").
                    if from != 4 {
                        others.push(format!("from {} to {}", MONTH_NAMES[from], MONTH_NAMES[to]));
                    }
                    // Abbreviations with no word before them: never "may" ("Jan - may I").
                    if from != 4 && to != 4 {
                        let (a, b) = (MONTH_ABBREVIATIONS[from], MONTH_ABBREVIATIONS[to]);
                        others.push(format!("{a}-{b}"));
                        others.push(format!("{a} – {b} notes"));
                        others.push(format!("{a} to {b}"));
                        others.push(format!("in {a}-{b}"));
                    }
                    for query in others {
                        assert_eq!(
                            resolve_time(&query, asked).map(|m| m.period),
                            want,
                            "{query} at 2026-{asked_month}-{asked_day} (as {japanese})"
                        );
                    }
                }
            }
        }
    }
}

/// A range of two months with a year after it reads the year as the last month's, however the
/// months are written: "in Sep-Nov last year" is "from September to November last year", and
/// "Nov-Jan 2025" is "from November to January 2025" (November 2024 to January 2025).
#[test]
fn a_year_after_a_range_of_months_is_the_last_months() {
    for asked in ["2026-01-15T12:00", "2026-06-01T12:00", "2026-12-02T15:30"] {
        let asked = ms(asked);
        for from in (0..12).filter(|m| *m != 4) {
            for to in (0..12).filter(|m| *m != 4) {
                let (a, b) = (MONTH_ABBREVIATIONS[from], MONTH_ABBREVIATIONS[to]);
                let (full_a, full_b) = (MONTH_NAMES[from], MONTH_NAMES[to]);
                for year in ["last year", "2025", "of 2024"] {
                    let want = resolve_time(&format!("from {full_a} to {full_b} {year}"), asked)
                        .map(|m| m.period)
                        .expect("a range in a past year names a time");
                    for query in [
                        format!("in {a}-{b} {year}"),
                        format!("{a}-{b} {year}"),
                        format!("{a} to {b} {year}"),
                        format!("between {full_a} and {full_b} {year}"),
                    ] {
                        let got = resolve_time(&query, asked);
                        assert_eq!(got.map(|m| m.period), Some(want), "{query} at {asked}");
                    }
                }
            }
        }
    }
}

/// A month, a season or a holiday that opens a label ("Dec dentist notes", "Summer trip
/// notes") reads as it would after "in" or "on", whatever the topic words between.
#[test]
fn a_label_reads_its_time_as_a_preposition_would() {
    let mut times: Vec<(String, &str)> = Vec::new();
    for m in (0..12).filter(|m| *m != 4) {
        times.push((MONTH_ABBREVIATIONS[m].to_owned(), "in"));
        times.push((MONTH_NAMES[m].to_owned(), "in"));
    }
    for season in ["Spring", "Summer", "Autumn", "Winter"] {
        times.push((season.to_owned(), "in"));
    }
    for holiday in [
        "Christmas 2025",
        "New Year's Day",
        "Memorial Day",
        "Halloween",
    ] {
        times.push((holiday.to_owned(), "on"));
    }
    times.push(("late Jan".to_owned(), "in"));
    let labels = [
        "{} notes",
        "{} dentist notes",
        "{} trip photos",
        "{} budget recap",
        "{}: rent",
    ];
    for asked in ["2026-12-02T15:30", "2026-03-10T09:00", "2027-01-05T12:00"] {
        let asked = ms(asked);
        for (time, preposition) in &times {
            let want = resolve_time(&format!("{preposition} {time}"), asked).map(|m| m.period);
            for label in labels {
                let query = label.replacen("{}", time, 1);
                let got = resolve_time(&query, asked).map(|m| m.period);
                assert_eq!(got, want, "{query} at {asked}");
            }
        }
    }
}

/// A holiday, asked on any day, is always the latest one begun: it names a period, and that
/// period has started. Every day of two years, for holidays of every calendar the resolver
/// knows (Gregorian dates, Easter, Thanksgiving, the Hebrew calendar's from Passover, Rosh
/// Hashanah and Hanukkah, Japanese ones).
#[test]
fn a_holiday_asked_on_any_day_is_the_latest_begun() {
    let holidays = [
        "on Christmas",
        "over Easter",
        "on Thanksgiving",
        "on Memorial Day",
        "on Halloween",
        "over Hanukkah",
        "on Passover",
        "on Yom Kippur",
        "on Shrove Tuesday",
        "בפסח",
        "בחנוכה",
        "בראש השנה",
        "בסוכות",
        "בשבועות",
        "בל\"ג בעומר",
        "ביום העצמאות",
        "בליל הסדר",
        "בט\"ו בשבט",
        "בחגי תשרי",
        "בפורים",
        "お盆に",
        "成人の日に",
        "クリスマスに",
        "GWに",
    ];
    let start = ms("2026-01-01T12:00");
    for day in 0..730 {
        let asked = start + day * 86_400_000;
        for holiday in holidays {
            let period = resolve_time(holiday, asked)
                .unwrap_or_else(|| panic!("{holiday} names no time at {asked}"))
                .period;
            assert!(period.start_ms <= asked, "{holiday} at {asked}: {period:?}");
            // A Hebrew leap year has up to 385 days.
            assert!(
                asked - period.start_ms < 386 * 86_400_000,
                "{holiday} at {asked}: {period:?} is not the latest"
            );
        }
    }
}

const MONTH_ABBREVIATIONS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

const HEBREW_MONTHS: [&str; 12] = [
    "ינואר",
    "פברואר",
    "מרץ",
    "אפריל",
    "מאי",
    "יוני",
    "יולי",
    "אוגוסט",
    "ספטמבר",
    "אוקטובר",
    "נובמבר",
    "דצמבר",
];

/// The same period named in English, Hebrew and Japanese: months and their thirds, days,
/// "since" and "before" a month, a month of last year or of 2025, units back, weekdays (alone
/// and of last week) and the common fixed words. Each triple reads one period, asked at five
/// instants (the ends of months and years among them).
#[test]
fn the_same_period_reads_the_same_in_every_language() {
    const EN_COUNTS: [&str; 12] = [
        "", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    ];
    let mut triples: Vec<[String; 3]> = Vec::new();
    for m in 0..12 {
        let (en, he, n) = (MONTH_NAMES[m], HEBREW_MONTHS[m], m + 1);
        triples.push([format!("in {en}"), format!("ב{he}"), format!("{n}月")]);
        triples.push([
            format!("in early {en}"),
            format!("בתחילת {he}"),
            format!("{n}月上旬"),
        ]);
        triples.push([
            format!("in mid-{en}"),
            format!("באמצע {he}"),
            format!("{n}月中旬"),
        ]);
        triples.push([
            format!("in late {en}"),
            format!("בסוף {he}"),
            format!("{n}月下旬"),
        ]);
        triples.push([
            format!("since {en}"),
            format!("מאז {he}"),
            format!("{n}月以降"),
        ]);
        triples.push([
            format!("before {en}"),
            format!("לפני {he}"),
            format!("{n}月より前"),
        ]);
        triples.push([
            format!("in {en} last year"),
            format!("ב{he} שנה שעברה"),
            format!("去年の{n}月"),
        ]);
        triples.push([
            format!("in {en} 2025"),
            format!("ב{he} 2025"),
            format!("2025年{n}月"),
        ]);
        for d in [1, 10, 20, 28] {
            triples.push([
                format!("on {en} {d}"),
                format!("ב-{d} ב{he}"),
                format!("{n}月{d}日"),
            ]);
        }
        // Days of the month, in each language's order.
        for (a, b) in [(1, 10), (5, 20), (11, 28)] {
            for he_range in [
                format!("מה-{a} עד ה-{b} ב{he}"),
                format!("בין ה-{a} ל-{b} ב{he}"),
                format!("מ-{a} עד {b} ב{he}"),
            ] {
                triples.push([
                    format!("{en} {a}-{b}"),
                    he_range,
                    format!("{n}月{a}日〜{b}日"),
                ]);
            }
        }
    }
    for (n, count) in EN_COUNTS.iter().enumerate().skip(1) {
        let (days, weeks, months, years) = match n {
            1 => ("יום".into(), "שבוע".into(), "חודש".into(), "שנה".into()),
            2 => (
                "יומיים".into(),
                "שבועיים".into(),
                "חודשיים".into(),
                "שנתיים".into(),
            ),
            _ => (
                format!("{n} ימים"),
                format!("{n} שבועות"),
                format!("{n} חודשים"),
                format!("{n} שנים"),
            ),
        };
        let plural = if n == 1 { "" } else { "s" };
        triples.push([
            format!("{count} day{plural} ago"),
            format!("לפני {days}"),
            format!("{n}日前"),
        ]);
        triples.push([
            format!("{count} week{plural} ago"),
            format!("לפני {weeks}"),
            format!("{n}週間前"),
        ]);
        triples.push([
            format!("{count} month{plural} ago"),
            format!("לפני {months}"),
            format!("{n}か月前"),
        ]);
        triples.push([
            format!("{count} year{plural} ago"),
            format!("לפני {years}"),
            format!("{n}年前"),
        ]);
    }
    for w in 0..7 {
        let (en, he, ja) = (EN_WEEKDAYS[w], HE_WEEKDAYS[w], JA_WEEKDAYS[w]);
        triples.push([
            format!("on {en}"),
            format!("ביום {he}"),
            format!("{ja}曜日"),
        ]);
        triples.push([
            format!("on {en} last week"),
            format!("ביום {he} בשבוע שעבר"),
            format!("先週の{ja}曜日"),
        ]);
        // Hebrew writes a weekday by its letter too ("יום ה'"); Saturday only as שבת.
        if let Some(letter) = ["ב", "ג", "ד", "ה", "ו", "", "א"]
            .get(w)
            .filter(|l| !l.is_empty())
        {
            triples.push([
                format!("on {en}"),
                format!("ביום {letter}'"),
                format!("{ja}曜日"),
            ]);
        }
    }
    // A day of the month alone: the latest such day.
    for (d, suffix) in [(2, "nd"), (10, "th"), (15, "th"), (23, "rd"), (28, "th")] {
        triples.push([
            format!("on the {d}{suffix}"),
            format!("ב-{d} לחודש"),
            format!("{d}日に"),
        ]);
    }
    // Two counts back, the smaller first.
    for (a, b) in [(1, 2), (2, 3), (2, 4), (3, 5)] {
        for (en, he, ja) in [
            ("days", "ימים", "日"),
            ("weeks", "שבועות", "週間"),
            ("months", "חודשים", "か月"),
            ("years", "שנים", "年"),
        ] {
            triples.push([
                format!("{a}-{b} {en} ago"),
                format!("לפני {a}-{b} {he}"),
                format!("{a}〜{b}{ja}前"),
            ]);
            triples.push([
                format!("between {a} and {b} {en} ago"),
                format!("לפני {a} עד {b} {he}"),
                format!("{a}、{b}{ja}前"),
            ]);
        }
    }
    for [en, he, ja] in [
        ["in the summer", "בקיץ", "夏に"],
        ["last week", "בשבוע שעבר", "先週"],
        ["last month", "בחודש שעבר", "先月"],
        ["last year", "בשנה שעברה", "去年"],
        ["this week", "השבוע", "今週"],
        ["this month", "החודש", "今月"],
        ["this year", "השנה", "今年"],
        ["yesterday", "אתמול", "昨日"],
        ["the day before yesterday", "שלשום", "一昨日"],
        ["in 2025", "ב-2025", "2025年"],
        ["since 2025", "מאז 2025", "2025年以降"],
        ["early last month", "בתחילת החודש שעבר", "先月上旬"],
        ["late last month", "בסוף החודש שעבר", "先月下旬"],
        ["the week before last", "לפני שבועיים", "先々週"],
        ["the past week", "בשבוע האחרון", "過去1週間"],
        ["the past month", "בחודש האחרון", "過去1か月"],
        [
            "the first half of the year",
            "המחצית הראשונה של השנה",
            "上半期",
        ],
        ["in Q1", "ברבעון הראשון", "第1四半期"],
        [
            "the first half of 2025",
            "במחצית הראשונה של 2025",
            "2025年上半期",
        ],
        [
            "the second half of 2025",
            "בחצי השני של 2025",
            "2025年の下半期",
        ],
        [
            "two to three weeks ago",
            "לפני שבועיים-שלושה",
            "二、三週間前",
        ],
        ["a week or two ago", "לפני שבוע-שבועיים", "1、2週間前"],
        ["last quarter", "ברבעון הקודם", "前四半期"],
    ] {
        triples.push([en.into(), he.into(), ja.into()]);
    }
    for asked in [
        "2026-12-02T15:30",
        "2026-03-10T09:00",
        "2027-01-05T12:00",
        "2026-06-30T20:00",
        "2026-02-28T23:00",
    ] {
        for [en, he, ja] in &triples {
            let read = |q: &str| resolve_time(q, ms(asked)).map(|m| m.period);
            let want = read(ja);
            assert_eq!(read(en), want, "{en} / {ja} at {asked}");
            assert_eq!(read(he), want, "{he} / {ja} at {asked}");
        }
    }
}

/// English paraphrases of one period read the same: a month ("in", "during", "back in", "the
/// month of", abbreviated, "throughout"), its thirds ("early", "at the beginning of", "the
/// first part of"…), a month of last year or 2025 in either order, a day in seven spellings
/// (with and without a year), units back ("two", "2", "back", "wks", "mos"), a weekday of last
/// week in four orders, and common fixed phrases; asked at four instants.
#[test]
fn paraphrases_of_one_period_read_the_same() {
    let ordinal = |d: u32| match d {
        1 | 21 => format!("{d}st"),
        2 | 22 => format!("{d}nd"),
        3 => format!("{d}rd"),
        _ => format!("{d}th"),
    };
    let mut groups: Vec<Vec<String>> = Vec::new();
    for (m, e) in MONTH_NAMES.iter().enumerate() {
        // "May" alone is mostly the verb; its rules are tested on their own.
        if *e == "May" {
            continue;
        }
        let a = &e[..3];
        let n = m + 1;
        groups.push(vec![
            format!("in {e}"),
            format!("during {e}"),
            format!("back in {e}"),
            format!("in the month of {e}"),
            format!("in {a}"),
            format!("what happened in {e}?"),
            format!("{e}: what did I note"),
            format!("throughout {e}"),
        ]);
        groups.push(vec![
            format!("in early {e}"),
            format!("at the beginning of {e}"),
            format!("at the start of {e}"),
            format!("early in {e}"),
            format!("in the first part of {e}"),
            format!("early {e}"),
        ]);
        groups.push(vec![
            format!("in late {e}"),
            format!("at the end of {e}"),
            format!("late in {e}"),
            format!("towards the end of {e}"),
            format!("the last part of {e}"),
            format!("late {e}"),
        ]);
        groups.push(vec![
            format!("in mid-{e}"),
            format!("in the middle of {e}"),
            format!("mid {e}"),
            format!("the middle part of {e}"),
        ]);
        groups.push(vec![
            format!("in {e} last year"),
            format!("last year in {e}"),
            format!("in {e} of last year"),
            format!("{e} last year"),
        ]);
        groups.push(vec![
            format!("in {e} 2025"),
            format!("in {e} of 2025"),
            format!("in {e}, 2025"),
            format!("in {a} 2025"),
            format!("2025 in {e}"),
        ]);
        for d in [1, 3, 10, 21, 22, 28] {
            let o = ordinal(d);
            groups.push(vec![
                format!("on {e} {d}"),
                format!("on {e} {o}"),
                format!("on {d} {e}"),
                format!("on the {o} of {e}"),
                format!("{a} {d}"),
                format!("on {n}/{d}"),
            ]);
            groups.push(vec![
                format!("on {e} {d}, 2025"),
                format!("on {e} {d} 2025"),
                format!("on {d} {e} 2025"),
                format!("on the {o} of {e} 2025"),
                format!("on 2025-{n:02}-{d:02}"),
                format!("on {n}/{d}/2025"),
                format!("on {n}/{d}/25"),
            ]);
        }
    }
    for (word, digits) in [("two", 2), ("three", 3), ("five", 5), ("six", 6)] {
        for (unit, short) in [("days", "days"), ("weeks", "wks"), ("months", "mos")] {
            groups.push(vec![
                format!("{word} {unit} ago"),
                format!("{digits} {unit} ago"),
                format!("{word} {unit} back"),
                format!("{digits} {short} ago"),
            ]);
        }
    }
    for w in EN_WEEKDAYS {
        groups.push(vec![
            format!("on {w} last week"),
            format!("last week on {w}"),
            format!("on {w} of last week"),
            format!("last week's {w}"),
        ]);
    }
    for group in [
        &["last week", "the previous week", "the prior week"][..],
        &[
            "last month",
            "the previous month",
            "in the prior month",
            "during last month",
        ],
        &[
            "last year",
            "the previous year",
            "in the prior year",
            "during last year",
        ],
        &["yesterday", "the day before today"],
        &[
            "the week before last",
            "two weeks ago",
            "a couple of weeks ago",
            "a fortnight ago",
        ],
        &[
            "in the last 7 days",
            "in the past 7 days",
            "in the past week",
            "within the last week",
            "the past seven days",
        ],
        &[
            "in the last 30 days",
            "over the past 30 days",
            "in the past thirty days",
        ],
        &["last weekend", "over the weekend", "this past weekend"],
        &[
            "in Q3",
            "in the third quarter",
            "during Q3",
            "in the 3rd quarter",
        ],
        &[
            "in 2025",
            "during 2025",
            "back in 2025",
            "in the year 2025",
            "throughout 2025",
            "all of 2025",
        ],
    ] {
        groups.push(group.iter().map(|s| s.to_string()).collect());
    }
    for asked in [
        "2026-12-02T15:30",
        "2026-03-10T09:00",
        "2027-01-05T12:00",
        "2026-06-30T20:00",
    ] {
        for group in &groups {
            let read = |q: &str| resolve_time(q, ms(asked)).map(|m| m.period);
            let want = read(&group[0]);
            assert!(want.is_some(), "{} at {asked}", group[0]);
            for query in &group[1..] {
                assert_eq!(read(query), want, "{query} / {} at {asked}", group[0]);
            }
        }
    }
}

/// A time to come names no period in any language, alone or in a sentence, and takes with it
/// what it names next to it ("on Monday next week", "来週の月曜日", "ביום שני הבא"): asked at
/// four instants.
#[test]
fn a_time_to_come_names_no_period_in_any_language() {
    let mut phrases: Vec<String> = Vec::new();
    for w in 0..7 {
        let (en, he, ja) = (EN_WEEKDAYS[w], HE_WEEKDAYS[w], JA_WEEKDAYS[w]);
        phrases.extend([
            format!("next {en}"),
            format!("this coming {en}"),
            format!("on {en} next week"),
            format!("next week on {en}"),
            format!("来週の{ja}曜日"),
            format!("次の{ja}曜日"),
            format!("今度の{ja}曜日"),
            format!("ביום {he} הבא"),
            format!("ביום {he} הקרוב"),
            format!("ביום {he} בשבוע הבא"),
        ]);
    }
    for m in 0..12 {
        let (en, he, n) = (MONTH_NAMES[m], HEBREW_MONTHS[m], m + 1);
        phrases.extend([
            format!("next {en}"),
            format!("in {en} next year"),
            format!("next year in {en}"),
            format!("来年の{n}月"),
            format!("来年{n}月"),
            format!("ב{he} הבא"),
            format!("ב{he} בשנה הבאה"),
        ]);
    }
    for fixed in [
        "tomorrow",
        "the day after tomorrow",
        "next week",
        "next month",
        "next year",
        "later this week",
        "later today",
        "next summer",
        "this coming weekend",
        "明日",
        "明後日",
        "来週",
        "来月",
        "来年",
        "再来週",
        "מחר",
        "מחרתיים",
        "בשבוע הבא",
        "בחודש הבא",
        "בשנה הבאה",
        "בקיץ הבא",
    ] {
        phrases.push(fixed.to_string());
    }
    for asked in [
        "2026-12-02T15:30",
        "2026-03-10T09:00",
        "2027-01-05T12:00",
        "2026-06-30T20:00",
    ] {
        for phrase in &phrases {
            for query in [phrase.clone(), format!("remind me what I planned {phrase}")] {
                assert_eq!(resolve_time(&query, ms(asked)), None, "{query} at {asked}");
            }
        }
    }
}

const EN_WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

const HE_WEEKDAYS: [&str; 7] = ["שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"];

const JA_WEEKDAYS: [&str; 7] = ["月", "火", "水", "木", "金", "土", "日"];

/// A holiday next to "last year" (before it, or after it with "'s") or before a year is that
/// year's holiday, never the whole year and never another year's: every name, both orders,
/// asked at four instants.
#[test]
fn a_holiday_next_to_a_year_is_that_years_holiday() {
    // Name, the months it may fall in, its length in days.
    const HOLIDAYS: [(&str, &[u32], i64); 4] = [
        ("Christmas", &[12], 3),
        ("Halloween", &[10], 1),
        ("Thanksgiving", &[11], 4),
        ("Easter", &[3, 4], 4),
    ];
    for asked in [
        "2026-12-02T15:30",
        "2026-03-10T09:00",
        "2027-01-05T12:00",
        "2026-06-30T20:00",
    ] {
        let reference = ms(asked);
        let this_year = NaiveDateTime::parse_from_str(asked, "%Y-%m-%dT%H:%M")
            .unwrap()
            .year();
        for (name, months, days) in HOLIDAYS {
            for (query, year) in [
                (format!("what did I buy {name} last year?"), this_year - 1),
                (format!("last year's {name} notes"), this_year - 1),
                (format!("what did I write {name} 2025"), 2025),
            ] {
                let period = resolve_time(&query, reference)
                    .unwrap_or_else(|| panic!("{query} at {asked}"))
                    .period;
                let start = chrono::DateTime::from_timestamp_millis(period.start_ms).unwrap();
                assert_eq!(start.year(), year, "{query} at {asked}");
                assert!(months.contains(&start.month()), "{query} at {asked}");
                assert_eq!(
                    period.end_ms - period.start_ms,
                    days * 86_400_000,
                    "{query} at {asked}"
                );
            }
        }
    }
}

/// Around a holiday, asked on any day of two years, in every language: "before A" is
/// everything before the latest A begun, "just before A" and "the week before A" its seven
/// days before, "the day before A" one day, "the day after A" the day after it ends and "the
/// weekend before A" the Saturday to Monday that ends by its start; unless the latest A is over
/// sixty days past and the next begins within sixty days, when the member speaks of the
/// coming one and "before" names no period.
#[test]
fn words_around_a_holiday_read_from_the_latest_begun() {
    const DAY: i64 = 86_400_000;
    // (the holiday alone, then the same holiday with each side's words; `None` where the
    // language has no such form).
    type Around = (
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
    );
    let holidays: [Around; 12] = [
        (
            "over Christmas",
            "before Christmas",
            Some("just before Christmas"),
            // "The day after Christmas" is December 26, a day of its own.
            None,
            Some("the weekend before Christmas"),
            None,
        ),
        (
            "over Easter",
            "before Easter",
            Some("right before Easter"),
            Some("the day after Easter"),
            Some("the weekend before Easter"),
            Some("the day before Easter"),
        ),
        (
            "on Thanksgiving",
            "prior to Thanksgiving",
            Some("in the days before Thanksgiving"),
            None,
            None,
            None,
        ),
        (
            "on Passover",
            "before Passover",
            Some("the week before Passover"),
            Some("the day after Passover"),
            Some("the weekend before Passover"),
            Some("the day before Passover"),
        ),
        (
            "over Hanukkah",
            "before Hanukkah",
            Some("shortly before Hanukkah"),
            Some("the day after Hanukkah"),
            None,
            Some("the day before Hanukkah"),
        ),
        (
            "on Rosh Hashanah",
            "before Rosh Hashanah",
            Some("the week before Rosh Hashanah"),
            None,
            Some("the weekend before Rosh Hashanah"),
            None,
        ),
        (
            "בפסח",
            "לפני פסח",
            Some("בשבוע שלפני פסח"),
            Some("ביום שאחרי פסח"),
            None,
            Some("ביום שלפני פסח"),
        ),
        (
            "בחנוכה",
            "לפני חנוכה",
            Some("בימים שלפני חנוכה"),
            Some("ביום שאחרי חנוכה"),
            None,
            None,
        ),
        (
            "בסוכות",
            "לפני סוכות",
            Some("ממש לפני סוכות"),
            None,
            None,
            None,
        ),
        (
            "クリスマスに",
            "クリスマス前",
            Some("クリスマスの前の週"),
            Some("クリスマスの翌日"),
            Some("クリスマスの前の週末"),
            Some("クリスマス前日"),
        ),
        (
            "お盆に",
            "お盆の前",
            Some("お盆の直前"),
            Some("お盆の翌日"),
            None,
            Some("お盆の前日"),
        ),
        ("GWに", "GW前", Some("GW直前"), None, None, None),
    ];
    let start = ms("2026-01-01T12:00");
    let named = |query: &str, asked: i64| resolve_time(query, asked).map(|m| m.period);
    for day in 0..730 {
        let asked = start + day * DAY;
        for (alone, before, just, day_after, weekend, day_before) in holidays {
            let latest = named(alone, asked).unwrap_or_else(|| panic!("{alone} at {asked}"));
            let next = named(alone, asked + 60 * DAY).unwrap_or_else(|| panic!("{alone}"));
            let coming = latest.end_ms + 60 * DAY < asked && next.start_ms > asked;
            let expect = |query: &str, period: Option<Period>| {
                assert_eq!(
                    named(query, asked),
                    period,
                    "{query} at day {day} of 2026-27"
                );
            };
            let before_it = |start_ms: i64| {
                (!coming).then_some(Period {
                    start_ms,
                    end_ms: latest.start_ms,
                })
            };
            expect(before, before_it(0));
            if let Some(just) = just {
                expect(just, before_it(latest.start_ms - 7 * DAY));
            }
            if let Some(day_before) = day_before {
                expect(day_before, before_it(latest.start_ms - DAY));
            }
            if let Some(weekend) = weekend {
                let period = named(weekend, asked);
                if coming {
                    assert_eq!(period, None, "{weekend} at day {day}");
                } else {
                    let period = period.unwrap_or_else(|| panic!("{weekend} at day {day}"));
                    let saturday = chrono::DateTime::from_timestamp_millis(period.start_ms)
                        .unwrap()
                        .weekday();
                    assert_eq!(saturday, chrono::Weekday::Sat, "{weekend} at day {day}");
                    assert_eq!(period.end_ms - period.start_ms, 2 * DAY, "{weekend}");
                    assert!(period.end_ms <= latest.start_ms, "{weekend} at day {day}");
                    assert!(
                        period.end_ms + 7 * DAY > latest.start_ms,
                        "{weekend} at day {day}"
                    );
                }
            }
            // The day after a holiday that has ended.
            if let Some(day_after) = day_after
                && latest.end_ms + DAY <= asked
            {
                let period = Period {
                    start_ms: latest.end_ms,
                    end_ms: latest.end_ms + DAY,
                };
                expect(day_after, Some(period));
            }
        }
    }
}

/// An ISO week number, asked on any day of two years: the latest week of that number that has
/// begun, Monday to Monday, as chrono numbers the weeks; with a year, that year's. A week 53
/// names a period only where a recent year has one.
#[test]
fn a_week_number_is_the_latest_such_iso_week_begun() {
    const DAY: i64 = 86_400_000;
    let start = ms("2026-01-01T09:00");
    for day in (0..730).step_by(5) {
        let asked = start + day * DAY;
        for week in 1..=53u32 {
            for query in [
                format!("in week {week}"),
                format!("notes from CW {week}"),
                format!("KW{week} notes"),
                format!("בשבוע {week}"),
            ] {
                let Some(mention) = resolve_time(&query, asked) else {
                    assert_eq!(week, 53, "{query} at day {day}");
                    continue;
                };
                let period = mention.period;
                let monday = chrono::DateTime::from_timestamp_millis(period.start_ms)
                    .unwrap()
                    .date_naive();
                assert_eq!(monday.weekday(), chrono::Weekday::Mon, "{query}");
                assert_eq!(monday.iso_week().week(), week, "{query}");
                assert_eq!(period.end_ms - period.start_ms, 7 * DAY, "{query}");
                assert!(period.start_ms <= asked, "{query} at day {day}");
                // The next week of that number has not begun.
                let next_year = NaiveDate::from_isoywd_opt(
                    monday.iso_week().year() + 1,
                    week,
                    chrono::Weekday::Mon,
                );
                if let Some(next) = next_year {
                    assert!(
                        next.and_hms_opt(0, 0, 0)
                            .unwrap()
                            .and_utc()
                            .timestamp_millis()
                            > asked,
                        "{query} at day {day}: {monday} is not the latest"
                    );
                }
            }
            for year in [2024, 2025, 2026] {
                let Some(monday) = NaiveDate::from_isoywd_opt(year, week, chrono::Weekday::Mon)
                else {
                    continue;
                };
                let first = monday
                    .and_hms_opt(0, 0, 0)
                    .unwrap()
                    .and_utc()
                    .timestamp_millis();
                if first > asked {
                    continue;
                }
                let expected = Some(Period {
                    start_ms: first,
                    end_ms: first + 7 * DAY,
                });
                for query in [
                    format!("{year}-W{week:02}"),
                    format!("week {week} of {year}"),
                    format!("{year}年第{week}週"),
                    format!("שבוע {week} של {year}"),
                ] {
                    let got = resolve_time(&query, asked).map(|m| m.period);
                    assert_eq!(got, expected, "{query} at day {day}");
                }
            }
        }
    }
}

/// "The last N weekends" in English and Hebrew, asked on any day: from the Saturday of the
/// N-th latest weekend that is over to the Monday that ends the latest one.
#[test]
fn counted_weekends_run_from_the_earliest_saturday_to_the_latest_monday() {
    const DAY: i64 = 86_400_000;
    let start = ms("2026-01-01T12:00");
    let words = ["two", "three", "four"];
    let hebrew = ["שני", "שלושת", "ארבעת"];
    for day in 0..60 {
        let asked = start + day * DAY;
        let last = resolve_time("last weekend", asked).unwrap().period;
        for (count, (english, hebrew)) in (2..).zip(words.iter().zip(hebrew)) {
            let expected = Some(Period {
                start_ms: last.start_ms - 7 * DAY * (count - 1),
                end_ms: last.end_ms,
            });
            for query in [
                format!("over the last {english} weekends"),
                format!("the past {count} weekends"),
                format!("ב{hebrew} סופי השבוע האחרונים"),
            ] {
                let got = resolve_time(&query, asked).map(|m| m.period);
                assert_eq!(got, expected, "{query} at day {day}");
            }
        }
    }
}

/// "Around" a day, in every language, for every day from February to November asked at the
/// end of the year: that day and three days on each side.
#[test]
fn around_a_day_is_three_days_each_side() {
    const DAY: i64 = 86_400_000;
    let asked = ms("2026-12-31T12:00");
    for month in 2..=11u32 {
        for day in 1..=28u32 {
            let first = ms(&format!("2026-{month:02}-{day:02}"));
            let expected = Some(Period {
                start_ms: first - 3 * DAY,
                end_ms: first + 4 * DAY,
            });
            let name = MONTH_NAMES[month as usize - 1];
            let hebrew = HEBREW_MONTHS[month as usize - 1];
            for query in [
                format!("what did I note around {name} {day}?"),
                format!("{month}月{day}日頃のメモ"),
                format!("מה רשמתי בסביבות ה-{day} ב{hebrew}?"),
            ] {
                let got = resolve_time(&query, asked).map(|m| m.period);
                assert_eq!(got, expected, "{query}");
            }
        }
    }
}

/// A deadline is not when a note was written: every weekday and day of the year after "due on"
/// or "the deadline is" names no period, while the same words after "on" alone do.
#[test]
fn a_deadline_names_no_period() {
    let asked = ms(REFERENCE);
    let weekdays = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    let days = MONTH_NAMES
        .iter()
        .flat_map(|month| [1, 14, 28].map(|day| format!("{month} {day}")));
    for when in weekdays.iter().map(|w| (*w).to_owned()).chain(days) {
        for deadline in [
            format!("the report that's due on {when}"),
            format!("the deadline is {when}"),
            format!("what is due by {when}?"),
        ] {
            assert_eq!(resolve_time(&deadline, asked), None, "{deadline}");
        }
        let written = format!("what did I note on {when}?");
        assert!(resolve_time(&written, asked).is_some(), "{written}");
    }
}

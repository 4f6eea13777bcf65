//! Time expressions in a recall query ("what did I note about the dentist last week?"),
//! resolved against a reference instant into a [`Period`] of creation times.
//!
//! [`resolve_time`] recognises English, Japanese and Hebrew expressions (its documentation
//! gives the calendar and the rules for ambiguous words); the caller filters candidates by the
//! period and leaves the expression's words out of BM25's terms ([`without_spans`]).
//!
//! Layout: `phrase` matches word sequences for the languages written with spaces, with the
//! rule tables of `en` and `he`; `ja` scans Japanese substrings; `calendar` turns the
//! language-independent meaning into a period.

mod build;
mod calendar;
mod en;
mod he;
mod ja;
mod phrase;
mod ranges;

use std::ops::Range;

/// A period of creation instants, half-open: `start_ms <= t < end_ms`, in milliseconds since
/// the Unix epoch (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// The first instant of the period.
    pub start_ms: i64,
    /// The first instant after the period.
    pub end_ms: i64,
}

impl Period {
    /// Whether `instant_ms` lies in the period.
    pub fn contains(&self, instant_ms: i64) -> bool {
        self.start_ms <= instant_ms && instant_ms < self.end_ms
    }

    /// From the earlier start to the later end of `self` and `other`.
    fn through(self, other: Period) -> Period {
        Period {
            start_ms: self.start_ms.min(other.start_ms),
            end_ms: self.end_ms.max(other.end_ms),
        }
    }
}

/// The time expressions found in a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeMention {
    /// The period the leftmost expression names.
    pub period: Period,
    /// Byte ranges of the query that the recognised expressions occupy, in order and disjoint,
    /// each on character boundaries (so that the caller can leave these words out of BM25's
    /// terms, see [`without_spans`]).
    pub spans: Vec<Range<usize>>,
}

/// An expression found in the query, before the reference gives it a period.
#[derive(Debug, PartialEq)]
struct Found {
    range: Range<usize>,
    expr: calendar::Expr,
    /// Read only as the end of a range ("from Easter to Thanksgiving"): after a word that joins
    /// a range, and dropped unless one joins it ([`phrase::El::AfterOrEnd`]).
    ends_range: bool,
}

/// Finds the time expressions of `query` (English, Japanese, Hebrew) and resolves them against
/// `reference_ms` (milliseconds since the Unix epoch, UTC).
///
/// The period is the leftmost expression's; the spans are those of every expression. `None`
/// when the query names no time, or only times that start after the reference. Never panics,
/// whatever the query and the reference.
///
/// # Calendar
///
/// Everything is UTC; weeks are ISO weeks (Monday to Monday); periods are half-open.
///
/// - Days: "today", "yesterday", "the day before yesterday" are whole days. "this morning" is
///   00:00–12:00 of today, "this afternoon" 12:00–18:00, "this evening"/"tonight" 18:00–24:00,
///   "last night" yesterday 18:00 to today 06:00 (also "yesterday morning/afternoon/evening").
/// - "N days/weeks/months/years ago" is the whole day, ISO week, calendar month or calendar
///   year that lies N units back (N: digits, "a"/"an", "one" … "thirty-one" (also "twenty one"), "(a) couple (of)"
///   = 2, "a few" and "several" = 3, N ≥ 1); "a fortnight ago" is the ISO week two back.
/// - "this/last week|month|year" are the calendar units (and "earlier this week" is this
///   week); "(the) past week" and "the past/last N days" are the 7 or N × 24 hours ending at
///   the reference ("the past N weeks": N × 7 × 24 hours; "the past/last 24 hours": one day;
///   after "in", "within", "over" or "during", "the last week" is the past 7 days too, and "the
///   last month|year" the past month or year, like "the past month"); "this weekend" is Saturday
///   00:00 to Monday 00:00 of the latest weekend that starts at or before the reference, "last
///   weekend" of the latest one that is over (on a Saturday or a Sunday, the one before).
/// - A weekday ("Monday", "on Monday", "last Monday") is the latest such day strictly before
///   the reference's day: on a Monday, "on Monday" is the Monday a week back. "Monday last
///   week", "(on) Tuesday of last week", "Friday this week" and "this Friday" are that day of
///   that ISO week ("this Friday" on a Wednesday is to come: no period). A weekday before a
///   date is the date: "Thursday, November 12"; no period when the date falls on another
///   weekday; "on Friday the 20th" is the latest 20th that fell on a Friday. "Friday two weeks ago" is that day of the ISO week two
///   back; "the Monday before last" and "two Mondays ago" the one before the latest; "the
///   first|…|fifth|last Monday of|in November" that day of the latest November that has
///   reached it; "the first|last day of October" that day.
/// - A time to come ("next Friday", "this coming Monday", "next March", "next
///   week|weekend|month|year|quarter", "next summer") gives no period, and its words are read
///   as no other expression.
/// - A month name without a year ("in March", "March") is the latest such month that starts at
///   or before the reference: in March, "March" is this March; "last March" is the latest one
///   that is over (in March, the previous year's). A day
///   without a year ("March 3", "3 March", "on March 3rd") is the latest such day that starts
///   at or before the reference (today included). With a year, it is that month or day.
/// - ISO dates `2026-11-03` and `2026-11`, and a year from 1970 to 2100 after "in"/"during"
///   ("in 2025"); a bare year is not a time expression ("2025 tests passed").
/// - "the week/month/year before last" is the unit two back; "over/on/at the weekend" and "the
///   past weekend" are "this weekend", "the weekend before last" the one before it, "the night
///   before last" the night before last night; "N hours ago" is the two hours around the
///   instant N hours back. Thirds of this or last month: "early|mid|late last month", "the
///   beginning|middle|end of last month", "early this month", "the start of the month".
/// - Holidays with a fixed date, after "at", "over", "around", "during", "since", "after",
///   "from" or "between" (not "on" or "last": "notes on Christmas gifts", "the last Christmas
///   movie"; not "before" or "until", which in December mean the coming one), are the latest
///   that has begun:
///   "Christmas" is December 24 to 26, "Christmas Eve|Day" that day, "New Year" December 31 to
///   January 1, "New Year's Eve|Day" that day, "Halloween" October 31, "Valentine's Day"
///   February 14, "the holidays" December 20 to January 3, "between Christmas and New Year"
///   (also "from Christmas to New Year's") December 24 to January 1. Holidays that move, after
///   the same words: "Easter" is Good Friday to Easter Monday, "Easter Sunday|Monday" and
///   "Good Friday" that day, "Thanksgiving" (the fourth Thursday of November) Thursday to
///   Sunday, "Thanksgiving Day" the Thursday. After "to", "and", "until", "till" or "through" a
///   holiday only ends a range ("from Easter to Thanksgiving", "between Memorial Day and Labor
///   Day"; "gifts for Christmas and Easter" names no time); a holiday that would start after
///   the range's end is the year before's ("from Thanksgiving to Christmas" in early December). A year or "last/this year" right after a holiday,
///   a day, a part of a month or a month named without a year is that year's ("over Easter
///   last year", "at Christmas 2024", "on March 3 last year", "early October 2025"), and so is
///   one right before it ("last year in October", "in 2025 at Christmas").
/// - Vague counts: "a few", "several" or "some" days, weeks, months or years ago are the whole
///   units 2 to 5 back ("a few weeks ago" on a Wednesday: the four ISO weeks from five weeks
///   back to the week before last); "the other day" is the days 1 to 6 back. "a couple" is
///   two.
/// - "the previous|prior|preceding week|month|year|quarter" is the last one.
/// - "N days|weeks|months|years back" is "… ago" (no hours: "set the clocks an hour back"; not
///   after a comma, nor before "pay", "rent", "to", "home", "at", "in"…: "two weeks back pay",
///   "back to back", "a few weeks back home"; not after "first"). Thirds of a week: "early last week" and "the beginning|start of last week"
///   are Monday to Wednesday, "late last week" and "the end of last week" Thursday to Sunday;
///   "early this week" and "the start of the week" this week's Monday to Wednesday. "the
///   past|last N hours", "the past hour" and "the past fortnight" run up to the reference (not
///   before "of": "the last 2 hours of the movie"); "(around) this time
///   last year" (or "the same time last year") is the two weeks either side of the day a year
///   back; "a year ago today" that day, "a week ago today" the day seven back; "in|over|during
///   recent days|weeks|months" the 7 days, 3 weeks or 3 months up to the reference; "earlier in
///   the year|month|week" this one; "in the year 2025" and "throughout 2025" the year;
///   "throughout" before a season is "in"; "last wk|mo|yr"; "on|last Mon|Tue|Thu|Fri"; "Black
///   Friday" and "Cyber Monday" after the holiday words and "on" (the day after Thanksgiving,
///   the Monday after). "from A onwards", "A onward", "from A on" (ending the phrase) and
///   "starting (in) A" run from A's start to the reference, as "since A". "the summer
///   before last" and "the October before last" are a year before the latest one over;
///   "the week of Thanksgiving" and "Thanksgiving week" its Monday to Sunday; "early in the
///   week" Monday to Wednesday; "in the middle of the month" the 11th to the 20th; "the
///   early|latter part of October" its thirds; "one or two|two or three weeks ago" both
///   units; "since|after|before|until the 10th" the latest 10th, opened. "the day|week
///   before|after Thanksgiving|Christmas|Easter" and "the Sunday after Easter" are those days;
///   "over the Christmas holidays|break" the holidays; "the week starting October 12" the seven
///   days from it; "the first … fourth|last week of this|last month" its days (the last from
///   the 25th); "early|late in 2025" its thirds; "two weekends ago" the weekend before last;
///   "wk(s)", "mos", "yr(s)" are units after a count; "this June" is this year's June.
/// - "a month ago today", "two months ago today" that day; "this time last month" the three
///   days either side of the day a month back; "the first Monday of last|this|the month" that
///   day; "yesterday or the day before", "last week or the week before", "a month or two ago"
///   both units; "in the last week or two" two weeks up to the reference; "a year and a half
///   ago" the month 18 back, "a month and a half ago" the fortnight around 46 days back, "two
///   and a half weeks ago" the five days around 17 back; "the past year and a half" up to the
///   reference; "July 1st until the 15th" the days 1 to 15.
/// - "last Christmas|Halloween|Easter|Thanksgiving" is the latest one, unless a word before
///   "last" makes it an adjective ("the last Christmas movie", "my last Easter egg hunt").
///   Not after an owner ("Mom's last Christmas"), "one", "every" or "final", nor the song
///   ("Last Christmas by Wham"). "Memorial Day" (the last Monday of May), "Labor Day" (the
///   first Monday of September; not "labour day", May 1 in much of the world), each with
///   "weekend" the Saturday to the Monday, "Independence Day" after the holiday words but
///   "from" ("quotes from Independence Day" is the film), and "last" before each of them; "the
///   Fourth of July" is July 4, of a year that follows it.
/// - Seasons after "in", "during" or "over" ("in the summer") are the latest
///   meteorological season of the northern hemisphere (spring: March to May, summer: June to
///   August, autumn/fall: September to November, winter: December to February) that starts at
///   or before the reference; after "last", the latest one that is over; after "this" the
///   latest begun while it runs or when its last month is in the reference's year (winter's
///   until May), else no period ("this summer" in March is to come). Quarters: "Q1" … "Q4"
///   and "the first … fourth quarter" (the latest one that starts at or before the reference;
///   not before "of" another word: "the first quarter of the match"), "this/last quarter",
///   and with a year "Q1 2025", "Q3 of last year", "the third quarter of 2025", "Q2 of this
///   year".
/// - A month or season of a year: "November last year", "in March of last year", "in May this
///   year", "the summer of 2025", "winter 2024" (December 2024 to February 2025), "the spring
///   of last year". Thirds of a month: "early March" (days 1–10), "mid-March"/"mid March"
///   (11–20), "late March" (21 to the end), with or without a year; "the beginning/start,
///   middle, end of March" are the same thirds ("the" may be left out: "end of October");
///   "(the) first … fourth week of|in March" days 1–7
///   … 22–28 ("the" may be left out before an ordinal word); "the last|final week of March" the
///   25th to the end (the 24th for a 30-day month, February's from the 23rd), and so are "the
///   last (few) days of March"; "early in March" and "late in October" are the first and last
///   thirds; "the first/second half of March" days 1–15 and 16 to the end. "on the 14th" (an
///   ordinal after "on the", ending the phrase: at the end, before punctuation or before
///   "about", "and", a pronoun…; "on the 2nd floor" is no day) is the latest 14th at or before
///   the reference's day. A month's part without a year is the latest one that has begun.
///   "(the) week of November 9" is that day's ISO week (the latest that has begun). Thirds of a
///   year, this, last, the one before last or a named one: "early this year", "early 2025",
///   "the beginning of the year before last" (January–April), "the middle of 2025"
///   (May–August), "late last year", "the end of last year" (September–December); not before
///   "'s"; "mid-2025" is May–August. Halves of a year: "the first half of the year"
///   (January–June), "the second half of last year", "the first half of 2025"; of a month:
///   "the first half of the month" (days 1–15), "the second half of last month".
/// - "the past/last N months|years" and "the past month|year" run from the same day and time
///   N months back (the month's last day when it is shorter) to the reference; "half a year
///   ago" is the month six back; "this past weekend" is "this weekend"; "the previous summer",
///   "this past winter" and "(over) the past spring" are "last summer" and so on; "early in
///   the year" and "late in the year" are this year's first and last thirds.
/// - Ranges: "since A" runs from A's start to the reference; "between A and B" and "from A
///   to/until/till/through B" from A's start to B's end, where B may also be a month name
///   that is no expression alone ("between March and may"). "from A" alone is A ("notes from
///   last week"). "A to B" without "from" is the same range when B is an expression or A a
///   month ("March to May"; "sent last week to May" is last week), and "now" may end one
///   ("from January to now"); a dash joins as "to" does ("January – March", "3月〜5月").
///   Days of one month: "March 3-5", "March 14 – 20th", "March 3 to 5", "between March 3 and
///   5" (the last day ending the phrase, as in "on the 14th": "March 3 to 5 pm" is March 3).
///   B named without a year (a month, a weekday, a holiday, a season…) is the first such at
///   or after A's start when A is shorter than a year ("from March 2025 to June" ends in June
///   2025, "2025年11月から2月" in February 2026; "from 2024 to March" is this March's).
///   When B starts before A and A is over, B is the first such after A, a range still running
///   ("Monday to Friday" on a Wednesday is this week's, "from October to March" in February
///   runs from October); a holiday A, or a month A not yet over, is read a year earlier
///   instead ("December to February" on December 2 is last winter's). "before A" and "prior to A"
///   run from the Unix epoch to A's start, "until A", "till A" and "up to A" to A's end,
///   "after A" from A's end to the reference; not before "'s" ("before Monday's meeting" is
///   Monday), nor after a length ("a week before March 3" is March 3). When that leaves no
///   past period ("after today"), A is read alone. After these
///   words and "since", "from", "between", a year ending the phrase ("since 2025"; not "after
///   2000 tests"), an abbreviated month ("since Oct"; "May" not after "from" or "between") and
///   a season ("before the summer"; with "the" after "from" or "between"; not before "of")
///   are times too, and a year ending the phrase after "to" or "and" ("from 2020 to 2022").
///
/// Japanese: 今日 本日 昨日 きのう 一昨日 おととい, 今朝 (00:00–12:00), 今夜 今晩
/// (18:00–24:00), 昨夜 昨晩 (last night), 今週 先週 先々週, 今月 先月 先々月, 今年 去年
/// 昨年 一昨年, "N日前", "N週間前", "Nか月前" (ヶ カ ヵ ケ 箇), "N年前", "N月", "N月N日",
/// "YYYY年", "YYYY年N月", "YYYY年N月N日", 月曜日…日曜日 (or 月曜…日曜), "先週の月曜日"
/// (Monday of last week), "今週の月曜日". N: ASCII or full-width digits, or 一 to 九十九.
/// "AからB(まで)" is a range; "Aから", "A以降", "A以後" and "A以来" run from A to the reference;
/// "Aより前" is before A, "A以前" and "Aまで" until A's end ("Aまでに", by A, is a deadline: A
/// alone), "Aより後" after A. A season
/// (春 夏 秋 冬) or month after a year word or "YYYY年", with or without の: "去年の夏",
/// "2025年の秋", "去年の3月", "昨年11月". After "N月" or "YYYY年N月": 上旬/初旬 (days 1–10),
/// 中旬 (11–20), 下旬/末 (21 to the end), with or without の and also after 今月, 先月 and 先々月
/// (頭 as 上旬, 半ば as 中旬, 終わり as 下旬, 前半 1–15, 後半 16 to the end), (の)第1週 … 第5週 (days 1–7 … 29 to the end) and
/// (の)最終週 (the last seven days). くらい, ぐらい or ほど ("about") before 前 changes nothing
/// ("3か月くらい前"); 先日 is the days 1 to 6 back, おととし 一昨年, 去年の今頃 "this time last
/// year", 去年の暮れ last year's September to December; 最近 counts as 過去 ("最近3か月");
/// 年末 is the latest year's end begun; か lists as と ("9月か10月"). Parts of a season are months (初夏 June, 晩秋 November,
/// 冬の終わり February…), after a year word that year's season's ("去年の初夏"). 数日前, 数週間前, 数か月前, 数年前 (数, "several", is
/// vague as "a few": the units 2 to 5 back; not after a numeral, "十数日前"), 半年前 (the month six back), 年初/年始 (January–April), 年末
/// (September–December; 去年の年末 and 昨年末 last year's), 上半期/下半期 (the halves of this
/// year; 去年の上半期 last year's), 第1四半期 … 第4四半期 (ASCII, full-width or kanji digits),
/// 前四半期 and 今四半期, 先週末 (last weekend), 一月前 and ひと月前 (a month ago; 一月 alone is
/// January), "過去N日", "ここN日", "直近N日" (also 週間, か月, 年, with or without 間; the N units
/// up to the reference; also "この3か月") and ここ数日 (3 days; also この数日, この数週間 and
/// この数か月, and この半年, ここ半年, 過去半年 for six months). 今月/先月 with 初め, 上旬,
/// 中旬, 半ば, 下旬, 末 (and の before 初め, 半ば; 先月の終わり) are that month's thirds, as
/// after "N月". Holidays, each the latest one begun: お正月/正月/三が日 (January 1–3),
/// ゴールデンウィーク (April 29 to May 5), お盆休み (August 13–16; お盆 alone is also a tray),
/// 年末年始 (December 29 to
/// January 3), クリスマスイブ (December 24). Seasons: 今春/今夏/今秋/今冬 and この春… are read as "this
/// spring"…, 昨春/昨夏… the latest one over, and a season kanji alone before に, ごろ, 頃
/// or の間 ("春に", not after another kanji: 青春に) the latest that has begun. 今年の上半期,
/// 今年の前半/後半 (also 去年の, 昨年の), 今年の初め, 今年の年末, 年の初め, 年明け (January–April),
/// 年の半ば, 年の暮れ, 去年の第4四半期 and the like; 週末 (the latest weekend); "7〜9月" (a range
/// written with one 月). 年末調整, 先月号, "N月生まれ", "N月号" and "N月病" name no time. "A〜B" is a range like "AからB". "…前後"
/// ("about …") and 毎週 before a weekday ("every Monday") are no time.
///
/// Hebrew: היום, אתמול, שלשום, הבוקר, הערב/הלילה, אמש (last night), "אתמול בבוקר/בערב/בלילה",
/// השבוע, "(ב)שבוע שעבר", החודש, "(ב)חודש שעבר", השנה, "(ב)שנה שעברה", אשתקד, "לפני N
/// ימים/שבועות/חודשים/שנים" (N: digits or number words to עשרה; כמה, "a few", is vague: the
/// units 2 to 5 back), "לפני
/// יום/שבוע/חודש/שנה" (1), "לפני יומיים/שבועיים/חודשיים/שנתיים" (2), also with כ ("about":
/// "לפני כשבוע"), month names alone or
/// with ב ("במרץ"), "3 במרץ", "מרץ 2025", "(ב)יום שני" … "(ב)יום שבת", "ב-2025", "בשנת 2025";
/// "מאז A" runs from A to the reference, "לפני A" is before A, "עד A" until A's end (and
/// "ממרץ עד A" from March to A's end), "אחרי A" after A; a month with שעבר is the latest one
/// over ("בנובמבר שעבר"), "ביום שני בשבוע שעבר" Monday of last week; "בשבוע האחרון",
/// "בימים האחרונים" (7 days), "בחודש האחרון" and "בשנה האחרונה" run up to the reference,
/// and so do "ביומיים/בשבועיים/בחודשיים האחרונים", "בשנתיים האחרונות" and "ב-N
/// הימים/השבועות/החודשים האחרונים", "ב-N השנים האחרונות" (N as a number word too: "בשלושת
/// השבועות האחרונים");
/// "לפני חצי שנה" is the month six back; ראש השנה (the holiday) is no time; "בין A לB" (or וB) from A's start to the end of B, a
/// month name or an expression of its own (a month with ל followed by a year is not read).
/// Seasons (אביב קיץ סתיו חורף) with שעבר ("בקיץ
/// שעבר"), a year, "(ב)שנה שעברה" or אשתקד, and months with the last two ("במרץ שנה שעברה");
/// with ב alone ("בקיץ", "באביב") a season is the latest that has begun, as "in the summer"
/// (קיץ alone is just the word). "(ב)תחילת", "(ב)אמצע", "(ב)סוף" before a month are its
/// thirds, and before השנה or החודש (with שעברה or שעבר: last year's or month's) this year's
/// or month's; "במחצית|בחצי הראשונה|השנייה של השנה" its halves; "ברבעון
/// הראשון…הרביעי" a quarter, "ברבעון הקודם|שעבר|האחרון" the last one, "ברבעון הזה" this one;
/// A season with של and a year or השנה שעברה ("בקיץ של 2025"), "בחורף האחרון" (the latest
/// over), the thirds of a season ("בסוף הקיץ": August), "במהלך|במשך הקיץ", and "בשבוע
/// הראשון…הרביעי|האחרון של נובמבר" (or בנובמבר) as the English weeks of a month.
/// "בשבועות האחרונים" and "בחודשים האחרונים" three weeks or months up to the reference, "בחצי
/// השנה האחרונה" six months; "בשבת" is Saturday, "בסוף השבוע" the latest weekend. השבוע, החודש and השנה before an ordinal
/// ("השבוע הראשון בעבודה") and "ספר השנה" name no time.
///
/// # Rules for ambiguous text
///
/// - English is matched word by word, case-insensitively, over runs of letters and digits:
///   "todays" and "weekly" name no time, "today's" does. A phrase's words are separated by
///   spaces (one comma allowed), so sentence punctuation breaks a phrase; an apostrophe
///   before "s" only where a rule names the "s" ("New Year's Eve"). A word joined to
///   another by a hyphen is part of a compound and never matched ("Monday-morning
///   quarterback"), except in an ISO date, after "mid" ("mid-March") and in "twenty-one" …
///   "thirty-one".
/// - "may" is the month only after "in", "during", "last" or "early|mid|late" (there ending the
///   phrase, not before a pronoun) or next to a day or a year ("in
///   May", "May 3", "May 2025"); not after "this" ("this may help"). Abbreviations ("Jan",
///   "Sept", "Mar") follow the same rule; bare full month names ("March forward") are the
///   month; "May" as the last of a list ("in March and May", "in April or May?") where the
///   phrase ends, not before a pronoun ("in March and may I ask"). A month abbreviation may
///   carry a full stop ("Sept. 3rd", "in Nov. 2025"). "tues", "weds" and "thurs" are
///   weekdays; short weekday names ("sat", "sun", "wed") are never matched, nor a weekday in a
///   few names that hold one ("Black Friday", "Taco Tuesday", "Sunday Times", "Sunday roast",
///   "Sunday Pot"), nor "USA Today". A weekday or month name alone after a determiner ("the",
///   "a", "my", "our", "every"…) is part of a name ("the Monday standup", "the April
///   release"; after "for" too: "the picks for June"; a quarter also: "the Q3 roadmap"), and
///   so is a month before "'s" ("June's birthday") and every name listed after
///   such a one ("the Monday and Tuesday sessions", "a Monday to Friday job"). A year written
///   right after an expression no rule reads with one, or right before it, is its year ("the
///   first day of November 2025", "2025 Q4"; a comma, "of" or של between). A year may be written
///   with two digits after an apostrophe, a space before it ("in Oct '25": 1970 to 2069).
/// - Hebrew: the first word of a phrase may carry up to two of the prefixes ו ב ה ל מ ש כ
///   ("ובשבוע שעבר"), a month name only ו and ב ("במרץ"; "ממרץ", from March, is not a
///   period). A weekday needs יום before it ("ביום שני"; שני alone is "second"), and יוני
///   (also a given name) is June only with ב ("ביוני") or next to a day or year. במאי is May
///   even where it means "director".
/// - Japanese is matched as substrings; at each position the longest expression wins ("一昨日"
///   before "昨日"), and no expression starts inside a number ("百二十日前" is not "二十日前").
///   "N月" is month N unless followed by 曜 or part of "N月N日" (that day).
/// - An expression whose period would start after the reference is not a creation time and
///   is not recognised: "this evening" at 15:30, "in 2030" in 2026, "2026-12-25" on December 2.
///   Such words stay in the query. Neither is an expression next to one (nothing or "of",
///   "in", "on", "at", "during", "over", "around" between): "in March next year", "next year
///   in March", "on December 20 this year" on December 2 name no time.
/// - Expressions listed together — "in January and February", "on Monday, Tuesday or
///   Wednesday", "1月と2月", "בינואר ובפברואר" (joined by "and", "or", "&", "/", a comma, と,
///   や, 、, או or the prefix ו; abbreviated month names after a month are listed too: "in
///   Sept and Oct", "in Oct/Nov") — name the period from the earliest one's start to the latest
///   one's end, when the time between two of them is at most a week or twice the shorter one:
///   "Christmas and Easter" and "yesterday or last year" name the first alone. A year or week
///   named after the list names it for the items before ("in January and February 2025",
///   "Monday and Tuesday last week"; "in December and January" in December is last winter),
///   and a year named before it for the items after ("2025年3月と4月": March and April 2025).
///   A season after "and", "or" or a word that ends a range is read as the list's or the
///   range's later item only ("last summer and fall"; "prices rise and fall" names none).
///   A word that opens the first ("before March or April") keeps it alone.
/// - Several expressions otherwise: the period is the leftmost one's; the spans cover all of
///   them.
///
/// ```
/// use fusion_rank::{Period, resolve_time, without_spans};
///
/// // Wednesday 2026-12-02 15:30 UTC.
/// let reference = 1_796_225_400_000;
/// let query = "what did I note about the dentist last week?";
/// let mention = resolve_time(query, reference).expect("a time expression");
/// // Monday 2026-11-23 to Monday 2026-11-30.
/// assert_eq!(
///     mention.period,
///     Period { start_ms: 1_795_392_000_000, end_ms: 1_795_996_800_000 },
/// );
/// assert_eq!(&query[mention.spans[0].clone()], "last week");
/// assert_eq!(without_spans(query, &mention.spans), "what did I note about the dentist  ?");
/// assert_eq!(resolve_time("weekly report", reference), None);
/// ```
pub fn resolve_time(query: &str, reference_ms: i64) -> Option<TimeMention> {
    let tokens = phrase::Tokens::new(query, en::month_named);
    let mut found = tokens.find(&en::ENGLISH);
    found.extend(tokens.find(&he::HEBREW));
    found.extend(ja::find(query));
    // The leftmost names the period; past the first few, more expressions only cost time
    // (reading the words around each is linear in the query, Japanese having no spaces).
    if found.len() > MAX_EXPRESSIONS {
        found.sort_by_key(|f| (f.range.start, std::cmp::Reverse(f.range.end)));
        found.truncate(MAX_EXPRESSIONS);
    }
    let listed = ranges::listed_months(query, &found);
    found.extend(listed);
    let paired = ranges::paired_months(query, &found);
    found.extend(paired);
    // A label that opens the query ("Summer trip notes"), where nothing else starts.
    if !found.iter().any(|f| f.range.start == 0)
        && let Some(label) = en::label(query)
    {
        found.push(label);
    }
    // "the Monday and Tuesday sessions": the later names of a determined list are names too.
    found.retain(|f| !en::in_named_list(query, &f.range));
    // Leftmost first, the longer of two that start together; overlapping ones are dropped.
    found.sort_by_key(|f| (f.range.start, std::cmp::Reverse(f.range.end)));
    let mut end = 0;
    let mut named: Vec<(Range<usize>, Period)> = Vec::new();
    // Beside each of `named`: whether it is read only as the end of a range, the holiday it
    // names, if any, and its expression when it names the latest of a kind (a month, a
    // weekday…), which a list may read earlier ([`listed_with`]).
    let mut range_ends: Vec<(bool, Option<calendar::Expr>, Option<calendar::Expr>)> = Vec::new();
    // The last expression, when a year right after it may place it ([`calendar::placed_in_year`]).
    let mut placeable: Option<calendar::Expr> = None;
    // Where the last expression read as a time to come ends ("next year", "in 2030").
    let mut to_come_end: Option<usize> = None;
    let valid = |p: &Period| p.start_ms <= reference_ms && p.start_ms < p.end_ms;
    for Found {
        mut range,
        expr,
        ends_range,
    } in found
    {
        if range.start < end || in_a_name(query, &range) {
            continue;
        }
        let mut raw = calendar::resolve(expr, reference_ms);
        // A holiday right before a year is that year's: "Christmas 2025", "Halloween last year"
        // (after "at", "over"… the holiday rules read it, and the year places it below).
        if let Some(year) = raw.and_then(calendar::whole_year) {
            let before = ranges::holiday_before(query, &range)
                .filter(|(start, _)| *start >= end)
                .and_then(|(start, holiday)| {
                    Some((start..range.end, calendar::placed_in_year(holiday, year)?))
                });
            // Or right after it with "'s": "last year's Christmas".
            let after = || {
                let (end, holiday) = ranges::holiday_after(query, &range)?;
                Some((range.start..end, calendar::placed_in_year(holiday, year)?))
            };
            if let Some((span, placed)) = before.or_else(after) {
                range = span;
                raw = Some(placed);
            }
        }
        // The expression just before, when nothing but words that join them lies between.
        let before = named
            .last()
            .filter(|(before, _)| before.end == end)
            .map(|(before, period)| (before.clone(), *period));
        let between = before
            .as_ref()
            .map_or("", |(before, _)| query[before.end..range.start].trim());
        // A holiday, a day or a part of a month next to a year is that year's: with the year
        // after it ("over Easter last year", "at Christmas of 2024", "on March 3 last year",
        // "the first week of October 2025") or before it ("last year in October", "in 2025 at
        // Christmas").
        let placed = before.as_ref().and_then(|(_, before_period)| {
            match (placeable, raw.and_then(calendar::whole_year)) {
                (Some(earlier), Some(year)) if between.is_empty() || is_of(between) => {
                    calendar::placed_in_year(earlier, year)
                }
                (_, None) if next_to(between) => calendar::whole_year(*before_period)
                    .and_then(|year| calendar::placed_in_year(expr, year)),
                _ => None,
            }
        });
        // Else a bare year right after it or before it that no rule read ("the first day of
        // November 2025", "on Black Friday 2025", "2025 Q4").
        // Not a year an expression before already took ("ממרץ 2025 ממרץ").
        let bare = ranges::bare_year_around(query, &range)
            .filter(|(span, _)| span.start >= end)
            .and_then(|(span, year)| {
                Some((span, calendar::placed_in_year(expr, year)?)).filter(|_| placed.is_none())
            });
        // A time to come names no period, and neither does an expression next to one: "in
        // March next year", "next year in March", "on Monday next week", "on December 20 this
        // year" on December 2, "on Black Friday 2030".
        let later = |p: &Period| p.start_ms > reference_ms;
        // Placed in a named year, the expression is that year's, whether or not this year's
        // is still to come ("2025年の下半期" in March).
        let to_come = matches!(expr, calendar::Expr::Future)
            || match placed.or(bare.as_ref().map(|(_, p)| *p)) {
                Some(placed) => later(&placed),
                None => raw.as_ref().is_some_and(later),
            };
        let bare_to_come = bare.as_ref().is_some_and(|(_, p)| later(p));
        let after_to_come = to_come_end.is_some_and(|at| next_to(&query[at..range.start]));
        if to_come || bare_to_come || after_to_come {
            if to_come && before.is_some() && next_to(between) {
                named.pop();
                range_ends.pop();
            }
            let until = match &bare {
                Some((span, _)) if bare_to_come => span.end,
                _ => range.end,
            };
            placeable = None;
            to_come_end = Some(until);
            end = until;
            continue;
        }
        let Some(mut resolved) = raw
            .filter(valid)
            .or(placed.filter(valid))
            .or(bare.as_ref().map(|(_, p)| *p).filter(valid))
        else {
            continue;
        };
        if let (Some(placed), Some((before, _))) = (placed.filter(valid), &before) {
            // The first entry, read as it was (a range's end or not), in the year.
            named.pop();
            named.push((before.start..range.end, placed));
            // Its year is named: a range or a list never reads it a year earlier.
            if let Some((_, named_holiday, latest)) = range_ends.last_mut() {
                *named_holiday = None;
                *latest = None;
            }
            end = range.end;
            placeable = None;
            continue;
        }
        if let Some((span, placed)) = bare.filter(|(_, placed)| valid(placed)) {
            range = span;
            resolved = placed;
        }
        let holiday = matches!(
            expr,
            calendar::Expr::DaysOfYear { .. } | calendar::Expr::Feast { .. }
        )
        .then_some(expr);
        placeable = Some(expr);
        end = range.end;
        named.push((range, resolved));
        range_ends.push((
            ends_range,
            holiday,
            calendar::names_latest(expr).then_some(expr),
        ));
    }
    let mut period = None;
    let mut spans = Vec::new();
    let mut rest = named.into_iter().zip(range_ends).peekable();
    while let Some(((range, first), (ends_range, first_holiday, first_latest))) = rest.next() {
        // An expression read only as a range's end that no range joined names no time ("gifts
        // for Christmas and Easter").
        // "until Christmas", "prior to Easter" end an open one.
        if ends_range && ranges::open_ended(query, &range, true).is_none() {
            continue;
        }
        let next = rest.peek().map(|(next, _)| next);
        let day_range = ranges::day_range(query, &range, first, reference_ms)
            .or_else(|| ranges::ja_day_range(query, &range, first))
            .or_else(|| ranges::he_day_range(query, &range, first, reference_ms))
            .filter(|(_, days)| days.start_ms <= reference_ms);
        let (span, resolved) = match ranges::between(query, &range, next) {
            // "March 3-5", "March 3 to 5": days of one month, opened as any expression is.
            _ if let Some((span, days)) = day_range => {
                // Its last day may read as an expression of its own ("July 1st until the
                // 15th"): the range takes it.
                while rest
                    .peek()
                    .is_some_and(|((next, _), _)| next.start >= range.end && next.end <= span.end)
                {
                    rest.next();
                }
                match opened(query, span, days, None, reference_ms) {
                    (span, Some(period)) => (span, period),
                    (_, None) => continue,
                }
            }
            Some(ranges::Joined::WithNext(span)) => {
                let ((_, last), (_, _, last_latest)) = rest.peek().expect("peeked");
                // The end, named without a year, is the first such after a start that names
                // one time ("March 2025", "last month"), or after a start named as the latest
                // of a kind that is over while the end's latest one comes before it ("from
                // October to March" in February, "Monday to Friday" on a Wednesday: a range
                // still running). A month or a holiday that has not ended is joined by
                // [`joined`] instead ("December to February" on December 2 is last winter).
                let start_fixed = first_latest.is_none();
                let start_over = first_holiday.is_none()
                    && last.start_ms < first.start_ms
                    && first.end_ms <= reference_ms;
                let last = if start_fixed || start_over {
                    first_after(first, *last, *last_latest)
                } else {
                    *last
                };
                match joined(first, last, first_holiday, first_latest) {
                    Some(both) => {
                        rest.next();
                        (span, both)
                    }
                    None => (range.clone(), first),
                }
            }
            Some(ranges::Joined::ToNow(span)) if first.start_ms < reference_ms => (
                span,
                Period {
                    start_ms: first.start_ms,
                    end_ms: reference_ms,
                },
            ),
            Some(ranges::Joined::ToNow(_)) => (range.clone(), first),
            // Without "from", only a month starts one: "sent last week to May" names May the
            // person.
            Some(ranges::Joined::ToMonth(_, _, true)) if calendar::whole_month(first).is_none() => {
                match opened(query, range.clone(), first, first_latest, reference_ms) {
                    (span, Some(period)) => (span, period),
                    (span, None) => {
                        skip_inside(&mut rest, &range, &span);
                        continue;
                    }
                }
            }
            Some(ranges::Joined::ToMonth(span, month, _))
                if let Some((next, both)) =
                    months_in_year_after(query, &span, first, month, rest.peek())
                    && both.start_ms <= reference_ms =>
            {
                rest.next();
                (span.start..next.end, both)
            }
            Some(ranges::Joined::ToMonth(span, month, _)) => {
                // As a range of two expressions: from a start that is over, a range still
                // running ("in Nov-Jan" in December: this November to January); a start named
                // as the latest of its month that has not ended, whose end has not come, is
                // read a year earlier ("in Dec-Feb" on December 2: last winter).
                let ending = |first: Period| {
                    calendar::month_from(first.start_ms, month)
                        .filter(|last| {
                            last.start_ms <= reference_ms || first.end_ms <= reference_ms
                        })
                        .map(|last| first.through(last))
                };
                let earlier = || {
                    let named = calendar::whole_month(first).filter(|_| first_latest.is_some())?;
                    ending(calendar::month_until(first.start_ms - 1, named)?)
                };
                match ending(first).or_else(earlier) {
                    Some(joined) => (span, joined),
                    None => (range.clone(), first),
                }
            }
            None => {
                let (span, opened_period) =
                    match opened(query, range.clone(), first, first_latest, reference_ms) {
                        (span, Some(period)) => (span, period),
                        (span, None) => {
                            skip_inside(&mut rest, &range, &span);
                            continue;
                        }
                    };
                // A word that opens the first ("before March or April") keeps it alone.
                // Opened by a word around it, or by a prefix inside it ("מתחילת מרץ").
                if span != range || opened_period != first {
                    (span, opened_period)
                } else if let Some((items, span, all)) =
                    listed_from_the_right(query, &range, (first, first_latest), rest.clone())
                {
                    // "January, February and March 2025", "Monday, Tuesday and Wednesday
                    // last week": read from the last item back, each joins the ones after it.
                    for _ in 0..items {
                        rest.next();
                    }
                    (span, all)
                } else {
                    // "in January and February", "on Monday, Tuesday or Wednesday": as many of
                    // them as join, from the first on, as one period.
                    let mut span = range.clone();
                    let mut all = first;
                    let mut latest = first_latest;
                    while let Some(((next, last), (_, _, last_latest))) = rest.peek()
                        && ranges::listed(query, &span, next)
                        && let Some(joined) = listed_with(all, latest, *last, *last_latest)
                    {
                        span.end = next.end;
                        all = joined;
                        latest = None;
                        rest.next();
                    }
                    (span, all)
                }
            }
        };
        // Expressions the words read around this one hold are part of it ("クリスマスの前の週":
        // 前の週 is no week before this one); a word read around it never reaches into the
        // next one otherwise ("去年より前四半期": より前 is not "before last year" when 前四半期
        // follows).
        skip_inside(&mut rest, &range, &span);
        // Nor back into the one before ("over the weekend before 去年": "the weekend before"
        // belongs to "over the weekend").
        let reaches_back = spans
            .last()
            .is_some_and(|last: &Range<usize>| span.start < last.end);
        let (span, resolved) = match rest.peek() {
            _ if reaches_back => (range, first),
            Some(((next, _), _)) if span.end > next.start => (range, first),
            _ => (span, resolved),
        };
        period.get_or_insert(resolved);
        spans.push(span);
    }
    Some(TimeMention {
        period: period?,
        spans,
    })
}

/// Whether the expression at `range` is part of a web or file name ("Monday.com",
/// "march.pdf": a full stop and a letter right after it) or a person's name in Japanese
/// ("五月さん", an honorific right after it).
fn in_a_name(query: &str, range: &Range<usize>) -> bool {
    let after = &query[range.end..];
    let mut chars = after.chars();
    let dotted = chars.next() == Some('.') && chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    dotted
        || ["さん", "ちゃん", "くん", "君", "様", "先生"]
            .iter()
            .any(|honorific| after.starts_with(honorific))
        || a_deadline(query, range)
}

/// Whether the expression at `range` is a deadline, not when a note was written: after "due"
/// or "deadline" ("the report that's due on Friday", "the deadline is March 3"), or before
/// 締め切り or 期限 ("3月15日締め切りの書類").
fn a_deadline(query: &str, range: &Range<usize>) -> bool {
    let after = &query[range.end..];
    if ["締め切り", "締切", "〆切", "期限"].iter().any(|word| {
        after.starts_with(word)
            || after
                .strip_prefix('の')
                .is_some_and(|a| a.starts_with(word))
    }) {
        return true;
    }
    let mut words = query[..range.start]
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .rev();
    // Past a preposition or "is" ("due on Friday", "the deadline is March 3"); a rule may
    // have taken "on" into the expression already.
    let mut word = words.next();
    for _ in 0..2 {
        match word {
            Some(w)
                if ["on", "by", "in", "is", "for", "at"]
                    .iter()
                    .any(|p| w.eq_ignore_ascii_case(p)) =>
            {
                word = words.next();
            }
            _ => break,
        }
    }
    word.is_some_and(|w| {
        ["due", "deadline", "deadlines"]
            .iter()
            .any(|d| w.eq_ignore_ascii_case(d))
    })
}

/// Whether the words between two expressions leave them next to each other: nothing, or a
/// preposition ("next year in March", "last year at Christmas", "בקיץ של 2025").
fn next_to(between: &str) -> bool {
    let between = between.trim();
    between.is_empty()
        || is_of(between)
        // "last year's Q4", "this year's March", "2025年のお盆".
        || between == "'s"
        || between == "の"
        || between == "\u{2019}s"
        || ["at", "on", "in", "during", "over", "around"]
            .iter()
            .any(|word| between.eq_ignore_ascii_case(word))
}

/// "of" in the languages written with spaces ("March 3rd of last year", "הקיץ של 2025").
fn is_of(word: &str) -> bool {
    word.eq_ignore_ascii_case("of") || word == "של"
}

/// The range from `first` to `last` ("from A to B"): `last` may not start before `first`,
/// unless `first` is a month or a holiday (`holiday`), read then as the latest such month or
/// holiday at or before `last` ("from December to February" in March is December to February
/// of this winter; "from Thanksgiving to Christmas" in early December is last year's), or
/// names the latest of a kind (`latest`: "between Monday and Wednesday last week" is last
/// week's Monday). `None` when the two make no range.
fn joined(
    first: Period,
    last: Period,
    holiday: Option<calendar::Expr>,
    latest: Option<calendar::Expr>,
) -> Option<Period> {
    if last.start_ms >= first.start_ms {
        return Some(first.through(last));
    }
    if holiday.is_none()
        && let Some(earlier) = latest
            .and_then(|expr| calendar::resolve(expr, last.end_ms - 1))
            .filter(|p| p.start_ms < p.end_ms && p.start_ms <= last.start_ms)
    {
        return Some(earlier.through(last));
    }
    if let Some(holiday) = holiday {
        let year = calendar::year_of(last.start_ms)?;
        return [year, year - 1]
            .into_iter()
            .filter_map(|year| calendar::holiday_in_year(holiday, year))
            .find(|first| first.start_ms <= last.start_ms)
            .map(|first| first.through(last));
    }
    let month = calendar::whole_month(first)?;
    let first = calendar::month_until(last.start_ms, month)?;
    Some(first.through(last))
}

/// A range's or a list's later item (`last`) as the first of its kind at or after the
/// earlier one's start, when it names the latest of a kind (`latest`: a month, a weekday, a
/// holiday…) and the earlier one is shorter than a year: "from March 2025 to June" ends in
/// June 2025, "from November 2025 to February" asked in January in February 2026 (still to
/// come: the range runs up to now), not in the latest June or February. As it is otherwise
/// ("from 2024 to March" is this March's).
fn first_after(first: Period, last: Period, latest: Option<calendar::Expr>) -> Period {
    const YEAR_MS: i64 = 365 * DAY_MS;
    let Some(expr) = latest else {
        return last;
    };
    if first.end_ms - first.start_ms >= YEAR_MS {
        return last;
    }
    // Every kind that names the latest one recurs at least once a year: the first reading that
    // starts at or after the range's start, a day at a time, is the earliest.
    (0..=366)
        .filter_map(|day| first.start_ms.checked_add(day * DAY_MS + DAY_MS - 1))
        .filter_map(|at| calendar::resolve(expr, at))
        .find(|p| p.start_ms >= first.start_ms && p.start_ms < p.end_ms)
        .unwrap_or(last)
}

/// The range from the month `first` names to month `month` of the year that the expression
/// after them (`next`) names, and where that expression lies: "in Sep-Nov last year", "Oct to
/// Dec of 2025". The year is the last month's, as it is when written with it ("Nov-Jan 2025"
/// starts in November 2024). `None` unless a year comes right after the range's span.
fn months_in_year_after<T>(
    query: &str,
    span: &Range<usize>,
    first: Period,
    month: u32,
    next: Option<&((Range<usize>, Period), T)>,
) -> Option<(Range<usize>, Period)> {
    let ((next, period), _) = next?;
    let end = span.end + usize::from(query[span.end..].starts_with('.'));
    if !next_to(query.get(end..next.start)?) {
        return None;
    }
    let last = calendar::placed_in_year(
        calendar::Expr::NamedMonth { month, year: None },
        calendar::whole_year(*period)?,
    )?;
    let first = calendar::month_until(last.start_ms, calendar::whole_month(first)?)?;
    Some((next.clone(), first.through(last)))
}

/// A day in milliseconds.
const DAY_MS: i64 = 24 * 3_600_000;

/// The period of `first` and `last` listed together ("in January and February"), from the
/// earlier one's start to the later one's end. When `last` comes before `first` and `first`
/// names the latest of a kind (`latest`), `first` may also be read as the latest one up to
/// `last`'s end, and the shorter of the two readings wins: a year or week named after the list
/// names it for every item ("in January and February 2025", "Monday and Tuesday last week",
/// "in December and January" is last winter), while "Tuesday and Monday" on a Thursday stays
/// this week's.
/// `None` when the time between the two is more than twice the shorter one and more than a
/// week: "Christmas and Easter", "yesterday or last year" name the first alone.
fn listed_with(
    first: Period,
    latest: Option<calendar::Expr>,
    last: Period,
    last_latest: Option<calendar::Expr>,
) -> Option<Period> {
    let close = |first: Period, last: Period| {
        let length = |p: Period| i128::from(p.end_ms) - i128::from(p.start_ms);
        let both = first.through(last);
        let between = length(both) - length(first) - length(last);
        let allowed = (2 * length(first).min(length(last))).max(LIST_GAP_MS);
        (between <= allowed).then_some(both)
    };
    let earlier = match latest {
        Some(expr) if last.start_ms < first.start_ms => calendar::resolve(expr, last.end_ms - 1)
            .filter(|p| p.start_ms < p.end_ms && p.start_ms <= last.start_ms),
        _ => None,
    };
    // A year named before the list reaches the items after it ("2025年3月と4月"): the later
    // item read as the first of its kind after the earlier one.
    let later = latest
        .is_none()
        .then(|| first_after(first, last, last_latest))
        .filter(|p| *p != last);
    // A later item that names one time names it for the earlier one ("in spring or fall 2025"
    // is 2025's spring, though this spring is as close).
    if last_latest.is_none()
        && let Some(both) = earlier.and_then(|first| close(first, last))
    {
        return Some(both);
    }
    // The closest of the readings: "Monday and Tuesday last week" reads Monday earlier,
    // "Tuesday and Monday" on a Thursday is this week's two.
    [
        earlier.and_then(|first| close(first, last)),
        close(first, last),
        later.and_then(|last| close(first, last)),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|p| p.end_ms - p.start_ms)
}

/// Every expression listed after the one at `range` (`first`, with its expression when it
/// names the latest of a kind), joined from the last back to the first, so that a year or week
/// named after the list reaches every item: the number of items after the first, the span
/// and the period. `None` when no item follows or one of them does not join.
fn listed_from_the_right<I>(
    query: &str,
    range: &Range<usize>,
    first: (Period, Option<calendar::Expr>),
    mut ahead: I,
) -> Option<(usize, Range<usize>, Period)>
where
    I: Iterator<
        Item = (
            (Range<usize>, Period),
            (bool, Option<calendar::Expr>, Option<calendar::Expr>),
        ),
    >,
{
    let mut items = vec![first];
    let mut span = range.clone();
    for ((next, period), (_, _, latest)) in ahead.by_ref() {
        if !ranges::listed(query, &span, &next) {
            break;
        }
        span.end = next.end;
        items.push((period, latest));
    }
    let (&(last, last_latest), before) = items.split_last()?;
    if before.is_empty() {
        return None;
    }
    // The last item as it was named; the items joined after it name one period.
    let (all, _) = before.iter().rev().try_fold(
        (last, last_latest),
        |(after, after_latest), &(item, latest)| {
            listed_with(item, latest, after, after_latest).map(|all| (all, None))
        },
    )?;
    Some((before.len(), span, all))
}

/// The time two listed expressions may leave between them whatever their length: a week
/// ("on Monday and Friday", "2026-03-14 and 2026-03-20").
const LIST_GAP_MS: i128 = 7 * 24 * 3_600_000;

/// The expression at `range` (naming `first`, and `latest` when it names the latest of a kind)
/// opened up to the reference ("since A") or on one side ("before A", "until A", "after A");
/// as it is when no word opens it, or when opening it would leave no past period. No period
/// when "before" or "until" names a holiday that is about to come ([`coming`]), or when
/// nothing "after" it has come ("after today").
fn opened(
    query: &str,
    range: Range<usize>,
    first: Period,
    latest: Option<calendar::Expr>,
    reference_ms: i64,
) -> (Range<usize>, Option<Period>) {
    if let Some(span) = ranges::since(query, &range) {
        return if first.start_ms < reference_ms {
            let since = Period {
                start_ms: first.start_ms,
                end_ms: reference_ms,
            };
            (span, Some(since))
        } else {
            (range, Some(first))
        };
    }
    let holiday = matches!(
        latest,
        Some(
            calendar::Expr::DaysOfYear { .. }
                | calendar::Expr::Feast { .. }
                | calendar::Expr::Season { .. }
        )
    );
    let Some((span, side)) = ranges::open_ended(query, &range, holiday) else {
        return (range, Some(first));
    };
    if matches!(
        side,
        ranges::Side::Before
            | ranges::Side::Until
            | ranges::Side::JustBefore
            | ranges::Side::DayBefore
            | ranges::Side::WeekendBefore
    ) && coming(first, latest, reference_ms)
        // A holiday named with its year ("before Easter 2025") is that one.
        && !query[range.clone()].bytes().any(|b| b.is_ascii_digit())
    {
        return (span, None);
    }
    let period = match side {
        ranges::Side::Before => Period {
            start_ms: EARLIEST_MS,
            end_ms: first.start_ms,
        },
        ranges::Side::JustBefore => Period {
            start_ms: first.start_ms.saturating_sub(JUST_BEFORE_MS),
            end_ms: first.start_ms,
        },
        ranges::Side::DayBefore => Period {
            start_ms: first.start_ms.saturating_sub(DAY_MS),
            end_ms: first.start_ms,
        },
        ranges::Side::DayAfter => Period {
            start_ms: first.end_ms,
            end_ms: first.end_ms.saturating_add(DAY_MS),
        },
        ranges::Side::WeekAfter => Period {
            start_ms: first.end_ms,
            end_ms: first.end_ms.saturating_add(JUST_BEFORE_MS),
        },
        ranges::Side::Around if first.end_ms - first.start_ms <= DAY_MS => Period {
            start_ms: first.start_ms.saturating_sub(AROUND_MS),
            end_ms: first.end_ms.saturating_add(AROUND_MS),
        },
        ranges::Side::Around => return (range, Some(first)),
        ranges::Side::WeekendBefore => match calendar::weekend_ending_by(first.start_ms) {
            Some(weekend) => weekend,
            None => return (range, Some(first)),
        },
        ranges::Side::WeekendAfter => match calendar::weekend_starting_from(first.end_ms) {
            Some(weekend) => weekend,
            None => return (range, Some(first)),
        },
        ranges::Side::Until => Period {
            start_ms: EARLIEST_MS,
            end_ms: first.end_ms,
        },
        ranges::Side::After => Period {
            start_ms: first.end_ms,
            end_ms: reference_ms,
        },
        ranges::Side::FromMonth(month) => {
            // An end month named without a year from a start that is over is a range still
            // running ("ממרץ עד מאי" in April: this March to May), as "from March to May" is.
            let bare_end = !query[range.clone()].bytes().any(|b| b.is_ascii_digit());
            let running = calendar::whole_month(first)
                .filter(|_| bare_end)
                .and_then(|end| {
                    let from = calendar::month_until(reference_ms, month)
                        .filter(|from| from.end_ms <= reference_ms)?;
                    let end = calendar::month_from(from.start_ms, end)?;
                    Some(from.through(end))
                });
            match running.or_else(|| {
                calendar::month_until(first.start_ms, month).map(|from| from.through(first))
            }) {
                Some(period) => period,
                None => return (range, Some(first)),
            }
        }
    };
    if period.start_ms < period.end_ms && period.start_ms <= reference_ms {
        (span, Some(period))
    } else if side == ranges::Side::After {
        // Nothing after A has come ("after March" in March): no past period.
        (span, None)
    } else {
        (range, Some(first))
    }
}

/// Passes over the expressions after the one at `range` that lie inside `span`, the words
/// read around it.
fn skip_inside<I, T>(rest: &mut std::iter::Peekable<I>, range: &Range<usize>, span: &Range<usize>)
where
    I: Iterator<Item = ((Range<usize>, Period), T)>,
{
    while rest
        .peek()
        .is_some_and(|((next, _), _)| next.start >= range.end && next.end <= span.end)
    {
        rest.next();
    }
}

/// Whether a holiday named as the latest one (`first`, read from `latest`) is about to come
/// again: its latest one ended over [`COMING_MS`] ago and the next begins within it.
/// "Before Christmas" asked on December 2 or "לפני פסח" asked in March speak of the coming
/// one, and everything before it is every note so far: no period. Asked in January, "before
/// Christmas" is last month's. A month is read as the latest begun whenever it is asked
/// ("before March" in January is before last March), as people who wrote questions for the
/// evaluation read it.
fn coming(first: Period, latest: Option<calendar::Expr>, reference_ms: i64) -> bool {
    let Some(expr @ (calendar::Expr::DaysOfYear { .. } | calendar::Expr::Feast { .. })) = latest
    else {
        return false;
    };
    calendar::resolve(expr, reference_ms) == Some(first)
        && first.end_ms.saturating_add(COMING_MS) < reference_ms
        && calendar::resolve(expr, reference_ms.saturating_add(COMING_MS))
            .is_some_and(|next| next.start_ms > reference_ms)
}

/// How near a holiday must be to be "the coming one" ([`coming`]): sixty days.
const COMING_MS: i64 = 60 * DAY_MS;

/// How many time expressions of one query are read, the leftmost first.
const MAX_EXPRESSIONS: usize = 32;

/// How far "around A" widens a day on each side: three days.
const AROUND_MS: i64 = 3 * DAY_MS;

/// How long "just before A", "right before A" and "the days before A" reach back: a week.
const JUST_BEFORE_MS: i64 = 7 * DAY_MS;

/// Where "before A" and "until A" start: the Unix epoch, before any memory's creation.
const EARLIEST_MS: i64 = 0;

/// `query` with every span replaced by a single space.
///
/// Spans may come in any order; overlapping ones are merged, and spans that are out of bounds
/// or not on character boundaries are ignored.
pub fn without_spans(query: &str, spans: &[Range<usize>]) -> String {
    let mut spans: Vec<&Range<usize>> = spans
        .iter()
        .filter(|s| s.start <= s.end && query.get(s.start..s.end).is_some())
        .collect();
    spans.sort_by_key(|s| (s.start, s.end));
    let mut out = String::with_capacity(query.len());
    let mut cursor = 0;
    for span in spans {
        if span.start >= cursor {
            out.push_str(&query[cursor..span.start]);
            out.push(' ');
            cursor = span.end;
        } else {
            cursor = cursor.max(span.end);
        }
    }
    out.push_str(&query[cursor..]);
    out
}

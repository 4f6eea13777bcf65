//! Hebrew time phrases. The first word of a phrase may carry up to two of the prefixes ו ב ה
//! ל מ ש כ ("ובשבוע שעבר"), a month name anywhere ו and ב ("במרץ", not "ממרץ", from March).

use super::build::{
    date, day_of_last_month, day_of_month, day_of_this_month, days_ago, days_back_between,
    early_month, early_season, early_year, ended_month, first_day_of_month, half_of_month,
    half_of_year, hebrew_month, iso_week, iso_week_last_year, iso_week_this_year,
    last_week_of_month, late_month, late_season, late_year, mid_month, mid_season, mid_year,
    month_last_year, month_part, months_ago, months_back_between, named_month, named_year,
    past_days, past_months, past_weekends, past_weeks, past_years, season_begun, season_ended,
    season_last_year, season_of_year, week_of_month, weekday, weekday_last_week, weekends_ago,
    weeks_ago, weeks_back_between, year_half, year_part, years_ago, years_back_between,
};
use super::calendar::{Expr, Feast, Unit};
use super::phrase::El::{
    After, BareMonth, Count, CountRange, Day, DayFirst, DottedNoYear, EndsBefore, Entry, Few,
    InMonth, Month, NotAfter, NotBefore, Opt, Season, Weekday, Word, Year,
};
use super::phrase::Make::{Fixed, With};
use super::phrase::{El, Language, Make, Rule, Table};

/// Words before a holiday's bare name that open a range on it ("מאז פסח", "אחרי חנוכה", "לפני
/// פסח", "עד חנוכה", "בשבוע שלפני פסח"; asked shortly before the coming holiday, לפני and עד
/// name no period).
const HOLIDAY_OPENERS: El = After(&["מאז", "אחרי", "לפני", "עד", "שלפני", "שאחרי"]);

/// `days` days from `offset` days after `feast`, the latest begun.
const fn feast(feast: Feast, offset: i32, days: u32) -> Make {
    Fixed(Expr::Feast {
        feast,
        offset,
        days,
    })
}

/// Number words, in the masculine and feminine forms and their construct states, and כמה ("a
/// few") as 3.
const COUNTS: Table = &[
    ("אחד", 1),
    ("אחת", 1),
    ("שניים", 2),
    ("שתיים", 2),
    ("שני", 2),
    ("שתי", 2),
    ("שלושה", 3),
    ("שלוש", 3),
    ("שלושת", 3),
    ("ארבעה", 4),
    ("ארבע", 4),
    ("ארבעת", 4),
    ("חמישה", 5),
    ("חמש", 5),
    ("חמשת", 5),
    ("שישה", 6),
    ("שש", 6),
    ("ששת", 6),
    ("שבעה", 7),
    ("שבע", 7),
    ("שבעת", 7),
    ("שמונה", 8),
    ("שמונת", 8),
    ("תשעה", 9),
    ("תשע", 9),
    ("תשעת", 9),
    ("עשרה", 10),
    ("עשר", 10),
    ("עשרת", 10),
    ("כמה", 3),
];

/// The day names after יום; 0 = Monday (יום שני), 6 = Sunday (יום ראשון).
const WEEKDAYS: Table = &[
    ("ראשון", 6),
    ("שני", 0),
    ("שלישי", 1),
    ("רביעי", 2),
    ("חמישי", 3),
    ("שישי", 4),
    ("שבת", 5),
];

/// The day letters after יום ("יום ה'", Thursday); Saturday is written שבת.
const LETTER_WEEKDAYS: Table = &[("א", 6), ("ב", 0), ("ג", 1), ("ד", 2), ("ה", 3), ("ו", 4)];

/// Month names that stand alone: all but יוני, which is also a given name (Yoni).
const MONTHS_ALONE: Table = &[
    ("ינואר", 1),
    ("פברואר", 2),
    ("מרץ", 3),
    ("מרס", 3),
    ("אפריל", 4),
    ("מאי", 5),
    ("יולי", 7),
    ("אוגוסט", 8),
    ("ספטמבר", 9),
    ("אוקטובר", 10),
    ("נובמבר", 11),
    ("דצמבר", 12),
];

/// Months with מ ("from"): "ממרץ" is "from March" ([`super::ranges::since`] opens them).
pub(super) const FROM_MONTHS: Table = &[
    ("מינואר", 1),
    ("מפברואר", 2),
    ("ממרץ", 3),
    ("ממרס", 3),
    ("מאפריל", 4),
    ("ממאי", 5),
    ("מיוני", 6),
    ("מיולי", 7),
    ("מאוגוסט", 8),
    ("מספטמבר", 9),
    ("מאוקטובר", 10),
    ("מנובמבר", 11),
    ("מדצמבר", 12),
];

/// The halves of a month: "הראשון|הראשונה" and "השני|השנייה".
const HALVES: Table = &[("הראשון", 1), ("הראשונה", 1), ("השני", 2), ("השנייה", 2)];

/// יוני alone, where a word around it makes it the month.
const JUNE: Table = &[("יוני", 6)];

/// Every month name, for "ב" + month ("ביוני") and months next to a day or a year.
/// The months of the Hebrew calendar, 1 Tishrei … 12 Elul (Adar, 6, both Adars of a leap
/// year), for [`Expr::HebrewMonth`]; but אב and שבט, in [`OTHER_HEBREW_MONTHS`].
const HEBREW_MONTHS: Table = &[
    ("תשרי", 1),
    ("חשון", 2),
    ("חשוון", 2),
    ("מרחשון", 2),
    ("מרחשוון", 2),
    ("כסלו", 3),
    ("כסליו", 3),
    ("טבת", 4),
    ("אדר", 6),
    ("ניסן", 7),
    ("אייר", 8),
    ("סיון", 9),
    ("סיוון", 9),
    ("תמוז", 10),
    ("אלול", 12),
];

/// Hebrew months that name something else with ב before them: "באב" (in a father), "בשבט" (in
/// a tribe); read after חודש ("בחודש אב") or מנחם ("במנחם אב") only.
const OTHER_HEBREW_MONTHS: Table = &[("שבט", 5), ("אב", 11)];

const MONTHS: Table = &[
    ("ינואר", 1),
    ("פברואר", 2),
    ("מרץ", 3),
    ("מרס", 3),
    ("אפריל", 4),
    ("מאי", 5),
    ("יוני", 6),
    ("יולי", 7),
    ("אוגוסט", 8),
    ("ספטמבר", 9),
    ("אוקטובר", 10),
    ("נובמבר", 11),
    ("דצמבר", 12),
];

/// Season names (0 spring … 3 winter). אביב only with ב or ה ("באביב", "האביב"): alone it is
/// also the end of place names (תל אביב).
const SEASONS: Table = &[
    ("באביב", 0),
    ("האביב", 0),
    ("קיץ", 1),
    ("סתיו", 2),
    ("חורף", 3),
];

/// Month names with ל ("to"), as a date writes them: "3 לנובמבר".
const TO_MONTHS: Table = &[
    ("לינואר", 1),
    ("לפברואר", 2),
    ("למרץ", 3),
    ("לאפריל", 4),
    ("למאי", 5),
    ("ליוני", 6),
    ("ליולי", 7),
    ("לאוגוסט", 8),
    ("לספטמבר", 9),
    ("לאוקטובר", 10),
    ("לנובמבר", 11),
    ("לדצמבר", 12),
];

/// Season names with the article, after a word that governs them ("בסוף הקיץ", "במהלך
/// החורף").
const THE_SEASONS: Table = &[("האביב", 0), ("הקיץ", 1), ("הסתיו", 2), ("החורף", 3)];

/// The ordinals of a week of a month ("השבוע הראשון של נובמבר").
const WEEK_ORDINALS: Table = &[("הראשון", 1), ("השני", 2), ("השלישי", 3), ("הרביעי", 4)];

/// The month a word names, as in a range's end after its prefix ("בין מרץ למאי"): every name
/// of [`MONTHS`].
pub(super) fn month_named(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, month)| *month)
}

const fn rule(pattern: &'static [El], make: Make) -> Rule {
    Rule { pattern, make }
}

const fn part(days_ago: u32, from_hour: u32, to_hour: u32) -> Make {
    Fixed(Expr::DayPart {
        days_ago,
        from_hour,
        to_hour,
    })
}

/// כמה ("a few"), a vague count: "לפני כמה ימים" is the days 2 to 5 back.
const FEW: Table = &[("כמה", 3)];

const BEFORE: El = Word(&["לפני"]);
const N: El = Count(COUNTS);
/// "that passed" (masculine, feminine) and "the previous".
const PAST_M: El = Word(&["שעבר", "הקודם"]);
const PAST_F: El = Word(&["שעברה", "הקודמת"]);

/// Not before an ordinal or "next": "השבוע הראשון" is a first week, "השנה הבאה" the next year;
/// nor before "that before" or "that after": "בשבוע שלפני פסח" is the week before Passover.
const NOT_ORDINAL: El = NotBefore(&[
    "הראשון",
    "הראשונה",
    "השני",
    "השנייה",
    "הבא",
    "הבאה",
    "שלפני",
    "שאחרי",
]);

/// Tried at every word; the longest match wins, the earlier rule on a tie.
#[rustfmt::skip]
const RULES: &[Rule] = &[
    rule(&[Word(&["היום"])], Fixed(Expr::Day { days_ago: 0 })),
    rule(&[Word(&["אתמול"])], Fixed(Expr::Day { days_ago: 1 })),
    rule(&[Word(&["שלשום"])], Fixed(Expr::Day { days_ago: 2 })),
    rule(&[Word(&["הבוקר"])], part(0, 0, 12)),
    rule(&[Word(&["הערב", "הלילה"])], part(0, 18, 24)),
    rule(&[Word(&["אמש"])], part(1, 18, 30)),
    rule(&[Word(&["אתמול"]), Word(&["בבוקר"])], part(1, 0, 12)),
    rule(&[Word(&["אתמול"]), Word(&["בערב"])], part(1, 18, 24)),
    rule(&[Word(&["אתמול"]), Word(&["בלילה"])], part(1, 18, 30)),
    // Not "השבוע הראשון בעבודה" (the first week at work), "השנה הראשונה של הילד", "ספר
    // השנה" (the yearbook).
    rule(&[Word(&["השבוע"]), NOT_ORDINAL], Fixed(Expr::Week { weeks_ago: 0 })),
    rule(&[Word(&["שבוע"]), PAST_M], Fixed(Expr::Week { weeks_ago: 1 })),
    rule(&[Word(&["החודש"]), NOT_ORDINAL], Fixed(Expr::Month { months_ago: 0 })),
    rule(&[Word(&["חודש"]), PAST_M], Fixed(Expr::Month { months_ago: 1 })),
    rule(&[NotAfter(&["ספר", "איש", "אשת", "מורה", "שיר", "רכב", "מכונית", "משחק", "סרט", "אלבום"]), Word(&["השנה"]), NOT_ORDINAL], Fixed(Expr::Year { years_ago: 0 })),
    // "בשבוע הזה", "בחודש הנוכחי", "בשנה הזאת": this one.
    rule(&[Word(&["שבוע"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::Week { weeks_ago: 0 })),
    rule(&[Word(&["חודש"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::Month { months_ago: 0 })),
    rule(&[Word(&["שנה"]), Word(&["הזאת", "הזו", "הנוכחית"])], Fixed(Expr::Year { years_ago: 0 })),
    // "בקיץ הזה": this summer, no time while it is to come.
    rule(&[Word(&["באביב"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::ThisSeason { season: 0 })),
    rule(&[Word(&["בקיץ"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::ThisSeason { season: 1 })),
    rule(&[Word(&["בסתיו"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::ThisSeason { season: 2 })),
    rule(&[Word(&["בחורף"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::ThisSeason { season: 3 })),
    // "בשבוע שעבר ביום שלישי": the weekday of last week, the week named first.
    rule(&[Word(&["שבוע"]), PAST_M, Word(&["ביום", "יום"]), Weekday(WEEKDAYS)], With(weekday_last_week)),
    // "בשישי שעבר", "בשלישי שעבר": the latest such weekday, without יום.
    rule(&[Weekday(WEEKDAYS), PAST_M], With(weekday)),
    // Dates with ל before the month: "ב-3 לנובמבר".
    rule(&[Opt(&["ב"]), Day, Month(TO_MONTHS)], With(date)),
    rule(&[Opt(&["ב"]), Day, Month(TO_MONTHS), Year], With(date)),
    rule(&[Word(&["שנה"]), PAST_F], Fixed(Expr::Year { years_ago: 1 })),
    rule(&[Word(&["אשתקד"])], Fixed(Expr::Year { years_ago: 1 })),
    // Vague counts first, so that on a tie with כמה of [`COUNTS`] they win.
    rule(&[BEFORE, Few(FEW), Word(&["ימים"])], With(days_ago)),
    rule(&[BEFORE, Few(FEW), Word(&["שבועות"])], With(weeks_ago)),
    rule(&[BEFORE, Few(FEW), Word(&["חודשים"])], With(months_ago)),
    rule(&[BEFORE, Few(FEW), Word(&["שנים"])], With(years_ago)),
    rule(&[BEFORE, N, Word(&["ימים", "יום"])], With(days_ago)),
    rule(&[BEFORE, N, Word(&["שבועות", "שבוע"])], With(weeks_ago)),
    rule(&[BEFORE, N, Word(&["חודשים", "חודש"])], With(months_ago)),
    rule(&[BEFORE, N, Word(&["שנים", "שנה"])], With(years_ago)),
    // "לפני 2-3 שבועות", "לפני שניים עד שלושה חודשים": the units from the first back to the second.
    rule(&[BEFORE, CountRange(COUNTS), Word(&["ימים", "יום"])], With(days_back_between)),
    rule(&[BEFORE, CountRange(COUNTS), Word(&["שבועות", "שבוע"])], With(weeks_back_between)),
    rule(&[BEFORE, CountRange(COUNTS), Word(&["חודשים", "חודש"])], With(months_back_between)),
    rule(&[BEFORE, CountRange(COUNTS), Word(&["שנים", "שנה"])], With(years_back_between)),
    // With כ ("about"): "לפני כשבוע".
    rule(&[BEFORE, Word(&["יום", "כיום"])], Fixed(Expr::Day { days_ago: 1 })),
    rule(&[BEFORE, Word(&["יומיים", "כיומיים"])], Fixed(Expr::Day { days_ago: 2 })),
    rule(&[BEFORE, Word(&["שבוע", "כשבוע"])], Fixed(Expr::Week { weeks_ago: 1 })),
    rule(&[BEFORE, Word(&["שבועיים", "כשבועיים"])], Fixed(Expr::Week { weeks_ago: 2 })),
    rule(&[BEFORE, Word(&["חודש", "כחודש"])], Fixed(Expr::Month { months_ago: 1 })),
    rule(&[BEFORE, Word(&["חודשיים", "כחודשיים"])], Fixed(Expr::Month { months_ago: 2 })),
    rule(&[BEFORE, Word(&["שנה", "כשנה"])], Fixed(Expr::Year { years_ago: 1 })),
    rule(&[BEFORE, Word(&["שנתיים", "כשנתיים"])], Fixed(Expr::Year { years_ago: 2 })),
    // "יום שני" only: שני alone is "second".
    rule(&[Word(&["יום"]), Weekday(WEEKDAYS), Opt(&["שעבר", "הקודם", "האחרון"])], With(weekday)),
    // "ביום שני בשבוע שעבר": Monday of last week.
    rule(&[Word(&["יום"]), Weekday(WEEKDAYS), Word(&["בשבוע", "שבוע"]), PAST_M], With(weekday_last_week)),
    // "בנובמבר שעבר": the latest November that is over.
    rule(&[Month(MONTHS), PAST_M], With(ended_month)),
    // "in the last week|month|year", "in recent days": the days up to the reference.
    // Not before של ("of"): "השבוע האחרון של מרץ" is the last week of March.
    rule(&[Word(&["שבוע"]), Word(&["האחרון"]), NotBefore(&["של"])], Fixed(Expr::Trailing { days: 7 })),
    rule(&[Word(&["ימים"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::Trailing { days: 7 })),
    rule(&[Word(&["חודש"]), Word(&["האחרון"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 1 })),
    rule(&[Word(&["שנה"]), Word(&["האחרונה"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 12 })),
    rule(&[BEFORE, Word(&["חצי", "כחצי"]), Word(&["שנה"])], Fixed(Expr::Month { months_ago: 6 })),
    // "בשבועיים האחרונים", "בחודשיים האחרונים", "בשנתיים האחרונות": the two weeks, months or
    // years up to the reference; "ב-3 החודשים האחרונים", "בשלושת השבועות האחרונים": N of them.
    rule(&[Word(&["יומיים"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::Trailing { days: 2 })),
    rule(&[Word(&["שבועיים"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::Trailing { days: 14 })),
    rule(&[Word(&["חודשיים"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 2 })),
    rule(&[Word(&["שנתיים"]), Word(&["האחרונות"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 24 })),
    rule(&[Opt(&["ב"]), N, Word(&["הימים"]), Word(&["האחרונים"]), NotBefore(&["של"])], With(past_days)),
    rule(&[Opt(&["ב"]), N, Word(&["השבועות"]), Word(&["האחרונים"]), NotBefore(&["של"])], With(past_weeks)),
    // Counted weekends: "בשני סופי השבוע האחרונים" (the last two), "לפני שני סופי שבוע" (the
    // weekend two back).
    rule(&[Opt(&["ב"]), N, Word(&["סופי"]), Word(&["השבוע", "שבוע"]), Word(&["האחרונים"])], With(past_weekends)),
    rule(&[Word(&["לפני"]), N, Word(&["סופי"]), Word(&["שבוע"])], With(weekends_ago)),
    // "בסופי השבוע האחרונים", the recent weekends: a few, as "the past few weekends".
    rule(&[Word(&["סופי"]), Word(&["השבוע"]), Word(&["האחרונים"])], Fixed(Expr::Weekends { count: 3 })),
    rule(&[Opt(&["ב"]), N, Word(&["החודשים"]), Word(&["האחרונים"]), NotBefore(&["של"])], With(past_months)),
    rule(&[Opt(&["ב"]), N, Word(&["השנים"]), Word(&["האחרונות"]), NotBefore(&["של"])], With(past_years)),
    // Jewish holidays with ב, or after מאז or אחרי: the latest begun, the days of
    // each as kept in Israel (Passover and Sukkot seven, Rosh Hashanah two, Hanukkah eight).
    // Without them the name is the topic ("מתכונים לפסח", recipes for Passover).
    // The next one, or the civil new year, is no past holiday.
    rule(&[Word(&["בפסח", "בחנוכה", "בסוכות", "בפורים"]), Word(&["הבא", "הקרוב", "הקרובה", "הבאה"])], Fixed(Expr::Future)),
    rule(&[Word(&["בראש"]), Word(&["השנה"]), Word(&["הבא", "הקרוב", "הבאה", "הקרובה"])], Fixed(Expr::Future)),
    rule(&[Word(&["בראש"]), Word(&["השנה"]), Word(&["האזרחית", "הלועזית"])], Fixed(Expr::NoTime)),
    rule(&[Word(&["בפסח"])], feast(Feast::Passover, 0, 7)),
    rule(&[Word(&["בחג"]), Word(&["הפסח"])], feast(Feast::Passover, 0, 7)),
    rule(&[HOLIDAY_OPENERS, Word(&["פסח"])], feast(Feast::Passover, 0, 7)),
    rule(&[Word(&["בחנוכה"])], feast(Feast::Hanukkah, 0, 8)),
    rule(&[Word(&["בחג"]), Word(&["החנוכה"])], feast(Feast::Hanukkah, 0, 8)),
    rule(&[HOLIDAY_OPENERS, Word(&["חנוכה"])], feast(Feast::Hanukkah, 0, 8)),
    rule(&[Word(&["בראש"]), Word(&["השנה"]), NotBefore(&["של", "הרשימה"])], feast(Feast::RoshHashanah, 0, 2)),
    rule(&[HOLIDAY_OPENERS, Word(&["ראש"]), Word(&["השנה"])], feast(Feast::RoshHashanah, 0, 2)),
    rule(&[Word(&["ביום"]), Word(&["כיפור", "הכיפורים", "כיפורים"])], feast(Feast::RoshHashanah, 9, 1)),
    rule(&[HOLIDAY_OPENERS, Word(&["יום"]), Word(&["כיפור", "הכיפורים", "כיפורים"])], feast(Feast::RoshHashanah, 9, 1)),
    // Not "בסוכות של השכנים", in the neighbours' sukkahs.
    rule(&[Word(&["בסוכות"]), NotBefore(&["של"])], feast(Feast::RoshHashanah, 14, 7)),
    rule(&[Word(&["בחג"]), Word(&["הסוכות"])], feast(Feast::RoshHashanah, 14, 7)),
    rule(&[HOLIDAY_OPENERS, Word(&["סוכות"])], feast(Feast::RoshHashanah, 14, 7)),
    // Purim, 14 Adar (Adar II in a leap year): thirty days before Passover.
    rule(&[Word(&["בפורים"])], feast(Feast::Passover, -30, 1)),
    rule(&[HOLIDAY_OPENERS, Word(&["פורים"])], feast(Feast::Passover, -30, 1)),
    // Holidays counted from Passover (15 Nisan): Shavuot (6 Sivan), Lag BaOmer (18 Iyar),
    // Independence Day (5 Iyar, moved a day or two to spare the Sabbath: four days around
    // it), the Seder night and the eve of Passover (14 Nisan), the intermediate days.
    rule(&[Word(&["בשבועות"]), EndsBefore(&[])], feast(Feast::Passover, 50, 1)),
    rule(&[Word(&["בחג"]), Word(&["השבועות"])], feast(Feast::Passover, 50, 1)),
    rule(&[HOLIDAY_OPENERS, Word(&["שבועות"]), EndsBefore(&[])], feast(Feast::Passover, 50, 1)),
    rule(&[Word(&["בל\"ג", "בל\u{05f4}ג"]), Word(&["בעומר"])], feast(Feast::Passover, 33, 1)),
    rule(&[Word(&["ביום"]), Word(&["העצמאות"])], feast(Feast::Passover, 18, 4)),
    rule(&[HOLIDAY_OPENERS, Word(&["יום"]), Word(&["העצמאות"])], feast(Feast::Passover, 18, 4)),
    rule(&[Word(&["בליל"]), Word(&["הסדר"])], feast(Feast::Passover, -1, 1)),
    rule(&[Word(&["בערב"]), Word(&["פסח", "החג"])], feast(Feast::Passover, -1, 1)),
    rule(&[Word(&["בחול"]), Word(&["המועד"]), Word(&["פסח"])], feast(Feast::Passover, 1, 5)),
    // From Rosh Hashanah (1 Tishrei): the intermediate days of Sukkot, and the holidays of
    // Tishrei through Simchat Torah (22 Tishrei).
    rule(&[Word(&["בחול"]), Word(&["המועד"]), Word(&["סוכות"])], feast(Feast::RoshHashanah, 15, 5)),
    rule(&[Word(&["בחגי"]), Word(&["תשרי"])], feast(Feast::RoshHashanah, 0, 23)),
    rule(&[Word(&["בחגים"]), EndsBefore(&[])], feast(Feast::RoshHashanah, 0, 23)),
    rule(&[HOLIDAY_OPENERS, Word(&["החגים"]), EndsBefore(&[])], feast(Feast::RoshHashanah, 0, 23)),
    // The eves of Rosh Hashanah and Yom Kippur.
    rule(&[Word(&["בערב"]), Word(&["ראש"]), Word(&["השנה"])], feast(Feast::RoshHashanah, -1, 1)),
    rule(&[Word(&["בערב"]), Word(&["יום"]), Word(&["כיפור", "הכיפורים", "כיפורים"])], feast(Feast::RoshHashanah, 8, 1)),
    // Tu BiShvat (15 Shevat), 48 or 49 days after the first day of Hanukkah (25 Kislev).
    rule(&[Word(&["בט\"ו", "בט\u{05f4}ו"]), Word(&["בשבט"])], feast(Feast::Hanukkah, 48, 2)),
    // The civil year's last day, the summer school break (July and August), Saturday night.
    rule(&[Word(&["בסילבסטר"])], Fixed(Expr::DaysOfYear { month: 12, day: 31, days: 1 })),
    rule(&[Word(&["בחופש"]), Word(&["הגדול"])], Fixed(Expr::DaysOfYear { month: 7, day: 1, days: 62 })),
    rule(&[Word(&["במוצאי"]), Word(&["שבת"])], Fixed(Expr::Weekday(5))),
    rule(&[Word(&["במוצ\"ש", "במוצ\u{05f4}ש"])], Fixed(Expr::Weekday(5))),
    // ראש השנה, the new year's holiday, is no "this year".
    rule(&[Word(&["ראש"]), Word(&["השנה"])], Fixed(Expr::NoTime)),
    // A month's bare name is a time after a word that makes it one ("מאז מרץ", "עד מאי",
    // "בחודש מרץ") or before a year ("מרץ 2025"); alone it is as often a name ("מה אמרה לי
    // יולי", "איפה גרה אפריל") or a word ("מרץ", energy). With ב it always is (below).
    rule(&[After(&["מאז", "עד", "ועד", "אחרי", "לפני", "בין", "חודש", "בחודש", "של", "מתחילת", "מסוף", "מאמצע", "בסביבות", "סביב", "בערך"]), BareMonth(MONTHS_ALONE)], With(named_month)),
    rule(&[BareMonth(MONTHS_ALONE), Year], With(named_month)),
    // Friday and Thursday with ב alone, where the phrase ends ("מה בישלתי בשישי?").
    rule(&[Word(&["בשישי"]), EndsBefore(&[])], Fixed(Expr::Weekday(4))),
    rule(&[Word(&["בחמישי"]), EndsBefore(&[])], Fixed(Expr::Weekday(3))),
    rule(&[Word(&["ברביעי"]), EndsBefore(&[])], Fixed(Expr::Weekday(2))),
    rule(&[Word(&["בשלישי"]), EndsBefore(&[])], Fixed(Expr::Weekday(1))),
    // "בשני" may be "in two", "בראשון" "in the first": as the others, only where the phrase
    // ends ("בשני חלקים" is in two parts).
    rule(&[Word(&["בשני"]), EndsBefore(&[])], Fixed(Expr::Weekday(0))),
    rule(&[Word(&["בראשון"]), EndsBefore(&[])], Fixed(Expr::Weekday(6))),
    // יוני after "between" opens a range ("בין יוני לאוגוסט").
    rule(&[After(&["בין"]), Month(JUNE)], With(named_month)),
    // "בתחילת|באמצע|בסוף חודש מאי".
    rule(&[Word(&["תחילת"]), Word(&["חודש"]), Month(MONTHS)], With(early_month)),
    rule(&[Word(&["אמצע"]), Word(&["חודש"]), Month(MONTHS)], With(mid_month)),
    rule(&[Word(&["סוף"]), Word(&["חודש"]), Month(MONTHS)], With(late_month)),
    // "בחצי הראשון|השני של מרץ".
    rule(&[Word(&["חצי", "מחצית"]), Entry(HALVES), Word(&["של"]), Month(MONTHS)], With(half_of_month)),
    rule(&[Word(&["חצי", "מחצית"]), Entry(HALVES), InMonth(MONTHS)], With(half_of_month)),
    // "באותו זמן|בתקופה הזאת בשנה שעברה": this time last year.
    rule(&[Word(&["אותו", "אותה"]), Word(&["זמן", "תקופה"]), Word(&["בשנה", "שנה"]), PAST_F], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 14 })),
    rule(&[Word(&["תקופה"]), Word(&["הזאת", "הזו"]), Word(&["בשנה", "שנה"]), PAST_F], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 14 })),
    // "לפני שבוע|חודש|שנה בדיוק": that day.
    rule(&[BEFORE, Word(&["שבוע"]), Word(&["בדיוק"])], Fixed(Expr::Day { days_ago: 7 })),
    rule(&[BEFORE, Word(&["חודש"]), Word(&["בדיוק"])], Fixed(Expr::AroundMonthsAgo { months_ago: 1, days: 0 })),
    rule(&[BEFORE, Word(&["שנה"]), Word(&["בדיוק"])], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 0 })),
    rule(&[Word(&["בדיוק"]), BEFORE, Word(&["שבוע"])], Fixed(Expr::Day { days_ago: 7 })),
    // "(ל)כל יום שני", every Monday: no day.
    rule(&[Word(&["כל"]), Word(&["יום"]), Weekday(WEEKDAYS)], Fixed(Expr::NoTime)),
    rule(&[Word(&["בדיוק"]), BEFORE, Word(&["חודש"])], Fixed(Expr::AroundMonthsAgo { months_ago: 1, days: 0 })),
    rule(&[Word(&["בדיוק"]), BEFORE, Word(&["שנה"])], Fixed(Expr::AroundYearsAgo { years_ago: 1, days: 0 })),
    // "לפני שבוע-שבועיים", "לפני יומיים-שלושה", "לפני שבוע או שבועיים": both units.
    rule(&[BEFORE, Word(&["יום"]), Opt(&["או"]), Word(&["יומיים"])], Fixed(Expr::Back { unit: Unit::Day, nearest: 1, farthest: 2 })),
    rule(&[BEFORE, Word(&["יומיים"]), Opt(&["או"]), Word(&["שלושה"])], Fixed(Expr::Back { unit: Unit::Day, nearest: 2, farthest: 3 })),
    rule(&[BEFORE, Word(&["שבוע"]), Opt(&["או"]), Word(&["שבועיים"])], Fixed(Expr::Back { unit: Unit::Week, nearest: 1, farthest: 2 })),
    rule(&[BEFORE, Word(&["חודש"]), Opt(&["או"]), Word(&["חודשיים"])], Fixed(Expr::Back { unit: Unit::Month, nearest: 1, farthest: 2 })),
    rule(&[BEFORE, Word(&["שבועיים"]), Opt(&["או"]), Word(&["שלושה"])], Fixed(Expr::Back { unit: Unit::Week, nearest: 2, farthest: 3 })),
    rule(&[BEFORE, Word(&["חודשיים"]), Opt(&["או"]), Word(&["שלושה"])], Fixed(Expr::Back { unit: Unit::Month, nearest: 2, farthest: 3 })),
    rule(&[BEFORE, Word(&["שנה"]), Opt(&["או"]), Word(&["שנתיים"])], Fixed(Expr::Back { unit: Unit::Year, nearest: 1, farthest: 2 })),
    rule(&[BEFORE, Word(&["שנתיים"]), Opt(&["או"]), Word(&["שלוש"])], Fixed(Expr::Back { unit: Unit::Year, nearest: 2, farthest: 3 })),
    // "ב-25 לחודש": the latest 25th.
    rule(&[Word(&["ב", "ה"]), Day, Word(&["לחודש"]), EndsBefore(&[])], With(day_of_month)),
    // "בתחילת השבוע": this week's Monday to Wednesday.
    rule(&[Word(&["תחילת"]), Word(&["השבוע"]), NotBefore(&["של", "שעבר", "הקודם"])], Fixed(Expr::PartOfWeek { weeks_ago: 0, from_day: 0, to_day: 3 })),
    // "לפני הקיץ", "אחרי הקיץ": the latest begun, opened on one side.
    rule(&[After(&["לפני", "אחרי"]), Season(THE_SEASONS)], With(season_begun)),
    // "ממרץ" (from March), up to now ([`super::ranges::since`]); before עד it opens a range.
    rule(&[Month(FROM_MONTHS), NotBefore(&["עד", "ועד"])], With(named_month)),
    // יוני after "until" is the month ("ממרץ עד יוני", "עד יוני"), and after "since",
    // "before" or "after" where the phrase ends ("מאז יוני", not "מאז יוני עזב").
    rule(&[After(&["עד", "ועד"]), Month(JUNE)], With(named_month)),
    rule(&[After(&["מאז", "לפני", "אחרי"]), Month(JUNE), EndsBefore(&[])], With(named_month)),
    // A year after "since", "before", "after" or "until" where the phrase ends ("מאז 2025";
    // not "לפני 2025 שנה").
    rule(&[After(&["מאז", "לפני", "אחרי", "עד", "ועד"]), Year, EndsBefore(&[])], With(named_year)),
    rule(&[InMonth(MONTHS)], With(named_month)),
    // Months of the Hebrew calendar, the latest begun: "באלול", "בחודש תשרי", "במנחם אב",
    // "מאז ניסן".
    rule(&[Word(&["חודש"]), Entry(HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[Word(&["חודש"]), Entry(OTHER_HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[InMonth(HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[Word(&["מנחם"]), Word(&["אב"])], Fixed(Expr::HebrewMonth { month: 11 })),
    rule(&[HOLIDAY_OPENERS, Entry(HEBREW_MONTHS)], With(hebrew_month)),
    rule(&[Month(MONTHS), Year], With(named_month)),
    // ISO week numbers: "בשבוע 45", "שבוע 45 של 2025", "בשבוע 45 בשנה שעברה"; not "שבוע 2 של
    // הקורס", the course's second week.
    rule(&[Word(&["שבוע"]), Count(&[]), NotBefore(&["של"])], With(iso_week)),
    rule(&[Word(&["שבוע"]), Count(&[]), Opt(&["של", "ב"]), Year], With(iso_week)),
    rule(&[Word(&["שבוע"]), Count(&[]), Word(&["בשנה"]), Word(&["שעברה"])], With(iso_week_last_year)),
    rule(&[Word(&["שבוע"]), Count(&[]), Word(&["של"]), Word(&["השנה"]), Word(&["שעברה"])], With(iso_week_last_year)),
    rule(&[Word(&["שבוע"]), Count(&[]), Word(&["של"]), Word(&["השנה"]), NotBefore(&["שעברה"])], With(iso_week_this_year)),
    rule(&[Opt(&["ב"]), Day, Month(MONTHS)], With(date)),
    rule(&[Opt(&["ב"]), Day, Month(MONTHS), Year], With(date)),
    // "ה-12 בנובמבר", "מה-12 בנובמבר" (the 12th, from the 12th): that day.
    rule(&[Word(&["ה", "מה", "מ"]), Day, Month(MONTHS)], With(date)),
    rule(&[Word(&["ה", "מה", "מ"]), Day, Month(MONTHS), Year], With(date)),
    rule(&[Word(&["ב", "שנת"]), Year], With(named_year)),
    // "ב-15 לחודש שעבר" (the 15th of last month), "ב-3 לחודש הזה|הנוכחי".
    rule(&[Word(&["ב", "ה"]), Day, Word(&["לחודש", "בחודש"]), PAST_M], With(day_of_last_month)),
    rule(&[Word(&["ב", "ה"]), Day, Word(&["לחודש", "בחודש"]), Word(&["הזה", "הנוכחי"])], With(day_of_this_month)),
    // Dates written with digits, the day first: "ב-20/11", "ב-15/03/2025", "ב-5.1.2026".
    rule(&[Word(&["ב", "ה", "מה", "מ", "עד"]), DayFirst], With(date)),
    // A dotted day and month without a year where the phrase ends ("מה בישלתי ב-15.3?"; not
    // "עלה ב-2.5 אחוז"), or after תאריך ("בתאריך 1.3").
    rule(&[Word(&["ב", "ה", "מה", "מ", "עד"]), DottedNoYear, EndsBefore(&["עד", "ועד"])], With(date)),
    rule(&[Word(&["תאריך"]), DottedNoYear], With(date)),
    // "בראשון לדצמבר", the first of December (not "ראשון לציון", a city).
    rule(&[Word(&["ראשון"]), Month(TO_MONTHS)], With(first_day_of_month)),
    // A season needs "that passed" or a year: קיץ alone is just the word.
    rule(&[Season(SEASONS), PAST_M], With(season_ended)),
    rule(&[Season(SEASONS), Year], With(season_of_year)),
    rule(&[Season(SEASONS), Word(&["שנה", "בשנה"]), PAST_F], With(season_last_year)),
    rule(&[Season(SEASONS), Word(&["אשתקד"])], With(season_last_year)),
    rule(&[Month(MONTHS), Word(&["שנה", "בשנה"]), PAST_F], With(month_last_year)),
    rule(&[Month(MONTHS), Word(&["אשתקד"])], With(month_last_year)),
    // "עד עכשיו" (until now): today, to end a range ("מינואר עד עכשיו").
    rule(&[After(&["עד", "ועד"]), Word(&["עכשיו"])], Fixed(Expr::Day { days_ago: 0 })),
    // "מתחילת השנה|החודש|השבוע" (from the start of the year…): this one, up to now.
    rule(&[Word(&["מתחילת"]), Word(&["השנה"]), NOT_ORDINAL], Fixed(Expr::Year { years_ago: 0 })),
    rule(&[Word(&["מתחילת"]), Word(&["החודש"]), NOT_ORDINAL], Fixed(Expr::Month { months_ago: 0 })),
    rule(&[Word(&["מתחילת"]), Word(&["השבוע"]), NOT_ORDINAL], Fixed(Expr::Week { weeks_ago: 0 })),
    // "מאז הקיץ" (since the summer): the latest begun, opened by מאז.
    rule(&[After(&["מאז"]), Season(THE_SEASONS)], With(season_begun)),
    // Thirds of a named year: "בתחילת 2026", "באמצע 2025", "בסוף 2025".
    rule(&[Word(&["תחילת"]), Year], With(early_year)),
    rule(&[Word(&["אמצע"]), Year], With(mid_year)),
    rule(&[Word(&["סוף"]), Year], With(late_year)),
    // "בקיץ של 2025", "בקיץ של השנה שעברה"; "בחורף האחרון", the latest one over.
    rule(&[Season(SEASONS), Word(&["של"]), Year], With(season_of_year)),
    rule(&[Season(SEASONS), Word(&["של"]), Word(&["השנה", "שנה"]), PAST_F], With(season_last_year)),
    rule(&[Season(SEASONS), Word(&["האחרון"])], With(season_ended)),
    // "בדצמבר האחרון": the latest December over, as "בדצמבר שעבר".
    rule(&[Month(MONTHS), Word(&["האחרון"]), NotBefore(&["של"])], With(ended_month)),
    rule(&[InMonth(MONTHS), Word(&["האחרון"]), NotBefore(&["של"])], With(ended_month)),
    // Still to come: "ביום שני הבא", "בקיץ הבא", "במרץ הבא", "בשבוע הבא", "בשנה הבאה".
    rule(&[Word(&["יום"]), Weekday(WEEKDAYS), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[Weekday(WEEKDAYS), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[Season(SEASONS), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[Month(MONTHS), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[InMonth(MONTHS), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[Word(&["שבוע", "חודש", "רבעון"]), Word(&["הבא", "הקרוב"])], Fixed(Expr::Future)),
    rule(&[Word(&["שנה"]), Word(&["הבאה", "הקרובה"])], Fixed(Expr::Future)),
    rule(&[Word(&["מחר", "מחרתיים"])], Fixed(Expr::Future)),
    // "לפני שנה וחצי" (the month 18 back), "לפני חודש וחצי" (the fortnight around 46 days
    // back), as in English.
    rule(&[BEFORE, Word(&["שנה"]), Word(&["וחצי"])], Fixed(Expr::Month { months_ago: 18 })),
    rule(&[BEFORE, Word(&["שנתיים"]), Word(&["וחצי"])], Fixed(Expr::Month { months_ago: 30 })),
    rule(&[BEFORE, Word(&["חודש"]), Word(&["וחצי"])], Fixed(Expr::Back { unit: Unit::Day, nearest: 38, farthest: 52 })),
    rule(&[BEFORE, Word(&["שבוע"]), Word(&["וחצי"])], Fixed(Expr::Back { unit: Unit::Day, nearest: 8, farthest: 12 })),
    // Thirds of a season ("בסוף הקיץ", "בתחילת הסתיו", "באמצע החורף"), and a season "during"
    // ("במהלך הקיץ", "במשך החורף"), the latest begun.
    rule(&[Word(&["תחילת"]), Season(THE_SEASONS)], With(early_season)),
    rule(&[Word(&["אמצע"]), Season(THE_SEASONS)], With(mid_season)),
    rule(&[Word(&["סוף"]), Season(THE_SEASONS)], With(late_season)),
    rule(&[Word(&["מהלך", "משך"]), Season(THE_SEASONS)], With(season_begun)),
    // "בשבוע הראשון של נובמבר", "בשבוע האחרון של אוקטובר".
    rule(&[Word(&["שבוע"]), Entry(WEEK_ORDINALS), Word(&["של", "ב"]), Month(MONTHS)], With(week_of_month)),
    rule(&[Word(&["שבוע"]), Entry(WEEK_ORDINALS), InMonth(MONTHS)], With(week_of_month)),
    rule(&[Word(&["שבוע"]), Word(&["האחרון"]), Word(&["של"]), Month(MONTHS)], With(last_week_of_month)),
    rule(&[Word(&["שבוע"]), Word(&["האחרון"]), InMonth(MONTHS)], With(last_week_of_month)),
    // Seasons with ב: "באביב", "בקיץ", "בסתיו", "בחורף" are the latest that has begun, as "in
    // the summer" is.
    rule(&[Word(&["באביב"])], Fixed(Expr::Season { season: 0, ended: false })),
    rule(&[Word(&["בקיץ"]), NotBefore(&["שעבר", "הקודם"])], Fixed(Expr::Season { season: 1, ended: false })),
    rule(&[Word(&["בסתיו"]), NotBefore(&["שעבר", "הקודם"])], Fixed(Expr::Season { season: 2, ended: false })),
    rule(&[Word(&["בחורף"]), NotBefore(&["שעבר", "הקודם"])], Fixed(Expr::Season { season: 3, ended: false })),
    // "בסוף השבוע" is the weekend, the latest one ("בסוף השבוע שעבר|האחרון" too), not this week.
    rule(&[Word(&["סוף"]), Word(&["השבוע"]), Opt(&["שעבר", "האחרון"]), NotBefore(&["של"])], Fixed(Expr::Weekend)),
    // "בסופ"ש" (the acronym of סוף שבוע): the same weekend.
    rule(&[Word(&["סופ\"ש", "סופ\u{05f4}ש", "סופש"]), Opt(&["שעבר", "האחרון"]), NotBefore(&["של"])], Fixed(Expr::Weekend)),
    // "ביום ה'", "ביום א' שעבר": a weekday by its letter, the latest one; only where the
    // letter ends the phrase ("ביום ה-15 לחודש" is a day of the month).
    rule(&[Word(&["יום"]), Weekday(LETTER_WEEKDAYS), EndsBefore(&["שעבר", "הקודם", "האחרון"])], With(weekday)),
    // "בשבת" (on Saturday) without יום; "בשבת שעברה".
    rule(&[Word(&["בשבת"]), Opt(&["שעברה", "האחרונה"])], Fixed(Expr::Weekday(5))),
    // Quarters: "ברבעון השלישי", "ברבעון הקודם|שעבר|האחרון", "ברבעון הזה|הנוכחי".
    rule(&[Word(&["רבעון"]), Word(&["הראשון"])], Fixed(Expr::Quarter { quarter: 1 })),
    rule(&[Word(&["רבעון"]), Word(&["השני"])], Fixed(Expr::Quarter { quarter: 2 })),
    rule(&[Word(&["רבעון"]), Word(&["השלישי"])], Fixed(Expr::Quarter { quarter: 3 })),
    rule(&[Word(&["רבעון"]), Word(&["הרביעי"])], Fixed(Expr::Quarter { quarter: 4 })),
    rule(&[Word(&["רבעון"]), Word(&["הקודם", "שעבר", "האחרון"]), NotBefore(&["של"])], Fixed(Expr::QuarterAgo { quarters_ago: 1 })),
    rule(&[Word(&["רבעון"]), Word(&["הזה", "הנוכחי"])], Fixed(Expr::QuarterAgo { quarters_ago: 0 })),
    // "in recent weeks|months": three of them up to the reference.
    rule(&[Word(&["שבועות"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::Trailing { days: 21 })),
    rule(&[Word(&["חודשים"]), Word(&["האחרונים"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 3 })),
    rule(&[Word(&["חצי"]), Word(&["השנה"]), Word(&["האחרונה"]), NotBefore(&["של"])], Fixed(Expr::TrailingMonths { months: 6 })),
    // Thirds of this or last year and month: "בתחילת השנה", "באמצע השנה שעברה", "בסוף החודש
    // שעבר"; halves of this year: "במחצית הראשונה של השנה", "בחצי השני של השנה".
    rule(&[Word(&["תחילת"]), Word(&["השנה"]), NOT_ORDINAL], year_part(0, 0)),
    rule(&[Word(&["אמצע"]), Word(&["השנה"]), NOT_ORDINAL], year_part(0, 1)),
    rule(&[Word(&["סוף"]), Word(&["השנה"]), NOT_ORDINAL], year_part(0, 2)),
    rule(&[Word(&["תחילת"]), Word(&["השנה"]), PAST_F], year_part(1, 0)),
    rule(&[Word(&["אמצע"]), Word(&["השנה"]), PAST_F], year_part(1, 1)),
    rule(&[Word(&["סוף"]), Word(&["השנה"]), PAST_F], year_part(1, 2)),
    rule(&[Word(&["תחילת"]), Word(&["החודש"]), NOT_ORDINAL], month_part(0, 1, 11)),
    rule(&[Word(&["אמצע"]), Word(&["החודש"]), NOT_ORDINAL], month_part(0, 11, 21)),
    rule(&[Word(&["סוף"]), Word(&["החודש"]), NOT_ORDINAL], month_part(0, 21, 32)),
    rule(&[Word(&["תחילת"]), Word(&["החודש"]), PAST_M], month_part(1, 1, 11)),
    rule(&[Word(&["אמצע"]), Word(&["החודש"]), PAST_M], month_part(1, 11, 21)),
    rule(&[Word(&["סוף"]), Word(&["החודש"]), PAST_M], month_part(1, 21, 32)),
    rule(&[Word(&["מחצית", "חצי"]), Word(&["הראשונה", "הראשון"]), Word(&["של"]), Word(&["השנה"]), NOT_ORDINAL], year_half(0, 0)),
    rule(&[Word(&["מחצית", "חצי"]), Word(&["השנייה", "השני"]), Word(&["של"]), Word(&["השנה"]), NOT_ORDINAL], year_half(0, 1)),
    // "במחצית השנייה של השנה שעברה": last year's half.
    rule(&[Word(&["מחצית", "חצי"]), Word(&["הראשונה", "הראשון"]), Word(&["של"]), Word(&["השנה"]), PAST_F], year_half(1, 0)),
    rule(&[Word(&["מחצית", "חצי"]), Word(&["השנייה", "השני"]), Word(&["של"]), Word(&["השנה"]), PAST_F], year_half(1, 1)),
    // "בשבוע שלפני השבוע שעבר": the week before last.
    rule(&[Word(&["שבוע"]), Word(&["שלפני"]), Word(&["השבוע"]), PAST_M], Fixed(Expr::Week { weeks_ago: 2 })),
    // "במחצית הראשונה של 2025", "בחצי השני של 2025": that year's half.
    rule(&[Word(&["מחצית", "חצי"]), Entry(HALVES), Word(&["של"]), Year], With(half_of_year)),
    // "(ב)תחילת מרץ", "(ב)אמצע מרץ", "(ב)סוף מרץ", with or without a year.
    // The month with no prefix and no comma ("בסוף, במרץ" is "in the end, in March"); יוני
    // only with a year.
    rule(&[Word(&["תחילת"]), BareMonth(MONTHS_ALONE)], With(early_month)),
    // The beginning or middle of Yoni is no phrase: יוני there is the month; "בסוף יוני" only
    // where the phrase ends ("בסוף יוני הגיע" is "in the end Yoni came").
    rule(&[Word(&["תחילת"]), BareMonth(JUNE)], With(early_month)),
    rule(&[Word(&["אמצע"]), BareMonth(JUNE)], With(mid_month)),
    rule(&[Word(&["סוף"]), BareMonth(JUNE), EndsBefore(&[])], With(late_month)),
    rule(&[Word(&["תחילת"]), BareMonth(MONTHS), Year], With(early_month)),
    rule(&[Word(&["אמצע"]), BareMonth(MONTHS_ALONE)], With(mid_month)),
    rule(&[Word(&["אמצע"]), BareMonth(MONTHS), Year], With(mid_month)),
    rule(&[Word(&["סוף"]), BareMonth(MONTHS_ALONE)], With(late_month)),
    rule(&[Word(&["סוף"]), BareMonth(MONTHS), Year], With(late_month)),
];

/// Hebrew.
/// The vocabulary of [`HEBREW`], built on first use.
static VOCABULARY: std::sync::OnceLock<std::collections::HashSet<&str>> =
    std::sync::OnceLock::new();

pub(super) const HEBREW: Language = Language {
    rules: RULES,
    prefixes: "ובהלמשכ",
    month_prefixes: "וב",
    // "שבוע-שבועיים", "יומיים-שלושה": a unit and the next count, joined by a hyphen or a maqaf.
    hyphen_words: &[
        "יום",
        "יומיים",
        "שבוע",
        "שבועיים",
        "חודש",
        "חודשיים",
        "שנה",
        "שנתיים",
    ],
    vocabulary: &VOCABULARY,
    starts: &STARTS,
};

static STARTS: std::sync::OnceLock<super::phrase::Starts> = std::sync::OnceLock::new();

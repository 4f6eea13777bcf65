//! Japanese time expressions, matched as substrings (Japanese puts no spaces between words).
//! Numbers are ASCII or full-width digits, or kanji numerals up to 九十九.

use super::Found;
use super::build::few_back;
use super::calendar::{Expr, Unit, max_day};

/// Words with a fixed meaning.
const WORDS: &[(&str, Expr)] = &[
    ("今日", Expr::Day { days_ago: 0 }),
    ("本日", Expr::Day { days_ago: 0 }),
    ("昨日", Expr::Day { days_ago: 1 }),
    ("きのう", Expr::Day { days_ago: 1 }),
    ("一昨日", Expr::Day { days_ago: 2 }),
    ("おととい", Expr::Day { days_ago: 2 }),
    ("今朝", part(0, 0, 12)),
    ("今夜", part(0, 18, 24)),
    ("今晩", part(0, 18, 24)),
    ("昨夜", part(1, 18, 30)),
    ("昨晩", part(1, 18, 30)),
    ("今週", Expr::Week { weeks_ago: 0 }),
    ("先週", Expr::Week { weeks_ago: 1 }),
    ("先々週", Expr::Week { weeks_ago: 2 }),
    ("今月", Expr::Month { months_ago: 0 }),
    ("先月", Expr::Month { months_ago: 1 }),
    ("先々月", Expr::Month { months_ago: 2 }),
    ("今年", Expr::Year { years_ago: 0 }),
    ("去年", Expr::Year { years_ago: 1 }),
    ("昨年", Expr::Year { years_ago: 1 }),
    ("一昨年", Expr::Year { years_ago: 2 }),
    ("おととし", Expr::Year { years_ago: 2 }),
    // "the other day", as in English: the days 1 to 6 back.
    (
        "先日",
        Expr::Back {
            unit: Unit::Day,
            nearest: 1,
            farthest: 6,
        },
    ),
    // About this time last year: the two weeks either side of the day a year back.
    (
        "去年の今頃",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "昨年の今頃",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "去年の今ごろ",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "昨年の今ごろ",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    ("去年の暮れ", last_years_december()),
    ("きょう", Expr::Day { days_ago: 0 }),
    // This time a year ago, in other words.
    (
        "1年前の今頃",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "1年前の今ごろ",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "一年前の今頃",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "一年前の今ごろ",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "去年の同じ時期",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "昨年の同じ時期",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "去年の同時期",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    (
        "昨年の同時期",
        Expr::AroundYearsAgo {
            years_ago: 1,
            days: 14,
        },
    ),
    // The year-end holidays of last or this year.
    ("去年の年末年始", days_of_year_ago(1, 12, 29, 6)),
    ("昨年の年末年始", days_of_year_ago(1, 12, 29, 6)),
    ("今年の年末年始", days_of_year_ago(0, 12, 29, 6)),
    // Halves of last and this week, and their weekend.
    (
        "先週の前半",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 0,
            to_day: 3,
        },
    ),
    (
        "先週の後半",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 3,
            to_day: 7,
        },
    ),
    (
        "今週の前半",
        Expr::PartOfWeek {
            weeks_ago: 0,
            from_day: 0,
            to_day: 3,
        },
    ),
    (
        "先週の土日",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 5,
            to_day: 7,
        },
    ),
    ("この土日", Expr::Weekend),
    // "前の週" (the week before this one), "週明け" (the start of this week: Monday and
    // Tuesday), "月初" and "月初め" (the first ten days of this month).
    ("前の週", Expr::Week { weeks_ago: 1 }),
    (
        "週明け",
        Expr::PartOfWeek {
            weeks_ago: 0,
            from_day: 0,
            to_day: 2,
        },
    ),
    (
        "月初",
        Expr::PartOfMonthAgo {
            months_ago: 0,
            from_day: 1,
            to_day: 11,
        },
    ),
    ("昨年の暮れ", last_years_december()),
    // 数 ("several") is vague, as "a few" is in English: the units 2 to 5 back.
    ("数日前", few_back(Unit::Day)),
    ("数週間前", few_back(Unit::Week)),
    ("数か月前", few_back(Unit::Month)),
    ("数ヶ月前", few_back(Unit::Month)),
    ("数カ月前", few_back(Unit::Month)),
    ("数年前", few_back(Unit::Year)),
    ("半年前", Expr::Month { months_ago: 6 }),
    ("半年くらい前", Expr::Month { months_ago: 6 }),
    ("半年ぐらい前", Expr::Month { months_ago: 6 }),
    ("半年ほど前", Expr::Month { months_ago: 6 }),
    // The start and the end of a year as the Japanese words mean them: January and December
    // (年末 is the year-end rush, 年始 and 年明け the first days of the year), the latest begun:
    // 年末 in March is last year's December.
    ("年初", latest_month_of_year(0)),
    ("年始", latest_month_of_year(0)),
    ("年明け", latest_month_of_year(0)),
    ("年末", latest_month_of_year(11)),
    ("昨年末", last_years_december()),
    ("去年末", last_years_december()),
    ("去年の年末", last_years_december()),
    ("昨年の年末", last_years_december()),
    ("上半期", half_year(0)),
    ("下半期", half_year(1)),
    ("去年の上半期", half_of_year(1, 0)),
    ("去年の下半期", half_of_year(1, 1)),
    ("昨年の上半期", half_of_year(1, 0)),
    ("昨年の下半期", half_of_year(1, 1)),
    ("先週末", Expr::Weekend),
    ("先々週末", Expr::WeekendBack { weeks_back: 1 }),
    // Holidays with fixed days, each the latest one begun: the New Year's days (January 1–3),
    // Golden Week (April 29 to May 5), Obon (August 13–16), the year-end holidays (December 29
    // to January 3).
    ("お正月", days_of_year(1, 1, 3)),
    ("正月", days_of_year(1, 1, 3)),
    ("三が日", days_of_year(1, 1, 3)),
    ("ゴールデンウィーク", days_of_year(4, 29, 7)),
    // Fixed-date holidays and breaks, where a particle or a mark follows them ([`holiday`]).
    // お盆 alone is also a tray ("お盆を買った"): only with 休み, の時期 or 期間.
    ("お盆休み", days_of_year(8, 13, 4)),
    ("お盆の時期", days_of_year(8, 13, 4)),
    ("お盆期間", days_of_year(8, 13, 4)),
    // Holidays of this or last year: 去年のクリスマス is December 24–26 of last year whenever it
    // is asked.
    ("去年のクリスマス", days_of_year_ago(1, 12, 24, 3)),
    ("昨年のクリスマス", days_of_year_ago(1, 12, 24, 3)),
    ("去年のお盆", days_of_year_ago(1, 8, 13, 4)),
    ("昨年のお盆", days_of_year_ago(1, 8, 13, 4)),
    ("去年のお正月", days_of_year_ago(1, 1, 1, 3)),
    ("昨年のお正月", days_of_year_ago(1, 1, 1, 3)),
    ("去年の正月", days_of_year_ago(1, 1, 1, 3)),
    ("去年のゴールデンウィーク", days_of_year_ago(1, 4, 29, 7)),
    ("昨年のゴールデンウィーク", days_of_year_ago(1, 4, 29, 7)),
    ("今年のお盆", days_of_year_ago(0, 8, 13, 4)),
    ("今年のお正月", days_of_year_ago(0, 1, 1, 3)),
    ("今年の正月", days_of_year_ago(0, 1, 1, 3)),
    ("今年のゴールデンウィーク", days_of_year_ago(0, 4, 29, 7)),
    // Christmas as a time, not a topic ("クリスマスプレゼント", "クリスマスにぴったり"): with の頃,
    // の時期 or 前後.
    ("クリスマスの頃", days_of_year(12, 24, 3)),
    ("クリスマスの時期", days_of_year(12, 24, 3)),
    ("クリスマス前後", days_of_year(12, 24, 3)),
    // The fiscal year, April to March: 今年度 in February is the one that began last April.
    ("今年度", Expr::FiscalYear { years_ago: 0 }),
    ("本年度", Expr::FiscalYear { years_ago: 0 }),
    ("昨年度", Expr::FiscalYear { years_ago: 1 }),
    ("前年度", Expr::FiscalYear { years_ago: 1 }),
    ("年度末", latest_month(3)),
    ("昨年度末", latest_month(3)),
    ("前年度末", latest_month(3)),
    // The end of this fiscal year is to come until its March: no period.
    ("今年度末", Expr::NoTime),
    ("一昨年度", Expr::FiscalYear { years_ago: 2 }),
    ("昨年の正月", days_of_year_ago(1, 1, 1, 3)),
    ("年度初め", latest_month(4)),
    ("年度始め", latest_month(4)),
    // The lunar New Year moves: no fixed days.
    ("旧正月", Expr::NoTime),
    // Names that hold a time word and name no time: the year-end tax adjustment, a magazine's
    // issue of last or this month.
    ("年末調整", Expr::NoTime),
    // Still to come: what comes after them names no past time either ("来週の月曜日").
    ("明日", Expr::Future),
    ("あした", Expr::Future),
    ("明後日", Expr::Future),
    ("あさって", Expr::Future),
    ("来週", Expr::Future),
    ("再来週", Expr::Future),
    ("来月", Expr::Future),
    ("再来月", Expr::Future),
    ("来年", Expr::Future),
    ("再来年", Expr::Future),
    ("次の", Expr::Future),
    ("今度の", Expr::Future),
    // This weekend: no time until it begins.
    (
        "今週末",
        Expr::PartOfWeek {
            weeks_ago: 0,
            from_day: 5,
            to_day: 7,
        },
    ),
    // A day or a part of last week, and the week before last's days.
    ("先週の今日", Expr::Day { days_ago: 7 }),
    (
        "先週の週末",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 5,
            to_day: 7,
        },
    ),
    (
        "今週の初め",
        Expr::PartOfWeek {
            weeks_ago: 0,
            from_day: 0,
            to_day: 3,
        },
    ),
    (
        "先週の初め",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 0,
            to_day: 3,
        },
    ),
    (
        "先週の終わり",
        Expr::PartOfWeek {
            weeks_ago: 1,
            from_day: 3,
            to_day: 7,
        },
    ),
    // "some days|weeks|months|years ago", as 数日前.
    ("何日か前", few_back(Unit::Day)),
    ("何週間か前", few_back(Unit::Week)),
    ("何か月か前", few_back(Unit::Month)),
    ("何ヶ月か前", few_back(Unit::Month)),
    ("何カ月か前", few_back(Unit::Month)),
    ("何年か前", few_back(Unit::Year)),
    // A year and a half, a month and a half ago, as in English.
    ("1年半前", Expr::Month { months_ago: 18 }),
    ("一年半前", Expr::Month { months_ago: 18 }),
    (
        "1か月半前",
        Expr::Back {
            unit: Unit::Day,
            nearest: 38,
            farthest: 52,
        },
    ),
    (
        "1ヶ月半前",
        Expr::Back {
            unit: Unit::Day,
            nearest: 38,
            farthest: 52,
        },
    ),
    // Names that hold a time word: a given name, a word, TV shows, a song.
    ("今日子", Expr::NoTime),
    ("五月蝿", Expr::NoTime),
    ("水曜どうでしょう", Expr::NoTime),
    ("月曜から夜ふかし", Expr::NoTime),
    ("日曜日よりの使者", Expr::NoTime),
    ("先月号", Expr::NoTime),
    ("今月号", Expr::NoTime),
    // Seasons: 今夏 and この夏 (this summer), 昨夏 (last year's summer, as 去年の夏).
    ("今春", this_season(0)),
    ("今夏", this_season(1)),
    ("今秋", this_season(2)),
    ("今冬", this_season(3)),
    ("この春", this_season(0)),
    ("この夏", this_season(1)),
    ("この秋", this_season(2)),
    ("この冬", this_season(3)),
    (
        "昨春",
        Expr::SeasonYearsAgo {
            season: 0,
            years_ago: 1,
        },
    ),
    (
        "昨夏",
        Expr::SeasonYearsAgo {
            season: 1,
            years_ago: 1,
        },
    ),
    (
        "昨秋",
        Expr::SeasonYearsAgo {
            season: 2,
            years_ago: 1,
        },
    ),
    (
        "昨冬",
        Expr::SeasonYearsAgo {
            season: 3,
            years_ago: 1,
        },
    ),
    // Parts of this or last year with their year word; the start and the end of a year.
    ("今年の上半期", half_of_year(0, 0)),
    ("今年の下半期", half_of_year(0, 1)),
    ("今年の前半", half_of_year(0, 0)),
    ("今年の後半", half_of_year(0, 1)),
    ("去年の前半", half_of_year(1, 0)),
    ("去年の後半", half_of_year(1, 1)),
    ("昨年の前半", half_of_year(1, 0)),
    ("昨年の後半", half_of_year(1, 1)),
    ("今年の初め", year_part(0, 0)),
    ("今年初め", year_part(0, 0)),
    ("今年の始め", year_part(0, 0)),
    (
        "今年の年末",
        Expr::PartOfYear {
            year: None,
            years_ago: 0,
            from_month: 11,
            months: 1,
        },
    ),
    ("年の初め", year_part(0, 0)),
    ("年のはじめ", year_part(0, 0)),
    ("年の半ば", year_part(0, 1)),
    ("年の暮れ", latest_month_of_year(11)),
    ("去年の第1四半期", quarter_ago_year(1, 1)),
    ("去年の第2四半期", quarter_ago_year(1, 2)),
    ("去年の第3四半期", quarter_ago_year(1, 3)),
    ("去年の第4四半期", quarter_ago_year(1, 4)),
    ("昨年の第1四半期", quarter_ago_year(1, 1)),
    ("昨年の第2四半期", quarter_ago_year(1, 2)),
    ("昨年の第3四半期", quarter_ago_year(1, 3)),
    ("昨年の第4四半期", quarter_ago_year(1, 4)),
    ("今年の第1四半期", quarter_ago_year(0, 1)),
    ("今年の第2四半期", quarter_ago_year(0, 2)),
    ("今年の第3四半期", quarter_ago_year(0, 3)),
    ("今年の第4四半期", quarter_ago_year(0, 4)),
    // The latest weekend; the last half year and the last few weeks or months.
    ("週末", Expr::Weekend),
    ("この半年", Expr::TrailingMonths { months: 6 }),
    ("ここ半年", Expr::TrailingMonths { months: 6 }),
    ("過去半年", Expr::TrailingMonths { months: 6 }),
    ("この数日", Expr::Trailing { days: 3 }),
    ("この数週間", Expr::Trailing { days: 21 }),
    ("この数か月", Expr::TrailingMonths { months: 3 }),
    ("この数ヶ月", Expr::TrailingMonths { months: 3 }),
    ("年末年始", days_of_year(12, 29, 6)),
    ("クリスマスイブ", days_of_year(12, 24, 1)),
    ("前四半期", Expr::QuarterAgo { quarters_ago: 1 }),
    ("今四半期", Expr::QuarterAgo { quarters_ago: 0 }),
    // 一月 alone is January; 一月前 and ひと月前 are a month ago.
    ("一月前", Expr::Month { months_ago: 1 }),
    ("ひと月前", Expr::Month { months_ago: 1 }),
    ("ひとつき前", Expr::Month { months_ago: 1 }),
    ("ここ数日", Expr::Trailing { days: 3 }),
    ("ここ数週間", Expr::Trailing { days: 21 }),
    ("ここ数か月", Expr::TrailingMonths { months: 3 }),
    ("ここ数ヶ月", Expr::TrailingMonths { months: 3 }),
    ("第1四半期", Expr::Quarter { quarter: 1 }),
    ("第2四半期", Expr::Quarter { quarter: 2 }),
    ("第3四半期", Expr::Quarter { quarter: 3 }),
    ("第4四半期", Expr::Quarter { quarter: 4 }),
    ("第１四半期", Expr::Quarter { quarter: 1 }),
    ("第２四半期", Expr::Quarter { quarter: 2 }),
    ("第３四半期", Expr::Quarter { quarter: 3 }),
    ("第４四半期", Expr::Quarter { quarter: 4 }),
    ("第一四半期", Expr::Quarter { quarter: 1 }),
    ("第二四半期", Expr::Quarter { quarter: 2 }),
    ("第三四半期", Expr::Quarter { quarter: 3 }),
    ("第四四半期", Expr::Quarter { quarter: 4 }),
];

/// A third of the year `years_ago` back: `part` 0 is January to April, 2 September to
/// December.
/// Month `month` (0 = January) of the latest year in which it has begun.
const fn latest_month_of_year(month: u32) -> Expr {
    Expr::LatestPartOfYear {
        from_month: month,
        months: 1,
    }
}

/// December of last year (年末 and 暮れ with 去年 or 昨年).
const fn last_years_december() -> Expr {
    Expr::PartOfYear {
        year: None,
        years_ago: 1,
        from_month: 11,
        months: 1,
    }
}

const fn year_part(years_ago: u32, part: u32) -> Expr {
    Expr::PartOfYear {
        year: None,
        years_ago,
        from_month: 4 * part,
        months: 4,
    }
}

/// A season "this" names: the latest begun, unless the next one is meant ([`Expr::ThisSeason`]).
const fn this_season(season: u32) -> Expr {
    Expr::ThisSeason { season }
}

/// A season, the latest that has begun, or with `ended` the latest one over.
const fn season(season: u32, ended: bool) -> Expr {
    Expr::Season { season, ended }
}

/// Quarter `quarter` (1–4) of the year `years_ago` back.
const fn quarter_ago_year(years_ago: u32, quarter: u32) -> Expr {
    Expr::PartOfYear {
        year: None,
        years_ago,
        from_month: 3 * (quarter - 1),
        months: 3,
    }
}

/// Days `from_day..to_day` of the month `months_ago` back.
/// This, last or the month before last with a part of it ([`PARTS`], の between or not):
/// "先月末" is the end of last month, not all of it; "今月の前半" this month's first half.
fn month_ago_part(text: &str) -> Option<(usize, Expr)> {
    let (rest, months_ago) = [("先々月", 2), ("今月", 0), ("先月", 1)]
        .iter()
        .find_map(|(word, ago)| text.strip_prefix(word).map(|rest| (rest, *ago)))?;
    // A week of the month ("先月の第2週"; 最終週, whose month 先月 leaves open, is read as a
    // 31-day January's: from the 25th), a day ("先月の15日"), or a part ([`PARTS`]).
    let (after, from_day, to_day) = week_part(rest, 1)
        .or_else(|| {
            let after_no = rest.strip_prefix('の').unwrap_or(rest);
            let (day, after) = day_number(after_no)?;
            Some((after, day, day + 1))
        })
        .or_else(|| part_of_month(rest))?;
    let expr = Expr::PartOfMonthAgo {
        months_ago,
        from_day,
        to_day,
    };
    Some((text.len() - after.len(), expr))
}

/// `days` days from `month`/`day` of the latest year that has reached it.
const fn days_of_year_ago(years_ago: u32, month: u32, day: u32, days: u32) -> Expr {
    Expr::DaysOfYearAgo {
        years_ago,
        month,
        day,
        days,
    }
}

/// The latest such calendar month that has begun.
const fn latest_month(month: u32) -> Expr {
    Expr::NamedMonth { month, year: None }
}

const fn days_of_year(month: u32, day: u32, days: u32) -> Expr {
    Expr::DaysOfYear { month, day, days }
}

/// A half of the reference's year: `half` 0 is January to June, 1 July to December.
const fn half_year(half: u32) -> Expr {
    half_of_year(0, half)
}

/// A half of the year `years_ago` back.
const fn half_of_year(years_ago: u32, half: u32) -> Expr {
    Expr::PartOfYear {
        year: None,
        years_ago,
        from_month: 6 * half,
        months: 6,
    }
}

const fn part(days_ago: u32, from_hour: u32, to_hour: u32) -> Expr {
    Expr::DayPart {
        days_ago,
        from_hour,
        to_hour,
    }
}

/// Words naming a year relative to the reference's, before "の" and a month or a season.
const RELATIVE_YEARS: &[(&str, u32)] = &[
    ("今年", 0),
    ("去年", 1),
    ("昨年", 1),
    ("一昨年", 2),
    ("おととし", 2),
];

/// Season characters (0 spring … 3 winter).
const SEASONS: &[(char, u32)] = &[('春', 0), ('夏', 1), ('秋', 2), ('冬', 3)];

/// Parts of a season, each a month: 初夏 is June, 晩秋 November, 夏の終わり August; alone the
/// latest such month begun, after a year word that year's season's ("去年の初夏", "2025年の冬の
/// 終わり": February 2026).
const SEASON_PARTS: &[(&str, u32)] = &[
    ("春先", 3),
    ("晩春", 5),
    ("初夏", 6),
    ("晩夏", 8),
    ("初秋", 9),
    ("晩秋", 11),
    ("初冬", 12),
    ("春の初め", 3),
    ("春の終わり", 5),
    ("夏の初め", 6),
    ("夏の終わり", 8),
    ("秋の初め", 9),
    ("秋の終わり", 11),
    ("冬の初め", 12),
    ("冬の終わり", 2),
];

/// A part of a season of [`SEASON_PARTS`] at the start of `text`: its length and month.
fn season_part(text: &str) -> Option<(usize, u32)> {
    SEASON_PARTS
        .iter()
        .filter(|(word, _)| text.starts_with(word))
        .map(|(word, month)| (word.len(), *month))
        .max_by_key(|(len, _)| *len)
}

/// The weekday characters before 曜(日); 0 = Monday.
const WEEKDAYS: &[(char, u32)] = &[
    ('月', 0),
    ('火', 1),
    ('水', 2),
    ('木', 3),
    ('金', 4),
    ('土', 5),
    ('日', 6),
];

/// A week before a weekday ("先週の月曜日"): how many weeks back.
const WEEK_PREFIXES: &[(&str, u32)] = &[
    ("今週の", 0),
    ("今週", 0),
    ("先週の", 1),
    ("先週", 1),
    ("先々週の", 2),
    ("先々週", 2),
];

/// The units after a number: "N日前" (with 前, ago), "過去N日" (after [`TRAILING`]). Longer
/// spellings first: 週間 before 週.
const UNITS: &[(&str, Unit)] = &[
    ("日", Unit::Day),
    ("週間", Unit::Week),
    ("週", Unit::Week),
    ("か月", Unit::Month),
    ("ヶ月", Unit::Month),
    ("カ月", Unit::Month),
    ("ヵ月", Unit::Month),
    ("ケ月", Unit::Month),
    ("箇月", Unit::Month),
    ("年", Unit::Year),
];

/// The unit at the start of `text` and the text after it.
fn unit(text: &str) -> Option<(&str, Unit)> {
    UNITS
        .iter()
        .find_map(|(suffix, unit)| text.strip_prefix(suffix).map(|after| (after, *unit)))
}

/// Words before "N units" that make it the time up to the reference: 過去1週間, ここ3日,
/// 直近1か月, この3か月.
const TRAILING: &[&str] = &["過去", "ここ", "直近", "この", "最近"];

/// "過去N日" and the like at the start of `text`: the N units up to the reference.
fn trailing(text: &str) -> Option<(usize, Expr)> {
    let word = TRAILING.iter().find(|w| text.starts_with(**w))?;
    let (n, rest) = number(&text[word.len()..])?;
    // 間 may follow ("3日間").
    let (after, unit) = unit(rest)?;
    let after = after.strip_prefix('間').unwrap_or(after);
    // After この the unit ends the word: "この2年生のクラス" is a class of second-year pupils.
    if *word == "この"
        && after
            .chars()
            .next()
            .is_some_and(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    {
        return None;
    }
    if n == 0 {
        return None;
    }
    Some((text.len() - after.len(), up_to_now(n, unit)?))
}

/// Counted weekends up to the reference: "過去2回の週末", "ここ3回の週末", "直近2回の週末".
fn counted_weekends(text: &str) -> Option<(usize, Expr)> {
    let word = ["過去", "ここ", "直近", "この"]
        .iter()
        .find(|w| text.starts_with(**w))?;
    let (count, rest) = number(&text[word.len()..])?;
    let rest = rest.strip_prefix('回')?;
    let rest = rest.strip_prefix('の').unwrap_or(rest);
    let after = rest.strip_prefix("週末")?;
    (1..=52)
        .contains(&count)
        .then(|| (text.len() - after.len(), Expr::Weekends { count }))
}

/// The `n` units up to the reference.
fn up_to_now(n: u32, unit: Unit) -> Option<Expr> {
    Some(match unit {
        Unit::Day => Expr::Trailing { days: n },
        Unit::Week => Expr::Trailing {
            days: n.checked_mul(7)?,
        },
        Unit::Month => Expr::TrailingMonths { months: n },
        Unit::Year => Expr::TrailingMonths {
            months: n.checked_mul(12)?,
        },
    })
}

/// "N日以内", "2週間以内", "1か月以内" at the start of `text`: the N units up to the reference, as
/// [`trailing`]'s. Not before に, a deadline ("3日以内に返信する").
fn within(text: &str) -> Option<(usize, Expr)> {
    let (n, rest) = number(text)?;
    let (after, unit) = unit(rest)?;
    let after = after.strip_prefix('間').unwrap_or(after);
    let after = after.strip_prefix("以内")?;
    if after.starts_with('に') || n == 0 {
        return None;
    }
    Some((text.len() - after.len(), up_to_now(n, unit)?))
}

/// Holidays and school breaks with a fixed date, the latest begun: read only before a
/// particle, a mark or the end ("クリスマスに", "GWは"), not inside a longer word
/// ("クリスマスプレゼント", "七夕祭り"). 夏休み, 冬休み and 春休み are the usual school breaks.
const HOLIDAYS: &[(&str, Expr)] = &[
    ("クリスマスイブ", days_of_year(12, 24, 1)),
    ("クリスマスイヴ", days_of_year(12, 24, 1)),
    ("クリスマス", days_of_year(12, 24, 3)),
    ("大晦日", days_of_year(12, 31, 1)),
    ("大みそか", days_of_year(12, 31, 1)),
    ("元旦", days_of_year(1, 1, 1)),
    ("元日", days_of_year(1, 1, 1)),
    ("バレンタインデー", days_of_year(2, 14, 1)),
    ("バレンタイン", days_of_year(2, 14, 1)),
    ("ホワイトデー", days_of_year(3, 14, 1)),
    ("ひな祭り", days_of_year(3, 3, 1)),
    ("ひなまつり", days_of_year(3, 3, 1)),
    ("こどもの日", days_of_year(5, 5, 1)),
    ("七夕", days_of_year(7, 7, 1)),
    ("ハロウィン", days_of_year(10, 31, 1)),
    ("ハロウィーン", days_of_year(10, 31, 1)),
    ("GW", days_of_year(4, 29, 7)),
    // お盆 before a particle ("お盆に", "お盆の出費"): August 13 to 16. Alone it may be a tray,
    // which a question about notes hardly puts that way.
    ("お盆", days_of_year(8, 13, 4)),
    // The rainy season, about June 1 to July 20.
    ("梅雨", days_of_year(6, 1, 50)),
    // Coming of Age Day, the second Monday of January.
    (
        "成人の日",
        Expr::NthWeekdayOfMonth {
            nth: 2,
            weekday: 0,
            month: 1,
            year: None,
        },
    ),
    ("夏休み", days_of_year(7, 20, 43)),
    ("冬休み", days_of_year(12, 25, 14)),
    ("春休み", days_of_year(3, 20, 19)),
];

/// What may follow a holiday's name in [`HOLIDAYS`].
const AFTER_HOLIDAY: &[&str] = &[
    "に", "は", "の", "も", "ごろ", "頃", "、", "。", "？", "?", "！", "!", "で", "中", "前後",
    "前", "直前", "まで", "以前", "より",
];

/// A holiday of [`HOLIDAYS`] at the start of `text`.
fn holiday(text: &str) -> Option<(usize, Expr)> {
    let (name, expr) = HOLIDAYS.iter().find(|(name, _)| text.starts_with(name))?;
    let after = &text[name.len()..];
    // "クリスマスにぴったりのレシピ", "ハロウィンに向けて": for the holiday, not on it.
    let for_it = [
        "にぴったり",
        "に向け",
        "に合う",
        "におすすめ",
        "に最適",
        "用",
    ]
    .iter()
    .any(|p| after.starts_with(p));
    (!for_it && (after.is_empty() || AFTER_HOLIDAY.iter().any(|p| after.starts_with(p))))
        .then_some((name.len(), *expr))
}

/// Every Japanese expression of `query`, left to right; at each position the longest wins.
pub(super) fn find(query: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < query.len() {
        let rest = &query[at..];
        // Every expression begins with a CJK character or a digit, or is GW (after no other
        // letter: "XGW" is no holiday).
        let gw = rest.starts_with("GW")
            && !query[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric());
        if !gw
            && rest
                .as_bytes()
                .first()
                .is_some_and(|b| b.is_ascii() && !b.is_ascii_digit())
        {
            at += 1;
            continue;
        }
        let before = query[..at].chars().next_back();
        let after_number = before.is_some_and(is_numeral);
        // A season kanji after another one is part of a word (青春, 初夏, 立春).
        let after_kanji = before.is_some_and(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        // A season kanji right after から ends a range ("春から夏").
        let after_kara = query[..at].ends_with("から");
        // At the start of the query or of a clause ("夏は…", "、秋の…").
        let starts_clause =
            before.is_none_or(|c| c.is_whitespace() || "、。，,？！?!「」（）()".contains(c));
        let longest = [
            season_part(rest).map(|(len, month)| (len, latest_month(month))),
            month_ago_part(rest),
            // 数 after a numeral is part of a number ("十数日前", ten-odd days ago).
            word(rest).filter(|_| !(after_number && rest.starts_with('数'))),
            weekday(rest),
            trailing(rest),
            counted_weekends(rest),
            // Not tried inside a number: a run of digits is read once, from its first digit.
            (!after_number).then(|| within(rest)).flatten(),
            holiday(rest),
            (!after_number).then(|| numeric(rest)).flatten(),
            (!after_number).then(|| of_year(rest)).flatten(),
            bare_season(rest, after_kara, starts_clause).filter(|_| !after_kanji || after_kara),
            reiwa(rest),
            (!after_number).then(|| day_of_month(rest)).flatten(),
            (!after_number).then(|| iso_week(rest)).flatten(),
        ]
        .into_iter()
        .flatten()
        // "…前後" is "about …", a length of time, not a time ago ("半年前後", "3日前後").
        .filter(|(len, _)| !(rest[..*len].ends_with('前') && rest[*len..].starts_with('後')))
        .max_by_key(|(len, _)| *len);
        match longest {
            Some((len, expr)) => {
                found.push(Found {
                    range: at..at + len,
                    expr,
                    ends_range: false,
                });
                at += len;
            }
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// An ISO week number at the start of `text`: "第45週" alone (weeks 6 to 53: the first five
/// are a month's, "10月の第2週"), or after a year ("2026年第45週", "2025年の第3週").
fn iso_week(text: &str) -> Option<(usize, Expr)> {
    let (year, rest) = match number(text) {
        Some((n, rest)) if rest.starts_with('年') => {
            let year = i32::try_from(n)
                .ok()
                .filter(|y| (1970..=2100).contains(y))?;
            let rest = &rest['年'.len_utf8()..];
            (Some(year), rest.strip_prefix('の').unwrap_or(rest))
        }
        _ => (None, text),
    };
    let (week, after) = number(rest.strip_prefix('第')?)?;
    let after = after.strip_prefix('週')?;
    // 週間 counts weeks, 週末 is a weekend.
    let first = if year.is_some() { 1 } else { 6 };
    if after.starts_with(['間', '末']) || !(first..=53).contains(&week) {
        return None;
    }
    let expr = Expr::IsoWeek {
        week,
        year,
        years_ago: None,
    };
    Some((text.len() - after.len(), expr))
}

/// A word of [`WORDS`] at the start of `text`: its length in bytes and meaning.
fn word(text: &str) -> Option<(usize, Expr)> {
    WORDS
        .iter()
        .filter(|(word, _)| text.starts_with(word))
        .map(|(word, expr)| (word.len(), *expr))
        .max_by_key(|(len, _)| *len)
}

/// A season or a month of a year at the start of `text`: "去年の夏", "今年の春", "2025年の秋"
/// (the season of that year), "去年の3月" or "去年3月" (that month; a day after it is taken
/// with it, and the period stays the month), "2025年の3月" (without の, [`numeric`]'s).
fn of_year(text: &str) -> Option<(usize, Expr)> {
    enum Which {
        Ago(u32),
        In(i32),
    }
    let (which, rest) = match RELATIVE_YEARS
        .iter()
        .filter(|(word, _)| text.starts_with(word))
        .max_by_key(|(word, _)| word.len())
    {
        Some((word, years_ago)) => (Which::Ago(*years_ago), &text[word.len()..]),
        None => {
            let (n, rest) = number(text)?;
            let year = i32::try_from(n)
                .ok()
                .filter(|y| (1970..=2100).contains(y))?;
            (Which::In(year), rest.strip_prefix('年')?)
        }
    };
    let rest = rest.strip_prefix('の').unwrap_or(rest);
    let consumed = |after: &str| text.len() - after.len();
    if let Some((len, month)) = season_part(rest) {
        // Winter's months after December are the next year's.
        let next_year = u32::from(month < 3);
        let expr = match which {
            Which::Ago(years_ago) => match years_ago.checked_sub(next_year) {
                Some(years_ago) => Expr::MonthYearsAgo { month, years_ago },
                // This winter's end is to come.
                None => Expr::Future,
            },
            Which::In(year) => named_month(month, Some(year + next_year as i32)),
        };
        return Some((consumed(&rest[len..]), expr));
    }
    let mut chars = rest.chars();
    // A season kanji that begins a longer word (秋葉原, 秋田, 夏目, 春日) is no season; 夏休み,
    // 夏頃, 夏場 and 夏期 are.
    let begins_word = |after: &str| {
        after
            .chars()
            .next()
            .is_some_and(|c| ('\u{4e00}'..='\u{9fff}').contains(&c) && !"休頃場期以".contains(c))
    };
    if let Some((_, season)) = chars
        .next()
        .and_then(|c| SEASONS.iter().find(|(s, _)| *s == c))
        .filter(|_| !begins_word(chars.as_str()))
    {
        let expr = match which {
            Which::Ago(years_ago) => Expr::SeasonYearsAgo {
                season: *season,
                years_ago,
            },
            Which::In(year) => Expr::SeasonOfYear {
                season: *season,
                year,
            },
        };
        return Some((consumed(chars.as_str()), expr));
    }
    let (after, month, day) = month_day(rest)?;
    let (after, expr) = match (which, day) {
        (Which::Ago(years_ago), _) => (after, Expr::MonthYearsAgo { month, years_ago }),
        (Which::In(year), Some(day)) => (after, date(month, day, Some(year))),
        (Which::In(year), None) => with_part(after, month, Some(year)),
    };
    Some((consumed(after), expr))
}

/// A season kanji alone before に, ごろ, 頃 or の間 ("春に", "夏ごろ", "冬の間"): the latest such
/// season that has begun, as "in the spring".
fn bare_season(text: &str, after_kara: bool, starts_clause: bool) -> Option<(usize, Expr)> {
    let mut chars = text.chars();
    let c = chars.next()?;
    let (_, which) = SEASONS.iter().find(|(s, _)| *s == c)?;
    let after = chars.as_str();
    // Opening a clause, a season before は, の or a comma is the time it talks about ("夏は何
    // をしてた？", "夏の会議のメモ", "秋、…"); inside one it is a word's part ("真夏の").
    if starts_clause && ["は", "の", "、", ","].iter().any(|w| after.starts_with(w)) {
        return Some((c.len_utf8(), season(*which, false)));
    }
    // After から, not where the kanji begins a word (から夏休み is its own word's).
    let ends_range = after_kara
        && after
            .chars()
            .next()
            .is_none_or(|c| !('\u{4e00}'..='\u{9fff}').contains(&c));
    (ends_range
        || [
            "に", "ごろ", "頃", "の間", "から", "以降", "以来", "まで", "以前",
        ]
        .iter()
        .any(|w| after.starts_with(w)))
    .then_some((c.len_utf8(), season(*which, false)))
}

/// A year of the Reiwa era at the start of `text` ("令和7年" is 2025; 令和元年 is 2019), read
/// as the Western year is, with the month and day after it.
fn reiwa(text: &str) -> Option<(usize, Expr)> {
    let rest = text.strip_prefix("令和")?;
    let (n, after) = match rest.strip_prefix("元") {
        Some(after) => (1, after),
        None => number(rest)?,
    };
    if !(1..=80).contains(&n) || !after.starts_with('年') {
        return None;
    }
    let western = format!("{}{after}", 2018 + n);
    let (len, expr) = numeric(&western)?;
    let digits = western.len() - after.len();
    Some((text.len() - after.len() + len - digits, expr))
}

/// A day of the month in digits alone before a particle ("25日に", "15日の出費"): the latest
/// such day. Not a count of days: "3日に一度" and "1日に3回" (so often in so many days),
/// "1日の予算" (a day's budget), 一日 in kanji (one day, more often than the 1st), "3日間".
fn day_of_month(text: &str) -> Option<(usize, Expr)> {
    if !text.starts_with(|c: char| digit(c).is_some()) {
        return None;
    }
    let (n, rest) = number(text)?;
    let after = rest.strip_prefix('日')?;
    let particle = ["に", "の", "は", "、"]
        .iter()
        .find(|p| after.starts_with(**p))?;
    let then = &after[particle.len()..];
    let counted = then.starts_with(is_numeral)
        || ["何回", "何度", "おき", "一遍"]
            .iter()
            .any(|w| then.starts_with(w))
        || (n == 1 && *particle == "の");
    ((1..=31).contains(&n) && !counted)
        .then_some((text.len() - after.len(), Expr::DayOfMonth { day: n }))
}

/// "月曜日", "月曜", "先週の月曜日" at the start of `text`.
fn weekday(text: &str) -> Option<(usize, Expr)> {
    // 毎週月曜日, "every Monday", names no Monday.
    if let Some(rest) = text
        .strip_prefix("毎週の")
        .or_else(|| text.strip_prefix("毎週"))
    {
        let (len, _) = weekday(rest)?;
        return Some((text.len() - rest.len() + len, Expr::NoTime));
    }
    let (prefix, weeks_ago) = WEEK_PREFIXES
        .iter()
        .find(|(prefix, _)| text.starts_with(prefix))
        .map_or(("", None), |(prefix, weeks)| (*prefix, Some(*weeks)));
    let rest = &text[prefix.len()..];
    let mut chars = rest.chars();
    let day = chars.next()?;
    let (_, weekday) = WEEKDAYS.iter().find(|(c, _)| *c == day)?;
    let after = chars.as_str().strip_prefix('曜')?;
    // "曜" without 日 before a kanji or katakana is part of a name: 日曜大工, 金曜ロードショー.
    if after.chars().next().is_some_and(|c| {
        c != '日'
            && (('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{30a0}'..='\u{30ff}').contains(&c))
    }) {
        return None;
    }
    let len = text.len() - after.len()
        + if after.starts_with('日') {
            '日'.len_utf8()
        } else {
            0
        };
    let expr = match weeks_ago {
        Some(weeks_ago) => Expr::WeekdayOfWeek {
            weeks_ago,
            weekday: *weekday,
        },
        None => Expr::Weekday(*weekday),
    };
    Some((len, expr))
}

/// The text after "前" ("ago") at the start of `text`, or after くらい, ぐらい or ほど ("about")
/// and 前: "3か月くらい前", "2週間ほど前".
fn ago(text: &str) -> Option<&str> {
    let text = ["くらい", "ぐらい", "ほど"]
        .iter()
        .find_map(|about| text.strip_prefix(about))
        .unwrap_or(text);
    // Not 前半 ("the first half": "2026年前半").
    text.strip_prefix('前')
        .filter(|after| !after.starts_with('半'))
}

/// "N日前" and the other "ago" forms, "YYYY年", "YYYY年N月", "YYYY年N月N日", "N月", "N月N日".
fn numeric(text: &str) -> Option<(usize, Expr)> {
    let (n, rest) = number(text)?;
    let consumed = |rest: &str| text.len() - rest.len();
    // "3か月前", and "3か月くらい前", "2週間ほど前" (about…).
    // Two counts: "2、3日前", "2～3か月前", "2週間か3週間前": the units from the first to the
    // second back, as "two or three weeks ago".
    let pair = |rest: &str| -> Option<(usize, Expr)> {
        let (between_unit, rest) = match unit(rest) {
            Some((after, unit)) => (Some(unit), after),
            None => (None, rest),
        };
        let rest = ["、", "～", "〜", "~", "-", "か"]
            .iter()
            .find_map(|mark| rest.strip_prefix(mark))?;
        let (m, rest) = number(rest)?;
        let (after, unit) = unit(rest)?;
        let after = ago(after)?;
        if between_unit.is_some_and(|u| u != unit) || !(n + 1..=n + 3).contains(&m) || n == 0 {
            return None;
        }
        Some((
            text.len() - after.len(),
            Expr::Back {
                unit,
                nearest: n,
                farthest: m,
            },
        ))
    };
    if let Some(found) = pair(rest) {
        return Some(found);
    }
    if let Some((after, unit)) = unit(rest).and_then(|(after, unit)| Some((ago(after)?, unit))) {
        if n == 0 {
            return None;
        }
        let expr = match unit {
            Unit::Day => Expr::Day { days_ago: n },
            Unit::Week => Expr::Week { weeks_ago: n },
            Unit::Month => Expr::Month { months_ago: n },
            Unit::Year => Expr::Year { years_ago: n },
        };
        return Some((consumed(after), expr));
    }
    // "11/3のメモ", "2025/9に": a day or a month written with a slash, before a Japanese
    // particle or mark ("1/2カップ" is half a cup; "9/11" and "24/7" are idioms; in English
    // text "on 11/3" is the English rules').
    if let Some(after_slash) = rest.strip_prefix('/')
        && let Some((m, after)) = number(after_slash)
        && !matches!((n, m), (9, 11) | (24, 7))
        && !after.starts_with(|c: char| digit(c).is_some())
        && [
            "の", "に", "は", "から", "まで", "〜", "～", "（", "頃", "ごろ", "、", "。", "？",
        ]
        .iter()
        .any(|p| after.starts_with(p))
    {
        if (1..=12).contains(&n) && (1..=max_day(n)).contains(&m) {
            return Some((consumed(after), date(n, m, None)));
        }
        if let Ok(year) = i32::try_from(n)
            && (1970..=2100).contains(&year)
            && (1..=12).contains(&m)
        {
            return Some((consumed(after), named_month(m, Some(year))));
        }
    }
    // "2025年度": the fiscal year from that April.
    if let Some(after) = rest.strip_prefix("年度")
        && let Ok(year) = i32::try_from(n)
        && (1970..=2100).contains(&year)
    {
        let fiscal = Expr::PartOfYear {
            year: Some(year),
            years_ago: 0,
            from_month: 3,
            months: 12,
        };
        return Some((consumed(after), fiscal));
    }
    if let Some(after_year) = rest.strip_prefix('年') {
        let year = i32::try_from(n)
            .ok()
            .filter(|y| (1970..=2100).contains(y))?;
        return Some(match month_day(after_year) {
            Some((after, month, Some(day))) => (consumed(after), date(month, day, Some(year))),
            Some((after, month, None)) => {
                let (after, expr) = with_part(after, month, Some(year));
                (consumed(after), expr)
            }
            // "2025年末", "2025年前半", "2025年の前半" (not "2025年の末"): a part of that year,
            // as 年末 and 上半期 are of this one.
            None => match YEAR_PARTS.iter().find_map(|(w, from, months)| {
                let rest = after_year.strip_prefix(w).or_else(|| {
                    after_year
                        .strip_prefix('の')
                        .filter(|_| *w != "末")
                        .and_then(|r| r.strip_prefix(w))
                })?;
                Some((rest, from, months))
            }) {
                Some((rest, from_month, months)) => (
                    consumed(rest),
                    Expr::PartOfYear {
                        year: Some(year),
                        years_ago: 0,
                        from_month: *from_month,
                        months: *months,
                    },
                ),
                None => (consumed(after_year), Expr::NamedYear(year)),
            },
        });
    }
    // "7〜9月": the first month of a range written with one 月 ([`super::ranges`] joins it).
    if (1..=12).contains(&n)
        && let Some(dash) = ["〜", "～", "~", "-", "–"]
            .iter()
            .find(|d| rest.starts_with(**d))
        && month_day(&rest[dash.len()..]).is_some_and(|(_, _, day)| day.is_none())
    {
        return Some((consumed(rest), named_month(n, None)));
    }
    let (after, month, day) = month_day(text)?;
    // A month in a name: "3月生まれ" (born in March), "12月号" (the December issue), "5月病".
    if ["生まれ", "号", "病", "人形"]
        .iter()
        .any(|w| after.starts_with(w))
    {
        return Some((consumed(after), Expr::NoTime));
    }
    let (after, expr) = match day {
        Some(day) => (after, date(month, day, None)),
        None => with_part(after, month, None),
    };
    Some((consumed(after), expr))
}

/// Parts of a year written right after "N年": the first month and how many months.
const YEAR_PARTS: &[(&str, u32, u32)] = &[
    ("末", 11, 1),
    ("初め", 0, 1),
    ("始め", 0, 1),
    ("初頭", 0, 1),
    ("前半", 0, 6),
    ("後半", 6, 6),
];

/// Parts of a month after "N月", 今月 or 先月 (with or without の): the days from and to
/// (exclusive; past the end is the end).
const PARTS: &[(&str, u32, u32)] = &[
    ("上旬", 1, 11),
    ("初旬", 1, 11),
    ("初め", 1, 11),
    ("はじめ", 1, 11),
    ("頭", 1, 11),
    ("中旬", 11, 21),
    ("半ば", 11, 21),
    ("中頃", 11, 21),
    ("中ごろ", 11, 21),
    ("下旬", 21, 32),
    ("末", 21, 32),
    ("終わり", 21, 32),
    ("前半", 1, 16),
    ("後半", 16, 32),
];

/// The part of a month ([`PARTS`]) at the start of `text`, の before it or not: the text
/// after it and its days.
fn part_of_month(text: &str) -> Option<(&str, u32, u32)> {
    let text = text.strip_prefix('の').unwrap_or(text);
    // 初め and はじめ begin verbs too (初めて, はじめた): after them only the end, a particle or
    // something other than kana.
    let ends_word = |word: &str, rest: &str| {
        // 頭 begins words too: 頭痛 (a headache), 頭金.
        if word == "頭" {
            return !rest
                .chars()
                .next()
                .is_some_and(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        }
        !word.ends_with('め')
            || rest
                .chars()
                .next()
                .is_none_or(|c| !('\u{3041}'..='\u{30ff}').contains(&c))
            || ["の", "に", "は", "から", "まで", "ごろ", "も", "で"]
                .iter()
                .any(|particle| rest.starts_with(particle))
    };
    PARTS.iter().find_map(|(word, from, to)| {
        text.strip_prefix(word)
            .filter(|rest| ends_word(word, rest))
            .map(|rest| (rest, *from, *to))
    })
}

/// A week of the month after "N月" or "N月の": 第1週 to 第5週 (days 1–7 … 29 to the end, as
/// "the first week of March") and 最終週 (the last seven days, as "the last week of March"):
/// the days from and to, and the text after.
fn week_part(after: &str, month: u32) -> Option<(&str, u32, u32)> {
    let after = after.strip_prefix('の').unwrap_or(after);
    if let Some(rest) = after.strip_prefix("最終週") {
        return Some((rest, max_day(month) - 6, 32));
    }
    let (n, rest) = number(after.strip_prefix('第')?)?;
    let rest = rest.strip_prefix('週')?;
    // 週間 counts weeks ("第2週間" is no Japanese); 週末 is a weekend.
    if rest.starts_with(['間', '末']) || !(1..=5).contains(&n) {
        return None;
    }
    Some((rest, 7 * (n - 1) + 1, (7 * n + 1).min(32)))
}

/// Month `month` of `year`, or the part of it that `after` names first ("3月下旬", "10月の第2
/// 週"), with the text after what was taken.
fn with_part(after: &str, month: u32, year: Option<i32>) -> (&str, Expr) {
    match week_part(after, month).or_else(|| part_of_month(after)) {
        Some((rest, from_day, to_day)) => (
            rest,
            Expr::PartOfMonth {
                month,
                year,
                from_day,
                to_day,
            },
        ),
        None => (after, named_month(month, year)),
    }
}

fn date(month: u32, day: u32, year: Option<i32>) -> Expr {
    Expr::Date { month, day, year }
}

fn named_month(month: u32, year: Option<i32>) -> Expr {
    Expr::NamedMonth { month, year }
}

/// "N月" (not "N月曜"), optionally followed by "N日" for a day the month has: the text after
/// it, the month and the day.
fn month_day(text: &str) -> Option<(&str, u32, Option<u32>)> {
    let (month, rest) = number(text)?;
    let rest = rest.strip_prefix('月')?;
    if !(1..=12).contains(&month) || rest.starts_with('曜') {
        return None;
    }
    let day = number(rest).and_then(|(day, after)| {
        let after = after.strip_prefix('日')?;
        (1..=max_day(month)).contains(&day).then_some((day, after))
    });
    Some(match day {
        Some((day, after)) => (after, month, Some(day)),
        None => (rest, month, None),
    })
}

/// A day of the month written "N日" at the start of `text` (1 to 31, not "N日前" or "N日間"),
/// and the text after it.
pub(super) fn day_number(text: &str) -> Option<(u32, &str)> {
    let (day, rest) = number(text)?;
    let rest = rest.strip_prefix('日')?;
    // A day ends there, or before まで, a particle or punctuation: not "20日以内" (within 20
    // days), "20日後" or "5日ほど", which count days.
    let ends = rest.is_empty()
        || [
            "まで", "の", "に", "は", "で", "も", "を", "が", "、", "。", "）", ")", "？", "?",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
        || rest.starts_with(char::is_whitespace);
    ((1..=31).contains(&day) && ends).then_some((day, rest))
}

/// A number at the start of `text` and the text after it: ASCII or full-width digits (at most
/// nine), or a kanji numeral from 一 to 九十九.
fn number(text: &str) -> Option<(u32, &str)> {
    let digits_end = text
        .char_indices()
        .find(|(_, c)| digit(*c).is_none())
        .map_or(text.len(), |(at, _)| at);
    if digits_end > 0 {
        let digits = &text[..digits_end];
        if digits.chars().count() > 9 {
            return None;
        }
        let value = digits.chars().filter_map(digit).fold(0, |n, d| n * 10 + d);
        return Some((value, &text[digits_end..]));
    }
    let mut chars = text.chars();
    let mut value = match chars.next()? {
        '十' => 10,
        c => kanji_digit(c)?,
    };
    let mut rest = chars.as_str();
    if value < 10 {
        if let Some(after) = rest.strip_prefix('十') {
            value *= 10;
            rest = after;
        } else {
            return Some((value, rest));
        }
    }
    let mut chars = rest.chars();
    if let Some(units) = chars.next().and_then(kanji_digit) {
        value += units;
        rest = chars.as_str();
    }
    Some((value, rest))
}

fn digit(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

fn kanji_digit(c: char) -> Option<u32> {
    "一二三四五六七八九"
        .chars()
        .position(|k| k == c)
        .map(|i| i as u32 + 1)
}

/// A character that can be part of a number: an expression never starts inside one.
fn is_numeral(c: char) -> bool {
    digit(c).is_some() || kanji_digit(c).is_some() || "十百千万〇零".contains(c)
}

//! Builders of the rule tables ([`super::phrase::Make::With`]), shared by the languages: each
//! turns what a rule captured into an expression, or rejects the match.

use super::calendar::{Expr, Unit, max_day};
use super::phrase::Caps;
use super::phrase::Make::{self, Fixed};

/// The whole units 2 to 5 back: what a vague count ("a few", "several") names.
pub(super) const fn few_back(unit: Unit) -> Expr {
    Expr::Back {
        unit,
        nearest: 2,
        farthest: 5,
    }
}

/// The day `count` days back, or the days 2 to 5 back for a vague count.
pub(super) fn days_ago(caps: &Caps) -> Option<Expr> {
    if caps.few {
        return Some(few_back(Unit::Day));
    }
    Some(Expr::Day {
        days_ago: caps.count?,
    })
}

/// The ISO week `count` weeks back, or the weeks 2 to 5 back for a vague count.
pub(super) fn weeks_ago(caps: &Caps) -> Option<Expr> {
    if caps.few {
        return Some(few_back(Unit::Week));
    }
    Some(Expr::Week {
        weeks_ago: caps.count?,
    })
}

/// The calendar month `count` months back, or the months 2 to 5 back for a vague count.
pub(super) fn months_ago(caps: &Caps) -> Option<Expr> {
    if caps.few {
        return Some(few_back(Unit::Month));
    }
    Some(Expr::Month {
        months_ago: caps.count?,
    })
}

/// The calendar year `count` years back, or the years 2 to 5 back for a vague count.
pub(super) fn years_ago(caps: &Caps) -> Option<Expr> {
    if caps.few {
        return Some(few_back(Unit::Year));
    }
    Some(Expr::Year {
        years_ago: caps.count?,
    })
}

/// The whole units from the first count back to the second ("two to three weeks ago").
fn back_between(caps: &Caps, unit: Unit) -> Option<Expr> {
    Some(Expr::Back {
        unit,
        nearest: caps.first?,
        farthest: caps.count?,
    })
}

/// The days from the first count back to the second ("3 to 5 days ago").
pub(super) fn days_back_between(caps: &Caps) -> Option<Expr> {
    back_between(caps, Unit::Day)
}

/// The ISO weeks from the first count back to the second ("2-3 weeks ago").
pub(super) fn weeks_back_between(caps: &Caps) -> Option<Expr> {
    back_between(caps, Unit::Week)
}

/// The calendar months from the first count back to the second ("two or three months ago").
pub(super) fn months_back_between(caps: &Caps) -> Option<Expr> {
    back_between(caps, Unit::Month)
}

/// The calendar years from the first count back to the second ("between 2 and 4 years ago").
pub(super) fn years_back_between(caps: &Caps) -> Option<Expr> {
    back_between(caps, Unit::Year)
}

/// The captured season `count` seasons of its kind back: the latest one over for one, a year
/// before it for two ("two summers ago").
pub(super) fn seasons_ago(caps: &Caps) -> Option<Expr> {
    let season = caps.season?;
    match caps.count? {
        1 => Some(Expr::Season {
            season,
            ended: true,
        }),
        count => Some(Expr::SeasonBack {
            season,
            years: count - 1,
        }),
    }
}

/// The captured month a year before the latest one over ("the October before last").
pub(super) fn month_before_last(caps: &Caps) -> Option<Expr> {
    Some(Expr::MonthBeforeLast { month: caps.month? })
}

/// The captured day of the month on the captured weekday ("on Friday the 20th").
pub(super) fn day_of_month_on_weekday(caps: &Caps) -> Option<Expr> {
    Some(Expr::DayOfMonthOnWeekday {
        day: caps.day?,
        weekday: caps.weekday?,
    })
}

/// The seven days from the captured date, of the latest year that has reached it ("the week
/// starting October 12").
pub(super) fn week_from_date(caps: &Caps) -> Option<Expr> {
    let (month, day) = (caps.month?, caps.day?);
    (day <= max_day(month)).then_some(Expr::DaysOfYear {
        month,
        day,
        days: 7,
    })
}

/// The captured count's week of this month ("the first week of this month").
pub(super) fn week_of_month_ago_0(caps: &Caps) -> Option<Expr> {
    week_of_month_ago(caps, 0)
}

/// The captured count's week of last month ("the second week of last month").
pub(super) fn week_of_month_ago_1(caps: &Caps) -> Option<Expr> {
    week_of_month_ago(caps, 1)
}

fn week_of_month_ago(caps: &Caps, months_ago: u32) -> Option<Expr> {
    let week = caps.count.filter(|n| (1..=4).contains(n))?;
    Some(Expr::PartOfMonthAgo {
        months_ago,
        from_day: 7 * week - 6,
        to_day: 7 * week + 1,
    })
}

/// The weekend the captured count of weekends back ("two weekends ago": the weekend before
/// last).
pub(super) fn weekends_ago(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekendBack {
        weeks_back: caps.count.filter(|n| (1..=52).contains(n))? - 1,
    })
}

/// The captured month of the Hebrew calendar ("באלול", "בחודש תשרי").
pub(super) fn hebrew_month(caps: &Caps) -> Option<Expr> {
    Some(Expr::HebrewMonth {
        month: caps.month.or(caps.count)?,
    })
}

/// The captured count of latest weekends ("the last two weekends", "the past 3 weekends").
pub(super) fn past_weekends(caps: &Caps) -> Option<Expr> {
    Some(Expr::Weekends {
        count: caps.count.filter(|n| (1..=52).contains(n))?,
    })
}

/// The reference's day `count` years back ("a year ago today").
pub(super) fn years_ago_today(caps: &Caps) -> Option<Expr> {
    Some(Expr::AroundYearsAgo {
        years_ago: caps.count.filter(|n| *n <= 100)?,
        days: 0,
    })
}

/// The day `count` months back ("two months ago today").
pub(super) fn months_ago_today(caps: &Caps) -> Option<Expr> {
    Some(Expr::AroundMonthsAgo {
        months_ago: caps.count.filter(|n| *n <= 1200)?,
        days: 0,
    })
}

/// The calendar month `count` and a half years back ("a year and a half ago": 18 months).
pub(super) fn years_and_a_half_ago(caps: &Caps) -> Option<Expr> {
    Some(Expr::Month {
        months_ago: caps.count.filter(|n| *n <= 100)? * 12 + 6,
    })
}

/// The fortnight around `count` and a half months back ("a month and a half ago": the days
/// 39 to 53 back, around the 46th).
pub(super) fn months_and_a_half_ago(caps: &Caps) -> Option<Expr> {
    let count = caps.count.filter(|n| *n <= 100)?;
    // An average month of 30.44 days, in hundredths.
    let middle = (count * 100 + 50) * 3044 / 10_000;
    Some(Expr::Back {
        unit: Unit::Day,
        nearest: middle - 7,
        farthest: middle + 7,
    })
}

/// The days around `count` and a half weeks back ("a week and a half ago": the days 8 to 12
/// back).
pub(super) fn weeks_and_a_half_ago(caps: &Caps) -> Option<Expr> {
    let count = caps.count.filter(|n| *n <= 520)?;
    Some(Expr::Back {
        unit: Unit::Day,
        nearest: 7 * count + 1,
        farthest: 7 * count + 5,
    })
}

/// The captured `nth` weekday of this month ("the first Monday of this month").
pub(super) fn nth_weekday_this_month(caps: &Caps) -> Option<Expr> {
    nth_weekday_months_ago(caps, 0)
}

/// The captured `nth` weekday of last month ("the last Friday of last month").
pub(super) fn nth_weekday_last_month(caps: &Caps) -> Option<Expr> {
    nth_weekday_months_ago(caps, 1)
}

fn nth_weekday_months_ago(caps: &Caps, months_ago: u32) -> Option<Expr> {
    Some(Expr::NthWeekdayMonthsAgo {
        nth: caps.count.filter(|n| *n <= 5)?,
        weekday: caps.weekday?,
        months_ago,
    })
}

/// The captured day of last month ("the 2nd of last month").
pub(super) fn day_of_last_month(caps: &Caps) -> Option<Expr> {
    day_of_month_ago(caps, 1)
}

/// The captured day of this month ("the 15th of this month"); no period while to come.
pub(super) fn day_of_this_month(caps: &Caps) -> Option<Expr> {
    day_of_month_ago(caps, 0)
}

fn day_of_month_ago(caps: &Caps, months_ago: u32) -> Option<Expr> {
    let day = caps.day.filter(|d| (1..=31).contains(d))?;
    Some(Expr::PartOfMonthAgo {
        months_ago,
        from_day: day,
        to_day: day + 1,
    })
}

/// Everything before `count` days back ("more than 3 days ago").
pub(super) fn earlier_than_days(caps: &Caps) -> Option<Expr> {
    earlier_than(caps, Unit::Day)
}

/// Everything before `count` weeks back ("over two weeks ago").
pub(super) fn earlier_than_weeks(caps: &Caps) -> Option<Expr> {
    earlier_than(caps, Unit::Week)
}

/// Everything before `count` months back ("more than a month ago").
pub(super) fn earlier_than_months(caps: &Caps) -> Option<Expr> {
    earlier_than(caps, Unit::Month)
}

/// Everything before `count` years back ("over a year ago").
pub(super) fn earlier_than_years(caps: &Caps) -> Option<Expr> {
    earlier_than(caps, Unit::Year)
}

fn earlier_than(caps: &Caps, unit: Unit) -> Option<Expr> {
    Some(Expr::EarlierThan {
        unit,
        count: caps.count.filter(|n| *n <= 1200)?,
    })
}

/// The two hours around `count` hours back.
pub(super) fn hours_ago(caps: &Caps) -> Option<Expr> {
    Some(Expr::HoursAgo { hours: caps.count? })
}

/// The `count` × 24 hours up to the reference.
pub(super) fn past_days(caps: &Caps) -> Option<Expr> {
    Some(Expr::Trailing { days: caps.count? })
}

/// The `count` hours up to the reference.
pub(super) fn past_hours(caps: &Caps) -> Option<Expr> {
    Some(Expr::TrailingHours { hours: caps.count? })
}

/// The `count` × 7 × 24 hours up to the reference.
pub(super) fn past_weeks(caps: &Caps) -> Option<Expr> {
    Some(Expr::Trailing {
        days: caps.count?.checked_mul(7)?,
    })
}

/// The latest such weekday before today.
pub(super) fn weekday(caps: &Caps) -> Option<Expr> {
    Some(Expr::Weekday(caps.weekday?))
}

/// A month, of the captured year if any.
pub(super) fn named_month(caps: &Caps) -> Option<Expr> {
    Some(Expr::NamedMonth {
        month: caps.month?,
        year: caps.year,
    })
}

/// A day, of the captured year if any; `None` when no year gives the month that day.
pub(super) fn date(caps: &Caps) -> Option<Expr> {
    let (month, day) = (caps.month?, caps.day?);
    (day <= max_day(month)).then_some(Expr::Date {
        month,
        day,
        year: caps.year,
    })
}

/// The captured month's day written as a word, captured as the count ("the twentieth of
/// October").
pub(super) fn date_in_words(caps: &Caps) -> Option<Expr> {
    date(&Caps {
        day: caps.count,
        ..*caps
    })
}

/// The captured day, on the captured weekday ("Thursday, November 12").
pub(super) fn date_on_weekday(caps: &Caps) -> Option<Expr> {
    let (month, day) = (caps.month?, caps.day?);
    (day <= max_day(month)).then_some(Expr::DateOnWeekday {
        month,
        day,
        year: caps.year,
        weekday: caps.weekday?,
    })
}

/// The captured month of the previous year.
pub(super) fn month_last_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::MonthYearsAgo {
        month: caps.month?,
        years_ago: 1,
    })
}

/// The captured month of the reference's year.
pub(super) fn month_this_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::MonthYearsAgo {
        month: caps.month?,
        years_ago: 0,
    })
}

/// The captured season of the captured year.
pub(super) fn season_of_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::SeasonOfYear {
        season: caps.season?,
        year: caps.year?,
    })
}

/// The captured season of the previous year.
pub(super) fn season_last_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::SeasonYearsAgo {
        season: caps.season?,
        years_ago: 1,
    })
}

/// The captured season of the reference's year.
pub(super) fn season_this_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::SeasonYearsAgo {
        season: caps.season?,
        years_ago: 0,
    })
}

/// The latest captured season that is over ("last summer").
pub(super) fn season_ended(caps: &Caps) -> Option<Expr> {
    Some(Expr::Season {
        season: caps.season?,
        ended: true,
    })
}

/// Days `from_day` to `to_day` (exclusive) of the captured month.
fn days_of_month(caps: &Caps, from_day: u32, to_day: u32) -> Option<Expr> {
    Some(Expr::PartOfMonth {
        month: caps.month?,
        year: caps.year,
        from_day,
        to_day,
    })
}

/// Month `third` (0 to 2) of the captured season: March, April or May for spring, December,
/// January or February for winter. Of the captured year's season when a year is captured (the
/// January and February of "winter 2025" are 2026's), else the latest such month that starts at
/// or before the reference ("late summer" in July is last August).
fn season_month(caps: &Caps, third: u32) -> Option<Expr> {
    let season = caps.season?;
    let month = (season * 3 + 2 + third) % 12 + 1;
    let year = caps
        .year
        .map(|year| if month < 3 { year + 1 } else { year });
    Some(Expr::NamedMonth { month, year })
}

/// Month `third` of the captured season of last year: a month of the year before the
/// reference's, or, for winter's January and February, of the reference's year (last year's
/// winter runs from last December).
fn season_month_last_year(caps: &Caps, third: u32) -> Option<Expr> {
    let Some(Expr::NamedMonth { month, .. }) = season_month(caps, third) else {
        return None;
    };
    Some(Expr::MonthYearsAgo {
        month,
        years_ago: u32::from(month >= 3),
    })
}

/// The captured season's first month of last year ("early summer last year").
pub(super) fn early_season_last_year(caps: &Caps) -> Option<Expr> {
    season_month_last_year(caps, 0)
}

/// The captured season's second month of last year.
pub(super) fn mid_season_last_year(caps: &Caps) -> Option<Expr> {
    season_month_last_year(caps, 1)
}

/// The captured season's last month of last year ("late summer last year").
pub(super) fn late_season_last_year(caps: &Caps) -> Option<Expr> {
    season_month_last_year(caps, 2)
}

/// The week of the captured month's day written as a word, captured as the count ("the week
/// of the ninth of March").
pub(super) fn week_of_in_words(caps: &Caps) -> Option<Expr> {
    week_of(&Caps {
        day: caps.count,
        ..*caps
    })
}

/// The captured season's first month ("early spring": March).
pub(super) fn early_season(caps: &Caps) -> Option<Expr> {
    season_month(caps, 0)
}

/// The captured season's second month ("midsummer": July).
pub(super) fn mid_season(caps: &Caps) -> Option<Expr> {
    season_month(caps, 1)
}

/// The captured season's last month ("the end of the winter": February).
pub(super) fn late_season(caps: &Caps) -> Option<Expr> {
    season_month(caps, 2)
}

/// Days 1–10 of the captured month ("early March").
pub(super) fn early_month(caps: &Caps) -> Option<Expr> {
    days_of_month(caps, 1, 11)
}

/// Days 11–20 of the captured month ("mid-March").
pub(super) fn mid_month(caps: &Caps) -> Option<Expr> {
    days_of_month(caps, 11, 21)
}

/// The 21st to the end of the captured month ("late March").
pub(super) fn late_month(caps: &Caps) -> Option<Expr> {
    days_of_month(caps, 21, 32)
}

/// The captured count's week of the captured month: days 1–7, 8–14, 15–21, 22–28 ("the
/// second week of March"); weeks past the fourth are refused.
pub(super) fn week_of_month(caps: &Caps) -> Option<Expr> {
    let week = caps.count.filter(|n| (1..=4).contains(n))?;
    days_of_month(caps, 7 * week - 6, 7 * week + 1)
}

/// The last seven days of the captured month ("the last week of March"): from the seventh
/// day before its longest length (the 25th of March, the 23rd of February) to its end.
pub(super) fn last_week_of_month(caps: &Caps) -> Option<Expr> {
    let month = caps.month?;
    days_of_month(caps, max_day(month) - 6, 32)
}

/// The last day of the captured month ("the last day of October"); February's is the 28th
/// and, in a leap year, the 29th.
pub(super) fn last_day_of_month(caps: &Caps) -> Option<Expr> {
    let month = caps.month?;
    let last = if month == 2 { 28 } else { max_day(month) };
    days_of_month(caps, last, 32)
}

/// The first day of the captured month ("the first day of November").
pub(super) fn first_day_of_month(caps: &Caps) -> Option<Expr> {
    days_of_month(caps, 1, 2)
}

/// The captured count's (1 to 5; 0 the last) captured weekday of the captured month ("the
/// first Monday of November", "the last Friday of October").
pub(super) fn nth_weekday_of_month(caps: &Caps) -> Option<Expr> {
    Some(Expr::NthWeekdayOfMonth {
        nth: caps.count.filter(|n| *n <= 5)?,
        weekday: caps.weekday?,
        month: caps.month?,
        year: caps.year,
    })
}

/// The captured weekday, the captured count of them back ("two Mondays ago": the one before
/// the latest).
pub(super) fn weekdays_ago(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekdayBack {
        weekday: caps.weekday?,
        back: caps.count.filter(|n| *n <= 52)?.checked_sub(1)?,
    })
}

/// The captured weekday before the latest one ("the Monday before last").
pub(super) fn weekday_before_last(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekdayBack {
        weekday: caps.weekday?,
        back: 1,
    })
}

/// The captured weekday of the ISO week the captured count of weeks back ("Friday two weeks
/// ago").
pub(super) fn weekday_weeks_ago(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekdayOfWeek {
        weeks_ago: caps.count.filter(|n| *n <= 520)?,
        weekday: caps.weekday?,
    })
}

/// The first `count` days of the captured month ("the first 10 days of March"), at most its
/// length.
pub(super) fn first_days_of_month(caps: &Caps) -> Option<Expr> {
    let days = caps.count.filter(|n| (1..=31).contains(n))?;
    days_of_month(caps, 1, days + 1)
}

/// The last `count` days of the captured month, counted back from its longest length as
/// [`last_week_of_month`] ("the last 3 days of March" are the 29th to the 31st).
pub(super) fn last_days_of_month(caps: &Caps) -> Option<Expr> {
    let month = caps.month?;
    let days = caps.count.filter(|n| (1..=max_day(month)).contains(n))?;
    days_of_month(caps, max_day(month) + 1 - days, 32)
}

/// The first `count` weeks of the captured month, seven days each ("the first two weeks of
/// November" are the 1st to the 14th); up to four.
pub(super) fn first_weeks_of_month(caps: &Caps) -> Option<Expr> {
    let weeks = caps.count.filter(|n| (1..=4).contains(n))?;
    days_of_month(caps, 1, 7 * weeks + 1)
}

/// The last `count` weeks of the captured month ("the last two weeks of October" are the 18th
/// to the 31st); up to four.
pub(super) fn last_weeks_of_month(caps: &Caps) -> Option<Expr> {
    let month = caps.month?;
    let weeks = caps.count.filter(|n| (1..=4).contains(n))?;
    days_of_month(caps, max_day(month) + 1 - 7 * weeks, 32)
}

/// Days from the captured first day (the count) to the captured day of the captured month
/// ("from the 10th to the 20th of October"); `None` when the first comes after the last or
/// the month has no such day.
pub(super) fn days_between(caps: &Caps) -> Option<Expr> {
    let (month, from, to) = (caps.month?, caps.count?, caps.day?);
    (from <= to && to <= max_day(month)).then_some(())?;
    days_of_month(caps, from, to + 1)
}

/// The fourth quarter of the captured year ("the last quarter of 2025").
pub(super) fn fourth_quarter_of_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::PartOfYear {
        year: Some(caps.year?),
        years_ago: 0,
        from_month: 9,
        months: 3,
    })
}

/// The latest captured season that has begun ("last summer and fall": the fall of a list).
pub(super) fn season_begun(caps: &Caps) -> Option<Expr> {
    Some(Expr::Season {
        season: caps.season?,
        ended: false,
    })
}

/// A slashed date with its year ("11/3/2026"); without one it is read only after "on" or a
/// word that opens a range.
pub(super) fn slashed_with_year(caps: &Caps) -> Option<Expr> {
    caps.year?;
    date(caps)
}

/// The latest captured month that is over ("last December").
pub(super) fn ended_month(caps: &Caps) -> Option<Expr> {
    Some(Expr::EndedMonth { month: caps.month? })
}

/// The captured weekday of last week ("Monday last week", "Tuesday of last week").
pub(super) fn weekday_last_week(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekdayOfWeek {
        weeks_ago: 1,
        weekday: caps.weekday?,
    })
}

/// The captured weekday of this week ("Monday this week"); a day still to come is no period.
pub(super) fn weekday_this_week(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekdayOfWeek {
        weeks_ago: 0,
        weekday: caps.weekday?,
    })
}

/// The captured quarter (the count, 1–4) of the captured year ("Q1 2025").
pub(super) fn quarter_of_year(caps: &Caps) -> Option<Expr> {
    let quarter = caps.count.filter(|q| (1..=4).contains(q))?;
    Some(Expr::PartOfYear {
        year: Some(caps.year?),
        years_ago: 0,
        from_month: 3 * (quarter - 1),
        months: 3,
    })
}

/// The captured quarter (1–4) of the reference's year ("the first quarter of this year").
pub(super) fn quarter_this_year(caps: &Caps) -> Option<Expr> {
    let quarter = caps.count.filter(|q| (1..=4).contains(q))?;
    Some(Expr::PartOfYear {
        year: None,
        years_ago: 0,
        from_month: 3 * (quarter - 1),
        months: 3,
    })
}

/// The captured quarter (1–4), the latest one that has begun ("in the first quarter").
pub(super) fn ordinal_quarter(caps: &Caps) -> Option<Expr> {
    let quarter = caps.count.filter(|q| (1..=4).contains(q))?;
    Some(Expr::Quarter { quarter })
}

/// The captured quarter of the previous year ("Q1 of last year").
pub(super) fn quarter_last_year(caps: &Caps) -> Option<Expr> {
    let quarter = caps.count.filter(|q| (1..=4).contains(q))?;
    Some(Expr::PartOfYear {
        year: None,
        years_ago: 1,
        from_month: 3 * (quarter - 1),
        months: 3,
    })
}

/// The captured count's half of the captured month: days 1–15 or the 16th to the end.
pub(super) fn half_of_month(caps: &Caps) -> Option<Expr> {
    match caps.count? {
        1 => days_of_month(caps, 1, 16),
        2 => days_of_month(caps, 16, 32),
        _ => None,
    }
}

/// The captured day of the latest month that has had it ("on the 14th").
pub(super) fn day_of_month(caps: &Caps) -> Option<Expr> {
    Some(Expr::DayOfMonth { day: caps.day? })
}

/// The `count` calendar months up to the reference.
pub(super) fn past_months(caps: &Caps) -> Option<Expr> {
    Some(Expr::TrailingMonths {
        months: caps.count?,
    })
}

/// The `count` × 12 calendar months up to the reference.
pub(super) fn past_years(caps: &Caps) -> Option<Expr> {
    Some(Expr::TrailingMonths {
        months: caps.count?.checked_mul(12)?,
    })
}

/// A third of the captured year ("the middle of 2025"): `part` 0 is January to April, 1 May
/// to August, 2 September to December.
fn year_third(caps: &Caps, part: u32) -> Option<Expr> {
    Some(Expr::PartOfYear {
        year: Some(caps.year?),
        years_ago: 0,
        from_month: 4 * part,
        months: 4,
    })
}

/// The captured half (1 or 2) of the captured year ("the first half of 2025").
pub(super) fn half_of_year(caps: &Caps) -> Option<Expr> {
    let half = caps.count?;
    (1..=2).contains(&half).then_some(Expr::PartOfYear {
        year: Some(caps.year?),
        years_ago: 0,
        from_month: 6 * (half - 1),
        months: 6,
    })
}

/// January to June of the captured year ("H1 2025").
pub(super) fn first_half_of_year(caps: &Caps) -> Option<Expr> {
    half_of_year(&Caps {
        count: Some(1),
        ..*caps
    })
}

/// July to December of the captured year ("H2 2025").
pub(super) fn second_half_of_year(caps: &Caps) -> Option<Expr> {
    half_of_year(&Caps {
        count: Some(2),
        ..*caps
    })
}

/// January to April of the captured year.
pub(super) fn early_year(caps: &Caps) -> Option<Expr> {
    year_third(caps, 0)
}

/// May to August of the captured year.
pub(super) fn mid_year(caps: &Caps) -> Option<Expr> {
    year_third(caps, 1)
}

/// September to December of the captured year.
pub(super) fn late_year(caps: &Caps) -> Option<Expr> {
    year_third(caps, 2)
}

/// The week of the captured day of the month, or of its day in words ("the week of the 9th",
/// "the week of the ninth").
pub(super) fn week_of_day(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekOfDayOfMonth {
        day: caps.day.or(caps.count)?,
        weekend: false,
    })
}

/// The weekend the captured day of the month falls on ("the weekend of the 14th").
pub(super) fn weekend_of_day(caps: &Caps) -> Option<Expr> {
    Some(Expr::WeekOfDayOfMonth {
        day: caps.day.or(caps.count)?,
        weekend: true,
    })
}

/// The ISO week of the captured day ("the week of November 9").
pub(super) fn week_of(caps: &Caps) -> Option<Expr> {
    let (month, day) = (caps.month?, caps.day?);
    (day <= max_day(month)).then_some(Expr::WeekOf {
        month,
        day,
        year: caps.year,
    })
}

/// A day or a month, whichever an ISO date captured.
pub(super) fn iso(caps: &Caps) -> Option<Expr> {
    if caps.day.is_some() {
        date(caps)
    } else {
        named_month(caps)
    }
}

/// The captured ISO week number, of the captured year or the latest begun ("week 45",
/// "2026-W45", "CW 10 of 2025").
pub(super) fn iso_week(caps: &Caps) -> Option<Expr> {
    Some(Expr::IsoWeek {
        week: caps.count.filter(|week| (1..=53).contains(week))?,
        year: caps.year,
        years_ago: None,
    })
}

/// The captured ISO week number of last year ("week 45 of last year").
pub(super) fn iso_week_last_year(caps: &Caps) -> Option<Expr> {
    iso_week_years_ago(caps, 1)
}

/// The captured ISO week number of this year ("week 3 of this year"; none while it is to come).
pub(super) fn iso_week_this_year(caps: &Caps) -> Option<Expr> {
    iso_week_years_ago(caps, 0)
}

fn iso_week_years_ago(caps: &Caps, years_ago: u32) -> Option<Expr> {
    Some(Expr::IsoWeek {
        week: caps.count.filter(|week| (1..=53).contains(week))?,
        year: None,
        years_ago: Some(years_ago),
    })
}

/// The captured year.
pub(super) fn named_year(caps: &Caps) -> Option<Expr> {
    Some(Expr::NamedYear(caps.year?))
}

/// Days `from_day..to_day` of the month `months_ago` back ("the end of last month").
pub(super) const fn month_part(months_ago: u32, from_day: u32, to_day: u32) -> Make {
    Fixed(Expr::PartOfMonthAgo {
        months_ago,
        from_day,
        to_day,
    })
}

/// A third of the year `years_ago` back: `part` 0 is January to April, 1 May to August, 2
/// September to December.
pub(super) const fn year_part(years_ago: u32, part: u32) -> Make {
    Fixed(Expr::PartOfYear {
        year: None,
        years_ago,
        from_month: 4 * part,
        months: 4,
    })
}

/// A half of the year `years_ago` back: `half` 0 is January to June, 1 July to December.
pub(super) const fn year_half(years_ago: u32, half: u32) -> Make {
    Fixed(Expr::PartOfYear {
        year: None,
        years_ago,
        from_month: 6 * half,
        months: 6,
    })
}

//! The language-independent meaning of a time expression ([`Expr`]) and its resolution against
//! a reference instant into a [`Period`], in UTC with ISO weeks (Monday first).

use super::Period;
use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveDateTime};

const MS_PER_HOUR: i64 = 3_600_000;
const MS_PER_DAY: i64 = 24 * MS_PER_HOUR;

/// A weekday, `0` = Monday … `6` = Sunday.
pub(super) type Weekday = u32;

/// A calendar unit counted back from the reference's ([`Expr::Back`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Day,
    /// An ISO week, Monday first.
    Week,
    Month,
    Year,
}

/// A holiday whose date moves from year to year ([`Expr::Feast`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Feast {
    /// Easter Sunday of the Gregorian calendar.
    Easter,
    /// Thanksgiving of the United States: the fourth Thursday of November.
    Thanksgiving,
    /// Memorial Day of the United States: the last Monday of May.
    MemorialDay,
    /// Labor Day of the United States: the first Monday of September.
    LaborDay,
    /// The first day of Passover, 15 Nisan of the Hebrew calendar.
    Passover,
    /// Rosh Hashanah, 1 Tishrei: the Hebrew new year, in September or October.
    RoshHashanah,
    /// The first day of Hanukkah, 25 Kislev, in late November or December.
    Hanukkah,
}

/// What a time expression means, before a reference instant gives it a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Expr {
    /// The whole day `days_ago` days before the reference's day (`0` = today).
    Day { days_ago: u32 },
    /// Hours `from_hour..to_hour` counted from the midnight that starts the day `days_ago`
    /// days back; `to_hour` may pass 24 (last night runs to 06:00 of the next day).
    DayPart {
        days_ago: u32,
        from_hour: u32,
        to_hour: u32,
    },
    /// The ISO week `weeks_ago` weeks before the reference's week (`0` = this week).
    Week { weeks_ago: u32 },
    /// The calendar month `months_ago` months before the reference's month.
    Month { months_ago: u32 },
    /// The calendar year `years_ago` years before the reference's year.
    Year { years_ago: u32 },
    /// The `days` × 24 hours that end at the reference.
    Trailing { days: u32 },
    /// Saturday 00:00 to Monday 00:00 of the latest weekend that starts at or before the
    /// reference.
    Weekend,
    /// The latest such weekday strictly before the reference's day (a week back when the
    /// reference falls on that weekday).
    Weekday(Weekday),
    /// That weekday in the ISO week `weeks_ago` weeks back.
    WeekdayOfWeek { weeks_ago: u32, weekday: Weekday },
    /// A calendar month: of `year`, or else the latest one that starts at or before the
    /// reference.
    NamedMonth { month: u32, year: Option<i32> },
    /// The latest such calendar month that is over ("last December" on December 3 is the
    /// previous year's).
    EndedMonth { month: u32 },
    /// ISO week `week` (1–53; Monday to Monday, week 1 holding the year's first Thursday): of
    /// ISO year `year`, or of the ISO year `years_ago` years before the reference's, or else
    /// the latest that starts at or before the reference. `None` for a week 53 its year lacks.
    IsoWeek {
        week: u32,
        year: Option<i32>,
        years_ago: Option<u32>,
    },
    /// Words that name a time to come ("next Friday", "this coming March"): matched so that no
    /// other phrase takes their words, and never a period.
    Future,
    /// Words that look like a time but name none ("ראש השנה", the new year's holiday, is no
    /// "this year"; "毎週月曜日", every Monday, no last Monday): matched so that no other phrase
    /// takes their words, and never a period.
    NoTime,
    /// A calendar day: of `year`, or else the latest one that starts at or before the reference.
    Date {
        month: u32,
        day: u32,
        year: Option<i32>,
    },
    /// A calendar day named with its weekday ("Thursday, November 12"): as [`Expr::Date`], and
    /// no period when the day falls on another weekday.
    DateOnWeekday {
        month: u32,
        day: u32,
        year: Option<i32>,
        weekday: Weekday,
    },
    /// A calendar year.
    NamedYear(i32),
    /// The two hours around the instant `hours` hours before the reference.
    HoursAgo { hours: u32 },
    /// A meteorological season of the northern hemisphere (`0` spring, March to May; `1`
    /// summer; `2` autumn; `3` winter, December to February): the latest one that starts at or
    /// before the reference or, when `ended`, the latest one that is over.
    Season { season: u32, ended: bool },
    /// A calendar quarter (`1` to `4`): the latest one that starts at or before the reference.
    Quarter { quarter: u32 },
    /// The calendar quarter `quarters_ago` quarters before the reference's.
    QuarterAgo { quarters_ago: u32 },
    /// Month `month` of the year `years_ago` years before the reference's ("March last year").
    MonthYearsAgo { month: u32, years_ago: u32 },
    /// A season (numbered as in [`Expr::Season`]) of a named year; winter runs from that
    /// year's December to February.
    SeasonOfYear { season: u32, year: i32 },
    /// A season of the year `years_ago` years before the reference's ("last year's summer").
    SeasonYearsAgo { season: u32, years_ago: u32 },
    /// Days `from_day` (1-based) to `to_day` (exclusive; past the month's last day means to its
    /// end) of a month: of `year`, or else the latest such days that begin at or before the
    /// reference. "early March" is 1 to 11, "mid-March" 11 to 21, "late March" 21 to the end,
    /// "the second week of March" 8 to 15.
    PartOfMonth {
        month: u32,
        year: Option<i32>,
        from_day: u32,
        to_day: u32,
    },
    /// Days `from_day` to `to_day` (as in [`Expr::PartOfMonth`]) of the calendar month
    /// `months_ago` months before the reference's ("the end of last month", "early this
    /// month").
    PartOfMonthAgo {
        months_ago: u32,
        from_day: u32,
        to_day: u32,
    },
    /// The `days` days from `month`/`day` of the latest year in which that day is at or before
    /// the reference's day ("over Christmas": December 24 to 26).
    DaysOfYear { month: u32, day: u32, days: u32 },
    /// The weekend `weeks_back` weeks before the latest one that is over
    /// ([`Expr::EndedWeekend`]): "the weekend before last" is 1.
    WeekendBack { weeks_back: u32 },
    /// A month of the Hebrew calendar, the latest that starts at or before the reference:
    /// `month` 1 is Tishrei … 6 Adar (both Adars in a leap year) … 12 Elul.
    HebrewMonth { month: u32 },
    /// The `count` latest weekends that are over, as one period from the first one's Saturday
    /// to the last one's Monday ("the last two weekends").
    Weekends { count: u32 },
    /// Day `day` of the latest month that has it and starts at or before the reference, if
    /// that day is not after the reference's day ("on the 14th").
    DayOfMonth { day: u32 },
    /// The ISO week (Monday to Monday) of a day named as in [`Expr::Date`] ("the week of
    /// November 9").
    WeekOf {
        month: u32,
        day: u32,
        year: Option<i32>,
    },
    /// The ISO week (Monday to Monday) of a day of the month, or with `weekend` the weekend
    /// (Saturday and Sunday) it falls on or, for a Friday or a Monday, is next to, of the latest
    /// month whose week or weekend has begun ("the week of the 9th", "the weekend of the 14th");
    /// no weekend for a day midweek.
    WeekOfDayOfMonth { day: u32, weekend: bool },
    /// `months` calendar months from month `from_month` (0 = January) of `year`, or else of the
    /// year `years_ago` years back: "early this year" is January to April, "the end of last
    /// year" September to December, "the middle of 2025" May to August 2025.
    PartOfYear {
        year: Option<i32>,
        years_ago: u32,
        from_month: u32,
        months: u32,
    },
    /// The `days` days from `month`/`day` of the year `years_ago` years before the reference's
    /// ("去年のクリスマス", last year's Christmas).
    DaysOfYearAgo {
        years_ago: u32,
        month: u32,
        day: u32,
        days: u32,
    },
    /// A Japanese fiscal year, April to March: the latest one begun, or `years_ago` before it
    /// ("今年度", "昨年度").
    FiscalYear { years_ago: u32 },
    /// The `months` calendar months that end at the reference: from the same day and time
    /// `months` months back ("the past 3 months"; a day the earlier month lacks is its last).
    TrailingMonths { months: u32 },
    /// The whole units `nearest` to `farthest` (inclusive) back from the reference's: a
    /// vague count ("a few weeks ago", "数日前") is the units 2 to 5 back, not one of them.
    Back {
        unit: Unit,
        nearest: u32,
        farthest: u32,
    },
    /// `days` days from `offset` days after `feast` (negative: before it), of the latest year
    /// in which that first day is at or before the reference's day ("over Easter": Good Friday
    /// to Easter Monday).
    Feast {
        feast: Feast,
        offset: i32,
        days: u32,
    },
    /// Days `from_day` to `to_day` (0 = Monday, exclusive end, 7 = the next Monday) of the ISO
    /// week `weeks_ago` weeks back: "early last week" is Monday to Wednesday.
    PartOfWeek {
        weeks_ago: u32,
        from_day: u32,
        to_day: u32,
    },
    /// The `hours` hours that end at the reference ("the past 48 hours").
    TrailingHours { hours: u32 },
    /// The `days` days either side of the reference's day `years_ago` years back ("this time
    /// last year").
    AroundYearsAgo { years_ago: u32, days: u32 },
    /// Everything before the instant `count` units before the reference ("more than a month
    /// ago").
    EarlierThan { unit: Unit, count: u32 },
    /// The `days` days either side of the reference's day `months_ago` months back ("this time
    /// last month", "two months ago today").
    AroundMonthsAgo { months_ago: u32, days: u32 },
    /// The `nth` (1 to 5; 0 is the last) such weekday of the month `months_ago` months back
    /// ("the first Monday of this month", "the last Friday of last month").
    NthWeekdayMonthsAgo {
        nth: u32,
        weekday: Weekday,
        months_ago: u32,
    },
    /// The `nth` (1 to 5; 0 is the last) such weekday of a month: of `year`, or else of the
    /// latest month in which that day is at or before the reference's day ("the first Monday
    /// of November", "the last Friday of October").
    NthWeekdayOfMonth {
        nth: u32,
        weekday: Weekday,
        month: u32,
        year: Option<i32>,
    },
    /// The such weekday `back` weeks before the latest one ([`Expr::Weekday`]): "the Monday
    /// before last" and "two Mondays ago" are 1.
    WeekdayBack { weekday: Weekday, back: u32 },
    /// The latest weekend that is over: the one before the weekend in progress on a Saturday
    /// or a Sunday ("last weekend").
    EndedWeekend,
    /// `months` calendar months from month `from_month` (0 = January) of the latest year in
    /// which they have begun ("年末" in March is last year's end).
    LatestPartOfYear { from_month: u32, months: u32 },
    /// Day `day` of the latest month in which it falls on `weekday`, at or before the
    /// reference's day ("on Friday the 20th"); within the last 28 years, as the calendar
    /// repeats.
    DayOfMonthOnWeekday { day: u32, weekday: Weekday },
    /// The season `years` years before the latest one that is over ("the summer before last"
    /// and "two summers ago" are 1).
    SeasonBack { season: u32, years: u32 },
    /// The month a year before the latest such one that is over ("the October before last").
    MonthBeforeLast { month: u32 },
    /// A season "this" names (numbered as in [`Expr::Season`]): the latest one begun while it
    /// runs or when its last month is in the reference's year (for winter, until May); no
    /// period when the next one is meant ("this summer" in March, "this winter" in November).
    ThisSeason { season: u32 },
}

/// Whether `expr` names the latest of a kind that starts at or before the reference (a month,
/// a weekday, a season, a quarter, a holiday, a day of a month without a year), so that read
/// against an earlier reference it names an earlier one of the same kind.
pub(super) fn names_latest(expr: Expr) -> bool {
    matches!(
        expr,
        Expr::Weekday(_)
            | Expr::NamedMonth { year: None, .. }
            | Expr::Date { year: None, .. }
            | Expr::DateOnWeekday { year: None, .. }
            | Expr::Season { ended: false, .. }
            | Expr::Quarter { .. }
            | Expr::PartOfMonth { year: None, .. }
            | Expr::DaysOfYear { .. }
            | Expr::DayOfMonth { .. }
            | Expr::Feast { .. }
            | Expr::NthWeekdayOfMonth { year: None, .. }
            | Expr::IsoWeek {
                year: None,
                years_ago: None,
                ..
            }
            | Expr::HebrewMonth { .. }
    )
}

/// The period `expr` names at `reference_ms`; `None` when it falls outside the calendar chrono
/// can represent, or names no real day (February 30).
pub(super) fn resolve(expr: Expr, reference_ms: i64) -> Option<Period> {
    let now = DateTime::from_timestamp_millis(reference_ms)?.naive_utc();
    let today = now.date();
    match expr {
        Expr::Day { days_ago } => day_span(back(today, u64::from(days_ago))?, 1),
        Expr::DayPart {
            days_ago,
            from_hour,
            to_hour,
        } => {
            let midnight = start_ms(back(today, u64::from(days_ago))?);
            Some(Period {
                start_ms: midnight.checked_add(i64::from(from_hour) * MS_PER_HOUR)?,
                end_ms: midnight.checked_add(i64::from(to_hour) * MS_PER_HOUR)?,
            })
        }
        Expr::Week { weeks_ago } => day_span(week_start(today, weeks_ago)?, 7),
        Expr::Month { months_ago } => {
            let index = month_index(today.year(), today.month()) - i64::from(months_ago);
            month_span(index)
        }
        Expr::Year { years_ago } => year_span(i64::from(today.year()) - i64::from(years_ago)),
        Expr::Trailing { days } => Some(Period {
            start_ms: reference_ms.checked_sub(i64::from(days).checked_mul(MS_PER_DAY)?)?,
            end_ms: reference_ms,
        }),
        Expr::Weekend => {
            // Days since the latest Saturday: Saturday 0, Sunday 1, Monday 2, ... Friday 6.
            let since_saturday = (today.weekday().num_days_from_monday() + 2) % 7;
            day_span(back(today, u64::from(since_saturday))?, 2)
        }
        Expr::Weekday(weekday) => {
            let offset = (today.weekday().num_days_from_monday() + 7 - weekday) % 7;
            let offset = if offset == 0 { 7 } else { offset };
            day_span(back(today, u64::from(offset))?, 1)
        }
        Expr::WeekdayOfWeek { weeks_ago, weekday } => {
            let monday = week_start(today, weeks_ago)?;
            day_span(monday.checked_add_days(Days::new(u64::from(weekday)))?, 1)
        }
        Expr::NamedMonth { month, year } => month_span(named_month_index(today, month, year)?),
        Expr::IsoWeek {
            week,
            year: Some(year),
            ..
        } => day_span(
            NaiveDate::from_isoywd_opt(year, week, chrono::Weekday::Mon)?,
            7,
        ),
        Expr::IsoWeek {
            week,
            year: None,
            years_ago: Some(years_ago),
        } => {
            // "Last year" is the calendar year before the reference's, whatever ISO year its
            // first days belong to.
            let year = today.year() - i32::try_from(years_ago).ok()?;
            let monday = NaiveDate::from_isoywd_opt(year, week, chrono::Weekday::Mon)?;
            (monday <= today).then(|| day_span(monday, 7))?
        }
        Expr::IsoWeek {
            week,
            year: None,
            years_ago: None,
        } => {
            // A week 53 comes every five or six years.
            let year = today.iso_week().year();
            (0..7)
                .map(|back| year - back)
                .filter_map(|year| NaiveDate::from_isoywd_opt(year, week, chrono::Weekday::Mon))
                .find(|monday| *monday <= today)
                .and_then(|monday| day_span(monday, 7))
        }
        Expr::EndedMonth { month } => {
            let index = named_month_index(today, month, None)?;
            // The latest one has begun; it is over unless it is the reference's month.
            let current = month_index(today.year(), today.month());
            month_span(if index == current { index - 12 } else { index })
        }
        Expr::Future | Expr::NoTime => None,
        Expr::MonthYearsAgo { month, years_ago } => {
            let year = i64::from(today.year()) - i64::from(years_ago);
            month_span(year.checked_mul(12)? + i64::from(month) - 1)
        }
        Expr::SeasonOfYear { season, year } => season_span(i64::from(year), season),
        Expr::SeasonYearsAgo { season, years_ago } => {
            season_span(i64::from(today.year()) - i64::from(years_ago), season)
        }
        Expr::PartOfMonthAgo {
            months_ago,
            from_day,
            to_day,
        } => {
            let index = month_index(today.year(), today.month()) - i64::from(months_ago);
            let (from, to) = days_of_month(index, from_day, to_day)?;
            Some(Period {
                start_ms: start_ms(from),
                end_ms: start_ms(to),
            })
        }
        Expr::DaysOfYear { month, day, days } => {
            day_span(date_of(today, month, day, None)?, u64::from(days))
        }
        Expr::EndedWeekend => {
            // Saturday and Sunday are in the weekend in progress: one more week back.
            let since_saturday = (today.weekday().num_days_from_monday() + 2) % 7;
            let back_days = u64::from(since_saturday) + if since_saturday < 2 { 7 } else { 0 };
            day_span(back(today, back_days)?, 2)
        }
        Expr::WeekdayBack {
            weekday,
            back: weeks,
        } => {
            let latest = resolve(Expr::Weekday(weekday), reference_ms)?;
            let day = DateTime::from_timestamp_millis(latest.start_ms)?.date_naive();
            day_span(back(day, 7 * u64::from(weeks))?, 1)
        }
        Expr::NthWeekdayOfMonth {
            nth,
            weekday,
            month,
            year,
        } => {
            let of_year = |year: i32| nth_weekday(year, month, weekday, nth);
            let day = match year {
                Some(year) => of_year(year)?,
                None => (0..=1)
                    .filter_map(|back| of_year(today.year() - back))
                    .find(|day| *day <= today)?,
            };
            day_span(day, 1)
        }
        Expr::DayOfMonthOnWeekday { day, weekday } => {
            let current = month_index(today.year(), today.month());
            let date = (0..12 * 28)
                .filter_map(|back| {
                    let first = month_start(current - back)?;
                    NaiveDate::from_ymd_opt(first.year(), first.month(), day)
                })
                .find(|date| *date <= today && date.weekday().num_days_from_monday() == weekday)?;
            day_span(date, 1)
        }
        Expr::SeasonBack { season, years } => {
            let last = resolve(
                Expr::Season {
                    season,
                    ended: true,
                },
                reference_ms,
            )?;
            years_earlier(last, years)
        }
        Expr::MonthBeforeLast { month } => {
            years_earlier(resolve(Expr::EndedMonth { month }, reference_ms)?, 1)
        }
        Expr::LatestPartOfYear { from_month, months } => {
            let this_year = month_index(today.year(), 1) + i64::from(from_month);
            let current = month_index(today.year(), today.month());
            let first = if this_year <= current {
                this_year
            } else {
                this_year - 12
            };
            months_span(first, i64::from(months))
        }
        Expr::ThisSeason { season } => {
            let latest = resolve(
                Expr::Season {
                    season,
                    ended: false,
                },
                reference_ms,
            )?;
            let last_month = DateTime::from_timestamp_millis(latest.end_ms - 1)?.date_naive();
            let meant = latest.contains(reference_ms)
                || (last_month.year() == today.year() && (season != 3 || today.month() < 6));
            meant.then_some(latest)
        }
        Expr::WeekendBack { weeks_back } => {
            // Counted from the latest weekend that is over ([`Expr::EndedWeekend`]): on a
            // Saturday, "the weekend before last" began two weeks back.
            let since_saturday = (today.weekday().num_days_from_monday() + 2) % 7;
            let since_saturday = since_saturday + if since_saturday < 2 { 7 } else { 0 };
            let back_days = u64::from(since_saturday) + 7 * u64::from(weeks_back);
            day_span(back(today, back_days)?, 2)
        }
        Expr::HebrewMonth { month } => {
            let year = i64::from(today.year()) + 3761;
            [year, year - 1, year - 2]
                .into_iter()
                .filter_map(|year| hebrew_month(year, month))
                .find(|(first, _)| *first <= today)
                .and_then(|(first, days)| day_span(first, days))
        }
        Expr::Weekends { count } => {
            let first = resolve(
                Expr::WeekendBack {
                    weeks_back: count.checked_sub(1)?,
                },
                reference_ms,
            )?;
            let last = resolve(Expr::WeekendBack { weeks_back: 0 }, reference_ms)?;
            Some(Period {
                start_ms: first.start_ms,
                end_ms: last.end_ms,
            })
        }
        Expr::PartOfMonth {
            month,
            year,
            from_day,
            to_day,
        } => {
            let days = |index: i64| days_of_month(index, from_day, to_day);
            let index = named_month_index(today, month, year)?;
            let (mut from, mut to) = days(index)?;
            // Without a year, the latest such part that has begun: "late December" on
            // December 2 is last December's.
            if year.is_none() && from > today {
                (from, to) = days(index - 12)?;
            }
            Some(Period {
                start_ms: start_ms(from),
                end_ms: start_ms(to),
            })
        }
        Expr::DayOfMonth { day } => {
            // This month when the day has come, else the latest earlier month that has it.
            let current = month_index(today.year(), today.month());
            let date = (0..=12)
                .filter_map(|back| {
                    let first = month_start(current - back)?;
                    NaiveDate::from_ymd_opt(first.year(), first.month(), day)
                })
                .find(|date| *date <= today)?;
            day_span(date, 1)
        }
        Expr::WeekOfDayOfMonth { day, weekend } => {
            // Its week's Monday and length, or the Saturday of its weekend.
            let span_of = |date: NaiveDate| -> Option<(NaiveDate, u64)> {
                let from_monday = date.weekday().num_days_from_monday();
                // A Friday's weekend follows it, a Monday's comes before it; a day midweek has
                // none.
                match (weekend, from_monday) {
                    (false, _) => Some((back(date, u64::from(from_monday))?, 7)),
                    (true, 4) => Some((date.checked_add_days(Days::new(1))?, 2)),
                    (true, 5) => Some((date, 2)),
                    (true, 6) => Some((back(date, 1)?, 2)),
                    (true, 0) => Some((back(date, 2)?, 2)),
                    (true, _) => None,
                }
            };
            let current = month_index(today.year(), today.month());
            let (start, days) = (0..=12)
                .filter_map(|back| {
                    let first = month_start(current - back)?;
                    NaiveDate::from_ymd_opt(first.year(), first.month(), day)
                })
                .filter_map(span_of)
                .find(|(start, _)| *start <= today)?;
            day_span(start, days)
        }
        Expr::TrailingMonths { months } => {
            let from = now.checked_sub_months(Months::new(months))?;
            Some(Period {
                start_ms: from.and_utc().timestamp_millis(),
                end_ms: reference_ms,
            })
        }
        Expr::Back {
            unit,
            nearest,
            farthest,
        } => {
            let units = farthest.checked_sub(nearest)?.checked_add(1)?;
            match unit {
                Unit::Day => day_span(back(today, u64::from(farthest))?, u64::from(units)),
                Unit::Week => day_span(week_start(today, farthest)?, 7 * u64::from(units)),
                Unit::Month => months_span(
                    month_index(today.year(), today.month()) - i64::from(farthest),
                    i64::from(units),
                ),
                Unit::Year => months_span(
                    month_index(today.year(), 1) - 12 * i64::from(farthest),
                    12 * i64::from(units),
                ),
            }
        }
        Expr::Feast {
            feast,
            offset,
            days,
        } => {
            let first = |year: i32| -> Option<NaiveDate> {
                let day = feast_day(feast, year)?;
                day.checked_add_signed(chrono::TimeDelta::days(i64::from(offset)))
            };
            // The feast of this year or of the two before: an offset may carry a feast late
            // in the year into the next one (Tu BiShvat, 48 days after Hanukkah).
            let start = (0..=2)
                .filter_map(|back| first(today.year().checked_sub(back)?))
                .find(|start| *start <= today)?;
            day_span(start, u64::from(days))
        }
        Expr::PartOfWeek {
            weeks_ago,
            from_day,
            to_day,
        } => {
            let monday = week_start(today, weeks_ago)?;
            let from = monday.checked_add_days(Days::new(u64::from(from_day)))?;
            day_span(from, u64::from(to_day.checked_sub(from_day)?))
        }
        Expr::TrailingHours { hours } => Some(Period {
            start_ms: reference_ms.checked_sub(i64::from(hours).checked_mul(MS_PER_HOUR)?)?,
            end_ms: reference_ms,
        }),
        Expr::AroundYearsAgo { years_ago, days } => resolve(
            Expr::AroundMonthsAgo {
                months_ago: years_ago.checked_mul(12)?,
                days,
            },
            reference_ms,
        ),
        Expr::EarlierThan { unit, count } => {
            let then = DateTime::from_timestamp_millis(reference_ms)?.naive_utc();
            let then = match unit {
                Unit::Day => then.checked_sub_days(Days::new(u64::from(count)))?,
                Unit::Week => then.checked_sub_days(Days::new(7 * u64::from(count)))?,
                Unit::Month => then.checked_sub_months(Months::new(count))?,
                Unit::Year => then.checked_sub_months(Months::new(count.checked_mul(12)?))?,
            };
            Some(Period {
                start_ms: 0,
                end_ms: then.and_utc().timestamp_millis(),
            })
        }
        Expr::AroundMonthsAgo { months_ago, days } => {
            let then = today.checked_sub_months(Months::new(months_ago))?;
            day_span(back(then, u64::from(days))?, 2 * u64::from(days) + 1)
        }
        Expr::NthWeekdayMonthsAgo {
            nth,
            weekday,
            months_ago,
        } => {
            let month = today
                .with_day(1)?
                .checked_sub_months(Months::new(months_ago))?;
            day_span(nth_weekday(month.year(), month.month(), weekday, nth)?, 1)
        }
        Expr::Date { month, day, year } => day_span(date_of(today, month, day, year)?, 1),
        Expr::DateOnWeekday {
            month,
            day,
            year,
            weekday,
        } => {
            let date = date_of(today, month, day, year)?;
            (date.weekday().num_days_from_monday() == weekday)
                .then(|| day_span(date, 1))
                .flatten()
        }
        Expr::WeekOf { month, day, year } => {
            let monday_of =
                |date: NaiveDate| back(date, u64::from(date.weekday().num_days_from_monday()));
            let monday = match year {
                Some(year) => monday_of(NaiveDate::from_ymd_opt(year, month, day)?)?,
                // The latest such week that has begun (this week, for a day later in it).
                None => (0..=8)
                    .filter_map(|back| NaiveDate::from_ymd_opt(today.year() - back, month, day))
                    .filter_map(monday_of)
                    .find(|monday| *monday <= today)?,
            };
            day_span(monday, 7)
        }
        Expr::PartOfYear {
            year,
            years_ago,
            from_month,
            months,
        } => {
            let year = year.map_or(i64::from(today.year()) - i64::from(years_ago), i64::from);
            months_span(
                year.checked_mul(12)? + i64::from(from_month),
                i64::from(months),
            )
        }
        Expr::DaysOfYearAgo {
            years_ago,
            month,
            day,
            days,
        } => {
            let year = today.year().checked_sub(i32::try_from(years_ago).ok()?)?;
            day_span(NaiveDate::from_ymd_opt(year, month, day)?, u64::from(days))
        }
        Expr::FiscalYear { years_ago } => {
            // April (month 3 counted from 0) of the year the latest fiscal year began in.
            let begun = i64::from(today.year()) - i64::from(today.month() < 4);
            months_span((begun - i64::from(years_ago)).checked_mul(12)? + 3, 12)
        }
        Expr::NamedYear(year) => year_span(i64::from(year)),
        Expr::HoursAgo { hours } => {
            let hours = i64::from(hours);
            Some(Period {
                start_ms: reference_ms.checked_sub((hours + 1).checked_mul(MS_PER_HOUR)?)?,
                end_ms: reference_ms.checked_sub((hours - 1).checked_mul(MS_PER_HOUR)?)?,
            })
        }
        Expr::Season { season, ended } => {
            let current = month_index(today.year(), today.month());
            // The months since the season last started (0 to 11), back one more year when it
            // must be over and is not.
            let first = i64::from(3 + 3 * season) - 1;
            let mut since = (current - first).rem_euclid(12);
            if ended && since < 3 {
                since += 12;
            }
            months_span(current - since, 3)
        }
        Expr::Quarter { quarter } => {
            let current = month_index(today.year(), today.month());
            let first = i64::from(quarter.checked_sub(1)?) * 3;
            let since = (current - first).rem_euclid(12);
            months_span(current - since, 3)
        }
        Expr::QuarterAgo { quarters_ago } => {
            let current = month_index(today.year(), today.month());
            let start = current - current.rem_euclid(3) - 3 * i64::from(quarters_ago);
            months_span(start, 3)
        }
    }
}

/// The month named `month` (1 to 12) that starts first at or after `from_ms`, whole: the end
/// of a range "from March to May".
pub(super) fn month_from(from_ms: i64, month: u32) -> Option<Period> {
    let from = DateTime::from_timestamp_millis(from_ms)?.naive_utc().date();
    let first = from.with_day(1)?;
    let mut index = month_index(first.year(), first.month());
    if first < from {
        index += 1;
    }
    let since = (index - (i64::from(month) - 1)).rem_euclid(12);
    let ahead = if since == 0 { 0 } else { 12 - since };
    month_span(index + ahead)
}

/// The calendar year of the instant `ms`.
pub(super) fn year_of(ms: i64) -> Option<i32> {
    Some(DateTime::from_timestamp_millis(ms)?.naive_utc().year())
}

/// The year when `period` is exactly one calendar year.
pub(super) fn whole_year(period: Period) -> Option<i32> {
    let start = DateTime::from_timestamp_millis(period.start_ms)?.naive_utc();
    (year_span(i64::from(start.year()))? == period).then_some(start.year())
}

/// A holiday ([`Expr::DaysOfYear`], [`Expr::Feast`]) in `year` rather than the latest one
/// ("over Easter last year", "at Christmas 2024"); `None` for any other expression.
pub(super) fn holiday_in_year(expr: Expr, year: i32) -> Option<Period> {
    match expr {
        Expr::DaysOfYear { month, day, days } => {
            day_span(NaiveDate::from_ymd_opt(year, month, day)?, u64::from(days))
        }
        Expr::Feast {
            feast,
            offset,
            days,
        } => {
            let first = feast_day(feast, year)?
                .checked_add_signed(chrono::TimeDelta::days(i64::from(offset)))?;
            day_span(first, u64::from(days))
        }
        _ => None,
    }
}

/// A day, a part of a month or a month named without a year, in `year` rather than the latest
/// one ("on March 3 last year", "the first week of October 2025", "early May of last year");
/// `None` for any other expression, and for one that names its year already.
pub(super) fn placed_in_year(expr: Expr, year: i32) -> Option<Period> {
    let placed = match expr {
        Expr::Date {
            month,
            day,
            year: None,
        } => Expr::Date {
            month,
            day,
            year: Some(year),
        },
        Expr::DateOnWeekday {
            month,
            day,
            year: None,
            weekday,
        } => Expr::DateOnWeekday {
            month,
            day,
            year: Some(year),
            weekday,
        },
        Expr::WeekOf {
            month,
            day,
            year: None,
        } => Expr::WeekOf {
            month,
            day,
            year: Some(year),
        },
        Expr::PartOfMonth {
            month,
            year: None,
            from_day,
            to_day,
        } => Expr::PartOfMonth {
            month,
            year: Some(year),
            from_day,
            to_day,
        },
        Expr::NamedMonth { month, year: None } => Expr::NamedMonth {
            month,
            year: Some(year),
        },
        Expr::IsoWeek {
            week,
            year: None,
            years_ago: None,
        } => Expr::IsoWeek {
            week,
            year: Some(year),
            years_ago: None,
        },
        Expr::NthWeekdayOfMonth {
            nth,
            weekday,
            month,
            year: None,
        } => Expr::NthWeekdayOfMonth {
            nth,
            weekday,
            month,
            year: Some(year),
        },
        Expr::Season {
            season,
            ended: false,
        } => Expr::SeasonOfYear { season, year },
        Expr::Quarter { quarter } => Expr::PartOfYear {
            year: Some(year),
            years_ago: 0,
            from_month: 3 * (quarter - 1),
            months: 3,
        },
        // "2026年上半期", "2025年の年末": this year's part, or the latest begun, in that year.
        Expr::PartOfYear {
            year: None,
            years_ago: 0,
            from_month,
            months,
        }
        | Expr::LatestPartOfYear { from_month, months } => Expr::PartOfYear {
            year: Some(year),
            years_ago: 0,
            from_month,
            months,
        },
        _ => return holiday_in_year(expr, year),
    };
    // The expression names its year now: the reference no longer chooses one.
    resolve(placed, 0)
}

/// Saturday to Monday of the latest weekend that ends at or before `ms` ("the weekend before
/// Thanksgiving").
pub(super) fn weekend_ending_by(ms: i64) -> Option<Period> {
    let day = DateTime::from_timestamp_millis(ms)?.date_naive();
    // The latest Monday at or before `ms`'s day ends it.
    let monday = back(day, u64::from(day.weekday().num_days_from_monday()))?;
    day_span(back(monday, 2)?, 2)
}

/// The first weekend that starts at or after `ms` ("the weekend after Thanksgiving").
pub(super) fn weekend_starting_from(ms: i64) -> Option<Period> {
    let instant = DateTime::from_timestamp_millis(ms)?;
    let mut day = instant.date_naive();
    // A day already begun is passed.
    if start_ms(day) < ms {
        day = day.checked_add_days(Days::new(1))?;
    }
    let to_saturday = (5 + 7 - day.weekday().num_days_from_monday()) % 7;
    day_span(day.checked_add_days(Days::new(u64::from(to_saturday)))?, 2)
}

/// The month of the year (1 to 12) when `period` is exactly one calendar month.
pub(super) fn whole_month(period: Period) -> Option<u32> {
    let start = DateTime::from_timestamp_millis(period.start_ms)?.naive_utc();
    let index = month_index(start.year(), start.month());
    (month_span(index)? == period).then_some(start.month())
}

/// Days `from_day` to `to_day` (both included) of the month `period` lies in, when `period` is
/// that month whole or its day `from_day` alone ("March 3-5", "March 3 to 5"): `None` when
/// the days are not in order or not in the month.
pub(super) fn days_in_month_of(period: Period, from_day: u32, to_day: u32) -> Option<Period> {
    let start = DateTime::from_timestamp_millis(period.start_ms)?.naive_utc();
    let month = start.date().with_day(1)?;
    let whole = whole_month(period).is_some();
    let that_day = start.time() == chrono::NaiveTime::MIN
        && start.day() == from_day
        && period.end_ms - period.start_ms == 86_400_000;
    if !(whole || that_day) || from_day == 0 || to_day <= from_day {
        return None;
    }
    let first = month.with_day(from_day)?;
    let last = month.with_day(to_day)?;
    day_span(first, u64::from(to_day - from_day) + 1).filter(|_| last.month() == month.month())
}

/// The month named `month` (1 to 12) that starts last at or before `until_ms`, whole: the
/// start of a range "from March until May" whose end starts at `until_ms`.
pub(super) fn month_until(until_ms: i64, month: u32) -> Option<Period> {
    let until = DateTime::from_timestamp_millis(until_ms)?
        .naive_utc()
        .date();
    let index = month_index(until.year(), until.month());
    let since = (index - (i64::from(month) - 1)).rem_euclid(12);
    month_span(index - since)
}

/// Day `day` of `month` in `year`, or else the latest such day at or before `today` (February
/// 29 may be eight years back); `None` when no such day exists.
fn date_of(today: NaiveDate, month: u32, day: u32, year: Option<i32>) -> Option<NaiveDate> {
    match year {
        Some(year) => NaiveDate::from_ymd_opt(year, month, day),
        None => (0..=8)
            .filter_map(|back| NaiveDate::from_ymd_opt(today.year() - back, month, day))
            .find(|date| *date <= today),
    }
}

/// `period`, whole months, `years` years earlier.
fn years_earlier(period: Period, years: u32) -> Option<Period> {
    let months = Months::new(years.checked_mul(12)?);
    let shift = |ms: i64| -> Option<i64> {
        let date = DateTime::from_timestamp_millis(ms)?.date_naive();
        Some(start_ms(date.checked_sub_months(months)?))
    };
    Some(Period {
        start_ms: shift(period.start_ms)?,
        end_ms: shift(period.end_ms)?,
    })
}

/// The `nth` (1 to 5; 0 is the last) `weekday` of `month` in `year`, if the month has it.
fn nth_weekday(year: i32, month: u32, weekday: Weekday, nth: u32) -> Option<NaiveDate> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let to_first = (weekday + 7 - first.weekday().num_days_from_monday()) % 7;
    let first_such = first.checked_add_days(Days::new(u64::from(to_first)))?;
    let day = match nth {
        0 => {
            let next_month = first.checked_add_months(Months::new(1))?;
            let weeks = (next_month - first_such).num_days().saturating_sub(1) / 7;
            first_such.checked_add_days(Days::new(7 * u64::try_from(weeks).ok()?))?
        }
        nth => first_such.checked_add_days(Days::new(7 * u64::from(nth - 1)))?,
    };
    (day.month() == month).then_some(day)
}

/// The day `feast` falls on in `year`.
fn feast_day(feast: Feast, year: i32) -> Option<NaiveDate> {
    match feast {
        Feast::Easter => {
            // The Gregorian computus (the anonymous algorithm of 1876, as given by Meeus).
            let a = year % 19;
            let b = year / 100;
            let c = year % 100;
            let d = b / 4;
            let e = b % 4;
            let f = (b + 8) / 25;
            let g = (b - f + 1) / 3;
            let h = (19 * a + b - d - g + 15) % 30;
            let i = c / 4;
            let k = c % 4;
            let l = (32 + 2 * e + 2 * i - h - k) % 7;
            let m = (a + 11 * h + 22 * l) / 451;
            let month = (h + l - 7 * m + 114) / 31;
            let day = (h + l - 7 * m + 114) % 31 + 1;
            NaiveDate::from_ymd_opt(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?)
        }
        Feast::Thanksgiving => {
            let first = NaiveDate::from_ymd_opt(year, 11, 1)?;
            // Thursday is 3 days after Monday.
            let to_thursday = (3 + 7 - first.weekday().num_days_from_monday()) % 7;
            first.checked_add_days(Days::new(u64::from(to_thursday) + 21))
        }
        Feast::MemorialDay => {
            let last = NaiveDate::from_ymd_opt(year, 5, 31)?;
            back(last, u64::from(last.weekday().num_days_from_monday()))
        }
        Feast::LaborDay => {
            let first = NaiveDate::from_ymd_opt(year, 9, 1)?;
            let to_monday = (7 - first.weekday().num_days_from_monday()) % 7;
            first.checked_add_days(Days::new(u64::from(to_monday)))
        }
        // The Hebrew year that begins in the autumn of `year` is `year + 3761`; Passover falls
        // 163 days before its new year (the months Nisan to Elul have fixed lengths).
        Feast::Passover => fixed_date(hebrew_new_year(i64::from(year) + 3761)? - 163),
        Feast::RoshHashanah => fixed_date(hebrew_new_year(i64::from(year) + 3761)?),
        Feast::Hanukkah => {
            let new_year = hebrew_new_year(i64::from(year) + 3761)?;
            let length = hebrew_new_year(i64::from(year) + 3762)? - new_year;
            // Tishrei has 30 days; Heshvan 30 in a complete year (355 or 385 days), else 29.
            let heshvan = if length % 10 == 5 { 30 } else { 29 };
            fixed_date(new_year + 30 + heshvan + 24)
        }
    }
}

/// The first day of month `month` (1 Tishrei … 12 Elul) of Hebrew year `year` and its number
/// of days; Adar holds both Adars in a leap year.
fn hebrew_month(year: i64, month: u32) -> Option<(NaiveDate, u64)> {
    let new_year = hebrew_new_year(year)?;
    let length = hebrew_new_year(year + 1)? - new_year;
    let leap = length > 380;
    // Heshvan has 30 days in a complete year (355 or 385 days), Kislev 29 in a deficient one
    // (353 or 383); from Tevet on the lengths are fixed.
    let lengths = [
        30,
        if length % 10 == 5 { 30 } else { 29 },
        if length % 10 == 3 { 29 } else { 30 },
        29,
        30,
        if leap { 59 } else { 29 },
        30,
        29,
        30,
        29,
        30,
        29,
    ];
    let index = usize::try_from(month.checked_sub(1)?).ok()?;
    let days = *lengths.get(index)?;
    let before: i64 = lengths[..index].iter().sum();
    Some((fixed_date(new_year + before)?, u64::try_from(days).ok()?))
}

/// The day numbered `fixed` counting January 1 of the year 1 as day 1.
fn fixed_date(fixed: i64) -> Option<NaiveDate> {
    NaiveDate::from_num_days_from_ce_opt(i32::try_from(fixed).ok()?)
}

/// Days from the Hebrew calendar's epoch to the new year of Hebrew year `year`, before the
/// postponements that keep the year's length legal: the new moon of Tishrei (the molad,
/// counted in parts, 25,920 a day) moved a day when the new year would fall on a Sunday,
/// Wednesday or Friday. The arithmetic calendar as Dershowitz and Reingold give it.
fn hebrew_elapsed_days(year: i64) -> i64 {
    let months = (235 * year - 234).div_euclid(19);
    let parts = 12_084 + 13_753 * months;
    let days = 29 * months + parts.div_euclid(25_920);
    if (3 * (days + 1)).rem_euclid(7) < 3 {
        days + 1
    } else {
        days
    }
}

/// The fixed day ([`fixed_date`]) of 1 Tishrei of Hebrew year `year`, within the years chrono
/// can represent.
fn hebrew_new_year(year: i64) -> Option<i64> {
    // 1 Tishrei of the year 1: October 7, 3761 BCE of the Julian calendar.
    const EPOCH: i64 = -1_373_427;
    if !(3_000..=10_000).contains(&year) {
        return None;
    }
    let (before, this, after) = (
        hebrew_elapsed_days(year - 1),
        hebrew_elapsed_days(year),
        hebrew_elapsed_days(year + 1),
    );
    // A year may be neither 356 days long nor a leap year of 382: the new year moves on.
    let correction = if after - this == 356 {
        2
    } else if this - before == 382 {
        1
    } else {
        0
    };
    Some(EPOCH + this + correction)
}

/// The month index ([`month_index`]) of `month` in `year`, or else of the latest such month
/// that starts at or before `today`.
fn named_month_index(today: NaiveDate, month: u32, year: Option<i32>) -> Option<i64> {
    let year = i64::from(year.unwrap_or_else(|| {
        if month <= today.month() {
            today.year()
        } else {
            today.year() - 1
        }
    }));
    Some(year.checked_mul(12)? + i64::from(month) - 1)
}

/// The three months of `season` (0 spring … 3 winter) in `year`.
fn season_span(year: i64, season: u32) -> Option<Period> {
    months_span(year.checked_mul(12)? + 2 + 3 * i64::from(season), 3)
}

/// `days` whole days from the start of `first`.
fn day_span(first: NaiveDate, days: u64) -> Option<Period> {
    let end = first.checked_add_days(Days::new(days))?;
    Some(Period {
        start_ms: start_ms(first),
        end_ms: start_ms(end),
    })
}

/// Days `from_day` (1-based) to `to_day` (exclusive, clamped to the month's end) of the month
/// of `index` ([`month_index`]).
fn days_of_month(index: i64, from_day: u32, to_day: u32) -> Option<(NaiveDate, NaiveDate)> {
    let first = month_start(index)?;
    let next = first.checked_add_months(Months::new(1))?;
    let day = |n: u32| -> Option<NaiveDate> {
        let date = first.checked_add_days(Days::new(u64::from(n.checked_sub(1)?)))?;
        Some(date.min(next))
    };
    Some((day(from_day)?, day(to_day)?))
}

fn back(date: NaiveDate, days: u64) -> Option<NaiveDate> {
    date.checked_sub_days(Days::new(days))
}

/// The Monday that starts the ISO week `weeks_ago` weeks before `today`'s.
fn week_start(today: NaiveDate, weeks_ago: u32) -> Option<NaiveDate> {
    let days = u64::from(today.weekday().num_days_from_monday()) + 7 * u64::from(weeks_ago);
    back(today, days)
}

/// Months since year 0, January: `year * 12 + month - 1`.
fn month_index(year: i32, month: u32) -> i64 {
    i64::from(year) * 12 + i64::from(month) - 1
}

fn month_span(index: i64) -> Option<Period> {
    months_span(index, 1)
}

/// `months` calendar months from the one of `index`.
fn months_span(index: i64, months: i64) -> Option<Period> {
    let first = month_start(index)?;
    let next = month_start(index.checked_add(months)?)?;
    Some(Period {
        start_ms: start_ms(first),
        end_ms: start_ms(next),
    })
}

fn month_start(index: i64) -> Option<NaiveDate> {
    let year = i32::try_from(index.div_euclid(12)).ok()?;
    let month = u32::try_from(index.rem_euclid(12)).ok()? + 1;
    NaiveDate::from_ymd_opt(year, month, 1)
}

fn year_span(year: i64) -> Option<Period> {
    let first = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, 1, 1)?;
    let next = NaiveDate::from_ymd_opt(i32::try_from(year.checked_add(1)?).ok()?, 1, 1)?;
    Some(Period {
        start_ms: start_ms(first),
        end_ms: start_ms(next),
    })
}

/// Milliseconds since the epoch at 00:00 UTC of `date`.
fn start_ms(date: NaiveDate) -> i64 {
    NaiveDateTime::from(date).and_utc().timestamp_millis()
}

/// The number of days a month can have in some year (February: 29).
pub(super) fn max_day(month: u32) -> u32 {
    match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hebrew_months_begin_on_their_published_days() {
        // (Hebrew year, month, first day, days): Rosh Hodesh as published, and Adar of the
        // leap year 5784 holding both Adars.
        let published = [
            (5786, 6, (2026, 2, 18), 29),
            (5786, 7, (2026, 3, 19), 30),
            (5786, 11, (2026, 7, 15), 30),
            (5786, 12, (2026, 8, 14), 29),
            (5787, 1, (2026, 9, 12), 30),
            (5787, 3, (2026, 11, 11), 30),
            (5787, 4, (2026, 12, 11), 29),
            (5784, 6, (2024, 2, 10), 59),
            (5784, 7, (2024, 4, 9), 30),
        ];
        for (year, month, (y, m, d), days) in published {
            assert_eq!(
                hebrew_month(year, month),
                Some((NaiveDate::from_ymd_opt(y, m, d).unwrap(), days)),
                "{year} {month}"
            );
        }
        // Twelve months, each after the last, make a whole year.
        for year in 5700..5900 {
            let mut next = hebrew_month(year, 1).unwrap().0;
            for month in 1..=12 {
                let (first, days) = hebrew_month(year, month).unwrap();
                assert_eq!(first, next, "{year} {month}");
                next = first + Days::new(days);
            }
            assert_eq!(next, hebrew_month(year + 1, 1).unwrap().0, "{year}");
        }
        assert_eq!(hebrew_month(5786, 0), None);
        assert_eq!(hebrew_month(5786, 13), None);
    }

    /// Published first days (the day after the evening each begins): Passover (15 Nisan),
    /// Rosh Hashanah (1 Tishrei), Hanukkah (25 Kislev).
    #[test]
    fn hebrew_feasts_fall_on_their_published_days() {
        let published = [
            (
                Feast::Passover,
                [
                    (2000, 4, 20),
                    (2023, 4, 6),
                    (2024, 4, 23),
                    (2025, 4, 13),
                    (2026, 4, 2),
                    (2027, 4, 22),
                ],
            ),
            (
                Feast::RoshHashanah,
                [
                    (2000, 9, 30),
                    (2023, 9, 16),
                    (2024, 10, 3),
                    (2025, 9, 23),
                    (2026, 9, 12),
                    (2027, 10, 2),
                ],
            ),
            (
                Feast::Hanukkah,
                [
                    (2000, 12, 22),
                    (2022, 12, 19),
                    (2023, 12, 8),
                    (2024, 12, 26),
                    (2025, 12, 15),
                    (2026, 12, 5),
                ],
            ),
        ];
        for (feast, days) in published {
            for (year, month, day) in days {
                assert_eq!(
                    feast_day(feast, year),
                    NaiveDate::from_ymd_opt(year, month, day),
                    "{feast:?} {year}"
                );
            }
        }
        // Outside the years the arithmetic is kept to: no day, no panic.
        assert_eq!(feast_day(Feast::Passover, -262_000), None);
        assert_eq!(feast_day(Feast::Hanukkah, 262_000), None);
    }

    #[test]
    fn feasts_fall_on_their_published_days() {
        let easter = [
            (1818, 3, 22),
            (1943, 4, 25),
            (2000, 4, 23),
            (2019, 4, 21),
            (2024, 3, 31),
            (2025, 4, 20),
            (2026, 4, 5),
            (2038, 4, 25),
        ];
        for (year, month, day) in easter {
            assert_eq!(
                feast_day(Feast::Easter, year),
                NaiveDate::from_ymd_opt(year, month, day),
                "Easter {year}"
            );
        }
        for (feast, month, days) in [
            (Feast::MemorialDay, 5, [(2024, 27), (2025, 26), (2026, 25)]),
            (Feast::LaborDay, 9, [(2024, 2), (2025, 1), (2026, 7)]),
        ] {
            for (year, day) in days {
                assert_eq!(
                    feast_day(feast, year),
                    NaiveDate::from_ymd_opt(year, month, day),
                    "{feast:?} {year}"
                );
            }
        }
        let thanksgiving = [(2024, 28), (2025, 27), (2026, 26), (2027, 25), (2029, 22)];
        for (year, day) in thanksgiving {
            assert_eq!(
                feast_day(Feast::Thanksgiving, year),
                NaiveDate::from_ymd_opt(year, 11, day),
                "Thanksgiving {year}"
            );
        }
    }
}

//! Instants in UTC with millisecond precision, and their wire format.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Error;

const MILLIS_PER_SECOND: i64 = 1_000;
const MILLIS_PER_DAY: i64 = 86_400_000;

/// An instant: milliseconds since 1970-01-01T00:00:00Z.
///
/// The range is years 0000–9999 (UTC), the range RFC 3339 can write; arithmetic saturates at its
/// ends. Displayed and serialized as `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` only when the
/// milliseconds are not zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        value_type = String,
        format = DateTime,
        description = "An RFC 3339 instant in UTC with millisecond precision, such as 2026-01-01T12:00:00Z or 2026-01-01T12:00:00.250Z"
    )
)]
pub struct Timestamp(i64);

impl Timestamp {
    /// 0000-01-01T00:00:00Z.
    pub const MIN: Timestamp = Timestamp(-62_167_219_200_000);
    /// 9999-12-31T23:59:59.999Z.
    pub const MAX: Timestamp = Timestamp(253_402_300_799_999);
    /// 1970-01-01T00:00:00Z.
    pub const UNIX_EPOCH: Timestamp = Timestamp(0);

    /// The instant `millis` milliseconds after the Unix epoch; refused outside [`MIN`](Self::MIN)
    /// ..= [`MAX`](Self::MAX).
    pub fn from_millis(millis: i64) -> Result<Self, Error> {
        if (Self::MIN.0..=Self::MAX.0).contains(&millis) {
            Ok(Timestamp(millis))
        } else {
            Err(Error::InvalidTimestamp("outside years 0000-9999"))
        }
    }

    /// Like [`from_millis`](Self::from_millis), clamping to the range instead of refusing.
    pub fn from_millis_saturating(millis: i64) -> Self {
        Timestamp(millis.clamp(Self::MIN.0, Self::MAX.0))
    }

    /// The instant `seconds` seconds after the Unix epoch (saturating).
    pub fn from_unix_seconds(seconds: i64) -> Self {
        Self::from_millis_saturating(seconds.saturating_mul(MILLIS_PER_SECOND))
    }

    /// The system clock's current instant. Library code takes time from the host's clock
    /// instead; this is for hosts and tools.
    pub fn now() -> Self {
        Self::from_millis_saturating(Utc::now().timestamp_millis())
    }

    /// Milliseconds since the Unix epoch.
    pub const fn as_millis(self) -> i64 {
        self.0
    }

    /// The millisecond part within the second (0–999).
    pub const fn subsec_millis(self) -> u16 {
        self.0.rem_euclid(MILLIS_PER_SECOND) as u16
    }

    /// Parses any RFC 3339 timestamp (with `Z` or a numeric offset); sub-millisecond digits are
    /// truncated toward the past.
    pub fn parse(s: &str) -> Result<Self, Error> {
        let parsed =
            DateTime::parse_from_rfc3339(s).map_err(|_| Error::InvalidTimestamp("not RFC 3339"))?;
        Self::from_millis(parsed.timestamp_millis())
    }

    /// This instant plus `millis` milliseconds (saturating).
    pub fn plus_millis(self, millis: i64) -> Self {
        Self::from_millis_saturating(self.0.saturating_add(millis))
    }

    /// This instant minus `millis` milliseconds (saturating).
    pub fn minus_millis(self, millis: i64) -> Self {
        Self::from_millis_saturating(self.0.saturating_sub(millis))
    }

    /// This instant plus `seconds` seconds (saturating).
    pub fn plus_seconds(self, seconds: i64) -> Self {
        self.plus_millis(seconds.saturating_mul(MILLIS_PER_SECOND))
    }

    /// This instant minus `seconds` seconds (saturating).
    pub fn minus_seconds(self, seconds: i64) -> Self {
        self.minus_millis(seconds.saturating_mul(MILLIS_PER_SECOND))
    }

    /// This instant plus `days` days of 86,400 s (saturating).
    pub fn plus_days(self, days: i64) -> Self {
        self.plus_millis(days.saturating_mul(MILLIS_PER_DAY))
    }

    /// This instant minus `days` days of 86,400 s (saturating).
    pub fn minus_days(self, days: i64) -> Self {
        self.minus_millis(days.saturating_mul(MILLIS_PER_DAY))
    }

    /// Milliseconds from `earlier` to `self` (negative when `earlier` is later).
    pub const fn millis_since(self, earlier: Timestamp) -> i64 {
        // Both lie within MIN..=MAX, so the difference cannot overflow.
        self.0 - earlier.0
    }

    fn to_datetime(self) -> DateTime<Utc> {
        // The range invariant keeps every value representable; the fallback is never taken.
        DateTime::from_timestamp_millis(self.0).unwrap_or_default()
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dt = self.to_datetime();
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            dt.year(),
            dt.month(),
            dt.day(),
            dt.hour(),
            dt.minute(),
            dt.second()
        )?;
        let millis = self.subsec_millis();
        if millis != 0 {
            write!(f, ".{millis:03}")?;
        }
        f.write_str("Z")
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Timestamp::parse(s)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Timestamp::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_ends_format_with_four_digit_years() {
        assert_eq!(Timestamp::MIN.to_string(), "0000-01-01T00:00:00Z");
        assert_eq!(Timestamp::MAX.to_string(), "9999-12-31T23:59:59.999Z");
        assert_eq!(Timestamp::parse("0000-01-01T00:00:00Z"), Ok(Timestamp::MIN));
        assert_eq!(
            Timestamp::parse("9999-12-31T23:59:59.999Z"),
            Ok(Timestamp::MAX)
        );
    }

    #[test]
    fn offsets_leaving_the_range_are_refused() {
        assert!(Timestamp::parse("0000-01-01T00:00:00+01:00").is_err());
        assert!(Timestamp::parse("9999-12-31T23:59:59-01:00").is_err());
        assert!(Timestamp::from_millis(Timestamp::MAX.as_millis() + 1).is_err());
    }

    #[test]
    fn negative_millis_format_correctly() {
        let t = Timestamp::from_millis(-1).unwrap();
        assert_eq!(t.to_string(), "1969-12-31T23:59:59.999Z");
        assert_eq!(t.subsec_millis(), 999);
    }

    #[test]
    fn sub_millisecond_digits_truncate_toward_the_past() {
        let t = Timestamp::parse("2026-01-01T00:00:00.0019Z").unwrap();
        assert_eq!(t.to_string(), "2026-01-01T00:00:00.001Z");
        let t = Timestamp::parse("1969-12-31T23:59:59.9999Z").unwrap();
        assert_eq!(t.as_millis(), -1);
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Timestamp::MAX.plus_days(i64::MAX), Timestamp::MAX);
        assert_eq!(Timestamp::MIN.minus_seconds(1), Timestamp::MIN);
        assert_eq!(Timestamp::UNIX_EPOCH.minus_days(i64::MAX), Timestamp::MIN);
        assert_eq!(Timestamp::UNIX_EPOCH.plus_seconds(90).as_millis(), 90_000);
    }
}

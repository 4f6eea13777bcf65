//! The numeric limits of agent memories: rate, quota and request field bounds.
//!
//! Lengths are counted in Unicode scalar values (`str::chars`), never bytes.

/// Remembers accepted per credential within [`RATE_WINDOW_SECONDS`] (the spec: 120 remembers/hour/credential).
pub const RATE_LIMIT_PER_HOUR: usize = 120;
/// Length of the sliding rate-limit window.
pub const RATE_WINDOW_SECONDS: i64 = 3600;
/// Stored, unexpired memory versions per member per workspace.
pub const QUOTA_VERSIONS: u64 = 5000;

/// Shortest namespace.
pub const NAMESPACE_MIN_CHARS: usize = 1;
/// Longest namespace.
pub const NAMESPACE_MAX_CHARS: usize = 64;
/// Shortest memory text (counted before masking).
pub const TEXT_MIN_CHARS: usize = 1;
/// Longest memory text (counted before masking).
pub const TEXT_MAX_CHARS: usize = 1000;
/// Shortest key.
pub const KEY_MIN_CHARS: usize = 1;
/// Longest key.
pub const KEY_MAX_CHARS: usize = 120;
/// Shortest collection id.
pub const COLLECTION_ID_MIN_CHARS: usize = 1;
/// Longest collection id.
pub const COLLECTION_ID_MAX_CHARS: usize = 128;
/// Most citations in one remember, counted as sent (before duplicates collapse).
pub const CITATIONS_MAX: usize = 20;
/// Shortest cited passage id.
pub const PASSAGE_ID_MIN_CHARS: usize = 1;
/// Longest cited passage id.
pub const PASSAGE_ID_MAX_CHARS: usize = 128;
/// Shortest recall query.
pub const QUERY_MIN_CHARS: usize = 1;
/// Longest recall query.
pub const QUERY_MAX_CHARS: usize = 1000;
/// Smallest recall `limit`.
pub const RECALL_LIMIT_MIN: usize = 1;
/// Largest recall `limit`.
pub const RECALL_LIMIT_MAX: usize = 50;
/// Recall `limit` when absent.
pub const RECALL_LIMIT_DEFAULT: usize = 10;
/// Smallest list `limit` (agent list and the member's own list).
pub const LIST_LIMIT_MIN: usize = 1;
/// Largest list `limit`.
pub const LIST_LIMIT_MAX: usize = 100;
/// List `limit` when absent.
pub const LIST_LIMIT_DEFAULT: usize = 20;
/// Recall ranks at most this many of the most recent matching versions.
pub const RECALL_CANDIDATES_MAX: usize = 300;
/// Most items of one `rememberBatch`.
pub const REMEMBER_BATCH_MAX: usize = 100;
/// Longest memory id accepted in a forget or member delete (a generated id is 31 characters).
pub const MEMORY_ID_MAX_CHARS: usize = 128;
/// Longest list cursor accepted; the cursor's content is the facade's to check. The bound only
/// keeps an oversized value from reaching the decoder.
pub const CURSOR_MAX_CHARS: usize = 4096;

/// The limits a host sets on a service (`MemoryServiceBuilder::limits` in the facade); each
/// defaults to the contract's value, and [`Limits::check`] holds each to its documented bounds.
///
/// The text length and the retention bounds may only be tightened: the contract's 1,000
/// characters and 1–365 days are the ceilings, because the request rules, the fences and the
/// stored formats are sized for them. The rate limit and the quota may go either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Limits {
    /// Accepted remembers per credential in a sliding hour: 1–1,000,000 (default 120).
    pub remembers_per_hour: u32,
    /// Stored, unexpired versions per member per workspace: 1–1,000,000 (default 5,000).
    pub versions_per_member: u64,
    /// Longest memory text, counted before masking: 1–1,000 (default 1,000).
    pub text_max_chars: u16,
    /// Shortest retention a workspace may set: 1–365 (default 1).
    pub retention_min_days: u16,
    /// Longest retention a workspace may set, and the longest that applies: 1–365 (default
    /// 365). A workspace whose recorded retention is longer keeps memories this long only.
    pub retention_max_days: u16,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::CONTRACT
    }
}

/// Why a [`Limits`] value is refused: the field and its bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} must be from {min} to {max}")]
pub struct InvalidLimits {
    /// The field, as `config.json` names it.
    pub field: &'static str,
    /// Its smallest value.
    pub min: u64,
    /// Its largest value.
    pub max: u64,
}

impl Limits {
    /// The contract's values.
    pub const CONTRACT: Limits = Limits {
        remembers_per_hour: RATE_LIMIT_PER_HOUR as u32,
        versions_per_member: QUOTA_VERSIONS,
        text_max_chars: TEXT_MAX_CHARS as u16,
        retention_min_days: 1,
        retention_max_days: 365,
    };

    /// The largest rate limit and quota a host may set.
    pub const MAX_BUDGET: u64 = 1_000_000;

    /// Each value within its bounds, and the retention bounds in order.
    pub fn check(&self) -> Result<(), InvalidLimits> {
        let within = |field, value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(InvalidLimits { field, min, max })
            }
        };
        within(
            "remembersPerHour",
            u64::from(self.remembers_per_hour),
            1,
            Self::MAX_BUDGET,
        )?;
        within(
            "versionsPerMember",
            self.versions_per_member,
            1,
            Self::MAX_BUDGET,
        )?;
        within(
            "textMaxChars",
            u64::from(self.text_max_chars),
            1,
            TEXT_MAX_CHARS as u64,
        )?;
        within(
            "retentionMaxDays",
            u64::from(self.retention_max_days),
            1,
            365,
        )?;
        within(
            "retentionMinDays",
            u64::from(self.retention_min_days),
            1,
            u64::from(self.retention_max_days),
        )
    }

    /// The retention that applies to a workspace whose settings record `days`: `days` brought
    /// into this service's bounds.
    pub fn retention_days(&self, days: u16) -> u16 {
        days.clamp(self.retention_min_days, self.retention_max_days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_contracts_and_pass_their_own_check() {
        assert_eq!(Limits::default(), Limits::CONTRACT);
        assert_eq!(Limits::default().check(), Ok(()));
        let json = serde_json::to_value(Limits::default()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"remembersPerHour": 120, "versionsPerMember": 5000,
                "textMaxChars": 1000, "retentionMinDays": 1, "retentionMaxDays": 365})
        );
        let partial: Limits = serde_json::from_str(r#"{"remembersPerHour": 10}"#).unwrap();
        assert_eq!(partial.remembers_per_hour, 10);
        assert_eq!(partial.versions_per_member, 5000);
    }

    #[test]
    fn values_outside_their_bounds_are_refused_by_name() {
        let refused = |limits: Limits| limits.check().unwrap_err().field;
        let base = Limits::default();
        assert_eq!(
            refused(Limits {
                remembers_per_hour: 0,
                ..base
            }),
            "remembersPerHour"
        );
        assert_eq!(
            refused(Limits {
                versions_per_member: Limits::MAX_BUDGET + 1,
                ..base
            }),
            "versionsPerMember"
        );
        assert_eq!(
            refused(Limits {
                text_max_chars: 1001,
                ..base
            }),
            "textMaxChars"
        );
        assert_eq!(
            refused(Limits {
                retention_min_days: 40,
                retention_max_days: 30,
                ..base
            }),
            "retentionMinDays"
        );
        assert_eq!(
            refused(Limits {
                retention_max_days: 366,
                ..base
            }),
            "retentionMaxDays"
        );
    }

    #[test]
    fn recorded_retention_is_brought_into_the_bounds() {
        let limits = Limits {
            retention_min_days: 7,
            retention_max_days: 30,
            ..Limits::default()
        };
        assert_eq!(limits.retention_days(365), 30);
        assert_eq!(limits.retention_days(1), 7);
        assert_eq!(limits.retention_days(14), 14);
    }
}

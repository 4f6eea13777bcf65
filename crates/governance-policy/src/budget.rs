//! Write budgets: the sliding-hour rate limit of remember (step 11) and the version quota
//! (step 12).

use memory_core::{ApiError, ErrorCode, Timestamp};

use crate::limits::RATE_WINDOW_SECONDS;

const WINDOW_MILLIS: i64 = RATE_WINDOW_SECONDS * 1000;

/// The start of the rate window at `now`: `now − 3600 s`. An accept at instant `a` counts while
/// `a > window_start(now)` (the start itself is outside).
pub fn window_start(now: Timestamp) -> Timestamp {
    now.minus_seconds(RATE_WINDOW_SECONDS)
}

/// Seconds until the accept at `oldest` stops counting: `ceil(oldest + 3600 s − now)`, at least 1.
pub fn retry_after_seconds(oldest: Timestamp, now: Timestamp) -> u64 {
    let millis = oldest.millis_since(now).saturating_add(WINDOW_MILLIS);
    // Ceiling division for a positive numerator; anything not positive becomes the minimum 1.
    let seconds = if millis > 0 { (millis + 999) / 1000 } else { 1 };
    u64::try_from(seconds).unwrap_or(1).max(1)
}

/// Step 11 of remember: with `per_hour` accepts (the contract: 120) counted in the window, the
/// next remember →
/// `429 AGENT_MEMORY_RATE_LIMITED` with `retryAfterSeconds = ceil(oldest counted + 3600 s − now)`.
///
/// `accepted` holds the member's accepted remembers (any order; entries at or before
/// [`window_start`] are ignored, so the caller may pass a superset). Refused requests and forgets
/// must not be in it.
pub fn check_rate(accepted: &[Timestamp], now: Timestamp, per_hour: u32) -> Result<(), ApiError> {
    let start = window_start(now);
    let mut counted = 0usize;
    let mut oldest = Timestamp::MAX;
    for &a in accepted.iter().filter(|&&a| a > start) {
        counted += 1;
        oldest = oldest.min(a);
    }
    if counted < per_hour as usize {
        Ok(())
    } else {
        Err(ApiError::rate_limited(retry_after_seconds(oldest, now)))
    }
}

/// Step 12 of remember: `stored_versions` is the member's count of stored, unexpired versions in
/// the workspace (all namespaces, superseded and hidden ones included); a write that would take it
/// above `quota` (the contract: 5,000) → `409 AGENT_MEMORY_FULL`.
pub fn check_quota(stored_versions: u64, quota: u64) -> Result<(), ApiError> {
    if stored_versions < quota {
        Ok(())
    } else {
        Err(ErrorCode::AgentMemoryFull.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{QUOTA_VERSIONS, RATE_LIMIT_PER_HOUR};

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        let now = t("2026-01-01T01:00:00Z");
        assert_eq!(retry_after_seconds(t("2026-01-01T00:00:00.001Z"), now), 1);
        assert_eq!(retry_after_seconds(t("2026-01-01T00:00:01Z"), now), 1);
        assert_eq!(retry_after_seconds(t("2026-01-01T00:00:01.001Z"), now), 2);
        assert_eq!(retry_after_seconds(t("2026-01-01T00:30:00Z"), now), 1800);
        // Not in the window at all: still at least one second.
        assert_eq!(retry_after_seconds(t("2025-01-01T00:00:00Z"), now), 1);
    }

    #[test]
    fn window_start_is_excluded() {
        let now = t("2026-01-01T01:00:00Z");
        let at_start = vec![window_start(now); RATE_LIMIT_PER_HOUR];
        assert!(check_rate(&at_start, now, RATE_LIMIT_PER_HOUR as u32).is_ok());
        let inside = vec![now; 3];
        assert!(check_rate(&inside, now, 4).is_ok());
        assert_eq!(
            check_rate(&inside, now, 3).unwrap_err().code(),
            ErrorCode::AgentMemoryRateLimited
        );
    }

    #[test]
    fn quota_boundary() {
        assert!(check_quota(QUOTA_VERSIONS - 1, QUOTA_VERSIONS).is_ok());
        assert_eq!(
            check_quota(QUOTA_VERSIONS, QUOTA_VERSIONS)
                .unwrap_err()
                .code(),
            ErrorCode::AgentMemoryFull
        );
        assert_eq!(
            check_quota(u64::MAX, QUOTA_VERSIONS)
                .unwrap_err()
                .http_status(),
            409
        );
        assert!(check_quota(9, 10).is_ok() && check_quota(10, 10).is_err());
    }
}

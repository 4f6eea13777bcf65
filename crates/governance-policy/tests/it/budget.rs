//! Steps 11–12 (rate limit and quota), retention and the effective `asOf`.

use governance_policy::{
    QUOTA_VERSIONS, RATE_LIMIT_PER_HOUR, RATE_WINDOW_SECONDS, check_quota, check_rate,
    effective_as_of, expired_cutoff, window_start,
};
use memory_core::{ErrorCode, Timestamp};
use proptest::prelude::*;

/// The contract's rate limit, as the service passes it.
const RATE: u32 = RATE_LIMIT_PER_HOUR as u32;

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn the_121st_remember_in_an_hour_is_refused() {
    let start = t("2026-01-01T10:00:00Z");
    // One accept every 10 s: 120 accepts span 1,190 s.
    let accepts: Vec<Timestamp> = (0..RATE_LIMIT_PER_HOUR as i64)
        .map(|i| start.plus_seconds(i * 10))
        .collect();
    let now = start.plus_seconds(1200);
    assert!(
        check_rate(&accepts[..RATE_LIMIT_PER_HOUR - 1], now, RATE).is_ok(),
        "the 120th is accepted"
    );

    let err = check_rate(&accepts, now, RATE).unwrap_err();
    assert_eq!(
        (err.code(), err.http_status()),
        (ErrorCode::AgentMemoryRateLimited, 429)
    );
    // The oldest counted accept (10:00:00) leaves the window at 11:00:00.
    assert_eq!(err.retry_after_seconds(), Some(3600 - 1200));
    let body = serde_json::to_value(&err).unwrap();
    assert_eq!(body["error"]["retryAfterSeconds"], 3600 - 1200);

    // At 11:00:00 the oldest no longer counts (a > now − 3600 s is false).
    assert!(check_rate(&accepts, start.plus_seconds(RATE_WINDOW_SECONDS), RATE).is_ok());
    assert!(
        check_rate(
            &accepts,
            start.plus_seconds(RATE_WINDOW_SECONDS).minus_millis(1),
            RATE
        )
        .is_err()
    );
}

#[test]
fn retry_after_rounds_up_and_is_at_least_one() {
    let now = t("2026-01-01T11:00:00Z");
    let oldest = t("2026-01-01T10:00:00.250Z");
    let mut accepts = vec![oldest];
    accepts.extend(std::iter::repeat_n(now, RATE_LIMIT_PER_HOUR - 1));
    assert_eq!(
        check_rate(&accepts, now, RATE)
            .unwrap_err()
            .retry_after_seconds(),
        Some(1)
    );
    let oldest = t("2026-01-01T10:00:01.001Z");
    accepts[0] = oldest;
    assert_eq!(
        check_rate(&accepts, now, RATE)
            .unwrap_err()
            .retry_after_seconds(),
        Some(2)
    );
}

#[test]
fn accepts_outside_the_window_do_not_count() {
    let now = t("2026-01-01T11:00:00Z");
    let mut accepts = vec![window_start(now); 500];
    accepts.extend(std::iter::repeat_n(now, RATE_LIMIT_PER_HOUR - 1));
    assert!(check_rate(&accepts, now, RATE).is_ok());
    assert_eq!(window_start(now), t("2026-01-01T10:00:00Z"));
}

proptest! {
    #[test]
    fn waiting_retry_after_is_enough_and_one_second_less_is_not(
        offsets in proptest::collection::vec(0i64..3_600_000, RATE_LIMIT_PER_HOUR..=RATE_LIMIT_PER_HOUR + 30),
        now_ms in 1_700_000_000_000i64..1_800_000_000_000,
    ) {
        let now = Timestamp::from_millis(now_ms).unwrap();
        // Offsets back from now, all strictly inside the window.
        let accepts: Vec<Timestamp> = offsets.iter().map(|o| now.minus_millis(*o)).collect();
        let err = check_rate(&accepts, now, RATE).unwrap_err();
        let retry = err.retry_after_seconds().unwrap();
        prop_assert!(retry >= 1);
        prop_assert!(retry <= RATE_WINDOW_SECONDS as u64);
        // The window only frees up as accepts age out: check with exactly 120 kept (newest).
        let mut newest = accepts.clone();
        newest.sort();
        let newest = &newest[newest.len() - RATE_LIMIT_PER_HOUR..];
        let retry = check_rate(newest, now, RATE).unwrap_err().retry_after_seconds().unwrap();
        prop_assert!(check_rate(newest, now.plus_seconds(retry as i64), RATE).is_ok());
        if retry > 1 {
            prop_assert!(check_rate(newest, now.plus_seconds(retry as i64 - 1), RATE).is_err());
        }
    }
}

#[test]
fn quota_allows_the_5000th_version_and_refuses_the_5001st() {
    assert!(check_quota(0, QUOTA_VERSIONS).is_ok());
    assert!(check_quota(QUOTA_VERSIONS - 1, QUOTA_VERSIONS).is_ok());
    let err = check_quota(QUOTA_VERSIONS, QUOTA_VERSIONS).unwrap_err();
    assert_eq!(
        (err.code(), err.http_status()),
        (ErrorCode::AgentMemoryFull, 409)
    );
}

#[test]
fn retention_cutoff_is_inclusive() {
    let now = t("2026-04-01T00:00:00Z");
    let cutoff = expired_cutoff(now, 90);
    assert_eq!(cutoff, t("2026-01-01T00:00:00Z"));
    // created_at ≤ cutoff is expired; one millisecond later is not.
    let expired = |created: Timestamp| created <= cutoff;
    assert!(expired(t("2026-01-01T00:00:00Z")));
    assert!(!expired(t("2026-01-01T00:00:00.001Z")));
}

#[test]
fn as_of_in_the_future_reads_at_now() {
    let now = t("2026-01-01T00:00:00Z");
    assert_eq!(effective_as_of(Some(t("2030-01-01T00:00:00Z")), now), now);
    assert_eq!(
        effective_as_of(Some(t("2025-06-01T00:00:00Z")), now),
        t("2025-06-01T00:00:00Z")
    );
    assert_eq!(effective_as_of(None, now), now);
}

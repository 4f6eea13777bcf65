//! Time rules of reads: retention expiry (always judged at now) and the effective `asOf`.

use memory_core::Timestamp;

/// The retention cutoff at `now`: a version is expired when `created_at ≤` this instant
/// (`now − retention_days` days of 86,400 s). Same rule as
/// [`memory_core::AgentMemory::is_expired`].
pub fn expired_cutoff(now: Timestamp, retention_days: u16) -> Timestamp {
    now.minus_days(i64::from(retention_days))
}

/// The instant a recall or list reads at: the requested `asOf`, or now when absent or in the
/// future.
pub fn effective_as_of(as_of: Option<Timestamp>, now: Timestamp) -> Timestamp {
    as_of.map_or(now, |t| t.min(now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn future_as_of_reads_at_now() {
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        assert_eq!(effective_as_of(None, now), now);
        assert_eq!(effective_as_of(Some(now.plus_seconds(5)), now), now);
        assert_eq!(
            effective_as_of(Some(now.minus_seconds(5)), now),
            now.minus_seconds(5)
        );
    }

    #[test]
    fn cutoff_matches_memory_expiry() {
        let now: Timestamp = "2026-04-01T00:00:00Z".parse().unwrap();
        assert_eq!(expired_cutoff(now, 90), now.minus_days(90));
        assert_eq!(expired_cutoff(now, 1).millis_since(now), -86_400_000);
    }
}

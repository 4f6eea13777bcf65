//! Timestamp wire format: `YYYY-MM-DDTHH:MM:SSZ`, `.mmm` only when non-zero, RFC 3339 input.

use memory_core::Timestamp;

#[test]
fn formats_with_and_without_millis() {
    let whole = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    assert_eq!(whole.to_string(), "2026-01-01T00:00:00Z");
    assert_eq!(
        serde_json::to_string(&whole).unwrap(),
        r#""2026-01-01T00:00:00Z""#
    );

    let with_millis = whole.plus_millis(7);
    assert_eq!(with_millis.to_string(), "2026-01-01T00:00:00.007Z");
    assert_eq!(
        whole.plus_millis(120).to_string(),
        "2026-01-01T00:00:00.120Z"
    );
    assert_eq!(
        serde_json::from_str::<Timestamp>(r#""2026-01-01T00:00:00.007Z""#).unwrap(),
        with_millis
    );
}

#[test]
fn parses_any_rfc3339_offset_into_utc() {
    let t = Timestamp::parse("2026-03-01T12:00:00+02:00").unwrap();
    assert_eq!(t.to_string(), "2026-03-01T10:00:00Z");
    let t = Timestamp::parse("2026-03-01T10:00:00.500-00:30").unwrap();
    assert_eq!(t.to_string(), "2026-03-01T10:30:00.500Z");
    assert_eq!(
        Timestamp::parse("2026-03-01T10:00:00.000Z")
            .unwrap()
            .to_string(),
        "2026-03-01T10:00:00Z"
    );
}

#[test]
fn refuses_invalid_timestamps() {
    for bad in [
        "",
        "2026-01-01",
        "2026-01-01T00:00:00",
        "2026-02-30T00:00:00Z",
        "2026-01-01T25:00:00Z",
        "2026-01-01T00:00:00+25:00",
        "yesterday",
        " 2026-01-01T00:00:00Z",
    ] {
        assert!(Timestamp::parse(bad).is_err(), "{bad:?} accepted");
        assert!(serde_json::from_str::<Timestamp>(&format!("{bad:?}")).is_err());
    }
    assert!(serde_json::from_str::<Timestamp>("1767225600000").is_err());
}

#[test]
fn orders_and_does_day_arithmetic() {
    let t = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    assert!(t < t.plus_millis(1));
    assert_eq!(t.minus_days(1).to_string(), "2025-12-31T00:00:00Z");
    assert_eq!(t.plus_seconds(3600).to_string(), "2026-01-01T01:00:00Z");
    assert_eq!(t.minus_seconds(1).millis_since(t), -1000);
    assert_eq!(Timestamp::from_unix_seconds(0), Timestamp::UNIX_EPOCH);
}

//! Opaque keyset cursors for list pagination.
//!
//! A cursor carries the position (the last returned version's `createdAt` and id), the filters
//! (the creation period included) and the effective `asOf` of the first page, so that later pages read the same snapshot and a
//! cursor cannot be replayed with other filters. It is hex-encoded JSON: opaque to callers, and
//! anything that does not decode exactly is a malformed cursor.

use agent_memory_ops::cursor::{from_opaque, to_opaque};
use memory_core::{AgentMemoryId, ApiError, ErrorCode, Timestamp};
use serde::{Deserialize, Serialize};

/// Which listing a cursor belongs to; a cursor of one is refused by the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum CursorKind {
    /// The agent's `list`.
    #[serde(rename = "a")]
    Agent,
    /// The member's own list.
    #[serde(rename = "m")]
    Member,
}

/// The decoded content of a cursor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cursor {
    #[serde(rename = "k")]
    pub(crate) kind: CursorKind,
    #[serde(rename = "ns")]
    pub(crate) namespace: Option<String>,
    #[serde(rename = "key")]
    pub(crate) key: Option<String>,
    #[serde(rename = "col")]
    pub(crate) collection_id: Option<String>,
    /// `createdAfter` (ms), if the first page was sent with one.
    #[serde(rename = "ca", default, skip_serializing_if = "Option::is_none")]
    pub(crate) created_after: Option<i64>,
    /// `createdBefore` (ms), if the first page was sent with one.
    #[serde(rename = "cb", default, skip_serializing_if = "Option::is_none")]
    pub(crate) created_before: Option<i64>,
    /// Effective `asOf` of the first page, in milliseconds.
    #[serde(rename = "as")]
    pub(crate) as_of: i64,
    /// The `asOf` the first page was sent with (ms), if any: a later page may repeat it, which
    /// for a future `asOf` differs from the effective one.
    #[serde(rename = "sa", default, skip_serializing_if = "Option::is_none")]
    pub(crate) sent_as_of: Option<i64>,
    /// Position: `createdAt` (ms) of the last returned version.
    #[serde(rename = "t")]
    pub(crate) created_at: i64,
    /// Position: id of the last returned version.
    #[serde(rename = "id")]
    pub(crate) id: String,
}

fn malformed() -> ApiError {
    ApiError::new(ErrorCode::AgentMemoryInvalidRequest, "cursor is malformed")
}

impl Cursor {
    /// The opaque string form.
    pub(crate) fn encode(&self) -> String {
        to_opaque(self)
    }

    /// Parses a cursor string; anything but a cursor this library made → `400`.
    pub(crate) fn decode(s: &str) -> Result<Cursor, ApiError> {
        from_opaque(s, 4096).ok_or_else(malformed)
    }

    /// The keyset position.
    pub(crate) fn position(&self) -> Result<(Timestamp, AgentMemoryId), ApiError> {
        let at = Timestamp::from_millis(self.created_at).map_err(|_| malformed())?;
        let id = AgentMemoryId::parse(self.id.clone()).map_err(|_| malformed())?;
        Ok((at, id))
    }

    /// The `asOf` the first page used.
    pub(crate) fn as_of(&self) -> Result<Timestamp, ApiError> {
        Timestamp::from_millis(self.as_of).map_err(|_| malformed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Cursor {
        Cursor {
            kind: CursorKind::Agent,
            namespace: Some("prefs".into()),
            key: None,
            collection_id: None,
            created_after: None,
            created_before: Some(1_767_225_600_000),
            as_of: 1_767_225_600_000,
            sent_as_of: None,
            created_at: 1_767_225_600_000,
            id: "amem_x".into(),
        }
    }

    #[test]
    fn round_trips() {
        let c = sample();
        assert_eq!(Cursor::decode(&c.encode()).unwrap(), c);
    }

    #[test]
    fn refuses_tampering() {
        let s = sample().encode();
        for bad in [
            "",
            "zz",
            "0",
            &s.to_uppercase(),
            &format!("{s}00"),
            &s[..s.len() - 2],
        ] {
            assert!(Cursor::decode(bad).is_err(), "{bad}");
        }
    }
}

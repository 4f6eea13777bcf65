//! Opaque keyset cursors for list pagination.
//!
//! A cursor carries the position (the last returned version's `createdAt` and id), the filters
//! and the effective `asOf` of the first page, so that later pages read the same snapshot and a
//! cursor cannot be replayed with other filters. It is hex-encoded JSON: opaque to callers, and
//! anything that does not decode exactly is a malformed cursor.

use memory_core::{AgentMemoryId, ApiError, ErrorCode, Timestamp};
use serde::de::DeserializeOwned;
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

/// The opaque string form of a cursor (this module's and the memory stores'): lower-case hex of
/// its JSON.
pub(crate) fn to_opaque<T: Serialize>(cursor: &T) -> String {
    let json = serde_json::to_vec(cursor).unwrap_or_default();
    let mut out = String::with_capacity(json.len() * 2);
    for b in json {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The cursor `s` is the opaque form of, when it is exactly the form [`to_opaque`] gives (no
/// upper-case hex, no reordered or respaced JSON) and at most `max_len` characters; `None` for
/// anything else.
pub(crate) fn from_opaque<T: Serialize + DeserializeOwned>(s: &str, max_len: usize) -> Option<T> {
    if s.is_empty() || !s.len().is_multiple_of(2) || s.len() > max_len {
        return None;
    }
    let digit = |c: u8| HEX.iter().position(|h| *h == c).map(|d| d as u8);
    let bytes = s
        .as_bytes()
        .chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect::<Option<Vec<u8>>>()?;
    let cursor: T = serde_json::from_slice(&bytes).ok()?;
    (to_opaque(&cursor) == s).then_some(cursor)
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

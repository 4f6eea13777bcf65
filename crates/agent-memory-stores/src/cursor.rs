//! Opaque keyset cursors of the memory-store lists (`stores.list`, `memories.list`,
//! `versions.list`).
//!
//! A cursor is hex-encoded JSON, like the agent-memory cursors: it names its listing, carries the
//! filters of the first page (a cursor is refused with other filters) and the keyset position of
//! the last item returned. Anything that does not decode exactly, or that belongs to another
//! listing or other filters, is `400 MEMORY_INVALID_REQUEST`.

use memory_core::{
    ApiError, ErrorCode, MemoryStoreId, MemoryVersionId, StoreMemoryId, StorePath, Timestamp,
};
use serde::{Deserialize, Serialize};

/// The decoded content of a memory-store cursor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", deny_unknown_fields)]
pub(crate) enum StoreCursor {
    /// `stores.list`: the filter and the last store's (`created_at` ms, id).
    #[serde(rename = "s")]
    Stores {
        #[serde(rename = "ia")]
        include_archived: bool,
        #[serde(rename = "t")]
        created_at: i64,
        #[serde(rename = "id")]
        id: String,
    },
    /// `memories.list`: the store, the prefix and the last path.
    #[serde(rename = "m")]
    Memories {
        #[serde(rename = "st")]
        store: String,
        #[serde(rename = "pp")]
        path_prefix: Option<String>,
        #[serde(rename = "p")]
        after: String,
    },
    /// `versions.list`: the store, the memory filter and the last version's (`created_at` ms, id).
    #[serde(rename = "v")]
    Versions {
        #[serde(rename = "st")]
        store: String,
        #[serde(rename = "mem")]
        memory: Option<String>,
        #[serde(rename = "t")]
        created_at: i64,
        #[serde(rename = "id")]
        id: String,
    },
}

pub(crate) fn malformed() -> ApiError {
    ApiError::new(ErrorCode::MemoryInvalidRequest, "cursor is malformed")
}

fn mismatch() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryInvalidRequest,
        "cursor belongs to another listing or other filters",
    )
}

impl StoreCursor {
    /// The opaque string form.
    pub(crate) fn encode(&self) -> String {
        agent_memory_ops::cursor::to_opaque(self)
    }

    /// Parses a cursor string; anything but a canonical cursor this library made → `400`.
    pub(crate) fn decode(s: &str) -> Result<StoreCursor, ApiError> {
        agent_memory_ops::cursor::from_opaque(s, 8192).ok_or_else(malformed)
    }

    /// The position of a `stores.list` cursor made with `include_archived`.
    pub(crate) fn stores_position(
        &self,
        include_archived: bool,
    ) -> Result<(Timestamp, MemoryStoreId), ApiError> {
        match self {
            StoreCursor::Stores {
                include_archived: ia,
                created_at,
                id,
            } if *ia == include_archived => Ok((
                Timestamp::from_millis(*created_at).map_err(|_| malformed())?,
                MemoryStoreId::parse(id.clone()).map_err(|_| malformed())?,
            )),
            _ => Err(mismatch()),
        }
    }

    /// The position of a `memories.list` cursor made for `store` and `path_prefix`.
    pub(crate) fn memories_position(
        &self,
        store: &MemoryStoreId,
        path_prefix: Option<&str>,
    ) -> Result<StorePath, ApiError> {
        match self {
            StoreCursor::Memories {
                store: st,
                path_prefix: pp,
                after,
            } if st == store.as_str() && pp.as_deref() == path_prefix => {
                StorePath::parse(after.clone()).map_err(|_| malformed())
            }
            _ => Err(mismatch()),
        }
    }

    /// The position of a `versions.list` cursor made for `store` and `memory`.
    pub(crate) fn versions_position(
        &self,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
    ) -> Result<(Timestamp, MemoryVersionId), ApiError> {
        match self {
            StoreCursor::Versions {
                store: st,
                memory: mem,
                created_at,
                id,
            } if st == store.as_str() && mem.as_deref() == memory.map(|m| m.as_str()) => Ok((
                Timestamp::from_millis(*created_at).map_err(|_| malformed())?,
                MemoryVersionId::parse(id.clone()).map_err(|_| malformed())?,
            )),
            _ => Err(mismatch()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_tampering() {
        let c = StoreCursor::Memories {
            store: "memstore_a".into(),
            path_prefix: Some("/notes".into()),
            after: "/notes/a.md".into(),
        };
        let s = c.encode();
        assert_eq!(StoreCursor::decode(&s).unwrap(), c);
        for bad in [
            "",
            "zz",
            "0",
            &s.to_uppercase(),
            &format!("{s}00"),
            &s[..s.len() - 2],
        ] {
            assert!(StoreCursor::decode(bad).is_err(), "{bad}");
        }
        let store = MemoryStoreId::parse("memstore_a").unwrap();
        assert!(c.memories_position(&store, Some("/notes")).is_ok());
        assert!(c.memories_position(&store, None).is_err());
        assert!(c.stores_position(false).is_err());
    }
}

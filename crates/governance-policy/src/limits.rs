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
/// Longest memory id accepted in a forget or member delete (a generated id is 31 characters).
pub const MEMORY_ID_MAX_CHARS: usize = 128;
/// Longest list cursor accepted; the cursor's content is the facade's to check. The bound only
/// keeps an oversized value from reaching the decoder.
pub const CURSOR_MAX_CHARS: usize = 4096;

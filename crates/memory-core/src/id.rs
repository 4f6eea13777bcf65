//! Prefixed, time-sortable ids, their typed newtypes, and the id generators.
//!
//! A generated id is a prefix (`amem_`, `memstore_`, `mem_`, `memver_`, `sesn_`) followed by 26
//! lowercase Crockford base32 characters: 10 for the 48-bit millisecond time part and 16 for an
//! 80-bit tail. Within one kind, byte order of the ids is generation order for both shipped
//! generators, even within one millisecond.

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::str::FromStr;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::{Error, Timestamp};

/// Crockford's base32 alphabet, lowercase (no `i`, `l`, `o`, `u`); ASCII order equals value order.
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
/// Characters of a generated body.
pub const ID_BODY_LEN: usize = 26;
/// Longest body [`parse`](AgentMemoryId::parse) accepts (hand-written ids in tests and scripts
/// may be shorter or longer than a generated one).
pub const ID_BODY_MAX_LEN: usize = 64;

const TIME_MASK: u64 = (1 << 48) - 1;
const TAIL_MASK: u128 = (1 << 80) - 1;

/// The kinds of library-generated ids, told apart by prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IdKind {
    /// An agent memory version: `amem_`.
    AgentMemory,
    /// A memory store: `memstore_`.
    MemoryStore,
    /// A memory in a store: `mem_`.
    StoreMemory,
    /// A memory version in a store: `memver_`.
    MemoryVersion,
    /// An agent session: `sesn_`.
    Session,
}

impl IdKind {
    /// Every kind.
    pub const ALL: [IdKind; 5] = [
        IdKind::AgentMemory,
        IdKind::MemoryStore,
        IdKind::StoreMemory,
        IdKind::MemoryVersion,
        IdKind::Session,
    ];

    /// The prefix, underscore included.
    pub const fn prefix(self) -> &'static str {
        match self {
            IdKind::AgentMemory => "amem_",
            IdKind::MemoryStore => "memstore_",
            IdKind::StoreMemory => "mem_",
            IdKind::MemoryVersion => "memver_",
            IdKind::Session => "sesn_",
        }
    }

    /// The error refusing an id of this kind, for `reason`.
    fn invalid(self, reason: &'static str) -> Error {
        Error::InvalidId {
            kind: self.prefix(),
            reason,
        }
    }

    /// The kind whose prefix `id` starts with (prefixes never overlap).
    pub fn of(id: &str) -> Option<IdKind> {
        IdKind::ALL.into_iter().find(|k| id.starts_with(k.prefix()))
    }

    /// Checks that `id` is `prefix` + a body of 1–64 ASCII letters, digits, `_` or `-`.
    pub fn validate(self, id: &str) -> Result<(), Error> {
        let body = id
            .strip_prefix(self.prefix())
            .ok_or_else(|| self.invalid("wrong prefix"))?;
        if body.is_empty() || body.len() > ID_BODY_MAX_LEN {
            return Err(self.invalid("body must be 1-64 characters"));
        }
        if !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(self.invalid("body has a character outside [A-Za-z0-9_-]"));
        }
        Ok(())
    }

    /// Formats an id of this kind from a time part (clamped to 0 ..= 2⁴⁸−1 ms) and an 80-bit tail.
    pub fn format(self, millis: i64, tail: u128) -> String {
        let time = millis.clamp(0, TIME_MASK as i64) as u128;
        let value = (time << 80) | (tail & TAIL_MASK);
        let mut out = String::with_capacity(self.prefix().len() + ID_BODY_LEN);
        out.push_str(self.prefix());
        for i in (0..ID_BODY_LEN).rev() {
            out.push(ALPHABET[((value >> (5 * i)) & 31) as usize] as char);
        }
        out
    }
}

impl fmt::Display for IdKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())
    }
}

/// Decodes a generated body into (time millis, tail); `None` for anything else.
fn decode_body(body: &str) -> Option<(i64, u128)> {
    if body.len() != ID_BODY_LEN {
        return None;
    }
    let mut value: u128 = 0;
    for b in body.bytes() {
        let digit = ALPHABET.iter().position(|&a| a == b)? as u128;
        value = value.checked_mul(32)? | digit;
    }
    // 26 characters carry 130 bits; the first character of a 128-bit value is at most `7`.
    if body.as_bytes()[0] > b'7' {
        return None;
    }
    Some(((value >> 80) as i64, value & TAIL_MASK))
}

/// Supplies ids: `kind.prefix()` followed by a body of ASCII letters and digits.
///
/// Implementations must be monotonic: an id returned later sorts (by bytes) after every id of
/// the same kind returned earlier, including within one millisecond and when `now` moves back.
pub trait IdGenerator: Send + Sync {
    /// A new id of `kind`, made at `now`.
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String;
}

/// The last (time, tail) handed out; shared by all kinds, so order holds within each kind too.
#[derive(Debug, Default)]
struct Last {
    millis: i64,
    tail: u128,
}

impl Last {
    /// Moves to `now`, or stays on the last millisecond when the clock did not advance.
    /// Returns true when a fresh millisecond was entered.
    fn advance(&mut self, now: Timestamp) -> bool {
        let millis = now.as_millis().clamp(0, TIME_MASK as i64);
        if millis > self.millis {
            self.millis = millis;
            true
        } else {
            false
        }
    }

    /// Increments the tail; on (astronomically unlikely) overflow borrows the next millisecond.
    fn bump(&mut self, fresh_tail: u128) {
        if self.tail >= TAIL_MASK {
            self.millis = (self.millis + 1).min(TIME_MASK as i64);
            self.tail = fresh_tail;
        } else {
            self.tail += 1;
        }
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The guarded state is valid after any panic (plain integers), so poisoning is ignored.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Time + random ids, monotonic within the process (ULID-style).
///
/// A new millisecond gets a random 80-bit tail (its top bit cleared, leaving room to count up);
/// further ids in the same millisecond, or while the clock stands still or moves back, increment
/// the tail. Randomness comes from the standard library's per-process random hasher keys mixed
/// through splitmix64: unpredictable enough for ids, not a cryptographic secret.
#[derive(Debug)]
pub struct RandomIdGenerator {
    state: Mutex<(u64, Last)>,
}

impl RandomIdGenerator {
    /// A generator seeded from the process's random state and the system time.
    pub fn new() -> Self {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_i64(Timestamp::now().as_millis());
        hasher.write_u32(std::process::id());
        RandomIdGenerator {
            state: Mutex::new((hasher.finish(), Last::default())),
        }
    }

    fn random_tail(rng: &mut u64) -> u128 {
        let high = u128::from(splitmix64(rng) & 0x7fff);
        let low = u128::from(splitmix64(rng));
        (high << 64) | low
    }
}

impl Default for RandomIdGenerator {
    fn default() -> Self {
        Self::new()
    }
}

impl IdGenerator for RandomIdGenerator {
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String {
        let mut guard = lock(&self.state);
        let (rng, last) = &mut *guard;
        let fresh = Self::random_tail(rng);
        if last.advance(now) {
            last.tail = fresh;
        } else {
            last.bump(fresh);
        }
        kind.format(last.millis, last.tail)
    }
}

/// Deterministic ids for replay and tests: the time part of the supplied `now` and a counter.
///
/// The tail is the call counter (high 64 bits) and 16 bits derived from the seed and the counter,
/// so two generators with the same seed fed the same instants produce the same ids, and ids made
/// later sort after ids made earlier even at the same instant.
#[derive(Debug)]
pub struct SeededIdGenerator {
    seed: u64,
    state: Mutex<(u64, Last)>,
}

impl SeededIdGenerator {
    /// A generator whose output depends only on `seed` and the instants passed in.
    pub fn new(seed: u64) -> Self {
        SeededIdGenerator {
            seed,
            state: Mutex::new((0, Last::default())),
        }
    }
}

impl IdGenerator for SeededIdGenerator {
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String {
        let mut guard = lock(&self.state);
        let (counter, last) = &mut *guard;
        *counter += 1;
        let mut mix = self.seed ^ counter.wrapping_mul(0xa076_1d64_78bd_642f);
        let noise = u128::from(splitmix64(&mut mix) & 0xffff);
        last.advance(now);
        // The counter strictly increases, so the tail does too; it never reaches 2^64.
        last.tail = (u128::from(*counter) << 16) | noise;
        kind.format(last.millis, last.tail)
    }
}

impl<G: IdGenerator + ?Sized> IdGenerator for &G {
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String {
        (**self).next_id(kind, now)
    }
}

impl<G: IdGenerator + ?Sized> IdGenerator for std::sync::Arc<G> {
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String {
        (**self).next_id(kind, now)
    }
}

impl<G: IdGenerator + ?Sized> IdGenerator for Box<G> {
    fn next_id(&self, kind: IdKind, now: Timestamp) -> String {
        (**self).next_id(kind, now)
    }
}

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $kind:expr, $pattern:tt) => {
        $(#[$doc])*
        ///
        /// Serialized as its string; parsing checks the prefix and the body's characters.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[cfg_attr(feature = "openapi", schema(value_type = String, pattern = $pattern))]
        pub struct $name(String);

        impl $name {
            /// The kind (prefix) of this id type.
            pub const KIND: IdKind = $kind;

            /// Validates `id` (see [`IdKind::validate`]).
            pub fn parse(id: impl Into<String>) -> Result<Self, Error> {
                let id = id.into();
                Self::KIND.validate(&id)?;
                Ok($name(id))
            }

            /// A new id from `generator` at `now`; refused only when the generator breaks its
            /// contract (wrong prefix or body).
            pub fn generate<G: IdGenerator + ?Sized>(
                generator: &G,
                now: Timestamp,
            ) -> Result<Self, Error> {
                Self::parse(generator.next_id(Self::KIND, now))
            }

            /// The id that sorts before every other valid id of its kind: the prefix and the
            /// one-character body `-`, the smallest character a body may hold. A keyset
            /// position `(t, smallest)` therefore excludes every version created at `t`.
            pub fn smallest() -> Self {
                $name(format!("{}-", Self::KIND.prefix()))
            }

            /// The id as a string.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The id as an owned string.
            pub fn into_string(self) -> String {
                self.0
            }

            /// True when the body has the generated form (26 Crockford base32 characters).
            pub fn is_canonical(&self) -> bool {
                decode_body(&self.0[Self::KIND.prefix().len()..]).is_some()
            }

            /// The time part of a generated id (`None` for hand-written ones).
            pub fn timestamp(&self) -> Option<Timestamp> {
                decode_body(&self.0[Self::KIND.prefix().len()..])
                    .and_then(|(millis, _)| Timestamp::from_millis(millis).ok())
            }
        }

        impl TryFrom<String> for $name {
            type Error = Error;

            fn try_from(id: String) -> Result<Self, Error> {
                Self::parse(id)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl FromStr for $name {
            type Err = Error;

            fn from_str(s: &str) -> Result<Self, Error> {
                Self::parse(s)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

typed_id!(
    /// The id of one agent memory version (`amem_…`).
    AgentMemoryId,
    IdKind::AgentMemory,
    "^amem_[A-Za-z0-9_-]{1,64}$"
);
typed_id!(
    /// The id of a memory store (`memstore_…`).
    MemoryStoreId,
    IdKind::MemoryStore,
    "^memstore_[A-Za-z0-9_-]{1,64}$"
);
typed_id!(
    /// The id of a memory in a memory store (`mem_…`).
    StoreMemoryId,
    IdKind::StoreMemory,
    "^mem_[A-Za-z0-9_-]{1,64}$"
);
typed_id!(
    /// The id of a memory version in a memory store (`memver_…`).
    MemoryVersionId,
    IdKind::MemoryVersion,
    "^memver_[A-Za-z0-9_-]{1,64}$"
);
typed_id!(
    /// The id of an agent session (`sesn_…`).
    SessionId,
    IdKind::Session,
    "^sesn_[A-Za-z0-9_-]{1,64}$"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: i64) -> Timestamp {
        Timestamp::from_millis(ms).unwrap()
    }

    #[test]
    fn format_and_decode_round_trip() {
        let id = IdKind::AgentMemory.format(1_767_225_600_000, 12345);
        assert_eq!(id.len(), "amem_".len() + ID_BODY_LEN);
        assert_eq!(decode_body(&id[5..]), Some((1_767_225_600_000, 12345)));
        let parsed = AgentMemoryId::parse(id).unwrap();
        assert_eq!(parsed.timestamp(), Some(t(1_767_225_600_000)));
    }

    proptest::proptest! {
        #[test]
        fn the_smallest_id_sorts_before_every_other(body in "[A-Za-z0-9_-]{1,64}") {
            let smallest = AgentMemoryId::smallest();
            proptest::prop_assert!(AgentMemoryId::parse(smallest.as_str()).is_ok());
            let id = AgentMemoryId::parse(format!("amem_{body}")).unwrap();
            proptest::prop_assert!(smallest <= id);
            proptest::prop_assert_eq!(smallest == id, body == "-");
        }
    }

    #[test]
    fn prefixes_do_not_overlap() {
        for a in IdKind::ALL {
            for b in IdKind::ALL {
                if a != b {
                    assert!(!a.prefix().starts_with(b.prefix()), "{a} / {b}");
                }
            }
            assert_eq!(IdKind::of(&a.format(0, 0)), Some(a));
        }
    }

    #[test]
    fn random_generator_counts_up_when_the_clock_goes_back() {
        let generator = RandomIdGenerator::new();
        let a = generator.next_id(IdKind::Session, t(10_000));
        let b = generator.next_id(IdKind::Session, t(5_000));
        assert!(b > a);
    }

    #[test]
    fn tail_overflow_borrows_the_next_millisecond() {
        let mut last = Last {
            millis: 7,
            tail: TAIL_MASK,
        };
        last.bump(3);
        assert_eq!((last.millis, last.tail), (8, 3));
    }

    #[test]
    fn hand_written_ids_parse_but_are_not_canonical() {
        let id = MemoryStoreId::parse("memstore_demo-1").unwrap();
        assert!(!id.is_canonical());
        assert_eq!(id.timestamp(), None);
        assert!(StoreMemoryId::parse("memstore_x").is_err());
        assert!(StoreMemoryId::parse("mem_").is_err());
        assert!(StoreMemoryId::parse("mem_a b").is_err());
    }
}

#[cfg(all(test, feature = "openapi"))]
mod schema_tests {
    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn each_id_schema_spells_its_prefix_and_body() {
        fn pattern<T: PartialSchema>() -> serde_json::Value {
            serde_json::to_value(T::schema()).unwrap()["pattern"].clone()
        }
        let patterns = [
            (IdKind::AgentMemory, pattern::<AgentMemoryId>()),
            (IdKind::MemoryStore, pattern::<MemoryStoreId>()),
            (IdKind::StoreMemory, pattern::<StoreMemoryId>()),
            (IdKind::MemoryVersion, pattern::<MemoryVersionId>()),
            (IdKind::Session, pattern::<SessionId>()),
        ];
        for (kind, pattern) in patterns {
            let expected = format!("^{}[A-Za-z0-9_-]{{1,{ID_BODY_MAX_LEN}}}$", kind.prefix());
            assert_eq!(pattern, expected.as_str(), "{kind}");
        }
    }
}

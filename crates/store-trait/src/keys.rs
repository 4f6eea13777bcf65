//! Key and small-value encodings of the key-space layout (the `store-kv` crate's): every
//! variable-length component is length-delimited (u32 big-endian length, then the bytes), so no
//! workspace, member, namespace or key is ever a prefix of another (tenancy by exact equality,
//! never by string prefix).

use memory_core::Timestamp;

/// Appends one length-delimited component. Keys of 4 GiB are refused by both databases long
/// before the length could saturate, so the encoding is injective.
pub fn push_component(out: &mut Vec<u8>, s: &str) {
    let len = u32::try_from(s.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// A rate window: its instants as big-endian i64 milliseconds, oldest first.
pub fn encode_window(window: &[Timestamp]) -> Vec<u8> {
    window
        .iter()
        .flat_map(|t| t.as_millis().to_be_bytes())
        .collect()
}

/// The instants of an encoded rate window; `None` when the bytes are not one.
pub fn decode_window(bytes: &[u8]) -> Option<Vec<Timestamp>> {
    if !bytes.len().is_multiple_of(8) {
        return None;
    }
    bytes
        .chunks_exact(8)
        .map(|c| Timestamp::from_millis(i64::from_be_bytes(c.try_into().ok()?)).ok())
        .collect()
}

/// A (namespace, key) index entry of the key-space layer (and of redb's format 3): the highest
/// version number since the key was last forgotten, and the position of its current version
/// (each layout's own bytes), encoded as `u32 BE last_version ‖ position`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct KeyEntry {
    /// The highest version number since the key was last forgotten.
    pub last_version: u32,
    /// The position of the key's current version, in the layout's own bytes.
    pub current: Option<Vec<u8>>,
}

impl KeyEntry {
    /// The entry's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.last_version.to_be_bytes().to_vec();
        if let Some(current) = &self.current {
            out.extend_from_slice(current);
        }
        out
    }

    /// `None` for a value too short to be an entry.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let (head, rest) = bytes.split_first_chunk::<4>()?;
        Some(KeyEntry {
            last_version: u32::from_be_bytes(*head),
            current: (!rest.is_empty()).then(|| rest.to_vec()),
        })
    }
}

/// An instant as key bytes: its milliseconds with the sign bit flipped, big-endian, so that byte
/// order is time order.
pub fn order(t: Timestamp) -> [u8; 8] {
    ((t.as_millis() as u64) ^ (1 << 63)).to_be_bytes()
}

/// The instant [`order`] encoded.
pub fn unorder(bytes: [u8; 8]) -> Timestamp {
    Timestamp::from_millis_saturating((u64::from_be_bytes(bytes) ^ (1 << 63)) as i64)
}

/// The first key after every key starting with `prefix`.
pub fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    // Only an all-0xff prefix gets here; no key of ours is one.
    vec![0xff; prefix.len() + 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_round_trip_and_odd_lengths_are_refused() {
        let window = [
            Timestamp::from_millis(1).unwrap(),
            Timestamp::from_millis(1_767_225_600_000).unwrap(),
        ];
        assert_eq!(decode_window(&encode_window(&window)).unwrap(), window);
        assert_eq!(decode_window(&[0; 7]), None);
    }
}

//! The opaque string form of both products' list cursors: lower-case hex of the cursor's JSON.
//! A cursor is opaque to callers, and anything that does not decode exactly is no cursor.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The opaque string form of a cursor (the agent memories' and the memory stores'): lower-case hex of
/// its JSON.
pub fn to_opaque<T: Serialize>(cursor: &T) -> String {
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
pub fn from_opaque<T: Serialize + DeserializeOwned>(s: &str, max_len: usize) -> Option<T> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_only_the_exact_form() {
        let s = to_opaque(&vec![1, 2]);
        assert_eq!(s, "5b312c325d");
        assert_eq!(from_opaque::<Vec<i32>>(&s, 64), Some(vec![1, 2]));
        for bad in ["", "5", "5B312C325D", "5b20312c325d", "zz"] {
            assert_eq!(from_opaque::<Vec<i32>>(bad, 64), None, "{bad}");
        }
        assert_eq!(from_opaque::<Vec<i32>>(&s, 8), None);
    }
}

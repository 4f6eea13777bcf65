//! The fixed 64-bit hash used for feature hashing and term filters (never std's seeded one,
//! whose output changes between runs).

/// 64-bit FNV-1a over a kind byte and then `bytes`, finished with an avalanche step so that
/// every output bit depends on every input bit.
pub(crate) fn hash(kind: u8, bytes: &[u8]) -> u64 {
    mix(fnv1a(kind, bytes))
}

/// 64-bit FNV-1a over a kind byte and the feature's bytes.
fn fnv1a(kind: u8, bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = (OFFSET ^ u64::from(kind)).wrapping_mul(PRIME);
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// MurmurHash3's fmix64: FNV-1a's low bits alone are weak for picking slots and bits.
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_published_test_vectors() {
        // The kind byte is simply the first byte hashed, so these are FNV-1a("a") and
        // FNV-1a("foobar") from the FNV reference test suite.
        assert_eq!(fnv1a(b'a', b""), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b'f', b"oobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn mix_is_murmur3_fmix64() {
        // fmix64(1) from the MurmurHash3 reference implementation.
        assert_eq!(mix(1), 0xb456_bcfc_34c2_cb2c);
        assert_eq!(mix(0), 0);
    }
}

//! Check-digit validators: Luhn (cards), ISO 7064 mod 97-10 with ISO 13616 lengths (IBAN), the
//! Israeli ID (Teudat Zehut) check digit, US Social Security number ranges, and the checksums
//! some credential formats carry (CRC-32 in base62, bech32).

/// Luhn check over ASCII digits. Non-digits make the number invalid.
pub(crate) fn luhn_valid(digits: &[u8]) -> bool {
    if digits.is_empty() {
        return false;
    }
    let mut sum = 0u32;
    for (i, &d) in digits.iter().rev().enumerate() {
        if !d.is_ascii_digit() {
            return false;
        }
        let mut v = u32::from(d - b'0');
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    sum.is_multiple_of(10)
}

/// Israeli ID check digit over exactly nine ASCII digits; all zeros is not an ID.
pub(crate) fn il_id_valid(digits: &[u8]) -> bool {
    if digits.len() != 9 || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    if digits.iter().all(|&d| d == b'0') {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let v = u32::from(d - b'0') * if i % 2 == 0 { 1 } else { 2 };
            if v > 9 { v - 9 } else { v }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Israeli ID written with leading zeros dropped: pads `digits` (1–9 digits) to nine.
pub(crate) fn il_id_valid_padded(digits: &[u8]) -> bool {
    if digits.is_empty() || digits.len() > 9 {
        return false;
    }
    let mut padded = [b'0'; 9];
    padded[9 - digits.len()..].copy_from_slice(digits);
    il_id_valid(&padded)
}

/// IBAN lengths per country (ISO 13616 registry, including territories that use their own code).
#[rustfmt::skip]
const IBAN_LENGTHS: &[(&[u8; 2], u8)] = &[
    (b"AD", 24), (b"AE", 23), (b"AL", 28), (b"AT", 20), (b"AX", 18), (b"AZ", 28), (b"BA", 20),
    (b"BE", 16), (b"BG", 22), (b"BH", 22), (b"BI", 27), (b"BL", 27), (b"BR", 29), (b"BY", 28),
    (b"CH", 21), (b"CR", 22), (b"CY", 28), (b"CZ", 24), (b"DE", 22), (b"DJ", 27), (b"DK", 18),
    (b"DO", 28), (b"EE", 20), (b"EG", 29), (b"ES", 24), (b"FI", 18), (b"FK", 18), (b"FO", 18),
    (b"FR", 27), (b"GB", 22), (b"GE", 22), (b"GF", 27), (b"GG", 22), (b"GI", 23), (b"GL", 18),
    (b"GP", 27), (b"GR", 27), (b"GT", 28), (b"HN", 28), (b"HR", 21), (b"HU", 28), (b"IE", 22),
    (b"IL", 23), (b"IM", 22), (b"IQ", 23), (b"IS", 26), (b"IT", 27), (b"JE", 22), (b"JO", 30),
    (b"KW", 30), (b"KZ", 20), (b"LB", 28), (b"LC", 32), (b"LI", 21), (b"LT", 20), (b"LU", 20),
    (b"LV", 21), (b"LY", 25), (b"MC", 27), (b"MD", 24), (b"ME", 22), (b"MF", 27), (b"MK", 19),
    (b"MN", 20), (b"MQ", 27), (b"MR", 27), (b"MT", 31), (b"MU", 30), (b"NC", 27), (b"NI", 28),
    (b"NL", 18), (b"NO", 15), (b"OM", 23), (b"PF", 27), (b"PK", 24), (b"PL", 28), (b"PM", 27),
    (b"PS", 29), (b"PT", 25), (b"QA", 29), (b"RE", 27), (b"RO", 24), (b"RS", 22), (b"RU", 33),
    (b"SA", 24), (b"SC", 31), (b"SD", 18), (b"SE", 24), (b"SI", 19), (b"SK", 24), (b"SM", 27),
    (b"SO", 23), (b"ST", 25), (b"SV", 28), (b"TF", 27), (b"TL", 23), (b"TN", 24), (b"TR", 26),
    (b"UA", 29), (b"VA", 22), (b"VG", 24), (b"WF", 27), (b"XK", 20), (b"YT", 27),
];

/// The IBAN length for a country code (any case), if the country uses IBANs.
pub(crate) fn iban_length(country: [u8; 2]) -> Option<usize> {
    let key = [
        country[0].to_ascii_uppercase(),
        country[1].to_ascii_uppercase(),
    ];
    IBAN_LENGTHS
        .binary_search_by(|(code, _)| (**code).cmp(&key))
        .ok()
        .map(|i| usize::from(IBAN_LENGTHS[i].1))
}

/// Full IBAN check over its compact form (no separators, any case): country length and mod 97.
pub(crate) fn iban_valid(compact: &[u8]) -> bool {
    if compact.len() < 5 || !compact.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let country = [compact[0], compact[1]];
    if !country.iter().all(u8::is_ascii_alphabetic) || !compact[2..4].iter().all(u8::is_ascii_digit)
    {
        return false;
    }
    if iban_length(country) != Some(compact.len()) {
        return false;
    }
    // Move the first four characters to the end and read letters as 10..=35, folding the
    // remainder as we go so the number never needs more than a u32.
    let mut rem = 0u32;
    for &c in compact[4..].iter().chain(&compact[..4]) {
        let c = c.to_ascii_uppercase();
        if c.is_ascii_digit() {
            rem = (rem * 10 + u32::from(c - b'0')) % 97;
        } else {
            let v = u32::from(c - b'A') + 10;
            rem = (rem * 100 + v) % 97;
        }
    }
    rem == 1
}

/// A US Social Security number's nine digits: area not 000, 666 or 900–999, group not 00,
/// serial not 0000.
pub(crate) fn ssn_valid(digits: &[u8]) -> bool {
    if digits.len() != 9 || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let area = &digits[..3];
    area != b"000"
        && area != b"666"
        && area[0] != b'9'
        && &digits[3..5] != b"00"
        && &digits[5..] != b"0000"
}

/// The CRC-32 (IEEE 802.3, reflected, as zlib computes it) of `data`.
pub(crate) fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut n = 0;
        while n < 256 {
            let mut c = n as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[n] = c;
            n += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in data {
        crc = TABLE[usize::from((crc as u8) ^ b)] ^ (crc >> 8);
    }
    !crc
}

/// Reads `text` as a base62 number with the digits `0-9A-Za-z`, if it fits in a `u64`.
pub(crate) fn base62_value(text: &[u8]) -> Option<u64> {
    text.iter().try_fold(0u64, |acc, &c| {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            b'a'..=b'z' => c - b'a' + 36,
            _ => return None,
        };
        acc.checked_mul(62)?.checked_add(u64::from(d))
    })
}

/// The checksum of the token format that GitHub and npm publish: thirty base62 characters of
/// entropy followed by the CRC-32 of those characters written as six base62 digits.
pub(crate) fn crc32_base62_valid(body: &[u8]) -> bool {
    if body.len() != 36 {
        return false;
    }
    let (entropy, check) = body.split_at(30);
    base62_value(check) == Some(u64::from(crc32(entropy)))
}

/// A bech32 string (`hrp` `1` data, one case) with a valid checksum (BIP 173).
pub(crate) fn bech32_valid(text: &[u8]) -> bool {
    const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let Some(sep) = text.iter().rposition(|&b| b == b'1') else {
        return false;
    };
    if sep == 0 || text.len() - sep < 7 || !text.iter().all(u8::is_ascii_graphic) {
        return false;
    }
    let lower: Vec<u8> = text.iter().map(u8::to_ascii_lowercase).collect();
    let polymod = |chk: u32, v: u32| {
        let top = chk >> 25;
        let mut chk = ((chk & 0x01ff_ffff) << 5) ^ v;
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
        chk
    };
    let mut chk = 1u32;
    for &c in &lower[..sep] {
        chk = polymod(chk, u32::from(c >> 5));
    }
    chk = polymod(chk, 0);
    for &c in &lower[..sep] {
        chk = polymod(chk, u32::from(c & 31));
    }
    for &c in &lower[sep + 1..] {
        let Some(v) = CHARSET.iter().position(|&x| x == c) else {
            return false;
        };
        chk = polymod(chk, v as u32);
    }
    chk == 1
}

/// Decodes the leading base64 or base64url characters of `text` (stopping at the first other
/// byte) into at most `limit` bytes.
pub(crate) fn base64_prefix(text: &[u8], limit: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(limit.min(text.len()));
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in text {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => break,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
            if out.len() >= limit {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ssn_ranges() {
        assert!(ssn_valid(b"123456789"));
        assert!(ssn_valid(b"078051120"));
        for bad in [
            &b"000456789"[..],
            b"666456789",
            b"900456789",
            b"123006789",
            b"123450000",
        ] {
            assert!(!ssn_valid(bad));
        }
    }

    #[test]
    fn crc32_and_base62_known_values() {
        // The CRC-32 check value of the standard test string.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(base62_value(b"10"), Some(62));
        assert_eq!(base62_value(b"z"), Some(61));
        assert_eq!(base62_value(b"a-"), None);
    }

    #[test]
    fn token_checksums() {
        // Thirty characters of entropy and their CRC-32 in six base62 digits.
        let entropy = b"abcdefghijABCDEFGHIJ0123456789";
        let mut check = u64::from(crc32(entropy));
        let mut digits = [b'0'; 6];
        for d in digits.iter_mut().rev() {
            let v = (check % 62) as u8;
            *d = match v {
                0..=9 => b'0' + v,
                10..=35 => b'A' + v - 10,
                _ => b'a' + v - 36,
            };
            check /= 62;
        }
        let mut body = entropy.to_vec();
        body.extend_from_slice(&digits);
        assert!(crc32_base62_valid(&body));
        body[0] = b'b';
        assert!(!crc32_base62_valid(&body));
    }

    #[test]
    fn bech32_checksums() {
        // Test vectors of BIP 173.
        assert!(bech32_valid(b"A12UEL5L"));
        assert!(bech32_valid(
            b"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"
        ));
        assert!(!bech32_valid(
            b"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxx"
        ));
    }

    #[test]
    fn base64_prefixes() {
        assert_eq!(
            base64_prefix(b"eyJhbGciOiJIUzI1NiJ9", 64),
            br#"{"alg":"HS256"}"#
        );
        assert_eq!(base64_prefix(b"eyJhbG.rest", 64), br#"{"al"#);
    }

    #[test]
    fn luhn_known_numbers() {
        assert!(luhn_valid(b"4111111111111111"));
        assert!(luhn_valid(b"2221000000000009"));
        assert!(luhn_valid(b"378282246310005"));
        assert!(!luhn_valid(b"4111111111111112"));
        assert!(!luhn_valid(b""));
        assert!(!luhn_valid(b"41111a1111111111"));
    }

    #[test]
    fn il_id_examples() {
        assert!(il_id_valid(b"123456782"));
        assert!(!il_id_valid(b"123456789"));
        assert!(!il_id_valid(b"000000000"));
        assert!(!il_id_valid(b"482910375"));
        assert!(!il_id_valid(b"12345678"));
        assert!(il_id_valid_padded(b"12345678") == il_id_valid(b"012345678"));
        assert!(!il_id_valid_padded(b"1234567890"));
    }

    #[test]
    fn iban_examples() {
        assert!(iban_valid(b"IL620108000000099999999"));
        assert!(iban_valid(b"il620108000000099999999"));
        assert!(iban_valid(b"GB82WEST12345698765432"));
        assert!(iban_valid(b"DE89370400440532013000"));
        assert!(iban_valid(b"NO9386011117947"));
        assert!(!iban_valid(b"IL620108000000099999998"));
        // Right checksum family but wrong length for the country.
        assert!(!iban_valid(b"IL6201080000000999999990"));
        assert!(!iban_valid(b"ZZ620108000000099999999"));
    }

    /// Luhn the long way: double every second digit from the right, add up the decimal digits.
    fn luhn_reference(s: &str) -> bool {
        let digits: Vec<u32> = s.chars().rev().map(|c| c.to_digit(10).unwrap()).collect();
        let mut total = 0;
        for (i, d) in digits.iter().enumerate() {
            let v = if i % 2 == 1 { d * 2 } else { *d };
            total += v
                .to_string()
                .chars()
                .map(|c| c.to_digit(10).unwrap())
                .sum::<u32>();
        }
        total % 10 == 0
    }

    /// Israeli ID the long way: products 1,2,1,2…, add up their decimal digits.
    fn il_id_reference(s: &str) -> bool {
        let total: u32 = s
            .chars()
            .enumerate()
            .map(|(i, c)| {
                let p = c.to_digit(10).unwrap() * (1 + (i as u32 % 2));
                p.to_string()
                    .chars()
                    .map(|c| c.to_digit(10).unwrap())
                    .sum::<u32>()
            })
            .sum();
        s.len() == 9 && s.chars().any(|c| c != '0') && total.is_multiple_of(10)
    }

    /// Schoolbook long division of a decimal string by a small divisor: (quotient, remainder).
    fn divide(decimal: &str, divisor: u32) -> (String, u32) {
        let mut quotient = String::new();
        let mut rem = 0;
        for c in decimal.chars() {
            let cur = rem * 10 + c.to_digit(10).unwrap();
            quotient.push(char::from_digit(cur / divisor, 10).unwrap());
            rem = cur % divisor;
        }
        (quotient, rem)
    }

    /// IBAN mod 97 on the whole rearranged number written out as a decimal string.
    fn iban_remainder_reference(compact: &str) -> u32 {
        let rearranged = format!("{}{}", &compact[4..], &compact[..4]);
        let decimal: String = rearranged
            .chars()
            .map(|c| c.to_digit(36).unwrap().to_string())
            .collect();
        divide(&decimal, 97).1
    }

    fn countries() -> Vec<(String, usize)> {
        IBAN_LENGTHS
            .iter()
            .map(|(c, n)| (String::from_utf8(c.to_vec()).unwrap(), usize::from(*n)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        #[test]
        fn luhn_agrees_with_reference(s in "[0-9]{1,24}") {
            prop_assert_eq!(luhn_valid(s.as_bytes()), luhn_reference(&s));
        }

        #[test]
        fn il_id_agrees_with_reference(s in "[0-9]{9}") {
            prop_assert_eq!(il_id_valid(s.as_bytes()), il_id_reference(&s));
        }

        #[test]
        fn iban_agrees_with_reference(
            (country, len) in prop::sample::select(countries()),
            bban in "[0-9A-Z]{30}",
            check in 0..100u32,
            fix_check in any::<bool>(),
            len_delta in prop::sample::select(vec![0usize, 0, 0, 1]),
        ) {
            let body = &bban[..len - 4 + len_delta];
            // Half the cases get check digits computed the reference way, so valid IBANs are common.
            let check = if fix_check {
                98 - iban_remainder_reference(&format!("{country}00{body}"))
            } else {
                check
            };
            let compact = format!("{country}{check:02}{body}");
            let expected = len_delta == 0 && iban_remainder_reference(&compact) == 1;
            prop_assert_eq!(iban_valid(compact.as_bytes()), expected, "{}", compact);
            prop_assert_eq!(iban_valid(compact.to_lowercase().as_bytes()), expected);
        }
    }

    #[test]
    fn iban_table_is_sorted_and_israel_is_23() {
        assert!(IBAN_LENGTHS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(iban_length(*b"il"), Some(23));
        assert_eq!(iban_length(*b"US"), None);
    }
}

//! Check-digit validators: Luhn (cards), ISO 7064 mod 97-10 with ISO 13616 lengths (IBAN), and
//! the Israeli ID (Teudat Zehut) check digit.

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

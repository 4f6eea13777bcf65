//! IBAN detection: a country code, two check digits and the country's exact length.

use super::Sink;
use crate::Category;
use crate::validate::{iban_length, iban_valid};

/// Longest IBAN in the registry.
const MAX_IBAN: usize = 34;

/// Tries an IBAN whose country code starts at view offset `c` (the check digits follow it).
pub(super) fn at_country_code(v: &[u8], c: usize, sink: &mut Sink) {
    if c > 0 && v[c - 1].is_ascii_alphanumeric() {
        return;
    }
    let country = [v[c], v[c + 1]];
    if !country.iter().all(u8::is_ascii_alphabetic) {
        return;
    }
    let Some(len) = iban_length(country) else {
        return;
    };
    let mut compact = [0u8; MAX_IBAN];
    let mut sep = None;
    let mut p = c;
    for (count, slot) in compact.iter_mut().enumerate().take(len) {
        // An optional single separator between blocks of four, the same one throughout.
        if count > 0 && count % 4 == 0 && p < v.len() && matches!(v[p], b' ' | b'-') {
            if *sep.get_or_insert(v[p]) != v[p] {
                return;
            }
            p += 1;
        }
        if p >= v.len() || !v[p].is_ascii_alphanumeric() {
            return;
        }
        *slot = v[p];
        p += 1;
    }
    // The length fixes the end; running straight on into more letters or digits means this is
    // some other token.
    if p < v.len() && v[p].is_ascii_alphanumeric() {
        return;
    }
    if iban_valid(&compact[..len]) {
        sink.push(c, p, Category::Iban, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str) -> Option<String> {
        let mut sink = Sink::default();
        let c = text.bytes().position(|b| b.is_ascii_digit())? - 2;
        at_country_code(text.as_bytes(), c, &mut sink);
        sink.found.first().map(|f| text[f.start..f.end].to_owned())
    }

    #[test]
    fn finds_ibans_in_any_grouping_and_case() {
        assert_eq!(
            find("iban il620108000000099999999.").as_deref(),
            Some("il620108000000099999999")
        );
        assert_eq!(
            find("IL62 0108 0000 0009 9999 999 and more").as_deref(),
            Some("IL62 0108 0000 0009 9999 999")
        );
        assert_eq!(
            find("GB82-WEST-1234-5698-7654-32").as_deref(),
            Some("GB82-WEST-1234-5698-7654-32")
        );
    }

    #[test]
    fn rejects_wrong_checksum_length_or_mixed_separators() {
        assert_eq!(find("IL62 0108 0000 0009 9999 998"), None);
        assert_eq!(find("IL62010800000009999999"), None);
        assert_eq!(find("IL6201080000000999999990"), None);
        assert_eq!(find("IL62 0108-0000 0009 9999 999"), None);
        assert_eq!(find("XIL620108000000099999999"), None);
    }
}

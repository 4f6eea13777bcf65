//! Email addresses through `mask`: one grammar for plain and spelled-out forms (`at`, `dot`,
//! brackets, Hebrew and Japanese words), and look-alikes that are not addresses left alone.

use pii_mask::{Category, mask};

/// The spans `mask` replaces as email addresses.
fn emails(text: &str) -> Vec<String> {
    mask(text)
        .spans
        .iter()
        .filter(|s| s.category == Category::Email)
        .map(|s| text[s.start..s.end].to_owned())
        .collect()
}

#[test]
fn plain_addresses() {
    for (text, address) in [
        (
            "write to Dana.Levi@Example.CO.IL!",
            "Dana.Levi@Example.CO.IL",
        ),
        ("(dana+tag@mail.example.com)", "dana+tag@mail.example.com"),
        ("\"dana levi\"@example.com", "\"dana levi\"@example.com"),
        ("דנה@דוגמה.ישראל", "דנה@דוגמה.ישראל"),
        ("x@xn--80ak6aa92e.xn--p1ai", "x@xn--80ak6aa92e.xn--p1ai"),
        ("כתבו לdana@example.com.", "dana@example.com"),
        ("'dana@example.com'", "dana@example.com"),
        ("dana@example.com-based", "dana@example.com"),
        ("lyn76'o@hotmail.com", "lyn76'o@hotmail.com"),
        ("josé.núñez@correo.example", "josé.núñez@correo.example"),
        ("dana@xn--4dbrk0ce now", "dana@xn--4dbrk0ce"),
        ("mail user@[192.0.2.1] now", "user@[192.0.2.1]"),
        ("mail user@[IPv6:2001:db8::1]", "user@[IPv6:2001:db8::1]"),
        (
            "a!#$%&*+/=?^_`{|}~-b@example.org",
            "a!#$%&*+/=?^_`{|}~-b@example.org",
        ),
        ("メールはdana@example.comです", "dana@example.com"),
    ] {
        assert_eq!(emails(text), [address], "{text}");
    }
}

#[test]
fn not_addresses() {
    for text in [
        "npm i lodash@4.17.21",
        "use icon@2x.png",
        "root@localhost",
        "Screen 3840x2160 @ 144Hz",
        "@mention here",
        "[EMAIL]@example.com",
        "meet at noon",
        "look at this dot matrix",
        "we met at home.com",
        "[EMAIL] at gmail dot com",
        "אכלנו שטרודל תפוחים",
    ] {
        assert!(
            mask(text).spans.is_empty(),
            "{text}: {:?}",
            mask(text).spans
        );
    }
}

#[test]
fn obfuscated_addresses() {
    for (text, address) in [
        ("contact dana[at]gmail[dot]com", "dana[at]gmail[dot]com"),
        ("dana (at) gmail.com", "dana (at) gmail.com"),
        ("dana at gmail dot com", "dana at gmail dot com"),
        ("dana AT mail DOT co DOT il", "dana AT mail DOT co DOT il"),
        ("dana @ gmail . com", "dana @ gmail . com"),
        ("dana{@}gmail(.)com", "dana{@}gmail(.)com"),
        (
            "dana [ at ] gmail [ dot ] com",
            "dana [ at ] gmail [ dot ] com",
        ),
        (
            "pcoleman שטרודל gmail נקודה com",
            "pcoleman שטרודל gmail נקודה com",
        ),
        ("danaアットマークgmail.com", "danaアットマークgmail.com"),
        (
            "dana あっと example ドット jp",
            "dana あっと example ドット jp",
        ),
    ] {
        assert_eq!(emails(text), [address], "{text}");
    }
}

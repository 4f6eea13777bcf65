//! Digit groups through `mask`: each group is decided whole — phones, long numbers, validated
//! nine-digit values and context-bound short values are masked, safe shapes are left alone.

use pii_mask::{Category, mask};

/// Whether `mask` replaces exactly `value` of `text` as `category`.
fn masked_as(text: &str, value: &str, category: Category) -> bool {
    mask(text)
        .spans
        .iter()
        .any(|s| &text[s.start..s.end] == value && s.category == category)
}

fn untouched(text: &str) -> bool {
    mask(text).spans.is_empty()
}

#[test]
fn phones() {
    for (text, phone) in [
        ("call 050-123-4567", "050-123-4567"),
        ("+972 (0)52-345-6789", "+972 (0)52-345-6789"),
        ("x 0523456789", "0523456789"),
        ("x 090-1234-5678", "090-1234-5678"),
        ("x (555) 123-4567", "(555) 123-4567"),
        ("x +1 555 123 4567", "+1 555 123 4567"),
        ("x 00972-52-345-6789", "00972-52-345-6789"),
        ("x 1-800-123-456", "1-800-123-456"),
        ("x 03-1234567", "03-1234567"),
        ("x 1599-50-50-50", "1599-50-50-50"),
        ("call 0 5 2 3 4 5 6 7 8 9", "0 5 2 3 4 5 6 7 8 9"),
    ] {
        assert!(masked_as(text, phone, Category::Phone), "{text}");
    }
}

#[test]
fn long_groups_are_masked_whatever_their_shape() {
    assert!(masked_as(
        "x 12 34 56 78 90",
        "12 34 56 78 90",
        Category::Number
    ));
    assert!(masked_as("x 1234567890", "1234567890", Category::Number));
    assert!(masked_as(
        "bank account (52-186-863859)",
        "52-186-863859",
        Category::BankAccount
    ));
    assert!(masked_as(
        "account no.: 4-963-942200",
        "4-963-942200",
        Category::BankAccount
    ));
    assert!(!masked_as("x 123456789", "123456789", Category::Number));
}

#[test]
fn nine_digits_need_a_validator() {
    for id in [
        "123456782",
        "12345678-2",
        "123 456 782",
        "123-456-782",
        "1 2 3 4 5 6 7 8 2",
    ] {
        assert!(masked_as(&format!("x {id}"), id, Category::IlId), "{id}");
    }
    assert!(untouched("Order #482910375 shipped"));
    assert!(masked_as(
        "account no. (738/246883)",
        "738/246883",
        Category::BankAccount
    ));
}

#[test]
fn safe_shapes_stay() {
    for text in [
        "2024-03-15 12",
        "15/03/2024",
        "15.03.2024 12.30",
        "2024-03-15 2024-03-16",
        "127.0.0.1",
        "0.0.0.0",
        "v10.4.12",
        "v1.2.3.4",
        "version 10.0.0.1",
        "0-306-40615-2",
        "978-3-16-148410-0",
        "ISBN 0-8044-2957-X",
        "32.0853 34.7818",
        "1234567.89",
        "12 345 678.90",
        "€ 1 234 567 890",
        "20240315123045",
        "12345678",
        "id 550e8400-e29b-41d4-a716-446655440000",
    ] {
        assert!(untouched(text), "{text}: {:?}", mask(text).spans);
    }
}

#[test]
fn short_values_need_context() {
    assert!(untouched("no 12345674"));
    assert!(masked_as(
        "account 29106136",
        "29106136",
        Category::BankAccount
    ));
    assert!(untouched("invoice 29106136"));
    assert!(masked_as("x 123/45678", "123/45678", Category::BankAccount));
}

/// `%40` is an encoded at sign before a name, but before digits it is the start of the number:
/// the whole run is masked, not the digits after a `40` left in place (a case the digit-group
/// property found).
#[test]
fn a_percent_forty_before_digits_is_part_of_the_number() {
    let text = "%40108123456782";
    let spans = mask(text).spans;
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert_eq!(&text[spans[0].start..spans[0].end], "40108123456782");
    assert!(masked_as(
        "mail dana%40example.com",
        "dana%40example.com",
        Category::Email
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 1024, ..Default::default() })]

    /// A word that makes a dotted quad a version (`ver 10.0.0.1`) counts on its own line only:
    /// a public address on the next line is masked whole, whatever ends the line before and
    /// whatever line break separates them.
    #[test]
    fn a_version_word_on_the_line_before_never_spares_an_address(
        word in proptest::sample::select(
            &["ver", "version", "release", "build", "firmware", "upgraded to", "updated to", "Bear\nver"][..],
        ),
        gap in proptest::sample::select(&["", " ", ": ", " \t"][..]),
        br in proptest::sample::select(
            &["\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\n\n"][..],
        ),
        a in 1..224u32,
        (b, c, d) in (0..256u32, 0..256u32, 0..256u32),
    ) {
        proptest::prop_assume!(a != 127);
        let address = format!("{a}.{b}.{c}.{d}");
        let text = format!("notes {word}{gap}{br}{address}\nmore");
        proptest::prop_assert!(masked_as(&text, &address, Category::Ip), "{:?}: {:?}", text, mask(&text).spans);
        // On the same line the word still makes it a version.
        let same_line = format!("notes {word} {address}\nmore");
        if !word.contains('\n') {
            proptest::prop_assert!(untouched(&same_line), "{:?}", same_line);
        }
    }
}

//! Unit tests of the digit-group reader: gaps, shapes and validators, one group at a time.

use super::*;

fn found(text: &str) -> Vec<(String, Category, bool)> {
    let mut sink = Sink::default();
    let first = text.bytes().position(|b| b.is_ascii_digit()).unwrap();
    scan_group(text, first, &[], &mut sink);
    sink.found
        .iter()
        .map(|f| (text[f.start..f.end].to_owned(), f.category, f.validated))
        .collect()
}

fn has(text: &str, value: &str, category: Category) -> bool {
    found(text)
        .iter()
        .any(|(v, c, _)| v == value && *c == category)
}

#[test]
fn gaps_that_join_and_gaps_that_end() {
    for gap in [
        " ", "-", ".", "/", "(", ")", ") ", " (", " - ", "  ", ")-", "(0)",
    ] {
        let gap = gap.replace('0', "");
        assert!(joins(gap.as_bytes(), false), "{gap:?}");
    }
    for gap in [". ", "--", "-.", "..", ",", ", ", "((", "", "    ", " / -"] {
        assert!(!joins(gap.as_bytes(), false), "{gap:?}");
    }
    // Between short chunks, a dot and spaces join (`531. 06. 04`).
    assert!(joins(b". ", true) && joins(b".  ", true));
    assert!(!joins(b" .", true) && !joins(b"..", true));
}

#[test]
fn addresses_ssns_and_spaced_dots() {
    assert_eq!(
        found("192.168.100.200"),
        [("192.168.100.200".to_owned(), Category::Ip, true)]
    );
    assert_eq!(
        found("ssn 123-45-6789"),
        [("123-45-6789".to_owned(), Category::UsSsn, true)]
    );
    assert_eq!(
        found("ssn 123 45 6789"),
        [("123 45 6789".to_owned(), Category::UsSsn, true)]
    );
    assert_eq!(
        found("SSN: 078051120"),
        [("078051120".to_owned(), Category::UsSsn, false)]
    );
    // Invalid areas, groups and serials are not SSNs.
    for text in [
        "666-45-6789",
        "000-12-3456",
        "912-34-5678",
        "123-00-4567",
        "123-45-0000",
    ] {
        assert!(
            !found(text).iter().any(|f| f.1 == Category::UsSsn),
            "{text}"
        );
    }
    assert_eq!(found("531. 06. 04. 106. 25").len(), 1);
    // After a whole number, `. ` is a sentence end.
    assert_eq!(
        found("0523456789. 12"),
        [("0523456789".to_owned(), Category::Phone, true)]
    );
}

#[test]
fn distinctive_shapes_cut_a_group_and_weak_ones_do_not() {
    assert_eq!(
        found("2024-03-15 0523456789"),
        [("0523456789".to_owned(), Category::Phone, true)]
    );
    // A decimal inside a longer group does not hide the rest of it.
    assert!(has("x 052 345.6789", "052 345.6789", Category::Phone));
    // A date that runs on into more digits with its own separator is not a date.
    assert!(has(
        "x 2024-03-15-1234567",
        "2024-03-15-1234567",
        Category::Number
    ));
}

#[test]
fn complete_values_side_by_side_stay_two_spans() {
    assert_eq!(
        found("0523456789 0541234567"),
        [
            ("0523456789".to_owned(), Category::Phone, true),
            ("0541234567".to_owned(), Category::Phone, true)
        ]
    );
    // A leftover that is no value of its own keeps the group whole.
    assert_eq!(
        found("0523456789 12"),
        [("0523456789 12".to_owned(), Category::Phone, true)]
    );
}

#[test]
fn a_short_value_is_validated_but_still_needs_context() {
    assert!(il_id_valid(b"012345674"));
    assert!(found("ID 12345674").contains(&("12345674".to_owned(), Category::IlId, false)));
}

#[test]
fn uuids_are_exempt() {
    let uuid = "550e8400-e29b-41d4-a716-446655440000";
    assert_eq!(uuid_containing(uuid.as_bytes(), 0), Some(36));
    assert_eq!(uuid_containing(uuid.as_bytes(), 24), Some(36));
    assert!(uuid_containing(b"x550e8400-e29b-41d4-a716-446655440000", 1).is_none());
}

//! Property tests: idempotence, untouched text outside spans, evasions of every category, and
//! clean text that must pass through unchanged.

use pii_mask::{Category, Masked, contains_personal_data, mask};
use proptest::prelude::*;
use proptest::sample::select;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 768,
        ..ProptestConfig::default()
    }
}

/// Pieces that put detectors' edges under stress when concatenated at random.
const PIECES: &[&str] = &[
    " ",
    " ",
    "-",
    ".",
    "/",
    "(",
    ")",
    "+",
    ",",
    ":",
    "\n",
    "@",
    "＠",
    "at",
    " at ",
    "[at]",
    "(at)",
    " dot ",
    "[dot]",
    "com",
    "il",
    "png",
    "a",
    "x",
    "e",
    "IL",
    "GB",
    "ID",
    "id",
    "v",
    "account",
    "card",
    "visa",
    "ת.ז",
    "ל",
    "שלום",
    "\u{200b}",
    "\u{200e}",
    "\u{00ad}",
    "\u{0301}",
    "\u{20e3}",
    "\u{fe0f}",
    "٣",
    "５",
    "۷",
    "\u{2013}",
    "\u{00a0}",
    "[PHONE]",
    "[EMAIL]",
    "[CARD]",
    "[BANK_ACCOUNT]",
    "[IL_ID]",
    "[NUMBER]",
    "[IBAN]",
    "_",
    "\"",
    "xn--",
    "0",
    "00",
    "05",
    "972",
    "4111",
    "0000",
    "123456782",
    "0523456789",
    "10-800-",
    "dana",
    "@example.com",
    "IL62",
    "0108",
    "550e8400-e29b-41d4-a716-446655440000",
];

fn adversarial_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => select(PIECES).prop_map(str::to_owned),
        2 => "[0-9]{1,12}",
        1 => "[ -./()+]{1,3}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// Checks the structural promises of one result and returns the rebuilt text.
pub(crate) fn check_structure(input: &str, m: &Masked) -> Result<(), TestCaseError> {
    let mut rebuilt = String::new();
    let mut at = 0;
    for s in &m.spans {
        prop_assert!(
            at <= s.start && s.start < s.end && s.end <= input.len(),
            "{:?}",
            m.spans
        );
        prop_assert!(input.is_char_boundary(s.start) && input.is_char_boundary(s.end));
        rebuilt.push_str(&input[at..s.start]);
        rebuilt.push_str(s.category.placeholder());
        at = s.end;
    }
    rebuilt.push_str(&input[at..]);
    // Everything outside the spans is byte-identical.
    prop_assert_eq!(&rebuilt, &m.text);
    let total: usize = m.counts.values().sum();
    prop_assert_eq!(total, m.spans.len());
    for (c, n) in &m.counts {
        prop_assert!(*n > 0);
        prop_assert_eq!(*n, m.spans.iter().filter(|s| s.category == *c).count());
    }
    Ok(())
}

pub(crate) fn check_idempotent(input: &str) -> Result<(), TestCaseError> {
    let m = mask(input);
    check_structure(input, &m)?;
    let again = mask(&m.text);
    prop_assert_eq!(&again.text, &m.text, "input {:?}", input);
    prop_assert!(
        again.spans.is_empty(),
        "input {:?}: {:?}",
        input,
        again.spans
    );
    Ok(())
}

/// The invariant *no partial mask*: no span starts or ends inside a run of digits. Whatever the
/// input, the character just after a span, and the character just before a span that opens
/// with a digit, is not a digit of any script left visible (invisible characters, which the
/// view drops, are looked through).
fn check_no_partial_mask(input: &str) -> Result<(), TestCaseError> {
    let m = mask(input);
    let invisible = |c: &char| {
        matches!(*c as u32, 0x00AD | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0xFEFF
            | 0xFE00..=0xFE0F | 0x0300..=0x036F | 0x20D0..=0x20FF)
    };
    // A neighbour inside another (touching) span is masked too.
    let covered = |at: usize| m.spans.iter().any(|s| s.start <= at && at < s.end);
    for s in &m.spans {
        let after = input[s.end..]
            .char_indices()
            .find(|(_, c)| !invisible(c))
            .filter(|&(i, _)| !covered(s.end + i))
            .map(|(_, c)| c);
        // A span that closes with a letter (a whole token such as `123456782com`) stands apart
        // from a digit after it, as one that opens with a letter does from a digit before it.
        let closes = !input[..s.end]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphabetic());
        prop_assert!(
            !closes || !after.is_some_and(|c| c.is_numeric()),
            "{:?}: a digit follows {:?}",
            input,
            &input[s.start..s.end]
        );
        // A span that opens with a quote, a bracket or a letter stands apart from a digit before it.
        let opens = !input[s.start..]
            .chars()
            .next()
            .is_some_and(|c| c.is_numeric());
        let before = input[..s.start]
            .char_indices()
            .rev()
            .find(|(_, c)| !invisible(c))
            .filter(|&(i, _)| !covered(i))
            .map(|(_, c)| c);
        prop_assert!(
            opens || !before.is_some_and(|c| c.is_numeric()),
            "{:?}: a digit precedes {:?}",
            input,
            &input[s.start..s.end]
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn idempotent_on_adversarial_text(text in adversarial_text()) {
        check_idempotent(&text)?;
    }

    #[test]
    fn no_span_ends_inside_a_digit_group(text in adversarial_text()) {
        check_no_partial_mask(&text)?;
    }

    #[test]
    fn idempotent_on_any_string(text in any::<String>()) {
        check_idempotent(&text)?;
    }
}

// ---- values of each category, with evasions ----

fn luhn_digit(body: &str) -> char {
    // Doubling starts at the rightmost body digit, since the check digit will follow it.
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    char::from(b'0' + ((10 - sum % 10) % 10) as u8)
}

fn il_id_digit(body: &str) -> char {
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let v = u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 2 };
            if v > 9 { v - 9 } else { v }
        })
        .sum();
    char::from(b'0' + ((10 - sum % 10) % 10) as u8)
}

/// Remainder of a decimal string modulo 97, by long division.
fn mod97(decimal: &str) -> u32 {
    decimal
        .bytes()
        .fold(0, |r, b| (r * 10 + u32::from(b - b'0')) % 97)
}

fn group(s: &str, size: usize, sep: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    chars
        .chunks(size)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(sep)
}

fn phone() -> impl Strategy<Value = (String, Option<Category>)> {
    ("0[57][0-9]{8}", 0..4usize).prop_map(|(d, form)| {
        let s = match form {
            0 => d.clone(),
            1 => format!("{}-{}-{}", &d[..3], &d[3..6], &d[6..]),
            2 => format!("{} {} {}", &d[..3], &d[3..6], &d[6..]),
            _ => format!("+972 {}-{}-{}", &d[1..3], &d[3..6], &d[6..]),
        };
        (s, Some(Category::Phone))
    })
}

fn card() -> impl Strategy<Value = (String, Option<Category>)> {
    ("[1-9][0-9]{14}", 0..3usize).prop_map(|(body, form)| {
        let d = format!("{body}{}", luhn_digit(&body));
        let s = match form {
            0 => d,
            1 => group(&d, 4, " "),
            _ => group(&d, 4, "-"),
        };
        (s, Some(Category::Card))
    })
}

fn iban() -> impl Strategy<Value = (String, Option<Category>)> {
    ("[0-9]{19}", any::<bool>(), any::<bool>()).prop_map(|(bban, grouped, lower)| {
        // I = 18, L = 21; the check digits make the rearranged number ≡ 1 (mod 97).
        let check = 98 - mod97(&format!("{bban}182100"));
        let compact = format!("IL{check:02}{bban}");
        let s = if grouped {
            group(&compact, 4, " ")
        } else {
            compact
        };
        (
            if lower { s.to_lowercase() } else { s },
            Some(Category::Iban),
        )
    })
}

fn il_id() -> impl Strategy<Value = (String, Option<Category>)> {
    ("[0-9]{7}[1-9]", 0..3usize).prop_map(|(body, form)| {
        let d = format!("{body}{}", il_id_digit(&body));
        let s = match form {
            0 => d,
            1 => format!("{}-{}", &d[..8], &d[8..]),
            _ => group(&d, 3, " "),
        };
        (s, Some(Category::IlId))
    })
}

fn bank_account() -> impl Strategy<Value = (String, Option<Category>)> {
    // Account parts stop at eight digits here: a nine-digit part can be a valid Israeli ID,
    // which outranks the account and would rename the placeholder.
    prop_oneof!["[0-9]{2}-[0-9]{3}-[0-9]{4,8}", "[0-9]{3}/[0-9]{4,8}"]
        .prop_map(|s| (s, Some(Category::BankAccount)))
}

fn long_number() -> impl Strategy<Value = (String, Option<Category>)> {
    // Long runs may also read as a card or phone; any placeholder will do. Twelve or fourteen
    // digits that read as a compact timestamp (`200001010000`) are a documented safe shape.
    "[0-9]{10,18}"
        .prop_filter("not a compact timestamp", |s| !compact_timestamp(s))
        .prop_map(|s| (s, None))
}

/// `YYYYMMDDhhmm` or `YYYYMMDDhhmmss` with a year from 1900 to 2099.
fn compact_timestamp(s: &str) -> bool {
    let n = |a: usize, b: usize| s[a..b].parse::<u32>().unwrap_or(u32::MAX);
    (s.len() == 12 || s.len() == 14)
        && (1900..=2099).contains(&n(0, 4))
        && (1..=12).contains(&n(4, 6))
        && (1..=31).contains(&n(6, 8))
        && n(8, 10) <= 23
        && n(10, 12) <= 59
        && (s.len() == 12 || n(12, 14) <= 59)
}

fn email() -> impl Strategy<Value = (String, Option<Category>)> {
    "[a-z][a-z0-9]{0,7}(\\.[a-z]{1,6})?@[a-z]{2,10}\\.(com|org|co\\.il|io)"
        .prop_map(|s| (s, Some(Category::Email)))
}

fn value() -> impl Strategy<Value = (String, Option<Category>)> {
    prop_oneof![
        phone(),
        card(),
        iban(),
        il_id(),
        bank_account(),
        long_number(),
        email()
    ]
}

const INVISIBLES: &[char] = &[
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{200e}', '\u{200f}', '\u{2060}', '\u{00ad}', '\u{feff}',
];
const DIGIT_ZEROS: &[u32] = &[0x30, 0x660, 0x6F0, 0xFF10, 0x966];

/// Rewrites a value the way someone hiding it might: other digit scripts, full-width letters,
/// look-alike dashes and spaces, invisible characters and marks between its characters.
fn evade(value: &str, seeds: &[u8]) -> String {
    let chars: Vec<char> = value.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let seed = seeds[i % seeds.len()];
        let folded = match c {
            '0'..='9' => {
                let zero = DIGIT_ZEROS[usize::from(seed) % DIGIT_ZEROS.len()];
                char::from_u32(zero + (c as u32 - 0x30)).unwrap()
            }
            '-' => ['-', '\u{2013}', '\u{2212}', '\u{ff0d}'][usize::from(seed) % 4],
            ' ' => [' ', '\u{00a0}', '\u{2009}'][usize::from(seed) % 3],
            '@' => ['@', '＠', '﹫'][usize::from(seed) % 3],
            'a'..='z' | 'A'..='Z' if seed.is_multiple_of(5) => {
                char::from_u32(c as u32 + 0xFEE0).unwrap()
            }
            _ => c,
        };
        out.push(folded);
        if i + 1 < chars.len() {
            match seed / 32 {
                0 => out.push(INVISIBLES[usize::from(seed) % INVISIBLES.len()]),
                1 if c.is_ascii_digit() => {
                    out.push(['\u{0301}', '\u{20e3}', '\u{fe0f}'][usize::from(seed) % 3])
                }
                _ => {}
            }
        }
    }
    out
}

/// A digit of any script, as far as a reader is concerned.
fn is_digit(c: char) -> bool {
    c.is_numeric()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn evasive_values_are_masked_whole(
        (value, category) in value(),
        seeds in prop::collection::vec(any::<u8>(), 1..16),
        before in select(&["", "details: ", "פרטים: ", "see\n"][..]),
        glued in select(&["", "ל", "ב", "ו"][..]),
        after in select(&["", " תודה", ", thanks", "."][..]),
    ) {
        let hidden = evade(&value, &seeds);
        let text = format!("{before}{glued}{hidden}{after}");
        let m = mask(&text);
        check_structure(&text, &m)?;
        let middle = m
            .text
            .strip_prefix(&format!("{before}{glued}"))
            .and_then(|rest| rest.strip_suffix(after));
        prop_assert!(middle.is_some(), "{:?} -> {:?}", text, m.text);
        let middle = middle.unwrap_or_default();
        match category {
            Some(c) => prop_assert_eq!(middle, c.placeholder(), "{:?}", text),
            None => prop_assert!(
                Category::ALL.iter().any(|c| c.placeholder() == middle),
                "{:?} -> {:?}", text, m.text
            ),
        }
        prop_assert!(!m.text.chars().any(is_digit), "{:?} -> {:?}", text, m.text);
        prop_assert!(contains_personal_data(&text), "{:?}", text);
    }
}

// ---- clean text ----

fn clean_item() -> impl Strategy<Value = String> {
    prop_oneof![
        (2000..2031u32, 1..13u32, 1..29u32).prop_map(|(y, m, d)| format!("{y}-{m:02}-{d:02}")),
        (2000..2031u32, 1..13u32, 1..29u32).prop_map(|(y, m, d)| format!("{d:02}/{m:02}/{y}")),
        (2000..2031u32, 1..13u32, 1..29u32).prop_map(|(y, m, d)| format!("{d:02}.{m:02}.{y}")),
        (0..24u32, 0..60u32, 0..60u32).prop_map(|(h, m, s)| format!("{h:02}:{m:02}:{s:02}")),
        (0..10_000_000u32, 0..100u32).prop_map(|(n, c)| format!("₪{n}.{c:02}")),
        (1..1000u32, 0..1000u32, 0..1000u32).prop_map(|(a, b, c)| format!("$1,{a:03},{b:03}.{c}")),
        (0..100u32, 0..100u32, 0..1000u32).prop_map(|(a, b, c)| format!("v{a}.{b}.{c}")),
        // Versions that look like addresses, and loopback ones.
        (0..256u32, 0..256u32, 0..256u32, 0..256u32)
            .prop_map(|(a, b, c, d)| format!("v{a}.{b}.{c}.{d}")),
        (0..256u32, 0..256u32, 0..256u32).prop_map(|(b, c, d)| format!("127.{b}.{c}.{d}")),
        "[0-9]-[0-9]{3}-[0-9]{5}-[0-9X]".prop_map(|s| format!("ISBN {s}")),
        "97[89]-[0-9]-[0-9]{2}-[0-9]{6}-[0-9]".prop_map(|s| format!("ISBN {s}")),
        (-90..90i32, 0..10_000u32, -180..180i32, 0..10_000u32)
            .prop_map(|(a, b, c, d)| format!("{a}.{b:04}, {c}.{d:04}")),
        "[1-9][0-9]{8}"
            .prop_filter("valid Israeli ID", |s| il_id_digit(&s[..8])
                != s.chars().last().unwrap())
            .prop_map(|s| format!("order #{s}")),
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "[0-9]{1,4}".prop_map(|s| format!("room {s}")),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn clean_text_is_unchanged(items in prop::collection::vec(clean_item(), 1..6)) {
        let text = format!("Notes: {}.", items.join(", then "));
        let m = mask(&text);
        prop_assert_eq!(&m.text, &text);
        prop_assert!(!contains_personal_data(&text), "{:?}", text);
    }
}

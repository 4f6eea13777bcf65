//! R1: `pii_mask::mask` never panics, returns UTF-8, is idempotent, leaves nothing detectable in
//! its output, and grows the text only by placeholder overhead; and a generated value (a card or
//! an Israeli ID with a valid check digit, written with separators and invisible characters)
//! placed on its own line inside the random text is always covered by one span whole, so none
//! of its digits stays visible.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The longest placeholder: the most a single span can add to the text.
const MAX_PLACEHOLDER: usize = "[BANK_ACCOUNT]".len();

/// A value with a valid check digit, from the eight seed bytes, and where to put it.
fn value(seed: u64) -> String {
    let mut x = seed;
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    let card = next(2) == 0;
    let len = if card { 16 } else { 9 };
    let mut digits: Vec<u32> = (0..len - 1).map(|_| next(10) as u32).collect();
    if card {
        digits[0] = 4;
        let sum: u32 = digits
            .iter()
            .rev()
            .enumerate()
            .map(|(i, &d)| {
                if i % 2 == 0 {
                    if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
                } else {
                    d
                }
            })
            .sum();
        digits.push((10 - sum % 10) % 10);
    } else {
        digits[0] = 1 + next(9) as u32;
        let sum: u32 = digits
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let v = d * if i % 2 == 0 { 1 } else { 2 };
                if v > 9 { v - 9 } else { v }
            })
            .sum();
        digits.push((10 - sum % 10) % 10);
    }
    const SEPARATORS: &[&str] = &["", " ", "-", "\u{a0}", "\u{2013}", "\u{200b}", "/", "."];
    let sep = SEPARATORS[next(SEPARATORS.len() as u64) as usize];
    let group = if card { 4 } else { 3 };
    let mut out = String::new();
    for (i, d) in digits.iter().enumerate() {
        if i > 0 && i % group == 0 {
            out.push_str(sep);
        }
        // Some digits in another script.
        let zero = [0x30, 0x660, 0x966, 0xFF10][next(4) as usize];
        out.push(char::from_u32(zero + d).unwrap_or('0'));
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(text);
    if data.len() >= 8 {
        let seed = u64::from_le_bytes(data[..8].try_into().unwrap_or_default());
        let rest = String::from_utf8_lossy(&data[8..]);
        let mut at = (seed as usize >> 3) % (rest.len() + 1);
        while !rest.is_char_boundary(at) {
            at -= 1;
        }
        let value = value(seed);
        let start = at + 1;
        let placed = format!("{}\n{value}\n{}", &rest[..at], &rest[at..]);
        let end = start + value.len();
        let masked = pii_mask::mask(&placed);
        assert!(
            masked
                .spans
                .iter()
                .any(|s| s.start <= start && s.end >= end),
            "a generated value is not masked whole"
        );
    }
});

fn check(text: &str) {
    let once = pii_mask::mask(text);
    // `String` guarantees UTF-8 only through safe constructors; re-check the bytes anyway, since
    // the masker splices byte ranges.
    assert!(std::str::from_utf8(once.text.as_bytes()).is_ok());
    assert!(once.text.len() <= text.len() + once.spans.len() * MAX_PLACEHOLDER);
    let mut previous_end = 0;
    for span in &once.spans {
        assert!(span.start < span.end && span.end <= text.len());
        assert!(span.start >= previous_end, "spans are sorted and disjoint");
        assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        previous_end = span.end;
    }
    let twice = pii_mask::mask(&once.text);
    assert!(twice.spans.is_empty(), "masking the output finds nothing");
    assert_eq!(twice.text, once.text, "masking is idempotent");
}

//! R1: `pii_mask::mask` never panics, returns UTF-8, is idempotent, leaves nothing detectable in
//! its output, and grows the text only by placeholder overhead; and a generated value (a card or
//! an Israeli ID with a valid check digit, written with separators and invisible characters; a
//! US Social Security number; a public IPv4 address; a GitHub token with its CRC-32 checksum;
//! an AWS key id) placed on its own line inside the random text is always covered by one span
//! whole, so none of its characters stays visible.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The longest placeholder: the most a single span can add to the text.
const MAX_PLACEHOLDER: usize = "[BANK_ACCOUNT]".len();

/// CRC-32 (IEEE, reflected) computed bit by bit, independently of the crate's table.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A personal-data or credential value other than a card or an ID, from the seed.
fn other_value(seed: u64) -> String {
    let mut x = seed | 1;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    match next(4) {
        0 => {
            let area = loop {
                let a = 1 + next(899);
                if a != 666 {
                    break a;
                }
            };
            format!("{area:03}-{:02}-{:04}", 1 + next(99), 1 + next(9999))
        }
        1 => {
            let first = loop {
                let a = 1 + next(223);
                if a != 127 {
                    break a;
                }
            };
            format!("{first}.{}.{}.{}", next(256), next(256), next(256))
        }
        2 => {
            let entropy: Vec<u8> = (0..30).map(|_| BASE62[next(62) as usize]).collect();
            let mut check = u64::from(crc32(&entropy));
            let mut digits = [b'0'; 6];
            for d in digits.iter_mut().rev() {
                *d = BASE62[(check % 62) as usize];
                check /= 62;
            }
            format!(
                "ghp_{}{}",
                String::from_utf8_lossy(&entropy),
                String::from_utf8_lossy(&digits)
            )
        }
        _ => {
            const BASE32: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
            let body: String = (0..16).map(|_| char::from(BASE32[next(32) as usize])).collect();
            format!("AKIA{body}")
        }
    }
}

/// A value with a valid check digit, from the eight seed bytes, and where to put it.
fn value(seed: u64) -> String {
    if seed % 3 == 0 {
        return other_value(seed / 3);
    }
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

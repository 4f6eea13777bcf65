//! Deterministic building blocks for the corpora: a seeded generator, encoders, check digits
//! and template filling. Nothing here reads the clock, the environment or the masker.

pub const BASE62: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
pub const HEX: &str = "0123456789abcdef";
pub const HEX_UPPER: &str = "0123456789ABCDEF";
pub const BASE32_UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
pub const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
pub const LOWER_ALNUM: &str = "0123456789abcdefghijklmnopqrstuvwxyz";
pub const URL_SAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
pub const B64_STD: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// SplitMix64: small, fast and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Inclusive range.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `n` characters drawn from an ASCII alphabet.
    pub fn string(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n).map(|_| char::from(a[self.below(a.len())])).collect()
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }

    pub fn digits(&mut self, n: usize) -> String {
        self.string("0123456789", n)
    }

    pub fn hex(&mut self, n: usize) -> String {
        self.string(HEX, n)
    }

    /// Hex with no run of nine or more digits: random hex has such runs (and ten-digit runs in
    /// about one hash in ten), which the digit rules may read as numbers; the look-alike forms
    /// that want them build them on purpose.
    pub fn hex_no_digit_run(&mut self, n: usize) -> String {
        loop {
            let h = self.hex(n);
            if max_digit_run(&h) < 9 {
                return h;
            }
        }
    }
}

/// The longest run of consecutive ASCII digits.
pub fn max_digit_run(s: &str) -> usize {
    let (mut best, mut cur) = (0, 0);
    for b in s.bytes() {
        if b.is_ascii_digit() {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// The most digits joined by short runs (up to three characters) of spaces, `-`, `.`, `/`,
/// `(`, `)`: a rough copy of the contract's digit groups, used to keep random look-alikes free of
/// accidental long numbers.
pub fn max_digit_group(s: &str) -> usize {
    let (mut best, mut cur, mut gap) = (0usize, 0usize, 0usize);
    for c in s.chars() {
        if c.is_ascii_digit() {
            cur += 1;
            gap = 0;
            best = best.max(cur);
        } else if matches!(c, ' ' | '-' | '.' | '/' | '(' | ')') && cur > 0 && gap < 3 {
            gap += 1;
        } else {
            cur = 0;
            gap = 0;
        }
    }
    best
}

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it), bit by bit.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// A number in base 62 (`0-9A-Za-z`), left-padded with `0` to `width` characters.
pub fn base62_fixed(mut v: u32, width: usize) -> String {
    let a = BASE62.as_bytes();
    let mut out = Vec::new();
    while v > 0 {
        out.push(a[(v % 62) as usize]);
        v /= 62;
    }
    while out.len() < width {
        out.push(b'0');
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Base64 over any 64-character alphabet, with or without `=` padding.
pub fn base64(data: &[u8], alphabet: &str, pad: bool) -> String {
    let a = alphabet.as_bytes();
    let mut out = String::with_capacity(data.len() * 4 / 3 + 4);
    for chunk in data.chunks(3) {
        let b1 = chunk.get(1).copied().unwrap_or(0);
        let b2 = chunk.get(2).copied().unwrap_or(0);
        let n = (u32::from(chunk[0]) << 16) | (u32::from(b1) << 8) | u32::from(b2);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(a[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

pub fn b64(data: &[u8]) -> String {
    base64(data, B64_STD, true)
}

pub fn b64url(data: &[u8]) -> String {
    base64(data, URL_SAFE, false)
}

/// Splits ASCII text into lines of `width` characters.
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    s.as_bytes()
        .chunks(width)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

pub fn luhn_complete(body: &str) -> String {
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

pub fn luhn_valid(d: &str) -> bool {
    d.len() > 1 && luhn_complete(&d[..d.len() - 1]) == d
}

/// Israeli ID: weights 1,2,1,2… from the left, products over 9 reduced by 9, sum ≡ 0 (mod 10).
pub fn il_id_complete(body: &str) -> String {
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let v = u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 2 };
            if v > 9 { v - 9 } else { v }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

pub fn il_id_valid(d: &str) -> bool {
    d.len() == 9
        && d.bytes().all(|b| b.is_ascii_digit())
        && il_id_complete(&d[..8]) == d
        && d.bytes().any(|b| b != b'0')
}

/// IBAN from a country code and a BBAN: ISO 7064 mod 97-10 check digits.
pub fn iban_complete(country: &str, bban: &str) -> String {
    let rearranged = format!("{bban}{country}00");
    let rem = rearranged.chars().fold(0u32, |r, c| {
        let v = c.to_digit(36).unwrap_or(0);
        if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        }
    });
    format!("{country}{:02}{bban}", 98 - rem)
}

pub fn iban_valid(iban: &str) -> bool {
    let s: String = iban.chars().filter(|c| !c.is_whitespace()).collect();
    if s.len() < 5 {
        return false;
    }
    let rearranged = format!("{}{}", &s[4..], &s[..4]);
    rearranged.to_ascii_uppercase().chars().fold(0u32, |r, c| {
        let v = c.to_digit(36).unwrap_or(0);
        if v >= 10 {
            (r * 100 + v) % 97
        } else {
            (r * 10 + v) % 97
        }
    }) == 1
}

/// US SSN validity: area 001–899 except 666, group 01–99, serial 0001–9999.
pub fn ssn_valid(d: &str) -> bool {
    let digits: String = d.chars().filter(char::is_ascii_digit).collect();
    if digits.len() != 9 {
        return false;
    }
    let area: u32 = digits[..3].parse().unwrap_or(0);
    let group: u32 = digits[3..5].parse().unwrap_or(0);
    let serial: u32 = digits[5..].parse().unwrap_or(0);
    (1..=899).contains(&area) && area != 666 && group != 0 && serial != 0
}

/// Splits a digit string into parts of the given lengths (the rest is the last part).
pub fn split_lens(d: &str, lens: &[usize]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut at = 0;
    for &l in lens {
        if at + l >= d.len() {
            break;
        }
        parts.push(d[at..at + l].to_owned());
        at += l;
    }
    if at < d.len() {
        parts.push(d[at..].to_owned());
    }
    parts
}

/// Replaces every `«name»` in `template` (except the value slot `«V»`) with `f(name)`.
/// An unknown name is a bug in a template, so `f` may panic on it.
pub fn fill(template: &str, f: &mut dyn FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(i) = rest.find('«') {
        out.push_str(&rest[..i]);
        let after = &rest[i + '«'.len_utf8()..];
        let Some(j) = after.find('»') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let name = &after[..j];
        if name == "V" {
            out.push_str("«V»");
        } else {
            out.push_str(&f(name));
        }
        rest = &after[j + '»'.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// Splits a filled template at its value slot.
pub fn split_slot(filled: &str) -> (String, String) {
    match filled.split_once("«V»") {
        Some((a, b)) => (a.to_owned(), b.to_owned()),
        None => panic!("template without a value slot: {filled:?}"),
    }
}

/// Common fillers for carriers: dates, times, hosts, versions and other harmless context.
pub fn filler(r: &mut Rng, name: &str) -> String {
    match name {
        "date" => format!(
            "{}-{:02}-{:02}",
            r.range(2019, 2026),
            r.range(1, 12),
            r.range(1, 28)
        ),
        "dmy" => format!(
            "{:02}/{:02}/{}",
            r.range(1, 28),
            r.range(1, 12),
            r.range(2019, 2026)
        ),
        "time" => format!(
            "{:02}:{:02}:{:02}",
            r.range(0, 23),
            r.range(0, 59),
            r.range(0, 59)
        ),
        "hm" => format!("{:02}:{:02}", r.range(7, 22), r.pick(&[0, 15, 30, 45])),
        "ver" => format!("{}.{}.{}", r.range(1, 20), r.range(0, 30), r.range(0, 40)),
        "pid" => r.range(100, 65_000).to_string(),
        "port" => r.range(1024, 65_000).to_string(),
        "n" => r.range(2, 999).to_string(),
        "ms" => format!("{}ms", r.range(3, 2_500)),
        "status" => r
            .pick(&["200", "201", "204", "301", "401", "403", "404", "500"])
            .to_string(),
        "host" => r
            .pick(&[
                "db-1.internal",
                "api.acme.dev",
                "prod-eu-2",
                "web01",
                "staging.example.com",
                "redis.internal",
                "pg.service.consul",
                "build-agent-3",
            ])
            .to_string(),
        "user" => r
            .pick(&[
                "deploy",
                "dana",
                "admin",
                "app",
                "ci-bot",
                "noa",
                "ken",
                "svc_backup",
            ])
            .to_string(),
        "dbuser" => r
            .pick(&["app_rw", "reporting", "deploy", "analytics", "svc_backup"])
            .to_string(),
        "name" => r
            .pick(&[
                "Dana", "Noa", "Yossi", "Ken", "Aiko", "Maya", "Omer", "Liat", "Sam",
            ])
            .to_string(),
        "hename" => r
            .pick(&["דנה", "נועה", "יוסי", "מאיה", "עומר", "ליאת"])
            .to_string(),
        "janame" => r
            .pick(&["田中", "佐藤", "鈴木", "高橋", "山本"])
            .to_string(),
        "region" => r
            .pick(&["eu-west-1", "us-east-1", "il-central-1", "ap-northeast-1"])
            .to_string(),
        "sha7" => loop {
            let h = r.hex(7);
            if h.bytes().any(|b| b.is_ascii_alphabetic()) {
                break h;
            }
        },
        "sha40" => r.hex_no_digit_run(40),
        "sha64" => r.hex_no_digit_run(64),
        "uuid" => uuid(r),
        "path" => r
            .pick(&[
                "/api/v1/items",
                "/healthz",
                "/login",
                "/v2/users/me",
                "/static/app.js",
                "/graphql",
            ])
            .to_string(),
        "method" => r.pick(&["GET", "POST", "PUT", "DELETE"]).to_string(),
        "app" => r
            .pick(&["billing", "web", "worker", "auth", "search", "notifier"])
            .to_string(),
        "db" => r
            .pick(&["app", "app_prod", "analytics", "orders", "main"])
            .to_string(),
        "order" => {
            let n = r.range(3, 8) as usize;
            format!("{}{}", r.range(1, 9), r.digits(n - 1))
        }
        "price" => format!(
            "{},{:03}.{:02}",
            r.range(1, 99),
            r.range(0, 999),
            r.range(0, 99)
        ),
        "mac" => (0..6).map(|_| r.hex(2)).collect::<Vec<_>>().join(":"),
        _ => panic!("unknown filler «{name}»"),
    }
}

pub fn uuid(r: &mut Rng) -> String {
    let h = r.hex(32);
    format!(
        "{}-{}-4{}-{}{}-{}",
        &h[..8],
        &h[8..12],
        &h[13..16],
        r.pick(&["8", "9", "a", "b"]),
        &h[17..20],
        &h[20..]
    )
}

/// ISBN-10 with a valid check character, hyphenated 1-3-5-1.
pub fn isbn10(r: &mut Rng) -> String {
    let body = r.digits(9);
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| (10 - i as u32) * u32::from(b - b'0'))
        .sum();
    let check = (11 - sum % 11) % 11;
    let check = if check == 10 {
        "X".to_owned()
    } else {
        check.to_string()
    };
    format!("{}-{}-{}-{check}", &body[..1], &body[1..4], &body[4..])
}

/// ISBN-13 (978/979) with a valid check digit; hyphenated, spaced or compact.
pub fn isbn13(r: &mut Rng) -> String {
    let body = format!("97{}{}", r.range(8, 9), r.digits(9));
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    let check = (10 - sum % 10) % 10;
    match r.below(3) {
        0 => format!(
            "{}-{}-{}-{}-{check}",
            &body[..3],
            &body[3..4],
            &body[4..6],
            &body[6..12]
        ),
        1 => format!(
            "{} {} {} {} {check}",
            &body[..3],
            &body[3..4],
            &body[4..6],
            &body[6..12]
        ),
        _ => format!("{body}{check}"),
    }
}

/// Instantiates a carrier: `vars` first, then the common fillers; returns the text before and
/// after the value slot.
pub fn carrier(r: &mut Rng, template: &str, vars: &[(&str, &str)]) -> (String, String) {
    let filled = fill(
        template,
        &mut |name| match vars.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => (*v).to_owned(),
            None => filler(r, name),
        },
    );
    split_slot(&filled)
}

/// Instantiates a template without a value slot.
pub fn text(r: &mut Rng, template: &str, vars: &[(&str, &str)]) -> String {
    fill(
        template,
        &mut |name| match vars.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => (*v).to_owned(),
            None => filler(r, name),
        },
    )
}

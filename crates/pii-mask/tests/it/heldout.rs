//! Held-out evaluation on generated agent-memory notes.
//!
//! Every text here is generated in this file from the published rules (`docs/pii-masking.md`)
//! and the providers' published credential formats, with a small seeded generator and no look at
//! the detector: chat notes, shell history, `.env` files with comments, compose and Kubernetes
//! YAML, JSON responses, Python/JS/Go/Rust/Java/PHP snippets, curl and httpie commands, git
//! remotes, log lines, CSV rows, markdown tables and lists, e-mail signatures, and Hebrew,
//! Japanese and mixed-language notes.
//!
//! Positives carry the byte range of each value. A value is FULL when every letter or digit of
//! its range is covered by a span, MISSED when none is, PARTIAL otherwise. Negatives must come
//! back without a span. A handful of forms whose status the rules leave open are printed as
//! "informational" and are not held to the targets.

use pii_mask::mask;
use std::collections::BTreeMap;
use std::time::Instant;

// ---------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------

/// splitmix64: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn raw(&mut self, alpha: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| alpha[self.below(alpha.len())] as char)
            .collect()
    }
    fn digits(&mut self, len: usize) -> String {
        self.raw(DIG, len)
    }
    /// `len` digits, the first not zero.
    fn num(&mut self, len: usize) -> String {
        let first = self.range(1, 9);
        format!("{first}{}", self.digits(len - 1))
    }
    fn numr(&mut self, lo: usize, hi: usize) -> String {
        let n = self.range(lo, hi);
        self.num(n)
    }
}

const DIG: &[u8] = b"0123456789";
const HEX: &[u8] = b"0123456789abcdef";
const HEX_UP: &[u8] = b"0123456789ABCDEF";
const UPPER_DIG: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LOWER_DIG: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const B64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64STD: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const AWS_ID: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const ENTRA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~.-";
const PW_ALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!%*-_+~";
const URL_PW_ALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";
const BECH32: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// Words a random body must not contain, so that it cannot read as documentation.
const DOC_WORDS: &[&str] = &[
    "your",
    "xxxx",
    "replace",
    "redacted",
    "placeholder",
    "example",
    "test",
    "dummy",
    "fake",
    "sample",
    "changeme",
];

/// A random body that looks generated: no run of four equal characters, punctuation neither at
/// the ends nor doubled, letters and digits mixed when the alphabet has both, no
/// documentation word inside.
fn body(r: &mut Rng, alpha: &[u8], len: usize) -> String {
    let letters = alpha.iter().any(u8::is_ascii_alphabetic);
    let digits = alpha.iter().any(u8::is_ascii_digit);
    loop {
        let s = r.raw(alpha, len);
        if looks_generated(&s, letters && digits) {
            return s;
        }
    }
}

fn looks_generated(s: &str, need_mix: bool) -> bool {
    let b = s.as_bytes();
    if b.is_empty() {
        return false;
    }
    if need_mix
        && b.len() >= 6
        && !(b.iter().any(u8::is_ascii_alphabetic) && b.iter().any(u8::is_ascii_digit))
    {
        return false;
    }
    if b.windows(4).any(|w| w.iter().all(|&c| c == w[0])) {
        return false;
    }
    let p = |c: u8| !c.is_ascii_alphanumeric();
    if p(b[0]) || p(b[b.len() - 1]) || b.windows(2).any(|w| p(w[0]) && p(w[1])) {
        return false;
    }
    let low = s.to_ascii_lowercase();
    !DOC_WORDS.iter().any(|w| low.contains(w))
}

/// Hex digest of `len` characters with at least three letters (the documented digest shape).
fn digest(r: &mut Rng, len: usize) -> String {
    loop {
        let s = r.raw(HEX, len);
        if s.bytes().filter(u8::is_ascii_alphabetic).count() >= 3
            && s.bytes().any(|c| c.is_ascii_digit())
        {
            return s;
        }
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// CRC-32 written in base62 (0-9A-Za-z), six characters, left-padded with `0`.
fn crc_b62(body: &str) -> String {
    let mut v = crc32(body.as_bytes());
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = B62[(v % 62) as usize];
        v /= 62;
    }
    String::from_utf8(out.to_vec()).unwrap()
}

/// A six-character checksum that differs from `good`.
fn corrupt(r: &mut Rng, good: &str) -> String {
    loop {
        let mut s: Vec<u8> = good.as_bytes().to_vec();
        let i = r.range(2, 5);
        s[i] = B62[r.below(62)];
        let s = String::from_utf8(s).unwrap();
        if s != good {
            return s;
        }
    }
}

fn base64(data: &[u8], alpha: &[u8], pad: bool) -> String {
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alpha[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn b64(data: &[u8]) -> String {
    base64(data, B64STD, true)
}

fn b64url(data: &[u8]) -> String {
    base64(data, B64URL, false)
}

fn bech32_polymod(values: &[u8]) -> u32 {
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let mut chk = 1u32;
    for &v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// An age secret key: bech32 of 32 random bytes under `age-secret-key-`, upper-cased.
fn age_key(r: &mut Rng) -> String {
    let hrp = "age-secret-key-";
    let bytes: Vec<u8> = (0..32).map(|_| r.below(256) as u8).collect();
    let mut data = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in &bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            data.push(((acc >> bits) & 31) as u8);
        }
    }
    if bits > 0 {
        data.push(((acc << (5 - bits)) & 31) as u8);
    }
    let mut values: Vec<u8> = hrp.bytes().map(|c| c >> 5).collect();
    values.push(0);
    values.extend(hrp.bytes().map(|c| c & 31));
    values.extend(&data);
    values.extend([0u8; 6]);
    let pm = bech32_polymod(&values) ^ 1;
    let mut s = format!("{hrp}1");
    for &d in &data {
        s.push(BECH32[d as usize] as char);
    }
    for i in 0..6 {
        s.push(BECH32[((pm >> (5 * (5 - i))) & 31) as usize] as char);
    }
    s.to_ascii_uppercase()
}

fn luhn_complete(payload: &str) -> String {
    let mut sum = 0;
    for (i, c) in payload.bytes().rev().enumerate() {
        let mut d = u32::from(c - b'0');
        if i % 2 == 0 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    format!("{payload}{}", (10 - sum % 10) % 10)
}

fn il_id(r: &mut Rng) -> String {
    loop {
        let d = r.digits(8);
        let mut sum = 0;
        for (i, c) in d.bytes().enumerate() {
            let mut p = u32::from(c - b'0') * if i % 2 == 0 { 1 } else { 2 };
            if p > 9 {
                p -= 9;
            }
            sum += p;
        }
        let s = format!("{d}{}", (10 - sum % 10) % 10);
        if s != "000000000" {
            return s;
        }
    }
}

fn isbn13(r: &mut Rng) -> String {
    let pre = r.pick(&["978", "979"]);
    let group = r.num(1);
    let pub_len = r.range(2, 4);
    let publisher = r.digits(pub_len);
    let title = r.digits(12 - 3 - 1 - pub_len);
    let all = format!("{pre}{group}{publisher}{title}");
    let sum: u32 = all
        .bytes()
        .enumerate()
        .map(|(i, c)| u32::from(c - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    format!("{pre}-{group}-{publisher}-{title}-{}", (10 - sum % 10) % 10)
}

fn isbn10(r: &mut Rng) -> String {
    loop {
        let group = r.digits(1);
        let publisher = r.digits(3);
        let title = r.digits(5);
        let all = format!("{group}{publisher}{title}");
        let sum: u32 = all
            .bytes()
            .enumerate()
            .map(|(i, c)| u32::from(c - b'0') * (10 - i as u32))
            .sum();
        let check = (11 - sum % 11) % 11;
        if check < 10 {
            return format!("{group}-{publisher}-{title}-{check}");
        }
    }
}

fn uuid(r: &mut Rng) -> String {
    format!(
        "{}-{}-4{}-{}{}-{}",
        r.raw(HEX, 8),
        r.raw(HEX, 4),
        r.raw(HEX, 3),
        r.pick(&["8", "9", "a", "b"]),
        r.raw(HEX, 3),
        r.raw(HEX, 12)
    )
}

fn ipv4(r: &mut Rng) -> String {
    let a = if r.chance(60) {
        r.pick(&[
            10, 172, 192, 203, 198, 100, 34, 52, 8, 45, 185, 91, 23, 81, 151, 212, 35, 13,
        ])
    } else {
        loop {
            let a = r.range(1, 223);
            if a != 127 {
                break a;
            }
        }
    };
    let b = match a {
        172 => r.range(16, 31),
        192 => r.pick(&[168, 0, 88]),
        _ => r.below(256),
    };
    format!("{a}.{b}.{}.{}", r.below(256), r.range(1, 254))
}

fn ipv6_full(r: &mut Rng) -> String {
    let first = r.pick(&[0x2001, 0x2a03, 0x2600, 0x2404, 0x2a00, 0x2c0f]);
    let mut g = vec![format!("{first:04x}")];
    for _ in 0..7 {
        g.push(format!("{:04x}", r.below(0x10000)));
    }
    let s = g.join(":");
    if r.chance(20) {
        s.to_ascii_uppercase()
    } else {
        s
    }
}

fn ipv6_compressed(r: &mut Rng) -> String {
    let first = r.pick(&[
        "2001:db8",
        "2a00:1450",
        "fd12:3456",
        "2606:4700",
        "2001:470",
        "2a02:26f0",
    ]);
    let left_extra = r.below(3);
    let right = r.range(1, 3);
    let mut left = vec![first.to_string()];
    for _ in 0..left_extra {
        left.push(format!("{:x}", r.below(0x10000)));
    }
    let right: Vec<String> = (0..right)
        .map(|_| format!("{:x}", r.range(1, 0xffff)))
        .collect();
    let s = format!("{}::{}", left.join(":"), right.join(":"));
    if r.chance(15) {
        s.to_ascii_uppercase()
    } else {
        s
    }
}

fn ipv6_zone(r: &mut Rng) -> String {
    let n = r.range(2, 4);
    let g: Vec<String> = (0..n)
        .map(|_| format!("{:x}", r.range(1, 0xffff)))
        .collect();
    format!(
        "fe80::{}%{}",
        g.join(":"),
        r.pick(&["eth0", "en0", "wlan0", "ens3", "eno1", "bond0"])
    )
}

fn ipv6_v4(r: &mut Rng) -> String {
    let pre = r.pick(&["::ffff:", "64:ff9b::", "2001:db8::ffff:", "::FFFF:"]);
    format!("{pre}{}", ipv4(r))
}

fn ssn(r: &mut Rng) -> (String, String, String) {
    let area = loop {
        let a = r.range(1, 899);
        if a != 666 {
            break a;
        }
    };
    (
        format!("{area:03}"),
        format!("{:02}", r.range(1, 99)),
        format!("{:04}", r.range(1, 9999)),
    )
}

const WORDS: &[&str] = &[
    "summer", "maple", "river", "falcon", "orange", "winter", "tiger", "purple", "coffee",
    "rocket", "dragon", "sunset", "garden", "silver", "harbor", "meadow", "copper", "lantern",
];

fn cap(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn leet(w: &str) -> String {
    w.chars()
        .map(|c| match c {
            'a' => '4',
            'e' => '3',
            'o' => '0',
            'i' => '1',
            's' => '5',
            other => other,
        })
        .collect()
}

/// A password as people write them: never a plain word; letters mixed with digits or symbols.
fn password(r: &mut Rng) -> String {
    loop {
        let s = match r.below(7) {
            0 | 1 => {
                let n = r.range(12, 20);
                r.raw(PW_ALPHA, n)
            }
            2 => {
                let w = r.pick(WORDS);
                let n = r.range(2, 4);
                format!(
                    "{}{}{}",
                    cap(w),
                    r.digits(n),
                    r.pick(&["!", "%", "*", "~", "+"])
                )
            }
            3 => {
                let w1 = r.pick(WORDS);
                let w2 = r.pick(WORDS);
                format!(
                    "{}{}{}{}",
                    cap(&leet(w1)),
                    r.pick(&["&", "!", "_", "-"]),
                    leet(w2),
                    r.digits(1)
                )
            }
            4 => {
                let n = r.range(24, 32);
                body(r, HEX, n)
            }
            5 => {
                let bytes: Vec<u8> = (0..24).map(|_| r.below(256) as u8).collect();
                b64(&bytes)
            }
            _ => format!(
                "{}-{}-{}-{}",
                r.pick(WORDS),
                r.pick(WORDS),
                r.pick(WORDS),
                r.range(10, 99)
            ),
        };
        let b = s.as_bytes();
        let letters = b.iter().any(u8::is_ascii_alphabetic);
        // A digit or a symbol other than `_`/`-`: letters joined only by `_` or `-` read as an
        // identifier or a hyphenated word, which the rules keep.
        let other = b
            .iter()
            .any(|c| c.is_ascii_digit() || b"!%*+~&/=".contains(c));
        let low = s.to_ascii_lowercase();
        if letters
            && other
            && b[0].is_ascii_alphanumeric()
            && !b.windows(3).any(|w| w.iter().all(|&c| c == w[0]))
            && !DOC_WORDS.iter().any(|w| low.contains(w))
        {
            return s;
        }
    }
}

/// A password that can stand in a URL's userinfo unescaped.
fn url_password(r: &mut Rng) -> String {
    loop {
        let s = if r.chance(30) {
            format!(
                "{}{}{}",
                cap(r.pick(WORDS)),
                r.digits(4),
                r.pick(&["", "-", "_", "~"])
            )
        } else {
            let n = r.range(10, 24);
            r.raw(URL_PW_ALPHA, n)
        };
        if looks_generated(&s, true)
            || s.bytes().any(|c| c == b'-' || c == b'_' || c == b'~')
                && s.bytes().any(|c| c.is_ascii_digit())
                && s.as_bytes()[0].is_ascii_alphanumeric()
        {
            return s;
        }
    }
}

fn shannon(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// A machine-generated token of the kind the high-entropy rule reads: 16+ characters of one of
/// the base64/base62/hex alphabets, letters and digits mixed, at least 3.2 bits per character.
fn entropy_token(r: &mut Rng) -> String {
    loop {
        let s = match r.below(3) {
            0 => body(r, HEX, 32),
            1 => {
                let n = r.range(20, 40);
                body(r, ALNUM, n)
            }
            _ => {
                let n = r.range(24, 44);
                body(r, B64URL, n)
            }
        };
        if shannon(&s) >= 3.2 {
            return s;
        }
    }
}

fn jwt(r: &mut Rng) -> String {
    let header = match r.below(3) {
        0 => r#"{"alg":"HS256","typ":"JWT"}"#.to_string(),
        1 => format!(r#"{{"alg":"RS256","typ":"JWT","kid":"{}"}}"#, r.raw(HEX, 8)),
        _ => r#"{"typ":"JWT","alg":"ES256"}"#.to_string(),
    };
    let iat = 1_690_000_000 + r.below(60_000_000);
    let payload = match r.below(3) {
        0 => format!(
            r#"{{"sub":"{}","name":"{}","iat":{iat}}}"#,
            r.num(7),
            r.pick(&["Dana Levi", "Kenji Sato", "Maria Garcia"])
        ),
        1 => format!(
            r#"{{"sub":"{}","role":"admin","exp":{}}}"#,
            uuid(r),
            iat + 3600
        ),
        _ => format!(
            r#"{{"iss":"https://auth.acme.io/","aud":"api","scope":"read:orders write:orders","iat":{iat}}}"#
        ),
    };
    let sig_len = r.pick(&[43usize, 86, 342]);
    format!(
        "{}.{}.{}",
        b64url(header.as_bytes()),
        b64url(payload.as_bytes()),
        body(r, B64URL, sig_len)
    )
}

fn bearer(r: &mut Rng) -> String {
    match r.below(4) {
        0 => jwt(r),
        1 => {
            let n = r.range(32, 48);
            body(r, ALNUM, n)
        }
        2 => format!("{}.{}", body(r, B64URL, 20), body(r, B64URL, 40)),
        _ => {
            let n = r.range(24, 64);
            body(r, B64URL, n)
        }
    }
}

const PEM_KINDS: &[&str] = &[
    "RSA PRIVATE KEY",
    "PRIVATE KEY",
    "EC PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "DSA PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
];

fn pem(r: &mut Rng, kind: &str, sep: &str) -> String {
    let (start, width) = match kind {
        "RSA PRIVATE KEY" => ("MIIEpAIBAAKCAQEA", 64usize),
        "PRIVATE KEY" => ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 64),
        "EC PRIVATE KEY" => ("MHcCAQEEI", 64),
        "OPENSSH PRIVATE KEY" => (
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            70,
        ),
        "ENCRYPTED PRIVATE KEY" => ("MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 64),
        "DSA PRIVATE KEY" => ("MIIBuwIBAAKBgQ", 64),
        _ => ("lQdGBGX", 64),
    };
    let lines = r.range(5, 22);
    let mut parts = vec![format!("-----BEGIN {kind}-----")];
    if kind.starts_with("PGP") {
        parts.push(String::new());
    }
    for i in 0..lines {
        let line = if i == 0 {
            format!(
                "{start}{}",
                body(r, B64STD, width.saturating_sub(start.len()).max(8))
            )
        } else if i == lines - 1 {
            let n = r.range(8, width - 4);
            format!("{}{}", body(r, B64STD, n), r.pick(&["", "=", "=="]))
        } else {
            body(r, B64STD, width)
        };
        parts.push(line);
    }
    if kind.starts_with("PGP") {
        parts.push(format!("={}", body(r, B64STD, 4)));
    }
    parts.push(format!("-----END {kind}-----"));
    parts.join(sep)
}

// ---------------------------------------------------------------------------------------------
// Texts with known value ranges
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pos,
    Neg,
    InfoPos,
    InfoNeg,
}

struct Case {
    form: &'static str,
    kind: Kind,
    text: String,
    vals: Vec<(usize, usize)>,
}

const FILLERS: &[&str] = &[
    "DATE", "TIME", "HOST", "USER", "NAME", "SVC", "N", "VER", "UUID", "UUIDU", "SHA7", "SHA12",
    "SHA40", "HEX12", "HEX32", "HEX64", "HEX128", "REGION", "A", "B", "C", "D", "E", "B64_86",
    "B64_64", "B64_27", "PORT",
];

fn filler(r: &mut Rng, name: &str) -> String {
    match name {
        "DATE" => format!(
            "{}-{:02}-{:02}",
            r.range(2019, 2025),
            r.range(1, 12),
            r.range(1, 28)
        ),
        "TIME" => format!("{:02}:{:02}:{:02}", r.below(24), r.below(60), r.below(60)),
        "HOST" => r
            .pick(&[
                "db-2.internal",
                "pg.acme-prod.net",
                "api.example.dev",
                "auth.corp.example.com",
                "gitlab.example.org",
                "nexus.build.lan",
                "redis-cache.svc.cluster.local",
                "staging.acme.io",
            ])
            .to_string(),
        "USER" => r
            .pick(&[
                "deploy",
                "ci-bot",
                "dana",
                "admin",
                "svc-reports",
                "yossi",
                "kenji",
                "app",
            ])
            .to_string(),
        "NAME" => r
            .pick(&[
                "Dana Levi",
                "Yossi Cohen",
                "Kenji Sato",
                "Maria Garcia",
                "Noa Friedman",
                "Tom Baker",
            ])
            .to_string(),
        "SVC" => r
            .pick(&[
                "billing", "auth-gw", "ingest", "search", "notifier", "payments", "reports",
            ])
            .to_string(),
        "N" => r.range(2, 9999).to_string(),
        "PORT" => r
            .pick(&["5432", "6379", "8080", "3306", "443", "9200"])
            .to_string(),
        "VER" => format!("{}.{}.{}", r.range(1, 9), r.below(30), r.below(20)),
        "UUID" => uuid(r),
        "UUIDU" => uuid(r).to_ascii_uppercase(),
        "SHA7" => digest(r, 7),
        "SHA12" => digest(r, 12),
        "SHA40" => digest(r, 40),
        "HEX12" => digest(r, 12),
        "HEX32" => digest(r, 32),
        "HEX64" => digest(r, 64),
        "HEX128" => digest(r, 128),
        "REGION" => r
            .pick(&["us-east-1", "eu-west-1", "ap-northeast-1"])
            .to_string(),
        "A" => r.range(1, 30).to_string(),
        "B" => r.below(30).to_string(),
        "C" => r.below(40).to_string(),
        "D" => r.below(250).to_string(),
        "E" => r.range(1000, 9999).to_string(),
        "B64_86" => body(r, B64STD, 86),
        "B64_64" => body(r, B64STD, 64),
        "B64_27" => body(r, B64STD, 27),
        _ => unreachable!("{name}"),
    }
}

/// Replaces the known `{NAME}` fillers, then puts `vals` where `§` stands, recording their
/// ranges. Anything else in braces (JSON, code, `${TOKEN}`) stays as written.
fn render(r: &mut Rng, tpl: &str, vals: &[String]) -> (String, Vec<(usize, usize)>) {
    let mut filled = String::new();
    let mut rest = tpl;
    while let Some(i) = rest.find('{') {
        filled.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let name_len = after
            .find('}')
            .filter(|&j| j <= 8 && FILLERS.contains(&&after[..j]));
        match name_len {
            Some(j) => {
                let f = filler(r, &after[..j]);
                filled.push_str(&f);
                rest = &after[j + 1..];
            }
            None => {
                filled.push('{');
                rest = after;
            }
        }
    }
    filled.push_str(rest);
    let pieces: Vec<&str> = filled.split('§').collect();
    assert_eq!(pieces.len(), vals.len() + 1, "template {tpl:?}");
    let mut text = String::new();
    let mut ranges = Vec::new();
    for (k, piece) in pieces.iter().enumerate() {
        text.push_str(piece);
        if k < vals.len() {
            let s = text.len();
            text.push_str(&vals[k]);
            ranges.push((s, text.len()));
        }
    }
    (text, ranges)
}

fn one(r: &mut Rng, tpl: &str, val: String) -> (String, Vec<(usize, usize)>) {
    render(r, tpl, &[val])
}

// ---------------------------------------------------------------------------------------------
// Provider keys
// ---------------------------------------------------------------------------------------------

struct Key {
    /// Where the value stands in its surroundings (`§`), e.g. a webhook URL around its path.
    wrap: &'static str,
    value: String,
}

fn plain(value: String) -> Key {
    Key { wrap: "§", value }
}

fn gh_classic(r: &mut Rng, valid: bool) -> String {
    let pre = r.pick(&["ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"]);
    let b = body(r, ALNUM, 30);
    let good = crc_b62(&b);
    let c = if valid { good } else { corrupt(r, &good) };
    format!("{pre}{b}{c}")
}

fn npm_token(r: &mut Rng, valid: bool) -> String {
    let b = body(r, ALNUM, 30);
    let good = crc_b62(&b);
    let c = if valid { good } else { corrupt(r, &good) };
    format!("npm_{b}{c}")
}

fn k_aws(r: &mut Rng) -> Key {
    let pre = r.pick(&["AKIA", "AKIA", "ASIA"]);
    plain(format!("{pre}{}", body(r, AWS_ID, 16)))
}
fn k_gh_classic(r: &mut Rng) -> Key {
    plain(gh_classic(r, true))
}
fn k_gh_fine(r: &mut Rng) -> Key {
    plain(format!(
        "github_pat_11{}_{}",
        body(r, UPPER_DIG, 20),
        body(r, ALNUM, 59)
    ))
}
fn k_gitlab(r: &mut Rng) -> Key {
    let pre = r.pick(&["glpat-", "glpat-", "glpat-", "glrt-", "gldt-"]);
    plain(format!("{pre}{}", body(r, B64URL, 20)))
}
fn k_slack(r: &mut Rng) -> Key {
    plain(match r.below(3) {
        0 => format!(
            "xoxb-{}-{}-{}",
            r.numr(10, 13),
            r.numr(10, 13),
            body(r, ALNUM, 24)
        ),
        1 => format!(
            "xoxp-{}-{}-{}-{}",
            r.numr(10, 13),
            r.numr(10, 13),
            r.numr(10, 13),
            body(r, HEX, 32)
        ),
        _ => format!(
            "xapp-1-A{}-{}-{}",
            body(r, UPPER_DIG, 10),
            r.num(13),
            body(r, HEX, 64)
        ),
    })
}
fn k_slack_webhook(r: &mut Rng) -> Key {
    let n = r.range(8, 10);
    Key {
        wrap: "https://hooks.slack.com/services/§",
        value: format!(
            "T{}/B{}/{}",
            body(r, UPPER_DIG, 8),
            body(r, UPPER_DIG, n),
            body(r, ALNUM, 24)
        ),
    }
}
fn k_stripe(r: &mut Rng) -> Key {
    plain(match r.below(4) {
        0 => format!("sk_live_{}", body(r, ALNUM, 24)),
        1 => format!("sk_live_{}", body(r, ALNUM, 99)),
        2 => format!("rk_live_{}", body(r, ALNUM, 24)),
        _ => format!("whsec_{}", body(r, ALNUM, 32)),
    })
}
fn k_twilio(r: &mut Rng) -> Key {
    plain(format!("SK{}", body(r, HEX, 32)))
}
fn k_sendgrid(r: &mut Rng) -> Key {
    plain(format!(
        "SG.{}.{}",
        body(r, B64URL, 22),
        body(r, B64URL, 43)
    ))
}
fn k_openai(r: &mut Rng) -> Key {
    plain(match r.below(5) {
        0 => format!(
            "sk-proj-{}T3BlbkFJ{}",
            body(r, B64URL, 74),
            body(r, B64URL, 74)
        ),
        1 => format!(
            "sk-proj-{}T3BlbkFJ{}",
            body(r, B64URL, 58),
            body(r, B64URL, 58)
        ),
        2 => format!("sk-{}T3BlbkFJ{}", body(r, ALNUM, 20), body(r, ALNUM, 20)),
        3 => format!(
            "sk-svcacct-{}T3BlbkFJ{}",
            body(r, B64URL, 74),
            body(r, B64URL, 74)
        ),
        _ => format!("sk-{}", body(r, ALNUM, 48)),
    })
}
fn k_anthropic(r: &mut Rng) -> Key {
    let pre = r.pick(&["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]);
    plain(format!("{pre}{}AA", body(r, B64URL, 93)))
}
fn k_google_api(r: &mut Rng) -> Key {
    plain(format!("AIzaSy{}", body(r, B64URL, 33)))
}
fn k_google_oauth(r: &mut Rng) -> Key {
    let n = r.range(120, 180);
    plain(format!("ya29.a0{}", body(r, B64URL, n)))
}
fn k_gocspx(r: &mut Rng) -> Key {
    plain(format!("GOCSPX-{}", body(r, B64URL, 28)))
}
fn k_hf(r: &mut Rng) -> Key {
    plain(format!("hf_{}", body(r, LETTERS, 34)))
}
fn k_npm(r: &mut Rng) -> Key {
    plain(npm_token(r, true))
}
fn k_pypi(r: &mut Rng) -> Key {
    let n = r.range(60, 140);
    plain(format!("pypi-AgEIcHlwaS5vcmc{}", body(r, B64URL, n)))
}
fn k_docker(r: &mut Rng) -> Key {
    plain(format!("dckr_pat_{}", body(r, B64URL, 27)))
}
fn k_shopify(r: &mut Rng) -> Key {
    let pre = r.pick(&["shpat_", "shpss_", "shpca_", "shppa_"]);
    plain(format!("{pre}{}", body(r, HEX, 32)))
}
fn k_digitalocean(r: &mut Rng) -> Key {
    let pre = r.pick(&["dop_v1_", "dop_v1_", "doo_v1_"]);
    plain(format!("{pre}{}", body(r, HEX, 64)))
}
fn k_telegram(r: &mut Rng) -> Key {
    plain(format!("{}:AA{}", r.numr(8, 10), body(r, B64URL, 33)))
}
fn k_discord_webhook(r: &mut Rng) -> Key {
    let wrap = r.pick(&[
        "https://discord.com/api/webhooks/§",
        "https://discordapp.com/api/webhooks/§",
        "https://discord.com/api/webhooks/§?wait=true",
    ]);
    Key {
        wrap,
        value: format!("{}/{}", r.numr(18, 19), body(r, B64URL, 68)),
    }
}
fn k_discord_bot(r: &mut Rng) -> Key {
    let id = r.num(18);
    let last = r.pick(&[27usize, 38]);
    plain(format!(
        "{}.{}.{}",
        base64(id.as_bytes(), B64STD, false),
        body(r, B64URL, 6),
        body(r, B64URL, last)
    ))
}
fn k_mailgun(r: &mut Rng) -> Key {
    plain(format!("key-{}", body(r, HEX, 32)))
}
fn k_entra(r: &mut Rng) -> Key {
    plain(format!(
        "{}{}Q~{}",
        body(r, ALNUM, 3),
        r.digits(1),
        body(r, ENTRA, 34)
    ))
}
fn k_heroku(r: &mut Rng) -> Key {
    plain(format!("HRKU-AA{}", body(r, B64URL, 58)))
}
fn k_vault(r: &mut Rng) -> Key {
    let n = r.range(86, 96);
    plain(format!("hvs.CAESI{}", body(r, B64URL, n)))
}
fn k_doppler(r: &mut Rng) -> Key {
    plain(format!("dp.pt.{}", body(r, ALNUM, 43)))
}
fn k_age(r: &mut Rng) -> Key {
    plain(age_key(r))
}
fn k_groq(r: &mut Rng) -> Key {
    plain(format!("gsk_{}", body(r, ALNUM, 52)))
}
fn k_replicate(r: &mut Rng) -> Key {
    plain(format!("r8_{}", body(r, ALNUM, 37)))
}
fn k_perplexity(r: &mut Rng) -> Key {
    plain(format!("pplx-{}", body(r, ALNUM, 48)))
}
fn k_xai(r: &mut Rng) -> Key {
    plain(format!("xai-{}", body(r, ALNUM, 80)))
}
fn k_openrouter(r: &mut Rng) -> Key {
    plain(format!("sk-or-v1-{}", body(r, HEX, 64)))
}
fn k_grafana(r: &mut Rng) -> Key {
    plain(format!("glsa_{}_{}", body(r, ALNUM, 32), body(r, HEX, 8)))
}
fn k_sentry(r: &mut Rng) -> Key {
    plain(format!("sntryu_{}", body(r, HEX, 64)))
}
fn k_square(r: &mut Rng) -> Key {
    plain(if r.chance(50) {
        format!("EAAA{}", body(r, B64URL, 60))
    } else {
        format!("sq0atp-{}", body(r, B64URL, 22))
    })
}
fn k_rubygems(r: &mut Rng) -> Key {
    plain(format!("rubygems_{}", body(r, HEX, 48)))
}
fn k_atlassian(r: &mut Rng) -> Key {
    plain(format!(
        "ATATT3xFfGF0{}={}",
        body(r, B64URL, 171),
        body(r, HEX_UP, 8)
    ))
}
fn k_bitbucket(r: &mut Rng) -> Key {
    plain(format!("ATBB{}", body(r, ALNUM, 32)))
}
fn k_buildkite(r: &mut Rng) -> Key {
    plain(format!("bkua_{}", body(r, HEX, 40)))
}
fn k_sonar(r: &mut Rng) -> Key {
    plain(format!("squ_{}", body(r, HEX, 40)))
}
fn k_razorpay(r: &mut Rng) -> Key {
    plain(format!("rzp_live_{}", body(r, ALNUM, 14)))
}
fn k_langsmith(r: &mut Rng) -> Key {
    let pre = r.pick(&["lsv2_pt_", "lsv2_sk_"]);
    plain(format!("{pre}{}_{}", body(r, HEX, 32), body(r, HEX, 10)))
}
fn k_tavily(r: &mut Rng) -> Key {
    let pre = r.pick(&["tvly-", "tvly-dev-"]);
    plain(format!("{pre}{}", body(r, ALNUM, 32)))
}
fn k_nuget(r: &mut Rng) -> Key {
    plain(format!("oy2{}", body(r, LOWER_DIG, 43)))
}
fn k_crates(r: &mut Rng) -> Key {
    plain(format!("cio{}", body(r, ALNUM, 32)))
}
fn k_clojars(r: &mut Rng) -> Key {
    plain(format!("CLOJARS_{}", body(r, LOWER_DIG, 60)))
}
fn k_braintree(r: &mut Rng) -> Key {
    plain(format!(
        "access_token$production${}${}",
        body(r, LOWER_DIG, 16),
        body(r, HEX, 32)
    ))
}
fn k_linear(r: &mut Rng) -> Key {
    plain(format!("lin_api_{}", body(r, ALNUM, 40)))
}
fn k_postman(r: &mut Rng) -> Key {
    plain(format!("PMAK-{}-{}", body(r, HEX, 24), body(r, HEX, 34)))
}

struct Provider {
    form: &'static str,
    label: &'static str,
    env: &'static str,
    make: fn(&mut Rng) -> Key,
    kind: Kind,
    n: usize,
}

fn p(
    form: &'static str,
    label: &'static str,
    env: &'static str,
    make: fn(&mut Rng) -> Key,
) -> Provider {
    Provider {
        form,
        label,
        env,
        make,
        kind: Kind::Pos,
        n: 24,
    }
}

fn providers() -> Vec<Provider> {
    let mut v = vec![
        p("key:aws_key_id", "AWS", "AWS_ACCESS_KEY_ID", k_aws),
        Provider {
            n: 60,
            ..p("key:github_classic", "GitHub", "GH_TOKEN", k_gh_classic)
        },
        p("key:github_fine_grained", "GitHub", "GITHUB_PAT", k_gh_fine),
        p("key:gitlab", "GitLab", "GITLAB_TOKEN", k_gitlab),
        p("key:slack_token", "Slack", "SLACK_BOT_TOKEN", k_slack),
        p(
            "key:slack_webhook",
            "Slack",
            "SLACK_WEBHOOK_URL",
            k_slack_webhook,
        ),
        p("key:stripe", "Stripe", "STRIPE_SECRET_KEY", k_stripe),
        p("key:twilio", "Twilio", "TWILIO_API_KEY", k_twilio),
        p("key:sendgrid", "SendGrid", "SENDGRID_API_KEY", k_sendgrid),
        p("key:openai", "OpenAI", "OPENAI_API_KEY", k_openai),
        p(
            "key:anthropic",
            "Anthropic",
            "ANTHROPIC_API_KEY",
            k_anthropic,
        ),
        p(
            "key:google_api",
            "Google Maps",
            "GOOGLE_MAPS_API_KEY",
            k_google_api,
        ),
        p(
            "key:google_oauth_ya29",
            "Google",
            "GOOGLE_ACCESS_TOKEN",
            k_google_oauth,
        ),
        p(
            "key:google_gocspx",
            "Google OAuth",
            "GOOGLE_CLIENT_SECRET",
            k_gocspx,
        ),
        p("key:huggingface", "Hugging Face", "HF_TOKEN", k_hf),
        p("key:npm", "npm", "NPM_TOKEN", k_npm),
        p("key:pypi", "PyPI", "TWINE_PASSWORD", k_pypi),
        p("key:dockerhub", "Docker Hub", "DOCKERHUB_TOKEN", k_docker),
        p("key:shopify", "Shopify", "SHOPIFY_ACCESS_TOKEN", k_shopify),
        p(
            "key:digitalocean",
            "DigitalOcean",
            "DIGITALOCEAN_TOKEN",
            k_digitalocean,
        ),
        p("key:telegram", "Telegram", "TELEGRAM_BOT_TOKEN", k_telegram),
        p(
            "key:discord_webhook",
            "Discord",
            "DISCORD_WEBHOOK_URL",
            k_discord_webhook,
        ),
        p(
            "key:discord_bot",
            "Discord",
            "DISCORD_BOT_TOKEN",
            k_discord_bot,
        ),
        p("key:mailgun", "Mailgun", "MAILGUN_API_KEY", k_mailgun),
        p(
            "key:entra_client_secret",
            "Azure",
            "AZURE_CLIENT_SECRET",
            k_entra,
        ),
        p("key:heroku", "Heroku", "HEROKU_API_KEY", k_heroku),
        p("key:vault", "Vault", "VAULT_TOKEN", k_vault),
        p("key:doppler", "Doppler", "DOPPLER_TOKEN", k_doppler),
        p("key:age", "age", "SOPS_AGE_KEY", k_age),
        p("key:groq", "Groq", "GROQ_API_KEY", k_groq),
        p(
            "key:replicate",
            "Replicate",
            "REPLICATE_API_TOKEN",
            k_replicate,
        ),
        p("key:perplexity", "Perplexity", "PPLX_API_KEY", k_perplexity),
        p("key:xai", "xAI", "XAI_API_KEY", k_xai),
        p(
            "key:openrouter",
            "OpenRouter",
            "OPENROUTER_API_KEY",
            k_openrouter,
        ),
        p("key:grafana", "Grafana", "GRAFANA_SA_TOKEN", k_grafana),
        p("key:sentry", "Sentry", "SENTRY_AUTH_TOKEN", k_sentry),
        p("key:square", "Square", "SQUARE_ACCESS_TOKEN", k_square),
        p("key:rubygems", "RubyGems", "GEM_HOST_API_KEY", k_rubygems),
        p("key:atlassian", "Jira", "JIRA_API_TOKEN", k_atlassian),
        p(
            "key:bitbucket",
            "Bitbucket",
            "BITBUCKET_APP_PASSWORD",
            k_bitbucket,
        ),
        p(
            "key:buildkite",
            "Buildkite",
            "BUILDKITE_API_TOKEN",
            k_buildkite,
        ),
        p("key:sonarqube", "SonarQube", "SONAR_TOKEN", k_sonar),
        p("key:razorpay", "Razorpay", "RAZORPAY_KEY_ID", k_razorpay),
        p(
            "key:langsmith",
            "LangSmith",
            "LANGSMITH_API_KEY",
            k_langsmith,
        ),
        p("key:tavily", "Tavily", "TAVILY_API_KEY", k_tavily),
        p("key:nuget", "NuGet", "NUGET_API_KEY", k_nuget),
        p(
            "key:crates_io",
            "crates.io",
            "CARGO_REGISTRY_TOKEN",
            k_crates,
        ),
        p("key:clojars", "Clojars", "CLOJARS_DEPLOY_TOKEN", k_clojars),
        p(
            "key:braintree",
            "Braintree",
            "BRAINTREE_ACCESS_TOKEN",
            k_braintree,
        ),
    ];
    // Providers the rules do not name: reported, not held to the targets.
    v.push(Provider {
        kind: Kind::InfoPos,
        ..p("info:key_linear", "Linear", "LINEAR_API_KEY", k_linear)
    });
    v.push(Provider {
        kind: Kind::InfoPos,
        ..p("info:key_postman", "Postman", "POSTMAN_API_KEY", k_postman)
    });
    v
}

/// Carriers for a provider key. `§` is the key (inside its wrap).
const KEY_CARRIERS: &[&str] = &[
    "fyi the {PROV} creds for staging are § (rotate after the demo)",
    "ok {PROV} works now, using § for the sandbox. don't paste it in #general",
    "  {N}  export {ENV}=§",
    "$ {ENV}='§' ./scripts/deploy.sh --env staging",
    "# {PROV} (prod), rotated {DATE}\n{ENV}=§\nLOG_LEVEL=info\nPORT=8080\n",
    "services:\n  worker:\n    image: acme/worker:{VER}\n    environment:\n      - {ENV}=§\n      - TZ=UTC\n",
    "services:\n  api:\n    environment:\n      {ENV}: \"§\"\n      NODE_ENV: production\n",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {SVC}-creds\ntype: Opaque\nstringData:\n  {ENVL}: §\n",
    "{\"status\":\"ok\",\"data\":{\"provider\":\"{PROVL}\",\"credential\":\"§\",\"created_at\":\"{DATE}T{TIME}Z\"}}",
    "client = {PROVC}Client(\"§\", timeout=30)",
    "const client = new {PROVC}Client({ auth: '§', retries: 3 });",
    "cfg := {PROVL}.Config{Endpoint: \"https://{HOST}\", Credential: \"§\"}",
    "let client = {PROVC}Client::new(\"§\");",
    "private static final String {ENV} = \"§\";",
    "curl -s https://{HOST}/v1/me -H 'X-Api-Key: §' | jq .",
    "{DATE}T{TIME}Z WARN  {SVC}: upstream rejected credential=§ attempt=3",
    "| service | value | owner |\n|---|---|---|\n| {PROV} | `§` | {USER} |",
    "- {PROV}: §\n- owner: {USER}\n- expires: {DATE}",
    "המפתח של {PROV} לסביבת הבדיקות: §",
    "{PROV}のキーは§です。明日までに更新してください。",
    "{PROV} 用: § （本番）",
    "note / הערה: {ENV}=§ // 本番では使わない",
    "\"{PROV}\",\"§\",\"{USER}\",\"{DATE}\"",
    "{PROV}: `§`",
    "> {PROV}\n> §\n",
    "https://{HOST}/v1/search?format=json&key=§&page=2",
    "rotated the {PROV} one (`§`).",
];

/// Extra carriers for source-hosting tokens: git remotes.
const GIT_CARRIERS: &[&str] = &[
    "git remote set-url origin https://{USER}:§@github.com/acme/{SVC}.git",
    "git clone https://oauth2:§@gitlab.com/acme/{SVC}.git",
    "[remote \"origin\"]\n\turl = https://x-access-token:§@github.com/acme/{SVC}.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*",
    "$ git remote -v\norigin\thttps://§@github.com/acme/{SVC}.git (fetch)",
];

fn key_case(r: &mut Rng, pv: &Provider) -> Case {
    let key = (pv.make)(r);
    let git = matches!(
        pv.form,
        "key:github_classic" | "key:github_fine_grained" | "key:gitlab"
    );
    let tpl = if git && r.chance(25) {
        r.pick(GIT_CARRIERS)
    } else {
        r.pick(KEY_CARRIERS)
    };
    let provl: String = pv.label.to_ascii_lowercase().replace([' ', '.'], "");
    let provc: String = pv
        .label
        .split([' ', '.'])
        .map(cap)
        .collect::<Vec<_>>()
        .join("");
    let tpl = tpl
        .replace("{PROVL}", &provl)
        .replace("{PROVC}", &provc)
        .replace("{PROV}", pv.label)
        .replace("{ENVL}", &pv.env.to_ascii_lowercase())
        .replace("{ENV}", pv.env)
        .replace('§', key.wrap);
    let (text, vals) = one(r, &tpl, key.value);
    Case {
        form: pv.form,
        kind: pv.kind,
        text,
        vals,
    }
}

// ---------------------------------------------------------------------------------------------
// Other credential forms
// ---------------------------------------------------------------------------------------------

type Gen = fn(&mut Rng) -> (String, Vec<(usize, usize)>);

fn g_aws_credentials(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let id = k_aws(r).value;
    let secret = body(r, B64STD, 40);
    match r.below(4) {
        0 => render(
            r,
            "[default]\naws_access_key_id = §\naws_secret_access_key = §\nregion = {REGION}\n",
            &[id, secret],
        ),
        1 => render(
            r,
            "$ aws configure\nAWS Access Key ID [None]: §\nAWS Secret Access Key [None]: §\nDefault region name [None]: {REGION}",
            &[id, secret],
        ),
        2 => render(
            r,
            "export AWS_ACCESS_KEY_ID=§\nexport AWS_SECRET_ACCESS_KEY=§",
            &[id, secret],
        ),
        _ => {
            let session = format!("IQoJb3JpZ2luX2VjE{}", body(r, B64STD, 300));
            render(
                r,
                "{\n  \"Credentials\": {\n    \"AccessKeyId\": \"§\",\n    \"SecretAccessKey\": \"§\",\n    \"SessionToken\": \"§\",\n    \"Expiration\": \"{DATE}T{TIME}+00:00\"\n  }\n}",
                &[id, secret, session],
            )
        }
    }
}

fn g_datadog_env(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = digest(r, 32);
    let tpl = r.pick(&[
        "DD_API_KEY={X}",
        "export DD_API_KEY=§",
        "      - DD_API_KEY=§\n      - DD_SITE=datadoghq.eu",
        "DATADOG_API_KEY: \"§\"",
        "{\"datadog_api_key\": \"§\", \"site\": \"datadoghq.com\"}",
        "docker run -d -e DD_API_KEY=§ gcr.io/datadoghq/agent:7",
    ]);
    one(r, &tpl.replace("{X}", "§"), v)
}

fn g_jwt(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let mut t = jwt(r);
    let truncated = r.chance(12);
    if truncated {
        let cut = t.find('.').unwrap() + 1 + 20;
        t.truncate(cut);
    }
    let tpl = r.pick(&[
        "Authorization: Bearer §",
        "curl -H \"Authorization: Bearer §\" https://{HOST}/api/v2/orders",
        "Cookie: session=§; Path=/; HttpOnly",
        "{\"id_token\":\"§\",\"expires_in\":3600}",
        "jwt from localStorage: §",
        "{DATE}T{TIME}Z DEBUG verifying §",
        "https://{HOST}/callback#access_token=§&token_type=bearer",
        "auth:\n  token: §\n",
        "ローカルのJWT: §",
        "הטוקן מהדפדפן: §",
        "the jwt i got back was § and it expires in an hour",
        "- jwt: `§`",
    ]);
    let tpl = if truncated {
        tpl.replace('§', "§…")
    } else {
        tpl.to_string()
    };
    one(r, &tpl, t)
}

fn g_pem(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let kind = r.pick(PEM_KINDS);
    if r.chance(8) {
        // Pasted without its END line: the value runs to where the base64 body stops.
        let full = pem(r, "RSA PRIVATE KEY", "\n");
        let cut = full.rfind("\n-----END").unwrap();
        let v = full[..cut].to_string();
        return one(
            r,
            "key from the old laptop (paste got cut):\n§\n\nwill re-export tomorrow",
            v,
        );
    }
    match r.below(9) {
        0 => {
            let v = pem(r, kind, "\n");
            one(
                r,
                "deploy key for the ci box (remove after the migration):\n§\n",
                v,
            )
        }
        1 => {
            let v = pem(r, kind, "\n");
            one(r, "```\n§\n```", v)
        }
        2 => {
            let v = pem(r, kind, "\n    ");
            one(r, "ssh:\n  private_key: |\n    §\n", v)
        }
        3 => {
            let v = pem(r, "OPENSSH PRIVATE KEY", "\n");
            one(r, "$ cat ~/.ssh/id_ed25519\n§", v)
        }
        4 => {
            let v = pem(r, kind, "\\n");
            one(r, "TLS_KEY=\"§\"", v)
        }
        5 => {
            let v = pem(r, kind, "\\n");
            let cert = format!(
                "-----BEGIN CERTIFICATE-----\\nMIIB{}\\n{}\\n-----END CERTIFICATE-----",
                body(r, B64STD, 60),
                body(r, B64STD, 40)
            );
            one(r, &format!("{{\"key\":\"§\",\"cert\":\"{cert}\"}}"), v)
        }
        6 => {
            let v = pem(r, kind, "\n");
            one(r, "המפתח הפרטי לשרת:\n§", v)
        }
        7 => {
            let v = pem(r, kind, "\n");
            one(r, "秘密鍵（本番）:\n§\n以上", v)
        }
        _ => {
            let v = pem(r, kind, "\n");
            one(r, "- name: bastion\n  note: |\n§\n", v)
        }
    }
}

fn g_gcp_sa(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let project = format!(
        "{}-{}-{}",
        r.pick(&["acme", "orbit", "zenith"]),
        r.pick(&["prod", "staging", "data"]),
        r.range(100, 999)
    );
    let svc = r.pick(&["ci-deployer", "bq-reader", "uploader"]);
    let key_id = digest(r, 40);
    let client_id = r.num(21);
    let pem = pem(r, "PRIVATE KEY", "\\n");
    let fields = [
        ("type", "service_account".to_string()),
        ("project_id", project.clone()),
        ("private_key_id", key_id),
        ("private_key", "§\\n".to_string()),
        (
            "client_email",
            format!("{svc}@{project}.iam.gserviceaccount.com"),
        ),
        ("client_id", client_id),
        (
            "auth_uri",
            "https://accounts.google.com/o/oauth2/auth".to_string(),
        ),
        (
            "token_uri",
            "https://oauth2.googleapis.com/token".to_string(),
        ),
    ];
    let tpl = if r.chance(60) {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\": \"{v}\""))
            .collect();
        format!("{{\n{}\n}}\n", body.join(",\n"))
    } else {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("\"{k}\":\"{v}\""))
            .collect();
        format!("GOOGLE_CREDENTIALS='{{{}}}'", body.join(","))
    };
    one(r, &tpl, pem)
}

fn g_url_password(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let pw = url_password(r);
    let tpl = r.pick(&[
        "DATABASE_URL=postgres://{USER}:§@{HOST}:5432/app",
        "psql \"postgresql://{USER}:§@{HOST}/reports?sslmode=require\"",
        "mongodb+srv://{USER}:§@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority",
        "REDIS_URL=redis://default:§@{HOST}:6379/0",
        "cache: redis://:§@{HOST}:6380",
        "amqp://{USER}:§@{HOST}:5672/%2f",
        "git remote add backup https://{USER}:§@git.{HOST}/acme/{SVC}.git",
        "ftp://{USER}:§@files.{HOST}/incoming/",
        "mysql://root:§@{HOST}:3306/app",
        "spring.datasource.url=jdbc:postgresql://{HOST}:5432/app?user={USER}&password=§",
        "the broker url is amqps://{USER}:§@mq.{HOST}/vhost",
        "היום עברנו ל- postgres://{USER}:§@{HOST}/main",
        "接続文字列: mysql://{USER}:§@{HOST}:3306/shop",
        "[global]\nindex-url = https://{USER}:§@pypi.{HOST}/simple\n",
        "HTTPS_PROXY=http://{USER}:§@proxy.{HOST}:3128",
    ]);
    let pw = if r.chance(12) {
        // Reserved characters percent-encoded, as URL builders write them.
        format!(
            "{}{}{}{}",
            cap(r.pick(WORDS)),
            r.pick(&["%40", "%23", "%21", "%2F"]),
            r.digits(3),
            r.pick(&["%24", "%3A", "x"])
        )
    } else {
        pw
    };
    one(r, tpl, pw)
}

fn g_curl_user(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let pw = url_password(r);
    let tpl = r.pick(&[
        "curl -u {USER}:§ https://{HOST}/api/v1/status",
        "curl --user {USER}:§ -X POST https://{HOST}/hooks/deploy",
        "curl -s -u '{USER}:§' https://{HOST}/service/rest/v1/repositories",
        "  {N}  curl -fsSL --user \"{USER}:§\" https://{HOST}/artifacts/latest.tgz -o /tmp/a.tgz",
        "wget --user={USER} --password=§ https://{HOST}/artifacts/app.tar.gz",
    ]);
    one(r, tpl, pw)
}

fn g_auth_header(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    if r.chance(8) {
        let user = filler(r, "USER");
        let v = b64(format!("{user}:{}", password(r)).as_bytes());
        return one(
            r,
            ":method: GET\n:path: /v1/items\nauthorization: Basic §\nuser-agent: curl/8.4.0",
            v,
        );
    }
    match r.below(11) {
        0 => {
            let v = bearer(r);
            one(
                r,
                "curl -H \"Authorization: Bearer §\" https://{HOST}/v1/items",
                v,
            )
        }
        1 => {
            let user = filler(r, "USER");
            let v = b64(format!("{user}:{}", password(r)).as_bytes());
            one(
                r,
                "GET /v1/items HTTP/1.1\nHost: {HOST}\nAuthorization: Basic §\nAccept: */*",
                v,
            )
        }
        2 => {
            let v = body(r, HEX, 40);
            one(r, "Authorization: Token §", v)
        }
        3 => {
            let v = bearer(r);
            one(
                r,
                "{\"headers\":{\"Authorization\":\"Bearer §\",\"Content-Type\":\"application/json\"}}",
                v,
            )
        }
        4 => {
            let v = bearer(r);
            one(
                r,
                "headers:\n  Authorization: \"Bearer §\"\n  Accept: application/json\n",
                v,
            )
        }
        5 => {
            let v = bearer(r);
            one(
                r,
                "http GET https://{HOST}/api/me Authorization:\"Bearer §\"",
                v,
            )
        }
        6 => {
            let v = bearer(r);
            one(
                r,
                "fetch(url, { headers: { Authorization: 'Bearer §' } })",
                v,
            )
        }
        7 => {
            let v = format!(
                "username=\"{}\", realm=\"api\", nonce=\"{}\", uri=\"/v1/items\", response=\"{}\"",
                filler(r, "USER"),
                body(r, HEX, 32),
                body(r, HEX, 32)
            );
            one(r, "Authorization: Digest §", v)
        }
        8 => {
            let v = format!(
                "Credential={}/20240315/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature={}",
                k_aws(r).value,
                body(r, HEX, 64)
            );
            one(r, "Authorization: AWS4-HMAC-SHA256 §", v)
        }
        9 => {
            let v = bearer(r);
            one(
                r,
                "the failing request had Bearer § in it, see {SVC} logs",
                v,
            )
        }
        _ => {
            let user = filler(r, "USER");
            let v = b64(format!("{user}:{}", password(r)).as_bytes());
            one(
                r,
                "requests.get(url, headers={\"Authorization\": \"Basic §\"})",
                v,
            )
        }
    }
}

const ENV_CREDS: &[&str] = &[
    "DB_PASSWORD",
    "POSTGRES_PASSWORD",
    "MYSQL_ROOT_PASSWORD",
    "REDIS_PASSWORD",
    "SMTP_PASS",
    "SMTP_PASSWORD",
    "ADMIN_PWD",
    "JWT_SECRET",
    "SESSION_SECRET",
    "APP_SECRET",
    "CLIENT_SECRET",
    "API_KEY",
    "SECRET_KEY",
    "SIGNING_KEY",
    "MASTER_KEY",
    "AUTH_TOKEN",
    "ACCESS_TOKEN",
    "WEBHOOK_SECRET",
    "SECRET_KEY_BASE",
    "DB_PASS",
    "LDAP_BIND_PASSWORD",
    "KEYSTORE_PASSPHRASE",
    "DBPASSWORD",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "RABBITMQ_DEFAULT_PASS",
];

fn cred_value(r: &mut Rng) -> String {
    if r.chance(70) {
        password(r)
    } else {
        entropy_token(r)
    }
}

fn g_assign_env(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let name = r.pick(ENV_CREDS);
    let v = cred_value(r);
    let tpl = r.pick(&[
        "# database\nDB_HOST={HOST}\nDB_USER={USER}\n{K}=§\n# mail\nSMTP_HOST=smtp.{HOST}\n",
        "{K}=\"§\"  # rotated {DATE}",
        "{K}='§'",
        "export {K}=§",
        "  {N}  {K}=§ npm run migrate",
        "# prod only, do not commit\n{K}=§\n",
        "NODE_ENV=production\nPORT={PORT}\n{K}=§\nLOG_LEVEL=warn",
        "{DATE}T{TIME}Z DEBUG connecting user={USER} password=§ host={HOST}",
    ]);
    if r.chance(10) {
        // In a URL query the value cannot hold `&`, `+`, `%` or `#` unescaped.
        let v = url_password(r);
        let tpl = r.pick(&[
            "GET /v2/export?format=csv&api_key=§ HTTP/1.1",
            "wss://{HOST}/stream?token=§&v=2",
        ]);
        return one(r, tpl, v);
    }
    if r.chance(8) {
        // A passphrase of words with spaces, quoted: the quoted string is the value.
        let v = format!(
            "{} {} {} {}",
            r.pick(WORDS),
            r.pick(WORDS),
            r.pick(WORDS),
            r.range(10, 99)
        );
        return one(r, "KEYSTORE_PASSPHRASE=\"§\"", v);
    }
    one(r, &tpl.replace("{K}", name), v)
}

fn g_assign_yaml(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    match r.below(9) {
        0 => one(
            r,
            "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {USER}\n      POSTGRES_PASSWORD: §\n",
            v,
        ),
        1 => one(
            r,
            "services:\n  db:\n    image: mysql:8\n    environment:\n      - MYSQL_ROOT_PASSWORD=§\n",
            v,
        ),
        2 => one(r, "auth:\n  rootPassword: \"§\"\n  username: {USER}\n", v),
        3 => {
            let enc = b64(password(r).as_bytes());
            one(
                r,
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {SVC}\ndata:\n  password: §\n",
                enc,
            )
        }
        4 => one(
            r,
            "spring:\n  datasource:\n    username: {USER}\n    password: '§'\n",
            v,
        ),
        5 => one(r, "smtp:\n  host: smtp.{HOST}\n  pass: §\n", v),
        6 => one(r, "github:\n  token: §\n", v),
        7 => one(r, "api_key: §\nregion: {REGION}\n", v),
        _ => one(r, "oauth:\n  client_id: {UUID}\n  client_secret: §\n", v),
    }
}

fn g_assign_json(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    match r.below(7) {
        0 => one(r, "{\"username\": \"{USER}\", \"password\": \"§\"}", v),
        1 => one(
            r,
            "{\n  \"client_id\": \"{UUID}\",\n  \"client_secret\": \"§\"\n}",
            v,
        ),
        2 => {
            let a = body(r, ALNUM, 40);
            let b = body(r, ALNUM, 48);
            render(
                r,
                "{\"access_token\":\"§\",\"token_type\":\"bearer\",\"expires_in\":3600,\"refresh_token\":\"§\",\"scope\":\"repo\"}",
                &[a, b],
            )
        }
        3 => one(r, "{\"db\":{\"host\":\"{HOST}\",\"passwd\":\"§\"}}", v),
        4 => one(r, "{\"apiKey\": \"§\", \"region\": \"eu-west-1\"}", v),
        5 => one(
            r,
            "{\"webhook\": {\"url\": \"https://{HOST}/hooks/in\", \"secret\": \"§\"}}",
            v,
        ),
        _ => one(
            r,
            "[{\"name\":\"{SVC}\",\"signing_key\":\"§\",\"enabled\":true}]",
            v,
        ),
    }
}

fn g_assign_code(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    let tpl = r.pick(&[
        "DB_PASSWORD = \"§\"",
        "api_key = '§'",
        "conn = psycopg2.connect(host=\"{HOST}\", user=\"{USER}\", password=\"§\")",
        "app.config[\"SECRET_KEY\"] = \"§\"",
        "SECRET_KEY = '§'  # django",
        "self.client = Client(token=\"§\")",
        "const apiKey = \"§\";",
        "const db = {\n  host: \"{HOST}\",\n  user: \"{USER}\",\n  password: \"§\",\n};",
        "export const STRIPE_SECRET = '§';",
        "let authToken = `§`;",
        "const apiToken = \"§\"",
        "password := \"§\"",
        "db := Config{\n\tHost:     \"{HOST}\",\n\tPassword: \"§\",\n}",
        "let db_password = \"§\";",
        "const API_KEY: &str = \"§\";",
        "static SIGNING_SECRET: &str = \"§\";",
        "String dbPassword = \"§\";",
        "private static final String API_SECRET = \"§\";",
        "$password = '§';",
        "    'secret' => '§',",
        "config.api_key = '§'",
        "var clientSecret = \"§\";",
        "PGPASSWORD=§ psql -h {HOST} -U {USER} app",
    ]);
    one(r, tpl, v)
}

fn g_assign_config(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    match r.below(8) {
        0 => one(r, "[database]\nuser = \"{USER}\"\npassword = \"§\"\n", v),
        1 => one(r, "[smtp]\nhost=smtp.{HOST}\nuser={USER}\npass=§\n", v),
        2 => one(r, "spring.datasource.password=§", v),
        3 => one(r, "mail.smtp.password = §\nmail.smtp.port = 587", v),
        4 => one(
            r,
            "<server>\n  <id>nexus</id>\n  <username>{USER}</username>\n  <password>§</password>\n</server>",
            v,
        ),
        5 => {
            let t = npm_token(r, true);
            one(r, "//registry.npmjs.org/:_authToken=§", t)
        }
        6 => one(r, "machine api.{HOST} login {USER} password §", v),
        _ => one(r, "[client]\nuser = {USER}\npassword = §\nhost = {HOST}", v),
    }
}

fn g_cli_flag(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    let tpl = r.pick(&[
        "mysql -h {HOST} -u {USER} --password=§ app_db",
        "docker login registry.{HOST} -u {USER} --password §",
        "./bin/deploy --api-key § --region {REGION}",
        "terraform apply -var db_password=§ -auto-approve",
        "helm upgrade --install {SVC} ./chart --set auth.rootPassword=§",
        "az login --service-principal -u {UUID} --password § --tenant {UUID}",
        "npx vercel deploy --prod --token §",
        "./sync.py --client-secret=§ --dry-run",
        "  {N}  kafka-console-producer --producer-property sasl.password=§",
        "openssl pkcs12 -export -in cert.pem -inkey key.pem -passout pass:§",
    ]);
    one(r, tpl, v)
}

fn pin(r: &mut Rng) -> String {
    let n = r.range(4, 8);
    r.num(n)
}

fn g_prose_en(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let (tpl, v) = match r.below(17) {
        0 => ("pw for the router: §", v),
        1 => ("My password is §", v),
        2 => ("the wifi password for guests is § (changed {DATE})", v),
        3 => ("fyi the admin password was changed to § yesterday", v),
        4 => ("remember: the vpn passphrase is §", v),
        5 => ("staging db password § (same as last month)", v),
        6 => ("root pass = §", v),
        7 => ("Here's the API token: §", entropy_token(r)),
        8 => ("new passcode for the side door is §", pin(r)),
        9 => ("my phone PIN is §", pin(r)),
        16 => ("wallet private key: §", format!("0x{}", body(r, HEX, 64))),
        10 => ("the webhook secret is § fyi", entropy_token(r)),
        11 => ("{NAME} said the jenkins password is § now", v),
        12 => ("login: {USER} / password: §", v),
        13 => ("creds for the nas: user={USER} pw=§", v),
        14 => ("Note to self - bitbucket password is §.", v),
        _ => ("the wifi passwd at the office: §", v),
    };
    one(r, tpl, v)
}

fn g_prose_he(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let (tpl, v) = match r.below(10) {
        0 => ("הסיסמה לראוטר היא §", v),
        9 => ("סיסמה: \u{200f}§\u{200f}", v),
        1 => ("סיסמה: §", v),
        2 => ("הסיסמה שלי היא §", v),
        3 => ("טוקן לפרודקשן: §", entropy_token(r)),
        4 => ("קוד סודי § לכספת", v),
        5 => ("שמתי את הסיסמה החדשה: § אל תשתפו", v),
        6 => ("הסיסמה לוויפי של המשרד היא § (עודכן ב-{DATE})", v),
        7 => ("מה הסיסמה? §", v),
        _ => ("תזכורת: הסיסמה של {USER} בשרת היא §", v),
    };
    one(r, tpl, v)
}

fn g_prose_ja(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let (tpl, v) = match r.below(8) {
        0 => ("パスワードは§です", v),
        1 => ("パスワード：§", v),
        2 => ("ルーターのパスワードは § です", v),
        3 => ("トークン: §", entropy_token(r)),
        4 => ("暗証番号は§です", pin(r)),
        5 => ("VPNのパスワードを§に変更しました", v),
        6 => ("APIトークンは「§」です", entropy_token(r)),
        _ => ("管理画面のパスワード → §", v),
    };
    one(r, tpl, v)
}

fn g_prose_mixed(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let tpl = r.pick(&[
        "staging: סיסמה § (don't share)",
        "VPN パスワード = §",
        "wifi: SSID acme-guest / パスワード §",
        "the admin パスワード is §",
        "deploy 用の password: §",
        "הסיסמה for staging is §",
    ]);
    one(r, tpl, v)
}

fn g_high_entropy(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = entropy_token(r);
    match r.below(9) {
        0 => one(r, "the api key for prod is probably § — check the vault", v),
        1 => one(r, "auth § (from the old box)", v),
        2 => one(r, "credentials for the sandbox: §", v),
        3 => one(r, "מפתח § לשרת הבדיקות", v),
        4 => one(r, "キー §（古い方）", v),
        5 => one(r, "token (old one, maybe revoked) §", v),
        6 => one(r, "secret for the {SVC} webhook -> §", v),
        7 => {
            // A registry login in a docker config: user:password in base64 under "auth".
            let enc = loop {
                let user = filler(r, "USER");
                let e = b64(format!("{user}:{}", password(r)).as_bytes());
                let t = e.trim_end_matches('=');
                if looks_generated(t, true) && shannon(t) >= 3.2 {
                    break e;
                }
            };
            one(r, "{\"auths\":{\"registry.{HOST}\":{\"auth\":\"§\"}}}", enc)
        }
        _ => one(r, "signing key (build box) §", v),
    }
}

fn g_ssn_dashed(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let (a, g, s) = ssn(r);
    // Word processors turn `-` into other dashes; the rules fold every dash to `-`.
    let d = if r.chance(20) {
        r.pick(&["\u{2013}", "\u{2012}", "\u{2011}", "\u{2212}"])
    } else {
        "-"
    };
    let v = format!("{a}{d}{g}{d}{s}");
    let tpl = r.pick(&[
        "Applicant {NAME}, §, DOB {DATE}",
        "{NAME},§,{DATE},Austin TX",
        "| {NAME} | § | onboarding |",
        "{\"name\":\"{NAME}\",\"tax_id\":\"§\"}",
        "מספר הביטוח הלאומי האמריקאי שלו §",
        "米国SSN：§",
        "his social is § btw, needed for the W-4",
        "- employee: {NAME}\n  ssn: §\n",
        "SSN § on the 1099 form",
    ]);
    one(r, tpl, v)
}

fn g_ssn_spaced(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let (a, g, s) = ssn(r);
    let v = format!("{a} {g} {s}");
    let tpl = r.pick(&[
        "SSN § on file",
        "W-9 for {NAME}: §",
        "the form had § in box 2",
        "{NAME} — § — verified {DATE}",
        "社会保障番号 § を確認済み",
    ]);
    one(r, tpl, v)
}

fn g_ssn_word(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let (a, g, s) = ssn(r);
    let v = format!("{a}{g}{s}");
    let tpl = r.pick(&[
        "ssn: §",
        "SSN §",
        "social security number §",
        "soc sec #§",
        "SS# §",
        "{\"ssn\": \"§\"}",
        "ssn=§ name={NAME}",
        "Social Security No. §",
        "US SSN for {NAME}: §",
    ]);
    one(r, tpl, v)
}

fn g_ipv4_logs(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv4(r);
    match r.below(6) {
        0 => one(
            r,
            "§ - - [15/Mar/2024:12:30:45 +0000] \"GET /api/v1/items?page=2 HTTP/1.1\" 200 5123 \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"",
            v,
        ),
        1 => one(
            r,
            "{DATE}T{TIME}Z INFO  login ok user={USER} ip=§ ua=\"curl/8.4.0\"",
            v,
        ),
        2 => {
            let w = ipv4(r);
            render(r, "X-Forwarded-For: §, §", &[v, w])
        }
        3 => one(
            r,
            "Mar 15 12:30:45 bastion sshd[{N}]: Failed password for invalid user admin from § port 52144 ssh2",
            v,
        ),
        4 => one(
            r,
            "level=warn msg=\"rate limited\" client_ip=§ path=/login",
            v,
        ),
        _ => one(r, "[{DATE} {TIME}] ERROR connection to § refused", v),
    }
}

fn g_ipv4_config(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv4(r);
    match r.below(9) {
        0 => one(r, "ssh -i ~/.ssh/id_ed25519 {USER}@§", v),
        1 => one(
            r,
            "services:\n  web:\n    ports:\n      - \"§:8080:80\"\n",
            v,
        ),
        2 => one(r, "spec:\n  type: LoadBalancer\n  loadBalancerIP: §\n", v),
        3 => one(r, "host,ip,role\nweb-{N},§,frontend\n", v),
        4 => one(r, "iptables -A INPUT -s § -j DROP", v),
        5 => one(r, "§  db.internal db", v),
        6 => one(r, "upstream backend {\n    server §:8080;\n}", v),
        7 => one(r, "allowlist:\n  - §/24\n", v),
        _ => one(r, "open http://§:8080/admin in the browser", v),
    }
}

fn g_ipv4_prose(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv4(r);
    let tpl = r.pick(&[
        "fyi the vpn endpoint moved to § yesterday",
        "ping § works but dns doesn't",
        "| host | address |\n|---|---|\n| db-primary | § |",
        "השרת החדש נמצא בכתובת § (פורט 22)",
        "本番サーバーのIP: §",
        "接続先：§",
        "staging box: § / サーバー / שרת",
        "- bastion: §\n- user: {USER}",
        "the printer is at §.",
    ]);
    one(r, tpl, v)
}

fn v6_carrier(r: &mut Rng, v: String, brackets: bool) -> (String, Vec<(usize, usize)>) {
    let plain_c = [
        "client=§ status=403 path=/admin",
        "ping6 -c 3 §",
        "{DATE}T{TIME}Z INFO  accepted connection from §",
        "peer: §",
        "השרת בכתובת § זמין",
        "IPv6アドレス: §",
        "| host | v6 |\n|---|---|\n| edge-{N} | § |",
    ];
    let bracket_c = [
        "listen [§]:443 ssl;",
        "curl -g 'http://[§]:8080/health'",
        "ip -6 addr add §/64 dev eth0",
        "endpoint = [§]:51820",
    ];
    let tpl = if brackets && r.chance(40) {
        r.pick(&bracket_c)
    } else {
        r.pick(&plain_c)
    };
    one(r, tpl, v)
}

fn g_ipv6_full(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv6_full(r);
    v6_carrier(r, v, true)
}
fn g_ipv6_compressed(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv6_compressed(r);
    v6_carrier(r, v, true)
}
fn g_ipv6_zone(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv6_zone(r);
    v6_carrier(r, v, false)
}
fn g_ipv6_v4(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv6_v4(r);
    v6_carrier(r, v, true)
}

fn email_parts(r: &mut Rng) -> (&'static str, &'static str) {
    (
        r.pick(&[
            "dana",
            "dana.levi",
            "j.smith",
            "ops+alerts",
            "moshe_k",
            "yuki.tanaka",
            "a.cohen92",
            "billing",
        ]),
        r.pick(&[
            "example.com",
            "acme.io",
            "mail.example.co.il",
            "corp.example.org",
            "company.jp",
            "walla.co.il",
        ]),
    )
}

fn email_case(r: &mut Rng, at: &str) -> (String, Vec<(usize, usize)>) {
    let (local, domain) = email_parts(r);
    let v = format!("{local}{at}{domain}");
    let tpl = r.pick(&[
        "<a href=\"mailto:§\">Contact us</a>",
        "Contact: §",
        "[email me](mailto:§)",
        "{DATE}T{TIME}Z INFO  password reset requested for §",
        "{\"user\":\"§\",\"verified\":false}",
        "כתבו לי ל- §",
        "連絡先: §",
        "--\n{NAME}\nPlatform team\n§\n",
        "cc § on the invoice thread",
    ]);
    one(r, tpl, v)
}

fn g_email_dec(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    email_case(r, "&#64;")
}
fn g_email_hex(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    email_case(r, "&#x40;")
}
fn g_email_commat(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    email_case(r, "&commat;")
}
fn g_email_pct(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let (local, domain) = email_parts(r);
    let v = format!("{local}%40{domain}");
    let tpl = r.pick(&[
        "https://app.{HOST}/invite?email=§&role=admin",
        "GET /unsubscribe?u=§ HTTP/1.1",
        "{DATE}T{TIME}Z INFO  login user=§ ok",
        "redirect_uri=https%3A%2F%2F{HOST}%2Fcb&login_hint=§",
        "the link had § in it",
    ]);
    one(r, tpl, v)
}

// Digit obfuscations ---------------------------------------------------------------------------

fn join_groups(r: &mut Rng, groups: &[String], sep: &dyn Fn(&mut Rng) -> String) -> String {
    let mut s = groups[0].clone();
    for g in &groups[1..] {
        s.push_str(&sep(r));
        s.push_str(g);
    }
    s
}

fn split_at(d: &str, sizes: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    for &n in sizes {
        out.push(d[i..i + n].to_string());
        i += n;
    }
    out
}

/// A phone number's digit groups, or with a leading `+` for international forms.
fn phone_groups(r: &mut Rng) -> Vec<String> {
    match r.below(5) {
        0 | 1 => {
            let d = format!(
                "05{}{}",
                r.pick(&["0", "2", "3", "4", "5", "8"]),
                r.digits(7)
            );
            let sizes = r.pick(&[&[3usize, 3, 4][..], &[3, 7], &[2, 4, 4], &[4, 3, 3]]);
            split_at(&d, sizes)
        }
        2 => {
            let d = format!("5{}{}", r.pick(&["0", "2", "3", "4", "8"]), r.digits(7));
            let mut g = vec!["+972".to_string()];
            g.extend(split_at(&d, &[2, 3, 4]));
            g
        }
        3 => vec![
            "+1".to_string(),
            format!("{}{}", r.range(2, 9), r.digits(2)),
            format!("{}{}", r.range(2, 9), r.digits(2)),
            r.digits(4),
        ],
        _ => vec![
            r.pick(&["090", "080", "070"]).to_string(),
            r.digits(4),
            r.digits(4),
        ],
    }
}

fn phone_with(r: &mut Rng, sep: &dyn Fn(&mut Rng) -> String) -> (String, Vec<(usize, usize)>) {
    let g = phone_groups(r);
    let v = join_groups(r, &g, sep);
    let tpl = r.pick(&[
        "call me at §",
        "נייד: §",
        "携帯：§",
        "Tel §",
        "WhatsApp § (evenings)",
        "--\n{NAME}\nHead of Platform, Acme\nM: §\nacme.io",
        "| {NAME} | § |",
        "{NAME},§,{DATE}",
        "התקשרו ל-§ מחר",
        "電話番号は§です",
    ]);
    one(r, tpl, v)
}

fn sep_fixed(s: &'static str) -> impl Fn(&mut Rng) -> String {
    move |_| s.to_string()
}

fn sep_mixed(r: &mut Rng) -> String {
    r.pick(&[
        " ", "-", "\u{a0}", "\u{2011}", "\u{202f}", ".", "\u{200b}", " - ", "\u{2009}", "\u{2013}",
    ])
    .to_string()
}

fn g_phone_nbsp(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_fixed("\u{a0}"))
}
fn g_phone_nnbsp(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_fixed("\u{202f}"))
}
fn g_phone_thin(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_fixed("\u{2009}"))
}
fn g_phone_figdash(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_fixed("\u{2012}"))
}
fn g_phone_endash(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_fixed("\u{2013}"))
}
fn g_phone_mixed(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    phone_with(r, &sep_mixed)
}

fn card_number(r: &mut Rng) -> (String, &'static [usize]) {
    match r.below(4) {
        0 => (luhn_complete(&format!("4{}", r.digits(14))), &[4, 4, 4, 4]),
        1 => (
            luhn_complete(&format!("5{}{}", r.range(1, 5), r.digits(13))),
            &[4, 4, 4, 4],
        ),
        2 => (
            luhn_complete(&format!("3{}{}", r.pick(&["4", "7"]), r.digits(12))),
            &[4, 6, 5],
        ),
        _ => (
            luhn_complete(&format!("6011{}", r.digits(11))),
            &[4, 4, 4, 4],
        ),
    }
}

fn g_card_sep(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let (d, sizes) = card_number(r);
    let g = split_at(&d, sizes);
    let style = r.below(5);
    let v = match style {
        0 => join_groups(r, &g, &sep_fixed("\u{202f}")),
        1 => join_groups(r, &g, &sep_fixed("\u{2009}")),
        2 => join_groups(r, &g, &sep_fixed("\u{2013}")),
        3 => join_groups(r, &g, &sep_fixed("\u{a0}")),
        _ => join_groups(r, &g, &sep_mixed),
    };
    let tpl = r.pick(&[
        "card §",
        "visa § exp 12/27",
        "כרטיס אשראי §",
        "カード番号：§",
        "paid with § yesterday",
        "{\"pan\":\"§\",\"exp\":\"09/28\"}",
    ]);
    one(r, tpl, v)
}

fn g_ilid_sep(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let d = il_id(r);
    let g = split_at(&d, &[3, 3, 3]);
    let style = r.below(4);
    let v = match style {
        0 => join_groups(r, &g, &sep_fixed("\u{2009}")),
        1 => join_groups(r, &g, &sep_fixed("\u{2012}")),
        2 => join_groups(r, &g, &sep_fixed("\u{a0}")),
        _ => join_groups(r, &g, &sep_mixed),
    };
    let tpl = r.pick(&[
        "ת.ז. §",
        "ID §",
        "מספר זהות §",
        "teudat zehut §",
        "{NAME} §",
        "תעודת זהות: §",
    ]);
    one(r, tpl, v)
}

// ---------------------------------------------------------------------------------------------
// Further positives; the forms marked `info:` in `build` are informational
// ---------------------------------------------------------------------------------------------

/// An English credential word joined to its value by a Japanese particle or a Hebrew preposition
/// with a hyphen (`password は …`, `ה-password ל-…`).
fn g_mixed_particle(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let tpl = r.pick(&[
        "deploy 用の password は § です",
        "todo: לעדכן את ה-password ל-§ ב-staging",
    ]);
    one(r, tpl, v)
}

/// `code` after `wifi`, `door`, `alarm`: a credential name.
fn g_access_code(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let tpl = r.pick(&[
        "the wifi code is §",
        "door code: §",
        "alarm code is § (don't forget)",
    ]);
    one(r, tpl, v)
}

/// Informational: `. ` between digit groups. By the rules a sentence end ends a digit group, so
/// each part alone is short; whether such a spelled-out phone is masked is left open.
fn i_dot_space_digits(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let g = phone_groups(r);
    let v = join_groups(r, &g, &sep_fixed(". "));
    one(r, "call me at §", v)
}

/// Informational: the construct form `סיסמת` and the plural `סיסמאות`; the rules name `סיסמה`.
fn i_he_construct(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = password(r);
    let tpl = r.pick(&["סיסמת הוויפי: §", "סיסמת המנהל היא §", "סיסמאות: §"]);
    one(r, tpl, v)
}

/// Informational: an IPv4 glued to a Japanese or Hebrew letter. The rules keep an address right
/// after a letter (meant for `v1.2.3.4`) without saying which letters.
fn i_ip_glued(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = ipv4(r);
    let tpl = r.pick(&["サーバーは§です", "השרת ב§ לא עונה", "IPアドレスは§に変更"]);
    one(r, tpl, v)
}

/// Informational: a value of plain lower-case letters in an assignment, which could as well be a
/// variable's name.
fn i_letters_only(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = format!("{}{}", r.pick(WORDS), r.pick(WORDS));
    let tpl = r.pick(&[
        "DB_PASSWORD={X}",
        "POSTGRES_PASSWORD: {X}",
        "{\"password\": \"{X}\"}",
    ]);
    one(r, &tpl.replace("{X}", "§"), v)
}

/// A name/value pair whose name is a credential name: Kubernetes `env`, ECS task definitions.
fn g_name_value_pair(r: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let v = cred_value(r);
    let name = r.pick(ENV_CREDS);
    let tpl = r.pick(&[
        "env:\n  - name: {K}\n    value: \"§\"\n  - name: LOG_LEVEL\n    value: info\n",
        "\"environment\": [\n  {\"name\": \"{K}\", \"value\": \"§\"},\n  {\"name\": \"TZ\", \"value\": \"UTC\"}\n]",
    ]);
    one(r, &tpl.replace("{K}", name), v)
}

// ---------------------------------------------------------------------------------------------
// Negatives
// ---------------------------------------------------------------------------------------------

type NegGen = fn(&mut Rng) -> String;

fn neg(r: &mut Rng, tpls: &[&str]) -> String {
    let t = r.pick(tpls);
    render(r, t, &[]).0
}

/// Puts a short negative into one of a few surroundings.
fn surround(r: &mut Rng, s: String) -> String {
    match r.below(6) {
        0 => format!("# {} config\n{s}\nPORT=8080\n", filler(r, "SVC")),
        1 => format!("fyi: {s}"),
        2 => format!("```\n{s}\n```"),
        3 => format!("- {s}"),
        _ => s,
    }
}

fn n_version(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "Upgraded to v{A}.{B}.{C}",
            "bumped react to 18.{B}.{C} and vite to 5.{B}.{C}",
            "release {A}.{B}.{C}.{D} is out",
            "version {A}.{B}.{C}.{D}",
            "firmware {A}.{B}.{C}.{D} on the router",
            "build {A}.{B}.{C}.{D}",
            "tagged v{A}.{B}.{C}.{D}",
            "node-v20.{B}.{C}-linux-x64.tar.xz",
            "pip install requests==2.{B}.{C} urllib3==2.0.{C}",
            "User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
            "go version go1.22.{C} linux/amd64",
            "kernel 6.5.0-{C}-generic",
            "openjdk 17.0.{C} 2023-10-17",
            "Python 3.12.{C} (main, Dec  8 2023, 10:22:11)",
            "Ubuntu 22.04.{C} LTS",
            "Docker version 24.0.{C}, build {SHA7}",
            "アップデート: v{A}.{B}.{C} にしました",
            "עדכנו לגרסה {A}.{B}.{C}",
            "\"version\": \"{A}.{B}.{C}\"",
            "updated to {A}.{B}.{C}.{D} last night",
        ],
    )
}

fn n_uuid(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "request_id={UUID} status=200 dur=12ms",
            "trace {UUID} failed at step 3",
            "{\"id\": \"{UUID}\", \"status\": \"active\"}",
            "uid: {UUIDU}",
            "x-correlation-id: {UUID}",
            "see ticket {UUID} in the tracker",
            "client_id = \"{UUID}\"",
            "מזהה בקשה: {UUID}",
            "リクエストID: {UUID}",
            "/api/v1/orders/{UUID}/items",
        ],
    )
}

fn n_git_sha(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "commit {SHA40}\nMerge: {SHA7} {SHA7}\nDate:   Fri Mar 15 12:30:45 2024 +0200\n\n    fix: handle empty input",
            "git checkout {SHA7}",
            "HEAD is now at {SHA7} fix flaky test",
            "git cherry-pick {SHA12}",
            "https://github.com/acme/{SVC}/commit/{SHA40}",
            "reverted {SHA40} (broke the build)",
            "{SHA7} feat: add retry to the uploader",
            "base={SHA40} head={SHA40}",
            "פרסתי את הקומיט {SHA7}",
            "コミット {SHA40} をリバート",
            "git diff {SHA7}..{SHA7} -- src/",
        ],
    )
}

fn n_digest(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "sha256:{HEX64}",
            "{HEX64}  release-{VER}.tar.gz",
            "SHA256 (ubuntu-22.04.iso) = {HEX64}",
            "md5sum: {HEX32}",
            "ETag: \"{HEX32}\"",
            "checksum sha1 {SHA40}",
            "sha512: {HEX128}",
            "\"digest\": \"sha256:{HEX64}\"",
            "downloaded, sha256 {HEX64} matches",
        ],
    )
}

fn n_docker_digest(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "docker pull ghcr.io/acme/{SVC}@sha256:{HEX64}",
            "FROM python:3.12-slim@sha256:{HEX64}",
            "    image: nginx@sha256:{HEX64}",
            "Digest: sha256:{HEX64}\nStatus: Downloaded newer image for acme/{SVC}:{VER}",
        ],
    )
}

fn n_npm_integrity(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "\"integrity\": \"sha512-{B64_86}==\"",
            "\"node_modules/lodash\": {\n  \"version\": \"4.17.21\",\n  \"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\",\n  \"integrity\": \"sha512-{B64_86}==\"\n}",
            "  integrity sha512-{B64_86}==",
            "<script src=\"https://cdn.example.com/lib.min.js\" integrity=\"sha384-{B64_64}\" crossorigin=\"anonymous\"></script>",
            "\"integrity\": \"sha1-{B64_27}=\"",
        ],
    )
}

fn n_placeholder(r: &mut Rng) -> String {
    let s = neg(
        r,
        &[
            "OPENAI_API_KEY=YOUR_API_KEY",
            "api_key: YOUR_API_KEY_HERE",
            "export GITHUB_TOKEN=${GITHUB_TOKEN}",
            "token: $TOKEN",
            "curl -H \"Authorization: Bearer <token>\" https://{HOST}/v1/me",
            "{\"password\": \"<password>\"}",
            "OPENAI_API_KEY=sk-...",
            "STRIPE_SECRET_KEY=sk_live_...",
            "password: ***",
            "DB_PASSWORD=xxxx",
            "api_key = \"xxxxxxxxxxxxxxxxxxxxxxxx\"",
            "token={{ token }}",
            "set PASSWORD=%DB_PASSWORD%",
            "\"client_secret\": null",
            "keystore password = changeit",
            "AWS_SECRET_ACCESS_KEY=<your-secret-access-key>",
            "SLACK_BOT_TOKEN=xoxb-your-token",
            "GH_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "Authorization: Bearer ${ACCESS_TOKEN}",
            "password: \"${DB_PASSWORD}\"",
            "- MYSQL_ROOT_PASSWORD=${MYSQL_ROOT_PASSWORD}",
            "api_key=…",
            "token: true",
            "STRIPE_KEY=sk_live_YOUR_KEY",
            "hf_token: hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ANTHROPIC_API_KEY=\"<your key>\"",
            "NPM_TOKEN=npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "\"apiKey\": \"YOUR_FIREBASE_API_KEY\"",
            "mysql -u root --password <password>",
            "password: \"{{ .Values.db.password }}\"",
            "DB_PASSWORD: ${{ secrets.DB_PASSWORD }}",
            "pw: ********",
            "TOKEN=<paste here>",
            "secret: \"****\"",
            "api_key: \"\"",
            "PASSWORD=",
            "\"token\": \"<redacted>\"",
            "password: password",
        ],
    );
    surround(r, s)
}

fn n_var_ref(r: &mut Rng) -> String {
    let s = neg(
        r,
        &[
            "password = os.environ[\"DB_PASSWORD\"]",
            "api_key = os.getenv(\"OPENAI_API_KEY\")",
            "const token = process.env.GITHUB_TOKEN;",
            "token := os.Getenv(\"SLACK_TOKEN\")",
            "let api_key = std::env::var(\"API_KEY\")?;",
            "String password = System.getenv(\"DB_PASSWORD\");",
            "self.password = password",
            "headers = {\"Authorization\": f\"Bearer {token}\"}",
            "headers: { Authorization: `Bearer ${token}` }",
            "export API_KEY=$(cat ~/.config/acme/api_key)",
            "psql --password \"$PGPASSWORD\"",
            "./deploy --token=$DEPLOY_TOKEN",
            "password=get_password()",
            "token = request.headers.get(\"X-Token\")",
            "secret = settings.SECRET_KEY",
            "api_key=config[\"api_key\"]",
            "let token = env::var(\"TOKEN\").unwrap_or_default();",
            "\tPassword: cfg.DBPassword,",
            "auth = (user, password)",
            "db_password = db_password or prompt()",
            "client = OpenAI(api_key=api_key)",
            "if password != confirm_password: raise ValueError",
            "TWINE_PASSWORD: ${{ secrets.PYPI_TOKEN }}",
            "token = getpass.getpass(\"GitHub token: \")",
            "$password = $_POST['password'];",
            "var secret = configuration[\"Jwt:Secret\"];",
            "  apiKey: process.env.API_KEY,",
            "key = keyring.get_password(\"acme\", user)",
        ],
    );
    surround(r, s)
}

fn n_prose_talk(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "reset your password tomorrow",
            "Password: reset it tomorrow",
            "the token expired again, need to re-auth",
            "we should move the API keys into the vault next sprint",
            "rotate the GitHub token before Friday",
            "the password reset link expires in 24 hours",
            "password must be at least 12 characters long",
            "Never commit secrets to the repo",
            "ask {NAME} for the staging password",
            "the secret sauce is caching",
            "api key rotation is done",
            "forgot my password again lol",
            "tokens are stored in the keychain",
            "where is the SSH key for the bastion?",
            "My password is weak and I know it",
            "שכחתי את הסיסמה שוב",
            "צריך לאפס את הסיסמה של Gmail מחר",
            "הטוקן פג תוקף, צריך להתחבר מחדש",
            "パスワードを変更してください",
            "トークンの有効期限が切れました",
            "パスワードを忘れたのでSlackで聞いた",
            "password は明日リセットする",
            "the key is in the vault, ask {NAME}",
            "Secret Santa exchange on {DATE}",
            "use a password manager, not sticky notes",
            "the auth service returns 401 when the token is missing",
            "token refreshed at {TIME}",
            "password was changed on {DATE}",
            "api key created {DATE}, owner {NAME}",
            "the token expires at 12:30 UTC",
        ],
    )
}

fn n_llm_tokens(r: &mut Rng) -> String {
    let s = neg(
        r,
        &[
            "max_tokens: 4096",
            "\"max_tokens\": 1024,",
            "used 1200 tokens",
            "usage: prompt_tokens=812 completion_tokens=96 total_tokens=908",
            "{\"usage\":{\"input_tokens\":{E},\"output_tokens\":{D}}}",
            "context window: 200k tokens",
            "~85 tokens/sec on the A100",
            "max_new_tokens=512 temperature=0.2",
            "tiktoken says 1,532 tokens",
            "the prompt is 3,400 tokens long",
            "\"total_tokens\": {E}",
            "num_tokens: 2048",
            "tokenizer: cl100k_base",
            "cost: $0.0042 for {E} tokens",
        ],
    );
    surround(r, s)
}

fn n_loopback(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "listen 127.0.0.1:8080",
            "DB_HOST=127.0.0.1",
            "bind 0.0.0.0:3000",
            "curl http://[::1]:3000/health",
            "listen [::]:80 default_server;",
            "redis-cli -h 127.0.0.1 -p 6379",
            "127.0.1.1 myhost",
            "::1 localhost ip6-localhost ip6-loopback",
            "Listening on 0.0.0.0:8000",
            "server: http://localhost:5173",
            "127.0.0.53 is systemd-resolved",
        ],
    )
}

fn mac(r: &mut Rng, sep: char, upper: bool) -> String {
    let parts: Vec<String> = (0..6)
        .map(|_| {
            let s = format!("{:02x}", r.below(256));
            if upper { s.to_ascii_uppercase() } else { s }
        })
        .collect();
    parts.join(&sep.to_string())
}

/// The longest run of digits when `-` joins them (the documented digit-group separator).
fn longest_dashed_digit_run(s: &str) -> usize {
    s.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .map(|g| g.bytes().filter(u8::is_ascii_digit).count())
        .max()
        .unwrap_or(0)
}

fn n_mac(r: &mut Rng) -> String {
    let a = mac(r, ':', false);
    let b = mac(r, ':', true);
    // A dashed MAC with nine or more digits in a row would be a digit group the rules mask.
    let c = loop {
        let c = mac(r, '-', true);
        if longest_dashed_digit_run(&c) <= 8 {
            break c;
        }
    };
    match r.below(4) {
        0 => format!("link/ether {a} brd ff:ff:ff:ff:ff:ff"),
        1 => format!("MAC {b}"),
        2 => format!("hwaddr {c}"),
        _ => format!("wlan0 mac={a} (printer)"),
    }
}

fn n_time_date(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "Meeting on {DATE} at 12:30",
            "{DATE}T{TIME}Z",
            "15/03/2024 09:15",
            "next sync 3.15.2024 14:00",
            "cron: 0 3 * * 1",
            "uptime {TIME} up 41 days",
            "deadline {DATE} 17:00 IST",
            "פגישה ב-15.03.2024 בשעה 10:30",
            "会議は{DATE} 15:00から",
            "snapshot_20240315123045.tar.gz",
        ],
    )
}

fn n_price(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "Price ₪1,234,567.89",
            "$1,299.00/mo",
            "€49,90 per seat",
            "total: 12 345 678.90 USD",
            "¥128,000",
            "invoice total $4,820.50",
            "budget €1 234 567 890 for FY25",
            "Location 32.0853, 34.7818",
        ],
    )
}

fn n_isbn(r: &mut Rng) -> String {
    let a = isbn13(r);
    let b = isbn10(r);
    match r.below(4) {
        0 => format!("ISBN {a}"),
        1 => format!("ISBN-10: {b}"),
        2 => format!("ISBN {}", a.replace('-', "")),
        _ => format!("reading list: \"Designing Data-Intensive Applications\", ISBN {a}"),
    }
}

fn n_order(r: &mut Rng) -> String {
    let n = r.range(4, 8);
    let v = r.num(n);
    let tpl = r.pick(&[
        "Order #{X} shipped",
        "ticket {X} closed",
        "PR #{X} merged",
        "invoice {X} paid",
        "order no. {X}",
        "RMA-{X} approved",
        "הזמנה {X} נשלחה",
        "注文番号 {X}",
    ]);
    tpl.replace("{X}", &v)
}

/// The most digits any documented digit group of `s` holds (digits joined by spaces, `-`, `.`,
/// `/`, `(`, `)`), a conservative reading used to keep look-alike ids clear of the number rules.
fn max_digit_group(s: &str) -> usize {
    s.split(|c: char| !(c.is_ascii_digit() || " -./()".contains(c)))
        .map(|g| g.bytes().filter(u8::is_ascii_digit).count())
        .max()
        .unwrap_or(0)
}

/// Identifiers that look random but are no credential and carry no credential word.
fn n_id_lookalike(r: &mut Rng) -> String {
    loop {
        let s = match r.below(10) {
            0 => format!(
                "db.orders.find({{_id: ObjectId(\"{}\")}})",
                body(r, HEX, 24)
            ),
            1 => {
                let pre = r.pick(&["cus", "pi", "ch", "price", "prod", "sub", "in"]);
                let n = r.range(14, 24);
                format!("refund for {pre}_{} issued", body(r, ALNUM, n))
            }
            2 => format!(
                "https://www.youtube.com/watch?v={}&t=42s",
                body(r, B64URL, 11)
            ),
            3 => {
                let pre = r.pick(&["i-0", "sg-0", "ami-0", "vol-0", "subnet-0"]);
                format!(
                    "terminated {pre}{} in {}",
                    body(r, HEX, 16),
                    filler(r, "REGION")
                )
            }
            4 => format!(
                "pod/{}-{}-{} restarted 3 times",
                filler(r, "SVC"),
                body(r, HEX, 10),
                body(r, LOWER_DIG, 5)
            ),
            5 => format!(
                "{}   acme/{}:{}   \"/entrypoint.sh\"   Up 3 hours",
                body(r, HEX, 12),
                filler(r, "SVC"),
                filler(r, "VER")
            ),
            6 => r
                .pick(&[
                    "model: claude-3-5-sonnet-20241022",
                    "switched to gpt-4o-2024-08-06 for evals",
                    "llama-3.1-70b-instruct via vllm",
                    "embedding model text-embedding-3-small, dim 1536",
                ])
                .to_string(),
            7 => format!("short link https://bit.ly/{}", body(r, ALNUM, 7)),
            8 => format!(
                "posted in <#C0{}|deploys> by <@U0{}>",
                body(r, UPPER_DIG, 8),
                body(r, UPPER_DIG, 8)
            ),
            _ => format!(
                "![diagram](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{})",
                body(r, B64STD, 60)
            ),
        };
        if max_digit_group(&s) <= 8 {
            return s;
        }
    }
}

/// Identifiers whose credential word is followed by another part, which ends it
/// (`PASSWORD_MIN_LENGTH`, `TOKEN_URL`), with values that are settings, not credentials.
fn n_cred_word_other_part(r: &mut Rng) -> String {
    let s = neg(
        r,
        &[
            "PASSWORD_MIN_LENGTH=12",
            "TOKEN_URL=https://auth.{HOST}/oauth/token",
            "API_KEY_HEADER=X-Api-Key",
            "TOKEN_TTL=3600",
            "PASSWORD_RESET_TIMEOUT=3600",
            "SECRET_NAME=prod/db-credentials",
            "JWT_SECRET_ROTATION_DAYS=30",
            "token_endpoint: https://auth.{HOST}/oauth2/token",
            "ACCESS_TOKEN_EXPIRE_MINUTES=30",
            "PASSWORD_HASHERS = [\"django.contrib.auth.hashers.Argon2PasswordHasher\"]",
            "POSTGRES_PASSWORD_FILE=/run/secrets/db_password",
            "token_type: Bearer",
            "client_secret_expires_at: 0",
            "auth_token_ttl_seconds = 900",
            "SECRETS_DIR=/run/secrets",
            "\"password_policy\": {\"min_length\": 12, \"require_digit\": true}",
        ],
    );
    surround(r, s)
}

/// Public keys and certificates: not secrets by the rules.
fn n_public_key(r: &mut Rng) -> String {
    loop {
        let s = match r.below(5) {
            0 => {
                let lines: Vec<String> = (0..r.range(4, 7)).map(|_| body(r, B64STD, 64)).collect();
                format!(
                    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{}\n{}\n-----END PUBLIC KEY-----",
                    body(r, B64STD, 20),
                    lines.join("\n")
                )
            }
            1 => {
                let lines: Vec<String> = (0..r.range(6, 12)).map(|_| body(r, B64STD, 64)).collect();
                format!(
                    "server cert:\n-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE{}\n{}\n-----END CERTIFICATE-----",
                    body(r, B64STD, 44),
                    lines.join("\n")
                )
            }
            2 => format!(
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{} {}@laptop",
                body(r, B64STD, 43),
                filler(r, "USER")
            ),
            3 => format!(
                "# ~/.ssh/authorized_keys\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{} {}@build-01",
                body(r, B64STD, 300),
                filler(r, "USER")
            ),
            _ => {
                let lines: Vec<String> = (0..r.range(4, 8)).map(|_| body(r, B64STD, 64)).collect();
                format!(
                    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGX{}\n{}\n=Ab3x\n-----END PGP PUBLIC KEY BLOCK-----",
                    body(r, B64STD, 57),
                    lines.join("\n")
                )
            }
        };
        if max_digit_group(&s) <= 8 {
            return s;
        }
    }
}

fn n_gh_doc_sample(r: &mut Rng) -> String {
    let t = if r.chance(75) {
        gh_classic(r, false)
    } else {
        npm_token(r, false)
    };
    let tpl = r.pick(&[
        "the docs show {X} as an example",
        "README: the format looks like {X}",
        "e.g. {X} (from the announcement blog)",
        "the regex should match strings like {X} and reject others",
        "`{X}` is the shape from the changelog",
        "GitHub's blog uses {X} to illustrate the new prefix",
    ]);
    tpl.replace("{X}", &t)
}

/// A Chrome user agent whose four version parts hold ten or more digits: a version after a
/// product name and a slash, which the rules keep.
fn n_ua_chrome(r: &mut Rng) -> String {
    let build = r.range(1000, 9999);
    let patch = r.range(10, 199);
    format!(
        "{} ua=\"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.{build}.{patch} Safari/537.36\"",
        filler(r, "DATE")
    )
}

/// A `docker images` row: the twelve hex digits of a short image id are no number, so the tag's
/// digits three spaces before them stay a short group.
fn n_docker_images_row(r: &mut Rng) -> String {
    neg(r, &["{SVC}   {VER}   {HEX12}   3 days ago   142MB"])
}

/// Informational: a bare `REDACTED`, which the placeholder list does not name.
fn i_redacted(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "password: REDACTED",
            "api_key=[REDACTED]",
            "SECRET_KEY=REDACTED",
            "Authorization: Bearer [REDACTED]",
        ],
    )
}

/// Informational: a run of digits after a joining word, which the sentence rule reads as a value.
fn i_token_number_prose(r: &mut Rng) -> String {
    neg(
        r,
        &[
            "the token limit is 8192",
            "token bucket set to 100 rps",
            "password policy: must be 12",
        ],
    )
}

// ---------------------------------------------------------------------------------------------
// The evaluation
// ---------------------------------------------------------------------------------------------

fn counts_as_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphanumeric())
}

#[derive(Default)]
struct Stat {
    kind: Option<Kind>,
    n: usize,
    full: usize,
    partial: usize,
    missed: usize,
    changed: usize,
    fails: Vec<String>,
}

fn pct(a: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * a as f64 / n as f64
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let t: String = s.chars().take(max).collect();
        format!("{t}…")
    }
}

fn build() -> Vec<Case> {
    let mut r = Rng(0x5EED_0F4E_1D00_u64);
    let mut cases = Vec::new();
    for pv in providers() {
        for _ in 0..pv.n {
            cases.push(key_case(&mut r, &pv));
        }
    }
    let pos: &[(&'static str, Kind, usize, Gen)] = &[
        ("key:aws_credentials", Kind::Pos, 40, g_aws_credentials),
        ("key:datadog_env", Kind::Pos, 30, g_datadog_env),
        ("jwt", Kind::Pos, 100, g_jwt),
        ("pem_private_key", Kind::Pos, 70, g_pem),
        ("gcp_service_account", Kind::Pos, 40, g_gcp_sa),
        ("url_password", Kind::Pos, 120, g_url_password),
        ("curl_user", Kind::Pos, 40, g_curl_user),
        ("authorization", Kind::Pos, 120, g_auth_header),
        ("assign_env", Kind::Pos, 120, g_assign_env),
        ("assign_yaml", Kind::Pos, 100, g_assign_yaml),
        ("assign_json", Kind::Pos, 90, g_assign_json),
        ("assign_code", Kind::Pos, 140, g_assign_code),
        ("assign_config", Kind::Pos, 80, g_assign_config),
        ("cli_flag", Kind::Pos, 60, g_cli_flag),
        ("prose_en", Kind::Pos, 120, g_prose_en),
        ("prose_he", Kind::Pos, 70, g_prose_he),
        ("prose_ja", Kind::Pos, 70, g_prose_ja),
        ("prose_mixed", Kind::Pos, 40, g_prose_mixed),
        ("high_entropy_near_word", Kind::Pos, 100, g_high_entropy),
        ("ssn_dashed", Kind::Pos, 80, g_ssn_dashed),
        ("ssn_spaced", Kind::Pos, 50, g_ssn_spaced),
        ("ssn_plain_after_word", Kind::Pos, 70, g_ssn_word),
        ("ipv4_logs", Kind::Pos, 80, g_ipv4_logs),
        ("ipv4_config", Kind::Pos, 60, g_ipv4_config),
        ("ipv4_prose", Kind::Pos, 60, g_ipv4_prose),
        ("ipv6_full", Kind::Pos, 30, g_ipv6_full),
        ("ipv6_compressed", Kind::Pos, 50, g_ipv6_compressed),
        ("ipv6_zone", Kind::Pos, 30, g_ipv6_zone),
        ("ipv6_embedded_v4", Kind::Pos, 30, g_ipv6_v4),
        ("email_&#64;", Kind::Pos, 40, g_email_dec),
        ("email_&#x40;", Kind::Pos, 30, g_email_hex),
        ("email_&commat;", Kind::Pos, 20, g_email_commat),
        ("email_%40", Kind::Pos, 40, g_email_pct),
        ("digits_phone_nbsp", Kind::Pos, 30, g_phone_nbsp),
        ("digits_phone_narrow_nbsp", Kind::Pos, 30, g_phone_nnbsp),
        ("digits_phone_thin_space", Kind::Pos, 30, g_phone_thin),
        ("digits_phone_figure_dash", Kind::Pos, 30, g_phone_figdash),
        ("digits_phone_en_dash", Kind::Pos, 30, g_phone_endash),
        ("digits_phone_mixed", Kind::Pos, 40, g_phone_mixed),
        ("digits_card_separators", Kind::Pos, 40, g_card_sep),
        ("digits_il_id_separators", Kind::Pos, 30, g_ilid_sep),
        ("prose_access_code", Kind::Pos, 30, g_access_code),
        (
            "info:digits_dot_space",
            Kind::InfoPos,
            30,
            i_dot_space_digits,
        ),
        (
            "info:hebrew_construct_sisma",
            Kind::InfoPos,
            30,
            i_he_construct,
        ),
        ("info:ipv4_glued_to_letter", Kind::InfoPos, 30, i_ip_glued),
        (
            "info:assign_letters_only",
            Kind::InfoPos,
            30,
            i_letters_only,
        ),
        ("assign_name_value_pair", Kind::Pos, 30, g_name_value_pair),
        ("prose_mixed_particle", Kind::Pos, 30, g_mixed_particle),
    ];
    for &(form, kind, n, g) in pos {
        for _ in 0..n {
            let (text, vals) = g(&mut r);
            cases.push(Case {
                form,
                kind,
                text,
                vals,
            });
        }
    }
    let negs: &[(&'static str, Kind, usize, NegGen)] = &[
        ("neg:version", Kind::Neg, 150, n_version),
        ("neg:uuid", Kind::Neg, 80, n_uuid),
        ("neg:git_sha", Kind::Neg, 100, n_git_sha),
        ("neg:digest", Kind::Neg, 100, n_digest),
        ("neg:docker_digest", Kind::Neg, 60, n_docker_digest),
        ("neg:npm_integrity", Kind::Neg, 60, n_npm_integrity),
        ("neg:placeholder", Kind::Neg, 200, n_placeholder),
        ("neg:variable_reference", Kind::Neg, 150, n_var_ref),
        ("neg:prose_about_credentials", Kind::Neg, 150, n_prose_talk),
        ("neg:llm_token_counts", Kind::Neg, 100, n_llm_tokens),
        ("neg:loopback_unspecified", Kind::Neg, 80, n_loopback),
        ("neg:mac_address", Kind::Neg, 60, n_mac),
        ("neg:time_date", Kind::Neg, 80, n_time_date),
        ("neg:price_coordinates", Kind::Neg, 60, n_price),
        ("neg:isbn", Kind::Neg, 60, n_isbn),
        ("neg:order_number_short", Kind::Neg, 60, n_order),
        (
            "neg:checksum_invalid_doc_sample",
            Kind::Neg,
            60,
            n_gh_doc_sample,
        ),
        ("neg:id_lookalikes", Kind::Neg, 80, n_id_lookalike),
        (
            "neg:credential_word_other_part",
            Kind::Neg,
            80,
            n_cred_word_other_part,
        ),
        ("neg:public_key_certificate", Kind::Neg, 50, n_public_key),
        ("info:neg_bare_REDACTED", Kind::InfoNeg, 30, i_redacted),
        ("neg:user_agent_version", Kind::Neg, 30, n_ua_chrome),
        ("neg:docker_images_row", Kind::Neg, 30, n_docker_images_row),
        (
            "info:neg_number_after_joining_word",
            Kind::InfoNeg,
            30,
            i_token_number_prose,
        ),
    ];
    for &(form, kind, n, g) in negs {
        for _ in 0..n {
            let text = g(&mut r);
            cases.push(Case {
                form,
                kind,
                text,
                vals: Vec::new(),
            });
        }
    }
    cases
}

#[test]
fn heldout_agent_notes() {
    // Set HELDOUT_ALL_FAILURES=1 to print every failing text instead of the first three.
    let verbose = std::env::var_os("HELDOUT_ALL_FAILURES").is_some();
    let started = Instant::now();
    let cases = build();
    let generated = started.elapsed();

    let mut stats: BTreeMap<&'static str, Stat> = BTreeMap::new();
    let mut order: Vec<&'static str> = Vec::new();
    let mut idem_fail: Vec<String> = Vec::new();

    for c in &cases {
        let m = mask(&c.text);
        let again = mask(&m.text);
        if !again.spans.is_empty() {
            idem_fail.push(format!(
                "{:?}\n      masked:  {:?}\n      re-masked: {:?}",
                c.text, m.text, again.text
            ));
        }
        if !stats.contains_key(c.form) {
            order.push(c.form);
        }
        let st = stats.entry(c.form).or_default();
        st.kind = Some(c.kind);
        let spans: Vec<(usize, usize)> = m.spans.iter().map(|s| (s.start, s.end)).collect();
        let inside = |b: usize| spans.iter().any(|&(s, e)| s <= b && b < e);
        match c.kind {
            Kind::Pos | Kind::InfoPos => {
                for &(s, e) in &c.vals {
                    let mut total = 0;
                    let mut cov = 0;
                    for (i, ch) in c.text[s..e].char_indices() {
                        if counts_as_char(ch) {
                            total += 1;
                            let b = s + i;
                            if inside(b) && inside(b + ch.len_utf8() - 1) {
                                cov += 1;
                            }
                        }
                    }
                    st.n += 1;
                    let verdict = if cov == total && total > 0 {
                        st.full += 1;
                        None
                    } else if cov == 0 {
                        st.missed += 1;
                        Some("MISSED")
                    } else {
                        st.partial += 1;
                        Some("PARTIAL")
                    };
                    if let Some(v) = verdict
                        && (st.fails.len() < 3 || verbose)
                    {
                        st.fails.push(format!(
                            "{v} value {:?}\n      text:   {:?}\n      masked: {:?}",
                            shorten(&c.text[s..e], 120),
                            shorten(&c.text, 400),
                            shorten(&m.text, 400)
                        ));
                    }
                }
            }
            Kind::Neg | Kind::InfoNeg => {
                st.n += 1;
                if !m.spans.is_empty() {
                    st.changed += 1;
                    if st.fails.len() < 3 || verbose {
                        let cats: Vec<String> = m
                            .spans
                            .iter()
                            .map(|s| format!("{:?} {:?}", s.category, &c.text[s.start..s.end]))
                            .collect();
                        st.fails.push(format!(
                            "CHANGED\n      text:   {:?}\n      masked: {:?}\n      spans:  {}",
                            shorten(&c.text, 400),
                            shorten(&m.text, 400),
                            cats.join(", ")
                        ));
                    }
                }
            }
        }
    }
    let elapsed = started.elapsed();

    let mut tot = Stat::default();
    let mut neg_tot = Stat::default();
    let print_pos = |title: &str, want: Kind, tot: &mut Stat| {
        println!("\n{title}");
        println!(
            "  {:<40} {:>5} {:>8} {:>9} {:>8}",
            "form", "n", "full%", "partial%", "missed%"
        );
        for f in &order {
            let st = &stats[f];
            if st.kind != Some(want) {
                continue;
            }
            println!(
                "  {:<40} {:>5} {:>8.1} {:>9.1} {:>8.1}",
                f,
                st.n,
                pct(st.full, st.n),
                pct(st.partial, st.n),
                pct(st.missed, st.n)
            );
            tot.n += st.n;
            tot.full += st.full;
            tot.partial += st.partial;
            tot.missed += st.missed;
        }
    };
    let print_neg = |title: &str, want: Kind, tot: &mut Stat| {
        println!("\n{title}");
        println!("  {:<40} {:>5} {:>9}", "form", "n", "changed%");
        for f in &order {
            let st = &stats[f];
            if st.kind != Some(want) {
                continue;
            }
            println!("  {:<40} {:>5} {:>9.1}", f, st.n, pct(st.changed, st.n));
            tot.n += st.n;
            tot.changed += st.changed;
        }
    };

    print_pos("POSITIVES (held to the targets)", Kind::Pos, &mut tot);
    print_neg("NEGATIVES (held to the targets)", Kind::Neg, &mut neg_tot);
    let mut info_pos = Stat::default();
    let mut info_neg = Stat::default();
    print_pos(
        "INFORMATIONAL positives (status left open by the rules; not held to the targets)",
        Kind::InfoPos,
        &mut info_pos,
    );
    print_neg(
        "INFORMATIONAL negatives (not held to the targets)",
        Kind::InfoNeg,
        &mut info_neg,
    );

    println!("\nFAILURES (first 3 per form)");
    for f in &order {
        let st = &stats[f];
        if st.fails.is_empty() {
            continue;
        }
        println!("  [{f}]");
        for e in &st.fails {
            println!("    {e}");
        }
    }
    if !idem_fail.is_empty() {
        println!("\nIDEMPOTENCE VIOLATIONS (first 3 of {})", idem_fail.len());
        for e in idem_fail.iter().take(3) {
            println!("    {e}");
        }
    }

    let texts = cases.len();
    let forms_pos = order
        .iter()
        .filter(|f| stats[*f].kind == Some(Kind::Pos))
        .count();
    let forms_neg = order
        .iter()
        .filter(|f| stats[*f].kind == Some(Kind::Neg))
        .count();
    println!("\nSUMMARY");
    println!("  texts: {texts} (generated in {generated:?}, total with masking twice {elapsed:?})");
    println!(
        "  positives: {} values in {forms_pos} forms: full {:.2}%  partial {:.2}%  missed {:.2}%",
        tot.n,
        pct(tot.full, tot.n),
        pct(tot.partial, tot.n),
        pct(tot.missed, tot.n)
    );
    println!(
        "  negatives: {} texts in {forms_neg} forms: changed {:.2}%",
        neg_tot.n,
        pct(neg_tot.changed, neg_tot.n)
    );
    println!(
        "  informational: positives {} values full {:.1}%; negatives {} texts changed {:.1}%",
        info_pos.n,
        pct(info_pos.full, info_pos.n),
        info_neg.n,
        pct(info_neg.changed, info_neg.n)
    );
    println!("  idempotence violations: {}", idem_fail.len());

    assert!(
        pct(tot.full, tot.n) >= 99.0,
        "positives FULL {:.2}% < 99%",
        pct(tot.full, tot.n)
    );
    assert!(
        pct(tot.partial, tot.n) <= 0.2,
        "positives PARTIAL {:.2}% > 0.2%",
        pct(tot.partial, tot.n)
    );
    assert!(
        pct(neg_tot.changed, neg_tot.n) <= 1.0,
        "negatives CHANGED {:.2}% > 1%",
        pct(neg_tot.changed, neg_tot.n)
    );
    assert!(
        idem_fail.is_empty(),
        "{} idempotence violations",
        idem_fail.len()
    );
}

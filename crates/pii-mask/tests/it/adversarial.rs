//! An adversarial generator: personal data of every category in every format the masker
//! supports, passed through evasions (other digit scripts, format characters, separators of
//! every kind, spacing), placed in English, Hebrew and Japanese prose; and clean texts built
//! from every safe shape.
//!
//! Properties: every generated value is masked whole (nothing of it stays, not even part of a
//! digit group), no character of a clean text changes, and `mask` is idempotent. `measure`
//! prints the shares over a fixed sample so that the figures can be compared between runs.

use pii_mask::{Category, contains_personal_data, mask};
use proptest::prelude::*;

/// A small deterministic generator (SplitMix64) driven by proptest's seed, so that one case is
/// one `u64` and a failure replays from the regression file.
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

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// Between `lo` and `hi` digits.
    fn digits_between(&mut self, lo: u32, hi: u32) -> String {
        let n = self.range(lo, hi) as usize;
        self.digits(n)
    }

    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }

    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
}

// ---- check digits ----

fn luhn_complete(body: &str) -> String {
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
    format!("{body}{}", (10 - sum % 10) % 10)
}

fn il_id_complete(body: &str) -> String {
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

fn il_id_valid(d: &str) -> bool {
    d.len() == 9 && il_id_complete(&d[..8]) == d && d.bytes().any(|b| b != b'0')
}

fn iban_complete(country: &str, bban: &str) -> String {
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

// ---- values ----

/// One generated value: its text and the placeholders that may stand for it.
struct Value {
    text: String,
    /// `None`: any placeholder will do (a long number may read as a phone or a card).
    category: Option<Category>,
    /// Words that must come before the value for it to be personal data (account numbers).
    context: &'static str,
}

const SEPARATORS: &[&str] = &[
    "-", " ", ".", "/", " - ", "\u{00a0}", "\u{2009}", "\u{2013}", "\u{2212}",
];
/// Separators for numbers of any length: a lone `.` between parts of random lengths would make
/// decimals and coordinate pairs, which are safe shapes.
const LONG_SEPARATORS: &[&str] = &[
    "-", " ", "/", " - ", "\u{00a0}", "\u{2009}", "\u{2013}", "\u{2212}",
];

/// Joins parts with one separator, or (in a quarter of cases) a separator chosen per gap.
fn join(rng: &mut Rng, parts: &[&str], seps: &[&str]) -> String {
    let uniform = *rng.pick(seps);
    let mixed = rng.chance(25);
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            let sep = if mixed {
                seps[rng.below(seps.len())]
            } else {
                uniform
            };
            out.push_str(sep);
        }
        out.push_str(p);
    }
    out
}

fn split_at<'a>(d: &'a str, lens: &[usize]) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let mut at = 0;
    for &l in lens {
        if at + l >= d.len() {
            break;
        }
        parts.push(&d[at..at + l]);
        at += l;
    }
    if at < d.len() {
        parts.push(&d[at..]);
    }
    parts
}

fn phone(rng: &mut Rng) -> Value {
    let mobile = format!("05{}{}", rng.below(10), rng.digits(7));
    let text = match rng.below(12) {
        0 => mobile.clone(),
        1 => join(rng, &split_at(&mobile, &[3, 3]), SEPARATORS),
        2 => join(rng, &split_at(&mobile, &[3]), &["-", " "]),
        3 => format!(
            "+972 {}",
            join(rng, &split_at(&mobile[1..], &[2, 3]), &["-", " "])
        ),
        4 => format!(
            "+972 (0){}",
            join(rng, &split_at(&mobile[1..], &[2, 3]), &["-"])
        ),
        5 => format!(
            "00972-{}",
            join(rng, &split_at(&mobile[1..], &[2, 3]), &["-"])
        ),
        6 => mobile
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" "),
        7 => format!(
            "0{}-{}",
            rng.pick(&["2", "3", "4", "8", "9"]),
            rng.digits(7)
        ),
        8 => {
            let area = rng.range(200, 989);
            let exchange = rng.range(200, 999);
            let line = rng.digits(4);
            match rng.below(4) {
                0 => format!("({area}) {exchange}-{line}"),
                1 => format!("+1 {area} {exchange} {line}"),
                2 => format!("{area}.{exchange}.{line}"),
                _ => format!("1-{area}-{exchange}-{line}"),
            }
        }
        9 => format!("0{}0-{}-{}", rng.range(7, 9), rng.digits(4), rng.digits(4)),
        10 => format!("+44 20 {} {}", rng.digits(4), rng.digits(4)),
        _ => format!("+{}{}", rng.range(1, 9), rng.digits_between(8, 12)),
    };
    // A nine-digit landline may also pass the Israeli ID check digit; either name will do.
    let category = (text.len() != 10 || !text.starts_with('0') || text.as_bytes()[2] != b'-')
        .then_some(Category::Phone);
    Value {
        text,
        category,
        context: "",
    }
}

fn card(rng: &mut Rng) -> Value {
    let (first, len) = *rng.pick(&[
        ("4", 16),
        ("5", 16),
        ("37", 15),
        ("6", 16),
        ("35", 16),
        ("4", 19),
    ]);
    let body = format!("{first}{}", rng.digits(len - first.len() - 1));
    let d = luhn_complete(&body);
    let text = match rng.below(4) {
        0 => d,
        1 if len == 15 => join(rng, &split_at(&d, &[4, 6]), &[" ", "-"]),
        _ => join(rng, &split_at(&d, &[4, 4, 4, 4]), SEPARATORS),
    };
    Value {
        text,
        category: Some(Category::Card),
        context: "",
    }
}

fn iban(rng: &mut Rng) -> Value {
    let compact = match rng.below(3) {
        0 => iban_complete("IL", &rng.digits(19)),
        1 => iban_complete("DE", &rng.digits(18)),
        _ => {
            let bank: String = (0..4)
                .map(|_| char::from(b'A' + rng.below(26) as u8))
                .collect();
            iban_complete("GB", &format!("{bank}{}", rng.digits(14)))
        }
    };
    let text = match rng.below(3) {
        0 => compact,
        1 => join(rng, &split_at(&compact, &[4, 4, 4, 4, 4]), &[" "]),
        _ => compact.to_lowercase(),
    };
    Value {
        text,
        category: Some(Category::Iban),
        context: "",
    }
}

fn il_id(rng: &mut Rng) -> Value {
    let d = il_id_complete(&format!("{}{}", rng.range(1, 9), rng.digits(7)));
    let text = match rng.below(5) {
        0 => d,
        1 => format!("{}-{}", &d[..8], &d[8..]),
        2 => join(rng, &split_at(&d, &[3, 3]), SEPARATORS),
        3 => d.chars().map(String::from).collect::<Vec<_>>().join(" "),
        _ => join(rng, &split_at(&d, &[2, 3, 2]), &["-", " ", "/"]),
    };
    Value {
        text,
        category: Some(Category::IlId),
        context: "",
    }
}

fn bank_account(rng: &mut Rng) -> Value {
    // Account parts of up to eight digits: nine may be a valid Israeli ID, which is fine to
    // mask but renames the placeholder.
    let text = match rng.below(4) {
        0 => format!(
            "{}-{}-{}",
            rng.digits(2),
            rng.digits(3),
            rng.digits_between(4, 8)
        ),
        1 => format!("{}/{}", rng.digits(3), rng.digits_between(4, 8)),
        2 => format!("({}/{})", rng.digits(3), rng.digits_between(5, 8)),
        _ => format!("{}-{}-{}", rng.digits(1), rng.digits(3), rng.digits(6)),
    };
    Value {
        text,
        category: Some(Category::BankAccount),
        context: "account no. ",
    }
}

/// `YYYYMMDDhhmm` or `YYYYMMDDhhmmss` with a year from 1900 to 2099: a compact timestamp, which
/// is a safe shape when written in one piece.
fn compact_timestamp(d: &str) -> bool {
    let num = |a: usize, b: usize| d[a..b].parse::<u32>().unwrap_or(u32::MAX);
    (d.len() == 12 || d.len() == 14)
        && (1900..=2099).contains(&num(0, 4))
        && (1..=12).contains(&num(4, 6))
        && (1..=31).contains(&num(6, 8))
        && num(8, 10) <= 23
        && num(10, 12) <= 59
        && (d.len() == 12 || num(12, 14) <= 59)
}

fn long_number(rng: &mut Rng) -> Value {
    let n = rng.range(10, 20) as usize;
    let d = loop {
        let d = rng.digits(n);
        if !compact_timestamp(&d) {
            break d;
        }
    };
    let text = if rng.chance(50) {
        d
    } else {
        let mut lens = Vec::new();
        let mut left = n;
        // Parts of two to four digits: a one-digit last part could make a valid ISBN-10 shape
        // (one number in eleven), which is a safe shape.
        while left > 5 {
            let l = rng.range(2, 4) as usize;
            lens.push(l);
            left -= l;
        }
        // A lone `.` between two parts reads as a decimal or a coordinate pair, which are
        // safe shapes; dotted long numbers come in parts of two instead.
        if rng.chance(20) {
            join(rng, &split_at(&d, &[2; 10]), &["."])
        } else {
            join(rng, &split_at(&d, &lens), LONG_SEPARATORS)
        }
    };
    Value {
        text,
        category: None,
        context: "",
    }
}

fn email(rng: &mut Rng) -> Value {
    let local = match rng.below(8) {
        0 => format!(
            "{}{}",
            rng.pick(&["dana", "lyn", "p.coleman", "j_smith"]),
            rng.digits(2)
        ),
        1 => format!("{}'o", rng.pick(&["lyn76", "d", "mary"])),
        2 => rng
            .pick(&["josé.núñez", "דנה", "山田", "müller", "ana.maría"])
            .to_string(),
        3 => format!(
            "{}+{}",
            rng.pick(&["dana", "bob"]),
            rng.pick(&["tag", "news", "x1"])
        ),
        4 => "\"dana levi\"".to_owned(),
        5 => rng
            .pick(&[
                "a!b", "x#y", "o$k", "m%n", "e&f", "q*r", "s=t", "u?v", "w^z", "c`d", "g{h}",
                "i|j", "k~l",
            ])
            .to_string(),
        _ => format!(
            "{}.{}",
            rng.pick(&["dana", "noa", "ken"]),
            rng.pick(&["levi", "cohen", "sato"])
        ),
    };
    let domain = match rng.below(7) {
        0 => format!(
            "{}.{}",
            rng.pick(&["gmail", "example", "mail-box", "corp"]),
            rng.pick(&["com", "org", "co.il", "io", "net", "example"])
        ),
        1 => rng
            .pick(&[
                "xn--4dbrk0ce",
                "xn--80ak6aa92e.xn--p1ai",
                "example.xn--p1ai",
            ])
            .to_string(),
        2 => format!("[192.0.2.{}]", rng.range(1, 254)),
        3 => rng
            .pick(&["דוגמה.ישראל", "例え.jp", "correo.example"])
            .to_string(),
        _ => format!("{}.com", rng.pick(&["hotmail", "yahoo", "walla"])),
    };
    let simple_local = !local.contains('"') && local.is_ascii();
    let simple_domain =
        domain.is_ascii() && !domain.starts_with('[') && !domain.starts_with("xn--");
    let text = if simple_local && simple_domain && rng.chance(50) {
        let (at, dot) = *rng.pick(&[
            ("[at]", "[dot]"),
            (" (at) ", "."),
            (" at ", " dot "),
            (" @ ", "."),
            ("{@}", "(.)"),
            (" [ at ] ", " [ dot ] "),
            (" שטרודל ", " נקודה "),
            ("アットマーク", "ドット"),
            (" あっと ", " どっと "),
            ("(at)", "(dot)"),
        ]);
        // The bare `at` and `dot` words are only read with common top-level domains.
        let domain = if at == " at " {
            domain.replace(".example", ".com")
        } else {
            domain
        };
        format!("{local}{at}{}", domain.replace('.', dot))
    } else {
        format!("{local}@{domain}")
    };
    Value {
        text,
        category: Some(Category::Email),
        context: "",
    }
}

fn value(rng: &mut Rng) -> Value {
    match rng.below(7) {
        0 => phone(rng),
        1 => card(rng),
        2 => iban(rng),
        3 => il_id(rng),
        4 => bank_account(rng),
        5 => long_number(rng),
        _ => email(rng),
    }
}

// ---- evasions ----

const DIGIT_ZEROS: &[u32] = &[0x30, 0x660, 0x6F0, 0xFF10, 0x966, 0x9E6, 0x1D7CE, 0xE50];
const INVISIBLES: &[char] = &[
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{200e}', '\u{200f}', '\u{2060}', '\u{00ad}', '\u{feff}',
    '\u{2066}', '\u{2069}',
];

/// Rewrites a value the way someone hiding it might.
fn evade(rng: &mut Rng, value: &str) -> String {
    let level = rng.below(4);
    if level == 0 {
        return value.to_owned();
    }
    let mut out = String::new();
    let chars: Vec<char> = value.chars().collect();
    let script = *rng.pick(DIGIT_ZEROS);
    for (i, &c) in chars.iter().enumerate() {
        let folded = match c {
            '0'..='9' if rng.chance(40) => char::from_u32(script + (c as u32 - 0x30)).unwrap_or(c),
            '-' if rng.chance(50) => *rng.pick(&['\u{2013}', '\u{2212}', '\u{ff0d}', '\u{2010}']),
            ' ' if rng.chance(50) => {
                *rng.pick(&['\u{00a0}', '\u{2009}', '\u{3000}', '\u{202f}', '\t'])
            }
            '@' if rng.chance(50) => *rng.pick(&['＠', '﹫']),
            '.' if rng.chance(20) => *rng.pick(&['。', '．']),
            'a'..='z' | 'A'..='Z' if rng.chance(15) => {
                char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)
            }
            _ => c,
        };
        out.push(folded);
        if i + 1 < chars.len() && level >= 2 && rng.chance(30) {
            if c.is_ascii_digit() && rng.chance(30) {
                out.push(*rng.pick(&['\u{0301}', '\u{20e3}', '\u{fe0f}']));
            } else {
                out.push(*rng.pick(INVISIBLES));
            }
        }
    }
    out
}

// ---- prose ----

/// Sentences in the three languages; `{}` is where the value goes.
const TEMPLATES: &[&str] = &[
    "Call me at {} tomorrow",
    "my details: {}, thanks",
    "Send it to {}.",
    "({}) is the one to use",
    "התקשרו ל{} מחר",
    "הפרטים שלי: {} תודה",
    "שלחו ל-{} בבקשה",
    "電話番号は{}です",
    "連絡先：{}。",
    "メールは{}まで",
    "{}",
    "note\n{}\nend",
];

/// A sentence with `value` in it: the text, and the parts before and after the value.
fn place(rng: &mut Rng, value: &Value, hidden: &str) -> (String, String, String) {
    let template = rng.pick(TEMPLATES);
    let (before, after) = template.split_once("{}").unwrap_or((template, ""));
    let before = format!("{before}{}", value.context);
    (format!("{before}{hidden}{after}"), before, after.to_owned())
}

/// How a value came out of the masker.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Full,
    Partial,
    Missed,
}

fn is_placeholder_text(middle: &str) -> bool {
    let mut rest = middle;
    let mut any = false;
    while !rest.is_empty() {
        if let Some(p) = Category::ALL
            .iter()
            .map(|c| c.placeholder())
            .find(|p| rest.starts_with(p))
        {
            rest = &rest[p.len()..];
            any = true;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        if c.is_alphanumeric() {
            return false;
        }
        rest = &rest[c.len_utf8()..];
    }
    any
}

/// Full when the output is the sentence around the value with only placeholders where the value
/// was. A placeholder may also take in a letter glued to the value (the Hebrew prefix `ל` before
/// a Hebrew local part is indistinguishable from it): that is more masking, not less.
fn outcome(text: &str, before: &str, after: &str, masked: &str) -> Outcome {
    let kept_before = common_prefix(masked, before);
    let rest = &masked[kept_before..];
    let kept_after = common_suffix(rest, after);
    let middle = &rest[..rest.len() - kept_after];
    if is_placeholder_text(middle) {
        Outcome::Full
    } else if masked == text {
        Outcome::Missed
    } else {
        Outcome::Partial
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

fn common_suffix(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

// ---- clean texts ----

fn isbn10(rng: &mut Rng) -> String {
    let body = rng.digits(9);
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

fn isbn13(rng: &mut Rng) -> String {
    let body = format!("97{}{}", rng.range(8, 9), rng.digits(9));
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    format!(
        "{}-{}-{}-{}-{}",
        &body[..3],
        &body[3..4],
        &body[4..6],
        &body[6..12],
        (10 - sum % 10) % 10
    )
}

/// One safe shape.
fn clean_item(rng: &mut Rng) -> String {
    let (y, m, d) = (rng.range(1950, 2030), rng.range(1, 12), rng.range(1, 28));
    let (h, mi, s) = (rng.range(0, 23), rng.range(0, 59), rng.range(0, 59));
    match rng.below(22) {
        0 => format!("{y}-{m:02}-{d:02}"),
        1 => format!("{d:02}/{m:02}/{y}"),
        2 => format!("{d}.{m}.{y}"),
        3 => format!("{h:02}:{mi:02}:{s:02}"),
        4 => format!("{y}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
        5 => format!("{y}-{m:02}-{d:02} {h:02}:{mi:02}"),
        6 => format!("₪{}.{:02}", rng.range(0, 9_999_999), rng.range(0, 99)),
        7 => format!(
            "${},{:03},{:03}.{:02}",
            rng.range(1, 999),
            rng.range(0, 999),
            rng.range(0, 999),
            rng.range(0, 99)
        ),
        8 => format!(
            "€{}.{:03}.{:03},{:02}",
            rng.range(1, 999),
            rng.range(0, 999),
            rng.range(0, 999),
            rng.range(0, 99)
        ),
        9 => format!(
            "v{}.{}.{}",
            rng.range(0, 99),
            rng.range(0, 99),
            rng.range(0, 999)
        ),
        // Versions shaped like addresses, and loopback addresses, are not personal data.
        10 => format!(
            "{}{}.{}.{}",
            ["v1.", "127."][rng.range(0, 1) as usize],
            rng.range(0, 255),
            rng.range(0, 255),
            rng.range(0, 255)
        ),
        11 => format!("ISBN {}", isbn10(rng)),
        12 => format!("ISBN {}", isbn13(rng)),
        13 => format!(
            "{}.{:04}, {}.{:04}",
            rng.range(0, 89),
            rng.range(0, 9999),
            rng.range(0, 179),
            rng.range(0, 9999)
        ),
        14 => format!(
            "{}.{:06} {}.{:06}",
            rng.range(10, 89),
            rng.range(0, 999_999),
            rng.range(10, 179),
            rng.range(0, 999_999)
        ),
        15 => loop {
            let n = format!("{}{}", rng.range(1, 9), rng.digits(8));
            if !il_id_valid(&n) {
                break format!("order #{n}");
            }
        },
        16 => {
            let hex = |rng: &mut Rng, n: usize| -> String {
                (0..n)
                    .map(|_| char::from(b"0123456789abcdef"[rng.below(16)]))
                    .collect()
            };
            format!(
                "{}-{}-{}-{}-{}",
                hex(rng, 8),
                hex(rng, 4),
                hex(rng, 4),
                hex(rng, 4),
                hex(rng, 12)
            )
        }
        17 => format!("{}x{}", rng.range(640, 7680), rng.range(480, 4320)),
        18 => format!("room {}", rng.range(1, 9999)),
        19 => format!("{}.{}%", rng.range(0, 99), rng.range(0, 99)),
        20 => format!("{y}{m:02}{d:02}{h:02}{mi:02}{s:02}"),
        _ => format!("{d:02}.{m:02}.{y} {h:02}.{mi:02}"),
    }
}

const CLEAN_TEMPLATES: &[&str] = &[
    "Notes: {} and then {}.",
    "פגישה ב-{} ואחר כך {}",
    "会議は{}、次は{}です",
    "{}, {}",
    "{}\n{}",
];

/// Pairs of shapes that people write side by side with only a space between them.
fn clean_pair(rng: &mut Rng) -> String {
    let (y, m, d) = (rng.range(1950, 2030), rng.range(1, 12), rng.range(1, 28));
    let (h, mi) = (rng.range(0, 23), rng.range(0, 59));
    match rng.below(6) {
        0 => format!("{y}-{m:02}-{d:02} {h:02}:{mi:02}"),
        1 => format!("{d:02}.{m:02}.{y} {h:02}.{mi:02}"),
        2 => format!(
            "{y}-{m:02}-{d:02} {}-{:02}-{:02}",
            y + 1,
            rng.range(1, 12),
            rng.range(1, 28)
        ),
        3 => format!(
            "{d:02}/{m:02}/{y} {:02}/{:02}/{}",
            rng.range(1, 28),
            rng.range(1, 12),
            y + 1
        ),
        4 => format!(
            "{}.{:02} {}.{:02}",
            rng.range(1, 9_999_999),
            rng.range(0, 99),
            rng.range(1, 9_999_999),
            rng.range(0, 99)
        ),
        _ => format!(
            "{}.{:06} {}.{:06}",
            rng.range(0, 89),
            rng.range(0, 999_999),
            rng.range(0, 179),
            rng.range(0, 999_999)
        ),
    }
}

fn clean_text(rng: &mut Rng) -> String {
    let template = rng.pick(CLEAN_TEMPLATES);
    let item = |rng: &mut Rng| {
        if rng.chance(25) {
            clean_pair(rng)
        } else {
            clean_item(rng)
        }
    };
    let (a, b) = (item(rng), item(rng));
    template.replacen("{}", &a, 1).replacen("{}", &b, 1)
}

fn generated(seed: u64) -> (String, String, String, Value) {
    let mut rng = Rng(seed);
    let value = value(&mut rng);
    let hidden = evade(&mut rng, &value.text);
    let (text, before, after) = place(&mut rng, &value, &hidden);
    (text, before, after, value)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 4096,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_generated_value_is_masked_whole(seed in any::<u64>()) {
        let (text, before, after, value) = generated(seed);
        let m = mask(&text);
        prop_assert_eq!(outcome(&text, &before, &after, &m.text), Outcome::Full, "{:?} -> {:?}", text, m.text);
        if let Some(c) = value.category {
            prop_assert!(m.spans.iter().any(|s| s.category == c), "{:?} -> {:?}", text, m.spans);
        }
        let again = mask(&m.text);
        prop_assert_eq!(&again.text, &m.text);
        if value.context.is_empty() {
            prop_assert!(contains_personal_data(&hidden_only(&text, &before, &after)), "{:?}", text);
        }
    }

    #[test]
    fn clean_texts_are_unchanged(seed in any::<u64>()) {
        let text = clean_text(&mut Rng(seed));
        let m = mask(&text);
        prop_assert_eq!(&m.text, &text);
        prop_assert!(!contains_personal_data(&text), "{:?}", text);
    }
}

fn hidden_only(text: &str, before: &str, after: &str) -> String {
    text[before.len()..text.len() - after.len()].to_owned()
}

/// The generator's figures over a fixed sample of 20,000 values and 20,000 clean texts.
#[test]
fn measure() {
    let mut seeds = Rng(0x5EED_2026_1201);
    let (mut full, mut partial, mut missed) = (0usize, 0usize, 0usize);
    let mut examples = Vec::new();
    let n = 20_000;
    for _ in 0..n {
        let seed = seeds.next();
        let (text, before, after, _) = generated(seed);
        let m = mask(&text);
        match outcome(&text, &before, &after, &m.text) {
            Outcome::Full => full += 1,
            Outcome::Partial => {
                partial += 1;
                examples.push(format!("partial {text:?} -> {:?}", m.text));
            }
            Outcome::Missed => {
                missed += 1;
                examples.push(format!("missed {text:?}"));
            }
        }
    }
    let mut changed = 0usize;
    for _ in 0..n {
        let seed = seeds.next();
        let text = clean_text(&mut Rng(seed));
        if mask(&text).text != text {
            changed += 1;
            examples.push(format!("clean changed {text:?} -> {:?}", mask(&text).text));
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / n as f64;
    println!(
        "generator: {n} values, fully masked {:.2} %, partly {:.2} %, missed {:.2} %; {n} clean texts, changed {:.2} %",
        pct(full),
        pct(partial),
        pct(missed),
        pct(changed)
    );
    for e in examples
        .iter()
        .filter(|e| e.starts_with(std::env::var("SHOW").as_deref().unwrap_or("")))
        .take(60)
    {
        println!("  {e}");
    }
    assert_eq!((partial, missed, changed), (0, 0, 0), "{examples:#?}");
}

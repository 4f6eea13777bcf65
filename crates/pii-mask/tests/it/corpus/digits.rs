//! Corpus "digit obfuscations": digit values written with unusual separators, other digit
//! scripts, invisible characters and full-width forms; and clean texts full of digits.

use super::util::*;
use super::values::*;
use super::{Case, Corpus, Limits};

const PER_FORM: usize = 130;
const CLEAN_PER_FORM: usize = 100;

pub fn corpus() -> Corpus {
    let mut r = Rng::new(0xD161_7500_2026);
    let mut cases = Vec::new();
    positives(&mut r, &mut cases);
    clean(&mut r, &mut cases);
    Corpus {
        name: "digit obfuscations",
        cases,
        limits: Limits {
            min_full: 97.0,
            max_partial: 0.5,
            max_changed: 0.5,
        },
    }
}

/// A digit value in its natural grouping. `lead` is a non-digit start (`+`).
struct Value {
    category: &'static str,
    lead: &'static str,
    groups: Vec<String>,
}

impl Value {
    fn digits(&self) -> String {
        self.groups.concat()
    }
}

const KINDS: &[&str] = &[
    "il-mobile",
    "il-landline",
    "intl",
    "nanp",
    "jp",
    "il-id",
    "card",
    "amex",
    "number",
    "bank",
    "ssn",
];

fn value(r: &mut Rng, kind: &str) -> Value {
    let v = |category, lead, groups: Vec<String>| Value {
        category,
        lead,
        groups,
    };
    match kind {
        "il-mobile" => v("phone", "", split_lens(&il_mobile(r), &[3, 3])),
        "il-landline" => {
            let d = format!("0{}{}", r.pick(&["2", "3", "4", "8", "9"]), r.digits(7));
            v("phone", "", split_lens(&d, &[2, 3]))
        }
        "intl" => {
            let d = il_mobile(r);
            let mut g = vec!["972".to_owned()];
            g.extend(split_lens(&d[1..], &[2, 3]));
            v("phone", "+", g)
        }
        "nanp" => {
            let d = format!("{}{}{}", r.range(201, 989), r.range(200, 999), r.digits(4));
            v("phone", "", split_lens(&d, &[3, 3]))
        }
        "jp" => {
            let d = format!("0{}0{}", r.range(7, 9), r.digits(8));
            v("phone", "", split_lens(&d, &[3, 4]))
        }
        "il-id" => v("il_id", "", split_lens(&il_id(r), &[3, 3])),
        "card" => loop {
            let d = card(r);
            if d.len() == 16 {
                break v("card", "", split_lens(&d, &[4, 4, 4]));
            }
        },
        "amex" => {
            let d = luhn_complete(&format!("37{}", r.digits(12)));
            v("card", "", split_lens(&d, &[4, 6]))
        }
        "number" => loop {
            let n = r.range(10, 16) as usize;
            let d = format!("{}{}", r.range(1, 9), r.digits(n - 1));
            let mut lens = Vec::new();
            let mut left = n;
            while left > 4 {
                let l = r.range(2, 4) as usize;
                lens.push(l);
                left -= l;
            }
            let g = split_lens(&d, &lens);
            // No part that reads as a year, so that no date shape can appear inside.
            if g.iter()
                .all(|p| !(p.len() == 4 && (p.starts_with("19") || p.starts_with("20"))))
            {
                break v("number", "", g);
            }
        },
        "bank" => {
            // Bank-branch-account, 11 to 14 digits in all.
            let n = r.range(6, 9) as usize;
            let d = format!("{}{}{}", r.range(10, 99), r.range(100, 999), r.digits(n));
            v("bank_account", "", split_lens(&d, &[2, 3]))
        }
        _ => v("us_ssn", "", split_lens(&ssn_digits(r), &[3, 2])),
    }
}

/// Carriers per category: English, Hebrew (with glued prefixes), Japanese.
fn carriers(category: &str) -> &'static [&'static str] {
    match category {
        "phone" => &[
            "Call me at «V» tomorrow",
            "my cell: «V»",
            "(mobile «V»)",
            "התקשרו ל«V» מחר",
            "הנייד שלי «V»",
            "טלפון: «V»",
            "携帯は«V»です",
            "電話番号：«V»",
            "«V»",
        ],
        "il_id" => &[
            "ת.ז. «V»",
            "ID «V»",
            "מספר זהות: «V»",
            "my teudat zehut is «V».",
            "«V»",
            "תעודת זהות «V» של «hename»",
        ],
        "card" => &[
            "card «V» exp 09/27",
            "visa «V»",
            "כרטיס אשראי «V»",
            "カード番号：«V»",
            "paid with «V» yesterday",
        ],
        "bank_account" => &[
            "account «V»",
            "חשבון בנק «V»",
            "口座番号：«V»",
            "wire it to acct «V» please",
            "«V»",
        ],
        "number" => &[
            "ref «V»",
            "tracking «V»",
            "מספר מעקב: «V»",
            "追跡番号：«V»",
            "policy no. «V» renewed",
        ],
        _ => &[
            "SSN «V»",
            "ssn: «V»",
            "social security number «V»",
            "社会保障番号：«V»",
            "«V»",
        ],
    }
}

const INVISIBLE: &[char] = &['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'];
const BIDI: &[char] = &['\u{200e}', '\u{200f}', '\u{2066}', '\u{2069}', '\u{061c}'];
/// Zero digits of other scripts (all `Nd`).
const OTHER_ZEROS: &[u32] = &[
    0x09E6, 0x0E50, 0x0BE6, 0x17E0, 0x1040, 0x1D7CE, 0x1810, 0x0AE6,
];

fn script_digit(c: char, zero: u32) -> char {
    match c.to_digit(10) {
        Some(d) => char::from_u32(zero + d).unwrap_or(c),
        None => c,
    }
}

/// The natural separators for forms that change the digits, not the gaps.
fn natural_join(r: &mut Rng, v: &Value) -> String {
    let sep = if v.category == "us_ssn" {
        *r.pick(&["-", " "])
    } else {
        *r.pick(&["-", " ", ""])
    };
    format!("{}{}", v.lead, v.groups.join(sep))
}

/// Inserts characters from `pool` after some digits (never after the last one).
fn sprinkle_after_digits(r: &mut Rng, s: &str, pool: &[char], percent: u32) -> String {
    let chars: Vec<char> = s.chars().collect();
    let last_digit = chars.iter().rposition(char::is_ascii_digit).unwrap_or(0);
    let mut out = String::new();
    let mut any = false;
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if c.is_ascii_digit()
            && i < last_digit
            && (r.chance(percent) || (!any && i + 1 == last_digit))
        {
            out.push(*r.pick(pool));
            any = true;
        }
    }
    out
}

/// The obfuscation forms: the name and whether an SSN keeps its shape under it.
const FORMS: &[(&str, bool)] = &[
    ("digits/nbsp", true),
    ("digits/narrow-nbsp", true),
    ("digits/thin-space", true),
    ("digits/figure-dash", true),
    ("digits/en-dash", true),
    ("digits/minus-sign", true),
    ("digits/ideographic-space", true),
    ("digits/dot-space", false),
    ("digits/mixed-separators", false),
    ("digits/spaced-digits", false),
    ("digits/arabic-indic", true),
    ("digits/persian", true),
    ("digits/devanagari", true),
    ("digits/other-scripts", true),
    ("digits/fullwidth", true),
    ("digits/mixed-scripts", true),
    ("digits/zero-width", true),
    ("digits/soft-hyphen", true),
    ("digits/bidi-marks", true),
    ("digits/combining-marks", true),
    ("digits/keycap-emoji", true),
    ("digits/variation-selectors", true),
];

fn obfuscate(r: &mut Rng, form: &str, v: &Value) -> String {
    let lead = v.lead;
    let join = |sep: &str| format!("{lead}{}", v.groups.join(sep));
    match form {
        "digits/nbsp" => join("\u{a0}"),
        "digits/narrow-nbsp" => join("\u{202f}"),
        "digits/thin-space" => join("\u{2009}"),
        "digits/figure-dash" => join("\u{2012}"),
        "digits/en-dash" => join("\u{2013}"),
        "digits/minus-sign" => join("\u{2212}"),
        "digits/ideographic-space" => join("\u{3000}"),
        "digits/dot-space" => join(". "),
        "digits/mixed-separators" => {
            // Regrouped in parts of two or three, a separator chosen per gap, e.g.
            // `531. 06. 04. 106. 25`.
            const SEPS: &[&str] = &[
                ". ", " ", "-", " - ", "\u{a0}", "/", "\u{2013}", "\u{202f}", "\u{2009}", ". ",
            ];
            let d = v.digits();
            let mut lens = Vec::new();
            let mut left = d.len();
            while left > 3 {
                let l = if left == 4 { 2 } else { r.range(2, 3) as usize };
                lens.push(l);
                left -= l;
            }
            let parts = split_lens(&d, &lens);
            let mut out = lead.to_owned();
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    let sep = *r.pick(SEPS);
                    out.push_str(sep);
                }
                out.push_str(p);
            }
            out
        }
        "digits/spaced-digits" => {
            let sep = *r.pick(&[" ", "\u{a0}", "\u{2009}"]);
            let d: Vec<String> = v.digits().chars().map(String::from).collect();
            format!("{lead}{}", d.join(sep))
        }
        "digits/arabic-indic" => natural_join(r, v)
            .chars()
            .map(|c| script_digit(c, 0x0660))
            .collect(),
        "digits/persian" => natural_join(r, v)
            .chars()
            .map(|c| script_digit(c, 0x06F0))
            .collect(),
        "digits/devanagari" => natural_join(r, v)
            .chars()
            .map(|c| script_digit(c, 0x0966))
            .collect(),
        "digits/other-scripts" => {
            let zero = *r.pick(OTHER_ZEROS);
            natural_join(r, v)
                .chars()
                .map(|c| script_digit(c, zero))
                .collect()
        }
        "digits/fullwidth" => {
            let sep = if v.category == "us_ssn" {
                *r.pick(&["\u{ff0d}", "\u{3000}"])
            } else {
                *r.pick(&["\u{ff0d}", "\u{3000}", ""])
            };
            let lead = if lead.is_empty() { "" } else { "\u{ff0b}" };
            let s = format!("{lead}{}", v.groups.join(sep));
            s.chars().map(|c| script_digit(c, 0xFF10)).collect()
        }
        "digits/mixed-scripts" => natural_join(r, v)
            .chars()
            .map(|c| {
                let zero = *r.pick(&[0x30, 0x0660, 0x06F0, 0xFF10, 0x0966]);
                script_digit(c, zero)
            })
            .collect(),
        "digits/zero-width" => {
            let s = natural_join(r, v);
            sprinkle_after_digits(r, &s, INVISIBLE, 25)
        }
        "digits/soft-hyphen" => {
            // As the only separator, a dropped soft hyphen leaves a bare run of digits, which is no
            // longer an SSN shape; SSNs keep their own separators.
            if v.category != "us_ssn" && r.chance(50) {
                join("\u{ad}")
            } else {
                let s = natural_join(r, v);
                sprinkle_after_digits(r, &s, &['\u{ad}'], 20)
            }
        }
        "digits/bidi-marks" => {
            let s = natural_join(r, v);
            let inner = sprinkle_after_digits(r, &s, BIDI, 20);
            if r.chance(50) {
                format!("\u{200e}{inner}")
            } else {
                inner
            }
        }
        "digits/combining-marks" => {
            let s = natural_join(r, v);
            sprinkle_after_digits(r, &s, &['\u{0301}', '\u{0308}', '\u{20e3}', '\u{0332}'], 30)
        }
        "digits/keycap-emoji" => {
            let s = natural_join(r, v);
            let mut out = String::new();
            for c in s.chars() {
                out.push(c);
                if c.is_ascii_digit() {
                    out.push_str("\u{fe0f}\u{20e3}");
                }
            }
            out
        }
        "digits/variation-selectors" => {
            let s = natural_join(r, v);
            sprinkle_after_digits(r, &s, &['\u{fe0e}', '\u{fe0f}'], 30)
        }
        _ => panic!("unknown form {form}"),
    }
}

fn positives(r: &mut Rng, cases: &mut Vec<Case>) {
    for &(form, ssn_ok) in FORMS {
        let kinds: Vec<&str> = KINDS
            .iter()
            .copied()
            .filter(|k| ssn_ok || *k != "ssn")
            .collect();
        for i in 0..PER_FORM {
            let kind = kinds[i % kinds.len()];
            let v = value(r, kind);
            let shown = obfuscate(r, form, &v);
            let list = carriers(v.category);
            let template = list[(i / kinds.len()) % list.len()];
            let (before, after) = carrier(r, template, &[]);
            cases.push(Case::positive(v.category, form, &before, &shown, &after));
        }
    }
}

// ---------------------------------------------------------------- clean texts

const CLEAN_CARRIERS: &[&str] = &[
    "Notes: «V».",
    "«V»",
    "פגישה: «V»",
    "会議メモ：«V»",
    "- «V»\n- done",
    "reminder — «V», then lunch",
];

fn fw(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '0'..='9' => script_digit(c, 0xFF10),
            ':' => '\u{ff1a}',
            '-' => '\u{ff0d}',
            _ => c,
        })
        .collect()
}

fn clean_item(r: &mut Rng, form: &str, i: usize) -> String {
    let (y, mo, d) = (r.range(1950, 2030), r.range(1, 12), r.range(1, 28));
    let (h, mi, s) = (r.range(0, 23), r.range(0, 59), r.range(0, 59));
    match form {
        "clean/date-iso" => format!("{y}-{mo:02}-{d:02}"),
        "clean/date-dmy" => match i % 3 {
            0 => format!("{d:02}/{mo:02}/{y}"),
            1 => format!("{d:02}.{mo:02}.{y}"),
            _ => format!("{mo}.{d}.{y}"),
        },
        "clean/date-ja" => format!("{y}年{mo}月{d}日"),
        "clean/datetime" => match i % 4 {
            0 => format!("{y}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
            1 => format!("{y}-{mo:02}-{d:02} {h:02}:{mi:02}"),
            2 => format!("{d:02}.{mo:02}.{y} {h:02}.{mi:02}"),
            _ => format!("{y}{mo:02}{d:02}{h:02}{mi:02}{s:02}"),
        },
        "clean/time" => match i % 3 {
            0 => format!("{h:02}:{mi:02}:{s:02}"),
            1 => format!("at {h:02}:{mi:02}"),
            _ => format!("{h:02}:{mi:02}\u{2013}{:02}:{:02}", (h + 1) % 24, mi),
        },
        "clean/price" => match i % 5 {
            0 => format!(
                "₪{},{:03},{:03}.{:02}",
                r.range(1, 9),
                r.range(0, 999),
                r.range(0, 999),
                r.range(0, 99)
            ),
            1 => format!("${}.{:02}", r.range(1, 99_999), r.range(0, 99)),
            2 => format!(
                "€{}.{:03},{:02}",
                r.range(1, 999),
                r.range(0, 999),
                r.range(0, 99)
            ),
            3 => format!("¥{},{:03}", r.range(1, 999), r.range(0, 999)),
            _ => format!("{}.{:02} ₪", r.range(1, 9_999_999), r.range(0, 99)),
        },
        "clean/price-grouped" => {
            let sep = *r.pick(&["\u{a0}", "\u{202f}", "\u{2009}", " "]);
            match i % 3 {
                0 => format!("₪{}{sep}{:03}", r.range(1, 999), r.range(0, 999)),
                1 => format!(
                    "{}{sep}{:03}{sep}{:03},{:02} €",
                    r.range(1, 99),
                    r.range(0, 999),
                    r.range(0, 999),
                    r.range(0, 99)
                ),
                _ => format!(
                    "${}{sep}{:03}.{:02}",
                    r.range(1, 99),
                    r.range(0, 999),
                    r.range(0, 99)
                ),
            }
        }
        "clean/price-grouped-long" => {
            let sep = *r.pick(&["\u{a0}", "\u{202f}", " "]);
            format!(
                "€{}{sep}{:03}{sep}{:03}{sep}{:03}.{:02}",
                r.range(1, 9),
                r.range(0, 999),
                r.range(0, 999),
                r.range(0, 999),
                r.range(0, 99)
            )
        }
        "clean/version" => match i % 4 {
            0 => format!("v{}.{}.{}", r.range(0, 20), r.range(0, 20), r.range(0, 99)),
            1 => format!("{}.{}.{}", r.range(0, 9), r.range(0, 30), r.range(0, 30)),
            2 => format!(
                "version {}.{}.{}",
                r.range(1, 9),
                r.range(0, 30),
                r.range(0, 30)
            ),
            _ => format!(
                "v{}.{}.{}.{}",
                r.range(1, 9),
                r.range(0, 9),
                r.range(0, 9),
                r.range(0, 99)
            ),
        },
        "clean/isbn" => match i % 3 {
            0 => format!("ISBN {}", isbn10(r)),
            _ => format!("ISBN {}", isbn13(r)),
        },
        "clean/uuid" => uuid(r),
        "clean/order-number" => {
            let n = r.range(3, 8) as usize;
            let num = format!("{}{}", r.range(1, 9), r.digits(n - 1));
            match i % 4 {
                0 => format!("Order #{num} shipped"),
                1 => format!("Invoice {num} paid"),
                2 => format!("הזמנה מספר {num} נשלחה"),
                _ => format!("注文番号{num}を確認"),
            }
        }
        "clean/order-9-digit" => loop {
            let num = format!("{}{}", r.range(1, 9), r.digits(8));
            if !il_id_valid(&num) {
                break format!("Order #{num} shipped");
            }
        },
        "clean/coordinates" => match i % 4 {
            0 => format!(
                "{}.{:04}, {}.{:04}",
                r.range(0, 89),
                r.range(0, 9999),
                r.range(0, 179),
                r.range(0, 9999)
            ),
            1 => format!(
                "{}.{:04} {}.{:04}",
                r.range(0, 89),
                r.range(0, 9999),
                r.range(0, 179),
                r.range(0, 9999)
            ),
            2 => format!(
                "{}.{:06}, -{}.{:06}",
                r.range(10, 89),
                r.range(0, 999_999),
                r.range(10, 179),
                r.range(0, 999_999)
            ),
            _ => format!(
                "({}.{:04}, {}.{:04})",
                r.range(29, 33),
                r.range(0, 9999),
                r.range(34, 35),
                r.range(0, 9999)
            ),
        },
        "clean/percent" => format!(
            "CPU {}.{}%, RAM {}%",
            r.range(0, 99),
            r.range(0, 9),
            r.range(1, 99)
        ),
        "clean/resolution" => format!(
            "{}x{} @ {}Hz",
            r.pick(&[1920, 2560, 3840, 1280]),
            r.pick(&[1080, 1440, 2160, 720]),
            r.pick(&[60, 120, 144, 240])
        ),
        "clean/room-ext" => match i % 3 {
            0 => format!("ext. {}, room {}", r.range(100, 9999), r.range(1, 999)),
            1 => format!("card ending in {}", r.digits(4)),
            _ => format!("floor {}, desk {}", r.range(1, 40), r.range(1, 300)),
        },
        "clean/fullwidth-datetime" => match i % 3 {
            0 => fw(&format!("{y}年{mo}月{d}日 {h:02}:{mi:02}")),
            1 => fw(&format!("{h:02}:{mi:02}～{:02}:{mi:02}", (h + 1) % 24)),
            _ => fw(&format!("{y}-{mo:02}-{d:02}")),
        },
        "clean/arabic-indic-date" => {
            let s = if i.is_multiple_of(2) {
                format!("{y}-{mo:02}-{d:02}")
            } else {
                format!("{d:02}/{mo:02}/{y}")
            };
            s.chars().map(|c| script_digit(c, 0x0660)).collect()
        }
        "clean/date-range" => match i % 3 {
            0 => format!("{y}-{mo:02}-{d:02} \u{2013} {y}-{mo:02}-{:02}", d + 1),
            1 => format!("{d:02}/{mo:02}/{y}\u{2013}{:02}/{mo:02}/{y}", d + 1),
            _ => format!("{y}-{mo:02}-{d:02} {h:02}:{mi:02}"),
        },
        "clean/small-numbers" => match i % 3 {
            0 => format!(
                "Sold {}. {} more next week",
                r.range(10, 9999),
                r.range(10, 9999)
            ),
            1 => format!(
                "Room {}. {} people attended",
                r.range(1, 999),
                r.range(2, 99)
            ),
            _ => format!(
                "{} km, {} m, {} kg",
                r.range(1, 999),
                r.range(1, 999),
                r.range(1, 99)
            ),
        },
        _ => panic!("unknown clean form {form}"),
    }
}

const CLEAN_FORMS: &[(&str, usize)] = &[
    ("clean/date-iso", CLEAN_PER_FORM),
    ("clean/date-dmy", CLEAN_PER_FORM),
    ("clean/date-ja", CLEAN_PER_FORM),
    ("clean/datetime", CLEAN_PER_FORM),
    ("clean/time", CLEAN_PER_FORM),
    ("clean/price", CLEAN_PER_FORM),
    ("clean/price-grouped", CLEAN_PER_FORM),
    ("clean/price-grouped-long", 40),
    ("clean/version", CLEAN_PER_FORM),
    ("clean/isbn", CLEAN_PER_FORM),
    ("clean/uuid", CLEAN_PER_FORM),
    ("clean/order-number", CLEAN_PER_FORM),
    ("clean/order-9-digit", 60),
    ("clean/coordinates", CLEAN_PER_FORM),
    ("clean/percent", 60),
    ("clean/resolution", 60),
    ("clean/room-ext", CLEAN_PER_FORM),
    ("clean/fullwidth-datetime", CLEAN_PER_FORM),
    ("clean/arabic-indic-date", CLEAN_PER_FORM),
    ("clean/date-range", CLEAN_PER_FORM),
    ("clean/small-numbers", CLEAN_PER_FORM),
];

fn clean(r: &mut Rng, cases: &mut Vec<Case>) {
    for &(form, n) in CLEAN_FORMS {
        for i in 0..n {
            let item = clean_item(r, form, i);
            let template = CLEAN_CARRIERS[i % CLEAN_CARRIERS.len()];
            let t = text(r, &template.replace("«V»", &item), &[]);
            cases.push(Case::negative("clean", form, t));
        }
    }
}

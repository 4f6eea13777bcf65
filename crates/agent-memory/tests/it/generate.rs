//! Generated inputs for the personal-data rules of identifiers and paths: a small deterministic
//! generator, so every run sees the same few hundred values, each built to be found by the
//! masker's identifier check (a check digit, Luhn or mod-97 where the category has one), and
//! clean values that must pass.

/// A small deterministic generator (xorshift64*): the same inputs on every run.
pub(crate) struct Gen(u64);

const WORDS: &[&str] = &[
    "notes", "projects", "contacts", "people", "inbox", "team", "clients", "archive", "drafts",
    "ideas", "meetings", "travel", "reading", "design", "release", "support",
];
const NAMES: &[&str] = &[
    "dana", "levi", "omer", "noa", "yossi", "maya", "john", "li", "sara", "amit",
];
const DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "mail.example.co.il",
    "corp.example.io",
];

impl Gen {
    pub(crate) fn new(seed: u64) -> Gen {
        Gen(seed.max(1))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    pub(crate) fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }

    pub(crate) fn word(&mut self) -> &'static str {
        self.pick(WORDS)
    }

    /// An email address, a phone number, an Israeli ID with its check digit, a card number
    /// that passes Luhn, an Israeli IBAN that passes mod-97, or a run of 10 to 14 digits.
    pub(crate) fn personal_value(&mut self) -> String {
        match self.below(7) {
            0 => format!(
                "{}.{}@{}",
                self.pick(NAMES),
                self.pick(NAMES),
                self.pick(DOMAINS)
            ),
            1 => format!("+1415{}", self.digits(7)),
            2 => format!("05{}-{}-{}", self.below(10), self.digits(3), self.digits(4)),
            3 => israeli_id(&format!("{}{}", 1 + self.below(9), self.digits(7))),
            4 => luhn(&format!("4{}", self.digits(14))),
            5 => israeli_iban(&self.digits(19)),
            _ => {
                let n = 10 + self.below(5) as usize;
                format!("{}{}", 1 + self.below(9), self.digits(n - 1))
            }
        }
    }

    /// An identifier (a collection id, a namespace) holding a personal value.
    pub(crate) fn personal_identifier(&mut self) -> String {
        let value = self.personal_value();
        match self.below(3) {
            0 => value,
            1 => format!("{} {value}", self.word()),
            _ => format!("{value} {}", self.word()),
        }
    }

    /// An identifier without personal data: words, dates, versions and short numbers.
    pub(crate) fn clean_identifier(&mut self) -> String {
        let year = 2000 + self.below(30);
        match self.below(4) {
            0 => self.word().to_owned(),
            1 => format!("{}-{year}-{:02}", self.word(), 1 + self.below(12)),
            2 => format!("{}-v{}.{}", self.word(), self.below(10), self.below(10)),
            _ => format!("{}_{}", self.word(), self.below(1000)),
        }
    }

    /// A store path with a personal value in one of its segments.
    pub(crate) fn personal_path(&mut self) -> String {
        let value = self.personal_value();
        match self.below(4) {
            0 => format!("/{}/{value}.md", self.word()),
            1 => format!("/{}/{value}/{}.md", self.word(), self.word()),
            2 => format!("/{value}/{}", self.word()),
            _ => format!("/{}/{}/{value}", self.word(), self.word()),
        }
    }

    /// A store path without personal data: words, dates, versions and short numbers, never two
    /// numbers in adjacent segments (a `/` between digits joins them into one group).
    pub(crate) fn clean_path(&mut self) -> String {
        let year = 2000 + self.below(30);
        let (month, day) = (1 + self.below(12), 1 + self.below(28));
        match self.below(5) {
            0 => format!("/{}/{year}-{month:02}-{day:02}.md", self.word()),
            1 => format!(
                "/{}/v{}.{}.{}/{}.md",
                self.word(),
                self.below(20),
                self.below(20),
                self.below(100),
                self.word()
            ),
            2 => format!("/{}/{}-{}.md", self.word(), self.word(), self.below(1000)),
            3 => format!("/{}/{}/{}.txt", self.word(), self.word(), self.word()),
            _ => format!("/{}/{year}/{}.md", self.word(), self.word()),
        }
    }
}

/// `prefix` (8 digits) with the Israeli ID check digit appended.
fn israeli_id(prefix: &str) -> String {
    let sum: u32 = prefix
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let p = u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 2 };
            if p > 9 { p - 9 } else { p }
        })
        .sum();
    format!("{prefix}{}", (10 - sum % 10) % 10)
}

/// `prefix` with the Luhn check digit appended.
fn luhn(prefix: &str) -> String {
    let sum: u32 = prefix
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let p = d * 2;
                if p > 9 { p - 9 } else { p }
            } else {
                d
            }
        })
        .sum();
    format!("{prefix}{}", (10 - sum % 10) % 10)
}

/// An Israeli IBAN (23 characters) for the 19-digit account part `bban`.
fn israeli_iban(bban: &str) -> String {
    // IL = 18 21; the check digits make the rearranged number 1 mod 97.
    let rest = format!("{bban}182100");
    let remainder = rest
        .bytes()
        .fold(0u32, |r, b| (r * 10 + u32::from(b - b'0')) % 97);
    format!("IL{:02}{bban}", 98 - remainder)
}

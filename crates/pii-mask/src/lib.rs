//! Deterministic masking of personal data and credentials in text.
//!
//! [`mask`] replaces credentials, emails, IBANs, payment cards, Israeli IDs, US Social Security
//! numbers, bank accounts, phone numbers, IP addresses and long digit runs with placeholders
//! such as `[PHONE]` or `[SECRET]`, and reports where they were.
//! [`contains_personal_data`] answers yes or no for identifiers (namespaces, keys), and
//! [`only_placeholders`] tells whether anything but placeholders is left of a masked text.
//!
//! ```
//! use pii_mask::{Category, mask, contains_personal_data, only_placeholders};
//!
//! let masked = mask("Call me at 050-123-4567 or write to dana@example.com");
//! assert_eq!(masked.text, "Call me at [PHONE] or write to [EMAIL]");
//! assert_eq!(masked.counts.get(&Category::Phone), Some(&1));
//! let first = masked.spans.first().ok_or("no span")?;
//! assert_eq!(first.category, Category::Phone);
//! assert_eq!((first.start, first.end), (11, 23));
//!
//! assert!(contains_personal_data("user-0523456789"));
//! assert!(!contains_personal_data("invoice-29106136"));
//! assert!(!only_placeholders("tel: [PHONE]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Detection runs on a folded view of the text (digits of every script read as ASCII, full-width
//! forms folded, invisible characters dropped), so look-alike and zero-width evasions are caught;
//! the output replaces spans in the original text and leaves every other byte as it was. Masking
//! is idempotent, deterministic and linear in the input length; text without digits, `@`, an at
//! word, an invisible character or a credential word is returned after one scan.
//!
//! # Numbers are denied by default
//!
//! Digits joined by short separator runs (spaces, `-`, `.`, `/`, parentheses) form a *digit
//! group*, and a group is decided whole. A group made only of safe shapes — dates, IPv4
//! addresses, decimals and amounts, prices with a fraction or a currency, ISBNs with their check
//! digit, versions after `v`, compact timestamps, UUIDs — is kept. Otherwise ten or more digits
//! are always masked; nine digits are masked when a validator accepts them (the Israeli check
//! digit, a phone or bank structure); shorter numbers need a context word. Validators choose the
//! placeholder, never whether a long group is masked:
//!
//! ```
//! use pii_mask::mask;
//!
//! assert_eq!(mask("ref 12 34 56 78 90").text, "ref [NUMBER]");
//! assert_eq!(mask("ID 1 2 3 4 5 6 7 8 2").text, "ID [IL_ID]");
//! assert_eq!(mask("Order #482910375 shipped").text, "Order #482910375 shipped");
//! assert_eq!(mask("2024-03-15 12:30, 127.0.0.1, v10.4.12").spans.len(), 0);
//! assert_eq!(mask("from 203.0.113.7").text, "from [IP]");
//! ```
//!
//! # Credentials
//!
//! Provider keys and tokens are recognised by their published shapes (and their checksum where
//! the format has one), and so are JWTs, PEM private-key blocks, the password of a URL,
//! `Authorization` values and whatever is assigned to a credential word, in code, configuration
//! and sentences. Placeholders and references are not secrets.
//!
//! ```
//! use pii_mask::mask;
//!
//! assert_eq!(mask("key AKIAIOSFODNN7EXAMPLE").text, "key [SECRET]");
//! assert_eq!(mask("DB_PASSWORD=hunter2").text, "DB_PASSWORD=[SECRET]");
//! assert_eq!(mask("My password is Tr0ub4dor&3").text, "My password is [SECRET]");
//! assert_eq!(
//!     mask("postgres://admin:hunter2@db/prod").text,
//!     "postgres://admin:[SECRET]@db/prod"
//! );
//! assert_eq!(mask("export GITHUB_TOKEN=${GITHUB_TOKEN}").spans.len(), 0);
//! ```
//!
//! # No partial mask
//!
//! A rule that fires on part of a digit group, an email address or a token that mixes letters
//! and digits masks all of it: there is no output in which some digits of a value are replaced
//! and others are not, and no `[NUMBER]` in the middle of an API key.
//!
//! ```
//! use pii_mask::mask;
//!
//! assert_eq!(mask("bank account (52-186-863859)").text, "bank account ([BANK_ACCOUNT])");
//! assert_eq!(mask("lyn76'o@hotmail.com").text, "[EMAIL]");
//! assert_eq!(mask("pcoleman שטרודל gmail נקודה com").text, "[EMAIL]");
//! ```
//!
//! The complete rule set, with every shape that is kept, is in the repository's
//! `docs/pii-masking.md`.
//!
//! # Crate features
//!
//! - `serde`: derives `Serialize` and `Deserialize` for [`Category`] (as snake_case names),
//!   [`Span`] and [`Masked`].
//! - `utoipa` (turns on `serde`): derives `utoipa::ToSchema` for [`Category`], a string enum of
//!   the same snake_case names ([`Category::as_str`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod detect;
mod merge;
mod tables;
mod validate;
mod view;

use std::collections::BTreeMap;

/// Version of the detection rule set; bumped on any change to what is detected.
pub const RULESET_VERSION: u32 = 6;

/// A category of personal data, in merge priority order (highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub enum Category {
    /// A credential: a provider key or token by its published shape, a JWT, a PEM private key,
    /// a URL's password, an `Authorization` value, or a value assigned to a credential word.
    Secret,
    /// An email address, plain or obfuscated.
    Email,
    /// An IBAN validated by mod-97 and country length.
    Iban,
    /// A payment card number validated by Luhn (or a card word).
    Card,
    /// An Israeli ID (Teudat Zehut) with a valid check digit.
    IlId,
    /// A US Social Security number (`ddd-dd-dddd`, or nine digits after an SSN word).
    UsSsn,
    /// A bank account in a structured form or after an account word.
    BankAccount,
    /// A phone number.
    Phone,
    /// An IPv4 or IPv6 address (not loopback or unspecified).
    Ip,
    /// Any other digit group of ten or more digits.
    Number,
}

impl Category {
    /// Every category, highest merge priority first.
    pub const ALL: [Category; 10] = [
        Category::Secret,
        Category::Email,
        Category::Iban,
        Category::Card,
        Category::IlId,
        Category::UsSsn,
        Category::BankAccount,
        Category::Phone,
        Category::Ip,
        Category::Number,
    ];

    /// The wire name: `secret`, `email`, `iban`, `card`, `il_id`, `us_ssn`, `bank_account`,
    /// `phone`, `ip`, `number`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Secret => "secret",
            Category::Email => "email",
            Category::Iban => "iban",
            Category::Card => "card",
            Category::IlId => "il_id",
            Category::UsSsn => "us_ssn",
            Category::BankAccount => "bank_account",
            Category::Phone => "phone",
            Category::Ip => "ip",
            Category::Number => "number",
        }
    }

    /// The placeholder that replaces a detected value, such as `[EMAIL]`.
    pub fn placeholder(self) -> &'static str {
        match self {
            Category::Secret => "[SECRET]",
            Category::Email => "[EMAIL]",
            Category::Iban => "[IBAN]",
            Category::Card => "[CARD]",
            Category::IlId => "[IL_ID]",
            Category::UsSsn => "[SSN]",
            Category::BankAccount => "[BANK_ACCOUNT]",
            Category::Phone => "[PHONE]",
            Category::Ip => "[IP]",
            Category::Number => "[NUMBER]",
        }
    }
}

/// One replaced span, in byte offsets into the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span {
    /// Start byte offset (inclusive) in the original text.
    pub start: usize,
    /// End byte offset (exclusive) in the original text.
    pub end: usize,
    /// What was detected.
    pub category: Category,
}

/// The result of [`mask`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Masked {
    /// The masked text.
    pub text: String,
    /// Replaced spans, sorted by start, non-overlapping, offsets into the original text.
    pub spans: Vec<Span>,
    /// Number of spans per category; only categories with at least one span appear.
    pub counts: BTreeMap<Category, usize>,
}

/// Masks personal data in `text`.
///
/// Every detected value is replaced by its category's placeholder; overlapping detections merge
/// into one span labelled with the highest-priority category. `mask(&mask(x).text)` returns
/// the same text with no spans.
pub fn mask(text: &str) -> Masked {
    let mut found = Vec::new();
    detect::detect(text, &mut found);
    if found.is_empty() {
        return Masked {
            text: text.to_owned(),
            spans: Vec::new(),
            counts: BTreeMap::new(),
        };
    }
    let mut spans = merge::merge(merge::spans(&found));
    loop {
        let (out, placed) = merge::render(text, &spans);
        // A placeholder is shorter or longer than what it replaced and can sit between
        // characters that were apart, so context windows and boundaries may read differently
        // in the output. Masking the output again until nothing is found keeps `mask`
        // idempotent whatever the rules; it costs one scan of the output, which usually takes
        // the fast path.
        found.clear();
        detect::detect(&out, &mut found);
        if found.is_empty() {
            let counts = count(&spans);
            return Masked {
                text: out,
                spans,
                counts,
            };
        }
        let extra: Vec<Span> = merge::spans(&found)
            .map(|s| merge::to_original(s, &placed))
            .collect();
        let grown = merge::merge(spans.iter().copied().chain(extra));
        // Every finding in the output holds a digit, `@` or `at` outside the placeholders, so
        // each round covers more of the text; the check only guards against a rule bug.
        if grown == spans {
            let counts = count(&spans);
            return Masked {
                text: out,
                spans,
                counts,
            };
        }
        spans = grown;
    }
}

fn count(spans: &[Span]) -> BTreeMap<Category, usize> {
    let mut counts = BTreeMap::new();
    for s in spans {
        *counts.entry(s.category).or_insert(0) += 1;
    }
    counts
}

/// True when a validated detector fires on `s` (used for namespaces and keys).
///
/// It runs the same detection as [`mask`]. Validated detections are emails, phones, cards (Luhn),
/// IBANs (mod 97), Israeli IDs (check digit), bank accounts in their structured forms, and digit
/// groups of ten or more digits. A number that is personal data only because of a word before
/// it does not count, so `invoice-29106136` is accepted.
pub fn contains_personal_data(s: &str) -> bool {
    let mut found = Vec::new();
    detect::detect(s, &mut found);
    found.iter().any(|f| f.validated)
}

/// True when no letter or digit (Unicode `L*` or `N*`) remains after removing placeholders.
pub fn only_placeholders(masked_text: &str) -> bool {
    let mut rest = masked_text;
    while let Some(c) = rest.chars().next() {
        let placeholder = (c == '[')
            .then(|| {
                Category::ALL
                    .iter()
                    .map(|c| c.placeholder())
                    .find(|p| rest.starts_with(p))
            })
            .flatten();
        if let Some(p) = placeholder {
            rest = &rest[p.len()..];
            continue;
        }
        if tables::is_letter_or_number(c) {
            return false;
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}
